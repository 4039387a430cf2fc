/* sin(pi a/b) and cos(pi a/b) for integers 0 < a/b <= 1/4 (internal). */
#ifndef CRTRIG_SINCOSPI_H
#define CRTRIG_SINCOSPI_H

#include <stdint.h>
#include "dd.h"

/* The Taylor coefficients of sin(pi t) = t sum_k SINPI_C[k] t^2k and cos(pi t) =
 * sum_k COSPI_C[k] t^2k as double-doubles {hi, lo} (sincospi.c). */
extern const double CRTRIG_SINPI_C[14][2];
extern const double CRTRIG_COSPI_C[15][2];

/* use_cos selects cos(pi t) instead of sin(pi t).  Bounds derived in sincospi.c. */

/* |t| <= 1/4 + 2^-28, t taken as exact: relative error < 3.8 u (u = 2^-53). */
double crtrig_sincospi_d(int use_cos, double t);
/* |t| <= 1/4 + 2^-28, t taken as exact: relative error < 3.6 * 2^-103. */
dd_t crtrig_sincospi_dd(int use_cos, dd_t t);

/* t = a/b with 1 <= a, 4a <= b <= 2^54 (a and b exact doubles), including the
 * error of forming t: relative error < 4.8 u (double), < 3.7 * 2^-103 (dd). */
double crtrig_sincospi_ratio_d(int use_cos, uint64_t a, uint64_t b);
dd_t crtrig_sincospi_ratio_dd(int use_cos, uint64_t a, uint64_t b);

#endif
