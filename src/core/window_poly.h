/* The three windows as polynomials in s = sin^2(pi n / D), evaluated in
 * double in the written order (the error bounds in window.c and
 * window_pass.h count these three roundings). */
#ifndef CRTRIG_WINDOW_POLY_H
#define CRTRIG_WINDOW_POLY_H

static inline double hann_of_s(double s) { return s; }
static inline double hamming_of_s(double s) { return (2.0 + 21.0 * s) / 23.0; }
static inline double blackman_of_s(double s) { return s * (9.0 + 16.0 * s) / 25.0; }

#endif
