/* The first passes of the sin/cos array kernels for float32, bfloat16 and
 * float16: one source, compiled once per SIMD target by simd_baseline.c,
 * simd_avx2.c and simd_avx512.c, whose CRTRIG_SIMD_SUFFIX names the functions
 * (pass_common.h) and whose CRTRIG_KERNEL_FMA picks the FMA or the FMA-free form
 * of each step (kernel_dd.h).  Plain C without branches in the loops, which the
 * compiler vectorizes; the method and its error bound are in sincos32_core.h.
 *
 * Every lane is classified from its bits (no comparison touches a NaN):
 *   tiny, |x| < 2^-13 (zeros and subnormals included): RN(sin x) = x and RN(cos x) = 1
 *     in all three formats, copied from the bits (no flag raised, -0 kept).  For
 *     0 < |x| < 2^-13 with 2^e <= |x| < 2^(e+1), 0 < x - sin x < |x|^3/6 is below half
 *     the gap towards zero, 2^(e-p) (2^(e-p-1) if |x| = 2^e; p = 24, 11 or 8 bits, or
 *     a fixed gap >= 2^-150 in the subnormal range): 2^(3e+3)/6 < 2^(e-24) needs
 *     2^(2e+27) < 6, and 2^(3e)/6 < 2^(e-25) needs 2^(2e+25) < 6, both true for
 *     e <= -14; and 0 < 1 - cos x < x^2/2 < 2^-27, below half the gap under 1
 *     (2^-25 for float32, more for the others).
 *   inf and NaN: undecided = 1, for the per-element stages (NaN quiet, inf -> NaN and
 *     FE_INVALID).  These lanes and the tiny ones compute on x = 1 instead.
 *   ordinary (2^-13 <= |x| <= the largest float32): the small reduction, or the
 *     table reduction when the chunk holds a finite |x| >= 2^24 (every lane of such
 *     a chunk takes it), then the rounding test on the bits of y: undecided = 2
 *     when it fails, 0 when out[i] is the correctly rounded f(x).
 * float16 results below 2^-14 (its subnormal range, where rounding on the bits
 * does not apply) are left undecided (1).  Chunks of float32 whose lanes are all
 * ordinary and below 2^24 run a loop without the classification (CLEAN).
 * Each pass returns whether any undecided[i] is nonzero, so that the array kernel
 * skips its second pass over blocks that are all decided.
 */
#include "pass_common.h"
#include "sincos32_core.h"

/* GCC: vectorize at -O2, and schedule before register allocation with an eye on
 * register pressure (x86-64 GCC does not by default): the loops keep two vectors of
 * doubles per variable live, and without it they spill.  The avx2 float32 sin pass
 * (timeit of _core.first_pass_with_target on 65,536 floats in [-pi, pi], 2-core AMD
 * EPYC) took 3.15 instead of 3.6 ns per element.  Scheduling reorders, it changes
 * no operation (contraction stays off). */
#if defined(__GNUC__) && !defined(__clang__)
#define SC32_VECTORIZE __attribute__((optimize("tree-vectorize", "schedule-insns", "sched-pressure")))
#else
#define SC32_VECTORIZE
#endif

enum { SC32_CHUNK = 256 };
enum { SC32_CLEAN = 0, SC32_SMALL = 1, SC32_LARGE = 2 };

/* float32 bits of |x| */
#define SC32_ABS32 0x7fffffffu
#define SC32_TINY32 0x39000000u   /* 2^-13 */
#define SC32_LARGE32 0x4b800000u  /* 2^24 */
#define SC32_INF32 0x7f800000u
#define SC32_ONE32 0x3f800000u

KD_INLINE double sc32_value(double x, int is_cos, int mode)
{
    return mode == SC32_LARGE ? sc32_value_table(x, is_cos) : sc32_value_small(x, is_cos);
}

/* One float32 lane (w: the input's bits): the output bits, and *undecided with bit 63
 * set when the rounding test fails on y (for lanes that are not ordinary, y of x = 1).
 *   CLEAN: the lane is ordinary and below 2^24 (the caller checks);
 *   SMALL: the chunk has no finite |x| >= 2^24; LARGE: any lane. */
KD_INLINE uint32_t sc32_lane_float32(int is_cos, int mode, uint32_t w, uint64_t *undecided)
{
    uint32_t a = w & SC32_ABS32, wx = w, ordinary, tiny, special, ob;
    float xf, yf;
    double y;
    if (mode != SC32_CLEAN) {
        ordinary = a - SC32_TINY32 < SC32_INF32 - SC32_TINY32;
        wx = (w & (0u - ordinary)) | (SC32_ONE32 & (ordinary - 1u));
    }
    memcpy(&xf, &wx, sizeof xf);
    y = sc32_value((double)xf, is_cos, mode);
    yf = (float)y;
    memcpy(&ob, &yf, sizeof ob);
    *undecided = sc32_undecided_top_float32(y);
    if (mode == SC32_CLEAN)
        return ob;
    tiny = a < SC32_TINY32;
    special = a >= SC32_INF32;
    return (ob & (0u - ordinary)) | ((is_cos ? SC32_ONE32 : w) & (0u - tiny)) | (w & (0u - special));
}

/* The flag of a float32 lane (w) whose test gave undecided (bit 63): 2 for an ordinary lane
 * that failed it, 1 for inf and NaN, else 0. */
KD_INLINE uint32_t sc32_flag_float32(uint32_t w, uint64_t undecided)
{
    uint32_t a = w & SC32_ABS32;
    uint32_t ordinary = a - SC32_TINY32 < SC32_INF32 - SC32_TINY32;
    return (((uint32_t)(undecided >> 63) << 1) & (0u - ordinary)) | (uint32_t)(a >= SC32_INF32);
}

/* The fast loops write the outputs and return bit 63 of the OR of the lanes' tests
 * (including the lanes computed on x = 1): 0 proves every ordinary lane decided.  The
 * CLEAN loop also sets *outside when a lane is not ordinary or is >= 2^24 (the chunk
 * is then recomputed): it keeps the largest |w| - 2^-13 (as unsigned, so that lanes
 * below 2^-13 wrap to huge values) and compares it once.  The flag loops, run on the few chunks where the test is not 0
 * or that hold inf or NaN, compute the same outputs and the flags. */
#define SC32_LOOP_FLOAT32(NAME, IS_COS, MODE)                                              \
    SC32_VECTORIZE static uint64_t NAME(const char *in, char *out, size_t n, uint32_t *outside) \
    {                                                                                       \
        uint64_t any = 0;                                                                   \
        uint32_t spread = 0;                                                                \
        size_t i;                                                                           \
        for (i = 0; i < n; i++) {                                                           \
            uint32_t w, o;                                                                  \
            uint64_t u;                                                                     \
            memcpy(&w, in + 4 * i, sizeof w);                                               \
            if (MODE == SC32_CLEAN) {                                                       \
                uint32_t d = (w & SC32_ABS32) - SC32_TINY32;                                \
                spread = d > spread ? d : spread;                                           \
            }                                                                               \
            o = sc32_lane_float32(IS_COS, MODE, w, &u);                                     \
            memcpy(out + 4 * i, &o, sizeof o);                                              \
            any |= u;                                                                       \
        }                                                                                   \
        *outside = spread >= SC32_LARGE32 - SC32_TINY32;                                    \
        return any >> 63;                                                                   \
    }
#define SC32_FLAG_LOOP_FLOAT32(NAME, IS_COS, MODE)                                          \
    SC32_VECTORIZE static void NAME(const char *in, char *out, size_t n, uint32_t *flags)    \
    {                                                                                       \
        size_t i;                                                                           \
        for (i = 0; i < n; i++) {                                                           \
            uint32_t w, o;                                                                  \
            uint64_t u;                                                                     \
            memcpy(&w, in + 4 * i, sizeof w);                                               \
            o = sc32_lane_float32(IS_COS, MODE, w, &u);                                     \
            memcpy(out + 4 * i, &o, sizeof o);                                              \
            flags[i] = sc32_flag_float32(w, u);                                             \
        }                                                                                   \
    }
SC32_LOOP_FLOAT32(sc32_sin_clean_float32, 0, SC32_CLEAN)
SC32_LOOP_FLOAT32(sc32_sin_small_float32, 0, SC32_SMALL)
SC32_LOOP_FLOAT32(sc32_sin_large_float32, 0, SC32_LARGE)
SC32_LOOP_FLOAT32(sc32_cos_clean_float32, 1, SC32_CLEAN)
SC32_LOOP_FLOAT32(sc32_cos_small_float32, 1, SC32_SMALL)
SC32_LOOP_FLOAT32(sc32_cos_large_float32, 1, SC32_LARGE)
SC32_FLAG_LOOP_FLOAT32(sc32_sin_small_flags_float32, 0, SC32_SMALL)
SC32_FLAG_LOOP_FLOAT32(sc32_sin_large_flags_float32, 0, SC32_LARGE)
SC32_FLAG_LOOP_FLOAT32(sc32_cos_small_flags_float32, 1, SC32_SMALL)
SC32_FLAG_LOOP_FLOAT32(sc32_cos_large_flags_float32, 1, SC32_LARGE)

/* The flags of a chunk into undecided[]; returns whether one is set. */
KD_INLINE uint32_t sc32_store_flags(const uint32_t *flags, size_t n, unsigned char *undecided)
{
    uint32_t any = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        undecided[i] = (unsigned char)flags[i];
        any |= flags[i];
    }
    return any;
}

/* Whether the first (up to) 4 lanes of a chunk are ordinary and below 2^24. */
KD_INLINE int sc32_head_is_clean(const char *in, size_t n)
{
    uint32_t outside = 0;
    size_t i;
    for (i = 0; i < n && i < 4; i++) {
        uint32_t w;
        memcpy(&w, in + 4 * i, sizeof w);
        outside |= (w & SC32_ABS32) - SC32_TINY32 >= SC32_LARGE32 - SC32_TINY32;
    }
    return !outside;
}

/* One chunk of n <= SC32_CHUNK float32 lanes; returns the OR of its flags.  A chunk
 * whose first lanes are clean runs the CLEAN loop, which checks every lane as it
 * goes; other chunks, and those where that check fails, are classified and run the
 * SMALL loop, or the LARGE one when they hold a finite |x| >= 2^24. */
KD_INLINE uint32_t sc32_chunk_float32(int is_cos, const char *src, char *dst, size_t n,
                                      unsigned char *undecided)
{
    uint32_t flags[SC32_CHUNK], outside = 1, large = 0, special = 0;
    uint64_t tested = 0;
    size_t i;
    if (sc32_head_is_clean(src, n))
        tested = (is_cos ? sc32_cos_clean_float32 : sc32_sin_clean_float32)(src, dst, n, &outside);
    if (outside) {
        for (i = 0; i < n; i++) {
            uint32_t w, a;
            memcpy(&w, src + 4 * i, sizeof w);
            a = w & SC32_ABS32;
            large |= a - SC32_LARGE32 < SC32_INF32 - SC32_LARGE32;
            special |= a >= SC32_INF32;
        }
        if (is_cos)
            tested = (large ? sc32_cos_large_float32 : sc32_cos_small_float32)(src, dst, n, &outside);
        else
            tested = (large ? sc32_sin_large_float32 : sc32_sin_small_float32)(src, dst, n, &outside);
    }
    if (!tested && !special) {
        memset(undecided, 0, n);
        return 0;
    }
    if (is_cos)
        (large ? sc32_cos_large_flags_float32 : sc32_cos_small_flags_float32)(src, dst, n, flags);
    else
        (large ? sc32_sin_large_flags_float32 : sc32_sin_small_flags_float32)(src, dst, n, flags);
    return sc32_store_flags(flags, n, undecided);
}

/* First pass over count contiguous float32 inputs (in and out may be unaligned but
 * must not overlap): out[i] and undecided[i] as described at the top. */
SC32_VECTORIZE int CRTRIG_KERNEL(sincos_pass_float32)(int func, const char *in, char *out,
                                                      size_t count, unsigned char *undecided)
{
    uint32_t any = 0;
    size_t start;
    for (start = 0; start < count; start += SC32_CHUNK) {
        size_t n = count - start < SC32_CHUNK ? count - start : SC32_CHUNK;
        any |= sc32_chunk_float32(func != 0, in + 4 * start, out + 4 * start, n, undecided + start);
    }
    return any != 0;
}

/* ---- bfloat16 and float16: three loops per chunk, each of one element width, so
 * that each vectorizes without spilling: the inputs to float32 bits (the ordinary
 * ones; 1.0 for the others), the values y, and the rounding on the bits. ---- */

/* Constants of the 16-bit formats (is_bf16 a constant in each loop). */
#define SC32_ABS16 0x7fffu
#define SC32_TINY16(is_bf16) ((is_bf16) ? 0x3900u : 0x0800u)  /* 2^-13 */
#define SC32_INF16(is_bf16) ((is_bf16) ? 0x7f80u : 0x7c00u)
#define SC32_ONE16(is_bf16) ((is_bf16) ? 0x3f80u : 0x3c00u)

/* Loop 1: float32 bits of the ordinary inputs, 1.0 for the others; returns whether
 * the chunk holds a finite |x| >= 2^24 (bfloat16 only). */
KD_INLINE uint32_t sc32_widen_16(int is_bf16, const char *in, size_t n, uint32_t *wx)
{
    uint32_t large = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        uint16_t h;
        uint32_t a, w, ordinary;
        memcpy(&h, in + 2 * i, sizeof h);
        a = h & SC32_ABS16;
        /* bfloat16: the float32 of the same value; float16 (normal here): exponent
         * rebiased by 127 - 15 = 112, significand moved up 13 bits. */
        w = is_bf16 ? (uint32_t)h << 16 : (((uint32_t)h & 0x8000u) << 16) | ((a << 13) + (112u << 23));
        ordinary = a - SC32_TINY16(is_bf16) < SC32_INF16(is_bf16) - SC32_TINY16(is_bf16);
        wx[i] = (w & (0u - ordinary)) | (SC32_ONE32 & (ordinary - 1u));
        if (is_bf16)
            large |= a - 0x4b80u < 0x7f80u - 0x4b80u;
    }
    return large;
}

/* Loop 2: y for every lane (the float32 values in wx). */
#define SC32_LOOP_VALUES(NAME, IS_COS, MODE)                                          \
    SC32_VECTORIZE static void NAME(const uint32_t *wx, size_t n, double *y)         \
    {                                                                                 \
        size_t i;                                                                     \
        for (i = 0; i < n; i++) {                                                     \
            float xf;                                                                 \
            memcpy(&xf, &wx[i], sizeof xf);                                           \
            y[i] = sc32_value((double)xf, IS_COS, MODE);                              \
        }                                                                             \
    }
SC32_LOOP_VALUES(sc32_sin_small_values, 0, SC32_SMALL)
SC32_LOOP_VALUES(sc32_sin_large_values, 0, SC32_LARGE)
SC32_LOOP_VALUES(sc32_cos_small_values, 1, SC32_SMALL)
SC32_LOOP_VALUES(sc32_cos_large_values, 1, SC32_LARGE)

/* Loop 3: y rounded on its bits into the format (round half up in magnitude, which
 * is round to nearest wherever the test passes: no tie is within 1024 ulps), the
 * exponent rebiased (1023 - 127 = 896 for bfloat16, 1023 - 15 = 1008 for float16);
 * the tiny and special lanes; the flags.  Returns the OR of the flags. */
KD_INLINE uint32_t sc32_narrow_16(int is_bf16, int is_cos, const char *in, const double *y,
                                  size_t n, char *out, uint32_t *flags)
{
    const unsigned dropped = is_bf16 ? 45u : 42u;
    uint32_t any = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        uint16_t h, r16;
        uint32_t a, tiny, special, ordinary, undecided, subnormal, exponent, r, f;
        uint64_t yb, magnitude;
        memcpy(&h, in + 2 * i, sizeof h);
        memcpy(&yb, &y[i], sizeof yb);
        a = h & SC32_ABS16;
        tiny = a < SC32_TINY16(is_bf16);
        special = a >= SC32_INF16(is_bf16);
        ordinary = (tiny | special) ^ 1u;
        undecided = sc32_undecided(y[i], dropped);
        /* float16 only: results below 2^-14 (exponent field < 1009) are subnormal */
        exponent = (uint32_t)(yb >> 52) & 0x7ffu;  /* compared in 32 bits: SSE2 has no 64-bit compare */
        subnormal = is_bf16 ? 0u : (uint32_t)(exponent < 1009u);
        magnitude = ((yb & 0x7fffffffffffffffu) + ((uint64_t)1 << (dropped - 1u))) >> dropped;
        r = ((uint32_t)magnitude - (is_bf16 ? 896u << 7 : 1008u << 10)) | ((uint32_t)(yb >> 48) & 0x8000u);
        r = (r & (0u - ordinary)) | ((is_cos ? SC32_ONE16(is_bf16) : h) & (0u - tiny)) |
            (h & (0u - special));
        r16 = (uint16_t)r;
        memcpy(out + 2 * i, &r16, sizeof r16);
        f = (((undecided << 1) | subnormal) & (0u - ordinary)) | special;
        flags[i] = f;
        any |= f;
    }
    return any;
}

#define SC32_DEFINE_PASS_16(FORMAT, IS_BF16)                                                 \
    SC32_VECTORIZE static uint32_t sc32_widen_##FORMAT(const char *in, size_t n, uint32_t *wx) \
    {                                                                                        \
        return sc32_widen_16(IS_BF16, in, n, wx);                                            \
    }                                                                                        \
    SC32_VECTORIZE static uint32_t sc32_sin_narrow_##FORMAT(const char *in, const double *y,  \
                                                            size_t n, char *out, uint32_t *flags) \
    {                                                                                        \
        return sc32_narrow_16(IS_BF16, 0, in, y, n, out, flags);                             \
    }                                                                                        \
    SC32_VECTORIZE static uint32_t sc32_cos_narrow_##FORMAT(const char *in, const double *y,  \
                                                            size_t n, char *out, uint32_t *flags) \
    {                                                                                        \
        return sc32_narrow_16(IS_BF16, 1, in, y, n, out, flags);                             \
    }                                                                                        \
    int CRTRIG_KERNEL(sincos_pass_##FORMAT)(int func, const char *in, char *out, size_t count, \
                                            unsigned char *undecided)                       \
    {                                                                                        \
        uint32_t wx[SC32_CHUNK], flags[SC32_CHUNK], any_chunk, any = 0;                      \
        double y[SC32_CHUNK];                                                                \
        size_t start;                                                                        \
        for (start = 0; start < count; start += SC32_CHUNK) {                                \
            size_t n = count - start < SC32_CHUNK ? count - start : SC32_CHUNK;              \
            const char *src = in + 2 * start;                                                \
            char *dst = out + 2 * start;                                                     \
            uint32_t large = sc32_widen_##FORMAT(src, n, wx);                                \
            if (func == 0) {                                                                 \
                (large ? sc32_sin_large_values : sc32_sin_small_values)(wx, n, y);           \
                any_chunk = sc32_sin_narrow_##FORMAT(src, y, n, dst, flags);                 \
            } else {                                                                         \
                (large ? sc32_cos_large_values : sc32_cos_small_values)(wx, n, y);           \
                any_chunk = sc32_cos_narrow_##FORMAT(src, y, n, dst, flags);                 \
            }                                                                                \
            any |= any_chunk ? sc32_store_flags(flags, n, undecided + start)                 \
                             : (memset(undecided + start, 0, n), 0u);                        \
        }                                                                                    \
        return any != 0;                                                                     \
    }
SC32_DEFINE_PASS_16(bfloat16, 1)
SC32_DEFINE_PASS_16(float16, 0)

/* Test hook: the first pass's unrounded f(x) and a bound e >= |*y - f(x)| for an
 * ordinary float32 value x (2^-13 <= |x| <= the largest float32), through the
 * small reduction below 2^24 and the large one above, as the passes do:
 * e = SC32_BOUND_ULPS ulp(y) (sincos32_core.h). */
void CRTRIG_KERNEL(sincos_pass_value)(int func, double x, double *y, double *e)
{
    double v = fabs(x) < 0x1p24 ? sc32_value_small(x, func != 0) : sc32_value_table(x, func != 0);
    uint64_t exponent = sc32_to_bits(v) & 0x7ff0000000000000u;  /* |v| >= 2^-64: no underflow */
    *y = v;
    *e = (double)SC32_BOUND_ULPS * sc32_from_bits(exponent - ((uint64_t)52 << 52));
}
