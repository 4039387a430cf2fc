/* Building the two-level sin/cos tables of the window fills.  See window_table.h. */
#include <math.h>
#include "crtrig/crtrig.h"
#include "alloc.h"
#include "dispatch.h"
#include "window_table.h"

uint64_t crtrig_sinpi_table_step(uint64_t r_max)
{
    /* Only the speed depends on B (every B gives the same correctly rounded
     * values); sqrt of a double below 2^53 is exact enough for that. */
    uint64_t B = (uint64_t)ceil(sqrt((double)r_max + 1.0));
    B = (B + 15) / 16 * 16;
    return B < 16 ? 16 : B;
}

/* sin and cos of pi k/D for k = k0 + i kstep, i < count (2k <= D), through the
 * target's builder, which gives sin(pi m/M) and cos(pi m/M) for 0 <= m <= M/4:
 *   k <= D/4 (4k <= D):  sin(pi k/D) and cos(pi k/D) directly, m = k, M = D;
 *   k > D/4:             sin(pi k/D) = cos(pi m/M), cos(pi k/D) = sin(pi m/M),
 *                        m = D - 2k, M = 2D (m/M = 1/2 - k/D < 1/4).
 * Every m and M is an integer below 2^53 (D <= 2^52), so exact as a double, as
 * are m0 + i step for the steps passed (|step i| <= 2D). */
static void build(const crtrig_target *target, uint64_t D, uint64_t k0, uint64_t kstep, uint64_t count,
                  double *sin_hi, double *sin_lo, double *cos_hi, double *cos_lo)
{
    const uint64_t quarter = D / 4;  /* k <= quarter <=> 4k <= D */
    uint64_t direct = k0 > quarter ? 0 : (quarter - k0) / kstep + 1;
    if (direct > count)
        direct = count;
    if (direct)
        target->sinpi_table((double)k0, (double)kstep, (double)D, (size_t)direct, sin_hi, sin_lo, cos_hi,
                            cos_lo);
    if (count > direct) {
        uint64_t k = k0 + direct * kstep;  /* the first folded k: 2k <= D, so m >= 0 */
        double m0 = (double)(D - 2 * k), step = -2.0 * (double)kstep, M = 2.0 * (double)D;
        size_t rest = (size_t)(count - direct);
        target->sinpi_table(m0, step, M, rest, cos_hi + direct, cos_lo + direct, sin_hi + direct,
                            sin_lo + direct);
    }
}

/* The layout of a table for the phases r_lo .. r_hi with step B: its entries
 * (fine + coarse), or 0 for arguments it cannot serve (CRTRIG_EINVAL). */
static uint64_t table_entries(crtrig_sinpi_table *t, const crtrig_target *target, uint64_t D, uint64_t B,
                              uint64_t r_lo, uint64_t r_hi)
{
    if (!target || D < 1 || D > CRTRIG_SINPI_TABLE_MAX_D || B < 1 || B > ((uint64_t)1 << 31) ||
        r_lo > r_hi || 2 * r_hi > D)
        return 0;
    t->D = D;
    t->B = B;
    t->fine = r_hi + 1 < B ? r_hi + 1 : B;
    t->a_first = r_lo / B;
    t->coarse = r_hi / B - t->a_first + 1;
    if (t->coarse > ((uint64_t)1 << 31))
        return 0;  /* the builder counts entries in 32 bits */
    return t->fine + t->coarse;
}

/* Fill the table's entries into block (8 doubles per entry), through the target's builder. */
static void build_into(crtrig_sinpi_table *t, const crtrig_target *target, double *block)
{
    const uint64_t fine = t->fine, coarse = t->coarse;
    double *fsh = block, *fsl = fsh + fine, *fch = fsl + fine, *fcl = fch + fine;
    double *csh = fcl + fine, *csl = csh + coarse, *cch = csl + coarse, *ccl = cch + coarse;
    build(target, t->D, 0, 1, fine, fsh, fsl, fch, fcl);
    build(target, t->D, t->a_first * t->B, t->B, coarse, csh, csl, cch, ccl);
    t->fine_sin_hi = fsh;
    t->fine_sin_lo = fsl;
    t->fine_cos_hi = fch;
    t->fine_cos_lo = fcl;
    t->coarse_sin_hi = csh;
    t->coarse_sin_lo = csl;
    t->coarse_cos_hi = cch;
    t->coarse_cos_lo = ccl;
}

int crtrig_sinpi_table_init(crtrig_sinpi_table *t, const crtrig_target *target, uint64_t D, uint64_t B,
                            uint64_t r_lo, uint64_t r_hi)
{
    uint64_t entries;
    double *block;
    t->memory = NULL;
    entries = table_entries(t, target, D, B, r_lo, r_hi);
    if (!entries)
        return CRTRIG_EINVAL;
    if (entries > (uint64_t)SIZE_MAX / (8 * sizeof(double)))
        return CRTRIG_ENOMEM;
    block = (double *)crtrig_alloc((size_t)entries * 8 * sizeof(double));
    if (!block)
        return CRTRIG_ENOMEM;
    t->memory = block;
    build_into(t, target, block);
    return CRTRIG_OK;
}

int crtrig_sinpi_table_init_in(crtrig_sinpi_table *t, const crtrig_target *target, uint64_t D, uint64_t B,
                               uint64_t r_lo, uint64_t r_hi, double *memory, size_t doubles)
{
    uint64_t entries;
    t->memory = NULL;
    entries = table_entries(t, target, D, B, r_lo, r_hi);
    if (!entries || entries > (uint64_t)doubles / 8)
        return CRTRIG_EINVAL;
    build_into(t, target, memory);
    return CRTRIG_OK;
}

void crtrig_sinpi_table_free(crtrig_sinpi_table *t)
{
    crtrig_free(t->memory);
    t->memory = NULL;
}
