/* Storage and publication of the 16-bit sin/cos result tables.  See sincos_table16.h.
 *
 * The four table pointers are the only state here: written once each, by the first
 * compare-and-swap that finds them NULL, and never freed (the tables live as long as
 * the process, like the dispatch table).  The ufunc loops run without the GIL, in
 * any number of threads, so a table is built and published without a lock and
 * without waiting: every caller that finds a NULL pointer builds a complete table in
 * its own buffer (sincos_array.c) and offers it here; the first offer wins, the
 * others are freed.  Nobody ever waits for another thread, so there is no deadlock,
 * a failed build (out of memory) leaves the pointer NULL for a later call to retry,
 * and a process forked while another thread was building sees either NULL (and
 * builds its own) or a complete table.  The price is duplicate work when several
 * threads reach the first use at the same moment (each builds once, about a
 * millisecond; README gives the measured cost).
 *
 * Atomics: GCC/clang builtins (acquire loads, an acq_rel compare-and-swap); MSVC's
 * Interlocked functions (full barriers; the load is a compare-exchange with NULL);
 * C11 <stdatomic.h> elsewhere when the compiler has it.  Without any of these, no
 * table is ever published (crtrig_table16_supported() is 0) and the array kernel
 * computes every call. */
#include <stddef.h>
#include "crtrig/crtrig.h"
#include "alloc.h"
#include "sincos_table16.h"

#if defined(__GNUC__) || defined(__clang__)
#define TABLE16_ATOMICS 1
typedef uint16_t *table_ptr;
static table_ptr tables[2][2];  /* [is_bf16][func] */
static uint16_t *load_acquire(table_ptr *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static uint16_t *compare_swap(table_ptr *p, uint16_t *desired)
{
    uint16_t *expected = NULL;
    if (__atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return desired;
    return expected;
}
#elif defined(_MSC_VER)
#define TABLE16_ATOMICS 1
#include <windows.h>
typedef uint16_t *volatile table_ptr;
static table_ptr tables[2][2];
static uint16_t *load_acquire(table_ptr *p)
{
    return (uint16_t *)InterlockedCompareExchangePointer((PVOID volatile *)p, NULL, NULL);
}
static uint16_t *compare_swap(table_ptr *p, uint16_t *desired)
{
    uint16_t *previous = (uint16_t *)InterlockedCompareExchangePointer((PVOID volatile *)p, desired, NULL);
    return previous ? previous : desired;
}
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__STDC_NO_ATOMICS__)
#define TABLE16_ATOMICS 1
#include <stdatomic.h>
typedef _Atomic(uint16_t *) table_ptr;
static table_ptr tables[2][2];
static uint16_t *load_acquire(table_ptr *p) { return atomic_load_explicit(p, memory_order_acquire); }
static uint16_t *compare_swap(table_ptr *p, uint16_t *desired)
{
    uint16_t *expected = NULL;
    if (atomic_compare_exchange_strong_explicit(p, &expected, desired, memory_order_acq_rel,
                                                memory_order_acquire))
        return desired;
    return expected;
}
#else
#define TABLE16_ATOMICS 0
#endif

int crtrig_table16_supported(void) { return TABLE16_ATOMICS; }

int crtrig_test_table16_built(int func, int dtype)
{
    if ((func != 0 && func != 1) || (dtype != 0 && dtype != 1))
        return -1;
    return crtrig_table16_get(func, dtype == 1) != NULL;
}

#if TABLE16_ATOMICS
const uint16_t *crtrig_table16_get(int func, int is_bf16)
{
    return load_acquire(&tables[is_bf16 != 0][func != 0]);
}

const uint16_t *crtrig_table16_publish(int func, int is_bf16, uint16_t *candidate)
{
    uint16_t *winner = compare_swap(&tables[is_bf16 != 0][func != 0], candidate);
    if (winner != candidate)
        crtrig_free(candidate);
    return winner;
}
#else
const uint16_t *crtrig_table16_get(int func, int is_bf16)
{
    (void)func;
    (void)is_bf16;
    return NULL;
}

const uint16_t *crtrig_table16_publish(int func, int is_bf16, uint16_t *candidate)
{
    (void)func;
    (void)is_bf16;
    crtrig_free(candidate);
    return NULL;
}
#endif
