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
    if d > Fraction(2) ** 600 or d < Fraction(2) ** -600:
        # d > 2^600: q >= (1/2) 2^600 for x != 0 (exp(-q) rounds to 0); d < 2^-600:
        # q < (2^53 2^-600)^P < 2^-56 (rounds to 1).  x == 0 gives exp(0) = 1.
        x = x0 + step * np.arange(count, dtype=np.float64)
        return np.where(x == 0, 1.0, 0.0 if d > 1 else 1.0)
    d_hi, d_lo = dd_of(d)
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
