/* sinpi and cospi of one element (internal): trigpi.c. */
#ifndef CRTRIG_TRIGPI_H
#define CRTRIG_TRIGPI_H

#include "crtrig/crtrig.h"
#include "sincos.h"

/* f(x) = sin(pi x) (CRTRIG_SINPI) or cos(pi x) (CRTRIG_COSPI) correctly rounded
 * into fmt, as a double, for any double x that is a value of that format (as
 * crtrig_trig_value: NaN quieted, +-inf gives the positive quiet NaN and sets
 * task->saw_infinity), starting at first_stage (0: the first pass, 1:
 * double-double, 2: multi-precision).  Counts into task->counts as sin/cos do. */
int crtrig_trigpi_value(crtrig_trig_func func, double x, crtrig_dtype fmt, int first_stage,
                        crtrig_trig_task *task, double *result);

/* The first pass of the array kernel for sinpi/cospi over n contiguous elements
 * (in and out not overlapping): float32 and float64 blocks, one code for every
 * SIMD target (trigpi.c).  Writes every out[i]; undecided[i] = 1 where the value
 * is not final (float16 and bfloat16: every element).  Returns whether any is. */
int crtrig_trigpi_pass(crtrig_trig_func func, crtrig_dtype dtype, const char *in, char *out,
                       size_t n, unsigned char *undecided);

#endif
