/* The builder of the window tables (window_table.h), one source compiled once
 * per SIMD target (simd_*.c define CRTRIG_KERNEL_FMA first, kernel_dd.h).
 *
 * For i < count (count < 2^31) and m = m0 + i step (integers, 0 <= m <= M/4,
 * M <= 2^54, all exact doubles): s_hi[i] + s_lo[i] = sin(pi m/M) and
 * c_hi[i] + c_lo[i] = cos(pi m/M), each computed by exactly the floating-point
 * operations of
 * crtrig_sincospi_ratio_dd (sincospi.c, with dd.h's dd_mul, dd_add,
 * dd_two_sum and dd_fast_two_sum), in the same order, with the same
 * coefficients.  The only difference is the exact product: kd_two_prod uses
 * fma() where the target has it, Dekker's product elsewhere, and both give the
 * same two doubles (hi = RN(a b) and lo = a b - hi, exactly, as no product here
 * underflows: the operands are 0 or above 2^-110, dd.h).  So every entry is
 * crtrig_sincospi_ratio_dd(0 or 1, m, M) bit for bit, with its proven bound
 * |hi + lo - exact| <= 3.7 2^-103 exact for m >= 1 (sincospi.c; the domain
 * 1 <= m, 4m <= M <= 2^54 is what the callers pass), a fast-two-sum result
 * (hi = RN(hi + lo)); and for m = 0, t = 0 makes every product 0: sin is
 * exactly 0 and cos exactly 1 (COSPI_C[0] = {1, 0}).
 * tests/test_window_pass.py checks entries against the scalar function and
 * mpmath on every target.  The loop has no branch, so it vectorizes; the
 * Horner steps are written out. */
#include "kernel_dd.h"
#include "sincospi.h"

/* dd.h's dd_mul, dd_add (with a constant {ch, cl} first) and the ratio step. */
KD_INLINE kdd_t st_mul(kdd_t a, kdd_t b)
{
    kdd_t p = kd_two_prod(a.hi, b.hi);
    return kd_fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

KD_INLINE kdd_t st_add(const double *c, kdd_t b)
{
    kdd_t s = kd_two_sum(c[0], b.hi);
    return kd_fast_two_sum(s.hi, s.lo + (c[1] + b.lo));
}

KD_INLINE kdd_t st_ratio(double da, double db)
{
    double th = da / db;
    kdd_t prod = kd_two_prod(th, db);
    double tl = ((da - prod.hi) - prod.lo) / db;
    return kd_fast_two_sum(th, tl);
}

/* crtrig_sincospi_dd for sin and for cos of the same t (z = dd_mul(t, t) is the
 * same value in both): sin's tail k = 12 .. 8 in double and dd steps k = 7 .. 0,
 * cos's tail k = 13 .. 9 and dd steps k = 8 .. 0.  Two independent chains. */
KD_INLINE void st_sincospi(kdd_t t, kdd_t *sin_out, kdd_t *cos_out)
{
    const double (*cs)[2] = CRTRIG_SINPI_C, (*cc)[2] = CRTRIG_COSPI_C;
    kdd_t z = st_mul(t, t), p, q;
    double ts = cs[13][0], tc = cc[14][0];
    tc = tc * z.hi + cc[13][0];
    ts = ts * z.hi + cs[12][0];
    tc = tc * z.hi + cc[12][0];
    ts = ts * z.hi + cs[11][0];
    tc = tc * z.hi + cc[11][0];
    ts = ts * z.hi + cs[10][0];
    tc = tc * z.hi + cc[10][0];
    ts = ts * z.hi + cs[9][0];
    tc = tc * z.hi + cc[9][0];
    ts = ts * z.hi + cs[8][0];
    q = kd_make(tc, 0.0);
    q = st_add(cc[8], st_mul(z, q));
    p = kd_make(ts, 0.0);
    p = st_add(cs[7], st_mul(z, p));
    q = st_add(cc[7], st_mul(z, q));
    p = st_add(cs[6], st_mul(z, p));
    q = st_add(cc[6], st_mul(z, q));
    p = st_add(cs[5], st_mul(z, p));
    q = st_add(cc[5], st_mul(z, q));
    p = st_add(cs[4], st_mul(z, p));
    q = st_add(cc[4], st_mul(z, q));
    p = st_add(cs[3], st_mul(z, p));
    q = st_add(cc[3], st_mul(z, q));
    p = st_add(cs[2], st_mul(z, p));
    q = st_add(cc[2], st_mul(z, q));
    p = st_add(cs[1], st_mul(z, p));
    q = st_add(cc[1], st_mul(z, q));
    p = st_add(cs[0], st_mul(z, p));
    q = st_add(cc[0], st_mul(z, q));
    *sin_out = st_mul(t, p);
    *cos_out = q;
}

#if defined(__GNUC__) && !defined(__clang__)
#define ST_VECTORIZE __attribute__((optimize("tree-vectorize")))
#else
#define ST_VECTORIZE
#endif

/* sin(pi m/M) into s_hi, s_lo and cos(pi m/M) into c_hi, c_lo, m = m0 + i step. */
ST_VECTORIZE void CRTRIG_KERNEL(sinpi_table)(double m0, double step, double M, size_t count, double *s_hi,
                                             double *s_lo, double *c_hi, double *c_lo)
{
    size_t i;
    for (i = 0; i < count; i++) {
        kdd_t s, c;
        st_sincospi(st_ratio(m0 + step * (double)(int32_t)i, M), &s, &c);
        s_hi[i] = s.hi;
        s_lo[i] = s.lo;
        c_hi[i] = c.hi;
        c_lo[i] = c.lo;
    }
}
