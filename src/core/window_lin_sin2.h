/* The float64 first pass of the windows w = K r + B sin^2(pi r/D) at the folded
 * phases r (internal): barthann, whose value at n is (12/25) m/N + (19/25)
 * sin^2(pi m/N) with m = min(n, N - n), N = L - 1 (crtrig._cosine_windows).  The
 * kernel is window64_pass.h's (kind CRTRIG_WINDOW_LIN_SIN2, its bound derived there);
 * what it leaves undecided the caller computes through the cosine-sum stages
 * (window_cosum.c), which also hold the termination argument. */
#ifndef CRTRIG_WINDOW_LIN_SIN2_H
#define CRTRIG_WINDOW_LIN_SIN2_H

#include <stddef.h>
#include <stdint.h>
#include "crtrig/crtrig.h"

/* out[r] = K r + B sin^2(pi r/D) correctly rounded to float64, r = 0 .. count - 1
 * (2 <= D <= 2^52, count <= D/2 + 1), or NaN where the rounding test fails
 * (*n_undecided counts those).  K = k_hi + k_lo > 0 and B = b_hi + b_lo >= 0 within
 * 2^-105 of the exact rationals (|lo| <= 2^-52 |hi|, k_hi >= 2^-54, b_hi 0 or >= 2^-64).
 * Computes under round-to-nearest whatever the caller's mode (fpenv.h); the table is
 * allocated before anything is written.  target: 0 baseline, 1 avx2, 2 avx512, -1 the
 * active one.  Returns CRTRIG_OK, CRTRIG_ENOMEM or CRTRIG_EINVAL (bad arguments, or a
 * target this build or CPU lacks). */
int crtrig_lin_sin2_fill_target(int target, uint64_t D, size_t count, double k_hi, double k_lo, double b_hi,
                                double b_lo, double *out, size_t *n_undecided);

#endif
