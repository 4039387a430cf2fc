"""Case-file runner: ``python -m crtrig cases [FILE ...] [--strict]``.

Supported ops: ai.onnx.HannWindow, ai.onnx.HammingWindow,
ai.onnx.BlackmanWindow (input: the size; attributes periodic and
output_datatype) and the element-wise ai.onnx.Sin and ai.onnx.Cos (one input
of any shape, float16 / bfloat16 / float32; the output has the input's dtype
and shape).  A Sin/Cos case with float64 input is valid but reported as SKIP
(crtrig has no float64 sin/cos yet).

A case file is JSON::

    {"op": "ai.onnx.HannWindow",
     "cases": [{"name": ..., "attrs": {...}, "requires": {"features": [...]},
                "inputs":  {NAME: {"dtype": ..., "shape": [...],
                                   "data": {"kind": "values", "values": [...]}}},
                "outputs": {NAME: {"dtype": ..., "shape": [...],
                                   "tolerance": T, "relTolerance": R,
                                   "allowNaN": bool, "data": {...}}}}]}

Each case runs crtrig's implementation of the op and compares the result with
the expectation: the case's ``data`` if given, else the correctly rounded
value from :mod:`crtrig.reference`.  An element passes when
``|got - want| <= max(tolerance, relTolerance * |want|)`` in exact rational
arithmetic; NaN must appear exactly where the expectation has NaN, and only
when ``allowNaN`` is true.  With ``--strict`` every output must also equal the
correctly rounded reference bit for bit (ULP distance 0, same sign of zero).

Numbers in files are read as exact decimals (JSON numbers or strings, plus
"NaN", "inf", "-inf" and hex floats such as "0x1.8p-1"); input values are
rounded once, directly into the input dtype.  A negative zero ("-0", "-0.0"
or the JSON number -0.0; not the JSON integer -0) stays negative in float
inputs; integer dtypes read it as 0.

Ops are described by :class:`OpSpec` entries in :data:`OPS`; adding an op
means adding one entry.

Exit status: 2 if any file is malformed (nothing is run then), otherwise 1 if
any case failed, otherwise 0.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.resources
import json
import math
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from . import reference

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

#: dtype spellings accepted in case files.
DTYPES: dict[str, np.dtype] = {
    **{name: fmt.dtype for name, fmt in reference.FLOAT_FORMATS.items()},
    **reference.INTEGER_FORMATS,
}

PROGRAM = "crtrig cases"


class MalformedCaseFile(Exception):
    """A case file that cannot be run: bad JSON, missing field, bad value..."""

    def __init__(self, path: str, case: str | None, message: str):
        super().__init__(message)
        self.path = path
        self.case = case
        self.message = message

    def __str__(self) -> str:
        where = f"{self.path}: " + (f"case {self.case}: " if self.case is not None else "")
        return where + self.message


class _Invalid(Exception):
    """Raised inside validation; turned into MalformedCaseFile with context."""


# ---------------------------------------------------------------------------
# Parsed cases
# ---------------------------------------------------------------------------


@dataclass
class OutputSpec:
    """An expected output: dtype, shape, tolerances and optional exact data."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    tolerance: Fraction = Fraction(0)
    rel_tolerance: Fraction = Fraction(0)
    allow_nan: bool = False
    # Exact expected values (Fraction / int, or float nan / +-inf), flat.
    expected: list | None = None


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
class CaseResult:
    """Outcome of one case; ``line()`` is what the CLI prints."""

    label: str
    case: str
    status: str  # "PASS", "FAIL" or "SKIP"
    max_abs_error: Fraction | float | None = None
    max_ulp: int | float | None = None
    reason: str = ""

    def line(self) -> str:
        text = (
            f"{self.label}  {self.case}  {self.status}  "
            f"max_abs_err={_format_error(self.max_abs_error)}  "
            f"max_ulp={_format_ulp(self.max_ulp)}"
        )
        return text + (f"  ({self.reason})" if self.reason else "")


def _format_error(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return "0" if value == 0 else f"{float(value):.3g}"


def _format_ulp(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return "inf"
    return str(value)


# ---------------------------------------------------------------------------
# Op table
# ---------------------------------------------------------------------------


@dataclass
class OpSpec:
    """How to validate, run and check one ONNX op.

    ``implementation`` names the crtrig callable (looked up lazily, so tests
    can substitute one).  ``call(fn, case)`` runs it and returns the list of
    outputs; ``reference(case)`` returns the correctly rounded outputs;
    ``unsupported(case)``, if given, names why a valid case is skipped.
    """

    name: str
    implementation: str
    input_names: tuple[str, ...]
    input_dtypes: tuple[frozenset[str], ...]
    attribute_defaults: dict[str, Any]
    output_dtypes: frozenset[str]
    validate: Callable[[Case], None]
    call: Callable[[Callable, Case], list]
    reference: Callable[[Case], list[np.ndarray]]
    num_outputs: int = 1
    #: Reason a valid case cannot run yet (reported as SKIP), or "".
    unsupported: Callable[[Case], str] | None = None


def _window_size(case: Case) -> int:
    return int(case.inputs[0].reshape(-1)[0])


def _validate_window(case: Case) -> None:
    size_array = case.inputs[0]
    if size_array.shape not in ((), (1,)):
        raise _Invalid(
            f"input {case.input_names[0]!r} must be a scalar (shape []) or a 1-element "
            f"tensor, got shape {list(size_array.shape)}"
        )
    if _window_size(case) < 0:
        raise _Invalid(f"input {case.input_names[0]!r} must be non-negative")
    periodic = case.attrs["periodic"]
    if periodic not in (0, 1):
        raise _Invalid(f"attribute periodic must be 0 or 1, got {periodic!r}")
    datatype = case.attrs["output_datatype"]
    if datatype not in ONNX_DATATYPES:
        raise _Invalid(f"attribute output_datatype {datatype!r} is not a supported ONNX data type")
    implied = ONNX_DATATYPES[datatype]
    actual = case.outputs[0].dtype
    if implied != actual:
        raise _Invalid(
            f"attribute output_datatype={datatype} ({implied}) disagrees with "
            f"output {case.outputs[0].name!r} dtype {actual}"
        )


def _window_op(onnx_name: str, kind: str) -> OpSpec:
    def call(fn: Callable, case: Case) -> list:
        result = fn(
            case.inputs[0],
            periodic=bool(case.attrs["periodic"]),
            dtype=DTYPES[case.outputs[0].dtype],
        )
        return [result]

    def compute_reference(case: Case) -> list[np.ndarray]:
        return [
            reference.window(
                kind,
                _window_size(case),
                periodic=bool(case.attrs["periodic"]),
                dtype=DTYPES[case.outputs[0].dtype],
            )
        ]

    return OpSpec(
        name=onnx_name,
        implementation=f"{kind}_window",
        input_names=("size",),
        input_dtypes=(frozenset({"int32", "int64"}),),
        attribute_defaults={"periodic": 1, "output_datatype": 1},
        output_dtypes=frozenset(ONNX_DATATYPES.values()),
        validate=_validate_window,
        call=call,
        reference=compute_reference,
    )


#: Input (= output) dtypes of the element-wise trigonometric ops.
TRIG_DTYPES = frozenset({"float16", "bfloat16", "float32", "float64"})
#: The subset crtrig implements; cases of the others are skipped.
TRIG_SUPPORTED_DTYPES = frozenset({"float16", "bfloat16", "float32"})


def _validate_elementwise(case: Case) -> None:
    """The output has the input's dtype and shape."""
    source = case.inputs[0]
    output = case.outputs[0]
    input_dtype = reference.format_name(source.dtype)
    if output.dtype != input_dtype:
        raise _Invalid(
            f"output {output.name!r} dtype {output.dtype} differs from input "
            f"{case.input_names[0]!r} dtype {input_dtype}"
        )
    if output.shape != source.shape:
        raise _Invalid(
            f"output {output.name!r} shape {list(output.shape)} differs from input "
            f"{case.input_names[0]!r} shape {list(source.shape)}"
        )


def _trig_op(onnx_name: str, func: str) -> OpSpec:
    def call(fn: Callable, case: Case) -> list:
        # inf -> NaN raises numpy's "invalid" warning; that is expected here.
        with np.errstate(invalid="ignore"):
            return [fn(case.inputs[0])]

    def compute_reference(case: Case) -> list[np.ndarray]:
        return [reference.trig(func, case.inputs[0])]

    def unsupported(case: Case) -> str:
        if reference.format_name(case.inputs[0].dtype) not in TRIG_SUPPORTED_DTYPES:
            return "float64 sin/cos not supported yet"
        return ""

    return OpSpec(
        name=onnx_name,
        implementation=func,
        input_names=("input",),
        input_dtypes=(TRIG_DTYPES,),
        attribute_defaults={},
        output_dtypes=TRIG_DTYPES,
        validate=_validate_elementwise,
        call=call,
        reference=compute_reference,
        unsupported=unsupported,
    )


#: Supported ops by their ONNX domain-qualified name.
OPS: dict[str, OpSpec] = {
    "ai.onnx.HannWindow": _window_op("ai.onnx.HannWindow", "hann"),
    "ai.onnx.HammingWindow": _window_op("ai.onnx.HammingWindow", "hamming"),
    "ai.onnx.BlackmanWindow": _window_op("ai.onnx.BlackmanWindow", "blackman"),
    "ai.onnx.Sin": _trig_op("ai.onnx.Sin", "sin"),
    "ai.onnx.Cos": _trig_op("ai.onnx.Cos", "cos"),
}


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------

_NAN_SPELLINGS = {"nan", "+nan", "-nan"}
_INF_SPELLINGS = {"inf", "+inf", "infinity", "+infinity"}
_NEG_INF_SPELLINGS = {"-inf", "-infinity"}


def _exact_value(raw) -> Fraction | int | float:
    """Exact value of a JSON value: int/Fraction, or float nan / +-inf / -0.0.

    JSON numbers arrive as int or Decimal (the file is parsed with
    ``parse_float=Decimal``), so no binary rounding has happened yet.
    """
    if isinstance(raw, bool):
        raise _Invalid(f"value {raw!r} is not a number")
    if isinstance(raw, int):
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
            try:
                value = float.fromhex(text)
                return -0.0 if _is_negative_zero(value) else Fraction(value)
            except (ValueError, OverflowError):
                raise _Invalid(f"value {raw!r} is not a number") from None
        try:
            return _decimal_to_exact(Decimal(raw.strip()), raw)
        except InvalidOperation:
            raise _Invalid(f"value {raw!r} is not a number") from None
    raise _Invalid(f"value {raw!r} is not a number")


def _decimal_to_exact(value: Decimal, raw) -> Fraction | int | float:
    if value.is_nan():
        return math.nan
    if value.is_infinite():
        return math.inf if value > 0 else -math.inf
    if value.is_zero() and value.is_signed():
        return -0.0
    exact = Fraction(value)
    return int(exact) if exact.denominator == 1 else exact


def _is_nan(x) -> bool:
    return isinstance(x, float) and math.isnan(x)


def _is_negative_zero(x) -> bool:
    return isinstance(x, float) and x == 0.0 and math.copysign(1.0, x) < 0


def _is_inf(x) -> bool:
    return isinstance(x, float) and math.isinf(x)


def _to_dtype_array(values: list, dtype_name: str, shape: tuple[int, ...]) -> np.ndarray:
    """Exact values -> array of ``dtype_name``, each rounded once (floats).

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
            raise _Invalid(f"value {value} is out of range for {dtype_name}")
    return np.array([int(v) for v in values], dtype=dtype).reshape(shape)


def _show(value) -> str:
    if isinstance(value, Fraction):
        return str(float(value))
    return str(value)


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


def _parse_shape(spec: Mapping, what: str) -> tuple[int, ...]:
    shape = _require(spec, "shape", list, what)
    if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        raise _Invalid(f"{what}shape must be a list of non-negative integers")
    return tuple(shape)


def _parse_dtype(spec: Mapping, what: str) -> str:
    dtype = _require(spec, "dtype", str, what)
    if dtype not in DTYPES:
        raise _Invalid(f"unknown dtype {dtype!r} in {what.rstrip(': ')}")
    return dtype


def _parse_data(spec: Mapping, shape: tuple[int, ...], what: str) -> list:
    data = spec["data"]
    if not isinstance(data, Mapping):
        raise _Invalid(f"{what}data must be an object")
    kind = _require(data, "kind", str, f"{what}data: ")
    if kind != "values":
        raise _Invalid(f"unknown data kind {kind!r} in {what.rstrip(': ')}")
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


def _parse_case(raw: Any, op: OpSpec) -> Case:
    if not isinstance(raw, Mapping):
        raise _Invalid("case must be an object")
    name = raw["name"]

    attrs_raw = raw.get("attrs", {})
    if not isinstance(attrs_raw, Mapping):
        raise _Invalid("attrs must be an object")
    attrs = dict(op.attribute_defaults)
    for key, value in attrs_raw.items():
        if key not in op.attribute_defaults:
            raise _Invalid(f"unknown attribute {key!r} for {op.name}")
        if not isinstance(value, int) or isinstance(value, bool):
            raise _Invalid(f"attribute {key} must be an integer, got {value!r}")
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
    inputs, input_names = [], []
    for index, (input_name, spec) in enumerate(inputs_raw.items()):
        what = f"input {input_name!r}: "
        if not isinstance(spec, Mapping):
            raise _Invalid(f"{what}must be an object")
        dtype = _parse_dtype(spec, what)
        if dtype not in op.input_dtypes[index]:
            allowed = ", ".join(sorted(op.input_dtypes[index]))
            raise _Invalid(f"{what}dtype {dtype} is not allowed for {op.name} (allowed: {allowed})")
        shape = _parse_shape(spec, what)
        if "data" not in spec:
            raise _Invalid(f"missing field {what}'data'")
        values = _parse_data(spec, shape, what)
        inputs.append(_to_dtype_array(values, dtype, shape))
        input_names.append(input_name)

    outputs_raw = _require(raw, "outputs", Mapping, "")
    if len(outputs_raw) != op.num_outputs:
        raise _Invalid(f"{op.name} has {op.num_outputs} output(s), got {len(outputs_raw)}")
    outputs = []
    for output_name, spec in outputs_raw.items():
        what = f"output {output_name!r}: "
        if not isinstance(spec, Mapping):
            raise _Invalid(f"{what}must be an object")
        dtype = _parse_dtype(spec, what)
        if dtype not in op.output_dtypes:
            raise _Invalid(f"{what}dtype {dtype} is not allowed for {op.name}")
        shape = _parse_shape(spec, what)
        allow_nan = spec.get("allowNaN", False)
        if not isinstance(allow_nan, bool):
            raise _Invalid(f"{what}allowNaN must be true or false")
        expected = None
        if "data" in spec:
            expected = _parse_data(spec, shape, what)
            if dtype in reference.INTEGER_FORMATS:
                _to_dtype_array(expected, dtype, shape)  # integral and in range
        outputs.append(
            OutputSpec(
                name=output_name,
                dtype=dtype,
                shape=shape,
                tolerance=_parse_tolerance(spec, "tolerance", what),
                rel_tolerance=_parse_tolerance(spec, "relTolerance", what),
                allow_nan=allow_nan,
                expected=expected,
            )
        )

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
    return case


def parse_case_file(text: str, path: str, label: str | None = None) -> CaseFile:
    """Parse and validate a case file's text; raises MalformedCaseFile."""
    try:
        document = json.loads(text, parse_float=Decimal)
    except (ValueError, RecursionError) as exc:
        raise MalformedCaseFile(path, None, f"invalid JSON: {exc}") from None
    try:
        if not isinstance(document, Mapping):
            raise _Invalid("top level must be an object")
        op_name = _require(document, "op", str, "")
        if op_name not in OPS:
            raise _Invalid(f"unknown op {op_name!r} (supported: {', '.join(OPS)})")
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
            cases.append(_parse_case(raw, op))
        except _Invalid as exc:
            raise MalformedCaseFile(path, case_name, str(exc)) from None
        except Exception as exc:  # a file shape the checks above did not foresee
            raise MalformedCaseFile(
                path, case_name, f"cannot parse case ({type(exc).__name__}: {exc})"
            ) from None
    return CaseFile(path=path, label=label or os.path.basename(path), op=op, cases=cases)


def load_case_file(path: str | os.PathLike) -> CaseFile:
    """Read, parse and validate a case file from disk."""
    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise MalformedCaseFile(path, None, f"cannot read file: {exc}") from None
    return parse_case_file(text, path)


def packaged_case_files() -> list[tuple[str, str]]:
    """(name, text) of the JSON case files shipped in ``crtrig/cases``.

    An editable install or a source checkout has no ``crtrig/cases`` (the
    build copies them there); it uses the top-level ``cases/`` instead."""
    directory = importlib.resources.files("crtrig") / "cases"
    if not directory.is_dir():
        directory = importlib.resources.files("crtrig") / ".." / ".." / "cases"
        if not directory.is_dir():
            return []
    entries = sorted(
        (entry for entry in directory.iterdir() if entry.name.endswith(".json")),
        key=lambda entry: entry.name,
    )
    return [(entry.name, entry.read_text(encoding="utf-8")) for entry in entries]


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


def _exact_elements(array: np.ndarray) -> list:
    """Flat element values as Python ints (integer dtypes) or floats.

    Every float16 / bfloat16 / float32 value is exactly a float64, so these
    are the exact values; ``_compare`` only does rational arithmetic on them.
    """
    if array.dtype.kind in "iu":
        return [int(v) for v in array.reshape(-1).tolist()]
    return array.astype(np.float64).reshape(-1).tolist()


def _ulp_distances(got: np.ndarray, want: np.ndarray) -> list[int | float]:
    """Per-element ULP distance (exact ints; math.inf for NaN vs number)."""
    fmt = reference.format_name(got.dtype)
    return [reference.ulp_distance(a, b, fmt)
            for a, b in zip(_exact_elements(got), _exact_elements(want))]


def _compare(got_values: list, want_values: list, spec: OutputSpec):
    """Exact tolerance check; returns (max_abs_error, failure reason or '')."""
    max_error: Fraction | float = Fraction(0)
    failures = 0
    first_failure = ""
    for index, (got, want) in enumerate(zip(got_values, want_values)):
        problem = ""
        if got == want:  # exact comparison (float/int/Fraction); the common case
            continue
        if _is_nan(want) or _is_nan(got):
            if not (_is_nan(want) and _is_nan(got)):
                problem = f"NaN mismatch (got {_show(got)}, want {_show(want)})"
            elif not spec.allow_nan:
                problem = "NaN output but allowNaN is false"
        else:
            if _is_inf(got) or _is_inf(want):
                error = Fraction(0) if got == want else math.inf
            else:
                error = abs(Fraction(got) - Fraction(want))
            if error > max_error:
                max_error = error
            bound = spec.tolerance
            if not _is_inf(want):
                bound = max(bound, spec.rel_tolerance * abs(Fraction(want)))
            if error > bound:
                problem = f"got {_show(got)}, want {_show(want)}, |error| {_show(error)} > {_show(bound)}"
        if problem:
            failures += 1
            if not first_failure:
                first_failure = f"element {index}: {problem}"
    reason = ""
    if failures:
        reason = f"{failures} element(s) out of tolerance; first: {first_failure}"
    return max_error, reason


def _strict_problem(got: np.ndarray, want: np.ndarray, distances: list) -> str:
    """Non-empty when ``got`` is not bit-identical to the reference ``want``
    (any NaN matches any NaN)."""
    mismatches = [i for i, d in enumerate(distances) if d != 0]
    if not mismatches and got.dtype.kind not in "iu":
        got_values = got.astype(np.float64).reshape(-1).tolist()
        want_values = want.astype(np.float64).reshape(-1).tolist()
        mismatches = [
            i
            for i, (a, b) in enumerate(zip(got_values, want_values))
            if a == 0 and math.copysign(1.0, a) != math.copysign(1.0, b)
        ]
    if not mismatches:
        return ""
    first = mismatches[0]
    got_first = got.reshape(-1)[first]
    want_first = want.reshape(-1)[first]
    return (
        f"strict: {len(mismatches)} element(s) differ from the correctly rounded reference; "
        f"first: element {first}: got {got_first!r}, want {want_first!r}"
    )


def run_case(case: Case, label: str = "", strict: bool = False, impl=None) -> CaseResult:
    """Run one validated case against ``impl`` (see ``_resolve_implementation``)."""
    result = CaseResult(label=label or case.op.name, case=case.name, status="PASS")
    missing = [f for f in case.required_features if f not in SUPPORTED_FEATURES]
    if missing:
        result.status = "SKIP"
        result.reason = f"requires feature(s) {', '.join(missing)} not provided by the CPU runner"
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
        result.reason = f"implementation raised {type(exc).__name__}: {exc}"
        return result
    try:
        references = case.op.reference(case)
    except Exception as exc:  # pragma: no cover - reference bug
        result.status = "FAIL"
        result.reason = f"reference raised {type(exc).__name__}: {exc}"
        return result
    if not isinstance(outputs, (list, tuple)) or len(outputs) != len(case.outputs):
        result.status = "FAIL"
        count = len(outputs) if isinstance(outputs, (list, tuple)) else 1
        result.reason = f"implementation returned {count} output(s), want {len(case.outputs)}"
        return result

    reasons: list[str] = []
    max_error: Fraction | float | None = None
    max_ulp: int | float | None = None
    for spec, raw_output, reference_output in zip(case.outputs, outputs, references):
        got = np.asarray(raw_output)
        expected_dtype = DTYPES[spec.dtype]
        if got.dtype != expected_dtype:
            reasons.append(f"output {spec.name!r}: dtype {got.dtype}, want {spec.dtype}")
            continue
        if got.shape != spec.shape:
            reasons.append(f"output {spec.name!r}: shape {list(got.shape)}, want {list(spec.shape)}")
            continue
        got_values = _exact_elements(got)
        if spec.expected is not None:
            want_values = spec.expected
        elif reference_output.shape == spec.shape:
            want_values = _exact_elements(reference_output)
        else:
            reasons.append(
                f"output {spec.name!r}: the file's shape {list(spec.shape)} disagrees with "
                f"the op's shape {list(reference_output.shape)}"
            )
            continue
        error, reason = _compare(got_values, want_values, spec)
        max_error = error if max_error is None else max(max_error, error)
        if reason:
            reasons.append(f"output {spec.name!r}: {reason}")
        if reference_output.shape == got.shape:
            distances = _ulp_distances(got, reference_output)
            max_ulp = max([*distances, 0 if max_ulp is None else max_ulp])
            if strict:
                problem = _strict_problem(got, reference_output, distances)
                if problem:
                    reasons.append(f"output {spec.name!r}: {problem}")
        elif strict:
            reasons.append(f"output {spec.name!r}: strict: reference shape differs")

    result.max_abs_error = max_error
    result.max_ulp = max_ulp
    if reasons:
        result.status = "FAIL"
        result.reason = "; ".join(reasons)
    return result


def run_case_file(case_file: CaseFile, strict: bool = False, impl=None) -> list[CaseResult]:
    return [run_case(case, case_file.label, strict, impl) for case in case_file.cases]


def run_file(path: str | os.PathLike, strict: bool = False, impl=None) -> list[CaseResult]:
    """Load, validate and run one case file; raises MalformedCaseFile."""
    return run_case_file(load_case_file(path), strict=strict, impl=impl)


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``cases`` arguments to an (sub)parser."""
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="case files (default: the case files shipped with crtrig)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="also require every output to equal the correctly rounded reference exactly",
    )
    parser.set_defaults(func=lambda args: run_cli(args.files, strict=args.strict))


def _error(stream, message: str) -> None:
    print(f"{PROGRAM}: error: {message}", file=stream)


def run_cli(files, strict: bool = False, impl=None, out=None, err=None) -> int:
    """Validate all files, run every case, print results; return exit status."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    case_files: list[CaseFile] = []
    try:
        if files:
            for path in files:
                case_files.append(load_case_file(path))
        else:
            packaged = packaged_case_files()
            if not packaged:
                _error(err, "no case files given and none are installed in crtrig/cases")
                return 2
            for name, text in packaged:
                case_files.append(parse_case_file(text, name, label=name))
    except MalformedCaseFile as exc:
        _error(err, str(exc))
        return 2

    passed = failed = skipped = 0
    for case_file in case_files:
        for case in case_file.cases:
            try:
                result = run_case(case, case_file.label, strict, impl)
            except Exception as exc:  # never let a traceback escape the CLI
                result = CaseResult(
                    case_file.label,
                    case.name,
                    "FAIL",
                    reason=f"runner error {type(exc).__name__}: {exc}",
                )
            print(result.line(), file=out)
            if result.status == "PASS":
                passed += 1
            elif result.status == "FAIL":
                failed += 1
            else:
                skipped += 1
    print(f"{passed} passed, {failed} failed, {skipped} skipped", file=out)
    return 1 if failed else 0
