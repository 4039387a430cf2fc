/* The first pass of the float32 sin/cos array kernel: one source, compiled
 * once per SIMD target (sincos_f32.c baseline, sincos_f32_avx2.c,
 * sincos_f32_avx512.c), each defining SINCOS_F32_FIRST_PASS to its own
 * suffixed name before including this file.  Plain C: the compiler
 * vectorizes the loop for the target; no FMA is enabled in any target, and
 * contraction is off, so every target computes the same roundings (and the
 * outputs are correctly rounded values anyway).  The error bound is derived in
 * sincos_f32.c. */
#include <math.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>

/* SINPI_C[0..7] of sincospi.c: (-1)^k pi^(2k+1)/(2k+1)! rounded to double. */
static const double SINPI_ROW[8] = {
    0x1.921fb54442d18p+1, -0x1.4abbce625be53p+2, 0x1.466bc6775aae2p+1, -0x1.32d2cce62bd86p-1,
    0x1.50783487ee782p-4, -0x1.e3074fde8871fp-8, 0x1.e8f434d018d63p-12, -0x1.6fadb9f155744p-16,
};
static const double TWO_OVER_PI_H28 = 0x1.45f306e000000p-1;  /* reduce.c */
static const double TWO_OVER_PI_L = -0x1.b1bbead603d8bp-32;

static inline double bits_to_double(uint64_t b) { double d; memcpy(&d, &b, sizeof d); return d; }
static inline uint64_t double_to_bits(double d) { uint64_t b; memcpy(&b, &d, sizeof b); return b; }

/* First pass over count <= BLOCK contiguous float32 inputs (in, maybe
 * unaligned) writing contiguous float32 results (out), and undecided[i] = 1
 * outside the range (|x| < 2^-120, |x| >= 2^24, inf, NaN), 2 where the two
 * roundings disagree, 0 when out[i] is final. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("tree-vectorize")))
#endif
void SINCOS_F32_FIRST_PASS(int func, const char *in, char *out, size_t count,
                           unsigned char *undecided)
{
    const double shifter = 0x1.8p52;
    size_t i;
    for (i = 0; i < count; i++) {
        uint32_t w;
        uint32_t inside;
        memcpy(&w, in + 4 * i, sizeof w);
        /* 2^-120 <= |x| < 2^24.  Zeros go to the second pass (the reduction would
         * lose the sign of -0), and so do tiny x: converting a tiny inexact y - e
         * to float32 would raise the underflow flag. */
        inside = (w & 0x7fffffffu) - 0x03800000u < 0x4b800000u - 0x03800000u;
        uint32_t w_inside = w & (0u - inside);      /* x = 0 outside: no flags */
        float xf, lo, hi;
        double x, v1, p, shifted, f, t, sa, z, q, y, e;
        uint64_t k, mask;
        memcpy(&xf, &w_inside, sizeof xf);
        x = (double)xf;
        v1 = x * TWO_OVER_PI_H28;
        p = x * TWO_OVER_PI_L;
        shifted = (v1 + p) + shifter;               /* low bits hold n (two's complement) */
        f = (v1 - (shifted - shifter)) + p;
        t = 0.5 * f;
        k = (double_to_bits(shifted) + (uint64_t)func) & 3u;
        mask = (uint64_t)0 - (k & 1u);             /* all ones for odd k */
        sa = bits_to_double((double_to_bits(t) & ~mask) |
                            (double_to_bits(0.5 - fabs(t)) & mask));
        z = sa * sa;
        q = SINPI_ROW[7];
        q = q * z + SINPI_ROW[6];
        q = q * z + SINPI_ROW[5];
        q = q * z + SINPI_ROW[4];
        q = q * z + SINPI_ROW[3];
        q = q * z + SINPI_ROW[2];
        q = q * z + SINPI_ROW[1];
        q = q * z + SINPI_ROW[0];
        y = sa * q;
        y = bits_to_double(double_to_bits(y) ^ ((k & 2u) << 62));  /* negate for k = 2, 3 */
        e = fabs(y) * 0x1p-37 + fabs(x) * 0x1p-82;
        lo = (float)(y - e);
        hi = (float)(y + e);
        memcpy(out + 4 * i, &lo, sizeof lo);
        undecided[i] = (unsigned char)((1u - inside) | ((uint32_t)(lo != hi) << 1));
    }
}

