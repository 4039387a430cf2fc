/* The float32 sin/cos array kernel.
 *
 * A first pass over a block computes, without branches, for every 2^-120 <= |x| < 2^24:
 *   Cody-Waite reduction (as crtrig_reduce_small_d): x (2/pi) = n + 2t, and
 *   with k = n (+1 for cos): f(x) = +-sin(pi t) (k even) or +-cos(pi t) =
 *   +-sin(pi (1/2 - |t|)) (k odd), so one polynomial serves both:
 *   y = +-s P(s^2), s = t or 1/2 - |t| in [-1/2, 1/2], P the Taylor polynomial
 *   of sin(pi s)/s up to degree 7 in z = s^2;
 *   an error bound e and the float32 roundings of y - e and y + e.
 * Elements where those two disagree, and the others (zeros, tiny, huge, inf, NaN) go through
 * crtrig_trig_value (all stages) in a second pass.  Both give the correctly
 * rounded value, so the output does not depend on which pass decided.
 * The first pass (sincos_f32_pass.h) is compiled once per SIMD target
 * (dispatch.c); the second pass is shared.
 *
 * Error bound of the first pass (u = 2^-53; P(z) >= sin(pi/2)/(1/2) = 2 on z <= 1/4;
 * |SINPI_C[k]| z^k / P(z) <= 0.79, 0.33, 0.040, 0.0024, 8e-5, 1.8e-6, 2.8e-8,
 * 3.3e-10 for k = 0..7, sum 1.16, the first omitted term (k = 8) 3.0e-12;
 * tools/gen_sincospi_coeffs.py and the numbers in tests/test_sincos.py):
 *   truncation (alternating series, decreasing terms):         3.0e-12
 *   coefficients rounded to double, u sum_k |c_k z^k| / P:      1.16 u
 *   z = RN(s^2), moving P by |z P'/P| u <= (0.33 + 0.08 + ...) u: 0.42 u
 *   Horner, two roundings per step of at most the partial sums
 *     (each <= 1.1 times its leading term): 2.2 u sum_k |c_k z^k| / P: 2.6 u
 *   y = RN(s P):                                                1 u
 *   s: for odd k, RN(1/2 - |t|) errs by u s relative, which moves
 *     sin(pi s) by at most u (pi s cot(pi s) <= 1):              1 u
 *   the reduction: t errs by u |t| + |x| 2^-84 (reduce.c); the relative part
 *     moves the result by at most u, the absolute part by pi |x| 2^-84 < |x| 2^-82.
 * Relative total 3.0e-12 + 7.2u (1 + 1e-6) < 3.01e-12 < 2^-38.2; with ulp(y)/2 <=
 * 2^-53 |y| for rounding the endpoints, e = |y| 2^-37 + |x| 2^-82 bounds everything
 * (2^-37 = 7.3e-12).
 * Elements left undecided lie within about 2^-37 |y| of a float32 midpoint: a
 * share near 2^-12.
 */
#include <math.h>
#include <string.h>
#include "dispatch.h"
#include "sincos.h"

#define SINCOS_F32_FIRST_PASS crtrig_sincos_f32_pass_baseline
#include "sincos_f32_pass.h"

enum { BLOCK = 256 };

/* Second pass for one element: *slot holds the float32 input bits on entry
 * and the result on exit. */
static int decide_element(int func, int already_tried_double, char *in_slot, char *out_slot)
{
    uint32_t w;
    float xf, r;
    double v;
    int rc;
    memcpy(&w, in_slot, sizeof w);
    if (((w >> 23) & 0xffu) == 0xffu) {  /* inf/NaN: pass them on by their bits */
        uint64_t d = ((uint64_t)(w >> 31) << 63) | ((uint64_t)0x7ff << 52) |
                     ((uint64_t)(w & 0x7fffffu) << 29);
        v = bits_to_double(d);
    } else {
        memcpy(&xf, &w, sizeof xf);
        v = (double)xf;
    }
    /* An undecided element already had its double stage in the first pass. */
    rc = crtrig_trig_value((crtrig_trig_func)func, v, CRTRIG_FLOAT32,
                           already_tried_double ? CRTRIG_STAGE_DOUBLE_DOUBLE : CRTRIG_STAGE_DOUBLE,
                           0, NULL, &v);
    r = (float)v;  /* exact: v is a float32 value (or a quiet NaN) */
    memcpy(out_slot, &r, sizeof r);
    return rc;
}

int crtrig_sincos_f32_array_with(crtrig_sincos_f32_pass_fn first_pass, crtrig_trig_func func,
                                 const char *in, ptrdiff_t in_stride,
                                 char *out, ptrdiff_t out_stride, size_t count)
{
    char in_copy[4 * BLOCK], out_copy[4 * BLOCK];
    unsigned char undecided[BLOCK];
    size_t start, i;
    for (start = 0; start < count; start += BLOCK) {
        size_t n = count - start < BLOCK ? count - start : BLOCK;
        const char *src = in + (ptrdiff_t)start * in_stride;
        char *dst = out + (ptrdiff_t)start * out_stride;
        const char *block_in = src;
        char *block_out = out_stride == 4 ? dst : out_copy;
        if (in_stride != 4) {
            for (i = 0; i < n; i++)
                memcpy(in_copy + 4 * i, src + (ptrdiff_t)i * in_stride, 4);
            block_in = in_copy;
        }
        if (block_in == dst && block_out == dst) {  /* in place: keep the inputs */
            memcpy(in_copy, dst, 4 * n);
            block_in = in_copy;
        }
        first_pass((int)func, block_in, block_out, n, undecided);
        for (i = 0; i < n; i++) {
            if (undecided[i]) {
                int rc = decide_element((int)func, undecided[i] == 2, (char *)block_in + 4 * i,
                                        block_out + 4 * i);
                if (rc != CRTRIG_OK)
                    return rc;
            }
        }
        if (block_out != dst)
            for (i = 0; i < n; i++)
                memcpy(dst + (ptrdiff_t)i * out_stride, out_copy + 4 * i, 4);
    }
    return CRTRIG_OK;
}

int crtrig_sincos_f32_array(crtrig_trig_func func, const char *in, ptrdiff_t in_stride,
                            char *out, ptrdiff_t out_stride, size_t count)
{
    return crtrig_sincos_f32_array_with(crtrig_active_target()->sincos_f32_pass, func, in,
                                        in_stride, out, out_stride, count);
}
