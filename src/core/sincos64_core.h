/* The float64 first-pass core: range reductions, sin(j pi/128 + r) in
 * double-double with a proven bound, and the rounding test.  Shared by the
 * sin/cos pass (sincos64_pass.h) and the window pass (window64_pass.h); compiled
 * once per SIMD target (simd_*.c define CRTRIG_KERNEL_FMA first, kernel_dd.h).
 * Plain C99 on doubles and 64-bit integers, without branches, so that the
 * compiler vectorizes the loops that inline it (table reads become gathers).
 *
 * Method.  x (128/pi) = k + y with k an integer and |y| <= 1/2 (plus a hair), so
 * that with r = y pi/128 (radians, |r| <= pi/256) and j = k mod 256:
 *   sin(x) = sin(j pi/128 + r) = S cos(r) + C sin(r),  S = sin(j pi/128), C = cos(j pi/128),
 * and cos(x) = sin(x + pi/2) takes j + 64.  S and C come from a 256-entry
 * double-double table; cos(r) - 1 and sin(r) - r from short Taylor polynomials.
 *
 * Notation of the proofs: e = 2^-53; RN rounding to nearest; "exact" means the
 * floating-point result equals the real result.  Every bound is derived for the
 * code as written, in both forms of kernel_dd.h (one or two roundings per
 * kd_mul_add, FMA or Dekker products, the same exact values).
 *
 * The bound of a result is a sum of terms proportional to |S|, |r|, |r|^3,
 * |S| r^4 (the evaluation) and the error of the reduced argument, so it is
 * relative to the result: |sin(x)| >= |S| - |r| > 0.012 when j != 0 mod 128, and
 * = |sin(r)| ~ |r| when j = 0 mod 128 (x near a multiple of pi), where only the
 * |r| and |r|^3 terms remain.  The absolute part is the reduction's: |k| 2^-119
 * for |x| < 2^17 (the Cody-Waite reduction), 2^-133 otherwise.  A result is thus
 * decided unless it lies within about 2^-66 (relative) of a rounding boundary, or
 * is so close to 0 that the absolute part dominates: below about 2^-46 for
 * |x| <= pi, 2^-30 for |x| near 2^17, 2^-67 through the large reduction (which is
 * below every result: |sin x|, |cos x| >= 2^-66.9 for every double, see sc64_eval).
 * The passes evaluate every lane with sincos64_quick.h's sc64_eval_quick first (about
 * 2^-63.5 relative) and only the lanes whose rounding test fails (about 4 in 10^4)
 * with sc64_eval below.  Measured share of elements left undecided after both: 1 to 8
 * in 10^6 on [-pi, pi], [-1e5, 1e5], [-1e22, 1e22] and random bit patterns (2^20 each,
 * sin and cos), 8 in 10^5 for sin on [-0.01, 0.01].
 */
#ifndef CRTRIG_SINCOS64_CORE_H
#define CRTRIG_SINCOS64_CORE_H

#include <stdint.h>
#include <string.h>
#include "kernel_dd.h"
#include "sincos64_tables.h"

KD_INLINE double sc64_from_bits(uint64_t b) { double d; memcpy(&d, &b, sizeof d); return d; }
KD_INLINE uint64_t sc64_to_bits(double d) { uint64_t b; memcpy(&b, &d, sizeof b); return b; }

/* tools/gen_sincos64_tables.py --constants prints these; tests/test_sincos64_pass.py
 * checks them with mpmath. */
static const double SC64_SHIFTER = 0x1.8p52;                 /* 1.5 2^52 */
static const double SC64_INV_PI_128 = 0x1.45f306dc9c883p+5;  /* RN(128/pi) */
/* pi/128 = Q1 + Q2 + Q3 + tail: Q1, Q2 rounded to 30 significant bits (so k Q1 and
 * k Q2 are exact for |k| < 2^23), Q3 = RN(pi/128 - Q1 - Q2), |tail| = 2^-123.33. */
static const double SC64_Q1 = 0x1.921fb54800000p-6;
static const double SC64_Q2 = -0x1.de973dc800000p-37;
static const double SC64_Q3 = -0x1.9d9cceba3f91fp-68;
/* pi/128 as a double-double: |pi/128 - H - L| = 2^-115.04. */
static const double SC64_PI_128_H = 0x1.921fb54442d18p-6;
static const double SC64_PI_128_L = 0x1.1a62633145c07p-60;
/* Taylor coefficients RN(+-1/n!) of sin (n = 3, 5, 7, 9) and cos (n = 4, 6, 8). */
static const double SC64_S3 = -0x1.5555555555555p-3;
static const double SC64_S5 = 0x1.1111111111111p-7;
static const double SC64_S7 = -0x1.a01a01a01a01ap-13;
static const double SC64_S9 = 0x1.71de3a556c734p-19;
static const double SC64_C4 = 0x1.5555555555555p-5;
static const double SC64_C6 = -0x1.6c16c16c16c17p-10;
static const double SC64_C8 = 0x1.a01a01a01a01ap-16;

/* Bits of |x| thresholds. */
#define SC64_ABS_MASK 0x7fffffffffffffffu
#define SC64_TINY_BITS 0x3e40000000000000u   /* 2^-27 */
#define SC64_SMALL_BITS 0x4100000000000000u  /* 2^17 */
#define SC64_INF_BITS 0x7ff0000000000000u
#define SC64_ONE_BITS 0x3ff0000000000000u

/* ------------------------------------------------------------------------ */
/* Small arguments: Cody-Waite in radians, 2^-27 <= |x| < 2^17.
 *
 *   kd = RN(RN(x RN(128/pi)) + 1.5 2^52) - 1.5 2^52: |x 128/pi| < 2^22.35, so this is
 *        the integer nearest to RN(x INV), |kd| < 2^22.35 + 1, and the low bits of
 *        the shifted value hold kd in two's complement (*kbits);
 *   t1 = x - kd Q1: exact.  kd Q1 has 23 + 30 bits.  If kd = 0, t1 = x.  Otherwise
 *        |x| >= (1/2)(1 - 2e) pi/128 > 2^-7, so x is a multiple of 2^-59; kd Q1 is a
 *        multiple of 2^-35; and |x - kd Q1| <= |x - kd pi/128| + |kd| |pi/128 - Q1|
 *        <= (1/2 + 2^-29) pi/128 + 2^22.35 2^-36 < 2^-6, so x - kd Q1 fits in 53 bits;
 *   (h, l) = two_sum(t1, -kd Q2), kd Q2 exact (23 + 30 bits): exact;
 *   lo = l - kd Q3 (one kd_mul_add);  (r_h, r_l) = two_sum(h, lo): exact.
 * So r_h + r_l = x - kd (Q1 + Q2 + Q3) + err_lo = r* - kd tail + err_lo, with
 * r* = x - kd pi/128 the exact reduced argument and
 *   |err_lo| <= e |lo| + e |kd Q3| <= e (|l| + 2 |kd Q3|)(1 + e),  |l| <= e |h|,
 *   |h| <= (|r_h| + |kd| 2^-67.3)(1 + 3e):
 *   |r_h + r_l - r*| <= |kd| (2^-123.33 + 2^-119.31 (1 + 3e)) + e^2 |r_h| (1 + 4e)
 *                    <= |kd| 2^-119.2 + 2^-105.9 |r_h|.
 * The callers use delta = |kd| 2^-119; sc64_eval's 2^-99 |r_h| term covers the rest.
 * |r_h| <= (1/2 + 2^-28) pi/128.
 */
KD_INLINE kdd_t sc64_reduce_small(double x, uint64_t *kbits, double *kd_out)
{
    double shifted = x * SC64_INV_PI_128 + SC64_SHIFTER;
    double kd = shifted - SC64_SHIFTER;
    double t1 = kd_mul_add(-kd, SC64_Q1, x);
    kdd_t h = kd_two_sum(t1, -(kd * SC64_Q2));
    double lo = kd_mul_add(-kd, SC64_Q3, h.lo);
    *kbits = sc64_to_bits(shifted);
    *kd_out = kd;
    return kd_two_sum(h.hi, lo);
}

/* ------------------------------------------------------------------------ */
/* y (turns of pi/128) to radians: r = (pi/128) (y_h + y_rest), where |y_h| <= 1/2 + 2^-25
 * and |y_rest| <= e |y_h| + a, a <= 2^-44.
 *   p = RN(y_h H), pe = y_h H - p (exact), q = y_h L + (y_rest H + pe) (two kd_mul_add),
 *   (r_h, r_l) = two_sum(p, q) (exact).
 * p + q - (pi/128)(y_h + y_rest) = (y_h + y_rest) eta - y_rest L + r1 + r2 with
 *   |eta| = |H + L - pi/128| = 2^-115.04:  |y_h eta| = 2^-109.7 |y_h pi/128| = 0.077 e^2 |.|;
 *   |y_rest L| <= 2^-59.9 (e |y_h| + a) = 0.35 e^2 |y_h pi/128| + 0.0084 e a;
 *   r1 (inner kd_mul_add) <= e (2 |y_rest H| + |pe|), |pe| <= e |p|:
 *        <= 3 e^2 |y_h pi/128| + 0.05 e a;
 *   r2 (outer) <= e (2 |y_h L| + |inner|), |y_h L| <= 2^-54.55 |y_h pi/128|:
 *        <= 2.7 e^2 |y_h pi/128| + 0.025 e a.
 * Total <= 6.2 e^2 |y_h pi/128| + 0.09 e a <= 2^-103.3 |r_h| + 0.11 e a (|y_h pi/128| <=
 * |r_h| (1 + 2e) + 0.025 |y_rest|). */
KD_INLINE kdd_t sc64_turns_to_radians(double y_h, double y_rest)
{
    kdd_t p = kd_two_prod(y_h, SC64_PI_128_H);
    double q = kd_mul_add(y_h, SC64_PI_128_L, kd_mul_add(y_rest, SC64_PI_128_H, p.lo));
    return kd_two_sum(p.hi, q);
}

/* ------------------------------------------------------------------------ */
/* Large arguments (any 2^-27 <= |x| < 2^1024): exact integer reduction in
 * floating point, with the rows of sincos64_tables.c.
 *
 * Let E be the exponent of x (2^E <= |x| < 2^(E+1)), row i = (E + 27) >> 4 and
 * E0 = -27 + 16 i <= E < E0 + 16.  x' = x 2^(52 - E0) (exponent field replaced:
 * exact) is an integer, 2^52 <= |x'| < 2^68, since x is a multiple of 2^(E-52).
 * With W = 2^(E0 - 52) 128/pi, x 128/pi = x' W, and for F = W mod 256 the row holds
 * C0 = 512 + F0, C1, C2 (F0, C1, C2: consecutive 53-bit pieces of F at the fixed
 * weights 2^7..2^-43, 2^-44..2^-96, 2^-97..2^-149) and C3 = RN(rest), with
 * |F - F0 - C1 - C2 - C3| < 2^-202.  As x' is an integer, x' 512 and x'(W - F) are
 * multiples of 256, so
 *   x 128/pi = x' (C0 + C1 + C2 + C3) + x' tau  (mod 256),  |x' tau| < 2^68 2^-202 = 2^-134.
 * Products (kd_two_prod: exact; |x'| < 2^68; no underflow: nonzero C1, C2 >= 2^-149):
 *   P0 = x' C0 = P0h + P0l:  2^61 <= |P0| < 768 2^68 < 2^77.6, so ulp(P0h) >= 2^9: P0h
 *        is a multiple of 512 and drops out.  P0 is a multiple of 2^-43 (x' integer, C0
 *        a multiple of 2^-43), hence so is P0l, and |P0l| <= ulp(P0h)/2 <= 2^24.
 *   P1 = x' C1 = P1h + P1l:  |P1| < 2^68 2^-43 = 2^25, |P1l| <= 2^-29.
 *   P2 = x' C2 = P2h + P2l:  |P2| < 2^-28, |P2l| <= 2^-82.
 *   P3 = x' C3 + P2l (one kd_mul_add): |x' C3| < 2^-81; error <= 2^-132.4.
 * Then, all exact but the last line:
 *   k0 = nearest integer to P0l (shifter, |P0l| < 2^51); a = P0l - k0: a multiple of
 *        2^-43 with |a| <= 1/2, so exact;
 *   (s_h, s_l) = two_sum(a, P1h);  k1 = nearest integer to s_h;  c = s_h - k1 (|c| <= 1/2,
 *        s_h a double below 2^25 + 1: exact);
 *   (d_h, d_l) = two_sum(P1l, P2h), |d_h| <= 2^-27.4;  (m_h, m_l) = two_sum(s_l, d_h),
 *        |s_l| <= ulp(s_h)/2 <= 2^-28, |m_h| <= 2^-26.7;  (y_h, y_m) = two_sum(c, m_h);
 *   y_rest = y_m + (m_l + (d_l + P3)): |d_l| <= 2^-80.4, |P3| <= 2^-80.4, |m_l| <= 2^-79.7,
 *        and the three roundings err by at most e (|d_l| + |P3|) + e (|m_l| + 2^-79.4)
 *        + e (|y_m| + 2^-78.5) <= 2^-132.4 + 2^-131.5 + e^2 |y_h| + 2^-131.5.
 * So with k = k0 + k1 (its low 8 bits from the shifted values), Y = y_h + y_rest
 * satisfies |Y - (x 128/pi - k - 256 n)| <= 2^-129.5 + e^2 |y_h| for an integer n
 * (truncation 2^-134, P3 2^-132.4, the sums above), |y_h| <= 1/2 + 2^-26.6, and
 * |y_rest| <= e |y_h| + 2^-78.4.  sc64_turns_to_radians then gives r with
 * |r_h + r_l - r*| <= (pi/128)(2^-129.5 + e^2 |y_h|) + 2^-103.3 |r_h| + 0.11 e 2^-78.4
 *   <= 2^-103 |r_h| + 2^-133.8.  The callers use delta = 2^-102 |r_h| + 2^-133.
 */
KD_INLINE kdd_t sc64_reduce_large(double x, uint64_t *kbits)
{
    uint64_t xb = sc64_to_bits(x);
    uint64_t biased = (xb >> 52) & 0x7ffu;
    uint64_t row = (biased - 996u) >> 4;           /* (E + 27) >> 4, E + 27 >= 0 */
    uint64_t e0_biased = 996u + 16u * row;          /* E0 + 1023 */
    /* new exponent field E - E0 + 1075 in [1075, 1090]: subtract (E0 - 52) from the field */
    double xs = sc64_from_bits(xb - ((e0_biased - 1075u) << 52));
    kdd_t p0 = kd_two_prod(xs, CRTRIG_SC64_ROWS[row][0]);  /* array indexing: gathers */
    kdd_t p1 = kd_two_prod(xs, CRTRIG_SC64_ROWS[row][1]);
    kdd_t p2 = kd_two_prod(xs, CRTRIG_SC64_ROWS[row][2]);
    double p3 = kd_mul_add(xs, CRTRIG_SC64_ROWS[row][3], p2.lo);
    double sh0 = p0.lo + SC64_SHIFTER;
    double a = p0.lo - (sh0 - SC64_SHIFTER);
    kdd_t s = kd_two_sum(a, p1.hi);
    double sh1 = s.hi + SC64_SHIFTER;
    double cfrac = s.hi - (sh1 - SC64_SHIFTER);
    kdd_t d = kd_two_sum(p1.lo, p2.hi);
    kdd_t m = kd_two_sum(s.lo, d.hi);
    kdd_t y = kd_two_sum(cfrac, m.hi);
    double y_rest = y.lo + (m.lo + (d.lo + p3));
    *kbits = sc64_to_bits(sh0) + sc64_to_bits(sh1);
    return sc64_turns_to_radians(y.hi, y_rest);
}

/* ------------------------------------------------------------------------ */
/* One lane's reduction in the float64 first passes (sincos64_pass.h, tan_pass.h),
 * for the bits b of any x: unless clean (the chunk has no tiny, inf or NaN lane),
 * |x| is clamped on the bits (integer min and max) into [2^-27, the largest double]
 * for the large reduction or [2^-27, 2^17) for the small one, so that tiny, inf
 * and NaN lanes compute harmlessly (their results are replaced by the callers);
 * then the large or the small reduction (large: a constant in each loop), *kbits,
 * and *delta, the bound on the error of r_h + r_l derived above (small: |kd| 2^-119;
 * large: 2^-102 |r_h| + 2^-133). */
KD_INLINE kdd_t sc64_reduce_lane(int large, int clean, uint64_t b, uint64_t *kbits, double *delta)
{
    const int64_t limit = large ? (int64_t)0x7fefffffffffffff : (int64_t)SC64_SMALL_BITS - 1;
    int64_t a = (int64_t)(b & SC64_ABS_MASK);
    double x;
    kdd_t r;
    if (clean) {
        x = sc64_from_bits(b);
    } else {
        a = a < (int64_t)SC64_TINY_BITS ? (int64_t)SC64_TINY_BITS : a;
        a = a > limit ? limit : a;
        x = sc64_from_bits((uint64_t)a | (b & ~(uint64_t)SC64_ABS_MASK));
    }
    if (large) {
        r = sc64_reduce_large(x, kbits);
        *delta = kd_mul_add(0x1p-102, fabs(r.hi), 0x1p-133);
    } else {
        double kd;
        r = sc64_reduce_small(x, kbits, &kd);
        *delta = 0x1p-119 * fabs(kd);
    }
    return r;
}

/* The output bits and *flag of a lane of those passes, from its rounded value y and
 * sc64_round's differ: a clean lane (the chunk has no tiny, inf or NaN lane) takes y,
 * flag 2 differ; otherwise tiny lanes (|x| < 2^-27) take tiny_bits (flag 0), inf and
 * NaN keep x's bits b with flag 1 (the stages then decide them), ordinary lanes y. */
KD_INLINE uint64_t sc64_finish_lane(int clean, uint64_t b, double y, uint64_t differ, uint64_t tiny_bits,
                                    uint64_t *flag)
{
    uint64_t tiny, special, inside;
    if (clean) {
        *flag = differ << 1;
        return sc64_to_bits(y);
    }
    tiny = (b & SC64_ABS_MASK) < SC64_TINY_BITS;
    special = (b & SC64_ABS_MASK) >= SC64_INF_BITS;
    inside = (tiny | special) - 1u;  /* all ones for ordinary lanes */
    *flag = ((differ << 1) & inside) | special;
    return (sc64_to_bits(y) & inside) | (tiny_bits & (0u - tiny)) | (b & (0u - special));
}

/* The kind of a chunk of n float64 inputs for the passes that use sc64_reduce_lane:
 * *any_large when it holds a finite |x| >= 2^17 (the large reduction for every lane),
 * *any_outside when it holds a tiny (|x| < 2^-27), infinite or NaN lane (not clean).
 * Each threshold's low 32 bits are zero, so comparing the high 32 bits of |x| (hi)
 * decides the same: |x| >= 2^17 iff hi >= SC64_SMALL_HI, and so on.  32-bit compares
 * vectorize on every target (SSE2, the baseline, has no 64-bit integer compare). */
#define SC64_TINY_HI 0x3e400000u
#define SC64_SMALL_HI 0x41000000u
#define SC64_INF_HI 0x7ff00000u
KD_INLINE void sc64_chunk_kind(const char *src, size_t n, uint64_t *any_large, uint64_t *any_outside)
{
    uint32_t large = 0, outside = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        uint64_t b;
        uint32_t hi;
        memcpy(&b, src + 8 * i, sizeof b);
        hi = (uint32_t)(b >> 32) & 0x7fffffffu;
        large |= hi - SC64_SMALL_HI < SC64_INF_HI - SC64_SMALL_HI;
        outside |= hi - SC64_TINY_HI >= SC64_INF_HI - SC64_TINY_HI;
    }
    *any_large = large;
    *any_outside = outside;
}

/* The exact reduction of sinpi/cospi/tanpi's float64 passes (trigpi_pass.h,
 * tan_pass.h) for 0 <= ax < 2^51 (derived at trigpi.c's stage_first64):
 * q = RNint(ax/2), w = 128 (ax - 2q) (exact, |w| <= 128), ks = RN(w + 1.5 2^52),
 * kd = ks - 1.5 2^52 = RNint(w) and *y = w - kd (exact, |y| <= 1/2), so that
 * pi ax = kd pi/128 + y pi/128 (mod 2 pi).  Returns the bits of ks, whose low 8 bits
 * are kd mod 256 (|kd| <= 128: ks has exponent 52, and its low 52 bits hold 2^51 +
 * kd; read from the bits since SSE2 and AVX2 lack a double -> int64 conversion). */
KD_INLINE uint64_t sc64_reduce_turns(double ax, double *y)
{
    double q = (ax * 0.5 + SC64_SHIFTER) - SC64_SHIFTER;
    double w = 128.0 * (ax - 2.0 * q);
    double ks = w + SC64_SHIFTER;
    double kd = ks - SC64_SHIFTER;
    *y = w - kd;
    return sc64_to_bits(ks);
}

/* ------------------------------------------------------------------------ */
/* The evaluation.  Given j (mod 256) and r_h, r_l with |r_h| <= rho = 0.01236
 * (> (1/2 + 2^-25) pi/128) and |r_l| <= e |r_h|, returns R = R_h + R_l (|R_l| <= e |R_h|)
 * and *bound with |R - F| <= *bound, F = sin(j pi/128 + r_h + r_l):
 *   *bound = 2^-52 |rz| + 2^-78 |S_h| + 2^-99 |r_h|,  rz = RN(r_h RN(r_h^2)) ~ r_h^3.
 * The caller adds the error delta of r_h + r_l (F is 1-Lipschitz in r); the 2^-99 |r_h|
 * term has room for 2^-105 |r_h| of it (the small reduction's relative part).
 *
 * Table (one index): S_h + S_l = sin(j pi/128)(1 + t), C_h + C_l = cos(j pi/128)(1 + t'),
 * |t|, |t'| <= 2^-107.3 (exact 0, +-1 at j = 0 mod 64), |S_l| <= e |S_h|, |C_l| <= e |C_h|.
 *
 * Code, with r = r_h + r_l, G = cos(r) - 1, Sg = sin(r) - r,
 * F = S + S G + C r + C Sg:
 *   z = RN(r_h^2), zl = r_h^2 - z (exact, kd_two_prod);
 *   ps = ((S9 z + S7) z + S5) z + S3 (kd_mul_add), rz = RN(r_h z),
 *   sg = rz ps + RN(r_l (-z/2))                          ~ sin(r) - r;
 *   g_h = -z/2 (exact), pc = (C8 z + C6) z + C4, g_t = r_h r_l + zl/2,
 *   g_l = RN(z z) pc - g_t                               ~ cos(r) - 1 - g_h;
 *   b = C_h r_h, d = S_h g_h (kd_two_prod, exact);
 *   (t_h, t_l) = fast_two_sum(S_h, b_h); (v_h, v_l) = fast_two_sum(t_h, d_h): exact.
 *     If S_h = 0, then t = (b_h, 0) and d = 0.  Otherwise |S_h| >= sin(pi/128)(1 - e)
 *     = 0.02454 > |b_h| (<= 0.01237), |t_h| >= 0.0121 > |d_h| (<= |S_h| z/2 (1 + e) <= 7.7e-5);
 *   low = (((((t_l + v_l) + (b_l + d_l)) + (C_h r_l + C_l r_h)) + S_l) + S_l g_h + S_h g_l) + C_h sg
 *     (the last three by kd_mul_add);
 *   (R_h, R_l) = fast_two_sum(v_h, low): exact, since |low| <= 3.3e-7 < |v_h| when
 *     S_h != 0, and when S_h = 0 (C_h = +-1, C_l = 0, so b = (+-r_h, 0) and
 *     v_h = +-r_h) |low| <= |r_h|^3/6 (1 + 4e) + e |r_h| < |r_h| (or all are 0).
 * Exactly, v_h + low* = (S_h + S_l)(1 + g) - S_l g_l + (C_h + C_l)(r + sg) - C_l (r_l + sg)
 * with g = g_h + g_l (low* = low without roundings), so
 *   R - F = (Sh+Sl - S)(1 + G) + (Sh+Sl)(g - G) - S_l g_l + (Ch+Cl - C) sin(r)
 *           + (Ch+Cl)(sg - Sg) - C_l (r_l + sg) + (low - low*).
 * Bounds (A = |S_h| + |r_h|):
 *   table:  2^-107.3 |S_h| + 2^-107.3 (1 + e) |r_h| <= 2^-107.2 A.
 *   g - G:  G = -w/2 + w^2/24 - w^3/720 + w^4/8! - T with w = r^2 = z + zl + 2 r_h r_l + r_l^2,
 *     |T| <= w^5/10! <= 0.0088 e z^2; w = z (1 + th), |th| <= 3.0001e, which moves
 *     w^2 Q(w) (Q(w) = 1/24 - w/720 + w^2/8!) by <= (z/12) 3.0001e z = 0.2501 e z^2;
 *     the code's g differs from -w/2 + z^2 Q(z) by r_l^2/2 <= e^2 z/2 and by its
 *     roundings: pc = Q(z)(1 + 2.01e) (coefficients and Horner, with z <= 1.53e-4),
 *     RN(z z) one e, g_t (|g_t| <= 1.5e z) <= 2.5e^2 z, the last kd_mul_add
 *     <= e (z^2/24 + 1.5e z) + e z^2/24: in total
 *     |g - G| <= (0.0088 + 0.2501 + 5.01/24) e z^2 + 4.5 e^2 z = 0.4677 e z^2 + 4.5 e^2 z,
 *     times |S_h + S_l| <= |S_h|(1 + e).
 *   S_l g_l:  <= e |S_h| (z^2/24 (1 + 4e) + 1.5e z) = 0.0417 e |S_h| z^2 + 1.5 e^2 |S_h| z.
 *   sg - Sg: Sg = r^3 P(r^2) - T' with P(w) = -1/6 + w/120 - w^2/5040 + w^3/9!,
 *     |T'| <= |r|^11/11! <= 1.2e-7 e |r_h|^3.  With r = r_h (1 + l), |l| <= e:
 *     r^3 P(r^2) = r_h^3 P(r_h^2) - r_l r_h^2/2 + (<= 0.00002 e |r_h|^3 + e^2 |r_h|^3).
 *     ps = P(z)(1 + 2.0002e) (S3's rounding, the last Horner step; inner steps are
 *     scaled by z <= 1.53e-4), P(z) = P(r_h^2)(1 + 1e-5 e); rz = r_h^3 (1 + 2.0001e);
 *     the product and the final sum round twice (e (|rz ps + m| + |rz ps|)) with
 *     |rz ps| <= |r_h|^3/6 (1 + 5e); m = RN(r_l (-z/2)) is within e^2 |r_h|^3 of
 *     -r_l r_h^2/2.  So |sg - Sg| <= (4.0003/6 + 2/6 + 0.00003) e |r_h|^3 = 1.0001 e |r_h|^3,
 *     times |C_h + C_l| <= 1 + e.
 *   C_l (r_l + sg): <= e (e |r_h| + |r_h|^3/6 (1 + 5e)).
 *   low - low*: every step rounds at most e (|partial sum| + |product|).  The first
 *     five partial sums are below 2.01, 1.01, 3.02, 5.03, 6.03 times e A (|t_l| <= e |t_h|,
 *     |t_h| <= A (1 + 3e), |v_l| <= e |v_h|, |b_l| <= e |b_h|, |d_l| <= e |d_h|,
 *     |C_h r_l| + |C_l r_h| <= 2e |r_h|, |S_l| <= e |S_h|), the S_l g_h step adds
 *     <= 7.7e-5 e |S_h|: these roundings sum to <= 27 e^2 A.  The S_h g_l step:
 *     <= e (2 |S_h| z^2/24 (1 + 4e) + 3e |S_h| z + 6.1 e A); the C_h sg step:
 *     <= e (2 |sg| + |S_h| z^2/24 (1 + 4e) + 7 e A) with |sg| <= |r_h|^3/6 (1 + 5e).
 *     Total <= 0.3334 e |r_h|^3 + 0.1251 e |S_h| z^2 + 41 e^2 A.
 * Sum:  |r_h|^3: 1.0002 + 0.1667 + 0.3334 = 1.5003 e;  |S_h| z^2: 0.4678 + 0.0417 + 0.1251
 *   = 0.6346 e, and z^2 <= rho^4 = 2^-25.36 makes it <= 2^-79.0 |S_h|;  A: 2^-107.2 +
 *   (41 + 4.5 z + 1.5 z + 1) e^2 <= 42.1 e^2 = 2^-100.6.
 * The bound's terms cover these with margins >= 1.33 (2^-52 |rz| >= 2e |r_h|^3 (1 - 2e)
 * against 1.5003e |r_h|^3), 1.9 (2^-78 against 2^-79.0 + 2^-100.6 for |S_h|) and
 * 2.9 (2^-99 against 2^-100.6 + 2^-105.9 for |r_h|), which also cover the roundings of
 * computing it (< 5e relative) and the rounding test's needs (sc64_round:
 * e^2 |R_h| <= e^2 A (1 + e) and a factor 1/(1 - e)).
 * No underflow: the callers send r_h = 0 or |r_h| >= 2^-67.5, so every product
 * above is 0 or above 2^-330.  For sin/cos: when k = 0, r = x and |x| >= 2^-27;
 * otherwise |x 128/pi - k| >= 2^-61.54 for every double x (the minimum over each
 * binade of ||M a||, a = 2^(E-52) 128/pi mod 1, M < 2^53, is at least ||q a|| for the
 * last continued-fraction denominator q < 2^53 of a: tools/gen_sincos64_tables.py
 * --min-reduced computes it; attained at x = 0x1.6ac5b262ca1ffp+843, 2^-6 times the
 * hardest case modulo pi/2), so |r*| >= 2^-66.9 and |r_h| >= 2^-66.9 - 2^-94 (the
 * reductions' delta).
 */
KD_INLINE kdd_t sc64_eval(uint64_t j, double r_h, double r_l, double *bound)
{
    const uint64_t js = j & 255u;  /* indexing the array itself: gathers */
    double s_h = CRTRIG_SC64_SINCOS[js][0], s_l = CRTRIG_SC64_SINCOS[js][1];
    double c_h = CRTRIG_SC64_SINCOS[js][2], c_l = CRTRIG_SC64_SINCOS[js][3];
    kdd_t zz = kd_two_prod(r_h, r_h);
    double z = zz.hi;
    double ps = kd_mul_add(kd_mul_add(kd_mul_add(SC64_S9, z, SC64_S7), z, SC64_S5), z, SC64_S3);
    double rz = r_h * z;
    double g_h = -0.5 * z;
    double sg = kd_mul_add(rz, ps, r_l * g_h);
    double pc = kd_mul_add(kd_mul_add(SC64_C8, z, SC64_C6), z, SC64_C4);
    double g_t = kd_mul_add(r_h, r_l, 0.5 * zz.lo);
    double g_l = kd_mul_add(z * z, pc, -g_t);
    kdd_t b = kd_two_prod(c_h, r_h);
    kdd_t d = kd_two_prod(s_h, g_h);
    kdd_t t = kd_fast_two_sum(s_h, b.hi);
    kdd_t v = kd_fast_two_sum(t.hi, d.hi);
    double low = ((t.lo + v.lo) + (b.lo + d.lo)) + kd_mul_add(c_h, r_l, c_l * r_h);
    low = low + s_l;
    low = kd_mul_add(s_l, g_h, low);
    low = kd_mul_add(s_h, g_l, low);
    low = kd_mul_add(c_h, sg, low);
    *bound = kd_mul_add(0x1p-52, fabs(rz), kd_mul_add(0x1p-78, fabs(s_h), 0x1p-99 * fabs(r_h)));
    return kd_fast_two_sum(v.hi, low);
}

/* The rounding test.  |R - F| <= bound (R = R_h + R_l, |R_l| <= e |R_h|, the bound
 * including e^2 |R_h| and a factor 1/(1 - e)).  RN(R_l + bound) >= R_l + bound (1 - e)
 * - e^2 |R_h| >= R_l + (the true bound), so hi = RN(R_h + RN(R_l + bound)) >= RN(F) by
 * monotonicity, and likewise lo <= RN(F): lo == hi means lo = RN(F).  Returns lo;
 * *differ = 1 when lo != hi. */
KD_INLINE double sc64_round(kdd_t R, double bound, uint64_t *differ)
{
    double lo = R.hi + (R.lo - bound);
    double hi = R.hi + (R.lo + bound);
    *differ = kd_u64_nonzero(sc64_to_bits(lo) ^ sc64_to_bits(hi));
    return lo;
}

#endif
