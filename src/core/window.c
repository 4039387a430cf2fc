/* Cosine-sum windows (ONNX HannWindow, HammingWindow, BlackmanWindow, opset 17),
 * correctly rounded into every output type.
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
 *   first pass      eps = 2^-36, vectorized over blocks (window_pass.h; not for
 *                   float64 outputs); what it leaves undecided goes on below
 *   double          eps = 2^-47  (not for float64 outputs)
 *   double-double   eps = 2^-96
 *   multi-precision fixed point, 128 fraction bits, doubling until it decides.
 *
 * A fill (crtrig_window_ex) checks its arguments, including a stride that
 * would make elements overlap (the mirror copy past the middle would then
 * copy between overlapping bytes), asks the thread pool (threads.h) how many
 * threads take part, allocates a multi-precision workspace for each of them,
 * for the largest precision the loop can reach, before it writes anything
 * (so CRTRIG_ENOMEM leaves out untouched), and runs in round-to-nearest
 * between one fpenv.h switch and its restore (each worker thread switches
 * its own around its share).  Threads take chunks of whole blocks; every
 * element depends only on n and D, so the split changes no bit.
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
#include "threads.h"
#include "alloc.h"

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

/* w at s = i/4 as a fraction num/den. */
static void exact_point(crtrig_window_kind kind, int i, uint64_t *num, uint64_t *den)
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
 * all below 24u < 2^-48 (second-order terms included), and we use 2^-47. */
static double window_of_s_d(crtrig_window_kind kind, double s)
{
    switch (kind) {
    case CRTRIG_HANN:    return hann_of_s(s);
    case CRTRIG_HAMMING: return hamming_of_s(s);
    default:             return blackman_of_s(s);
    }
}

/* Double-double stage.  With e = 2^-103: y has relative error <= 3.7e
 * (sincospi.c); s = dd_mul(y, y): 2 (3.7e) + e = 8.4e;
 *   Hann 8.4e; Hamming 8.4e + 3e = 11.4e (mul_d, add_d of same signs, div_d);
 *   Blackman 1.64 * 8.4e + 3e = 16.8e (add_d, mul, div_d; 16 s exact)
 * all below 17e < 2^-98.9, and we use 2^-96. */
static dd_t window_of_s_dd(crtrig_window_kind kind, dd_t s)
{
    switch (kind) {
    case CRTRIG_HANN:
        return s;
    case CRTRIG_HAMMING:
        return dd_div_d(dd_add_d(dd_mul_d(s, 21.0), 2.0), 23.0);
    default:
        return dd_div_d(dd_mul(s, dd_add_d(dd_make(16.0 * s.hi, 16.0 * s.lo), 9.0)), 25.0);
    }
}

/* Multi-precision stage at one precision; w (user number 0) gets the value,
 * the return value bounds its error in ulps.  Ulp counts from mpfix.c:
 *   y: err_y (mpfix_sincospi_ratio); s = floor(y^2): 2 err_y + 2.
 *   Hamming: floor((21 s + 2) / 23): 21 err_s / 23 + 1 <= err_s + 1.
 *   Blackman: B = 16 s + 9 (error 16 err_s, B <= 25); floor(s B) has error
 *     <= 25 err_s + 16 err_s + 2 (the product of the two errors is < 1 ulp
 *     while err_s < 2^(F/2)); dividing by 25: (41 err_s + 2)/25 + 1 <= 2 err_s + 2. */
static uint64_t window_fixed(mpfix_ctx *ctx, crtrig_window_kind kind, const phase *ph)
{
    int n = ctx->n;
    uint32_t *w = mpfix_user(ctx, 0), *y = mpfix_user(ctx, 3), *s = mpfix_user(ctx, 4);
    uint64_t err_y = mpfix_sincospi_ratio(ctx, y, ph->use_cos, ph->a, ph->b);
    uint64_t err_s = 2 * err_y + 2;
    mpfix_mul(ctx, s, y, y);
    switch (kind) {
    case CRTRIG_HANN:
        mpfix_copy(w, s, n);
        return err_s;
    case CRTRIG_HAMMING:
        mpfix_copy(w, s, n);
        mpfix_mul_u32(w, n, 21);
        mpfix_add_int(w, n, 2);
        mpfix_div_u32(w, n, 23);
        return err_s + 1;
    default:
        mpfix_copy(y, s, n);  /* y becomes B = 16 s + 9 */
        mpfix_mul_u32(y, n, 16);
        mpfix_add_int(y, n, 9);
        mpfix_mul(ctx, w, s, y);
        mpfix_div_u32(w, n, 25);
        return 2 * err_s + 2;
    }
}

/* Ziv loop in fixed point, for an irrational point (ph->quarter < 0) or an
 * exact fraction num/den (then the error is below one ulp of truncation), in
 * the fill's workspace (allocated for MULTI_MAX_BITS before anything is
 * written; every precision the loop reaches is at most that). */
static int round_multi(crtrig_window_kind kind, const phase *ph, uint64_t num, uint64_t den,
                       crtrig_dtype fmt, int start_bits, mpfix_ctx *ctx,
                       crtrig_stage_counts *counts, double *result)
{
    int bits;
    for (bits = start_bits; bits <= MULTI_MAX_BITS; bits *= 2) {
        uint32_t *w, *lo, *hi, *err;
        int decided;
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
            mpfix_set_ulps_pow2(err, ctx->n, window_fixed(ctx, kind, ph), 0);
        }
        decided = mpfix_round_interval(ctx, w, err, lo, hi, fmt, result);
        if (decided)
            return CRTRIG_OK;
        if (counts)
            counts->multi_retries++;
    }
    return CRTRIG_ENOCONV;
}

/* The correctly rounded w[n] in the float format fmt, as a double. */
static int window_element(crtrig_window_kind kind, uint64_t n, uint64_t D, crtrig_dtype fmt,
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
    if (ph.quarter >= 0) {
        uint64_t num, den;
        exact_point(kind, ph.quarter, &num, &den);
        if (counts)
            counts->exact++;
        return round_multi(kind, &ph, num, den, fmt, MULTI_DEFAULT_BITS, workspace, NULL, result);
    }

    if (first_stage <= CRTRIG_STAGE_DOUBLE && fmt != CRTRIG_FLOAT64) {
        /* |w~ - w| <= 2^-47 w.  e = w~ 2^-46 (exact); RN(w~ +- e) are at least
         * w~ 2^-46 - ulp(w~)/2 >= w~ (2^-46 - 2^-53) away from w~, which covers
         * 2^-47 w <= 2^-47 w~ (1 + 2^-46).  So lo <= w <= hi. */
        double y = crtrig_sincospi_ratio_d(ph.use_cos, ph.a, ph.b);
        double w = window_of_s_d(kind, y * y);
        double e = w * 0x1p-46;
        double rlo = crtrig_round_double(w - e, fmt, &tie);
        double rhi = crtrig_round_double(w + e, fmt, &tie);
        if (rlo == rhi) {
            if (counts)
                counts->by_stage[CRTRIG_STAGE_DOUBLE]++;
            *result = rlo;
            return CRTRIG_OK;
        }
    }
    if (first_stage <= CRTRIG_STAGE_DOUBLE_DOUBLE) {
        /* |w~ - w| <= 2^-96 w.  e = w~.hi 2^-94; dd_add_d errs by at most
         * 2^-103 (w~ + e), so the endpoints lie at least w~ (2^-94 - 2^-102)
         * from w~, covering 2^-96 w.  Both are fast-two-sum outputs, as
         * crtrig_round_dd requires. */
        dd_t y = crtrig_sincospi_ratio_dd(ph.use_cos, ph.a, ph.b);
        dd_t w = window_of_s_dd(kind, dd_mul(y, y));
        double e = w.hi * 0x1p-94;
        dd_t lo = dd_add_d(w, -e), hi = dd_add_d(w, e);
        double rlo = crtrig_round_dd(lo.hi, lo.lo, fmt);
        double rhi = crtrig_round_dd(hi.hi, hi.lo, fmt);
        if (rlo == rhi) {
            if (counts)
                counts->by_stage[CRTRIG_STAGE_DOUBLE_DOUBLE]++;
            *result = rlo;
            return CRTRIG_OK;
        }
    }
    if (counts)
        counts->by_stage[CRTRIG_STAGE_MULTI]++;
    return round_multi(kind, &ph, 0, 0, fmt, multi_bits, workspace, counts, result);
}

/* Non-float64 outputs, normal operation: elements [lo, hi) (lo a multiple of
 * BLOCK), the SIMD first pass (window_pass.h) over blocks, the elements it
 * leaves undecided through window_element. */
static int window_blocks(const crtrig_target *target, crtrig_window_kind kind, uint64_t lo,
                         uint64_t hi, uint64_t D, crtrig_dtype dtype, crtrig_dtype fmt,
                         int multi_bits, mpfix_ctx *workspace, char *out, ptrdiff_t stride,
                         crtrig_stage_counts *counts)
{
    crtrig_window_pass_fn first_pass = target->window_pass[fmt];
    const ptrdiff_t width = fmt == CRTRIG_FLOAT32 ? 4 : 2;
    char values[4 * BLOCK];
    unsigned char undecided[BLOCK];
    uint64_t start;
    for (start = lo; start < hi; start += BLOCK) {
        size_t count = hi - start < BLOCK ? (size_t)(hi - start) : BLOCK, i;
        first_pass((int)kind, (double)start, (double)D, count, values, undecided);
        for (i = 0; i < count; i++) {
            double v;
            if (undecided[i]) {
                int rc = window_element(kind, start + i, D, fmt,
                                        undecided[i] == 2 ? CRTRIG_STAGE_DOUBLE_DOUBLE : CRTRIG_STAGE_DOUBLE,
                                        multi_bits, workspace, counts, &v);
                if (rc != CRTRIG_OK)
                    return rc;
            } else {
                v = crtrig_trig_load(fmt, values + width * (ptrdiff_t)i);
                if (counts)
                    counts->by_stage[CRTRIG_STAGE_DOUBLE]++;
            }
            crtrig_store(dtype, v, out + (ptrdiff_t)(start + i) * stride);
        }
    }
    return CRTRIG_OK;
}

/* What one fill shares among the threads that work on it. */
typedef struct fill_call {
    const crtrig_target *target;
    crtrig_window_kind kind;
    uint64_t D;
    crtrig_dtype dtype;
    int first_stage, multi_bits;
    char *out;
    ptrdiff_t stride;
    mpfix_ctx *workspaces;        /* one per participant, allocated before the fill */
    crtrig_stage_counts *counts;  /* the caller's counters, or NULL */
    uint64_t first;               /* the element of item 0 of the current job */
} fill_call;

/* Whether the fill goes through the SIMD first pass (window_blocks), which
 * computes every element, rather than element by element with mirroring. */
static int uses_blocks(const fill_call *f)
{
    return f->first_stage == CRTRIG_STAGE_DOUBLE && crtrig_compute_format(f->dtype) != CRTRIG_FLOAT64 &&
           f->D > 0;
}

/* Elements [lo, hi) of the fill, with one thread's workspace and counters.
 * The element path copies w[n] = w[D - n] past the middle (a distinct
 * element: the caller refused self-overlapping strides), so window_fill runs
 * it on the elements up to the middle first, and on the mirrored ones only
 * after all of those are written. */
static int fill_range(const fill_call *f, mpfix_ctx *workspace, crtrig_stage_counts *counts,
                      uint64_t lo, uint64_t hi)
{
    crtrig_dtype fmt = crtrig_compute_format(f->dtype);
    uint64_t n, D = f->D;
    if (uses_blocks(f))
        return window_blocks(f->target, f->kind, lo, hi, D, f->dtype, fmt, f->multi_bits, workspace,
                             f->out, f->stride, counts);
    for (n = lo; n < hi; n++) {
        double v;
        int rc;
        if (D > 0 && 2 * n > D) {
            memcpy(f->out + (ptrdiff_t)n * f->stride, f->out + (ptrdiff_t)(D - n) * f->stride,
                   ELEMENT_SIZE[f->dtype]);
            if (counts)
                counts->mirrored++;
            continue;
        }
        rc = window_element(f->kind, n, D, fmt, f->first_stage, f->multi_bits, workspace, counts, &v);
        if (rc != CRTRIG_OK)
            return rc;
        crtrig_store(f->dtype, v, f->out + (ptrdiff_t)n * f->stride);
    }
    return CRTRIG_OK;
}

static void add_counts(crtrig_stage_counts *total, const crtrig_stage_counts *part)
{
    total->exact += part->exact;
    total->by_stage[0] += part->by_stage[0];
    total->by_stage[1] += part->by_stage[1];
    total->by_stage[2] += part->by_stage[2];
    total->multi_retries += part->multi_retries;
    total->mirrored += part->mirrored;
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
    while (rc == CRTRIG_OK && crtrig_job_next(job, &lo, &hi))
        rc = fill_range(f, &f->workspaces[participant], f->counts ? &counts : NULL,
                        f->first + lo, f->first + hi);
    if (f->counts) {
        crtrig_job_lock(job);
        add_counts(f->counts, &counts);
        crtrig_job_unlock(job);
    }
    return rc;
}

/* The whole fill, out of line: the floating-point work between the
 * environment switches of crtrig_window_ex.  Arguments already checked,
 * size > 0, a workspace allocated for each participant.  The element path
 * runs as two jobs: the elements up to the middle, then their mirror images. */
static CRTRIG_NOINLINE int window_fill(fill_call *f, int participants, uint64_t size)
{
    uint64_t middle;
    int rc;
    f->first = 0;
    if (uses_blocks(f))
        return crtrig_threads_run(participants, (size_t)size, BLOCK, fill_share, f);
    middle = f->D == 0 || f->D / 2 + 1 >= size ? size : f->D / 2 + 1;  /* 2n <= D below it */
    rc = crtrig_threads_run(participants, (size_t)middle, BLOCK, fill_share, f);
    if (rc != CRTRIG_OK || middle == size)
        return rc;
    f->first = middle;
    return crtrig_threads_run(participants, (size_t)(size - middle), BLOCK, fill_share, f);
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

int crtrig_window_ex(crtrig_window_kind kind, int64_t size, int periodic,
                     crtrig_dtype dtype, char *out, ptrdiff_t stride,
                     const crtrig_eval_options *opt, crtrig_stage_counts *counts)
{
    const crtrig_target *target = (opt && opt->simd_target) ? crtrig_target_at(opt->simd_target - 1)
                                                            : crtrig_active_target();
    mpfix_ctx single;
    fill_call f;
    crtrig_fpenv env;
    ptrdiff_t width;
    int participants, rc;

    if ((unsigned)kind >= CRTRIG_NUM_WINDOWS || (unsigned)dtype >= CRTRIG_NUM_DTYPES ||
        size < 0 || size > CRTRIG_WINDOW_MAX_SIZE || !target)
        return CRTRIG_EINVAL;
    if ((uint64_t)size > (uint64_t)SIZE_MAX)
        return CRTRIG_EINVAL;  /* more elements than the address space holds (32-bit) */
    width = (ptrdiff_t)ELEMENT_SIZE[dtype];
    if (size > 1 && stride > -width && stride < width)
        return CRTRIG_EINVAL;  /* elements overlapping each other */
    if (size == 0)
        return CRTRIG_OK;
    f.target = target;
    f.kind = kind;
    f.D = periodic ? (uint64_t)size : (uint64_t)size - 1;
    f.dtype = dtype;
    f.first_stage = opt ? opt->first_stage : CRTRIG_STAGE_DOUBLE;
    f.multi_bits = (opt && opt->multi_start_bits > 0) ? opt->multi_start_bits : MULTI_DEFAULT_BITS;
    f.out = out;
    f.stride = stride;
    f.counts = counts;
    /* How many threads take part, then every workspace they can need, all
     * allocated before anything is written: a failure leaves out untouched. */
    participants = crtrig_threads_claim((size_t)size, BLOCK);
    f.workspaces = allocate_workspaces(participants, &single);
    if (!f.workspaces) {
        crtrig_threads_release(participants);
        return CRTRIG_ENOMEM;
    }
    crtrig_fpenv_enter(&env);
    rc = window_fill(&f, participants, (uint64_t)size);
    crtrig_fpenv_leave(&env, 0);
    free_workspaces(f.workspaces, participants, &single);
    crtrig_threads_release(participants);
    return rc;
}

int crtrig_window(crtrig_window_kind kind, int64_t size, int periodic,
                  crtrig_dtype dtype, char *out, ptrdiff_t stride)
{
    return crtrig_window_ex(kind, size, periodic, dtype, out, stride, NULL, NULL);
}

static CRTRIG_NOINLINE int window_element_hook(crtrig_window_kind kind, uint64_t n, uint64_t D,
                                               crtrig_dtype dtype, int first_stage, int multi_bits,
                                               mpfix_ctx *workspace, crtrig_stage_counts *counts,
                                               double *result)
{
    return window_element(kind, n, D, crtrig_compute_format(dtype), first_stage, multi_bits,
                          workspace, counts, result);
}

int crtrig_window_element(crtrig_window_kind kind, uint64_t n, uint64_t D, crtrig_dtype dtype,
                          const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                          double *result)
{
    int first_stage = opt ? opt->first_stage : CRTRIG_STAGE_DOUBLE;
    int multi_bits = (opt && opt->multi_start_bits > 0) ? opt->multi_start_bits : MULTI_DEFAULT_BITS;
    mpfix_ctx workspace;
    crtrig_fpenv env;
    int rc;
    if ((unsigned)kind >= CRTRIG_NUM_WINDOWS || (unsigned)dtype >= CRTRIG_NUM_DTYPES ||
        D > (uint64_t)CRTRIG_WINDOW_MAX_SIZE || n > D)
        return CRTRIG_EINVAL;
    if (mpfix_ctx_init(&workspace, MULTI_MAX_BITS) != 0)
        return CRTRIG_ENOMEM;
    crtrig_fpenv_enter(&env);
    rc = window_element_hook(kind, n, D, dtype, first_stage, multi_bits, &workspace, counts, result);
    crtrig_fpenv_leave(&env, 0);
    mpfix_ctx_free(&workspace);
    return rc;
}

/* The stage values, out of line (see window_fill). */
static CRTRIG_NOINLINE int stage_value(crtrig_window_kind kind, const phase *ph, crtrig_stage stage,
                                       double *hi, double *lo)
{
    if (stage == CRTRIG_STAGE_DOUBLE) {
        double y = crtrig_sincospi_ratio_d(ph->use_cos, ph->a, ph->b);
        *hi = window_of_s_d(kind, y * y);
        *lo = 0.0;
        return CRTRIG_OK;
    }
    if (stage == CRTRIG_STAGE_DOUBLE_DOUBLE) {
        dd_t y = crtrig_sincospi_ratio_dd(ph->use_cos, ph->a, ph->b);
        dd_t w = window_of_s_dd(kind, dd_mul(y, y));
        *hi = w.hi;
        *lo = w.lo;
        return CRTRIG_OK;
    }
    return CRTRIG_EINVAL;
}

int crtrig_window_stage_value(crtrig_window_kind kind, uint64_t n, uint64_t D,
                              crtrig_stage stage, double *hi, double *lo)
{
    phase ph;
    crtrig_fpenv env;
    int rc;
    if ((unsigned)kind >= CRTRIG_NUM_WINDOWS || D == 0 || D > (uint64_t)CRTRIG_WINDOW_MAX_SIZE || n > D)
        return CRTRIG_EINVAL;
    ph = fold_phase(n, D);
    if (ph.quarter >= 0)
        return CRTRIG_EINVAL;
    crtrig_fpenv_enter(&env);
    rc = stage_value(kind, &ph, stage, hi, lo);
    crtrig_fpenv_leave(&env, 0);
    return rc;
}
