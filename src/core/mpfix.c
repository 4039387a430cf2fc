/* Fixed-point multi-precision arithmetic: pi, sin(pi a/b), cos(pi a/b), and
 * exact rounding into the float formats.  See mpfix.h for the representation.
 * Speed is secondary here: this stage runs for a vanishing share of elements
 * (none in practice for window sizes up to 2^20; tests force it). */
#include <math.h>
#include <string.h>
#include "alloc.h"
#include "fpformat.h"
#include "mpfix.h"

/* Scratch layout: numbers 0-4 are used inside mpfix_sincospi_ratio (pi, atan
 * work, t, x, x^2, term), 5 to 5 + MPFIX_USER_NUMBERS - 1 belong to the
 * caller (mpfix_user), and the last two hold the double-length product. */
enum { INTERNAL_NUMBERS = 5, PRODUCT_SLOT = INTERNAL_NUMBERS + MPFIX_USER_NUMBERS };
enum { SCRATCH_NUMBERS = PRODUCT_SLOT + 2 };

static int limbs_for(int fraction_bits) { return (fraction_bits + 31) / 32 + 1; }

int mpfix_ctx_init(mpfix_ctx *ctx, int max_fraction_bits)
{
    ctx->capacity = ctx->n = limbs_for(max_fraction_bits);
    ctx->pool = (uint32_t *)crtrig_alloc((size_t)ctx->capacity * SCRATCH_NUMBERS * sizeof(uint32_t));
    return ctx->pool ? 0 : -1;
}

int mpfix_ctx_set_precision(mpfix_ctx *ctx, int fraction_bits)
{
    int n = limbs_for(fraction_bits);
    if (fraction_bits < 0 || n > ctx->capacity)
        return -1;
    ctx->n = n;
    return 0;
}

void mpfix_ctx_free(mpfix_ctx *ctx)
{
    crtrig_free(ctx->pool);
    ctx->pool = NULL;
}

static uint32_t *scratch(mpfix_ctx *ctx, int i) { return ctx->pool + (size_t)i * ctx->n; }

uint32_t *mpfix_user(mpfix_ctx *ctx, int i) { return scratch(ctx, INTERNAL_NUMBERS + i); }

static void set_zero(uint32_t *x, int n) { memset(x, 0, (size_t)n * sizeof(uint32_t)); }

static int is_zero(const uint32_t *x, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (x[i])
            return 0;
    return 1;
}

void mpfix_copy(uint32_t *x, const uint32_t *y, int n) { memcpy(x, y, (size_t)n * sizeof(uint32_t)); }

void mpfix_set_ratio(uint32_t *x, int n, uint64_t a, uint64_t b)
{
    uint64_t r = a % b;
    int i, bit;
    set_zero(x, n);
    x[n - 1] = (uint32_t)(a / b);
    /* Long division, one bit at a time: r < b <= 2^62, so 2r fits. */
    for (i = n - 2; i >= 0; i--) {
        uint32_t limb = 0;
        for (bit = 31; bit >= 0; bit--) {
            r <<= 1;
            if (r >= b) {
                r -= b;
                limb |= (uint32_t)1 << bit;
            }
        }
        x[i] = limb;
    }
}

void mpfix_set_ratio_u64(uint32_t *x, int n, uint64_t a, uint64_t b)
{
    uint64_t r = a == b ? 0 : a;  /* a/b = 1 + 0, or 0 + a/b */
    int i, bit;
    set_zero(x, n);
    x[n - 1] = a == b ? 1u : 0u;
    /* Long division, one bit at a time: r < b < 2^64, so 2r may need 65 bits;
     * the bit shifted out then makes 2r >= b, and 2r - b < b is right modulo 2^64. */
    for (i = n - 2; i >= 0; i--) {
        uint32_t limb = 0;
        for (bit = 31; bit >= 0; bit--) {
            uint64_t carry = r >> 63;
            r <<= 1;
            if (carry || r >= b) {
                r -= b;
                limb |= (uint32_t)1 << bit;
            }
        }
        x[i] = limb;
    }
}

void mpfix_mul(mpfix_ctx *ctx, uint32_t *z, const uint32_t *x, const uint32_t *y)
{
    int n = ctx->n, i, j;
    uint32_t *prod = scratch(ctx, PRODUCT_SLOT);  /* 2n limbs: the last two numbers */
    memset(prod, 0, (size_t)2 * n * sizeof(uint32_t));
    for (i = 0; i < n; i++) {
        uint64_t carry = 0;
        if (x[i] == 0)
            continue;
        for (j = 0; j < n; j++) {
            /* (2^32-1)^2 + 2 (2^32-1) = 2^64 - 1: no overflow. */
            uint64_t t = (uint64_t)x[i] * y[j] + prod[i + j] + carry;
            prod[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        prod[i + n] = (uint32_t)carry;
    }
    /* Drop the F low bits (truncation); the top limb is zero for x, y < 2^16. */
    memcpy(z, prod + (n - 1), (size_t)n * sizeof(uint32_t));
}

void mpfix_mul_u32(uint32_t *x, int n, uint32_t m)
{
    uint64_t carry = 0;
    int i;
    for (i = 0; i < n; i++) {
        uint64_t t = (uint64_t)x[i] * m + carry;
        x[i] = (uint32_t)t;
        carry = t >> 32;
    }
}

void mpfix_div_u32(uint32_t *x, int n, uint32_t d)
{
    uint64_t r = 0;
    int i;
    for (i = n - 1; i >= 0; i--) {
        uint64_t cur = (r << 32) | x[i];
        x[i] = (uint32_t)(cur / d);
        r = cur % d;
    }
}

void mpfix_add(uint32_t *x, const uint32_t *y, int n)
{
    uint64_t carry = 0;
    int i;
    for (i = 0; i < n; i++) {
        uint64_t t = (uint64_t)x[i] + y[i] + carry;
        x[i] = (uint32_t)t;
        carry = t >> 32;
    }
}

/* x -= y, for x >= y. */
static void sub(uint32_t *x, const uint32_t *y, int n)
{
    int64_t borrow = 0;
    int i;
    for (i = 0; i < n; i++) {
        int64_t t = (int64_t)x[i] - y[i] - borrow;
        borrow = t < 0;
        x[i] = (uint32_t)(t + (borrow ? ((int64_t)1 << 32) : 0));
    }
}

void mpfix_add_int(uint32_t *x, int n, uint32_t k) { x[n - 1] += k; }

void mpfix_add_ulps(uint32_t *x, int n, uint64_t k)
{
    int i;
    for (i = 0; i < n && k; i++) {
        uint64_t t = (uint64_t)x[i] + (k & 0xffffffffu);
        x[i] = (uint32_t)t;
        k = (k >> 32) + (t >> 32);
    }
}

/* sum = arctan(1/m) = sum_k (-1)^k / ((2k+1) m^(2k+1)), m in {5, 239}.
 * p_0 = floor(1/m) and p_k = floor(p_(k-1) / m^2) have errors e_k < 1 + e_(k-1)/m^2
 * < 1.05 ulps; term_k = floor(p_k / (2k+1)) has error < 1.05/(2k+1) + 1 <= 2.05.
 * The loop stops at the first p_k == 0, whose exact value is then < 1.05, so
 * the omitted tail (alternating, decreasing) is < 1.05.  Partial sums stay
 * positive (they exceed 1/m - 1/(3 m^3) minus the errors), so unsigned
 * subtraction is safe.  Returns the bound 2.05 N + 1.05 < 3 N + 2, N = terms added. */
static uint64_t atan_inverse(mpfix_ctx *ctx, uint32_t *sum, uint32_t m)
{
    int n = ctx->n;
    uint32_t *p = scratch(ctx, 1), *term = scratch(ctx, 2);
    uint64_t terms = 0;
    uint32_t k;
    set_zero(p, n);
    p[n - 1] = 1;
    mpfix_div_u32(p, n, m);
    set_zero(sum, n);
    for (k = 0; !is_zero(p, n); k++) {
        mpfix_copy(term, p, n);
        mpfix_div_u32(term, n, 2 * k + 1);
        if (k & 1)
            sub(sum, term, n);
        else
            mpfix_add(sum, term, n);
        terms++;
        mpfix_div_u32(p, n, m * m);
    }
    return 3 * terms + 2;
}

/* pi = 16 arctan(1/5) - 4 arctan(1/239) (Machin).  Error <= 16 E5 + 4 E239 ulps.
 * Uses scratch numbers 1-3: pi must be scratch 0 or a user number. */
uint64_t mpfix_pi(mpfix_ctx *ctx, uint32_t *pi)
{
    uint32_t *a239 = scratch(ctx, 3);
    uint64_t e5 = atan_inverse(ctx, pi, 5);
    uint64_t e239 = atan_inverse(ctx, a239, 239);
    mpfix_mul_u32(pi, ctx->n, 16);
    mpfix_mul_u32(a239, ctx->n, 4);
    sub(pi, a239, ctx->n);
    return 16 * e5 + 4 * e239;
}

/* Error analysis of mpfix_sincos_fixed, in ulps, for 0 <= x <= pi/4 + 2^-20
 * taken as exact (x2 = x^2 with error < 1):
 *     sin: term_k = floor(floor(term_(k-1) x2) / (2k (2k+1))),
 *     cos: term_k = floor(floor(term_(k-1) x2) / ((2k-1) 2k)),  term_0 = x or 1.
 *   With term_(k-1) <= 1 and x2 <= 0.62, e_k <= (0.62 e_(k-1) + 1 + 1)/2 + 1 for
 *   the first cos step (e_1 <= 2) and <= (0.62 e_(k-1) + 2)/6 + 1 after, so
 *   e_k <= 2 for all k.  The loop stops at the first computed term == 0, whose
 *   exact value is < e_k <= 2, and the omitted alternating tail is < 2.2.
 *   Additions are exact.  Total <= 2 N + 3, N = terms added after term_0.
 *   (An error Ex in x adds at most Ex: |sin'|, |cos'| <= 1.)
 * Uses scratch numbers 3 and 4. */
uint64_t mpfix_sincos_fixed(mpfix_ctx *ctx, uint32_t *y, int use_cos, const uint32_t *x)
{
    int n = ctx->n;
    uint32_t *x2 = scratch(ctx, 3), *term = scratch(ctx, 4);
    uint64_t terms = 0;
    uint32_t k;

    mpfix_mul(ctx, x2, x, x);
    if (use_cos) {
        set_zero(term, n);
        term[n - 1] = 1;
    } else {
        mpfix_copy(term, x, n);
    }
    mpfix_copy(y, term, n);
    for (k = 1;; k++) {
        mpfix_mul(ctx, term, term, x2);
        mpfix_div_u32(term, n, use_cos ? (2 * k - 1) * (2 * k) : (2 * k) * (2 * k + 1));
        if (is_zero(term, n))
            break;
        if (k & 1)
            sub(y, term, n);
        else
            mpfix_add(y, term, n);
        terms++;
    }
    return 2 * terms + 3;
}

/* t = floor(a/b 2^F)/2^F: error < 1; t <= 1/4.  x = floor(pi~ t): error
 * Ex <= E_pi t + pi + 1 <= E_pi/4 + 5; x <= pi/4 + 2^-100.  Total Ex + 2N + 3. */
uint64_t mpfix_sincospi_ratio(mpfix_ctx *ctx, uint32_t *y, int use_cos, uint64_t a, uint64_t b)
{
    uint32_t *pi = scratch(ctx, 0), *t = scratch(ctx, 1), *x = scratch(ctx, 2);
    uint64_t err_pi = mpfix_pi(ctx, pi);
    mpfix_set_ratio(t, ctx->n, a, b);
    mpfix_mul(ctx, x, pi, t);
    return err_pi / 4 + 5 + mpfix_sincos_fixed(ctx, y, use_cos, x);
}

void mpfix_sub(uint32_t *x, const uint32_t *y, int n) { sub(x, y, n); }

int mpfix_cmp(const uint32_t *x, const uint32_t *y, int n)
{
    int i;
    for (i = n - 1; i >= 0; i--)
        if (x[i] != y[i])
            return x[i] > y[i] ? 1 : -1;
    return 0;
}

void mpfix_sub_sat(uint32_t *x, const uint32_t *y, int n)
{
    if (mpfix_cmp(x, y, n) <= 0)
        set_zero(x, n);
    else
        sub(x, y, n);
}

void mpfix_shr1(uint32_t *x, int n)
{
    int i;
    for (i = 0; i < n; i++)
        x[i] = (x[i] >> 1) | (i + 1 < n ? x[i + 1] << 31 : 0u);
}

void mpfix_set_ulps_pow2(uint32_t *x, int n, uint64_t k, int shift)
{
    int limb = shift / 32, bits = shift % 32, i;
    uint32_t part[3];
    part[0] = (uint32_t)(k << bits);
    part[1] = (uint32_t)(bits ? (k >> (32 - bits)) : (k >> 32));
    part[2] = (uint32_t)(bits ? (k >> (64 - bits)) : 0u);
    set_zero(x, n);
    for (i = 0; i < 3 && limb + i < n; i++)
        x[limb + i] = part[i];
}

void mpfix_set_int(uint32_t *x, int n, uint32_t k)
{
    set_zero(x, n);
    x[n - 1] = k;
}

int mpfix_shift(uint32_t *x, int n, int k)
{
    int top = -1, i, limbs, bits;
    for (i = n - 1; i >= 0 && top < 0; i--)
        if (x[i]) {
            int b = 31;
            while (!((x[i] >> b) & 1u))
                b--;
            top = 32 * i + b;
        }
    if (top < 0 || k == 0)
        return 0;  /* zero stays zero */
    if (k > 0) {
        if (top + k >= 32 * (n - 1) + 24)
            return -1;
        limbs = k / 32;
        bits = k % 32;
        for (i = n - 1; i >= 0; i--) {
            uint32_t hi = i - limbs >= 0 ? x[i - limbs] : 0u;
            uint32_t lo = i - limbs - 1 >= 0 ? x[i - limbs - 1] : 0u;
            x[i] = bits ? (hi << bits) | (lo >> (32 - bits)) : hi;
        }
        return 0;
    }
    k = -k;
    limbs = k / 32;
    bits = k % 32;
    for (i = 0; i < n; i++) {
        uint32_t lo = i + limbs < n ? x[i + limbs] : 0u;
        uint32_t hi = i + limbs + 1 < n ? x[i + limbs + 1] : 0u;
        x[i] = bits ? (lo >> bits) | (hi << (32 - bits)) : lo;
    }
    return 0;
}

static int bit_at(const uint32_t *x, int i) { return (int)((x[i >> 5] >> (i & 31)) & 1u); }

static int any_bit_below(const uint32_t *x, int i)
{
    int limb = i >> 5;
    int j;
    if (i <= 0)
        return 0;
    for (j = 0; j < limb; j++)
        if (x[j])
            return 1;
    return (i & 31) ? (x[limb] & (((uint32_t)1 << (i & 31)) - 1u)) != 0 : 0;
}

double mpfix_round(const uint32_t *x, int n, crtrig_dtype float_fmt)
{
    const crtrig_format *f = crtrig_format_of(float_fmt);
    const int fraction_bits = 32 * (n - 1);
    int top = -1, i, e, low;
    uint64_t m = 0;

    for (i = n - 1; i >= 0 && top < 0; i--)
        if (x[i]) {
            int b = 31;
            while (!((x[i] >> b) & 1u))
                b--;
            top = 32 * i + b;
        }
    if (top < 0)
        return 0.0;
    e = top - fraction_bits;            /* N / 2^F lies in [2^e, 2^(e+1)) */
    if (e < f->emin)
        e = f->emin;
    low = e - (f->precision - 1) + fraction_bits;  /* bit index of the last kept bit */
    if (low <= 0) {  /* representable as it is: fewer than `precision` bits */
        for (i = top; i >= 0; i--)
            m = (m << 1) | (uint64_t)bit_at(x, i);
        return ldexp((double)m, -fraction_bits);
    }
    for (i = top; i >= low; i--)
        m = (m << 1) | (uint64_t)bit_at(x, i);
    if (bit_at(x, low - 1) && (any_bit_below(x, low - 1) || (m & 1u)))
        m++;  /* m <= 2^precision: still exact in a double */
    return ldexp((double)m, low - fraction_bits);
}

int mpfix_round_interval(const mpfix_ctx *ctx, const uint32_t *value, const uint32_t *err,
                         uint32_t *lo, uint32_t *hi, crtrig_dtype float_fmt, double *result)
{
    double rlo, rhi;
    mpfix_copy(lo, value, ctx->n);
    mpfix_sub_sat(lo, err, ctx->n);
    mpfix_copy(hi, value, ctx->n);
    mpfix_add(hi, err, ctx->n);
    rlo = mpfix_round(lo, ctx->n, float_fmt);
    rhi = mpfix_round(hi, ctx->n, float_fmt);
    if (rlo != rhi)
        return 0;
    *result = rlo;
    return 1;
}
