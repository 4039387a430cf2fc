/* Correctly rounded exp(-q) for the exp-based windows: the entry point (argument
 * checks, the fpenv bracket, the thread pool's job).  The per-element work (the
 * double-double stage, the power, the recurrence, the rounding tests) and its
 * bounds are in exp_pass.h, compiled once per SIMD target; the job calls the
 * kernel of the active target (dispatch.h), which computes the same bits on
 * every target (exp_pass.h).  See exp.h for the interface. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dd.h"
#include "exp.h"
#include "fpenv.h"
#include "fpformat.h"
#include "threads.h"

/* The claim weights (threads.h), against the 0.5 ns elements the pool's threshold
 * counts: an element of the exp fill whose value is not 0 costs about 1.6 ns for P <= 2
 * (the lanes' recurrence; gaussian(std = N/6) at M = 10^5, one thread, the 2-core AMD
 * Zen 5), 5 to 12 ns for the larger powers, one written as 0 (beyond the underflow
 * threshold, exp_pass.h's zero blocks) about 0.4 ns; an element of the real-power fill
 * about 150 ns.  exp_claim weighs the elements of each kind (the count of those not
 * 0 estimated from the threshold: it only sets the thread count). */
enum { EXP_LANE_WEIGHT = 3, EXP_CLAIM_WEIGHT = 16, EXP_REAL_CLAIM_WEIGHT = 256 };
#include "dispatch.h"

/* One fill: the kernel's arguments and the target whose kernel runs. */
typedef struct exp_call {
    crtrig_exp_args args;
    const crtrig_target *target;
} exp_call;

/* ln2 rounded up (0x1.62e42fefa39ef358p-1 rounds down to ...39efp-1). */
#define EXP_LN2_UP 0x1.62e42fefa39f0p-1

/* The elements [lo, hi) by the fill's target kernel (exp_pass.h). */
static size_t exp_range(void *arg, size_t lo, size_t hi)
{
    const exp_call *c = (const exp_call *)arg;
    return c->target->exp_range(&c->args, lo, hi);
}

/* The thread count of a fill (inside the fpenv bracket: floating-point estimates).
 * |x| <= X = (zero_above / s)^(1/P) / d_hi (1 + 2^-20) holds every element not
 * written as 0 (up to the estimate's rounding, which only moves the thread count):
 * live = min(count, 2 X / |step| + 2) of them weigh EXP_LANE_WEIGHT (P <= 2) or
 * EXP_CLAIM_WEIGHT, the rest 1. */
static size_t exp_work_units(double step, size_t count, double d_hi, double s, int P, double zero_above)
{
    double X = pow(zero_above / s, 1.0 / (double)P) / d_hi * (1.0 + 0x1p-20), live_d;
    size_t live, w = P <= 2 ? EXP_LANE_WEIGHT : EXP_CLAIM_WEIGHT;
    live_d = step != 0.0 ? 2.0 * X / fabs(step) + 2.0 : (double)count;
    live = !(live_d < (double)count) ? count : (size_t)live_d;
    if (live > SIZE_MAX / w)
        return SIZE_MAX;
    return live * w + (count - live);
}

/* The argument checks that need floating-point comparisons run inside the fpenv
 * bracket (a NaN compared raises a flag), then the claim and the job. */
static CRTRIG_NOINLINE int exp_checked_work(const crtrig_target *target, double x0, double step, size_t count,
                                            double d_hi, double d_lo, double s, int P, crtrig_dtype fmt,
                                            double *out, unsigned char *undecided, size_t *n_undecided)
{
    const crtrig_format *f = crtrig_format_of(fmt);
    exp_call c;
    int rc, participants;
    if (!(s == 0.5 || s == 1.0) || !(d_hi >= 0x1p-600 && d_hi <= 0x1p600) || !(fabs(d_lo) <= 0x1p-52 * d_hi))
        return CRTRIG_EINVAL;
    c.target = target;
    c.args.x0 = x0;
    c.args.step = step;
    c.args.s = s;
    /* exp(-q) < 2^(emin - p) (half the smallest subnormal; never equal: exp(-q)
     * is irrational) iff q > (p - emin) ln2; q.hi above Z = (p - emin) ln2_up
     * (1 + 2^-40) is above it even after q's relative error (< 2^-75). */
    c.args.zero_above = (double)(f->precision - f->emin) * EXP_LN2_UP * (1.0 + 0x1p-40);
    c.args.limit = fmt == CRTRIG_FLOAT64 ? 620.0 : c.args.zero_above;
    c.args.d_hi = d_hi;
    c.args.d_lo = d_lo;
    c.args.P = P;
    c.args.fmt = fmt;
    c.args.out = out;
    c.args.undecided = undecided;
    participants = crtrig_threads_claim_weighted(exp_work_units(step, count, d_hi, s, P, c.args.zero_above),
                                                 EXP_BLOCK, 1);
    rc = crtrig_threads_run_counting(participants, count, EXP_BLOCK, exp_range, &c, n_undecided);
    crtrig_threads_release(participants);
    return rc;
}

/* The kernels of target index `target`, or of the active target for -1 (NULL when
 * this build or CPU lacks it). */
static const crtrig_target *exp_target(int target)
{
    return target < 0 ? crtrig_active_target() : crtrig_target_at(target);
}

int crtrig_exp_affine_fill_target(int target, double x0, double step, size_t count, double d_hi,
                                  double d_lo, double s, int P, crtrig_dtype fmt, double *out,
                                  unsigned char *undecided, size_t *n_undecided)
{
    const crtrig_target *t = exp_target(target);
    crtrig_fpenv saved;
    int rc;
    if (!t || !t->exp_range || P < 1 || P > CRTRIG_EXP_MAX_POWER || (int)fmt < 0 ||
        (int)fmt > (int)CRTRIG_FLOAT64)
        return CRTRIG_EINVAL;
    crtrig_fpenv_enter(&saved);
    rc = exp_checked_work(t, x0, step, count, d_hi, d_lo, s, P, fmt, out, undecided, n_undecided);
    crtrig_fpenv_leave(&saved, 0);
    return rc;
}

/* The real-power fill's checks inside the fpenv bracket, then the job (P = 0 in the
 * kernel's arguments selects exp_pass.h's real-power path). */
static CRTRIG_NOINLINE int exp_real_work(const crtrig_target *target, double x0, double step, size_t count,
                                         double d_hi, double d_lo, double p_hi, double p_lo, crtrig_dtype fmt,
                                         double *out, unsigned char *undecided, size_t *n_undecided,
                                         int participants)
{
    const crtrig_format *f = crtrig_format_of(fmt);
    exp_call c;
    if (!(d_hi >= 0x1p-600 && d_hi <= 0x1p600) || !(fabs(d_lo) <= 0x1p-52 * d_hi) ||
        !(p_hi > 0.0 && p_hi <= (double)CRTRIG_EXP_MAX_POWER) || !(fabs(p_lo) <= 0x1p-52 * p_hi))
        return CRTRIG_EINVAL;
    c.target = target;
    c.args.x0 = x0;
    c.args.step = step;
    c.args.s = 0.5;
    c.args.zero_above = (double)(f->precision - f->emin) * EXP_LN2_UP * (1.0 + 0x1p-40);  /* as above */
    c.args.limit = c.args.zero_above;
    c.args.d_hi = d_hi;
    c.args.d_lo = d_lo;
    c.args.p_hi = p_hi;
    c.args.p_lo = p_lo;
    c.args.P = 0;
    c.args.fmt = fmt;
    c.args.out = out;
    c.args.undecided = undecided;
    return crtrig_threads_run_counting(participants, count, EXP_BLOCK, exp_range, &c, n_undecided);
}

int crtrig_exp_real_fill(int target, double x0, double step, size_t count, double d_hi, double d_lo,
                         double p_hi, double p_lo, crtrig_dtype fmt, double *out, unsigned char *undecided,
                         size_t *n_undecided)
{
    const crtrig_target *t = exp_target(target);
    crtrig_fpenv saved;
    int rc, participants;
    if (!t || !t->exp_range || (int)fmt < 0 || (int)fmt > (int)CRTRIG_FLOAT64)
        return CRTRIG_EINVAL;
    participants = crtrig_threads_claim_weighted(count, EXP_BLOCK, EXP_REAL_CLAIM_WEIGHT);
    crtrig_fpenv_enter(&saved);
    rc = exp_real_work(t, x0, step, count, d_hi, d_lo, p_hi, p_lo, fmt, out, undecided, n_undecided,
                       participants);
    crtrig_fpenv_leave(&saved, 0);
    crtrig_threads_release(participants);
    return rc;
}

int crtrig_exp_affine_fill(double x0, double step, size_t count, double d_hi, double d_lo, double s,
                           int P, crtrig_dtype fmt, double *out, unsigned char *undecided,
                           size_t *n_undecided)
{
    return crtrig_exp_affine_fill_target(-1, x0, step, count, d_hi, d_lo, s, P, fmt, out, undecided,
                                         n_undecided);
}

int crtrig_test_exp_dd(int target, double y_hi, double y_lo, double *hi, double *lo, double *rel)
{
    const crtrig_target *t = exp_target(target);
    crtrig_fpenv saved;
    if (!t || !t->exp_dd_value || !(y_hi >= -620.0 && y_hi <= 0.0) || !(fabs(y_lo) <= 0x1p-53 * fabs(y_hi)))
        return CRTRIG_EINVAL;  /* a test hook: flags raised by these checks do not matter */
    crtrig_fpenv_enter(&saved);
    t->exp_dd_value(y_hi, y_lo, hi, lo);
    crtrig_fpenv_leave(&saved, 0);
    *rel = 0x1.4p-89;  /* 2^-88.68 >= the 2^-88.7 of xp_dd_scaled (exp_pass.h) */
    return CRTRIG_OK;
}
