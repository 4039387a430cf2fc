"""crtrig.tan and crtrig.tanpi: correctly rounded tan(x) and tan(pi x) against the
MPFR oracle (tests/oracle.py: MPFR's tan in the format's context; for tanpi an
exact rational reduction, then MPFR with an error bound, Ziv), never against
crtrig's own code.

float16 and bfloat16: every input.  float32: a sample (random bit patterns,
[-4, 4], the float32 values nearest to k pi/2 and k/4 and their neighbours; the
exhaustive run is `crtrig verify tan|tanpi --dtype float32 --exhaustive`).
float64: the published worst cases (../shared/data/worst-cases/, tanpi's
expanded as its header says; tools/check_tan_worst_cases.py runs all of them),
both signs; the doubles nearest to multiples of pi/2 (every binade, and k pi/2
for k <= 3000 from mpmath); random inputs over every exponent; special values
(IEEE 754-2019 9.2.1) bit for bit, with numpy's warnings.  Every SIMD target,
each stage forced, thread counts, rounding modes, overlap.
"""
import functools
import math
import pickle
import warnings
from fractions import Fraction
from pathlib import Path

import ml_dtypes
import mpmath
import numpy as np
import pytest

import crtrig
from crtrig import _core

import float64_inputs
import oracle

FUNCS = ("tan", "tanpi")
UFUNCS = {"tan": crtrig.tan, "tanpi": crtrig.tanpi}
CODE = {"tan": 4, "tanpi": 5}
TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]
TARGET_IDS = [_core._supported_target_slots()[i] for i in TARGETS]
BITS = {2: np.uint16, 4: np.uint32, 8: np.uint64}
WORST_CASES = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "worst-cases"
if not WORST_CASES.is_dir():
    WORST_CASES = Path("/work/shared/data/worst-cases")


def as64(x):
    with np.errstate(invalid="ignore"):
        return np.asarray(x).astype(np.float64)


def same_bits(got, want):
    """Indices where got and want differ (bits; any NaN matches any NaN)."""
    got = np.ascontiguousarray(got).reshape(-1)
    want = np.ascontiguousarray(want).reshape(-1)
    u = BITS[got.dtype.itemsize]
    with np.errstate(invalid="ignore"):
        nan = np.isnan(want.astype(np.float64))
        got_nan = np.isnan(got.astype(np.float64))
    return np.nonzero(((got.view(u) != want.view(u)) & ~nan) | (nan != got_nan))[0]


def assert_oracle(func, x, got, want, where=""):
    bad = same_bits(got, want)
    x = np.asarray(x).reshape(-1)
    assert bad.size == 0, (f"{func} {where}: {bad.size} of {x.size} differ from MPFR, e.g. " + ", ".join(
        f"x={float(x[i]).hex()} got {float(np.asarray(got).reshape(-1)[i]).hex()} "
        f"want {float(np.asarray(want).reshape(-1)[i]).hex()}" for i in bad[:5]))


def quiet(f, *args, **kwargs):
    """f(...) with numpy's floating-point warnings off (inf, NaN, poles)."""
    with np.errstate(all="ignore"):
        return f(*args, **kwargs)


# ---------------------------------------------------------------------------
# Input sets
# ---------------------------------------------------------------------------

def all_patterns(dtype):
    return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(dtype)


def _read_wc(name):
    values = []
    with open(WORST_CASES / name, encoding="ascii") as handle:
        for line in handle:
            text = line.split("#")[0].strip()
            if not text or "nan" in text.lower() or "inf" in text.lower():
                continue
            values.append(abs(float.fromhex(text) if "0x" in text.lower() else float(text)))
    return values


def _signed(values, negative_step=1):
    """The magnitudes and the negatives of every negative_step-th one."""
    magnitudes = np.unique(np.array(values, dtype=np.float64))
    x = np.concatenate([magnitudes, -magnitudes[::negative_step]])
    x.flags.writeable = False
    return x


@functools.lru_cache(maxsize=None)
def worst_cases(func):
    """tan: the file's inputs (0 to 10.5 pi), both signs.  tanpi: the file's inputs
    (0 < x < 1/2), 1 - x where that is a double (tanpi(1 - x) = -tanpi(x); for every
    third x), and the
    binade [2^-55, 2^-54) scaled by 2^e (tanpi(x) = pi x (1 + O(x^2)) there) for e in
    {-960, -500, -100, -1, 1, 2, 10, 20} and one more random e per input in
    [-967, 25] (tools/check_tan_worst_cases.py runs every e); both signs (tanpi: the
    negatives of a third)."""
    values = _read_wc(f"{func}-binary64.wc")
    if func == "tanpi":
        base = [v for v in values if 2.0 ** -55 <= v < 2.0 ** -54]
        extra = []
        for v in values[::3]:  # a third of them (tools/check_tan_worst_cases.py takes all)
            if 0 < v < 0.5 and Fraction(1) - Fraction(v) == Fraction(1.0 - v):
                extra.append(1.0 - v)
        rng = np.random.default_rng(1818)
        for e in (-960, -500, -100, -1, 1, 2, 10, 20):
            extra += [math.ldexp(v, e) for v in base]
        extra += [math.ldexp(v, int(e)) for v, e in zip(base, rng.integers(-967, 26, len(base)))]
        values += extra
        return _signed(values, 3)  # tanpi is odd; a third of the negatives keeps the test short
    return _signed(values)


def _nearest_double(value):
    """The double nearest to the mpmath number `value` (>= 1) and its two neighbours."""
    x = float(value)  # mpmath rounds to nearest
    return [math.nextafter(x, 0.0), x, math.nextafter(x, math.inf)]


@functools.lru_cache(maxsize=None)
def half_pi_multiples():
    """The doubles nearest to k pi/2 (k = 1 .. 3000, and k = 10^j (3 <= j <= 15)) with
    their neighbours, from mpmath at 300 bits, plus each binade's 2 doubles nearest to
    a multiple of pi/2 (float64_inputs) with their neighbours; both signs."""
    values = []
    with mpmath.workprec(300):
        half_pi = mpmath.pi / 2
        for k in list(range(1, 3001)) + [10 ** j for j in range(3, 16)]:
            values += _nearest_double(k * half_pi)
    values += [abs(v) for v in float64_inputs.half_pi_neighbours(2)]
    return _signed(values)


@functools.lru_cache(maxsize=None)
def float64_sample():
    """Random inputs over every exponent (subnormal to 2^1023), neighbours of n/4,
    the tiny thresholds, and special values; both signs."""
    rng = np.random.default_rng(1818)
    mantissas = rng.integers(0, 1 << 52, size=(2098, 2), dtype=np.uint64)
    exponents = np.arange(2098, dtype=np.uint64)[:, None]
    bits = (np.minimum(exponents, 2046) << np.uint64(52)) | mantissas
    random = bits.reshape(-1).view(np.float64)
    near = []
    for base in [0.25 * k for k in range(1, 24)] + [1e6 + 0.5, 2.0 ** 30 + 0.25, 2.0 ** 51 + 0.5,
                                                     2.0 ** 52 - 0.5, 2.0 ** 50 + 0.75]:
        for direction in (math.inf, 0.0):
            v = base
            for _ in range(3):
                v = math.nextafter(v, direction)
                near.append(v)
    specials = [0.5, 1.5, 2.0 ** 52, 2.0 ** 52 + 1, 2.0 ** 53, 1e300, float64_inputs.LARGEST, 5e-324,
                2.0 ** -1022, 2.0 ** -60, math.nextafter(2.0 ** -60, 0.0), 2.0 ** -27,
                math.nextafter(2.0 ** -27, 0.0), math.nextafter(2.0 ** -27, 1.0), 2.0 ** -26.5, 1e-300,
                2.0 ** -969, 2.0 ** -822 / math.pi, 0.7853981852531433, 0.7853981633974483]
    return _signed(np.abs(np.concatenate([random, near, specials])).tolist())


@functools.lru_cache(maxsize=None)
def float32_sample():
    """Random bit patterns, uniform [-4, 4], and the float32 values nearest to k pi/2
    (k <= 2000; from mpmath) and to k/4 (k < 64) with their neighbours."""
    rng = np.random.default_rng(32)
    random = rng.integers(0, 1 << 32, size=12000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    small = rng.uniform(-4, 4, 8000).astype(np.float32)
    near = []
    with mpmath.workprec(200):
        for k in range(1, 2001):
            v = np.float32(float(k * mpmath.pi / 2))  # within an ulp of the nearest float32
            for _ in range(2):
                v = np.nextafter(v, np.float32(0))
            for _ in range(5):
                near.append(v)
                v = np.nextafter(v, np.float32(np.inf))
    quarters = [np.nextafter(np.float32(k / 4), np.float32(np.inf) * s) for k in range(1, 64) for s in (1, -1)]
    near = np.array(near + quarters, dtype=np.float32)
    x = np.concatenate([random, small, near, -near])
    x.flags.writeable = False
    return x


@functools.lru_cache(maxsize=None)
def want(func, kind):
    x = {"float16": lambda: all_patterns(np.float16),
         "bfloat16": lambda: all_patterns(ml_dtypes.bfloat16),
         "float32": float32_sample, "float64 sample": float64_sample,
         "float64 pi/2": half_pi_multiples,
         "float64 worst": lambda: worst_cases(func)}[kind]()
    expected = oracle.tan_family(func, x)
    expected.flags.writeable = False
    return x, expected


KINDS = ("float16", "bfloat16", "float32", "float64 sample", "float64 pi/2", "float64 worst")


# ---------------------------------------------------------------------------
# Accuracy: every set, every target, each stage forced
# ---------------------------------------------------------------------------

#: (function, input set) pairs: the multiples of pi/2 are tan's set, not tanpi's.
PAIRS = [(f, k) for f in FUNCS for k in KINDS if not (f == "tanpi" and k == "float64 pi/2")]


@pytest.mark.parametrize("func, kind", PAIRS)
def test_ufunc_matches_mpfr(func, kind):
    x, expected = want(func, kind)
    got = quiet(UFUNCS[func], x)
    assert got.dtype == x.dtype
    assert_oracle(func, x, got, expected, kind)


@pytest.mark.parametrize("func, kind", [(f, k) for f, k in PAIRS if k not in ("float16", "bfloat16")])
def test_finite_results_raise_nothing(func, kind):
    """Finite inputs with finite results raise no floating-point exception at all
    (not even inexact matters to numpy; invalid, divide, overflow, underflow are off)."""
    x, expected = want(func, kind)
    keep = np.isfinite(as64(x)) & np.isfinite(as64(expected))
    with np.errstate(all="raise"):
        got = UFUNCS[func](x[keep])
    assert_oracle(func, x[keep], got, expected[keep], kind + " finite")


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("kind", ["float16", "bfloat16", "float32", "float64 sample", "float64 worst"])
@pytest.mark.parametrize("func", FUNCS)
def test_every_target_matches_mpfr(func, kind, target):
    x, expected = want(func, kind)
    step = 3 if kind in ("float16", "bfloat16") else 1
    xs = np.ascontiguousarray(x[::step])
    got = quiet(_core.trig_with_target, target, CODE[func], xs)
    assert_oracle(func, xs, got, expected[::step], f"{kind}, target {TARGET_IDS[TARGETS.index(target)]}")


@pytest.mark.parametrize("func, kind", PAIRS)
def test_fixed_point_stage_forced(func, kind):
    """The fixed-point stage on its own (its sign test at the candidate's
    boundaries, no double-double decision) is correct: a subset, as it is slow."""
    x, expected = want(func, kind)
    step = {"float16": 61, "bfloat16": 61, "float32": 13}.get(kind, 37)
    xs, ws = np.ascontiguousarray(x[::step]), expected[::step]
    got, counts = quiet(_core.trig_strided, 0, CODE[func], xs, 2)
    assert_oracle(func, xs, got, ws, f"{kind} from the fixed-point stage")
    assert counts["double"] == 0 and counts["double-double"] == 0 and counts["multi-precision"] > 0


@pytest.mark.parametrize("bits", [64, 200, 1000])
def test_fixed_point_stage_from_other_precisions(bits):
    """Start precisions below the default (64: the floor), odd sizes and large:
    the same results, including tiny and subnormal float64 inputs (which need
    more than 1074 fraction bits, reached by doubling)."""
    x = np.array([5e-324, -3e-310, 1e-300, 2.0 ** -40, 0.5, 1.5707963267948966, 3.0, 1e22, 1e300])
    for func in FUNCS:
        got, counts = quiet(_core.trig_strided, 0, CODE[func], x, 2, bits)
        assert_oracle(func, x, got, oracle.tan_family(func, x), f"from {bits} bits")


def test_first_stages_decide_almost_everything():
    """float64 from the first pass (counted as the double stage: tan_pass.h), the
    rest from double-double; float32 likewise."""
    rng = np.random.default_rng(5)
    for func in FUNCS:
        x = rng.uniform(-1e5, 1e5, 20000)
        _, counts = _core.trig_strided(0, CODE[func], x)
        assert counts["multi-precision"] <= 2 and counts["double"] >= 19990, counts
        assert counts["double"] + counts["double-double"] + counts["exact"] == x.size - counts["multi-precision"]
        for x32 in (rng.uniform(-1, 1, 20000).astype(np.float32), rng.uniform(-1e5, 1e5, 20000).astype(np.float32)):
            _, counts = _core.trig_strided(0, CODE[func], x32)
            assert counts["double"] + counts["exact"] >= 19900 and counts["multi-precision"] == 0, counts


@pytest.mark.parametrize("kind", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("func", FUNCS)
def test_double_double_stage_forced(func, kind):
    """The narrow formats without the double stage (double-double first)."""
    x, expected = want(func, kind)
    got, counts = quiet(_core.trig_strided, 0, CODE[func], np.ascontiguousarray(x), 1)
    assert_oracle(func, x, got, expected, f"{kind} from double-double")
    assert counts["double"] == 0


@pytest.mark.parametrize("func", FUNCS)
def test_double_double_bound_holds(func):
    """The double-double stage's unrounded quotient is within its proven bound
    (tan.c: 10.82 2^-103 |hi| for tan, 9.28 2^-103 |hi| for tanpi) of the exact
    value, computed by mpmath at 400 bits, on random and hard inputs."""
    rng = np.random.default_rng(9)
    if func == "tan":
        x = np.concatenate([rng.uniform(-10, 10, 300), np.exp2(rng.uniform(-27, 1000, 300)),
                            half_pi_multiples()[::97]])
    else:
        x = np.concatenate([rng.uniform(-3, 3, 300), np.exp2(rng.uniform(-60, 51, 300)),
                            worst_cases("tanpi")[::301]])
    worst = 0.0
    with mpmath.workprec(400):
        for v in x.tolist():
            r = _core.tan_dd_value(CODE[func], v)
            if r is None:  # outside the hook's domain (tanpi at multiples of 1/4)
                continue
            hi, lo, bound = r
            exact = mpmath.tan(mpmath.mpf(v)) if func == "tan" else mpmath.tan(mpmath.pi * mpmath.mpf(v))
            err = abs(mpmath.mpf(hi) + mpmath.mpf(lo) - exact)
            assert err <= bound, (v, float(err), bound)
            worst = max(worst, float(err / abs(exact)))
    assert worst < 2.0 ** -99
    assert _core.tan_dd_value(CODE[func], math.inf) is None
    assert _core.tan_dd_value(CODE["tanpi"], 0.25) is None
    assert _core.tan_dd_value(CODE["tan"], 1e-9) is None


# ---------------------------------------------------------------------------
# The SIMD first pass of tan (tan_pass.h): its bound, and its chunk kinds
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("precise", [False, True], ids=["quick", "precise"])
def test_tan64_pass_bound_holds(target, precise):
    """The float64 pass's unrounded quotient is within the bound it rounds with
    (tan_pass.h) of tan(x) from mpmath at 400 bits, through both reductions and both
    evaluations (the quick one of every lane, the precise one of the lanes it leaves),
    on random inputs, inputs near multiples of pi/2 (tan's zeros and poles: tiny
    cosines) and huge ones; and that bound is tight enough to decide: below 2^-60
    |tan x| + 2^-96 (1 + tan^2 x), the small reduction's absolute error (|k| 2^-119,
    |k| < 2^22.4) divided by cos^2 x (sin/cos near a zero or a pole: tan' = 1 +
    tan^2); the precise one below 2^-64 |tan x| + that term."""
    rng = np.random.default_rng(64)
    near = half_pi_multiples()
    sets = [(False, False, np.concatenate([rng.uniform(-4, 4, 200), np.exp2(rng.uniform(-27, 17, 200))])),
            (False, True, near[np.abs(near) < 2.0 ** 17][::7]),
            (True, False, np.exp2(rng.uniform(-27, 1023, 200))), (True, True, near[::29])]
    worst, flagged, loosest = 0.0, 0, 0.0
    with mpmath.workprec(400):
        for is_large, hard, xs in sets:
            for v in xs.tolist():
                if abs(v) < 2.0 ** -27:
                    continue
                hi, lo, e, flag = _core.tan64_pass_value(target, v, is_large, precise)
                exact = mpmath.tan(mpmath.mpf(v))
                err = abs(mpmath.mpf(hi) + mpmath.mpf(lo) - exact)
                assert err <= e, (v.hex(), is_large, precise, float(err), e)
                assert abs(lo) <= 2.0 ** -53 * abs(hi)
                t = float(abs(exact))
                relative = 2.0 ** -64 if precise else 2.0 ** -60
                worst = max(worst, e / (relative * t + 2.0 ** -96 * (1 + t * t)))
                loosest = max(loosest, e / (2.0 ** -64 * t + 2.0 ** -96 * (1 + t * t)))
                flagged += flag != 0 and not hard  # random inputs: almost all decided
    # 600 random inputs: the quick bound (about 2^-62.5 relative) leaves about 7 in 10^4
    assert worst < 1 and flagged <= (2 if precise else 8), (worst, flagged)
    assert precise or loosest > 1  # the quick evaluation is the one asked for
    with pytest.raises(ValueError):
        _core.tan64_pass_value(target, 2.0 ** 17, False)  # the small reduction's domain
    with pytest.raises(ValueError):
        _core.tan64_pass_value(target, 2.0 ** -28, True)
    with pytest.raises(ValueError):
        _core.tan64_pass_value(target, math.inf, True)


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
def test_tan64_pass_refines_what_its_quick_evaluation_leaves(target):
    """The float64 pass leaves undecided exactly the lanes whose quick and precise
    evaluations both fail their rounding tests (every lane the quick one fails on is
    computed again), through the small reduction and the large one."""
    rng = np.random.default_rng(65)
    refined = 0
    for large, part in ((False, rng.uniform(-1e5, 1e5, 20000)), (True, rng.uniform(-1e22, 1e22, 20000))):
        _, undecided = _core.first_pass_with_target(target, CODE["tan"], part)
        quick = np.array([_core.tan64_pass_value(target, v, large)[3] for v in part.tolist()])
        precise = np.array([_core.tan64_pass_value(target, v, large, True)[3] for v in part.tolist()])
        assert np.array_equal(undecided, np.where(quick == 2, precise, quick).astype(np.uint8)), large
        refined += np.count_nonzero((quick == 2) & (precise == 0))
    assert refined >= 20  # the quick evaluation alone would leave these undecided


def _chunk_mixes(dtype):
    """Arrays that take each of the passes' chunk kinds and lane classes: clean chunks
    of small |x|, chunks with one tiny, zero, subnormal, inf or NaN lane among small
    ones, chunks with one huge lane (tan's large reduction for the whole chunk),
    tanpi's exact points (integers, poles, quarters, huge integers, multiples of 1/2
    outside its reduction), and odd lengths."""
    rng = np.random.default_rng(2024)
    info = np.finfo(dtype)
    big = 1e5 if dtype == np.float32 else 1e6  # above 2^17 for float64's large reduction
    inserts = [0.0, -0.0, float(info.smallest_subnormal), -float(info.tiny), 2.0 ** -14, -2.0 ** -30,
               math.inf, -math.inf, math.nan, float(info.max), -3e7, big, 1e30 if dtype == np.float32 else 1e300,
               0.5, -1.5, 2.5, 3.0, -4.0, 0.25, -0.75, 2.0 ** 23 + 1, 2.0 ** 52 + 1, 2.0 ** 51 + 0.5,
               2.0 ** 22 + 0.5, -2.0 ** -61, 1e-40, 2.0 ** -128]
    arrays = [rng.uniform(-np.pi, np.pi, 1000).astype(dtype), rng.uniform(-1e5, 1e5, 777).astype(dtype)]
    for v in inserts:
        x = rng.uniform(-3, 3, 600).astype(dtype)
        x[[5, 300, 599]] = v
        arrays.append(x)
    arrays.append(np.concatenate([rng.uniform(-3, 3, 256), rng.uniform(-1e6, 1e6, 256)]).astype(dtype)[:509])
    return arrays


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("func", FUNCS)
def test_pass_chunk_kinds_match_mpfr(func, dtype, target):
    for x in _chunk_mixes(dtype):
        got = quiet(_core.trig_with_target, target, CODE[func], x)
        assert_oracle(func, x, got, oracle.tan_family(func, x), f"chunk mix of {x.size}, target {target}")


# ---------------------------------------------------------------------------
# Special values, bit for bit, with numpy's warnings
# ---------------------------------------------------------------------------

DTYPES = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64]


def _bits64(values):
    return [float(v).hex() + ("-" if math.copysign(1.0, float(v)) < 0 else "+") for v in values]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_tanpi_special_values(dtype):
    """IEEE 754-2019 9.2.1 / C23: tanpi(n) = +0 for positive even and negative odd
    integers n, -0 for positive odd and negative even n; tanpi(n + 1/2) = +inf for
    even n, -inf for odd n, with divide-by-zero; tanpi(+-0) = +-0; tanpi(n +- 1/4)
    = +-1 (each the rule as stated, written out here, not computed)."""
    ints = [0, 1, 2, 3, 4, 7, 100, 255]
    x = np.array([float(n) for n in ints] + [-float(n) for n in ints], dtype=dtype)
    expected = []
    for n in ints + [-n for n in ints]:
        if n == 0:
            expected.append(0.0)
        else:
            expected.append(0.0 if (n > 0 and n % 2 == 0) or (n < 0 and n % 2 == 1) else -0.0)
    expected[len(ints)] = -0.0  # -0 -> -0
    with np.errstate(all="raise"):
        got = crtrig.tanpi(x)
    assert _bits64(got.astype(np.float64)) == _bits64(expected)
    halves = [(n, n + 0.5) for n in (-4, -3, -2, -1, 0, 1, 2, 3, 10, 101)]
    h = np.array([v for _, v in halves], dtype=dtype)
    expected = [math.inf if n % 2 == 0 else -math.inf for n, _ in halves]
    with np.errstate(divide="ignore"):
        got = crtrig.tanpi(h).astype(np.float64).tolist()
    assert got == expected
    with np.errstate(divide="raise"):
        with pytest.raises(FloatingPointError, match="divide by zero"):
            crtrig.tanpi(np.array([0.25, 0.5], dtype=dtype))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        crtrig.tanpi(np.array([1.5], dtype=dtype))
    assert any("divide by zero" in str(w.message) for w in caught)
    q = np.array([0.25, -0.25, 0.75, -0.75, 1.25, -1.25, 2.75, 24.25], dtype=dtype)  # all exact
    with np.errstate(all="raise"):
        assert crtrig.tanpi(q).astype(np.float64).tolist() == [1.0, -1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0]
    largest = ml_dtypes.finfo(dtype).max  # an even integer in every format
    assert _bits64(crtrig.tanpi(np.array([largest, -largest], dtype=dtype)).astype(np.float64)) == \
        _bits64([0.0, -0.0])


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_tan_special_values(dtype):
    x = np.array([0.0, -0.0], dtype=dtype)
    assert _bits64(crtrig.tan(x).astype(np.float64)) == _bits64([0.0, -0.0])
    for f in UFUNCS.values():
        with np.errstate(invalid="raise"):
            with pytest.raises(FloatingPointError, match="invalid value"):
                f(np.array([1.0, np.inf], dtype=dtype))
            with pytest.raises(FloatingPointError, match="invalid value"):
                f(np.array([-np.inf], dtype=dtype))
            assert np.isnan(f(np.array([np.nan], dtype=dtype)).astype(np.float64)).all()
    tiny = np.array([ml_dtypes.finfo(dtype).smallest_subnormal], dtype=dtype)
    with np.errstate(all="raise"):
        assert crtrig.tan(tiny).astype(np.float64)[0] == tiny.astype(np.float64)[0]


def test_float16_tan_overflow():
    """float16: tan(177.5) = -66347.4... is beyond the overflow threshold 65520:
    -inf with numpy's overflow warning, as np.tan gives; the one such input."""
    x = np.array([177.5, -177.5], dtype=np.float16)
    with np.errstate(over="raise"):
        with pytest.raises(FloatingPointError, match="overflow"):
            crtrig.tan(x)
        with pytest.raises(FloatingPointError, match="overflow"):
            np.tan(x)
    with np.errstate(over="ignore"):
        assert crtrig.tan(x).astype(np.float64).tolist() == [-math.inf, math.inf]
        assert np.tan(x).astype(np.float64).tolist() == [-math.inf, math.inf]
    every = all_patterns(np.float16)
    finite = every[np.isfinite(every.astype(np.float64))]
    with np.errstate(over="ignore"):
        inf_at = finite[np.isinf(crtrig.tan(finite).astype(np.float64))]
    assert sorted(inf_at.astype(np.float64).tolist()) == [-177.5, 177.5]
    for stage in (1, 2):
        got, _ = quiet(_core.trig_strided, 0, CODE["tan"], x, stage)
        assert got.astype(np.float64).tolist() == [-math.inf, math.inf]


def test_tan_of_huge_and_pi_neighbours():
    """No double is a pole: the doubles nearest to pi/2 give large finite values
    (MPFR's), and the exact reduction takes huge arguments."""
    x = np.array([math.pi / 2, -math.pi / 2, 1e300, float64_inputs.LARGEST, float.fromhex("0x1.6ac5b262ca1ffp+849")])
    with np.errstate(all="raise"):
        got = crtrig.tan(x)
    assert_oracle("tan", x, got, oracle.tan_family("tan", x), "huge")
    assert got[0] == 16331239353195370.0


# ---------------------------------------------------------------------------
# Contracts: threads, floating-point environment, overlap, pickle, types
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("threads", [1, 2, 3])
def test_thread_counts_give_the_same_bits(threads):
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(-1e3, 1e3, 100000), rng.uniform(-1, 1, 40000)])
    before = crtrig.get_num_threads()
    try:
        crtrig.set_num_threads(1)
        want1 = {f: quiet(UFUNCS[f], x) for f in FUNCS}
        crtrig.set_num_threads(threads)
        for f in FUNCS:
            assert same_bits(quiet(UFUNCS[f], x), want1[f]).size == 0
            x32 = x.astype(np.float32)
            assert same_bits(quiet(UFUNCS[f], x32), quiet(UFUNCS[f], x32[::-1])[::-1]).size == 0
    finally:
        crtrig.set_num_threads(before)
    sub = x[::997]
    for f in FUNCS:
        assert_oracle(f, sub, want1[f][::997], oracle.tan_family(f, sub), "threads subset")


def test_pole_flags_reach_the_caller_from_pool_threads():
    """A tanpi pole among 200,000 elements split over threads: divide-by-zero is
    raised in the calling thread, once the environment is restored."""
    x = np.random.default_rng(8).uniform(-1, 1, 200000)
    x[123456] = 0.5
    before = crtrig.get_num_threads()
    try:
        crtrig.set_num_threads(3)
        with np.errstate(divide="raise"):
            with pytest.raises(FloatingPointError, match="divide by zero"):
                crtrig.tanpi(x)
    finally:
        crtrig.set_num_threads(before)


def test_rounding_mode_ftz_daz_do_not_matter():
    for func in FUNCS:
        for kind in ("float32", "float64 sample"):
            x, expected = want(func, kind)
            x = np.ascontiguousarray(x[::7])
            expected = expected[::7]
            finite = np.isfinite(as64(x)) & np.isfinite(as64(expected))
            for mode in _core.ROUNDING_MODES:
                for ftz, daz in ((False, False), (True, True)):
                    got, before, after = _core.trig_under_fpenv(-1, CODE[func], x[finite], mode, ftz, daz)
                    assert_oracle(func, x[finite], got, expected[finite], f"{kind} under {mode} {ftz} {daz}")
                    assert (after["rounding"], after["ftz"], after["daz"]) == (mode, ftz, daz)
                    assert after["flags"] == before["flags"] == set()
        _, _, after = _core.trig_under_fpenv(-1, CODE[func], np.array([1.0, np.inf]), "nearest")
        assert after["flags"] == {"invalid"}
    _, _, after = _core.trig_under_fpenv(-1, CODE["tanpi"], np.array([0.3, -2.5]), "upward")
    assert after["flags"] == {"divbyzero"}
    got, _, after = _core.trig_under_fpenv(-1, CODE["tan"], np.array([177.5], np.float16), "towardzero")
    assert "overflow" in after["flags"] and "invalid" not in after["flags"]
    assert got.astype(np.float64).tolist() == [-math.inf]  # round-to-nearest's, whatever the mode


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("func", FUNCS)
def test_overlap_in_place_and_shifted(func, dtype):
    f = functools.partial(quiet, UFUNCS[func])  # float16 meets tanpi's poles
    x = np.random.default_rng(3).uniform(-8, 8, 3000).astype(dtype)
    expected = f(x.copy())
    y = x.copy()
    f(y, out=y)
    assert same_bits(y, expected).size == 0
    buf = np.concatenate([x, np.zeros(5, dtype)])
    f(buf[:3000], out=buf[5:3005])
    assert same_bits(buf[5:3005], expected).size == 0
    buf = np.concatenate([np.zeros(5, dtype), x])
    f(buf[5:], out=buf[:3000])
    assert same_bits(buf[:3000], expected).size == 0
    assert same_bits(f(x[::-3]), expected[::-3]).size == 0


def test_pickle_names_types_and_scalars():
    for name, f in UFUNCS.items():
        assert pickle.loads(pickle.dumps(f)) is f
        assert f.__name__ == "crtrig_" + name and getattr(crtrig, name) is f
        assert f.nin == 1 and f.nout == 1
        assert isinstance(f(0.1), np.float64) and f(np.float32(0.1)).dtype == np.float32
        assert f(np.int8(1)).dtype == np.float16 and f(np.int32(1)).dtype == np.float64
        assert quiet(f, ml_dtypes.bfloat16(1)).dtype == ml_dtypes.bfloat16
        with pytest.raises(TypeError, match=f"crtrig.{name} accepts float16"):
            f(np.complex128(1))
    assert float(crtrig.tan(np.float32(1.5))) == oracle.tan_value(np.float32(1.5), "float32")
    assert crtrig.tanpi(1 / 6) == oracle.tanpi_value(1 / 6, "float64")
    assert crtrig.tanpi(1e6 + 1 / 3) == oracle.tanpi_value(1e6 + 1 / 3, "float64")


def test_dask_arrays():
    da = pytest.importorskip("dask.array")
    x = np.random.default_rng(11).uniform(-10, 10, 10000)
    for f in UFUNCS.values():
        lazy = f(da.from_array(x, chunks=1000))
        assert isinstance(lazy, da.Array)
        assert same_bits(lazy.compute(), f(x)).size == 0


# ---------------------------------------------------------------------------
# crtrig.reference.tan_bits (the exact pure-Python reference) and `crtrig verify`
# ---------------------------------------------------------------------------

def test_reference_tan_bits_matches_mpfr():
    """The reference that `crtrig verify` escalates to, against the MPFR oracle."""
    from crtrig import reference
    cases = [("float16", all_patterns(np.float16)[::97]), ("bfloat16", all_patterns(ml_dtypes.bfloat16)[::89]),
             ("float32", float32_sample()[::41]), ("float64", float64_sample()[::23]),
             ("float64", half_pi_multiples()[::211])]
    for func in FUNCS:
        for fmt, x in cases:
            expected = oracle.tan_family(func, x)
            u = BITS[x.dtype.itemsize]
            got = np.array([reference.tan_bits(func, v, fmt) for v in as64(x).tolist()], dtype=np.uint64)
            ok = np.isnan(as64(expected)) | (got == expected.view(u).astype(np.uint64))
            assert ok.all(), (func, fmt, x[~ok][:3])
    assert reference.tan_bits("tan", 177.5, "float16") == 0xFC00  # -inf: overflow
    assert reference.tan_bits("tanpi", -1.0, "float64") == 0  # +0
    assert reference.tan_bits("tanpi", -2.0, "float32") == 0x80000000  # -0
    assert reference.tan_bits("tanpi", 2.5, "float32") == 0x7F800000  # +inf
    with pytest.raises(ValueError):
        reference.tan_bits("cot", 1.0, "float32")


def _verify_oracle_reason():
    try:
        from crtrig import _verify
    except ImportError:
        return "crtrig._verify is not built"
    return _verify.oracle_unavailable_reason()


@pytest.mark.skipif(_verify_oracle_reason() is not None, reason="no long double oracle here")
@pytest.mark.parametrize("func", FUNCS)
def test_verify_command_passes_and_can_fail(func, capsys):
    from cli_helpers import cli
    status, out, err = cli(capsys, "verify", func, "--dtype", "float32", "--sample", "20000", "--jobs", "1",
                           "--target", "all")
    assert status == 0, out + err
    assert "sinl/cosl of" in out and "their quotient" in out
    for name in TARGET_IDS:
        assert f"{func} float32 target {name}: 20000 inputs, 0 wrong" in out
    status, out, err = cli(capsys, "verify", func, "--dtype", "float32", "--sample", "1000", "--jobs", "1",
                           "--corrupt-for-test", "0x3e800000")  # 0.25
    assert status == 1 and "wrong: 1" in out, out + err
    status, out, err = cli(capsys, "verify", func, "--dtype", "float32", "--range", "0x3fc90000:0x3fc90fff",
                           "--jobs", "1")  # around pi/2 (tan) and 1.57 (tanpi)
    assert status == 0 and "4096 inputs, 0 wrong" in out, out + err
    status, out, err = cli(capsys, "verify", func, "--dtype", "float32", "--range", "0x80000000:0x80000fff",
                           "--jobs", "1")  # -0 (tanpi(-0) = -0) and the negative subnormals
    assert status == 0 and "4096 inputs, 0 wrong" in out, out + err
    status, out, err = cli(capsys, "verify", func, "--dtype", "float64", "--sample", "300", "--jobs", "1")
    assert status == 0 and "300 inputs, 0 wrong" in out, out + err


def test_case_runner_makes_and_runs_tan_cases(tmp_path, capsys):
    """`crtrig cases --new Tan` (special, hard and random inputs of every type, the
    exact values of crtrig.reference.tan_bits) and `crtrig cases` running them."""
    from cli_helpers import cli
    path = tmp_path / "tan.json"
    status, out, err = cli(capsys, "cases", "--new", "Tan", "--dtypes", "all", "--classes",
                           "special,hard,random:20", "-o", path)
    assert status == 0 and "12 case(s)" in out, out + err
    status, out, err = cli(capsys, "cases", path)
    assert status == 0 and "12 passed, 0 failed" in out, out + err
    import json
    data = json.loads(path.read_text())
    assert data["op"] == "ai.onnx.Tan"
    hard16 = next(c for c in data["cases"] if c["name"] == "float16_hard")
    assert hard16["inputs"]


def test_pint_and_astropy_quantities():
    """tan takes angles as pint and astropy quantities, as sin does (radians in,
    dimensionless out, crtrig's values)."""
    x = np.array([10.0, 30.0, 89.0])
    pint = pytest.importorskip("pint")
    ureg = pint.UnitRegistry()
    q = ureg.Quantity(x, "degree")
    got = crtrig.tan(q)
    assert str(got.units) == "dimensionless"
    assert same_bits(np.asarray(got.magnitude), crtrig.tan(q.m_as("radian"))).size == 0
    units = pytest.importorskip("astropy.units")
    a = x * units.deg
    got = crtrig.tan(a)
    assert got.unit == units.dimensionless_unscaled
    assert same_bits(np.asarray(got.value), crtrig.tan(a.to_value(units.rad))).size == 0
