"""float64 sin and cos of the C core's scalar accurate path (crtrig_trig_value),
through the test hooks _core.trig_elements / trig_element (dtype code 3),
against MPFR (tests/oracle.py), bit for bit.

Inputs come from tests/float64_inputs.py: the published hard-to-round cases
(both signs), the doubles nearest to multiples of pi/2 in every binade and
their neighbours, random samples, tiny, subnormal and special values.  Each
stage is forced: 1 (double-double, where float64 evaluation starts until the
vector first pass exists) and 2 (multi-precision).  The generator of the pi/2
neighbours is itself checked against brute force, the continued fraction of
2/pi and CORE-MATH's list.
"""
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from crtrig import _core

import float64_inputs as inputs
import oracle

FUNCS = ("sin", "cos")
CODE = {"sin": 0, "cos": 1}
FLOAT64 = 3
DOUBLE_DOUBLE, MULTI = 1, 2
#: The flags numpy reads after a ufunc loop (inexact is not one of them).
NUMPY_FLAGS = {"invalid", "divbyzero", "overflow", "underflow"}

def mpfr(func, x):
    """MPFR's correctly rounded func over the float64 array x (computed once per
    input array for the session, shared with the other float64 test modules)."""
    return oracle.trig_memoized(func, x)


def evaluate(func, x, stage, multi_start_bits=0):
    return _core.trig_elements(CODE[func], FLOAT64, x, stage, multi_start_bits)


def mismatches(x, got, want):
    """Indices where got and want differ in their bits (any NaN matches any NaN)."""
    nan = np.isnan(got) & np.isnan(want)
    return np.nonzero((got.view(np.uint64) != want.view(np.uint64)) & ~nan)[0]


def check(func, x, stage, multi_start_bits=0):
    """Evaluate x at `stage`, compare with MPFR bit for bit, return (stages, counts)."""
    x = np.asarray(x, dtype=np.float64)
    got, stages, counts, flags = evaluate(func, x, stage, multi_start_bits)
    want = mpfr(func, x)
    bad = mismatches(x, got, want)
    assert bad.size == 0, (f"{func}: {bad.size} of {x.size} wrong at stage {stage}, e.g. " +
                           ", ".join(f"x={x[i].hex()} got {got[i].hex()} want {want[i].hex()}" for i in bad[:5]))
    assert not flags & NUMPY_FLAGS or not np.isfinite(x).all(), flags
    return stages, counts


# ---------------------------------------------------------------------------
# The generator of the pi/2 neighbours
# ---------------------------------------------------------------------------

def test_nearest_search_matches_brute_force():
    """The lattice search at 12-bit precision finds exactly the nearest M that
    brute force over all 2^11 significands finds, in binades 0..400."""
    P = inputs.FRACTION_BITS
    for e in list(range(0, 40)) + list(range(40, 401, 17)):
        found = inputs.nearest_to_multiples(e, count=3, precision=12)
        b = (inputs.two_over_pi_scaled() >> (inputs.TWO_OVER_PI_BITS - (e - 11 + P))) & ((1 << P) - 1)
        distances = []
        for M in range(1 << 11, 1 << 12):
            d = (M * b) & ((1 << P) - 1)
            distances.append((min(d, (1 << P) - d), M))
        distances.sort()
        cutoff = distances[2][0]
        assert sorted(M for M, _, _ in found) == sorted(M for d, M in distances if d <= cutoff), e
        assert sorted(abs(d) for _, _, d in found) == sorted(d for d, _ in distances if d <= cutoff), e


def _continued_fraction_bound(b, P, limit):
    """(q_n, |q_n b - p_n 2^P|) for the convergent of b/2^P with q_n <= limit < q_(n+1)."""
    num, den = b, 1 << P
    p_prev, q_prev, p, q = 1, 0, 0, 1  # convergents p_(-1)/q_(-1) = 1/0, p_0/q_0 = 0/1 (b < 2^P)
    while num:
        a, rem = divmod(den, num)  # the next partial quotient of num/den
        p_next, q_next = a * p + p_prev, a * q + q_prev
        if q_next > limit:
            break
        p_prev, q_prev, p, q = p, q, p_next, q_next
        den, num = num, rem
    return q, abs(q * b - p * (1 << P))


def test_nearest_search_agrees_with_the_continued_fraction():
    """Best approximation: for every 0 < M <= 2^53 - 1 < q_(n+1), |M beta - k| >=
    |q_n beta - p_n|.  So each binade's nearest double is at least that far, and
    exactly that far when q_n is one of the binade's significands."""
    P = inputs.FRACTION_BITS
    at_convergent = 0
    for e in range(0, 1024):
        found = inputs.nearest_to_multiples(e)
        b = (inputs.two_over_pi_scaled() >> (inputs.TWO_OVER_PI_BITS - (e - 52 + P))) & ((1 << P) - 1)
        q, bound = _continued_fraction_bound(b, P, (1 << 53) - 1)
        nearest = min(abs(d) for _, _, d in found)
        assert nearest >= bound, e
        if q >= 1 << 52:
            assert nearest == bound and q in [M for M, _, _ in found], e
            at_convergent += 1
    assert at_convergent > 100


def test_minimum_reduced_argument_over_all_doubles():
    """Over the binades 2^0..2^1023 (all doubles >= 1; below 1 only k = 0 or
    |x - pi/2| > 0.57 occur), the smallest |x - k pi/2| is 2^-60.9, at
    0x1.6ac5b262ca1ffp+849: the figure the C core's 256-bit window relies on."""
    log2_r, x = inputs.min_reduced_argument()
    assert x == inputs.WORST_REDUCTION_INPUT and abs(log2_r - inputs.WORST_REDUCTION_LOG2) < 0.05
    with mpmath.workprec(1400):
        r = mpmath.mpf(x) - mpmath.nint(mpmath.mpf(x) / (mpmath.pi / 2)) * (mpmath.pi / 2)
        assert abs(float(mpmath.log(abs(r), 2)) - log2_r) < 1e-9
    rows = inputs.nearest_doubles()
    assert len({math.frexp(x)[1] for x, _, _ in rows}) == 1024
    assert all(log2_r >= -60.9 for _, _, log2_r in rows)


def test_core_math_list_of_nearest_doubles_agrees():
    """CORE-MATH lists doubles closest to an even or an odd multiple of pi/2, per
    binade (tests/data/sin-binary64.wc, from their own search).  None of them is
    closer than our nearest double of its binade, and each one at most as far as
    our third nearest is one of our three."""
    theirs = []
    in_section = False
    with open(inputs.DATA / "sin-binary64.wc", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("# floating-point numbers in [2^(e-1),2^e) which are closest"):
                in_section = True
            elif line.startswith("# special cases"):
                in_section = False
            elif in_section and not line.startswith("#"):
                theirs.append(float.fromhex(line.split("#")[0].strip()))
    ours = {}
    for x, _, log2_r in inputs.nearest_doubles():
        ours.setdefault(math.frexp(x)[1] - 1, []).append((log2_r, x))
    shared = 0
    with mpmath.workprec(1400):
        half_pi = mpmath.pi / 2
        for x in theirs:
            r = mpmath.mpf(x) - mpmath.nint(mpmath.mpf(x) / half_pi) * half_pi
            log2_r = float(mpmath.log(abs(r), 2))
            nearest = sorted(ours[math.frexp(x)[1] - 1])
            assert log2_r >= nearest[0][0] - 1e-9, x.hex()
            if log2_r <= nearest[-1][0] + 1e-9:
                assert x in [v for _, v in nearest], x.hex()
                shared += 1
    assert len(theirs) > 1300 and shared > 900


# ---------------------------------------------------------------------------
# Correct rounding at each stage
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("func", FUNCS)
def test_worst_cases_at_double_double(func):
    """Every published hard case and its negative.  The double-double stage
    (bound 2^-100.9 relative) cannot decide those closest to a rounding
    boundary: they must reach the multi-precision stage, and be right there."""
    x = np.array(inputs.worst_cases(func))
    stages, counts = check(func, x, DOUBLE_DOUBLE)
    assert counts["double"] == 0
    assert counts["multi-precision"] > 1000
    assert counts["double-double"] > 0.85 * x.size
    print(f"{func}: {x.size} worst cases, double-double decided {counts['double-double']}, "
          f"multi-precision {counts['multi-precision']}, exact {counts['exact']}")


@pytest.mark.parametrize("func", FUNCS)
def test_half_pi_neighbours_at_double_double(func):
    """The doubles nearest to multiples of pi/2 in every binade and their
    neighbours: results down to 2^-61, decided by the relative bound."""
    x = np.array(inputs.half_pi_neighbours())
    stages, counts = check(func, x, DOUBLE_DOUBLE)
    assert x.size > 18000 and counts["double-double"] >= x.size - 5


@pytest.mark.parametrize("func", FUNCS)
def test_multi_precision_stage_forced(func):
    """Every pi/2 neighbour and every worst case through the multi-precision
    stage alone (bit-serial reduction of every binade up to 2^1023)."""
    x = np.concatenate([np.array(inputs.half_pi_neighbours()), np.array(inputs.worst_cases(func))])
    stages, counts = check(func, x, MULTI)
    assert counts["multi-precision"] == x.size and (stages == MULTI).all()


@pytest.mark.parametrize("kind", ["pi", "1e5", "1e22", "bits"])  # seeds differ by the length of kind
@pytest.mark.parametrize("func", FUNCS)
def test_random_inputs(func, kind):
    """10^5 random inputs per range (bit patterns: mostly huge or tiny |x|)."""
    x = inputs.random_sample(func, kind)
    stages, counts = check(func, x, DOUBLE_DOUBLE)
    assert counts["double"] == 0 and (stages != 0).all()  # no float32-only stage for float64
    assert counts["multi-precision"] <= 10  # the dd stage decides nearly everything
    if kind != "bits":
        assert counts["double-double"] >= x.size - 10


@pytest.mark.parametrize("func", FUNCS)
def test_multi_precision_loop_grows(func):
    """Started at 32 bits, the loop has to double its precision (a result near
    2^-61 needs more than 61 + 53 bits) and still gets the right value."""
    x = np.array([inputs.WORST_REDUCTION_INPUT, -inputs.WORST_REDUCTION_INPUT, 1e22, 0.5,
                  float.fromhex("0x1.921fb54442d18p+0"), float.fromhex("0x1.921fb54442d18p+1"),
                  inputs.LARGEST, 2.0 ** -30] + inputs.worst_cases(func)[:40])
    stages, counts = check(func, x, MULTI, multi_start_bits=32)
    assert counts["multi-precision"] == x.size and counts["multi-precision retries"] >= x.size


@pytest.mark.parametrize("func", FUNCS)
def test_tiny_and_subnormal_inputs(func):
    """Tiny normal and subnormal inputs at both stages: the shortcuts (sin x = x,
    cos x = 1) where they hold, the stages above; the multi-precision stage,
    which skips the shortcuts, also on subnormals (it grows to 2048 bits)."""
    x = np.array(inputs.tiny_inputs() + inputs.subnormal_inputs())
    stages, counts = check(func, x, DOUBLE_DOUBLE)
    assert counts["exact"] > 0 and counts["multi-precision"] == 0
    sub = np.array(inputs.subnormal_inputs(count=20) + inputs.tiny_inputs()[::40])
    stages, counts = check(func, sub, MULTI)
    assert counts["multi-precision"] == sub.size and counts["exact"] == 0


def test_tiny_shortcut_thresholds_are_exact():
    """RN(sin x) = x exactly below SIN_IS_X_BELOW and RN(cos x) = 1 below
    COS_IS_1_BELOW (thresholds re-derived here with mpmath): MPFR agrees at the
    threshold's predecessor and disagrees at the threshold, and the C core takes
    the shortcut exactly below it."""
    sin_below, cos_below = inputs.tiny_thresholds()
    assert sin_below.hex() == "0x1.7137449123ef7p-26" and cos_below.hex() == "0x1.6a09e667f3bcdp-27"
    for func, below, shortcut in (("sin", sin_below, lambda x: x), ("cos", cos_below, lambda x: 1.0)):
        for sign in (1.0, -1.0):
            last = sign * math.nextafter(below, 0.0)
            first = sign * below
            assert oracle.trig_value(func, last, "float64") == shortcut(last)
            assert oracle.trig_value(func, first, "float64") != shortcut(first)
            _, counts = _core.trig_element(CODE[func], FLOAT64, last, DOUBLE_DOUBLE)
            assert counts["exact"] == 1
            # The exact value lies within 2^-104 (relative) of a rounding boundary here,
            # so the double-double stage hands it on to multi-precision.
            value, counts = _core.trig_element(CODE[func], FLOAT64, first, DOUBLE_DOUBLE)
            assert counts["exact"] == 0 and value == oracle.trig_value(func, first, "float64")
    # The power-of-two case of the derivation: half the gap below 2^-26 is 2^-80.
    assert oracle.trig_value("sin", 2.0 ** -26, "float64") == 2.0 ** -26


@pytest.mark.parametrize("stage", [DOUBLE_DOUBLE, MULTI])
def test_special_values(stage):
    x = np.array(inputs.special_inputs())
    with np.errstate(invalid="ignore"):
        for func in FUNCS:
            check(func, x, stage)
    for stage_in in (0, stage):
        value, counts = _core.trig_element(0, FLOAT64, -0.0, stage_in)
        assert value == 0 and math.copysign(1, value) == -1 and counts["exact"] == 1
        value, _ = _core.trig_element(0, FLOAT64, 0.0, stage_in)
        assert value == 0 and math.copysign(1, value) == 1
        assert _core.trig_element(1, FLOAT64, -0.0, stage_in)[0] == 1.0
        assert math.isnan(_core.trig_element(0, FLOAT64, math.nan, stage_in)[0])


def test_stage_zero_starts_at_double_double_for_float64():
    """Stage 0 of float64 is the vector first pass; the element hook starts at
    double-double for it and never runs the float32-only double stage."""
    assert _core.STAGES_FLOAT64 == ("first pass", "double-double", "multi-precision")
    x = inputs.random_inputs("1e5", 2000, seed=3)
    got0, stages0, counts0, _ = evaluate("sin", x, 0)
    got1, stages1, counts1, _ = evaluate("sin", x, 1)
    assert np.array_equal(got0.view(np.uint64), got1.view(np.uint64))
    assert counts0 == counts1 and counts0["double"] == 0


@pytest.mark.parametrize("stage", [DOUBLE_DOUBLE, MULTI])
def test_element_hook_agrees_with_the_array_hook(stage):
    """trig_element (one call per element) and trig_elements (one C loop) give the
    same values and stage counts."""
    x = np.array(inputs.worst_cases("cos")[::400] + inputs.half_pi_neighbours()[::300] + inputs.special_inputs()
                 + inputs.subnormal_inputs(count=3))
    for func in FUNCS:
        with np.errstate(invalid="ignore"):
            values, stages, counts, _ = evaluate(func, x, stage)
        total = dict.fromkeys(counts, 0)
        for i, v in enumerate(x.tolist()):
            value, one = _core.trig_element(CODE[func], FLOAT64, v, stage)
            assert value == values[i] or (math.isnan(value) and math.isnan(values[i])), v
            assert math.copysign(1, value) == math.copysign(1, values[i])
            for name in total:
                total[name] += one[name]
        assert total == counts


# ---------------------------------------------------------------------------
# Floating-point flags, the double-double bound, argument checking
# ---------------------------------------------------------------------------

def test_finite_inputs_raise_no_flags():
    """invalid, divide-by-zero, overflow and underflow stay clear for finite
    inputs, tiny and subnormal ones included, at both stages, and for NaN and
    +-inf (whose FE_INVALID the entry points raise after restoring the caller's
    environment: test_sincos64_pass.py and test_fpenv.py).  The hook runs the evaluation without the entry
    points' environment switch (which would discard flags raised inside), with
    all flags clear before and read right after."""
    finite = np.concatenate([inputs.random_inputs("bits", 20000, seed=9),
                             np.array(inputs.subnormal_inputs() + inputs.tiny_inputs()),
                             np.array(inputs.half_pi_neighbours()[::10] + inputs.worst_cases("sin")[::50]),
                             np.array([inputs.LARGEST, -inputs.LARGEST, 0.0, -0.0])])
    nans = np.array([0x7FF8000000000000, 0x7FF0000000000001, 0xFFF8000000000001, 0xFFF4000000000000],
                    dtype=np.uint64).view(np.float64)
    for func in FUNCS:
        for stage in (DOUBLE_DOUBLE, MULTI):
            x = finite if stage == DOUBLE_DOUBLE else finite[::20]
            assert evaluate(func, x, stage)[3] & NUMPY_FLAGS == set(), (func, stage)
            assert evaluate(func, nans, stage)[3] & NUMPY_FLAGS == set()
            assert evaluate(func, np.array([1.0, math.inf, -math.inf]), stage)[3] & NUMPY_FLAGS == set()


def test_double_double_error_bound_holds():
    """The unrounded double-double value against mpmath, within the bound the
    C core proves (|hi + lo - f(x)| <= |hi| 0x1.1p-101), on worst cases, pi/2
    neighbours (tiny results), random bit patterns and [-pi, pi]."""
    xs = (inputs.worst_cases("sin")[::80] + inputs.worst_cases("cos")[::80] + inputs.half_pi_neighbours()[::8]
          + [float(v) for v in inputs.random_inputs("bits", 800, seed=5)]
          + [float(v) for v in inputs.random_inputs("pi", 400, seed=6)])
    xs = [v for v in xs if abs(v) >= 2.0 ** -149]
    worst = 0.0
    with mpmath.workprec(320):  # mpmath raises its own precision for huge arguments
        for func in FUNCS:
            for v in xs:
                hi, lo, bound = _core.trig_dd_value(CODE[func], v)
                exact = mpmath.sin(v) if func == "sin" else mpmath.cos(v)
                error = abs(mpmath.mpf(hi) + mpmath.mpf(lo) - exact)
                assert error <= bound, (func, v.hex(), float(error), bound)
                worst = max(worst, float(error / bound))
    assert len(xs) > 4000 and worst > 1 / 64  # the bound is not vacuous: observed up to ~0.13
    assert _core.trig_dd_value(0, 2.0 ** -150) is None and _core.trig_dd_value(1, math.inf) is None


def test_trig_element_checks_its_arguments():
    assert _core.trig_element(0, FLOAT64, 0.5)[0] == oracle.trig_value("sin", 0.5, "float64")
    for args, word in (((6, FLOAT64, 0.5), "func"), ((-1, FLOAT64, 0.5), "func"), ((0, 4, 0.5), "dtype_code"), ((0, -1, 0.5), "dtype_code"),
                       ((0, FLOAT64, 0.5, 3), "first_stage"), ((0, FLOAT64, 0.5, -1), "first_stage"),
                       ((0, FLOAT64, 0.5, 2, -5), "multi_start_bits"),
                       ((0, FLOAT64, 0.5, 2, 1 << 15), "multi_start_bits")):
        with pytest.raises(ValueError, match=word):
            _core.trig_element(*args)
    with pytest.raises(TypeError, match="float64"):
        _core.trig_elements(0, FLOAT64, np.zeros(3, np.float32))
