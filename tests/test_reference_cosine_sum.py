"""crtrig.reference.cosine_sum_window / cosine_sum_bits: the exact oracle for any
cosine-sum window with rational coefficients, checked against tests/oracle.py
(mpmath + MPFR) and against crtrig.reference.window for the ONNX windows."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (tests/oracle.py)

from crtrig import reference  # noqa: E402

FLOATS = ("float16", "bfloat16", "float32", "float64")

#: Cosine sums beyond ONNX's, as exact rationals.  The 0.54/0.46 Hamming of
#: numpy, scipy and torch; the 4-term Blackman-Harris window; scipy's 5-term
#: flat-top window, which is negative in places and crosses zero at
#: irrational points; one with a zero coefficient in the middle.
EXTRA_SUMS = {
    "decimal_hamming": (Fraction(27, 50), Fraction(23, 50)),
    "blackman_harris": tuple(Fraction(x) for x in ("0.35875", "0.48829", "0.14128", "0.01168")),
    "flattop": tuple(
        Fraction(x) for x in ("0.21557895", "0.41663158", "0.277263158", "0.083578947", "0.006947368")
    ),
    "gap": (Fraction(1, 3), Fraction(0), Fraction(-2, 7)),
}


@pytest.fixture
def oracle_sums(monkeypatch):
    """Teach tests/oracle.py the extra coefficient sets (it evaluates any
    COEFFICIENTS entry from the cosine-sum definition with mpmath)."""
    for name, coefficients in EXTRA_SUMS.items():
        monkeypatch.setitem(oracle.COEFFICIENTS, name, coefficients)
    return EXTRA_SUMS


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("kind", reference.KINDS)
def test_onnx_coefficients_give_the_onnx_windows(kind):
    for periodic in (True, False):
        for size in list(range(0, 40)) + [60, 64, 100, 257, 1000]:
            for dtype in FLOATS:
                got = reference.cosine_sum_window(reference.COEFFICIENTS[kind], size, periodic, dtype)
                assert same_bits(got, reference.window(kind, size, periodic, dtype)), (kind, size, periodic, dtype)


@pytest.mark.parametrize("name", sorted(EXTRA_SUMS))
def test_small_windows_match_the_mpmath_oracle(oracle_sums, name):
    for periodic in (True, False):
        for size in list(range(0, 26)) + [36, 100]:
            for dtype in FLOATS:
                got = reference.cosine_sum_window(oracle_sums[name], size, periodic, dtype)
                want = oracle.window(name, size, periodic, dtype)
                assert same_bits(got, want), (name, size, periodic, dtype, got, want)


def test_random_points_match_the_mpmath_oracle(oracle_sums):
    rng = random.Random(20260601)
    names = sorted(oracle_sums)
    for _ in range(600):
        name = rng.choice(names)
        fmt = rng.choice(FLOATS)
        d = rng.choice([rng.randint(1, 2**40), rng.randint(1, 2**20), rng.randint(1, 200)])
        n = rng.choice([rng.randint(0, d), rng.randint(0, min(d, 30)), d // 2 + rng.randint(-3, 3),
                        rng.randint(0, 2**42)])
        n = max(n, 0)
        got = reference.cosine_sum_bits(oracle_sums[name], n, d, fmt)
        want = reference.float_to_bits(oracle.window_value(name, n, d, fmt), fmt)
        assert got == want, (name, n, d, fmt)


def test_decimal_strings_ints_and_fractions_are_the_same_rationals():
    want = reference.cosine_sum_window((Fraction(27, 50), Fraction(23, 50)), 33, True, "float64")
    for spelling in (("0.54", "0.46"), ("27/50", "23/50"), (Fraction(54, 100), "0.46")):
        assert same_bits(reference.cosine_sum_window(spelling, 33, True, "float64"), want)
    # Trailing zero coefficients change nothing; a constant window is a_0 rounded once.
    assert same_bits(reference.cosine_sum_window(("1/2", "1/2", 0, 0), 50, False, "float32"),
                     reference.window("hann", 50, False, "float32"))
    third = reference.cosine_sum_window((Fraction(1, 3), 0), 7, True, "float32")
    assert third.tolist() == [oracle.round_to_format(Fraction(1, 3), "float32")] * 7
    assert reference.cosine_sum_window((np.int64(1),), 3, True, "float16").tolist() == [1.0] * 3


def test_rational_value_at_an_irrational_cosine_is_rounded_exactly():
    """At theta = 2 pi / 5, c1 = cos(theta) = (sqrt5 - 1)/4 and c2 = cos(2 theta) =
    (-sqrt5 - 1)/4 are irrational, but -c1 - c2 = 1/2.  With a = (0, k, -k) the
    term is k (-c1 - c2) = k/2.  For k = 1 + 2^-24 that is 1/2 + 2^-25, exactly the
    midpoint between the float32 neighbours 1/2 and 1/2 + 2^-24: no enclosure of an
    irrational evaluation can decide it, only the exact (cyclotomic) test can.
    Ties to even give 1/2 in float32."""
    k = 1 + Fraction(1, 2**24)
    coefficients = (0, k, -k)
    value = k / 2
    assert value == Fraction(1, 2) + Fraction(1, 2**25)
    float32_ulp = Fraction(1, 2**24)  # in [1/2, 1)
    assert (value - Fraction(1, 2)) * 2 == float32_ulp  # a float32 rounding boundary
    for d in (5, 10, 2**30 * 5):
        for n in (d // 5, 4 * d // 5, 6 * d // 5):
            for fmt in FLOATS:
                got = reference.bits_to_float(reference.cosine_sum_bits(coefficients, n, d, fmt), fmt)
                assert got == oracle.round_to_format(value, fmt), (n, d, fmt)
    assert reference.bits_to_float(reference.cosine_sum_bits(coefficients, 1, 5, "float32"), "float32") == 0.5
    assert reference.bits_to_float(reference.cosine_sum_bits(coefficients, 1, 5, "float64"), "float64") == float(value)


def test_cyclotomic_polynomials_and_the_degree_bound():
    """The exact test relies on deg Phi_d = phi(d) and on phi(d) >= sqrt(d/2)."""
    def phi(n):  # Euler's totient from the prime factorization
        result, m, p = n, n, 2
        while p * p <= m:
            if m % p == 0:
                result -= result // p
                while m % p == 0:
                    m //= p
            p += 1
        return result - result // m if m > 1 else result

    assert [phi(n) for n in range(1, 13)] == [sum(1 for k in range(1, n + 1) if math.gcd(k, n) == 1)
                                              for n in range(1, 13)]

    for d in range(1, 80):
        poly = reference._cyclotomic(d)
        assert len(poly) - 1 == phi(d) and poly[-1] == 1, d
        # x^d - 1 is the product of Phi_k over the divisors k of d.
        product = [1]
        for k in range(1, d + 1):
            if d % k == 0:
                factor = reference._cyclotomic(k)
                product = [sum(product[i] * factor[j - i] for i in range(len(product))
                               if 0 <= j - i < len(factor)) for j in range(len(product) + len(factor) - 1)]
        assert product == [-1] + [0] * (d - 1) + [1], d
    for d in range(1, 100_000):
        assert phi(d) ** 2 >= d / 2, d


def test_symmetric_size_one_is_nan_and_size_zero_empty():
    assert np.isnan(reference.cosine_sum_window(("0.54", "0.46"), 1, False, "bfloat16")[0])
    assert reference.cosine_sum_window(("0.54", "0.46"), 1, True, "float32").tolist() == [
        oracle.round_to_format(Fraction(2, 25), "float32")]
    assert reference.cosine_sum_window(("0.54", "0.46"), 0, False, "float64").shape == (0,)


@pytest.mark.parametrize(
    "coefficients, error",
    [
        ((0.54, 0.46), TypeError),
        ((True, 1), TypeError),
        ((), ValueError),
        ("0.54", TypeError),
        (5, TypeError),
        (("0.5", "abc"), ValueError),
        (("1/0",), ValueError),
        ((None,), TypeError),
    ],
)
def test_bad_coefficients_raise(coefficients, error):
    with pytest.raises(error):
        reference.cosine_sum_window(coefficients, 4)


HOSTILE_COEFFICIENTS = """
from crtrig import reference
for coefficients in (("1e-999999999", "0.5"), ("0.5", "1e999999999"), ("-1E+9_999_999_99",),
                     ("1" * 5000,), ("0." + "0" * 5000 + "1",), ("1/" + "3" * 5000,), ("1e-" + "9" * 5000,)):
    try:
        reference.cosine_sum_window(coefficients, 4)
    except ValueError as exc:
        message = str(exc)
        assert "coefficient" in message and len(message) < 250, message[:300]
    else:
        raise AssertionError(coefficients[0][:40])
# what a case file may hold is still fine: 2000 digits, decimal exponents up to +-1000
assert reference.cosine_sum_window(("0.5" + "0" * 1998, "5e-1", "1e-1000"), 4).dtype.name == "float32"
print("done")
"""


def test_coefficients_with_a_huge_exponent_or_size_are_refused_at_once():
    """Fraction("1e-999999999") computes 10**999999999 (a minute, gigabytes); the
    coefficients' exponents and sizes are checked first (a ValueError at once)."""
    try:
        completed = subprocess.run([sys.executable, "-c", HOSTILE_COEFFICIENTS], capture_output=True, text=True,
                                   timeout=60)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"timed out after {exc.timeout} s")
    assert completed.returncode == 0 and completed.stdout == "done\n", completed.stderr[-3000:]


def test_bad_size_and_dtype_raise():
    with pytest.raises(ValueError):
        reference.cosine_sum_window(("0.5", "0.5"), -1)
    with pytest.raises(TypeError):
        reference.cosine_sum_window(("0.5", "0.5"), 4, dtype="int32")
    with pytest.raises(TypeError):
        reference.cosine_sum_window(("0.5", "0.5"), 4.0)
    with pytest.raises(ValueError):
        reference.cosine_sum_bits(("0.5", "0.5"), 1, -4, "float32")


def test_the_oracle_keeps_the_sign_of_negative_mpmath_values():
    """mpmath's man_exp is unsigned; the flat-top window's negative values need
    tests/oracle.py to put the sign back."""
    import mpmath

    assert oracle.round_to_format(mpmath.mpf(-0.75), "float32") == -0.75
    assert oracle.round_to_format(mpmath.mpf(1) / -3, "float16") == float(np.float16(-1 / 3))
