/* Kaiser's window: the double-double stage of I0(2 sqrt(y)) / I0(beta), y = c m_n
 * (see bessel_i0.h).  Bounds for the code as written, round-to-nearest (the fill
 * enters crtrig_fpenv), no contraction; dd.h's 2^-103 per dd operation. */
#include <math.h>

#include "bessel_i0.h"
#include "dd.h"
#include "fpenv.h"
#include "fpformat.h"
#include "threads.h"

/* S(y) = sum_k y^k/(k!)^2 for the double-double y (0 <= y <= 90000, relative error
 * eps_y <= 2^-102.7 from its formation), with *terms = K, the last index summed.
 * term_k = (term_{k-1} * y) / k^2: dd_mul then dd_div_d by the exact double k^2
 * (k <= 2^20): 2^-102 per step; with y's own error the computed term_k is the exact
 * y^k/(k!)^2 times (1 + delta_k), |delta_k| <= k (2^-102.7 + 2^-102)(1.001) <= k
 * 2^-101.3.  The sum of positive terms, one dd_add each (2^-103 of the running sum
 * and the term, both positive: relative 2^-103 each): K 2^-103 more.  The loop stops
 * at the first k with term_k < 2^-112 sum and (k + 1)^2 >= 2 y: every later ratio
 * y/(j + 1)^2 is <= 1/2, so the tail is below term_k <= 2^-112 S.  So |S_computed -
 * S| <= (K 2^-101.3 + K 2^-103 + 2^-112) S <= (K 2^-100.9 + 2^-112) S. */
static dd_t i0_series(dd_t y, int *terms)
{
    dd_t term = dd_make(1.0, 0.0), sum = dd_make(1.0, 0.0);
    int k = 0;
    if (y.hi == 0.0) {
        *terms = 0;
        return sum;
    }
    for (;;) {
        double kk;
        k++;
        kk = (double)k * (double)k;
        term = dd_div_d(dd_mul(term, y), kk);
        sum = dd_add(sum, term);
        if (term.hi < 0x1p-112 * sum.hi && ((double)k + 1.0) * ((double)k + 1.0) >= 2.0 * y.hi)
            break;
    }
    *terms = k;
    return sum;
}

enum { KAISER_BLOCK = 64 };

typedef struct kaiser_call {
    dd_t C, inv;
    uint64_t L;
    crtrig_dtype fmt;
    double *out;
    unsigned char *undecided;
} kaiser_call;

/* The elements [lo, hi), each on its own (so any split gives the same bits). */
static size_t kaiser_range(void *arg, size_t lo, size_t hi)
{
    const kaiser_call *c = (const kaiser_call *)arg;
    size_t n, missing = 0;
    for (n = lo; n < hi; n++) {
        /* m = n (L - 1 - n) < 2^52 (L <= 2^26): exact.  y = dd_mul_d(C, m): relative
         * 2^-105 (C) + 2^-103 <= 2^-102.7. */
        double m = (double)n * (double)(c->L - 1 - n), r, e;
        int K;
        dd_t S = i0_series(dd_mul_d(c->C, m), &K), w = dd_mul(S, c->inv);
        /* |w - exact| <= (K 2^-100.9 + 2^-112 + 2^-104 (inv) + 2^-103 (product)) |w|,
         * bounded by e = w.hi (K 2^-100.5 + 2^-100): the factor 2^0.4 on the first
         * term and 2^-100 >= 2 (2^-112 + 2^-104 + 2^-103) leave room for |w.hi| vs
         * |w|, e's rounding and crtrig_decide_dd's 2^-103 (|y| + e). */
        e = w.hi * ((double)K * 0x1.6a09e667f3bcdp-101 + 0x1p-100);
        if (crtrig_decide_dd(w, e, c->fmt, &r)) {
            c->out[n] = r;
            c->undecided[n] = 0;
        } else {
            c->out[n] = NAN;
            c->undecided[n] = 1;
            missing++;
        }
    }
    return missing;
}

/* The argument checks that need floating-point arithmetic run inside the fpenv
 * bracket too (their comparisons and products may raise flags), then the job. */
static CRTRIG_NOINLINE int kaiser_checked_work(double c_hi, double c_lo, double inv_hi, double inv_lo,
                                               uint64_t L, size_t count, crtrig_dtype fmt, double *out,
                                               unsigned char *undecided, size_t *n_undecided,
                                               int participants)
{
    kaiser_call c;
    int rc;
    /* c m_n <= beta^2/4 <= 90000 and c >= 0; 1/I0(beta) >= 2^-870: the products stay
     * normal (w >= 2^-870 > 2^-1021, as crtrig_decide_dd needs). */
    if (!(c_hi >= 0.0 && c_hi * 0.25 * (double)(L - 1) * (double)(L - 1) <= 90001.0) ||
        !(inv_hi >= 0x1p-870 && inv_hi <= 1.0))
        return CRTRIG_EINVAL;
    c.C = dd_make(c_hi, c_lo);
    c.inv = dd_make(inv_hi, inv_lo);
    c.L = L;
    c.fmt = fmt;
    c.out = out;
    c.undecided = undecided;
    rc = crtrig_threads_run_counting(participants, count, KAISER_BLOCK, kaiser_range, &c, n_undecided);
    return rc;
}

int crtrig_kaiser_fill(double c_hi, double c_lo, double inv_hi, double inv_lo, uint64_t L, size_t count,
                       crtrig_dtype fmt, double *out, unsigned char *undecided, size_t *n_undecided)
{
    crtrig_fpenv saved;
    int rc, participants;
    if (L < 3 || L > ((uint64_t)1 << 26) || count > L || (int)fmt < 0 || (int)fmt > (int)CRTRIG_FLOAT64)
        return CRTRIG_EINVAL;
    participants = crtrig_threads_claim(count, KAISER_BLOCK);
    crtrig_fpenv_enter(&saved);
    rc = kaiser_checked_work(c_hi, c_lo, inv_hi, inv_lo, L, count, fmt, out, undecided, n_undecided,
                             participants);
    crtrig_fpenv_leave(&saved, 0);
    crtrig_threads_release(participants);
    return rc;
}
