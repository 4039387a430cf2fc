"""crtrig.windows.kaiser_bessel_derived (crtrig._kbd_window) against the mpmath oracle
(tests/oracle.py, kbd_window: scipy's recipe -- kaiser(M // 2 + 1, beta) from mpmath's
besseli, running sums, root of the ratio): every dtype, every element of every even M
up to 200 for several beta, larger beta (ends underflowing in the narrow formats),
long windows, the exact paths (beta = 0, M = 2, rational roots), the refinement and
its cap, and scipy's interface."""
from fractions import Fraction

import ml_dtypes
import mpmath
import numpy as np
import pytest
import scipy.signal.windows as scipy_windows

import random

from crtrig import _core, _exp_windows, _kbd_window, _kaiser_window, windows

import fast_oracle
import oracle

FLOATS = ("float64", "float32", "float16", "bfloat16")
CODES = {"float16": 0, "bfloat16": 1, "float32": 2, "float64": 3}
DTYPES = {"float64": np.float64, "float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
# (beta as passed, the exact rational crtrig reads it as)
BETAS = [(0, Fraction(0)), (0.5, Fraction(1, 2)), (1, Fraction(1)), (4.0, Fraction(4)), (8.6, Fraction(43, 5))]
LARGE_BETAS = [(40, Fraction(40)), (120.25, Fraction(481, 4)), (600, Fraction(600))]


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def same(got, want):
    return got.dtype == want.dtype and got.shape == want.shape and np.array_equal(bits(got), bits(want))


def check(M, beta, exact, fmts=FLOATS):
    want = oracle.kbd_window(M, exact, fmts)
    for fmt in fmts:
        got = windows.kaiser_bessel_derived(M, beta, dtype=DTYPES[fmt])
        assert same(got, want[fmt]), (beta, M, fmt, got, want[fmt])


@pytest.mark.parametrize("beta, exact", BETAS, ids=[str(b) for b, _ in BETAS])
def test_every_even_length_up_to_200(beta, exact):
    for M in range(0, 201, 2):
        check(M, beta, exact)


@pytest.mark.parametrize("beta, exact", LARGE_BETAS, ids=[str(b) for b, _ in LARGE_BETAS])
def test_large_beta(beta, exact):
    """w[0] = sqrt(1/B) ~ exp(-beta/2): subnormal or zero in float16 (and bfloat16 at 600)."""
    for M in list(range(2, 41, 2)) + [64, 100]:
        check(M, beta, exact)
    w = windows.kaiser_bessel_derived(40, beta, dtype=np.float16)
    assert w[0] < 2.0 ** -14  # below float16's normal range: its subnormals (or 0) rounded once


@pytest.mark.parametrize("M, beta, exact", [(2000, 8.6, Fraction(43, 5)), (10**4, 3.25, Fraction(13, 4))])
def test_long_windows(M, beta, exact):
    """Every element of a long window in float64 and float32 (the oracle computes all)."""
    check(M, beta, exact, ("float64", "float32"))


def test_exact_values():
    half = np.sqrt(np.float64(0.5))  # numpy's sqrt is correctly rounded
    for beta in (0, 0.5, 8.6, 600):
        assert same(windows.kaiser_bessel_derived(2, beta), np.array([half, half]))
    w = windows.kaiser_bessel_derived(6, 0)  # sqrt(1/4), sqrt(2/4), sqrt(3/4)
    assert w[0] == 0.5 and w[5] == 0.5
    assert same(windows.kaiser_bessel_derived(0, 8.6), np.empty(0))
    assert same(windows.kaiser_bessel_derived(0, 8.6, dtype=np.float16), np.empty(0, dtype=np.float16))
    assert same(windows.kaiser_bessel_derived(16, -8.6), windows.kaiser_bessel_derived(16, 8.6))
    assert same(windows.kaiser_bessel_derived(16, "43/5"), windows.kaiser_bessel_derived(16, 8.6))
    assert same(windows.kaiser_bessel_derived(16, Fraction(43, 5)), windows.kaiser_bessel_derived(16, 8.6))


def test_sqrt_rational_rounded():
    """Exact rational roots, including ties of the narrow formats."""
    f = _kbd_window.sqrt_rational_rounded
    assert f(1, 4, 3) == 0.5
    assert f(4095 ** 2, 4096 ** 2, 2) == 4095 / 4096  # exact in float32
    assert f(4095 ** 2, 4096 ** 2, 0) == 1.0  # a float16 tie: to even (1.0, not 1 - 2^-11)
    assert f(4093 ** 2, 4096 ** 2, 0) == 4092 / 4096  # a tie between 4092 and 4094: to even
    assert f(1, 2, 3) == float(np.sqrt(0.5))
    for p, q in [(1, 3), (2, 3), (5, 7), (99, 100), (3, 4)]:
        def evaluate(prec, p=p, q=q):
            with mpmath.workprec(prec + 8):
                return mpmath.sqrt(mpmath.mpf(p) / q), Fraction(1, 2 ** (prec + 6))
        for fmt in FLOATS:
            assert f(p, q, CODES[fmt]) == oracle.correctly_rounded(evaluate, fmt), (p, q, fmt)


def test_symmetry_and_princen_bradley():
    w = windows.kaiser_bessel_derived(1000, 8.6)
    assert np.array_equal(w, w[::-1])
    assert np.allclose(w[:500] ** 2 + w[500:] ** 2, 1.0, rtol=0, atol=4e-16)
    assert np.all(np.diff(w[:500]) > 0)
    s = scipy_windows.kaiser_bessel_derived(1000, 8.6)
    assert np.allclose(w, s, rtol=1e-14, atol=0)


def force_exact_path(monkeypatch, calls=None):
    """Test hook: the C stage (_core.kbd_fill) reports every third element undecided
    (NaN), so _kbd_window.window takes the exact path for the whole window."""
    original = _core.kbd_fill

    def undecided(*args, **kwargs):
        values, _ = original(*args, **kwargs)
        missing = np.arange(0, len(values), 3)
        values[missing] = np.nan
        if calls is not None:
            calls.append(args)
        return values, missing

    monkeypatch.setattr(_core, "kbd_fill", undecided)


def test_refinement(monkeypatch):
    """Enclosures widened at F = 128 leave elements undecided; the refinement at 2F
    gives the oracle's values (the exact path: the C stage made to leave elements
    undecided)."""
    force_exact_path(monkeypatch)
    original = _kaiser_window._series_bounds
    seen = []

    def wide(a, b, F):
        lo, hi = original(a, b, F)
        seen.append(F)
        return (lo - (1 << (F - 30)), hi + (1 << (F - 30))) if F == 128 else (lo, hi)

    monkeypatch.setattr(_kbd_window, "_series_bounds", wide)
    want = oracle.kbd_window(60, Fraction(43, 5), ("float64",))["float64"]
    assert same(windows.kaiser_bessel_derived(60, 8.6), want)
    assert 128 in seen and 256 in seen


def test_precision_cap(monkeypatch):
    force_exact_path(monkeypatch)
    monkeypatch.setattr(_kbd_window, "MAX_F", 64)
    with pytest.raises(ArithmeticError, match="no rounding decision"):
        windows.kaiser_bessel_derived(8, 8.6)


def test_integer_dtype_and_out():
    assert same(windows.kaiser_bessel_derived(10, 5.0, dtype=np.int8),
                windows.kaiser_bessel_derived(10, 5.0, dtype=np.float32).astype(np.int8))
    out = np.empty(10, dtype=np.float16)
    assert windows.kaiser_bessel_derived(10, 5.0, out=out) is out
    assert same(out, windows.kaiser_bessel_derived(10, 5.0, dtype=np.float16))
    out = np.empty(10, dtype=ml_dtypes.bfloat16)
    windows.kaiser_bessel_derived(10, 5.0, out=out)
    assert same(out, windows.kaiser_bessel_derived(10, 5.0, dtype=ml_dtypes.bfloat16))
    # errors before anything is written
    for bad in (dict(out=np.full(8, 7.0)), dict(out=np.full(10, 7.0), dtype=np.float32),
                dict(out=np.full(10, 7.0), beta=None), dict(out=np.full(10, 7.0), beta=601),
                dict(out=np.full(10, 7.0), sym=False), dict(out=np.full(10, 7.0), device="cuda")):
        target = bad["out"]
        kwargs = {k: v for k, v in bad.items() if k != "beta"}
        with pytest.raises((TypeError, ValueError, NotImplementedError)):
            windows.kaiser_bessel_derived(10, bad.get("beta", 5.0), **kwargs)
        assert np.all(target == 7.0)
    ro = np.empty(10)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        windows.kaiser_bessel_derived(10, 5.0, out=ro)


def test_arguments_like_scipy():
    for M in (1, 3, 7, 101):
        for f in (windows.kaiser_bessel_derived, scipy_windows.kaiser_bessel_derived):
            with pytest.raises(ValueError, match="even number of points"):
                f(M, 8.6)
    for f in (windows.kaiser_bessel_derived, scipy_windows.kaiser_bessel_derived):
        with pytest.raises(ValueError, match="only defined for symmetric"):
            f(8, 8.6, sym=False)
    with pytest.raises(TypeError):
        windows.kaiser_bessel_derived(8, 8.6, True)  # sym is keyword-only, as in scipy
    with pytest.raises(TypeError):
        scipy_windows.kaiser_bessel_derived(8, 8.6, True)
    with pytest.raises(ValueError):
        windows.kaiser_bessel_derived(8.0, 8.6)
    with pytest.raises(ValueError):
        windows.kaiser_bessel_derived(8, float("nan"))
    with pytest.raises(TypeError):
        windows.kaiser_bessel_derived(8, None)
    with pytest.raises(TypeError):
        windows.kaiser_bessel_derived(8, 8.6, dtype=np.complex128)
    with pytest.raises(NotImplementedError, match="scipy.signal.windows.kaiser_bessel_derived"):
        windows.kaiser_bessel_derived(8, 600.5)
    with pytest.raises(NotImplementedError, match="scipy.signal.windows.kaiser_bessel_derived"):
        windows.kaiser_bessel_derived(2**27, 8.6)
    assert same(windows.kaiser_bessel_derived(8, 8.6, xp=np, device="cpu"), windows.kaiser_bessel_derived(8, 8.6))


def test_scipys_test_basic_after_its_first_line():
    """scipy's TestKaiserBesselDerived::test_basic, which the scipy suite sees fail at
    its first line (M = 0.5: a ValueError here, deliberately); the rest of it."""
    with pytest.raises(ValueError, match="M must be an integer"):
        windows.kaiser_bessel_derived(0.5, beta=4.0)
    M = 100
    w = windows.kaiser_bessel_derived(M, beta=4.0)
    assert same(windows.get_window(("kaiser bessel derived", 4.0), M, fftbins=False), w)
    np.testing.assert_allclose(w[:M // 2] ** 2 + w[-M // 2:] ** 2, 1.0, rtol=1e-7)
    np.testing.assert_allclose(windows.kaiser_bessel_derived(2, beta=np.pi / 2)[:1], np.sqrt(2) / 2)
    np.testing.assert_allclose(windows.kaiser_bessel_derived(4, beta=np.pi / 2)[:2],
                               [0.518562710536, 0.855039598640], rtol=1e-7)
    np.testing.assert_allclose(windows.kaiser_bessel_derived(6, beta=np.pi / 2)[:3],
                               [0.436168993154, 0.707106781187, 0.899864772847], rtol=1e-7)


def test_get_window():
    want = windows.kaiser_bessel_derived(64, 8.6)
    for name in ("kaiser bessel derived", "kaiser_bessel_derived", "kbd"):
        assert same(windows.get_window((name, 8.6), 64, fftbins=False), want)
        assert same(windows.get_window((name + "_symmetric", 8.6), 64), want)
        assert same(windows.get_window((name, 8.6), 64, fftbins=False, dtype=np.float32),
                    windows.kaiser_bessel_derived(64, 8.6, dtype=np.float32))
        with pytest.raises(ValueError, match="only defined for symmetric"):  # fftbins=True: sym=False
            windows.get_window((name, 8.6), 64)
        with pytest.raises(ValueError, match="must have parameters"):
            windows.get_window(name, 64, fftbins=False)
    with pytest.raises(ValueError, match="even number"):
        windows.get_window(("kbd", 8.6), 63, fftbins=False)
    assert np.allclose(windows.get_window(("kbd", 8.6), 64, fftbins=False),
                       scipy_windows.get_window(("kbd", 8.6), 64, fftbins=False), rtol=1e-14, atol=0)


TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name]
# (D = M/2, beta): M up to 2^12, every element of the first half against the fast oracle.
C_CASES = [(2, Fraction(43, 5)), (3, Fraction(1, 2)), (17, Fraction(14)), (100, Fraction(600)),
           (257, Fraction(40)), (1000, Fraction(43, 5)), (2048, Fraction(481, 4)), (2048, Fraction(3))]


@pytest.mark.parametrize("D, beta", C_CASES, ids=[f"{D}-{b}" for D, b in C_CASES])
def test_c_stage_every_element(D, beta):
    """The C stage (window_kbd.c) on every SIMD target, at 1 and 2 threads (every
    worker taking part): every element of the first half of M = 2D in every format
    equal to tests/fast_oracle.py's (MPFR, nothing of crtrig's), identical bits and
    undecided sets across targets and thread counts."""
    import crtrig
    want = fast_oracle.kbd_half_windows(beta, D, D)[0][D]
    L = D + 1
    c_hi, c_lo = _exp_windows.dd_of(beta * beta / (L - 1) ** 2)
    before = crtrig.get_num_threads()
    threshold = _core._set_parallel_threshold(64)
    _core._require_all_workers(True)
    try:
        for fmt in FLOATS:
            runs = []
            for threads in (1, 2):
                crtrig.set_num_threads(threads)
                for t in TARGETS:
                    runs.append(_core.kbd_fill(c_hi, c_lo, L, CODES[fmt], simd_target=t))
            values, missing = runs[0]
            for other, other_missing in runs[1:]:
                assert np.array_equal(bits(other), bits(values)) and np.array_equal(other_missing, missing)
            decided = np.setdiff1d(np.arange(D), missing)
            assert len(decided) >= D - 1
            assert np.array_equal(bits(values[decided]), bits(np.asarray(want[fmt], dtype=np.float64)[decided])), \
                (D, beta, fmt)
    finally:
        _core._require_all_workers(False)
        _core._set_parallel_threshold(threshold)
        crtrig.set_num_threads(before)


def test_fallback_used_when_undecided(monkeypatch):
    """An undecided element sends the whole window to the exact path (the reference),
    whose values equal the oracle's; a C stage that refuses its arguments does too."""
    calls = []
    exact = []
    original = _kbd_window.half_window_values
    monkeypatch.setattr(_kbd_window, "half_window_values",
                        lambda *a: exact.append(a) or original(*a))
    force_exact_path(monkeypatch, calls)
    for fmt in FLOATS:
        want = oracle.kbd_window(40, Fraction(43, 5), (fmt,))[fmt]
        assert same(windows.kaiser_bessel_derived(40, 8.6, dtype=DTYPES[fmt]), want), fmt
    assert len(calls) == 4 and len(exact) == 4
    monkeypatch.undo()
    exact.clear()
    monkeypatch.setattr(_kbd_window, "half_window_values",
                        lambda *a: exact.append(a) or original(*a))
    assert same(windows.kaiser_bessel_derived(40, 8.6), oracle.kbd_window(40, Fraction(43, 5), ("float64",))["float64"])
    assert exact == []  # the C stage decided everything itself


def test_tiny_beta():
    """beta = 10^-8 and 10^-40 (the C stage) and 10^-250 (c underflows: the C stage
    refuses it, the exact path) against the oracle."""
    for beta in (Fraction(1, 10**8), Fraction(1, 10**40), Fraction(1, 10**250)):
        for M in (4, 10, 34):
            check(M, beta, beta)
    with pytest.raises(ValueError):  # b_1 = c G = 2^-500 < 2^-400
        _core.kbd_fill(2.0**-501, 0.0, 4, CODES["float64"])
    with pytest.raises(ValueError):
        _core.kbd_fill(0.0, 0.0, 4, CODES["float64"])


ENVIRONMENTS = [(mode, ftz, daz) for mode in _core.ROUNDING_MODES
                for ftz, daz in ([(False, False), (True, True), (True, False)]
                                 if _core.FPENV_METHOD in ("mxcsr", "fpcr") else [(False, False)])]


@pytest.mark.parametrize("fmt", FLOATS)
def test_the_callers_environment_is_ignored(fmt):
    """The C stage in one call under every rounding mode and FTZ/DAZ gives the
    round-to-nearest values (equal to the fast oracle's), and leaves the environment
    as it found it."""
    D, beta = 150, Fraction(481, 4)
    L = D + 1
    c_hi, c_lo = _exp_windows.dd_of(beta * beta / (L - 1) ** 2)
    want, undecided, _, _ = _core.kbd_fill_under_fpenv(c_hi, c_lo, L, CODES[fmt], "nearest")
    oracle_half = np.asarray(fast_oracle.kbd_half_windows(beta, D, D)[0][D][fmt], dtype=np.float64)
    decided = ~undecided.astype(bool)
    assert np.array_equal(bits(want[decided]), bits(oracle_half[decided]))
    for mode, ftz, daz in ENVIRONMENTS:
        got, flags, before, after = _core.kbd_fill_under_fpenv(c_hi, c_lo, L, CODES[fmt], mode, ftz, daz)
        assert before["rounding"] == mode
        assert np.array_equal(flags, undecided) and np.array_equal(bits(got), bits(want)), (mode, ftz, daz)
        for key in ("rounding", "ftz", "daz", "control"):
            assert after[key] == before[key]
        assert after["flags"] == before["flags"]
