/* scipy's Taylor window, correctly rounded (internal): the double-double stage.
 *
 * With L points (L = M, or M + 1 for scipy's periodic extension) and
 * j = L - 1 - 2n (element n of the first half, 0 <= j <= L - 1), scipy's
 * W(n) = 1 + 2 sum_m F_m cos(2 pi m (n - L/2 + 1/2)/L) is
 *   w = a_0 + sum_{m=1}^{K} a_m cos(pi m j/L)
 * with the real coefficients a_0 = 1, a_m = 2 F_m (norm=False) or the same divided
 * by W(centre) = 1 + 2 sum F_m (norm=True).  The caller (crtrig._taylor_window)
 * computes the a_m exactly (integer enclosures) and passes them as double-doubles
 * within 2^-105 |a_m|; what this stage leaves undecided it finishes exactly. */
#ifndef CRTRIG_WINDOW_TAYLOR_H
#define CRTRIG_WINDOW_TAYLOR_H

#include <stddef.h>
#include <stdint.h>
#include "crtrig/crtrig.h"

/* L is at most this (the sinpi table's limit, window_table.h). */
#define CRTRIG_TAYLOR_MAX_L ((uint64_t)1 << 52)
/* K = nbar - 1 is at most this. */
#define CRTRIG_TAYLOR_MAX_K 1023
/* sum_m |a_hi[m]| must stay below this (the rounding of the ends needs |x| < 2^15). */
#define CRTRIG_TAYLOR_MAX_SUM 16384.0

struct crtrig_sinpi_table;

/* One fill, as the per-target kernel taylor_range (taylor_pass.h) reads it: the
 * sinpi table of denominator L (step t->B = 2^shift), the K + 1 coefficients, the
 * bound e of the rounding test (window_taylor.c's top comment), the outputs. */
typedef struct crtrig_taylor_args {
    const struct crtrig_sinpi_table *t;
    int shift;
    uint64_t L;
    size_t K;
    const double *a_hi, *a_lo;
    double e;         /* (12 + K/2) 2^-103 S~ */
    int centre_one;
    crtrig_dtype fmt;
    double *out;
    unsigned char *undecided;
} crtrig_taylor_args;

/* out[n] = w at j = L - 1 - 2n correctly rounded into fmt (as the double of the same
 * value), n = 0 .. count - 1 (2 <= L <= 2^52, count <= (L + 1)/2, 0 <= K <= 1023,
 * a_hi/a_lo of K + 1 entries, sum |a_hi| < 2^14), or NaN and undecided[n] = 1 where
 * the stage cannot decide.  centre_one: the element at j = 0 (odd L) is exactly 1
 * (norm=True) and is stored as 1.  Returns CRTRIG_OK, CRTRIG_ENOMEM (nothing written)
 * or CRTRIG_EINVAL (nothing written). */
int crtrig_taylor_window_fill(uint64_t L, size_t count, size_t K, const double *a_hi, const double *a_lo,
                              int centre_one, crtrig_dtype fmt, double *out, unsigned char *undecided,
                              size_t *n_undecided);

/* crtrig_taylor_window_fill through the kernel of target index `target` (0 baseline,
 * 1 avx2, 2 avx512; -1: the active target), for the tests that compare targets:
 * CRTRIG_EINVAL also for a target this build or CPU lacks. */
int crtrig_taylor_window_fill_target(int target, uint64_t L, size_t count, size_t K, const double *a_hi,
                                     const double *a_lo, int centre_one, crtrig_dtype fmt, double *out,
                                     unsigned char *undecided, size_t *n_undecided);

#endif
