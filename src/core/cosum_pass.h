/* The double-double stage of the cosine-sum windows (window_cosum.c: its top comment
 * has the method, the stages and the termination argument): c = cos(2 pi r/D) from the
 * sinpi table (or the caller's c~), Horner's rule on P's double-double coefficients,
 * the optional lin r/D term, and the bound E of the rounding test.  One source compiled
 * once per SIMD target (simd_*.c define CRTRIG_KERNEL_FMA and CRTRIG_SIMD_SUFFIX first;
 * dispatch.c holds CRTRIG_KERNEL(cosum_dd) per target).  Bounds for the code as
 * written, in round-to-nearest (the fill enters crtrig_fpenv), without contraction.
 *
 * The same bits on every target: the double-double operations are dd.h's, except that
 * the exact products inside kd_dd_mul and kd_dd_mul_d (kernel_dd_mul.h) are kd_two_prod
 * (one fma where the target has it, Dekker's product as dd.h's otherwise), exact as
 * long as no product falls below 2^-969; the magnitudes of window_cosum.c's top comment
 * keep every product Horner forms 0 or above 2^-1000, and the table's products are of
 * entries that are 0 or >= sin(pi/2^52) > 2^-51 (products 0 or > 2^-102), so the
 * values, the bounds and the decisions do not depend on the target. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "crtrig/crtrig.h"
#include "dd.h"
#include "kernel_dd.h"
#include "kernel_dd_mul.h"
#include "pass_common.h"
#include "cosum_bounds.h"
#include "window_table.h"

#ifndef CRTRIG_COSUM_PASS_ONCE
#define CRTRIG_COSUM_PASS_ONCE

enum { COSUM_KERNEL_GROUP = 16 };

/* c = cos(2 pi r/D) = 1 - 2 sin^2(pi r/D) from the sinpi table (window_table.h):
 * r = aB + b, y = sin(pi r/D) = Sa Cb + Ca Sb, all four entries >= 0 (angles in
 * [0, pi/2]) within 3.7 2^-103 relatively.  dd_mul 2^-103 each, dd_add of two
 * nonnegative terms 2^-103: y within (2 (3.7) + 1 + 1) 2^-103 = 9.4 2^-103 of
 * itself (second-order terms below 0.01), s = kd_dd_mul(y, y) within
 * (2 (9.4) + 1) 2^-103 = 19.8 2^-103 of s (relative), 2s exact, and
 * c = dd_add_d(-2s, 1) within 2 (19.8) s + (2s + 1) 2^-103 <= 42.6 2^-103 (s <= 1)
 * of c: an absolute error delta <= 2^-97.5. */
KD_INLINE dd_t cos_table(const crtrig_sinpi_table *t, uint64_t r)
{
    uint64_t a = r / t->B, b = r % t->B, i = a - t->a_first;
    dd_t Sa = dd_make(t->coarse_sin_hi[i], t->coarse_sin_lo[i]), Ca = dd_make(t->coarse_cos_hi[i], t->coarse_cos_lo[i]);
    dd_t Sb = dd_make(t->fine_sin_hi[b], t->fine_sin_lo[b]), Cb = dd_make(t->fine_cos_hi[b], t->fine_cos_lo[b]);
    dd_t y = dd_add(kd_dd_mul(Sa, Cb), kd_dd_mul(Ca, Sb));
    dd_t sq = kd_dd_mul(y, y);
    return dd_add_d(dd_make(-2.0 * sq.hi, -2.0 * sq.lo), 1.0);
}

/* The optional term lin r/D (crtrig_cosum_spec) added to a double-double value:
 * t = kd_dd_mul_d(lin/D, r) (r < 2^53 exact) within 2^-103 + 2^-105 (the caller's
 * constant lin/D) <= 2.3 2^-103 of |t|, the sum by dd_add_accurate within 0.4 2^-103 of
 * |h + t| <= A + |t|: both inside E = 2^-95 (A~ + A1~ + |t~|) (stage_dd's margin).
 * *mag gets |t_hi| added. */
KD_INLINE dd_t add_linear(const crtrig_cosum_spec *s, uint64_t r, uint64_t D, dd_t h, double *mag)
{
    dd_t t;
    if (!s->lin_num)
        return h;
    (void)D;
    t = kd_dd_mul_d(dd_make(s->lin_hi, s->lin_lo), (double)r);
    *mag += fabs(t.hi);
    return dd_add_accurate(h, t);
}

#endif

/* The double-double stage (stage_dd and group_dd of window_cosum.c).  c~ from
 * crtrig_sincospi_ratio_dd (relative 3.7 2^-103, as in window_cosum.c's top comment) or from the table (cos_table: absolute delta <= 42.6 2^-103).
 * |P(c~) - P(c)| <= delta A1(|c| + delta) (mean value theorem on sum |q_j| |x|^j),
 * with A1(|c| + delta) <= A1~ (1 + 2^-44) (as for A~: <= 3K roundings and the hi
 * parts' errors, and delta below 2^-97 absolute against |c_hi|); a relative error
 * rho of c~ is an absolute one rho |c| <= 2^-101 too.  Horner: gamma_{2K-1} 2^-103
 * <= 31.1 2^-103 of A(|c~|) <= A~ (1 + 2^-44); the ends' dd_add_d 1.01 2^-103 A~.
 * In all <= 32.2 2^-103 A~ + 42.7 2^-103 A1~ < 2^-97.9 A~ + 2^-97.5 A1~, and we use
 * E = 2^-95 (A~ + A1~) (A~ + A1~ computed in double: one more rounding, covered).
 *
 * count phases ph[i] (<= D/2) in groups of up to
 * COSUM_KERNEL_GROUP, interleaved so that the elements' dependency chains overlap
 * (the same operations per element in the same order as one at a time); c~ is the
 * caller's (c_hi[i], c_lo[i]) when table is NULL.  (The pure cosine's stage,
 * sine_value, stays in window_cosum.c: two products, little for an FMA to gain.) */
void CRTRIG_KERNEL(cosum_dd)(const crtrig_cosum_spec *s, int deg, const crtrig_sinpi_table *table,
                             uint64_t D, const uint64_t *ph, const double *c_hi,
                             const double *c_lo, int count, double *h_hi, double *h_lo, double *e)
{
    int g;
    for (g = 0; g < count; g += COSUM_KERNEL_GROUP) {
        int n = count - g < COSUM_KERNEL_GROUP ? count - g : COSUM_KERNEL_GROUP, i, j;
        dd_t c[COSUM_KERNEL_GROUP], h[COSUM_KERNEL_GROUP];
        for (i = 0; i < n; i++) {
            c[i] = table ? cos_table(table, ph[g + i]) : dd_make(c_hi[g + i], c_lo[g + i]);
            h[i] = dd_make(s->poly_hi[deg], s->poly_lo[deg]);
        }
        for (j = deg - 1; j >= 0; j--) {
            dd_t q = dd_make(s->poly_hi[j], s->poly_lo[j]);
            for (i = 0; i < n; i++)
                h[i] = dd_add_accurate(kd_dd_mul(h[i], c[i]), q);
        }
        for (i = 0; i < n; i++) {
            double m = cosum_magnitude(s, deg, c[i].hi) + cosum_slope(s, deg, c[i].hi);
            h[i] = add_linear(s, ph[g + i], D, h[i], &m);
            e[g + i] = m * 0x1p-95;
        }
        for (i = 0; i < n; i++) {
            h_hi[g + i] = h[i].hi;
            h_lo[g + i] = h[i].lo;
        }
    }
}
