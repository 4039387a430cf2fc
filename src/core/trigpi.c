/* sinpi(x) = sin(pi x) and cospi(x) = cos(pi x), correctly rounded into float64,
 * float32, bfloat16 or float16 (IEEE 754-2019 9.2 sinPi, cosPi; C23 sinpi, cospi).
 * One element at a time (the per-element stages: the scalar path, the reference of
 * the SIMD first pass in trigpi_pass.h); compiled once, without FMA, for every
 * SIMD target.
 *
 * Special values (IEEE 754-2019 9.2.1), decided from the reduction, bit for bit:
 *   sinpi(+-0) = +-0; sinpi(+n) = +0, sinpi(-n) = -0 for integers n;
 *   cospi(n + 1/2) = +0 for every integer n (either sign of the input);
 *   cospi(+-0) = 1; +-inf gives the positive quiet NaN and FE_INVALID (raised by
 *   the entry point); NaN gives NaN (quieted) and raises nothing.
 * sinpi is odd, cospi even: both are computed on ax = |x| and sinpi's sign is
 * that of x (so sinpi(-n) = -(+0) = -0).
 *
 * Exact reduction.  For 0 < ax < 2^52 (above, ax is an integer: sinpi(ax) = 0,
 * cospi(ax) = (-1)^ax, the parity from the last significand bit, even from 2^53):
 *   q  = RNint(ax/2)            (shifter 1.5 2^52: |ax/2| < 2^51; ax/2 exact but for
 *                                subnormal ax, where q = 0 anyway);
 *   r2 = ax - 2q, |r2| <= 1     exact: for ax >= 2, ax and 2q are multiples of
 *                                ulp(ax) <= 2^-1 and |r2| <= 1 <= 2^53 ulp(ax);
 *                                for ax < 2, q is 0 or 1 and ax - 2 is exact
 *                                (Sterbenz, 1 <= ax < 2 when q = 1);
 *   m  = 2 r2                   exact (|m| <= 2);
 *   n  = RNint(m), f = m - n    exact, |f| <= 1/2 (Sterbenz when n != 0);
 *   t  = f/2                    exact: when n = 0, f = m = 2 r2 and f/2 = r2; when
 *                                n != 0, |m| >= 1/2 and f is a multiple of
 *                                ulp(m) >= 2^-53, so nothing is lost.
 * So ax = 2q + n/2 + t exactly, |t| <= 1/4, and with k = n (+1 for cospi) mod 4:
 *   f(ax) = sin(pi t), cos(pi t), -sin(pi t), -cos(pi t)   for k = 0, 1, 2, 3.
 * t = 0 exactly when x is a multiple of 1/2: f is then 0 or +-1, exactly (the
 * special values above).  Otherwise sin(pi t) and cos(pi t) are irrational
 * (Niven's theorem: for rational t, sin(pi t) is rational only when it is 0,
 * +-1/2 or +-1, and the t giving +-1/2 are not dyadic), so never a rounding
 * boundary, and each Ziv loop below terminates.  Every bound below is relative
 * to |f(x)|: the reduction is exact, so results near the zeros of f (x near an
 * integer for sinpi, near n + 1/2 for cospi) are decided like any other.
 * |t| is at least 2^-149 for float32 (and narrower) values (t is a multiple of
 * 2^-149 then) and at least 2^-60 for the float64 inputs the stages see (t = ax
 * when n = 0, and below 2^-60 the tiny path runs; when n != 0, t is a multiple of
 * 2^-54).
 *
 * Stages (Ziv), each with a proven bound; rounding both ends decides when they agree:
 *   tiny    float64, ax < 2^-60: sin(pi ax) = pi ax (1 - d), 0 < d < 2^-119.2,
 *           pi ax in double-double (scaled by 2^200 below 2^-969, then rounded
 *           into the subnormal range exactly): relative 2^-102.8;
 *   0       float64: the float64 first-pass core of sin/cos (sincos64_core.h,
 *           sc64_eval: sin(j pi/128 + r) from its double-double table), with
 *           ax (mod 2) 128 = kd + y exactly and r = y pi/128: about 2^-70 relative;
 *           narrower formats: crtrig_sincospi_d in double, 3.8u relative;
 *   1       double-double: crtrig_sincospi_dd, 3.6 2^-103 relative;
 *   2       multi-precision: fixed point (mpfix.c), pi by Machin, 128 bits doubling.
 */
#include <math.h>
#include <string.h>
#include "dd.h"
#include "fpformat.h"
#include "mpfix.h"
#include "sincospi.h"
#include "trigpi.h"

/* This file is compiled once for all targets: plain products (Dekker), no fma(). */
#define CRTRIG_KERNEL_FMA 0
#include "sincos64_core.h"

enum { PI_MULTI_DEFAULT_BITS = 128, PI_MULTI_MAX_BITS = 1 << 14 };
/* The workspace (shared with sin/cos when they allocated it first, which is
 * larger) must hold PI_MULTI_MAX_BITS fraction bits. */
enum { PI_MULTI_WORKSPACE_BITS = PI_MULTI_MAX_BITS + 64 };

static const double SHIFTER = 0x1.8p52;            /* 1.5 2^52 */
/* pi as a double-double (CRTRIG_SINPI_C[0]): |PI_H + PI_L - pi| <= 2^-106 pi. */
static const double PI_H = 0x1.921fb54442d18p+1, PI_L = 0x1.1a62633145c07p-53;

/* The reduction above: returns k (the quadrant, cospi's shift included) and *t.
 * Also tanpi's (tan.c: with use_cos = 0, tan(pi ax) = tan(pi t) for even k,
 * -cot(pi t) for odd k). */
int crtrig_trigpi_reduce(int use_cos, double ax, double *t)
{
    double q = (ax * 0.5 + SHIFTER) - SHIFTER;
    double m = 2.0 * (ax - 2.0 * q);
    double n = (m + SHIFTER) - SHIFTER;
    *t = 0.5 * (m - n);
    return ((int)n + 4 + use_cos) & 3;
}

/* Stage 0, narrower formats (float32 values).  t exact, 2^-149 <= |t| <= 1/4:
 * crtrig_sincospi_d errs by 3.72u (sin) or 3.32u (cos) relative with t exact
 * (sincospi.c: its totals without the row for the rounding of t); no underflow
 * for |t| >= 2^-150.7 (sincospi.c).  y - e and y + e round once more each
 * (<= u |y| (1 + 2^-49)), and |exact| <= |y| (1 + 2^-50):
 * e = |y| 2^-49 = 16u |y| covers 3.72u (1 + 2^-50) |y| + u |y| (1.01).  */
static int stage_double(int k, double t, crtrig_dtype fmt, double *result)
{
    double y = crtrig_sincospi_d(k & 1, t);
    if (k & 2)
        y = -y;
    return crtrig_decide_d(y, fabs(y) * 0x1p-49, fmt, result);
}

/* Stage 0, float64: 2^-60 <= ax < 2^52 (not a multiple of 1/2).
 *   r2 as in reduce_pi (|r2| <= 1, exact); w = 128 r2 (exact, |w| <= 128);
 *   kd = RNint(w), y = w - kd (exact: |y| <= 1/2; when kd != 0, |w| >= 1/2 and
 *   w, kd are multiples of ulp(w) >= 2^-53, so |y| >= 2^-53 or y = 0; when kd = 0,
 *   y = w = 128 ax >= 2^-53).  Then pi r2 = kd pi/128 + y pi/128 exactly, and with
 *   j = kd + 64 (cospi: cos(z) = sin(z + pi/2)) mod 256,
 *     f(ax) = sin(j pi/128 + r),  r = y pi/128.
 *   sc64_turns_to_radians(y, 0) gives r_h + r_l with error <= 2^-103.3 |r_h|
 *   (sincos64_core.h with y_rest = 0, a = 0), |r_h| <= (1/2) pi/128 (1 + 2^-52)
 *   < rho = 0.01236, |r_l| <= e |r_h|, and |r_h| >= 2^-53 pi/128 (1 - 2^-52) >
 *   2^-58.4 or r_h = 0, inside sc64_eval's domain (r_h = 0 or |r_h| >= 2^-67.5: no
 *   underflow).  sc64_eval's bound plus delta = 2^-102 |r_h| (>= 2^-103.3 |r_h|;
 *   f is 1-Lipschitz in r) bounds |R - f(ax)|, and sc64_round decides on it
 *   exactly as for sin (the bound includes its needs; sincos64_core.h).  The
 *   bound is relative to f: near a zero of f, S_h = 0 and only the |r| terms
 *   remain (sincos64_core.h).  Returns 0 when the two roundings differ. */
static int stage_first64(int use_cos, double ax, double *result)
{
    double q = (ax * 0.5 + SHIFTER) - SHIFTER;
    double w = 128.0 * (ax - 2.0 * q);
    double kd = (w + SHIFTER) - SHIFTER;
    double y = w - kd, bound, v;
    uint64_t j = ((uint64_t)(int64_t)kd + (use_cos ? 64u : 0u)) & 255u, differ;
    kdd_t r = sc64_turns_to_radians(y, 0.0);
    kdd_t R = sc64_eval(j, r.hi, r.lo, &bound);
    bound = bound + 0x1p-102 * fabs(r.hi);
    v = sc64_round(R, bound, &differ);
    if (differ)
        return 0;
    *result = v;
    return 1;
}

/* Stage 1: t exact, 2^-149 <= |t| <= 1/4 (2^-60 for float64).  crtrig_sincospi_dd
 * errs by 3.03 e (sin), 3.37 e (cos) relative for exact t (e = 2^-103; sincospi.c),
 * with nothing underflowing for |t| >= 2^-150.7 (sincospi.c: every product above
 * 2^-330).  So |y - f| <= 3.4 e |f| <= 3.41 e |y.hi|, and the ends y -+ e' with
 * e' = |y.hi| 2^-99 = 16 e |y.hi| cover it and both dd_add_d roundings
 * (2^-103 (|y| + e') <= 1.01 e |y.hi|).  |y.hi| >= 2^-149 * 2.8 > 2^-1021 (sin(pi t)
 * >= 2.8 t for |t| <= 1/4), so crtrig_round_dd's float64 condition holds. */
static int stage_double_double(int k, double t, crtrig_dtype fmt, double *result)
{
    dd_t y = crtrig_sincospi_dd(k & 1, dd_make(t, 0.0));
    if (k & 2) {
        y.hi = -y.hi;
        y.lo = -y.lo;
    }
    return crtrig_decide_dd(y, fabs(y.hi) * 0x1p-99, fmt, result);
}

/* (hi + lo) 2^-200 rounded to nearest-even into float64 (subnormals included),
 * for 0 < hi = RN(hi + lo) <= 2^-822 (the result is at most 2^-1022): its quantum
 * is 2^-1074, i.e. 2^-874 before scaling.  A = hi 2^874 and B = lo 2^874 are exact
 * (scaling up), 0 < A <= 2^52, |B| <= ulp(hi) 2^873 <= 1/2 (ulp(hi) <= 2^-874).
 * N = RNint(A) (shifter 2^52: 2^52 <= A + 2^52 <= 2^53, where the ulp is 1 and 2^53 is
 * reached only by A = 2^52 exactly), D = A - N exact, |D| <= 1/2.
 * If |D| < 1/2: A is a multiple of ulp(hi) 2^874, so |D| <= 1/2 - ulp(hi) 2^874 and
 * |D + B| < 1/2 (or D = 0, |B| <= 1/2: |B| = 1/2 is a tie, to even): N, or the even
 * one of N and N +- 1.  If |D| = 1/2 (then ulp(hi) 2^874 <= 1/2, |B| <= 1/4): the
 * side of the midpoint is B's sign (B = 0: the tie N, even by RNint).  The result
 * N 2^-1074 (N <= 2^52) is exact. */
static double round_scaled_subnormal(double hi, double lo)
{
    double A = hi * 0x1p874, B = lo * 0x1p874;
    double N = (A + 0x1p52) - 0x1p52, D = A - N;
    if (D == 0.5 || D == -0.5) {
        if (B > 0.0)
            N = A + 0.5;
        else if (B < 0.0)
            N = A - 0.5;
    } else if (D == 0.0 && (B == 0.5 || B == -0.5)) {
        double other = N + (B > 0.0 ? 1.0 : -1.0);
        if (fmod(N, 2.0) != 0.0)
            N = other;
    }
    return N * 0x1p-1074;
}

/* Tiny float64 sinpi: 0 < ax < 2^-60.  sin(pi ax) = pi ax (1 - d) with
 * 0 < d < (pi ax)^2/6 < 1.65 2^-120 < 2^-119.2.  (tan.c uses it for tanpi too:
 * tan(pi ax) = pi ax (1 + d) with 0 < d < (pi ax)^2/3 (1 + 2^-100) < 2^-118.2,
 * which changes nothing below: 2^-103 + 2^-106 + 2^-118.2 <= 1.126 2^-103.)  X = ax 2^s (s = 200 below 2^-969,
 * else 0: exact, X >= 2^-969, so every product below is above 2^-969 and
 * dd_two_prod is exact); P = dd_mul_d((PI_H, PI_L), X) errs by <= 2^-103 pi X
 * (dd.h) and the constant by 2^-106 pi X: |P - sin(pi ax) 2^s| <= pi X (2^-103 +
 * 2^-106 + 2^-119.2) <= 1.126 2^-103 pi X <= 2^-102.8 |P.hi| (1 + 2^-50).
 * e = |P.hi| 2^-99 covers that and the two dd_add_d roundings (<= 1.01 2^-103 |P|).
 * s = 0: pi ax >= pi 2^-969, decide_dd's float64 condition holds.
 * s = 200: the ends (positive: e < |P|/2) scaled back by 2^-200: when hi_end.hi
 * exceeds 2^-822 both ends lie above 2^-1022 (lo_end >= P (1 - 2^-98)) only if
 * lo_end.hi > 2^-822 too; otherwise round_scaled_subnormal rounds an end at or
 * below 2^-822, and an end above it is rounded by crtrig_round_dd (|hi| >=
 * 2^-822 in the scaled range: its half gap is exact) and scaled back exactly
 * (the result is a normal double, at least 2^-1022).  Rounding is monotone in
 * both forms and they agree at 2^-822 (= 2^-1022 scaled, exact), so equal
 * roundings of the two ends decide. */
static double round_scaled(dd_t v)
{
    if (v.hi <= 0x1p-822)
        return round_scaled_subnormal(v.hi, v.lo);
    return crtrig_round_dd(v.hi, v.lo, CRTRIG_FLOAT64) * 0x1p-200;
}

int crtrig_trigpi_tiny(double ax, double *result)
{
    const int scaled = ax < 0x1p-969;
    const double X = scaled ? ax * 0x1p200 : ax;
    dd_t P = dd_mul_d(dd_make(PI_H, PI_L), X);
    double e = fabs(P.hi) * 0x1p-99, lo, hi;
    if (!scaled)
        return crtrig_decide_dd(P, e, CRTRIG_FLOAT64, result);
    lo = round_scaled(dd_add_d(P, -e));
    hi = round_scaled(dd_add_d(P, e));
    if (lo != hi)
        return 0;
    *result = lo;
    return 1;
}

/* Stage 2: fixed point with F fraction bits (mpfix.h; ulp = 2^-F; F is bits rounded
 * up to a multiple of 32, as the workspace lays numbers out in whole limbs), for any
 * 0 < |t| <= 1/4 (t exact, any double):
 *   T = floor(|t| 2^F) (exact if |t| is a multiple of 2^-F; else truncated): < 1 ulp;
 *   pi with error <= Epi ulps (mpfix_pi);
 *   a = floor(pi T / 2^F) (mpfix_mul): |a - pi |t|| <= 1 + Epi |t| + pi 1 < Epi + 5 ulps
 *       (|t| <= 1/4), and a <= pi/4 + 2^-20 (F >= 128);
 *   y = sin(a) or cos(a) (mpfix_sincos_fixed, a taken as exact, error Es ulps;
 *       sin, cos are 1-Lipschitz): |y - |f|| <= Es + Epi + 5 ulps = err, absolute.
 * mpfix_round_interval rounds both ends exactly (subnormal results included).
 * The bound is absolute: a result near 2^-62 keeps F - 62 bits; F doubles until
 * decided, which happens since f is never a rounding boundary (above) and err
 * shrinks like 2^-F; a subnormal float64 t (forced here by a test, or from the
 * tiny path) decides once F exceeds 1074 + 53 + its hardness (F = 2048 for the
 * published subnormal worst cases).  The cap is a bug if reached (CRTRIG_ENOCONV). */
static int stage_multi(int k, double t, crtrig_dtype fmt, int start_bits, crtrig_trig_task *task,
                       double *result)
{
    mpfix_ctx *ctx = &task->workspace;
    const double at = fabs(t);
    const int use_cos = k & 1;
    const int negative = ((k & 2) != 0) ^ (!use_cos && t < 0.0);
    int bits, exponent;
    uint64_t mantissa;
    /* at = mantissa 2^(exponent - 53), mantissa < 2^53: exact (frexp, ldexp). */
    mantissa = (uint64_t)ldexp(frexp(at, &exponent), 53);
    if (!ctx->pool && mpfix_ctx_init(ctx, PI_MULTI_WORKSPACE_BITS) != 0)
        return CRTRIG_ENOMEM;
    for (bits = start_bits; bits <= PI_MULTI_MAX_BITS; bits *= 2) {
        uint32_t *T, *pi, *a, *y, *err, *lo, *hi;
        uint64_t e_pi, e_sc;
        int shift;
        double magnitude;
        if (mpfix_ctx_set_precision(ctx, bits) != 0)
            return CRTRIG_EINVAL;  /* cannot happen: the workspace covers the cap */
        shift = exponent - 53 + 32 * (ctx->n - 1);  /* F: bits rounded up to whole limbs */
        T = mpfix_user(ctx, 0);
        pi = mpfix_user(ctx, 1);
        a = mpfix_user(ctx, 2);
        y = mpfix_user(ctx, 3);
        err = mpfix_user(ctx, 4);
        lo = mpfix_user(ctx, 5);
        hi = mpfix_user(ctx, 6);
        if (shift >= 0)
            mpfix_set_ulps_pow2(T, ctx->n, mantissa, shift);
        else
            mpfix_set_ulps_pow2(T, ctx->n, -shift < 64 ? mantissa >> -shift : 0u, 0);
        e_pi = mpfix_pi(ctx, pi);
        mpfix_mul(ctx, a, pi, T);
        e_sc = mpfix_sincos_fixed(ctx, y, use_cos, a);
        mpfix_set_ulps_pow2(err, ctx->n, e_sc + e_pi + 5u, 0);
        if (mpfix_round_interval(ctx, y, err, lo, hi, fmt, &magnitude)) {
            *result = negative ? -magnitude : magnitude;
            return CRTRIG_OK;
        }
        if (task->counts)
            task->counts->multi_retries++;
    }
    return CRTRIG_ENOCONV;
}


int crtrig_trigpi_value(crtrig_trig_func func, double x, crtrig_dtype fmt, int first_stage,
                        crtrig_trig_task *task, double *result)
{
    const int use_cos = func == CRTRIG_COSPI;
    uint64_t bits;
    double ax, t, v = 0.0;
    int k, negate, rc = CRTRIG_OK;
    memcpy(&bits, &x, sizeof bits);
    if (((bits >> 52) & 0x7ffu) == 0x7ffu) {  /* inf or NaN, as crtrig_trig_value */
        if (bits << 12) {
            bits |= (uint64_t)1 << 51;
        } else {
            bits = (uint64_t)0x7ff8 << 48;
            task->raise_flags |= CRTRIG_FLAG_INVALID;
        }
        memcpy(result, &bits, sizeof bits);
        crtrig_count_stage(task, -1);
        return CRTRIG_OK;
    }
    ax = fabs(x);
    negate = !use_cos && (bits >> 63);  /* sinpi odd, cospi even */
    if (ax >= 0x1p52) {                 /* an integer: parity from the last bit */
        int odd = ax < 0x1p53 && (bits & 1u);
        *result = use_cos ? (odd ? -1.0 : 1.0) : (negate ? -0.0 : 0.0);
        crtrig_count_stage(task, -1);
        return CRTRIG_OK;
    }
    if (ax == 0.0) {
        *result = use_cos ? 1.0 : x;
        crtrig_count_stage(task, -1);
        return CRTRIG_OK;
    }
    /* cospi: for 0 < ax < 2^-29, 0 < 1 - cos(pi ax) < (pi ax)^2/2 < pi^2 2^-59
     * < 2^-55.7, below half the gap under 1 in every format (2^-54 for float64):
     * RN = 1.  Not for a forced multi-precision stage, which is right here too. */
    if (use_cos && ax < 0x1p-29 && first_stage < CRTRIG_STAGE_MULTI) {
        *result = 1.0;
        crtrig_count_stage(task, -1);
        return CRTRIG_OK;
    }
    k = crtrig_trigpi_reduce(use_cos, ax, &t);
    if (t == 0.0) {  /* x a multiple of 1/2: 0 or +-1 exactly; a zero is +0 */
        v = (k & 1) ? ((k & 2) ? -1.0 : 1.0) : 0.0;
        *result = negate ? -v : v;
        crtrig_count_stage(task, -1);
        return CRTRIG_OK;
    }
    if (first_stage < CRTRIG_STAGE_MULTI) {
        if (fmt == CRTRIG_FLOAT64 && !use_cos && ax < 0x1p-60) {
            if (crtrig_trigpi_tiny(ax, &v)) {  /* a double-double evaluation: counted as such */
                crtrig_count_stage(task, CRTRIG_STAGE_DOUBLE_DOUBLE);
                goto done;
            }
        } else if (fmt == CRTRIG_FLOAT64) {
            if (first_stage <= CRTRIG_STAGE_DOUBLE && stage_first64(use_cos, ax, &v)) {
                crtrig_count_stage(task, CRTRIG_STAGE_DOUBLE);
                goto done;
            }
            if (stage_double_double(k, t, fmt, &v)) {
                crtrig_count_stage(task, CRTRIG_STAGE_DOUBLE_DOUBLE);
                goto done;
            }
        } else {
            if (first_stage <= CRTRIG_STAGE_DOUBLE && stage_double(k, t, fmt, &v)) {
                crtrig_count_stage(task, CRTRIG_STAGE_DOUBLE);
                goto done;
            }
            if (stage_double_double(k, t, fmt, &v)) {
                crtrig_count_stage(task, CRTRIG_STAGE_DOUBLE_DOUBLE);
                goto done;
            }
        }
    }
    crtrig_count_stage(task, CRTRIG_STAGE_MULTI);
    rc = stage_multi(k, t, fmt, task->multi_bits > 0 ? task->multi_bits : PI_MULTI_DEFAULT_BITS,
                     task, &v);
    if (rc != CRTRIG_OK)
        return rc;
done:
    *result = negate ? -v : v;
    return CRTRIG_OK;
}
