"""crtrig.sin and crtrig.cos: correct rounding (against MPFR through tests/oracle.py)
and everything a NumPy user expects of a ufunc."""
from fractions import Fraction
import math
import pickle
import random
import re
import threading
import warnings
from pathlib import Path

import ml_dtypes
import mpmath
import numpy as np
import pytest

import crtrig
from crtrig import _core

import oracle

FUNCS = {"sin": crtrig.sin, "cos": crtrig.cos}
SMALL_DTYPES = {"float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16)}
FLOAT_DTYPES = {**SMALL_DTYPES, "float32": np.dtype(np.float32)}
DTYPE_CODE = {"float16": 0, "bfloat16": 1, "float32": 2}
TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]


def same_bits(got, want):
    """Bit-identical, except that any NaN matches any NaN."""
    assert got.dtype == want.dtype and got.shape == want.shape
    uint = np.dtype(f"u{got.dtype.itemsize}")
    with np.errstate(invalid="ignore"):
        nan_got = np.isnan(got.astype(np.float32))
        nan_want = np.isnan(want.astype(np.float32))
    bad = (nan_got != nan_want) | (~nan_want & (got.view(uint) != want.view(uint)))
    return np.nonzero(bad.reshape(-1))[0]


def all_patterns(dtype):
    return np.arange(1 << 16, dtype=np.uint16).view(dtype)


def float32_sample(count, seed):
    """Random bit patterns (every exponent equally likely) plus uniform [-pi, pi]."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 1 << 32, count, dtype=np.uint64).astype(np.uint32)
    uniform = rng.uniform(-math.pi, math.pi, count).astype(np.float32)
    return np.concatenate([bits.view(np.float32), uniform])


# Hard cases from the literature and from NOTES.md: rounding a correctly rounded
# double (or float32) result again gives the wrong answer for these.
def H(text):
    return float.fromhex(text)


HARD_FLOAT32 = {
    "sin": [H("0x1.33333p+13"), H("0x1.d4a60ap+3"), H("0x1.921fb6p+0"), H("0x1.921fb6p+1"), H("0x1.921fb6p+2"),
            H("0x1.2d97c8p+3"), H("0x1.fffffep+127"), H("0x1p-149"), H("0x1p-126"), H("0x1.fffffcp-127"), 1e-8,
            H("0x1.6a09e6p-1"), H("0x1p+24"), H("0x1.000002p+24"), H("0x1.fffffep+23")],
    "cos": [H("0x1.3170fp+63"), H("0x1.2b9622p+67"), H("0x1.921fb6p+0"), H("0x1.921fb6p+1"), H("0x1.2d97c8p+2"),
            H("0x1.fffffep+127"), H("0x1p-149"), H("0x1.6a09e6p-1"), H("0x1p+24"), H("0x1.000002p+24"), 3e-4],
}
HARD_FLOAT16 = {"sin": [0.2093505859375, 300.0], "cos": [0.0584716796875]}


@pytest.mark.slow
@pytest.mark.parametrize("dtype", SMALL_DTYPES)
@pytest.mark.parametrize("func", FUNCS)
def test_exhaustive_16_bit_formats(func, dtype):
    """Every one of the 65536 float16 / bfloat16 inputs, against MPFR."""
    x = all_patterns(SMALL_DTYPES[dtype])
    with np.errstate(invalid="ignore"):
        got = FUNCS[func](x)
    bad = same_bits(got, oracle.trig(func, x))
    assert bad.size == 0, f"{bad.size} wrong, first x={x[bad[0]]!r} got {got[bad[0]]!r}"


@pytest.mark.parametrize("func", FUNCS)
def test_float16_double_rounding_cases_and_subnormal_results(func):
    """Rounding a correctly rounded float32 into float16 is wrong for these."""
    for v in HARD_FLOAT16[func]:
        for x in (np.float16(v), np.float16(-v)):
            got = FUNCS[func](x)
            want = oracle.trig_value(func, float(x), "float16")
            assert float(got) == want and np.float16(FUNCS[func](np.float32(x))) != want, (func, x)
    if func == "sin":  # a subnormal float16 result
        got = float(crtrig.sin(np.float16(355.0)))
        assert 0 < abs(got) < 2 ** -14 and got == oracle.trig_value("sin", 355.0, "float16")


@pytest.mark.parametrize("func", FUNCS)
def test_float32_sample_and_hard_cases(func):
    x = np.concatenate([float32_sample(40000, seed=7 + (func == "cos")),
                        np.array(HARD_FLOAT32[func] + [-v for v in HARD_FLOAT32[func]], dtype=np.float32)])
    x = x[np.isfinite(x)]
    got = FUNCS[func](x)
    bad = same_bits(got, oracle.trig(func, x))
    assert bad.size == 0, f"{bad.size} wrong, first x={float(x[bad[0]]).hex()} got {got[bad[0]]!r}"


@pytest.mark.parametrize("func", FUNCS)
def test_one_element_calls_match_the_oracle(func):
    """A one-element float32 call takes the scalar stages instead of the array kernel
    (sincos_array.c, small_call): NumPy scalars, 0-d arrays and one-element views,
    hard cases, specials and a sample, each result against MPFR."""
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, H("0x1p-149"), -H("0x1p-149"), H("0x1.fffffep+127")]
    x = np.concatenate([float32_sample(1000, seed=23),
                        np.array(HARD_FLOAT32[func] + [-v for v in HARD_FLOAT32[func]] + specials,
                                 dtype=np.float32)])
    with np.errstate(invalid="ignore"):
        want = oracle.trig(func, x[np.isfinite(x)])
        scalars = np.array([FUNCS[func](np.float32(v)) for v in x], dtype=np.float32)
        zero_d = np.array([FUNCS[func](np.array(v, dtype=np.float32))[()] for v in x], dtype=np.float32)
        strided = np.repeat(x, 3)
        views = np.array([FUNCS[func](strided[3 * i:3 * i + 1])[0] for i in range(x.size)], dtype=np.float32)
        array = FUNCS[func](x)
    finite = np.isfinite(x)
    for got in (scalars, zero_d, views):
        assert same_bits(got, array).size == 0
        bad = same_bits(got[finite], want)
        assert bad.size == 0, f"x={float(x[finite][bad[0]]).hex()}"
    assert np.all(np.isnan(scalars[~finite & ~np.isnan(x)]))


_TARGET_INPUTS = {}


def target_inputs(func, dtype):
    """Inputs and MPFR results for the per-target tests (computed once): every
    16-bit pattern, or a float32 sample."""
    key = (func, dtype)
    if key not in _TARGET_INPUTS:
        if dtype == "float32":
            x = float32_sample(20000, seed=11)
        else:
            x = all_patterns(SMALL_DTYPES[dtype])
        _TARGET_INPUTS[key] = (x, oracle.trig(func, x))
    return _TARGET_INPUTS[key]


@pytest.mark.parametrize("target", TARGETS, ids=lambda i: _core._supported_target_slots()[i])
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("func", FUNCS)
def test_every_simd_target_matches_the_oracle(func, dtype, target):
    """The array kernels of each SIMD target this CPU supports (float16 and
    bfloat16 exhaustively)."""
    x, want = target_inputs(func, dtype)
    with np.errstate(invalid="ignore"):
        got = _core.trig_with_target(target, 0 if func == "sin" else 1, x)
    bad = same_bits(got, want)
    assert bad.size == 0, f"{bad.size} wrong, first x={x[bad[0]]!r}"


@pytest.mark.parametrize("stage", [0, 1, 2])
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("func", FUNCS)
def test_each_stage_forced(func, dtype, stage):
    """Starting the evaluation at each stage gives the correctly rounded value,
    and the forced stage is the one that decides."""
    rng = random.Random(f"{func}{dtype}{stage}")
    values = [float(np.float32(v)) for v in HARD_FLOAT32[func]]
    values += [float(v) for v in float32_sample(150, seed=rng.randrange(1 << 30))]
    dt = FLOAT_DTYPES[dtype]
    decided = 0
    for v in values:
        with np.errstate(over="ignore"):  # huge values become inf in float16: skipped
            x = np.array(v, dtype=np.float32).astype(dt)
        xv = float(x.astype(np.float32))
        if not math.isfinite(xv):
            continue
        got, counts = _core.trig_element(0 if func == "sin" else 1, DTYPE_CODE[dtype], xv, stage)
        want = oracle.trig_value(func, xv, dtype)
        assert got == want and math.copysign(1, got) == math.copysign(1, want), (func, dtype, xv)
        assert sum(counts[name] for name in _core.STAGES[:stage]) == 0
        decided += counts[_core.STAGES[stage]]
    assert decided > 0


@pytest.mark.parametrize("func", FUNCS)
def test_multi_precision_stage_grows(func):
    retries = 0
    for v in [H("0x1.33333p+13"), float(np.float32(1e30)), H("0x1p-149"), 2.5, H("0x1.921fb6p+0")]:
        got, counts = _core.trig_element(0 if func == "sin" else 1, 2, v, 2, 32)
        retries += counts["multi-precision retries"]
        assert got == oracle.trig_value(func, v, "float32")
    assert retries > 0


def test_first_pass_decides_nearly_everything():
    """Share of float32 inputs in [-pi, pi] that leave the first pass: near 2^-12."""
    x = np.random.default_rng(3).uniform(-math.pi, math.pi, 200000).astype(np.float32)
    undecided = 0
    for v in x[:20000]:
        _, counts = _core.trig_element(0, 2, float(v), 0)
        undecided += counts["double"] == 0
    assert undecided < 20  # 2^-12 of 20000 is 5


# ---------------------------------------------------------------------------
# Special values and floating-point flags
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_special_values(dtype):
    dt = FLOAT_DTYPES[dtype]
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype=np.float32).astype(dt)
    with np.errstate(invalid="ignore"):
        s, c = crtrig.sin(x), crtrig.cos(x)
    assert s.dtype == dt and c.dtype == dt
    s64, c64 = s.astype(np.float32).astype(np.float64), c.astype(np.float32).astype(np.float64)
    assert s64[0] == 0 and not np.signbit(s64[0]) and s64[1] == 0 and np.signbit(s64[1])
    assert c64[0] == 1 and c64[1] == 1
    assert np.isnan(s64[2:]).all() and np.isnan(c64[2:]).all()


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("func", FUNCS)
def test_infinity_raises_invalid_like_numpy(func, dtype):
    x = np.array([1.0, np.inf], dtype=np.float32).astype(FLOAT_DTYPES[dtype])
    with pytest.warns(RuntimeWarning, match="invalid value"):
        FUNCS[func](x)
    with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        FUNCS[func](x[1:])


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("func", FUNCS)
def test_nan_and_finite_inputs_raise_nothing(func, dtype):
    """All finite values of the 16-bit formats, a float32 sample with subnormals and
    huge values, and quiet and signalling NaNs: no flag under errstate(all='raise')."""
    dt = FLOAT_DTYPES[dtype]
    if dtype == "float32":
        x = float32_sample(20000, seed=5)
        nan_bits = np.array([0x7fc00000, 0x7f800001, 0xffc00001, 0xff812345], dtype=np.uint32)
        x = np.concatenate([x[np.isfinite(x)], np.array([1e-45, -1e-45, 1e-40, 3.4e38], np.float32),
                            nan_bits.view(np.float32)])
    else:
        x = all_patterns(dt)
        with np.errstate(invalid="ignore"):
            x = x[~np.isinf(x.astype(np.float32))]
    with np.errstate(all="raise"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            FUNCS[func](x)


# ---------------------------------------------------------------------------
# ufunc behaviour
# ---------------------------------------------------------------------------

def test_they_are_real_ufuncs():
    for name, f in FUNCS.items():
        assert isinstance(f, np.ufunc) and f.__name__ == "crtrig_" + name and f.nin == 1 and f.nout == 1
        assert f.types == ["e->e", "f->f", "d->d"]  # plus the bfloat16 loop, which numpy does not list
        assert "correctly rounded" in f.__doc__


@pytest.mark.parametrize("x,dtype", [
    (np.float64(1.0), np.float64), (1.0, np.float64), ([0.5, 1.0], np.float64),
    (np.arange(3.0), np.float64), (np.int64(3), np.float64), (np.array([3], np.int32), np.float64),
    (np.array([3], np.int16), np.float32), (np.array([3], np.int8), np.float16),
    (np.array([3], np.uint8), np.float16), (np.array([True]), np.float16),
    (np.float32(1.0), np.float32), (np.float16(1.0), np.float16)])
def test_inputs_get_the_type_numpy_sin_gives_them(x, dtype):
    """Python floats, lists, int32 and int64 are computed in float64 (never silently
    in float32), int16 in float32, int8, uint8 and bool in float16: numpy's own
    choice for np.sin.  A Python float gives a NumPy float64 scalar."""
    for name, f, numpy_f in (("sin", crtrig.sin, np.sin), ("cos", crtrig.cos, np.cos)):
        got = f(x)
        assert got.dtype == dtype == numpy_f(x).dtype
        assert type(got) is type(numpy_f(x))
        value = np.asarray(x).reshape(-1)[0]
        if np.dtype(dtype) == np.float64 or np.asarray(x).dtype.kind in "iub":
            want = oracle.trig_value(name, float(value), np.dtype(dtype).name)
            assert float(np.asarray(got).reshape(-1)[0]) == want
    assert isinstance(crtrig.sin(0.5), np.float64)


def test_small_integer_inputs_follow_numpy_casting():
    """int8 casts safely to float16 (numpy's rule), so it is computed in float16."""
    r = crtrig.sin(np.array([1, 2], dtype=np.int8))
    assert r.dtype == np.float16 and float(r[0]) == oracle.trig_value("sin", 1.0, "float16")


def test_out_where_broadcasting_strides_and_empty():
    x = np.linspace(-10, 10, 24, dtype=np.float32).reshape(4, 6)
    want = oracle.trig("sin", x)
    out = np.full_like(x, 7.0)
    assert crtrig.sin(x, out=out) is out and same_bits(out, want).size == 0
    mask = np.arange(24).reshape(4, 6) % 3 == 0
    out = np.full_like(x, 7.0)
    crtrig.sin(x, out=out, where=mask)
    assert np.all(out[~mask] == 7.0) and same_bits(out[mask], want[mask]).size == 0
    strided = x[::-1, ::2]
    assert same_bits(crtrig.sin(strided), want[::-1, ::2]).size == 0
    assert same_bits(crtrig.cos(x.T), oracle.trig("cos", x.T)).size == 0
    assert crtrig.sin(np.empty((0, 3), np.float32)).shape == (0, 3)
    zero_d = crtrig.cos(np.array(1.5, dtype=np.float32))
    assert zero_d.shape == () and float(zero_d) == oracle.trig_value("cos", 1.5, "float32")
    assert isinstance(crtrig.sin(np.float32(0.5)), np.float32)
    column = np.float32([[0.5], [1.5]])
    out = np.empty((2, 3), np.float32)
    crtrig.cos(np.broadcast_to(column, (2, 3)), out=out)
    assert same_bits(out, np.broadcast_to(oracle.trig("cos", column), (2, 3))).size == 0


def test_in_place_and_dtype_signature():
    x = np.linspace(-4, 4, 1000, dtype=np.float32)
    want = oracle.trig("sin", x)
    y = x.copy()
    crtrig.sin(y, out=y)
    assert same_bits(y, want).size == 0
    x16 = np.linspace(-4, 4, 100, dtype=np.float16)
    assert crtrig.sin(x16, dtype=np.float32).dtype == np.float32  # computed in float32
    assert crtrig.cos(x16, signature="e->e").dtype == np.float16
    b = x16.astype(ml_dtypes.bfloat16)
    assert same_bits(crtrig.sin(b), oracle.trig("sin", b)).size == 0


def test_float32_input_into_float16_out_is_two_roundings_as_documented():
    x = np.float32([0.2093505859375])
    out = np.empty(1, np.float16)
    crtrig.sin(x, out=out, casting="same_kind")
    assert out[0] == np.float16(crtrig.sin(x)[0])  # numpy's cast of the float32 result
    assert "two roundings" in crtrig.sin.__doc__


def test_pickling_gives_the_same_ufunc():
    for f in FUNCS.values():
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            assert pickle.loads(pickle.dumps(f, protocol)) is f


def _numpy_lets_ufuncs_set_module():
    probe = np.frompyfunc(abs, 1, 1)  # a fresh ufunc of this numpy
    try:
        probe.__module__ = "probe"
    except (AttributeError, TypeError):  # numpy 1.x
        return False
    return probe.__module__ == "probe"


def _pickled_global(data):
    """(module, name) of the one global a pickle of a ufunc refers to."""
    import pickletools

    strings = [arg for op, arg, _ in pickletools.genops(data) if op.name in ("SHORT_BINUNICODE", "BINUNICODE")]
    globals_ = [arg for op, arg, _ in pickletools.genops(data) if op.name == "GLOBAL"]
    return tuple(globals_[0].split(" ")) if globals_ else tuple(strings[-2:])


def test_ufuncs_live_in_crtrig_under_their_own_names():
    """crtrig.sin.__module__ is "crtrig" (where numpy lets it be set), so that
    help() and pickle name the public module; __name__ is "crtrig_sin"/"crtrig_cos" (not numpy's names:
    pint dispatches by name), which pickle finds as crtrig.crtrig_sin without
    the name being in crtrig's namespace."""
    for name, f in FUNCS.items():
        assert f.__name__ == "crtrig_" + name and repr(f) == f"<ufunc 'crtrig_{name}'>"
        assert getattr(crtrig, "crtrig_" + name) is f and "crtrig_" + name not in dir(crtrig)
        if _numpy_lets_ufuncs_set_module():  # numpy 2
            assert f.__module__ == "crtrig"
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):  # numpy 1.x: found by searching sys.modules
            assert _pickled_global(pickle.dumps(f, protocol)) == ("crtrig", "crtrig_" + name)


def test_pickles_of_the_old_names_still_load():
    """Pickles made when the ufuncs were named sin and cos refer to crtrig.sin
    and crtrig.cos (protocols 0-3 as GLOBAL, 4 and 5 as STACK_GLOBAL): they
    load as the same ufuncs."""
    for name, f in FUNCS.items():
        n = name.encode()
        for data in (b"ccrtrig\n" + n + b"\n.", b"\x80\x02ccrtrig\n" + n + b"\nq\x00.",
                     b"\x80\x04\x8c\x06crtrig\x94\x8c" + bytes([len(n)]) + n + b"\x94\x93\x94."):
            assert _pickled_global(data) == ("crtrig", name)
            assert pickle.loads(data) is f


def test_unpickled_in_a_fresh_interpreter(tmp_path):
    """A pickled crtrig.sin (what dask sends to its workers) loads in another
    process that has not imported crtrig yet, as the same ufunc."""
    import subprocess
    import sys

    path = tmp_path / "funcs.pickle"
    path.write_bytes(pickle.dumps(list(FUNCS.values())))
    code = ("import pickle, sys; funcs = pickle.load(open(sys.argv[1], 'rb')); import crtrig; "
            "assert funcs == [crtrig.sin, crtrig.cos] and funcs[0] is crtrig.sin, funcs; print('ok')")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stdout + done.stderr


def test_dask_arrays_go_through_array_ufunc():
    da = pytest.importorskip("dask.array")
    x = np.linspace(-100, 100, 1000, dtype=np.float32)
    d = da.from_array(x, chunks=250)
    result = crtrig.sin(d)
    assert isinstance(result, da.Array)
    assert same_bits(result.compute(), oracle.trig("sin", x)).size == 0


def test_loops_release_the_gil_for_large_arrays():
    """numpy releases the GIL around the inner loop for large arrays; the probe
    ufunc records PyGILState_Check() from inside the loop."""
    probe = _core._gil_probe_sin
    probe(np.ones(100000, dtype=np.float32))
    assert _core.gil_probe_result()[1] == 0
    probe(np.ones(100000, dtype=np.float16))
    assert _core.gil_probe_result()[0] == 0
    probe(np.ones(100000, dtype=ml_dtypes.bfloat16))
    assert _core.gil_probe_result()[2] == 0


def test_threads_share_the_ufunc():
    x = np.linspace(-50, 50, 50000, dtype=np.float32)
    want = crtrig.sin(x)
    results = [None] * 4

    def work(i):
        results[i] = crtrig.sin(x)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(r.view(np.uint32), want.view(np.uint32)) for r in results)


@pytest.mark.parametrize("target", TARGETS, ids=lambda i: _core._supported_target_slots()[i])
@pytest.mark.parametrize("func", FUNCS)
def test_first_pass_error_bound_holds(func, target):
    """The float32/bfloat16/float16 first pass's unrounded value (each target: the
    FMA and the FMA-free forms of the reductions), against mpmath, within its bound
    e, over its whole domain: random bit patterns (small and table reductions),
    [-pi, pi], and the inputs nearest to multiples of pi/2 among the hard cases."""
    x = float32_sample(2500, seed=13)
    near = [H("0x1.921fb6p+0"), H("0x1.921fb6p+1"), H("0x1.921fb6p+2"), H("0x1.2d97c8p+2"),
            H("0x1.2d97c8p+3"), H("0x1.3170fp+63"), H("0x1.2b9622p+67"), H("0x1.fffffep+127"), 2.0 ** -13]
    x = np.concatenate([x, np.float32(near), -np.float32(near)])
    x = x[np.isfinite(x) & (np.abs(x) >= 2.0 ** -13)]
    assert (np.abs(x) >= 2.0 ** 24).sum() > 500 and (np.abs(x) < 2.0 ** 24).sum() > 2500
    worst = 0.0
    with mpmath.workprec(300):
        for v in x.astype(np.float64).tolist():
            y, e = _core.first_pass_value("sincos", 0 if func == "sin" else 1, v, target=target)
            exact = mpmath.sin(v) if func == "sin" else mpmath.cos(v)
            error = abs(mpmath.mpf(y) - exact)
            assert error <= e, (func, v, float(error), e)
            worst = max(worst, float(error / e))
    assert worst > 0.01


@pytest.mark.parametrize("target", TARGETS, ids=lambda i: _core._supported_target_slots()[i])
@pytest.mark.parametrize("func", FUNCS)
def test_first_pass_leaves_few_lanes_undecided(func, target):
    """The rounding test on the bits fails for about 4096 / 2^29 = 2^-17 of float32
    lanes (sincos32_core.h); on 2^18 inputs in [-pi, pi] and 2^18 finite bit patterns
    (huge ones through the table reduction) at most 2^-13 of them may be left, and
    every decided lane is correct."""
    rng = np.random.default_rng(17 + (func == "cos"))
    bits = rng.integers(0, 1 << 32, 1 << 19, dtype=np.uint64).astype(np.uint32)
    bits = bits[(bits & 0x7fffffff) < 0x7f800000][: 1 << 18]
    x = np.concatenate([rng.uniform(-math.pi, math.pi, 1 << 18).astype(np.float32), bits.view(np.float32)])
    out, undecided = _core.first_pass_with_target(target, 0 if func == "sin" else 1, x)
    assert np.count_nonzero(undecided == 2) <= x.size >> 13
    assert np.count_nonzero(undecided == 1) == 0
    sample = np.random.default_rng(3).choice(x.size, 4000, replace=False)
    decided = sample[undecided[sample] == 0]
    assert same_bits(out[decided], oracle.trig(func, x[decided])).size == 0


def test_first_pass_value_hook_refuses_what_is_outside_its_domain():
    for bad in (0.0, 2.0 ** -14, math.inf, math.nan, 1.0 + 2.0 ** -30, 2.0 ** 128):
        with pytest.raises(ValueError):
            _core.first_pass_value("sincos", 0, bad)
    with pytest.raises(ValueError):
        _core.first_pass_value("sincos", 2, 1.0)


def _source(name):
    path = Path(__file__).resolve().parents[1] / "src" / "core" / name
    if not path.exists():
        pytest.skip("the C sources are not here (testing an installed wheel)")
    return path.read_text(encoding="utf-8")


def _hex_constant(source, name):
    return float.fromhex(re.search(name + r" = (-?0x[0-9a-fp.+-]+)", source).group(1))


def test_range_reduction_constants():
    """reduce.c's bits of 2/pi, its 28-bit leading part and the rest, and 1/pi in
    sincos.c, re-derived with mpmath (tools/gen_reduction_constants.py prints them)."""
    reduce_c, sincos_c, small = _source("reduce.c"), _source("sincos.c"), _source("reduce_small.h")
    with mpmath.workprec(1400):
        two_over_pi = 2 / mpmath.pi
        words = [int(w, 16) for w in re.findall(r"0x([0-9a-f]{8})u",
                                                 re.search(r"TWO_OVER_PI_BITS\[41\] = \{(.*?)\};", reduce_c, re.S).group(1))]
        # Two zero words (bits -63..0), then 39 words of 2/pi: 1248 bits.  The 256-bit
        # window of the largest double (E = 971) starts at bit 970, in word (970 + 63) // 32,
        # and the shifted read takes 8 words after it: the last one is word 40.
        assert words[:2] == [0, 0] and len(words) == 41 == (970 + 63) // 32 + 8 + 1
        scaled = int(mpmath.floor(two_over_pi * mpmath.mpf(2) ** (32 * 39)))
        assert words[2:] == [(scaled >> (32 * 39 - 32 * (k + 1))) & 0xFFFFFFFF for k in range(39)]
        h28 = _hex_constant(small, "TWO_OVER_PI_H28")
        assert h28 * 2 ** 28 == int(h28 * 2 ** 28) and abs(mpmath.mpf(h28) - two_over_pi) <= mpmath.mpf(2) ** -29
        assert _hex_constant(small, "TWO_OVER_PI_L") == float(two_over_pi - mpmath.mpf(h28))
        inv_pi = 1 / mpmath.pi
        hi = _hex_constant(sincos_c, "INV_PI_HI")
        assert hi == float(inv_pi) and _hex_constant(sincos_c, "INV_PI_LO") == float(inv_pi - mpmath.mpf(hi))


def test_first_pass_tables_match_the_taylor_coefficients():
    """pass_common.h's SINPI_ROW equals the double values derived with mpmath."""
    common = _source("pass_common.h")
    row = [float.fromhex(v) for v in re.findall(r"-?0x[0-9a-f.]+p[+-]\d+",
                                                re.search(r"SINPI_ROW\[8\] = \{(.*?)\};", common, re.S).group(1))]
    with mpmath.workprec(200):
        assert row == [float((-1) ** k * mpmath.pi ** (2 * k + 1) / mpmath.factorial(2 * k + 1)) for k in range(8)]


def _tool(name):
    """A script of tools/ as a module (the C sources' generators and their checks)."""
    import importlib.util
    path = Path(__file__).resolve().parents[1] / "tools" / name
    if not path.exists():
        pytest.skip("the tools are not here (testing an installed wheel)")
    spec = importlib.util.spec_from_file_location(name[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sincos32_constants():
    """sincos32_core.h's pieces of 1/pi, re-derived with mpmath, with the bounds its
    derivation states."""
    core = _source("sincos32_core.h")
    c = {name: _hex_constant(core, name) for name in ("SC32_INV_PI", "SC32_INV_PI_LO", "SC32_INV_PI_P1",
                                                      "SC32_INV_PI_P2", "SC32_INV_PI_P3")}
    assert _hex_constant(core, "SC32_SHIFTER") == 1.5 * 2.0 ** 52
    # the cos reduction's one-fma 1/2 - nd needs the product to be 1.5 2^52 + 1/2 exactly
    assert (Fraction(_hex_constant(core, "SC32_SHIFTER_HALF_A")) * Fraction(_hex_constant(core, "SC32_SHIFTER_HALF_B"))
            == Fraction(3 * 2 ** 51) + Fraction(1, 2))
    with mpmath.workprec(400):
        inv = 1 / mpmath.pi
        two = mpmath.mpf(2)
        assert c["SC32_INV_PI"] == float(inv) and c["SC32_INV_PI_LO"] == float(inv - mpmath.mpf(c["SC32_INV_PI"]))
        assert abs(c["SC32_INV_PI_LO"]) <= 2.0 ** -55.49
        assert abs(inv - mpmath.mpf(c["SC32_INV_PI"]) - mpmath.mpf(c["SC32_INV_PI_LO"])) <= two ** -109.52
        for name in ("SC32_INV_PI_P1", "SC32_INV_PI_P2"):   # 29 significant bits
            m, e = math.frexp(c[name])
            assert m * 2 ** 29 == int(m * 2 ** 29)
        assert c["SC32_INV_PI_P1"] == float(mpmath.nint(inv * 2 ** 30) / two ** 30)
        rest = inv - mpmath.mpf(c["SC32_INV_PI_P1"])
        assert abs(rest) <= two ** -32.23 and abs(c["SC32_INV_PI_P2"]) <= 2.0 ** -32.23
        assert c["SC32_INV_PI_P2"] == float(mpmath.nint(rest * 2 ** 61) / two ** 61)
        rest -= mpmath.mpf(c["SC32_INV_PI_P2"])
        assert c["SC32_INV_PI_P3"] == float(rest) and abs(rest) * 2 ** 24 <= 2.0 ** -62.41 * 2 ** 24
        assert abs(rest - mpmath.mpf(c["SC32_INV_PI_P3"])) <= two ** -116.1


def test_sincos32_table_rows():
    """Every entry of sincos32_tables.c, re-derived with mpmath (tools/gen_sincos32.py)."""
    tables = _source("sincos32_tables.c")
    rows = [[float.fromhex(v) for v in re.findall(r"-?0x[0-9a-f.]+p[+-]\d+", line)]
            for line in re.findall(r"\{([^{}]*)\}, /\* E = -?\d+ \*/", tables)]
    gen = _tool("gen_sincos32.py")
    assert rows == [list(r) for r in gen.inv_pi_rows()] and len(rows) == 141
    with mpmath.workprec(400):
        for e, (f0, f1, f2) in zip(range(-13, 128), rows):
            g = mpmath.mpf(2) ** (e - 23) / mpmath.pi
            g -= 2 * mpmath.floor(g / 2)
            assert f0 * 2 ** 27 == int(f0 * 2 ** 27) and 0 <= f0 < 2
            assert f1 * 2 ** 56 == int(f1 * 2 ** 56) and 0 <= f1 < 2.0 ** -27
            assert 0 <= f2 < 2.0 ** -56
            assert abs(g - mpmath.mpf(f0) - mpmath.mpf(f1) - mpmath.mpf(f2)) <= mpmath.mpf(2) ** -109


def test_sincos32_polynomial_bound_and_reduction_facts():
    """The proof in sincos32_core.h, re-checked: the minimax polynomial's relative
    error (rigorous interval evaluation on 128 pieces) and evaluation sums, the
    reduced-argument facts (R1), (R3), and the resulting bound against the rounding
    test's threshold and window."""
    core = _source("sincos32_core.h")
    gen = _tool("gen_sincos32.py")
    coefficients = gen.header_coefficients()
    eps = gen.relative_error_bound(coefficients, pieces=128)
    s0, s1 = gen.evaluation_sums(coefficients)
    r1, r3 = gen.min_reduced_arguments()
    two = mpmath.mpf(2)
    assert eps <= two ** -43.8
    assert s0 <= 2.3013 and s1 <= 0.8201
    assert r1 >= two ** -50.3 and r3 >= two ** -30.86
    assert gen.Z_MAX >= (0.5 + 2.0 ** -26.9) ** 2 * (1 + 2.0 ** -50)
    u = two ** -53
    kappa = 3.15
    total = eps / u + 12.0001 * 2.3014 + 1.0001 * 0.8202 + 1 + kappa   # in units of u, relative
    assert total <= 620.8
    bound_ulps = int(re.search(r"#define SC32_BOUND_ULPS (\d+)u", core).group(1))
    assert total * (1 + 2 * total * u) < bound_ulps < 2048   # the test's half-window is 2048
