/* scipy's Lanczos (sinc) and Bohman windows, correctly rounded (internal).
 *
 * With L points and D = L - 1, element n of the first half (2n <= D) has
 * g = 2n/D in [0, 1] (scipy's |x| = 1 - g, x = 2n/D - 1):
 *   Lanczos  w = sinc(1 - g) = sin(pi g) / (pi (1 - g))        (w = 1 at g = 1)
 *   Bohman   w = (1 - |x|) cos(pi |x|) + sin(pi |x|)/pi
 *              = sin(pi g)/pi - g cos(pi g)                     (w = 0 at g = 0)
 * The double-double stage is here (window_sinc.c); what it cannot decide the
 * caller finishes exactly (crtrig._sinc_windows, integers). */
#ifndef CRTRIG_WINDOW_SINC_H
#define CRTRIG_WINDOW_SINC_H

#include <stddef.h>
#include <stdint.h>
#include "crtrig/crtrig.h"

#define CRTRIG_SINC_LANCZOS 0
#define CRTRIG_SINC_BOHMAN 1

struct crtrig_sinpi_table;

/* One fill, as the per-target kernel sinc_range (sinc_pass.h) reads it. */
typedef struct crtrig_sinc_args {
    const struct crtrig_sinpi_table *t;
    int shift;       /* t->B = 2^shift: r/B and r mod B without a division */
    int kind;
    uint64_t D;
    /* Lanczos: the coarse entries times D/pi, [a - a_first] as the table's (window_sinc.c). */
    const double *ks_hi, *ks_lo, *kc_hi, *kc_lo;
    crtrig_dtype fmt;
    double *out;
    unsigned char *undecided;
} crtrig_sinc_args;

/* 1/pi within 2^-106 (relative), and Bohman's series coefficients b_j = (-1)^j
 * (2j + 2) pi^(2j+2)/(2j + 3)!, j = 0 .. 9, each {RN(b_j), RN(b_j - hi)}
 * (window_sinc_coef.c; tools/gen_sinc_coeffs.py prints them). */
extern const double CRTRIG_SINC_INV_PI[2];
extern const double CRTRIG_BOHMAN_C[10][2];

/* D is at most this (the sinpi table's limit, window_table.h). */
#define CRTRIG_SINC_MAX_D ((uint64_t)1 << 52)

/* out[n] = w(2n/D) of `kind` correctly rounded into the float format fmt (as the
 * double of the same value), n = 0 .. count - 1 (1 <= D <= 2^52, count <= D/2 + 1),
 * or NaN and undecided[n] = 1 where the double-double stage cannot decide.
 * Returns CRTRIG_OK, CRTRIG_ENOMEM (nothing written) or CRTRIG_EINVAL. */
int crtrig_sinc_window_fill(int kind, uint64_t D, size_t count, crtrig_dtype fmt, double *out,
                            unsigned char *undecided, size_t *n_undecided);

/* crtrig_sinc_window_fill through the kernel of target index `target` (0 baseline,
 * 1 avx2, 2 avx512; -1: the active target), for the tests that compare targets:
 * CRTRIG_EINVAL also for a target this build or CPU lacks. */
int crtrig_sinc_window_fill_target(int target, int kind, uint64_t D, size_t count, crtrig_dtype fmt, double *out,
                                   unsigned char *undecided, size_t *n_undecided);

/* Test hook: the Bohman series coefficients {hi, lo} (index j of 10) and 1/pi (j = -1). */
int crtrig_test_sinc_constant(int j, double *hi, double *lo);

#endif
