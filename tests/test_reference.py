"""Cross-check crtrig.reference against the independent mpmath/MPFR oracle."""

from __future__ import annotations

import math
import os
import random
import sys
from fractions import Fraction

import ml_dtypes
import mpmath
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (tests/oracle.py)

from crtrig import reference  # noqa: E402

FLOATS = ("float16", "bfloat16", "float32", "float64")
INTEGERS = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
ALL_DTYPES = FLOATS + INTEGERS


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def oracle_bits(kind, n, d, fmt) -> int:
    value = oracle.window_value(kind, n, d, fmt)
    return reference.float_to_bits(value, fmt)


# ---------------------------------------------------------------------------
# Whole windows
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", reference.KINDS)
@pytest.mark.parametrize("periodic", [True, False])
def test_small_windows_match_oracle_in_every_dtype(kind, periodic):
    for size in list(range(0, 14)) + [16, 24, 31, 64, 100]:
        for dtype in ALL_DTYPES:
            got = reference.window(kind, size, periodic, dtype)
            want = oracle.window(kind, size, periodic, dtype)
            assert same_bits(got, want), (kind, size, periodic, dtype, got, want)


def test_window_returns_requested_dtype_and_shape():
    for spelling, expected in [
        ("float32", np.float32),
        (np.float32, np.float32),
        ("f4", np.float32),
        ("half", np.float16),
        (np.dtype("float64"), np.float64),
        ("bfloat16", ml_dtypes.bfloat16),
        (ml_dtypes.bfloat16, ml_dtypes.bfloat16),
        ("uint64", np.uint64),
        (np.int8, np.int8),
    ]:
        result = reference.window("hann", 5, True, spelling)
        assert result.dtype == np.dtype(expected)
        assert result.shape == (5,)
    assert reference.window("hamming", 0, False, "bfloat16").shape == (0,)
    assert reference.window("hamming", 0, False, "bfloat16").dtype == np.dtype(ml_dtypes.bfloat16)


def test_size_accepts_numpy_scalars_and_one_element_tensors():
    want = reference.window("blackman", 10, True, "float32")
    for size in (np.int32(10), np.array(10, np.int64), np.array([10], np.int32)):
        assert same_bits(reference.window("blackman", size, True, "float32"), want)


def test_bad_arguments_raise():
    with pytest.raises(ValueError):
        reference.window("hann", -1)
    with pytest.raises(ValueError):
        reference.window("kaiser", 4)
    with pytest.raises(TypeError):
        reference.window("hann", 4, dtype="complex64")
    with pytest.raises(TypeError):
        reference.window("hann", 4.0)


def test_known_exact_values():
    # periodic size 8: 0, 1/4-ish..., exact 1/2 and 1 at n = 2 and 4
    hann = reference.window("hann", 8, True, "float64")
    assert hann[0] == 0.0 and hann[2] == 0.5 and hann[4] == 1.0 and hann[6] == 0.5
    assert math.copysign(1.0, float(hann[0])) == 1.0  # +0.0
    hamming = reference.window("hamming", 4, True, "float64")
    assert hamming[0] == 2 / 23 and hamming[2] == 1.0
    blackman = reference.window("blackman", 6, True, "float64")
    # n/D = 1/6: s = 1/4 -> (1/4)(9 + 4)/25 = 13/100, rounded once
    assert blackman[1] == 0.13 and blackman[0] == 0.0
    assert reference.window("blackman", 6, True, "float32")[1] == np.float32(0.13)
    # symmetric size 1 is NaN (D = 0), and casts to 0 for integer outputs
    assert np.isnan(reference.window("hann", 1, False, "float16")[0])
    assert reference.window("hann", 1, False, "int32").tolist() == [0]


# ---------------------------------------------------------------------------
# Individual values
# ---------------------------------------------------------------------------


def _random_points(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        kind = rng.choice(reference.KINDS)
        fmt = rng.choice(FLOATS)
        d = rng.choice(
            [rng.randint(1, 2**40), rng.randint(1, 2**20), rng.randint(1, 1000), 2**40 - rng.randint(0, 9)]
        )
        n = rng.choice(
            [
                rng.randint(0, d),
                rng.randint(0, min(d, 40)),  # near 0: tiny values
                d // 2 + rng.randint(-3, 3),  # near the centre
                d // 4 + rng.randint(-3, 3),  # near the sin/cos switch
                d - rng.randint(0, min(d, 5)),
                rng.randint(0, 2**42),  # n beyond D: periodicity
            ]
        )
        yield kind, max(n, 0), d, fmt


def test_random_points_match_oracle():
    for kind, n, d, fmt in _random_points(1500, seed=20240917):
        assert reference.window_bits(kind, n, d, fmt) == oracle_bits(kind, n, d, fmt), (kind, n, d, fmt)


@pytest.mark.parametrize("d", [12, 24, 600, 7 * 12, 2**40 * 3, 12 * 10**9 + 12])
def test_rational_points_are_exact(d):
    """n/D in {0, 1/6, 1/4, 1/3, 1/2, 2/3, 3/4, 5/6} (and shifted by D)."""
    expected_s = {0: Fraction(0), 2: Fraction(1, 4), 3: Fraction(1, 2), 4: Fraction(3, 4), 6: Fraction(1)}
    for twelfths in range(12):
        n = d * twelfths // 12
        s = expected_s[min(twelfths, 12 - twelfths)] if min(twelfths, 12 - twelfths) in expected_s else None
        if s is None:
            continue  # 1/12, 5/12, ...: irrational
        exact = {
            "hann": s,
            "hamming": (2 + 21 * s) / 23,
            "blackman": s * (9 + 16 * s) / 25,
        }
        for kind in reference.KINDS:
            for fmt in FLOATS:
                want = oracle.round_to_format(exact[kind], fmt)
                for shifted in (n, n + d, n + 5 * d):
                    got = reference.window_value(kind, shifted, d, fmt)
                    assert got == want and math.copysign(1, got) == 1, (kind, shifted, d, fmt)


def test_float16_subnormal_outputs():
    """Blackman/hann near n = 0 for large D fall in float16's subnormal range."""
    subnormals = 0
    for d in (300, 1000, 4096, 10**5, 2**20 + 7, 2**40 - 1):
        for kind in ("blackman", "hann"):
            for n in list(range(1, 30)) + [d - 1, d - 2]:
                got = reference.window_value(kind, n, d, "float16")
                assert got == oracle.window_value(kind, n, d, "float16"), (kind, n, d)
                if 0 < got < 2.0**-14:
                    subnormals += 1
    assert subnormals > 50


@pytest.mark.parametrize(
    "kind, n, d",
    [("hann", 43, 747), ("blackman", 10, 567), ("hamming", 331, 998), ("blackman", 147, 934)],
)
def test_bfloat16_is_rounded_once(kind, n, d):
    """Points where a cast of the float64 value through float32 (what ml_dtypes
    before 0.7 did) rounds bfloat16 twice, to another value: the reference
    rounds once, as MPFR does."""
    direct = reference.window_value(kind, n, d, "bfloat16")
    assert direct == oracle.window_value(kind, n, d, "bfloat16")
    twice = oracle.round_through(oracle.window_value(kind, n, d, "float64"), "float32", "bfloat16")
    assert twice != direct


def test_float32_rounds_to_one_next_to_centre_of_odd_windows():
    """Smallest odd D where the float32 of the sample next to the centre is 1.0."""
    first = {"hann": 9101, "hamming": 8695, "blackman": 11653}
    for kind, d in first.items():
        for dd, want in ((d, 1.0), (d - 2, 1.0 - 2.0**-24)):
            n = (dd - 1) // 2
            assert reference.window_value(kind, n, dd, "float32") == want
            assert oracle.window_value(kind, n, dd, "float32") == want
            assert reference.window_value(kind, n, dd, "int32") == (1 if want == 1.0 else 0)
        # ... though the exact value is below 1 (its float64 rounding is)
        assert oracle.window_value(kind, (d - 1) // 2, d, "float64") < 1.0


def test_ziv_retry_path_gives_the_same_answer():
    """Start from a precision far too small so the interval loop must widen."""
    rng = random.Random(7)
    for _ in range(200):
        kind = rng.choice(reference.KINDS)
        d = rng.choice([rng.randint(7, 500), rng.randint(7, 2**40)])
        m, d = reference._fold(rng.randint(1, d - 1), d)
        if (m, d) in reference._RATIONAL_S:
            continue
        assert reference._folded_bits(kind, m, d, initial_bits=4) == reference._folded_bits(kind, m, d)


# ---------------------------------------------------------------------------
# Fixed-point kernels: the claimed error bounds hold
# ---------------------------------------------------------------------------


def test_pi_fixed_error_bound():
    for bits in (8, 30, 64, 100, 257, 1000):
        approx, error = reference._pi_fixed(bits)
        with mpmath.workprec(bits + 64):
            exact = mpmath.pi * mpmath.mpf(2) ** bits
            assert abs(exact - approx) <= error
        assert error < 2 ** (bits.bit_length() + 8)


@pytest.mark.parametrize("function, kernel", [(mpmath.sin, "_sin_fixed"), (mpmath.cos, "_cos_fixed")])
def test_sin_cos_fixed_error_bounds(function, kernel):
    rng = random.Random(3)
    compute = getattr(reference, kernel)
    for _ in range(400):
        bits = rng.randint(4, 300)
        x = rng.randint(0, (1 << bits) - 1)  # argument in [0, 1)
        if rng.random() < 0.3:
            x = rng.randint(0, 1 << (bits // 2))  # tiny arguments
        approx, error = compute(x, bits)
        with mpmath.workprec(bits + 64):
            exact = function(mpmath.mpf(x) / mpmath.mpf(2) ** bits) * mpmath.mpf(2) ** bits
            assert abs(exact - approx) <= error, (kernel, x, bits)


def test_sin_squared_interval_encloses_the_value():
    rng = random.Random(11)
    for _ in range(300):
        d = rng.randint(3, 2**30)
        m, d = reference._fold(rng.randint(1, d - 1), d)
        if (m, d) in reference._RATIONAL_S:
            continue
        bits = rng.randint(20, 120)
        lo, hi = reference._sin_squared_interval(m, d, bits)
        with mpmath.workprec(2 * bits + 80):
            exact = mpmath.sin(mpmath.pi * m / d) ** 2 * mpmath.mpf(2) ** (2 * bits)
            assert lo <= exact <= hi


# ---------------------------------------------------------------------------
# round_rational and bit helpers
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "num, den, fmt, bits",
    [
        (1, 1, "float16", 0x3C00),
        (1, 1, "bfloat16", 0x3F80),
        (1, 1, "float32", 0x3F800000),
        (1, 1, "float64", 0x3FF0000000000000),
        (1, 3, "float16", 0x3555),
        (1, 3, "bfloat16", 0x3EAB),
        (1, 3, "float32", 0x3EAAAAAB),
        (1, 3, "float64", 0x3FD5555555555555),
        (-1, 3, "float32", 0xBEAAAAAB),
        (1, -3, "float32", 0xBEAAAAAB),
        (0, 5, "float32", 0),
        # ties to even at 1: 1 + half an ulp stays 1, 1 + 3/2 ulp goes up
        (2**11 + 1, 2**11, "float16", 0x3C00),
        (2**11 + 3, 2**11, "float16", 0x3C02),
        (2**24 + 1, 2**24, "float32", 0x3F800000),
        (2**24 + 3, 2**24, "float32", 0x3F800002),
        (2**25 + 3, 2**25, "float32", 0x3F800001),
        (2**53 + 1, 2**53, "float64", 0x3FF0000000000000),
        (2**8 + 1, 2**8, "bfloat16", 0x3F80),
        (2**8 + 3, 2**8, "bfloat16", 0x3F82),
        # just above a midpoint rounds up
        (2**100 * (2**11 + 1) + 1, 2**111, "float16", 0x3C01),
        # just below a midpoint rounds down
        (2**100 * (2**11 + 3) - 1, 2**111, "float16", 0x3C01),
        # float16 subnormals: 2**-24 is the smallest, half of it ties to 0
        (1, 2**24, "float16", 0x0001),
        (1, 2**25, "float16", 0x0000),
        (2**80 + 1, 2**105, "float16", 0x0001),
        (3, 2**25, "float16", 0x0002),
        (5, 2**25, "float16", 0x0002),
        (2**11 - 1, 2**25, "float16", 0x0400),  # largest subnormal + 1/2 ulp -> min normal
        (2**11 - 3, 2**25, "float16", 0x03FE),
        (1, 2**14, "float16", 0x0400),
        # other formats' subnormals
        (1, 2**133, "bfloat16", 0x0001),
        (1, 2**134, "bfloat16", 0x0000),
        (3, 2**134, "bfloat16", 0x0002),
        (1, 2**149, "float32", 0x00000001),
        (1, 2**150, "float32", 0),
        (3, 2**150, "float32", 0x00000002),
        (1, 2**1074, "float64", 1),
        (1, 2**1075, "float64", 0),
        (3, 2**1075, "float64", 2),
        # overflow (not needed for windows, but the routine handles it)
        (65504, 1, "float16", 0x7BFF),
        (65519, 1, "float16", 0x7BFF),
        (65520, 1, "float16", 0x7C00),
        (-(10**40), 1, "float32", 0xFF800000),
    ],
)
def test_round_rational_tricky_values(num, den, fmt, bits):
    assert reference.round_rational(num, den, fmt) == bits


#: (precision, emin) of each float format, for the midpoint construction below.
_PARAMS = {"float16": (11, -14), "bfloat16": (8, -126), "float32": (24, -126), "float64": (53, -1022)}


def _ulp(value: float, fmt: str) -> Fraction:
    precision, emin = _PARAMS[fmt]
    exponent = max(math.frexp(value)[1] - 1, emin)
    return Fraction(2) ** (exponent - precision + 1)


def test_round_rational_matches_mpfr_on_random_rationals():
    rng = random.Random(99)
    for _ in range(4000):
        fmt = rng.choice(FLOATS)
        num = rng.randint(1, 2 ** rng.randint(1, 120))
        den = rng.randint(1, 2 ** rng.randint(1, 120))
        scale = rng.randint(-1100, 20)
        value = Fraction(num, den) * Fraction(2) ** scale
        if rng.random() < 0.4:
            # Aim at a rounding boundary: the midpoint above the rounded
            # value, exactly or nudged by far less than an ulp.
            rounded = oracle.round_to_format(value, fmt)
            if rounded != 0 and not math.isinf(rounded):
                ulp = _ulp(rounded, fmt)
                value = Fraction(rounded) + ulp / 2 + rng.choice([-1, 0, 1]) * ulp / 2**200
        want = oracle.round_to_format(value, fmt)
        got = reference.round_rational(value.numerator, value.denominator, fmt)
        assert reference.bits_to_float(got, fmt) == want, (value, fmt)


def test_round_rational_matches_numpy_float64_casts():
    """numpy's float64 -> float16/float32 casts are correctly rounded."""
    rng = np.random.default_rng(5)
    values = np.concatenate(
        [rng.random(2000) * 2.0 ** rng.integers(-30, 16, 2000), rng.random(500) * 2.0**-24]
    )
    for value in values.tolist():
        ratio = Fraction(value)
        for fmt, dtype in (("float16", np.float16), ("float32", np.float32)):
            got = reference.round_rational(ratio.numerator, ratio.denominator, fmt)
            assert got == int(np.array(value, dtype).view(np.uint16 if fmt == "float16" else np.uint32))


def test_bits_float_round_trip():
    for fmt in FLOATS:
        for value in (0.0, -0.0, 1.0, 0.5, 2.0**-14, 2.0**-24, 1 / 3, math.inf, -math.inf):
            bits = reference.float_to_bits(value, fmt)
            back = reference.bits_to_float(bits, fmt)
            assert reference.float_to_bits(back, fmt) == bits
        assert math.isnan(reference.bits_to_float(reference.float_to_bits(math.nan, fmt), fmt))
    assert reference.float_to_bits(-0.0, "float32") == 0x80000000
    assert reference.float_to_bits(Fraction(1, 3), "float32") == 0x3EAAAAAB
    assert reference.float_to_bits(np.float16(1.0), "bfloat16") == 0x3F80


def test_ulp_distance():
    one = 1.0
    assert reference.ulp_distance(one, one, "float32") == 0
    assert reference.ulp_distance(one, float(np.nextafter(np.float32(1), np.float32(2))), "float32") == 1
    assert reference.ulp_distance(one, float(np.nextafter(np.float32(1), np.float32(0))), "float32") == 1
    assert reference.ulp_distance(0.0, -0.0, "float16") == 0
    tiny = 2.0**-24
    assert reference.ulp_distance(-tiny, tiny, "float16") == 2
    assert reference.ulp_distance(1.0, 2.0, "float16") == 1024
    assert reference.ulp_distance(1.0, 2.0, "bfloat16") == 128
    assert reference.ulp_distance(1.0, 2.0, np.float64) == 2**52
    assert reference.ulp_distance(math.nan, math.nan, "float32") == 0
    assert reference.ulp_distance(math.nan, 1.0, "float32") == math.inf
    assert reference.ulp_distance(65504.0, math.inf, "float16") == 1
    assert reference.ulp_distance(0, 2**64 - 1, "uint64") == 2**64 - 1
    assert reference.ulp_distance(-128, 127, np.int8) == 255
