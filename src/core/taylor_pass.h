/* scipy's Taylor window: the double-double stage and its rounding test as a kernel
 * compiled once per SIMD target (simd_*.c define CRTRIG_KERNEL_FMA and
 * CRTRIG_SIMD_SUFFIX first; dispatch.c holds CRTRIG_KERNEL(taylor_range) per target),
 * the per-element work of crtrig_taylor_window_fill (window_taylor.c, whose top comment
 * derives the bound e for these operations: the same phases, the same table cosines,
 * the same sum in the same order).  Elements go in groups of TP_GROUP, interleaved so
 * that their dependency chains overlap (each element's operations, in their order, as
 * one at a time).
 *
 * The same bits on every target: the double-double operations are dd.h's, except that
 * the exact products inside kd_dd_mul (kernel_dd_mul.h) are kd_two_prod (one fma where
 * the target has it, Dekker's product otherwise), which give dd_mul's bits whenever no
 * product of hi parts falls below 2^-969.  The table's products are of entries 0 or
 * >= 2^-51 (products 0 or >= 2^-102); the caller runs an FMA target's kernel only for
 * coefficients with |a_hi| = 0 or >= 2^-300 (else the baseline's on every target, whose
 * Dekker products are dd.h's even below 2^-969), and a cosine with 0 < |c~_hi| < 2^-600 (not seen: c~ is 0
 * or above 2^-160 at the phases tried) leaves its element undecided here, for the
 * caller's exact fallback, so every product a_hi c~_hi used is 0 or >= 2^-900.  c~
 * itself comes from exact products and dd_add_accurate: the same on every target, so
 * the elements left undecided are too.  The float64 test first tries
 * crtrig_quick_decide64 (fpformat.h), which decides only where crtrig_decide_dd's
 * ends would both round to the same hi. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dd.h"
#include "fpformat.h"
#include "kernel_dd.h"
#include "kernel_dd_mul.h"
#include "window_table.h"
#include "window_taylor.h"

#ifndef CRTRIG_TAYLOR_PASS_ONCE
#define CRTRIG_TAYLOR_PASS_ONCE

enum { TP_GROUP = 16 };

/* cos(pi r/L) for 0 <= r <= L/2 from the table: C = Ca Cb - Sa Sb (absolute 8.8 units,
 * window_taylor.c). */
KD_INLINE dd_t tp_table_cos(const crtrig_sinpi_table *t, int shift, uint64_t r)
{
    uint64_t a = r >> shift, b = r & (t->B - 1), i = a - t->a_first;
    dd_t Sa = dd_make(t->coarse_sin_hi[i], t->coarse_sin_lo[i]), Ca = dd_make(t->coarse_cos_hi[i], t->coarse_cos_lo[i]);
    dd_t Sb = dd_make(t->fine_sin_hi[b], t->fine_sin_lo[b]), Cb = dd_make(t->fine_cos_hi[b], t->fine_cos_lo[b]);
    dd_t q = kd_dd_mul(Sa, Sb);
    return dd_add_accurate(kd_dd_mul(Ca, Cb), dd_make(-q.hi, -q.lo));
}

#endif

/* The elements [lo, hi) (n = lo .. hi - 1, j = L - 1 - 2n). */
size_t CRTRIG_KERNEL(taylor_range)(const crtrig_taylor_args *c, size_t lo, size_t hi)
{
    const uint64_t L = c->L, L2 = 2 * L;
    size_t g, missing = 0;
    for (g = lo; g < hi; g += TP_GROUP) {
        const int n = hi - g < TP_GROUP ? (int)(hi - g) : TP_GROUP;
        uint64_t j[TP_GROUP], s[TP_GROUP];
        dd_t acc[TP_GROUP];
        int tiny[TP_GROUP], i;
        size_t m;
        for (i = 0; i < n; i++) {
            j[i] = L - 1 - 2 * (uint64_t)(g + (size_t)i);
            s[i] = 0;
            acc[i] = dd_make(c->a_hi[0], c->a_lo[0]);
            tiny[i] = 0;
        }
        for (m = 1; m <= c->K; m++) {
            const dd_t a = dd_make(c->a_hi[m], c->a_lo[m]);
            for (i = 0; i < n; i++) {
                uint64_t f;
                dd_t cs;
                s[i] += j[i];  /* s = m j mod 2L, exact integers below 2^54 */
                if (s[i] >= L2)
                    s[i] -= L2;
                f = s[i] <= L ? s[i] : L2 - s[i];
                if (2 * f <= L) {
                    cs = tp_table_cos(c->t, c->shift, f);
                } else {
                    cs = tp_table_cos(c->t, c->shift, L - f);
                    cs = dd_make(-cs.hi, -cs.lo);
                }
                tiny[i] |= cs.hi != 0.0 && fabs(cs.hi) < 0x1p-600;
                acc[i] = dd_add_accurate(acc[i], kd_dd_mul(a, cs));
            }
        }
        for (i = 0; i < n; i++) {
            size_t k = g + (size_t)i;
            double r = 0.0;
            int decided;
            if (j[i] == 0 && c->centre_one) {
                r = 1.0;
                decided = 1;
            } else {
                decided = !tiny[i] && fabs(acc[i].hi) > 2.0 * c->e &&
                          ((c->fmt == CRTRIG_FLOAT64 && crtrig_quick_decide64(acc[i], c->e, &r)) ||
                           crtrig_decide_dd(acc[i], c->e, c->fmt, &r));
            }
            missing += crtrig_record_element(&c->out[k], &c->undecided[k], decided, &r);
        }
    }
    return missing;
}
