/* The core's allocation wrapper and its failure-injection test hook.  See alloc.h. */
#include <stdlib.h>
#include "crtrig/crtrig.h"
#include "alloc.h"

/* TEST-ONLY GLOBAL STATE.  The number of allocations still to succeed before
 * one fails on purpose, plus one; 0 (the default) means never fail.  Only
 * crtrig_test_fail_allocation sets it.  It is read and decremented atomically,
 * so allocations in several threads see a consistent countdown and exactly
 * one of them fails; in normal operation it stays 0 and costs one relaxed load. */
static long fail_countdown;

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static long load_countdown(void) { return _InterlockedOr(&fail_countdown, 0); }
static long exchange_countdown(long v) { return _InterlockedExchange(&fail_countdown, v); }
/* Decrement if positive; returns the value before. */
static long take_countdown(void)
{
    long seen = load_countdown();
    while (seen > 0) {
        long prev = _InterlockedCompareExchange(&fail_countdown, seen - 1, seen);
        if (prev == seen)
            return seen;
        seen = prev;
    }
    return seen;
}
#else
static long load_countdown(void) { return __atomic_load_n(&fail_countdown, __ATOMIC_RELAXED); }
static long exchange_countdown(long v) { return __atomic_exchange_n(&fail_countdown, v, __ATOMIC_SEQ_CST); }
static long take_countdown(void)
{
    long seen = __atomic_load_n(&fail_countdown, __ATOMIC_RELAXED);
    while (seen > 0 && !__atomic_compare_exchange_n(&fail_countdown, &seen, seen - 1, 0,
                                                     __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
    }
    return seen;
}
#endif

void *crtrig_alloc(size_t bytes)
{
    if (load_countdown() > 0 && take_countdown() == 1)
        return NULL;  /* the allocation the test hook asked to fail */
    return malloc(bytes);
}

void crtrig_free(void *p) { free(p); }

long crtrig_test_fail_allocation(long k)
{
    long before = exchange_countdown(k > 0 ? k : 0);
    return before;
}
