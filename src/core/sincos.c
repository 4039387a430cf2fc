/* sin and cos of doubles, correctly rounded into float64, float32, bfloat16
 * or float16 (ONNX Sin-22 / Cos-22).  float16, bfloat16 and float32 inputs are
 * float32 values held in a double; float64 inputs are any double.
 *
 * Range reduction (reduce.c) gives
 *   x (2/pi) = n + 2t,  |t| <= 1/4 + 2^-30,
 * and with k = n + (1 for cos) mod 4:
 *   f(x) = sin(pi t), cos(pi t), -sin(pi t), -cos(pi t)   for k = 0, 1, 2, 3.
 * sin is odd (sin(-x) = -sin(x), +-0 kept), cos even.
 *
 * Stages (Ziv), each with a proven bound e >= |y - f(x)|; rounding both ends
 * of [y - e, y + e] (monotone) decides when they agree:
 *   0 double:          Cody-Waite reduction for |x| < 2^24, Payne-Hanek above
 *                      (float32 and narrower formats only; for float64, stage 0
 *                      is the vectorized first pass of the array kernel, and
 *                      here it means "start at double-double");
 *   1 double-double:   t = x/pi for |x| <= pi/4, Payne-Hanek (256 bits of 2/pi)
 *                      above; error <= 2^-100.9 |f(x)|, relative for every
 *                      double, even next to multiples of pi/2;
 *   2 multi-precision: fixed point, bit-serial reduction, 128 bits, doubling.
 * There is no exact case to worry about: sin(x) and cos(x) are transcendental
 * for every nonzero rational x (Lindemann), so never a rounding boundary, and
 * the loop terminates; x = 0 is handled exactly.
 *
 * Tiny float64 inputs are exact shortcuts (derived at SIN_IS_X_BELOW below):
 * RN(sin x) = x for |x| < 0x1.7137449123ef7p-26, RN(cos x) = 1 for
 * |x| < 0x1.6a09e667f3bcdp-27, subnormals included.  So no stage ever runs on
 * a float64 input below 2^-26.5 (except when a test forces stage 2, which is
 * correct for every double), and no float64 result is subnormal or needs a
 * subnormal intermediate: the zeros of sin and cos are the multiples of pi/2,
 * so for |x| >= 2^-26.5, |f(x)| >= sin(min(|x|, |x - k pi/2|)), at least
 * sin(2^-26.5) for |x| < 1 and sin(2^-60.9) > 2^-61 above (reduce.c).
 *
 * Domains of the double-double operations (dd.h: two_prod is exact when the
 * product is above 2^-969 and the operands below 2^995).  The stage receives
 * |x| >= 2^-149 (float32 values) or |x| >= 2^-26.5 (float64, after the
 * shortcuts).  x itself enters a product only in dd_mul_d(1/pi, x) for
 * |x| <= pi/4 (a product above 2^-151).  Then |t| >= 2^-150.7 (x/pi) or
 * |t| >= 2^-62.55 (Payne-Hanek), |t| <= 1/4 + 2^-30; z = t^2 >= 2^-302; every
 * polynomial value p in crtrig_sincospi_dd has |p| >= 2^-24 (p_k = c_k +
 * z p_(k+1) with |z p_(k+1)| <= |c_k|/2, as z <= 1/16, |c_(k+1)/c_k| <= pi^2/2
 * and inductively |p_(k+1)| <= 1.5 |c_(k+1)|; the smallest |c_k| reached is
 * |c_8| > 2^-21 for sin, |c_9| > 2^-23 for cos).  So every two_prod (t t,
 * z p, t p, 1/pi x) has a product above 2^-330 (above 2^-150 for float64
 * inputs) and below 4.  The cross terms
 * (a hi part times a lo part) are rounded products whose error dd.h's bounds
 * already count; one of them could only underflow if a lo part were below
 * 2^-600 times its hi part (2^-770 for float64 inputs), i.e. if the low-order
 * sum of a dd operation cancelled to 600 bits; even then its error (< 2^-1075
 * absolute) is far inside the bounds.
 *
 * Flags: the entry points run all of this in round-to-nearest and restore
 * the caller's environment afterwards (fpenv.h), so flags raised inside are
 * discarded; an infinite input is recorded in the task, and the entry point
 * raises FE_INVALID for it in the caller's environment.  The evaluation does
 * not rely on that: it raises no flag numpy reads for a finite input.  NaN and
 * infinity are recognized from the bits (no comparison touches a NaN), the
 * reductions use integers and exact conversions only, and the double and
 * double-double stages stay in the normal range (above).
 * (crtrig_trig_values_raw, a test hook without the environment switch, lets
 * tests/test_sincos64.py check this.)
 */
#include <math.h>
#include <string.h>
#include "crtrig/crtrig.h"
#include "dd.h"
#include "fpenv.h"
#include "fpformat.h"
#include "mpfix.h"
#include "reduce.h"
#include "reduce_small.h"
#include "sincos.h"
#include "sincospi.h"
#include "tan.h"
#include "trigpi.h"

enum { MULTI_DEFAULT_BITS = 128, MULTI_MAX_BITS = 1 << 14 };
/* The workspace serves every precision the loop can reach: F <= MULTI_MAX_BITS
 * fraction bits plus crtrig_reduce_fixed_bits's margin, max(e, 1) + 24 for
 * x < 2^e, where e <= 1024 for every double (about 37 KB, allocated only when
 * the multi-precision stage runs). */
enum { MULTI_WORKSPACE_BITS = MULTI_MAX_BITS + 1024 + 24 };
/* Largest float32: the element hooks refuse larger finite doubles for the
 * float16, bfloat16 and float32 formats. */
static const double FLOAT32_MAX = 0x1.fffffep127;

/* pi/4 rounded down to a float32-representable bound: |x| <= this uses t = x/pi. */
static const double PI_OVER_4_BOUND = 0x1.921fb4p-1;
/* 1/pi as a double-double: |INV_PI_HI + INV_PI_LO - 1/pi| <= ulp(INV_PI_LO)/2
 * = 2^-109 <= 2^-107.3 (1/pi). */
static const double INV_PI_HI = 0x1.45f306dc9c883p-2, INV_PI_LO = -0x1.6b01ec5417056p-56;

/* Tiny float64 inputs (tools/gen_reduction_constants.py prints these;
 * tests/test_sincos64.py checks them and their predecessors against MPFR).
 *
 * sin: RN(sin x) = x exactly when |x| < SIN_IS_X_BELOW.  For 0 < x,
 *   x - x^3/6 < sin x < x, and x - sin x is increasing.  RN(sin x) = x iff
 *   x - sin x is below half the gap under x (never equal: sin x is irrational).
 *   - x in [2^e, 2^(e+1)) with e <= -27, not a power of two: half-gap
 *     2^(e-53) (or more, for subnormals, whose gap is 2^-1074 >= 2^(e-52)), and
 *     x^3/6 < 2^(3e+3)/6 <= 2^(e-53) iff 2^(2e+56) <= 6: true for e <= -27.
 *   - x = 2^e, e <= -26: half-gap 2^(e-54) (2^-1075 for subnormal powers), and
 *     x^3/6 = 2^(3e)/6 <= 2^(e-54) iff 2^(2e+54) <= 6: true for e <= -26.
 *   - x in (2^-26, 2^-25): half-gap 2^-79; x - sin x < 2^-79 exactly for
 *     x < tau, the root of x - sin x = 2^-79 (tau = 2^-25.47, between the
 *     doubles 0x1.7137449123ef6p-26 and SIN_IS_X_BELOW).  At and above
 *     SIN_IS_X_BELOW, RN(sin x) != x, so this threshold is exact.
 * cos: RN(cos x) = 1 exactly when |x| < COS_IS_1_BELOW.  The gap below 1 is
 *   2^-53, and 1 - cos x (in (0, x^2/2)) is increasing on (0, pi): RN(cos x) = 1
 *   iff 1 - cos x < 2^-54, i.e. iff x < tau', the root of 1 - cos x = 2^-54
 *   (2^-26.5 (1 + 2^-56.4), just below the double COS_IS_1_BELOW). */
static const double SIN_IS_X_BELOW = 0x1.7137449123ef7p-26;
static const double COS_IS_1_BELOW = 0x1.6a09e667f3bcdp-27;

/* Stage 0 (float32 values only).  ax = |x| > 0.  The evaluation itself errs
 * by < 3.8u relative (sincospi.h); the relative error u of t adds at most u
 * (sin) or (pi/4) u (cos); the absolute error a of t adds at most pi a
 * (|d/dt| <= pi).
 *   |ax| < 2^24:  a = ax 2^-84 (reduce_small.h):  e = 4.8u |y*| + pi ax 2^-84
 *   otherwise:    t = RN(Payne-Hanek t): relative u + 2^-105, absolute
 *                 2^-201.9 <= a = 2^-103:          e = 4.8u |y*| + pi 2^-103
 * With |y*| <= |y| (1 + 2^-50) and room for rounding both endpoints
 * (ulp(y)/2 <= 2^-53 |y|) and for forming e: e' = |y| 2^-49 + ax 2^-82 or
 * |y| 2^-49 + 2^-100 (4.8u + 2^-53 < 2^-49.8, pi 2^-84 < 2^-82.3). */
static int stage_double(int k, double ax, crtrig_dtype fmt, double *result)
{
    int quadrant;
    double t, y, e;
    if (ax < 0x1p24) {
        uint64_t n_bits;
        t = crtrig_reduce_small(ax, &n_bits);
        quadrant = (int)(n_bits & 3u);
        e = ax * 0x1p-82;
    } else {
        t = crtrig_reduce_large_dd(ax, &quadrant).hi;
        e = 0x1p-100;
    }
    k = (k + quadrant) & 3;
    y = crtrig_sincospi_d(k & 1, t);
    if (k & 2)
        y = -y;
    e += fabs(y) * 0x1p-49;
    return crtrig_decide_d(y, e, fmt, result);
}

/* Stage 1, the value.  ax = |x| with 2^-149 <= ax < 2^1024 (see the domains
 * above).  e = 2^-103 bounds each dd operation (dd.h).
 *   |x| <= pi/4: t = dd_mul_d(1/pi, ax): relative error <= 2^-103 (dd_mul_d)
 *     + 2^-107.3 (the constant) <= 1.05 e, quadrant 0.
 *   otherwise: Payne-Hanek, relative error <= 2^-104.99 <= 0.252 e for every
 *     double (reduce.h: relative even next to multiples of pi/2).
 * crtrig_sincospi_dd errs by 3.03 e (sin) or 3.37 e (cos) relative, its table's
 * totals without the row for the error of t; a relative error d of t moves
 * sin(pi t) by <= d and cos(pi t) by <= (pi/4) d relative (sincospi.c).
 *   sin: 3.03 e + 1.05 e = 4.08 e;  cos: 3.37 e + (pi/4) 1.05 e = 4.20 e
 * (the Payne-Hanek rows are smaller: 3.29 e, 3.57 e), second-order terms
 * below 0.01 e: |y - f(x)| <= 4.21 e |f(x)|.  In terms of the computed y
 * (|f| <= |y| (1 + 2^-100), |y.hi| >= |y| (1 - 2^-53)):
 *   |y - f(x)| <= DD_STAGE_BOUND |y.hi|,  DD_STAGE_BOUND = 4.25 e = 0x1.1p-101.
 * The bound is relative to f(x): tiny results (x next to a multiple of pi/2)
 * are decided like any other. */
static const double DD_STAGE_BOUND = 0x1.1p-101;

static dd_t stage_double_double_value(int k, double ax)
{
    int quadrant = 0;
    dd_t t, y;
    if (ax <= PI_OVER_4_BOUND)
        t = dd_mul_d(dd_make(INV_PI_HI, INV_PI_LO), ax);
    else
        t = crtrig_reduce_large_dd(ax, &quadrant);
    k = (k + quadrant) & 3;
    y = crtrig_sincospi_dd(k & 1, t);
    if (k & 2) {
        y.hi = -y.hi;
        y.lo = -y.lo;
    }
    return y;
}

/* Stage 1.  The endpoints y -+ e' with e' = |y.hi| 2^-99 = 16 e |y.hi| cover
 * the evaluation bound (4.25 e |y.hi|) and both dd_add_d roundings
 * (2^-103 (|y| + e') <= 1.01 e |y|): 5.3 e |y| < 16 e |y.hi|.  (|y.hi| 2^-99 is
 * exact: |y| >= 2^-160.) */
static int stage_double_double(int k, double ax, crtrig_dtype fmt, double *result)
{
    dd_t y = stage_double_double_value(k, ax);
    return crtrig_decide_dd(y, fabs(y.hi) * 0x1p-99, fmt, result);
}

/* Stage 2: fixed point at P = crtrig_reduce_fixed_bits(F, ax) fraction bits,
 * for every double ax > 0, in the task's workspace (allocated here on first
 * use, for every precision the loop can reach, so at most once per task).
 * err = reduction error (reduce.c, < 2^-F plus a few
 * ulps) + series error (mpfix.c), in ulps of 2^-P: an absolute bound on
 * |y - |f(x)||, and mpfix_round_interval rounds both ends of [y - err, y + err]
 * (exactly, subnormal results included).  The bound is absolute, so a result
 * near 2^-61 (a float64 x next to a multiple of pi/2) keeps only F - 61 bits at
 * first; F doubles until the rounding is decided, which happens because f(x)
 * is never a rounding boundary (transcendental) and err shrinks like 2^-F.
 * The hardest known float64 inputs (68 bits after the rounding bit, at
 * f(x) > 2^-62) need about 190 fraction bits; a subnormal x (only when a test
 * forces this stage) is truncated to 0 until P > 1074 and decides at
 * F = 2048.  The cap MULTI_MAX_BITS is far beyond all of this: reaching it is
 * a bug (CRTRIG_ENOCONV). */
static int stage_multi(int k, double ax, crtrig_dtype fmt, int start_bits,
                       crtrig_trig_task *task, double *result)
{
    mpfix_ctx *ctx = &task->workspace;
    int bits;
    if (!ctx->pool && mpfix_ctx_init(ctx, MULTI_WORKSPACE_BITS) != 0)
        return CRTRIG_ENOMEM;
    for (bits = start_bits; bits <= MULTI_MAX_BITS; bits *= 2) {
        uint32_t *r, *err, *y, *lo, *hi;
        int quadrant, negate_offset, use_cos, negative, octant_k, decided;
        double magnitude;
        if (mpfix_ctx_set_precision(ctx, crtrig_reduce_fixed_bits(bits, ax)) != 0)
            return CRTRIG_EINVAL;  /* cannot happen: the workspace covers every double */
        r = mpfix_user(ctx, 0);
        err = mpfix_user(ctx, 1);
        y = mpfix_user(ctx, 2);
        lo = mpfix_user(ctx, 3);
        hi = mpfix_user(ctx, 4);
        crtrig_reduce_fixed(ctx, ax, r, err, &quadrant, &negate_offset);
        octant_k = (k + quadrant) & 3;
        use_cos = octant_k & 1;
        mpfix_add_ulps(err, ctx->n, mpfix_sincos_fixed(ctx, y, use_cos, r));
        /* f = +-sin(r) or +-cos(r); sin(-r) = -sin(r). */
        negative = ((octant_k & 2) != 0) ^ (!use_cos && negate_offset);
        decided = mpfix_round_interval(ctx, y, err, lo, hi, fmt, &magnitude);
        if (decided) {
            *result = negative ? -magnitude : magnitude;
            return CRTRIG_OK;
        }
        if (task->counts)
            task->counts->multi_retries++;
    }
    return CRTRIG_ENOCONV;
}

void crtrig_trig_task_init(crtrig_trig_task *task, const crtrig_eval_options *opt,
                           crtrig_stage_counts *counts)
{
    task->first_stage = opt ? opt->first_stage : CRTRIG_STAGE_DOUBLE;
    task->multi_bits = (opt && opt->multi_start_bits > 0) ? opt->multi_start_bits : MULTI_DEFAULT_BITS;
    task->counts = counts;
    task->workspace.n = task->workspace.capacity = 0;
    task->workspace.pool = NULL;
    task->raise_flags = 0;
    task->use_table = 0;
}

void crtrig_trig_task_end(crtrig_trig_task *task) { mpfix_ctx_free(&task->workspace); }

int crtrig_trig_value(crtrig_trig_func func, double x, crtrig_dtype fmt, int first_stage,
                      crtrig_trig_task *task, double *result)
{
    crtrig_stage_counts *counts = task->counts;
    uint64_t bits;
    double ax;
    int negate_result;
    if (CRTRIG_TRIG_FUNC_IS_PI(func))  /* sinpi, cospi: their own stages */
        return crtrig_trigpi_value(func, x, fmt, first_stage, task, result);
    if (CRTRIG_TRIG_FUNC_IS_TAN(func))  /* tan, tanpi: theirs (tan.c) */
        return crtrig_tan_value(func, x, fmt, first_stage, task, result);
    memcpy(&bits, &x, sizeof bits);
    if (((bits >> 52) & 0x7ffu) == 0x7ffu) {  /* inf or NaN: from the bits */
        if (bits << 12) {                       /* NaN: quiet it, raise nothing */
            bits |= (uint64_t)1 << 51;
            memcpy(result, &bits, sizeof bits);
        } else {
            /* The positive quiet NaN, the same bits on every platform (inf - inf
             * would give the platform's default NaN: negative on x86, positive on
             * aarch64).  The entry point raises FE_INVALID in the caller's
             * environment at the end. */
            bits = (uint64_t)0x7ff8 << 48;
            memcpy(result, &bits, sizeof bits);
            task->raise_flags |= CRTRIG_FLAG_INVALID;
        }
        if (counts)
            counts->exact++;
        return CRTRIG_OK;
    }
    if ((bits << 1) == 0) {                     /* +-0: sin keeps the sign, cos is 1 */
        *result = func == CRTRIG_SIN ? x : 1.0;
        if (counts)
            counts->exact++;
        return CRTRIG_OK;
    }
    ax = fabs(x);
    /* Tiny float64 inputs: exact shortcuts (derived at SIN_IS_X_BELOW), unless
     * a test forces the multi-precision stage, which is correct for them too. */
    if (fmt == CRTRIG_FLOAT64 && first_stage < CRTRIG_STAGE_MULTI &&
        ax < (func == CRTRIG_SIN ? SIN_IS_X_BELOW : COS_IS_1_BELOW)) {
        *result = func == CRTRIG_SIN ? x : 1.0;
        if (counts)
            counts->exact++;
        return CRTRIG_OK;
    }
    /* sin(-x) = -sin(x); cos(-x) = cos(x).  cos(x) = sin(x + pi/2): k = 1. */
    negate_result = func == CRTRIG_SIN && (bits >> 63);
    {
        int k = func == CRTRIG_SIN ? 0 : 1, rc = CRTRIG_OK;
        double v = 0.0;
        if (first_stage <= CRTRIG_STAGE_DOUBLE && fmt != CRTRIG_FLOAT64 &&
            stage_double(k, ax, fmt, &v)) {
            if (counts)
                counts->by_stage[CRTRIG_STAGE_DOUBLE]++;
        } else if (first_stage <= CRTRIG_STAGE_DOUBLE_DOUBLE &&
                   stage_double_double(k, ax, fmt, &v)) {
            if (counts)
                counts->by_stage[CRTRIG_STAGE_DOUBLE_DOUBLE]++;
        } else {
            if (counts)
                counts->by_stage[CRTRIG_STAGE_MULTI]++;
            rc = stage_multi(k, ax, fmt, task->multi_bits, task, &v);
            if (rc != CRTRIG_OK)
                return rc;
        }
        *result = negate_result ? -v : v;
        return CRTRIG_OK;
    }
}

double crtrig_trig_load(crtrig_dtype dtype, const char *p)
{
    uint64_t d;
    double v;
    if (dtype == CRTRIG_FLOAT16) {
        uint16_t h;
        uint64_t sign, exponent, mantissa;
        memcpy(&h, p, sizeof h);
        sign = (uint64_t)(h >> 15) << 63;
        exponent = (h >> 10) & 0x1fu;
        mantissa = h & 0x3ffu;
        if (exponent == 0x1f) {
            d = sign | ((uint64_t)0x7ff << 52) | (mantissa << 42);
        } else if (exponent == 0) {  /* zero or subnormal: m 2^-24, exact */
            v = (double)mantissa * 0x1p-24;
            return (h >> 15) ? -v : v;
        } else {
            d = sign | ((exponent - 15 + 1023) << 52) | (mantissa << 42);
        }
        memcpy(&v, &d, sizeof v);
        return v;
    } else {
        uint32_t w;
        uint64_t sign, exponent, mantissa;
        if (dtype == CRTRIG_BFLOAT16) {
            uint16_t b;
            memcpy(&b, p, sizeof b);
            w = (uint32_t)b << 16;
        } else {
            memcpy(&w, p, sizeof w);
        }
        sign = (uint64_t)(w >> 31) << 63;
        exponent = (w >> 23) & 0xffu;
        mantissa = w & 0x7fffffu;
        if (exponent == 0xff) {
            d = sign | ((uint64_t)0x7ff << 52) | (mantissa << 29);
        } else if (exponent == 0) {  /* zero or subnormal: m 2^-149, exact */
            v = (double)mantissa * 0x1p-149;
            return (w >> 31) ? -v : v;
        } else {
            d = sign | ((exponent - 127 + 1023) << 52) | (mantissa << 29);
        }
        memcpy(&v, &d, sizeof v);
        return v;
    }
}

/* The element hooks' argument checks: func, dtype (a float format), the
 * options; and x must be a value of dtype's format (for the narrow formats,
 * no finite |x| above the largest float32; isgreater is quiet for NaN). */
static int trig_hook_args_ok(crtrig_trig_func func, crtrig_dtype dtype, const crtrig_eval_options *opt)
{
    return (unsigned)func <= CRTRIG_TRIG_FUNC_LAST && (unsigned)dtype <= CRTRIG_FLOAT64 &&
           (!opt || ((unsigned)opt->first_stage <= CRTRIG_STAGE_MULTI &&
                     opt->multi_start_bits >= 0 && opt->multi_start_bits <= MULTI_MAX_BITS));
}

static int trig_hook_input_ok(crtrig_dtype dtype, double x)
{
    return dtype == CRTRIG_FLOAT64 || !(isgreater(fabs(x), FLOAT32_MAX) && !isinf(x));
}

/* The element hook's work, out of line: between the environment switches. */
static CRTRIG_NOINLINE int trig_element_value(crtrig_trig_func func, crtrig_dtype dtype, double x,
                                              crtrig_trig_task *task, double *result)
{
    return crtrig_trig_value(func, x, dtype, task->first_stage, task, result);
}

int crtrig_trig_element(crtrig_trig_func func, crtrig_dtype dtype, double x,
                        const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                        double *result)
{
    crtrig_trig_task task;
    crtrig_fpenv env;
    int rc;
    if (!trig_hook_args_ok(func, dtype, opt) || !trig_hook_input_ok(dtype, x))
        return CRTRIG_EINVAL;
    crtrig_trig_task_init(&task, opt, counts);
    crtrig_fpenv_enter(&env);
    rc = trig_element_value(func, dtype, x, &task, result);
    crtrig_fpenv_leave(&env, task.raise_flags);
    crtrig_trig_task_end(&task);
    return rc;
}

int crtrig_trig_values_raw(crtrig_trig_func func, crtrig_dtype dtype, const double *x, size_t count,
                           const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                           double *result, signed char *stages)
{
    crtrig_trig_task task;
    crtrig_stage_counts local;
    size_t i;
    int rc = CRTRIG_OK;
    if (!trig_hook_args_ok(func, dtype, opt))
        return CRTRIG_EINVAL;
    for (i = 0; i < count; i++)
        if (!trig_hook_input_ok(dtype, x[i]))
            return CRTRIG_EINVAL;
    memset(&local, 0, sizeof local);
    crtrig_trig_task_init(&task, opt, &local);
    for (i = 0; i < count && rc == CRTRIG_OK; i++) {
        uint64_t before[3];
        memcpy(before, local.by_stage, sizeof before);
        rc = crtrig_trig_value(func, x[i], dtype, task.first_stage, &task, &result[i]);
        if (stages)
            stages[i] = (signed char)(local.by_stage[0] != before[0] ? 0 :
                                      local.by_stage[1] != before[1] ? 1 :
                                      local.by_stage[2] != before[2] ? 2 : -1);
    }
    crtrig_trig_task_end(&task);
    if (counts) {
        counts->exact += local.exact;
        for (i = 0; i < 3; i++)
            counts->by_stage[i] += local.by_stage[i];
        counts->multi_retries += local.multi_retries;
    }
    return rc;
}

/* The dd value hook's work, out of line: between the environment switches. */
static CRTRIG_NOINLINE dd_t trig_dd_value(crtrig_trig_func func, double x, double *bound)
{
    dd_t y = stage_double_double_value(func == CRTRIG_SIN ? 0 : 1, fabs(x));
    if (func == CRTRIG_SIN && x < 0) {
        y.hi = -y.hi;
        y.lo = -y.lo;
    }
    *bound = fabs(y.hi) * DD_STAGE_BOUND;  /* exact: |hi| >= 2^-151 */
    return y;
}

int crtrig_trig_dd_value(crtrig_trig_func func, double x, double *hi, double *lo, double *bound)
{
    crtrig_fpenv env;
    dd_t y;
    /* quiet tests: no flag for a NaN x */
    if ((unsigned)func > CRTRIG_COS || !isfinite(x) || isless(fabs(x), 0x1p-149))
        return CRTRIG_EINVAL;
    crtrig_fpenv_enter(&env);
    y = trig_dd_value(func, x, bound);
    crtrig_fpenv_leave(&env, 0);
    *hi = y.hi;
    *lo = y.lo;
    return CRTRIG_OK;
}
