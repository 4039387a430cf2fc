/* Exact range reduction for sin and cos of float32 values.  See reduce.h.
 *
 * Three methods, one per evaluation stage:
 *   - Cody-Waite in double for x < 2^24 (the first stage; reduce_small.h),
 *   - Payne-Hanek in exact integer arithmetic for x >= 2^-6 (first stage for
 *     x >= 2^24, second stage for everything above pi/4),
 *   - bit-serial reduction modulo a fixed-point 2 pi for the multi-precision stage.
 */
#include <math.h>
#include <string.h>
#include "reduce.h"

/* tools/gen_reduction_constants.py prints these; tests/test_sincos.py checks them.
 * Bits of 2/pi after the binary point, 32 per word, most significant first,
 * after one zero word: bit i (weight 2^-i, i >= -31) of 2/pi is bit
 * 31 - (i + 31) % 32 of word (i + 31) / 32. */
static const uint32_t TWO_OVER_PI_BITS[9] = {
    0x00000000u, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u,
    0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu,
    0xdebbc561u,
};
/* 128-bit unsigned integers as four 32-bit limbs, least significant first. */
typedef struct u128 { uint32_t w[4]; } u128;

static int leading_zeros64(uint64_t v)  /* v != 0 */
{
    int n = 0;
    while (!(v & ((uint64_t)1 << 63))) {
        v <<= 1;
        n++;
    }
    return n;
}

/* m 2^scale as a normalized double-double, m < 2^126: the top 53 bits form
 * hi, the next 53 lo; the bits dropped below make a relative error < 2^-105. */
static dd_t u128_to_dd(const u128 *m, int scale)
{
    uint64_t top = ((uint64_t)m->w[3] << 32) | m->w[2];
    uint64_t bottom = ((uint64_t)m->w[1] << 32) | m->w[0];
    int zeros;
    if (top == 0) {
        if (bottom == 0)
            return dd_make(0.0, 0.0);
        top = bottom;
        bottom = 0;
        scale -= 64;
    }
    zeros = leading_zeros64(top);
    if (zeros) {  /* normalize: bit 127 set */
        top = (top << zeros) | (bottom >> (64 - zeros));
        bottom <<= zeros;
    }
    /* value = (top 2^64 + bottom) 2^(scale - zeros) */
    {
        double hi = ldexp((double)(top >> 11), 75 - zeros + scale);
        uint64_t next = ((top & 0x7ffu) << 42) | (bottom >> 22);  /* the following 53 bits */
        double lo = ldexp((double)next, 22 - zeros + scale);
        return dd_fast_two_sum(hi, lo);  /* exact: lo < ulp(hi) */
    }
}

/* Payne-Hanek.  x = M 2^E, M < 2^24 an integer, E >= -30 (x >= 2^-6).
 * x (2/pi) = M sum_i b_i 2^(E-i).  Terms with i <= E - 2 are multiples of 4
 * and drop out modulo 4.  The window W of the 128 bits i = E-1 .. E+126 gives
 *   sum_{i=E-1}^{E+126} b_i 2^(E-i) = W 2^-126,
 * so x (2/pi) mod 4 = ((M W) mod 2^128) 2^-126 + M tail, where the tail of the
 * bits beyond the window is in [0, 2^-126): an absolute error < 2^-102 in
 * x (2/pi), i.e. < 2^-103 in t.  n = nearest integer, t = (v - n)/2 with
 * |t| <= 1/4; the dd conversion truncates after 106 bits (< 2^-105 relative). */
dd_t crtrig_reduce_large_dd(double x, int *quadrant)
{
    int e, start, word, shift, i;
    uint64_t m, carry = 0;
    uint32_t window[4];  /* most significant first */
    u128 v, mag;
    int negative;
    dd_t t;

    m = (uint64_t)ldexp(frexp(x, &e), 24);  /* x = m 2^(e - 24), exact */
    start = (e - 24) - 1;                    /* first bit of the window */
    word = (start + 31) / 32;
    shift = (start + 31) % 32;
    for (i = 0; i < 4; i++)
        window[i] = shift ? (TWO_OVER_PI_BITS[word + i] << shift) |
                                (TWO_OVER_PI_BITS[word + i + 1] >> (32 - shift))
                          : TWO_OVER_PI_BITS[word + i];
    for (i = 0; i < 4; i++) {  /* v = (m W) mod 2^128 */
        uint64_t prod = m * window[3 - i] + carry;  /* < 2^24 2^32 + 2^24: fits */
        v.w[i] = (uint32_t)prod;
        carry = prod >> 32;
    }
    /* v 2^-126 in [0, 4).  Add 1/2 (2^125) to round to the nearest integer n. */
    {
        uint64_t sum = (uint64_t)v.w[3] + (1u << 29);
        *quadrant = (int)((sum >> 30) & 3u);
        /* f = v - n 2^126 in [-2^125, 2^125): the low 126 bits of v + 2^125, minus 2^125. */
        v.w[3] = (uint32_t)sum & 0x3fffffffu;
    }
    negative = !(v.w[3] & (1u << 29));  /* v + 2^125 - n 2^126 < 2^125 */
    if (negative) {          /* mag = 2^125 - v */
        uint64_t borrow = 0;
        const uint32_t half[4] = {0, 0, 0, 1u << 29};
        for (i = 0; i < 4; i++) {
            int64_t d = (int64_t)half[i] - v.w[i] - (int64_t)borrow;
            borrow = d < 0;
            mag.w[i] = (uint32_t)(d + (borrow ? ((int64_t)1 << 32) : 0));
        }
    } else {                 /* mag = v - 2^125 */
        mag = v;
        mag.w[3] -= 1u << 29;
    }
    t = u128_to_dd(&mag, -127);  /* t = f/2 = mag 2^-127 */
    if (negative) {
        t.hi = -t.hi;
        t.lo = -t.lo;
    }
    return t;
}

int crtrig_reduce_fixed_bits(int fraction_bits, double x)
{
    int e;
    (void)frexp(x, &e);  /* x < 2^e */
    return fraction_bits + (e > 1 ? e : 1) + 24;
}

/* Bit-serial reduction.  x = M 2^E.  R runs through the binary digits of x:
 * R = 2R + digit, then R -= 2pi~ while R >= 2pi~ (k times in all), so that
 * R stays in [0, 2pi~).  Every
 * step is exact, so R = x - k 2pi~ exactly (up to the truncation of the
 * fraction bits of x below 2^-P, < 1 ulp), and sin(R) = sin(x + k (2pi - 2pi~))
 * differs from sin(x) by at most k |2pi - 2pi~| <= k 2 E_pi ulps, whatever k the
 * comparisons picked.  R ends in [0, 2pi~), so k = (x - R)/2pi~ <= x/4 <= 2^(e-2) for x < 2^e,
 * so this error is at most E_pi 2^e ulps (E_pi < 2^20 at P < 2^16, so at most
 * 2^-F with the P of crtrig_reduce_fixed_bits).
 * Then R (in [0, 2pi~)) loses q copies of pi~/2 (error E_pi/2 + 1/2 each, q <= 4),
 * and if R > pi~/4 it becomes pi~/2 - R (another E_pi/2 + 1/2) with the offset
 * negated and q + 1.  r <= pi/4 + 2^-100.
 * Uses user numbers 5 (pi), 6 (2pi, then pi/4) and 7 (pi/2). */
void crtrig_reduce_fixed(mpfix_ctx *ctx, double x, uint32_t *r, uint32_t *err,
                         int *quadrant, int *negate_offset)
{
    const int n = ctx->n, fraction_bits = 32 * (n - 1);
    uint32_t *pi = mpfix_user(ctx, 5), *two_pi = mpfix_user(ctx, 6), *half_pi = mpfix_user(ctx, 7);
    uint64_t err_pi, err_half, small_err = 1;
    uint64_t m;
    int e, E, i, q = 0;

    err_pi = mpfix_pi(ctx, pi);
    mpfix_copy(two_pi, pi, n);
    mpfix_mul_u32(two_pi, n, 2);
    m = (uint64_t)ldexp(frexp(x, &e), 24);  /* x = m 2^E, m < 2^24 */
    E = e - 24;

    mpfix_set_int(r, n, 0);
    for (i = 23 + (E > 0 ? E : 0); i >= (E < 0 ? -E : 0); i--) {  /* integer digits of x */
        int digit = (E >= 0) ? (i >= E ? (int)((m >> (i - E)) & 1u) : 0) : (int)((m >> i) & 1u);
        mpfix_mul_u32(r, n, 2);
        mpfix_add_int(r, n, (uint32_t)digit);
        while (mpfix_cmp(r, two_pi, n) >= 0)  /* 2R + 1 < 3 (2pi~): at most twice */
            mpfix_sub(r, two_pi, n);
    }
    if (E < 0) {  /* fraction digits: (m mod 2^-E) 2^E, truncated below 2^-P */
        uint64_t frac = -E >= 64 ? m : m & (((uint64_t)1 << -E) - 1);
        int pos = fraction_bits + E;  /* ulp position of the lowest digit */
        if (pos >= 0) {
            mpfix_set_ulps_pow2(half_pi, n, frac, pos);  /* half_pi as a temporary */
        } else {
            mpfix_set_ulps_pow2(half_pi, n, -pos >= 64 ? 0 : frac >> -pos, 0);
        }
        mpfix_add(r, half_pi, n);
        while (mpfix_cmp(r, two_pi, n) >= 0)
            mpfix_sub(r, two_pi, n);
    }

    mpfix_copy(half_pi, pi, n);
    mpfix_shr1(half_pi, n);
    err_half = err_pi / 2 + 1;
    while (mpfix_cmp(r, half_pi, n) >= 0) {
        mpfix_sub(r, half_pi, n);
        q++;
        small_err += err_half;
    }
    mpfix_copy(two_pi, half_pi, n);  /* two_pi now holds pi/4 */
    mpfix_shr1(two_pi, n);
    *negate_offset = 0;
    if (mpfix_cmp(r, two_pi, n) > 0) {
        mpfix_copy(two_pi, half_pi, n);
        mpfix_sub(two_pi, r, n);
        mpfix_copy(r, two_pi, n);
        q++;
        small_err += err_half;
        *negate_offset = 1;
    }
    *quadrant = q & 3;
    mpfix_set_ulps_pow2(err, n, err_pi, e > 1 ? e : 1);
    mpfix_add_ulps(err, n, small_err);
}
