/* A C driver for the thread pool (tools/check_threads.sh runs it under
 * ThreadSanitizer, and as a Windows program under Wine when MinGW-w64 and
 * Wine are installed).
 *
 * Several application threads call sin/cos and window fills at once, through
 * the pool (threshold lowered to 256 elements, 4 threads) and inline when the
 * pool is busy, while the thread count changes (down to 1, so that workers
 * retire while other threads call, and up to 1024, above the pool's cap);
 * every result is compared with a one-thread result computed first.  Then the
 * count is lowered to 1 and every worker must retire (test hook of threads.h),
 * and raised again for one more checked call.  Exit status 0 when all match. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "crtrig/crtrig.h"
#include "threads.h"

enum { N = 40000, WINDOW = 30001, CALLERS = 4, ROUNDS = 6 };

static float input[N], want_sin[N], want_cos[N];
static double want_window[WINDOW];
static float want_window32[WINDOW];
static int failures;
static pthread_mutex_t failure_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, int caller)
{
    pthread_mutex_lock(&failure_lock);
    failures++;
    fprintf(stderr, "caller %d: %s differs\n", caller, what);
    pthread_mutex_unlock(&failure_lock);
}

static void *caller(void *arg)
{
    int id = (int)(size_t)arg, round;
    float *out = malloc(sizeof(float) * N);
    double *window = malloc(sizeof(double) * WINDOW);
    float *window32 = malloc(sizeof(float) * WINDOW);
    for (round = 0; round < ROUNDS; round++) {
        if (crtrig_trig_strided(CRTRIG_SIN, CRTRIG_FLOAT32, (const char *)input, 4, (char *)out, 4, N) != 0 ||
            memcmp(out, want_sin, sizeof(float) * N) != 0)
            fail("sin", id);
        memcpy(out, input, sizeof(float) * N);  /* exactly in place */
        if (crtrig_trig_strided(CRTRIG_COS, CRTRIG_FLOAT32, (const char *)out, 4, (char *)out, 4, N) != 0 ||
            memcmp(out, want_cos, sizeof(float) * N) != 0)
            fail("cos in place", id);
        if (crtrig_window(CRTRIG_BLACKMAN, WINDOW, 0, CRTRIG_FLOAT64, (char *)window, 8) != 0 ||
            memcmp(window, want_window, sizeof(double) * WINDOW) != 0)
            fail("blackman float64", id);
        if (crtrig_window(CRTRIG_HANN, WINDOW, 1, CRTRIG_FLOAT32, (char *)window32, 4) != 0 ||
            memcmp(window32, want_window32, sizeof(float) * WINDOW) != 0)
            fail("hann float32", id);
        if (id == 0) {
            static const int counts[ROUNDS] = {2, 1, 1024, 3, 1, 4};
            crtrig_set_num_threads(counts[round]);
        }
    }
    free(out);
    free(window);
    free(window32);
    return NULL;
}

int main(void)
{
    pthread_t threads[CALLERS];
    long workers, jobs, shares, retired_to, grown, cap, stack_size, worker_stack, exits;
    int i;
    if (!crtrig_init(NULL))
        return 2;
    for (i = 0; i < N; i++)
        input[i] = (float)(-100.0 + 200.0 * i / N);
    input[N / 2] = INFINITY;
    crtrig_trig_strided(CRTRIG_SIN, CRTRIG_FLOAT32, (const char *)input, 4, (char *)want_sin, 4, N);
    crtrig_trig_strided(CRTRIG_COS, CRTRIG_FLOAT32, (const char *)input, 4, (char *)want_cos, 4, N);
    crtrig_window(CRTRIG_BLACKMAN, WINDOW, 0, CRTRIG_FLOAT64, (char *)want_window, 8);
    crtrig_window(CRTRIG_HANN, WINDOW, 1, CRTRIG_FLOAT32, (char *)want_window32, 4);
    crtrig_set_num_threads(4);
    crtrig_test_parallel_threshold(256);
    for (i = 0; i < CALLERS; i++)
        pthread_create(&threads[i], NULL, caller, (void *)(size_t)i);
    for (i = 0; i < CALLERS; i++)
        pthread_join(threads[i], NULL);
    crtrig_test_pool_stats(&workers, &jobs, &shares);
    printf("%s pool: workers %ld, parallel jobs %ld, worker shares %ld, failures %d\n",
           crtrig_threads_method(), workers, jobs, shares, failures);
    /* Lowered to 1: every worker retires; raised again: the pool grows back. */
    crtrig_set_num_threads(1);
    if ((retired_to = crtrig_test_wait_for_pool_workers(0, 60000)) != 0) {
        fprintf(stderr, "%ld workers still running 60 s after the count was lowered to 1\n", retired_to);
        failures++;
    }
    crtrig_set_num_threads(1024);
    crtrig_test_require_all_workers(1);  /* every worker takes part, so each reports its stack */
    caller((void *)(size_t)CALLERS);
    crtrig_test_require_all_workers(0);
    crtrig_test_pool_details(&cap, &stack_size, &worker_stack, &exits);
    crtrig_test_pool_stats(&grown, &jobs, &shares);
    printf("after lowering to 1: workers %ld; at 1024 threads: workers %ld (cap %ld threads per call), "
           "stack %ld bytes asked, %ld reported, workers retired %ld\n",
           retired_to, grown, cap, stack_size, worker_stack, exits);
    if (grown != (cap < (N + 255) / 256 ? cap : (N + 255) / 256) - 1 || exits < workers) {
        fprintf(stderr, "the pool did not grow back to its cap, or fewer workers retired than ran\n");
        failures++;
    }
    crtrig_set_num_threads(1);
    if (crtrig_test_wait_for_pool_workers(0, 60000) != 0) {
        fprintf(stderr, "workers still running 60 s after the count was lowered to 1 again\n");
        failures++;
    }
    return failures == 0 && jobs > 0 ? 0 : 1;
}
