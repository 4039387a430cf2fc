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
 *
 * tanpi x = tan(pi x) takes the exact reduction of sinpi/cospi (trigpi.c,
 * trigpi_pass.h) and the same quotient; its lanes are described at tanpi64_lane and
 * tanpi32_lane.  Its special values (integers, poles, +-0) are written as tan.c
 * writes them, or (poles, tiny and subnormal results) left to its stages.
 */
#include "pass_common.h"
#include "sincos32_core.h"
#include "sincos64_core.h"
#include "sincos64_quick.h"

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
 *   S = eval(k, r) ~ sin x and C = eval(k + 64, r) ~ cos x (cos x = sin(x + pi/2):
 *   j + 64), |S - sin x| <= E_s and |C - cos x| <= E_c, E = the eval's bound plus delta
 *   (sincos64_core.h); |S_l| <= e |S_h|, |C_l| <= e |C_h| (e = 2^-53).  The eval is
 *   sc64_eval_quick (sincos64_quick.h) in the pass's loops; the lanes whose rounding
 *   test fails are computed again with sc64_eval (sincos64_core.h), one by one.
 *   Both satisfy what follows.
 * Each of E_s, E_c is at most 2^-35 of its value: the eval's part is relative
 * (sc64_eval: <= 2^-64.7, 2^-52 r^2 with |r| <= 0.01236, plus 2^-78 and 2^-99;
 * sc64_eval_quick: <= 2^-62.5, 4.25 e z + 1.625 e z, z <= 1.528e-4, plus 2^-99 twice), delta is at most
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
/* The quotient Q ~ S/C and its bound (*bound), as derived above; for tan, and for
 * tanpi, whose S and C satisfy the same conditions (tanpi64_lane). */
KD_INLINE kdd_t tan64_quotient(kdd_t S, kdd_t C, double es, double ec, double *bound)
{
    double qh = S.hi / C.hi, rho, m, ql;
    kdd_t p = kd_two_prod(qh, C.hi);
    rho = (S.hi - p.hi) - p.lo;
    m = kd_mul_add(-qh, C.lo, S.lo);
    ql = (rho + m) / C.hi;
    *bound = kd_mul_add(0x1p-100, fabs(qh), (kd_mul_add(fabs(qh), ec, es) / fabs(C.hi)) * (1.0 + 0x1p-18));
    return kd_fast_two_sum(qh, ql);
}

KD_INLINE uint64_t tan64_lane(int large, int clean, int precise, uint64_t b, uint64_t *flag,
                              kdd_t *value, double *bound_out)
{
    uint64_t kbits, differ;
    double delta, es, ec, bound, y;
    kdd_t r = sc64_reduce_lane(large, clean, b, &kbits, &delta), S, C, Q;
    if (precise) {
        S = sc64_eval(kbits, r.hi, r.lo, &es);
        C = sc64_eval(kbits + 64u, r.hi, r.lo, &ec);
    } else {
        S = sc64_eval_quick(kbits, r.hi, r.lo, &es);
        C = sc64_eval_quick(kbits + 64u, r.hi, r.lo, &ec);
    }
    es = es + delta;
    ec = ec + delta;
    Q = tan64_quotient(S, C, es, ec, &bound);
    y = sc64_round(Q, bound, &differ);
    *value = Q;
    *bound_out = bound;
    return sc64_finish_lane(clean, b, y, differ, b, flag);
}

/* ---- tanpi, float64 ----
 * Classes, from the bits of |x| (a), tan(pi x) being odd (computed on ax = |x|, the
 * sign of x applied last):
 *   ordinary, 2^-60 <= a < 2^51: the reduction of trigpi.c's stage_first64 operation
 *     by operation (as tp64_lane in trigpi_pass.h: clamping changes no ordinary ax):
 *     w = 128 (ax - 2q) exact, kd = RNint(w), y = w - kd exact, j = kd mod 256,
 *     r = y pi/128 within 2^-102 |r_h| (sc64_turns_to_radians), so that
 *     sin(pi ax) = sin(j pi/128 + r) and cos(pi ax) = sin((j + 64) pi/128 + r):
 *     S = sc64_eval(j), C = sc64_eval(j + 64), E = the eval's bound + 2^-102 |r_h|,
 *     E_s <= 2^-64 |S| and E_c <= 2^-64 |C| (the eval's bound is relative, and |S| >=
 *     |r| (1 - 2^-12) when j = 0 mod 128, |S| > 0.012 otherwise; likewise C).  The
 *     quotient and its bound as tan's (tan64_quotient); |tan(pi ax)| < 2^53 (tan.c),
 *     |C| > 2^-53: no overflow or underflow.  Exact points, y = 0 and j = 0 mod 64
 *     (ax a multiple of 1/2; S and C are the table's exact 0 and +-1):
 *       j = 0 (ax = 2q, even): +0; j = 128 (ax = 2q +- 1, odd): -0;
 *       j = 64, 192 (ax = n + 1/2): a pole, left to the stages (flag 1), which raise
 *       divide-by-zero; the pass divides by 1 there instead of C = 0.
 *     At ax = n +- 1/4 (y = 0, j = 32 mod 64) S and C are the table's sin and cos of
 *     pi/4 and the computed Q lies within its bound (< 2^-98) of +-1, a double: the
 *     rounding test passes and gives +-1, tan.c's exact value;
 *   big, 2^52 <= a < inf: an integer, +0 if even, -0 if odd (odd only below 2^53, by
 *     its last bit);
 *   +-0: x itself;
 *   left to the stages (flag 1): 0 < a < 2^-60 (their tiny path), 2^51 <= a < 2^52
 *     (multiples of 1/2 outside the reduction's domain), inf, NaN, the poles. */
#define TANPI64_LOW_BITS 0x3c30000000000000u   /* 2^-60 */
#define TANPI64_HIGH_BITS 0x4320000000000000u  /* 2^51 */
#define TANPI64_BIG_BITS 0x4330000000000000u   /* 2^52 */
#define TANPI64_ODD_BITS 0x4340000000000000u   /* 2^53 */
static const double TANPI_SHIFTER = 0x1.8p52;  /* 1.5 2^52 */

KD_INLINE uint64_t tanpi64_lane(uint64_t b, uint64_t *flag)
{
    const uint64_t sign = b & ~(uint64_t)SC64_ABS_MASK;
    uint64_t a = b & SC64_ABS_MASK, ac, differ, j, ordinary, big, is_zero, exact, pole, odd, m, out;
    double y, es, ec, bound, v;
    kdd_t r, S, C, Q;
    ac = a < TANPI64_LOW_BITS ? TANPI64_LOW_BITS : a;
    ac = ac > TANPI64_HIGH_BITS - 1u ? TANPI64_HIGH_BITS - 1u : ac;
    j = sc64_reduce_turns(sc64_from_bits(ac), &y) & 255u;  /* kd mod 256 */
    r = sc64_turns_to_radians(y, 0.0);
    S = sc64_eval(j, r.hi, r.lo, &es);
    C = sc64_eval(j + 64u, r.hi, r.lo, &ec);
    es = kd_mul_add(0x1p-102, fabs(r.hi), es);
    ec = kd_mul_add(0x1p-102, fabs(r.hi), ec);
    exact = (uint64_t)(y == 0.0) & (uint64_t)((j & 63u) == 0);
    pole = exact & (uint64_t)((j & 127u) == 64u);
    /* the poles (C = 0): divide by +-1 instead, a harmless quotient, replaced below */
    C.hi = sc64_from_bits(sc64_to_bits(C.hi) | (SC64_ONE_BITS & (0u - (uint64_t)(C.hi == 0.0))));
    Q = tan64_quotient(S, C, es, ec, &bound);
    v = sc64_round(Q, bound, &differ);
    ordinary = (uint64_t)(a - TANPI64_LOW_BITS < TANPI64_HIGH_BITS - TANPI64_LOW_BITS);
    big = (uint64_t)(a - TANPI64_BIG_BITS < SC64_INF_BITS - TANPI64_BIG_BITS);
    is_zero = (uint64_t)(a == 0);
    odd = (uint64_t)(a < TANPI64_ODD_BITS) & b & 1u;
    m = 0u - (ordinary & (exact ^ 1u));
    out = (sc64_to_bits(v) ^ sign) & m;
    m = 0u - (ordinary & exact);  /* +-0 at integers (the poles are flagged) */
    out |= (((uint64_t)(j == 128u) << 63) ^ sign) & m;
    m = 0u - big;
    out |= ((odd << 63) ^ sign) & m;
    out |= b & (0u - is_zero);
    *flag = (((differ << 1) & (0u - (ordinary & (exact ^ 1u)))) | (ordinary & pole)) |
            ((ordinary | big | is_zero) ^ 1u);
    return out;
}

/* ---- tanpi, float32 ----
 * X = |x| as a double (exact).  ordinary: 2^-149 <= X < 2^23.  nd = RNint(X), t = X -
 * nd: exact, |t| <= 1/2 (trigpi_pass.h, tp32_lane), and tan(pi X) = tan(pi t) =
 * sin(pi t)/cos(pi t), cos(pi t) = sin(pi s), s = 1/2 - |t| >= 0.
 *   s_v = sc32_eval(t): within 620.9 u |sin(pi t)| (sincos32_core.h for an exact
 *     argument: 620.9 u - 3.15 u; below 2^-13 only underflow could add error, and
 *     trigpi_pass.h shows it adds below 2^-1077 relative for |t| >= 2^-149);
 *   c_v = sc32_eval(RN(1/2 - |t|)): the subtraction is exact for X >= 2^-29 (t is then
 *     a multiple of 2^-52, trigpi_pass.h) and errs by at most u relative otherwise,
 *     which moves sin(pi s) by at most u relative (|pi s cot(pi s)| <= 1); so c_v is
 *     within (620.9 - 3.15 + 1.01) u <= 620.9 u of cos(pi t).
 *   q = RN(s_v/c_v): as for tan (tan32_lane), |q - tan(pi t)| < 1243 ulp(q), and the
 *     same rounding test decides; results below 2^-126 (|x| < 2^-127.65) are
 *     subnormal float32 numbers and are left to the stages (flag 1).
 * Exact points: t = 0 (X an integer): +0 if nd is even, -0 if odd; |t| = 1/2 (X = n +
 * 1/2): a pole, left to the stages (flag 1), the pass dividing by 1 instead of 0;
 * |t| = 1/4: s_v and c_v are within 620.9 u of sin(pi/4), q within 1243 ulp(q) of +-1,
 * and the nearest float32 rounding boundary (1 - 2^-25) is far: the test passes and
 * (float)q = +-1.
 * big, 2^23 <= X < inf: an integer, +-0 by parity (odd only below 2^24, its last bit).
 * +-0: x.  Left (flag 1): inf, NaN, the poles, subnormal results. */
#define TANPI32_HIGH_BITS 0x4b000000u  /* 2^23 */
#define TANPI32_ODD_BITS 0x4b800000u   /* 2^24 */

KD_INLINE uint32_t tanpi32_lane(uint32_t b, uint32_t *flag)
{
    const uint32_t sign = b & 0x80000000u;
    uint32_t a = b & TAN32_ABS, ac, ordinary, big, is_zero, zero, pole, small, odd, m, out, qb, dec, und;
    float xf, qf;
    double X, nd, t, sv, cv, q;
    ac = a < 1u ? 1u : a;
    ac = ac > TANPI32_HIGH_BITS - 1u ? TANPI32_HIGH_BITS - 1u : ac;
    memcpy(&xf, &ac, sizeof xf);
    X = (double)xf;
    nd = (X + TANPI_SHIFTER) - TANPI_SHIFTER;
    t = X - nd;
    sv = sc32_eval(t, 0);
    cv = sc32_eval(0.5 - fabs(t), 0);
    zero = (uint32_t)(t == 0.0);
    pole = (uint32_t)(cv == 0.0);
    cv = sc64_from_bits(sc64_to_bits(cv) | (SC64_ONE_BITS & (0u - (uint64_t)(cv == 0.0))));
    q = sv / cv;
    und = sc32_undecided(q, 29);
    qf = (float)q;
    memcpy(&qb, &qf, sizeof qb);
    small = (uint32_t)(fabs(q) < 0x1p-126);
    ordinary = (uint32_t)(a - 1u < TANPI32_HIGH_BITS - 1u);
    big = (uint32_t)(a - TANPI32_HIGH_BITS < TAN32_INF - TANPI32_HIGH_BITS);
    is_zero = (uint32_t)(a == 0);
    odd = (uint32_t)(a < TANPI32_ODD_BITS) & b & 1u;
    m = 0u - (ordinary & (zero ^ 1u));
    out = (qb ^ sign) & m;
    m = 0u - (ordinary & zero);
    out |= (((uint32_t)(sc64_to_bits(nd + TANPI_SHIFTER) & 1u) << 31) ^ sign) & m;
    m = 0u - big;
    out |= ((odd << 31) ^ sign) & m;
    out |= b & (0u - is_zero);
    dec = ordinary & (zero ^ 1u);
    und = dec & ((pole | small) ^ 1u) & und;  /* the test failed on a value it decides */
    *flag = (dec & (pole | small)) | (und << 1) | ((ordinary | big | is_zero) ^ 1u);
    return out;
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

/* The float64 loops, with the quick evaluation; each returns the OR of its flags.
 * restrict: in and out never overlap (the pass's contract), flags is the pass's own. */
#define TAN64_LOOP(NAME, LARGE, CLEAN)                                                     \
    TAN_VECTORIZE static uint64_t NAME(const char *restrict in, char *restrict out, size_t n, \
                                       uint64_t *restrict flags)                           \
    {                                                                                      \
        uint64_t any = 0;                                                                  \
        size_t i;                                                                          \
        for (i = 0; i < n; i++) {                                                          \
            uint64_t b, o;                                                                 \
            kdd_t v;                                                                       \
            double e;                                                                      \
            memcpy(&b, in + 8 * i, sizeof b);                                              \
            o = tan64_lane(LARGE, CLEAN, 0, b, &flags[i], &v, &e);                         \
            memcpy(out + 8 * i, &o, sizeof o);                                             \
            any |= flags[i];                                                               \
        }                                                                                  \
        return any;                                                                        \
    }
TAN64_LOOP(tan64_small, 0, 0)
TAN64_LOOP(tan64_small_clean, 0, 1)
TAN64_LOOP(tan64_large, 1, 0)
TAN64_LOOP(tan64_large_clean, 1, 1)

/* tanpi loops: every output and the OR of the flags; the flags loop (same lanes, the
 * same flags) runs only for a chunk where one is set. */
CRTRIG_PASS_LANE_LOOPS(TAN_VECTORIZE, tanpi32_chunk, uint32_t, 4, uint32_t, tanpi32_lane(b, &f))
CRTRIG_PASS_LANE_LOOPS(TAN_VECTORIZE, tanpi64_chunk, uint64_t, 8, uint64_t, tanpi64_lane(b, &f))

/* First pass of tanpi over count contiguous float32 or float64 inputs (func
 * CRTRIG_TANPI; in and out must not overlap): out[i] for every i and undecided[i] as
 * described at the lanes; returns whether any undecided[i] is nonzero. */
#define TANPI_PASS(FORMAT, CHUNK_FN, SIZE)                                                 \
    int CRTRIG_KERNEL(tanpi_pass_##FORMAT)(int func, const char *in, char *out, size_t count, \
                                           unsigned char *undecided)                       \
    {                                                                                      \
        int any = 0;                                                                       \
        size_t start;                                                                      \
        (void)func;                                                                        \
        for (start = 0; start < count; start += TAN_CHUNK) {                               \
            size_t n = count - start < TAN_CHUNK ? count - start : TAN_CHUNK;              \
            if (CHUNK_FN(in + SIZE * start, out + SIZE * start, n)) {                      \
                CHUNK_FN##_flags(in + SIZE * start, n, undecided + start);                 \
                any = 1;                                                                   \
            } else {                                                                       \
                memset(undecided + start, 0, n);                                           \
            }                                                                              \
        }                                                                                  \
        return any;                                                                        \
    }
TANPI_PASS(float32, tanpi32_chunk, 4)
TANPI_PASS(float64, tanpi64_chunk, 8)

/* The float64 lanes the quick evaluation left, with the precise one (sincos64_quick.h). */
SC64_DEFINE_REFINE(tan64_refine, tan64_lane(0, 1, 1, b, &flags[i], &v, &e),
                   tan64_lane(1, 1, 1, b, &flags[i], &v, &e))

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
    size_t start;
    (void)func;
    for (start = 0; start < count; start += TAN_CHUNK) {
        size_t n = count - start < TAN_CHUNK ? count - start : TAN_CHUNK;
        const char *src = in + 8 * start;
        char *dst = out + 8 * start;
        uint64_t any_large, any_outside, left;
        sc64_chunk_kind(src, n, &any_large, &any_outside);
        if (any_large)
            left = (any_outside ? tan64_large : tan64_large_clean)(src, dst, n, flags);
        else
            left = (any_outside ? tan64_small : tan64_small_clean)(src, dst, n, flags);
        if (left & 2u)
            left = tan64_refine(func, any_large != 0, src, dst, n, flags);
        sc64_store_flags(undecided + start, flags, n, left);
        any |= left;
    }
    return any != 0;
}

/* Test hook: the float64 pass's unrounded Q = *hi + *lo and its bound *e for one
 * finite x with |x| >= 2^-27, through the small (mode bit 0 clear, |x| < 2^17) or the
 * large reduction (bit 0 set), with the quick (bit 1 clear) or the precise evaluation
 * (bit 1 set); returns the lane's flag (0, or 2 when the rounding test fails). */
int CRTRIG_KERNEL(tan64_pass_value)(double x, int mode, double *hi, double *lo, double *e)
{
    uint64_t flag;
    kdd_t v;
    tan64_lane(mode & 1, 1, (mode >> 1) & 1, sc64_to_bits(x), &flag, &v, e);
    *hi = v.hi;
    *lo = v.lo;
    return (int)flag;
}
