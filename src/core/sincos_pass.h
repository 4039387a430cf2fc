/* The first passes of the sin/cos array kernels (float32, bfloat16, float16):
 * one source, compiled once per SIMD target by simd_baseline.c, simd_avx2.c and
 * simd_avx512.c, whose CRTRIG_SIMD_SUFFIX names the functions (pass_common.h).
 * Plain C: the compiler
 * vectorizes the loop for the target; no FMA is enabled in any target, and
 * contraction is off, so every target computes the same roundings (and the
 * outputs are correctly rounded values anyway).  The error bound is derived in
 * sincos_array.c. */
#include "pass_common.h"
#include "reduce_small.h"

/* The first-pass value for 2^-120 <= |x| < 2^24: y ~ f(x) with
 * |y - f(x)| <= *e (derived in sincos_array.c). */
static inline double first_pass_value(int func, double x, double *e)
{
    double t, sa, y;
    uint64_t n_bits, k, mask;
    t = crtrig_reduce_small(x, &n_bits);
    k = (n_bits + (uint64_t)func) & 3u;
    mask = (uint64_t)0 - (k & 1u);             /* all ones for odd k */
    sa = bits_to_double((double_to_bits(t) & ~mask) | (double_to_bits(0.5 - fabs(t)) & mask));
    y = sinpi_half_turn(sa);
    y = bits_to_double(double_to_bits(y) ^ ((k & 2u) << 62));  /* negate for k = 2, 3 */
    *e = fabs(y) * 0x1p-37 + fabs(x) * 0x1p-82;
    return y;
}

/* First passes over count <= BLOCK contiguous inputs (in, maybe unaligned)
 * writing contiguous results of the same format (out), and undecided[i] = 1
 * outside the pass's range (zeros, |x| < 2^-120, |x| >= 2^24, inf, NaN; for
 * float16 also results below 2^-14, the subnormal range), 2 where the two
 * roundings disagree, 0 when out[i] is final.  Zeros take the second pass
 * because the reduction would lose the sign of -0; tiny x because rounding a
 * tiny inexact y - e would raise the underflow flag. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("tree-vectorize")))
#endif
void CRTRIG_KERNEL(sincos_pass_float32)(int func, const char *in, char *out, size_t count,
                         unsigned char *undecided)
{
    size_t i;
    for (i = 0; i < count; i++) {
        uint32_t w, inside, w_inside;
        float xf, lo, hi;
        double x, y, e;
        memcpy(&w, in + 4 * i, sizeof w);
        inside = (w & 0x7fffffffu) - 0x03800000u < 0x4b800000u - 0x03800000u;
        w_inside = w & (0u - inside);            /* x = 0 outside: no flags */
        memcpy(&xf, &w_inside, sizeof xf);
        x = (double)xf;
        y = first_pass_value(func, x, &e);
        lo = (float)(y - e);
        hi = (float)(y + e);
        memcpy(out + 4 * i, &lo, sizeof lo);
        undecided[i] = (unsigned char)((1u - inside) | ((uint32_t)(lo != hi) << 1));
    }
}

#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("tree-vectorize")))
#endif
void CRTRIG_KERNEL(sincos_pass_bfloat16)(int func, const char *in, char *out, size_t count,
                          unsigned char *undecided)
{
    size_t i;
    for (i = 0; i < count; i++) {
        uint16_t h, r16;
        uint32_t w, inside;
        uint64_t xb, lo, hi;
        double x, y, e;
        memcpy(&h, in + 2 * i, sizeof h);
        w = (uint32_t)h << 16;                   /* the float32 with the same value */
        inside = (w & 0x7fffffffu) - 0x03800000u < 0x4b800000u - 0x03800000u;
        /* normal float32 -> double by the bits (x = 1 outside: no flags) */
        xb = ((uint64_t)(w >> 31) << 63) | ((uint64_t)(((w >> 23) & 0xffu) + 896u) << 52) |
             ((uint64_t)(w & 0x7fffffu) << 29);
        xb = inside ? xb : 0x3ff0000000000000u;
        x = bits_to_double(xb);
        y = first_pass_value(func, x, &e);
        /* |y| >= 2^-121 here (|x| >= 2^-120, and sin is far from 0 for |x| < 2^24). */
        lo = crtrig_round_bits(double_to_bits(y - e), 45);
        hi = crtrig_round_bits(double_to_bits(y + e), 45);
        r16 = (uint16_t)(((lo >> 48) & 0x8000u) | ((((lo >> 52) & 0x7ffu) - 896u) << 7) |
                         ((lo >> 45) & 0x7fu));
        memcpy(out + 2 * i, &r16, sizeof r16);
        undecided[i] = (unsigned char)((1u - inside) | ((uint32_t)(lo != hi) << 1));
    }
}

#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("tree-vectorize")))
#endif
void CRTRIG_KERNEL(sincos_pass_float16)(int func, const char *in, char *out, size_t count,
                         unsigned char *undecided)
{
    size_t i;
    for (i = 0; i < count; i++) {
        uint16_t h, r16;
        uint32_t inside, exponent, normal, tiny;
        uint64_t xb, lo, hi;
        double x, sub, y, e;
        memcpy(&h, in + 2 * i, sizeof h);
        exponent = (h >> 10) & 0x1fu;
        /* every finite nonzero float16 is within the range (|x| <= 65504 < 2^24) */
        inside = exponent != 0x1fu && (h & 0x7fffu) != 0;
        normal = exponent != 0;
        xb = ((uint64_t)(h >> 15) << 63) | ((uint64_t)(exponent + 1008u) << 52) |
             ((uint64_t)(h & 0x3ffu) << 42);
        /* subnormal m 2^-24 = (1 + m 2^-10) 2^-14 - 2^-14, exact (no int -> double
         * conversion, whose false register dependency serializes the loop) */
        sub = bits_to_double(0x3f10000000000000u | ((uint64_t)(h & 0x3ffu) << 42)) - 0x1p-14;
        sub = bits_to_double(double_to_bits(sub) | ((uint64_t)(h >> 15) << 63));
        x = normal ? bits_to_double(xb) : sub;
        x = inside ? x : 1.0;
        y = first_pass_value(func, x, &e);
        lo = crtrig_round_bits(double_to_bits(y - e), 42);
        hi = crtrig_round_bits(double_to_bits(y + e), 42);
        /* float16 normal range only: |lo| >= 2^-14 (exponent field >= 1009) */
        tiny = ((lo >> 52) & 0x7ffu) < 1009u;
        r16 = (uint16_t)(((lo >> 48) & 0x8000u) | ((((lo >> 52) & 0x7ffu) - 1008u) << 10) |
                         ((lo >> 42) & 0x3ffu));
        memcpy(out + 2 * i, &r16, sizeof r16);
        undecided[i] = (unsigned char)((1u - inside) | tiny | ((uint32_t)(lo != hi) << 1));
    }
}

/* Test hook: the first pass's unrounded f(x) and its bound e, for
 * 2^-120 <= |x| < 2^24. */
void CRTRIG_KERNEL(sincos_pass_value)(int func, double x, double *y, double *e)
{
    *y = first_pass_value(func, x, e);
}
