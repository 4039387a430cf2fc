/* Cosine-sum windows (ONNX HannWindow, HammingWindow, BlackmanWindow, opset 17, and
 * scipy's general_hamming, below), correctly rounded into every output type.
 *
 * w[n] = sum_j (-1)^j a_j cos(2 pi j n / D) with exact rational coefficients
 *   Hann (1/2, 1/2), Hamming (25/46, 21/46), Blackman (21/50, 1/2, 2/25).
 * With s = sin^2(pi n / D) (so cos(2 pi n/D) = 1 - 2s, cos(4 pi n/D) = 1 - 8s + 8s^2):
 *   Hann     w = s
 *   Hamming  w = (2 + 21 s) / 23
 *   Blackman w = s (9 + 16 s) / 25
 * Positive coefficients in s >= 0: no cancellation, so relative errors of s
 * carry over with factors <= 1 (Hann, Hamming) and <= 1.64 (Blackman).
 *
 * Phase: r = n mod D folded to [0, D/2] (s is symmetric), exactly in integers.
 *   4r < D:  sin(pi r/D)           = sin(pi a/b), a = r,      b = D
 *   4r > D:  sin(pi r/D) = cos(pi (D - 2r)/(2D)) = cos(pi a/b), a = D - 2r, b = 2D
 * so only sin and cos on (0, pi/4] are ever evaluated, from exact integers.
 *
 * Exact points: s is rational only where cos(2 pi r/D) is (Niven: 0, +-1/2,
 * +-1), i.e. r/D in {0, 1/6, 1/4, 1/3, 1/2}, s = i/4, i = 0..4.  There w is
 * the fraction below, rounded exactly.  Elsewhere s is irrational and so is
 * w (for Blackman a rational w would make c = cos(2 pi r/D) a root of
 * 8c^2 - 25c + q, q rational, whose two roots sum to 25/8 > 2, so c would be
 * rational), hence never a rounding boundary: the Ziv loop below terminates.
 *
 * Stages (Ziv): each computes w~ with a proven bound |w~ - w| <= eps w, forms
 * endpoints lo <= w <= hi and rounds both; rounding is monotone, so if they
 * agree, that is the correctly rounded w.  Otherwise the next stage runs.
 *   first pass      eps = 2^-36, vectorized over blocks (window_pass.h; for
 *                   float64 outputs window64_pass.h, double-double, eps <= 2^-61,
 *                   mostly below 2^-70); what it leaves undecided goes on below
 *   double          eps = 2^-47  (not for float64 outputs)
 *   double-double   eps = 2^-96
 *   multi-precision fixed point, 128 fraction bits, doubling until it decides.
 *
 * A fill (crtrig_window_ex) checks its arguments, including a stride that
 * would make elements overlap (the mirror copy past the middle would then
 * copy between overlapping bytes), allocates the multi-precision workspace
 * for the largest precision the loop can reach before it writes anything
 * (so CRTRIG_ENOMEM leaves out untouched), and runs in round-to-nearest
 * between one fpenv.h switch and its restore.
 *
 * Self-check (selfcheck.h): a normal fill through the table pass takes its target
 * from the check of its format's pass (check_window below), run at the first such
 * fill of the process with that fill's workspace, before its table is built.
 *
 * Threads (threads.h): a fill asks the pool how many threads take part and
 * allocates a multi-precision workspace for each before anything is written;
 * each worker switches its own floating-point environment around its share.
 * A whole fill is split over the folded phases r = 0 .. D/2 (each chunk
 * computes its phases once and stores them at n = r and n = D - r); a range
 * (crtrig_window_range) over its elements.  Every element depends
 * only on n, D and the table (built once per call, for every phase, before
 * the split), so the split changes no bit.
 *
 * The general Hamming window (scipy's general_hamming, crtrig.windows; window_coef.h):
 * w = alpha - (1 - alpha) cos(2 pi n/D) = c0 + c1 s for alpha = p/q in [0, 1],
 * c0 = 2 alpha - 1, c1 = 2 (1 - alpha).  For alpha < 1/2, c0 < 0 and w changes sign,
 * so every stage bounds its error relative to M = |c0| + c1 s and measures its
 * rounding interval in units of M: near the root the test fails and the element
 * goes on, down to the fixed-point stage, whose bound is absolute.  Exact points:
 * s = i/4 (as above) make w rational, (2 (2p - q) + i (q - p))/(2q), which may be a
 * rounding boundary of any format (alpha = 1/2 + 2^-25 is a float32 midpoint at
 * s = 1/2), so it is rounded exactly from the fraction (window_coef.c), never by the
 * Ziv loop; alpha = 1 is the constant 1, exact everywhere.  Elsewhere s is
 * irrational and c1 != 0, so w is irrational: never 0, never a boundary, and the
 * loop terminates.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "crtrig/crtrig.h"
#include "dd.h"
#include "fpenv.h"
#include "fpformat.h"
#include "mpfix.h"
#include "sincospi.h"
#include "window_poly.h"
#include "sincos.h"
#include "dispatch.h"
#include "window_table.h"
#include "threads.h"
#include "alloc.h"
#include "window_coef.h"
#include "selfcheck.h"

enum { MULTI_DEFAULT_BITS = 128, MULTI_MAX_BITS = 1 << 15, BLOCK = 256 };

/* Bytes per element of each crtrig_dtype. */
static const size_t ELEMENT_SIZE[CRTRIG_NUM_DTYPES] = {2, 2, 4, 8, 1, 1, 2, 2, 4, 4, 8, 8};

/* The folded phase of element n: either an exact point (s = i/4) or sin/cos of pi a/b. */
typedef struct phase {
    int quarter;   /* i with s = i/4, or -1 if s is irrational */
    int use_cos;
    uint64_t a, b;
} phase;

static phase fold_phase(uint64_t n, uint64_t D)  /* 0 <= n <= D, D > 0 */
{
    phase ph;
    uint64_t r = n == D ? 0 : n;  /* n mod D, as 0 <= n <= D */
    if (2 * r > D)
        r = D - r;
    ph.use_cos = 0;
    ph.a = ph.b = 0;
    /* r <= D/2 <= 2^52: the products below cannot overflow. */
    ph.quarter = r == 0 ? 0 : 6 * r == D ? 1 : 4 * r == D ? 2 : 3 * r == D ? 3 : 2 * r == D ? 4 : -1;
    if (ph.quarter >= 0)
        return ph;
    if (4 * r < D) {
        ph.a = r;
        ph.b = D;
    } else {
        ph.use_cos = 1;
        ph.a = D - 2 * r;
        ph.b = 2 * D;
    }
    return ph;
}

/* w at s = i/4 as a fraction num/den (the ONNX windows; the general Hamming
 * window's exact points go through crtrig_general_hamming_exact). */
static void exact_point(int kind, int i, uint64_t *num, uint64_t *den)
{
    switch (kind) {
    case CRTRIG_HANN:     *num = (uint64_t)i;                 *den = 4;   return;  /* i/4 */
    case CRTRIG_HAMMING:  *num = (uint64_t)(8 + 21 * i);      *den = 92;  return;  /* (2 + 21 i/4)/23 */
    default:              *num = (uint64_t)(i * (9 + 4 * i)); *den = 100; return;  /* (i/4)(9 + 4i)/25 */
    }
}

/* Double stage.  sincospi.c bounds y's relative error by 4.8u (u = 2^-53).
 * s = RN(y^2): 2 (4.8u) + u = 10.6u.  Then (a relative error d of s moves w
 * by at most d for Hann and Hamming, 1.64 d for Blackman):
 *   Hann      s                    10.6u
 *   Hamming   RN(RN(RN(21 s) + 2) / 23)          10.6u + 3u = 13.6u
 *   Blackman  RN(RN(s RN(9 + 16 s)) / 25), 16 s exact:
 *             (9 + 16s) carries (16/25) 10.6u + u, the product adds 10.6u + u,
 *             the division u: 1.64 * 10.6u + 3u = 20.4u
 * all below 24u < 2^-48 (second-order terms included), and we use 2^-47.
 * General Hamming (window_coef.h), relative to M = |c0| + c1 s:
 *   RN(RN(C1 s) + C0) with C0 = c0_hi, C1 = c1_hi (each within 1.0001u of c0, c1):
 *   C1 s within 10.6u + 1.0001u + u of c1 s, C0 within 1.0001u of c0, the sum's
 *   rounding u |w~| <= u M (1 + 13u): |w~ - w| <= 13.7u M < 2^-49 M, and we use
 *   2^-47 M.  *mag = RN(RN(C1 s) + |C0|) >= M (1 - 13.7u) (no cancellation). */
static double window_of_s_d(const crtrig_window_coef *c, double s, double *mag)
{
    switch (c->kind) {
    case CRTRIG_HANN:    *mag = hann_of_s(s); return *mag;
    case CRTRIG_HAMMING: *mag = hamming_of_s(s); return *mag;
    case CRTRIG_BLACKMAN: *mag = blackman_of_s(s); return *mag;
    default: {
        double t = c->c1_hi * s;
        *mag = t + fabs(c->c0_hi);
        return t + c->c0_hi;
    }
    }
}

/* Double-double stage.  With e = 2^-103: y has relative error <= 3.7e
 * (sincospi.c); s = dd_mul(y, y): 2 (3.7e) + e = 8.4e;
 *   Hann 8.4e; Hamming 8.4e + 3e = 11.4e (mul_d, add_d of same signs, div_d);
 *   Blackman 1.64 * 8.4e + 3e = 16.8e (add_d, mul, div_d; 16 s exact)
 * all below 17e < 2^-98.9, and we use 2^-96.
 * General Hamming, relative to M = |c0| + c1 s: t = dd_mul(s, C1) is within
 * 8.4e + e (C1's error, window_coef.h) + e (dd_mul) = 10.4e of c1 s; C0 within
 * e |c0|; their sum by dd_add_accurate errs by at most 3 2^-106 / (1 - 2^-51)
 * < 0.38e of |t + C0| <= M (1 + 11e), whatever the signs (Joldes, Muller,
 * Popescu 2017, AccurateDWPlusDW): |w~ - w| <= 11.8e M < 2^-99.4 M, and we use
 * 2^-96 M.  *mag = RN(|C0_hi| + t_hi) >= M (1 - 3 2^-53). */
static dd_t window_of_s_dd(const crtrig_window_coef *c, dd_t s, double *mag)
{
    dd_t w;
    switch (c->kind) {
    case CRTRIG_HANN:
        w = s;
        break;
    case CRTRIG_HAMMING:
        w = dd_div_d(dd_add_d(dd_mul_d(s, 21.0), 2.0), 23.0);
        break;
    case CRTRIG_BLACKMAN:
        w = dd_div_d(dd_mul(s, dd_add_d(dd_make(16.0 * s.hi, 16.0 * s.lo), 9.0)), 25.0);
        break;
    default: {
        dd_t t = dd_mul(s, dd_make(c->c1_hi, c->c1_lo));
        *mag = fabs(c->c0_hi) + t.hi;
        return dd_add_accurate(t, dd_make(c->c0_hi, c->c0_lo));
    }
    }
    *mag = w.hi;
    return w;
}

/* Multi-precision stage at one precision; w (user number 0) gets the value,
 * the return value bounds its error in ulps.  Ulp counts from mpfix.c:
 *   y: err_y (mpfix_sincospi_ratio); s = floor(y^2): 2 err_y + 2.
 *   Hamming: floor((21 s + 2) / 23): 21 err_s / 23 + 1 <= err_s + 1.
 *   Blackman: B = 16 s + 9 (error 16 err_s, B <= 25); floor(s B) has error
 *     <= 25 err_s + 16 err_s + 2 (the product of the two errors is < 1 ulp
 *     while err_s < 2^(F/2)); dividing by 25: (41 err_s + 2)/25 + 1 <= 2 err_s + 2.
 *   General Hamming, w = (2 (q - p) s +- |2p - q|) / q: R = floor((q - p)/q)
 *     (< 1 ulp, R <= 1) and T = floor(s R) (error <= err_s R + s 1 + 1 <= err_s + 2,
 *     s <= 1); 2T: 2 err_s + 4; C0 = floor(|2p - q|/q): < 1 ulp; the sum (or the
 *     difference, whichever order is >= 0, for alpha < 1/2) adds the errors:
 *     2 err_s + 5, an absolute bound however small |w| is.  *negative is set when
 *     the computed difference C0 - 2T is > 0 (w~ = -(C0 - 2T)); the caller rounds
 *     |w~| only when it exceeds the bound (the sign of w is then that of w~). */
static uint64_t window_fixed(mpfix_ctx *ctx, const crtrig_window_coef *c, const phase *ph, int *negative)
{
    int n = ctx->n;
    uint32_t *w = mpfix_user(ctx, 0), *y = mpfix_user(ctx, 3), *s = mpfix_user(ctx, 4);
    uint64_t err_y = mpfix_sincospi_ratio(ctx, y, ph->use_cos, ph->a, ph->b);
    uint64_t err_s = 2 * err_y + 2;
    mpfix_mul(ctx, s, y, y);
    *negative = 0;
    switch (c->kind) {
    case CRTRIG_HANN:
        mpfix_copy(w, s, n);
        return err_s;
    case CRTRIG_HAMMING:
        mpfix_copy(w, s, n);
        mpfix_mul_u32(w, n, 21);
        mpfix_add_int(w, n, 2);
        mpfix_div_u32(w, n, 23);
        return err_s + 1;
    case CRTRIG_BLACKMAN:
        mpfix_copy(y, s, n);  /* y becomes B = 16 s + 9 */
        mpfix_mul_u32(y, n, 16);
        mpfix_add_int(y, n, 9);
        mpfix_mul(ctx, w, s, y);
        mpfix_div_u32(w, n, 25);
        return 2 * err_s + 2;
    default: {
        uint32_t *r = mpfix_user(ctx, 6), *c0 = mpfix_user(ctx, 7);
        uint64_t d1 = c->q - c->p;
        mpfix_set_ratio_u64(r, n, d1, c->q);
        mpfix_mul(ctx, w, s, r);
        mpfix_mul_u32(w, n, 2);
        mpfix_set_ratio_u64(c0, n, c->cancels ? d1 - c->p : c->p - d1, c->q);
        if (!c->cancels) {
            mpfix_add(w, c0, n);
        } else if (mpfix_cmp(w, c0, n) >= 0) {
            mpfix_sub(w, c0, n);
        } else {
            mpfix_sub(c0, w, n);
            mpfix_copy(w, c0, n);
            *negative = 1;
        }
        return 2 * err_s + 5;
    }
    }
}

/* Ziv loop in fixed point, for an irrational point (ph->quarter < 0) or an
 * exact fraction num/den (then the error is below one ulp of truncation), in
 * the fill's workspace (allocated for MULTI_MAX_BITS before anything is
 * written; every precision the loop reaches is at most that).  A general
 * Hamming value whose magnitude does not exceed its error bound (its sign is
 * then unknown) is undecided at that precision. */
static int round_multi(const crtrig_window_coef *c, const phase *ph, uint64_t num, uint64_t den,
                       crtrig_dtype fmt, int start_bits, mpfix_ctx *ctx,
                       crtrig_stage_counts *counts, double *result)
{
    int bits;
    for (bits = start_bits; bits <= MULTI_MAX_BITS; bits *= 2) {
        uint32_t *w, *lo, *hi, *err;
        int decided, negative = 0;
        if (mpfix_ctx_set_precision(ctx, bits) != 0)
            return CRTRIG_EINVAL;  /* cannot happen: bits <= MULTI_MAX_BITS */
        w = mpfix_user(ctx, 0);
        lo = mpfix_user(ctx, 1);
        hi = mpfix_user(ctx, 2);
        err = mpfix_user(ctx, 5);
        if (ph->quarter >= 0) {
            mpfix_set_ratio(w, ctx->n, num, den);
            mpfix_set_ulps_pow2(err, ctx->n, 1, 0);  /* truncation: below one ulp */
        } else {
            mpfix_set_ulps_pow2(err, ctx->n, window_fixed(ctx, c, ph, &negative), 0);
        }
        decided = (c->kind != CRTRIG_GENERAL_HAMMING || mpfix_cmp(w, err, ctx->n) > 0) &&
                  mpfix_round_interval(ctx, w, err, lo, hi, fmt, result);
        if (decided) {
            if (negative)
                *result = -*result;
            return CRTRIG_OK;
        }
        if (counts)
            counts->multi_retries++;
    }
    return CRTRIG_ENOCONV;
}

/* The correctly rounded w[n] in the float format fmt, as a double.
 * General Hamming: the exact points s = i/4 and, for alpha = 1 (w = 1
 * everywhere), every point are rounded exactly from their fraction; elsewhere
 * w = c0 + c1 s with s irrational and c1 != 0 is irrational, never a rounding
 * boundary and never 0, so the Ziv loop terminates (its magnitude eventually
 * exceeds the shrinking error bound). */
static int window_element(const crtrig_window_coef *c, uint64_t n, uint64_t D, crtrig_dtype fmt,
                          int first_stage, int multi_bits, mpfix_ctx *workspace,
                          crtrig_stage_counts *counts, double *result)
{
    phase ph;
    int tie;

    if (D == 0) {  /* symmetric size 1: 0/0, NaN as in ONNX Runtime */
        *result = NAN;
        if (counts)
            counts->exact++;
        return CRTRIG_OK;
    }
    ph = fold_phase(n, D);
    if (c->kind == CRTRIG_GENERAL_HAMMING && (ph.quarter >= 0 || c->p == c->q)) {
        if (counts)
            counts->exact++;
        *result = crtrig_general_hamming_exact(c, ph.quarter >= 0 ? ph.quarter : 4, fmt);
        return CRTRIG_OK;
    }
    if (ph.quarter >= 0) {
        uint64_t num, den;
        exact_point(c->kind, ph.quarter, &num, &den);
        if (counts)
            counts->exact++;
        return round_multi(c, &ph, num, den, fmt, MULTI_DEFAULT_BITS, workspace, NULL, result);
    }

    if (first_stage <= CRTRIG_STAGE_DOUBLE && fmt != CRTRIG_FLOAT64) {
        /* |w~ - w| <= 2^-47 m, m = w (ONNX windows) or M (general Hamming), and
         * mag >= m (1 - 2^-48).  e = mag 2^-46 (exact); RN(w~ +- e) are at least
         * e - u (|w~| + e) >= m (2^-46 (1 - 2^-48) - 2^-52.9) > 2^-47 m away from
         * w~ (|w~| <= 1.01 m).  So lo <= w <= hi. */
        double y = crtrig_sincospi_ratio_d(ph.use_cos, ph.a, ph.b), mag;
        double w = window_of_s_d(c, y * y, &mag);
        double e = mag * 0x1p-46;
        double rlo = crtrig_round_double(w - e, fmt, &tie);
        double rhi = crtrig_round_double(w + e, fmt, &tie);
        if (rlo == rhi && signbit(rlo) == signbit(rhi)) {  /* -0 and +0: undecided */
            if (counts)
                counts->by_stage[CRTRIG_STAGE_DOUBLE]++;
            *result = rlo;
            return CRTRIG_OK;
        }
    }
    if (first_stage <= CRTRIG_STAGE_DOUBLE_DOUBLE) {
        /* |w~ - w| <= 2^-96 m (m = w, or M for the general Hamming window, and
         * mag >= m (1 - 2^-51)).  e = mag 2^-94; dd_add_d errs by at most
         * 2^-103 (|w~| + e) (its operands have opposite signs only when e <=
         * |w~.hi|/4, as dd.h requires: otherwise the element goes on), so the
         * endpoints lie at least m (2^-94 (1 - 2^-51) - 2^-102.9) > 2^-96 m from
         * w~.  Both are fast-two-sum outputs, as crtrig_round_dd requires. */
        double mag;
        dd_t y = crtrig_sincospi_ratio_dd(ph.use_cos, ph.a, ph.b);
        dd_t w = window_of_s_dd(c, dd_mul(y, y), &mag);
        double e = mag * 0x1p-94;
        if (fabs(w.hi) >= 4.0 * e) {
            dd_t lo = dd_add_d(w, -e), hi = dd_add_d(w, e);
            double rlo = crtrig_round_dd(lo.hi, lo.lo, fmt);
            double rhi = crtrig_round_dd(hi.hi, hi.lo, fmt);
            if (rlo == rhi && signbit(rlo) == signbit(rhi)) {
                if (counts)
                    counts->by_stage[CRTRIG_STAGE_DOUBLE_DOUBLE]++;
                *result = rlo;
                return CRTRIG_OK;
            }
        }
    }
    if (counts)
        counts->by_stage[CRTRIG_STAGE_MULTI]++;
    return round_multi(c, &ph, 0, 0, fmt, multi_bits, workspace, counts, result);
}

/* ------------------------------------------------------------------------ */
/* The fill.  Everything one fill shares: its arguments and, for the table
 * pass, the sin/cos table built before anything is written.  fill_range
 * writes the elements [lo, hi) of the window and reads nothing it did not
 * write itself, so any split of [0, size) into ranges (a thread pool's chunks)
 * gives the same bytes. */
typedef struct fill_call {
    const crtrig_target *target;
    crtrig_window_coef coef;   /* the window (kind, general Hamming constants) */
    uint64_t D;
    crtrig_dtype dtype;
    int first_stage, multi_bits;
    char *out;
    ptrdiff_t stride;
    crtrig_sinpi_table table;     /* when uses_table */
    mpfix_ctx *workspaces;        /* one per participant, allocated before the fill */
    crtrig_stage_counts *counts;  /* the caller's counters, or NULL */
    uint64_t first;               /* the element (or phase) of item 0 of the job */
    int by_phase;                 /* the job's items are phases (phase_range), else elements */
} fill_call;

/* Normal operation (1 <= D <= 2^52): the table pass.  The test hooks that
 * start at a later stage, D = 0 (symmetric size 1) and the D beyond the
 * table (never allocated) go element by element. */
static int uses_table(const fill_call *f)
{
    return f->first_stage == CRTRIG_STAGE_DOUBLE && f->D >= 1 && f->D <= CRTRIG_SINPI_TABLE_MAX_D;
}

/* Bytes per element of the pass's output for a dtype (its float format). */
static size_t pass_width(crtrig_dtype fmt) { return fmt == CRTRIG_FLOAT64 ? 8 : fmt == CRTRIG_FLOAT32 ? 4 : 2; }

/* Copy count values of the pass's format (float bits; float32 for the integer
 * dtypes) from src to the elements dst, dst + step, ... of dtype: a plain copy
 * for the float dtypes, ONNX's Cast for the integer ones (truncation toward
 * zero of a float32 value in [0, 1]: never NaN here, D >= 1).  Forward and
 * backward contiguous steps get loops of their own (the compiler vectorizes
 * those: memcpy of a constant size at constant strides). */
#if defined(__GNUC__) && !defined(__clang__)
#define PUT_VECTORIZE __attribute__((optimize("tree-vectorize")))
#else
#define PUT_VECTORIZE
#endif

#define PUT_LOOP(T, CONVERT, SRC_WIDTH, STEP)                                       \
    for (i = 0; i < count; i++) {                                                   \
        T x;                                                                        \
        CONVERT(T, x, src + (SRC_WIDTH) * i);                                       \
        memcpy(dst + (ptrdiff_t)i * (STEP), &x, sizeof x);                          \
    }
#define PUT_READ(T, x, p) memcpy(&(x), (p), sizeof(T))
#define PUT_CAST(T, x, p)                                                           \
    do {                                                                            \
        float v_;                                                                   \
        memcpy(&v_, (p), sizeof v_);                                                \
        (x) = (T)(int32_t)v_;                                                       \
    } while (0)
#define PUT_DEFINE(NAME, T, CONVERT, SRC_WIDTH)                                               \
    static PUT_VECTORIZE void NAME(const char *src, size_t count, char *dst, ptrdiff_t step) \
    {                                                                                         \
        size_t i;                                                                             \
        if (step == (ptrdiff_t)sizeof(T))                                                     \
            PUT_LOOP(T, CONVERT, SRC_WIDTH, (ptrdiff_t)sizeof(T))                             \
        else if (step == -(ptrdiff_t)sizeof(T))                                               \
            PUT_LOOP(T, CONVERT, SRC_WIDTH, -(ptrdiff_t)sizeof(T))                            \
        else                                                                                  \
            PUT_LOOP(T, CONVERT, SRC_WIDTH, step)                                             \
    }
PUT_DEFINE(put_bits16, uint16_t, PUT_READ, 2)
PUT_DEFINE(put_bits32, uint32_t, PUT_READ, 4)
PUT_DEFINE(put_bits64, uint64_t, PUT_READ, 8)
PUT_DEFINE(put_int8, int8_t, PUT_CAST, 4)
PUT_DEFINE(put_uint8, uint8_t, PUT_CAST, 4)
PUT_DEFINE(put_int16, int16_t, PUT_CAST, 4)
PUT_DEFINE(put_uint16, uint16_t, PUT_CAST, 4)
PUT_DEFINE(put_int32, int32_t, PUT_CAST, 4)
PUT_DEFINE(put_uint32, uint32_t, PUT_CAST, 4)
PUT_DEFINE(put_int64, int64_t, PUT_CAST, 4)
PUT_DEFINE(put_uint64, uint64_t, PUT_CAST, 4)

static void put_values(crtrig_dtype dtype, const char *src, size_t count, char *dst, ptrdiff_t step)
{
    switch (dtype) {
    case CRTRIG_FLOAT16:
    case CRTRIG_BFLOAT16: put_bits16(src, count, dst, step); return;
    case CRTRIG_FLOAT32:  put_bits32(src, count, dst, step); return;
    case CRTRIG_FLOAT64:  put_bits64(src, count, dst, step); return;
    case CRTRIG_INT8:     put_int8(src, count, dst, step); return;
    case CRTRIG_UINT8:    put_uint8(src, count, dst, step); return;
    case CRTRIG_INT16:    put_int16(src, count, dst, step); return;
    case CRTRIG_UINT16:   put_uint16(src, count, dst, step); return;
    case CRTRIG_INT32:    put_int32(src, count, dst, step); return;
    case CRTRIG_UINT32:   put_uint32(src, count, dst, step); return;
    case CRTRIG_INT64:    put_int64(src, count, dst, step); return;
    case CRTRIG_UINT64:   put_uint64(src, count, dst, step); return;
    default: return;
    }
}

/* The bits of a double v that is a value of the float format fmt, in that format. */
static void encode_value(crtrig_dtype fmt, double v, char *p)
{
    crtrig_store(fmt, v, p);
}

/* Whether the pass's value at p (format fmt) is a NaN: its undecided mark
 * (window_table.h). */
static int is_marked(crtrig_dtype fmt, const char *p)
{
    if (fmt == CRTRIG_FLOAT64) {
        uint64_t b;
        memcpy(&b, p, sizeof b);
        return (b & 0x7fffffffffffffffu) > 0x7ff0000000000000u;
    }
    if (fmt == CRTRIG_FLOAT32) {
        uint32_t b;
        memcpy(&b, p, sizeof b);
        return (b & 0x7fffffffu) > 0x7f800000u;
    }
    {
        uint16_t b;
        memcpy(&b, p, sizeof b);
        return fmt == CRTRIG_FLOAT16 ? (b & 0x7fffu) > 0x7c00u : (b & 0x7fffu) > 0x7f80u;
    }
}

/* The pass over the phases r0 .. r0 + count - 1 into vals (the format's bits,
 * contiguous) and, unless mirror is NULL, into mirror, mirror - 1 element, ...;
 * the elements it leaves undecided through window_element (from the
 * double-double stage: the pass is at least as accurate as the double stage),
 * stored at both places.  Counts each phase once, by the stage that decided it. */
static int table_values(const fill_call *f, crtrig_dtype fmt, uint64_t r0, size_t count, char *vals,
                        char *mirror, mpfix_ctx *workspace, crtrig_stage_counts *counts)
{
    const size_t width = pass_width(fmt);
    size_t undecided = f->target->window_run[fmt](&f->coef, &f->table, r0, count, vals, mirror), i;
    if (crtrig_selfcheck_fault_armed(f->target))  /* test hook: a broken kernel */
        crtrig_selfcheck_fault_window(f->target, fmt, &f->coef, f->D, r0, count, vals, mirror);
    if (counts)
        counts->by_stage[CRTRIG_STAGE_DOUBLE] += count - undecided;
    for (i = 0; undecided > 0 && i < count; i++) {
        double v;
        int rc;
        if (!is_marked(fmt, vals + width * i))
            continue;
        rc = window_element(&f->coef, r0 + i, f->D, fmt, CRTRIG_STAGE_DOUBLE_DOUBLE, f->multi_bits,
                            workspace, counts, &v);
        if (rc != CRTRIG_OK)
            return rc;
        encode_value(fmt, v, vals + width * i);
        if (mirror)
            encode_value(fmt, v, mirror - (ptrdiff_t)(width * i));
        undecided--;
    }
    return CRTRIG_OK;
}

enum { TABLE_BLOCK = 512 };

/* A contiguous float output (stride = the element size): the pass writes each
 * phase r of [r_lo, r_hi) straight into n = r where r is in [f_lo, f_hi) and, in
 * the same sweep (float32, float64; the 16-bit formats copy after it), into
 * n = D - r where r is in [m_lo, m_hi); a stretch with no forward element goes
 * through a scratch block. */
static int table_phases_contiguous(const fill_call *f, mpfix_ctx *workspace, crtrig_stage_counts *counts,
                                   uint64_t r_lo, uint64_t r_hi, uint64_t f_lo, uint64_t f_hi,
                                   uint64_t m_lo, uint64_t m_hi)
{
    const crtrig_dtype fmt = f->dtype;
    const ptrdiff_t width = f->stride;
    double scratch[TABLE_BLOCK];  /* TABLE_BLOCK values of up to 8 bytes */
    uint64_t r = r_lo;
    while (r < r_hi) {
        int forward = f_lo <= r && r < f_hi, mirrored = m_lo <= r && r < m_hi, rc;
        uint64_t end = r_hi - r < TABLE_BLOCK ? r_hi : r + TABLE_BLOCK;
        /* the stretch where both memberships stay the same */
        if (f_lo > r && f_lo < end) end = f_lo;
        if (f_hi > r && f_hi < end) end = f_hi;
        if (m_lo > r && m_lo < end) end = m_lo;
        if (m_hi > r && m_hi < end) end = m_hi;
        if (forward || mirrored) {
            char *vals = forward ? f->out + (ptrdiff_t)r * width : (char *)scratch;
            char *mirror = mirrored ? f->out + (ptrdiff_t)(f->D - r) * width : NULL;
            rc = table_values(f, fmt, r, (size_t)(end - r), vals, width >= 4 ? mirror : NULL, workspace,
                              counts);
            if (rc != CRTRIG_OK)
                return rc;
            if (mirror && width < 4)
                put_values(f->dtype, vals, (size_t)(end - r), mirror, -width);
            if (counts && forward && mirrored)  /* the second store counts as mirrored */
                counts->mirrored += end - r;
        }
        r = end;
    }
    return CRTRIG_OK;
}

/* The phases [r_lo, r_hi), in blocks: each value computed once, then stored at
 * n = r where r is in [f_lo, f_hi) and at n = D - r where r is in [m_lo, m_hi)
 * (the two never name the same element: table_range).  Contiguous float outputs
 * take table_phases_contiguous; the others (any stride, integer casts) a block
 * buffer and put_values. */
static int table_phases(const fill_call *f, mpfix_ctx *workspace, crtrig_stage_counts *counts,
                        uint64_t r_lo, uint64_t r_hi, uint64_t f_lo, uint64_t f_hi, uint64_t m_lo,
                        uint64_t m_hi)
{
    const crtrig_dtype fmt = crtrig_compute_format(f->dtype);
    const size_t width = pass_width(fmt);
    double buffer[TABLE_BLOCK];  /* TABLE_BLOCK values of up to 8 bytes */
    uint64_t rb;
    if (f->dtype == fmt && f->stride == (ptrdiff_t)width)
        return table_phases_contiguous(f, workspace, counts, r_lo, r_hi, f_lo, f_hi, m_lo, m_hi);
    for (rb = r_lo; rb < r_hi; rb += TABLE_BLOCK) {
        size_t count = r_hi - rb < TABLE_BLOCK ? (size_t)(r_hi - rb) : TABLE_BLOCK;
        uint64_t re = rb + count, lo, hi;
        int rc = table_values(f, fmt, rb, count, (char *)buffer, NULL, workspace, counts);
        if (rc != CRTRIG_OK)
            return rc;
        lo = f_lo > rb ? f_lo : rb;
        hi = f_hi < re ? f_hi : re;
        if (lo < hi)
            put_values(f->dtype, (char *)buffer + width * (lo - rb), (size_t)(hi - lo),
                       f->out + (ptrdiff_t)lo * f->stride, f->stride);
        lo = m_lo > rb ? m_lo : rb;
        hi = m_hi < re ? m_hi : re;
        if (lo < hi)
            put_values(f->dtype, (char *)buffer + width * (lo - rb), (size_t)(hi - lo),
                       f->out + (ptrdiff_t)(f->D - lo) * f->stride, -f->stride);
        if (counts) {  /* phases stored twice: the second store counts as mirrored */
            lo = lo > f_lo ? lo : f_lo;
            hi = hi < f_hi ? hi : f_hi;
            counts->mirrored += lo < hi ? hi - lo : 0;
        }
    }
    return CRTRIG_OK;
}

/* Elements [lo, hi) through the table pass.  Up to the middle (n <= D/2) the
 * phase is r = n; past it, r = D - n (w[n] = w[D - n]).  Each phase the range
 * needs is computed once and stored at the elements of the range it serves. */
static int table_range(const fill_call *f, mpfix_ctx *workspace, crtrig_stage_counts *counts,
                       uint64_t lo, uint64_t hi)
{
    const uint64_t D = f->D, mid = D / 2 + 1;     /* n < mid <=> 2n <= D */
    uint64_t f_lo = lo, f_hi = hi < mid ? hi : mid;  /* forward: r = n */
    uint64_t n_lo = lo > mid ? lo : mid;            /* mirrored: n in [n_lo, hi) */
    uint64_t m_lo = 0, m_hi = 0;                    /* ... r in [m_lo, m_hi) */
    if (f_lo >= f_hi)
        f_lo = f_hi = 0;
    if (n_lo < hi) {  /* n <= size - 1 <= D, so r = D - n >= 0; r <= D - mid < mid */
        m_lo = D - (hi - 1);
        m_hi = D - n_lo + 1;
    }
    if (f_lo == f_hi)
        return table_phases(f, workspace, counts, m_lo, m_hi, 0, 0, m_lo, m_hi);
    if (m_lo == m_hi)
        return table_phases(f, workspace, counts, f_lo, f_hi, f_lo, f_hi, 0, 0);
    if (m_lo <= f_hi && f_lo <= m_hi)  /* overlapping or adjacent: one sweep */
        return table_phases(f, workspace, counts, f_lo < m_lo ? f_lo : m_lo, f_hi > m_hi ? f_hi : m_hi,
                            f_lo, f_hi, m_lo, m_hi);
    {
        int rc = table_phases(f, workspace, counts, f_lo, f_hi, f_lo, f_hi, 0, 0);
        return rc != CRTRIG_OK ? rc : table_phases(f, workspace, counts, m_lo, m_hi, 0, 0, m_lo, m_hi);
    }
}

/* Elements [lo, hi) of the fill, with one thread's workspace and counters. */
static int fill_range(const fill_call *f, mpfix_ctx *workspace, crtrig_stage_counts *counts,
                      uint64_t lo, uint64_t hi)
{
    crtrig_dtype fmt = crtrig_compute_format(f->dtype);
    uint64_t n, D = f->D;
    if (uses_table(f))
        return table_range(f, workspace, counts, lo, hi);
    /* Element by element; past the middle w[n] = w[D - n], computed again (from
     * the folded phase) when it lies outside the range. */
    for (n = lo; n < hi; n++) {
        double v;
        int rc;
        if (D > 0 && 2 * n > D && D - n >= lo) {
            memcpy(f->out + (ptrdiff_t)n * f->stride, f->out + (ptrdiff_t)(D - n) * f->stride,
                   ELEMENT_SIZE[f->dtype]);
            if (counts)
                counts->mirrored++;
            continue;
        }
        rc = window_element(&f->coef, n, D, fmt, f->first_stage, f->multi_bits, workspace, counts, &v);
        if (rc != CRTRIG_OK)
            return rc;
        crtrig_store(f->dtype, v, f->out + (ptrdiff_t)n * f->stride);
    }
    return CRTRIG_OK;
}

/* The phases [r_lo, r_hi) of a whole fill (2 r <= D, D >= 1): each computed
 * once and stored at n = r and, where 2 r < D and n = D - r names an element
 * (D - r <= size - 1), at n = D - r.  Through the table pass, or element by
 * element (the test hooks that start at a later stage, D beyond the table). */
static int phase_range(const fill_call *f, mpfix_ctx *workspace, crtrig_stage_counts *counts,
                       uint64_t r_lo, uint64_t r_hi, uint64_t size)
{
    const uint64_t D = f->D;
    const uint64_t m_start = D + 1 - size;       /* D - r <= size - 1 (D >= size - 1) */
    const uint64_t m_end = D - (D / 2 + 1) + 1;  /* D - r >= D/2 + 1, i.e. 2 (D - r) > D */
    const crtrig_dtype fmt = crtrig_compute_format(f->dtype);
    uint64_t m_lo = r_lo > m_start ? r_lo : m_start, m_hi = r_hi < m_end ? r_hi : m_end, r;
    if (m_lo >= m_hi)
        m_lo = m_hi = 0;
    if (uses_table(f))
        return table_phases(f, workspace, counts, r_lo, r_hi, r_lo, r_hi, m_lo, m_hi);
    for (r = r_lo; r < r_hi; r++) {
        double v;
        int rc = window_element(&f->coef, r, D, fmt, f->first_stage, f->multi_bits, workspace, counts, &v);
        if (rc != CRTRIG_OK)
            return rc;
        crtrig_store(f->dtype, v, f->out + (ptrdiff_t)r * f->stride);
        if (m_lo <= r && r < m_hi) {
            memcpy(f->out + (ptrdiff_t)(D - r) * f->stride, f->out + (ptrdiff_t)r * f->stride,
                   ELEMENT_SIZE[f->dtype]);
            if (counts)
                counts->mirrored++;
        }
    }
    return CRTRIG_OK;
}

/* One thread's share of a fill job (threads.h): the chunks it claims, with
 * the workspace the caller allocated for it; its counters merged at the end. */
static int fill_share(void *arg, int participant, crtrig_job *job)
{
    fill_call *f = (fill_call *)arg;
    crtrig_stage_counts counts;
    size_t lo, hi;
    int rc = CRTRIG_OK;
    memset(&counts, 0, sizeof counts);
    while (rc == CRTRIG_OK && crtrig_job_next(job, &lo, &hi)) {
        crtrig_stage_counts *c = f->counts ? &counts : NULL;
        if (f->by_phase)
            rc = phase_range(f, &f->workspaces[participant], c, lo, hi, f->first);
        else
            rc = fill_range(f, &f->workspaces[participant], c, f->first + lo, f->first + hi);
    }
    if (f->counts)
        crtrig_job_add_counts(job, f->counts, &counts);
    return rc;
}

/* The elements [lo, hi) of a fill, out of line: the floating-point work between
 * the environment switches of window_call.  Arguments already checked, the
 * workspaces (and the table) allocated.  A whole fill (D >= 1) is a job over
 * the phases 0 .. D/2 (f->first holds the size), a range over its elements. */
static CRTRIG_NOINLINE int window_fill(fill_call *f, int participants, uint64_t lo, uint64_t hi,
                                       uint64_t size)
{
    if (f->by_phase) {
        f->first = size;
        return crtrig_threads_run(participants, (size_t)(f->D / 2 + 1), BLOCK, fill_share, f);
    }
    f->first = lo;
    return crtrig_threads_run(participants, (size_t)(hi - lo), BLOCK, fill_share, f);
}

/* A workspace for each participant, for every precision the Ziv loop can
 * reach: with one participant *single (one allocation), else an array and
 * one each (1 + participants allocations); all or none.  NULL when out of
 * memory. */
static mpfix_ctx *allocate_workspaces(int participants, mpfix_ctx *single)
{
    mpfix_ctx *all = single;
    int i;
    if (participants > 1) {
        all = (mpfix_ctx *)crtrig_alloc((size_t)participants * sizeof *all);
        if (!all)
            return NULL;
    }
    for (i = 0; i < participants; i++) {
        if (mpfix_ctx_init(&all[i], MULTI_MAX_BITS) != 0) {
            while (i-- > 0)
                mpfix_ctx_free(&all[i]);
            if (all != single)
                crtrig_free(all);
            return NULL;
        }
    }
    return all;
}

static void free_workspaces(mpfix_ctx *all, int participants, mpfix_ctx *single)
{
    int i;
    for (i = 0; i < participants; i++)
        mpfix_ctx_free(&all[i]);
    if (all != single)
        crtrig_free(all);
}

/* The self-check of the window pass of the float format fmt (selfcheck.h), in
 * the calling thread, inside its entry point's floating-point bracket, with a
 * workspace for every precision (the exact points round in fixed point): for
 * each stored range, the scalar path (window_element from the first stage, as
 * crtrig_window_element) against each candidate target's path (its table
 * builder, into memory on this stack, with the range's step, then
 * table_values: the pass and the stages for what it leaves undecided), from the
 * active target down, bit for bit.  For float32 and float64 every other range
 * also goes through the pass's mirrored store, whose values must agree too (a
 * phase where they differ counts with the mirrored value).  Allocates nothing.
 * 74-142 us measured on avx512 (selfcheck.h).  publish == 0: the timing hook. */
/* The coefficients of stored range k into *c, unless *c already holds them
 * (consecutive ranges mostly share their window: the general Hamming constants
 * cost a long division each). */
static int range_coef(const crtrig_selfcheck_window_input *in, crtrig_window_coef *c, int *have)
{
    crtrig_window_spec spec;
    int rc;
    if (*have && c->kind == in->kind &&
        (in->kind != CRTRIG_GENERAL_HAMMING || (c->p == in->alpha_num && c->q == in->alpha_den)))
        return CRTRIG_OK;
    spec.kind = in->kind;
    spec.alpha_num = in->alpha_num;
    spec.alpha_den = in->alpha_den;
    rc = crtrig_window_coef_init(c, &spec);
    if (rc == CRTRIG_OK)
        crtrig_window_coef_constants(c);
    *have = rc == CRTRIG_OK;
    return rc;
}

static const crtrig_target *check_window(const crtrig_target *active, crtrig_dtype fmt, mpfix_ctx *workspace,
                                         int publish)
{
    enum { TABLE_DOUBLES = 8 * CRTRIG_SELFCHECK_TABLE_ENTRIES };
    uint64_t want[CRTRIG_SELFCHECK_MAX_INPUTS], got[CRTRIG_SELFCHECK_MAX_INPUTS];
    uint64_t mirrored[CRTRIG_SELFCHECK_MAX_RANGE];
    double table_memory[TABLE_DOUBLES];
    const size_t width = pass_width(fmt);
    size_t ranges, phases, k, i, j;
    const crtrig_selfcheck_window_input *input = crtrig_selfcheck_window_inputs(&ranges);
    crtrig_selfcheck_run run;
    const crtrig_target *t = crtrig_selfcheck_begin(&run, CRTRIG_SELFCHECK_WINDOW + (int)fmt, active, publish);
    fill_call f;
    int rc = CRTRIG_OK, have_coef = 0;
    memset(&f, 0, sizeof f);
    f.dtype = fmt;
    f.first_stage = CRTRIG_STAGE_DOUBLE;
    f.multi_bits = MULTI_DEFAULT_BITS;
    for (k = 0, j = 0; rc == CRTRIG_OK && k < ranges; k++) {
        rc = range_coef(&input[k], &f.coef, &have_coef);
        for (i = 0; rc == CRTRIG_OK && i < (size_t)input[k].count; i++, j++) {
            double v;
            rc = window_element(&f.coef, input[k].r0 + i, input[k].D, fmt, CRTRIG_STAGE_DOUBLE,
                                MULTI_DEFAULT_BITS, workspace, NULL, &v);
            encode_value(fmt, v, (char *)want + width * j);
        }
    }
    phases = j;
    while (t && rc == CRTRIG_OK) {
        f.target = t;
        for (k = 0, j = 0; rc == CRTRIG_OK && k < ranges; j += (size_t)input[k].count, k++) {
            const size_t count = (size_t)input[k].count;
            char *vals = (char *)got + width * j;
            char *mirror = width >= 4 && (k & 1) ? (char *)mirrored + width * (count - 1) : NULL;
            rc = range_coef(&input[k], &f.coef, &have_coef);
            f.D = input[k].D;
            if (rc == CRTRIG_OK)
                rc = crtrig_sinpi_table_init_in(&f.table, t, f.D, (uint64_t)input[k].step, input[k].r0,
                                                input[k].r0 + count - 1, table_memory, TABLE_DOUBLES);
            if (rc == CRTRIG_OK)
                rc = table_values(&f, fmt, input[k].r0, count, vals, mirror, workspace, NULL);
            for (i = 0; rc == CRTRIG_OK && mirror && i < count; i++) {
                const char *m = mirror - (ptrdiff_t)(width * i);
                const char *w = (const char *)want + width * (j + i);
                if (memcmp(m, vals + width * i, width) != 0 && memcmp(vals + width * i, w, width) == 0)
                    memcpy(vals + width * i, m, width);
            }
        }
        if (rc == CRTRIG_OK)
            t = crtrig_selfcheck_compare(&run, (const char *)got, (const char *)want, phases, width);
    }
    if (rc != CRTRIG_OK)  /* not seen: the stored inputs are valid and allocate nothing */
        return crtrig_target_at(0);
    return crtrig_selfcheck_finish(&run, publish);
}

/* The target a normal fill of format fmt uses through the table pass: the
 * published outcome of the self-check, after running it if this is the first use. */
static const crtrig_target *checked_window_target(const crtrig_target *active, crtrig_dtype fmt,
                                                  mpfix_ctx *workspace)
{
    const crtrig_target *t = crtrig_selfcheck_target(CRTRIG_SELFCHECK_WINDOW + (int)fmt, active);
    return t ? t : check_window(active, fmt, workspace, 1);
}

int crtrig_selfcheck_run_window(crtrig_dtype fmt, int publish)
{
    const crtrig_target *active = crtrig_active_target(), *t;
    mpfix_ctx workspace;
    crtrig_fpenv env;
    if ((unsigned)fmt > CRTRIG_FLOAT64)
        return -1;
    if (crtrig_target_index(active) <= 0)
        return 0;  /* the baseline: nothing to check */
    if (publish && (t = crtrig_selfcheck_target(CRTRIG_SELFCHECK_WINDOW + (int)fmt, active)) != NULL)
        return crtrig_target_index(t);
    if (mpfix_ctx_init(&workspace, MULTI_MAX_BITS) != 0)
        return -1;
    crtrig_fpenv_enter(&env);
    t = publish ? checked_window_target(active, fmt, &workspace) : check_window(active, fmt, &workspace, 0);
    crtrig_fpenv_leave(&env, 0);
    mpfix_ctx_free(&workspace);
    return crtrig_target_index(t);
}

/* What a fill weighs in the pool's claim (threads.c counts elements of kernels of
 * about 0.5 to 1.5 ns).  A float64 element costs 0.5 to 1 ns with the AVX-512 kernels
 * (hann 0.5, hamming 0.8, blackman 0.95 ns at N = 10^5, `python -m crtrig bench`, the
 * 2-core AVX-512 machine), and at 10^5 elements two threads took 0.81x one thread's
 * speed for hann (1.05x hamming, 1.12x blackman) when float64 fills split from the
 * pool's threshold on; a float32, float16 or bfloat16 element about 0.3 to 0.6 ns,
 * and at 10^5 elements waking a worker did not pay (0.86x to 0.95x, the AVX2
 * machine), nor at 2^16 and 2^17 with the output allocated by the call (0.74x,
 * 0.99x; 1.13x at 2^18: `python tools/bench_threads.py --sweep`).  So float64 fills
 * weigh half (they split from 131,072 elements) and the others a quarter (from
 * 262,144 elements): about 65 us of work or more either way.  Block and count are
 * weighed alike, so the job's blocks are the same. */
static size_t claim_weight(crtrig_dtype dtype, size_t n)
{
    return crtrig_compute_format(dtype) == CRTRIG_FLOAT64 ? n / 2 : n / 4;
}

/* crtrig_window_ex for the elements [lo, hi) only (0 <= lo <= hi <= size). */
static int window_call(const crtrig_window_spec *spec, int64_t size, int periodic, crtrig_dtype dtype, char *out,
                       ptrdiff_t stride, uint64_t lo, uint64_t hi, const crtrig_eval_options *opt,
                       crtrig_stage_counts *counts)
{
    const crtrig_target *target = (opt && opt->simd_target) ? crtrig_target_at(opt->simd_target - 1)
                                                            : crtrig_active_target();
    mpfix_ctx single;
    fill_call f;
    crtrig_fpenv env;
    ptrdiff_t width;
    int rc, table = 0, participants;

    if (!spec || crtrig_window_coef_init(&f.coef, spec) != CRTRIG_OK ||
        (unsigned)dtype >= CRTRIG_NUM_DTYPES ||
        size < 0 || size > CRTRIG_WINDOW_MAX_SIZE || !target || lo > hi || hi > (uint64_t)size)
        return CRTRIG_EINVAL;
    if ((uint64_t)size > (uint64_t)SIZE_MAX)
        return CRTRIG_EINVAL;  /* more elements than the address space holds (32-bit) */
    width = (ptrdiff_t)ELEMENT_SIZE[dtype];
    if (size > 1 && stride > -width && stride < width)
        return CRTRIG_EINVAL;  /* elements overlapping each other */
    if (lo == hi)
        return CRTRIG_OK;
    f.target = target;
    f.D = periodic ? (uint64_t)size : (uint64_t)size - 1;
    f.dtype = dtype;
    f.first_stage = opt ? opt->first_stage : CRTRIG_STAGE_DOUBLE;
    f.multi_bits = (opt && opt->multi_start_bits > 0) ? opt->multi_start_bits : MULTI_DEFAULT_BITS;
    f.out = out;
    f.stride = stride;
    f.table.memory = NULL;
    f.counts = counts;
    f.by_phase = f.D >= 1 && lo == 0 && hi == (uint64_t)size;  /* a whole fill: a job over its phases */
    /* How many threads take part (decided by the element count, as for sin/cos,
     * whether the job's items are elements or the half as many phases), then
     * every workspace they can need and the table, all allocated before
     * anything is written: a failure leaves out untouched. */
    participants = crtrig_threads_claim(claim_weight(dtype, (size_t)(hi - lo)), claim_weight(dtype, BLOCK));
    f.workspaces = allocate_workspaces(participants, &single);
    if (!f.workspaces) {
        crtrig_threads_release(participants);
        return CRTRIG_ENOMEM;
    }
    crtrig_fpenv_enter(&env);
    crtrig_window_coef_constants(&f.coef);
    rc = CRTRIG_OK;
    if (uses_table(&f) && !(opt && opt->simd_target))  /* a normal fill: the self-checked target */
        f.target = checked_window_target(target, crtrig_compute_format(dtype), &f.workspaces[0]);
    if (uses_table(&f)) {  /* every phase of the window, whatever the range, so any split gives the same bits */
        rc = crtrig_sinpi_table_init(&f.table, f.target, f.D, crtrig_sinpi_table_step(f.D / 2), 0, f.D / 2);
        table = rc == CRTRIG_OK;
    }
    if (rc == CRTRIG_OK)
        rc = window_fill(&f, participants, lo, hi, (uint64_t)size);
    crtrig_fpenv_leave(&env, 0);
    if (table)
        crtrig_sinpi_table_free(&f.table);
    free_workspaces(f.workspaces, participants, &single);
    crtrig_threads_release(participants);
    return rc;
}

/* The spec of an ONNX window kind (any int: window_call checks it). */
static crtrig_window_spec kind_spec(crtrig_window_kind kind)
{
    crtrig_window_spec spec;
    spec.kind = (int)kind;
    spec.alpha_num = spec.alpha_den = 0;
    return spec;
}

int crtrig_window_ex(crtrig_window_kind kind, int64_t size, int periodic,
                     crtrig_dtype dtype, char *out, ptrdiff_t stride,
                     const crtrig_eval_options *opt, crtrig_stage_counts *counts)
{
    crtrig_window_spec spec = kind_spec(kind);
    if ((unsigned)kind >= CRTRIG_NUM_WINDOWS)
        return CRTRIG_EINVAL;
    return window_call(&spec, size, periodic, dtype, out, stride, 0, size < 0 ? 0 : (uint64_t)size, opt,
                       counts);
}

int crtrig_window_spec_ex(const crtrig_window_spec *spec, int64_t size, int periodic,
                          crtrig_dtype dtype, char *out, ptrdiff_t stride,
                          const crtrig_eval_options *opt, crtrig_stage_counts *counts)
{
    return window_call(spec, size, periodic, dtype, out, stride, 0, size < 0 ? 0 : (uint64_t)size, opt,
                       counts);
}

int crtrig_window_range(crtrig_window_kind kind, int64_t size, int periodic, crtrig_dtype dtype,
                        char *out, ptrdiff_t stride, uint64_t lo, uint64_t hi,
                        const crtrig_eval_options *opt, crtrig_stage_counts *counts)
{
    crtrig_window_spec spec = kind_spec(kind);
    if ((unsigned)kind >= CRTRIG_NUM_WINDOWS)
        return CRTRIG_EINVAL;
    return window_call(&spec, size, periodic, dtype, out, stride, lo, hi, opt, counts);
}

int crtrig_window_spec_range(const crtrig_window_spec *spec, int64_t size, int periodic,
                             crtrig_dtype dtype, char *out, ptrdiff_t stride, uint64_t lo, uint64_t hi,
                             const crtrig_eval_options *opt, crtrig_stage_counts *counts)
{
    return window_call(spec, size, periodic, dtype, out, stride, lo, hi, opt, counts);
}

int crtrig_window(crtrig_window_kind kind, int64_t size, int periodic,
                  crtrig_dtype dtype, char *out, ptrdiff_t stride)
{
    return crtrig_window_ex(kind, size, periodic, dtype, out, stride, NULL, NULL);
}

int crtrig_window_general_hamming(uint64_t alpha_num, uint64_t alpha_den, int64_t size, int periodic,
                                  crtrig_dtype dtype, char *out, ptrdiff_t stride)
{
    crtrig_window_spec spec;
    spec.kind = CRTRIG_GENERAL_HAMMING;
    spec.alpha_num = alpha_num;
    spec.alpha_den = alpha_den;
    return window_call(&spec, size, periodic, dtype, out, stride, 0, size < 0 ? 0 : (uint64_t)size, NULL,
                       NULL);
}

static CRTRIG_NOINLINE int window_element_hook(const crtrig_window_coef *c, uint64_t n, uint64_t D,
                                               crtrig_dtype dtype, int first_stage, int multi_bits,
                                               mpfix_ctx *workspace, crtrig_stage_counts *counts,
                                               double *result)
{
    return window_element(c, n, D, crtrig_compute_format(dtype), first_stage, multi_bits,
                          workspace, counts, result);
}

int crtrig_window_spec_element(const crtrig_window_spec *spec, uint64_t n, uint64_t D,
                               crtrig_dtype dtype, const crtrig_eval_options *opt,
                               crtrig_stage_counts *counts, double *result)
{
    int first_stage = opt ? opt->first_stage : CRTRIG_STAGE_DOUBLE;
    int multi_bits = (opt && opt->multi_start_bits > 0) ? opt->multi_start_bits : MULTI_DEFAULT_BITS;
    crtrig_window_coef coef;
    mpfix_ctx workspace;
    crtrig_fpenv env;
    int rc;
    if (!spec || crtrig_window_coef_init(&coef, spec) != CRTRIG_OK || (unsigned)dtype >= CRTRIG_NUM_DTYPES ||
        D > (uint64_t)CRTRIG_WINDOW_MAX_SIZE || n > D)
        return CRTRIG_EINVAL;
    if (mpfix_ctx_init(&workspace, MULTI_MAX_BITS) != 0)
        return CRTRIG_ENOMEM;
    crtrig_fpenv_enter(&env);
    crtrig_window_coef_constants(&coef);
    rc = window_element_hook(&coef, n, D, dtype, first_stage, multi_bits, &workspace, counts, result);
    crtrig_fpenv_leave(&env, 0);
    mpfix_ctx_free(&workspace);
    return rc;
}

int crtrig_window_element(crtrig_window_kind kind, uint64_t n, uint64_t D, crtrig_dtype dtype,
                          const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                          double *result)
{
    crtrig_window_spec spec = kind_spec(kind);
    if ((unsigned)kind >= CRTRIG_NUM_WINDOWS)
        return CRTRIG_EINVAL;
    return crtrig_window_spec_element(&spec, n, D, dtype, opt, counts, result);
}

/* The stage values, out of line (see window_fill). */
static CRTRIG_NOINLINE int stage_value(const crtrig_window_coef *c, const phase *ph, crtrig_stage stage,
                                       double *hi, double *lo)
{
    double mag;
    if (stage == CRTRIG_STAGE_DOUBLE) {
        double y = crtrig_sincospi_ratio_d(ph->use_cos, ph->a, ph->b);
        *hi = window_of_s_d(c, y * y, &mag);
        *lo = 0.0;
        return CRTRIG_OK;
    }
    if (stage == CRTRIG_STAGE_DOUBLE_DOUBLE) {
        dd_t y = crtrig_sincospi_ratio_dd(ph->use_cos, ph->a, ph->b);
        dd_t w = window_of_s_dd(c, dd_mul(y, y), &mag);
        *hi = w.hi;
        *lo = w.lo;
        return CRTRIG_OK;
    }
    return CRTRIG_EINVAL;
}

int crtrig_window_spec_stage_value(const crtrig_window_spec *spec, uint64_t n, uint64_t D,
                                   crtrig_stage stage, double *hi, double *lo)
{
    crtrig_window_coef coef;
    phase ph;
    crtrig_fpenv env;
    int rc;
    if (!spec || crtrig_window_coef_init(&coef, spec) != CRTRIG_OK || D == 0 ||
        D > (uint64_t)CRTRIG_WINDOW_MAX_SIZE || n > D)
        return CRTRIG_EINVAL;
    ph = fold_phase(n, D);
    if (ph.quarter >= 0)
        return CRTRIG_EINVAL;
    crtrig_fpenv_enter(&env);
    crtrig_window_coef_constants(&coef);
    rc = stage_value(&coef, &ph, stage, hi, lo);
    crtrig_fpenv_leave(&env, 0);
    return rc;
}

int crtrig_window_stage_value(crtrig_window_kind kind, uint64_t n, uint64_t D,
                              crtrig_stage stage, double *hi, double *lo)
{
    crtrig_window_spec spec = kind_spec(kind);
    if ((unsigned)kind >= CRTRIG_NUM_WINDOWS)
        return CRTRIG_EINVAL;
    return crtrig_window_spec_stage_value(&spec, n, D, stage, hi, lo);
}

/* ------------------------------------------------------------------------ */
/* Test hooks of the table pass (crtrig.h). */

/* The step the hooks use: a fill's for D/2 up to 2^26, else 1024 (any step gives
 * the same bound; a fill's would make the table too large to build per call). */
static uint64_t hook_step(uint64_t D)
{
    return D / 2 <= ((uint64_t)1 << 26) ? crtrig_sinpi_table_step(D / 2) : 1024;
}

int crtrig_window_spec_pass_target(int target, const crtrig_window_spec *spec, uint64_t first,
                                   uint64_t D, crtrig_dtype dtype, size_t count, char *out,
                                   unsigned char *undecided)
{
    const crtrig_target *t = crtrig_target_at(target);
    crtrig_window_coef coef;
    crtrig_sinpi_table table;
    crtrig_fpenv env;
    size_t width, i;
    int rc;
    if (!t || !spec || crtrig_window_coef_init(&coef, spec) != CRTRIG_OK || dtype > CRTRIG_FLOAT64 ||
        D < 1 || D > CRTRIG_SINPI_TABLE_MAX_D || first > D / 2 || count > D / 2 - first + 1)
        return CRTRIG_EINVAL;
    if (count == 0)
        return CRTRIG_OK;
    width = pass_width(dtype);
    crtrig_fpenv_enter(&env);
    crtrig_window_coef_constants(&coef);
    rc = crtrig_sinpi_table_init(&table, t, D, hook_step(D), first, first + count - 1);
    if (rc == CRTRIG_OK) {
        t->window_run[dtype](&coef, &table, first, count, out, NULL);
        crtrig_sinpi_table_free(&table);
    }
    crtrig_fpenv_leave(&env, 0);
    for (i = 0; i < count; i++)
        undecided[i] = rc == CRTRIG_OK && is_marked(dtype, out + width * i) ? 2 : 0;
    return rc;
}

int crtrig_window_pass_target(int target, crtrig_window_kind kind, uint64_t first, uint64_t D,
                              crtrig_dtype dtype, size_t count, char *out, unsigned char *undecided)
{
    crtrig_window_spec spec = kind_spec(kind);
    if ((unsigned)kind >= CRTRIG_NUM_WINDOWS)
        return CRTRIG_EINVAL;
    return crtrig_window_spec_pass_target(target, &spec, first, D, dtype, count, out, undecided);
}

int crtrig_window_spec_table_value_target(int target, const crtrig_window_spec *spec, uint64_t n,
                                          uint64_t D, uint64_t B, crtrig_dtype dtype, double *hi,
                                          double *lo, double *e, int *flag)
{
    const crtrig_target *t = crtrig_target_at(target);
    crtrig_window_coef coef;
    crtrig_sinpi_table table;
    crtrig_fpenv env;
    uint64_t r, a, c, k;
    int rc;
    if (!t || !spec || crtrig_window_coef_init(&coef, spec) != CRTRIG_OK || dtype > CRTRIG_FLOAT64 ||
        D < 1 || D > CRTRIG_SINPI_TABLE_MAX_D || n > D || B > ((uint64_t)1 << 31))
        return CRTRIG_EINVAL;
    r = n < D - n ? n : D - n;
    if (B == 0)
        B = hook_step(D);
    crtrig_fpenv_enter(&env);
    crtrig_window_coef_constants(&coef);
    rc = crtrig_sinpi_table_init(&table, t, D, B, r, r);
    if (rc == CRTRIG_OK) {
        a = r / B;
        c = r - a * B;
        k = a - table.a_first;
        if (dtype == CRTRIG_FLOAT64) {
            const double entries[8] = {table.coarse_sin_hi[k], table.coarse_sin_lo[k], table.coarse_cos_hi[k],
                                       table.coarse_cos_lo[k], table.fine_sin_hi[c], table.fine_sin_lo[c],
                                       table.fine_cos_hi[c], table.fine_cos_lo[c]};
            *flag = t->window64_value(&coef, entries, hi, lo, e);
        } else {
            *flag = t->window_value(&coef, (int)dtype, table.coarse_sin_hi[k], table.coarse_cos_hi[k],
                                    table.fine_sin_hi[c], table.fine_cos_hi[c], hi, e);
            *lo = 0.0;
        }
        crtrig_sinpi_table_free(&table);
    }
    crtrig_fpenv_leave(&env, 0);
    return rc;
}

int crtrig_window_table_value_target(int target, crtrig_window_kind kind, uint64_t n, uint64_t D,
                                     uint64_t B, crtrig_dtype dtype, double *hi, double *lo, double *e,
                                     int *flag)
{
    crtrig_window_spec spec = kind_spec(kind);
    if ((unsigned)kind >= CRTRIG_NUM_WINDOWS)
        return CRTRIG_EINVAL;
    return crtrig_window_spec_table_value_target(target, &spec, n, D, B, dtype, hi, lo, e, flag);
}

int crtrig_sinpi_table_build_target(int target, uint64_t m0, int64_t step, uint64_t M, size_t count,
                                    double *s_hi, double *s_lo, double *c_hi, double *c_lo)
{
    const crtrig_target *t = crtrig_target_at(target);
    crtrig_fpenv env;
    uint64_t span, magnitude = step < 0 ? (uint64_t)0 - (uint64_t)step : (uint64_t)step;
    if (!t || M < 1 || M > ((uint64_t)1 << 53) || count > ((size_t)1 << 31) || m0 > M / 4)
        return CRTRIG_EINVAL;
    if (count == 0)
        return CRTRIG_OK;
    /* every m = m0 + i step within [0, M/4]: the last one checked (m is monotone) */
    if (magnitude > M || (count > 1 && magnitude > M / (uint64_t)(count - 1)))
        return CRTRIG_EINVAL;
    span = magnitude * (uint64_t)(count - 1);
    if (step < 0 ? span > m0 : m0 + span > M / 4)
        return CRTRIG_EINVAL;
    crtrig_fpenv_enter(&env);
    t->sinpi_table((double)m0, (double)step, (double)M, count, s_hi, s_lo, c_hi, c_lo);
    crtrig_fpenv_leave(&env, 0);
    return CRTRIG_OK;
}

int crtrig_sinpi_ratio_dd_value(int use_cos, uint64_t a, uint64_t b, double *hi, double *lo)
{
    crtrig_fpenv env;
    dd_t v;
    if (b < 1 || b > ((uint64_t)1 << 54) || a > b / 4)
        return CRTRIG_EINVAL;
    crtrig_fpenv_enter(&env);
    v = crtrig_sincospi_ratio_dd(use_cos != 0, a, b);
    crtrig_fpenv_leave(&env, 0);
    *hi = v.hi;
    *lo = v.lo;
    return CRTRIG_OK;
}
