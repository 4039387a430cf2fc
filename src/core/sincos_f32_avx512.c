/* The float32 sin/cos first pass compiled for AVX-512 (F, DQ, VL, BW; x86-64,
 * GCC or clang).  No FMA: these features do not enable it, and contraction is off. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512vl,avx512bw")
#endif
#define SINCOS_F32_FIRST_PASS crtrig_sincos_f32_pass_avx512
#include "sincos_f32_pass.h"
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
typedef int crtrig_no_avx512_kernels; /* ISO C forbids an empty translation unit */
#endif
