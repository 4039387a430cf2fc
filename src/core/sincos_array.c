/* The sin/cos entry points and array kernels for float32, bfloat16, float16 and float64.
 *
 * Calls go one way: entry point (here: arguments, target, floating-point
 * environment, how many threads: threads.h) -> dispatch (dispatch.c: the
 * target's first pass) -> array kernel (here) -> per-element stages
 * (sincos.c) -> writers (fpformat.c).  The pool runs the array kernel on
 * chunks of whole blocks (BLOCK elements from the start of the array), each
 * thread with its own task, so a block sees the same inputs however the
 * call is split.
 *
 * The array kernel runs blocks of BLOCK elements through the target's first pass
 * (compiled once per SIMD target, vectorized): float32, bfloat16 and float16 in
 * sincos_pass.h (method and error bound in sincos32_core.h: reduction by pi, a
 * minimax polynomial, a rounding test on the bits of the double result), float64
 * in sincos64_pass.h (sincos64_core.h).  The pass writes every output and marks
 * the elements it could not decide (zeros are decided there; inf and NaN, float16
 * results in the subnormal range, and the about 2^-17 of float32 lanes whose
 * double result lies too close to a rounding boundary); it returns whether any is
 * marked, and only then does the second pass visit the block, computing the marked
 * elements through crtrig_trig_value (all stages).  Both give the correctly rounded
 * value, so the output does not depend on which pass decided, nor on the target.
 *
 * float16 and bfloat16 go through result tables in normal operation (table16
 * below): all 65,536 results per function, computed once per process by this
 * kernel at first use.
 *
 * Normal calls (no target named) take their target from the self-check
 * (selfcheck.h; checked_target below): the active target's kernels for (func,
 * dtype) are checked against the scalar path once, at the first such call, before
 * anything else uses them (a 16-bit table included), and a target that fails
 * gives way to the next one down for that pass.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "alloc.h"
#include "dispatch.h"
#include "fpenv.h"
#include "fpformat.h"
#include "sincos.h"
#include "threads.h"
#include "selfcheck.h"
#include "sincos_table16.h"
#include "trigpi.h"

enum { BLOCK = 256, SMALL_CALL = 1 };

/* Whether the byte ranges [a, a + len) and [b, b + len) share a byte.
 * Compared as integers: C leaves < undefined between unrelated objects. */
static int ranges_overlap(const char *a, const char *b, size_t len)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x < y + len && y < x + len;
}

/* The input element at p as a double (float64: its bits, NaNs unchanged). */
static double load_element(crtrig_dtype dtype, const char *p)
{
    double v;
    if (dtype != CRTRIG_FLOAT64)
        return crtrig_trig_load(dtype, p);
    memcpy(&v, p, sizeof v);
    return v;
}

/* Second pass for one element of dtype: all stages from first_stage. */
static int decide_element(crtrig_trig_task *task, int func, crtrig_dtype dtype, int first_stage,
                          const char *in_slot, char *out_slot)
{
    double v;
    int rc = crtrig_trig_value((crtrig_trig_func)func, load_element(dtype, in_slot), dtype,
                               first_stage, task, &v);
    if (rc == CRTRIG_OK)
        crtrig_store(dtype, v, out_slot);
    return rc;
}

/* float16 and bfloat16 through their result tables (sincos_table16.h).
 *
 * A table holds what the array kernel computes for each of the 65,536 bit patterns
 * (NaNs quieted, +-inf giving the positive quiet NaN), so a lookup returns the very
 * bits the kernel would; only the FE_INVALID of an infinite input is recorded here.
 * The table of (func, dtype) is built at its first use, inside the calling entry
 * point's floating-point environment bracket, by the array kernel of the call's
 * target over all patterns (with its own task, so that the infinities among them do
 * not reach the caller), into a buffer of its own, then offered for publication;
 * a failure (out of memory) returns NULL and the call computes as without tables. */
static const uint16_t *table16(const crtrig_target *target, crtrig_trig_func func, crtrig_dtype dtype)
{
    enum { STEP = 2048 };
    const int is_bf16 = dtype == CRTRIG_BFLOAT16;
    const uint16_t *table = crtrig_table16_get((int)func, is_bf16);
    crtrig_trig_task build;
    uint16_t *candidate, patterns[STEP];
    uint32_t start, i;
    int rc = CRTRIG_OK;
    if (table || !crtrig_table16_supported())
        return table;
    candidate = (uint16_t *)crtrig_alloc(CRTRIG_TABLE16_SIZE * sizeof *candidate);
    if (!candidate)
        return NULL;
    crtrig_trig_task_init(&build, NULL, NULL);  /* use_table 0: the kernels */
    for (start = 0; start < CRTRIG_TABLE16_SIZE && rc == CRTRIG_OK; start += STEP) {
        for (i = 0; i < STEP; i++)
            patterns[i] = (uint16_t)(start + i);
        rc = crtrig_sincos_array_with(target, &build, func, dtype, (const char *)patterns, 2,
                                      (char *)(candidate + start), 2, STEP);
    }
    crtrig_trig_task_end(&build);
    if (rc != CRTRIG_OK) {
        crtrig_free(candidate);
        return NULL;
    }
    return crtrig_table16_publish((int)func, is_bf16, candidate);
}

/* out[i] = table[in[i]], in order (each input read before its output is written,
 * so any overlap of the arrays behaves as an in-order loop); records an infinite
 * input (exponent field all ones, significand zero). */
static void lookup16(const uint16_t *table, crtrig_dtype dtype, crtrig_trig_task *task,
                     const char *in, ptrdiff_t in_stride, char *out, ptrdiff_t out_stride,
                     size_t count)
{
    const uint32_t inf_bits = dtype == CRTRIG_BFLOAT16 ? 0x7f80u : 0x7c00u;
    uint32_t infinity = 0;
    size_t i;
    for (i = 0; i < count; i++) {
        uint16_t h, r;
        memcpy(&h, in + (ptrdiff_t)i * in_stride, sizeof h);
        r = table[h];
        memcpy(out + (ptrdiff_t)i * out_stride, &r, sizeof r);
        infinity |= (uint32_t)((h & 0x7fffu) == inf_bits);
    }
    if (infinity)
        task->raise_flags |= CRTRIG_FLAG_INVALID;
}

/* Overlapping arrays.  The contract (crtrig.h) is that of an in-order loop
 * that reads in[i] before writing out[i]; numpy relies on it when it passes
 * an output that lags behind its input without copying.  Per block, the first
 * pass writes every output before the second pass re-reads the inputs of the
 * undecided elements, so those inputs must not live in memory the first
 * pass writes: whenever the block's output range (written in place) overlaps
 * its input range (read in place), the inputs are first copied to in_copy.
 * Blocks go in order, and a block writes outputs only at or behind the
 * inputs it has read, so later blocks see their inputs intact.  Strided
 * inputs are gathered into in_copy and strided outputs go through out_copy
 * anyway; the fast path (contiguous, disjoint) copies nothing. */
CRTRIG_NOINLINE int crtrig_sincos_array_with(const crtrig_target *target, crtrig_trig_task *task,
                                             crtrig_trig_func func, crtrig_dtype dtype,
                                             const char *in, ptrdiff_t in_stride,
                                             char *out, ptrdiff_t out_stride, size_t count)
{
    char in_copy[8 * BLOCK], out_copy[8 * BLOCK];
    unsigned char undecided[BLOCK];
    const ptrdiff_t size = dtype == CRTRIG_FLOAT64 ? 8 : dtype == CRTRIG_FLOAT32 ? 4 : 2;
    /* sin and cos only: sinpi/cospi, tan and tanpi have their own passes below. */
    const int run_first_pass = task->first_stage == CRTRIG_STAGE_DOUBLE &&
                               !CRTRIG_TRIG_FUNC_IS_PI(func) && !CRTRIG_TRIG_FUNC_IS_TAN(func);
    crtrig_sincos_pass_fn first_pass = target->sincos_pass[dtype];
    size_t start, i;
    if (task->use_table && !CRTRIG_TRIG_FUNC_IS_PI(func) && !CRTRIG_TRIG_FUNC_IS_TAN(func) &&
        (dtype == CRTRIG_FLOAT16 || dtype == CRTRIG_BFLOAT16)) {
        const uint16_t *table = table16(target, func, dtype);
        if (table) {
            lookup16(table, dtype, task, in, in_stride, out, out_stride, count);
            return CRTRIG_OK;
        }
    }
    for (start = 0; start < count; start += BLOCK) {
        size_t n = count - start < BLOCK ? count - start : BLOCK, first_pass_decided = n;
        const char *src = in + (ptrdiff_t)start * in_stride;
        char *dst = out + (ptrdiff_t)start * out_stride;
        const char *block_in = src;
        char *block_out = out_stride == size ? dst : out_copy;
        int any_undecided;
        if (in_stride != size) {
            for (i = 0; i < n; i++)
                memcpy(in_copy + size * (ptrdiff_t)i, src + (ptrdiff_t)i * in_stride, (size_t)size);
            block_in = in_copy;
        } else if (block_out == dst && ranges_overlap(src, dst, (size_t)size * n)) {
            memcpy(in_copy, src, (size_t)size * n);  /* in place or overlapping */
            block_in = in_copy;
        }
        if (run_first_pass) {
            any_undecided = first_pass((int)func, block_in, block_out, n, undecided);
            if (crtrig_selfcheck_fault_armed(target))  /* test hook: a broken kernel */
                crtrig_selfcheck_fault_trig(target, func, dtype, block_in, block_out, n, undecided);
        } else if (CRTRIG_TRIG_FUNC_IS_PI(func) && task->first_stage == CRTRIG_STAGE_DOUBLE &&
                   target->trigpi_pass[dtype]) {
            /* sinpi, cospi (float32, float64): the target's first pass (trigpi_pass.h) */
            any_undecided = target->trigpi_pass[dtype]((int)func, block_in, block_out, n, undecided);
            if (crtrig_selfcheck_fault_armed(target))  /* test hook: a broken kernel */
                crtrig_selfcheck_fault_trig(target, func, dtype, block_in, block_out, n, undecided);
        } else if (CRTRIG_TRIG_FUNC_IS_TAN(func) && task->first_stage == CRTRIG_STAGE_DOUBLE &&
                   (func == CRTRIG_TAN ? target->tan_pass : target->tanpi_pass)[dtype]) {
            /* tan, tanpi (float32, float64): the target's first pass (tan_pass.h) */
            any_undecided = (func == CRTRIG_TAN ? target->tan_pass : target->tanpi_pass)[dtype](
                (int)func, block_in, block_out, n, undecided);
            if (crtrig_selfcheck_fault_armed(target))  /* test hook: a broken kernel */
                crtrig_selfcheck_fault_trig(target, func, dtype, block_in, block_out, n, undecided);
        } else {  /* the 16-bit formats of sinpi/cospi/tan/tanpi, or the test hook:
                   * every element through the stages from first_stage */
            memset(undecided, 1, n);
            any_undecided = 1;
        }
        for (i = 0; any_undecided && i < n; i++) {
            if (undecided[i]) {
                int stage = undecided[i] == 2 ? CRTRIG_STAGE_DOUBLE_DOUBLE : task->first_stage;
                int rc = decide_element(task, (int)func, dtype, stage,
                                        block_in + size * (ptrdiff_t)i,
                                        block_out + size * (ptrdiff_t)i);
                if (rc != CRTRIG_OK)
                    return rc;
                first_pass_decided--;
            }
        }
        if (task->counts)
            task->counts->by_stage[CRTRIG_STAGE_DOUBLE] += first_pass_decided;
        if (block_out != dst)
            for (i = 0; i < n; i++)
                memcpy(dst + (ptrdiff_t)i * out_stride, out_copy + size * (ptrdiff_t)i, (size_t)size);
    }
    return CRTRIG_OK;
}

/* Bytes per element of a sin/cos dtype. */
static size_t trig_element_size(crtrig_dtype dtype)
{
    return dtype == CRTRIG_FLOAT64 ? 8 : dtype == CRTRIG_FLOAT32 ? 4 : 2;
}

/* The first and one-past-last byte that count elements of `size` bytes at p,
 * stride bytes apart (any sign), occupy; as integers, as in ranges_overlap. */
static void byte_span(const char *p, ptrdiff_t stride, size_t count, size_t size,
                      uintptr_t *first, uintptr_t *end)
{
    uintptr_t base = (uintptr_t)p;
    uintptr_t reach = (uintptr_t)(count - 1) * (uintptr_t)(stride < 0 ? -stride : stride);
    *first = stride < 0 ? base - reach : base;
    *end = (stride < 0 ? base : base + reach) + size;
}

/* Whether a call may be split among threads: its result must not depend on
 * the order in which elements are done.  So out's elements must not overlap
 * each other, and out must either be exactly in (same pointer and stride:
 * element i is read and written by the one chunk that owns it) or share no
 * byte with it.  Anything else runs on one thread, in order, which is what
 * the contract in crtrig.h describes (count >= 2 here). */
static int may_split(const char *in, ptrdiff_t in_stride, const char *out, ptrdiff_t out_stride,
                     size_t count, size_t size)
{
    uintptr_t in_first, in_end, out_first, out_end;
    if (out_stride > -(ptrdiff_t)size && out_stride < (ptrdiff_t)size)
        return 0;
    if (in == out && in_stride == out_stride)
        return 1;
    byte_span(in, in_stride, count, size, &in_first, &in_end);
    byte_span(out, out_stride, count, size, &out_first, &out_end);
    return in_end <= out_first || out_end <= in_first;
}

/* The self-check of the first pass (func, dtype) (selfcheck.h), in the calling
 * thread, inside its entry point's floating-point bracket: the scalar path (each
 * stored input through decide_element from the first stage) against the array
 * kernel of each candidate target, from the active one down, on the same stored
 * inputs (two calls: the clean part, then the rest), bit for bit.  Its own task,
 * without tables: nothing reaches the caller (the infinities among the inputs
 * raise nothing there), and nothing is allocated (no stored input needs the
 * multi-precision stage; tests/test_selfcheck.py).  17-41 us measured on avx512
 * (selfcheck.h).  publish == 0: the timing hook (run again, published nowhere). */
static const crtrig_target *check_trig(const crtrig_target *active, crtrig_trig_func func,
                                       crtrig_dtype dtype, int publish)
{
    uint64_t want[CRTRIG_SELFCHECK_MAX_INPUTS], got[CRTRIG_SELFCHECK_MAX_INPUTS];
    const int pass = CRTRIG_SELFCHECK_TRIG_PASS(func, dtype);
    const size_t size = trig_element_size(dtype);
    size_t count, clean, i;
    const char *in = (const char *)crtrig_selfcheck_trig_inputs(pass, &count, &clean);
    crtrig_selfcheck_run run;
    crtrig_trig_task task;
    const crtrig_target *t = crtrig_selfcheck_begin(&run, pass, active, publish);
    int rc = CRTRIG_OK;
    crtrig_trig_task_init(&task, NULL, NULL);  /* use_table 0: the kernels */
    for (i = 0; rc == CRTRIG_OK && i < count; i++)
        rc = decide_element(&task, (int)func, dtype, CRTRIG_STAGE_DOUBLE, in + size * i,
                            (char *)want + size * i);
    while (t && rc == CRTRIG_OK) {
        rc = crtrig_sincos_array_with(t, &task, func, dtype, in, (ptrdiff_t)size, (char *)got,
                                      (ptrdiff_t)size, clean);
        if (rc == CRTRIG_OK)
            rc = crtrig_sincos_array_with(t, &task, func, dtype, in + size * clean, (ptrdiff_t)size,
                                          (char *)got + size * clean, (ptrdiff_t)size, count - clean);
        if (rc == CRTRIG_OK)
            t = crtrig_selfcheck_compare(&run, (const char *)got, (const char *)want, count, size);
    }
    crtrig_trig_task_end(&task);
    if (rc != CRTRIG_OK)  /* not seen: no stored input allocates; this call takes the baseline */
        return crtrig_target_at(0);
    return crtrig_selfcheck_finish(&run, publish);
}

/* The target a normal call of (func, dtype) uses: the published outcome of the
 * self-check, after running it if this is the first use. */
static const crtrig_target *checked_target(const crtrig_target *active, crtrig_trig_func func,
                                           crtrig_dtype dtype)
{
    const crtrig_target *t = crtrig_selfcheck_target(CRTRIG_SELFCHECK_TRIG_PASS(func, dtype), active);
    return t ? t : check_trig(active, func, dtype, 1);
}

int crtrig_selfcheck_run_trig(crtrig_trig_func func, crtrig_dtype dtype, int publish)
{
    const crtrig_target *active = crtrig_active_target(), *t;
    crtrig_fpenv env;
    if ((unsigned)func > CRTRIG_TRIG_FUNC_LAST || (unsigned)dtype > CRTRIG_FLOAT64 ||
        CRTRIG_SELFCHECK_TRIG_PASS(func, dtype) < 0)
        return -1;
    crtrig_fpenv_enter(&env);
    if (publish)
        t = checked_target(active, func, dtype);
    else
        t = crtrig_target_index(active) > 0 ? check_trig(active, func, dtype, 0) : active;
    crtrig_fpenv_leave(&env, 0);
    return crtrig_target_index(t);
}

/* What one call shares among the threads that work on it. */
typedef struct trig_call_state {
    const crtrig_target *target;
    const crtrig_eval_options *opt;
    crtrig_trig_func func;
    crtrig_dtype dtype;
    const char *in;
    ptrdiff_t in_stride;
    char *out;
    ptrdiff_t out_stride;
    crtrig_stage_counts *counts;  /* the caller's counters, or NULL */
    int raise_flags;             /* OR of the participants' */
    int use_table;                /* float16/bfloat16 through the result tables */
} trig_call_state;

/* One thread's share of a call (threads.h): its own task (and so its own
 * workspace, allocated on first need), the array kernel on each chunk it
 * claims, then what the entry point needs merged into the call's state. */
static int trig_share(void *arg, int participant, crtrig_job *job)
{
    trig_call_state *call = (trig_call_state *)arg;
    crtrig_trig_task task;
    crtrig_stage_counts counts;
    size_t lo, hi;
    int rc = CRTRIG_OK;
    (void)participant;
    memset(&counts, 0, sizeof counts);
    crtrig_trig_task_init(&task, call->opt, call->counts ? &counts : NULL);
    task.use_table = call->use_table;
    while (rc == CRTRIG_OK && crtrig_job_next(job, &lo, &hi))
        rc = crtrig_sincos_array_with(call->target, &task, call->func, call->dtype,
                                      call->in + (ptrdiff_t)lo * call->in_stride, call->in_stride,
                                      call->out + (ptrdiff_t)lo * call->out_stride, call->out_stride,
                                      hi - lo);
    crtrig_trig_task_end(&task);
    crtrig_job_lock(job);
    call->raise_flags |= task.raise_flags;
    crtrig_job_unlock(job);
    if (call->counts)
        crtrig_job_add_counts(job, call->counts, &counts);
    return rc;
}

/* A call of one float32 or float64 element in normal operation (a Python float, a
 * NumPy scalar, a one-element array), without the block set-up or the self-check
 * lookup.  float32: the element through the scalar stages, decide_element from the
 * double stage, which reads in[0] before it writes out[0].  float64: its scalar path
 * starts at double-double (sincos.c), dearer for one element than the first pass, so
 * a first-pass lane runs on the element alone (crtrig_sincos64_one, sincos64_pass.h:
 * lane64 above picks the target's), and the scalar stages decide what it leaves.  Both
 * give the very results of every target's array kernel (a decided lane is the
 * correctly rounded value; the scalar path is the reference the passes are checked
 * against bit for bit: tests/test_simd_target.py and the first-use self-check; the
 * baseline is the self-check's fallback, never replaced by it).  A small call never
 * runs the self-check: the active target's lane serves it once an array call has
 * checked that target's float64 pass, the baseline's until then.
 * Measured with callgrind (np.sin next to crtrig.sin, 20,000 calls, the difference
 * between 30,000 and 10,000 calls, target avx2): np.float32(0.5) 2,904 -> 2,651
 * instructions per call (numpy: 2,322); the Python float 0.7 2,393 -> 2,243 (numpy
 * 1,776), np.float64(0.7) 2,758 -> 2,590 (numpy 2,196). */
/* The float64 lane for small calls: that of the target the self-check has chosen
 * for the float64 pass of func (sin or cos) once the check has run (avx2: FMA, 15.8
 * instead of 24.2 ns per element in a C loop, 2-core AMD EPYC), before that the
 * baseline's, so that a small call never runs the check itself. */
static crtrig_sincos64_one_fn lane64(const crtrig_target *active, crtrig_trig_func func)
{
    const crtrig_target *t = crtrig_selfcheck_target(CRTRIG_SELFCHECK_TRIG_PASS(func, CRTRIG_FLOAT64), active);
    return (t ? t : crtrig_target_entry(0))->sincos64_one;
}

static int small_call(trig_call_state *call, size_t count)
{
    const crtrig_sincos64_one_fn one = lane64(call->target, call->func);
    crtrig_trig_task task;
    size_t i;
    int rc = CRTRIG_OK;
    crtrig_trig_task_init(&task, NULL, NULL);
    for (i = 0; i < count && rc == CRTRIG_OK; i++) {
        const char *in_slot = call->in + (ptrdiff_t)i * call->in_stride;
        char *out_slot = call->out + (ptrdiff_t)i * call->out_stride;
        double x, y;
        if (call->dtype == CRTRIG_FLOAT64) {
            memcpy(&x, in_slot, sizeof x);  /* read before out_slot is written */
            if (!one((int)call->func, x, &y)) {
                memcpy(out_slot, &y, sizeof y);
                continue;
            }
        }
        rc = decide_element(&task, (int)call->func, call->dtype, CRTRIG_STAGE_DOUBLE,
                            in_slot, out_slot);
    }
    crtrig_trig_task_end(&task);
    call->raise_flags = task.raise_flags;
    return rc;
}

/* A call on this thread alone: trig_share's work without a job to claim chunks from. */
static int one_thread(trig_call_state *call, size_t count)
{
    crtrig_trig_task task;
    int rc;
    crtrig_trig_task_init(&task, call->opt, call->counts);
    task.use_table = call->use_table;
    rc = crtrig_sincos_array_with(call->target, &task, call->func, call->dtype, call->in,
                                  call->in_stride, call->out, call->out_stride, count);
    crtrig_trig_task_end(&task);
    call->raise_flags = task.raise_flags;
    return rc;
}

/* One call: validate, bracket the work with the floating-point environment
 * switch (once per call in this thread; each worker brackets its own share),
 * take the self-checked target (checked: a normal call, which names no target),
 * decide how many threads may take part, raise FE_INVALID for an infinite input
 * only after the caller's environment is back. */
static int trig_call(const crtrig_target *target, crtrig_trig_func func, crtrig_dtype dtype,
                     const char *in, ptrdiff_t in_stride, char *out, ptrdiff_t out_stride,
                     size_t count, const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                     int use_table, int checked)
{
    trig_call_state call;
    crtrig_fpenv env;
    int participants = 1, rc;
    if (!target || (unsigned)func > CRTRIG_TRIG_FUNC_LAST || (unsigned)dtype > CRTRIG_FLOAT64)
        return CRTRIG_EINVAL;
    if (count == 1 && checked && !counts && dtype == CRTRIG_FLOAT64 && (func == CRTRIG_SIN || func == CRTRIG_COS)) {
        /* A Python float or a float64 scalar: the lane alone (see small_call), and
         * what it leaves (inf, NaN, a failed rounding test) straight to the scalar
         * stages from the double stage, as small_call does, without running the lane
         * a second time. */
        crtrig_trig_task task;
        double x, y;
        int raise_flags = 0;
        memcpy(&x, in, sizeof x);  /* read before out is written */
        crtrig_fpenv_enter(&env);
        if (!lane64(target, func)((int)func, x, &y)) {
            memcpy(out, &y, sizeof y);
            rc = CRTRIG_OK;
        } else {
            crtrig_trig_task_init(&task, NULL, NULL);
            rc = decide_element(&task, (int)func, dtype, CRTRIG_STAGE_DOUBLE, in, out);
            crtrig_trig_task_end(&task);
            raise_flags = task.raise_flags;
        }
        crtrig_fpenv_leave(&env, raise_flags);
        return rc;
    }
    call.target = target;
    call.opt = opt;
    call.func = func;
    call.dtype = dtype;
    call.in = in;
    call.in_stride = in_stride;
    call.out = out;
    call.out_stride = out_stride;
    call.counts = counts;
    call.raise_flags = 0;
    call.use_table = use_table;
    crtrig_fpenv_enter(&env);
    if (checked && !counts && count <= SMALL_CALL && (dtype == CRTRIG_FLOAT32 || dtype == CRTRIG_FLOAT64) &&
        (func == CRTRIG_SIN || func == CRTRIG_COS)) {
        rc = small_call(&call, count);
        crtrig_fpenv_leave(&env, call.raise_flags);
        return rc;
    }
    if (checked && count > 0 && CRTRIG_SELFCHECK_TRIG_PASS(func, dtype) >= 0)
        call.target = checked_target(target, func, dtype);  /* 16-bit sinpi .. tanpi: no pass */
    if (count >= 2 && may_split(in, in_stride, out, out_stride, count, trig_element_size(dtype)))
        participants = crtrig_threads_claim(count, BLOCK);
    rc = participants > 1 ? crtrig_threads_run(participants, count, BLOCK, trig_share, &call)
                          : one_thread(&call, count);
    crtrig_fpenv_leave(&env, call.raise_flags);
    crtrig_threads_release(participants);
    return rc;
}

int crtrig_trig_strided(crtrig_trig_func func, crtrig_dtype dtype, const char *in,
                        ptrdiff_t in_stride, char *out, ptrdiff_t out_stride, size_t count)
{
    return trig_call(crtrig_active_target(), func, dtype, in, in_stride, out, out_stride, count,
                     NULL, NULL, 1, 1);
}

int crtrig_trig_strided_ex(crtrig_trig_func func, crtrig_dtype dtype, const char *in,
                           ptrdiff_t in_stride, char *out, ptrdiff_t out_stride, size_t count,
                           const crtrig_eval_options *opt, crtrig_stage_counts *counts)
{
    const crtrig_target *target = (opt && opt->simd_target) ? crtrig_target_at(opt->simd_target - 1)
                                                            : crtrig_active_target();
    /* The tables serve normal operation only: not a chosen target, a forced stage or
     * stage counts (test hooks of the kernels). */
    int use_table = !counts && (!opt || (!opt->simd_target && opt->first_stage == CRTRIG_STAGE_DOUBLE));
    /* The self-check governs the active target's first pass: not a named target,
     * nor a call that skips the first pass. */
    int checked = !opt || (!opt->simd_target && opt->first_stage == CRTRIG_STAGE_DOUBLE);
    return trig_call(target, func, dtype, in, in_stride, out, out_stride, count, opt, counts,
                     use_table, checked);
}

int crtrig_trig_strided_target(int target, crtrig_trig_func func, crtrig_dtype dtype,
                               const char *in, ptrdiff_t in_stride, char *out,
                               ptrdiff_t out_stride, size_t count)
{
    return trig_call(crtrig_target_at(target), func, dtype, in, in_stride, out, out_stride, count,
                     NULL, NULL, 0, 0);
}
