/* The first-pass kernels compiled for AVX-512 F, DQ, VL and BW (x86-64, GCC or clang).  No FMA:
 * these features do not enable it, and contraction is off anyway. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512vl,avx512bw")
#endif
#define CRTRIG_SIMD_SUFFIX avx512
#include "sincos_pass.h"
#include "window_pass.h"
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
typedef int crtrig_no_avx512_kernels; /* ISO C forbids an empty translation unit */
#endif
