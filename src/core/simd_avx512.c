/* The first-pass kernels compiled for AVX-512 F, DQ, VL and BW with FMA (x86-64,
 * GCC or clang); dispatch.c checks these features.  The float64 kernels use
 * fma() for exact products (CRTRIG_KERNEL_FMA, kernel_dd.h); contraction stays
 * off, so the other kernels compute exactly as in the baseline. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512vl,avx512bw,fma")
#endif
#define CRTRIG_KERNEL_FMA 1
#define CRTRIG_KERNEL_WIDE 1 /* sincos32_core.h: fewer operations over shorter chains */
#define CRTRIG_SIMD_SUFFIX avx512
#include "sincos_pass.h"
#include "window_pass.h"
#include "sincos64_pass.h"
#include "window64_pass.h"
#include "sinpi_table_pass.h"
#include "trigpi_pass.h"
#include "tan_pass.h"
#include "exp_pass.h"
#include "kaiser_pass.h"
#include "sinc_pass.h"
#include "cosum_pass.h"
#include "taylor_pass.h"
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
typedef int crtrig_no_avx512_kernels; /* ISO C forbids an empty translation unit */
#endif
