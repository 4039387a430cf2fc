/* Runtime SIMD target selection.  See dispatch.h. */
#include <string.h>
#include "crtrig/crtrig.h"
#include "dispatch.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CRTRIG_X86_TARGETS 1
#endif

enum { TARGET_BASELINE = 0, TARGET_AVX2, TARGET_AVX512, TARGET_COUNT = CRTRIG_NUM_TARGETS };

static const crtrig_target TARGETS[TARGET_COUNT] = {
#define CRTRIG_PASSES(suffix)                                                                 \
    {crtrig_sincos_pass_float16_##suffix, crtrig_sincos_pass_bfloat16_##suffix,               \
     crtrig_sincos_pass_float32_##suffix, crtrig_sincos_pass_float64_##suffix},               \
    {crtrig_window_run_float16_##suffix, crtrig_window_run_bfloat16_##suffix,                 \
     crtrig_window_run_float32_##suffix, crtrig_window_run_float64_##suffix},                 \
    crtrig_sinpi_table_##suffix, crtrig_sincos_pass_value_##suffix,                           \
    crtrig_sincos64_pass_value_##suffix, crtrig_window_pass_value_##suffix,                   \
    crtrig_window64_pass_value_##suffix,                                                      \
    {0, 0, crtrig_trigpi_pass_float32_##suffix, crtrig_trigpi_pass_float64_##suffix},         \
    {0, 0, crtrig_tan_pass_float32_##suffix, crtrig_tan_pass_float64_##suffix},               \
    crtrig_tan64_pass_value_##suffix,                                                         \
    {0, 0, crtrig_tanpi_pass_float32_##suffix, crtrig_tanpi_pass_float64_##suffix},       \
    crtrig_exp_range_##suffix, crtrig_exp_dd_value_##suffix, crtrig_log_dd_value_##suffix,     \
    crtrig_sincos64_one_##suffix, crtrig_i0_series_##suffix, crtrig_kaiser_round64_##suffix,   \
    crtrig_kbd_finish64_##suffix, crtrig_sinc_range_##suffix, crtrig_cosum_dd_##suffix,       \
    crtrig_taylor_range_##suffix
    {"baseline", CRTRIG_PASSES(baseline)},
#ifdef CRTRIG_X86_TARGETS
    {"avx2", CRTRIG_PASSES(avx2)},
    {"avx512", CRTRIG_PASSES(avx512)},
#else
    {"avx2", {0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0, 0, 0, 0, {0, 0, 0, 0}, {0, 0, 0, 0}, 0, {0, 0, 0, 0}, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"avx512", {0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0, 0, 0, 0, {0, 0, 0, 0}, {0, 0, 0, 0}, 0, {0, 0, 0, 0}, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
#endif
};

/* The dispatch table: the one piece of global state, written by crtrig_init. */
static const crtrig_target *active = &TARGETS[TARGET_BASELINE];

static int cpu_supports(int i)
{
    if (i == TARGET_BASELINE)
        return 1;
#ifdef CRTRIG_X86_TARGETS
    __builtin_cpu_init();
    /* Both targets are compiled with FMA (the float64 kernels use it): check it
     * too, since virtual machines can hide it while showing AVX2. */
    if (i == TARGET_AVX2)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (i == TARGET_AVX512)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("fma");
#endif
    return 0;
}

const crtrig_target *crtrig_target_at(int i)
{
    if (i < 0 || i >= TARGET_COUNT || !TARGETS[i].sincos_pass[CRTRIG_FLOAT32] || !cpu_supports(i))
        return 0;
    return &TARGETS[i];
}

const crtrig_target *crtrig_active_target(void) { return active; }

int crtrig_target_index(const crtrig_target *t) { return t ? (int)(t - TARGETS) : -1; }

const crtrig_target *crtrig_target_entry(int i)
{
    return i >= 0 && i < TARGET_COUNT ? &TARGETS[i] : 0;
}

/* ASCII letters compared without case (the environment variable's name). */
static int same_name(const char *a, const char *b)
{
    for (;; a++, b++) {
        char x = *a, y = *b;
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = (char)(y - 'A' + 'a');
        if (x != y)
            return 0;
        if (!x)
            return 1;
    }
}

const char *crtrig_init(const char *requested)
{
    int i;
    if (requested) {  /* a named target (CRTRIG_TARGET in the environment) */
        for (i = 0; i < TARGET_COUNT; i++)
            if (same_name(TARGETS[i].name, requested)) {
                if (!crtrig_target_at(i))
                    return 0;  /* known, but this build or CPU lacks it */
                active = &TARGETS[i];
                return active->name;
            }
        return 0;  /* unknown */
    }
    for (i = TARGET_COUNT - 1; i >= 0; i--)
        if (crtrig_target_at(i)) {
            active = &TARGETS[i];
            break;
        }
    return active->name;
}

const char *crtrig_target_name(int i)
{
    const crtrig_target *t = crtrig_target_at(i);
    return t ? t->name : 0;
}

const char *crtrig_target_index_name(int i)
{
    return i >= 0 && i < TARGET_COUNT ? TARGETS[i].name : 0;
}

int crtrig_sincos_pass_target(int target, crtrig_trig_func func, crtrig_dtype dtype,
                              const char *in, char *out, size_t count, unsigned char *undecided)
{
    const crtrig_target *t = crtrig_target_at(target);
    if (!t || dtype > CRTRIG_FLOAT64)
        return CRTRIG_EINVAL;
    if (func == CRTRIG_SINPI || func == CRTRIG_COSPI || func == CRTRIG_TAN) {
        /* float32 and float64 only; undecided[] may be left unwritten when none is */
        crtrig_sincos_pass_fn pass = func == CRTRIG_TAN ? t->tan_pass[dtype] : t->trigpi_pass[dtype];
        if (!pass)
            return CRTRIG_EINVAL;
        if (!pass((int)func, in, out, count, undecided))
            memset(undecided, 0, count);
        return CRTRIG_OK;
    }
    if ((unsigned)func > CRTRIG_COS)
        return CRTRIG_EINVAL;
    t->sincos_pass[dtype]((int)func, in, out, count, undecided);
    return CRTRIG_OK;
}

int crtrig_sincos32_value_target(int target, crtrig_trig_func func, double x, double *y,
                                 double *e)
{
    const crtrig_target *t = crtrig_target_at(target);
    uint64_t a;
    memcpy(&a, &x, sizeof a);
    a &= 0x7fffffffffffffffu;
    /* 2^-13 <= |x| <= the largest float32, and x a float32 value (29 low bits zero) */
    if (!t || (unsigned)func > CRTRIG_COS || a < 0x3f20000000000000u || a > 0x47efffffe0000000u ||
        (a & 0x1fffffffu))
        return CRTRIG_EINVAL;
    t->sincos32_value((int)func, x, y, e);
    return CRTRIG_OK;
}

int crtrig_sincos64_value_target(int target, crtrig_trig_func func, double x, int mode,
                                 double *hi, double *lo, double *e, int *flag)
{
    const crtrig_target *t = crtrig_target_at(target);
    uint64_t a;
    memcpy(&a, &x, sizeof a);
    a &= 0x7fffffffffffffffu;
    /* mode 0..3; finite, 2^-27 <= |x|, and |x| < 2^17 for the small reduction */
    if (!t || (unsigned)func > CRTRIG_COS || (unsigned)mode > 3u || a < 0x3e40000000000000u ||
        a >= 0x7ff0000000000000u || (!(mode & 1) && a >= 0x4100000000000000u))
        return CRTRIG_EINVAL;
    *flag = t->sincos64_value((int)func, x, mode, hi, lo, e);
    return CRTRIG_OK;
}

int crtrig_tan64_value_target(int target, double x, int mode, double *hi, double *lo, double *e,
                              int *flag)
{
    const crtrig_target *t = crtrig_target_at(target);
    uint64_t a;
    memcpy(&a, &x, sizeof a);
    a &= 0x7fffffffffffffffu;
    /* mode 0..3; finite, 2^-27 <= |x|, and |x| < 2^17 for the small reduction */
    if (!t || !t->tan64_value || (unsigned)mode > 3u || a < 0x3e40000000000000u ||
        a >= 0x7ff0000000000000u || (!(mode & 1) && a >= 0x4100000000000000u))
        return CRTRIG_EINVAL;
    *flag = t->tan64_value(x, mode, hi, lo, e);
    return CRTRIG_OK;
}
