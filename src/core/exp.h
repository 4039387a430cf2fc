/* Correctly rounded exp(-q) for the exp-based windows (gaussian, general_gaussian,
 * exponential): the double-double stage and its rounding test (internal).
 *
 * The argument is q = s (|x| d)^P with x an exact double, d > 0 given as a
 * double-double d_hi + d_lo with |d - d_hi - d_lo| <= 2^-105 d (the caller
 * rounds an exact rational twice to nearest), s in {1/2, 1} and 1 <= P <= 1024.
 * exp(-q) is never a rounding boundary for q != 0 (Lindemann: exp of a nonzero
 * algebraic number is transcendental), so the exact fallback that finishes the
 * undecided elements always terminates (crtrig._exp_windows, exact integers).
 */
#ifndef CRTRIG_EXP_H
#define CRTRIG_EXP_H

#include <stddef.h>
#include <stdint.h>
#include "crtrig/crtrig.h"

enum { CRTRIG_EXP_MAX_POWER = 1024 };

/* Elements per block of the recurrence (exp_pass.h), and the pool's chunk unit. */
enum { EXP_BLOCK = 256 };

/* One fill's arguments as the per-target kernel (exp_pass.h, dispatched through
 * dispatch.h's exp_range) reads them: q = s (|x| d)^P for x = x0 + i step,
 * d = d_hi + d_lo, the values into out and the flags into undecided; zero_above
 * and limit as exp.c's exp_checked_work sets them. */
typedef struct crtrig_exp_args {
    double x0, step, s, zero_above, limit, d_hi, d_lo;
    double p_hi, p_lo;  /* P == 0: the real power p_hi + p_lo (crtrig_exp_real_fill) */
    int P;
    crtrig_dtype fmt;
    double *out;
    unsigned char *undecided;
} crtrig_exp_args;

/* out[i] = exp(-q_i) correctly rounded into fmt (as the double of the same value)
 * for x_i = x0 + i step (the caller guarantees every x_i and x0 + (count-1) step
 * are integers or exact doubles below 2^53 in magnitude, so the sums are exact),
 * or NaN and undecided[i] = 1 where the double-double stage cannot decide (then
 * the caller computes it exactly).  *n_undecided counts those.  Computes under
 * round-to-nearest whatever the caller's mode (fpenv.h).  Returns CRTRIG_OK or
 * CRTRIG_EINVAL (bad P, s, d or fmt). */
int crtrig_exp_affine_fill(double x0, double step, size_t count, double d_hi, double d_lo, double s,
                           int P, crtrig_dtype fmt, double *out, unsigned char *undecided,
                           size_t *n_undecided);

/* crtrig_exp_affine_fill through the kernel of target index `target` (0 baseline,
 * 1 avx2, 2 avx512; -1: the active target), for the tests that compare targets:
 * CRTRIG_EINVAL also for a target this build or CPU lacks. */
int crtrig_exp_affine_fill_target(int target, double x0, double step, size_t count, double d_hi,
                                  double d_lo, double s, int P, crtrig_dtype fmt, double *out,
                                  unsigned char *undecided, size_t *n_undecided);

/* general_gaussian with a real power: out[i] = exp(-(1/2) (|x_i| d)^P) correctly
 * rounded into fmt, x_i = x0 + i step as for crtrig_exp_affine_fill, P = p_hi + p_lo
 * a double-double within 2^-105 P of the exact rational (0 < P <= 1024), q formed as
 * exp(P ln y - ln 2) (log.h's log, exp_pass.h's exp), undecided elements as there.
 * The fallback (crtrig._exp_windows, exact integers) terminates: q is algebraic and
 * nonzero, exp(-q) transcendental (Lindemann).  target as in
 * crtrig_exp_affine_fill_target.  Returns CRTRIG_OK or CRTRIG_EINVAL. */
int crtrig_exp_real_fill(int target, double x0, double step, size_t count, double d_hi, double d_lo,
                         double p_hi, double p_lo, crtrig_dtype fmt, double *out, unsigned char *undecided,
                         size_t *n_undecided);

/* Test hook: exp(y) of the double-double y = y_hi + y_lo (-620 <= y_hi <= 0, |y_lo| <= 2^-53 |y_hi|), as
 * hi + lo with the relative error bound *rel (|hi + lo - exp(y)| <= rel exp(y)),
 * evaluated as the fill does, by the kernel of target index `target` (-1: the
 * active one).  Returns CRTRIG_OK, or CRTRIG_EINVAL outside the domain or for a
 * target this build or CPU lacks. */
int crtrig_test_exp_dd(int target, double y_hi, double y_lo, double *hi, double *lo, double *rel);

#endif
