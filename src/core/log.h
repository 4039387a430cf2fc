/* The natural logarithm in double-double of the exp windows (internal).
 *
 * general_gaussian with a real power forms q = exp(P ln y - ln 2); ln y is
 * exp_pass.h's xp_log (compiled per SIMD target with the exp stage it uses: ln m =
 * L0 + ln(1 + u), 1 + u = m exp(-L0), an absolute bound 2^-88.6 + |e| 2^-102.5
 * for y = 2^e m, derived there).  This file is its test hook.
 */
#ifndef CRTRIG_LOG_H
#define CRTRIG_LOG_H

#include "crtrig/crtrig.h"

/* ln(y_hi + y_lo) = *hi + *lo within *err (absolute), by the kernel of target index
 * `target` (-1: the active one), for y_hi in [2^-1000, 2^1000] and |y_lo| <= 2^-53
 * y_hi.  Returns CRTRIG_OK, CRTRIG_EINVAL outside that domain or for a target this
 * build or CPU lacks, or CRTRIG_ENOCONV where the kernel declines (its correction
 * term too large: not expected). */
int crtrig_test_log_dd(int target, double y_hi, double y_lo, double *hi, double *lo, double *err);

#endif
