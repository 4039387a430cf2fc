/* The thread pool that splits large calls over the cores (internal).
 *
 * A call (one sin/cos loop invocation, one window fill) over `count` items
 * asks crtrig_threads_claim how many threads may take part: 1 (the calling
 * thread alone) when the call is below the parallel threshold, the thread
 * count is 1, or the pool is busy with another call; otherwise up to the
 * thread count (crtrig_set_num_threads) and at most the pool's cap, max(8,
 * 2 * the CPUs available), and the pool is this call's until
 * crtrig_threads_release.  A caller never waits for the pool: when another
 * call holds it, the caller runs its whole call inline, so concurrent calls
 * from many threads neither deadlock nor use more threads than callers plus
 * the pool.
 *
 * The call then runs its job with crtrig_threads_run: the calling thread
 * (participant 0) and the pool workers (1 .. participants - 1) each run fn at
 * most once, and fn claims chunks of the item range with crtrig_job_next
 * until none is left.  The calling thread always runs it; a worker that wakes
 * only after every chunk is claimed skips the job (so a call never waits for
 * a thread that another process keeps off the CPU).  Chunks are whole multiples of `block` items starting
 * at multiples of `block`, so a block kernel sees exactly the blocks it would
 * see on one thread.  With one participant the job is one chunk, the whole
 * range, run on the calling thread: the serial path is the same code.
 *
 * What a participant must do, and the pool does for it:
 *   - workers bracket each share (each fn call) with crtrig_fpenv_enter/leave:
 *     the floating-point environment is per thread.  The calling thread runs
 *     its share inside its own bracket (the entry point's).  Flags raised in a
 *     worker are discarded; a participant reports what the caller must raise
 *     through ctx, merged under crtrig_job_lock.
 *   - fn returns CRTRIG_OK or an error code; after an error no participant
 *     gets another chunk, and crtrig_threads_run returns the first error.
 *   - anything fn must not do before all participants are ready (a fill that
 *     must write nothing on failure) is prepared by the caller before
 *     crtrig_threads_run, per participant index.
 *
 * Workers are POSIX threads (Windows threads under _WIN32), started on first
 * need and parked on a condition variable between jobs, with every signal
 * blocked and a 256 KiB stack (threads.c says why that is enough).  When the
 * thread count is lowered, the workers above it retire (their threads end)
 * as soon as no call holds the pool.  They never call Python.  After fork
 * the child starts with no pool and builds its own on its first large call
 * (pthread_atfork).
 */
#ifndef CRTRIG_THREADS_H
#define CRTRIG_THREADS_H

#include <stddef.h>
#include "crtrig/crtrig.h"

typedef struct crtrig_job crtrig_job;

/* One participant's share of a job (see above). */
typedef int (*crtrig_job_fn)(void *ctx, int participant, crtrig_job *job);

/* How many threads a call over count items runs on, counting the caller
 * (1 .. the thread count, at most the cap and one per block); above 1 the pool is
 * claimed for this call and crtrig_threads_release must follow. */
int crtrig_threads_claim(size_t count, size_t block);

/* crtrig_threads_claim for items that each cost about `weight` times the 0.5 ns
 * element the pool's threshold counts (threads.c): count and block are weighed
 * alike (count saturating at SIZE_MAX), so the split starts at threshold/weight
 * items; weight >= 1. */
int crtrig_threads_claim_weighted(size_t count, size_t block, size_t weight);
void crtrig_threads_release(int participants);

/* Run fn on `participants` threads (the value crtrig_threads_claim gave, or 1)
 * over the items [0, count).  Returns CRTRIG_OK or the first error. */
int crtrig_threads_run(int participants, size_t count, size_t block, crtrig_job_fn fn, void *ctx);

/* A job whose items are each decided or left for the caller's exact fallback (the
 * window fills with a rounding test): range(ctx, lo, hi) computes the items [lo, hi)
 * and returns how many of them it left undecided.  Runs range over the chunks as
 * crtrig_threads_run runs fn; on CRTRIG_OK, *undecided is the total over all chunks
 * (a sum, so it does not depend on how the items were split). */
typedef size_t (*crtrig_range_fn)(void *ctx, size_t lo, size_t hi);
int crtrig_threads_run_counting(int participants, size_t count, size_t block, crtrig_range_fn range,
                                void *ctx, size_t *undecided);

/* The next chunk [*lo, *hi) of the job for the calling participant: 1, or 0
 * when none is left (or a participant has failed). */
int crtrig_job_next(crtrig_job *job, size_t *lo, size_t *hi);

/* Mutual exclusion among the participants of a job, for merging results into
 * ctx (no-ops when the job runs on one thread). */
void crtrig_job_lock(crtrig_job *job);
void crtrig_job_unlock(crtrig_job *job);

/* Add a participant's stage counters to the call's, under the job's lock. */
void crtrig_job_add_counts(crtrig_job *job, crtrig_stage_counts *total, const crtrig_stage_counts *part);

/* Test hook (not in the public header): with on = 1, a job's caller waits
 * until every worker it posted the job to has joined before it runs its own
 * share, so that tests of what workers do (their floating-point environment,
 * their counters) never depend on how busy the machine is.  Returns the
 * previous setting; 0 (the default) restores normal scheduling. */
int crtrig_test_require_all_workers(int on);

/* Test hook: the most threads one call runs on, the caller included (the
 * pool's cap, max(8, 2 * the CPUs available) up to CRTRIG_MAX_THREADS), the
 * stack size asked for each worker (0: the system's default), the stack size
 * the last worker started found it has (as the system reports it; 0 before
 * any worker, or where the system cannot tell), and the workers retired since
 * the process started.  Without a pool yet: what one created now would have. */
void crtrig_test_pool_details(long *cap, long *stack_size, long *worker_stack, long *exits);

/* Test hook: wait until the pool has at most `at_most` workers running (they
 * retire after the thread count is lowered), or timeout_ms milliseconds have
 * passed; returns the number running then (0 without a pool). */
long crtrig_test_wait_for_pool_workers(long at_most, long timeout_ms);

#endif
