/* The I0 series of Kaiser's window and of the Kaiser-Bessel-derived window: one
 * source compiled once per SIMD target (simd_*.c define CRTRIG_KERNEL_FMA first,
 * kernel_dd.h), vectorized by the compiler over groups of I0_LANES elements.
 * bessel_i0.c builds the coefficient table (crtrig_i0_table, bessel_i0.h) and
 * drives these kernels; window_kbd.c uses i0_series too.
 *
 * i0_series(t, n0, count, s_hi, s_lo): for n = n0 .. n0 + count - 1 (n <= L - 1)
 *   S(y_n) = sum_k y_n^k/(k!)^2 = I0(2 sqrt(y_n)), y_n = c m_n, m_n = n (L - 1 - n),
 *   as the double-double s_hi[i] + s_lo[i] (|s_lo| <= e |s_hi|), by Horner's rule in
 *   v_n = m_n / G (G = t->G, a power of two: v_n is exact, m_n < 2^52 exact too) on
 *   the table b_k ~ (c G)^k/(k!)^2, k = 0 .. K (bessel_i0.c gives b_k's error beta_k <=
 *   18.02 k e^2 and the truncation after K: <= 2^-111.99 of S at every n):
 *     s = b_K;  for k = K - 1 .. 0:  s = s v + b_k, one step being
 *       (p_h, p_l) = kd_two_prod(s_h, v)           exact, P = s_h v;
 *       m = kd_mul_add(s_l, v, p_l)                the exact value s_l v + p_l has
 *                                                  |.| <= 2e P; error <= e 2e P + e e P
 *                                                  = 3 e^2 P (two roundings; one: less);
 *       (t_h, t_l) = kd_two_sum(p_h, b_h)          exact;
 *       x = m + b_l                                <= e (2.01 e P + e b_h);
 *       low = t_l + x                              |t_l| <= e (p_h + b_h) (1 + e), so
 *                                                  |.| <= e (3.02 P + 2.01 b_h): <= e^2 that;
 *       s' = kd_fast_two_sum(t_h, low)             exact (t_h = RN(p_h + b_h) >= |low|),
 *                                                  |s'_l| <= e s'_h.
 *     Nothing is omitted (s v = p_h + p_l + s_l v), so the step errs by <= e^2 (8.03 P +
 *     3.01 b_h) <= 8.04 e^2 (s v + b) (s_h <= s (1 + e), b_h <= b (1 + e)): one factor
 *     (1 + eps), |eps| <= 8.04 e^2, per step on a sum of positive terms.
 *   Term j (b_j v^j) passes through the steps j - 1 .. 0 after entering (j + 1 factors
 *   at most), so the computed S is sum_{j<=K} b_j v^j (1 + theta_j) with |theta_j| <=
 *   (18.02 j + 8.04 (j + 1)) e^2 (1.001) (second order: K <= 2000 keeps every product
 *   of factors within 0.1%), and with the truncation
 *     |S~ - S| <= ((26.1 K + 8.05) e^2 + 2^-111.99) S <= (26.1 K + 8.07) e^2 S.
 *   The same bits on every target: the bound holds for both forms of kd_mul_add and
 *   the exact products, and the callers only ever use S~ through a rounding test
 *   whose success gives the correctly rounded value.
 *   No underflow: b_k >= 2^-400 (bessel_i0.c checks b_K; b_k is unimodal in k with
 *   b_0 = 1), s >= b_k, v = 0 or v >= 4 (L - 2)/(L - 1)^2 >= 2^-25 (m_n >= L - 2, G <=
 *   m_max <= (L - 1)^2/4), so s_h v >= 2^-425 and its exact low part is 0 or above
 *   2^-530 (a multiple of ulp(s_h) ulp(v)); only a low part far below its high part
 *   (s_l v, b_l) could make a partial result subnormal, and that errs by at most
 *   2^-1075 absolute, below 2^-600 e^2 of the step's result: inside the constants
 *   above, which are rounded up.  No overflow: s <= S(c m_max) < 2^870.
 *   At n = 0 (v = 0) every step gives b_k exactly: S~ = b_0 = 1.
 *
 * kaiser_round64(s_hi, s_lo, inv_hi, inv_lo, count, out, undecided): Kaiser's w = S
 *   inv, inv = 1/S(beta^2/4) within 2^-104 = 4 e^2 (crtrig._kaiser_window.inverse_dd),
 *   rounded to float64: w~ = the product as w64_mul of window64_pass.h (8.01 e^2 |w|:
 *   inner kd_mul_add 3 e^2, outer 4 e^2, s_l inv_l omitted e^2), so |w~ - w| <= (26.1 K
 *   + 8.07 + 8.01 + 4 + 0.01) e^2 |w| <= 52221 e^2 |w| for K <= 2000.  The test is
 *   sc64_round (sincos64_core.h) with bound E = 2^-90 |w_h| = 65536 e^2 |w_h| (exact,
 *   w_h >= 2^-870), which is >= (52221 e^2 |w| + e^2 |w_h|)/(1 - e) as it needs (|w| <=
 *   |w_h| (1 + 2e)).  out[i] = the correctly rounded w, or an all-ones NaN and
 *   undecided[i] = 1 where the two ends differ; returns how many it marked.
 *
 * kbd_finish64(vals, a_lo, inv_hi, inv_lo, KL, nL, count, undecided): the last step
 *   of window_kbd.c for float64, in place: with A_n = vals[i] + a_lo[i] (n = n0 + i,
 *   nL = n0 + L) the prefix sums and inv ~ 1/B as there, R = A_n inv by w64_mul's form
 *   (8.01 e^2; window_kbd.c's budget counts 8 e^2 for it and has 0.1 e^2 K to spare),
 *   w = the root by window_kbd.c's kbd_sqrt in kernel form (the same operations; its
 *   bound only uses exact products, which kd_two_prod gives on every target), and the
 *   test sc64_round with bound E = w_h (KL + 4.01 (nL + i)) 2^-106, KL = 26.2 K + 64:
 *   E (1 - e) >= (26.2 K + 4.01 (n + L) + 26.9) e^2 |w| + e^2 |w_h| (window_kbd.c's
 *   bound, |w| <= |w_h| (1 + 2e), E's three roundings).  vals[i] = the correctly rounded
 *   w or an all-ones NaN with undecided[i] = 1; returns how many it marked. */
#include "pass_common.h"
#include "sincos64_core.h"
#include "bessel_i0.h"

#if defined(__GNUC__) && !defined(__clang__)
#define I0_VECTORIZE __attribute__((optimize("tree-vectorize")))
#else
#define I0_VECTORIZE
#endif

enum { I0_LANES = 16 };


/* One Horner step of lane j (see above); the lanes are separate variables, so that
 * the compiler keeps them in vector registers (straight-line SLP vectorization). */
#define I0_STEP(j)                                                   \
    {                                                                \
        kdd_t p = kd_two_prod(h##j, v##j);                           \
        double m = kd_mul_add(l##j, v##j, p.lo);                     \
        kdd_t t = kd_two_sum(p.hi, bh);                              \
        kdd_t s = kd_fast_two_sum(t.hi, t.lo + (m + bl));            \
        h##j = s.hi;                                                 \
        l##j = s.lo;                                                 \
    }

/* Horner's steps for I0_LANES = 16 lanes at once (see above). */
I0_VECTORIZE static void i0_group(const double *restrict b_hi, const double *restrict b_lo, int K,
                                  const double *restrict v, double *restrict out_hi,
                                  double *restrict out_lo)
{
    const double v0 = v[0], v1 = v[1], v2 = v[2], v3 = v[3], v4 = v[4], v5 = v[5], v6 = v[6], v7 = v[7], v8 = v[8], v9 = v[9], v10 = v[10], v11 = v[11], v12 = v[12], v13 = v[13], v14 = v[14], v15 = v[15];
    double h0 = b_hi[K], h1 = h0, h2 = h0, h3 = h0, h4 = h0, h5 = h0, h6 = h0, h7 = h0, h8 = h0, h9 = h0, h10 = h0, h11 = h0, h12 = h0, h13 = h0, h14 = h0, h15 = h0;
    double l0 = b_lo[K], l1 = l0, l2 = l0, l3 = l0, l4 = l0, l5 = l0, l6 = l0, l7 = l0, l8 = l0, l9 = l0, l10 = l0, l11 = l0, l12 = l0, l13 = l0, l14 = l0, l15 = l0;
    int k;
    for (k = K - 1; k >= 0; k--) {
        const double bh = b_hi[k], bl = b_lo[k];
        I0_STEP(0) I0_STEP(1) I0_STEP(2) I0_STEP(3) I0_STEP(4) I0_STEP(5) I0_STEP(6) I0_STEP(7) I0_STEP(8) I0_STEP(9) I0_STEP(10) I0_STEP(11) I0_STEP(12) I0_STEP(13) I0_STEP(14) I0_STEP(15)
    }
    out_hi[0] = h0; out_lo[0] = l0;
    out_hi[1] = h1; out_lo[1] = l1;
    out_hi[2] = h2; out_lo[2] = l2;
    out_hi[3] = h3; out_lo[3] = l3;
    out_hi[4] = h4; out_lo[4] = l4;
    out_hi[5] = h5; out_lo[5] = l5;
    out_hi[6] = h6; out_lo[6] = l6;
    out_hi[7] = h7; out_lo[7] = l7;
    out_hi[8] = h8; out_lo[8] = l8;
    out_hi[9] = h9; out_lo[9] = l9;
    out_hi[10] = h10; out_lo[10] = l10;
    out_hi[11] = h11; out_lo[11] = l11;
    out_hi[12] = h12; out_lo[12] = l12;
    out_hi[13] = h13; out_lo[13] = l13;
    out_hi[14] = h14; out_lo[14] = l14;
    out_hi[15] = h15; out_lo[15] = l15;
}

void CRTRIG_KERNEL(i0_series)(const struct crtrig_i0_table *t, uint64_t n0, size_t count, double *s_hi,
                              double *s_lo)
{
    size_t i = 0, j;
    double v[I0_LANES], h[I0_LANES], l[I0_LANES];
    const double last = (double)(t->L - 1);
    while (i < count) {
        size_t len = count - i < I0_LANES ? count - i : I0_LANES;
        for (j = 0; j < I0_LANES; j++) {
            /* m = n (L - 1 - n) < 2^52 exact; v = m / G exact (G a power of two).
             * Padding lanes (j >= len) take v = 0. */
            double n = (double)(n0 + i + (j < len ? j : 0));
            v[j] = j < len ? n * (last - n) * t->inv_G : 0.0;
        }
        i0_group(t->b_hi, t->b_lo, t->K, v, h, l);
        for (j = 0; j < len; j++) {
            s_hi[i + j] = h[j];
            s_lo[i + j] = l[j];
        }
        i += len;
    }
}

I0_VECTORIZE size_t CRTRIG_KERNEL(kaiser_round64)(const double *restrict s_hi, const double *restrict s_lo,
                                                  double inv_hi, double inv_lo, size_t count,
                                                  double *restrict out, unsigned char *restrict undecided)
{
    size_t i, marked = 0;
    for (i = 0; i < count; i++) {
        kdd_t p = kd_two_prod(s_hi[i], inv_hi);
        double lo = kd_mul_add(s_hi[i], inv_lo, kd_mul_add(s_lo[i], inv_hi, p.lo));
        kdd_t w = kd_fast_two_sum(p.hi, lo);
        uint64_t differ, bits;
        double r = sc64_round(w, 0x1p-90 * w.hi, &differ);
        bits = sc64_to_bits(r) | ((uint64_t)0 - differ);
        memcpy(out + i, &bits, sizeof bits);
        undecided[i] = (unsigned char)differ;
        marked += (size_t)differ;
    }
    return marked;
}

I0_VECTORIZE size_t CRTRIG_KERNEL(kbd_finish64)(double *vals, const double *restrict a_lo, double inv_hi,
                                                double inv_lo, double KL, double nL, size_t count,
                                                unsigned char *restrict undecided)
{
    size_t i, marked = 0;
    for (i = 0; i < count; i++) {
        double a_hi = vals[i];
        kdd_t p = kd_two_prod(a_hi, inv_hi);
        double lo = kd_mul_add(a_hi, inv_lo, kd_mul_add(a_lo[i], inv_hi, p.lo));
        kdd_t R = kd_fast_two_sum(p.hi, lo);
        double s = sqrt(R.hi);
        kdd_t q = kd_two_prod(s, s);
        double d = ((R.hi - q.hi) - q.lo) + R.lo;
        kdd_t w = kd_fast_two_sum(s, d / (2.0 * s));
        uint64_t differ, bits;
        double r = sc64_round(w, w.hi * ((KL + 4.01 * (nL + (double)i)) * 0x1p-106), &differ);
        bits = sc64_to_bits(r) | ((uint64_t)0 - differ);
        memcpy(vals + i, &bits, sizeof bits);
        undecided[i] = (unsigned char)differ;
        marked += (size_t)differ;
    }
    return marked;
}
