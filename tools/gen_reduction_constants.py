"""Print the range-reduction constants of src/core/reduce.c and reduce_small.h (needs mpmath).

- TWO_OVER_PI_BITS: the bits of 2/pi after the binary point, 32 per word, most
  significant first, preceded by one zero word (bits i = -31..0), so that bit i
  (weight 2^-i) of 2/pi is bit 31 - (i + 31) % 32 of word (i + 31) / 32.
- TWO_OVER_PI_H28: 2/pi rounded to 28 significant bits (so x * H28 is exact for
  any 24-bit x), and TWO_OVER_PI_L = RN(2/pi - H28).
- INV_PI as a double-double.
tests/test_sincos.py::test_range_reduction_constants re-derives all of them with mpmath.
"""
import mpmath

mpmath.mp.prec = 600


def main():
    two_over_pi = 2 / mpmath.pi
    scaled = int(mpmath.floor(two_over_pi * mpmath.mpf(2) ** 256))
    words = [0] + [(scaled >> (256 - 32 * (k + 1))) & 0xFFFFFFFF for k in range(8)]
    print("static const uint32_t TWO_OVER_PI_BITS[%d] = {" % len(words))
    for k in range(0, len(words), 4):
        print("    " + ", ".join("0x%08xu" % w for w in words[k:k + 4]) + ",")
    print("};")
    # 28 significant bits: 2/pi is in [1/2, 1), so multiples of 2^-28.
    h28 = mpmath.mpf(int(mpmath.nint(two_over_pi * 2 ** 28))) / 2 ** 28
    low = float(two_over_pi - h28)
    print("static const double TWO_OVER_PI_H28 = %s;" % float(h28).hex())
    print("static const double TWO_OVER_PI_L = %s;" % low.hex())
    inv_pi = 1 / mpmath.pi
    hi = float(inv_pi)
    lo = float(inv_pi - mpmath.mpf(hi))
    print("static const double INV_PI_HI = %s, INV_PI_LO = %s;" % (hi.hex(), lo.hex()))


if __name__ == "__main__":
    main()
