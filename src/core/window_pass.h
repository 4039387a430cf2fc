/* The first pass of the window fills for float32, bfloat16 and float16 outputs
 * (and the integer outputs, which are casts of the float32 window): one source,
 * compiled once per SIMD target by simd_baseline.c, simd_avx2.c and
 * simd_avx512.c (CRTRIG_KERNEL_FMA set, kernel_dd.h).  Plain C the compiler
 * vectorizes.
 *
 * window_run_FORMAT(coef, table, r0, count, out, mirror) writes w at the phases
 * r = r0 .. r0 + count - 1 (r <= D/2, within the table's range; window.c folds
 * n to r = min(n, D - n) exactly in integers) into out[0 .. count - 1]
 * (contiguous, the format's bits) and, for float32 unless mirror is NULL, into
 * mirror[0], mirror[-1], ... (the elements D - r of a contiguous output; the
 * 16-bit formats need mirror NULL), and returns how
 * many it left undecided; those hold a NaN (no window value with D >= 1 is one)
 * for window.c to finish.  With
 * r = a B + c (window_table.h):
 *   y = kd_mul_add(Sa, Cc, RN(Ca Sc))   ~ sin(pi r/D)   (Sa = sin(pi aB/D), ...: hi parts)
 *   s = RN(y y),  w~ = the window's polynomial in s (below),
 *   decided unless a rounding boundary of the format lies near w~ (the bit test
 *   below); the result is then the format's rounding of w~.
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
 * So |w~ - w| <= 22.01 u w <= 22.02 u w~ < 22.02 ulp(w~), with ulp(w~) = 2^(E-52) for
 * 2^E <= w~ < 2^(E+1) (u w~ < 2^(E-52)).
 *
 * Bit test.  A format with p significant bits (float32 24, bfloat16 8, float16 11)
 * has, among the doubles of [2^E, 2^(E+1)) in its normal range, its rounding
 * boundaries (midpoints) exactly where the low d = 53 - p bits of the double are
 * 2^(d-1), 2^d ulps apart; the boundaries nearest the binade in the binades beside
 * it are 2^E -+ 2^(E-p) and 2^(E+1) + 2^(E+1-p), at least 2^(d-1) ulps (of w~) from
 * any point of the binade.  So with t = (bits(w~) - 2^(d-1) + 32) mod 2^d, t >= 65
 * means no boundary within 32 > 22.02 ulps of w~, none between w~ and w: the format
 * rounds w as it rounds w~ (a format's rounding is monotone), and that rounding is
 * taken once, from w~ ((float) for float32, crtrig_round_bits on the bits for
 * bfloat16 and float16).  t <= 64 is undecided: about 1 phase in 2^23 for float32,
 * none in practice for bfloat16 (2^-39) and float16.  The test and the selects use
 * 64-bit adds, shifts and masks only (SSE2 has no 64-bit compare): for t < 2^63,
 * (t - 65) >> 63 is 1 iff t <= 64.
 * float16 below 2^-14 (its subnormals, quantum 2^-24, the same quantum as in
 * [2^-14, 2^-13), so the boundaries are the odd multiples of 2^-25 on both sides of
 * 2^-14, which is not one): v = w~ 2^24 (exact), k = RN(v) by the shifter (v + 2^52
 * rounds v < 2^10 to an integer, ties to even; k's bits are those of the float16 value
 * k 2^-24, 1024 being 2^-14), and delta = v - k (exact); |w~ - w| 2^24 < 23 ulp(w~)
 * 2^24 <= 23 2^-43 < 2^-38, so |delta| < 1/2 - 2^-38 decides (no boundary between
 * w~ and w), else undecided.  float32 and bfloat16 values stay in their normal range
 * (w~ >= 2^-101 > 2^-126 for r > 0); w~ = 0 (r = 0, Hann and Blackman: y~ = 0 exactly,
 * Sa = Sc = 0) is decided and gives +0.
 *
 * Exact points need no special case: the bound holds there, and no exact window
 * value is a rounding boundary of these formats (window.c).
 *
 * General Hamming (window_coef.h: w = c0 + c1 s, alpha = p/q in [0, 1]), with
 * A = c0_hi and B = c1_hi, each within 1.0001u of its coefficient:
 *   w~ = kd_mul_add(B, s, A):  B s~ is within 9.001u + 1.0001u (+ second order)
 *     <= 10.002u of c1 s; A within 1.0001u |c0|; kd_mul_add adds at most
 *     u |B s~ + A| + u |B s~|.
 *   alpha >= 1/2 (A, B >= 0, M = w): |w~ - w| <= 12.01u w <= 22.02u w: the bit
 *     test above, unchanged (w~ >= min(A, B s~) > 2^-105 for r > 0, or 0 at r = 0
 *     when A = 0, so float32 and bfloat16 stay normal); same speed as Hamming.
 *   alpha < 1/2 (A < 0: w changes sign): relative to M = |c0| + c1 s,
 *     |w~ - w| <= 10.002u c1 s + 1.0001u |c0| + 2.0003u M <= 12.003u M, and
 *     mag = kd_mul_add(B, s, |A|) >= M (1 - 12.003u) (no cancellation), so
 *     |w~ - w| <= 12.004u mag.  Test on the magnitude a = |w~| with
 *     E = mag 2^-49 = 16u mag (exact): lo = RN(a - E) <= |w| <= hi = RN(a + E),
 *     since the error plus the rounding of the ends, u (a + E) <= 1.0001u mag
 *     (a <= |w| + 12.004u mag <= mag (1 + 25u)), is at most 13.01u mag < E.
 *     Decided iff lo >= the format's smallest normal (so a > E: w has w~'s
 *     sign, and both ends are in the normal range of the rounding below) and lo
 *     and hi round alike (rounding is monotone): the result is that rounding with
 *     w~'s sign (round to nearest is symmetric).  Elements near the root (|w|
 *     below about 2^-20 M for float32), and float16 results below 2^-14, go on
 *     to window.c's stages, whose bounds are relative to M too.
 *
 * The window is computed from the folded phase, so the same element comes out of
 * every target and every split of the fill (each value is the correctly rounded one).
 */
#include "pass_common.h"
#include "kernel_dd.h"
#include "window_table.h"
#include "window_coef.h"

/* RN(2/23), RN(21/23), RN(9/25), RN(16/25): the hi parts of the double-double
 * constants of window64_pass.h (tests/test_window_pass.py checks them). */
static const double WP_HAMMING_A = 0x1.642c8590b2164p-4;
static const double WP_HAMMING_B = 0x1.d37a6f4de9bd3p-1;
static const double WP_BLACKMAN_P = 0x1.70a3d70a3d70ap-2;
static const double WP_BLACKMAN_Q = 0x1.47ae147ae147bp-1;

KD_INLINE double wp_hann(double s) { return s; }
KD_INLINE double wp_general(double s, double a, double b) { return kd_mul_add(b, s, a); }
KD_INLINE double wp_hamming(double s) { return kd_mul_add(WP_HAMMING_B, s, WP_HAMMING_A); }
KD_INLINE double wp_blackman(double s) { return s * kd_mul_add(WP_BLACKMAN_Q, s, WP_BLACKMAN_P); }

/* 1 iff a rounding boundary of the format that keeps 53 - dropped bits of the
 * double may lie within 32 ulps of w (the bit test above). */
KD_INLINE uint64_t wp_near_boundary(double w, int dropped)
{
    uint64_t t = (double_to_bits(w) - (((uint64_t)1 << (dropped - 1)) - 32)) &
                 (((uint64_t)1 << dropped) - 1);
    return (t - 65) >> 63;
}

/* Each store writes the format's rounding of w (or a NaN) at out[i] and returns 1
 * if undecided.  float32: the double's bits with all ones or'ed in where undecided
 * (a NaN), then (float). */
KD_INLINE uint64_t wp_store_float32(double w, char *out, size_t i)
{
    uint64_t undecided = wp_near_boundary(w, 29);
    float f = (float)bits_to_double(double_to_bits(w) | ((uint64_t)0 - undecided));
    memcpy(out + 4 * i, &f, sizeof f);
    return undecided;
}

/* bfloat16: (bits >> 45) of the rounded double holds the exponent field and 7
 * fraction bits, the field rebased from 1023 to 127 by subtracting 896 << 7; w = 0
 * (bits 0; (bits + 2^63 - 1) >> 63 is 0 only then) gives 0; 0xffff (a NaN) where
 * undecided. */
KD_INLINE uint64_t wp_store_bfloat16(double w, char *out, size_t i)
{
    uint64_t m = double_to_bits(w), undecided = wp_near_boundary(w, 45);
    uint64_t nonzero = (uint64_t)0 - ((m + 0x7fffffffffffffffu) >> 63);
    uint64_t r = ((crtrig_round_bits(m, 45) >> 45) - (896u << 7)) & nonzero;
    uint16_t r16 = (uint16_t)(r | ((uint64_t)0 - undecided));
    memcpy(out + 2 * i, &r16, sizeof r16);
    return undecided;
}

/* float16: normal (exponent field rebased from 1023 to 15, 10 fraction bits) from
 * 2^-14 on, else the subnormal test and pattern above; 0xffff (a NaN) where
 * undecided.  below: all ones iff bits(w) < bits(2^-14), i.e. w < 2^-14 (w >= 0). */
KD_INLINE uint64_t wp_store_float16(double w, char *out, size_t i)
{
    uint64_t m = double_to_bits(w);
    uint64_t below = (uint64_t)0 - ((m - double_to_bits(0x1p-14)) >> 63);
    uint64_t normal = (crtrig_round_bits(m, 42) >> 42) - (1008u << 10);
    double v = w * 0x1p24, shifted = v + 0x1p52, delta = v - (shifted - 0x1p52);
    uint64_t sub = double_to_bits(shifted) - double_to_bits(0x1p52);
    uint64_t sub_undecided = (double_to_bits(0.5 - 0x1p-38) - 1 -
                              (double_to_bits(delta) & 0x7fffffffffffffffu)) >> 63;
    uint64_t undecided = (sub_undecided & below) | (wp_near_boundary(w, 42) & ~below);
    uint16_t r16 = (uint16_t)((sub & below) | (normal & ~below) | ((uint64_t)0 - undecided));
    memcpy(out + 2 * i, &r16, sizeof r16);
    return undecided;
}

/* The general Hamming window for alpha < 1/2: the ends a -+ E of |w~| (see above),
 * each format's rounding of them (normal range), and w~'s sign; the format's
 * all-ones pattern (a NaN) where undecided.  SSE2 has no 64-bit integer compare, so
 * the 16-bit formats test on the bits with adds, shifts and ors: lo < T (T the
 * smallest normal, lo possibly negative) is (bits(lo) >> 63) | ((bits(lo) - bits(T))
 * >> 63), and x != 0 is (x | -x) >> 63. */
KD_INLINE uint64_t wp_signed_undecided(double lo, double smallest_normal, uint64_t rl, uint64_t rh)
{
    uint64_t lb = double_to_bits(lo), x = rl ^ rh;
    return (lb >> 63) | ((lb - double_to_bits(smallest_normal)) >> 63) | ((x | ((uint64_t)0 - x)) >> 63);
}

KD_INLINE uint64_t wp_store_signed_float32(double w, double mag, char *out, size_t i)
{
    uint64_t sign = double_to_bits(w) >> 63;
    double a = fabs(w), e = mag * 0x1p-49, lo = a - e, hi = a + e;
    float flo = (float)lo, fhi = (float)hi;
    uint64_t undecided = (uint64_t)((lo < 0x1p-126) | (flo != fhi));
    uint32_t b;
    memcpy(&b, &flo, sizeof b);
    b = (uint32_t)((uint64_t)b | (sign << 31) | ((uint64_t)0 - undecided));
    memcpy(out + 4 * i, &b, sizeof b);
    return undecided;
}

/* The 16-bit formats: rounding on the bits (dropped = 45 bfloat16, 42 float16), the
 * exponent field rebased by rebias (896 << 7, 1008 << 10). */
KD_INLINE uint64_t wp_store_signed_16(double w, double mag, char *out, size_t i, int dropped,
                                      double smallest_normal, uint64_t rebias)
{
    uint64_t sign = double_to_bits(w) >> 63;
    double a = fabs(w), e = mag * 0x1p-49, lo = a - e, hi = a + e;
    uint64_t rl = crtrig_round_bits(double_to_bits(lo), dropped), rh = crtrig_round_bits(double_to_bits(hi), dropped);
    uint64_t undecided = wp_signed_undecided(lo, smallest_normal, rl, rh);
    uint16_t r16 = (uint16_t)(((rl >> dropped) - rebias) | (sign << 15) | ((uint64_t)0 - undecided));
    memcpy(out + 2 * i, &r16, sizeof r16);
    return undecided;
}

KD_INLINE uint64_t wp_store_signed_bfloat16(double w, double mag, char *out, size_t i)
{
    return wp_store_signed_16(w, mag, out, i, 45, 0x1p-126, 896u << 7);
}

KD_INLINE uint64_t wp_store_signed_float16(double w, double mag, char *out, size_t i)
{
    return wp_store_signed_16(w, mag, out, i, 42, 0x1p-14, 1008u << 10);
}

#if defined(__GNUC__) && !defined(__clang__)
#define WP_VECTORIZE __attribute__((optimize("tree-vectorize")))
#else
#define WP_VECTORIZE
#endif

/* One loop per (window, format, mirror or not) over a run of c with a fixed a: no
 * branch inside.  With a mirror, each value also goes to m - WIDTH i (the element
 * D - r of a contiguous output, whose address falls as r rises).  Functions of
 * their own, so that restrict (the table, o and m never overlap: window.c stores a
 * phase's two elements at different places) spares the compiler its alias checks. */
#define WP_DEFINE_SPAN(NAME, WINDOW, STORE)                                                     \
    WP_VECTORIZE static size_t NAME(double sa, double ca, const double *restrict fs,            \
                                    const double *restrict fc, size_t len, char *restrict o)   \
    {                                                                                           \
        size_t i, undecided = 0;                                                                \
        for (i = 0; i < len; i++) {                                                             \
            double y = kd_mul_add(sa, fc[i], ca * fs[i]);                                       \
            undecided += STORE(WINDOW(y * y), o, i);                                            \
        }                                                                                       \
        return undecided;                                                                       \
    }
#define WP_DEFINE_SPAN_MIRROR(NAME, WINDOW, STORE, WIDTH)                                       \
    WP_VECTORIZE static size_t NAME##_mirror(double sa, double ca, const double *restrict fs,   \
                                             const double *restrict fc, size_t len,             \
                                             char *restrict o, char *restrict m)                \
    {                                                                                           \
        size_t i, undecided = 0;                                                                \
        for (i = 0; i < len; i++) {                                                             \
            double y = kd_mul_add(sa, fc[i], ca * fs[i]);                                       \
            undecided += STORE(WINDOW(y * y), o, i);                                            \
            memcpy(m - (WIDTH) * (ptrdiff_t)i, o + (WIDTH) * i, WIDTH);                         \
        }                                                                                       \
        return undecided;                                                                       \
    }

/* The general Hamming window's spans: alpha >= 1/2 through the format's store (the
 * bit test), alpha < 1/2 through the signed store; with and without the mirror. */
#define WP_DEFINE_GENERAL_SPANS(FORMAT, WIDTH, MIRROR)                                          \
    WP_VECTORIZE static size_t wp_span_general_##FORMAT(double sa, double ca, const double *restrict fs, \
                                                        const double *restrict fc, size_t len,   \
                                                        char *restrict o, double a0, double b1)  \
    {                                                                                           \
        size_t i, undecided = 0;                                                                \
        for (i = 0; i < len; i++) {                                                             \
            double y = kd_mul_add(sa, fc[i], ca * fs[i]);                                       \
            undecided += wp_store_##FORMAT(wp_general(y * y, a0, b1), o, i);                    \
        }                                                                                       \
        return undecided;                                                                       \
    }                                                                                           \
    WP_VECTORIZE static size_t wp_span_signed_##FORMAT(double sa, double ca, const double *restrict fs, \
                                                       const double *restrict fc, size_t len,    \
                                                       char *restrict o, double a0, double b1)   \
    {                                                                                           \
        size_t i, undecided = 0;                                                                \
        const double abs_a0 = fabs(a0);                                                         \
        for (i = 0; i < len; i++) {                                                             \
            double y = kd_mul_add(sa, fc[i], ca * fs[i]), s = y * y;                            \
            undecided += wp_store_signed_##FORMAT(wp_general(s, a0, b1), wp_general(s, abs_a0, b1), o, i); \
        }                                                                                       \
        return undecided;                                                                       \
    }                                                                                           \
    MIRROR(WP_VECTORIZE static size_t wp_span_general_##FORMAT##_mirror(                        \
        double sa, double ca, const double *restrict fs, const double *restrict fc, size_t len, \
        char *restrict o, char *restrict m, double a0, double b1)                               \
    {                                                                                           \
        size_t i, undecided = 0;                                                                \
        for (i = 0; i < len; i++) {                                                             \
            double y = kd_mul_add(sa, fc[i], ca * fs[i]);                                       \
            undecided += wp_store_##FORMAT(wp_general(y * y, a0, b1), o, i);                    \
            memcpy(m - (WIDTH) * (ptrdiff_t)i, o + (WIDTH) * i, WIDTH);                         \
        }                                                                                       \
        return undecided;                                                                       \
    }                                                                                           \
    WP_VECTORIZE static size_t wp_span_signed_##FORMAT##_mirror(                                \
        double sa, double ca, const double *restrict fs, const double *restrict fc, size_t len, \
        char *restrict o, char *restrict m, double a0, double b1)                               \
    {                                                                                           \
        size_t i, undecided = 0;                                                                \
        const double abs_a0 = fabs(a0);                                                         \
        for (i = 0; i < len; i++) {                                                             \
            double y = kd_mul_add(sa, fc[i], ca * fs[i]), s = y * y;                            \
            undecided += wp_store_signed_##FORMAT(wp_general(s, a0, b1), wp_general(s, abs_a0, b1), o, i); \
            memcpy(m - (WIDTH) * (ptrdiff_t)i, o + (WIDTH) * i, WIDTH);                         \
        }                                                                                       \
        return undecided;                                                                       \
    })

/* The pass of a format: runs of c with a fixed a (the coarse entries) through the
 * span loops.  MIRROR(...) expands to its argument for float32, whose elements the
 * targets reverse in vector registers; the 16-bit formats take no mirror (mirror
 * must be NULL: SSE2 cannot reverse 16-bit lanes, so window.c copies those). */
#define WP_WITH_MIRROR(...) __VA_ARGS__
#define WP_NO_MIRROR(...)
#define WP_DEFINE_RUN(FORMAT, WIDTH, MIRROR)                                                     \
    WP_DEFINE_SPAN(wp_span_hann_##FORMAT, wp_hann, wp_store_##FORMAT)                            \
    WP_DEFINE_SPAN(wp_span_hamming_##FORMAT, wp_hamming, wp_store_##FORMAT)                      \
    WP_DEFINE_SPAN(wp_span_blackman_##FORMAT, wp_blackman, wp_store_##FORMAT)                    \
    MIRROR(WP_DEFINE_SPAN_MIRROR(wp_span_hann_##FORMAT, wp_hann, wp_store_##FORMAT, WIDTH))      \
    MIRROR(WP_DEFINE_SPAN_MIRROR(wp_span_hamming_##FORMAT, wp_hamming, wp_store_##FORMAT, WIDTH)) \
    MIRROR(WP_DEFINE_SPAN_MIRROR(wp_span_blackman_##FORMAT, wp_blackman, wp_store_##FORMAT, WIDTH)) \
    WP_DEFINE_GENERAL_SPANS(FORMAT, WIDTH, MIRROR)                                               \
    size_t CRTRIG_KERNEL(window_run_##FORMAT)(const crtrig_window_coef *coef, const crtrig_sinpi_table *t, \
                                              uint64_t r0, size_t count, char *out, char *mirror) \
    {                                                                                            \
        size_t done = 0, undecided = 0;                                                          \
        const int kind = coef->kind == CRTRIG_GENERAL_HAMMING ? 3 + coef->cancels : coef->kind;  \
        const double a0 = coef->c0_hi, b1 = coef->c1_hi;                                          \
        (void)mirror;                                                                            \
        while (done < count) {                                                                   \
            uint64_t r = r0 + done, a = r / t->B, c = r - a * t->B;                              \
            size_t len = (size_t)(t->B - c) < count - done ? (size_t)(t->B - c) : count - done;   \
            double sa = t->coarse_sin_hi[a - t->a_first], ca = t->coarse_cos_hi[a - t->a_first];   \
            const double *fs = t->fine_sin_hi + c, *fc = t->fine_cos_hi + c;                     \
            char *o = out + (WIDTH) * done;                                                      \
            MIRROR(if (mirror) {                                                                 \
                char *m = mirror - (WIDTH) * (ptrdiff_t)done;                                    \
                undecided += kind == 0   ? wp_span_hann_##FORMAT##_mirror(sa, ca, fs, fc, len, o, m) \
                             : kind == 1 ? wp_span_hamming_##FORMAT##_mirror(sa, ca, fs, fc, len, o, m) \
                             : kind == 2 ? wp_span_blackman_##FORMAT##_mirror(sa, ca, fs, fc, len, o, m) \
                             : kind == 3 ? wp_span_general_##FORMAT##_mirror(sa, ca, fs, fc, len, o, m, a0, b1) \
                                         : wp_span_signed_##FORMAT##_mirror(sa, ca, fs, fc, len, o, m, a0, b1); \
                done += len;                                                                     \
                continue;                                                                        \
            })                                                                                   \
            undecided += kind == 0   ? wp_span_hann_##FORMAT(sa, ca, fs, fc, len, o)               \
                         : kind == 1 ? wp_span_hamming_##FORMAT(sa, ca, fs, fc, len, o)            \
                         : kind == 2 ? wp_span_blackman_##FORMAT(sa, ca, fs, fc, len, o)           \
                         : kind == 3 ? wp_span_general_##FORMAT(sa, ca, fs, fc, len, o, a0, b1)    \
                                     : wp_span_signed_##FORMAT(sa, ca, fs, fc, len, o, a0, b1);    \
            done += len;                                                                         \
        }                                                                                        \
        return undecided;                                                                        \
    }

WP_DEFINE_RUN(float32, 4, WP_WITH_MIRROR)
WP_DEFINE_RUN(bfloat16, 2, WP_NO_MIRROR)
WP_DEFINE_RUN(float16, 2, WP_NO_MIRROR)

/* Test hook: the pass's unrounded w~ (*w) and the bound on |w~ - w| it relies on
 * (*e = 22.02 u w~; general Hamming with alpha < 1/2: 12.01 u mag, relative to the
 * terms' magnitude, see above) from the entries sa, ca (coarse) and fs, fc (fine),
 * hi parts, as in the loops above; returns 2 if the pass leaves it undecided in
 * format fmt (0 float16, 1 bfloat16, 2 float32), else 0. */
int CRTRIG_KERNEL(window_pass_value)(const crtrig_window_coef *coef, int fmt, double sa, double ca,
                                     double fs, double fc, double *w, double *e)
{
    double y = kd_mul_add(sa, fc, ca * fs), s = y * y;
    int kind = coef->kind;
    char scratch[4];
    if (kind == CRTRIG_GENERAL_HAMMING && coef->cancels) {
        double mag = wp_general(s, fabs(coef->c0_hi), coef->c1_hi);
        *w = wp_general(s, coef->c0_hi, coef->c1_hi);
        *e = mag * 12.01 * 0x1p-53;  /* the proven bound on |w~ - w| (above) */
        if (fmt == 0)
            return (int)wp_store_signed_float16(*w, mag, scratch, 0) << 1;
        if (fmt == 1)
            return (int)wp_store_signed_bfloat16(*w, mag, scratch, 0) << 1;
        return (int)wp_store_signed_float32(*w, mag, scratch, 0) << 1;
    }
    *w = kind == 0 ? wp_hann(s) : kind == 1 ? wp_hamming(s) : kind == 2 ? wp_blackman(s)
                                                                        : wp_general(s, coef->c0_hi, coef->c1_hi);
    *e = *w * 22.02 * 0x1p-53;  /* the proven bound on |w~ - w| (above) */
    if (fmt == 0)
        return (int)wp_store_float16(*w, scratch, 0) << 1;
    if (fmt == 1)
        return (int)wp_store_bfloat16(*w, scratch, 0) << 1;
    return (int)wp_store_float32(*w, scratch, 0) << 1;
}
