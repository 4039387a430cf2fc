"""float64 sin and cos end to end: the d->d ufunc loops (crtrig.sin, crtrig.cos) and
the array kernel of every SIMD target this CPU supports (the vector first pass, then
the scalar accurate path for what it leaves undecided), bit for bit against MPFR
(tests/oracle.py).

Inputs come from tests/float64_inputs.py: every input of the worst-case files
(tests/data/{sin,cos}-binary64.wc) and its negative; the three doubles nearest to a
multiple of pi/2 in each binade 2^0..2^1023 and their neighbours one ulp away, both
signs; 10^5 random inputs in each of [-pi, pi], [-1e5, 1e5], [-1e22, 1e22] and over
random bit patterns of finite doubles; and special values (+-0, +-inf, NaN, the
largest double, subnormals, tiny inputs around the sin x = x and cos x = 1
thresholds).  Each MPFR value is computed once per test session
(oracle.trig_memoized, shared with test_sincos64.py and test_sincos64_pass.py) and
compared on every target (_core.trig_with_target), through crtrig.sin/cos
themselves, at each float64 stage forced (_core.trig_strided, on a subset), and under
every rounding mode with FTZ/DAZ (_core.trig_under_fpenv, on a subset).
"""
import functools
import math
import warnings

import numpy as np
import pytest

import crtrig
from crtrig import _core

import float64_inputs as inputs
import oracle

UFUNCS = {"sin": crtrig.sin, "cos": crtrig.cos}
NUMPY_UFUNCS = {"sin": np.sin, "cos": np.cos}
CODE = {"sin": 0, "cos": 1}
TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]
TARGET_IDS = [_core._supported_target_slots()[i] for i in TARGETS]

RANDOM_SETS = {"random [-pi, pi]": "pi", "random [-1e5, 1e5]": "1e5",
               "random [-1e22, 1e22]": "1e22", "random bit patterns": "bits"}
SETS = ("worst cases", "pi/2 neighbours", *RANDOM_SETS, "special values")

QUIET_BIT = np.uint64(1 << 51)
#: NaN inputs: quiet and signalling, both signs, with payloads.
NAN_BITS = np.array([0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0xFFF0000000000001,
                     0x7FF4000000000000, 0x7FFFFFFFFFFFFFFF, 0xFFF123456789ABCD], dtype=np.uint64)


@functools.lru_cache(maxsize=None)
def input_set(func, name):
    """The float64 inputs of the set `name` for `func` (read-only)."""
    if name == "worst cases":
        x = np.array(inputs.worst_cases(func))
    elif name == "pi/2 neighbours":
        x = np.array(inputs.half_pi_neighbours())
    elif name in RANDOM_SETS:
        return inputs.random_sample(func, RANDOM_SETS[name])
    elif name == "special values":
        sin_below, cos_below = inputs.tiny_thresholds()
        around = [v for t in (sin_below, cos_below) for v in (math.nextafter(t, 0.0), t) for v in (v, -v)]
        x = np.array(inputs.special_inputs() + inputs.subnormal_inputs() + inputs.tiny_inputs() + around
                     + [math.pi, -math.pi, math.pi / 2, 2.0 ** 17, -(2.0 ** 17), 1e22, 2.0 ** 1023])
    else:
        raise ValueError(name)
    x.flags.writeable = False
    return x


@pytest.fixture(scope="module", params=[(f, s) for f in UFUNCS for s in SETS],
                ids=[f"{f}-{s}" for f in UFUNCS for s in SETS])
def case(request):
    """(func, set name, inputs, MPFR results): one oracle computation per set,
    shared by every target and check below."""
    func, name = request.param
    x = input_set(func, name)
    return func, name, x, oracle.trig_memoized(func, x)


def assert_mpfr(func, x, got, want, where=""):
    """got is want bit for bit, sign of zero included; NaN exactly where want is NaN,
    and quiet."""
    got = np.ascontiguousarray(got).reshape(-1)
    want = np.ascontiguousarray(want).reshape(-1)
    x = np.ascontiguousarray(x).reshape(-1)
    assert got.dtype == np.float64 and got.shape == want.shape
    nan = np.isnan(want)
    bad = np.nonzero((got.view(np.uint64) != want.view(np.uint64)) & ~nan)[0]
    assert bad.size == 0, (f"{func} {where}: {bad.size} of {x.size} differ from MPFR, e.g. " +
                           ", ".join(f"x={x[i].hex()} got {got[i].hex()} want {want[i].hex()}" for i in bad[:5]))
    assert np.array_equal(np.isnan(got), nan), f"{func} {where}: NaN where MPFR has none, or the reverse"
    assert np.all(got[nan].view(np.uint64) & QUIET_BIT), f"{func} {where}: a signalling NaN result"


# ---------------------------------------------------------------------------
# Every input set, on every target and through the ufunc
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
def test_every_target_matches_mpfr(case, target):
    """The array kernel of each SIMD target (first pass + scalar path)."""
    func, name, x, want = case
    got = _core.trig_with_target(target, CODE[func], x)
    assert_mpfr(func, x, got, want, f"{name}, target {_core._supported_target_slots()[target]}")


def test_the_ufunc_matches_mpfr_and_raises_nothing(case):
    """crtrig.sin/cos on the whole set, contiguous, reversed (negative stride) and as
    a strided 2-D view; finite inputs raise nothing under errstate(all="raise"),
    tiny and subnormal results included."""
    func, name, x, want = case
    f = UFUNCS[func]
    finite = np.isfinite(x)
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_mpfr(func, x[finite], f(x[finite]), want[finite], name)
        assert_mpfr(func, x[finite][::-1], f(x[finite][::-1]), want[finite][::-1], name + " reversed")
    with np.errstate(invalid="ignore"):
        assert_mpfr(func, x, f(x), want, name + " with non-finite inputs")
        n = x.size - x.size % 6
        grid, grid_want = x[:n].reshape(-1, 6)[::2, ::-3], want[:n].reshape(-1, 6)[::2, ::-3]
        got = f(grid)
        assert got.shape == grid.shape
        assert_mpfr(func, grid, got, grid_want, name + " strided 2-D")


# ---------------------------------------------------------------------------
# Each float64 stage forced
# ---------------------------------------------------------------------------

def stage_subset(func, stage):
    """(x, MPFR results) of a subset of every set, picked by index so the memoized
    oracle values are reused: the multi-precision stage gets a smaller one."""
    step = {"worst cases": 40, "pi/2 neighbours": 20, "special values": 3}
    head = 2000
    if stage == 2:
        step = {"worst cases": 80, "pi/2 neighbours": 40, "special values": 8}
        head = 500
    xs, wants = [], []
    for name in SETS:
        x, want = input_set(func, name), oracle.trig_memoized(func, input_set(func, name))
        pick = slice(0, head) if name in RANDOM_SETS else slice(0, None, step[name])
        xs.append(x[pick])
        wants.append(want[pick])
    return np.concatenate(xs), np.concatenate(wants)


def test_one_element_calls_match_mpfr(case):
    """Calls of one element (a Python float, a NumPy float64 scalar, a one-element
    array: the small-call path, which runs the first pass's lane on that element
    alone) give MPFR's bits: the hard cases (whose rounding test fails, so the
    per-element stages decide), tiny, huge, inf and NaN included.  Every input of the
    special values and the worst cases, every 16th of the larger sets."""
    func, name, x, want = case
    step = 1 if name in ("special values", "worst cases") else 16
    xs, ws = x[::step], want[::step]
    f = UFUNCS[func]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # sin(inf): invalid, as numpy
        got_float = np.array([f(float(v)) for v in xs.tolist()], dtype=np.float64)
        got_scalar = np.array([f(v) for v in xs], dtype=np.float64)
        got_array = np.concatenate([f(xs[i:i + 1]) for i in range(xs.size)]) if xs.size else xs
    for got, kind in ((got_float, "Python float"), (got_scalar, "np.float64"), (got_array, "1 element")):
        assert_mpfr(func, xs, got, ws, f"{name}, {kind} calls")


@pytest.mark.parametrize("func", UFUNCS)
@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("stage", range(len(_core.STAGES_FLOAT64)), ids=_core.STAGES_FLOAT64)
def test_each_stage_forced(func, stage, target):
    """Evaluation started at each float64 stage (first pass, double-double,
    multi-precision) through the array kernel: every value is MPFR's, and the
    stages counted are the ones forced."""
    assert _core.STAGES_FLOAT64 == ("first pass", "double-double", "multi-precision")
    x, want = stage_subset(func, stage)
    with np.errstate(invalid="ignore"):
        got, counts = _core.trig_strided(target, CODE[func], x, stage)
    assert_mpfr(func, x, got, want, f"stage {_core.STAGES_FLOAT64[stage]}")
    nonfinite = int(np.count_nonzero(~np.isfinite(x)))
    first_pass, dd, multi = counts["double"], counts["double-double"], counts["multi-precision"]
    assert first_pass + dd + multi + counts["exact"] == x.size
    if stage == 0:  # the pass decides most; it leaves only inf and NaN and its hard lanes
        assert first_pass > 0.8 * x.size and dd > 0 and multi > 0
    elif stage == 1:  # no first pass; tiny shortcuts (exact) and double-double
        tiny = int(np.count_nonzero(np.abs(x) < 2.0 ** -27))
        assert first_pass == 0 and dd > 0.8 * (x.size - counts["exact"]) and multi > 0
        assert counts["exact"] >= nonfinite + tiny > nonfinite
    else:  # everything finite and nonzero through multi-precision
        assert first_pass == 0 and dd == 0
        assert multi == np.count_nonzero(np.isfinite(x) & (x != 0))


# ---------------------------------------------------------------------------
# Special values, flags and the floating-point environment, on every target
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
def test_special_values_and_flags_on_every_target(target):
    """sin(-0) = -0 and sin(+0) = +0, cos(+-0) = 1; +-inf gives a quiet NaN and
    raises "invalid"; NaNs (quiet or signalling, any payload) give a quiet NaN and
    raise nothing; finite inputs (subnormal and tiny results, the largest double)
    raise nothing: the flags left after one call of the C core's entry point."""
    zeros = np.array([0.0, -0.0])
    for func in UFUNCS:
        got = _core.trig_with_target(target, CODE[func], zeros)
        if func == "sin":
            assert got.view(np.uint64).tolist() == zeros.view(np.uint64).tolist()
        else:
            assert got.tolist() == [1.0, 1.0]
        finite = np.concatenate([zeros, [inputs.LARGEST, -inputs.LARGEST], inputs.subnormal_inputs(count=50),
                                 input_set(func, "pi/2 neighbours")[::50]])
        _, _, after = _core.trig_under_fpenv(target, CODE[func], finite, "nearest")
        assert after["flags"] == set(), after
        got, _, after = _core.trig_under_fpenv(target, CODE[func], NAN_BITS.view(np.float64), "nearest")
        assert np.all(np.isnan(got)) and np.all(got.view(np.uint64) & QUIET_BIT)
        assert after["flags"] == set(), after
        for inf in ([math.inf], [-math.inf], [1.0, math.inf, 2.0]):
            got, _, after = _core.trig_under_fpenv(target, CODE[func], np.array(inf), "nearest")
            assert after["flags"] == {"invalid"}, after
            assert np.array_equal(np.isnan(got), np.isinf(inf))
            assert np.all(got[np.isnan(got)].view(np.uint64) & QUIET_BIT)


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
def test_any_rounding_mode_ftz_daz_on_every_target(target):
    """The caller's rounding mode and FTZ/DAZ do not change a bit (subnormal inputs
    and results, worst cases, pi/2 neighbours, random inputs), and the caller's mode
    and flags are back afterwards."""
    for func in UFUNCS:
        x, want = stage_subset(func, 2)
        x, want = x[np.isfinite(x)], want[np.isfinite(x)]
        for mode in _core.ROUNDING_MODES:
            for ftz, daz in ((False, False), (True, True)):
                got, before, after = _core.trig_under_fpenv(target, CODE[func], x, mode, ftz, daz)
                assert_mpfr(func, x, got, want, f"under {mode}, FTZ={ftz}, DAZ={daz}")
                assert (after["rounding"], after["ftz"], after["daz"]) == (mode, ftz, daz)
                assert after["flags"] == before["flags"] == set()


# ---------------------------------------------------------------------------
# The ufunc: special values, warnings, shapes, scalars, type resolution
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("func", UFUNCS)
def test_infinity_is_nan_with_invalid(func):
    f = UFUNCS[func]
    for x in (np.array([1.0, np.inf]), np.array([-np.inf]), np.inf, np.float64(-np.inf)):
        with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
            f(x)
        with pytest.warns(RuntimeWarning, match="invalid value"):
            r = f(x)
        assert np.isnan(np.asarray(r)).any()
        assert np.all(np.asarray(r).view(np.uint64)[np.isnan(r)] & QUIET_BIT)


@pytest.mark.parametrize("func", UFUNCS)
def test_nan_is_quiet_and_zero_keeps_its_sign(func):
    f = UFUNCS[func]
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        r = f(NAN_BITS.view(np.float64))
        assert np.all(np.isnan(r)) and np.all(r.view(np.uint64) & QUIET_BIT)
        assert np.isnan(f(math.nan))
        zeros = f(np.array([0.0, -0.0]))
        largest = f(np.array([inputs.LARGEST, -inputs.LARGEST]))
        tiny = f(np.array([5e-324, -5e-324, 2.0 ** -1022]))
    if func == "sin":
        assert zeros.view(np.uint64).tolist() == [0, 1 << 63]
        assert tiny.tolist() == [5e-324, -5e-324, 2.0 ** -1022]  # subnormal and tiny results
        assert type(f(-0.0)) is np.float64 and math.copysign(1.0, f(-0.0)) == -1.0
    else:
        assert zeros.tolist() == [1.0, 1.0] and tiny.tolist() == [1.0, 1.0, 1.0]
    assert largest.tolist() == [oracle.trig_value(func, v, "float64") for v in (inputs.LARGEST, -inputs.LARGEST)]


@pytest.mark.parametrize("func", UFUNCS)
def test_scalars_shapes_strides_out_and_where(func):
    """Python floats give NumPy float64 scalars, as np.sin; 0-d arrays, 3-D arrays,
    transposes, negative strides, out= (strided too), where=, in place, broadcasting
    and empty arrays give MPFR's values with numpy's shapes and types."""
    f, npf = UFUNCS[func], NUMPY_UFUNCS[func]
    x = input_set(func, "worst cases")[:120]  # hard cases: half of them leave the first pass
    want = oracle.trig_memoized(func, x)

    for value, expected in zip(x[:10].tolist(), want[:10].tolist()):
        got = f(value)
        assert type(got) is type(npf(value)) is np.float64 and got.tobytes() == np.float64(expected).tobytes()
        got = f(np.float64(value))
        assert type(got) is np.float64 and got == expected
        got = f(np.array(value))
        assert type(got) is type(npf(np.array(value))) and got == expected
        assert f(np.array(value), out=np.empty(())).shape == ()
    got = f(x[:6].tolist())
    assert got.dtype == np.float64 and got.tolist() == want[:6].tolist()

    cube = x.reshape(4, 5, 6)
    assert_mpfr(func, cube, f(cube), want.reshape(4, 5, 6), "3-D")
    assert_mpfr(func, cube.T, f(cube.T), want.reshape(4, 5, 6).T, "transposed")
    assert_mpfr(func, cube[::-1, ::2, ::-3], f(cube[::-1, ::2, ::-3]), want.reshape(4, 5, 6)[::-1, ::2, ::-3],
                "negative strides")
    assert f(cube).flags.c_contiguous and f(cube.T).shape == (6, 5, 4)

    out = np.full(240, 7.0)[::-2]
    assert f(x, out=out) is out
    assert_mpfr(func, x, out, want, "strided out=")
    mask = np.arange(120) % 3 == 0
    out = np.full(120, 7.0)
    f(x, out=out, where=mask)
    assert np.all(out[~mask] == 7.0)
    assert_mpfr(func, x[mask], out[mask], want[mask], "where=")
    y = x.copy()
    f(y, out=y)
    assert_mpfr(func, x, y, want, "in place")
    column = x[:4].reshape(4, 1)
    got = f(np.broadcast_to(column, (4, 3)))
    assert_mpfr(func, np.broadcast_to(column, (4, 3)), got, np.broadcast_to(want[:4].reshape(4, 1), (4, 3)),
                "broadcast")
    assert f(np.empty((0, 3))).shape == (0, 3) and f(np.empty((0, 3))).dtype == np.float64


@pytest.mark.parametrize("func", UFUNCS)
def test_integer_and_float32_inputs_computed_in_float64(func):
    """int32 and int64 inputs (huge ones too) are computed in float64 as np.sin does,
    and dtype=float64 / signature="d->d" compute float32 inputs in float64: each
    result is MPFR's double for the input's double value."""
    f, npf = UFUNCS[func], NUMPY_UFUNCS[func]
    ints = np.array([0, 1, -1, 3, 22, 355, -710, 2 ** 31 - 1, -(2 ** 31)], dtype=np.int32)
    longs = np.array([2 ** 53 + 1, 2 ** 62, -(2 ** 63), 10 ** 18, 6381956970095103], dtype=np.int64)
    for a in (ints, longs):
        got = f(a)
        assert got.dtype == npf(a).dtype == np.float64
        doubles = a.astype(np.float64)
        assert_mpfr(func, doubles, got, oracle.trig(func, doubles), str(a.dtype))
    x32 = np.float32([0.5, 3.0, 1e30, -2.5e-40])
    for kwargs in ({"dtype": np.float64}, {"signature": "d->d"}):
        got = f(x32, **kwargs)
        assert got.dtype == np.float64
        assert_mpfr(func, x32.astype(np.float64), got, oracle.trig(func, x32.astype(np.float64)), str(kwargs))
