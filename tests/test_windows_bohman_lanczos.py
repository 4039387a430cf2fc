"""crtrig.windows.bohman and crtrig.windows.lanczos (src/core/window_sinc.c, sinc_pass.h,
crtrig._sinc_windows) against the mpmath oracle (tests/oracle.py, "scipy's Bohman
and Lanczos windows": scipy's own formulas in x = 2n/(L - 1) - 1): every dtype, both
modes, every M from 0 to 300; sampled elements of long windows (10^5, 2^20 + 3, and
near the 2^52 limit); the exact integer fallback on its own and in place of the C
stage; exact points, symmetry, scipy's small-M results; the C constants; the
caller's environment and thread counts; the interface."""
import math
import random
from fractions import Fraction

import ml_dtypes
import mpmath
import numpy as np
import pytest

from crtrig import _core, _sinc_windows, windows

import oracle

FLOATS = ("float64", "float32", "float16", "bfloat16")
CODES = {"float16": 0, "bfloat16": 1, "float32": 2, "float64": 3}
DTYPES = {"float64": np.float64, "float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
NAMES = ("bohman", "lanczos")
KIND = {"lanczos": _sinc_windows.LANCZOS, "bohman": _sinc_windows.BOHMAN}


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def same(got, want):
    return got.dtype == want.dtype and got.shape == want.shape and np.array_equal(bits(got), bits(want))


def function(name):
    return getattr(windows, name)


_CACHE = {}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("fmt", FLOATS)
def test_every_length_up_to_300(name, fmt):
    """Exhaustive: M = 0 .. 300, sym and periodic (so every L from 2 to 301), every
    element, against the oracle (one oracle evaluation per distinct (L, i) for all
    four formats, cached across the dtype cases)."""
    for M in range(301):
        for sym in (True, False):
            want = oracle.sinc_window(name, M, sym, (fmt,), cache=_CACHE)[fmt]
            got = function(name)(M, sym=sym, dtype=DTYPES[fmt])
            assert same(got, want), (name, M, sym, fmt, got, want)


def _sample(L, rng, count=30):
    """Indices of the first half of an L-point window: the ends, the centre, the
    switch to Bohman's series (16 k <= D, k = 2n), the quarter point (2k = D),
    their neighbours, and random ones."""
    D = L - 1
    half = (L + 1) // 2
    special = [0, 1, 2, 3, half - 1, half - 2, D // 32 - 1, D // 32, D // 32 + 1, D // 4 - 1, D // 4,
               D // 4 + 1, D // 8]
    picks = {n for n in special if 0 <= n < half} | {rng.randrange(half) for _ in range(count)}
    picks |= {rng.randrange(max(1, half // 1000)) for _ in range(count // 3)}  # near the ends
    return sorted(picks)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("M, sym", [(10**5, True), (10**5, False), (2**20 + 3, False), (2**20, True)])
def test_long_windows_sampled(name, M, sym):
    rng = random.Random(M + sym)
    L = M if sym else M + 1
    for fmt in ("float64", "float32", "float16"):
        got = function(name)(M, sym=sym, dtype=DTYPES[fmt])
        for n in _sample(L, rng):
            want = (oracle.scipy_bohman_value if name == "bohman" else oracle.scipy_lanczos_value)(
                L, True, n, (fmt,))[fmt]
            assert float(got[n]) == want, (name, M, sym, fmt, n, got[n], want)
            if L - 1 - n < M:
                assert bits(got[L - 1 - n: L - n]) == bits(got[n: n + 1]), (name, M, n)


@pytest.mark.parametrize("name", NAMES)
def test_near_the_length_limit(name):
    """The C stage at D = 2^52 (L = 2^52 + 1, the largest), through sinc_fill on the
    first elements (the tiny end values: Bohman about 3.3 g^3, g = 2^-51 n), in
    float64 (each fill builds the sinpi table of all D/2 phases, about 8 s here, so
    the narrower formats, whose rounding is the same code at any D, take D = 2^40),
    and elements near the quarter point and the centre (D/2 = 2^51) through the
    fallback and the oracle at once."""
    kind = KIND[name]
    for fmt, D in (("float64", 2**52), ("float32", 2**40), ("float16", 2**40)):
        L = D + 1
        values, missing = _core.sinc_fill(kind, D, 40, CODES[fmt])
        for n in range(40):
            want = (oracle.scipy_bohman_value if name == "bohman" else oracle.scipy_lanczos_value)(
                L, True, n, (fmt,))[fmt]
            got = _sinc_windows.value_rounded(kind, n, D, CODES[fmt]) if n in missing else values[n]
            assert got == want, (name, fmt, n, got, want)
    D = 2**52
    L = D + 1
    for n in (D // 8, D // 4 - 1, D // 2 - 3, D // 2):
        want = (oracle.scipy_bohman_value if name == "bohman" else oracle.scipy_lanczos_value)(
            L, True, n, ("float64",))["float64"]
        assert _sinc_windows.value_rounded(kind, n, D, 3) == want, (name, n)


@pytest.mark.parametrize("name", NAMES)
def test_few_elements_escalate(name):
    """The double-double stage decides almost everything: at M = 10^5 and 2^20 (both
    modes, every float format) at most a handful of elements go to the fallback.
    (Measured: none.)"""
    for M in (10**5, 2**20):
        for L in (M, M + 1):
            for fmt in FLOATS:
                _, missing = _core.sinc_fill(KIND[name], L - 1, (L + 1) // 2, CODES[fmt])
                assert len(missing) <= 4, (name, L, fmt, missing[:10])


@pytest.mark.parametrize("fmt", FLOATS)
def test_exact_fallback_on_its_own(fmt):
    """crtrig._sinc_windows.value_rounded (the integer fallback) vs the oracle at random
    phases of random lengths (up to 2^45), started at a low precision too, so that
    its doubling loop runs."""
    rng = random.Random(CODES[fmt] + 11)
    for _ in range(60):
        D = rng.choice([rng.randrange(1, 400), rng.randrange(1, 2**20), rng.randrange(1, 2**45)])
        for n in {0, D // 2, rng.randrange(D // 2 + 1), rng.randrange(min(D // 2, 5) + 1)}:
            for name in NAMES:
                want = (oracle.scipy_bohman_value if name == "bohman" else oracle.scipy_lanczos_value)(
                    D + 1, True, n, (fmt,))[fmt]
                got = _sinc_windows.value_rounded(KIND[name], n, D, CODES[fmt])
                assert got == want, (name, D, n, fmt, got, want)
                assert _sinc_windows.value_rounded(KIND[name], n, D, CODES[fmt], bits=8) == want


@pytest.mark.parametrize("name", NAMES)
def test_the_fallback_in_place_of_the_c_stage(name, monkeypatch):
    """Every element left undecided by a stand-in for the C fill: the windows are then
    the fallback's alone, and equal the oracle (and the C stage's windows)."""
    real = _core.sinc_fill

    def undecided(kind, D, count, fmt):
        values, _ = real(kind, D, count, fmt)
        values[:] = np.nan
        return values, np.arange(count)

    cases = [(M, sym, fmt) for M in (2, 3, 4, 17, 64, 129) for sym in (True, False) for fmt in FLOATS]
    normal = {case: function(name)(case[0], sym=case[1], dtype=DTYPES[case[2]]) for case in cases}
    monkeypatch.setattr(_core, "sinc_fill", undecided)
    for M, sym, fmt in cases:
        got = function(name)(M, sym=sym, dtype=DTYPES[fmt])
        want = oracle.sinc_window(name, M, sym, (fmt,), cache=_CACHE)[fmt]
        assert same(got, want), (name, M, sym, fmt)
        assert same(got, normal[(M, sym, fmt)])


@pytest.mark.parametrize("name", NAMES)
def test_exact_points_and_symmetry(name):
    f = function(name)
    for M in (2, 3, 4, 5, 8, 9, 100, 101, 1000, 1001):
        w = f(M)
        assert bits(w[:1])[0] == 0 and bits(w[-1:])[0] == 0  # +0.0 at both ends
        assert same(w, w[::-1].copy())
        if M % 2:
            assert w[M // 2] == 1.0
        else:
            assert np.all(w < 1.0)
        p = f(M, sym=False)
        assert bits(p[:1])[0] == 0 and same(p[1:], p[1:][::-1].copy())
        assert same(p, f(M + 1)[:-1])
        if M % 2 == 0:
            assert p[M // 2] == 1.0
        assert np.all(w >= 0) and np.all(w <= 1)


def test_small_lengths_equal_scipy():
    scipy_windows = pytest.importorskip("scipy.signal.windows")
    for name in NAMES:
        for M in (0, 1):
            for sym in (True, False):
                assert same(function(name)(M, sym=sym), scipy_windows.__dict__[name](M, sym=sym)), (name, M, sym)
    assert same(windows.bohman(2), scipy_windows.bohman(2))          # [0, 0]
    assert same(windows.bohman(2, sym=False), scipy_windows.bohman(2, sym=False))  # [0, 1]
    # lanczos: the exact sinc(+-1) = 0 where scipy's float64 sin(pi) gives 3.9e-17
    assert same(windows.lanczos(2), np.zeros(2))
    assert same(windows.lanczos(2, sym=False), np.array([0.0, 1.0]))
    assert np.allclose(scipy_windows.lanczos(2), 0, atol=1e-16, rtol=0)
    assert scipy_windows.lanczos(2, sym=False)[1] == 1.0


def test_close_to_scipy():
    """scipy's float64 values are within a few ulps of the correctly rounded ones."""
    scipy_windows = pytest.importorskip("scipy.signal.windows")
    for name in NAMES:
        for M in (7, 64, 255, 4097):
            for sym in (True, False):
                got, theirs = function(name)(M, sym=sym), scipy_windows.__dict__[name](M, sym=sym)
                assert np.allclose(got, theirs, rtol=0, atol=2e-15), (name, M, sym)


def test_the_c_constants():
    """window_sinc_coef.c's 1/pi and Bohman series coefficients, each within 2^-106 of its
    value (mpmath at 300 bits)."""
    with mpmath.workprec(300):
        exact = [1 / mpmath.pi] + [(-1) ** j * (2 * j + 2) * mpmath.pi ** (2 * j + 2) / mpmath.factorial(2 * j + 3)
                                   for j in range(10)]
        for j, value in zip(range(-1, 10), exact):
            hi, lo = _core.sinc_constant(j)
            assert hi == float(value) and abs(lo) <= math.ulp(hi) / 2
            assert abs(mpmath.mpf(hi) + mpmath.mpf(lo) - value) <= abs(value) * mpmath.mpf(2) ** -106, j
    with pytest.raises(ValueError):
        _core.sinc_constant(10)


def test_fill_arguments():
    with pytest.raises(ValueError):
        _core.sinc_fill(2, 10, 3, 3)           # no such kind
    with pytest.raises(ValueError):
        _core.sinc_fill(0, 10, 7, 3)           # count > D/2 + 1
    with pytest.raises(ValueError):
        _core.sinc_fill(0, 0, 1, 3)            # D = 0
    with pytest.raises(ValueError):
        _core.sinc_fill(0, 2**52 + 1, 1, 3)    # D above the table's limit
    with pytest.raises(ValueError):
        _core.sinc_fill(0, 10, 3, 4)           # not a float format
    values, missing = _core.sinc_fill(1, 10, 0, 3)
    assert values.shape == (0,) and missing.shape == (0,)


ENVIRONMENTS = [(mode, ftz, daz) for mode in _core.ROUNDING_MODES
                for ftz, daz in ([(False, False), (True, True), (True, False)]
                                 if _core.FPENV_METHOD in ("mxcsr", "fpcr") else [(False, False)])]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("fmt", FLOATS)
def test_the_callers_environment_is_ignored(name, fmt):
    """The C fill in one call under every rounding mode and FTZ/DAZ gives the
    round-to-nearest fill (equal to the oracle at sampled points, checked here too)
    and leaves the environment as it found it."""
    D = 4000
    want, undecided, _, _ = _core.sinc_fill_under_fpenv(KIND[name], D, 2001, CODES[fmt], "nearest")
    for n in range(0, 2001, 97):
        if not undecided[n]:
            expect = (oracle.scipy_bohman_value if name == "bohman" else oracle.scipy_lanczos_value)(
                D + 1, True, n, (fmt,))[fmt]
            assert want[n] == expect, n
    for mode, ftz, daz in ENVIRONMENTS:
        got, flags, before, after = _core.sinc_fill_under_fpenv(KIND[name], D, 2001, CODES[fmt], mode, ftz, daz)
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
            results.append([windows.bohman(20001), windows.lanczos(20000, sym=False),
                            windows.lanczos(5001, dtype=np.float16), windows.bohman(6000, dtype=np.float32)])
            if n > 1:
                assert _core.pool_stats()["worker_shares"] > shares
        for other in results[1:]:
            assert all(same(a, b) for a, b in zip(results[0], other))
    finally:
        _core._require_all_workers(False)
        _core._set_parallel_threshold(threshold)
        crtrig.set_num_threads(before)


TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name]


@pytest.mark.parametrize("name", NAMES)
def test_simd_targets_bit_identical_and_correct(name):
    """The C fill (sinc_pass.h) on every SIMD target of this machine (baseline:
    Dekker's products; avx2, avx512: FMA): identical bits and undecided sets in
    every format, and sampled elements (ends, the series switch, the quarter point,
    the centre, random) equal to the oracle."""
    kind = KIND[name]
    rng = random.Random(name)
    for L in (2, 3, 4, 17, 1001, 4098, 100001, 2**20 + 4):
        D = L - 1
        half = (L + 1) // 2
        for fmt in FLOATS:
            runs = [_core.sinc_fill(kind, D, half, CODES[fmt], t) for t in TARGETS]
            values, missing = runs[0]
            for other, other_missing in runs[1:]:
                assert np.array_equal(bits(other), bits(values)) and np.array_equal(other_missing, missing), \
                    (name, L, fmt)
            for n in _sample(L, rng, count=4):
                if n in missing:
                    continue
                want = (oracle.scipy_bohman_value if name == "bohman" else oracle.scipy_lanczos_value)(
                    L, True, n, (fmt,))[fmt]
                assert values[n] == want, (name, L, n, fmt)
    with pytest.raises(ValueError):
        _core.sinc_fill(kind, 100, 51, CODES["float64"], 7)  # no such target


@pytest.mark.parametrize("name", NAMES)
def test_interface(name):
    f = function(name)
    assert same(windows.get_window(name, 64), f(64, sym=False))
    aliases = {"bohman": ("bman", "bmn"), "lanczos": ("sinc",)}[name]
    for alias in aliases:
        assert same(windows.get_window(alias, 65, fftbins=False), f(65))
        assert same(windows.get_window((alias,), 33, dtype=np.float32), f(33, sym=False, dtype=np.float32))
    assert same(windows.get_window(f"{name}_symmetric", 9), f(9))
    with pytest.raises(ValueError, match="does not allow parameters"):
        windows.get_window((name, 3), 16)
    out = np.empty(10, dtype=np.float16)
    assert f(10, out=out) is out and same(out, f(10, dtype=np.float16))
    out = np.empty(10, dtype=ml_dtypes.bfloat16)
    assert f(10, sym=False, out=out) is out and same(out, f(10, sym=False, dtype=ml_dtypes.bfloat16))
    assert same(f(10, dtype=np.int8), f(10, dtype=np.float32).astype(np.int8))
    assert same(f(10, dtype=np.uint16), f(10, dtype=np.float32).astype(np.uint16))
    assert same(f(1, dtype=np.float32), np.ones(1, dtype=np.float32))
    assert same(f(0, dtype=np.float16), np.ones(0, dtype=np.float16))
    assert same(f(10, xp=np, device="cpu"), f(10))
    with pytest.raises(TypeError):
        f(10, out=np.empty(10, dtype=np.float32), dtype=np.float16)
    with pytest.raises(ValueError):
        f(10, out=np.empty(9))
    with pytest.raises(ValueError):
        f(2.0)
    with pytest.raises(TypeError):
        f(True)
    with pytest.raises(TypeError):
        f(10, sym=None)
    with pytest.raises(TypeError):
        f(10, dtype=np.complex128)
    with pytest.raises(ValueError):
        f(10, device="cuda")
    with pytest.raises(ValueError, match="at most"):
        f(2**52 + 2)
    with pytest.raises(ValueError, match="at most"):
        f(2**52 + 1, sym=False)
    untouched = np.full(10, 7.0)
    with pytest.raises(TypeError):
        f(10, out=untouched, dtype=np.float32)
    assert np.all(untouched == 7.0)


def test_lanczos_sym_is_keyword_only():
    with pytest.raises(TypeError):
        windows.lanczos(10, False)
    assert same(windows.bohman(10, False), windows.bohman(10, sym=False))


@pytest.mark.parametrize("name", NAMES)
def test_a_failed_allocation_writes_nothing(name):
    """Each allocation of the C fill (the sinpi table; Lanczos' scaled coarse entries)
    made to fail in turn: MemoryError, `out` untouched; then the fill succeeds."""
    out = np.full(1001, 7.0)
    try:
        k = 1
        while True:
            _core.fail_allocation(k)
            try:
                function(name)(1001, out=out)
            except MemoryError:
                assert np.all(out == 7.0), k
                k += 1
                continue
            finally:
                left = _core.fail_allocation(0)
            assert left > 0  # no allocation failed: all of them were tried
            break
    finally:
        _core.fail_allocation(0)
    assert k == {"bohman": 2, "lanczos": 3}[name]
    assert same(out, function(name)(1001))
