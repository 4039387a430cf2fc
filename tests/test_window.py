"""Window values: bit-identical to the exact reference, through every evaluation stage.

crtrig.reference (integer fixed point, standard library only) gives the
expected bits for whole windows; tests/oracle.py (mpmath + MPFR) checks
sampled elements of large windows and the C core's stage error bounds.
"""
import math
import random
import re
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest

import crtrig
from crtrig import _core, reference
from crtrig._dtypes import output_code
from crtrig._windows import make_window

import oracle

KINDS = ("hann", "hamming", "blackman")
KIND_CODE = {"hann": 0, "hamming": 1, "blackman": 2}
FUNCTIONS = {"hann": crtrig.hann_window, "hamming": crtrig.hamming_window,
             "blackman": crtrig.blackman_window}
DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "uint8",
          "int16", "uint16", "int32", "uint32", "int64", "uint64")
FLOATS = DTYPES[:4]
STAGES = (0, 1, 2)  # double, double-double, multi-precision
STAGE_NAMES = _core.STAGES


def assert_same_values(got, want, context=""):
    """Same dtype and shape; NaN in the same places; every other element bit-identical."""
    assert got.dtype == want.dtype and got.shape == want.shape, context
    if want.dtype.kind in "iu":
        bad = np.nonzero(got != want)[0]
    else:
        nan_got, nan_want = np.isnan(got.astype(np.float64)), np.isnan(want.astype(np.float64))
        uint = np.dtype(f"u{want.dtype.itemsize}")
        bad = np.nonzero((nan_got != nan_want) | (~nan_want & (got.view(uint) != want.view(uint))))[0]
    assert bad.size == 0, (
        f"{context}: {bad.size} elements differ, first at n={bad[0]}: got {got[bad[0]]!r}, "
        f"want {want[bad[0]]!r}")


# The integer dtypes (casts of the float32 window) are slow: the pure-Python reference
# dominates.  The float dtypes stay in the fast subset that the wheel tests run.
TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]


def fill_on_every_target(kind, size, periodic, dtype):
    """The window through the public function (the active SIMD target) and through
    each supported target (fill_window's simd_target hook): [(where, array)]."""
    fills = [("public", FUNCTIONS[kind](size, periodic=periodic, dtype=dtype))]
    for target in TARGETS:
        out = np.empty(size, fills[0][1].dtype)
        _core.fill_window(KIND_CODE[kind], size, periodic, output_code(out.dtype), out, 0, 0, target)
        fills.append((_core._supported_target_slots()[target], out))
    return fills


# The integer dtypes (casts of the float32 window) are slow: the pure-Python reference
# dominates.  The float dtypes stay in the fast subset that the wheel tests run.
@pytest.mark.parametrize("dtype", [d if d in FLOATS else pytest.param(d, marks=pytest.mark.slow)
                                   for d in DTYPES])
@pytest.mark.parametrize("periodic", [True, False])
@pytest.mark.parametrize("kind", KINDS)
def test_every_value_sizes_0_to_512(kind, periodic, dtype):
    """Every value, every SIMD target this CPU supports (the reference computed once)."""
    for size in range(513):
        want = reference.window(kind, size, periodic, dtype)
        for where, got in fill_on_every_target(kind, size, periodic, dtype):
            assert_same_values(got, want, f"{kind} size={size} periodic={periodic} {dtype} {where}")


@pytest.mark.parametrize("size", [1000, 1001] + [pytest.param(s, marks=pytest.mark.slow)
                                                 for s in (4096, 4097, 10001, 65537)])
@pytest.mark.parametrize("periodic", [True, False])
@pytest.mark.parametrize("kind", KINDS)
def test_every_value_larger_sizes(kind, periodic, size):
    for dtype in ("float16", "bfloat16", "float32", "float64", "int8", "uint64"):
        want = reference.window(kind, size, periodic, dtype)
        for where, got in fill_on_every_target(kind, size, periodic, dtype):
            assert_same_values(got, want, f"{kind} size={size} periodic={periodic} {dtype} {where}")


def _random_phases(rng, count, max_bits):
    """(n, D) pairs, 0 <= n <= D, D of every bit length up to max_bits, plus
    points next to the ends and the centre, where values are smallest or nearest 1."""
    pairs = []
    for _ in range(count):
        D = rng.randrange(2, 1 << rng.randrange(2, max_bits + 1))
        where = rng.random()
        if where < 0.25:
            n = rng.choice([1, 2, D - 1, D - 2])
        elif where < 0.5:
            n = D // 2 + rng.choice([-2, -1, 0, 1, 2])
        else:
            n = rng.randrange(0, D + 1)
        pairs.append((min(max(n, 0), D), D))
    return pairs


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("kind", KINDS)
def test_huge_denominators_against_mpmath(kind, stage):
    """Elements of windows far too long to build (D up to 2**53), each stage forced."""
    rng = random.Random(f"huge-{kind}-{stage}")
    for n, D in _random_phases(rng, 60, 53):
        for fmt in FLOATS:
            got, _ = _core.window_element(KIND_CODE[kind], n, D, DTYPES.index(fmt), stage)
            want = oracle.window_value(kind, n, D, fmt)
            assert got == want and math.copysign(1, got) == math.copysign(1, want), (
                f"{kind} n={n} D={D} {fmt} stage={stage}: got {got!r} want {want!r}")


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("kind", KINDS)
def test_each_stage_forced_gives_reference_values(kind, stage):
    """Starting the evaluation at each stage: every output bit-identical, and the
    forced stage (not an earlier one) decided the irrational elements."""
    for size in list(range(0, 70)) + [127, 257, 1000]:
        for periodic in (True, False):
            for dtype in DTYPES:
                counts = {}
                got = make_window(KIND_CODE[kind], "test", size, periodic, dtype, None,
                                  _first_stage=stage, _counts=counts)
                want = reference.window(kind, size, periodic, dtype)
                assert_same_values(got, want, f"{kind} size={size} periodic={periodic} {dtype} stage={stage}")
                for earlier in STAGE_NAMES[:stage]:
                    assert counts[earlier] == 0
                irrational = size - counts["exact"] - counts["mirrored"]
                assert sum(counts[name] for name in STAGE_NAMES) == irrational
                if irrational:  # for float64 the first stage is the float64 SIMD pass
                    assert counts[STAGE_NAMES[stage]] > 0


@pytest.mark.parametrize("kind", KINDS)
def test_multi_precision_loop_grows_precision(kind):
    """Starting the fixed-point loop at 32 bits cannot decide: it must retry at
    higher precision, and still end at the correctly rounded value."""
    rng = random.Random(f"grow-{kind}")
    retries = 0
    for n, D in _random_phases(rng, 40, 40):
        for fmt in FLOATS:
            got, counts = _core.window_element(KIND_CODE[kind], n, D, DTYPES.index(fmt), 2, 32)
            retries += counts["multi-precision retries"]
            assert got == oracle.window_value(kind, n, D, fmt), (kind, n, D, fmt)
    assert retries > 0


def test_default_evaluation_rarely_leaves_the_first_stage():
    """Every output format goes through a first pass over the phases r = 0 .. D/2
    (counted as the double stage), each stored at n = r and n = D - r: the second
    store counts as mirrored.  The passes' bounds (2^-48 below float64, 2^-96 for
    float64) leave about 1 phase in 2^23 of float32 undecided, none in practice of
    the other formats."""
    for dtype in ("float16", "bfloat16", "float32", "float64", "int8"):
        for size, periodic in ((100001, True), (100001, False), (100000, True)):
            d = size if periodic else size - 1
            counts = {}
            make_window(2, "test", size, periodic, dtype, None, _counts=counts)
            assert counts["mirrored"] == size - (d // 2 + 1)
            assert counts["double"] >= d // 2 + 1 - 2
            assert sum(counts[name] for name in STAGE_NAMES) + counts["exact"] == d // 2 + 1


# Proven relative error bounds of the stages (src/core/window.c, sincospi.c).
STAGE_BOUNDS = {0: 2.0 ** -47, 1: 2.0 ** -96}


@pytest.mark.parametrize("stage", [0, 1])
@pytest.mark.parametrize("kind", KINDS)
def test_stage_error_bounds_hold(kind, stage):
    """The unrounded stage values against mpmath: the relative error stays within
    the bound the rounding test relies on (so that test is sound)."""
    rng = random.Random(f"bound-{kind}-{stage}")
    worst = 0.0
    with mpmath.workprec(300):
        for n, D in _random_phases(rng, 1500, 53):
            pair = _core.window_stage_value(KIND_CODE[kind], n, D, stage)
            if pair is None:
                continue  # an exact point
            approx = mpmath.mpf(pair[0]) + mpmath.mpf(pair[1])
            s = mpmath.sin(mpmath.pi * mpmath.mpf(n) / D) ** 2
            exact = {"hann": s, "hamming": (2 + 21 * s) / 23, "blackman": s * (9 + 16 * s) / 25}[kind]
            worst = max(worst, float(abs(approx - exact) / exact))
    assert 0 < worst <= STAGE_BOUNDS[stage], worst


def _coefficient_table(name):
    path = Path(__file__).resolve().parents[1] / "src" / "core" / "sincospi.c"
    if not path.is_file():  # tests run against an installed wheel, without the C sources
        pytest.skip(f"{path} is not here")
    source = path.read_text(encoding="utf-8")
    body = re.search(name + r"\[\d+\]\[2\] = \{(.*?)\n\};", source, re.S).group(1)
    return [(float.fromhex(hi), float.fromhex(lo))
            for hi, lo in re.findall(r"\{(-?0x[0-9a-fp.+-]+), (-?0x[0-9a-fp.+-]+)\}", body)]


@pytest.mark.parametrize("name,odd,count", [("SINPI_C", 1, 14), ("COSPI_C", 0, 15)])
def test_taylor_coefficient_tables(name, odd, count):
    """hi = RN(c) and lo = RN(c - hi) for c = (-1)^k pi^(2k+odd)/(2k+odd)!."""
    table = _coefficient_table(name)
    assert len(table) == count
    with mpmath.workprec(400):
        for k, (hi, lo) in enumerate(table):
            c = (-1) ** k * mpmath.pi ** (2 * k + odd) / mpmath.factorial(2 * k + odd)
            assert hi == float(c) and lo == float(c - mpmath.mpf(hi)), (name, k)


def test_integer_outputs_follow_float32_not_the_exact_value():
    """Next to the centre of a long odd symmetric window the exact value is below 1,
    so its truncation is 0, but float32 rounds it to 1.0 and ONNX's Cast gives 1."""
    size = 20001  # D = 20000: the centre n = 10000 is exactly 1
    n = 10001
    exact_below_one = oracle.window_value("hann", n, size - 1, "float64") < 1.0
    assert exact_below_one
    assert oracle.window_value("hann", n, size - 1, "float32") == 1.0
    far = 10100
    assert oracle.window_value("hann", far, size - 1, "float32") < 1.0
    for dtype in DTYPES[4:]:
        w = crtrig.hann_window(size, periodic=False, dtype=dtype)
        assert w[n] == 1 and w[size - 1 - n] == 1 and w[far] == 0


@pytest.mark.parametrize("fmt", FLOATS)
def test_exact_points_and_zeros_are_positive(fmt):
    """n/D in {0, 1/6, 1/4, 1/3, 1/2}: s = 0, 1/4, 1/2, 3/4, 1 and the windows are fractions."""
    fractions = {
        "hann": [0, Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), 1],
        "hamming": [Fraction(2, 23), Fraction(29, 92), Fraction(25, 46), Fraction(71, 92), 1],
        "blackman": [0, Fraction(13, 100), Fraction(17, 50), Fraction(63, 100), 1],
    }
    for kind, values in fractions.items():
        w = FUNCTIONS[kind](12, dtype=fmt).astype(np.float64)
        for n, value in zip([0, 2, 3, 4, 6], values):
            assert w[n] == oracle.round_to_format(value, fmt), (kind, n, fmt)
        assert not np.signbit(w[0])
