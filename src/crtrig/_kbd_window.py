"""crtrig.windows.kaiser_bessel_derived: sqrt of a ratio of partial sums of Kaiser's
window, correctly rounded.

scipy 1.17 computes ``kaiser(M // 2 + 1, beta)`` (beta as given: no factor pi; scipy's
docstring example passes ``np.pi * alpha`` itself), its cumulative sum ``csum`` and
``sqrt(csum[:-1] / csum[-1])``, mirrored.  With L = M/2 + 1 points, the Kaiser values
v_j = S(y_j)/S(beta^2/4), S(y) = sum_k y^k/(k!)^2 = I0(2 sqrt(y)), y_j = beta^2 j (L -
1 - j)/(L - 1)^2 (exact: a rational for a rational beta), and the normalisation
1/S(beta^2/4) cancels in the ratio, so

    w[n]^2 = A_n / B,  A_n = S(y_0) + ... + S(y_n),  B = A_{L-1},  n = 0 .. L - 2,

and w[M - 1 - n] = w[n].  Here every S(y_j) is enclosed in integers at F fractional
bits (crtrig._kaiser_window._series_bounds, lo_j <= S(y_j) 2^F <= hi_j), the prefix
sums of the lower and of the upper ends enclose A_n and B (all terms are positive),
and w[n] lies in [sqrt(A_lo/B_hi), sqrt(A_hi/B_lo)]; both ends are taken in fixed
point at G bits with integer square roots rounded outwards (isqrt of a floor for
the low end, the ceiling of the root of a ceiling for the high end) and rounded into
the format (round_fixed).  Where the two ends round differently the whole enclosure
is recomputed at 2F (B needs every term) and only the undecided elements are decided
again.

Termination.  beta = 0 (or L = 2: y_0 = y_1 = 0) makes every S(y_j) = 1, w[n]^2 =
(n + 1)/L rational, and w[n] may be exactly a rounding boundary (sqrt(1/4) = 1/2):
those windows are rounded exactly (:func:`sqrt_rational_rounded`).  For beta != 0
the value is not provably off the boundaries here: w[n] = b (a dyadic rational, so
w[n]^2 rational) would be a linear relation with rational coefficients between 1
and the values I0(2 sqrt(y_j)) at the distinct nonzero y_j; y_j = 0 only at j = 0,
L - 1, so A_n holds the value 1 once and B twice, and if 1 and those I0 values are
linearly independent over Q (which Siegel-Shidlovskii-type results on the algebraic
independence of Bessel values at distinct algebraic points would give) then b^2 =
1/2, impossible for a rational b.  crtrig does not rely on that: the doubling of F
stops at F = 2^17 and raises ArithmeticError (never seen: at F = 128 each S(y_j)
is enclosed within about K + 2 units of 2^-F, K <= ~1000 series terms, and S >= 1,
so the enclosures of A_n, B and w[n] are below ~2^-115 wide relative).

Speed.  :func:`window` first runs the double-double stage of the C core
(src/core/window_kbd.c: the I0 values by the SIMD target's series kernel, the prefix
sums in one pass, the root and the rounding test per element, on the thread pool)
and uses this exact path, the reference, only when that stage leaves an element
undecided (not seen in practice) or refuses the arguments.  The exact path alone is
slow (the series dominate, K grows like beta: at M = 10^5 about 0.4 s for beta 8.6
and 22 s for beta 600).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from . import _core
from ._exp_windows import _cast, dd_of, format_code, round_fixed
from ._kaiser_window import MAX_BETA, MAX_LENGTH, _series_bounds

__all__ = ["MAX_BETA", "MAX_LENGTH", "window", "sqrt_rational_rounded", "half_window_values"]

#: The largest F the enclosure is refined to before ArithmeticError.
MAX_F = 1 << 17


def _isqrt_up(N: int) -> int:
    """ceil(sqrt(N)) for N >= 0."""
    r = math.isqrt(N)
    return r if r * r == N else r + 1


def _round_rational(p: int, q: int, fmt: int) -> float:
    """p/q (p >= 0, q > 0, p/q >= 2^-64) rounded once to nearest-even into fmt,
    exactly: with N = floor(p 2^G / q) and G = 200, every rounding boundary of the
    four formats at or above 2^-64 (a multiple of 2^-(64 + 54) at least) is a
    multiple of 2^-G, so no boundary lies strictly inside (N, N + 1)/2^G; a
    non-exact p/q is strictly inside and rounds as the midpoint (2N + 1)/2^(G+1)."""
    G = 200
    N, rest = divmod(p << G, q)
    if rest == 0:
        return round_fixed(N, G, fmt)
    return round_fixed(2 * N + 1, G + 1, fmt)


def sqrt_rational_rounded(p: int, q: int, fmt: int) -> float:
    """sqrt(p/q) for integers 1 <= p <= q <= 2^27, correctly rounded into fmt.  A
    rational root (p/q in lowest terms with both a square) is rounded exactly; an
    irrational one is not a rounding boundary (those are dyadic rationals), so the
    enclosure [isqrt(floor(p 4^G/q)), +1]/2^G, G doubling, ends with both ends alike."""
    g = math.gcd(p, q)
    p, q = p // g, q // g
    rp, rq = math.isqrt(p), math.isqrt(q)
    if rp * rp == p and rq * rq == q:
        return _round_rational(rp, rq, fmt)
    G = 128
    while True:
        low = math.isqrt((p << 2 * G) // q)  # <= sqrt(p/q) 2^G < low + 1
        a, b = round_fixed(low, G, fmt), round_fixed(low + 1, G, fmt)
        if a == b:
            return a
        G *= 2


def _enclosures(L: int, beta: Fraction, F: int) -> tuple[list[int], list[int]]:
    """lo_j <= S(y_j) 2^F <= hi_j for j = 0 .. L - 1 (computed for j <= (L - 1)/2 and
    mirrored: y_j = y_(L-1-j))."""
    a0, b = beta.numerator ** 2, beta.denominator ** 2 * (L - 1) ** 2
    half = (L + 1) // 2
    lo, hi = [0] * L, [0] * L
    for j in range(half):
        low, high = _series_bounds(a0 * (j * (L - 1 - j)), b, F)
        lo[j] = lo[L - 1 - j] = low
        hi[j] = hi[L - 1 - j] = high
    return lo, hi


def half_window_values(L: int, beta: Fraction, fmt: int) -> list[float]:
    """w[n] for n = 0 .. L - 2 (L >= 3, beta > 0), each correctly rounded into fmt
    (the values as floats)."""
    result: list = [None] * (L - 1)
    todo = list(range(L - 1))
    F = 128
    while todo:
        if F > MAX_F:
            raise ArithmeticError(
                f"kaiser_bessel_derived: no rounding decision at F = {MAX_F} bits for L = {L}, beta = {beta}, "
                f"n = {todo[:5]}")
        lo, hi = _enclosures(L, beta, F)
        B_lo, B_hi = sum(lo), sum(hi)
        # w >= sqrt(1/B) >= 2^(-e/2) with B < 2^(F + e): G = F + e/2 + 2 fractional bits
        # keep > F + 2 significant bits of w at either end (the enclosure is ~2^-(F - 20)
        # wide relative, so G never limits the decision).
        e = max(B_hi.bit_length() - F, 0)
        G = F + (e + 1) // 2 + 2
        shift = 2 * G
        # prefix sums of the lower and the upper ends: A_lo[n] <= A_n 2^F <= A_hi[n].
        A_lo = A_hi = 0
        undecided = []
        wanted = iter(todo)
        target = next(wanted)
        for n in range(L - 1):
            A_lo += lo[n]
            A_hi += hi[n]
            if n != target:
                continue
            # low = floor(sqrt(floor(A_lo 4^G / B_hi))) <= sqrt(A_lo/B_hi) 2^G <= w 2^G;
            # high = ceil(sqrt(ceil(A_hi 4^G / B_lo))) >= sqrt(A_hi/B_lo) 2^G >= w 2^G.
            low = round_fixed(math.isqrt((A_lo << shift) // B_hi), G, fmt)
            high = round_fixed(_isqrt_up(-((-A_hi << shift) // B_lo)), G, fmt)
            if low == high:
                result[n] = low
            else:
                undecided.append(n)
            target = next(wanted, -1)
            if target < 0:
                break
        todo = undecided
        F *= 2
    return result


def c_stage(L: int, beta: Fraction, fmt: int):
    """The C stage (src/core/window_kbd.c): w[n], n = 0 .. L - 2, as float64 values of
    the format, or None when it leaves any element undecided or refuses the arguments
    (a beta so small that its I0 table would underflow)."""
    c_hi, c_lo = dd_of(beta * beta / (L - 1) ** 2)
    try:
        values, missing = _core.kbd_fill(c_hi, c_lo, L, fmt)
    except ValueError:
        return None
    return None if len(missing) else values


def window(M: int, beta: Fraction, dt) -> np.ndarray:
    """The Kaiser-Bessel derived window of an even M >= 2 points, beta >= 0 exact, in
    dtype dt: the C stage, or where it leaves anything undecided (rare) the exact path
    (:func:`half_window_values`) for the whole window."""
    dt = np.dtype(dt)
    fmt = format_code(dt)
    L = M // 2 + 1
    if beta == 0 or L == 2:  # every S(y_j) = 1: w[n] = sqrt((n + 1)/L)
        half = [sqrt_rational_rounded(n + 1, L, fmt) for n in range(L - 1)]
    else:
        half = c_stage(L, beta, fmt)
        if half is None:
            half = half_window_values(L, beta, fmt)
    values = np.empty(M, dtype=np.float64)
    values[:L - 1] = half
    values[L - 1:] = values[L - 2::-1]
    return _cast(values, dt)
