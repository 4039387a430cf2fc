"""Overlapping arrays: sin/cos give what they give on a copy of the input, and a
window's out= whose elements overlap each other is refused before anything is
written.

numpy hands a ufunc loop an output that lags behind its input (same buffer,
output start at or before the input start, in the direction of iteration)
without copying, because an in-order element-by-element loop is safe then.
crtrig's block kernel must be as safe: it writes a whole block before it
re-reads the inputs of the elements its first pass left undecided (zeros,
tiny, huge, inf, NaN and about 1 in 4000 others).
"""
import ml_dtypes
import numpy as np
import pytest

import crtrig
from crtrig import _core, reference

DTYPES = {"float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16),
          "float32": np.dtype(np.float32)}
FUNCS = {"sin": crtrig.sin, "cos": crtrig.cos}
UINT = {2: np.uint16, 4: np.uint32}


def second_pass_mix(dtype, count, seed):
    """Ordinary values mixed with values that reach the second pass: +-0,
    subnormals, the largest finite values, +-inf, NaNs, and random bit patterns."""
    rng = np.random.default_rng(seed)
    info = ml_dtypes.finfo(dtype)
    special = np.array([0.0, -0.0, float(info.smallest_subnormal), -float(info.smallest_subnormal),
                        float(info.smallest_normal) / 2, float(info.max), -float(info.max),
                        np.inf, -np.inf, np.nan], dtype=np.float64)
    ordinary = rng.uniform(-10, 10, count)
    pick = rng.random(count) < 0.3
    ordinary[pick] = special[rng.integers(0, special.size, pick.sum())]
    with np.errstate(over="ignore"):
        values = ordinary.astype(np.float32).astype(dtype)
    bits = rng.integers(0, 1 << (8 * dtype.itemsize), count // 4).astype(UINT[dtype.itemsize])
    values[rng.integers(0, count, bits.size)] = bits.view(dtype)
    return values


def layouts(buf, n, shift):
    """{name: (input, output)}: views of buf, n elements each, the output lagging
    behind the input by `shift` elements ("lag": numpy passes these without a
    copy) or ahead of it (numpy copies)."""
    rev = buf[::-1]
    return {
        "lag contiguous": (buf[shift:shift + n], buf[:n]),
        "ahead contiguous": (buf[:n], buf[shift:shift + n]),
        "lag strided": (buf[2 * shift:2 * shift + 2 * n:2], buf[:2 * n:2]),
        "ahead strided": (buf[:2 * n:2], buf[2 * shift:2 * shift + 2 * n:2]),
        "lag negative": (rev[shift:shift + n], rev[:n]),
        "ahead negative": (rev[:n], rev[shift:shift + n]),
        "lag wider input stride": (buf[shift:shift + 2 * n:2], buf[:n]),
    }


def bits_of(a):
    return np.ascontiguousarray(a).view(UINT[a.dtype.itemsize])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("func", FUNCS)
def test_overlapping_input_and_output_equal_the_call_on_a_copy(func, dtype):
    """Shifts 1..300 in both directions, contiguous, strided and negative strides,
    bit for bit against the result on a copy; the rest of the buffer is untouched."""
    dt, f = DTYPES[dtype], FUNCS[func]
    n = 600  # two full blocks of 256 and a partial one
    base = second_pass_mix(dt, 2 * n + 2 * 300 + 8, seed=len(func) * 7 + dt.itemsize + (dtype == "bfloat16"))
    positions = np.arange(base.size)
    failures = []
    with np.errstate(invalid="ignore"):
        for shift in range(1, 301):
            for name, (x_pos, out_pos) in layouts(positions, n, shift).items():
                buf = base.copy()
                x, out = layouts(buf, n, shift)[name]
                want = f(x.copy())
                expected = bits_of(base).copy()
                expected[out_pos] = bits_of(want)  # out's elements, everything else unchanged
                assert f(x, out=out) is out
                got = bits_of(buf)
                if not np.array_equal(got, expected):
                    first = int(np.nonzero(got != expected)[0][0])
                    failures.append((shift, name, int(np.sum(got != expected)), first))
    assert not failures, (f"{len(failures)} (shift, layout) pairs differ from the call on a copy; "
                          f"first (shift, layout, count, position): {failures[:5]}")


def test_issue_example():
    buf = np.float32([5.0, 0.0, 1.0])
    crtrig.sin(buf[1:], out=buf[:2])
    assert buf.tolist() == [0.0, np.float32(0.84147096).item(), 1.0]
    assert bits_of(buf[:2]).tolist() == bits_of(np.float32([0.0, 0.84147096])).tolist()


@pytest.mark.parametrize("dtype", DTYPES)
def test_in_place_with_every_second_pass_value(dtype):
    x = second_pass_mix(DTYPES[dtype], 3000, seed=5)
    with np.errstate(invalid="ignore"):
        want = crtrig.cos(x.copy())
        crtrig.cos(x, out=x)
    assert np.array_equal(bits_of(x), bits_of(want))


# ---------------------------------------------------------------------------
# Windows: out= whose elements overlap each other
# ---------------------------------------------------------------------------

WINDOW_DTYPES = ["float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "uint16",
                 "int32", "uint32", "int64", "uint64"]


def self_overlapping_out(dtype, size, stride):
    """A writeable view of `size` elements `stride` bytes apart (|stride| < item
    size), inside a byte buffer filled with a pattern."""
    dt = reference.canonical_dtype(dtype)
    buf = (np.arange(size * dt.itemsize * 2 + 64) % 251 + 1).astype(np.uint8)
    start = size * dt.itemsize + 16  # room for negative strides
    out = np.lib.stride_tricks.as_strided(buf[start:start + dt.itemsize].view(dt), shape=(size,),
                                          strides=(stride,), writeable=True)
    return buf, out


def overlapping_strides(itemsize):
    """Every stride with |stride| < itemsize, the nonzero ones first."""
    return sorted({0, *range(1, itemsize), *range(-itemsize + 1, 0)}, key=lambda s: (s == 0, abs(s), s))


@pytest.mark.parametrize("dtype", WINDOW_DTYPES)
def test_window_out_overlapping_itself_is_refused_untouched(dtype):
    """The audit's case first: a symmetric float64 window's mirror copy, a memcpy
    between elements that share bytes (AddressSanitizer: memcpy-param-overlap)."""
    itemsize = reference.canonical_dtype(dtype).itemsize
    for size in (10, 2, 3, 257, 1000):
        for stride in overlapping_strides(itemsize):
            for fn in (crtrig.hann_window, crtrig.hamming_window, crtrig.blackman_window):
                for periodic in (False, True):
                    buf, out = self_overlapping_out(dtype, size, stride)
                    before = buf.copy()
                    with pytest.raises(ValueError, match="overlap each other"):
                        fn(size, periodic=periodic, out=out)
                    assert np.array_equal(buf, before), (dtype, size, stride)


@pytest.mark.parametrize("dtype", WINDOW_DTYPES)
def test_the_c_core_refuses_self_overlapping_strides_too(dtype):
    """Below the Python checks: crtrig_window_ex returns CRTRIG_EINVAL (a
    ValueError here) before writing."""
    dt = reference.canonical_dtype(dtype)
    for stride in overlapping_strides(dt.itemsize):
        for first_stage in (0, 1):
            buf, out = self_overlapping_out(dtype, 100, stride)
            before = buf.copy()
            with pytest.raises(ValueError, match="invalid window arguments"):
                _core.fill_window(0, 100, False, WINDOW_DTYPES.index(dtype), out, first_stage)
            assert np.array_equal(buf, before)


@pytest.mark.parametrize("dtype", WINDOW_DTYPES)
def test_window_size_one_with_any_stride_is_fine(dtype):
    dt = reference.canonical_dtype(dtype)
    for stride in (0, 1, -1, dt.itemsize):
        buf, out = self_overlapping_out(dtype, 1, stride)
        assert crtrig.hann_window(1, out=out) is out
        assert out.tobytes() == reference.window("hann", 1, True, dtype).tobytes()
