"""The windows' first passes and their fill driver (src/core/window_table.[ch],
sinpi_table_pass.h, window_pass.h, window64_pass.h, window.c), on every SIMD target
this CPU supports:

* the tables' builder repeats the scalar double-double sin(pi a/b) of the
  per-element stages bit for bit, and its entries are within that function's
  proven bound of mpmath's values;
* each pass's unrounded value is within the bound its rounding test uses
  (mpmath), for D up to 2^52 and any table step, and every value it decides is
  crtrig.reference's;
* the driver: elements the passes leave undecided (real ones, found by search)
  are finished by the per-element stages, any range [lo, hi) of a window comes
  out as in the whole fill and touches nothing else, strided, reversed and
  unaligned outputs get the same bits, and a failed allocation writes nothing.
"""
import math
import random
import re
from fractions import Fraction
from pathlib import Path

import ml_dtypes
import mpmath
import numpy as np
import pytest

import crtrig
from crtrig import _core, reference
from crtrig._dtypes import output_code
from crtrig._windows import make_window

KINDS = {"hann": 0, "hamming": 1, "blackman": 2}
FORMATS = ("float16", "bfloat16", "float32", "float64")
TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]
TARGET_IDS = [_core._supported_target_slots()[i] for i in TARGETS]
SOURCE = Path(__file__).resolve().parents[1] / "src" / "core"
DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "uint16",
          "int32", "uint32", "int64", "uint64")
UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def exact_window(kind, n, d):
    """w[n] with denominator d (mpmath, at the working precision)."""
    s = mpmath.sin(mpmath.pi * mpmath.mpf(min(n, d - n)) / d) ** 2  # exactly 0 at n = 0, d
    return {"hann": s, "hamming": (2 + 21 * s) / 23, "blackman": s * (9 + 16 * s) / 25}[kind]


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(UNSIGNED[a.dtype.itemsize])


# ---------------------------------------------------------------------------
# The tables' builder
# ---------------------------------------------------------------------------

def _builder_runs():
    """(m0, step, M, count) runs the builder is called with: the direct and folded
    parts of fine and coarse tables, m = 0 and m = M/4 included, M up to 2^53."""
    runs = [(0, 1, 1000, 251), (0, 16, 1000, 16), (500, -2, 2000, 251), (0, 1, 3, 1), (0, 1, 4, 2),
            (1, 1, 4, 1), (0, 736, 2 ** 20, 357), (2 ** 20 - 2 * 736 * 357, -2 * 736, 2 ** 21, 100),
            (2 ** 51, -1, 2 ** 53, 5), (0, 1, 2 ** 53, 5), (2 ** 51 - 7, 1, 2 ** 53, 7)]
    rng = random.Random("builder")
    for _ in range(12):
        M = rng.randrange(4, 2 ** rng.randrange(3, 54))
        count = rng.randrange(1, min(40, M // 4 + 1) + 1)
        step = rng.randrange(1, M // 4 // max(count - 1, 1) + 1)
        m0 = rng.randrange(0, M // 4 - step * (count - 1) + 1)
        if rng.random() < 0.5:  # the same m, walked downwards
            m0, step = m0 + step * (count - 1), -step
        runs.append((m0, step, M, count))
    return runs


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
def test_table_builder_repeats_the_scalar_function(target):
    """Every entry is crtrig_sincospi_ratio_dd's (hi, lo) bit for bit, so the bound
    proven for that function (3.7 2^-103, sincospi.c) is the entries' bound; and it
    holds against mpmath, with hi = RN(hi + lo)."""
    worst = 0.0
    with mpmath.workprec(300):
        for m0, step, M, count in _builder_runs():
            s_hi, s_lo, c_hi, c_lo = _core.sinpi_table_build(target, m0, step, M, count)
            for i in range(count):
                m = m0 + i * step
                for use_cos, hi, lo in ((False, s_hi[i], s_lo[i]), (True, c_hi[i], c_lo[i])):
                    assert (hi, lo) == _core.sinpi_ratio_dd(use_cos, m, M), (m, M, use_cos)
                    exact = (mpmath.cospi if use_cos else mpmath.sinpi)(mpmath.mpf(m) / M)
                    if exact == 0:
                        assert hi == 0.0 and lo == 0.0
                        continue
                    assert hi == float(mpmath.mpf(hi) + mpmath.mpf(lo)), (m, M, use_cos)
                    error = float(abs(mpmath.mpf(hi) + mpmath.mpf(lo) - exact) / exact)
                    assert error <= 3.7 * 2.0 ** -103, (m, M, use_cos, error)
                    worst = max(worst, error)
    assert worst > 2.0 ** -110  # a real comparison, not exact zeros and ones only
    assert _core.sinpi_table_build(target, 0, 1, 8, 3)[2][0] == 1.0  # cos(0) exactly


def test_table_builder_refuses_what_it_cannot_do():
    for args in [(0, 1, 8, 4), (3, 1, 8, 1), (1, -1, 8, 3), (0, 1, 2 ** 53 + 1, 1), (0, 1, 0, 1)]:
        with pytest.raises(ValueError):
            _core.sinpi_table_build(0, *args)
    with pytest.raises(ValueError):
        _core.sinpi_ratio_dd(False, 3, 8)


# ---------------------------------------------------------------------------
# The passes: bound, decided values, undecided share
# ---------------------------------------------------------------------------

def _phases(seed, count):
    """(n, D, B): D of every bit length up to 52, n at the ends, the centre, the
    exact points and anywhere; B the hooks' default (0), the smallest step or another."""
    rng = random.Random(seed)
    triples = []
    for _ in range(count):
        d = rng.randrange(1, 1 << rng.randrange(1, 53))
        where = rng.random()
        if where < 0.3:
            n = rng.choice([0, 1, 2, d // 2, d // 2 - 1, d // 2 + 1, d // 3, d // 4, d // 6, d - 1, d])
        else:
            n = rng.randrange(0, d + 1)
        triples.append((min(max(n, 0), d), d, rng.choice([0, 0, 16, rng.randrange(1, 5000)])))
    triples += [(1, 2 ** 52, 0), (2 ** 51, 2 ** 52, 0), (2 ** 51 - 1, 2 ** 52, 0), (1, 3, 0), (1, 6, 0),
                (1, 4, 0), (5, 640, 0), (0, 1, 0), (1, 1, 0), (1, 2, 0), (0, 2, 1), (12345, 2 ** 40 + 1, 1)]
    # r = B + (B - 1): a = 1, c = B - 1, where sin(pi aB/D) cos(pi c/D) comes closest to
    # cos(pi aB/D) sin(pi c/D) (window64_pass.h's fast two-sum of the two products)
    triples += [(2 * b - 1, d, b) for b in (16, 4999, 1 << 16) for d in (4 * b, 2 ** 52)]
    return triples


# e (the bound the rounding test relies on) over the pass's computed w: 22.02 2^-53
# below float64 (its bit test allows 32 ulps of w), 2^-96 for float64 (window_pass.h,
# window64_pass.h).
BOUND = {"float16": 22.02 * 2.0 ** -53, "bfloat16": 22.02 * 2.0 ** -53, "float32": 22.02 * 2.0 ** -53,
         "float64": 2.0 ** -96}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("kind", KINDS)
def test_pass_bound_holds_and_decided_values_are_exact(kind, target, fmt):
    """|w~ - w| <= e (mpmath) for the unrounded value and the bound the pass's
    rounding test uses; the hook's flag is the pass's; a decided value is
    crtrig.reference's."""
    code = FORMATS.index(fmt)
    worst = 0.0
    with mpmath.workprec(300):
        for n, d, step in _phases(f"bound-{kind}-{target}-{fmt}", 250):
            hi, lo, e, flag = _core.window_table_value(target, KINDS[kind], n, d, code, step)
            w = mpmath.mpf(hi) + mpmath.mpf(lo)
            error = abs(w - exact_window(kind, n, d))
            assert error <= e, (kind, n, d, step, fmt, float(error), e)
            assert e == (hi * 22.02 * 2.0 ** -53 if fmt != "float64" else BOUND[fmt] * hi)
            if e:
                worst = max(worst, float(error / e))
            r = min(n, d - n)
            got, undecided = _core.window_pass_with_target(target, KINDS[kind], r, d, code, 1)
            assert undecided[0] == flag, (kind, n, d, fmt)
            if flag == 0:
                assert float(got[0]) == reference.window_value(kind, n, d, fmt), (kind, n, d, fmt)
    # the sample reaches the bound's scale (float64: the bound has a margin of 3.6
    # over its proof, which itself is pessimistic)
    assert worst > (0.01 if fmt != "float64" else 1e-4), worst


WINDOW_SIZES = list(range(0, 513)) + [1000, 1001]
_REFERENCE = {}


def reference_first_half(kind, size, periodic, fmt):
    key = (kind, size, periodic, fmt)
    if key not in _REFERENCE:
        d = size if periodic else size - 1
        _REFERENCE[key] = reference.window(kind, size, periodic, fmt)[: d // 2 + 1]
    return _REFERENCE[key]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("kind", KINDS)
def test_pass_matches_the_reference_at_every_tested_size(kind, target, fmt):
    """Every value the pass decides over the phases 0 .. D/2 (what the driver
    computes), at every size the window tests use, is bit-identical to
    crtrig.reference, and it decides all of them here."""
    undecided_total = 0
    for periodic in (True, False):
        for size in WINDOW_SIZES:
            d = size if periodic else size - 1
            if d < 1:
                continue
            want = reference_first_half(kind, size, periodic, fmt)
            got, undecided = _core.window_pass_with_target(target, KINDS[kind], 0, d, FORMATS.index(fmt),
                                                           d // 2 + 1)
            decided = undecided == 0
            bad = np.nonzero(decided & (bits(got) != bits(want)))[0]
            assert bad.size == 0, f"{kind} size={size} periodic={periodic} r={bad[0]}: {got[bad[0]]!r} != {want[bad[0]]!r}"
            assert np.all((undecided == 0) | (undecided == 2))
            undecided_total += np.count_nonzero(undecided)
    assert undecided_total == 0


def test_pass_constants():
    """RN(2/23), RN(21/23), RN(9/25), RN(16/25) in window_pass.h."""
    path = SOURCE / "window_pass.h"
    if not path.is_file():  # tests run against an installed wheel, without the C sources
        pytest.skip(f"{path} is not here")
    text = path.read_text(encoding="utf-8")
    for name, q in (("HAMMING_A", Fraction(2, 23)), ("HAMMING_B", Fraction(21, 23)),
                    ("BLACKMAN_P", Fraction(9, 25)), ("BLACKMAN_Q", Fraction(16, 25))):
        value = float.fromhex(re.search(rf"WP_{name} = (0x[0-9a-fp.+-]+);", text).group(1))
        assert value == float(q), name


def test_pass_hooks_refuse_what_they_cannot_do():
    with pytest.raises(ValueError):
        _core.window_pass_with_target(0, 0, 0, 2 ** 52 + 1, 3, 1)
    with pytest.raises(ValueError):
        _core.window_pass_with_target(0, 0, 3, 4, 3, 1)  # r = 3 > D/2
    with pytest.raises(ValueError):
        _core.window_table_value(0, 0, 5, 4, 2)
    with pytest.raises(ValueError):
        _core.window_table_value(0, 0, 1, 0, 2)


# ---------------------------------------------------------------------------
# The driver
# ---------------------------------------------------------------------------

# Windows (kind, D) in which the float32 pass leaves phases undecided on x86-64's
# targets (found by scanning D = 2^20 .. 2^20 + 63 with window_pass_with_target):
# a correctly rounded value within 2^-48 of a float32 rounding boundary.
UNDECIDED_FLOAT32 = [("hann", 1 << 20), ("hamming", 1 << 20), ("blackman", 1048613)]


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("kind,d", UNDECIDED_FLOAT32)
def test_undecided_elements_are_finished_by_the_element_stages(kind, d, target):
    """Where the pass leaves a phase undecided, the fill sends it to the per-element
    stages (counted there) and stores the correctly rounded value at n = r and
    n = D - r, into float32 and the integer casts alike."""
    _, undecided = _core.window_pass_with_target(target, KINDS[kind], 0, d, 2, d // 2 + 1)
    phases = np.nonzero(undecided)[0].tolist()
    assert phases, "the search above found undecided phases on every x86-64 target (FMA or not)"
    for dtype in ("float32", "uint8", "int64"):
        out = np.full(d, 7, dtype=dtype)
        counts = _core.fill_window(KINDS[kind], d, True, output_code(out.dtype), out, 0, 0, target)
        assert counts["double-double"] + counts["multi-precision"] + counts["exact"] == len(phases)
        assert counts["double"] + counts["mirrored"] + len(phases) == d
        rng = random.Random(f"{kind}-{d}")
        for n in phases + [d - r for r in phases if r] + [rng.randrange(d) for _ in range(20)]:
            assert out[n] == reference.window_value(kind, n, d, dtype), (kind, d, n, dtype)


def _reference(kind, size, periodic, dtype, cache={}):
    key = (kind, size, periodic, dtype)
    if key not in cache:
        cache[key] = reference.window(kind, size, periodic, dtype)
    return cache[key]


# Sizes around the driver's blocks (512 phases) and the middle.
DRIVER_SIZES = [(1, True), (2, False), (3, True), (1025, False), (1026, True), (1537, True), (2049, False)]


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_ranges_strides_and_unaligned_outputs(dtype, target):
    """Any range [lo, hi) of a fill writes exactly those elements, as the whole fill
    does; strided, reversed and unaligned out= arrays get the same bits."""
    rng = random.Random(f"ranges-{dtype}-{target}")
    code = DTYPES.index(dtype)
    for kind in KINDS:
        for size, periodic in DRIVER_SIZES:
            want = _reference(kind, size, periodic, dtype)
            whole = np.empty(size, want.dtype)
            _core.fill_window(KINDS[kind], size, periodic, code, whole, 0, 0, target)
            assert bits(whole).tobytes() == bits(want).tobytes(), (kind, size, periodic)
            cuts = sorted({0, size, size // 2, size // 2 + 1, *(rng.randrange(size + 1) for _ in range(3))})
            cuts = [c for c in cuts if c <= size]
            for lo, hi in zip(cuts, cuts[1:]):
                part = np.full(size, 0x5A, np.uint8).repeat(want.dtype.itemsize).view(want.dtype)
                sentinel = part.copy()
                _core.fill_window_range(KINDS[kind], size, periodic, code, part, lo, hi, 0, target)
                assert bits(part[lo:hi]).tobytes() == bits(want[lo:hi]).tobytes(), (kind, size, lo, hi)
                assert bits(part[:lo]).tobytes() == bits(sentinel[:lo]).tobytes()
                assert bits(part[hi:]).tobytes() == bits(sentinel[hi:]).tobytes()
            width = want.dtype.itemsize
            for view in (lambda raw: raw[: 2 * size * width].view(want.dtype)[::2],   # stride 2
                         lambda raw: raw[: size * width].view(want.dtype)[::-1],      # reversed
                         lambda raw: raw[1: 1 + size * width].view(want.dtype)):      # unaligned
                raw = np.full(2 * size * width + 1, 0xA5, np.uint8)
                expected = raw.copy()
                view(expected)[:] = want
                _core.fill_window(KINDS[kind], size, periodic, code, view(raw), 0, 0, target)
                assert raw.tobytes() == expected.tobytes(), (kind, size, periodic, view(raw).strides)


def test_range_hook_refuses_bad_ranges():
    out = np.empty(10, np.float32)
    with pytest.raises(ValueError):
        _core.fill_window_range(0, 10, True, 2, out, 5, 11)
    with pytest.raises(ValueError):
        _core.fill_window_range(0, 10, True, 2, out, 6, 5)
