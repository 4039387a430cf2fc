"""tools/check_windows_exhaustive.py, tools/check_windows_sampled.py and
tests/fast_oracle.py: the tools pass on a small range (every window of the table,
1 and 2 threads), report a planted wrong value, and the fast oracle agrees with
tests/oracle.py's per-element functions (an independent route: mpmath and exact
rationals per element) on random elements of every family."""
import importlib.util
import random
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import fast_oracle
import oracle

ROOT = Path(__file__).resolve().parent.parent


def _tool(name="check_windows_exhaustive"):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def restore_threads():
    import crtrig
    from crtrig import _core
    count = crtrig.get_num_threads()
    threshold = _core.thread_config()["parallel_threshold"]
    yield
    crtrig.set_num_threads(count)
    _core._set_parallel_threshold(threshold)


def test_the_tool_passes_on_a_small_range(capsys):
    tool = _tool()
    assert tool.main(["--max-M", "24", "--windows", "hann,bohman,kaiser(8.6),parzen,tukey(0.3)",
                      "--dtypes", "float64,float32,bfloat16"]) == 0
    out = capsys.readouterr().out
    assert out.count(" 0 wrong") == 5 and "WRONG" not in out


NEW = ["general_cosine(0.5:0.3:0.2)", "general_cosine(srs_flattop)", "tukey(0.25)", "tukey(0)", "tukey(1)", "boxcar",
       "kaiser(0.5)", "kaiser(14)", "kaiser_bessel_derived(8.6)", "gaussian(1)", "gaussian(7.3)", "gaussian(300)",
       "general_gaussian(1.5:7)", "general_gaussian(1:7.3)", "general_gaussian(3:100)", "exponential",
       "exponential(tau=3)", "exponential(center=10.3:tau=3)", "taylor", "taylor(8:50:norm=False)"]


def test_the_new_windows_pass_on_one_and_two_threads(capsys, restore_threads):
    """Every window added to the table, M up to 20, 1 and 2 threads with the pool
    splitting every call of 8 elements or more."""
    tool = _tool()
    assert set(NEW) <= set(tool.WINDOWS)
    assert tool.main(["--max-M", "20", "--windows", ",".join(NEW), "--threads", "1,2",
                      "--parallel-threshold", "8"]) == 0
    out = capsys.readouterr().out
    assert out.count(" 0 wrong") == len(NEW) and "WRONG" not in out and out.count("threads 1,2") == len(NEW)
    assert "kaiser_bessel_derived(8.6) target" in out and "sym=True (even M)" in out
    assert "exponential(center=10.3:tau=3) target" in out and "sym=False" in out


@pytest.mark.parametrize("name, M, sym", [("kaiser_bessel_derived(8.6)", 12, True), ("taylor", 9, False),
                                          ("exponential(center=10.3:tau=3)", 15, False)])
def test_planted_errors_in_the_new_kinds(name, M, sym, capsys, monkeypatch):
    tool = _tool()
    family, call = tool.WINDOWS[name]

    def broken(w, m, s, dt):
        values = np.array(call(w, m, s, dt))
        if m == M and s == sym and values.dtype == np.float64:
            values[3] = np.nextafter(values[3], 0.0)
        return values

    monkeypatch.setitem(tool.WINDOWS, name, (family, broken))
    assert tool.main(["--max-M", "16", "--windows", name, "--dtypes", "float64,float16"]) == 1
    out = capsys.readouterr().out
    assert f"WRONG {name} M={M} sym={sym} float64 n=3" in out and " 1 wrong" in out


def test_the_sampled_tool_passes_and_reports_a_planted_error(capsys, monkeypatch, restore_threads):
    """tools/check_windows_sampled.py on every window at two small sizes, 1 and 2
    threads (M = 5001 splits at a threshold of 64); then one sampled element and one
    mirror broken."""
    from crtrig import _core
    tool = _tool("check_windows_sampled")
    _core._set_parallel_threshold(64)
    assert tool.main(["--sizes", "5001,66", "--samples", "40", "--threads", "1,2"]) == 0
    out = capsys.readouterr().out
    assert out.count(" 0 wrong; mirror ") == len(tool.WINDOWS) and "WRONG" not in out and "MIRROR" not in out
    family, call = tool.WINDOWS["hann"]

    def broken(w, m, s, dt):
        values = np.array(call(w, m, s, dt))
        if m == 66 and not s and values.dtype == np.float32:
            values[-1] = np.nextafter(values[-1], np.float32(2))  # sampled (M - 1) and mirrored
        return values

    monkeypatch.setitem(tool.WINDOWS, "hann", (family, broken))
    assert tool.main(["--sizes", "66", "--samples", "10", "--windows", "hann"]) == 1
    out = capsys.readouterr().out
    assert "WRONG hann M=66 sym=False float32 n=65" in out and "MIRROR hann M=66 sym=False float32" in out


def test_the_tool_reports_a_planted_wrong_value(capsys, monkeypatch):
    """One element of one window one ulp off (M = 17, sym, float32, n = 5): exit
    status 1 and that element listed."""
    tool = _tool()
    family, call = tool.WINDOWS["hann"]

    def broken(w, M, sym, dt):
        values = np.array(call(w, M, sym, dt))
        if M == 17 and sym and values.dtype == np.float32:
            values[5] = np.nextafter(values[5], np.float32(2))
        return values

    monkeypatch.setitem(tool.WINDOWS, "hann", (family, broken))
    assert tool.main(["--max-M", "20", "--windows", "hann", "--dtypes", "float32,float64"]) == 1
    out = capsys.readouterr().out
    assert "WRONG hann M=17 sym=True float32 n=5" in out and "1 wrong" in out


FAMILIES = {
    "hann": lambda: fast_oracle.cosine_sum_family([Fraction(1, 2), Fraction(1, 2)]),
    "flattop": lambda: fast_oracle.cosine_sum_family(["0.21557895", "0.41663158", "0.277263158",
                                                      "0.083578947", "0.006947368"]),
    "general_hamming(0)": lambda: fast_oracle.cosine_sum_family([Fraction(0), Fraction(1)]),
    "barthann": fast_oracle.barthann_family,
    "bohman": fast_oracle.bohman_family,
    "lanczos": fast_oracle.lanczos_family,
    "tukey(0.3)": lambda: fast_oracle.tukey_family(Fraction(3, 10)),
    "cosine": fast_oracle.cosine_family,
    "parzen": lambda: fast_oracle.rational_family("parzen"),
    "kaiser(8.6)": lambda: fast_oracle.kaiser_family(Fraction(43, 5)),
    "taylor": lambda: fast_oracle.taylor_family(4, 30, True),
    "taylor(8:50:norm=False)": lambda: fast_oracle.taylor_family(8, 50, False),
    "taylor(5:13.1)": lambda: fast_oracle.taylor_family(5, Fraction(131, 10), True),
}


@pytest.mark.parametrize("name", FAMILIES)
def test_fast_oracle_agrees_with_the_per_element_oracle(name):
    """60 random elements of L = 2 .. 120, all four formats (zeros' signs included)."""
    family = FAMILIES[name]()
    halves, _ = fast_oracle.half_windows(family, 2, 120)
    rng = random.Random(5)
    for _ in range(60):
        L = rng.randrange(2, 121)
        i = rng.randrange((L + 1) // 2)
        want = family[1](L, i)
        for fmt in fast_oracle.FORMATS:
            got = halves[L][fmt][i]
            assert got == want[fmt] and np.signbit(got) == np.signbit(want[fmt]), (name, L, i, fmt, got, want[fmt])
