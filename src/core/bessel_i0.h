/* Kaiser's window, correctly rounded: I0(beta sqrt(1 - t^2)) / I0(beta) as one
 * quotient (internal).  With L points, t = 2n/(L - 1) - 1, the numerator's
 * argument enters only squared: (z/2)^2 = beta^2 n (L - 1 - n)/(L - 1)^2 = c m_n
 * with c = beta^2/(L - 1)^2 (an exact rational when beta is) and the integer
 * m_n = n (L - 1 - n); I0(z) = sum_k (z^2/4)^k/(k!)^2 needs no square root.
 * The double-double stage is here; what it cannot decide the caller finishes
 * exactly (crtrig._kaiser_window, integers). */
#ifndef CRTRIG_BESSEL_I0_H
#define CRTRIG_BESSEL_I0_H

#include <stddef.h>
#include <stdint.h>
#include "crtrig/crtrig.h"

/* The coefficients of S(y_n) = sum_{k<=K} b_k v_n^k (the kernels of kaiser_pass.h):
 * v_n = m_n / G exact (G the largest power of two <= m_max = max_n m_n, inv_G = 1/G),
 * b_k approximating (c G)^k/(k!)^2 within 18.02 k e^2 relative (e = 2^-53), |b_lo| <= e
 * |b_hi|, b_k >= 2^-400, and the terms after K below 2^-111.99 S(y_n) for every n
 * (bessel_i0.c derives both). */
typedef struct crtrig_i0_table {
    double *b_hi, *b_lo;
    int K;
    double inv_G;
    uint64_t L;
} crtrig_i0_table;

/* The most terms a table may have (the kernels' bounds assume K <= 2000). */
#define CRTRIG_I0_MAX_TERMS 2000

/* Build the table for c = c_hi + c_lo (relative error <= 2^-105, c m_max <= 90001,
 * c > 0) and 3 <= L <= 2^26, inside the caller's fpenv bracket.  CRTRIG_OK,
 * CRTRIG_EINVAL (arguments, or a table outside the bounds above) or CRTRIG_ENOMEM;
 * crtrig_i0_table_free after CRTRIG_OK. */
int crtrig_i0_table_init(crtrig_i0_table *t, double c_hi, double c_lo, uint64_t L);
void crtrig_i0_table_free(crtrig_i0_table *t);

/* beta is at most this (I0(beta) < 2^870: the series stays inside double's range). */
#define CRTRIG_KAISER_MAX_BETA 600.0

/* out[n] = I0(2 sqrt(c m_n)) / I0(beta) correctly rounded into fmt (as the double of
 * the same value), m_n = n (L - 1 - n), n = 0 .. count - 1 (count <= L, 3 <= L <=
 * 2^26), where c = c_hi + c_lo (|c - c_hi - c_lo| <= 2^-105 c, c m_n <= beta^2/4)
 * and inv = inv_hi + inv_lo approximates 1/I0(beta) within 2^-104 relative; or NaN
 * and undecided[n] = 1 where the double-double stage cannot decide.  Returns
 * CRTRIG_OK or CRTRIG_EINVAL. */
int crtrig_kaiser_fill(double c_hi, double c_lo, double inv_hi, double inv_lo, uint64_t L, size_t count,
                       crtrig_dtype fmt, double *out, unsigned char *undecided, size_t *n_undecided);

/* crtrig_kaiser_fill on SIMD target index `target` (0 baseline, 1 avx2, 2 avx512;
 * -1: the active one): CRTRIG_EINVAL if that target is not available.  Test hook. */
int crtrig_kaiser_fill_target(int target, double c_hi, double c_lo, double inv_hi, double inv_lo, uint64_t L,
                              size_t count, crtrig_dtype fmt, double *out, unsigned char *undecided,
                              size_t *n_undecided);

#endif
