/* crtrig: correctly rounded window and trigonometric functions.
 *
 * Public C interface of the core.  Every floating-point result is the exact
 * real value rounded once, to nearest with ties to even, into the output type.
 *
 * The caller's floating-point environment does not matter: each call that
 * computes saves the calling thread's environment, computes in
 * round-to-nearest with flush-to-zero and denormals-are-zero off and all
 * exceptions masked, and restores the environment exactly (control bits and
 * exception flags) before it returns.  The only flags a call leaves raised are
 * FE_INVALID, for sin, cos, ... of an infinity (see crtrig_trig_strided),
 * FE_DIVBYZERO at a pole of tanpi and FE_OVERFLOW (with FE_INEXACT) for a
 * float16 tan that overflows, in the calling thread also when pool threads did
 * the work (each of them computes in the same environment, set and restored
 * around its share).
 *
 * Functions marked "test hook" exist for crtrig's own tests.
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

/* A window with a parameter (crtrig_window_spec_ex and the _spec test hooks):
 * kind is a crtrig_window_kind (the alpha fields are then ignored) or
 * CRTRIG_GENERAL_HAMMING, scipy's general_hamming:
 *   w[n] = alpha - (1 - alpha) cos(2 pi n / D),  alpha = alpha_num / alpha_den,
 * exactly, for 0 <= alpha_num <= alpha_den, 1 <= alpha_den (0 <= alpha <= 1;
 * any fraction, reduced or not).  alpha = 1/2 is Hann; 27/50 is the classic
 * Hamming window of numpy, scipy and torch (0.54/0.46); 25/46 is ONNX's.
 * For alpha < 1/2 the window is negative near n = 0 (w[0] = 2 alpha - 1). */
#define CRTRIG_GENERAL_HAMMING 3
typedef struct crtrig_window_spec {
    int kind;
    uint64_t alpha_num, alpha_den;
} crtrig_window_spec;

/* Status codes. */
#define CRTRIG_OK 0
#define CRTRIG_EINVAL 1   /* bad kind, dtype, size, stride or target; nothing is written */
#define CRTRIG_ENOMEM 2   /* the multi-precision workspace could not be allocated */
#define CRTRIG_ENOCONV 3  /* the multi-precision path hit its precision cap (never seen) */

/* Largest accepted window size: 2^53, so that every index and denominator
 * (up to 2 * size) is an exact double. */
#define CRTRIG_WINDOW_MAX_SIZE ((int64_t)1 << 53)

/* Evaluation stages, from cheapest to most precise.  For float64 sin/cos,
 * stage 0 is the vectorized first pass of the array kernel; through
 * crtrig_trig_element it means "start at double-double". */
typedef enum crtrig_stage {
    CRTRIG_STAGE_DOUBLE = 0,      /* double arithmetic, relative error < 2^-47 */
    CRTRIG_STAGE_DOUBLE_DOUBLE,   /* double-double, relative error < 2^-96 (sin/cos: < 2^-100.9) */
    CRTRIG_STAGE_MULTI            /* fixed-point multi-precision Ziv loop */
} crtrig_stage;

/* Test hooks: where evaluation starts, on which SIMD target, and how many
 * elements each stage decided.  All zero means normal operation. */
typedef struct crtrig_eval_options {
    int first_stage;       /* a crtrig_stage; later stages still follow if needed.  Array
                              calls skip their SIMD first pass when it is not
                              CRTRIG_STAGE_DOUBLE. */
    int multi_start_bits;  /* first precision of the multi-precision loop (0: default) */
    int simd_target;       /* 0: the active target; 1 + i: target index i
                              (CRTRIG_EINVAL if it is not available here) */
} crtrig_eval_options;

typedef struct crtrig_stage_counts {
    uint64_t exact;          /* rational points (s in {0, 1/4, 1/2, 3/4, 1}), NaN, inf,
                                +-0, and float64 sin/cos of tiny |x| (sin x = x, cos x = 1) */
    uint64_t by_stage[3];    /* elements decided by each crtrig_stage */
    uint64_t multi_retries;  /* precision increases inside the multi-precision loop */
    uint64_t mirrored;       /* window elements copied from their mirror image w[D - n] */
} crtrig_stage_counts;

/* Fill out[0 .. size-1] (byte stride `stride`, may be negative) with the
 * window of the given kind: w[n] = sum_j (-1)^j a_j cos(2 pi j n / D),
 * D = size if periodic else size - 1 (ONNX HannWindow/HammingWindow/BlackmanWindow-17).
 * Float outputs are correctly rounded; integer outputs are the truncation of
 * the correctly rounded float32 value (NaN -> 0), as ONNX Cast does.
 * The elements must not overlap each other: |stride| >= the element size
 * when size > 1, else CRTRIG_EINVAL.  The multi-precision workspace is
 * allocated once per thread taking part, before anything is written, so
 * CRTRIG_EINVAL and CRTRIG_ENOMEM leave out untouched.  Large fills run on
 * several threads (see crtrig_set_num_threads).  Returns CRTRIG_OK or an
 * error code. */
int crtrig_window(crtrig_window_kind kind, int64_t size, int periodic,
                  crtrig_dtype dtype, char *out, ptrdiff_t stride);

/* The same with test hooks; opt and counts may be NULL. */
int crtrig_window_ex(crtrig_window_kind kind, int64_t size, int periodic,
                     crtrig_dtype dtype, char *out, ptrdiff_t stride,
                     const crtrig_eval_options *opt, crtrig_stage_counts *counts);

/* crtrig_window_ex for a window given by a spec (the general Hamming window
 * among others): the same guarantees and errors, and CRTRIG_EINVAL for a bad
 * spec.  Float outputs are correctly rounded (negative values included);
 * integer outputs truncate the correctly rounded float32 value toward zero
 * through int32 (a value of -1, only at n = 0 of alpha = 0, wraps to the
 * maximum of an unsigned type, as C's conversion does). */
int crtrig_window_spec_ex(const crtrig_window_spec *spec, int64_t size, int periodic,
                          crtrig_dtype dtype, char *out, ptrdiff_t stride,
                          const crtrig_eval_options *opt, crtrig_stage_counts *counts);

/* The general Hamming window (see crtrig_window_spec): crtrig_window_spec_ex
 * without test hooks. */
int crtrig_window_general_hamming(uint64_t alpha_num, uint64_t alpha_den, int64_t size, int periodic,
                                  crtrig_dtype dtype, char *out, ptrdiff_t stride);

/* Cosine-sum windows with K exact rational coefficients (scipy's general_cosine,
 * nuttall, blackmanharris, flattop; crtrig.windows; src/core/window_cosum.c):
 *   w[n] = sum_{k<K} b_k cos(2 pi k n / D), D = size (periodic) or size - 1,
 * correctly rounded into dtype, for size >= 2.  b_k = (-1)^negative[k] num[k]/den[k]
 * with 1 <= den[k] <= 2^62, |b_k| < 2^14 and sum_k (floor|b_k| + 1) <= 2^15.
 * poly_hi/poly_lo: the K coefficients q_j of P(c) = sum_k b_k T_k(c) in powers of
 * c = cos(2 pi n/D), each q_hi + q_lo within 2^-105 |q_j| (the caller computes
 * them exactly; crtrig.windows does).  skip: ascending folded phases r <= D/2
 * whose elements n = r, D - r are NOT written (the caller rounds those exactly:
 * the phases where w is rational, see window_cosum.c; at a phase where w is a
 * rounding boundary and that is not skipped the fill returns CRTRIG_ENOCONV,
 * possibly after writing other elements).  opt: first_stage and
 * multi_start_bits as for crtrig_window_ex; simd_target must be 0 (one scalar
 * path).  CRTRIG_EINVAL for bad arguments, CRTRIG_ENOMEM: nothing written. */
#define CRTRIG_COSUM_MAX_TERMS 16
typedef struct crtrig_cosum_spec {
    int terms;
    const int *negative;
    const uint64_t *num, *den;
    const double *poly_hi, *poly_lo;
    const uint64_t *skip;
    size_t skip_count;
    /* An optional term lin r/D (r the folded phase; barthann's), lin =
     * (-1)^lin_negative lin_num/lin_den within the same ranges as b_k (lin_num = 0:
     * none), lin_hi + lin_lo the double-double of lin/D (this call's D) within
     * 2^-105 relatively. */
    int lin_negative;
    uint64_t lin_num, lin_den;
    double lin_hi, lin_lo;
} crtrig_cosum_spec;
int crtrig_cosum_window_ex(const crtrig_cosum_spec *spec, int64_t size, int periodic, crtrig_dtype dtype,
                           char *out, ptrdiff_t stride, const crtrig_eval_options *opt,
                           crtrig_stage_counts *counts);

/* Test hook: crtrig_window_ex for the elements [lo, hi) of the window only
 * (0 <= lo <= hi <= size; out still points at element 0): what one thread of a
 * split fill computes.  Nothing outside [lo, hi) is read or written. */
int crtrig_window_range(crtrig_window_kind kind, int64_t size, int periodic, crtrig_dtype dtype,
                        char *out, ptrdiff_t stride, uint64_t lo, uint64_t hi,
                        const crtrig_eval_options *opt, crtrig_stage_counts *counts);

/* The same for a spec. */
int crtrig_window_spec_range(const crtrig_window_spec *spec, int64_t size, int periodic,
                             crtrig_dtype dtype, char *out, ptrdiff_t stride, uint64_t lo, uint64_t hi,
                             const crtrig_eval_options *opt, crtrig_stage_counts *counts);

/* sin and cos, elementwise (ONNX Sin-22 / Cos-22), for float16, bfloat16,
 * float32 and float64 arrays: out[i] = f(in[i]) correctly rounded into the same dtype.
 * Strides in bytes, any sign.  +-inf gives NaN and raises FE_INVALID (after
 * the caller's environment is restored); NaN gives NaN and raises nothing;
 * finite inputs raise no flag.
 * Overlap: the result is that of an in-order element-by-element loop that
 * reads in[i] before it writes out[i].  So out may be in itself (same
 * stride) or lag behind in (writing out[i] changes no in[j] with j > i): the
 * overlaps numpy hands to a ufunc loop without copying; then the result
 * equals the call on a copy of the input.
 * Large calls run on several threads (see crtrig_set_num_threads), except
 * when the output overlaps the input other than exactly in place (same
 * pointer and stride) or itself: those run on the calling thread, in order.
 * The multi-precision workspace is allocated on the first element that needs
 * it (practically never), once per call and thread taking part; CRTRIG_ENOMEM
 * if that fails (other elements may have been written: the ones before it
 * on one thread, any on several).  Returns CRTRIG_OK or an error code. */
/* CRTRIG_SINPI, CRTRIG_COSPI: sin(pi x) and cos(pi x) (IEEE 754-2019 sinPi,
 * cosPi), with the same contract; their special values are IEEE 754-2019
 * 9.2.1's: sinpi(+n) = +0, sinpi(-n) = -0 for integers n, cospi(n + 1/2) = +0,
 * +-inf gives NaN and FE_INVALID (src/core/trigpi.c). */
/* CRTRIG_TAN, CRTRIG_TANPI: tan(x) (ONNX Tan-22) and tan(pi x) (IEEE 754-2019
 * tanPi), with the same contract; tan(+-0) = +-0, tanpi's special values are
 * IEEE 754-2019 9.2.1's: tanpi(+-0) = +-0, tanpi(n) = +0 for positive even and
 * negative odd integers n, -0 for positive odd and negative even ones;
 * tanpi(n + 1/2) = +inf for even n, -inf for odd n, raising FE_DIVBYZERO; a
 * float16 tan beyond the format's range (only tan(+-177.5)) is +-inf with
 * FE_OVERFLOW and FE_INEXACT; +-inf gives NaN and FE_INVALID (src/core/tan.c). */
typedef enum crtrig_trig_func {
    CRTRIG_SIN = 0,
    CRTRIG_COS = 1,
    CRTRIG_SINPI = 2,
    CRTRIG_COSPI = 3,
    CRTRIG_TAN = 4,
    CRTRIG_TANPI = 5
} crtrig_trig_func;
#define CRTRIG_TRIG_FUNC_LAST CRTRIG_TANPI
/* sinpi and cospi: their own stages (trigpi.c) and first passes (float32, float64). */
#define CRTRIG_TRIG_FUNC_IS_PI(func) ((func) == CRTRIG_SINPI || (func) == CRTRIG_COSPI)
/* tan and tanpi: no SIMD first pass, no self-check, no result tables: every
 * element through the per-element stages of tan.c. */
#define CRTRIG_TRIG_FUNC_IS_TAN(func) ((func) == CRTRIG_TAN || (func) == CRTRIG_TANPI)

int crtrig_trig_strided(crtrig_trig_func func, crtrig_dtype dtype, const char *in,
                        ptrdiff_t in_stride, char *out, ptrdiff_t out_stride, size_t count);

/* Test hook: crtrig_trig_strided with evaluation options (target, forced
 * stage) and stage counts; opt and counts may be NULL. */
int crtrig_trig_strided_ex(crtrig_trig_func func, crtrig_dtype dtype, const char *in,
                           ptrdiff_t in_stride, char *out, ptrdiff_t out_stride, size_t count,
                           const crtrig_eval_options *opt, crtrig_stage_counts *counts);

/* Test hook: f(x) for a double x that is a value of dtype's format (float16,
 * bfloat16, float32, or float64: every double), correctly rounded into that
 * format, as a double.  opt->first_stage (0..2) is where evaluation starts:
 *   float16/bfloat16/float32: 0 double, 1 double-double, 2 multi-precision;
 *   float64: 0 (the vector first pass, not reachable here) and 1 start at
 *            double-double, 2 multi-precision (which also skips the exact
 *            shortcuts for tiny |x|, so it runs on subnormals too).
 * opt->multi_start_bits: 0 (default 128) up to 2^14.  CRTRIG_EINVAL for a bad
 * func, dtype, first_stage or multi_start_bits. */
int crtrig_trig_element(crtrig_trig_func func, crtrig_dtype dtype, double x,
                        const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                        double *result);

/* Test hook: crtrig_trig_element over count doubles x[i], in one call, but
 * without the entry points' floating-point environment switch: the flags the
 * evaluation itself raises stay visible to the caller, and the caller's
 * rounding mode and FTZ/DAZ apply (tests run it in the default environment).
 * result[i] as crtrig_trig_element gives it; stages[i] (stages may be NULL)
 * the stage that decided element i, or -1 for exact and special values.
 * CRTRIG_EINVAL as crtrig_trig_element (checked before anything is written). */
int crtrig_trig_values_raw(crtrig_trig_func func, crtrig_dtype dtype, const double *x, size_t count,
                           const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                           double *result, signed char *stages);

/* Test hook: the unrounded double-double value hi + lo of sin (func 0) or cos
 * (1) of x from the double-double stage, and the bound it proves,
 * |hi + lo - f(x)| <= *bound (= |hi| 0x1.1p-101: relative, even next to
 * multiples of pi/2).  For finite 2^-149 <= |x|; else CRTRIG_EINVAL. */
int crtrig_trig_dd_value(crtrig_trig_func func, double x, double *hi, double *lo, double *bound);

/* Test hook: the unrounded double-double value hi + lo of tan (CRTRIG_TAN) or
 * tanpi (CRTRIG_TANPI) of x from the double-double stage, and the bound it
 * proves, |hi + lo - f(x)| <= *bound (relative: 10.82 2^-103 |hi| for tan, 9.28
 * 2^-103 |hi| for tanpi; tan.c).  tan: finite |x| >= 2^-27; tanpi: 2^-60 <= |x|
 * < 2^52, x not a multiple of 1/4; else CRTRIG_EINVAL. */
int crtrig_tan_dd_value(crtrig_trig_func func, double x, double *hi, double *lo, double *bound);

/* SIMD target indices: 0 baseline, 1 avx2, 2 avx512. */
#define CRTRIG_NUM_TARGETS 3

/* Choose the SIMD target for vector kernels, once, before other calls (the
 * Python module calls it at import).  requested: a target name ("baseline",
 * "avx2", "avx512", any letter case), or NULL for the best one this CPU
 * supports.  Returns the name of the target chosen, or NULL (and nothing
 * changes) if the requested name is unknown or this CPU or build lacks it. */
const char *crtrig_init(const char *requested);

/* Name of target index i (0 <= i < CRTRIG_NUM_TARGETS) whether or not it is
 * available here; NULL for other i. */
const char *crtrig_target_index_name(int i);

/* Test hook: crtrig_trig_strided through the kernels of target index
 * (0 baseline, 1 avx2, 2 avx512); CRTRIG_EINVAL if not available here. */
int crtrig_trig_strided_target(int target, crtrig_trig_func func, crtrig_dtype dtype,
                               const char *in, ptrdiff_t in_stride, char *out,
                               ptrdiff_t out_stride, size_t count);
/* Name of target index i if compiled in and supported by this CPU, else NULL. */
const char *crtrig_target_name(int i);

/* Test hooks: the calling thread's floating-point state. */
#define CRTRIG_ROUND_NEAREST 0
#define CRTRIG_ROUND_UPWARD 1
#define CRTRIG_ROUND_DOWNWARD 2
#define CRTRIG_ROUND_TOWARDZERO 3
#define CRTRIG_FLAG_INVALID 1
#define CRTRIG_FLAG_DIVBYZERO 2
#define CRTRIG_FLAG_OVERFLOW 4
#define CRTRIG_FLAG_UNDERFLOW 8
#define CRTRIG_FLAG_INEXACT 16

typedef struct crtrig_fp_state {
    int rounding;      /* CRTRIG_ROUND_* */
    int ftz;           /* flush-to-zero of results (x86 MXCSR.FTZ; aarch64 FPCR.FZ) */
    int daz;           /* denormals-are-zero on inputs (x86 MXCSR.DAZ; aarch64 FPCR.FZ too) */
    int flags;         /* CRTRIG_FLAG_* raised (fetestexcept) */
    uint64_t control;  /* the raw control register (MXCSR without its flags, or FPCR), else 0 */
    uint64_t status;   /* the raw flags (MXCSR bits 0-5, or FPSR), else 0 */
} crtrig_fp_state;

/* How the core switches the environment: "mxcsr", "fpcr", "msvc" or "fenv". */
const char *crtrig_fpenv_method(void);
void crtrig_fp_state_get(crtrig_fp_state *state);
/* Set rounding, ftz, daz and flags (control and status are ignored).
 * CRTRIG_EINVAL for values out of range, or ftz/daz where they cannot be set. */
int crtrig_fp_state_set(const crtrig_fp_state *state);
/* Run *fn_result = fn(arg) under *state, with the state read back right
 * before and right after fn, then restore the calling thread's environment
 * exactly as it was.  CRTRIG_EINVAL (fn not run) if *state cannot be set. */
int crtrig_fp_run_under(const crtrig_fp_state *state, int (*fn)(void *), void *arg,
                        crtrig_fp_state *before, crtrig_fp_state *after, int *fn_result);

/* Threads.  A call over many elements (a sin/cos loop of at least the
 * parallel threshold, 65536 elements, whose output does not overlap its input
 * other than exactly in place; a window fill of at least that size) is split
 * over up to crtrig_get_num_threads() threads, and at most max(8, 2 * the
 * CPUs available) (the CPUs of the affinity mask on Linux, the online CPUs
 * elsewhere, counted when the pool is created): the calling thread and a
 * small pool of worker threads, each with a 256 KiB stack, that the core
 * starts on first need and keeps while the thread count asks for them.  The
 * split is in whole blocks of 256 elements and results do not depend on it
 * (every result is correctly rounded).  While the pool works for one call,
 * any other call runs on its own calling thread alone, without waiting, so
 * concurrent callers neither deadlock nor multiply threads.  Workers never
 * call back into the application.  After fork the child starts its own pool
 * on its first large call.
 *
 * The thread count is process-wide, 1 (no worker threads) until set; the
 * Python module sets it at import (CRTRIG_NUM_THREADS, else the CPUs
 * available to the process).  crtrig_set_num_threads may be called from any
 * thread at any time; a call in progress keeps the count it started with.
 * Lowering it makes the workers above the new count retire (their threads
 * end) as soon as no call is using the pool.  Any count up to
 * CRTRIG_MAX_THREADS is accepted, above the cap too.  Returns CRTRIG_OK, or
 * CRTRIG_EINVAL (nothing changes) unless 1 <= n <= CRTRIG_MAX_THREADS. */
#define CRTRIG_MAX_THREADS 1024
int crtrig_set_num_threads(int n);
int crtrig_get_num_threads(void);
/* "pthreads" or "win32". */
const char *crtrig_threads_method(void);
/* Test hooks: set the parallel threshold to n >= 0 elements (n < 0: leave it)
 * and return the value it had; the pool's workers started, jobs run on several
 * threads and shares run by workers since the process started. */
long crtrig_test_parallel_threshold(long n);
void crtrig_test_pool_stats(long *workers, long *jobs, long *shares);

/* Test hook: make the k-th allocation of the core from now fail (k = 1: the
 * next one); k <= 0 turns failures off.  Returns the previous countdown: k
 * minus the allocations made since it was set, or 0 once one has failed.
 * Process-wide test-only state, updated atomically. */
long crtrig_test_fail_allocation(long k);

/* Test hook: 1 if the result table of sin (func 0) or cos (1) for float16 (dtype 0)
 * or bfloat16 (1) has been built in this process, 0 if not (yet), -1 for other
 * arguments.  Normal sin/cos calls on float16 and bfloat16 build it at first use
 * (README, "Speed"). */
int crtrig_test_table16_built(int func, int dtype);

/* Test hook: element n (0 <= n <= D <= 2^53) of a window with denominator D,
 * correctly rounded into the float format of dtype (float32 for integer
 * dtypes), as a double.  opt and counts as in crtrig_window_ex. */
int crtrig_window_element(crtrig_window_kind kind, uint64_t n, uint64_t D, crtrig_dtype dtype,
                          const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                          double *result);

/* The same sum at listed phases: out[i] (i < count) = w at the phase
 * fold(first + i step) = min(|m| mod D, D - |m| mod D), 1 <= D <= 2^53, the phases
 * within 2^61 in magnitude; elements whose folded phase is in spec->skip are not
 * written.  (crtrig.windows' cosine, D = 4M, and barthann, with the lin term.) */
int crtrig_cosum_phases_ex(const crtrig_cosum_spec *spec, uint64_t D, int64_t first, int64_t step,
                           int64_t count, crtrig_dtype dtype, char *out, ptrdiff_t stride,
                           const crtrig_eval_options *opt, crtrig_stage_counts *counts);
/* Test hook: element n (0 <= n <= D <= 2^53) of the cosine-sum window of spec
 * (its skip list is checked but not used: the caller asks only for phases where
 * w is irrational), correctly rounded into dtype's format, as a double. */
int crtrig_cosum_element(const crtrig_cosum_spec *spec, uint64_t n, uint64_t D, crtrig_dtype dtype,
                         const crtrig_eval_options *opt, crtrig_stage_counts *counts, double *result);
int crtrig_window_spec_element(const crtrig_window_spec *spec, uint64_t n, uint64_t D,
                               crtrig_dtype dtype, const crtrig_eval_options *opt,
                               crtrig_stage_counts *counts, double *result);

/* Test hooks of the first passes of target index `target` (as in
 * crtrig_trig_strided_target), all returning CRTRIG_EINVAL outside their domain:
 *   crtrig_sincos_pass_target: the first pass alone over count contiguous
 *     elements of dtype (float16 .. float64; sinpi, cospi and tan float32 and float64):
 *     out[i] is final where undecided[i] == 0;
 *   crtrig_sincos32_value_target: the float32/bfloat16/float16 pass's unrounded
 *     f(x) = *y and its bound *e for a float32 value x with 2^-13 <= |x| <= the
 *     largest float32 (the small reduction below 2^24, the table one above);
 *   crtrig_sincos64_value_target: the float64 pass's unrounded f(x) = *hi + *lo and
 *     its bound *e for finite |x| >= 2^-27; mode (0..3) bit 0: the large reduction
 *     (set) or the small one (clear, |x| < 2^17), bit 1: the precise evaluation
 *     (set) or the quick one the pass tries first (clear); *flag is the lane's
 *     undecided code for that evaluation (0 or 2 from the rounding test);
 *   crtrig_window_pass_target: the window pass of dtype's format (float16 ..
 *     float64) over the folded phases r = first .. first + count - 1 <= D/2,
 *     1 <= D <= 2^52, with its own table: out[i] (the format's bits) is w at r
 *     where undecided[i] == 0, 2 where the rounding test failed;
 *   crtrig_window_table_value_target: the pass's unrounded w[n] = *hi + *lo and its
 *     bound *e for the format of dtype (float16 .. float64), 0 <= n <= D, from the
 *     table entries of r = min(n, D - n) = a B + c (B = 0: the hooks' default step),
 *     and *flag as in crtrig_window_pass_target;
 *   crtrig_sinpi_table_build_target: the tables' builder alone: s_hi[i] + s_lo[i] =
 *     sin(pi m/M) and c_hi[i] + c_lo[i] = cos(pi m/M), m = m0 + i step in [0, M/4],
 *     M <= 2^53. */
int crtrig_sincos_pass_target(int target, crtrig_trig_func func, crtrig_dtype dtype,
                              const char *in, char *out, size_t count, unsigned char *undecided);
int crtrig_sincos32_value_target(int target, crtrig_trig_func func, double x, double *y,
                                 double *e);
int crtrig_sincos64_value_target(int target, crtrig_trig_func func, double x, int mode,
                                 double *hi, double *lo, double *e, int *flag);
int crtrig_window_pass_target(int target, crtrig_window_kind kind, uint64_t first, uint64_t D,
                              crtrig_dtype dtype, size_t count, char *out, unsigned char *undecided);
int crtrig_window_table_value_target(int target, crtrig_window_kind kind, uint64_t n, uint64_t D,
                                     uint64_t B, crtrig_dtype dtype, double *hi, double *lo, double *e,
                                     int *flag);
int crtrig_sinpi_table_build_target(int target, uint64_t m0, int64_t step, uint64_t M, size_t count,
                                    double *s_hi, double *s_lo, double *c_hi, double *c_lo);
/* The two window pass hooks for a spec.  For the general Hamming window, *e
 * bounds |*hi + *lo - w| relative to the terms' magnitude M = |2 alpha - 1| +
 * 2 (1 - alpha) sin^2(pi n/D) (M = w for alpha >= 1/2), not to |w|. */
int crtrig_window_spec_pass_target(int target, const crtrig_window_spec *spec, uint64_t first,
                                   uint64_t D, crtrig_dtype dtype, size_t count, char *out,
                                   unsigned char *undecided);
int crtrig_window_spec_table_value_target(int target, const crtrig_window_spec *spec, uint64_t n,
                                          uint64_t D, uint64_t B, crtrig_dtype dtype, double *hi,
                                          double *lo, double *e, int *flag);

/* Test hook: the scalar crtrig_sincospi_ratio_dd (the per-element stages' sin(pi a/b)
 * or cos(pi a/b), 0 <= 4a <= b <= 2^54) that the tables' builder repeats. */
int crtrig_sinpi_ratio_dd_value(int use_cos, uint64_t a, uint64_t b, double *hi, double *lo);

/* Test hook: the unrounded value of w[n] from the double (lo = 0) or the
 * double-double stage, for checking their error bounds (2^-47 and 2^-96).
 * Returns CRTRIG_EINVAL where w[n] is an exact point (or D == 0, n > D, bad
 * kind or stage), else CRTRIG_OK. */
int crtrig_window_stage_value(crtrig_window_kind kind, uint64_t n, uint64_t D,
                              crtrig_stage stage, double *hi, double *lo);
/* The same for a spec; for the general Hamming window the stages' bounds
 * (2^-47 and 2^-96) are relative to M (see crtrig_window_spec_table_value_target). */
int crtrig_window_spec_stage_value(const crtrig_window_spec *spec, uint64_t n, uint64_t D,
                                   crtrig_stage stage, double *hi, double *lo);

#ifdef __cplusplus
}
#endif

#endif
