"""The float64 first passes (src/core/sincos64_pass.h, sincos64_core.h; window64_pass.h's constants):
their tables and constants re-derived with mpmath, their error bounds checked against
mpmath, and every value they decide checked bit for bit against MPFR (sin/cos, through
tests/oracle.py) or crtrig.reference (windows), on every SIMD target this CPU supports.

The passes are tested on their own (the first-pass hooks), so what they leave
undecided is not checked here: the scalar float64 path that finishes those is tested
with it.  The float64 ufunc loops are checked for wiring, flags and special values.

Hard cases: the published worst cases of sin and cos (V. Lefevre's testlibm data as
collected by CORE-MATH, inputs in [0, pi] with 43 to 59 identical bits after the
round bit, plus the doubles nearest to multiples of pi/2 in every binade), from
tests/data/ through tests/float64_inputs.py.  The worst cases and random samples are
the sets the other float64 test modules use, so their MPFR values are computed once
(tests/oracle.trig_memoized).
"""
import math
import re
import warnings
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest

import crtrig
from crtrig import _core, reference

import float64_inputs as inputs
import oracle

FUNCS = {"sin": 0, "cos": 1}
KINDS = {"hann": 0, "hamming": 1, "blackman": 2}
TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]
TARGET_IDS = [_core._supported_target_slots()[i] for i in TARGETS]
SOURCE = Path(__file__).resolve().parents[1] / "src" / "core"


def H(text):
    return float.fromhex(text)


def mp_exact(x):
    """The exact value of a float as an mpf (mpmath's own man_exp drops the sign)."""
    return mpmath.mpf(Fraction(x).numerator) / Fraction(x).denominator


def mpfr_trig(func, x):
    """MPFR's correctly rounded float64 results for the array x (tests/oracle.py)."""
    return np.array([oracle.trig_value(func, v, "float64") for v in x.tolist()])


def same_bits(got, want):
    return got.view(np.uint64) == want.view(np.uint64)


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

def worst_cases(func):
    """The worst-case inputs of sin or cos (finite nonzero ones), and their negatives
    (tests/float64_inputs.py, shared with the other float64 tests)."""
    return np.array(inputs.worst_cases(func))


def near_multiples_of_pi():
    """The doubles nearest to k pi/2 and k pi/128 for assorted k (both neighbours and
    both signs), the hardest reduction case modulo pi/2, 0x1.6ac5b262ca1ffp+849, and
    modulo pi/128, 0x1.6ac5b262ca1ffp+843."""
    values = []
    with mpmath.workprec(2200):
        ks = list(range(1, 300)) + [10 ** j + 1 for j in range(3, 300, 7)] + [2 ** j + 3 for j in range(10, 1020, 11)]
        for k in ks:
            for den in (2, 128):
                v = mpmath.mpf(k) * mpmath.pi / den
                if v > mpmath.mpf(2) ** 1023:
                    continue
                d = float(v)
                values += [d, math.nextafter(d, 0), math.nextafter(d, math.inf)]
    values += [H("0x1.6ac5b262ca1ffp+849"), H("0x1.6ac5b262ca1ffp+843")]
    x = np.array([v for v in values if math.isfinite(v)])
    return np.concatenate([x, -x])


RANGES = ("[-pi, pi]", "[-1e5, 1e5]", "[-1e22, 1e22]", "random bit patterns")
#: The random samples of tests/float64_inputs.py (the kinds of random_sample) by name.
RANGE_KINDS = dict(zip(RANGES, ("pi", "1e5", "1e22", "bits")))


def random_inputs(name, count, seed):
    """`count` random inputs of the range `name` (tests/float64_inputs.py)."""
    return inputs.random_inputs(RANGE_KINDS[name], count, seed)


_CACHE = {}


def oracle_case(func, name):
    """(x, MPFR results), computed once per (func, input set)."""
    key = (func, name)
    if key not in _CACHE:
        if name == "worst cases":
            x = worst_cases(func)
        elif name == "near multiples of pi":
            x = near_multiples_of_pi()
        elif name == "specials":
            x = np.array([0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, H("0x1.fffffffffffffp-27"),
                          2.0 ** -27, -(2.0 ** -27), 2.0 ** -26, H("0x1.fffffffffffffp-26"), 1e-300,
                          H("0x1.fffffffffffffp+16"), 2.0 ** 17, 1.7976931348623157e308,
                          -1.7976931348623157e308, 1.0, -1.0, math.pi, 2.0 ** 1023, 1e22])
        else:
            x = inputs.random_sample(func, RANGE_KINDS[name])
        _CACHE[key] = (x, oracle.trig_memoized(func, x))
    return _CACHE[key]


# ---------------------------------------------------------------------------
# Decided lanes against MPFR, on every target
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("name", RANGES + ("worst cases", "near multiples of pi", "specials"))
@pytest.mark.parametrize("func", FUNCS)
def test_every_decided_lane_is_the_mpfr_result(func, name, target):
    """out[i] equals MPFR's correctly rounded result wherever the pass says it is
    final (undecided == 0), and the pass leaves few lanes undecided on random
    inputs (the bound is not uselessly loose)."""
    x, want = oracle_case(func, name)
    out, undecided = _core.first_pass_with_target(target, FUNCS[func], x)
    decided = undecided == 0
    bad = np.nonzero(decided & ~same_bits(out, want))[0]
    assert bad.size == 0, f"{bad.size} wrong, first x={x[bad[0]].hex()} got {out[bad[0]]!r} want {want[bad[0]]!r}"
    assert np.all(undecided[np.isfinite(x)] != 1)  # only inf and NaN leave the pass
    if name in RANGES:
        assert np.count_nonzero(undecided == 2) <= 1e-3 * x.size
    elif name == "worst cases":  # RN-hard half undecided, the other half decided
        assert 0.2 * x.size < np.count_nonzero(decided) < 0.8 * x.size


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
def test_inf_nan_zero_tiny_and_chunk_mixing(target):
    """inf and NaN leave the pass (undecided = 1); zeros, subnormals and |x| < 2^-27
    are decided in-lane (sin x = x with its sign, cos x = 1); a huge value anywhere
    in a chunk switches the whole chunk to the large reduction, with the same results."""
    specials = np.array([np.inf, -np.inf, np.nan], np.float64)
    tiny = np.array([0.0, -0.0, 5e-324, -5e-324, 1e-300, -(2.0 ** -28), H("0x1.fffffffffffffp-28")])
    for func in FUNCS.values():
        out, undecided = _core.first_pass_with_target(target, func, np.concatenate([specials, tiny]))
        assert list(undecided) == [1, 1, 1] + [0] * tiny.size
        want = tiny if func == 0 else np.ones_like(tiny)
        assert np.all(same_bits(out[3:], want))
    x = random_inputs("[-1e5, 1e5]", 600, seed=3)
    mixed = x.copy()
    mixed[::97] = 1e200
    for func in FUNCS.values():
        small, u_small = _core.first_pass_with_target(target, func, x)
        large, u_large = _core.first_pass_with_target(target, func, mixed)
        keep = (np.arange(x.size) % 97 != 0) & (u_small == 0) & (u_large == 0)
        assert np.all(same_bits(small[keep], large[keep]))


# ---------------------------------------------------------------------------
# The error bound against mpmath
# ---------------------------------------------------------------------------

def bound_inputs():
    rng = np.random.default_rng(17)
    parts = [random_inputs(name, 400, seed=40 + i) for i, name in enumerate(RANGES)]
    for func in FUNCS:
        wc = worst_cases(func)
        parts.append(rng.choice(wc, 600, replace=False))
    parts.append(rng.choice(near_multiples_of_pi(), 600, replace=False))
    parts.append(np.array([2.0 ** -27, -(2.0 ** -27), H("0x1.fffffffffffffp+16"), 1.7976931348623157e308,
                           H("0x1.6ac5b262ca1ffp+849"), -H("0x1.6ac5b262ca1ffp+849"),
                           H("0x1.6ac5b262ca1ffp+843"), math.pi / 256]))
    x = np.concatenate(parts)
    return x[np.isfinite(x) & (np.abs(x) >= 2.0 ** -27)]


_EXACT = {}


def exact_trig(func, x):
    """sin or cos of the double x to about 2^-200 absolute (the precision grows with
    the exponent, so that the reduction of huge x loses nothing)."""
    key = (func, x)
    if key not in _EXACT:
        with mpmath.workprec(260 + max(0, math.frexp(x)[1])):
            v = mp_exact(x)
            _EXACT[key] = +(mpmath.sin(v) if func == "sin" else mpmath.cos(v))
    return _EXACT[key]


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("func", FUNCS)
@pytest.mark.parametrize("precise", [False, True], ids=["quick", "precise"])
def test_sincos_bound_holds(func, target, precise):
    """|hi + lo - f(x)| <= e for the unrounded value and bound of the pass, through both
    reductions (the small one where it applies) and both evaluations (the quick one
    every lane takes, the precise one of the lanes it leaves undecided), on random
    inputs, worst cases and the doubles nearest to multiples of pi/2 and pi/128."""
    worst = 0.0
    relative = []
    with mpmath.workprec(300):
        for v in bound_inputs().tolist():
            exact = exact_trig(func, v)
            for large in ((False, True) if abs(v) < 2.0 ** 17 else (True,)):
                hi, lo, e, flag = _core.sincos64_pass_value(target, FUNCS[func], v, large, precise)
                error = abs(mpmath.mpf(hi) + mpmath.mpf(lo) - exact)
                assert error <= e, (func, v.hex(), large, precise, float(error), e)
                assert flag in (0, 2)
                worst = max(worst, float(error / e))
                relative.append(math.log2(e / abs(hi)))
    assert worst > 0.05  # the bound is within a small factor of the actual error somewhere
    # Each evaluation is the one asked for: on these inputs the quick bound's median is
    # about 2^-67.5 of the value (4.25 e z |S_h|), the precise one's about 2^-75
    # (2^-78 |S_h|, 2^-52 |rz|).
    median = float(np.median(relative))
    assert (-69.5 < median < -65.5) if not precise else (-77.5 < median < -72.5), median


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("func", FUNCS)
def test_lanes_the_quick_evaluation_leaves_are_refined(func, target):
    """The pass leaves undecided exactly the lanes whose quick and precise evaluations
    both fail their rounding tests: every lane the quick one fails on is evaluated
    again (random inputs, where it fails about 4 times in 10^4 and the precise one
    hardly ever, the hard cases and the doubles near multiples of pi), through the
    small reduction (chunks below 2^17) and the large one."""
    x = np.concatenate([random_inputs(name, 20000, seed=60 + i) for i, name in enumerate(RANGES[:3])]
                       + [worst_cases(func), near_multiples_of_pi()])
    x = x[np.isfinite(x) & (np.abs(x) >= 2.0 ** -27)]
    refined = 0
    for large, part in ((False, x[np.abs(x) < 2.0 ** 17]), (True, x[np.abs(x) >= 2.0 ** 17])):
        _, undecided = _core.first_pass_with_target(target, FUNCS[func], part)
        quick = np.array([_core.sincos64_pass_value(target, FUNCS[func], v, large)[3] for v in part.tolist()])
        precise = np.array([_core.sincos64_pass_value(target, FUNCS[func], v, large, True)[3]
                            for v in part.tolist()])
        assert np.array_equal(undecided, np.where(quick == 2, precise, quick).astype(np.uint8)), large
        refined += np.count_nonzero((quick == 2) & (precise == 0))
    assert refined >= 10  # the quick evaluation alone would leave these undecided


# ---------------------------------------------------------------------------
# Tables and constants re-derived with mpmath
# ---------------------------------------------------------------------------

def _source(name):
    path = SOURCE / name
    if not path.exists():
        pytest.skip("the C sources are not here (testing an installed wheel)")
    return path.read_text(encoding="utf-8")


def _constant(source, name):
    return float.fromhex(re.search(r"\b" + name + r" = (-?0x[0-9a-fA-Fp.+-]+);", source).group(1))


def _hex_rows(text):
    return [[float.fromhex(v) for v in re.findall(r"-?0x[0-9a-f.]+p[+-]\d+", row)]
            for row in re.findall(r"\{([^{}]*)\}", text)]


def test_sin_table_and_reduction_rows():
    """CRTRIG_SC64_SINCOS: {S_h, S_l, C_h, C_l} with hi = RN(v), lo = RN(v - hi) for
    v = sin(j pi/128) and cos(j pi/128).  CRTRIG_SC64_ROWS:
    for E0 = -27 + 16 i, F = (2^(E0-52) 128/pi) mod 256: C0 = 512 + F truncated to
    multiples of 2^-43, C1 and C2 the next 53-bit pieces (to 2^-96, 2^-149), C3 = RN(rest)."""
    tables = _source("sincos64_tables.c")
    sin_rows = _hex_rows(re.search(r"CRTRIG_SC64_SINCOS\[256\]\[4\] = \{(.*?)\n\};", tables, re.S).group(1))
    red_rows = _hex_rows(re.search(r"CRTRIG_SC64_ROWS\[CRTRIG_SC64_ROW_COUNT\]\[4\] = \{(.*?)\n\};",
                                   tables, re.S).group(1))
    assert len(sin_rows) == 256 and len(red_rows) == 66
    with mpmath.workprec(400):
        for j, (s_hi, s_lo, c_hi, c_lo) in enumerate(sin_rows):
            exact = [0, 1, 0, -1]
            s = mpmath.sin(mpmath.pi * j / 128) if j % 64 else mpmath.mpf(exact[j // 64])
            c = mpmath.cos(mpmath.pi * j / 128) if j % 64 else mpmath.mpf(exact[(j + 64) % 256 // 64])
            assert s_hi == float(s) and s_lo == float(s - mp_exact(s_hi)), j
            assert c_hi == float(c) and c_lo == float(c - mp_exact(c_hi)), j
    with mpmath.workprec(1500):
        inv = 128 / mpmath.pi
        for i, (c0, c1, c2, c3) in enumerate(red_rows):
            w = inv * mpmath.mpf(2) ** (-27 + 16 * i - 52)
            f = w - 256 * mpmath.floor(w / 256)
            top = mpmath.floor(f * 2 ** 43) / 2 ** 43
            assert mp_exact(c0) == 512 + top, i
            rest = f - top
            assert mp_exact(c1) == mpmath.floor(rest * 2 ** 96) / 2 ** 96, i
            rest -= mp_exact(c1)
            assert mp_exact(c2) == mpmath.floor(rest * 2 ** 149) / 2 ** 149, i
            rest -= mp_exact(c2)
            assert c3 == float(rest) and abs(rest - mp_exact(c3)) < mpmath.mpf(2) ** -202, i


def test_constants():
    """The reduction constants, pi/128, the Taylor coefficients and the window
    polynomials' double-double coefficients of sincos64_core.h and window64_pass.h."""
    core, window = _source("sincos64_core.h"), _source("window64_pass.h")
    with mpmath.workprec(400):
        p = mpmath.pi / 128
        assert _constant(core, "SC64_INV_PI_128") == float(128 / mpmath.pi)
        q1, q2, q3 = (_constant(core, n) for n in ("SC64_Q1", "SC64_Q2", "SC64_Q3"))
        for q in (q1, q2):  # 30 significant bits: k q exact for |k| < 2^23
            m, e = math.frexp(q)
            assert m * 2 ** 30 == int(m * 2 ** 30)
        assert abs(mp_exact(q1) - p) <= mpmath.mpf(2) ** -36
        assert abs(mp_exact(q2) - (p - mp_exact(q1))) <= mpmath.mpf(2) ** -66
        assert q3 == float(p - mp_exact(q1) - mp_exact(q2))
        assert abs(p - mp_exact(q1) - mp_exact(q2) - mp_exact(q3)) < mpmath.mpf(2) ** -123.3
        h = _constant(core, "SC64_PI_128_H")
        assert h == float(p) and _constant(core, "SC64_PI_128_L") == float(p - mp_exact(h))
        for name, n in (("S3", 3), ("S5", 5), ("S7", 7), ("S9", 9), ("C4", 4), ("C6", 6), ("C8", 8)):
            sign = -1 if (n // 2) % 2 else 1
            assert _constant(core, "SC64_" + name) == float(mpmath.mpf(sign) / mpmath.factorial(n)), name
        for name, q in (("HAMMING_A", Fraction(2, 23)), ("HAMMING_B", Fraction(21, 23)),
                        ("BLACKMAN_A", Fraction(9, 25)), ("BLACKMAN_B", Fraction(16, 25))):
            hi = _constant(window, f"W64_{name}_H")
            assert hi == float(q) and _constant(window, f"W64_{name}_L") == float(q - Fraction(hi)), name


def test_smallest_reduced_argument():
    """sincos64_core.h relies on |x 128/pi - k| >= 2^-61.54 for every double x and its
    nearest integer k != 0 (so no product underflows).  For each binade, ||M a|| over
    integers 0 < M < 2^53 (a = 2^(E-52) 128/pi mod 1) is at least ||q a|| for the last
    continued-fraction denominator q < 2^53 of a (best approximation); binades below
    2^-6 have k in {0, 1} with |x 128/pi - 1| > 0.38."""
    smallest, where = None, None
    with mpmath.workprec(1400):
        inv = 128 / mpmath.pi
        for e in range(-6 - 52, 1024 - 52):
            a = inv * mpmath.mpf(2) ** e
            a -= mpmath.floor(a)
            p0, q0, p1, q1, t = 0, 1, 1, 0, a
            while True:
                digit = int(mpmath.floor(t))
                p2, q2 = digit * p1 + p0, digit * q1 + q0
                if q2 >= 2 ** 53:
                    break
                p0, q0, p1, q1 = p1, q1, p2, q2
                t = 1 / (t - digit)
            assert p1 >= 1
            d = abs(q1 * a - p1)
            if smallest is None or d < smallest:
                smallest, where = d, (q1, e)
    assert mpmath.log(smallest, 2) > -61.55
    # 2^-6 times the hardest case of the reduction modulo pi/2 (128/pi = 64 (2/pi))
    assert where[0] * 2.0 ** where[1] == H("0x1.6ac5b262ca1ffp+843")


# ---------------------------------------------------------------------------
# float64 windows
# ---------------------------------------------------------------------------

# The float64 window pass (window64_pass.h) reads the window tables; its bound, its
# decided values and its driver are tested with the other formats' passes in
# tests/test_window_pass.py.  Here: the public float64 windows through strided outs.


@pytest.mark.parametrize("kind", KINDS)
def test_float64_window_driver_strides_and_blocks(kind):
    """The float64 window driver over several blocks: the pass writing straight into a
    contiguous out, or through a buffer into strided and reversed outs, each phase
    stored at n and D - n; every value is crtrig.reference's."""
    make = getattr(crtrig, f"{kind}_window")
    for size, periodic in ((1001, True), (1000, False), (513, False), (2, True), (3, False)):
        want = reference.window(kind, size, periodic, "float64")
        base = np.full(2 * size, -1.0)
        backwards = np.zeros(size)[::-1]
        outs = [make(size, periodic=periodic, dtype=np.float64),
                make(size, periodic=periodic, out=base[1::2]), make(size, periodic=periodic, out=backwards)]
        for got in outs:
            assert np.all(same_bits(np.ascontiguousarray(got), want)), (kind, size, periodic)
        assert np.all(base[0::2] == -1.0)


def test_sincos64_value_hook_rejects_what_it_cannot_do():
    with pytest.raises(ValueError):
        _core.sincos64_pass_value(0, 0, 2.0 ** 17, False)
    with pytest.raises(ValueError):
        _core.sincos64_pass_value(0, 0, 2.0 ** -28, True)


# ---------------------------------------------------------------------------
# The float64 ufunc loops
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("func", FUNCS)
def test_ufunc_uses_the_pass_and_is_exact_on_float32_values(func):
    """crtrig.sin/cos on float64 arrays: every element the pass decides is MPFR's
    result; and float64 inputs that are float32 values are right everywhere (their
    undecided elements go through the scalar path, which handles those)."""
    f = getattr(crtrig, func)
    x, want = oracle_case(func, "random bit patterns")
    got = f(x)
    _, undecided = _core.first_pass_with_target(_core._supported_target_slots().index(_core.SIMD_TARGET), FUNCS[func], x)
    assert np.all(same_bits(got, want)[undecided == 0])
    rng = np.random.default_rng(8)
    bits32 = rng.integers(0, 1 << 32, 30000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    x32 = np.concatenate([bits32[np.isfinite(bits32)], rng.uniform(-4, 4, 5000).astype(np.float32)])
    x64 = x32.astype(np.float64)
    assert np.all(same_bits(f(x64), mpfr_trig(func, x64)))
    strided = np.repeat(x64[:3000], 3)[::3]
    assert np.all(same_bits(f(strided), f(x64[:3000])))
    y = x64[:2000].copy()
    f(y, out=y)
    assert np.all(same_bits(y, f(x64[:2000])))


def test_ufunc_flags_and_specials():
    """Finite inputs raise nothing under errstate(all='raise') (random bit patterns,
    subnormals, the largest double); NaN (quiet or signalling) gives a quiet NaN
    silently; +-inf gives NaN with 'invalid'; sin keeps the sign of zero."""
    x, _ = oracle_case("sin", "random bit patterns")
    finite = np.concatenate([x, [5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                                 -1.7976931348623157e308, 1e-300, 0.0, -0.0]])
    nan_bits = np.array([0x7FF8000000000000, 0x7FF0000000000001, 0xFFF8000000000001, 0x7FF4000000000000],
                        dtype=np.uint64)
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        for f in (crtrig.sin, crtrig.cos):
            f(finite)
            r = f(nan_bits.view(np.float64))
            assert np.all(np.isnan(r)) and np.all(r.view(np.uint64) & (1 << 51))
    for f in (crtrig.sin, crtrig.cos):
        with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
            f(np.array([1.0, np.inf]))
        with np.errstate(invalid="ignore"):
            assert np.all(np.isnan(f(np.array([np.inf, -np.inf]))))
    s = crtrig.sin(np.array([0.0, -0.0]))
    assert s[0] == 0 and not np.signbit(s[0]) and np.signbit(s[1])
    assert np.all(crtrig.cos(np.array([0.0, -0.0])) == 1.0)
