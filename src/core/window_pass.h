/* The first pass of the window fills for float32, bfloat16 and float16 outputs
 * (and the integer outputs, which are casts of the float32 window): one source,
 * compiled once per SIMD target by simd_baseline.c, simd_avx2.c and
 * simd_avx512.c (CRTRIG_KERNEL_FMA set, kernel_dd.h).  Plain C the compiler
 * vectorizes.
 *
 * window_run_FORMAT(kind, table, r0, count, out) writes w at the phases
 * r = r0 .. r0 + count - 1 (r <= D/2, within the table's range; window.c folds
 * n to r = min(n, D - n) exactly in integers) into out[0 .. count - 1]
 * (contiguous, the format's bits), and returns how many it left undecided; those
 * hold the marker WINDOW_UNDECIDED_32 or _16 (a NaN: no window value with D >= 1
 * is one) for window.c to finish.  With r = a B + c (window_table.h):
 *   y = kd_mul_add(Sa, Cc, RN(Ca Sc))   ~ sin(pi r/D)   (Sa = sin(pi aB/D), ...: hi parts)
 *   s = RN(y y),  w = the window's polynomial in s (below), e = w 2^-48,
 *   lo, hi = the roundings of RN(w - e), RN(w + e) into the format; decided when equal.
 * Polynomials (window.c: Hann s, Hamming (2 + 21 s)/23, Blackman s (9 + 16 s)/25),
 * with the constants rounded to double: A = RN(2/23), B = RN(21/23), P = RN(9/25),
 * Q = RN(16/25):
 *   Hann w = s;  Hamming w = kd_mul_add(B, s, A);  Blackman w = RN(s kd_mul_add(Q, s, P)).
 *
 * Error (u = 2^-53, relative to the exact values; kd_mul_add with one rounding
 * (FMA) or two, |result - (ab + c)| within the two-rounding bound of kernel_dd.h):
 *   entries: |hi - v| <= t v with t = (u + 2^-101)(1 + 2u) < 1.0001 u (window_table.h);
 *   y: the exact Sa Cc + Ca Sc of the entries is y (1 + d), |d| <= (1 + t)^2 - 1, since
 *      all four are >= 0 (no cancellation); RN(Ca Sc) and the sum round at most twice
 *      in either form of kd_mul_add, both terms >= 0: a factor within (1 +- u)^2.  So
 *      |y~ - y| <= ((1 + t)^2 (1 + u)^2 - 1) y <= 4.0003 u y;
 *   s = RN(y~^2): (1 + 4.0003u)^2 (1 + u) - 1 <= 9.001 u;
 *   Hann w = s: 9.001 u;
 *   Hamming: B s~ (B within u of 21/23) and A (within u of 2/23) are >= 0; the sum
 *      rounds once or twice: 9.001 u + 3u + (second order) <= 12.002 u;
 *   Blackman: the inner Q s~ + P likewise within 12.002 u of (9 + 16 s)/25; the product
 *      with s~ and its rounding: 9.001 u + 12.002 u + u + (second order) <= 22.01 u.
 * So |w~ - w| <= 22.01 u w < 2^-48.5 w (w~ the computed w).  With e = w~ 2^-48
 * (exact: a power-of-two scaling of a double >= 2^-107 or 0):
 * RN(w~ - e) <= w~ (1 - 2^-48 + u) = w~ (1 - 31u) <= w~ (1 - 22.01u - (22.01u)^2)...
 * more simply w >= w~ / (1 + 22.01u) >= w~ (1 - 22.01u) >= RN(w~ - e), and likewise
 * w <= w~ / (1 - 22.01u) <= w~ (1 + 22.02u) <= w~ (1 + 31u) <= RN(w~ + e).  Rounding
 * into the format is monotone, so equal roundings of the two ends are the
 * correctly rounded w.  (The decided share: a format rounding boundary must fall
 * within 2^-48 w of w~: about 1 element in 2^24 for float32, none in practice for
 * bfloat16 and float16.)
 *
 * Exact points need no special case: the bound holds there, and no exact window
 * value is a rounding boundary of these formats (window.c).  At r = 0, y~ = 0
 * exactly (Sa = 0 and Sc = 0, exact entries), so w~ = w (0 for Hann and Blackman,
 * A = RN(2/23) for Hamming, within the bound), and e = 0 or positive.  For r > 0,
 * y~ > 0 (one of the terms is a product of nonzero entries), w~ >= 2^-107 (w >=
 * sin^2(pi/2^52)): float32 and bfloat16 values stay in their normal range
 * (>= 2^-126), where bfloat16 and float16 round on the bits of the double
 * (crtrig_round_bits); float16 results below 2^-14 (its subnormals) are
 * rounded to a multiple of 2^-24 by the shifter 2^52 (x 2^24 + 2^52 rounds x 2^24
 * to the nearest integer, ties to even, as x 2^24 < 2^10), and that integer is
 * the float16's bit pattern (1024 being 2^-14, the smallest normal): both
 * branches are monotone and agree at 2^-14.  The window is computed from the
 * folded phase, so the same element comes out of every target and every split
 * of the fill (each value is the correctly rounded one).
 */
#include "pass_common.h"
#include "kernel_dd.h"
#include "window_table.h"

/* RN(2/23), RN(21/23), RN(9/25), RN(16/25): the hi parts of the double-double
 * constants of window64_pass.h (tests/test_window_pass.py checks them). */
static const double WP_HAMMING_A = 0x1.642c8590b2164p-4;
static const double WP_HAMMING_B = 0x1.d37a6f4de9bd3p-1;
static const double WP_BLACKMAN_P = 0x1.70a3d70a3d70ap-2;
static const double WP_BLACKMAN_Q = 0x1.47ae147ae147bp-1;

KD_INLINE double wp_hann(double s) { return s; }
KD_INLINE double wp_hamming(double s) { return kd_mul_add(WP_HAMMING_B, s, WP_HAMMING_A); }
KD_INLINE double wp_blackman(double s) { return s * kd_mul_add(WP_BLACKMAN_Q, s, WP_BLACKMAN_P); }

/* The rounding test into each format: store the rounding of RN(w - e) (or the
 * marker) at out[i], return 1 if undecided. */
KD_INLINE uint32_t wp_store_float32(double w, char *out, size_t i)
{
    double e = w * 0x1p-48;
    float lo = (float)(w - e), hi = (float)(w + e);
    uint32_t bits, differ = lo != hi;
    memcpy(&bits, &lo, sizeof bits);
    bits = differ ? WINDOW_UNDECIDED_32 : bits;
    memcpy(out + 4 * i, &bits, sizeof bits);
    return differ;
}

/* bfloat16 and float16: each end is rounded to a double holding the format's
 * value (rounding is monotone, so lo <= hi), and the pair is decided when hi - lo
 * is +0; then the bits of lo are encoded.  The tests and selects are written on
 * the bits of doubles >= 0 with 64-bit adds, shifts and masks only (SSE2 has no
 * 64-bit compare): for a double d >= 0, (bits(d) + 2^63 - 1) >> 63 is 1 if d > 0,
 * 0 if d = +0; for doubles 0 <= a, b, (bits(a) - bits(b)) >> 63 is 1 iff a < b. */
KD_INLINE uint64_t wp_positive(double d) { return (double_to_bits(d) + 0x7fffffffffffffffu) >> 63; }
KD_INLINE uint64_t wp_below(double a, double b) { return (double_to_bits(a) - double_to_bits(b)) >> 63; }

/* x >= 0 (below 2^15) rounded to 8 significant bits (bfloat16's normal range). */
KD_INLINE double wp_round_bfloat16(double x)
{
    return bits_to_double(crtrig_round_bits(double_to_bits(x), 45));
}

/* x >= 0 (below 2^15) rounded to float16: 11 significant bits from 2^-14 on, else
 * to a multiple of 2^-24 (x 2^24 + 2^52 rounds x 2^24 < 2^10 to an integer, ties to
 * even; the subtraction and the scalings are exact).  The two agree at 2^-14. */
KD_INLINE double wp_round_float16(double x)
{
    uint64_t normal = crtrig_round_bits(double_to_bits(x), 42);
    uint64_t sub = double_to_bits(((x * 0x1p24 + 0x1p52) - 0x1p52) * 0x1p-24);
    uint64_t below = (uint64_t)0 - wp_below(x, 0x1p-14);
    return bits_to_double((sub & below) | (normal & ~below));
}

/* bfloat16 bits of a bfloat16 value v >= 0: (bits >> 45) holds the exponent field
 * and 7 fraction bits, the field rebased from 1023 to 127 by subtracting 896 << 7;
 * v = 0 gives 0.  The marker where undecided. */
KD_INLINE uint32_t wp_store_bfloat16(double w, char *out, size_t i)
{
    double e = w * 0x1p-48;
    double lo = wp_round_bfloat16(w - e), hi = wp_round_bfloat16(w + e);
    uint64_t differ = wp_positive(hi - lo);
    uint64_t r = ((double_to_bits(lo) >> 45) - (896u << 7)) & ((uint64_t)0 - wp_positive(lo));
    uint16_t r16 = (uint16_t)(r | ((uint64_t)0 - differ));
    memcpy(out + 2 * i, &r16, sizeof r16);
    return (uint32_t)differ;
}

/* float16 bits of a float16 value v >= 0: normal (exponent field rebased from 1023
 * to 15, 10 fraction bits) from 2^-14 on, else the integer v 2^24 (read from the bits
 * of v 2^24 + 2^52, exact), which is the subnormal's pattern (and 1024 that of 2^-14).
 * The marker where undecided. */
KD_INLINE uint32_t wp_store_float16(double w, char *out, size_t i)
{
    double e = w * 0x1p-48;
    double lo = wp_round_float16(w - e), hi = wp_round_float16(w + e);
    uint64_t differ = wp_positive(hi - lo), below = (uint64_t)0 - wp_below(lo, 0x1p-14);
    uint64_t normal = (double_to_bits(lo) >> 42) - (1008u << 10);
    uint64_t sub = double_to_bits(lo * 0x1p24 + 0x1p52) - double_to_bits(0x1p52);
    uint16_t r16 = (uint16_t)((sub & below) | (normal & ~below) | ((uint64_t)0 - differ));
    memcpy(out + 2 * i, &r16, sizeof r16);
    return (uint32_t)differ;
}

#if defined(__GNUC__) && !defined(__clang__)
#define WP_VECTORIZE __attribute__((optimize("tree-vectorize")))
#else
#define WP_VECTORIZE
#endif

/* One loop per (window, format) over a run of c with a fixed a: no branch inside. */
#define WP_LOOP(WINDOW, STORE)                                                \
    for (i = 0; i < len; i++) {                                               \
        double y = kd_mul_add(sa, fc[i], ca * fs[i]);                         \
        undecided += STORE(WINDOW(y * y), o, i);                              \
    }

#define WP_DEFINE_RUN(FORMAT, WIDTH)                                                           \
    WP_VECTORIZE size_t CRTRIG_KERNEL(window_run_##FORMAT)(int kind, const crtrig_sinpi_table *t, \
                                                           uint64_t r0, size_t count, char *out) \
    {                                                                                          \
        size_t done = 0, undecided = 0;                                                        \
        while (done < count) {                                                                 \
            uint64_t r = r0 + done, a = r / t->B, c = r - a * t->B;                            \
            size_t len = (size_t)(t->B - c) < count - done ? (size_t)(t->B - c) : count - done; \
            double sa = t->coarse_sin_hi[a - t->a_first], ca = t->coarse_cos_hi[a - t->a_first]; \
            const double *fs = t->fine_sin_hi + c, *fc = t->fine_cos_hi + c;                   \
            char *o = out + (WIDTH) * done;                                                    \
            size_t i;                                                                          \
            if (kind == 0)                                                                     \
                WP_LOOP(wp_hann, wp_store_##FORMAT)                                            \
            else if (kind == 1)                                                                \
                WP_LOOP(wp_hamming, wp_store_##FORMAT)                                         \
            else                                                                               \
                WP_LOOP(wp_blackman, wp_store_##FORMAT)                                        \
            done += len;                                                                       \
        }                                                                                      \
        return undecided;                                                                      \
    }

WP_DEFINE_RUN(float32, 4)
WP_DEFINE_RUN(bfloat16, 2)
WP_DEFINE_RUN(float16, 2)

/* Test hook: the pass's unrounded w~ (*w) and its bound e (*e) from the entries
 * sa, ca (coarse) and fs, fc (fine), hi parts, as in the loops above. */
void CRTRIG_KERNEL(window_pass_value)(int kind, double sa, double ca, double fs, double fc, double *w,
                                      double *e)
{
    double y = kd_mul_add(sa, fc, ca * fs), s = y * y;
    *w = kind == 0 ? wp_hann(s) : kind == 1 ? wp_hamming(s) : wp_blackman(s);
    *e = *w * 0x1p-48;
}
