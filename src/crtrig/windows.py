"""scipy.signal.windows' interface, with correctly rounded values.

Change ``from scipy.signal import windows`` into ``from crtrig import windows``
(or ``scipy.signal.get_window`` into ``crtrig.windows.get_window``) and the
windows crtrig computes exactly come out with scipy's signatures and defaults
(symmetric, float64), each value the exact real number rounded once to
nearest-even into the output type:

    hann(M, sym=True, *, dtype=np.float64, out=None)
    hamming(M, sym=True, *, dtype=np.float64, out=None)
    blackman(M, sym=True, *, dtype=np.float64, out=None)
    general_hamming(M, alpha, sym=True, *, dtype=np.float64, out=None)
    get_window(window, Nx, fftbins=True, *, dtype=np.float64)

The coefficients are exact decimals, as written in scipy: Hann 1/2, 1/2;
Hamming 0.54, 0.46 = 27/50, 23/50 (not ONNX's 25/46, 21/46 of
``crtrig.hamming_window``); Blackman 0.42, 0.5, 0.08 = 21/50, 1/2, 2/25.

Where crtrig's ONNX-style functions differ: ``sym=True`` (the default) is
``periodic=False`` there; a window of length 1 is ``[1.]`` here in both modes,
as scipy gives it (w is then defined by scipy's convention, not by the formula,
which is 0/0 for a symmetric window and 2 alpha - 1 for a periodic one);
scipy computes the values in float64 with a few ulps of error, crtrig exactly.
"""
# Helpers under private names, so that the namespace (and dir()) holds only the
# public API: the windows and get_window (__all__), as scipy.signal.windows does.
import decimal as _decimal
import numbers as _numbers
import operator as _operator
from fractions import Fraction as _Fraction

import numpy as _np

from . import _rational, _windows
from ._dtypes import SUPPORTED_NAMES as _SUPPORTED_NAMES, output_code as _output_code, \
    resolve_dtype as _resolve_dtype

__all__ = ["hann", "hamming", "blackman", "general_hamming", "get_window"]

#: alpha's numerator and denominator are at most this (they fit in 64 bits).
#: A module attribute, as before, but not listed by dir() (see __dir__).
ALPHA_LIMIT = 2**64 - 1


def __dir__():
    """The public API (__all__: the windows and get_window) and the module's
    dunder attributes; the helpers and ALPHA_LIMIT stay out of dir() and tab
    completion, as in scipy.signal.windows."""
    return sorted(set(__all__) | {name for name in globals() if name.startswith("__") and name.endswith("__")})

_M_KINDS = "an integer (a Python int, a NumPy integer or any object with __index__)"


def _length(M, fname, argname="M"):
    """The window length as a Python int: 0 <= M <= 2**53."""
    if isinstance(M, (bool, _np.bool_)) or not hasattr(type(M), "__index__"):
        raise TypeError(f"{fname}(): {argname} must be {_M_KINDS}; got {type(M).__name__}")
    try:
        M = _operator.index(M)
    except Exception as exc:
        raise TypeError(f"{fname}(): {argname} must be {_M_KINDS}; {type(M).__name__}.__index__ failed: "
                        f"{type(exc).__name__}: {exc}") from exc
    if M < 0:
        raise ValueError(f"{fname}(): {argname} must be a non-negative integer; got {_windows.shown_int(M)}")
    if M > _windows._core.WINDOW_MAX_SIZE:
        raise ValueError(f"{fname}(): {argname} must be at most 2**53; got {_windows.shown_int(M)}")
    return M


def _flag(value, fname, argname):
    if isinstance(value, (bool, _np.bool_)):
        return bool(value)
    if isinstance(value, (int, _np.integer)) and value in (0, 1):
        return bool(value)
    raise TypeError(f"{fname}(): {argname} must be a bool; got {value!r}")


#: Decimal places (after removing trailing zeros) beyond which a decimal alpha in
#: (0, 1) has a denominator of at least 2**65 (a power of ten over a power of 2 or 5).
_ALPHA_MAX_PLACES = 64
#: Digits beyond which a written N/D is refused unread (the check then needs no gcd).
_ALPHA_MAX_RATIO_DIGITS = 1000
_ALPHA_KINDS = "a fractions.Fraction, an int, a decimal string or a float"


def _shown_alpha(alpha, value=None):
    """alpha for a message: the exact fraction when it is short, else an excerpt
    of what was passed (never a 10**9-digit number)."""
    if value is not None and max(value.numerator.bit_length(), value.denominator.bit_length()) <= 256:
        return str(value)
    if isinstance(alpha, (int, _np.integer)):
        return _windows.shown_int(int(alpha))
    if isinstance(alpha, _numbers.Rational):
        numerator, denominator = int(alpha.numerator), int(alpha.denominator)
        return (f"a fraction of a {numerator.bit_length()}-bit numerator and a "
                f"{denominator.bit_length()}-bit denominator")
    text = repr(alpha)
    return text if len(text) <= 40 else f"{text[:40]}... ({len(text)} characters)"


def _out_of_range(fname, alpha, value=None):
    return ValueError(f"{fname}(): alpha must lie in [0, 1]; got {_shown_alpha(alpha, value)}")


def _too_fine(fname, alpha, value=None):
    return ValueError(f"{fname}(): alpha = {_shown_alpha(alpha, value)} is too large a fraction: its "
                      "numerator and denominator must be below 2**64")


def _alpha_from_parts(parts, alpha, fname):
    """An exact alpha from the text of a decimal or N/D (crtrig._rational.Parts),
    with the range and the size checked before any power of ten is computed."""
    if parts is None:
        raise ValueError(f"{fname}(): alpha {_shown_alpha(alpha)} is not a finite rational number (write a "
                         "decimal such as '0.54' or a fraction such as '27/50')")
    if parts.is_ratio:
        if parts.denominator == "":
            raise ValueError(f"{fname}(): alpha {_shown_alpha(alpha)} is not a finite rational number "
                             "(a zero denominator)")
        if parts.is_zero:
            return _Fraction(0)
        if parts.negative or len(parts.numerator) > len(parts.denominator):  # below 0, or above 1
            raise _out_of_range(fname, alpha)
        if max(len(parts.numerator), len(parts.denominator)) > _ALPHA_MAX_RATIO_DIGITS:
            raise _too_fine(fname, alpha)
        return parts.fraction()
    if parts.is_zero:
        return _Fraction(0)
    if parts.negative or parts.leading_exponent > 0:  # below 0, or at least 10
        raise _out_of_range(fname, alpha)
    if parts.exponent < -_ALPHA_MAX_PLACES:  # in (0, 1): the denominator is >= 2**65
        raise _too_fine(fname, alpha)
    return parts.fraction()  # at most 65 digits over at most 10**64


def _alpha_fraction(alpha, fname="general_hamming"):
    """alpha as an exact Fraction: a Fraction, an int, a decimal string, a Decimal, or a
    float read as the shortest decimal that round-trips in its own type (0.54 is 27/50).
    Exponents and sizes are checked before anything is computed, so that any
    input is refused (or accepted) at once."""
    if isinstance(alpha, (bool, _np.bool_)):
        raise TypeError(f"{fname}(): alpha must be {_ALPHA_KINDS}; got {type(alpha).__name__}")
    if isinstance(alpha, (float, _np.floating)):
        if not _np.isfinite(alpha):
            raise ValueError(f"{fname}(): alpha must be finite; got {alpha!r}")
        # The shortest decimal that reads back as the same value of its type
        # (repr of a Python float; numpy's Dragon4 for np.float16/32/64 and
        # longdouble, in scientific form: short whatever the exponent).
        text = repr(alpha) if type(alpha) is float else _np.format_float_scientific(alpha, unique=True,
                                                                                    trim="-")
        value = _alpha_from_parts(_rational.split(text), alpha, fname)
    elif isinstance(alpha, str):
        value = _alpha_from_parts(_rational.split(alpha), alpha, fname)
    elif isinstance(alpha, _decimal.Decimal):
        value = _alpha_from_parts(_rational.split_decimal(alpha), alpha, fname)
    elif isinstance(alpha, (int, _np.integer, _numbers.Rational)):
        if isinstance(alpha, (int, _np.integer)):
            numerator, denominator = int(alpha), 1
        else:
            numerator, denominator = int(alpha.numerator), int(alpha.denominator)
        if denominator < 0:
            numerator, denominator = -numerator, -denominator
        if denominator == 0:
            raise ValueError(f"{fname}(): alpha {_shown_alpha(alpha)} is not a finite rational number")
        if max(numerator.bit_length(), denominator.bit_length()) > 256:
            # Decided without reducing (a gcd of huge numbers): in lowest terms,
            # as numbers.Rational promises, it is out of range or too fine.
            if not 0 <= numerator <= denominator:
                raise _out_of_range(fname, alpha)
            raise _too_fine(fname, alpha)
        value = _Fraction(numerator, denominator)
    else:
        raise TypeError(f"{fname}(): alpha must be {_ALPHA_KINDS}; got {type(alpha).__name__}")
    if not 0 <= value <= 1:
        raise _out_of_range(fname, alpha, value)
    if value.numerator > ALPHA_LIMIT or value.denominator > ALPHA_LIMIT:
        raise _too_fine(fname, alpha, value)
    return value


def _output(M, sym, dtype, out, fname):
    """Checked (M, periodic, dtype-or-None, out): errors before anything is written."""
    M = _length(M, fname)
    periodic = not _flag(sym, fname, "sym")
    if out is not None:
        # out decides the type; an explicit dtype must agree (the default float64 gives way).
        out = _windows._out_array(out, M, None if dtype is _np.float64 else dtype, fname)
        dt = None
    else:
        dt = _resolve_dtype(dtype)
    return M, periodic, dt, out


def _window(kind, fname, M, sym, dtype, out, alpha=None):
    M, periodic, dt, out = _output(M, sym, dtype, out, fname)
    if M == 1:  # scipy's [1.] (the formula gives 0/0 or 2 alpha - 1 there)
        if out is None:
            return _np.ones(1, dtype=dt)
        out[0] = 1
        return out
    return _windows.make_window(kind, fname, M, periodic, dt, out, alpha=alpha)


_DOC = """Return the {title} window of length `M`, correctly rounded; scipy.signal.windows.{name}'s
    interface.

    w[n] = {formula}, n = 0 .. M-1, D = M - 1 if `sym` else M,
    each value the exact real number rounded once to nearest-even into `dtype`.{extra}

    Parameters
    ----------
    M : int
        Number of points: a non-negative integer (a Python int, a NumPy integer, or
        any object with ``__index__``), at most 2**53.  0 gives an empty array;
        1 gives ``[1.]`` (in both modes, as in scipy).
    sym : bool, default True
        True: the symmetric window (filter design), as scipy's default.  False:
        the periodic window (spectral analysis, ``crtrig.{onnx}(M)``'s default).
    dtype : dtype, default float64
        float64 (scipy's type), float32, float16, bfloat16 or an integer type
        ({supported}); integer outputs truncate the correctly rounded float32 value
        toward zero (ONNX's Cast).
    out : ndarray, optional
        A writeable 1-D array of length M and a supported dtype to fill and return;
        its dtype is then the output type (an explicit `dtype` must agree with it).

    Returns
    -------
    ndarray
        The window; crtrig and scipy agree within scipy's own rounding (a few
        float64 ulps).

    Raises
    ------
    TypeError
        `M` is not an integer (a float, a bool, a str), `sym` is not a bool,
        `dtype` is not a supported type, or `out` is not a writeable 1-D array
        of a supported dtype, or disagrees with `dtype` (scipy raises ValueError
        for some of these).
    ValueError
        `M` is negative or above 2**53, or `out` has another length, is
        read-only, or has elements that overlap each other.
    MemoryError
        The output or the C core's workspace cannot be allocated.  Every error
        is raised before anything is written to `out`.

    See Also
    --------
    crtrig.{onnx} : the ONNX-style window (periodic, float32 by default{onnx_note}).

    Examples
    --------
{examples}
    """


def hann(M, sym=True, *, dtype=_np.float64, out=None):
    return _window(_windows.HANN, "hann", M, sym, dtype, out)


def hamming(M, sym=True, *, dtype=_np.float64, out=None):
    return _window(_windows.GENERAL_HAMMING, "hamming", M, sym, dtype, out, alpha=(27, 50))


def blackman(M, sym=True, *, dtype=_np.float64, out=None):
    return _window(_windows.BLACKMAN, "blackman", M, sym, dtype, out)


hann.__doc__ = _DOC.format(title="Hann", name="hann", formula="1/2 - 1/2 cos(2 pi n / D)", extra="",
                           onnx="hann_window", supported=_SUPPORTED_NAMES, onnx_note="", examples="""\
    >>> import numpy as np
    >>> from crtrig import windows
    >>> print(windows.hann(5))
    [0.  0.5 1.  0.5 0. ]
    >>> print(windows.hann(4, sym=False, dtype=np.float32))
    [0.  0.5 1.  0.5]
    >>> print(windows.hann(1))
    [1.]
    >>> windows.hann(2.5)
    Traceback (most recent call last):
    TypeError: hann(): M must be an integer (a Python int, a NumPy integer or any object with __index__); got float""")
hamming.__doc__ = _DOC.format(
    title="Hamming", name="hamming", formula="0.54 - 0.46 cos(2 pi n / D)",
    extra="\n\n    0.54 and 0.46 are the exact decimals 27/50 and 23/50 (with s = sin^2(pi n/D),\n"
          "    w = (2 + 23 s)/25), as numpy, scipy and torch write them.  crtrig.hamming_window\n"
          "    (ONNX HammingWindow) uses ONNX's 25/46 and 21/46 instead.  This is\n"
          "    general_hamming(M, 0.54) at the speed of the other windows.",
    onnx="hamming_window", supported=_SUPPORTED_NAMES, onnx_note="; ONNX's 25/46, 21/46", examples="""\
    >>> from crtrig import windows
    >>> print(windows.hamming(5))
    [0.08 0.54 1.   0.54 0.08]
    >>> print(windows.hamming(4, sym=False))
    [0.08 0.54 1.   0.54]""")
blackman.__doc__ = _DOC.format(
    title="Blackman", name="blackman", formula="0.42 - 0.5 cos(2 pi n / D) + 0.08 cos(4 pi n / D)",
    extra="\n\n    0.42, 0.5, 0.08 are the exact fractions 21/50, 1/2, 2/25 (ONNX's too).",
    onnx="blackman_window", supported=_SUPPORTED_NAMES, onnx_note="", examples="""\
    >>> from crtrig import windows
    >>> print(windows.blackman(5))
    [0.   0.34 1.   0.34 0.  ]""")


def general_hamming(M, alpha, sym=True, *, dtype=_np.float64, out=None):
    """Return the generalized Hamming window of length `M`, correctly rounded;
    scipy.signal.windows.general_hamming's interface.

    w[n] = alpha - (1 - alpha) cos(2 pi n / D), n = 0 .. M-1, D = M - 1 if `sym` else M,
    each value the exact real number rounded once to nearest-even into `dtype`.
    alpha = 1/2 is the Hann window (same bits as `hann`), 0.54 the classic Hamming
    window (same bits as `hamming`), Fraction(25, 46) ONNX's (same bits as
    ``crtrig.hamming_window(M, periodic=not sym, dtype=...)``).

    Parameters
    ----------
    M : int
        As in `hann` (1 gives ``[1.]``).
    alpha : Fraction, int, decimal string or float
        The window parameter, taken as an exact rational in [0, 1] (ValueError
        outside), whose numerator and denominator are below 2**64:
        a ``fractions.Fraction`` (recommended: exact as given), an int, a decimal
        string such as ``"0.54"`` (or ``"27/50"``), a ``decimal.Decimal``, or a
        Python or NumPy float, read as the shortest decimal that reads back as the
        same float: 0.54 means 27/50, as you wrote it, not the binary double
        0.540000000000000035527....  So a float cannot carry 25/46: ``25/46`` is
        the double printed 0.5434782608695652, which means 5434782608695652/10**16;
        pass ``Fraction(25, 46)``.  A bool is a TypeError.
    sym, dtype, out
        As in `hann`.  For alpha < 1/2 the window is negative near its ends
        (w[0] = 2 alpha - 1); a negative value that rounds to zero gives -0.0, and
        integer outputs truncate toward zero (-1 only at alpha = 0, which wraps to
        the maximum of an unsigned type, as numpy's ``astype`` does).

    Returns
    -------
    ndarray
        The window, a new array or `out`.

    Raises
    ------
    TypeError
        `alpha` is a bool or not a number of the kinds above, or `M`, `sym`,
        `dtype` or `out` is wrong as in `hann`.
    ValueError
        `alpha` is outside [0, 1] or its numerator or denominator is not below
        2**64, or `M` or `out` is wrong as in `hann`.  Every error is raised
        before anything is written to `out`.

    Examples
    --------
    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from crtrig import windows
    >>> print(windows.general_hamming(5, 0.54))
    [0.08 0.54 1.   0.54 0.08]
    >>> np.array_equal(windows.general_hamming(64, "27/50"), windows.hamming(64))
    True
    >>> print(windows.general_hamming(4, Fraction(25, 46), sym=False))
    [0.08695652 0.54347826 1.         0.54347826]
    >>> windows.general_hamming(4, 1.5)
    Traceback (most recent call last):
    ValueError: general_hamming(): alpha must lie in [0, 1]; got 3/2
    """
    value = _alpha_fraction(alpha)
    return _window(_windows.GENERAL_HAMMING, "general_hamming", M, sym, dtype, out,
                   alpha=(value.numerator, value.denominator))


# scipy.signal.get_window's names for these windows (and "hanning").
_NAMES = {
    "hann": (hann, 0), "han": (hann, 0), "hanning": (hann, 0),
    "hamming": (hamming, 0), "hamm": (hamming, 0), "ham": (hamming, 0),
    "blackman": (blackman, 0), "black": (blackman, 0), "blk": (blackman, 0),
    "general_hamming": (general_hamming, 1), "general hamming": (general_hamming, 1),
}
_SUPPORTED = ("'hann' ('han', 'hanning'), 'hamming' ('hamm', 'ham'), 'blackman' ('black', 'blk') as a "
              "string or a 1-tuple, and ('general_hamming', alpha); any name may end in '_periodic' or "
              "'_symmetric'")


def get_window(window, Nx, fftbins=True, *, dtype=_np.float64):
    """Return a window of length `Nx` by name; scipy.signal.get_window's interface
    for the windows crtrig computes exactly (correctly rounded values).

    Parameters
    ----------
    window : str or tuple
        "hann" (or "han", "hanning"), "hamming" ("hamm", "ham"), "blackman" ("black",
        "blk"), as a string or a 1-tuple, or ``("general_hamming", alpha)`` (alpha as
        in `general_hamming`).  A name may end in "_periodic" or "_symmetric", which
        overrides `fftbins`, as in scipy.  Any other name, a tuple with the wrong
        number of parameters, or a float (scipy's Kaiser beta) is a ValueError that
        lists what is supported.
    Nx : int
        The number of points, a positive integer (scipy refuses 0 too).
    fftbins : bool, default True
        True: the periodic window (scipy's default here, for FFTs), False: symmetric.
    dtype : dtype, default float64
        As in `hann`.

    Returns
    -------
    ndarray
        The window.

    Raises
    ------
    ValueError
        An unsupported name, a tuple with the wrong number of parameters, or
        `Nx` of 0; and what `general_hamming` raises for a bad alpha.
    TypeError
        `fftbins` is not a bool, or `Nx` or `dtype` is wrong as in `hann`.

    Examples
    --------
    >>> from crtrig import windows
    >>> print(windows.get_window("hann", 4))
    [0.  0.5 1.  0.5]
    >>> print(windows.get_window(("general_hamming", 0.3), 4))
    [-0.4  0.3  1.   0.3]
    >>> print(windows.get_window("hann_symmetric", 5))
    [0.  0.5 1.  0.5 0. ]
    >>> windows.get_window("kaiser", 8)
    Traceback (most recent call last):
    ValueError: get_window(): unknown window 'kaiser'.  Supported: ...
    """
    if not isinstance(fftbins, (bool, _np.bool_)):
        raise TypeError(f"get_window(): fftbins must be a bool; got {fftbins!r}")
    sym = not fftbins
    if isinstance(window, str):
        name, args = window, ()
    elif isinstance(window, tuple) and window and isinstance(window[0], str):
        name, args = window[0], window[1:]
    else:
        raise ValueError(f"get_window(): window must be a name or a tuple (name, parameters...); got "
                         f"{window!r}.  Supported: {_SUPPORTED}")
    base = name
    if name.endswith("_symmetric"):
        sym, base = True, name[: -len("_symmetric")]
    elif name.endswith("_periodic"):
        sym, base = False, name[: -len("_periodic")]
    if base not in _NAMES:
        raise ValueError(f"get_window(): unknown window {name!r}.  Supported: {_SUPPORTED}")
    function, nargs = _NAMES[base]
    if len(args) != nargs:
        raise ValueError(f"get_window(): {base!r} takes {nargs} parameter{'s' if nargs != 1 else ''}; got "
                         f"{window!r}.  Supported: {_SUPPORTED}")
    Nx = _length(Nx, "get_window", "Nx")
    if Nx == 0:
        raise ValueError("get_window(): Nx must be a positive integer; got 0")
    return function(Nx, *args, sym=sym, dtype=dtype)
