/* sin(pi a/b) and cos(pi a/b) for integers 0 < a/b <= 1/4 (internal). */
#ifndef CRTRIG_SINCOSPI_H
#define CRTRIG_SINCOSPI_H

#include <stdint.h>
#include "dd.h"

/* Domain of both: 1 <= a, 4a <= b <= 2^54 (a and b are exact doubles).
 * use_cos selects cos(pi a/b) instead of sin(pi a/b). */

/* Double evaluation, relative error < 4.8 u = 2^-50.7 (derived in sincospi.c). */
double crtrig_sincospi_ratio_d(int use_cos, uint64_t a, uint64_t b);

/* Double-double evaluation, relative error < 3.7 * 2^-103 = 2^-101.1 (derived in sincospi.c). */
dd_t crtrig_sincospi_ratio_dd(int use_cos, uint64_t a, uint64_t b);

#endif
