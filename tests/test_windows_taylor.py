"""crtrig.windows.taylor (src/core/window_taylor.c, crtrig._taylor_window) against the
mpmath oracle (tests/oracle.py, "scipy's Taylor window": scipy's own formulas in
mpmath's interval arithmetic, rounded by MPFR): every dtype, both modes, every M from
0 to 200 for several (nbar, sll, norm); sampled elements of long windows (10^5, 2^20);
the exact integer fallback on its own and in place of the C stage; the coefficient
enclosures; thread counts; scipy's small-M results and values; the interface and its
errors."""
import random
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from crtrig import _core, _taylor_window, windows

import oracle

scipy_windows = pytest.importorskip("scipy.signal.windows")

FLOATS = ("float64", "float32", "float16", "bfloat16")
CODES = {"float16": 0, "bfloat16": 1, "float32": 2, "float64": 3}
DTYPES = {"float64": np.float64, "float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
#: (nbar, sll as passed, norm): scipy's defaults first.
PARAMS = [(4, 30, True), (1, 30, True), (2, 30, False), (7, 13.1, True), (4, 100, False), (7, 100, True),
          (2, 13.1, True), (4, 13.1, False)]


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def same(got, want):
    return got.dtype == want.dtype and got.shape == want.shape and np.array_equal(bits(got), bits(want))


def exact_sll(sll):
    """The rational crtrig reads sll as (a float as its shortest decimal)."""
    return Fraction(repr(sll)) if isinstance(sll, float) else Fraction(sll)


_CACHE = {}


@pytest.mark.parametrize("nbar, sll, norm", PARAMS)
@pytest.mark.parametrize("fmt", FLOATS)
def test_every_length_up_to_200(fmt, nbar, sll, norm):
    """Exhaustive: M = 0 .. 200, sym and periodic (every L from 2 to 201), every
    element, against the oracle (one oracle evaluation per distinct (L, i) for all
    four formats, cached across the dtype cases)."""
    S = exact_sll(sll)
    for M in range(201):
        for sym in (True, False):
            want = oracle.taylor_window(M, sym, nbar, S, norm, (fmt,), cache=_CACHE)[fmt]
            got = windows.taylor(M, nbar, sll, norm, sym, dtype=DTYPES[fmt])
            assert same(got, want), (nbar, sll, norm, M, sym, fmt, got, want)


def _sample(L, rng, count=60):
    """Indices of the first half: the ends, the centre, the quarter points, their
    neighbours, random ones and random ones near the ends."""
    half = (L + 1) // 2
    special = [0, 1, 2, 3, half - 1, half - 2, L // 4 - 1, L // 4, L // 4 + 1, L // 3, L // 6]
    picks = {n for n in special if 0 <= n < half} | {rng.randrange(half) for _ in range(count)}
    picks |= {rng.randrange(max(1, half // 1000)) for _ in range(count // 3)}
    return sorted(picks)


@pytest.mark.parametrize("M, sym, nbar, sll, norm", [(10**5, True, 4, 30, True), (10**5, False, 7, 13.1, False),
                                                      (2**20, True, 4, 30, True), (2**20, False, 5, 45, True)])
def test_long_windows_sampled(M, sym, nbar, sll, norm):
    rng = random.Random(M + sym)
    L = M if sym else M + 1
    S = exact_sll(sll)
    picks = _sample(L, rng)
    want = {n: oracle.scipy_taylor_value(L, n, nbar, S, norm) for n in picks}
    for fmt in FLOATS:
        got = windows.taylor(M, nbar, sll, norm, sym, dtype=DTYPES[fmt])
        for n in picks:
            assert float(got[n]) == want[n][fmt], (M, sym, fmt, n, got[n], want[n][fmt])
        # mirrored half: w[L - 1 - n] = w[n]
        for n in picks:
            if L - 1 - n < M:
                assert same(got[L - 1 - n:L - n], got[n:n + 1]), (M, sym, n)


@pytest.mark.parametrize("fmt", FLOATS)
def test_exact_fallback_against_the_oracle(fmt):
    """value_rounded on its own (from a low first precision, so that its loop runs)
    against the oracle, for several parameters and phases."""
    rng = random.Random(7)
    for nbar, sll, norm in [(4, 30, True), (7, 13.1, False), (2, 100, True), (5, 0, True)]:
        S = exact_sll(sll)
        for L in (2, 3, 17, 64, 1001, 2**20 + 1):
            for i in {0, (L - 1) // 2, rng.randrange((L + 1) // 2), rng.randrange((L + 1) // 2)}:
                want = oracle.scipy_taylor_value(L, i, nbar, S, norm, (fmt,))[fmt]
                got = _taylor_window.value_rounded(L, 2 * i - L + 1, nbar, S, norm, CODES[fmt], bits=64)
                assert got == want, (nbar, sll, norm, L, i, fmt, got, want)


@pytest.mark.parametrize("fmt", ("float64", "bfloat16"))
def test_fallback_in_place_of_the_c_stage(monkeypatch, fmt):
    """With the C stage leaving every element undecided, the fallback alone gives the
    oracle's window."""
    real = _core.taylor_fill

    def undecided(L, count, a_hi, a_lo, centre_one, code):
        values, _ = real(L, count, a_hi, a_lo, centre_one, code)
        return np.full_like(values, np.nan), np.arange(count)
    monkeypatch.setattr(_core, "taylor_fill", undecided)
    for M, sym in ((9, True), (12, False), (40, True)):
        got = windows.taylor(M, 5, 27.5, True, sym, dtype=DTYPES[fmt])
        want = oracle.taylor_window(M, sym, 5, Fraction(55, 2), True, (fmt,))[fmt]
        assert same(got, want), (M, sym, got, want)


def test_c_stage_decides_almost_everything():
    """The first stage's bound is tight enough to be useful: at most a handful of
    undecided elements in 5 * 10^4 (float64 and float16)."""
    for code in (3, 0):
        a_hi, a_lo = _taylor_window.coefficients_dd(4, Fraction(30), True)
        values, missing = _core.taylor_fill(10**5, 5 * 10**4, a_hi, a_lo, True, code)
        assert len(missing) <= 5
        assert np.isnan(values[missing]).all() and not np.isnan(np.delete(values, missing)).any()


#: SIMD target slots of this build and CPU (0 baseline, 1 avx2, 2 avx512).
TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]


@pytest.mark.parametrize("target", TARGETS)
def test_simd_targets_bit_identical_and_correct(target):
    """The stage is a per-target kernel (taylor_pass.h: FMA products on avx2 and avx512,
    Dekker's on baseline): each target's values and undecided elements are the
    baseline's, for several parameters, lengths and formats, and sampled values match
    the oracle; a coefficient below 2^-300 sends the fill to the baseline's kernel on every
    target (the same bits again)."""
    rng = random.Random(50 + target)
    for nbar, sll, norm in ((4, 30, True), (7, 100, False), (2, 13.1, True)):
        S = exact_sll(sll)
        a_hi, a_lo = _taylor_window.coefficients_dd(nbar, S, norm)
        for L in (2, 17, 1000, 4097, 10**5 + 1):
            count = (L + 1) // 2
            for fmt in ("float64", "float32", "bfloat16"):
                want, want_missing = _core.taylor_fill(L, count, a_hi, a_lo, norm, CODES[fmt], 0)
                got, missing = _core.taylor_fill(L, count, a_hi, a_lo, norm, CODES[fmt], target)
                assert np.array_equal(missing, want_missing) and same(got, want), (nbar, L, fmt)
            for n in {0, count - 1, rng.randrange(count), rng.randrange(count)}:
                if not np.isnan(got[n]):
                    assert got[n] == oracle.scipy_taylor_value(L, n, nbar, S, norm, ("bfloat16",))["bfloat16"]
    a_hi, a_lo = _taylor_window.coefficients_dd(4, Fraction(30), True)
    a_hi, a_lo = np.append(a_hi, 2.0**-400), np.append(a_lo, 0.0)
    want, want_missing = _core.taylor_fill(4097, 2049, a_hi, a_lo, False, 3, 0)
    got, missing = _core.taylor_fill(4097, 2049, a_hi, a_lo, False, 3, target)
    assert np.array_equal(missing, want_missing) and same(got, want)


ENVIRONMENTS = [(mode, ftz, daz) for mode in _core.ROUNDING_MODES
                for ftz, daz in ([(False, False), (True, True), (True, False)]
                                 if _core.FPENV_METHOD in ("mxcsr", "fpcr") else [(False, False)])]


@pytest.mark.parametrize("fmt", FLOATS)
def test_the_callers_environment_is_ignored(fmt):
    """The C stage in one call under every rounding mode and FTZ/DAZ gives the
    round-to-nearest fill (equal to the oracle at sampled points, checked here too)
    and leaves the environment as it found it."""
    L, count = 4001, 2001
    a_hi, a_lo = _taylor_window.coefficients_dd(4, Fraction(30), True)
    want, undecided, _, _ = _core.taylor_fill_under_fpenv(L, count, a_hi, a_lo, True, CODES[fmt], "nearest")
    for n in range(0, count, 97):
        if not undecided[n]:
            assert want[n] == oracle.scipy_taylor_value(L, n, 4, Fraction(30), True, (fmt,))[fmt], n
    for mode, ftz, daz in ENVIRONMENTS:
        got, flags, before, after = _core.taylor_fill_under_fpenv(L, count, a_hi, a_lo, True, CODES[fmt],
                                                                  mode, ftz, daz)
        assert before["rounding"] == mode
        assert np.array_equal(flags, undecided) and np.array_equal(bits(got), bits(want)), (mode, ftz, daz)
        for key in ("rounding", "ftz", "daz", "control"):
            assert after[key] == before[key]
        assert after["flags"] == before["flags"]


def test_coefficients_against_the_oracle():
    """The double-doubles crtrig passes to C are within 2^-105 of the oracle's
    coefficients (and their enclosures hold them)."""
    import mpmath
    for nbar, S, norm in [(4, Fraction(30), True), (7, Fraction(131, 10), False), (40, Fraction(1, 3), True),
                          (3, Fraction(0), False), (12, Fraction(6000), True)]:
        a_hi, a_lo = _taylor_window.coefficients_dd(nbar, S, norm)
        saved = mpmath.iv.prec
        mpmath.iv.prec = 400
        try:
            ref = oracle._taylor_coefficients(nbar, S, norm, 400)
        finally:
            mpmath.iv.prec = saved
        assert len(a_hi) == nbar
        for m in range(nbar):
            lo, hi = (Fraction(oracle._exact(x)) for x in oracle._iv_ends(ref[m]))
            mine = Fraction(float(a_hi[m])) + Fraction(float(a_lo[m]))
            centre = (lo + hi) / 2
            assert abs(mine - centre) <= abs(centre) * Fraction(1, 2**105) + (hi - lo), (nbar, S, norm, m)
            F = 512
            e_lo, e_hi = _taylor_window.coefficients(nbar, S, norm, F)[m]
            assert Fraction(e_lo, 2**F) <= hi and lo <= Fraction(e_hi, 2**F), (nbar, S, norm, m)


def test_thread_counts_bit_identical():
    import crtrig
    before = crtrig.get_num_threads()
    threshold = _core._set_parallel_threshold(64)
    _core._require_all_workers(True)
    try:
        results = []
        for n in (1, 2, 3):
            crtrig.set_num_threads(n)
            shares = _core.pool_stats()["worker_shares"]
            results.append([windows.taylor(20001), windows.taylor(20000, 7, 13.1, False, False),
                            windows.taylor(5001, dtype=np.float16)])
            if n > 1:
                assert _core.pool_stats()["worker_shares"] > shares
        for other in results[1:]:
            assert all(same(a, b) for a, b in zip(results[0], other))
    finally:
        _core._require_all_workers(False)
        _core._set_parallel_threshold(threshold)
        crtrig.set_num_threads(before)


@pytest.mark.parametrize("M", [0, 1, 2])
@pytest.mark.parametrize("sym", [True, False])
def test_small_m_as_scipy(M, sym):
    for nbar, sll, norm in [(4, 30, True), (3, 20, False), (1, 30, True)]:
        want = scipy_windows.taylor(M, nbar, sll, norm, sym)
        got = windows.taylor(M, nbar, sll, norm, sym)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.allclose(got, want, rtol=1e-13, atol=1e-13), (M, sym, got, want)
        if M <= 1:
            assert same(got, want)


@pytest.mark.parametrize("nbar, sll, norm", PARAMS + [(3, 0, True), (5, 0, False), (40, 60, True), (400, 30, True),
                                                      (10, 6000, False)])
def test_close_to_scipy(nbar, sll, norm):
    for M, sym in ((513, True), (1000, False)):
        want = scipy_windows.taylor(M, nbar, sll, norm, sym)
        got = windows.taylor(M, nbar, sll, norm, sym)
        scale = max(1.0, float(np.max(np.abs(want))))
        assert np.max(np.abs(got - want)) <= 1e-13 * scale, (nbar, sll, norm, M, sym)


def test_get_window():
    assert same(windows.get_window("taylor", 64), windows.taylor(64, sym=False))
    assert same(windows.get_window("taylorwin", 65, fftbins=False), windows.taylor(65))
    assert same(windows.get_window(("taylor", 6, 40), 33), windows.taylor(33, 6, 40, sym=False))
    assert same(windows.get_window(("taylor", 6, 40, False), 33, fftbins=False, dtype=np.float32),
                windows.taylor(33, 6, 40, False, dtype=np.float32))
    assert np.allclose(windows.get_window(("taylor", 6, 40), 33),
                       scipy_windows.get_window(("taylor", 6, 40), 33), rtol=0, atol=1e-13)


def test_exact_points():
    # the centre of a normalised window is 1; nbar = 1 gives ones; float parameters as decimals
    for M in (3, 101, 2**20 + 1):
        assert windows.taylor(M)[M // 2] == 1.0
    assert same(windows.taylor(7, 1, 55, False), np.ones(7))
    assert same(windows.taylor(50, 4, 13.1), windows.taylor(50, 4, "13.1"))
    assert same(windows.taylor(50, 4, 13.1), windows.taylor(50, 4, Fraction(131, 10)))
    assert same(windows.taylor(50, np.int16(4), np.float32(30.0)), windows.taylor(50))


def test_out_and_integer_dtypes():
    out = np.empty(10, dtype=np.float16)
    assert windows.taylor(10, out=out) is out and same(out, windows.taylor(10, dtype=np.float16))
    out = np.empty(10, dtype=ml_dtypes.bfloat16)
    assert windows.taylor(10, sym=False, out=out) is out and same(out, windows.taylor(10, sym=False,
                                                                                      dtype=ml_dtypes.bfloat16))
    assert same(windows.taylor(10, 3, 0, dtype=np.int8), windows.taylor(10, 3, 0, dtype=np.float32).astype(np.int8))


@pytest.mark.parametrize("kwargs, error, match", [
    ({"nbar": 0}, ValueError, "nbar must be an integer from 1 to 400"),
    ({"nbar": -3}, ValueError, "nbar must be"),
    ({"nbar": 401}, ValueError, "nbar must be"),
    ({"nbar": 4.0}, TypeError, "nbar must be an integer"),
    ({"nbar": True}, TypeError, "nbar must be an integer"),
    ({"nbar": "4"}, TypeError, "nbar must be an integer"),
    ({"sll": -1}, ValueError, r"sll must lie in \[0, 6000\]"),
    ({"sll": 6000.5}, ValueError, "sll must lie"),
    ({"sll": float("nan")}, ValueError, "sll must be finite"),
    ({"sll": None}, TypeError, "sll must be"),
    ({"sll": "abc"}, ValueError, "sll"),
    ({"norm": 2}, TypeError, "norm must be a bool"),
    ({"sym": "yes"}, TypeError, "sym must be a bool"),
    ({"nbar": 300, "sll": 0.01}, NotImplementedError, "absolute sum reaches"),
])
def test_errors_leave_out_untouched(kwargs, error, match):
    out = np.full(16, 7.0)
    with pytest.raises(error, match=match):
        windows.taylor(16, out=out, **kwargs)
    assert (out == 7.0).all()


def test_errors_of_m_and_out():
    with pytest.raises(ValueError, match="M must be"):
        windows.taylor(2.5)
    with pytest.raises(TypeError):
        windows.taylor(None)
    with pytest.raises(ValueError):
        windows.taylor(-1)
    with pytest.raises(ValueError, match="M must be at most"):
        windows.taylor(2**52 + 1)
    with pytest.raises(ValueError, match="M must be at most"):
        windows.taylor(2**52, sym=False)
    out = np.full(5, 3.0)
    with pytest.raises(ValueError):
        windows.taylor(6, out=out)
    assert (out == 3.0).all()
