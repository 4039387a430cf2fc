/* The core of the float32, bfloat16 and float16 sin/cos first passes
 * (sincos_pass.h): range reductions, the polynomial, the rounding test on the
 * bits, and their error bounds.  Compiled once per SIMD target (simd_*.c define
 * CRTRIG_KERNEL_FMA first, kernel_dd.h); plain C99 without branches, so that the
 * loops that inline it vectorize.
 *
 * Method.  An input x of these formats is a float32 value.  With off = 0 for sin
 * and 1/2 for cos (cos x = sin(x + pi/2)), write
 *     x/pi + off = nd + t* (mod 2),   nd an integer, |t*| <= 1/2 (plus a hair),
 * so that f(x) = sin(pi (nd + t*)) = (-1)^nd sin(pi t*).  One polynomial serves
 * both functions: sin(pi t) = t P(t^2), P(z) = sin(pi sqrt z)/sqrt z, is
 * approximated by the minimax polynomial Q of degree 6 (SC32_POLY), and
 *     y = (-1)^nd RN(t q),  q = Q evaluated at z = RN(t^2) (sc32_eval),
 * with t the computed reduced argument.  Then |y - f(x)| <= 621.1 ulp(y), a purely
 * relative bound (below), so the rounding test needs no per-element bound: it
 * looks at the bits of y (sc32_undecided).
 *
 * Notation: u = 2^-53, RN rounding to nearest; "exact" means the floating-point
 * result equals the real one.  Every bound holds for both forms of kernel_dd.h's
 * kd_mul_add (one rounding with FMA, two without) and for the code as written.
 * Inputs are "ordinary": 2^-13 <= |x| <= the largest float32 (the passes handle
 * smaller |x|, zeros, inf and NaN by themselves).
 *
 * Facts about float32 arguments (tools/gen_sincos32.py computes them by continued
 * fractions, tests/test_sincos.py re-checks them), for h in (1/2)Z:
 *   (R1) 2^-13 <= |x| < 2^24:  |x/pi - h| >= 2^-50.3 |x|;
 *   (R3) every ordinary x:     |x/pi - h| >= 2^-30.86 (for |x| >= 1 by the continued
 *        fractions; for |x| < 1, x/pi is within 1/pi of 0 and the nearest h is 0 or
 *        1/2: the distance is >= min(2^-13/pi, 1/2 - 1/pi) > 2^-15).
 * t* is x/pi + off minus an integer, so |t*| >= the distance of x/pi to (1/2)Z.
 *
 * ---- Small reduction, FMA form (|x| < 2^24) ----
 *   C1 = RN(1/pi), C2 = RN(1/pi - C1): |C2| <= 2^-55.49, |1/pi - C1 - C2| <= 2^-109.52.
 *   sin: sh = RN(x C1 + 1.5 2^52);  cos: sh = RN(RN(x C1 + 1/2) + 1.5 2^52);
 *   nd = sh - 1.5 2^52 (exact): the integer nearest to x C1 (sin) or to RN(x C1 + 1/2)
 *     (|x C1| < 2^23, so the shifter rounds to an integer), with
 *     |x/pi + off - nd| <= 1/2 + |x| 2^-55 (C1) + 2^-30 (the cos rounding, ulp/2 at
 *     2^23) <= 1/2 + 2^-29.4; nd mod 2 is the low bit of sh's bits;
 *   -h = off - nd, computed exactly as 1.5 2^52 - sh (sin) or as the one fma
 *     A B - sh with A B = 1.5 2^52 + 1/2 exactly (cos; a half-integer below 2^23 is
 *     a double);  t1 = RN(x C1 - h);  t = RN(x C2 + t1)  (two fma):
 *   t - t* = (t - x C2 - t1) + (t1 - x C1 + h) + x (C1 + C2 - 1/pi), so
 *   |t - t*| <= u |t| + u |t1| + |x| 2^-109.52, |t1| <= |t| (1 + u) + |x| 2^-55.49 (1 + u):
 *     |t - t*| <= 2.0001 u |t| + |x| 2^-107.9 <= 2.0002 u |t*| + 2^-57.6 |t*| (R1)
 *             <= 2.05 u |t*|.
 * ---- Small reduction, FMA-free form (|x| < 2^24) ----
 *   P1, P2: 1/pi in pieces of 29 significant bits (x P1 and x P2 exact for 24-bit x),
 *   P3 = RN(1/pi - P1 - P2): |1/pi - P1| <= 2^-32.23, |P2| <= 2^-32.23,
 *   |x P3| <= |x| 2^-62.41, |1/pi - P1 - P2 - P3| <= 2^-116.1.
 *   nd from sh = RN(RN(x C1) + 1.5 2^52) (sin) or RN(RN(RN(x C1) + 1/2) + 1.5 2^52) (cos):
 *     |x/pi + off - nd| <= 1/2 + 2^-30 + 2^-30 + 2^-31 <= 1/2 + 2^-28.7;
 *   d1 = RN(x P1 - h):  x P1 is a multiple of 2^(E-53) (2^E <= |x|), h of 1/2, and
 *     |x P1 - h| <= 1/2 + 2^-28.7 + 2^24 2^-32.23 < 1.  For |x| >= 1 (E >= 0), a
 *     multiple of 2^-53 below 1 is a double: exact.  For |x| < 1 and sin, nd = 0
 *     (|x C1| < 0.32): d1 = x P1, exact.  For |x| < 1 and cos, nd is 0 or 1, h = -+1/2,
 *     |d1| >= 1/2 - 0.32 and |t| >= 0.17: the error is u |d1| <= 1.0001 u |t|;
 *   d2 = RN(d1 + x P2);  p3 = RN(x P3);  t = RN(d2 + p3):
 *   |t - t*| <= u |t| + u |d2| + (u |d1| in the one case) + |x| (2^-115.41 + 2^-116.1),
 *     |d2| <= |t| (1 + u) + |x| 2^-62.41 (1 + u), so
 *     |t - t*| <= 3.0002 u |t| + |x| 2^-114 <= 3.0003 u |t*| + 2^-63.7 |t*| <= 3.01 u |t*|.
 * ---- Table reduction (any ordinary x; the passes use it for chunks with |x| >= 2^24) ----
 *   x = m 2^(E-23), 2^E <= |x| < 2^(E+1), m = +-M an integer, 2^23 <= M < 2^24 (a
 *   float32 has 24 significant bits); m is the double x with its exponent field set
 *   to 23 (exact).  Row E + 13 of CRTRIG_SC32_INV_PI_ROWS (tools/gen_sincos32.py)
 *   holds, for G = 2^(E-23)/pi mod 2 (in [0, 2)):
 *     F0 = G rounded down to a multiple of 2^-27 (at most 28 significant bits),
 *     F1 = G - F0 rounded down to a multiple of 2^-56 (0 <= F1 < 2^-27, <= 29 bits),
 *     F2 = RN(G - F0 - F1) (0 <= F2 < 2^-56), so G = F0 + F1 + F2 + tau, |tau| <= 2^-109.
 *   As m is an integer, x/pi = m 2^(E-23)/pi = m (F0 + F1 + F2 + tau) (mod 2).
 *   p0 = m F0: exact (24 + 28 bits), a multiple of 2^-27, |p0| < 2^25;
 *   p1 = m F1: exact (24 + 29 bits), |p1| < 2^-3;
 *   p2 = RN(m F2): |m F2| < 2^-32, error <= 2^-86;  |m tau| < 2^-85;
 *   v = p0 + off: exact (a multiple of 2^-27 below 2^25 + 1: 53 bits);
 *   sh = RN(RN(v + p1) + 1.5 2^52), nd = sh - 1.5 2^52: the integer nearest to
 *     RN(v + p1) (|v + p1| < 2^26: rounding error <= 2^-27), so with
 *     t* = v + p1 + m F2 + m tau - nd = x/pi + off - nd (mod 2):
 *     |t*| <= 1/2 + 2^-27 + 2^-32 + 2^-85 <= 1/2 + 2^-26.9;
 *   tm = v - nd: exact (a multiple of 2^-27 below 1);
 *   t1 = RN(tm + p1);  t = RN(t1 + p2):
 *   |t - t*| <= u |t| + u |t1| + 2^-86 + 2^-85, |t1| <= |t| (1 + u) + 2^-32 (1 + u):
 *     |t - t*| <= 2.0001 u |t| + 2^-83.68 <= 2.0002 u |t*| + 2^-52.82 |t*| (R3)
 *             <= 3.15 u |t*|.
 * In all reductions |t| <= 1/2 + 2^-26.9 (1 + 4u), so z = RN(t^2) <= 1/4 + 2^-24 = Z_MAX,
 * and the relative error of t is kappa u |t*| with kappa <= 3.15.  A relative error d
 * of t moves sin(pi t) by at most d relative (|pi t cot(pi t)| <= 1 for |t| < 1).
 *
 * ---- The polynomial (tools/gen_sincos32.py) ----
 *   (A) |Q(z) - P(z)| <= 2^-43.8 P(z) on [0, Z_MAX] (proven by interval arithmetic on
 *       128 or more subintervals: 2^-43.83 with 128, 2^-43.86 with 512);
 *   (S) sum_k |c_k| z^k <= 2.3013 P(z) and sum_k k |c_k| z^k <= 0.8201 P(z) there.
 * Evaluation (sc32_eval), each "x y + w" one kd_mul_add (one rounding with FMA, two
 * without: the product's and the sum's), in one of two forms.  Every rounding
 * multiplies the terms it touches by some (1 + d), |d| <= u, so q = sum_k c_k z^k
 * prod_i (1 + d_i) (Higham, Accuracy and Stability, 3.1 and 5.1), where the term
 * c_k z^k meets (FMA / FMA-free)
 *   Estrin's form: z2 = RN(z z), z4 = RN(z2 z2), a = c0 + c1 z, b = c2 + c3 z,
 *     c = c4 + c5 z, q = (a + b z2) + (c + c6 z2) z4 (z2 counts 1, z4 counts 3: z2
 *     twice and its own): c0: 3 / 3;  c1 z: 3 / 4;  c2: 4 / 5;  c3 z: 4 / 6;  c4: 6 / 7;
 *     c5 z, c6 z^6: 6 / 8 roundings;
 *   Horner's form: q_6 = c6, q_k = q_(k+1) z + c_k for k = 5 .. 0, q = q_0: c_k z^k
 *     (k >= 1) the roundings of steps k - 1 .. 0 (k / 2k), c0 step 0's sum (1 / 1);
 * at most 12 either way, so
 *   |q - Q(z)| <= gamma_12 sum |c_k| z^k <= 12.0001 u 2.3014 P                = 27.62 u P;
 *   z = t^2 (1 + d), |d| <= u: |Q(z) - Q(t^2)| <= 1.0001 u sum k |c_k| t^(2k)  <= 0.8202 u P;
 *   y = RN(t q):                                                                 1 u;
 *   (A):                                                                2^-43.8 = 588.2 u;
 *   the reduction (kappa):                                                    3.15 u;
 * |y - f(x)| <= (620.8 u + second-order terms below 2^-60) |f(x)| <= 620.9 u |f(x)|.
 *
 * ---- The rounding test (sc32_undecided) ----
 * ulp(y) > 2^-53 |y| and |f(x)| <= |y| / (1 - 620.9 u), so
 *   |y - f(x)| < 621.1 ulp(y) <= SC32_BOUND_ULPS ulp(y), SC32_BOUND_ULPS = 1024.
 * A format with p-bit significands (float32 24, float16 11, bfloat16 8) drops
 * D = 53 - p bits of y; in y's binade [2^e, 2^(e+1)) its rounding boundaries
 * (midpoints) are the doubles whose low D bits are 2^(D-1), the neighbouring
 * binades' nearest midpoints lie at least 2^(D-2) ulp(y) away, and f(x), being
 * transcendental, is no midpoint.  The test passes when the low D bits m of y
 * satisfy |m - 2^(D-1)| >= 2048 (> 1024, and 2048 < 2^(D-2)): then no midpoint lies
 * within 1024 ulp(y) of y, f(x) and y round alike, and RN(y) (the float conversion,
 * or the rounding on the bits) is the correctly rounded f(x).  This holds where the
 * format's results are normal: float32 results of ordinary x are (|f(x)| >= 2|t*|
 * >= 2^-29.86 by (R3)); float16 results below 2^-14 are left to the per-element
 * stages.  Expected share of undecided lanes: 4096 / 2^D, 2^-17 for float32.
 */
#ifndef CRTRIG_SINCOS32_CORE_H
#define CRTRIG_SINCOS32_CORE_H

#include <stdint.h>
#include <string.h>
#include "kernel_dd.h"
#include "sincos32_tables.h"

KD_INLINE double sc32_from_bits(uint64_t b) { double d; memcpy(&d, &b, sizeof d); return d; }
KD_INLINE uint64_t sc32_to_bits(double d) { uint64_t b; memcpy(&b, &d, sizeof b); return b; }

/* tools/gen_sincos32.py prints and tests/test_sincos.py checks these. */
static const double SC32_SHIFTER = 0x1.8p52;
/* A B = 1.5 2^52 + 1/2 = (3 2^52 + 1) / 2 exactly, 3 2^52 + 1 = 7 * 1930114126015927 */
static const double SC32_SHIFTER_HALF_A = 0x1.cp2;               /* 7 */
static const double SC32_SHIFTER_HALF_B = 0x1.b6db6db6db6dcp49;  /* 1930114126015927 / 2 */
static const double SC32_INV_PI = 0x1.45f306dc9c883p-2;       /* C1 = RN(1/pi) */
static const double SC32_INV_PI_LO = -0x1.6b01ec5417056p-56;  /* C2 = RN(1/pi - C1) */
static const double SC32_INV_PI_P1 = 0x1.45f306ep-2;          /* 29 bits */
static const double SC32_INV_PI_P2 = -0x1.b1bbeadp-33;        /* 29 bits */
static const double SC32_INV_PI_P3 = -0x1.80f62a0b82b2dp-63;  /* RN(1/pi - P1 - P2) */
/* Q(z) = sum SC32_POLY[k] z^k ~ sin(pi sqrt z)/sqrt z on [0, 1/4 + 2^-24] (minimax). */
static const double SC32_POLY[7] = {
    0x1.921fb54442b5fp+1, -0x1.4abbce6247ec4p+2, 0x1.466bc66dc7d81p+1,
    -0x1.32d2c96c60e24p-1, 0x1.5076fe9f54ed1p-4, -0x1.e297cfd0770f5p-8,
    0x1.d4ec692a3c000p-12,
};
#define SC32_BOUND_ULPS 1024u

/* CRTRIG_KERNEL_WIDE (set by simd_avx512.c): the target's vectors hold 8 doubles, and
 * its loops are bound by how many operations they issue more than by their chains of
 * dependent ones.  Estrin's form has the shorter chain, Horner's two operations fewer
 * (z^2, z^4); each target takes the one that is faster there (_core.first_pass_with_target,
 * 65,536 floats in [-pi, pi], one thread, the 2-core AVX-512 machine, ns per element,
 * Estrin / Horner: avx512 0.73 / 0.66, avx2 0.97 / 0.97, baseline 2.35 / 2.62).  Both
 * forms are covered by the bound below; the decided outputs are the same bits. */
#ifndef CRTRIG_KERNEL_WIDE
#define CRTRIG_KERNEL_WIDE 0
#endif

/* sin(pi t) (-1)^nd for |t| <= 1/2 + 2^-26.9; sign = (nd mod 2) << 63. */
KD_INLINE double sc32_eval(double t, uint64_t sign)
{
    double z = t * t, q;
    if (CRTRIG_KERNEL_WIDE) {  /* Horner */
        q = kd_mul_add(SC32_POLY[6], z, SC32_POLY[5]);
        q = kd_mul_add(q, z, SC32_POLY[4]);
        q = kd_mul_add(q, z, SC32_POLY[3]);
        q = kd_mul_add(q, z, SC32_POLY[2]);
        q = kd_mul_add(q, z, SC32_POLY[1]);
        q = kd_mul_add(q, z, SC32_POLY[0]);
    } else {  /* Estrin */
        double z2 = z * z, z4 = z2 * z2;
        double a = kd_mul_add(SC32_POLY[1], z, SC32_POLY[0]);
        double b = kd_mul_add(SC32_POLY[3], z, SC32_POLY[2]);
        double c = kd_mul_add(SC32_POLY[5], z, SC32_POLY[4]);
        q = kd_mul_add(kd_mul_add(SC32_POLY[6], z2, c), z4, kd_mul_add(b, z2, a));
    }
    return sc32_from_bits(sc32_to_bits(t * q) ^ sign);
}

/* f(x) for an ordinary x with |x| < 2^24 (small reduction); is_cos a constant. */
KD_INLINE double sc32_value_small(double x, int is_cos)
{
    double sh, t;
#if CRTRIG_KERNEL_FMA
    double minus_h;
    if (is_cos) {
        /* -h = 1/2 - nd = (1.5 2^52 + 1/2) - sh in one fma: the product is that sum
         * exactly, and the result, a half-integer of magnitude below 2^23, is a double,
         * so the fma is exact and minus_h is the -h of the analysis above. */
        sh = fma(x, SC32_INV_PI, 0.5) + SC32_SHIFTER;
        minus_h = fma(SC32_SHIFTER_HALF_A, SC32_SHIFTER_HALF_B, -sh);
    } else {
        sh = fma(x, SC32_INV_PI, SC32_SHIFTER);
        minus_h = SC32_SHIFTER - sh;
    }
    t = fma(x, SC32_INV_PI_LO, fma(x, SC32_INV_PI, minus_h));
#else
    {
        double a = x * SC32_INV_PI, nd, d1, d2;
        if (is_cos)
            a = a + 0.5;
        sh = a + SC32_SHIFTER;
        nd = sh - SC32_SHIFTER;
        d1 = x * SC32_INV_PI_P1 - (is_cos ? nd - 0.5 : nd);
        d2 = d1 + x * SC32_INV_PI_P2;
        t = d2 + x * SC32_INV_PI_P3;
    }
#endif
    return sc32_eval(t, sc32_to_bits(sh) << 63);
}

/* f(x) for any ordinary x (table reduction); is_cos a constant. */
KD_INLINE double sc32_value_table(double x, int is_cos)
{
    uint64_t xb = sc32_to_bits(x);
    uint64_t row = ((xb >> 52) & 0x7ffu) - (uint64_t)(1023 + CRTRIG_SC32_ROW_EMIN);
    double m = sc32_from_bits((xb & 0x800fffffffffffffu) | ((uint64_t)(1023 + 23) << 52));
    double p0 = m * CRTRIG_SC32_INV_PI_ROWS[row][0];  /* array indexing: gathers */
    double p1 = m * CRTRIG_SC32_INV_PI_ROWS[row][1];
    double p2 = m * CRTRIG_SC32_INV_PI_ROWS[row][2];
    double v = p0 + (is_cos ? 0.5 : 0.0);
    double sh = (v + p1) + SC32_SHIFTER;
    double nd = sh - SC32_SHIFTER;
    double t = ((v - nd) + p1) + p2;
    return sc32_eval(t, sc32_to_bits(sh) << 63);
}

/* 1 when the rounding test fails for a format that drops the low D = `dropped` bits
 * of y (29 float32, 42 float16, 45 bfloat16): when the low D bits m of y lie in
 * [2^(D-1) - W/2, 2^(D-1) + W/2 - 1], W = 2^w, w = 12 (13 for D = 45, so that the
 * field tested below fits 32 bits).  Computed as: bits(y) + 2^(D-1) + W/2, whose bits
 * w .. D-1 are all zero exactly then (m + 2^(D-1) + W/2 < 2^(D+1); the sum is
 * taken mod 2^D by the mask).  A decided lane has |m - 2^(D-1)| >= W/2 >= 2048 >
 * SC32_BOUND_ULPS.  32-bit compare (SSE2 has no 64-bit one). */
KD_INLINE uint32_t sc32_undecided(double y, unsigned dropped)
{
    const unsigned w = dropped > 44u ? 13u : 12u;
    uint64_t v = sc32_to_bits(y) + ((uint64_t)1 << (dropped - 1u)) + ((uint64_t)1 << (w - 1u));
    uint32_t field = (uint32_t)(v >> w) & (uint32_t)(((uint64_t)1 << (dropped - w)) - 1u);
    return field == 0;
}

/* The float32 test in 64-bit lanes, without a comparison (SSE2 has no 64-bit
 * compare): bits w .. D-1 of v (D = 29, w = 12) as in sc32_undecided, minus 1, so that
 * bit 63 of the result is set exactly when they are all zero (the field is < 2^29:
 * field - 1 wraps only from 0).  Loops OR these and look at bit 63 once, at the end. */
KD_INLINE uint64_t sc32_undecided_top_float32(double y)
{
    uint64_t v = sc32_to_bits(y) + ((uint64_t)1 << 28) + ((uint64_t)1 << 11);
    return (v & ((((uint64_t)1 << 17) - 1u) << 12)) - 1u;
}

#endif
