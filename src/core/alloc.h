/* Memory for the core's scratch space (internal).
 *
 * Every allocation of the core goes through crtrig_alloc, so that a test hook
 * (crtrig_test_fail_allocation in crtrig.h) can make the k-th one fail and the
 * tests can prove that a failure is reported cleanly (CRTRIG_ENOMEM) with
 * nothing written.  The core allocates only the multi-precision workspace:
 * once per window fill, before anything is written, and at most once per
 * sin/cos call, when the first element needs the multi-precision stage.
 */
#ifndef CRTRIG_ALLOC_H
#define CRTRIG_ALLOC_H

#include <stddef.h>

/* malloc(bytes), or NULL (out of memory, or failed on purpose by the test hook). */
void *crtrig_alloc(size_t bytes);
void crtrig_free(void *p);

#endif
