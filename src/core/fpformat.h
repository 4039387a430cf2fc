/* Floating-point output formats: correct rounding into them and storing (internal). */
#ifndef CRTRIG_FPFORMAT_H
#define CRTRIG_FPFORMAT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "crtrig/crtrig.h"
#include "dd.h"

/* The four float formats; integer outputs are computed in CRTRIG_FLOAT32. */
typedef struct crtrig_format {
    int precision;  /* significand bits, including the implicit one */
    int emin;       /* exponent of the smallest normal number */
} crtrig_format;

/* The float format whose correctly rounded value a dtype stores
 * (float32 for the integer dtypes, which are ONNX casts of float32). */
crtrig_dtype crtrig_compute_format(crtrig_dtype dtype);
const crtrig_format *crtrig_format_of(crtrig_dtype float_dtype);

/* Round the bits of a double in the normal range of the target (below 2^15)
 * to nearest-even, keeping 53 - dropped significant bits: add half a quantum
 * minus one plus the last kept bit and clear the dropped bits (a carry into
 * the exponent is the right result).  Used on its own by the SIMD first
 * passes, which inline it. */
static inline uint64_t crtrig_round_bits(uint64_t b, int dropped)
{
    uint64_t half = (uint64_t)1 << (dropped - 1);
    return (b + (half - 1) + ((b >> dropped) & 1u)) & ~((half << 1) - 1);
}

/* x rounded to nearest-even into the format (subnormals included), returned as
 * the double of the same value.  Needs |x| < 2^15 (no overflow handling: every
 * crtrig result has magnitude <= 1).  *tie is set when x was exactly halfway. */
double crtrig_round_double(double x, crtrig_dtype fmt, int *tie);

/* hi + lo rounded to nearest-even into the format, where hi == RN(hi + lo)
 * (the output of a fast two-sum satisfies this). */
double crtrig_round_dd(double hi, double lo, crtrig_dtype fmt);

/* Ziv's rounding test, shared by the per-element stages (sincos.c, trigpi.c):
 * y approximates the exact value with |y - exact| <= e, where e already covers
 * the rounding of the two ends y - e and y + e.  Both ends rounded into fmt; 1
 * and *result set when they agree (then the exact value rounds to *result),
 * else 0 (the caller goes on to a more accurate stage). */
int crtrig_decide_d(double y, double e, crtrig_dtype fmt, double *result);
/* The same for a double-double y.  The ends are formed by dd_add_d, whose error
 * is <= 2^-103 (|y| + e): the caller's e covers that.  crtrig_round_dd needs
 * |hi| >= 2^-1021 for float64 (its half gap is then exact). */
int crtrig_decide_dd(dd_t y, double e, crtrig_dtype fmt, double *result);

/* crtrig_decide_dd's float64 common case without its library calls: with |w - y| <= e,
 * y = hi + lo (hi = RN(hi + lo)), 2^-1000 <= |hi| = 2^E m (1 <= m < 2), the doubles
 * next to hi are 2^(E-52) away, but 2^(E-53) below |hi| when m = 1, so if |w - hi| <=
 * |lo| + e < T = 2^(E-53) (2^(E-54) when m = 1), half the gap on either side, then
 * RN(w) = hi (strictly inside: no tie).  The sum |lo| + e is compared rounded: RN(S) < T
 * implies S < T (T is a double and rounding is monotone).  1 and *result = hi, or 0
 * (then crtrig_decide_dd decides, or not).  Needs |hi| >= 2^-1000. */
static inline int crtrig_quick_decide64(dd_t y, double e, double *result)
{
    uint64_t bits, top;
    double scale;
    memcpy(&bits, &y.hi, sizeof bits);
    top = bits & 0x7ff0000000000000u;  /* 2^E */
    memcpy(&scale, &top, sizeof scale);
    scale *= (bits & 0x000fffffffffffffu) ? 0x1p-53 : 0x1p-54;  /* T: exact, |hi| >= 2^-1000 */
    if (!(fabs(y.lo) + e < scale))
        return 0;
    *result = y.hi;
    return 1;
}

/* One element of the window fills whose elements may stay undecided (exp windows,
 * KBD, Bohman/Lanczos, Taylor): *out = *r and *undecided = 0 when decided, else the
 * NaN placeholder and *undecided = 1, for the caller's exact fallback (*r is read
 * only when decided: an undecided stage may leave it unset).  Returns 1 for an
 * undecided element (the fills count them). */
static inline size_t crtrig_record_element(double *out, unsigned char *undecided, int decided, const double *r)
{
    *out = decided ? *r : NAN;
    *undecided = (unsigned char)!decided;
    return (size_t)!decided;
}

/* Store v into *p as dtype.  For a float dtype v must be exactly representable
 * in it (or NaN); for an integer dtype v is a float32 value and is truncated
 * toward zero, NaN giving 0 (ONNX Cast). */
void crtrig_store(crtrig_dtype dtype, double v, char *p);

#endif
