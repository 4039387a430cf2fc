/* The self-check of the SIMD first passes: stored inputs, comparison, outcome.
 * See selfcheck.h (what is checked, when, and who computes).
 *
 * The outcome of pass p is one 64-bit word, 0 until published:
 *   bit 63             checked
 *   bits 0-1           the target the pass uses (index)
 *   bits 2-3           the active target the check started from
 *   bits 8 + 24 (t-1)  for target t = 1 (avx2), 2 (avx512), 21 bits:
 *                        bit 0 tried, bits 1-10 mismatches, bits 11-20 the first one's index
 * (at most 512 inputs, so 10 bits hold a count or an index).  The bits of the
 * first mismatching result and of the scalar path's go to got_bits[p][t] and
 * want_bits[p][t] with relaxed stores before the word is offered (release), and
 * are read after it is loaded (acquire).  Several threads may write them for the
 * same pass at once; they write the same values (the check is deterministic), so
 * whichever write lands, the words agree with the published outcome.
 *
 * Atomics as in sincos_table16.c: GCC/clang builtins (64-bit platforms, where
 * 8-byte atomics are lock-free), MSVC's Interlocked functions, C11 <stdatomic.h>;
 * without any of them nothing can be published and every pass uses the baseline
 * (CRTRIG_SELFCHECK_UNAVAILABLE: no check, no SIMD).  Only the baseline exists on
 * such platforms anyway (dispatch.c compiles the SIMD targets on x86-64). */
#include <string.h>
#include "selfcheck.h"
#include "selfcheck_inputs.h"
#include "window_coef.h"

#define CHECKED_BIT ((uint64_t)1 << 63)
#define NONE 0x3ffu

#if (defined(__GNUC__) || defined(__clang__)) && defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ == 8
#define SELFCHECK_ATOMICS 1
typedef uint64_t word_t;
typedef long counter_t;
static uint64_t load_acquire(word_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static uint64_t load_relaxed(word_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static void store_relaxed(word_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
static uint64_t offer(word_t *p, uint64_t desired)
{
    uint64_t expected = 0;
    if (__atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return desired;
    return expected;
}
static long counter_load(counter_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static void counter_store(counter_t *p, long v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
static void counter_add(counter_t *p) { __atomic_add_fetch(p, 1, __ATOMIC_RELAXED); }
#elif defined(_MSC_VER)
#define SELFCHECK_ATOMICS 1
#include <windows.h>
typedef volatile LONG64 word_t;
typedef volatile LONG counter_t;
static uint64_t load_acquire(word_t *p) { return (uint64_t)InterlockedCompareExchange64(p, 0, 0); }
static uint64_t load_relaxed(word_t *p) { return (uint64_t)InterlockedCompareExchange64(p, 0, 0); }
static void store_relaxed(word_t *p, uint64_t v) { InterlockedExchange64(p, (LONG64)v); }
static uint64_t offer(word_t *p, uint64_t desired)
{
    uint64_t previous = (uint64_t)InterlockedCompareExchange64(p, (LONG64)desired, 0);
    return previous ? previous : desired;
}
static long counter_load(counter_t *p) { return InterlockedCompareExchange(p, 0, 0); }
static void counter_store(counter_t *p, long v) { InterlockedExchange(p, v); }
static void counter_add(counter_t *p) { InterlockedIncrement(p); }
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__STDC_NO_ATOMICS__)
#define SELFCHECK_ATOMICS 1
#include <stdatomic.h>
typedef _Atomic(uint64_t) word_t;
typedef _Atomic(long) counter_t;
static uint64_t load_acquire(word_t *p) { return atomic_load_explicit(p, memory_order_acquire); }
static uint64_t load_relaxed(word_t *p) { return atomic_load_explicit(p, memory_order_relaxed); }
static void store_relaxed(word_t *p, uint64_t v) { atomic_store_explicit(p, v, memory_order_relaxed); }
static uint64_t offer(word_t *p, uint64_t desired)
{
    uint64_t expected = 0;
    if (atomic_compare_exchange_strong_explicit(p, &expected, desired, memory_order_acq_rel,
                                                memory_order_acquire))
        return desired;
    return expected;
}
static long counter_load(counter_t *p) { return atomic_load_explicit(p, memory_order_relaxed); }
static void counter_store(counter_t *p, long v) { atomic_store_explicit(p, v, memory_order_relaxed); }
static void counter_add(counter_t *p) { atomic_fetch_add_explicit(p, 1, memory_order_relaxed); }
#else
#define SELFCHECK_ATOMICS 0
#endif

#if SELFCHECK_ATOMICS
/* The published outcomes and their diagnostic words (see the top of this file). */
static word_t outcome[CRTRIG_SELFCHECK_PASSES];
static word_t got_bits[CRTRIG_SELFCHECK_PASSES][CRTRIG_NUM_TARGETS];
static word_t want_bits[CRTRIG_SELFCHECK_PASSES][CRTRIG_NUM_TARGETS];
/* TEST-ONLY GLOBAL STATE (selfcheck.h): the checks run per pass, and per target
 * the armed fault, 1 + pass * CRTRIG_SELFCHECK_MAX_INPUTS + index (0: none). */
static counter_t runs[CRTRIG_SELFCHECK_PASSES];
static counter_t faults[CRTRIG_NUM_TARGETS];
#endif

/* ------------------------------------------------------------------------ */
/* The stored inputs */

static const void *const TRIG_INPUTS[8] = {
    SELFCHECK_SIN_FLOAT16, SELFCHECK_SIN_BFLOAT16, SELFCHECK_SIN_FLOAT32, SELFCHECK_SIN_FLOAT64,
    SELFCHECK_COS_FLOAT16, SELFCHECK_COS_BFLOAT16, SELFCHECK_COS_FLOAT32, SELFCHECK_COS_FLOAT64,
};
static const size_t TRIG_CLEAN[8] = {
    SELFCHECK_SIN_FLOAT16_CLEAN, SELFCHECK_SIN_BFLOAT16_CLEAN, SELFCHECK_SIN_FLOAT32_CLEAN,
    SELFCHECK_SIN_FLOAT64_CLEAN, SELFCHECK_COS_FLOAT16_CLEAN, SELFCHECK_COS_BFLOAT16_CLEAN,
    SELFCHECK_COS_FLOAT32_CLEAN, SELFCHECK_COS_FLOAT64_CLEAN,
};
static const size_t TRIG_COUNTS[8] = {
    sizeof SELFCHECK_SIN_FLOAT16 / sizeof SELFCHECK_SIN_FLOAT16[0],
    sizeof SELFCHECK_SIN_BFLOAT16 / sizeof SELFCHECK_SIN_BFLOAT16[0],
    sizeof SELFCHECK_SIN_FLOAT32 / sizeof SELFCHECK_SIN_FLOAT32[0],
    sizeof SELFCHECK_SIN_FLOAT64 / sizeof SELFCHECK_SIN_FLOAT64[0],
    sizeof SELFCHECK_COS_FLOAT16 / sizeof SELFCHECK_COS_FLOAT16[0],
    sizeof SELFCHECK_COS_BFLOAT16 / sizeof SELFCHECK_COS_BFLOAT16[0],
    sizeof SELFCHECK_COS_FLOAT32 / sizeof SELFCHECK_COS_FLOAT32[0],
    sizeof SELFCHECK_COS_FLOAT64 / sizeof SELFCHECK_COS_FLOAT64[0],
};
enum { WINDOW_RANGES = sizeof SELFCHECK_WINDOWS / sizeof SELFCHECK_WINDOWS[0] };

/* The stored inputs' slot of a sin/cos/sinpi/cospi/tan pass, or -1.  sinpi and cospi
 * (passes CRTRIG_SELFCHECK_TRIGPI ..) reuse the inputs of sin and cos of their
 * format: ordinary inputs of every magnitude (through the pass's reduction, table and
 * rounding test), hard ones for sin and cos, and huge (integers: the exact path),
 * tiny, subnormal, zero, infinite and NaN inputs.  tan and tanpi
 * (CRTRIG_SELFCHECK_TAN ..) reuse sin's: the same reductions and tables, inputs near
 * multiples of pi/2 (tan's zeros and poles), integers (tanpi's zeros). */
static int trig_slot(int pass)
{
    if (pass >= 0 && pass < CRTRIG_SELFCHECK_WINDOW)
        return pass;
    if (pass >= CRTRIG_SELFCHECK_TRIGPI && pass < CRTRIG_SELFCHECK_TAN)
        return 4 * ((pass - CRTRIG_SELFCHECK_TRIGPI) / 2) + 2 + (pass - CRTRIG_SELFCHECK_TRIGPI) % 2;
    if (pass >= CRTRIG_SELFCHECK_TAN && pass < CRTRIG_SELFCHECK_PASSES)
        return 2 + (pass - CRTRIG_SELFCHECK_TAN) % 2;
    return -1;
}

const void *crtrig_selfcheck_trig_inputs(int pass, size_t *count, size_t *clean)
{
    int slot = trig_slot(pass);
    if (slot < 0) {
        *count = *clean = 0;
        return NULL;
    }
    *count = TRIG_COUNTS[slot];
    *clean = TRIG_CLEAN[slot];
    return TRIG_INPUTS[slot];
}

const crtrig_selfcheck_window_input *crtrig_selfcheck_window_inputs(size_t *ranges)
{
    *ranges = WINDOW_RANGES;
    return SELFCHECK_WINDOWS;
}

static size_t window_phases(void)
{
    size_t k, phases = 0;
    for (k = 0; k < WINDOW_RANGES; k++)
        phases += (size_t)SELFCHECK_WINDOWS[k].count;
    return phases;
}

size_t crtrig_selfcheck_input_count(int pass)
{
    if (pass < 0 || pass >= CRTRIG_SELFCHECK_PASSES)
        return 0;
    return trig_slot(pass) >= 0 ? TRIG_COUNTS[trig_slot(pass)] : window_phases();
}

/* Element i (width bytes) of an array of bits, as an integer. */
static uint64_t element_bits(const char *p, size_t width, size_t i)
{
    uint16_t b16;
    uint32_t b32;
    uint64_t b64;
    if (width == 2) {
        memcpy(&b16, p + 2 * i, 2);
        return b16;
    }
    if (width == 4) {
        memcpy(&b32, p + 4 * i, 4);
        return b32;
    }
    memcpy(&b64, p + 8 * i, 8);
    return b64;
}

/* Flip the lowest bit of the element (width bytes) at p, as a wrong kernel might. */
static void flip_lowest_bit(char *p, size_t width)
{
    uint64_t b = element_bits(p, width, 0) ^ 1u;
    uint16_t b16 = (uint16_t)b;
    uint32_t b32 = (uint32_t)b;
    if (width == 2)
        memcpy(p, &b16, 2);
    else if (width == 4)
        memcpy(p, &b32, 4);
    else
        memcpy(p, &b, 8);
}

/* ------------------------------------------------------------------------ */
/* The outcome word */

static unsigned field(uint64_t word, int t) { return (unsigned)(word >> (8 + 24 * (t - 1))) & 0x1fffffu; }
static uint64_t with_field(uint64_t word, int t, unsigned tried, unsigned mismatches, unsigned first)
{
    uint64_t f = (uint64_t)(tried | (mismatches << 1) | (first << 11));
    return (word & ~((uint64_t)0x1fffff << (8 + 24 * (t - 1)))) | (f << (8 + 24 * (t - 1)));
}
static int chosen_of(uint64_t word) { return (int)(word & 3u); }
static int active_of(uint64_t word) { return (int)((word >> 2) & 3u); }

const crtrig_target *crtrig_selfcheck_target(int pass, const crtrig_target *active)
{
    if (crtrig_target_index(active) <= 0)
        return active;
#if SELFCHECK_ATOMICS
    {
        uint64_t word = load_acquire(&outcome[pass]);
        if (word && active_of(word) == crtrig_target_index(active))
            return crtrig_target_entry(chosen_of(word));
        return NULL;
    }
#else
    (void)pass;
    return crtrig_target_entry(0);
#endif
}

const crtrig_target *crtrig_selfcheck_begin(crtrig_selfcheck_run *run, int pass, const crtrig_target *active,
                                            int counted)
{
    int t, i = crtrig_target_index(active);
    run->pass = pass;
    run->candidate = i;
    run->word = CHECKED_BIT | (uint64_t)i | ((uint64_t)i << 2);
    for (t = 0; t < CRTRIG_NUM_TARGETS; t++)
        run->got[t] = run->want[t] = 0;
#if SELFCHECK_ATOMICS
    if (counted)
        counter_add(&runs[pass]);
#else
    (void)counted;
#endif
    return active;
}

const crtrig_target *crtrig_selfcheck_compare(crtrig_selfcheck_run *run, const char *got, const char *want,
                                              size_t count, size_t width)
{
    const int t = run->candidate;
    unsigned mismatches = 0, first = NONE;
    size_t i;
    if (t <= 0)
        return NULL;
    for (i = 0; i < count; i++) {
        if (memcmp(got + width * i, want + width * i, width) != 0) {
            if (!mismatches) {
                first = (unsigned)i;
                run->got[t] = element_bits(got, width, i);
                run->want[t] = element_bits(want, width, i);
            }
            mismatches++;
        }
    }
    run->word = with_field(run->word, t, 1u, mismatches, first);
    if (!mismatches) {
        run->candidate = 0;
        return NULL;
    }
    /* the next target down that this CPU supports; the baseline ends the check */
    for (i = (size_t)t - 1; i > 0; i--)
        if (crtrig_target_at((int)i)) {
            run->candidate = (int)i;
            run->word = (run->word & ~(uint64_t)3u) | (uint64_t)i;
            return crtrig_target_at((int)i);
        }
    run->candidate = 0;
    run->word &= ~(uint64_t)3u;
    return NULL;
}

const crtrig_target *crtrig_selfcheck_finish(crtrig_selfcheck_run *run, int publish)
{
#if SELFCHECK_ATOMICS
    if (publish) {
        int t;
        uint64_t winner;
        for (t = 1; t < CRTRIG_NUM_TARGETS; t++) {
            store_relaxed(&got_bits[run->pass][t], run->got[t]);
            store_relaxed(&want_bits[run->pass][t], run->want[t]);
        }
        winner = offer(&outcome[run->pass], run->word);
        return crtrig_target_entry(chosen_of(winner));
    }
#else
    (void)publish;
#endif
    return crtrig_target_entry(chosen_of(run->word));
}

/* ------------------------------------------------------------------------ */
/* What the Python layer reads */

int crtrig_selfcheck_failed(int pass)
{
#if SELFCHECK_ATOMICS
    uint64_t word;
    if (pass < 0 || pass >= CRTRIG_SELFCHECK_PASSES)
        return 0;
    word = load_acquire(&outcome[pass]);
    return word != 0 && chosen_of(word) != active_of(word);
#else
    (void)pass;
    return 0;
#endif
}

/* The range and phase of window phase index j (over the stored ranges). */
static void window_phase(size_t j, int *range, uint64_t *phase)
{
    size_t k;
    for (k = 0; k < WINDOW_RANGES; k++) {
        if (j < (size_t)SELFCHECK_WINDOWS[k].count) {
            *range = (int)k;
            *phase = SELFCHECK_WINDOWS[k].r0 + j;
            return;
        }
        j -= (size_t)SELFCHECK_WINDOWS[k].count;
    }
    *range = -1;
    *phase = 0;
}

static size_t pass_width(int pass)
{
    int dtype = trig_slot(pass) >= 0 ? trig_slot(pass) % 4 : pass % 4;
    return dtype == CRTRIG_FLOAT64 ? 8 : dtype == CRTRIG_FLOAT32 ? 4 : 2;
}

int crtrig_selfcheck_report_get(int pass, crtrig_selfcheck_report *report)
{
    const crtrig_target *active = crtrig_active_target();
    uint64_t word = 0;
    int t;
    if (pass < 0 || pass >= CRTRIG_SELFCHECK_PASSES)
        return CRTRIG_EINVAL;
    memset(report, 0, sizeof *report);
    report->inputs = crtrig_selfcheck_input_count(pass);
    report->active = report->chosen = crtrig_target_index(active);
#if SELFCHECK_ATOMICS
    word = load_acquire(&outcome[pass]);
#endif
    if (report->active == 0) {
        report->status = CRTRIG_SELFCHECK_REFERENCE;
        return CRTRIG_OK;
    }
    if (!SELFCHECK_ATOMICS) {
        report->status = CRTRIG_SELFCHECK_UNAVAILABLE;
        report->chosen = 0;
        return CRTRIG_OK;
    }
    if (!word) {
        report->status = CRTRIG_SELFCHECK_NOT_RUN;
        return CRTRIG_OK;
    }
    report->status = CRTRIG_SELFCHECK_DONE;
    report->active = active_of(word);
    report->chosen = chosen_of(word);
    for (t = 1; t < CRTRIG_NUM_TARGETS; t++) {
        crtrig_selfcheck_target_report *r = &report->target[t];
        unsigned f = field(word, t);
        r->tried = (int)(f & 1u);
        r->mismatches = (int)((f >> 1) & NONE);
        r->index = r->mismatches ? (int)((f >> 11) & NONE) : -1;
        r->window_range = -1;
        if (!r->mismatches)
            continue;
#if SELFCHECK_ATOMICS
        r->got = load_relaxed(&got_bits[pass][t]);
        r->want = load_relaxed(&want_bits[pass][t]);
#endif
        if (trig_slot(pass) >= 0)
            r->input = element_bits((const char *)TRIG_INPUTS[trig_slot(pass)], pass_width(pass),
                                    (size_t)r->index);
        else
            window_phase((size_t)r->index, &r->window_range, &r->phase);
    }
    return CRTRIG_OK;
}

/* ------------------------------------------------------------------------ */
/* Test hooks */

long crtrig_test_selfcheck_runs(int pass)
{
    if (pass < 0 || pass >= CRTRIG_SELFCHECK_PASSES)
        return -1;
#if SELFCHECK_ATOMICS
    return counter_load(&runs[pass]);
#else
    return 0;
#endif
}

int crtrig_test_selfcheck_fault(int target, int pass, int index)
{
    if (target <= 0 || target >= CRTRIG_NUM_TARGETS || pass < 0 || pass >= CRTRIG_SELFCHECK_PASSES ||
        (index >= 0 && (size_t)index >= crtrig_selfcheck_input_count(pass)))
        return CRTRIG_EINVAL;
#if SELFCHECK_ATOMICS
    counter_store(&faults[target], index < 0 ? 0 : 1 + pass * CRTRIG_SELFCHECK_MAX_INPUTS + index);
    return CRTRIG_OK;
#else
    return CRTRIG_EINVAL;
#endif
}

/* The armed fault of a target: pass and index, or 0. */
static int fault_of(const crtrig_target *target, int *pass, int *index)
{
#if SELFCHECK_ATOMICS
    int t = crtrig_target_index(target);
    long f = t > 0 && t < CRTRIG_NUM_TARGETS ? counter_load(&faults[t]) : 0;
    if (!f)
        return 0;
    *pass = (int)((f - 1) / CRTRIG_SELFCHECK_MAX_INPUTS);
    *index = (int)((f - 1) % CRTRIG_SELFCHECK_MAX_INPUTS);
    return 1;
#else
    (void)target;
    (void)pass;
    (void)index;
    return 0;
#endif
}

int crtrig_selfcheck_fault_armed(const crtrig_target *target)
{
    int pass, index;
    return fault_of(target, &pass, &index);
}

void crtrig_selfcheck_fault_trig(const crtrig_target *target, crtrig_trig_func func, crtrig_dtype dtype,
                                 const char *in, char *out, size_t count, unsigned char *undecided)
{
    int pass, index;
    size_t i, width;
    uint64_t bad;
    if (!fault_of(target, &pass, &index) || pass != CRTRIG_SELFCHECK_TRIG_PASS(func, dtype))
        return;
    width = pass_width(pass);
    bad = element_bits((const char *)TRIG_INPUTS[trig_slot(pass)], width, (size_t)index);
    for (i = 0; i < count; i++)
        if (element_bits(in, width, i) == bad) {
            flip_lowest_bit(out + width * i, width);
            undecided[i] = 0;
        }
}

void crtrig_selfcheck_fault_window(const crtrig_target *target, crtrig_dtype fmt,
                                   const struct crtrig_window_coef *coef, uint64_t D, uint64_t r0,
                                   size_t count, char *vals, char *mirror)
{
    const crtrig_selfcheck_window_input *in;
    int pass, index, range;
    uint64_t r;
    size_t width;
    if (!fault_of(target, &pass, &index) || pass != CRTRIG_SELFCHECK_WINDOW + (int)fmt)
        return;
    window_phase((size_t)index, &range, &r);
    in = &SELFCHECK_WINDOWS[range];
    if (coef->kind != in->kind || D != in->D || r < r0 || r - r0 >= count ||
        (in->kind == CRTRIG_GENERAL_HAMMING && (coef->p != in->alpha_num || coef->q != in->alpha_den)))
        return;
    width = pass_width(pass);
    flip_lowest_bit(vals + width * (size_t)(r - r0), width);
    if (mirror)
        flip_lowest_bit(mirror - (ptrdiff_t)(width * (size_t)(r - r0)), width);
}
