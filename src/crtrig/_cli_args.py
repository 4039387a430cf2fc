"""Argument types the commands share (argparse ``type=``): an integer in a range,
a comma-separated list of them, or of names from a fixed set.  A bad value is an ArgumentTypeError, which
each command prints as its one-line error (exit status 2)."""

from __future__ import annotations

import argparse
from typing import Callable


def _range_text(low: int, high: int | None) -> str:
    return "a non-negative integer" if (low, high) == (0, None) else f"an integer from {low} to {high}"


def integer(low: int, high: int | None, what: str | None) -> Callable[[str], int]:
    """An int with low <= value <= high (no upper bound when high is None);
    the message names `what` (argparse adds the option's name when it is None)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low or (high is not None and value > high):
            prefix = f"{what} " if what else ""
            raise argparse.ArgumentTypeError(f"{prefix}must be {_range_text(low, high)}; got {text!r}")
        return value
    return parse


def integer_list(low: int, high: int, what: str) -> Callable[[str], list[int]]:
    """A non-empty comma-separated list of ints in [low, high], duplicates dropped
    (first occurrence kept)."""
    def parse(text: str) -> list[int]:
        try:
            values = [int(item) for item in text.split(",") if item.strip()]
        except ValueError:
            values = []
        if not values or any(not low <= v <= high for v in values):
            raise argparse.ArgumentTypeError(
                f"{what} must be a comma-separated list of integers from {low} to {high}; got {text!r}")
        return list(dict.fromkeys(values))
    return parse


def names_list(choices, what: str) -> Callable[[str], list[str]]:
    """A non-empty comma-separated list of names from `choices`, duplicates dropped
    (first occurrence kept)."""
    def parse(text: str) -> list[str]:
        items = [item.strip() for item in text.split(",") if item.strip()]
        bad = [item for item in items if item not in choices]
        if bad or not items:
            raise argparse.ArgumentTypeError(
                f"{what} must be a comma-separated list of {', '.join(choices)}; got {text!r}")
        return list(dict.fromkeys(items))
    return parse
