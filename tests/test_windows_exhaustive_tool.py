"""tools/check_windows_exhaustive.py and tests/fast_oracle.py: the tool passes on a
small range, reports a planted wrong value, and the fast oracle agrees with
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


def _tool():
    spec = importlib.util.spec_from_file_location("check_windows_exhaustive",
                                                  ROOT / "tools" / "check_windows_exhaustive.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tool_passes_on_a_small_range(capsys):
    tool = _tool()
    assert tool.main(["--max-M", "24", "--windows", "hann,bohman,kaiser(8.6),parzen,tukey(0.3)",
                      "--dtypes", "float64,float32,bfloat16"]) == 0
    out = capsys.readouterr().out
    assert out.count(" 0 wrong") == 5 and "WRONG" not in out


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
