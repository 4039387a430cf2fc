"""A fast oracle for whole windows (issue 19's exhaustive check), independent of crtrig.

Nothing here imports crtrig.  For each symmetric length L (D = L - 1) the first half
i = 0 .. D//2 of scipy 1.17's real-number window is evaluated once in MPFR (gmpy2) at a
fixed precision P = 160 bits, with a rigorous absolute error bound E per element
(derived next to each formula below), and rounded into float64, float32, float16 and
bfloat16 from the enclosure [v - E, v + E]:

* a = RD(v - E) and b = RU(v + E) (MPFR, directed rounding at P bits) enclose the exact
  value x;  A_lo = the largest float64 <= a and B_hi = the smallest float64 >= b (from
  MPFR's correctly rounded float(), corrected by one exact comparison each) enclose it too.
* round-to-nearest into a format is monotone, so RN_f(A_lo) <= RN_f(x) <= RN_f(B_hi): when
  the two agree (value and sign), that is RN_f(x).  RN_f of a float64 *number* is computed
  exactly by ``round_float64`` (a single rounding of that number, subnormals included),
  so this is not a double rounding: nothing is rounded twice, the two ends are exact
  bounds.  For float64 itself RN64(a) and RN64(b) come from MPFR's float() (correctly
  rounded; results below 2^-1022 are sent to the slow path).
* an element any format cannot decide (an exact zero, an exact midpoint, a value within
  E of a rounding boundary) is evaluated by tests/oracle.py's per-element function
  (Ziv loops, exact rational points), for every format.

Every window here is symmetric (w[i] = w[L-1-i] in real numbers), so only the first
half is evaluated; where the value depends on i/D alone, an element with g = gcd(i, D) > 1
is copied from element i/g of D/g (already computed).  A periodic window of M points is
the first M of the symmetric window of M + 1 (scipy's _extend/_truncate).
"""

from __future__ import annotations

import math
from fractions import Fraction

import gmpy2
import numpy as np

import oracle

FORMATS = ("float64", "float32", "float16", "bfloat16")
#: (precision, minimum normal exponent) of the narrow formats.
_PE = {"float32": (24, -126), "float16": (11, -14), "bfloat16": (8, -126)}

P = 160
RN = gmpy2.context(precision=P)
RD = gmpy2.context(precision=P, round=gmpy2.RoundDown)
RU = gmpy2.context(precision=P, round=gmpy2.RoundUp)
PI = RN.const_pi()  # |PI - pi| <= pi 2^-P
U = gmpy2.mpfr(2, P) ** -P  # u = 2^-P: the relative error of one RN operation at P bits


def _u(multiple) -> gmpy2.mpfr:
    """multiple * u, rounded up (a bound; the float multiple converts exactly)."""
    return RU.mul(gmpy2.mpfr(float(multiple)), U)


def _q(fraction) -> gmpy2.mpfr:
    """RN(fraction) at P bits: one rounding of the exact rational (relative error <= u)."""
    fraction = Fraction(fraction)
    return gmpy2.mpfr(gmpy2.mpq(fraction.numerator, fraction.denominator), P)


def round_float64(x: np.ndarray, fmt: str) -> np.ndarray:
    """RN_fmt of each float64 *number* in x (exactly, ties to even, gradual underflow), as
    float64: x = m 2^k, m in [1/2, 1); the quantum is 2^(max(k - 1, emin) - (p - 1)); x
    scaled by a power of two (exact) is rounded to an integer by np.rint (to nearest, ties
    to even) and scaled back (exact).  |x| < 2^15 assumed (no overflow in any format)."""
    p, emin = _PE[fmt]
    _, k = np.frexp(x)
    qexp = np.maximum(k - 1, emin) - (p - 1)
    return np.ldexp(np.rint(np.ldexp(x, -qexp)), qexp)


def _same(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a == b) & (np.signbit(a) == np.signbit(b))


def decide(values, errors):
    """values: list of mpfr v (or None: undecided), errors: list of mpfr E (|x - v| <= E).
    Returns ({fmt: float64 array}, undecided bool array)."""
    n = len(values)
    A = np.empty(n)
    B = np.empty(n)
    lo_down = np.zeros(n, bool)
    hi_up = np.zeros(n, bool)
    undecided = np.zeros(n, bool)
    for j, (v, e) in enumerate(zip(values, errors)):
        if v is None:
            undecided[j] = True
            A[j] = B[j] = 0.0
            continue
        a = RD.sub(v, e)
        b = RU.add(v, e)
        fa = float(a)
        fb = float(b)
        A[j] = fa
        B[j] = fb
        lo_down[j] = fa > a  # exact comparisons (mpfr against float64)
        hi_up[j] = fb < b
    out = {}
    ok64 = _same(A, B) & (np.abs(A) >= 2.0 ** -1022)
    out["float64"] = A
    undecided |= ~ok64
    A_lo = np.where(lo_down, np.nextafter(A, -np.inf), A)
    B_hi = np.where(hi_up, np.nextafter(B, np.inf), B)
    for fmt in _PE:
        ra, rb = round_float64(A_lo, fmt), round_float64(B_hi, fmt)
        out[fmt] = ra
        undecided |= ~_same(ra, rb)
    return out, undecided


# ---------------------------------------------------------------------------
# Families: each gives, for a D >= 1, the half-window's (values, errors) lists of
# mpfr for i = 0 .. D//2, whether the value is a function of i/D alone, and the
# slow per-element oracle slow(L, i) -> {fmt: float}.
# ---------------------------------------------------------------------------

class CosineTable:
    """c[j] = cos(pi j / D), j = 0 .. D: for j <= D/2, RN(cos(RN(RN(PI j)/D))), the
    argument theta^ = (pi j/D)(1 + d1)(1 + d2)(1 + d3), |d| <= u, so |theta^ - theta| <=
    (pi/2) 3.0001 u < 4.8 u; cos is 1-Lipschitz and its rounding adds <= u: |c^ - c| <=
    5.8 u <= 16 u (the bound used below, EC).  For j > D/2, c[j] = -c[D - j] (exact: RN.minus at P bits;
    beware that gmpy2's operators use the global context, 53 bits by default, so every
    operation here goes through an explicit context).
    s[j] = sin(pi j / D) likewise (s[D - j] = s[j]), on demand."""
    EC = 16

    def __init__(self, D):
        self.D = D
        self._c = None
        self._s = None

    @property
    def c(self):
        if self._c is None:
            D, half = self.D, self.D // 2
            first = [RN.cos(RN.div(RN.mul(PI, j), D)) for j in range(half + 1)]
            self._c = first + [RN.minus(first[D - j]) for j in range(half + 1, D + 1)]
        return self._c

    def C(self, m):
        """cos(pi m / D) for any integer m >= 0 (period 2D, even)."""
        m %= 2 * self.D
        c = self.c
        return c[m] if m <= self.D else c[2 * self.D - m]

    @property
    def s(self):
        if self._s is None:
            D, half = self.D, self.D // 2
            first = [RN.sin(RN.div(RN.mul(PI, j), D)) for j in range(half + 1)]
            self._s = first + [first[D - j] for j in range(half + 1, D + 1)]
        return self._s


def cosine_sum_family(coefficients):
    """scipy's general_cosine: w[i] = sum_k a_k cos(k (-pi + 2 pi i/D)) =
    sum_k (-1)^k a_k cos(2 pi k i / D) (also hann, hamming, blackman, general_hamming
    and the ONNX windows).

    Bound: a^_k = RN(a_k), |a^ - a| <= |a| u; with |c^ - c| <= 16 u the product's
    |a^ c^ - a c| <= |a|(1 + u) 16 u + |a| u <= 17.01 |a| u, its rounding <= 1.01 |a| u:
    18.02 |a_k| u per term; K - 1 additions, each rounding <= 1.01 S u (S = sum |a_k|
    bounds every partial sum): E <= S (18.02 + 1.01 (K - 1)) u <= S (K + 20) u."""
    a = [Fraction(x) for x in coefficients]
    signed = [_q(x if k % 2 == 0 else -x) for k, x in enumerate(a)]
    S = sum(abs(x) for x in a)
    E = _u(float(S) * 1.0000001 * (len(a) + 20))
    K = len(a)

    def half(table, skip):
        D = table.D
        vals = []
        for i in range(D // 2 + 1):
            if i in skip:
                vals.append(None)
                continue
            v = RN.mul(signed[0], table.C(0))
            for k in range(1, K):
                v = RN.add(v, RN.mul(signed[k], table.C(2 * k * i)))
            vals.append(v)
        return vals, [E] * len(vals)

    def slow(L, i):
        return oracle.scipy_cosine_sum_value(a, L, True, i)

    return half, slow, True


def barthann_family():
    """scipy's barthann: f = |i/D - 1/2| = (D - 2i)/(2D) (i <= D/2), w = 0.62 - 0.48 f +
    0.38 cos(2 pi f), cos(2 pi f) = cos(pi (D - 2i)/D) = c[D - 2i].  r = 0.62 - 0.48 f =
    (76 D + 96 i)/(200 D) rounded once (<= 0.62 u); 0.38 rounded (relative u) times c^
    (16 u): <= 0.38 (17.01 u) + 0.39 u (the product's rounding); the sum <= 1.01 u:
    E <= 8.5 u; claimed 16 u."""
    c38 = _q(Fraction(38, 100))
    E = _u(16)

    def half(table, skip):
        D = table.D
        c = table.c
        vals = [None if i in skip else RN.add(RN.div(76 * D + 96 * i, 200 * D), RN.mul(c38, c[D - 2 * i]))
                for i in range(D // 2 + 1)]
        return vals, [E] * len(vals)

    return half, lambda L, i: oracle.scipy_barthann_value(L, True, i), True


def bohman_family():
    """scipy's bohman: f = |2i/D - 1| = (D - 2i)/D, w = (1 - f) cos(pi f) + sin(pi f)/pi,
    1 - f = 2i/D (rounded once, <= u), cos(pi f) = c[D - 2i] (16 u), sin(pi f) =
    s[D - 2i] (16 u).  Product: 17.01 u + its rounding 1.01 u; s^/PI: 16 u/pi (1.01)
    + (1/pi) 2.01 u (PI's and the quotient's roundings) <= 5.8 u; the sum's rounding
    <= 1.4 u: E <= 25.3 u, claimed 32 u."""
    E = _u(32)

    def half(table, skip):
        D = table.D
        s, c = table.s, table.c
        vals = [None if i in skip else RN.add(RN.mul(RN.div(2 * i, D), c[D - 2 * i]), RN.div(s[D - 2 * i], PI))
                for i in range(D // 2 + 1)]
        return vals, [E] * len(vals)

    return half, lambda L, i: oracle.scipy_bohman_value(L, True, i), True


def lanczos_family():
    """scipy's lanczos: sinc(x), x = 2i/D - 1, |x| = (D - 2i)/D: w = sin(theta)/theta,
    theta = pi (D - 2i)/D.  s^ = s[D - 2i] has |s^ - sin theta| <= 16 u; theta^ =
    RN(RN(PI (D - 2i))/D) = theta (1 + d), |d| <= 3.0001 u.  q = RN(s^/theta^):
    |s^/theta^ - sin theta/theta| <= 16 u/theta^ + (|sin theta|/theta) 3.01 u, with
    theta >= pi/D: <= (5.2 D + 3.01) u, plus the quotient's rounding u: E <= (6 D + 8) u.
    x = 0 (i = D/2) is sinc's 1 and goes to the slow oracle (exact 1)."""

    def half(table, skip):
        D = table.D
        E = _u(6 * D + 8)
        s = table.s
        vals = []
        for i in range(D // 2 + 1):
            m = D - 2 * i
            vals.append(None if m == 0 or i in skip else RN.div(s[m], RN.div(RN.mul(PI, m), D)))
        return vals, [E] * len(vals)

    return half, lambda L, i: oracle.scipy_lanczos_value(L, True, i), True


def tukey_family(alpha):
    """scipy's tukey, alpha = p/q in (0, 1): width = floor(alpha D/2); i <= width:
    w = (1 + cos(pi |x|))/2, |x| = |-1 + 2i/(alpha D)| = (p D - 2 i q)/(p D) in [0, 1];
    width < i <= D/2: 1 (scipy's middle piece; the third piece mirrors the first).
    theta^ = RN(RN(PI (pD - 2iq))/(pD)): |theta^ - theta| <= 3.0001 pi u < 9.5 u; cos
    adds u: 10.5 u; 1 + c^ rounds (<= 2 u), the halving is exact: E <= 6.3 u, claimed 8 u."""
    alpha = Fraction(alpha)
    p, q = alpha.numerator, alpha.denominator
    E = _u(8)
    one = gmpy2.mpfr(1, P)

    def half(table, skip):
        D = table.D
        width = (p * D) // (2 * q)
        vals = []
        for i in range(D // 2 + 1):
            if i in skip:
                vals.append(None)
            elif i > width:
                vals.append(one)
            else:
                c = RN.cos(RN.div(RN.mul(PI, p * D - 2 * i * q), p * D))
                vals.append(RN.div(RN.add(c, 1), 2))
        return vals, [E] * len(vals)

    return half, lambda L, i: oracle.tukey_value(L, alpha, True, i), True


def cosine_family():
    """scipy's cosine: w[i] = sin(pi (2i + 1)/(2L)), i <= D/2 (theta <= pi/2):
    theta^ = RN(RN(PI (2i + 1))/(2L)), |theta^ - theta| <= (pi/2) 3.0001 u < 4.8 u; sin is
    1-Lipschitz, its rounding u: E <= 5.8 u, claimed 8 u.  Depends on L, not on i/D."""
    E = _u(8)

    def half(table, skip):
        L = table.D + 1
        vals = [RN.sin(RN.div(RN.mul(PI, 2 * i + 1), 2 * L)) for i in range(table.D // 2 + 1)]
        return vals, [E] * len(vals)

    return half, lambda L, i: oracle.scipy_cosine_value(L, True, i), False


def rational_family(name):
    """boxcar, triang, bartlett, parzen: oracle._scipy_rational_value's exact rational
    (scipy's formula without rounding), rounded once to P bits (relative u): E = |v| u."""

    def half(table, skip):
        L = table.D + 1
        vals, errs = [], []
        for i in range(table.D // 2 + 1):
            v = gmpy2.mpfr(oracle._scipy_rational_value(name, L, i), P)
            vals.append(v)
            errs.append(RU.mul(RU.abs(v), U))
        return vals, errs

    return half, lambda L, i: oracle.rational_window_value(name, L, True, i), False


# --- I0 for kaiser and kaiser_bessel_derived -------------------------------------

def i0_series(y):
    """I0(z) = sum_k y^k/(k!)^2 with y = z^2/4 >= 0 (y an exact rational, mpq), and a
    relative error bound (a float multiple of u).

    y^ = RN(y) (relative u); t_k = RN(RN(t_{k-1} y^)/k^2): t^_k = t_k (1 + e_k),
    |e_k| <= (1 + u)^(3k) - 1 <= 3.01 k u (y^'s error k times, two roundings per step);
    k additions of positive terms: relative (1 + u)^k - 1 <= 1.01 k u more.  The loop
    stops after adding t_k once (k + 1)^2 >= 4 y^ (so every later ratio t_{j+1}/t_j =
    y/(j+1)^2 <= 1/4 (1 + u), the tail is <= t_k/3 (1 + 2u)) and t^_k <= s^ 2^-(P+4):
    the tail is <= s u/40.  Relative error <= (4.02 k + 0.1) u: claimed (4.1 k + 1)."""
    yv = gmpy2.mpfr(y, P)
    four_y = RU.mul(yv, 4)
    s = gmpy2.mpfr(1, P)
    t = s
    k = 0
    tiny = gmpy2.mpfr(2, P) ** -(P + 4)
    while True:
        k += 1
        t = RN.div(RN.mul(t, yv), k * k)
        s = RN.add(s, t)
        if (k + 1) ** 2 >= four_y and t <= RN.mul(s, tiny):
            return s, 4.1 * k + 1


def kaiser_family(beta):
    """scipy's kaiser: w[i] = I0(beta sqrt(1 - t^2))/I0(beta), t = 2i/D - 1, so
    z^2/4 = beta^2 i (D - i)/D^2 (exact).  Both I0 by i0_series (relative r1, r2); the
    quotient's rounding u: relative (r1 + r2 + 1) u (1.01), times |w| <= 1 for E."""
    beta = abs(Fraction(beta))
    b2 = gmpy2.mpq(beta.numerator ** 2, beta.denominator ** 2)
    i0b, rb = i0_series(b2 / 4)

    def half(table, skip):
        D = table.D
        vals, errs = [], []
        for i in range(D // 2 + 1):
            if i in skip:
                vals.append(None)
                errs.append(None)
                continue
            num, r = i0_series(b2 * gmpy2.mpq(i * (D - i), D * D))
            v = RN.div(num, i0b)
            vals.append(v)
            errs.append(RU.mul(RU.abs(v), _u((r + rb + 1) * 1.01)))
        return vals, errs

    def slow(L, i):
        return {fmt: oracle.kaiser_value(L, i, beta, fmt) for fmt in FORMATS}

    return half, slow, True


def kbd_half(D, beta, memo):
    """kaiser_bessel_derived(M = 2D, beta), first half n = 0 .. D-1, as (values, errors):
    scipy's recipe with kaiser(D + 1, beta): v_j = I0(z_j)/I0(beta) (relative r_j as in
    kaiser_family), S_n = sum_{j<=n} v_j, T = S_D, w_n = sqrt(S_n/T).  Positive sums of
    D + 1 terms: relative <= rho + 1.01 D u (rho = max r_j); the quotient: <= 2.01 (rho +
    1.01 D u) + u; the root halves it and adds u: <= 1.01 (rho + 1.01 D u) + 1.6 u.
    Claimed (1.05 (rho + D + 2)) u relative, w <= 1.  memo: (j', D') reduced -> (I0, r)."""
    beta = abs(Fraction(beta))
    b2 = gmpy2.mpq(beta.numerator ** 2, beta.denominator ** 2)
    i0b, rb = memo.setdefault("beta", i0_series(b2 / 4))
    v = []
    rho = 0.0
    for j in range(D + 1):
        jj = min(j, D - j)
        g = math.gcd(jj, D)
        key = (jj // g, D // g)
        if key not in memo:
            memo[key] = i0_series(b2 * gmpy2.mpq(jj * (D - jj), D * D))
        num, r = memo[key]
        v.append(RN.div(num, i0b))
        rho = max(rho, r + rb + 1.01)
    sums = []
    total = gmpy2.mpfr(0, P)
    for x in v:
        total = RN.add(total, x)
        sums.append(total)
    rel = _u(1.05 * (rho + D + 2))
    vals = [RN.sqrt(RN.div(sums[n], total)) for n in range(D)]
    return vals, [RU.mul(x, rel) for x in vals]


# ---------------------------------------------------------------------------
# Driver: the half windows of every L in [L_min, L_max] of one family.
# ---------------------------------------------------------------------------

def half_windows(family, L_min, L_max, progress=None, need_sine=False):
    """{L: {fmt: float64 array of the first (L + 1)//2 values}} for L_min <= L <= L_max
    (L >= 2), plus the count of elements sent to the slow oracle."""
    half, slow, by_ratio = family
    result = {}
    slow_count = 0
    for L in range(max(L_min, 2), L_max + 1):
        D = L - 1
        table = CosineTable(D)
        copied = {}
        if by_ratio:
            for i in range(D // 2 + 1):
                g = math.gcd(i, D)
                if g > 1 and (D // g) + 1 in result:
                    copied[i] = (D // g + 1, i // g)
        vals, errs = half(table, copied)
        out, undecided = decide(vals, errs)
        for i, (L2, i2) in copied.items():
            for fmt in FORMATS:
                out[fmt][i] = result[L2][fmt][i2]
            undecided[i] = False
        for i in np.flatnonzero(undecided):
            got = slow(L, int(i))
            slow_count += 1
            for fmt in FORMATS:
                out[fmt][i] = got[fmt]
        result[L] = out
        if progress is not None:
            progress(L)
    return result, slow_count


def kbd_half_windows(beta, D_min, D_max, progress=None):
    """{D: {fmt: first half (D values) of kaiser_bessel_derived(2D, beta)}}; undecided
    elements from tests/oracle.py's kbd_window (the whole window, once per such D)."""
    memo = {}
    result = {}
    slow_count = 0
    for D in range(max(D_min, 1), D_max + 1):
        vals, errs = kbd_half(D, beta, memo)
        out, undecided = decide(vals, errs)
        if undecided.any():
            whole = oracle.kbd_window(2 * D, Fraction(beta), FORMATS)
            for i in np.flatnonzero(undecided):
                slow_count += 1
                for fmt in FORMATS:
                    out[fmt][i] = float(whole[fmt][i].astype(np.float64)) if fmt != "bfloat16" \
                        else float(whole[fmt][i].astype(np.float32))
        result[D] = out
        if progress is not None:
            progress(D)
    return result, slow_count


def exp_half_windows(name, params, L_min, L_max):
    """gaussian, general_gaussian, exponential (centre None): the value depends on
    k = |2i - D| only; exp(-q_k) by tests/oracle.py's exp_neg_value (mpmath, Ziv loop),
    once per k and format."""
    table = {fmt: [oracle.exp_neg_value(oracle._scipy_exp_argument(name, k + 1, 0, params), fmt)
                   for k in range(L_max)] for fmt in FORMATS}
    result = {}
    for L in range(max(L_min, 2), L_max + 1):
        D = L - 1
        ks = [D - 2 * i for i in range(D // 2 + 1)]
        result[L] = {fmt: np.array([table[fmt][k] for k in ks]) for fmt in FORMATS}
    return result, 0


# --- scipy's taylor -----------------------------------------------------------------

def _ball(interval):
    """An mpmath.iv interval [lo, hi] as (a^, rad): a^ = RN_P((lo + hi)/2) and an upper
    bound rad >= max(a^ - lo, hi - a^) (exact rational differences rounded up), so the
    interval, and the number it encloses, lies in [a^ - rad, a^ + rad]."""
    lo, hi = (oracle._exact(x) for x in oracle._iv_ends(interval))
    centre = gmpy2.mpfr((lo + hi) / 2, P)
    exact_centre = gmpy2.mpq(centre)
    radius = max(exact_centre - lo, hi - exact_centre)
    return centre, gmpy2.mpfr(float(radius) * 1.0001 + 2.0 ** -1000, P)  # a float: exact at P bits


def taylor_family(nbar, sll, norm):
    """scipy's taylor(L, nbar, sll, norm), symmetric: W = a_0 + sum_{m=1}^{nbar-1} a_m
    cos(pi m j/L), j = 2i - L + 1 (scipy's 2 pi m (i - L/2 + 1/2)/L), with
    tests/oracle.py's interval coefficients a_m (scipy's formulas in mpmath.iv at 320
    bits, every operation rounded outward; norm divides by the centre there) taken as
    balls a^_m +- rad_m (_ball).

    Bound: c_r = cos(pi r/L) for r = (m j mod 2L) folded into [0, L] (cos is even with
    period 2L): theta^ = RN(RN(PI r)/L) = theta (1 + d), |d| <= 3.0001 u, theta <= pi:
    |theta^ - theta| < 9.5 u; cos is 1-Lipschitz, its rounding adds u: |c^ - c| <= 16 u.
    With A_m = |a^_m| + rad_m (>= |a_m| and |a^_m|): each term RN(a^_m c^_m) is within
    rad_m (1 + 16 u) + 16 A_m u (the factors' errors) + A_m (1 + 16 u) u (the product's
    rounding) <= 1.0001 rad_m + 17.01 A_m u of a_m c_m; a_0 is within rad_0; nbar - 1
    additions, each rounding <= 1.0001 S u (S = sum A_m bounds every partial sum):
    E <= 1.0001 sum rad_m + (nbar + 17) 1.0001 S u; claimed 1.01 sum rad_m + (nbar + 20) S u.
    Depends on L (not i/D alone): nothing is copied."""
    import mpmath

    sll = Fraction(sll)
    iv = mpmath.iv
    saved = iv.prec
    try:
        iv.prec = 320
        coefficients = oracle._taylor_coefficients(nbar, sll, norm, 320)
    finally:
        iv.prec = saved
    balls = [_ball(a) for a in coefficients]
    a_hat = [b[0] for b in balls]
    # float sums of a few positive floats, each within 1.0001 of the exact one:
    S = sum(float(abs(c)) + float(r) for c, r in balls) * 1.0001
    radii = sum(float(r) for _, r in balls) * 1.0001
    E = RU.add(gmpy2.mpfr(radii * 1.01, P), _u(S * (nbar + 20)))

    def half(table, skip):
        L = table.D + 1
        cos = {}

        def C(r):
            r %= 2 * L
            r = min(r, 2 * L - r)
            if r not in cos:
                cos[r] = RN.cos(RN.div(RN.mul(PI, r), L))
            return cos[r]

        vals = []
        for i in range(table.D // 2 + 1):
            j = 2 * i - L + 1
            v = a_hat[0]
            for m in range(1, nbar):
                v = RN.add(v, RN.mul(a_hat[m], C(m * j)))
            vals.append(v)
        return vals, [E] * len(vals)

    def slow(L, i):
        return oracle.scipy_taylor_value(L, i, nbar, sll, norm)

    return half, slow, False
