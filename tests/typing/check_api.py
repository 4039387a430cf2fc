"""crtrig's public API as typed code sees it: tests/test_typing.py runs
`mypy --strict` on this file (and every other .py file of tests/typing/), and
runs it with Python.

Every assignment below names the type the stubs must give (a wrong stub makes
mypy fail), and the asserts check that the run-time value has that type (a
stub that disagrees with crtrig makes Python fail).  No reveal_type: the file
runs as it is.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import tempfile
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np
import numpy.typing as npt

import crtrig
import crtrig.__main__
import crtrig.bench
import crtrig.cases
import crtrig.compare
import crtrig.grade
import crtrig.onnx
import crtrig.reference
import crtrig.vectors
import crtrig.verify

WindowFunction = Callable[..., npt.NDArray[Any]]
WINDOWS: list[WindowFunction] = [crtrig.hann_window, crtrig.hamming_window, crtrig.blackman_window]


def check_dtype(array: npt.NDArray[Any], scalar_type: type[np.generic] | Any, size: int) -> None:
    assert isinstance(array, np.ndarray), type(array)
    assert array.dtype.type is scalar_type, (array.dtype, scalar_type)
    assert array.shape == (size,), array.shape


def check_windows() -> None:
    """Each overload arm of each window function: default, each dtype as a
    keyword and positionally (type, np.dtype and string), out=, and the
    spellings that fall back to NDArray[Any]."""
    # hann_window
    f32: npt.NDArray[np.float32] = crtrig.hann_window(8)
    check_dtype(f32, np.float32, 8)
    f32 = crtrig.hann_window(8, False)
    check_dtype(f32, np.float32, 8)
    f32 = crtrig.hann_window(np.int64(8), periodic=1, dtype="f4")
    check_dtype(f32, np.float32, 8)
    f64: npt.NDArray[np.float64] = crtrig.hann_window(8, dtype=np.float64)
    check_dtype(f64, np.float64, 8)
    f64 = crtrig.hann_window(8, True, np.dtype(np.float64))
    check_dtype(f64, np.float64, 8)
    f64 = crtrig.hann_window(np.array([8]), periodic=np.bool_(False), dtype="float64")
    check_dtype(f64, np.float64, 8)
    f16: npt.NDArray[np.float16] = crtrig.hann_window(8, dtype=np.float16)
    check_dtype(f16, np.float16, 8)
    f16 = crtrig.hann_window(8, False, "e")
    check_dtype(f16, np.float16, 8)
    bf16: npt.NDArray[np.generic] = crtrig.hann_window(8, dtype=ml_dtypes.bfloat16)
    check_dtype(bf16, ml_dtypes.bfloat16, 8)
    bf16 = crtrig.hann_window(8, True, "bfloat16")
    check_dtype(bf16, ml_dtypes.bfloat16, 8)
    i8: npt.NDArray[np.int8] = crtrig.hann_window(8, dtype=np.int8)
    check_dtype(i8, np.int8, 8)
    u8: npt.NDArray[np.uint8] = crtrig.hann_window(8, True, "u1")
    check_dtype(u8, np.uint8, 8)
    i16: npt.NDArray[np.int16] = crtrig.hann_window(8, dtype="int16")
    check_dtype(i16, np.int16, 8)
    u16: npt.NDArray[np.uint16] = crtrig.hann_window(8, dtype=np.dtype(np.uint16))
    check_dtype(u16, np.uint16, 8)
    i32: npt.NDArray[np.int32] = crtrig.hann_window(8, dtype=np.int32)
    check_dtype(i32, np.int32, 8)
    u32: npt.NDArray[np.uint32] = crtrig.hann_window(8, dtype=">u4")
    check_dtype(u32, np.uint32, 8)
    i64: npt.NDArray[np.int64] = crtrig.hann_window(8, dtype="i8")
    check_dtype(i64, np.int64, 8)
    u64: npt.NDArray[np.uint64] = crtrig.hann_window(8, False, np.uint64)
    check_dtype(u64, np.uint64, 8)
    # Spellings without an arm of their own: NDArray[Any].
    anything: npt.NDArray[Any] = crtrig.hann_window(8, dtype="BFloat16")
    check_dtype(anything, ml_dtypes.bfloat16, 8)

    # out= gives back the array passed, with its own type.
    buf16 = np.empty(8, np.float16)
    same16: npt.NDArray[np.float16] = crtrig.hann_window(8, out=buf16)
    assert same16 is buf16
    buf64 = np.empty(8, np.float64)
    same64: npt.NDArray[np.float64] = crtrig.hann_window(8, True, np.float64, buf64)
    assert same64 is buf64
    same64 = crtrig.hann_window(8, dtype=None, out=buf64)
    assert same64 is buf64

    # hamming_window and blackman_window: the same arms.
    f32 = crtrig.hamming_window(8)
    check_dtype(f32, np.float32, 8)
    f64 = crtrig.hamming_window(8, periodic=False, dtype=np.float64)
    check_dtype(f64, np.float64, 8)
    u8 = crtrig.hamming_window(8, True, np.uint8)
    check_dtype(u8, np.uint8, 8)
    same16 = crtrig.hamming_window(8, out=buf16)
    assert same16 is buf16
    f32 = crtrig.blackman_window(8)
    check_dtype(f32, np.float32, 8)
    f16 = crtrig.blackman_window(8, dtype="float16")
    check_dtype(f16, np.float16, 8)
    i32 = crtrig.blackman_window(8, False, "i4")
    check_dtype(i32, np.int32, 8)
    same64 = crtrig.blackman_window(8, False, None, buf64)
    assert same64 is buf64

    for window in WINDOWS:
        check_dtype(window(3, dtype="float64"), np.float64, 3)


def check_trig() -> None:
    """sin and cos are numpy ufuncs; numpy types their calls as Any."""
    ufuncs: list[np.ufunc] = [crtrig.sin, crtrig.cos]
    x = np.linspace(0.0, 1.0, 5, dtype=np.float32)
    for ufunc in ufuncs:
        y: npt.NDArray[np.float32] = ufunc(x)
        assert y.dtype == np.float32
        out = np.empty_like(x)
        z = ufunc(x, out=out)
        assert z is out
        assert ufunc.nin == 1 and ufunc.nout == 1
    s: np.float64 = crtrig.sin(0.5)
    assert isinstance(s, np.float64)


def check_introspection() -> None:
    version: str = crtrig.__version__
    targets: tuple[str, ...] = crtrig.simd_targets()
    target: str = crtrig.simd_target()
    assert target in targets and version
    text = io.StringIO()
    crtrig.show_config(file=text)
    assert text.getvalue().startswith("crtrig ")
    exported: list[str] = crtrig.__all__
    assert "hann_window" in exported


def check_threads() -> None:
    count: int = crtrig.get_num_threads()
    crtrig.set_num_threads(count)
    assert crtrig.get_num_threads() == count >= 1


def check_reference() -> None:
    ref = crtrig.reference
    fmt: ref.FloatFormat = ref.FLOAT_FORMATS["float32"]
    width: int = fmt.width + fmt.exponent_bits + fmt.inf_bits + fmt.nan_bits + fmt.sign_bit
    assert width > 0
    int_dtype: np.dtype[Any] = ref.INTEGER_FORMATS["uint8"]
    kinds: tuple[str, ...] = ref.KINDS
    funcs: tuple[str, ...] = ref.TRIG_FUNCTIONS
    coefficients: tuple[Fraction, ...] = ref.COEFFICIENTS["hamming"]
    assert int_dtype == np.uint8 and "hann" in kinds and "sin" in funcs
    assert coefficients == (Fraction(25, 46), Fraction(21, 46))
    dt: np.dtype[Any] = ref.canonical_dtype("bfloat16")
    name: str | None = ref.format_name(dt)
    assert name == "bfloat16"
    one: int = ref.round_rational(1, 1, "float32")
    value: float = ref.bits_to_float(one, fmt)
    assert value == 1.0 and ref.float_to_bits(Fraction(1, 3), np.float16) == ref.float_to_bits(1 / 3, "float16")
    distance: int | float = ref.ulp_distance(1.0, np.nextafter(1.0, 2.0), "float64")
    assert distance == 1
    bits: int = ref.window_bits("hann", 1, 4, "float32")
    term: float | int = ref.window_value("hann", 1, 4)
    assert ref.bits_to_float(bits, "float32") == term == 0.5
    window: npt.NDArray[Any] = ref.window("hann", 8, periodic=False, dtype=np.float64)
    assert np.array_equal(window, crtrig.hann_window(8, False, np.float64))
    cosine_bits: int = ref.cosine_sum_bits(("0.54", "0.46"), 1, 4, "float64")
    numpy_hamming: npt.NDArray[Any] = ref.cosine_sum_window(["0.54", "0.46"], 5, False, "float64")
    assert cosine_bits == ref.float_to_bits(Fraction(54, 100), "float64")
    assert numpy_hamming.dtype == np.float64
    sine_bits: int = ref.trig_bits("sin", 0.5, "float32")
    sines: npt.NDArray[Any] = ref.trig("sin", np.array([0.5], dtype=np.float32))
    assert int(sines.view(np.uint32)[0]) == sine_bits


def check_onnx() -> None:
    import onnx
    from onnx import helper
    from onnx.reference import ReferenceEvaluator
    from onnx.reference.op_run import OpRun

    ops: list[type[OpRun]] = crtrig.onnx.new_ops
    assert crtrig.onnx.HannWindow in ops and crtrig.onnx.Sin in ops
    limit: int = crtrig.onnx.DEFAULT_FOLD_MAX_BYTES
    node = helper.make_node("HannWindow", ["size"], ["y"], name="win", output_datatype=onnx.TensorProto.DOUBLE)
    graph = helper.make_graph(
        [node], "g", [],
        [helper.make_tensor_value_info("y", onnx.TensorProto.DOUBLE, [8])],
        [helper.make_tensor("size", onnx.TensorProto.INT64, [], [8])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    folded: onnx.ModelProto = crtrig.onnx.fold_windows(model, max_bytes=limit)
    assert not any(n.op_type == "HannWindow" for n in folded.graph.node)
    session = ReferenceEvaluator(model, new_ops=ops)
    (y,) = session.run(None, {})
    assert np.array_equal(y, crtrig.hann_window(8, dtype=np.float64))


CASE_TEXT = json.dumps({
    "op": "ai.onnx.HannWindow",
    "cases": [{
        "name": "periodic_f32_size4",
        "inputs": {"size": {"dtype": "int32", "shape": [], "data": {"kind": "values", "values": [4]}}},
        "outputs": {"y": {"dtype": "float32", "shape": [4], "data": {"kind": "values", "values": [0, 0.5, 1, 0.5]}}},
    }],
})


def check_cases_and_grade() -> None:
    cases = crtrig.cases
    case_file: cases.CaseFile = cases.parse_case_file(CASE_TEXT, "inline.json")
    case: cases.Case = case_file.cases[0]
    spec: cases.OutputSpec = case.outputs[0]
    op: cases.OpSpec = cases.OPS["ai.onnx.HannWindow"]
    assert case.op is op and spec.dtype == "float32"
    result: cases.CaseResult = cases.run_case(case, strict=True)
    assert result.status == "PASS", result.line()
    results: list[cases.CaseResult] = cases.run_case_file(case_file)
    assert [r.status for r in results] == ["PASS"]
    shipped: list[tuple[str, str]] = cases.packaged_case_files()
    assert any(name == "hannwindow.json" for name, _ in shipped)
    indices: npt.NDArray[Any] = cases.checked_indices(100, 10)
    assert len(indices) <= 100
    try:
        cases.parse_case_file("{}", "bad.json")
    except cases.MalformedCaseFile as exc:
        where: str = exc.path
        assert where == "bad.json"
    else:
        raise AssertionError("MalformedCaseFile not raised")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "inline.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(CASE_TEXT)
        raw: bytes = cases.read_regular_file_bytes(path, 1 << 20)
        loaded: cases.CaseFile = cases.load_case_file(path)
        from_file: list[cases.CaseResult] = cases.run_file(path, strict=True)
        out, err = io.StringIO(), io.StringIO()
        status: int = cases.run_cli([path], strict=True, out=out, err=err)
        assert raw and loaded.cases[0].name == case.name and from_file[0].status == "PASS"
        assert status == 0, err.getvalue()
        read_back: dict[tuple[str, int], npt.NDArray[Any]] = crtrig.grade.read_results(
            path, loaded, cases.DEFAULT_MAX_ELEMENTS, cases.DEFAULT_MAX_FILE_BYTES)
        assert np.array_equal(read_back[(case.name, 0)], crtrig.hann_window(4))
        graded: int = crtrig.grade.run_cli(path, path, max_ulp=0, out=out, err=err)
        assert graded == 0, err.getvalue()
    parser = argparse.ArgumentParser()
    cases.configure_parser(parser)
    crtrig.grade.configure_parser(argparse.ArgumentParser())
    grade: crtrig.grade.Grade = crtrig.grade.grade_case(case, [crtrig.hann_window(4)])
    assert grade.max_ulp == 0 and grade.wrong == 0, grade.line()
    share: str = crtrig.grade.percent(1, 4)
    assert share


def check_command_modules() -> None:
    """A cheap call into each command module (they run as subcommands of `crtrig`)."""
    decimal: str = crtrig.vectors.shortest_decimal(0x3F800000, "float32")
    assert decimal == "1.0"
    filled: tuple[str, crtrig.vectors.FillSummary] = crtrig.vectors.fill_text(CASE_TEXT, "inline.json")
    assert filled[1].cases == 1
    targets: list[tuple[int, str]] = crtrig.verify.resolve_targets(None)
    assert targets and targets[0][1] in crtrig.simd_targets()
    tally: crtrig.verify.Tally = crtrig.verify.Tally(inputs=1)
    tally.add(crtrig.verify.Tally(inputs=2))
    assert tally.inputs == 3
    cell: str = crtrig.compare.format_ulp(0.5)
    table: str = crtrig.compare.markdown_table(["a"], [["b"]])
    assert cell and "b" in table
    settings: crtrig.bench.Settings = crtrig.bench.QUICK
    assert settings.trig_size > 0 and crtrig.bench.markdown_table(["a"], [["b"]])
    parser: argparse.ArgumentParser = crtrig.__main__.build_parser("crtrig")
    assert isinstance(parser, argparse.ArgumentParser)
    version: str = crtrig.__main__.version_text()
    assert crtrig.__version__ in version
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "inline.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(CASE_TEXT)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            status: int = crtrig.__main__.main(["cases", "--strict", path])
    assert status == 0 and "1 passed" in printed.getvalue(), printed.getvalue()


def main() -> None:
    check_windows()
    check_trig()
    check_introspection()
    check_threads()
    check_reference()
    check_onnx()
    check_cases_and_grade()
    check_command_modules()
    print("check_api: ok")


if __name__ == "__main__":
    main()
