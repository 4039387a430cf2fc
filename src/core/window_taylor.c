/* scipy's Taylor window: the double-double stage and its rounding test (see
 * window_taylor.h for the formula).  Bounds for the code as written: round-to-
 * nearest (the fill enters crtrig_fpenv), no contraction (-ffp-contract=off),
 * dd.h's 2^-103 per dd operation.  A "unit" is 2^-103; second-order terms
 * (products of two such errors, below 2^-190 relative) are absorbed by the
 * margins below (every constant is rounded up by more than 2^-20).
 *
 * Phases.  Element n has j = L - 1 - 2n in [0, L - 1] and needs cos(pi m j/L) for
 * m = 1 .. K.  s_m = m j mod 2L is formed exactly with integers (s_m = s_(m-1) + j,
 * minus 2L when it reaches 2L: j < 2L, all below 2^54), then folded with
 * cos(pi s/L) = cos(pi (2L - s)/L) to f in [0, L], and
 *   2f <= L:  cos(pi f/L) = C(f),    2f > L:  cos(pi f/L) = -C(L - f),  L - f < L/2,
 * C(r) = cos(pi r/L) for 0 <= r <= L/2 from the two-level sinpi table of
 * denominator L (window_table.h), built once per fill for the phases 0 .. L/2 by
 * the baseline target's builder: r = aB + b, C = Ca Cb - Sa Sb with the four
 * entries >= 0 (angles in [0, pi/2]), each within 3.7 units of itself.  The two
 * products are within 2 (3.7) + 1 = 8.4 units of the exact products; their
 * difference by dd_add_accurate (3u^2/(1 - 4u) < 0.376 units of the exact difference
 * of its operands, which is within |C| + 8.4 (Ca Cb + Sa Sb) <= 1 + 2^-99 since
 * Ca Cb + Sa Sb = cos(pi (aB - b)/L) <= 1): an ABSOLUTE error |C~ - C| <= 8.4 +
 * 0.377 <= 8.8 units, and |C~| <= 1 + 2^-99 (window_sinc.c derives the same for its
 * table at denominator D).  The sign flip is exact.  (At j = 0 every C~ is the
 * table's exact entry product 1 * 1 - 0 * 0 = 1.)
 *
 * Coefficients.  |a~_m - a_m| <= 2^-105 |a_m| = 0.25 units of |a_m| (the caller's
 * rounding of an enclosure at least 2^-115 |a_m| narrow, _taylor_window.py), and
 * |a_m| <= S = sum_m |a_m| < 2^14 (checked by the caller and here on sum |a_hi|).
 *
 * The sum.  acc = a~_0, then for m = 1 .. K: acc = dd_add_accurate(acc, dd_mul(a~_m, c~_m)).
 *   term m: |a~ c~ - a c| <= |a~ - a| |c~| + |a| |c~ - c| <= (0.25 (1 + 2^-99) + 8.8) |a|
 *     units; dd_mul adds 1 unit of |a~ c~| <= |a| (1 + 2^-98): the product is within
 *     10.06 units of |a_m| of a_m c_m.
 *   every partial sum of the operands is at most S (1 + 2^-90) in magnitude, so each
 *     dd_add_accurate errs by at most 0.377 units of S.
 *   a~_0: 0.25 units of |a_0|.
 *   Total: |w~ - w| <= (10.06 + 0.377 K) S units.
 *   Products below 2^-969 (a tiny a_m times a tiny c~) can make dd_two_prod's split
 *   inexact; the error is then absolute, below 2^-1000 per term (K 2^-1000 in all),
 *   far inside the margin below, as S >= 1: norm=False has a_0 = 1, and norm=True has
 *   a_0 + ... + a_K = w(centre) = 1 exactly, so S >= 1 too.
 * The test: e = (12 + K/2) 2^-103 S~, S~ = sum |a~_hi| in double (each |a~_hi| within
 * 2^-52 of |a_m|, K additions of nonnegative terms: S <= S~ (1 + (K + 2) 2^-52)
 * <= S~ (1 + 2^-42) for K <= 1023; the product with (12 + K/2), exact small, rounds
 * by 2^-53 and the scaling by 2^-103 is exact).  It covers the (10.06 + 0.377 K) S units
 * above, crtrig_decide_dd's ends (dd_add_d: 1 unit of |w~| + e <= 1.01 S units) and the
 * 2^-1000 terms: 11.07 + 0.377 K + 2^-800 <= (12 + K/2)(1 - 2^-41).  An element is
 * decided only when |w~_hi| > 2e, so both ends have w's sign and |hi| > 2^-1000
 * (crtrig_round_dd's need); and |w~| + e < 2^15 (crtrig_round_double's).
 * Which values are exact (and so could never be decided by a shrinking enclosure
 * if they were rounding boundaries) is the caller's business: it passes centre_one
 * for the exact centre of a normalised window, and finishes every undecided element
 * with integer enclosures.
 *
 * Threads (threads.h): the fill is a job over n; each element depends only on n, L,
 * the coefficients and the table (built for every phase before the split), so any
 * split gives the same bits.  The stage is the SIMD target's kernel (taylor_pass.h:
 * these operations, dd_mul's bits through kd_two_prod), or, for a coefficient with
 * 0 < |a_hi| < 2^-300 (whose products the FMA kernels' exactness argument does not
 * cover), the baseline target's kernel on every target (Dekker's products, dd.h's, with
 * the absolute error for tiny products derived above).  The table comes from the
 * baseline builder and is allocated before anything is written. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "window_taylor.h"
#include "alloc.h"
#include "dd.h"
#include "dispatch.h"
#include "fpenv.h"
#include "fpformat.h"
#include "threads.h"
#include "window_table.h"

enum { TAYLOR_BLOCK = 256 };

typedef crtrig_taylor_args taylor_call;

/* A fill: the kernel's arguments and the target whose kernel runs (the baseline's, on
 * every target, for coefficients the FMA kernels' exactness argument does not cover). */
typedef struct taylor_job {
    taylor_call args;
    const crtrig_target *target;
} taylor_job;

/* The elements [lo, hi) by the fill's target kernel (taylor_pass.h). */
static size_t taylor_range(void *arg, size_t lo, size_t hi)
{
    const taylor_job *job = (const taylor_job *)arg;
    return job->target->taylor_range(&job->args, lo, hi);
}

static CRTRIG_NOINLINE int taylor_work(taylor_job *job, size_t count, int participants,
                                       size_t *n_undecided)
{
    taylor_call *c = &job->args;
    crtrig_sinpi_table table;
    int rc, shift = 4;
    size_t m;
    double sum = 0.0;
    /* B = 2^shift >= 16, the power of 2 at or above sqrt(L/2 + 1) (only speed depends on it). */
    while (shift < 31 && ((uint64_t)1 << (2 * shift)) < c->L / 2 + 1)
        shift++;
    for (m = 0; m <= c->K; m++) {
        sum += fabs(c->a_hi[m]);
        if (c->a_hi[m] != 0.0 && !(fabs(c->a_hi[m]) >= 0x1p-300))
            job->target = crtrig_target_at(0);  /* a tiny coefficient: taylor_pass.h's magnitudes */
    }
    if (!(sum < CRTRIG_TAYLOR_MAX_SUM))
        return CRTRIG_EINVAL;
    c->e = 0x1p-103 * ((12.0 + 0.5 * (double)c->K) * sum);
    rc = crtrig_sinpi_table_init(&table, crtrig_target_at(0), c->L, (uint64_t)1 << shift, 0, c->L / 2);
    if (rc != CRTRIG_OK)
        return rc;
    c->t = &table;
    c->shift = shift;
    rc = crtrig_threads_run_counting(participants, count, TAYLOR_BLOCK, taylor_range, job, n_undecided);
    crtrig_sinpi_table_free(&table);
    return rc;
}

int crtrig_taylor_window_fill_target(int target, uint64_t L, size_t count, size_t K, const double *a_hi,
                                     const double *a_lo, int centre_one, crtrig_dtype fmt, double *out,
                                     unsigned char *undecided, size_t *n_undecided)
{
    const crtrig_target *t = target < 0 ? crtrig_active_target() : crtrig_target_at(target);
    crtrig_fpenv saved;
    taylor_job job;
    taylor_call *c = &job.args;
    int rc, participants;
    size_t weight;
    *n_undecided = 0;
    if (!t || !t->taylor_range || L < 2 || L > CRTRIG_TAYLOR_MAX_L || (uint64_t)count > (L + 1) / 2 ||
        K > CRTRIG_TAYLOR_MAX_K || (int)fmt < 0 || (int)fmt > (int)CRTRIG_FLOAT64)
        return CRTRIG_EINVAL;
    if (count == 0)
        return CRTRIG_OK;
    job.target = t;
    c->L = L;
    c->K = K;
    c->a_hi = a_hi;
    c->a_lo = a_lo;
    c->centre_one = centre_one;
    c->fmt = fmt;
    c->out = out;
    c->undecided = undecided;
    /* The pool's threshold counts elements near 0.5 ns each (threads.c); an element
     * here costs about 4 ns per coefficient (the kernel, FMA targets; 10 ns on the
     * baseline's), so each weighs 8 (K + 1). */
    weight = 8 * (K + 1);
    participants = crtrig_threads_claim_weighted(count, TAYLOR_BLOCK, weight);
    crtrig_fpenv_enter(&saved);
    rc = taylor_work(&job, count, participants, n_undecided);
    crtrig_fpenv_leave(&saved, 0);
    crtrig_threads_release(participants);
    return rc;
}

int crtrig_taylor_window_fill(uint64_t L, size_t count, size_t K, const double *a_hi, const double *a_lo,
                              int centre_one, crtrig_dtype fmt, double *out, unsigned char *undecided,
                              size_t *n_undecided)
{
    return crtrig_taylor_window_fill_target(-1, L, count, K, a_hi, a_lo, centre_one, fmt, out, undecided,
                                            n_undecided);
}
