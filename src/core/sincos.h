/* sin/cos internals shared by sincos.c (the per-element stages) and
 * sincos_array.c (the entry points and the array kernel). */
#ifndef CRTRIG_SINCOS_H
#define CRTRIG_SINCOS_H

#include <stddef.h>
#include "crtrig/crtrig.h"
#include "dispatch.h"
#include "mpfix.h"

/* What one run of the array kernel carries: one loop invocation, or later one
 * task of a thread pool, each with its own.  Options in; the multi-precision
 * workspace, allocated on the first element that needs it and freed by
 * crtrig_trig_task_end; and what the entry point must do at the end (raise
 * FE_INVALID in the caller's environment when an input was +-inf, and the
 * other flags of raise_flags).  Tasks of one call merge by OR-ing raise_flags
 * and adding counts. */
typedef struct crtrig_trig_task {
    int first_stage;              /* crtrig_stage where evaluation starts (test hook) */
    int multi_bits;               /* first precision of the multi-precision loop */
    crtrig_stage_counts *counts;  /* NULL, or counters to add to (test hook) */
    mpfix_ctx workspace;          /* pool NULL until the multi-precision stage runs */
    int raise_flags;              /* CRTRIG_FLAG_* bits the entry point raises at the end:
                                     INVALID an input was +-inf, DIVBYZERO a pole of
                                     tanpi, OVERFLOW a float16 tan above its range */
    int use_table;                /* float16/bfloat16 through the result tables (the
                                     entry points set it; 0 from crtrig_trig_task_init) */
} crtrig_trig_task;

void crtrig_trig_task_init(crtrig_trig_task *task, const crtrig_eval_options *opt,
                           crtrig_stage_counts *counts);
void crtrig_trig_task_end(crtrig_trig_task *task);

/* Test-hook bookkeeping of the per-element stages (tan.c, trigpi.c): one element
 * decided at an exact point (stage < 0) or by stage `stage`, when counts are kept. */
static inline void crtrig_count_stage(crtrig_trig_task *task, int stage)
{
    if (task->counts) {
        if (stage < 0)
            task->counts->exact++;
        else
            task->counts->by_stage[stage]++;
    }
}

/* f(x) correctly rounded into fmt (float16, bfloat16, float32 or float64) as
 * a double, for any double x that is a value of that format (NaN and inf
 * included; for float64, every double), starting at first_stage (for float64,
 * stages 0 and 1 both start at double-double; see sincos.c).  Records an
 * infinite x in task->raise_flags. */
int crtrig_trig_value(crtrig_trig_func func, double x, crtrig_dtype fmt, int first_stage,
                      crtrig_trig_task *task, double *result);

/* The input element at p (float16, bfloat16 or float32) as a double, from its
 * bits: NaNs, signalling ones included, raise no flag. */
double crtrig_trig_load(crtrig_dtype dtype, const char *p);

/* The array kernel (sincos_array.c) of a given target: a branch-free first
 * pass per block, every element it cannot decide through crtrig_trig_value.
 * Runs inside the caller's crtrig_fpenv_enter/leave bracket. */
int crtrig_sincos_array_with(const crtrig_target *target, crtrig_trig_task *task,
                             crtrig_trig_func func, crtrig_dtype dtype, const char *in,
                             ptrdiff_t in_stride, char *out, ptrdiff_t out_stride, size_t count);

#endif
