"""Conformance vectors: exact expected data for case files.

``crtrig cases --fill IN.json -o OUT.json`` writes the exact expected
``data`` into every output of a case file that has none;
``crtrig cases --new OP --sizes SPEC | --classes LIST | --inputs FILE.npy ...
-o OUT.json`` builds a case file from scratch, at tolerance 0.

Values
------
Each value is the correctly rounded result in the output type, from
:mod:`crtrig.reference` (exact, independent of the C core), written as the
*shortest* decimal that reads back to exactly that value: the decimal of
fewest significant digits whose single correct rounding into the output type
(``reference.round_rational``) gives the value's bit pattern; among the two
candidates of that length next to the value, the nearer one (ties: even last
digit).  The search is exact (integers only), so it is right for bfloat16 too,
where ``str()`` of an ml_dtypes value prints the float32 spelling (0.00291443
where 0.002914 suffices).  For float64 the text is what ``repr()`` prints.
NaN and +-inf are the JSON strings "NaN", "Infinity" and "-Infinity"; -0.0
and integer outputs are JSON numbers.  The runner reads every such value back
as the same bit pattern, so a filled file passes at tolerance 0 without
``--strict``.  Inputs written by ``--new`` use the same spelling.

Rewriting
---------
``--fill`` parses the file twice: once with the runner's validation (so a
file the runner would refuse is refused here, with the runner's size limits),
once keeping the text of every number (``parse_float``/``parse_int`` hooks
that return the token itself).  The output keeps every key in its order and
every number as written; only whitespace changes.  ``data`` is added as the
last key of each output that has none; nothing else changes (``allowNaN``
included: an output whose exact values hold NaN needs ``allowNaN: true`` to
pass, filled or not).  Strings are written with every character that is not
printable (control characters, lone surrogates, bidi overrides, line
separators) as a ``\\u`` escape.  The output path may be the input; it is
written atomically (a temporary file, then ``os.replace``).  A file whose
filled text could exceed ``--max-file-size`` is malformed and refused before
anything is computed: its size is bounded by the rewritten structure's exact
size plus, per value, the longest token of its type and the separator
(``MAX_VALUE_BYTES``: 26 bytes for float64, 21 for float32 and bfloat16, 13
for float16, the type's extreme for integers, 3 for a window's integer
output); nothing is written in any case.

Generating
----------
``--new`` takes an ONNX op (``HannWindow`` or ``ai.onnx.HannWindow``, any
case) and:

* windows: ``--sizes SPEC`` (comma-separated sizes ``N``, inclusive ranges
  ``A-B`` and inclusive progressions ``A:B:STEP``), ``--dtypes`` (names of the
  12 output types, or ``all``), ``--periodic yes|no|both`` (default both):
  one case per (periodic, dtype, size);
* Sin / Cos: ``--classes special,hard,random:N`` and ``--dtypes`` (float16,
  bfloat16, float32, float64, or ``all``), and/or ``--inputs FILE.npy`` (its
  dtype is the case's; bfloat16, which ``np.save`` stores as raw 2-byte
  ``V2`` values, is read from those): one case per (dtype, class).  ``special``
  is +-0, +-inf, NaN, the smallest and largest subnormals, the smallest
  normal, the largest finite value and +-1; ``hard`` the hardest-to-round
  inputs crtrig ships for that type (:mod:`crtrig.conformance._hard_inputs`) with their
  negatives; ``random:N`` N random bit patterns of the type, from ``--seed``
  (default 0) and the type (the same for sin and cos).

Every output has tolerance 0 and ``allowNaN`` exactly when its values hold
NaN; the file passes ``crtrig cases --strict``.  The work is bounded before
it starts: every size is within the runner's limits (``--max-elements``) and
the values' bound (as for ``--fill``; each input value of Sin/Cos also stands
in the output) within ``--max-file-size``.
"""

from __future__ import annotations

import argparse
import io
import math
import os
import re
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import reference
from . import cases
from .._output import OutputError, check_writable_target, write_text_atomically
from .._version import __version__

#: Significant decimal digits that always suffice to read a value back
#: (ceil(p log10 2) + 1 for precision p); the search never needs more.
MAX_SIGNIFICANT_DIGITS = {"float16": 5, "bfloat16": 4, "float32": 9, "float64": 17}
#: Fewest bytes a filled value takes in the output: "0" (integers) or "0.0"
#: (floats), plus the ", " separator.
MIN_VALUE_BYTES = {"integer": 3, "float": 5}
#: Most bytes a value takes in the output, per type: its longest token plus the
#: ", " separator (measured by tests/test_vectors.py on the binades where the
#: longest tokens are).  float64: "-2.9205048131065683e-196" (17 digits, a
#: three-digit exponent), 24 + 2; float32 and bfloat16: "-1000000000000000.0",
#: the end of repr's positional range, 19 + 2; float16: "-0.00010014" (and
#: '"-Infinity"'), 11 + 2; integers: the type's minimum or maximum.  The size
#: of a file to fill is bounded with these before anything is computed.
MAX_VALUE_BYTES = {"float16": 13, "bfloat16": 21, "float32": 21, "float64": 26,
                   "int8": 6, "uint8": 5, "int16": 8, "uint16": 7, "int32": 13, "uint32": 12,
                   "int64": 22, "uint64": 22}
#: A window's integer output is the truncated float32 window, 0 or 1: "1, ".
WINDOW_INTEGER_VALUE_BYTES = 3
#: Fewest bytes of a generated case besides its values (name, attrs, shapes...).
MIN_CASE_BYTES = 100

TRIG_OPS = {"ai.onnx.Sin": "sin", "ai.onnx.Cos": "cos", "ai.onnx.Tan": "tan"}
WINDOW_OPS = {"ai.onnx.HannWindow": "hann", "ai.onnx.HammingWindow": "hamming",
              "ai.onnx.BlackmanWindow": "blackman"}
#: Output types in the order generated files list them.
DTYPE_ORDER = ("float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "uint16",
               "int32", "uint32", "int64", "uint64")
TRIG_DTYPE_ORDER = ("float16", "bfloat16", "float32", "float64")
ONNX_DATATYPE_CODES = {name: code for code, name in cases.ONNX_DATATYPES.items()}
CLASSES = ("special", "hard", "random")


class UsageError(Exception):
    """A generator request that cannot be made as asked: one line, exit 2."""


# ---------------------------------------------------------------------------
# Shortest decimals
# ---------------------------------------------------------------------------


def _rounds_to(mantissa: int, exponent: int, magnitude_bits: int, fmt: reference.FloatFormat) -> bool:
    """Whether mantissa * 10^exponent rounds (once, to nearest even) to magnitude_bits."""
    if exponent >= 0:
        return reference.round_rational(mantissa * 10**exponent, 1, fmt) == magnitude_bits
    return reference.round_rational(mantissa, 10**-exponent, fmt) == magnitude_bits


def _candidate(numerator: int, denominator: int, digits: int, leading_exponent: int,
               magnitude_bits: int, fmt: reference.FloatFormat) -> tuple[int, int] | None:
    """(mantissa, exponent) of the ``digits``-digit decimal nearest to
    numerator/denominator that reads back as magnitude_bits, or None.

    Only the two decimals of that length around the value can qualify: the
    values reading back as magnitude_bits form an interval containing the
    value, so a qualifying decimal below the value implies that the largest
    one below (the floor) qualifies, and likewise above (the ceiling)."""
    exponent = leading_exponent - digits + 1
    if exponent >= 0:
        scaled_den = denominator * 10**exponent
        low, remainder = divmod(numerator, scaled_den)
        twice_gap = 2 * remainder - scaled_den  # sign of (value - low) - (low + 1 - value)
    else:
        scaled_num = numerator * 10**-exponent
        low, remainder = divmod(scaled_num, denominator)
        twice_gap = 2 * remainder - denominator
    if remainder == 0:
        return (low, exponent)  # exact: reads back as itself
    low_ok = low > 0 and _rounds_to(low, exponent, magnitude_bits, fmt)
    high_ok = _rounds_to(low + 1, exponent, magnitude_bits, fmt)
    if low_ok and high_ok:  # both read back: the nearer, ties to the even mantissa
        if twice_gap < 0 or (twice_gap == 0 and low % 2 == 0):
            return (low, exponent)
        return (low + 1, exponent)
    if low_ok:
        return (low, exponent)
    if high_ok:
        return (low + 1, exponent)
    return None


def _at_least_power_of_ten(numerator: int, denominator: int, exponent: int) -> bool:
    """numerator / denominator >= 10^exponent, exactly."""
    if exponent >= 0:
        return numerator >= denominator * 10**exponent
    return numerator * 10**-exponent >= denominator


def _format_decimal(negative: bool, mantissa: int, exponent: int) -> str:
    """mantissa * 10^exponent as a JSON number, spelled as Python's repr()
    spells floats: positional for decimal exponents -4..15 (with ".0" for
    integers), otherwise d.ddde+XX."""
    digits = str(mantissa)
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    digits = stripped
    leading = exponent + len(digits) - 1  # exponent of the first digit
    if -4 <= leading < 16:
        if leading >= len(digits) - 1:
            text = digits + "0" * (leading - len(digits) + 1) + ".0"
        elif leading >= 0:
            text = digits[: leading + 1] + "." + digits[leading + 1:]
        else:
            text = "0." + "0" * (-leading - 1) + digits
    else:
        fraction = "." + digits[1:] if len(digits) > 1 else ""
        text = f"{digits[0]}{fraction}e{'-' if leading < 0 else '+'}{abs(leading):02d}"
    return ("-" if negative else "") + text


def shortest_decimal(bits: int, fmt_name: str) -> str:
    """The JSON token of the float with bit pattern ``bits`` in ``fmt_name``:
    the shortest decimal that rounds back to it (see the module docstring),
    or "NaN" / "Infinity" / "-Infinity" as JSON strings."""
    fmt = reference.FLOAT_FORMATS[fmt_name]
    bits = int(bits)
    negative = bool(bits & fmt.sign_bit)
    magnitude_bits = bits & (fmt.sign_bit - 1)
    if magnitude_bits > fmt.inf_bits:
        return '"NaN"'
    if magnitude_bits == fmt.inf_bits:
        return '"-Infinity"' if negative else '"Infinity"'
    if magnitude_bits == 0:
        return "-0.0" if negative else "0.0"
    numerator, denominator = reference.bits_to_float(magnitude_bits, fmt).as_integer_ratio()
    # The exponent of the leading decimal digit: 10^e <= value < 10^(e+1),
    # estimated in floating point and settled exactly.
    leading = math.floor(math.log10(numerator) - math.log10(denominator))
    while not _at_least_power_of_ten(numerator, denominator, leading):
        leading -= 1
    while _at_least_power_of_ten(numerator, denominator, leading + 1):
        leading += 1

    # Reading back is monotone in the number of digits (a k-digit decimal
    # that qualifies is also a k+1-digit one), so bisect on it.
    low, high = 1, MAX_SIGNIFICANT_DIGITS[fmt_name]
    best = _candidate(numerator, denominator, high, leading, magnitude_bits, fmt)
    while best is None:  # cannot happen (see MAX_SIGNIFICANT_DIGITS); stay correct anyway
        high += 1
        best = _candidate(numerator, denominator, high, leading, magnitude_bits, fmt)
    while low < high:
        middle = (low + high) // 2
        found = _candidate(numerator, denominator, middle, leading, magnitude_bits, fmt)
        if found is None:
            low = middle + 1
        else:
            high, best = middle, found
    return _format_decimal(negative, *best)


def value_tokens(array: np.ndarray) -> list[str]:
    """JSON tokens of every element of an array of one of the 12 output types
    (C order): shortest decimals for floats, integers for integer types.
    Each distinct value is spelled once (windows repeat every value)."""
    name = reference.format_name(array.dtype)
    flat = array.reshape(-1)
    if name in reference.INTEGER_FORMATS:
        return [str(v) for v in flat.tolist()]
    fmt = reference.FLOAT_FORMATS[name]
    patterns = flat.view(fmt.bits_dtype)
    distinct, positions = np.unique(patterns, return_inverse=True)
    tokens = [shortest_decimal(b, name) for b in distinct.tolist()]
    return [tokens[p] for p in positions.reshape(-1).tolist()]


def values_array_token(array: np.ndarray) -> "_Raw":
    """The JSON array of an array's values, as one verbatim token (one
    string in memory, not one object per value)."""
    return _Raw("[" + ", ".join(value_tokens(array)) + "]")


# ---------------------------------------------------------------------------
# JSON that keeps the text of its numbers
# ---------------------------------------------------------------------------


class _Raw:
    """A JSON token (a number as written, or any literal), written back verbatim."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return f"_Raw({self.text!r})"


def parse_keeping_numbers(text: str) -> Any:
    """json.loads, but every number (and NaN/Infinity literal) is a _Raw
    holding its text."""
    import json  # here, not at import: `crtrig cases --help` does not need it

    return json.loads(text, parse_float=_Raw, parse_int=_Raw, parse_constant=_Raw)


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code > 0xFFFF:  # a UTF-16 surrogate pair, as JSON spells characters beyond the BMP
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def _json_string(value: str) -> str:
    """A JSON string that holds only printable characters: printable non-ASCII as
    it is, everything else (C0 and C1 controls, DEL, lone surrogates, bidi
    overrides, line separators...) as \\u escapes, so that the file never carries
    what a terminal would act on, and is always UTF-8."""
    import json

    text = json.dumps(value, ensure_ascii=False)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _json_escape(ch) for ch in text)


def _scalar(value) -> str:
    if isinstance(value, _Raw):
        return value.text
    if isinstance(value, str):
        return _json_string(value)
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def _flat_text(value) -> str:
    """A scalar or an array of scalars on one line."""
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(item) for item in value) + "]"
    return _scalar(value)


def _is_flat(value) -> bool:
    """A scalar or an array of scalars."""
    if isinstance(value, list):
        return not any(isinstance(item, (dict, list)) for item in value)
    return not isinstance(value, dict)


def _dump(node, level: int, out: list[str]) -> None:
    """Objects and arrays whose members are scalars or arrays of scalars go
    on one line; others get one member per line, indented by two spaces per
    level."""
    if isinstance(node, dict):
        items = list(node.items())
        opening, closing = "{", "}"
        members = [(_json_string(key) + ": ", value) for key, value in items]
    elif isinstance(node, list):
        opening, closing = "[", "]"
        members = [("", value) for value in node]
    else:
        out.append(_scalar(node))
        return
    if all(_is_flat(value) for _, value in members):
        out.append(opening + ", ".join(prefix + _flat_text(value) for prefix, value in members) + closing)
        return
    indent = "  " * (level + 1)
    out.append(opening + "\n")
    for index, (prefix, value) in enumerate(members):
        out.append(indent + prefix)
        _dump(value, level + 1, out)
        out.append(",\n" if index < len(members) - 1 else "\n")
    out.append("  " * level + closing)


def _text_bytes(text: str) -> int:
    return len(text.encode("utf-8"))


def _scalar_size(value) -> int:
    return len(value.text) if isinstance(value, _Raw) else _text_bytes(_scalar(value))


def _flat_size(value) -> int:
    if isinstance(value, list):
        return 2 + sum(_scalar_size(item) for item in value) + 2 * max(len(value) - 1, 0)
    return _scalar_size(value)


def _dump_size(node, level: int) -> int:
    """The UTF-8 size of what _dump(node, level) writes, computed without writing
    it (re-indentation can make it much larger than the text it came from)."""
    if isinstance(node, dict):
        members = [(_text_bytes(_json_string(key)) + 2, value) for key, value in node.items()]
    elif isinstance(node, list):
        members = [(0, value) for value in node]
    else:
        return _scalar_size(node)
    if all(_is_flat(value) for _, value in members):
        return 2 + sum(prefix + _flat_size(value) for prefix, value in members) + 2 * max(len(members) - 1, 0)
    size = 2 + 2 * level + 1  # the opening bracket and newline; the closing line
    for index, (prefix, value) in enumerate(members):
        size += 2 * (level + 1) + prefix + _dump_size(value, level + 1) + (2 if index < len(members) - 1 else 1)
    return size


def dump_json(document) -> str:
    """JSON text of a document from parse_keeping_numbers (or built of dicts,
    lists, str, int, bool, None and _Raw tokens), ending with a newline."""
    out: list[str] = []
    _dump(document, 0, out)
    return "".join(out) + "\n"


# ---------------------------------------------------------------------------
# Filling
# ---------------------------------------------------------------------------


@dataclass
class FillSummary:
    cases: int = 0
    outputs_filled: int = 0
    values_filled: int = 0
    nbytes: int = 0


def max_value_bytes(op: str, dtype: str) -> int:
    """Most bytes one filled value of an output of ``op`` and ``dtype`` takes,
    with its separator (MAX_VALUE_BYTES; windows' integer outputs are 0 or 1)."""
    if op in WINDOW_OPS and dtype in reference.INTEGER_FORMATS:
        return WINDOW_INTEGER_VALUE_BYTES
    return MAX_VALUE_BYTES[dtype]


def fill_text(text: str, path: str, max_elements: int = cases.DEFAULT_MAX_ELEMENTS,
              max_file_bytes: int = cases.DEFAULT_MAX_FILE_BYTES) -> tuple[str, FillSummary]:
    """The case file ``text`` with exact data in every output that has none.

    Raises cases.MalformedCaseFile: for anything the runner refuses, and for
    a filled text that could take more than ``max_file_bytes`` bytes: the
    bound (the rewritten structure's exact size, each value at the longest
    token of its type, MAX_VALUE_BYTES) is checked before anything is
    computed, so a refusal comes at once; the result is checked again."""
    case_file = cases.parse_case_file(text, path, max_elements=max_elements)
    document = parse_keeping_numbers(text)  # the same structure: it parsed just now
    raw_cases = document["cases"]

    # The size of the result, bounded before anything is computed: the rewritten
    # structure exactly (with an empty values token where the data will go), and
    # each value at its type's longest token.
    to_fill: list[tuple[cases.Case, int, dict]] = []
    values_bound = 0
    for case, raw_case in zip(case_file.cases, raw_cases):
        for index, (spec, raw_output) in enumerate(zip(case.outputs, raw_case["outputs"].values())):
            if "data" not in raw_output:
                to_fill.append((case, index, raw_output))
                raw_output["data"] = {"kind": "values", "values": _Raw("")}
                values_bound += max(2, math.prod(spec.shape) * max_value_bytes(case.op.name, spec.dtype))
    try:
        bound = _dump_size(document, 0) + 1 + values_bound  # + the final newline
    except RecursionError:
        raise cases.MalformedCaseFile(path, None, "cannot fill: the JSON is nested too deeply to rewrite") from None
    if bound > max_file_bytes:
        raise cases.MalformedCaseFile(
            path, None, f"cannot fill: the filled file could take up to {bound} bytes, more than the limit "
            f"of {max_file_bytes} (--max-file-size)")

    summary = FillSummary(cases=len(case_file.cases))
    for case, index, raw_output in to_fill:
        spec = case.outputs[index]
        count = math.prod(spec.shape)
        exact = case.op.reference_at(case, index, np.arange(count, dtype=np.int64))
        raw_output["data"] = {"kind": "values", "values": values_array_token(exact)}
        summary.outputs_filled += 1
        summary.values_filled += count
    try:
        filled = dump_json(document)
    except RecursionError:
        raise cases.MalformedCaseFile(path, None, "cannot fill: the JSON is nested too deeply to rewrite") from None
    summary.nbytes = len(filled.encode("utf-8"))
    if summary.nbytes > max_file_bytes:
        raise cases.MalformedCaseFile(
            path, None, f"cannot fill: the filled file would take {summary.nbytes} bytes, more than "
            f"the limit of {max_file_bytes} (--max-file-size)")
    return filled, summary


def fill_file(in_path: str, out_path: str, max_elements: int = cases.DEFAULT_MAX_ELEMENTS,
              max_file_bytes: int = cases.DEFAULT_MAX_FILE_BYTES) -> FillSummary:
    """Fill ``in_path`` into ``out_path`` (which may be ``in_path``), atomically.
    Raises cases.MalformedCaseFile or OutputError; writes nothing then."""
    check_writable_target(out_path)
    text = cases.read_regular_file_bytes(in_path, max_file_bytes)
    try:
        text = text.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise cases.MalformedCaseFile(in_path, None, f"cannot read file: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    filled, summary = fill_text(text, in_path, max_elements=max_elements, max_file_bytes=max_file_bytes)
    write_text_atomically(out_path, filled)
    return summary


# ---------------------------------------------------------------------------
# Generating
# ---------------------------------------------------------------------------

_SIZE_ITEM = re.compile(r"(\d+)(?:-(\d+)|:(\d+)(?::(\d+))?)?")
#: Digits accepted in one number of a size spec (2^53 has 16).
_MAX_SIZE_DIGITS = 20


def parse_sizes(spec: str, max_size: int, max_count: int) -> list[int]:
    """Window sizes from SPEC: comma-separated ``N``, ``A-B`` (A to B
    inclusive) and ``A:B:STEP`` (A, A+STEP, ... up to B inclusive; ``A:B`` is
    step 1), in the order given, repeats dropped.  Every size must be at most
    ``max_size`` and the spec may name at most ``max_count`` sizes (both are
    checked before the list is built).  Raises UsageError."""
    ranges: list[range] = []
    count = 0
    for item in spec.split(","):
        item = item.strip()
        match = _SIZE_ITEM.fullmatch(item)
        if match is None or any(g is not None and len(g) > _MAX_SIZE_DIGITS for g in match.groups()):
            raise UsageError(f"--sizes: {cases._quoted(item)} is not N, A-B or A:B:STEP "
                             "(non-negative integers)")
        first, last_dash, last_colon, step = match.groups()
        first = int(first)
        last = int(last_dash if last_dash is not None else last_colon if last_colon is not None else first)
        step = int(step) if step is not None else 1
        if last < first or step < 1:
            raise UsageError(f"--sizes: {cases._quoted(item)} is empty (need A <= B and STEP >= 1)")
        if last > max_size:
            raise UsageError(f"--sizes: {cases._quoted(item)} goes above {max_size}, the largest "
                             "size allowed (--max-elements, and 2^53)")
        ranges.append(range(first, last + 1, step))
        count += len(ranges[-1])
        if count > max_count:
            raise UsageError(f"--sizes names more than {max_count} sizes, more than a file of "
                             "--max-file-size bytes can hold")
    return list(dict.fromkeys(size for r in ranges for size in r))


def _resolve_op(text: str) -> str:
    wanted = text.strip().lower()
    for name in cases.OPS:
        if wanted in (name.lower(), name.lower().removeprefix("ai.onnx.")):
            return name
    known = ", ".join(name.removeprefix("ai.onnx.") for name in cases.OPS)
    raise UsageError(f"--new: unknown op {cases._quoted(text)} (known: {known})")


def _parse_dtypes(text: str | None, allowed: tuple[str, ...], op: str) -> list[str]:
    if text is None:
        raise UsageError(f"--new {op.removeprefix('ai.onnx.')} needs --dtypes "
                         f"(some of {', '.join(allowed)}, or all)")
    names = [name.strip() for name in text.split(",") if name.strip()]
    if names == ["all"]:
        return list(allowed)
    for index, name in enumerate(names):
        if name not in allowed:
            raise UsageError(f"--dtypes: {cases._quoted(name)} is not one of {', '.join(allowed)}, all")
        if name in names[:index]:
            raise UsageError(f"--dtypes names {name} twice")
    if not names:
        raise UsageError("--dtypes is empty")
    return [name for name in allowed if name in names]


def _parse_classes(text: str, max_count: int) -> list[tuple[str, int]]:
    """[(class, count)] from "special,hard,random:N" (count only for random)."""
    result: list[tuple[str, int]] = []
    for item in (part.strip() for part in text.split(",")):
        name, _, count_text = item.partition(":")
        if name not in CLASSES or (name == "random") != bool(count_text):
            raise UsageError(f"--classes: {cases._quoted(item)} is not one of special, hard, random:N")
        count = 0
        if name == "random":
            if not count_text.isdigit() or len(count_text) > _MAX_SIZE_DIGITS or int(count_text) < 1:
                raise UsageError(f"--classes: {cases._quoted(item)}: N must be a positive integer")
            count = int(count_text)
            if count > max_count:
                raise UsageError(f"--classes: {cases._quoted(item)}: more than the {max_count} "
                                 "inputs allowed (--max-elements and --max-file-size)")
        if name in (c for c, _ in result):
            raise UsageError(f"--classes names {name} twice")
        result.append((name, count))
    return result


def special_bits(fmt_name: str) -> list[int]:
    """+-0, +-inf, NaN, +-smallest and +-largest subnormal, +-smallest normal,
    +-largest finite, +-1, as bit patterns of ``fmt_name``."""
    fmt = reference.FLOAT_FORMATS[fmt_name]
    one = reference.round_rational(1, 1, fmt)
    smallest_normal = 1 << (fmt.precision - 1)
    positive = [0, fmt.inf_bits, 1, smallest_normal - 1, smallest_normal, fmt.inf_bits - 1, one]
    patterns = []
    for bits in positive:
        patterns += [bits, bits | fmt.sign_bit]
    return patterns[:4] + [fmt.nan_bits] + patterns[4:]


def hard_bits(func: str, fmt_name: str) -> list[int]:
    """The shipped hardest inputs of ``func`` in ``fmt_name`` and their negatives."""
    from ._hard_inputs import HARD_INPUTS

    fmt = reference.FLOAT_FORMATS[fmt_name]
    patterns = []
    for text, _ in HARD_INPUTS[func][fmt_name]:
        bits = reference.float_to_bits(float.fromhex(text), fmt)
        patterns += [bits, bits | fmt.sign_bit]
    return patterns


def random_bits(fmt_name: str, count: int, seed: int) -> np.ndarray:
    """``count`` random bit patterns of ``fmt_name`` from ``seed`` (the same
    for every op, different for each type)."""
    fmt = reference.FLOAT_FORMATS[fmt_name]
    rng = np.random.default_rng([seed, TRIG_DTYPE_ORDER.index(fmt_name)])
    return rng.integers(0, 1 << fmt.width, count, dtype=np.uint64, endpoint=False).astype(fmt.bits_dtype)


def load_inputs(path: str, max_elements: int, max_file_bytes: int) -> np.ndarray:
    """A float16 / bfloat16 / float32 / float64 array from a .npy file
    (no pickles; ``V2`` raw 2-byte values are bfloat16, as np.save writes
    ml_dtypes.bfloat16).  Raises cases.MalformedCaseFile."""
    data = cases.read_regular_file_bytes(path, max_file_bytes)
    try:
        array = np.load(io.BytesIO(data), allow_pickle=False)
    except Exception as exc:  # any unreadable file: one line
        raise cases.MalformedCaseFile(path, None, f"cannot read .npy: {cases._exception_text(exc, 200)}") from None
    if not isinstance(array, np.ndarray):
        raise cases.MalformedCaseFile(path, None, "not a .npy file (an .npz holds several arrays)")
    if array.dtype.kind == "V" and array.dtype.itemsize == 2 and array.dtype.fields is None:
        array = np.ascontiguousarray(array).view(np.uint16).view(reference.FLOAT_FORMATS["bfloat16"].dtype)
    elif array.dtype.kind == "f" and not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    name = reference.format_name(array.dtype, _strict=False)
    if name not in TRIG_DTYPE_ORDER:
        raise cases.MalformedCaseFile(
            path, None, f"dtype {cases._excerpt(str(array.dtype))} is not float16, bfloat16 (V2), "
            "float32 or float64")
    if array.ndim > cases.MAX_NDIM or array.size > max_elements:
        raise cases.MalformedCaseFile(path, None, f"more than {max_elements} elements (--max-elements) "
                                      f"or {cases.MAX_NDIM} dimensions")
    return np.ascontiguousarray(array)


def _bits_token(patterns, fmt_name: str) -> _Raw:
    fmt = reference.FLOAT_FORMATS[fmt_name]
    array = np.asarray(patterns, dtype=np.uint64).astype(fmt.bits_dtype).view(fmt.dtype)
    return values_array_token(array)


def _window_case(kind_name: str, size: int, dtype: str, periodic: bool) -> dict:
    has_nan = not periodic and size == 1 and dtype in reference.FLOAT_FORMATS
    output: dict[str, Any] = {"dtype": dtype, "shape": [size], "tolerance": 0}
    if has_nan:
        output["allowNaN"] = True
    return {
        "name": f"{'periodic' if periodic else 'symmetric'}_{dtype}_size{size}",
        "attrs": {"periodic": int(periodic), "output_datatype": ONNX_DATATYPE_CODES[dtype]},
        "inputs": {"size": {"dtype": "int64", "shape": [],
                            "data": {"kind": "values", "values": [size]}}},
        "outputs": {"y": output},
    }


def _trig_case(name: str, patterns: np.ndarray, fmt_name: str, shape: list[int]) -> dict:
    fmt = reference.FLOAT_FORMATS[fmt_name]
    values = np.asarray(patterns, dtype=np.uint64).astype(fmt.bits_dtype)
    magnitudes = values & np.array(fmt.sign_bit - 1, dtype=fmt.bits_dtype)
    output: dict[str, Any] = {"dtype": fmt_name, "shape": shape, "tolerance": 0}
    if np.any(magnitudes >= fmt.inf_bits):  # inf and NaN inputs give NaN
        output["allowNaN"] = True
    return {
        "name": name,
        "inputs": {"x": {"dtype": fmt_name, "shape": shape,
                         "data": {"kind": "values", "values": _bits_token(values, fmt_name)}}},
        "outputs": {"y": output},
    }


def _check_values_bound(bound: int, max_file_bytes: int) -> None:
    """Refuse a --new file whose values alone could exceed --max-file-size
    (before any of them is computed)."""
    if bound > max_file_bytes:
        raise UsageError(f"the file's values could take up to {bound} bytes, more than the limit "
                         f"of {max_file_bytes} (--max-file-size)")


@dataclass
class NewRequest:
    """What ``--new`` is asked to build (strings as given on the command line)."""

    op: str
    sizes: str | None = None
    dtypes: str | None = None
    periodic: str | None = None
    inputs: str | None = None
    classes: str | None = None
    seed: int | None = None


def new_document(request: NewRequest, max_elements: int = cases.DEFAULT_MAX_ELEMENTS,
                 max_file_bytes: int = cases.DEFAULT_MAX_FILE_BYTES) -> dict:
    """The skeleton of a new case file (no output data yet).  Raises
    UsageError or cases.MalformedCaseFile (an unreadable --inputs file)."""
    op = _resolve_op(request.op)
    command = [f"--new {op.removeprefix('ai.onnx.')}"]
    if op in WINDOW_OPS:
        for option in ("inputs", "classes", "seed"):
            if getattr(request, option) is not None:
                raise UsageError(f"--{option} applies to Sin, Cos and Tan, not to {op}")
        if request.sizes is None:
            raise UsageError(f"--new {op.removeprefix('ai.onnx.')} needs --sizes")
        dtypes = _parse_dtypes(request.dtypes, DTYPE_ORDER, op)
        modes = {"yes": [True], "no": [False], "both": [True, False], None: [True, False]}[request.periodic]
        per_size = len(dtypes) * len(modes)
        max_size = min(cases.MAX_WINDOW_SIZE, max_elements)
        sizes = parse_sizes(request.sizes, max_size, max(1, max_file_bytes // (MIN_CASE_BYTES * per_size)))
        _check_values_bound(len(modes) * sum(sum(sizes) * max_value_bytes(op, dtype) for dtype in dtypes),
                            max_file_bytes)
        case_list = [_window_case(WINDOW_OPS[op], size, dtype, periodic)
                     for periodic in modes for dtype in dtypes for size in sizes]
        command += [f"--sizes {request.sizes}", f"--dtypes {','.join(dtypes)}",
                    f"--periodic {request.periodic or 'both'}"]
    else:
        func = TRIG_OPS[op]
        for option in ("sizes", "periodic"):
            if getattr(request, option) is not None:
                raise UsageError(f"--{option} applies to windows, not to {op}")
        if request.inputs is None and request.classes is None:
            raise UsageError(f"--new {op.removeprefix('ai.onnx.')} needs --classes or --inputs")
        # Each input and output value takes at least "0.0, " (5 bytes).
        max_values = max(1, max_file_bytes // (2 * MIN_VALUE_BYTES["float"]))
        case_list = []
        if request.classes is not None:
            classes = _parse_classes(request.classes, min(max_values, max_elements))
            dtypes = _parse_dtypes(request.dtypes, TRIG_DTYPE_ORDER, op)
            per_dtype = {dtype: {"special": len(special_bits(dtype)), "hard": len(hard_bits(func, dtype))}
                         for dtype in dtypes}
            _check_values_bound(sum(2 * max_value_bytes(op, dtype) * (per_dtype[dtype][name] if name != "random"
                                                                      else count)
                                    for dtype in dtypes for name, count in classes), max_file_bytes)
            for dtype in dtypes:
                for name, count in classes:
                    if name == "special":
                        patterns = np.array(special_bits(dtype), dtype=np.uint64)
                    elif name == "hard":
                        patterns = np.array(hard_bits(func, dtype), dtype=np.uint64)
                    else:
                        patterns = random_bits(dtype, count, request.seed or 0)
                    case_list.append(_trig_case(f"{dtype}_{name}", patterns, dtype, [len(patterns)]))
            command += [f"--classes {request.classes}", f"--dtypes {','.join(dtypes)}",
                        f"--seed {request.seed or 0}"]
        elif request.dtypes is not None:
            raise UsageError("--dtypes applies to --classes; the dtype of --inputs is the file's")
        if request.inputs is not None:
            array = load_inputs(request.inputs, min(max_values, max_elements), max_file_bytes)
            dtype = reference.format_name(array.dtype)
            _check_values_bound(2 * max_value_bytes(op, dtype) * array.size, max_file_bytes)
            patterns = array.reshape(-1).view(reference.FLOAT_FORMATS[dtype].bits_dtype)
            case_list.append(_trig_case(f"{dtype}_inputs", patterns, dtype, list(array.shape)))
            command.append(f"--inputs {os.path.basename(request.inputs)}")
    return {
        "op": op,
        "provenance": (f"generated by crtrig {__version__} (crtrig cases {' '.join(command)}): "
                       "every expected value is the exact result rounded once into the output "
                       "type (crtrig.reference), written as the shortest decimal that reads back "
                       "to it; tolerance 0"),
        "cases": case_list,
    }


def new_text(request: NewRequest, path: str = "<new>", max_elements: int = cases.DEFAULT_MAX_ELEMENTS,
             max_file_bytes: int = cases.DEFAULT_MAX_FILE_BYTES) -> tuple[str, FillSummary]:
    """The text of a new, filled case file (see new_document and fill_text)."""
    skeleton = dump_json(new_document(request, max_elements, max_file_bytes))
    return fill_text(skeleton, path, max_elements=max_elements, max_file_bytes=max_file_bytes)


# ---------------------------------------------------------------------------
# Command line (the ``cases`` command: the runner plus --fill and --new)
# ---------------------------------------------------------------------------

_GENERATOR_ONLY = ("output", "sizes", "dtypes", "periodic", "inputs", "classes", "seed")


def _non_negative_int(text: str) -> int:
    if not text.isdigit() or len(text) > _MAX_SIZE_DIGITS:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {cases._quoted(text)}")
    return int(text)


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """The ``cases`` command: the runner's arguments (cases.configure_parser)
    and the generators' (--fill, --new and their options)."""
    cases.configure_parser(parser)
    group = parser.add_argument_group("writing case files (instead of running them)")
    mode = group.add_mutually_exclusive_group()
    mode.add_argument("--fill", metavar="IN.json",
                      help="write exact expected data into every output of IN.json that has none")
    mode.add_argument("--new", metavar="OP",
                      help="build a case file from scratch: HannWindow, HammingWindow, "
                      "BlackmanWindow (with --sizes), Sin, Cos or Tan (with --classes or --inputs)")
    group.add_argument("-o", "--output", metavar="OUT.json",
                       help="where --fill and --new write (may be IN.json; written atomically)")
    group.add_argument("--sizes", metavar="SPEC",
                       help="window sizes: N, A-B (inclusive), A:B:STEP (inclusive), comma-separated; "
                       "e.g. 0-64,257,1000:2000:7")
    group.add_argument("--dtypes", metavar="LIST",
                       help="output types, comma-separated, or all")
    group.add_argument("--periodic", choices=("yes", "no", "both"),
                       help="periodic windows, symmetric ones, or both (default)")
    group.add_argument("--inputs", metavar="FILE.npy",
                       help="Sin/Cos/Tan inputs from a .npy file; its dtype is the case's")
    group.add_argument("--classes", metavar="LIST",
                       help="Sin/Cos/Tan input classes: special, hard, random:N (comma-separated)")
    group.add_argument("--seed", type=_non_negative_int, metavar="S",
                       help="seed of random:N (default 0)")
    parser.set_defaults(func=run)


def _usage_error(program: str, message: str) -> int:
    print(f"{program}: error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    program = getattr(args, "program", cases.PROGRAM)
    if args.fill is None and args.new is None:
        given = [f"--{name}" if name != "output" else "-o" for name in _GENERATOR_ONLY
                 if getattr(args, name) is not None]
        if given:
            return _usage_error(program, f"{given[0]} applies to --fill or --new")
        return cases.run_args(args)

    mode = "--fill" if args.fill is not None else "--new"
    runner_options = [option for option, used in (
        ("FILE arguments", bool(args.files)), ("--strict", args.strict), ("--quiet", args.quiet),
        ("--junit", args.junit is not None), ("--fail-on-skip", args.fail_on_skip),
        ("--check-limit/--all", args.check_limit != cases.DEFAULT_CHECK_LIMIT)) if used]
    if runner_options:
        return _usage_error(program, f"{runner_options[0]}: applies to running cases, not to {mode}")
    if args.output is None:
        return _usage_error(program, f"{mode} needs -o OUT.json")
    if args.fill is not None:
        for name in _GENERATOR_ONLY[1:]:
            if getattr(args, name) is not None:
                return _usage_error(program, f"--{name} applies to --new, not to --fill")
    try:
        check_writable_target(args.output)
        if args.fill is not None:
            summary = fill_file(args.fill, args.output, max_elements=args.max_elements,
                                max_file_bytes=args.max_file_size)
        else:
            request = NewRequest(op=args.new, sizes=args.sizes, dtypes=args.dtypes,
                                 periodic=args.periodic, inputs=args.inputs, classes=args.classes,
                                 seed=args.seed)
            text, summary = new_text(request, args.output, max_elements=args.max_elements,
                                     max_file_bytes=args.max_file_size)
            write_text_atomically(args.output, text)
    except (UsageError, cases.MalformedCaseFile) as exc:
        return _usage_error(program, str(exc))
    except OutputError as exc:
        return _usage_error(program, f"{cases._excerpt(args.output, 200)}: {exc}")
    print(f"wrote {cases._printable(args.output)}: {summary.cases} case(s), filled {summary.outputs_filled} "
          f"output(s) with {summary.values_filled} value(s), {summary.nbytes} bytes")
    return 0
