"""The window functions' Python interface: arguments, dtypes, out=, and errors."""
import time

import ml_dtypes
import numpy as np
import pytest

import crtrig
from crtrig import reference

FUNCTIONS = [("hann", crtrig.hann_window), ("hamming", crtrig.hamming_window),
             ("blackman", crtrig.blackman_window)]


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("kind,fn", FUNCTIONS)
def test_defaults_are_periodic_float32(kind, fn):
    w = fn(10)
    assert w.dtype == np.float32 and w.shape == (10,)
    assert same_bits(w, reference.window(kind, 10, True, "float32"))


@pytest.mark.parametrize("size", [7, np.int32(7), np.int64(7), np.uint8(7), np.array(7, dtype=np.int32),
                                  np.array([7], dtype=np.int64), np.array([7], dtype=np.uint16)])
def test_size_spellings(size):
    assert same_bits(crtrig.hann_window(size), reference.window("hann", 7, True, "float32"))


@pytest.mark.parametrize("size", [7.0, np.float32(7), "7", None, True, np.bool_(True),
                                  np.array([7, 8]), np.array([[7]]), np.array(7.0), np.array([True]),
                                  [7], 7 + 0j])
def test_size_of_wrong_type_is_a_type_error(size):
    with pytest.raises(TypeError, match="size must be an integer"):
        crtrig.hann_window(size)


class IndexLike:
    """An integer scalar of another array library (torch, jax): not an int,
    not a NumPy type, but it has __index__, which numpy's own sizes accept."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        if isinstance(self.value, BaseException):
            raise self.value
        return self.value


@pytest.mark.parametrize("kind,fn", FUNCTIONS)
@pytest.mark.parametrize("value", [0, 1, 7, 64])
def test_size_accepts_any_object_with_index(kind, fn, value):
    assert np.zeros(IndexLike(value)).shape == (value,)  # numpy accepts it too
    assert same_bits(fn(IndexLike(value), periodic=False, dtype=np.float64),
                     reference.window(kind, value, False, "float64"))


@pytest.mark.parametrize("value,error", [
    (2.5, "__index__ returned non-int"),                  # returns a float
    ("7", "__index__ returned non-int"),                  # returns a str
    (None, "__index__ returned non-int"),
    (RuntimeError("no integer here"), "RuntimeError: no integer here"),
    (ValueError("only one element tensors"), "ValueError: only one element tensors"),
])
def test_size_whose_index_fails_is_a_clean_type_error(value, error):
    with pytest.raises(TypeError, match="size must be an integer.*IndexLike.__index__ failed: .*" + error):
        crtrig.blackman_window(IndexLike(value))


def test_size_through_index_is_still_checked():
    with pytest.raises(ValueError, match="non-negative"):
        crtrig.hann_window(IndexLike(-3))
    with pytest.raises(ValueError, match="at most 2\\*\\*53"):
        crtrig.hann_window(IndexLike(2 ** 53 + 1))


@pytest.mark.parametrize("size", [-1, np.int64(-5), np.array([-2])])
def test_negative_size_is_a_value_error(size):
    with pytest.raises(ValueError, match="non-negative"):
        crtrig.hamming_window(size)


def test_too_large_sizes_fail_fast():
    start = time.monotonic()
    with pytest.raises(ValueError, match="at most 2\\*\\*53"):
        crtrig.hann_window(2 ** 53 + 1)
    with pytest.raises(ValueError, match="at most 2\\*\\*53"):
        crtrig.hann_window(2 ** 70)
    with pytest.raises(MemoryError):
        crtrig.hann_window(2 ** 53, dtype=np.float64)  # 64 PiB
    assert time.monotonic() - start < 60  # generous: only guards against a hang


@pytest.mark.parametrize("call, fragment", [
    (lambda size: crtrig.hann_window(size), "size must be at most 2\\*\\*53"),
    (lambda size: crtrig.blackman_window(-size), "size must be non-negative"),
    (lambda size: crtrig.windows.hann(size), "M must be at most 2\\*\\*53"),
    (lambda size: crtrig.windows.general_hamming(-size, 0.5), "M must be a non-negative integer"),
    (lambda size: crtrig.windows.get_window("hann", size), "Nx must be at most 2\\*\\*53"),
    (lambda size: crtrig.reference.window("hann", -size), "size must be non-negative"),
])
@pytest.mark.parametrize("digits", [4000, 5000])
def test_a_huge_size_gets_the_usual_message_in_a_short_line(call, fragment, digits):
    """10**5000 made the message itself fail (int -> str is limited to 4300 digits: a ValueError
    about that instead of the size), 10**4000 printed 4000 digits; the size is now shown by its
    bit count."""
    with pytest.raises(ValueError, match=fragment) as info:
        call(10 ** digits)
    assert len(str(info.value)) < 200 and "bits" in str(info.value), str(info.value)[:300]


@pytest.mark.parametrize("dtype,expected", [
    (np.float16, "float16"), ("f2", "float16"), ("half", "float16"),
    (ml_dtypes.bfloat16, "bfloat16"), ("bfloat16", "bfloat16"), (np.dtype(ml_dtypes.bfloat16), "bfloat16"),
    (np.float32, "float32"), ("f4", "float32"), ("single", "float32"),
    (np.float64, "float64"), ("d", "float64"), (float, "float64"), ("<f8", "float64"),
    (np.intc, "int32"), ("i4", "int32"), (np.longlong, "int64"), (int, "int64"), (np.int8, "int8"),
    (np.ubyte, "uint8"), ("u2", "uint16"), (np.uintc, "uint32"), (np.ulonglong, "uint64"),
    (np.short, "int16"),
])
def test_dtype_spellings(dtype, expected):
    w = crtrig.blackman_window(33, periodic=False, dtype=dtype)
    assert same_bits(w, reference.window("blackman", 33, False, expected))


def test_non_native_dtype_gives_that_dtype():
    w = crtrig.hann_window(9, dtype=">f4")
    assert w.dtype == np.dtype(">f4")
    assert np.array_equal(w.astype(np.float32), reference.window("hann", 9, True, "float32"))


@pytest.mark.parametrize("dtype", [np.complex64, complex, bool, np.bool_, str, "U3", object, "S2",
                                   np.longdouble, "m8", "M8[s]", "float128", "no-such-type", 3.5,
                                   np.dtype([("a", "f4")])])
def test_unsupported_dtype_is_a_type_error_naming_the_supported_ones(dtype):
    if dtype in (np.longdouble, "float128") and np.dtype(np.longdouble).itemsize == 8:
        pytest.skip("long double is float64 on this platform")
    with pytest.raises(TypeError, match="float16, bfloat16, float32, float64, int8"):
        crtrig.hann_window(4, dtype=dtype)


@pytest.mark.parametrize("periodic", [None, 2, -1, "yes", 1.0])
def test_bad_periodic(periodic):
    with pytest.raises(TypeError, match="periodic must be a bool"):
        crtrig.hann_window(4, periodic=periodic)


@pytest.mark.parametrize("periodic,expected", [(1, True), (0, False), (np.int64(0), False), (np.bool_(True), True)])
def test_onnx_integer_periodic(periodic, expected):
    assert same_bits(crtrig.hann_window(6, periodic=periodic), reference.window("hann", 6, expected))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "int8", "uint64"])
def test_out_is_filled_and_returned(dtype):
    out = np.full(17, 7, dtype=reference.canonical_dtype(dtype))
    result = crtrig.hamming_window(17, out=out)
    assert result is out
    assert same_bits(out, reference.window("hamming", 17, True, dtype))


def test_out_with_strides():
    base = np.full(40, -1.0)
    view = base[1::2]
    crtrig.hann_window(20, periodic=False, out=view)
    assert same_bits(view.copy(), reference.window("hann", 20, False, "float64"))
    assert np.all(base[0::2] == -1.0)  # untouched
    backwards = np.zeros(20, dtype=np.float32)[::-1]
    crtrig.blackman_window(20, out=backwards)
    assert same_bits(backwards.copy(), reference.window("blackman", 20, True, "float32"))


def test_out_with_matching_dtype_argument():
    out = np.zeros(5, dtype=np.int16)
    assert crtrig.hann_window(5, dtype="i2", out=out) is out


@pytest.mark.parametrize("make_out,error,match", [
    (lambda: np.zeros(5, dtype=np.float32), TypeError, "disagrees"),            # dtype=float64 given
    (lambda: np.zeros(4, dtype=np.float64), ValueError, "length"),
    (lambda: np.zeros((5, 1), dtype=np.float64), ValueError, "1-D"),
    (lambda: np.zeros(5, dtype=np.complex128), TypeError, "float16, bfloat16"),
    (lambda: np.zeros(5, dtype=">f8"), TypeError, "native byte order"),
    (lambda: [0.0] * 5, TypeError, "numpy.ndarray"),
    (lambda: np.broadcast_to(np.zeros(1), (5,)), ValueError, "read-only"),
])
def test_bad_out_raises_and_writes_nothing(make_out, error, match):
    out = make_out()
    before = np.array(out, copy=True)
    with pytest.raises(error, match=match):
        crtrig.hann_window(5, dtype=np.float64, out=out)
    assert np.array_equal(np.asarray(out), before)


def test_size_zero_and_symmetric_size_one():
    first = {"hann": 0.0, "hamming": np.float32(2 / 23), "blackman": 0.0}
    for kind, fn in FUNCTIONS:
        assert fn(0).shape == (0,) and fn(0, dtype="bfloat16").dtype == np.dtype(ml_dtypes.bfloat16)
        assert np.isnan(fn(1, periodic=False))[0]
        assert fn(1, periodic=False, dtype=np.uint8)[0] == 0
        assert fn(1)[0] == first[kind]


def test_docstrings_state_the_periodic_default_and_onnx_coefficients():
    assert "ONNX and torch default" in crtrig.hann_window.__doc__
    assert "25/46" in crtrig.hamming_window.__doc__
    assert crtrig.blackman_window.__name__ == "blackman_window"
