/* Correctly rounded exp(-q) for the exp-based windows: the per-element work of
 * crtrig_exp_affine_fill (exp.c), one source compiled once per SIMD target
 * (simd_*.c define CRTRIG_KERNEL_FMA and CRTRIG_SIMD_SUFFIX first; dispatch.c
 * holds CRTRIG_KERNEL(exp_range) per target).  The double-double stage (range
 * reduction by ln2/2048 with two tables, a degree-7 polynomial), the power q = s
 * (|x| d)^P, the recurrences (P <= 2, and 3 <= P <= 6), the rounding tests, and for
 * general_gaussian's real powers (args P == 0) the double-double log (xp_log) and
 * the element q = exp(P ln y - ln 2), w = exp(-q) (xp_real_element).  Every bound below is
 * for the code as written, in round-to-nearest (the fill enters crtrig_fpenv
 * first), without contraction (-ffp-contract=off).  u = 2^-53.
 *
 * The double-double operations are dd.h's, except that the exact product inside
 * kd_dd_mul and kd_dd_mul_d (kernel_dd_mul.h) is kernel_dd.h's kd_two_prod (one fma where the target has
 * it, Dekker's product as dd.h's otherwise).  Both give hi = RN(a b) and lo = a b
 * - hi exactly as long as no product falls below 2^-969 (Dekker's partial
 * products, or the fma's exact residual, would underflow there), and the
 * magnitudes stated at each stage below keep every product used above that (the
 * same condition dd.h's product needed here before), so kd_dd_mul and kd_dd_mul_d give
 * the same bits as dd_mul and dd_mul_d, with dd.h's bound 2^-103, on every target:
 * the fill's values and the set of elements it leaves undecided do not depend on
 * the target.
 *
 * Tables and ln2 pieces: tools/gen_exp_tables.py (mpmath, 300 bits):
 *   EXP_T1[i] = 2^(i/64), EXP_T2[j] = 2^(j/2048) as hi + lo with hi = RN(x),
 *   lo = RN(x - hi): |x - hi - lo| <= u |x - hi| <= 2^-106 x.
 *   ln2/2048 = L1 + L2 + L3 + L4 with L1, L2 of 30 significant bits (so N L1 and
 *   N L2 are exact for |N| < 2^22), |L2| < 2^-41, |L3| < 2^-71, |L4| < 2^-127.
 */
#include <math.h>
#include <string.h>
#include <stdint.h>

#include "dd.h"
#include "exp.h"
#include "fpformat.h"
#include "kernel_dd.h"
#include "kernel_dd_mul.h"
#include "pass_common.h"

#ifndef CRTRIG_EXP_PASS_ONCE
#define CRTRIG_EXP_PASS_ONCE

/* kd_dd_mul and kd_dd_mul_d: kernel_dd_mul.h (dd_mul's and dd_mul_d's bits, above). */
static const double EXP_T1[64][2] = {
    {0x1.0000000000000p+0, 0x0.0p+0},
    {0x1.02c9a3e778061p+0, -0x1.19083535b085dp-56},
    {0x1.059b0d3158574p+0, 0x1.d73e2a475b465p-55},
    {0x1.0874518759bc8p+0, 0x1.186be4bb284ffp-57},
    {0x1.0b5586cf9890fp+0, 0x1.8a62e4adc610bp-54},
    {0x1.0e3ec32d3d1a2p+0, 0x1.03a1727c57b53p-59},
    {0x1.11301d0125b51p+0, -0x1.6c51039449b3ap-54},
    {0x1.1429aaea92de0p+0, -0x1.32fbf9af1369ep-54},
    {0x1.172b83c7d517bp+0, -0x1.19041b9d78a76p-55},
    {0x1.1a35beb6fcb75p+0, 0x1.e5b4c7b4968e4p-55},
    {0x1.1d4873168b9aap+0, 0x1.e016e00a2643cp-54},
    {0x1.2063b88628cd6p+0, 0x1.dc775814a8495p-55},
    {0x1.2387a6e756238p+0, 0x1.9b07eb6c70573p-54},
    {0x1.26b4565e27cddp+0, 0x1.2bd339940e9d9p-55},
    {0x1.29e9df51fdee1p+0, 0x1.612e8afad1255p-55},
    {0x1.2d285a6e4030bp+0, 0x1.0024754db41d5p-54},
    {0x1.306fe0a31b715p+0, 0x1.6f46ad23182e4p-55},
    {0x1.33c08b26416ffp+0, 0x1.32721843659a6p-54},
    {0x1.371a7373aa9cbp+0, -0x1.63aeabf42eae2p-54},
    {0x1.3a7db34e59ff7p+0, -0x1.5e436d661f5e3p-56},
    {0x1.3dea64c123422p+0, 0x1.ada0911f09ebcp-55},
    {0x1.4160a21f72e2ap+0, -0x1.ef3691c309278p-58},
    {0x1.44e086061892dp+0, 0x1.89b7a04ef80d0p-59},
    {0x1.486a2b5c13cd0p+0, 0x1.3c1a3b69062f0p-56},
    {0x1.4bfdad5362a27p+0, 0x1.d4397afec42e2p-56},
    {0x1.4f9b2769d2ca7p+0, -0x1.4b309d25957e3p-54},
    {0x1.5342b569d4f82p+0, -0x1.07abe1db13cadp-55},
    {0x1.56f4736b527dap+0, 0x1.9bb2c011d93adp-54},
    {0x1.5ab07dd485429p+0, 0x1.6324c054647adp-54},
    {0x1.5e76f15ad2148p+0, 0x1.ba6f93080e65ep-54},
    {0x1.6247eb03a5585p+0, -0x1.383c17e40b497p-54},
    {0x1.6623882552225p+0, -0x1.bb60987591c34p-54},
    {0x1.6a09e667f3bcdp+0, -0x1.bdd3413b26456p-54},
    {0x1.6dfb23c651a2fp+0, -0x1.bbe3a683c88abp-57},
    {0x1.71f75e8ec5f74p+0, -0x1.16e4786887a99p-55},
    {0x1.75feb564267c9p+0, -0x1.0245957316dd3p-54},
    {0x1.7a11473eb0187p+0, -0x1.41577ee04992fp-55},
    {0x1.7e2f336cf4e62p+0, 0x1.05d02ba15797ep-56},
    {0x1.82589994cce13p+0, -0x1.d4c1dd41532d8p-54},
    {0x1.868d99b4492edp+0, -0x1.fc6f89bd4f6bap-54},
    {0x1.8ace5422aa0dbp+0, 0x1.6e9f156864b27p-54},
    {0x1.8f1ae99157736p+0, 0x1.5cc13a2e3976cp-55},
    {0x1.93737b0cdc5e5p+0, -0x1.75fc781b57ebcp-57},
    {0x1.97d829fde4e50p+0, -0x1.d185b7c1b85d1p-54},
    {0x1.9c49182a3f090p+0, 0x1.c7c46b071f2bep-56},
    {0x1.a0c667b5de565p+0, -0x1.359495d1cd533p-54},
    {0x1.a5503b23e255dp+0, -0x1.d2f6edb8d41e1p-54},
    {0x1.a9e6b5579fdbfp+0, 0x1.0fac90ef7fd31p-54},
    {0x1.ae89f995ad3adp+0, 0x1.7a1cd345dcc81p-54},
    {0x1.b33a2b84f15fbp+0, -0x1.2805e3084d708p-57},
    {0x1.b7f76f2fb5e47p+0, -0x1.5584f7e54ac3bp-56},
    {0x1.bcc1e904bc1d2p+0, 0x1.23dd07a2d9e84p-55},
    {0x1.c199bdd85529cp+0, 0x1.11065895048ddp-55},
    {0x1.c67f12e57d14bp+0, 0x1.2884dff483cadp-54},
    {0x1.cb720dcef9069p+0, 0x1.503cbd1e949dbp-56},
    {0x1.d072d4a07897cp+0, -0x1.cbc3743797a9cp-54},
    {0x1.d5818dcfba487p+0, 0x1.2ed02d75b3707p-55},
    {0x1.da9e603db3285p+0, 0x1.c2300696db532p-54},
    {0x1.dfc97337b9b5fp+0, -0x1.1a5cd4f184b5cp-54},
    {0x1.e502ee78b3ff6p+0, 0x1.39e8980a9cc8fp-55},
    {0x1.ea4afa2a490dap+0, -0x1.e9c23179c2893p-54},
    {0x1.efa1bee615a27p+0, 0x1.dc7f486a4b6b0p-54},
    {0x1.f50765b6e4540p+0, 0x1.9d3e12dd8a18bp-54},
    {0x1.fa7c1819e90d8p+0, 0x1.74853f3a5931ep-55},
};
static const double EXP_T2[32][2] = {
    {0x1.0000000000000p+0, 0x0.0p+0},
    {0x1.00162f3904052p+0, -0x1.7b5d0d58ea8f4p-58},
    {0x1.002c605e2e8cfp+0, -0x1.d7c96f201bb2fp-55},
    {0x1.0042936faa3d8p+0, -0x1.0484245243777p-55},
    {0x1.0058c86da1c0ap+0, -0x1.5e00e62d6b30dp-56},
    {0x1.006eff583fc3dp+0, -0x1.4acf197a00142p-54},
    {0x1.0085382faef83p+0, 0x1.da93f90835f75p-56},
    {0x1.009b72f41a12bp+0, 0x1.86364f8fbe8f8p-54},
    {0x1.00b1afa5abcbfp+0, -0x1.4f6b2a7609f71p-55},
    {0x1.00c7ee448ee02p+0, 0x1.4362ca5bc26f1p-56},
    {0x1.00de2ed0ee0f5p+0, -0x1.406ac4e81a645p-57},
    {0x1.00f4714af41d3p+0, -0x1.91b2060859321p-54},
    {0x1.010ab5b2cbd11p+0, 0x1.c1d0660524e08p-54},
    {0x1.0120fc089ff63p+0, 0x1.843aa8b9cbbc6p-55},
    {0x1.0137444c9b5b5p+0, -0x1.2b6aeb6176892p-56},
    {0x1.014d8e7ee8d2fp+0, 0x1.2edc08e5da99ap-56},
    {0x1.0163da9fb3335p+0, 0x1.b61299ab8cdb7p-54},
    {0x1.017a28af25567p+0, 0x1.70fc41c5c2d53p-55},
    {0x1.019078ad6a19fp+0, -0x1.008eff5142bf9p-56},
    {0x1.01a6ca9aac5f3p+0, -0x1.09bb78eeead0ap-54},
    {0x1.01bd1e77170b4p+0, 0x1.5e7626621eb5bp-56},
    {0x1.01d37442d5070p+0, -0x1.ce39cbbab8bbep-57},
    {0x1.01e9cbfe113efp+0, -0x1.c11f5239bf535p-55},
    {0x1.020025a8f6a35p+0, -0x1.afb99946ee3f0p-54},
    {0x1.02168143b0281p+0, -0x1.2bf310fc54eb6p-55},
    {0x1.022cdece68c4fp+0, -0x1.491793e46834dp-54},
    {0x1.02433e494b755p+0, -0x1.314aa16278aa3p-54},
    {0x1.02599fb483385p+0, 0x1.56dc8046821f4p-55},
    {0x1.027003103b10ep+0, -0x1.082ef51b61d7ep-56},
    {0x1.0286685c9e059p+0, -0x1.fd4cf26ea5d0fp-54},
    {0x1.029ccf99d720ap+0, 0x1.64cbba902ca27p-58},
    {0x1.02b338c811703p+0, 0x1.4a47a505b3a47p-54},
};
#define EXP_L1 0x1.62e42fe800000p-12
#define EXP_L2 0x1.e8e7bcd000000p-42
#define EXP_L3 0x1.793c7673007e6p-72
/* |L4| = 3.4219e-39 (2^-127.78) */
#define EXP_INV 0x1.71547652b82fep+11


static inline double xp_pow2i(int k)  /* 2^k for -1022 <= k <= 1023, exact */
{
    uint64_t bits = (uint64_t)(k + 1023) << 52;
    double r;
    memcpy(&r, &bits, sizeof r);
    return r;
}

/* exp(y) = F 2^k for the double-double y = y_hi + y_lo, -747 <= y_hi <= 0,
 * |y_lo| <= u |y_hi|, with |F - exp(y) 2^-k| <= 2^-88.7 exp(y) 2^-k, F in [1/2, 2].
 *
 * Reduction.  t = RN(y_hi INV), INV = RN(2048/ln2); N = floor(t + 1/2) <= 0.
 * |y 2048/ln2 - N| <= 1/2 + |t - y_hi 2048/ln2| + |y_lo| 2048/ln2 + (rounding of
 * t + 1/2) <= 1/2 + 2^-30.9 + 2^-31.9 + 2^-32 < 1/2 + 2^-29.9 (|t| < 2^21.1), so
 * r = y - N ln2/2048 has |r| < 2^-12.5, and |N| <= 2^21.1 < 2^22.
 * r is formed as s = two_sum(y_hi, -N L1) (exact; N L1 exact), t2 = two_sum(s.hi,
 * -N L2) (exact), rlo = ((s.lo + y_lo) + t2.lo) - N L3, r = two_sum(t2.hi, rlo).
 * The partial sums of rlo are below 2^-43 (|y_lo| < 2^-43.4, |s.lo|, |t2.lo| <=
 * 2^-66, |N L3| < 2^-49), so its three sums add < 3 2^-97 and the product N L3 <
 * 2^-102; dropping N L4 adds < 2^-105: |r_computed - r| < 2^-95.3, a relative error
 * of exp(r) below 2^-95.2.
 *
 * exp(r) = 1 + r + r^2/2 + T(r), T(r) = sum_{m>=3} r^m/m!.  T is evaluated from
 * h = r.hi as h^3 c(h), c(h) = 1/6 + h/24 + h^2/120 + h^3/720 + h^4/5040 in double:
 *   truncation (m >= 8): |r|^8/8! (1.001) < 2^-115;
 *   h for r: |r.lo| <= u |h| < 2^-65.5, |T'| <= r^2/2 (1.01) < 2^-25.9: < 2^-91.4;
 *   rounding: the coefficients (1/6 relative u/2, the others far below ulp(1/6)
 *   after scaling by h), Horner's four steps (< 1.2 u relative on c), h h h c (3
 *   roundings): relative < 5 u on |T| < 2^-40.08: < 2^-90.8.
 * The rest in double-double: r2 = kd_dd_mul(r, r)/2 (2^-103 of 2^-26); u = dd_add_d(r2,
 * T) (|T| <= |r2| |h|/3: 2^-103 of 2^-25.9); v = dd_add(r, u) (|u| <= |r|/4: 2^-103
 * of 2^-12.4); E = dd_add_d(v, 1) (|v| <= 1/4: 2^-103 (1 + 2^-12.4)).  So |E -
 * exp(r)| < 2^-91.4 + 2^-90.8 + 2^-102.9 + ... < 2^-90.0, relative (E >= 1 - 2^-12.4)
 * < 2^-89.9.  F = kd_dd_mul(kd_dd_mul(E, T1[i]), T2[j]): two products (2^-103 each) and
 * the tables (2^-106 each): < 2^-101.  With the reduction, relative error <
 * 2^-89.9 + 2^-95.2 + 2^-101 < 2^-89.8 (all first order; the products of the
 * relative errors are below 2^-170).  We use 2^-88.7 (the stated bound). */
static dd_t xp_dd_scaled(double y_hi, double y_lo, int *k_out)
{
    double t = y_hi * EXP_INV;
    double nd = floor(t + 0.5);
    long N = (long)nd;
    long e = N + (1L << 23);  /* >= 2^23 - 2^21.1 > 0 */
    int k = (int)(e >> 11) - 4096, i = (int)((e >> 5) & 63), j = (int)(e & 31);
    dd_t s = dd_two_sum(y_hi, -(nd * EXP_L1));
    dd_t t2 = dd_two_sum(s.hi, -(nd * EXP_L2));
    double rlo = ((s.lo + y_lo) + t2.lo) - nd * EXP_L3;
    dd_t r = dd_two_sum(t2.hi, rlo);
    double h = r.hi;
    double c = 0x1.5555555555555p-3 + h * (0x1.5555555555555p-5 + h * (0x1.1111111111111p-7
               + h * (0x1.6c16c16c16c17p-10 + h * 0x1.a01a01a01a01ap-13)));
    double T = ((h * h) * h) * c;
    dd_t r2 = kd_dd_mul(r, r), E, F;
    r2.hi *= 0.5;
    r2.lo *= 0.5;
    E = dd_add_d(dd_add(r, dd_add_d(r2, T)), 1.0);
    F = kd_dd_mul(E, dd_make(EXP_T1[i][0], EXP_T1[i][1]));
    F = kd_dd_mul(F, dd_make(EXP_T2[j][0], EXP_T2[j][1]));
    *k_out = k;
    return F;
}

/* The argument q = s (|x| d)^P as a double-double (see exp.h), or a decision:
 * returns 0 with *q (and *q_hi > 0), or 1 when exp(-q) rounds to 1 in every format
 * (q == 0 exactly, or 0 < q < 2^-56: then 1 > exp(-q) > 1 - q > 1 - 2^-54, above the
 * midpoint below 1 of every format of <= 53 bits), or 2 when it rounds to +0 in
 * every format (q > 2^11 > 746: exp(-q) < 2^-1075).
 *
 * Error: D = d_hi + d_lo has |D - d| <= 2^-105 d; b = kd_dd_mul_d(D, |x|) adds
 * 2^-103: b = |x| d (1 + beta), |beta| <= 2^-102.7.  b^P by left-to-right binary
 * powering takes at most 2 floor(log2 P) <= 20 kd_dd_mul (2^-103 each): the computed
 * power is (|x| d)^P (1 + beta)^P (1 + gamma), |gamma| <= 20.01 2^-103, so
 * |q_computed/q - 1| <= (P + 21) 2^-102.7 (1.001) <= (3P + 4) 2^-101 / 1.03 for
 * every P >= 1 (the stated eps_q).  For P > 64 the power is carried as a mantissa
 * in [1/4, 1) and a binary exponent (renormalised by exact powers of two), so
 * nothing overflows or underflows whatever P.  For P <= 64 the prechecks below
 * (P (eb - 1) <= 12 and P eb >= -56 when they pass) keep b in [2^(-56/P - 1),
 * 2^(12/P + 1)) and b^P in [2^(-56 - P), 2^(12 + P)): every power b^j, j <= P, lies
 * between b and b^P, inside [2^-120, 2^76], where kd_dd_mul's bound holds.
 * Prechecks with b.hi = m 2^eb, m in [1/2, 1): b in [2^(eb-1), 2^eb) (1 +- 2^-100). */
static int xp_argument(double ax, dd_t D, double s, int P, dd_t *q)
{
    dd_t b;
    int eb;
    if (ax == 0.0)
        return 1;
    b = kd_dd_mul_d(D, ax);
    (void)frexp(b.hi, &eb);
    if (P <= 64) {
        if ((long)P * (eb - 1) > 12)   /* q >= s 2^13 (1 - 2^-90) >= 2^11 */
            return 2;
        if ((long)P * eb < -56)        /* q <= 2^-57 (1 + 2^-90) */
            return 1;
        if (P <= 2) {
            *q = P == 1 ? b : kd_dd_mul(b, b);
        } else {
            /* Left-to-right binary powering: at most 2 floor(log2 64) = 12 kd_dd_mul. */
            dd_t m = b;
            int bit = 6;
            while (!((P >> bit) & 1))
                bit--;
            for (bit--; bit >= 0; bit--) {
                m = kd_dd_mul(m, m);
                if ((P >> bit) & 1)
                    m = kd_dd_mul(m, b);
            }
            *q = m;
        }
    } else {
        /* m 2^E = b^P with m = b.hi's mantissa renormalised after each product. */
        dd_t m = dd_make(ldexp(b.hi, -eb), ldexp(b.lo, -eb)), base = m;
        long E = eb, base_e = eb;
        int bit = 30, ex;
        while (!((P >> bit) & 1))
            bit--;
        for (bit--; bit >= 0; bit--) {
            m = kd_dd_mul(m, m);
            E *= 2;
            if ((P >> bit) & 1) {
                m = kd_dd_mul(m, base);
                E += base_e;
            }
            (void)frexp(m.hi, &ex);  /* m in [1/8, 1): ex in {-2, -1, 0} */
            m.hi = ldexp(m.hi, -ex);
            m.lo = ldexp(m.lo, -ex);
            E += ex;
            if (E > 1L << 20 || E < -(1L << 20))  /* decided below whatever the rest */
                break;
        }
        /* Without the break m in [1/2, 1); after one (E beyond +-2^20, so every
         * later step keeps |E| >= 2^19: E doubles and adds at most 2 in size)
         * the decision stands. */
        if (E > 14)    /* q >= (1/2)(1/2) 2^15 (1 - 2^-90) > 2^11 */
            return 2;
        if (E < -56)   /* q < 2^-56 */
            return 1;
        *q = dd_make(ldexp(m.hi, (int)E), ldexp(m.lo, (int)E));
    }
    q->hi *= s;  /* s in {1/2, 1}: exact */
    q->lo *= s;
    return 0;
}

/* Quick float64 test: y = hi + lo with hi = RN(hi + lo), |hi| >= 2^-968, |y - exact|
 * <= e.  The rounding boundaries next to hi are hi +- ulp(hi)/2, or, when hi is a
 * power of two, hi - ulp/4 below (and hi + ulp/2 above): with g = ulp/2 (ulp/4 for a
 * power of two), |lo| + e < g puts the exact value strictly between them: it rounds
 * to hi (not a tie: strict).  RN(|lo| + 1.5 e) < g implies it, as e >= 2^-52 |lo|
 * here (e >= 2^-88 |hi| at every call and |lo| <= 2^-53 |hi|). */
static int xp_quick_decide64(dd_t y, double e, double *result)
{
    uint64_t bits, field;
    double g;
    memcpy(&bits, &y.hi, sizeof bits);
    field = (bits >> 52) & 0x7ff;  /* >= 55 */
    field -= (bits & 0xfffffffffffffu) == 0 ? 54 : 53;
    field <<= 52;
    memcpy(&g, &field, sizeof g);
    if (fabs(y.lo) + 1.5 * e < g) {
        *result = y.hi;
        return 1;
    }
    return 0;
}

/* float64 rounding of v = F 2^k (F in [1/2, 2] with |F - exact 2^-k| <= e):
 *  - k >= -1020: v and its rounding are normal (v >= 2^-1021 (1 - 2^-88)), and
 *    rounding to 53 bits commutes with the exact scaling by 2^k: decide on F.
 *  - else V = F 2^(k + 1074) (exact: k + 1074 >= -3, V normal with its lo part) is
 *    v in units of the smallest subnormal.  V.hi >= 2^52: v >= 2^-1022, normal: as
 *    above (the result r in [1/2, 2] scaled by 2^(k + 60), then 2^-60: both exact as
 *    r 2^k is normal).  V.hi < 2^52: the result is the nearest integer to V times
 *    2^-1074 (subnormal, 0 or 2^-1022: exact).  With n0 = floor(V.hi), frac = (V.hi
 *    - n0) + V.lo (the subtraction exact, the sum rounded: 2^-53 at most, as |frac| <
 *    2): decided when frac +- (e 2^(k+1074) + 2^-52) is on one side of 1/2 (never
 *    a tie: v is irrational). */
static int xp_decide_float64(dd_t F, int k, double e, double *result)
{
    double r;
    if (k >= -1020) {
        if (!xp_quick_decide64(F, e, &r) && !crtrig_decide_dd(F, e, CRTRIG_FLOAT64, &r))
            return 0;
        *result = r * xp_pow2i(k);
        return 1;
    } else {
        double sc = xp_pow2i(k + 1074), n0, frac, eV;
        dd_t V = dd_make(F.hi * sc, F.lo * sc);
        if (V.hi >= 0x1p52) {
            if (!xp_quick_decide64(F, e, &r) && !crtrig_decide_dd(F, e, CRTRIG_FLOAT64, &r))
                return 0;
            *result = (r * xp_pow2i(k + 60)) * 0x1p-60;
            return 1;
        }
        n0 = floor(V.hi);
        frac = (V.hi - n0) + V.lo;
        eV = e * sc + 0x1p-52;
        if (frac - eV > 0.5)
            n0 += 1.0;
        else if (!(frac + eV < 0.5))
            return 0;
        *result = n0 * 0x1p-1074;
        return 1;
    }
}

/* One element: 1 and *result when decided, 0 when the exact fallback must. */
static int xp_element(double ax, dd_t D, double s, int P, crtrig_dtype fmt, double zero_above,
                       double *result)
{
    dd_t q, F;
    int k, how = xp_argument(ax, D, s, P, &q);
    double scale, e;
    if (how == 1) {
        *result = 1.0;
        return 1;
    }
    if (how == 2 || q.hi > zero_above) {
        *result = 0.0;
        return 1;
    }
    /* q.hi <= zero_above <= 745.2 here: within xp_dd_scaled's domain. */
    F = xp_dd_scaled(-q.hi, -q.lo, &k);
    /* |F 2^k - exp(-q)| <= |F| 2^k (2^-88.7 + 1.03 q eps_q) with eps_q <= (3P + 4)
     * 2^-101 / 1.03 (xp_argument), as exp(-q(1 + eps)) = exp(-q)(1 + delta),
     * |delta| <= 1.0001 q |eps| (q |eps| < 2^-75).  e below bounds |F - exp(-q) 2^-k|
     * with a factor 3 (2^-87 / 2^-88.7) left for |F.hi| vs |F|, the rounding of e,
     * and the 2^-103 (|y| + e) of crtrig_decide_dd's ends. */
    e = F.hi * (0x1p-87 + q.hi * (double)(3 * P + 4) * 0x1p-101);
    if (fmt == CRTRIG_FLOAT64)
        return xp_decide_float64(F, k, e, result);
    /* A narrower format: q <= 104.1, so k >= -152 and 2^k F stays normal with its
     * lo part (>= 2^-270): the scaling is exact; decide at the true magnitude (the
     * format's subnormals are doubles). */
    scale = xp_pow2i(k);
    F.hi *= scale;
    F.lo *= scale;
    return crtrig_decide_dd(F, e * scale, fmt, result);
}

/* exp(-q) for q = s (|x| d)^P, P <= 2, in double-double at its true magnitude, and
 * whether it can be used there: 0 when q > limit (the caller computes otherwise).
 * Relative error <= eps_f = 2^-88: xp_dd_scaled's 2^-88.7 plus 1.03 q eps_q with
 * q <= 745.2 and eps_q <= 2^-101.2 for every argument xp_block_lanes forms (one
 * kd_dd_mul_d of D: 2^-105 + 2^-103 <= 2^-102.7; two of them and a kd_dd_mul, as in
 * (d a)^2, (d h)^2 and (d h)(d (2a + h)): 2 2^-102.7 + 2^-103 < 2^-101.2; the
 * scalings by s and 2 are exact): 745.2 1.03 2^-101.2 < 2^-91.5, and 2^-88.7 +
 * 2^-91.5 < 2^-88.5.  The scaling by 2^k is exact: q <= 620 gives k >=
 * -896, the value and its lo part normal. */
static int xp_fresh_exp(dd_t q, double limit, dd_t *w)
{
    int k;
    double scale;
    if (!(q.hi <= limit))
        return 0;
    *w = xp_dd_scaled(-q.hi, -q.lo, &k);
    scale = xp_pow2i(k);
    w->hi *= scale;
    w->lo *= scale;
    return 1;
}

/* The lanes' recurrence (xp_block_lanes): a block of n elements whose |x| are the
 * integers a + j h (j = 0 .. n-1) as XP_LANES interleaved chains, element j = l + L m
 * in lane l = j mod L at step m = j div L (L = XP_LANES), so that each step is L
 * independent double-double products (vectorised on the SIMD targets), not one chain
 * of dependent ones.  With A = d a, H = d h and q(j) = s (A + j H)^P:
 *   P = 2: q(j + L) - q(j) = s L H (2A + (2j + L) H), so in each lane
 *          w_l(m + 1) = w_l(m) R_l(m), R_l(m) = exp(-(q(j + L) - q(j))),
 *          R_l(m + 1) = R_l(m) GL, GL = exp(-2 s L^2 H^2); across the lanes
 *          R_{l+1}(0) = R_l(0) gL, gL = exp(-2 s L H^2); and the lanes' first values
 *          w(l), l < L, by one chain: w(l + 1) = w(l) rho(l), rho(l + 1) =
 *          rho(l) G1, G1 = exp(-2 s H^2), rho(0) = exp(-s H (2A + H)).
 *   P = 1: the same with rho(l) = rho1 = exp(-s H), R_l(m) = RL = exp(-s L H) for all
 *          l and m, G1 = gL = GL = 1 (kd_dd_mul by 1 + 0 is exact).
 * G1, gL, GL, rho1 and RL depend on H alone: xp_lane_steps forms them once per
 * kernel call (the same values in every call: the bits do not depend on the split).
 * Per block, w(0) (P = 2 also rho(0) and R_0(0) = exp(-s L H (2A + L H))) are fresh.
 *
 * Bound.  eps_f = 2^-88 for every fresh value (xp_fresh_exp: its arguments are formed
 * as there, (d h)(d (2a + h)), (d L h)(d (2a + L h)) and 2 s L^k (d h)^2 with two
 * kd_dd_mul_d and one kd_dd_mul and exact scalings by s, 2 and L^k), delta = 2^-103
 * (one kd_dd_mul), eps = eps_f + delta; by induction, first order (the products of
 * the error terms are below 2^-150 relatively).  P = 2: rel(rho(l)) <= eps_f + l eps
 * and rel(w(l)) <= eps_f + sum_{i<l} (rel(rho(i)) + delta) <= (1 + l + l^2/2) eps;
 * rel(R_l(0)) <= eps_f + l eps <= (1 + l) eps;
 * rel(R_l(m)) <= (1 + l + m) eps; rel(w_l(m)) <= rel(w(l)) + sum_{i<m} (rel(R_l(i)) +
 * delta) <= (1 + l + l^2/2 + m (2 + l) + m (m - 1)/2) eps =: B(l, m) eps.  P = 1:
 * rel(w_l(m)) <= (1 + l + m) eps <= B(l, m) eps.  e = w.hi B(l, m) 2^-87.4 covers
 * that with room (2^-87.4 / (2^-88 + 2^-103) > 1.5) for |w.hi| vs |w|, e's own
 * rounding and the 2^-103 (|y| + e) of crtrig_decide_dd.  n <= EXP_BLOCK = 256: B <= 1 + 7 + 24.5 + 31 (9) + 465
 * = 776.5 (e below 2^-77.7 relatively).
 *
 * Magnitudes: the caller has checked that q(n - 1) <= limit (620 for float64,
 * zero_above otherwise) and n >= 2L: every recorded w_l(m) and every factor of the
 * products that form it (w(l), rho(l) for l < L, R_l(i) for i < m: each exp(-v) with
 * 0 <= v <= q(j) for a recorded j, including R_l(0) <= q(l + L) with l + L < 2L <= n)
 * is >= exp(-620) > 2^-895, so those products are exact (above 2^-969).  The steps
 * past the end (the lanes with j >= n in the last step, and their R) feed no
 * recorded value.  a, h integers below 2^25, so a + jh, 2a + h and 2a + Lh are
 * exact; d h >= 2^-300: no argument underflows (a = 0 gives q(0) = 0, w(0) = 1). */
enum { XP_LANES = 8 };

typedef struct xp_lane_steps {
    dd_t G1, gL, GL, rho1, RL;
    int ok;  /* 0: some argument above limit (then the elements go one by one) */
} xp_lane_steps;

static xp_lane_steps xp_lane_steps_of(dd_t D, double h, double s, int P, double limit)
{
    xp_lane_steps k;
    dd_t dh = kd_dd_mul_d(D, h), one = dd_make(1.0, 0.0), sq;
    k.ok = 0;
    k.G1 = k.gL = k.GL = k.rho1 = k.RL = one;
    if (P == 1) {
        dd_t a1 = dd_make(s * dh.hi, s * dh.lo), aL = dd_make(s * XP_LANES * dh.hi, s * XP_LANES * dh.lo);
        k.ok = xp_fresh_exp(a1, limit, &k.rho1) && xp_fresh_exp(aL, limit, &k.RL);
        return k;
    }
    sq = kd_dd_mul(dh, dh);
    {
        double c1 = 2.0 * s, cL = 2.0 * s * XP_LANES, cLL = 2.0 * s * XP_LANES * XP_LANES;  /* exact */
        k.ok = xp_fresh_exp(dd_make(c1 * sq.hi, c1 * sq.lo), limit, &k.G1) &&
               xp_fresh_exp(dd_make(cL * sq.hi, cL * sq.lo), limit, &k.gL) &&
               xp_fresh_exp(dd_make(cLL * sq.hi, cLL * sq.lo), limit, &k.GL);
    }
    return k;
}

static size_t xp_block_lanes(double a, double h, int n, dd_t D, double s, int P, const xp_lane_steps *k,
                             crtrig_dtype fmt, double limit, double *out, unsigned char *undecided,
                             ptrdiff_t first, int dir)
{
    double wh[XP_LANES], wl[XP_LANES], Rh[XP_LANES], Rl[XP_LANES], e[XP_LANES], g[XP_LANES];
    int quick[XP_LANES], all_quick;
    dd_t w, rho, R;
    size_t missing = 0;
    int l, m;
    if (P == 1) {
        dd_t q = kd_dd_mul_d(D, a);
        q.hi *= s;
        q.lo *= s;
        if (!xp_fresh_exp(q, limit, &w))
            return (size_t)-1;
        rho = k->rho1;
        R = k->RL;
    } else {
        dd_t A = kd_dd_mul_d(D, a), q = kd_dd_mul(A, A);
        dd_t r1 = kd_dd_mul(kd_dd_mul_d(D, h), kd_dd_mul_d(D, 2.0 * a + h));
        dd_t rL = kd_dd_mul(kd_dd_mul_d(D, XP_LANES * h), kd_dd_mul_d(D, 2.0 * a + XP_LANES * h));
        q = dd_make(s * q.hi, s * q.lo);
        r1 = dd_make(s * r1.hi, s * r1.lo);
        rL = dd_make(s * rL.hi, s * rL.lo);
        if (!xp_fresh_exp(q, limit, &w) || !xp_fresh_exp(r1, limit, &rho) || !xp_fresh_exp(rL, limit, &R))
            return (size_t)-1;
    }
    for (l = 0; l < XP_LANES; l++) {
        wh[l] = w.hi;
        wl[l] = w.lo;
        Rh[l] = R.hi;
        Rl[l] = R.lo;
        w = kd_dd_mul(w, rho);
        rho = kd_dd_mul(rho, k->G1);
        R = kd_dd_mul(R, k->gL);
    }
    for (m = 0; m * XP_LANES < n; m++) {
        const double Bm = 0.5 * (double)m * (double)(m - 1);  /* exact: m < 2^10 */
        const dd_t GL = k->GL;
        for (l = 0; l < XP_LANES; l++) {
            /* B(l, m) exact (small halves); g: xp_quick_decide64's boundary distance. */
            double B = ((1.0 + (double)l + 0.5 * (double)l * (double)l) + (double)m * (2.0 + (double)l)) + Bm;
            uint64_t bits, field;
            e[l] = wh[l] * B * 0x1.8p-88;
            memcpy(&bits, &wh[l], sizeof bits);
            field = (bits >> 52) & 0x7ff;
            field -= (bits & 0xfffffffffffffu) == 0 ? 54 : 53;
            field <<= 52;
            memcpy(&g[l], &field, sizeof field);
            quick[l] = fabs(wl[l]) + 1.5 * e[l] < g[l];
        }
        all_quick = 1;
        for (l = 0; l < XP_LANES; l++)
            all_quick &= quick[l];
        if (fmt == CRTRIG_FLOAT64 && all_quick && (m + 1) * XP_LANES <= n) {
            /* The common case: all L decided by the quick test, stored at once. */
            if (dir > 0) {
                double *o = out + first + m * XP_LANES;
                unsigned char *u = undecided + first + m * XP_LANES;
                for (l = 0; l < XP_LANES; l++) {
                    o[l] = wh[l];
                    u[l] = 0;
                }
            } else {  /* lane l at first - m L - l: the L values reversed, from the lowest address */
                double *o = out + first - (m * XP_LANES + XP_LANES - 1);
                unsigned char *u = undecided + first - (m * XP_LANES + XP_LANES - 1);
                for (l = 0; l < XP_LANES; l++) {
                    o[l] = wh[XP_LANES - 1 - l];
                    u[l] = 0;
                }
            }
        } else for (l = 0; l < XP_LANES && m * XP_LANES + l < n; l++) {
            ptrdiff_t i = first + (ptrdiff_t)dir * (m * XP_LANES + l);
            if (fmt == CRTRIG_FLOAT64 && quick[l]) {
                out[i] = wh[l];  /* xp_quick_decide64's test (its derivation: |w.hi| >= 2^-968) */
                undecided[i] = 0;
            } else {
                double r;
                int decided = crtrig_decide_dd(dd_make(wh[l], wl[l]), e[l], fmt, &r);
                missing += crtrig_record_element(&out[i], &undecided[i], decided, &r);
            }
        }
        for (l = 0; l < XP_LANES; l++) {
            dd_t wv = kd_dd_mul(dd_make(wh[l], wl[l]), dd_make(Rh[l], Rl[l]));
            dd_t Rv = kd_dd_mul(dd_make(Rh[l], Rl[l]), GL);
            wh[l] = wv.hi;
            wl[l] = wv.lo;
            Rh[l] = Rv.hi;
            Rl[l] = Rv.lo;
        }
    }
    return missing;
}

/* The recurrence for 3 <= P <= XP_REC_MAX: the block length (XP_REC_N[P]) keeps
 * S_P(n - 1) = sum_{m <= P} C(n - 1, m), the growth of the error bound below, at
 * most 2^12.3 (P = 3: n = 32, S = 4992; 4: 20, 5036; 5: 16, 4944).
 * XP_KS[m][k] = k! S(m, k) (S: Stirling numbers of the second kind), 1 <= k <= m
 * <= XP_REC_MAX: the k-th forward difference of j^m at j = 0. */
enum { XP_REC_MAX = 6 };
static const int XP_REC_N[XP_REC_MAX + 1] = {0, 0, 0, 32, 20, 16, 14};
static const double XP_KS[XP_REC_MAX + 1][XP_REC_MAX + 1] = {
    {0, 0, 0, 0, 0, 0, 0},
    {0, 1, 0, 0, 0, 0, 0},
    {0, 1, 2, 0, 0, 0, 0},
    {0, 1, 6, 6, 0, 0, 0},
    {0, 1, 14, 36, 24, 0, 0},
    {0, 1, 30, 150, 240, 120, 0},
    {0, 1, 62, 540, 1560, 1800, 720},
};

/* A block of n <= XP_REC_N[P] elements whose |x| are a, a + h, ..., a + (n-1) h
 * (increasing, written at out[first + dir j], j = 0 .. n-1), 3 <= P <= XP_REC_MAX,
 * by P nested product recurrences.  With A = d a, H = d h, q(j) = s (A + j H)^P and
 * v_k(j) = Delta^k q(j) (forward differences in j, k = 0 .. P; v_P = s P! H^P is
 * constant), q(j + 1) = q(j) + v_1(j) and v_k(j + 1) = v_k(j) + v_{k+1}(j), so the
 * values rho_k(j) = exp(-v_k(j)) satisfy rho_k(j + 1) = rho_k(j) rho_{k+1}(j) and
 * w_j = rho_0(j).  Every v_k(j) >= 0: (A + j H)^P is a polynomial in j with
 * non-negative coefficients (A, H >= 0), and so are its differences; hence also
 * v_k(j) <= v_{k-1}(j + 1) <= ... <= q(j + k).
 *
 * Start values: v_k(0) = s sum_{m=k}^{P} C(P, m) k! S(m, k) A^(P-m) H^m (expand
 * (A + jH)^P in powers of j; Delta^k j^m at 0 is k! S(m, k)): a sum of non-negative
 * terms, no cancellation.  A = kd_dd_mul_d(D, a), H = kd_dd_mul_d(D, h): relative 2^-105
 * (D) + 2^-103 <= 2^-102.67 each; A^i, H^i by repeated kd_dd_mul, the product of the
 * two powers, the exact integer coefficient (< 2^16) by kd_dd_mul_d: at most P
 * operations of 2^-103 on P factors of 2^-102.67, so each term is within P
 * (2^-102.67 + 2^-103) relatively; the at most P terms summed by P - 1 dd_add of
 * non-negative values (2^-103 of the sum each); s exact.  eps_v <= P 2^-102.67 +
 * (2P - 1) 2^-103 <= 2^-98.79 (P = 6).  Each rho_k(0) is fresh (xp_fresh_exp: its
 * argument v_k(0) <= q(P) <= limit <= 620 for float64 (the caller's check below),
 * xp_dd_scaled's 2^-88.7 plus 1.03 v eps_v <= 1.03 (620) 2^-98.79): relative
 * error <= eps_f = 2^-88.03.  (For the other formats limit is zero_above <= 104.1:
 * smaller.)
 *
 * Propagation: with delta = 2^-103 (one kd_dd_mul) and eps = eps_f + delta, by
 * induction on j (first order) rel(rho_k(j)) <= eps S_{P-k}(j) - delta, S_r(j) =
 * sum_{m <= r} C(j, m): true at j = 0 (eps_f) and for k = P (constant, eps_f);
 * rel(rho_k(j + 1)) <= (eps S_{P-k}(j) - delta) + (eps S_{P-k-1}(j) - delta) + delta
 * = eps S_{P-k}(j + 1) - delta (Pascal's rule).  So rel(w_J) <= eps S_P(J), S_P(J)
 * <= 2^12.3 within a block; the second-order terms (products of relative errors
 * below 2^-75 each, at most P (n - 1) steps) add below 2^-130 relatively.
 * e = w.hi S_P(J) 2^-87 covers that with room (2^-87 / (2^-88.03 + 2^-103) > 2.04)
 * for |w.hi| vs |w|, e's own rounding and the 2^-103 (|y| + e) of crtrig_decide_dd.
 *
 * Magnitudes (the caller's checks): q at a + (n + P) h is at most limit, so every
 * rho_k(j) computed (j <= n - 1: v_k(j) <= q(n - 1 + k)) and every start value is
 * >= exp(-620) > 2^-895, and the products stay above 2^-969 (exact).  A = 0 or A >=
 * 2^-100, H >= 2^-100, and A + (n + P) H <= (2 limit)^(1/P) (1 + 2^-40) < 2^4 for P
 * >= 3: every power and product of the start values is 0 (A = 0: exactly) or in
 * [2^-600, 2^24], their Dekker pieces above 2^-710.  a, h < 2^25: exact. */
static size_t xp_block_power(double a, double h, int n, dd_t D, double s, int P, crtrig_dtype fmt,
                             double limit, double *out, unsigned char *undecided, ptrdiff_t first,
                             int dir)
{
    dd_t A = kd_dd_mul_d(D, a), H = kd_dd_mul_d(D, h), Ap[XP_REC_MAX + 1], Hp[XP_REC_MAX + 1];
    dd_t rho[XP_REC_MAX + 1];
    double binom_P[XP_REC_MAX + 1], cj[XP_REC_MAX + 1];
    size_t missing = 0;
    int j, k, m;
    Ap[0] = Hp[0] = dd_make(1.0, 0.0);
    binom_P[0] = 1.0;
    for (m = 1; m <= P; m++) {
        Ap[m] = m == 1 ? A : kd_dd_mul(Ap[m - 1], A);
        Hp[m] = m == 1 ? H : kd_dd_mul(Hp[m - 1], H);
        binom_P[m] = binom_P[m - 1] * (double)(P - m + 1) / (double)m;  /* exact integers */
    }
    for (k = 0; k <= P; k++) {
        dd_t v = dd_make(0.0, 0.0);
        for (m = k > 0 ? k : 0; m <= P; m++) {
            double coef = binom_P[m] * (k == 0 ? (m == 0 ? 1.0 : 0.0) : XP_KS[m][k]);
            dd_t t;
            if (coef == 0.0)
                continue;  /* k = 0: only the m = 0 term, A^P */
            t = m == 0 ? Ap[P] : m == P ? Hp[P] : kd_dd_mul(Ap[P - m], Hp[m]);
            if (coef != 1.0)
                t = kd_dd_mul_d(t, coef);
            v = v.hi == 0.0 ? t : dd_add(v, t);
        }
        v.hi *= s;
        v.lo *= s;
        if (!xp_fresh_exp(v, limit, &rho[k]))
            return (size_t)-1;  /* not expected (the caller's checks); the caller goes direct */
    }
    for (m = 0; m <= P; m++)
        cj[m] = m == 0 ? 1.0 : 0.0;  /* C(j, m) at j = 0 */
    for (j = 0; j < n; j++) {
        double r, S = 0.0, e;
        ptrdiff_t i = first + (ptrdiff_t)dir * j;
        for (m = 0; m <= P; m++)
            S += cj[m];  /* S_P(j), an exact integer (< 2^13) */
        e = rho[0].hi * S * 0x1p-87;
        int decided = (fmt == CRTRIG_FLOAT64 && xp_quick_decide64(rho[0], e, &r)) ||
                      crtrig_decide_dd(rho[0], e, fmt, &r);
        missing += crtrig_record_element(&out[i], &undecided[i], decided, &r);
        if (j + 1 == n)
            break;
        for (k = 0; k < P; k++)
            rho[k] = kd_dd_mul(rho[k], rho[k + 1]);
        for (m = P; m >= 1; m--)
            cj[m] += cj[m - 1];  /* C(j + 1, m) = C(j, m) + C(j, m - 1) */
    }
    return missing;
}

/* The elements [i0, i1) one by one (xp_element), those whose exp(-q) is certainly
 * below half the smallest subnormal written as 0 first, without the double-double
 * work: for P <= XP_REC_MAX, est = s (D.hi |x|)^P in double is q (1 + theta) with
 * |theta| <= (2P + 1) 2^-53 (1.001) < 2^-49 (D.hi within 2^-53 (1 + 2^-52) of d, P
 * factors; P + 1 roundings of products), so est > zero_above (1 + 2^-48) gives q >
 * zero_above: the element xp_element decides 0 (its q.hi, within 2^-100 of q, is
 * above zero_above too), the same value. */
static size_t xp_direct(const crtrig_exp_args *c, dd_t D, size_t i0, size_t i1)
{
    const double zero_est = c->zero_above * (1.0 + 0x1p-48);
    size_t i, missing = 0;
    for (i = i0; i < i1; i++) {
        double x = c->x0 + (double)i * c->step, r;
        int decided;
        if (c->P <= XP_REC_MAX) {
            double t = D.hi * fabs(x), est = c->s;
            int k;
            for (k = 0; k < c->P; k++)
                est *= t;
            if (est > zero_est) {
                c->out[i] = 0.0;
                c->undecided[i] = 0;
                continue;
            }
        }
        decided = xp_element(fabs(x), D, c->s, c->P, c->fmt, c->zero_above, &r);
        missing += crtrig_record_element(&c->out[i], &c->undecided[i], decided, &r);
    }
    return missing;
}

/* The elements [b, b + n) for 3 <= P <= XP_REC_MAX: sub-blocks of XP_REC_N[P]
 * from b (b a multiple of EXP_BLOCK: the same sub-blocks however the pool splits),
 * each by xp_block_power where its checks pass, else one by one.  The checks: |x|
 * monotone inside (no sign change), a, h < 2^25 (exact, and their sums below),
 * d h >= 2^-100, d a = 0 or >= 2^-100 (estimated from D.hi with a margin 2^-40
 * > its relative error 2^-52), and q at a + (n + P) h, estimated in double as s (D.hi
 * (a + (n + P) h))^P (relative error < (P + 2) 2^-53 < 2^-50), at most limit
 * (1 - 2^-40), so that the exact q there is at most limit. */
static size_t xp_power_blocks(const crtrig_exp_args *c, dd_t D, size_t b, size_t n)
{
    const int P = c->P, len = XP_REC_N[P];
    const double h = fabs(c->step);
    size_t sb, missing = 0;
    for (sb = b; sb < b + n; sb += (size_t)len) {
        size_t m = b + n - sb < (size_t)len ? b + n - sb : (size_t)len;
        double xa = c->x0 + (double)sb * c->step, xb = c->x0 + (double)(sb + m - 1) * c->step;
        double lo_x = fmin(fabs(xa), fabs(xb)), hi_x = fmax(fabs(xa), fabs(xb));
        if (m >= 8 && xa * xb >= 0.0 && hi_x < 0x1p25 && lo_x == floor(lo_x) && h < 0x1p25 &&
            D.hi * h >= 0x1p-100 * (1.0 + 0x1p-40) &&
            (lo_x == 0.0 || D.hi * lo_x >= 0x1p-100 * (1.0 + 0x1p-40))) {
            double t = D.hi * (lo_x + (double)(m + (size_t)P) * h), far = c->s;
            int k;
            for (k = 0; k < P; k++)
                far *= t;
            if (far <= c->limit * (1.0 - 0x1p-40)) {
                int forward = fabs(xa) <= fabs(xb);
                size_t got = xp_block_power(lo_x, h, (int)m, D, c->s, P, c->fmt, c->limit, c->out,
                                            c->undecided, (ptrdiff_t)(forward ? sb : sb + m - 1),
                                            forward ? 1 : -1);
                if (got != (size_t)-1) {
                    missing += got;
                    continue;
                }
            }
        }
        missing += xp_direct(c, D, sb, sb + m);
    }
    return missing;
}

/* ln 2 = XP_LN2_HI + XP_LN2_LO within 2^-109.9 ln 2 (mpmath, 300 bits). */
#define XP_LN2_HI 0x1.62e42fefa39efp-1
#define XP_LN2_LO 0x1.abc9e3b39803fp-56

/* ln y for a double-double y = y.hi + y.lo, y.hi in [2^-1000, 2^1000], |y.lo| <=
 * 2^-53 y.hi: returns 1 with *L and *err, |*L - ln y| <= *err (absolute), or 0
 * (not expected: the correction below too large; the caller leaves the element
 * undecided).
 *
 * y = 2^e m with m = y 2^-e in [1, 2) (frexp; the scaling is exact, lo included).
 * ln m = L0 + ln(1 + u) for ANY double L0, with 1 + u = m exp(-L0): L0 = log(m.hi)
 * from the C library (its accuracy only matters for the size of u, which is
 * checked: |u~| <= 2^-40), clamped into [0, 0.7] (-L0 stays in the exp stage's
 * domain).  E = exp(-L0) by xp_dd_scaled (relative 2^-88.7; -L0 in [-0.7, 0] gives
 * k in {-1, 0}: the scaling is exact); v = kd_dd_mul(m, E) (2^-103), so v = (1 + u)(1 +
 * eta), |eta| <= 2^-88.7 + 2^-103 + 2^-191 <= 2^-88.69.  u~ = dd_add_d(v, -1) is v -
 * 1 exactly: v.hi in [1 - 2^-39, 1 + 2^-39] makes v.hi - 1 exact (Sterbenz) and a
 * multiple of 2^-53, so either it is 0 or at least |v.lo| (<= 2^-53): two_sum and
 * fast_two_sum lose nothing.  Then |u~ - u| = (1 + u)|eta| <= 2^-88.68.
 * ln(1 + u~) = u~ - u~^2/2 + R, |R| <= |u~|^3/(3 (1 - |u~|)) < 2^-121.5; lambda =
 * dd_add_d(u~, -(u~.hi u~.hi)/2): dropping 2 u~.hi u~.lo (< 2^-132), the product's
 * rounding (< 2^-133) and the add (2^-103 (|u~| + |u~|^2) < 2^-142): |lambda -
 * ln(1 + u~)| < 2^-121; |ln(1 + u~) - ln(1 + u)| <= |u~ - u| / (1 - 2^-39) <=
 * 2^-88.67.  ln m = dd_add_accurate(L0, lambda): relative 3 2^-106 / (1 - 2^-51) <
 * 2^-104.4 of |ln m| <= 0.7: < 2^-104.9.  e ln 2: kd_dd_mul_d((LN2_HI, LN2_LO), e), e
 * exact: 2^-103 |e| ln2 + the constant's 2^-109.9 |e| ln 2; the final
 * dd_add_accurate: 2^-104.4 (|e| ln2 + 0.7).  In all |L - ln y| <= 2^-88.67 + 2^-121
 * + 2^-104.9 + 2^-104.9 + |e| ln2 (2^-103 + 2^-109.9 + 2^-104.4) <= 2^-88.66 + |e|
 * 2^-102.7; *err = 0x1.5p-89 (2^-88.6) + |e| 0x1.7p-103 (> 2^-102.5), computed (|e| <=
 * 1000: a sum of two doubles of distant exponents, rounded up at most by 2^-53
 * relatively, inside the margins). */
static int xp_log(dd_t y, dd_t *L, double *err)
{
    int e, k;
    double L0, sc;
    dd_t m, E, v, u, lambda, lm, el;
    (void)frexp(y.hi, &e);
    e -= 1;  /* y.hi = 2^e m.hi, m.hi in [1, 2) */
    sc = ldexp(1.0, -e);
    m = dd_make(y.hi * sc, y.lo * sc);
    L0 = log(m.hi);
    if (!(L0 >= 0.0))
        L0 = 0.0;  /* also a NaN */
    if (L0 > 0.7)
        L0 = 0.7;
    E = xp_dd_scaled(-L0, 0.0, &k);
    E.hi = ldexp(E.hi, k);
    E.lo = ldexp(E.lo, k);
    v = kd_dd_mul(m, E);
    u = dd_add_d(v, -1.0);
    if (!(fabs(u.hi) <= 0x1p-40))
        return 0;
    lambda = dd_add_d(u, -0.5 * (u.hi * u.hi));
    lm = dd_add_accurate(dd_make(L0, 0.0), lambda);
    el = kd_dd_mul_d(dd_make(XP_LN2_HI, XP_LN2_LO), (double)e);
    *L = dd_add_accurate(el, lm);
    *err = 0x1.5p-89 + fabs((double)e) * 0x1.7p-103;
    return 1;
}

/* One element of general_gaussian with a real power (args P == 0): w = exp(-q), q =
 * (1/2) y^P = exp(Z), Z = P ln y - ln 2, y = |x| d, P = P_hi + P_lo > 0 (within 2^-105
 * P of the exact rational, the caller: two roundings to nearest, 2^-106 each).
 * 1 and *result when decided, 0 when the exact fallback must.
 *
 * y = kd_dd_mul_d(D, |x|): y (1 + beta), |beta| <= 2^-105 + 2^-103 <= 2^-102.67, so
 * ln of the computed y is within 2^-102.66 of ln y: errL = *err (xp_log) + 2^-102.
 * PL = kd_dd_mul(P~, L): |PL - P ln y| <= P errL (1 + 2^-100) + P |L| (2^-103 + 2^-105)
 * (the product and P's representation), Z = dd_add_accurate(PL, -ln2~): 2^-104.4
 * |Z| more, and ln2~'s 2^-109.9 ln 2.  errZ below bounds the sum with room (2^-102
 * for 2^-102.7, 2^-104 for 2^-104.4, 2^-106 for 2^-110.4; the double evaluation's
 * few roundings of 2^-53 are inside that room).
 * Decisions on Z~ = Z.hi + Z.lo: Z~ + errZ <= -40: q <= e^-40 < 2^-57, exp(-q) in (1
 * - 2^-57, 1): 1 in every format of <= 53 bits.  Z~ - errZ > 8: q > e^8 > 2980 >
 * 745.2: 0 in every format.  Otherwise Z in [-40 - errZ, 8 + errZ] and q = exp(Z)
 * by xp_dd_scaled (its derivation uses only |y_hi| <= 747, nothing of y's sign:
 * for 0 < y_hi <= 8, N > 0 and e = N + 2^23 > 0 as well; k <= 12, k >= -58: the
 * scaling is exact): q~ = q (1 + eps_q), |eps_q| <= 2^-88.7 + 1.0001 errZ (exp(Z +
 * delta) = exp(Z) (1 + delta + ...), |delta| <= errZ < 2^-60, checked).  q~.hi >
 * zero_above: 0, as in xp_element (its margin 2^-40 > eps_q).  Else w = exp(-q~) by
 * xp_dd_scaled, F 2^k with |F 2^k - exp(-q)| <= F 2^k (2^-88.7 + 1.03 q eps_q) (as in
 * xp_element), and e = F.hi (2^-87 + 1.05 q~.hi eps_q~) with eps_q~ = 2^-88.6 + 1.01
 * errZ bounds it with xp_element's room; the rounding as in xp_element. */
static int xp_real_element(double ax, dd_t D, dd_t Pd, crtrig_dtype fmt, double zero_above, double *result)
{
    dd_t y, L, Z, q, F;
    double errL, errZ, eps_q, e, scale;
    int k;
    if (ax == 0.0) {
        *result = 1.0;  /* 0^P = 0: exp(0) */
        return 1;
    }
    y = kd_dd_mul_d(D, ax);
    if (!(y.hi >= 0x1p-1000 && y.hi <= 0x1p1000) || !xp_log(y, &L, &errL))
        return 0;
    errL += 0x1p-102;
    Z = dd_add_accurate(kd_dd_mul(Pd, L), dd_make(-XP_LN2_HI, -XP_LN2_LO));
    errZ = Pd.hi * (errL + fabs(L.hi) * 0x1p-102) + fabs(Z.hi) * 0x1p-104 + 0x1p-106;
    if (!(errZ <= 0x1p-60))
        return 0;
    if (Z.hi + fabs(Z.lo) + errZ <= -40.0) {
        *result = 1.0;
        return 1;
    }
    if (Z.hi - fabs(Z.lo) - errZ > 8.0) {
        *result = 0.0;
        return 1;
    }
    F = xp_dd_scaled(Z.hi, Z.lo, &k);
    scale = xp_pow2i(k);
    q = dd_make(F.hi * scale, F.lo * scale);
    if (q.hi > zero_above) {
        *result = 0.0;
        return 1;
    }
    eps_q = 0x1.5p-89 + 1.01 * errZ;
    F = xp_dd_scaled(-q.hi, -q.lo, &k);
    e = F.hi * (0x1p-87 + 1.05 * q.hi * eps_q);
    if (fmt == CRTRIG_FLOAT64)
        return xp_decide_float64(F, k, e, result);
    /* A narrower format: q <= zero_above <= 104.1, k >= -152 (as in xp_element). */
    scale = xp_pow2i(k);
    F.hi *= scale;
    F.lo *= scale;
    return crtrig_decide_dd(F, e * scale, fmt, result);
}

/* The real-power fill's elements [lo, hi), each on its own. */
static size_t xp_real_range(const crtrig_exp_args *c, size_t lo, size_t hi)
{
    const dd_t D = dd_make(c->d_hi, c->d_lo), Pd = dd_make(c->p_hi, c->p_lo);
    size_t i, missing = 0;
    for (i = lo; i < hi; i++) {
        double x = c->x0 + (double)i * c->step, r;
        int decided = xp_real_element(fabs(x), D, Pd, c->fmt, c->zero_above, &r);
        missing += crtrig_record_element(&c->out[i], &c->undecided[i], decided, &r);
    }
    return missing;
}

#endif

/* A block [b, b + n) with |x| monotone (no sign change) whose element nearest 0 has
 * xp_direct's estimate above zero_above (1 + 2^-48): every element is 0 (xp_direct's
 * argument, q nondecreasing in |x|), written so; 1, or 0 when not so (P <= XP_REC_MAX). */
static int xp_block_is_zero(const crtrig_exp_args *c, dd_t D, double xa, double xb, size_t b, size_t n)
{
    double t, est = c->s;
    size_t i;
    int k;
    if (c->P > XP_REC_MAX || !(xa * xb > 0.0))
        return 0;
    t = D.hi * fmin(fabs(xa), fabs(xb));
    for (k = 0; k < c->P; k++)
        est *= t;
    if (!(est > c->zero_above * (1.0 + 0x1p-48)))
        return 0;
    for (i = b; i < b + n; i++) {
        c->out[i] = 0.0;
        c->undecided[i] = 0;
    }
    return 1;
}

/* How many elements from a block's near end (|x| = a + j h, j < n, a and h integers,
 * a + (n - 1) h < 2^33) have their estimated q = s (D.hi (a + jh))^P (P <= 2;
 * relative error < 2^-50: D.hi's 2^-53 and three roundings) at most thr: the estimate is
 * nondecreasing in j as computed (a + jh exact, rounding monotone), so a binary search
 * finds the count c, and every j < c has q(j) <= q(c - 1) <= thr (1 + 2^-50). */
static int xp_near_count(double a, double h, int n, double dhi, double s, int P, double thr)
{
    int lo = 0, hi = n;  /* est(j) <= thr for j < lo, > thr for j >= hi */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        double t = dhi * (a + (double)mid * h), est = s * (P == 1 ? t : t * t);
        if (est <= thr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A block [b, b + n) for P <= 2 with the lanes' steps k: the elements from the near
 * end whose q is at most limit (xp_near_count at limit (1 - 2^-40): q <= limit) by
 * xp_block_lanes when there are at least 2 XP_LANES of them, the rest one by one.
 * The checks: |x| monotone inside (no sign change), integer |x| below 2^25 (h: the
 * caller). */
static size_t xp_lane_block(const crtrig_exp_args *c, dd_t D, const xp_lane_steps *k, size_t b, size_t n)
{
    const double h = fabs(c->step);
    double xa = c->x0 + (double)b * c->step, xb = c->x0 + (double)(b + n - 1) * c->step;
    double lo_x = fmin(fabs(xa), fabs(xb)), hi_x = fmax(fabs(xa), fabs(xb));
    if (xp_block_is_zero(c, D, xa, xb, b, n))
        return 0;
    if (n >= 2 * XP_LANES && xa * xb >= 0.0 && hi_x < 0x1p25 && lo_x == floor(lo_x)) {
        int forward = fabs(xa) <= fabs(xb);
        int near = xp_near_count(lo_x, h, (int)n, D.hi, c->s, c->P, c->limit * (1.0 - 0x1p-40));
        if (near >= 2 * XP_LANES) {
            size_t got = xp_block_lanes(lo_x, h, near, D, c->s, c->P, k, c->fmt, c->limit, c->out, c->undecided,
                                        (ptrdiff_t)(forward ? b : b + n - 1), forward ? 1 : -1);
            if (got != (size_t)-1)
                return got + (forward ? xp_direct(c, D, b + (size_t)near, b + n) : xp_direct(c, D, b, b + n - (size_t)near));
        }
    }
    return xp_direct(c, D, b, b + n);
}

/* The elements [lo, hi) of the fill c (lo a multiple of EXP_BLOCK: the pool's
 * chunks are whole blocks at multiples of the block, so every split sees the same
 * blocks and gives the same bits; the lanes' steps are the same in every call).
 * P <= 2: xp_lane_block (one by one where the lanes' steps are unavailable: d h so
 * large that q passes the limit within a few elements); 3 <= P <= XP_REC_MAX: xp_power_blocks;
 * otherwise one by one.  The step h = |step| must be an integer below 2^25 with
 * d h >= 2^-300 for the recurrences (the windows' x are integers, exp.h). */
size_t CRTRIG_KERNEL(exp_range)(const crtrig_exp_args *c, size_t lo, size_t hi)
{
    const dd_t D = dd_make(c->d_hi, c->d_lo);
    const double h = fabs(c->step);
    const int P = c->P;
    const int recur = h < 0x1p25 && h == floor(h) && D.hi * h >= 0x1p-300;
    xp_lane_steps lanes;
    size_t b, missing = 0;
    if (P == 0)
        return xp_real_range(c, lo, hi);  /* general_gaussian's real power p_hi + p_lo */
    lanes.ok = 0;
    if (P <= 2 && recur)
        lanes = xp_lane_steps_of(D, h, c->s, P, c->limit);
    for (b = lo; b < hi; b += EXP_BLOCK) {
        size_t n = hi - b < EXP_BLOCK ? hi - b : EXP_BLOCK;
        if (P <= 2 && recur)
            missing += lanes.ok ? xp_lane_block(c, D, &lanes, b, n) : xp_direct(c, D, b, b + n);
        else if (P >= 3 && P <= XP_REC_MAX && recur)
            missing += xp_power_blocks(c, D, b, n);
        else if (!xp_block_is_zero(c, D, c->x0 + (double)b * c->step, c->x0 + (double)(b + n - 1) * c->step, b, n))
            missing += xp_direct(c, D, b, b + n);
    }
    return missing;
}


/* The test hook's kernel: exp(y_hi + y_lo) = (*hi + *lo) as xp_dd_scaled computes
 * it, scaled by its 2^k (the caller's domain, -620 <= y_hi <= 0: exact). */
void CRTRIG_KERNEL(exp_dd_value)(double y_hi, double y_lo, double *hi, double *lo)
{
    int k;
    dd_t F = xp_dd_scaled(y_hi, y_lo, &k);
    *hi = ldexp(F.hi, k);
    *lo = ldexp(F.lo, k);
}

/* The log test hook's kernel: xp_log of y_hi + y_lo; 1, or 0 where xp_log declines. */
int CRTRIG_KERNEL(log_dd_value)(double y_hi, double y_lo, double *hi, double *lo, double *err)
{
    dd_t L;
    if (!xp_log(dd_make(y_hi, y_lo), &L, err))
        return 0;
    *hi = L.hi;
    *lo = L.lo;
    return 1;
}
