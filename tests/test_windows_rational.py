"""boxcar, triang, bartlett, parzen (crtrig.windows, crtrig._rational_windows): every
value correctly rounded, against tests/oracle.py (scipy's formulas in exact rationals,
rounded by MPFR), in float64, float32, float16 and bfloat16; scipy's interface."""
import inspect
import random

import numpy as np
import pytest
import scipy.signal

import crtrig
from crtrig import _rational_windows, windows

import oracle

NAMES = ("boxcar", "triang", "bartlett", "parzen")
FLOATS = oracle.FLOAT_FORMATS  # float16, bfloat16, float32, float64
INTEGERS = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")


def np_dtype(fmt):
    return oracle.NUMPY_DTYPES[fmt]


def assert_same_bits(got, want, context):
    assert got.dtype == want.dtype and got.shape == want.shape, (context, got.dtype, want.dtype, got.shape)
    uint = np.dtype(f"u{want.dtype.itemsize}")
    bad = np.nonzero(got.view(uint) != want.view(uint))[0]
    assert bad.size == 0, (f"{context}: {bad.size} of {want.size} differ, first at {bad[0]}: "
                           f"got {got[bad[0]]!r} want {want[bad[0]]!r}")


# Every M in 0..EXHAUSTIVE_M, both modes, every float format (the oracle evaluated once per
# element); about 4 x 2 x 400^2/2 = 640,000 elements.
EXHAUSTIVE_M = 400


@pytest.mark.parametrize("sym", [True, False])
@pytest.mark.parametrize("name", NAMES)
def test_every_value_up_to_M_400(name, sym):
    wrong = 0
    for M in range(EXHAUSTIVE_M + 1):
        want = oracle.rational_window(name, M, sym)
        for fmt in FLOATS:
            got = getattr(windows, name)(M, sym, dtype=fmt)
            assert_same_bits(got, want[fmt], f"{name} M={M} sym={sym} {fmt}")
    assert wrong == 0


def _sample_indices(rng, M, count):
    """Indices of a window of M points: both ends, around the centre and parzen's
    piece boundary (2k = L - 1 near i = (L-1)/4), and random ones."""
    picks = {0, 1, 2, M - 1, M - 2, M // 2 - 1, M // 2, M // 2 + 1, M // 4 - 1, M // 4, M // 4 + 1,
             (3 * M) // 4, (3 * M) // 4 + 1}
    picks |= {rng.randrange(M) for _ in range(count)}
    return np.array(sorted(i for i in picks if 0 <= i < M), dtype=np.int64)


# Sizes around the int64/object boundaries (parzen's 2**17, triang's 2**53) and large ones.
LARGE_SIZES = (2**17 - 2, 2**17 - 1, 2**17, 2**17 + 1, 10**6 + 1, 2**24, 2**24 + 1, 2**40 + 7, 2**53 - 1,
               2**53)


@pytest.mark.parametrize("name", NAMES[1:])
def test_sampled_large_M(name):
    """Sampled elements of windows up to 2**53 points, through the same fraction and
    rounding code as the whole-window call."""
    rng = random.Random(f"large-{name}")
    for M in LARGE_SIZES:
        for sym in (True, False):
            if not sym and M == 2**53 and name == "triang":
                pass  # L + 1 = 2**53 + 2: the object path
            index = _sample_indices(rng, M, 40)
            for fmt in FLOATS:
                got = _rational_windows.window_values(name, M, sym, np_dtype(fmt), index)
                want = np.array([oracle.rational_window_value(name, M, sym, int(i), (fmt,))[fmt] for i in index],
                                dtype=np.float64)
                assert np.array_equal(got.astype(np.float64), want), (name, M, sym, fmt)


@pytest.mark.parametrize("name", NAMES[1:])
def test_whole_windows_past_the_int64_paths(name):
    """Whole windows just past parzen's int64 limit (the Python-int path) equal the
    same windows through the sampled path, and a sample of them the oracle."""
    M = _rational_windows.PARZEN_FLOAT_MAX + 3
    rng = random.Random(f"whole-{name}")
    for fmt in ("float64", "float16"):
        got = getattr(windows, name)(M, dtype=fmt)
        index = _sample_indices(rng, M, 30)
        want = np.array([oracle.rational_window_value(name, M, True, int(i), (fmt,))[fmt] for i in index])
        assert np.array_equal(got[index].astype(np.float64), want), (name, fmt)


def test_midpoints_are_decided_exactly():
    """Quotients whose float64 value is a midpoint of the narrow format (the case double
    rounding gets wrong) round by the exact sign of x - q: num/den just above, just
    below and exactly at midpoints of float16, bfloat16 and float32 (1 + 2^-p, between
    1 and 1 + 2^(1-p)), through the float64 path (integers below 2**53) and the
    Python-int path."""
    for p in (11, 8, 24):
        for shift in (20, 40):
            den = 1 << (p + shift)
            mid = ((1 << p) + 1) << shift
            for num in (mid, mid + 1, mid - 1):
                for fmt in ("float16", "bfloat16", "float32"):
                    want = oracle.round_to_format(oracle.Fraction(num, den), fmt)
                    paths = [np.array([num], dtype=object)]
                    if num < 2**53 and den <= 2**53:
                        paths.append(np.array([num], dtype=np.float64))
                    for array in paths:
                        got = _rational_windows.round_quotients(array, den, np_dtype(fmt))
                        assert got.astype(np.float64).tolist() == [want], (p, shift, num - mid, fmt,
                                                                           array.dtype)


def test_rounding_mode_fallback_gives_the_same_bits(monkeypatch):
    """When numpy's arithmetic is not in round-to-nearest, every element goes through
    exact integers (crtrig.reference.round_rational): the same bits."""
    wants = {(name, fmt): getattr(windows, name)(37, dtype=fmt) for name in NAMES for fmt in FLOATS}
    monkeypatch.setattr(_rational_windows, "_rounding_is_nearest", lambda: False)
    for (name, fmt), want in wants.items():
        assert_same_bits(getattr(windows, name)(37, dtype=fmt), want, f"{name} {fmt} fallback")
    assert _rational_windows._rounding_is_nearest.__call__() is False


def test_rounding_probe_is_true_here():
    assert _rational_windows._rounding_is_nearest() is True


@pytest.mark.parametrize("name", NAMES)
def test_integer_dtypes_truncate_the_float32_window(name):
    for dtype in INTEGERS:
        for M in (0, 1, 2, 7, 64):
            got = getattr(windows, name)(M, dtype=dtype)
            want = getattr(windows, name)(M, dtype=np.float32).astype(dtype)
            assert got.dtype == np.dtype(dtype) and np.array_equal(got, want), (name, dtype, M)


@pytest.mark.parametrize("name", NAMES)
def test_scipy_interface(name):
    """Signature (scipy's positional parameters and defaults), M = 0, 1, 2, values within
    1e-15 of scipy's, periodic = the symmetric window of M + 1 truncated, out=, errors."""
    ours = inspect.signature(getattr(windows, name)).parameters
    theirs = inspect.signature(getattr(scipy.signal.windows, name)).parameters
    assert [(p.name, p.default) for p in ours.values() if p.kind is p.POSITIONAL_OR_KEYWORD] == [
        (p.name, p.default) for p in theirs.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert {"xp", "device", "dtype", "out"} <= set(ours)
    function, scipy_function = getattr(windows, name), getattr(scipy.signal.windows, name)
    for M in (0, 1, 2, 3, 10, 11, 1000, 1001):
        for sym in (True, False):
            got, want = function(M, sym), scipy_function(M, sym)
            assert got.dtype == np.float64 and got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-15)
            if M >= 2:  # (M = 1 is scipy's [1.])
                assert np.array_equal(function(M, sym=False), function(M + 1)[:-1])
    assert function(2).tolist() == scipy_function(2).tolist()
    out = np.full(9, -1.0, np.float32)
    assert function(9, out=out) is out and np.array_equal(out, function(9, dtype=np.float32))
    strided = np.full(18, -1.0)[::2]
    assert function(9, out=strided) is strided and np.array_equal(strided, function(9))
    for bad, error in ((5.5, ValueError), (5.0, ValueError), ("5", ValueError), (-7, ValueError),
                       (True, TypeError), (None, TypeError)):
        with pytest.raises(error):
            function(bad)
    out = np.full(9, -1.0)
    for kwargs, error in (({"sym": "yes"}, TypeError), ({"dtype": "complex64"}, TypeError),
                          ({"xp": object()}, TypeError), ({"device": "cuda"}, ValueError)):
        with pytest.raises(error):
            function(9, out=out, **kwargs)
        assert np.all(out == -1.0)  # nothing written
    assert function(9, xp=np, device="cpu").tolist() == function(9).tolist()


def test_byte_order_and_integer_outputs_follow_the_dtype():
    for name in NAMES:
        for dtype in (">f8", ">f4", "<f2", ">i4"):
            got = getattr(windows, name)(33, dtype=dtype)
            want = getattr(windows, name)(33, dtype=np.dtype(dtype).newbyteorder("="))
            assert got.dtype == np.dtype(dtype) and np.array_equal(got, want), (name, dtype)


def test_close_to_numpy():
    """np.bartlett is scipy's symmetric bartlett: crtrig within 1 ulp-ish (1e-15)."""
    for M in (2, 3, 10, 1001):
        np.testing.assert_allclose(windows.bartlett(M), np.bartlett(M), rtol=0, atol=1e-15)


def test_thread_count_does_not_matter():
    """These windows are computed in NumPy (no C kernel, no SIMD target, no thread
    pool): the thread setting changes nothing."""
    before = crtrig.get_num_threads()
    try:
        results = []
        for threads in (1, 2, 3):
            crtrig.set_num_threads(threads)
            results.append([getattr(windows, name)(70001, dtype=fmt) for name in NAMES for fmt in FLOATS])
        for other in results[1:]:
            for a, b in zip(results[0], other):
                assert_same_bits(a, b, "threads")
    finally:
        crtrig.set_num_threads(before)


def test_python_int_division_is_correctly_rounded():
    """The Python-int path relies on CPython's int / int being correctly rounded
    (round-half-even, in round-to-nearest) for any size: checked against MPFR on
    random and tie cases."""
    rng = random.Random("int-division")
    cases = []
    for _ in range(3000):
        den = rng.getrandbits(rng.randrange(1, 200)) + 1
        num = rng.randrange(0, 2 * den + 1)
        cases.append((num, den))
    for shift in (54, 60, 100):  # exact ties of float64: (2^53 + 1)/2^53 scaled
        cases += [(((1 << 53) + 1) << shift, 1 << (53 + shift)), (((1 << 53) + 3) << shift, 1 << (53 + shift))]
        cases += [(((1 << 53) + 1) << shift | 1, 1 << (53 + shift))]
    for num, den in cases:
        got = _rational_windows._quotients_f64(np.array([num], dtype=object), den)[0]
        assert got == oracle.round_to_format(oracle.Fraction(num, den), "float64"), (num, den)


def _fesetround():
    import ctypes
    import ctypes.util
    import platform
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("fesetround's mode constants are x86-64 glibc's here")
    return ctypes.CDLL(ctypes.util.find_library("m")).fesetround


@pytest.mark.parametrize("mode", [0x400, 0x800, 0xC00])  # FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO
def test_the_callers_rounding_mode_changes_nothing(mode):
    """Under another rounding mode (set by the caller through C's fesetround), the
    probe sees it and every element goes through exact integers: the same bits."""
    fesetround = _fesetround()
    sizes = (2, 7, 64, 1001, _rational_windows.PARZEN_FLOAT_MAX + 1)
    wants = {(name, M, fmt): getattr(windows, name)(M, dtype=fmt) for name in NAMES[1:]
             for M in sizes[:-1] for fmt in FLOATS}
    wants.update({("parzen", sizes[-1], "float16"): windows.parzen(sizes[-1], dtype="float16")})
    assert fesetround(mode) == 0
    try:
        assert _rational_windows._rounding_is_nearest() is False
        gots = {key: getattr(windows, key[0])(key[1], dtype=key[2]) for key in wants}
    finally:
        fesetround(0)
    for key, want in wants.items():
        assert_same_bits(gots[key], want, f"{key} mode {mode:#x}")
