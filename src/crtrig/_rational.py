"""Exact rationals from user text in bounded time.

``fractions.Fraction("1e-999999999")`` computes 10**999999999 (a minute and
gigabytes) before any caller can look at the value; so does
``Fraction(Decimal("1e999999999"))``.  :func:`split` reads the same spellings
(a decimal with an optional exponent, or ``N/D``; surrounding whitespace,
underscores between digits, a sign) into a :class:`Parts` without doing any
arithmetic on the digits: the caller checks the exponent and the sizes first
and only then asks for the value (:meth:`Parts.fraction`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

_DIGITS = r"\d+(?:_\d+)*"
_DECIMAL = re.compile(
    rf"\s*(?P<sign>[+-]?)(?=\.?\d)(?P<int>{_DIGITS})?(?:\.(?P<frac>{_DIGITS})?)?"
    rf"(?:[eE](?P<exp>[+-]?{_DIGITS}))?\s*")
_RATIO = re.compile(rf"\s*(?P<sign>[+-]?)(?P<num>{_DIGITS})\s*/\s*(?P<den>{_DIGITS})\s*")
#: Exponents longer than this are not converted: no string is long enough to
#: bring their value back into range (they stand for +-HUGE_EXPONENT).
_MAX_EXPONENT_DIGITS = 30
HUGE_EXPONENT = 10**_MAX_EXPONENT_DIGITS


@dataclass(frozen=True)
class Parts:
    """A rational as written: ``(-1)**negative * coefficient * 10**exponent``
    (a decimal: ``coefficient`` its significant digits, no leading or trailing
    zeros, "" for zero) or ``(-1)**negative * numerator / denominator`` (a
    ratio: the digit strings without leading zeros, "" for zero).  Nothing is
    converted to an int until :meth:`fraction`."""

    negative: bool
    coefficient: str = ""
    exponent: int = 0
    numerator: str | None = None  # a ratio when not None
    denominator: str = ""

    @property
    def is_ratio(self) -> bool:
        return self.numerator is not None

    @property
    def is_zero(self) -> bool:
        return (self.numerator == "") if self.is_ratio else not self.coefficient

    @property
    def leading_exponent(self) -> int:
        """For a nonzero decimal: e with 10**e <= |value| < 10**(e + 1)."""
        return self.exponent + len(self.coefficient) - 1

    def fraction(self) -> Fraction:
        """The exact value; the caller has bounded the sizes (digits and
        exponent) first.  ZeroDivisionError for a zero denominator."""
        if self.is_ratio:
            value = Fraction(int(self.numerator or "0"), int(self.denominator or "0"))
        elif not self.coefficient:
            value = Fraction(0)
        elif self.exponent >= 0:
            value = Fraction(int(self.coefficient) * 10**self.exponent)
        else:
            value = Fraction(int(self.coefficient), 10**-self.exponent)
        return -value if self.negative else value


def _exponent(text: str | None) -> int:
    if not text:
        return 0
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-").replace("_", "").lstrip("0")
    if len(digits) > _MAX_EXPONENT_DIGITS:
        return sign * HUGE_EXPONENT
    return sign * int(digits or "0")


def _decimal_parts(negative: bool, digits: str, exponent: int) -> Parts:
    """Parts of (-1)**negative * int(digits) * 10**exponent (digits: a string)."""
    stripped = digits.lstrip("0")
    significant = stripped.rstrip("0")
    if not significant:
        return Parts(negative)
    return Parts(negative, significant, exponent + len(stripped) - len(significant))


def split(text: str) -> Parts | None:
    """The Parts of a decimal ("0.54", "-1.5e-3", ".5", "5.") or ratio
    ("27/50") string, as ``fractions.Fraction`` spells them; None for anything
    else (NaN and infinities included).  Time linear in len(text)."""
    match = _RATIO.fullmatch(text)
    if match is not None:
        numerator = match["num"].replace("_", "").lstrip("0")
        denominator = match["den"].replace("_", "").lstrip("0")
        return Parts(match["sign"] == "-", numerator=numerator, denominator=denominator)
    match = _DECIMAL.fullmatch(text)
    if match is None:
        return None
    whole = (match["int"] or "").replace("_", "")
    fraction = (match["frac"] or "").replace("_", "")
    return _decimal_parts(match["sign"] == "-", whole + fraction, _exponent(match["exp"]) - len(fraction))


def split_decimal(value: Decimal) -> Parts | None:
    """The Parts of a finite Decimal; None for NaN and infinities."""
    if not value.is_finite():
        return None
    sign, digits, exponent = value.as_tuple()
    return _decimal_parts(bool(sign), "".join(map(str, digits)), exponent)
