/* sin(pi t) and cos(pi t) for |t| <= 1/4, in double and in double-double.
 * Used by the window generators (window.c, t = a/b from exact integers) and by
 * sin/cos (sincos.c, t from the exact range reduction in reduce.c).
 * The bounds below are derived for |t| <= 1/4; they hold unchanged (all margins
 * exceed 1e-3 relative) for the |t| <= 1/4 + 2^-28 that reduce.c can produce.
 * They are relative and hold for tiny t as long as nothing underflows: sin/cos
 * pass |t| >= 2^-150.7 (float32 inputs) or >= 2^-62.55 (float64 inputs, also
 * next to multiples of pi/2), windows |t| >= 2^-54; then every product formed
 * below stays above 2^-330 (the domains are derived in sincos.c).
 *
 * Approximation: the Taylor series in t,
 *   sin(pi t) = t * S(z),  S(z) = sum_k SINPI_C[k] z^k,  SINPI_C[k] = (-1)^k pi^(2k+1)/(2k+1)!
 *   cos(pi t) =     C(z),  C(z) = sum_k COSPI_C[k] z^k,  COSPI_C[k] = (-1)^k pi^(2k)/(2k)!
 * with z = t^2 in [0, 1/16].  Alternating with decreasing terms, so the
 * truncation error is below the first omitted term.  Useful facts on [0, 1/16]
 * (from the coefficients; tests/test_window.py checks the table against mpmath):
 *   S(z) >= pi (1 - 0.103) (|SINPI_C[1]| z <= pi^3/96 = 0.323 = 0.103 pi),
 *   C(z) >= cos(pi/4) = 0.707,
 *   |SINPI_C[k] z^k| / S(z) <= 0.115, 3.6e-3, 5.2e-5, 4.5e-7, 2.5e-9, 9.8e-12,
 *                              2.9e-14, 6.6e-17, 1.1e-19, ...  (k = 1, 2, ...)
 *   |COSPI_C[k] z^k| / C(z) <= 0.436, 0.0225, 4.6e-4, 5.1e-6, 3.5e-8, 1.6e-10,
 *                              5.5e-13, 1.5e-15, 2.9e-18, ..., 5.4e-30 (k = 13), 4e-33 (k = 14), 4e-36 (k = 15)
 * Each coefficient is stored as a double-double (hi, lo), hi = RN(c),
 * |hi + lo - c| <= 2^-106 |c| (tools/gen_sincospi_coeffs.py prints the table).
 * The tables are shared (sincospi.h) with the window tables' vectorized builder
 * (sinpi_table_pass.h), which repeats crtrig_sincospi_ratio_dd operation by operation.
 */
#include "sincospi.h"

const double CRTRIG_SINPI_C[14][2] = {
    {0x1.921fb54442d18p+1, 0x1.1a62633145c07p-53},   /* k=0 */
    {-0x1.4abbce625be53p+2, 0x1.05511c68476a8p-52},  /* k=1 */
    {0x1.466bc6775aae2p+1, -0x1.6dc0cbddb0fc3p-54},  /* k=2 */
    {-0x1.32d2cce62bd86p-1, 0x1.066847a026e69p-55},  /* k=3 */
    {0x1.50783487ee782p-4, -0x1.1be14e6e8854ap-58},  /* k=4 */
    {-0x1.e3074fde8871fp-8, -0x1.88ef203b0a336p-62}, /* k=5 */
    {0x1.e8f434d018d63p-12, 0x1.94682b2571263p-67},  /* k=6 */
    {-0x1.6fadb9f155744p-16, 0x1.bab97c50b4cd0p-70}, /* k=7 */
    {0x1.aaec32af93359p-21, 0x1.4fe55050e576ap-76},  /* k=8 */
    {-0x1.8a404211f9547p-26, -0x1.6d424c0620248p-84},/* k=9 */
    {0x1.2877020d52cf0p-31, -0x1.c9db31d99b9a3p-85}, /* k=10 */
    {-0x1.7215f879e1ac9p-37, 0x1.a2cc59fc2e3e8p-91}, /* k=11 */
    {0x1.859c594ba4573p-43, 0x1.46446588874ecp-98},  /* k=12 */
    {-0x1.5e91aac4928dbp-49, 0x1.36e8311afce96p-103},/* k=13 */
};

const double CRTRIG_COSPI_C[15][2] = {
    {0x1.0000000000000p+0, 0x0.0p+0},                /* k=0 */
    {-0x1.3bd3cc9be45dep+2, -0x1.692b71366cc04p-52}, /* k=1 */
    {0x1.03c1f081b5ac4p+2, -0x1.32b33f87fc145p-52},  /* k=2 */
    {-0x1.55d3c7e3cbffap+0, 0x1.d582920937625p-59},  /* k=3 */
    {0x1.e1f506891babbp-3, -0x1.7362f495c096dp-60},  /* k=4 */
    {-0x1.a6d1f2a204a8cp-6, 0x1.5961232276df6p-60},  /* k=5 */
    {0x1.f9d38a3763cc3p-10, -0x1.c8a14c8bd6bc5p-64}, /* k=6 */
    {-0x1.b6e24f44b128fp-14, -0x1.6de1e0a0c23b9p-69},/* k=7 */
    {0x1.20c62c2f2d7f5p-18, -0x1.5a3cd1a11c7a2p-72}, /* k=8 */
    {-0x1.2a0c591af8314p-23, -0x1.215803afbd5f8p-77},/* k=9 */
    {0x1.ef6e308d6d1c4p-29, -0x1.c5f7779fbdd48p-83}, /* k=10 */
    {-0x1.52ae4120fde27p-34, 0x1.76dd247cd9002p-88}, /* k=11 */
    {0x1.838d8f4321800p-40, -0x1.453680e7f5659p-96}, /* k=12 */
    {-0x1.789d662bb5482p-46, -0x1.01d70ae199b04p-104},/* k=13 */
    {0x1.3aab85bac2365p-52, -0x1.b618dab265a90p-107},/* k=14 */
};

/* Double evaluation.  u = 2^-53.  The row "t" is for the rounding of t itself
 * (t = RN(a/b) in the ratio form); the evaluation alone errs by the rest,
 * 3.72 u (sin) and 3.32 u (cos).
 *
 * Degrees: S up to k = 8 (omitted terms <= 1.1e-19 S = 0.001 u),
 *          C up to k = 9 (omitted terms <= 5e-21 C).
 * Error of y relative to the exact value (first-order terms; second-order
 * ones add less than 0.01 u):
 *                                                     sin          cos
 *   t = RN(a/b) = (a/b)(1 + d), |d| <= u; the function
 *     moves by x cot(x) |d| <= u, by x tan(x) |d| <= (pi/4) u    1.00 u      0.79 u
 *   z = RN(t^2), relative u: |z S'/S| u, |z C'/C| u               0.12 u      0.48 u
 *   coefficients rounded to double: u sum_k |c_k z^k| / value    1.24 u      0.47 u
 *     (k = 0 counts for S only: COSPI_C[0] = 1 is exact)
 *   Horner step 0, p = RN(RN(z p1) + c0): u |z p1| + u |p|       1.12 u      1.44 u
 *   Horner steps k >= 1, two roundings of ~|c_k| weighted by z^k  0.24 u      0.93 u
 *     (sin: 2 u 5.17 / 16 / (0.897 pi) = 0.23 u, the rest 0.01 u;
 *      cos: 2 u 4.94 / 16 / 0.707 = 0.87 u, the rest 0.06 u)
 *   final y = RN(t S)                                            1.00 u        -
 *   total                                                        4.72 u      4.11 u  (< 4.8 u)
 */
double crtrig_sincospi_d(int use_cos, double t)
{
    double z = t * t;
    double p;
    int k;
    if (use_cos) {
        p = CRTRIG_COSPI_C[9][0];
        for (k = 8; k >= 0; k--)
            p = p * z + CRTRIG_COSPI_C[k][0];
        return p;
    }
    p = CRTRIG_SINPI_C[8][0];
    for (k = 7; k >= 0; k--)
        p = p * z + CRTRIG_SINPI_C[k][0];
    return t * p;
}

double crtrig_sincospi_ratio_d(int use_cos, uint64_t a, uint64_t b)
{
    return crtrig_sincospi_d(use_cos, (double)a / (double)b);
}

/* Double-double evaluation.  e = 2^-103 bounds each dd operation (dd.h).
 *
 * The input t is taken as exact here; an error d (relative) in t moves sin(pi t)
 *   by at most d and cos(pi t) by at most (pi/4) d relative (row "t" below is
 *   for the 2^-105 of crtrig_sincospi_ratio_dd; sincos.c replaces it by the
 *   error of its own t: the evaluation alone errs by 3.03 e (sin), 3.37 e (cos)).
 * Tail in double: the terms k >= 8 of S (k >= 9 of C) are summed by a double
 *   Horner loop in z.hi with relative error <= 4u; they are at most 6.6e-17 S
 *   (2.9e-18 C), so they add <= 2^-105 (2^-109).
 * Degrees: S up to k = 13 (omitted <= 4e-35 relative), C up to k = 14 (<= 4e-36).
 * Error of the result relative to the exact value:
 *                                                        sin          cos
 *   t (propagated with factor <= 1, <= pi/4)             0.25 e       0.20 e
 *   double tail                                          0.25 e       0.02 e
 *   coefficients, 2^-106 sum_k |c_k z^k| / value          0.16 e       0.06 e
 *   z = dd_mul(t, t), moving S, C by |z S'/S|, |z C'/C|   0.12 e       0.48 e
 *   Horner step 0: dd_mul e|z p1|, dd_add e(|c0| + |z p1|) 1.35 e       2.29 e
 *     (sin: (0.115 + 1.115 + 0.115) e; cos: (0.308 + 1.308) e / 0.707)
 *   Horner steps k >= 1 (same, weighted by z^k)          0.15 e       0.52 e
 *   final dd_mul(t, S)                                   1.00 e         -
 *   total                                                3.28 e       3.57 e  (< 3.7 e)
 */
dd_t crtrig_sincospi_dd(int use_cos, dd_t t)
{
    const double (*c)[2] = use_cos ? CRTRIG_COSPI_C : CRTRIG_SINPI_C;
    const int last = use_cos ? 14 : 13;      /* highest degree kept */
    const int first_dd = use_cos ? 8 : 7;    /* degrees <= this are evaluated in dd */
    dd_t z = dd_mul(t, t);
    dd_t p;
    double tail = c[last][0];
    int k;

    for (k = last - 1; k > first_dd; k--)
        tail = tail * z.hi + c[k][0];
    p = dd_make(tail, 0.0);
    for (k = first_dd; k >= 0; k--)
        p = dd_add(dd_make(c[k][0], c[k][1]), dd_mul(z, p));
    return use_cos ? p : dd_mul(t, p);
}

dd_t crtrig_sincospi_ratio_dd(int use_cos, uint64_t a, uint64_t b)
{
    /* t = a/b as a dd: th = RN(a/b); a - th*b is exact (two_prod is exact and
     * a - prod.hi is exact by Sterbenz) but for the subtraction of prod.lo,
     * and tl = RN(r/b): relative error <= 2 u^2 = 2^-105. */
    double da = (double)a, db = (double)b;
    double th = da / db;
    dd_t prod = dd_two_prod(th, db);
    double tl = ((da - prod.hi) - prod.lo) / db;
    return crtrig_sincospi_dd(use_cos, dd_fast_two_sum(th, tl));
}
