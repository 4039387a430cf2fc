/* The coefficients of a window fill (internal): which window, and for the
 * general Hamming window its parameter alpha = p/q, as exact integers and as
 * the double-double constants of its polynomial in s = sin^2(pi n/D):
 *
 *   w = alpha - (1 - alpha) cos(2 pi n/D) = c0 + c1 s,
 *   c0 = 2 alpha - 1 = (2p - q)/q,   c1 = 2 (1 - alpha) = 2 (q - p)/q,
 *
 * for 0 <= p <= q < 2^64, q >= 1 (0 <= alpha <= 1, so -1 <= c0 <= 1 and
 * 0 <= c1 <= 2; c0 + c1 = 1, the value at s = 1).  For alpha >= 1/2 both
 * coefficients are >= 0 and w >= c0 >= 0: no cancellation, as for the ONNX
 * windows.  For alpha < 1/2, c0 < 0 and w changes sign at s0 = -c0/c1 in
 * (0, 1/2]: every error bound of the general Hamming window is relative to
 * the terms' magnitude M = |c0| + c1 s (= w when alpha >= 1/2), and each
 * rounding test measures its interval in units of M, not of |w|, so that
 * elements near the root fail the test and go on to the next stage.
 *
 * Constants (window_coef.c): c0_hi + c0_lo and c1_hi + c1_lo are within
 * 2^-103 (relative) of c0 and c1, with |lo| <= ulp(hi)/2, and each hi is within
 * (1 + 2^-50) 2^-53 (relative) of the exact coefficient.  Either may be 0
 * exactly (alpha = 1/2, alpha = 1), never a denormal: a nonzero c0 or c1 is at
 * least 1/q > 2^-64.
 */
#ifndef CRTRIG_WINDOW_COEF_H
#define CRTRIG_WINDOW_COEF_H

#include <stdint.h>
#include "crtrig/crtrig.h"

/* An internal kind beside crtrig.h's four, for the float64 pass only (window64_pass.h):
 * w = K r + B s at the phase r, with c0 = K (= lin/D) and c1 = B double-double constants
 * (window_lin_sin2.c; barthann's folded form). */
#define CRTRIG_WINDOW_LIN_SIN2 4

typedef struct crtrig_window_coef {
    int kind;               /* CRTRIG_HANN, CRTRIG_HAMMING, CRTRIG_BLACKMAN, CRTRIG_GENERAL_HAMMING,
                               CRTRIG_WINDOW_LIN_SIN2 */
    int cancels;            /* general Hamming with alpha < 1/2 (c0 < 0) */
    uint64_t p, q;          /* alpha = p/q (general Hamming) */
    double c0_hi, c0_lo;    /* c0 = 2 alpha - 1 */
    double c1_hi, c1_lo;    /* c1 = 2 (1 - alpha) */
} crtrig_window_coef;

/* The kind and the integers of `spec` (the constants are 0 until
 * crtrig_window_coef_constants); CRTRIG_EINVAL for an unknown kind, or a general
 * Hamming alpha = p/q with q = 0 or p > q.  Integer work only: callers check
 * arguments with it before the floating-point environment switch. */
int crtrig_window_coef_init(crtrig_window_coef *c, const crtrig_window_spec *spec);

/* The double-double constants of a general Hamming window (a no-op for the other
 * kinds).  Their last additions round: call it in round-to-nearest, inside the
 * entry points' environment switch (fpenv.h). */
void crtrig_window_coef_constants(crtrig_window_coef *c);

/* The general Hamming window at s = i/4 (i = 0 .. 4, the points where s is
 * rational), w = ((4 - i) p + (i - 2) q) / (2q), correctly rounded into the
 * float format fmt (an exact rational rounding: w may be a rounding boundary),
 * as a double.  +0 where w = 0. */
double crtrig_general_hamming_exact(const crtrig_window_coef *c, int i, crtrig_dtype fmt);

#endif
