/* The first-use self-check of the SIMD first passes (internal).
 *
 * Why.  Kernels that never ran can be wrong without anyone knowing: the avx512
 * kernels were written on machines without AVX-512, NEON ran only under qemu,
 * MSVC builds were never compiled, and a compiler, an emulator, a CPU or a
 * hidden feature can break one target's code while the others stay right.
 *
 * What.  At the first use of each SIMD first pass in a process -- sin and cos
 * for each of float16, bfloat16, float32 and float64 (8 passes), and the window
 * passes for each float format (4; the integer outputs are casts of float32's)
 * -- and sinpi and cospi for float32 and float64 (4 passes, CRTRIG_SELFCHECK_TRIGPI:
 * trigpi_pass.h; they compare on sin's and cos's stored inputs of their format),
 * and tan and tanpi for float32 and float64 (4 passes, CRTRIG_SELFCHECK_TAN:
 * tan_pass.h, on sin's stored inputs of their format)
 * -- the entry point runs that pass's target path (the array kernel: the first
 * pass, then the per-element stages for what it leaves undecided; for the
 * windows the table builder, the pass, the stages) on the stored inputs of
 * selfcheck_inputs.h (made by tools/gen_selfcheck_inputs.py: hard to round,
 * near multiples of pi/2, subnormal, huge, special, ordinary; at most
 * CRTRIG_SELFCHECK_MAX_INPUTS per pass) and compares the final results with the
 * scalar path's (every input through the per-element stages alone), bit for
 * bit.  On any mismatch the pass uses the next target down (avx512, then avx2,
 * then the baseline) for the rest of the process, after checking that one the
 * same way; the baseline is the reference and the last fallback, never checked
 * and never demoted.  Other passes keep their targets.  The check runs once per
 * pass and process (more often only when threads reach a first use at the same
 * moment), in well under a millisecond: at most CRTRIG_SELFCHECK_MAX_INPUTS
 * inputs, once (tests/test_selfcheck.py checks both); measured with timeit
 * (minimum of 15 repeats of 200 runs of the check through the timing hook, on a
 * 2-core AMD EPYC Zen 5, avx512, gcc 12 -O2, other jobs running), 17-41 us per
 * sin/cos pass (206-359 inputs) and 74-142 us per window pass (201 phases),
 * 0.63 ms for all 12; a first call costs that much more than a second one.
 *
 * Who does what.  The entry points (sincos_array.c, window.c) run the two paths,
 * since only they own the array kernels and the stages; this file holds the
 * stored inputs, compares the results, records and publishes the outcome, and
 * calls nothing but the dispatch table.  Normal calls ask crtrig_selfcheck_target
 * for their pass's target; calls that name a target (test hooks, `crtrig verify
 * --target`) use it as they are, unchecked.  The C core cannot warn: the Python
 * layer reads the outcome (crtrig_selfcheck_failed, crtrig_selfcheck_report) and
 * raises the RuntimeWarning after the call, and crtrig.show_config() prints it.
 *
 * State (selfcheck.c): per pass one 64-bit outcome word and, per target, the bits
 * of the first mismatching result and of the scalar path's, published as the
 * 16-bit tables are (sincos_table16.c): each thread that finds a pass unchecked
 * runs the check itself, on its own stack, writes the diagnostic words (the
 * same values whichever thread writes them: the check is deterministic) and
 * offers the outcome by a compare-and-swap from 0; the first offer wins.  No
 * thread waits for another, nothing is allocated, and a process forked in the
 * middle sees either no outcome (and checks again) or a complete one.
 */
#ifndef CRTRIG_SELFCHECK_H
#define CRTRIG_SELFCHECK_H

#include <stddef.h>
#include <stdint.h>
#include "crtrig/crtrig.h"
#include "dispatch.h"

struct crtrig_window_coef;

/* Passes: sin/cos of dtype d (0 float16 .. 3 float64) are pass 4 func + d; the
 * window pass of float format d is pass CRTRIG_SELFCHECK_WINDOW + d. */
enum {
    CRTRIG_SELFCHECK_WINDOW = 8,
    CRTRIG_SELFCHECK_TRIGPI = 12,         /* sinpi f32, f64, cospi f32, f64: 12 .. 15 */
    CRTRIG_SELFCHECK_TAN = 16,            /* tan f32, f64, tanpi f32, f64: 16 .. 19 */
    CRTRIG_SELFCHECK_PASSES = 20,
    CRTRIG_SELFCHECK_MAX_INPUTS = 512,    /* inputs (window phases) per pass, at most */
    CRTRIG_SELFCHECK_MAX_RANGE = 64,      /* phases per stored window range, at most */
    CRTRIG_SELFCHECK_TABLE_ENTRIES = 80   /* table entries of a stored range, at most */
};
/* sinpi/cospi (func 2, 3) have passes for float32 and float64 only: pass
 * CRTRIG_SELFCHECK_TRIGPI + 2 (func - 2) + (dtype - 2); tan and tanpi (func 4, 5)
 * likewise, pass CRTRIG_SELFCHECK_TAN + 2 (func - 4) + (dtype - 2); -1 for their
 * 16-bit formats. */
#define CRTRIG_SELFCHECK_TRIG_PASS(func, dtype)                                                  \
    ((int)(func) < 2 ? 4 * (int)(func) + (int)(dtype)                                         \
     : (int)(func) > 5 || (int)(dtype) < 2 ? -1                                               \
     : CRTRIG_SELFCHECK_TRIGPI + 2 * ((int)(func) - 2) + (int)(dtype) - 2)

/* A stored window input: the folded phases r0 .. r0 + count - 1 (<= D/2) of the
 * window kind (a crtrig_window_kind, or CRTRIG_GENERAL_HAMMING with alpha =
 * alpha_num / alpha_den) with denominator D (1 <= D <= 2^52), through a table of
 * step `step` (step + (count - 1)/step + 2 <= CRTRIG_SELFCHECK_TABLE_ENTRIES). */
typedef struct crtrig_selfcheck_window_input {
    int kind;
    uint64_t alpha_num, alpha_den;
    uint64_t D, r0;
    int count, step;
} crtrig_selfcheck_window_input;

/* The stored inputs of sin/cos pass `pass` (its dtype's bits, *count of them),
 * or NULL for another pass.  The first *clean are ordinary finite inputs below
 * the passes' large-reduction threshold: the check runs them through the array
 * kernel in a call of their own (chunks of such inputs take the passes' fast
 * path), then the rest. */
const void *crtrig_selfcheck_trig_inputs(int pass, size_t *count, size_t *clean);
/* The stored window ranges (*ranges of them), shared by the four window passes. */
const crtrig_selfcheck_window_input *crtrig_selfcheck_window_inputs(size_t *ranges);
/* Inputs (window phases) the check of `pass` compares; 0 for an unknown pass. */
size_t crtrig_selfcheck_input_count(int pass);

/* The target normal calls of `pass` use, given the process's active target: the
 * active one itself when it is the baseline, the published outcome once the
 * check has run (one acquire load), the baseline where this build cannot
 * publish (no atomic operations), else NULL: the caller runs the check. */
const crtrig_target *crtrig_selfcheck_target(int pass, const crtrig_target *active);

/* One run of a check, on the checking thread's stack (fields private to selfcheck.c). */
typedef struct crtrig_selfcheck_run {
    int pass;
    int candidate;   /* index of the target being checked; 0 once the check is over */
    uint64_t word;   /* the outcome so far */
    uint64_t got[CRTRIG_NUM_TARGETS], want[CRTRIG_NUM_TARGETS];
} crtrig_selfcheck_run;

/* Start a check of `pass` for the active target (not the baseline) and return
 * the first target to compute with: the active one.  counted: this run counts in
 * crtrig_test_selfcheck_runs (0 for the timing hook's runs). */
const crtrig_target *crtrig_selfcheck_begin(crtrig_selfcheck_run *run, int pass, const crtrig_target *active,
                                            int counted);

/* The current candidate's results got[0 .. count - 1] against the scalar path's
 * want[], elements of `width` bytes (2, 4 or 8), compared bit for bit; records
 * the first mismatch.  Returns the next target to compute with: NULL when the
 * candidate passed, else the next target down that this CPU supports, or NULL
 * when that would be the baseline (the outcome is then the baseline). */
const crtrig_target *crtrig_selfcheck_compare(crtrig_selfcheck_run *run, const char *got, const char *want,
                                              size_t count, size_t width);

/* The outcome of a finished run: publish it (the first offer for the pass wins)
 * and return the target the pass uses from now on; or, for publish == 0 (the
 * timing hook), the target this run chose, published nowhere. */
const crtrig_target *crtrig_selfcheck_finish(crtrig_selfcheck_run *run, int publish);

/* The Python layer's view.  crtrig_selfcheck_failed: 1 if the pass has been
 * checked and uses a lower target than the active one (one acquire load; the
 * ufunc loops call it after each call), else 0. */
int crtrig_selfcheck_failed(int pass);

enum {
    CRTRIG_SELFCHECK_NOT_RUN = 0,    /* the pass has not been used yet */
    CRTRIG_SELFCHECK_DONE = 1,       /* checked: see chosen and target[] */
    CRTRIG_SELFCHECK_REFERENCE = 2,  /* the active target is the baseline: nothing to check */
    CRTRIG_SELFCHECK_UNAVAILABLE = 3 /* no atomic operations in this build: the baseline is used */
};
typedef struct crtrig_selfcheck_target_report {
    int tried;            /* this target was checked */
    int mismatches;       /* stored inputs whose results differed from the scalar path's */
    int index;            /* the first of them (windows: the phase's index over the ranges) */
    uint64_t input;       /* sin/cos: its bits */
    int window_range;     /* windows: its range in crtrig_selfcheck_window_inputs */
    uint64_t phase;       /* windows: its phase r (w[n] for n = r and n = D - r) */
    uint64_t got, want;   /* the target's result and the scalar path's, as bits */
} crtrig_selfcheck_target_report;
typedef struct crtrig_selfcheck_report {
    int status;           /* CRTRIG_SELFCHECK_* */
    int active, chosen;   /* target indices: the process's active target, the pass's */
    size_t inputs;        /* what a check of this pass compares */
    crtrig_selfcheck_target_report target[CRTRIG_NUM_TARGETS];
} crtrig_selfcheck_report;
/* The outcome of `pass`; CRTRIG_EINVAL for an unknown pass. */
int crtrig_selfcheck_report_get(int pass, crtrig_selfcheck_report *report);

/* Run the check of a pass now if it has not run yet, as a first call would
 * (crtrig.show_config() completes its report with them); publish == 0 runs it
 * again without publishing or counting (the timing hook).  Returns the index of
 * the target the pass uses (or would), or -1 (CRTRIG_EINVAL arguments, or
 * CRTRIG_ENOMEM for the windows' workspace).  In sincos_array.c and window.c. */
int crtrig_selfcheck_run_trig(crtrig_trig_func func, crtrig_dtype dtype, int publish);
int crtrig_selfcheck_run_window(crtrig_dtype fmt, int publish);

/* Test hooks.  TEST-ONLY GLOBAL STATE (atomic), as alloc.c's countdown.
 * crtrig_test_selfcheck_fault: from now on, the first pass `pass` of target
 * index `target` (1 avx2, 2 avx512) gives a wrong result for stored input
 * `index` (a window phase: its range's window, D and phase) in every call --
 * the self-check's, normal calls, calls naming the target: the lowest bit of its
 * result flipped, the element marked decided -- as a broken kernel would; one
 * fault per target (arming another replaces it), index < 0 repairs it.  Returns
 * CRTRIG_OK or CRTRIG_EINVAL.  The array kernels apply
 * it after each first pass (crtrig_selfcheck_fault_armed: one relaxed load).
 * crtrig_test_selfcheck_runs: how many checks of `pass` have run in this process
 * (the ones threads ran at the same moment included; -1 for an unknown pass). */
int crtrig_test_selfcheck_fault(int target, int pass, int index);
long crtrig_test_selfcheck_runs(int pass);
int crtrig_selfcheck_fault_armed(const crtrig_target *target);
void crtrig_selfcheck_fault_trig(const crtrig_target *target, crtrig_trig_func func, crtrig_dtype dtype,
                                 const char *in, char *out, size_t count, unsigned char *undecided);
void crtrig_selfcheck_fault_window(const crtrig_target *target, crtrig_dtype fmt,
                                   const struct crtrig_window_coef *coef, uint64_t D, uint64_t r0,
                                   size_t count, char *vals, char *mirror);

#endif
