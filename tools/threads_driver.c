/* A C driver for the thread pool (tools/check_threads.sh runs it under
 * ThreadSanitizer, and as a Windows program under Wine when MinGW-w64 and
 * Wine are installed).
 *
 * Several application threads call sin/cos and window fills at once, through
 * the pool (threshold lowered to 256 elements, 4 threads) and inline when the
 * pool is busy, while the thread count changes; every result is compared with
 * a one-thread result computed first.  Exit status 0 when all match. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "crtrig/crtrig.h"

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
        if (id == 0)
            crtrig_set_num_threads(2 + round % 3);
    }
    free(out);
    free(window);
    free(window32);
    return NULL;
}

int main(void)
{
    pthread_t threads[CALLERS];
    long workers, jobs, shares;
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
    return failures == 0 && jobs > 0 ? 0 : 1;
}
