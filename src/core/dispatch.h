/* Runtime choice of SIMD targets (internal).
 *
 * Each vector kernel is one source compiled once per target with a suffix on
 * its symbol (e.g. sincos_f32_pass.h -> crtrig_sincos_f32_pass_avx2).  The
 * table below is the library's only global state: crtrig_init() picks the
 * best target the CPU supports, once, when the Python module is imported.
 * The scalar/baseline code is the reference and the fallback.  dispatch.c
 * calls no kernel: entry points take a target from here and call its kernels.
 */
#ifndef CRTRIG_DISPATCH_H
#define CRTRIG_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

/* A sin/cos first pass: out[i] and undecided[i] for count contiguous elements;
 * returns nonzero iff some undecided[i] is nonzero. */
typedef int (*crtrig_sincos_pass_fn)(int func, const char *in, char *out, size_t count,
                                     unsigned char *undecided);

typedef void (*crtrig_window_pass_fn)(int kind, double first, double D, size_t count,
                                      char *out, unsigned char *undecided);

/* Test hooks of the float64 passes (sincos64_pass.h, window64_pass.h): the
 * unrounded double-double value and its bound; they return the lane's flag. */
typedef void (*crtrig_sincos32_value_fn)(int func, double x, double *y, double *e);
typedef int (*crtrig_sincos64_value_fn)(int func, double x, int large, double *hi, double *lo,
                                        double *e);
typedef int (*crtrig_window64_value_fn)(int kind, double n, double D, double *hi, double *lo,
                                        double *e);

/* Kernels of one target, indexed by crtrig_dtype: float16, bfloat16, float32, float64. */
typedef struct crtrig_target {
    const char *name;  /* "baseline", "avx2", "avx512" */
    crtrig_sincos_pass_fn sincos_pass[4];
    crtrig_window_pass_fn window_pass[4];
    crtrig_sincos32_value_fn sincos32_value;
    crtrig_sincos64_value_fn sincos64_value;
    crtrig_window64_value_fn window64_value;
} crtrig_target;

/* The target in use (baseline until crtrig_init runs). */
const crtrig_target *crtrig_active_target(void);

/* Target i (0 = baseline) if compiled in and supported by this CPU, else NULL. */
const crtrig_target *crtrig_target_at(int i);

#define CRTRIG_DECLARE_PASSES(suffix)                                                          \
    int crtrig_sincos_pass_float32_##suffix(int, const char *, char *, size_t, unsigned char *); \
    int crtrig_sincos_pass_bfloat16_##suffix(int, const char *, char *, size_t, unsigned char *); \
    int crtrig_sincos_pass_float16_##suffix(int, const char *, char *, size_t, unsigned char *);  \
    void crtrig_window_pass_float32_##suffix(int, double, double, size_t, char *, unsigned char *);  \
    void crtrig_window_pass_bfloat16_##suffix(int, double, double, size_t, char *, unsigned char *); \
    void crtrig_window_pass_float16_##suffix(int, double, double, size_t, char *, unsigned char *);  \
    int crtrig_sincos_pass_float64_##suffix(int, const char *, char *, size_t, unsigned char *);  \
    void crtrig_window_pass_float64_##suffix(int, double, double, size_t, char *, unsigned char *);  \
    void crtrig_sincos_pass_value_##suffix(int, double, double *, double *);                     \
    int crtrig_sincos64_pass_value_##suffix(int, double, int, double *, double *, double *);       \
    int crtrig_window64_pass_value_##suffix(int, double, double, double *, double *, double *);
CRTRIG_DECLARE_PASSES(baseline)
CRTRIG_DECLARE_PASSES(avx2)
CRTRIG_DECLARE_PASSES(avx512)

/* Largest denominator the float64 window pass accepts (window64_pass.h: its
 * remainder n' - t_h D must be exact); window.c sends larger D (never allocated
 * in practice) to the per-element stages. */
#define CRTRIG_WINDOW64_PASS_MAX_D ((uint64_t)1 << 52)

#endif
