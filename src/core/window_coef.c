/* The coefficients of a window fill and the general Hamming window's exact
 * values (window_coef.h).
 *
 * Everything here works on exact integers: a quotient N / d (N < 2^72, 1 <= d
 * < 2^64) is produced bit by bit by long division, as a 128-bit significand with
 * its exponent and a sticky bit (the remainder is nonzero), and turned into a
 * double-double.  Plain C99 (no 128-bit integer type), once per fill for the
 * constants and once per exact point.
 */
#include <math.h>
#include "window_coef.h"
#include "fpformat.h"

/* N = nh 2^64 + nl (nh < 2^8) divided by d (1 <= d < 2^64), N > 0: the first
 * 128 significant bits of the quotient as sig[0] (high) and sig[1] (low), the
 * top bit of sig[0] set, with N/d = (sig + t) 2^exp for some 0 <= t < 1, and
 * *sticky = (t > 0).  Long division from bit 71 of N down, then fraction bits:
 * the remainder r stays below d < 2^64; 2r + bit may reach 2^65, so the bit
 * shifted out of r decides the quotient bit with r >= d, and r - d is then
 * right modulo 2^64 (the true difference is below d).  N/d >= 2^-64, so the
 * loop ends within 72 + 64 + 128 steps. */
static void long_divide(uint64_t nh, uint64_t nl, uint64_t d, uint64_t sig[2], int *exp, int *sticky)
{
    uint64_t r = 0;
    int pos = 71, count = 0;
    sig[0] = sig[1] = 0;
    while (count < 128) {
        uint64_t bit = pos >= 64 ? (nh >> (pos - 64)) & 1u : pos >= 0 ? (nl >> pos) & 1u : 0u;
        uint64_t carry = r >> 63, q;
        r = (r << 1) | bit;
        q = carry | (uint64_t)(r >= d);
        if (q)
            r -= d;
        if (count > 0 || q) {
            sig[0] = (sig[0] << 1) | (sig[1] >> 63);
            sig[1] = (sig[1] << 1) | q;
            count++;
        }
        pos--;
    }
    *exp = pos + 1;  /* the weight of the last quotient bit produced */
    *sticky = r != 0;
}

/* The double-double hi + lo of (sig + t) 2^exp (long_divide's output): hi takes
 * the top 53 bits, lo the next 51 and, when anything nonzero lies below them
 * (the 24 low bits of sig, or the sticky bit), one more bit set half a unit of
 * the 51st below them.  Both are exact doubles (53 and 52 bits; the
 * quotients here lie in [2^-64, 2^8], so nothing underflows), |lo| < ulp(hi), and fast two-sum turns them
 * into hi = RN(hi + lo) exactly.  So:
 *   - hi + lo is within 2^-104 2^(exp + 128) <= 2^-103 of the quotient
 *     relatively (the top bit is worth at least 2^(exp + 127));
 *   - with no bit below the 104th, hi + lo is the quotient exactly; otherwise
 *     both lie strictly inside the same interval between consecutive multiples
 *     of 2^(exp + 24), a grid that holds every rounding boundary of the float
 *     formats (at most 54 significant bits), subnormal ones included: both
 *     round alike into every float format. */
static void significand_to_dd(const uint64_t sig[2], int exp, int sticky, double *hi, double *lo)
{
    double h = ldexp((double)(sig[0] >> 11), exp + 75);
    uint64_t mid = ((sig[0] & 0x7ffu) << 40) | (sig[1] >> 24);
    uint64_t below = (uint64_t)((sig[1] & 0xffffffu) != 0 || sticky);
    double l = ldexp((double)(2 * mid + below), exp + 23);
    *hi = h + l;
    *lo = l - (*hi - h);
}

/* N/d as a double-double (0 if N = 0). */
static void ratio_dd(uint64_t nh, uint64_t nl, uint64_t d, double *hi, double *lo)
{
    uint64_t sig[2];
    int exp, sticky;
    if (nh == 0 && nl == 0) {
        *hi = *lo = 0.0;
        return;
    }
    long_divide(nh, nl, d, sig, &exp, &sticky);
    significand_to_dd(sig, exp, sticky, hi, lo);
}

int crtrig_window_coef_init(crtrig_window_coef *c, const crtrig_window_spec *spec)
{
    uint64_t p, q, d1;
    c->kind = spec->kind;
    c->cancels = 0;
    c->p = c->q = 0;
    c->c0_hi = c->c0_lo = c->c1_hi = c->c1_lo = 0.0;
    if (spec->kind == CRTRIG_HANN || spec->kind == CRTRIG_HAMMING || spec->kind == CRTRIG_BLACKMAN)
        return CRTRIG_OK;
    if (spec->kind != CRTRIG_GENERAL_HAMMING || spec->alpha_den == 0 || spec->alpha_num > spec->alpha_den)
        return CRTRIG_EINVAL;
    p = c->p = spec->alpha_num;
    q = c->q = spec->alpha_den;
    d1 = q - p;                           /* c1 = 2 d1 / q */
    c->cancels = p < d1;                  /* 2p < q */
    return CRTRIG_OK;
}

void crtrig_window_coef_constants(crtrig_window_coef *c)
{
    uint64_t p = c->p, q = c->q, d1 = q - p, e0;
    if (c->kind != CRTRIG_GENERAL_HAMMING)
        return;
    e0 = c->cancels ? d1 - p : p - d1;    /* |c0| = |2p - q| / q, |2p - q| <= q */
    ratio_dd(0, e0, q, &c->c0_hi, &c->c0_lo);
    if (c->cancels) {
        c->c0_hi = -c->c0_hi;
        c->c0_lo = -c->c0_lo;
    }
    ratio_dd(0, d1, q, &c->c1_hi, &c->c1_lo);
    c->c1_hi *= 2.0;  /* exact */
    c->c1_lo *= 2.0;
}

/* a p + b q for small a, b >= 0 as (high, low) words: exact (the sum < 2^68). */
static void mul_add(uint64_t a, uint64_t p, uint64_t b, uint64_t q, uint64_t *high, uint64_t *low)
{
    /* each product of a 64-bit and a small (< 8) factor: split p into 32-bit halves */
    uint64_t terms[2][2] = {{a, p}, {b, q}};
    uint64_t h = 0, l = 0;
    int k;
    for (k = 0; k < 2; k++) {
        uint64_t m = terms[k][0], x = terms[k][1];
        uint64_t lo_part = (x & 0xffffffffu) * m, hi_part = (x >> 32) * m;  /* each < 2^35 */
        uint64_t add_lo = lo_part + (hi_part << 32);
        uint64_t carry = add_lo < lo_part;
        h += (hi_part >> 32) + carry;
        l += add_lo;
        h += l < add_lo;
    }
    *high = h;
    *low = l;
}

double crtrig_general_hamming_exact(const crtrig_window_coef *c, int i, crtrig_dtype fmt)
{
    /* w = (P - N) / (2q) with P = (4 - i) p + max(i - 2, 0) q, N = max(2 - i, 0) q */
    uint64_t ph, pl, nh, nl, sig[2], dh, dl;
    int negative, exp, sticky;
    double hi, lo, r;
    mul_add((uint64_t)(4 - i), c->p, (uint64_t)(i > 2 ? i - 2 : 0), c->q, &ph, &pl);
    mul_add(0, 0, (uint64_t)(i < 2 ? 2 - i : 0), c->q, &nh, &nl);
    negative = ph < nh || (ph == nh && pl < nl);
    if (negative) {  /* (dh, dl) = N - P */
        dl = nl - pl;
        dh = nh - ph - (nl < pl);
    } else {
        dl = pl - nl;
        dh = ph - nh - (pl < nl);
    }
    if (dh == 0 && dl == 0)
        return 0.0;  /* +0 */
    long_divide(dh, dl, c->q, sig, &exp, &sticky);
    significand_to_dd(sig, exp - 1, sticky, &hi, &lo);  /* / 2: exact */
    r = crtrig_round_dd(hi, lo, fmt);  /* the magnitude; round to nearest is symmetric */
    return negative ? -r : r;
}
