/* Cosine-sum windows with K rational coefficients (scipy's general_cosine and,
 * through it, nuttall, blackmanharris and flattop; cosine and barthann at listed
 * phases; crtrig.windows), correctly rounded into every output type.
 *
 *   w[n] = sum_{k<K} b_k cos(2 pi k n / D),  b_k = num_k/den_k (signed, exact),
 *
 * crtrig_cosum_spec (crtrig.h) carries the b_k as exact integers and, from the
 * caller, the power-basis polynomial P with w = P(c), c = cos(2 pi n/D)
 * (P = sum b_k T_k, T_k the Chebyshev polynomials), as double-doubles.
 * crtrig.windows computes P's coefficients exactly (Fractions) and rounds
 * each to a double-double: |q_hi + q_lo - q| <= 2^-105 |q| (q_hi = RN(q),
 * q_lo = RN(q - q_hi): |q_lo| <= 2^-53 |q|, its rounding <= 2^-53 |q_lo|).
 *
 * Phase: w[n] = w[D - n]; each folded phase r = 0 .. floor(D/2) is computed
 * once and stored at n = r and n = D - r (when those are elements).  c comes
 * from exact integers: with x = 2r/D in [0, 1] (cos_phase below),
 *   8r <= D:       c =  cos(pi 2r/D)
 *   8r <= 2D:      c =  sin(pi (D - 4r)/(2D))
 *   8r <= 3D:      c = -sin(pi (4r - D)/(2D))
 *   otherwise:     c = -cos(pi (D - 2r)/D)
 * each an argument a/b in [0, 1/4] as sincospi.h and mpfix.h need (a = 0 is
 * the exact c = 1, 0 or -1).
 *
 * Stages (Ziv).  Each computes w~ and a bound E with |w~ - w| <= E that is
 * relative to A = sum_j |q_j| |c|^j (>= |w|, so near a zero of w the test fails
 * and the element goes on): the ends w~ - E, w~ + E are rounded and, if they
 * agree and the interval excludes 0 (so that the sign, and the sign of a zero
 * result, is known), that is the correctly rounded w.
 *   double          (float32/float16/bfloat16 outputs): E = 2^-45 A~
 *   double-double   E = 2^-95 (A~ + A1~), A1~ the same sum for the derivative
 *                   (stage_dd: c from the sinpi table, absolute error, for float64
 *                   outputs; else from crtrig_sincospi_ratio_dd)
 *   multi-precision fixed point, absolute bound, from 128 fraction bits
 *                   doubling up to 2^15 (crtrig_cosum: "CRTRIG_ENOCONV" past that).
 * A~ is A evaluated in double at |c~_hi| with |q_hi| (Horner, all terms >= 0):
 * every one of its <= 3K roundings and input errors is a relative error
 * <= 2^-52 (c~_hi vs c: the sincospi error 4.8u plus the hi part's u; q_hi vs q:
 * u), so A <= A~ (1 + 2^-52)^(3K) (1 + 4.8u)^(K-1) <= A~ (1 + 2^-45.5) for K <= 16.
 *
 * Horner with an inexact argument (both stages).  With c~ = c (1 + t), |t| <= rho,
 * and coefficients q~_j = q_j (1 + eta_j), |eta_j| <= eps, each multiplication
 * and addition of Horner's rule with relative error <= eps: the classic bound
 * (Higham, Accuracy and Stability, 5.1) gives
 *   |H~ - P(c~)| <= gamma_{2K-1} sum |q_j| |c~|^j,  gamma_m = m eps / (1 - m eps)
 * (the coefficient error counts as one more rounding per term), and
 *   |P(c~) - P(c)| <= sum |q_j| |c|^j ((1 + rho)^j - 1) <= ((1 + rho)^(K-1) - 1) A,
 *   sum |q_j| |c~|^j <= (1 + rho)^(K-1) A.
 *   double: rho = 4.8u (crtrig_sincospi_ratio_d), eps = u: for K <= 16,
 *     15 (4.8u) + 31u, times 1.0001 for the higher-order terms: < 103.1u A;
 *     the rounding test's ends y +- E round by u (|y| + E) <= 1.01u A (crtrig_decide_d
 *     needs E to cover them): 104.2u A (1 + 2^-45.5) < 105u A~ < 2^-45 A~ = 256u A~.
 *   double-double: rho = 3.7 2^-103 (crtrig_sincospi_ratio_dd, the sign flip exact),
 *     eps = 2^-103 (dd_mul; dd_add_accurate is 3u^2/(1 - 4u) < 2^-103; the
 *     coefficients 2^-105): 15 (3.7) + 31 = 86.5 (times 1.001) 2^-103 A, the ends'
 *     dd_add_d 2^-103 (|y| + E) (crtrig_decide_dd) < 1.01 2^-103 A: < 88 2^-103 A
 *     < 2^-96.5 A~; stage_dd uses 2^-95 (A~ + A1~), which also covers c from the
 *     sinpi table (an absolute error, stage_dd's comment).
 *   Magnitudes: |c| >= sin(pi/2^54) > 2^-53 when nonzero and |q_j| >= 2^-64 when
 *   nonzero (den < 2^62, times Chebyshev integers), so every product Horner forms
 *   is 0 or above 2^-1000, where dd_two_prod's split is exact, and no double
 *   underflows (K <= 16: |c|^15 > 2^-800).  |w| <= sum |b_k| <= 2^14: no overflow,
 *   and crtrig_round_double's |x| < 2^15 holds.  A dd result with |hi| < 2^-1000
 *   (near a zero of w) goes to the fixed-point stage (crtrig_round_dd's 2^-1021).
 *
 * Fixed point (cosum_fixed): each term |b_k| cos(2 pi k r/D) from the exact phase
 * m = k r mod D (folded to [0, D/2], cos_phase), B = floor(|b_k| 2^F)/2^F (< 1 ulp
 * low, mpfix_set_ratio), Y = cos within err_y ulps (mpfix_sincospi_ratio; 0 for
 * the exact 1, 0 and -1), floor(B Y): |B Y - |b_k| |cos|| <= |b_k| err_y + |cos| 1
 * + err_y 2^-F (< 1 while err_y < 2^F), plus the floor's 1: err_k <= (floor(|b_k|) +
 * 1) err_y + 3 ulps.  Positive and negative terms are summed apart (exact), the
 * smaller subtracted from the larger (exact): |w~| = |Pos - Neg| within sum err_k
 * ulps of |w|, an absolute bound however small w is; the element is decided only
 * when |w~| exceeds the bound (then w's sign is w~'s).
 *
 * Termination.  w = P(c) with c = cos(2 pi r/D).  If w is rational (a rounding
 * boundary or 0 are), c is a root of P - w, a nonzero rational polynomial of
 * degree deg P <= K - 1 (P not constant), so the degree of c over Q, phi(D')/2
 * for D' = D/gcd(r, D) >= 3 (1 for D' <= 2), is at most deg P.  crtrig.windows
 * (_cosine_windows.py) finds, for the few such D', whether w is rational there
 * (P reduced modulo the minimal polynomial of c is a constant), rounds those w
 * exactly itself and passes their phases in spec->skip: this file never computes
 * them.  At every other phase w is irrational: never 0, never a boundary, so the
 * bounds above, which shrink with the precision, eventually decide it.
 *
 * Two extensions (crtrig.h): an exact rational term lin r/D added to the sum
 * (barthann; each stage's bound covers it, see stage_double, add_linear and
 * cosum_fixed), which is rational, so w is rational exactly where P(c) is and
 * the termination argument is unchanged; and listed phases
 * (crtrig_cosum_phases_ex: element i at the folded phase of first + i step),
 * the same per-phase stages.
 *
 * The pure cosine (P(c) = c: the cosine window, crtrig_cosum_phases_ex with 4 | D and
 * every phase r <= D/4) in float64 takes a shorter double-double stage: c =
 * sin(pi (D/4 - r)/(D/2)) straight from a sinpi table of denominator D/2 (sine_value,
 * relative error 9.5 2^-103, no Horner step); what it leaves undecided goes on to the
 * fixed-point stage as above.
 *
 * No SIMD: the scalar code is the only path (the sinpi table comes from the
 * baseline target's builder, whose values are bit for bit those of every
 * target).  Threads (threads.h): a fill is a job over the folded phases; each
 * value depends only on r, D and the spec, so any split gives the same bits.
 * The fill runs in round-to-nearest between one fpenv.h switch and its restore
 * (workers bracket their own shares); every argument is checked, and the
 * fixed-point workspaces (one per participant) and the table allocated, before
 * anything is written.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "crtrig/crtrig.h"
#include "alloc.h"
#include "dd.h"
#include "fpenv.h"
#include "fpformat.h"
#include "mpfix.h"
#include "sincospi.h"
#include "dispatch.h"
#include "threads.h"
#include "window_table.h"
#include "cosum_bounds.h"

enum { COSUM_MULTI_DEFAULT_BITS = 128, COSUM_MULTI_MAX_BITS = 1 << 15 };

static const size_t COSUM_ELEMENT_SIZE[CRTRIG_NUM_DTYPES] = {2, 2, 4, 8, 1, 1, 2, 2, 4, 4, 8, 8};

/* c = cos(2 pi m/D) for 0 <= m <= D/2: sign, and sin/cos of pi a/b with 0 <= a/b <= 1/4. */
typedef struct cos_phase_t {
    int negative, use_cos;
    uint64_t a, b;   /* a == 0: c is exactly 1 (use_cos) or 0 (sin) */
} cos_phase_t;

static cos_phase_t cos_phase(uint64_t m, uint64_t D)  /* D <= 2^53: 8m <= 4D < 2^56 */
{
    cos_phase_t p;
    if (8 * m <= D) {
        p.negative = 0; p.use_cos = 1; p.a = 2 * m; p.b = D;
    } else if (8 * m <= 2 * D) {
        p.negative = 0; p.use_cos = 0; p.a = D - 4 * m; p.b = 2 * D;
    } else if (8 * m <= 3 * D) {
        p.negative = 1; p.use_cos = 0; p.a = 4 * m - D; p.b = 2 * D;
    } else {
        p.negative = 1; p.use_cos = 1; p.a = D - 2 * m; p.b = D;
    }
    return p;
}

static double cos_d(const cos_phase_t *p)
{
    double y = p->a == 0 ? (p->use_cos ? 1.0 : 0.0) : crtrig_sincospi_ratio_d(p->use_cos, p->a, p->b);
    return p->negative ? -y : y;
}

static dd_t cos_dd(const cos_phase_t *p)
{
    dd_t y = p->a == 0 ? dd_make(p->use_cos ? 1.0 : 0.0, 0.0) : crtrig_sincospi_ratio_dd(p->use_cos, p->a, p->b);
    return p->negative ? dd_make(-y.hi, -y.lo) : y;
}

static int stage_double(const crtrig_cosum_spec *s, int deg, uint64_t r, const cos_phase_t *p,
                        crtrig_dtype fmt, double *result)
{
    double c = cos_d(p), h = s->poly_hi[deg], e;
    int j;
    for (j = deg - 1; j >= 0; j--)
        h = h * c + s->poly_hi[j];
    e = cosum_magnitude(s, deg, c);
    if (s->lin_num) {  /* + lin r/D: lin_hi = RN(lin/D) and the product 2.01u |t|, the sum u (A + |t|) */
        double t = s->lin_hi * (double)r;
        h += t;
        e += fabs(t);
    }
    e *= 0x1p-45;  /* 110u (A + |t|) < 2^-45 (A~ + |t~|) */
    if (!(fabs(h) > e))  /* the interval may hold 0 (or w's sign is unknown) */
        return 0;
    return crtrig_decide_d(h, e, fmt, result);
}

/* The pure cosine w = c = cos(2 pi r/D) at a phase r <= D/4 with 4 | D (the cosine
 * window's phases, cosum_fill.sine): c = sin(pi/2 - 2 pi r/D) = sin(pi m/(D/2)),
 * m = D/4 - r in [0, D/4], i.e. angles in [0, pi/2], from the table t of
 * denominator D/2: m = aB + b, y = Sa Cb + Ca Sb with all four entries >= 0 and
 * within 3.7 2^-103 of themselves (relatively, window_table.h), dd_mul 2^-103
 * each, dd_add of two nonnegative terms 2^-103 of their sum: y within
 * (2 (3.7) + 1 + 1) 2^-103 (1 + 2^-90) < 9.5 2^-103 of c, relatively (no 1 - 2 s^2
 * step, so no absolute error).  The caller's rounding test uses e = 2^-98 |y_hi|
 * (sine_bound). */
static dd_t sine_value(const crtrig_sinpi_table *t, uint64_t m)
{
    uint64_t a = m / t->B, b = m % t->B, i = a - t->a_first;
    dd_t Sa = dd_make(t->coarse_sin_hi[i], t->coarse_sin_lo[i]), Ca = dd_make(t->coarse_cos_hi[i], t->coarse_cos_lo[i]);
    dd_t Sb = dd_make(t->fine_sin_hi[b], t->fine_sin_lo[b]), Cb = dd_make(t->fine_cos_hi[b], t->fine_cos_lo[b]);
    return dd_add(dd_mul(Sa, Cb), dd_mul(Ca, Sb));
}

/* crtrig_decide_dd's e for sine_value's y: |y - c| <= 9.5 2^-103 |c| and the ends'
 * dd_add_d 2^-103 (|y| + e); with |c| <= |y| (1 + 2^-101) and |y| <= |y_hi| (1 + 2^-53)
 * both are < 10.6 2^-103 |y_hi| < 2^-98 |y_hi| = 32 2^-103 |y_hi| (the scaling by a
 * power of two is exact: for m >= 1, |y_hi| >= RN(sin(pi/2^52)) > 2^-51 (D/2 <= 2^52),
 * so no underflow; m = 0 is c = 0, an exact phase in spec->skip, never computed, and
 * would give e = 0 and go on to the fixed-point stage). */
static double sine_bound(dd_t y)
{
    return fabs(y.hi) * 0x1p-98;
}

/* Double-double stage for one phase: the target's kernel (cosum_pass.h, its bound
 * there) with c~ from crtrig_sincospi_ratio_dd (t NULL) or from the table t. */
static int stage_dd(const crtrig_cosum_spec *s, int deg, const crtrig_sinpi_table *t, uint64_t r, uint64_t D,
                    const cos_phase_t *p, crtrig_dtype fmt, double *result)
{
    dd_t c = t ? dd_make(0.0, 0.0) : cos_dd(p);
    double h_hi, h_lo, e;
    crtrig_active_target()->cosum_dd(s, deg, t, D, &r, &c.hi, &c.lo, 1, &h_hi, &h_lo, &e);
    if (!(fabs(h_hi) > 2.0 * e) || fabs(h_hi) < 0x1p-1000)
        return 0;
    return crtrig_decide_dd(dd_make(h_hi, h_lo), e, fmt, result);
}

/* |w~| into user number 0 with the sign in *negative; returns the bound in ulps. */
static uint64_t cosum_fixed(mpfix_ctx *ctx, const crtrig_cosum_spec *s, uint64_t r, uint64_t D, int *negative)
{
    int n = ctx->n, k;
    uint32_t *pos = mpfix_user(ctx, 0), *neg = mpfix_user(ctx, 1), *bk = mpfix_user(ctx, 2),
             *y = mpfix_user(ctx, 3), *term = mpfix_user(ctx, 4);
    uint64_t err = 0;
    memset(pos, 0, (size_t)n * sizeof *pos);
    memset(neg, 0, (size_t)n * sizeof *neg);
    for (k = 0; k < s->terms; k++) {
        uint64_t m, err_y = 0;
        cos_phase_t p;
        int term_negative;
        if (s->num[k] == 0)
            continue;
        m = (uint64_t)k * r % D;  /* k <= 15, r <= 2^52: no overflow */
        if (2 * m > D)
            m = D - m;
        p = cos_phase(m, D);
        if (p.a == 0)
            mpfix_set_int(y, n, p.use_cos ? 1u : 0u);
        else
            err_y = mpfix_sincospi_ratio(ctx, y, p.use_cos, p.a, p.b);
        mpfix_set_ratio(bk, n, s->num[k], s->den[k]);
        mpfix_mul(ctx, term, bk, y);
        err += (s->num[k] / s->den[k] + 1) * err_y + 3;
        term_negative = p.negative != (s->negative[k] != 0);
        mpfix_add(term_negative ? neg : pos, term, n);
    }
    if (s->lin_num) {  /* lin r/D: X = r/D and L = |lin| each < 1 ulp low, floor(X L): (floor|lin| + 1) + 2 */
        mpfix_set_ratio(bk, n, r, D);
        mpfix_set_ratio(y, n, s->lin_num, s->lin_den);
        mpfix_mul(ctx, term, bk, y);
        err += s->lin_num / s->lin_den + 3;
        mpfix_add(s->lin_negative ? neg : pos, term, n);
    }
    if (mpfix_cmp(pos, neg, n) >= 0) {
        mpfix_sub(pos, neg, n);
        *negative = 0;
    } else {
        mpfix_sub(neg, pos, n);
        mpfix_copy(pos, neg, n);
        *negative = 1;
    }
    return err;
}

static int stage_multi(const crtrig_cosum_spec *s, uint64_t r, uint64_t D, crtrig_dtype fmt, int start_bits,
                       mpfix_ctx *ctx, crtrig_stage_counts *counts, double *result)
{
    int bits;
    for (bits = start_bits; bits <= COSUM_MULTI_MAX_BITS; bits *= 2) {
        uint32_t *w, *err, *lo, *hi;
        int negative;
        if (mpfix_ctx_set_precision(ctx, bits) != 0)
            return CRTRIG_EINVAL;  /* cannot happen: bits <= COSUM_MULTI_MAX_BITS */
        w = mpfix_user(ctx, 0);
        err = mpfix_user(ctx, 5);
        lo = mpfix_user(ctx, 6);
        hi = mpfix_user(ctx, 7);
        mpfix_set_ulps_pow2(err, ctx->n, cosum_fixed(ctx, s, r, D, &negative), 0);
        if (mpfix_cmp(w, err, ctx->n) > 0 && mpfix_round_interval(ctx, w, err, lo, hi, fmt, result)) {
            if (negative)
                *result = -*result;
            return CRTRIG_OK;
        }
        if (counts)
            counts->multi_retries++;
    }
    return CRTRIG_ENOCONV;
}

/* The correctly rounded w at the folded phase r (0 <= r <= D/2) in fmt, through the stages. */
static int phase_value(const crtrig_cosum_spec *spec, int deg, const crtrig_sinpi_table *table, uint64_t r,
                       uint64_t D, crtrig_dtype fmt, int first_stage, int start_bits, mpfix_ctx *ctx,
                       crtrig_stage_counts *counts, double *v)
{
    cos_phase_t p = cos_phase(r, D);
    int rc;
    if (first_stage <= CRTRIG_STAGE_DOUBLE && fmt != CRTRIG_FLOAT64 && stage_double(spec, deg, r, &p, fmt, v)) {
        if (counts)
            counts->by_stage[CRTRIG_STAGE_DOUBLE]++;
        return CRTRIG_OK;
    }
    if (first_stage <= CRTRIG_STAGE_DOUBLE_DOUBLE && stage_dd(spec, deg, table, r, D, &p, fmt, v)) {
        if (counts)
            counts->by_stage[CRTRIG_STAGE_DOUBLE_DOUBLE]++;
        return CRTRIG_OK;
    }
    rc = stage_multi(spec, r, D, fmt, start_bits, ctx, counts, v);
    if (rc == CRTRIG_OK && counts)
        counts->by_stage[CRTRIG_STAGE_MULTI]++;
    return rc;
}

static int degree_of(const crtrig_cosum_spec *spec)
{
    int deg;
    for (deg = spec->terms - 1; deg > 0 && spec->poly_hi[deg] == 0.0; deg--)
        ;
    return deg;
}

/* The arguments a fill needs, integer checks only (before the environment switch). */
static int check_spec(const crtrig_cosum_spec *s, uint64_t r_max)
{
    uint64_t total_int = 0;
    size_t i;
    int k;
    if (!s || s->terms < 1 || s->terms > CRTRIG_COSUM_MAX_TERMS || !s->negative || !s->num || !s->den ||
        !s->poly_hi || !s->poly_lo || (s->skip_count && !s->skip))
        return CRTRIG_EINVAL;
    for (k = 0; k < s->terms; k++) {
        if (s->den[k] == 0 || s->den[k] > ((uint64_t)1 << 62) || s->num[k] / s->den[k] >= ((uint64_t)1 << 14))
            return CRTRIG_EINVAL;
        total_int += s->num[k] / s->den[k] + 1;
    }
    if (s->lin_num) {
        if (s->lin_den == 0 || s->lin_den > ((uint64_t)1 << 62) || s->lin_num / s->lin_den >= ((uint64_t)1 << 14))
            return CRTRIG_EINVAL;
        total_int += s->lin_num / s->lin_den + 1;
    }
    if (total_int > ((uint64_t)1 << 15))
        return CRTRIG_EINVAL;
    for (i = 0; i < s->skip_count; i++)
        if (s->skip[i] > r_max || (i && s->skip[i] <= s->skip[i - 1]))
            return CRTRIG_EINVAL;
    return CRTRIG_OK;
}

/* One fill, shared by its participants (threads.h). */
typedef struct cosum_fill {
    const crtrig_cosum_spec *spec;
    const crtrig_sinpi_table *table;  /* NULL: c from crtrig_sincospi_ratio_dd */
    mpfix_ctx *workspaces;            /* one per participant */
    crtrig_stage_counts *counts;
    crtrig_dtype dtype, fmt;
    uint64_t D, len;
    int deg, first_stage, start_bits;
    char *out;
    ptrdiff_t stride;
    int listed;                       /* crtrig_cosum_phases_ex: out[i] = w at fold(first + i step) */
    int64_t first, step;
    /* Non-NULL: the pure cosine (P(c) = c) of a float64 listed fill with 4 | D and every
     * phase r <= D/4 (sine_mode): w = sin(pi (D/4 - r)/(D/2)) from this table of
     * denominator D/2 (sine_value); f->table is then NULL. */
    const crtrig_sinpi_table *sine;
    const crtrig_target *target;      /* whose cosum_dd kernel runs (dispatch.h) */
} cosum_fill;

/* fold(m) = min(|m| mod D, D - |m| mod D): the phase in [0, D/2] with the same cosines. */
static uint64_t fold_signed(int64_t m, uint64_t D)
{
    uint64_t r = (uint64_t)(m < 0 ? -m : m) % D;
    return 2 * r > D ? D - r : r;
}

static int skipped(const crtrig_cosum_spec *spec, uint64_t r)
{
    size_t lo = 0, hi = spec->skip_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (spec->skip[mid] < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < spec->skip_count && spec->skip[lo] == r;
}

static void store_phase(const cosum_fill *f, crtrig_stage_counts *counts, uint64_t r, double v)
{
    if (f->listed) {  /* r is then the element's index; its phase was computed from it */
        crtrig_store(f->dtype, v, f->out + (ptrdiff_t)r * f->stride);
        return;
    }
    crtrig_store(f->dtype, v, f->out + (ptrdiff_t)r * f->stride);
    if (f->D - r != r && f->D - r < f->len) {
        crtrig_store(f->dtype, v, f->out + (ptrdiff_t)(f->D - r) * f->stride);
        if (counts)
            counts->mirrored++;
    }
}

/* The float64 rounding test's common case (fpformat.h's crtrig_quick_decide64). */
static int quick_float64(crtrig_dtype fmt, dd_t y, double e, double *result)
{
    return fmt == CRTRIG_FLOAT64 && crtrig_quick_decide64(y, e, result);
}

/* Whether a listed fill is the pure cosine sine_value serves: P(c) = c exactly (q_0 =
 * 0, q_1 = 1, no lin term), float64 output, 4 | D, D/2 within the table's range and
 * every phase |first + i step| <= D/4 (the phases are linear in i: both ends suffice,
 * and then fold() is |.|, no reduction). */
static int sine_mode(const cosum_fill *f, uint64_t count)
{
    const crtrig_cosum_spec *s = f->spec;
    uint64_t quarter = f->D / 4, a, b;
    int64_t last;
    if (!f->listed || f->fmt != CRTRIG_FLOAT64 || f->deg != 1 || s->lin_num || f->D % 4 || f->D < 4 ||
        f->D / 2 > CRTRIG_SINPI_TABLE_MAX_D || count == 0)
        return 0;
    if (s->poly_hi[0] != 0.0 || s->poly_lo[0] != 0.0 || s->poly_hi[1] != 1.0 || s->poly_lo[1] != 0.0)
        return 0;
    last = f->first + (int64_t)(count - 1) * f->step;  /* |.| <= 2^61 (checked by the caller) */
    a = (uint64_t)(f->first < 0 ? -f->first : f->first);
    b = (uint64_t)(last < 0 ? -last : last);
    return a <= quarter && b <= quarter;
}

enum { COSUM_GROUP = 16 };

/* The double-double stage of stage_dd for up to COSUM_GROUP phases at once (the
 * target's kernel, cosum_pass.h: the same operations per element, so the same values
 * and the same bound; the pure cosine by sine_value here); what it leaves undecided
 * goes to phase_value from the fixed-point stage. */
static int group_dd(const cosum_fill *f, mpfix_ctx *ctx, crtrig_stage_counts *counts, const uint64_t *rs,
                    int count)
{
    const crtrig_cosum_spec *s = f->spec;
    double c_hi[COSUM_GROUP], c_lo[COSUM_GROUP], h_hi[COSUM_GROUP], h_lo[COSUM_GROUP], e[COSUM_GROUP];
    uint64_t ph[COSUM_GROUP];
    int i;
    for (i = 0; i < count; i++) {
        ph[i] = f->listed ? fold_signed(f->first + (int64_t)rs[i] * f->step, f->D) : rs[i];
        if (f->sine) {  /* w = c, relative 9.5 2^-103 (sine_value); ph[i] <= D/4 (sine_mode) */
            dd_t h = sine_value(f->sine, f->D / 4 - ph[i]);
            h_hi[i] = h.hi;
            h_lo[i] = h.lo;
            e[i] = sine_bound(h);
        } else if (!f->table) {
            cos_phase_t p = cos_phase(ph[i], f->D);
            dd_t c = cos_dd(&p);
            c_hi[i] = c.hi;
            c_lo[i] = c.lo;
        } else {
            c_hi[i] = c_lo[i] = 0.0;  /* not read: c from the table */
        }
    }
    if (!f->sine)
        f->target->cosum_dd(s, f->deg, f->table, f->D, ph, c_hi, c_lo, count, h_hi, h_lo, e);
    for (i = 0; i < count; i++) {
        dd_t h = dd_make(h_hi[i], h_lo[i]);
        double v = 0.0;
        if (fabs(h.hi) > 2.0 * e[i] && fabs(h.hi) >= 0x1p-1000 &&
            (quick_float64(f->fmt, h, e[i], &v) || crtrig_decide_dd(h, e[i], f->fmt, &v))) {
            if (counts)
                counts->by_stage[CRTRIG_STAGE_DOUBLE_DOUBLE]++;
        } else {
            int rc = phase_value(s, f->deg, f->table, ph[i], f->D, f->fmt, CRTRIG_STAGE_MULTI, f->start_bits, ctx,
                                 counts, &v);
            if (rc != CRTRIG_OK)
                return rc;
        }
        store_phase(f, counts, rs[i], v);
    }
    return CRTRIG_OK;
}

/* The phases [lo, hi): each computed once, stored at n = r and n = D - r; the
 * skipped phases left alone.  Every value depends only on r, D and the spec
 * (the table is built for all phases before the split): any split gives the
 * same bits. */
static int cosum_phases(const cosum_fill *f, mpfix_ctx *ctx, crtrig_stage_counts *counts, uint64_t lo,
                        uint64_t hi)
{
    const crtrig_cosum_spec *spec = f->spec;
    size_t next = 0, top = spec->skip_count;
    uint64_t r, group[COSUM_GROUP];
    int grouped = f->first_stage <= CRTRIG_STAGE_DOUBLE_DOUBLE &&
                  (f->fmt == CRTRIG_FLOAT64 || f->first_stage == CRTRIG_STAGE_DOUBLE_DOUBLE);
    int count = 0, rc;
    while (next < top) {  /* the first skipped phase >= lo, by bisection */
        size_t mid = next + (top - next) / 2;
        if (spec->skip[mid] < lo)
            next = mid + 1;
        else
            top = mid;
    }
    for (r = lo; r < hi; r++) {
        double v = 0.0;
        uint64_t phase = r;
        if (f->listed) {  /* r is the element's index */
            phase = fold_signed(f->first + (int64_t)r * f->step, f->D);
            if (skipped(spec, phase))
                continue;
        } else if (next < spec->skip_count && spec->skip[next] == r) {
            next++;
            continue;
        }
        if (grouped) {
            group[count++] = r;
            if (count == COSUM_GROUP) {
                if ((rc = group_dd(f, ctx, counts, group, count)) != CRTRIG_OK)
                    return rc;
                count = 0;
            }
            continue;
        }
        rc = phase_value(spec, f->deg, f->table, phase, f->D, f->fmt, f->first_stage, f->start_bits, ctx, counts,
                         &v);
        if (rc != CRTRIG_OK)
            return rc;
        store_phase(f, counts, r, v);
    }
    return count ? group_dd(f, ctx, counts, group, count) : CRTRIG_OK;
}

static int cosum_share(void *arg, int participant, crtrig_job *job)
{
    cosum_fill *f = (cosum_fill *)arg;
    crtrig_stage_counts counts;
    size_t lo, hi;
    int rc = CRTRIG_OK;
    memset(&counts, 0, sizeof counts);
    while (rc == CRTRIG_OK && crtrig_job_next(job, &lo, &hi))
        rc = cosum_phases(f, &f->workspaces[participant], f->counts ? &counts : NULL, lo, hi);
    if (f->counts)
        crtrig_job_add_counts(job, f->counts, &counts);
    return rc;
}

enum { COSUM_BLOCK = 256 };

/* Threads, workspaces and the table, then the job over `items` (phases or elements);
 * f is filled in but for those.  Arguments already checked. */
static int cosum_run(cosum_fill *f, uint64_t items, uint64_t r_max)
{
    crtrig_sinpi_table table;
    mpfix_ctx single, *all = &single;
    crtrig_fpenv env;
    int participants, i, rc = CRTRIG_OK, have_table = 0, sine;

    f->deg = degree_of(f->spec);
    f->fmt = crtrig_compute_format(f->dtype);
    f->target = crtrig_active_target();
    f->table = NULL;
    f->sine = NULL;
    sine = sine_mode(f, items);
    /* Threads, their workspaces and the table: all before anything is written. */
    /* An item (one folded phase, stored at one or two elements) costs 10-70 ns here
     * (cosine 12, barthann 31, flattop 65 ns per element at M = 10^5, one thread, the
     * 2-core AMD EPYC), against the 0.5 ns elements the pool's threshold counts: each
     * weighs 16, so a window of 10^5 (5 10^4 phases) splits; it did not before (2
     * threads ran as fast as one). */
    participants = crtrig_threads_claim_weighted((size_t)items, COSUM_BLOCK, 16);
    if (participants > 1) {
        all = (mpfix_ctx *)crtrig_alloc((size_t)participants * sizeof *all);
        if (!all) {
            crtrig_threads_release(participants);
            return CRTRIG_ENOMEM;
        }
    }
    for (i = 0; i < participants; i++)
        if (mpfix_ctx_init(&all[i], COSUM_MULTI_MAX_BITS) != 0)
            break;
    if (i < participants) {
        while (i-- > 0)
            mpfix_ctx_free(&all[i]);
        if (all != &single)
            crtrig_free(all);
        crtrig_threads_release(participants);
        return CRTRIG_ENOMEM;
    }
    f->workspaces = all;
    crtrig_fpenv_enter(&env);
    /* The table (its builder's values are crtrig_sincospi_ratio_dd's bit for bit on
     * every target, window_table.h; the baseline target builds it) serves the
     * double-double stage of the float64 outputs, for D within its range. */
    if (sine) {  /* the pure cosine: sin(pi m/(D/2)), m = 0 .. D/4 (sine_value) */
        rc = crtrig_sinpi_table_init(&table, crtrig_target_at(0), f->D / 2, crtrig_sinpi_table_step(f->D / 4), 0,
                                     f->D / 4);
        have_table = rc == CRTRIG_OK;
        if (have_table)
            f->sine = &table;
    } else if (f->fmt == CRTRIG_FLOAT64 && f->D <= CRTRIG_SINPI_TABLE_MAX_D && f->D >= 2) {
        rc = crtrig_sinpi_table_init(&table, crtrig_target_at(0), f->D, crtrig_sinpi_table_step(r_max), 0, r_max);
        have_table = rc == CRTRIG_OK;
        if (have_table)
            f->table = &table;
    }
    if (rc == CRTRIG_OK)
        rc = crtrig_threads_run(participants, (size_t)items, COSUM_BLOCK, cosum_share, f);
    crtrig_fpenv_leave(&env, 0);
    if (have_table)
        crtrig_sinpi_table_free(&table);
    for (i = 0; i < participants; i++)
        mpfix_ctx_free(&all[i]);
    if (all != &single)
        crtrig_free(all);
    crtrig_threads_release(participants);
    return rc;
}

static int check_call(const cosum_fill *f, crtrig_dtype dtype, int64_t count, ptrdiff_t stride)
{
    ptrdiff_t width;
    if ((unsigned)dtype >= CRTRIG_NUM_DTYPES || f->start_bits > COSUM_MULTI_MAX_BITS ||
        count < 0 || (uint64_t)count > (uint64_t)SIZE_MAX)
        return CRTRIG_EINVAL;
    width = (ptrdiff_t)COSUM_ELEMENT_SIZE[dtype];
    if (count > 1 && stride > -width && stride < width)
        return CRTRIG_EINVAL;  /* elements overlapping each other */
    return CRTRIG_OK;
}

static void start_fill(cosum_fill *f, const crtrig_cosum_spec *spec, crtrig_dtype dtype, char *out,
                       ptrdiff_t stride, const crtrig_eval_options *opt, crtrig_stage_counts *counts)
{
    f->spec = spec;
    f->dtype = dtype;
    f->out = out;
    f->stride = stride;
    f->counts = counts;
    f->first_stage = opt ? opt->first_stage : CRTRIG_STAGE_DOUBLE;
    f->start_bits = (opt && opt->multi_start_bits > 0) ? opt->multi_start_bits : COSUM_MULTI_DEFAULT_BITS;
    f->listed = 0;
    f->first = f->step = 0;
}

int crtrig_cosum_window_ex(const crtrig_cosum_spec *spec, int64_t size, int periodic, crtrig_dtype dtype,
                           char *out, ptrdiff_t stride, const crtrig_eval_options *opt,
                           crtrig_stage_counts *counts)
{
    cosum_fill f;
    start_fill(&f, spec, dtype, out, stride, opt, counts);
    if (size < 2 || size > CRTRIG_WINDOW_MAX_SIZE || (opt && opt->simd_target) ||
        check_call(&f, dtype, size, stride) != CRTRIG_OK)
        return CRTRIG_EINVAL;
    f.len = (uint64_t)size;
    f.D = periodic ? f.len : f.len - 1;
    if (check_spec(spec, f.D / 2) != CRTRIG_OK)
        return CRTRIG_EINVAL;
    return cosum_run(&f, f.D / 2 + 1, f.D / 2);
}

int crtrig_cosum_phases_ex(const crtrig_cosum_spec *spec, uint64_t D, int64_t first, int64_t step,
                           int64_t count, crtrig_dtype dtype, char *out, ptrdiff_t stride,
                           const crtrig_eval_options *opt, crtrig_stage_counts *counts)
{
    const int64_t limit = (int64_t)1 << 62;
    cosum_fill f;
    start_fill(&f, spec, dtype, out, stride, opt, counts);
    if (D < 1 || D > (uint64_t)CRTRIG_WINDOW_MAX_SIZE || (opt && opt->simd_target) ||
        check_call(&f, dtype, count, stride) != CRTRIG_OK || first < -limit || first > limit ||
        step < -limit || step > limit)
        return CRTRIG_EINVAL;
    if (count > 0) {  /* the last phase within 2^62 too (then every one between: linear) */
        double last = (double)first + (double)(count - 1) * (double)step;
        if (last < -0x1p61 || last > 0x1p61)
            return CRTRIG_EINVAL;
    }
    if (check_spec(spec, D / 2) != CRTRIG_OK)
        return CRTRIG_EINVAL;
    if (count == 0)
        return CRTRIG_OK;
    f.D = D;
    f.len = 0;
    f.listed = 1;
    f.first = first;
    f.step = step;
    return cosum_run(&f, (uint64_t)count, D / 2);
}

int crtrig_cosum_element(const crtrig_cosum_spec *spec, uint64_t n, uint64_t D, crtrig_dtype dtype,
                         const crtrig_eval_options *opt, crtrig_stage_counts *counts, double *result)
{
    crtrig_fpenv env;
    mpfix_ctx ctx;
    uint64_t r;
    int rc;
    int first_stage = opt ? opt->first_stage : CRTRIG_STAGE_DOUBLE;
    int start_bits = (opt && opt->multi_start_bits > 0) ? opt->multi_start_bits : COSUM_MULTI_DEFAULT_BITS;
    if ((unsigned)dtype >= CRTRIG_NUM_DTYPES || D < 1 || D > (uint64_t)CRTRIG_WINDOW_MAX_SIZE || n > D ||
        start_bits > COSUM_MULTI_MAX_BITS || (opt && opt->simd_target) || !result)
        return CRTRIG_EINVAL;
    if (check_spec(spec, D / 2) != CRTRIG_OK)
        return CRTRIG_EINVAL;
    r = n == D ? 0 : n;
    if (2 * r > D)
        r = D - r;
    if (mpfix_ctx_init(&ctx, COSUM_MULTI_MAX_BITS) != 0)
        return CRTRIG_ENOMEM;
    crtrig_fpenv_enter(&env);
    rc = phase_value(spec, degree_of(spec), NULL, r, D, crtrig_compute_format(dtype), first_stage, start_bits, &ctx,
                     counts, result);
    crtrig_fpenv_leave(&env, 0);
    mpfix_ctx_free(&ctx);
    return rc;
}
