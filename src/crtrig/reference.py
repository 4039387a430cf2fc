"""Exact, correctly rounded reference for the ONNX window functions and for
element-wise sin and cos.

This module is the slow, obviously-correct twin of crtrig's C core.  It uses
only the Python standard library plus numpy and ml_dtypes, so it works after a
plain ``pip install crtrig``.

Windows: ``window``, ``window_bits``, ``window_value`` (described next).
Any cosine-sum window with rational coefficients (numpy's 0.54/0.46 Hamming,
for example): ``cosine_sum_window`` and ``cosine_sum_bits``, in the section
"Any cosine-sum window with rational coefficients" below.
Sine and cosine: ``trig(func, array)`` and ``trig_bits(func, x, fmt)``, with
the method described in the section "Sine and cosine of a float" below.

Semantics (ONNX opset 17 HannWindow / HammingWindow / BlackmanWindow)
---------------------------------------------------------------------
For ``n = 0 .. size-1`` and ``D = size`` (periodic) or ``D = size - 1``
(symmetric)::

    w[n] = sum_j (-1)^j a_j cos(2 pi j n / D)

with the exact rational coefficients

    hann      a = (1/2, 1/2)
    hamming   a = (25/46, 21/46)      (the ONNX values, not 0.54/0.46)
    blackman  a = (21/50, 1/2, 2/25)

Writing ``s = sin^2(pi n / D)`` these are polynomials in ``s``::

    hann     = s
    hamming  = (2 + 21 s) / 23
    blackman = s (9 + 16 s) / 25

all increasing in ``s`` on [0, 1], which is what makes interval evaluation
easy: an enclosure ``[s_lo, s_hi]`` of ``s`` maps to the enclosure
``[w(s_lo), w(s_hi)]`` of the window value.

Float outputs are the exact real value rounded once, to nearest with ties to
even, directly into the target format (float16 with subnormals, bfloat16,
float32, float64).  Exact zeros are +0.0.  A symmetric window of size 1 has
``D = 0`` and its value is NaN.  Integer outputs are the ONNX Cast of the
correctly rounded float32 window: truncation toward zero, NaN -> 0.

How the value is computed
-------------------------
``s`` is rational exactly when ``(n mod D)/D`` is one of
0, 1/6, 1/4, 1/3, 1/2 (after folding to [0, 1/2]); then ``s`` is one of
0, 1/4, 1/2, 3/4, 1 and the window value is rounded from an exact Fraction.

Everywhere else the window value is irrational (Niven's theorem for ``s``;
for blackman a rational value would force ``s`` and its Galois conjugate, both
non-negative, to sum to -9/16), so it is never a rounding boundary and a Ziv
loop terminates: evaluate ``s`` in integer fixed point with ``F`` fraction
bits and a rigorous error bound, round both ends of the resulting enclosure of
``w``; if they agree in every float format that is the answer, otherwise
double ``F`` and try again.

Arguments are folded into [0, pi/4]: with ``m = min(n mod D, D - n mod D)``,
``theta = pi m / D`` lies in [0, pi/2]; if ``4 m <= D`` we use
``s = sin^2(theta)``, otherwise ``s = cos^2(phi)`` with
``phi = pi/2 - theta = pi (D - 2 m) / (2 D)`` in [0, pi/4).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from . import _dtypes, _rational

__all__ = [
    "KINDS",
    "TRIG_FUNCTIONS",
    "TRIGPI_FUNCTIONS",
    "trigpi_bits",
    "TAN_FUNCTIONS",
    "tan_bits",
    "COEFFICIENTS",
    "FLOAT_FORMATS",
    "INTEGER_FORMATS",
    "window",
    "window_bits",
    "window_value",
    "cosine_sum_window",
    "cosine_sum_bits",
    "trig",
    "trig_bits",
    "round_rational",
    "bits_to_float",
    "float_to_bits",
    "ulp_distance",
    "canonical_dtype",
    "format_name",
]


# ---------------------------------------------------------------------------
# Number formats
# ---------------------------------------------------------------------------


class FloatFormat(NamedTuple):
    """An IEEE-754-style binary format.

    ``precision`` counts the implicit leading bit; ``emin``/``emax`` are the
    exponents of the smallest and largest normal binades.
    """

    name: str
    precision: int
    emin: int
    emax: int
    width: int
    bits_dtype: np.dtype

    @property
    def dtype(self) -> np.dtype:
        """The numpy dtype (bfloat16: ml_dtypes', imported at the first use)."""
        if self.name == "bfloat16":
            return _dtypes.bfloat16_dtype(load=True)
        return np.dtype(self.name)

    def is_dtype(self, dtype: np.dtype) -> bool:
        """Whether numpy dtype ``dtype`` is this format (never imports ml_dtypes)."""
        if self.name == "bfloat16":
            return _dtypes.is_bfloat16(dtype)
        return dtype == np.dtype(self.name)

    @property
    def exponent_bits(self) -> int:
        return self.width - self.precision

    @property
    def inf_bits(self) -> int:
        return ((1 << self.exponent_bits) - 1) << (self.precision - 1)

    @property
    def nan_bits(self) -> int:
        """The canonical quiet NaN (positive, top mantissa bit set)."""
        return self.inf_bits | (1 << (self.precision - 2))

    @property
    def sign_bit(self) -> int:
        return 1 << (self.width - 1)


FLOAT_FORMATS: dict[str, FloatFormat] = {
    "float16": FloatFormat("float16", 11, -14, 15, 16, np.dtype(np.uint16)),
    "bfloat16": FloatFormat("bfloat16", 8, -126, 127, 16, np.dtype(np.uint16)),
    "float32": FloatFormat("float32", 24, -126, 127, 32, np.dtype(np.uint32)),
    "float64": FloatFormat("float64", 53, -1022, 1023, 64, np.dtype(np.uint64)),
}

#: Integer output formats: name -> numpy dtype.
INTEGER_FORMATS: dict[str, np.dtype] = {
    name: np.dtype(name)
    for name in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
}

#: Order in which cached per-element results store the float formats.
_FLOAT_ORDER = ("float16", "bfloat16", "float32", "float64")

_FLOAT32_ONE_BITS = 0x3F800000


def canonical_dtype(dtype) -> np.dtype:
    """Return the numpy dtype for any accepted spelling of the 12 output types.

    Accepts numpy dtypes and scalar types, strings such as ``"float32"``,
    ``"f4"``, ``"half"``, ``"bfloat16"``, and ``ml_dtypes.bfloat16``.
    Raises ``TypeError`` for anything else.

    Parameters
    ----------
    dtype : dtype, type or str
        A spelling of one of the 12 output types.

    Returns
    -------
    numpy.dtype
        The native-order dtype.

    Raises
    ------
    TypeError
        Anything else.

    Examples
    --------
    >>> import numpy as np
    >>> from crtrig import reference
    >>> print(reference.canonical_dtype("f4"), reference.canonical_dtype(np.intc))
    float32 int32
    >>> print(reference.canonical_dtype("bfloat16"))
    bfloat16
    """
    if isinstance(dtype, str) and dtype.lower() == "bfloat16":
        return FLOAT_FORMATS["bfloat16"].dtype
    try:
        resolved = np.dtype(dtype)
    except TypeError as exc:
        raise TypeError(f"unsupported dtype {dtype!r}") from exc
    if format_name(resolved, _strict=False) is None:
        raise TypeError(f"unsupported dtype {dtype!r}")
    return resolved


def format_name(dtype, _strict: bool = True) -> str | None:
    """Canonical name ("float32", "bfloat16", "uint8", ...) of a dtype.

    Parameters
    ----------
    dtype : dtype, type or str
        A spelling of one of the 12 output types.

    Returns
    -------
    str
        "float16", "bfloat16", "float32", "float64" or an integer type's name.

    Raises
    ------
    TypeError
        An unsupported dtype.

    Examples
    --------
    >>> import numpy as np
    >>> from crtrig import reference
    >>> reference.format_name(np.dtype("f4")), reference.format_name(np.uint8)
    ('float32', 'uint8')
    """
    if isinstance(dtype, str) and dtype.lower() == "bfloat16":
        return "bfloat16"
    resolved = np.dtype(dtype)
    for name, fmt in FLOAT_FORMATS.items():
        if fmt.is_dtype(resolved):
            return name
    for name, int_dtype in INTEGER_FORMATS.items():
        if resolved == int_dtype:
            return name
    if _strict:
        raise TypeError(f"unsupported dtype {dtype!r}")
    return None


def _resolve_name(fmt) -> str:
    """Canonical format name of a name, FloatFormat or dtype spelling."""
    if isinstance(fmt, FloatFormat):
        return fmt.name
    if isinstance(fmt, str) and (fmt in FLOAT_FORMATS or fmt in INTEGER_FORMATS):
        return fmt
    return format_name(fmt)


def _float_format(fmt) -> FloatFormat:
    if isinstance(fmt, FloatFormat):
        return fmt
    name = _resolve_name(fmt)
    if name not in FLOAT_FORMATS:
        raise TypeError(f"{name} is not a floating-point format")
    return FLOAT_FORMATS[name]


# ---------------------------------------------------------------------------
# Exact rounding and bit patterns
# ---------------------------------------------------------------------------


def round_rational(num: int, den: int, fmt) -> int:
    """Bit pattern of ``num/den`` rounded to nearest, ties to even, in ``fmt``.

    ``fmt`` is "float16", "bfloat16", "float32" or "float64" (or the dtype).
    Handles subnormals and overflow to infinity; an exact zero gives +0.0.
    The rounding is a single exact rounding of the rational value.

    Parameters
    ----------
    num : int
        The numerator.
    den : int
        The denominator, not 0.
    fmt : str or dtype
        "float16", "bfloat16", "float32" or "float64".

    Returns
    -------
    int
        The bit pattern of the correctly rounded value.

    Raises
    ------
    ZeroDivisionError
        `den` is 0.
    TypeError
        `fmt` is not a floating-point format.

    Examples
    --------
    >>> from crtrig import reference
    >>> hex(reference.round_rational(1, 3, "float32"))
    '0x3eaaaaab'
    >>> reference.bits_to_float(reference.round_rational(1, 3, "float16"), "float16")
    0.333251953125
    """
    f = _float_format(fmt)
    num, den = int(num), int(den)
    if den == 0:
        raise ZeroDivisionError("round_rational: zero denominator")
    if den < 0:
        num, den = -num, -den
    if num == 0:
        return 0
    sign = 0
    if num < 0:
        sign, num = f.sign_bit, -num

    # Binade: 2**e <= num/den < 2**(e+1).  The bit-length difference is e or
    # e+1; one exact comparison settles which.
    e = num.bit_length() - den.bit_length()
    if (num << max(-e, 0)) < (den << max(e, 0)):
        e -= 1
    # Quantum (weight of the last mantissa bit); subnormals share emin's.
    e_eff = max(e, f.emin)
    quantum_exp = e_eff - (f.precision - 1)
    if quantum_exp >= 0:
        scaled_num, scaled_den = num, den << quantum_exp
    else:
        scaled_num, scaled_den = num << -quantum_exp, den
    mantissa, remainder = divmod(scaled_num, scaled_den)
    twice = 2 * remainder
    if twice > scaled_den or (twice == scaled_den and mantissa & 1):
        mantissa += 1
    # For normal numbers mantissa is in [2**(p-1), 2**p]; the encoding
    # ((e - emin) << (p-1)) + mantissa folds the implicit bit into the
    # biased exponent, and a carry to 2**p lands on the next binade.  For
    # subnormals e_eff == emin and the pattern is the mantissa itself.
    bits = ((e_eff - f.emin) << (f.precision - 1)) + mantissa
    if bits >= f.inf_bits:
        bits = f.inf_bits
    return bits | sign


def bits_to_float(bits: int, fmt) -> float:
    """The value of a bit pattern of ``fmt`` as a Python float (exact).

    Parameters
    ----------
    bits : int
        A bit pattern of `fmt`'s width.
    fmt : str or dtype
        "float16", "bfloat16", "float32" or "float64".

    Returns
    -------
    float
        The value (every value of these formats is a Python float).

    Raises
    ------
    TypeError
        `fmt` is not a floating-point format.
    OverflowError
        `bits` does not fit the format's width.

    Examples
    --------
    >>> from crtrig import reference
    >>> reference.bits_to_float(0x3C00, "float16")
    1.0
    >>> reference.bits_to_float(0x3F80, "bfloat16")
    1.0
    """
    f = _float_format(fmt)
    return float(np.array([bits], dtype=f.bits_dtype).view(f.dtype)[0])


def float_to_bits(x, fmt) -> int:
    """Bit pattern of ``x`` correctly rounded (once) into ``fmt``.

    ``x`` may be a Python/numpy float of any format, an int or a Fraction.
    NaN gives the canonical quiet NaN; the sign of zero and infinity is kept.
    For a value already in ``fmt`` this is simply its bit pattern.

    Parameters
    ----------
    x : float, int or Fraction
        The value.
    fmt : str or dtype
        "float16", "bfloat16", "float32" or "float64".

    Returns
    -------
    int
        The bit pattern.

    Raises
    ------
    TypeError
        `fmt` is not a floating-point format.
    ValueError
        `x` is a string that is not a number.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from crtrig import reference
    >>> hex(reference.float_to_bits(0.1, "bfloat16"))
    '0x3dcd'
    >>> hex(reference.float_to_bits(-0.0, "float16"))
    '0x8000'
    >>> hex(reference.float_to_bits(Fraction(1, 3), "float64"))
    '0x3fd5555555555555'
    """
    f = _float_format(fmt)
    if isinstance(x, Fraction):
        return round_rational(x.numerator, x.denominator, f)
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return round_rational(int(x), 1, f)
    value = float(x)
    if math.isnan(value):
        return f.nan_bits
    sign = f.sign_bit if math.copysign(1.0, value) < 0 else 0
    if math.isinf(value):
        return f.inf_bits | sign
    if value == 0.0:
        return sign
    ratio = Fraction(value)
    return round_rational(ratio.numerator, ratio.denominator, f)


def _ordered(bits: int, f: FloatFormat) -> int:
    """Map a bit pattern to an integer that increases with the value.

    +0 and -0 both map to 0; adjacent floats map to adjacent integers.
    """
    magnitude = bits & (f.sign_bit - 1)
    return -magnitude if bits & f.sign_bit else magnitude


def ulp_distance(a, b, fmt):
    """Distance between ``a`` and ``b`` in units in the last place of ``fmt``.

    For float formats both values are first taken into ``fmt`` (exactly when
    they are values of that format, otherwise by correct rounding) and the
    result is the number of representable values between them: 0 for equal
    values (including +0 vs -0), 1 for neighbours, and infinity counts as the
    value after the largest finite one.  NaN handling: two NaNs are at
    distance 0, a NaN and a non-NaN at distance ``math.inf``.

    For integer formats it is ``abs(int(a) - int(b))`` as an exact Python int.

    Parameters
    ----------
    a, b : float or int
        The two values (Python or numpy numbers).
    fmt : str or dtype
        Any of the 12 output types.

    Returns
    -------
    int or float
        The distance; ``math.inf`` between a NaN and a number.

    Raises
    ------
    TypeError
        An unsupported `fmt`.

    Examples
    --------
    >>> import numpy as np
    >>> from crtrig import reference
    >>> one = np.float32(1)
    >>> reference.ulp_distance(one, np.nextafter(one, np.float32(2)), "float32")
    1
    >>> reference.ulp_distance(0.0, -0.0, "float32")
    0
    >>> reference.ulp_distance(3, 7, "int8")
    4
    """
    if _resolve_name(fmt) in INTEGER_FORMATS:
        return abs(int(a) - int(b))
    f = _float_format(fmt)
    a_nan = _is_nan(a)
    b_nan = _is_nan(b)
    if a_nan or b_nan:
        return 0 if a_nan and b_nan else math.inf
    return abs(_ordered(float_to_bits(a, f), f) - _ordered(float_to_bits(b, f), f))


def _is_nan(x) -> bool:
    if isinstance(x, (Fraction, int)):
        return False
    return math.isnan(float(x))


# ---------------------------------------------------------------------------
# Fixed-point pi, sin and cos with rigorous error bounds
# ---------------------------------------------------------------------------
#
# A fixed-point number with F fraction bits is an integer X standing for
# X / 2**F.  Every routine returns (approximation, error bound) with the
# error bound E an integer such that |exact * 2**F - approximation| <= E.


def _arctan_inverse_fixed(k: int, bits: int) -> tuple[int, int]:
    """arctan(1/k) * 2**bits for an integer k >= 2, with its error bound.

    Series: arctan(1/k) = sum_i (-1)^i / ((2i+1) k^(2i+1)).
    ``power_i = floor(2**bits / k^(2i+1))`` is exact (nested floor divisions
    by positive integers equal one floor division), and each term
    ``floor(power_i / (2i+1))`` = floor(2**bits / ((2i+1) k^(2i+1))) is below
    the true term by less than 1.  The loop stops when power_N = 0, i.e.
    2**bits / k^(2N+1) < 1, so the omitted tail of this alternating series
    with decreasing terms is below 1.  Hence |error| < N + 1.
    """
    total = 0
    power = (1 << bits) // k
    k_squared = k * k
    index = 0
    while power:
        term = power // (2 * index + 1)
        total += -term if index & 1 else term
        power //= k_squared
        index += 1
    return total, index + 1


@lru_cache(maxsize=64)
def _pi_fixed(bits: int) -> tuple[int, int]:
    """pi * 2**bits by Machin's formula pi = 16 atan(1/5) - 4 atan(1/239)."""
    a5, e5 = _arctan_inverse_fixed(5, bits)
    a239, e239 = _arctan_inverse_fixed(239, bits)
    return 16 * a5 - 4 * a239, 16 * e5 + 4 * e239


def _sin_fixed(x: int, bits: int) -> tuple[int, int]:
    """sin(x / 2**bits) * 2**bits for 0 <= x < 2**bits, with error bound.

    Taylor series t_0 = x, t_i = t_{i-1} * x^2 / ((2i)(2i+1)), computed as
    floor((t_{i-1} * x^2 >> 2 bits) / ((2i)(2i+1))), which equals the floor
    of the exact product quotient.  With q_i = x^2/((2i)(2i+1)) < 1/6 (the
    real argument is below 1) the error e_i = T_i - t_i of the i-th computed
    term obeys e_i = q_i e_{i-1} + d_i, d_i in [0, 1), e_0 = 0, so
    0 <= e_i < 1/(1 - 1/6) = 1.2.  The loop stops at the first t_N = 0; the
    true terms decrease, so the alternating tail from N on is at most
    T_N = e_N < 1.2.  Total |error| < 1.2 (N - 1) + 1.2 <= 2 N + 2.
    """
    x_squared = x * x
    shift = 2 * bits
    term = x
    total = x
    index = 1
    while term:
        term = ((term * x_squared) >> shift) // ((2 * index) * (2 * index + 1))
        total += -term if index & 1 else term
        index += 1
    return total, 2 * index + 2


def _cos_fixed(x: int, bits: int) -> tuple[int, int]:
    """cos(x / 2**bits) * 2**bits for 0 <= x < 2**bits, with error bound.

    Same scheme as ``_sin_fixed`` with t_0 = 2**bits (exact) and
    q_i = x^2/((2i-1)(2i)) < 1/2, so 0 <= e_i < 2 and the total
    |error| < 2 (N - 1) + 2 <= 2 N + 2.
    """
    x_squared = x * x
    shift = 2 * bits
    term = 1 << bits
    total = term
    index = 1
    while term:
        term = ((term * x_squared) >> shift) // ((2 * index - 1) * (2 * index))
        total += -term if index & 1 else term
        index += 1
    return total, 2 * index + 2


def _angle_interval(numerator: int, denominator: int, bits: int) -> tuple[int, int]:
    """Integers [lo, hi] with lo/2**bits <= pi*numerator/denominator <= hi/2**bits."""
    guard = 16 + bits.bit_length()
    pi_approx, pi_error = _pi_fixed(bits + guard)
    scale = denominator << guard
    lo = ((pi_approx - pi_error) * numerator) // scale
    hi = -((-(pi_approx + pi_error) * numerator) // scale)
    return lo, hi


def _sin_squared_interval(m: int, d: int, bits: int) -> tuple[int, int]:
    """Integers [lo, hi] enclosing sin^2(pi m / d) * 2**(2 bits).

    Requires 0 < m < d/2 (the irrational, folded case).
    """
    one = 1 << bits
    if 4 * m <= d:
        # theta = pi m / d in (0, pi/4]; sin increases there.
        x_lo, x_hi = _angle_interval(m, d, bits)
        s_lo, e_lo = _sin_fixed(x_lo, bits)
        s_hi, e_hi = _sin_fixed(x_hi, bits)
        lower = max(0, s_lo - e_lo)
        upper = min(one, s_hi + e_hi)
    else:
        # phi = pi (d - 2m) / (2d) in (0, pi/4); cos decreases there.
        x_lo, x_hi = _angle_interval(d - 2 * m, 2 * d, bits)
        c_lo, e_lo = _cos_fixed(x_hi, bits)
        c_hi, e_hi = _cos_fixed(x_lo, bits)
        lower = max(0, c_lo - e_lo)
        upper = min(one, c_hi + e_hi)
    return lower * lower, upper * upper


# ---------------------------------------------------------------------------
# Window values
# ---------------------------------------------------------------------------

#: kind -> (c0, c1, c2, denominator): w(s) = (c0 + c1 s + c2 s^2) / denominator
_POLYNOMIALS: dict[str, tuple[int, int, int, int]] = {
    "hann": (0, 1, 0, 1),
    "hamming": (2, 21, 0, 23),
    "blackman": (0, 9, 16, 25),
}

#: kind -> ONNX cosine-sum coefficients (documentation and tests).
COEFFICIENTS: dict[str, tuple[Fraction, ...]] = {
    "hann": (Fraction(1, 2), Fraction(1, 2)),
    "hamming": (Fraction(25, 46), Fraction(21, 46)),
    "blackman": (Fraction(21, 50), Fraction(1, 2), Fraction(2, 25)),
}

KINDS = tuple(_POLYNOMIALS)

#: Folded, reduced (m, d) -> exact s = sin^2(pi m / d) where it is rational.
_RATIONAL_S: dict[tuple[int, int], Fraction] = {
    (0, 1): Fraction(0),
    (1, 6): Fraction(1, 4),
    (1, 4): Fraction(1, 2),
    (1, 3): Fraction(3, 4),
    (1, 2): Fraction(1),
}

# Starting precision: bits = 72 + bitlen(d).  The folded sin/cos value is at
# least about 2/d, and the enclosure's absolute width is a few dozen units of
# 2**-bits, so its relative width is about 2**(bitlen(d) + 7 - bits) =
# 2**-65: beyond float64's 53 bits, so a retry (doubling) is rare.
_INITIAL_EXTRA_BITS = 72
_MAX_BITS = 1 << 16
_CACHE_LIMIT = 1 << 20

# (kind, m, d) -> bit patterns in _FLOAT_ORDER
_value_cache: dict[tuple[str, int, int], tuple[int, int, int, int]] = {}
# (m, d) -> (bits, lo, hi): enclosure of sin^2 * 2**(2 bits)
_s_cache: dict[tuple[int, int], tuple[int, int, int]] = {}


def _fold(n: int, d: int) -> tuple[int, int]:
    """Reduce n/d (d > 0) to the folded fraction m/d' with 0 <= m <= d'/2.

    sin^2(pi n / d) only depends on n mod d and is symmetric under
    r -> d - r, so this is the canonical cache key for all three kinds.
    """
    r = n % d
    m = min(r, d - r)
    g = math.gcd(m, d)
    return m // g, d // g


def _round_all(num: int, den: int) -> tuple[int, ...]:
    return tuple(round_rational(num, den, FLOAT_FORMATS[name]) for name in _FLOAT_ORDER)


def _folded_bits(kind: str, m: int, d: int, initial_bits: int | None = None) -> tuple[int, ...]:
    """Correctly rounded bit patterns (float16, bfloat16, float32, float64)."""
    key = (kind, m, d)
    cached = _value_cache.get(key)
    if cached is not None and initial_bits is None:
        return cached
    c0, c1, c2, c_den = _POLYNOMIALS[kind]

    exact_s = _RATIONAL_S.get((m, d))
    if exact_s is not None:
        w = (c0 + c1 * exact_s + c2 * exact_s * exact_s) / c_den
        result = _round_all(w.numerator, w.denominator)
    else:
        bits = initial_bits if initial_bits is not None else _INITIAL_EXTRA_BITS + d.bit_length()
        cached_s = _s_cache.get((m, d)) if initial_bits is None else None
        while True:
            if cached_s is not None and cached_s[0] >= bits:
                bits, s_lo, s_hi = cached_s
            else:
                s_lo, s_hi = _sin_squared_interval(m, d, bits)
                if initial_bits is None:
                    _s_cache[(m, d)] = (bits, s_lo, s_hi)
            # w = (c0 + c1 s + c2 s^2) / c_den with s = S / 2**(2 bits):
            # numerator over c_den * 2**(4 bits).  w is increasing in s >= 0.
            shift = 2 * bits
            den = c_den << (2 * shift)
            num_lo = (c0 << (2 * shift)) + ((c1 * s_lo) << shift) + c2 * s_lo * s_lo
            num_hi = (c0 << (2 * shift)) + ((c1 * s_hi) << shift) + c2 * s_hi * s_hi
            low = _round_all(num_lo, den)
            if low == _round_all(num_hi, den):
                result = low
                break
            bits *= 2
            if bits > _MAX_BITS:  # pragma: no cover - would mean a bug
                raise ArithmeticError(f"no convergence for {kind} at {m}/{d}")
    if initial_bits is None:
        if len(_value_cache) > _CACHE_LIMIT:
            _value_cache.clear()
            _s_cache.clear()
        _value_cache[key] = result
    return result


def _check_kind(kind: str) -> str:
    if kind not in _POLYNOMIALS:
        raise ValueError(f"unknown window kind {kind!r}; expected one of {', '.join(KINDS)}")
    return kind


def window_bits(kind: str, n: int, d: int, fmt) -> int:
    """Bit pattern of the correctly rounded window term ``n`` with denominator ``d``.

    ``fmt`` is a float format name or dtype.  ``d == 0`` gives the canonical
    quiet NaN (the symmetric size-1 window).

    Parameters
    ----------
    kind : str
        "hann", "hamming" or "blackman".
    n : int
        The element, 0 <= n.
    d : int
        The denominator D: the size (periodic) or the size - 1 (symmetric).
    fmt : str or dtype
        A float format: "float16", "bfloat16", "float32" or "float64".

    Returns
    -------
    int
        The bit pattern (an unsigned integer of the format's width).

    Raises
    ------
    ValueError
        An unknown `kind`.
    TypeError
        `fmt` is not a floating-point format.

    Examples
    --------
    >>> from crtrig import reference
    >>> hex(reference.window_bits("hann", 1, 4, "float32"))   # 0.5
    '0x3f000000'
    >>> reference.window_bits("hann", 0, 0, "float32") == 0x7fc00000   # d == 0: NaN
    True
    """
    _check_kind(kind)
    f = _float_format(fmt)
    n, d = int(n), int(d)
    if d < 0:
        raise ValueError("denominator must be non-negative")
    if d == 0:
        return f.nan_bits
    m, d_reduced = _fold(n, d)
    return _folded_bits(kind, m, d_reduced)[_FLOAT_ORDER.index(f.name)]


def window_value(kind: str, n: int, d: int, fmt="float32"):
    """The correctly rounded window term as a Python number.

    Float formats give a Python float (exactly the format's value; NaN when
    ``d == 0``).  Integer formats give the ONNX Cast of the float32 value:
    1 where the correctly rounded float32 is 1.0, else 0.

    Parameters
    ----------
    kind : str
        "hann", "hamming" or "blackman".
    n : int
        The element.
    d : int
        The denominator D (0 gives NaN, or 0 for integer formats).
    fmt : str or dtype, default "float32"
        Any of the 12 output types.

    Returns
    -------
    float or int
        A Python float for float formats, an int for integer ones.

    Raises
    ------
    ValueError
        An unknown `kind`.
    TypeError
        An unsupported `fmt`.

    Examples
    --------
    >>> from crtrig import reference
    >>> reference.window_value("hann", 1, 3, "float64")
    0.75
    >>> reference.window_value("hann", 2, 4, "uint8")
    1
    """
    name = _resolve_name(fmt)
    if name in INTEGER_FORMATS:
        return 1 if window_bits(kind, n, d, "float32") == _FLOAT32_ONE_BITS else 0
    return bits_to_float(window_bits(kind, n, d, name), name)


def window(kind: str, size, periodic: bool = True, dtype="float32") -> np.ndarray:
    """Correctly rounded ONNX window of ``size`` points as an array of ``dtype``.

    ``kind`` is "hann", "hamming" or "blackman"; ``dtype`` any numpy spelling
    of float16, bfloat16, float32, float64 or the eight integer types.

    Parameters
    ----------
    kind : str
        "hann", "hamming" (ONNX's 25/46, 21/46) or "blackman".
    size : int
        The number of points, 0 or more.
    periodic : bool, default True
        True: D = size; False: D = size - 1 (size 1 then gives NaN).
    dtype : dtype or str, default "float32"
        One of the 12 output types, in any spelling `canonical_dtype` accepts.

    Returns
    -------
    numpy.ndarray
        The window: what ``crtrig.hann_window(size, periodic, dtype)`` (and the
        others) must return, bit for bit.

    Raises
    ------
    ValueError
        An unknown `kind`, or a negative `size`.
    TypeError
        An unsupported `dtype`.

    Examples
    --------
    >>> import numpy as np, crtrig
    >>> from crtrig import reference
    >>> print(reference.window("hann", 4))
    [0.  0.5 1.  0.5]
    >>> print(reference.window("hamming", 3, periodic=False, dtype="float64"))
    [0.08695652 1.         0.08695652]
    >>> w = reference.window("blackman", 100, dtype="bfloat16")
    >>> np.array_equal(w.view(np.uint16), crtrig.blackman_window(100, dtype="bfloat16").view(np.uint16))
    True
    """
    _check_kind(kind)
    out_dtype = canonical_dtype(dtype)
    name = format_name(out_dtype)
    size = _as_size(size)
    d = size if periodic else size - 1
    if size == 0:
        return np.zeros(0, dtype=out_dtype)

    if name in INTEGER_FORMATS:
        if d == 0:
            return np.zeros(size, dtype=out_dtype)  # NaN casts to 0
        f32 = _FLOAT_ORDER.index("float32")
        ones = [1 if _folded_bits(kind, *_fold(n, d))[f32] == _FLOAT32_ONE_BITS else 0 for n in range(size)]
        return np.array(ones, dtype=out_dtype)

    f = FLOAT_FORMATS[name]
    if d == 0:
        patterns = [f.nan_bits] * size
    else:
        slot = _FLOAT_ORDER.index(name)
        patterns = [_folded_bits(kind, *_fold(n, d))[slot] for n in range(size)]
    return np.array(patterns, dtype=f.bits_dtype).view(f.dtype)


def _as_size(size) -> int:
    """Accept a Python int or a 0-d / 1-element integer array as the size."""
    if isinstance(size, np.ndarray):
        if size.size != 1 or size.dtype.kind not in "iu":
            raise ValueError("size must be a scalar or 1-element integer tensor")
        size = size.reshape(()).item()
    if isinstance(size, (bool, np.bool_)) or not isinstance(size, (int, np.integer)):
        raise TypeError(f"size must be an integer, got {type(size).__name__}")
    size = int(size)
    if size < 0:
        shown = str(size) if size.bit_length() <= 64 else f"a negative integer of {size.bit_length()} bits"
        raise ValueError(f"size must be non-negative, got {shown}")
    return size


# ---------------------------------------------------------------------------
# Any cosine-sum window with rational coefficients
# ---------------------------------------------------------------------------
#
#     w[n] = sum_{j=0..J} (-1)^j a_j cos(j theta),   theta = 2 pi n / D,
#
# with rational a_j: the ONNX windows above, and the Hamming window of numpy,
# scipy and torch, a = (27/50, 23/50) (0.54, 0.46).  By symmetry and
# periodicity w only depends on the folded, reduced fraction m/d of _fold
# (theta = 2 pi m / d with gcd(m, d) = 1, or m = 0 and d = 1).
#
# Exact values.  eta = exp(2 pi i m / d) is a primitive d-th root of unity, and
# w = sum_j (-1)^j a_j (eta^j + eta^-j) / 2 lies in Q(eta).  The minimal
# polynomial of eta over Q is the cyclotomic polynomial Phi_d, of degree
# phi(d), so 1, eta, ..., eta^(phi(d) - 1) is a basis of Q(eta): written as a
# polynomial in eta (exponents mod d) and reduced modulo Phi_d, w is rational
# exactly when the remainder is a constant, and then w is that constant.
# Let J be the largest j >= 1 with a_j != 0 (if there is none, w = a_0
# everywhere).  If w = r were rational, eta would be a root of the non-zero
# polynomial eta^J (w(eta) - r) of degree 2 J, so phi(d) <= 2 J; and
# phi(d) >= sqrt(d / 2) for every d, so d <= 8 J^2.  The exact test therefore
# runs for d <= 8 J^2 only (this covers d = 1 and d = 2); for every larger d
# the value is irrational.
#
# Irrational values.  An irrational value is never a rounding boundary (those
# are dyadic rationals), so a Ziv loop terminates.  With c = cos(theta) and the
# Chebyshev polynomials (cos(j theta) = T_j(c)), w = P(c) with
# P = sum_j (-1)^j a_j T_j, of degree J.  _sin_squared_interval encloses
# s = sin^2(pi m / d) in [s_lo, s_hi] / 2**(2 bits) (it needs 0 < m < d/2,
# true for every d >= 3), so c = 1 - 2 s lies in [c_lo, c_hi], inside [-1, 1].
# With c_mid the midpoint and rad the radius of that interval, the mean value
# theorem and Markov's inequality |T_j'| <= j^2 on [-1, 1] give
#     |P(c) - P(c_mid)| <= rad * sum_j |a_j| j^2.
# P(c_mid) is an exact rational, so [P(c_mid) - err, P(c_mid) + err] encloses
# w exactly; both ends are rounded (exactly) into each float format, and when
# they differ somewhere, the precision is doubled.


class _CosineSum(NamedTuple):
    """A cosine sum prepared for evaluation (see the comment above)."""

    coefficients: tuple[Fraction, ...]
    degree: int  # J; 0 for a constant window
    poly: tuple[int, ...]  # P(c) = sum_k poly[k] c^k / poly_den
    poly_den: int
    slope_num: int  # sum_j |a_j| j^2 = slope_num / slope_den
    slope_den: int


#: Limits on a coefficient written as text, those of case files (crtrig.cases):
#: at most 2000 significant digits (or digits of N and D), a decimal exponent
#: within +-1000; checked before the value is built (Fraction("1e-999999999")
#: would compute 10**999999999 first).
MAX_COEFFICIENT_DIGITS = 2000
MAX_COEFFICIENT_EXPONENT = 1000


def _coefficient_from_text(text: str) -> Fraction:
    shown = repr(text) if len(text) <= 40 else f"{text[:40]!r}... ({len(text)} characters)"
    parts = _rational.split(text)
    if parts is None:
        raise ValueError(f"coefficient {shown} is not a rational number")
    if parts.is_ratio:
        if max(len(parts.numerator), len(parts.denominator)) > MAX_COEFFICIENT_DIGITS:
            raise ValueError(f"coefficient {shown} has more than {MAX_COEFFICIENT_DIGITS} digits")
        if not parts.denominator:
            raise ValueError(f"coefficient {shown} is not a rational number (a zero denominator)")
    elif not parts.is_zero:
        if len(parts.coefficient) > MAX_COEFFICIENT_DIGITS:
            raise ValueError(f"coefficient {shown} has more than {MAX_COEFFICIENT_DIGITS} significant digits")
        if abs(parts.leading_exponent) > MAX_COEFFICIENT_EXPONENT:
            raise ValueError(f"coefficient {shown} is out of range (decimal exponent beyond "
                             f"+-{MAX_COEFFICIENT_EXPONENT})")
    return parts.fraction()


def _cosine_sum_coefficients(coefficients) -> tuple[Fraction, ...]:
    if isinstance(coefficients, (str, bytes)):
        raise TypeError("coefficients must be a sequence of rationals, not a string")
    try:
        items = list(coefficients)
    except TypeError:
        raise TypeError(
            f"coefficients must be a sequence of rationals; got {type(coefficients).__name__}"
        ) from None
    if not items:
        raise ValueError("coefficients must not be empty")
    result = []
    for item in items:
        if isinstance(item, (bool, np.bool_)) or isinstance(item, (float, np.floating)):
            raise TypeError(
                f"coefficient {item!r}: give an exact rational (an int, a Fraction or a decimal "
                "string such as '0.54'), not a bool or a float (a float stands for its binary "
                "value: 0.54 is not 27/50)"
            )
        if isinstance(item, (int, np.integer)):
            result.append(Fraction(int(item)))
        elif isinstance(item, Fraction):
            result.append(Fraction(item))
        elif isinstance(item, str):
            result.append(_coefficient_from_text(item))
        else:
            raise TypeError(
                f"coefficient {item!r}: expected an int, a Fraction or a decimal string; "
                f"got {type(item).__name__}"
            )
    return tuple(result)


@lru_cache(maxsize=64)
def _prepare_cosine_sum(coefficients: tuple[Fraction, ...]) -> _CosineSum:
    degree = max((j for j, a in enumerate(coefficients) if j >= 1 and a != 0), default=0)
    # Chebyshev polynomials as integer coefficient lists: T_0 = 1, T_1 = c,
    # T_{j+1} = 2 c T_j - T_{j-1}.
    chebyshev = [[1], [0, 1]]
    while len(chebyshev) <= degree:
        previous, current = chebyshev[-2], chebyshev[-1]
        following = [0] + [2 * x for x in current]
        for k, x in enumerate(previous):
            following[k] -= x
        chebyshev.append(following)
    poly = [Fraction(0)] * (degree + 1)
    for j, a in enumerate(coefficients[: degree + 1]):
        for k, t in enumerate(chebyshev[j]):
            poly[k] += (-a if j & 1 else a) * t
    poly_den = math.lcm(*(p.denominator for p in poly))
    slope = sum((abs(a) * j * j for j, a in enumerate(coefficients[: degree + 1])), Fraction(0))
    return _CosineSum(
        coefficients,
        degree,
        tuple(int(p * poly_den) for p in poly),
        poly_den,
        slope.numerator,
        slope.denominator,
    )


def _poly_remainder(numerator: list, divisor: tuple[int, ...]) -> list:
    """Remainder of a polynomial (coefficient list, lowest degree first) by a
    monic integer polynomial; exact for int and Fraction coefficients."""
    remainder = list(numerator)
    top = len(divisor) - 1
    for k in range(len(remainder) - 1, top - 1, -1):
        factor = remainder[k]
        if factor:
            for i, c in enumerate(divisor):
                remainder[k - top + i] -= factor * c
    return remainder[:top]


@lru_cache(maxsize=None)
def _cyclotomic(n: int) -> tuple[int, ...]:
    """Phi_n as integer coefficients, lowest degree first (x^n - 1 = prod_{k | n} Phi_k)."""
    quotient = [-1] + [0] * (n - 1) + [1]
    for k in range(1, n):
        if n % k == 0:
            divisor = _cyclotomic(k)
            # Exact division by the monic divisor: long division, keep the quotient.
            top = len(divisor) - 1
            result = [0] * (len(quotient) - top)
            for i in range(len(quotient) - 1, top - 1, -1):
                factor = quotient[i]
                result[i - top] = factor
                if factor:
                    for t, c in enumerate(divisor):
                        quotient[i - top + t] -= factor * c
            assert not any(quotient[:top]), "cyclotomic division must be exact"
            quotient = result
    return tuple(quotient)


def _exact_cosine_sum(prepared: _CosineSum, m: int, d: int) -> Fraction | None:
    """The exact value at theta = 2 pi m / d if it is rational, else None."""
    if prepared.degree == 0:
        return prepared.coefficients[0]
    if d > 8 * prepared.degree**2:
        return None  # irrational (see above)
    in_eta = [Fraction(0)] * d
    for j, a in enumerate(prepared.coefficients[: prepared.degree + 1]):
        half = (-a if j & 1 else a) / 2
        in_eta[j * m % d] += half
        in_eta[-j * m % d] += half
    remainder = _poly_remainder(in_eta, _cyclotomic(d))
    if any(remainder[1:]):
        return None
    return remainder[0] if remainder else Fraction(0)


# (coefficients, m, d) -> bit patterns in _FLOAT_ORDER
_cosine_sum_cache: dict[tuple[tuple[Fraction, ...], int, int], tuple[int, ...]] = {}


def _cosine_sum_folded_bits(prepared: _CosineSum, m: int, d: int) -> tuple[int, ...]:
    """Correctly rounded bit patterns (float16, bfloat16, float32, float64)."""
    key = (prepared.coefficients, m, d)
    cached = _cosine_sum_cache.get(key)
    if cached is not None:
        return cached
    exact = _exact_cosine_sum(prepared, m, d)
    if exact is not None:
        result = _round_all(exact.numerator, exact.denominator)
    else:
        degree = prepared.degree
        bits = _INITIAL_EXTRA_BITS + d.bit_length()
        while True:
            s_lo, s_hi = _sin_squared_interval(m, d, bits)
            # c = 1 - 2 s in units of 2**-(2 bits): [c_lo, c_hi]; midpoint
            # x / 2**t and radius width / 2**t with t = 2 bits + 1.
            one = 1 << (2 * bits)
            c_lo, c_hi = one - 2 * s_hi, one - 2 * s_lo
            x, width, t = c_lo + c_hi, c_hi - c_lo, 2 * bits + 1
            # sum_k poly[k] x^k 2^(t (J - k)) by homogeneous Horner.
            acc = prepared.poly[degree]
            for k in range(degree - 1, -1, -1):
                acc = acc * x + (prepared.poly[k] << (t * (degree - k)))
            # P(c_mid) = acc / (poly_den 2^(t J)); error <= slope * width / 2^t.
            den = prepared.poly_den * prepared.slope_den << (t * degree)
            middle = acc * prepared.slope_den
            error = (prepared.slope_num * width * prepared.poly_den) << (t * (degree - 1))
            low = _round_all(middle - error, den)
            if low == _round_all(middle + error, den):
                result = low
                break
            bits *= 2
            if bits > _MAX_BITS:  # pragma: no cover - would mean a bug
                raise ArithmeticError(f"no convergence for the cosine sum at {m}/{d}")
    if len(_cosine_sum_cache) > _CACHE_LIMIT:
        _cosine_sum_cache.clear()
    _cosine_sum_cache[key] = result
    return result


def cosine_sum_bits(coefficients, n: int, d: int, fmt) -> int:
    """Bit pattern of the correctly rounded term ``n`` of a cosine-sum window.

    The term is ``sum_j (-1)^j a_j cos(2 pi j n / d)`` with the exact rational
    ``coefficients`` ``a_j`` (ints, Fractions or decimal strings such as
    ``"0.54"``; floats are refused), rounded once into the float format
    ``fmt``.  ``d == 0`` gives the canonical quiet NaN.

    Parameters
    ----------
    coefficients : sequence of int, Fraction or str
        The exact a_j.
    n : int
        The element.
    d : int
        The denominator D (0 gives NaN).
    fmt : str or dtype
        "float16", "bfloat16", "float32" or "float64".

    Returns
    -------
    int
        The bit pattern.

    Raises
    ------
    TypeError
        A float or bool coefficient, or `fmt` is not a floating-point format.

    Examples
    --------
    >>> from crtrig import reference
    >>> bits = reference.cosine_sum_bits(("0.54", "0.46"), 0, 4, "float64")
    >>> reference.bits_to_float(bits, "float64")   # 0.54 - 0.46, rounded once
    0.08
    """
    prepared = _prepare_cosine_sum(_cosine_sum_coefficients(coefficients))
    f = _float_format(fmt)
    n, d = int(n), int(d)
    if d < 0:
        raise ValueError("denominator must be non-negative")
    if d == 0:
        return f.nan_bits
    return _cosine_sum_folded_bits(prepared, *_fold(n, d))[_FLOAT_ORDER.index(f.name)]


def cosine_sum_window(coefficients, size, periodic: bool = True, dtype="float32") -> np.ndarray:
    """Correctly rounded cosine-sum window of ``size`` points.

    ``w[n] = sum_j (-1)^j a_j cos(2 pi j n / D)`` for ``n = 0 .. size-1`` with
    ``D = size`` (periodic) or ``size - 1`` (symmetric; size 1 gives NaN),
    each value the exact real rounded once into ``dtype`` (float16,
    bfloat16, float32 or float64).  ``coefficients`` are exact rationals:
    ints, Fractions or decimal strings, e.g. ``("0.54", "0.46")`` for the
    Hamming window of numpy, scipy and torch.  ``COEFFICIENTS[kind]`` gives
    the same values as ``window(kind, ...)``.

    Parameters
    ----------
    coefficients : sequence of int, Fraction or str
        The exact a_j, for example ``("0.54", "0.46")``; floats are refused.
    size : int
        The number of points, 0 or more.
    periodic : bool, default True
        True: D = size; False: D = size - 1.
    dtype : dtype or str, default "float32"
        float16, bfloat16, float32 or float64.

    Returns
    -------
    numpy.ndarray
        The correctly rounded window.

    Raises
    ------
    TypeError
        A float or bool coefficient (a float stands for its binary value), or an
        unsupported `dtype`.
    ValueError
        A negative `size`.

    Examples
    --------
    >>> from crtrig import reference
    >>> print(reference.cosine_sum_window(("0.54", "0.46"), 5, periodic=False, dtype="float64"))
    [0.08 0.54 1.   0.54 0.08]
    >>> print(reference.cosine_sum_window(reference.COEFFICIENTS["hann"], 4))
    [0.  0.5 1.  0.5]
    """
    prepared = _prepare_cosine_sum(_cosine_sum_coefficients(coefficients))
    f = _float_format(canonical_dtype(dtype))
    size = _as_size(size)
    d = size if periodic else size - 1
    if size == 0:
        return np.zeros(0, dtype=f.dtype)
    if d == 0:
        patterns = [f.nan_bits] * size
    else:
        slot = _FLOAT_ORDER.index(f.name)
        patterns = [_cosine_sum_folded_bits(prepared, *_fold(n, d))[slot] for n in range(size)]
    return np.array(patterns, dtype=f.bits_dtype).view(f.dtype)


# ---------------------------------------------------------------------------
# Sine and cosine of a float
# ---------------------------------------------------------------------------
#
# x = M * 2**E exactly (M, E integers).  For a = |x| we find an integer k
# and an enclosure of the remainder r = a - k pi/2 (|r| <= pi/4 plus a hair)
# in fixed point with W fraction bits, using pi with enough bits that k*pi
# is still accurate to a few units of 2**-W however large k is.  Then
#
#     sin(a) = sin(r), cos(r), -sin(r), -cos(r)   for k mod 4 = 0, 1, 2, 3
#     cos(a) = sin(a + pi/2): the same table at k + 1,
#
# and sin(-a) = -sin(a), cos(-a) = cos(a).  sin(r) or cos(r) is evaluated
# once, at the midpoint of r's enclosure, with the Taylor kernels above;
# both are 1-Lipschitz, so widening the kernel's error bound by the
# enclosure's radius gives a rigorous enclosure of the result.  Both ends are
# rounded exactly into the target format; if they differ, W is doubled.
#
# The loop terminates for every finite non-zero x: sin(x) and cos(x) are
# transcendental there (Lindemann-Weierstrass), so never zero, never a
# rounding boundary (a dyadic rational) and never exactly the value of a float.

#: The element-wise trigonometric functions ``trig`` and ``trig_bits`` accept.
TRIG_FUNCTIONS = ("sin", "cos")

# Starting fixed-point precision W: the result's leading bit plus this many
# bits.  The enclosure is a few dozen units of 2**-W wide, so the first try
# settles all but inputs whose value lies within about 2**-55 (relative) of
# a rounding boundary, or whose remainder r is tiny.
_TRIG_INITIAL_BITS = 64
_TRIG_MAX_BITS = 1 << 20

# The most precise pi computed so far: (bits, approximation, error bound).
# Any smaller precision is derived from it by a shift.
_best_pi: tuple[int, int, int] = (0, 0, 0)


def _pi_scaled(bits: int) -> tuple[int, int]:
    """pi * 2**bits as (approximation, error bound) for any bits >= 0.

    Computes pi once at a generous precision and truncates it for smaller
    requests: if |pi 2**B - P| <= e then, for s = B - bits,
    |pi 2**bits - floor(P / 2**s)| <= e / 2**s + 1 <= (e >> s) + 2.
    """
    global _best_pi
    best_bits, approximation, error = _best_pi
    if best_bits < bits:
        best_bits = max(bits, 2 * best_bits, 1024)
        approximation, error = _pi_fixed(best_bits)
        _best_pi = (best_bits, approximation, error)
    shift = best_bits - bits
    return approximation >> shift, (error >> shift) + 2


def _reduce_quarter_turns(mantissa: int, exponent: int, bits: int) -> tuple[int, int, int]:
    """Reduce a = mantissa * 2**exponent > 0 modulo pi/2.

    Returns ``(k, lo, hi)`` with integers such that the exact remainder
    ``a - k pi / 2`` lies in ``[lo, hi] / 2**bits``; k is the integer nearest
    to ``2 a / pi`` (up to the accuracy of pi used), so the remainder is at
    most pi/4 plus a negligible amount in magnitude.
    """
    if exponent + mantissa.bit_length() <= -1:
        # a < 1/2 < pi/4: no reduction, r = a.
        shift = exponent + bits
        if shift >= 0:
            exact = mantissa << shift
            return 0, exact, exact
        return 0, mantissa >> -shift, -((-mantissa) >> -shift)

    # a < 2**magnitude_bits, so k <= 2a/pi < 2**magnitude_bits.  pi carries
    # `guard` bits more than k*pi needs, which keeps k * pi's error (below
    # k * pi_error units of 2**-(pi_bits + 1)) under 2**-20 units of 2**-bits.
    magnitude_bits = exponent + mantissa.bit_length()
    guard = 32 + (bits + magnitude_bits).bit_length()
    # At least -exponent bits, so that a is an integer in the units below.
    pi_bits = max(bits + magnitude_bits + guard, -exponent)
    pi_approx, pi_error = _pi_scaled(pi_bits)
    # Work in units of 2**-(pi_bits + 1), where pi/2 is pi_approx.
    scaled_a = mantissa << (pi_bits + 1 + exponent)
    k = (2 * scaled_a + pi_approx) // (2 * pi_approx)
    remainder = scaled_a - k * pi_approx
    remainder_error = k * pi_error
    shift = pi_bits + 1 - bits
    lo = (remainder - remainder_error) >> shift
    hi = -((-(remainder + remainder_error)) >> shift)
    return k, lo, hi


def _kernel_interval(use_cos: bool, lo: int, hi: int, bits: int) -> tuple[int, int]:
    """Enclosure [lower, upper] / 2**bits of sin(r) or cos(r) for every r in
    [lo, hi] / 2**bits, where |r| < 1.

    One Taylor evaluation at the midpoint; sin and cos are 1-Lipschitz, so
    the enclosure's radius (at most hi - lo) adds to the kernel's error.
    """
    middle = (lo + hi) >> 1
    radius = hi - lo
    magnitude = abs(middle)
    if use_cos:
        value, error = _cos_fixed(magnitude, bits)
        error += radius
        return value - error, min(value + error, 1 << bits)
    value, error = _sin_fixed(magnitude, bits)
    error += radius
    if middle < 0:
        value = -value
    return value - error, value + error


def _check_trig_function(func: str) -> str:
    if func not in TRIG_FUNCTIONS:
        raise ValueError(f"unknown function {func!r}; expected one of {', '.join(TRIG_FUNCTIONS)}")
    return func


def _trig_bits_finite(func: str, x: float, f: FloatFormat, initial_bits: int | None = None) -> int:
    """Correctly rounded sin/cos of a finite non-zero float ``x`` in ``f``."""
    numerator, denominator = x.as_integer_ratio()
    negative = numerator < 0
    mantissa = abs(numerator)
    exponent = 1 - denominator.bit_length()  # denominator is 2**-exponent
    # Results of size ~|x| (sin of a small x) need fraction bits below x's
    # leading bit; everything else is at least of order 2**-bits anyway.
    leading_zeros = max(0, -(exponent + mantissa.bit_length()))
    bits = initial_bits if initial_bits is not None else _TRIG_INITIAL_BITS + leading_zeros
    while True:
        k, lo, hi = _reduce_quarter_turns(mantissa, exponent, bits)
        quadrant = (k + (func == "cos")) & 3
        lower, upper = _kernel_interval(quadrant & 1 == 1, lo, hi, bits)
        # Quadrants 2 and 3 negate; so does sin of a negative argument.
        if (quadrant >= 2) != (negative and func == "sin"):
            lower, upper = -upper, -lower
        scale = 1 << bits
        low_bits = round_rational(lower, scale, f)
        if low_bits == round_rational(upper, scale, f):
            return low_bits
        bits *= 2
        if bits > _TRIG_MAX_BITS:  # pragma: no cover - would mean a bug
            raise ArithmeticError(f"{func}({x!r}): no convergence")


def trig_bits(func: str, x, fmt) -> int:
    """Bit pattern of ``func(x)`` correctly rounded into ``fmt``.

    ``func`` is "sin" or "cos"; ``x`` any float64 value (a Python or numpy
    float; float16/bfloat16/float32 values are float64 values); ``fmt`` a
    float format name or dtype ("float16", "bfloat16", "float32",
    "float64").  Special values: sin(+-0) = +-0, cos(+-0) = 1, and infinities
    and NaN give the canonical quiet NaN.

    Parameters
    ----------
    func : str
        "sin" or "cos".
    x : float
        The input, any float64 value.
    fmt : str or dtype
        The output format: "float16", "bfloat16", "float32" or "float64".

    Returns
    -------
    int
        The bit pattern.

    Raises
    ------
    ValueError
        An unknown `func`.
    TypeError
        `fmt` is not a floating-point format.

    Examples
    --------
    >>> from crtrig import reference
    >>> hex(reference.trig_bits("sin", 0.5, "float32"))
    '0x3ef57744'
    >>> reference.bits_to_float(reference.trig_bits("sin", 0.5, "float64"), "float64")
    0.479425538604203
    """
    _check_trig_function(func)
    f = _float_format(fmt)
    value = float(x)
    if math.isnan(value) or math.isinf(value):
        return f.nan_bits
    if value == 0.0:
        if func == "cos":
            return round_rational(1, 1, f)
        return f.sign_bit if math.copysign(1.0, value) < 0 else 0
    return _trig_bits_finite(func, value, f)


#: The functions of :func:`trigpi_bits`.
TRIGPI_FUNCTIONS = ("sinpi", "cospi")


def trigpi_bits(func: str, x, fmt) -> int:
    """Bit pattern of ``func(x)`` ("sinpi": sin(pi x), "cospi": cos(pi x))
    correctly rounded into ``fmt``, with IEEE 754-2019 9.2.1's special values.

    The reduction is exact in rationals: x = n/2 + t + (an even integer) with
    n the integer nearest to 2x and ``abs(t) <= 1/4``; then sin(pi t) or cos(pi t)
    from the same fixed-point kernels as :func:`trig_bits`, with pi t enclosed
    by Machin's pi.  Special values: sinpi(+-n) = +-0 (the sign of x) for
    integers n, cospi(n + 1/2) = +0, cospi(n) = (-1)^n, sinpi(n + 1/2) = +-1;
    infinities and NaN give the canonical quiet NaN.

    Parameters
    ----------
    func : str
        "sinpi" or "cospi".
    x : float
        The input, any float64 value.
    fmt : str or dtype
        The output format: "float16", "bfloat16", "float32" or "float64".

    Returns
    -------
    int
        The bit pattern.

    Raises
    ------
    ValueError
        An unknown `func`.

    Examples
    --------
    >>> from crtrig import reference
    >>> hex(reference.trigpi_bits("sinpi", 0.25, "float32"))
    '0x3f3504f3'
    >>> hex(reference.trigpi_bits("sinpi", -2.0, "float32"))
    '0x80000000'
    """
    if func not in TRIGPI_FUNCTIONS:
        raise ValueError(f"unknown function {func!r}; expected one of {', '.join(TRIGPI_FUNCTIONS)}")
    f = _float_format(fmt)
    value = float(x)
    if math.isnan(value) or math.isinf(value):
        return f.nan_bits
    exact = Fraction(value)
    n = round(2 * exact)
    t = exact - Fraction(n, 2)
    k = (n + (func == "cospi")) % 4
    if t == 0:
        if k & 1:
            return round_rational(-1 if k & 2 else 1, 1, f)
        return f.sign_bit if func == "sinpi" and math.copysign(1.0, value) < 0 else 0
    negative = (k >= 2) != (k & 1 == 0 and t < 0)
    magnitude = abs(t)
    leading_zeros = max(0, -(magnitude.numerator.bit_length() - magnitude.denominator.bit_length()))
    bits = _TRIG_INITIAL_BITS + leading_zeros
    while True:
        lo, hi = _angle_interval(magnitude.numerator, magnitude.denominator, bits)
        lower, upper = _kernel_interval(k & 1 == 1, lo, hi, bits)
        if negative:
            lower, upper = -upper, -lower
        scale = 1 << bits
        low_bits = round_rational(lower, scale, f)
        if low_bits == round_rational(upper, scale, f):
            return low_bits
        bits *= 2
        if bits > _TRIG_MAX_BITS:  # pragma: no cover - would mean a bug
            raise ArithmeticError(f"{func}({value!r}): no convergence")


#: The functions of :func:`tan_bits`.
TAN_FUNCTIONS = ("tan", "tanpi")


def _quotient_bounds(odd: bool, s_lo: int, s_hi: int, c_lo: int, c_hi: int):
    """Rational bounds (as (num, den) pairs) of s/c (odd False) or -c/s (odd True)
    for every s in [s_lo, s_hi], c in [c_lo, c_hi] (c > 0 required, and for odd s
    of one sign); None when the enclosure is too wide for that."""
    if c_lo <= 0:
        return None
    if not odd:
        if s_lo >= 0:
            return (s_lo, c_hi), (s_hi, c_lo)
        if s_hi <= 0:
            return (s_lo, c_lo), (s_hi, c_hi)
        return (s_lo, c_lo), (s_hi, c_lo)
    if s_lo > 0:  # c/s in [c_lo/s_hi, c_hi/s_lo], negated
        return (-c_hi, s_lo), (-c_lo, s_hi)
    if s_hi < 0:  # c/s in [c_hi/s_hi, c_lo/s_lo], negated
        return (-c_lo, s_lo), (-c_hi, s_hi)
    return None


def tan_bits(func: str, x, fmt) -> int:
    """Bit pattern of ``func(x)`` ("tan": tan(x), "tanpi": tan(pi x)) correctly
    rounded into ``fmt``, with IEEE 754-2019 9.2.1's special values for tanpi.

    Both from the fixed-point kernels of :func:`trig_bits` and
    :func:`trigpi_bits`: the reduced argument's enclosure gives enclosures of its
    sine and cosine, and their quotient's (sin/cos, or -cos/sin in odd
    quadrants) ends are rounded exactly; the precision doubles until they agree.
    Special values: tan(+-0) = +-0, tanpi(+-0) = +-0, tanpi(n) = +0 for positive
    even and negative odd integers n and -0 for positive odd and negative even n,
    tanpi(n + 1/2) = +inf for even n and -inf for odd n, tanpi(n +- 1/4) = +-1;
    infinities and NaN give the canonical quiet NaN; results beyond the format's
    range round to infinity (float16 tan(177.5)).

    Parameters
    ----------
    func : str
        "tan" or "tanpi".
    x : float
        The input, any float64 value.
    fmt : str or dtype
        The output format: "float16", "bfloat16", "float32" or "float64".

    Returns
    -------
    int
        The bit pattern.

    Raises
    ------
    ValueError
        An unknown `func`.

    Examples
    --------
    >>> from crtrig import reference
    >>> hex(reference.tan_bits("tan", 1.0, "float32"))
    '0x3fc75923'
    >>> hex(reference.tan_bits("tanpi", -1.5, "float16"))
    '0x7c00'
    """
    if func not in TAN_FUNCTIONS:
        raise ValueError(f"unknown function {func!r}; expected one of {', '.join(TAN_FUNCTIONS)}")
    f = _float_format(fmt)
    value = float(x)
    if math.isnan(value) or math.isinf(value):
        return f.nan_bits
    negative_zero = f.sign_bit
    if value == 0.0:
        return negative_zero if math.copysign(1.0, value) < 0 else 0
    negative_x = value < 0
    exact = abs(Fraction(value))
    if func == "tanpi":
        n = round(2 * exact)
        t = exact - Fraction(n, 2)
        odd = n % 2 == 1
        if t == 0:
            if odd:  # |x| = (n - 1)/2 + 1/2: +inf for even (n - 1)/2
                bits = f.inf_bits if ((n - 1) // 2) % 2 == 0 else f.inf_bits | f.sign_bit
            else:  # the integer n/2: +0 even, -0 odd
                bits = 0 if (n // 2) % 2 == 0 else negative_zero
            return bits ^ (f.sign_bit if negative_x else 0)
        if abs(t) == Fraction(1, 4):
            one = round_rational(1, 1, f)
            positive = (t > 0) != odd
            return one | (0 if positive != negative_x else f.sign_bit)
        leading_zeros = max(0, -(abs(t).numerator.bit_length() - t.denominator.bit_length()))
    else:
        mantissa, denominator = exact.numerator, exact.denominator
        exponent = 1 - denominator.bit_length()
        leading_zeros = max(0, -(exponent + mantissa.bit_length()))
    bits = _TRIG_INITIAL_BITS + leading_zeros
    while True:
        if func == "tanpi":
            lo, hi = _angle_interval(abs(t.numerator), t.denominator, bits)
            if t < 0:
                lo, hi = -hi, -lo
        else:
            k, lo, hi = _reduce_quarter_turns(mantissa, exponent, bits)
            odd = k % 2 == 1
        s_lo, s_hi = _kernel_interval(False, lo, hi, bits)
        c_lo, c_hi = _kernel_interval(True, lo, hi, bits)
        bounds = _quotient_bounds(odd, s_lo, s_hi, c_lo, c_hi)
        if bounds is not None:
            (ln, ld), (un, ud) = bounds
            if negative_x:
                (ln, ld), (un, ud) = (-un, ud), (-ln, ld)
            low_bits = round_rational(ln, ld, f)
            if low_bits == round_rational(un, ud, f) and ln != 0:
                return low_bits
        bits *= 2
        if bits > _TRIG_MAX_BITS:  # pragma: no cover - would mean a bug
            raise ArithmeticError(f"{func}({value!r}): no convergence")


def trig(func: str, x) -> np.ndarray:
    """Element-wise correctly rounded ``func`` ("sin" or "cos") of an array.

    ``x`` is an array of float16, bfloat16, float32 or float64; the result
    has the same dtype and shape (a 0-d array for a 0-d input).  Each distinct
    input value is computed once.

    Parameters
    ----------
    func : str
        "sin" or "cos".
    x : numpy.ndarray
        float16, bfloat16, float32 or float64, any shape.

    Returns
    -------
    numpy.ndarray
        What ``crtrig.sin(x)`` (or ``crtrig.cos(x)``) must return, bit for bit.

    Raises
    ------
    ValueError
        An unknown `func`.
    TypeError
        An unsupported dtype.

    Examples
    --------
    >>> import numpy as np, crtrig
    >>> from crtrig import reference
    >>> x = np.float32([0.5, 1e30])
    >>> print(reference.trig("sin", x))
    [ 0.47942555 -0.79116344]
    >>> np.array_equal(reference.trig("cos", x), crtrig.cos(x))
    True
    """
    _check_trig_function(func)
    array = np.asarray(x)
    name = format_name(array.dtype, _strict=False)
    if name not in FLOAT_FORMATS:
        raise TypeError(f"trig: unsupported dtype {array.dtype}")
    f = FLOAT_FORMATS[name]
    patterns = array.view(f.bits_dtype).reshape(-1)
    distinct, positions = np.unique(patterns, return_inverse=True)
    with np.errstate(invalid="ignore"):  # signalling NaN patterns
        distinct_values = distinct.view(f.dtype).astype(np.float64).tolist()
    results = np.array([trig_bits(func, v, f) for v in distinct_values], dtype=f.bits_dtype)
    return results[positions.reshape(-1)].view(f.dtype).reshape(array.shape)
