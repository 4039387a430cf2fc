/* Cosine-sum windows with K rational coefficients (scipy's general_cosine and,
 * through it, nuttall, blackmanharris and flattop; crtrig.windows), correctly
 * rounded into every output type.
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
 *   double-double   E = 2^-95 A~
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
 *     < 2^-96.5 A~, and we use 2^-95 A~.
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
 * No SIMD, no threads: the scalar code is the only path, so results depend on
 * nothing but the arguments.  The fill runs in round-to-nearest between one
 * fpenv.h switch and its restore; the fixed-point workspace is allocated, and
 * every argument checked, before anything is written.
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

/* A~ = sum |q_hi_j| |c|^j in double (see the top comment). */
static double magnitude(const crtrig_cosum_spec *s, int deg, double c)
{
    double ac = fabs(c), m = fabs(s->poly_hi[deg]);
    int j;
    for (j = deg - 1; j >= 0; j--)
        m = m * ac + fabs(s->poly_hi[j]);
    return m;
}

static int stage_double(const crtrig_cosum_spec *s, int deg, const cos_phase_t *p, crtrig_dtype fmt,
                        double *result)
{
    double c = cos_d(p), h = s->poly_hi[deg], e;
    int j;
    for (j = deg - 1; j >= 0; j--)
        h = h * c + s->poly_hi[j];
    e = 0x1p-45 * magnitude(s, deg, c);
    if (!(fabs(h) > e))  /* the interval may hold 0 (or w's sign is unknown) */
        return 0;
    return crtrig_decide_d(h, e, fmt, result);
}

static int stage_dd(const crtrig_cosum_spec *s, int deg, const cos_phase_t *p, crtrig_dtype fmt,
                    double *result)
{
    dd_t c = cos_dd(p), h = dd_make(s->poly_hi[deg], s->poly_lo[deg]);
    double e;
    int j;
    for (j = deg - 1; j >= 0; j--)
        h = dd_add_accurate(dd_mul(h, c), dd_make(s->poly_hi[j], s->poly_lo[j]));
    e = 0x1p-95 * magnitude(s, deg, c.hi);
    if (!(fabs(h.hi) > 2.0 * e) || fabs(h.hi) < 0x1p-1000)
        return 0;
    return crtrig_decide_dd(h, e, fmt, result);
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
static int phase_value(const crtrig_cosum_spec *spec, int deg, uint64_t r, uint64_t D, crtrig_dtype fmt,
                       int first_stage, int start_bits, mpfix_ctx *ctx, crtrig_stage_counts *counts, double *v)
{
    cos_phase_t p = cos_phase(r, D);
    int rc;
    if (first_stage <= CRTRIG_STAGE_DOUBLE && fmt != CRTRIG_FLOAT64 && stage_double(spec, deg, &p, fmt, v)) {
        if (counts)
            counts->by_stage[CRTRIG_STAGE_DOUBLE]++;
        return CRTRIG_OK;
    }
    if (first_stage <= CRTRIG_STAGE_DOUBLE_DOUBLE && stage_dd(spec, deg, &p, fmt, v)) {
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
    if (total_int > ((uint64_t)1 << 15))
        return CRTRIG_EINVAL;
    for (i = 0; i < s->skip_count; i++)
        if (s->skip[i] > r_max || (i && s->skip[i] <= s->skip[i - 1]))
            return CRTRIG_EINVAL;
    return CRTRIG_OK;
}

int crtrig_cosum_window_ex(const crtrig_cosum_spec *spec, int64_t size, int periodic, crtrig_dtype dtype,
                           char *out, ptrdiff_t stride, const crtrig_eval_options *opt,
                           crtrig_stage_counts *counts)
{
    uint64_t D, r, r_max, len;
    size_t next_skip = 0;
    ptrdiff_t width;
    crtrig_dtype fmt;
    crtrig_fpenv env;
    mpfix_ctx ctx;
    int deg, rc = CRTRIG_OK;
    int first_stage = opt ? opt->first_stage : CRTRIG_STAGE_DOUBLE;
    int start_bits = (opt && opt->multi_start_bits > 0) ? opt->multi_start_bits : COSUM_MULTI_DEFAULT_BITS;

    if ((unsigned)dtype >= CRTRIG_NUM_DTYPES || size < 2 || size > CRTRIG_WINDOW_MAX_SIZE ||
        (uint64_t)size > (uint64_t)SIZE_MAX || start_bits > COSUM_MULTI_MAX_BITS ||
        (opt && opt->simd_target))
        return CRTRIG_EINVAL;
    len = (uint64_t)size;
    D = periodic ? len : len - 1;
    r_max = D / 2;
    if (check_spec(spec, r_max) != CRTRIG_OK)
        return CRTRIG_EINVAL;
    width = (ptrdiff_t)COSUM_ELEMENT_SIZE[dtype];
    if (stride > -width && stride < width)
        return CRTRIG_EINVAL;  /* elements overlapping each other */
    deg = degree_of(spec);
    if (mpfix_ctx_init(&ctx, COSUM_MULTI_MAX_BITS) != 0)
        return CRTRIG_ENOMEM;
    fmt = crtrig_compute_format(dtype);
    crtrig_fpenv_enter(&env);
    for (r = 0; r <= r_max && rc == CRTRIG_OK; r++) {
        double v = 0.0;
        if (next_skip < spec->skip_count && spec->skip[next_skip] == r) {
            next_skip++;
            continue;
        }
        rc = phase_value(spec, deg, r, D, fmt, first_stage, start_bits, &ctx, counts, &v);
        if (rc != CRTRIG_OK)
            break;
        crtrig_store(dtype, v, out + (ptrdiff_t)r * stride);
        if (D - r != r && D - r < len) {
            crtrig_store(dtype, v, out + (ptrdiff_t)(D - r) * stride);
            if (counts)
                counts->mirrored++;
        }
    }
    crtrig_fpenv_leave(&env, 0);
    mpfix_ctx_free(&ctx);
    return rc;
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
    rc = phase_value(spec, degree_of(spec), r, D, crtrig_compute_format(dtype), first_stage, start_bits, &ctx,
                     counts, result);
    crtrig_fpenv_leave(&env, 0);
    mpfix_ctx_free(&ctx);
    return rc;
}
