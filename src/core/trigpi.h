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

/* The exact reduction of 0 < ax < 2^52 (trigpi.c): ax = 2q + n/2 + t exactly with
 * |t| <= 1/4; returns k = n (+1 if use_cos) mod 4 and sets *t. */
int crtrig_trigpi_reduce(int use_cos, double ax, double *t);

/* RN(pi ax) into float64 for 0 < ax < 2^-60 (the value of sin(pi ax) and of
 * tan(pi ax) there, bound derived in trigpi.c): 1 and *result when decided. */
int crtrig_trigpi_tiny(double ax, double *result);

#endif
