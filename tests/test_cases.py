"""Tests of the case-file runner (``python -m crtrig cases``).

Most tests inject an implementation built from crtrig.reference (or a
deliberately wrong variant of it) so they do not depend on the C core; the
few that exercise crtrig's own hann_window etc. skip when those are absent.
"""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
import types
from decimal import Decimal
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import crtrig
from crtrig import cases, reference

REPO_CASES = Path(__file__).resolve().parent.parent / "cases"
KIND_OF_OP = {
    "ai.onnx.HannWindow": "hann",
    "ai.onnx.HammingWindow": "hamming",
    "ai.onnx.BlackmanWindow": "blackman",
}
HAVE_CRTRIG_IMPL = all(
    callable(getattr(crtrig, name, None))
    for name in ("hann_window", "hamming_window", "blackman_window", "sin", "cos")
)
needs_crtrig_impl = pytest.mark.skipif(not HAVE_CRTRIG_IMPL, reason="crtrig's functions are not built")


# ---------------------------------------------------------------------------
# Implementations to inject
# ---------------------------------------------------------------------------


def make_impl(perturb=None, calls=None):
    """hann_window & co., sin and cos computed by crtrig.reference,
    optionally perturbed."""

    def factory(kind):
        def window_function(size, periodic=True, dtype=np.float32, out=None):
            if calls is not None:
                calls.append((kind, size, periodic, dtype))
            result = reference.window(kind, size, periodic, dtype)
            return perturb(result) if perturb else result

        return window_function

    def trig_factory(func):
        def trig_function(x):
            if calls is not None:
                calls.append((func, x))
            result = reference.trig(func, x)
            return perturb(result) if perturb else result

        return trig_function

    functions = {f"{kind}_window": factory(kind) for kind in reference.KINDS}
    functions.update({func: trig_factory(func) for func in reference.TRIG_FUNCTIONS})
    return types.SimpleNamespace(**functions)


def one_ulp_up(array: np.ndarray) -> np.ndarray:
    """Move every finite non-zero float element up by one ulp (ints: +1)."""
    if array.dtype.kind in "iu":
        return array + np.array(1, array.dtype)
    fmt = reference.FLOAT_FORMATS[reference.format_name(array.dtype)]
    bits = array.view(fmt.bits_dtype).copy()
    values = array.astype(np.float64)
    bump = np.isfinite(values) & (values != 0)
    bits[bump] += np.array(1, fmt.bits_dtype)
    return bits.view(array.dtype)


def negative_zeros(array: np.ndarray) -> np.ndarray:
    values = array.copy()
    values[values == 0] = -values[values == 0]
    if values.dtype == np.dtype(ml_dtypes.bfloat16):
        flat = values.view(np.uint16)
        flat[array.astype(np.float64) == 0] = 0x8000
    return values


# ---------------------------------------------------------------------------
# Case-file builders
# ---------------------------------------------------------------------------

ONNX_ENUM = {name: code for code, name in cases.ONNX_DATATYPES.items()}


def window_case(name, size, dtype="float32", periodic=True, tolerance=0, data=None, **output_extra):
    case = {"name": name}
    attrs = {}
    if not periodic:
        attrs["periodic"] = 0
    if dtype != "float32":
        attrs["output_datatype"] = ONNX_ENUM[dtype]
    if attrs:
        case["attrs"] = attrs
    case["inputs"] = {"size": {"dtype": "int32", "shape": [], "data": {"kind": "values", "values": [size]}}}
    output = {"dtype": dtype, "shape": [size], "tolerance": tolerance, **output_extra}
    if data is not None:
        output["data"] = {"kind": "values", "values": data}
    case["outputs"] = {"y": output}
    return case


def write_file(tmp_path, case_list, op="ai.onnx.HannWindow", name="cases.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"op": op, "cases": case_list}))
    return path


def statuses(results):
    return {result.case: result.status for result in results}


def run_in_process(paths, strict=False, impl=None):
    out, err = io.StringIO(), io.StringIO()
    impl = make_impl() if impl is None else impl
    status = cases.run_cli([str(p) for p in paths], strict=strict, impl=impl, out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def run_cli_subprocess(*args):
    """``python -m crtrig cases ARGS`` with this crtrig importable."""
    env = dict(os.environ)
    package_root = str(Path(crtrig.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    return subprocess.run(
        [sys.executable, "-m", "crtrig", "cases", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


# ---------------------------------------------------------------------------
# Passing and failing
# ---------------------------------------------------------------------------


def test_correct_file_passes(tmp_path):
    path = write_file(
        tmp_path,
        [
            window_case("periodic16", 16),
            window_case("symmetric7", 7, periodic=False),
            window_case("f16", 33, "float16"),
            window_case("bf16", 33, "bfloat16", periodic=False),
            window_case("f64", 12, "float64"),
            window_case("empty", 0),
            window_case("data", 4, data=[0, 0.5, 1, "0.5"]),
        ],
    )
    results = cases.run_file(path, impl=make_impl())
    assert all(r.status == "PASS" for r in results), [r.line() for r in results]
    assert all(r.max_ulp == 0 and r.max_abs_error == 0 for r in results)
    status, out, err = run_in_process([path])
    assert status == 0 and err == ""
    assert out.splitlines()[-1] == "7 passed, 0 failed, 0 skipped"
    assert "cases.json  periodic16  PASS" in out


def test_wrong_expectation_fails(tmp_path):
    path = write_file(tmp_path, [window_case("ok", 4), window_case("wrong", 4, data=[0, 0.5, 1, 0.25])])
    results = cases.run_file(path, impl=make_impl())
    assert statuses(results) == {"ok": "PASS", "wrong": "FAIL"}
    wrong = results[1]
    assert wrong.max_abs_error == 0.25
    assert "element 3" in wrong.reason
    status, out, _ = run_in_process([path])
    assert status == 1
    assert out.splitlines()[-1] == "1 passed, 1 failed, 0 skipped"


def test_tolerances_are_exact(tmp_path):
    # got 0.5 where the file wants 0.625: the error is exactly 0.125.  Each
    # "_bad" bound is below 0.125 by far less than float64 can resolve, so
    # only exact arithmetic fails them.
    def case(name, **kw):
        return window_case(name, 4, data=[0, "0.625", 1, 0.5], **kw)

    path = write_file(
        tmp_path,
        [
            case("abs_ok", tolerance=0.125),
            case("abs_bad", tolerance="0.1249999999999999999999"),
            case("rel_ok", relTolerance=0.2),  # 0.2 * 0.625 = 0.125
            case("rel_bad", relTolerance="0.1999999999999999999999"),
        ],
    )
    results = cases.run_file(path, impl=make_impl())
    assert statuses(results) == {
        "abs_ok": "PASS",
        "abs_bad": "FAIL",
        "rel_ok": "PASS",
        "rel_bad": "FAIL",
    }
    assert all(r.max_abs_error == 0.125 for r in results)


def test_strict_catches_one_ulp_error_that_the_tolerance_accepts(tmp_path):
    path = write_file(
        tmp_path,
        [
            window_case("loose_f32", 16, tolerance=0.00001),
            window_case("loose_f16", 32, "float16", tolerance=0.002),
            window_case("loose_bf16", 32, "bfloat16", tolerance=0.01),
            window_case("loose_f64", 32, "float64", tolerance=1e-12),
        ],
    )
    sloppy = make_impl(perturb=one_ulp_up)
    loose = cases.run_file(path, impl=sloppy)
    assert all(r.status == "PASS" and r.max_ulp == 1 for r in loose), [r.line() for r in loose]
    strict = cases.run_file(path, strict=True, impl=sloppy)
    assert all(r.status == "FAIL" and "strict" in r.reason for r in strict)
    assert all(r.status == "PASS" for r in cases.run_file(path, strict=True, impl=make_impl()))
    status, out, _ = run_in_process([path], strict=True, impl=sloppy)
    assert status == 1 and out.splitlines()[-1] == "0 passed, 4 failed, 0 skipped"


def test_strict_checks_the_sign_of_zero(tmp_path):
    path = write_file(
        tmp_path, [window_case("zeros", 8, "float32"), window_case("zeros_bf16", 8, "bfloat16")]
    )
    impl = make_impl(perturb=negative_zeros)
    assert all(r.status == "PASS" for r in cases.run_file(path, impl=impl))
    assert all(r.status == "FAIL" for r in cases.run_file(path, strict=True, impl=impl))


def test_one_ulp_error_fails_a_zero_tolerance_case(tmp_path):
    path = write_file(tmp_path, [window_case("exact", 257, periodic=False)])
    (result,) = cases.run_file(path, impl=make_impl(perturb=one_ulp_up))
    assert result.status == "FAIL" and result.max_ulp == 1


def test_requires_features(tmp_path):
    needs_f16 = window_case("needs_f16", 16, "float16")
    needs_f16["requires"] = {"features": ["shader-f16"]}
    needs_other = window_case("needs_timestamps", 16)
    needs_other["requires"] = {"features": ["shader-f16", "timestamp-query"]}
    gpu_gap = window_case("skip_gpu_is_ignored", 16)
    gpu_gap["skipGpu"] = {"category": "todo", "reason": "not relevant on the CPU"}
    path = write_file(tmp_path, [needs_f16, needs_other, gpu_gap])
    results = cases.run_file(path, impl=make_impl())
    assert statuses(results) == {
        "needs_f16": "PASS",
        "needs_timestamps": "SKIP",
        "skip_gpu_is_ignored": "PASS",
    }
    assert "timestamp-query" in results[1].reason and "shader-f16" not in results[1].reason
    status, out, _ = run_in_process([path])
    assert status == 0
    assert out.splitlines()[-1] == "2 passed, 0 failed, 1 skipped"
    assert "needs_timestamps  SKIP" in out


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"])
def test_integer_outputs(tmp_path, dtype):
    path = write_file(
        tmp_path,
        [
            window_case("centre_is_one", 8, dtype, data=[0, 0, 0, 0, 1, 0, 0, 0]),
            window_case("symmetric_size1_nan_casts_to_zero", 1, dtype, periodic=False, data=[0]),
            window_case("reference", 33, dtype, periodic=False),
        ],
    )
    assert all(r.status == "PASS" for r in cases.run_file(path, strict=True, impl=make_impl()))
    wrong = cases.run_file(path, impl=make_impl(perturb=one_ulp_up))
    assert all(r.status == "FAIL" and r.max_ulp == 1 for r in wrong)


def test_integer_rounding_next_to_centre(tmp_path):
    """Hamming, D = 9999 odd: float32 rounds the two middle samples to 1.0."""
    ones = [0] * 10000
    ones[4999] = ones[5000] = 1
    path = write_file(
        tmp_path,
        [window_case("near_centre", 10000, "int32", periodic=False, data=ones)],
        op="ai.onnx.HammingWindow",
    )
    (result,) = cases.run_file(path, strict=True, impl=make_impl())
    assert result.status == "PASS", result.line()

    def truncating_float64_cast(array):
        # What a runtime computing in float64 and casting would give: all 0.
        return np.zeros_like(array)

    (result,) = cases.run_file(path, impl=make_impl(perturb=truncating_float64_cast))
    assert result.status == "FAIL"


def test_integer_comparison_is_exact_without_wraparound(tmp_path):
    huge = 2**64 - 1
    path = write_file(
        tmp_path,
        [
            window_case("far", 1, "uint64", periodic=False, data=[huge]),
            window_case("far_but_tolerated", 1, "uint64", periodic=False, data=[huge], tolerance=huge),
            window_case("int64_min", 1, "int64", periodic=False, data=[-(2**63)], tolerance=2**63 - 1),
        ],
    )
    results = cases.run_file(path, impl=make_impl())
    assert statuses(results) == {"far": "FAIL", "far_but_tolerated": "PASS", "int64_min": "FAIL"}
    assert results[0].max_abs_error == huge
    assert results[2].max_abs_error == 2**63


def test_nan_handling(tmp_path):
    nan_data = window_case("nan_data", 1, periodic=False, data=["NaN"], allowNaN=True)
    nan_reference = window_case("nan_reference", 1, "float16", periodic=False, allowNaN=True)
    nan_not_allowed = window_case("nan_not_allowed", 1, periodic=False)
    nan_expected_number_given = window_case("number_not_nan", 1, periodic=False, data=[0], allowNaN=True)
    path = write_file(tmp_path, [nan_data, nan_reference, nan_not_allowed, nan_expected_number_given])
    results = cases.run_file(path, strict=True, impl=make_impl())
    assert statuses(results) == {
        "nan_data": "PASS",
        "nan_reference": "PASS",
        "nan_not_allowed": "FAIL",
        "number_not_nan": "FAIL",
    }
    assert "allowNaN" in results[2].reason

    def zero_instead_of_nan(array):
        return np.zeros_like(array)

    results = cases.run_file(path, impl=make_impl(perturb=zero_instead_of_nan))
    assert statuses(results)["nan_data"] == "FAIL"
    assert statuses(results)["nan_reference"] == "FAIL"


def test_infinity_values(tmp_path):
    path = write_file(tmp_path, [window_case("inf", 2, data=["inf", "-Infinity"], tolerance=1e30)])
    (result,) = cases.run_file(path, impl=make_impl())
    assert result.status == "FAIL" and result.max_abs_error == math.inf


def test_wrong_dtype_or_shape_fails(tmp_path):
    path = write_file(tmp_path, [window_case("f32", 8), window_case("bf16", 8, "bfloat16")])

    def as_float64(array):
        return array.astype(np.float64)

    results = cases.run_file(path, impl=make_impl(perturb=as_float64))
    assert all(r.status == "FAIL" and "dtype" in r.reason for r in results)

    def one_short(array):
        return array[:-1]

    results = cases.run_file(path, impl=make_impl(perturb=one_short))
    assert all(r.status == "FAIL" and "shape" in r.reason for r in results)

    bad_shape = write_file(tmp_path, [window_case("file_shape_wrong", 8) | {}], name="shape.json")
    document = json.loads(bad_shape.read_text())
    document["cases"][0]["outputs"]["y"]["shape"] = [9]
    bad_shape.write_text(json.dumps(document))
    (result,) = cases.run_file(bad_shape, impl=make_impl())
    assert result.status == "FAIL" and "shape" in result.reason


def test_implementation_errors_fail_without_traceback(tmp_path):
    def broken(size, periodic=True, dtype=None, out=None):
        raise RuntimeError("kaboom")

    path = write_file(tmp_path, [window_case("broken", 8)])
    status, out, err = run_in_process([path], impl={"hann_window": broken})
    assert status == 1
    assert "implementation raised RuntimeError: kaboom" in out
    assert "Traceback" not in out + err
    status, out, _ = run_in_process([path], impl={})  # no implementation at all
    assert status == 1 and "FAIL" in out


def test_implementation_receives_parsed_input_and_dtype(tmp_path):
    calls = []
    sized = window_case("int64_shape1", 5, "bfloat16", periodic=False)
    sized["inputs"]["size"] = {"dtype": "int64", "shape": [1], "data": {"kind": "values", "values": ["5"]}}
    path = write_file(tmp_path, [window_case("scalar", 6, "float16"), sized], op="ai.onnx.BlackmanWindow")
    results = cases.run_file(path, impl=make_impl(calls=calls))
    assert all(r.status == "PASS" for r in results)
    (kind0, size0, periodic0, dtype0), (kind1, size1, periodic1, dtype1) = calls
    assert kind0 == kind1 == "blackman"
    assert isinstance(size0, np.ndarray) and size0.shape == () and size0.dtype == np.int32 and int(size0) == 6
    assert isinstance(size1, np.ndarray) and size1.shape == (1,) and size1.dtype == np.int64
    assert periodic0 is True and periodic1 is False
    assert dtype0 == np.dtype(np.float16) and dtype1 == np.dtype(ml_dtypes.bfloat16)


def test_decimal_values_are_rounded_once_into_the_dtype():
    # 1 + 2**-11 is a float16 midpoint; the decimal lies just above it.  Via
    # float64 it would become the midpoint and round to even (1.0).
    text = "1.00048828125000000000000000001"
    value = cases._exact_value(Decimal(text))
    assert float(cases._to_dtype_array([value], "float16", ())) == 1 + 2**-10
    assert float(np.float16(float(text))) == 1.0  # the double rounding we avoid
    specials = [cases._exact_value(v) for v in ("NaN", "inf", "-inf", "0x1.8p-1", " 2.5 ", 3)]
    array = cases._to_dtype_array(specials, "bfloat16", (6,))
    as_float = array.astype(np.float64)
    assert math.isnan(as_float[0]) and as_float[1:].tolist() == [math.inf, -math.inf, 0.75, 2.5, 3.0]


# ---------------------------------------------------------------------------
# ai.onnx.Sin and ai.onnx.Cos
# ---------------------------------------------------------------------------


def trig_case(name, values, dtype="float32", shape=None, tolerance=0, data=None, **output_extra):
    """A Sin/Cos case: input x of ``dtype`` holding ``values`` (strings)."""
    shape = [len(values)] if shape is None else shape
    output = {"dtype": dtype, "shape": shape, "tolerance": tolerance, **output_extra}
    if data is not None:
        output["data"] = {"kind": "values", "values": data}
    return {
        "name": name,
        "inputs": {"x": {"dtype": dtype, "shape": shape, "data": {"kind": "values", "values": values}}},
        "outputs": {"y": output},
    }


def hex_values(array: np.ndarray) -> list[str]:
    """Exact hex spellings of an array's elements."""
    return [float(v).hex() for v in array.astype(np.float64).reshape(-1).tolist()]


TRIG_VALUES = ["0.5", "-1.25", "3", "355", "1e-3", "100.5", "-7.75", "2.5e4"]


@pytest.mark.parametrize("op, func", [("ai.onnx.Sin", "sin"), ("ai.onnx.Cos", "cos")])
def test_trig_correct_file_passes(tmp_path, op, func):
    f32 = reference.trig(func, np.array([float(v) for v in TRIG_VALUES], np.float32))
    path = write_file(
        tmp_path,
        [
            trig_case("f32", TRIG_VALUES),
            trig_case("f16", TRIG_VALUES[:6], "float16"),
            trig_case("bf16", TRIG_VALUES, "bfloat16"),
            trig_case("f32_2x4", TRIG_VALUES, shape=[2, 4]),
            trig_case("scalar", ["0.75"], shape=[]),
            trig_case("empty", [], "float16", shape=[0, 3]),
            trig_case("specials", ["0", "-0", "inf", "-inf", "NaN"], "bfloat16", allowNaN=True),
            trig_case("exact_data", TRIG_VALUES, data=hex_values(f32)),
        ],
        op=op,
    )
    for impl in (make_impl(), None):
        if impl is None and not HAVE_CRTRIG_IMPL:
            continue
        results = cases.run_file(path, strict=True, impl=impl)
        assert all(r.status == "PASS" and r.max_ulp == 0 for r in results), [r.line() for r in results]
    status, out, err = run_in_process([path], strict=True)
    assert status == 0 and err == "" and out.splitlines()[-1] == "8 passed, 0 failed, 0 skipped"


def test_trig_implementation_receives_the_parsed_input(tmp_path):
    calls = []
    path = write_file(tmp_path, [trig_case("bf16", ["1.5", "-0", "2"], "bfloat16", shape=[3, 1])], op="ai.onnx.Cos")
    (result,) = cases.run_file(path, impl=make_impl(calls=calls))
    assert result.status == "PASS"
    ((func, x),) = calls
    assert func == "cos" and x.dtype == np.dtype(ml_dtypes.bfloat16) and x.shape == (3, 1)
    assert np.signbit(x.astype(np.float32)).tolist() == [[False], [True], [False]]


@pytest.mark.parametrize("op", ["ai.onnx.Sin", "ai.onnx.Cos"])
def test_trig_one_ulp_off_expectation_fails(tmp_path, op):
    func = op.rsplit(".", 1)[1].lower()
    correct = reference.trig(func, np.array([float(v) for v in TRIG_VALUES], np.float32))
    path = write_file(
        tmp_path,
        [
            trig_case("right", TRIG_VALUES, data=hex_values(correct)),
            trig_case("one_ulp_off", TRIG_VALUES, data=hex_values(one_ulp_up(correct))),
        ],
        op=op,
    )
    impl = make_impl() if not HAVE_CRTRIG_IMPL else None
    results = cases.run_file(path, impl=impl)
    assert statuses(results) == {"right": "PASS", "one_ulp_off": "FAIL"}
    assert "out of tolerance" in results[1].reason
    # A 1-ULP-off implementation fails a tolerance-0 case without data too.
    no_data = write_file(tmp_path, [trig_case("reference", TRIG_VALUES)], op=op, name="no_data.json")
    (result,) = cases.run_file(no_data, impl=make_impl(perturb=one_ulp_up))
    assert result.status == "FAIL" and result.max_ulp == 1


def test_trig_strict_catches_what_the_tolerance_accepts(tmp_path):
    path = write_file(
        tmp_path,
        [
            trig_case("loose_f32", TRIG_VALUES, tolerance="1e-6"),
            trig_case("loose_f16", TRIG_VALUES[:6], "float16", tolerance="0.01"),
            trig_case("loose_bf16", TRIG_VALUES, "bfloat16", relTolerance="0.02"),
        ],
        op="ai.onnx.Sin",
    )
    sloppy = make_impl(perturb=one_ulp_up)
    assert all(r.status == "PASS" and r.max_ulp == 1 for r in cases.run_file(path, impl=sloppy))
    strict = cases.run_file(path, strict=True, impl=sloppy)
    assert all(r.status == "FAIL" and "strict" in r.reason for r in strict)
    status, out, _ = run_in_process([path], strict=True, impl=sloppy)
    assert status == 1 and out.splitlines()[-1] == "0 passed, 3 failed, 0 skipped"


def test_trig_negative_zero_input_and_sign_of_the_result(tmp_path):
    path = write_file(tmp_path, [trig_case("zeros", ["-0", "0", "-0.0", "-0x0p+0"], "float16")], op="ai.onnx.Sin")
    (result,) = cases.run_file(path, strict=True, impl=make_impl())
    assert result.status == "PASS"
    inputs = cases.load_case_file(path).cases[0].inputs[0]
    assert np.signbit(inputs).tolist() == [True, False, True, True]
    (result,) = cases.run_file(path, strict=True, impl=make_impl(perturb=np.abs))
    assert result.status == "FAIL" and "strict" in result.reason


def test_trig_nan_needs_allow_nan(tmp_path):
    path = write_file(
        tmp_path,
        [trig_case("inf_allowed", ["inf", "1"], allowNaN=True), trig_case("inf_not_allowed", ["inf", "1"])],
        op="ai.onnx.Cos",
    )
    results = cases.run_file(path, strict=True, impl=make_impl())
    assert statuses(results) == {"inf_allowed": "PASS", "inf_not_allowed": "FAIL"}
    assert "allowNaN" in results[1].reason


def test_trig_float64_is_skipped_not_malformed(tmp_path):
    calls = []
    path = write_file(
        tmp_path,
        [trig_case("f64", TRIG_VALUES, "float64"), trig_case("f32", TRIG_VALUES)],
        op="ai.onnx.Sin",
    )
    results = cases.run_file(path, strict=True, impl=make_impl(calls=calls))
    assert statuses(results) == {"f64": "SKIP", "f32": "PASS"}
    assert results[0].reason == "float64 sin/cos not supported yet"
    assert len(calls) == 1 and calls[0][1].dtype == np.float32  # float64 never ran
    status, out, err = run_in_process([path], strict=True)
    assert status == 0 and err == ""
    assert "f64  SKIP" in out and "float64 sin/cos not supported yet" in out
    assert out.splitlines()[-1] == "1 passed, 0 failed, 1 skipped"


TRIG_MALFORMED = {
    "output_dtype_differs": (lambda c: c["outputs"]["y"].update(dtype="float16"), "differs from input"),
    "output_shape_differs": (lambda c: c["outputs"]["y"].update(shape=[2, 4]), "differs from input"),
    "integer_input": (
        lambda c: c["inputs"]["x"].update(dtype="int32") or c["outputs"]["y"].update(dtype="int32"),
        "not allowed",
    ),
    "two_inputs": (lambda c: c["inputs"].update(z=c["inputs"]["x"]), "takes 1 input"),
    "attribute": (lambda c: c.update(attrs={"periodic": 1}), "unknown attribute"),
    "two_outputs": (lambda c: c["outputs"].update(z=c["outputs"]["y"]), "1 output"),
}


@pytest.mark.parametrize("kind", sorted(TRIG_MALFORMED))
def test_trig_malformed_cases_exit_2(tmp_path, kind):
    mutate, fragment = TRIG_MALFORMED[kind]
    target = trig_case("target", TRIG_VALUES)
    mutate(target)
    path = write_file(tmp_path, [trig_case("fine", TRIG_VALUES), target], op="ai.onnx.Sin")
    status, out, err = run_in_process([path])
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and ": case target: " in err and fragment in err, err


# ---------------------------------------------------------------------------
# Malformed files: exit status 2, one line on stderr, no traceback
# ---------------------------------------------------------------------------


def _mutated(mutate):
    def build():
        document = {"op": "ai.onnx.HannWindow", "cases": [window_case("good", 4), window_case("target", 8)]}
        mutate(document, document["cases"][1])
        return json.dumps(document)

    return build


def _set(path_keys, value):
    def mutate(document, case):
        node = case
        for key in path_keys[:-1]:
            node = node[key]
        node[path_keys[-1]] = value

    return mutate


def _delete(path_keys):
    def mutate(document, case):
        node = case
        for key in path_keys[:-1]:
            node = node[key]
        del node[path_keys[-1]]

    return mutate


SIZE = ("inputs", "size")
Y = ("outputs", "y")

MALFORMED = {
    # name: (builder returning the file text, case name expected in the message or None, message fragment)
    "bad_json": (lambda: '{"op": "ai.onnx.HannWindow", "cases": [', None, "invalid JSON"),
    "not_an_object": (lambda: "[1, 2]", None, "top level"),
    "missing_op": (lambda: json.dumps({"cases": []}), None, "'op'"),
    "unknown_op": (lambda: json.dumps({"op": "ai.onnx.KaiserWindow", "cases": []}), None, "unknown op"),
    "cases_not_list": (lambda: json.dumps({"op": "ai.onnx.HannWindow", "cases": {}}), None, "'cases'"),
    "missing_name": (_mutated(_delete(("name",))), "#1", "'name'"),
    "duplicate_name": (_mutated(_set(("name",), "good")), "good", "duplicate"),
    "missing_inputs": (_mutated(_delete(("inputs",))), "target", "'inputs'"),
    "missing_outputs": (_mutated(_delete(("outputs",))), "target", "'outputs'"),
    "missing_input_dtype": (_mutated(_delete(SIZE + ("dtype",))), "target", "'dtype'"),
    "missing_output_shape": (_mutated(_delete(Y + ("shape",))), "target", "'shape'"),
    "missing_input_data": (_mutated(_delete(SIZE + ("data",))), "target", "'data'"),
    "unknown_output_dtype": (_mutated(_set(Y + ("dtype",), "float8e4m3")), "target", "unknown dtype"),
    "unknown_data_kind": (_mutated(_set(SIZE + ("data", "kind"), "random")), "target", "unknown data kind"),
    "input_count_mismatch": (_mutated(_set(SIZE + ("data", "values"), [8, 9])), "target", "shape"),
    "output_count_mismatch": (
        _mutated(_set(Y + ("data",), {"kind": "values", "values": [0, 1]})),
        "target",
        "values",
    ),
    "output_datatype_disagrees": (
        _mutated(_set(("attrs",), {"output_datatype": 10})),
        "target",
        "output_datatype",
    ),
    "output_datatype_unknown": (
        _mutated(_set(("attrs",), {"output_datatype": 99})),
        "target",
        "output_datatype",
    ),
    "periodic_not_boolean": (_mutated(_set(("attrs",), {"periodic": 2})), "target", "periodic"),
    "unknown_attribute": (_mutated(_set(("attrs",), {"alpha": 1})), "target", "unknown attribute"),
    "non_integer_size": (_mutated(_set(SIZE + ("data", "values"), [8.5])), "target", "not an integer"),
    "size_out_of_range": (_mutated(_set(SIZE + ("data", "values"), [2**31])), "target", "out of range"),
    "size_not_a_number": (_mutated(_set(SIZE + ("data", "values"), ["eight"])), "target", "not a number"),
    "float_size_dtype": (_mutated(_set(SIZE + ("dtype",), "float32")), "target", "not allowed"),
    "size_vector": (
        _mutated(_set(SIZE, {"dtype": "int32", "shape": [2], "data": {"kind": "values", "values": [8, 8]}})),
        "target",
        "scalar",
    ),
    "negative_size": (_mutated(_set(SIZE + ("data", "values"), [-3])), "target", "non-negative"),
    "negative_tolerance": (_mutated(_set(Y + ("tolerance",), -1)), "target", "tolerance"),
    "integer_output_fraction": (
        _mutated(lambda document, case: case.update(window_case("target", 2, "int32", data=[0, 0.5]))),
        "target",
        "not an integer",
    ),
    "allow_nan_not_boolean": (_mutated(_set(Y + ("allowNaN",), "yes")), "target", "allowNaN"),
    "features_not_list": (_mutated(_set(("requires",), {"features": "shader-f16"})), "target", "features"),
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_malformed_file_exits_2_with_one_line(tmp_path, kind):
    build, case_name, fragment = MALFORMED[kind]
    good = write_file(tmp_path, [window_case("fine", 4)], name="good.json")
    bad = tmp_path / f"{kind}.json"
    bad.write_text(build())
    completed = run_cli_subprocess(good, bad)
    assert completed.returncode == 2, completed
    assert completed.stdout == ""  # nothing runs when a file is malformed
    lines = completed.stderr.splitlines()
    assert len(lines) == 1, completed.stderr
    (line,) = lines
    assert "Traceback" not in completed.stderr
    assert line.startswith(f"crtrig cases: error: {bad}: ")
    if case_name is not None:
        assert f": case {case_name}: " in line
    assert fragment in line


def test_missing_file_exits_2(tmp_path):
    missing = tmp_path / "nope.json"
    status, out, err = run_in_process([missing])
    assert status == 2 and out == ""
    assert err.startswith(f"crtrig cases: error: {missing}: cannot read") and len(err.splitlines()) == 1


def test_run_file_raises_for_malformed(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(MALFORMED["output_datatype_disagrees"][0]())
    with pytest.raises(cases.MalformedCaseFile) as info:
        cases.run_file(bad, impl=make_impl())
    assert info.value.case == "target" and info.value.path == str(bad)


# ---------------------------------------------------------------------------
# The shipped case files
# ---------------------------------------------------------------------------


def test_repository_case_files_pass_strictly_with_the_reference():
    files = sorted(REPO_CASES.glob("*.json"))
    assert {f.name for f in files} >= {"hannwindow.json", "hammingwindow.json", "blackmanwindow.json"}
    for path in files:
        results = cases.run_file(path, strict=True, impl=make_impl())
        assert results, path
        for result in results:
            assert result.status in ("PASS", "SKIP"), result.line()
            if result.status == "PASS":
                assert result.max_ulp == 0, result.line()


def test_repository_case_files_cover_every_dtype():
    for name in ("hammingwindow.json", "blackmanwindow.json"):
        document = json.loads((REPO_CASES / name).read_text())
        dtypes = {case["outputs"]["y"]["dtype"] for case in document["cases"]}
        assert dtypes == set(cases.DTYPES), name
        sizes = {case["inputs"]["size"]["data"]["values"][0] for case in document["cases"]}
        assert {0, 1, 2, 10, 16, 257, 4097, 10001} <= sizes


def test_repository_case_files_catch_a_one_ulp_error():
    path = REPO_CASES / "hammingwindow.json"
    results = cases.run_file(path, impl=make_impl(perturb=one_ulp_up))
    failed = {r.case for r in results if r.status == "FAIL"}
    assert "periodic_f32_size4097" in failed and "periodic_bf16_size4097" in failed


@pytest.mark.parametrize("name", ["sin.json", "cos.json"])
def test_repository_trig_case_files(name):
    document = json.loads((REPO_CASES / name).read_text())
    dtypes = {case["inputs"]["x"]["dtype"] for case in document["cases"]}
    assert dtypes == {"float16", "bfloat16", "float32"}  # float64 cases would be skipped
    results = cases.run_file(REPO_CASES / name, impl=make_impl(perturb=one_ulp_up))
    # Every non-empty case catches a 1-ULP error, even the seed cases whose
    # printed expectations need a tolerance.
    empty = {case["name"] for case in document["cases"] if 0 in case["inputs"]["x"]["shape"]}
    assert {r.case for r in results if r.status == "PASS"} == empty


@needs_crtrig_impl
def test_cli_with_crtrig_on_repository_files():
    completed = run_cli_subprocess(*sorted(REPO_CASES.glob("*.json")), "--strict")
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr
    assert completed.stdout.splitlines()[-1].endswith(" 0 failed, 0 skipped")
    assert "Traceback" not in completed.stderr


@needs_crtrig_impl
def test_cli_wrong_expectation_exit_1(tmp_path):
    path = write_file(tmp_path, [window_case("ok", 8), window_case("wrong", 4, data=[0, 0.5, 1, 0.5001])])
    completed = run_cli_subprocess(path)
    assert completed.returncode == 1
    assert completed.stdout.splitlines()[-1] == "1 passed, 1 failed, 0 skipped"
    assert "wrong  FAIL" in completed.stdout


@needs_crtrig_impl
def test_cli_default_runs_the_packaged_case_files():
    if not cases.packaged_case_files():
        pytest.skip("crtrig/cases is not installed in this build")
    completed = run_cli_subprocess("--strict")
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr
    assert completed.stdout.splitlines()[-1].endswith(" 0 failed, 0 skipped")
