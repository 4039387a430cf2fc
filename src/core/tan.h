/* tan and tanpi of one element (internal): tan.c. */
#ifndef CRTRIG_TAN_H
#define CRTRIG_TAN_H

#include "crtrig/crtrig.h"
#include "sincos.h"

/* f(x) = tan(x) (CRTRIG_TAN) or tan(pi x) (CRTRIG_TANPI) correctly rounded into
 * fmt, as a double (+-inf for tanpi's poles and float16's one overflow), for any
 * double x that is a value of that format, as crtrig_trig_value: NaN quieted,
 * +-inf gives the positive quiet NaN; the flags to raise go into
 * task->raise_flags.  first_stage 0 starts at the double stage (float16,
 * bfloat16, float32; float64 at double-double), 1 at double-double, 2 at the
 * fixed-point stage (which for float64 tan also skips the tiny shortcut). */
int crtrig_tan_value(crtrig_trig_func func, double x, crtrig_dtype fmt, int first_stage,
                     crtrig_trig_task *task, double *result);

#endif
