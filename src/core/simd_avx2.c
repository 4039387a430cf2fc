/* The first-pass kernels compiled for AVX2 (x86-64, GCC or clang).  No FMA:
 * "avx2" alone does not enable it, and contraction is off anyway. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
#define CRTRIG_SIMD_SUFFIX avx2
#include "sincos_pass.h"
#include "window_pass.h"
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
typedef int crtrig_no_avx2_kernels; /* ISO C forbids an empty translation unit */
#endif
