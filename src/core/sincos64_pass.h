/* The first pass of the float64 sin/cos array kernel: one source compiled once
 * per SIMD target (simd_*.c), vectorized by the compiler.  The method, the
 * reductions and the error bounds are in sincos64_core.h.
 *
 * Every lane is classified from its bits (no comparison touches a NaN):
 *   |x| < 2^-27 (zeros and subnormals included): sin(x) rounds to x and cos(x) to 1.
 *     For 0 < |x| < 2^-26, |sin x - x| < |x|^3/6 is below half the gap from x towards
 *     zero (2^(E-54) for x = +-2^E, 2^(E-53) otherwise, 2^E <= |x| < 2^(E+1), E <= -27:
 *     2^(3E)/6 < 2^(E-54) and 2^(3E+3)/6 < 2^(E-53)); for 0 < |x| < 2^-27,
 *     0 < 1 - cos x < x^2/2 < 2^-55, half the gap below 1.  Both results are
 *     copied from the bits: no flag, exact for +-0 too (sin keeps the sign).
 *   inf and NaN: undecided = 1, for the scalar path (NaN quiet, inf -> NaN with
 *     FE_INVALID).  Their lanes (and the tiny ones) compute on x = 1 instead.
 *   otherwise: reduction (Cody-Waite for |x| < 2^17 when the whole chunk allows it,
 *     otherwise the exact large reduction for every lane), sc64_eval_quick
 *     (sincos64_quick.h), the bound (evaluation + reduction delta) and sc64_round.
 *     The lanes whose two roundings differ (about 4 in 10^4) are computed again,
 *     one by one, with the precise sc64_eval (sincos64_core.h) and rounded with its
 *     bound: undecided = 2 when those two roundings differ too, 0 when out[i] is the
 *     correctly rounded result (each evaluation's bound is proven, so a lane decided
 *     by either is correctly rounded).
 * No intermediate overflows or underflows (sincos64_core.h), so finite inputs
 * raise no flag but inexact.
 */
#include "pass_common.h"
#include "sincos64_core.h"
#include "sincos64_quick.h"

#if defined(__GNUC__) && !defined(__clang__)
#define SC64_VECTORIZE __attribute__((optimize("tree-vectorize")))
#else
#define SC64_VECTORIZE
#endif

enum { SC64_CHUNK = 256 };

/* One lane, computed for every lane whatever its class: |x| is clamped (on the
 * bits, by integer min and max) into [2^-27, the largest double] for the large
 * reduction or [2^-27, 2^17) for the small one, so that tiny, inf and NaN lanes
 * compute harmlessly; their results are then replaced by bit masks.  Returns the
 * output bits and sets *flag (0, 1 or 2, see above).  Selects (x = 1 for those
 * lanes, or choosing the output with ?:) would let the compiler move the whole
 * computation under a condition, which it then cannot vectorize.  large selects
 * the reduction and precise the evaluation (sc64_eval, else sc64_eval_quick), both
 * constants in each loop. */
KD_INLINE uint64_t sc64_lane(int func, int large, int clean, int precise, uint64_t b, uint64_t *flag,
                             kdd_t *value, double *bound_out)
{
    uint64_t kbits, differ;
    double delta, bound, y;
    kdd_t r = sc64_reduce_lane(large, clean, b, &kbits, &delta), R;
    if (precise)
        R = sc64_eval(kbits + ((uint64_t)func << 6), r.hi, r.lo, &bound);
    else
        R = sc64_eval_quick(kbits + ((uint64_t)func << 6), r.hi, r.lo, &bound);
    bound = bound + delta;
    y = sc64_round(R, bound, &differ);
    *value = R;
    *bound_out = bound;
    return sc64_finish_lane(clean, b, y, differ, func ? SC64_ONE_BITS : b, flag);
}

/* The lanes the quick evaluation left, with the precise one (sincos64_quick.h). */
SC64_DEFINE_REFINE(sc64_refine, sc64_lane(func, 0, 1, 1, b, &flags[i], &v, &e),
                   sc64_lane(func, 1, 1, 1, b, &flags[i], &v, &e))

/* One loop per (reduction, chunk with or without tiny/special lanes), with the
 * quick evaluation: no branch inside, so it vectorizes.  Returns the OR of the
 * flags. */
#define SC64_CHUNK_LOOP(NAME, LARGE, CLEAN)                                             \
    SC64_VECTORIZE static uint64_t NAME(int func, const char *in, char *out, size_t n,  \
                                        uint64_t *flags)                                \
    {                                                                                   \
        uint64_t any = 0;                                                               \
        size_t i;                                                                       \
        for (i = 0; i < n; i++) {                                                       \
            uint64_t b, o;                                                              \
            kdd_t v;                                                                    \
            double e;                                                                   \
            memcpy(&b, in + 8 * i, sizeof b);                                           \
            o = sc64_lane(func, LARGE, CLEAN, 0, b, &flags[i], &v, &e);                 \
            memcpy(out + 8 * i, &o, sizeof o);                                          \
            any |= flags[i];                                                            \
        }                                                                               \
        return any;                                                                     \
    }
SC64_CHUNK_LOOP(sc64_chunk_small, 0, 0)
SC64_CHUNK_LOOP(sc64_chunk_small_clean, 0, 1)
SC64_CHUNK_LOOP(sc64_chunk_large, 1, 0)
SC64_CHUNK_LOOP(sc64_chunk_large_clean, 1, 1)

/* First pass over count contiguous doubles (in and out may be unaligned but must
 * not overlap): out[i] and undecided[i] as described at the top; returns whether
 * any undecided[i] is nonzero.  Chunks whose
 * finite |x| are all below 2^17 use the Cody-Waite reduction, others the large
 * one for every lane; chunks without tiny, inf or NaN lanes skip their handling. */
SC64_VECTORIZE int CRTRIG_KERNEL(sincos_pass_float64)(int func, const char *in, char *out,
                                                      size_t count, unsigned char *undecided)
{
    uint64_t flags[SC64_CHUNK], any = 0;
    size_t start;
    for (start = 0; start < count; start += SC64_CHUNK) {
        size_t n = count - start < SC64_CHUNK ? count - start : SC64_CHUNK;
        const char *src = in + 8 * start;
        char *dst = out + 8 * start;
        uint64_t any_large, any_outside, left;
        sc64_chunk_kind(src, n, &any_large, &any_outside);
        if (any_large)
            left = (any_outside ? sc64_chunk_large : sc64_chunk_large_clean)(func, src, dst, n, flags);
        else
            left = (any_outside ? sc64_chunk_small : sc64_chunk_small_clean)(func, src, dst, n, flags);
        if (left & 2u)
            left = sc64_refine(func, any_large != 0, src, dst, n, flags);
        sc64_store_flags(undecided + start, flags, n, left);
        any |= left;
    }
    return any != 0;
}

/* Test hook: the unrounded value R = *hi + *lo and the bound *e (evaluation and
 * reduction) of the pass for one finite x with |x| >= 2^-27, through the small
 * (mode bit 0 clear, |x| < 2^17) or the large reduction (bit 0 set), and the quick
 * (bit 1 clear) or the precise evaluation (bit 1 set).  Returns the lane's flag for
 * that evaluation (0, or 2 when its rounding test fails). */
int CRTRIG_KERNEL(sincos64_pass_value)(int func, double x, int mode, double *hi, double *lo,
                                       double *e)
{
    uint64_t flag;
    kdd_t v;
    sc64_lane(func, mode & 1, 1, (mode >> 1) & 1, sc64_to_bits(x), &flag, &v, e);
    *hi = v.hi;
    *lo = v.lo;
    return (int)flag;
}

/* One element in normal operation (the small calls of sincos_array.c: a Python
 * float, a NumPy float64 scalar): the first pass's lane for one x, without the
 * chunk set-up, with the precise evaluation (one lane: no second pass).  Tiny |x| are copied as the pass copies them; an ordinary x takes
 * the small reduction below 2^17 and the large one above (each lane's result, when
 * decided, is the correctly rounded value, whichever reduction: sincos64_core.h).
 * Returns 0 with *y that value, or 1 for inf, NaN and a failed rounding test, which
 * the per-element stages then decide. */
int CRTRIG_KERNEL(sincos64_one)(int func, double x, double *y)
{
    uint64_t b = sc64_to_bits(x), a = b & SC64_ABS_MASK, flag, o;
    kdd_t v;
    double e;
    if (a >= SC64_INF_BITS)
        return 1;
    if (a < SC64_TINY_BITS) {
        *y = func ? 1.0 : x;
        return 0;
    }
    o = a < SC64_SMALL_BITS ? sc64_lane(func, 0, 1, 1, b, &flag, &v, &e)
                            : sc64_lane(func, 1, 1, 1, b, &flag, &v, &e);
    *y = sc64_from_bits(o);
    return flag != 0;
}
