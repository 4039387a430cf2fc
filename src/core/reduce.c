/* Exact range reduction for sin and cos of doubles.  See reduce.h.
 *
 * Three methods, one per evaluation stage:
 *   - Cody-Waite in double for float32 values x < 2^24 (the first stage of
 *     float32 and narrower formats; reduce_small.h),
 *   - Payne-Hanek in exact integer arithmetic on a 256-bit window of 2/pi for
 *     2^-10 <= x < 2^1024 (the first stage of float32 values x >= 2^24, the
 *     double-double stage for everything above pi/4),
 *   - bit-serial reduction modulo a fixed-point 2 pi for the multi-precision stage.
 * Only integer operations and exact conversions: no flag is raised.
 */
#include <math.h>
#include <string.h>
#include "reduce.h"

/* tools/gen_reduction_constants.py prints these; tests/test_sincos.py checks them.
 * Bits of 2/pi after the binary point, 32 per word, most significant first,
 * after two zero words: bit i (weight 2^-i, i >= -63) of 2/pi is bit
 * 31 - (i + 63) % 32 of word (i + 63) / 32.  1248 bits of 2/pi: the window
 * below reaches bit i = 970 + 255 for the largest double (E = 971), and the
 * shifted read takes one word more: word (970 + 63) / 32 + 8 = 40. */
enum { ZERO_BITS = 63, WINDOW_WORDS = 8 };

/* The fixed-length word loops below unroll completely where the compiler
 * allows it (a speed hint only). */
#if defined(__clang__)
#define UNROLL_FULLY _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__) && __GNUC__ >= 8
#define UNROLL_FULLY _Pragma("GCC unroll 8")
#else
#define UNROLL_FULLY
#endif
static const uint32_t TWO_OVER_PI_BITS[41] = {
    0x00000000u, 0x00000000u, 0xa2f9836eu, 0x4e441529u,
    0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u,
    0xfe5163abu, 0xdebbc561u, 0xb7246e3au, 0x424dd2e0u,
    0x06492eeau, 0x09d1921cu, 0xfe1deb1cu, 0xb129a73eu,
    0xe88235f5u, 0x2ebb4484u, 0xe99c7026u, 0xb45f7e41u,
    0x3991d639u, 0x835339f4u, 0x9c845f8bu, 0xbdf9283bu,
    0x1ff897ffu, 0xde05980fu, 0xef2f118bu, 0x5a0a6d1fu,
    0x6d367ecfu, 0x27cb09b7u, 0x4f463f66u, 0x9e5fea2du,
    0x7527bac7u, 0xebe5f17bu, 0x3d0739f7u, 0x8a5292eau,
    0x6bfb5fb1u, 0x1f8d5d08u, 0x56033046u, 0xfc7b6babu,
    0xf0cfbc20u,
};

static int leading_zeros64(uint64_t v)  /* v != 0 */
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_clzll(v);
#else
    int n = 0;
    while (!(v & ((uint64_t)1 << 63))) {
        v <<= 1;
        n++;
    }
    return n;
#endif
}

/* 2^k as a double, for -1022 <= k <= 1023 (from the bits: exact, no call). */
static double pow2(int k)
{
    uint64_t bits = (uint64_t)(k + 1023) << 52;
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* mag 2^scale as a normalized double-double, mag a 256-bit integer (four
 * 64-bit words, most significant first): the top 53 bits from the leading one
 * form hi, the next 53 lo; the bits dropped below make a relative error
 * < 2^-105 (they are below 2^(L-105) for a value >= 2^L).  Every product
 * below is an integer < 2^53 times a power of two that stays in the normal
 * range for -1022 + 360 <= scale + L (here scale = -255, 0 <= L < 256): exact. */
static dd_t u256_to_dd(const uint64_t q[4], int scale)
{
    int k0 = 0, zeros, lead;
    uint64_t top, next, w1, w2;
    double hi, lo;
    while (k0 < 4 && q[k0] == 0)
        k0++;
    if (k0 == 4)
        return dd_make(0.0, 0.0);
    w1 = k0 + 1 < 4 ? q[k0 + 1] : 0;
    w2 = k0 + 2 < 4 ? q[k0 + 2] : 0;
    zeros = leading_zeros64(q[k0]);
    top = zeros ? (q[k0] << zeros) | (w1 >> (64 - zeros)) : q[k0];
    next = zeros ? (w1 << zeros) | (w2 >> (64 - zeros)) : w1;
    lead = 255 - 64 * k0 - zeros;  /* bit index L of the leading one */
    hi = (double)(top >> 11) * pow2(lead - 52 + scale);
    lo = (double)(((top & 0x7ffu) << 42) | (next >> 22)) * pow2(lead - 105 + scale);
    return dd_fast_two_sum(hi, lo);  /* exact: |lo| < ulp(hi), |hi| > |lo| */
}

/* Payne-Hanek.  x = M 2^E with 2^52 <= M < 2^53 an integer (x is normal),
 * -62 <= E <= 971 (2^-10 <= x < 2^1024).
 * x (2/pi) = M sum_i b_i 2^(E-i) over the bits b_i of 2/pi.  Terms with
 * i <= E - 2 are multiples of 4 and drop out modulo 4.  The window W of the
 * 256 bits i = E-1 .. E+254 gives
 *   sum_{i=E-1}^{E+254} b_i 2^(E-i) = W 2^-254,
 * so x (2/pi) mod 4 = ((M W) mod 2^256) 2^-254 + M tail, where the bits beyond
 * the window make tail in [0, 2^-254): M tail < 2^53 2^-254 = 2^-201.
 * v = (M W) mod 2^256 exactly; n = the integer nearest v 2^-254, f = v 2^-254 - n
 * in [-1/2, 1/2), t = f/2 in [-1/4, 1/4): |t - t*| < 2^-202 for the exact
 * t* = (x (2/pi) - n)/2 (mod 2).  The dd conversion truncates after 106 bits:
 * relative < 2^-105.  Total |t - t*| <= 2^-105 |t*| + 2^-201.9.
 *
 * Why 256 bits.  The exact t* is smallest where x is closest to a multiple of
 * pi/2: over all doubles, min |x - k pi/2| = 2^-60.9 (k >= 1, at
 * x = 0x1.6ac5b262ca1ffp+849; tests/float64_inputs.py finds the nearest doubles
 * of every binade 2^0..2^1023 and checks this minimum), so
 * |t*| >= (2/pi) 2^-60.9 / 2 >= 2^-62.55 whenever n != 0 (x >= 1 then, the
 * binades the minimum covers; for n = 0, t* = x/pi >= 2^-11.7 in this domain).
 * A window of N bits leaves an
 * absolute error below 2^(54-N) in t, i.e. 2^(116.55-N) |t*|: the double-double
 * stage needs t to about 2^-105 relative, and N = 256 gives 2^-139.45 |t*|
 * (N = 224 would give 2^-107.45, too close to the conversion's 2^-105).  So,
 * for every double x in the domain:
 *   |t - t*| <= (2^-105 + 2^-139.4) |t*| <= 2^-104.99 |t*|.
 * f has at least 254 - 62 = 192 significant bits, more than the 106 kept. */
dd_t crtrig_reduce_large_dd(double x, int *quadrant)
{
    uint64_t bits, m, carry, sum;
    uint32_t window[WINDOW_WORDS];  /* W, most significant word first */
    uint32_t v[WINDOW_WORDS];       /* (M W) mod 2^256, least significant first */
    uint32_t ml, mh, flip;
    uint64_t mag[4];
    const uint32_t *src;
    int E, start, shift, i, negative;
    dd_t t;

    memcpy(&bits, &x, sizeof bits);
    m = (bits & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1 << 52);
    E = (int)((bits >> 52) & 0x7ffu) - 1075;  /* x = m 2^E, exact (x normal, positive) */
    start = E - 1 + ZERO_BITS;                 /* bit index of the window's first bit, >= 0 */
    src = TWO_OVER_PI_BITS + start / 32;       /* reads src[0..8]: at most word 40 */
    shift = start % 32;
    UNROLL_FULLY
    for (i = 0; i < WINDOW_WORDS; i++)         /* (a >> 1) >> (31 - shift): 0 for shift 0 */
        window[i] = (src[i] << shift) | ((src[i + 1] >> 1) >> (31 - shift));
    /* v = (ml W + mh W 2^32) mod 2^256, M = mh 2^32 + ml, mh < 2^21.  Each
     * 64-bit sum below is at most (2^32 - 1)^2 + 2 (2^32 - 1) < 2^64. */
    ml = (uint32_t)m;
    mh = (uint32_t)(m >> 32);
    carry = 0;
    UNROLL_FULLY
    for (i = 0; i < WINDOW_WORDS; i++) {
        uint64_t prod = (uint64_t)ml * window[WINDOW_WORDS - 1 - i] + carry;
        v[i] = (uint32_t)prod;
        carry = prod >> 32;
    }
    carry = 0;
    UNROLL_FULLY
    for (i = 0; i + 1 < WINDOW_WORDS; i++) {
        uint64_t prod = (uint64_t)mh * window[WINDOW_WORDS - 1 - i] + v[i + 1] + carry;
        v[i + 1] = (uint32_t)prod;
        carry = prod >> 32;
    }
    /* v 2^-254 in [0, 4).  Add 1/2 (2^253) to round to the nearest integer n:
     * v' = v + 2^253 - n 2^254, the low 254 bits of v + 2^253, in [0, 2^254),
     * and f 2^254 = v' - 2^253. */
    sum = (uint64_t)v[7] + (1u << 29);
    *quadrant = (int)((sum >> 30) & 3u);
    v[7] = (uint32_t)sum & 0x3fffffffu;
    /* mag = |v' - 2^253|: the low 253 bits of v' if v' >= 2^253 (bit 253 set),
     * else 2^253 - v' = (their complement) + 1; at most 2^253. */
    negative = !(v[7] & (1u << 29));
    flip = 0u - (uint32_t)negative;
    v[7] &= (1u << 29) - 1;
    carry = (uint64_t)negative;
    UNROLL_FULLY
    for (i = 0; i < WINDOW_WORDS; i++) {
        uint32_t mask = i == WINDOW_WORDS - 1 ? flip & ((1u << 29) - 1) : flip;
        uint64_t s = (uint64_t)(v[i] ^ mask) + carry;
        v[i] = (uint32_t)s;
        carry = s >> 32;
    }
    UNROLL_FULLY
    for (i = 0; i < 4; i++)
        mag[i] = ((uint64_t)v[7 - 2 * i] << 32) | v[6 - 2 * i];
    t = u256_to_dd(mag, -255);  /* t = f/2 = mag 2^-255 */
    if (negative) {
        t.hi = -t.hi;
        t.lo = -t.lo;
    }
    return t;
}

/* P = F + max(e, 1) + 24 fraction bits for x < 2^e: the reduction error
 * below, E_pi 2^max(e,1) ulps with E_pi < 2^20, is then at most 2^(20-F-24)
 * < 2^-F.  (The 24 is headroom for E_pi, not a significand width.)  For every
 * double, e <= 1024, so P <= F + 1048. */
int crtrig_reduce_fixed_bits(int fraction_bits, double x)
{
    int e;
    (void)frexp(x, &e);  /* x < 2^e */
    return fraction_bits + (e > 1 ? e : 1) + 24;
}

/* Bit-serial reduction, for every positive double x = M 2^E, M < 2^53 an
 * integer, -1126 <= E <= 971 (frexp's significand scaled by 2^53, so
 * 2^52 <= M even for subnormals, which get trailing zeros).  P = 32 (n - 1)
 * fraction bits; an ulp is 2^-P.
 * R runs through the binary digits of floor(x), most significant first:
 * R = 2R + digit, then R -= 2pi~ while R >= 2pi~ (k times in all), so that
 * R stays in [0, 2pi~) (2R + 1 < 2 (2pi~) + 1 < 3 (2pi~): at most two
 * subtractions).  Then the fraction digits of x are added at once, truncated
 * below 2^-P (error < 1 ulp; exact when E >= -P), and R reduced again.  Every
 * step is exact, so R = x' - k 2pi~ exactly, where x' is x truncated to P
 * fraction bits, and sin(R) = sin(x' + k (2pi - 2pi~)) differs from sin(x) by
 * at most |x - x'| + k |2pi - 2pi~| <= 1 + 2 k E_pi ulps, whatever k the
 * comparisons picked (E_pi bounds |pi~ - pi| in ulps, mpfix_pi).  R ends in
 * [0, 2pi~), so k = (x' - R)/2pi~ <= x/6 < 2^e/6 for x < 2^e (frexp), and
 * 2 k E_pi < E_pi 2^e/3 <= E_pi 2^max(e,1) ulps.  (For x < 1 there is no
 * integer digit and k = 0.)
 * Then R (in [0, 2pi~)) loses q copies of floor(pi~/2) (error E_pi/2 + 1/2 ulps
 * each, q <= 4), and if R > pi~/4 it becomes floor(pi~/2) - R (another
 * E_pi/2 + 1/2) with the offset negated and q + 1.  r <= pi/4 + 2^-100.
 * err = E_pi 2^max(e,1) + 1 + (q (+1)) (E_pi/2 + 1) ulps bounds the error of r.
 * Cost: 53 + max(E, 0) steps of O(n) each (about 1024 for the largest doubles);
 * this stage runs only for the hardest inputs.
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
    m = (uint64_t)ldexp(frexp(x, &e), 53);  /* x = m 2^E, m < 2^53: exact */
    E = e - 53;

    mpfix_set_int(r, n, 0);
    for (i = 52 + (E > 0 ? E : 0); i >= (E < 0 ? -E : 0); i--) {  /* integer digits of x */
        int digit = (E >= 0) ? (i >= E ? (int)((m >> (i - E)) & 1u) : 0) : (int)((m >> i) & 1u);
        mpfix_mul_u32(r, n, 2);
        mpfix_add_int(r, n, (uint32_t)digit);
        while (mpfix_cmp(r, two_pi, n) >= 0)  /* at most twice */
            mpfix_sub(r, two_pi, n);
    }
    if (E < 0) {  /* fraction digits: (m mod 2^-E) 2^E < 1, truncated below 2^-P */
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
