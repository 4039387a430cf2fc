/* Kaiser's window: the double-double stage of I0(2 sqrt(y)) / I0(beta), y = c m_n
 * (see bessel_i0.h).  Bounds for the code as written, round-to-nearest (the fill
 * enters crtrig_fpenv), no contraction; dd.h's 2^-103 per dd operation, e = 2^-53.
 * The per-element series runs in the SIMD target's kernel (kaiser_pass.h, through
 * dispatch.h) on the table built here once per call. */
#include <math.h>

#include "alloc.h"
#include "bessel_i0.h"
#include "dispatch.h"
#include "dd.h"
#include "fpenv.h"
#include "fpformat.h"
#include "threads.h"

/* The coefficient table (bessel_i0.h).  With m_max = max_n n (L - 1 - n) (exact, < 2^52)
 * and G the largest power of two <= m_max, v_n = m_n / G <= v_max = m_max / G < 2 and
 * S(y_n) = sum_k b_k v_n^k with b_k = (c G)^k/(k!)^2 (c G = c_hi G + c_lo G exact).
 *   b_k = dd_div_d(dd_mul(b_{k-1}, c G), k^2) (k^2 < 2^22 exact): 2^-103 each (dd.h),
 *   with c's 2^-105 = 2 e^2 per factor: |beta_k| <= k (8 + 8 + 2) e^2 (1.001) = 18.02 k e^2.
 *   K is where the series at the largest argument Y_e = c m_max (every v_n <= v_max)
 *   may stop: t_k = Y_e^k/(k!)^2 = b_k v_max^k by the same recurrence on Y_e =
 *   dd_mul_d(C, m_max) (relative error of the computed t_k and of their sum <= k
 *   2^-100.9, i0_series of the earlier code), K the first k with t_k < 2^-112 sum and
 *   (k + 1)^2 >= 2 Y_e: every later ratio Y_e/(j + 1)^2 is <= (1/2)(1 + 2^-99) (Y_e's
 *   and c's errors), so sum_{j>K} t_j <= t_K (1 + 2^-97) <= 2^-112 (1 + 2^-50) S(Y_e).
 *   At any v = v_n <= v_max the tail's share T(v)/S(v) = 1/(1 + H(v)/T(v)) is at most
 *   T(v_max)/S(v_max), since T(v)/H(v) = sum_{j>K} b_j v^j / sum_{i<=K} b_i v^i grows
 *   with v (each v^(j - i), j > i, does): the terms after K are below 2^-111.99 S(y_n).
 *   Range: b_k <= S(c G) <= S(Y_e) < 2^870 (no overflow); b_k is unimodal in k (the
 *   ratio c G/k^2 decreases) with b_0 = 1, so min_k b_k = min(1, b_K): the check b_K >=
 *   2^-400 keeps every b_k there (kaiser_pass.h's no-underflow argument). */
int crtrig_i0_table_init(crtrig_i0_table *t, double c_hi, double c_lo, uint64_t L)
{
    uint64_t half = (L - 1) / 2;
    double m_max = (double)(half * (L - 1 - half)), G, kk;
    dd_t C = dd_make(c_hi, c_lo), cG, Ye, b = dd_make(1.0, 0.0), term = dd_make(1.0, 0.0),
         sum = dd_make(1.0, 0.0);
    int ex, k;
    if (L < 3 || L > ((uint64_t)1 << 26) || !(c_hi > 0.0 && c_hi * m_max <= 90001.0))
        return CRTRIG_EINVAL;
    (void)frexp(m_max, &ex); /* m_max = f 2^ex, 1/2 <= f < 1 */
    G = ldexp(1.0, ex - 1);
    t->inv_G = ldexp(1.0, 1 - ex);
    t->L = L;
    t->b_hi = (double *)crtrig_alloc(2 * (CRTRIG_I0_MAX_TERMS + 1) * sizeof(double));
    if (!t->b_hi)
        return CRTRIG_ENOMEM;
    t->b_lo = t->b_hi + CRTRIG_I0_MAX_TERMS + 1;
    cG = dd_make(c_hi * G, c_lo * G);
    Ye = dd_mul_d(C, m_max);
    t->b_hi[0] = 1.0;
    t->b_lo[0] = 0.0;
    for (k = 1;; k++) {
        if (k > CRTRIG_I0_MAX_TERMS) {
            crtrig_i0_table_free(t);
            return CRTRIG_EINVAL;
        }
        kk = (double)k * (double)k;
        b = dd_div_d(dd_mul(b, cG), kk);
        t->b_hi[k] = b.hi;
        t->b_lo[k] = b.lo;
        term = dd_div_d(dd_mul(term, Ye), kk);
        sum = dd_add(sum, term);
        if (term.hi < 0x1p-112 * sum.hi && ((double)k + 1.0) * ((double)k + 1.0) >= 2.0 * Ye.hi)
            break;
    }
    t->K = k;
    if (!(t->b_hi[k] >= 0x1p-400)) {
        crtrig_i0_table_free(t);
        return CRTRIG_EINVAL;
    }
    return CRTRIG_OK;
}

void crtrig_i0_table_free(crtrig_i0_table *t)
{
    crtrig_free(t->b_hi);
    t->b_hi = t->b_lo = 0;
}

enum { KAISER_BLOCK = 64 };

typedef struct kaiser_call {
    const crtrig_target *target;
    crtrig_i0_table tab;
    double inv_hi, inv_lo;
    crtrig_dtype fmt;
    double *out;
    unsigned char *undecided;
} kaiser_call;

/* The elements [lo, hi), each on its own (so any split gives the same bits): S(y_n) by
 * the target's i0_series (|S~ - S| <= (26.1 K + 8.07) e^2 S, kaiser_pass.h), then w = S
 * inv.  float64: the target's kaiser_round64 (its bound and test in kaiser_pass.h).
 * The other formats: w = dd_mul(S~, inv) (2^-103 = 8 e^2, dd.h) and inv's 4 e^2, so
 * |w~ - w| <= (26.1 K + 20.1) e^2 |w| <= 52221 e^2 |w| (K <= 2000); e = 2^-90 w_h =
 * 65536 e^2 w_h covers that, |w| <= w_h (1 + 2e) and crtrig_decide_dd's 2^-103 (|w| +
 * e).  w >= inv (1 - 2^-90) >= 2^-871 > 2^-1021, as crtrig_decide_dd needs. */
static size_t kaiser_range(void *arg, size_t lo, size_t hi)
{
    const kaiser_call *c = (const kaiser_call *)arg;
    double s_hi[KAISER_BLOCK], s_lo[KAISER_BLOCK];
    size_t n, i, len, missing = 0;
    for (n = lo; n < hi; n += len) {
        len = hi - n < KAISER_BLOCK ? hi - n : KAISER_BLOCK;
        c->target->i0_series(&c->tab, n, len, s_hi, s_lo);
        if (c->fmt == CRTRIG_FLOAT64) {
            missing += c->target->kaiser_round64(s_hi, s_lo, c->inv_hi, c->inv_lo, len, c->out + n,
                                                 c->undecided + n);
            continue;
        }
        for (i = 0; i < len; i++) {
            dd_t w = dd_mul(dd_make(s_hi[i], s_lo[i]), dd_make(c->inv_hi, c->inv_lo));
            double r;
            if (crtrig_decide_dd(w, 0x1p-90 * w.hi, c->fmt, &r)) {
                c->out[n + i] = r;
                c->undecided[n + i] = 0;
            } else {
                c->out[n + i] = NAN;
                c->undecided[n + i] = 1;
                missing++;
            }
        }
    }
    return missing;
}

/* The argument checks that need floating-point arithmetic run inside the fpenv
 * bracket too (their comparisons and products may raise flags), then the table and
 * the job. */
static CRTRIG_NOINLINE int kaiser_checked_work(const crtrig_target *target, double c_hi, double c_lo,
                                               double inv_hi, double inv_lo, uint64_t L, size_t count,
                                               crtrig_dtype fmt, double *out, unsigned char *undecided,
                                               size_t *n_undecided, int participants)
{
    kaiser_call c;
    int rc;
    /* c m_n <= beta^2/4 <= 90000 and c > 0; 1/I0(beta) >= 2^-870: the products stay
     * normal (w >= 2^-871 > 2^-1021, as crtrig_decide_dd needs). */
    if (!(c_hi > 0.0 && c_hi * 0.25 * (double)(L - 1) * (double)(L - 1) <= 90001.0) ||
        !(inv_hi >= 0x1p-870 && inv_hi <= 1.0))
        return CRTRIG_EINVAL;
    rc = crtrig_i0_table_init(&c.tab, c_hi, c_lo, L);
    if (rc != CRTRIG_OK)
        return rc;
    c.target = target;
    c.inv_hi = inv_hi;
    c.inv_lo = inv_lo;
    c.fmt = fmt;
    c.out = out;
    c.undecided = undecided;
    rc = crtrig_threads_run_counting(participants, count, KAISER_BLOCK, kaiser_range, &c, n_undecided);
    crtrig_i0_table_free(&c.tab);
    return rc;
}

int crtrig_kaiser_fill_target(int target, double c_hi, double c_lo, double inv_hi, double inv_lo, uint64_t L,
                              size_t count, crtrig_dtype fmt, double *out, unsigned char *undecided,
                              size_t *n_undecided)
{
    crtrig_fpenv saved;
    int rc, participants;
    const crtrig_target *t = target < 0 ? crtrig_active_target() : crtrig_target_at(target);
    if (!t || !t->i0_series || L < 3 || L > ((uint64_t)1 << 26) || count > L || (int)fmt < 0 ||
        (int)fmt > (int)CRTRIG_FLOAT64)
        return CRTRIG_EINVAL;
    participants = crtrig_threads_claim(count, KAISER_BLOCK);
    crtrig_fpenv_enter(&saved);
    rc = kaiser_checked_work(t, c_hi, c_lo, inv_hi, inv_lo, L, count, fmt, out, undecided, n_undecided,
                             participants);
    crtrig_fpenv_leave(&saved, 0);
    crtrig_threads_release(participants);
    return rc;
}

int crtrig_kaiser_fill(double c_hi, double c_lo, double inv_hi, double inv_lo, uint64_t L, size_t count,
                       crtrig_dtype fmt, double *out, unsigned char *undecided, size_t *n_undecided)
{
    return crtrig_kaiser_fill_target(-1, c_hi, c_lo, inv_hi, inv_lo, L, count, fmt, out, undecided,
                                     n_undecided);
}
