/* Cody-Waite range reduction for |x| < 2^24 in double (internal).  Shared by
 * the double stage (sincos.c) and the SIMD first passes (sincos_pass.h), so it
 * is a static inline function the compiler can vectorize.
 *
 * x (2/pi) = n + 2t with n an integer: returns t, and the bits of
 * n + 1.5 2^52, whose low bits hold n in two's complement (n mod 4 =
 * bits & 3).
 *
 * x has at most 24 significant bits (it is a float32 value), so
 * v1 = x H28 (at most 52 bits) is exact.  n = rint(v1 + p), with p = RN(x L),
 * by the 1.5 2^52 trick (|v| < 2^24).  f = RN((v1 - n) + p), where v1 - n is
 * exact: an integer subtracted from a double of the same or a larger ulp,
 * with a result below 1 in magnitude.  With f* = x (2/pi) - n =
 * (v1 - n) + x (2/pi - H28):
 *   (v1 - n) + p - f* = p - x (2/pi - H28), and
 *   |p - x L| <= u |x L| and |x L - x (2/pi - H28)| <= u |x L|,
 * so |(v1 - n) + p - f*| <= 2u |x| 2^-31.2 <= |x| 2^-83.2, and the final
 * rounding adds u |f|.  t = f/2 (exact):
 *   |t - t*| <= u |t*| + |x| 2^-84 (second-order terms fit in the slack).
 * Callers use |x| 2^-83.  |f| <= 1/2 + 2^-30: v1 + p is rounded to within
 * ulp(2^24)/2 = 2^-29 of x (2/pi), half of which reaches t, so
 * |t| <= 1/4 + 2^-30.
 */
#ifndef CRTRIG_REDUCE_SMALL_H
#define CRTRIG_REDUCE_SMALL_H

#include <stdint.h>
#include <string.h>

/* 2/pi rounded to 28 significant bits, and RN(2/pi - TWO_OVER_PI_H28):
 * |2/pi - H28| <= 2^-29, |L| < 2^-31.2, |2/pi - H28 - L| <= 2^-53 |L|.
 * tools/gen_reduction_constants.py prints them; tests/test_sincos.py checks them. */
static const double TWO_OVER_PI_H28 = 0x1.45f306e000000p-1;
static const double TWO_OVER_PI_L = -0x1.b1bbead603d8bp-32;

static inline double crtrig_reduce_small(double x, uint64_t *shifted_bits)
{
    const double shifter = 0x1.8p52;
    double v1 = x * TWO_OVER_PI_H28;
    double p = x * TWO_OVER_PI_L;
    double shifted = (v1 + p) + shifter;
    double f = (v1 - (shifted - shifter)) + p;
    memcpy(shifted_bits, &shifted, sizeof shifted);
    return 0.5 * f;
}

#endif
