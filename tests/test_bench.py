"""python -m crtrig bench: the report's format and its JSON, at tiny sizes with a
fixed number of rounds and a short minimum sample (never the timings
themselves); how a contender is timed (samples of repeated calls, the same for
every contender), on a fake clock; the float64 rows with and without crtrig's
float64 loop; the all-threads column with and without a thread pool; that a
wrong or unwritten crtrig output is caught by the check; peers that are
missing; --plot (its title and legends); --help's durations; argument errors."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import types

import ml_dtypes
import numpy as np
import pytest

import crtrig
from crtrig import bench, reference
from crtrig.__main__ import main
from report_tables import markdown_tables

TINY = ["--quick", "--trig-size", "64", "--window-sizes", "10,300", "--rounds", "2", "--min-sample-ms", "1"]
TRIG_ROWS = len(bench.TRIG_FUNCTIONS) * len(bench.TRIG_DTYPES) * len(bench.INPUT_SETS)  # 24
PARAM_WINDOWS = bench.scipy_windows()  # crtrig.compare.SCIPY_WINDOWS: gaussian, kaiser, the cosine windows, ...
WINDOW_ROWS = 2 * (len(bench.WINDOW_DTYPES) * len(bench.WINDOW_KINDS) + len(bench.SCIPY_WINDOW_KINDS)
                   + len(PARAM_WINDOWS) + 1)  # at two sizes; + 1: the KBD row
PI_ROWS = len(bench.TRIGPI_FUNCTIONS) * len(bench.TRIGPI_DTYPES) * len(bench.TRIGPI_INPUT_SETS)  # 8
TAN_ROWS = len(bench.TAN_DTYPES) * sum(len(v) for v in bench.TAN_INPUT_SETS.values())  # 8
STORE_ROWS = 2 * len(bench.WINDOW_DTYPES)  # 4
SMALL_ROWS = len(bench.SMALL_CALLS)  # 9
NUMBER = r"\d+(?:\.\d+)?(?:e[+-]\d+)?"
TIME_CELL = re.compile(rf"^{NUMBER}$")
RATIO_CELL = re.compile(rf"^{NUMBER} \({NUMBER}×\)$")


def tables(text: str) -> dict[str, list[dict[str, str]]]:
    """The markdown tables of a report, by the section heading above them (one each)."""
    found = markdown_tables(text)
    sections = [section for section, _ in found]
    assert len(set(sections)) == len(sections), f"two tables under one section: {sections}"
    return dict(found)


def run_bench(capsys, tmp_path, *extra, status=0):
    """Run `python -m crtrig bench` in this process; (stdout, stderr, JSON data)."""
    path = tmp_path / "bench.json"
    assert main(["bench", *TINY, "--json", str(path), *extra]) == status
    captured = capsys.readouterr()
    return captured.out, captured.err, json.loads(path.read_text(encoding="utf-8"))


def pi_section(text):
    return next(rows for title, rows in tables(text).items() if title.startswith("sinpi and cospi"))


def by_section(text):
    found = tables(text)
    trig = next(rows for title, rows in found.items() if title.startswith("sin and cos"))
    windows = next(rows for title, rows in found.items() if title.startswith("Windows"))
    store = next(rows for title, rows in found.items() if title.startswith("The store limit"))
    return trig, windows, store


def fake_pool(monkeypatch, count=3):
    """crtrig.set_num_threads/get_num_threads as the thread pool will have them."""
    state = {"threads": count, "calls": []}

    def set_num_threads(n):
        state["calls"].append(n)
        state["threads"] = n

    monkeypatch.setattr(crtrig, "set_num_threads", set_num_threads, raising=False)
    monkeypatch.setattr(crtrig, "get_num_threads", lambda: state["threads"], raising=False)
    return state


def no_pool(monkeypatch):
    monkeypatch.delattr(crtrig, "set_num_threads", raising=False)
    monkeypatch.delattr(crtrig, "get_num_threads", raising=False)


def with_float64_loop(monkeypatch):
    """crtrig.sin/cos with a float64 loop (the exact reference stands in for it
    until the C core has one): the bench must time and check it."""
    for name in ("sin", "cos"):
        real = getattr(crtrig, name)

        def ufunc(x, *args, _real=real, _name=name, **kwargs):
            if isinstance(x, np.ndarray) and x.dtype == np.float64:
                return reference.trig(_name, x)
            return _real(x, *args, **kwargs)
        monkeypatch.setattr(crtrig, name, ufunc)


def without_float64_loop(monkeypatch):
    """crtrig.sin/cos as they are before the float64 loop: TypeError for float64."""
    for name in ("sin", "cos"):
        real = getattr(crtrig, name)

        def ufunc(x, *args, _real=real, **kwargs):
            if np.asarray(x).dtype == np.float64:
                raise TypeError("ufunc 'sin' not supported for the input types")
            return _real(x, *args, **kwargs)
        monkeypatch.setattr(crtrig, name, ufunc)


def crtrig_computes(entry) -> bool:
    try:
        getattr(crtrig.windows, entry.name)(8, *entry.crtrig_values(8), sym=False)
    except NotImplementedError:
        return False
    return True


def test_report_format_and_json(tmp_path):
    """The command as users run it, with every installed peer, in a child process
    (the peers' imports, torch's above all, stay out of the test process: a
    forked child's peak RSS includes its parent's, which test_cases measures)."""
    path = tmp_path / "bench.json"
    completed = subprocess.run([sys.executable, "-m", "crtrig", "bench", *TINY, "--json", str(path)],
                               capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]
    out, err = completed.stdout, completed.stderr
    data = json.loads(path.read_text(encoding="utf-8"))
    lines = out.splitlines()
    assert lines[0] == f"$ python -m crtrig bench {' '.join(TINY)} --json {path}"
    assert lines[2].startswith("(--quick: ")
    threads = data["platform"]["all_threads"]
    pool = (f"{threads} threads (pool)" if threads else
            "1 thread (pool)" if data["platform"]["thread_pool"] else "1 thread (no pool)")
    assert data["platform"]["thread_pool"] == hasattr(crtrig, "set_num_threads")
    platform_line = next(line for line in lines if line.startswith("platform: "))
    for part in (crtrig.bench._config.cpu_model(), f"SIMD target {crtrig.simd_target()}",
                 f"numpy {np.__version__}", pool):
        assert part in platform_line, part
    loaded = data["peers"]
    for name in bench.PEERS:  # each peer is either there or skipped with a reason
        assert (name in loaded) != (name in data["skipped"])
        assert f"- {name} " in out or f"- {name}: " in out

    trig, windows, store = by_section(out)
    assert [(r["function"], r["dtype"], r["input"]) for r in trig] == [
        (f, d, i) for d in bench.TRIG_DTYPES for i in bench.INPUT_SETS for f in bench.TRIG_FUNCTIONS]
    assert [(r["window"], r["dtype"], r["N"]) for r in windows] == [
        row for n in (10, 300) for row in [(k, d, f"{n:,}") for d in bench.WINDOW_DTYPES for k in bench.WINDOW_KINDS]
        + [(k, "float64", f"{n:,}") for k in bench.SCIPY_WINDOW_KINDS]
        + [(entry.label, "float64", f"{n:,}") for entry in PARAM_WINDOWS]
        + [(bench.KBD_LABEL, "float64", f"{n:,}")]]
    assert [(r["dtype"], r["N"]) for r in store] == [(d, f"{n:,}") for d in bench.WINDOW_DTYPES
                                                     for n in (10, 300)]
    pi = pi_section(out)
    assert [(r["function"], r["dtype"], r["input"]) for r in pi] == [
        (f, d, i) for d in bench.TRIGPI_DTYPES for i in bench.TRIGPI_INPUT_SETS for f in bench.TRIGPI_FUNCTIONS]
    for row in pi:  # crtrig.sin/cos of the same array, one thread, next to sinpi/cospi
        assert RATIO_CELL.match(row[f"{bench.CRTRIG_SIN_COLUMN} (speedup)"]), row
    assert "np.sin(np.pi * x)" in out and "crtrig.sinpi(x)" in out
    small = next(rows for title, rows in tables(out).items() if title.startswith("Small calls"))
    assert [(r["x"], r["dtype"], r["N"]) for r in small] == [(k, d, f"{n:,}") for k, d, n in bench.SMALL_CALLS]
    for row in small:
        assert TIME_CELL.match(row["crtrig ns/call"]) and RATIO_CELL.match(row["numpy (speedup)"])
        assert row["check"] == f"{int(row['N'].replace(',', ''))} ok"
    tan = next(rows for title, rows in tables(out).items() if title.startswith("tan and tanpi"))
    assert [(r["function"], r["dtype"], r["input"]) for r in tan] == [
        (f, d, i) for d in bench.TAN_DTYPES for f in bench.TAN_FUNCTIONS for i in bench.TAN_INPUT_SETS[f]]
    assert "np.tan(np.pi * x)" in out and "crtrig.tanpi(x)" in out and "np.tan(x)" in out
    assert len(data["rows"]) == TRIG_ROWS + PI_ROWS + TAN_ROWS + WINDOW_ROWS + STORE_ROWS + SMALL_ROWS == (
        len(trig) + len(pi) + len(tan) + len(windows) + len(store) + len(small))


    for table_row, json_row in zip(trig + pi + tan + windows + store, data["rows"]):
        assert table_row["rounds"] == "2" == str(json_row["rounds"])
        if threads:  # crtrig's all-threads column, once crtrig has a thread pool
            cell = table_row[f"crtrig {threads} threads (× 1 thread)"]
            assert RATIO_CELL.match(cell) or cell.startswith("n/a ("), cell
        crtrig_cell = table_row["crtrig ns/elem"]
        if "crtrig" in json_row["times"]:
            assert TIME_CELL.match(crtrig_cell), crtrig_cell
            ns = json_row["times"]["crtrig"]["ns_per_element"]
            assert float(crtrig_cell) == pytest.approx(ns, rel=5e-3)  # the table prints the JSON's number
            expected = min(json_row["size"], bench.CHECK_ELEMENTS) * (2 if threads else 1)
            assert table_row["check"] == f"{expected} ok" and json_row["checked"] == expected
            assert json_row["wrong"] == 0
        elif json_row["window"] in [entry.label for entry in PARAM_WINDOWS]:  # not in this crtrig yet
            assert crtrig_cell == "n/a (not implemented in this crtrig)", crtrig_cell
            assert not crtrig_computes(next(e for e in PARAM_WINDOWS if e.label == json_row["window"]))
            assert table_row["check"] == "-" and json_row["times"] == {}
            continue
        else:
            assert crtrig_cell == "n/a (no float64 loop)" and json_row["dtype"] == "float64"
            assert table_row["check"] == "-"
        if json_row["section"] == "store limit":  # crtrig against out.fill(0.5), no peers
            assert RATIO_CELL.match(table_row["out.fill(0.5) (speedup)"])
            assert set(json_row["times"]) == {"crtrig", "out.fill(0.5)"} | ({f"crtrig {threads} threads"} if threads else set())
            continue
        for name in loaded:
            title = f"{name} (speedup)"
            if title not in table_row:
                assert (name == "scipy" and json_row["section"] == "sin/cos"  # no sin/cos of its own
                        or name in ("scipy", "onnxruntime") and json_row["section"] in ("sinpi/cospi",
                                                                                          "tan/tanpi"))
                continue
            cell = table_row[title]
            if name in json_row["unavailable"]:
                assert cell == "n/a"
            elif "crtrig" in json_row["times"]:
                assert RATIO_CELL.match(cell), cell
                ratio = json_row["times"][name]["median_s"] / json_row["times"]["crtrig"]["median_s"]
                assert json_row["speedup"][name] == pytest.approx(ratio)
            else:
                assert TIME_CELL.match(cell), cell
    for json_row in data["rows"]:
        for name, t in json_row["times"].items():
            assert t["ns_per_element"] > 0 and t["q1_s"] <= t["median_s"] <= t["q3_s"]
            assert 1 <= t["calls_per_sample"] <= bench.MAX_REPEATS
            assert t["ns_per_element"] == pytest.approx(t["median_s"] * 1e9 / json_row["size"])

    # the exact expressions timed
    for expression in ("crtrig.sin(x)", "np.cos(x)", "crtrig.blackman_window(N, dtype=np.float64)",
                       "np.hanning(N + 1)[:-1].astype(np.float32)", "np.hamming(N + 1)[:-1]",
                       "crtrig.hann_window(N, dtype=np.float32, out=out)", "out.fill(0.5)"):
        assert f"`{expression}`" in out, expression
    checked = sum(row["checked"] for row in data["rows"])
    assert f"check: all {checked:,} checked crtrig outputs equal crtrig.reference (exact)" in out
    progress = [line for line in err.splitlines() if line.startswith("[")]
    total = TRIG_ROWS + PI_ROWS + TAN_ROWS + WINDOW_ROWS + STORE_ROWS + SMALL_ROWS
    assert len(progress) == total and progress[-1].startswith(f"[{total}/{total}] ")
    assert data["command"] == lines[0][2:] and data["quick"] is True
    assert data["platform"]["simd_targets"] == list(crtrig.simd_targets())
    assert data["settings"]["trig_size"] == 64 and data["settings"]["window_sizes"] == [10, 300]
    assert data["settings"]["min_sample_s"] == 0.001


def test_the_inputs_are_what_the_report_says():
    rng = np.random.default_rng(1)
    for dtype in bench.TRIG_DTYPES:
        sets = bench.trig_inputs(dtype, 5000, rng)
        dt = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
        for label, x in sets.items():
            assert x.dtype == dt and x.size == 5000
            values = x.astype(np.float64)
            assert np.isfinite(values).all(), (dtype, label)
        assert np.abs(sets["[-π, π]"].astype(np.float64)).max() <= 3.1416
        assert np.abs(sets["[-1e5, 1e5]"].astype(np.float64)).max() <= (65504 if dtype == "float16" else 1e5 * 1.01)
        assert np.abs(sets["[-1e5, 1e5]"].astype(np.float64)).max() > (30000 if dtype == "float16" else 5e4)
        # bit patterns: both signs, tiny and huge exponents
        magnitudes = np.abs(sets["all finite bit patterns"].astype(np.float64))
        assert magnitudes.min() < 1e-3 and magnitudes.max() > 1e3


class FakeClock:
    """bench's time.perf_counter for the timing tests: it moves only when a fake
    call says it took so long (never a wall-clock measurement)."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        return self.now


def fake_clock(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(bench, "time", types.SimpleNamespace(perf_counter=clock.perf_counter))
    return clock


def counted_contender(name, clock, seconds_per_call, log, checked=True):
    """A contender whose calls take seconds_per_call on the fake clock; log[name]
    gets one entry per before() (the untimed set-up of what follows), counting the
    calls made until the next before()."""
    log[name] = []

    def before():
        log[name].append(0)

    def call():
        clock.now += seconds_per_call
        log[name][-1] += 1
        return np.zeros(1)

    return bench.Contender(name, f"{name}()", call, before, checked)


def no_check(result):
    return 1, 0, None


def test_every_contender_is_timed_in_samples_of_repeated_calls(monkeypatch):
    """A sample of a fast call repeats it (at N = 1000 a call takes microseconds:
    one call per sample is a cold, single-call timing); the time kept is per call;
    each contender's set-up (its thread count) runs once per sample, untimed, and
    every contender, crtrig's or a peer's, is timed by the same rule."""
    clock = fake_clock(monkeypatch)
    log = {}
    fast = [counted_contender(name, clock, 10e-6, log) for name in ("crtrig", "crtrig 2 threads")]
    peer = counted_contender("peer", clock, 10e-6, log, checked=False)
    slow = counted_contender("slow peer", clock, 0.05, log, checked=False)
    row = bench.Row("windows", {"window": "hann", "dtype": "float32", "N": 1000}, 1000)
    rounds = 4
    bench.time_row(row, fast + [peer, slow], bench.DEFAULT, rounds, no_check)
    for name in ("crtrig", "crtrig 2 threads", "peer"):
        samples = log[name][-rounds:]  # the timed samples come last, after the calibration
        # at least 10 ms of 10 µs calls in each sample (the default aims at 20 ms)
        assert min(samples) >= 1000, (name, log[name])
        assert len(set(samples)) == 1, (name, samples)  # one number of calls per contender and row
        assert row.times[name]["median_s"] == pytest.approx(10e-6)  # per call, not per sample
        assert row.times[name]["calls_per_sample"] == samples[0]
    counts = [row.times[name]["calls_per_sample"] for name in ("crtrig", "crtrig 2 threads", "peer")]
    assert max(counts) <= 1.01 * min(counts), counts  # equally fast calls: as many per sample
    assert log["slow peer"][-rounds:] == [1] * rounds  # a slow call is a sample by itself
    assert row.times["slow peer"]["median_s"] == pytest.approx(0.05)
    assert row.rounds == rounds and row.checked == 2  # the two crtrig contenders' last outputs
    assert bench.DEFAULT.min_sample_s >= 0.01 and bench.QUICK.min_sample_s >= 0.001


def test_a_cold_first_call_does_not_make_a_thread_speedup(monkeypatch):
    """The bug the all-threads column had at N = 1000: crtrig on one thread runs
    after a peer (its code and tables evicted), crtrig on all threads right after
    it (warm), so timing one call each gave a 'speedup' for calls that never
    split.  Here a crtrig call costs 10 µs warm, 100 µs just after a peer's call;
    a sample of repeated calls pays the cold start once over thousands of calls:
    the two columns agree."""
    state = fake_pool(monkeypatch, count=2)
    clock = fake_clock(monkeypatch)
    cache = {"warm": False}

    def crtrig_call():
        clock.now += 10e-6 if cache["warm"] else 100e-6
        cache["warm"] = True
        return np.zeros(1)

    def peer_call():
        clock.now += 20e-6
        cache["warm"] = False
        return np.zeros(1)

    threads = bench.Threads(True, 2, "fake pool")
    contenders = bench._crtrig_contenders("window()", lambda: {"window": crtrig_call}, threads)
    contenders.append(bench.Contender("numpy", "peer()", peer_call))
    row = bench.Row("windows", {"window": "hann", "dtype": "float32", "N": 1000}, 1000)
    bench.time_row(row, contenders, bench.DEFAULT, 6, no_check)
    one, both = row.times["crtrig"]["median_s"], row.times["crtrig 2 threads"]["median_s"]
    assert one == pytest.approx(10e-6, rel=0.01) and both == pytest.approx(10e-6, rel=0.01)
    assert one / both == pytest.approx(1.0, abs=0.01)
    assert row.times["numpy"]["median_s"] == pytest.approx(20e-6)
    assert set(state["calls"]) == {1, 2}


def test_float64_rows_time_and_check_crtrig_when_it_has_the_loop(capsys, tmp_path, monkeypatch):
    no_pool(monkeypatch)
    with_float64_loop(monkeypatch)
    out, _, data = run_bench(capsys, tmp_path, "--peers", "numpy")
    trig, _, _ = by_section(out)
    float64 = [r for r in trig if r["dtype"] == "float64"]
    assert len(float64) == 6
    for row in float64:
        assert TIME_CELL.match(row["crtrig ns/elem"]) and RATIO_CELL.match(row["numpy (speedup)"])
        assert row["check"] == "64 ok"
    assert "no float64 loop" not in out
    assert all("crtrig" in r["times"] for r in data["rows"] if r["section"] == "sin/cos")


def test_float64_rows_say_so_when_crtrig_has_no_loop(capsys, tmp_path, monkeypatch):
    no_pool(monkeypatch)
    without_float64_loop(monkeypatch)
    out, _, data = run_bench(capsys, tmp_path, "--peers", "numpy")
    trig, _, _ = by_section(out)
    for row in trig:
        if row["dtype"] == "float64":
            assert row["crtrig ns/elem"] == "n/a (no float64 loop)" and row["check"] == "-"
            assert TIME_CELL.match(row["numpy (speedup)"])  # numpy is still timed, without a ratio
        else:
            assert TIME_CELL.match(row["crtrig ns/elem"])
    rows = [r for r in data["rows"] if r["section"] == "sin/cos" and r["dtype"] == "float64"]
    assert all(r["unavailable"]["crtrig"] == "no float64 loop" and "numpy" in r["times"] for r in rows)


def test_all_threads_column_when_crtrig_has_a_pool(capsys, tmp_path, monkeypatch):
    state = fake_pool(monkeypatch, count=3)
    out, _, data = run_bench(capsys, tmp_path, "--peers", "numpy")
    assert "3 threads (pool)" in next(line for line in out.splitlines() if line.startswith("platform: "))
    trig, windows, store = by_section(out)
    for row in trig + windows + store:
        cell = row["crtrig 3 threads (× 1 thread)"]
        assert RATIO_CELL.match(cell) or cell in ("n/a (no float64 loop)",
                                                  "n/a (not implemented in this crtrig)"), cell
    for row in data["rows"]:
        if row["section"] == "small calls":  # never split: crtrig on one thread only
            assert row["thread_scaling"] == {} and set(row["times"]) == {"crtrig", "numpy"}
        elif "crtrig" in row["times"]:
            assert set(row["thread_scaling"]) == {"crtrig 3 threads"}
            assert row["checked"] == 2 * min(row["size"], bench.CHECK_ELEMENTS)  # both outputs checked
    assert data["platform"]["thread_pool"] is True and data["platform"]["all_threads"] == 3
    assert set(state["calls"]) == {1, 3}  # each crtrig column runs with its own thread count
    assert state["threads"] == 3  # restored


def test_one_crtrig_column_without_a_pool(capsys, tmp_path, monkeypatch):
    no_pool(monkeypatch)
    out, _, data = run_bench(capsys, tmp_path, "--peers", "numpy")
    assert "- threads: this crtrig has no thread pool" in out
    assert "threads (× 1 thread)" not in out
    assert all(row["thread_scaling"] == {} for row in data["rows"])
    assert data["platform"]["thread_pool"] is False


def test_a_wrong_window_is_reported(capsys, tmp_path, monkeypatch):
    real = crtrig.blackman_window

    def off_by_one_ulp(size, *args, **kwargs):
        w = real(size, *args, **kwargs)
        w[size // 2] = np.nextafter(w[size // 2], w.dtype.type(2))
        return w

    no_pool(monkeypatch)
    monkeypatch.setattr(crtrig, "blackman_window", off_by_one_ulp)
    out, err, data = run_bench(capsys, tmp_path, "--peers", "numpy", status=1)
    _, windows, _ = by_section(out)
    for row in windows:
        assert row["check"].startswith("WRONG 1 of ") == (row["window"] == "blackman")
    assert "CHECK FAILED: 4 of " in out and "blackman N=" in out
    assert "1 WRONG" in err


def test_a_window_call_that_skips_writing_out_is_caught(capsys, tmp_path, monkeypatch):
    """The caching bug the store-limit rows guard against: a call that finds its
    out= already filled and returns it.  The -1s written before each timed call
    make it fail the check."""
    real = crtrig.hann_window
    done = set()

    def caching(size, *args, out=None, **kwargs):
        if out is not None and id(out) in done:
            return out
        result = real(size, *args, out=out, **kwargs)
        if out is not None:
            done.add(id(out))
        return result

    no_pool(monkeypatch)
    monkeypatch.setattr(crtrig, "hann_window", caching)
    out, _, _ = run_bench(capsys, tmp_path, "--peers", "numpy", status=1)
    _, windows, store = by_section(out)
    assert all(row["check"].startswith("WRONG ") for row in store)
    assert all(row["check"].endswith(" ok") or row["crtrig ns/elem"] == "n/a (not implemented in this crtrig)"
               for row in windows)  # allocating calls are unaffected


def test_missing_peers_are_skipped_with_a_note(capsys, tmp_path, monkeypatch):
    no_pool(monkeypatch)
    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.setitem(sys.modules, "scipy", None)
    out, _, data = run_bench(capsys, tmp_path, "--peers", "numpy,scipy,torch")
    assert "- torch: not installed (no module torch), skipped" in out
    assert "- scipy: not installed (no module scipy), skipped" in out
    assert set(data["skipped"]) == {"torch", "scipy"} and list(data["peers"]) == ["numpy"]
    trig, windows, _ = by_section(out)
    assert "torch (speedup)" not in trig[0] and "scipy (speedup)" not in windows[0]


def capture_figures(monkeypatch):
    """The figures bench.plot saves, drawn again on an Agg canvas to measure them."""
    from matplotlib.figure import Figure
    saved = []
    real = Figure.savefig

    def savefig(self, *args, **kwargs):
        real(self, *args, **kwargs)
        saved.append(self)
    monkeypatch.setattr(Figure, "savefig", savefig)
    return saved


def legends_and_bars(fig):
    """Window extents (pixels) of every legend and of the visible part of every bar."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.transforms import Bbox
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None] + list(fig.legends)
    bars = []
    for ax in fig.axes:
        for patch in ax.patches:
            extent = patch.get_window_extent(renderer)
            if not np.isfinite(extent.get_points()).all():
                continue  # a nan value: no bar
            visible = Bbox.intersection(extent, ax.bbox)  # bars from 0 run off a log axis
            if visible is not None and visible.width > 0 and visible.height > 0:
                bars.append(visible)
    return [legend.get_window_extent(renderer) for legend in legends], bars


def test_plot_writes_a_png_titled_without_paths(capsys, tmp_path, monkeypatch):
    no_pool(monkeypatch)
    saved = capture_figures(monkeypatch)
    path = tmp_path / "bench.png"
    _, _, data = run_bench(capsys, tmp_path, "--peers", "numpy", "--plot", str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    (fig,) = saved
    title = fig.get_suptitle()
    # what was measured and on what, not the command line with its file names
    assert "sin/cos of 64 elements per call" in title and "N = 10, 300" in title
    assert data["platform"]["cpu"] in title and f"SIMD target {crtrig.simd_target()}" in title
    assert str(tmp_path) not in title and "bench.json" not in title and "bench.png" not in title
    assert not re.search(r"(^|[\s(=])[~.]*/\w", title), title  # no absolute or relative path
    assert os.sep not in title.replace("sin/cos", "")


def test_plot_legends_cover_no_bar(capsys, tmp_path, monkeypatch):
    """Every bar long (speedups of 40 in every row, the case where a legend inside
    the axes has nowhere to go): no legend box meets a bar's."""
    fake_pool(monkeypatch, count=2)
    _, _, data = run_bench(capsys, tmp_path, "--peers", "numpy")
    for row in data["rows"]:
        row["speedup"] = {name: 40.0 for name in row["speedup"]} or {"numpy": 40.0}
        row["thread_scaling"] = {name: 40.0 for name in row["thread_scaling"]}
    saved = capture_figures(monkeypatch)
    bench.plot(data, str(tmp_path / "long.png"))
    (fig,) = saved
    legends, bars = legends_and_bars(fig)
    assert len(legends) == 5 and len(bars) > len(data["rows"])
    for legend in legends:
        for bar in bars:
            assert not legend.overlaps(bar), (legend, bar)


def test_plot_without_matplotlib_is_one_line_before_anything_runs(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", *TINY, "--plot", str(tmp_path / "x.png")])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1
    assert "--plot needs matplotlib" in captured.err and "crtrig[bench]" in captured.err


def test_help_states_how_long_a_run_takes(capsys):
    """--help gives the measured durations of --quick and of the default run (one
    figure each, not a range), and the minimum sample."""
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", "--help"])
    assert exit_info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    quick = re.search(r"--quick (about \d+ s):", text)
    default = re.search(r"default run: (about \d+(?:\.\d)? minutes) on a 2-core machine", text)
    assert quick and default, text
    assert quick[1] == bench.QUICK_RUN_TIME and default[1] == bench.DEFAULT_RUN_TIME
    assert "samples of at least 20 ms" in text and "samples of at least 5 ms" in text


def test_the_speed_page_states_the_durations_of_the_help():
    """The Speed page of the docs (docs/speed.md) and `bench --help` give the same run times."""
    page = os.path.join(os.path.dirname(__file__), os.pardir, "docs", "speed.md")
    if not os.path.exists(page):
        pytest.skip("no docs/speed.md next to tests/ (an installed copy of the tests)")
    with open(page, encoding="utf-8") as f:
        text = " ".join(f.read().split())
    assert f"`--quick` takes {bench.QUICK_RUN_TIME}" in text
    assert f"The default run takes {bench.DEFAULT_RUN_TIME} on the 2-core" in text


@pytest.mark.parametrize("arguments", [
    ["--trig-size", "0"], ["--trig-size", str(bench.MAX_TRIG_SIZE + 1)], ["--trig-size", "x"],
    ["--window-sizes", "10,abc"], ["--window-sizes", "0"], ["--window-sizes", str(bench.MAX_WINDOW_SIZE + 1)],
    ["--peers", "numpy,bogus"], ["--rounds", "0"], ["--min-sample-ms", "0"],
    ["--min-sample-ms", str(bench.MAX_MIN_SAMPLE_MS + 1)], ["--json", "/nonexistent-dir/x.json"],
    ["--plot", "/nonexistent-dir/x.png"], ["--bogus"],
])
def test_argument_errors_are_one_line_exit_2(capsys, arguments):
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", *arguments])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1, captured.err


def test_check_indices_cover_the_ends_and_stay_in_range():
    for size in (1, 2, 255, 256, 257, 10**7):
        index = bench.check_indices(size)
        assert index.size == min(size, bench.CHECK_ELEMENTS)
        assert len(set(index.tolist())) == index.size and index.min() >= 0 and index.max() < size
        assert index[0] == 0 and index[-1] == size - 1
    assert math.isclose(len(bench.check_indices(10**7)), bench.CHECK_ELEMENTS)


def test_plot_format_is_checked_before_the_run_and_written_to_the_exact_path(capsys, tmp_path, monkeypatch):
    """An extension matplotlib cannot write: one line, exit 2, before any row
    runs.  No extension: a PNG at exactly that path (matplotlib itself would
    add ".png" to the name)."""
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", *TINY, "--plot", str(tmp_path / "speedups.bogus")])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1, captured.err
    assert "matplotlib cannot write .bogus files" in captured.err
    no_pool(monkeypatch)
    path = tmp_path / "speedups"
    run_bench(capsys, tmp_path, "--peers", "numpy", "--plot", str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(os.listdir(tmp_path)) == ["bench.json", "speedups"]



# ---------------------------------------------------------------------------
# The exp, I0 and cosine windows of crtrig.windows (crtrig.compare.SCIPY_WINDOWS)
# ---------------------------------------------------------------------------

ROW_SETTINGS = bench.Settings(trig_size=64, window_sizes=(300,), row_budget_s=0.01, min_rounds=1,
                              max_rounds=2, min_sample_s=0.001)


def param_row(label, size=300, peers=("numpy",)):
    """One row of the windows section, timed (2 rounds) and checked, with crtrig on one thread."""
    entry = next(e for e in PARAM_WINDOWS if e.label == label)
    row, contenders, check = bench.param_window_row(entry, size, bench.load_peers(list(peers)),
                                                    bench.Threads.detect())
    bench.time_row(row, contenders, ROW_SETTINGS, 2, check)
    return row


def test_the_window_table_names_crtrig_windows_functions():
    from crtrig import compare
    assert {e.name for e in PARAM_WINDOWS} == set(compare.SCIPY_WINDOW_OPS)
    assert len({e.label for e in PARAM_WINDOWS}) == len(PARAM_WINDOWS)
    for entry in PARAM_WINDOWS:
        assert callable(getattr(crtrig.windows, entry.name)), entry.name
        if entry.torch is not None:  # torch is not installed here: its expressions at least parse
            for filled in (entry.torch.format(sym=False, periodic=True, dtype="torch.float64"),
                           entry.torch.format(sym=True, periodic=False, dtype="dt")):
                compile(filled, "<torch>", "eval")
                assert filled.startswith("torch.") and ("sym=" in filled) != ("periodic=" in filled)
    assert [e.label for e in PARAM_WINDOWS if e.name in ("gaussian", "exponential", "general_gaussian",
                                                          "kaiser")] == [
        "gaussian(std=7)", "gaussian(std=N/6)", "exponential(tau=3)", "general_gaussian(p=1.5, sig=7)",
        "kaiser(beta=8.6)", "kaiser(beta=14)"]


@pytest.mark.parametrize("label", ["gaussian(std=7)", "gaussian(std=N/6)", "exponential(tau=3)",
                                   "general_gaussian(p=1.5, sig=7)", "kaiser(beta=8.6)", "kaiser(beta=14)"])
def test_exp_and_kaiser_rows_are_timed_and_checked(monkeypatch, label):
    no_pool(monkeypatch)
    row = param_row(label)
    assert row.labels == {"window": label, "dtype": "float64", "N": 300}
    assert row.checked == bench.CHECK_ELEMENTS and row.wrong == 0, row.first_wrong
    assert set(row.times) == {"crtrig"} | ({"numpy"} if label.startswith("kaiser") else set())
    expression = row.times["crtrig"]["expression"]
    assert expression.startswith("crtrig.windows.") and expression.endswith(", sym=False)")
    if label.startswith("kaiser"):  # numpy's symmetric kaiser, of N + 1 points, cut: the periodic window
        assert row.times["numpy"]["expression"] == f"np.kaiser(N + 1, {label[12:-1]})[:-1]"
    else:
        assert row.unavailable == {"numpy": f"no {label.split('(')[0]} window"}


def test_a_wrong_reference_is_reported(monkeypatch):
    """The check can fail: the exact reference moved by one ULP at the middle element."""
    from crtrig import compare
    real = compare.scipy_window_bits

    def off(entry, size, periodic, n, dtype):
        bits = real(entry, size, periodic, n, dtype)
        return bits + 1 if n == size // 2 else bits

    no_pool(monkeypatch)
    monkeypatch.setattr(compare, "scipy_window_bits", off)
    for label in ("gaussian(std=N/6)", "kaiser(beta=14)"):
        row = param_row(label)
        assert row.wrong == 1 and f"{label} N=300 n=150 gave" in row.first_wrong, row.first_wrong


def test_a_wrong_crtrig_window_is_reported(monkeypatch):
    real = crtrig.windows.exponential

    def nudged(*args, **kwargs):
        w = real(*args, **kwargs)
        w[7] = np.nextafter(w[7], 0.0)
        return w

    no_pool(monkeypatch)
    monkeypatch.setattr(crtrig.windows, "exponential", nudged)
    row = param_row("exponential(tau=3)")
    assert row.wrong == 1 and "exponential(tau=3) N=300 n=7" in row.first_wrong


def test_a_window_crtrig_does_not_compute_is_a_row_saying_so(monkeypatch):
    def refused(*args, **kwargs):
        raise NotImplementedError("crtrig.windows.kaiser() is not implemented: (test)")

    no_pool(monkeypatch)
    monkeypatch.setattr(crtrig.windows, "kaiser", refused)
    row = param_row("kaiser(beta=8.6)")
    assert row.unavailable == {"crtrig": "not implemented in this crtrig"}
    assert row.times == {} and row.checked == 0
    assert bench._cell(row, "crtrig") == "n/a (not implemented in this crtrig)"


@pytest.mark.parametrize("label", ["nuttall", "general_cosine(flattop's a)"])
def test_a_cosine_window_is_timed_and_checked_once_crtrig_computes_it(monkeypatch, label):
    """The cosine windows of the table show up when crtrig.windows computes them: here a
    stand-in computing them exactly (crtrig.reference's cosine sums), then one moved by a
    ULP, which the check reports."""
    from crtrig import compare
    entry = next(e for e in PARAM_WINDOWS if e.label == label)
    coefficients = [c.strip() for c in entry.exact[len("cosine sum "):].split(",")]
    moved = {}

    def stand_in(M, *args, sym=True, dtype=np.float64):
        w = reference.cosine_sum_window(coefficients, M, not sym, "float64")
        if moved and M > moved["n"]:
            w[moved["n"]] = np.nextafter(w[moved["n"]], 2.0)
        return w

    no_pool(monkeypatch)
    monkeypatch.setattr(crtrig.windows, entry.name, stand_in)
    row = param_row(label)
    assert row.checked == bench.CHECK_ELEMENTS and row.wrong == 0, row.first_wrong
    assert "crtrig" in row.times
    moved["n"] = 299
    row = param_row(label)
    assert row.wrong == 1 and f"{label} N=300 n=299" in row.first_wrong


def test_torch_contenders_of_the_param_windows(monkeypatch):
    """torch is not installed here: a stand-in module records the calls the rows make
    (torch.kaiser_window periodic, torch.signal.windows.* with sym=False, float64)."""
    calls = []

    class Tensor:
        def __init__(self, n):
            self.n = n

        def numpy(self):
            return np.ones(self.n)

    def recorder(name):
        def window(N, **kwargs):
            calls.append((name, N, kwargs))
            return Tensor(N)
        return window

    fake = types.SimpleNamespace(float64="float64", kaiser_window=recorder("kaiser_window"),
                                 signal=types.SimpleNamespace(windows=types.SimpleNamespace(
                                     gaussian=recorder("gaussian"), exponential=recorder("exponential"))))
    no_pool(monkeypatch)
    peers = bench.Peers(modules={"torch": fake}, versions={"torch": "fake"}, notes={"torch": "fake"})
    for label in ("kaiser(beta=8.6)", "gaussian(std=N/6)", "exponential(tau=3)", "general_gaussian(p=1.5, sig=7)"):
        entry = next(e for e in PARAM_WINDOWS if e.label == label)
        row, contenders, check = bench.param_window_row(entry, 30, peers, bench.Threads.detect())
        bench.time_row(row, contenders, ROW_SETTINGS, 1, check)
        assert row.wrong == 0 and row.checked == 30
        if label.startswith("general_gaussian"):  # torch has none
            assert row.unavailable == {"torch": "no general_gaussian window"}
        else:
            assert "torch" in row.times and row.times["torch"]["expression"].endswith(".numpy()")
    assert {c[0]: c[2] for c in calls} == {
        "kaiser_window": {"periodic": True, "beta": 8.6, "dtype": "float64"},
        "gaussian": {"std": 5.0, "sym": False, "dtype": "float64"},
        "exponential": {"tau": 3, "sym": False, "dtype": "float64"}}
    assert {c[1] for c in calls} == {30}


def test_kbd_row_is_timed_and_checked(monkeypatch):
    """The KBD row: crtrig's symmetric window next to scipy's, every element checked
    against crtrig._kbd_window's exact path; a planted wrong value is reported; an odd
    N is n/a everywhere."""
    no_pool(monkeypatch)
    peers = bench.load_peers(["numpy", "scipy"])
    row, contenders, check = bench.kbd_window_row(200, peers, bench.Threads.detect())
    bench.time_row(row, contenders, ROW_SETTINGS, 2, check)
    assert row.labels == {"window": bench.KBD_LABEL, "dtype": "float64", "N": 200}
    assert row.checked == 200 and row.wrong == 0, row.first_wrong
    assert set(row.times) == {"crtrig", "scipy"}
    assert row.times["crtrig"]["expression"] == "crtrig.windows.kaiser_bessel_derived(N, 8.6)"
    assert row.times["scipy"]["expression"] == "scipy.signal.windows.kaiser_bessel_derived(N, 8.6)"
    assert row.unavailable == {"numpy": "no kaiser_bessel_derived window"}
    good = crtrig.windows.kaiser_bessel_derived(200, 8.6)
    bad = good.copy()
    bad[7] = np.nextafter(bad[7], 2.0)
    assert check(good)[1] == 0 and check(bad)[1] == 1 and "n=7" in check(bad)[2]
    row, contenders, check = bench.kbd_window_row(301, peers, bench.Threads.detect())
    assert contenders == [] and check is None and set(row.unavailable) >= {"crtrig", "numpy", "scipy"}
