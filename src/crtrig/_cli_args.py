"""Argument types the commands share (argparse ``type=``): an integer in a range,
a comma-separated list of them, or of names from a fixed set.  A bad value is an ArgumentTypeError, which
each command prints as its one-line error (exit status 2).

Values are bounded (an integer option without a stated maximum takes values below
2**64) and messages quote at most SHOWN_LENGTH characters of what was given, as
``verify`` does, so that a 5,000-digit argument is refused in one short line.  A list
that names an item twice is refused rather than silently shortened."""

from __future__ import annotations

import argparse
from typing import Callable

#: Characters of an argument quoted in a message.
SHOWN_LENGTH = 40
#: The largest value of an integer option that states no maximum.
UNBOUNDED_MAX = 2**64 - 1
#: Characters beyond which an integer is not converted (it is out of range anyway).
_MAX_INTEGER_CHARACTERS = 30


def shown(text: str) -> str:
    """An argument for a message: repr() of its first SHOWN_LENGTH characters,
    "..." when cut (control characters and lone surrogates come out escaped)."""
    return repr(text if len(text) <= SHOWN_LENGTH else text[:SHOWN_LENGTH] + "...")


def _range_text(low: int, high: int | None) -> str:
    if high is None:
        return "a non-negative integer below 2**64" if low == 0 else f"an integer from {low} to 2**64 - 1"
    return f"an integer from {low} to {high}"


def _to_int(text: str) -> int | None:
    """int(text), or None when it is not an integer or too long to be in any range."""
    if len(text.strip()) > _MAX_INTEGER_CHARACTERS:
        return None
    try:
        return int(text)
    except ValueError:
        return None


def integer(low: int, high: int | None, what: str | None) -> Callable[[str], int]:
    """An int with low <= value <= high (high None: below 2**64);
    the message names `what` (argparse adds the option's name when it is None)."""
    top = UNBOUNDED_MAX if high is None else high

    def parse(text: str) -> int:
        value = _to_int(text)
        if value is None or value < low or value > top:
            prefix = f"{what} " if what else ""
            raise argparse.ArgumentTypeError(f"{prefix}must be {_range_text(low, high)}; got {shown(text)}")
        return value
    return parse


def _repeated(items: list) -> object | None:
    seen: set = set()
    for item in items:
        if item in seen:
            return item
        seen.add(item)
    return None


def integer_list(low: int, high: int, what: str) -> Callable[[str], list[int]]:
    """A non-empty comma-separated list of distinct ints in [low, high]."""
    def parse(text: str) -> list[int]:
        values = [_to_int(item) for item in text.split(",") if item.strip()]
        if not values or any(v is None or not low <= v <= high for v in values):
            raise argparse.ArgumentTypeError(
                f"{what} must be a comma-separated list of integers from {low} to {high}; got {shown(text)}")
        repeated = _repeated(values)
        if repeated is not None:
            raise argparse.ArgumentTypeError(f"{what}: {repeated} is named more than once; got {shown(text)}")
        return values
    return parse


def names_list(choices, what: str) -> Callable[[str], list[str]]:
    """A non-empty comma-separated list of distinct names from `choices`."""
    def parse(text: str) -> list[str]:
        items = [item.strip() for item in text.split(",") if item.strip()]
        bad = [item for item in items if item not in choices]
        if bad or not items:
            raise argparse.ArgumentTypeError(
                f"{what} must be a comma-separated list of {', '.join(choices)}; got {shown(text)}")
        repeated = _repeated(items)
        if repeated is not None:
            raise argparse.ArgumentTypeError(f"{what}: {repeated} is named more than once; got {shown(text)}")
        return items
    return parse
