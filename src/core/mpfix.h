/* Fixed-point multi-precision arithmetic for the last, rare stage of the Ziv
 * strategy (internal).  No MPFR at run time: plain C99 on 32-bit limbs.
 *
 * A number of n limbs is the unsigned integer N = sum_i x[i] 2^(32 i) read as
 * N / 2^F with F = 32 (n - 1): one integer limb, n - 1 fraction limbs.  An
 * "ulp" below is 2^-F.  Every operation truncates (rounds toward zero), so its
 * error is below one ulp; the error bounds callers carry are counts of ulps.
 */
#ifndef CRTRIG_MPFIX_H
#define CRTRIG_MPFIX_H

#include <stdint.h>
#include "crtrig/crtrig.h"

typedef struct mpfix_ctx {
    int n;            /* limbs per number at the current precision */
    int capacity;     /* limbs per number the pool was sized for: n <= capacity */
    uint32_t *pool;   /* scratch numbers, see mpfix_ctx_init; NULL before it */
} mpfix_ctx;

/* A workspace: scratch for the computations below at up to max_fraction_bits
 * of precision (rounded up to a multiple of 32), allocated once (alloc.h)
 * and reused at every precision up to that.  Its precision starts at the
 * maximum; mpfix_ctx_set_precision lowers or raises it.  Returns 0, or -1
 * when out of memory (then ctx->pool is NULL).  The pool is not zeroed: every
 * operation writes its result before anything reads it. */
enum { MPFIX_USER_NUMBERS = 8 };
/* Number i (0 <= i < MPFIX_USER_NUMBERS) of ctx->n limbs, free for the caller. */
uint32_t *mpfix_user(mpfix_ctx *ctx, int i);
int mpfix_ctx_init(mpfix_ctx *ctx, int max_fraction_bits);
/* Work at fraction_bits of precision from now on (the numbers of the workspace
 * are laid out again; their values are lost).  Returns 0, or -1 if that
 * exceeds the capacity (nothing changes then). */
int mpfix_ctx_set_precision(mpfix_ctx *ctx, int fraction_bits);
/* Free the pool (a no-op for a workspace never allocated or already freed). */
void mpfix_ctx_free(mpfix_ctx *ctx);

/* x = floor(a/b 2^F), for a/b < 2^32 and 1 <= b <= 2^62.  Error < 1 ulp. */
void mpfix_set_ratio(uint32_t *x, int n, uint64_t a, uint64_t b);

/* x = floor(a/b 2^F), for 0 <= a <= b and 1 <= b < 2^64.  Error < 1 ulp. */
void mpfix_set_ratio_u64(uint32_t *x, int n, uint64_t a, uint64_t b);
/* y = sin(pi a/b) (use_cos == 0) or cos(pi a/b), for 0 < a/b <= 1/4 and
 * b <= 2^62.  Returns a bound on |y - exact| in ulps (derived in mpfix.c).
 * y must have ctx->n limbs. */
uint64_t mpfix_sincospi_ratio(mpfix_ctx *ctx, uint32_t *y, int use_cos, uint64_t a, uint64_t b);

/* pi, with the returned bound on its error in ulps (Machin's formula).
 * Uses scratch numbers 1-3 (pi must be a user number). */
uint64_t mpfix_pi(mpfix_ctx *ctx, uint32_t *pi);

/* y = sin(x) or cos(x) for 0 <= x <= pi/4 + 2^-20 taken as exact; returns the
 * bound on the evaluation error in ulps.  Uses scratch numbers 3 and 4. */
uint64_t mpfix_sincos_fixed(mpfix_ctx *ctx, uint32_t *y, int use_cos, const uint32_t *x);

/* z = floor(x y / 2^F) (x, y < 2^16 so the result fits): error < 1 ulp. */
void mpfix_mul(mpfix_ctx *ctx, uint32_t *z, const uint32_t *x, const uint32_t *y);
void mpfix_mul_u32(uint32_t *x, int n, uint32_t m);       /* exact, no overflow allowed */
void mpfix_div_u32(uint32_t *x, int n, uint32_t d);       /* truncating: error < 1 ulp */
void mpfix_add(uint32_t *x, const uint32_t *y, int n);    /* x += y, exact */
void mpfix_add_int(uint32_t *x, int n, uint32_t k);       /* x += k (an integer), exact */
void mpfix_add_ulps(uint32_t *x, int n, uint64_t k);      /* x += k ulps, exact */
void mpfix_copy(uint32_t *x, const uint32_t *y, int n);
void mpfix_sub(uint32_t *x, const uint32_t *y, int n);     /* x -= y, for x >= y, exact */
void mpfix_sub_sat(uint32_t *x, const uint32_t *y, int n); /* x = max(x - y, 0), exact */
int mpfix_cmp(const uint32_t *x, const uint32_t *y, int n);
void mpfix_shr1(uint32_t *x, int n);                       /* x = floor(x / 2): error <= 1/2 ulp */
void mpfix_set_ulps_pow2(uint32_t *x, int n, uint64_t k, int shift); /* x = k 2^shift ulps */
void mpfix_set_int(uint32_t *x, int n, uint32_t k);        /* x = k */
/* x = x 2^k.  k <= 0: a right shift, truncating (error < 1 ulp).  k > 0: a left
 * shift, exact; refused (returns -1, x unchanged) when the result would reach
 * 2^24, so that sums of a few such numbers still fit the integer limb.
 * Returns 0 otherwise. */
int mpfix_shift(uint32_t *x, int n, int k);

/* N / 2^F rounded to nearest-even into the float format (subnormals
 * included), returned as the double of the same value.  Exact. */
double mpfix_round(const uint32_t *x, int n, crtrig_dtype float_fmt);

/* The Ziv test in fixed point: with err a bound on |value - exact| (both
 * numbers of ctx->n limbs), round value - err (saturating at 0) and value + err
 * into the float format; rounding is monotone, so if the two agree that is the
 * correctly rounded exact value: returns 1 and sets *result.  lo and hi are
 * scratch numbers. */
int mpfix_round_interval(const mpfix_ctx *ctx, const uint32_t *value, const uint32_t *err,
                         uint32_t *lo, uint32_t *hi, crtrig_dtype float_fmt, double *result);

#endif
