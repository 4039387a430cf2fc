/* The sinpi/cospi first pass of the array kernel, float32 and float64: one source
 * compiled once per SIMD target (simd_*.c), vectorized by the compiler, checked
 * against the scalar path by the self-check (selfcheck.h) like sin/cos's passes.
 * The scalar stages, the reduction and its exactness, and the bounds of the
 * float64 evaluation are in trigpi.c (stage_first64) and sincos64_core.h; the
 * float32 polynomial's in sincos32_core.h.  Both forms of kernel_dd.h (FMA or
 * not) have the same bounds, and a decided lane is the correctly rounded value,
 * so every target gives the same bits.
 *
 * The pass writes every output and marks with undecided[i] = 1 the lanes it leaves
 * to the per-element stages (crtrig_trigpi_value): inf, NaN, zeros, integers and
 * half-integers (the special values), tiny and huge |x|, results near a rounding
 * boundary, and (float32) results below the smallest normal.  Lanes it leaves
 * compute on a clamped |x|, so nothing raises a flag but inexact.
 */
#include "pass_common.h"
#include "sincos64_core.h"
#include "sincos64_quick.h"
#include "sincos32_core.h"

#if defined(__GNUC__) && !defined(__clang__)
#define TRIGPI_VECTORIZE __attribute__((optimize("tree-vectorize")))
#else
#define TRIGPI_VECTORIZE
#endif

#ifndef CRTRIG_TRIGPI_PASS_LANES
#define CRTRIG_TRIGPI_PASS_LANES
static const double TP_SHIFTER = 0x1.8p52; /* 1.5 2^52 */
/* float64 lane.  Classes, from the bits of |x| (a):
 *   ordinary, 2^-60 <= a < 2^51: stage_first64 (trigpi.c) operation by operation on
 *     ax itself (clamping changes no ordinary ax), so its derivation holds: the
 *     result is decided unless the two roundings differ; except where x is a
 *     multiple of 1/2: w = 128 r2 is then a multiple of 64, y = 0 and j = 0 mod 64,
 *     and sc64_eval returns the table's exact S = 0 or +-1 (sincos64_core.h: exact
 *     at j = 0 mod 64).  +-1 passes the rounding test as it is (bound 2^-78);
 *     a zero (j = 0 mod 128) is replaced by the special value: sinpi +-0 with
 *     the sign of x, cospi +0;
 *   big, 2^52 <= a < inf: x is an integer: sinpi +-0 (the sign of x), cospi
 *     (-1)^x, odd only below 2^53 and then by its last bit;
 *   cospi below 2^-60 (zeros included): 1 (trigpi.c: RN(cospi) = 1 below 2^-29);
 *   sinpi of +-0: x itself;
 *   left to the stages (flag 1): the rest of sinpi below 2^-60 (the tiny path),
 *     2^51 <= a < 2^52 (multiples of 1/2, outside the derivation's domain), inf, NaN. */
#define TP64_LOW_BITS 0x3c30000000000000u   /* 2^-60 */
#define TP64_HIGH_BITS 0x4320000000000000u  /* 2^51 */
#define TP64_BIG_BITS 0x4330000000000000u   /* 2^52 */
#define TP64_ODD_BITS 0x4340000000000000u   /* 2^53 */

KD_INLINE uint64_t tp64_lane(int use_cos, int clean, uint64_t b, uint64_t *flag)
{
    const uint64_t sign = b & ~(uint64_t)SC64_ABS_MASK;
    uint64_t a = b & SC64_ABS_MASK, differ, j, ordinary, big, tiny, zero, odd, m, out;
    uint64_t ac = a < TP64_LOW_BITS ? TP64_LOW_BITS : a;
    double ax, y, bound, v;
    kdd_t r, R;
    ac = ac > TP64_HIGH_BITS - 1u ? TP64_HIGH_BITS - 1u : ac;
    (void)clean;  /* the clean float64 lanes: tp64_clean_lane */
    ax = sc64_from_bits(ac);
    /* j = kd mod 256 from the bits of ks = 1.5 2^52 + kd (sc64_reduce_turns): the same j
     * as (int64_t)kd mod 256, without a double -> int64 conversion, which SSE2 and
     * AVX2 lack (with it the loop did not vectorize). */
    j = (sc64_reduce_turns(ax, &y) + (use_cos ? 64u : 0u)) & 255u;
    r = sc64_turns_to_radians(y, 0.0);
    R = sc64_eval(j, r.hi, r.lo, &bound);
    bound = bound + 0x1p-102 * fabs(r.hi);
    v = sc64_round(R, bound, &differ);
    /* y == +-0 and j = 0 mod 128, on the bits (y's without its sign) */
    zero = kd_u64_nonzero((sc64_to_bits(y) << 1) | (j & 127u)) ^ 1u;
    ordinary = (uint64_t)(a - TP64_LOW_BITS < TP64_HIGH_BITS - TP64_LOW_BITS);
    big = (uint64_t)(a - TP64_BIG_BITS < SC64_INF_BITS - TP64_BIG_BITS);
    tiny = (uint64_t)(a < TP64_LOW_BITS);
    odd = (uint64_t)(a < TP64_ODD_BITS) & b;
    /* the value of each class, as bits */
    m = 0u - (ordinary & (zero ^ 1u));
    out = (sc64_to_bits(v) ^ (use_cos ? 0u : sign)) & m;
    m = 0u - (ordinary & zero);
    out |= (use_cos ? 0u : sign) & m;
    m = 0u - big;
    out |= (use_cos ? ((odd & 1u) ? 0xbff0000000000000u : SC64_ONE_BITS) : sign) & m;
    /* cospi below 2^-60: 1; sinpi of +-0: x.  Every other class is flagged. */
    if (use_cos) {
        out |= SC64_ONE_BITS & (0u - tiny);
        *flag = (ordinary & differ & (zero ^ 1u)) | ((ordinary | big | tiny) ^ 1u);
    } else {
        uint64_t is_zero = (uint64_t)(a == 0);
        out |= b & (0u - is_zero);
        *flag = (ordinary & differ & (zero ^ 1u)) | ((ordinary | big | is_zero) ^ 1u);
    }
    return out;
}

/* A float64 lane of a clean chunk: tp64_lane's ordinary class for 2^-60 <= |x| <
 * 2^44, with fewer operations.  With precise, the same results and flags; otherwise
 * with sc64_eval_quick (sincos64_quick.h) in place of sc64_eval, whose bound holds
 * for the same arguments (|r_h| <= (1/2) pi/128 (1 + 2e), |r_l| <= e |r_h| from the
 * two_sum), and which also returns the exact S = 0 or +-1 at j = 0 mod 64 with y = 0
 * (r = 0: z = rz = g = sg = 0, b = (0, 0), low = S_l = 0).  The pass evaluates the
 * lanes it leaves undecided again with precise (the same bits as tp64_lane where
 * that one decides).
 *   w = 128 |x|: exact (a power of 2; 2^-53 <= w < 2^51).  ks = RN(w + 1.5 2^52),
 *   kd = ks - 1.5 2^52 (exact) = the integer nearest w, ties to even (|w| < 2^51:
 *   the sum lies in (2^52, 2^53), where the ulp is 1), y = w - kd (exact).
 *   tp64_lane computes w' = 128 (|x| - 2q) = w - 256 q (exact, q an integer); rounding
 *   to the nearest integer, ties to even, commutes with subtracting the even integer
 *   256 q, so its kd' = kd - 256 q, y' = y and j' = j (mod 256; j from the bits of
 *   ks as there, 2^51 + kd being a multiple of 256 plus kd mod 256).
 *   r: tp64_lane's sc64_turns_to_radians(y, 0) computes p = two_prod(y, H), then
 *   kd_mul_add(y, L, kd_mul_add(0, H, p.lo)); the inner term is p.lo exactly (0 H = +0,
 *   and p.lo, the exact residual of y H, is +0 when it is zero: an exact zero sum of
 *   nonzero terms is +0 under round to nearest, and kernel_dd.h's FMA-free product adds
 *   +0 terms (a_lo = a - a_hi is +0 when zero) to any -0 one).  So dropping it changes
 *   nothing: r is the same double-double, and so are R, the bound, v and the flags.
 * The zeros are replaced as in tp64_lane; so are the outputs and the flags. */
#define TP64_CLEAN_HIGH_BITS 0x42b0000000000000u  /* 2^44 */
KD_INLINE uint64_t tp64_clean_lane(int use_cos, int precise, uint64_t b, uint64_t *flag)
{
    const uint64_t sign = b & ~(uint64_t)SC64_ABS_MASK;
    uint64_t differ, j, zero, m;
    double w = 128.0 * sc64_from_bits(b & SC64_ABS_MASK), ks, kd, y, q, bound, v;
    kdd_t p, r, R;
    ks = w + TP_SHIFTER;
    kd = ks - TP_SHIFTER;
    y = w - kd;
    j = (sc64_to_bits(ks) + (use_cos ? 64u : 0u)) & 255u;
    p = kd_two_prod(y, SC64_PI_128_H);
    q = kd_mul_add(y, SC64_PI_128_L, p.lo);
    r = kd_two_sum(p.hi, q);
    if (precise)
        R = sc64_eval(j, r.hi, r.lo, &bound);
    else
        R = sc64_eval_quick(j, r.hi, r.lo, &bound);
    bound = bound + 0x1p-102 * fabs(r.hi);
    v = sc64_round(R, bound, &differ);
    /* y == +-0 and j = 0 mod 128, on the bits (y's without its sign) */
    zero = kd_u64_nonzero((sc64_to_bits(y) << 1) | (j & 127u)) ^ 1u;
    m = 0u - zero;
    *flag = differ & (zero ^ 1u);
    return ((sc64_to_bits(v) ^ (use_cos ? 0u : sign)) & ~m) | ((use_cos ? 0u : sign) & m);
}

/* float32 lane.  X = |x| as a double (exact); ordinary: 2^-149 <= X < 2^23 (and
 * for cospi X >= 2^-29).  nd = RNint(X) (shifter, X < 2^23), t = X - nd: exact,
 * |t| <= 1/2 (X has 24 significant bits); sinpi(X) = (-1)^nd sin(pi t) and cospi(X)
 * = (-1)^nd cos(pi t) = (-1)^nd sin(pi s), s = 1/2 - |t|: exact, since t is a
 * multiple of ulp(X) >= 2^-52 for X >= 2^-29, so s is a multiple of 2^-52 in [0, 1/2].
 * sc32_eval(t or s) errs by <= 620.9u |f| - 3.15u (its reduction row: here the
 * argument is exact) relative (sincos32_core.h: the polynomial's bound holds for
 * |t| <= 1/2).  For |t| < 2^-13 (below its "ordinary" range) only underflow could
 * add error: z = RN(t^2) >= 2^-298 is normal; z2, z4 may underflow (z4 < 2^-1022
 * when |t| < 2^-127.75), adding at most 2^-1075 (coefficient <= 0.1) to q >= 2.8,
 * below 2^-1077 relative; y = RN(t q) >= 2^-147.3 is normal.  So the rounding test
 * sc32_undecided(y, 29) decides exactly as for sin, where the float32 result is
 * normal: lanes with |y| < 2^-126 (|x| < 2^-127.65, sinpi) are left to the stages.
 * The argument is 0 exactly at the zeros (sinpi at integers, cospi at half-integers):
 * there the special value (sinpi +-0 with x's sign, cospi +0) replaces y.  At the
 * other multiples of 1/2 the argument is +-1/2 and y = +-RN(Q(1/4)/2), within
 * 621 ulp of +-1: the rounding test passes and (float)y = +-1.
 * big, 2^23 <= X < inf: an integer: sinpi +-0, cospi (-1)^x (odd only below 2^24,
 * by the last bit).  cospi below 2^-29: 1; sinpi of +-0: x.  Left: inf, NaN. */
#define TP32_HIGH_BITS 0x4b000000u     /* 2^23 */
#define TP32_ODD_BITS 0x4b800000u      /* 2^24 */
#define TP32_INF_BITS 0x7f800000u
#define TP32_COS_LOW_BITS 0x31000000u  /* 2^-29 */

KD_INLINE uint32_t tp32_lane(int use_cos, int clean, uint32_t b, uint32_t *flag)
{
    (void)clean;  /* the clean float32 lanes: tp32_clean_lane */
    const uint32_t low = use_cos ? TP32_COS_LOW_BITS : 1u, sign = b & 0x80000000u;
    uint32_t a = b & 0x7fffffffu, ac, ordinary, big, below, zero, small, m, out, ybits;
    float xf;
    double X, nd, t, arg, y;
    uint64_t ysign;
    ac = a < low ? low : a;
    ac = ac > TP32_HIGH_BITS - 1u ? TP32_HIGH_BITS - 1u : ac;
    memcpy(&xf, &ac, sizeof xf);
    X = (double)xf;
    nd = (X + TP_SHIFTER) - TP_SHIFTER;
    t = X - nd;
    arg = use_cos ? 0.5 - fabs(t) : t;
    ysign = (sc64_to_bits(nd + TP_SHIFTER) & 1u) << 63;
    y = sc32_eval(arg, ysign);
    ordinary = (uint32_t)(a - low < TP32_HIGH_BITS - low);
    big = (uint32_t)(a - TP32_HIGH_BITS < TP32_INF_BITS - TP32_HIGH_BITS);
    below = (uint32_t)(a < low);  /* cospi: below 2^-29; sinpi: +-0 */
    zero = (uint32_t)(arg == 0.0);
    small = (uint32_t)(fabs(y) < 0x1p-126);
    xf = (float)y;
    memcpy(&ybits, &xf, sizeof ybits);
    m = 0u - (ordinary & (zero ^ 1u));
    out = (ybits ^ (use_cos ? 0u : sign)) & m;
    m = 0u - (ordinary & zero);
    out |= (use_cos ? 0u : sign) & m;
    m = 0u - big;
    out |= (use_cos ? (((uint32_t)(a < TP32_ODD_BITS) & b & 1u) ? 0xbf800000u : 0x3f800000u)
                    : sign) & m;
    out |= (use_cos ? 0x3f800000u : b) & (0u - below);
    *flag = (ordinary & (zero ^ 1u) & (small | sc32_undecided(y, 29))) |
            ((ordinary | big | below) ^ 1u);
    return out;
}

/* A float32 lane of a clean chunk: tp32_lane's ordinary class, for sinpi with the
 * narrower 2^-125 <= X < 2^23 (for cospi its whole 2^-29 <= X < 2^23), written as the
 * float32 sin/cos passes' clean lanes are (sincos_pass.h): the rounding test in 64-bit
 * lanes (sc32_undecided_top_float32: bit 63 set exactly when sc32_undecided(y, 29) is
 * 1) and no classification.  The same operations give the same y as tp32_lane, then:
 *   zeros (arg = 0): y = +-0, the sign from nd's parity; y + 0.0 is then +0 (round to
 *     nearest: -0 + +0 = +0) and equals y for every other y.  (float)(y + 0.0) ^ sign is
 *     thus sinpi's +-0 with x's sign and cospi's +0, the special values tp32_lane
 *     writes, and bits(+0) + 2^28 + 2^11 has bit 28 set, inside the tested field: the
 *     test passes, as tp32_lane's flag (zero ^ 1) says;
 *   small: never here.  sinpi: for X < 1/2, t = X >= 2^-125 and |y| >= 2 X (1 - 621 u)
 *     > 2^-126 (sin(pi t) >= 2t for |t| <= 1/2); for X >= 1/2, t is a multiple of
 *     ulp(X) >= 2^-24, so t = 0 (a zero) or |y| >= 2^-23.  cospi: arg = 1/2 - |t| is a
 *     multiple of 2^-52 (above), so 0 or |y| >= 2^-51.
 * So the output bits and the flag (test failed = bit 63) are tp32_lane's for these
 * lanes. */
#define TP32_SIN_CLEAN_LOW_BITS 0x01000000u  /* 2^-125 */
KD_INLINE uint32_t tp32_clean_lane(int use_cos, uint32_t b, uint64_t *undecided)
{
    const uint32_t sign = b & 0x80000000u;
    uint32_t out;
    float xf;
    double X, sh, nd, t, arg, y;
    memcpy(&xf, &b, sizeof xf);
    X = fabs((double)xf);
    sh = X + TP_SHIFTER;
    nd = sh - TP_SHIFTER;
    t = X - nd;
    arg = use_cos ? 0.5 - fabs(t) : t;
    y = sc32_eval(arg, sc64_to_bits(sh) << 63) + 0.0;
    *undecided = sc32_undecided_top_float32(y);
    xf = (float)y;
    memcpy(&out, &xf, sizeof out);
    return use_cos ? out : out ^ sign;
}
#endif

/* Loops per (function, format, chunk kind): use_cos is a constant in each, so the
 * lanes have no control flow and the loops vectorize.  The value loops compute every
 * output and OR the lanes' flags; the clean loops serve chunks whose lanes are all
 * ordinary (the classification and its masks left out; the same bits and flags, see
 * the lanes).  Only a call with an undecided lane runs the flags loop, which computes
 * the general lanes again (the same operations: the same flags) to store each flag. */
#if defined(__GNUC__) && !defined(__clang__)
#define TRIGPI_CLEAN_VECTORIZE __attribute__((optimize("tree-vectorize", "schedule-insns", "sched-pressure")))
#else
#define TRIGPI_CLEAN_VECTORIZE
#endif
CRTRIG_PASS_LANE_LOOPS(TRIGPI_VECTORIZE, tp64_sinpi, uint64_t, 8, uint64_t, tp64_lane(0, 0, b, &f))
CRTRIG_PASS_LANE_LOOPS(TRIGPI_VECTORIZE, tp64_cospi, uint64_t, 8, uint64_t, tp64_lane(1, 0, b, &f))
CRTRIG_PASS_LANE_LOOPS(TRIGPI_VECTORIZE, tp32_sinpi, uint32_t, 4, uint32_t, tp32_lane(0, 0, b, &f))
CRTRIG_PASS_LANE_LOOPS(TRIGPI_VECTORIZE, tp32_cospi, uint32_t, 4, uint32_t, tp32_lane(1, 0, b, &f))

/* float64 clean loops (tp64_clean_lane with the quick evaluation): each lane's flag
 * in flags[i], and their OR returned.  restrict: in and out never overlap (the pass's
 * contract) and flags is the pass's own array, so the loop needs no alias check. */
#define TRIGPI_CLEAN_LOOP64(NAME, USE_COS)                                                 \
    TRIGPI_CLEAN_VECTORIZE static uint64_t NAME(const char *restrict in, char *restrict out, \
                                                size_t n, uint64_t *restrict flags)        \
    {                                                                                    \
        uint64_t any = 0;                                                                \
        size_t i;                                                                        \
        for (i = 0; i < n; i++) {                                                        \
            uint64_t b, o;                                                               \
            memcpy(&b, in + 8 * i, sizeof b);                                            \
            o = tp64_clean_lane(USE_COS, 0, b, &flags[i]);                               \
            memcpy(out + 8 * i, &o, sizeof o);                                           \
            any |= flags[i];                                                             \
        }                                                                                \
        return any;                                                                      \
    }
TRIGPI_CLEAN_LOOP64(tp64_sinpi_clean, 0)
TRIGPI_CLEAN_LOOP64(tp64_cospi_clean, 1)

/* The lanes of a clean chunk that the quick evaluation left undecided, again with the
 * precise one (a few in 10^4: kept out of the vectorized loops); returns the OR of
 * the new flags. */
static uint64_t tp64_refine(int use_cos, const char *in, char *out, size_t n, uint64_t *flags)
{
    uint64_t any = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        if (flags[i]) {
            uint64_t b, o;
            memcpy(&b, in + 8 * i, sizeof b);
            o = use_cos ? tp64_clean_lane(1, 1, b, &flags[i]) : tp64_clean_lane(0, 1, b, &flags[i]);
            memcpy(out + 8 * i, &o, sizeof o);
            any |= flags[i];
        }
    }
    return any;
}

/* float32 clean loops (tp32_clean_lane), which also check that the chunk is clean, as
 * sincos_pass.h's do: they keep the largest |b| - low (unsigned: lanes below low wrap
 * to huge values) and set *outside when it reaches 2^23 - low (the chunk is then
 * computed again by the general loop).  Returns bit 63 of the OR of the tests. */
#define TRIGPI_CLEAN_LOOP32(NAME, USE_COS, LOW)                                              \
    TRIGPI_CLEAN_VECTORIZE static uint64_t NAME(const char *in, char *out, size_t n,       \
                                                uint32_t *outside)                         \
    {                                                                                    \
        uint64_t any = 0;                                                                \
        uint32_t spread = 0;                                                             \
        size_t i;                                                                        \
        for (i = 0; i < n; i++) {                                                        \
            uint32_t b, o, d;                                                            \
            uint64_t u;                                                                  \
            memcpy(&b, in + 4 * i, sizeof b);                                            \
            d = (b & 0x7fffffffu) - (LOW);                                               \
            spread = d > spread ? d : spread;                                            \
            o = tp32_clean_lane(USE_COS, b, &u);                                         \
            memcpy(out + 4 * i, &o, sizeof o);                                           \
            any |= u;                                                                    \
        }                                                                                \
        *outside = spread >= TP32_HIGH_BITS - (LOW);                                     \
        return any >> 63;                                                                \
    }
TRIGPI_CLEAN_LOOP32(tp32_sinpi_clean, 0, TP32_SIN_CLEAN_LOW_BITS)
TRIGPI_CLEAN_LOOP32(tp32_cospi_clean, 1, TP32_COS_LOW_BITS)

enum { TRIGPI_CHUNK = 256 };

/* Whether every element of a float64 chunk is clean: 2^-60 <= |x| < 2^44, compared
 * on the high 32 bits of |x| (both thresholds' low 32 bits are zero: the same
 * answer), which vectorizes on SSE2 too (sc64_chunk_kind). */
TRIGPI_VECTORIZE static int tp64_all_ordinary(const char *in, size_t n)
{
    uint32_t outside = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        uint64_t b;
        uint32_t hi;
        memcpy(&b, in + 8 * i, sizeof b);
        hi = (uint32_t)(b >> 32) & 0x7fffffffu;
        outside |= hi - (uint32_t)(TP64_LOW_BITS >> 32) >= (uint32_t)((TP64_CLEAN_HIGH_BITS - TP64_LOW_BITS) >> 32);
    }
    return outside == 0;
}

/* First pass over count contiguous float64 (or float32) elements, func CRTRIG_SINPI
 * or CRTRIG_COSPI (in and out must not overlap): out[i] for every i, and, when it
 * returns 1, undecided[i] as above (nonzero for some i); when it returns 0, every
 * out[i] is final and undecided[] need not be read (the array kernel reads it only
 * after a nonzero return).  float64 writes undecided[] chunk by chunk: a clean
 * chunk's flags after its refinement, another chunk's from its flags loop (the
 * general lanes again) when it has an undecided lane, else zeros. */
int CRTRIG_KERNEL(trigpi_pass_float64)(int func, const char *in, char *out, size_t count,
                                       unsigned char *undecided)
{
    const int use_cos = func == 3; /* CRTRIG_COSPI */
    uint64_t any = 0, flags[TRIGPI_CHUNK];
    size_t start;
    for (start = 0; start < count; start += TRIGPI_CHUNK) {
        size_t n = count - start < TRIGPI_CHUNK ? count - start : TRIGPI_CHUNK;
        const char *src = in + 8 * start;
        char *dst = out + 8 * start;
        uint64_t left;
        if (tp64_all_ordinary(src, n)) {
            left = (use_cos ? tp64_cospi_clean : tp64_sinpi_clean)(src, dst, n, flags);
            if (left)
                left = tp64_refine(use_cos, src, dst, n, flags);
            sc64_store_flags(undecided + start, flags, n, left);
        } else {
            left = (use_cos ? tp64_cospi : tp64_sinpi)(src, dst, n);
            if (left)
                (use_cos ? tp64_cospi_flags : tp64_sinpi_flags)(src, n, undecided + start);
            else
                memset(undecided + start, 0, n);
        }
        any |= left;
    }
    return any != 0;
}

int CRTRIG_KERNEL(trigpi_pass_float32)(int func, const char *in, char *out, size_t count,
                                       unsigned char *undecided)
{
    const int use_cos = func == 3; /* CRTRIG_COSPI */
    uint64_t any = 0;
    size_t start;
    for (start = 0; start < count; start += TRIGPI_CHUNK) {
        size_t n = count - start < TRIGPI_CHUNK ? count - start : TRIGPI_CHUNK;
        const char *src = in + 4 * start;
        char *dst = out + 4 * start;
        uint32_t outside;
        uint64_t clean = (use_cos ? tp32_cospi_clean : tp32_sinpi_clean)(src, dst, n, &outside);
        if (outside)
            any |= (use_cos ? tp32_cospi : tp32_sinpi)(src, dst, n);
        else
            any |= clean;
    }
    if (!any)
        return 0;
    (use_cos ? tp32_cospi_flags : tp32_sinpi_flags)(in, count, undecided);
    return 1;
}
