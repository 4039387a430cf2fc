"""``python -m crtrig compare``: crtrig and its peers on the same inputs.

Every installed peer -- numpy, scipy, torch, onnxruntime, onnx.reference --
computes the same windows and the same sin/cos inputs as crtrig, and each
result is judged by ``crtrig.reference`` (exact, standard library only,
independent of crtrig's C core).  Each table cell gives the largest distance
from the correctly rounded value, in ULPs of the output type, and the share of
results that are not correctly rounded.  A peer that is not installed is
skipped with a note.

Each peer is judged against its own definition:

* Hann and Blackman are the same everywhere (1/2, 1/2 and 0.42, 0.5, 0.08 as
  the exact fractions 21/50, 1/2, 2/25).
* Hamming differs: ONNX (crtrig, onnxruntime, onnx.reference) uses 25/46,
  21/46; numpy, scipy and torch use 0.54, 0.46, judged against the exact
  27/50, 23/50 (``crtrig.reference.cosine_sum_window``).
* sin and cos are the same everywhere.
* gaussian, exponential, general_gaussian and kaiser (``SCIPY_WINDOWS``, at
  scipy-doc parameters) are judged by scipy's formulas with the parameters as
  crtrig reads them (a float as its shortest decimal: beta 8.6 is 43/5, as
  0.54 is 27/50 for Hamming); the cosine-sum windows by crtrig.reference's
  cosine sums of scipy's decimal coefficients.  A window crtrig.windows does
  not compute (NotImplementedError) is n/a with the reason in the notes.

ULPs: the number of representable values between the two results; +0 and -0
count as equal; a NaN where a number is due (or the reverse) is infinitely
far.  Where a peer has no parameter for the output type (numpy and scipy
windows are float64 only) its float64 result is cast with ``astype``, as a
user would; numpy's periodic window of size M is ``np.hanning(M + 1)[:-1]``.
onnxruntime and onnx.reference run one-node ONNX models (opset 17 for the
windows, 22 for Sin and Cos); onnxruntime takes and returns bfloat16 through
Cast nodes to and from float32, which are exact for bfloat16 values.

Speed is measured by ``python -m crtrig bench`` (``crtrig.bench``).
"""

from __future__ import annotations

import argparse
import math
import platform
import sys
import time
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

import crtrig
from .. import reference
from .._cli_args import integer, integer_list, names_list

PROGRAM = "crtrig compare"

PEERS = ("numpy", "scipy", "torch", "onnxruntime", "onnx.reference")
#: The ONNX windows, and crtrig.windows' rational windows (scipy's interface; judged
#: against scipy's formulas in exact fractions, scipy_rational_exact).
ONNX_WINDOW_KINDS = ("hann", "hamming", "blackman")
RATIONAL_KINDS = ("bartlett", "triang", "parzen")
#: crtrig.windows.tukey at scipy.signal.spectrogram's default alpha, judged by
#: crtrig.reference's Hann terms (tukey_bits).
TUKEY_ALPHA = "0.25"
WINDOW_KINDS = ONNX_WINDOW_KINDS + RATIONAL_KINDS + ("tukey",)
SCIPY_ONLY_KINDS = RATIONAL_KINDS + ("tukey",)
TRIG_FUNCTIONS = ("sin", "cos")
#: sin(pi x), cos(pi x): crtrig's next to what numpy and torch users write, sin(pi * x).
PI_FUNCTIONS = ("sinpi", "cospi")
#: The peers with a sinpi/cospi row (the ONNX ones have no such operator).
PI_PEERS = ("crtrig", "numpy", "torch")
#: tan and tanpi (numpy and torch: tan(pi * x) for tanpi, as users write it; the ONNX
#: peers have Tan only).
TAN_FUNCTIONS = ("tan", "tanpi")
#: crtrig.windows' exp, I0 and cosine windows at scipy-doc parameters (SCIPY_WINDOWS below):
#: each op is the rows of that function; a window crtrig does not compute yet (a
#: NotImplementedError) gets n/a cells saying so.
SCIPY_WINDOW_OPS = ("gaussian", "exponential", "general_gaussian", "kaiser", "nuttall", "blackmanharris",
                    "flattop", "general_cosine", "cosine", "barthann", "bohman", "lanczos", "taylor")
OPS = WINDOW_KINDS + SCIPY_WINDOW_OPS + TRIG_FUNCTIONS + PI_FUNCTIONS + TAN_FUNCTIONS
DTYPES = ("float16", "bfloat16", "float32", "float64")

DEFAULT_SIZES = (10, 257, 1000, 4097, 100001)
QUICK_SIZES = (10, 257)
DEFAULT_SAMPLES = 100_000
QUICK_SAMPLES = 2_000
MAX_SIZE = 1 << 20
MAX_SAMPLES = 1_000_000
DEFAULT_SEED = 2026

#: The Hamming coefficients of numpy, scipy and torch, exact.
DECIMAL_HAMMING = ("0.54", "0.46")


def _numpy_dtype(name: str) -> np.dtype:
    """The numpy dtype of a float type name (bfloat16: ml_dtypes', imported when
    a comparison runs, not for --help)."""
    return reference.FLOAT_FORMATS[name].dtype
_WINDOW_OPS = {"hann": "HannWindow", "hamming": "HammingWindow", "blackman": "BlackmanWindow"}


class Unsupported(Exception):
    """A peer does not offer this operation in this dtype (the message says why)."""


@dataclass
class Peer:
    """One library, as compare uses it.

    ``window(kind, periodic, dtype)`` returns a function of the size giving a
    numpy array of that dtype; ``trig(func, dtype)`` a function of a numpy
    array giving one of the same dtype.  Either may be None (the peer does
    not have that family) or raise ``Unsupported``.  ``hamming`` names the
    peer's Hamming definition: "onnx" or "0.54/0.46".
    """

    name: str
    version: str
    hamming: str
    note: str
    window: Callable[[str, bool, str], Callable[[int], np.ndarray]] | None
    trig: Callable[[str, str], Callable[[np.ndarray], np.ndarray]] | None
    cache: dict = field(default_factory=dict)

    def window_function(self, kind: str, periodic: bool, dtype: str):
        key = ("window", kind, periodic, dtype)
        if key not in self.cache:
            self.cache[key] = self.window(kind, periodic, dtype)
        return self.cache[key]

    def trig_function(self, func: str, dtype: str):
        key = ("trig", func, dtype)
        if key not in self.cache:
            self.cache[key] = self.trig(func, dtype)
        return self.cache[key]


# ---------------------------------------------------------------------------
# Peers
# ---------------------------------------------------------------------------


def scipy_rational_exact(kind: str, length: int, i: int) -> Fraction:
    """Element i of scipy's symmetric `kind` window (bartlett, triang, parzen, boxcar)
    of `length` >= 2 points, from scipy's formula in exact fractions (independent of
    crtrig._rational_windows)."""
    if kind == "boxcar":
        return Fraction(1)
    if kind == "triang":
        n = i + 1 if i < (length + 1) // 2 else length - i
        return Fraction(2 * n - 1, length) if length % 2 == 0 else Fraction(2 * n, length + 1)
    if kind == "bartlett":
        return Fraction(2 * i, length - 1) if 2 * i <= length - 1 else 2 - Fraction(2 * i, length - 1)
    n = Fraction(2 * i - (length - 1), 2)
    t = abs(n) / Fraction(length, 2)
    return 1 - 6 * t**2 + 6 * t**3 if abs(n) <= Fraction(length - 1, 4) else 2 * (1 - t) ** 3


def tukey_bits(size: int, periodic: bool, n: int, dtype: str) -> int:
    """Bits of scipy's tukey(size, TUKEY_ALPHA, sym=not periodic) at n, correctly rounded
    into dtype: scipy's taper 0.5 (1 + cos(pi (-1 + 2n/(alpha (L-1))))) (and its mirror)
    is sin^2(pi m/(alpha (L-1))), crtrig.reference's Hann term m of that denominator;
    the middle is 1 (L = size + 1 if periodic, scipy's _extend)."""
    alpha = Fraction(TUKEY_ALPHA)
    if size == 1:
        return reference.round_rational(1, 1, dtype)
    L = size + 1 if periodic else size
    width = alpha.numerator * (L - 1) // (2 * alpha.denominator)
    m = n if n <= width else L - 1 - n if n >= L - 1 - width else None
    if m is None:
        return reference.round_rational(1, 1, dtype)
    x = Fraction(m) / (alpha * (L - 1))
    return reference.window_bits("hann", x.numerator, x.denominator, dtype)


# ---------------------------------------------------------------------------
# crtrig.windows' parametrised and cosine windows (scipy's interface): one table
# for compare's rows and bench's.
# ---------------------------------------------------------------------------

#: scipy's coefficients of its cosine-sum windows (scipy.signal.windows docs).
NUTTALL = "0.3635819, 0.4891775, 0.1365995, 0.0106411"
BLACKMANHARRIS = "0.35875, 0.48829, 0.14128, 0.01168"
FLATTOP = "0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368"


@dataclass(frozen=True)
class ScipyWindow:
    """One crtrig.windows function at one parameter set, next to its peers.

    ``args``: the parameters after M as crtrig gets them, Python text evaluated
    with N (the window size) and Fraction bound (floats are read by crtrig, and
    here by the reference, as their shortest decimal: 8.6 is 43/5); ``scipy_args``
    the same for scipy and numpy (floats).  ``numpy``: numpy's function (symmetric
    only), called as np.<numpy>(M, *scipy_args).  ``torch``: an expression
    template of N with {sym}, {periodic} and {dtype} to fill.  ``exact``: the
    family of the exact reference (scipy_window_bits), None if crtrig.compare has
    none for it yet."""

    name: str
    label: str
    args: str = ""
    scipy_args: str = ""
    numpy: str | None = None
    torch: str | None = None
    exact: str | None = None

    def crtrig_values(self, size: int) -> tuple:
        return _eval_args(self.args, size)

    def scipy_values(self, size: int) -> tuple:
        return _eval_args(self.scipy_args, size)


def _eval_args(text: str, size: int) -> tuple:
    return eval(f"({text},)", {"Fraction": Fraction, "N": size}) if text else ()


_TORCH_WINDOWS = "torch.signal.windows."
SCIPY_WINDOWS = (
    ScipyWindow("gaussian", "gaussian(std=7)", "7", "7",
                torch=_TORCH_WINDOWS + "gaussian(N, std=7, sym={sym}, dtype={dtype})", exact="exp"),
    ScipyWindow("gaussian", "gaussian(std=N/6)", "Fraction(N, 6)", "N / 6",
                torch=_TORCH_WINDOWS + "gaussian(N, std=N / 6, sym={sym}, dtype={dtype})", exact="exp"),
    ScipyWindow("exponential", "exponential(tau=3)", "None, 3", "None, 3",
                torch=_TORCH_WINDOWS + "exponential(N, tau=3, sym={sym}, dtype={dtype})", exact="exp"),
    ScipyWindow("general_gaussian", "general_gaussian(p=1.5, sig=7)", "1.5, 7", "1.5, 7", exact="exp"),
    ScipyWindow("kaiser", "kaiser(beta=8.6)", "8.6", "8.6", numpy="kaiser",
                torch="torch.kaiser_window(N, periodic={periodic}, beta=8.6, dtype={dtype})", exact="kaiser"),
    ScipyWindow("kaiser", "kaiser(beta=14)", "14", "14", numpy="kaiser",
                torch="torch.kaiser_window(N, periodic={periodic}, beta=14.0, dtype={dtype})", exact="kaiser"),
    ScipyWindow("nuttall", "nuttall", torch=_TORCH_WINDOWS + "nuttall(N, sym={sym}, dtype={dtype})",
                exact="cosine sum " + NUTTALL),
    ScipyWindow("blackmanharris", "blackmanharris", exact="cosine sum " + BLACKMANHARRIS),
    ScipyWindow("flattop", "flattop", exact="cosine sum " + FLATTOP),
    ScipyWindow("general_cosine", "general_cosine(flattop's a)", f"[{FLATTOP}]", f"[{FLATTOP}]",
                torch=_TORCH_WINDOWS + f"general_cosine(N, a=[{FLATTOP}], sym={{sym}}, dtype={{dtype}})",
                exact="cosine sum " + FLATTOP),
    ScipyWindow("cosine", "cosine", torch=_TORCH_WINDOWS + "cosine(N, sym={sym}, dtype={dtype})",
                exact="one cosine"),
    ScipyWindow("barthann", "barthann", exact="one cosine"),
    ScipyWindow("bohman", "bohman", exact="sinc"),
    ScipyWindow("lanczos", "lanczos", exact="sinc"),
    ScipyWindow("taylor", "taylor", exact="taylor"),
)
SCIPY_WINDOWS_BY_LABEL = {entry.label: entry for entry in SCIPY_WINDOWS}
SCIPY_WINDOW_NAMES = tuple(dict.fromkeys(entry.name for entry in SCIPY_WINDOWS))
_FORMAT_CODES = {"float16": 0, "bfloat16": 1, "float32": 2, "float64": 3}


def _exact_parameter(value):
    """A parameter as crtrig reads it: floats as their shortest decimal, exact."""
    if value is None:
        return None
    if isinstance(value, float):
        return Fraction(repr(value))
    if isinstance(value, (list, tuple)):
        return [_exact_parameter(v) for v in value]
    return Fraction(value)


def _exact_value(entry: ScipyWindow, size: int, periodic: bool, n: int, dtype: str) -> float:
    """Element n of scipy's `entry` window (of size + 1 points if periodic, scipy's
    _extend) from scipy's formula, correctly rounded into dtype, as a float.  The exp
    and I0 values go through the integer enclosures of crtrig._exp_windows and
    crtrig._kaiser_window (exp_neg_rounded, quotient_rounded: Python integers, not the
    C core), on arguments formed here from scipy's formulas; bohman and lanczos through
    crtrig._sinc_windows.value_rounded and taylor through
    crtrig._taylor_window.value_rounded (integers too)."""
    from .. import _exp_windows, _kaiser_window

    params = [_exact_parameter(v) for v in entry.crtrig_values(size)]
    L = size + 1 if periodic else size
    code = _FORMAT_CODES[dtype]
    if L == 1:
        return 1.0
    c = n - Fraction(L - 1, 2)   # n - (L - 1)/2
    if entry.name == "gaussian":
        (std,) = params
        return _exp_windows.exp_neg_rounded(c * c / (2 * std * std), code)
    if entry.name == "general_gaussian":
        p, sig = params
        if (2 * p).denominator != 1:
            raise Unsupported(f"no exact reference for general_gaussian with p = {p} (2p not an integer)")
        return _exp_windows.exp_neg_rounded(abs(c / sig) ** int(2 * p) / 2, code)
    if entry.name == "exponential":
        center, tau = params
        if center is not None:
            c = n - center
        return _exp_windows.exp_neg_rounded(abs(c) / tau, code)
    if entry.name == "kaiser":
        (beta,) = params
        t = Fraction(2 * n, L - 1) - 1
        return _kaiser_window.quotient_rounded(beta * beta * (1 - t * t) / 4, beta * beta / 4, code)
    if entry.exact == "sinc":
        # bohman, lanczos: scipy's x = 2n/(L - 1) - 1 is g - 1 with g = 2m/(L - 1) for the
        # mirrored m = min(n, L - 1 - n) (both windows are even in x); value_rounded
        # encloses w(g) with Python integers (not the C core).
        from .. import _sinc_windows
        m = min(n, L - 1 - n)
        return _sinc_windows.value_rounded(_sinc_windows.KINDS[entry.name], m, L - 1, code)
    if entry.exact == "taylor":
        # scipy's defaults (nbar 4, sll 30, norm): element n has j = 2n - (L - 1);
        # value_rounded encloses the coefficients and cosines with Python integers
        # (not the C core).
        from .. import _taylor_window
        return _taylor_window.value_rounded(L, 2 * n - (L - 1), 4, Fraction(30), True, code)
    raise Unsupported(f"no exact reference for {entry.label}")


def scipy_window_bits(entry: ScipyWindow, size: int, periodic: bool, n: int, dtype: str) -> int:
    """Bits of element n of scipy's `entry` window (size points, sym=not periodic),
    correctly rounded into dtype (crtrig.reference's cosine sums for the cosine-sum
    windows).  Raises Unsupported where there is no exact reference here."""
    if entry.exact is None:
        raise Unsupported(f"no exact reference for {entry.label} in crtrig.compare yet")
    if entry.exact == "one cosine":
        # scipy's formulas, L = size (+ 1 if periodic), each element one cosine of an
        # exact rational multiple of 2 pi with rational coefficients, as
        # reference.cosine_sum_bits takes it (sum_j (-1)^j a_j cos(2 pi j m / D)):
        #   cosine    sin(pi (n + 1/2)/L) = cos(2 pi |L - 1 - 2n| / (4L)):  a = (0, -1);
        #   barthann  f = |n/(L - 1) - 1/2| = m/D, m = |2n - (L - 1)|, D = 2 (L - 1):
        #             0.62 - 0.48 f + 0.38 cos(2 pi f):  a = (0.62 - 0.48 m/D, -0.38).
        L = size + 1 if periodic else size
        if size == 1 or L == 1:
            return reference.round_rational(1, 1, dtype)
        if entry.name == "cosine":
            return reference.cosine_sum_bits([0, -1], abs(L - 1 - 2 * n), 4 * L, dtype)
        m, D = abs(2 * n - (L - 1)), 2 * (L - 1)
        return reference.cosine_sum_bits([Fraction(62, 100) - Fraction(48, 100) * Fraction(m, D),
                                          Fraction(-38, 100)], m, D, dtype)
    if entry.exact.startswith("cosine sum "):
        if size == 1:
            return reference.round_rational(1, 1, dtype)
        coefficients = [c.strip() for c in entry.exact[len("cosine sum "):].split(",")]
        return reference.cosine_sum_bits(coefficients, n, size if periodic else size - 1, dtype)
    return reference.float_to_bits(_exact_value(entry, size, periodic, n, dtype), dtype)


def _narrow_bits(value: float, dtype: str) -> int | None:
    """The bits of RN_dtype(y) for any real y that rounds to the double `value`, or None
    if that depends on y: y lies strictly between value's two neighbours, rounding is
    monotone, so if both neighbours round alike into dtype so does y (a narrower
    format's rounding boundaries are doubles)."""
    if value == 0.0:
        return reference.round_rational(0, 1, dtype)  # y < 2^-1074: 0 in every narrower format
    below, above = math.nextafter(value, -math.inf), math.nextafter(value, math.inf)
    low = reference.round_rational(*below.as_integer_ratio(), dtype)
    return low if low == reference.round_rational(*above.as_integer_ratio(), dtype) else None


def scipy_window(entry: ScipyWindow, size: int, periodic: bool, dtypes, cache: dict) -> dict:
    """The whole window in each of dtypes, correctly rounded (dtype -> array): float64
    values of the first ceil(L/2) points, mirrored (these windows are symmetric about
    (L - 1)/2), each narrower dtype from the float64 value where that decides it
    (_narrow_bits), else computed into that dtype."""
    if entry.exact is None or entry.exact.startswith("cosine sum ") or entry.exact == "one cosine":
        L = size + 1 if periodic else size
        result = {}
        for dtype in dtypes:
            fmt = reference.FLOAT_FORMATS[dtype]
            if entry.exact == "one cosine":  # symmetric about (L - 1)/2: half, mirrored
                half = [scipy_window_bits(entry, size, periodic, i, dtype) for i in range(min(size, (L + 1) // 2))]
                bits = [half[i if i < len(half) else L - 1 - i] for i in range(size)]
            else:
                bits = [scipy_window_bits(entry, size, periodic, i, dtype) for i in range(size)]
            result[dtype] = np.array(bits, dtype=fmt.bits_dtype).view(fmt.dtype)
        return result
    L = size + 1 if periodic else size
    key = (entry.label, size, periodic)
    if key not in cache:
        # symmetric about (L - 1)/2 except exponential about its own centre
        centred = entry.name == "exponential" and entry.crtrig_values(size)[0] is not None
        half = size if centred else (L + 1) // 2
        cache[key] = [_exact_value(entry, size, periodic, n, "float64") for n in range(half)]
    doubles = cache[key]
    result = {}
    for dtype in dtypes:
        fmt = reference.FLOAT_FORMATS[dtype]
        bits = []
        for n in range(size):
            m = n if n < len(doubles) else L - 1 - n
            value = doubles[m]
            if dtype == "float64":
                bits.append(reference.float_to_bits(value, dtype))
                continue
            narrow = _narrow_bits(value, dtype)
            bits.append(narrow if narrow is not None else
                        reference.float_to_bits(_exact_value(entry, size, periodic, m, dtype), dtype))
        result[dtype] = np.array(bits, dtype=fmt.bits_dtype).view(fmt.dtype)
    return result


def _rational_only(peer_name, kind):
    if kind in SCIPY_ONLY_KINDS or kind in SCIPY_WINDOWS_BY_LABEL:
        raise Unsupported(f"{peer_name} has no {kind} window")


def crtrig_peer() -> Peer:
    functions = {"hann": crtrig.hann_window, "hamming": crtrig.hamming_window,
                 "blackman": crtrig.blackman_window}

    def window(kind, periodic, dtype):
        dt = _numpy_dtype(dtype)
        if kind == "tukey":
            return lambda n: crtrig.windows.tukey(n, TUKEY_ALPHA, sym=not periodic, dtype=dt)
        if kind in SCIPY_WINDOWS_BY_LABEL:  # NotImplementedError where crtrig does not compute it
            entry = SCIPY_WINDOWS_BY_LABEL[kind]
            func = getattr(crtrig.windows, entry.name)
            return lambda n: func(n, *entry.crtrig_values(n), sym=not periodic, dtype=dt)
        if kind in RATIONAL_KINDS:  # crtrig.windows: scipy's interface
            func = getattr(crtrig.windows, kind)
            return lambda n: func(n, sym=not periodic, dtype=dt)
        func = functions[kind]
        return lambda n: func(n, periodic=periodic, dtype=dt)

    def trig(func, dtype):
        ufunc = getattr(crtrig, func)
        try:
            ufunc(np.zeros(1, dtype=_numpy_dtype(dtype)))
        except TypeError:
            raise Unsupported(f"crtrig {crtrig.__version__} has no {dtype} loop") from None
        return ufunc

    from .. import _core
    target = getattr(_core, "SIMD_TARGET", "?")
    return Peer("crtrig", crtrig.__version__, "onnx", f"SIMD target {target}", window, trig)


def _cast_from_float64(base, dtype):
    if dtype == "float64":
        return base
    dt = _numpy_dtype(dtype)
    return lambda n: base(n).astype(dt)


def numpy_peer(threads: int = 1) -> Peer:
    functions = {"hann": np.hanning, "hamming": np.hamming, "blackman": np.blackman, "bartlett": np.bartlett}

    def window(kind, periodic, dtype):
        entry = SCIPY_WINDOWS_BY_LABEL.get(kind)
        if entry is not None and entry.numpy is not None:  # np.kaiser(M, beta): symmetric only
            g = getattr(np, entry.numpy)
            f = lambda n: g(n, *entry.scipy_values(n - periodic))  # the parameters of the size asked
        elif kind not in functions:
            raise Unsupported(f"numpy has no {kind} window")
        else:
            f = functions[kind]
        base = (lambda n: f(n + 1)[:-1]) if periodic else f
        return _cast_from_float64(base, dtype)

    def trig(func, dtype):
        if func in PI_FUNCTIONS or func == "tanpi":  # what users write: pi and the product rounded
            f = getattr(np, func[:3])
            return lambda x: f(np.pi * x)
        return getattr(np, func)

    return Peer("numpy", np.__version__, "0.54/0.46",
                "windows in float64 only, other dtypes by astype; periodic size M is "
                "np.hanning(M + 1)[:-1]; bfloat16 sin/cos are ml_dtypes' loops; sinpi is "
                "np.sin(np.pi * x), tanpi np.tan(np.pi * x)", window, trig)


def scipy_peer(threads: int = 1) -> Peer:
    import scipy
    from scipy.signal import windows

    functions = {"hann": windows.hann, "hamming": windows.hamming, "blackman": windows.blackman,
                 "bartlett": windows.bartlett, "triang": windows.triang, "parzen": windows.parzen,
                 "tukey": lambda n, sym: windows.tukey(n, float(TUKEY_ALPHA), sym=sym)}

    def window(kind, periodic, dtype):
        entry = SCIPY_WINDOWS_BY_LABEL.get(kind)
        if entry is not None:
            g = getattr(windows, entry.name)
            return _cast_from_float64(lambda n: g(n, *entry.scipy_values(n), sym=not periodic), dtype)
        f = functions[kind]
        return _cast_from_float64(lambda n: f(n, sym=not periodic), dtype)

    return Peer("scipy", scipy.__version__, "0.54/0.46",
                "scipy.signal.windows, float64 only, other dtypes by astype; no sin/cos of its own",
                window, None)


def torch_peer(threads: int = 1) -> Peer:
    import torch

    torch.set_num_threads(threads)

    functions = {"hann": torch.hann_window, "hamming": torch.hamming_window,
                 "blackman": torch.blackman_window, "bartlett": torch.bartlett_window}
    dtypes = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
              "float64": torch.float64}

    def to_numpy(tensor):
        if tensor.dtype == torch.bfloat16:  # numpy has no bfloat16: move the bits
            return tensor.view(torch.int16).numpy().view(np.uint16).view(_numpy_dtype("bfloat16"))
        return tensor.numpy()

    def from_numpy(array):
        if array.dtype == _numpy_dtype("bfloat16"):
            return torch.from_numpy(np.ascontiguousarray(array).view(np.int16)).view(torch.bfloat16)
        return torch.from_numpy(np.ascontiguousarray(array))

    def window(kind, periodic, dtype):
        entry = SCIPY_WINDOWS_BY_LABEL.get(kind)
        if entry is not None:
            if entry.torch is None:
                raise Unsupported(f"torch has no {entry.name} window")
            expression = entry.torch.format(sym=not periodic, periodic=periodic, dtype="dt")
            f = eval(compile(f"lambda N: {expression}", "<torch>", "eval"), {"torch": torch, "dt": dtypes[dtype]})
            return lambda n: to_numpy(f(n))
        if kind not in functions:
            raise Unsupported(f"torch has no {kind} window")
        f, dt = functions[kind], dtypes[dtype]
        return lambda n: to_numpy(f(n, periodic=periodic, dtype=dt))

    def trig(func, dtype):
        if func in PI_FUNCTIONS or func == "tanpi":  # torch.sin(torch.pi * x), as users write it
            f = getattr(torch, func[:3])
            return lambda x: to_numpy(f(torch.pi * from_numpy(x)))
        f = getattr(torch, func)
        return lambda x: to_numpy(f(from_numpy(x)))

    return Peer("torch", torch.__version__, "0.54/0.46", f"CPU, {threads} thread(s)", window, trig)


_ONNX_CODES = {"float16": 10, "bfloat16": 16, "float32": 1, "float64": 11}  # TensorProto


def _window_model(kind: str, periodic: bool, dtype: str, via_float: bool):
    """Opset 17: int64 scalar ``size`` -> window ``y`` (cast to float32 if via_float)."""
    from onnx import TensorProto, helper

    code = _ONNX_CODES[dtype]
    nodes = [helper.make_node(_WINDOW_OPS[kind], ["size"], ["w"], periodic=int(periodic),
                              output_datatype=code)]
    out_code = code
    if via_float:
        nodes.append(helper.make_node("Cast", ["w"], ["y"], to=TensorProto.FLOAT))
        out_code = TensorProto.FLOAT
    else:
        nodes[0].output[0] = "y"
    graph = helper.make_graph(nodes, f"{kind}_window",
                              [helper.make_tensor_value_info("size", TensorProto.INT64, [])],
                              [helper.make_tensor_value_info("y", out_code, [None])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _trig_model(func: str, dtype: str, via_float: bool):
    """Opset 22: x -> Sin/Cos(x), through Casts from and to float32 if via_float."""
    from onnx import TensorProto, helper

    code = _ONNX_CODES[dtype]
    op = func.capitalize()
    if via_float:
        nodes = [helper.make_node("Cast", ["x"], ["xc"], to=code),
                 helper.make_node(op, ["xc"], ["yc"]),
                 helper.make_node("Cast", ["yc"], ["y"], to=TensorProto.FLOAT)]
        io_code = TensorProto.FLOAT
    else:
        nodes = [helper.make_node(op, ["x"], ["y"])]
        io_code = code
    graph = helper.make_graph(nodes, func, [helper.make_tensor_value_info("x", io_code, [None])],
                              [helper.make_tensor_value_info("y", io_code, [None])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)])


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    text = lines[0] if lines else type(exc).__name__
    return text if len(text) <= 160 else text[:160] + "..."


def onnxruntime_peer(threads: int = 1) -> Peer:
    import onnxruntime as ort

    def session(model):
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            return ort.InferenceSession(model.SerializeToString(), options,
                                        providers=["CPUExecutionProvider"])
        except Exception as exc:
            raise Unsupported(_first_line(exc)) from None

    def back(array, dtype):
        return array.astype(_numpy_dtype("bfloat16")) if dtype == "bfloat16" else array  # exact

    def window(kind, periodic, dtype):
        _rational_only("ONNX", kind)
        s = session(_window_model(kind, periodic, dtype, via_float=dtype == "bfloat16"))
        return lambda n: back(s.run(None, {"size": np.array(n, dtype=np.int64)})[0], dtype)

    def trig(func, dtype):
        if func in PI_FUNCTIONS or func == "tanpi":
            raise Unsupported(f"ONNX has no {func} operator")
        via_float = dtype == "bfloat16"
        s = session(_trig_model(func, dtype, via_float))
        if via_float:
            return lambda x: back(s.run(None, {"x": x.astype(np.float32)})[0], dtype)
        return lambda x: s.run(None, {"x": x})[0]

    return Peer("onnxruntime", ort.__version__, "onnx",
                f"CPUExecutionProvider, {threads} intra-op thread(s); bfloat16 through Cast nodes", window, trig)


def onnx_reference_peer(threads: int = 1) -> Peer:
    import onnx
    from onnx.reference import ReferenceEvaluator

    def to_ml_bfloat16(array):
        if array.dtype != _numpy_dtype("bfloat16") and array.dtype.itemsize == 2 and array.dtype.names:
            return array.view(np.uint16).view(_numpy_dtype("bfloat16"))  # onnx 1.14-1.18's uint16 bfloat16
        return array

    def window(kind, periodic, dtype):
        _rational_only("ONNX", kind)
        evaluator = ReferenceEvaluator(_window_model(kind, periodic, dtype, via_float=False))
        return lambda n: to_ml_bfloat16(evaluator.run(None, {"size": np.array(n, dtype=np.int64)})[0])

    def trig(func, dtype):
        if func in PI_FUNCTIONS or func == "tanpi":
            raise Unsupported(f"ONNX has no {func} operator")
        evaluator = ReferenceEvaluator(_trig_model(func, dtype, via_float=False))
        return lambda x: to_ml_bfloat16(evaluator.run(None, {"x": x})[0])

    return Peer("onnx.reference", onnx.__version__, "onnx", "ReferenceEvaluator's own kernels",
                window, trig)


PEER_LOADERS = {"numpy": numpy_peer, "scipy": scipy_peer, "torch": torch_peer,
                "onnxruntime": onnxruntime_peer, "onnx.reference": onnx_reference_peer}


def load_peers(names=PEERS, threads: int = 1) -> tuple[list[Peer], dict[str, str]]:
    """The peers among ``names`` that load, and for the others why not.

    ``threads``: the threads torch and onnxruntime may use (compare uses one,
    like crtrig and numpy)."""
    peers, skipped = [], {}
    for name in names:
        try:
            peers.append(PEER_LOADERS[name](threads=threads))
        except ImportError as exc:
            skipped[name] = f"not installed (no module {exc.name or _first_line(exc)})"
        except Exception as exc:  # a broken install: say so and go on
            skipped[name] = f"unusable: {type(exc).__name__}: {_first_line(exc)}"
    return peers, skipped


# ---------------------------------------------------------------------------
# Judging
# ---------------------------------------------------------------------------

_UNSIGNED = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def ulp_distance(got: np.ndarray, want: np.ndarray, dtype: str) -> np.ndarray:
    """Element-wise distance in ULPs of ``dtype`` (float64 array).

    Both arrays hold values of ``dtype``.  +0 and -0 are 0 apart, two NaNs
    are 0 apart, a NaN and a number infinitely far.
    """
    fmt = reference.FLOAT_FORMATS[dtype]
    unsigned = _UNSIGNED[fmt.width // 8]

    def ordered(array):
        bits = np.ascontiguousarray(array).reshape(-1).view(unsigned).astype(np.uint64)
        magnitude = (bits & np.uint64(fmt.sign_bit - 1)).astype(np.int64)
        negative = (bits & np.uint64(fmt.sign_bit)) != 0
        return np.where(negative, -magnitude, magnitude), magnitude > fmt.inf_bits

    a, a_nan = ordered(got)
    b, b_nan = ordered(want)
    ua, ub = a.view(np.uint64), b.view(np.uint64)
    # |a - b| can exceed 2**63 for float64; in uint64 it wraps to the right value.
    distance = np.where(a >= b, ua - ub, ub - ua).astype(np.float64)
    distance[a_nan != b_nan] = math.inf
    distance[a_nan & b_nan] = 0.0
    return distance


@dataclass
class Score:
    """Results of one peer in one table cell."""

    count: int = 0
    wrong: int = 0
    max_ulp: float = 0.0
    problem: str | None = None  # set when the peer could not run this cell

    def add(self, got: np.ndarray, want: np.ndarray, dtype: str) -> None:
        distance = ulp_distance(got, want, dtype)
        self.count += distance.size
        self.wrong += int(np.count_nonzero(distance))
        if distance.size:
            self.max_ulp = max(self.max_ulp, float(distance.max()))

    def cell(self) -> str:
        if self.problem is not None:
            return "n/a"
        return f"{format_ulp(self.max_ulp)} / {format_share(self.wrong, self.count)}"


def format_ulp(x: float) -> str:
    if math.isinf(x):
        return "inf"
    if x < 1e5:
        return str(int(x))
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def format_share(wrong: int, total: int) -> str:
    if wrong == 0:
        return "0 %"
    share = 100.0 * wrong / total
    return f"{share:.3g} %"


def _check_result(result, dtype: str, shape: tuple) -> np.ndarray:
    array = np.asarray(result)
    if array.dtype != _numpy_dtype(dtype) or array.shape != shape:
        raise Unsupported(f"returned {array.dtype}{list(array.shape)}, expected {dtype}{list(shape)}")
    return array


class Oracle:
    """Correctly rounded windows and sin/cos from crtrig.reference, cached."""

    def __init__(self):
        self._windows: dict[tuple, np.ndarray] = {}

    def window(self, hamming: str, kind: str, size: int, periodic: bool, dtype: str) -> np.ndarray:
        decimal = kind == "hamming" and hamming == "0.54/0.46"
        key = (decimal, kind, size, periodic, dtype)
        if key not in self._windows:
            if kind in SCIPY_WINDOWS_BY_LABEL:  # every dtype at once (from the float64 values)
                entry = SCIPY_WINDOWS_BY_LABEL[kind]
                for other, array in scipy_window(entry, size, periodic, DTYPES, self._windows).items():
                    self._windows[(decimal, kind, size, periodic, other)] = array
            elif kind == "tukey":
                fmt = reference.FLOAT_FORMATS[dtype]
                bits = [tukey_bits(size, periodic, i, dtype) for i in range(size)]
                self._windows[key] = np.array(bits, dtype=fmt.bits_dtype).view(fmt.dtype)
            elif kind in RATIONAL_KINDS:
                exact_key = ("exact", kind, size, periodic)
                if exact_key not in self._windows:  # scipy's [1.] at size 1; periodic: of size + 1
                    self._windows[exact_key] = [Fraction(1)] * size if size == 1 else [
                        scipy_rational_exact(kind, size + periodic, i) for i in range(size)]
                fmt = reference.FLOAT_FORMATS[dtype]
                bits = [reference.round_rational(x.numerator, x.denominator, dtype)
                        for x in self._windows[exact_key]]
                self._windows[key] = np.array(bits, dtype=fmt.bits_dtype).view(fmt.dtype)
            elif decimal:
                self._windows[key] = reference.cosine_sum_window(DECIMAL_HAMMING, size, periodic, dtype)
            else:
                self._windows[key] = reference.window(kind, size, periodic, dtype)
        return self._windows[key]

    @staticmethod
    def trig(func: str, x: np.ndarray) -> np.ndarray:
        if func in PI_FUNCTIONS or func in TAN_FUNCTIONS:
            bits_of = reference.tan_bits if func in TAN_FUNCTIONS else reference.trigpi_bits
            x = np.asarray(x)
            fmt = reference.format_name(x.dtype)
            width = x.dtype.itemsize
            values = x.astype(np.float64).reshape(-1).tolist()
            bits = [bits_of(func, v, fmt) for v in values]
            return np.array(bits, dtype=_UNSIGNED[width]).view(x.dtype).reshape(x.shape)
        return reference.trig(func, x)


def _note(notes: list[str], peer: Peer, what: str, exc: BaseException) -> str:
    reason = str(exc) if isinstance(exc, Unsupported) else f"{type(exc).__name__}: {_first_line(exc)}"
    note = f"{peer.name}, {what}: {reason}"
    if note not in notes:
        notes.append(note)
    return reason


def score_windows(peers, oracle, kinds, dtypes, sizes, notes) -> dict[tuple[str, str, str], Score]:
    """(peer, kind, dtype) -> Score over every size, periodic and symmetric."""
    scores: dict[tuple[str, str, str], Score] = {}
    for peer in peers:
        if peer.window is None:
            continue
        for kind in kinds:
            for dtype in dtypes:
                score = scores[(peer.name, kind, dtype)] = Score()
                try:
                    for periodic in (True, False):
                        function = peer.window_function(kind, periodic, dtype)
                        for size in sizes:
                            got = _check_result(function(size), dtype, (size,))
                            score.add(got, oracle.window(peer.hamming, kind, size, periodic, dtype), dtype)
                except Exception as exc:
                    score.problem = _note(notes, peer, f"{kind} window {dtype}", exc)
    return scores


@dataclass
class InputSet:
    dtype: str
    label: str
    values: np.ndarray


def trig_input_sets(dtypes, samples: int, seed: int) -> list[InputSet]:
    """The sin/cos inputs: every finite 16-bit value (or ``samples`` of them,
    if fewer), and for float32 and float64 ``samples`` random finite bit
    patterns and ``samples`` values uniform in [-pi, pi]."""
    rng = np.random.default_rng(seed)
    sets = []
    for dtype in dtypes:
        fmt = reference.FLOAT_FORMATS[dtype]
        if fmt.width == 16:
            bits = np.arange(1 << 16, dtype=np.uint16)
            finite = bits[(bits & np.uint16(fmt.sign_bit - 1)) < fmt.inf_bits]
            if samples >= finite.size:
                sets.append(InputSet(dtype, f"all {finite.size:,} finite", finite.view(fmt.dtype)))
            else:
                chosen = np.sort(rng.choice(finite, samples, replace=False))
                sets.append(InputSet(dtype, f"{samples:,} random finite", chosen.view(fmt.dtype)))
            continue
        unsigned = _UNSIGNED[fmt.width // 8]
        patterns = np.empty(0, dtype=unsigned)
        while patterns.size < samples:
            draw = rng.integers(0, np.iinfo(unsigned).max, 2 * samples, dtype=unsigned, endpoint=True)
            draw = draw[(draw & unsigned(fmt.sign_bit - 1)) < fmt.inf_bits]
            patterns = np.concatenate([patterns, draw])
        sets.append(InputSet(dtype, f"{samples:,} random bit patterns", patterns[:samples].view(fmt.dtype)))
        uniform = rng.uniform(-math.pi, math.pi, samples).astype(fmt.dtype)
        sets.append(InputSet(dtype, f"{samples:,} in [-π, π]", uniform))
    return sets


def score_trig(peers, oracle, functions, input_sets, notes) -> dict[tuple[str, str, int], Score]:
    """(peer, function, index of the input set) -> Score."""
    scores: dict[tuple[str, str, int], Score] = {}
    for func in functions:
        for index, inputs in enumerate(input_sets):
            want = oracle.trig(func, inputs.values)
            for peer in peers:
                if peer.trig is None:
                    continue
                score = scores[(peer.name, func, index)] = Score()
                try:
                    function = peer.trig_function(func, inputs.dtype)
                    got = _check_result(function(inputs.values.copy()), inputs.dtype, inputs.values.shape)
                    score.add(got, want, inputs.dtype)
                except Exception as exc:
                    score.problem = _note(notes, peer, f"{func} {inputs.dtype}", exc)
    return scores


def edge_values(peers) -> list[list[str]]:
    """Each peer's float32 windows of sizes 0, 1 and 2."""
    cases = (("0 P", 0, True), ("0 S", 0, False), ("1 P", 1, True), ("1 S", 1, False), ("2 S", 2, False))
    rows = []
    for peer in peers:
        if peer.window is None:
            continue
        row = [peer.name]
        for _, size, periodic in cases:
            cells = []
            for kind in ONNX_WINDOW_KINDS:  # the edge cases of the ONNX windows
                try:
                    values = np.asarray(peer.window_function(kind, periodic, "float32")(size))
                    cells.append("[" + ", ".join(f"{float(v):.4g}" for v in values.reshape(-1)) + "]")
                except Exception as exc:
                    cells.append(f"error: {type(exc).__name__}")
            row.append(cells[0] if len(set(cells)) == 1 else "; ".join(cells))
        rows.append(row)
    return rows


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _command_line(args) -> str:
    """The command that makes this report: the options that differ from the defaults."""
    parts = ["python -m crtrig compare"]
    quick = getattr(args, "quick", False)
    if quick:
        parts.append("--quick")
    for option, value, default in (
            ("--peers", args.peers, list(PEERS)), ("--ops", args.ops, list(OPS)),
            ("--dtypes", args.dtypes, list(DTYPES)),
            ("--sizes", args.sizes, list(QUICK_SIZES if quick else DEFAULT_SIZES)),
            ("--samples", args.samples, QUICK_SAMPLES if quick else DEFAULT_SAMPLES),
            ("--seed", args.seed, DEFAULT_SEED)):
        if value != default:
            parts.append(f"{option} {','.join(map(str, value)) if isinstance(value, list) else value}")
    return " ".join(parts)


def run(args, out=None) -> int:
    """Compare as ``args`` says (see configure_parser) and print the report."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # peers warn on 0/0 at size 1, on casts, ...
        with np.errstate(all="ignore"):
            text = report(args)
    print(text, file=sys.stdout if out is None else out)
    return 0


def report(args) -> str:
    started = time.perf_counter()
    kinds = [op for op in args.ops if op in WINDOW_KINDS] + [
        entry.label for entry in SCIPY_WINDOWS if entry.name in args.ops]
    functions = [op for op in args.ops if op in TRIG_FUNCTIONS]
    pi_functions = [op for op in args.ops if op in PI_FUNCTIONS]
    tan_functions = [op for op in args.ops if op in TAN_FUNCTIONS]
    peers, skipped = load_peers(args.peers)
    peers = [crtrig_peer()] + peers
    oracle = Oracle()
    notes: list[str] = []

    lines = [f"$ {_command_line(args)}", ""]
    for peer in peers:
        lines.append(f"- {peer.name} {peer.version}: {peer.note}")
    for name, reason in skipped.items():
        lines.append(f"- {name}: {reason}, skipped")
    lines.append(f"- judged by crtrig.reference (exact); Python {platform.python_version()}, "
                 f"{platform.machine()}")
    lines += ["", "Cells: largest distance from the correctly rounded value in ULPs of the dtype / "
                  "share of results not correctly rounded (inf: NaN where a number is due). Hamming is judged against 25/46, 21/46 for "
                  "the ONNX peers and against 0.54, 0.46 for numpy, scipy and torch."]

    if kinds:
        scores = score_windows(peers, oracle, kinds, args.dtypes, args.sizes, notes)
        rows = []
        for peer in peers:
            if peer.window is None:
                continue
            for kind in kinds:
                label = kind + (" (0.54/0.46)" if kind == "hamming" and peer.hamming != "onnx" else "")
                rows.append([peer.name, label] + [scores[(peer.name, kind, d)].cell() for d in args.dtypes])
        count = 2 * sum(args.sizes)
        lines += ["", "### Windows", "",
                  f"Sizes {', '.join(str(s) for s in args.sizes)}, periodic and symmetric: "
                  f"{count:,} values per cell.", "",
                  markdown_table(["peer", "window"] + list(args.dtypes), rows)]
        lines += ["", "Float32 windows of sizes 0, 1 and 2 (P periodic, S symmetric); one list if Hann, "
                      "Hamming and Blackman agree:", "",
                  markdown_table(["peer", "size 0 P", "size 0 S", "size 1 P", "size 1 S", "size 2 S"],
                                 edge_values(peers))]

    if functions:
        input_sets = trig_input_sets(args.dtypes, args.samples, args.seed)
        scores = score_trig(peers, oracle, functions, input_sets, notes)
        rows = []
        for peer in peers:
            if peer.trig is None:
                continue
            for func in functions:
                rows.append([peer.name, func] + [scores[(peer.name, func, i)].cell()
                                                 for i in range(len(input_sets))])
        header = ["peer", "function"] + [f"{s.dtype}: {s.label}" for s in input_sets]
        lines += ["", "### sin and cos", "", markdown_table(header, rows)]

    if pi_functions:
        input_sets = trig_input_sets(args.dtypes, args.samples, args.seed)
        pi_peers = [peer for peer in peers if peer.name in PI_PEERS]
        scores = score_trig(pi_peers, oracle, pi_functions, input_sets, notes)
        rows = [[peer.name, func] + [scores[(peer.name, func, i)].cell() for i in range(len(input_sets))]
                for peer in pi_peers for func in pi_functions]
        header = ["peer", "function"] + [f"{s.dtype}: {s.label}" for s in input_sets]
        lines += ["", "### sinpi and cospi", "",
                  "numpy and torch: sin(pi * x) (cos), the expression users write.", "",
                  markdown_table(header, rows)]

    if tan_functions:
        input_sets = trig_input_sets(args.dtypes, args.samples, args.seed)
        scores = score_trig(peers, oracle, tan_functions, input_sets, notes)
        rows = [[peer.name, func] + [scores[(peer.name, func, i)].cell() for i in range(len(input_sets))]
                for peer in peers if peer.trig is not None for func in tan_functions
                if func == "tan" or peer.name in PI_PEERS]
        header = ["peer", "function"] + [f"{s.dtype}: {s.label}" for s in input_sets]
        lines += ["", "### tan and tanpi", "",
                  "numpy and torch: tan(pi * x) for tanpi, the expression users write; the ONNX "
                  "peers have Tan only.", "",
                  markdown_table(header, rows)]

    if notes:
        lines += ["", "n/a:"] + [f"- {note}" for note in notes]
    lines += ["", f"({time.perf_counter() - started:.0f} s)"]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def _one_line_error(message: str):
    """argparse's error, on one line (no usage), with exit status 2."""
    print(f"{PROGRAM}: error: {message}", file=sys.stderr)
    sys.exit(2)


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``compare`` arguments to an (sub)parser."""
    parser.error = _one_line_error
    parser.add_argument("--peers", type=names_list(PEERS, "--peers"), default=list(PEERS),
                        help=f"peers to compare with crtrig (default: {','.join(PEERS)}; "
                             "those not installed are skipped)")
    parser.add_argument("--ops", type=names_list(OPS, "--ops"), default=list(OPS),
                        help=f"what to compare (default: {','.join(OPS)})")
    parser.add_argument("--dtypes", type=names_list(DTYPES, "--dtypes"), default=list(DTYPES),
                        help=f"output/input types (default: {','.join(DTYPES)})")
    parser.add_argument("--sizes", type=integer_list(2, MAX_SIZE, "sizes"), default=None,
                        help="window sizes, comma-separated, each 2 to 2**20 "
                             f"(default: {','.join(map(str, DEFAULT_SIZES))})")
    parser.add_argument("--samples", type=integer(1, MAX_SAMPLES, "samples"), default=None, metavar="N",
                        help="sin/cos inputs per float32/float64 set, and the cap on the 16-bit "
                             f"sets, which are otherwise exhaustive (default: {DEFAULT_SAMPLES})")
    parser.add_argument("--seed", type=integer(0, None, "seed"), default=DEFAULT_SEED,
                        help="seed of the random inputs (default: %(default)s)")
    parser.add_argument("--quick", action="store_true",
                        help=f"sizes {','.join(map(str, QUICK_SIZES))} and {QUICK_SAMPLES} sin/cos "
                             "inputs per set (a few seconds), unless --sizes/--samples say otherwise")
    parser.set_defaults(func=_run_cli)


def _run_cli(args, out=None) -> int:
    if args.sizes is None:
        args.sizes = list(QUICK_SIZES if args.quick else DEFAULT_SIZES)
    if args.samples is None:
        args.samples = QUICK_SAMPLES if args.quick else DEFAULT_SAMPLES
    return run(args, out)
