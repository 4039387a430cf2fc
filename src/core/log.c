/* The double-double logarithm's test hook (log.h); the logarithm itself is
 * exp_pass.h's xp_log, per SIMD target. */
#include <math.h>

#include "dispatch.h"
#include "fpenv.h"
#include "log.h"

static CRTRIG_NOINLINE int log_work(const crtrig_target *t, double y_hi, double y_lo, double *hi, double *lo,
                                    double *err)
{
    return t->log_dd_value(y_hi, y_lo, hi, lo, err);
}

int crtrig_test_log_dd(int target, double y_hi, double y_lo, double *hi, double *lo, double *err)
{
    const crtrig_target *t = target < 0 ? crtrig_active_target() : crtrig_target_at(target);
    crtrig_fpenv saved;
    int ok;
    if (!t || !t->log_dd_value || !(y_hi >= 0x1p-1000 && y_hi <= 0x1p1000) || !(fabs(y_lo) <= 0x1p-53 * y_hi))
        return CRTRIG_EINVAL;  /* a test hook: flags raised by these checks do not matter */
    crtrig_fpenv_enter(&saved);
    ok = log_work(t, y_hi, y_lo, hi, lo, err);
    crtrig_fpenv_leave(&saved, 0);
    return ok ? CRTRIG_OK : CRTRIG_ENOCONV;
}
