/* The Kaiser-Bessel-derived window, correctly rounded: the double-double stage
 * (internal).  With L = M/2 + 1 points of Kaiser's window, S_j = S(y_j) = I0(2
 * sqrt(y_j)), y_j = c j (L - 1 - j), c = beta^2/(L - 1)^2, and the prefix sums A_n =
 * S_0 + ... + S_n, B = A_(L-1):  w[n] = sqrt(A_n / B), n = 0 .. L - 2 (the rest of the
 * window is the mirror image; the normalisation 1/I0(beta) cancels).  The S_j come
 * from bessel_i0.c's table and the SIMD target's I0 kernel (kaiser_pass.h); what this
 * stage cannot decide the caller finishes exactly (crtrig._kbd_window, integers). */
#ifndef CRTRIG_WINDOW_KBD_H
#define CRTRIG_WINDOW_KBD_H

#include <stddef.h>
#include <stdint.h>
#include "crtrig/crtrig.h"

/* out[n] = w[n] correctly rounded into fmt (as the double of the same value), n = 0 ..
 * L - 2 (3 <= L <= 2^26), c = c_hi + c_lo within 2^-105 relative, c m_max <= 90001
 * (beta <= 600); or NaN and undecided[n] = 1 where the stage cannot decide.  Returns
 * CRTRIG_OK, CRTRIG_EINVAL (arguments; or c so small that the I0 table would
 * underflow: the caller's exact path then) or CRTRIG_ENOMEM (nothing decided). */
int crtrig_kbd_fill(double c_hi, double c_lo, uint64_t L, crtrig_dtype fmt, double *out, unsigned char *undecided,
                    size_t *n_undecided);

/* The same on SIMD target index `target` (-1: the active one).  Test hook. */
int crtrig_kbd_fill_target(int target, double c_hi, double c_lo, uint64_t L, crtrig_dtype fmt, double *out,
                           unsigned char *undecided, size_t *n_undecided);

#endif
