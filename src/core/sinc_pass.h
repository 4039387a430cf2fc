/* scipy's Lanczos (sinc) and Bohman windows: the double-double stage and its
 * rounding test (see window_sinc.h for the formulas), the per-element work of
 * crtrig_sinc_window_fill (window_sinc.c).  One source compiled once per SIMD target
 * (simd_*.c define CRTRIG_KERNEL_FMA and CRTRIG_SIMD_SUFFIX first; dispatch.c holds
 * CRTRIG_KERNEL(sinc_range) per target).  Bounds for the code as written:
 * round-to-nearest (the fill enters crtrig_fpenv), no contraction
 * (-ffp-contract=off), dd.h's 2^-103 per dd operation.
 *
 * The same bits on every target: the double-double operations are dd.h's, except
 * that every exact product (inside kd_dd_mul, div_by_int and ratio_dd) is kernel_dd.h's
 * kd_two_prod (one fma where the target has it, Dekker's product as dd.h's
 * otherwise).  Both give hi = RN(a b) and lo = a b - hi exactly as long as no
 * product falls below 2^-969 (the magnitudes below keep every product of hi parts 0
 * or at least 2^-153, Bohman's g^3, so Dekker's partial products stay above 2^-210),
 * so kd_dd_mul (kernel_dd_mul.h) gives dd_mul's bits, and the values, the decisions and the set
 * of undecided elements do not depend on the target.  Below, a "unit" is
 * 2^-103 and |err| <= c units of X means |computed - exact| <= c 2^-103 X; second-
 * order terms (products of two such errors, below 2^-190 relative) are ignored
 * inside the margins (every final constant is rounded up by more than 2^-20).
 *
 * Phases.  Element n (2n <= D) has k = 2n and g = k/D; pi g is folded with exact
 * integers to r = min(k, D - k) <= D/2: sin(pi g) = sin(pi r/D), cos(pi g) =
 * +cos(pi r/D) for 2k <= D, -cos(pi r/D) for 2k > D.  Both come from the two-level
 * sinpi table of denominator D (window_table.h), built once per fill for the phases
 * 0 .. D/2 from the baseline target's builder: with r = aB + b and every entry
 * x~ = x (1 + d), |d| <= 3.7 units (crtrig_sincospi_ratio_dd's bound; the entries at
 * 0 and D/2 exact), all four entries >= 0 (angles in [0, pi/2]):
 *   S = sin(pi r/D) = Sa Cb + Ca Sb: two dd_mul (2 (3.7) + 1 units each, relative) and
 *       a dd_add of two nonnegative terms (1 unit): S~ within 9.4 units of S (as
 *       window_cosum.c's cos_table derives);
 *   C = cos(pi r/D) = Ca Cb - Sa Sb: the products within 8.4 units of themselves,
 *       the difference by dd_add_accurate (3u^2/(1 - 4u) < 0.376 units of the exact
 *       difference of its operands, which is within |C| + 8.4 (Ca Cb + Sa Sb) <= 1 + 2^-99
 *       since Ca Cb + Sa Sb = cos(pi (aB - b)/D) <= 1): an ABSOLUTE error
 *       |C~ - C| <= 8.4 + 0.377 <= 8.8 units (C itself may be near 0: no relative bound).
 * g = k/D as a double-double by crtrig_sincospi_ratio_dd's construction (ratio_dd
 * below): relative 2^-105 = 0.25 units (k, D <= 2^52 exact doubles).
 *
 * Lanczos.  k = 0: w = sin(0)/pi = 0, exactly; k = D: w = 1 (scipy's sinc(0) = 1).
 * Otherwise w = S / (pi r/D) with r = D - k >= 1 (1 - g = r/D, exact integers), computed
 * as div_by_int(Y, r) with Y = S D/pi = (K Sa) Cb + (K Ca) Sb, K = D/pi = dd_mul_d(1/pi, D)
 * (1/pi a dd constant within 2^-106 = 0.125 units, dd_mul_d 1 unit: 1.125 units), the
 * coarse entries times K formed once per fill (scaled_coarse: dd_mul, 1 unit; each
 * within 3.7 + 1.125 + 1 = 5.83 units of its exact value times D/pi), then per element
 * two dd_mul with the fine entries (5.83 + 3.7 + 1 = 10.53 units each) and a dd_add of
 * two nonnegative terms (1 unit): Y within 11.53 units; div_by_int 1.4 (below): w within
 * 12.93 units.  Every value here is nonnegative and at
 * least sin(pi/D) D/(pi D) >= 2^-53 (no underflow), every product of hi parts 0 or at
 * least 2^-104 (its Dekker partial products above 2^-160: the split is exact).
 * The test: e = 2^-99 w~_hi = 16 units of w~_hi covers the 12.93 units, w~_hi vs w
 * (relative 2^-52), and crtrig_decide_dd's own 2^-103 (|y| + e) (1.01 units).
 * div_by_int(y, r, inv) is dd_div_d(y, r) with the two divisions by r replaced by
 * products with inv = RN(1/r) = (1 + d0)/r, |d0| <= u, which is computed off the
 * element's dependency chain (the divisions were its slowest steps).  With u = 2^-53,
 * |y_lo| <= u |y_hi|, r < 2^53 exact: q1 = RN(y_hi inv) has q1 r = y_hi (1 + eps),
 * |eps| <= 2u + u^2; p = two_prod(q1, r) exact; p_hi is within 3.01u of y_hi, so
 * y_hi - p_hi is exact (Sterbenz); (y_hi - p_hi) - p_lo = y_hi - q1 r (<= 2.01u |y_hi|)
 * rounds by <= 2.01u^2 |y_hi|, + y_lo (sum <= 3.02u |y_hi|) by <= 3.02u^2 |y_hi|: rem =
 * y - q1 r + eta, |eta| <= 5.03u^2 |y_hi|.  q2 = RN(rem inv) is rem/r within (2u + u^2)
 * |rem|/r <= 6.1u^2 |y_hi|/r, and |q2| <= |q1|, so the fast two-sum of q1 + q2 is exact:
 * q1 + q2 - y/r = eta/r + (q2 - rem/r), at most 11.2u^2 |y|/r (1 + u) < 1.4 units of y/r.
 *
 * Bohman, k = 0: w = 0; k = D: w = 1 (exact, scipy's zero ends are these two).
 * Bohman near g = 0, 16 k <= D (g <= 1/16).  sin(pi g)/pi and g cos(pi g) both are
 * g (1 + O(g^2)) and w = (pi^2/3) g^3 (1 + O(g^2)): the difference would cancel (a
 * relative loss of 6/(pi^2 g^2)), so the series instead:
 *   w = g^3 P(z), z = g^2, P(z) = sum_j b_j z^j,  b_j = (-1)^j (2j + 2) pi^(2j+2)/(2j + 3)!
 * (from sin(x)/pi - g cos(x) = sum_k (-1)^(k+1) pi^(2k) g^(2k+1) (1/(2k)! - 1/(2k+1)!),
 * x = pi g).  Alternating with |b_j z^j| decreasing: relative to b_0 = pi^2/3 at z <=
 * 2^-8 the terms are <= 3.9e-3, 5.3e-6, 3.8e-9, 1.7e-12, 4.9e-16, 1.1e-19, 1.8e-23,
 * 2.2e-27, 2.2e-31 (j = 1 .. 9) and the first omitted one (j = 10) 1.9e-35 = 2^-115.4,
 * which bounds the truncation; P >= b_0 (1 - 3.9e-3).  BOHMAN_C holds b_j as dd
 * {hi, lo}, within 2^-106 of b_j (tools/gen_sinc_coeffs.py prints them; tests check
 * them against mpmath through crtrig_test_sinc_constant).
 *   g~ 0.25 units; z = dd_mul(g~, g~): 2 (0.25) + 1 = 1.5 units of g^2.
 *   Tail j = 9 .. 6 in double Horner on z_hi: its value <= 1.2e-19 P, its relative error
 *     below 8u (4 roundings, hi parts of the coefficients, z_hi vs z): < 2^-113 P.
 *   dd Horner j = 5 .. 0, p_j = dd_add(b_j, dd_mul(z, p_(j+1))): b_j and z p_(j+1) have
 *     opposite signs and |z p_(j+1)| <= 3.9e-3 |b_j| (< |b_j|/4, dd.h's condition), so
 *     step j errs by 1 unit of |z p_(j+1)| (mul) plus 1 unit of |b_j| + |z p_(j+1)| (add):
 *     at j = 0, relative to P, (3.9e-3 + 1.0039)/0.996 <= 1.012; the steps j >= 1 weigh
 *     z^j and sum below 0.01; the coefficients' 0.125 units of sum |b_j z^j| <= 1.008 P:
 *     0.127; z's 1.5 units move P by |z P'/P| 1.5 <= 0.006; tail and truncation 0.001.
 *     P~ within 1.16 units of P.
 *   g3 = dd_mul(z~, g~): 1.5 + 0.25 + 1 = 2.75 units of g^3; w = dd_mul(g3, P~):
 *     2.75 + 1.16 + 1 = 4.91 units of w.
 *   Magnitudes: g >= 2/D >= 2^-51, so g^3 >= 2^-153 and every product is far above
 *   2^-969 (dd.h's split) and below 2^4.  e = 2^-99 w~_hi (16 units) covers the 4.91,
 *   w~_hi vs w and crtrig_decide_dd's 1.01 units.
 * Bohman for g > 1/16 (16 k > D): w = P - Q with P = S/pi = dd_mul(S~, 1/pi), Q =
 * dd_mul(g~, C~ signed), by dd_add_accurate (w >= w(1/16) > 7.9e-4: the cancellation is
 * at most (P + |Q|)/w <= 160, and none for 2k > D, where Q <= 0).
 *   P~ within 9.4 + 0.125 + 1 = 10.53 units of P = S/pi;
 *   |Q~ - g C| <= g 8.8 (C's absolute error) + 0.25 g |C| (g~) + 1 unit of g |C~| (dd_mul)
 *     <= 10.06 g units (|C| <= 1);
 *   dd_add_accurate: 0.376 units of |P~ - Q~| <= w + 10.53 P + 10.06 g units: 0.377 w.
 *   |w~ - w| <= 10.53 P + 10.06 g + 0.377 w units.  The test uses
 *   e = 2^-99 (P~_hi + g~_hi + w~_hi): 16 units of each, which covers these three (P~_hi,
 *   g~_hi, w~_hi are within 2^-52 of P, g, w), crtrig_decide_dd's 1.01 units of w + e
 *   and e's own two roundings (relative 2^-52 each; the product by 2^-99 is exact).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dd.h"
#include "fpformat.h"
#include "kernel_dd.h"
#include "kernel_dd_mul.h"
#include "pass_common.h"
#include "window_sinc.h"
#include "window_table.h"

#ifndef CRTRIG_SINC_PASS_ONCE
#define CRTRIG_SINC_PASS_ONCE

/* a/b as a double-double, a and b exact doubles, b > 0: relative 2^-105
 * (crtrig_sincospi_ratio_dd's construction, sincospi.c). */
KD_INLINE dd_t ratio_dd(double a, double b)
{
    double th = a / b;
    kdd_t prod = kd_two_prod(th, b);
    double tl = ((a - prod.hi) - prod.lo) / b;
    return dd_fast_two_sum(th, tl);
}

/* sin(pi r/D) (relative 9.4 units) and, if c is not NULL, cos(pi r/D) (absolute 8.8
 * units) from the table, 0 <= r <= D/2 (top comment). */
KD_INLINE dd_t table_sincos(const crtrig_sinpi_table *t, int shift, uint64_t r, dd_t *c)
{
    uint64_t a = r >> shift, b = r & (t->B - 1), i = a - t->a_first;
    dd_t Sa = dd_make(t->coarse_sin_hi[i], t->coarse_sin_lo[i]), Ca = dd_make(t->coarse_cos_hi[i], t->coarse_cos_lo[i]);
    dd_t Sb = dd_make(t->fine_sin_hi[b], t->fine_sin_lo[b]), Cb = dd_make(t->fine_cos_hi[b], t->fine_cos_lo[b]);
    if (c) {
        dd_t q = kd_dd_mul(Sa, Sb);
        *c = dd_add_accurate(kd_dd_mul(Ca, Cb), dd_make(-q.hi, -q.lo));
    }
    return dd_add(kd_dd_mul(Sa, Cb), kd_dd_mul(Ca, Sb));
}

/* crtrig_decide_dd for a positive y (y.hi = RN(y.hi + y.lo), 2^-969 < y.hi < 2), and
 * for float64 without forming the ends: the exact value x has |x - y.hi - y.lo| <= e
 * (e covering the caller's errors; the ends' own roundings are not needed here).
 * With the gaps around y.hi, 2 up = ulp(y.hi) above and 2 down below (down = up/2
 * when y.hi is a power of 2), x rounds to y.hi when y.lo + e < up and y.lo - e >
 * -down, both strict: the two sums are computed in double, and a rounded sum below
 * the double `up` (above -down) means the exact sum is below (above) it too
 * (rounding is monotone and leaves doubles fixed).  Otherwise crtrig_decide_dd
 * (which then finds the ends on both sides of a boundary, or decides a case the
 * test above is too strict for). */
KD_INLINE int decide(dd_t y, double e, crtrig_dtype fmt, double *result)
{
    if (fmt == CRTRIG_FLOAT64) {
        uint64_t bits, hb;
        double up, down;
        memcpy(&bits, &y.hi, sizeof bits);
        hb = (bits & 0x7ff0000000000000u) - ((uint64_t)53 << 52);  /* 2^(exponent - 53) */
        memcpy(&up, &hb, sizeof up);
        down = (bits & 0x000fffffffffffffu) ? up : 0.5 * up;
        if (y.lo + e < up && y.lo - e > -down) {
            *result = y.hi;
            return 1;
        }
    }
    return crtrig_decide_dd(y, e, fmt, result);
}

/* y/r, r an integer in [1, 2^53) and inv = RN(1/r) (top comment: within 1.4 units). */
KD_INLINE dd_t div_by_int(dd_t y, double r, double inv)
{
    double q1 = y.hi * inv;
    kdd_t p = kd_two_prod(q1, r);
    double rem = ((y.hi - p.hi) - p.lo) + y.lo;
    return dd_fast_two_sum(q1, rem * inv);
}

/* Lanczos at k = 2n (0 < k < D): 1 and *result set when decided. */
static int lanczos_value(const crtrig_sinc_args *c, uint64_t k, double *result)
{
    const crtrig_sinpi_table *t = c->t;
    uint64_t r = c->D - k, folded = k < r ? k : r;
    uint64_t a = folded >> c->shift, b = folded & (t->B - 1), i = a - t->a_first;
    double rd = (double)r, inv = 1.0 / rd;
    dd_t KSa = dd_make(c->ks_hi[i], c->ks_lo[i]), KCa = dd_make(c->kc_hi[i], c->kc_lo[i]);
    dd_t Sb = dd_make(t->fine_sin_hi[b], t->fine_sin_lo[b]), Cb = dd_make(t->fine_cos_hi[b], t->fine_cos_lo[b]);
    dd_t y = dd_add(kd_dd_mul(KSa, Cb), kd_dd_mul(KCa, Sb));
    dd_t w = div_by_int(y, rd, inv);
    return decide(w, 0x1p-99 * w.hi, c->fmt, result);
}

/* Bohman's series g^3 P(g^2) for 0 < 16 k <= D (top comment). */
static dd_t bohman_series(dd_t g)
{
    dd_t z = kd_dd_mul(g, g), p;
    double tail = CRTRIG_BOHMAN_C[9][0];
    int j;
    for (j = 8; j >= 6; j--)
        tail = tail * z.hi + CRTRIG_BOHMAN_C[j][0];
    p = dd_make(tail, 0.0);
    for (j = 5; j >= 0; j--)
        p = dd_add(dd_make(CRTRIG_BOHMAN_C[j][0], CRTRIG_BOHMAN_C[j][1]), kd_dd_mul(z, p));
    return kd_dd_mul(kd_dd_mul(z, g), p);
}

/* Bohman at k = 2n (0 < k < D). */
static int bohman_value(const crtrig_sinc_args *c, uint64_t k, double *result)
{
    const uint64_t D = c->D;
    dd_t g = ratio_dd((double)k, (double)D), w, s, cs, P, Q;
    double e;
    if (16 * k <= D) {
        w = bohman_series(g);
        return decide(w, 0x1p-99 * w.hi, c->fmt, result);
    }
    if (2 * k <= D) {
        s = table_sincos(c->t, c->shift, k, &cs);
    } else {
        s = table_sincos(c->t, c->shift, D - k, &cs);
        cs = dd_make(-cs.hi, -cs.lo);
    }
    P = kd_dd_mul(s, dd_make(CRTRIG_SINC_INV_PI[0], CRTRIG_SINC_INV_PI[1]));
    Q = kd_dd_mul(g, cs);
    w = dd_add_accurate(P, dd_make(-Q.hi, -Q.lo));
    e = 0x1p-99 * ((P.hi + g.hi) + w.hi);
    return decide(w, e, c->fmt, result);
}

#endif

/* The elements [lo, hi) of the fill c, each on its own (so any split gives the same
 * bits); returns how many it left undecided. */
size_t CRTRIG_KERNEL(sinc_range)(const crtrig_sinc_args *c, size_t lo, size_t hi)
{
    size_t n, missing = 0;
    for (n = lo; n < hi; n++) {
        uint64_t k = 2 * (uint64_t)n;
        double r;
        int decided = 1;
        if (k == 0) {
            r = 0.0;
        } else if (k == c->D) {
            r = 1.0;
        } else {
            decided = c->kind == CRTRIG_SINC_LANCZOS ? lanczos_value(c, k, &r) : bohman_value(c, k, &r);
        }
        missing += crtrig_record_element(&c->out[n], &c->undecided[n], decided, &r);
    }
    return missing;
}
