/* The first pass of the float64 windows: one source compiled once per SIMD
 * target (simd_*.c), vectorized by the compiler; window.c drives it over
 * blocks of the first half (w[D - n] = w[n] is copied) and sends what it leaves
 * undecided to the per-element stages.
 *
 * For n = first .. first + count - 1 (exact doubles, 0 <= n <= D, 1 <= D <= 2^52):
 *   n' = min(n, D - n) (exact integers: nothing is rounded before the reduction);
 *   t = n'/D in [0, 1/2] as a double-double without a division per element:
 *     t_h = RN(n' RN(1/D)): |t_h - t| <= e t + ulp(t_h)/2 <= 2.0001e t, and also
 *     < 1.5 ulp(t_h) (1 + 3e) since e t < ulp(t_h) (1 + 3e);  rem = n' - t_h D, exact:
 *     (n' - P_h) - P_l with (P_h, P_l) = kd_two_prod(t_h, D); n' - P_h is exact
 *     (Sterbenz, P_h within a factor 1 + 2.0001e of n'), and the exact value n' - t_h D
 *     = D (t - t_h) is a multiple of ulp(t_h) (n', D integers, ulp(t_h) <= 1) of magnitude
 *     < 1.5 (1 + 3e) D ulp(t_h) < 2^53 ulp(t_h) (D <= 2^52), so representable;
 *     t_l = RN(rem RN(1/D)): |t_h + t_l - t| <= 2.0001e |t - t_h| <= 4.0004 e^2 t,
 *     and |t_l| <= 2.0003e t;
 *   128 t = k + Y: k = nearest integer to 128 t_h (shifter, 0 <= k <= 64),
 *     c = 128 t_h - k (exact), y_rest = RN(rem RN(128/D)) = 128 t_l (scaling by 128 is
 *     exact), so Y = c + y_rest errs by <= 512.02 e^2 t, i.e. r = Y pi/128 by
 *     <= 4.0004 pi e^2 t <= 6.29 e^2 sin(pi t) (sin(pi t) >= 2t);
 *   r = sc64_turns_to_radians(c, y_rest): |y_rest| <= a = 2.0003e 128 t, so its error is
 *     <= 2^-103.3 |r_h| + 0.11 e a <= 6.3 e^2 sin(pi t) + 14.1 e^2 sin(pi t)
 *     (|r| <= 1.0001 sin(pi t): r = pi t for k = 0, else |r| <= pi/256 <= sin(pi t));
 *   R ~ sin(pi t) = sin(k pi/128 + r) by sc64_eval (bound b), so
 *     |R - sin(pi t)| <= e_R = b + 2^-101 |R_h|   ((6.29 + 6.3 + 14.1) e^2 = 2^-101.26,
 *     |R| <= |R_h| (1 + e));
 *   s = R^2 as a double-double: (s_h, s_e) = kd_two_prod(R_h, R_h), s_l = 2 R_h R_l + s_e
 *     (one kd_mul_add), fast_two_sum: |s - R^2| <= 6.2 e^2 s (roundings e (|s_l| + |2R_hR_l|),
 *     R_l^2 omitted), and |R^2 - sin^2| <= e_R (2 |R| + e_R) <= 2.0001 |R_h| e_R;
 *   w = the window's polynomial in s (window.c: positive coefficients, so a change
 *     ds of s moves w by at most kappa ds, kappa = 1 for Hann, 21/23 for Hamming,
 *     (9 + 32 s)/25 <= 1.64 for Blackman), in double-double with dd constants
 *     (relative error <= 2^-106.9 each, tools/gen_sincos64_tables.py):
 *       Hann     w = s
 *       Hamming  w = A + B s,        A = 2/23, B = 21/23       (w64_affine)
 *       Blackman w = s (P + Q s),    P = 9/25, Q = 16/25       (w64_affine, w64_mul)
 *     w64_affine errs by <= 15 e^2 (A + B s) (two_prod and two_sum exact; the low
 *     parts' roundings and omitted products: 7 e^2 B s + 7 e^2 (A + B s) + constants),
 *     w64_mul by <= 8 e^2 |a b|; with s <= 2.78 w for Blackman, every operation
 *     error together stays below 50 e^2 w < 2^-100.3 w;
 *   bound E = kappa' |R_h| e_R + 2^-98 |w_h|, kappa' = 2.0002 (Hann, Hamming) or 3.3
 *     (Blackman: 1.64 x 2.0002), then sc64_round into float64 (the 2^-98 term also
 *     covers sc64_round's e^2 |w_h| and the roundings of computing E).
 * Exact points (s in {0, 1/4, 1/2, 3/4, 1}) need no special case: the bound holds
 * there, w is a double or not dyadic (window.c), and at n' = 0 every quantity is
 * +0 (w = +0, E = 0).  r = 0 or |r| >= (pi/128)/D >= 2^-57.4 (128 n'/D - k is a
 * nonzero multiple of 1/D or 0), as sc64_eval needs.
 */
#include "pass_common.h"
#include "sincos64_core.h"

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

/* sin(pi n'/D), n' = min(n, D - n), with its bound e_R (see above). */
KD_INLINE kdd_t w64_sinpi(double n, double D, double inv_d, double *bound)
{
    double other = D - n;
    double np = n < other ? n : other;
    double t_h = np * inv_d;
    kdd_t p = kd_two_prod(t_h, D);
    double rem = (np - p.hi) - p.lo;
    double v = 128.0 * t_h;
    double shifted = v + SC64_SHIFTER;
    kdd_t r = sc64_turns_to_radians(v - (shifted - SC64_SHIFTER), rem * (128.0 * inv_d));
    kdd_t R;
    double b;
    R = sc64_eval(sc64_to_bits(shifted), r.hi, r.lo, &b);
    *bound = kd_mul_add(0x1p-101, fabs(R.hi), b);
    return R;
}

KD_INLINE kdd_t w64_square(kdd_t R)
{
    kdd_t s = kd_two_prod(R.hi, R.hi);
    return kd_fast_two_sum(s.hi, kd_mul_add(2.0 * R.hi, R.lo, s.lo));
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

/* w[n] as a double-double and its bound, for kind 0 (Hann), 1 (Hamming), 2 (Blackman). */
KD_INLINE kdd_t w64_value(int kind, double n, double D, double inv_d, double *bound)
{
    double e_r;
    kdd_t R = w64_sinpi(n, D, inv_d, &e_r);
    kdd_t s = w64_square(R);
    kdd_t w;
    double kappa = 2.0002;
    if (kind == 0) {
        w = s;
    } else if (kind == 1) {
        w = w64_affine(W64_HAMMING_A_H, W64_HAMMING_A_L, W64_HAMMING_B_H, W64_HAMMING_B_L, s);
    } else {
        w = w64_mul(s, w64_affine(W64_BLACKMAN_A_H, W64_BLACKMAN_A_L, W64_BLACKMAN_B_H,
                                  W64_BLACKMAN_B_L, s));
        kappa = 3.3;
    }
    *bound = kappa * fabs(R.hi) * e_r + 0x1p-98 * fabs(w.hi);
    return w;
}

/* One loop per window kind: no branch inside, so it vectorizes. */
#define W64_LOOP(KIND)                                                        \
    for (i = 0; i < count; i++) {                                             \
        uint64_t differ;                                                      \
        double n = first + (double)(int32_t)i, bound;                         \
        kdd_t w = w64_value(KIND, n, D, inv_d, &bound);                       \
        double y = sc64_round(w, bound, &differ);                             \
        memcpy(out + 8 * i, &y, sizeof y);                                    \
        flags[i] = differ << 1;                                               \
    }

W64_VECTORIZE static void w64_chunk(int kind, double first, double D, size_t count, char *out,
                                    uint64_t *flags)
{
    const double inv_d = 1.0 / D;
    size_t i;
    if (kind == 0)
        W64_LOOP(0)
    else if (kind == 1)
        W64_LOOP(1)
    else
        W64_LOOP(2)
}

/* The float64 window pass: out[i] (a double) = w[first + i] when undecided[i] == 0;
 * 2 where the rounding test fails.  Needs 1 <= D <= 2^52 and
 * 0 <= first, first + count - 1 <= D. */
W64_VECTORIZE void CRTRIG_KERNEL(window_pass_float64)(int kind, double first, double D, size_t count, char *out,
                                        unsigned char *undecided)
{
    uint64_t flags[256];
    size_t start, i;
    for (start = 0; start < count; start += 256) {
        size_t n = count - start < 256 ? count - start : 256;
        w64_chunk(kind, first + (double)start, D, n, out + 8 * start, flags);
        for (i = 0; i < n; i++)
            undecided[start + i] = (unsigned char)flags[i];
    }
}

/* Test hook: the unrounded w[n] = *hi + *lo and its bound *e (0 <= n <= D <= 2^52,
 * D >= 1); returns the lane's flag (0, or 2 when the rounding test fails). */
int CRTRIG_KERNEL(window64_pass_value)(int kind, double n, double D, double *hi, double *lo,
                                       double *e)
{
    uint64_t differ;
    kdd_t w = w64_value(kind, n, D, 1.0 / D, e);
    *hi = w.hi;
    *lo = w.lo;
    sc64_round(w, *e, &differ);
    return (int)(differ << 1);
}
