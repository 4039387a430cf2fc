"""The shared test oracle: correctly rounded values from mpmath and gmpy2 only.

Nothing here imports crtrig.  Values are evaluated with mpmath at a working
precision ``prec`` together with an absolute error bound; both ends of the
enclosure are rounded into the target format by MPFR (through gmpy2, whose
IEEE contexts emulate subnormals with a single rounding).  When the two ends
round differently the enclosure straddles a rounding boundary and the
precision is doubled (Ziv's strategy).

The window is evaluated from the ONNX cosine-sum definition

    w[n] = sum_j (-1)^j a_j cos(2 pi j n / D)

(deliberately not from the sin^2 form crtrig.reference uses), with cosines
that are rational -- cos(2 pi q) for q mod 1 in {0, 1/6, 1/4, 1/3, 1/2, ...}
-- taken exactly, so that exact values such as 0, 1/2 and 1 are rounded from
an exact rational.

``round_to_format`` and ``correctly_rounded`` are generic, so element-wise
functions (sin, cos, ...) can be added on top of them.

Sine and cosine (``trig_value``, ``trig``) come straight from MPFR: its sin
and cos are correctly rounded in the precision and exponent range of the
current context, and gmpy2 subnormalizes the result (MPFR's
``mpfr_subnormalize`` with the function's ternary value), which gives the
single correct rounding into a format with subnormals.  Use a context made
with ``gmpy2.context(...)``: ``gmpy2.local_context`` was seen to mis-round.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

import gmpy2
import ml_dtypes
import mpmath
import numpy as np

#: MPFR contexts of the float formats.  MPFR writes x = m * 2**e with m in
#: [1/2, 1), so emax is one more than the IEEE emax and emin is the exponent
#: of the smallest subnormal plus one.
FORMAT_CONTEXTS = {
    "float16": gmpy2.ieee(16),  # precision 11, emin -23, emax 16
    "bfloat16": gmpy2.context(precision=8, emin=-132, emax=128, subnormalize=True),
    "float32": gmpy2.ieee(32),  # precision 24, emin -148, emax 128
    "float64": gmpy2.ieee(64),  # precision 53, emin -1073, emax 1024
}

FLOAT_FORMATS = tuple(FORMAT_CONTEXTS)
INTEGER_FORMATS = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")

NUMPY_DTYPES = {
    "float16": np.dtype(np.float16),
    "bfloat16": np.dtype(ml_dtypes.bfloat16),
    "float32": np.dtype(np.float32),
    "float64": np.dtype(np.float64),
    **{name: np.dtype(name) for name in INTEGER_FORMATS},
}

#: ONNX cosine-sum coefficients a_j, exact.
COEFFICIENTS = {
    "hann": (Fraction(1, 2), Fraction(1, 2)),
    "hamming": (Fraction(25, 46), Fraction(21, 46)),
    "blackman": (Fraction(21, 50), Fraction(1, 2), Fraction(2, 25)),
}

#: cos(2 pi q) for the q in [0, 1) where it is rational (Niven's theorem).
_RATIONAL_COS = {
    Fraction(0): Fraction(1),
    Fraction(1, 6): Fraction(1, 2),
    Fraction(1, 4): Fraction(0),
    Fraction(1, 3): Fraction(-1, 2),
    Fraction(1, 2): Fraction(-1),
    Fraction(2, 3): Fraction(-1, 2),
    Fraction(3, 4): Fraction(0),
    Fraction(5, 6): Fraction(1, 2),
}


def format_name(fmt) -> str:
    """Canonical name of a format given as name, numpy dtype or scalar type."""
    if isinstance(fmt, str) and fmt in NUMPY_DTYPES:
        return fmt
    name = np.dtype(fmt).name
    if name not in NUMPY_DTYPES:
        raise TypeError(f"unsupported format {fmt!r}")
    return name


def _exact(x) -> gmpy2.mpq:
    """Exact rational value of an int, Fraction, float or mpmath mpf."""
    if isinstance(x, mpmath.mpf):
        mantissa, exponent = x.man_exp  # |x| = mantissa * 2**exponent: man_exp has no sign
        mantissa = -int(mantissa) if x < 0 else int(mantissa)
        if exponent >= 0:
            return gmpy2.mpq(mantissa << exponent, 1)
        return gmpy2.mpq(mantissa, 1 << -exponent)
    if isinstance(x, float):
        x = Fraction(x)
    x = Fraction(x)
    return gmpy2.mpq(x.numerator, x.denominator)


def round_to_format(x, fmt) -> float:
    """Round the exact value ``x`` once, to nearest-even, into ``fmt``.

    ``x`` is an int, Fraction, float or mpf taken at its exact value.  The
    result is returned as a Python float (every value of the four formats is
    a float64).  Zero gives +0.0.
    """
    value = _exact(x)
    if value == 0:
        return 0.0
    with gmpy2.context(FORMAT_CONTEXTS[format_name(fmt)]):
        return float(gmpy2.mpfr(value))


def round_through(x, *fmts) -> float:
    """``x`` rounded into each format of ``fmts`` in turn (a double rounding when
    there are two or more): what a cast through an intermediate format gives,
    computed here, independently of any library's cast."""
    value = x
    for fmt in fmts:
        value = round_to_format(value, fmt)
    return value


def _same(a: float, b: float) -> bool:
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def correctly_rounded(
    evaluate: Callable[[int], tuple[object, object]],
    fmt,
    start_prec: int = 128,
    max_prec: int = 1 << 15,
) -> float:
    """Ziv loop: correctly rounded value of a real number into ``fmt``.

    ``evaluate(prec)`` returns ``(value, error)`` with ``|exact - value| <=
    error`` (both exact rationals or mpf); ``error == 0`` means exact.
    """
    prec = start_prec
    while prec <= max_prec:
        value, error = evaluate(prec)
        value, error = _exact(value), _exact(error)
        if error == 0:
            return round_to_format(value, fmt)
        low = round_to_format(value - error, fmt)
        high = round_to_format(value + error, fmt)
        if _same(low, high):
            return low
        prec *= 2
    raise ArithmeticError("oracle: no convergence (value too close to a rounding boundary?)")


def _window_evaluator(kind: str, n: int, d: int):
    return _cosine_sum_evaluator(COEFFICIENTS[kind], n, d)


def _cosine_sum_evaluator(coefficients, n: int, d: int):
    """The evaluator of sum_j (-1)^j a_j cos(2 pi j n / d) for Fraction coefficients a_j
    with |a_j| <= 1 (the error analysis below assumes terms of size <= 1)."""
    residue = n % d
    exact_terms = []
    for j in range(len(coefficients)):
        q = Fraction(j * residue, d) % 1
        exact_terms.append(_RATIONAL_COS.get(q))

    if all(c is not None for c in exact_terms):
        exact = sum((-1) ** j * a * c for j, (a, c) in enumerate(zip(coefficients, exact_terms)))
        return lambda prec: (exact, 0)

    def evaluate(prec: int):
        # Error analysis (absolute, all quantities at most 4 pi in size):
        # the argument 2 pi j r / d takes three roundings (pi, product,
        # quotient), each relative 2**-prec, so its absolute error is below
        # 4 pi * 4 * 2**-prec < 2**(6 - prec); cos is 1-Lipschitz and mpmath's
        # cos adds a few ulps; each coefficient, product and sum adds at most
        # 2**-prec on terms of size <= 1.  Three terms stay well below
        # 2**(9 - prec); we claim 2**(12 - prec) for margin.
        with mpmath.workprec(prec):
            total = mpmath.mpf(0)
            for j, (a, c) in enumerate(zip(coefficients, exact_terms)):
                if c is None:
                    angle = 2 * mpmath.pi * (j * residue) / d
                    cosine = mpmath.cos(angle)
                else:
                    cosine = mpmath.mpf(c.numerator) / c.denominator
                coefficient = mpmath.mpf(a.numerator) / a.denominator
                term = coefficient * cosine
                total = total - term if j & 1 else total + term
        return total, Fraction(1, 2 ** (prec - 12))

    return evaluate


def cosine_sum_value(coefficients, n: int, d: int, fmt="float32"):
    """Correctly rounded term ``n`` (denominator ``d``) of the cosine-sum window with
    the given Fraction coefficients (each in [-1, 1]), as ``window_value`` gives it."""
    return _window_term(lambda: _cosine_sum_evaluator(tuple(Fraction(a) for a in coefficients), int(n), int(d)),
                        d, fmt)


def window_value(kind: str, n: int, d: int, fmt="float32"):
    """Correctly rounded ONNX window term ``n`` with denominator ``d``.

    Float formats give a Python float (NaN for ``d == 0``).  Integer formats
    give the ONNX Cast (truncation, NaN -> 0) of the float32 value.
    """
    return _window_term(lambda: _window_evaluator(kind, int(n), int(d)), d, fmt)


def _window_term(make_evaluator, d: int, fmt):
    """A window term in format ``fmt``: NaN for ``d == 0``, else the correct rounding
    of the evaluator's value; integer formats get the ONNX Cast (truncation,
    NaN -> 0) of the float32 term."""
    name = format_name(fmt)
    if name in INTEGER_FORMATS:
        value = _window_term(make_evaluator, d, "float32")
        return 0 if math.isnan(value) else math.trunc(value)
    if d == 0:
        return math.nan
    return correctly_rounded(make_evaluator(), name)


def window(kind: str, size: int, periodic: bool = True, dtype="float32") -> np.ndarray:
    """The correctly rounded window as a numpy array of ``dtype``."""
    name = format_name(dtype)
    d = size if periodic else size - 1
    values = [window_value(kind, n, d, name) for n in range(size)]
    # Every value is already exactly representable in the target dtype, so
    # this conversion is exact, however the array library's cast rounds.
    return np.array(values, dtype=NUMPY_DTYPES[name]).reshape(size)


# ---------------------------------------------------------------------------
# Sine and cosine
# ---------------------------------------------------------------------------

_MPFR_TRIG = {"sin": gmpy2.sin, "cos": gmpy2.cos}

#: Precision of the MPFR copy of an input: every float64 fits exactly.
_INPUT_PRECISION = 60


def trig_value(func: str, x, fmt) -> float:
    """Correctly rounded ``func(x)`` ("sin" or "cos") in ``fmt`` as a float.

    ``x`` is a float64 value whose magnitude lies in the exponent range of
    ``fmt`` (every value of ``fmt`` does; MPFR functions expect their inputs
    in the current exponent range, so others raise ValueError).  NaN and
    infinities give NaN; sin keeps the sign of zero and cos(+-0) is 1.
    """
    if func not in _MPFR_TRIG:
        raise ValueError(f"unknown function {func!r}")
    name = format_name(fmt)
    context = FORMAT_CONTEXTS[name]
    value = float(x)
    if math.isnan(value) or math.isinf(value):
        return math.nan
    if value == 0.0:
        return value if func == "sin" else 1.0
    argument = gmpy2.mpfr(value, _INPUT_PRECISION)  # exact, in the default wide range
    exponent, _ = gmpy2.frexp(argument)  # argument = mantissa * 2**exponent, mantissa in [1/2, 1)
    if not context.emin <= exponent <= context.emax:
        raise ValueError(f"{value!r} is outside the exponent range of {name}")
    with gmpy2.context(context):
        return float(_MPFR_TRIG[func](argument))


def trig(func: str, x) -> np.ndarray:
    """Element-wise ``trig_value`` over an array; the result has x's dtype and shape."""
    array = np.asarray(x)
    name = format_name(array.dtype)
    with np.errstate(invalid="ignore"):  # signalling NaN patterns
        values = array.astype(np.float64).reshape(-1).tolist()
    results = [trig_value(func, v, name) for v in values]
    # Every result is a value of the format, so this conversion is exact
    # however the array library's float64 -> bfloat16 cast rounds.
    return np.array(results, dtype=NUMPY_DTYPES[name]).reshape(array.shape)


_TRIG_MEMO: dict = {}


def trig_memoized(func: str, x) -> np.ndarray:
    """``trig(func, x)``, computed once per test session for each (func, dtype,
    shape, contents) of x: the float64 tests share large input sets (about 1.2 s
    of MPFR per 10^5 inputs), so each value is computed once however many test
    modules, SIMD targets and stages compare against it.  The result is
    read-only."""
    array = np.asarray(x)
    key = (func, array.dtype.str, array.shape, array.tobytes())
    if key not in _TRIG_MEMO:
        result = trig(func, array)
        result.flags.writeable = False
        _TRIG_MEMO[key] = result
    return _TRIG_MEMO[key]


# ---------------------------------------------------------------------------
# Rational windows (scipy's boxcar, triang, bartlett, parzen), from scipy's own
# formulas evaluated in exact rationals (gmpy2.mpq), element by element: scipy's
# index n and the quantities it computes in float64, here without rounding.
# ---------------------------------------------------------------------------

def _scipy_rational_value(name: str, length: int, i: int) -> gmpy2.mpq:
    """Element i of scipy's symmetric window of `length` >= 2 points, exactly."""
    q = gmpy2.mpq
    L = q(length)
    if name == "boxcar":
        return q(1)
    if name == "triang":
        # scipy: n = 1 .. (L+1)//2; even L: (2n - 1)/L mirrored, odd L: 2n/(L + 1) mirrored
        # around the centre element.
        half = (length + 1) // 2
        n = i + 1 if i < half else length - i
        return (2 * q(n) - 1) / L if length % 2 == 0 else 2 * q(n) / (L + 1)
    if name == "bartlett":
        n = q(i)
        return 2 * n / (L - 1) if n <= (L - 1) / 2 else 2 - 2 * n / (L - 1)
    if name == "parzen":
        n = q(i) - (L - 1) / 2  # scipy's arange(-(L-1)/2, (L-1)/2 + 0.5, 1.0)
        t = abs(n) / (L / 2)
        if abs(n) <= (L - 1) / 4:
            return 1 - 6 * t ** 2 + 6 * t ** 3
        return 2 * (1 - t) ** 3
    raise ValueError(name)


def rational_window_value(name: str, M: int, sym: bool, i: int, fmts=FLOAT_FORMATS) -> dict:
    """Element i of scipy's window `name` of M points (periodic: the first M of the
    symmetric window of M + 1, scipy's _extend/_truncate), correctly rounded by MPFR into
    each format of fmts: {fmt: float}.  M = 1 is scipy's [1.]."""
    if M == 1:
        return {fmt: 1.0 for fmt in fmts}
    exact = _scipy_rational_value(name, M if sym else M + 1, i)
    values = {}
    for fmt in fmts:
        if exact == 0:
            values[fmt] = 0.0
            continue
        with gmpy2.context(FORMAT_CONTEXTS[format_name(fmt)]):
            values[fmt] = float(gmpy2.mpfr(exact))
    return values


def rational_window(name: str, M: int, sym: bool, fmts=FLOAT_FORMATS) -> dict:
    """The whole window in each format: {fmt: numpy array of fmt's dtype}."""
    rows = [rational_window_value(name, M, sym, i, fmts) for i in range(M)]
    result = {}
    for fmt in fmts:
        values = np.array([row[fmt] for row in rows], dtype=np.float64)
        if fmt == "bfloat16":
            values = values.astype(np.float32)  # exact: bfloat16 values (ml_dtypes' float64 cast is not used)
        result[fmt] = values.astype(NUMPY_DTYPES[fmt])
    return result


# ---------------------------------------------------------------------------
# scipy's Tukey window, from scipy's own formulas (w1, ones, w3 with their own
# arguments, not mirrored), the cosines evaluated by mpmath (exactly where they
# are rational).
# ---------------------------------------------------------------------------

def _half_one_plus_cospi(x: Fraction):
    """The evaluator of (1 + cos(pi x))/2 for a rational x."""
    exact = _RATIONAL_COS.get((x / 2) % 1)
    if exact is not None:
        value = (1 + exact) / 2
        return lambda prec: (value, 0)

    def evaluate(prec: int):
        # pi x: two roundings (pi, the product) and x's own (its quotient), each
        # relative 2**-prec, on |pi x| <= 4 (|x| + 1): an absolute error below
        # 12 (|x| + 1) 2**-prec; cos is 1-Lipschitz and adds a few ulps; the sum and
        # the halving add at most 2**-prec.  We claim (|x| + 1) 2**(8 - prec).
        with mpmath.workprec(prec):
            angle = mpmath.pi * (mpmath.mpf(x.numerator) / x.denominator)
            total = (1 + mpmath.cos(angle)) / 2
        return total, Fraction(abs(x.numerator) + x.denominator, x.denominator) / 2 ** (prec - 8)

    return evaluate


def tukey_value(M: int, alpha: Fraction, sym: bool, i: int, fmts=FLOAT_FORMATS) -> dict:
    """Element i of scipy's tukey(M, alpha, sym) for alpha in (0, 1), correctly rounded
    into each format: scipy's pieces n[0:width+1], n[width+1:L-width-1], n[L-width-1:]
    with width = floor(alpha (L - 1)/2) taken exactly."""
    if M == 1:
        return {fmt: 1.0 for fmt in fmts}
    L = M if sym else M + 1
    alpha = Fraction(alpha)
    width = math.floor(alpha * (L - 1) / 2)
    if i <= width:
        x = -1 + Fraction(2 * i) / alpha / (L - 1)
    elif i < L - width - 1:
        return {fmt: 1.0 for fmt in fmts}
    else:
        x = -2 / alpha + 1 + Fraction(2 * i) / alpha / (L - 1)
    evaluate = _half_one_plus_cospi(x)
    return {fmt: correctly_rounded(evaluate, fmt) for fmt in fmts}


# ---------------------------------------------------------------------------
# sinpi and cospi: sin(pi x), cos(pi x)
# ---------------------------------------------------------------------------

def _pi_reduce(x: float, func: str):
    """(k, t) with func(x) = [sin, cos, -sin, -cos](pi t)[k] and |t| <= 1/4, exactly:
    x = n/2 + t + (an even integer: the period 2) in exact rationals, k = n (+1 for
    cospi) mod 4.  Independent of crtrig's reduction (Fraction arithmetic)."""
    fx = Fraction(x)
    n = round(2 * fx)  # nearest integer (Fraction rounding is exact)
    t = fx - Fraction(n, 2)
    return (n + (1 if func == "cospi" else 0)) % 4, t


def _pi_evaluator(k: int, t: Fraction):
    """evaluate(prec) -> (value, error) for [sin, cos, -sin, -cos](pi t)[k], |t| <= 1/4.

    At MPFR precision p (round to nearest, relative error <= 2^-p per operation):
    a = RN(RN(pi) t) differs from pi t by <= (2 2^-p + 2^-2p) pi |t| <= 2^(2-p) 4|t|
    (t converted exactly: its precision is its own bit length); sin and cos are
    1-Lipschitz, and rounding s = RN(sin a) adds 2^-p |s|: the error bound
    2^(4-p) |t| + 2^(1-p) |s| covers both (with a factor 2 of margin)."""
    tq = gmpy2.mpq(t.numerator, t.denominator)
    bits = max(t.numerator.bit_length(), 1) + 2

    def evaluate(prec: int):
        with gmpy2.context(gmpy2.context(), precision=prec):
            exact_t = gmpy2.mpfr(tq, max(bits, prec))
            a = gmpy2.const_pi() * exact_t
            s = gmpy2.cos(a) if k & 1 else gmpy2.sin(a)
        value = _exact(Fraction(*s.as_integer_ratio()))
        if k & 2:
            value = -value
        error = gmpy2.mpq(abs(t.numerator) * 16, t.denominator) / gmpy2.mpq(2) ** prec \
            + abs(value) * 2 / gmpy2.mpq(2) ** prec
        return value, error

    return evaluate


def trigpi_value(func: str, x, fmt) -> float:
    """Correctly rounded ``func(x)`` ("sinpi" or "cospi") in ``fmt`` as a float, with
    IEEE 754-2019 9.2.1's special values: sinpi(+-n) = +-0 for integers n (the sign
    of x), cospi(n + 1/2) = +0; NaN and infinities give NaN."""
    if func not in ("sinpi", "cospi"):
        raise ValueError(f"unknown function {func!r}")
    value = float(x)
    if math.isnan(value) or math.isinf(value):
        return math.nan
    k, t = _pi_reduce(value, func)
    if t == 0:
        if k & 1:
            return -1.0 if k & 2 else 1.0
        return math.copysign(0.0, value) if func == "sinpi" else 0.0
    evaluate = _pi_evaluator(k, t)
    result = correctly_rounded(evaluate, fmt, start_prec=160)
    if result == 0.0:  # underflow to zero (not seen in these formats): the exact value's sign
        return math.copysign(0.0, float(evaluate(160)[0]))
    return result


def trigpi(func: str, x) -> np.ndarray:
    """Element-wise ``trigpi_value`` over an array; the result has x's dtype and shape."""
    array = np.asarray(x)
    name = format_name(array.dtype)
    with np.errstate(invalid="ignore"):
        values = array.astype(np.float64).reshape(-1).tolist()
    results = [trigpi_value(func, v, name) for v in values]
    return np.array(results, dtype=NUMPY_DTYPES[name]).reshape(array.shape)


def trigpi_memoized(func: str, x) -> np.ndarray:
    """``trigpi(func, x)`` computed once per session per (func, dtype, shape, contents)."""
    array = np.asarray(x)
    key = (func, array.dtype.str, array.shape, array.tobytes())
    if key not in _TRIG_MEMO:
        result = trigpi(func, array)
        result.flags.writeable = False
        _TRIG_MEMO[key] = result
    return _TRIG_MEMO[key]


# ---------------------------------------------------------------------------
# exp-based windows (scipy's gaussian, general_gaussian, exponential): exp(-q)
# for an exact rational q >= 0, by mpmath, element by element from scipy's own
# formulas taken exactly.
# ---------------------------------------------------------------------------

#: (precision, emin) of the float formats: exp(-q) < 2^(emin - precision) rounds to 0.
_FORMAT_PE = {"float16": (11, -14), "bfloat16": (8, -126), "float32": (24, -126), "float64": (53, -1022)}


def exp_neg_value(q: Fraction, fmt) -> float:
    """exp(-q), q an exact rational >= 0, correctly rounded into fmt (Ziv loop on
    mpmath's exp).  q == 0 gives 1; beyond (p - emin + 1) ln 2 the value is below
    half the smallest subnormal: 0."""
    q = Fraction(q)
    if q == 0:
        return 1.0
    fmt = format_name(fmt)
    p, emin = _FORMAT_PE[fmt]
    if q > (p - emin + 1) * Fraction(7, 10):  # 0.7 > ln 2
        return 0.0

    def evaluate(prec: int):
        # q's quotient: relative 2^-w (w = prec + 16); exp amplifies it by q (< 800):
        # 2^(10 - w); exp's own error a few ulps: all below 2^(12 - w) of the value.
        with mpmath.workprec(prec + 16):
            value = mpmath.exp(-(mpmath.mpf(q.numerator) / q.denominator))
        return value, _exact(value) * gmpy2.mpq(1, 2 ** (prec + 4))

    return correctly_rounded(evaluate, fmt)


def _scipy_exp_argument(name: str, L: int, i: int, params) -> Fraction:
    """scipy's argument of exp (negated) at element i of the symmetric-length-L window,
    exactly: gaussian n^2/(2 std^2), general_gaussian |n/sig|^(2p)/2 (2p an integer),
    exponential |i - center|/tau, with n = i - (L - 1)/2."""
    n = Fraction(i) - Fraction(L - 1, 2)
    if name == "gaussian":
        (std,) = params
        return n * n / (2 * Fraction(std) ** 2)
    if name == "general_gaussian":
        p, sig = params
        return abs(n / Fraction(sig)) ** int(2 * Fraction(p)) / 2
    if name == "exponential":
        center, tau = params
        c = Fraction(L - 1, 2) if center is None else Fraction(center)
        return abs(Fraction(i) - c) / Fraction(tau)
    raise ValueError(name)


def exp_window(name: str, M: int, sym: bool, params, fmts=FLOAT_FORMATS) -> dict:
    """The whole window (scipy's _extend/_truncate for sym=False; M <= 1 ones) in each
    format: {fmt: numpy array of fmt's dtype}.  params: exact rationals (Fractions)."""
    L = M if sym else M + 1
    result = {}
    for fmt in fmts:
        if M <= 1:
            values = np.ones(M, dtype=np.float64)
        else:
            memo = {}
            values = np.empty(M, dtype=np.float64)
            for i in range(M):
                q = _scipy_exp_argument(name, L, i, params)
                if q not in memo:
                    memo[q] = exp_neg_value(q, fmt)
                values[i] = memo[q]
        if fmt == "bfloat16":
            values = values.astype(np.float32)
        result[fmt] = values.astype(NUMPY_DTYPES[fmt])
    return result


def general_gaussian_real_value(L: int, i: int, p: Fraction, sig: Fraction, fmts=FLOAT_FORMATS) -> dict:
    """Element i of scipy's symmetric general_gaussian(L, p, sig) for any rational p >
    0 (2p need not be an integer), correctly rounded into each of fmts: scipy's
    exp(-(1/2) |n/sig|^(2p)), n = i - (L - 1)/2, in mpmath interval arithmetic
    (mpmath.iv: log, exp and the quotients rounded outward; the power as
    exp(2p log|n/sig|)), both ends rounded by MPFR, the precision doubled until they
    agree in every format.  n = 0 gives 1 exactly; q above 2000 gives 0 (exp(-q) is
    then far below half the smallest subnormal of every format)."""
    n = Fraction(i) - Fraction(L - 1, 2)
    if n == 0:
        return {fmt: 1.0 for fmt in fmts}
    y = abs(n / Fraction(sig))
    P = 2 * Fraction(p)
    iv = mpmath.iv
    saved = iv.prec
    prec = 128
    try:
        while prec <= 1 << 14:
            iv.prec = prec
            q = iv.exp(iv.mpf(P.numerator) / P.denominator * iv.log(iv.mpf(y.numerator) / y.denominator)) / 2
            q_lo = _iv_ends(q)[0]
            if q_lo > 2000:  # exp(-q) < 2^-2885: 0 in every format (as exp_neg_value)
                return {fmt: 0.0 for fmt in fmts}
            lo, hi = _iv_ends(iv.exp(-q))
            out = {}
            for fmt in fmts:
                low, high = round_to_format(lo, fmt), round_to_format(hi, fmt)
                if not _same(low, high):
                    break
                out[fmt] = low
            else:
                return out
            prec *= 2
    finally:
        iv.prec = saved
    raise ArithmeticError("oracle: no convergence")


def general_gaussian_real_window(M: int, sym: bool, p: Fraction, sig: Fraction, fmts=FLOAT_FORMATS) -> dict:
    """The whole general_gaussian window (sym=False: the first M points of the window of
    M + 1) for a rational p > 0 in each format, {fmt: numpy array of fmt's dtype},
    element by element from general_gaussian_real_value."""
    L = M if sym else M + 1
    memo = {}
    per = []
    for i in range(M):
        key = abs(2 * i - (L - 1))
        if key not in memo:
            memo[key] = general_gaussian_real_value(L, i, p, sig, fmts) if M > 1 else {f: 1.0 for f in fmts}
        per.append(memo[key])
    result = {}
    for fmt in fmts:
        values = np.array([v[fmt] for v in per], dtype=np.float64)
        if fmt == "bfloat16":
            values = values.astype(np.float32)
        result[fmt] = values.astype(NUMPY_DTYPES[fmt])
    return result


# ---------------------------------------------------------------------------
# Kaiser's window: mpmath's besseli at scipy's own argument beta sqrt(1 - t^2),
# t = (n - alpha)/alpha, alpha = (L - 1)/2 (not the series crtrig sums).
# ---------------------------------------------------------------------------

def kaiser_value(L: int, n: int, beta: Fraction, fmt) -> float:
    """Element n of scipy's kaiser window of L >= 2 points (beta an exact rational),
    correctly rounded into fmt."""
    beta = abs(Fraction(beta))
    alpha = Fraction(L - 1, 2)
    t = (n - alpha) / alpha
    inner = 1 - t * t  # exact
    if beta == 0 or inner == 1:
        return 1.0

    def evaluate(prec: int):
        # sqrt, products and quotients: relative 2^-w each (w = prec + 16); I0'/I0 <= 1,
        # so an argument error of beta 2^-w changes I0 by a relative beta 2^(1 - w);
        # besseli itself is accurate to a few ulps.  Claimed: (beta + 16) 2^(4 - w).
        with mpmath.workprec(prec + 16):
            b = mpmath.mpf(beta.numerator) / beta.denominator
            z = b * mpmath.sqrt(mpmath.mpf(inner.numerator) / inner.denominator)
            value = mpmath.besseli(0, z) / mpmath.besseli(0, b)
        return value, _exact(value) * gmpy2.mpq(int(beta) + 17, 2 ** (prec + 12))

    return correctly_rounded(evaluate, fmt)


def kaiser_window(M: int, sym: bool, beta: Fraction, fmts=FLOAT_FORMATS) -> dict:
    """The whole window in each format (M <= 1: ones; sym=False: scipy's _extend)."""
    L = M if sym else M + 1
    result = {}
    for fmt in fmts:
        values = np.ones(M, dtype=np.float64)
        if M > 1:
            for n in range(M):
                values[n] = kaiser_value(L, n, beta, fmt) if 2 * n <= L - 1 else values[L - 1 - n]
        if fmt == "bfloat16":
            values = values.astype(np.float32)
        result[fmt] = values.astype(NUMPY_DTYPES[fmt])
    return result


# ---------------------------------------------------------------------------
# scipy's cosine-sum windows (general_cosine, nuttall, blackmanharris, flattop),
# from scipy's own formula sum_k a_k cos(k fac[i]), fac = linspace(-pi, pi, L),
# i.e. cos(pi k (2i - (L - 1))/(L - 1)), each cosine evaluated by mpmath from its
# exact rational multiple of pi.  Where w is rational it equals its mean over its
# Galois conjugates (a Ramanujan sum per term, exact): that candidate is taken as
# the value once the enclosure holds it at >= 256 bits.
# ---------------------------------------------------------------------------

def _factor(n: int) -> dict:
    factors, p = {}, 2
    while p * p <= n:
        while n % p == 0:
            factors[p] = factors.get(p, 0) + 1
            n //= p
        p += 1
    if n > 1:
        factors[n] = factors.get(n, 0) + 1
    return factors


def _mobius_over_phi(n: int) -> Fraction:
    """mu(n)/phi(n)."""
    f = _factor(n)
    if any(e > 1 for e in f.values()):
        return Fraction(0)
    phi = 1
    for p in f:
        phi *= p - 1
    return Fraction((-1) ** len(f), phi)


def _cosine_sum_trace(coefficients, h, N: int) -> Fraction:
    """The mean of sum_k a_k cos(2 pi h_k/N) over Gal(Q(zeta_N)/Q):
    sum_k a_k c_N(h_k)/phi(N), with Ramanujan's c_N(h) = mu(N/g) phi(N)/phi(N/g),
    g = gcd(N, h)."""
    return sum((a * _mobius_over_phi(N // math.gcd(N, hk)) for a, hk in zip(coefficients, h)), Fraction(0))


def scipy_cosine_sum_value(coefficients, M: int, sym: bool, i: int, fmts=FLOAT_FORMATS) -> dict:
    """Element i of scipy's general_cosine(M, coefficients, sym) (Fractions, |a_k| < 2**14),
    correctly rounded into each format: {fmt: float}.  M = 1 is scipy's [1.]."""
    if M == 1:
        return {fmt: 1.0 for fmt in fmts}
    D = (M if sym else M + 1) - 1
    a = [Fraction(x) for x in coefficients]
    h = [k * (2 * i - D) % (2 * D) for k in range(len(a))]  # cos(2 pi h_k / (2D))
    candidate = _cosine_sum_trace(a, h, 2 * D)
    scale = sum(abs(x) for x in a) + 1
    prec = 128
    while prec <= 1 << 14:
        with mpmath.workprec(prec):
            total = mpmath.mpf(0)
            for x, hk in zip(a, h):
                cosine = mpmath.cospi(mpmath.mpf(2 * hk) / (2 * D))
                total += (mpmath.mpf(x.numerator) / x.denominator) * cosine
        # Each term: the argument 2 h/(2D) rounds once (relative 2**-prec, |arg| <= 2,
        # cospi pi-Lipschitz: <= 8 2**-prec), cospi a few ulps, the coefficient, the
        # product and the sum one ulp each of terms <= |a_k|: below 16 |a_k| 2**-prec per
        # term; with K <= 16 terms we claim scale 2**(12 - prec).
        value = _exact(total)
        error = gmpy2.mpq(scale.numerator, scale.denominator) / gmpy2.mpq(2) ** (prec - 12)
        beta = gmpy2.mpq(candidate.numerator, candidate.denominator)
        if prec >= 256 and abs(value - beta) <= error:
            return {fmt: round_to_format(candidate, fmt) for fmt in fmts}
        out = {}
        for fmt in fmts:
            low = round_to_format(value - error, fmt)
            high = round_to_format(value + error, fmt)
            if not _same(low, high) or value - error <= 0 <= value + error:
                break
            out[fmt] = low
        else:
            return out
        prec *= 2
    raise ArithmeticError("oracle: no convergence for the cosine sum")


def scipy_cosine_sum(coefficients, M: int, sym: bool, fmts=FLOAT_FORMATS) -> dict:
    """The whole window in each format: {fmt: numpy array of fmt's dtype}; each folded
    pair i, L - 1 - i evaluated once (scipy's fac is antisymmetric, cos even: the same value)."""
    L = M if sym else M + 1
    rows = {}
    for i in range(M):
        j = min(i, L - 1 - i)
        if j not in rows:
            rows[j] = scipy_cosine_sum_value(coefficients, M, sym, j, fmts)
    result = {}
    for fmt in fmts:
        values = np.array([rows[min(i, L - 1 - i)][fmt] for i in range(M)], dtype=np.float64)
        if fmt == "bfloat16":
            values = values.astype(np.float32)
        result[fmt] = values.astype(NUMPY_DTYPES[fmt])
    return result


def _rounded_all(evaluate, exact, fmts):
    """{fmt: value}: exact (a Fraction, or None) rounded, else Ziv on evaluate(prec) ->
    (mpf value, Fraction error bound), doubling the precision until both ends agree
    in every format (an interval holding 0 never decides)."""
    if exact is not None:
        return {fmt: round_to_format(exact, fmt) for fmt in fmts}
    prec = 128
    while prec <= 1 << 14:
        value, error = evaluate(prec)
        value, error = _exact(value), gmpy2.mpq(error.numerator, error.denominator)
        out = {}
        for fmt in fmts:
            low, high = round_to_format(value - error, fmt), round_to_format(value + error, fmt)
            if not _same(low, high) or value - error <= 0 <= value + error:
                break
            out[fmt] = low
        else:
            return out
        prec *= 2
    raise ArithmeticError("oracle: no convergence")


def scipy_cosine_value(M: int, sym: bool, i: int, fmts=FLOAT_FORMATS) -> dict:
    """Element i of scipy's cosine(M, sym): sin(pi (i + 1/2)/L), L = M or M + 1, by
    mpmath's sinpi of the exact rational; exact (Niven) at 1/6, 1/2, 5/6."""
    if M == 1:
        return {fmt: 1.0 for fmt in fmts}
    L = M if sym else M + 1
    x = Fraction(2 * i + 1, 2 * L)  # in (0, 1)
    exact = {Fraction(1, 6): Fraction(1, 2), Fraction(1, 2): Fraction(1), Fraction(5, 6): Fraction(1, 2)}.get(x)

    def evaluate(prec):
        # x rounds once (relative 2^-prec, x < 1), sinpi is pi-Lipschitz and adds an ulp:
        # below 2^(3 - prec); we claim 2^(6 - prec).
        with mpmath.workprec(prec):
            return mpmath.sinpi(mpmath.mpf(x.numerator) / x.denominator), Fraction(1, 2 ** (prec - 6))
    return _rounded_all(evaluate, exact, fmts)


def scipy_barthann_value(M: int, sym: bool, i: int, fmts=FLOAT_FORMATS) -> dict:
    """Element i of scipy's barthann(M, sym): 0.62 - 0.48 f + 0.38 cos(2 pi f),
    f = |i/(L - 1) - 1/2| exactly, the cosine by mpmath (exact where Niven says)."""
    if M == 1:
        return {fmt: 1.0 for fmt in fmts}
    L = M if sym else M + 1
    f = abs(Fraction(i, L - 1) - Fraction(1, 2))
    c = _RATIONAL_COS.get(f % 1)
    rational = Fraction(62, 100) - Fraction(48, 100) * f
    exact = None if c is None else rational + Fraction(38, 100) * c

    def evaluate(prec):
        # 2f rounds once (relative 2^-prec, 2f <= 1), cospi pi-Lipschitz plus an ulp, times
        # 0.38 and the sum an ulp each: below 2^(4 - prec); we claim 2^(8 - prec).
        with mpmath.workprec(prec):
            cosine = mpmath.cospi(mpmath.mpf(2 * f.numerator) / f.denominator)
            value = mpmath.mpf(rational.numerator) / rational.denominator + mpmath.mpf(38) / 100 * cosine
        return value, Fraction(1, 2 ** (prec - 8))
    return _rounded_all(evaluate, exact, fmts)


# ---------------------------------------------------------------------------
# scipy's Bohman and Lanczos windows, from scipy's own formulas with the exact
# rational x = 2i/(L - 1) - 1 (not the g = 1 - |x| form crtrig computes):
#   bohman   (1 - |x|) cos(pi |x|) + sin(pi |x|)/pi, scipy's zeros at |x| = 1
#   lanczos  sinc(x) = sin(pi x)/(pi x), 1 at x = 0, 0 at x = +-1 (sin(pi) = 0)
# by mpmath's cospi/sinpi; every other value is irrational (pi is transcendental).
# ---------------------------------------------------------------------------

def _sinc_x(M: int, sym: bool, i: int) -> Fraction:
    L = M if sym else M + 1
    return Fraction(2 * i, L - 1) - 1


def scipy_bohman_value(M: int, sym: bool, i: int, fmts=FLOAT_FORMATS) -> dict:
    """Element i of scipy's bohman(M, sym) (M >= 2), correctly rounded into each of fmts."""
    f = abs(_sinc_x(M, sym, i))
    exact = {Fraction(1): Fraction(0), Fraction(0): Fraction(1)}.get(f)

    def evaluate(prec):
        # f rounds once (relative 2^-prec, f <= 1); cospi and sinpi are pi-Lipschitz and
        # add an ulp each; the product, 1/pi, the quotient and the sum an ulp each, all
        # of magnitudes <= 1: below 2^(4 - prec) absolute; we claim 2^(8 - prec).
        with mpmath.workprec(prec):
            x = mpmath.mpf(f.numerator) / f.denominator
            value = (1 - x) * mpmath.cospi(x) + mpmath.sinpi(x) / mpmath.pi
        return value, Fraction(1, 2 ** (prec - 8))
    return _rounded_all(evaluate, exact, fmts)


def scipy_lanczos_value(M: int, sym: bool, i: int, fmts=FLOAT_FORMATS) -> dict:
    """Element i of scipy's lanczos(M, sym) (M >= 2), correctly rounded into each of fmts."""
    x = _sinc_x(M, sym, i)
    exact = {Fraction(0): Fraction(1), Fraction(1): Fraction(0), Fraction(-1): Fraction(0)}.get(x)

    def evaluate(prec):
        # x rounds once (relative 2^-prec), which moves sin(pi x)/(pi x) by at most
        # 2^-prec relative (|d log sinc / d log x| = |pi x cot(pi x) - 1| <= 1 for |x| < 1);
        # sinpi, pi, the product and the quotient add an ulp each: below 2^(3 - prec)
        # relative of a value <= 1; we claim 2^(8 - prec) absolute.
        with mpmath.workprec(prec):
            y = mpmath.mpf(x.numerator) / x.denominator
            value = mpmath.sinpi(y) / (mpmath.pi * y)
        return value, Fraction(1, 2 ** (prec - 8))
    return _rounded_all(evaluate, exact, fmts)


def sinc_window(name: str, M: int, sym: bool, fmts=FLOAT_FORMATS, cache=None) -> dict:
    """The whole window (name "bohman" or "lanczos") in each format: M <= 1 ones; else
    the first ceil(L/2) elements by the oracle, mirrored (scipy's windows are
    symmetric about (L - 1)/2).  cache: an optional dict of (name, L, i) -> values."""
    value = scipy_bohman_value if name == "bohman" else scipy_lanczos_value
    L = M if sym else M + 1
    result = {}
    columns = {fmt: np.ones(M, dtype=np.float64) for fmt in fmts}
    if M > 1:
        for i in range(M):
            j = i if 2 * i <= L - 1 else L - 1 - i
            key = (name, L, j)
            got = cache.get(key) if cache is not None else None
            if got is None:
                got = value(L, True, j, FLOAT_FORMATS)
                if cache is not None:
                    cache[key] = got
            for fmt in fmts:
                columns[fmt][i] = got[fmt]
    for fmt in fmts:
        values = columns[fmt]
        if fmt == "bfloat16":
            values = values.astype(np.float32)
        result[fmt] = values.astype(NUMPY_DTYPES[fmt])
    return result


# ---------------------------------------------------------------------------
# tan and tanpi: tan(x), tan(pi x)
# ---------------------------------------------------------------------------

def tan_value(x, fmt) -> float:
    """Correctly rounded tan(x) in ``fmt`` as a float, from MPFR's tan (correctly
    rounded in the format's context, subnormals and overflow included: float16's
    tan(177.5) is -inf).  tan(+-0) = +-0; NaN and infinities give NaN."""
    name = format_name(fmt)
    context = FORMAT_CONTEXTS[name]
    value = float(x)
    if math.isnan(value) or math.isinf(value):
        return math.nan
    if value == 0.0:
        return value
    argument = gmpy2.mpfr(value, _INPUT_PRECISION)
    exponent, _ = gmpy2.frexp(argument)
    if not context.emin <= exponent <= context.emax:
        raise ValueError(f"{value!r} is outside the exponent range of {name}")
    with gmpy2.context(context):
        return float(gmpy2.tan(argument))


def _tanpi_evaluator(odd: bool, t: Fraction):
    """evaluate(prec) -> (value, error) for tan(pi t) (odd False) or -cot(pi t)
    (odd True), 0 < |t| <= 1/4, t != +-1/4.

    At MPFR precision p: a = RN(RN(pi) t) = pi t (1 + d), |d| <= 2.01 2^-p (t exact);
    (a tan'(a))/tan(a) = 2a/sin(2a) <= pi/2 for |a| <= pi/4 (1 + 2^-p), so tan(a) =
    tan(pi t)(1 + d'), |d'| <= 3.2 2^-p; rounding tan and the reciprocal add 2^-p
    each: relative 5.3 2^-p, and the bound 2^(4-p) |value| has a factor 3 of margin."""
    tq = gmpy2.mpq(t.numerator, t.denominator)
    bits = max(abs(t.numerator).bit_length(), 1) + 2

    def evaluate(prec: int):
        with gmpy2.context(gmpy2.context(), precision=prec):
            exact_t = gmpy2.mpfr(tq, max(bits, prec))
            a = gmpy2.const_pi() * exact_t
            v = gmpy2.tan(a)
            if odd:
                v = -1 / v
        value = _exact(Fraction(*v.as_integer_ratio()))
        return value, abs(value) * 16 / gmpy2.mpq(2) ** prec

    return evaluate


def tanpi_value(x, fmt) -> float:
    """Correctly rounded tan(pi x) in ``fmt`` as a float, with IEEE 754-2019 9.2.1's
    special values: tanpi(+-0) = +-0; tanpi(n) = +0 for positive even and negative
    odd integers n, -0 for positive odd and negative even n; tanpi(n + 1/2) = +inf
    for even n, -inf for odd n; tanpi(n +- 1/4) = +-1.  NaN and infinities give NaN.
    Independent of crtrig: x = n/2 + t in exact rationals (Fraction), |t| <= 1/4."""
    value = float(x)
    if math.isnan(value) or math.isinf(value):
        return math.nan
    if value == 0.0:
        return value
    fx = Fraction(value)
    n = round(2 * fx)
    t = fx - Fraction(n, 2)
    if t == 0:
        if n % 2 == 0:  # the integer n/2
            m = n // 2
            return 0.0 if (m > 0) == (m % 2 == 0) else -0.0
        floor_half = (n - 1) // 2  # x = floor_half + 1/2
        return math.inf if floor_half % 2 == 0 else -math.inf
    if abs(t) == Fraction(1, 4):
        return 1.0 if (t > 0) != (n % 2 == 1) else -1.0
    return correctly_rounded(_tanpi_evaluator(n % 2 == 1, t), fmt, start_prec=160)


def tan_family(func: str, x) -> np.ndarray:
    """Element-wise ``tan_value`` (func "tan") or ``tanpi_value`` ("tanpi") over an
    array; the result has x's dtype and shape."""
    evaluate = {"tan": tan_value, "tanpi": tanpi_value}[func]
    array = np.asarray(x)
    name = format_name(array.dtype)
    with np.errstate(invalid="ignore"):
        values = array.astype(np.float64).reshape(-1).tolist()
    results = [evaluate(v, name) for v in values]
    with np.errstate(over="ignore"):  # inf results are exact
        return np.array(results, dtype=NUMPY_DTYPES[name]).reshape(array.shape)


# ---------------------------------------------------------------------------
# The Kaiser-Bessel derived window: scipy's own recipe, kaiser(M // 2 + 1, beta)
# from mpmath's besseli at beta sqrt(1 - t^2), its running sums and the root of
# their ratio, all in mpmath with a claimed error bound (not crtrig's cancelled
# integer series).  beta = 0: every v_j = 1, w^2 = (n + 1)/L, rounded exactly when
# it is the square of a rational.
# ---------------------------------------------------------------------------

def kbd_window(M: int, beta: Fraction, fmts=FLOAT_FORMATS) -> dict:
    """scipy.signal.windows.kaiser_bessel_derived(M, beta) (M even >= 0) correctly
    rounded into each format: {fmt: array of that dtype}."""
    beta = abs(Fraction(beta))
    if M == 0:
        return {fmt: np.empty(0, dtype=NUMPY_DTYPES[fmt]) for fmt in fmts}
    assert M % 2 == 0
    L = M // 2 + 1
    half = {fmt: [None] * (L - 1) for fmt in fmts}
    pending = list(range(L - 1))
    if beta == 0:
        for n in range(L - 1):
            r = Fraction(n + 1, L)
            p, q = math.isqrt(r.numerator), math.isqrt(r.denominator)
            if p * p == r.numerator and q * q == r.denominator:
                for fmt in fmts:
                    half[fmt][n] = round_to_format(Fraction(p, q), fmt)
            else:
                def evaluate(prec, r=r):
                    with mpmath.workprec(prec + 8):
                        value = mpmath.sqrt(mpmath.mpf(r.numerator) / r.denominator)
                    return value, Fraction(1, 2 ** (prec + 6))  # value < 1: 2^-(prec + 8) absolute
                for fmt in fmts:
                    half[fmt][n] = correctly_rounded(evaluate, fmt)
        pending = []
    prec = 128
    alpha = Fraction(L - 1, 2)
    while pending:
        if prec > 1 << 13:
            raise ArithmeticError("oracle: no convergence (kbd)")
        # Working precision w: each v_j has relative error <= (beta + 17) 2^(4 - w) (as in
        # kaiser_value); L additions of positive terms add <= L 2^-w relative to every
        # running sum; the quotient and the root 2^-w each, the root halving the rest.
        # Claimed: (beta + L + 20) 2^(5 - w) relative.
        w = prec + 16 + L.bit_length()
        with mpmath.workprec(w):
            b = mpmath.mpf(beta.numerator) / beta.denominator
            i0b = mpmath.besseli(0, b)
            sums, total = [], mpmath.mpf(0)
            for j in range(L):
                t = (j - alpha) / alpha
                inner = 1 - t * t
                z = b * mpmath.sqrt(mpmath.mpf(inner.numerator) / inner.denominator)
                total += mpmath.besseli(0, z) / i0b
                sums.append(total)
            roots = {n: mpmath.sqrt(sums[n] / total) for n in pending}
        still = []
        for n in pending:
            value = _exact(roots[n])
            error = value * gmpy2.mpq(int(beta) + L + 21, 2 ** (w - 5))
            got = {}
            for fmt in fmts:
                low, high = round_to_format(value - error, fmt), round_to_format(value + error, fmt)
                if not _same(low, high):
                    break
                got[fmt] = low
            else:
                for fmt in fmts:
                    half[fmt][n] = got[fmt]
                continue
            still.append(n)
        pending = still
        prec *= 2
    result = {}
    for fmt in fmts:
        values = np.array(half[fmt] + half[fmt][::-1], dtype=np.float64)
        if fmt == "bfloat16":
            values = values.astype(np.float32)
        result[fmt] = values.astype(NUMPY_DTYPES[fmt])
    return result


# ---------------------------------------------------------------------------
# scipy's Taylor window, from scipy's own formulas (A = acosh(B)/pi, sp2, the
# products for F_m, W(n) = 1 + 2 sum F_m cos(2 pi m (n - L/2 + 1/2)/L), norm
# dividing by W((L - 1)/2)) read as real numbers, in mpmath's interval arithmetic
# (mpmath.iv: every operation, pi, exp, log, sqrt and cos rounded outward), both
# ends rounded by MPFR; the precision doubled until they agree in every format.
# ---------------------------------------------------------------------------

def _iv_ends(x):
    """The ends of an mpmath.iv interval as mpf."""
    lo, hi = x._mpi_
    return mpmath.mp.make_mpf(lo), mpmath.mp.make_mpf(hi)


_TAYLOR_COEFFICIENTS: dict = {}


def _taylor_coefficients(nbar: int, sll: Fraction, norm: bool, prec: int):
    """[a_0, a_1, ...] (intervals at mpmath.iv's current precision prec) with
    W = a_0 + sum_m a_m cos(2 pi m (n - L/2 + 1/2)/L), scipy's formulas."""
    key = (nbar, sll, norm, prec)
    if key in _TAYLOR_COEFFICIENTS:
        return _TAYLOR_COEFFICIENTS[key]
    iv = mpmath.iv
    B = iv.mpf(10) ** (iv.mpf(sll.numerator) / sll.denominator / 20)
    A = iv.log(B + iv.sqrt(B * B - 1)) / iv.pi  # acosh(B)
    half = iv.mpf(1) / 2
    s2 = iv.mpf(nbar) ** 2 / (A ** 2 + (iv.mpf(nbar) - half) ** 2)
    F = []
    for m in range(1, nbar):
        numer = iv.mpf(1 if m % 2 else -1)
        for n in range(1, nbar):
            numer *= 1 - iv.mpf(m * m) / s2 / (A ** 2 + (iv.mpf(n) - half) ** 2)
        denom = iv.mpf(2)
        for n in range(1, nbar):
            if n != m:
                denom *= 1 - iv.mpf(m * m) / iv.mpf(n * n)
        F.append(numer / denom)
    a = [iv.mpf(1)] + [2 * f for f in F]
    if norm:
        centre = iv.mpf(1) + 2 * sum(F, iv.mpf(0))
        a = [x / centre for x in a]
    _TAYLOR_COEFFICIENTS[key] = a
    return a


_TAYLOR_COS: dict = {}


def _taylor_cos(L: int, r: int, prec: int):
    """cos(pi r/L), 0 <= r < 2L, as an mpmath.iv interval at precision prec (exact 1,
    1/2, 0, -1/2, -1 where Niven's theorem says the value is rational)."""
    key = (L, r, prec)
    if key not in _TAYLOR_COS:
        iv = mpmath.iv
        c = _RATIONAL_COS.get(Fraction(r, 2 * L))
        _TAYLOR_COS[key] = iv.mpf(c.numerator) / c.denominator if c is not None else iv.cos(iv.pi * r / L)
    return _TAYLOR_COS[key]


def scipy_taylor_value(L: int, i: int, nbar: int, sll: Fraction, norm: bool, fmts=FLOAT_FORMATS) -> dict:
    """Element i of scipy's symmetric taylor(L, nbar, sll, norm) (L >= 2), correctly
    rounded into each of fmts.  The phase 2 pi m (i - L/2 + 1/2)/L = pi m j/L with
    j = 2i - L + 1, reduced modulo 2 pi exactly."""
    iv = mpmath.iv
    saved = iv.prec
    j = 2 * i - L + 1
    prec = 128
    try:
        while prec <= 1 << 13:
            iv.prec = prec
            a = _taylor_coefficients(nbar, sll, norm, prec)
            w = a[0]
            for m in range(1, nbar):
                w += a[m] * _taylor_cos(L, (m * j) % (2 * L), prec)
            lo, hi = _iv_ends(w)
            out = {}
            for fmt in fmts:
                low, high = round_to_format(lo, fmt), round_to_format(hi, fmt)
                if not _same(low, high) or lo <= 0 <= hi:
                    break
                out[fmt] = low
            else:
                return out
            prec *= 2
    finally:
        iv.prec = saved
    raise ArithmeticError("oracle: no convergence")


def taylor_window(M: int, sym: bool, nbar: int, sll: Fraction, norm: bool, fmts=FLOAT_FORMATS,
                  cache=None) -> dict:
    """scipy's taylor(M, nbar, sll, norm, sym) in each format: M <= 1 ones; else the
    first ceil(L/2) elements of the symmetric window of L = M (sym) or M + 1 points by
    the oracle, mirrored.  cache: an optional dict of (L, i, nbar, sll, norm) -> values."""
    L = M if sym else M + 1
    columns = {fmt: np.ones(M, dtype=np.float64) for fmt in fmts}
    if M > 1:
        for i in range(M):
            k = i if 2 * i <= L - 1 else L - 1 - i
            key = (L, k, nbar, sll, norm)
            got = cache.get(key) if cache is not None else None
            if got is None:
                got = scipy_taylor_value(L, k, nbar, sll, norm, FLOAT_FORMATS)
                if cache is not None:
                    cache[key] = got
            for fmt in fmts:
                columns[fmt][i] = got[fmt]
    result = {}
    for fmt in fmts:
        values = columns[fmt]
        if fmt == "bfloat16":
            values = values.astype(np.float32)
        result[fmt] = values.astype(NUMPY_DTYPES[fmt])
    return result
