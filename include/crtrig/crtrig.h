/* crtrig: correctly rounded window and trigonometric functions.
 *
 * Public C interface of the core.  Every floating-point result is the exact
 * real value rounded once, to nearest with ties to even, into the output type.
 */
#ifndef CRTRIG_CRTRIG_H
#define CRTRIG_CRTRIG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Output types, in the order of the Python layer's dtype table. */
typedef enum crtrig_dtype {
    CRTRIG_FLOAT16 = 0,
    CRTRIG_BFLOAT16,
    CRTRIG_FLOAT32,
    CRTRIG_FLOAT64,
    CRTRIG_INT8,
    CRTRIG_UINT8,
    CRTRIG_INT16,
    CRTRIG_UINT16,
    CRTRIG_INT32,
    CRTRIG_UINT32,
    CRTRIG_INT64,
    CRTRIG_UINT64,
    CRTRIG_NUM_DTYPES
} crtrig_dtype;

typedef enum crtrig_window_kind {
    CRTRIG_HANN = 0,
    CRTRIG_HAMMING,
    CRTRIG_BLACKMAN,
    CRTRIG_NUM_WINDOWS
} crtrig_window_kind;

/* Status codes. */
#define CRTRIG_OK 0
#define CRTRIG_EINVAL 1   /* bad kind, dtype or size */
#define CRTRIG_ENOMEM 2   /* the multi-precision path could not allocate */
#define CRTRIG_ENOCONV 3  /* the multi-precision path hit its precision cap (never seen) */

/* Largest accepted window size: 2^53, so that every index and denominator
 * (up to 2 * size) is an exact double. */
#define CRTRIG_WINDOW_MAX_SIZE ((int64_t)1 << 53)

/* Evaluation stages, from cheapest to most precise. */
typedef enum crtrig_stage {
    CRTRIG_STAGE_DOUBLE = 0,      /* double arithmetic, relative error < 2^-47 */
    CRTRIG_STAGE_DOUBLE_DOUBLE,   /* double-double, relative error < 2^-96 */
    CRTRIG_STAGE_MULTI            /* fixed-point multi-precision Ziv loop */
} crtrig_stage;

/* Test hooks: where evaluation starts and how many elements each stage decided. */
typedef struct crtrig_eval_options {
    int first_stage;       /* a crtrig_stage; later stages still follow if needed */
    int multi_start_bits;  /* first precision of the multi-precision loop (0: default) */
} crtrig_eval_options;

typedef struct crtrig_stage_counts {
    uint64_t exact;          /* rational points (s in {0, 1/4, 1/2, 3/4, 1}) and NaN */
    uint64_t by_stage[3];    /* elements decided by each crtrig_stage */
    uint64_t multi_retries;  /* precision increases inside the multi-precision loop */
    uint64_t mirrored;       /* window elements copied from their mirror image w[D - n] */
} crtrig_stage_counts;

/* Fill out[0 .. size-1] (byte stride `stride`, may be negative) with the
 * window of the given kind: w[n] = sum_j (-1)^j a_j cos(2 pi j n / D),
 * D = size if periodic else size - 1 (ONNX HannWindow/HammingWindow/BlackmanWindow-17).
 * Float outputs are correctly rounded; integer outputs are the truncation of
 * the correctly rounded float32 value (NaN -> 0), as ONNX Cast does.
 * Returns CRTRIG_OK or an error code; on error nothing useful is written. */
int crtrig_window(crtrig_window_kind kind, int64_t size, int periodic,
                  crtrig_dtype dtype, char *out, ptrdiff_t stride);

/* The same with test hooks; opt and counts may be NULL. */
int crtrig_window_ex(crtrig_window_kind kind, int64_t size, int periodic,
                     crtrig_dtype dtype, char *out, ptrdiff_t stride,
                     const crtrig_eval_options *opt, crtrig_stage_counts *counts);

/* sin and cos, elementwise (ONNX Sin-22 / Cos-22), for float16, bfloat16,
 * float32 and float64 arrays: out[i] = f(in[i]) correctly rounded into the same dtype.
 * Strides in bytes, any sign.  +-inf gives NaN and raises FE_INVALID; NaN
 * gives NaN and raises nothing; finite inputs raise no flag that numpy reads
 * (invalid, divide, overflow, underflow).  Returns CRTRIG_OK or an error code. */
typedef enum crtrig_trig_func { CRTRIG_SIN = 0, CRTRIG_COS = 1 } crtrig_trig_func;

int crtrig_trig_strided(crtrig_trig_func func, crtrig_dtype dtype, const char *in,
                        ptrdiff_t in_stride, char *out, ptrdiff_t out_stride, size_t count);

/* Test hook: f(x) for a double x that is a value of dtype's format (float16,
 * bfloat16 or float32), correctly rounded into that format, as a double. */
int crtrig_trig_element(crtrig_trig_func func, crtrig_dtype dtype, double x,
                        const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                        double *result);

/* Choose the SIMD target for vector kernels, once, before other calls (the
 * Python module calls it at import).  requested: a target name ("baseline",
 * "avx2", "avx512") to use if this CPU supports it, or NULL for the best one.
 * Returns the name of the target chosen. */
const char *crtrig_init(const char *requested);

/* Test hook: crtrig_trig_strided through the kernels of target index
 * (0 baseline, 1 avx2, 2 avx512); CRTRIG_EINVAL if not available here. */
int crtrig_trig_strided_target(int target, crtrig_trig_func func, crtrig_dtype dtype,
                               const char *in, ptrdiff_t in_stride, char *out,
                               ptrdiff_t out_stride, size_t count);
/* Name of target index i if compiled in and supported by this CPU, else NULL. */
const char *crtrig_target_name(int i);

/* Test hook: element n (0 <= n <= D <= 2^53) of a window with denominator D,
 * correctly rounded into the float format of dtype (float32 for integer
 * dtypes), as a double.  opt and counts as in crtrig_window_ex. */
int crtrig_window_element(crtrig_window_kind kind, uint64_t n, uint64_t D, crtrig_dtype dtype,
                          const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                          double *result);

/* Test hooks: the unrounded value and error bound of the SIMD first passes
 * (baseline build): sin/cos for 2^-120 <= |x| < 2^24, w[n] for 0 <= n <= D. */
void crtrig_sincos_pass_value_baseline(int func, double x, double *y, double *e);
void crtrig_window_pass_value_baseline(int kind, double n, double D, double *w, double *e);

/* Test hooks of the first passes of target index `target` (as in
 * crtrig_trig_strided_target), all returning CRTRIG_EINVAL outside their domain:
 *   crtrig_sincos_pass_target: the first pass alone over count contiguous
 *     elements of dtype (float16 .. float64): out[i] is final where undecided[i] == 0;
 *   crtrig_sincos64_value_target: the float64 pass's unrounded f(x) = *hi + *lo and
 *     its bound *e for finite |x| >= 2^-27, through the large reduction (large != 0)
 *     or the small one (|x| < 2^17); *flag is the lane's undecided code (0 or 2
 *     from the rounding test, 1 if refused);
 *   crtrig_window_pass_target: the window pass of dtype's format (float16 .. float64)
 *     for n = first .. first + count - 1 <= D, 1 <= D <= 2^52;
 *   crtrig_window64_value_target: the float64 window pass's unrounded w[n] and bound. */
int crtrig_sincos_pass_target(int target, crtrig_trig_func func, crtrig_dtype dtype,
                              const char *in, char *out, size_t count, unsigned char *undecided);
int crtrig_sincos64_value_target(int target, crtrig_trig_func func, double x, int large,
                                 double *hi, double *lo, double *e, int *flag);
int crtrig_window_pass_target(int target, crtrig_window_kind kind, uint64_t first, uint64_t D,
                              crtrig_dtype dtype, size_t count, char *out, unsigned char *undecided);
int crtrig_window64_value_target(int target, crtrig_window_kind kind, uint64_t n, uint64_t D,
                                 double *hi, double *lo, double *e, int *flag);

/* Test hook: the unrounded value of w[n] from the double (lo = 0) or the
 * double-double stage, for checking their error bounds (2^-47 and 2^-96).
 * Returns CRTRIG_EINVAL where w[n] is an exact point (or D == 0, n > D, bad
 * kind or stage), else CRTRIG_OK. */
int crtrig_window_stage_value(crtrig_window_kind kind, uint64_t n, uint64_t D,
                              crtrig_stage stage, double *hi, double *lo);

#ifdef __cplusplus
}
#endif

#endif
