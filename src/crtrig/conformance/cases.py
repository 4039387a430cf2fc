"""Case-file runner: ``crtrig cases [FILE ...] [--strict] [--all] [--quiet]
[--fail-on-skip] [--junit FILE]`` (also ``python -m crtrig cases``; the
generators ``--fill`` and ``--new`` of the same command live in
:mod:`crtrig.vectors`).

Without FILE it runs every case file shipped with crtrig (``crtrig/cases``,
copied there from the repository's ``cases/`` at build time).  A FILE that
does not exist and has no directory part may name a shipped file, with or
without ``.json`` (``crtrig cases hannwindow``); a real path always wins.
``crtrig cases --list`` prints the shipped files, one a line (name, op,
number of cases), and exits.

Supported ops: ai.onnx.HannWindow, ai.onnx.HammingWindow,
ai.onnx.BlackmanWindow (input: the size; attributes periodic and
output_datatype) and the element-wise ai.onnx.Sin, ai.onnx.Cos and ai.onnx.Tan (one input
of any shape, float16 / bfloat16 / float32 / float64; the output has the
input's dtype and shape).

A case file is JSON::

    {"op": "ai.onnx.HannWindow",
     "cases": [{"name": ..., "attrs": {...}, "requires": {"features": [...]},
                "inputs":  {NAME: {"dtype": ..., "shape": [...],
                                   "data": {"kind": "values", "values": [...]}}},
                "outputs": {NAME: {"dtype": ..., "shape": [...],
                                   "tolerance": T, "relTolerance": R,
                                   "allowNaN": bool, "data": {...}}}}]}

Numbers in files are read as exact decimals (JSON numbers or strings, plus
"NaN", "inf", "-inf" and hex floats such as "0x1.8p-1", also exact); input
values and expected output values are each rounded once, to nearest even,
directly into the input resp. output dtype (``crtrig.reference.round_rational``;
integer dtypes take only integral values in range).  A negative zero ("-0",
"-0.0" or the JSON number -0.0; not the JSON integer -0) stays negative.

Each case runs crtrig's implementation of the op on the whole output and
measures two distances:

* ``vs_data``: from the file's ``data`` (each value rounded into the output
  dtype), over every element: the largest ULP distance and absolute error;
* ``vs_exact``: from the correctly rounded value (:mod:`crtrig.reference`),
  over the *checked* elements: every element of outputs up to
  ``check_limit`` (default 16384) elements; beyond it a deterministic sample
  of ``check_limit`` elements plus the op's exact points (for windows: the
  elements where the value is rational, their neighbours and the ends).
  ``--all`` checks every element.

An element passes when ``|got - want| <= max(tolerance, relTolerance * |want|)``
in exact arithmetic, ``want`` being the data (or, without data, the correctly
rounded value); tolerance 0 means equal values.  NaN must appear exactly where
the expectation has NaN, and only when ``allowNaN`` is true.  With
``--strict`` every checked output must also equal the correctly rounded value
bit for bit, and the sign of zero must also match the data.

Hostile input ends fast: only regular files up to ``max_file_bytes`` are read;
numbers with more than 2000 digits or a decimal exponent beyond +-1000 (binary
+-3400 for hex floats), shapes of more than 32 dimensions or more than
``max_elements`` elements, window sizes above 2^53 and output shapes that
disagree with the inputs make a file malformed before anything is computed;
messages quote at most a short excerpt of a value.  Nothing from a file
reaches the terminal raw: a case name is printed as written when it is
printable, has no whitespace and does not start with a quote, otherwise
quoted as Python's repr() quotes it (a lone surrogate, ESC or a newline come
out as escapes); other text from files has its non-printable characters
escaped.

Ops are described by :class:`OpSpec` entries in :data:`OPS`; adding an op
means adding one entry.

For CI: ``--fail-on-skip`` reports and counts a skipped case as a failure; a
file none of whose cases ran (all skipped, or no cases) gets a warning line
on stderr either way; ``--quiet`` prints only the failed cases and the
summary; ``--junit FILE`` also writes a JUnit XML report (:mod:`crtrig._junit`:
one testsuite per file, one testcase per case; written atomically, also for
a malformed file, whose testsuite then holds an error).  Messages start with
the command's name as it was called ("crtrig cases" or "python -m crtrig
cases").

Exit status: 2 if any file is malformed or unreadable (nothing is run then)
or the JUnit report cannot be written, otherwise 1 if any case failed (with
``--fail-on-skip``: or was skipped), otherwise 0.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import re
import stat
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation, localcontext
from fractions import Fraction
from typing import Any, Callable, Iterable

import numpy as np

from .. import reference
from .._output import OutputError, check_writable_target, write_text_atomically

#: Optional hardware features this CPU runner provides.
SUPPORTED_FEATURES = frozenset({"shader-f16"})

#: ONNX TensorProto.DataType values of the supported output types.
ONNX_DATATYPES: dict[int, str] = {
    1: "float32",
    2: "uint8",
    3: "int8",
    4: "uint16",
    5: "int16",
    6: "int32",
    7: "int64",
    10: "float16",
    11: "float64",
    12: "uint32",
    13: "uint64",
    16: "bfloat16",
}

class _DtypeTable(Mapping):
    """Name -> numpy dtype of the 12 types, bfloat16 (ml_dtypes') looked up at
    its first use, so that importing this module does not import ml_dtypes."""

    _NAMES = (*reference.FLOAT_FORMATS, *reference.INTEGER_FORMATS)

    def __getitem__(self, name):
        if name in reference.FLOAT_FORMATS:
            return reference.FLOAT_FORMATS[name].dtype
        return reference.INTEGER_FORMATS[name]

    def __iter__(self):
        return iter(self._NAMES)

    def __len__(self):
        return len(self._NAMES)


#: dtype spellings accepted in case files.
DTYPES: Mapping[str, np.dtype] = _DtypeTable()

PROGRAM = "crtrig cases"

#: Outputs up to this many elements are checked element by element against
#: the correctly rounded value; larger ones on a sample of this many elements
#: plus the exact points.  Above every shipped case (the largest has 12,000).
DEFAULT_CHECK_LIMIT = 1 << 14
#: Declared shapes with more elements make a file malformed.
DEFAULT_MAX_ELEMENTS = 1 << 26
#: Larger files are not read.
DEFAULT_MAX_FILE_BYTES = 64 << 20
#: Largest window size crtrig accepts (every index is an exact double).
MAX_WINDOW_SIZE = 1 << 53

#: Limits on numbers in files, so that making them exact takes bounded time.
#: 2000 digits are more than the 767 significant digits of the longest exact
#: decimal of a float64; 10^+-1000 is far outside every supported format.
MAX_DIGITS = 2000
MAX_DECIMAL_EXPONENT = 1000
MAX_BINARY_EXPONENT = 3400  # about 10^1000
#: Most dimensions a shape may have.
MAX_NDIM = 32
#: Longest excerpt of a file's text quoted in a message.
EXCERPT_LENGTH = 40
#: Seed of the deterministic sample of large outputs.
SAMPLE_SEED = 0
#: Non-finite outputs added to the checked elements of a sampled output.
MAX_NONFINITE_ADDED = 16
#: Elements compared per numpy step (bounds the temporary arrays).
COMPARE_BLOCK = 1 << 20


class MalformedCaseFile(Exception):
    """A case file that cannot be run: unreadable, bad JSON, missing field, bad value..."""

    def __init__(self, path: str, case: str | None, message: str):
        super().__init__(message)
        self.path = path
        self.case = case
        self.message = message

    def __str__(self) -> str:
        where = f"{_printable(self.path)}: " + (f"case {_shown_name(self.case, EXCERPT_LENGTH)}: "
                                                if self.case is not None else "")
        return where + self.message


class _Invalid(Exception):
    """Raised inside validation; turned into MalformedCaseFile with context."""


class _BadNumber(ValueError):
    """A JSON number that cannot be read in bounded time (raised while parsing)."""


def _printable(text: str) -> str:
    """``text`` with every character that is not printable (control characters
    such as ESC or a newline, C1 controls, lone surrogates, bidi overrides, line
    separators) written as its Python escape, so that a message is one line a
    terminal only displays, and can always be encoded."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def _excerpt(value, limit: int = EXCERPT_LENGTH) -> str:
    """A short printable excerpt of a value from a file (repr for non-strings)."""
    text = value if isinstance(value, str) else _safe_repr(value)
    if len(text) <= limit:
        return _printable(text)
    return f"{_printable(text[:limit])}... ({len(text)} characters)"


def _shown_name(name, limit: int = 200) -> str:
    """A name from a file (a case name) in a result line or a message: as it is
    when it is printable, has no whitespace and does not start with a quote;
    otherwise quoted, as repr() quotes it (so it can neither act on the
    terminal nor split or imitate a line)."""
    if (isinstance(name, str) and name and len(name) <= limit and name.isprintable()
            and name[0] not in "'\"" and not any(ch.isspace() for ch in name)):
        return name
    return _quoted(name, limit)


def _exception_text(exc: BaseException, limit: int = 200) -> str:
    """An exception's message as a short excerpt on one line (numpy's .npy
    header message has three; an implementation's may have any number)."""
    return _excerpt(" ".join(str(exc).split()) or type(exc).__name__, limit)


def _quoted(value, limit: int = EXCERPT_LENGTH) -> str:
    """Like repr() of a string from a file, cut to a short excerpt."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}... ({len(value)} characters)"
    return _excerpt(value, limit)


def _safe_repr(value) -> str:
    if isinstance(value, (list, tuple, dict)):
        kind = type(value).__name__
        return f"<{kind} of {len(value)} item(s)>"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return _show(value)
    return repr(value)


# ---------------------------------------------------------------------------
# Parsed cases
# ---------------------------------------------------------------------------


@dataclass
class OutputSpec:
    """An expected output: dtype, shape, tolerances and optional data."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    tolerance: Fraction = Fraction(0)
    rel_tolerance: Fraction = Fraction(0)
    allow_nan: bool = False
    #: The file's data, each value rounded once into ``dtype`` (an array of
    #: ``shape``), or None.
    expected: np.ndarray | None = None


@dataclass
class Case:
    """One validated case, ready to run."""

    name: str
    op: "OpSpec"
    attrs: dict[str, Any]
    inputs: list[np.ndarray]
    input_names: list[str]
    outputs: list[OutputSpec]
    required_features: tuple[str, ...] = ()


@dataclass
class CaseFile:
    path: str
    label: str
    op: "OpSpec"
    cases: list[Case]


@dataclass
class Distances:
    """How far crtrig's output is from an expectation, over some elements."""

    max_ulp: int | float = 0  # math.inf for NaN against a number
    max_abs: Fraction | float = Fraction(0)  # math.inf for inf against another value


@dataclass
class CaseResult:
    """Outcome of one case; ``line()`` is what the CLI prints.

    ``vs_data`` is None when the file has no data; ``checked`` of ``total``
    elements were compared with the correctly rounded value (``vs_exact``).
    """

    label: str
    case: str
    status: str  # "PASS", "FAIL" or "SKIP"
    checked: int = 0
    total: int = 0
    vs_data: Distances | None = None
    vs_exact: Distances | None = None
    reason: str = ""

    def line(self) -> str:
        data = "-" if self.vs_data is None else (
            f"max_ulp={_format_ulp(self.vs_data.max_ulp)} max_abs={_format_error(self.vs_data.max_abs)}"
        )
        exact = "-" if self.vs_exact is None else f"max_ulp={_format_ulp(self.vs_exact.max_ulp)}"
        text = (
            f"{_printable(self.label)}  {_shown_name(self.case)}  {self.status}  "
            f"checked {self.checked} of {self.total}  vs_data: {data}  vs_exact: {exact}"
        )
        return text + (f"  ({self.reason})" if self.reason else "")


def _format_error(value) -> str:
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if value == 0:
        return "0"
    return f"{float(value):.3g}" if value < 2**1000 else _show(value, digits=3)


def _format_ulp(value) -> str:
    return "inf" if isinstance(value, float) else str(value)


# ---------------------------------------------------------------------------
# Op table
# ---------------------------------------------------------------------------


@dataclass
class OpSpec:
    """How to validate, run and check one ONNX op.

    ``implementation`` names the crtrig callable (looked up lazily, so tests
    can substitute one).  ``call(fn, case)`` runs it and returns the list of
    outputs; ``reference_at(case, output_index, flat_indices)`` returns the
    correctly rounded values of those elements of that output (a 1-D array of
    its dtype); ``exact_points(case, output_index)`` lists elements always
    checked when an output is sampled; ``unsupported(case)``, if given, names
    why a valid case is skipped.
    """

    name: str
    implementation: str
    input_names: tuple[str, ...]
    input_dtypes: tuple[frozenset[str], ...]
    attribute_defaults: dict[str, Any]
    output_dtypes: frozenset[str]
    validate: Callable[[Case], None]
    call: Callable[[Callable, Case], list]
    reference_at: Callable[[Case, int, np.ndarray], np.ndarray]
    exact_points: Callable[[Case, int], Iterable[int]]
    num_outputs: int = 1
    #: Reason a valid case cannot run yet (reported as SKIP), or "".
    unsupported: Callable[[Case], str] | None = None


def _window_size(case: Case) -> int:
    return int(case.inputs[0].reshape(-1)[0])


def _window_denominator(case: Case) -> int:
    size = _window_size(case)
    return size if case.attrs["periodic"] else size - 1


def _validate_window(case: Case) -> None:
    size_array = case.inputs[0]
    if size_array.shape not in ((), (1,)):
        raise _Invalid(
            f"input {_quoted(case.input_names[0])} must be a scalar (shape []) or a 1-element "
            f"tensor, got shape {list(size_array.shape)}"
        )
    size = _window_size(case)
    if size < 0:
        raise _Invalid(f"input {_quoted(case.input_names[0])} must be non-negative")
    if size > MAX_WINDOW_SIZE:
        raise _Invalid(f"window size {size} is above 2^53, the largest crtrig supports")
    periodic = case.attrs["periodic"]
    if periodic not in (0, 1):
        raise _Invalid(f"attribute periodic must be 0 or 1, got {_excerpt(periodic)}")
    datatype = case.attrs["output_datatype"]
    if datatype not in ONNX_DATATYPES:
        raise _Invalid(
            f"attribute output_datatype {_excerpt(datatype)} is not a supported ONNX data type"
        )
    output = case.outputs[0]
    implied = ONNX_DATATYPES[datatype]
    if implied != output.dtype:
        raise _Invalid(
            f"attribute output_datatype={datatype} ({implied}) disagrees with "
            f"output {_quoted(output.name)} dtype {output.dtype}"
        )
    if output.shape != (size,):
        raise _Invalid(
            f"output {_quoted(output.name)} shape {list(output.shape)} disagrees with "
            f"the window size {size} (want [{size}])"
        )


#: Window elements n/D at which cos(2 pi n / D) is rational: the value is exact there.
_WINDOW_EXACT_FRACTIONS = tuple(
    Fraction(a, b) for a, b in ((0, 1), (1, 6), (1, 4), (1, 3), (1, 2), (2, 3), (3, 4), (5, 6), (1, 1))
)


def _window_exact_points(case: Case, output_index: int) -> list[int]:
    """The ends, the elements where the value is rational (n/D in
    {0, 1/6, 1/4, 1/3, 1/2, 2/3, 3/4, 5/6, 1}) and their neighbours."""
    size = _window_size(case)
    denominator = _window_denominator(case)
    points = {0, 1, size - 2, size - 1}
    for fraction in _WINDOW_EXACT_FRACTIONS:
        numerator = denominator * fraction.numerator
        if denominator > 0 and numerator % fraction.denominator == 0:
            middle = numerator // fraction.denominator
            points.update((middle - 1, middle, middle + 1))
    return sorted(p for p in points if 0 <= p < size)


def _window_op(onnx_name: str, kind: str) -> OpSpec:
    def call(fn: Callable, case: Case) -> list:
        result = fn(
            case.inputs[0],
            periodic=bool(case.attrs["periodic"]),
            dtype=DTYPES[case.outputs[0].dtype],
        )
        return [result]

    def reference_at(case: Case, output_index: int, indices: np.ndarray) -> np.ndarray:
        """Element by element (reference.window_bits / window_value), only the
        requested ones: cost proportional to len(indices), not to the size."""
        denominator = _window_denominator(case)
        name = case.outputs[output_index].dtype
        positions = indices.tolist()
        if name in reference.INTEGER_FORMATS:
            values = [reference.window_value(kind, n, max(denominator, 0), name) for n in positions]
            return np.array(values, dtype=DTYPES[name])
        fmt = reference.FLOAT_FORMATS[name]
        bits = [reference.window_bits(kind, n, max(denominator, 0), name) for n in positions]
        return np.array(bits, dtype=fmt.bits_dtype).view(fmt.dtype)

    return OpSpec(
        name=onnx_name,
        implementation=f"{kind}_window",
        input_names=("size",),
        input_dtypes=(frozenset({"int32", "int64"}),),
        attribute_defaults={"periodic": 1, "output_datatype": 1},
        output_dtypes=frozenset(ONNX_DATATYPES.values()),
        validate=_validate_window,
        call=call,
        reference_at=reference_at,
        exact_points=_window_exact_points,
    )


#: Input (= output) dtypes of the element-wise trigonometric ops (all run by crtrig).
TRIG_DTYPES = frozenset({"float16", "bfloat16", "float32", "float64"})


def _validate_elementwise(case: Case) -> None:
    """The output has the input's dtype and shape."""
    source = case.inputs[0]
    output = case.outputs[0]
    input_dtype = reference.format_name(source.dtype)
    if output.dtype != input_dtype:
        raise _Invalid(
            f"output {_quoted(output.name)} dtype {output.dtype} differs from input "
            f"{_quoted(case.input_names[0])} dtype {input_dtype}"
        )
    if output.shape != source.shape:
        raise _Invalid(
            f"output {_quoted(output.name)} shape {list(output.shape)} differs from input "
            f"{_quoted(case.input_names[0])} shape {list(source.shape)}"
        )


def _elementwise_exact_points(case: Case, output_index: int) -> list[int]:
    """The first and last elements."""
    count = case.inputs[0].size
    return sorted({p for p in (0, 1, count - 2, count - 1) if 0 <= p < count})


def _tan_reference(x: np.ndarray) -> np.ndarray:
    """crtrig.reference.tan_bits over an array, as reference.trig does for sin/cos."""
    f = reference.FLOAT_FORMATS[reference.format_name(x.dtype)]
    with np.errstate(invalid="ignore"):  # signalling NaN patterns
        values = x.astype(np.float64).reshape(-1).tolist()
    return np.array([reference.tan_bits("tan", v, f.name) for v in values],
                    dtype=f.bits_dtype).view(f.dtype).reshape(x.shape)


def _trig_op(onnx_name: str, func: str) -> OpSpec:
    def call(fn: Callable, case: Case) -> list:
        # inf -> NaN raises numpy's "invalid" warning; that is expected here (and
        # float16 tan(177.5)'s overflow).
        with np.errstate(invalid="ignore", over="ignore"):
            return [fn(case.inputs[0])]

    def reference_at(case: Case, output_index: int, indices: np.ndarray) -> np.ndarray:
        x = case.inputs[0].reshape(-1)[indices]
        return _tan_reference(x) if func == "tan" else reference.trig(func, x)

    return OpSpec(
        name=onnx_name,
        implementation=func,
        input_names=("input",),
        input_dtypes=(TRIG_DTYPES,),
        attribute_defaults={},
        output_dtypes=TRIG_DTYPES,
        validate=_validate_elementwise,
        call=call,
        reference_at=reference_at,
        exact_points=_elementwise_exact_points,
    )


#: Supported ops by their ONNX domain-qualified name.
OPS: dict[str, OpSpec] = {
    "ai.onnx.HannWindow": _window_op("ai.onnx.HannWindow", "hann"),
    "ai.onnx.HammingWindow": _window_op("ai.onnx.HammingWindow", "hamming"),
    "ai.onnx.BlackmanWindow": _window_op("ai.onnx.BlackmanWindow", "blackman"),
    "ai.onnx.Sin": _trig_op("ai.onnx.Sin", "sin"),
    "ai.onnx.Cos": _trig_op("ai.onnx.Cos", "cos"),
    "ai.onnx.Tan": _trig_op("ai.onnx.Tan", "tan"),
}


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------

_NAN_SPELLINGS = {"nan", "+nan", "-nan"}
_INF_SPELLINGS = {"inf", "+inf", "infinity", "+infinity"}
_NEG_INF_SPELLINGS = {"-inf", "-infinity"}
# What float.fromhex accepts, minus inf/nan (handled first): sign, 0x, hex
# digits with an optional point, optional binary exponent.
_HEX_FLOAT = re.compile(r"([+-]?)0x([0-9a-f]*)(?:\.([0-9a-f]*))?(?:p([+-]?[0-9]+))?", re.IGNORECASE)


def _exact_value(raw) -> Fraction | int | float:
    """Exact value of a JSON value: int/Fraction, or float nan / +-inf / -0.0.

    JSON numbers arrive as int or Decimal (the file is parsed with
    ``parse_float=Decimal``), so no binary rounding has happened yet.
    Numbers too long or too far out of range to be made exact in bounded
    time are rejected (see MAX_DIGITS and the exponent limits).
    """
    if isinstance(raw, bool):
        raise _Invalid(f"value {raw!r} is not a number")
    if isinstance(raw, int):
        if raw.bit_length() > MAX_DIGITS * 4:
            raise _Invalid(f"value {_excerpt(raw)} has more than {MAX_DIGITS} digits")
        return raw
    if isinstance(raw, Decimal):
        return _decimal_to_exact(raw, raw)
    if isinstance(raw, float):  # NaN / Infinity constants
        return raw
    if isinstance(raw, str):
        text = raw.strip().lower()
        if text in _NAN_SPELLINGS:
            return math.nan
        if text in _INF_SPELLINGS:
            return math.inf
        if text in _NEG_INF_SPELLINGS:
            return -math.inf
        if text.lstrip("+-").startswith("0x"):
            return _hex_to_exact(text, raw)
        try:
            value = Decimal(raw.strip())
        except InvalidOperation:
            raise _Invalid(f"value {_quoted(raw)} is not a number") from None
        return _decimal_to_exact(value, raw)
    raise _Invalid(f"value {_excerpt(raw)} is not a number")


def _decimal_to_exact(value: Decimal, raw) -> Fraction | int | float:
    if value.is_nan():
        return math.nan
    if value.is_infinite():
        return math.inf if value > 0 else -math.inf
    if value.is_zero():
        return -0.0 if value.is_signed() else 0
    digits = len(value.as_tuple().digits)
    if digits > MAX_DIGITS:
        raise _Invalid(f"value {_quoted(str(raw))} has more than {MAX_DIGITS} digits")
    if abs(value.adjusted()) > MAX_DECIMAL_EXPONENT:
        raise _Invalid(
            f"value {_quoted(str(raw))} is out of range (decimal exponent beyond "
            f"+-{MAX_DECIMAL_EXPONENT})"
        )
    exact = Fraction(value)
    return int(exact) if exact.denominator == 1 else exact


def _hex_to_exact(text: str, raw) -> Fraction | int | float:
    """Exact value of a hex float such as "0x1.8p-1" (text lowercased, stripped)."""
    match = _HEX_FLOAT.fullmatch(text)
    if match is None or not (match.group(2) or match.group(3)):
        raise _Invalid(f"value {_quoted(raw)} is not a number")
    sign, whole, fraction, exponent_text = match.groups()
    fraction = fraction or ""
    if len(whole) + len(fraction) > MAX_DIGITS:
        raise _Invalid(f"value {_quoted(raw)} has more than {MAX_DIGITS} digits")
    exponent_digits = (exponent_text or "").lstrip("+-").lstrip("0")
    if len(exponent_digits) > 6:  # no need to convert a huge exponent (leading zeros do not count)
        exponent = MAX_BINARY_EXPONENT + 1
    else:
        exponent = int(exponent_digits or "0") * (-1 if (exponent_text or "").startswith("-") else 1)
    if abs(exponent) > MAX_BINARY_EXPONENT:
        raise _Invalid(
            f"value {_quoted(raw)} is out of range (binary exponent beyond +-{MAX_BINARY_EXPONENT})"
        )
    mantissa = int(whole + fraction, 16)
    if mantissa == 0:
        return -0.0 if sign == "-" else 0
    exponent -= 4 * len(fraction)
    value = Fraction(mantissa << exponent) if exponent >= 0 else Fraction(mantissa, 1 << -exponent)
    value = -value if sign == "-" else value
    return int(value) if value.denominator == 1 else value


def _is_nan(x) -> bool:
    return isinstance(x, float) and math.isnan(x)


def _is_negative_zero(x) -> bool:
    return isinstance(x, float) and x == 0.0 and math.copysign(1.0, x) < 0


def _is_inf(x) -> bool:
    return isinstance(x, float) and math.isinf(x)


def _to_dtype_array(values: list, dtype_name: str, shape: tuple[int, ...]) -> np.ndarray:
    """Exact values -> array of ``dtype_name``, each rounded once (floats,
    with reference.round_rational: no numpy or ml_dtypes cast).

    Integer dtypes accept only integral values within range.
    """
    dtype = DTYPES[dtype_name]
    if dtype_name in reference.FLOAT_FORMATS:
        fmt = reference.FLOAT_FORMATS[dtype_name]
        bits = []
        for value in values:
            if isinstance(value, float):  # nan / inf / -0.0
                bits.append(reference.float_to_bits(value, fmt))
            else:
                bits.append(reference.round_rational(value.numerator, value.denominator, fmt))
        return np.array(bits, dtype=fmt.bits_dtype).view(dtype).reshape(shape)
    info = np.iinfo(dtype)
    values = [0 if _is_negative_zero(value) else value for value in values]
    for value in values:
        if isinstance(value, float) or Fraction(value).denominator != 1:
            raise _Invalid(f"value {_show(value)} is not an integer ({dtype_name})")
        if not info.min <= value <= info.max:
            raise _Invalid(f"value {_show(value)} is out of range for {dtype_name}")
    return np.array([int(v) for v in values], dtype=dtype).reshape(shape)


def _show(value, digits: int = 17) -> str:
    """A number for a message: floats by repr, other values exactly when short,
    else to ``digits`` significant digits (never raises, whatever the size)."""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int) and abs(value) < 10**17:
        return str(value)
    if isinstance(value, (Fraction, int)):
        if abs(value) < 2**1000:
            as_float = float(value)
            if Fraction(as_float) == value:
                return repr(as_float)
        with localcontext() as context:
            context.prec = digits
            context.Emax = 10**9
            context.Emin = -(10**9)
            approx = Decimal(value.numerator) / Decimal(value.denominator)
        return f"~{approx:.{digits}g}"
    return _excerpt(value)


# ---------------------------------------------------------------------------
# Loading and validation
# ---------------------------------------------------------------------------


def _require(mapping: Mapping, key: str, kind: type | tuple[type, ...], what: str):
    if key not in mapping:
        raise _Invalid(f"missing field {what}{key!r}")
    value = mapping[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise _Invalid(f"field {what}{key!r} has the wrong type ({type(value).__name__})")
    return value


def _parse_shape(spec: Mapping, what: str, max_elements: int) -> tuple[int, ...]:
    shape = _require(spec, "shape", list, what)
    if len(shape) > MAX_NDIM:
        raise _Invalid(f"{what}shape has {len(shape)} dimensions, more than {MAX_NDIM}")
    if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        raise _Invalid(f"{what}shape must be a list of non-negative integers")
    if max(shape, default=0) > MAX_WINDOW_SIZE:
        raise _Invalid(f"{what}shape {_excerpt(str(shape), 80)} has a dimension above 2^53")
    if math.prod(shape) > max_elements:
        raise _Invalid(
            f"{what}shape {_excerpt(str(shape), 80)} declares more than the "
            f"{max_elements} elements allowed (--max-elements)"
        )
    return tuple(shape)


def _parse_dtype(spec: Mapping, what: str) -> str:
    dtype = _require(spec, "dtype", str, what)
    if dtype not in DTYPES:
        raise _Invalid(f"unknown dtype {_quoted(dtype)} in {what.rstrip(': ')}")
    return dtype


def _parse_data(spec: Mapping, shape: tuple[int, ...], what: str) -> list:
    data = spec["data"]
    if not isinstance(data, Mapping):
        raise _Invalid(f"{what}data must be an object")
    kind = _require(data, "kind", str, f"{what}data: ")
    if kind != "values":
        raise _Invalid(f"unknown data kind {_quoted(kind)} in {what.rstrip(': ')}")
    values = _require(data, "values", list, f"{what}data: ")
    count = math.prod(shape)
    if len(values) != count:
        raise _Invalid(f"{what.rstrip(': ')} has {len(values)} values but shape {list(shape)} needs {count}")
    return [_exact_value(v) for v in values]


def _parse_tolerance(spec: Mapping, key: str, what: str) -> Fraction:
    if key not in spec:
        return Fraction(0)
    value = _exact_value(spec[key])
    if _is_negative_zero(value):
        value = 0
    if isinstance(value, float) or value < 0:
        raise _Invalid(f"{what}{key} must be a non-negative finite number")
    return Fraction(value)


def _parse_case(raw: Any, op: OpSpec, max_elements: int) -> Case:
    if not isinstance(raw, Mapping):
        raise _Invalid("case must be an object")
    name = raw["name"]

    attrs_raw = raw.get("attrs", {})
    if not isinstance(attrs_raw, Mapping):
        raise _Invalid("attrs must be an object")
    attrs = dict(op.attribute_defaults)
    for key, value in attrs_raw.items():
        if key not in op.attribute_defaults:
            raise _Invalid(f"unknown attribute {_quoted(key)} for {op.name}")
        if not isinstance(value, int) or isinstance(value, bool):
            raise _Invalid(f"attribute {_excerpt(key)} must be an integer, got {_excerpt(value)}")
        attrs[key] = value

    features: tuple[str, ...] = ()
    if "requires" in raw:
        requires = raw["requires"]
        if not isinstance(requires, Mapping):
            raise _Invalid("requires must be an object")
        feature_list = requires.get("features", [])
        if not isinstance(feature_list, list) or not all(isinstance(f, str) for f in feature_list):
            raise _Invalid("requires.features must be a list of strings")
        features = tuple(feature_list)

    inputs_raw = _require(raw, "inputs", Mapping, "")
    if len(inputs_raw) != len(op.input_names):
        raise _Invalid(
            f"{op.name} takes {len(op.input_names)} input(s) "
            f"({', '.join(op.input_names)}), got {len(inputs_raw)}"
        )
    outputs_raw = _require(raw, "outputs", Mapping, "")
    if len(outputs_raw) != op.num_outputs:
        raise _Invalid(f"{op.name} has {op.num_outputs} output(s), got {len(outputs_raw)}")

    inputs, input_names = [], []
    for index, (input_name, spec) in enumerate(inputs_raw.items()):
        what = f"input {_quoted(input_name)}: "
        if not isinstance(spec, Mapping):
            raise _Invalid(f"{what}must be an object")
        dtype = _parse_dtype(spec, what)
        if dtype not in op.input_dtypes[index]:
            allowed = ", ".join(sorted(op.input_dtypes[index]))
            raise _Invalid(f"{what}dtype {dtype} is not allowed for {op.name} (allowed: {allowed})")
        shape = _parse_shape(spec, what, max_elements)
        if "data" not in spec:
            raise _Invalid(f"missing field {what}'data'")
        values = _parse_data(spec, shape, what)
        inputs.append(_to_dtype_array(values, dtype, shape))
        input_names.append(input_name)

    # Outputs in two steps: everything but the data first, so that the op's
    # shape checks run before any expected value is made exact.
    outputs, output_data = [], []
    for output_name, spec in outputs_raw.items():
        what = f"output {_quoted(output_name)}: "
        if not isinstance(spec, Mapping):
            raise _Invalid(f"{what}must be an object")
        dtype = _parse_dtype(spec, what)
        if dtype not in op.output_dtypes:
            raise _Invalid(f"{what}dtype {dtype} is not allowed for {op.name}")
        shape = _parse_shape(spec, what, max_elements)
        allow_nan = spec.get("allowNaN", False)
        if not isinstance(allow_nan, bool):
            raise _Invalid(f"{what}allowNaN must be true or false")
        outputs.append(
            OutputSpec(
                name=output_name,
                dtype=dtype,
                shape=shape,
                tolerance=_parse_tolerance(spec, "tolerance", what),
                rel_tolerance=_parse_tolerance(spec, "relTolerance", what),
                allow_nan=allow_nan,
            )
        )
        output_data.append((spec, what))

    case = Case(
        name=name,
        op=op,
        attrs=attrs,
        inputs=inputs,
        input_names=input_names,
        outputs=outputs,
        required_features=features,
    )
    op.validate(case)
    for output, (spec, what) in zip(outputs, output_data):
        if "data" in spec:
            values = _parse_data(spec, output.shape, what)
            output.expected = _to_dtype_array(values, output.dtype, output.shape)
    return case


def _parse_json_int(text: str) -> int:
    if len(text) > MAX_DIGITS + 1:
        raise _BadNumber(f"the integer {_quoted(text)} has more than {MAX_DIGITS} digits")
    return int(text)


def _parse_json_float(text: str) -> Decimal:
    """A JSON number with a fraction or exponent, exactly (checked later, in
    _decimal_to_exact; here only what Decimal itself refuses)."""
    try:
        return Decimal(text)
    except InvalidOperation:  # an exponent beyond Decimal's own range
        raise _BadNumber(f"the number {_quoted(text)} is out of range") from None


def parse_case_file(text: str, path: str, label: str | None = None,
                    max_elements: int = DEFAULT_MAX_ELEMENTS) -> CaseFile:
    """Parse and validate a case file's text; raises MalformedCaseFile.

    Declared shapes of more than ``max_elements`` elements are malformed."""
    import json  # here, not at import: `crtrig cases --help` needs neither json nor _junit

    try:
        document = json.loads(text, parse_float=_parse_json_float, parse_int=_parse_json_int)
    except _BadNumber as exc:
        raise MalformedCaseFile(path, None, str(exc)) from None
    except (ValueError, RecursionError) as exc:
        raise MalformedCaseFile(path, None, f"invalid JSON: {_exception_text(exc, 200)}") from None
    try:
        if not isinstance(document, Mapping):
            raise _Invalid("top level must be an object")
        op_name = _require(document, "op", str, "")
        if op_name not in OPS:
            raise _Invalid(f"unknown op {_quoted(op_name)} (supported: {', '.join(OPS)})")
        raw_cases = _require(document, "cases", list, "")
    except _Invalid as exc:
        raise MalformedCaseFile(path, None, str(exc)) from None
    op = OPS[op_name]

    cases: list[Case] = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_cases):
        case_name = raw.get("name") if isinstance(raw, Mapping) else None
        if not isinstance(case_name, str) or not case_name:
            raise MalformedCaseFile(path, f"#{index}", "missing field 'name' (a non-empty string)")
        if case_name in seen:
            raise MalformedCaseFile(path, case_name, "duplicate case name")
        seen.add(case_name)
        try:
            cases.append(_parse_case(raw, op, max_elements))
        except _Invalid as exc:
            raise MalformedCaseFile(path, case_name, str(exc)) from None
        except Exception as exc:  # a file shape the checks above did not foresee
            raise MalformedCaseFile(
                path, case_name, f"cannot parse case ({type(exc).__name__}: {_exception_text(exc, 200)})"
            ) from None
    return CaseFile(path=path, label=label or os.path.basename(path), op=op, cases=cases)


def read_regular_file_bytes(path: str, max_bytes: int, limit_option: str = "--max-file-size") -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` bytes; raises
    MalformedCaseFile (no case) otherwise.

    os.stat comes first, because opening a FIFO blocks until a writer
    appears; the file is then opened without blocking and checked again (it
    may have been replaced in between), and read up to the limit only."""

    def refuse(message: str):
        return MalformedCaseFile(path, None, message)

    def check(info: os.stat_result) -> None:
        if not stat.S_ISREG(info.st_mode):
            raise refuse("cannot read file: not a regular file")
        if info.st_size > max_bytes:
            raise refuse(f"cannot read file: {info.st_size} bytes, more than the limit of "
                         f"{max_bytes} ({limit_option})")

    try:
        check(os.stat(path))
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise refuse(f"cannot read file: {exc.strerror or exc}") from None
    try:
        with os.fdopen(descriptor, "rb") as handle:
            descriptor = None
            check(os.fstat(handle.fileno()))
            data = handle.read(min(max_bytes, sys.maxsize - 1) + 1)
    except OSError as exc:
        raise refuse(f"cannot read file: {exc.strerror or exc}") from None
    finally:
        if descriptor is not None:
            os.close(descriptor)
    if len(data) > max_bytes:
        raise refuse(f"cannot read file: more than the limit of {max_bytes} bytes ({limit_option})")
    return data


def _read_regular_file(path: str, max_bytes: int) -> str:
    """The text of a regular UTF-8 file of at most ``max_bytes`` bytes."""
    data = read_regular_file_bytes(path, max_bytes)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedCaseFile(path, None, f"cannot read file: not UTF-8 ({exc.reason} at byte {exc.start})") from None


def load_case_file(path: str | os.PathLike, max_elements: int = DEFAULT_MAX_ELEMENTS,
                   max_file_bytes: int = DEFAULT_MAX_FILE_BYTES) -> CaseFile:
    """Read, parse and validate a case file from disk (a regular file of at
    most ``max_file_bytes`` bytes)."""
    path = os.fspath(path)
    return parse_case_file(_read_regular_file(path, max_file_bytes), path, max_elements=max_elements)


def _packaged_entries() -> list:
    """The shipped JSON case files (importlib.resources Traversables), by name.

    An editable install or a source checkout has no ``crtrig/cases`` (the
    build copies them there); it uses the top-level ``cases/`` instead."""
    import importlib.resources  # 6 ms: only when the shipped files are looked up

    directory = importlib.resources.files("crtrig") / "cases"
    if not directory.is_dir():
        directory = importlib.resources.files("crtrig") / ".." / ".." / "cases"
        if not directory.is_dir():
            return []
    return sorted(
        (entry for entry in directory.iterdir() if entry.name.endswith(".json")),
        key=lambda entry: entry.name,
    )


def packaged_case_files() -> list[tuple[str, str]]:
    """(name, text) of the JSON case files shipped in ``crtrig/cases``
    (in a source checkout or an editable install: the top-level ``cases/``)."""
    return [(entry.name, entry.read_text(encoding="utf-8")) for entry in _packaged_entries()]


def packaged_case_file(name: str) -> tuple[str, str] | None:
    """(file name, text) of the shipped case file called ``name``, with or
    without ``.json`` ("hannwindow" or "hannwindow.json"), or None."""
    for entry in _packaged_entries():
        if name in (entry.name, entry.name[: -len(".json")]):
            return entry.name, entry.read_text(encoding="utf-8")
    return None


def _is_bare_name(text: str) -> bool:
    """Whether a FILE argument has no directory part (so it may name a shipped file)."""
    separators = [os.sep] + ([os.altsep] if os.altsep else [])
    return text not in ("", ".", "..") and not any(sep in text for sep in separators)


def _load_file_argument(argument, program: str, max_elements: int, max_file_bytes: int) -> CaseFile:
    """A FILE argument of the command: a path (which always wins), else the
    name of a shipped case file; MalformedCaseFile if it is neither."""
    path = os.fspath(argument)
    if os.path.lexists(path) or not _is_bare_name(path):
        try:
            return load_case_file(path, max_elements=max_elements, max_file_bytes=max_file_bytes)
        except MalformedCaseFile as exc:
            name = os.path.basename(path)
            if os.path.lexists(path) or not name or packaged_case_file(name) is None:
                raise
            raise MalformedCaseFile(exc.path, exc.case, f"{exc.message} (the shipped {name} "
                                    f"runs as `{program} {name}`)") from None
    shipped = packaged_case_file(path)
    if shipped is None:
        raise MalformedCaseFile(path, None, "neither a file nor the name of a shipped case file "
                                f"(`{program} --list` lists them)")
    name, text = shipped
    return parse_case_file(text, name, label=name, max_elements=max_elements)


def _case_count_and_op(text: str) -> tuple[str, str]:
    """(number of cases, op) of a shipped file's text, for --list ("?" where unreadable)."""
    import json

    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return "?", "?"
    if not isinstance(document, Mapping):
        return "?", "?"
    listed = document.get("cases")
    op = document.get("op")
    return (str(len(listed)) if isinstance(listed, list) else "?",
            op if isinstance(op, str) else "?")


def list_cli(out=None, err=None, program: str = PROGRAM) -> int:
    """``crtrig cases --list``: print the shipped case files, one a line (the
    name, then the op and the number of cases); exit status 0, or 2 if none
    is installed."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    packaged = packaged_case_files()
    if not packaged:
        _error(err, "no case files are installed in crtrig/cases", program)
        return 2
    rows = [(name, *_case_count_and_op(text)) for name, text in packaged]
    name_width = max(len(name) for name, _, _ in rows)
    op_width = max(len(op) for _, _, op in rows)
    for name, count, op in rows:
        print(f"{name:<{name_width}}  {op:<{op_width}}  {count} case(s)", file=out)
    return 0


# ---------------------------------------------------------------------------
# Running and checking
# ---------------------------------------------------------------------------


def _resolve_implementation(op: OpSpec, impl) -> Callable:
    """Find op.implementation in ``impl``: None -> the crtrig module,
    a Mapping -> impl[name], anything else -> getattr(impl, name)."""
    if impl is None:
        impl = importlib.import_module("crtrig")
    if isinstance(impl, Mapping):
        if op.implementation not in impl:
            raise LookupError(f"no implementation {op.implementation!r}")
        return impl[op.implementation]
    function = getattr(impl, op.implementation, None)
    if function is None:
        raise LookupError(f"{getattr(impl, '__name__', impl)!s} has no {op.implementation}")
    return function


def checked_indices(total: int, check_limit: int | None, exact_points: Iterable[int] = ()) -> np.ndarray:
    """Flat indices of the elements compared with the correctly rounded value.

    All of them when ``check_limit`` is None or ``total <= check_limit``;
    otherwise one element drawn at random from each of ``check_limit`` equal
    strata of [0, total) (a fixed seed: the same elements on every run) plus
    ``exact_points``.  Cost proportional to ``check_limit``, whatever ``total``."""
    if check_limit is None or total <= check_limit:
        return np.arange(total, dtype=np.int64)
    offsets = np.random.default_rng(SAMPLE_SEED).random(check_limit).tolist()
    picks = set()
    for stratum, offset in enumerate(offsets):
        start = stratum * total // check_limit
        end = (stratum + 1) * total // check_limit
        picks.add(start + min(int(offset * (end - start)), end - start - 1))
    picks.update(p for p in exact_points if 0 <= p < total)
    return np.array(sorted(picks), dtype=np.int64)


def _first_nonfinite(flat: np.ndarray, limit: int) -> list[int]:
    """Indices of up to ``limit`` NaN or infinite elements of a float array."""
    found: list[int] = []
    for start in range(0, flat.size, COMPARE_BLOCK):
        block = flat[start:start + COMPARE_BLOCK]
        found.extend((np.flatnonzero(~np.isfinite(block)) + start)[: limit - len(found)].tolist())
        if len(found) >= limit:
            break
    return found


@dataclass
class _Comparison:
    """Distances and problems of ``got`` against ``want`` over some elements."""

    distances: Distances = field(default_factory=Distances)
    failures: int = 0  # elements out of tolerance (or NaN problems)
    first_failure: str = ""
    different: int = 0  # elements not bit-identical (any NaN equals any NaN)
    first_difference: str = ""


def _compare(got: np.ndarray, want: np.ndarray, positions: np.ndarray | None,
             spec: OutputSpec, check_tolerance: bool, sign_of_zero: bool) -> _Comparison:
    """Compare two 1-D arrays of the same dtype, element by element, exactly.

    ``positions[i]`` is the flat index of element i in the output (None: i).
    With ``check_tolerance`` an element fails when it is out of ``spec``'s
    tolerance or breaks the NaN rules; with ``sign_of_zero`` zeros of opposite
    signs also fail it.  Vectorized where the values are equal (the common
    case); only the differing elements are visited one by one.
    """
    result = _Comparison()
    fmt = spec.dtype
    is_float = fmt in reference.FLOAT_FORMATS
    for start in range(0, got.size, COMPARE_BLOCK):
        got_block = got[start:start + COMPARE_BLOCK]
        want_block = want[start:start + COMPARE_BLOCK]
        if is_float:
            got_values = got_block.astype(np.float64)
            want_values = want_block.astype(np.float64)
            both_nan = np.isnan(got_values) & np.isnan(want_values)
            same = got_values == want_values
            zero_signs_differ = same & (got_values == 0) & (np.signbit(got_values) != np.signbit(want_values))
            plain = (same & ~zero_signs_differ) | (both_nan & (spec.allow_nan or not check_tolerance))
        else:
            got_values, want_values = got_block, want_block
            plain = got_block == want_block
        for offset in np.flatnonzero(~plain).tolist():
            index = start + offset
            position = index if positions is None else int(positions[index])
            if is_float:
                got_value, want_value = float(got_values[offset]), float(want_values[offset])
            else:
                got_value, want_value = int(got_values[offset]), int(want_values[offset])
            _compare_element(result, position, got_value, want_value, spec, check_tolerance, sign_of_zero)
    return result


def _compare_element(result: _Comparison, position: int, got, want, spec: OutputSpec,
                     check_tolerance: bool, sign_of_zero: bool) -> None:
    """One element whose values are not plainly equal (see _compare).
    Messages are written only for the first failure and difference."""
    distances = result.distances
    got_nan, want_nan = _is_nan(got), _is_nan(want)
    problem: Callable[[], str] | None = None
    different = True
    if got_nan and want_nan:  # only reached when NaN is not allowed
        different = False
        problem = lambda: "NaN output but allowNaN is false"  # noqa: E731
    elif got_nan or want_nan:
        distances.max_ulp = math.inf
        problem = lambda: f"NaN mismatch (got {_show(got)}, want {_show(want)})"  # noqa: E731
    elif got == want:  # zeros of opposite signs
        if sign_of_zero:
            problem = lambda: (  # noqa: E731
                f"got {_show(got)}, want {_show(want)} (the sign of zero differs; --strict)"
            )
    else:
        if _is_inf(got) or _is_inf(want):
            error: Fraction | float = math.inf
        else:
            error = abs(Fraction(got) - Fraction(want))
        distances.max_abs = max(distances.max_abs, error)
        distances.max_ulp = max(distances.max_ulp, reference.ulp_distance(got, want, spec.dtype))
        bound = spec.tolerance
        if spec.rel_tolerance and not _is_inf(want):
            bound = max(bound, spec.rel_tolerance * abs(Fraction(want)))
        if error > bound:
            problem = lambda: (  # noqa: E731
                f"got {_show(got)}, want {_show(want)}, |error| {_show(error)} > {_show(bound)}"
            )
    if different:
        result.different += 1
        if not result.first_difference:
            result.first_difference = f"element {position}: got {_show(got)}, want {_show(want)}"
    if problem is not None and check_tolerance:
        result.failures += 1
        if not result.first_failure:
            result.first_failure = f"element {position}: {problem()}"


def run_case(case: Case, label: str = "", strict: bool = False, impl=None,
             check_limit: int | None = DEFAULT_CHECK_LIMIT) -> CaseResult:
    """Run one validated case against ``impl`` (see ``_resolve_implementation``).

    ``check_limit``: outputs up to this many elements are compared with the
    correctly rounded value everywhere, larger ones on a sample (None: always
    everywhere)."""
    total = sum(math.prod(spec.shape) for spec in case.outputs)
    result = CaseResult(label=label or case.op.name, case=case.name, status="PASS", total=total)
    missing = [f for f in case.required_features if f not in SUPPORTED_FEATURES]
    if missing:
        result.status = "SKIP"
        result.reason = f"requires feature(s) {', '.join(map(_quoted, missing))} not provided by the CPU runner"
        return result
    skip_reason = case.op.unsupported(case) if case.op.unsupported is not None else ""
    if skip_reason:
        result.status = "SKIP"
        result.reason = skip_reason
        return result

    try:
        function = _resolve_implementation(case.op, impl)
        outputs = case.op.call(function, case)
    except Exception as exc:  # the implementation under test failed
        result.status = "FAIL"
        result.reason = f"implementation raised {type(exc).__name__}: {_exception_text(exc, 200)}"
        return result
    if not isinstance(outputs, (list, tuple)) or len(outputs) != len(case.outputs):
        result.status = "FAIL"
        count = len(outputs) if isinstance(outputs, (list, tuple)) else 1
        result.reason = f"implementation returned {count} output(s), want {len(case.outputs)}"
        return result

    reasons: list[str] = []
    for output_index, (spec, raw_output) in enumerate(zip(case.outputs, outputs)):
        name = _quoted(spec.name)
        got = np.asarray(raw_output)
        if got.dtype != DTYPES[spec.dtype]:
            reasons.append(f"output {name}: dtype {got.dtype}, want {spec.dtype}")
            continue
        if got.shape != spec.shape:
            reasons.append(f"output {name}: shape {list(got.shape)}, want {list(spec.shape)}")
            continue
        flat = got.reshape(-1)
        extra = list(case.op.exact_points(case, output_index))
        if spec.dtype in reference.FLOAT_FORMATS and check_limit is not None and flat.size > check_limit:
            extra += _first_nonfinite(flat, MAX_NONFINITE_ADDED)  # cheap to find, worth a look
        indices = checked_indices(flat.size, check_limit, extra)
        exact = case.op.reference_at(case, output_index, indices)
        result.checked += len(indices)

        has_data = spec.expected is not None
        # The sign of zero against the correctly rounded value: --strict's
        # bit-for-bit check below (``different``), not the tolerance.
        versus_exact = _compare(flat[indices], exact, indices, spec,
                                check_tolerance=not has_data, sign_of_zero=False)
        result.vs_exact = _merge(result.vs_exact, versus_exact.distances)
        tolerance_check = versus_exact
        if has_data:
            tolerance_check = _compare(flat, spec.expected.reshape(-1), None, spec,
                                       check_tolerance=True, sign_of_zero=strict)
            result.vs_data = _merge(result.vs_data, tolerance_check.distances)
        if tolerance_check.failures:
            against = "the data" if has_data else "the correctly rounded value"
            reasons.append(f"output {name}: {tolerance_check.failures} element(s) out of tolerance "
                           f"against {against}; first: {tolerance_check.first_failure}")
        if strict and versus_exact.different:
            reasons.append(
                f"output {name}: strict: {versus_exact.different} element(s) differ from the "
                f"correctly rounded value; first: {versus_exact.first_difference}"
            )
    if reasons:
        result.status = "FAIL"
        result.reason = "; ".join(reasons)
    return result


def _merge(total: Distances | None, part: Distances) -> Distances:
    if total is None:
        return Distances(part.max_ulp, part.max_abs)
    return Distances(max(total.max_ulp, part.max_ulp), max(total.max_abs, part.max_abs))


def run_case_file(case_file: CaseFile, strict: bool = False, impl=None,
                  check_limit: int | None = DEFAULT_CHECK_LIMIT) -> list[CaseResult]:
    return [run_case(case, case_file.label, strict, impl, check_limit) for case in case_file.cases]


def run_file(path: str | os.PathLike, strict: bool = False, impl=None,
             check_limit: int | None = DEFAULT_CHECK_LIMIT,
             max_elements: int = DEFAULT_MAX_ELEMENTS,
             max_file_bytes: int = DEFAULT_MAX_FILE_BYTES) -> list[CaseResult]:
    """Load, validate and run one case file; raises MalformedCaseFile."""
    case_file = load_case_file(path, max_elements=max_elements, max_file_bytes=max_file_bytes)
    return run_case_file(case_file, strict=strict, impl=impl, check_limit=check_limit)


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


#: The largest value of --check-limit, --max-elements and --max-file-size (a byte
#: count that fits a read() call).
MAX_OPTION_VALUE = 2**63 - 1


def _positive_int(text: str) -> int:
    try:
        value = int(text, 0) if len(text.strip()) <= 30 else 0
    except ValueError:
        value = 0
    if not 0 < value <= MAX_OPTION_VALUE:
        raise argparse.ArgumentTypeError(f"expected a positive integer below 2**63, got {_quoted(text)}")
    return value


class _ListAction(argparse.Action):
    """``--list``: print the shipped case files and exit, as --help does (so
    whatever else is on the command line, --fill and --new included)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        try:
            status = list_cli(program=parser.prog)
            sys.stdout.flush()
        except BrokenPipeError:  # e.g. piped into `head`: stop quietly, as crtrig.__main__ does
            sys.stderr.close()
            status = 1
        parser.exit(status)


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``cases`` arguments to an (sub)parser.

    ``func`` reads ``args.program`` (the command's name as called, set by
    ``crtrig.__main__``) for its messages."""
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="case files, or the names of shipped ones (see --list; with or without .json; "
        "a path that exists wins) (default: every case file shipped with crtrig)",
    )
    parser.add_argument(
        "--list",
        action=_ListAction,
        help="print the case files shipped with crtrig (name, op, number of cases) and exit",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="also require every checked output to equal the correctly rounded value "
        "exactly (and the sign of zero to match the data)",
    )
    checking = parser.add_mutually_exclusive_group()
    checking.add_argument(
        "--check-limit",
        type=_positive_int,
        default=DEFAULT_CHECK_LIMIT,
        metavar="N",
        help="compare outputs of up to N elements with the correctly rounded value "
        "everywhere, larger ones on N sampled elements plus the exact points "
        f"(default {DEFAULT_CHECK_LIMIT})",
    )
    checking.add_argument(
        "--all",
        action="store_const",
        const=None,
        dest="check_limit",
        help="compare every element with the correctly rounded value, whatever the size",
    )
    parser.add_argument(
        "--max-elements",
        type=_positive_int,
        default=DEFAULT_MAX_ELEMENTS,
        metavar="N",
        help=f"a shape of more than N elements makes a file malformed (default 2^26 = {DEFAULT_MAX_ELEMENTS})",
    )
    parser.add_argument(
        "--max-file-size",
        type=_positive_int,
        default=DEFAULT_MAX_FILE_BYTES,
        metavar="BYTES",
        help=f"do not read larger files (default 64 MiB = {DEFAULT_MAX_FILE_BYTES})",
    )
    parser.add_argument(
        "--fail-on-skip",
        action="store_true",
        help="count a skipped case as a failure (exit status 1)",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="print only the failed cases and the summary",
    )
    parser.add_argument(
        "--junit",
        metavar="FILE",
        help="also write a JUnit XML report to FILE (one testsuite per case file)",
    )
    parser.set_defaults(func=run_args)


def run_args(args: argparse.Namespace) -> int:
    """Run the ``cases`` command from parsed arguments."""
    return run_cli(
        args.files,
        strict=args.strict,
        check_limit=args.check_limit,
        max_elements=args.max_elements,
        max_file_bytes=args.max_file_size,
        quiet=args.quiet,
        fail_on_skip=args.fail_on_skip,
        junit=args.junit,
        program=getattr(args, "program", PROGRAM),
    )


def _error(stream, message: str, program: str = PROGRAM) -> None:
    print(f"{program}: error: {message}", file=stream)


def _junit_load_error(path: str, message: str) -> _junit.TestSuite:
    from . import _junit

    return _junit.TestSuite(path, [_junit.TestCase("(load)", "ERROR", message, message)])


def _write_junit(path: str, suites: list[_junit.TestSuite], err, program: str) -> bool:
    from . import _junit

    try:
        write_text_atomically(path, _junit.junit_xml(program, suites))
    except OutputError as exc:
        _error(err, f"--junit {_excerpt(path, 200)}: {exc}", program)
        return False
    return True


def run_cli(files, strict: bool = False, impl=None, out=None, err=None,
            check_limit: int | None = DEFAULT_CHECK_LIMIT,
            max_elements: int = DEFAULT_MAX_ELEMENTS,
            max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
            quiet: bool = False, fail_on_skip: bool = False, junit: str | None = None,
            program: str = PROGRAM) -> int:
    """Validate all files, run every case, print results; return exit status.

    Each of ``files`` is a path or, when no such path exists and it has no
    directory part, the name of a shipped case file (with or without
    ``.json``); an argument that is neither counts as a malformed file
    (exit status 2).

    ``quiet``: print only failed cases and the summary.  ``fail_on_skip``: a
    skipped case is reported and counted as a failure.  A file with no case
    that ran (all skipped, or none at all) gets a warning line on ``err``
    either way.  ``junit``: also write a JUnit XML report there (also when a
    file is malformed: the report then holds an error for it).  ``program``
    starts every message (how the command was called)."""
    from . import _junit  # the suites are kept whether or not --junit is given

    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    if junit is not None:
        try:
            check_writable_target(junit)
        except OutputError as exc:
            _error(err, f"--junit {_excerpt(junit, 200)}: {exc}", program)
            return 2
    case_files: list[CaseFile] = []
    try:
        if files:
            for path in files:
                case_files.append(_load_file_argument(path, program, max_elements, max_file_bytes))
        else:
            packaged = packaged_case_files()
            if not packaged:
                _error(err, "no case files given and none are installed in crtrig/cases", program)
                return 2
            for name, text in packaged:
                case_files.append(parse_case_file(text, name, label=name, max_elements=max_elements))
    except MalformedCaseFile as exc:
        _error(err, str(exc), program)
        if junit is not None:
            _write_junit(junit, [_junit_load_error(exc.path, str(exc))], err, program)
        return 2

    passed = failed = skipped = 0
    suites: list[_junit.TestSuite] = []
    for case_file in case_files:
        suite = _junit.TestSuite(case_file.label)
        suites.append(suite)
        skipped_here = 0
        for case in case_file.cases:
            start = time.perf_counter()
            try:
                result = run_case(case, case_file.label, strict, impl, check_limit)
            except Exception as exc:  # never let a traceback escape the CLI
                result = CaseResult(
                    case_file.label,
                    case.name,
                    "FAIL",
                    reason=f"runner error {type(exc).__name__}: {_exception_text(exc, 200)}",
                )
            seconds = time.perf_counter() - start
            if result.status == "SKIP":
                skipped_here += 1
                if fail_on_skip:
                    result.status = "FAIL"
                    result.reason = f"skipped, counted as a failure (--fail-on-skip): {result.reason}"
            line = result.line()
            if not quiet or result.status == "FAIL":
                print(line, file=out)
            suite.cases.append(_junit.TestCase(case.name, result.status, result.reason, line, seconds))
            if result.status == "PASS":
                passed += 1
            elif result.status == "FAIL":
                failed += 1
            else:
                skipped += 1
        if skipped_here == len(case_file.cases):
            what = (f"all {skipped_here} case(s) were skipped" if skipped_here
                    else "the file has no cases")
            print(f"{program}: warning: {_printable(case_file.label)}: {what}; nothing was checked", file=err)
    print(f"{passed} passed, {failed} failed, {skipped} skipped", file=out)
    if junit is not None and not _write_junit(junit, suites, err, program):
        return 2
    return 1 if failed else 0
