"""Windows whose values are rational numbers: boxcar, triang, bartlett, parzen.

Each value is an exact quotient of integers num/den, rounded once to
nearest-even into the output format.  How, and why it is exact:

1. float64.  When 0 <= num <= 2**53 and 1 <= den <= 2**53, both convert to
   float64 exactly and one IEEE 754 division (numpy's ``/`` on float64 arrays)
   returns the quotient correctly rounded in the current rounding mode
   (IEEE 754-2008, 5.4.1: every arithmetic operation is computed as if exactly,
   then rounded once).  The rounding mode is checked to be round-to-nearest
   first (`_rounding_is_nearest`); otherwise every element goes through the
   exact integer path below.  Larger integers are Python ints in object arrays:
   CPython's int / int true division is correctly rounded (round-half-even) for
   any size (Objects/longobject.c, long_true_divide: the quotient's 55 leading
   bits and a sticky bit are computed in integer arithmetic, rounded in
   integers, then scaled by ldexp, which is exact), independent of the
   floating-point rounding mode.

2. float32, bfloat16, float16 (p = 24, 8, 11 significant bits).  From q =
   RN53(x), x = num/den: every number of the narrow format in the range used
   here, and every midpoint between two consecutive ones (p + 1 bits, exponents
   >= emin - p), is a float64.  If q is not such a midpoint, q lies strictly
   between two consecutive midpoints m1 < q < m2, and so does x: x <= m1 would
   give q = RN53(x) <= m1 (rounding is monotone and m1 is a double).  So RN_p(q)
   = RN_p(x): no double rounding.  If q is a midpoint, the sign of x - q is
   computed exactly in integers (`_exact_sign`) and decides the direction; x = q
   is a tie, rounded to even.  (This is the case that Figueroa's theorem -- double
   rounding is innocuous for +, -, *, / when 53 >= 2p + 2 -- excludes when
   num and den are themselves p-bit numbers; here they need not be, so the
   midpoint test is what makes the rounding single, for every size.)

   RN_p(q) is computed in float64 without any library cast: with e the exponent
   of q's binade clamped to the format's emin (subnormals of the format),
   r = q * 2**(p - 1 - e) is exact (a power-of-two scaling of a value <= 2,
   result far from underflow and overflow), the format's numbers near q are the
   integers at this scale, np.rint(r) rounds to the nearest integer, ties to
   even (round-to-nearest mode, checked), and the result scaled back is exactly
   a number of the format, which numpy (float32, float16) and float64 -> float32
   -> bfloat16 (ml_dtypes) then convert without rounding.

Integer outputs are, as for every crtrig window, the correctly rounded float32
window truncated toward zero (ONNX's Cast): values in [0, 1] give 0 or 1.
"""
import numpy as np

from ._dtypes import is_bfloat16

#: Largest integer a float64 holds exactly with all its neighbours: the
#: int64 path needs 0 <= num <= 2**53 and 1 <= den <= 2**53.
EXACT_INT = 2**53

#: (significant bits p, minimum normal exponent emin) of the narrow formats.
_NARROW = {"float32": (24, -126), "bfloat16": (8, -126), "float16": (11, -14)}

_PROBE_A = np.array([1.0, -1.0, 1.0, -1.0])
_PROBE_B = np.array([2.0**-60, 2.0**-60, -(2.0**-60), -(2.0**-60)])


def _rounding_is_nearest():
    """Whether numpy's float64 arithmetic rounds to nearest in this thread now:
    1 +- 2**-60 and -1 +- 2**-60 all give +-1 only then (upward gives 1 + 2**-52
    for 1 + 2**-60, downward -1 - 2**-52 for -1 - 2**-60, toward zero 1 - 2**-53
    for 1 - 2**-60)."""
    return bool(np.all((_PROBE_A + _PROBE_B) == _PROBE_A))


def _format_name(dt):
    if is_bfloat16(dt):
        return "bfloat16"
    return {np.dtype(np.float16): "float16", np.dtype(np.float32): "float32",
            np.dtype(np.float64): "float64"}.get(dt)


def _exact_sign(num, den, q):
    """sign(num/den - q) for Python ints num, den > 0 and a float q, exactly."""
    a, b = float(q).as_integer_ratio()
    diff = int(num) * b - a * int(den)
    return (diff > 0) - (diff < 0)


def _quotients_f64(num, den, nearest):
    """RN53(num/den) elementwise: int64 arrays (0 <= num, 1 <= den, both <= 2**53)
    by one float64 division in round-to-nearest, else Python ints (object arrays)
    by CPython's correctly rounded int / int."""
    if num.dtype != object and nearest:
        return num.astype(np.float64) / den.astype(np.float64)
    return np.array([int(a) / int(b) for a, b in zip(num.tolist(), den.tolist())], dtype=np.float64)


def _round_narrow(q, num, den, fmt):
    """RN_p(num/den) as float64 values, from q = RN53(num/den) (see the module
    docstring, point 2); round-to-nearest mode."""
    p, emin = _NARROW[fmt]
    _, e = np.frexp(q)  # q = m 2**e, 1/2 <= m < 1 (q = 0: e = 0)
    scale = (p - 1) - np.maximum(e.astype(np.int64) - 1, emin)
    r = np.ldexp(q, scale)
    k = np.rint(r)
    floor = np.floor(r)
    midpoints = np.nonzero(r - floor == 0.5)[0]
    if midpoints.size:
        num_list, den_list = num[midpoints].tolist(), den[midpoints].tolist()
        for j, i in enumerate(midpoints.tolist()):
            sign = _exact_sign(num_list[j], den_list[j], q[i])
            if sign > 0:
                k[i] = floor[i] + 1
            elif sign < 0:
                k[i] = floor[i]
            # sign == 0: a tie, np.rint's even neighbour
    return np.ldexp(k, -scale)


def round_quotients(num, den, dt):
    """The array num/den, each value rounded once to nearest-even into numpy dtype
    `dt` (a float format of crtrig's, or an integer type: the float32 value
    truncated toward zero).  num >= 0 and den >= 1 are int64 arrays with values
    at most 2**53, or object arrays of Python ints of any size."""
    nearest = _rounding_is_nearest()
    fmt = _format_name(dt) if dt.kind in "fV" else "float32"
    q = _quotients_f64(num, den, nearest)
    if fmt != "float64":
        if not nearest:  # the narrow rounding needs round-to-nearest: exact integers instead
            from .reference import bits_to_float, round_rational
            q = np.array([bits_to_float(round_rational(int(a), int(b), fmt), fmt)
                          for a, b in zip(num.tolist(), den.tolist())], dtype=np.float64)
        else:
            q = _round_narrow(q, num, den, fmt)
    if fmt == "bfloat16":
        return q.astype(np.float32).astype(dt)  # exact: q is a bfloat16 value
    return q.astype(dt)  # exact for float outputs (q is a value of dt); truncation for integers


def _index_arrays(M, sym, index=None):
    """(L, i): the symmetric window's length L (M, or M + 1 for a periodic window,
    whose values are the first M of that symmetric window, as in scipy) and the
    indices i = 0 .. M-1 as int64 (or the given int64 `index` array: the tests'
    samples of windows too long to build)."""
    L = M if sym else M + 1
    return L, (np.arange(M, dtype=np.int64) if index is None else np.asarray(index, dtype=np.int64))


def _as_objects(a):
    return np.array(a.tolist(), dtype=object)


def triang_fraction(M, sym, index=None):
    """(num, den) of scipy's triang: with L the symmetric length, j = min(i, L-1-i):
    (2j + 1)/L for even L, 2(j + 1)/(L + 1) for odd L (scipy: n = j + 1,
    (2n - 1)/L and 2n/(L + 1))."""
    L, i = _index_arrays(M, sym, index)
    j = np.minimum(i, L - 1 - i)
    if L % 2 == 0:
        num, den = 2 * j + 1, L
    else:
        num, den = 2 * (j + 1), L + 1
    if den > EXACT_INT:
        num, den = _as_objects(num), den
    return num, np.full(num.shape, den, dtype=num.dtype)


def bartlett_fraction(M, sym, index=None):
    """(num, den) of scipy's bartlett: 2n/(L-1) for n <= (L-1)/2, else
    2 - 2n/(L-1) = 2(L-1-n)/(L-1): 2 min(n, L-1-n)/(L-1) exactly (L >= 2)."""
    L, i = _index_arrays(M, sym, index)
    num = 2 * np.minimum(i, L - 1 - i)  # <= L - 1 <= 2**53
    return num, np.full(num.shape, L - 1, dtype=np.int64)


#: Largest symmetric length whose parzen fractions stay within 2**53 (2 L**3 <= 2**52).
PARZEN_INT64_MAX = 2**17


def parzen_fraction(M, sym, index=None):
    """(num, den) of scipy's parzen, exactly.  With L the symmetric length and
    k = |2i - (L - 1)| (= 2|n| for scipy's n = i - (L-1)/2), t = |n|/(L/2) = k/L:
    for |n| <= (L-1)/4, i.e. 2k <= L - 1 (scipy's boundary, as written),
    w = 1 - 6 t^2 + 6 t^3 = (L^3 - 6 k^2 L + 6 k^3)/L^3; otherwise
    w = 2 (1 - t)^3 = 2 (L - k)^3/L^3.  Both numerators are in [0, 2 L^3]
    (w in [0, 1] on its piece: 1 - 6t^2 + 6t^3 >= 1/4 for t <= 1/2), so for
    L <= 2**17 every integer is at most 2**52 (int64 path); beyond, Python ints."""
    L, i = _index_arrays(M, sym, index)
    if L > PARZEN_INT64_MAX:
        i = _as_objects(i)
        L_ = L
    else:
        L_ = np.int64(L)
    k = abs(2 * i - (L_ - 1))
    inner = 2 * k <= L - 1
    num = np.where(inner, L_ * L_ * L_ - 6 * k * k * L_ + 6 * k * k * k, 2 * (L_ - k) ** 3)
    if num.dtype != object:
        num = num.astype(np.int64)
    den = np.full(num.shape, L_ * L_ * L_, dtype=num.dtype)
    return num, den


FRACTIONS = {"triang": triang_fraction, "bartlett": bartlett_fraction, "parzen": parzen_fraction}


def window_values(name, M, sym, dt, index=None):
    """Elements of the window `name` (M >= 2) rounded into dt: all of them, or those at
    the int64 array `index`."""
    num, den = FRACTIONS[name](M, sym, index)
    return round_quotients(num, den, dt)
