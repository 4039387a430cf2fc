"""Print the range-reduction constants of src/core/reduce.c, reduce_small.h and sincos.c (needs mpmath).

- TWO_OVER_PI_BITS: the bits of 2/pi after the binary point, 32 per word, most
  significant first, preceded by two zero words (bits i = -63..0), so that bit i
  (weight 2^-i, i >= -63) of 2/pi is bit 31 - (i + 63) % 32 of word (i + 63) / 32.
  41 words: the 256-bit Payne-Hanek window of reduce.c starts at bit E - 1 for
  x = M 2^E (M < 2^53), up to E = 971 (the largest double), and reads one more
  word for the shift: word (970 + 63) / 32 + 8 = 40.
- TWO_OVER_PI_H28: 2/pi rounded to 28 significant bits (so x * H28 is exact for
  any 24-bit x), and TWO_OVER_PI_L = RN(2/pi - H28).
- INV_PI as a double-double.
- SIN_IS_X_BELOW and COS_IS_1_BELOW (sincos.c): the smallest doubles above the
  roots of x - sin x = 2^-79 and 1 - cos x = 2^-54 (half the gap below x in
  [2^-26, 2^-25), half the gap below 1); sincos.c derives why they are the
  float64 thresholds of RN(sin x) = x and RN(cos x) = 1.
tests/test_sincos.py::test_range_reduction_constants and tests/test_sincos64.py
re-derive all of them with mpmath.
"""
import math

import mpmath

mpmath.mp.prec = 1600
WORDS = 41
ZERO_WORDS = 2


def two_over_pi_words():
    bits = 32 * (WORDS - ZERO_WORDS)
    scaled = int(mpmath.floor(2 / mpmath.pi * mpmath.mpf(2) ** bits))
    return [0] * ZERO_WORDS + [(scaled >> (bits - 32 * (k + 1))) & 0xFFFFFFFF for k in range(WORDS - ZERO_WORDS)]


def first_double_above(root):
    """The smallest double > root (root is irrational, never a double)."""
    value = float(root)
    return value if mpmath.mpf(value) > root else math.nextafter(value, math.inf)


def tiny_thresholds():
    with mpmath.workprec(300):
        sin_root = mpmath.findroot(lambda x: x - mpmath.sin(x) - mpmath.mpf(2) ** -79, mpmath.mpf(2) ** -25.5)
        cos_root = mpmath.findroot(lambda x: 1 - mpmath.cos(x) - mpmath.mpf(2) ** -54, mpmath.mpf(2) ** -26.5)
        return first_double_above(sin_root), first_double_above(cos_root)


def main():
    words = two_over_pi_words()
    print("static const uint32_t TWO_OVER_PI_BITS[%d] = {" % len(words))
    for k in range(0, len(words), 4):
        print("    " + ", ".join("0x%08xu" % w for w in words[k:k + 4]) + ",")
    print("};")
    two_over_pi = 2 / mpmath.pi
    # 28 significant bits: 2/pi is in [1/2, 1), so multiples of 2^-28.
    h28 = mpmath.mpf(int(mpmath.nint(two_over_pi * 2 ** 28))) / 2 ** 28
    low = float(two_over_pi - h28)
    print("static const double TWO_OVER_PI_H28 = %s;" % float(h28).hex())
    print("static const double TWO_OVER_PI_L = %s;" % low.hex())
    inv_pi = 1 / mpmath.pi
    hi = float(inv_pi)
    lo = float(inv_pi - mpmath.mpf(hi))
    print("static const double INV_PI_HI = %s, INV_PI_LO = %s;" % (hi.hex(), lo.hex()))
    sin_below, cos_below = tiny_thresholds()
    print("static const double SIN_IS_X_BELOW = %s;" % sin_below.hex())
    print("static const double COS_IS_1_BELOW = %s;" % cos_below.hex())


if __name__ == "__main__":
    main()
