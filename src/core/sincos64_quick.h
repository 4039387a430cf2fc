/* The quick evaluation of the float64 first passes: sin(j pi/128 + r) to about
 * 2^-63.5 relative, with one exact product where sc64_eval (sincos64_core.h) has
 * three and a shorter sum of low parts.  The passes round every lane with it and
 * re-run the few lanes whose rounding test fails with sc64_eval (3 to 5 in 10^4
 * for sin on [-pi, pi], [-1e5, 1e5], [-1e22, 1e22]; tan's quotient of two: about 7 in
 * 10^4), whose bound is about 2^-78 relative.  Compiled once per SIMD target
 * as part of the kernels that include it (kernel_dd.h's two forms of every product).
 *
 * Given j (mod 256) and r_h, r_l with |r_h| <= rho = 0.01236 (> (1/2 + 2^-25) pi/128)
 * and |r_l| <= e |r_h|, returns R = R_h + R_l (|R_l| <= e |R_h|) and *bound with
 * |R - F| <= *bound, F = sin(j pi/128 + r_h + r_l):
 *   *bound = (4.25 e z + 2^-99) |S_h| + 1.625 e |rz| + 2^-99 |r_h|,
 *   z = RN(r_h^2) <= 1.528e-4, rz = RN(r_h z) ~ r_h^3.
 * The caller adds the error delta of r_h + r_l (F is 1-Lipschitz in r); the 2^-99 |r_h|
 * term has room for 2^-105 |r_h| of it (the small reduction's relative part), as in
 * sc64_eval.  Notation and the table's accuracy as there (e = 2^-53, RN rounding,
 * S_h + S_l = sin(j pi/128)(1 + t), C_h + C_l = cos(j pi/128)(1 + t'),
 * |t|, |t'| <= 2^-107.3, |S_l| <= e |S_h|, |C_l| <= e |C_h|).
 *
 * Code, with r = r_h + r_l, G = cos(r) - 1, Sg = sin(r) - r, F = S + S G + C r + C Sg:
 *   z, ps, rz, g_h = -z/2 and sg = rz ps + RN(r_l g_h) exactly as in sc64_eval;
 *   pc = (C8 z + C6) z + C4 as there, g = RN(z z) pc + g_h (kd_mul_add)  ~ cos(r) - 1
 *     (no zl = r_h^2 - z, no r_h r_l: their part of G is left to the bound);
 *   b = C_h r_h (kd_two_prod, exact); (t_h, t_l) = fast_two_sum(S_h, b_h): exact, since
 *     S_h = 0 or |S_h| >= 0.02454 > |b_h| (<= 0.01237);
 *   low = ((((t_l + b_l) + S_l) + (C_h r_l + C_l r_h)) + S_h g) + C_h sg
 *     (C_h r_l + C_l r_h and the last two by kd_mul_add);
 *   (R_h, R_l) = fast_two_sum(t_h, low): exact, since when S_h != 0,
 *     |t_h| >= 0.02454 - 0.01237 > 0.0121 > |low| (<= 0.50002 z |S_h| + |r_h|^3/6 (1 + 5e)
 *     + 5e < 7.8e-5), and when S_h = 0 (C_h = +-1, C_l = 0, t = (+-r_h, 0)),
 *     |low| <= e |r_h| + |r_h|^3/6 (1 + 5e) < |r_h| = |t_h|.
 * Exactly, t_h + low* = (S_h + S_l)(1 + g) - S_l g + (C_h + C_l)(r + sg) - C_l (r_l + sg)
 * (low* = low without its roundings), so
 *   R - F = (Sh+Sl - S)(1 + G) + (Sh+Sl)(g - G) - S_l g + (Ch+Cl - C) sin(r)
 *           + (Ch+Cl)(sg - Sg) - C_l (r_l + sg) + (low - low*).
 * Bounds (A = |S_h| + |r_h|; every kd_mul_add with the two-rounding bound):
 *   table: <= 2^-107.2 A (as in sc64_eval).
 *   g - G: G = -w/2 + w^2 Q(w) - T with w = r^2 = z + zl + 2 r_h r_l + r_l^2,
 *     Q(w) = 1/24 - w/720 + w^2/8!, |T| <= w^5/10!.  |w - z|/2 <= (e z + 2e z (1 + e)
 *     + e^2 z)/2 <= 1.5001 e z.  RN(z z) pc against w^2 Q(w): sc64_eval's 0.0088 (T)
 *     + 0.2501 (w against z) + 3.01/24 (pc's 2.01e, RN(z z)'s e) + 1/24 (the product's
 *     rounding) = 0.426 e z^2 <= 6.6e-5 e z (z <= 1.528e-4).  The sum's rounding:
 *     e |g| <= e (z/2 + z^2/24 (1 + 4e)) <= 0.50001 e z.  So |g - G| <= 2.0002 e z,
 *     times |S_h + S_l| <= |S_h| (1 + e): 2.0003 e z |S_h|.
 *   S_l g: <= e |S_h| 0.50001 z.
 *   (Ch+Cl - C) sin(r): in the table term (|sin r| <= |r| <= |r_h| (1 + e)).
 *   sg - Sg: <= 1.0001 e |r_h|^3 (sc64_eval's derivation: the same code), times 1 + e.
 *   C_l (r_l + sg): <= e (e |r_h| + |r_h|^3/6 (1 + 5e)) = e^2 |r_h| + 0.16668 e |r_h|^3.
 *   low - low*, each step at most e (|sum| + |product|):
 *     t_l + b_l:      <= e^2 (|t_h| + |b_h|) <= e^2 (|S_h| + 2 |r_h|)(1 + 2e);
 *     + S_l:          <= e^2 |S_h| (1 + 3e) (with the line above);
 *     C_h r_l + C_l r_h (|C_h r_l|, |C_l r_h| <= e |r_h|, C_l r_h rounded once more):
 *                     <= 4.001 e^2 |r_h|;
 *     their sum:      <= e^2 (2 |S_h| + 4 |r_h|)(1 + 3e);
 *     + S_h g:        the product e |S_h g| <= 0.50001 e z |S_h|, the sum
 *                     e (0.50001 z |S_h| + |a4|) <= 0.50002 e z |S_h| + e^2 (2 |S_h| + 4 |r_h|);
 *     + C_h sg:       the product e |sg| <= 0.16668 e |r_h|^3, the sum <= 0.50003 e z |S_h|
 *                     + 0.16669 e |r_h|^3 + e^2 (2 |S_h| + 4 |r_h|)(1 + e).
 *     Total: 1.5001 e z |S_h| + 0.33337 e |r_h|^3 + 8.001 e^2 |S_h| + 18.01 e^2 |r_h|.
 * Sum: z |S_h|: 2.0003 + 0.50001 + 1.5001 = 4.0004 e;  |r_h|^3: 1.0002 + 0.16668 + 0.33337
 *   = 1.5003 e, and |r_h|^3 <= |rz| (1 + 2.0001e);  e^2 terms: 8.44 e^2 |S_h| and
 *   20.5 e^2 |r_h| with the table's 0.435 e^2 A and C_l r_l.
 * The bound's terms cover these with margins >= 1.062 (4.25 e against 4.0004 e for
 * z |S_h|), 1.083 (1.625 e |rz| against 1.5003 e |r_h|^3) and 6 (2^-99 = 128 e^2 against
 * 8.44 e^2 |S_h|, and against 20.5 e^2 + 2^-105.9 for |r_h|), which also cover the at
 * most five roundings of computing it and the caller's + delta (< 6e relative) and
 * the rounding test's needs (sc64_round: e^2 |R_h| <= e^2 A (1 + e), a factor 1/(1 - e)).
 * No underflow, for the reason given at sc64_eval (r_h = 0 or |r_h| >= 2^-67.5).
 */
#ifndef CRTRIG_SINCOS64_QUICK_H
#define CRTRIG_SINCOS64_QUICK_H

#include "sincos64_core.h"

KD_INLINE kdd_t sc64_eval_quick(uint64_t j, double r_h, double r_l, double *bound)
{
    const uint64_t js = j & 255u;  /* indexing the array itself: gathers */
    double s_h = CRTRIG_SC64_SINCOS[js][0], s_l = CRTRIG_SC64_SINCOS[js][1];
    double c_h = CRTRIG_SC64_SINCOS[js][2], c_l = CRTRIG_SC64_SINCOS[js][3];
    double z = r_h * r_h;
    double ps = kd_mul_add(kd_mul_add(kd_mul_add(SC64_S9, z, SC64_S7), z, SC64_S5), z, SC64_S3);
    double rz = r_h * z;
    double g_h = -0.5 * z;
    double sg = kd_mul_add(rz, ps, r_l * g_h);
    double pc = kd_mul_add(kd_mul_add(SC64_C8, z, SC64_C6), z, SC64_C4);
    double g = kd_mul_add(z * z, pc, g_h);
    kdd_t b = kd_two_prod(c_h, r_h);
    kdd_t t = kd_fast_two_sum(s_h, b.hi);
    double low = ((t.lo + b.lo) + s_l) + kd_mul_add(c_h, r_l, c_l * r_h);
    low = kd_mul_add(s_h, g, low);
    low = kd_mul_add(c_h, sg, low);
    /* 4.25 e = 0x1.1p-51, 1.625 e = 0x1.ap-53 */
    *bound = kd_mul_add(kd_mul_add(0x1.1p-51, z, 0x1p-99), fabs(s_h),
                        kd_mul_add(0x1.ap-53, fabs(rz), 0x1p-99 * fabs(r_h)));
    return kd_fast_two_sum(t.hi, low);
}

/* What the passes that use it share around it (sincos64_pass.h, tan_pass.h): a chunk's
 * undecided[] from its flags (a copy when some lane is left, left != 0, else zeros),
 * and SC64_DEFINE_REFINE, a function NAME(func, large, in, out, n, flags) that computes
 * again, one by one, the lanes the quick evaluation left undecided (flag 2: ordinary
 * lanes, finite with |x| >= 2^-27, below 2^17 unless large, so the clean lane needs no
 * clamp) with the expression LANE_SMALL or LANE_LARGE (the precise lane of the
 * reduction, which reads b and writes the output bits, and the new flag to flags[i]),
 * and returns the OR of the chunk's flags after it.  Out of the vectorized loops: it
 * runs for a few lanes in 10^4. */
KD_INLINE void sc64_store_flags(unsigned char *undecided, const uint64_t *flags, size_t n, uint64_t left)
{
    size_t i;
    if (left) {
        for (i = 0; i < n; i++)
            undecided[i] = (unsigned char)flags[i];
    } else {
        memset(undecided, 0, n);
    }
}

#define SC64_DEFINE_REFINE(NAME, LANE_SMALL, LANE_LARGE)                                       \
    static uint64_t NAME(int func, int large, const char *in, char *out, size_t n, uint64_t *flags) \
    {                                                                                           \
        uint64_t any = 0;                                                                       \
        size_t i;                                                                               \
        (void)func;                                                                             \
        for (i = 0; i < n; i++) {                                                               \
            if (flags[i] == 2) {                                                                \
                uint64_t b, o;                                                                  \
                kdd_t v;                                                                        \
                double e;                                                                       \
                memcpy(&b, in + 8 * i, sizeof b);                                               \
                o = large ? (LANE_LARGE) : (LANE_SMALL);                                        \
                memcpy(out + 8 * i, &o, sizeof o);                                              \
            }                                                                                   \
            any |= flags[i];                                                                    \
        }                                                                                       \
        return any;                                                                             \
    }

#endif
