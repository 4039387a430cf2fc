"""scipy.signal.windows' interface, with correctly rounded values.

Change ``from scipy.signal import windows`` into ``from crtrig import windows``
(or ``scipy.signal.get_window`` into ``crtrig.windows.get_window``): the module
has scipy 1.17's 25 window functions and get_window, with scipy's signatures and
defaults (symmetric, float64) and its xp=/device= keywords (numpy, "cpu").  These
are computed, each value the exact real number rounded once to nearest-even into
the output type:

    hann(M, sym=True, *, xp=None, device=None, dtype=np.float64, out=None)
    hamming, blackman, boxcar, triang, bartlett, parzen: the same
    general_hamming(M, alpha, sym=True, *, xp=None, device=None, dtype=np.float64, out=None)
    general_cosine(M, a, sym=True, *, dtype=np.float64, out=None)
    nuttall, blackmanharris, flattop, cosine, barthann, bohman: as hann
    lanczos(M, *, sym=True, xp=None, device=None, dtype=np.float64, out=None)
    tukey(M, alpha=0.5, sym=True, *, xp=None, device=None, dtype=np.float64, out=None)
    gaussian(M, std, ...), general_gaussian(M, p, sig, ...) (0 <= 2p <= 1024),
    exponential(M, center=None, tau=1., ...): exp of an exact rational (general_gaussian
    with a non-integer 2p: exp of a real power, C log and exp, exact fallback)
    taylor(M, nbar=4, sll=30, norm=True, sym=True, ...): 1 <= nbar <= 400, 0 <= sll <= 6000
    get_window(window, Nx, fftbins=True, *, xp=None, device=None, dtype=np.float64)

The others check their arguments and raise NotImplementedError naming scipy's
function (chebwin and dpss permanently: not affordable exactly).

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
import functools as _functools
import math as _math
import numbers as _numbers
import operator as _operator
from fractions import Fraction as _Fraction

import numpy as _np

from . import _cosine_windows, _exp_windows, _kaiser_window, _kbd_window, _rational, _rational_windows, \
    _sinc_windows, _taylor_window, _windows
from ._dtypes import SUPPORTED_NAMES as _SUPPORTED_NAMES, output_code as _output_code, \
    resolve_dtype as _resolve_dtype

#: Every name of scipy.signal.windows.__all__ (scipy 1.17): the windows computed
#: exactly, those not done yet and the two refused (chebwin, dpss), each of which
#: raises NotImplementedError saying so, and get_window.
__all__ = ["boxcar", "triang", "parzen", "bohman", "blackman", "nuttall", "blackmanharris", "flattop",
           "bartlett", "barthann", "hamming", "kaiser", "kaiser_bessel_derived", "gaussian",
           "general_cosine", "general_gaussian", "general_hamming", "chebwin", "cosine", "hann",
           "exponential", "tukey", "taylor", "dpss", "get_window", "lanczos"]

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
    if isinstance(M, (float, _np.floating, str)):
        # scipy raises ValueError for these ("Window length M must be a non-negative
        # integer"; get_window: "Parameter Nx=... is not a positive integer").
        shown = repr(M) if len(repr(M)) <= 40 else f"{repr(M)[:40]}..."
        prefix = f"Parameter Nx={shown} is not a positive integer: " if argname == "Nx" else ""
        raise ValueError(f"{prefix}{fname}(): {argname} must be {_M_KINDS}; got {type(M).__name__} {shown}")
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


def _namespace(xp, device, fname):
    """scipy's xp= and device= keywords: crtrig computes NumPy arrays on the CPU only."""
    if xp is not None and xp is not _np:
        name = getattr(xp, "__name__", type(xp).__name__)
        # array_api_compat's numpy wrapper (scipy's default namespace) is numpy too.
        if name not in ("numpy", "array_api_compat.numpy", "scipy._lib.array_api_compat.numpy"):
            raise TypeError(f"{fname}(): xp must be None or numpy (crtrig.windows returns NumPy arrays); "
                            f"got {name}.  Convert the result, e.g. torch.from_numpy(w)")
    if device is not None and device != "cpu":
        raise ValueError(f"{fname}(): device must be None or 'cpu' (crtrig.windows computes on the CPU); "
                         f"got {device!r}")


def _output(M, sym, dtype, out, fname, xp=None, device=None):
    """Checked (M, periodic, dtype-or-None, out): errors before anything is written."""
    _namespace(xp, device, fname)
    M = _length(M, fname)
    periodic = not _flag(sym, fname, "sym")
    if out is not None:
        # out decides the type; an explicit dtype must agree (the default float64 gives way).
        out = _windows._out_array(out, M, None if dtype is _np.float64 else dtype, fname)
        dt = None
    else:
        dt = _resolve_dtype(dtype)
    return M, periodic, dt, out


def _ones(M, dt, out):
    """scipy's result for M <= 1 (and boxcar's): ones (np.empty and fill: a little
    faster than np.ones' copy, the same values)."""
    if out is None:
        ones = _np.empty(M, dtype=dt)
        ones.fill(1)
        return ones
    out[...] = 1
    return out


def _window(kind, fname, M, sym, dtype, out, alpha=None, xp=None, device=None):
    M, periodic, dt, out = _output(M, sym, dtype, out, fname, xp, device)
    if M == 1:  # scipy's [1.] (the formula gives 0/0 or 2 alpha - 1 there)
        return _ones(M, dt, out)
    return _windows.make_window(kind, fname, M, periodic, dt, out, alpha=alpha)


def _rational_window(name, M, sym, dtype, out, xp, device):
    """boxcar, triang, bartlett, parzen: exact quotients of integers, each rounded
    once (crtrig._rational_windows)."""
    M, periodic, dt, out = _output(M, sym, dtype, out, name, xp, device)
    if M <= 1 or name == "boxcar":
        return _ones(M, dt, out)
    values = _rational_windows.window_values(name, M, not periodic, dt if out is None else out.dtype)
    if out is None:
        return values
    out[...] = values  # the same dtype: a copy
    return out


def _not_implemented(name, reason, M, sym, dtype, out, xp, device):
    """The arguments are checked as for any window, then NotImplementedError."""
    _output(M, sym, dtype, out, name, xp, device)
    raise NotImplementedError(f"crtrig.windows.{name}() is not implemented: {reason}.  "
                              f"scipy.signal.windows.{name} computes it in float64, not correctly rounded")


_NOT_YET = "not yet correctly rounded in crtrig"

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
    xp, device : optional
        scipy's array-namespace keywords: None or numpy, and None or "cpu".
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
        `M` is not an integer (a bool, None, ...), `sym` is not a bool,
        `dtype` is not a supported type, `xp` is not numpy, or `out` is not a
        writeable 1-D array of a supported dtype, or disagrees with `dtype`.
    ValueError
        `M` is a float or a str (as in scipy), negative or above 2**53, `device`
        is not "cpu", or `out` has another length, is read-only, or has elements
        that overlap each other.
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


def hann(M, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    return _window(_windows.HANN, "hann", M, sym, dtype, out, xp=xp, device=device)


def hamming(M, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    return _window(_windows.GENERAL_HAMMING, "hamming", M, sym, dtype, out, alpha=(27, 50), xp=xp,
                   device=device)


def blackman(M, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    return _window(_windows.BLACKMAN, "blackman", M, sym, dtype, out, xp=xp, device=device)


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
    ValueError: hann(): M must be an integer (a Python int, a NumPy integer or any object with __index__); got float 2.5""")
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


def general_hamming(M, alpha, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
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
    _namespace(xp, device, "general_hamming")
    value = _alpha_fraction(alpha)
    return _window(_windows.GENERAL_HAMMING, "general_hamming", M, sym, dtype, out,
                   alpha=(value.numerator, value.denominator))



_RATIONAL_DOC = """Return the {title} window of length `M`, correctly rounded;
    scipy.signal.windows.{name}'s interface.

    {formula}
    Every value is a rational number, computed exactly as a quotient of integers
    and rounded once to nearest-even into `dtype` (crtrig._rational_windows).

    Parameters
    ----------
    M : int
        Number of points: a non-negative integer (a Python int, a NumPy integer, or
        any object with ``__index__``), at most 2**53.  0 gives an empty array;
        1 gives ``[1.]`` (in both modes, as in scipy).
    sym : bool, default True
        True: the symmetric window (filter design), scipy's default.  False: the
        periodic window, the first M values of the symmetric window of M + 1 points.
    xp, device : optional
        scipy's array-namespace keywords: None or numpy, and None or "cpu".
    dtype : dtype, default float64
        float64, float32, float16, bfloat16 or an integer type ({supported});
        integer outputs truncate the correctly rounded float32 value toward zero.
    out : ndarray, optional
        A writeable 1-D array of length M and a supported dtype to fill and return.

    Returns
    -------
    ndarray
        The window.

    Raises
    ------
    TypeError
        `M` is not an integer (a bool, None, ...), `sym` is not a bool, `dtype`
        is not supported, `xp` is not numpy, or `out` is not a suitable array.
    ValueError
        `M` is a float or a str (as in scipy), negative or above 2**53, `device`
        is not "cpu", or `out` has another length or is read-only.  Every error
        is raised before anything is written to `out`.

    Examples
    --------
{examples}
    """


def boxcar(M, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    return _rational_window("boxcar", M, sym, dtype, out, xp, device)


def triang(M, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    return _rational_window("triang", M, sym, dtype, out, xp, device)


def bartlett(M, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    return _rational_window("bartlett", M, sym, dtype, out, xp, device)


def parzen(M, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    return _rational_window("parzen", M, sym, dtype, out, xp, device)


boxcar.__doc__ = _RATIONAL_DOC.format(
    title="rectangular (boxcar)", name="boxcar", formula="w[n] = 1.\n", supported=_SUPPORTED_NAMES,
    examples="""\
    >>> from crtrig import windows
    >>> print(windows.boxcar(4))
    [1. 1. 1. 1.]""")
triang.__doc__ = _RATIONAL_DOC.format(
    title="triangular", name="triang",
    formula="""With L = M (symmetric) or M + 1 (periodic) and j = min(n, L - 1 - n):
    w[n] = (2j + 1)/L for even L, 2(j + 1)/(L + 1) for odd L (never 0 at the ends,
    unlike `bartlett`).
""", supported=_SUPPORTED_NAMES, examples="""\
    >>> from crtrig import windows
    >>> print(windows.triang(7))
    [0.25 0.5  0.75 1.   0.75 0.5  0.25]
    >>> print(windows.triang(4))
    [0.25 0.75 0.75 0.25]""")
bartlett.__doc__ = _RATIONAL_DOC.format(
    title="Bartlett (triangular, zero at the ends)", name="bartlett",
    formula="""With L = M (symmetric) or M + 1 (periodic):
    w[n] = 2 min(n, L - 1 - n)/(L - 1) (scipy's 2n/(L-1) and 2 - 2n/(L-1), exactly).
""", supported=_SUPPORTED_NAMES, examples="""\
    >>> from crtrig import windows
    >>> print(windows.bartlett(5))
    [0.  0.5 1.  0.5 0. ]
    >>> print(windows.bartlett(4, sym=False))
    [0.  0.5 1.  0.5]""")
parzen.__doc__ = _RATIONAL_DOC.format(
    title="Parzen", name="parzen",
    formula="""With L = M (symmetric) or M + 1 (periodic), k = abs(2n - (L - 1)) and t = k/L:
    w[n] = 1 - 6 t^2 + 6 t^3 where 2k <= L - 1 (scipy's abs(n) <= (L-1)/4), else
    2 (1 - t)^3: (L^3 - 6 k^2 L + 6 k^3)/L^3 or 2 (L - k)^3/L^3 exactly.
""", supported=_SUPPORTED_NAMES, examples="""\
    >>> from crtrig import windows
    >>> print(windows.parzen(5))
    [0.016 0.424 1.    0.424 0.016]""")


_NOT_DONE_DOC = """{title}: scipy.signal.windows.{name}'s signature; not computed by crtrig yet.

    {why}

    Parameters
    ----------
    M : int
        Number of points, checked as in `hann`.
    {params}sym : bool, default True
        As in `hann`.
    xp, device, dtype, out
        As in `hann`.

    Returns
    -------
    ndarray
        Never: every call raises.

    Raises
    ------
    NotImplementedError
        Always, once the arguments are checked; the message names
        ``scipy.signal.windows.{name}``, scipy's float64 values (not correctly
        rounded), as the alternative.
    TypeError, ValueError
        The arguments are wrong as in `hann`{extra_raises}.

    Examples
    --------
    >>> from crtrig import windows
    >>> windows.{name}({example})
    Traceback (most recent call last):
    NotImplementedError: crtrig.windows.{name}() is not implemented: ...
    """


def _not_done_doc(function, title, why, params="", example="8", extra_raises=""):
    function.__doc__ = _NOT_DONE_DOC.format(title=title, name=function.__name__, why=why, params=params,
                                            example=example, extra_raises=extra_raises)


def _cosine_sum(fname, M, a, sym, dtype, out, xp=None, device=None):
    """general_cosine and the windows made of it: exact coefficients (crtrig._cosine_windows)."""
    M, periodic, dt, out = _output(M, sym, dtype, out, fname, xp, device)
    coefs = _cosine_windows.coefficients(a, fname)
    if M <= 1:  # scipy's ones
        return _ones(M, dt, out)
    return _cosine_windows.cosine_sum(coefs, M, periodic, dt, out, fname)


def general_cosine(M, a, sym=True, *, dtype=_np.float64, out=None):
    return _cosine_sum("general_cosine", M, a, sym, dtype, out)


def nuttall(M, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    return _cosine_sum("nuttall", M, _cosine_windows.NUTTALL, sym, dtype, out, xp, device)


def blackmanharris(M, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    return _cosine_sum("blackmanharris", M, _cosine_windows.BLACKMANHARRIS, sym, dtype, out, xp, device)


def flattop(M, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    return _cosine_sum("flattop", M, _cosine_windows.FLATTOP, sym, dtype, out, xp, device)


general_cosine.__doc__ = """Return a generic weighted sum of cosine terms window of length `M`,
    correctly rounded; scipy.signal.windows.general_cosine's interface.

    w[n] = sum_k a[k] cos(k (2 pi n / D - pi)) = sum_k (-1)^k a[k] cos(2 pi k n / D),
    n = 0 .. M-1, D = M - 1 if `sym` else M (scipy's ``fac = linspace(-pi, pi, ...)``),
    each value the exact real number rounded once to nearest-even into `dtype`.

    Parameters
    ----------
    M : int
        As in `hann` (0 gives an empty array, 1 gives ``[1.]``).
    a : sequence
        The coefficients a[0], a[1], ..., each taken as an exact rational: a
        ``fractions.Fraction``, an int, a decimal string (``"0.54"``, ``"27/50"``), a
        ``decimal.Decimal``, or a Python or NumPy float read as its shortest decimal
        (0.3 means 3/10), as `general_hamming` reads alpha.  At most 16 terms (up to
        the last nonzero one), each with a reduced denominator of at most 2**62,
        abs(a[k]) below 2**14 and sum(floor(abs(a[k])) + 1) at most 2**15: ValueError
        beyond (no slower exact path).  An empty `a` gives zeros.
    sym, dtype, out
        As in `hann`.  Values may be negative (a negative value that rounds to zero
        gives -0.0); integer outputs truncate the float32 value toward zero.

    Returns
    -------
    ndarray
        The window, a new array or `out`.

    Raises
    ------
    TypeError
        A coefficient is a bool or not a number of the kinds above, or `M`, `sym`,
        `dtype` or `out` is wrong as in `hann`.
    ValueError
        A coefficient is not finite or out of the ranges above, or `M` or `out` is
        wrong as in `hann`.  Every error is raised before anything is written.

    Notes
    -----
    Where w[n] is rational (where every cos(2 pi k n/D) is, and the few other
    phases where the sum of irrational cosines is rational) it is computed
    exactly and rounded once; elsewhere it is irrational and the C core's
    staged evaluation (double, double-double, fixed point) decides its rounding
    (src/core/window_cosum.c).  scipy has no `xp`/`device` keywords here either.

    Examples
    --------
    >>> from crtrig import windows
    >>> print(windows.general_cosine(5, [0.5, 0.3, 0.2]))
    [0.4 0.3 1.  0.3 0.4]
    >>> print(windows.general_cosine(6, ["1/2", "1/4", "-1/4"]))
    [0.    0.625 0.625 0.625 0.625 0.   ]
    """

_COSUM_DOC = """Return the {title} window of length `M`, correctly rounded;
    scipy.signal.windows.{name}'s interface.

    w[n] = sum_k (-1)^k a[k] cos(2 pi k n / D), n = 0 .. M-1, D = M - 1 if `sym` else M,
    a = {coefficients}
    (scipy's decimals, taken exactly), each value the exact real number rounded once
    to nearest-even into `dtype`: ``general_cosine(M, a, sym)``.{extra}

    Parameters
    ----------
    M : int
        As in `hann` (0 gives an empty array, 1 gives ``[1.]``).
    sym, xp, device, dtype, out
        As in `hann`.

    Returns
    -------
    ndarray
        The window, a new array or `out`.

    Raises
    ------
    TypeError, ValueError
        As in `hann`; every error is raised before anything is written.

    Examples
    --------
    >>> from crtrig import windows
{examples}
    """
nuttall.__doc__ = _COSUM_DOC.format(
    title="Nuttall (minimum 4-term Blackman-Harris)", name="nuttall",
    coefficients="(0.3635819, 0.4891775, 0.1365995, 0.0106411)", extra="", examples="""\
    >>> print(windows.nuttall(5))
    [3.628000e-04 2.269824e-01 1.000000e+00 2.269824e-01 3.628000e-04]""")
blackmanharris.__doc__ = _COSUM_DOC.format(
    title="minimum 4-term Blackman-Harris", name="blackmanharris",
    coefficients="(0.35875, 0.48829, 0.14128, 0.01168)", extra="", examples="""\
    >>> print(windows.blackmanharris(5))
    [6.0000e-05 2.1747e-01 1.0000e+00 2.1747e-01 6.0000e-05]""")
flattop.__doc__ = _COSUM_DOC.format(
    title="flat top", name="flattop",
    coefficients="(0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368)",
    extra="\n    The window is negative near its ends.", examples="""\
    >>> print(windows.flattop(5))
    [-4.210510e-04 -5.473684e-02  1.000000e+00 -5.473684e-02 -4.210510e-04]""")


def _listed_window(fname, make, M, sym, dtype, out, xp, device):
    """cosine and barthann: cosine sums at listed phases (crtrig._cosine_windows)."""
    M, periodic, dt, out = _output(M, sym, dtype, out, fname, xp, device)
    if M <= 1:  # scipy's ones
        return _ones(M, dt, out)
    return make(M, not periodic, dt, out)


def cosine(M, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    return _listed_window("cosine", _cosine_windows.cosine_window, M, sym, dtype, out, xp, device)


def _sinc_window(fname, M, sym, dtype, out, xp, device):
    """lanczos and bohman (crtrig._sinc_windows): M <= 1 gives scipy's ones; else the
    window of L = M (sym) or M + 1 points, its first M values."""
    M, periodic, dt, out = _output(M, sym, dtype, out, fname, xp, device)
    if M <= 1:
        return _ones(M, dt, out)
    L = M + 1 if periodic else M
    if L - 1 > _sinc_windows.MAX_D:
        raise ValueError(f"{fname}(): M must be at most {_sinc_windows.MAX_D + (0 if periodic else 1)} "
                         f"(2**52{' + 1' if not periodic else ''} for sym={not periodic}); got {M}")
    values = _sinc_windows.window(_sinc_windows.KINDS[fname], L, M, dt if out is None else out.dtype)
    if out is None:
        return values
    out[...] = values  # the same dtype: a copy
    return out


def bohman(M, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    return _sinc_window("bohman", M, sym, dtype, out, xp, device)


def barthann(M, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    return _listed_window("barthann", _cosine_windows.barthann_window, M, sym, dtype, out, xp, device)


#: tukey's taper comes from crtrig's Hann window of D = p (L - 1)/gcd(q, L - 1) points
#: (alpha = p/q, L the symmetric length), computed whole: at most max(16 L, 2**22) points.
_TUKEY_HANN_FACTOR = 16
_TUKEY_HANN_MIN = 2**22


def _tukey_alpha(alpha):
    """scipy's branches (alpha <= 0: ones; alpha >= 1: hann), else alpha in (0, 1) as an
    exact Fraction (floats as their shortest decimal, as general_hamming reads them)."""
    if isinstance(alpha, (bool, _np.bool_)):
        raise TypeError(f"tukey(): alpha must be {_ALPHA_KINDS}; got {type(alpha).__name__}")
    if isinstance(alpha, (int, float, _np.integer, _np.floating, _numbers.Rational, _decimal.Decimal)):
        if isinstance(alpha, (float, _np.floating, _decimal.Decimal)) and not _np.isfinite(float(alpha)):
            raise ValueError(f"tukey(): alpha must be finite; got {alpha!r}")
        if alpha <= 0:
            return "ones"
        if alpha >= 1:
            return "hann"
    value = _alpha_fraction(alpha, "tukey")  # a str, or a number in (0, 1)
    if value == 0:
        return "ones"
    if value == 1:
        return "hann"
    return value


def tukey(M, alpha=0.5, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    """Return the Tukey (tapered cosine) window of length `M`, correctly rounded;
    scipy.signal.windows.tukey's interface.

    With L = M (symmetric) or M + 1 (periodic: the first M values of the symmetric
    window of L points), alpha = p/q in (0, 1) and width = floor(alpha (L - 1)/2)
    (exactly): w[n] = sin^2(pi n/(alpha (L - 1))) for n <= width, 1 in the middle,
    and w[L - 1 - n] = w[n] -- scipy's 0.5 (1 + cos(pi (-1 + 2n/(alpha (L-1))))),
    exactly.  Each taper value is crtrig's Hann window (sin^2(pi m/D), correctly
    rounded by the C core) at m = n t of D = p (L - 1)/g points, g = gcd(q, L - 1),
    t = q/g.  alpha <= 0 gives ones and alpha >= 1 the Hann window, as in scipy.

    Parameters
    ----------
    M : int
        Number of points, as in `hann` (1 gives ``[1.]``).
    alpha : float, Fraction, int, decimal string, default 0.5
        The taper fraction, read as an exact rational as in `general_hamming`
        (0.25 is 1/4); any real number (scipy's branches outside (0, 1)).
    sym, xp, device, dtype, out
        As in `hann`.

    Returns
    -------
    ndarray
        The window.

    Raises
    ------
    NotImplementedError
        alpha's numerator is so large that the Hann window of D points exceeds
        max(16 L, 2**22) points (e.g. alpha = 0.99 at M = 10**6); the message
        names ``scipy.signal.windows.tukey`` (float64, not correctly rounded).
    TypeError, ValueError
        `alpha` is not a finite number of the kinds above, or its numerator or
        denominator is not below 2**64; `M`, `sym`, `dtype`, `xp`, `device` or
        `out` is wrong as in `hann`.  Every error is raised before anything is
        written to `out`.

    Examples
    --------
    >>> from crtrig import windows
    >>> print(windows.tukey(7, 0.5))
    [0.   0.75 1.   1.   1.   0.75 0.  ]
    >>> print(windows.tukey(5, 0.25, sym=False))
    [0. 1. 1. 1. 1.]
    """
    M, periodic, dt, out = _output(M, sym, dtype, out, "tukey", xp, device)
    kind = _tukey_alpha(alpha)
    if M <= 1 or kind == "ones":
        return _ones(M, dt, out)
    if kind == "hann":
        return _windows.make_window(_windows.HANN, "tukey", M, periodic, dt, out)
    p, q = kind.numerator, kind.denominator
    L = M + 1 if periodic else M
    g = _math.gcd(q, L - 1)
    D, t = p * (L - 1) // g, q // g
    width = p * (L - 1) // (2 * q)  # floor(alpha (L - 1)/2), exactly
    if D > max(_TUKEY_HANN_FACTOR * L, _TUKEY_HANN_MIN):
        raise NotImplementedError(
            f"crtrig.windows.tukey() is not implemented for alpha = {kind} at M = {M}: its taper would "
            f"need crtrig's Hann window of {D} points (p (M - 1)/gcd(q, M - 1)), more than "
            f"max({_TUKEY_HANN_FACTOR} M, 2**22); a shorter fraction (0.25, 0.5, ...) works.  "
            "scipy.signal.windows.tukey computes it in float64, not correctly rounded")
    # sin^2(pi m/D) for m = n t, n = 0 .. width (m <= D/2), in the output's dtype.
    target = dt if out is None else out.dtype
    taper = _windows.make_window(_windows.HANN, "tukey", D, True, target, None)[: width * t + 1: t]
    result = _np.ones(M, dtype=target) if out is None else out
    if out is not None:
        out[...] = 1
    result[: width + 1] = taper
    # w[L - 1 - n] = taper[n]: positions L - 1 - width .. L - 1, those below M.
    right = taper[::-1][: M - (L - 1 - width)]
    result[L - 1 - width: L - 1 - width + right.shape[0]] = right
    return result


def lanczos(M, *, sym=True, xp=None, device=None, dtype=_np.float64, out=None):
    return _sinc_window("lanczos", M, sym, dtype, out, xp, device)


#: A decimal parameter of the exp windows (std, tau, sig, center, p) may have at most
#: this many digits and an exponent of at most this size (floats are far inside).
_PARAM_MAX_DIGITS = 1000
_PARAM_KINDS = "a float, an int, a fractions.Fraction, a decimal.Decimal or a decimal string"


@_functools.lru_cache(maxsize=256)
def _float_fraction(value):
    """A finite Python float as the Fraction of its shortest decimal (cached: a window
    called again with the same parameter skips the decimal parsing)."""
    return _rational.split(repr(value)).fraction()


def _param_fraction(value, fname, argname):
    """A real parameter as an exact Fraction: floats as the shortest decimal that reads
    back as the same value of their type (0.1 is 1/10, as general_hamming reads alpha),
    Fractions and ints as they are, decimal strings and Decimals as written."""
    if type(value) is float and value - value == 0.0:  # finite (inf - inf and NaN give NaN)
        return _float_fraction(value)
    if isinstance(value, (bool, _np.bool_)) or value is None:
        raise TypeError(f"{fname}(): {argname} must be {_PARAM_KINDS}; got {type(value).__name__}")
    if isinstance(value, (float, _np.floating)):
        if not _np.isfinite(value):
            raise ValueError(f"{fname}(): {argname} must be finite; got {value!r}")
        text = repr(value) if type(value) is float else _np.format_float_scientific(value, unique=True,
                                                                                    trim="-")
        parts = _rational.split(text)
    elif isinstance(value, str):
        parts = _rational.split(value)
    elif isinstance(value, _decimal.Decimal):
        parts = _rational.split_decimal(value)
    elif isinstance(value, (int, _np.integer)):
        value = int(value)
        if value.bit_length() > 4 * _PARAM_MAX_DIGITS:
            raise ValueError(f"{fname}(): {argname} is too large (more than {4 * _PARAM_MAX_DIGITS} bits)")
        return _Fraction(value)
    elif isinstance(value, _numbers.Rational):
        numerator, denominator = int(value.numerator), int(value.denominator)
        if max(numerator.bit_length(), denominator.bit_length()) > 4 * _PARAM_MAX_DIGITS or denominator == 0:
            raise ValueError(f"{fname}(): {argname} must be a finite fraction of at most "
                             f"{4 * _PARAM_MAX_DIGITS}-bit numerator and denominator")
        return _Fraction(numerator, denominator)
    else:
        raise TypeError(f"{fname}(): {argname} must be {_PARAM_KINDS}; got {type(value).__name__}")
    if parts is None or (parts.is_ratio and parts.denominator == ""):
        raise ValueError(f"{fname}(): {argname} {_shown(value)} is not a finite rational number (write a "
                         "decimal such as '2.5' or a fraction such as '5/2')")
    if parts.is_ratio:
        if max(len(parts.numerator), len(parts.denominator)) > _PARAM_MAX_DIGITS:
            raise ValueError(f"{fname}(): {argname} has more than {_PARAM_MAX_DIGITS} digits")
    elif len(parts.coefficient) > _PARAM_MAX_DIGITS or abs(parts.exponent) > _PARAM_MAX_DIGITS:
        raise ValueError(f"{fname}(): {argname} {_shown(value)} is too large, too small or too long "
                         f"(at most {_PARAM_MAX_DIGITS} digits and a power of ten of at most "
                         f"{_PARAM_MAX_DIGITS})")
    return parts.fraction()


@_functools.lru_cache(maxsize=256)
def _half_reciprocal(value):
    """1/(2 |value|) for a nonzero Fraction (the exp windows' scale d; cached with the
    parameter)."""
    return 1 / (2 * abs(value))


def _exp_result(M, periodic, dt, out, d, s, P, center=None):
    """The exp window (crtrig._exp_windows) of M >= 2 points into a new array or out."""
    L = M + 1 if periodic else M
    target = dt if out is None else out.dtype
    values = _exp_windows.window(L, M, d, s, P, target, center)
    if out is None:
        return values
    out[...] = values  # the same dtype: a copy
    return out


def gaussian(M, std, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    """Return the Gaussian window of length `M`, correctly rounded;
    scipy.signal.windows.gaussian's interface.

    w[n] = exp(-(n - (L - 1)/2)^2 / (2 std^2)), n = 0 .. M-1, L = M if `sym` else
    M + 1 (the first M points of the symmetric window of M + 1, as scipy), each value
    the exact real number rounded once to nearest-even into `dtype` (exp of an exact
    rational: src/core/exp.c, with an exact fallback; underflow to 0 and the
    subnormals of every dtype included).

    Parameters
    ----------
    M : int
        As in `hann` (0 gives an empty array, 1 gives ``[1.]``).
    std : float, int, Fraction, Decimal or decimal string
        The standard deviation, read as an exact rational (a float as its shortest
        decimal: 0.1 is 1/10, as `general_hamming` reads alpha); nonzero (scipy divides
        by zero for 0: ValueError here); a negative std gives the same window as abs(std).
    sym, xp, device, dtype, out
        As in `hann`.

    Returns
    -------
    ndarray
        The window.

    Raises
    ------
    TypeError, ValueError
        `std` is not a finite nonzero number of the kinds above, or `M`, `sym`,
        `dtype`, `xp`, `device`, `out` are wrong as in `hann`.  Every error is raised
        before anything is written to `out`.

    Examples
    --------
    >>> from crtrig import windows
    >>> print(windows.gaussian(5, 1.0))
    [0.13533528 0.60653066 1.         0.60653066 0.13533528]
    """
    M, periodic, dt, out = _output(M, sym, dtype, out, "gaussian", xp, device)
    value = _param_fraction(std, "gaussian", "std")
    if value == 0:
        raise ValueError("gaussian(): std must be nonzero (scipy divides by zero: NaN at the centre)")
    if M <= 1:
        return _ones(M, dt, out)
    # q = n^2/(2 std^2) = (1/2) (|x|/(2 std))^2 with x = 2n - (L - 1).
    return _exp_result(M, periodic, dt, out, _half_reciprocal(value), _Fraction(1, 2), 2)


def general_gaussian(M, p, sig, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    """Return the generalized Gaussian window of length `M`, correctly rounded;
    scipy.signal.windows.general_gaussian's interface.

    w[n] = exp(-(1/2) abs((n - (L - 1)/2)/sig)^(2p)), n = 0 .. M-1, L as in `gaussian`,
    each value the exact real number rounded once to nearest-even into `dtype`.
    crtrig computes it for every rational p with 0 <= 2p <= 1024: when 2p is an
    integer (p = 1 is `gaussian` with std = sig; p = 1.5 scipy's example) by the C
    core's exp of an exact rational; p = 0 gives exp(-1/2) everywhere, as numpy's
    0**0 = 1 does; for other p (0.75, 2.7, ...) the power is real, q =
    exp(2p ln|n/sig|)/2: the C core's double-double log and exp (with a composed
    error bound and a rounding test, src/core/exp_pass.h) decide almost every
    element, the rest are computed exactly in Python integers (interval enclosures
    of the log and the exps at doubling precision, `crtrig._exp_windows`; a cap of
    2^16 bits, then ArithmeticError, bounds that loop: the value is never a
    rounding boundary, by Lindemann's theorem, but how close it may come is not
    bounded).  Such p run at about a quarter of scipy's speed (M = 10^5).

    Parameters
    ----------
    M : int
        As in `hann`.
    p : float, int, Fraction, Decimal or decimal string
        The shape, read as an exact rational (floats as their shortest decimal:
        2.7 is 27/10), 0 <= p <= 512.
    sig : float, int, Fraction, Decimal or decimal string
        The standard deviation, nonzero, read as `gaussian` reads std.
    sym, xp, device, dtype, out
        As in `hann`.

    Returns
    -------
    ndarray
        The window.

    Raises
    ------
    NotImplementedError
        2p is negative or above 1024 (the message names
        ``scipy.signal.windows.general_gaussian``, float64, not correctly rounded).
    ArithmeticError
        A real-power element not decided within the precision cap (never seen).
    TypeError, ValueError
        `p` or `sig` is not a finite number of the kinds above, `sig` is 0, or `M`,
        `sym`, `dtype`, `xp`, `device`, `out` are wrong as in `hann`.

    Examples
    --------
    >>> from crtrig import windows
    >>> print(windows.general_gaussian(5, 1.5, 1.0))
    [0.01831564 0.60653066 1.         0.60653066 0.01831564]
    """
    M, periodic, dt, out = _output(M, sym, dtype, out, "general_gaussian", xp, device)
    shape = _param_fraction(p, "general_gaussian", "p")
    width = _param_fraction(sig, "general_gaussian", "sig")
    if width == 0:
        raise ValueError("general_gaussian(): sig must be nonzero (scipy divides by zero)")
    power = 2 * shape
    if not 0 <= power <= _exp_windows.MAX_POWER:
        raise NotImplementedError(
            f"crtrig.windows.general_gaussian() is not implemented for p = {_shown(p)}: crtrig computes it "
            f"for 0 <= 2p <= {_exp_windows.MAX_POWER}; scipy.signal.windows.general_gaussian computes it "
            "in float64, not correctly rounded")
    if M <= 1:
        return _ones(M, dt, out)
    if power == 0:  # |n/sig|^0 = 1 everywhere (numpy's 0.0**0 = 1): exp(-1/2)
        target = _np.dtype(dt if out is None else out.dtype)
        value = _exp_windows.exp_neg_rounded(_Fraction(1, 2), _exp_windows.format_code(target))
        result = _exp_windows._cast(_np.full(M, value), target)
        if out is None:
            return result
        out[...] = result
        return out
    # q = (1/2) |n/sig|^P = (1/2) (|x|/(2 sig))^P with x = 2n - (L - 1).
    if power.denominator != 1:  # a real power: the exact path (crtrig._exp_windows)
        L = M + 1 if periodic else M
        values = _exp_windows.window_real_power(L, M, _half_reciprocal(width), power, dt if out is None else out.dtype)
        if out is None:
            return values
        out[...] = values
        return out
    return _exp_result(M, periodic, dt, out, _half_reciprocal(width), _Fraction(1, 2), int(power))


def exponential(M, center=None, tau=1., sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    """Return the exponential (Poisson) window of length `M`, correctly rounded;
    scipy.signal.windows.exponential's interface.

    w[n] = exp(-abs(n - center) / tau), n = 0 .. M-1; center defaults to (L - 1)/2 with
    L = M if `sym` else M + 1 (scipy's extension for the periodic window), each value
    the exact real number rounded once to nearest-even into `dtype`.

    Parameters
    ----------
    M : int
        As in `hann`.
    center : float, int, Fraction, Decimal, decimal string or None
        The centre, read as an exact rational (floats as their shortest decimal);
        only with sym=False (ValueError otherwise, as in scipy).
    tau : float, int, Fraction, Decimal or decimal string, default 1.0
        The decay, read as an exact rational; positive (scipy's tau <= 0 gives a
        growing window or NaN: ValueError here).
    sym, xp, device, dtype, out
        As in `hann`.

    Returns
    -------
    ndarray
        The window.

    Raises
    ------
    TypeError, ValueError
        `center` is given with sym=True, `tau` is not positive, a parameter is not
        a finite number of the kinds above, the centre's denominator is so large that
        n cd - cn leaves 2**53, or `M`, `sym`, `dtype`, `xp`, `device`, `out` are
        wrong as in `hann`.

    Examples
    --------
    >>> from crtrig import windows
    >>> print(windows.exponential(5, tau=1.0))
    [0.13533528 0.36787944 1.         0.36787944 0.13533528]
    """
    if _flag(sym, "exponential", "sym") and center is not None:
        raise ValueError("If sym==True, center must be None (exponential(): a symmetric window is centred)")
    M, periodic, dt, out = _output(M, sym, dtype, out, "exponential", xp, device)
    decay = _param_fraction(tau, "exponential", "tau")
    if decay <= 0:
        raise ValueError(f"exponential(): tau must be positive; got {_shown(tau)} (scipy's window for "
                         "tau <= 0 grows or is NaN)")
    where = None if center is None else _param_fraction(center, "exponential", "center")
    if M <= 1:
        return _ones(M, dt, out)
    if where is None:
        # q = |n - (L - 1)/2|/tau = |x|/(2 tau), x = 2n - (L - 1).
        return _exp_result(M, periodic, dt, out, _half_reciprocal(decay), _Fraction(1), 1)
    # q = |n cd - cn|/(cd tau) for center = cn/cd: the integers n cd - cn must stay below 2**53.
    cn, cd = where.numerator, where.denominator
    if max(abs(cn), abs((M - 1) * cd - cn)) >= 2**53:
        raise ValueError(f"exponential(): center = {_shown(center)} is too fine or too far for M = {M}: "
                         f"n cd - cn (center = cn/cd, cd = {cd}) must stay below 2**53 (a float center is "
                         "read as its shortest decimal; a shorter decimal or a Fraction works)")
    return _exp_result(M, periodic, dt, out, 1 / (where.denominator * decay), _Fraction(1), 1,
                       center=(where.numerator, where.denominator))


def kaiser(M, beta, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    """Return the Kaiser window of length `M`, correctly rounded;
    scipy.signal.windows.kaiser's interface.

    w[n] = I0(beta sqrt(1 - t^2)) / I0(beta), t = 2n/(L - 1) - 1, n = 0 .. M-1, L = M
    if `sym` else M + 1 (scipy's extension), each value the exact quotient rounded
    once to nearest-even into `dtype` (not a quotient of rounded values): with
    y = beta^2 n (L - 1 - n)/(L - 1)^2, w = S(y)/S(beta^2/4), S(y) = sum_k
    y^k/(k!)^2, evaluated in double-double by the C core (src/core/bessel_i0.c) with
    an exact integer fallback.

    Parameters
    ----------
    M : int
        As in `hann` (1 gives ``[1.]``); at most 2**26 - 1 here.
    beta : float, int, Fraction, Decimal or decimal string
        The shape, read as an exact rational (floats as their shortest decimal: 8.6 is
        43/5); abs(beta) at most 600 (NotImplementedError above); 0 gives ones.
    sym, xp, device, dtype, out
        As in `hann`.

    Returns
    -------
    ndarray
        The window.

    Raises
    ------
    NotImplementedError
        abs(beta) > 600 or M above 2**26 - 1 (the message names
        ``scipy.signal.windows.kaiser``, float64, not correctly rounded).
    TypeError, ValueError
        `beta` is not a finite number of the kinds above, or `M`, `sym`, `dtype`,
        `xp`, `device`, `out` are wrong as in `hann`.

    Examples
    --------
    >>> from crtrig import windows
    >>> print(windows.kaiser(5, 8.6))
    [0.00133251 0.34039362 1.         0.34039362 0.00133251]
    """
    M, periodic, dt, out = _output(M, sym, dtype, out, "kaiser", xp, device)
    shape = abs(_param_fraction(beta, "kaiser", "beta"))
    if shape > _kaiser_window.MAX_BETA:
        raise NotImplementedError(
            f"crtrig.windows.kaiser() is not implemented for abs(beta) > {_kaiser_window.MAX_BETA:g} (got "
            f"{_shown(beta)}).  scipy.signal.windows.kaiser computes it in float64, not correctly rounded")
    L = M + 1 if periodic else M
    if L > _kaiser_window.MAX_LENGTH:
        raise NotImplementedError(
            f"crtrig.windows.kaiser() is not implemented for M = {M} (at most 2**26 - 1).  "
            "scipy.signal.windows.kaiser computes it in float64, not correctly rounded")
    if M <= 1 or shape == 0:
        return _ones(M, dt, out)
    target = _np.dtype(dt if out is None else out.dtype)
    if L == 2:  # t = -1, 1: 1/I0(beta)
        value = _kaiser_window.quotient_rounded(_Fraction(0), shape * shape / 4,
                                                _exp_windows.format_code(target))
        values = _exp_windows._cast(_np.full(M, value), target)
    else:
        values = _kaiser_window.window(L, M, shape, target)
    if out is None:
        return values
    out[...] = values
    return out


def kaiser_bessel_derived(M, beta, *, sym=True, xp=None, device=None, dtype=_np.float64, out=None):
    """Return the Kaiser-Bessel derived window of length `M`, correctly rounded;
    scipy.signal.windows.kaiser_bessel_derived's interface.

    With L = M/2 + 1 and Kaiser's window v_j = I0(beta sqrt(1 - t_j^2)) / I0(beta),
    t_j = 2j/(L - 1) - 1, j = 0 .. L-1 (scipy's ``kaiser(M // 2 + 1, beta)``: beta as
    given, no factor pi), w[n] = sqrt((v_0 + ... + v_n) / (v_0 + ... + v_(L-1))) for
    n = 0 .. L-2 and w[M - 1 - n] = w[n], each value the exact real number rounded once
    to nearest-even into `dtype` (not a root of rounded sums).  The I0 normalisation
    cancels: w[n]^2 = (S(y_0) + ... + S(y_n)) / (S(y_0) + ... + S(y_(L-1))), S(y) =
    sum_k y^k/(k!)^2, y_j = beta^2 j (L - 1 - j)/(L - 1)^2, evaluated in double-double
    by the C core (src/core/window_kbd.c, a derived bound and a rounding test per
    element); a window with an element it leaves undecided is computed exactly
    instead (crtrig._kbd_window: every S(y_j) enclosed in integers, the root's
    enclosure refined until it rounds).

    Parameters
    ----------
    M : int
        The number of points: 0 (an empty array) or an even positive integer (odd M
        is a ValueError, as in scipy); at most 2**27 - 2 here.  M = 2 gives
        sqrt(1/2) twice for every beta.
    beta : float, int, Fraction, Decimal or decimal string
        Kaiser's shape parameter, read as an exact rational (floats as their shortest
        decimal: 8.6 is 43/5); abs(beta) at most 600 (NotImplementedError above); 0
        gives sqrt((n + 1)/L).
    sym : bool, default True
        Keyword-only, as in scipy; False is a ValueError (the window is only defined
        symmetric), so ``get_window("kbd", ...)`` needs ``fftbins=False``.
    xp, device, dtype, out
        As in `hann`.

    Returns
    -------
    ndarray
        The window, symmetric, w[n]^2 + w[n + M/2]^2 = 1 up to the rounding
        (Princen-Bradley).

    Raises
    ------
    ValueError
        sym=False or an odd M (as in scipy), or `M`, `device`, `out` are wrong as in
        `hann`.
    NotImplementedError
        abs(beta) > 600 or M above 2**27 - 2 (the message names
        ``scipy.signal.windows.kaiser_bessel_derived``, float64, not correctly
        rounded).
    TypeError
        `beta` is not a number of the kinds above, or `M`, `sym`, `dtype`, `xp`,
        `out` are wrong as in `hann`.
    ArithmeticError
        No rounding decision at 2**17 bits (not expected to happen for any input:
        see crtrig._kbd_window).

    Examples
    --------
    >>> from crtrig import windows
    >>> print(windows.kaiser_bessel_derived(8, 8.6))
    [0.02813426 0.45054554 0.89275345 0.99960415 0.99960415 0.89275345
     0.45054554 0.02813426]
    >>> print(windows.kaiser_bessel_derived(4, 0))
    [0.57735027 0.81649658 0.81649658 0.57735027]
    >>> windows.kaiser_bessel_derived(5, 8.6)
    Traceback (most recent call last):
    ValueError: Kaiser-Bessel Derived windows are only defined for even number of points
    """
    if not _flag(sym, "kaiser_bessel_derived", "sym"):
        raise ValueError("Kaiser-Bessel Derived windows are only defined for symmetric shapes")
    length = _length(M, "kaiser_bessel_derived")
    if length >= 1 and length % 2:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for even number of points")
    M, _, dt, out = _output(M, sym, dtype, out, "kaiser_bessel_derived", xp, device)
    shape = abs(_param_fraction(beta, "kaiser_bessel_derived", "beta"))
    if shape > _kbd_window.MAX_BETA:
        raise NotImplementedError(
            f"crtrig.windows.kaiser_bessel_derived() is not implemented for abs(beta) > "
            f"{_kbd_window.MAX_BETA:g} (got {_shown(beta)}).  scipy.signal.windows.kaiser_bessel_derived "
            "computes it in float64, not correctly rounded")
    if M // 2 + 1 > _kbd_window.MAX_LENGTH:
        raise NotImplementedError(
            f"crtrig.windows.kaiser_bessel_derived() is not implemented for M = {M} (at most 2**27 - 2).  "
            "scipy.signal.windows.kaiser_bessel_derived computes it in float64, not correctly rounded")
    target = _np.dtype(dt if out is None else out.dtype)
    if M == 0:
        values = _np.empty(0, dtype=target)
    else:
        values = _kbd_window.window(M, shape, target)
    if out is None:
        return values
    out[...] = values
    return out


def taylor(M, nbar=4, sll=30, norm=True, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    """Return the Taylor window of length `M`, correctly rounded;
    scipy.signal.windows.taylor's interface.

    scipy's definition, read as real numbers: B = 10^(sll/20), A = acosh(B)/pi,
    sp2 = nbar^2/(A^2 + (nbar - 1/2)^2) and, for m = 1 .. nbar-1::

        F_m = (-1)^(m+1) prod_{n=1}^{nbar-1} (1 - m^2/sp2/(A^2 + (n - 1/2)^2))
              / (2 prod_{n != m, 1 <= n < nbar} (1 - m^2/n^2)),
        W(n) = 1 + 2 sum_m F_m cos(2 pi m (n - L/2 + 1/2)/L),  n = 0 .. M-1,

    with L = M if `sym` else M + 1 (scipy's extension, then the first M points);
    norm=True divides by W((L - 1)/2) = 1 + 2 sum_m F_m.  Each value is the exact
    real number rounded once to nearest-even into `dtype`.  The F_m are computed as
    integer enclosures (crtrig._taylor_window), the cosine sum in double-double by
    the C core (src/core/window_taylor.c) with a proven bound, and the rare elements
    that does not decide are finished with exact integer enclosures.  The centre of
    a normalised window (odd L) is exactly 1.  Other values are not proven never
    to be a rounding boundary (A is transcendental for sll > 0, so a boundary needs
    a value that does not depend on A; the exact fallback stops at 2^16 bits with
    ArithmeticError): the cap, not a proof, bounds that loop.  M is at most 2**52
    (2**52 - 1 periodic): ValueError above.

    Parameters
    ----------
    M : int
        Number of points, as in `hann` (0 gives an empty array, 1 gives ``[1.]``).
    nbar : int, default 4
        The number of nearly constant sidelobes next to the main lobe: an integer
        (a Python int or a NumPy integer, not a bool) from 1 to 400.  nbar = 1 gives
        ones (no F_m).  scipy raises for nbar < 1 (ValueError) and for a float
        (TypeError), and returns NaN above about 400: ValueError here.
    sll : float, int, Fraction, Decimal or decimal string, default 30
        The sidelobe level in dB below the main lobe, read as an exact rational (a
        float as its shortest decimal: 13.1 is 131/10, as `gaussian` reads std), in
        [0, 6000].  scipy returns NaN for sll < 0 and overflows above about 6165:
        ValueError here.
    norm : bool, default True
        Divide by W at the centre (scipy's normalisation), so that the centre is 1.
    sym, xp, device, dtype, out
        As in `hann`.

    Returns
    -------
    ndarray
        The window, symmetric: w[L - 1 - n] = w[n].

    Raises
    ------
    TypeError, ValueError
        `nbar`, `sll` or `norm` is not of the kinds above or out of range, or `M`,
        `sym`, `dtype`, `xp`, `device`, `out` are wrong as in `hann`.  Every error is
        raised before anything is written to `out`.
    NotImplementedError
        The coefficients' absolute sum reaches 2**14 (possible only for sll near 0
        with a large nbar, where the window is far from a taper).
    ArithmeticError
        An element could not be decided within the 2^16-bit cap (not expected; see
        above).

    Examples
    --------
    >>> from crtrig import windows
    >>> print(windows.taylor(5))
    [0.33249695 0.77201458 1.         0.77201458 0.33249695]
    >>> print(windows.taylor(4, nbar=2, sll=20, sym=False))
    [0.56338711 0.83322872 1.         0.83322872]
    """
    M, periodic, dt, out = _output(M, sym, dtype, out, "taylor", xp, device)
    if isinstance(nbar, (bool, _np.bool_)) or not isinstance(nbar, (int, _np.integer)):
        raise TypeError(f"taylor(): nbar must be an integer (a Python int or a NumPy integer); got "
                        f"{type(nbar).__name__} {_shown(nbar)}")
    nbar = int(nbar)
    if not 1 <= nbar <= _taylor_window.MAX_NBAR:
        raise ValueError(f"taylor(): nbar must be an integer from 1 to {_taylor_window.MAX_NBAR} (scipy raises "
                         f"for nbar < 1 and gives NaN above about 400); got {_windows.shown_int(nbar)}")
    level = _param_fraction(sll, "taylor", "sll")
    if not 0 <= level <= _taylor_window.MAX_SLL:
        raise ValueError(f"taylor(): sll must lie in [0, {_taylor_window.MAX_SLL}] dB (scipy gives NaN for a "
                         f"negative sll and overflows above about 6165); got {_shown(sll)}")
    norm = _flag(norm, "taylor", "norm")
    if M <= 1 or nbar == 1:  # scipy's ones (M <= 1), and W = 1 without coefficients
        return _ones(M, dt, out)
    L = M + 1 if periodic else M
    if L > _taylor_window.MAX_L:
        raise ValueError(f"taylor(): M must be at most {_taylor_window.MAX_L - (1 if periodic else 0)} "
                         f"(2**52{' - 1' if periodic else ''} for sym={not periodic}); got {M}")
    if _taylor_window.magnitude(nbar, level, norm) >= _taylor_window.MAX_SUM:
        raise NotImplementedError(
            f"crtrig.windows.taylor() is not implemented for nbar = {nbar}, sll = {_shown(sll)}, norm = {norm}: "
            "the coefficients' absolute sum reaches 2**14.  scipy.signal.windows.taylor computes it in "
            "float64, not correctly rounded")
    values = _taylor_window.window(L, M, nbar, level, norm, dt if out is None else out.dtype)
    if out is None:
        return values
    out[...] = values  # the same dtype: a copy
    return out


def chebwin(M, at, sym=True, *, xp=None, device=None, dtype=_np.float64, out=None):
    _output(M, sym, dtype, out, "chebwin", xp, device)
    raise NotImplementedError(
        "crtrig.windows.chebwin() is not provided and will not be: the Dolph-Chebyshev window is the "
        "FFT of a Chebyshev polynomial sampled at irrational points, not affordable correctly rounded.  "
        "scipy.signal.windows.chebwin computes it inexactly (float64, not correctly rounded)")


def dpss(M, NW, Kmax=None, sym=True, norm=None, return_ratios=False, *, xp=None, device=None,
         dtype=_np.float64, out=None):
    _output(M, sym, dtype, out, "dpss", xp, device)
    raise NotImplementedError(
        "crtrig.windows.dpss() is not provided and will not be: Slepian sequences are eigenvectors of a "
        "tridiagonal matrix, not affordable correctly rounded.  scipy.signal.windows.dpss computes them "
        "inexactly (float64, not correctly rounded)")


cosine.__doc__ = _DOC.format(
    title="cosine (half-sine)", name="cosine", formula="sin(pi (n + 1/2) / L)",
    extra="\n\n    with L = M if `sym` else M + 1 (scipy's; not D).  Computed as cos(2 pi (L - 1 - 2n)/(4L))\n"
          "    from exact integers; M is at most 2**51 (2**51 - 1 periodic): ValueError above.",
    onnx="hann_window", supported=_SUPPORTED_NAMES, onnx_note="; a different window", examples="""\
    >>> from crtrig import windows
    >>> print(windows.cosine(3))
    [0.5 1.  0.5]""")
barthann.__doc__ = _DOC.format(
    title="modified Bartlett-Hann", name="barthann", formula="0.62 - 0.48 f + 0.38 cos(2 pi f)",
    extra="\n\n    with f = abs(n / (L - 1) - 1/2), L = M if `sym` else M + 1 (scipy's formula; 0.62, 0.48,\n"
          "    0.38 taken exactly); M is at most 2**52 + 1 (2**52 periodic): ValueError above.",
    onnx="hann_window", supported=_SUPPORTED_NAMES, onnx_note="; a different window", examples="""\
    >>> from crtrig import windows
    >>> print(windows.barthann(5))
    [0.   0.5  1.   0.5  0.  ]""")
_SINC_DOC = """Return the {title} window of length `M`, correctly rounded;
    scipy.signal.windows.{name}'s interface.

    {formula}
    with x = 2n/(L - 1) - 1, n = 0 .. M-1, L = M if `sym` else M + 1 (scipy's
    extension, then the first M points), each value the exact real number rounded once
    to nearest-even into `dtype`.  {exact}  Off those points the value is
    irrational (pi is transcendental), computed in double-double by the C core
    (src/core/window_sinc.c) with a proven bound, and finished with exact integers
    where that does not decide the rounding.  M is at most 2**52 + 1 (2**52 periodic):
    ValueError above.

    Parameters
    ----------
    M : int
        Number of points: a non-negative integer (a Python int, a NumPy integer, or
        any object with ``__index__``).  0 gives an empty array; 1 gives ``[1.]``
        (in both modes, as in scipy).
    sym : bool, default True
        True: the symmetric window (filter design), scipy's default.  False: the
        periodic window, the first M values of the symmetric window of M + 1
        points.{keyword}
    xp, device : optional
        scipy's array-namespace keywords: None or numpy, and None or "cpu".
    dtype : dtype, default float64
        float64, float32, float16, bfloat16 or an integer type ({supported});
        integer outputs truncate the correctly rounded float32 value toward zero.
    out : ndarray, optional
        A writeable 1-D array of length M and a supported dtype to fill and return;
        its dtype is then the output type (an explicit `dtype` must agree with it).

    Returns
    -------
    ndarray
        The window, symmetric: w[L - 1 - n] = w[n].

    Raises
    ------
    TypeError
        `M` is not an integer (a bool, None, ...), `sym` is not a bool, `dtype`
        is not supported, `xp` is not numpy, or `out` is not a suitable array.
    ValueError
        `M` is a float or a str (as in scipy), negative or too large, `device` is
        not "cpu", or `out` has another length or is read-only.  Every error is
        raised before anything is written to `out`.

    Examples
    --------
{examples}
    """
bohman.__doc__ = _SINC_DOC.format(
    title="Bohman", name="bohman",
    formula="w[n] = (1 - abs(x)) cos(pi abs(x)) + sin(pi abs(x))/pi,\n",
    exact="It is exactly 0 at the ends (abs(x) = 1)\n    and 1 at the centre (x = 0, odd L).",
    keyword="", supported=_SUPPORTED_NAMES, examples="""\
    >>> from crtrig import windows
    >>> print(windows.bohman(5))
    [0.         0.31830989 1.         0.31830989 0.        ]""")
lanczos.__doc__ = _SINC_DOC.format(
    title="Lanczos (sinc)", name="lanczos",
    formula="w[n] = sinc(x) = sin(pi x)/(pi x),\n",
    exact="It is exactly 0 at the ends (x = -1, 1,\n    where scipy's float64 sin(pi) gives about 3.9e-17) "
          "and 1 at the centre (x = 0, odd L).",
    keyword="  Keyword-only, as in scipy.", supported=_SUPPORTED_NAMES, examples="""\
    >>> from crtrig import windows
    >>> print(windows.lanczos(5))
    [0.         0.63661977 1.         0.63661977 0.        ]""")
chebwin.__doc__ = _NOT_DONE_DOC.format(
    title="The Dolph-Chebyshev window", name="chebwin",
    why="Not provided, permanently: an FFT of a Chebyshev polynomial is not affordable correctly rounded.",
    params="at : float\n        The attenuation in dB (scipy's signature).\n    ", example="8, 100",
    extra_raises="").replace("crtrig.windows.chebwin() is not implemented: ...",
                             "crtrig.windows.chebwin() is not provided and will not be: ...")
dpss.__doc__ = _NOT_DONE_DOC.format(
    title="The discrete prolate spheroidal (Slepian) window", name="dpss",
    why="Not provided, permanently: eigenvectors of a tridiagonal matrix are not affordable correctly "
        "rounded.",
    params="NW, Kmax, norm, return_ratios : optional\n        As in scipy.\n    ", example="8, 3",
    extra_raises="").replace("crtrig.windows.dpss() is not implemented: ...",
                             "crtrig.windows.dpss() is not provided and will not be: ...")


# scipy 1.17's get_window table (scipy.signal.windows._windows._WIN_FUNC_DATA): names ->
# (function, parameters: True = required, False = none, "OPTIONAL"); plus "hanning" (crtrig's
# earlier alias of "hann", kept).
_WIN_FUNC_DATA = {
    ("barthann", "brthan", "bth"): (barthann, False),
    ("bartlett", "bart", "brt"): (bartlett, False),
    ("blackman", "black", "blk"): (blackman, False),
    ("blackmanharris", "blackharr", "bkh"): (blackmanharris, False),
    ("bohman", "bman", "bmn"): (bohman, False),
    ("boxcar", "box", "ones", "rect", "rectangular"): (boxcar, False),
    ("chebwin", "cheb"): (chebwin, True),
    ("cosine", "halfcosine"): (cosine, False),
    ("dpss",): (dpss, True),
    ("exponential", "poisson"): (exponential, "OPTIONAL"),
    ("flattop", "flat", "flt"): (flattop, False),
    ("gaussian", "gauss", "gss"): (gaussian, True),
    ("general cosine", "general_cosine"): (general_cosine, True),
    ("general gaussian", "general_gaussian", "general gauss", "general_gauss", "ggs"): (general_gaussian, True),
    ("general hamming", "general_hamming"): (general_hamming, True),
    ("hamming", "hamm", "ham"): (hamming, False),
    ("hann", "han", "hanning"): (hann, False),
    ("kaiser", "ksr"): (kaiser, True),
    ("kaiser bessel derived", "kaiser_bessel_derived", "kbd"): (kaiser_bessel_derived, True),
    ("lanczos", "sinc"): (lanczos, False),
    ("nuttall", "nutl", "nut"): (nuttall, False),
    ("parzen", "parz", "par"): (parzen, False),
    ("taylor", "taylorwin"): (taylor, "OPTIONAL"),
    ("triangle", "triang", "tri"): (triang, False),
    ("tukey", "tuk"): (tukey, "OPTIONAL"),
}
_WIN_FUNCS = {name: entry for names, entry in _WIN_FUNC_DATA.items() for name in names}


def _shown(value):
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:60]}... ({len(text)} characters)"


def get_window(window, Nx, fftbins=True, *, xp=None, device=None, dtype=_np.float64):
    """Return a window of length `Nx` by name; scipy.signal.get_window's interface,
    with correctly rounded values.

    Parameters
    ----------
    window : str, tuple or float
        A name of scipy 1.17's table (every name and alias: "hann", "han",
        "triangle", "box", "ksr", ...; crtrig also keeps "hanning"), or a tuple
        (name, parameters...) such as ``("general_hamming", 0.54)`` or
        ``("tukey", 0.25)``; a name may end in "_periodic" or "_symmetric", which
        overrides `fftbins`.  A float (or anything ``float()`` accepts that is not
        a str or tuple) is Kaiser's beta, as in scipy.  Windows that crtrig does
        not compute raise NotImplementedError (see the README's table).
    Nx : int
        The number of points, a positive integer.
    fftbins : bool, default True
        True: the periodic window (for FFTs), False: symmetric.
    xp, device : optional
        scipy's array-namespace keywords: None or numpy, and None or "cpu"
        (general_cosine takes neither, as in scipy).
    dtype : dtype, default float64
        As in `hann`.

    Returns
    -------
    ndarray
        The window.

    Raises
    ------
    ValueError
        As scipy raises it: `Nx` is not a positive integer (0, negative, a
        float, a str), `fftbins` is not a bool, `window` is not a str, tuple or
        float, an unknown name, parameters given to a window that takes none or
        missing where required; and what the window function raises.
    NotImplementedError
        A window crtrig does not compute (yet, or ever: chebwin, dpss).
    TypeError
        `Nx` is a bool or not an integer, `xp` is not numpy, or `dtype` is
        wrong as in `hann`.

    Examples
    --------
    >>> from crtrig import windows
    >>> print(windows.get_window("hann", 4))
    [0.  0.5 1.  0.5]
    >>> print(windows.get_window(("general_hamming", 0.3), 4))
    [-0.4  0.3  1.   0.3]
    >>> print(windows.get_window("triangle_symmetric", 5))
    [0.33333333 0.66666667 1.         0.66666667 0.33333333]
    >>> windows.get_window("hann", 4.0)
    Traceback (most recent call last):
    ValueError: Parameter Nx=4.0 is not a positive integer (get_window(): Nx must be ...
    """
    if isinstance(Nx, (bool, _np.bool_)):
        raise TypeError(f"get_window(): Nx must be {_M_KINDS}; got {type(Nx).__name__}")
    if isinstance(Nx, (float, _np.floating, str)) or not hasattr(type(Nx), "__index__"):
        if isinstance(Nx, (float, _np.floating, str)):
            raise ValueError(f"Parameter Nx={_shown(Nx)} is not a positive integer (get_window(): Nx must be "
                             f"{_M_KINDS})")
        raise TypeError(f"get_window(): Nx must be {_M_KINDS}; got {type(Nx).__name__}")
    Nx = _length(Nx, "get_window", "Nx") if _operator.index(Nx) >= 0 else _operator.index(Nx)
    if Nx <= 0:
        raise ValueError(f"Parameter Nx={_windows.shown_int(Nx)} is not a positive integer")
    if not isinstance(fftbins, (bool, _np.bool_)):
        raise ValueError(f"Parameter fftbins={_shown(fftbins)} is not of type bool!")
    _namespace(xp, device, "get_window")
    if not isinstance(window, (str, tuple)):
        try:  # scipy: anything float() accepts is Kaiser's beta
            beta = float(window)
        except Exception as exc:
            raise ValueError(f"Parameter window={_shown(window)} must be a tuple, a string or a float!") from exc
        return kaiser(Nx, beta, not fftbins, xp=xp, device=device, dtype=dtype)
    if isinstance(window, tuple) and (not window or not isinstance(window[0], str)):
        raise ValueError(f"First tuple entry of parameter window={_shown(window)} is not a str!")
    sym = not fftbins
    name = window if isinstance(window, str) else window[0]
    if name.endswith("_symmetric"):
        sym, name = True, name[: -len("_symmetric")]
    elif name.endswith("_periodic"):
        sym, name = False, name[: -len("_periodic")]
    if name not in _WIN_FUNCS:
        raise ValueError(f"Invalid window name {_shown(name)} in parameter window={_shown(window)}!")
    function, has_args = _WIN_FUNCS[name]
    args = window[1:] if isinstance(window, tuple) else ()
    if args and has_args is False:
        raise ValueError(f"{_shown(name)} does not allow parameters, but window={_shown(window)}!")
    if not args and has_args is True:
        raise ValueError(f"{_shown(name)} must have parameters, but window={_shown(window)}!")
    if function is dpss:
        if len(args) != 1:
            raise ValueError(f"Window {name} must have one parameter but window={_shown(window)}")
        return dpss(Nx, args[0], Kmax=None, sym=sym, xp=xp, device=device, dtype=dtype)
    if function is general_cosine:
        if not (xp is None and device is None):
            raise ValueError("'general_cosine' does not accept the parameters xp and device not being None!")
        return general_cosine(Nx, *args, sym=sym, dtype=dtype)
    return function(Nx, *args, sym=sym, xp=xp, device=device, dtype=dtype)
