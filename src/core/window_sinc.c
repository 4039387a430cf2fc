/* scipy's Lanczos (sinc) and Bohman windows: the double-double stage and its
 * rounding test (see window_sinc.h for the formulas).  Bounds for the code as
 * written: round-to-nearest (the fill enters crtrig_fpenv), no contraction
 * (-ffp-contract=off), dd.h's 2^-103 per dd operation.  Below, a "unit" is
 * 2^-103 and |err| <= c units of X means |computed - exact| <= c 2^-103 X; second-
 * order terms (products of two such errors, below 2^-190 relative) are ignored
 * inside the margins (every final constant is rounded up by more than 2^-20).
 *
 * Phases.  Element n (2n <= D) has k = 2n and g = k/D; pi g is folded with exact
 * integers to r = min(k, D - k) <= D/2: sin(pi g) = sin(pi r/D), cos(pi g) =
 * +cos(pi r/D) for 2k <= D, -cos(pi r/D) for 2k > D.  Both come from the two-level
 * sinpi table of denominator D (window_table.h), built once per fill for the phases
 * 0 .. D/2 from the baseline target's builder: with r = aB + b and every entry
 * x~ = x (1 + d), |d| <= 3.7 units (crtrig_sincospi_ratio_dd's bound; the entries at
 * 0 and D/2 exact), all four entries >= 0 (angles in [0, pi/2]):
 *   S = sin(pi r/D) = Sa Cb + Ca Sb: two dd_mul (2 (3.7) + 1 units each, relative) and
 *       a dd_add of two nonnegative terms (1 unit): S~ within 9.4 units of S (as
 *       window_cosum.c's cos_table derives);
 *   C = cos(pi r/D) = Ca Cb - Sa Sb: the products within 8.4 units of themselves,
 *       the difference by dd_add_accurate (3u^2/(1 - 4u) < 0.376 units of the exact
 *       difference of its operands, which is within |C| + 8.4 (Ca Cb + Sa Sb) <= 1 + 2^-99
 *       since Ca Cb + Sa Sb = cos(pi (aB - b)/D) <= 1): an ABSOLUTE error
 *       |C~ - C| <= 8.4 + 0.377 <= 8.8 units (C itself may be near 0: no relative bound).
 * g = k/D as a double-double by crtrig_sincospi_ratio_dd's construction (ratio_dd
 * below): relative 2^-105 = 0.25 units (k, D <= 2^52 exact doubles).
 *
 * Lanczos.  k = 0: w = sin(0)/pi = 0, exactly; k = D: w = 1 (scipy's sinc(0) = 1).
 * Otherwise w = S / (pi r/D) with r = D - k >= 1 (1 - g = r/D, exact integers), computed
 * as div_by_int(Y, r) with Y = S D/pi = (K Sa) Cb + (K Ca) Sb, K = D/pi = dd_mul_d(1/pi, D)
 * (1/pi a dd constant within 2^-106 = 0.125 units, dd_mul_d 1 unit: 1.125 units), the
 * coarse entries times K formed once per fill (scaled_coarse: dd_mul, 1 unit; each
 * within 3.7 + 1.125 + 1 = 5.83 units of its exact value times D/pi), then per element
 * two dd_mul with the fine entries (5.83 + 3.7 + 1 = 10.53 units each) and a dd_add of
 * two nonnegative terms (1 unit): Y within 11.53 units; div_by_int 1.4 (below): w within
 * 12.93 units.  Every value here is nonnegative and at
 * least sin(pi/D) D/(pi D) >= 2^-53 (no underflow; dd_two_prod's split is exact).
 * The test: e = 2^-99 w~_hi = 16 units of w~_hi covers the 12.93 units, w~_hi vs w
 * (relative 2^-52), and crtrig_decide_dd's own 2^-103 (|y| + e) (1.01 units).
 * div_by_int(y, r, inv) is dd_div_d(y, r) with the two divisions by r replaced by
 * products with inv = RN(1/r) = (1 + d0)/r, |d0| <= u, which is computed off the
 * element's dependency chain (the divisions were its slowest steps).  With u = 2^-53,
 * |y_lo| <= u |y_hi|, r < 2^53 exact: q1 = RN(y_hi inv) has q1 r = y_hi (1 + eps),
 * |eps| <= 2u + u^2; p = two_prod(q1, r) exact; p_hi is within 3.01u of y_hi, so
 * y_hi - p_hi is exact (Sterbenz); (y_hi - p_hi) - p_lo = y_hi - q1 r (<= 2.01u |y_hi|)
 * rounds by <= 2.01u^2 |y_hi|, + y_lo (sum <= 3.02u |y_hi|) by <= 3.02u^2 |y_hi|: rem =
 * y - q1 r + eta, |eta| <= 5.03u^2 |y_hi|.  q2 = RN(rem inv) is rem/r within (2u + u^2)
 * |rem|/r <= 6.1u^2 |y_hi|/r, and |q2| <= |q1|, so the fast two-sum of q1 + q2 is exact:
 * q1 + q2 - y/r = eta/r + (q2 - rem/r), at most 11.2u^2 |y|/r (1 + u) < 1.4 units of y/r.
 *
 * Bohman, k = 0: w = 0; k = D: w = 1 (exact, scipy's zero ends are these two).
 * Bohman near g = 0, 16 k <= D (g <= 1/16).  sin(pi g)/pi and g cos(pi g) both are
 * g (1 + O(g^2)) and w = (pi^2/3) g^3 (1 + O(g^2)): the difference would cancel (a
 * relative loss of 6/(pi^2 g^2)), so the series instead:
 *   w = g^3 P(z), z = g^2, P(z) = sum_j b_j z^j,  b_j = (-1)^j (2j + 2) pi^(2j+2)/(2j + 3)!
 * (from sin(x)/pi - g cos(x) = sum_k (-1)^(k+1) pi^(2k) g^(2k+1) (1/(2k)! - 1/(2k+1)!),
 * x = pi g).  Alternating with |b_j z^j| decreasing: relative to b_0 = pi^2/3 at z <=
 * 2^-8 the terms are <= 3.9e-3, 5.3e-6, 3.8e-9, 1.7e-12, 4.9e-16, 1.1e-19, 1.8e-23,
 * 2.2e-27, 2.2e-31 (j = 1 .. 9) and the first omitted one (j = 10) 1.9e-35 = 2^-115.4,
 * which bounds the truncation; P >= b_0 (1 - 3.9e-3).  BOHMAN_C holds b_j as dd
 * {hi, lo}, within 2^-106 of b_j (tools/gen_sinc_coeffs.py prints them; tests check
 * them against mpmath through crtrig_test_sinc_constant).
 *   g~ 0.25 units; z = dd_mul(g~, g~): 2 (0.25) + 1 = 1.5 units of g^2.
 *   Tail j = 9 .. 6 in double Horner on z_hi: its value <= 1.2e-19 P, its relative error
 *     below 8u (4 roundings, hi parts of the coefficients, z_hi vs z): < 2^-113 P.
 *   dd Horner j = 5 .. 0, p_j = dd_add(b_j, dd_mul(z, p_(j+1))): b_j and z p_(j+1) have
 *     opposite signs and |z p_(j+1)| <= 3.9e-3 |b_j| (< |b_j|/4, dd.h's condition), so
 *     step j errs by 1 unit of |z p_(j+1)| (mul) plus 1 unit of |b_j| + |z p_(j+1)| (add):
 *     at j = 0, relative to P, (3.9e-3 + 1.0039)/0.996 <= 1.012; the steps j >= 1 weigh
 *     z^j and sum below 0.01; the coefficients' 0.125 units of sum |b_j z^j| <= 1.008 P:
 *     0.127; z's 1.5 units move P by |z P'/P| 1.5 <= 0.006; tail and truncation 0.001.
 *     P~ within 1.16 units of P.
 *   g3 = dd_mul(z~, g~): 1.5 + 0.25 + 1 = 2.75 units of g^3; w = dd_mul(g3, P~):
 *     2.75 + 1.16 + 1 = 4.91 units of w.
 *   Magnitudes: g >= 2/D >= 2^-51, so g^3 >= 2^-153 and every product is far above
 *   2^-969 (dd.h's split) and below 2^4.  e = 2^-99 w~_hi (16 units) covers the 4.91,
 *   w~_hi vs w and crtrig_decide_dd's 1.01 units.
 * Bohman for g > 1/16 (16 k > D): w = P - Q with P = S/pi = dd_mul(S~, 1/pi), Q =
 * dd_mul(g~, C~ signed), by dd_add_accurate (w >= w(1/16) > 7.9e-4: the cancellation is
 * at most (P + |Q|)/w <= 160, and none for 2k > D, where Q <= 0).
 *   P~ within 9.4 + 0.125 + 1 = 10.53 units of P = S/pi;
 *   |Q~ - g C| <= g 8.8 (C's absolute error) + 0.25 g |C| (g~) + 1 unit of g |C~| (dd_mul)
 *     <= 10.06 g units (|C| <= 1);
 *   dd_add_accurate: 0.376 units of |P~ - Q~| <= w + 10.53 P + 10.06 g units: 0.377 w.
 *   |w~ - w| <= 10.53 P + 10.06 g + 0.377 w units.  The test uses
 *   e = 2^-99 (P~_hi + g~_hi + w~_hi): 16 units of each, which covers these three (P~_hi,
 *   g~_hi, w~_hi are within 2^-52 of P, g, w), crtrig_decide_dd's 1.01 units of w + e
 *   and e's own two roundings (relative 2^-52 each; the product by 2^-99 is exact).
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

/* 1/pi within 2^-106 (relative). */
static const double INV_PI[2] = {0x1.45f306dc9c883p-2, -0x1.6b01ec5417056p-56};

/* b_j = (-1)^j (2j + 2) pi^(2j+2)/(2j + 3)!, j = 0 .. 9, each {RN(b_j), RN(b_j - hi)}. */
static const double BOHMAN_C[10][2] = {
    {0x1.a51a6625307d3p+1, 0x1.1873d8912200cp-54},    /* j=0: pi^2/3 */
    {-0x1.9f9cb402bc46cp+1, -0x1.487acd8cd312cp-53},  /* j=1: -pi^4/30 */
    {0x1.24feab558a48dp+0, 0x1.0b6b4a765d087p-55},    /* j=2 */
    {-0x1.ac6805cf350a6p-3, -0x1.7494ad340e176p-58},  /* j=3 */
    {0x1.8061c54d78996p-6, 0x1.e920d7643f241p-61},    /* j=4 */
    {-0x1.d2eaa6f80d5a0p-10, 0x1.a9b606f0a2b74p-66},  /* j=5 */
    {0x1.99a005b794486p-14, -0x1.776363f93ef54p-68},  /* j=6 */
    {-0x1.0fc992ff39e13p-18, -0x1.c9302ba499e77p-72}, /* j=7 */
    {0x1.1a5c8a4f71dddp-23, 0x1.48028a3ab367fp-77},   /* j=8 */
    {-0x1.d7d6a8252af65p-29, 0x1.6c10419d7dd45p-85},  /* j=9 */
};

enum { SINC_BLOCK = 256 };

typedef struct sinc_call {
    const crtrig_sinpi_table *t;
    int shift;       /* t->B = 2^shift: r/B and r mod B without a division */
    int kind;
    uint64_t D;
    dd_t d_over_pi;  /* D/pi (Lanczos) */
    /* Lanczos: the coarse entries times D/pi, [a - a_first] as the table's (scaled_coarse). */
    const double *ks_hi, *ks_lo, *kc_hi, *kc_lo;
    crtrig_dtype fmt;
    double *out;
    unsigned char *undecided;
} sinc_call;

/* a/b as a double-double, a and b exact doubles, b > 0: relative 2^-105
 * (crtrig_sincospi_ratio_dd's construction, sincospi.c). */
static inline dd_t ratio_dd(double a, double b)
{
    double th = a / b;
    dd_t prod = dd_two_prod(th, b);
    double tl = ((a - prod.hi) - prod.lo) / b;
    return dd_fast_two_sum(th, tl);
}

/* sin(pi r/D) (relative 9.4 units) and, if c is not NULL, cos(pi r/D) (absolute 8.8
 * units) from the table, 0 <= r <= D/2 (top comment). */
static inline dd_t table_sincos(const crtrig_sinpi_table *t, int shift, uint64_t r, dd_t *c)
{
    uint64_t a = r >> shift, b = r & (t->B - 1), i = a - t->a_first;
    dd_t Sa = dd_make(t->coarse_sin_hi[i], t->coarse_sin_lo[i]), Ca = dd_make(t->coarse_cos_hi[i], t->coarse_cos_lo[i]);
    dd_t Sb = dd_make(t->fine_sin_hi[b], t->fine_sin_lo[b]), Cb = dd_make(t->fine_cos_hi[b], t->fine_cos_lo[b]);
    if (c) {
        dd_t q = dd_mul(Sa, Sb);
        *c = dd_add_accurate(dd_mul(Ca, Cb), dd_make(-q.hi, -q.lo));
    }
    return dd_add(dd_mul(Sa, Cb), dd_mul(Ca, Sb));
}

/* crtrig_decide_dd for a positive y (y.hi = RN(y.hi + y.lo), 2^-969 < y.hi < 2), and
 * for float64 without forming the ends: the exact value x has |x - y.hi - y.lo| <= e
 * (e covering the caller's errors; the ends' own roundings are not needed here).
 * With the gaps around y.hi, 2 up = ulp(y.hi) above and 2 down below (down = up/2
 * when y.hi is a power of 2), x rounds to y.hi when y.lo + e < up and y.lo - e >
 * -down, both strict: the two sums are computed in double, and a rounded sum below
 * the double `up` (above -down) means the exact sum is below (above) it too
 * (rounding is monotone and leaves doubles fixed).  Otherwise crtrig_decide_dd
 * (which then finds the ends on both sides of a boundary, or decides a case the
 * test above is too strict for). */
static inline int decide(dd_t y, double e, crtrig_dtype fmt, double *result)
{
    if (fmt == CRTRIG_FLOAT64) {
        uint64_t bits, hb;
        double up, down;
        memcpy(&bits, &y.hi, sizeof bits);
        hb = (bits & 0x7ff0000000000000u) - ((uint64_t)53 << 52);  /* 2^(exponent - 53) */
        memcpy(&up, &hb, sizeof up);
        down = (bits & 0x000fffffffffffffu) ? up : 0.5 * up;
        if (y.lo + e < up && y.lo - e > -down) {
            *result = y.hi;
            return 1;
        }
    }
    return crtrig_decide_dd(y, e, fmt, result);
}

/* Lanczos at k = 2n (0 < k < D): 1 and *result set when decided. */
/* y/r, r an integer in [1, 2^53) and inv = RN(1/r) (top comment: within 1.4 units). */
static inline dd_t div_by_int(dd_t y, double r, double inv)
{
    double q1 = y.hi * inv;
    dd_t p = dd_two_prod(q1, r);
    double rem = ((y.hi - p.hi) - p.lo) + y.lo;
    return dd_fast_two_sum(q1, rem * inv);
}

static int lanczos_value(const sinc_call *c, uint64_t k, double *result)
{
    const crtrig_sinpi_table *t = c->t;
    uint64_t r = c->D - k, folded = k < r ? k : r;
    uint64_t a = folded >> c->shift, b = folded & (t->B - 1), i = a - t->a_first;
    double rd = (double)r, inv = 1.0 / rd;
    dd_t KSa = dd_make(c->ks_hi[i], c->ks_lo[i]), KCa = dd_make(c->kc_hi[i], c->kc_lo[i]);
    dd_t Sb = dd_make(t->fine_sin_hi[b], t->fine_sin_lo[b]), Cb = dd_make(t->fine_cos_hi[b], t->fine_cos_lo[b]);
    dd_t y = dd_add(dd_mul(KSa, Cb), dd_mul(KCa, Sb));
    dd_t w = div_by_int(y, rd, inv);
    return decide(w, 0x1p-99 * w.hi, c->fmt, result);
}

/* The coarse entries of t times K (dd_mul each) into block (4 t->coarse doubles). */
static void scaled_coarse(sinc_call *c, const crtrig_sinpi_table *t, dd_t K, double *block)
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

/* Bohman's series g^3 P(g^2) for 0 < 16 k <= D (top comment). */
static dd_t bohman_series(dd_t g)
{
    dd_t z = dd_mul(g, g), p;
    double tail = BOHMAN_C[9][0];
    int j;
    for (j = 8; j >= 6; j--)
        tail = tail * z.hi + BOHMAN_C[j][0];
    p = dd_make(tail, 0.0);
    for (j = 5; j >= 0; j--)
        p = dd_add(dd_make(BOHMAN_C[j][0], BOHMAN_C[j][1]), dd_mul(z, p));
    return dd_mul(dd_mul(z, g), p);
}

/* Bohman at k = 2n (0 < k < D). */
static int bohman_value(const sinc_call *c, uint64_t k, double *result)
{
    const uint64_t D = c->D;
    dd_t g = ratio_dd((double)k, (double)D), w, s, cs, P, Q;
    double e;
    if (16 * k <= D) {
        w = bohman_series(g);
        return decide(w, 0x1p-99 * w.hi, c->fmt, result);
    }
    if (2 * k <= D) {
        s = table_sincos(c->t, c->shift, k, &cs);
    } else {
        s = table_sincos(c->t, c->shift, D - k, &cs);
        cs = dd_make(-cs.hi, -cs.lo);
    }
    P = dd_mul(s, dd_make(INV_PI[0], INV_PI[1]));
    Q = dd_mul(g, cs);
    w = dd_add_accurate(P, dd_make(-Q.hi, -Q.lo));
    e = 0x1p-99 * ((P.hi + g.hi) + w.hi);
    return decide(w, e, c->fmt, result);
}

/* The elements [lo, hi), each on its own (so any split gives the same bits). */
static size_t sinc_range(void *arg, size_t lo, size_t hi)
{
    const sinc_call *c = (const sinc_call *)arg;
    size_t n, missing = 0;
    for (n = lo; n < hi; n++) {
        uint64_t k = 2 * (uint64_t)n;
        double r;
        int decided = 1;
        if (k == 0) {
            r = 0.0;
        } else if (k == c->D) {
            r = 1.0;
        } else {
            decided = c->kind == CRTRIG_SINC_LANCZOS ? lanczos_value(c, k, &r) : bohman_value(c, k, &r);
        }
        missing += crtrig_record_element(&c->out[n], &c->undecided[n], decided, &r);
    }
    return missing;
}

/* The table (floating-point work) and the job, inside the caller's fpenv bracket. */
static CRTRIG_NOINLINE int sinc_work(int kind, uint64_t D, size_t count, crtrig_dtype fmt, double *out,
                                     unsigned char *undecided, size_t *n_undecided, int participants)
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
    c.t = &table;
    c.shift = shift;
    c.kind = kind;
    c.D = D;
    c.d_over_pi = dd_mul_d(dd_make(INV_PI[0], INV_PI[1]), (double)D);
    c.ks_hi = c.ks_lo = c.kc_hi = c.kc_lo = NULL;
    if (kind == CRTRIG_SINC_LANCZOS) {
        /* table.coarse <= 2^31 entries (window_table.c): the size cannot overflow */
        scaled = (double *)crtrig_alloc((size_t)(4 * table.coarse) * sizeof *scaled);
        if (!scaled) {
            crtrig_sinpi_table_free(&table);
            return CRTRIG_ENOMEM;
        }
        scaled_coarse(&c, &table, c.d_over_pi, scaled);
    }
    c.fmt = fmt;
    c.out = out;
    c.undecided = undecided;
    rc = crtrig_threads_run_counting(participants, count, SINC_BLOCK, sinc_range, &c, n_undecided);
    if (scaled)
        crtrig_free(scaled);
    crtrig_sinpi_table_free(&table);
    return rc;
}

int crtrig_sinc_window_fill(int kind, uint64_t D, size_t count, crtrig_dtype fmt, double *out,
                            unsigned char *undecided, size_t *n_undecided)
{
    crtrig_fpenv saved;
    int rc, participants;
    *n_undecided = 0;
    if ((kind != CRTRIG_SINC_LANCZOS && kind != CRTRIG_SINC_BOHMAN) || D < 1 || D > CRTRIG_SINC_MAX_D ||
        (uint64_t)count > D / 2 + 1 || (int)fmt < 0 || (int)fmt > (int)CRTRIG_FLOAT64)
        return CRTRIG_EINVAL;
    if (count == 0)
        return CRTRIG_OK;
    /* The pool's threshold counts elements of kernels near 0.5 ns each (threads.c);
     * an element here costs 15-40 ns, so the claim weighs each as 16 (the split
     * then starts at 4096 elements, about 80 us of work).  The job itself is over
     * the `count` elements, in blocks of SINC_BLOCK. */
    participants = crtrig_threads_claim_weighted(count, SINC_BLOCK, 16);
    crtrig_fpenv_enter(&saved);
    rc = sinc_work(kind, D, count, fmt, out, undecided, n_undecided, participants);
    crtrig_fpenv_leave(&saved, 0);
    crtrig_threads_release(participants);
    return rc;
}

int crtrig_test_sinc_constant(int j, double *hi, double *lo)
{
    if (j == -1) {
        *hi = INV_PI[0];
        *lo = INV_PI[1];
        return CRTRIG_OK;
    }
    if (j < 0 || j >= 10)
        return CRTRIG_EINVAL;
    *hi = BOHMAN_C[j][0];
    *lo = BOHMAN_C[j][1];
    return CRTRIG_OK;
}
