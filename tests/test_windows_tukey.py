"""crtrig.windows.tukey: every value correctly rounded (against tests/oracle.py:
scipy's formulas, cosines by mpmath), scipy's branches and interface; the taper
comes from crtrig's Hann window (the C core), so it is checked on every SIMD
target and at several thread counts."""
import os
import random
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
import scipy.signal

import crtrig
from crtrig import windows

import oracle

FLOATS = oracle.FLOAT_FORMATS
ALPHAS = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 10), Fraction(3, 4), Fraction(9, 10), Fraction(1, 3),
          Fraction(3, 10), Fraction(5, 7))


def assert_same_bits(got, want, context):
    assert got.dtype == want.dtype and got.shape == want.shape, (context, got.dtype, want.dtype)
    uint = np.dtype(f"u{want.dtype.itemsize}")
    bad = np.nonzero(got.view(uint) != want.view(uint))[0]
    assert bad.size == 0, f"{context}: {bad.size} differ, first at {bad[0]}: got {got[bad[0]]!r} want {want[bad[0]]!r}"


def oracle_window(M, alpha, sym):
    rows = [oracle.tukey_value(M, alpha, sym, i) for i in range(M)]
    out = {}
    for fmt in FLOATS:
        values = np.array([row[fmt] for row in rows], dtype=np.float64)
        if fmt == "bfloat16":
            values = values.astype(np.float32)
        out[fmt] = values.astype(oracle.NUMPY_DTYPES[fmt])
    return out


@pytest.mark.parametrize("alpha", ALPHAS, ids=str)
def test_every_value_up_to_M_120(alpha):
    for M in range(0, 121):
        for sym in (True, False):
            want = oracle_window(M, alpha, sym)
            for fmt in FLOATS:
                assert_same_bits(windows.tukey(M, alpha, sym, dtype=fmt), want[fmt],
                                 f"tukey M={M} alpha={alpha} sym={sym} {fmt}")


def test_sampled_large_M():
    rng = random.Random("tukey-large")
    for M in (1000, 4097, 65537, 10**6 + 1, 2**22 + 3):
        for alpha in (Fraction(1, 4), Fraction(1, 2), Fraction(3, 10)):
            for sym in (True, False):
                for fmt in ("float64", "float32", "bfloat16", "float16"):
                    got = windows.tukey(M, alpha, sym, dtype=fmt).astype(np.float64)
                    L = M if sym else M + 1
                    width = alpha.numerator * (L - 1) // (2 * alpha.denominator)
                    index = {0, 1, width - 1, width, width + 1, M // 2, M - 1, L - 2 - width, L - 1 - width} | {
                        rng.randrange(M) for _ in range(12)}
                    for i in sorted(j for j in index if 0 <= j < M):
                        want = oracle.tukey_value(M, alpha, sym, i, (fmt,))[fmt]
                        assert got[i] == want, (M, alpha, sym, fmt, i, got[i], want)


def test_scipy_branches_and_values():
    for M in (0, 1, 2, 3, 8, 9, 100, 101):
        for sym in (True, False):
            for alpha in (-1, 0, 0.0, 0.25, 0.5, 0.9, 1, 1.0, 1.5):
                got, want = windows.tukey(M, alpha, sym), scipy.signal.windows.tukey(M, alpha, sym)
                assert got.dtype == np.float64 and got.shape == want.shape
                # scipy's right taper has a cancelling argument (-2/alpha + 1 + ...): a few ulps
                np.testing.assert_allclose(got, want, rtol=0, atol=1e-14)
    assert_same_bits(windows.tukey(100, 0), windows.boxcar(100), "alpha 0")
    assert_same_bits(windows.tukey(100, 1), windows.hann(100), "alpha 1")
    assert_same_bits(windows.tukey(100, 2.5, sym=False, dtype="float16"), windows.hann(100, sym=False, dtype="float16"),
                     "alpha > 1")
    assert_same_bits(windows.tukey(64, 0.25), windows.tukey(64, "1/4"), "string alpha")
    assert_same_bits(windows.tukey(64), windows.tukey(64, Fraction(1, 2)), "default alpha")
    assert_same_bits(windows.get_window(("tukey", 0.25), 256), windows.tukey(256, 0.25, sym=False), "get_window")
    assert_same_bits(windows.get_window("tuk", 256), windows.tukey(256, sym=False), "get_window default")
    out = np.full(33, -1.0, np.float32)
    assert windows.tukey(33, 0.3, out=out) is out
    assert_same_bits(out, windows.tukey(33, 0.3, dtype=np.float32), "out")
    for bad, error in ((float("nan"), ValueError), (True, TypeError), (None, TypeError), ("x", ValueError)):
        out = np.full(8, -1.0)
        with pytest.raises(error):
            windows.tukey(8, bad, out=out)
        assert np.all(out == -1.0)


def test_alpha_with_a_long_numerator_is_refused_clearly():
    with pytest.raises(NotImplementedError, match="scipy.signal.windows.tukey"):
        windows.tukey(10**6, 0.999)
    assert windows.tukey(1000, 0.999).shape == (1000,)  # small M: fine


@pytest.mark.parametrize("target", ["baseline", "avx2", "avx512"])
def test_every_simd_target_and_thread_count(target):
    """The taper is crtrig's Hann fill: the same bits under CRTRIG_TARGET=<target> and
    1, 2, 3 threads (a child process per target; the parallel threshold lowered)."""
    if target not in crtrig.simd_targets():
        pytest.skip(f"{target} not supported here")
    code = (
        "import numpy as np, crtrig, sys\n"
        "from crtrig import windows, _core\n"
        "_core._set_parallel_threshold(1024)\n"
        "out = []\n"
        "for threads in (1, 2, 3):\n"
        "    crtrig.set_num_threads(threads)\n"
        "    out.append(np.concatenate([windows.tukey(M, a, s, dtype=d).astype(np.float64)\n"
        "        for M in (257, 5000, 40001) for a in (0.25, 0.5, 0.3) for s in (True, False)\n"
        "        for d in ('float64', 'float32', 'float16', 'bfloat16')]))\n"
        "assert all(np.array_equal(out[0], o) for o in out[1:])\n"
        "sys.stdout.buffer.write(out[0].tobytes())\n")
    env = dict(os.environ, CRTRIG_TARGET=target)
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=300)
    assert run.returncode == 0, run.stderr.decode()[-2000:]
    got = np.frombuffer(run.stdout, dtype=np.float64)
    want = np.concatenate([windows.tukey(M, a, s, dtype=d).astype(np.float64)
                           for M in (257, 5000, 40001) for a in (0.25, 0.5, 0.3) for s in (True, False)
                           for d in ("float64", "float32", "float16", "bfloat16")])
    assert np.array_equal(got, want)
