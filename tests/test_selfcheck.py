"""The first-use self-check of the SIMD first passes (src/core/selfcheck.h).

At the first use of each first pass (sin, cos per float format; the windows per
float format) the active target's path is compared, bit for bit, with the scalar
path on a few hundred stored hard inputs; a target that differs gives way to the
next one down for that pass, with a RuntimeWarning, and crtrig.show_config()
reports the outcome.

Broken kernels are simulated by a test hook (_core._selfcheck_fault) that makes
one target's first pass wrong at one stored input in every call, as a
miscompiled kernel would be.  The outcome is process state, so each scenario
runs in a fresh interpreter, which prints its results; the parent compares them
with MPFR (tests/oracle.py).  The cost is tested structurally (at most 512
inputs per pass, one check per pass and process, no allocation); the measured
time is in src/core/selfcheck.h."""
import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import gmpy2
import ml_dtypes
import numpy as np
import pytest

import crtrig
from crtrig import _core

import float64_inputs
import oracle

SLOTS = _core._supported_target_slots()
SIMD = [i for i, name in enumerate(SLOTS) if name is not None and i > 0]  # the checked targets here
NAMES = _core._known_simd_targets()
FORMATS = ("float16", "bfloat16", "float32", "float64")
DTYPES = {"float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16),
          "float32": np.dtype(np.float32), "float64": np.dtype(np.float64)}
UINTS = {"float16": np.uint16, "bfloat16": np.uint16, "float32": np.uint32, "float64": np.uint64}
PRECISION = {"float16": (11, -14), "bfloat16": (8, -126), "float32": (24, -126), "float64": (53, -1022)}
# The passes' large-reduction thresholds (the clean part of a list stays below them)
# and the smallest |x| they compute (below it the stages do).
CLEAN_RANGE = {"float16": (2.0 ** -13, 2.0 ** 24), "bfloat16": (2.0 ** -13, 2.0 ** 24),
               "float32": (2.0 ** -13, 2.0 ** 24), "float64": (2.0 ** -27, 2.0 ** 17)}
TRIG_PASSES = [(func, fmt) for func in ("sin", "cos") for fmt in FORMATS]
#: sinpi and cospi: float32 and float64 passes (their 16-bit formats have none).
PI_PASSES = [(func, fmt) for func in ("sinpi", "cospi") for fmt in ("float32", "float64")]
#: tan and tanpi: float32 and float64 passes (tan_pass.h), on sin's stored inputs.
TAN_PASSES = [(func, fmt) for func in ("tan", "tanpi") for fmt in ("float32", "float64")]
NPASSES = len(TRIG_PASSES) + len(FORMATS) + len(PI_PASSES) + len(TAN_PASSES)
FUNC_CODES = {"sin": 0, "cos": 1, "sinpi": 2, "cospi": 3, "tan": 4, "tanpi": 5}


def lower_target(target):
    """The target a pass of `target` falls back to: the next supported one down."""
    return max(i for i in range(target) if SLOTS[i] is not None)


def inputs_of(func, fmt):
    bits, clean = _core.selfcheck_inputs(_core.selfcheck_pass(func, fmt))
    return bits.view(DTYPES[fmt]), clean


def hardness(func, x, fmt):
    """Identical bits after the round bit of the exact func(x) in fmt (MPFR)."""
    precision, emin = PRECISION[fmt]
    with gmpy2.context(precision=256, emin=-100000, emax=100000):
        y = abs(gmpy2.sin(gmpy2.mpfr(x)) if func == "sin" else gmpy2.cos(gmpy2.mpfr(x)))
        if y == 0:
            return 0
        quantum = max(gmpy2.get_exp(y) - 1, emin) - (precision - 1)
        scaled = gmpy2.mul_2exp(y, -quantum)
        d = abs(scaled - gmpy2.floor(scaled) - gmpy2.mpfr(0.5))
    return 999 if d == 0 else max(0, math.floor(-math.log2(float(d))) - 1)


def same_bits(got, want):
    """Bit-identical, any NaN matching any NaN."""
    got, want = np.asarray(got), np.asarray(want)
    with np.errstate(invalid="ignore"):
        nan_got, nan_want = np.isnan(got.astype(np.float64)), np.isnan(want.astype(np.float64))
    u = UINTS[oracle.format_name(got.dtype)]
    return bool(np.all((nan_got == nan_want) & (nan_want | (got.view(u) == want.view(u)))))


PRELUDE = textwrap.dedent("""
    import json, sys, threading, warnings
    import numpy as np, ml_dtypes
    import crtrig
    from crtrig import _core
    DTYPES = {"float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16),
              "float32": np.dtype(np.float32), "float64": np.dtype(np.float64)}
    FUNCS = {"sin": crtrig.sin, "cos": crtrig.cos, "sinpi": crtrig.sinpi, "cospi": crtrig.cospi,
             "tan": crtrig.tan, "tanpi": crtrig.tanpi}
    NPASSES = len(_core.SELFCHECK_PASSES)
    def stored(func, fmt):
        bits, clean = _core.selfcheck_inputs(_core.selfcheck_pass(func, fmt))
        return bits.view(DTYPES[fmt])
    def hexbytes(a):
        return np.ascontiguousarray(a).tobytes().hex()
    def selfcheck_warnings(caught):
        return [str(w.message) for w in caught if "self-check" in str(w.message)]
""")


def run_child(body, target=None, timeout=300):
    """PRELUDE + body in a fresh interpreter (CRTRIG_TARGET=target, or unset);
    returns the JSON it prints last."""
    env = {k: v for k, v in os.environ.items() if k != "CRTRIG_TARGET"}
    if target is not None:
        env["CRTRIG_TARGET"] = target
    package_root = str(Path(_core.__file__).resolve().parents[1])  # the crtrig this process imported
    env["PYTHONPATH"] = os.pathsep.join([package_root] + [p for p in [env.get("PYTHONPATH")] if p])
    proc = subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(body)], capture_output=True,
                          text=True, timeout=timeout, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def from_hex(text, fmt):
    return np.frombuffer(bytes.fromhex(text), dtype=DTYPES[fmt])


# ---------------------------------------------------------------------------
# The stored inputs: bounded, hard, and covering the cases
# ---------------------------------------------------------------------------

def test_the_passes_and_their_bounded_inputs():
    """20 passes; each check compares at most 512 stored inputs (the cost bound),
    and a few hundred in fact.  sinpi and cospi use the inputs of sin and cos, tan
    and tanpi those of sin."""
    assert _core.SELFCHECK_PASSES == tuple(TRIG_PASSES + [("window", fmt) for fmt in FORMATS] + PI_PASSES
                                           + TAN_PASSES)
    for func, fmt in PI_PASSES + TAN_PASSES:
        base = "sin" if func.startswith("tan") else func[:3]
        assert np.array_equal(inputs_of(func, fmt)[0].view(UINTS[fmt]), inputs_of(base, fmt)[0].view(UINTS[fmt]))
    for p, (func, fmt) in enumerate(_core.SELFCHECK_PASSES):
        count = _core._selfcheck_input_count(p)
        assert 200 <= count <= 512, (func, fmt, count)
        if func != "window":
            bits, clean = _core.selfcheck_inputs(p)
            assert len(bits) == count and bits.dtype == UINTS[fmt] and len(set(bits.tolist())) == count
            assert 100 <= clean <= 256  # the first call of the array kernel: one chunk
    ranges = _core.selfcheck_inputs(_core.selfcheck_pass("window", "float32"))
    assert sum(r[4] for r in ranges) == _core._selfcheck_input_count(8)
    for window, alpha, D, r0, count, step in ranges:
        assert 1 <= count <= 64 and 1 <= D <= 2 ** 52 and 2 * (r0 + count - 1) <= D
        assert step + (count - 1) // step + 2 <= 80  # the check's table memory (window.c)


@pytest.mark.parametrize("func,fmt", TRIG_PASSES)
def test_stored_sin_cos_inputs_cover_the_hard_cases(func, fmt):
    """The clean part: ordinary finite inputs in the passes' fast range; the rest:
    infinities, NaNs (a signalling one), both zeros, subnormals, the largest value,
    inputs at and above the large-reduction threshold and below the tiny one; both
    parts hold inputs hard to round (MPFR) and values nearest to multiples of pi/2."""
    x, clean = inputs_of(func, fmt)
    with np.errstate(invalid="ignore"):
        v = x.astype(np.float64)
    lo, hi = CLEAN_RANGE[fmt]
    assert np.all(np.isfinite(v[:clean])) and np.all((np.abs(v[:clean]) >= lo) & (np.abs(v[:clean]) < hi))
    rest = v[clean:]
    assert np.isposinf(rest).any() and np.isneginf(rest).any() and np.isnan(rest).sum() >= 3
    bits = x.view(UINTS[fmt]).astype(np.uint64)
    quiet = np.uint64(1) << np.uint64({"float16": 9, "bfloat16": 6, "float32": 22, "float64": 51}[fmt])
    assert (np.isnan(v) & ((bits & quiet) == 0)).any(), "a signalling NaN"
    assert (v == 0).sum() == 2 and np.signbit(v[v == 0]).sum() == 1
    precision, emin = PRECISION[fmt]
    subnormal = (v != 0) & (np.abs(v) < 2.0 ** emin)
    assert subnormal.sum() >= 4
    largest = float(np.finfo(DTYPES[fmt]).max) if fmt != "bfloat16" else float(ml_dtypes.finfo(ml_dtypes.bfloat16).max)
    assert largest in v and -largest in v
    if fmt != "float16":  # float16 ends below 2^24
        assert (np.abs(rest[np.isfinite(rest)]) >= hi).sum() >= 8, "the large reduction"
    assert ((np.abs(rest) < lo) & (rest != 0)).sum() >= 4
    finite = [float(t) for t in v if math.isfinite(t) and t != 0]
    k = [hardness(func, t, fmt) for t in finite]
    assert sum(1 for h in k if h >= 8) >= 50, "inputs near rounding midpoints"
    assert max(k) >= {"float16": 14, "bfloat16": 14, "float32": 24, "float64": 43}[fmt]
    assert sorted(k[:clean])[-10] >= 8, "hard inputs in the fast path too"
    half_pi = 0
    for t in finite:
        if abs(t) >= 1:
            with gmpy2.context(precision=3000, emin=-100000, emax=100000):
                q = gmpy2.mpfr(t) / (gmpy2.const_pi() / 2)
                r = abs(q - gmpy2.rint(q)) * gmpy2.const_pi() / 2
            if r < abs(t) * 2.0 ** (-precision - 2):  # |x - k pi/2| far below an ulp of x
                half_pi += 1
    assert half_pi >= 12, "values nearest to multiples of pi/2"


def test_the_float64_lists_hold_the_published_worst_cases_double_double_decides():
    """The hardest float64 inputs are CORE-MATH's worst cases with 43 or 44 identical
    bits, as hard as the double-double stage decides; harder ones (they would need
    the multi-precision stage, which allocates) are left out."""
    for func in ("sin", "cos"):
        x, _ = inputs_of(func, "float64")
        worst = set(float64_inputs.worst_cases(func))
        k = [hardness(func, t, "float64") for t in x.tolist() if t in worst]
        assert sum(1 for h in k if 43 <= h <= 44) >= 16 and max(k) <= 44


@pytest.mark.parametrize("func,fmt", TRIG_PASSES)
def test_no_stored_input_reaches_the_multi_precision_stage(func, fmt):
    """The scalar path decides every stored input before the multi-precision stage
    (so the check allocates no workspace), and so does every target's full path."""
    x, _ = inputs_of(func, fmt)
    with np.errstate(invalid="ignore"):
        v = x.astype(np.float64)
    _, stages, counts, _ = _core.trig_elements(("sin", "cos").index(func), FORMATS.index(fmt), v, 0)
    assert counts["multi-precision"] == 0
    for target in [0] + SIMD:
        _, counts = _core.trig_strided(target, ("sin", "cos").index(func), x)
        assert counts["multi-precision"] == 0


def test_stored_window_inputs_cover_the_hard_cases():
    """Every window kind, general Hamming windows that change sign and one with an
    exact midpoint, every exact point, D = 2^52, the phases of D near 2^20 nearest to
    a midpoint of each narrow format (MPFR), ordinary runs; the scalar path needs
    the multi-precision stage only at exact points (their rounding from a fraction)."""
    ranges = _core.selfcheck_inputs(_core.selfcheck_pass("window", "float32"))
    kinds = {(w, a) for w, a, *_ in ranges}
    assert {("hann", None), ("hamming", None), ("blackman", None), ("general_hamming", (27, 50)),
            ("general_hamming", (3, 10)), ("general_hamming", ((1 << 24) + 1, 1 << 25))} <= kinds
    assert {w for w, a, D, r0, c, s in ranges if D == 2 ** 52} == {"hann", "hamming", "blackman", "general_hamming"}
    assert {w for w, a, D, r0, c, s in ranges if D == 12 and r0 == 0 and c == 7} >= {"hann", "hamming", "blackman"}
    codes = {"hann": 0, "hamming": 1, "blackman": 2, "general_hamming": 3}
    near = {fmt: 0 for fmt in ("float16", "bfloat16", "float32")}
    for window, alpha, D, r0, count, step in ranges:
        for r in range(r0, r0 + count):
            for f, fmt in enumerate(FORMATS):
                _, counts = _core.window_element(codes[window], r, D, f, 0, 0, alpha)
                assert counts["multi-precision"] == 0 or counts["exact"] == 1, (window, alpha, D, r)
            if 2 ** 19 < D < 2 ** 21 and window != "general_hamming":
                exact = oracle.window_value(window, r, D, "float64")  # close enough to rank
                for fmt in near:
                    precision, emin = PRECISION[fmt]
                    e = math.floor(math.log2(exact))
                    t = exact / 2.0 ** (max(e, emin) - precision + 1)
                    near[fmt] += abs(t - math.floor(t) - 0.5) < 2.0 ** -14
    assert all(n >= 4 for n in near.values()), near


# ---------------------------------------------------------------------------
# Once per pass and process, at first use; nothing checked where nothing can fall back
# ---------------------------------------------------------------------------

@pytest.mark.skipif(not SIMD, reason="only the baseline here: nothing to check")
def test_the_check_runs_once_per_pass_at_its_first_use():
    """No check at import; the first normal call of a pass runs its check, later
    calls (any size, strides, out=, threads) do not, nor do calls that name a target;
    show_config() runs the ones left, once each."""
    result = run_child("""
        runs = lambda: [_core._selfcheck_runs(p) for p in range(NPASSES)]
        at_import = runs()
        x = np.linspace(-10, 10, 70000).astype(np.float32)
        _core.trig_with_target(0, 0, x)          # a named target: unchecked
        _core.fill_window(0, 1000, True, 2, np.empty(1000, np.float32), 0, 0, 0)
        named = runs()
        for _ in range(5):
            crtrig.sin(x); crtrig.sin(x[::3]); crtrig.sin(x[:7], out=np.empty(7, np.float32))
        crtrig.hann_window(4096, dtype="uint8"); crtrig.hamming_window(10)
        used = runs()
        crtrig.show_config(file=open("/dev/null", "w"))
        crtrig.show_config(file=open("/dev/null", "w"))
        crtrig.cos(np.ones(3)); crtrig.blackman_window(77, dtype=np.float64)
        print(json.dumps({"at_import": at_import, "named": named, "used": used, "all": runs(),
                          "status": [e["status"] for e in _core.selfcheck_report()]}))
    """)
    assert result["at_import"] == [0] * NPASSES and result["named"] == [0] * NPASSES
    sin32, win32 = _core.selfcheck_pass("sin", "float32"), _core.selfcheck_pass("window", "float32")
    assert result["used"] == [1 if p in (sin32, win32) else 0 for p in range(NPASSES)]
    assert result["all"] == [1] * NPASSES and result["status"] == ["checked"] * NPASSES


def test_the_baseline_is_the_reference_and_never_checked():
    result = run_child("""
        crtrig.sin(np.float32([1, 2])); crtrig.hann_window(8); crtrig.show_config(file=open("/dev/null", "w"))
        print(json.dumps({"runs": [_core._selfcheck_runs(p) for p in range(NPASSES)],
                          "report": _core.selfcheck_report(), "rerun": _core._selfcheck_rerun(3)}))
    """, target="baseline")
    assert result["runs"] == [0] * NPASSES and result["rerun"] == "baseline"
    assert all(e["status"] == "reference" and e["target"] == "baseline" and not e["tried"]
               for e in result["report"])


@pytest.mark.parametrize("target", SIMD, ids=[NAMES[i] for i in SIMD])
def test_every_pass_of_every_simd_target_here_passes(target):
    """The real kernels of each SIMD target this CPU supports (avx512 included where
    the CPU has it) pass the check of every pass, and keep their target."""
    result = run_child("""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            report = _core.selfcheck_run_all()
        print(json.dumps({"report": report, "warnings": selfcheck_warnings(caught),
                          "reruns": [_core._selfcheck_rerun(p) for p in range(NPASSES)]}))
    """, target=NAMES[target])
    assert result["warnings"] == []
    for entry in result["report"]:
        assert entry["status"] == "checked" and entry["active"] == entry["target"] == NAMES[target]
        assert entry["tried"] == [{"target": NAMES[target], "passed": True, "mismatches": 0}]
    assert result["reruns"] == [NAMES[target]] * NPASSES


# ---------------------------------------------------------------------------
# A broken kernel: caught, warned about, replaced by the next target down
# ---------------------------------------------------------------------------

BROKEN_TRIG = [("sin", "float32", 7), ("cos", "float64", 3), ("sin", "float16", 11), ("cos", "bfloat16", 300),
               ("sin", "float64", 200), ("sinpi", "float32", 8), ("cospi", "float64", 5),
               ("tan", "float32", 7), ("tan", "float64", 200), ("tanpi", "float32", 9), ("tanpi", "float64", 6)]


@pytest.mark.parametrize("target", SIMD, ids=[NAMES[i] for i in SIMD])
@pytest.mark.parametrize("func,fmt,index", BROKEN_TRIG, ids=[f"{f}-{t}-{i}" for f, t, i in BROKEN_TRIG])
def test_a_broken_sin_cos_kernel_is_replaced_by_the_next_target_down(func, fmt, index, target):
    """The hook makes `target`'s first pass wrong at one stored input in every call.
    The first normal call warns once (naming the target, the function, the format
    and the input), and it and every later call give MPFR's results; the broken
    kernel is still there (a call naming the target shows it), and show_config()
    reports the failure and the replacement."""
    lower = lower_target(target)
    result = run_child(f"""
        x = stored("{func}", "{fmt}")
        p = _core.selfcheck_pass("{func}", "{fmt}")
        _core._selfcheck_fault({target}, p, {index})
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with np.errstate(invalid="ignore"):
                first = FUNCS["{func}"](x)
                again = FUNCS["{func}"](np.tile(x, 300))[:len(x)]   # a large call, on the pool
                named = _core.trig_with_target({target}, {FUNC_CODES[func]}, x)
            config = []
            crtrig.show_config(file=type("F", (), {{"write": lambda self, s: config.append(s)}})())
        print(json.dumps({{"first": hexbytes(first), "again": hexbytes(again), "named": hexbytes(named),
                          "warnings": selfcheck_warnings(caught), "report": _core.selfcheck_report()[p],
                          "config": "".join(config), "runs": _core._selfcheck_runs(p)}}))
    """, target=NAMES[target])
    x, _ = inputs_of(func, fmt)
    want = (oracle.trig(func, x) if func in ("sin", "cos") else oracle.tan_family(func, x)
            if func.startswith("tan") else oracle.trigpi(func, x))
    assert same_bits(from_hex(result["first"], fmt), want)
    assert same_bits(from_hex(result["again"], fmt), want)
    named = from_hex(result["named"], fmt)
    u = UINTS[fmt]
    assert int(named.view(u)[index]) == int(want.view(u)[index]) ^ 1  # the broken kernel, as armed
    assert same_bits(np.delete(named, index), np.delete(want, index))
    value = float(x[index])
    text = (f"crtrig: the {NAMES[target]} kernels failed their self-check: {func} of the {fmt} input "
            f"{_core._short_hex(value)} (bits 0x{int(x.view(u)[index]):0{x.itemsize * 2}x}) gave "
            f"0x{int(want.view(u)[index]) ^ 1:0{x.itemsize * 2}x}, the scalar path "
            f"0x{int(want.view(u)[index]):0{x.itemsize * 2}x} (1 of {len(x)} stored inputs differ); "
            f"{func} of {fmt} uses {NAMES[lower]} in this process (see crtrig.show_config())")
    assert result["warnings"] == [text]
    report = result["report"]
    assert report["status"] == "checked" and report["active"] == NAMES[target] and report["target"] == NAMES[lower]
    assert report["tried"][0] == {"target": NAMES[target], "passed": False, "mismatches": 1, "index": index,
                                  "got": int(want.view(u)[index]) ^ 1, "want": int(want.view(u)[index]),
                                  "input": int(x.view(u)[index]), "value": value}
    assert report["tried"][1:] == ([{"target": NAMES[lower], "passed": True, "mismatches": 0}] if lower else [])
    assert f"    {func} {fmt}: {NAMES[target]} FAILED ({func} of the {fmt} input" in result["config"]
    assert f"stored inputs; uses {NAMES[lower]}\n" in result["config"]
    assert result["runs"] == 1


def _window_fault_index(window, D, r, ranges):
    """The stored phase index of (window, D, r) and its range's position."""
    index = 0
    for k, (w, alpha, d, r0, count, step) in enumerate(ranges):
        if (w, alpha, d) == (window, None, D) and r0 <= r < r0 + count:
            return index + r - r0, k
        index += count
    raise AssertionError("not stored")


BROKEN_WINDOWS = [("float32", "hann", 1000, 5), ("float64", "blackman", 1001, 440),
                  ("bfloat16", "hann", 1000, 17), ("float16", "hamming", 4097, 1003)]


@pytest.mark.parametrize("target", SIMD, ids=[NAMES[i] for i in SIMD])
@pytest.mark.parametrize("fmt,window,D,r", BROKEN_WINDOWS, ids=[f"{f}-{w}" for f, w, _, _ in BROKEN_WINDOWS])
def test_a_broken_window_kernel_is_replaced_by_the_next_target_down(fmt, window, D, r, target):
    """The same for the window pass of a format: the first fill warns once and every
    fill is exact (float32: the integer dtypes, casts of float32, too); a fill naming
    the broken target is wrong at n = r and n = D - r (the pass's mirrored store)."""
    lower = lower_target(target)
    ranges = _core.selfcheck_inputs(_core.selfcheck_pass("window", fmt))
    index, k = _window_fault_index(window, D, r, ranges)
    code = FORMATS.index(fmt)
    result = run_child(f"""
        p = _core.selfcheck_pass("window", "{fmt}")
        _core._selfcheck_fault({target}, p, {index})
        make = {{"hann": crtrig.hann_window, "hamming": crtrig.hamming_window,
                 "blackman": crtrig.blackman_window}}["{window}"]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            first = make({D}, dtype="{fmt}")
            again = make({D}, dtype="{fmt}")
            ints = make({D}, dtype="int16")
            named = np.empty({D}, DTYPES["{fmt}"])
            _core.fill_window({["hann", "hamming", "blackman"].index(window)}, {D}, True, {code}, named, 0, 0,
                              {target})
        print(json.dumps({{"first": hexbytes(first), "again": hexbytes(again), "ints": hexbytes(ints),
                          "named": hexbytes(named), "warnings": selfcheck_warnings(caught),
                          "report": _core.selfcheck_report()[p]}}))
    """, target=NAMES[target])
    want = oracle.window(window, D, True, fmt)
    assert same_bits(from_hex(result["first"], fmt), want)
    assert same_bits(from_hex(result["again"], fmt), want)
    if fmt == "float32":
        ints = np.frombuffer(bytes.fromhex(result["ints"]), np.int16)
        assert np.array_equal(ints, want.astype(np.float32).astype(np.int32).astype(np.int16))
    named = from_hex(result["named"], fmt)
    u = UINTS[fmt]
    for n in (r, D - r):
        assert int(named.view(u)[n]) == int(want.view(u)[n]) ^ 1
    assert same_bits(np.delete(named, [r, D - r]), np.delete(want, [r, D - r]))
    width = 2 * np.dtype(u).itemsize
    got, exact = int(want.view(u)[r]) ^ 1, int(want.view(u)[r])
    ints = " (and the integer ones, casts of float32's)" if fmt == "float32" else ""
    phases = _core._selfcheck_input_count(_core.selfcheck_pass("window", fmt))
    assert result["warnings"] == [
        f"crtrig: the {NAMES[target]} kernels failed their self-check: the {fmt} {window} window with "
        f"D = {D} at n = {r} gave 0x{got:0{width}x}, the scalar path 0x{exact:0{width}x} (1 of {phases} "
        f"stored phases differ); {fmt} windows{ints} use {NAMES[lower]} in this process (see "
        f"crtrig.show_config())"]
    report = result["report"]
    assert report["target"] == NAMES[lower] and report["tried"][0]["n"] == r and report["tried"][0]["D"] == D


@pytest.mark.skipif(len(SIMD) < 2, reason="needs two SIMD targets")
def test_two_broken_targets_fall_back_to_the_baseline():
    """avx512 and avx2 both broken for a pass: two warnings, the baseline computes it;
    the other passes keep the active target."""
    result = run_child("""
        p = _core.selfcheck_pass("cos", "float32")
        _core._selfcheck_fault(2, p, 20)
        _core._selfcheck_fault(1, p, 40)
        x = stored("cos", "float32")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with np.errstate(invalid="ignore"):
                y = crtrig.cos(x)
            crtrig.sin(x[:4])
        print(json.dumps({"y": hexbytes(y), "warnings": selfcheck_warnings(caught),
                          "report": _core.selfcheck_report()}))
    """, target="avx512")
    x, _ = inputs_of("cos", "float32")
    assert same_bits(from_hex(result["y"], "float32"), oracle.trig("cos", x))
    assert [w.split(":")[1] for w in result["warnings"]] == [" the avx512 kernels failed their self-check",
                                                             " the avx2 kernels failed their self-check"]
    assert all(w.endswith("cos of float32 uses baseline in this process (see crtrig.show_config())")
               for w in result["warnings"])
    by_pass = {(e["function"], e["format"]): e for e in result["report"]}
    cos32 = by_pass[("cos", "float32")]
    assert cos32["target"] == "baseline" and [t["index"] for t in cos32["tried"]] == [20, 40]
    assert by_pass[("sin", "float32")]["target"] == "avx512"
    assert by_pass[("sin", "float32")]["tried"][0]["passed"]


@pytest.mark.skipif(not SIMD, reason="only the baseline here: nothing to check")
def test_a_warning_turned_into_an_error_is_raised_once_and_the_call_after_it_is_exact():
    target = SIMD[-1]
    result = run_child(f"""
        p = _core.selfcheck_pass("sin", "float64")
        _core._selfcheck_fault({target}, p, 9)
        warnings.filterwarnings("error", message="crtrig: the .* kernels failed")
        x = stored("sin", "float64")
        try:
            with np.errstate(invalid="ignore"):
                crtrig.sin(x)
            raised = None
        except RuntimeWarning as error:
            raised = str(error)
        with np.errstate(invalid="ignore"):
            y = crtrig.sin(x)
        try:
            crtrig.hann_window(10, dtype=np.float64)  # another pass, which passes
            _core._selfcheck_fault({target}, _core.selfcheck_pass("window", "float16"), 0)
            crtrig.hann_window(10, dtype=np.float16)
            window_raised = None
        except RuntimeWarning as error:
            window_raised = str(error)
        print(json.dumps({{"raised": raised, "y": hexbytes(y), "window": window_raised}}))
    """, target=NAMES[target])
    assert result["raised"].startswith(f"crtrig: the {NAMES[target]} kernels failed their self-check: sin of "
                                       "the float64 input")
    x, _ = inputs_of("sin", "float64")
    assert same_bits(from_hex(result["y"], "float64"), oracle.trig("sin", x))
    assert result["window"].startswith(f"crtrig: the {NAMES[target]} kernels failed their self-check: the "
                                       "float16 hann window with D = 2 at n = 0")


@pytest.mark.skipif(not SIMD, reason="only the baseline here: nothing to check")
def test_many_threads_at_the_first_use_of_a_broken_pass():
    """16 threads released together make the first call of a broken pass: each runs
    the check or finds it done, all get exact results, and one warning is raised."""
    target = SIMD[-1]
    result = run_child(f"""
        p = _core.selfcheck_pass("sin", "float32")
        _core._selfcheck_fault({target}, p, 2)
        x = np.tile(stored("sin", "float32"), 8)
        barrier = threading.Barrier(16)
        outputs = [None] * 16
        def work(i):
            barrier.wait()
            with np.errstate(invalid="ignore"):
                outputs[i] = crtrig.sin(x)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
            for t in threads: t.start()
            for t in threads: t.join()
        print(json.dumps({{"outputs": [hexbytes(o) for o in outputs], "warnings": selfcheck_warnings(caught),
                          "runs": _core._selfcheck_runs(p), "target": _core.selfcheck_report()[p]["target"]}}))
    """, target=NAMES[target])
    x, _ = inputs_of("sin", "float32")
    want = np.tile(oracle.trig("sin", x), 8)
    assert all(same_bits(from_hex(o, "float32"), want) for o in result["outputs"])
    assert len(result["warnings"]) == 1
    assert 1 <= result["runs"] <= 16 and result["target"] == NAMES[lower_target(target)]


def test_the_fault_hook_refuses_what_it_cannot_do():
    past_last = _core._selfcheck_input_count(2)  # sin float32's stored inputs: indices 0 .. count - 1
    assert past_last > 0
    for args in [(0, 2, 0), (3, 2, 0), (1, NPASSES, 0), (1, -1, 0), (1, 2, past_last), (1, 2, 10_000)]:
        with pytest.raises(ValueError):
            _core._selfcheck_fault(*args)
    _core._selfcheck_fault(1, 2, -1)  # repairs (nothing armed)
    assert _core._selfcheck_runs(NPASSES) == -1 and _core._selfcheck_input_count(NPASSES) == 0


# ---------------------------------------------------------------------------
# The check allocates nothing
# ---------------------------------------------------------------------------

@pytest.mark.skipif(not SIMD, reason="only the baseline here: nothing to check")
def test_the_check_allocates_nothing():
    """A check run (sin/cos: in a call of its own; the windows: inside the first
    fill, which allocates its workspace and table and nothing more) makes no
    allocation, so the allocation tests' counts hold at a first use too."""
    result = run_child("""
        counts = []
        for p in range(8):
            _core.fail_allocation(1)
            _core._selfcheck_rerun(p)
            counts.append(_core.fail_allocation(0))
        fills = []
        for dtype in ("float16", "bfloat16", "float32", "float64", "uint8"):
            _core.fail_allocation(100)
            crtrig.hann_window(300, dtype=dtype)   # the first fill of the format: its check runs
            first = 100 - _core.fail_allocation(0)
            _core.fail_allocation(100)
            crtrig.hann_window(300, dtype=dtype)
            fills.append((first, 100 - _core.fail_allocation(0)))
        print(json.dumps({"counts": counts, "fills": fills,
                          "runs": [_core._selfcheck_runs(p) for p in range(8, 12)]}))
    """)
    assert result["counts"] == [1] * 8
    assert result["fills"] == [[2, 2]] * 5  # the workspace and the table
    assert result["runs"] == [1, 1, 1, 1]


# ---------------------------------------------------------------------------
# show_config()
# ---------------------------------------------------------------------------

def test_show_config_reports_every_pass():
    lines = crtrig._config.selfcheck_lines()
    if not SIMD or crtrig.simd_target() == "baseline":
        assert lines == [f"  self-check: none needed (the active target, {crtrig.simd_target()}, is the "
                         "reference)"]
        return
    assert lines[0] == ("  self-check of the first passes against the scalar path (once per process, at "
                        "first use):")
    for line, (func, fmt) in zip(lines[1:], _core.SELFCHECK_PASSES, strict=True):
        count = _core._selfcheck_input_count(_core.selfcheck_pass(func, fmt))
        what = "phases" if func == "window" else "inputs"
        assert line == f"    {func} {fmt}: {crtrig.simd_target()} passed on {count} stored {what}"


@pytest.mark.slow
def test_the_stored_inputs_are_what_the_generator_makes():
    """src/core/selfcheck_inputs.h is tools/gen_selfcheck_inputs.py's output, byte for
    byte (the generator is deterministic: fixed seeds, MPFR rankings; about a minute)."""
    root = Path(__file__).resolve().parents[1]
    header = root / "src" / "core" / "selfcheck_inputs.h"
    if not header.exists():
        pytest.skip("no source tree here")
    run = subprocess.run([sys.executable, str(root / "tools" / "gen_selfcheck_inputs.py")], capture_output=True,
                         text=True, timeout=1200)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout == header.read_text(encoding="ascii")
