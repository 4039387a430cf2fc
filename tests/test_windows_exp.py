"""crtrig.windows' exp-based windows (gaussian, general_gaussian, exponential) and
their exp piece (src/core/exp.c, exp_pass.h, crtrig._exp_windows) against the mpmath oracle
(tests/oracle.py, "exp-based windows"): every dtype, both modes, every M up to 64
for several parameters (tiny and huge ones: underflow to 0 and the subnormals of
every format), sampled elements of long windows, thread counts and the caller's
floating-point environment.  The exhaustive check of all M up to 2^12 is
tools/check_exp_windows.py (a CLI, minutes)."""
import math
import random
from fractions import Fraction

import ml_dtypes
import mpmath
import numpy as np
import pytest

import crtrig
from crtrig import _core, _exp_windows, windows

import oracle

FLOATS = ("float64", "float32", "float16", "bfloat16")
CODES = {"float16": 0, "bfloat16": 1, "float32": 2, "float64": 3}
DTYPES = {"float64": np.float64, "float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
#: (p, emin): half the smallest subnormal is 2^(emin - p).
PE = {"float16": (11, -14), "bfloat16": (8, -126), "float32": (24, -126), "float64": (53, -1022)}


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def same(got, want):
    return got.dtype == want.dtype and got.shape == want.shape and np.array_equal(bits(got), bits(want))


# ---------------------------------------------------------------------------
# The exp piece
# ---------------------------------------------------------------------------

def test_double_double_stage_is_within_its_bound():
    """exp(y) of the double-double stage vs mpmath at 300 bits, y over [-620, 0] with
    the reduction's corners (multiples of ln2/4096, tiny y), each within the
    relative bound the rounding test uses."""
    rng = random.Random(19)
    ys = [-rng.uniform(0, 620) for _ in range(1500)] + [-rng.uniform(0, 1e-3) for _ in range(200)]
    ys += [-k * math.log(2) / 4096 for k in range(0, 4096 * 3, 97)] + [0.0, -5e-324, -1e-300, -620.0]
    worst = 0
    with mpmath.workprec(300):
        for y in ys:
            hi, lo, rel = _core.exp_dd_value(y, 0.0)
            exact = mpmath.exp(mpmath.mpf(y))
            err = abs((mpmath.mpf(hi) + mpmath.mpf(lo) - exact) / exact)
            assert err <= rel, (y, err, rel)
            worst = max(worst, err)
    assert worst > 0  # the comparison is not vacuous


@pytest.mark.parametrize("fmt", FLOATS)
def test_exact_fallback(fmt):
    """crtrig._exp_windows.exp_neg_rounded (the exact integer fallback) vs mpmath:
    random rationals over the whole range and next to the underflow thresholds
    (the value rounding to the smallest subnormal or to 0)."""
    rng = random.Random(CODES[fmt])
    p, emin = PE[fmt]
    threshold = (p - emin) * math.log(2)  # exp(-q) = half the smallest subnormal
    qs = [Fraction(rng.randrange(1, 10**6), rng.randrange(1, 10**4)) % 800 for _ in range(60)]
    qs += [Fraction(threshold + rng.uniform(-2, 2)).limit_denominator(10**9) for _ in range(30)]
    qs += [Fraction(1, 10**30), Fraction(1, 3), Fraction(0), Fraction(10**9)]
    for q in qs:
        assert _exp_windows.exp_neg_rounded(q, CODES[fmt]) == oracle.exp_neg_value(q, fmt), q


@pytest.mark.parametrize("fmt", FLOATS)
@pytest.mark.parametrize("P", [1, 2, 3, 4, 5, 6, 7, 40, 64, 65, 1024])
def test_c_fill_over_the_whole_range(fmt, P):
    """The C fill (with the fallback for what it leaves undecided) vs the oracle at
    every element, d chosen so that q = (1/2)(|x| d)^P sweeps [0, 1.05 Z] (Z: the
    underflow threshold of fmt), x = -400 .. 400: 0, the subnormals, tiny q.  P <= 2
    and 3 <= P <= 6 take the recurrences (exp_pass.h) where q stays below the limit,
    the rest goes element by element."""
    p, emin = PE[fmt]
    Z = (p - emin) * math.log(2)
    xmax = 400
    d = Fraction((2.1 * Z) ** (1 / P) / xmax).limit_denominator(10**12)
    s = Fraction(1, 2)
    values = _exp_windows._values(-xmax, 1, 2 * xmax + 1, d, s, P, CODES[fmt])
    for i in range(2 * xmax + 1):
        want = oracle.exp_neg_value(_exp_windows.q_of(i - xmax, d, s, P), fmt)
        assert values[i] == want, (i - xmax, values[i], want)
    assert values[0] == 0.0 and values[xmax] == 1.0
    if P <= 3:
        assert 0 < np.min(values[values > 0]) < 2.0 ** emin  # the subnormal band was crossed


#: SIMD target slots of this build and CPU (0 baseline, 1 avx2, 2 avx512).
TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]


@pytest.mark.parametrize("target", TARGETS)
def test_double_double_stage_on_every_target(target):
    """Each target's exp stage (exp_pass.h; kd_two_prod with or without fma) gives
    the baseline's bits and stays within the bound, against mpmath."""
    rng = random.Random(7 + target)
    ys = [-rng.uniform(0, 620) for _ in range(300)] + [-rng.uniform(0, 1e-6) for _ in range(50)] + [0.0, -620.0]
    with mpmath.workprec(300):
        for y in ys:
            hi, lo, rel = _core.exp_dd_value(y, 0.0, target)
            assert (hi, lo) == _core.exp_dd_value(y, 0.0, 0)[:2], y
            exact = mpmath.exp(mpmath.mpf(y))
            assert abs((mpmath.mpf(hi) + mpmath.mpf(lo) - exact) / exact) <= rel, y


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("P", [1, 2, 3, 4, 5, 6, 7, 12])
def test_fill_on_every_target(target, P):
    """The fill through each target's kernel: the same values and the same undecided
    elements as the baseline's (exp_pass.h: the same operations, exact products
    either way), over long blocks (x = -5000 .. 5000, step 2 and 3: the recurrences
    and the direct path), float64 and float32, and the decided values against the
    oracle on a sample."""
    rng = random.Random(100 * P + target)
    for fmt, Z in (("float64", 600.0), ("float32", 100.0)):
        for step in (2, 3):
            d = Fraction(1.2 * (2 * Z) ** (1 / P) / 5000).limit_denominator(10**9)
            d_hi, d_lo = _exp_windows.dd_of(d)
            count = 10000 // step + 1
            want, want_missing = _core.exp_affine_fill(-5000.0, float(step), count, d_hi, d_lo, 0.5, P,
                                                       CODES[fmt], 0)
            got, missing = _core.exp_affine_fill(-5000.0, float(step), count, d_hi, d_lo, 0.5, P,
                                                 CODES[fmt], target)
            assert np.array_equal(missing, want_missing) and np.array_equal(bits(got), bits(want))
            for i in rng.sample(range(count), 25):
                if i not in set(missing.tolist()):
                    q = _exp_windows.q_of(-5000 + i * step, d, Fraction(1, 2), P)
                    assert got[i] == oracle.exp_neg_value(q, fmt), (i, P, fmt)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("P", [1, 2])
def test_lane_blocks_on_every_target(target, P):
    """The interleaved-lane recurrence of P <= 2 (exp_pass.h's xp_block_lanes) and what
    surrounds it, every element against the oracle and the baseline's bits: q crossing
    the limit at an arbitrary point inside a 256-element block (the near part by the
    lanes, the rest one by one), the zero shortcut beyond the underflow threshold, a
    block with a sign change, and d h so large that the lanes' steps are unavailable
    (every element one by one); float64 (limit 620) and float16 (limit 17.3)."""
    for fmt, Z in (("float64", 745.2), ("float16", 17.33)):
        for step, x0, count, scale in ((1, -700, 1401, 1.07), (2, -3001, 1500, 1.3), (5, 17, 700, 0.9),
                                       (1, -40, 81, 1e3)):
            xmax = max(abs(x0), abs(x0 + (count - 1) * step))
            d = Fraction(scale * (2 * Z) ** (1 / P) / xmax).limit_denominator(10**9)
            d_hi, d_lo = _exp_windows.dd_of(d)
            want, want_missing = _core.exp_affine_fill(float(x0), float(step), count, d_hi, d_lo, 0.5, P,
                                                       CODES[fmt], 0)
            got, missing = _core.exp_affine_fill(float(x0), float(step), count, d_hi, d_lo, 0.5, P,
                                                 CODES[fmt], target)
            assert np.array_equal(missing, want_missing) and np.array_equal(bits(got), bits(want))
            skip = set(missing.tolist())
            for i in range(count):
                if i not in skip:
                    q = _exp_windows.q_of(x0 + i * step, d, Fraction(1, 2), P)
                    assert got[i] == oracle.exp_neg_value(q, fmt), (i, P, fmt, step)
            if scale > 1:
                assert got[0] == 0.0  # the far end is beyond the underflow threshold


# ---------------------------------------------------------------------------
# The windows, against scipy's formulas taken exactly
# ---------------------------------------------------------------------------

#: name -> parameter sets: (crtrig's arguments, the oracle's exact parameters).
CASES = {
    "gaussian": [((2.5,), (Fraction(5, 2),)), ((0.1,), (Fraction(1, 10),)),
                 ((1e3,), (Fraction(1000),)), ((0.37,), (Fraction(37, 100),))],
    "general_gaussian": [((1.5, 7.0), (Fraction(3, 2), Fraction(7))), ((1.0, 0.5), (Fraction(1), Fraction(1, 2))),
                         ((10, 3.0), (Fraction(10), Fraction(3))), ((0.5, 1e-2), (Fraction(1, 2), Fraction(1, 100)))],
    "exponential": [((None, 3.0), (None, Fraction(3))), ((None, 0.05), (None, Fraction(1, 20))),
                    ((None, 1e4), (None, Fraction(10000)))],
}
_ORACLE = {}


def _oracle(name, M, sym, exact):
    key = (name, M, sym, exact)
    if key not in _ORACLE:
        _ORACLE[key] = oracle.exp_window(name, M, sym, exact)
    return _ORACLE[key]


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_length_up_to_64(name):
    """Every M in 0..64, both modes, every float dtype, each parameter set: the
    whole window equals the oracle's bit for bit."""
    for args, exact in CASES[name]:
        for M in range(65):
            for sym in (True, False):
                want = _oracle(name, M, sym, exact)
                for fmt in FLOATS:
                    got = getattr(windows, name)(M, *args, sym=sym, dtype=DTYPES[fmt])
                    assert same(got, want[fmt]), (name, args, M, sym, fmt, got, want[fmt])


def test_exponential_with_a_centre():
    """sym=False with scipy's center: |n - center|/tau exactly (center a float read
    as its shortest decimal)."""
    for M in (1, 2, 9, 40):
        for center, tau in ((2.5, 3.0), (0, 7.5), (M + 3.25, 0.5), (-1.1, 2.0)):
            want = oracle.exp_window("exponential", M, False, (Fraction(str(center)), Fraction(str(tau))))
            for fmt in FLOATS:
                got = windows.exponential(M, center, tau, sym=False, dtype=DTYPES[fmt])
                assert same(got, want[fmt]), (M, center, tau, fmt)


@pytest.mark.parametrize("M", [2**20 + 1, 2**24])
def test_long_windows_sampled(M):
    """Long windows: 40 sampled elements (and the ends and the middle) vs the oracle;
    std and tau at M/5 so that every element is computed, not a shortcut."""
    rng = random.Random(M)
    idx = sorted(set([0, 1, M // 2, M - 1] + [rng.randrange(M) for _ in range(40)]))
    fmt = "float64" if M < 2**24 else "float16"
    std = Fraction(M, 5)
    L = M
    got = windows.gaussian(M, M / 5, dtype=DTYPES[fmt])
    for i in idx:
        q = oracle._scipy_exp_argument("gaussian", L, i, (std,))
        assert got[i] == oracle.exp_neg_value(q, fmt), i
    if M < 2**24:
        got = windows.exponential(M, None, M / 5, sym=False)
        for i in idx:
            q = oracle._scipy_exp_argument("exponential", M + 1, i, (None, std))
            assert got[i] == oracle.exp_neg_value(q, "float64"), i


def test_thread_counts_bit_identical():
    """The fills split over the thread pool (threshold lowered, every worker made to
    take part) give the same bits at 1, 2 and 3 threads, and the pool did run shares."""
    before = crtrig.get_num_threads()
    threshold = _core._set_parallel_threshold(64)
    _core._require_all_workers(True)
    try:
        results = []
        for n in (1, 2, 3):
            crtrig.set_num_threads(n)
            shares = _core.pool_stats()["worker_shares"]
            results.append([windows.gaussian(30001, 4000.0), windows.general_gaussian(30001, 1.5, 3000.0,
                                                                                      dtype=np.float32),
                            windows.exponential(30000, 15000, 900.0, sym=False, dtype=np.float16),
                            windows.gaussian(3001, 0.5, dtype=ml_dtypes.bfloat16),
                            windows.general_gaussian(20001, 1.35, 3000.0)])
            if n > 1:
                assert _core.pool_stats()["worker_shares"] > shares
        for other in results[1:]:
            assert all(same(a, b) for a, b in zip(results[0], other))
    finally:
        _core._require_all_workers(False)
        _core._set_parallel_threshold(threshold)
        crtrig.set_num_threads(before)


ENVIRONMENTS = [(mode, ftz, daz) for mode in _core.ROUNDING_MODES
                for ftz, daz in ([(False, False), (True, True), (True, False)]
                                 if _core.FPENV_METHOD in ("mxcsr", "fpcr") else [(False, False)])]


@pytest.mark.parametrize("fmt", FLOATS)
def test_the_callers_environment_is_ignored(fmt):
    """The C fill in one call under every rounding mode and FTZ/DAZ gives the
    round-to-nearest fill (which the tests above compare with the oracle), and
    leaves the environment as it found it."""
    p, emin = PE[fmt]
    Z = (p - emin) * math.log(2)
    for P, d in ((2, math.sqrt(2.1 * Z) / 300), (1, 2.1 * Z / 300), (3, (2.1 * Z) ** (1 / 3) / 300)):
        d_hi, d_lo = _exp_windows.dd_of(Fraction(d))
        want, undecided, _, _ = _core.exp_fill_under_fpenv(-300, 1, 601, d_hi, d_lo, 0.5, P, CODES[fmt],
                                                            "nearest")
        for mode, ftz, daz in ENVIRONMENTS:
            got, flags, before, after = _core.exp_fill_under_fpenv(-300, 1, 601, d_hi, d_lo, 0.5, P,
                                                                    CODES[fmt], mode, ftz, daz)
            assert before["rounding"] == mode
            assert np.array_equal(flags, undecided) and np.array_equal(bits(got), bits(want)), (mode, ftz, daz)
            for key in ("rounding", "ftz", "daz", "control"):
                assert after[key] == before[key]
            assert after["flags"] == before["flags"]


# ---------------------------------------------------------------------------
# Interface: dtypes, out=, parameters, get_window
# ---------------------------------------------------------------------------

def test_integer_dtypes_and_out():
    w = windows.gaussian(9, 2.0, dtype=np.float32)
    assert same(windows.gaussian(9, 2.0, dtype=np.uint8), w.astype(np.uint8))
    out = np.empty(9, dtype=np.float16)
    assert windows.gaussian(9, 2.0, out=out) is out
    assert same(out, windows.gaussian(9, 2.0, dtype=np.float16))
    out = np.empty(8, dtype=np.float64)
    with pytest.raises(ValueError):
        windows.exponential(9, out=out)


def test_parameters_read_as_exact_rationals():
    assert same(windows.gaussian(33, 0.1), windows.gaussian(33, "0.1"))
    assert same(windows.gaussian(33, 0.1), windows.gaussian(33, Fraction(1, 10)))
    assert same(windows.gaussian(33, -2.5), windows.gaussian(33, 2.5))
    assert same(windows.general_gaussian(33, 1, 2.5), windows.gaussian(33, 2.5))
    assert same(windows.general_gaussian(33, 1.5, -4), windows.general_gaussian(33, "3/2", 4))
    w = windows.general_gaussian(7, 0, 3.0, dtype=np.float32)
    assert same(w, np.full(7, oracle.exp_neg_value(Fraction(1, 2), "float32"), dtype=np.float32))


def test_parameter_errors():
    with pytest.raises(ValueError, match="std must be nonzero"):
        windows.gaussian(8, 0.0)
    with pytest.raises(ValueError, match="finite"):
        windows.gaussian(8, float("nan"))
    with pytest.raises(TypeError):
        windows.gaussian(8, True)
    with pytest.raises(ValueError, match="center must be None"):
        windows.exponential(8, 3.0)
    with pytest.raises(ValueError, match="too fine or too far"):
        windows.exponential(10, 0.1234567890123456789, 2.0, sym=False)
    with pytest.raises(ValueError, match="tau must be positive"):
        windows.exponential(8, tau=-1.0)
    with pytest.raises(ValueError, match="sig must be nonzero"):
        windows.general_gaussian(8, 1.5, 0)
    with pytest.raises(NotImplementedError, match="scipy.signal.windows.general_gaussian"):
        windows.general_gaussian(8, -0.3, 2.0)
    with pytest.raises(NotImplementedError, match="scipy.signal.windows.general_gaussian"):
        windows.general_gaussian(8, 512.25, 2.0)
    with pytest.raises(ValueError):
        windows.gaussian(8.0, 2.0)
    with pytest.raises(TypeError):
        windows.gaussian(8, 2.0, xp=object())


def test_get_window_names_and_tuples():
    assert same(windows.get_window(("gaussian", 7), 64), windows.gaussian(64, 7, sym=False))
    assert same(windows.get_window(("gss", 7), 64, fftbins=False), windows.gaussian(64, 7))
    assert same(windows.get_window(("general_gaussian", 1.5, 7), 64), windows.general_gaussian(64, 1.5, 7, False))
    assert same(windows.get_window(("ggs", 1.5, 7), 65, dtype=np.float32),
                windows.general_gaussian(65, 1.5, 7, False, dtype=np.float32))
    assert same(windows.get_window(("exponential", None, 3), 64), windows.exponential(64, None, 3, False))
    assert same(windows.get_window("poisson", 64), windows.exponential(64, sym=False))
    assert same(windows.get_window(("exponential", 10, 3), 64), windows.exponential(64, 10, 3, False))
    with pytest.raises(ValueError):
        windows.get_window("gaussian", 64)


# ---------------------------------------------------------------------------
# general_gaussian with a real power (2p not an integer): crtrig._exp_windows'
# exact integer path against tests/oracle.py's mpmath.iv evaluation
# ---------------------------------------------------------------------------

REAL_P = [Fraction(3, 4), Fraction(5, 4), Fraction(27, 10), Fraction(1, 10), Fraction(73, 10), Fraction(1, 3),
          Fraction(1001, 2)]


@pytest.mark.parametrize("p", REAL_P, ids=str)
def test_real_power_elements(p):
    """exp(-(1/2) y^(2p)) for random elements and every format, against the interval
    oracle: sig chosen from a target q, log-uniform in [2^-70, 800] or uniform in
    [0.01, 800] (tiny q rounding
    to 1, the subnormals of every format, underflow to 0), plus random lengths,
    indices and sig of any size."""
    rng = random.Random(str(p))
    cases = []
    for _ in range(16):
        L = rng.randrange(2, 5000)
        i = rng.randrange(L)
        n = abs(Fraction(2 * i - (L - 1), 2)) or Fraction(1, 2)
        q = math.exp(rng.uniform(-70 * math.log(2), math.log(800))) if _ % 2 else rng.uniform(0.01, 800)
        sig = Fraction(float(n) / (2 * q) ** (1 / float(2 * p))).limit_denominator(10**6)
        if sig > 0:
            cases.append((L, i, sig))
    for _ in range(4):
        cases.append((rng.randrange(2, 5000), rng.randrange(5000), Fraction(rng.randrange(1, 10**5),
                                                                           rng.randrange(1, 10**3))))
    for L, i, sig in cases:
        i %= L
        want = oracle.general_gaussian_real_value(L, i, p, sig)
        y = abs(Fraction(2 * i - (L - 1), 2) / sig)
        for fmt in FLOATS:
            assert _exp_windows.exp_neg_half_power_rounded(y, 2 * p, CODES[fmt]) == want[fmt], (L, i, sig, fmt)


@pytest.mark.parametrize("p, sig", [(Fraction(3, 4), Fraction(5, 2)), (Fraction(27, 10), Fraction(7)),
                                    (Fraction(1, 10), Fraction(1, 100)), (Fraction(73, 10), Fraction(9, 2))],
                         ids=str)
def test_real_power_windows(p, sig):
    """Whole windows, M = 0 .. 24 and 61, both modes, every float dtype, bit for bit
    against the oracle; the parameters passed as floats (read as their shortest
    decimal, 2.7 = 27/10) and as strings give the same window."""
    for M in list(range(25)) + [61]:
        for sym in (True, False):
            want = oracle.general_gaussian_real_window(M, sym, p, sig)
            for fmt in FLOATS:
                got = windows.general_gaussian(M, float(p), float(sig), sym=sym, dtype=DTYPES[fmt])
                assert same(got, want[fmt]), (M, sym, fmt, got, want[fmt])
    assert same(windows.general_gaussian(31, str(float(p)), str(float(sig))),
                windows.general_gaussian(31, float(p), float(sig)))


def test_real_power_centre_and_range():
    """The centre (n = 0) is exactly 1; a window whose far elements cross the float64
    subnormals and underflow to 0 (and float16's), against the oracle."""
    for M in (5, 9, 33):
        for fmt in FLOATS:
            w = windows.general_gaussian(M, 1.35, 0.001, dtype=DTYPES[fmt])
            assert w[M // 2] == 1 and np.count_nonzero(w) == 1
    # q = (1/2) (|n|/sig)^1.5 reaches 790 at |n| = 100 (float64's threshold is 745.1;
    # its subnormals at |n| = 93 .. 96).
    p, sig = Fraction(3, 4), Fraction(737, 1000)
    want = oracle.general_gaussian_real_window(201, True, p, sig)
    for fmt in FLOATS:
        got = windows.general_gaussian(201, p, sig, dtype=DTYPES[fmt])
        assert same(got, want[fmt]), fmt
    w64 = want["float64"]
    assert w64[0] == 0.0 and 0 < np.min(w64[w64 > 0]) < 2.0**-1022  # the subnormal band was crossed


def test_real_power_dtypes_out_and_scipy():
    """Integer dtypes (through float32, as the other windows), out=, get_window's
    tuple, and agreement with scipy's float64 within 1e-13 relatively where scipy's
    value is above 1e-20 (q < 46; scipy's own error grows as q 2^-52)."""
    scipy_windows = pytest.importorskip("scipy.signal.windows")
    w = windows.general_gaussian(40, 2.7, 6.0, dtype=np.float32)
    assert same(windows.general_gaussian(40, 2.7, 6.0, dtype=np.int16), w.astype(np.int16))
    out = np.empty(40, dtype=np.float16)
    assert windows.general_gaussian(40, 2.7, 6.0, out=out) is out
    assert same(out, windows.general_gaussian(40, 2.7, 6.0, dtype=np.float16))
    assert same(windows.get_window(("general_gaussian", 0.75, 7), 64), windows.general_gaussian(64, 0.75, 7, False))
    for p in (0.75, 1.25, 2.7, 0.1, 7.3):
        ours = windows.general_gaussian(301, p, 40.0)
        theirs = scipy_windows.general_gaussian(301, p, 40.0)
        big = theirs > 1e-20  # q < 46: scipy's float64 error, about q 2^-52 relatively, stays small
        assert np.allclose(ours[big], theirs[big], rtol=1e-13, atol=0), p


def test_real_power_precision_cap(monkeypatch):
    """The doubling loop stops at POWER_MAX_BITS with ArithmeticError (here a cap
    below the first precision tried)."""
    monkeypatch.setattr(_exp_windows, "POWER_MAX_BITS", 16)
    with pytest.raises(ArithmeticError, match="not decided"):
        _exp_windows.exp_neg_half_power_rounded(Fraction(3, 2), Fraction(5, 2), CODES["float64"])
    # The decisions that need no enclosure of w still come first: y = 0 gives 1.
    assert _exp_windows.exp_neg_half_power_rounded(Fraction(0), Fraction(5, 2), CODES["float64"]) == 1.0


def test_real_power_enclosures():
    """The integer enclosures (ln by atanh, exp by Taylor and squaring) contain
    mpmath's values at 400 bits, for arguments of both signs and every size used."""
    rng = random.Random(5)
    F = 200
    with mpmath.workprec(400):
        for _ in range(60):
            y = Fraction(rng.randrange(1, 10**9), rng.randrange(1, 10**9)) * Fraction(2) ** rng.randrange(-60, 60)
            lo, hi = _exp_windows._ln_bounds(y, F)
            exact = mpmath.log(mpmath.mpf(y.numerator) / y.denominator) * 2**F
            assert lo <= exact <= hi and hi - lo < 2**20  # not vacuous: within 2^-180
            X = rng.randrange(-(1 << (F + 11)), 1 << (F + 11))
            lo, hi = _exp_windows._exp_bounds(X, F)
            exact = mpmath.exp(mpmath.mpf(X) / 2**F) * 2**F
            assert lo <= exact <= hi and hi - lo < 2**-150 * max(exact, 2**F), X


@pytest.mark.parametrize("target", TARGETS)
def test_double_double_log(target):
    """The double-double log (exp_pass.h's xp_log, log.h's hook) within its absolute
    bound of mpmath's at 300 bits, on every target with the baseline's bits: y over
    [2^-1000, 2^1000], next to 1 (both sides), powers of two, with lo parts."""
    rng = random.Random(11 + target)
    ys = [(2.0 ** rng.uniform(-1000, 1000), 0.0) for _ in range(300)]
    ys += [(1.0 + rng.uniform(-1e-6, 1e-6), 0.0) for _ in range(50)] + [(1.0, 0.0), (2.0, 0.0), (0.5, 0.0)]
    ys += [(2.0 ** k, 0.0) for k in (-1000, -1, 1, 1000)]
    ys += [(y, y * rng.uniform(-2**-53, 2**-53)) for y in (3.0, 1.0 + 2**-30, 0.7, 1e300)]
    worst = 0
    with mpmath.workprec(300):
        for y_hi, y_lo in ys:
            hi, lo, err = _core.log_dd_value(y_hi, y_lo, target)
            assert (hi, lo) == _core.log_dd_value(y_hi, y_lo, 0)[:2]
            exact = mpmath.log(mpmath.mpf(y_hi) + mpmath.mpf(y_lo))
            diff = abs(mpmath.mpf(hi) + mpmath.mpf(lo) - exact)
            assert diff <= err, (y_hi, y_lo, diff, err)
            worst = max(worst, diff / err)
    assert worst > 0


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("p", REAL_P, ids=str)
def test_real_power_c_fill(target, p):
    """The C fill of the real power (exp_pass.h) on each target: the baseline's bits and
    undecided elements, and every decided element of a sample equal to the exact
    integer path's (which the tests above check against the oracle), for float64 and
    float16, over x = -3000 .. 3000 with sig set so that q runs past the underflow
    threshold; a few elements straight against the oracle."""
    rng = random.Random(str(p) + str(target))
    P = 2 * p
    for fmt, Z in (("float64", 760.0), ("float16", 18.0)):
        d = Fraction((2 * Z) ** (1 / float(P)) / 3000).limit_denominator(10**9)
        d_hi, d_lo = _exp_windows.dd_of(d)
        p_hi, p_lo = _exp_windows.dd_of(P)
        want, want_missing = _core.exp_real_fill(-3000.0, 3.0, 2001, d_hi, d_lo, p_hi, p_lo, CODES[fmt], 0)
        got, missing = _core.exp_real_fill(-3000.0, 3.0, 2001, d_hi, d_lo, p_hi, p_lo, CODES[fmt], target)
        assert np.array_equal(missing, want_missing) and np.array_equal(bits(got), bits(want))
        skip = set(missing.tolist())
        assert got[0] == 0.0 and got[1000] == 1.0
        for i in rng.sample(range(2001), 40) + [999, 1001]:
            if i not in skip:
                y = abs(-3000 + 3 * i) * d
                assert got[i] == _exp_windows.exp_neg_half_power_rounded(y, P, CODES[fmt]), (i, fmt)
        sig = 1 / (2 * d)
        for i in rng.sample(range(2001), 3):
            if i not in skip:
                n2 = -3000 + 3 * i  # = 2n for the oracle's window of L = 6001 points, element (n2 + 6000)/2
                want_o = oracle.general_gaussian_real_value(6001, (n2 + 6000) // 2, p, sig, (fmt,))[fmt] \
                    if n2 % 2 == 0 else None
                if want_o is not None:
                    assert got[i] == want_o, (i, fmt)


def test_real_power_fallback_alone(monkeypatch):
    """The exact path in place of the C fill: every element handed to it (the fill's
    values replaced by NaN and all reported undecided) gives the same windows."""
    cases = [(41, 1.35, 4.0, np.float64), (40, 0.55, 0.37, np.float32), (33, 3.65, 9.0, np.float16)]
    want = [windows.general_gaussian(M, p, sig, dtype=dt) for M, p, sig, dt in cases]
    real = _core.exp_real_fill

    def everything_undecided(*args):
        values, _ = real(*args)
        return np.full_like(values, np.nan), np.arange(values.size)

    monkeypatch.setattr(_core, "exp_real_fill", everything_undecided)
    for (M, p, sig, dt), w in zip(cases, want):
        assert same(windows.general_gaussian(M, p, sig, dtype=dt), w)


@pytest.mark.parametrize("fmt", FLOATS)
def test_real_power_fill_ignores_the_callers_environment(fmt):
    """The real-power C fill in one call under every rounding mode and FTZ/DAZ gives the
    round-to-nearest fill and leaves the environment as it found it."""
    p_, emin = PE[fmt]
    Z = (p_ - emin) * math.log(2)
    for P in (Fraction(3, 2), Fraction(27, 5), Fraction(1, 5)):
        d_hi, d_lo = _exp_windows.dd_of(Fraction((2.1 * Z) ** (1 / float(P)) / 300))
        p_hi, p_lo = _exp_windows.dd_of(P)
        want, undecided, _, _ = _core.exp_fill_under_fpenv(-300, 1, 601, d_hi, d_lo, 0.5, 0, CODES[fmt], "nearest",
                                                            p_hi=p_hi, p_lo=p_lo)
        assert want[300] == 1.0 and want[0] == 0.0
        for mode, ftz, daz in ENVIRONMENTS:
            got, flags, before, after = _core.exp_fill_under_fpenv(-300, 1, 601, d_hi, d_lo, 0.5, 0, CODES[fmt],
                                                                    mode, ftz, daz, p_hi=p_hi, p_lo=p_lo)
            assert np.array_equal(flags, undecided) and np.array_equal(bits(got), bits(want)), (mode, ftz, daz)
            for key in ("rounding", "ftz", "daz", "control", "flags"):
                assert after[key] == before[key]
