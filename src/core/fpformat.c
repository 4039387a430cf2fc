/* Correct rounding into float16, bfloat16, float32 and float64, and the
 * per-dtype output writers.
 *
 * Rounding works on exact doubles: scaling by a power of two (ldexp) and
 * floor/subtraction of doubles below 2^53 are exact, so every step below is
 * exact and the result is the correctly rounded value, whatever the
 * platform's float16/bfloat16 support (none is used). */
#include <math.h>
#include <string.h>
#include "fpformat.h"

static const crtrig_format FORMATS[4] = {
    {11, -14},    /* CRTRIG_FLOAT16  (IEEE binary16) */
    {8, -126},    /* CRTRIG_BFLOAT16 */
    {24, -126},   /* CRTRIG_FLOAT32  (IEEE binary32) */
    {53, -1022},  /* CRTRIG_FLOAT64  (IEEE binary64) */
};

crtrig_dtype crtrig_compute_format(crtrig_dtype dtype)
{
    return dtype <= CRTRIG_FLOAT64 ? dtype : CRTRIG_FLOAT32;
}

const crtrig_format *crtrig_format_of(crtrig_dtype float_dtype)
{
    return &FORMATS[float_dtype];
}

/* In the normal range of the target, rounding on the bit pattern
 * (crtrig_round_bits); below it (float16 subnormals) the quantum is fixed and
 * exact scaling is used. */
double crtrig_round_double(double x, crtrig_dtype fmt, int *tie)
{
    const crtrig_format *f = &FORMATS[fmt];
    const int dropped = 53 - f->precision;
    uint64_t bits, magnitude, half;
    int exponent;

    *tie = 0;
    if (fmt == CRTRIG_FLOAT64)
        return x;
    memcpy(&bits, &x, sizeof bits);
    magnitude = bits & 0x7fffffffffffffffu;
    exponent = (int)(magnitude >> 52) - 1023;
    if (exponent > 1023 - 1 || magnitude == 0)
        return x;  /* inf, NaN or zero */
    if (exponent >= f->emin) {
        half = (uint64_t)1 << (dropped - 1);
        *tie = (magnitude & ((half << 1) - 1)) == half;
        bits = (bits & 0x8000000000000000u) | crtrig_round_bits(magnitude, dropped);
        memcpy(&x, &bits, sizeof x);
        return x;
    }
    {
        /* Subnormal in the target: quantum 2^(emin - precision + 1). */
        const int quantum_exp = f->emin - (f->precision - 1);
        double scaled = ldexp(fabs(x), -quantum_exp);  /* exact */
        double n = floor(scaled);
        double frac = scaled - n;                      /* exact */
        if (frac > 0.5 || (frac == 0.5 && fmod(n, 2.0) != 0.0))
            n += 1.0;
        *tie = (frac == 0.5);
        return copysign(ldexp(n, quantum_exp), x);     /* exact */
    }
}

static int double_is_even(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return (bits & 1u) == 0;
}

double crtrig_round_dd(double hi, double lo, crtrig_dtype fmt)
{
    int tie;
    double r;

    if (fmt == CRTRIG_FLOAT64) {
        /* hi == RN(hi + lo), so the answer is hi or its neighbour on lo's side,
         * and only a tie (|lo| exactly half the gap) can pick the neighbour. */
        double next, half_gap;
        if (lo == 0.0)
            return hi;
        next = nextafter(hi, lo > 0.0 ? HUGE_VAL : -HUGE_VAL);
        half_gap = fabs(next - hi) * 0.5;  /* exact: adjacent doubles, |hi| >= 2^-1000 */
        if (fabs(lo) < half_gap)
            return hi;
        if (fabs(lo) > half_gap)
            return next;
        return double_is_even(hi) ? hi : next;
    }
    /* Narrower format: its rounding boundaries (midpoints) are doubles.  No
     * boundary other than hi itself lies between hi and hi + lo, since
     * hi == RN(hi + lo).  So hi + lo rounds like hi, unless hi is a boundary
     * and lo != 0: then hi + lo lies strictly on lo's side of it, like the
     * neighbouring double of hi on that side, and rounds like that double. */
    r = crtrig_round_double(hi, fmt, &tie);
    if (tie && lo != 0.0)
        r = crtrig_round_double(nextafter(hi, lo > 0.0 ? HUGE_VAL : -HUGE_VAL), fmt, &tie);
    return r;
}

/* Bits of a double that is exactly a float16 value (or NaN/inf). */
static uint16_t float16_bits_exact(double v)
{
    uint64_t bits;
    uint16_t sign;
    int exponent;
    memcpy(&bits, &v, sizeof bits);
    sign = (uint16_t)((bits >> 48) & 0x8000u);
    exponent = (int)((bits >> 52) & 0x7ffu) - 1023;
    if (exponent == 1024)  /* inf or NaN */
        return (uint16_t)(sign | ((bits << 12) ? 0x7e00u : 0x7c00u));
    if (exponent >= -14)   /* normal: keep the top 10 fraction bits (the rest are 0) */
        return (uint16_t)(sign | (uint16_t)((exponent + 15) << 10) |
                          (uint16_t)((bits >> 42) & 0x3ffu));
    /* subnormal or zero: |v| = m 2^-24 with m an integer below 1024 */
    return (uint16_t)(sign | (uint16_t)(fabs(v) * 0x1p24));
}

void crtrig_store(crtrig_dtype dtype, double v, char *p)
{
    switch (dtype) {
    case CRTRIG_FLOAT16: {
        uint16_t b = float16_bits_exact(v);
        memcpy(p, &b, sizeof b);
        return;
    }
    case CRTRIG_BFLOAT16: {
        float f = (float)v;  /* exact: v is a bfloat16 value */
        uint32_t w;
        uint16_t b;
        memcpy(&w, &f, sizeof w);
        b = (v != v) ? (uint16_t)0x7fc0u : (uint16_t)(w >> 16);
        memcpy(p, &b, sizeof b);
        return;
    }
    case CRTRIG_FLOAT32: {
        float f = (float)v;  /* exact */
        memcpy(p, &f, sizeof f);
        return;
    }
    case CRTRIG_FLOAT64:
        memcpy(p, &v, sizeof v);
        return;
    default:
        break;
    }
    {
        /* ONNX Cast of a float32 value: truncate toward zero; NaN -> 0 (crtrig's
         * documented choice; ONNX leaves it undefined).  Values outside the
         * integer range wrap modulo 2^bits through int64 (never happens for
         * windows, whose values lie in [0, 1]). */
        int64_t t = (v == v) ? (int64_t)v : 0;
        switch (dtype) {
        case CRTRIG_INT8:   { int8_t x = (int8_t)t;     memcpy(p, &x, sizeof x); return; }
        case CRTRIG_UINT8:  { uint8_t x = (uint8_t)t;   memcpy(p, &x, sizeof x); return; }
        case CRTRIG_INT16:  { int16_t x = (int16_t)t;   memcpy(p, &x, sizeof x); return; }
        case CRTRIG_UINT16: { uint16_t x = (uint16_t)t; memcpy(p, &x, sizeof x); return; }
        case CRTRIG_INT32:  { int32_t x = (int32_t)t;   memcpy(p, &x, sizeof x); return; }
        case CRTRIG_UINT32: { uint32_t x = (uint32_t)t; memcpy(p, &x, sizeof x); return; }
        case CRTRIG_INT64:  { memcpy(p, &t, sizeof t); return; }
        case CRTRIG_UINT64: { uint64_t x = (uint64_t)t; memcpy(p, &x, sizeof x); return; }
        default: return;
        }
    }
}

int crtrig_decide_d(double y, double e, crtrig_dtype fmt, double *result)
{
    int tie;
    double lo = crtrig_round_double(y - e, fmt, &tie);
    double hi = crtrig_round_double(y + e, fmt, &tie);
    if (lo != hi)
        return 0;
    *result = lo;
    return 1;
}

int crtrig_decide_dd(dd_t y, double e, crtrig_dtype fmt, double *result)
{
    dd_t lo_end = dd_add_d(y, -e), hi_end = dd_add_d(y, e);
    double lo = crtrig_round_dd(lo_end.hi, lo_end.lo, fmt);
    double hi = crtrig_round_dd(hi_end.hi, hi_end.lo, fmt);
    if (lo != hi)
        return 0;
    *result = lo;
    return 1;
}
