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

/* The float32 array kernel: a branch-free first pass for |x| < 2^24, every
 * element it cannot decide (and |x| >= 2^24, inf, NaN) through crtrig_trig_value. */
int crtrig_sincos_f32_array(crtrig_trig_func func, const char *in, ptrdiff_t in_stride,
                            char *out, ptrdiff_t out_stride, size_t count);

#endif
