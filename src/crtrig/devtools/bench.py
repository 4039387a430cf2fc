"""``python -m crtrig bench``: crtrig's speed next to its peers, in one process.

What runs, each as one row of a table:

* sin and cos for float16, bfloat16, float32 and float64 inputs uniform in
  [-π, π], uniform in [-1e5, 1e5] (float16: its finite range, [-65504, 65504])
  and drawn uniformly from all finite bit patterns;
* the periodic Hann, Hamming and Blackman windows of float32 and float64 at
  N = 10^3, 10^5 and 10^7;
* the store limit: ``crtrig.hann_window(N, dtype=..., out=out)`` next to
  ``out.fill(0.5)`` on an array of the same size.
* small calls: sin of a Python float, a NumPy float64 and float32 scalar and
  arrays of 10, 100 and 1000 elements, next to numpy, in ns per call.

against numpy, and scipy, torch and onnxruntime when they are installed (a
peer that is not is skipped with a note).  The report prints the exact
expression each contender evaluates.

How the times are taken (the same for every contender, at every size): a
sample is as many calls of the expression, back to back, as last at least
``min_sample_s`` (20 ms; --quick: 5 ms), ``time.perf_counter()`` before the
first and after the last, the garbage collector off; the sample's time over
its number of calls is its time per call.  The number of calls is set once
per contender and row, before the rounds, by timing samples of a growing
number of calls (the first, one call, is also the warm-up); a call that takes
longer than the minimum is a sample by itself.  What a contender needs set
before it runs (crtrig's thread count, the -1s of the store-limit rows) is
done before each sample, untimed, never between its calls.  Each round takes
one sample of every contender of a row, in an order that rotates from round
to round; a row runs as many rounds as fit in its time budget (within fixed
bounds) and reports the median time per call.  So crtrig on one thread and
on all threads, and every peer, are timed alike: no column gets a cold single
call where another gets a warm one.  Every call allocates its output (each
released when the next call returns), except the store-limit rows (``out=``),
where crtrig's array is overwritten with -1 (never a window value) before
each sample, so calls that skip their work on an out= array they have seen
before leave -1s and fail the check.  Nothing is cached between calls: each
repetition calls the expression again with the same arguments.
Peers run on one thread (``torch.set_num_threads(1)``, onnxruntime's
``intra_op_num_threads=1``; numpy and scipy have one); crtrig runs on one
thread and, when it has a thread pool (``crtrig.set_num_threads``), also on
all the threads ``crtrig.get_num_threads()`` reports at the start.

speedup = peer time / crtrig time (one thread): above 1, crtrig is faster.
The all-threads column gives crtrig's one-thread time over its all-threads
time.

Every row checks crtrig's output of its last timed call against
``crtrig.reference`` (exact, independent of the C core) on a subset: the ends,
the middle and a fixed random sample, CHECK_ELEMENTS in all (every element of
smaller arrays).  A mismatch is reported and makes the exit status 1.

``--json FILE`` saves the numbers, ``--plot FILE.png`` draws the speedups
with matplotlib (the ``bench`` extra).  Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import platform
import sys
import time
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

import crtrig
from .. import _config, reference
from .._cli_args import integer, integer_list, names_list
from .._output import OutputError, check_writable_target, write_atomically, write_text_atomically

HELP = "time crtrig next to numpy, scipy, torch and onnxruntime"
DESCRIPTION = ("Time crtrig's sin/cos and windows next to numpy, scipy, torch and onnxruntime (those "
               "installed), in one process, each on one thread and timed the same way (samples of "
               "repeated calls lasting at least 20 ms, rotating); print ns per element and speedups, "
               "and check crtrig's outputs against crtrig.reference on a subset.")

PEERS = ("numpy", "scipy", "torch", "onnxruntime")
TRIG_FUNCTIONS = ("sin", "cos")
TRIG_DTYPES = ("float16", "bfloat16", "float32", "float64")
WINDOW_KINDS = ("hann", "hamming", "blackman")
WINDOW_DTYPES = ("float32", "float64")
#: crtrig.windows' rational windows (scipy's interface, float64 only: scipy's type), timed
#: at the window sizes up to SCIPY_WINDOW_MAX_SIZE (larger parzen windows take crtrig's
#: Python-int path, 2**17 points and up).
SCIPY_WINDOW_KINDS = ("boxcar", "triang", "bartlett", "parzen", "tukey")
#: tukey's row: scipy.signal.spectrogram's default window, ("tukey", 0.25) (compare's).
TUKEY_ALPHA = "0.25"
SCIPY_WINDOW_MAX_SIZE = 10**6
#: The Kaiser-Bessel-derived window's row (symmetric only and even N, as in scipy), at
#: beta 8.6 (43/5 for crtrig), next to scipy's at the sizes up to SCIPY_WINDOW_MAX_SIZE,
#: checked against crtrig._kbd_window's exact path (Python integers, not the C core).
KBD_BETA = "8.6"
KBD_LABEL = f"kaiser_bessel_derived(beta={KBD_BETA}), symmetric"


def scipy_windows():
    """The exp, I0 and cosine windows timed after SCIPY_WINDOW_KINDS, at the same sizes:
    crtrig.compare.SCIPY_WINDOWS (name, scipy-doc parameters, peers, exact reference);
    those crtrig does not compute yet are rows of n/a saying so."""
    from .compare import SCIPY_WINDOWS
    return SCIPY_WINDOWS
INPUT_SETS = ("[-π, π]", "[-1e5, 1e5]", "all finite bit patterns")
#: sinpi and cospi: crtrig's next to crtrig.sin/cos on the same array and to the
#: expression users write today, np.sin(np.pi * x) (torch.sin(torch.pi * x)).
TRIGPI_FUNCTIONS = ("sinpi", "cospi")
TRIGPI_DTYPES = ("float32", "float64")
TRIGPI_INPUT_SETS = ("[-1, 1]", "[-1e5, 1e5]")
#: The crtrig.sin/cos column of the sinpi/cospi rows.
CRTRIG_SIN_COLUMN = "crtrig.sin/cos"
#: tan and tanpi: crtrig's next to np.tan(x) and torch.tan (tanpi: np.tan(np.pi * x),
#: the expression users write today), per input set.
TAN_FUNCTIONS = ("tan", "tanpi")
TAN_DTYPES = ("float32", "float64")
TAN_INPUT_SETS = {"tan": ("[-π, π]", "[-1e5, 1e5]"), "tanpi": ("[-1, 1]", "[-1e5, 1e5]")}

CHECK_ELEMENTS = 256
SEED = 2026
MAX_TRIG_SIZE = 1 << 24       # 16 Mi elements: 128 MiB per float64 array
MAX_WINDOW_SIZE = 1 << 25     # 32 Mi elements: 256 MiB per float64 window
MAX_ROUNDS = 50
MAX_REPEATS = 1_000_000       # calls per sample at most
CALIBRATION_STEPS = 8         # samples tried, after the first call, to reach min_sample_s
MAX_MIN_SAMPLE_MS = 1000


def _np_dtype(name: str) -> np.dtype:
    """The numpy dtype of a float type name (bfloat16: ml_dtypes', imported by
    a run, not by --help)."""
    return reference.FLOAT_FORMATS[name].dtype

_NP_SPELLING = {"float16": "np.float16", "bfloat16": "bfloat16", "float32": "np.float32",
                "float64": "np.float64"}
_UNSIGNED = {2: np.uint16, 4: np.uint32, 8: np.uint64}
_NUMPY_WINDOWS = {"hann": "hanning", "hamming": "hamming", "blackman": "blackman"}


@dataclass(frozen=True)
class Settings:
    """Sizes and the time budget of a run."""

    trig_size: int
    window_sizes: tuple[int, ...]
    row_budget_s: float   # time aimed at per row (all rounds of all contenders)
    min_rounds: int
    max_rounds: int
    min_sample_s: float = 0.02   # a sample repeats the call until it lasts this long


DEFAULT = Settings(trig_size=1 << 20, window_sizes=(10**3, 10**5, 10**7), row_budget_s=3.0,
                   min_rounds=5, max_rounds=21, min_sample_s=0.02)
QUICK = Settings(trig_size=1 << 16, window_sizes=(10**3, 10**5), row_budget_s=0.4,
                 min_rounds=3, max_rounds=9, min_sample_s=0.005)
# How long a run takes, as --help says: measured on the 2-core development machine (shared,
# load average 2 to 4) with numpy, scipy and onnxruntime as peers (no torch) and crtrig's
# 2-thread pool: the default run 153 s (the 10^7 windows, at 5 rounds, 4.5 to 11 s each;
# the other rows 1.5 to 4 s), --quick 20 s (27-28 s with the rows of the exp, Kaiser and
# cosine-family windows: two runs, numpy and scipy (and onnxruntime) as peers, a low-priority
# job on the other core); the default run with those rows 246 s (numpy, scipy and onnxruntime).
DEFAULT_RUN_TIME = "about 4 minutes"
QUICK_RUN_TIME = "about 30 s"


class Unavailable(Exception):
    """A contender cannot run this row (the message says why)."""


@dataclass
class Contender:
    """One expression timed in a row.  ``call`` evaluates ``expression``;
    ``before`` runs, untimed, before each sample of repeated calls (thread
    count, the -1s written into an out= array)."""

    name: str
    expression: str
    call: Callable[[], object]
    before: Callable[[], None] | None = None
    checked: bool = False   # crtrig's own outputs are checked against the reference


@dataclass
class Row:
    section: str            # "sin/cos", "windows", "store limit"
    labels: dict            # what the row is: function/window, dtype, input or N
    size: int               # elements per call
    rounds: int = 0
    times: dict = field(default_factory=dict)       # contender -> median_s, q1_s, q3_s, expression
    native: dict = field(default_factory=dict)      # native peer column -> its --native-peers entry
    unavailable: dict = field(default_factory=dict)  # contender -> reason
    checked: int = 0
    wrong: int = 0
    first_wrong: str | None = None

    def ns(self, name: str) -> float | None:
        t = self.times.get(name)
        return None if t is None else t["median_s"] * 1e9 / self.size


# ---------------------------------------------------------------------------
# Peers and crtrig's thread pool
# ---------------------------------------------------------------------------


@dataclass
class Peers:
    """The peers that loaded, their modules, and why the others did not."""

    modules: dict = field(default_factory=dict)   # name -> module
    versions: dict = field(default_factory=dict)  # name -> version text
    notes: dict = field(default_factory=dict)     # name -> how it is run
    skipped: dict = field(default_factory=dict)   # name -> reason
    restore: list = field(default_factory=list)   # callables undoing global settings
    native: dict = field(default_factory=dict)    # (function, dtype, input) -> {column: entry}
    native_note: str | None = None                # what --native-peers FILE holds


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    text = lines[0] if lines else type(exc).__name__
    return text if len(text) <= 160 else text[:160] + "..."


def load_peers(names) -> Peers:
    peers = Peers()
    for name in names:
        try:
            if name == "numpy":
                peers.modules[name], peers.versions[name] = np, np.__version__
                peers.notes[name] = "one thread; bfloat16 sin/cos are ml_dtypes' loops"
            elif name == "scipy":
                import scipy
                import scipy.signal.windows  # noqa: F401
                peers.modules[name], peers.versions[name] = scipy, scipy.__version__
                peers.notes[name] = "scipy.signal.windows (float64; other dtypes by astype); no sin/cos"
            elif name == "torch":
                import torch
                before = torch.get_num_threads()
                torch.set_num_threads(1)
                peers.restore.append(lambda torch=torch, before=before: torch.set_num_threads(before))
                peers.modules[name], peers.versions[name] = torch, torch.__version__
                peers.notes[name] = "CPU tensors, torch.set_num_threads(1)"
            elif name == "onnxruntime":
                import onnxruntime
                import onnx  # noqa: F401  (builds the one-node models)
                peers.modules[name], peers.versions[name] = onnxruntime, onnxruntime.__version__
                peers.notes[name] = ("CPUExecutionProvider, intra_op_num_threads=1, "
                                     "inter_op_num_threads=1; one-node models")
        except ImportError as exc:
            peers.skipped[name] = f"not installed (no module {exc.name or _first_line(exc)})"
        except Exception as exc:  # a broken install: say so and go on
            peers.skipped[name] = f"unusable: {type(exc).__name__}: {_first_line(exc)}"
    return peers


def _onnx_session(ort, model):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    except Exception as exc:
        raise Unavailable(_first_line(exc)) from None


@dataclass(frozen=True)
class Threads:
    """crtrig's thread pool as the bench uses it: ``all`` threads for the
    second crtrig column, None when there is no pool (or it has 1 thread)."""

    pool: bool
    all: int | None
    note: str

    @staticmethod
    def detect() -> "Threads":
        setter = getattr(crtrig, "set_num_threads", None)
        getter = getattr(crtrig, "get_num_threads", None)
        if setter is None or getter is None:
            return Threads(False, None, "this crtrig has no thread pool: every call runs on one thread")
        count = int(getter())
        if count <= 1:
            return Threads(True, None, "crtrig.get_num_threads() is 1: no all-threads column")
        return Threads(True, count, f"crtrig on 1 thread and on {count} (crtrig.get_num_threads() "
                                    "at the start)")

    def set(self, count: int) -> Callable[[], None] | None:
        if not self.pool:
            return None
        return lambda: crtrig.set_num_threads(count)

    @property
    def all_name(self) -> str | None:
        return None if self.all is None else f"crtrig {self.all} threads"


def _contender(name, expression, namespace, before=None, checked=False) -> Contender:
    """A contender that evaluates exactly the expression it prints."""
    call = eval(compile(f"lambda: {expression}", f"<{name}>", "eval"), namespace)
    return Contender(name, expression, call, before, checked)


def _crtrig_contenders(expression, namespace_for, threads: Threads, before=None) -> list[Contender]:
    """crtrig on one thread and, with a pool, on all; each with its own namespace
    (its own out= array) from namespace_for()."""
    def chain(*steps):
        steps = [step for step in steps if step is not None]
        if not steps:
            return None

        def run_all():
            for step in steps:
                step()
        return run_all

    result = []
    variants = [("crtrig", 1)] + ([(threads.all_name, threads.all)] if threads.all else [])
    for name, count in variants:
        namespace = namespace_for()
        poison = before(namespace) if before is not None else None
        result.append(_contender(name, expression, namespace, chain(threads.set(count), poison),
                                 checked=True))
    return result


# ---------------------------------------------------------------------------
# Inputs and rows
# ---------------------------------------------------------------------------


def trig_inputs(dtype: str, size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The three input sets of one dtype, ``size`` elements each."""
    dt = _np_dtype(dtype)
    fmt = reference.FLOAT_FORMATS[dtype]
    largest = 65504.0 if dtype == "float16" else 1e5
    unsigned = _UNSIGNED[dt.itemsize]
    patterns = np.empty(0, dtype=unsigned)
    while patterns.size < size:
        draw = rng.integers(0, np.iinfo(unsigned).max, 2 * size + 16, dtype=unsigned, endpoint=True)
        draw = draw[(draw & unsigned(fmt.sign_bit - 1)) < fmt.inf_bits]
        patterns = np.concatenate([patterns, draw])
    with np.errstate(all="ignore"):
        return {
            "[-π, π]": rng.uniform(-math.pi, math.pi, size).astype(dt),
            "[-1e5, 1e5]": rng.uniform(-largest, largest, size).astype(dt),
            "all finite bit patterns": patterns[:size].view(dt),
        }


def crtrig_trig_loop(func: str, dtype: str) -> bool:
    """Whether crtrig has a sin/cos loop for dtype (float64 came later)."""
    try:
        getattr(crtrig, func)(np.zeros(1, dtype=_np_dtype(dtype)))
    except TypeError:
        return False
    return True


def trig_row(func, dtype, label, x, peers: Peers, threads: Threads):
    row = Row("sin/cos", {"function": func, "dtype": dtype, "input": label}, x.size)
    contenders = []
    if crtrig_trig_loop(func, dtype):
        contenders += _crtrig_contenders(f"crtrig.{func}(x)", lambda: {"crtrig": crtrig, "x": x}, threads)
    else:
        row.unavailable["crtrig"] = f"no {dtype} loop"
        if threads.all_name:
            row.unavailable[threads.all_name] = f"no {dtype} loop"
    for name, module in peers.modules.items():
        try:
            if name == "numpy":
                contenders.append(_contender(name, f"np.{func}(x)", {"np": np, "x": x}))
            elif name == "torch":
                namespace = {"torch": module, "np": np, "bfloat16": _np_dtype("bfloat16").type, "x": x}
                if dtype == "bfloat16":  # numpy has no bfloat16: move the bits, both ways
                    expression = (f"torch.{func}(torch.from_numpy(x.view(np.int16)).view(torch.bfloat16))"
                                  ".view(torch.int16).numpy().view(bfloat16)")
                else:
                    expression = f"torch.{func}(torch.from_numpy(x)).numpy()"
                contenders.append(_contender(name, expression, namespace))
            elif name == "onnxruntime":
                from .compare import _trig_model
                sess = _onnx_session(module, _trig_model(func, dtype, via_float=False))
                contenders.append(_contender(name, 'sess.run(None, {"x": x})[0]', {"sess": sess, "x": x}))
        except Unavailable as exc:
            row.unavailable[name] = str(exc)
    native = peers.native.get((func, dtype, label))
    if native is not None:
        # The native peers write into an existing array: so does this crtrig column, the
        # baseline of their ratios (one thread, as they run).
        contenders.append(_contender(NATIVE_BASELINE, f"crtrig.{func}(x, out=out)",
                                     {"crtrig": crtrig, "x": x, "out": np.empty_like(x)},
                                     threads.set(1), checked=True))
        for column, entry in native.items():
            row.native[column] = entry
            seconds = entry["ns_per_element"] * x.size * 1e-9
            row.times[column] = {"median_s": seconds, "q1_s": entry["q1"] * x.size * 1e-9,
                                 "q3_s": entry["q3"] * x.size * 1e-9,
                                 "calls_per_sample": entry["calls_per_sample"],
                                 "expression": entry["expression"]}

    def check(result):
        index = check_indices(x.size)
        want = reference.trig(func, x[index])
        return _compare_bits(result[index], want, lambda i: f"{func}({x[index][i]!r})")

    return row, contenders, check


#: The small calls: (what x is, dtype, elements).  Their times are per call.
SMALL_CALLS = (("Python float", "float64", 1), ("NumPy scalar", "float64", 1), ("NumPy scalar", "float32", 1),
               ("array", "float64", 10), ("array", "float32", 10), ("array", "float64", 100),
               ("array", "float32", 100), ("array", "float64", 1000), ("array", "float32", 1000))


def small_row(kind, dtype, size, peers: Peers, threads: Threads):
    """sin of a Python float, a NumPy scalar or a short array (uniform in [-π, π]):
    crtrig on one thread next to numpy, the time per call."""
    rng = np.random.default_rng(SEED)
    values = rng.uniform(-math.pi, math.pi, size)
    if kind == "Python float":
        x = float(values[0])
    elif kind == "NumPy scalar":
        x = _np_dtype(dtype).type(values[0])
    else:
        x = values.astype(_np_dtype(dtype))
    row = Row("small calls", {"x": kind, "dtype": dtype, "N": size}, 1)  # size 1: ns per call
    contenders = []
    if crtrig_trig_loop("sin", dtype):
        contenders.append(_contender("crtrig", "crtrig.sin(x)", {"crtrig": crtrig, "x": x}, threads.set(1),
                                     checked=True))
    else:
        row.unavailable["crtrig"] = f"no {dtype} loop"
    if "numpy" in peers.modules:
        contenders.append(_contender("numpy", "np.sin(x)", {"np": np, "x": x}))

    def check(result):
        flat = np.asarray(np.array(x, dtype=_np_dtype(dtype))).reshape(-1)
        return _compare_bits(np.asarray(result).reshape(-1), reference.trig("sin", flat),
                             lambda i: f"sin({flat[i]!r})")
    return row, contenders, check
def scipy_window_row(kind, size, peers: Peers, threads: Threads):
    """crtrig.windows.<kind>(N, sym=False) (float64) next to scipy's, numpy's and torch's."""
    row = Row("windows", {"window": kind, "dtype": "float64", "N": size}, size)
    args = f"N, {TUKEY_ALPHA}, sym=False" if kind == "tukey" else "N, sym=False"
    contenders = _crtrig_contenders(f"crtrig.windows.{kind}({args})",
                                    lambda: {"crtrig": crtrig, "np": np, "N": size}, threads)
    for name, module in peers.modules.items():
        if name == "scipy" and kind == "tukey":
            contenders.append(_contender(name, f"scipy.signal.windows.tukey({args})", {"scipy": module, "N": size}))
        elif name == "numpy" and kind == "bartlett":
            contenders.append(_contender(name, "np.bartlett(N + 1)[:-1]", {"np": np, "N": size}))
        elif name == "scipy":
            contenders.append(_contender(name, f"scipy.signal.windows.{kind}(N, sym=False)",
                                         {"scipy": module, "N": size}))
        elif name == "torch" and kind == "bartlett":
            contenders.append(_contender(name, "torch.bartlett_window(N, dtype=torch.float64).numpy()",
                                         {"torch": module, "N": size}))
        else:
            row.unavailable[name] = f"no {kind} window"
    return row, contenders, _scipy_window_check(kind, size)


def param_window_row(entry, size, peers: Peers, threads: Threads):
    """crtrig.windows.<name>(N, <parameters>, sym=False) (float64), an entry of
    crtrig.compare.SCIPY_WINDOWS, next to scipy's, numpy's (np.kaiser(N + 1, beta)[:-1])
    and torch's.  A window crtrig does not compute (NotImplementedError at a small
    size) or has no exact reference for here is a row of n/a saying so, untimed."""
    from .compare import Unsupported, scipy_window_bits

    row = Row("windows", {"window": entry.label, "dtype": "float64", "N": size}, size)
    function = getattr(crtrig.windows, entry.name)
    reason = None
    try:
        function(8, *entry.crtrig_values(8), sym=False)
    except NotImplementedError:
        reason = "not implemented in this crtrig"
    else:
        try:
            scipy_window_bits(entry, 8, True, 0, "float64")
        except Unsupported:
            reason = "no exact reference in crtrig.compare for its check"
    if reason is not None:  # every crtrig column says why; peers untimed (no ratio to give)
        for name in ["crtrig"] + ([threads.all_name] if threads.all_name else []):
            row.unavailable[name] = reason
        return row, [], None
    args = ", ".join(part for part in ("N", entry.args, "sym=False") if part)
    namespace = {"crtrig": crtrig, "np": np, "N": size, "Fraction": Fraction}
    contenders = _crtrig_contenders(f"crtrig.windows.{entry.name}({args})", lambda: dict(namespace), threads)
    scipy_args = ", ".join(part for part in ("N", entry.scipy_args, "sym=False") if part)
    for name, module in peers.modules.items():
        if name == "scipy":
            contenders.append(_contender(name, f"scipy.signal.windows.{entry.name}({scipy_args})",
                                         {"scipy": module, "N": size}))
        elif name == "numpy" and entry.numpy is not None:
            numpy_args = ", ".join(part for part in ("N + 1", entry.scipy_args) if part)
            contenders.append(_contender(name, f"np.{entry.numpy}({numpy_args})[:-1]", {"np": np, "N": size}))
        elif name == "torch" and entry.torch is not None:
            expression = entry.torch.format(sym=False, periodic=True, dtype="torch.float64") + ".numpy()"
            contenders.append(_contender(name, expression, {"torch": module, "N": size}))
        else:
            row.unavailable[name] = f"no {entry.name} window"

    def check(result):
        index = check_indices(size)
        fmt = reference.FLOAT_FORMATS["float64"]
        want = np.array([scipy_window_bits(entry, size, True, int(n), "float64") for n in index],
                        dtype=fmt.bits_dtype).view(fmt.dtype)
        return _compare_bits(result[index], want, lambda i: f"{entry.label} N={size} n={index[i]}")
    return row, contenders, check


def kbd_window_row(size, peers: Peers, threads: Threads):
    """The KBD window of `size` points (KBD_LABEL): crtrig next to scipy, both
    symmetric; an odd size has no window (every column says so)."""
    row = Row("windows", {"window": KBD_LABEL, "dtype": "float64", "N": size}, size)
    if size % 2:
        for name in ["crtrig"] + ([threads.all_name] if threads.all_name else []) + list(peers.modules):
            row.unavailable[name] = "defined for an even N only"
        return row, [], None
    contenders = _crtrig_contenders(f"crtrig.windows.kaiser_bessel_derived(N, {KBD_BETA})",
                                    lambda: {"crtrig": crtrig, "N": size}, threads)
    for name, module in peers.modules.items():
        if name == "scipy":
            contenders.append(_contender(name, f"scipy.signal.windows.kaiser_bessel_derived(N, {KBD_BETA})",
                                         {"scipy": module, "N": size}))
        else:
            row.unavailable[name] = "no kaiser_bessel_derived window"

    def check(result):
        from .. import _kbd_window
        index = check_indices(size)
        fmt = reference.FLOAT_FORMATS["float64"]
        half = _kbd_window.half_window_values(size // 2 + 1, Fraction(KBD_BETA), 3)  # w[n], n < N/2
        want = np.array([half[min(int(n), size - 1 - int(n))] for n in index], dtype=fmt.dtype)
        return _compare_bits(result[index], want, lambda i: f"{KBD_LABEL} N={size} n={index[i]}")
    return row, contenders, check


def _scipy_window_check(kind, size):
    def check(result):
        index = check_indices(size)
        fmt = reference.FLOAT_FORMATS["float64"]
        if kind == "tukey":
            from .compare import tukey_bits
            want = np.array([tukey_bits(size, True, int(n), "float64") for n in index],
                            dtype=fmt.bits_dtype).view(fmt.dtype)
            return _compare_bits(result[index], want, lambda i: f"tukey N={size} n={index[i]}")
        from .compare import scipy_rational_exact
        exact = [scipy_rational_exact(kind, size + 1, int(n)) for n in index]  # periodic: of N + 1
        want = np.array([reference.round_rational(x.numerator, x.denominator, "float64") for x in exact],
                        dtype=fmt.bits_dtype).view(fmt.dtype)
        return _compare_bits(result[index], want, lambda i: f"{kind} N={size} n={index[i]}")
    return check


def window_row(kind, dtype, size, peers: Peers, threads: Threads):
    row = Row("windows", {"window": kind, "dtype": dtype, "N": size}, size)
    np_dtype = _NP_SPELLING[dtype]
    cast = "" if dtype == "float64" else f".astype({np_dtype})"
    contenders = _crtrig_contenders(f"crtrig.{kind}_window(N, dtype={np_dtype})",
                                    lambda: {"crtrig": crtrig, "np": np, "N": size}, threads)
    for name, module in peers.modules.items():
        try:
            if name == "numpy":
                expression = f"np.{_NUMPY_WINDOWS[kind]}(N + 1)[:-1]{cast}"
                contenders.append(_contender(name, expression, {"np": np, "N": size}))
            elif name == "scipy":
                expression = f"scipy.signal.windows.{kind}(N, sym=False){cast}"
                contenders.append(_contender(name, expression, {"scipy": module, "np": np, "N": size}))
            elif name == "torch":
                expression = f"torch.{kind}_window(N, dtype=torch.{dtype}).numpy()"
                contenders.append(_contender(name, expression, {"torch": module, "N": size}))
            elif name == "onnxruntime":
                from .compare import _window_model
                sess = _onnx_session(module, _window_model(kind, True, dtype, via_float=False))
                contenders.append(_contender(name, 'sess.run(None, {"size": size})[0]',
                                             {"sess": sess, "size": np.array(size, dtype=np.int64)}))
        except Unavailable as exc:
            row.unavailable[name] = str(exc)
    return row, contenders, _window_check(kind, dtype, size)


def store_row(dtype, size, threads: Threads):
    row = Row("store limit", {"window": "hann", "dtype": dtype, "N": size}, size)
    dt = _np_dtype(dtype)
    np_dtype = _NP_SPELLING[dtype]

    def poison(namespace):
        return lambda: namespace["out"].fill(-1.0)  # never a window value: a skipped write fails the check

    contenders = _crtrig_contenders(f"crtrig.hann_window(N, dtype={np_dtype}, out=out)",
                                    lambda: {"crtrig": crtrig, "np": np, "N": size,
                                             "out": np.zeros(size, dtype=dt)},
                                    threads, before=poison)
    contenders.append(_contender("out.fill(0.5)", "out.fill(0.5)", {"out": np.zeros(size, dtype=dt)}))
    return row, contenders, _window_check("hann", dtype, size)


def _window_check(kind, dtype, size):
    def check(result):
        index = check_indices(size)
        fmt = reference.FLOAT_FORMATS[dtype]
        want = np.array([reference.window_bits(kind, int(n), size, dtype) for n in index],
                        dtype=fmt.bits_dtype).view(fmt.dtype)
        return _compare_bits(result[index], want, lambda i: f"{kind} N={size} n={index[i]}")
    return check


def check_indices(size: int) -> np.ndarray:
    """Where outputs are checked: every element up to CHECK_ELEMENTS, else the
    ends, the quarters and the middle, and a fixed random sample."""
    if size <= CHECK_ELEMENTS:
        return np.arange(size)
    fixed = {0, 1, size // 4, size // 2, (3 * size) // 4, size - 2, size - 1}
    rng = np.random.default_rng(SEED)
    chosen = set(fixed)
    while len(chosen) < CHECK_ELEMENTS:
        chosen.update(int(i) for i in rng.integers(0, size, CHECK_ELEMENTS - len(chosen)))
    return np.array(sorted(chosen), dtype=np.int64)


def _compare_bits(got: np.ndarray, want: np.ndarray, describe) -> tuple[int, int, str | None]:
    unsigned = _UNSIGNED[want.dtype.itemsize]
    if got.dtype != want.dtype or got.shape != want.shape:
        return want.size, want.size, f"returned {got.dtype}{list(got.shape)}, expected {want.dtype}"
    differ = np.flatnonzero(got.view(unsigned) != want.view(unsigned))
    first = None
    if differ.size:
        i = int(differ[0])
        first = f"{describe(i)} gave {got[i]!r}, the correctly rounded value is {want[i]!r}"
    return want.size, int(differ.size), first


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------


def _sample(contender: Contender, repeats: int, clock: Callable[[], float]):
    """One sample: ``contender.before()`` (untimed), then ``repeats`` calls back
    to back between two reads of the clock; (seconds for all of them, the
    output of the last).  Each output is released when the next call returns,
    as in a loop ``w = f()``: the same for every contender."""
    if contender.before is not None:
        contender.before()
    call = contender.call
    result = None
    start = clock()
    for _ in range(repeats):
        result = call()
    stop = clock()
    return stop - start, result


def _calibrate(contender: Contender, min_sample_s: float, clock: Callable[[], float]):
    """How many calls make a sample of at least ``min_sample_s``: (repeats, the
    seconds a sample of them took).  Starts with one call (the warm-up: sessions,
    caches, page faults), then scales the count from the last sample until one
    lasts long enough (or MAX_REPEATS)."""
    repeats = 1
    seconds, _ = _sample(contender, repeats, clock)
    for _ in range(CALIBRATION_STEPS):
        if seconds >= min_sample_s or repeats >= MAX_REPEATS:
            break
        per_call = seconds / repeats
        wanted = MAX_REPEATS if per_call <= 0 else math.ceil(1.2 * min_sample_s / per_call)
        repeats = min(MAX_REPEATS, max(repeats + 1, wanted))
        seconds, _ = _sample(contender, repeats, clock)
    return repeats, seconds


def time_row(row: Row, contenders: list[Contender], settings: Settings, rounds: int | None, check,
             clock: Callable[[], float] | None = None):
    """Calibrate every contender (calls per sample), run the rounds, record the
    medians per call, check crtrig.

    Every contender is timed the same way, at every size: a sample is
    ``before()`` (untimed: the thread count, the -1s of an out= array) and then
    as many calls back to back as last at least ``settings.min_sample_s``
    (one call when a call is that slow); its time per call is the sample's time
    over its calls.  Each round takes one sample of every contender, in an
    order that rotates from round to round."""
    clock = time.perf_counter if clock is None else clock
    alive, repeats, estimate = [], [], []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for contender in contenders:
            try:
                count, seconds = _calibrate(contender, settings.min_sample_s, clock)
            except Unavailable as exc:
                row.unavailable[contender.name] = str(exc)
                continue
            except Exception as exc:
                if contender.checked:
                    raise  # crtrig itself failing is a bug, not a row to skip
                row.unavailable[contender.name] = f"{type(exc).__name__}: {_first_line(exc)}"
                continue
            alive.append(contender)
            repeats.append(count)
            estimate.append(seconds)
        if rounds is None:
            per_round = max(sum(estimate), 1e-9)
            rounds = int(min(settings.max_rounds, max(settings.min_rounds, settings.row_budget_s // per_round)))
        samples = [[] for _ in alive]
        last = [None] * len(alive)
        for r in range(rounds):
            shift = r % len(alive) if alive else 0
            for i in list(range(shift, len(alive))) + list(range(shift)):
                last[i] = None  # free the previous output outside the timed calls
                seconds, result = _sample(alive[i], repeats[i], clock)
                samples[i].append(seconds / repeats[i])
                last[i] = result if alive[i].checked else None
                del result
    finally:
        if gc_was_enabled:
            gc.enable()
    row.rounds = rounds
    import statistics  # at the first row, not at import (--help)
    for contender, count, times in zip(alive, repeats, samples):
        q1, median, q3 = (statistics.quantiles(times, n=4, method="inclusive") if len(times) > 1
                          else (times[0],) * 3)
        row.times[contender.name] = {"median_s": statistics.median(times), "q1_s": q1, "q3_s": q3,
                                     "calls_per_sample": count, "expression": contender.expression}
    for contender, result in zip(alive, last):
        if contender.checked:
            checked, wrong, first = check(np.asarray(result))
            row.checked += checked
            row.wrong += wrong
            if first and row.first_wrong is None:
                row.first_wrong = f"{contender.name}: {first}"


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


def _milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:g} ms"


def _ns(value: float) -> str:
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def _ratio(value: float) -> str:
    return f"{value:.3g}×"


def baseline_of(row: Row, name: str) -> str:
    """The crtrig column a peer's ratio is taken against: ``crtrig out=`` for the
    native peers (which write into an existing array), else ``crtrig``."""
    return NATIVE_BASELINE if name in row.native else "crtrig"


def speedup(row: Row, peer: str) -> float | None:
    """peer time / crtrig time (one thread); None if either is missing."""
    mine, theirs = row.times.get(baseline_of(row, peer)), row.times.get(peer)
    if mine is None or theirs is None:
        return None
    return theirs["median_s"] / mine["median_s"]


def _cell(row: Row, name: str, baseline: str = "crtrig") -> str:
    if name in row.native:
        entry = row.native[name]
        share = 100 * entry["not_cr_share"]
        return (f"{_ns(row.ns(name))} ({_ratio(speedup(row, name))}; {share:.3g} % not CR)"
                if NATIVE_BASELINE in row.times else f"{_ns(row.ns(name))} ({share:.3g} % not CR)")
    if name == NATIVE_BASELINE and name in row.times:
        return _ns(row.ns(name))
    if name in row.unavailable:
        reason = row.unavailable[name]
        return f"n/a ({reason})" if name.startswith("crtrig") else "n/a"  # peers: notes below
    ns = row.ns(name)
    if ns is None:
        return "-"
    if name == baseline:
        return _ns(ns)
    base = row.times.get(baseline)
    if base is None:
        return _ns(ns)
    if name.startswith("crtrig "):  # the all-threads column: one thread over all threads
        return f"{_ns(ns)} ({_ratio(base['median_s'] / row.times[name]['median_s'])})"
    return f"{_ns(ns)} ({_ratio(row.times[name]['median_s'] / base['median_s'])})"


def _check_cell(row: Row) -> str:
    if not row.checked:
        return "-"
    if row.wrong:
        return f"WRONG {row.wrong} of {row.checked}"
    return f"{row.checked} ok"


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _section_table(rows: list[Row], keys: list[str], columns: list[str], column_titles: list[str]):
    body = []
    for row in rows:
        cells = [f"{row.labels[k]:,}" if isinstance(row.labels[k], int) else str(row.labels[k]) for k in keys]
        cells.append(str(row.rounds))
        cells += [_cell(row, name) for name in columns]
        cells.append(_check_cell(row))
        body.append(cells)
    return markdown_table(keys + ["rounds"] + column_titles + ["check"], body)


def _expressions(rows: list[Row], columns: list[str]) -> list[str]:
    """Each contender's expressions in these rows, once each, in order."""
    lines = []
    for name in columns:
        seen = []
        for row in rows:
            t = row.times.get(name)
            if t is not None and t["expression"] not in seen:
                seen.append(t["expression"])
        if seen:
            shown = seen if len(seen) <= 6 else seen[:6] + ["..."]
            lines.append(f"- {name}: " + "; ".join(f"`{e}`" for e in shown))
    return lines


def platform_line(peers: Peers, threads: Threads) -> str:
    versions = ", ".join(f"{name} {peers.versions[name]}" for name in peers.versions)
    thread_text = (f"{threads.all} threads (pool)" if threads.all else
                   "1 thread (pool)" if threads.pool else "1 thread (no pool)")
    return (f"platform: {_config.cpu_model()}, {os.cpu_count()} logical CPUs "
            f"({_config.cpus_available()} available); {platform.system()} {platform.machine()}; "
            f"Python {platform.python_version()}; crtrig {crtrig.__version__}, SIMD target "
            f"{crtrig.simd_target()} (supported here: {', '.join(crtrig.simd_targets())}), "
            f"{thread_text}; {versions}")


def command_line(args, settings: Settings) -> str:
    parts = ["python -m crtrig bench"]
    if args.quick:
        parts.append("--quick")
    if args.peers != list(PEERS):
        parts.append("--peers " + ",".join(args.peers))
    if settings.trig_size != (QUICK if args.quick else DEFAULT).trig_size:
        parts.append(f"--trig-size {settings.trig_size}")
    if settings.window_sizes != (QUICK if args.quick else DEFAULT).window_sizes:
        parts.append("--window-sizes " + ",".join(map(str, settings.window_sizes)))
    if args.rounds is not None:
        parts.append(f"--rounds {args.rounds}")
    if getattr(args, "min_sample_ms", None) is not None:
        parts.append(f"--min-sample-ms {args.min_sample_ms}")
    if getattr(args, "native_peers", None):
        parts.append(f"--native-peers {args.native_peers}")
    if args.json:
        parts.append(f"--json {args.json}")
    if args.plot:
        parts.append(f"--plot {args.plot}")
    return " ".join(parts)


def contender_columns(peers: Peers, threads: Threads, section: str) -> list[str]:
    names = ["crtrig"] + ([threads.all_name] if threads.all_name else [])
    if section == "store limit":
        return names + ["out.fill(0.5)"]
    if section == "small calls":
        return ["crtrig"] + (["numpy"] if "numpy" in peers.versions else [])
    if section == "sinpi/cospi":
        return names + [CRTRIG_SIN_COLUMN] + [name for name in peers.versions if name in ("numpy", "torch")]
    if section == "tan/tanpi":
        return names + [name for name in peers.versions if name in ("numpy", "torch")]
    for name in peers.versions:
        if name == "scipy" and section == "sin/cos":
            continue  # no sin/cos of its own
        names.append(name)
    if section == "sin/cos" and peers.native:
        names.append(NATIVE_BASELINE)
        for columns in peers.native.values():
            names += [column for column in columns if column not in names]
    return names


def report(rows: list[Row], peers: Peers, threads: Threads, settings: Settings, args,
           elapsed: float) -> str:
    lines = [f"$ {command_line(args, settings)}", ""]
    if args.quick:
        lines += ["(--quick: small sizes and few rounds, a first look; the full run is "
                  "`python -m crtrig bench`)", ""]
    lines.append(platform_line(peers, threads))
    lines.append("")
    for name in peers.versions:
        lines.append(f"- {name} {peers.versions[name]}: {peers.notes[name]}")
    for name, reason in peers.skipped.items():
        lines.append(f"- {name}: {reason}, skipped")
    lines.append(f"- threads: {threads.note}")
    if peers.native_note:
        lines.append(f"- native peers: {peers.native_note}")
    lines += ["", "Each cell: the median time of one call in ns per element; in parentheses the "
                  "speedup, peer time / crtrig time on one thread (above 1: crtrig is faster); in "
                  f"the crtrig-threads column, crtrig's one-thread time over its all-threads time. "
                  "Every call allocates its output, except the out= rows. A sample is a number "
                  "of calls back to back, set per contender before the rounds so that a sample "
                  f"lasts at least {_milliseconds(settings.min_sample_s)} (one call when a call "
                  "is slower); its time per call is its time over its calls. "
                  "In each round every contender gives one sample, in rotating order; `rounds` "
                  "per row, the median over them. check: crtrig's "
                  "outputs (every crtrig column) compared bit for bit with crtrig.reference "
                  f"(exact) on {CHECK_ELEMENTS} elements per row (ends, middle, a fixed random "
                  "sample; all of smaller arrays)."]

    sections = [
        ("sin/cos", f"### sin and cos, {settings.trig_size:,} elements per call",
         ["function", "dtype", "input"],
         ["x: uniform in [-π, π], uniform in [-1e5, 1e5] (float16: [-65504, 65504], its finite "
          "range), or uniform over the finite bit patterns; in the dtype of the row. sess: a "
          "one-node ONNX Sin-22 or Cos-22 model of that dtype."]),
        ("small calls", "### Small calls: sin of a Python float, a NumPy scalar, a short array",
         ["x", "dtype", "N"],
         ["Times per call (ns), not per element; x uniform in [-π, π] (fixed values); crtrig on "
          "one thread (such calls never split)."]),
        ("sinpi/cospi", f"### sinpi and cospi, {settings.trig_size:,} elements per call",
         ["function", "dtype", "input"],
         ["x: uniform in [-1, 1] or [-1e5, 1e5], in the dtype of the row. crtrig.sin/cos: "
          "crtrig's sin (cos) of the same array, one thread; numpy, torch: sin(pi x) as users "
          "write it (pi and the product rounded: a different, inexact value)."]),
        ("tan/tanpi", f"### tan and tanpi, {settings.trig_size:,} elements per call",
         ["function", "dtype", "input"],
         ["x: uniform in [-π, π] or [-1e5, 1e5] (tan), [-1, 1] or [-1e5, 1e5] (tanpi), in the "
          "dtype of the row. numpy, torch: tan(x); for tanpi tan(pi x) as users write it (pi and "
          "the product rounded: a different, inexact value). crtrig's tan and tanpi: SIMD first "
          "passes for float32 and float64 (sin and cos of one reduction, their quotient, a "
          "rounding test: src/core/tan_pass.h)."]),
        ("windows", "### Windows, periodic", ["window", "dtype", "N"],
         ["numpy and scipy compute float64 (other dtypes by astype, as a user would); "
          "numpy's periodic window of size N is np.hanning(N + 1)[:-1]; numpy, scipy and torch "
          "use the Hamming coefficients 0.54/0.46 (ONNX: 25/46, 21/46): the same work. sess: a "
          "one-node ONNX HannWindow-17 (HammingWindow, BlackmanWindow) model, periodic, with "
          "that output_datatype; size = np.array(N, dtype=np.int64)."]),
        ("store limit", "### The store limit: a window into an existing array next to "
                        "out.fill(0.5)", ["dtype", "N"],
         ["out: an existing array of N elements of the row's dtype, one per contender; crtrig's "
          "is filled with -1 before each sample (untimed). The ratio in the out.fill(0.5) column "
          "is fill time / crtrig time: how close crtrig comes to a plain store."]),
    ]
    for section, title, keys, intro in sections:
        section_rows = [row for row in rows if row.section == section]
        if not section_rows:
            continue
        columns = contender_columns(peers, threads, section)
        titles = []
        for name in columns:
            if name == "crtrig":
                titles.append("crtrig ns/call" if section == "small calls" else "crtrig ns/elem")
            elif name == NATIVE_BASELINE:
                titles.append(f"{name} ns/elem")
            elif any(name in row.native for row in section_rows):
                titles.append(f"{name} (speedup vs crtrig out=; not CR)")
            elif name == threads.all_name:
                titles.append(f"{name} (× 1 thread)")
            else:
                titles.append(f"{name} (speedup)")
        lines += ["", title, ""] + intro + [""] + _expressions(section_rows, columns)
        lines += ["", _section_table(section_rows, keys, columns, titles)]
        notes = []  # why a peer is n/a, once per peer, dtype and reason
        for row in section_rows:
            for name, reason in row.unavailable.items():
                note = f"- {name}, {row.labels['dtype']}: {reason}"
                if not name.startswith("crtrig") and note not in notes:
                    notes.append(note)
        if notes:
            lines += ["", "n/a:"] + notes

    checked = sum(row.checked for row in rows)
    wrong = [row for row in rows if row.wrong]
    spreads = [(t["q3_s"] - t["q1_s"]) / t["median_s"] for row in rows
               for name, t in row.times.items() if name.startswith("crtrig") and t["median_s"] > 0]
    lines.append("")
    if wrong:
        lines.append(f"CHECK FAILED: {sum(r.wrong for r in wrong):,} of {checked:,} checked crtrig "
                     f"outputs differ from crtrig.reference, in {len(wrong)} rows; first: "
                     f"{wrong[0].first_wrong}")
    else:
        lines.append(f"check: all {checked:,} checked crtrig outputs equal crtrig.reference "
                     f"(exact), in {sum(1 for r in rows if r.checked)} rows")
    if spreads:
        lines.append(f"noise: the largest interquartile range of crtrig's times is "
                     f"{100 * max(spreads):.0f} % of its median (rerun before quoting if large)")
    lines.append(f"({elapsed:.0f} s)")
    return "\n".join(lines)


def as_json(rows: list[Row], peers: Peers, threads: Threads, settings: Settings, args,
            elapsed: float) -> dict:
    return {
        "crtrig_bench": 1,
        "command": command_line(args, settings),
        "quick": bool(args.quick),
        "platform": {"cpu": _config.cpu_model(), "logical_cpus": os.cpu_count(),
                     "cpus_available": _config.cpus_available(), "system": platform.system(),
                     "machine": platform.machine(), "python": platform.python_version(),
                     "crtrig": crtrig.__version__, "simd_target": crtrig.simd_target(),
                     "simd_targets": list(crtrig.simd_targets()),
                     "thread_pool": threads.pool, "all_threads": threads.all},
        "peers": dict(peers.versions),
        "skipped": dict(peers.skipped),
        "settings": {"trig_size": settings.trig_size, "window_sizes": list(settings.window_sizes),
                     "row_budget_s": settings.row_budget_s, "min_rounds": settings.min_rounds,
                     "max_rounds": settings.max_rounds, "rounds": args.rounds,
                     "min_sample_s": settings.min_sample_s,
                     "check_elements": CHECK_ELEMENTS},
        "rows": [{"section": row.section, **row.labels, "size": row.size, "rounds": row.rounds,
                  "times": {name: {"ns_per_element": t["median_s"] * 1e9 / row.size, **t}
                            for name, t in row.times.items()},
                  "unavailable": dict(row.unavailable),
                  "speedup": {name: speedup(row, name) for name in row.times
                              if name != "crtrig" and not name.startswith("crtrig ")
                              and speedup(row, name) is not None},
                  "native": {name: {"not_cr": e["not_cr"], "not_cr_share": e["not_cr_share"],
                                    "max_ulp": e["max_ulp"], "isa": e["isa"]}
                             for name, e in row.native.items()},
                  "thread_scaling": ({threads.all_name: row.times["crtrig"]["median_s"]
                                      / row.times[threads.all_name]["median_s"]}
                                     if threads.all_name in row.times and "crtrig" in row.times else {}),
                  "checked": row.checked, "wrong": row.wrong, "first_wrong": row.first_wrong}
                 for row in rows],
        "elapsed_s": elapsed,
    }


def plot_title(data: dict) -> str:
    """The plot's title: what was measured and on what machine; no command line
    and no file path."""
    settings, machine = data["settings"], data["platform"]
    sizes = ", ".join(f"{n:,}" for n in settings["window_sizes"])
    threads = (f"crtrig on 1 and on {machine['all_threads']} threads" if machine.get("all_threads")
               else "crtrig on 1 thread")
    first = (f"crtrig {machine['crtrig']} bench{' (--quick)' if data.get('quick') else ''}: sin/cos of "
             f"{settings['trig_size']:,} elements per call, windows of N = {sizes}; peers on 1 thread, "
             f"{threads}")
    second = (f"{machine['cpu']}, {machine['logical_cpus']} logical CPUs ({machine['cpus_available']} "
              f"available), SIMD target {machine['simd_target']}; {machine['system']} "
              f"{machine['machine']}, Python {machine['python']}")
    return f"{first}\n{second}"


def figure(data: dict):
    """Horizontal bars of each row's speedups (log scale), one panel per section,
    each panel's legend to the right of its axes (never over a bar)."""
    from matplotlib.figure import Figure

    sections = [s for s in ("sin/cos", "sinpi/cospi", "tan/tanpi", "windows", "store limit")
                if any(r["section"] == s for r in data["rows"])]
    heights = [sum(1 for r in data["rows"] if r["section"] == s) for s in sections]
    fig = Figure(figsize=(12, 1.5 + 0.32 * sum(heights) + 1.2 * len(sections)), layout="constrained")
    axes = fig.subplots(len(sections), 1, squeeze=False, height_ratios=[h + 3 for h in heights])
    names = []  # one colour per contender across the panels
    for r in data["rows"]:
        for name in list(r["speedup"]) + list(r["thread_scaling"]):
            if name not in names:
                names.append(name)
    colours = {name: f"C{i % 10}" for i, name in enumerate(names)}
    for ax, section in zip(axes[:, 0], sections):
        rows = [r for r in data["rows"] if r["section"] == section]
        series = []
        for r in rows:
            for name in list(r["speedup"]) + list(r["thread_scaling"]):
                if name not in series:
                    series.append(name)
        labels = []
        for r in rows:
            if section in ("sin/cos", "sinpi/cospi", "tan/tanpi"):
                labels.append(f"{r['function']} {r['dtype']} {r['input']}")
            elif section == "windows":
                labels.append(f"{r['window']} {r['dtype']} N={r['N']:,}")
            else:
                labels.append(f"{r['dtype']} N={r['N']:,}")
        height = 0.8 / max(1, len(series))
        for j, name in enumerate(series):
            values = [r["speedup"].get(name, r["thread_scaling"].get(name, math.nan)) for r in rows]
            positions = [i - 0.4 + (j + 0.5) * height for i in range(len(rows))]
            label = f"{name} (its 1-thread time / this)" if name in threads_names(rows) else name
            ax.barh(positions, values, height=height, label=label, color=colours[name])
        for i, r in enumerate(rows):
            if not r["speedup"] and not r["thread_scaling"]:
                reason = r["unavailable"].get("crtrig", "no times")
                ax.text(0.01, i, f"crtrig n/a ({reason})", transform=ax.get_yaxis_transform(),
                        va="center", fontsize=7)
        ax.set_xscale("log")
        ax.axvline(1.0, color="black", linewidth=0.8)
        ax.set_yticks(range(len(rows)), labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_title(f"{section}: peer time / crtrig time (right of 1: crtrig faster)", fontsize=9)
        if series:  # outside the axes, to their right: constrained layout makes room
            ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    fig.suptitle(plot_title(data), fontsize=8)
    return fig


def plot_format(path: str) -> str:
    """The image format ``plot`` writes to ``path``: its extension, if
    matplotlib writes that format (png without an extension).  Raises
    ValueError (needs matplotlib)."""
    from matplotlib.backend_bases import FigureCanvasBase

    extension = os.path.splitext(path)[1][1:].lower()
    supported = FigureCanvasBase.get_supported_filetypes()
    if not extension:
        return "png"
    if extension not in supported:
        raise ValueError(f"matplotlib cannot write .{extension} files (it writes "
                         f"{', '.join(sorted(supported))})")
    return extension


def plot(data: dict, path: str) -> None:
    """Save figure(data) to path (the format from its extension, png without
    one), atomically (crtrig._output).  Raises ValueError for a format
    matplotlib does not write, crtrig._output.OutputError if the file cannot
    be written."""
    image_format = plot_format(path)
    fig = figure(data)
    write_atomically(path, lambda handle: fig.savefig(handle, format=image_format, dpi=110,
                                                      bbox_inches="tight"))


def threads_names(rows) -> set:
    return {name for r in rows for name in r["thread_scaling"]}


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def trigpi_row(func, dtype, label, x, peers: Peers, threads: Threads):
    """sinpi/cospi: crtrig's, crtrig.sin/cos of the same array, and numpy's and torch's
    sin(pi x) as users write it (pi rounded, the product rounded: not the same values)."""
    row = Row("sinpi/cospi", {"function": func, "dtype": dtype, "input": label}, x.size)
    plain = func[:3]
    contenders = _crtrig_contenders(f"crtrig.{func}(x)", lambda: {"crtrig": crtrig, "x": x}, threads)
    before = threads.set(1)
    contenders.append(_contender(CRTRIG_SIN_COLUMN, f"crtrig.{plain}(x)", {"crtrig": crtrig, "x": x},
                                 before))
    for name, module in peers.modules.items():
        if name == "numpy":
            contenders.append(_contender(name, f"np.{plain}(np.pi * x)", {"np": np, "x": x}))
        elif name == "torch":
            contenders.append(_contender(name, f"torch.{plain}(torch.pi * torch.from_numpy(x)).numpy()",
                                         {"torch": module, "x": x}))

    def check(result):
        index = check_indices(x.size)
        fmt = dtype
        want = np.array([reference.trigpi_bits(func, v, fmt) for v in x[index].astype(np.float64).tolist()],
                        dtype=_UNSIGNED[x.dtype.itemsize]).view(x.dtype)
        return _compare_bits(result[index], want, lambda i: f"{func}({x[index][i]!r})")

    return row, contenders, check


def tan_row(func, dtype, label, x, peers: Peers, threads: Threads):
    """tan/tanpi: crtrig's, and numpy's and torch's tan(x) (tanpi: tan(pi x) as users
    write it, pi and the product rounded: not the same values)."""
    row = Row("tan/tanpi", {"function": func, "dtype": dtype, "input": label}, x.size)
    contenders = _crtrig_contenders(f"crtrig.{func}(x)", lambda: {"crtrig": crtrig, "x": x}, threads)
    scaled = func == "tanpi"
    for name, module in peers.modules.items():
        if name == "numpy":
            contenders.append(_contender(name, "np.tan(np.pi * x)" if scaled else "np.tan(x)",
                                         {"np": np, "x": x}))
        elif name == "torch":
            inner = "torch.pi * torch.from_numpy(x)" if scaled else "torch.from_numpy(x)"
            contenders.append(_contender(name, f"torch.tan({inner}).numpy()", {"torch": module, "x": x}))

    def check(result):
        index = check_indices(x.size)
        want = np.array([reference.tan_bits(func, v, dtype) for v in x[index].astype(np.float64).tolist()],
                        dtype=_UNSIGNED[x.dtype.itemsize]).view(x.dtype)
        return _compare_bits(result[index], want, lambda i: f"{func}({x[index][i]!r})")

    return row, contenders, check


def tan_inputs(dtype: str, size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    dt = _np_dtype(dtype)
    return {"[-π, π]": rng.uniform(-math.pi, math.pi, size).astype(dt),
            "[-1, 1]": rng.uniform(-1.0, 1.0, size).astype(dt),
            "[-1e5, 1e5]": rng.uniform(-1e5, 1e5, size).astype(dt)}


def trigpi_inputs(dtype: str, size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    dt = _np_dtype(dtype)
    return {"[-1, 1]": rng.uniform(-1.0, 1.0, size).astype(dt),
            "[-1e5, 1e5]": rng.uniform(-1e5, 1e5, size).astype(dt)}


def build_plan(settings: Settings, peers: Peers, threads: Threads):
    """The rows to run, each as a function making (row, contenders, check) when called."""
    plan = []
    rng = np.random.default_rng(SEED)
    inputs = {}  # the input sets of one dtype at a time, made when its first row runs

    def make_trig(func, dtype, label):
        if dtype not in inputs:
            inputs.clear()
            inputs[dtype] = trig_inputs(dtype, settings.trig_size, rng)
        return trig_row(func, dtype, label, inputs[dtype][label], peers, threads)

    for dtype in TRIG_DTYPES:
        for label in INPUT_SETS:
            for func in TRIG_FUNCTIONS:
                plan.append((f"{func} {dtype} {label}",
                             lambda func=func, dtype=dtype, label=label: make_trig(func, dtype, label)))
    pi_inputs = {}

    def make_trigpi(func, dtype, label):
        if dtype not in pi_inputs:
            pi_inputs.clear()
            pi_inputs[dtype] = trigpi_inputs(dtype, settings.trig_size, rng)
        return trigpi_row(func, dtype, label, pi_inputs[dtype][label], peers, threads)

    for dtype in TRIGPI_DTYPES:
        for label in TRIGPI_INPUT_SETS:
            for func in TRIGPI_FUNCTIONS:
                plan.append((f"{func} {dtype} {label}",
                             lambda func=func, dtype=dtype, label=label: make_trigpi(func, dtype, label)))
    tan_sets = {}

    def make_tan(func, dtype, label):
        if dtype not in tan_sets:
            tan_sets.clear()
            tan_sets[dtype] = tan_inputs(dtype, settings.trig_size, rng)
        return tan_row(func, dtype, label, tan_sets[dtype][label], peers, threads)

    for dtype in TAN_DTYPES:
        for func in TAN_FUNCTIONS:
            for label in TAN_INPUT_SETS[func]:
                plan.append((f"{func} {dtype} {label}",
                             lambda func=func, dtype=dtype, label=label: make_tan(func, dtype, label)))
    for size in settings.window_sizes:
        for dtype in WINDOW_DTYPES:
            for kind in WINDOW_KINDS:
                plan.append((f"{kind} window {dtype} N={size:,}",
                             lambda kind=kind, dtype=dtype, size=size: window_row(kind, dtype, size, peers, threads)))
        if size <= SCIPY_WINDOW_MAX_SIZE:
            for kind in SCIPY_WINDOW_KINDS:
                plan.append((f"{kind} window float64 N={size:,}",
                             lambda kind=kind, size=size: scipy_window_row(kind, size, peers, threads)))
            for entry in scipy_windows():
                plan.append((f"{entry.label} window float64 N={size:,}",
                             lambda entry=entry, size=size: param_window_row(entry, size, peers, threads)))
            plan.append((f"{KBD_LABEL} window float64 N={size:,}",
                         lambda size=size: kbd_window_row(size, peers, threads)))
    for dtype in WINDOW_DTYPES:
        for size in settings.window_sizes:
            plan.append((f"store limit {dtype} N={size:,}",
                         lambda dtype=dtype, size=size: store_row(dtype, size, threads)))
    for kind, dtype, size in SMALL_CALLS:
        plan.append((f"small call sin {kind} {dtype} N={size}",
                     lambda kind=kind, dtype=dtype, size=size: small_row(kind, dtype, size, peers, threads)))
    return plan


def run(args, settings: Settings, out=None) -> int:
    started = time.perf_counter()
    _progress("crtrig bench: loading peers")
    peers = load_peers(args.peers)
    if getattr(args, "native", None):
        peers.native, peers.native_note = args.native
    threads = Threads.detect()
    rows: list[Row] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # casts, float16 overflow in peers
            with np.errstate(all="ignore"):
                plan = build_plan(settings, peers, threads)
                for number, (name, make) in enumerate(plan, 1):
                    row_start = time.perf_counter()
                    row, contenders, check = make()
                    time_row(row, contenders, settings, args.rounds, check)
                    rows.append(row)
                    flag = "" if not row.wrong else f", {row.wrong} WRONG"
                    _progress(f"[{number:>2}/{len(plan)}] {name}: {row.rounds} rounds, "
                              f"{time.perf_counter() - row_start:.1f} s{flag}")
    finally:
        if threads.pool and threads.all is not None:
            crtrig.set_num_threads(threads.all)
        for undo in peers.restore:
            undo()
    elapsed = time.perf_counter() - started
    print(report(rows, peers, threads, settings, args, elapsed), file=sys.stdout if out is None else out)
    data = as_json(rows, peers, threads, settings, args, elapsed)
    for option, path in (("--json", args.json), ("--plot", args.plot)):
        if not path:
            continue
        try:
            if option == "--json":
                import json

                write_text_atomically(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
            else:
                plot(data, path)
        except OutputError as exc:  # the report is printed; say what could not be saved
            _progress(f"crtrig bench: error: {option} {path}: {exc}")
            return 2
        _progress(f"crtrig bench: wrote {path}")
    return 1 if any(row.wrong for row in rows) else 0


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``bench`` arguments to a (sub)parser."""
    parser.add_argument("--quick", action="store_true",
                        help=f"{QUICK_RUN_TIME}: {QUICK.trig_size:,} sin/cos elements, windows of "
                             f"{', '.join(f'{s:,}' for s in QUICK.window_sizes)}, samples of at "
                             f"least {_milliseconds(QUICK.min_sample_s)}, fewer rounds. The "
                             f"default run: {DEFAULT_RUN_TIME} on a 2-core machine (measured, "
                             "with numpy, scipy and onnxruntime as peers), samples of at least "
                             f"{_milliseconds(DEFAULT.min_sample_s)}")
    parser.add_argument("--peers", type=names_list(PEERS, "--peers"), default=list(PEERS),
                        help=f"peers to time next to crtrig (default: {','.join(PEERS)}; those "
                             "not installed are skipped)")
    parser.add_argument("--json", metavar="FILE", help="also save the numbers as JSON")
    parser.add_argument("--native-peers", metavar="FILE",
                        help="add the native peers (SLEEF u10/u35, glibc libmvec and libm) timed "
                             "by tools/native_peers.py on this run's inputs to the sin/cos rows "
                             "of float32 and float64 (the file must be made for the same "
                             "--trig-size)")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="also draw the speedups (needs matplotlib: pip install 'crtrig[bench]')")
    parser.add_argument("--trig-size", type=integer(1, MAX_TRIG_SIZE, "--trig-size"), default=None,
                        metavar="N", help=f"sin/cos elements per call (default: {DEFAULT.trig_size:,}; "
                                          f"--quick: {QUICK.trig_size:,})")
    parser.add_argument("--window-sizes", type=integer_list(1, MAX_WINDOW_SIZE, "window sizes"), default=None, metavar="N,N,...",
                        help="window sizes (default: "
                             f"{','.join(map(str, DEFAULT.window_sizes))}; --quick: "
                             f"{','.join(map(str, QUICK.window_sizes))})")
    # For the tests: a fixed number of rounds per row instead of the time budget, and a
    # shorter minimum sample.
    parser.add_argument("--rounds", type=integer(1, MAX_ROUNDS, "--rounds"), default=None,
                        help=argparse.SUPPRESS)
    parser.add_argument("--min-sample-ms", type=integer(1, MAX_MIN_SAMPLE_MS, "--min-sample-ms"),
                        default=None, help=argparse.SUPPRESS)
    parser.set_defaults(func=lambda args, out=None: _run_cli(parser, args, out))


#: The crtrig column the native peers are compared with: crtrig into an existing array.
NATIVE_BASELINE = "crtrig out="
#: Largest --native-peers file read (a full file is about 20 KB).
MAX_NATIVE_BYTES = 1 << 20


def load_native_peers(path: str, trig_size: int) -> tuple[dict, str]:
    """The rows of a tools/native_peers.py file, by (function, dtype, input), each
    {column: entry}; and a line saying what it holds.  ValueError (one line) for a
    file that is not one, or one made for another size."""
    try:
        with open(path, "rb") as f:
            text = f.read(MAX_NATIVE_BYTES + 1)
    except OSError as exc:
        raise ValueError(exc.strerror or str(exc)) from None
    if len(text) > MAX_NATIVE_BYTES:
        raise ValueError(f"larger than {MAX_NATIVE_BYTES:,} bytes: not a tools/native_peers.py file")
    try:
        import json  # here and above, not at import: `crtrig bench --help` needs neither

        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f"not JSON ({' '.join(str(exc).split())[:80]})") from None
    if not isinstance(data, dict) or data.get("crtrig_native_peers") != 1:
        raise ValueError("not a tools/native_peers.py file (no \"crtrig_native_peers\": 1)")
    if data.get("trig_size") != trig_size:
        raise ValueError(f"made for {shown_size(data.get('trig_size'))} elements per call, this run "
                         f"uses {trig_size:,} (run tools/native_peers.py --trig-size {trig_size})")
    native = {}
    try:
        for row in data["rows"]:
            key = (row["function"], row["dtype"], row["input"])
            if key[0] not in TRIG_FUNCTIONS or key[1] not in TRIG_DTYPES or key[2] not in INPUT_SETS:
                raise ValueError(f"unknown row {key!r}")
            columns = {}
            for entry in row["peers"].values():
                column = f"{entry['name']} {entry['isa']}"
                numbers = [entry[k] for k in ("ns_per_element", "q1", "q3", "not_cr_share", "max_ulp")]
                if not all(isinstance(v, (int, float)) and v >= 0 for v in numbers) or \
                        not isinstance(entry["not_cr"], int) or not isinstance(entry["calls_per_sample"], int):
                    raise ValueError(f"bad numbers for {column}")
                columns[column] = dict(entry, expression=f"tools/native_peers.c: {entry['name']}, "
                                                         f"{entry['isa']}, into an existing array")
            native[key] = columns
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a tools/native_peers.py file (no {exc})") from None
    note = (f"timed by tools/native_peers.c ({data.get('cc', 'cc')}, SLEEF "
            f"{'linked' if data.get('sleef') else 'not found'}, {data.get('libc', '?')}) on this "
            "bench's inputs (same seed), into an existing array, one thread; each ratio is "
            f"against the `{NATIVE_BASELINE}` column; not CR: the share of its results that differ "
            "from crtrig's (correctly rounded) outputs")
    return native, note


def shown_size(value) -> str:
    return f"{value:,}" if isinstance(value, int) else repr(value)[:20]


def _run_cli(parser, args, out=None) -> int:
    base = QUICK if args.quick else DEFAULT
    settings = Settings(trig_size=args.trig_size or base.trig_size,
                        window_sizes=tuple(args.window_sizes or base.window_sizes),
                        row_budget_s=base.row_budget_s, min_rounds=base.min_rounds,
                        max_rounds=base.max_rounds,
                        min_sample_s=(base.min_sample_s if args.min_sample_ms is None
                                      else args.min_sample_ms / 1000))
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            parser.error("--plot needs matplotlib, which is not installed "
                         "(pip install 'crtrig[bench]')")
    args.native = None
    if args.native_peers is not None:
        try:
            args.native = load_native_peers(args.native_peers, settings.trig_size)
        except ValueError as exc:
            parser.error(f"--native-peers {args.native_peers}: {exc}")
    for option, path in (("--json", args.json), ("--plot", args.plot)):
        if path is not None:  # a FIFO, a directory, ... : refused before the run
            try:
                check_writable_target(path)
            except OutputError as exc:
                parser.error(f"{option} {path}: {exc}")
    if args.plot:
        try:
            plot_format(args.plot)
        except ValueError as exc:
            parser.error(f"--plot {args.plot}: {exc}")
    return run(args, settings, out)
