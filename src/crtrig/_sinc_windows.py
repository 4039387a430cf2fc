"""crtrig.windows.lanczos and crtrig.windows.bohman: scipy's Lanczos (sinc) and Bohman
windows, correctly rounded.

With L points, D = L - 1 and g = 2n/D for the first half (2n <= D; the window is
symmetric, w[L - 1 - n] = w[n]), scipy's x = 2n/D - 1 = g - 1 and

    lanczos  w = sinc(x) = sin(pi g) / (pi (1 - g))    (1 at g = 1, 0 at g = 0)
    bohman   w = (1 - |x|) cos(pi |x|) + sin(pi |x|)/pi
               = sin(pi g)/pi - g cos(pi g)            (0 at g = 0, 1 at g = 1)

The C core (src/core/window_sinc.c) evaluates w in double-double with a proven bound
and decides the rounding of almost every element; the few it leaves undecided are
finished here with Python integers (:func:`value_rounded`), an enclosure tightened
until both ends round alike.  That ends: off g = 0 and g = 1 both windows are
irrational at every rational g (a rational value would make pi algebraic;
window_sinc.c's top comment), so never a rounding boundary."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from . import _core
from ._exp_windows import _cast, format_code, round_fixed
from .reference import _cos_fixed, _pi_fixed, _sin_fixed

LANCZOS = 0
BOHMAN = 1
KINDS = {"lanczos": LANCZOS, "bohman": BOHMAN}
#: L - 1 is at most this (the C core's sinpi table).
MAX_D = _core.SINC_MAX_D
_MAX_BITS = 1 << 16


def _angle(p: int, q: int, bits: int, pi: tuple[int, int]) -> tuple[int, int]:
    """Integers [lo, hi] enclosing pi p/q 2^bits (p >= 0), from pi 2^G within err
    (G = bits + guard, pi = (approximation, err))."""
    approx, err = pi
    guard = _GUARD
    lo = ((approx - err) * p) // (q << guard)
    hi = -((-(approx + err) * p) // (q << guard))
    return lo, hi


_GUARD = 16


def _sincospi(p: int, q: int, bits: int) -> tuple[int, int, int, int]:
    """Integers s_lo <= sin(pi p/q) 2^bits <= s_hi and c_lo <= cos(pi p/q) 2^bits <= c_hi
    for 0 <= p/q <= 1.  Folded to t in [0, 1/4] (where pi t < 1, as reference's
    _sin_fixed/_cos_fixed need, and sin increases and cos decreases):
      p/q > 1/2:  sin(pi p/q) = sin(pi (q - p)/q), cos(pi p/q) = -cos(pi (q - p)/q);
      then t = p/q <= 1/4: sin(pi t), cos(pi t) directly;
      t in (1/4, 1/2]: sin(pi t) = cos(pi u), cos(pi t) = sin(pi u), u = 1/2 - t
      = (q - 2p)/(2q) in [0, 1/4).
    Each function of an angle enclosure [x_lo, x_hi] is the monotone function's values
    at the ends, each widened by its error bound."""
    negate_cos = 2 * p > q
    if negate_cos:
        p = q - p
    swap = 4 * p > q
    if swap:
        p, q = q - 2 * p, 2 * q
    pi = _pi_fixed(bits + _GUARD)
    x_lo, x_hi = _angle(p, q, bits, pi)
    sl, el = _sin_fixed(x_lo, bits)
    sh, eh = _sin_fixed(x_hi, bits)
    s_lo, s_hi = sl - el, sh + eh
    cl, el = _cos_fixed(x_hi, bits)
    ch, eh = _cos_fixed(x_lo, bits)
    c_lo, c_hi = cl - el, ch + eh
    if swap:
        s_lo, s_hi, c_lo, c_hi = c_lo, c_hi, s_lo, s_hi
    s_lo = max(s_lo, 0)
    if negate_cos:
        c_lo, c_hi = -c_hi, -c_lo
    return s_lo, s_hi, c_lo, c_hi


def _enclosure(kind: int, k: int, D: int, bits: int) -> tuple[int, int, int]:
    """(lo, hi, F): lo/2^F <= w(k/D) <= hi/2^F for 0 < k < D, at about `bits` bits."""
    s_lo, s_hi, c_lo, c_hi = _sincospi(k, D, bits)
    pi, err = _pi_fixed(bits)       # |pi 2^bits - pi| <= err
    pi_lo, pi_hi = pi - err, pi + err
    if kind == LANCZOS:
        # w 2^bits = D (s 2^bits) 2^bits / (r (pi 2^bits)), r = D - k; all positive.
        r = D - k
        lo = ((D * s_lo) << bits) // (r * pi_hi)
        hi = -((-(D * s_hi) << bits) // (r * pi_lo))
        return lo, hi, bits
    # bohman, at F = 2 bits: w 2^F = (s/pi) 2^F - (k/D) (c 2^bits) 2^bits, g = k/D >= 0;
    # (s/pi) 2^F lies in [floor(s_lo 2^F/pi_hi), ceil(s_hi 2^F/pi_lo)] (s >= 0, pi > 0).
    # The ends, times D, are floor- and ceil-divided by D: still an enclosure.
    F = 2 * bits
    lo = ((s_lo << F) // pi_hi) * D - ((k * c_hi) << bits)
    hi = -((-(s_hi << F)) // pi_lo) * D - ((k * c_lo) << bits)
    return lo // D, -((-hi) // D), F


def value_rounded(kind: int, n: int, D: int, fmt: int, bits: int | None = None) -> float:
    """Element n (2n <= D) of the Lanczos (kind 0) or Bohman (1) window of D + 1 points,
    w(2n/D), correctly rounded into float format fmt (0 float16, 1 bfloat16, 2 float32,
    3 float64), as the float of the same value: exactly at g = 0 and 1, else Ziv's
    loop on the integer enclosure of :func:`_enclosure`, the precision doubled until
    both ends round alike (the ends are floored and ceiled, so the enclosure holds).
    `bits` sets the first precision (tests)."""
    k = 2 * n
    if not 0 <= k <= D:
        raise ValueError(f"value_rounded: need 0 <= 2n <= D; got n = {n}, D = {D}")
    if k == 0:
        return 0.0
    if k == D:
        return 1.0
    # w >= min(2/D (Lanczos), 3 g^3 >= 2^-3 bitlen(D) (Bohman)): start above its size.
    bits = bits if bits is not None else 96 + 3 * D.bit_length()
    while bits <= _MAX_BITS:
        lo, hi, F = _enclosure(kind, k, D, bits)
        if lo > 0:
            low = round_fixed(lo, F, fmt)
            if low == round_fixed(hi, F, fmt):
                return low
        bits *= 2
    raise ArithmeticError(f"sinc windows: no rounding decision at n = {n}, D = {D}")  # pragma: no cover


def window(kind: int, L: int, M: int, dt) -> np.ndarray:
    """The first M values (M = L or L - 1) of the window of L >= 2 points in dtype dt:
    the first h = ceil(L/2) by the C core (and value_rounded for those it leaves),
    the rest mirrored."""
    dt = np.dtype(dt)
    fmt = format_code(dt)
    D = L - 1
    half = (L + 1) // 2
    values, missing = _core.sinc_fill(kind, D, half, fmt)
    for n in missing.tolist():
        values[n] = value_rounded(kind, n, D, fmt)
    result = np.empty(M, dtype=np.float64)
    n = min(half, M)
    result[:n] = values[:n]
    if M > half:  # w[i] = values[L - 1 - i] for i = half .. M - 1
        result[half:] = values[L - 1 - half:L - 1 - M:-1] if L - 1 - M >= 0 else values[L - 1 - half::-1]
    return _cast(result, dt)
