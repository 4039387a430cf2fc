"""``crtrig grade CASES RESULTS``: grading another implementation against the
correctly rounded values (crtrig.grade)."""

from __future__ import annotations

import io
import json
import math
import zipfile

import ml_dtypes
import numpy as np
import pytest

import crtrig
from crtrig import cases, grade, reference

ONNX_CODE = {name: code for code, name in cases.ONNX_DATATYPES.items()}


def window_case(name, size, dtype="float32", periodic=True):
    return {"name": name, "attrs": {"periodic": int(periodic), "output_datatype": ONNX_CODE[dtype]},
            "inputs": {"size": {"dtype": "int64", "shape": [], "data": {"kind": "values", "values": [size]}}},
            "outputs": {"y": {"dtype": dtype, "shape": [size]}}}


def trig_case(name, values, dtype="float32", data=None):
    output = {"dtype": dtype, "shape": [len(values)], "allowNaN": True}
    if data is not None:
        output["data"] = {"kind": "values", "values": data}
    return {"name": name,
            "inputs": {"x": {"dtype": dtype, "shape": [len(values)], "data": {"kind": "values", "values": values}}},
            "outputs": {"y": output}}


def write(tmp_path, name, op, case_list):
    path = tmp_path / name
    path.write_text(json.dumps({"op": op, "cases": case_list}))
    return path


def run(cases_path, results_path, **options):
    out, err = io.StringIO(), io.StringIO()
    status = grade.run_cli(cases_path, results_path, out=out, err=err, **options)
    return status, out.getvalue(), err.getvalue()


def grades(cases_path, results, check_limit=cases.DEFAULT_CHECK_LIMIT):
    """Grade per case name, from a dict of result arrays (in process)."""
    case_file = cases.load_case_file(cases_path)
    return {case.name: grade.grade_case(case, [results[case.name]], case_file.label, check_limit)
            for case in case_file.cases}


def ort_like_hamming(size):
    """ONNX Runtime's float64 periodic Hamming window: computed in double, but
    with the coefficients 25/46 and 21/46 rounded to float32."""
    n = np.arange(size, dtype=np.float64)
    return np.float64(np.float32(25 / 46)) - np.float64(np.float32(21 / 46)) * np.cos(2 * np.pi * n / size)


def test_crtrig_results_grade_perfect(tmp_path):
    """crtrig's own outputs, through an .npz (bfloat16 stored as V2 by np.savez)."""
    window_cases = [window_case(f"{d}_{p}", 37, d, p) for d in ("float32", "bfloat16", "float64", "int8", "uint64")
                    for p in (True, False)]
    path = write(tmp_path, "hann.json", "ai.onnx.HannWindow", window_cases)
    arrays = {c["name"]: crtrig.hann_window(37, periodic=bool(c["attrs"]["periodic"]),
                                            dtype=c["outputs"]["y"]["dtype"]) for c in window_cases}
    np.savez(tmp_path / "crtrig.npz", **arrays)
    with zipfile.ZipFile(tmp_path / "crtrig.npz") as archive:  # what makes bfloat16 special
        assert b"'descr': '<V2'" in archive.read("bfloat16_True.npy")[:128]
    status, out, err = run(path, tmp_path / "crtrig.npz", max_ulp=0)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 11 and all("  PASS  checked 37 of 37  max_ulp=0  not_correctly_rounded=0% (0 of 37)" in line
                                    for line in lines[:-1])
    assert lines[-1] == ("10 case(s) graded: 370 elements checked, 0 not correctly rounded (0%), max_ulp=0; "
                         "0 case(s) above --max-ulp 0")
    # one bfloat16 element one ulp off: max_ulp 1, 1 of 37 wrong
    arrays["bfloat16_True"] = arrays["bfloat16_True"].copy()
    arrays["bfloat16_True"].view(np.uint16)[5] += 1
    result = grades(path, arrays)["bfloat16_True"]
    assert (result.max_ulp, result.wrong, result.checked) == (1, 1, 37)


def test_onnx_runtime_like_float64_hamming_grades_at_1_5e9_ulp(tmp_path):
    """The figure of issue 10, with numpy standing in for ONNX Runtime."""
    size = 100001
    path = write(tmp_path, "hamming.json", "ai.onnx.HammingWindow", [window_case("h", size, "float64")])
    np.savez(tmp_path / "ort_like.npz", h=ort_like_hamming(size))
    status, out, err = run(path, tmp_path / "ort_like.npz")
    assert status == 0 and err == ""
    result = grades(path, {"h": ort_like_hamming(size)})["h"]
    assert cases.DEFAULT_CHECK_LIMIT <= result.checked < cases.DEFAULT_CHECK_LIMIT + 20 and result.total == size
    assert 1.4e9 < result.max_ulp < 1.6e9 and result.wrong >= 0.999 * result.checked
    assert f"max_ulp={result.max_ulp}  not_correctly_rounded=99." in out
    status, out, _ = run(path, tmp_path / "ort_like.npz", max_ulp=10**9)
    assert status == 1 and "  FAIL  " in out and out.endswith("1 case(s) above --max-ulp 1000000000\n")


def onnxruntime_window(op, size, periodic, dtype):
    ort = pytest.importorskip("onnxruntime")  # in the test extra: present in CI
    helper = pytest.importorskip("onnx.helper")
    from onnx import TensorProto

    element = {"float64": TensorProto.DOUBLE}[dtype]
    node = helper.make_node(op, ["size"], ["y"], periodic=int(periodic), output_datatype=element)
    graph = helper.make_graph([node], "window", [helper.make_tensor_value_info("size", TensorProto.INT64, [])],
                              [helper.make_tensor_value_info("y", element, [None])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, {"size": np.array(size, dtype=np.int64)})[0]


def test_onnx_runtime_float64_hamming_reproduces_the_issue_figure(tmp_path):
    """ONNX Runtime's float64 periodic HammingWindow of size 100001: about
    1.5e9 ULP, (nearly) every element wrong."""
    size = 100001
    path = write(tmp_path, "hamming.json", "ai.onnx.HammingWindow", [window_case("f64", size, "float64")])
    np.savez(tmp_path / "ort.npz", f64=onnxruntime_window("HammingWindow", size, True, "float64"))
    status, out, err = run(path, tmp_path / "ort.npz")
    assert status == 0 and err == "", err
    f64 = grades(path, dict(np.load(tmp_path / "ort.npz")))["f64"]
    assert 1.4e9 < f64.max_ulp < 1.6e9 and f64.wrong >= 0.999 * f64.checked
    assert f"max_ulp={f64.max_ulp}  not_correctly_rounded=99.9" in out.splitlines()[0]


def test_nan_where_a_number_is_due_and_the_reverse_are_wrong(tmp_path):
    """Results from a case file with data; sin(inf) is NaN, sin(-0) is -0."""
    path = write(tmp_path, "sin.json", "ai.onnx.Sin", [trig_case("s", ["inf", "1", "2", "-0", "0.5"])])
    exact_half = float(reference.trig("sin", np.float32(0.5)))
    results = write(tmp_path, "results.json", "ai.onnx.Sin", [trig_case(
        "s", ["inf", "1", "2", "-0", "0.5"], data=["NaN", "0.8414709848", "NaN", "0", float(np.nextafter(np.float32(exact_half), np.float32(0)))])])
    status, out, err = run(path, results)
    assert status == 0 and err == ""
    assert "checked 5 of 5  max_ulp=inf  not_correctly_rounded=60% (3 of 5)  nan_mismatches=1" in out
    # the reverse: a number where NaN is due
    results.write_text(results.read_text().replace('"NaN", "0.8414709848", "NaN"', '"0", "0.84147096", "0.9092974"'))
    (result,) = grades(path, {"s": cases.load_case_file(results).cases[0].outputs[0].expected}).values()
    assert result.max_ulp == math.inf and result.nan_mismatches == 1 and result.wrong == 3  # inf, -0 vs 0, 1 ulp
    status, _, _ = run(path, results, max_ulp=10**9)
    assert status == 1


def test_integer_outputs_grade_by_the_integer_difference(tmp_path):
    path = write(tmp_path, "w.json", "ai.onnx.HannWindow", [window_case("u64", 9, "uint64"), window_case("i8", 9, "int8")])
    exact = {"u64": reference.window("hann", 9, True, "uint64"), "i8": reference.window("hann", 9, True, "int8")}
    wrong = {"u64": exact["u64"].copy(), "i8": exact["i8"].copy()}
    wrong["u64"][0] = 2**64 - 1  # no wraparound: the difference is 2^64 - 1
    wrong["i8"][2:5] = -128
    result = grades(path, wrong)
    assert (result["u64"].max_ulp, result["u64"].wrong) == (2**64 - 1, 1)
    assert (result["i8"].max_ulp, result["i8"].wrong) == (128, 3)


def test_sampling_beyond_the_check_limit_and_all(tmp_path):
    size = 5000
    path = write(tmp_path, "w.json", "ai.onnx.HannWindow", [window_case("w", size, "float32")])
    case = cases.load_case_file(path).cases[0]
    sampled = set(cases.checked_indices(size, 256, cases._window_exact_points(case, 0)).tolist())
    unsampled = next(n for n in range(size // 3, size) if n not in sampled)
    results = crtrig.hann_window(size)
    results[unsampled] = np.nextafter(results[unsampled], np.float32(2))
    np.savez(tmp_path / "r.npz", w=results)
    status, out, _ = run(path, tmp_path / "r.npz", check_limit=256, max_ulp=0)
    assert status == 0 and "max_ulp=0" in out and f"checked {len(sampled)} of {size}" in out
    status, out, _ = run(path, tmp_path / "r.npz", check_limit=None, max_ulp=0)
    assert status == 1 and f"checked {size} of {size}  max_ulp=1  not_correctly_rounded=0.02% (1 of {size})" in out
    results[unsampled] = np.nan  # NaN and inf results are always looked at
    np.savez(tmp_path / "r.npz", w=results)
    status, out, _ = run(path, tmp_path / "r.npz", check_limit=256)
    assert f"checked {len(sampled) + 1} of {size}  max_ulp=inf" in out and "nan_mismatches=1" in out


def test_results_that_do_not_fit_the_cases_are_malformed(tmp_path):
    path = write(tmp_path, "w.json", "ai.onnx.HannWindow", [window_case("a", 8), window_case("b", 4, "bfloat16")])
    good = {"a": crtrig.hann_window(8), "b": crtrig.hann_window(4, dtype="bfloat16")}

    def npz(name, **arrays):
        target = tmp_path / name
        np.savez(target, **arrays)
        return target

    truncated = tmp_path / "truncated.npz"
    with zipfile.ZipFile(truncated, "w") as archive:
        buffer = io.BytesIO()
        np.save(buffer, good["a"])
        archive.writestr("a.npy", buffer.getvalue()[:-4])
        buffer = io.BytesIO()
        np.save(buffer, good["b"])
        archive.writestr("b.npy", buffer.getvalue())
    other_op = write(tmp_path, "sin.json", "ai.onnx.Sin", [trig_case("a", ["1"])])
    no_data = write(tmp_path, "no_data.json", "ai.onnx.HannWindow", [window_case("a", 8), window_case("b", 4, "bfloat16")])
    not_results = tmp_path / "x.txt"
    not_results.write_text("not json")
    cases_of = {  # results: message fragment
        npz("missing.npz", a=good["a"]): "no array for case 'b'",
        npz("dtype.npz", a=good["a"].astype(np.float64), b=good["b"]): "array 'a': dtype float64, want float32",
        npz("uint16.npz", a=good["a"], b=good["b"].view(np.uint16)): "array 'b': dtype uint16, want bfloat16",
        npz("shape.npz", a=good["a"][:7], b=good["b"]): "array 'a': shape [7], want [8]",
        npz("shape2.npz", a=good["a"].reshape(2, 4), b=good["b"]): "array 'a': shape [2, 4], want [8]",
        npz("objects.npz", a=np.array([None] * 8, dtype=object), b=good["b"]): "array 'a': dtype object",
        truncated: "array 'a': truncated",
        other_op: "op ai.onnx.Sin, want ai.onnx.HannWindow",
        no_data: "output 'y': no data",
        not_results: "invalid JSON",
        tmp_path / "absent.npz": "cannot read file",
        tmp_path: "not a regular file",
    }
    for results, fragment in cases_of.items():
        status, out, err = run(path, results)
        assert status == 2 and out == "" and len(err.splitlines()) == 1 and fragment in err, (results, err)
        assert err.startswith("crtrig grade: error: ")
    big_endian = npz("big_endian.npz", a=good["a"].astype(">f4"), b=good["b"])
    status, out, err = run(path, big_endian, max_ulp=0)
    assert status == 0 and err == "", err


def _patch_zip_member(source, target, member, local_offset, central_offset, value):
    """Copy the zip `source` to `target`, writing the little-endian uint16 `value` at
    `local_offset` of `member`'s local header and `central_offset` of its central
    directory entry (6 and 8: the flag bits; 8 and 10: the compression method)."""
    data = bytearray(source.read_bytes())
    name = member.encode()
    for signature, name_length_at, name_at, offset in ((b"PK\x03\x04", 26, 30, local_offset),
                                                       (b"PK\x01\x02", 28, 46, central_offset)):
        start, patched = 0, 0
        while (start := data.find(signature, start)) >= 0:
            length = int.from_bytes(data[start + name_length_at:start + name_length_at + 2], "little")
            if data[start + name_at:start + name_at + length] == name:
                data[start + offset:start + offset + 2] = value.to_bytes(2, "little")
                patched += 1
            start += 4
        assert patched == 1, (signature, member)
    target.write_bytes(bytes(data))
    return target


def test_unreadable_npz_members_are_one_line_and_exit_2(tmp_path, capsys):
    """An encrypted member (RuntimeError), compression method 93 or 99 (NotImplementedError),
    a corrupt deflate stream (zlib.error) made a traceback and exit status 1 (which means
    "above --max-ulp"); a .npy header above numpy's 10,000 bytes a two-line message.
    Each is now one line naming the array, exit status 2."""
    from crtrig.__main__ import main as cli_main

    path = write(tmp_path, "w.json", "ai.onnx.HannWindow", [window_case("a", 8), window_case("b", 4)])
    good = tmp_path / "good.npz"
    np.savez(good, a=crtrig.hann_window(8), b=crtrig.hann_window(4))
    corrupt_cases = write(tmp_path, "big.json", "ai.onnx.HannWindow", [window_case("a", 4096), window_case("b", 4)])
    compressed = tmp_path / "compressed.npz"
    np.savez_compressed(compressed, a=crtrig.hann_window(4096), b=crtrig.hann_window(4))
    corrupt = bytearray(compressed.read_bytes())
    with zipfile.ZipFile(compressed) as archive:
        info = archive.getinfo("a.npy")
    local_extra = int.from_bytes(corrupt[info.header_offset + 28:info.header_offset + 30], "little")
    middle = info.header_offset + 30 + len(info.filename) + local_extra + info.compress_size // 2
    corrupt[middle:middle + 4] = b"\x00\xff\x00\xff"  # past the .npy header: zlib.error in the data
    (tmp_path / "corrupt.npz").write_bytes(bytes(corrupt))
    big_header = tmp_path / "big_header.npz"
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (8,), }".ljust(20000 - 11) + "\n"
    with zipfile.ZipFile(big_header, "w") as archive:
        archive.writestr("a.npy", b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode()
                         + crtrig.hann_window(8).tobytes())
        archive.writestr("b.npy", b"")
    results = {
        _patch_zip_member(good, tmp_path / "encrypted.npz", "a.npy", 6, 8, 1): "array 'a'",
        _patch_zip_member(good, tmp_path / "zstd.npz", "b.npy", 8, 10, 93): "array 'b'",
        _patch_zip_member(good, tmp_path / "aes.npz", "a.npy", 8, 10, 99): "array 'a'",
        big_header: "array 'a': cannot read its header",
        tmp_path / "corrupt.npz": "array 'a'",
    }
    for results_path, fragment in results.items():
        if results_path.name == "corrupt.npz":
            path = corrupt_cases
        status, out, err = run(path, results_path)
        assert status == 2 and out == "" and len(err.splitlines()) == 1, (results_path.name, err)
        assert err.startswith(f"crtrig grade: error: {results_path}: {fragment}"), err
        assert len(err) < 400, err
        # and through the command line, with --max-ulp (whose exit status 1 a traceback imitated)
        assert cli_main(["grade", str(path), str(results_path), "--max-ulp", "0"]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and len(captured.err.splitlines()) == 1, captured.err
    assert run(tmp_path / "w.json", good)[0] == 0


def test_case_names_are_quoted_when_they_cannot_be_printed_as_they_are(tmp_path):
    """A lone surrogate in a case name made `grade` die with UnicodeEncodeError, ESC reached
    the terminal, a newline split a line: such names are quoted (as repr() quotes them)."""
    import os
    import subprocess
    import sys

    names = {"plain": "plain", "\ud800": "'\\ud800'", "esc\x1b[2J": "'esc\\x1b[2J'", "new\nline": "'new\\nline'"}
    sin_half = crtrig.sin(np.array([0.5], np.float32))[0]
    path = write(tmp_path, "names.json", "ai.onnx.Sin", [trig_case(name, ["0.5"]) for name in names])
    results = write(tmp_path, "results.json", "ai.onnx.Sin",
                    [trig_case(name, ["0.5"], data=[repr(float(sin_half))]) for name in names])
    completed = subprocess.run([sys.executable, "-m", "crtrig", "grade", str(path), str(results), "--max-ulp", "0"],
                               capture_output=True, timeout=120, env=dict(os.environ, PYTHONIOENCODING="utf-8:strict"))
    assert completed.returncode == 0, completed.stderr.decode(errors="replace")[-2000:]
    out = completed.stdout.decode("utf-8")
    assert all(ch.isprintable() or ch == "\n" for ch in out), out
    lines = out.splitlines()
    assert len(lines) == len(names) + 1
    for line, shown in zip(lines, names.values()):
        assert line.startswith(f"names.json  {shown}  PASS  checked 1 of 1  max_ulp=0"), (line, shown)
    # a case missing from RESULTS, named by a lone surrogate: the error quotes it
    status, out, err = run(path, write(tmp_path, "short.json", "ai.onnx.Sin", [trig_case("plain", ["0.5"], data=["0"])]))
    assert status == 2 and "no case '\\ud800'" in err and len(err.splitlines()) == 1, err
