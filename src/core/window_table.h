/* Two-level tables of sin(pi k/D) and cos(pi k/D) for the window fills (internal).
 *
 * A window needs y = sin(pi r/D) for the folded phases 0 <= r <= D/2 (window.c).
 * With a step B, r = a B + c (0 <= c < B), and
 *   sin(pi r/D) = sin(pi aB/D) cos(pi c/D) + cos(pi aB/D) sin(pi c/D),
 * where pi aB/D and pi c/D lie in [0, pi/2] (their sum does): all four factors
 * are >= 0, so the sum has no cancellation and the relative errors of the
 * entries carry over to y with a factor of at most 2 (window_pass.h,
 * window64_pass.h).  The table holds the "fine" entries sin, cos(pi c/D) for
 * 0 <= c < fine and the "coarse" entries sin, cos(pi aB/D) for
 * a_first <= a < a_first + coarse: about 2 sqrt(D/2) of each for a whole
 * window, built once per fill, before anything is written.
 *
 * Every entry is a double-double hi + lo from the SIMD target's builder
 * (sinpi_table_pass.h), which repeats crtrig_sincospi_ratio_dd operation by
 * operation, so it is that function's value bit for bit: hi = RN(hi + lo) and
 * |hi + lo - exact| <= 3.7 2^-103 exact (sincospi.c); the entries at k = 0 and
 * 2k = D are exact (0 and 1).  The float16/bfloat16/float32 passes read the
 * hi parts only: |hi - exact| <= (2^-53 + 2^-101)(1 + 2^-52) exact.
 */
#ifndef CRTRIG_WINDOW_TABLE_H
#define CRTRIG_WINDOW_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct crtrig_target;

typedef struct crtrig_sinpi_table {
    uint64_t D;         /* angles pi k / D, 1 <= D <= CRTRIG_SINPI_TABLE_MAX_D */
    uint64_t B;         /* the step: r = a B + c, 0 <= c < B */
    uint64_t fine;      /* fine entries, c = 0 .. fine - 1 */
    uint64_t a_first;   /* coarse entries, a = a_first .. a_first + coarse - 1 */
    uint64_t coarse;
    /* [c]: sin(pi c/D) = fine_sin_hi[c] + fine_sin_lo[c], cos likewise;
     * [a - a_first]: sin(pi aB/D) = coarse_sin_hi[.] + coarse_sin_lo[.], cos likewise. */
    const double *fine_sin_hi, *fine_sin_lo, *fine_cos_hi, *fine_cos_lo;
    const double *coarse_sin_hi, *coarse_sin_lo, *coarse_cos_hi, *coarse_cos_lo;
    void *memory;       /* the one allocation (alloc.h) holding the arrays */
} crtrig_sinpi_table;

/* What the first passes (window_pass.h, window64_pass.h) store in place of a value
 * they leave undecided: a NaN, which no window value with D >= 1 is (float64: this
 * pattern; float16 and bfloat16: 0xffff; float32: the conversion of this double). */
#define WINDOW_UNDECIDED_64 0xffffffffffffffffu

/* Largest D: the builder's denominators go up to 2D and its numerators must
 * stay below 2^53 as doubles; crtrig_sincospi_ratio_dd needs b <= 2^54. */
#define CRTRIG_SINPI_TABLE_MAX_D ((uint64_t)1 << 52)

/* The step a fill uses for phases 0 .. r_max: a multiple of 16 near sqrt(r_max + 1)
 * (at least 16), which makes the two tables about the same size. */
uint64_t crtrig_sinpi_table_step(uint64_t r_max);

/* Build the table for the phases r_lo .. r_hi (r_lo <= r_hi <= D/2) with step B
 * (1 <= B <= 2^31) through the builder of `target`.  Allocates once (alloc.h);
 * returns CRTRIG_OK, CRTRIG_ENOMEM (t->memory is then NULL) or CRTRIG_EINVAL. */
int crtrig_sinpi_table_init(crtrig_sinpi_table *t, const struct crtrig_target *target, uint64_t D,
                            uint64_t B, uint64_t r_lo, uint64_t r_hi);

/* The same into the caller's memory (8 doubles per entry, fine + coarse entries),
 * which the table then uses; allocates nothing (crtrig_sinpi_table_free is a
 * no-op for it).  CRTRIG_EINVAL also when `doubles` is too few. */
int crtrig_sinpi_table_init_in(crtrig_sinpi_table *t, const struct crtrig_target *target, uint64_t D,
                               uint64_t B, uint64_t r_lo, uint64_t r_hi, double *memory, size_t doubles);

/* Release the table (a no-op if its allocation failed). */
void crtrig_sinpi_table_free(crtrig_sinpi_table *t);

#endif
