/* The tan first pass of the array kernel, float32 and float64: one source compiled
 * once per SIMD target (simd_*.c), vectorized by the compiler, checked against the
 * scalar path (tan.c) by the first-use self-check (selfcheck.h) like sin/cos's
 * passes.  tan x = sin x / cos x, both from the kernels of sin/cos with their
 * proven bounds (sincos32_core.h, sincos64_core.h), then one quotient and a
 * rounding test; a decided lane is the correctly rounded tan x, so every target
 * and both forms of kernel_dd.h (FMA or not) give the same bits.
 *
 * tan x for a double x != 0 is transcendental (tan.c), never a rounding boundary,
 * and finite: |x - k pi/2| >= 2^-60.9 for every double (reduce.c), so |sin x| and
 * |cos x| are >= 2^-61 and |tan x| < 2^62.
 *
 * Every lane is classified from its bits (no comparison touches a NaN):
 *   tiny, |x| below 2^-13 (float32) or 2^-27 (float64), zeros and subnormals
 *     included: RN(tan x) = x, copied from the bits (-0 kept, no flag).  For
 *     0 < x < 1/2, x < tan x < x + (x^3/3)(1.01) (tan.c, TAN_IS_X_BELOW); with
 *     2^e <= x < 2^(e+1) the gap above x is at least 2^(e-p+1) (p = 24 or 53; the
 *     fixed gap of the subnormal range is larger), and (x^3/3)(1.01) < 2^(3e+3)/3
 *     (1.01) <= 2^(e-p) iff 2^(2e+p+3) 1.01 <= 3: e <= -14 for float32 (p = 24),
 *     e <= -28 for float64 (tan.c derives the same); odd, so the same below 0.
 *   inf and NaN: undecided = 1, for the per-element stages (NaN quiet, inf -> NaN
 *     and FE_INVALID).  These lanes and the tiny ones compute on a clamped x instead,
 *     so nothing raises a flag but inexact (no quotient below divides by zero:
 *     the divisors are cos of doubles, |cos| >= 2^-61).
 *   ordinary: the value and its rounding test below; undecided = 2 when the test
 *     fails (the stages start at double-double), 0 when out[i] is RN(tan x).
 * Chunks whose finite |x| are all below 2^24 (float32) or 2^17 (float64) take the
 * short reductions, others the exact large reduction for every lane, as in the
 * sin/cos passes.
 */
#include "pass_common.h"
#include "sincos32_core.h"
#include "sincos64_core.h"

#if defined(__GNUC__) && !defined(__clang__)
#define TAN_VECTORIZE __attribute__((optimize("tree-vectorize")))
#else
#define TAN_VECTORIZE
#endif

#ifndef CRTRIG_TAN_PASS_LANES
#define CRTRIG_TAN_PASS_LANES

enum { TAN_CHUNK = 256 };

#define TAN32_ABS 0x7fffffffu
#define TAN32_TINY 0x39000000u   /* 2^-13 */
#define TAN32_LARGE 0x4b800000u  /* 2^24 */
#define TAN32_INF 0x7f800000u
#define TAN32_ONE 0x3f800000u

/* ---- float32 ----
 * For an ordinary float32 x (2^-13 <= |x| <= the largest float32), as a double:
 *   s = sc32_value_small(x, 0) or sc32_value_table(x, 0), c the same with is_cos = 1
 *   (the same reduction for every lane of a chunk: the small one below 2^24);
 *   sincos32_core.h: |s - sin x| <= 620.9 u |sin x|, |c - cos x| <= 620.9 u |cos x|
 *   (u = 2^-53), both forms of kernel_dd.h, either reduction.
 *   q = RN(s/c) = (s/c)(1 + d), |d| <= u, so q = tan x (1 + a)(1 + d)/(1 + b) with
 *   |a|, |b| <= 620.9 u: |q - tan x| <= (2 620.9 + 1) u |tan x| + O(2^-87) |tan x|
 *   <= 1242.9 u |tan x| <= 1243 u |q| < 1243 ulp(q) (ulp(q) > 2^-53 |q| = u |q|).
 * The rounding test of sin/cos (sc32_undecided(q, 29), its 64-bit-lane form
 * sc32_undecided_top_float32) passes only when no float32 rounding boundary lies
 * within 2048 ulp(q) of q (sincos32_core.h: the low 29 bits m of q have |m - 2^28|
 * >= 2048, and the neighbouring binades' boundaries are >= 2^27 ulp(q) away), more
 * than 1243: then q and tan x round alike, and (float)q is RN(tan x).  The results are
 * normal float32 numbers, where rounding on the bits applies: |tan x| >= |sin x| >=
 * 2 |t*| >= 2^-29.86 (sincos32_core.h, R3) and |tan x| <= 1/|cos x| < 2^31.
 * large: the reduction (a constant in each loop). */
KD_INLINE uint32_t tan32_lane(int large, uint32_t w, uint64_t *undecided)
{
    uint32_t a = w & TAN32_ABS, ordinary, tiny, special, wx, ob;
    float xf, qf;
    double x, s, c, q;
    ordinary = a - TAN32_TINY < TAN32_INF - TAN32_TINY;
    wx = (w & (0u - ordinary)) | (TAN32_ONE & (ordinary - 1u));
    memcpy(&xf, &wx, sizeof xf);
    x = (double)xf;
    if (large) {
        s = sc32_value_table(x, 0);
        c = sc32_value_table(x, 1);
    } else {
        s = sc32_value_small(x, 0);
        c = sc32_value_small(x, 1);
    }
    q = s / c;
    qf = (float)q;
    memcpy(&ob, &qf, sizeof ob);
    *undecided = sc32_undecided_top_float32(q);
    tiny = a < TAN32_TINY;
    special = a >= TAN32_INF;
    return (ob & (0u - ordinary)) | (w & (0u - tiny)) | (w & (0u - special));
}

/* The flag of a float32 lane from tan32_lane's test: 2 for an ordinary lane whose test
 * failed, 1 for inf and NaN, else 0. */
KD_INLINE uint32_t tan32_flag(uint32_t w, uint64_t undecided)
{
    uint32_t a = w & TAN32_ABS;
    uint32_t ordinary = a - TAN32_TINY < TAN32_INF - TAN32_TINY;
    return (((uint32_t)(undecided >> 63) << 1) & (0u - ordinary)) | (uint32_t)(a >= TAN32_INF);
}

/* ---- float64 ----
 * One reduction of sin/cos (sincos64_core.h: the small one below 2^17, the large one
 * otherwise, with its delta), r = r_h + r_l and k; then
 *   S = sc64_eval(k, r) ~ sin x and C = sc64_eval(k + 64, r) ~ cos x (cos x = sin(x +
 *   pi/2): j + 64), |S - sin x| <= E_s and |C - cos x| <= E_c, E = the eval's bound
 *   plus delta (sincos64_core.h); |S_l| <= e |S_h|, |C_l| <= e |C_h| (e = 2^-53).
 * Each of E_s, E_c is at most 2^-35 of its value: the eval's part is relative
 * (<= 2^-64.7: 2^-52 r^2 with |r| <= 0.01236, plus 2^-78 and 2^-99), delta is at most
 * 2^22.35 2^-119 = 2^-96.6 (small) or 2^-102 |r_h| + 2^-133 (large), and |sin x|, |cos
 * x| >= 2^-61 (above).
 * The quotient, Q = Q_h + Q_l ~ S/C (S = S_h + S_l, C = C_h + C_l):
 *   q_h = RN(S_h / C_h);  (p_h, p_l) = two_prod(q_h, C_h), exact;
 *   rho = (S_h - p_h) - p_l:  S_h - q_h C_h exactly.  p_h = RN(q_h C_h) and q_h C_h =
 *     S_h (1 + t), |t| <= 2e, so S_h/2 <= p_h <= 2 S_h (same sign) and S_h - p_h is exact
 *     (Sterbenz); the remainder S_h - q_h C_h of a division rounded to nearest is a
 *     double (no underflow here: every quantity is above 2^-250), so the last
 *     subtraction, whose exact result it is, is exact too.  |rho| <= e |q_h C_h| = e A,
 *     A = |q_h C_h|, |S_h| <= A (1 + e);
 *   m = S_l - q_h C_l (one kd_mul_add): |S_l - q_h C_l| <= e A (2 + e); error <= 2.01 e^2 A
 *     (FMA) or 3.01 e^2 A (two roundings);
 *   n = RN(rho + m): |rho + m| <= 3.02 e A, error <= 3.02 e^2 A;
 *   q_l = RN(n / C_h);  (Q_h, Q_l) = fast_two_sum(q_h, q_l): exact (|q_l| <= 3.1 e |q_h|).
 *   With N = rho + S_l - q_h C_l exactly, S/C = q_h + N/C, and
 *   |q_l - N/C| <= |n - N|/|C_h| + |N| |C_l|/(|C_h| |C|) + e |n/C_h|
 *              <= (6.03 + 3.02 + 3.03) e^2 |q_h| = 12.1 e^2 |q_h|.
 * The error of S and C:  S/C - s/c = ((S - s) c - s (C - c))/(C c), so |S/C - tan x| <=
 *   (E_s + |tan x| E_c)/|C|, with |C| >= |C_h| (1 - e) and |tan x| <= |q_h| (1 + 2^-33)
 *   (q_h is within e of S_h/C_h, S and C within 2^-35 and e of s, c and S_h, C_h).
 * Bound:  |Q - tan x| <= (E_s + |q_h| E_c)/|C_h| (1 + 2^-32) + 12.1 e^2 |q_h|.  The code
 *   computes E_s, E_c = RN(eval bound + delta) and bound = kd_mul_add(2^-100, |q_h|,
 *   RN(RN(kd_mul_add(|q_h|, E_c, E_s) / |C_h|) (1 + 2^-18))): at most eight roundings
 *   (the two sums, two or four in the kd_mul_adds, the quotient, the product; <= 8.01 e
 *   relative, all below the factor 1 + 2^-18), and 2^-100 = 64 e^2 >= 12.1 e^2 + e^2,
 *   which with the factor covers what sc64_round needs (e^2 |Q_h| and a factor
 *   1/(1 - e)).  sc64_round: decided lanes are RN(tan x).
 * large: the reduction; clean: the chunk has no tiny, inf or NaN lane (constants in
 * each loop).  Returns the output bits; *flag as above; *value and *bound_out for the
 * test hook. */
KD_INLINE uint64_t tan64_lane(int large, int clean, uint64_t b, uint64_t *flag, kdd_t *value,
                              double *bound_out)
{
    const int64_t limit = large ? (int64_t)0x7fefffffffffffff : (int64_t)SC64_SMALL_BITS - 1;
    int64_t a = (int64_t)(b & SC64_ABS_MASK);
    uint64_t kbits, differ, tiny, special, inside;
    double x, delta, es, ec, qh, rho, m, ql, bound, y;
    kdd_t r, S, C, p, Q;
    if (clean) {
        x = sc64_from_bits(b);
    } else {
        a = a < (int64_t)SC64_TINY_BITS ? (int64_t)SC64_TINY_BITS : a;
        a = a > limit ? limit : a;
        x = sc64_from_bits((uint64_t)a | (b & ~(uint64_t)SC64_ABS_MASK));
    }
    if (large) {
        r = sc64_reduce_large(x, &kbits);
        delta = kd_mul_add(0x1p-102, fabs(r.hi), 0x1p-133);
    } else {
        double kd;
        r = sc64_reduce_small(x, &kbits, &kd);
        delta = 0x1p-119 * fabs(kd);
    }
    S = sc64_eval(kbits, r.hi, r.lo, &es);
    C = sc64_eval(kbits + 64u, r.hi, r.lo, &ec);
    es = es + delta;
    ec = ec + delta;
    qh = S.hi / C.hi;
    p = kd_two_prod(qh, C.hi);
    rho = (S.hi - p.hi) - p.lo;
    m = kd_mul_add(-qh, C.lo, S.lo);
    ql = (rho + m) / C.hi;
    Q = kd_fast_two_sum(qh, ql);
    bound = kd_mul_add(0x1p-100, fabs(qh),
                       (kd_mul_add(fabs(qh), ec, es) / fabs(C.hi)) * (1.0 + 0x1p-18));
    y = sc64_round(Q, bound, &differ);
    *value = Q;
    *bound_out = bound;
    if (clean) {
        *flag = differ << 1;
        return sc64_to_bits(y);
    }
    tiny = (b & SC64_ABS_MASK) < SC64_TINY_BITS;
    special = (b & SC64_ABS_MASK) >= SC64_INF_BITS;
    inside = (tiny | special) - 1u;  /* all ones for ordinary lanes */
    *flag = ((differ << 1) & inside) | special;
    return (sc64_to_bits(y) & inside) | (b & (0u - tiny)) | (b & (0u - special));
}
#endif

/* Loops per (format, reduction, chunk kind): no branch inside, so they vectorize. */
#define TAN32_LOOP(NAME, LARGE)                                                            \
    TAN_VECTORIZE static uint32_t NAME(const char *in, char *out, size_t n, uint32_t *flags) \
    {                                                                                      \
        uint64_t any = 0;                                                                  \
        size_t i;                                                                          \
        for (i = 0; i < n; i++) {                                                          \
            uint32_t w, o;                                                                 \
            uint64_t u;                                                                    \
            memcpy(&w, in + 4 * i, sizeof w);                                              \
            o = tan32_lane(LARGE, w, &u);                                                  \
            memcpy(out + 4 * i, &o, sizeof o);                                             \
            any |= u | ((uint64_t)((w & TAN32_ABS) >= TAN32_INF) << 63);                   \
        }                                                                                  \
        if (!(any >> 63))                                                                  \
            return 0;                                                                      \
        for (i = 0; i < n; i++) {                                                          \
            uint32_t w;                                                                    \
            uint64_t u;                                                                    \
            memcpy(&w, in + 4 * i, sizeof w);                                              \
            (void)tan32_lane(LARGE, w, &u);                                                \
            flags[i] = tan32_flag(w, u);                                                   \
        }                                                                                  \
        return 1;                                                                          \
    }
TAN32_LOOP(tan32_small, 0)
TAN32_LOOP(tan32_large, 1)

#define TAN64_LOOP(NAME, LARGE, CLEAN)                                                     \
    TAN_VECTORIZE static void NAME(const char *in, char *out, size_t n, uint64_t *flags)    \
    {                                                                                      \
        size_t i;                                                                          \
        for (i = 0; i < n; i++) {                                                          \
            uint64_t b, o;                                                                 \
            kdd_t v;                                                                       \
            double e;                                                                      \
            memcpy(&b, in + 8 * i, sizeof b);                                              \
            o = tan64_lane(LARGE, CLEAN, b, &flags[i], &v, &e);                            \
            memcpy(out + 8 * i, &o, sizeof o);                                             \
        }                                                                                  \
    }
TAN64_LOOP(tan64_small, 0, 0)
TAN64_LOOP(tan64_small_clean, 0, 1)
TAN64_LOOP(tan64_large, 1, 0)
TAN64_LOOP(tan64_large_clean, 1, 1)

/* First pass of tan over count contiguous float32 inputs (func CRTRIG_TAN; in and out
 * must not overlap): out[i] for every i and undecided[i] as described at the top;
 * returns whether any undecided[i] is nonzero. */
TAN_VECTORIZE int CRTRIG_KERNEL(tan_pass_float32)(int func, const char *in, char *out,
                                                  size_t count, unsigned char *undecided)
{
    uint32_t flags[TAN_CHUNK], any = 0;
    size_t start, i;
    (void)func;
    for (start = 0; start < count; start += TAN_CHUNK) {
        size_t n = count - start < TAN_CHUNK ? count - start : TAN_CHUNK;
        const char *src = in + 4 * start;
        uint32_t large = 0, flagged;
        for (i = 0; i < n; i++) {
            uint32_t w;
            memcpy(&w, src + 4 * i, sizeof w);
            large |= (w & TAN32_ABS) - TAN32_LARGE < TAN32_INF - TAN32_LARGE;
        }
        flagged = (large ? tan32_large : tan32_small)(src, out + 4 * start, n, flags);
        if (!flagged) {
            memset(undecided + start, 0, n);
            continue;
        }
        for (i = 0; i < n; i++) {
            undecided[start + i] = (unsigned char)flags[i];
            any |= flags[i];
        }
    }
    return any != 0;
}

/* The same for float64. */
TAN_VECTORIZE int CRTRIG_KERNEL(tan_pass_float64)(int func, const char *in, char *out,
                                                  size_t count, unsigned char *undecided)
{
    uint64_t flags[TAN_CHUNK], any = 0;
    size_t start, i;
    (void)func;
    for (start = 0; start < count; start += TAN_CHUNK) {
        size_t n = count - start < TAN_CHUNK ? count - start : TAN_CHUNK;
        const char *src = in + 8 * start;
        char *dst = out + 8 * start;
        uint64_t any_large = 0, any_outside = 0;
        for (i = 0; i < n; i++) {
            uint64_t b, a;
            memcpy(&b, src + 8 * i, sizeof b);
            a = b & SC64_ABS_MASK;
            any_large |= a - SC64_SMALL_BITS < SC64_INF_BITS - SC64_SMALL_BITS;
            any_outside |= a - SC64_TINY_BITS >= SC64_INF_BITS - SC64_TINY_BITS;
        }
        if (any_large)
            (any_outside ? tan64_large : tan64_large_clean)(src, dst, n, flags);
        else
            (any_outside ? tan64_small : tan64_small_clean)(src, dst, n, flags);
        for (i = 0; i < n; i++) {
            undecided[start + i] = (unsigned char)flags[i];
            any |= flags[i];
        }
    }
    return any != 0;
}

/* Test hook: the float64 pass's unrounded Q = *hi + *lo and its bound *e for one
 * finite x with |x| >= 2^-27, through the small (large = 0, |x| < 2^17) or the large
 * reduction; returns the lane's flag (0, or 2 when the rounding test fails). */
int CRTRIG_KERNEL(tan64_pass_value)(double x, int large, double *hi, double *lo, double *e)
{
    uint64_t flag;
    kdd_t v;
    if (large)
        tan64_lane(1, 1, sc64_to_bits(x), &flag, &v, e);
    else
        tan64_lane(0, 1, sc64_to_bits(x), &flag, &v, e);
    *hi = v.hi;
    *lo = v.lo;
    return (int)flag;
}
