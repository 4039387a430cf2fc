/* Double-double primitives of the SIMD kernels (internal header).
 *
 * Included by the kernel headers that simd_baseline.c, simd_avx2.c and
 * simd_avx512.c compile once per target.  Each of those files defines
 * CRTRIG_KERNEL_FMA before including them:
 *   1  the target has a fused multiply-add (AVX2+FMA, AVX-512, aarch64): fma() is
 *      one instruction, and the exact products below use it;
 *   0  it has not (the SSE2 baseline of x86-64, where fma() is a slow libm call):
 *      exact products use Veltkamp/Dekker splitting instead.
 * The macro is set explicitly, never derived from __FMA__ (clang's target
 * attribute pragma does not define __FMA__).  Contraction stays off
 * (-ffp-contract=off), so every operation rounds exactly as written.
 * The scalar core keeps its own FMA-free dd.h.
 *
 * Notation: e = 2^-53 (unit roundoff, round to nearest), RN() rounding.
 * All primitives assume no overflow and no underflow of any intermediate
 * (callers keep every operand in [2^-600, 2^600] or zero; see their comments).
 *
 *   kd_two_sum(a, b)        hi + lo == a + b exactly, hi = RN(a + b), |lo| <= e |hi|
 *                           (Knuth; any a, b).
 *   kd_fast_two_sum(a, b)   the same, provided a == 0 or |a| >= |b| (Dekker).
 *   kd_two_prod(a, b)       hi + lo == a b exactly, hi = RN(a b), |lo| <= e |hi|.
 *                           FMA: lo = fma(a, b, -hi).  Otherwise Dekker's product
 *                           with Veltkamp's split (constant 2^27 + 1), exact for
 *                           |a|, |b| < 2^995 when no partial product underflows.
 *   kd_mul_add(a, b, c)     a b + c with one rounding (FMA) or two (RN(RN(a b) + c)):
 *                           |result - (a b + c)| <= e |a b + c| + e |a b| covers both
 *                           (the second term only without FMA).
 * Every use of kd_mul_add in the kernels is accounted for with the two-rounding
 * bound, so the proofs hold for both settings.
 */
#ifndef CRTRIG_KERNEL_DD_H
#define CRTRIG_KERNEL_DD_H

#include <math.h>
#include <stdint.h>

#ifndef CRTRIG_KERNEL_FMA
#error "define CRTRIG_KERNEL_FMA (0 or 1) before including kernel_dd.h"
#endif

/* The kernels' helpers must be inlined into their loops to vectorize. */
#if defined(__GNUC__) || defined(__clang__)
#define KD_INLINE static inline __attribute__((always_inline))
#else
#define KD_INLINE static inline
#endif

typedef struct { double hi, lo; } kdd_t;

KD_INLINE kdd_t kd_make(double hi, double lo) { kdd_t r; r.hi = hi; r.lo = lo; return r; }

/* 1 if d != 0, else 0, without a comparison: d | -d has its top bit set exactly when
 * d != 0 (for d != 0, one of d and 2^64 - d is at least 2^63).  SSE2, the baseline
 * target, has no 64-bit integer compare, and a 64-bit != in a loop keeps GCC from
 * vectorizing it there; subtraction, or and shift are SSE2 instructions. */
KD_INLINE uint64_t kd_u64_nonzero(uint64_t d) { return (d | (0u - d)) >> 63; }

KD_INLINE double kd_mul_add(double a, double b, double c)
{
#if CRTRIG_KERNEL_FMA
    return fma(a, b, c);
#else
    return a * b + c;
#endif
}

KD_INLINE kdd_t kd_two_sum(double a, double b)
{
    kdd_t r;
    double bb;
    r.hi = a + b;
    bb = r.hi - a;
    r.lo = (a - (r.hi - bb)) + (b - bb);
    return r;
}

KD_INLINE kdd_t kd_fast_two_sum(double a, double b)
{
    kdd_t r;
    r.hi = a + b;
    r.lo = b - (r.hi - a);
    return r;
}

#if !CRTRIG_KERNEL_FMA
/* Veltkamp: a == *hi + *lo, each of them fitting in 26 significant bits. */
KD_INLINE void kd_split(double a, double *hi, double *lo)
{
    double t = 0x1.0000002p+27 * a;
    *hi = t - (t - a);
    *lo = a - *hi;
}
#endif

KD_INLINE kdd_t kd_two_prod(double a, double b)
{
    kdd_t r;
    r.hi = a * b;
#if CRTRIG_KERNEL_FMA
    r.lo = fma(a, b, -r.hi);
#else
    {
        double ah, al, bh, bl;
        kd_split(a, &ah, &al);
        kd_split(b, &bh, &bl);
        r.lo = ((ah * bh - r.hi) + ah * bl + al * bh) + al * bl;
    }
#endif
    return r;
}

#endif
