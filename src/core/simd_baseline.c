/* The first-pass kernels compiled for the baseline of the platform (SSE2 on
 * x86-64, NEON on aarch64, whatever the compiler targets by default).  This is
 * the reference and the fallback of the SIMD targets. */
#define CRTRIG_SIMD_SUFFIX baseline
#include "sincos_pass.h"
#include "window_pass.h"
