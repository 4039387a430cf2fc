/* The 16-bit sin/cos result tables (internal): for float16 and bfloat16, the
 * correctly rounded sin and cos of all 65,536 bit patterns, 128 KB per (function,
 * format), built at first use by the array kernel (sincos_array.c) and kept for
 * the life of the process.  This file only stores and publishes them, thread-safely
 * (see sincos_table16.c); it calls nothing. */
#ifndef CRTRIG_SINCOS_TABLE16_H
#define CRTRIG_SINCOS_TABLE16_H

#include <stdint.h>

enum { CRTRIG_TABLE16_SIZE = 1 << 16 };

/* The published table of func (0 sin, 1 cos) for bfloat16 (is_bf16) or float16,
 * or NULL while none is.  Acquire: its entries are all visible. */
const uint16_t *crtrig_table16_get(int func, int is_bf16);

/* Offer a filled table (CRTRIG_TABLE16_SIZE entries, from crtrig_alloc).  If none is
 * published yet, it becomes the table and is returned; otherwise the candidate is
 * freed and the published one returned (release, then acquire).  Never fails. */
const uint16_t *crtrig_table16_publish(int func, int is_bf16, uint16_t *candidate);

/* Whether this build can publish tables (atomic pointer operations available). */
int crtrig_table16_supported(void);

#endif
