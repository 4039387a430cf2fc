/* The thread pool (threads.h) and the thread count (crtrig.h).
 *
 * Process-wide state: the thread count and the parallel threshold (read
 * without the lock, atomically), and one pool, created on first need:
 *
 *   pool_lock   guards everything below and the shared jobs' chunk counter
 *   the_pool    NULL until a call first needs workers (and again in a forked
 *               child); plain calloc, not crtrig_alloc: it is the pool's own
 *               state, made once, whose failure only means running inline,
 *               and the allocation test hook counts the allocations of calls
 *   cap         the most threads one call runs on, the caller included:
 *               max(MIN_CAP, CAP_PER_CPU * the CPUs available), at most
 *               CRTRIG_MAX_THREADS, counted when the pool is created
 *   workers     workers[0 .. started - 1] are running, each a thread with a
 *               WORKER_STACK_SIZE stack.  A claim starts them one by one,
 *               up to min(thread count, cap) - 1; between jobs they wait on
 *               `work`.  A worker retires (its thread ends) when the pool is
 *               not busy, it is the last one (index started - 1) and its
 *               index is at least keep = min(thread count, cap) - 1; so the
 *               running workers are always workers 0 .. started - 1, and
 *               while a call holds the pool (busy) none of them leaves.  A
 *               retiring worker decrements started and wakes `work`, so that
 *               the next one down retires in turn; lowering the thread count
 *               and releasing the pool wake `work` too.  A slot is reused
 *               only after its thread has decremented started, and the
 *               retiring thread touches nothing of the pool after that.
 *
 * A job: the caller (holding the pool: busy) posts it (job, job_workers,
 * open, generation + 1) and wakes the workers; the caller runs its own share,
 * which ends when every chunk is claimed, then closes the job and waits on
 * `done` until no worker is still in it (active == 0).  Workers 0 ..
 * job_workers - 1 join the job if it is still open when they wake (active +
 * 1), run their share, and leave (active - 1).  A worker that wakes after the
 * close skips the job: the caller never waits for a thread that has not
 * started, so when the other cores are busy a call costs little more than on
 * one thread.  A worker remembers the last generation it saw, so it joins a
 * job at most once; a job is never touched after its caller returns (the
 * caller waited for every worker that joined, and no worker joins after the
 * close).  Only the caller waits on `done`; `work` is only broadcast (the
 * workers and the exit test hook wait on it).
 *
 * fork: the prepare handler takes pool_lock (held only briefly, never while
 * waiting), so no other thread is inside the pool's state at the fork; the
 * parent releases it; the child, whose only thread is the one that forked,
 * forgets the parent's pool (its workers do not exist there; the memory is
 * left as it is) and releases the lock.  The thread count is kept.
 *
 * Windows (_WIN32): SRW lock, condition variables and _beginthreadex; no
 * fork.  tools/check_threads.sh builds this branch with MinGW-w64 and runs
 * its driver under Wine; crtrig's CI does not.
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE  /* sched_getaffinity, CPU_COUNT, pthread_getattr_np */
#endif
#include <stdint.h>
#include <stdlib.h>
#include "crtrig/crtrig.h"
#include "fpenv.h"
#include "threads.h"

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <process.h>
#else
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#endif

/* Each worker's stack.  The deepest job a worker runs (a sin/cos share that
 * falls back to the multi-precision reduction, a window share through its
 * table and multi-precision stage) used 11.2 KiB (11487 bytes) below the
 * worker's first frame over the whole test suite, slow tests included
 * (measured by filling the workers' stacks with a pattern and finding the
 * deepest byte overwritten); gcc's -fstack-usage call graph of src/core gives
 * about 12 KiB, with no recursion; and the pool's, windows' and sin/cos tests
 * pass with 32 KiB stacks (-DCRTRIG_WORKER_STACK_SIZE=32768).  Workloads that
 * run with `ulimit -s 128` need 128 KiB to be enough; 256 KiB (glibc's own
 * tests use the same floor for small thread stacks) leaves a wide margin for
 * sanitizer builds, other compilers and the C library's calls, and is 1/32 of
 * the 8 MiB a thread gets by default on Linux, address space that `ulimit -v`
 * counts.  Never below the platform's PTHREAD_STACK_MIN. */
#ifndef CRTRIG_WORKER_STACK_SIZE
#define CRTRIG_WORKER_STACK_SIZE (256 * 1024)
#endif
#define WORKER_STACK_SIZE ((size_t)(CRTRIG_WORKER_STACK_SIZE))

/* The most threads one call runs on, the caller included, whatever the thread
 * count asks for: max(MIN_CAP, CAP_PER_CPU * the CPUs available), counted when
 * the pool is created.  The chunks are handed out as threads ask for them, so
 * threads beyond the CPUs only cost memory and switches; the floor keeps small
 * counts (tests, machines with one or two CPUs) as asked. */
enum { MIN_CAP = 8, CAP_PER_CPU = 2 };

/* Chunks per participant: enough that a thread slowed by other work on its
 * core hands its remaining chunks to the others, few enough that claiming
 * one (a lock) costs nothing next to it. */
enum { CHUNKS_PER_PARTICIPANT = 8 };

/* Calls over fewer items than this run on the calling thread alone.  Waking
 * the workers costs about 10 us (README, "Speed": with the AVX2 kernels,
 * splitting pays from about 4096 elements, 1.75-1.85 times at 65536); 2^16
 * elements are still about 50 us of work for kernels as fast as numpy's
 * float32 sin (0.4-0.5 ns per element), which the kernels aim at. */
#define DEFAULT_PARALLEL_THRESHOLD 65536L

static long thread_count = 1;
static long parallel_threshold = DEFAULT_PARALLEL_THRESHOLD;
/* Test-hook statistics, under pool_lock: jobs run on several threads, shares
 * run by workers, and workers retired, since the process started. */
static long parallel_jobs, worker_shares, worker_exits;
/* Test hook (threads.h): the caller of a job waits for all its workers. */
static long require_all_workers;

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static long load_setting(long *v) { return _InterlockedOr(v, 0); }
static long exchange_setting(long *v, long x) { return _InterlockedExchange(v, x); }
#else
static long load_setting(long *v) { return __atomic_load_n(v, __ATOMIC_RELAXED); }
static long exchange_setting(long *v, long x) { return __atomic_exchange_n(v, x, __ATOMIC_SEQ_CST); }
#endif

/* ------------------------------------------------------------------------ */
/* Lock, condition variables, threads. */

#if defined(_WIN32)
static SRWLOCK pool_lock = SRWLOCK_INIT;
typedef CONDITION_VARIABLE cond_var;
static void lock_pool(void) { AcquireSRWLockExclusive(&pool_lock); }
static void unlock_pool(void) { ReleaseSRWLockExclusive(&pool_lock); }
static int cond_init(cond_var *c) { InitializeConditionVariable(c); return 0; }
static void cond_destroy(cond_var *c) { (void)c; }
static void cond_wait(cond_var *c) { SleepConditionVariableSRW(c, &pool_lock, INFINITE, 0); }
static void cond_signal(cond_var *c) { WakeConditionVariable(c); }
static void cond_broadcast(cond_var *c) { WakeAllConditionVariable(c); }
#else
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
typedef pthread_cond_t cond_var;
static void lock_pool(void) { pthread_mutex_lock(&pool_lock); }
static void unlock_pool(void) { pthread_mutex_unlock(&pool_lock); }
static int cond_init(cond_var *c) { return pthread_cond_init(c, NULL); }
static void cond_destroy(cond_var *c) { pthread_cond_destroy(c); }
static void cond_wait(cond_var *c) { pthread_cond_wait(c, &pool_lock); }
static void cond_signal(cond_var *c) { pthread_cond_signal(c); }
static void cond_broadcast(cond_var *c) { pthread_cond_broadcast(c); }
#endif

struct crtrig_job {
    crtrig_job_fn fn;
    void *ctx;
    size_t count, chunk, next;  /* items [0, count), handed out from next on */
    int shared;                 /* several threads: next and rc under pool_lock */
    int rc;                     /* the first error of a participant */
};

struct pool;

typedef struct worker {
    struct pool *pool;
    int index;                  /* participant index - 1 */
    unsigned long generation;   /* the pool's generation when it started */
} worker;

typedef struct pool {
    cond_var work;              /* signalled when a job is posted */
    cond_var done;              /* signalled when active reaches 0 after the close */
    int busy;                   /* a call holds the pool, from claim to release */
    int started;                /* workers running: workers[0 .. started - 1] */
    int cap;                    /* the most threads a call runs on, the caller included */
    size_t stack_size;          /* asked for each worker (0: the system's default) */
    size_t worker_stack;        /* the stack the last worker started found it has (test hook) */
    unsigned long generation;   /* jobs posted so far */
    crtrig_job *job;            /* the job posted last */
    int job_workers;            /* workers 0 .. job_workers - 1 may join it */
    int open;                   /* workers may still join it */
    int active;                 /* workers in it, not finished with their share */
    int joined;                 /* workers that joined it (the test hook waits for them) */
    worker workers[CRTRIG_MAX_THREADS - 1];
} pool;

static pool *the_pool;

static void record_error(crtrig_job *job, int rc)  /* under pool_lock for a shared job */
{
    if (rc != CRTRIG_OK && job->rc == CRTRIG_OK)
        job->rc = rc;
}

/* The workers the pool keeps now: min(thread count, cap) - 1 (under pool_lock). */
static int workers_to_keep(const pool *p)
{
    long n = load_setting(&thread_count);
    return (int)(n < p->cap ? n : p->cap) - 1;
}

/* Whether worker w retires now (under pool_lock): the pool is not held by a
 * call, w is the last worker, and the pool keeps fewer. */
static int retires(const pool *p, const worker *w)
{
    return !p->busy && w->index == p->started - 1 && w->index >= workers_to_keep(p);
}

/* The size of the calling thread's stack, as the system reports it (0 where
 * it cannot tell): for the test hook, run by each worker as it starts. */
static size_t own_stack_size(void)
{
#if defined(_WIN32)
#if defined(_WIN32_WINNT) && _WIN32_WINNT >= 0x0602
    ULONG_PTR low = 0, high = 0;
    GetCurrentThreadStackLimits(&low, &high);
    return (size_t)(high - low);
#else
    return 0;
#endif
#elif defined(__linux__)
    pthread_attr_t attr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return 0;
    if (pthread_attr_getstacksize(&attr, &size) != 0)
        size = 0;
    pthread_attr_destroy(&attr);
    return size;
#elif defined(__APPLE__)
    return pthread_get_stacksize_np(pthread_self());
#else
    return 0;
#endif
}

static void worker_loop(worker *w)
{
    pool *p = w->pool;
    unsigned long seen = w->generation;
    size_t stack = own_stack_size();
    lock_pool();
    p->worker_stack = stack;
    for (;;) {
        crtrig_job *job;
        crtrig_fpenv env;
        int rc;
        while (p->generation == seen && !retires(p, w))
            cond_wait(&p->work);
        if (p->generation == seen) {  /* retire: the slot is free once started drops */
            p->started--;
            worker_exits++;
            cond_broadcast(&p->work);  /* the next worker down may retire too; the test hook waits */
            unlock_pool();
            return;  /* nothing of the pool is touched after this */
        }
        seen = p->generation;
        if (w->index >= p->job_workers || !p->open)
            continue;  /* this job needs fewer workers, or is done already */
        job = p->job;
        p->active++;
        p->joined++;
        worker_shares++;
        if (load_setting(&require_all_workers))
            cond_broadcast(&p->done);  /* the caller may be waiting for the joins */
        unlock_pool();
        crtrig_fpenv_enter(&env);  /* the environment is per thread */
        rc = job->fn(job->ctx, w->index + 1, job);
        crtrig_fpenv_leave(&env, 0);
        lock_pool();
        record_error(job, rc);
        if (--p->active == 0 && !p->open)
            cond_signal(&p->done);
    }
}

#if defined(_WIN32)
static unsigned __stdcall worker_entry(void *arg)
{
    worker_loop((worker *)arg);
    return 0;
}

/* The stack size is a reservation (STACK_SIZE_PARAM_IS_A_RESERVATION): the
 * address space set aside, committed as it is used. */
static int start_thread(worker *w, size_t stack_size)
{
    uintptr_t handle = _beginthreadex(NULL, (unsigned)stack_size, worker_entry, w,
                                      STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
    if (handle == 0)
        return -1;
    CloseHandle((HANDLE)handle);  /* detached: it runs until it retires or the process ends */
    return 0;
}

static size_t worker_stack_size(void) { return WORKER_STACK_SIZE; }
#else
static void *worker_entry(void *arg)
{
    worker_loop((worker *)arg);
    return NULL;
}

/* A detached thread with every signal blocked (it inherits the mask it is
 * created with), so that signals go to the application's threads, and a
 * stack of stack_size bytes (0: the system's default). */
static int start_thread(worker *w, size_t stack_size)
{
    pthread_attr_t attr;
    pthread_t id;
    sigset_t all, old;
    int rc;
    if (pthread_attr_init(&attr) != 0)
        return -1;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (stack_size != 0 && pthread_attr_setstacksize(&attr, stack_size) != 0) {
        pthread_attr_destroy(&attr);
        return -1;
    }
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&id, &attr, worker_entry, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    return rc == 0 ? 0 : -1;
}

/* WORKER_STACK_SIZE, raised to PTHREAD_STACK_MIN (a run-time value in newer
 * C libraries) and rounded up to whole pages (macOS requires it); 0, the
 * system's default, if the platform's attributes refuse it. */
static size_t worker_stack_size(void)
{
    size_t size = WORKER_STACK_SIZE;
    long page = sysconf(_SC_PAGESIZE);
    pthread_attr_t attr;
#if defined(PTHREAD_STACK_MIN)
    if (size < (size_t)PTHREAD_STACK_MIN)
        size = (size_t)PTHREAD_STACK_MIN;
#endif
    if (page > 0 && size % (size_t)page != 0)
        size += (size_t)page - size % (size_t)page;
    if (pthread_attr_init(&attr) != 0)
        return 0;
    if (pthread_attr_setstacksize(&attr, size) != 0)
        size = 0;
    pthread_attr_destroy(&attr);
    return size;
}

static int fork_handlers_registered;

static void lock_before_fork(void) { lock_pool(); }
static void unlock_in_parent(void) { unlock_pool(); }
static void forget_pool_in_child(void)
{
    the_pool = NULL;
    unlock_pool();
}
#endif

/* The CPUs this process may run on: its affinity mask on Linux, the online
 * CPUs elsewhere, the active processors of every group on Windows; at least 1. */
static long cpus_available(void)
{
    long n = 0;
#if defined(_WIN32)
    n = (long)GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
#else
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
#endif
#if defined(_SC_NPROCESSORS_ONLN)
    if (n < 1)
        n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
#endif
    return n < 1 ? 1 : n;
}

/* The most threads a call runs on, the caller included (see MIN_CAP). */
static int thread_cap(void)
{
    long cpus = cpus_available();
    long cap = cpus > CRTRIG_MAX_THREADS / CAP_PER_CPU ? CRTRIG_MAX_THREADS : CAP_PER_CPU * cpus;
    return (int)(cap < MIN_CAP ? MIN_CAP : cap);
}

/* The pool, created if need be (under pool_lock); NULL if that fails. */
static pool *get_pool(void)
{
    pool *p = the_pool;
    if (p)
        return p;
#if !defined(_WIN32)
    if (!fork_handlers_registered) {
        if (pthread_atfork(lock_before_fork, unlock_in_parent, forget_pool_in_child) != 0)
            return NULL;
        fork_handlers_registered = 1;
    }
#endif
    p = (pool *)calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (cond_init(&p->work) != 0) {
        free(p);
        return NULL;
    }
    if (cond_init(&p->done) != 0) {
        cond_destroy(&p->work);
        free(p);
        return NULL;
    }
    p->cap = thread_cap();
    p->stack_size = worker_stack_size();
    the_pool = p;
    return p;
}

static int start_worker(pool *p)  /* under pool_lock */
{
    worker *w = &p->workers[p->started];
    w->pool = p;
    w->index = p->started;
    w->generation = p->generation;
    if (start_thread(w, p->stack_size) != 0)
        return -1;
    p->started++;
    return 0;
}

int crtrig_threads_claim(size_t count, size_t block)
{
    long wanted = load_setting(&thread_count);
    size_t blocks = count / block + (count % block != 0);
    pool *p;
    int participants;
    if (wanted < 2 || count < (size_t)load_setting(&parallel_threshold) || blocks < 2)
        return 1;
    if ((size_t)wanted > blocks)
        wanted = (long)blocks;
    lock_pool();
    p = get_pool();
    if (!p || p->busy) {  /* busy: this call runs inline, without waiting */
        unlock_pool();
        return 1;
    }
    if (wanted > p->cap)
        wanted = p->cap;
    while (p->started < wanted - 1 && start_worker(p) == 0) {
    }
    participants = p->started + 1 < wanted ? p->started + 1 : (int)wanted;
    if (participants > 1)
        p->busy = 1;
    unlock_pool();
    return participants;
}

int crtrig_threads_claim_weighted(size_t count, size_t block, size_t weight)
{
    if (weight < 1)
        weight = 1;
    return crtrig_threads_claim(count > SIZE_MAX / weight ? SIZE_MAX : weight * count,
                                block > SIZE_MAX / weight ? SIZE_MAX : weight * block);
}

void crtrig_threads_release(int participants)
{
    if (participants < 2)
        return;
    lock_pool();
    if (the_pool) {
        the_pool->busy = 0;
        if (the_pool->started > workers_to_keep(the_pool))
            cond_broadcast(&the_pool->work);  /* the count was lowered during the call: retire */
    }
    unlock_pool();
}

/* About CHUNKS_PER_PARTICIPANT chunks each, in whole blocks. */
static size_t chunk_size(size_t count, int participants, size_t block)
{
    size_t pieces = (size_t)participants * CHUNKS_PER_PARTICIPANT;
    size_t per_piece = count / pieces + (count % pieces != 0);
    size_t blocks = per_piece / block + (per_piece % block != 0);
    return (blocks ? blocks : 1) * block;
}

int crtrig_threads_run(int participants, size_t count, size_t block, crtrig_job_fn fn, void *ctx)
{
    crtrig_job job;
    pool *p;
    int rc;
    job.fn = fn;
    job.ctx = ctx;
    job.count = count;
    job.next = 0;
    job.rc = CRTRIG_OK;
    job.shared = participants > 1;
    if (!job.shared) {  /* one chunk, the whole range, on this thread */
        job.chunk = count;
        return fn(ctx, 0, &job);
    }
    job.chunk = chunk_size(count, participants, block);
    lock_pool();
    p = the_pool;  /* claimed by this call: it exists and stays */
    p->job = &job;
    p->job_workers = participants - 1;
    p->open = 1;
    p->active = 0;
    p->joined = 0;
    p->generation++;
    parallel_jobs++;
    cond_broadcast(&p->work);
    if (load_setting(&require_all_workers))
        while (p->joined < p->job_workers)
            cond_wait(&p->done);
    unlock_pool();
    rc = fn(ctx, 0, &job);  /* returns once every chunk is claimed */
    lock_pool();
    record_error(&job, rc);
    p->open = 0;
    while (p->active > 0)
        cond_wait(&p->done);
    p->job = NULL;
    rc = job.rc;
    unlock_pool();
    return rc;
}

int crtrig_job_next(crtrig_job *job, size_t *lo, size_t *hi)
{
    int got = 0;
    if (job->shared)
        lock_pool();
    if (job->rc == CRTRIG_OK && job->next < job->count) {
        *lo = job->next;
        *hi = job->count - job->next > job->chunk ? job->next + job->chunk : job->count;
        job->next = *hi;
        got = 1;
    }
    if (job->shared)
        unlock_pool();
    return got;
}

void crtrig_job_lock(crtrig_job *job)
{
    if (job->shared)
        lock_pool();
}

void crtrig_job_unlock(crtrig_job *job)
{
    if (job->shared)
        unlock_pool();
}

typedef struct counting_job {
    crtrig_range_fn range;
    void *ctx;
    size_t undecided;
} counting_job;

/* One participant's share of a counting job: its chunks, then its count merged
 * under the job's lock. */
static int counting_share(void *arg, int participant, crtrig_job *job)
{
    counting_job *cj = (counting_job *)arg;
    size_t lo, hi, undecided = 0;
    (void)participant;
    while (crtrig_job_next(job, &lo, &hi))
        undecided += cj->range(cj->ctx, lo, hi);
    crtrig_job_lock(job);
    cj->undecided += undecided;
    crtrig_job_unlock(job);
    return CRTRIG_OK;
}

int crtrig_threads_run_counting(int participants, size_t count, size_t block, crtrig_range_fn range,
                                void *ctx, size_t *undecided)
{
    counting_job cj;
    int rc;
    cj.range = range;
    cj.ctx = ctx;
    cj.undecided = 0;
    rc = crtrig_threads_run(participants, count, block, counting_share, &cj);
    *undecided = rc == CRTRIG_OK ? cj.undecided : 0;
    return rc;
}

void crtrig_job_add_counts(crtrig_job *job, crtrig_stage_counts *total, const crtrig_stage_counts *part)
{
    crtrig_job_lock(job);
    total->exact += part->exact;
    total->by_stage[0] += part->by_stage[0];
    total->by_stage[1] += part->by_stage[1];
    total->by_stage[2] += part->by_stage[2];
    total->multi_retries += part->multi_retries;
    total->mirrored += part->mirrored;
    crtrig_job_unlock(job);
}

/* ------------------------------------------------------------------------ */
/* Public settings (crtrig.h). */

int crtrig_set_num_threads(int n)
{
    if (n < 1 || n > CRTRIG_MAX_THREADS)
        return CRTRIG_EINVAL;
    if (exchange_setting(&thread_count, n) > n) {  /* lowered: the workers above it retire */
        lock_pool();
        if (the_pool && !the_pool->busy && the_pool->started > workers_to_keep(the_pool))
            cond_broadcast(&the_pool->work);
        unlock_pool();
    }
    return CRTRIG_OK;
}

int crtrig_get_num_threads(void) { return (int)load_setting(&thread_count); }

const char *crtrig_threads_method(void)
{
#if defined(_WIN32)
    return "win32";
#else
    return "pthreads";
#endif
}

long crtrig_test_parallel_threshold(long n)
{
    return n < 0 ? load_setting(&parallel_threshold) : exchange_setting(&parallel_threshold, n);
}

int crtrig_test_require_all_workers(int on)
{
    return (int)exchange_setting(&require_all_workers, on != 0);
}

void crtrig_test_pool_stats(long *workers, long *jobs, long *shares)
{
    lock_pool();
    *workers = the_pool ? the_pool->started : 0;
    *jobs = parallel_jobs;
    *shares = worker_shares;
    unlock_pool();
}

void crtrig_test_pool_details(long *cap, long *stack_size, long *worker_stack, long *exits)
{
    lock_pool();
    if (the_pool) {
        *cap = the_pool->cap;
        *stack_size = (long)the_pool->stack_size;
        *worker_stack = (long)the_pool->worker_stack;
    } else {  /* what a pool created now would have */
        *cap = thread_cap();
        *stack_size = (long)worker_stack_size();
        *worker_stack = 0;
    }
    *exits = worker_exits;
    unlock_pool();
}

long crtrig_test_wait_for_pool_workers(long at_most, long timeout_ms)
{
    pool *p;
    long started;
    lock_pool();
    p = the_pool;
    if (p && timeout_ms > 0) {
#if defined(_WIN32)
        ULONGLONG deadline = GetTickCount64() + (ULONGLONG)timeout_ms, now;
        while (p->started > at_most && (now = GetTickCount64()) < deadline)
            SleepConditionVariableSRW(&p->work, &pool_lock, (DWORD)(deadline - now), 0);
#else
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += (time_t)(timeout_ms / 1000);
        deadline.tv_nsec += (timeout_ms % 1000) * 1000000L;
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000L;
        }
        while (p->started > at_most)
            if (pthread_cond_timedwait(&p->work, &pool_lock, &deadline) == ETIMEDOUT)
                break;
#endif
    }
    started = p ? p->started : 0;
    unlock_pool();
    return started;
}
