/* Verification of crtrig's float32 sin/cos against the C library's x87
 * long double sinl/cosl.  See verify_f32.h for the interface.
 *
 * Why the oracle decides correctly
 * --------------------------------
 * Let S be the exact sin(x) (or cos(x)) and L the long double value returned
 * by sinl.  glibc's libm-test-ulps for x86_64 lists a maximal error of 2 ulp
 * for sinl and 1 ulp for cosl (round-to-nearest); an ulp of a long double
 * is at most 2^-63 of its value, so |S - L| <= 2^-62 |S|.  The margin
 * m = 2^-margin_log2 |L| (2^-56 by default) is 64 times larger, so S lies in
 * [L - m, L + m].
 *
 * Let F be (float)L and B-, B+ the rounding boundaries around F (the
 * midpoints between F and its float32 neighbours).  If B- + m < L < B+ - m,
 * every real number within m of L, in particular S, lies strictly between
 * B- and B+, so F is the correctly rounded float32 of S.  The same test also
 * confirms that F is the float nearest to L, so nothing depends on how the
 * conversion (float)L rounds.  Otherwise the input is escalated: the caller
 * checks it with an exact method.
 *
 * All the arithmetic of the test is exact in the 64-bit significand of the
 * x87 format: F and its neighbours are float32 values (24 bits), their sums
 * need at most 26 bits and halving is exact; m is |L| scaled by a power of
 * two; and L - B is either exact (when L lies between the two boundaries:
 * B's last bit is no finer than L's and the difference is at most |L|) or, when
 * L lies outside, rounds to a number of the same sign, which fails the test
 * as it should.  Long double underflow cannot happen: every nonzero |S| is at
 * least 2^-149.
 *
 * The long double code is compiled only when LDBL_MANT_DIG == 64; elsewhere
 * verify_f32_oracle_status reports VERIFY_F32_NO_X87_LONG_DOUBLE and the
 * caller must use its exact method for every input.
 */
#include "verify_f32.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "crtrig/crtrig.h"

#define FLOAT32_EXPONENT_MASK 0x7f800000u
#define FLOAT32_MANTISSA_MASK 0x007fffffu
#define FLOAT32_QUIET_NAN 0x7fc00000u

int verify_f32_long_double_digits(void)
{
    return LDBL_MANT_DIG;
}

#if LDBL_MANT_DIG == 64

static float float32_from_bits(uint32_t bits)
{
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static uint32_t float32_bits(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

static int float32_bits_are_nan(uint32_t bits)
{
    return (bits & FLOAT32_EXPONENT_MASK) == FLOAT32_EXPONENT_MASK && (bits & FLOAT32_MANTISSA_MASK) != 0;
}

static int float32_bits_are_finite(uint32_t bits)
{
    return (bits & FLOAT32_EXPONENT_MASK) != FLOAT32_EXPONENT_MASK;
}

/* The x87 precision-control field (bits 8-9 of the control word): 3 means
 * a 64-bit significand, which Linux and the BSDs set by default (some
 * systems, Windows among them, start at 53 bits). */
static int x87_precision_is_extended(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    unsigned short control_word;
    __asm__ __volatile__("fnstcw %0" : "=m"(control_word));
    return ((control_word >> 8) & 3) == 3;
#else
    return 1; /* not x87: long double arithmetic has no precision control */
#endif
}

int verify_f32_oracle_status(void)
{
    if (!x87_precision_is_extended())
        return VERIFY_F32_REDUCED_PRECISION;
    if (fegetround() != FE_TONEAREST)
        return VERIFY_F32_NOT_NEAREST;
    return VERIFY_F32_OK;
}

/* sinpi/cospi.  x is a float32 value, so its long double copy X and every step of
 * the reduction are exact: n = the integer nearest to 2X (|2X| < 2^129 has at most
 * 24 significant bits, rintl exact), t = X - n/2 (exact: t is a multiple of ulp(X)
 * and |t| <= 1/4; for |X| >= 2^23, X is an integer and t = 0).  With k = n (+1 for
 * cospi) mod 4, f = [sin, cos, -sin, -cos](pi t)[k].  t = 0: f is 0 or +-1 exactly,
 * the zeros with IEEE 754-2019's signs (sinpi: x's sign; cospi: +0).  Otherwise
 * L = sinl or cosl of a = RN(PI_L t), PI_L = RN64(pi), |PI_L - pi| <= 2^-64 pi:
 * |a - pi t| <= 2^-62.9 |pi t|, which moves sin(pi t) by at most that much relative
 * (|a cot a| <= 1) and cos(pi t) by at most tan(pi/4 (1 + 2^-62)) 2^-62.9 |pi t| <=
 * 2^-62.6 relative (cos >= 0.707 there); with sinl's 2 ulp and cosl's 1 ulp
 * (2^-62 relative) |S - L| <= 2^-61 |S|, 32 times below the default margin.  sinl
 * of |a| <= pi/4 + tiny does no large reduction.  |S| >= 2^-149 * 2.8 for t != 0. */
static const long double PI_L = 0xc.90fdaa22168c235p-2L;

static long double oracle_pi(int func, float x)
{
    long double X = (long double)x, n = rintl(2.0L * X), t = X - 0.5L * n, v;
    int k = ((int)fmodl(n, 4.0L) + 4 + (func == CRTRIG_COSPI)) & 3;
    if (t == 0.0L) {
        if (k & 1)
            return (k & 2) ? -1.0L : 1.0L;
        return func == CRTRIG_SINPI ? copysignl(0.0L, X) : 0.0L;
    }
    v = (k & 1) ? cosl(PI_L * t) : sinl(PI_L * t);
    return (k & 2) ? -v : v;
}

/* tan and tanpi: L = sinl(a)/cosl(a) (or -cosl(a)/sinl(a) in tanpi's odd half
 * periods), each of sinl and cosl within its glibc bound (2 ulp, 1 ulp: relative
 * 2^-62 and 2^-63, ulps of the result, so relative also next to their zeros),
 * the quotient rounded once (2^-64):
 *   tan: a = X exact: |S - L| <= (2^-62 + 2^-63 + 2^-64)(1 + 2^-60) |S| <= 2^-61.1 |S|.
 *   tanpi: a = RN(PI_L t) as for sinpi/cospi above moves sin(pi t) by <= 2^-62.9 and
 *     cos(pi t) by <= 2^-62.6 relative, the quotient by <= 2^-61.7; with sinl's,
 *     cosl's and the division's: <= (0.31 + 0.25 + 0.125 + 0.0625) 2^-60 < 2^-60.4.
 *     t = 0: 0 or the pole (+-inf, escalated: round_clear_of_boundaries refuses
 *     infinities), with tanpi's signs; t = +-1/4: +-1 exactly.
 * Both 2^-60 or better: 16 times below the default margin.  Every |S| >= 2^-149. */
static long double oracle_tan(int func, float x)
{
    long double X = (long double)x, s, c;
    int odd = 0;
    if (func == CRTRIG_TANPI) {
        long double n = rintl(2.0L * X), t = X - 0.5L * n;
        int negative = 0;
        odd = fmodl(n, 2.0L) != 0.0L;
        if (t == 0.0L) {  /* on |x|: +0 for even, -0 for odd integers; +inf at even + 1/2 */
            long double ax = fabsl(X), v;
            negative = signbit(X) != 0;  /* tanpi(-0) = -0 */
            if (odd)
                v = fmodl(ax - 0.5L, 2.0L) == 0.0L ? INFINITY : -INFINITY;
            else
                v = fmodl(ax, 2.0L) == 0.0L ? 0.0L : -0.0L;
            return negative ? -v : v;
        }
        if (t == 0.25L || t == -0.25L)
            return ((t > 0.0L) != odd) ? 1.0L : -1.0L;
        X = PI_L * t;
    }
    s = sinl(X);
    c = cosl(X);
    return odd ? -c / s : s / c;
}

static long double oracle(int func, float x)
{
    if (func == CRTRIG_TAN || func == CRTRIG_TANPI)
        return oracle_tan(func, x);
    if (func == CRTRIG_SINPI || func == CRTRIG_COSPI)
        return oracle_pi(func, x);
    return func == CRTRIG_SIN ? sinl((long double)x) : cosl((long double)x);
}

/* When every real within relative_margin * |approx| of approx rounds to the
 * same float32, store that float32's bit pattern in *bits and return 1;
 * otherwise return 0 (the input must be escalated). */
static int round_clear_of_boundaries(long double approx, long double relative_margin, uint32_t *bits)
{
    float nearest = (float)approx;
    long double margin, boundary_below, boundary_above;

    if (!isfinite(nearest))
        return 0;
    margin = fabsl(approx) * relative_margin;
    boundary_below = ((long double)nearest + (long double)nextafterf(nearest, -INFINITY)) * 0.5L;
    boundary_above = ((long double)nearest + (long double)nextafterf(nearest, INFINITY)) * 0.5L;
    if (!(approx - boundary_below > margin && boundary_above - approx > margin))
        return 0;
    *bits = float32_bits(nearest);
    return 1;
}

int verify_f32_oracle_value(int func, uint32_t input, void *value)
{
    int status = verify_f32_oracle_status();
    if (status != VERIFY_F32_OK)
        return status;
    if ((unsigned)func > CRTRIG_TANPI)
        return VERIFY_F32_BAD_ARGUMENT;
    *(long double *)value = oracle(func, float32_from_bits(input));
    return VERIFY_F32_OK;
}

int verify_f32_block(int func, const uint32_t *inputs, const uint32_t *results, size_t count,
                     int margin_log2, verify_f32_block_result *result)
{
    long double relative_margin;
    size_t i;
    int status = verify_f32_oracle_status();

    if (status != VERIFY_F32_OK)
        return status;
    if ((unsigned)func > CRTRIG_TANPI || count > VERIFY_F32_MAX_BLOCK
        || margin_log2 < VERIFY_F32_MIN_MARGIN_LOG2 || margin_log2 > VERIFY_F32_MAX_MARGIN_LOG2)
        return VERIFY_F32_BAD_ARGUMENT;
    result->checked = result->nonfinite = result->wrong = result->escalated = 0;
    if (count == 0)
        return VERIFY_F32_OK;

    relative_margin = ldexpl(1.0L, -margin_log2);
    for (i = 0; i < count; i++) {
        uint32_t input = inputs[i], got = results[i], expected;
        int correct;

        if (!float32_bits_are_finite(input)) {
            /* sin/cos/sinpi/cospi/tan/tanpi of NaN or +-inf is NaN (any payload, any sign). */
            result->nonfinite++;
            expected = FLOAT32_QUIET_NAN;
            correct = float32_bits_are_nan(got);
        } else if (round_clear_of_boundaries(oracle(func, float32_from_bits(input)),
                                             relative_margin, &expected)) {
            correct = got == expected; /* bit for bit, so also the sign of zero */
        } else {
            result->escalated_inputs[result->escalated] = input;
            result->escalated_results[result->escalated] = got;
            result->escalated++;
            continue;
        }
        result->checked++;
        if (!correct) {
            verify_f32_mismatch *mismatch = &result->mismatches[result->wrong++];
            mismatch->input = input;
            mismatch->got = got;
            mismatch->expected = expected;
        }
    }
    return VERIFY_F32_OK;
}

#else /* long double is not the x87 80-bit format: no oracle here */

int verify_f32_oracle_status(void)
{
    return VERIFY_F32_NO_X87_LONG_DOUBLE;
}

int verify_f32_oracle_value(int func, uint32_t input, void *value)
{
    (void)func;
    (void)input;
    (void)value;
    return VERIFY_F32_NO_X87_LONG_DOUBLE;
}

int verify_f32_block(int func, const uint32_t *inputs, const uint32_t *results, size_t count,
                     int margin_log2, verify_f32_block_result *result)
{
    (void)func;
    (void)inputs;
    (void)results;
    (void)count;
    (void)margin_log2;
    (void)result;
    return VERIFY_F32_NO_X87_LONG_DOUBLE;
}

#endif
