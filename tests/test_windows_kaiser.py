"""crtrig.windows.kaiser (src/core/bessel_i0.c, crtrig._kaiser_window) against the
mpmath oracle (tests/oracle.py, "Kaiser's window": mpmath's besseli at scipy's own
argument): every dtype, both modes, every M up to 40 for several beta (tiny, scipy's
8.6 and 14, and large ones whose ends underflow in the narrow formats), sampled
elements of a long window, the exact fallback, the caller's environment, interface."""
import random
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from crtrig import _core, _exp_windows, _kaiser_window, windows

import oracle

FLOATS = ("float64", "float32", "float16", "bfloat16")
CODES = {"float16": 0, "bfloat16": 1, "float32": 2, "float64": 3}
DTYPES = {"float64": np.float64, "float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
BETAS = [(0.5, Fraction(1, 2)), (8.6, Fraction(43, 5)), (14, Fraction(14)), (120.25, Fraction(481, 4)),
         (600, Fraction(600))]


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def same(got, want):
    return got.dtype == want.dtype and got.shape == want.shape and np.array_equal(bits(got), bits(want))


@pytest.mark.parametrize("beta, exact", BETAS, ids=[str(b) for b, _ in BETAS])
def test_every_length_up_to_40(beta, exact):
    for M in range(41):
        for sym in (True, False):
            want = oracle.kaiser_window(M, sym, exact)
            for fmt in FLOATS:
                got = windows.kaiser(M, beta, sym=sym, dtype=DTYPES[fmt])
                assert same(got, want[fmt]), (beta, M, sym, fmt, got, want[fmt])


def test_long_window_sampled():
    M = 2**20 + 3
    rng = random.Random(7)
    got = windows.kaiser(M, 8.6, sym=False)
    for n in sorted(set([0, 1, M // 2, M - 1] + [rng.randrange(M) for _ in range(25)])):
        assert got[n] == oracle.kaiser_value(M + 1, n, Fraction(43, 5), "float64"), n


@pytest.mark.parametrize("fmt", FLOATS)
def test_exact_fallback(fmt):
    """crtrig._kaiser_window.quotient_rounded (the integer fallback) vs the oracle."""
    rng = random.Random(CODES[fmt])
    for beta in (Fraction(43, 5), Fraction(300), Fraction(1, 7)):
        L = rng.randrange(3, 5000)
        Y = beta * beta / 4
        for n in [0, 1, (L - 1) // 2] + [rng.randrange(L) for _ in range(5)]:
            y = beta * beta * n * (L - 1 - n) / (L - 1) ** 2
            assert _kaiser_window.quotient_rounded(y, Y, CODES[fmt]) == oracle.kaiser_value(L, n, beta, fmt)


def test_exact_points():
    w = windows.kaiser(9, 8.6)
    assert w[4] == 1.0
    assert same(windows.kaiser(16, 0), np.ones(16))
    assert same(windows.kaiser(16, -8.6), windows.kaiser(16, 8.6))
    assert same(windows.kaiser(16, "43/5"), windows.kaiser(16, 8.6))


def test_interface():
    assert same(windows.get_window(8.6, 64), windows.kaiser(64, 8.6, sym=False))
    assert same(windows.get_window(("kaiser", 8.6), 64), windows.kaiser(64, 8.6, sym=False))
    assert same(windows.get_window(("ksr", 14), 65, fftbins=False, dtype=np.float32),
                windows.kaiser(65, 14, dtype=np.float32))
    out = np.empty(10, dtype=np.float16)
    assert windows.kaiser(10, 5.0, out=out) is out and same(out, windows.kaiser(10, 5.0, dtype=np.float16))
    assert same(windows.kaiser(10, 5.0, dtype=np.int8), windows.kaiser(10, 5.0, dtype=np.float32).astype(np.int8))
    with pytest.raises(NotImplementedError, match="scipy.signal.windows.kaiser"):
        windows.kaiser(10, 601)
    with pytest.raises(ValueError):
        windows.kaiser(10, float("inf"))
    with pytest.raises(TypeError):
        windows.kaiser(10, None)


ENVIRONMENTS = [(mode, ftz, daz) for mode in _core.ROUNDING_MODES
                for ftz, daz in ([(False, False), (True, True), (True, False)]
                                 if _core.FPENV_METHOD in ("mxcsr", "fpcr") else [(False, False)])]


@pytest.mark.parametrize("fmt", FLOATS)
def test_the_callers_environment_is_ignored(fmt):
    """The C fill in one call under every rounding mode and FTZ/DAZ gives the
    round-to-nearest fill (equal to the oracle, checked here too), and leaves the
    environment as it found it."""
    L, beta = 301, Fraction(481, 4)
    c_hi, c_lo = _exp_windows.dd_of(beta * beta / (L - 1) ** 2)
    inv_hi, inv_lo = _kaiser_window.inverse_dd(beta * beta / 4)
    want, undecided, _, _ = _core.kaiser_fill_under_fpenv(c_hi, c_lo, inv_hi, inv_lo, L, 151, CODES[fmt],
                                                          "nearest")
    for n in range(0, 151, 10):
        if not undecided[n]:
            assert want[n] == oracle.kaiser_value(L, n, beta, fmt), n
    for mode, ftz, daz in ENVIRONMENTS:
        got, flags, before, after = _core.kaiser_fill_under_fpenv(c_hi, c_lo, inv_hi, inv_lo, L, 151,
                                                                  CODES[fmt], mode, ftz, daz)
        assert before["rounding"] == mode
        assert np.array_equal(flags, undecided) and np.array_equal(bits(got), bits(want)), (mode, ftz, daz)
        for key in ("rounding", "ftz", "daz", "control"):
            assert after[key] == before[key]
        assert after["flags"] == before["flags"]


def test_thread_counts_bit_identical():
    """Split over the pool (threshold lowered, every worker taking part): the same
    bits at 1, 2 and 3 threads, and the pool ran shares."""
    import crtrig
    before = crtrig.get_num_threads()
    threshold = _core._set_parallel_threshold(64)
    _core._require_all_workers(True)
    try:
        results = []
        for n in (1, 2, 3):
            crtrig.set_num_threads(n)
            shares = _core.pool_stats()["worker_shares"]
            results.append([windows.kaiser(20001, 8.6), windows.kaiser(5000, 120.25, sym=False, dtype=np.float16)])
            if n > 1:
                assert _core.pool_stats()["worker_shares"] > shares
        for other in results[1:]:
            assert all(same(a, b) for a, b in zip(results[0], other))
    finally:
        _core._require_all_workers(False)
        _core._set_parallel_threshold(threshold)
        crtrig.set_num_threads(before)


TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name]


@pytest.mark.parametrize("beta", [Fraction(1, 10**8), Fraction(1, 2), Fraction(43, 5), Fraction(40), Fraction(600)],
                         ids=["1e-8", "0.5", "8.6", "40", "600"])
def test_simd_targets_bit_identical_and_correct(beta):
    """The C fill on every SIMD target of this machine (baseline: scalar Dekker
    products; avx2: FMA, 4 lanes): identical bits and undecided sets, and sampled
    elements (ends, centre, random) equal to the oracle."""
    rng = random.Random(str(beta))
    Y = beta * beta / 4
    inv_hi, inv_lo = _kaiser_window.inverse_dd(Y)
    for L in (3, 4, 5, 18, 1001, 4097, 2**26):
        c_hi, c_lo = _exp_windows.dd_of(beta * beta / (L - 1) ** 2)
        half = min((L + 1) // 2, 5000)
        for fmt in FLOATS:
            runs = [_core.kaiser_fill(c_hi, c_lo, inv_hi, inv_lo, L, half, CODES[fmt], simd_target=t)
                    for t in TARGETS]
            values, missing = runs[0]
            for other, other_missing in runs[1:]:
                assert np.array_equal(bits(other), bits(values)) and np.array_equal(other_missing, missing), \
                    (beta, L, fmt)
            picks = {0, 1, half - 1} | {rng.randrange(half) for _ in range(3)}
            for n in sorted(picks - set(missing.tolist())):
                assert values[n] == oracle.kaiser_value(L, n, beta, fmt), (beta, L, n, fmt)


def test_tiny_beta():
    """Below Y = beta^2/4 = 2^-60 every element rounds to 1 (shortcut in
    _kaiser_window.window); just above it the C path runs: both against the oracle."""
    for beta in (Fraction(1, 10**10), Fraction(1, 10**8), Fraction(1, 2**29)):
        for M in (3, 10, 33):
            for sym in (True, False):
                want = oracle.kaiser_window(M, sym, beta)
                for fmt in FLOATS:
                    assert same(windows.kaiser(M, beta, sym=sym, dtype=DTYPES[fmt]), want[fmt]), (beta, M, sym, fmt)
    with pytest.raises(ValueError):  # the C core refuses a table that would underflow
        _core.kaiser_fill(2.0**-500, 0.0, 1.0, 0.0, 11, 6, CODES["float64"])
