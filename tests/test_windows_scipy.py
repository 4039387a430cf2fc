"""crtrig.windows (scipy.signal.windows' interface) and the C core's general Hamming window.

* Values: bit-identical to crtrig.reference.cosine_sum_window (exact, stdlib only) for
  every dtype, many sizes, both modes, every SIMD target and each evaluation stage
  forced, for alpha in 0, 1/4, 1/3, 0.4, 1/2, 27/50, 25/46, 0.9, 1, and at elements
  near the root of alpha < 1/2 (against the reference and tests/oracle.py's mpmath).
* Bounds: each pass's and stage's unrounded value within the bound its rounding test
  relies on (relative to |c0| + c1 s), against mpmath.
* The scipy interface: signatures, defaults, M = 0 and 1, dtypes, out=, errors,
  get_window's names and tuples, and values close to scipy's own.
"""
import decimal
import inspect
import json
import math
import random
import subprocess
import sys
from fractions import Fraction

import ml_dtypes
import mpmath
import numpy as np
import pytest
import scipy.signal
import scipy.signal.windows

import crtrig
from crtrig import _core, reference, windows
from crtrig._dtypes import output_code
from crtrig._windows import GENERAL_HAMMING, make_window

import oracle
from sanitizer_marks import address_space_limit

DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "uint16",
          "int32", "uint32", "int64", "uint64")
FLOATS = DTYPES[:4]
TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]
TARGET_IDS = [_core._supported_target_slots()[i] for i in TARGETS]
UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}

# 1/3: exact zeros at n/D = 1/6; 0.4 = 2/5; 25/46: ONNX's Hamming; 27/50: numpy's.
ALPHAS = [Fraction(0), Fraction(1, 4), Fraction(1, 3), Fraction(2, 5), Fraction(1, 2), Fraction(27, 50),
          Fraction(25, 46), Fraction(9, 10), Fraction(1)]
ALPHA_IDS = [str(a) for a in ALPHAS]


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(UNSIGNED[a.dtype.itemsize])


def np_dtype(name):
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


_REFERENCE = {}


def reference_window(alpha, size, periodic, dtype):
    """crtrig.reference's exact window; integer dtypes are the C cast (T)(int32_t) of
    the float32 window (truncation toward zero, NaN giving 0; -1 wraps in unsigned types)."""
    key = (alpha, size, periodic, dtype)
    if key not in _REFERENCE:
        fmt = dtype if dtype in FLOATS else "float32"
        values = reference.cosine_sum_window((alpha, 1 - alpha), size, periodic, fmt)
        if dtype not in FLOATS:
            values = np.where(np.isnan(values), 0, np.trunc(values)).astype(np.int32).astype(dtype)  # NaN -> 0
        _REFERENCE[key] = values
    return _REFERENCE[key]


def assert_same_bits(got, want, context):
    assert got.dtype == want.dtype and got.shape == want.shape, context
    bad = np.nonzero(bits(got) != bits(want))[0]
    assert bad.size == 0, f"{context}: {bad.size} differ, first n={bad[0]}: got {got[bad[0]]!r} want {want[bad[0]]!r}"


def fill_general(alpha, size, periodic, dtype, target=-1, first_stage=0):
    out = np.empty(size, np_dtype(dtype))
    counts = _core.fill_window(GENERAL_HAMMING, size, periodic, output_code(out.dtype), out, first_stage, 0,
                               target, alpha=(alpha.numerator, alpha.denominator))
    return out, counts


SIZES = list(range(0, 50)) + [96, 97, 256, 1001]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("alpha", ALPHAS, ids=ALPHA_IDS)
def test_general_hamming_is_the_exact_window(alpha, dtype):
    """Every value of every tested size, periodic and symmetric, on every SIMD target
    (and through crtrig.windows), bit-identical to the exact reference."""
    for size in SIZES:
        for periodic in (True, False):
            want = reference_window(alpha, size, periodic, dtype)
            for target in TARGETS:
                got, _ = fill_general(alpha, size, periodic, dtype, target)
                assert_same_bits(got, want, f"alpha={alpha} size={size} periodic={periodic} {dtype} target={target}")
            if size > 1:
                got = windows.general_hamming(size, alpha, sym=not periodic, dtype=dtype)
                assert_same_bits(got, want, f"windows.general_hamming alpha={alpha} size={size} {dtype}")


@pytest.mark.parametrize("stage", [0, 1, 2])
@pytest.mark.parametrize("alpha", ALPHAS, ids=ALPHA_IDS)
def test_each_stage_forced(alpha, stage):
    """Starting at each stage (the element-by-element path for stages 1 and 2): the same
    bits, and the forced stage decided the irrational elements."""
    for size in list(range(2, 40)) + [97, 1000]:
        for periodic in (True, False):
            for dtype in ("float16", "bfloat16", "float32", "float64", "int8"):
                counts = {}
                got = make_window(GENERAL_HAMMING, "test", size, periodic, dtype, None,
                                  alpha=(alpha.numerator, alpha.denominator), _first_stage=stage, _counts=counts)
                assert_same_bits(got, reference_window(alpha, size, periodic, dtype),
                                 f"alpha={alpha} size={size} periodic={periodic} {dtype} stage={stage}")
                names = _core.STAGES
                assert all(counts[name] == 0 for name in names[:stage])
                computed = sum(counts[name] for name in names) + counts["exact"]
                assert computed + counts["mirrored"] == size
                if size - counts["exact"] - counts["mirrored"] and stage:  # irrational elements
                    assert counts[names[stage]] > 0


def test_special_alphas_are_the_other_windows():
    """alpha = 1/2 gives Hann's bits, 25/46 ONNX Hamming's, 27/50 crtrig.windows.hamming's,
    alpha = 1 ones; 1/3 has exact zeros at n/D = 1/6 (+0)."""
    for size in (1, 2, 7, 12, 64, 513, 4096, 65537):
        for periodic in (True, False):
            for dtype in DTYPES:
                half, _ = fill_general(Fraction(1, 2), size, periodic, dtype)
                assert_same_bits(half, crtrig.hann_window(size, periodic, dtype=dtype), f"hann {size} {dtype}")
                onnx, _ = fill_general(Fraction(25, 46), size, periodic, dtype)
                assert_same_bits(onnx, crtrig.hamming_window(size, periodic, dtype=dtype), f"hamming {size} {dtype}")
                if size > 1:
                    a = windows.general_hamming(size, 0.54, sym=not periodic, dtype=dtype)
                    assert_same_bits(windows.hamming(size, sym=not periodic, dtype=dtype), a, f"27/50 {size}")
                    ones = windows.general_hamming(size, 1, sym=not periodic, dtype=dtype)
                    assert_same_bits(ones, np.ones(size, np_dtype(dtype)), f"alpha=1 {size} {dtype}")
    w = windows.general_hamming(12, Fraction(1, 3), sym=False)
    assert w[2] == 0 and w[10] == 0 and not np.signbit(w[2]) and not np.signbit(w[10])
    assert w[0] == float(Fraction(-1, 3))


# ---------------------------------------------------------------------------
# Near the root of alpha < 1/2
# ---------------------------------------------------------------------------

def _near_root_cases():
    """(alpha, n, D): alpha = c/(1 + c) with c = cos(2 pi n/D) approximated by a
    fraction of bounded denominator, so that w[n] = (1 - alpha)(c' - c) is tiny
    (down to about 2^-120); and, for alpha = 2/5, the convergents n/D of the root's
    phase theta/(2 pi) (c = 2/3), whose |w[n]| falls like 1/D^2."""
    cases = []
    with mpmath.workprec(400):
        for n, d, bound in [(123, 1000, 2 ** 20), (123, 1000, 2 ** 40), (31, 200, 2 ** 62), (1, 7, 2 ** 63),
                            (5, 64, 2 ** 52), (17, 101, 2 ** 64 - 1)]:
            c = mpmath.cos(2 * mpmath.pi * n / d)
            x = c / (1 + c)
            alpha = Fraction(int(mpmath.floor(x * 2 ** 300)), 2 ** 300).limit_denominator(bound)
            cases.append((alpha, n, d))
        theta = mpmath.acos(mpmath.mpf(2) / 3) / (2 * mpmath.pi)
        cf, x = [], theta
        for _ in range(12):
            a = int(mpmath.floor(x))
            cf.append(a)
            x = 1 / (x - a)
        for k in range(3, 12):
            frac = Fraction(cf[k])
            for a in reversed(cf[:k]):
                frac = a + 1 / frac
            if 8 <= frac.denominator <= 200000:
                cases.append((Fraction(2, 5), frac.numerator, frac.denominator))
    return cases


NEAR_ROOT = _near_root_cases()


def exact_general(alpha, n, d):
    """w[n] (mpmath at the working precision)."""
    return (mpmath.mpf(alpha.numerator) / alpha.denominator
            - mpmath.mpf((1 - alpha).numerator) / (1 - alpha).denominator
            * mpmath.cos(2 * mpmath.pi * mpmath.mpf(n) / d))


def test_near_root_cases_are_near_the_root():
    with mpmath.workprec(600):
        tiny = [abs(exact_general(a, n, d)) for a, n, d in NEAR_ROOT]
    assert min(tiny) < mpmath.mpf(2) ** -100 and max(tiny) < 1e-3 and len(NEAR_ROOT) >= 10


@pytest.mark.parametrize("stage", [0, 1, 2])
def test_near_root_elements(stage):
    """Elements at and next to the root, each stage forced, every float format: the
    exact reference, and mpmath's (tests/oracle.py) correctly rounded value."""
    for alpha, n, d in NEAR_ROOT:
        coefficients = (alpha, 1 - alpha)
        for m in (n - 1, n, n + 1, d - n):
            for fmt in FLOATS:
                got, _ = _core.window_element(GENERAL_HAMMING, m, d, FLOATS.index(fmt), stage, 0,
                                              (alpha.numerator, alpha.denominator))
                want = reference.bits_to_float(reference.cosine_sum_bits(coefficients, m, d, fmt), fmt)
                assert got == want and math.copysign(1, got) == math.copysign(1, want), (alpha, m, d, fmt, stage)
                if m == n:
                    assert got == oracle.cosine_sum_value(coefficients, m, d, fmt), (alpha, m, d, fmt)


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
def test_near_root_fills(target):
    """Whole windows through the table pass: the elements near the root (which the
    passes leave to the element stages when |w| is far below the terms) and a sample of
    the others are the reference's, in both halves, for every float format."""
    rng = random.Random(f"near-{target}")
    went_on = 0
    for alpha, n, d in NEAR_ROOT:
        coefficients = (alpha, 1 - alpha)
        for fmt in FLOATS:
            got, counts = fill_general(alpha, d, True, fmt, target)
            went_on += counts["double-double"] + counts["multi-precision"]
            for m in {n - 1, n, (n + 1) % d, d - n, (d - n + 1) % d, *(rng.randrange(d) for _ in range(6))}:
                want = reference.bits_to_float(reference.cosine_sum_bits(coefficients, m, d, fmt), fmt)
                value = float(got[m])
                assert value == want and math.copysign(1, value) == math.copysign(1, want), (alpha, m, d, fmt)
    assert went_on > 0  # some element really went past the first pass


# ---------------------------------------------------------------------------
# Bounds of the passes and stages (mpmath)
# ---------------------------------------------------------------------------

def _phases(seed, count, alpha):
    rng = random.Random(seed)
    triples = []
    for _ in range(count):
        d = rng.randrange(1, 1 << rng.randrange(1, 53))
        if rng.random() < 0.3:
            n = rng.choice([0, 1, 2, d // 2, d // 2 - 1, d // 3, d // 4, d // 6, d - 1, d])
        else:
            n = rng.randrange(0, d + 1)
        triples.append((min(max(n, 0), d), d, rng.choice([0, 0, 16, rng.randrange(1, 5000)])))
    triples += [(n, d, 0) for a, n, d in NEAR_ROOT if a == alpha]
    return triples


BOUND_ALPHAS = [Fraction(0), Fraction(1, 3), Fraction(2, 5), Fraction(27, 50), Fraction(1, 2),
                NEAR_ROOT[2][0]]


@pytest.mark.parametrize("fmt", FLOATS)
@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
def test_pass_bound_holds(target, fmt):
    """|w~ - w| within the bound the pass's rounding test relies on: 22.02u w~ (alpha >=
    1/2, the bit test), 12.01u mag (alpha < 1/2, relative to mag ~ |c0| + c1 s), and for
    float64 247.4 2^-106 M with E = 2^-96 mag; a decided value is the reference's."""
    code = FLOATS.index(fmt)
    worst = 0.0
    with mpmath.workprec(400):
        for alpha in BOUND_ALPHAS:
            key = (alpha.numerator, alpha.denominator)
            for n, d, step in _phases(f"bound-{alpha}-{target}-{fmt}", 60, alpha):
                hi, lo, e, flag = _core.window_table_value(target, GENERAL_HAMMING, n, d, code, step, alpha=key)
                w = exact_general(alpha, n, d)
                s = mpmath.sin(mpmath.pi * mpmath.mpf(min(n, d - n)) / d) ** 2
                magnitude = abs(2 * mpmath.mpf(alpha.numerator) / alpha.denominator - 1) + 2 * (1 - mpmath.mpf(alpha.numerator) / alpha.denominator) * s
                error = abs(mpmath.mpf(hi) + mpmath.mpf(lo) - w)
                if fmt == "float64":
                    bound = 247.4 * mpmath.mpf(2) ** -106 * magnitude
                    assert e >= 1000 * 2.0 ** -106 * float(magnitude), (alpha, n, d)
                else:
                    bound = e
                assert error <= bound, (alpha, n, d, step, fmt, float(error), float(bound))
                if bound:
                    worst = max(worst, float(error / bound))
                r = min(n, d - n)
                got, undecided = _core.window_pass_with_target(target, GENERAL_HAMMING, r, d, code, 1, alpha=key)
                assert undecided[0] == flag
                if flag == 0:
                    want = reference.bits_to_float(reference.cosine_sum_bits((alpha, 1 - alpha), n, d, fmt), fmt)
                    assert float(got[0]) == want, (alpha, n, d, fmt)
    assert worst > (0.01 if fmt != "float64" else 1e-3), worst


STAGE_BOUNDS = {0: 2.0 ** -47, 1: 2.0 ** -96}


@pytest.mark.parametrize("stage", [0, 1])
def test_stage_bounds_hold(stage):
    """The double and double-double stages' values within 2^-47 and 2^-96 of M =
    |c0| + c1 s (mpmath), near the root too."""
    worst = 0.0
    with mpmath.workprec(400):
        for alpha in BOUND_ALPHAS:
            for n, d, _ in _phases(f"stage-{alpha}-{stage}", 150, alpha):
                pair = _core.window_stage_value(GENERAL_HAMMING, n, d, stage,
                                                alpha=(alpha.numerator, alpha.denominator))
                if pair is None:
                    continue  # an exact point
                a = mpmath.mpf(alpha.numerator) / alpha.denominator
                s = mpmath.sin(mpmath.pi * mpmath.mpf(min(n, d - n)) / d) ** 2
                magnitude = abs(2 * a - 1) + 2 * (1 - a) * s
                error = abs(mpmath.mpf(pair[0]) + mpmath.mpf(pair[1]) - exact_general(alpha, n, d))
                assert error <= STAGE_BOUNDS[stage] * magnitude, (alpha, n, d, float(error / magnitude))
                worst = max(worst, float(error / magnitude))
    assert 0 < worst


def test_hooks_refuse_bad_alpha():
    out = np.empty(4, np.float64)
    for alpha in [(3, 2), (1, 0)]:
        with pytest.raises(ValueError):
            _core.fill_window(GENERAL_HAMMING, 4, True, 3, out, alpha=alpha)
        with pytest.raises(ValueError):
            _core.window_element(GENERAL_HAMMING, 1, 4, 3, 0, 0, alpha)
        with pytest.raises(ValueError):
            _core.window_table_value(0, GENERAL_HAMMING, 1, 4, 3, alpha=alpha)
    with pytest.raises(ValueError):
        _core.fill_window(4, 4, True, 3, out)


# ---------------------------------------------------------------------------
# crtrig.windows: reading alpha
# ---------------------------------------------------------------------------

def test_alpha_is_read_as_written():
    """A float is its shortest round-tripping decimal (0.54 -> 27/50, in its own type);
    strings, Decimals, ints and Fractions are exact."""
    want = windows.general_hamming(1001, Fraction(27, 50))
    for spelling in (0.54, np.float64(0.54), np.float32(0.54), np.float16(0.54), "0.54", "27/50",
                     decimal.Decimal("0.54"), Fraction(54, 100)):
        assert_same_bits(windows.general_hamming(1001, spelling), want, repr(spelling))
    # the binary double 0.54 differs from 27/50, and so would its window (somewhere)
    binary = windows.general_hamming(1001, Fraction(0.54))
    assert np.any(bits(binary) != bits(want))
    # a float cannot carry 25/46: 25/46 is the double printed 0.5434782608695652
    as_float = windows.general_hamming(1001, 25 / 46)
    assert_same_bits(as_float, windows.general_hamming(1001, Fraction(5434782608695652, 10 ** 16)), "25/46")
    assert np.any(bits(as_float) != bits(windows.general_hamming(1001, Fraction(25, 46))))
    assert_same_bits(windows.general_hamming(17, 0), windows.general_hamming(17, Fraction(0)), "int 0")
    assert_same_bits(windows.general_hamming(17, np.int64(1)), np.ones(17), "np.int64 1")


def test_largest_alpha_fraction():
    """Numerator and denominator up to 2^64 - 1 work (and are exact); one more is refused."""
    top = 2 ** 64 - 1
    for alpha in (Fraction(top - 1, top), Fraction(1, top), Fraction(top // 2, top), Fraction(top // 2 + 1, top)):
        for dtype in FLOATS:
            for periodic in (True, False):
                got = windows.general_hamming(61, alpha, sym=not periodic, dtype=dtype)
                assert_same_bits(got, reference_window(alpha, 61, periodic, dtype), f"{alpha} {dtype}")
    with pytest.raises(ValueError, match="below 2\\*\\*64"):
        windows.general_hamming(8, Fraction(1, 2 ** 64))
    with pytest.raises(ValueError, match="below 2\\*\\*64"):
        windows.general_hamming(8, Fraction(2 ** 64 - 1, 2 ** 64 + 1))


@pytest.mark.parametrize("alpha,error", [
    (True, TypeError), (None, TypeError), (1j, TypeError), ([0.5], TypeError), (np.array(0.5), TypeError),
    (float("nan"), ValueError), (float("inf"), ValueError), (-0.1, ValueError), (1.5, ValueError),
    (2, ValueError), (-1, ValueError), ("abc", ValueError), ("1/0", ValueError), ("1.01", ValueError),
])
def test_bad_alpha_is_refused_before_writing(alpha, error):
    out = np.full(8, 7.0)
    with pytest.raises(error, match="alpha"):
        windows.general_hamming(8, alpha, out=out)
    assert np.all(out == 7.0)


#: Alphas whose exact value takes 10**|exponent| to build: Fraction() hangs or
#: runs for a minute on them.  Each must be refused at once, with the message
#: the function gives for any value out of range (or as legal, at once).
HOSTILE_ALPHAS = """
import json, sys
from decimal import Decimal
from fractions import Fraction
import numpy as np
from crtrig import windows
hostile = [
    ("'1e-999999999'", lambda: windows.general_hamming(5, '1e-999999999')),
    ("'1e999999999'", lambda: windows.general_hamming(5, '1e999999999')),
    ("'-1e999999999'", lambda: windows.general_hamming(5, '-1e999999999')),
    ("' 1E-9_999_999_9 '", lambda: windows.general_hamming(5, ' 1E-9_999_999_9 ')),
    ("Decimal('1e999999999')", lambda: windows.general_hamming(5, Decimal('1e999999999'))),
    ("Decimal('1e-999999999')", lambda: windows.general_hamming(5, Decimal('1e-999999999'))),
    ("get_window 1e-30000000", lambda: windows.get_window(('general_hamming', '1e-30000000'), 5)),
    ("exponent of 5000 digits", lambda: windows.general_hamming(5, '1e-' + '9' * 5000)),
    ("5000 digits", lambda: windows.general_hamming(5, '1' * 5000)),
    ("0.<5000 zeros>1", lambda: windows.general_hamming(5, '0.' + '0' * 5000 + '1')),
    ("1/<5000 digits>", lambda: windows.general_hamming(5, '1/' + '7' * 5000)),
    ("<5000 digits>/1", lambda: windows.general_hamming(5, '7' * 5000 + '/1')),
    ("int 10**5000", lambda: windows.general_hamming(5, 10**5000)),
    ("Fraction(1, 10**5000)", lambda: windows.general_hamming(5, Fraction(1, 10**5000))),
    ("longdouble 1e4000", lambda: windows.general_hamming(5, np.longdouble('1e4000'))),
    ("longdouble 1e-4000", lambda: windows.general_hamming(5, np.longdouble('1e-4000'))),
]
for label, call in hostile:
    try:
        call()
        result = ["accepted", ""]
    except Exception as exc:
        result = [type(exc).__name__, str(exc)]
    print(json.dumps([label] + result), flush=True)
# legal values with long spellings are read exactly, at once
want = windows.general_hamming(7, Fraction(27, 50)).tobytes()
for spelling in ('0.54' + '0' * 100000, '0' * 100000 + '.54', '5400000000e-10', '0.0054e2', '54_000e-5',
                 Decimal('0.5400000000000000000000000000000000000000000000'), '54' + '0' * 100000 + 'e-100002'):
    assert windows.general_hamming(7, spelling).tobytes() == want, spelling[:20]
for zero in ('0e999999999', '-0.000e-999999999', Decimal('0e999999999'), '0/5'):
    assert windows.general_hamming(7, zero).tobytes() == windows.general_hamming(7, 0).tobytes(), zero
assert windows.general_hamming(7, '1e0').tobytes() == windows.general_hamming(7, 1).tobytes()
# the 2**64 bound is exact: 2**-63 and 10**-19 are fine, 2**-64 and 5e-20 are not
for good in (str(Fraction(1, 2**63).numerator * 5**63) + 'e-63', '1e-19'):
    windows.general_hamming(7, good)
for bad in (str(5**64) + 'e-64', '5e-20', '1e-65', '3e-80'):
    try:
        windows.general_hamming(7, bad)
    except ValueError as exc:
        assert 'below 2**64' in str(exc), exc
    else:
        raise AssertionError(bad)
print("done")
"""




def test_alpha_with_a_huge_exponent_or_size_is_refused_at_once():
    """'1e-999999999' hung in Fraction() (10**999999999 before the 2**64 check), Decimal('1e999999999')
    too; each is now the usual ValueError, with a short message, in a child limited to 2 GiB."""
    try:
        completed = subprocess.run([sys.executable, "-c", HOSTILE_ALPHAS], capture_output=True, text=True, timeout=60,
                                   preexec_fn=address_space_limit(2 << 30))  # a guard: none under ASan
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"timed out after {exc.timeout} s; done so far: {exc.stdout!r}"[:3000])
    assert completed.returncode == 0 and completed.stdout.endswith("done\n"), completed.stderr[-3000:]
    for line in completed.stdout.splitlines()[:-1]:
        label, kind, message = json.loads(line)
        assert kind == "ValueError", (label, kind, message[:300])
        assert message.startswith(("general_hamming(): alpha must lie in [0, 1]; got ",
                                   "general_hamming(): alpha = ")), (label, message[:300])
        assert len(message) < 250, (label, message[:300])
        if message.startswith("general_hamming(): alpha = "):
            assert message.endswith("must be below 2**64"), (label, message)


# ---------------------------------------------------------------------------
# crtrig.windows: scipy's interface
# ---------------------------------------------------------------------------

FUNCTIONS = ("hann", "hamming", "blackman")


def _call(name, M, sym, **kwargs):
    if name == "general_hamming":
        return getattr(windows, name)(M, 0.3, sym, **kwargs), scipy.signal.windows.general_hamming(M, 0.3, sym)
    return getattr(windows, name)(M, sym, **kwargs), getattr(scipy.signal.windows, name)(M, sym)


@pytest.mark.parametrize("name", FUNCTIONS + ("general_hamming",))
def test_close_to_scipy(name):
    """Same shape and dtype as scipy's (float64), values within scipy's own rounding
    (up to 1e-15 here, about 4.5 ulps of 1)."""
    differ = 0
    for M in list(range(0, 66)) + [127, 128, 1000, 1001, 4096]:
        for sym in (True, False):
            ours, theirs = _call(name, M, sym)
            assert ours.dtype == theirs.dtype == np.float64 and ours.shape == theirs.shape == (M,)
            assert np.all(np.abs(ours - theirs) <= 1e-15), (name, M, sym, np.max(np.abs(ours - theirs)))
            differ += np.count_nonzero(ours != theirs)
    assert differ > 0  # scipy is not exact: a real comparison


def test_exact_where_scipy_is_not():
    """crtrig's values are the reference's; scipy misses some by an ulp or more."""
    for name, coefficients in (("hann", ("0.5", "0.5")), ("hamming", ("0.54", "0.46")),
                               ("blackman", ("0.42", "0.5", "0.08"))):
        for sym in (True, False):
            want = reference.cosine_sum_window(coefficients, 200, not sym, "float64")
            assert_same_bits(getattr(windows, name)(200, sym), want, name)
            assert np.any(getattr(scipy.signal.windows, name)(200, sym) != want)


@pytest.mark.parametrize("name", FUNCTIONS + ("general_hamming",))
def test_signatures_follow_scipy(name):
    """scipy's positional parameters, names and defaults (its xp=, device= aside), then
    the keyword-only dtype=np.float64 and out=None."""
    ours = inspect.signature(getattr(windows, name)).parameters
    theirs = inspect.signature(getattr(scipy.signal.windows, name)).parameters
    positional = [p for p in theirs.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert [(p.name, p.default) for p in positional] == [
        (p.name, p.default) for p in ours.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert ours["dtype"].default is np.float64 and ours["dtype"].kind is inspect.Parameter.KEYWORD_ONLY
    assert ours["out"].default is None
    get = inspect.signature(windows.get_window).parameters
    scipy_get = inspect.signature(scipy.signal.get_window).parameters
    assert [(p.name, p.default) for p in get.values() if p.kind is p.POSITIONAL_OR_KEYWORD] == [
        (p.name, p.default) for p in scipy_get.values() if p.kind is p.POSITIONAL_OR_KEYWORD]


@pytest.mark.parametrize("name", FUNCTIONS + ("general_hamming",))
def test_sizes_zero_and_one(name):
    """M = 0: empty; M = 1: [1.] in both modes and every dtype, as scipy (not the
    ONNX-style functions' formula: 0/0 symmetric, 2 alpha - 1 periodic)."""
    for sym in (True, False):
        for dtype in DTYPES:
            one, theirs = _call(name, 1, sym, dtype=dtype)
            assert one.dtype == np_dtype(dtype) and one.tolist() == [1] and theirs.tolist() == [1.0]
            empty, _ = _call(name, 0, sym, dtype=dtype)
            assert empty.dtype == np_dtype(dtype) and empty.shape == (0,)
        out = np.zeros(1, np.float32)
        result, _ = _call(name, 1, sym, out=out)
        assert result is out and out[0] == 1
    assert np.isnan(crtrig.hann_window(1, periodic=False)[0])  # the ONNX-style convention stays


def test_dtypes_and_out():
    for dtype in DTYPES:
        for name in FUNCTIONS:
            w = getattr(windows, name)(33, dtype=dtype)
            assert w.dtype == np_dtype(dtype)
            out = np.empty(66, np_dtype(dtype))[::-2]
            assert getattr(windows, name)(33, out=out) is out
            assert_same_bits(out, w, f"{name} {dtype} out=")
    # spellings numpy accepts, bfloat16 by name, an explicit dtype agreeing with out
    assert windows.hann(8, dtype="f4").dtype == np.float32
    assert windows.hann(8, dtype="bfloat16").dtype == ml_dtypes.bfloat16
    out = np.empty(8, np.float32)
    assert windows.hann(8, dtype=np.float32, out=out) is out
    # alpha = 0: -1 at n = 0 truncates to -1 (wraps in unsigned types, as numpy's astype)
    assert windows.general_hamming(8, 0, dtype=np.int8)[0] == -1
    assert windows.general_hamming(8, 0, dtype=np.uint8)[0] == 255


@pytest.mark.parametrize("call,error,match", [
    (lambda out: windows.hann(8, dtype="complex64", out=None), TypeError, "dtype must be one of"),
    (lambda out: windows.hann(8, dtype=np.float16, out=out), TypeError, "disagrees"),
    (lambda out: windows.hann(9, out=out), ValueError, "length"),
    (lambda out: windows.hann(-1, out=out), ValueError, "non-negative"),
    (lambda out: windows.hann(8.0, out=out), ValueError, "M must be an integer"),  # scipy: ValueError
    (lambda out: windows.hann("8", out=out), ValueError, "M must be an integer"),
    (lambda out: windows.hann(8, xp=object(), out=out), TypeError, "xp must be None or numpy"),
    (lambda out: windows.hann(8, device="cuda", out=out), ValueError, "device must be None or 'cpu'"),
    (lambda out: windows.hann(True, out=out), TypeError, "M must be an integer"),
    (lambda out: windows.hann(2 ** 53 + 1, out=out), ValueError, "2\\*\\*53"),
    (lambda out: windows.hann(8, sym="yes", out=out), TypeError, "sym must be a bool"),
    (lambda out: windows.hamming(8, out=out.astype(np.complex64)), TypeError, "out must have one of"),
    (lambda out: windows.blackman(8, out=out[::2]), ValueError, "length"),
    (lambda out: windows.general_hamming(8, 0.5, out=list(out)), TypeError, "numpy.ndarray"),
])
def test_bad_arguments(call, error, match):
    out = np.full(8, 7.0)
    with pytest.raises(error, match=match):
        call(out)
    assert np.all(out == 7.0)


# ---------------------------------------------------------------------------
# get_window
# ---------------------------------------------------------------------------

def test_get_window_names_and_tuples():
    cases = {"hann": windows.hann, "han": windows.hann, "hanning": windows.hann, "hamming": windows.hamming,
             "hamm": windows.hamming, "ham": windows.hamming, "blackman": windows.blackman,
             "black": windows.blackman, "blk": windows.blackman}
    for name, function in cases.items():
        for Nx in (1, 2, 9, 64):
            for spelling in (name, (name,)):
                assert_same_bits(windows.get_window(spelling, Nx), function(Nx, sym=False), f"{spelling} {Nx}")
                assert_same_bits(windows.get_window(spelling, Nx, fftbins=False), function(Nx), f"{spelling}")
                assert_same_bits(windows.get_window(spelling, Nx, dtype="float16"),
                                 function(Nx, sym=False, dtype="float16"), f"{spelling} float16")
            assert_same_bits(windows.get_window(name + "_symmetric", Nx), function(Nx), name)
            assert_same_bits(windows.get_window(name + "_periodic", Nx, False), function(Nx, sym=False), name)
            if name != "hanning":  # scipy's names (scipy 1.17 dropped "hanning")
                np.testing.assert_allclose(windows.get_window(name, Nx), scipy.signal.get_window(name, Nx),
                                           rtol=0, atol=1e-15)
    for spelling in (("general_hamming", 0.3), ("general hamming", Fraction(3, 10)), ("general_hamming", "0.3")):
        assert_same_bits(windows.get_window(spelling, 50), windows.general_hamming(50, 0.3, sym=False), str(spelling))
    np.testing.assert_allclose(windows.get_window(("general_hamming", 0.3), 50),
                               scipy.signal.get_window(("general_hamming", 0.3), 50), rtol=0, atol=1e-15)


@pytest.mark.parametrize("window,Nx,error,match", [
    ("kaiser", 8, ValueError, "^'kaiser' must have parameters"),
    (("kaiser", 601.0), 8, NotImplementedError, "scipy.signal.windows.kaiser"),
    (601.0, 8, NotImplementedError, "crtrig.windows.kaiser"),
    ((), 8, ValueError, "^First tuple entry"),
    ((42,), 8, ValueError, "^First tuple entry"),
    (["hann"], 8, ValueError, "^Parameter window="),
    (("hann", 1), 8, ValueError, "^'hann' does not allow parameters"),
    (("general_hamming",), 8, ValueError, "^'general_hamming' must have parameters"),
    ("general_hamming", 8, ValueError, "must have parameters"),
    (("general_hamming", 0.3, 0.2), 8, TypeError, "multiple values for argument .sym."),  # as scipy
    (("general_hamming", 1.3), 8, ValueError, "alpha must lie in"),
    (("dpss", 1, 2), 8, ValueError, "^Window dpss must have one"),
    (("dpss", 3), 8, NotImplementedError, "scipy.signal.windows.dpss"),
    (("chebwin", 100), 8, NotImplementedError, "scipy.signal.windows.chebwin"),
    ("hann", 0, ValueError, "^Parameter Nx=0 is not a positive integer"),
    ("hann", -3, ValueError, "^Parameter Nx=-3"),
    ("hann", 8.0, ValueError, "^Parameter Nx=8.0"),
    ("hann", np.float64(8), ValueError, "^Parameter Nx="),
    ("hann", "8", ValueError, "^Parameter Nx="),
    ("hann", True, TypeError, "Nx must be an integer"),
    ("Hann", 8, ValueError, "^Invalid window name 'Hann'"),
])
def test_get_window_errors(window, Nx, error, match):
    with pytest.raises(error, match=match):
        windows.get_window(window, Nx)


def test_get_window_fftbins_must_be_a_bool():
    with pytest.raises(ValueError, match="^Parameter fftbins=1"):  # scipy's ValueError
        windows.get_window("hann", 8, 1)


def test_get_window_knows_every_scipy_name():
    """Every name and alias of scipy's table, bare and with each suffix, gives crtrig's
    window (for the windows computed) or a NotImplementedError naming scipy's function;
    parameters as scipy requires them; xp and device as scipy takes them."""
    import scipy
    if tuple(int(part) for part in scipy.__version__.split(".")[:2]) < (1, 17):
        pytest.skip(f"scipy {scipy.__version__}: the table is scipy 1.17's (_WIN_FUNCS)")
    from scipy.signal.windows._windows import _WIN_FUNCS
    params = {"chebwin": (100,), "dpss": (3,), "gaussian": (2.0,), "general_cosine": ([0.5, 0.5],),
              "general_gaussian": (1.5, 2.0), "general_hamming": (0.54,), "kaiser": (8.6,),
              "kaiser_bessel_derived": (8.6,)}
    for name, (function, _) in _WIN_FUNCS.items():
        ours = getattr(windows, function.__name__)
        args = params.get(function.__name__, ())
        window = (name,) + args if args else name
        for suffix, sym in (("", False), ("_periodic", False), ("_symmetric", True)):
            spelled = (name + suffix,) + args if args else name + suffix
            if function.__name__ == "kaiser_bessel_derived" and not sym:  # scipy: symmetric only
                with pytest.raises(ValueError, match="only defined for symmetric"):
                    windows.get_window(spelled, 10)
                with pytest.raises(ValueError, match="only defined for symmetric"):
                    scipy.signal.get_window(spelled, 10)
            elif function.__name__ in ("boxcar", "triang", "bartlett", "parzen", "hann", "hamming", "blackman",
                                       "general_hamming", "tukey", "gaussian", "general_gaussian",
                                       "exponential", "kaiser", "general_cosine", "nuttall", "blackmanharris",
                                       "flattop", "cosine", "barthann", "bohman", "lanczos",
                                       "kaiser_bessel_derived", "taylor"):
                Nx = 10
                assert_same_bits(windows.get_window(spelled, Nx), ours(Nx, *args, sym=sym), str(spelled))
                np.testing.assert_allclose(windows.get_window(spelled, Nx),
                                           scipy.signal.get_window(spelled, Nx), rtol=0, atol=1e-14)
            else:
                with pytest.raises(NotImplementedError, match=f"scipy.signal.windows.{function.__name__}"):
                    windows.get_window(spelled, 10)
        del window
    assert_same_bits(windows.get_window("hann", 8, xp=np, device="cpu"), windows.hann(8, sym=False), "xp")
    with pytest.raises(TypeError, match="xp must be None or numpy"):
        windows.get_window("hann", 8, xp=object())
    with pytest.raises(ValueError, match="^'general_cosine' does not accept"):
        windows.get_window(("general cosine", [1, 2]), 5, xp=np)


# ---------------------------------------------------------------------------

def test_dir_lists_only_the_windows_and_get_window():
    """dir(crtrig.windows) lists the windows and get_window and nothing else without a
    leading underscore (no np, Fraction, decimal, ... leaking from the imports), each
    one a name of scipy.signal.windows with scipy's first parameter; `import *` gives
    __all__; the constant ALPHA_LIMIT is still an attribute."""
    public = {name for name in dir(windows) if not name.startswith("_")}
    assert public == set(windows.__all__), sorted(public ^ set(windows.__all__))
    assert set(windows.__all__) == set(scipy.signal.windows.__all__)
    for name in public:
        function = getattr(windows, name)
        ours = list(inspect.signature(function).parameters)
        theirs = list(inspect.signature(getattr(scipy.signal.windows, name)).parameters)
        assert ours[0] == theirs[0] == ("window" if name == "get_window" else "M"), name
        if name in ("get_window", "hann", "hamming", "blackman", "general_hamming", "boxcar", "triang",
                    "bartlett", "parzen", "tukey"):
            got = function("hann", 8) if name == "get_window" else function(8, *([0.5] if "alpha" in ours else []))
            assert isinstance(got, np.ndarray) and got.shape == (8,), name
    namespace = {}
    exec("from crtrig.windows import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(windows.__all__)
    assert windows.ALPHA_LIMIT == 2 ** 64 - 1
    assert {"__name__", "__doc__", "__file__", "__all__"} <= set(dir(windows))
