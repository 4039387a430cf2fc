"""Cosine-sum windows with exact rational coefficients: scipy's general_cosine,
nuttall, blackmanharris and flattop (crtrig.windows), through the C core's
crtrig_cosum_window_ex (src/core/window_cosum.c).

scipy computes general_cosine(M, a) as sum_k a[k] cos(k fac) with fac =
linspace(-pi, pi, L) (L = M symmetric, M + 1 periodic, then truncated to M),
i.e. fac[n] = -pi + 2 pi n/D, D = L - 1, so the real-number definition is

    w[n] = sum_k a_k cos(k (2 pi n/D - pi)) = sum_k (-1)^k a_k cos(2 pi k n/D).

This module turns the coefficients into exact Fractions (floats read as their
shortest decimal, as general_hamming reads alpha), forms b_k = (-1)^k a_k and the
power-basis polynomial P with w = P(c), c = cos(2 pi n/D) (P = sum b_k T_k, exactly),
finds the phases where w is rational and rounds those exactly here, and hands
the rest to the C core, which never sees a phase where w is rational.

Where w is rational (the argument, window_cosum.c states it too).  Let d = deg P.
d = 0: w is the constant q_0 everywhere, rounded once here.  Otherwise, for the
phase r (0 <= r <= D/2), c = cos(2 pi r/D) = cos(2 pi j/D'), D' = D/gcd(r, D),
gcd(j, D') = 1, is an algebraic number of degree 1 for D' <= 2 and phi(D')/2 for
D' >= 3 (its conjugates are cos(2 pi i/D'), gcd(i, D') = 1, i <= D'/2), with the
minimal polynomial m_D' of cos(2 pi/D') (the same for every such j).  If w = P(c)
is rational, c is a root of P - w, a nonzero polynomial of degree d, so
deg(c) <= d.  For the divisors D' of D with deg(c) <= d (phi(D') <= 2d, so
D' <= 8 d^2: phi(n) >= sqrt(n/2)), R = P mod m_D' (exact) satisfies w = R(c) with
deg R < deg m_D'; since 1, c, ..., c^(deg m - 1) are linearly independent over
Q, w is rational exactly when R is a constant, and then w = R.  Those phases
(r = j D/D', 0 <= j <= D'/2, gcd(j, D') = 1) are rounded here from R; every other
phase has an irrational w (never 0, never a rounding boundary) and goes to the C
core, whose Ziv loop then terminates.

m_D' comes from the cyclotomic polynomial Phi_D'(z) (integer division of
z^D' - 1 by Phi_d, d | D', d < D'), which is palindromic of degree 2m:
Phi(z) = z^m (f_m + sum_{j>=1} f_{m+j} (z^j + z^-j)), and with y = z + 1/z =
2 cos(2 pi/D'), z^j + z^-j = V_j(y), V_0 = 2, V_1 = y, V_{j+1} = y V_j - V_{j-1}:
Psi(y) = f_m + sum f_{m+j} V_j(y) is the minimal polynomial of y (degree m =
phi(D')/2, irreducible as y generates the maximal real subfield of degree m),
and m_D'(x) = Psi(2x).

Limits (ValueError beyond): at most 16 terms (after dropping trailing zeros);
each coefficient's reduced denominator at most 2**62; |a_k| < 2**14 and
sum_k (floor|a_k| + 1) <= 2**15 (the C core's fixed-point ranges, and every value
then stays far inside float16's range).
"""
from __future__ import annotations

import decimal
import functools
import math
import numbers
import types
from fractions import Fraction

import numpy as np

from . import _core, _rational
from ._dtypes import is_bfloat16, output_code

MAX_TERMS = 16
MAX_DEN = 2**62
MAX_COEF = 2**14
#: Longer coefficient lists are refused without being read (trailing zeros beyond the
#: 16th term are accepted up to this length).
_MAX_ITEMS = 1024

#: scipy 1.17's coefficients (scipy/signal/windows/_windows.py), as written there.
NUTTALL = ("0.3635819", "0.4891775", "0.1365995", "0.0106411")
BLACKMANHARRIS = ("0.35875", "0.48829", "0.14128", "0.01168")
FLATTOP = ("0.21557895", "0.41663158", "0.277263158", "0.083578947", "0.006947368")

_KINDS = "a sequence of Fractions, ints, decimal strings, Decimals or floats"


def _shown(value):
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:40]}... ({len(text)} characters)"


def _from_parts(parts, x, fname):
    if parts is None or (parts.is_ratio and parts.denominator == ""):
        raise ValueError(f"{fname}(): coefficient {_shown(x)} is not a finite rational number")
    if parts.is_zero:
        return Fraction(0)
    if parts.is_ratio:
        if max(len(parts.numerator), len(parts.denominator)) > 40:
            raise ValueError(f"{fname}(): coefficient {_shown(x)} is too large a fraction "
                             f"(denominator at most 2**62, |a| below 2**14)")
        return parts.fraction()
    if parts.leading_exponent >= 5 or parts.exponent < -40:  # |a| >= 10**5 or den >= 10**41
        raise ValueError(f"{fname}(): coefficient {_shown(x)} is out of range (|a| below 2**14, "
                         f"denominator at most 2**62)")
    return parts.fraction()


def coefficient(x, fname):
    """One coefficient as an exact Fraction (floats as their shortest decimal)."""
    if isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{fname}(): the coefficients must be {_KINDS}; got a bool")
    if isinstance(x, (float, np.floating)):
        if not np.isfinite(x):
            raise ValueError(f"{fname}(): the coefficients must be finite; got {x!r}")
        text = repr(x) if type(x) is float else np.format_float_scientific(x, unique=True, trim="-")
        return _from_parts(_rational.split(text), x, fname)
    if isinstance(x, str):
        return _from_parts(_rational.split(x), x, fname)
    if isinstance(x, decimal.Decimal):
        return _from_parts(_rational.split_decimal(x), x, fname)
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, numbers.Rational):
        num, den = int(x.numerator), int(x.denominator)
        if max(num.bit_length(), den.bit_length()) > 128:
            raise ValueError(f"{fname}(): coefficient {_shown(x)} is too large a fraction")
        return Fraction(num, den)
    raise TypeError(f"{fname}(): the coefficients must be {_KINDS}; got {type(x).__name__}")


def coefficients(a, fname="general_cosine"):
    """The checked coefficients as a list of Fractions (trailing zeros dropped)."""
    if isinstance(a, (str, bytes)) or not hasattr(a, "__len__") and not hasattr(a, "__iter__"):
        raise TypeError(f"{fname}(): a must be {_KINDS}; got {type(a).__name__}")
    if isinstance(a, np.ndarray) and a.ndim != 1:
        raise ValueError(f"{fname}(): a must be 1-D; got shape {a.shape}")
    if hasattr(a, "__len__") and len(a) > _MAX_ITEMS:  # refused unread
        raise ValueError(f"{fname}(): at most {MAX_TERMS} terms are supported; got {len(a)} coefficients")
    items = list(a)
    if len(items) > _MAX_ITEMS:
        raise ValueError(f"{fname}(): at most {MAX_TERMS} terms are supported; got {len(items)} coefficients")
    values = [coefficient(x, fname) for x in items]
    while values and values[-1] == 0:
        values.pop()
    if len(values) > MAX_TERMS:
        raise ValueError(f"{fname}(): at most {MAX_TERMS} terms are supported (up to the last nonzero one); "
                         f"got {len(values)}")
    for v in values:
        if v.denominator > MAX_DEN or abs(v) >= MAX_COEF:
            raise ValueError(f"{fname}(): coefficient {v} is out of range: |a| must be below 2**14 and its "
                             "reduced denominator at most 2**62")
    if sum(abs(v.numerator) // v.denominator + 1 for v in values) > 2**15:
        raise ValueError(f"{fname}(): the coefficients are too large: sum(floor(|a|) + 1) must be at most 2**15")
    return values


def _chebyshev(K):
    """Integer power coefficients of T_0 .. T_{K-1}."""
    T = [[1], [0, 1]]
    while len(T) < K:
        a, b = T[-1], T[-2]
        nxt = [0] + [2 * x for x in a]
        for i, x in enumerate(b):
            nxt[i] -= x
        T.append(nxt)
    return T[:K]


def power_basis(b):
    """q with sum_k b_k T_k(c) = sum_j q_j c^j, exactly."""
    q = [Fraction(0)] * len(b)
    for bk, t in zip(b, _chebyshev(len(b))):
        for j, x in enumerate(t):
            q[j] += bk * x
    return q


def _poly_divmod_int(num, den):
    """Exact quotient of integer polynomials (lowest degree first; den monic, divides num)."""
    num = list(num)
    out = [0] * (len(num) - len(den) + 1)
    for i in range(len(out) - 1, -1, -1):
        coef = num[i + len(den) - 1]
        out[i] = coef
        if coef:
            for j, d in enumerate(den):
                num[i + j] -= coef * d
    assert not any(num[: len(den) - 1])
    return out


_CYCLO = {}


def cyclotomic(n):
    """Phi_n as integer coefficients, lowest degree first."""
    if n not in _CYCLO:
        poly = [-1] + [0] * (n - 1) + [1]
        for d in range(1, n):
            if n % d == 0:
                poly = _poly_divmod_int(poly, cyclotomic(d))
        _CYCLO[n] = poly
    return _CYCLO[n]


def min_poly_cos(n):
    """The monic minimal polynomial of cos(2 pi/n) over Q (Fractions, lowest degree first)."""
    if n == 1:
        return [Fraction(-1), Fraction(1)]
    if n == 2:
        return [Fraction(1), Fraction(1)]
    f = cyclotomic(n)
    m = (len(f) - 1) // 2
    # Psi(y) = f_m + sum_{j>=1} f_{m+j} V_j(y)
    V = [[2], [0, 1]]
    while len(V) <= m:
        a, b = V[-1], V[-2]
        nxt = [0] + a
        for i, x in enumerate(b):
            nxt[i] -= x
        V.append(nxt)
    psi = [0] * (m + 1)
    psi[0] += f[m]
    for j in range(1, m + 1):
        for i, x in enumerate(V[j]):
            psi[i] += f[m + j] * x
    # m(x) = Psi(2x) / 2^m (monic)
    return [Fraction(psi[i] * 2**i, 2**m) for i in range(m + 1)]


def _poly_mod(p, m):
    """p mod m over Q (m monic), lowest degree first."""
    p = list(p)
    dm = len(m) - 1
    for i in range(len(p) - 1, dm - 1, -1):
        coef = p[i]
        if coef:
            for j in range(dm + 1):
                p[i - dm + j] -= coef * m[j]
    r = p[:dm]
    while r and r[-1] == 0:
        r.pop()
    return r


def _phi(n):
    result, k, m = n, 2, n
    while k * k <= m:
        if m % k == 0:
            while m % k == 0:
                m //= k
            result -= result // k
        k += 1
    if m > 1:
        result -= result // m
    return result


@functools.lru_cache(maxsize=64)
def _rational_values(q):
    """[(Dp, P(cos(2 pi j/Dp)))] for every Dp <= 8 d^2 + 8 with phi(Dp) <= 2d (or Dp <= 2),
    d = deg P, where that value is rational (the same for every j coprime to Dp: P mod
    the minimal polynomial of cos(2 pi/Dp) is then that constant); q a tuple.  Cached: it
    depends on the coefficients only, not on the window's length."""
    d = max(j for j, x in enumerate(q) if x)
    found = []
    for Dp in range(1, 8 * d * d + 8 + 1):
        if Dp > 2 and _phi(Dp) > 2 * d:
            continue
        R = _poly_mod(q, min_poly_cos(Dp))
        if len(R) <= 1:  # else w is irrational at these phases
            found.append((Dp, R[0] if R else Fraction(0)))
    return tuple(found)


def exact_phases(q, D):
    """{r: w} for the folded phases 0 <= r <= D/2 where w = P(c) is rational (see
    the module docstring); P = q nonconstant."""
    exact = {}
    for Dp, value in _rational_values(tuple(q)):
        if Dp > D or D % Dp:
            continue
        step = D // Dp
        for j in range(0, Dp // 2 + 1):
            if math.gcd(j, Dp) == 1:
                exact[j * step] = value
    return exact


def _format_of(dt):
    if dt.kind == "f" or is_bfloat16(dt):
        return "bfloat16" if is_bfloat16(dt) else {2: "float16", 4: "float32", 8: "float64"}[dt.itemsize]
    return "float32"  # integer outputs: the float32 value truncated toward zero


_BITS = {"float64": (np.uint64, 63), "float32": (np.uint32, 31), "float16": (np.uint16, 15),
         "bfloat16": (np.uint16, 15)}


def round_exact(values, dt):
    """The Fractions `values` each rounded once to nearest-even into dt's format,
    as an array of dt (integer dt: the float32 value truncated toward zero)."""
    from .reference import round_rational
    fmt = _format_of(dt)
    utype, sign_bit = _BITS[fmt]
    bits = []
    for v in values:
        b = round_rational(abs(v.numerator), v.denominator, fmt)
        if v < 0:
            b |= 1 << sign_bit
        bits.append(b)
    arr = np.array(bits, dtype=utype)
    if fmt == "bfloat16":
        native = dt if is_bfloat16(dt) else None
        from ._dtypes import bfloat16_dtype
        return arr.view(bfloat16_dtype(load=True)).astype(dt if native is None else native)
    return arr.view(np.dtype(fmt)).astype(dt)


def _nearest_double(x):
    """x (a Fraction) rounded to nearest-even into float64 by integer arithmetic only
    (crtrig.reference.round_rational), whatever the caller's rounding mode: CPython's
    int / int, which float(Fraction) uses, follows the mode in its fast path."""
    from .reference import round_rational
    bits = round_rational(abs(x.numerator), x.denominator, "float64")
    value = float(np.array(bits, dtype=np.uint64).view(np.float64))
    return -value if x < 0 else value


def double_double(x):
    """(hi, lo) = (RN(x), RN(x - hi)): |hi + lo - x| <= 2^-53 |lo| <= 2^-106 |x| (1 + 2^-52),
    inside the C core's 2^-105."""
    hi = _nearest_double(x)
    return hi, _nearest_double(x - Fraction(hi))


def core_spec(a):
    """(b, q, terms, poly) for the checked coefficients a: b_k = (-1)^k a_k, and
    _spec_of_b(b)."""
    b = tuple((-1) ** k * x for k, x in enumerate(a)) or (Fraction(0),)
    return (b,) + _spec_of_b(b)


@functools.lru_cache(maxsize=64)
def _spec_of_b(b):
    """(q, terms, poly) of the cosine coefficients b (a tuple): q the exact power-basis
    coefficients of P (w = P(c)), and the C core's arguments: terms = [(negative, num,
    den)] of the b_k, poly = [(hi, lo)] with hi = RN(q_j), lo = RN(q_j - hi) (so |hi + lo
    - q_j| <= 2^-106 |q_j| (1 + 2^-52), within the C core's 2^-105).  Cached (their exact
    work once per window kind), as tuples that no caller can change."""
    q = tuple(power_basis(list(b)))
    terms = tuple((x < 0, abs(x.numerator), x.denominator) for x in b)
    poly = tuple(double_double(x) for x in q)
    return q, terms, poly


def element(a, n, D, dt, first_stage=0, multi_start_bits=0):
    """Test hook: w[n] (denominator D) from the C core, for a phase where w is irrational."""
    _, _, terms, poly = core_spec(a)
    return _core.cosum_element(terms, poly, n, D, output_code(np.dtype(dt)), first_stage, multi_start_bits)


def cosine_sum(a, M, periodic, dt, out, fname, _first_stage=0, _multi_start_bits=0, _counts=None):
    """The window sum_k a_k cos(k (2 pi n/D - pi)) for M >= 2 (a: checked Fractions)
    into `out` (checked, or None: a new array of dt)."""
    if out is not None:
        target = out
    else:
        target = np.empty(M, dtype=dt.newbyteorder("="))
    D = M if periodic else M - 1
    b, q, terms, poly = core_spec(a)
    deg = max((j for j, x in enumerate(q) if x), default=0)
    if deg == 0:
        target[...] = round_exact([q[0]], target.dtype)[0]
    else:
        exact = exact_phases(q, D)
        skip = sorted(exact)
        values = round_exact([exact[r] for r in skip], target.dtype)
        counts = _core.fill_cosum_window(M, periodic, output_code(target.dtype), target, terms, poly, skip,
                                         _first_stage, _multi_start_bits)
        if _counts is not None:
            counts["exact"] += len(skip)
            _counts.update(counts)
        for r, v in zip(skip, values):
            target[r] = v
            if D - r < M:
                target[D - r] = v
    if out is None and not dt.isnative:
        return target.astype(dt)
    return target


@functools.lru_cache(maxsize=64)
def _listed_spec(b, lin, D):
    """What listed_sum needs of (b, lin, D), cached (a window called again with the same
    length skips its exact work): the exact phases {r: P(c)} (read-only), their sorted
    list, the C core's terms and double-double polynomial, and lin's spec (lin exactly
    and lin/D as a double-double), or None."""
    q, terms, poly = _spec_of_b(b)
    exact = types.MappingProxyType(exact_phases(q, D))
    lin_spec = None
    if lin:  # the C core takes lin exactly and lin/D as a double-double
        lin_spec = (lin < 0, abs(lin.numerator), lin.denominator) + double_double(lin / D)
    return exact, tuple(sorted(exact)), terms, poly, lin_spec


def listed_sum(b, lin, D, first, step, M, dt, out, _first_stage=0, _multi_start_bits=0, _counts=None):
    """w[i] = sum_k b_k cos(2 pi k r_i/D) + lin r_i/D, r_i = |first + i step| (b, lin:
    Fractions, P = sum b_k T_k nonconstant; every first + i step within [-D/2, D/2], so
    that |.| is the folded phase), for i < M, into `out` or a new array of dt.
    The phases where P(c) is rational (exact_phases) are rounded here: w is rational
    exactly there (lin r/D is)."""
    last = first + (M - 1) * step
    assert 2 * max(abs(first), abs(last)) <= D, (first, step, M, D)
    target = out if out is not None else np.empty(M, dtype=dt.newbyteorder("="))
    exact, skip, terms, poly, lin_spec = _listed_spec(tuple(b), lin, D)
    # the elements at the exact phases: first + i step = +-r, solved for i
    hits = sorted({(sign * r - first) // step for r in skip for sign in (1, -1)
                   if (sign * r - first) % step == 0 and 0 <= (sign * r - first) // step < M})
    values = round_exact([exact[abs(first + i * step)] + lin * Fraction(abs(first + i * step), D) for i in hits],
                         target.dtype)
    counts = _core.fill_cosum_phases(D, first, step, output_code(target.dtype), target, terms, poly, skip, lin_spec,
                                     _first_stage, _multi_start_bits)
    if _counts is not None:
        counts["exact"] += len(hits)
        _counts.update(counts)
    for i, v in zip(hits, values):
        target[i] = v
    if out is None and not dt.isnative:
        return target.astype(dt)
    return target


def _symmetric_listed(L, M, dt, out, fill):
    """A window of L points symmetric about its middle (w[i] = w[L - 1 - i]), of which the
    first M (M = L or L - 1) are wanted: the first h = ceil(L/2) computed by fill(h,
    array) and the rest copied from their mirror images."""
    target = out if out is not None else np.empty(M, dtype=dt.newbyteorder("="))
    h = (L + 1) // 2
    fill(h, target[:h])
    # i in [h, M): w[i] = w[L - 1 - i], L - 1 - i in [L - M, L - 1 - h] (all < h)
    if M > h:
        target[h:M] = target[L - M:L - h][::-1]
    if out is None and not dt.isnative:
        return target.astype(dt)
    return target


#: cosine: D = 4 L (L the symmetric length) must be at most 2**53.
COSINE_MAX_LENGTH = 2**51
#: barthann: D = 2 (L - 1) must be at most 2**53.
BARTHANN_MAX_LENGTH = 2**52 + 1


def cosine_window(M, sym, dt, out, **hooks):
    """scipy's sin(pi (n + 1/2)/L), L = M (sym) or M + 1, n < M, for M >= 2:
    sin(pi (2n + 1)/(2L)) = cos(pi/2 - pi (2n + 1)/(2L)) = cos(2 pi (L - 1 - 2n)/(4L))."""
    L = M if sym else M + 1
    if L > COSINE_MAX_LENGTH:
        raise ValueError(f"cosine(): M must be at most {COSINE_MAX_LENGTH - (0 if sym else 1)} "
                         f"(2**51{'' if sym else ' - 1'} for sym={sym}); got {M}")
    return _symmetric_listed(L, M, dt, out, lambda h, part: listed_sum(
        [Fraction(0), Fraction(1)], Fraction(0), 4 * L, L - 1, -2, h, part.dtype, part, **hooks))


BARTHANN = (Fraction(62, 100), Fraction(38, 100), Fraction(-48, 100))


def barthann_window(M, sym, dt, out, **hooks):
    """scipy's 0.62 - 0.48 f + 0.38 cos(2 pi f), f = |n/(L - 1) - 1/2| = |2n - N|/(2N),
    N = L - 1, L = M (sym) or M + 1, for M >= 2: phase r = |2n - N| over D = 2N."""
    L = M if sym else M + 1
    if L > BARTHANN_MAX_LENGTH:
        raise ValueError(f"barthann(): M must be at most {BARTHANN_MAX_LENGTH - (0 if sym else 1)}; got {M}")
    N = L - 1
    c0, c1, lin = BARTHANN
    return _symmetric_listed(L, M, dt, out, lambda h, part: _barthann_half(N, h, part, hooks))


@functools.lru_cache(maxsize=64)
def _barthann_constants(N):
    """(K_hi, K_lo, B_hi, B_lo): K = -lin/N and B = 2 c1 as double-doubles (cached per N)."""
    c0, c1, lin = BARTHANN
    assert c0 + lin / 2 - c1 == 0 and lin < 0 < c1
    return double_double(-lin / N) + double_double(2 * c1)


def _barthann_half(N, h, part, hooks):
    """The first h = ceil((N + 1)/2) values of barthann (N = L - 1) into part.  At n < h,
    r = |2n - N| = N - 2n and g = 1/2 - r/(2N) = n/N, so w = c0 + c1 cos(pi - 2 pi g) +
    lin (1/2 - g) = (c0 + lin/2 - c1) + 2 c1 sin^2(pi n/N) - lin n/N = (12/25) n/N + (19/25)
    sin^2(pi n/N): two terms >= 0.  float64 (contiguous, no forced stage or counts): the C core's
    pass over n (window_lin_sin2.h; its rounding test, 2^-96 w wide against gaps of about
    2^-52 w, should leave about one element in 2^43 undecided), each one it leaves undecided (NaN) by listed_sum alone; otherwise
    listed_sum over all."""
    c0, c1, lin = BARTHANN
    forced = hooks.get("_first_stage", 0) or hooks.get("_multi_start_bits", 0) or hooks.get("_counts") is not None
    fast = (not forced and N >= 2 and part.dtype == np.float64 and part.dtype.isnative and part.flags.c_contiguous
            and part.flags.aligned and part.flags.writeable)
    if not fast:
        listed_sum([c0, c1], lin, 2 * N, -N, 2, h, part.dtype, part, **hooks)
        return
    if _core.lin_sin2_fill(N, part, *_barthann_constants(N)):
        for n in np.flatnonzero(np.isnan(part)).tolist():
            listed_sum([c0, c1], lin, 2 * N, 2 * n - N, 2, 1, part.dtype, part[n:n + 1])
