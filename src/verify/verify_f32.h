/* Verification of crtrig's float32 sin/cos against an independent oracle.
 *
 * The oracle is the C library's long double sinl/cosl, used only where long
 * double is the x87 80-bit format (64-bit significand) running at full
 * precision in round-to-nearest.  For an input x the oracle value
 * L = sinl((long double)x) decides the correctly rounded float32 result when
 * L is farther than a margin (2^-margin_log2 * |L|) from every float32
 * rounding boundary; otherwise the input is "escalated": handed back to the
 * caller, who checks it exactly.
 *
 * Nothing of crtrig is called or linked here: the caller (crtrig/_verify.pyx)
 * obtains the values under test from crtrig's public per-target entry point
 * crtrig_trig_strided_target (include/crtrig/crtrig.h, in crtrig._core) and
 * hands them in; crtrig.h is included for the function codes only.
 */
#ifndef CRTRIG_VERIFY_F32_H
#define CRTRIG_VERIFY_F32_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest number of inputs one call of verify_f32_block accepts. */
#define VERIFY_F32_MAX_BLOCK 4096

/* Oracle status codes (verify_f32_oracle_status and verify_f32_block). */
#define VERIFY_F32_OK 0
#define VERIFY_F32_NO_X87_LONG_DOUBLE 1   /* long double lacks a 64-bit significand */
#define VERIFY_F32_REDUCED_PRECISION 2    /* x87 precision control is not 64 bits */
#define VERIFY_F32_NOT_NEAREST 3          /* rounding mode is not to-nearest */
#define VERIFY_F32_BAD_ARGUMENT 4         /* bad func, count or margin */
/* Reported by the caller (crtrig/_verify.pyx), which computes the values under test: */
#define VERIFY_F32_CRTRIG_FAILED 5        /* crtrig_trig_strided_target returned an error */
#define VERIFY_F32_NO_TARGET 6            /* the SIMD target is unknown or not supported here */

/* Margins accepted by verify_f32_block, as log2 of the relative margin. */
#define VERIFY_F32_MIN_MARGIN_LOG2 8
#define VERIFY_F32_MAX_MARGIN_LOG2 60

/* One input whose crtrig result differs from the oracle's. */
typedef struct verify_f32_mismatch {
    uint32_t input;     /* bit pattern of x */
    uint32_t got;       /* crtrig's result */
    uint32_t expected;  /* the oracle's correctly rounded result (a NaN for NaN/inf x) */
} verify_f32_mismatch;

/* What one block produced.  Arrays hold `escalated` resp. `wrong` entries. */
typedef struct verify_f32_block_result {
    uint64_t checked;      /* inputs decided and compared here (not escalated) */
    uint64_t nonfinite;    /* of those, NaN and infinite inputs (expected: NaN) */
    uint64_t wrong;        /* of those, inputs where crtrig differs */
    uint64_t escalated;    /* inputs left to the caller's exact check */
    uint32_t escalated_inputs[VERIFY_F32_MAX_BLOCK];
    uint32_t escalated_results[VERIFY_F32_MAX_BLOCK];  /* crtrig's results for them */
    verify_f32_mismatch mismatches[VERIFY_F32_MAX_BLOCK];
} verify_f32_block_result;

/* VERIFY_F32_OK when the long double oracle can be used in this thread,
 * otherwise the reason it cannot. */
int verify_f32_oracle_status(void);

/* Significand bits of long double (LDBL_MANT_DIG) in this build. */
int verify_f32_long_double_digits(void);

/* Check results[i], crtrig's float32 sin (func 0, CRTRIG_SIN) or cos (func 1,
 * CRTRIG_COS) of inputs[i], for `count` (at most VERIFY_F32_MAX_BLOCK) inputs
 * and results given as bit patterns.  Fills *result and returns
 * VERIFY_F32_OK, or an error code (then *result is meaningless). */
int verify_f32_block(int func, const uint32_t *inputs, const uint32_t *results, size_t count,
                     int margin_log2, verify_f32_block_result *result);

/* The oracle value alone: *value = sinl/cosl((long double)x) for the float32
 * with bit pattern `input`, for checking the oracle itself.  `value` points to
 * a long double.  Returns VERIFY_F32_OK or an error code. */
int verify_f32_oracle_value(int func, uint32_t input, void *value);

#ifdef __cplusplus
}
#endif

#endif
