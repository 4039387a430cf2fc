"""general_cosine, nuttall, blackmanharris, flattop (crtrig.windows, crtrig._cosine_windows,
src/core/window_cosum.c): every value correctly rounded, against tests/oracle.py (scipy's
formula sum_k a_k cos(k fac) evaluated by mpmath, exact points from Ramanujan sums), in
float64, float32, float16 and bfloat16; scipy's interface."""
import random
from fractions import Fraction

import numpy as np
import pytest
import scipy.signal

from crtrig import _core, _cosine_windows, windows

import oracle

FLOATS = oracle.FLOAT_FORMATS

SCIPY_COEFFICIENTS = {
    "nuttall": (0.3635819, 0.4891775, 0.1365995, 0.0106411),
    "blackmanharris": (0.35875, 0.48829, 0.14128, 0.01168),
    "flattop": (0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368),
}

#: general_cosine coefficient sets (as the user passes them) and their exact values.
#: "pentagon": b_1 = b_2 (b_k = (-1)^k a_k) makes w rational, 0.625, where D' = 5
#: (4c^2 + 2c - 1 = 0); "pentagon zero": 0 there; "octagon midpoint": b_1 = b_3 makes w
#: (a_1 = a_3) rational where D' = 8, here 1 + 2^-24, a float32 and bfloat16 rounding boundary.
GENERAL = {
    "hann": ([0.5, 0.5], [Fraction(1, 2), Fraction(1, 2)]),
    "three": ([0.5, 0.3, 0.2], [Fraction(1, 2), Fraction(3, 10), Fraction(1, 5)]),
    "negative": ([Fraction(-1, 3), 2, "-0.75", 0.125],
                 [Fraction(-1, 3), Fraction(2), Fraction(-3, 4), Fraction(1, 8)]),
    "pentagon": ([0.5, 0.25, -0.25], [Fraction(1, 2), Fraction(1, 4), Fraction(-1, 4)]),
    "pentagon zero": ([-0.125, 0.25, -0.25], [Fraction(-1, 8), Fraction(1, 4), Fraction(-1, 4)]),
    "octagon midpoint": ([Fraction(1) + Fraction(1, 2**24), Fraction(1, 4), 0, Fraction(1, 4)],
                         [Fraction(1) + Fraction(1, 2**24), Fraction(1, 4), Fraction(0), Fraction(1, 4)]),
    "sixteen": ([Fraction((-1) ** k * (k + 1), 7 * (k + 2)) for k in range(16)],
                [Fraction((-1) ** k * (k + 1), 7 * (k + 2)) for k in range(16)]),
}


def np_dtype(fmt):
    return oracle.NUMPY_DTYPES[fmt]


def assert_same_bits(got, want, context):
    assert got.dtype == want.dtype and got.shape == want.shape, (context, got.dtype, want.dtype, got.shape)
    uint = np.dtype(f"u{want.dtype.itemsize}")
    bad = np.nonzero(got.view(uint) != want.view(uint))[0]
    assert bad.size == 0, (f"{context}: {bad.size} of {want.size} differ, first at {bad[0]}: "
                           f"got {got[bad[0]]!r} want {want[bad[0]]!r}")


def window_of(name, M, sym, dtype):
    if name in SCIPY_COEFFICIENTS:
        return getattr(windows, name)(M, sym, dtype=dtype)
    return windows.general_cosine(M, GENERAL[name][0], sym, dtype=dtype)


def exact_coefficients(name):
    if name in SCIPY_COEFFICIENTS:
        return [Fraction(repr(x)) for x in SCIPY_COEFFICIENTS[name]]
    return GENERAL[name][1]


_MEMO = {}


def expected(name, M, sym):
    key = (name, M, sym)
    if key not in _MEMO:
        _MEMO[key] = oracle.scipy_cosine_sum(exact_coefficients(name), M, sym)
    return _MEMO[key]


ALL = tuple(SCIPY_COEFFICIENTS) + tuple(GENERAL)


@pytest.mark.parametrize("name", ALL)
def test_exhaustive_small(name):
    """Every M = 0 .. 64 (the exact phases of many D' among them), both modes, every format."""
    for M in range(0, 65 if name != "sixteen" else 33):
        for sym in (True, False):
            want = expected(name, M, sym) if M else {fmt: np.zeros(0, np_dtype(fmt)) for fmt in FLOATS}
            for fmt in FLOATS:
                assert_same_bits(window_of(name, M, sym, np_dtype(fmt)), want[fmt], (name, M, sym, fmt))


def test_exact_points_found():
    """The non-Niven rational values are found and rounded exactly: 0.625 and 0 where
    D' = 5; 1 + 2^-24 (a float32 tie, rounded to even: 1) where D' = 8."""
    w = windows.general_cosine(6, GENERAL["pentagon"][0])  # D = 5
    assert w[1] == 0.625 and w[2] == 0.625
    w = windows.general_cosine(11, GENERAL["pentagon zero"][0])  # D = 10
    assert w[2] == 0 and w[4] == 0 and not np.signbit(w[2])
    w32 = windows.general_cosine(9, GENERAL["octagon midpoint"][0], dtype=np.float32)  # D = 8
    w64 = windows.general_cosine(9, GENERAL["octagon midpoint"][0])
    assert w64[1] == 1 + 2.0**-24 and w32[1] == 1 and w32[3] == 1
    # above the tie, float32 rounds up
    a = [Fraction(1) + Fraction(1, 2**24) + Fraction(1, 2**60), Fraction(1, 4), 0, Fraction(1, 4)]
    assert windows.general_cosine(9, a, dtype=np.float32)[1] == np.float32(1 + 2.0**-23)


@pytest.mark.parametrize("name", ("flattop", "negative", "pentagon zero"))
@pytest.mark.parametrize("fmt", FLOATS)
def test_stages_agree(name, fmt):
    """Starting at double-double or at the fixed-point stage gives the same bits (and the
    oracle's), so the later stages are checked on every element, negatives included."""
    a = _cosine_windows.coefficients(exact_coefficients(name))
    for M in (7, 20, 33):
        for sym in (True, False):
            want = expected(name, M, sym)[fmt]
            for stage in (1, 2):
                counts = {}
                got = _cosine_windows.cosine_sum(a, M, not sym, np_dtype(fmt), None, "t", _first_stage=stage,
                                                 _counts=counts)
                assert_same_bits(got, want, (name, M, sym, fmt, stage))
                if stage == 2:
                    assert counts["double"] == counts["double-double"] == 0


def test_fixed_point_precision_loop():
    """The fixed-point stage started at 32 bits (too few for float64) must go up in
    precision and still give the oracle's bits."""
    a = _cosine_windows.coefficients(exact_coefficients("flattop"))
    counts = {}
    got = _cosine_windows.cosine_sum(a, 40, True, np.dtype(np.float64), None, "t", _first_stage=2,
                                     _multi_start_bits=32, _counts=counts)
    assert counts["multi-precision retries"] > 0
    assert_same_bits(got, expected("flattop", 40, False)["float64"], "flattop 40")


SAMPLED_SIZES = (1000, 4099, 65536 + 5, 2**20 + 1, 3 * 2**21, 2**24)


@pytest.mark.parametrize("name", ("nuttall", "flattop", "negative"))
def test_sampled_large(name):
    """Sampled phases of windows up to 2^24 points (the element hook), every format,
    against the oracle; the whole window once at 2^16 + 5 against its sampled elements."""
    rng = random.Random(19)
    a = _cosine_windows.coefficients(exact_coefficients(name))
    for M in SAMPLED_SIZES:
        for sym in (True, False):
            D = M - 1 if sym else M
            exact = _cosine_windows.exact_phases(_cosine_windows.core_spec(a)[1], D)
            points = {1, 2, D // 2, D // 4 + 1, D // 3 + 1} | {rng.randrange(0, D // 2 + 1) for _ in range(6)}
            points = sorted(p for p in points if p not in exact)
            for n in points:
                want = oracle.scipy_cosine_sum_value(exact_coefficients(name), M, sym, n)
                for fmt in FLOATS:
                    got, _ = _cosine_windows.element(a, n, D, np_dtype(fmt))
                    assert got == want[fmt] and np.signbit(got) == np.signbit(want[fmt]), (name, M, sym, n, fmt)
    w = window_of(name, 65536 + 5, True, np.float64)
    for n in (0, 1, 17, 30000, 32770, 65540):
        want = oracle.scipy_cosine_sum_value(exact_coefficients(name), 65536 + 5, True, n, ("float64",))
        assert w[n] == want["float64"], n


def test_against_scipy_values():
    """crtrig and scipy agree within scipy's float64 rounding (it sums float64 cosines)."""
    for name in SCIPY_COEFFICIENTS:
        for M in (2, 3, 10, 101, 1000):
            for sym in (True, False):
                ours = getattr(windows, name)(M, sym)
                theirs = getattr(scipy.signal.windows, name)(M, sym)
                assert np.max(np.abs(ours - theirs)) <= 1e-15, (name, M, sym)
    assert np.max(np.abs(windows.general_cosine(50, [0.5, 0.3, 0.2])
                         - scipy.signal.windows.general_cosine(50, [0.5, 0.3, 0.2]))) <= 1e-15


def test_interface():
    assert windows.flattop(0).shape == (0,) and windows.flattop(0).dtype == np.float64
    assert list(windows.nuttall(1)) == [1.0] and list(windows.general_cosine(1, [0.5, 0.5], False)) == [1.0]
    assert windows.blackmanharris(2).tolist() == [6e-05, 6e-05]  # 0.35875 - 0.48829 + 0.14128 - 0.01168, exactly
    assert windows.general_cosine(5, []).tolist() == [0.0] * 5
    assert windows.general_cosine(4, [0.75]).tolist() == [0.75] * 4
    assert windows.general_cosine(4, np.array([0.5, 0.5], dtype=np.float32)).tolist() == \
        windows.hann(4).tolist()
    for bad in (2.5, "8"):
        with pytest.raises(ValueError):
            windows.flattop(bad)
    with pytest.raises(ValueError):
        windows.nuttall(-1)
    with pytest.raises(TypeError):
        windows.flattop(8, xp=object())
    with pytest.raises(ValueError):
        windows.blackmanharris(8, device="cuda")
    with pytest.raises(ValueError, match="at most 16 terms"):
        windows.general_cosine(8, [0.1] * 17)
    with pytest.raises(ValueError, match="out of range"):
        windows.general_cosine(8, [1e5])
    with pytest.raises(ValueError, match="finite"):
        windows.general_cosine(8, [np.nan])
    with pytest.raises(TypeError):
        windows.general_cosine(8, [True])
    with pytest.raises(TypeError):
        windows.general_cosine(8, [None])
    out = np.full(9, 7.0, dtype=np.float32)
    assert windows.flattop(9, out=out) is out
    assert_same_bits(out, windows.flattop(9, dtype=np.float32), "out")
    strided = np.zeros(18)[::2]
    windows.nuttall(9, out=strided)
    assert_same_bits(strided, windows.nuttall(9), "strided")
    big = windows.flattop(9, dtype=">f8")
    assert big.dtype == np.dtype(">f8") and big.tolist() == windows.flattop(9).tolist()
    ints = windows.flattop(9, dtype=np.int16)
    assert ints.tolist() == windows.flattop(9, dtype=np.float32).astype(np.int16).tolist()


def test_get_window():
    for names, function in ((("nuttall", "nutl", "nut"), windows.nuttall),
                            (("blackmanharris", "blackharr", "bkh"), windows.blackmanharris),
                            (("flattop", "flat", "flt"), windows.flattop)):
        for name in names:
            assert_same_bits(windows.get_window(name, 12), function(12, sym=False), name)
            assert_same_bits(windows.get_window(name + "_symmetric", 12), function(12), name)
            assert_same_bits(windows.get_window(name, 12, fftbins=False, dtype=np.float16),
                             function(12, dtype=np.float16), name)
    a = [0.5, 0.3, 0.2]
    for name in ("general_cosine", "general cosine"):
        assert_same_bits(windows.get_window((name, a), 8), windows.general_cosine(8, a, sym=False), name)
    with pytest.raises(ValueError):
        windows.get_window("general_cosine", 8)
    with pytest.raises(ValueError):
        windows.get_window(("flattop", 1.0), 8)


@pytest.fixture
def thread_settings():
    import crtrig
    from crtrig import _core
    count = crtrig.get_num_threads()
    threshold = _core._set_parallel_threshold(_core.thread_config()["parallel_threshold"])
    yield crtrig, _core
    crtrig.set_num_threads(count)
    _core._set_parallel_threshold(threshold)
    _core._require_all_workers(False)


@pytest.mark.parametrize("count", (2, 3, 7))
def test_threads_bit_identical(thread_settings, count):
    """Split over 2, 3 and 7 threads (a low parallel threshold, every worker taking part):
    the same bits and the same merged stage counts as one thread, every format, an
    exact-phase skip list included (D = 5 * 2^k), forced stages too."""
    crtrig, _core = thread_settings
    cases = [("flattop", 3001, False), ("pentagon", 5 * 2**10 + 1, True), ("negative", 4097, True)]
    for name, M, sym in cases:
        a = _cosine_windows.coefficients(exact_coefficients(name))
        for fmt in FLOATS:
            for stage in (0, 1):
                crtrig.set_num_threads(1)
                single = {}
                want = _cosine_windows.cosine_sum(a, M, not sym, np_dtype(fmt), None, "t", _first_stage=stage,
                                                  _counts=single)
                crtrig.set_num_threads(count)
                _core._set_parallel_threshold(256)
                _core._require_all_workers(True)
                split = {}
                before = _core.pool_stats()["parallel_jobs"]
                got = _cosine_windows.cosine_sum(a, M, not sym, np_dtype(fmt), None, "t", _first_stage=stage,
                                                 _counts=split)
                assert _core.pool_stats()["parallel_jobs"] == before + 1
                _core._require_all_workers(False)
                assert_same_bits(got, want, (name, M, sym, fmt, stage, count))
                assert split == single


LISTED = {"cosine": oracle.scipy_cosine_value, "barthann": oracle.scipy_barthann_value}


def listed_expected(name, M, sym):
    key = ("listed", name, M, sym)
    if key not in _MEMO:
        rows = [LISTED[name](M, sym, i) for i in range(M)]
        _MEMO[key] = {fmt: np.array([r[fmt] for r in rows], dtype=np.float64).astype(np.float32 if fmt == "bfloat16"
                                                                                      else np.float64)
                      .astype(np_dtype(fmt)) for fmt in FLOATS}
    return _MEMO[key]


@pytest.mark.parametrize("name", tuple(LISTED))
def test_listed_exhaustive_small(name):
    """cosine and barthann: every M = 0 .. 64, both modes, every format, against the oracle
    (scipy's formulas: sinpi of (i + 1/2)/L; 0.62 - 0.48 f + 0.38 cos(2 pi f))."""
    for M in range(0, 65):
        for sym in (True, False):
            got = {fmt: getattr(windows, name)(M, sym, dtype=np_dtype(fmt)) for fmt in FLOATS}
            if M == 0:
                assert all(g.shape == (0,) for g in got.values())
                continue
            want = listed_expected(name, M, sym)
            for fmt in FLOATS:
                assert_same_bits(got[fmt], want[fmt], (name, M, sym, fmt))


@pytest.mark.parametrize("name", tuple(LISTED))
def test_listed_stages_and_sampled(name):
    """The later stages forced give the same bits; sampled elements of large windows."""
    make = {"cosine": _cosine_windows.cosine_window, "barthann": _cosine_windows.barthann_window}[name]
    for fmt in FLOATS:
        for M in (9, 30):
            for sym in (True, False):
                want = listed_expected(name, M, sym)[fmt]
                for stage in (1, 2):
                    assert_same_bits(make(M, sym, np_dtype(fmt), None, _first_stage=stage), want,
                                     (name, M, sym, fmt, stage))
    rng = random.Random(7)
    for M in (10**5 + 3, 3 * 2**18):
        for sym in (True, False):
            w = {fmt: getattr(windows, name)(M, sym, dtype=np_dtype(fmt)) for fmt in FLOATS}
            for i in sorted({0, 1, M // 2, M // 3, M - 1} | {rng.randrange(M) for _ in range(5)}):
                want = LISTED[name](M, sym, i)
                for fmt in FLOATS:
                    assert float(w[fmt][i]) == want[fmt], (name, M, sym, i, fmt)


def test_listed_interface():
    assert windows.cosine(1).tolist() == [1.0] and windows.barthann(0).shape == (0,)
    assert windows.barthann(2).tolist() == [0.0, 0.0]
    assert windows.cosine(3).tolist() == [0.5, 1.0, 0.5]
    with pytest.raises(ValueError, match="at most"):
        windows.cosine(2**51 + 1)
    with pytest.raises(ValueError, match="at most"):
        windows.barthann(2**52 + 2)
    for name, aliases in (("cosine", ("cosine", "halfcosine")), ("barthann", ("barthann", "brthan", "bth"))):
        for alias in aliases:
            assert_same_bits(windows.get_window(alias, 11), getattr(windows, name)(11, sym=False), alias)
    out = np.zeros(20, dtype=np.float32)[::-2]
    windows.barthann(10, out=out)
    assert_same_bits(out, windows.barthann(10, dtype=np.float32), "strided out")


@pytest.mark.parametrize("count", (2, 7))
def test_listed_threads_bit_identical(thread_settings, count):
    """cosine and barthann (listed phases) split over threads: the same bits as one thread."""
    crtrig, _core = thread_settings
    for make, M in ((_cosine_windows.cosine_window, 6001), (_cosine_windows.barthann_window, 4099)):
        for fmt in FLOATS:
            for stage in (0, 1):
                crtrig.set_num_threads(1)
                want = make(M, True, np_dtype(fmt), None, _first_stage=stage)
                crtrig.set_num_threads(count)
                _core._set_parallel_threshold(256)
                _core._require_all_workers(True)
                before = _core.pool_stats()["parallel_jobs"]
                got = make(M, True, np_dtype(fmt), None, _first_stage=stage)
                assert _core.pool_stats()["parallel_jobs"] == before + 1
                _core._require_all_workers(False)
                assert_same_bits(got, want, (make.__name__, fmt, stage, count))


#: SIMD target slots of this build and CPU (0 baseline, 1 avx2, 2 avx512).
TARGET_SLOTS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]


@pytest.mark.parametrize("target", TARGET_SLOTS)
def test_barthann_float64_pass_on_every_target(target):
    """barthann's float64 pass (window_lin_sin2.c over window64_pass.h's kind 4: w =
    (12/25) n/N + (19/25) sin^2(pi n/N) for n <= N/2) through each target's kernel: the
    baseline's bits, and sampled elements (the ends, exact points, random) against the
    oracle; the whole window (the pass and its mirror) against the cosine-sum stages."""
    rng = random.Random(31 + target)
    for N in (2, 3, 12, 1000, 4097, 10**5 + 1, 2**20 + 3):
        h = N // 2 + 1
        k_hi, k_lo = _cosine_windows.double_double(Fraction(12, 25 * N))
        b_hi, b_lo = _cosine_windows.double_double(Fraction(19, 25))
        base, got = np.empty(h), np.empty(h)
        _core.lin_sin2_fill(N, base, k_hi, k_lo, b_hi, b_lo, 0)
        missing = _core.lin_sin2_fill(N, got, k_hi, k_lo, b_hi, b_lo, target)
        assert missing == int(np.isnan(got).sum()) and np.array_equal(base.view(np.uint64), got.view(np.uint64))
        L = N + 1  # the symmetric window of N + 1 points: w[n] at n <= N/2
        for n in sorted({0, 1, h - 1, N // 4, N // 6, N // 3} | {rng.randrange(h) for _ in range(12)}):
            if not np.isnan(got[n]):
                assert got[n] == LISTED["barthann"](L, True, n)["float64"], (N, n)
    for M in (5, 64, 1001, 4098):
        for sym in (True, False):
            fast = windows.barthann(M, sym)
            staged = _cosine_windows.barthann_window(M, sym, np.dtype(np.float64), None, _first_stage=1)
            assert_same_bits(fast, staged, (M, sym))


def test_barthann_undecided_go_through_the_stages(monkeypatch):
    """Elements the float64 pass leaves undecided (NaN) are computed by the cosine-sum
    stages one by one: a pass that marks every third element still gives the oracle's
    window."""
    real = _core.lin_sin2_fill

    def marking(D, out, *args):
        real(D, out, *args)
        out[::3] = np.nan
        return len(out[::3])
    monkeypatch.setattr(_cosine_windows._core, "lin_sin2_fill", marking)
    for M in (7, 40, 65):
        for sym in (True, False):
            assert_same_bits(windows.barthann(M, sym), listed_expected("barthann", M, sym)["float64"], (M, sym))


def test_allocation_failure_writes_nothing():
    """The C core's workspace or table cannot be allocated: MemoryError, out untouched."""
    from crtrig import _core
    for k in (1, 2):
        out = np.full(1000, 7.0)
        _core.fail_allocation(k)
        try:
            with pytest.raises(MemoryError):
                windows.flattop(1000, out=out)
        finally:
            _core.fail_allocation(0)
        assert (out == 7.0).all()
    assert_same_bits(windows.flattop(1000, out=out), windows.flattop(1000), "after")


@pytest.mark.parametrize("name", ("negative", "pentagon", "pentagon zero", "octagon midpoint", "flattop"))
def test_against_crtrig_reference(name):
    """A second, independent exact method: crtrig.reference.cosine_sum_bits (integer
    interval arithmetic; rational values by the cyclotomic remainder), M up to 40."""
    from crtrig import reference
    coefficients = exact_coefficients(name)
    for M in range(2, 41):
        for sym in (True, False):
            D = M - 1 if sym else M
            for fmt in FLOATS:
                got = window_of(name, M, sym, np_dtype(fmt))
                bits_type = np.uint64 if fmt == "float64" else np.uint32 if fmt == "float32" else np.uint16
                want = np.array([reference.cosine_sum_bits(coefficients, n, D, fmt) for n in range(M)],
                                dtype=bits_type).view(np_dtype(fmt))
                assert_same_bits(got, want, (name, M, sym, fmt))


@pytest.mark.parametrize("M", [2, 3, 4, 5, 17, 1000, 4099, 65536 + 5, 10**5])
def test_cosine_window_float64_stage_is_the_fixed_point_stage(M):
    """The cosine window's float64 double-double stage (window_cosum.c's sine_value: the
    sine straight from a table of denominator D/2) decides every element and gives the
    bits of the fixed-point stage forced on every element (test hook), both modes; a
    few elements against tests/oracle.py."""
    for sym in (True, False):
        fast, forced = {}, {}
        got = _cosine_windows.cosine_window(M, sym, np.dtype(np.float64), None, _counts=fast)
        want = _cosine_windows.cosine_window(M, sym, np.dtype(np.float64), None, _first_stage=2, _counts=forced)
        assert_same_bits(got, want, f"cosine {M} {sym}")
        assert fast["multi-precision"] == 0 and fast["double-double"] == forced["multi-precision"]
        L = M if sym else M + 1
        assert fast["double-double"] + fast["exact"] == (L + 1) // 2 and (M < 5 or fast["double-double"] > 0)
        for n in {0, 1, (M - 1) // 2, M - 1}:
            assert got[n] == oracle.scipy_cosine_value(L, True, min(n, L - 1 - n), ("float64",))["float64"], n


_TARGET_SCRIPT = r"""
import hashlib, sys
import ml_dtypes, numpy as np
import crtrig
from crtrig import windows as w
assert crtrig.simd_target() == sys.argv[1], (crtrig.simd_target(), sys.argv[1])
h = hashlib.sha256()
for M in (2, 3, 17, 1000, 4097, 100001):
    for sym in (True, False):
        for dt in (np.float64, np.float32, np.float16, ml_dtypes.bfloat16):
            for a in (w.barthann(M, sym=sym, dtype=dt), w.nuttall(M, sym=sym, dtype=dt),
                      w.flattop(M, sym=sym, dtype=dt), w.cosine(M, sym=sym, dtype=dt),
                      w.general_cosine(M, [0.5, 0.3, 0.2], sym=sym, dtype=dt)):
                h.update(a.tobytes())
print(h.hexdigest())
"""


def test_simd_targets_bit_identical():
    """The double-double stage is a per-target kernel (cosum_pass.h: FMA products on
    avx2 and avx512, Dekker's on baseline): the same bits from every SIMD target of
    this machine (each in its own process, CRTRIG_TARGET), five windows, six lengths,
    both modes, four dtypes.  Their correctness against the oracle is the other tests'."""
    import os
    import subprocess
    import sys
    import crtrig
    digests = {}
    for name in crtrig.simd_targets():
        env = dict(os.environ, CRTRIG_TARGET=name)
        run = subprocess.run([sys.executable, "-c", _TARGET_SCRIPT, name], env=env, capture_output=True,
                             text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        digests[name] = run.stdout.strip()
    assert len(digests) >= 1 and len(set(digests.values())) == 1, digests
