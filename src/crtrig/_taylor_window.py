"""crtrig.windows.taylor: scipy's Taylor window, correctly rounded.

scipy's definition (scipy.signal.windows.taylor), read as real numbers: with
B = 10^(sll/20), A = acosh(B)/pi, K = nbar - 1 and, for m = 1 .. K,

    F_m = (-1)^(m+1) prod_{n=1}^{K} (1 - m^2 (A^2 + (nbar - 1/2)^2) / (nbar^2 (A^2 + (n - 1/2)^2)))
          / (2 prod_{n != m, 1 <= n <= K} (1 - m^2/n^2)),

the window of L points (L = M, or M + 1 for scipy's periodic extension, then the first
M) is W(n) = 1 + 2 sum_m F_m cos(2 pi m (n - L/2 + 1/2)/L) = 1 + 2 sum_m F_m cos(pi m j/L),
j = 2n - L + 1, and norm=True divides by W at the centre j = 0, 1 + 2 sum_m F_m.  So

    w = a_0 + sum_{m=1}^{K} a_m cos(pi m j/L),  a_0 = 1, a_m = 2 F_m   (norm=False)
                                                 divided by 1 + 2 sum F_m (norm=True).

With T = 4 A^2, P = (2 nbar - 1)^2, Q_n = (2n - 1)^2 the numerator's factors are
((nbar^2 - m^2) T + nbar^2 Q_n - m^2 P) / (nbar^2 (T + Q_n)): rational in T.

The a_m are computed here as integer enclosures (interval arithmetic on integers at
2^-F, every operation rounded outward; ln 10 and ln(1 + v) from atanh series, exp from
its series, pi from reference._pi_fixed, square roots from math.isqrt), tightened until
each is at most 2^-116 of itself wide, then rounded to double-doubles within 2^-105 of
themselves (coefficients_dd).  The C core (src/core/window_taylor.c) sums the cosine
series in double-double with a proven bound and decides almost every element; the
undecided ones are finished here (value_rounded) with the same integer enclosures at
increasing precision until both ends round alike.

Exact values.  A = ln(x)/pi with x = B + sqrt(B^2 - 1) algebraic (B = 10^(sll/20),
sll rational) and x > 1 when sll > 0; if A were algebraic, x = e^(pi A) = (-1)^(-iA)
would be transcendental by Gelfond-Schneider (-iA algebraic and not rational), so A,
and T = 4 A^2, are transcendental.  Each w is R(T) for a rational function R with
algebraic coefficients (the cosines are algebraic), so w is rational only where R is
constant in T: the centre of a normalised window (w = 1, handled exactly) is such a
point; whether any other is, is not proven here.  The loop is therefore bounded by a
cap (2^16 bits): past it ArithmeticError, not a proof.  (Values that are floats, such
as 1, are decided by a shrinking enclosure anyway; only a rounding boundary, a midpoint
between two floats of the format, would never be.)  For sll = 0 (A = 0) every value is
algebraic and the same cap applies."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import isqrt

import numpy as np

from . import _core
from ._exp_windows import _cast, format_code, round_fixed
from ._sinc_windows import _sincospi
from .reference import _pi_fixed

#: nbar is at most this (scipy's float64 products overflow to NaN a little above 400).
MAX_NBAR = 400
#: sll (dB) is at most this (scipy's 10**(sll/20) overflows at about 6165).
MAX_SLL = 6000
#: L (the symmetric length) is at most this (the C core's sinpi table).
MAX_L = _core.TAYLOR_MAX_L
#: sum |a_m| must stay below this for the C stage (and for float16's range, with room).
MAX_SUM = _core.TAYLOR_MAX_SUM
_MAX_BITS = 1 << 16
_FIRST_BITS = 256


# --- interval arithmetic on integers: (lo, hi) stands for [lo/2^F, hi/2^F] -------------

def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


def _iv_mul(a, b, F):
    products = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
    return min(products) >> F, -((-max(products)) >> F)


def _iv_div(a, b, F):
    """a/b for an interval b that excludes 0."""
    if b[0] <= 0 <= b[1]:
        raise ZeroDivisionError("interval divisor contains 0")
    quotients_lo = [(x << F) // y for x in a for y in b]
    quotients_hi = [_ceil_div(x << F, y) for x in a for y in b]
    return min(quotients_lo), max(quotients_hi)


def _iv_sqrt(a, F):
    lo = isqrt(max(a[0], 0) << F)
    hi_arg = max(a[1], 0) << F
    hi = isqrt(hi_arg)
    if hi * hi < hi_arg:
        hi += 1
    return lo, hi


def _atanh_inverse(k: int, F: int) -> tuple[int, int]:
    """atanh(1/k) (k >= 3): power_i = floor(2^F/k^(2i+1)) exactly (nested floors), each
    term floor(power_i/(2i+1)) below the true one by less than 1; the loop stops at
    power_N = 0 (2^F/k^(2N+1) < 1), so the omitted tail is below sum_i k^(-2i) < 9/8.
    The true value lies in [total, total + N + 2]."""
    total, power, index = 0, (1 << F) // k, 0
    k2 = k * k
    while power:
        total += power // (2 * index + 1)
        power //= k2
        index += 1
    return total, total + index + 2


def _atanh_fixed(u: int, F: int) -> tuple[int, int]:
    """atanh(u/2^F) for 0 <= u <= 2^F/3.  u2 = floor(u^2/2^F) is below U2 = u^2/2^F by
    less than 1; p_i = floor(p_(i-1) u2/2^F) (p_0 = u) falls short of the true power
    P_i = P_(i-1) U2/2^F by e_i <= e_(i-1)/9 + p_(i-1)/2^F + 1 < e_(i-1)/9 + 2, so
    e_i < 2.25; each term floor(p_i/(2i+1)) then is below P_i/(2i+1) by less than
    3.25.  The loop stops at p_N = 0 (P_N < 2.25): the true tail from N on is below
    2.25 sum 9^-i < 2.6.  The true value lies in [total, total + 3.25 N + 3]."""
    u2 = (u * u) >> F
    total, power, index = 0, u, 0
    while power:
        total += power // (2 * index + 1)
        power = (power * u2) >> F
        index += 1
    return total, total + (13 * index + 3) // 4 + 3


def _exp_fixed(x: int, F: int) -> tuple[int, int]:
    """exp(x/2^F) for 0 <= x < 2^F: t_0 = 2^F, t_i = floor(t_(i-1) x/(i 2^F)) (one floor of
    the nested shift and division), short of the true term T_i by e_i = (x/(i 2^F))
    e_(i-1) + d_i, d_i in [0, 1): e_i < 2.  The loop stops at t_N = 0 (T_N = e_N < 2),
    and the tail from N on is below 2 T_N < 4 (ratios below 1/2 from i = 2 on).  The
    true value lies in [total, total + 2N + 4]."""
    total, term, index = 1 << F, 1 << F, 1
    while term:
        term = ((term * x) >> F) // index
        total += term
        index += 1
    return total, total + 2 * index + 4


@lru_cache(maxsize=64)
def _ln10(F: int) -> tuple[int, int]:
    """ln 10 = 3 ln 2 + ln(5/4) = 6 atanh(1/3) + 2 atanh(1/9)."""
    a3, b3 = _atanh_inverse(3, F)
    a9, b9 = _atanh_inverse(9, F)
    return 6 * a3 + 2 * a9, 6 * b3 + 2 * b9


def _t_interval(sll: Fraction, F: int) -> tuple[int, int]:
    """T = 4 A^2 = 4 (acosh(B)/pi)^2, B = 10^(sll/20), 0 <= sll <= MAX_SLL.
    acosh(B) = ln B + ln(1 + v), v = sqrt(1 - B^-2), ln B = sll ln 10/20, ln(1 + v) =
    2 atanh(v/(2 + v)) (v/(2 + v) in [0, 1/3)); B^-2 = 10^(-sll/10) = 10^-i / exp(f ln 10)^...
    with sll/10 = i + f (i an integer, 0 <= f < 1): exp(f ln 10) = exp(f ln 10/4)^4,
    f ln 10/4 < 0.58.  Every step is monotone or an interval operation, rounded outward."""
    if sll == 0:
        return 0, 0
    ln10 = _ln10(F)
    tenth = sll / 10
    i = tenth.numerator // tenth.denominator
    f = tenth - i
    # x = f ln 10 / 4 (f >= 0, ln10 > 0): floor/ceil of the exact products
    x_lo = (ln10[0] * f.numerator) // (4 * f.denominator)
    x_hi = _ceil_div(ln10[1] * f.numerator, 4 * f.denominator)
    e_lo = _exp_fixed(x_lo, F)[0]
    e_hi = _exp_fixed(x_hi, F)[1]
    e = (e_lo, e_hi)
    e4 = _iv_mul(_iv_mul(e, e, F), _iv_mul(e, e, F), F)
    big = (e4[0] * 10**i, e4[1] * 10**i)
    inv = _iv_div((1 << F, 1 << F), big, F)       # B^-2
    v = _iv_sqrt(((1 << F) - inv[1], (1 << F) - inv[0]), F)
    # u = v/(2 + v) increases with v
    two = 2 << F
    u_lo = (v[0] << F) // (two + v[0])
    u_hi = _ceil_div(v[1] << F, two + v[1])
    at_lo = _atanh_fixed(u_lo, F)[0]
    at_hi = _atanh_fixed(u_hi, F)[1]
    # ln B = sll ln10 / 20
    lnb_lo = (ln10[0] * sll.numerator) // (20 * sll.denominator)
    lnb_hi = _ceil_div(ln10[1] * sll.numerator, 20 * sll.denominator)
    acosh = (lnb_lo + 2 * at_lo, lnb_hi + 2 * at_hi)
    pi, err = _pi_fixed(F)
    A = _iv_div(acosh, (pi - err, pi + err), F)
    A2 = _iv_mul(A, A, F)
    return 4 * A2[0], 4 * A2[1]


@lru_cache(maxsize=32)
def coefficients(nbar: int, sll: Fraction, norm: bool, F: int) -> tuple[tuple[int, int], ...]:
    """Enclosures at 2^-F of a_0 .. a_K (module docstring).  ZeroDivisionError when the
    precision is too low to separate W(centre) from 0 (the caller raises F)."""
    K = nbar - 1
    T = _t_interval(sll, F)
    N2 = nbar * nbar
    P = (2 * nbar - 1) ** 2
    one = 1 << F
    a = [(one, one)]
    for m in range(1, K + 1):
        m2 = m * m
        num = (one, one)
        for n in range(1, K + 1):
            Q = (2 * n - 1) ** 2
            c, d = N2 - m2, N2 * Q - m2 * P      # factor = (c T + d)/(N2 (T + Q)), c > 0
            top = (c * T[0] + (d << F), c * T[1] + (d << F))
            bottom = (N2 * (T[0] + (Q << F)), N2 * (T[1] + (Q << F)))
            num = _iv_mul(num, _iv_div(top, bottom, F), F)
        # 2 F_m = (-1)^(m+1) num prod_{n != m} n^2 / prod_{n != m} (n^2 - m^2)
        up, down = 1, 1
        for n in range(1, K + 1):
            if n != m:
                up *= n * n
                down *= n * n - m2
        if m % 2 == 0:
            down = -down
        if down < 0:
            up, down = -up, -down
        ends = (num[0] * up, num[1] * up)
        a.append((min(ends) // down, _ceil_div(max(ends), down)))
    if norm:
        centre = (sum(x[0] for x in a), sum(x[1] for x in a))   # 1 + 2 sum F_m
        a = [_iv_div(x, centre, F) for x in a]
    return tuple(a)


def _narrow(iv, F) -> bool:
    """The enclosure excludes 0 and is at most 2^-116 of its smaller end wide."""
    lo, hi = iv
    if lo <= 0 <= hi:
        return False
    return (hi - lo) << 116 <= min(abs(lo), abs(hi))


@lru_cache(maxsize=32)
def coefficients_dd(nbar: int, sll: Fraction, norm: bool) -> tuple[np.ndarray, np.ndarray]:
    """a_0 .. a_K as double-doubles (hi, lo arrays), |a - hi - lo| <= 2^-105 |a|: from an
    enclosure [lo, hi]/2^F at most 2^-116 |a| wide, mid = (lo + hi)/2^(F+1) is within
    2^-117 |a| of a; hi = RN(mid), lo = RN(mid - hi) (Fraction to float is correctly
    rounded) leave |mid - hi - lo| <= 2^-53 |mid - hi| <= 2^-106 |mid| (every |mid| is
    checked to be at least 2^-900, so lo is a normal double)."""
    F = _FIRST_BITS
    while True:
        try:
            a = coefficients(nbar, sll, norm, F)
        except ZeroDivisionError:
            a = None
        if a is not None and all(_narrow(x, F) for x in a):
            break
        F *= 2
        if F > _MAX_BITS:
            raise ArithmeticError("taylor(): the coefficients could not be enclosed within the precision cap")
    his, los = [], []
    for lo, hi in a:
        mid = Fraction(lo + hi, 1 << (F + 1))
        if abs(mid) < Fraction(1, 1 << 900):
            raise NotImplementedError("taylor(): a coefficient below 2^-900 (not supported)")
        h = float(mid)
        his.append(h)
        los.append(float(mid - Fraction(h)))
    return np.array(his), np.array(los)


def magnitude(nbar: int, sll: Fraction, norm: bool) -> float:
    """sum |a_hi| (a bound of |w| within 2^-50)."""
    hi, _ = coefficients_dd(nbar, sll, norm)
    return float(np.sum(np.abs(hi)))


def _cos_enclosure(s: int, L: int, F: int) -> tuple[int, int]:
    """cos(pi s/L) 2^F enclosed, s any integer >= 0."""
    s %= 2 * L
    if s > L:
        s = 2 * L - s
    return _sincospi(s, L, F)[2:]


def value_rounded(L: int, j: int, nbar: int, sll: Fraction, norm: bool, fmt: int,
                  bits: int | None = None) -> float:
    """w at j = 2n - L + 1 (any sign: w is even in j) correctly rounded into format fmt
    (0 float16, 1 bfloat16, 2 float32, 3 float64), as the float of the same value: 1 at
    the centre of a normalised window, else Ziv's loop on the interval sum of the
    coefficients' and the cosines' enclosures, the precision doubled until both ends
    round alike (up to the cap: ArithmeticError, module docstring)."""
    j = abs(j)
    if nbar == 1 or (j == 0 and norm):
        return 1.0
    F = bits if bits is not None else _FIRST_BITS
    while F <= _MAX_BITS:
        try:
            a = coefficients(nbar, sll, norm, F)
        except ZeroDivisionError:
            F *= 2
            continue
        lo, hi = a[0]
        for m in range(1, nbar):
            c = _cos_enclosure(m * j, L, F)
            t = _iv_mul(a[m], c, F)
            lo += t[0]
            hi += t[1]
        if lo > 0:
            low = round_fixed(lo, F, fmt)
            if low == round_fixed(hi, F, fmt):
                return low
        elif hi < 0:
            low = round_fixed(-hi, F, fmt)
            if low == round_fixed(-lo, F, fmt):
                return -low
        F *= 2
    raise ArithmeticError(f"taylor(): no rounding decision at j = {j}, L = {L} within 2^16 bits "
                          "(the value may be a rounding boundary)")


def window(L: int, M: int, nbar: int, sll: Fraction, norm: bool, dt) -> np.ndarray:
    """The first M values (M = L or L - 1) of the Taylor window of L >= 2 points in
    dtype dt: the first h = ceil(L/2) by the C core (value_rounded for those it leaves
    undecided), the rest mirrored."""
    dt = np.dtype(dt)
    fmt = format_code(dt)
    half = (L + 1) // 2
    a_hi, a_lo = coefficients_dd(nbar, sll, norm)
    values, missing = _core.taylor_fill(L, half, a_hi, a_lo, norm, fmt)
    for n in missing.tolist():
        values[n] = value_rounded(L, L - 1 - 2 * n, nbar, sll, norm, fmt)
    result = np.empty(M, dtype=np.float64)
    n = min(half, M)
    result[:n] = values[:n]
    if M > half:  # w[i] = values[L - 1 - i] for i = half .. M - 1
        result[half:] = values[L - 1 - half:L - 1 - M:-1] if L - 1 - M >= 0 else values[L - 1 - half::-1]
    return _cast(result, dt)
