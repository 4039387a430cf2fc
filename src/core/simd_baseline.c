/* The first-pass kernels compiled for the baseline of the platform (SSE2 on
 * x86-64, NEON on aarch64, whatever the compiler targets by default).  This is
 * the reference and the fallback of the SIMD targets.
 * CRTRIG_KERNEL_FMA (kernel_dd.h): aarch64's baseline has a fused multiply-add,
 * which fma() compiles to; elsewhere (x86-64's SSE2) fma() may be a slow libm
 * call, so the float64 kernels split products instead. */
#if defined(__aarch64__)
#define CRTRIG_KERNEL_FMA 1
#else
#define CRTRIG_KERNEL_FMA 0
#endif
#define CRTRIG_SIMD_SUFFIX baseline
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
