/* scipy's Lanczos (sinc) and Bohman windows (see window_sinc.h for the formulas): the
 * entry point, the fill's table and the thread pool's job.  The per-element work (the
 * double-double stage and its rounding test) and its bounds are in sinc_pass.h,
 * compiled once per SIMD target; the job calls the kernel of the active target
 * (dispatch.h), which computes the same bits on every target (sinc_pass.h).
 *
 * Termination of the caller's exact fallback (and why no other point is exact): for
 * rational g in (0, 1), sin(pi g) and cos(pi g) are algebraic and sin(pi g) != 0.  A
 * rational Lanczos value q would give pi = sin(pi g)/(q (1 - g)) (q != 0: the value is
 * positive), algebraic; a rational Bohman value q would give sin(pi g) = pi (q + g
 * cos(pi g)), so pi algebraic unless q + g cos(pi g) = 0, which would force sin(pi g) = 0.
 * pi is transcendental (Lindemann), so both windows are irrational except at g = 0 and
 * g = 1: never a rounding boundary, and an enclosure that shrinks decides them.
 *
 * Threads (threads.h): the fill is a job over n; each element depends only on n, D
 * and the table (built for every phase before the split), so any split gives the
 * same bits.  The table (and Lanczos' scaled coarse entries) are allocated before
 * anything is written (CRTRIG_ENOMEM then leaves out untouched). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "window_sinc.h"
#include "alloc.h"
#include "dd.h"
#include "dispatch.h"
#include "fpenv.h"
#include "fpformat.h"
#include "threads.h"
#include "window_table.h"

enum { SINC_BLOCK = 256 };

/* One fill: the kernel's arguments and the target whose kernel runs. */
typedef struct sinc_call {
    crtrig_sinc_args args;
    const crtrig_target *target;
} sinc_call;

/* The elements [lo, hi) by the fill's target kernel (sinc_pass.h). */
static size_t sinc_range(void *arg, size_t lo, size_t hi)
{
    const sinc_call *c = (const sinc_call *)arg;
    return c->target->sinc_range(&c->args, lo, hi);
}

/* The coarse entries of t times K (dd_mul each) into block (4 t->coarse doubles). */
static void scaled_coarse(crtrig_sinc_args *c, const crtrig_sinpi_table *t, dd_t K, double *block)
{
    uint64_t i, n = t->coarse;
    double *sh = block, *sl = sh + n, *ch = sl + n, *cl = ch + n;
    for (i = 0; i < n; i++) {
        dd_t s = dd_mul(dd_make(t->coarse_sin_hi[i], t->coarse_sin_lo[i]), K);
        dd_t q = dd_mul(dd_make(t->coarse_cos_hi[i], t->coarse_cos_lo[i]), K);
        sh[i] = s.hi;
        sl[i] = s.lo;
        ch[i] = q.hi;
        cl[i] = q.lo;
    }
    c->ks_hi = sh;
    c->ks_lo = sl;
    c->kc_hi = ch;
    c->kc_lo = cl;
}

/* The table (floating-point work) and the job, inside the caller's fpenv bracket. */
static CRTRIG_NOINLINE int sinc_work(const crtrig_target *target, int kind, uint64_t D, size_t count,
                                     crtrig_dtype fmt, double *out, unsigned char *undecided,
                                     size_t *n_undecided, int participants)
{
    crtrig_sinpi_table table;
    sinc_call c;
    int rc, shift = 4;
    double *scaled = NULL;
    /* B = 2^shift >= 16, the power of 2 at or above sqrt(D/2 + 1): about sqrt(D/2) to
     * 2 sqrt(D/2) fine and coarse entries each (only the speed depends on B). */
    while (shift < 31 && ((uint64_t)1 << (2 * shift)) < D / 2 + 1)
        shift++;
    rc = crtrig_sinpi_table_init(&table, crtrig_target_at(0), D, (uint64_t)1 << shift, 0, D / 2);
    if (rc != CRTRIG_OK)
        return rc;
    c.target = target;
    c.args.t = &table;
    c.args.shift = shift;
    c.args.kind = kind;
    c.args.D = D;
    c.args.ks_hi = c.args.ks_lo = c.args.kc_hi = c.args.kc_lo = NULL;
    if (kind == CRTRIG_SINC_LANCZOS) {
        /* table.coarse <= 2^31 entries (window_table.c): the size cannot overflow */
        scaled = (double *)crtrig_alloc((size_t)(4 * table.coarse) * sizeof *scaled);
        if (!scaled) {
            crtrig_sinpi_table_free(&table);
            return CRTRIG_ENOMEM;
        }
        /* K = D/pi: 1/pi's 2^-106 and dd_mul_d's 2^-103 (sinc_pass.h: 1.125 units). */
        scaled_coarse(&c.args, &table, dd_mul_d(dd_make(CRTRIG_SINC_INV_PI[0], CRTRIG_SINC_INV_PI[1]), (double)D),
                      scaled);
    }
    c.args.fmt = fmt;
    c.args.out = out;
    c.args.undecided = undecided;
    rc = crtrig_threads_run_counting(participants, count, SINC_BLOCK, sinc_range, &c, n_undecided);
    if (scaled)
        crtrig_free(scaled);
    crtrig_sinpi_table_free(&table);
    return rc;
}

int crtrig_sinc_window_fill_target(int target, int kind, uint64_t D, size_t count, crtrig_dtype fmt, double *out,
                                   unsigned char *undecided, size_t *n_undecided)
{
    const crtrig_target *t = target < 0 ? crtrig_active_target() : crtrig_target_at(target);
    crtrig_fpenv saved;
    int rc, participants;
    *n_undecided = 0;
    if (!t || !t->sinc_range || (kind != CRTRIG_SINC_LANCZOS && kind != CRTRIG_SINC_BOHMAN) || D < 1 ||
        D > CRTRIG_SINC_MAX_D || (uint64_t)count > D / 2 + 1 || (int)fmt < 0 || (int)fmt > (int)CRTRIG_FLOAT64)
        return CRTRIG_EINVAL;
    if (count == 0)
        return CRTRIG_OK;
    /* The pool's threshold counts elements of kernels near 0.5 ns each (threads.c);
     * an element here costs 15-40 ns, so the claim weighs each as 16 (the split
     * then starts at 4096 elements, about 80 us of work).  The job itself is over
     * the `count` elements, in blocks of SINC_BLOCK. */
    participants = crtrig_threads_claim_weighted(count, SINC_BLOCK, 16);
    crtrig_fpenv_enter(&saved);
    rc = sinc_work(t, kind, D, count, fmt, out, undecided, n_undecided, participants);
    crtrig_fpenv_leave(&saved, 0);
    crtrig_threads_release(participants);
    return rc;
}

int crtrig_sinc_window_fill(int kind, uint64_t D, size_t count, crtrig_dtype fmt, double *out,
                            unsigned char *undecided, size_t *n_undecided)
{
    return crtrig_sinc_window_fill_target(-1, kind, D, count, fmt, out, undecided, n_undecided);
}

int crtrig_test_sinc_constant(int j, double *hi, double *lo)
{
    if (j == -1) {
        *hi = CRTRIG_SINC_INV_PI[0];
        *lo = CRTRIG_SINC_INV_PI[1];
        return CRTRIG_OK;
    }
    if (j < 0 || j >= 10)
        return CRTRIG_EINVAL;
    *hi = CRTRIG_BOHMAN_C[j][0];
    *lo = CRTRIG_BOHMAN_C[j][1];
    return CRTRIG_OK;
}
