"""crtrig.windows.kaiser: I0(beta sqrt(1 - t^2)) / I0(beta), t = 2n/(L - 1) - 1,
correctly rounded as one quotient.

With y_n = (z/2)^2 = beta^2 n (L - 1 - n)/(L - 1)^2 (exact for a rational beta) and
Y = beta^2/4, w_n = S(y_n)/S(Y) with S(y) = sum_k y^k/(k!)^2.  The C core
(src/core/bessel_i0.c) evaluates S(y_n) in double-double, multiplies by 1/S(Y)
(computed here to 2^-104) and decides the rounding; the elements it leaves undecided
are finished here with integers (:func:`quotient_rounded`)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from . import _core
from ._exp_windows import _cast, dd_of, format_code, round_fixed

MAX_BETA = _core.KAISER_MAX_BETA
MAX_LENGTH = 2**26
#: Below this Y = beta^2/4 the window is all ones after rounding (and the C core's
#: table would underflow): see window().
TINY_Y = Fraction(1, 2**60)


def _series_bounds(a: int, b: int, F: int) -> tuple[int, int]:
    """Integers lo <= S(a/b) 2^F <= hi.  The computed term c_k = floor(c_{k-1} a/(b k^2))
    is below the true T_k by at most err_k, err_0 = 0, err_k = ceil(err_{k-1} a/(b
    k^2)) + 1 (the previous error scaled by the ratio, plus the floor's < 1).  The loop
    stops at the first k with c_k = 0 and every later ratio a/(b j^2) <= 1/2 (j > k):
    the tail is then below T_k <= err_k.  So lo = sum c_k (each a lower bound) and hi
    = lo + sum err_k + err_k + 1."""
    one = 1 << F
    term, total, err, err_sum = one, one, 0, 0
    k = 0
    while True:
        k += 1
        term = term * a // (b * k * k)
        err = -((-err * a) // (b * k * k)) + 1
        err_sum += err
        total += term
        if term == 0 and 2 * a <= b * (k + 1) ** 2:
            break
    return total, total + err_sum + err + 1


def quotient_rounded(y: Fraction, Y: Fraction, fmt: int) -> float:
    """S(y)/S(Y) (0 <= y <= Y, Y > 0) correctly rounded into format fmt: the two series
    enclosed in integers at F bits, the quotient enclosed by [lo_n/hi_d, hi_n/lo_d],
    F doubled until both ends round alike."""
    F = 128
    while F <= 1 << 17:
        lo_n, hi_n = _series_bounds(y.numerator, y.denominator, F)
        lo_d, hi_d = _series_bounds(Y.numerator, Y.denominator, F)
        G = 2 * F
        low = round_fixed((lo_n << G) // hi_d, G, fmt)
        high = round_fixed(-((-hi_n << G) // lo_d), G, fmt)
        if low == high:
            return low
        F *= 2
    raise ArithmeticError(f"kaiser: no rounding decision for I0 ratio at y = {y}, Y = {Y}")


def inverse_dd(Y: Fraction) -> tuple[float, float]:
    """1/S(Y) as a double-double within 2^-104 relative: S(Y) enclosed at 200 bits
    above its own size (relative width < 2^-190), then the midpoint's inverse rounded
    to a double-double (2^-106)."""
    F = 200
    while True:
        lo, hi = _series_bounds(Y.numerator, Y.denominator, F)
        if (hi - lo) << 120 < lo:
            break
        F *= 2
    return dd_of(Fraction(2 << F, lo + hi))


def window(L: int, M: int, beta: Fraction, dt) -> np.ndarray:
    """The first M values of Kaiser's window of L >= 3 points, beta > 0, in dtype dt."""
    dt = np.dtype(dt)
    fmt = format_code(dt)
    Y = beta * beta / 4
    if Y < TINY_Y:
        # w >= 1/S(Y) >= exp(-Y) > 1 - 2^-60 and w <= 1: every element rounds to 1 in
        # every format (the float64 just below 1 is 1 - 2^-53).
        return _cast(np.ones(M, dtype=np.float64), dt)
    c = beta * beta / (L - 1) ** 2
    c_hi, c_lo = dd_of(c)
    inv_hi, inv_lo = inverse_dd(Y)
    half = (L + 1) // 2
    values, missing = _core.kaiser_fill(c_hi, c_lo, inv_hi, inv_lo, L, half, fmt)
    for n in missing.tolist():
        values[n] = quotient_rounded(c * (n * (L - 1 - n)), Y, fmt)
    result = np.empty(M, dtype=np.float64)
    n = min(half, M)
    result[:n] = values[:n]
    if M > half:
        result[half:] = values[L - 1 - half:L - 1 - M:-1] if L - 1 - M >= 0 else values[L - 1 - half::-1]
    return _cast(result, dt)
