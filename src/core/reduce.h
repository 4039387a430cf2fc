/* Exact range reduction for sin/cos of doubles (internal).
 *
 * For x >= 0 (sin and cos of -x follow from symmetry), find an integer n and
 * t with x (2/pi) = n + 2t, |t| <= 1/4 + 2^-30, so that
 *   sin(x) = sin(pi t), cos(pi t), -sin(pi t), -cos(pi t)   for n mod 4 = 0, 1, 2, 3.
 * The Cody-Waite form (reduce_small.h) takes float32 values only (at most 24
 * significant bits); the other two take every positive double.
 */
#ifndef CRTRIG_REDUCE_H
#define CRTRIG_REDUCE_H

#include <stdint.h>
#include "dd.h"
#include "mpfix.h"

/* |x| < 2^24 in double (Cody-Waite): reduce_small.h. */

/* 2^-10 <= x < 2^1024 (a double), exact integer arithmetic on 256 bits of 2/pi
 * (Payne-Hanek).  Returns t as a double-double with
 *   |t - t*| <= 2^-105 |t*| + 2^-201.9,
 * which for every double x in the domain, since |t*| >= 2^-62.55 there, is at
 * most 2^-104.99 |t*|: a relative bound (derived in reduce.c). */
dd_t crtrig_reduce_large_dd(double x, int *quadrant);

/* Fixed-point reduction for the multi-precision stage: every double x > 0
 * (subnormals and the largest double included).
 * Writes r in [0, pi/4 + 2^-20] (a user number of ctx) and err (another one),
 * a bound on the error of r, such that
 *   sin(x) = s sin(r) or s cos(r) as described by *quadrant and *negate_offset:
 *   with q = *quadrant, sin(x) = sin(q pi/2 + o), o = -r if *negate_offset else r.
 * ctx must have at least fraction_bits_for(F, x) bits (crtrig_reduce_fixed_bits). */
void crtrig_reduce_fixed(mpfix_ctx *ctx, double x, uint32_t *r, uint32_t *err,
                         int *quadrant, int *negate_offset);

/* Precision to give ctx so that the reduction error stays below 2^-F
 * (at most F + 1048 fraction bits for a double). */
int crtrig_reduce_fixed_bits(int fraction_bits, double x);

#endif
