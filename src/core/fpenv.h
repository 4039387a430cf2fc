/* The floating-point environment the core computes in (internal).
 *
 * The error bounds of every stage assume IEEE round-to-nearest-even with
 * subnormals kept, so the core must not inherit the caller's rounding mode or
 * flush-to-zero (FTZ) / denormals-are-zero (DAZ) settings.  Each entry point
 * that computes brackets its work, once per call (one ufunc loop invocation,
 * one window fill; in a thread pool, once per task in each worker, since the
 * environment is per thread), with
 *
 *     crtrig_fpenv saved;
 *     crtrig_fpenv_enter(&saved);   // save; round to nearest, FTZ/DAZ off, traps masked
 *     ... all floating-point work, in functions called from here ...
 *     crtrig_fpenv_leave(&saved, raise_flags);
 *
 * crtrig_fpenv_leave restores the saved environment exactly (control bits and
 * exception flags: flags raised inside, such as inexact or underflow of
 * intermediate results, are discarded), then raises the flags asked for
 * (raise_flags: CRTRIG_FLAG_* bits): FE_INVALID for an infinite input,
 * FE_DIVBYZERO at a pole of tanpi, FE_OVERFLOW (with FE_INEXACT) for a float16
 * tan that overflows (numpy reads the flags after the loop).
 *
 * Both are out-of-line functions in fpenv.c: a compiler may move
 * floating-point arithmetic across an inlined mode switch (GCC and clang
 * ignore #pragma STDC FENV_ACCESS).  Callers keep every floating-point
 * operation inside functions called between the two, never in the entry
 * point itself.
 *
 * Methods (crtrig_fpenv_method names them):
 *   "mxcsr"  x86-64 (GCC, clang, MSVC): the SSE control/status register, which
 *            all double and float arithmetic uses there.  A few cycles.
 *   "fpcr"   aarch64 (GCC, clang): FPCR (control) and FPSR (flags).
 *   "msvc"   other MSVC targets: fegetenv/fesetenv plus _controlfp_s for the
 *            rounding, denormal and exception-mask controls.
 *   "fenv"   anything else: fegetenv/feholdexcept, fesetenv(FE_DFL_ENV) and
 *            fesetenv back (FTZ/DAZ, where they exist, are part of the
 *            default environment only as the platform defines it).
 */
#ifndef CRTRIG_FPENV_H
#define CRTRIG_FPENV_H

#include <stdint.h>

#if defined(__x86_64__) || (defined(_M_X64) && !defined(_M_ARM64EC))
#define CRTRIG_FPENV_MXCSR 1
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#define CRTRIG_FPENV_FPCR 1
#elif defined(_MSC_VER)
#define CRTRIG_FPENV_MSVC 1
#include <fenv.h>
#else
#define CRTRIG_FPENV_GENERIC 1
#include <fenv.h>
#endif

typedef struct crtrig_fpenv {
#if defined(CRTRIG_FPENV_MXCSR)
    unsigned int mxcsr;
#elif defined(CRTRIG_FPENV_FPCR)
    uint64_t fpcr, fpsr;
#elif defined(CRTRIG_FPENV_MSVC)
    fenv_t env;
    unsigned int control;
#else
    fenv_t env;
#endif
} crtrig_fpenv;

/* For the functions that hold the floating-point work of an entry point, so
 * that no compiler moves it out of the bracket (and for these two). */
#if defined(_MSC_VER)
#define CRTRIG_NOINLINE __declspec(noinline)
#elif defined(__GNUC__) || defined(__clang__)
#define CRTRIG_NOINLINE __attribute__((noinline))
#else
#define CRTRIG_NOINLINE
#endif

void crtrig_fpenv_enter(crtrig_fpenv *saved);
void crtrig_fpenv_leave(const crtrig_fpenv *saved, int raise_flags);

#endif
