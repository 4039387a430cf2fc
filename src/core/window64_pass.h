/* The first pass of the float64 windows: one source compiled once per SIMD
 * target (simd_*.c define CRTRIG_KERNEL_FMA first, kernel_dd.h), vectorized by
 * the compiler.  window.c drives it over the folded phases r = min(n, D - n)
 * (each computed once and stored at n = r and n = D - r) and sends what it
 * leaves undecided to the per-element stages.
 *
 * window_run_float64(coef, table, r0, count, out, mirror): for r = r0 .. r0 + count - 1
 * (r <= D/2, within the table's range) out[i] (a double) = w at r, or the marker
 * WINDOW_UNDECIDED_64 (a NaN pattern) where the rounding test fails, and the same
 * at mirror[-i] unless mirror is NULL; returns how many it marked.  With r = a B + c and the table's double-double entries
 * (window_table.h: hi + lo = exact (1 + t), |t| <= t0 = 3.7 2^-103 = 29.6 e^2,
 * |lo| <= e |hi|, e = 2^-53; exact 0 and 1 where those are the values)
 *   Sa = sin(pi aB/D), Ca = cos(pi aB/D), Sc = sin(pi c/D), Cc = cos(pi c/D),
 *   y = sin(pi r/D) = Sa Cc + Ca Sc:
 *     (p_h, p_l) = kd_two_prod(Sa_h, Cc_h), (q_h, q_l) = kd_two_prod(Ca_h, Sc_h): exact;
 *     (t_h, t_l) = kd_fast_two_sum(p_h, q_h): exact (kernel_dd.h: p_h = 0 or p_h >= |q_h|),
 *       as p_h = 0 when a = 0 (Sa = 0, an exact entry), q_h = 0 when c = 0 or 2aB = D
 *       (Sc = 0, Ca = 0: exact entries), and otherwise p_h >= q_h: with alpha = pi aB/D
 *       and gamma = pi c/D, 0 < gamma < alpha < pi/2 (1 <= c <= B - 1 < aB <= r <= D/2),
 *       Sa Cc / (Ca Sc) = tan(alpha) / tan(gamma) >= alpha / gamma (tan x / x increases on
 *       (0, pi/2)) = aB / c >= B / (B - 1) >= 1 + 2^-31 (B <= 2^31, window_table.h), while
 *       the hi parts are within eta = (2^-53 + 2^-101)(1 + 2^-52) of their values
 *       (window_table.h), so Sa_h Cc_h / (Ca_h Sc_h) >= (1 + 2^-31) ((1 - eta)/(1 + eta))^2
 *       > 1, and RN is monotone;
 *     x = Sa_h Cc_l + Sa_l Cc_h + Ca_h Sc_l + Ca_l Sc_h, as four kd_mul_add from the last;
 *     y = (y_h, y_l) = (t_h, t_l + ((p_l + q_l) + x)), not renormalized (w64_sinpi).
 *   Error of y.  Let P = Sa_h Cc_h + Ca_h Sc_h >= 0 (all entries >= 0; a lo part may be
 *   negative but |lo| <= e hi).  The exact product of the entries, X = (Sa_h + Sa_l)(Cc_h
 *   + Cc_l) + (Ca_h + Ca_l)(Sc_h + Sc_l), is y (1 + d) with |d| <= (1 + t0)^2 - 1 <=
 *   59.3 e^2 (positive terms: no cancellation).  The code computes X but for:
 *     the omitted Sa_l Cc_l + Ca_l Sc_l:                      <= e^2 P;
 *     x (each term <= e times its product; |result - (ab + c)| <= e |ab + c| + e |ab|
 *       covers both forms of kd_mul_add): RN(Ca_l Sc_h) <= e^2 Ca_h Sc_h; + Ca_h Sc_l:
 *       e (2e + e) Ca_h Sc_h; + Sa_l Cc_h: e (2e Ca_h Sc_h + e Sa_h Cc_h + e Sa_h Cc_h);
 *       + Sa_h Cc_l: e (2e Ca_h Sc_h + 2e Sa_h Cc_h + e Sa_h Cc_h), in all
 *       <= 7.01 e^2 P (second-order terms included), and |x| <= 2.001 e P;
 *     p_l + q_l (each <= e times its product, so the sum <= e P): <= e^2 P;
 *     + x: |sum| <= 3.002 e P, rounding <= 3.002 e^2 P;
 *     t_l + that (|t_l| <= e t_h <= e P (1 + e)): |sum| <= 4.003 e P, rounding <= 4.003 e^2 P.
 *   In all, for y~ = y_h + y_l, |y~ - X| <= 16.02 e^2 P <= 16.03 e^2 X (X >= P (1 - 2.001e)),
 *   so |y~ - y| <= (59.3 + 16.04) e^2 y <= 75.4 e^2 y; and as y_h = RN(p_h + q_h) >=
 *   P (1 - e)^2 (|p_l + q_l| <= e P), |y_l| <= 4.003 e P (1 + e) <= 4.005 e y_h.
 *   s = y^2 as a double-double (w64_square): (s_h, s_e) = kd_two_prod(y_h, y_h) exact,
 *     s_l = kd_mul_add(2 y_h, y_l, s_e) (|2 y_h y_l| <= 8.01 e y_h^2, |s_e| <= 1.0001 e y_h^2:
 *     rounding <= e (9.02e + 8.01e) y_h^2 = 17.03 e^2 y_h^2), y_l^2 (<= 16.05 e^2 y_h^2)
 *     omitted: within 33.09 e^2 of y~^2 relatively (y~ >= y_h (1 - 4.005e)); y~^2 is within
 *     2 (75.4) + 0.01 e^2 of y^2 = sin^2:  |s~ - s| <= 183.9 e^2 s.  Not renormalized
 *     either: |s_l| <= 9.04 e s_h (s_h = RN(y_h^2) >= y_h^2 (1 - e)).
 *   w = the window's polynomial in s (window.c; positive coefficients, so a relative
 *     change z of s moves w relatively by at most z (Hann, Hamming: 21 s/(2 + 21 s) <= 1)
 *     or 1.64 z (Blackman: (9 + 32 s)/(9 + 16 s) <= 41/25)), in double-double with
 *     double-double constants (relative error <= 2^-106.9 = 0.54 e^2 each,
 *     tools/gen_sincos64_tables.py --constants):
 *       Hann     w = s
 *       Hamming  w = A + B s,        A = 2/23, B = 21/23       (w64_affine)
 *       Blackman w = s (P + Q s),    P = 9/25, Q = 16/25       (w64_affine, w64_mul)
 *     w64_affine(a, b, s) for s as above (|s_l| <= 9.04 e s_h) errs by <= 56 e^2 (A + B s):
 *     m = two_prod(b_h, s_h) exact, |m_e| <= e m_h; m_l = kd_mul_add(b_h, s_l,
 *     kd_mul_add(b_l, s_h, m_e)): inner (|b_l s_h| <= e b_h s_h, sum <= 2.001 e b_h s_h)
 *     <= e (2.001e + e) b_h s_h, outer (|b_h s_l| <= 9.04 e b_h s_h, sum <= 11.05 e b_h s_h)
 *     <= e (11.05e + 9.04e) b_h s_h, b_l s_l (<= 9.04 e^2 b_h s_h) omitted: 32.14 e^2 b_h s_h,
 *     and |m_l| <= 11.06 e b_h s_h; (w_h, w_e) = two_sum(a_h, m_h) exact; a_l + m_l rounds
 *     by <= e^2 (a_h + 11.06 b_h s_h), w_e + that by <= e^2 (2.001 a_h + 12.07 b_h s_h);
 *     fast_two_sum exact (that sum is below 12.1 e (a_h + b_h s_h) < w_h): 55.3 e^2 (a_h +
 *     b_h s_h), plus the constants' 0.54 e^2; and |w_l| <= e w_h.  w64_mul(a, b) for a = s
 *     (|a_l| <= 9.04 e a_h) and |b_l| <= e b_h errs by <= 40.2 e^2 |a b|: p = two_prod(a_h,
 *     b_h) exact; inner kd_mul_add(a_l, b_h, p_e) (sum <= 10.05 e a_h b_h) <= e (10.05e +
 *     9.04e), outer kd_mul_add(a_h, b_l, inner) (sum <= 11.06 e a_h b_h) <= e (11.06e + e),
 *     a_l b_l (<= 9.04 e^2) omitted; fast_two_sum exact, |w_l| <= e w_h.
 *   So, relative to w: Hann 183.9 e^2; Hamming 183.9 + 56 = 239.9 e^2; Blackman
 *     1.64 (183.9) + 56 + 40.2 = 397.8 e^2 < 2^-97.3.
 *   Rounding test (w64_round, as sc64_round of sincos64_core.h, whose argument holds for
 *     any |w_l| <= k e |w_h| with e^2 |w_h| replaced by k e^2 |w_h|): E = 2^-96 |w_h| =
 *     1024 e^2 |w_h| (exact), which is >= (397.9 e^2 |w| + e^2 |w_h|) / (1 - e) (k = 1,
 *     |w| <= |w_h| (1 + e)) and >= (183.9 e^2 |w| + 9.05 e^2 |w_h|) / (1 - e) (Hann, k =
 *     9.04, |w| <= |w_h| (1 + 9.05e)): lo = RN(w_h + RN(w_l - E)) <= RN(w) <= RN(w_h +
 *     RN(w_l + E)) = hi, and lo == hi is the correctly rounded w.  A rounding boundary must fall within
 *     2^-96 w of w~ to leave an element undecided: none in practice.
 * Exact points need no special case: the bound holds there, and w is then a double or
 * not dyadic (window.c).
 *
 * General Hamming (window_coef.h: w = c0 + c1 s, alpha in [0, 1], one span for every
 * alpha; c0 may be negative), relative to M = |c0| + c1 s (= w when alpha >= 1/2), with
 * the constants a = c0_hi + c0_lo, b = c1_hi + c1_lo (within 2^-103 = 8 e^2 of c0, c1,
 * |lo| <= e |hi|):  w64_general
 *     m = kd_two_prod(b_h, s_h) exact; m_l = kd_mul_add(b_h, s_l, kd_mul_add(b_l, s_h, m_e)),
 *       s as above (|s_l| <= 9.04 e s_h): as in w64_affine, b s computed within
 *       32.14 e^2 b_h s_h, and |m_l| <= 11.06 e b_h s_h;
 *     (w_h, w_e) = kd_two_sum(a_h, m_h) exact, |w_e| <= e (|a_h| + m_h);
 *     a_l + m_l rounds by <= e^2 (|a_h| + 11.06 m_h); w_e + that by <= e^2 (2.001 |a_h| +
 *       12.07 m_h); kd_two_sum of the two (not the fast form: w_h may be small after
 *       cancellation) is exact;
 *     so |w~ - (a + b s~)| <= e^2 (3.001 |a_h| + 55.27 m_h) <= 55.3 e^2 M (+ second order);
 *     a's and b's errors 8 e^2 |c0| and 8 e^2 c1 s, s~'s 183.9 e^2 c1 s (above):
 *     |w~ - w| <= 247.4 e^2 M.
 *   mag = kd_mul_add(b_h, s_h, |a_h|) >= M (1 - 12e) (no cancellation; s_h >= s~ (1 -
 *   9.05e)).  Rounding test with E = 2^-96 mag = 1024 e^2 mag: as above, lo <= RN(w) <= hi
 *   needs E (1 - e) >= 247.4 e^2 M + e^2 |w_h| (|w_h| <= 1.01 M): 1024 (1 - 13e) e^2 M
 *   covers it, whatever
 *   the sign of w; near the root (|w| < about 2^-96 M) lo and hi differ (or have
 *   different signs) and the element goes on to window.c.  A zero w~ is +0 with E > 0
 *   unless M~ = 0 (alpha = 1/2, r = 0: w = +0 exactly).  For alpha = 1/2 (a = 0, b = 1)
 *   w~ is Hann's s~ renormalized and E is Hann's (both roundings correct where they
 *   decide).  Products stay above 2^-330
 *   or are 0 (b_h, |a_h| >= 2^-64 or 0).  At r = 0 every entry product is 0 (Sa = Sc = 0 exactly), so
 * w~ = w: +0 (E = 0) for Hann and Blackman, A for Hamming.  Every product stays
 * above 2^-330 or is 0 (entries are 0 or >= sin(pi/2^52) > 2^-51), as kernel_dd.h needs.
 */
#include "pass_common.h"
#include "sincos64_core.h"
#include "window_table.h"
#include "window_coef.h"

/* tools/gen_sincos64_tables.py --constants; tests/test_sincos64_pass.py checks them. */
static const double W64_HAMMING_A_H = 0x1.642c8590b2164p-4;
static const double W64_HAMMING_A_L = 0x1.642c8590b2164p-59;
static const double W64_HAMMING_B_H = 0x1.d37a6f4de9bd3p-1;
static const double W64_HAMMING_B_L = 0x1.e9bd37a6f4deap-55;
static const double W64_BLACKMAN_A_H = 0x1.70a3d70a3d70ap-2;
static const double W64_BLACKMAN_A_L = 0x1.eb851eb851eb8p-57;
static const double W64_BLACKMAN_B_H = 0x1.47ae147ae147bp-1;
static const double W64_BLACKMAN_B_L = -0x1.eb851eb851eb8p-57;

#if defined(__GNUC__) && !defined(__clang__)
#define W64_VECTORIZE __attribute__((optimize("tree-vectorize")))
#else
#define W64_VECTORIZE
#endif

/* y = Sa Cc + Ca Sc from the double-double entries (see above). */
KD_INLINE kdd_t w64_sinpi(double sa_h, double sa_l, double ca_h, double ca_l, double sc_h, double sc_l,
                          double cc_h, double cc_l)
{
    kdd_t p = kd_two_prod(sa_h, cc_h), q = kd_two_prod(ca_h, sc_h);
    kdd_t t = kd_fast_two_sum(p.hi, q.hi);  /* exact: p_h = 0, q_h = 0 or p_h >= q_h (see above) */
    double x = kd_mul_add(sa_h, cc_l, kd_mul_add(sa_l, cc_h, kd_mul_add(ca_h, sc_l, ca_l * sc_h)));
    kdd_t y;
    y.hi = t.hi;
    y.lo = t.lo + ((p.lo + q.lo) + x);  /* not renormalized: |y_l| <= 4.005 e y_h */
    return y;
}

/* y^2 from w64_sinpi's y, not renormalized (see above). */
KD_INLINE kdd_t w64_square(kdd_t R)
{
    kdd_t s = kd_two_prod(R.hi, R.hi);
    s.lo = kd_mul_add(2.0 * R.hi, R.lo, s.lo);
    return s;
}

/* a + b s for double-double constants a, b >= 0 and s >= 0. */
KD_INLINE kdd_t w64_affine(double a_h, double a_l, double b_h, double b_l, kdd_t s)
{
    kdd_t m = kd_two_prod(b_h, s.hi);
    double m_l = kd_mul_add(b_h, s.lo, kd_mul_add(b_l, s.hi, m.lo));
    kdd_t w = kd_two_sum(a_h, m.hi);
    return kd_fast_two_sum(w.hi, w.lo + (a_l + m_l));
}

KD_INLINE kdd_t w64_mul(kdd_t a, kdd_t b)
{
    kdd_t p = kd_two_prod(a.hi, b.hi);
    return kd_fast_two_sum(p.hi, kd_mul_add(a.hi, b.lo, kd_mul_add(a.lo, b.hi, p.lo)));
}

/* w as a double-double from y, for kind 0 (Hann), 1 (Hamming), 2 (Blackman). */
KD_INLINE kdd_t w64_of_y(int kind, kdd_t y)
{
    kdd_t s = w64_square(y);
    if (kind == 0)
        return s;
    if (kind == 1)
        return w64_affine(W64_HAMMING_A_H, W64_HAMMING_A_L, W64_HAMMING_B_H, W64_HAMMING_B_L, s);
    return w64_mul(s, w64_affine(W64_BLACKMAN_A_H, W64_BLACKMAN_A_L, W64_BLACKMAN_B_H, W64_BLACKMAN_B_L, s));
}

/* The general Hamming window a + b s (see above), and *mag, its terms' magnitude. */
KD_INLINE kdd_t w64_general(double a_h, double a_l, double b_h, double b_l, double abs_a_h, kdd_t s,
                            double *mag)
{
    kdd_t m = kd_two_prod(b_h, s.hi);
    double m_l = kd_mul_add(b_h, s.lo, kd_mul_add(b_l, s.hi, m.lo));
    kdd_t w = kd_two_sum(a_h, m.hi);
    *mag = kd_mul_add(b_h, s.hi, abs_a_h);
    return kd_two_sum(w.hi, w.lo + (a_l + m_l));
}

/* The rounding test with a given E >= 0 (see above); w64_round is it with E = 2^-96 w_h. */
KD_INLINE uint64_t w64_round_e(kdd_t w, double E, uint64_t *differ)
{
    double lo = w.hi + (w.lo - E), hi = w.hi + (w.lo + E);
    *differ = (sc64_to_bits(hi - lo) + 0x7fffffffffffffffu) >> 63;
    return sc64_to_bits(lo) | ((uint64_t)0 - *differ);
}

/* sc64_round's test with E = 2^-96 w_h (see above): the bits of the correctly
 * rounded w, or the marker.  lo <= hi (RN is monotone), so they differ iff hi - lo
 * > 0, read on the bits with 64-bit adds and shifts (SSE2 has no 64-bit compare):
 * (bits(d) + 2^63 - 1) >> 63 is 1 for d > 0 and 0 for d = +0. */
KD_INLINE uint64_t w64_round(kdd_t w, uint64_t *differ)
{
    double E = 0x1p-96 * w.hi;
    double lo = w.hi + (w.lo - E), hi = w.hi + (w.lo + E);
    *differ = (sc64_to_bits(hi - lo) + 0x7fffffffffffffffu) >> 63;
    return sc64_to_bits(lo) | ((uint64_t)0 - *differ);
}

/* One loop per window kind over a run of c with a fixed a, with and without the
 * mirror store (each value also at m - 8 i, the element D - r): no branch inside.
 * Functions of their own, so that restrict (the table, o and m never overlap:
 * window.c stores a phase's two elements at different places) spares the compiler
 * its alias checks. */
#define W64_DEFINE_SPAN(KIND)                                                                    \
    W64_VECTORIZE static size_t w64_span_##KIND(                                                 \
        double sa_h, double sa_l, double ca_h, double ca_l, const double *restrict fs_h,         \
        const double *restrict fs_l, const double *restrict fc_h, const double *restrict fc_l,   \
        size_t len, char *restrict o)                                                            \
    {                                                                                            \
        size_t i, undecided = 0;                                                                 \
        for (i = 0; i < len; i++) {                                                              \
            kdd_t w = w64_of_y(KIND, w64_sinpi(sa_h, sa_l, ca_h, ca_l, fs_h[i], fs_l[i], fc_h[i], fc_l[i])); \
            uint64_t differ, bits = w64_round(w, &differ);                                       \
            memcpy(o + 8 * i, &bits, sizeof bits);                                               \
            undecided += differ;                                                                 \
        }                                                                                        \
        return undecided;                                                                        \
    }                                                                                            \
    W64_VECTORIZE static size_t w64_span_mirror_##KIND(                                          \
        double sa_h, double sa_l, double ca_h, double ca_l, const double *restrict fs_h,         \
        const double *restrict fs_l, const double *restrict fc_h, const double *restrict fc_l,   \
        size_t len, char *restrict o, char *restrict m)                                          \
    {                                                                                            \
        size_t i, undecided = 0;                                                                 \
        for (i = 0; i < len; i++) {                                                              \
            kdd_t w = w64_of_y(KIND, w64_sinpi(sa_h, sa_l, ca_h, ca_l, fs_h[i], fs_l[i], fc_h[i], fc_l[i])); \
            uint64_t differ, bits = w64_round(w, &differ);                                       \
            memcpy(o + 8 * i, &bits, sizeof bits);                                               \
            memcpy(m - 8 * (ptrdiff_t)i, &bits, sizeof bits);                                    \
            undecided += differ;                                                                 \
        }                                                                                        \
        return undecided;                                                                        \
    }
W64_DEFINE_SPAN(0)
W64_DEFINE_SPAN(1)
W64_DEFINE_SPAN(2)

/* The general Hamming window's spans (the constants as arguments). */
#define W64_GENERAL_BODY(MIRROR_STORE)                                                           \
    size_t i, undecided = 0;                                                                     \
    const double abs_a_h = fabs(a_h);                                                            \
    for (i = 0; i < len; i++) {                                                                  \
        double mag;                                                                              \
        kdd_t w = w64_general(a_h, a_l, b_h, b_l, abs_a_h,                                       \
                              w64_square(w64_sinpi(sa_h, sa_l, ca_h, ca_l, fs_h[i], fs_l[i], fc_h[i], fc_l[i])), \
                              &mag);                                                             \
        uint64_t differ, bits = w64_round_e(w, 0x1p-96 * mag, &differ);                          \
        memcpy(o + 8 * i, &bits, sizeof bits);                                                   \
        MIRROR_STORE                                                                             \
        undecided += differ;                                                                     \
    }                                                                                            \
    return undecided;
/* A span pair (without and with the mirror store) of a kind whose constants come as
 * arguments (the extra parameters after the output pointers), BODY its loop. */
#define W64_DEFINE_PARAM_SPANS(KIND, BODY, ...)                                                  \
    W64_VECTORIZE static size_t w64_span_##KIND(                                                 \
        double sa_h, double sa_l, double ca_h, double ca_l, const double *restrict fs_h,         \
        const double *restrict fs_l, const double *restrict fc_h, const double *restrict fc_l,   \
        size_t len, char *restrict o, __VA_ARGS__)                                               \
    {                                                                                            \
        BODY()                                                                                   \
    }                                                                                            \
    W64_VECTORIZE static size_t w64_span_mirror_##KIND(                                          \
        double sa_h, double sa_l, double ca_h, double ca_l, const double *restrict fs_h,         \
        const double *restrict fs_l, const double *restrict fc_h, const double *restrict fc_l,   \
        size_t len, char *restrict o, char *restrict m, __VA_ARGS__)                             \
    {                                                                                            \
        BODY(memcpy(m - 8 * (ptrdiff_t)i, &bits, sizeof bits);)                                  \
    }
W64_DEFINE_PARAM_SPANS(3, W64_GENERAL_BODY, double a_h, double a_l, double b_h, double b_l)

/* The linear-plus-sine-squared window (kind CRTRIG_WINDOW_LIN_SIN2, window_coef.h):
 * w = K r + B s, K = lin/D and B >= 0 double-double constants (window_lin_sin2.c's
 * caller rounds each exact rational twice: within 2^-105 = 2 e^2 relatively; K > 0),
 * barthann's folded form (12/25) r/D + (19/25) sin^2(pi r/D).  Both terms >= 0, no
 * cancellation.  t = w64_lin(K, r) for the exact integer r < 2^53 (a double):
 *   (p_h, p_e) = kd_two_prod(K_h, r) exact (products 0 or >= 2^-54: K_h >= 2^-54, which
 *   window_lin_sin2.c checks, barthann's 12/(25 N) for N <= 2^52; r >= 1 or 0); RN(K_l r) within e^2
 *   K r; p_e + that (<= 2e K r) rounds by <= 2 e^2 K r; kd_fast_two_sum exact (|p_h| =
 *   RN(K_h r) >= the sum): |t~ - K r| <= 3 e^2 K r, and K's own 2 e^2: 5 e^2 t.
 * w = w64_affine(t, B, s~) (its derivation above holds for any a = t >= 0 with |t_l| <= e
 *   t_h): 55.3 e^2 (t_h + B_h s_h); B's 2 e^2 B s; s~'s 183.9 e^2 B s (above).  In all
 *   |w~ - w| <= (183.9 + 2 + 55.3) e^2 B s + (5 + 55.3) e^2 t <= 241.3 e^2 w, within what
 *   w64_round's E = 2^-96 w_h = 1024 e^2 w_h covers (as for Blackman's 397.9 e^2).  At r
 *   = 0: s = t = 0 exactly, w~ = +0 = w with E = 0. */
KD_INLINE kdd_t w64_lin(double k_h, double k_l, double r)
{
    kdd_t p = kd_two_prod(k_h, r);
    return kd_fast_two_sum(p.hi, p.lo + k_l * r);
}

#define W64_LIN_BODY(MIRROR_STORE)                                                               \
    size_t i, undecided = 0;                                                                     \
    for (i = 0; i < len; i++) {                                                                  \
        kdd_t s = w64_square(w64_sinpi(sa_h, sa_l, ca_h, ca_l, fs_h[i], fs_l[i], fc_h[i], fc_l[i])); \
        kdd_t t = w64_lin(a_h, a_l, r0 + (double)i);                                             \
        kdd_t w = w64_affine(t.hi, t.lo, b_h, b_l, s);                                           \
        uint64_t differ, bits = w64_round(w, &differ);                                           \
        memcpy(o + 8 * i, &bits, sizeof bits);                                                   \
        MIRROR_STORE                                                                             \
        undecided += differ;                                                                     \
    }                                                                                            \
    return undecided;
W64_DEFINE_PARAM_SPANS(4, W64_LIN_BODY, double r0, double a_h, double a_l, double b_h, double b_l)

#define W64_SPAN(NAME, ...)                                                                      \
    (kind == 0 ? NAME##_0(__VA_ARGS__) : kind == 1 ? NAME##_1(__VA_ARGS__)                       \
     : kind == 2 ? NAME##_2(__VA_ARGS__)                                                         \
     : kind == CRTRIG_WINDOW_LIN_SIN2 ? NAME##_4(__VA_ARGS__, (double)r, a_h, a_l, b_h, b_l)     \
     : NAME##_3(__VA_ARGS__, a_h, a_l, b_h, b_l))

size_t CRTRIG_KERNEL(window_run_float64)(const crtrig_window_coef *coef, const crtrig_sinpi_table *t,
                                         uint64_t r0, size_t count, char *out, char *mirror)
{
    const int kind = coef->kind;
    const double a_h = coef->c0_hi, a_l = coef->c0_lo, b_h = coef->c1_hi, b_l = coef->c1_lo;
    size_t done = 0, undecided = 0;
    while (done < count) {
        uint64_t r = r0 + done, a = r / t->B, c = r - a * t->B, k = a - t->a_first;
        size_t len = (size_t)(t->B - c) < count - done ? (size_t)(t->B - c) : count - done;
        double sa_h = t->coarse_sin_hi[k], sa_l = t->coarse_sin_lo[k];
        double ca_h = t->coarse_cos_hi[k], ca_l = t->coarse_cos_lo[k];
        const double *fs_h = t->fine_sin_hi + c, *fs_l = t->fine_sin_lo + c;
        const double *fc_h = t->fine_cos_hi + c, *fc_l = t->fine_cos_lo + c;
        if (mirror)
            undecided += W64_SPAN(w64_span_mirror, sa_h, sa_l, ca_h, ca_l, fs_h, fs_l, fc_h, fc_l, len,
                                  out + 8 * done, mirror - 8 * (ptrdiff_t)done);
        else
            undecided += W64_SPAN(w64_span, sa_h, sa_l, ca_h, ca_l, fs_h, fs_l, fc_h, fc_l, len,
                                  out + 8 * done);
        done += len;
    }
    return undecided;
}

/* Test hook: the unrounded w = *hi + *lo and the E of its rounding test (2^-96 w_h, or
 * 2^-96 mag for the general Hamming window, whose proven error is 247.4 e^2 M, see
 * above) from the entries (e8 = Sa_h, Sa_l, Ca_h, Ca_l, Sc_h, Sc_l, Cc_h, Cc_l);
 * returns 2 when the rounding test fails, else 0. */
int CRTRIG_KERNEL(window64_pass_value)(const crtrig_window_coef *coef, const double *e8, double *hi,
                                       double *lo, double *e)
{
    uint64_t differ;
    kdd_t y = w64_sinpi(e8[0], e8[1], e8[2], e8[3], e8[4], e8[5], e8[6], e8[7]);
    kdd_t w;
    if (coef->kind == CRTRIG_GENERAL_HAMMING) {
        double mag;
        w = w64_general(coef->c0_hi, coef->c0_lo, coef->c1_hi, coef->c1_lo, fabs(coef->c0_hi), w64_square(y),
                        &mag);
        *e = 0x1p-96 * mag;
    } else {
        w = w64_of_y(coef->kind, y);
        *e = 0x1p-96 * w.hi;
    }
    *hi = w.hi;
    *lo = w.lo;
    w64_round_e(w, *e, &differ);
    return (int)(differ << 1);
}
