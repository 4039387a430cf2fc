"""float64 inputs for testing sin and cos: hard-to-round cases, the doubles
nearest to multiples of pi/2, random samples and special values.

Shared by the float64 tests (tests/test_sincos64.py, test_sincos64_pass.py,
test_sincos64_ufunc.py); with tests/oracle.trig_memoized, the MPFR values of
the shared sets (worst cases, pi/2 neighbours, random samples) are computed once
per session.
Nothing here imports crtrig or caches anything on disk: everything is computed
in memory, in about a second, and memoized for the test session.

The doubles nearest to multiples of pi/2
----------------------------------------
In the binade [2^e, 2^(e+1)) a double is x = M 2^(e-52) with 2^52 <= M < 2^53,
and x - k pi/2 = (pi/2) (M beta - k) with beta = 2^(e-52) (2/pi).  So the doubles
nearest to a multiple of pi/2 are the M with the smallest |M beta - k|.  With
b = floor(frac(beta) 2^P) (P = 256; from 1300 bits of 2/pi, enough for e <= 1023)
and M = 2^52 + j, we look for all integers j, k with

    0 <= j < 2^52,   |j b + c - k 2^P| <= D,   c = 2^52 b mod 2^P,

which are the points of the lattice {(j, j b - k 2^P)} in a box.  After Gauss
(Lagrange) reduction of the lattice's basis, a point p = i U + l V lies in the
box only if i and l lie between their values at the box's four corners (they
are linear in p), so enumerating those (i, l) finds every point: the search is
complete, and its closest points are the binade's nearest doubles.  D is
doubled until at least `count` points are found.  Replacing frac(beta) by
b/2^P moves M beta by less than 2^(53-P), far below the distances (>= 2^-62).

Checks (tests/test_sincos64.py): the same search at 12-bit precision against
brute force over every M; the continued fraction of b/2^P (its convergent
q_n <= 2^53 - 1 < q_(n+1) bounds |M beta - k| from below for every M, with
equality at M = q_n); CORE-MATH's own list of these doubles in
tests/data/sin-binary64.wc; and the overall minimum of |x - k pi/2|, 2^-60.9 at
x = 0x1.6ac5b262ca1ffp+849, the figure the C core's reduction is built on.
"""
from __future__ import annotations

import functools
import math
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np

DATA = Path(__file__).resolve().parent / "data"

#: The hardest input for range reduction among all doubles, and log2 of its
#: distance to the nearest multiple of pi/2 (Muller, "Elementary Functions",
#: ch. 11; CORE-MATH).
WORST_REDUCTION_INPUT = float.fromhex("0x1.6ac5b262ca1ffp+849")
WORST_REDUCTION_LOG2 = -60.9

FRACTION_BITS = 256     # P: bits of frac(beta) used by the search
TWO_OVER_PI_BITS = 1300  # bits of 2/pi after the point: e - 52 + P <= 1227 for e <= 1023
LARGEST = float.fromhex("0x1.fffffffffffffp+1023")
SMALLEST_SUBNORMAL = float.fromhex("0x0.0000000000001p-1022")
LARGEST_SUBNORMAL = float.fromhex("0x0.fffffffffffffp-1022")
SMALLEST_NORMAL = float.fromhex("0x1p-1022")


# ---------------------------------------------------------------------------
# Worst cases (tests/data, from CORE-MATH)
# ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _worst_case_magnitudes(func: str) -> tuple[float, ...]:
    """The distinct nonzero finite |x| of the file, in file order."""
    values = []
    seen = set()
    with open(DATA / f"{func}-binary64.wc", encoding="ascii") as handle:
        for line in handle:
            text = line.split("#", 1)[0].strip()
            if not text or "nan" in text.lower() or "inf" in text.lower():
                continue  # specials are in special_inputs()
            value = abs(float.fromhex(text))
            if value != 0.0 and value not in seen:
                seen.add(value)
                values.append(value)
    return tuple(values)


def worst_cases(func: str, signed: bool = True) -> list[float]:
    """The hard-to-round inputs of tests/data/{func}-binary64.wc (func "sin" or
    "cos"): each distinct nonzero finite magnitude, followed by its negative when
    `signed` (sin is odd and cos even, so both signs are equally hard).  Zeros,
    infinities and NaNs of the file are in special_inputs()."""
    if func not in ("sin", "cos"):
        raise ValueError(f"func must be 'sin' or 'cos', not {func!r}")
    values = _worst_case_magnitudes(func)
    if not signed:
        return list(values)
    return [s * v for v in values for s in (1.0, -1.0)]


# ---------------------------------------------------------------------------
# Doubles nearest to multiples of pi/2
# ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def two_over_pi_scaled(bits: int = TWO_OVER_PI_BITS) -> int:
    """floor(2/pi 2^bits), from mpmath at bits + 64 bits of precision."""
    with mpmath.workprec(bits + 64):
        return int(mpmath.floor(2 / mpmath.pi * mpmath.mpf(2) ** bits))


def _round_div(n: int, d: int) -> int:
    """n/d rounded to the nearest integer (d > 0)."""
    return (2 * n + d) // (2 * d)


def _lattice_points(b: int, c: int, P: int, L: int, D: int) -> list[tuple[int, int]]:
    """Every (j, d) with 0 <= j < L, d = j b + c - k 2^P for an integer k, |d| <= D."""
    w1, w2 = 2 * D, L  # scale (j, y) so that the box is about square
    # Basis vectors as (X, Y, j, k): X = j w1, Y = (j b - k 2^P) w2.
    u = (w1, b * w2, 1, 0)
    v = (0, (1 << P) * w2, 0, -1)

    def norm(a):
        return a[0] * a[0] + a[1] * a[1]

    while True:  # Lagrange reduction
        if norm(u) > norm(v):
            u, v = v, u
        mu = _round_div(u[0] * v[0] + u[1] * v[1], norm(u))
        if mu == 0:
            break
        v = tuple(vi - mu * ui for ui, vi in zip(u, v))
    det = u[0] * v[1] - u[1] * v[0]
    corners = [(X, Y) for X in (0, (L - 1) * w1) for Y in ((-c - D) * w2, (-c + D) * w2)]
    i_values = [Fraction(X * v[1] - Y * v[0], det) for X, Y in corners]
    l_values = [Fraction(u[0] * Y - u[1] * X, det) for X, Y in corners]
    i_range = range(math.ceil(min(i_values)), math.floor(max(i_values)) + 1)
    l_range = range(math.ceil(min(l_values)), math.floor(max(l_values)) + 1)
    if len(i_range) * len(l_range) > 10 ** 6:
        raise ArithmeticError("lattice box too large: the basis reduction failed")
    points = []
    for i in i_range:
        for l in l_range:
            j = i * u[2] + l * v[2]
            k = i * u[3] + l * v[3]
            d = j * b + c - k * (1 << P)
            if 0 <= j < L and abs(d) <= D:
                points.append((j, d))
    return points


def nearest_to_multiples(e: int, count: int = 3, precision: int = 53,
                         fraction_bits: int = FRACTION_BITS) -> list[tuple[int, int, int]]:
    """The `count` doubles of `precision` bits in [2^e, 2^(e+1)) nearest to a
    multiple of pi/2 (more on ties), nearest first, as (M, k, d): x = M 2^(e-p+1),
    x - k pi/2 = (pi/2) d / 2^fraction_bits (up to 2^(p-fraction_bits) in d)."""
    if e < 0 or e - precision + 1 + fraction_bits > TWO_OVER_PI_BITS:
        raise ValueError("binade out of the range of the bits of 2/pi")
    P = fraction_bits
    shift = TWO_OVER_PI_BITS - (e - precision + 1 + P)
    b_full = two_over_pi_scaled() >> shift       # floor(beta 2^P)
    b = b_full & ((1 << P) - 1)                  # floor(frac(beta) 2^P)
    A = L = 1 << (precision - 1)
    c = (A * b) & ((1 << P) - 1)
    K = 4
    while True:
        D = (K << P) // L
        points = _lattice_points(b, c, P, L, D)
        if len(points) >= count:
            break
        K *= 2
    points.sort(key=lambda p: abs(p[1]))
    cutoff = abs(points[count - 1][1])
    result = []
    for j, d in points:
        if abs(d) > cutoff:
            break
        M = A + j
        k = (M * b_full - d) >> P  # exact: M b_full - d is k 2^P
        result.append((M, k, d))
    return result


def reduced_argument_log2(d: int, fraction_bits: int = FRACTION_BITS) -> float:
    """log2 |x - k pi/2| for the d of nearest_to_multiples."""
    return math.log2(math.pi / 2) + math.log2(abs(d)) - fraction_bits


@functools.lru_cache(maxsize=None)
def _binade_nearest(count: int) -> tuple[tuple[float, int, float], ...]:
    rows = []
    for e in range(0, 1024):
        for M, k, d in nearest_to_multiples(e, count):
            rows.append((math.ldexp(M, e - 52), k, reduced_argument_log2(d)))
    return tuple(rows)


def nearest_doubles(count: int = 3) -> list[tuple[float, int, float]]:
    """(x, k, log2 |x - k pi/2|) for the `count` positive doubles nearest to a
    multiple k pi/2 in each binade 2^0 .. 2^1023."""
    return list(_binade_nearest(count))


def min_reduced_argument() -> tuple[float, float]:
    """(log2 of the smallest |x - k pi/2| over all doubles x >= 1, that x)."""
    x, _, log2_r = min(_binade_nearest(3), key=lambda row: row[2])
    return log2_r, x


@functools.lru_cache(maxsize=None)
def _half_pi_neighbours(count: int) -> tuple[float, ...]:
    values = []
    seen = set()
    for x, _, _ in _binade_nearest(count):
        for y in (math.nextafter(x, 0.0), x, math.nextafter(x, math.inf)):
            if math.isfinite(y) and y not in seen:
                seen.add(y)
                values += [y, -y]
    return tuple(values)


def half_pi_neighbours(count: int = 3) -> list[float]:
    """For each binade 2^0 .. 2^1023, the `count` doubles nearest to a multiple
    of pi/2 and their neighbours one ulp away, both signs (about 18,000 inputs)."""
    return list(_half_pi_neighbours(count))


# ---------------------------------------------------------------------------
# Random samples and special values
# ---------------------------------------------------------------------------

#: Ranges of the uniform random samples: [-R, R].
RANDOM_RANGES = {"pi": math.pi, "1e5": 1e5, "1e22": 1e22}


def random_inputs(kind: str, count: int, seed: int) -> np.ndarray:
    """`count` random float64 inputs: uniform in [-R, R] for the kinds of
    RANDOM_RANGES, or "bits": uniformly random bit patterns of finite doubles
    (so mostly huge or tiny magnitudes)."""
    rng = np.random.default_rng(seed)
    if kind == "bits":
        out = np.empty(0, dtype=np.float64)
        while out.size < count:
            draw = rng.integers(0, 1 << 64, count, dtype=np.uint64, endpoint=False).view(np.float64)
            out = np.concatenate([out, draw[np.isfinite(draw)]])
        return out[:count]
    if kind not in RANDOM_RANGES:
        raise ValueError(f"kind must be one of {sorted(RANDOM_RANGES) + ['bits']}, not {kind!r}")
    bound = RANDOM_RANGES[kind]
    return rng.uniform(-bound, bound, count)


#: Size of each shared random sample (random_sample).
RANDOM_SAMPLE_SIZE = 100_000


@functools.lru_cache(maxsize=None)
def random_sample(func: str, kind: str) -> np.ndarray:
    """The shared random sample of `kind` (a key of RANDOM_RANGES or "bits")
    for `func`: RANDOM_SAMPLE_SIZE inputs, the same array (read-only) for every
    float64 test of the session, so that tests/oracle.trig_memoized computes its
    MPFR values once."""
    if func not in ("sin", "cos"):
        raise ValueError(f"func must be 'sin' or 'cos', not {func!r}")
    x = random_inputs(kind, RANDOM_SAMPLE_SIZE, seed=100 + 10 * ("sin", "cos").index(func) + len(kind))
    x.flags.writeable = False
    return x


def subnormal_inputs(count: int = 200, seed: int = 1) -> list[float]:
    """The extreme subnormals and `count` random ones, both signs."""
    rng = np.random.default_rng(seed)
    mantissas = [1, 2, 3, (1 << 52) - 1, 1 << 51] + [int(m) for m in rng.integers(1, 1 << 52, count)]
    values = [math.ldexp(m, -1074) for m in mantissas]
    return [s * v for v in values for s in (1.0, -1.0)]


def tiny_inputs() -> list[float]:
    """Small normal inputs around the float64 shortcuts (sin x = x, cos x = 1):
    powers of two from 2^-1022 to 2^-20, their neighbours, and random values,
    both signs."""
    rng = np.random.default_rng(2)
    values = []
    for e in range(-1022, -19):
        x = math.ldexp(1.0, e)
        values += [x, math.nextafter(x, 0.0), math.nextafter(x, 1.0)]
    values += [float(v) for v in np.exp2(rng.uniform(-1022, -20, 400))]
    values += [1e-300, 1e-100, 1e-20, 1e-10, 1e-8, 1.4901161193847656e-08]
    return [s * v for v in values for s in (1.0, -1.0)]


def special_inputs() -> list[float]:
    """+-0, +-inf, NaN, +-1 and the extremes of the double range."""
    return [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, LARGEST, -LARGEST,
            SMALLEST_SUBNORMAL, -SMALLEST_SUBNORMAL, LARGEST_SUBNORMAL, -LARGEST_SUBNORMAL,
            SMALLEST_NORMAL, -SMALLEST_NORMAL]


def tiny_thresholds() -> tuple[float, float]:
    """The smallest doubles x > 0 with RN(sin x) != x and with RN(cos x) != 1,
    derived with mpmath as the doubles just above the roots of x - sin x = 2^-79
    and 1 - cos x = 2^-54 (the C core's SIN_IS_X_BELOW and COS_IS_1_BELOW)."""
    with mpmath.workprec(300):
        sin_root = mpmath.findroot(lambda x: x - mpmath.sin(x) - mpmath.mpf(2) ** -79, mpmath.mpf(2) ** -25.5)
        cos_root = mpmath.findroot(lambda x: 1 - mpmath.cos(x) - mpmath.mpf(2) ** -54, mpmath.mpf(2) ** -26.5)
        out = []
        for root in (sin_root, cos_root):
            value = float(root)
            out.append(value if mpmath.mpf(value) > root else math.nextafter(value, math.inf))
    return out[0], out[1]
