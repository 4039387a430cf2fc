/* The magnitudes the cosine-sum windows' rounding bounds are relative to (window_cosum.c's
 * top comment: A~ and A1~, Horner in double on |c|, every term >= 0), shared by the
 * double stage (window_cosum.c) and the double-double stage of every target
 * (cosum_pass.h): plain double operations, the same bits everywhere. */
#ifndef CRTRIG_COSUM_BOUNDS_H
#define CRTRIG_COSUM_BOUNDS_H

#include <math.h>
#include "crtrig/crtrig.h"

/* A~ = sum |q_hi_j| |c|^j in double (see the top comment). */
static inline double cosum_magnitude(const crtrig_cosum_spec *s, int deg, double c)
{
    double ac = fabs(c), m = fabs(s->poly_hi[deg]);
    int j;
    for (j = deg - 1; j >= 0; j--)
        m = m * ac + fabs(s->poly_hi[j]);
    return m;
}

/* A1~ = sum_j j |q_hi_j| |c|^(j-1) in double (the derivative's magnitude). */
static inline double cosum_slope(const crtrig_cosum_spec *s, int deg, double c)
{
    double ac = fabs(c), m = deg * fabs(s->poly_hi[deg]);
    int j;
    for (j = deg - 1; j >= 1; j--)
        m = m * ac + j * fabs(s->poly_hi[j]);
    return m;
}

#endif
