"""The exp-based windows of crtrig.windows (gaussian, general_gaussian, exponential):
w = exp(-q) with an exact rational q, correctly rounded.

Every element is q = s (|x| d)^P with x an integer (x = 2n - (L - 1), or n cd - cn
for exponential's own centre), d > 0 an exact rational, s in {1/2, 1} and an
integer power 1 <= P <= 1024.  The C core (src/core/exp.c) evaluates exp(-q) in
double-double with a proven bound (directly, or for P <= 2 by a recurrence in
blocks of 64) and decides the rounding of almost every element; the few it cannot
decide (an enclosure straddling a rounding boundary) are finished here, exactly, in
Python integers (:func:`exp_neg_rounded`: an enclosure of exp(-q) that is tightened until
both ends round alike; it terminates since exp(-q) is transcendental for q != 0).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

from . import _core
from ._dtypes import bfloat16_dtype, output_code

#: (precision, emin) of the float formats by C code (float16, bfloat16, float32, float64).
FORMATS = {0: (11, -14), 1: (8, -126), 2: (24, -126), 3: (53, -1022)}
FLOAT32_CODE = 2
#: An upper bound of ln 2 = 0.693147180559945...
_LN2_UP = Fraction(6931471806, 10**10)
MAX_POWER = _core.EXP_MAX_POWER


def round_fixed(N: int, F: int, fmt: int) -> float:
    """N / 2^F (N >= 0) rounded once to nearest-even into format `fmt` (subnormals
    included), as the float of the same value; integers only, then an exact ldexp."""
    if N == 0:
        return 0.0
    p, emin = FORMATS[fmt]
    e = N.bit_length() - 1 - F            # 2^e <= N/2^F < 2^(e+1)
    quantum = max(e - p + 1, emin - p + 1)  # exponent of the last kept bit
    shift = F + quantum                   # N/2^F = (N / 2^shift) 2^quantum
    if shift <= 0:  # N/2^F is an integer multiple of 2^quantum: exact
        return _ldexp(N << -shift, quantum)
    m, rest = N >> shift, N & ((1 << shift) - 1)
    half = 1 << (shift - 1)
    if rest > half or (rest == half and m & 1):
        m += 1
    return _ldexp(m, quantum)


def _ldexp(m: int, e: int) -> float:
    """m 2^e for an integer m of at most 54 bits whose value is a double: exact."""
    return math.ldexp(float(m), e)


def exp_neg_rounded(q: Fraction, fmt: int) -> float:
    """exp(-q) for an exact rational q >= 0, correctly rounded into format `fmt`.

    q == 0 gives 1.  q above (p - emin) ln 2 gives 0 (exp(-q) below half the
    smallest subnormal).  Otherwise an enclosure [L, U] / 2^F is computed with
    integers: t = q / 2^m <= 1/2, exp(-t) by its alternating Taylor series (each
    term T_j = T_{j-1} t / j floored: a computed term is at most j ulps below the
    true one; the series stops at the first zero term, whose true value, and so
    the remainder, is at most J ulps: a total error <= J (J + 3)/2 ulps), then
    squared m times, rounding L down and U up (squaring is monotone on positive
    numbers).  If L and U round alike that is the answer; else F doubles.  exp(-q)
    is not a rounding boundary (irrational for rational q != 0), so this ends."""
    if q < 0:
        raise ValueError("exp_neg_rounded: q must be >= 0")
    if q == 0:
        return 1.0
    p, emin = FORMATS[fmt]
    if q > (p - emin) * _LN2_UP:
        return 0.0
    a, b = q.numerator, q.denominator
    m = 0
    while 2 * a > b << m:  # t = a / (b 2^m) <= 1/2
        m += 1
    b <<= m
    F = p + 64 + m + int(q * 3 // 2) + 16   # -log2 exp(-q) = 1.4427 q < 1.5 q
    while True:
        one = 1 << F
        term, total, j = one, one, 0
        while term:
            j += 1
            term = term * a // (b * j)
            total += -term if j & 1 else term
        err = j * (j + 3) // 2 + 2
        lo, hi = max(total - err, 1), total + err
        for _ in range(m):
            lo = (lo * lo) >> F
            hi = -((-hi * hi) >> F)
        low, high = round_fixed(lo, F, fmt), round_fixed(hi, F, fmt)
        if low == high:
            return low
        F *= 2


#: The range of d the C fill takes (exp.c: 2^-600 <= d_hi <= 2^600).
_TWO_600 = Fraction(2) ** 600
_TWO_M600 = Fraction(2) ** -600


@functools.lru_cache(maxsize=256)
def _fill_constants(d: Fraction):
    """dd_of(d) for d in [2^-600, 2^600], else None (cached per d)."""
    return None if d > _TWO_600 or d < _TWO_M600 else dd_of(d)


def dd_of(d: Fraction) -> tuple[float, float]:
    """d_hi = RN(d), d_lo = RN(d - d_hi): |d - d_hi - d_lo| <= 2^-106 d for d in the
    normal range (Python's int / int division is correctly rounded)."""
    hi = d.numerator / d.denominator
    rest = d - Fraction(hi)
    lo = rest.numerator / rest.denominator
    return hi, lo


def format_code(dt) -> int:
    """The float format an output dtype is computed in (integers: float32)."""
    code = output_code(dt)
    return code if code <= 3 else FLOAT32_CODE


def q_of(x: int, d: Fraction, s: Fraction, P: int) -> Fraction:
    """The exact argument s (|x| d)^P."""
    return s * (abs(x) * d) ** P


def _values(x0: int, step: int, count: int, d: Fraction, s: Fraction, P: int, fmt: int) -> np.ndarray:
    """exp(-s (|x0 + i step| d)^P) for i < count, correctly rounded into fmt (float64
    values of the format)."""
    if count == 0:
        return np.empty(0, dtype=np.float64)
    if max(abs(x0), abs(x0 + (count - 1) * step)) >= 2**53:
        raise ValueError("the window is too long for crtrig's exp windows (|x| must stay below 2**53)")
    constants = _fill_constants(d)
    if constants is None:
        # d > 2^600: q >= (1/2) 2^600 for x != 0 (exp(-q) rounds to 0); d < 2^-600:
        # q < (2^53 2^-600)^P < 2^-56 (rounds to 1).  x == 0 gives exp(0) = 1.
        x = x0 + step * np.arange(count, dtype=np.float64)
        return np.where(x == 0, 1.0, 0.0 if d > 1 else 1.0)
    d_hi, d_lo = constants
    values, missing = _core.exp_affine_fill(float(x0), float(step), count, d_hi, d_lo, float(s), P, fmt)
    for i in missing.tolist():
        values[i] = exp_neg_rounded(q_of(x0 + i * step, d, s, P), fmt)
    return values


def _cast(values: np.ndarray, dt) -> np.ndarray:
    """float64 values that are values of dt's format (or of float32 for integer
    dtypes, then truncated as numpy's astype does) into dt: exact."""
    if dt == np.float64:
        return values
    if output_code(dt) == 1:
        return values.astype(np.float32).astype(bfloat16_dtype())
    if dt.kind == "f":
        return values.astype(dt)
    return values.astype(np.float32).astype(dt)


def window(L: int, M: int, d: Fraction, s: Fraction, P: int, dt, center=None) -> np.ndarray:
    """The first M values of the exp window of L points (L = M, or M + 1 for a
    periodic window), in dtype dt.  center None: x = 2n - (L - 1), computed for the
    first ceil(L/2) points and mirrored (w[n] = w[L - 1 - n]); center = (cn, cd):
    x = n cd - cn for n < M, each computed."""
    dt = np.dtype(dt)
    fmt = format_code(dt)
    if center is not None:
        cn, cd = center
        return _cast(_values(-cn, cd, M, d, s, P, fmt), dt)
    half = (L + 1) // 2
    values = _values(-(L - 1), 2, half, d, s, P, fmt)
    result = np.empty(M, dtype=np.float64)
    n = min(half, M)
    result[:n] = values[:n]
    # w[i] = values[L - 1 - i] for i = half .. M - 1.
    if M > half:
        result[half:] = values[L - 1 - half:L - 1 - M:-1] if L - 1 - M >= 0 else values[L - 1 - half::-1]
    return _cast(result, dt)


# ---------------------------------------------------------------------------
# general_gaussian with a real power: w = exp(-(1/2) y^P), y = |x| d, P = 2p a
# rational that is not an integer.  Everything below is exact integer arithmetic
# on fixed-point enclosures (value = N / 2^F), every step rounded outward.
#
# Termination.  y > 0 and P are rational, so y^P = (y^a)^(1/b) (P = a/b) is
# algebraic and q = y^P / 2 is a nonzero algebraic number; by Lindemann's theorem
# exp(-q) is then transcendental: never a rounding boundary of any format (those
# are dyadic rationals) nor half the smallest subnormal.  The enclosures below
# shrink to the value as F grows (their widths are O(F^2 2^-F) times factors fixed
# by y and P), so doubling F until both ends round alike ends.  The number of
# doublings is not bounded a priori (no measure of how close exp(-q) can come to a
# boundary is known), so the loop stops at POWER_MAX_BITS and raises
# ArithmeticError: that has not been seen, and would need an exp(-q) within about
# 2^-65000 of a rounding boundary.
# ---------------------------------------------------------------------------

#: The precision cap of the real-power path (fraction bits of the fixed point).
POWER_MAX_BITS = 1 << 16


def _atanh_bounds(u: int, v: int, F: int) -> tuple[int, int]:
    """[lo, hi] with lo <= atanh(u/v) 2^F <= hi, for integers 0 <= u, 3u <= v.

    Powers T_k = floor(T_{k-1} u^2 / v^2) (T_0 = floor(2^F u / v)) are below
    2^F t^(2k+1) by less than 1/(1 - t^2) < 9/8 ulp each (each floor loses < 1,
    and the earlier losses are multiplied by t^2 <= 1/9); the terms floor(T_k /
    (2k+1)) are below the true terms by < 9/8 + 1 ulp.  The sum of the computed
    terms is a lower bound; once T_K = 0 the true T_K is below 9/8 ulp and the tail
    sum_{k >= K} t^(2k+1)/(2k+1) below 9/8 (9/8) < 2 ulp.  So hi = lo + 3 K + 2
    (K terms, each within 17/8 < 3)."""
    T = (u << F) // v
    u2, v2 = u * u, v * v
    total, k = 0, 0
    while T:
        total += T // (2 * k + 1)
        k += 1
        T = T * u2 // v2
    return total, total + 3 * k + 2


@functools.lru_cache(maxsize=16)
def _ln2_bounds(F: int) -> tuple[int, int]:
    """ln 2 = 2 atanh(1/3), enclosed at F fraction bits."""
    lo, hi = _atanh_bounds(1, 3, F)
    return 2 * lo, 2 * hi


def _ln_bounds(y: Fraction, F: int) -> tuple[int, int]:
    """[lo, hi] enclosing ln(y) 2^F for a rational y > 0: y = 2^e m, m in [1, 2),
    ln y = e ln 2 + 2 atanh((m - 1)/(m + 1)), (m - 1)/(m + 1) in [0, 1/3)."""
    a, b = y.numerator, y.denominator
    e = a.bit_length() - b.bit_length()
    if (a << max(-e, 0)) < (b << max(e, 0)):  # y < 2^e
        e -= 1
    # m = a / (b 2^e) = ma / mb
    ma, mb = (a, b << e) if e >= 0 else (a << -e, b)
    t_lo, t_hi = _atanh_bounds(ma - mb, ma + mb, F)
    l2_lo, l2_hi = _ln2_bounds(F)
    if e >= 0:
        return e * l2_lo + 2 * t_lo, e * l2_hi + 2 * t_hi
    return e * l2_hi + 2 * t_lo, e * l2_lo + 2 * t_hi


def _exp_bounds(X: int, F: int) -> tuple[int, int]:
    """[lo, hi] enclosing exp(X / 2^F) 2^F (X any integer, |X| 2^-F <= 2^12), lo >= 0.

    t = |X| / 2^(F + m) <= 1/2; exp(+-t) by its Taylor series with floored terms
    T_j = floor(T_{j-1} |X| / (2^(F+m) j)) (T_0 = 2^F): T_j is below the true term by
    at most j ulps (as in exp_neg_rounded), the series stops at the first T_J = 0,
    whose true value is below J ulps, and the tail after it below twice that (ratio
    <= 1/2): the sum is within J (J + 1)/2 + 2 J + 1 ulps, taken as err below for
    both signs (the alternating one errs less).  Then m squarings, lo floored and hi
    ceiled (squaring is monotone on non-negative numbers)."""
    A = abs(X)
    m = 0
    while A > 1 << (F - 1 + m):
        m += 1
    den = 1 << (F + m)
    one = 1 << F
    term, total, j = one, one, 0
    while term:
        j += 1
        term = term * A // (den * j)
        total += -term if X < 0 and j & 1 else term
    err = j * (j + 1) // 2 + 2 * j + 1
    lo, hi = max(total - err, 0), total + err
    for _ in range(m):
        lo = (lo * lo) >> F
        hi = -((-hi * hi) >> F)
    return lo, hi


def exp_neg_half_power_rounded(y: Fraction, P: Fraction, fmt: int) -> float:
    """exp(-(1/2) y^P) for rationals y >= 0 and P > 0, correctly rounded into format
    `fmt` (the float of the same value); y = 0 gives 1.

    With F fraction bits: ln y enclosed (_ln_bounds), Z = P ln y - ln 2 (outward:
    floor and ceiling of the products, the ends of ln 2 on the right sides), so q =
    y^P / 2 = exp(Z).  Z_hi <= -57 ln2_hi: q < 2^-57, exp(-q) in (1 - 2^-57, 1):
    rounds to 1 in every format of <= 53 bits (exp.c's argument).  Z_lo > 8: q >
    e^8 > 2980 > 745.2 >= (p - emin) ln 2: below half the smallest subnormal, 0.
    Else q in [exp(Z_lo), exp(Z_hi)] (_exp_bounds), then w in [exp(-q_hi),
    exp(-q_lo)] (the fixed-point q's ends as the arguments: q_hi / 2^F >= q, so
    exp(-q_hi/2^F) <= w); both ends rounded (round_fixed); equal ends are the
    answer, else F doubles, up to POWER_MAX_BITS (ArithmeticError beyond: see the
    section's comment)."""
    if y == 0:
        return 1.0
    p, emin = FORMATS[fmt]
    a, b = P.numerator, P.denominator
    # A first F: the value's own bits and exponent (exp(-q) >= 2^-1.45 q), the
    # amplification of ln y's error by P, and guard bits; where a float estimate
    # puts q far beyond the thresholds (the 0 and 1 decisions above), a short
    # first try (only speed depends on the estimate).
    try:
        estimate = 0.5 * float(y) ** float(P)
    except OverflowError:
        estimate = math.inf
    if estimate > 1500.0 or estimate < 2.0 ** -80:
        F = 64 + a.bit_length() + b.bit_length()
    else:
        F = p + 64 + int(1.5 * estimate) + a.bit_length() + b.bit_length() + 16
    while F <= POWER_MAX_BITS:
        l_lo, l_hi = _ln_bounds(y, F)
        l2_lo, l2_hi = _ln2_bounds(F)
        z_lo = (a * l_lo) // b - l2_hi
        z_hi = -((-a * l_hi) // b) - l2_lo
        if z_hi <= -57 * l2_hi:
            return 1.0
        if z_lo > 8 << F:
            return 0.0
        if z_hi > 8 << F:  # q's upper end beyond e^8: exp(-q) bounded below by 0
            q_lo, _ = _exp_bounds(z_lo, F)
            if q_lo > ((p - emin) * _LN2_UP.numerator << F) // _LN2_UP.denominator + 1:
                return 0.0
            F *= 2
            continue
        q_lo, _ = _exp_bounds(z_lo, F)
        _, q_hi = _exp_bounds(z_hi, F)
        if q_lo > ((p - emin) * _LN2_UP.numerator << F) // _LN2_UP.denominator + 1:
            return 0.0  # q > (p - emin) ln 2: exp(-q) below half the smallest subnormal
        w_lo, _ = _exp_bounds(-q_hi, F)
        _, w_hi = _exp_bounds(-q_lo, F)
        low, high = round_fixed(w_lo, F, fmt), round_fixed(w_hi, F, fmt)
        if low == high:
            return low
        F *= 2
    raise ArithmeticError("general_gaussian: exp(-(1/2) y^P) not decided within "
                          f"{POWER_MAX_BITS} bits (see crtrig._exp_windows)")


def _real_power_values(x0: int, step: int, count: int, d: Fraction, P: Fraction, fmt: int) -> np.ndarray:
    """exp(-(1/2) (|x0 + i step| d)^P) for i < count, correctly rounded into fmt: the C
    fill (src/core/exp_pass.h: a double-double log and exp with a composed bound and a
    rounding test) where its domain allows, each undecided element (and every element
    outside that domain: d beyond 2^+-600, |x| from 2^53) by exp_neg_half_power_rounded."""
    if count == 0:
        return np.empty(0, dtype=np.float64)
    constants = _fill_constants(d)
    if max(abs(x0), abs(x0 + (count - 1) * step)) < 2**53 and constants is not None:
        d_hi, d_lo = constants
        p_hi, p_lo = dd_of(P)
        values, missing = _core.exp_real_fill(float(x0), float(step), count, d_hi, d_lo, p_hi, p_lo, fmt)
        todo = missing.tolist()
    else:
        values = np.empty(count, dtype=np.float64)
        todo = range(count)
    for i in todo:
        values[i] = exp_neg_half_power_rounded(abs(x0 + i * step) * d, P, fmt)
    return values


def window_real_power(L: int, M: int, d: Fraction, P: Fraction, dt) -> np.ndarray:
    """general_gaussian's window for a non-integer P = 2p > 0: the first M values of
    the L-point window w[n] = exp(-(1/2) (|x| d)^P), x = 2n - (L - 1), in dtype dt
    (the first ceil(L/2) computed by _real_power_values, then mirrored)."""
    dt = np.dtype(dt)
    fmt = format_code(dt)
    half = (L + 1) // 2
    values = _real_power_values(-(L - 1), 2, half, d, P, fmt)
    result = np.empty(M, dtype=np.float64)
    n = min(half, M)
    result[:n] = values[:n]
    if M > half:
        result[half:] = values[L - 1 - half:L - 1 - M:-1] if L - 1 - M >= 0 else values[L - 1 - half::-1]
    return _cast(result, dt)
