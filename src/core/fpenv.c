/* Saving, setting and restoring the floating-point environment (see fpenv.h),
 * and the test hooks that read and set it (crtrig.h). */
#include <fenv.h>
#include "crtrig/crtrig.h"
#include "fpenv.h"

#if defined(CRTRIG_FPENV_MXCSR)
#include <xmmintrin.h>
#elif defined(CRTRIG_FPENV_MSVC)
#include <float.h>
#endif

#if defined(CRTRIG_FPENV_MXCSR)
/* MXCSR: flags IE DE ZE OE UE PE (bits 0-5), DAZ (6), exception masks (7-12),
 * rounding control (13-14: 0 nearest, 1 down, 2 up, 3 toward zero), FTZ (15).
 * Inside: 0x1f80, the power-on default: nearest, all exceptions masked,
 * FTZ and DAZ off. */
enum { MXCSR_FLAGS = 0x3f, MXCSR_DAZ = 0x40, MXCSR_FTZ = 0x8000, MXCSR_INSIDE = 0x1f80 };

static void save_registers(crtrig_fpenv *env) { env->mxcsr = _mm_getcsr(); }
static void restore_registers(const crtrig_fpenv *env) { _mm_setcsr(env->mxcsr); }

CRTRIG_NOINLINE void crtrig_fpenv_enter(crtrig_fpenv *saved)
{
    save_registers(saved);
    if ((saved->mxcsr & ~(unsigned int)MXCSR_FLAGS) != MXCSR_INSIDE)
        _mm_setcsr(MXCSR_INSIDE);
}

#elif defined(CRTRIG_FPENV_FPCR)
/* FPCR: RMode (bits 22-23: 0 nearest, 1 up, 2 down, 3 toward zero), FZ (24),
 * FZ16 (19), DN (25), AHP (26), trap enables (8-12, 15), FEAT_AFP's FIZ, AH,
 * NEP (0-2).  Inside: 0, the default (nearest, no flushing, default NaN off,
 * IEEE half precision, no traps).  FPSR holds the cumulative flags IOC DZC
 * OFC UFC IXC (bits 0-4) and IDC (7). */
static uint64_t read_fpcr(void)
{
    uint64_t v;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(v));
    return v;
}
static uint64_t read_fpsr(void)
{
    uint64_t v;
    __asm__ __volatile__("mrs %0, fpsr" : "=r"(v));
    return v;
}
static void write_fpcr(uint64_t v) { __asm__ __volatile__("msr fpcr, %0" : : "r"(v) : "memory"); }
static void write_fpsr(uint64_t v) { __asm__ __volatile__("msr fpsr, %0" : : "r"(v) : "memory"); }

static void save_registers(crtrig_fpenv *env)
{
    env->fpcr = read_fpcr();
    env->fpsr = read_fpsr();
}
static void restore_registers(const crtrig_fpenv *env)
{
    if (read_fpcr() != env->fpcr)
        write_fpcr(env->fpcr);
    write_fpsr(env->fpsr);
}

CRTRIG_NOINLINE void crtrig_fpenv_enter(crtrig_fpenv *saved)
{
    save_registers(saved);
    if (saved->fpcr != 0)
        write_fpcr(0);
}

#elif defined(CRTRIG_FPENV_MSVC)
/* Not exercised by the CI (no wheel for these targets).  fegetenv/fesetenv
 * carry the flags; _controlfp_s sets and restores the controls. */
enum { MSVC_CONTROLS = _MCW_RC | _MCW_DN | _MCW_EM };

static void save_registers(crtrig_fpenv *env)
{
    fegetenv(&env->env);
    _controlfp_s(&env->control, 0, 0);
}
static void restore_registers(const crtrig_fpenv *env)
{
    unsigned int unused;
    fesetenv(&env->env);
    _controlfp_s(&unused, env->control, MSVC_CONTROLS);
}

CRTRIG_NOINLINE void crtrig_fpenv_enter(crtrig_fpenv *saved)
{
    unsigned int unused;
    save_registers(saved);
    _controlfp_s(&unused, _RC_NEAR | _DN_SAVE | _MCW_EM, MSVC_CONTROLS);
}

#else
static void save_registers(crtrig_fpenv *env) { fegetenv(&env->env); }
static void restore_registers(const crtrig_fpenv *env) { fesetenv(&env->env); }

CRTRIG_NOINLINE void crtrig_fpenv_enter(crtrig_fpenv *saved)
{
    save_registers(saved);
    fesetenv(FE_DFL_ENV);
}
#endif

CRTRIG_NOINLINE void crtrig_fpenv_leave(const crtrig_fpenv *saved, int raise_flags)
{
    restore_registers(saved);
    /* Real exceptions: they honour the caller's traps. */
    if (raise_flags & CRTRIG_FLAG_INVALID)
        feraiseexcept(FE_INVALID);    /* sin, cos, ... of an infinity */
    if (raise_flags & CRTRIG_FLAG_DIVBYZERO)
        feraiseexcept(FE_DIVBYZERO);  /* a pole of tanpi */
    if (raise_flags & CRTRIG_FLAG_OVERFLOW)
        feraiseexcept(FE_OVERFLOW | FE_INEXACT);  /* float16 tan(177.5) = inf */
}

const char *crtrig_fpenv_method(void)
{
#if defined(CRTRIG_FPENV_MXCSR)
    return "mxcsr";
#elif defined(CRTRIG_FPENV_FPCR)
    return "fpcr";
#elif defined(CRTRIG_FPENV_MSVC)
    return "msvc";
#else
    return "fenv";
#endif
}

/* ------------------------------------------------------------------------ */
/* Test hooks: the calling thread's state, read and set. */

#ifndef FE_DIVBYZERO
#define FE_DIVBYZERO 0
#endif
#ifndef FE_OVERFLOW
#define FE_OVERFLOW 0
#endif
#ifndef FE_UNDERFLOW
#define FE_UNDERFLOW 0
#endif
#ifndef FE_INEXACT
#define FE_INEXACT 0
#endif

static const struct { int crtrig, fe; } FLAG_MAP[5] = {
    {CRTRIG_FLAG_INVALID, FE_INVALID},     {CRTRIG_FLAG_DIVBYZERO, FE_DIVBYZERO},
    {CRTRIG_FLAG_OVERFLOW, FE_OVERFLOW},   {CRTRIG_FLAG_UNDERFLOW, FE_UNDERFLOW},
    {CRTRIG_FLAG_INEXACT, FE_INEXACT},
};

/* The register bits of CRTRIG_FLAG_INVALID, DIVBYZERO, OVERFLOW, UNDERFLOW, INEXACT. */
#if defined(CRTRIG_FPENV_MXCSR)
static const unsigned int REGISTER_FLAG_BITS[5] = {0x01, 0x04, 0x08, 0x10, 0x20};  /* IE ZE OE UE PE */
#elif defined(CRTRIG_FPENV_FPCR)
static const unsigned int REGISTER_FLAG_BITS[5] = {0x01, 0x02, 0x04, 0x08, 0x10};  /* IOC DZC OFC UFC IXC */
#endif

void crtrig_fp_state_get(crtrig_fp_state *state)
{
    int raised = fetestexcept(FE_ALL_EXCEPT), i;
    state->flags = 0;
    for (i = 0; i < 5; i++)
        if (FLAG_MAP[i].fe && (raised & FLAG_MAP[i].fe))
            state->flags |= FLAG_MAP[i].crtrig;
#if defined(CRTRIG_FPENV_MXCSR)
    {
        static const int RC[4] = {CRTRIG_ROUND_NEAREST, CRTRIG_ROUND_DOWNWARD, CRTRIG_ROUND_UPWARD,
                                  CRTRIG_ROUND_TOWARDZERO};
        unsigned int m = _mm_getcsr();
        state->rounding = RC[(m >> 13) & 3u];
        state->ftz = (m & MXCSR_FTZ) != 0;
        state->daz = (m & MXCSR_DAZ) != 0;
        state->control = m & ~(unsigned int)MXCSR_FLAGS;
        state->status = m & MXCSR_FLAGS;
    }
#elif defined(CRTRIG_FPENV_FPCR)
    {
        static const int RMODE[4] = {CRTRIG_ROUND_NEAREST, CRTRIG_ROUND_UPWARD, CRTRIG_ROUND_DOWNWARD,
                                     CRTRIG_ROUND_TOWARDZERO};
        uint64_t c = read_fpcr();
        state->rounding = RMODE[(c >> 22) & 3u];
        state->ftz = state->daz = (int)((c >> 24) & 1u);  /* FZ flushes inputs and outputs */
        state->control = c;
        state->status = read_fpsr();
    }
#else
    {
        int fe = fegetround();
        state->rounding = fe == FE_UPWARD ? CRTRIG_ROUND_UPWARD : fe == FE_DOWNWARD ? CRTRIG_ROUND_DOWNWARD
                        : fe == FE_TOWARDZERO ? CRTRIG_ROUND_TOWARDZERO : CRTRIG_ROUND_NEAREST;
    }
    state->ftz = state->daz = 0;
    state->control = state->status = 0;
#endif
}

int crtrig_fp_state_set(const crtrig_fp_state *state)
{
    static const int FE_OF[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    int i;
    if ((unsigned)state->rounding > CRTRIG_ROUND_TOWARDZERO || (unsigned)state->ftz > 1 ||
        (unsigned)state->daz > 1 || (unsigned)state->flags > 31)
        return CRTRIG_EINVAL;
#if !defined(CRTRIG_FPENV_MXCSR) && !defined(CRTRIG_FPENV_FPCR)
    if (state->ftz || state->daz)
        return CRTRIG_EINVAL;  /* no portable way to set them */
#endif
    if (fesetround(FE_OF[state->rounding]) != 0)
        return CRTRIG_EINVAL;
    feclearexcept(FE_ALL_EXCEPT);
#if defined(CRTRIG_FPENV_MXCSR)
    {
        unsigned int m = _mm_getcsr() & ~(unsigned int)(MXCSR_FLAGS | MXCSR_FTZ | MXCSR_DAZ);
        if (state->ftz)
            m |= MXCSR_FTZ;
        if (state->daz)
            m |= MXCSR_DAZ;
        for (i = 0; i < 5; i++)
            if (state->flags & FLAG_MAP[i].crtrig)
                m |= REGISTER_FLAG_BITS[i];
        _mm_setcsr(m);
    }
#elif defined(CRTRIG_FPENV_FPCR)
    {
        const uint64_t fz = ((uint64_t)1 << 24) | ((uint64_t)1 << 19);  /* FZ, FZ16 */
        uint64_t c = read_fpcr() & ~fz, s = read_fpsr() & ~(uint64_t)0x9f;
        if (state->ftz || state->daz)
            c |= fz;
        for (i = 0; i < 5; i++)
            if (state->flags & FLAG_MAP[i].crtrig)
                s |= REGISTER_FLAG_BITS[i];
        write_fpcr(c);
        write_fpsr(s);
    }
#else
    for (i = 0; i < 5; i++)
        if ((state->flags & FLAG_MAP[i].crtrig) && FLAG_MAP[i].fe)
            feraiseexcept(FLAG_MAP[i].fe);
#endif
    return CRTRIG_OK;
}

int crtrig_fp_run_under(const crtrig_fp_state *state, int (*fn)(void *), void *arg,
                        crtrig_fp_state *before, crtrig_fp_state *after, int *fn_result)
{
    fenv_t full;
    crtrig_fpenv registers;
    int rc;
    fegetenv(&full);            /* x87 control and status too, on x86 */
    save_registers(&registers); /* and exactly what the core saves itself */
    rc = crtrig_fp_state_set(state);
    if (rc == CRTRIG_OK) {
        crtrig_fp_state_get(before);
        *fn_result = fn(arg);
        crtrig_fp_state_get(after);
    }
    fesetenv(&full);
    restore_registers(&registers);
    return rc;
}
