/* The Kaiser-Bessel-derived window's double-double stage (see window_kbd.h).  Bounds
 * for the code as written, round-to-nearest (the fill enters crtrig_fpenv), no
 * contraction; dd.h's 2^-103 = 8 e^2 per dd operation, e = 2^-53.
 *
 * 1. S~_j, j < half = (L + 1)/2 (S_j = S_(L-1-j)), by the target's i0_series on
 *    bessel_i0.c's table: |S~_j - S_j| <= sigma S_j, sigma = (26.1 K + 8.07) e^2
 *    (kaiser_pass.h), K <= 2000.  In parallel; each element on its own.
 * 2. The prefix sums in one pass, in index order (so the bits do not depend on any
 *    split): A~_0 = S~_0, A~_n = dd_add(A~_(n-1), S~_(min(n, L-1-n))), positive
 *    operands: relative 8 e^2 per addition, so |A~_n - A_n| <= (sigma + 8 n e^2)
 *    (1.001) A_n (the product of all factors stays within 2^-76 of 1), B~ = A~_(L-1)
 *    likewise with n = L - 1.
 * 3. In parallel, per n <= L - 2:
 *    1/B: q = dd_div_d(1, B_h) (8 e^2), x = B_l/B_h (|x| <= e), 1/(1 + x) replaced by
 *      1 - RN(x) (exact as dd_two_sum(1, -RN(x)); |RN(x) - x| <= e |x|, x^2/(1 + x) <=
 *      1.01 e^2: 2.01 e^2), times q by dd_mul (8 e^2): inv within 18.1 e^2 of 1/B~.
 *    R = dd_mul(A~_n, inv) (8 e^2): |R~ - A_n/B| <= rho A_n/B with rho <= (2 sigma +
 *      8 (n + L - 1) + 26.1) (1.001) e^2.
 *    w = kbd_sqrt(R~) (below): 5.3 e^2 of sqrt(R~), and sqrt halves rho:
 *      |w~ - w| <= (sigma + 4 (n + L) + 18.5) (1.002) e^2 w
 *                <= (26.2 K + 4.01 (n + L) + 26.8) e^2 w.
 *    Decision (float64: the target's kbd_finish64, kaiser_pass.h, the same steps and
 *    bound with sc64_round's test; the other formats here): crtrig_decide_dd with e = w_h (26.2 K + 4.01 (n + L) + 64) 2^-106, which
 *    covers that bound, |w| <= w_h (1 + 2e), crtrig_decide_dd's 2^-103 (|w| + e) and
 *    the three roundings of e's own computation.
 * Magnitudes: 1 <= S_j < 2^870, A_n < 2^896, A_n/B >= 1/(L 2^870) >= 2^-896, so
 * every product and rounding error of the dd operations stays normal (above 2^-1010)
 * and w >= 2^-448 > 2^-1021 (crtrig_decide_dd's float64 condition). */
#include <math.h>

#include "alloc.h"
#include "bessel_i0.h"
#include "dd.h"
#include "dispatch.h"
#include "fpenv.h"
#include "fpformat.h"
#include "threads.h"
#include "window_kbd.h"

enum { KBD_BLOCK = 64 };

typedef struct kbd_call {
    const crtrig_target *target;
    crtrig_i0_table tab;
    uint64_t L;
    crtrig_dtype fmt;
    double *s_hi, *s_lo;   /* S~_j, j < half */
    double *out, *a_lo;    /* A~_n = out[n] + a_lo[n] after step 2, then w */
    unsigned char *undecided;
    dd_t inv;
} kbd_call;

/* Step 1 over j in [lo, hi). */
static size_t kbd_series_range(void *arg, size_t lo, size_t hi)
{
    const kbd_call *c = (const kbd_call *)arg;
    c->target->i0_series(&c->tab, lo, hi - lo, c->s_hi + lo, c->s_lo + lo);
    return 0;
}

/* sqrt of a double-double R > 0 (|R_l| <= e R_h), within 5.3 e^2 relative:
 * s = RN(sqrt(R_h)) = sqrt(R_h)(1 + eta), |eta| <= e; (p, pe) = dd_two_prod(s, s) exact;
 * R_h - p is exact (Sterbenz: p within 3.01 e of R_h); t = RN((R_h - p) - pe), the
 * exact value R_h - s^2 having |.| <= 2.01 e R_h: error <= 2.01 e^2 R_h; d = RN(t + R_l)
 * (|.| <= 3.02 e R_h): error <= 3.02 e^2 R_h, so d is within 5.03 e^2 R_h of D = R -
 * s^2 (|D| <= 3.01 e R_h); corr = RN(d/(2s)): e |d|/(2s) <= 1.52 e^2 s; d's error moves
 * it by <= 2.52 e^2 s (R_h/s <= s (1 + 2e)); and s + D/(2s) differs from sqrt(R) =
 * s sqrt(1 + D/s^2) by <= s (D/s^2)^2/8 <= 1.15 e^2 s.  dd_fast_two_sum(s, corr)
 * is exact (|corr| <= 1.6 e s).  In all <= 5.2 e^2 s <= 5.3 e^2 sqrt(R). */
static dd_t kbd_sqrt(dd_t R)
{
    double s = sqrt(R.hi), d, corr;
    dd_t p = dd_two_prod(s, s);
    d = ((R.hi - p.hi) - p.lo) + R.lo;
    corr = d / (2.0 * s);
    return dd_fast_two_sum(s, corr);
}

/* Step 3 over n in [lo, hi): each element on its own. */
static size_t kbd_finish_range(void *arg, size_t lo, size_t hi)
{
    const kbd_call *c = (const kbd_call *)arg;
    const double KL = 26.2 * (double)c->tab.K + 64.0;
    size_t n, missing = 0;
    if (c->fmt == CRTRIG_FLOAT64)  /* the same steps in the target's kernel (kaiser_pass.h) */
        return c->target->kbd_finish64(c->out + lo, c->a_lo + lo, c->inv.hi, c->inv.lo, KL,
                                       (double)(lo + c->L), hi - lo, c->undecided + lo);
    for (n = lo; n < hi; n++) {
        dd_t w = kbd_sqrt(dd_mul(dd_make(c->out[n], c->a_lo[n]), c->inv));
        double r, e = w.hi * ((KL + 4.01 * (double)(n + c->L)) * 0x1p-106);
        int decided = crtrig_decide_dd(w, e, c->fmt, &r);
        missing += crtrig_record_element(&c->out[n], &c->undecided[n], decided, &r);
    }
    return missing;
}

/* Inside the fpenv bracket: the table, the three steps. */
static CRTRIG_NOINLINE int kbd_work(const crtrig_target *target, double c_hi, double c_lo, uint64_t L,
                                    crtrig_dtype fmt, double *out, unsigned char *undecided,
                                    size_t *n_undecided, int participants)
{
    kbd_call c;
    size_t half = (size_t)((L + 1) / 2), n, ignored;
    dd_t A, q;
    double x;
    int rc = crtrig_i0_table_init(&c.tab, c_hi, c_lo, L);
    if (rc != CRTRIG_OK)
        return rc;
    c.target = target;
    c.L = L;
    c.fmt = fmt;
    c.out = out;
    c.undecided = undecided;
    c.s_hi = (double *)crtrig_alloc((2 * half + (size_t)(L - 1)) * sizeof(double));
    if (!c.s_hi) {
        crtrig_i0_table_free(&c.tab);
        return CRTRIG_ENOMEM;
    }
    c.s_lo = c.s_hi + half;
    c.a_lo = c.s_lo + half;
    rc = crtrig_threads_run_counting(participants, half, KBD_BLOCK, kbd_series_range, &c, &ignored);
    if (rc == CRTRIG_OK) {
        A = dd_make(c.s_hi[0], c.s_lo[0]);
        out[0] = A.hi;
        c.a_lo[0] = A.lo;
        for (n = 1; n <= (size_t)(L - 1); n++) {
            size_t j = n < half ? n : (size_t)(L - 1) - n;
            A = dd_add(A, dd_make(c.s_hi[j], c.s_lo[j]));
            if (n < (size_t)(L - 1)) {
                out[n] = A.hi;
                c.a_lo[n] = A.lo;
            }
        }
        /* A = B~ now: inv ~ 1/B~ (see above). */
        q = dd_div_d(dd_make(1.0, 0.0), A.hi);
        x = A.lo / A.hi;
        c.inv = dd_mul(q, dd_two_sum(1.0, -x));
        rc = crtrig_threads_run_counting(participants, (size_t)(L - 1), KBD_BLOCK, kbd_finish_range, &c,
                                         n_undecided);
    }
    crtrig_free(c.s_hi);
    crtrig_i0_table_free(&c.tab);
    return rc;
}

int crtrig_kbd_fill_target(int target, double c_hi, double c_lo, uint64_t L, crtrig_dtype fmt, double *out,
                           unsigned char *undecided, size_t *n_undecided)
{
    crtrig_fpenv saved;
    int rc, participants;
    const crtrig_target *t = target < 0 ? crtrig_active_target() : crtrig_target_at(target);
    if (!t || !t->i0_series || L < 3 || L > ((uint64_t)1 << 26) || (int)fmt < 0 || (int)fmt > (int)CRTRIG_FLOAT64)
        return CRTRIG_EINVAL;
    participants = crtrig_threads_claim((size_t)(L - 1), KBD_BLOCK);
    crtrig_fpenv_enter(&saved);
    rc = kbd_work(t, c_hi, c_lo, L, fmt, out, undecided, n_undecided, participants);
    crtrig_fpenv_leave(&saved, 0);
    crtrig_threads_release(participants);
    return rc;
}

int crtrig_kbd_fill(double c_hi, double c_lo, uint64_t L, crtrig_dtype fmt, double *out, unsigned char *undecided,
                    size_t *n_undecided)
{
    return crtrig_kbd_fill_target(-1, c_hi, c_lo, L, fmt, out, undecided, n_undecided);
}
