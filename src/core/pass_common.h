/* Pieces shared by the first passes (sincos_pass.h, window_pass.h), which
 * are compiled once per SIMD target: plain C99 the compiler can vectorize. */
#ifndef CRTRIG_PASS_COMMON_H
#define CRTRIG_PASS_COMMON_H

#include <math.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>
#include "fpformat.h"

/* Kernel names carry the target's suffix: CRTRIG_KERNEL(sincos_pass_float32)
 * is crtrig_sincos_pass_float32_avx2 when CRTRIG_SIMD_SUFFIX is avx2. */
#define CRTRIG_CAT_(a, b) crtrig_##a##_##b
#define CRTRIG_CAT(a, b) CRTRIG_CAT_(a, b)
#define CRTRIG_KERNEL(name) CRTRIG_CAT(name, CRTRIG_SIMD_SUFFIX)

/* SINPI_C[0..7] of sincospi.c: (-1)^k pi^(2k+1)/(2k+1)! rounded to double. */
static const double SINPI_ROW[8] = {
    0x1.921fb54442d18p+1, -0x1.4abbce625be53p+2, 0x1.466bc6775aae2p+1, -0x1.32d2cce62bd86p-1,
    0x1.50783487ee782p-4, -0x1.e3074fde8871fp-8, 0x1.e8f434d018d63p-12, -0x1.6fadb9f155744p-16,
};

static inline double bits_to_double(uint64_t b) { double d; memcpy(&d, &b, sizeof d); return d; }
static inline uint64_t double_to_bits(double d) { uint64_t b; memcpy(&b, &d, sizeof b); return b; }

/* sin(pi s) for |s| <= 1/2 + 2^-30 by the Taylor polynomial s P(s^2) of degree
 * 7 in s^2.  Relative error < 6.07e-12 + 36.6 u < 6.08e-12: truncation and
 * rounding, derived in sincos_array.c (s taken as exact). */
static inline double sinpi_half_turn(double s)
{
    double z = s * s;
    double q = SINPI_ROW[7];
    q = q * z + SINPI_ROW[6];
    q = q * z + SINPI_ROW[5];
    q = q * z + SINPI_ROW[4];
    q = q * z + SINPI_ROW[3];
    q = q * z + SINPI_ROW[2];
    q = q * z + SINPI_ROW[1];
    q = q * z + SINPI_ROW[0];
    return s * q;
}

/* A pass's value loop and its flags loop over n elements of SIZE bytes (UINT: their
 * bits), with the vectorization attribute ATTR: NAME computes every output and returns
 * the OR of the lanes' flags (of type FLAG); NAME##_flags computes the same lanes again
 * (the same operations: the same flags) and stores each flag, for the chunks where one
 * is set.  LANE_CALL is the lane's call, an expression in the input bits b that
 * returns the output bits and writes the flag into f (trigpi_pass.h, tan_pass.h). */
#define CRTRIG_PASS_LANE_LOOPS(ATTR, NAME, UINT, SIZE, FLAG, LANE_CALL)                    \
    ATTR static FLAG NAME(const char *in, char *out, size_t n)                           \
    {                                                                                    \
        FLAG any = 0;                                                                    \
        size_t i;                                                                        \
        for (i = 0; i < n; i++) {                                                        \
            UINT b, o;                                                                   \
            FLAG f;                                                                      \
            memcpy(&b, in + SIZE * i, sizeof b);                                         \
            o = LANE_CALL;                                                               \
            memcpy(out + SIZE * i, &o, sizeof o);                                        \
            any |= f;                                                                    \
        }                                                                                \
        return any;                                                                      \
    }                                                                                    \
    ATTR static void NAME##_flags(const char *in, size_t n, unsigned char *undecided)    \
    {                                                                                    \
        size_t i;                                                                        \
        for (i = 0; i < n; i++) {                                                        \
            UINT b;                                                                      \
            FLAG f;                                                                      \
            memcpy(&b, in + SIZE * i, sizeof b);                                         \
            (void)LANE_CALL;                                                             \
            undecided[i] = (unsigned char)f;                                             \
        }                                                                                \
    }

#endif
