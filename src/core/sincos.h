/* sin/cos internals shared by sincos.c (all stages) and sincos_f32.c (the
 * float32 array kernel). */
#ifndef CRTRIG_SINCOS_H
#define CRTRIG_SINCOS_H

#include <stddef.h>
#include "crtrig/crtrig.h"

/* f(x) correctly rounded into fmt (float16, bfloat16 or float32) as a double,
 * for any double x that is a value of that format (NaN and inf included),
 * starting at first_stage. */
int crtrig_trig_value(crtrig_trig_func func, double x, crtrig_dtype fmt, int first_stage,
                      int multi_bits, crtrig_stage_counts *counts, double *result);

/* The input element at p (float16, bfloat16 or float32) as a double, from its
 * bits: NaNs, signalling ones included, raise no flag. */
double crtrig_trig_load(crtrig_dtype dtype, const char *p);

/* The array kernel (sincos_array.c) of the active SIMD target: a branch-free
 * first pass, every element it cannot decide through crtrig_trig_value. */
int crtrig_sincos_array(crtrig_trig_func func, crtrig_dtype dtype, const char *in,
                        ptrdiff_t in_stride, char *out, ptrdiff_t out_stride, size_t count);

#endif
