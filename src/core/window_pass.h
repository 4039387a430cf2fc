/* The first passes of the window generators for float32, bfloat16 and float16
 * outputs (and the integer outputs, which are computed in float32): one source,
 * compiled once per SIMD target by simd_baseline.c, simd_avx2.c and
 * simd_avx512.c (see pass_common.h).  Plain C the compiler vectorizes.
 *
 * For n = first .. first + count - 1 and D >= 1 (both exact doubles, D <= 2^53):
 *   r = min(n, D - n) (exact), t = RN(r / D) in [0, 1/2], y = sin(pi t) by
 *   sinpi_half_turn, s = RN(y^2), w = the window's polynomial in s (window.c).
 * Error of w, relative (u = 2^-53):
 *   t: u, moving sin(pi t) by at most u (pi t cot(pi t) <= 1);
 *   y: 6.08e-12 (pass_common.h, sincos_array.c) + u < 6.09e-12;
 *   s: 2 (6.09e-12) + u < 1.22e-11;
 *   w: at most 1.64 times that plus 3u (Blackman; window.c): < 2.0e-11 < 2^-35.5.
 * e = w 2^-35 (2.91e-11) covers it and the rounding of the endpoints
 * (ulp/2 <= 2^-53 w).  Both endpoints are rounded into the output format as in
 * sincos_pass.h (monotone), and equal results are the correctly rounded w[n].
 * Exact points need no special case: the bound holds there too, and no exact
 * window value is a rounding boundary (window.c).  float16 results below 2^-14
 * (its subnormal range, where rounding on the bits does not apply) and w = 0
 * are left undecided, for window.c's per-element path. */
#include "pass_common.h"
#include "window_poly.h"


/* Store the rounding of w (error bound e) and set undecided[i]: 0 decided,
 * 2 the roundings of the endpoints differ, 1 outside the pass's range. */
static inline void window_store_float32(double w, double e, char *out, size_t i,
                                        unsigned char *undecided)
{
    float lo = (float)(w - e), hi = (float)(w + e);
    memcpy(out + 4 * i, &lo, sizeof lo);
    undecided[i] = (unsigned char)((uint32_t)(lo != hi) << 1);
}

/* bfloat16: windows are >= sin^2(pi/2^53) > 2^-103, in its normal range; w = 0
 * (exponent field 0) is left to the per-element path. */
static inline void window_store_bfloat16(double w, double e, char *out, size_t i,
                                         unsigned char *undecided)
{
    uint64_t lo = crtrig_round_bits(double_to_bits(w - e), 45), hi = crtrig_round_bits(double_to_bits(w + e), 45);
    uint64_t field = (lo >> 52) & 0x7ffu;
    uint16_t r16 = (uint16_t)(((field - 896u) << 7) | ((lo >> 45) & 0x7fu));
    memcpy(out + 2 * i, &r16, sizeof r16);
    undecided[i] = (unsigned char)((uint32_t)(field == 0) | ((uint32_t)(lo != hi) << 1));
}

/* float16: normal range only (exponent field >= 1009, 2^-14). */
static inline void window_store_float16(double w, double e, char *out, size_t i,
                                        unsigned char *undecided)
{
    uint64_t lo = crtrig_round_bits(double_to_bits(w - e), 42), hi = crtrig_round_bits(double_to_bits(w + e), 42);
    uint64_t field = (lo >> 52) & 0x7ffu;
    uint16_t r16 = (uint16_t)(((field - 1008u) << 10) | ((lo >> 42) & 0x3ffu));
    memcpy(out + 2 * i, &r16, sizeof r16);
    undecided[i] = (unsigned char)((uint32_t)(field < 1009u) | ((uint32_t)(lo != hi) << 1));
}

/* One loop per (window, format): no branch inside, so it vectorizes. */
#define CRTRIG_WINDOW_LOOP(WINDOW_OF_S, STORE)                                 \
    for (i = 0; i < count; i++) {                                              \
        double n = first + (double)(int32_t)i;                                 \
        double other = D - n;                                                  \
        double r = n < other ? n : other;                                      \
        double y = sinpi_half_turn(r / D);                                     \
        double w = WINDOW_OF_S(y * y);                                         \
        STORE(w, w * 0x1p-35, out, i, undecided);                              \
    }

#define CRTRIG_DEFINE_WINDOW_PASS(FORMAT)                                                   \
    CRTRIG_VECTORIZE void CRTRIG_KERNEL(window_pass_##FORMAT)(                              \
        int kind, double first, double D, size_t count, char *out, unsigned char *undecided) \
    {                                                                                        \
        size_t i;                                                                            \
        if (kind == 0)                                                                       \
            CRTRIG_WINDOW_LOOP(hann_of_s, window_store_##FORMAT)                             \
        else if (kind == 1)                                                                  \
            CRTRIG_WINDOW_LOOP(hamming_of_s, window_store_##FORMAT)                          \
        else                                                                                 \
            CRTRIG_WINDOW_LOOP(blackman_of_s, window_store_##FORMAT)                         \
    }

#if defined(__GNUC__) && !defined(__clang__)
#define CRTRIG_VECTORIZE __attribute__((optimize("tree-vectorize")))
#else
#define CRTRIG_VECTORIZE
#endif

CRTRIG_DEFINE_WINDOW_PASS(float32)
CRTRIG_DEFINE_WINDOW_PASS(bfloat16)
CRTRIG_DEFINE_WINDOW_PASS(float16)

/* Test hook (baseline only): the first pass's unrounded w[n] and its bound e. */
void CRTRIG_KERNEL(window_pass_value)(int kind, double n, double D, double *w, double *e)
{
    double other = D - n;
    double y = sinpi_half_turn((n < other ? n : other) / D);
    double s = y * y;
    *w = kind == 0 ? hann_of_s(s) : kind == 1 ? hamming_of_s(s) : blackman_of_s(s);
    *e = *w * 0x1p-35;
}
