"""Window generators: argument checking, output allocation, and the call into C."""
import operator

import numpy as np

from . import _core
from ._dtypes import output_code, resolve_dtype, SUPPORTED_NAMES

HANN, HAMMING, BLACKMAN = 0, 1, 2  # crtrig_window_kind
GENERAL_HAMMING = 3  # CRTRIG_GENERAL_HAMMING, with alpha = (numerator, denominator)


_SIZE_KINDS = ("an integer: a Python int, a NumPy integer scalar or any object with __index__ "
               "(a torch or jax integer scalar), or a 0-d or one-element 1-D integer array")


def shown_int(value):
    """An int for a message: its digits, or its bit count when it is huge (a 10**5000
    size would print 5000 digits; beyond 4300, str() itself raises)."""
    if value.bit_length() <= 64:
        return str(value)
    return f"{'a negative' if value < 0 else 'an'} integer of {value.bit_length()} bits"


def _size_of(size, fname):
    """A non-negative Python int from the ONNX-style `size` argument: what
    operator.index accepts (as numpy's own size arguments do), or a 0-d or
    one-element 1-D integer NumPy array; never a bool."""
    if isinstance(size, np.ndarray):
        if size.dtype.kind not in "iu" or not (size.ndim == 0 or (size.ndim == 1 and size.shape[0] == 1)):
            raise TypeError(f"{fname}(): size must be {_SIZE_KINDS}; got an array of dtype "
                            f"{size.dtype} and shape {size.shape}")
        size = size.reshape(()).item()
    elif isinstance(size, (bool, np.bool_)):
        raise TypeError(f"{fname}(): size must be {_SIZE_KINDS}; got {type(size).__name__}")
    elif not isinstance(size, (int, np.integer)):
        if not hasattr(type(size), "__index__"):
            raise TypeError(f"{fname}(): size must be {_SIZE_KINDS}; got {type(size).__name__}")
        try:
            size = operator.index(size)
        except Exception as exc:  # __index__ raised, or returned something that is not an int
            raise TypeError(f"{fname}(): size must be {_SIZE_KINDS}; {type(size).__name__}.__index__ "
                            f"failed: {type(exc).__name__}: {exc}") from exc
    size = operator.index(size)
    if size < 0:
        raise ValueError(f"{fname}(): size must be non-negative; got {shown_int(size)}")
    if size > _core.WINDOW_MAX_SIZE:
        raise ValueError(f"{fname}(): size must be at most 2**53; got {shown_int(size)}")
    return size


def _periodic_flag(periodic, fname):
    if isinstance(periodic, (bool, np.bool_)):
        return bool(periodic)
    if isinstance(periodic, (int, np.integer)) and periodic in (0, 1):
        return bool(periodic)
    raise TypeError(f"{fname}(): periodic must be a bool (or the ONNX integers 0 and 1); got {periodic!r}")


def _out_array(out, size, dtype, fname):
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{fname}(): out must be a numpy.ndarray; got {type(out).__name__}")
    if out.ndim != 1 or out.shape[0] != size:
        raise ValueError(f"{fname}(): out must be 1-D of length size={size}; got shape {out.shape}")
    if output_code(out.dtype) is None:
        raise TypeError(f"{fname}(): out must have one of the dtypes {SUPPORTED_NAMES}; got {out.dtype}")
    if not out.dtype.isnative:
        raise TypeError(f"{fname}(): out must be in native byte order; got {out.dtype.str}")
    if dtype is not None and resolve_dtype(dtype) != out.dtype:
        raise TypeError(f"{fname}(): dtype={np.dtype(resolve_dtype(dtype))} disagrees with out.dtype={out.dtype}")
    if not out.flags.writeable:
        raise ValueError(f"{fname}(): out is read-only")
    if size > 1 and abs(out.strides[0]) < out.itemsize:
        # Elements sharing bytes (as_strided with a stride below the item size, or 0):
        # there is no right answer to write, and the fill is not in order.
        raise ValueError(f"{fname}(): out's elements overlap each other (stride {out.strides[0]} bytes, "
                         f"item size {out.itemsize}); pass an array whose elements are distinct")
    return out


def make_window(kind, fname, size, periodic, dtype, out, *, alpha=None, _first_stage=0, _multi_start_bits=0,
                _counts=None):
    """Shared body of the window functions (and the tests' hook into the stages).
    Kind GENERAL_HAMMING takes alpha = (numerator, denominator), checked by the caller."""
    size = _size_of(size, fname)
    periodic = _periodic_flag(periodic, fname)
    if out is not None:
        result = _out_array(out, size, dtype, fname)
        target = result
    else:
        dt = resolve_dtype(np.float32 if dtype is None else dtype)
        target = np.empty(size, dtype=dt.newbyteorder("="))
        result = target
    counts = _core.fill_window(kind, size, periodic, output_code(target.dtype), target,
                               _first_stage, _multi_start_bits, -1, alpha)
    if _counts is not None:
        _counts.update(counts)
    if out is None and not dt.isnative:
        result = target.astype(dt)  # a byte swap: exact
    return result


_DOC = """Return the {title} window of length `size`, correctly rounded (ONNX {op}-17).

    w[n] = {formula}, n = 0 .. size-1,
    with D = size if `periodic` else size - 1 ({coeffs}).

    Parameters
    ----------
    size : int
        Window length: a Python int, a NumPy integer scalar, or a 0-d or
        one-element 1-D integer array (as ONNX exporters produce).  0 gives an
        empty array; at most 2**53.
    periodic : bool, default True
        True (the ONNX and torch default) for a periodic window, as used in
        spectral analysis; False for the symmetric window that numpy and scipy
        return by default (``np.{np_name}(M)`` corresponds to ``periodic=False``,
        up to numpy's own rounding{np_note}).  A symmetric window of size 1 has
        D = 0 and is NaN, as in ONNX Runtime.
    dtype : dtype, default float32
        One of float16, bfloat16 (``ml_dtypes.bfloat16`` or ``"bfloat16"``),
        float32, float64, int8, uint8, int16, uint16, int32, uint32, int64,
        uint64, in any spelling numpy accepts.  Float outputs are the exact
        value rounded once to nearest-even into that type.  Integer outputs
        are ONNX's Cast of the correctly rounded float32 window: truncation
        toward zero, with NaN giving 0.
    out : ndarray, optional
        A writeable 1-D array of length `size` and a supported native-order
        dtype (any stride) to fill and return; its dtype is the output type.

    Returns
    -------
    ndarray
        The window, a new array or `out`.

    Raises
    ------
    TypeError
        `size` is not an integer (a bool, float, str, None, a list, an array
        of other than one integer), `periodic` is not a bool or 0/1, `dtype`
        is not one of the 12 types, or `out` is not a writeable 1-D array of
        a supported native-order dtype, or disagrees with `dtype`.
    ValueError
        `size` is negative or above 2**53, or `out` has another length, is
        read-only, or has elements that overlap each other.
    MemoryError
        The output or the C core's workspace cannot be allocated.  Every error
        is raised before anything is written to `out`.

    See Also
    --------
    crtrig.windows.{scipy_name} : scipy's interface (symmetric, float64 by default).

    Examples
    --------
{examples}
    """


def _window_function(kind, name, title, op, formula, coeffs, np_name, np_note="", examples=""):
    def window(size, periodic=True, dtype=None, out=None):
        return make_window(kind, name, size, periodic, dtype, out)
    window.__name__ = window.__qualname__ = name
    window.__doc__ = _DOC.format(title=title, op=op, formula=formula, coeffs=coeffs,
                                 np_name=np_name, np_note=np_note, examples=examples,
                                 scipy_name=name[:-len("_window")])
    return window


hann_window = _window_function(
    HANN, "hann_window", "Hann", "HannWindow",
    "1/2 - 1/2 cos(2 pi n / D)", "coefficients 1/2, 1/2", "hanning", examples="""\
    >>> import numpy as np, crtrig
    >>> print(crtrig.hann_window(8))
    [0.         0.14644662 0.5        0.8535534  1.         0.8535534
     0.5        0.14644662]
    >>> print(crtrig.hann_window(5, periodic=False, dtype=np.float64))
    [0.  0.5 1.  0.5 0. ]
    >>> buf = np.empty(4, np.float16)
    >>> crtrig.hann_window(4, out=buf) is buf
    True
    >>> print(buf)
    [0.  0.5 1.  0.5]
    >>> crtrig.hann_window(-1)
    Traceback (most recent call last):
    ValueError: hann_window(): size must be non-negative; got -1""")
hamming_window = _window_function(
    HAMMING, "hamming_window", "Hamming", "HammingWindow",
    "25/46 - 21/46 cos(2 pi n / D)",
    "ONNX's coefficients 25/46, 21/46, not the 0.54, 0.46 of numpy, scipy and torch; "
    "crtrig.windows.hamming is the 0.54/0.46 window, with 27/50 and 23/50 exactly",
    "hamming", "; numpy uses 0.54/0.46, so its values differ by up to 0.007 (at the ends)",
    examples="""\
    >>> import numpy as np, crtrig
    >>> print(crtrig.hamming_window(4))
    [0.08695652 0.54347825 1.         0.54347825]
    >>> print(crtrig.hamming_window(1))
    [0.08695652]
    >>> print(crtrig.hamming_window(8, dtype=np.uint8))
    [0 0 0 0 1 0 0 0]""")
blackman_window = _window_function(
    BLACKMAN, "blackman_window", "Blackman", "BlackmanWindow",
    "21/50 - 1/2 cos(2 pi n / D) + 2/25 cos(4 pi n / D)",
    "coefficients 0.42, 0.5, 0.08 as exact fractions", "blackman", examples="""\
    >>> import numpy as np, crtrig
    >>> print(crtrig.blackman_window(4, dtype=np.float64))
    [0.   0.34 1.   0.34]
    >>> print(crtrig.blackman_window(6, periodic=False))
    [0.         0.20077014 0.8492299  0.8492299  0.20077014 0.        ]""")
