/* The float64 first pass of w = K r + B sin^2(pi r/D) (window_lin_sin2.h): the entry
 * point (checks, the fpenv bracket, the sinpi table, the thread pool's job).  The
 * per-element work and its bound (241.3 e^2 w, e = 2^-53, under the rounding test's
 * 2^-96 w) are window64_pass.h's, kind CRTRIG_WINDOW_LIN_SIN2, compiled per SIMD
 * target with kd_two_prod as the exact product: the same bits on every target.
 *
 * Threads (threads.h): a job over r in blocks of LIN_SIN2_BLOCK; each value depends
 * only on r, D, the constants and the table (built for every phase before the
 * split), so any split gives the same bits. */
#include <math.h>
#include <stdint.h>

#include "window_lin_sin2.h"
#include "dispatch.h"
#include "fpenv.h"
#include "threads.h"
#include "window_coef.h"
#include "window_table.h"

enum { LIN_SIN2_BLOCK = 512 };

typedef struct lin_sin2_call {
    crtrig_window_coef coef;
    crtrig_sinpi_table table;
    const crtrig_target *target;
    double *out;
} lin_sin2_call;

/* The phases [lo, hi) by the target's float64 window pass; returns how many it marked. */
static size_t lin_sin2_range(void *arg, size_t lo, size_t hi)
{
    lin_sin2_call *c = (lin_sin2_call *)arg;
    return c->target->window_run[CRTRIG_FLOAT64](&c->coef, &c->table, lo, hi - lo, (char *)(c->out + lo), NULL);
}

/* The constants' checks (floating-point comparisons), the table and the job, inside
 * the caller's fpenv bracket. */
static CRTRIG_NOINLINE int lin_sin2_work(const crtrig_target *target, uint64_t D, size_t count, double k_hi,
                                         double k_lo, double b_hi, double b_lo, double *out, size_t *n_undecided)
{
    lin_sin2_call c;
    int rc, participants;
    if (!(k_hi >= 0x1p-54 && k_hi <= 1.0) || !(fabs(k_lo) <= 0x1p-52 * k_hi) ||
        !(b_hi == 0.0 || (b_hi >= 0x1p-64 && b_hi <= 2.0)) || !(fabs(b_lo) <= 0x1p-52 * b_hi))
        return CRTRIG_EINVAL;
    c.coef.kind = CRTRIG_WINDOW_LIN_SIN2;
    c.coef.cancels = 0;
    c.coef.p = c.coef.q = 0;
    c.coef.c0_hi = k_hi;
    c.coef.c0_lo = k_lo;
    c.coef.c1_hi = b_hi;
    c.coef.c1_lo = b_lo;
    c.target = target;
    c.out = out;
    rc = crtrig_sinpi_table_init(&c.table, crtrig_target_at(0), D, crtrig_sinpi_table_step(count - 1), 0,
                                 count - 1);
    if (rc != CRTRIG_OK)
        return rc;
    /* About 0.35 ns per phase, the pool's unit (threads.c): unweighted. */
    participants = crtrig_threads_claim(count, LIN_SIN2_BLOCK);
    rc = crtrig_threads_run_counting(participants, count, LIN_SIN2_BLOCK, lin_sin2_range, &c, n_undecided);
    crtrig_threads_release(participants);
    crtrig_sinpi_table_free(&c.table);
    return rc;
}

int crtrig_lin_sin2_fill_target(int target, uint64_t D, size_t count, double k_hi, double k_lo, double b_hi,
                                double b_lo, double *out, size_t *n_undecided)
{
    const crtrig_target *t = target < 0 ? crtrig_active_target() : crtrig_target_at(target);
    crtrig_fpenv saved;
    int rc;
    *n_undecided = 0;
    if (!t || !t->window_run[CRTRIG_FLOAT64] || D < 2 || D > CRTRIG_SINPI_TABLE_MAX_D ||
        (uint64_t)count > D / 2 + 1)
        return CRTRIG_EINVAL;
    if (count == 0)
        return CRTRIG_OK;
    crtrig_fpenv_enter(&saved);
    rc = lin_sin2_work(t, D, count, k_hi, k_lo, b_hi, b_lo, out, n_undecided);
    crtrig_fpenv_leave(&saved, 0);
    return rc;
}
