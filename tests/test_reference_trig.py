"""Cross-check crtrig.reference's sin/cos against the MPFR oracle.

``reference.trig_bits`` (integer fixed point, Python only) and
``oracle.trig_value`` (MPFR through gmpy2) share no code.  Coverage:

* float16 and bfloat16: every one of the 65536 bit patterns, sin and cos;
* float32: a random sample of bit patterns (so every exponent), hard cases
  from the literature and from a scan of all float32, inputs next to
  multiples of pi/2, huge arguments up to the largest float, subnormals;
* float64 (the oracle of ``crtrig verify --dtype float64`` and of the float64
  case data): random samples over all exponents and in [-pi, pi], [-1e5, 1e5],
  [-1e22, 1e22], a share of the published worst cases (both signs), the doubles
  nearest to multiples of pi/2 with their neighbours, tiny and subnormal inputs.

Several tests also show that the hard cases are hard: rounding a correctly
rounded wider result (double rounding) gives a different answer there, so a
reference that took that shortcut would fail them.
"""

from __future__ import annotations

import math
import os
import random
import sys

import ml_dtypes
import mpmath
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (tests/oracle.py)

from crtrig import reference  # noqa: E402

FUNCTIONS = ("sin", "cos")
SMALL_FORMATS = {"float16": np.float16, "bfloat16": ml_dtypes.bfloat16}


def oracle_bits(func: str, x: float, fmt: str) -> int | None:
    """The oracle's bit pattern, or None when the value is NaN."""
    value = oracle.trig_value(func, x, fmt)
    if math.isnan(value):
        return None
    return reference.float_to_bits(value, fmt)


def disagreements(func: str, values, fmt: str) -> list[tuple[float, int, int | None]]:
    """Inputs where reference.trig_bits differs from the oracle, bit for bit
    (sign of zero included; any NaN matches any NaN)."""
    wrong = []
    for x in values:
        got = reference.trig_bits(func, x, fmt)
        want = oracle_bits(func, x, fmt)
        if want is None:
            if not math.isnan(reference.bits_to_float(got, fmt)):
                wrong.append((x, got, want))
        elif got != want:
            wrong.append((x, got, want))
    return wrong


def all_patterns(fmt: str) -> list[float]:
    dtype = SMALL_FORMATS[fmt]
    with np.errstate(invalid="ignore"):
        return np.arange(1 << 16, dtype=np.uint16).view(dtype).astype(np.float64).tolist()


def float32_values(hex_strings) -> list[float]:
    values = [float.fromhex(h) for h in hex_strings]
    assert all(float(np.float32(v)) == v for v in values)
    return values


def with_negatives(values) -> list[float]:
    return [s * v for v in values for s in (1.0, -1.0)]


def double_rounded(func: str, x: float, wide: str, narrow: str) -> float:
    """func(x) correctly rounded to ``wide``, then rounded to ``narrow``."""
    return reference.bits_to_float(reference.float_to_bits(oracle.trig_value(func, x, wide), narrow), narrow)


# ---------------------------------------------------------------------------
# Exhaustive float16 and bfloat16
# ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("fmt", sorted(SMALL_FORMATS))
@pytest.mark.parametrize("func", FUNCTIONS)
def test_every_16_bit_input(fmt, func):
    values = all_patterns(fmt)
    assert disagreements(func, values, fmt) == []


def test_float16_sin_has_subnormal_results():
    """sin(355) is -3.016e-05, a float16 subnormal (355/113 ~ pi)."""
    result = reference.bits_to_float(reference.trig_bits("sin", 355.0, "float16"), "float16")
    assert result == oracle.trig_value("sin", 355.0, "float16")
    assert result < 0 and abs(result) < 2.0**-14
    inputs = np.array([x for x in all_patterns("float16") if math.isfinite(x)], np.float16)
    results = np.abs(reference.trig("sin", inputs).astype(np.float64))
    subnormal = inputs[(results > 0) & (results < 2.0**-14)].astype(np.float64)
    # Subnormal inputs (sin x rounds to x) and large inputs next to multiples of pi.
    assert (np.abs(subnormal) > 1).any() and (np.abs(subnormal) < 2.0**-14).any()


# float16 inputs where rounding the correctly rounded float32 result to
# float16 is wrong (what numpy, torch and ORT do), plus sin(355).
FLOAT16_DOUBLE_ROUNDING = [("sin", 0.2093505859375), ("sin", 300.0), ("cos", 0.0584716796875)]


@pytest.mark.parametrize("func, x", FLOAT16_DOUBLE_ROUNDING)
def test_float16_double_rounding_cases(func, x):
    for value in (x, -x):
        got = reference.bits_to_float(reference.trig_bits(func, value, "float16"), "float16")
        assert got == oracle.trig_value(func, value, "float16")
        assert reference.ulp_distance(got, double_rounded(func, value, "float32", "float16"), "float16") == 1


# ---------------------------------------------------------------------------
# float32
# ---------------------------------------------------------------------------


def test_float32_random_bit_patterns():
    """Uniform bit patterns: every exponent (huge, subnormal, NaN, inf) is hit."""
    rng = np.random.default_rng(20240611)
    patterns = rng.integers(0, 1 << 32, size=12000, dtype=np.uint64).astype(np.uint32)
    with np.errstate(invalid="ignore"):
        values = patterns.view(np.float32).astype(np.float64).tolist()
    for func in FUNCTIONS:
        assert disagreements(func, values, "float32") == []


def test_float32_random_moderate_arguments():
    """Arguments in [-100, 100], where most real inputs are."""
    rng = np.random.default_rng(5)
    values = rng.uniform(-100, 100, size=6000).astype(np.float32).astype(np.float64).tolist()
    for func in FUNCTIONS:
        assert disagreements(func, values, "float32") == []


# Hard cases: rounding the correctly rounded float64 result to float32 gives
# the wrong float32 for exactly these (measured over all float32).
FLOAT32_DOUBLE_ROUNDING = {
    "sin": ["0x1.33333p+13"],
    "cos": ["0x1.3170fp+63", "0x1.2b9622p+67"],
}

# Inputs that CORE-MATH's correctly rounded sinf/cosf treat specially.
FLOAT32_LITERATURE = {
    "sin": ["0x1.33333p+13", "0x1.75b8a2p-1", "0x1.4f0654p+0", "0x1.2d97c8p+3"],
    "cos": ["0x1.2d97c8p+2", "0x1.4555p+51", "0x1.48a858p+54", "0x1.3170fp+63", "0x1.2b9622p+67"],
}

# From a scan of every positive normal float32 with numpy's float64 sin/cos,
# distances then measured with mpmath: the inputs whose value lies closest to
# a float32 rounding boundary (within 2**-52 to 2**-56 relative).
# cos(2**-12) = 1 - 2**-25 + 2**-51/3 + ... sits just above the midpoint
# 1 - 2**-25 between the float32 below 1 and 1.
FLOAT32_SCAN = {
    "sin": [
        "0x1.487e0cp+103",
        "0x1.95f654p+44",
        "0x1.524856p+80",
        "0x1.e35bc6p+7",
        "0x1.411b04p+63",
        "0x1.b559b6p+117",
        "0x1.8d9d8p+73",
        "0x1.a3eda6p+116",
    ],
    "cos": [
        "0x1.887814p+51",
        "0x1.96344ep+117",
        "0x1.119ae6p+115",
        "0x1.e072ecp+67",
        "0x1.20ffccp-7",
        "0x1.ca46bap+44",
        "0x1p-12",
        "0x1.8f219cp+5",
        "0x1.a8872ap-11",
    ],
}

# float32 inputs closest to a multiple of pi/2 (the remainder is near 2**-30):
# the result is tiny (sin near k pi, cos near (k + 1/2) pi) or next to +-1.
NEAR_MULTIPLES_OF_HALF_PI = [
    "0x1.f37c8ap+95",
    "0x1.47d0fep+34",
    "0x1.f9cbe2p+7",
    "0x1.32ede2p+85",
    "0x1.628d4cp+40",
    "0x1.13093p+76",
    "0x1.b08c4ap+111",
    "0x1.4665d2p+25",
    "0x1.2d97c8p+2",
    "0x1.2d97c8p+3",
    "0x1.921fb6p+0",
    "0x1.921fb6p+1",
    "0x1.921fb6p+2",
]


@pytest.mark.parametrize("func", FUNCTIONS)
def test_float32_double_rounding_cases(func):
    values = with_negatives(float32_values(FLOAT32_DOUBLE_ROUNDING[func]))
    assert disagreements(func, values, "float32") == []
    for x in values:
        got = reference.bits_to_float(reference.trig_bits(func, x, "float32"), "float32")
        assert reference.ulp_distance(got, double_rounded(func, x, "float64", "float32"), "float32") == 1


@pytest.mark.parametrize("func", FUNCTIONS)
def test_float32_hard_cases(func):
    values = with_negatives(float32_values(FLOAT32_LITERATURE[func] + FLOAT32_SCAN[func]))
    assert disagreements(func, values, "float32") == []


def test_float32_near_multiples_of_half_pi():
    values = with_negatives(float32_values(NEAR_MULTIPLES_OF_HALF_PI))
    neighbours = [float(np.nextafter(np.float32(x), np.float32(d))) for x in values for d in (-np.inf, np.inf)]
    for func in FUNCTIONS:
        assert disagreements(func, values + neighbours, "float32") == []
    # The first one: x - k pi/2 is about 2**-30 (relative to x about 2**-126).
    smallest = reference.trig_bits("cos", float.fromhex("0x1.f37c8ap+95"), "float32")
    sine = reference.trig_bits("sin", float.fromhex("0x1.f37c8ap+95"), "float32")
    magnitudes = sorted(abs(reference.bits_to_float(b, "float32")) for b in (smallest, sine))
    assert magnitudes[0] < 2.0**-28 and magnitudes[1] == 1.0


def test_float32_huge_arguments():
    largest = float(np.finfo(np.float32).max)
    values = [largest, 3.4e38, 1e38, 2.0**127, 2.0**100, 1e30, 2.0**64, 1e20, 16777216.0, 16777215.0, 1e7]
    values = with_negatives([float(np.float32(v)) for v in values])
    values += [float(np.nextafter(np.float32(largest), np.float32(0)))]
    for func in FUNCTIONS:
        assert disagreements(func, values, "float32") == []


def test_float32_subnormal_and_tiny_inputs():
    tiny = float(np.finfo(np.float32).smallest_subnormal)
    smallest_normal = float(np.finfo(np.float32).tiny)
    rng = np.random.default_rng(9)
    random_subnormals = rng.integers(1, 1 << 23, size=300).astype(np.uint32).view(np.float32).astype(np.float64)
    values = [tiny, 2 * tiny, 3 * tiny, smallest_normal - tiny, smallest_normal, 2.0**-100, 2.0**-60, 2.0**-12]
    values = with_negatives(values + random_subnormals.tolist())
    for func in FUNCTIONS:
        assert disagreements(func, values, "float32") == []
    # sin x rounds to x itself for every subnormal x; cos x to 1.
    for x in values[:8]:
        assert reference.trig_bits("sin", x, "float32") == reference.float_to_bits(x, "float32")
        assert reference.trig_bits("cos", x, "float32") == 0x3F800000


# ---------------------------------------------------------------------------
# float64 (crtrig verify --dtype float64 and the float64 case data rely on it)
# ---------------------------------------------------------------------------


def test_float64_random_sample():
    rng = np.random.default_rng(64)
    patterns = rng.integers(0, 1 << 64, size=1500, dtype=np.uint64)
    with np.errstate(invalid="ignore"):
        values = patterns.view(np.float64).tolist()
    values += [float(np.finfo(np.float64).max), 5e-324, 1e22, 2.0**1023, 355.0, 1e300]
    for func in FUNCTIONS:
        assert disagreements(func, values, "float64") == []


@pytest.mark.parametrize("func", FUNCTIONS)
def test_float64_hard_inputs(func):
    """Every 8th published worst case (both signs), every 10th double nearest to a
    multiple of pi/2 or its neighbour (results down to 2^-61), random inputs of the
    three ranges, tiny and subnormal inputs (tests/float64_inputs.py)."""
    import float64_inputs as inputs

    values = (inputs.worst_cases(func)[::8] + inputs.half_pi_neighbours()[::10]
              + [float(v) for kind in ("pi", "1e5", "1e22") for v in inputs.random_inputs(kind, 300, seed=7)]
              + inputs.tiny_inputs()[::20] + inputs.subnormal_inputs(count=20) + inputs.special_inputs())
    assert len(values) > 13000
    assert disagreements(func, values, "float64") == []


# ---------------------------------------------------------------------------
# Special values and the array interface
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["float16", "bfloat16", "float32", "float64"])
def test_special_values(fmt):
    f = reference.FLOAT_FORMATS[fmt]
    one = reference.float_to_bits(1.0, fmt)
    assert reference.trig_bits("sin", 0.0, fmt) == 0
    assert reference.trig_bits("sin", -0.0, fmt) == f.sign_bit
    assert reference.trig_bits("cos", 0.0, fmt) == one
    assert reference.trig_bits("cos", -0.0, fmt) == one
    for special in (math.inf, -math.inf, math.nan):
        for func in FUNCTIONS:
            assert reference.trig_bits(func, special, fmt) == f.nan_bits
            assert math.isnan(oracle.trig_value(func, special, fmt))
    assert math.copysign(1.0, oracle.trig_value("sin", -0.0, fmt)) == -1.0


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32, np.float64])
def test_trig_arrays_keep_dtype_and_shape(dtype):
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((3, 4, 5)) * 10).astype(dtype)
    x[0, 0, :3] = [np.inf, np.nan, -0.0]
    fmt = reference.format_name(np.dtype(dtype))
    for func in FUNCTIONS:
        got = reference.trig(func, x)
        assert got.dtype == np.dtype(dtype) and got.shape == x.shape
        want = oracle.trig(func, x)
        assert want.dtype == np.dtype(dtype) and want.shape == x.shape
        flat = x.astype(np.float64).reshape(-1).tolist()
        expected = [reference.trig_bits(func, v, fmt) for v in flat]
        assert got.view(reference.FLOAT_FORMATS[fmt].bits_dtype).reshape(-1).tolist() == expected
        same_nan = np.isnan(got.astype(np.float64)) == np.isnan(want.astype(np.float64))
        assert same_nan.all()
        assert np.array_equal(got.astype(np.float64), want.astype(np.float64), equal_nan=True)
    assert reference.trig("sin", x[0, 0, 2]).shape == ()  # 0-d stays 0-d
    assert math.copysign(1.0, float(reference.trig("sin", x)[0, 0, 2])) == -1.0


def test_trig_rejects_bad_arguments():
    with pytest.raises(TypeError):
        reference.trig("sin", np.arange(3))
    with pytest.raises(ValueError):
        reference.trig("tan", np.zeros(3, np.float32))
    with pytest.raises(ValueError):
        reference.trig_bits("tan", 1.0, "float32")
    with pytest.raises(ValueError):
        oracle.trig_value("sin", 1e30, "float16")  # outside float16's range


# ---------------------------------------------------------------------------
# Building blocks: the claimed bounds hold
# ---------------------------------------------------------------------------


def test_reduction_encloses_the_remainder():
    rng = random.Random(17)
    for _ in range(300):
        mantissa = rng.randint(1, (1 << 53) - 1)
        exponent = rng.choice([rng.randint(-80, 0), rng.randint(0, 120), rng.randint(900, 970)])
        bits = rng.choice([8, 40, 64, 100, 200])
        k, lo, hi = reference._reduce_quarter_turns(mantissa, exponent, bits)
        with mpmath.workprec(bits + exponent + mantissa.bit_length() + 200):
            a = mpmath.mpf(mantissa) * mpmath.mpf(2) ** exponent
            remainder = (a - k * mpmath.pi / 2) * mpmath.mpf(2) ** bits
            assert lo <= remainder <= hi
            assert abs(remainder) <= (mpmath.pi / 4) * mpmath.mpf(2) ** bits + 1
        assert hi - lo < 4


def test_pi_scaled_error_bound():
    for bits in (3, 64, 200, 777, 1500, 3000):
        approximation, error = reference._pi_scaled(bits)
        with mpmath.workprec(bits + 64):
            assert abs(mpmath.pi * mpmath.mpf(2) ** bits - approximation) <= error
        assert error < 2**16


def test_ziv_retry_path_gives_the_same_answer():
    """Start from a precision far too small so the loop has to double it."""
    rng = np.random.default_rng(3)
    values = rng.integers(0, 0x7F800000, size=300).astype(np.uint32).view(np.float32).astype(np.float64)
    f = reference.FLOAT_FORMATS["float32"]
    for x in values.tolist() + [float.fromhex("0x1.f37c8ap+95"), 355.0]:
        for func in FUNCTIONS:
            assert reference._trig_bits_finite(func, x, f, initial_bits=3) == reference.trig_bits(func, x, f)
