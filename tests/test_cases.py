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
import re
import subprocess
import sys
import types
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import crtrig
from crtrig import cases, reference
from crtrig.__main__ import main as cli_main

import oracle
from sanitizer_marks import address_space_limit, no_address_space_limit_under_asan

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
#: How messages name the command when it runs as ``python -m crtrig cases``.
MODULE_PROGRAM = f"{os.path.basename(sys.executable)} -m crtrig cases"


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
    assert all(r.vs_exact.max_ulp == 0 for r in results)
    assert [r.vs_data for r in results if r.vs_data is not None] == [cases.Distances(0, 0)]
    assert all(r.checked == r.total for r in results)
    status, out, err = run_in_process([path])
    assert status == 0 and err == ""
    assert out.splitlines()[-1] == "7 passed, 0 failed, 0 skipped"
    assert "cases.json  periodic16  PASS" in out


def test_wrong_expectation_fails(tmp_path):
    path = write_file(tmp_path, [window_case("ok", 4), window_case("wrong", 4, data=[0, 0.5, 1, 0.25])])
    results = cases.run_file(path, impl=make_impl())
    assert statuses(results) == {"ok": "PASS", "wrong": "FAIL"}
    wrong = results[1]
    assert wrong.vs_data.max_abs == 0.25 and wrong.vs_exact.max_ulp == 0
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
    assert all(r.vs_data.max_abs == 0.125 for r in results)


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
    assert all(r.status == "PASS" and r.vs_exact.max_ulp == 1 for r in loose), [r.line() for r in loose]
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
    assert result.status == "FAIL" and result.vs_exact.max_ulp == 1


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
    assert all(r.status == "FAIL" and r.vs_exact.max_ulp == 1 for r in wrong)


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
    assert results[0].vs_data.max_abs == huge
    assert results[2].vs_data.max_abs == 2**63


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
    assert result.status == "FAIL" and result.vs_data.max_abs == math.inf


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



def test_window_output_shape_must_match_the_size_before_anything_runs(tmp_path):
    """A declared output shape other than [size] is malformed (it was a FAIL
    found after computing), and nothing is called."""
    calls = []
    for shape in ([9], [8, 1], [], [2**40]):
        case = window_case("file_shape_wrong", 8)
        case["outputs"]["y"]["shape"] = shape
        bad_shape = write_file(tmp_path, [case], name="shape.json")
        with pytest.raises(cases.MalformedCaseFile, match="shape"):
            cases.run_file(bad_shape, impl=make_impl(calls=calls))
    assert calls == []


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


def test_exponents_with_leading_zeros_are_read_exactly():
    """A hex float's binary exponent was refused as out of range when it had more than six
    characters, leading zeros included; only its value counts (decimals already did so)."""
    assert cases._exact_value("0x1p+0000001") == 2
    assert cases._exact_value("-0x1.8P0000000000003") == -12
    assert cases._exact_value("0x1p-" + "0" * 100_000 + "1") == Fraction(1, 2)
    assert cases._exact_value("1e-" + "0" * 100_000 + "1") == Fraction(1, 10)
    with pytest.raises(cases._Invalid, match="binary exponent"):
        cases._exact_value("0x1p+0003401")


def test_decimal_values_are_rounded_once_into_the_dtype():
    # 1 + 2**-11 is a float16 midpoint; the decimal lies just above it.  Via
    # float64 it would become the midpoint and round to even (1.0).
    text = "1.00048828125000000000000000001"
    value = cases._exact_value(Decimal(text))
    assert float(cases._to_dtype_array([value], "float16", ())) == 1 + 2**-10
    assert oracle.round_through(Decimal(text), "float64", "float16") == 1.0  # the double rounding we avoid
    specials = [cases._exact_value(v) for v in ("NaN", "inf", "-inf", "0x1.8p-1", " 2.5 ", 3)]
    array = cases._to_dtype_array(specials, "bfloat16", (6,))
    as_float = array.astype(np.float64)
    assert math.isnan(as_float[0]) and as_float[1:].tolist() == [math.inf, -math.inf, 0.75, 2.5, 3.0]


# ---------------------------------------------------------------------------
# Expected data read as written: rounded once into the output dtype
# ---------------------------------------------------------------------------


def shortest_decimals(array: np.ndarray) -> list:
    """The shortest round-trip decimal of each element (repr() for float64;
    numpy's shortest spelling for float32 and float16): what a user prints."""
    if array.dtype == np.float64:
        return [float(v) for v in array.tolist()]  # json.dumps writes repr()
    return [str(v) for v in array.reshape(-1)]


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16"])
def test_repr_decimal_data_passes_at_tolerance_zero(tmp_path, dtype):
    """The correctly rounded Hann window written as shortest decimals (repr()
    for float64) is the correctly rounded window: it passes at tolerance 0.
    Compared as exact rationals it failed ("max_ulp=0" yet FAIL)."""
    expected = reference.window("hann", 64, True, dtype)
    decimals = shortest_decimals(expected)
    assert any(Fraction(str(d)) != Fraction(float(v)) for d, v in zip(decimals, expected.tolist()))
    path = write_file(tmp_path, [window_case("repr", 64, dtype, data=decimals)])
    for impl in (make_impl(), None):  # the reference, then crtrig itself
        (result,) = cases.run_file(path, strict=True, impl=impl)
        assert result.status == "PASS", result.line()
        assert result.vs_data == cases.Distances(0, 0) and result.vs_exact.max_ulp == 0
        assert "  vs_data: max_ulp=0 max_abs=0  vs_exact: max_ulp=0" in result.line()
    status, out, err = run_in_process([path], strict=True, impl=None)
    assert status == 0 and err == "", out


def test_data_one_ulp_off_after_rounding_fails_with_its_distances(tmp_path):
    expected = reference.window("hann", 64, True, "float64")
    decimals = shortest_decimals(expected)
    decimals[5] = float(np.nextafter(expected[5], 1.0))  # the float64 next to the right value
    path = write_file(tmp_path, [window_case("off", 64, "float64", data=decimals)])
    (result,) = cases.run_file(path, impl=make_impl())
    assert result.status == "FAIL" and "element 5" in result.reason and "against the data" in result.reason
    assert result.vs_data.max_ulp == 1 and result.vs_exact.max_ulp == 0
    assert result.vs_data.max_abs == Fraction(float(np.nextafter(expected[5], 1.0))) - Fraction(float(expected[5]))


def test_data_is_rounded_exactly_not_through_float32():
    """bfloat16: 1 + 2^-8 + 2^-30 lies just above the midpoint of 1 and
    1 + 2^-7, so it rounds to 1 + 2^-7.  A cast through float32 (as ml_dtypes
    before 0.7 did) rounds to the midpoint 1 + 2^-8, then to even: 1.0."""
    value = 1 + Fraction(1, 2**8) + Fraction(1, 2**30)
    text = str(Decimal(float(value)))  # exact: the value fits in a float64
    assert Fraction(Decimal(text)) == value  # the decimal is exact
    rounded = cases._to_dtype_array([cases._exact_value(text)], "bfloat16", ())
    assert float(rounded) == 1 + 2**-7
    assert oracle.round_through(value, "float32", "bfloat16") == 1.0  # the double rounding


@pytest.mark.parametrize("right, status", [(1 + 2**-7, "PASS"), (1.0, "FAIL")])
def test_expected_value_is_rounded_into_the_output_dtype(tmp_path, right, status):
    """End to end: an implementation giving the bfloat16 nearest to the data
    passes at tolerance 0; one giving the double-rounded value fails."""
    value = 1 + Fraction(1, 2**8) + Fraction(1, 2**30)
    text = str(Decimal(float(value)))  # exact: the value fits in a float64
    path = write_file(tmp_path, [window_case("one", 1, "bfloat16", periodic=False, data=[text])])

    def fixed(size, periodic=True, dtype=None, out=None):
        return np.array([right], dtype=ml_dtypes.bfloat16)

    (result,) = cases.run_file(path, impl={"hann_window": fixed})
    assert result.status == status, result.line()


def test_sign_of_zero_in_the_data_matters_only_under_strict(tmp_path):
    path = write_file(tmp_path, [window_case("zeros", 4, "float32", data=["-0.0", 0.5, 1, 0.5])])
    (result,) = cases.run_file(path, impl=make_impl())
    assert result.status == "PASS" and result.vs_data == cases.Distances(0, 0)
    (result,) = cases.run_file(path, strict=True, impl=make_impl())
    assert result.status == "FAIL" and "sign of zero" in result.reason and "element 0" in result.reason


def test_result_line_names_both_distances(tmp_path):
    path = write_file(tmp_path, [window_case("no_data", 8), window_case("data", 4, data=[0, 0.5, 1, 0.5])])
    status, out, _ = run_in_process([path])
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "cases.json  no_data  PASS  checked 8 of 8  vs_data: -  vs_exact: max_ulp=0"
    assert lines[1] == "cases.json  data  PASS  checked 4 of 4  vs_data: max_ulp=0 max_abs=0  vs_exact: max_ulp=0"


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
        assert all(r.status == "PASS" and r.vs_exact.max_ulp == 0 for r in results), [r.line() for r in results]
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
    assert result.status == "FAIL" and result.vs_exact.max_ulp == 1


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
    assert all(r.status == "PASS" and r.vs_exact.max_ulp == 1 for r in cases.run_file(path, impl=sloppy))
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


def test_trig_float64_cases_run(tmp_path):
    """float64 Sin/Cos cases run like the others (they were skipped before crtrig
    had float64 loops): exact data passes, data one ulp off fails."""
    calls = []
    exact = [repr(reference.bits_to_float(reference.trig_bits("sin", float(v), "float64"), "float64"))
             for v in TRIG_VALUES]
    off = exact[:3] + [repr(math.nextafter(float(exact[3]), math.inf))] + exact[4:]
    path = write_file(
        tmp_path,
        [trig_case("f64", TRIG_VALUES, "float64"), trig_case("f64_data", TRIG_VALUES, "float64", data=exact),
         trig_case("f64_off", TRIG_VALUES, "float64", data=off), trig_case("f32", TRIG_VALUES)],
        op="ai.onnx.Sin",
    )
    results = cases.run_file(path, strict=True, impl=make_impl(calls=calls))
    assert statuses(results) == {"f64": "PASS", "f64_data": "PASS", "f64_off": "FAIL", "f32": "PASS"}
    assert [x.dtype for _, x in calls] == [np.float64] * 3 + [np.float32]
    status, out, err = run_in_process([path], strict=True)  # crtrig itself
    assert status == 1 and err == ""
    assert "f64  PASS" in out and "f64_off  FAIL" in out
    assert out.splitlines()[-1] == "3 passed, 1 failed, 0 skipped"


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
    assert line.startswith(f"{MODULE_PROGRAM}: error: {bad}: ")
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
# Bounded work: outputs beyond the check limit are sampled
# ---------------------------------------------------------------------------


def test_checked_indices_are_a_deterministic_bounded_sample():
    assert cases.checked_indices(10, 16).tolist() == list(range(10))
    assert cases.checked_indices(10, None).tolist() == list(range(10))
    total = 2**53
    sample = cases.checked_indices(total, 1000, [0, 7, total - 1, total])
    assert sample.tolist() == sorted(set(sample.tolist()))
    assert 1000 <= len(sample) <= 1003 and sample[0] == 0 and sample[-1] == total - 1 and 7 in sample
    assert np.array_equal(sample, cases.checked_indices(total, 1000, [0, 7, total - 1]))
    # one element per stratum: spread over the whole range
    assert np.all(np.diff(sample[1:-1] // (total // 1000)) <= 2)


def test_window_exact_points():
    document = {"op": "ai.onnx.HannWindow", "cases": [window_case("w", 1200, periodic=False)]}
    (case,) = cases.parse_case_file(json.dumps(document), "x.json").cases
    points = cases.OPS["ai.onnx.HannWindow"].exact_points(case, 0)
    # D = 1199 = 11 * 109 is divisible by none of 2, 3, 4, 6: only n = 0 and n = D are exact
    assert points == [0, 1, 1198, 1199]
    document = {"op": "ai.onnx.HannWindow", "cases": [window_case("w", 1200)]}
    (case,) = cases.parse_case_file(json.dumps(document), "x.json").cases
    points = cases.OPS["ai.onnx.HannWindow"].exact_points(case, 0)
    for n in (0, 200, 300, 400, 600, 800, 900, 1000, 1199, 599, 601):
        assert n in points
    assert all(reference.window_bits("hann", n, 1200, "float64") in
               {reference.float_to_bits(v, "float64") for v in (0.0, 0.25, 0.5, 0.75, 1.0)}
               for n in (0, 200, 300, 400, 600, 800, 900, 1000))


def perturbed_crtrig_window(perturb):
    def window_function(size, periodic=True, dtype=np.float32, out=None):
        return perturb(crtrig.hann_window(size, periodic=periodic, dtype=dtype))

    return {"hann_window": window_function}


def test_sampled_output_is_checked_on_a_sample_and_the_exact_points(tmp_path):
    size = 5000
    path = write_file(tmp_path, [window_case("big", size, "float64")])
    (result,) = cases.run_file(path, strict=True, impl=None, check_limit=256)
    assert result.status == "PASS" and 256 < result.checked < 300 and result.total == size
    assert f"checked {result.checked} of {size}" in result.line()
    (result,) = cases.run_file(path, strict=True, impl=None, check_limit=None)
    assert result.status == "PASS" and result.checked == size

    def wrong_centre(array):  # n = D/2, an exact point (value 1)
        array = array.copy()
        array[size // 2] = np.nextafter(array[size // 2], 0)
        return array

    (result,) = cases.run_file(path, impl=perturbed_crtrig_window(wrong_centre), check_limit=256)
    assert result.status == "FAIL" and f"element {size // 2}" in result.reason

    sampled = set(cases.checked_indices(size, 256, cases._window_exact_points(
        cases.load_case_file(path).cases[0], 0)).tolist())
    unsampled = next(n for n in range(size // 3, size) if n not in sampled)

    def nan_somewhere(array):  # non-finite outputs are always looked at
        array = array.copy()
        array[unsampled] = np.nan
        return array

    (result,) = cases.run_file(path, impl=perturbed_crtrig_window(nan_somewhere), check_limit=256)
    assert result.status == "FAIL" and f"element {unsampled}" in result.reason, result.line()


def test_cli_all_checks_every_element(tmp_path):
    path = write_file(tmp_path, [window_case("w", 300, "float16")])
    status, out, _ = run_in_process([path], impl=None)  # default limit: all 300
    assert status == 0 and "checked 300 of 300" in out
    completed = run_cli_subprocess(path, "--check-limit", "100")
    match = re.search(r"checked (\d+) of 300", completed.stdout)
    assert completed.returncode == 0 and match and 100 < int(match.group(1)) < 130, completed
    completed = run_cli_subprocess(path, "--check-limit", "100", "--all")
    assert completed.returncode == 2 and "not allowed with" in completed.stderr
    completed = run_cli_subprocess(path, "--all")
    assert completed.returncode == 0 and "checked 300 of 300" in completed.stdout, completed


# ---------------------------------------------------------------------------
# Hostile files: one line, exit status 2, bounded time and memory
# ---------------------------------------------------------------------------

#: Generous: these take well under a second; without the bounds they hang.
HOSTILE_TIMEOUT = 60


def run_cases_bounded(*args, timeout=HOSTILE_TIMEOUT, report_memory=False):
    """``python -m crtrig cases ARGS`` in a child limited to 2 GiB of address
    space (Linux; not under tools/check_sanitizers.sh, see sanitizer_marks.py),
    so that an unbounded read fails instead of eating memory.
    With report_memory the child prints its peak RSS in bytes on stderr's
    last line (where the resource module exists)."""
    env = dict(os.environ)
    package_root = str(Path(crtrig.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    code = (
        "import sys\n"
        "from crtrig.__main__ import main\n"
        "status = main(['cases'] + sys.argv[1:])\n"
        "sys.stdout.flush()\n"
    )
    if report_memory:
        code += (
            "import resource\n"
            "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "print('peak', peak * (1 if sys.platform == 'darwin' else 1024), file=sys.stderr)\n"
        )
    code += "sys.exit(status)\n"
    return subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        preexec_fn=address_space_limit(2 << 30),
    )


def assert_one_line_exit_2(completed, path, fragment, max_length=300):
    assert completed.returncode == 2, (completed.returncode, completed.stdout[-500:], completed.stderr[-500:])
    assert completed.stdout == ""
    lines = completed.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in completed.stderr, completed.stderr[-2000:]
    assert lines[0].startswith(f"crtrig cases: error: {path}: "), lines[0][:500]
    assert fragment in lines[0], lines[0][:500]
    assert len(lines[0]) <= max_length + len(str(path)), len(lines[0])


@no_address_space_limit_under_asan
def test_huge_window_without_data_is_sampled_in_bounded_memory(tmp_path):
    """The 230-byte file of a size-2^22 window without data: the pure-Python
    reference of every element took 74 s and 855 MiB; now a sample."""
    size = 2**22
    path = write_file(tmp_path, [window_case("huge", size, "float64")])
    assert len(path.read_bytes()) < 300
    completed = run_cases_bounded(path, "--strict", timeout=HOSTILE_TIMEOUT * 2, report_memory=True)
    assert completed.returncode == 0, completed.stdout[-2000:] + completed.stderr[-2000:]
    match = re.search(rf"huge  PASS  checked (\d+) of {size}  vs_data: -  vs_exact: max_ulp=0$",
                      completed.stdout, re.M)
    assert match and cases.DEFAULT_CHECK_LIMIT <= int(match.group(1)) < 2 * cases.DEFAULT_CHECK_LIMIT
    peak = re.search(r"^peak (\d+)$", completed.stderr, re.M)
    if peak:  # the output itself is 32 MiB
        assert int(peak.group(1)) < 400 << 20, completed.stderr


def _window_text(size=8, shape=None, size_dtype="int32", **output):
    """A HannWindow file with one case, as JSON text with numbers spliced in
    verbatim (json.dumps cannot write 1e999999999)."""
    shape = [size] if shape is None else shape
    fields = "".join(f', "{key}": {value}' for key, value in output.items())
    return (
        '{"op": "ai.onnx.HannWindow", "cases": [{"name": "target", '
        f'"inputs": {{"size": {{"dtype": "{size_dtype}", "shape": [], '
        f'"data": {{"kind": "values", "values": [{size}]}}}}}}, '
        f'"outputs": {{"y": {{"dtype": "float32", "shape": {json.dumps(shape)}{fields}}}}}}}]}}'
    )


def _sin_text(value):
    return (
        '{"op": "ai.onnx.Sin", "cases": [{"name": "target", '
        f'"inputs": {{"x": {{"dtype": "float32", "shape": [1], "data": {{"kind": "values", "values": [{value}]}}}}}}, '
        '"outputs": {"y": {"dtype": "float32", "shape": [1]}}}]}'
    )


HOSTILE = {
    # name: (file text, extra arguments, message fragment)
    "tolerance_1e999999999": (_window_text(tolerance="1e999999999"), [], "exponent"),
    "tolerance_1e-999999999": (_window_text(tolerance="1e-999999999"), [], "exponent"),
    "rel_tolerance_string_exponent": (_window_text(relTolerance='"1e999999999"'), [], "exponent"),
    "input_1e999999999": (_sin_text("1e999999999"), [], "exponent"),
    "input_string_1e-999999999": (_sin_text('"-1e-999999999"'), [], "exponent"),
    "expected_1e-999999999": (
        _window_text(size=1, data='{"kind": "values", "values": [1e-999999999]}'), [], "exponent"
    ),
    "hex_exponent": (_sin_text('"0x1p-99999999999"'), [], "exponent"),
    "exponent_beyond_decimal_range": (_sin_text("1e9999999999999999999"), [], "out of range"),
    "many_digits": (_sin_text("0." + "1" * 100_000), [], "digits"),
    "long_integer": (_sin_text("1" * 5000), [], "digits"),
    "size_above_2^53": (_window_text(size=2**53 + 1, shape=[3], size_dtype="int64"), [], "2^53"),
    "size_above_2^53_max_elements_raised": (
        _window_text(size=2**53 + 1, size_dtype="int64"), ["--max-elements", str(2**60)], "2^53"
    ),
    "declared_output_above_max_elements": (_window_text(size=2**27), [], "--max-elements"),
    "max_elements_option": (_window_text(size=1000), ["--max-elements", "999"], "--max-elements"),
    "shape_disagrees_with_size": (_window_text(size=8, shape=[2**40]), ["--max-elements", str(2**50)], "shape"),
    "too_many_dimensions": (_sin_text("1").replace('"shape": [1]', '"shape": [' + ", ".join(["1"] * 100) + "]"),
                            [], "dimensions"),
    "file_above_max_file_size": (_window_text(), ["--max-file-size", "100"], "--max-file-size"),
}


#: Files that hang, or take more memory than the machine has, without the bounds:
#: run in a child with a timeout and a memory limit.  The others run in-process.
MAY_HANG = {name for name in HOSTILE if "exponent" in HOSTILE[name][2] or "999999999" in name} | {
    "declared_output_above_max_elements",
    "many_digits",
}


def run_main_in_process(capsys, *arguments):
    """``python -m crtrig ARGS`` in this process, as a CompletedProcess."""
    try:
        status = cli_main([str(a) for a in arguments])
    except SystemExit as exc:  # argparse
        status = exc.code
    captured = capsys.readouterr()
    return subprocess.CompletedProcess(arguments, status, captured.out, captured.err)


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_file_gives_one_line_and_exit_2(tmp_path, capsys, kind):
    text, arguments, fragment = HOSTILE[kind]
    path = tmp_path / f"{kind}.json"
    path.write_text(text)
    if kind in MAY_HANG:
        completed = run_cases_bounded(path, *arguments)
    else:
        completed = run_main_in_process(capsys, "cases", path, *arguments)
    assert_one_line_exit_2(completed, path, fragment)


LONG = "x" * 1_000_000
EXCERPTS = {
    "value": lambda: _sin_text(json.dumps(LONG)),
    "op": lambda: json.dumps({"op": LONG, "cases": []}),
    "case_name": lambda: json.dumps({"op": "ai.onnx.HannWindow", "cases": [{"name": LONG}]}),
    "dtype": lambda: _sin_text("1").replace('"dtype": "float32"', f'"dtype": "{LONG}"', 1),
    "attribute": lambda: _window_text().replace('"name": "target", ', f'"name": "target", "attrs": {{"{LONG}": 1}}, '),
    "input_name": lambda: _sin_text("1").replace('"x": {"dtype": "float32"', json.dumps(LONG) + ': {"dtype": "int8"'),
}


@pytest.mark.parametrize("kind", sorted(EXCERPTS))
def test_messages_quote_only_an_excerpt(tmp_path, capsys, kind):
    path = tmp_path / f"{kind}.json"
    path.write_text(EXCERPTS[kind]())
    completed = run_main_in_process(capsys, "cases", path)
    assert_one_line_exit_2(completed, path, "characters)")


#: Paths that are not regular files, on this platform.
NON_REGULAR = ["directory"] + (["fifo"] if hasattr(os, "mkfifo") else []) + (
    ["dev_zero"] if os.path.exists("/dev/zero") else []
)


@pytest.mark.parametrize("kind", NON_REGULAR)
def test_only_regular_files_are_read(tmp_path, kind):
    if kind == "fifo":
        path = tmp_path / "fifo.json"
        os.mkfifo(path)  # no writer: opening it for reading would block
    elif kind == "dev_zero":
        path = "/dev/zero"  # endless: reading it would exhaust memory
    else:
        path = tmp_path
    completed = run_cases_bounded(path)
    assert_one_line_exit_2(completed, path, "not a regular file")


def test_every_kind_of_non_regular_file_is_covered_on_linux():
    if sys.platform.startswith("linux"):
        assert NON_REGULAR == ["directory", "fifo", "dev_zero"]


def test_cli_argument_errors_are_one_line(tmp_path):
    path = write_file(tmp_path, [window_case("w", 8)])
    for arguments in (["--check-limit", "0"], ["--max-elements", "-1"], ["--max-file-size", "lots"],
                      ["--bogus"]):
        completed = run_cli_subprocess(path, *arguments)
        assert completed.returncode == 2 and completed.stdout == "", completed
        assert len(completed.stderr.splitlines()) == 1 and "Traceback" not in completed.stderr, completed.stderr


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
            assert result.status == "PASS" and result.vs_exact.max_ulp == 0, result.line()


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
    assert dtypes == {"float16", "bfloat16", "float32", "float64"}
    # float64: written with exact data (tolerance 0) and a provenance, in hundreds of inputs
    # (tools/gen_float64_trig_cases.py); the data equal the exact reference bit for bit.
    f64 = [case for case in document["cases"] if case["inputs"]["x"]["dtype"] == "float64"]
    assert {case["name"] for case in f64} >= {"special_values_f64", "subnormal_inputs_f64", "hard_cases_f64",
                                              "worst_cases_sample_f64", "near_multiples_of_half_pi_f64",
                                              "huge_arguments_f64", "random_bit_patterns_f64",
                                              "shape_scalar_f64", "shape_2x3x4_f64"}
    assert all(case["outputs"]["y"]["tolerance"] == 0 and "data" in case["outputs"]["y"]
               and case["provenance"]["source"] for case in f64)
    assert 500 < sum(math.prod(case["inputs"]["x"]["shape"]) for case in f64) < 2000
    exact = {r.case: r for r in cases.run_file(REPO_CASES / name, strict=True, impl=make_impl())}
    assert all(exact[case["name"]].vs_data == cases.Distances(0, 0) for case in f64)
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


# ---------------------------------------------------------------------------
# The runner in CI: --fail-on-skip, the all-skipped warning, --quiet, --junit
# ---------------------------------------------------------------------------


def ci_files(tmp_path):
    """mixed.json: a PASS, a FAIL (wrong data) and a SKIP (a feature this
    runner lacks); skipped.json: only SKIPs (Sin cases needing a missing feature)."""
    needs_other = window_case("needs_timestamps", 4)
    needs_other["requires"] = {"features": ["timestamp-query"]}
    mixed = write_file(tmp_path, [window_case("ok", 4), window_case("wrong", 4, data=[0, 0.5, 1, 0.25]),
                                  needs_other], name="mixed.json")
    f64_needs_other = trig_case("f64", TRIG_VALUES, "float64")
    f64_needs_other["requires"] = {"features": ["subgroups"]}
    f32_needs_other = trig_case("f32_needs_timestamps", TRIG_VALUES)
    f32_needs_other["requires"] = {"features": ["timestamp-query"]}
    skipped = write_file(tmp_path, [f64_needs_other, f32_needs_other], op="ai.onnx.Sin", name="skipped.json")
    return mixed, skipped


def run_ci(paths, **options):
    out, err = io.StringIO(), io.StringIO()
    status = cases.run_cli([str(p) for p in paths], impl=make_impl(), out=out, err=err, **options)
    return status, out.getvalue(), err.getvalue()


def test_fail_on_skip_counts_a_skipped_case_as_a_failure(tmp_path):
    mixed, skipped = ci_files(tmp_path)
    status, out, _ = run_ci([skipped])
    assert status == 0 and out.splitlines()[-1] == "0 passed, 0 failed, 2 skipped"
    status, out, _ = run_ci([skipped], fail_on_skip=True)
    assert status == 1 and out.splitlines()[-1] == "0 passed, 2 failed, 0 skipped"
    assert "skipped.json  f64  FAIL" in out and "(--fail-on-skip): " in out and "subgroups" in out
    status, out, _ = run_ci([mixed], fail_on_skip=True)
    assert status == 1 and out.splitlines()[-1] == "1 passed, 2 failed, 0 skipped"


def test_a_file_whose_cases_were_all_skipped_gets_a_warning_either_way(tmp_path):
    mixed, skipped = ci_files(tmp_path)
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"op": "ai.onnx.Cos", "cases": []}))
    for fail_on_skip in (False, True):
        status, _, err = run_ci([mixed, skipped, empty], fail_on_skip=fail_on_skip)
        assert status == 1
        assert err.splitlines() == [
            "crtrig cases: warning: skipped.json: all 2 case(s) were skipped; nothing was checked",
            "crtrig cases: warning: empty.json: the file has no cases; nothing was checked",
        ]
    status, _, err = run_ci([mixed])  # one case of three skipped: no warning
    assert status == 1 and err == ""


def test_quiet_prints_failures_and_the_summary_only(tmp_path):
    mixed, skipped = ci_files(tmp_path)
    status, out, err = run_ci([mixed, skipped], quiet=True)
    assert status == 1
    lines = out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("mixed.json  wrong  FAIL  checked 4 of 4")
    assert lines[1] == "1 passed, 1 failed, 3 skipped"
    assert "all 2 case(s) were skipped" in err  # warnings are not results: still printed
    status, out, _ = run_ci([skipped], quiet=True, fail_on_skip=True)
    assert status == 1 and len(out.splitlines()) == 3  # the two skips are failures now


#: A case name with characters XML 1.0 cannot hold (a control character, a lone
#: surrogate from a \\ud800 escape) and ones it must escape.
HOSTILE_NAME = 'a\x01b<c>&"d\'\ud800e\U0001f600'


def junit_report(path):
    """The parsed report (expat: refuses anything that is not well-formed XML)."""
    import xml.etree.ElementTree as ElementTree

    return ElementTree.parse(path).getroot()


def test_junit_report_is_valid_xml_with_one_testsuite_per_file(tmp_path):
    mixed, skipped = ci_files(tmp_path)
    hostile = write_file(tmp_path, [window_case(HOSTILE_NAME, 4, data=[0, 0.5, 1, 0.5001])], name="hostile.json")
    report = tmp_path / "report.xml"
    status, out, _ = run_ci([mixed, skipped, hostile], junit=str(report))
    assert status == 1
    root = junit_report(report)
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("skipped"), root.get("errors")) == ("6", "2", "3", "0")
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["mixed.json", "skipped.json", "hostile.json"]
    assert [(s.get("tests"), s.get("failures"), s.get("skipped")) for s in suites] == [
        ("3", "1", "1"), ("2", "0", "2"), ("1", "1", "0")]
    ok, wrong, needs = suites[0].findall("testcase")
    assert (ok.get("classname"), ok.get("name")) == ("mixed.json", "ok")
    assert ok.find("failure") is None and ok.find("skipped") is None
    assert ok.find("system-out").text == out.splitlines()[0]  # the result line
    assert "element 3" in wrong.find("failure").get("message")
    assert "timestamp-query" in needs.find("skipped").get("message")
    (case,) = suites[2].findall("testcase")
    assert case.get("name") == "a\\x01b<c>&\"d'\\ud800e\U0001f600"  # escaped, not dropped
    assert float(case.get("time")) >= 0
    # --fail-on-skip: the skips are failures in the report too
    run_ci([skipped], junit=str(report), fail_on_skip=True)
    (suite,) = junit_report(report).findall("testsuite")
    assert (suite.get("failures"), suite.get("skipped")) == ("2", "0")
    assert all(c.find("failure") is not None for c in suite.findall("testcase"))


def test_junit_report_of_a_malformed_file_and_of_an_unwritable_path(tmp_path, capsys):
    good = write_file(tmp_path, [window_case("fine", 4)], name="good.json")
    bad = tmp_path / "bad.json"
    bad.write_text(MALFORMED["output_datatype_disagrees"][0]())
    report = tmp_path / "report.xml"
    status, out, err = run_ci([good, bad], junit=str(report))
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    (suite,) = junit_report(report).findall("testsuite")
    assert suite.get("errors") == "1" and "output_datatype" in suite.find("testcase/error").get("message")
    # A report that cannot be written: one line, exit 2, before any case runs.
    for target in (tmp_path / "missing_dir" / "r.xml", tmp_path):
        completed = run_main_in_process(capsys, "cases", good, "--junit", target)
        assert completed.returncode == 2 and completed.stdout == ""
        assert completed.stderr.startswith("crtrig cases: error: --junit ") and len(completed.stderr.splitlines()) == 1
    assert not list(tmp_path.glob(".*.tmp"))


# ---------------------------------------------------------------------------
# The shipped case files by name, and --list
# ---------------------------------------------------------------------------

needs_packaged_cases = pytest.mark.skipif(not cases.packaged_case_files(),
                                          reason="crtrig/cases is not installed in this build")


def run_cli_subprocess_in(cwd, *args):
    """``python -m crtrig cases ARGS`` run from directory ``cwd``."""
    env = dict(os.environ)
    package_root = str(Path(crtrig.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, "-m", "crtrig", "cases", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, env=env, timeout=300)


@needs_packaged_cases
def test_a_shipped_file_runs_by_name_where_no_such_path_exists(tmp_path, monkeypatch):
    """`crtrig cases hannwindow.json` (or `hannwindow`) from a directory without that file
    runs the shipped one; a file of that name in the current directory wins."""
    monkeypatch.chdir(tmp_path)
    shipped = dict(cases.packaged_case_files())["hannwindow.json"]
    count = len(json.loads(shipped)["cases"])
    for name in ("hannwindow.json", "hannwindow"):
        status, out, err = run_in_process([name], strict=True)
        assert status == 0 and err == "", err
        lines = out.splitlines()
        assert lines[-1] == f"{count} passed, 0 failed, 0 skipped", name
        assert all(line.startswith("hannwindow.json  ") for line in lines[:-1])
    assert cases.packaged_case_file("hannwindow") == ("hannwindow.json", shipped)
    assert cases.packaged_case_file("nosuch") is None
    # A real path always wins over the shipped name.
    write_file(tmp_path, [window_case("mine", 8)], name="hannwindow.json")
    status, out, _ = run_in_process(["hannwindow.json"])
    lines = out.splitlines()
    assert status == 0 and len(lines) == 2 and lines[1] == "1 passed, 0 failed, 0 skipped", out
    assert lines[0].startswith("hannwindow.json  mine  PASS")


@needs_crtrig_impl
@needs_packaged_cases
def test_cli_runs_a_shipped_file_by_name(tmp_path):
    completed = run_cli_subprocess_in(tmp_path, "hannwindow.json", "--strict")
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr
    count = len(json.loads(dict(cases.packaged_case_files())["hannwindow.json"])["cases"])
    assert completed.stdout.splitlines()[-1] == f"{count} passed, 0 failed, 0 skipped"
    assert completed.stderr == ""


@needs_packaged_cases
def test_list_prints_every_shipped_file(capsys, tmp_path):
    packaged = cases.packaged_case_files()
    completed = run_main_in_process(capsys, "cases", "--list")
    assert completed.returncode == 0 and completed.stderr == "", completed
    lines = completed.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [name for name, _ in packaged]
    for line, (name, text) in zip(lines, packaged):
        document = json.loads(text)
        assert line.split()[1:] == [document["op"], str(len(document["cases"])), "case(s)"], line
    if (Path(crtrig.__file__).resolve().parent / "cases").is_dir():
        shipped_dir = Path(crtrig.__file__).resolve().parent / "cases"
    else:
        shipped_dir = REPO_CASES
    assert {line.split()[0] for line in lines} == {p.name for p in shipped_dir.glob("*.json")}
    assert {"hannwindow.json", "hammingwindow.json", "blackmanwindow.json", "sin.json", "cos.json"} <= {
        line.split()[0] for line in lines}
    out = io.StringIO()
    assert cases.list_cli(out=out) == 0 and out.getvalue() == completed.stdout
    # The console: the same lines, exit 0.
    run = run_cli_subprocess_in(tmp_path, "--list")
    assert run.returncode == 0 and run.stdout == completed.stdout and run.stderr == "", run


def test_list_without_shipped_files_is_one_line_and_exit_2(monkeypatch):
    monkeypatch.setattr(cases, "packaged_case_files", lambda: [])
    out, err = io.StringIO(), io.StringIO()
    assert cases.list_cli(out=out, err=err) == 2
    assert out.getvalue() == "" and err.getvalue() == "crtrig cases: error: no case files are installed in crtrig/cases\n"


def test_an_unknown_name_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for name in ("nosuch.json", "nosuch", "hannwindow.jsonx", "HANNWINDOW.JSON"):
        completed = run_main_in_process(capsys, "cases", name)
        assert_one_line_exit_2(completed, name, "neither a file nor the name of a shipped case file")
        assert "(`crtrig cases --list` lists them)" in completed.stderr
    # A path with a directory part is only a path; a missing one names the shipped file it may mean.
    completed = run_main_in_process(capsys, "cases", os.path.join("cases", "hannwindow.json"))
    assert_one_line_exit_2(completed, os.path.join("cases", "hannwindow.json"), "No such file")
    if cases.packaged_case_file("hannwindow.json") is not None:
        assert "(the shipped hannwindow.json runs as `crtrig cases hannwindow.json`)" in completed.stderr
    # Through the console, as the issue has it: no traceback.
    run = run_cli_subprocess_in(tmp_path, "nosuch.json")
    assert run.returncode == 2 and run.stdout == "" and "Traceback" not in run.stderr, run
    assert run.stderr.splitlines() == [
        f"{MODULE_PROGRAM}: error: nosuch.json: neither a file nor the name of a shipped case file "
        f"(`{MODULE_PROGRAM} --list` lists them)"]


# ---------------------------------------------------------------------------
# Names from files are printed safely
# ---------------------------------------------------------------------------

#: Case names a file may hold (all valid JSON) and how result lines show them:
#: as written when printable, without whitespace and not starting with a quote;
#: otherwise quoted as repr() quotes them (escapes for control characters, lone
#: surrogates, line separators, bidi overrides).
NAMES_SHOWN = {
    "plain_name": "plain_name",
    "größe_π": "größe_π",
    "\ud800": "'\\ud800'",
    "red\x1b[31malert": "'red\\x1b[31malert'",
    "clear\x1b[2J": "'clear\\x1b[2J'",
    "two\nlines": "'two\\nlines'",
    "fake  PASS  checked 1 of 1": "'fake  PASS  checked 1 of 1'",
    "csi\u009b2J": "'csi\\x9b2J'",
    "bidi\u202egnp.exe": "'bidi\\u202egnp.exe'",
    "'quoted'": "\"'quoted'\"",
}


def run_subprocess_strict(*args, command="cases"):
    """``python -m crtrig COMMAND ARGS`` with stdout/stderr encoded as UTF-8, strictly (the
    usual terminal: a lone surrogate cannot be written)."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")
    package_root = str(Path(crtrig.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, "-m", "crtrig", command, *map(str, args)], capture_output=True,
                          env=env, timeout=120)


def assert_safe_text(data: bytes) -> str:
    """Output bytes: UTF-8, and nothing a terminal would act on (ESC, C1 controls,
    other control characters but the newline, bidi overrides)."""
    text = data.decode("utf-8")
    assert all(ch.isprintable() or ch == "\n" for ch in text), [ch for ch in text if not ch.isprintable()][:5]
    return text


def test_case_names_are_quoted_when_they_cannot_be_printed_as_they_are(tmp_path):
    """A lone surrogate (valid JSON) in a case name made `cases` die with UnicodeEncodeError;
    ESC reached the terminal; a newline split a result line.  Such names are quoted."""
    file_cases = [trig_case(name, ["0.5"]) for name in NAMES_SHOWN]
    path = write_file(tmp_path, file_cases, op="ai.onnx.Sin", name="names.json")
    completed = run_subprocess_strict(path)
    assert completed.returncode == 0, completed.stderr.decode(errors="replace")[-2000:]
    out = assert_safe_text(completed.stdout)
    lines = out.splitlines()
    assert len(lines) == len(NAMES_SHOWN) + 1 and lines[-1] == f"{len(NAMES_SHOWN)} passed, 0 failed, 0 skipped"
    for line, shown in zip(lines, NAMES_SHOWN.values()):
        assert line.startswith(f"names.json  {shown}  PASS  checked 1 of 1  "), (line, shown)
    # a terminal that cannot show every printable character gets escapes, not a traceback
    env = dict(os.environ, PYTHONIOENCODING="ascii:strict")
    completed = subprocess.run([sys.executable, "-m", "crtrig", "cases", str(path)], capture_output=True, env=env,
                               timeout=120)
    assert completed.returncode == 0 and "names.json  gr\\xf6\\xdfe_\\u03c0  PASS" in completed.stdout.decode("ascii")
    # --junit keeps the names (escaped as XML requires), the result lines quote them
    junit = tmp_path / "report.xml"
    out = io.StringIO()
    assert cases.run_cli([str(path)], impl=make_impl(), out=out, err=io.StringIO(), junit=str(junit)) == 0
    for line, shown in zip(out.getvalue().splitlines(), NAMES_SHOWN.values()):
        assert line.startswith(f"names.json  {shown}  PASS  "), (line, shown)
    assert "\\x1b[31m" in junit.read_text() and "'red\\x1b[31malert'" in junit.read_text()


def test_names_in_error_messages_and_file_names_are_quoted_too(tmp_path):
    """Error messages quote a case name (and the file name) the same way: one line, no ESC."""
    for name in ("dup\x1b[2J", "\ud800", "two\nlines"):
        path = write_file(tmp_path, [trig_case(name, ["0.5"]), trig_case(name, ["0.25"])], op="ai.onnx.Sin")
        completed = run_subprocess_strict(path)
        assert completed.returncode == 2 and completed.stdout == b"", completed
        err = assert_safe_text(completed.stderr)
        assert len(err.splitlines()) == 1 and f"case {NAMES_SHOWN.get(name, repr(name))}: duplicate" in err, err
    evil = tmp_path / "evil\x1b[2J\n.json"
    evil.write_text(json.dumps({"op": "ai.onnx.Sin", "cases": [trig_case("ok", ["0.5"])]}))
    completed = run_subprocess_strict(evil)
    assert completed.returncode == 0, completed
    lines = assert_safe_text(completed.stdout).splitlines()
    assert len(lines) == 2 and lines[0].startswith("evil\\x1b[2J\\n.json  ok  PASS"), lines
    evil.write_text("{")
    completed = run_subprocess_strict(evil)
    assert completed.returncode == 2 and len(assert_safe_text(completed.stderr).splitlines()) == 1, completed
    # an implementation's exception text with a newline stays on its result line
    def broken(x):
        raise ValueError("first line\nsecond line\x1b[2J")

    status, out, err = run_in_process([write_file(tmp_path, [trig_case("ok", ["0.5"])], op="ai.onnx.Sin")],
                                      impl={"sin": broken})
    assert status == 1 and len(out.splitlines()) == 2 and "first line second line\\x1b[2J" in out, out
