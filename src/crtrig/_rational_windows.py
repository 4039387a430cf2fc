"""Windows whose values are rational numbers: boxcar, triang, bartlett, parzen.

Each value is an exact quotient of integers num/den, rounded once to
nearest-even into the output format.  How, and why it is exact:

1. float64.  When 0 <= num <= 2**53 and 1 <= den <= 2**53, both convert to
   float64 exactly and one IEEE 754 division (numpy's ``/`` on float64 arrays)
   returns the quotient correctly rounded in the current rounding mode
   (IEEE 754-2008, 5.4.1: every arithmetic operation is computed as if exactly,
   then rounded once).  Larger integers are Python ints in object arrays:
   CPython's int / int true division is correctly rounded (round-half-even) for
   any size (Objects/longobject.c, long_true_divide: operands below 2**53 by one
   hardware division; otherwise the quotient's leading bits and a sticky bit in
   integer arithmetic, rounded in integers, then scaled exactly by ldexp), in
   round-to-nearest (its fast path follows the current mode, as the tests
   showed).  So the rounding mode is checked first (`_rounding_is_nearest`);
   in any other mode every element is rounded by crtrig.reference.round_rational
   (integers only), in every format.

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

# Module-level operands, so that the additions below run at call time (CPython folds
# constant expressions at compile time, never these).
_ONE = 1.0
_TINY = 2.0**-60
_MIN_NORMAL = float.fromhex("0x1p-1022")
_SUBNORMAL = float.fromhex("0x0.8p-1022")


def _rounding_is_nearest():
    """Whether float64 arithmetic rounds to nearest, with subnormals, in this thread
    now: 1 +- 2**-60
    and -1 +- 2**-60 all give +-1 only then (upward gives 1 + 2**-52 for 1 + 2**-60,
    downward -1 - 2**-52 for -1 - 2**-60, toward zero 1 - 2**-53 for 1 - 2**-60).
    CPython's float additions and numpy's loops run on the same thread's SSE
    control register (MXCSR on x86-64, FPCR on aarch64), so a Python-float probe
    answers for numpy's arithmetic too."""
    return (_ONE + _TINY == _ONE and _ONE - _TINY == _ONE and -_ONE + _TINY == -_ONE
            and -_ONE - _TINY == -_ONE
            # and neither FTZ (a subnormal result flushed) nor DAZ (a subnormal operand
            # read as 0), which would flush the narrow formats' subnormal outputs
            and _MIN_NORMAL * 0.5 == _SUBNORMAL and _SUBNORMAL * 2.0 == _MIN_NORMAL)


def _format_name(dt):
    if is_bfloat16(dt):
        return "bfloat16"
    return {2: "float16", 4: "float32", 8: "float64"}[dt.itemsize]  # kind "f", any byte order


def _exact_sign(num, den, q):
    """sign(num/den - q) for integers num >= 0, den > 0 and a float q, exactly."""
    a, b = float(q).as_integer_ratio()
    diff = int(num) * b - a * int(den)
    return (diff > 0) - (diff < 0)


def _quotients_f64(num, den):
    """RN53(num/den) elementwise, den a Python int >= 1, in round-to-nearest.  num
    is a float64 array of integers (each exact: below 2**53) with den <= 2**53: one
    float64 division.  Otherwise (object arrays of Python ints, a larger den):
    CPython's correctly rounded int / int."""
    if num.dtype == np.float64 and den <= EXACT_INT:
        return num / float(den)
    return np.array([int(a) / den for a in num.tolist()], dtype=np.float64)


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
    for i in midpoints.tolist():
        sign = _exact_sign(num[i], den, q[i])
        if sign > 0:
            k[i] = floor[i] + 1
        elif sign < 0:
            k[i] = floor[i]
        # sign == 0: a tie, np.rint's even neighbour
    return np.ldexp(k, -scale)


def round_quotients(num, den, dt):
    """The array num/den, each value rounded once to nearest-even into numpy dtype
    `dt` (a float format of crtrig's, or an integer type: the float32 value
    truncated toward zero).  den is a Python int >= 1; num >= 0 a float64 array of
    integers below 2**53 (overwritten for float64 outputs), or an object array of
    Python ints of any size."""
    fmt = _format_name(dt) if dt.kind in "fV" else "float32"
    if not _rounding_is_nearest():  # another rounding mode, FTZ or DAZ: exact integers only
        from .reference import round_rational
        bits_type = {"float64": np.uint64, "float32": np.uint32}.get(fmt, np.uint16)
        bits = np.array([round_rational(int(a), den, fmt) for a in num.tolist()], dtype=bits_type)
        native = dt if fmt == "bfloat16" else np.dtype(fmt)
        # No arithmetic on the values (under FTZ a conversion would flush subnormals):
        # the bits viewed as their format, then a copy, a byte swap or, for integer
        # outputs, the truncation of a value in [0, 1].
        return bits.view(native).astype(dt)
    if fmt == "float64" and num.dtype == np.float64 and den <= EXACT_INT:
        q = np.divide(num, float(den), out=num)  # _quotients_f64 in place: num is not needed after
    else:
        q = _quotients_f64(num, den)
    if fmt != "float64":
        q = _round_narrow(q, num, den, fmt)
    if fmt == "bfloat16":
        return q.astype(np.float32).astype(dt)  # exact: q is a bfloat16 value
    # exact for float outputs (q is a value of dt); truncation for integers
    return q.astype(dt, copy=False)


def _folded(L, index):
    """j = min(i, L - 1 - i) for the symmetric window of L points: the first half
    0 .. ceil(L/2) - 1 (as float64, exact), or the folded `index` (int64 array)."""
    if index is None:
        return np.arange((L + 1) // 2, dtype=np.float64)
    index = np.asarray(index, dtype=np.int64)
    return np.minimum(index, L - 1 - index).astype(np.float64)


def _length_of(M, sym):
    """The symmetric window's length: M, or M + 1 for a periodic window, whose values
    are the first M of that symmetric window (scipy's _extend and _truncate)."""
    return M if sym else M + 1


def _objects(j):
    return np.array([int(x) for x in j.tolist()], dtype=object)


def triang_fraction(M, sym, index=None):
    """(num, den) of scipy's triang at the folded indices j = min(i, L-1-i):
    (2j + 1)/L for even L, 2(j + 1)/(L + 1) for odd L (scipy: n = j + 1, (2n - 1)/L
    and 2n/(L + 1)).  Numerators are at most L + 1: exact in float64 below 2**53."""
    L = _length_of(M, sym)
    if index is None and L + 1 <= EXACT_INT:  # the numerators directly: one exact arange
        half = (L + 1) // 2
        if L % 2 == 0:
            return np.arange(1, 2 * half, 2, dtype=np.float64), L
        return np.arange(2, 2 * half + 1, 2, dtype=np.float64), L + 1
    j = _folded(L, index)
    if L + 1 > EXACT_INT:
        j = _objects(j)
    if L % 2 == 0:
        return 2 * j + 1, L
    return 2 * (j + 1), L + 1


def bartlett_fraction(M, sym, index=None):
    """(num, den) of scipy's bartlett: 2n/(L-1) for n <= (L-1)/2, else
    2 - 2n/(L-1) = 2(L-1-n)/(L-1): 2j/(L-1) with j = min(n, L-1-n), exactly (L >= 2;
    2j <= L - 1 <= 2**53)."""
    L = _length_of(M, sym)
    if index is None:
        return np.arange(0, 2 * ((L + 1) // 2), 2, dtype=np.float64), L - 1
    return 2 * _folded(L, index), L - 1


#: Largest symmetric length whose parzen integers all stay below 2**53 (2 L**3 <= 2**52).
PARZEN_FLOAT_MAX = 2**17


def parzen_fraction(M, sym, index=None):
    """(num, den) of scipy's parzen, exactly.  With L the symmetric length and, at the
    folded index j, k = L - 1 - 2j (= 2|n| for scipy's n = i - (L-1)/2), t = k/L:
    for |n| <= (L-1)/4, i.e. 2k <= L - 1 (scipy's boundary, as written),
    w = 1 - 6 t^2 + 6 t^3 = (L^3 - 6 k^2 (L - k))/L^3; otherwise
    w = 2 (1 - t)^3 = 2 (L - k)^3/L^3.

    Exactness in float64 for L <= 2**17 (every operand and result an integer below
    2**53, so every operation is exact): k^2 <= 2^34, k^2 (L - k) and 6 k^2 (L - k)
    <= (8/9) L^3 <= 2^51 (the maximum of 6 k^2 (L - k) over k is at k = 2L/3), L^3 <=
    2^51, the inner numerator in [L^3/4, L^3], 2 (L - k)^3 <= 2 L^3 <= 2^52.  Larger L:
    Python ints."""
    L = _length_of(M, sym)
    j = _folded(L, index)
    big = L > PARZEN_FLOAT_MAX
    if big:
        j = _objects(j)
    k = (L - 1) - 2 * j
    inner = 2 * k <= L - 1
    num = np.empty(k.shape, dtype=object if big else np.float64)
    ki, ko = k[inner], k[~inner]
    num[inner] = L**3 - 6 * (ki * ki) * (L - ki)
    d = L - ko
    num[~inner] = 2 * (d * d) * d  # products, not ** 3: numpy 1.23's float power calls pow(),
    # which is not exact under a directed rounding mode (53.99999999999999 for 2 * 3**3)
    return num, L**3


FRACTIONS = {"triang": triang_fraction, "bartlett": bartlett_fraction, "parzen": parzen_fraction}


def window_values(name, M, sym, dt, index=None):
    """The window `name` (M >= 2) rounded into dt: the whole window (its first half
    computed, then mirrored: w[i] = w[L - 1 - i]), or the elements at the int64
    array `index`."""
    num, den = FRACTIONS[name](M, sym, index)
    values = round_quotients(num, den, dt)
    if index is not None:
        return values
    L = _length_of(M, sym)
    half = values.shape[0]
    result = np.empty(M, dtype=values.dtype)
    result[:half] = values
    # w[i] = w[L - 1 - i]: i = half .. M-1 takes values[L - 1 - i], from L - 1 - half down.
    result[half:] = values[L - 1 - half:L - 1 - M:-1] if L - 1 - M >= 0 else values[L - 1 - half::-1]
    return result
