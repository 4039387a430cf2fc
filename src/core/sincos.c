/* sin and cos of float16, bfloat16 and float32 values, correctly rounded into
 * the input's format (ONNX Sin-22 / Cos-22).
 *
 * Every input is a float32 value (float16 and bfloat16 values are float32
 * values too) held in a double.  Range reduction (reduce.c) gives
 *   x (2/pi) = n + 2t,  |t| <= 1/4 + 2^-30,
 * and with k = n + (1 for cos) mod 4:
 *   f(x) = sin(pi t), cos(pi t), -sin(pi t), -cos(pi t)   for k = 0, 1, 2, 3.
 * sin is odd (sin(-x) = -sin(x), +-0 kept), cos even.
 *
 * Stages (Ziv), each with a proven bound e >= |y - f(x)|; rounding both ends
 * of [y - e, y + e] (monotone) decides when they agree:
 *   double:          Cody-Waite reduction for |x| < 2^24, Payne-Hanek above;
 *   double-double:   t = x/pi for |x| <= pi/4, Payne-Hanek above;
 *   multi-precision: fixed point, bit-serial reduction, 128 bits, doubling.
 * There is no exact case to worry about: sin(x) and cos(x) are transcendental
 * for every nonzero rational x (Lindemann), so never a rounding boundary, and
 * the loop terminates; x = 0 is handled exactly.
 *
 * No flags: NaN and infinity are recognized from the bits (no comparison
 * touches a NaN), and no intermediate result underflows: |x| >= 2^-149 makes
 * t^2 >= 2^-304 and every product of the dd splits stays above 2^-700.
 */
#include <math.h>
#include <string.h>
#include "crtrig/crtrig.h"
#include "dd.h"
#include "fpformat.h"
#include "mpfix.h"
#include "reduce.h"
#include "reduce_small.h"
#include "sincos.h"
#include "sincospi.h"

enum { MULTI_DEFAULT_BITS = 128, MULTI_MAX_BITS = 1 << 14 };

/* pi/4 rounded down to a float32-representable bound: |x| <= this uses t = x/pi. */
static const double PI_OVER_4_BOUND = 0x1.921fb4p-1;
static const double INV_PI_HI = 0x1.45f306dc9c883p-2, INV_PI_LO = -0x1.6b01ec5417056p-56;

/* Round y into fmt knowing |y - exact| <= e (e already covers the rounding of
 * the endpoints): 1 and *result set when both ends agree. */
static int decide_d(double y, double e, crtrig_dtype fmt, double *result)
{
    int tie;
    double lo = crtrig_round_double(y - e, fmt, &tie);
    double hi = crtrig_round_double(y + e, fmt, &tie);
    if (lo != hi)
        return 0;
    *result = lo;
    return 1;
}

static int decide_dd(dd_t y, double e, crtrig_dtype fmt, double *result)
{
    dd_t lo_end = dd_add_d(y, -e), hi_end = dd_add_d(y, e);
    double lo = crtrig_round_dd(lo_end.hi, lo_end.lo, fmt);
    double hi = crtrig_round_dd(hi_end.hi, hi_end.lo, fmt);
    if (lo != hi)
        return 0;
    *result = lo;
    return 1;
}

/* Stage 0.  ax = |x| > 0.  The evaluation itself errs by < 3.8u relative
 * (sincospi.h); the relative error u of t adds at most u (sin) or (pi/4) u
 * (cos); the absolute error a of t adds at most pi a (|d/dt| <= pi).
 *   |ax| < 2^24:  a = ax 2^-84:  e = 4.8u |y*| + pi ax 2^-84
 *   otherwise:    a = 2^-103:    e = 4.8u |y*| + pi 2^-103
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
    return decide_d(y, e, fmt, result);
}

/* Stage 1.  |x| <= pi/4: t = dd_mul_d(1/pi, ax): relative error <= 2^-103 +
 * 2^-106 (the constant), no absolute error, quadrant 0.  Otherwise
 * Payne-Hanek: relative 2^-105, absolute 2^-103.  Evaluation < 3.6 2^-103.
 *   e = (3.6 + 1.2) 2^-103 |y*| + pi 2^-103 < 2^-100.7 |y*| + 2^-101.3;
 * doubled for the endpoint additions (dd_add_d errs by <= 2^-103 (|y| + e)):
 *   e' = |y| 2^-99 + 2^-100. */
static int stage_double_double(int k, double ax, crtrig_dtype fmt, double *result)
{
    int quadrant = 0;
    dd_t t, y;
    double e = 0.0;
    if (ax <= PI_OVER_4_BOUND) {
        t = dd_mul_d(dd_make(INV_PI_HI, INV_PI_LO), ax);
    } else {
        t = crtrig_reduce_large_dd(ax, &quadrant);
        e = 0x1p-100;
    }
    k = (k + quadrant) & 3;
    y = crtrig_sincospi_dd(k & 1, t);
    if (k & 2) {
        y.hi = -y.hi;
        y.lo = -y.lo;
    }
    e += fabs(y.hi) * 0x1p-99;
    return decide_dd(y, e, fmt, result);
}

/* Stage 2: fixed point at P = crtrig_reduce_fixed_bits(F, ax) fraction bits.
 * err = reduction error (reduce.c) + series error (mpfix.c), in ulps. */
static int stage_multi(int k, double ax, crtrig_dtype fmt, int start_bits,
                       crtrig_stage_counts *counts, double *result)
{
    int bits;
    for (bits = start_bits; bits <= MULTI_MAX_BITS; bits *= 2) {
        mpfix_ctx ctx;
        uint32_t *r, *err, *y, *lo, *hi;
        int quadrant, negate_offset, use_cos, negative, octant_k, decided;
        double magnitude;
        if (mpfix_ctx_init(&ctx, crtrig_reduce_fixed_bits(bits, ax)) != 0)
            return CRTRIG_ENOMEM;
        r = mpfix_user(&ctx, 0);
        err = mpfix_user(&ctx, 1);
        y = mpfix_user(&ctx, 2);
        lo = mpfix_user(&ctx, 3);
        hi = mpfix_user(&ctx, 4);
        crtrig_reduce_fixed(&ctx, ax, r, err, &quadrant, &negate_offset);
        octant_k = (k + quadrant) & 3;
        use_cos = octant_k & 1;
        mpfix_add_ulps(err, ctx.n, mpfix_sincos_fixed(&ctx, y, use_cos, r));
        /* f = +-sin(r) or +-cos(r); sin(-r) = -sin(r). */
        negative = ((octant_k & 2) != 0) ^ (!use_cos && negate_offset);
        decided = mpfix_round_interval(&ctx, y, err, lo, hi, fmt, &magnitude);
        mpfix_ctx_free(&ctx);
        if (decided) {
            *result = negative ? -magnitude : magnitude;
            return CRTRIG_OK;
        }
        if (counts)
            counts->multi_retries++;
    }
    return CRTRIG_ENOCONV;
}

int crtrig_trig_value(crtrig_trig_func func, double x, crtrig_dtype fmt, int first_stage,
                      int multi_bits, crtrig_stage_counts *counts, double *result)
{
    uint64_t bits;
    double ax;
    int negate_result;
    memcpy(&bits, &x, sizeof bits);
    if (((bits >> 52) & 0x7ffu) == 0x7ffu) {  /* inf or NaN: from the bits */
        if (bits << 12) {                       /* NaN: quiet it, raise nothing */
            bits |= (uint64_t)1 << 51;
            memcpy(result, &bits, sizeof bits);
        } else {
            *result = x - x;                    /* inf - inf: NaN and FE_INVALID */
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
    if (multi_bits <= 0)
        multi_bits = MULTI_DEFAULT_BITS;
    ax = fabs(x);
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
            rc = stage_multi(k, ax, fmt, multi_bits, counts, &v);
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

int crtrig_trig_element(crtrig_trig_func func, crtrig_dtype dtype, double x,
                        const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                        double *result)
{
    int first_stage = opt ? opt->first_stage : CRTRIG_STAGE_DOUBLE;
    int multi_bits = (opt && opt->multi_start_bits > 0) ? opt->multi_start_bits : MULTI_DEFAULT_BITS;
    if ((unsigned)func > CRTRIG_COS || dtype > CRTRIG_FLOAT32)
        return CRTRIG_EINVAL;
    return crtrig_trig_value(func, x, dtype, first_stage, multi_bits, counts, result);
}

int crtrig_trig_strided(crtrig_trig_func func, crtrig_dtype dtype, const char *in,
                        ptrdiff_t in_stride, char *out, ptrdiff_t out_stride, size_t count)
{
    if ((unsigned)func > CRTRIG_COS || dtype > CRTRIG_FLOAT64)
        return CRTRIG_EINVAL;
    return crtrig_sincos_array(func, dtype, in, in_stride, out, out_stride, count);
}
