"""Conformance vectors: ``crtrig cases --fill`` and ``crtrig cases --new``
(crtrig.vectors).

The values written are checked against crtrig.reference through the runner's
own reader (a value must read back as the very bit pattern the reference
gives), and their shortness against independent shortest-decimal printers:
CPython's repr() for float64, numpy's Dragon4 for float32 and float16, and
the decimal module for bfloat16.
"""

from __future__ import annotations

import io
import json
import math
import os
import random
import re
import stat
from decimal import ROUND_CEILING, Decimal, localcontext
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from crtrig import cases, reference, vectors
from crtrig.conformance import _hard_inputs

from cli_helpers import cli  # noqa: E402  (tests/cli_helpers.py)

FLOATS = ("float16", "bfloat16", "float32", "float64")
INTEGERS = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
ONNX_CODE = {name: code for code, name in cases.ONNX_DATATYPES.items()}


def read_back(token: str, fmt: str) -> int:
    """The bit pattern the runner reads a JSON token as, in format ``fmt``."""
    value = cases._exact_value(json.loads(token, parse_float=Decimal))
    array = cases._to_dtype_array([value], fmt, ())
    return int(array.view(reference.FLOAT_FORMATS[fmt].bits_dtype))


def rounds_to(token: str, fmt: str) -> int:
    """The bit pattern of a decimal token rounded once into ``fmt`` (the
    runner's rounding without its JSON reader: faster, for exhaustive loops)."""
    return reference.round_rational(*Fraction(token).as_integer_ratio(), fmt)


def significant_digits(token: str) -> int:
    return len(Decimal(token).normalize().as_tuple().digits)


# ---------------------------------------------------------------------------
# Shortest decimals
# ---------------------------------------------------------------------------


def test_float64_decimals_are_what_repr_prints():
    rng = random.Random(5)
    patterns = [rng.getrandbits(64) for _ in range(10000)]
    patterns += [reference.float_to_bits(v, "float64") for v in
                 (1.0, 0.1, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e-5, 1e-4, 1e15, 1e16,
                  123456789012345680.0, 0.3, 2 / 3, -0.0, 0.0)]
    for bits in patterns:
        value = float(np.array(bits, np.uint64).view(np.float64))
        if math.isfinite(value):
            assert vectors.shortest_decimal(bits, "float64") == repr(value), hex(bits)


@pytest.mark.parametrize("fmt", ["float16", "float32"])
def test_float16_and_float32_decimals_are_as_short_as_numpy_prints_them(fmt):
    """A third of all float16 patterns, every subnormal among them (and a
    float32 sample): reads back exactly, with as many significant digits as
    numpy's shortest repr (Dragon4)."""
    info = reference.FLOAT_FORMATS[fmt]
    if fmt == "float16":
        patterns = np.unique(np.concatenate([np.arange(0, 1 << 16, 3), np.arange(1 << 10)]).astype(np.uint16))
    else:
        patterns = np.random.default_rng(3).integers(0, 1 << 32, 3000, dtype=np.uint64).astype(np.uint32)
    values = patterns.view(info.dtype)
    for index, (bits, value) in enumerate(zip(patterns.tolist(), values)):
        if not np.isfinite(value) or value == 0:
            continue
        token = vectors.shortest_decimal(bits, fmt)
        assert (read_back if index % 64 == 0 else rounds_to)(token, fmt) == bits, (hex(bits), token)
        assert significant_digits(token) == significant_digits(np.format_float_scientific(value, unique=True)), token


def test_bfloat16_decimals_are_shortest():
    """Every finite bfloat16 reads back exactly, and no decimal with fewer
    significant digits lies in its rounding interval (found with the decimal
    module: the interval's lower end rounded up to that many digits).  str()
    of an ml_dtypes bfloat16 is often longer (it prints the float32)."""
    fmt = reference.FLOAT_FORMATS["bfloat16"]
    longer_than_str = 0
    for bits in range(1, fmt.inf_bits):  # positive finite non-zero; sign is symmetric
        token = vectors.shortest_decimal(bits, "bfloat16")
        assert rounds_to(token, "bfloat16") == bits
        if bits % 64 == 0:
            assert read_back(token, "bfloat16") == bits and read_back("-" + token, "bfloat16") == bits | 0x8000
        value = Fraction(reference.bits_to_float(bits, "bfloat16"))
        below = Fraction(reference.bits_to_float(bits - 1, "bfloat16"))
        above = (Fraction(reference.bits_to_float(bits + 1, "bfloat16")) if bits + 1 < fmt.inf_bits
                 else 2 * value - below)  # past the largest finite value: the same spacing
        low, high = (below + value) / 2, (value + above) / 2
        closed = bits % 2 == 0  # ties go to the even pattern
        digits = significant_digits(token)
        if digits > 1:
            with localcontext() as context:
                context.prec = 400
                exact_low = Decimal(low.numerator) / Decimal(low.denominator)
                context.prec, context.rounding = digits - 1, ROUND_CEILING
                shorter = Fraction(+exact_low)
            fits = (low <= shorter <= high) if closed else (low < shorter < high)
            assert not fits, (hex(bits), token, shorter)
        if bits % 16 == 0:
            shown = str(np.array(bits, np.uint16).view(ml_dtypes.bfloat16))
            longer_than_str += significant_digits(token) < significant_digits(shown)
    assert longer_than_str > 500


def test_special_tokens():
    for fmt in FLOATS:
        info = reference.FLOAT_FORMATS[fmt]
        assert vectors.shortest_decimal(info.nan_bits, fmt) == '"NaN"'
        assert vectors.shortest_decimal(info.inf_bits, fmt) == '"Infinity"'
        assert vectors.shortest_decimal(info.inf_bits | info.sign_bit, fmt) == '"-Infinity"'
        assert vectors.shortest_decimal(info.sign_bit, fmt) == "-0.0"
        assert vectors.shortest_decimal(0, fmt) == "0.0"
    assert vectors.value_tokens(np.array([-3, 0, 255], np.int16)) == ["-3", "0", "255"]
    assert vectors.value_tokens(np.array([2**64 - 1], np.uint64)) == [str(2**64 - 1)]


# ---------------------------------------------------------------------------
# --fill
# ---------------------------------------------------------------------------


def window_case(name, size, dtype, periodic, **output):
    return {"name": name, "attrs": {"periodic": int(periodic), "output_datatype": ONNX_CODE[dtype]},
            "inputs": {"size": {"dtype": "int32", "shape": [], "data": {"kind": "values", "values": [size]}}},
            "outputs": {"y": {"dtype": dtype, "shape": [size], "tolerance": 0, **output}}}


def trig_case(name, values, dtype, **output):
    return {"name": name,
            "inputs": {"x": {"dtype": dtype, "shape": [len(values)], "data": {"kind": "values", "values": values}}},
            "outputs": {"y": {"dtype": dtype, "shape": [len(values)], "tolerance": 0, **output}}}


TRIG_INPUTS = ["-0", "0", "inf", "-inf", "NaN", "0.5", "-1.25", "355", "1e-30", "0x1.921fb6p+0", "1e4"]


def unfilled_files(tmp_path):
    """Hamming windows of every output type, Sin and Cos of every float type
    (float64 included: the runner skips it, the reference computes it)."""
    windows = [window_case(f"{'p' if periodic else 's'}_{dtype}_{size}", size, dtype, periodic,
                           **({"allowNaN": True} if size == 1 and not periodic else {}))
               for dtype in FLOATS + INTEGERS for periodic in (True, False) for size in (0, 1, 7, 16)]
    paths = {"ai.onnx.HammingWindow": tmp_path / "hamming.json"}
    paths["ai.onnx.HammingWindow"].write_text(json.dumps({"op": "ai.onnx.HammingWindow", "cases": windows}))
    for op in ("ai.onnx.Sin", "ai.onnx.Cos"):
        trig = [trig_case(dtype, TRIG_INPUTS, dtype, allowNaN=True) for dtype in FLOATS]
        paths[op] = tmp_path / f"{op[8:].lower()}.json"
        paths[op].write_text(json.dumps({"op": op, "cases": trig}))
    return paths


def reference_output(op, case):
    """The reference's values for a case, computed directly (not through the runner's op table)."""
    if op in vectors.WINDOW_OPS:
        size = int(case.inputs[0])
        return reference.window(vectors.WINDOW_OPS[op], size, bool(case.attrs["periodic"]), case.outputs[0].dtype)
    return reference.trig(vectors.TRIG_OPS[op], case.inputs[0])


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_filled_files_pass_at_tolerance_zero_and_read_back_bit_identical(tmp_path, capsys):
    paths = unfilled_files(tmp_path)
    for op, path in paths.items():
        filled = tmp_path / f"filled_{path.name}"
        status, out, err = cli(capsys, "cases", "--fill", path, "-o", filled)
        assert status == 0 and err == "" and out.startswith(f"wrote {filled}: "), (out, err)
        # every value reads back as the reference's bit pattern (NaN: the canonical one)
        loaded = cases.load_case_file(filled)
        for case in loaded.cases:
            assert same_bits(case.outputs[0].expected, reference_output(op, case)), case.name
        # not --strict, every tolerance 0: passes (float64 Sin/Cos too)
        results = cases.run_file(filled, impl=None)
        for result in results:
            assert result.status == "PASS" and result.vs_data == cases.Distances(0, 0), result.line()
        # the spellings: NaN as a string, -0.0 and integers as JSON numbers
        document = json.loads(filled.read_text())
        for raw in document["cases"]:
            values = raw["outputs"]["y"]["data"]["values"]
            dtype = raw["outputs"]["y"]["dtype"]
            if dtype in INTEGERS:
                assert all(type(v) is int for v in values)
            else:
                assert all(v == "NaN" or type(v) is float for v in values), values
            if op == "ai.onnx.Sin":
                assert math.copysign(1, values[0]) == -1 and values[0] == 0  # sin(-0) = -0.0
                assert values[2:5] == ["NaN"] * 3
            if raw["name"].startswith("s_") and raw["name"].endswith("_1") and dtype in FLOATS:
                assert values == ["NaN"]  # the symmetric window of size 1


def texts(document_text: str):
    """A file's structure with every key in order and every number as its text."""
    return json.loads(document_text, parse_float=lambda t: ("number", t), parse_int=lambda t: ("number", t),
                      parse_constant=lambda t: ("number", t), object_pairs_hook=list)


def test_fill_keeps_key_order_and_the_text_of_every_number(tmp_path, capsys):
    text = """{"provenance": {"made": "by hand", "x": 1.50, "y": 1E+2, "z": -0.0, "w": -0, "v": NaN},
    "op": "ai.onnx.Sin", "cases": [
      {"outputs": {"y": {"tolerance": 0.0, "relTolerance": 0e5, "shape": [3], "allowNaN": true, "dtype": "float32"}},
       "name": "needs data",
       "inputs": {"x": {"shape": [3], "dtype": "float32",
                        "data": {"values": [0.10000000000000000001, -0.0, 2.50e0], "kind": "values"}}}},
      {"name": "has data", "inputs": {"x": {"dtype": "float16", "shape": [1], "data": {"kind": "values", "values": [1]}}},
       "outputs": {"y": {"dtype": "float16", "shape": [1], "tolerance": 1e-3, "data": {"kind": "values", "values": [0.84100]}}}}
    ]}"""
    source = tmp_path / "in.json"
    source.write_text(text)
    target = tmp_path / "out.json"
    status, _, err = cli(capsys, "cases", "--fill", source, "-o", target)
    assert status == 0 and err == ""
    before, after = texts(text), texts(target.read_text())
    # the only change: a "data" member appended to the output that had none
    needs_data_output = after[2][1][0][0][1][0][1]
    assert needs_data_output[-1][0] == "data"
    filled_values = dict(needs_data_output.pop()[1])["values"]
    assert before == after
    assert filled_values == [("number", vectors.shortest_decimal(b, "float32")) for b in
                             reference.trig("sin", np.array([0.1, -0.0, 2.5], np.float32)).view(np.uint32).tolist()]
    assert '"x": 1.50, "y": 1E+2, "z": -0.0, "w": -0, "v": NaN' in target.read_text()


def test_fill_in_place_is_atomic_and_keeps_the_mode(tmp_path, capsys, monkeypatch):
    path = unfilled_files(tmp_path)["ai.onnx.Sin"]
    original = path.read_bytes()
    os.chmod(path, 0o640)
    # A failure at the last step (the rename) leaves the file as it was, and no temporary file.
    def refuse(source, target):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(vectors.write_text_atomically.__globals__["os"], "replace", refuse)
    status, out, err = cli(capsys, "cases", "--fill", path, "-o", path)
    assert status == 2 and out == "" and err == f"crtrig cases: error: {path}: cannot write: Permission denied\n"
    assert path.read_bytes() == original and sorted(p.name for p in tmp_path.iterdir()) == ["cos.json", "hamming.json", "sin.json"]
    monkeypatch.undo()
    status, _, err = cli(capsys, "cases", "--fill", path, "-o", path)
    assert status == 0 and err == ""
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert all(case.outputs[0].expected is not None for case in cases.load_case_file(path).cases)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cos.json", "hamming.json", "sin.json"]


def test_fill_refuses_what_the_runner_refuses_and_what_would_be_too_large(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    unknown_dtype = window_case("w", 4, "float32", True)
    unknown_dtype["outputs"]["y"]["dtype"] = "float8"
    bad.write_text(json.dumps({"op": "ai.onnx.HannWindow", "cases": [unknown_dtype]}))
    status, out, err = cli(capsys, "cases", "--fill", bad, "-o", tmp_path / "out.json")
    assert status == 2 and out == "" and "unknown dtype" in err and len(err.splitlines()) == 1
    # 10^7 float32 window values (21 bytes each at most) cannot fit in 10 MB: refused before anything is computed
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"op": "ai.onnx.HannWindow", "cases": [window_case("w", 10**7, "float32", True)]}))
    status, out, err = cli(capsys, "cases", "--fill", big, "-o", tmp_path / "out.json", "--max-file-size", 10**7)
    assert status == 2 and "could take up to 2100004" in err and "--max-file-size" in err, err
    # a limit just below the filled size: refused at once too (the bound is above the size), nothing written
    small = tmp_path / "small.json"
    small.write_text(json.dumps({"op": "ai.onnx.HannWindow", "cases": [window_case("w", 64, "float64", True)]}))
    filled, summary = vectors.fill_text(small.read_text(), str(small))
    status, out, err = cli(capsys, "cases", "--fill", small, "-o", small, "--max-file-size", summary.nbytes - 1)
    assert status == 2 and "could take up to" in err
    assert small.read_text() == json.dumps({"op": "ai.onnx.HannWindow", "cases": [window_case("w", 64, "float64", True)]})
    assert not (tmp_path / "out.json").exists()
    for arguments, fragment in (((), "needs -o"), (("-o", tmp_path / "o.json", "--strict"), "--strict"),
                                (("-o", tmp_path / "o.json", "--sizes", "3"), "--sizes applies to --new"),
                                (("-o", tmp_path / "no_dir" / "o.json"), "directory does not exist")):
        status, out, err = cli(capsys, "cases", "--fill", small, *arguments)
        assert status == 2 and out == "" and fragment in err and len(err.splitlines()) == 1, err


# ---------------------------------------------------------------------------
# --new
# ---------------------------------------------------------------------------


def test_size_specs():
    assert vectors.parse_sizes("0-64,257,1000:2000:7", 10**6, 10**6) == (
        list(range(65)) + [257] + list(range(1000, 2001, 7)))
    assert vectors.parse_sizes(" 5, 1-3 ,2:4", 100, 100) == [5, 1, 2, 3, 4]
    for spec, fragment in (("", "is not"), ("a", "is not"), ("-3", "is not"), ("1e3", "is not"),
                           ("5-3", "empty"), ("1:10:0", "empty"), ("101", "above 100"),
                           ("0-99999999999999999999999", "is not"), ("0-50,60-99", "more than 90")):
        with pytest.raises(vectors.UsageError, match=fragment):
            vectors.parse_sizes(spec, 100, 90)


@pytest.mark.parametrize("op", sorted(vectors.WINDOW_OPS))
def test_new_window_files_pass_strictly(tmp_path, capsys, op):
    path = tmp_path / "new.json"
    status, out, err = cli(capsys, "cases", "--new", op.removeprefix("ai.onnx."), "--sizes", "0-3,16,20:40:10",
                           "--dtypes", "all", "-o", path)
    assert status == 0 and err == "" and out.startswith(f"wrote {path}: 192 case(s), filled 192 output(s)")
    loaded = cases.load_case_file(path)
    assert {(c.outputs[0].dtype, int(c.inputs[0]), c.attrs["periodic"]) for c in loaded.cases} == {
        (d, s, p) for d in FLOATS + INTEGERS for s in (0, 1, 2, 3, 16, 20, 30, 40) for p in (0, 1)}
    for case in loaded.cases:
        assert case.outputs[0].tolerance == 0 and same_bits(case.outputs[0].expected, reference_output(op, case))
    results = cases.run_file(path, strict=True, impl=None)  # crtrig itself
    assert all(r.status == "PASS" for r in results), [r.line() for r in results if r.status != "PASS"]
    status, out, _ = cli(capsys, "cases", "--new", op, "--sizes", "5", "--dtypes", "bfloat16,int8",
                         "--periodic", "no", "-o", path)
    assert status == 0 and [c.name for c in cases.load_case_file(path).cases] == [
        "symmetric_bfloat16_size5", "symmetric_int8_size5"]


@pytest.mark.parametrize("op", ["ai.onnx.Sin", "ai.onnx.Cos"])
def test_new_trig_files_pass_strictly(tmp_path, capsys, op):
    func = vectors.TRIG_OPS[op]
    path = tmp_path / "new.json"
    status, out, err = cli(capsys, "cases", "--new", func.upper(), "--classes", "special,hard,random:200",
                           "--dtypes", "all", "-o", path)
    assert status == 0 and err == "", err
    loaded = cases.load_case_file(path)
    by_name = {case.name: case for case in loaded.cases}
    assert sorted(by_name) == sorted(f"{d}_{c}" for d in FLOATS for c in ("special", "hard", "random"))
    for name, case in by_name.items():
        dtype = case.outputs[0].dtype
        info = reference.FLOAT_FORMATS[dtype]
        x = case.inputs[0].view(info.bits_dtype)
        assert same_bits(case.outputs[0].expected, reference.trig(func, case.inputs[0])), name
        has_nan = bool(np.any((x & (info.sign_bit - 1)) >= info.inf_bits))
        assert case.outputs[0].allow_nan == has_nan and case.outputs[0].tolerance == 0
        if name.endswith("_hard"):
            hard = [reference.float_to_bits(float.fromhex(t), dtype) for t, _ in _hard_inputs.HARD_INPUTS[func][dtype]]
            assert sorted(x.tolist()) == sorted(hard + [b | info.sign_bit for b in hard])
        if name.endswith("_special"):
            assert has_nan and {0, info.sign_bit, info.inf_bits, 1, (1 << (info.precision - 1)) - 1,
                                info.inf_bits - 1} <= set(x.tolist())
        if name.endswith("_random"):
            assert x.size == 200 and len(set(x.tolist())) > 150
    results = cases.run_file(path, strict=True, impl=None)
    assert {r.case for r in results if r.case.startswith("float64")} == {"float64_special", "float64_hard",
                                                                         "float64_random"}
    assert all(r.status == "PASS" for r in results), [r.line() for r in results]
    # the seed decides the random inputs, the same for sin and cos
    again, other_seed, other_op = (tmp_path / n for n in ("again.json", "seed.json", "op.json"))
    cli(capsys, "cases", "--new", op, "--classes", "random:20", "--dtypes", "float32", "-o", again)
    cli(capsys, "cases", "--new", op, "--classes", "random:20", "--dtypes", "float32", "--seed", "1", "-o", other_seed)
    cli(capsys, "cases", "--new", "cos" if func == "sin" else "sin", "--classes", "random:20", "--dtypes", "float32",
        "-o", other_op)
    inputs = [json.loads(p.read_text())["cases"][0]["inputs"] for p in (again, other_seed, other_op)]
    assert inputs[0] != inputs[1] and inputs[0] == inputs[2]


def test_new_trig_from_npy_inputs(tmp_path, capsys):
    x32 = np.array([[0.5, -0.0, np.inf], [np.nan, 1e-40, 3e38]], dtype=np.float32)
    xbf = np.array([1.5, -2.0, 1e30], dtype=ml_dtypes.bfloat16)  # np.save stores it as V2
    for name, array in (("x32.npy", x32), ("xbf.npy", xbf)):
        np.save(tmp_path / name, array)
        path = tmp_path / f"{name}.json"
        status, _, err = cli(capsys, "cases", "--new", "Sin", "--inputs", tmp_path / name, "-o", path)
        assert status == 0 and err == ""
        (case,) = cases.load_case_file(path).cases
        info = reference.FLOAT_FORMATS[reference.format_name(array.dtype)]
        assert case.name == f"{info.name}_inputs" and case.inputs[0].shape == array.shape
        got_bits = case.inputs[0].view(info.bits_dtype)
        want_bits = array.view(info.bits_dtype)
        nan = np.isnan(array.astype(np.float64))
        assert np.array_equal(got_bits[~nan], want_bits[~nan]) and np.all(np.isnan(case.inputs[0][nan].astype(float)))
        assert case.outputs[0].allow_nan == bool(np.any(~np.isfinite(array.astype(np.float64))))
        assert all(r.status == "PASS" for r in cases.run_file(path, strict=True, impl=None))
    np.save(tmp_path / "ints.npy", np.arange(3, dtype=np.int32))
    np.save(tmp_path / "objects.npy", np.array([1.5, None], dtype=object), allow_pickle=True)
    # a header above numpy's 10,000 bytes: numpy's message has three lines; one here
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }".ljust(20000 - 11) + "\n"
    (tmp_path / "big_header.npy").write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little")
                                              + header.encode() + bytes(8))
    for name, fragment in (("ints.npy", "dtype int32"), ("objects.npy", "cannot read .npy"),
                           ("big_header.npy", "cannot read .npy: Header info length")):
        status, out, err = cli(capsys, "cases", "--new", "Sin", "--inputs", tmp_path / name, "-o", tmp_path / "o.json")
        assert status == 2 and out == "" and fragment in err and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("arguments, fragment", [
    (("--new", "KaiserWindow", "--sizes", "3", "--dtypes", "all"), "unknown op"),
    (("--new", "HannWindow", "--dtypes", "all"), "needs --sizes"),
    (("--new", "HannWindow", "--sizes", "3"), "needs --dtypes"),
    (("--new", "HannWindow", "--sizes", "3", "--dtypes", "float8"), "is not one of"),
    (("--new", "HannWindow", "--sizes", "3", "--dtypes", "all", "--classes", "hard"), "applies to Sin, Cos and Tan"),
    (("--new", "HannWindow", "--sizes", "3", "--dtypes", "all", "--seed", "1"), "--seed applies to Sin, Cos and Tan"),
    (("--new", "Sin", "--dtypes", "all"), "needs --classes or --inputs"),
    (("--new", "Sin", "--classes", "hard,weird", "--dtypes", "all"), "is not one of special"),
    (("--new", "Sin", "--classes", "random", "--dtypes", "all"), "is not one of special"),
    (("--new", "Sin", "--classes", "random:0", "--dtypes", "all"), "positive"),
    (("--new", "Sin", "--classes", "random:10000000", "--dtypes", "all"), "more than"),
    (("--new", "Sin", "--classes", "hard", "--dtypes", "int8"), "is not one of"),
    (("--new", "Cos", "--classes", "hard", "--dtypes", "all", "--periodic", "yes"), "applies to windows"),
    (("--new", "HannWindow", "--sizes", "1000000", "--dtypes", "all"), "--max-file-size"),
    (("--new", "HannWindow", "--sizes", "3", "--dtypes", "all", "--seed", "-1"), "non-negative"),
    # a name list that repeats an item is refused, as --classes (and compare's lists) do
    (("--new", "HannWindow", "--sizes", "3", "--dtypes", "int8,float32,int8"), "--dtypes names int8 twice"),
    (("--new", "Sin", "--classes", "hard", "--dtypes", "float16, float16"), "--dtypes names float16 twice"),
])
def test_new_argument_errors_are_one_line(tmp_path, capsys, arguments, fragment):
    status, out, err = cli(capsys, "cases", *arguments, "-o", tmp_path / "o.json")
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and fragment in err, err
    assert not (tmp_path / "o.json").exists()


# ---------------------------------------------------------------------------
# What --fill writes and prints
# ---------------------------------------------------------------------------

#: Names the filler must not write raw: a terminal acts on them (ESC, C1 CSI, DEL, bidi
#: override, line separator) or UTF-8 cannot hold them (a lone surrogate).
UNPRINTABLE_NAMES = ["esc\x1b[2J", "csi\u009b2J", "del\x7f", "bidi\u202e", "line\u2028sep", "\ud800",
                     "tag\U000e0041", "plain é π"]


def test_fill_writes_only_printable_text_and_prints_the_output_path_safely(tmp_path):
    """--fill wrote C1 controls, DEL, bidi overrides and line separators raw into the JSON
    (json.dumps(ensure_ascii=False) escapes only C0); its "wrote PATH" line died with
    UnicodeEncodeError on a path it cannot print, after writing.  Now every character that is
    not printable is a \\\\u escape in the file (the names read back unchanged), and the path
    is quoted."""
    import subprocess
    import sys

    source = tmp_path / "in.json"
    source.write_text(json.dumps({"op": "ai.onnx.HannWindow", "provenance\x1b": "by\u009bhand",
                                  "cases": [window_case(name, 4, "float32", True) for name in UNPRINTABLE_NAMES]}))
    target = os.fsencode(tmp_path) + b"/out\xff\x1b.json"  # not UTF-8: decoded with surrogateescape
    completed = subprocess.run([sys.executable, "-m", "crtrig", "cases", "--fill", str(source), "-o", target],
                               capture_output=True, timeout=120, env=dict(os.environ, PYTHONIOENCODING="utf-8:strict"))
    assert completed.returncode == 0 and completed.stderr == b"", completed
    out = completed.stdout.decode("utf-8")
    assert len(out.splitlines()) == 1 and all(ch.isprintable() for ch in out.rstrip("\n")), out
    assert out.startswith("wrote ") and "\\udcff\\x1b.json" in out, out
    text = open(target, "rb").read().decode("utf-8")
    assert all(ch.isprintable() or ch in "\n" for ch in text), [ch for ch in text if not ch.isprintable()][:5]
    assert "plain é π" in text  # printable non-ASCII stays as it is
    document = json.loads(text)
    assert [case["name"] for case in document["cases"]] == UNPRINTABLE_NAMES
    assert document["provenance\x1b"] == "by\u009bhand"
    assert all(case.outputs[0].expected is not None for case in cases.load_case_file(target).cases)


# ---------------------------------------------------------------------------
# The size of a filled file, bounded before anything is computed
# ---------------------------------------------------------------------------

def _long_token_patterns(fmt_name: str) -> np.ndarray:
    """Negative bit patterns of every binade where the longest tokens live: the
    subnormals and smallest normals (3-digit exponents), values near 10^-4 and 10^15
    (the ends of repr's positional range), the largest ones; every pattern of those
    binades for the 16-bit types, a seeded sample for float32/float64."""
    fmt = reference.FLOAT_FORMATS[fmt_name]
    mantissa_bits = fmt.precision - 1
    exponents = set(range(4)) | set(range(fmt.inf_bits >> mantissa_bits))
    if fmt.width > 16:
        top = fmt.inf_bits >> mantissa_bits
        bias = top // 2
        keep = {e for e in exponents if e < 4 or e > top - 4 or abs(e - bias + 14) <= 2
                or abs(e - bias - 50) <= 2 or abs(e - bias - 53) <= 1}
        exponents = keep | set(random.Random(fmt_name).sample(sorted(exponents), 40))
    rng = random.Random(7)
    patterns = []
    for exponent in sorted(exponents):
        if fmt.width == 16:
            mantissas = range(1 << mantissa_bits)
        else:
            mantissas = [0, 1, (1 << mantissa_bits) - 1] + [rng.getrandbits(mantissa_bits) for _ in range(60)]
        patterns += [fmt.sign_bit | (exponent << mantissa_bits) | m for m in mantissas]
    return np.array(patterns, dtype=np.uint64).astype(fmt.bits_dtype)


@pytest.mark.parametrize("fmt_name", FLOATS)
def test_max_value_bytes_is_the_longest_token_plus_its_separator(fmt_name):
    """The filler's bound per value, measured: no token of the format is longer than
    MAX_VALUE_BYTES - 2 (", " follows each), and the longest ones reach it."""
    fmt = reference.FLOAT_FORMATS[fmt_name]
    patterns = np.concatenate([_long_token_patterns(fmt_name),
                               np.array([fmt.nan_bits, fmt.inf_bits, fmt.inf_bits | fmt.sign_bit], fmt.bits_dtype)])
    longest = max(len(token) for token in vectors.value_tokens(patterns.view(fmt.dtype)))
    assert longest + len(", ") == vectors.MAX_VALUE_BYTES[fmt_name]


def test_max_value_bytes_of_the_integer_types():
    for name in INTEGERS:
        info = np.iinfo(name)
        longest = max(len(token) for token in vectors.value_tokens(np.array([info.min, info.max], name)))
        assert longest + len(", ") == vectors.MAX_VALUE_BYTES[name]


def _refuse_to_compute(monkeypatch):
    """Make every exact computation of --fill and --new an error: refusals must come first."""
    def boom(*args, **kwargs):
        raise AssertionError("computed before refusing")

    for op in cases.OPS.values():
        monkeypatch.setattr(op, "reference_at", boom)
    monkeypatch.setattr(vectors, "values_array_token", boom)
    monkeypatch.setattr(vectors, "dump_json", boom)


@pytest.mark.parametrize("size, dtype, max_bytes", [
    (8_388_608, "float64", cases.DEFAULT_MAX_FILE_BYTES),  # passed the 5-bytes-a-value pre-check: 8 min, 4 GB
    (10**6, "float64", 10_000_000),  # the 266-byte file: 54 s and 493 MB before the refusal
    (3_000_000, "float32", 40_000_000),
    (6_000_000, "float16", 64_000_000),
])
def test_fill_refuses_an_oversized_output_before_computing_anything(tmp_path, capsys, monkeypatch, size, dtype,
                                                                    max_bytes):
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"op": "ai.onnx.HannWindow", "cases": [window_case("w", size, dtype, True)]}))
    assert len(path.read_bytes()) < 300
    _refuse_to_compute(monkeypatch)
    status, out, err = cli(capsys, "cases", "--fill", path, "-o", tmp_path / "out.json", "--max-file-size", max_bytes)
    assert status == 2 and out == "" and len(err.splitlines()) == 1, err
    assert "could take up to" in err and f"more than the limit of {max_bytes}" in err, err
    assert not (tmp_path / "out.json").exists()


def _refusal_bound(text: str, path: str) -> int:
    with pytest.raises(cases.MalformedCaseFile) as info:
        vectors.fill_text(text, path, max_file_bytes=1)
    return int(re.search(r"could take up to (\d+) bytes", str(info.value)).group(1))


def test_the_fill_bound_holds_and_is_the_limit_that_is_accepted(tmp_path):
    """The bound is an upper bound of the filled file's size (so a file that passes the
    check is never refused after the work): exact for the structure, the longest token of
    the type per value; a limit equal to the bound is accepted."""
    files = unfilled_files(tmp_path)
    documents = [path.read_text() for path in files.values()]
    documents.append(json.dumps({"op": "ai.onnx.HannWindow", "provenance": {"deep": [[[["x"], {"é": [1, [2]]}]]]},
                                 "cases": [window_case(f"w{dtype}", 300, dtype, False) for dtype in FLOATS + INTEGERS]}))
    documents.append(json.dumps({"op": "ai.onnx.Sin", "cases": [
        {"name": "n\u2028\x1b", "inputs": {"x": {"dtype": "float64", "shape": [0], "data": {"kind": "values", "values": []}}},
         "outputs": {"y": {"dtype": "float64", "shape": [0]}}}]}))
    for text in documents:
        filled, summary = vectors.fill_text(text, "in.json")
        bound = _refusal_bound(text, "in.json")
        assert summary.nbytes <= bound, (summary.nbytes, bound)
        assert vectors.fill_text(text, "in.json", max_file_bytes=bound)[0] == filled
        # windows' integer outputs are 0 or 1: three bytes a value, not the type's 22
        assert bound - summary.nbytes <= 10 * summary.values_filled + 100, (bound, summary)


def test_fill_sizes_the_rewritten_structure_before_writing_it(tmp_path, capsys, monkeypatch):
    """Re-indentation can make a small file large (a member 400 levels deep takes 800
    spaces a line): its size is computed, not the text, before refusing."""
    nested = [[[0]]] * 20_000  # members that are not flat: one line each
    for _ in range(400):
        nested = [nested, [[0]]]
    text = json.dumps({"op": "ai.onnx.HannWindow", "provenance": nested, "cases": [window_case("w", 4, "float32", True)]})
    path = tmp_path / "deep.json"
    path.write_text(text)
    assert len(text) < 200_000
    _refuse_to_compute(monkeypatch)
    status, out, err = cli(capsys, "cases", "--fill", path, "-o", tmp_path / "out.json", "--max-file-size", 10**7)
    assert status == 2 and "could take up to" in err and len(err.splitlines()) == 1, err
    monkeypatch.undo()
    assert vectors._dump_size(json.loads(text), 0) == len(vectors.dump_json(json.loads(text)).encode()) - 1


@pytest.mark.parametrize("arguments", [
    ("--new", "HannWindow", "--sizes", "8388608", "--dtypes", "float64", "--periodic", "yes"),
    ("--new", "Sin", "--classes", "random:3000000", "--dtypes", "float64"),
    ("--new", "Cos", "--classes", "special,random:1500000", "--dtypes", "float32,float64"),
])
def test_new_refuses_an_oversized_file_before_computing_anything(tmp_path, capsys, monkeypatch, arguments):
    _refuse_to_compute(monkeypatch)
    status, out, err = cli(capsys, "cases", *arguments, "-o", tmp_path / "o.json")
    assert status == 2 and out == "" and len(err.splitlines()) == 1, err
    assert "could take up to" in err and "--max-file-size" in err, err


def test_new_refuses_oversized_inputs_before_computing_anything(tmp_path, capsys, monkeypatch):
    np.save(tmp_path / "x.npy", np.linspace(-3, 3, 200_000))  # 1.6 MB of float64
    _refuse_to_compute(monkeypatch)
    status, out, err = cli(capsys, "cases", "--new", "Sin", "--inputs", tmp_path / "x.npy", "-o", tmp_path / "o.json",
                           "--max-file-size", 10_000_000)
    assert status == 2 and out == "" and "could take up to" in err and len(err.splitlines()) == 1, err
