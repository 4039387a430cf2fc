"""Print src/core/selfcheck_inputs.h: the stored inputs of the SIMD self-check.

    python tools/gen_selfcheck_inputs.py > src/core/selfcheck_inputs.h

The self-check (src/core/selfcheck.c) runs each SIMD first pass once per process,
at its first use, on these inputs and compares the results with the scalar
path's bit for bit.  The inputs are chosen to make a wrong kernel show:

* hard to round (MPFR, gmpy2): results close to a rounding midpoint of the
  format, the hardness k being the number of identical bits after the round
  bit (as in tools/gen_hard_inputs.py).  Two groups: the hardest overall (the
  first passes must leave them undecided, or decide them right) and inputs
  around the first passes' own threshold (float32: about k = 16, float64: about
  k = 13 to 17), found by a search of deterministic random samples;
* near multiples of pi/2 (the lattice search of tests/float64_inputs.py, at the
  format's precision), where the reduction cancels;
* subnormals, zeros, the tiny range the passes leave to the stages, the
  boundaries between the passes' reductions (float32 2^24, float64 2^17), the
  largest values, infinities and NaNs;
* ordinary values in every binade, so that the vectorized fast path runs.

Every sin/cos list is at most 512 inputs in two parts, which the check runs
through the array kernel in two calls (the passes classify chunks of up to 256
elements): the clean part (at most 256; 128 for float64, whose scalar path, in
double-double, costs about 0.4 us an input) holds only ordinary finite inputs
below the passes' large-reduction threshold (their fast path), the rest
everything else (tiny, special, huge, and hard ones among them), so both paths
run.  The float64 lists hold no input that needs the multi-precision stage
(more than 44 identical bits: CORE-MATH's worst cases with 43 or 44, which
double-double decides, and none harder; the shortcut thresholds themselves are
left out): the check must not allocate (tests/test_selfcheck.py checks that no
stored input reaches that stage).

The windows list ranges of folded phases (window spec, D, first phase, count,
table step), shared by the four window passes: every exact point (D = 12), the
phases of D = 2^20 (Blackman: 1048613, the size where tests/test_window_pass.py
found undecided float32 phases) nearest to a rounding midpoint of each narrow
format, the extremes of D = 2^52 (tiny values: float16 subnormals), general
Hamming windows near their root (alpha < 1/2) and at an exact midpoint
(alpha = 1/2 + 2^-25), and ordinary runs.  Each range gets a table of its own
with a small step (4 or 8: few entries to build; every step gives the same
values).

Needs gmpy2, mpmath and numpy (and tests/float64_inputs.py); takes about a
minute.  Deterministic: fixed seeds, and MPFR decides every ranking.
"""

from __future__ import annotations

import math
import struct
import sys
from pathlib import Path

import gmpy2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
import float64_inputs  # noqa: E402  (tests/: the worst-case files, the pi/2 search)

gmpy2.set_context(gmpy2.context(precision=256, emin=-100000, emax=100000))

FORMATS = {  # name: (precision, emin of the normal range, bits)
    "float16": (11, -14, 16),
    "bfloat16": (8, -126, 16),
    "float32": (24, -126, 32),
    "float64": (53, -1022, 64),
}
MAX_INPUTS = 512
BLOCK = 256
CLEAN_FLOAT64 = 128  # the length of float64's clean part (see the docstring)

# The literature float32 cases of tools/gen_hard_inputs.py.
HARD_FLOAT32 = {
    "sin": ["0x1.33333p+13", "0x1.d4a60ap+3", "0x1.921fb6p+0", "0x1.921fb6p+1", "0x1.921fb6p+2",
            "0x1.2d97c8p+3", "0x1.6a09e6p-1", "0x1.fffffep+23"],
    "cos": ["0x1.3170fp+63", "0x1.2b9622p+67", "0x1.921fb6p+0", "0x1.921fb6p+1", "0x1.2d97c8p+2",
            "0x1.6a09e6p-1", "0x1.3a92a4p-12"],
}


# ---------------------------------------------------------------------------
# Formats and hardness
# ---------------------------------------------------------------------------

def to_bits(x: float, fmt: str) -> int:
    """The bits of the value x (exactly a value of fmt) in fmt."""
    if fmt == "float64":
        return struct.unpack("<Q", struct.pack("<d", x))[0]
    b32 = struct.unpack("<I", struct.pack("<f", x))[0]
    if fmt == "float32":
        return b32
    if fmt == "bfloat16":
        assert b32 & 0xFFFF == 0 or math.isnan(x), x
        return b32 >> 16
    return int(np.array([x], np.float64).astype(np.float16).view(np.uint16)[0])


def from_bits(b: int, fmt: str) -> float:
    if fmt == "float64":
        return struct.unpack("<d", struct.pack("<Q", b))[0]
    if fmt == "float32":
        return struct.unpack("<f", struct.pack("<I", b))[0]
    if fmt == "bfloat16":
        return struct.unpack("<f", struct.pack("<I", b << 16))[0]
    return float(np.array([b], np.uint16).view(np.float16)[0])


def is_value(x: float, fmt: str) -> bool:
    return math.isfinite(x) and from_bits(to_bits(x, fmt), fmt) == x


def hardness_of(y, fmt: str) -> int:
    """Identical bits after the round bit of the exact |y| (an mpfr) in fmt:
    floor(-log2 d) - 1 for d = the distance to the nearest midpoint in ulps."""
    precision, emin, _ = FORMATS[fmt]
    y = abs(y)
    if y == 0:
        return 0
    exponent = gmpy2.get_exp(y) - 1  # 2^exponent <= y < 2^(exponent + 1)
    quantum = max(exponent, emin) - (precision - 1)
    scaled = gmpy2.mul_2exp(y, -quantum)
    d = abs(scaled - gmpy2.floor(scaled) - gmpy2.mpfr(0.5))
    return 999 if d == 0 else max(0, math.floor(-math.log2(float(d))) - 1)


def trig(func: str, x: float):
    return gmpy2.sin(gmpy2.mpfr(x)) if func == "sin" else gmpy2.cos(gmpy2.mpfr(x))


def hardness(func: str, x: float, fmt: str) -> int:
    return hardness_of(trig(func, x), fmt)


def nearest_half_pi(fmt: str, exponents, count: int = 1) -> list[float]:
    """The values of fmt nearest to a multiple of pi/2 in each binade [2^e, 2^(e+1))."""
    precision = FORMATS[fmt][0]
    out = []
    for e in exponents:
        for M, _, _ in float64_inputs.nearest_to_multiples(e, count, precision=precision)[:count]:
            out.append(math.ldexp(M, e - precision + 1))
    return out


def alternate_signs(values):
    return [v if i % 2 == 0 else -v for i, v in enumerate(values)]


def unique(values, fmt):
    seen, out = set(), []
    for v in values:
        b = to_bits(v, fmt) if not isinstance(v, tuple) else v
        if b not in seen:
            seen.add(b)
            out.append(v)
    return out


def log_uniform(rng, lo_exp: float, hi_exp: float, count: int) -> np.ndarray:
    """Doubles in [2^lo_exp, 2^hi_exp], spread evenly over the binades: u uniform (the
    fixed-seed stream), x = (1 + frac(u)) 2^floor(u).  Only IEEE-exact operations, so
    x is the same on every machine: numpy's exp2 is not correctly rounded (on an AVX2
    machine 493 of 2^19 values of exp2(u) differed from MPFR's), and the header made
    with it on another machine did not match this one's output."""
    u = rng.uniform(lo_exp, hi_exp, count)
    e = np.floor(u)
    return np.ldexp(1.0 + (u - e), e.astype(np.int64))


def spread_by_hardness(scored, count: int, k_lo: int, k_hi: int):
    """Up to `count` inputs with k_lo <= k <= k_hi, as evenly as possible over k
    (the rarer hard ones first)."""
    by_k = {}
    for k, x in scored:
        if k_lo <= k <= k_hi:
            by_k.setdefault(k, []).append(x)
    chosen = []
    while len(chosen) < count and any(by_k.values()):
        for k in sorted(by_k, reverse=True):
            if by_k[k] and len(chosen) < count:
                chosen.append(by_k[k].pop(0))
    return chosen


# ---------------------------------------------------------------------------
# sin/cos inputs
# ---------------------------------------------------------------------------

def specials(fmt: str) -> list[int]:
    """+-inf, quiet NaNs of both signs, a signalling NaN, as bits."""
    bits = FORMATS[fmt][2]
    exp_bits = {"float16": 5, "bfloat16": 8, "float32": 8, "float64": 11}[fmt]
    frac = bits - 1 - exp_bits
    inf = ((1 << exp_bits) - 1) << frac
    sign = 1 << (bits - 1)
    return [inf, sign | inf, inf | (1 << (frac - 1)), sign | inf | (1 << (frac - 1)), inf | 1]


def subnormals(fmt: str) -> list[float]:
    precision, emin, _ = FORMATS[fmt]
    tiny = math.ldexp(1.0, emin - precision + 1)
    values = [tiny, 2 * tiny, math.ldexp(1.0, emin) - tiny, math.ldexp(1.0, emin - 1),
              math.ldexp(1.0, emin)]
    return [s * v for v in values for s in (1.0, -1.0)]


def largest(fmt: str) -> float:
    precision, _, bits = FORMATS[fmt]
    emax = {"float16": 15, "bfloat16": 127, "float32": 127, "float64": 1023}[fmt]
    return math.ldexp(2.0 - math.ldexp(1.0, 1 - precision), emax)


def sixteen_bit_lists(func: str, fmt: str):
    """(clean block, other inputs) for a 16-bit format, as values (and special bits)."""
    import ml_dtypes

    dtype = np.float16 if fmt == "float16" else ml_dtypes.bfloat16
    with np.errstate(invalid="ignore"):
        values = np.arange(1 << 15, dtype=np.uint16).view(dtype).astype(np.float64).tolist()
    finite = [v for v in values if math.isfinite(v) and v > 0]
    scored = sorted((-hardness(func, v, fmt), v) for v in finite)
    large = 2.0 ** 24  # bfloat16 chunks with a finite |x| >= 2^24 take the table reduction
    tiny = 2.0 ** -13  # below it the 16-bit passes leave the element to the stages
    hardest = [v for _, v in scored]
    clean_hard = [v for v in hardest if tiny <= v < large][:112]
    other_hard = [v for v in hardest if not tiny <= v < large][:48]
    pi_half = [v for v in nearest_half_pi(fmt, range(0, 16 if fmt == "float16" else 127), 1)]
    rng = np.random.default_rng(16 + ("sin", "cos").index(func) + 2 * (fmt == "bfloat16"))
    ordinary = [float(v) for v in np.array(log_uniform(rng, -13, 15.9 if fmt == "float16" else 23.9, 200))
                .astype(dtype).astype(np.float64)]
    clean = unique(alternate_signs(clean_hard + [v for v in pi_half if tiny <= v < large][:40]) + ordinary, fmt)
    clean = [v for v in clean if tiny <= abs(v) < large][:BLOCK]
    small = [math.ldexp(1.0, e) for e in (-14, -15, -20, -24)] + [tiny, tiny * 0.75]
    other = (alternate_signs(other_hard + [v for v in pi_half if v >= large][:24])
             + subnormals(fmt) + [s * v for v in small for s in (1.0, -1.0)]
             + [largest(fmt), -largest(fmt), 0.0, -0.0])
    return clean, unique([v for v in other if is_value(v, fmt)], fmt), specials(fmt)


def search_float32(func: str):
    """(k, x) for the float32 inputs of a fixed sample whose sin/cos lies within 2^-10
    float32 ulps of a midpoint (k >= 9, decided by MPFR).  numpy's float64 sin/cos
    (a few ulps of double at most, below 2^-26 float32 ulps, whatever its
    implementation) only filters: it keeps every x within 2^-9 ulps, a superset, so the result does not
    depend on the machine's sin/cos.  The exponent comes from frexp and the quantum
    from ldexp (exact)."""
    rng = np.random.default_rng(32 + ("sin", "cos").index(func))
    found = []
    for lo, hi, count in ((-13, 24, 1 << 23), (24, 128, 1 << 21)):
        x = log_uniform(rng, lo, hi, count).astype(np.float32)
        y = np.abs(np.sin(x.astype(np.float64)) if func == "sin" else np.cos(x.astype(np.float64)))
        _, ex = np.frexp(np.maximum(y, 2.0 ** -149))  # y = m 2^ex, 1/2 <= m < 1
        q = np.ldexp(1.0, np.maximum(ex - 1, -126) - 23)
        t = y / q
        d = np.abs(t - np.floor(t) - 0.5)
        for v in x[d < 2.0 ** -9].tolist():
            k = hardness(func, v, "float32")
            if k >= 9:
                found.append((k, v))
    return sorted(set(found), key=lambda kx: (-kx[0], kx[1]))


def float32_lists(func: str):
    tiny, large = 2.0 ** -13, 2.0 ** 24
    scored = search_float32(func)
    clean_scored = [(k, x) for k, x in scored if tiny <= x < large]
    large_scored = [(k, x) for k, x in scored if x >= large]
    literature = [float.fromhex(t) for t in HARD_FLOAT32[func]]
    pi_half = nearest_half_pi("float32", range(0, 128), 1)
    rng = np.random.default_rng(320 + ("sin", "cos").index(func))
    ordinary = [float(v) for v in log_uniform(rng, -13, 23.9, 64).astype(np.float32)]
    clean = (alternate_signs([x for x in literature if tiny <= x < large]
                             + spread_by_hardness(clean_scored, 120, 10, 99)
                             + [x for x in pi_half if x < large])
             + ordinary)
    clean = unique([v for v in clean if tiny <= abs(v) < large], "float32")[:BLOCK]
    near_large = [large, math.nextafter(large, 0.0), math.nextafter(large, math.inf)]
    other = (alternate_signs([x for x in literature if not tiny <= x < large]
                             + spread_by_hardness(large_scored, 40, 10, 99)
                             + [x for x in pi_half if x >= large][::3])
             + [s * v for v in near_large for s in (1.0, -1.0)]
             + subnormals("float32")
             + [s * v for v in (2.0 ** -13, float(np.nextafter(np.float32(2.0 ** -13), np.float32(0))),
                                2.0 ** -20, 1e-8) for s in (1.0, -1.0)]
             + [largest("float32"), -largest("float32"), 0.0, -0.0])
    other = [float(np.float32(v)) for v in other]
    return clean, unique([v for v in other if is_value(v, "float32")], "float32"), specials("float32")


def search_float64(func: str, lo: float, hi: float, count: int, seed: int):
    rng = np.random.default_rng(seed)
    found = []
    with gmpy2.context(gmpy2.get_context(), precision=128):
        for v in log_uniform(rng, lo, hi, count).tolist():
            found.append((hardness(func, v, "float64"), v))
    return sorted(found, key=lambda kx: (-kx[0], kx[1]))


def float64_lists(func: str):
    tiny, large = 2.0 ** -27, 2.0 ** 17
    worst = float64_inputs.worst_cases(func, signed=False)
    scored_worst = sorted(((hardness(func, x, "float64"), x) for x in worst), key=lambda kx: (-kx[0], kx[1]))
    # k = 43, 44: as hard as double-double decides (the multi-precision stage would allocate)
    decided_by_dd = [(k, x) for k, x in scored_worst if 43 <= k <= 44]
    seed = 640 + ("sin", "cos").index(func)
    near = search_float64(func, -27, 17, 1 << 19, seed)
    near_large = search_float64(func, 17, 1023.9, 1 << 16, seed + 2)
    pi_half_small = nearest_half_pi("float64", range(0, 17), 1)
    pi_half_large = nearest_half_pi("float64", list(range(17, 1024, 53)) + [849], 1)
    rng = np.random.default_rng(seed + 4)
    ordinary = log_uniform(rng, -27, 16.9, 48).tolist()
    clean = (alternate_signs(spread_by_hardness([kx for kx in decided_by_dd if tiny <= kx[1] < large], 16, 43, 44)
                             + spread_by_hardness(near, 56, 9, 40) + pi_half_small)
             + ordinary)
    clean = unique([v for v in clean if tiny <= abs(v) < large and hardness(func, v, "float64") <= 44],
                   "float64")[:CLEAN_FLOAT64]
    thresholds = float64_inputs.tiny_thresholds()
    # the shortcut thresholds themselves are as hard as the worst cases (the
    # multi-precision stage): the doubles just below them, where RN(sin x) = x, RN(cos x) = 1
    edges = [large, math.nextafter(large, 0.0), math.nextafter(large, math.inf), tiny,
             math.nextafter(tiny, 0.0), *(math.nextafter(t, 0.0) for t in thresholds)]
    other = (alternate_signs(spread_by_hardness([kx for kx in decided_by_dd if kx[1] >= large], 4, 43, 44)
                             + spread_by_hardness(near_large, 24, 9, 40)
                             + pi_half_large + [float64_inputs.WORST_REDUCTION_INPUT])
             + [s * v for v in edges for s in (1.0, -1.0)]
             + subnormals("float64") + [1e-300, -1e-20]
             + [largest("float64"), -largest("float64"), 0.0, -0.0])
    other = [v for v in other if is_value(v, "float64") and (v == 0 or hardness(func, v, "float64") <= 44)]
    return clean, unique(other, "float64"), specials("float64")


def trig_list(func: str, fmt: str) -> tuple[list[int], int]:
    """The stored inputs of one sin/cos pass, as bits: the clean part, then the rest
    with the specials spread through it; and the length of the clean part."""
    if fmt in ("float16", "bfloat16"):
        clean, other, special = sixteen_bit_lists(func, fmt)
    elif fmt == "float32":
        clean, other, special = float32_lists(func)
    else:
        clean, other, special = float64_lists(func)
    clean_bits = [to_bits(v, fmt) for v in clean]
    other_bits = [to_bits(v, fmt) for v in other]
    step = max(1, len(other_bits) // (len(special) + 1))
    for i, b in enumerate(special):
        other_bits.insert(min(len(other_bits), (i + 1) * step + i), b)
    room = MAX_INPUTS - len(clean_bits)
    bits = clean_bits + other_bits[:room]
    assert len(clean_bits) <= BLOCK and len(bits) <= MAX_INPUTS and len(set(bits)) == len(bits)
    return bits, len(clean_bits)


# ---------------------------------------------------------------------------
# Window inputs
# ---------------------------------------------------------------------------

HANN, HAMMING, BLACKMAN, GENERAL = 0, 1, 2, 3
KIND_NAMES = {HANN: "hann", HAMMING: "hamming", BLACKMAN: "blackman", GENERAL: "general_hamming"}


def window_value(kind: int, p: int, q: int, r: int, D: int):
    """The exact window value at phase r of D, as an mpfr at 256 bits."""
    y = gmpy2.sin(gmpy2.const_pi() * r / D)
    s = y * y
    if kind == HANN:
        return s
    if kind == HAMMING:
        return (2 + 21 * s) / 23
    if kind == BLACKMAN:
        return s * (9 + 16 * s) / 25
    return gmpy2.mpfr(2 * p - q) / q + 2 * gmpy2.mpfr(q - p) / q * s


def hardest_phases(kind: int, p: int, q: int, D: int, count: int):
    """The `count` phases 1 <= r < D/2 (exact points left out) of each narrow float
    format whose window value lies nearest to a rounding midpoint of that format,
    as (k, r): numpy's float64 values (within 2^-27 of an ulp of float32) as a
    filter over every phase, MPFR ranks."""
    r = np.arange(1, (D + 1) // 2, dtype=np.int64)
    r = r[(6 * r != D) & (4 * r != D) & (3 * r != D)]
    s = np.sin(np.pi * r.astype(np.float64) / D) ** 2
    w = {HANN: s, HAMMING: (2 + 21 * s) / 23, BLACKMAN: s * (9 + 16 * s) / 25}[kind] if kind != GENERAL else \
        (2 * p - q) / q + 2 * (q - p) / q * s
    best = {}
    for fmt in ("float32", "bfloat16", "float16"):
        precision, emin, _ = FORMATS[fmt]
        e = np.floor(np.log2(np.abs(w)))
        t = np.abs(w) / np.exp2(np.maximum(e, emin) - precision + 1)
        d = np.abs(t - np.floor(t) - 0.5)
        candidates = r[np.argsort(d, kind="stable")[:8 * count]].tolist()
        best[fmt] = sorted(((hardness_of(window_value(kind, p, q, c, D), fmt), c) for c in candidates),
                           key=lambda kr: (-kr[0], kr[1]))[:count]
    return best


def window_ranges():
    """(kind, p, q, D, r0, count, comment) rows, at most MAX_INPUTS phases in all."""
    rows = []
    specs = [(HANN, 0, 0), (HAMMING, 0, 0), (BLACKMAN, 0, 0), (GENERAL, 27, 50)]
    for kind, p, q in specs:
        name = KIND_NAMES[kind] + (f" {p}/{q}" if kind == GENERAL else "")
        rows.append((kind, p, q, 12, 0, 7, f"{name}: every exact point (s = 0, 1/4, 1/2, 3/4, 1)"))
        if kind == HANN:
            rows.append((kind, p, q, 2, 0, 2, f"{name}: D = 2"))
        big = 1 << 52
        rows.append((kind, p, q, big, 0, 4, f"{name}: D = 2^52, the smallest values"))
        rows.append((kind, p, q, big, big // 4 - 2, 5, f"{name}: D = 2^52 around s = 1/2"))
        rows.append((kind, p, q, big, big // 2 - 3, 4, f"{name}: D = 2^52 up to s = 1"))
        if kind == HANN:
            rows.append((kind, p, q, big - 1, big // 2 - 2, 2, f"{name}: D = 2^52 - 1, the last phases"))
    for kind, D in ((HANN, 1 << 20), (HAMMING, 1 << 20), (BLACKMAN, 1048613)):
        best = hardest_phases(kind, 0, 0, D, 2)
        # not float64's: its pass errs by 2^-97.3, nothing near a float64 midpoint
        # of a window of this size is hard for it
        for fmt in ("float32", "bfloat16", "float16"):
            for k, r in best[fmt]:
                rows.append((kind, 0, 0, D, r, 1,
                             f"{KIND_NAMES[kind]}: D = {D}, r = {r}: {k} identical bits in {fmt}"))
    # general Hamming alpha = 3/10: w = -2/5 + 7/5 s changes sign at s = 2/7
    D = 1 << 20
    root = round(D * math.asin(math.sqrt(2 / 7)) / math.pi)
    rows.append((GENERAL, 3, 10, D, root - 8, 16, f"general_hamming 3/10: D = 2^20 around the root (r = {root})"))
    rows.append((GENERAL, 3, 10, 12, 0, 7, "general_hamming 3/10: every exact point"))
    rows.append((GENERAL, (1 << 24) + 1, 1 << 25, 4, 0, 3, "general_hamming 1/2 + 2^-25: w = 1/2 + 2^-25 at s = 1/2, "
                 "a float32 midpoint"))
    rows.append((GENERAL, 1, 1, 8, 2, 3, "general_hamming 1: the constant 1"))
    rows.append((GENERAL, 0, 1, 8, 0, 5, "general_hamming 0: w = -cos"))
    rows.append((HANN, 0, 0, 1000, 0, 24, "hann: D = 1000, an ordinary run"))
    rows.append((BLACKMAN, 0, 0, 1001, 437, 24, "blackman: D = 1001, an ordinary run"))
    rows.append((HAMMING, 0, 0, 4097, 1000, 17, "hamming: D = 4097, an ordinary run"))
    # one range per run of phases of the same window (sorted; overlapping or adjacent rows merged)
    merged = []
    for row in sorted(rows, key=lambda row: row[:5]):
        kind, p, q, D, r0, count, comment = row
        assert 0 <= r0 and 2 * (r0 + count - 1) <= D, row
        if merged:
            k2, p2, q2, D2, r2, c2, m2 = merged[-1]
            if (k2, p2, q2, D2) == (kind, p, q, D) and r0 <= r2 + c2:
                end = max(r2 + c2, r0 + count)
                merged[-1] = (k2, p2, q2, D2, r2, end - r2, m2 + "; " + comment)
                continue
        merged.append(row)
    total = sum(row[5] for row in merged)
    assert total <= MAX_INPUTS, total
    assert all(row[5] <= 64 for row in merged)
    return merged


def window_step(count: int) -> int:
    """The step B of a range's table: few entries (B fine ones, about count / B
    coarse ones; every B gives the same correctly rounded values), both parts
    nontrivial (c = r mod B and r - c vary)."""
    return 4 if count <= 16 else 8


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------

C_TYPES = {"float16": "uint16_t", "bfloat16": "uint16_t", "float32": "uint32_t", "float64": "uint64_t"}


def c_array(name: str, fmt: str, bits: list[int]) -> str:
    width = FORMATS[fmt][2] // 4
    per_line = {4: 10, 8: 6, 16: 3}[width]
    suffix = "u" if width <= 8 else "u"
    lines = [f"static const {C_TYPES[fmt]} {name}[{len(bits)}] = {{"]
    for i in range(0, len(bits), per_line):
        chunk = ", ".join(f"0x{b:0{width}x}{suffix}" for b in bits[i:i + per_line])
        lines.append(f"    {chunk},")
    lines.append("};")
    return "\n".join(lines)


def main() -> int:
    out = sys.stdout
    out.write("/* The stored inputs of the SIMD self-check (selfcheck.c), as bits.\n"
              " *\n"
              " * Generated by tools/gen_selfcheck_inputs.py (its docstring gives the method and\n"
              " * the sources); do not edit by hand.  Per sin/cos pass, at most 512 inputs of the\n"
              " * pass's format: first a block of 256 ordinary finite inputs (the hardest to round\n"
              " * the MPFR searches found, inputs near the first passes' own threshold, the values\n"
              " * nearest to multiples of pi/2, ordinary values), then the rest (huge, tiny,\n"
              " * subnormal, zero, infinite and NaN inputs, and hard ones among them).  The windows:\n"
              " * ranges of folded phases shared by the four window passes.\n"
              " */\n"
              "#ifndef CRTRIG_SELFCHECK_INPUTS_H\n#define CRTRIG_SELFCHECK_INPUTS_H\n\n"
              "#include <stdint.h>\n#include \"selfcheck.h\"\n\n")
    for func in ("sin", "cos"):
        for fmt in ("float16", "bfloat16", "float32", "float64"):
            bits, clean = trig_list(func, fmt)
            name = f"SELFCHECK_{func.upper()}_{fmt.upper()}"
            out.write(f"/* {len(bits)} inputs, the first {clean} ordinary (the clean part) */\n"
                      f"#define {name}_CLEAN {clean}\n")
            out.write(c_array(name, fmt, bits) + "\n\n")
    rows = window_ranges()
    out.write(f"/* {sum(r[5] for r in rows)} phases: {{kind, alpha = p/q (general Hamming), D, first phase, count, "
              "table step} */\n")
    out.write(f"static const crtrig_selfcheck_window_input SELFCHECK_WINDOWS[{len(rows)}] = {{\n")
    for kind, p, q, D, r0, count, comment in rows:
        out.write(f"    /* {comment} */\n")
        step = window_step(count)
        assert step + (count - 1) // step + 2 <= 80  # the check's table memory (window.c)
        out.write(f"    {{{kind}, {p}u, {q}u, {D}u, {r0}u, {count}, {step}}},\n")
    out.write("};\n\n#endif\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
