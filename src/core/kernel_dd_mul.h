/* The double-double products of the per-target kernels (exp_pass.h, sinc_pass.h,
 * cosum_pass.h):
 * dd.h's dd_mul with kernel_dd.h's exact product kd_two_prod (one fma where the
 * target has it, Dekker's product as dd.h's otherwise).  Both give hi = RN(a.hi b.hi)
 * and lo = a.hi b.hi - hi exactly as long as no product falls below 2^-969 (Dekker's
 * partial products, or the fma's exact residual, would underflow there; each caller
 * states its magnitudes), so kd_dd_mul gives dd_mul's bits on every target, with
 * dd.h's bound: |err| <= 2^-103 |a b|. */
#ifndef CRTRIG_KERNEL_DD_MUL_H
#define CRTRIG_KERNEL_DD_MUL_H

#include "dd.h"
#include "kernel_dd.h"

KD_INLINE dd_t kd_dd_mul(dd_t a, dd_t b)
{
    kdd_t p = kd_two_prod(a.hi, b.hi);
    return dd_fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

/* dd.h's dd_mul_d likewise: the same bits, |err| <= 2^-103 |a d|. */
KD_INLINE dd_t kd_dd_mul_d(dd_t a, double d)
{
    kdd_t p = kd_two_prod(a.hi, d);
    return dd_fast_two_sum(p.hi, p.lo + a.lo * d);
}

#endif
