"""tools/native_peers.py (the C harness timing SLEEF, glibc's libmvec and libm) and
``crtrig bench --native-peers FILE``, at tiny sizes (never the timings themselves).

The harness is built and run here (glibc's libmvec and libm are always there on
x86-64 Linux; SLEEF where libsleef is installed): its libm outputs must be the
bits Python's math.sin/math.cos give (the same libm), and its not-CR counts the
number of those bits that differ from crtrig's correctly rounded results."""

from __future__ import annotations

import json
import math
import os
import platform
import re
import shutil
import sys

import numpy as np
import pytest

import crtrig
from crtrig import bench
from crtrig.__main__ import main
from report_tables import markdown_tables

TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools")
sys.path.insert(0, TOOLS)
import native_peers  # noqa: E402

SIZE = 256
TINY = ["--quick", "--trig-size", str(SIZE), "--window-sizes", "10", "--rounds", "2", "--min-sample-ms", "1"]
NUMBER = r"\d+(?:\.\d+)?(?:e[+-]\d+)?"
X86_64_LINUX = sys.platform.startswith("linux") and platform.machine() in ("x86_64", "AMD64")


@pytest.fixture(scope="module")
def harness_file(tmp_path_factory):
    if not X86_64_LINUX:
        pytest.skip("the harness calls glibc's x86-64 libmvec")
    path = tmp_path_factory.mktemp("native") / "native.json"
    status = native_peers.main(["--json", str(path), "--trig-size", str(SIZE), "--rounds", "2",
                                "--min-sample-ms", "1", "--cc", os.environ.get("CC", shutil.which("cc") or "gcc")])
    assert status == 0
    return path


def test_harness_covers_every_float32_and_float64_row(harness_file):
    data = json.loads(harness_file.read_text(encoding="utf-8"))
    assert data["crtrig_native_peers"] == 1 and data["trig_size"] == SIZE
    keys = {(r["function"], r["dtype"], r["input"]) for r in data["rows"]}
    assert keys == {(f, d, i) for f in bench.TRIG_FUNCTIONS for d in ("float32", "float64")
                    for i in bench.INPUT_SETS}
    for row in data["rows"]:
        assert row["crtrig_checked"] == SIZE  # crtrig checked against the reference first
        assert {"libmvec", "libm"} <= set(row["peers"])
        assert ("sleef_u10" in row["peers"]) == data["sleef"]
        for entry in row["peers"].values():
            assert entry["ns_per_element"] > 0 and entry["q1"] <= entry["ns_per_element"] <= entry["q3"]
            assert 0 <= entry["not_cr"] <= SIZE and entry["not_cr_share"] == entry["not_cr"] / SIZE


def test_harness_outputs_and_not_cr_counts_are_right(harness_file, monkeypatch):
    """libm's float64 outputs are math.sin's / math.cos's bits (the same glibc libm), so the
    not-CR count must be the number of math results that differ from crtrig's."""
    data = json.loads(harness_file.read_text(encoding="utf-8"))
    rng = np.random.default_rng(bench.SEED)
    inputs = {dtype: bench.trig_inputs(dtype, SIZE, rng) for dtype in bench.TRIG_DTYPES}
    for row in data["rows"]:
        if row["dtype"] != "float64":
            continue
        x = inputs["float64"][row["input"]]
        libm = np.array([getattr(math, row["function"])(float(v)) for v in x])
        exact = getattr(crtrig, row["function"])(x)
        differ = int(np.count_nonzero(libm.view(np.uint64) != exact.view(np.uint64)))
        assert row["peers"]["libm"]["not_cr"] == differ, row["input"]


def test_ulp_distance():
    a = np.array([1.0, -0.0, 1.0, np.nan, np.nan, -1.0], dtype=np.float64)
    b = np.array([np.nextafter(1.0, 2.0), 0.0, 1.0, np.nan, 1.0, np.nextafter(-1.0, 0.0)])
    assert list(native_peers.ulp_distance(a, b)) == [1, 0, 0, 0, math.inf, 1]
    f = np.array([1.0, -2.0], dtype=np.float32)
    g = np.array([np.nextafter(np.float32(1), np.float32(0)), np.float32(-2)], dtype=np.float32)
    assert list(native_peers.ulp_distance(f, g)) == [1, 0]


def test_bench_shows_the_native_peers_against_crtrig_into_an_existing_array(harness_file, capsys, tmp_path):
    path = tmp_path / "bench.json"
    assert main(["bench", *TINY, "--peers", "numpy", "--native-peers", str(harness_file),
                 "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"--native-peers {harness_file}" in out
    assert "- native peers: timed by tools/native_peers.c" in out
    trig = next(rows for title, rows in markdown_tables(out) if title.startswith("sin and cos"))
    column = next(c for c in trig[0] if c.startswith("glibc libm scalar"))
    for row in trig:
        if row["dtype"] in ("float32", "float64"):
            assert float(row["crtrig out= ns/elem"]) > 0
            assert re.fullmatch(rf"{NUMBER} \({NUMBER}×; {NUMBER} % not CR\)", row[column]), row[column]
        else:
            assert row[column] == "-"
    data = json.loads(path.read_text(encoding="utf-8"))
    native = json.loads(harness_file.read_text(encoding="utf-8"))
    for row in data["rows"]:
        if row["section"] != "sin/cos" or row["dtype"] not in ("float32", "float64"):
            continue
        want = next(r for r in native["rows"] if (r["function"], r["dtype"], r["input"])
                    == (row["function"], row["dtype"], row["input"]))
        got = row["native"]["glibc libm scalar"]
        assert got["not_cr"] == want["peers"]["libm"]["not_cr"]
        ratio = row["speedup"]["glibc libm scalar"]
        assert ratio == pytest.approx(row["times"]["glibc libm scalar"]["median_s"]
                                      / row["times"]["crtrig out="]["median_s"])


def native_file(tmp_path, **changes):
    entry = {"name": "SLEEF u10", "isa": "avx2", "ns_per_element": 2.0, "q1": 1.9, "q3": 2.1,
             "calls_per_sample": 3, "not_cr": 1, "not_cr_share": 1 / SIZE, "max_ulp": 1.0}
    data = {"crtrig_native_peers": 1, "trig_size": SIZE, "sleef": True, "rows": [
        {"function": "sin", "dtype": "float64", "input": "[-π, π]", "peers": {"sleef_u10": entry}}]}
    data.update(changes)
    path = tmp_path / "native.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_written_file_is_read(tmp_path, capsys):
    assert main(["bench", *TINY, "--peers", "numpy", "--native-peers", str(native_file(tmp_path))]) == 0
    out = capsys.readouterr().out
    trig = next(rows for title, rows in markdown_tables(out) if title.startswith("sin and cos"))
    row = next(r for r in trig if (r["function"], r["dtype"], r["input"]) == ("sin", "float64", "[-π, π]"))
    cell = row["SLEEF u10 avx2 (speedup vs crtrig out=; not CR)"]
    assert cell.startswith("2 (") and cell.endswith("; 0.391 % not CR)")


@pytest.mark.parametrize("changes, message", [
    ({"trig_size": SIZE * 2}, f"made for {2 * SIZE:,} elements per call, this run uses {SIZE:,}"),
    ({"crtrig_native_peers": 2}, "not a tools/native_peers.py file"),
    ({"rows": [{"function": "tan", "dtype": "float64", "input": "[-π, π]", "peers": {}}]}, "unknown row"),
    ({"rows": [{"function": "sin"}]}, "not a tools/native_peers.py file (no 'dtype')"),
])
def test_a_file_that_does_not_fit_is_one_line_and_status_2(tmp_path, capsys, changes, message):
    with pytest.raises(SystemExit) as exc:
        main(["bench", *TINY, "--native-peers", str(native_file(tmp_path, **changes))])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err


@pytest.mark.parametrize("content, message", [(b"{", "not JSON"), (b"[]", "not a tools/native_peers.py file"),
                                              (b" " * (bench.MAX_NATIVE_BYTES + 1), "larger than")])
def test_a_file_that_is_not_one_is_refused_at_once(tmp_path, capsys, content, message):
    path = tmp_path / "native.json"
    path.write_bytes(content)
    with pytest.raises(SystemExit) as exc:
        main(["bench", *TINY, "--native-peers", str(path)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err


def test_a_missing_file_is_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["bench", *TINY, "--native-peers", str(tmp_path / "absent.json")])
    assert exc.value.code == 2
    assert "No such file" in capsys.readouterr().err
