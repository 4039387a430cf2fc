/* Runtime choice of SIMD targets (internal).
 *
 * Each vector kernel is one source compiled once per target with a suffix on
 * its symbol (e.g. sincos_f32_pass.h -> crtrig_sincos_f32_pass_avx2).  The
 * table below is the library's only global state: crtrig_init() picks the
 * best target the CPU supports, once, when the Python module is imported.
 * The scalar/baseline code is the reference and the fallback.  dispatch.c
 * calls no kernel: entry points take a target from here and call its kernels.
 * Normal calls take it through the self-check (selfcheck.h), which may put a
 * pass whose kernels fail their check on a lower target for the process.
 */
#ifndef CRTRIG_DISPATCH_H
#define CRTRIG_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

/* A sin/cos first pass: out[i] and undecided[i] for count contiguous elements;
 * returns nonzero iff some undecided[i] is nonzero. */
typedef int (*crtrig_sincos_pass_fn)(int func, const char *in, char *out, size_t count,
                                     unsigned char *undecided);

struct crtrig_sinpi_table;
struct crtrig_window_coef;
struct crtrig_exp_args;
struct crtrig_i0_table;
struct crtrig_sinc_args;
struct crtrig_taylor_args;
struct crtrig_cosum_spec;

/* The I0 series of Kaiser's windows (kaiser_pass.h): S(y_n) as double-doubles for
 * n = n0 .. n0 + count - 1, and Kaiser's float64 rounding test of S inv. */
typedef void (*crtrig_i0_series_fn)(const struct crtrig_i0_table *t, uint64_t n0, size_t count, double *s_hi,
                                    double *s_lo);
typedef size_t (*crtrig_kaiser_round64_fn)(const double *s_hi, const double *s_lo, double inv_hi, double inv_lo,
                                           size_t count, double *out, unsigned char *undecided);
/* The KBD window's last step for float64 (kaiser_pass.h, window_kbd.c). */
typedef size_t (*crtrig_kbd_finish64_fn)(double *vals, const double *a_lo, double inv_hi, double inv_lo, double KL,
                                         double nL, size_t count, unsigned char *undecided);

/* The window tables' builder (sinpi_table_pass.h): sin(pi m/M) and cos(pi m/M)
 * as double-doubles for m = m0 + i step. */
typedef void (*crtrig_sinpi_table_fn)(double m0, double step, double M, size_t count, double *s_hi,
                                      double *s_lo, double *c_hi, double *c_lo);

/* The windows' first passes (window_pass.h, window64_pass.h): w at the phases
 * r0 .. r0 + count - 1 into out (contiguous, the format's bits) and, unless mirror
 * is NULL, into mirror, mirror - 1 element, ...; undecided ones marked
 * (window_table.h); returns how many are marked. */
typedef size_t (*crtrig_window_run_fn)(const struct crtrig_window_coef *coef,
                                       const struct crtrig_sinpi_table *table, uint64_t r0,
                                       size_t count, char *out, char *mirror);

/* Test hooks of the sin/cos passes (sincos_pass.h: the double value and its
 * bound; sincos64_pass.h) and of the window passes: the unrounded value and its bound (from given table entries for the
 * windows); the float64 ones return the lane's flag. */
typedef void (*crtrig_sincos32_value_fn)(int func, double x, double *y, double *e);
typedef int (*crtrig_sincos64_value_fn)(int func, double x, int mode, double *hi, double *lo,
                                        double *e);  /* mode: bit 0 large, bit 1 precise */
typedef int (*crtrig_window_value_fn)(const struct crtrig_window_coef *coef, int fmt, double sa, double ca, double fs, double fc,
                                      double *w, double *e);
/* One float64 sin (func 0) or cos (1) through the float64 pass's lane
 * (sincos64_pass.h's sincos64_one): 0 with *y the correctly rounded value, 1 when
 * the lane leaves x to the per-element stages. */
typedef int (*crtrig_sincos64_one_fn)(int func, double x, double *y);
typedef int (*crtrig_tan64_value_fn)(double x, int mode, double *hi, double *lo, double *e);  /* mode: bit 0 large, bit 1 precise */
typedef int (*crtrig_window64_value_fn)(const struct crtrig_window_coef *coef, const double *entries, double *hi, double *lo,
                                        double *e);

/* Kernels of one target, indexed by crtrig_dtype: float16, bfloat16, float32, float64. */
typedef struct crtrig_target {
    const char *name;  /* "baseline", "avx2", "avx512" */
    crtrig_sincos_pass_fn sincos_pass[4];
    crtrig_window_run_fn window_run[4];
    crtrig_sinpi_table_fn sinpi_table;
    crtrig_sincos32_value_fn sincos32_value;
    crtrig_sincos64_value_fn sincos64_value;
    crtrig_window_value_fn window_value;
    crtrig_window64_value_fn window64_value;
    /* sinpi/cospi first passes (trigpi_pass.h), float32 and float64 only (NULL for
     * float16 and bfloat16, which go through the per-element stages). */
    crtrig_sincos_pass_fn trigpi_pass[4];
    /* tan first passes (tan_pass.h), float32 and float64 only (NULL for the 16-bit
     * formats), and the float64 one's test hook (the unrounded value and its bound). */
    crtrig_sincos_pass_fn tan_pass[4];
    crtrig_tan64_value_fn tan64_value;
    /* tanpi first passes (tan_pass.h), float32 and float64 only. */
    crtrig_sincos_pass_fn tanpi_pass[4];
    /* The exp windows' elements [lo, hi) (exp_pass.h; returns how many it left
     * undecided) and the test hook of its double-double exp stage. */
    size_t (*exp_range)(const struct crtrig_exp_args *args, size_t lo, size_t hi);
    void (*exp_dd_value)(double y_hi, double y_lo, double *hi, double *lo);
    /* The test hook of its double-double log (exp_pass.h's xp_log; log.h). */
    int (*log_dd_value)(double y_hi, double y_lo, double *hi, double *lo, double *err);
    /* The float64 sin/cos pass's lane for one element (the small calls). */
    crtrig_sincos64_one_fn sincos64_one;
    /* Kaiser's and the KBD window's I0 series, Kaiser's float64 rounding test. */
    crtrig_i0_series_fn i0_series;
    crtrig_kaiser_round64_fn kaiser_round64;
    crtrig_kbd_finish64_fn kbd_finish64;
    /* The Lanczos and Bohman windows' elements [lo, hi) (sinc_pass.h; returns how
     * many it left undecided). */
    size_t (*sinc_range)(const struct crtrig_sinc_args *args, size_t lo, size_t hi);
    /* The cosine-sum windows' double-double stage for count phases (cosum_pass.h). */
    void (*cosum_dd)(const struct crtrig_cosum_spec *s, int deg, const struct crtrig_sinpi_table *table, uint64_t D, const uint64_t *ph, const double *c_hi,
                     const double *c_lo, int count, double *h_hi, double *h_lo, double *e);
    /* The Taylor window's elements [lo, hi) (taylor_pass.h; returns how many it left
     * undecided). */
    size_t (*taylor_range)(const struct crtrig_taylor_args *args, size_t lo, size_t hi);
} crtrig_target;

/* The target in use (baseline until crtrig_init runs). */
const crtrig_target *crtrig_active_target(void);

/* Target i (0 = baseline) if compiled in and supported by this CPU, else NULL. */
const crtrig_target *crtrig_target_at(int i);

/* The index of a target of this table (0 baseline, 1 avx2, 2 avx512), and the
 * target of an index crtrig_target_at has accepted before (no CPU check: the
 * self-check's outcome, selfcheck.c, names only such targets). */
int crtrig_target_index(const crtrig_target *t);
const crtrig_target *crtrig_target_entry(int i);

#define CRTRIG_DECLARE_PASSES(suffix)                                                          \
    int crtrig_sincos_pass_float32_##suffix(int, const char *, char *, size_t, unsigned char *); \
    int crtrig_sincos_pass_bfloat16_##suffix(int, const char *, char *, size_t, unsigned char *); \
    int crtrig_sincos_pass_float16_##suffix(int, const char *, char *, size_t, unsigned char *);  \
    int crtrig_sincos_pass_float64_##suffix(int, const char *, char *, size_t, unsigned char *);  \
    size_t crtrig_window_run_float16_##suffix(const struct crtrig_window_coef *, const struct crtrig_sinpi_table *, uint64_t,    \
                                              size_t, char *, char *);                             \
    size_t crtrig_window_run_bfloat16_##suffix(const struct crtrig_window_coef *, const struct crtrig_sinpi_table *, uint64_t,   \
                                               size_t, char *, char *);                            \
    size_t crtrig_window_run_float32_##suffix(const struct crtrig_window_coef *, const struct crtrig_sinpi_table *, uint64_t,    \
                                              size_t, char *, char *);                             \
    size_t crtrig_window_run_float64_##suffix(const struct crtrig_window_coef *, const struct crtrig_sinpi_table *, uint64_t,    \
                                              size_t, char *, char *);                             \
    void crtrig_sinpi_table_##suffix(double, double, double, size_t, double *, double *, double *,  \
                                     double *);                                                    \
    void crtrig_sincos_pass_value_##suffix(int, double, double *, double *);                     \
    int crtrig_sincos64_pass_value_##suffix(int, double, int, double *, double *, double *);       \
    int crtrig_sincos64_one_##suffix(int, double, double *);                                       \
    int crtrig_window_pass_value_##suffix(const struct crtrig_window_coef *, int, double, double, double, double, double *, double *); \
    int crtrig_window64_pass_value_##suffix(const struct crtrig_window_coef *, const double *, double *, double *, double *); \
    int crtrig_trigpi_pass_float32_##suffix(int, const char *, char *, size_t, unsigned char *); \
    int crtrig_trigpi_pass_float64_##suffix(int, const char *, char *, size_t, unsigned char *); \
    int crtrig_tan_pass_float32_##suffix(int, const char *, char *, size_t, unsigned char *);    \
    int crtrig_tan_pass_float64_##suffix(int, const char *, char *, size_t, unsigned char *);    \
    int crtrig_tan64_pass_value_##suffix(double, int, double *, double *, double *);           \
    int crtrig_tanpi_pass_float32_##suffix(int, const char *, char *, size_t, unsigned char *);  \
    int crtrig_tanpi_pass_float64_##suffix(int, const char *, char *, size_t, unsigned char *);  \
    size_t crtrig_exp_range_##suffix(const struct crtrig_exp_args *, size_t, size_t);            \
    void crtrig_exp_dd_value_##suffix(double, double, double *, double *); \
    void crtrig_i0_series_##suffix(const struct crtrig_i0_table *, uint64_t, size_t, double *, double *); \
    size_t crtrig_kaiser_round64_##suffix(const double *, const double *, double, double, size_t, double *, \
                                          unsigned char *);                                     \
    size_t crtrig_kbd_finish64_##suffix(double *, const double *, double, double, double, double, size_t, \
                                        unsigned char *); \
    int crtrig_log_dd_value_##suffix(double, double, double *, double *, double *);              \
    size_t crtrig_sinc_range_##suffix(const struct crtrig_sinc_args *, size_t, size_t);          \
    void crtrig_cosum_dd_##suffix(const struct crtrig_cosum_spec *, int, const struct crtrig_sinpi_table *, \
                                  uint64_t, const uint64_t *, const double *, \
                                  const double *, int, double *, double *, double *);            \
    size_t crtrig_taylor_range_##suffix(const struct crtrig_taylor_args *, size_t, size_t);
/* Test hook (not in the public header): the float64 tan pass's unrounded tan x =
 * *hi + *lo and its bound *e (tan_pass.h) of target index `target`, for finite |x| >=
 * 2^-27; mode (0..3) bit 0: the large reduction (set) or the small one (clear, |x| <
 * 2^17), bit 1: the precise evaluation (set) or the quick one (clear); *flag as in
 * crtrig_sincos64_value_target.  CRTRIG_EINVAL outside that domain. */
int crtrig_tan64_value_target(int target, double x, int mode, double *hi, double *lo, double *e,
                              int *flag);

CRTRIG_DECLARE_PASSES(baseline)
CRTRIG_DECLARE_PASSES(avx2)
CRTRIG_DECLARE_PASSES(avx512)

#endif
