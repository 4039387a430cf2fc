/* The sin/cos array kernels for float32, bfloat16 and float16 (and float64,
 * whose first pass is sincos64_pass.h; its method and bound are in
 * sincos64_core.h).
 *
 * A first pass over a block computes, without branches, for every 2^-120 <= |x| < 2^24:
 *   Cody-Waite reduction (reduce_small.h): x (2/pi) = n + 2t, and
 *   with k = n (+1 for cos): f(x) = +-sin(pi t) (k even) or +-cos(pi t) =
 *   +-sin(pi (1/2 - |t|)) (k odd), so one polynomial serves both:
 *   y = +-s P(s^2), s = t or 1/2 - |t| in [-1/2, 1/2], P the Taylor polynomial
 *   of sin(pi s)/s up to degree 7 in z = s^2;
 *   an error bound e and the roundings of y - e and y + e into the output format
 *   (by the float32 conversion, or on the bits for bfloat16 and float16).
 * Elements where those two disagree, and the others (zeros, tiny, huge, inf,
 * NaN, float16 results in the subnormal range) go through
 * crtrig_trig_value (all stages) in a second pass.  Both give the correctly
 * rounded value, so the output does not depend on which pass decided.
 * The first pass (sincos_pass.h) is compiled once per SIMD target
 * (simd_*.c, dispatch.c); the second pass is shared.
 *
 * Error bound of the first pass (u = 2^-53).  On z = s^2 <= 1/4 (plus 2^-29):
 * P(z) >= sin(pi/2)/(1/2) = 2, and the ratios |SINPI_C[k]| z^k / P(z), largest at
 * z = 1/4, are 1.57, 0.646, 0.080, 0.0047, 1.6e-4, 3.6e-6, 5.7e-8, 6.7e-10 for
 * k = 0..7 (sum 2.31, sum of k times them 0.82) and 6.07e-12 for the first
 * omitted term k = 8 (computed with mpmath; tests/test_sincos.py checks the
 * resulting bound on samples):
 *   truncation (alternating series, decreasing terms):          6.07e-12
 *   coefficients rounded to double, u sum_k |c_k z^k| / P:       2.31 u
 *   z = RN(s^2), moving P by at most u sum_k k |c_k z^k| / P:    0.82 u
 *   Horner (Higham, Accuracy and Stability, 5.1): gamma_14 sum_k |c_k z^k|,
 *     relative to P: 14.01 u * 2.31                              32.4 u
 *   y = RN(s P):                                                 1 u
 *   s: for odd k, RN(1/2 - |t|) errs by u s relative, which moves
 *     sin(pi s) by at most u (pi s cot(pi s) <= 1):               1 u
 *   the reduction: t errs by u |t| + |x| 2^-84 (reduce.c); the relative part
 *     moves the result by at most u, the absolute part by pi |x| 2^-84 < |x| 2^-82.
 * Relative total 6.07e-12 + 38.6 u < 6.08e-12; with ulp(y)/2 <= 2^-53 |y| for
 * rounding the endpoints, e = |y| 2^-37 + |x| 2^-82 bounds everything
 * (2^-37 = 7.28e-12).  Rounding y - e and y + e is monotone in every format
 * (the float32 conversion; round_bits in pass_common.h for bfloat16 and the
 * normal float16 range), so equal roundings are the correctly rounded f(x).
 * Elements left undecided lie within about 2^-37 |y| of a rounding boundary: a
 * share near 2^-12 for float32, far less for the 16-bit formats.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "dispatch.h"
#include "fpformat.h"
#include "sincos.h"

enum { BLOCK = 256 };

/* The input element at p as a double (float64: its bits, NaNs unchanged). */
static double load_element(crtrig_dtype dtype, const char *p)
{
    double v;
    if (dtype != CRTRIG_FLOAT64)
        return crtrig_trig_load(dtype, p);
    memcpy(&v, p, sizeof v);
    return v;
}

/* Second pass for one element of dtype: all stages from the double stage (or
 * from double-double if the first pass already played the double stage's part;
 * float64 always starts at double-double, crtrig_trig_value skips the double stage). */
static int decide_element(int func, crtrig_dtype dtype, int already_tried_double,
                          const char *in_slot, char *out_slot)
{
    double v;
    int rc = crtrig_trig_value((crtrig_trig_func)func, load_element(dtype, in_slot), dtype,
                               already_tried_double ? CRTRIG_STAGE_DOUBLE_DOUBLE : CRTRIG_STAGE_DOUBLE,
                               0, NULL, &v);
    if (rc == CRTRIG_OK)
        crtrig_store(dtype, v, out_slot);
    return rc;
}

int crtrig_sincos_array_with(const crtrig_target *target, crtrig_trig_func func, crtrig_dtype dtype,
                             const char *in, ptrdiff_t in_stride,
                             char *out, ptrdiff_t out_stride, size_t count)
{
    char in_copy[8 * BLOCK], out_copy[8 * BLOCK];
    unsigned char undecided[BLOCK];
    const ptrdiff_t size = dtype == CRTRIG_FLOAT64 ? 8 : dtype == CRTRIG_FLOAT32 ? 4 : 2;
    crtrig_sincos_pass_fn first_pass = target->sincos_pass[dtype];
    size_t start, i;
    for (start = 0; start < count; start += BLOCK) {
        size_t n = count - start < BLOCK ? count - start : BLOCK;
        const char *src = in + (ptrdiff_t)start * in_stride;
        char *dst = out + (ptrdiff_t)start * out_stride;
        const char *block_in = src;
        char *block_out = out_stride == size ? dst : out_copy;
        if (in_stride != size) {
            for (i = 0; i < n; i++)
                memcpy(in_copy + size * (ptrdiff_t)i, src + (ptrdiff_t)i * in_stride, (size_t)size);
            block_in = in_copy;
        }
        if (block_in == dst && block_out == dst) {  /* in place: keep the inputs */
            memcpy(in_copy, dst, (size_t)size * n);
            block_in = in_copy;
        }
        first_pass((int)func, block_in, block_out, n, undecided);
        for (i = 0; i < n; i++) {
            if (undecided[i]) {
                int rc = decide_element((int)func, dtype, undecided[i] == 2,
                                        block_in + size * (ptrdiff_t)i,
                                        block_out + size * (ptrdiff_t)i);
                if (rc != CRTRIG_OK)
                    return rc;
            }
        }
        if (block_out != dst)
            for (i = 0; i < n; i++)
                memcpy(dst + (ptrdiff_t)i * out_stride, out_copy + size * (ptrdiff_t)i, (size_t)size);
    }
    return CRTRIG_OK;
}

int crtrig_sincos_array(crtrig_trig_func func, crtrig_dtype dtype, const char *in,
                        ptrdiff_t in_stride, char *out, ptrdiff_t out_stride, size_t count)
{
    return crtrig_sincos_array_with(crtrig_active_target(), func, dtype, in, in_stride, out,
                                    out_stride, count);
}
