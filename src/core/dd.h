/* Double-double arithmetic (internal header).
 *
 * A double-double (dd) value is an unevaluated sum hi + lo of two doubles with
 * |lo| <= ulp(hi)/2.  Everything here is plain C99 with no fused multiply-add:
 * the library is compiled with contraction off (-ffp-contract=off, MSVC
 * /fp:precise), so each operation below rounds exactly as written and the
 * error bounds quoted hold on every platform.  u = 2^-53 is the unit roundoff.
 *
 * Error-free transformations (exact, barring overflow, which cannot occur for
 * the magnitudes used in crtrig: all operands lie in [2^-120, 2^60]):
 *   dd_two_sum(a, b)      hi + lo == a + b exactly (Knuth).
 *   dd_fast_two_sum(a, b) hi + lo == a + b exactly, needs |a| >= |b| or a == 0 (Dekker).
 *   dd_two_prod(a, b)     hi + lo == a * b exactly (Dekker/Veltkamp split; no FMA,
 *                         which is a slow libm call on baseline x86-64).
 *   The split needs |a|,|b| < 2^995 and products above 2^-969 for exactness:
 *   all our operands satisfy this (see the magnitudes above).
 *
 * Rounding errors of the dd operations.  Published bounds (Joldes, Muller,
 * Popescu, "Tight and rigorous error bounds for basic building blocks of
 * double-word arithmetic", ACM TOMS 2017) are between 2u^2 and 7u^2 for the
 * variants below; crtrig's proofs only use the round number 8u^2 = 2^-103:
 *   dd_mul(a, b), dd_mul_d(a, d)   |err| <= 2^-103 |a b|
 *   dd_div_d(a, d)                 |err| <= 2^-103 |a / d|
 *   dd_add(a, b), dd_add_d(a, b)   |err| <= 2^-103 (|a| + |b|)   ("sloppy" add;
 *       callers only add operands of opposite signs when |b| <= |a|/4, so the
 *       result is at least (3/4)|a| and the relative error at most 2^-102.4.)
 * tests/test_window.py checks the end-to-end bounds built on these against mpmath.
 */
#ifndef CRTRIG_DD_H
#define CRTRIG_DD_H

#include <float.h>
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0 && FLT_EVAL_METHOD != -1
#error "crtrig needs double arithmetic evaluated in double (FLT_EVAL_METHOD 0), e.g. SSE2 on x86"
#endif

typedef struct { double hi, lo; } dd_t;

static inline dd_t dd_fast_two_sum(double a, double b)
{
    dd_t r;
    r.hi = a + b;
    r.lo = b - (r.hi - a);
    return r;
}

static inline dd_t dd_two_sum(double a, double b)
{
    dd_t r;
    double bb;
    r.hi = a + b;
    bb = r.hi - a;
    r.lo = (a - (r.hi - bb)) + (b - bb);
    return r;
}

/* Veltkamp split: a == hi + lo with hi, lo fitting in 26 bits each. */
static inline void dd_split(double a, double *hi, double *lo)
{
    const double veltkamp = 0x1.0000002p+27; /* 2^27 + 1 */
    double t = veltkamp * a;
    *hi = t - (t - a);
    *lo = a - *hi;
}

static inline dd_t dd_two_prod(double a, double b)
{
    dd_t r;
    double ah, al, bh, bl;
    r.hi = a * b;
    dd_split(a, &ah, &al);
    dd_split(b, &bh, &bl);
    r.lo = ((ah * bh - r.hi) + ah * bl + al * bh) + al * bl;
    return r;
}

static inline dd_t dd_make(double hi, double lo) { dd_t r; r.hi = hi; r.lo = lo; return r; }

static inline dd_t dd_add(dd_t a, dd_t b)
{
    dd_t s = dd_two_sum(a.hi, b.hi);
    return dd_fast_two_sum(s.hi, s.lo + (a.lo + b.lo));
}

/* Joldes, Muller and Popescu's AccurateDWPlusDW (Algorithm 6 of the paper
 * above): relative error <= 3u^2 / (1 - 4u) of the exact a + b, whatever the
 * signs (cancellation included).  Used where operands of opposite signs may
 * cancel (the general Hamming window, window.c). */
static inline dd_t dd_add_accurate(dd_t a, dd_t b)
{
    dd_t s = dd_two_sum(a.hi, b.hi), t = dd_two_sum(a.lo, b.lo);
    dd_t v = dd_fast_two_sum(s.hi, s.lo + t.hi);
    return dd_fast_two_sum(v.hi, t.lo + v.lo);
}

static inline dd_t dd_add_d(dd_t a, double b)
{
    dd_t s = dd_two_sum(a.hi, b);
    return dd_fast_two_sum(s.hi, s.lo + a.lo);
}

static inline dd_t dd_mul(dd_t a, dd_t b)
{
    dd_t p = dd_two_prod(a.hi, b.hi);
    return dd_fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

static inline dd_t dd_mul_d(dd_t a, double d)
{
    dd_t p = dd_two_prod(a.hi, d);
    return dd_fast_two_sum(p.hi, p.lo + a.lo * d);
}

static inline dd_t dd_div_d(dd_t a, double d)
{
    double q1 = a.hi / d;
    dd_t p = dd_two_prod(q1, d);
    double r = ((a.hi - p.hi) - p.lo) + a.lo;
    return dd_fast_two_sum(q1, r / d);
}

#endif
