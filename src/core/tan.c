/* tan(x) and tanpi(x) = tan(pi x), correctly rounded into float64, float32,
 * bfloat16 or float16 (ONNX Tan-22; IEEE 754-2019 9.2 tanPi, C23 tanpi).  One
 * element at a time (the per-element stages, reached through crtrig_trig_value:
 * there is no SIMD first pass); compiled once, without FMA, for every target.
 *
 * Both are odd: computed on ax = |x|, the sign of x applied at the end.
 *
 * tan: the reduction of sin/cos (sincos.c, reduce.h) gives
 *   x (2/pi) = n + 2t,  |t| <= 1/4 + 2^-30,
 *   tan(x) = tan(pi t) = sin(pi t)/cos(pi t) for even n, -cos(pi t)/sin(pi t) for odd n,
 * from ONE reduction, both sin(pi t) and cos(pi t) of the same t.  tan(x) for a
 * double x != 0 is transcendental (Lindemann: tan of a nonzero algebraic number
 * is transcendental), never a rounding boundary, so every Ziv loop below ends; a
 * double is never a pole (tan x is finite: |x - k pi/2| >= 2^-60.9 for every
 * double, reduce.c), and |tan x| < 2^62 for every double.
 * tanpi: the exact reduction of sinpi (trigpi.c): ax = 2q + n/2 + t exactly,
 * |t| <= 1/4, and tan(pi ax) = tan(pi t) for even n, -cot(pi t) for odd n.
 * Exact points: t = 0 (a zero or a pole) and t = +-1/4 (+-1).  Otherwise
 * tan(pi t) is irrational (for rational t, tan(pi t) is rational only when it is
 * 0 or +-1, i.e. for t a multiple of 1/4: Niven-type theorem, via the algebraic
 * integer 2 cos(2 pi t) and tan^2 = (1 - cos 2a)/(1 + cos 2a)), never a rounding
 * boundary.  |tanpi(x)| < 2^53: for odd n, |m| >= 1/2 and t is a multiple of
 * ulp(m)/2 >= 2^-54, so |cot(pi t)| < 1/(pi |t|) (1 + 2^-50) < 2^53.
 *
 * Special values, bit for bit:
 *   tan(+-0) = +-0; tan(+-inf) = NaN with FE_INVALID; NaN -> NaN (quieted), no flag.
 *   tanpi(+-0) = +-0; tanpi(n) = +0 for positive even and negative odd integers
 *   n, -0 for positive odd and negative even n; tanpi(n + 1/2) = +inf for even
 *   n, -inf for odd n, with FE_DIVBYZERO (IEEE 754-2019 9.2.1; C23 F.10.1);
 *   tanpi(n +- 1/4) = +-1 exactly, tanpi(+-inf) = NaN with FE_INVALID.
 *   (The rule for integers and poles is tanpi(ax) for ax = |x| >= 0 --- +0 for
 *   even ax, -0 for odd, +inf at even + 1/2, -inf at odd + 1/2 --- made odd.)
 *   float16 tan: one input, +-177.5, has |tan| = 66347.4 above the overflow
 *   threshold 65520 (= 65504 + half its gap): +-inf with FE_OVERFLOW (numpy's
 *   np.tan on float16 gives the same).  No other format can overflow.
 * The flags are recorded in task->raise_flags; the entry point raises them in
 * the caller's environment after restoring it (fpenv.h).
 *
 * Stages (Ziv), each with a proven bound:
 *   tiny  float64 tan, ax < 2^-27: RN(tan x) = x (derived at TAN_IS_X_BELOW);
 *         float64 tanpi, ax < 2^-60: RN(pi ax) with a double-double bound
 *         (crtrig_trigpi_tiny, trigpi.c).
 *   0     double, float16/bfloat16/float32 only (float64 starts at stage 1):
 *         S and C from crtrig_sincospi_d, their quotient in double; bound
 *         derived at tan_double_value / tanpi_double_value (about 12u relative,
 *         u = 2^-53); crtrig_decide_d.
 *   1     double-double: S and C from crtrig_sincospi_dd, the quotient Q = S/C
 *         (or -C/S) by dd_div_dd below; |Q - f| <= 10.82 2^-103 |Q.hi| (tan),
 *         9.28 2^-103 |Q.hi| (tanpi); crtrig_decide_dd.
 *   2     fixed point (mpfix.c), without a division: for a candidate rounding
 *         boundary b (a midpoint of the format, an exact short number), |f| > b
 *         iff N - b D > 0 with N/D = |f| (N, D = sin, cos or cos, sin of the
 *         reduced argument, both positive); the sign of N 2^-E - (b 2^-E) D is
 *         certain once it exceeds the error bounds; the precision doubles
 *         until every needed sign is certain.  See fixed_ratio_round.
 */
#include <math.h>
#include <string.h>
#include "dd.h"
#include "fpenv.h"
#include "fpformat.h"
#include "mpfix.h"
#include "reduce.h"
#include "reduce_small.h"
#include "sincospi.h"
#include "tan.h"
#include "trigpi.h"

/* The fixed-point loop starts at the task's multi_bits (128 unless a test hook sets
 * it; at least 64 here, so that a boundary's 56-bit significand fits) and doubles up
 * to TAN_MULTI_MAX_BITS. */
enum { TAN_MULTI_MAX_BITS = 1 << 14 };
/* As sincos.c's MULTI_WORKSPACE_BITS: the reduction's precision is at most F + 1048
 * for F fraction bits (reduce.h). */
enum { TAN_MULTI_WORKSPACE_BITS = TAN_MULTI_MAX_BITS + 1024 + 24 };

/* As in sincos.c: |x| <= PI_OVER_4_BOUND uses t = x/pi with 1/pi as a
 * double-double, |INV_PI_HI + INV_PI_LO - 1/pi| <= 2^-107.3 (1/pi). */
static const double PI_OVER_4_BOUND = 0x1.921fb4p-1;
static const double INV_PI_HI = 0x1.45f306dc9c883p-2, INV_PI_LO = -0x1.6b01ec5417056p-56;

/* Tiny float64 tan: RN(tan x) = x for 0 < |x| < 2^-27.  For 0 < x < 2^-27,
 * x < tan x < x + (x^3/3)(1 + x^2) (the series x + x^3/3 + 2x^5/15 + ... has
 * positive terms, each ratio below x^2 for x < 1/2).  With x in [2^e, 2^(e+1)),
 * e <= -28, the gap above x is at least 2^(e-52) (subnormals: 2^-1074, larger
 * than 2^(e-52)), half of it 2^(e-53), and x^3/3 (1 + x^2) < 2^(3e+3)/3 (1.01)
 * <= 2^(e-53) iff 2^(2e+56) 1.01 <= 3, true for e <= -28.  tan x - x is below
 * half the gap above x and positive: RN(tan x) = x (odd: the same below 0). */
static const double TAN_IS_X_BELOW = 0x1p-27;

/* Largest finite value of each float format (float16 is the one tan reaches). */
static double format_max(crtrig_dtype fmt)
{
    switch (fmt) {
    case CRTRIG_FLOAT16: return 0x1.ffcp15;
    case CRTRIG_BFLOAT16: return 0x1.fep127;
    case CRTRIG_FLOAT32: return 0x1.fffffep127;
    default: return 0x1.fffffffffffffp1023;
    }
}

/* ------------------------------------------------------------------------ */
/* Double stage (float32 values: float16, bfloat16 and float32 outputs).     */

/* tan, ax a float32 value, 2^-149 <= ax <= the largest float32.  The reduction
 * of sincos.c's stage 0 gives t with |t - t*| <= u |t*| (1 + 2^-50) + A, A = ax
 * 2^-83 (Cody-Waite, ax < 2^24: reduce_small.h) or A = 2^-103 (Payne-Hanek's t
 * rounded to double: relative u + 2^-105, absolute 2^-201.9; sincos.c).
 * Refused (returns 0) unless A <= |t|/8, so |t*| >= |t| (1 - 2^-52) - A >= 0.87
 * |t|.  S = crtrig_sincospi_d(0, t), C = crtrig_sincospi_d(1, t) err by 3.72u and
 * 3.32u relative for t taken as exact (sincospi.c, as trigpi.c uses them); moving
 * t to t* moves log sin(pi t) by <= |t - t*|/|t*| (pi t cot(pi t) <= 1) and log
 * cos(pi t) by <= pi |t - t*| (pi tan(pi t) <= pi for |t| <= 1/4 + 2^-30, tan
 * there < 1.0001): relative u + A/|t*| and (pi/4)(1.0001) u + pi A.  The quotient
 * y = RN(S/C) (or -RN(C/S): the same bound, 1/(1 + d) = 1 - d + ...) adds u.
 * Sum, second-order terms (< 0.01u) included:
 *   |y - f| <= |f| (9.84u + A/|t*| + pi A) <= |y| (9.86u + 1.15 A/|t| + 3.15 A).
 * crtrig_decide_d rounds y -+ e, each end within u (|y| + e) of its exact value:
 * e = |y| (12u + 1.2 A/|t| + 3.2 A) covers 9.86u + 1.01u and the few roundings
 * in forming e itself (each <= u of e).  |y| >= 2^-151 (|S| >= 2.8 |t|, |t| >=
 * 2^-150.7): no underflow in e for the 2^-149 and larger results it decides. */
static int tan_double_value(double ax, double *y, double *e)
{
    int quadrant;
    double t, A, S, C, at;
    if (ax < 0x1p24) {
        uint64_t n_bits;
        t = crtrig_reduce_small(ax, &n_bits);
        quadrant = (int)(n_bits & 3u);
        A = ax * 0x1p-83;
    } else {
        t = crtrig_reduce_large_dd(ax, &quadrant).hi;
        A = 0x1p-103;
    }
    at = fabs(t);
    if (!(A <= 0.125 * at))
        return 0;
    S = crtrig_sincospi_d(0, t);
    C = crtrig_sincospi_d(1, t);
    *y = (quadrant & 1) ? -(C / S) : S / C;
    *e = fabs(*y) * (0x1.8p-50 + 1.2 * (A / at) + 3.2 * A);
    return 1;
}

/* tanpi, t exact, 2^-149 <= |t| <= 1/4, not +-1/4: as above with A = 0 and no
 * relative error of t: |y - f| <= |y| (3.72u + 3.32u + u + 0.01u) <= 8.1u |y|,
 * and e = |y| 12u covers it with the ends' roundings (1.01u). */
static double tanpi_double_value(int k, double t, double *e)
{
    double S = crtrig_sincospi_d(0, t), C = crtrig_sincospi_d(1, t);
    double y = (k & 1) ? -(C / S) : S / C;
    *e = fabs(y) * 0x1.8p-50;
    return y;
}

/* ------------------------------------------------------------------------ */
/* Double-double stage.                                                     */

/* The quotient a/b of double-doubles (internal to this file), b.hi != 0.
 * With e = 2^-103 (dd.h's bound for dd_div_d and dd_add_d) and u = 2^-53
 * (u^2 = e/8), eps = b.lo/b.hi (|eps| <= u: |b.lo| <= ulp(b.hi)/2):
 *   a/b = (a/b.hi) (1 - eps + eps^2/(1 + eps)).
 *   q0 = dd_div_d(a, b.hi):              |q0 - a/b.hi| <= e |a/b.hi|
 *   the eps^2 term dropped:              <= u^2 (1 + u) |a/b.hi| <= 0.126 e |a/b.hi|
 *   corr = RN(q0.hi RN(eps)) against (a/b.hi) eps: q0.hi = (a/b.hi)(1 + th),
 *     |th| <= u + e; RN(eps) and the product round by <= u each:
 *     |corr - (a/b.hi) eps| <= |a/b.hi| |eps| (3u + 2u^2) <= 0.377 e |a/b.hi|
 *     (an eps below 2^-1022, only if b.lo cancelled to nothing, errs by
 *     < 2^-1074 absolute times |q0.hi| <= 2^62: far inside this)
 *   dd_add_d(q0, -corr):                 <= e (|q0| + |corr|) <= 1.001 e |a/b.hi|
 *     (|corr| <= 2u |q0|: the dd.h condition on opposite signs holds)
 * Sum: 2.504 e |a/b.hi| <= 2.51 e |a/b| (|a/b.hi| <= |a/b| (1 + u)).
 * Domains: |a|, |b| in [2^-160, 2], quotients in [2^-160, 2^63]: every two_prod
 * of dd_div_d (q1 d, about |a|) is above 2^-969 and its operands below 2^995. */
static dd_t dd_div_dd(dd_t a, dd_t b)
{
    dd_t q0 = dd_div_d(a, b.hi);
    double corr = q0.hi * (b.lo / b.hi);
    return dd_add_d(q0, -corr);
}

/* tan: ax with 2^-149 <= ax < 2^1024 (float32 values: ax >= 2^-149; float64:
 * ax >= 2^-27 after the shortcut).  The reduction as sincos.c's stage 1:
 *   |x| <= pi/4: t = dd_mul_d(1/pi, ax), quadrant 0 (relative error of t <= 1.05 e);
 *   otherwise Payne-Hanek (relative error of t <= 0.252 e, every double).
 * sincos.c derives, for this very t, |S - sin(pi t)| <= 4.08 e |sin(pi t)| and
 * |C - cos(pi t)| <= 4.20 e |cos(pi t)| (crtrig_sincospi_dd's 3.03 e, 3.37 e plus
 * the error of t, which moves sin(pi t) by <= d and cos(pi t) by <= (pi/4) d
 * relative; the Payne-Hanek rows are smaller: 3.29 e, 3.57 e).  cos(pi t) > 0.7
 * (|t| <= 1/4 + 2^-30).  Then for N/D = S/C (even quadrant) or C/S (odd), with
 * f = |N* / D*| = |tan x|:
 *   |N/D - N* / D*| <= f ((1 + 4.08 e)/(1 - 4.20 e) - 1) <= 8.29 e f,
 *   dd_div_dd: 2.51 e |N/D| <= 2.51 e f (1 + 8.3 e),
 * so |Q - f| <= 10.81 e f <= 10.82 e |Q.hi| (f <= |Q| (1 + 11 e), |Q| <= |Q.hi| (1 + u)).
 * The ends Q -+ e' with e' = |Q.hi| 2^-99 = 16 e |Q.hi| cover that and the two
 * dd_add_d of crtrig_decide_dd (2^-103 (|Q| + e') <= 1.01 e |Q.hi|): 11.83 e < 16 e.
 * |Q.hi| >= 2^-27 for float64 (tan x > x): crtrig_round_dd's condition holds.
 * Magnitudes: |S| >= 2^-151 (narrow formats) or >= 2^-62 (float64; |t| >=
 * 2^-62.55, sincos.c), |S|, |C| <= 1, |Q| < 2^63: dd_div_dd's domain. */
static dd_t tan_dd_value(double ax, int *odd)
{
    int quadrant = 0;
    dd_t t, S, C;
    if (ax <= PI_OVER_4_BOUND)
        t = dd_mul_d(dd_make(INV_PI_HI, INV_PI_LO), ax);
    else
        t = crtrig_reduce_large_dd(ax, &quadrant);
    S = crtrig_sincospi_dd(0, t);
    C = crtrig_sincospi_dd(1, t);
    *odd = quadrant & 1;
    if (quadrant & 1) {  /* tan = -cos(pi t)/sin(pi t) */
        dd_t Q = dd_div_dd(C, S);
        Q.hi = -Q.hi;
        Q.lo = -Q.lo;
        return Q;
    }
    return dd_div_dd(S, C);
}

/* tanpi: t exact, 2^-149 <= |t| <= 1/4 (float64: |t| >= 2^-60), t not +-1/4.
 * crtrig_sincospi_dd errs by 3.03 e (sin) and 3.37 e (cos) relative for exact t
 * (sincospi.c), so |N/D - f| <= f ((1 + 3.37 e)/(1 - 3.37 e) - 1) <= 6.75 e f
 * (taking the larger for both), plus dd_div_dd's 2.51 e: |Q - f| <= 9.27 e f <=
 * 9.28 e |Q.hi|, and e' = |Q.hi| 2^-99 = 16 e |Q.hi| covers it with the ends'
 * roundings (10.3 e).  |Q.hi| >= 2.8 2^-149 (narrow formats), >= 2^-59 (float64):
 * crtrig_round_dd's condition holds; dd_div_dd's domain as for tan. */
static dd_t tanpi_dd_value(int k, double t)
{
    dd_t tt = dd_make(t, 0.0);
    dd_t S = crtrig_sincospi_dd(0, tt), C = crtrig_sincospi_dd(1, tt);
    if (k & 1) {
        dd_t Q = dd_div_dd(C, S);
        Q.hi = -Q.hi;
        Q.lo = -Q.lo;
        return Q;
    }
    return dd_div_dd(S, C);
}

/* ------------------------------------------------------------------------ */
/* Fixed-point stage.                                                       */

/* A double r >= 0 of format fmt as m 2^Q: m an integer, 0 <= m < 2^p, and Q the
 * exponent of the quantum at r (Q = max(exponent(r), emin) - p + 1). */
static void format_decompose(double r, const crtrig_format *f, uint64_t *m, int *Q)
{
    int e;
    if (r == 0.0) {
        *m = 0;
        *Q = f->emin - f->precision + 1;
        return;
    }
    (void)frexp(r, &e);  /* r = g 2^e, 1/2 <= g < 1: exponent(r) = e - 1 */
    e -= 1;
    if (e < f->emin)
        e = f->emin;
    *Q = e - f->precision + 1;
    *m = (uint64_t)ldexp(r, -*Q);  /* exact: r is a value of the format */
}

static int bit_length(uint64_t v)
{
    int k = 0;
    while (v) {
        k++;
        v >>= 1;
    }
    return k;
}

/* The numbers of the sign test (user numbers of the workspace). */
typedef struct ratio_operands {
    const uint32_t *N, *eN, *D, *eD;  /* N*, D* > 0 within eN, eD ulps of N, D */
    uint32_t *beta, *A, *B, *err;     /* scratch */
} ratio_operands;

/* The sign of N* - b D* (D* > 0), b = M 2^E with 1 <= M < 2^56: +1, -1, or 0 when
 * not certain at this precision (F = 32 (n - 1) >= 128 fraction bits).
 * With k the bit length of M, b = beta 2^E', beta = M 2^-(k-1) in [1, 2) (exact
 * at F >= 55 bits), E' = E + k - 1, and sign(N* - b D*) = sign(A* - B*) with
 * A* = N* 2^-E', B* = beta D*.
 *   A = N 2^-E':  E' >= 0: a truncating right shift, |A - A*| <= eN 2^-E' + 1 <= eN + 1;
 *                 E' < 0: an exact left shift, |A - A*| <= eN 2^-E' (refused by
 *                 mpfix_shift, i.e. not certain, when a shifted number would reach
 *                 2^24: everything below then stays under 2^26).
 *   B = mpfix_mul(beta, D): |B - B*| <= beta eD + 1 < 2 eD + 1.
 *   err = errA + 2 eD + 2 >= |A - A*| + |B - B*|.
 * A > B + err gives A* > B*; A + err < B gives A* < B*. */
static int ratio_sign(mpfix_ctx *ctx, const ratio_operands *op, uint64_t M, int E)
{
    const int n = ctx->n, F = 32 * (n - 1);
    const int k = bit_length(M), Ep = E + k - 1;
    int sign = 0;
    mpfix_set_ulps_pow2(op->beta, n, M, F - (k - 1));
    mpfix_mul(ctx, op->B, op->beta, op->D);
    mpfix_copy(op->A, op->N, n);
    mpfix_copy(op->err, op->eN, n);
    if (Ep >= 0) {
        mpfix_shift(op->A, n, -Ep);
        mpfix_add_ulps(op->err, n, 1);
    } else if (mpfix_shift(op->A, n, -Ep) != 0 || mpfix_shift(op->err, n, -Ep) != 0) {
        return 0;
    }
    mpfix_add(op->err, op->eD, n);
    mpfix_add(op->err, op->eD, n);
    mpfix_add_ulps(op->err, n, 2);
    mpfix_add(op->B, op->err, n);        /* B + err */
    if (mpfix_cmp(op->A, op->B, n) > 0)
        sign = 1;
    mpfix_sub(op->B, op->err, n);        /* B again (exact) */
    mpfix_add(op->A, op->err, n);        /* A + err */
    if (mpfix_cmp(op->A, op->B, n) < 0)
        sign = -1;
    return sign;
}

/* RN_fmt(v) for v = N* / D* > 0, never a rounding boundary, with N, D and their
 * bounds in op.  A candidate r from the doubles of N and D (any candidate would
 * do: each step is proven), then the two boundaries next to r: if v lies above
 * the one above, r moves up; below the one below, down; between them, r is the
 * answer.  Boundaries of RN: the midpoint (2m + 1) 2^(Q-1) above r = m 2^Q, the
 * one below (2m - 1) 2^(Q-1), or (4m - 1) 2^(Q-2) when r is a power of two above
 * the subnormal range (its lower neighbour is half as far); none below r = 0
 * (v > 0).  Above the largest finite value the boundary is the overflow
 * threshold max + half its gap, and v above it rounds to inf (*overflow set).
 * Returns 1 with *result set, or 0 when a sign is not certain at this precision
 * (or, not seen, after 8 steps: then too the caller doubles the precision). */
static int fixed_ratio_round(mpfix_ctx *ctx, const ratio_operands *op, crtrig_dtype fmt,
                             double *result, int *overflow)
{
    const crtrig_format *f = crtrig_format_of(fmt);
    const double max = format_max(fmt);
    const int Qmin = f->emin - f->precision + 1;
    double nd = mpfix_round(op->N, ctx->n, CRTRIG_FLOAT64);
    double dn = mpfix_round(op->D, ctx->n, CRTRIG_FLOAT64);
    double r, q;
    int tie, steps;
    if (nd == 0.0 || dn == 0.0)
        return 0;
    q = nd / dn;
    r = (q >= max) ? max : crtrig_round_double(q, fmt, &tie);
    if (r > max)
        r = max;
    for (steps = 0; steps < 8; steps++) {
        uint64_t m;
        int Q, s;
        format_decompose(r, f, &m, &Q);
        s = ratio_sign(ctx, op, 2 * m + 1, Q - 1);
        if (s == 0)
            return 0;
        if (s > 0) {
            if (r == max) {
                *result = HUGE_VAL;
                *overflow = 1;
                return 1;
            }
            r = ldexp((double)(m + 1), Q);
            continue;
        }
        if (m > 0) {
            int power = m == ((uint64_t)1 << (f->precision - 1)) && Q > Qmin;
            s = power ? ratio_sign(ctx, op, 4 * m - 1, Q - 2) : ratio_sign(ctx, op, 2 * m - 1, Q - 1);
            if (s == 0)
                return 0;
            if (s < 0) {
                r = power ? r - ldexp(1.0, Q - 1) : ldexp((double)(m - 1), Q);
                continue;
            }
        }
        *result = r;
        return 1;
    }
    return 0;
}

static int workspace_ready(mpfix_ctx *ctx, int fraction_bits)
{
    if (ctx->pool && mpfix_ctx_set_precision(ctx, fraction_bits) == 0)
        return 0;
    mpfix_ctx_free(ctx);  /* none yet (or, not seen, a smaller one) */
    if (mpfix_ctx_init(ctx, TAN_MULTI_WORKSPACE_BITS) != 0)
        return CRTRIG_ENOMEM;
    return mpfix_ctx_set_precision(ctx, fraction_bits) == 0 ? 0 : CRTRIG_EINVAL;
}

/* tan, stage 2, every double ax > 0: at P = crtrig_reduce_fixed_bits(F, ax)
 * fraction bits, crtrig_reduce_fixed gives r in [0, pi/4 + 2^-20] and err with
 * ax = q pi/2 + o, o = +-r (negate_offset), |r - r*| <= err; s = sin r and c =
 * cos r (mpfix_sincos_fixed, r taken as exact; both 1-Lipschitz) within err + e_s
 * and err + e_c ulps.  tan(ax) = tan(o) for even q (|tan| = s/c, negative iff
 * o = -r), -cot(o) for odd q (|tan| = c/s, negative iff o = +r).  r* > 0 and
 * r* < pi/2 (ax is no multiple of pi/2), so s*, c* > 0.  fixed_ratio_round
 * decides; F doubles until it does: the bounds are absolute, shrink like 2^-F,
 * and |tan| is never a boundary.  The cap is a bug if reached (CRTRIG_ENOCONV). */
static int tan_multi(double ax, crtrig_dtype fmt, crtrig_trig_task *task, double *result,
                     int *negative)
{
    mpfix_ctx *ctx = &task->workspace;
    int bits;
    for (bits = task->multi_bits < 64 ? 64 : task->multi_bits; bits <= TAN_MULTI_MAX_BITS; bits *= 2) {
        ratio_operands op;
        uint32_t *r, *eS, *s, *c, *eC;
        int quadrant, negate_offset, overflow = 0, rc;
        uint64_t e_s, e_c;
        rc = workspace_ready(ctx, crtrig_reduce_fixed_bits(bits, ax));
        if (rc != 0)
            return rc;
        r = mpfix_user(ctx, 0);
        eS = mpfix_user(ctx, 1);
        s = mpfix_user(ctx, 2);
        c = mpfix_user(ctx, 3);
        eC = mpfix_user(ctx, 4);
        crtrig_reduce_fixed(ctx, ax, r, eS, &quadrant, &negate_offset);  /* uses 5-7 */
        mpfix_copy(eC, eS, ctx->n);
        e_s = mpfix_sincos_fixed(ctx, s, 0, r);
        e_c = mpfix_sincos_fixed(ctx, c, 1, r);
        mpfix_add_ulps(eS, ctx->n, e_s);
        mpfix_add_ulps(eC, ctx->n, e_c);
        op.N = (quadrant & 1) ? c : s;
        op.eN = (quadrant & 1) ? eC : eS;
        op.D = (quadrant & 1) ? s : c;
        op.eD = (quadrant & 1) ? eS : eC;
        op.beta = r;  /* r is no longer needed */
        op.A = mpfix_user(ctx, 5);
        op.B = mpfix_user(ctx, 6);
        op.err = mpfix_user(ctx, 7);
        if (fixed_ratio_round(ctx, &op, fmt, result, &overflow)) {
            *negative = (quadrant & 1) ? !negate_offset : negate_offset;
            if (overflow)
                task->raise_flags |= CRTRIG_FLAG_OVERFLOW;
            return CRTRIG_OK;
        }
        if (task->counts)
            task->counts->multi_retries++;
    }
    return CRTRIG_ENOCONV;
}

/* tanpi, stage 2, for 0 < |t| < 1/4 (t exact): as trigpi.c's stage 2, with F =
 * 32 (n - 1) the workspace's fraction bits (bits rounded up to whole limbs), T =
 * floor(|t| 2^F), pi within e_pi ulps, a = floor(pi T / 2^F) with |a - pi |t|| <
 * e_pi + 5 ulps and a <= pi/4 + 2^-20; s = sin a, c = cos a within e_pi + 5 + e_s
 * (e_c) ulps.  |tan(pi ax)| = s/c for even k, c/s for odd k (then negative iff t
 * > 0; for even k, iff t < 0).  The rest as tan_multi. */
static int tanpi_multi(int k, double t, crtrig_dtype fmt, crtrig_trig_task *task, double *result,
                       int *negative)
{
    mpfix_ctx *ctx = &task->workspace;
    const double at = fabs(t);
    int bits, exponent;
    uint64_t mantissa = (uint64_t)ldexp(frexp(at, &exponent), 53);  /* at = mantissa 2^(exponent-53) */
    for (bits = task->multi_bits < 64 ? 64 : task->multi_bits; bits <= TAN_MULTI_MAX_BITS; bits *= 2) {
        ratio_operands op;
        uint32_t *T, *pi, *a, *s, *c;
        uint64_t e_pi, e_s, e_c;
        int shift, overflow = 0, rc;
        rc = workspace_ready(ctx, bits);
        if (rc != 0)
            return rc;
        shift = exponent - 53 + 32 * (ctx->n - 1);  /* the fraction bits F >= bits */
        T = mpfix_user(ctx, 0);
        pi = mpfix_user(ctx, 1);
        a = mpfix_user(ctx, 2);
        s = mpfix_user(ctx, 3);
        c = mpfix_user(ctx, 4);
        if (shift >= 0)
            mpfix_set_ulps_pow2(T, ctx->n, mantissa, shift);
        else
            mpfix_set_ulps_pow2(T, ctx->n, -shift < 64 ? mantissa >> -shift : 0u, 0);
        e_pi = mpfix_pi(ctx, pi);
        mpfix_mul(ctx, a, pi, T);
        e_s = mpfix_sincos_fixed(ctx, s, 0, a);
        e_c = mpfix_sincos_fixed(ctx, c, 1, a);
        /* the error numbers in the slots of pi and a, the test's scratch in 0, 5-7 */
        mpfix_set_ulps_pow2(pi, ctx->n, e_pi + 5u + e_s, 0);
        mpfix_set_ulps_pow2(a, ctx->n, e_pi + 5u + e_c, 0);
        op.N = (k & 1) ? c : s;
        op.eN = (k & 1) ? a : pi;
        op.D = (k & 1) ? s : c;
        op.eD = (k & 1) ? pi : a;
        op.beta = T;
        op.A = mpfix_user(ctx, 5);
        op.B = mpfix_user(ctx, 6);
        op.err = mpfix_user(ctx, 7);
        if (fixed_ratio_round(ctx, &op, fmt, result, &overflow)) {
            *negative = (k & 1) ? t > 0.0 : t < 0.0;
            return CRTRIG_OK;  /* no overflow: |tanpi| < 2^54 in every format's range */
        }
        if (task->counts)
            task->counts->multi_retries++;
    }
    return CRTRIG_ENOCONV;
}

/* ------------------------------------------------------------------------ */

/* A decided value above the format's largest finite one (float16 tan only):
 * rounding with an unbounded exponent gave v > max, so the exact value is at
 * least v minus half its gap >= 2^16 - 16 = 65520, the overflow threshold, and
 * not equal to it (never a boundary): RN is inf. */
static double overflow_check(double v, crtrig_dtype fmt, crtrig_trig_task *task)
{
    if (v > format_max(fmt)) {
        task->raise_flags |= CRTRIG_FLAG_OVERFLOW;
        return HUGE_VAL;
    }
    return v;
}

static int nan_or_inf(double x, crtrig_trig_task *task, double *result)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    if (((bits >> 52) & 0x7ffu) != 0x7ffu)
        return 0;
    if (bits << 12) {
        bits |= (uint64_t)1 << 51;  /* NaN: quiet it, raise nothing */
    } else {
        bits = (uint64_t)0x7ff8 << 48;  /* the positive quiet NaN, as sin's */
        task->raise_flags |= CRTRIG_FLAG_INVALID;
    }
    memcpy(result, &bits, sizeof bits);
    crtrig_count_stage(task, -1);
    return 1;
}

static int tan_value(double x, crtrig_dtype fmt, int first_stage, crtrig_trig_task *task,
                     double *result)
{
    const double ax = fabs(x);
    double v = 0.0;
    int negative = 0, rc;
    if (ax == 0.0 || (fmt == CRTRIG_FLOAT64 && ax < TAN_IS_X_BELOW && first_stage < CRTRIG_STAGE_MULTI)) {
        *result = x;  /* +-0, and the tiny shortcut */
        crtrig_count_stage(task, -1);
        return CRTRIG_OK;
    }
    if (fmt != CRTRIG_FLOAT64 && first_stage <= CRTRIG_STAGE_DOUBLE) {
        double y, e;
        if (tan_double_value(ax, &y, &e) && crtrig_decide_d(y, e, fmt, &v)) {
            crtrig_count_stage(task, CRTRIG_STAGE_DOUBLE);
            v = overflow_check(fabs(v), fmt, task);
            *result = ((y < 0.0) != (x < 0.0)) ? -v : v;
            return CRTRIG_OK;
        }
    }
    if (first_stage < CRTRIG_STAGE_MULTI) {
        int odd;
        dd_t Q = tan_dd_value(ax, &odd);
        (void)odd;
        if (crtrig_decide_dd(Q, fabs(Q.hi) * 0x1p-99, fmt, &v)) {
            crtrig_count_stage(task, CRTRIG_STAGE_DOUBLE_DOUBLE);
            v = overflow_check(fabs(v), fmt, task);
            *result = ((Q.hi < 0.0) != (x < 0.0)) ? -v : v;
            return CRTRIG_OK;
        }
    }
    crtrig_count_stage(task, CRTRIG_STAGE_MULTI);
    rc = tan_multi(ax, fmt, task, &v, &negative);
    if (rc != CRTRIG_OK)
        return rc;
    *result = (negative != (x < 0.0)) ? -v : v;
    return CRTRIG_OK;
}

static int tanpi_value(double x, crtrig_dtype fmt, int first_stage, crtrig_trig_task *task,
                       double *result)
{
    const double ax = fabs(x);
    const int negate = x < 0.0;
    double t, v = 0.0;
    int k, negative = 0, rc;
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    if (ax == 0.0) {
        *result = x;
        crtrig_count_stage(task, -1);
        return CRTRIG_OK;
    }
    if (ax >= 0x1p52) {  /* an integer: +0 if even, -0 if odd (last bit below 2^53) */
        int odd = ax < 0x1p53 && (bits & 1u);
        v = odd ? -0.0 : 0.0;
        *result = negate ? -v : v;
        crtrig_count_stage(task, -1);
        return CRTRIG_OK;
    }
    k = crtrig_trigpi_reduce(0, ax, &t);
    if (t == 0.0) {  /* k = 0: even integer, 2: odd, 1: even + 1/2, 3: odd + 1/2 */
        if (k & 1) {
            v = (k == 1) ? HUGE_VAL : -HUGE_VAL;
            task->raise_flags |= CRTRIG_FLAG_DIVBYZERO;
        } else {
            v = (k == 0) ? 0.0 : -0.0;
        }
        *result = negate ? -v : v;
        crtrig_count_stage(task, -1);
        return CRTRIG_OK;
    }
    if (t == 0.25 || t == -0.25) {  /* tan(+-pi/4) = +-1; -cot(+-pi/4) = -+1 */
        v = ((t > 0.0) != ((k & 1) != 0)) ? 1.0 : -1.0;
        *result = negate ? -v : v;
        crtrig_count_stage(task, -1);
        return CRTRIG_OK;
    }
    if (first_stage < CRTRIG_STAGE_MULTI) {
        if (fmt == CRTRIG_FLOAT64 && ax < 0x1p-60) {
            /* here k = 0 and t = ax: tan(pi ax), positive */
            if (crtrig_trigpi_tiny(ax, &v)) {
                crtrig_count_stage(task, CRTRIG_STAGE_DOUBLE_DOUBLE);
                *result = negate ? -v : v;
                return CRTRIG_OK;
            }
        } else {
            double e, y;
            if (fmt != CRTRIG_FLOAT64 && first_stage <= CRTRIG_STAGE_DOUBLE) {
                y = tanpi_double_value(k, t, &e);
                if (crtrig_decide_d(y, e, fmt, &v)) {
                    crtrig_count_stage(task, CRTRIG_STAGE_DOUBLE);
                    *result = negate ? -v : v;
                    return CRTRIG_OK;
                }
            }
            dd_t Q = tanpi_dd_value(k, t);
            if (crtrig_decide_dd(Q, fabs(Q.hi) * 0x1p-99, fmt, &v)) {
                crtrig_count_stage(task, CRTRIG_STAGE_DOUBLE_DOUBLE);
                *result = negate ? -v : v;
                return CRTRIG_OK;
            }
        }
    }
    crtrig_count_stage(task, CRTRIG_STAGE_MULTI);
    rc = tanpi_multi(k, t, fmt, task, &v, &negative);
    if (rc != CRTRIG_OK)
        return rc;
    *result = (negative != negate) ? -v : v;
    return CRTRIG_OK;
}

int crtrig_tan_value(crtrig_trig_func func, double x, crtrig_dtype fmt, int first_stage,
                     crtrig_trig_task *task, double *result)
{
    if (nan_or_inf(x, task, result))
        return CRTRIG_OK;
    return func == CRTRIG_TAN ? tan_value(x, fmt, first_stage, task, result)
                              : tanpi_value(x, fmt, first_stage, task, result);
}

/* The dd hook's work, out of line: between the environment switches. */
static CRTRIG_NOINLINE dd_t tan_dd_hook(crtrig_trig_func func, double x, double *bound)
{
    dd_t Q;
    const double ax = fabs(x);
    if (func == CRTRIG_TAN) {
        int odd;
        Q = tan_dd_value(ax, &odd);
        *bound = fabs(Q.hi) * 0x1.5cp-100;  /* >= 10.82 2^-103 |Q.hi| */
    } else {
        double t;
        int k = crtrig_trigpi_reduce(0, ax, &t);
        Q = tanpi_dd_value(k, t);
        *bound = fabs(Q.hi) * 0x1.2ap-100;  /* >= 9.28 2^-103 |Q.hi| */
    }
    if (x < 0.0) {
        Q.hi = -Q.hi;
        Q.lo = -Q.lo;
    }
    return Q;
}

int crtrig_tan_dd_value(crtrig_trig_func func, double x, double *hi, double *lo, double *bound)
{
    crtrig_fpenv env;
    dd_t Q;
    double ax;
    if ((func != CRTRIG_TAN && func != CRTRIG_TANPI) || !isfinite(x))
        return CRTRIG_EINVAL;
    ax = fabs(x);
    if (func == CRTRIG_TAN && isless(ax, TAN_IS_X_BELOW))
        return CRTRIG_EINVAL;
    if (func == CRTRIG_TANPI) {
        double t;
        if (isless(ax, 0x1p-60) || !isless(ax, 0x1p52))
            return CRTRIG_EINVAL;
        crtrig_fpenv_enter(&env);
        (void)crtrig_trigpi_reduce(0, ax, &t);
        crtrig_fpenv_leave(&env, 0);
        if (t == 0.0 || t == 0.25 || t == -0.25)
            return CRTRIG_EINVAL;
    }
    crtrig_fpenv_enter(&env);
    Q = tan_dd_hook(func, x, bound);
    crtrig_fpenv_leave(&env, 0);
    *hi = Q.hi;
    *lo = Q.lo;
    return CRTRIG_OK;
}
