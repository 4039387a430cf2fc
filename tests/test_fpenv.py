"""Results do not depend on the caller's floating-point environment.

Each test runs ONE call of the C core (a sin/cos array call through a given
SIMD target, or a window fill) under a rounding mode, flush-to-zero (FTZ) and
denormals-are-zero (DAZ) setting, through the test hook in crtrig._core: the
hook sets the state in C, reads it back right before and right after the call,
and restores the test process's own state before it returns (Python itself
never runs under the requested mode).  Every result must be bit-identical to
the round-to-nearest result (proven correct by test_sincos.py and
test_window.py), the state after the call must equal the state before it, and
FE_INVALID must be raised exactly when an input was +-inf.
"""
import math

import ml_dtypes
import numpy as np
import pytest

import crtrig
from crtrig import _core, reference

FUNCS = {"sin": 0, "cos": 1}
DTYPES = {"float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16),
          "float32": np.dtype(np.float32)}
UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64, 1: np.uint8}
TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]
TARGET_IDS = [_core._supported_target_slots()[i] for i in TARGETS]
MODES = _core.ROUNDING_MODES
# Where the platform has FTZ/DAZ controls (x86-64 MXCSR, aarch64 FPCR: every CI
# platform), every combination; elsewhere they cannot be set.
SWITCHES = ([(False, False), (True, False), (False, True), (True, True)]
            if _core.FPENV_METHOD in ("mxcsr", "fpcr") else [(False, False)])
ENVIRONMENTS = [(mode, ftz, daz) for mode in MODES for ftz, daz in SWITCHES]
# The register bit of the invalid flag (MXCSR.IE, FPSR.IOC).
INVALID_BIT = 1 if _core.FPENV_METHOD in ("mxcsr", "fpcr") else 0

HARD_FLOAT32 = [float.fromhex(h) for h in (
    "0x1.33333p+13", "0x1.d4a60ap+3", "0x1.921fb6p+0", "0x1.921fb6p+1", "0x1.921fb6p+2", "0x1.2d97c8p+3",
    "0x1.fffffep+127", "0x1p-149", "0x1p-126", "0x1.fffffcp-127", "0x1.6a09e6p-1", "0x1p+24",
    "0x1.000002p+24", "0x1.fffffep+23", "0x1.3170fp+63", "0x1.2b9622p+67", "0x1.2d97c8p+2")] + [1e-8, 3e-4, 1e-45]


def bits(a):
    return np.ascontiguousarray(a).view(UINT[a.dtype.itemsize])


def float32_inputs():
    """About 10^5 float32 inputs: random bit patterns, [-pi, pi], subnormals of
    both signs, and the hard cases of tests/test_sincos.py; +-inf excluded."""
    rng = np.random.default_rng(2024)
    patterns = rng.integers(0, 1 << 32, 60000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    uniform = rng.uniform(-math.pi, math.pi, 20000).astype(np.float32)
    subnormal = (rng.integers(1, 1 << 23, 20000, dtype=np.uint32)
                 | (rng.integers(0, 2, 20000, dtype=np.uint32) << 31)).view(np.float32)
    hard = np.array(HARD_FLOAT32 + [-v for v in HARD_FLOAT32], dtype=np.float32)
    x = np.concatenate([patterns, uniform, subnormal, hard])
    return x[~np.isinf(x)]


_INPUTS = {}


def inputs(dtype):
    """(finite and NaN inputs, the same with +-inf mixed in): every 16-bit pattern,
    or the float32 sample."""
    if dtype not in _INPUTS:
        if dtype == "float32":
            finite = float32_inputs()
        else:
            everything = np.arange(1 << 16, dtype=np.uint16).view(DTYPES[dtype])
            finite = everything[~np.isinf(everything.astype(np.float32))]
        with_inf = np.concatenate([finite[:1000], np.array([np.inf, -np.inf], np.float32).astype(finite.dtype),
                                   finite[1000:3000]])
        _INPUTS[dtype] = finite, with_inf
    return _INPUTS[dtype]


def assert_switches_applied(before, mode, ftz, daz):
    """The state read right before the call is the one requested."""
    assert before["rounding"] == mode
    if _core.FPENV_METHOD == "fpcr":  # one bit, FPCR.FZ, does both
        assert before["ftz"] == before["daz"] == (ftz or daz)
    else:
        assert (before["ftz"], before["daz"]) == (ftz, daz)


def assert_restored(before, after, invalid):
    """The call left the state as it found it, plus FE_INVALID exactly when asked."""
    for key in ("rounding", "ftz", "daz", "control"):
        assert after[key] == before[key], (key, before, after)
    if invalid:
        assert after["flags"] == before["flags"] | {"invalid"}, (before, after)
        assert after["status"] == before["status"] | INVALID_BIT, (before, after)
    else:
        assert after["flags"] == before["flags"], (before, after)
        assert after["status"] == before["status"], (before, after)


@pytest.fixture(autouse=True)
def process_state_is_unchanged():
    """The test process runs in round to nearest without FTZ/DAZ, and the hooks
    give its state back (the controls; Python's own arithmetic may raise flags)."""
    state = _core.fp_state()
    assert state["rounding"] == "nearest" and not state["ftz"] and not state["daz"]
    yield
    after = _core.fp_state()
    assert {k: after[k] for k in ("rounding", "ftz", "daz", "control")} == \
           {k: state[k] for k in ("rounding", "ftz", "daz", "control")}


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("func", FUNCS)
def test_sin_cos_ignore_the_callers_environment(func, dtype, target):
    """All float16 and bfloat16 inputs, ~10^5 float32 ones, each rounding mode
    with FTZ and DAZ on and off: the round-to-nearest bits, the environment
    restored, and no flag (NaNs included; signalling ones too for the 16-bit
    formats)."""
    finite, with_inf = inputs(dtype)
    want = _core.trig_with_target(target, FUNCS[func], finite)
    with np.errstate(invalid="ignore"):
        want_inf = _core.trig_with_target(target, FUNCS[func], with_inf)
    for mode, ftz, daz in ENVIRONMENTS:
        got, before, after = _core.trig_under_fpenv(target, FUNCS[func], finite, mode, ftz, daz)
        assert_switches_applied(before, mode, ftz, daz)
        assert before["flags"] == frozenset()
        bad = np.nonzero(bits(got) != bits(want))[0]
        assert bad.size == 0, (f"{mode} ftz={ftz} daz={daz}: {bad.size} results differ, first "
                               f"x={finite[bad[0]]!r} got {got[bad[0]]!r} want {want[bad[0]]!r}")
        assert_restored(before, after, invalid=False)

        got, before, after = _core.trig_under_fpenv(target, FUNCS[func], with_inf, mode, ftz, daz)
        assert np.array_equal(bits(got), bits(want_inf)), (mode, ftz, daz)
        assert_restored(before, after, invalid=True)


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
def test_the_callers_flags_survive(target):
    """Flags the caller had raised before the call are still raised after it,
    and nothing else is (inexact results inside are not reported)."""
    x = inputs("float32")[0][:5000]
    for flags in [{"inexact"}, {"underflow", "overflow"}, {"divbyzero"}, {"invalid"}]:
        got, before, after = _core.trig_under_fpenv(target, 0, x, "upward", False, False, flags)
        assert before["flags"] == frozenset(flags)
        assert after == before
        got, before, after = _core.trig_under_fpenv(target, 0, np.float32([np.inf, 1e-45]), "downward",
                                                    False, False, flags)
        assert after["flags"] == frozenset(flags) | {"invalid"}


def test_the_defect_of_the_issue():
    """Before: sin(1e-45f) under FE_UPWARD gave -2.89e-15."""
    got, _, _ = _core.trig_under_fpenv(TARGETS[-1], 0, np.float32([1e-45, 1.0]), "upward")
    assert got.tolist() == crtrig.sin(np.float32([1e-45, 1.0])).tolist()
    assert got[0] == np.float32(1e-45)


WINDOW_DTYPES = ["float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "uint16",
                 "int32", "uint32", "int64", "uint64"]
WINDOW_FUNCS = {"hann": crtrig.hann_window, "hamming": crtrig.hamming_window,
                "blackman": crtrig.blackman_window}


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("dtype", WINDOW_DTYPES)
def test_windows_ignore_the_callers_environment(dtype, target):
    """Every kind, both modes, a few sizes: the round-to-nearest window (the
    public function's result, which test_window.py proves exact), and the
    environment restored without any flag (windows raise none)."""
    dt = reference.canonical_dtype(dtype)
    code = WINDOW_DTYPES.index(dtype)
    for kind, (name, fn) in enumerate(WINDOW_FUNCS.items()):
        for size in (1, 2, 7, 64, 1000):
            for periodic in (True, False):
                want = fn(size, periodic=periodic, dtype=dtype)
                for mode, ftz, daz in ENVIRONMENTS:
                    got, before, after = _core.window_under_fpenv(target, kind, size, periodic, code, dt,
                                                                  mode, ftz, daz)
                    assert_switches_applied(before, mode, ftz, daz)
                    assert np.array_equal(bits(got), bits(want)), (name, size, periodic, mode, ftz, daz)
                    assert_restored(before, after, invalid=False)


def test_small_windows_match_the_reference_on_every_target():
    """Anchor: the round-to-nearest fills of each target are the exact values."""
    for target in TARGETS:
        for dtype in ("float16", "bfloat16", "float32", "float64", "uint8"):
            for size in (2, 7, 64):
                got, _, _ = _core.window_under_fpenv(target, 2, size, False, WINDOW_DTYPES.index(dtype),
                                                     reference.canonical_dtype(dtype), "nearest")
                assert got.tobytes() == reference.window("blackman", size, False, dtype).tobytes()


def test_hook_refuses_what_it_cannot_set():
    with pytest.raises(ValueError):
        _core.trig_under_fpenv(TARGETS[0], 0, np.float32([1.0]), "sideways")
