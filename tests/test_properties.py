"""Property-based tests (hypothesis, fixed seed): any window call gives the exact
window or a clean TypeError/ValueError with out= untouched; sin/cos over any
layout and overlap numpy accepts equal the result on a contiguous copy."""
import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crtrig
from crtrig import reference

SETTINGS = settings(derandomize=True, deadline=None, database=None, max_examples=400,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

KINDS = {"hann": crtrig.hann_window, "hamming": crtrig.hamming_window, "blackman": crtrig.blackman_window}
NAMES = ["float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "uint16",
         "int32", "uint32", "int64", "uint64"]
INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]

# (spelling, canonical name or None when unsupported, byte order of the result)
DTYPE_SPELLINGS = [
    (None, "float32", "="), (np.float16, "float16", "="), ("f2", "float16", "="), ("half", "float16", "="),
    (ml_dtypes.bfloat16, "bfloat16", "="), ("bfloat16", "bfloat16", "="), ("BFloat16", "bfloat16", "="),
    (np.float32, "float32", "="), ("single", "float32", "="), (">f4", "float32", ">"), ("<f4", "float32", "<"),
    (np.float64, "float64", "="), (float, "float64", "="), ("d", "float64", "="), (">f8", "float64", ">"),
    (np.intc, "int32", "="), (int, "int64", "="), ("i1", "int8", "="), (np.ubyte, "uint8", "="),
    ("<i2", "int16", "<"), (">u2", "uint16", ">"), (np.uint32, "uint32", "="), (np.longlong, "int64", "="),
    ("u8", "uint64", "="), (np.dtype(">i8"), "int64", ">"),
    (np.complex64, None, "="), ("U3", None, "="), (object, None, "="), (bool, None, "="),
    (np.longdouble, None if np.dtype(np.longdouble).itemsize != 8 else "float64", "="), ("no-such", None, "="),
]


def size_wrappers(size):
    """Every integer spelling of size that can hold it, and some that are not integers."""
    good = [("int", size)]
    for t in INT_TYPES:
        info = np.iinfo(t)
        if info.min <= size <= info.max:
            good += [(t.__name__, t(size)), (f"0-d {t.__name__}", np.array(size, dtype=t)),
                     (f"1-elem {t.__name__}", np.array([size], dtype=t))]
    bad = [("float", float(size)), ("np.float32", np.float32(size)), ("str", str(size)), ("bool", True),
           ("2-elem", np.array([size, size])), ("0-d float", np.array(float(size))), ("None", None)]
    return good, bad


def rarely(draw):
    """True about one time in eight (hypothesis favours the first and simplest
    values, so the rare answer is the last one): each kind of bad argument is
    rare, so that most calls are valid and check values."""
    return draw(st.sampled_from(range(8))) == 7


@st.composite
def window_calls(draw):
    kind = draw(st.sampled_from(sorted(KINDS)))
    if rarely(draw):
        size = draw(st.sampled_from([-1, -3, 2 ** 53 + 1, 2 ** 64]))
    else:
        size = draw(st.one_of(st.integers(0, 40), st.integers(41, 700)))
    good, bad = size_wrappers(size)
    size_ok = not rarely(draw)
    size_label, size_arg = draw(st.sampled_from(good if size_ok else bad))
    periodics = [(True, True), (False, False), (1, True), (0, False), (np.bool_(False), False),
                 (np.int64(1), True)]
    if rarely(draw):
        periodics = [(2, None), (None, None), (1.0, None), ("yes", None)]
    periodic_arg, periodic = draw(st.sampled_from(periodics))
    bad_dtype = rarely(draw)
    spellings = [entry for entry in DTYPE_SPELLINGS if (entry[1] is None) == bad_dtype]
    spelling, name, order = draw(st.sampled_from(spellings))
    layouts = ["none", "contiguous", "strided", "negative", "unaligned", "other dtype"]
    if draw(st.sampled_from(range(4))) == 3:
        layouts = ["byteswapped", "overlapping", "readonly", "wrong length", "2-d", "list"]
    layout = draw(st.sampled_from(layouts))
    step = draw(st.integers(1, 3))
    offset = draw(st.integers(1, 7))
    pass_dtype = draw(st.booleans())
    out_name = draw(st.sampled_from(NAMES)) if layout == "other dtype" else name
    return dict(kind=kind, size=size, size_ok=size_ok, size_label=size_label, size_arg=size_arg,
                periodic_arg=periodic_arg, periodic=periodic, spelling=spelling, name=name, order=order,
                layout=layout, step=step, offset=offset, pass_dtype=pass_dtype, out_name=out_name)


def make_out(call):
    """(backing byte buffer or None, the out= argument, the out dtype name or None)."""
    layout, size = call["layout"], max(call["size"], 0)
    if layout == "none" or call["size"] > 100000:
        return None, None, None
    name = call["out_name"] if call["out_name"] is not None else "float64"
    dt = reference.canonical_dtype(name)
    n = size + (1 if layout == "wrong length" else 0)
    step = call["step"] if layout in ("strided", "negative") else 1
    raw = (np.arange(dt.itemsize * (n * step + 2) + 8) % 253 + 1).astype(np.uint8)
    if layout == "unaligned":
        out = raw[call["offset"]:call["offset"] + dt.itemsize * n].view(dt)
    elif layout == "byteswapped" and dt.itemsize > 1 and name != "bfloat16":
        out = raw[:dt.itemsize * n].view(dt.newbyteorder())
    elif layout == "overlapping":
        stride = call["offset"] % dt.itemsize  # 0 .. itemsize - 1
        out = np.lib.stride_tricks.as_strided(raw[:dt.itemsize].view(dt), shape=(n,), strides=(stride,),
                                              writeable=True)
    elif layout == "negative":
        out = raw[:dt.itemsize * n * step].view(dt)[::-step]
    elif layout == "2-d":
        out = raw[:dt.itemsize * n].view(dt).reshape(1, n)
    elif layout == "list":
        return None, [0.0] * n, name
    else:
        out = raw[:dt.itemsize * n * step].view(dt)[::step]
    if layout == "readonly":
        out.flags.writeable = False
    return raw, out, name


def expected_errors(call, out, out_name):
    """The exception types a call may raise (empty: it must succeed), from the
    documented rules, checked independently of crtrig's code."""
    errors = set()
    if not call["size_ok"]:
        errors.add(TypeError)
    elif call["size"] < 0 or call["size"] > 2 ** 53:
        errors.add(ValueError)
    if call["periodic"] is None:
        errors.add(TypeError)
    if out is None:
        if call["name"] is None:
            errors.add(TypeError)
        return errors
    if not isinstance(out, np.ndarray):
        errors.add(TypeError)
        return errors
    if out.ndim != 1 or out.shape[0] != call["size"]:
        errors.add(ValueError)
    if not out.dtype.isnative:
        errors.add(TypeError)
    if call["pass_dtype"] and call["spelling"] is not None and (call["name"] != out_name or call["order"] == ">"):
        errors.add(TypeError)  # a dtype argument must name out's dtype
    if not out.flags.writeable:
        errors.add(ValueError)
    if out.ndim == 1 and out.shape[0] > 1 and abs(out.strides[0]) < out.itemsize:
        errors.add(ValueError)
    return errors


@SETTINGS
@given(window_calls())
def test_window_calls_are_exact_or_clean_errors(call):
    raw, out, out_name = make_out(call)
    before = None if raw is None else raw.copy()
    kwargs = {"periodic": call["periodic_arg"]}
    if out is not None:
        kwargs["out"] = out
        if call["pass_dtype"] and call["spelling"] is not None:
            kwargs["dtype"] = call["spelling"]
    elif call["spelling"] is not None:
        kwargs["dtype"] = call["spelling"]
    errors = expected_errors(call, out, out_name)
    fn = KINDS[call["kind"]]
    if errors:
        with pytest.raises(tuple(errors)):
            fn(call["size_arg"], **kwargs)
        if raw is not None:
            assert np.array_equal(raw, before), "out= was written before the error"
        return
    result = fn(call["size_arg"], **kwargs)
    name = out_name if out is not None else call["name"]
    want = reference.window(call["kind"], call["size"], call["periodic"], name)
    if out is not None:
        assert result is out
        got = np.array(out, copy=True)
        # bytes outside out's elements are untouched
        positions = np.zeros(raw.size, dtype=bool)
        byte_index = np.arange(raw.size, dtype=np.int64)
        starts = (out.__array_interface__["data"][0] - raw.__array_interface__["data"][0]
                  + np.arange(out.shape[0]) * out.strides[0])
        for b in range(out.itemsize):
            positions[starts + b] = True
        assert np.array_equal(raw[~positions], before[~positions])
        assert byte_index.size == raw.size
    else:
        got = result
        want_dtype = reference.canonical_dtype(name)
        if call["order"] != "=" and want_dtype.itemsize > 1:
            want_dtype = want_dtype.newbyteorder(call["order"])
        assert result.dtype == want_dtype
        got = result.astype(want.dtype)
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


# ---------------------------------------------------------------------------
# sin and cos over layouts and overlaps
# ---------------------------------------------------------------------------

TRIG_DTYPES = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32)]
UINT = {2: np.uint16, 4: np.uint32}


def trig_values(dtype, count, seed, special_share):
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 1 << (8 * dtype.itemsize), count).astype(UINT[dtype.itemsize]).view(dtype)
    with np.errstate(over="ignore"):
        ordinary = rng.uniform(-20, 20, count).astype(np.float32).astype(dtype)
        special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, 3e38, 6e4], np.float32).astype(dtype)
    values = np.where(rng.random(count) < 0.5, ordinary, bits)
    pick = rng.random(count) < special_share
    values[pick] = special[rng.integers(0, special.size, pick.sum())]
    return values


@st.composite
def trig_calls(draw):
    dtype = draw(st.sampled_from(TRIG_DTYPES))
    n = draw(st.one_of(st.integers(0, 20), st.integers(21, 1200)))
    in_step = draw(st.sampled_from([1, 1, 1, 2, 3, -1, -1, -2]))
    in_misalign = draw(st.sampled_from([0, 0, 0, 0, 0, 1, 3]))  # bytes: unaligned when not 0 mod item size
    out_kind = draw(st.sampled_from(["same buffer", "same buffer", "same buffer", "new", "separate", "in place"]))
    out_step = draw(st.sampled_from([1, 1, 1, 2, -1, -1, -3]))
    # elements from the first input to the first output: often a lagging output
    # (negative shift), which numpy passes to the loop without copying
    out_shift = draw(st.one_of(st.integers(-300, -1), st.integers(-300, 300)))
    out_misalign = draw(st.sampled_from([0, 0, 0, 0, 0, 1, 2]))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    special_share = draw(st.sampled_from([0.0, 0.05, 0.5, 1.0]))
    func = draw(st.sampled_from(["sin", "cos"]))
    return dict(dtype=dtype, n=n, in_step=in_step, in_misalign=in_misalign, out_kind=out_kind,
                out_step=out_step, out_shift=out_shift, out_misalign=out_misalign, seed=seed,
                special_share=special_share, func=func)


def strided_view(raw, offset, dtype, n, step):
    """n elements of dtype, |step| items apart, the first in memory order at byte
    `offset` of the byte array raw (unaligned when offset is not a multiple of the
    item size); a negative step runs backwards."""
    view = np.ndarray(shape=(n,), dtype=dtype, buffer=raw, offset=offset,
                      strides=(dtype.itemsize * abs(step),))
    return view[::-1] if step < 0 else view


@SETTINGS
@given(trig_calls())
def test_sin_cos_on_any_layout_equal_the_result_on_a_contiguous_copy(call):
    dtype, n = call["dtype"], call["n"]
    f = getattr(crtrig, call["func"])
    size = dtype.itemsize
    raw = np.zeros(size * (3 * n + 3 * 300 + 40), dtype=np.uint8)
    fill = trig_values(dtype, raw.size // size, call["seed"], call["special_share"])
    raw[:fill.size * size] = fill.view(np.uint8)
    in_offset = 300 * size + call["in_misalign"]
    x = strided_view(raw, in_offset, dtype, n, call["in_step"])
    with np.errstate(invalid="ignore"):
        want = f(np.ascontiguousarray(x).copy())
        if call["out_kind"] == "new":
            assert f(x).tobytes() == want.tobytes()
            return
        if call["out_kind"] == "in place":
            target, params = raw, (in_offset, call["in_step"])
        elif call["out_kind"] == "separate":
            target, params = np.zeros_like(raw), (call["out_misalign"], call["out_step"])
        else:  # another view of the same buffer, out_shift elements from x: lagging or ahead
            target = raw
            params = (in_offset + call["out_shift"] * size + call["out_misalign"], call["out_step"])
        out = strided_view(target, params[0], dtype, n, params[1])
        expected = target.copy()  # afterwards: out's elements hold want, the rest is unchanged
        strided_view(expected, params[0], dtype, n, params[1])[...] = want
        assert f(x, out=out) is out
    assert target.tobytes() == expected.tobytes()
