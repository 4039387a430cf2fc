"""Compare crtrig's window functions with the other libraries that compute them.

Usage::

    python tools/compare_windows.py [--sizes 10 257 ...] [--speed-sizes 100000 1000000]
                                    [--repeat N] [--threads T] [--skip-accuracy] [--skip-speed]

One run measures, for every peer that is installed (numpy, scipy.signal.windows,
torch, onnxruntime, onnx.reference.ReferenceEvaluator) and for crtrig itself,
accuracy and speed, and prints markdown tables headed by the exact command line
and the library versions.  A peer that cannot be imported is listed as "not
installed" and skipped: the tool needs only numpy and crtrig.

Accuracy methodology
--------------------
Each peer is judged against the window *it* sets out to compute:

* Hann (1/2, 1/2) and Blackman (0.42, 0.5, 0.08 as the exact fractions 21/50,
  1/2, 2/25) are the same everywhere.
* Hamming differs: ONNX (so onnxruntime, onnx.reference and crtrig) uses
  25/46, 21/46, while numpy, scipy and torch use 0.54, 0.46.  Those three are
  judged against 0.54 - 0.46 cos(2 pi n / D) with the exact decimal fractions
  27/50 and 23/50; a separate column gives how far their values lie from the
  ONNX window.

The correctly rounded values of the ONNX windows come from
``crtrig.reference`` (exact integer arithmetic, independent of crtrig's C
core).  The correctly rounded values of the 0.54/0.46 Hamming window come from
this file's own oracle (``CosineSumOracle``): mpmath evaluates cos(pi x) at 200
bits, the result is turned into an exact gmpy2 rational, and the enclosure
[w - eps, w + eps] (eps far above mpmath's error) is rounded into float16,
float32 and float64 with ``gmpy2.context(gmpy2.ieee(bits))``; if the two ends
round differently the precision is doubled (a Ziv loop).  Points where every
cosine is rational (n/D a multiple of 1/6 or 1/4) are evaluated exactly.  The
oracle is cross-checked at start-up against ``crtrig.reference`` with the ONNX
coefficients, and the result of that check is printed.  Without mpmath and
gmpy2 the 0.54/0.46 Hamming rows are reported as "no oracle".

For each (peer, window, dtype, periodic/symmetric, size) the table gives the
largest distance in ULPs (units in the last place of the output type, counted
as the number of representable values between the two results; +0 and -0
are the same) from the correctly rounded value and the share of elements that
are not correctly rounded, plus the share of NaNs where there are any.  Two
further columns, over all sizes: the largest absolute difference from the
correctly rounded value of the peer's own definition in the same dtype (0 for
a correctly rounded result), and the same against the ONNX window.  Near a
zero of the window (Blackman's ends) one tiny absolute error is a huge number
of ULPs, so read the ULP and absolute columns together.

Where a peer has no parameter for the output type (numpy, scipy: float64
only) its float64 result is cast with ``astype``, as a user would.  numpy has
no periodic flag: the periodic window of size M is ``np.hanning(M + 1)[:-1]``.
torch's hamming_window uses its defaults alpha=0.54, beta=0.46.  onnxruntime
and onnx.reference run a one-node ONNX model (opset 17, made with
onnx.helper) with an int64 scalar input ``size`` and the attributes
``periodic`` and ``output_datatype``.

Speed methodology
-----------------
Periodic windows of each size in ``--speed-sizes``, float32 and float64.  For
every (window, dtype, size) the calls are interleaved: each of ``--repeat``
rounds times crtrig once and every peer once (the order rotates from round to
round), each with ``time.perf_counter`` around one complete call that returns a
new numpy array (including the ``astype`` cast or torch's ``.numpy()``), with
the garbage collector off.  The tables give the median over the rounds in ns
per element and, for the peers, the ratio of the peer's median to crtrig's
median over the same rounds (above 1: crtrig is faster).  The spread column
is the interquartile range of crtrig's times relative to its median: a large
one means a noisy machine, so rerun before quoting a number.  torch and
onnxruntime run with ``--threads`` threads (default 1, as crtrig and numpy).
"""
from __future__ import annotations

import argparse
import gc
import importlib
import math
import os
import platform
import statistics
import sys
import time
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

try:
    import crtrig
    from crtrig import reference
except ImportError as exc:  # pragma: no cover - nothing to compare then
    sys.exit(f"compare_windows: cannot import crtrig ({exc}); install it first "
             "(pip install --no-build-isolation -e .)")

KINDS = ("hann", "hamming", "blackman")
ONNX_OPS = {"hann": "HannWindow", "hamming": "HammingWindow", "blackman": "BlackmanWindow"}
CRTRIG_FUNCS = {"hann": crtrig.hann_window, "hamming": crtrig.hamming_window,
                "blackman": crtrig.blackman_window}
FLOAT_DTYPES = {"float16": np.float16, "float32": np.float32, "float64": np.float64}

#: Cosine-sum coefficients a_j of w[n] = sum_j (-1)^j a_j cos(2 pi j n / D).
DECIMAL_HAMMING = (Fraction(27, 50), Fraction(23, 50))      # numpy, scipy, torch
ONNX_COEFFICIENTS = {kind: tuple(reference.COEFFICIENTS[kind]) for kind in KINDS}

DEFAULT_SIZES = (10, 257, 1000, 4097, 100001)
DEFAULT_SPEED_SIZES = (100000, 1000000)


# ---------------------------------------------------------------------------
# ULP distance (vectorised)
# ---------------------------------------------------------------------------

_INT_VIEWS = {np.dtype(np.float16): (np.int16, np.uint16),
              np.dtype(np.float32): (np.int32, np.uint32),
              np.dtype(np.float64): (np.int64, np.uint64)}


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise number of representable steps between a and b (float64 result).

    Both arrays must share one float dtype.  +0 and -0 are 0 apart; NaN vs
    NaN is 0 and NaN vs a number is infinite.
    """
    signed, unsigned = _INT_VIEWS[a.dtype]
    ia = np.ascontiguousarray(a).view(signed)
    ib = np.ascontiguousarray(b).view(signed)
    low = np.iinfo(signed).min
    # Monotone map of the bit patterns onto integers; negatives are reflected.
    oa = np.where(ia < 0, low - ia, ia)
    ob = np.where(ib < 0, low - ib, ib)
    ua, ub = oa.view(unsigned), ob.view(unsigned)
    dist = np.where(oa >= ob, ua - ub, ub - ua).astype(np.float64)  # wraps into the right value
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    dist[nan_a != nan_b] = np.inf
    dist[nan_a & nan_b] = 0.0
    return dist


# ---------------------------------------------------------------------------
# Oracles
# ---------------------------------------------------------------------------

#: Exact cos(pi t) at the rational points where it is rational (t mod 2).
_RATIONAL_COSPI = {Fraction(0): Fraction(1), Fraction(1, 3): Fraction(1, 2),
                   Fraction(1, 2): Fraction(0), Fraction(2, 3): Fraction(-1, 2),
                   Fraction(1): Fraction(-1), Fraction(4, 3): Fraction(-1, 2),
                   Fraction(3, 2): Fraction(0), Fraction(5, 3): Fraction(1, 2)}


def _fold(n: int, d: int) -> tuple[int, int]:
    """Canonical (m, d') with cos(2 pi j n / d) = cos(2 pi j m / d') for every j."""
    r = n % d
    m = min(r, d - r)
    g = math.gcd(m, d)
    return m // g, d // g


class CosineSumOracle:
    """Correctly rounded w[n] = sum_j (-1)^j a_j cos(2 pi j n / D) with rational a_j.

    Uses mpmath for cos(pi x) and gmpy2 for the exact arithmetic and the
    rounding into float16/float32/float64 (see the module docstring).
    """

    FORMATS = ("float16", "float32", "float64")
    START_PRECISION = 200
    MAX_PRECISION = 3200

    def __init__(self, coefficients):
        import gmpy2
        import mpmath
        self._gmpy2 = gmpy2
        self._mpmath = mpmath
        self._coefficients = [gmpy2.mpq(a.numerator, a.denominator) for a in coefficients]
        self._contexts = {"float16": gmpy2.ieee(16), "float32": gmpy2.ieee(32),
                          "float64": gmpy2.ieee(64)}
        self._cache: dict[tuple[int, int], tuple[float, float, float]] = {}

    def _round(self, q) -> tuple[float, ...]:
        gmpy2 = self._gmpy2
        result = []
        for fmt in self.FORMATS:
            with gmpy2.context(self._contexts[fmt]):
                result.append(float(gmpy2.mpfr(q)))
        return tuple(result)

    def _exact_terms(self, m: int, d: int):
        """The exact sum if every cosine is rational there, else None."""
        total = Fraction(0)
        for j, a in enumerate(self._coefficients):
            c = _RATIONAL_COSPI.get(Fraction(2 * j * m, d) % 2)
            if c is None:
                return None
            total += (-1) ** j * Fraction(int(a.numerator), int(a.denominator)) * c
        return total

    def _values(self, m: int, d: int) -> tuple[float, float, float]:
        key = (m, d)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        gmpy2, mpmath = self._gmpy2, self._mpmath
        exact = self._exact_terms(m, d)
        if exact is not None:
            values = self._round(gmpy2.mpq(exact.numerator, exact.denominator))
        else:
            precision = self.START_PRECISION
            while True:
                with mpmath.workprec(precision):
                    w = gmpy2.mpq(0)
                    for j, a in enumerate(self._coefficients):
                        cosine = mpmath.cospi(mpmath.mpf(2 * j * m) / d)
                        man, exp = cosine.man_exp  # |cosine| = man * 2**exp
                        c = gmpy2.mpq(man << exp) if exp >= 0 else gmpy2.mpq(man, 1 << -exp)
                        if cosine < 0:
                            c = -c
                        w += a * c if j % 2 == 0 else -a * c
                # mpmath's cospi is good to a few units of 2**-precision; eps is far wider.
                eps = gmpy2.mpq(1, 1 << (precision - 16))
                low, high = self._round(w - eps), self._round(w + eps)
                if low == high:
                    values = low
                    break
                precision *= 2
                if precision > self.MAX_PRECISION:
                    raise ArithmeticError(f"oracle did not converge at {m}/{d}")
        self._cache[key] = values
        return values

    def window(self, size: int, periodic: bool, fmt: str) -> np.ndarray:
        d = size if periodic else size - 1
        dtype = FLOAT_DTYPES[fmt]
        if d <= 0:
            return np.full(size, np.nan if d == 0 else 0.0, dtype=dtype)
        slot = self.FORMATS.index(fmt)
        return np.array([self._values(*_fold(n, d))[slot] for n in range(size)], dtype=dtype)


class Oracles:
    """Correctly rounded windows for the ONNX and the 0.54/0.46 definitions, cached."""

    def __init__(self):
        self._cache: dict[tuple, np.ndarray] = {}
        try:
            self.decimal_hamming = CosineSumOracle(DECIMAL_HAMMING)
            self.missing = None
        except ImportError as exc:
            self.decimal_hamming = None
            self.missing = f"no oracle for 0.54/0.46 Hamming ({exc.name} not installed)"

    def get(self, definition: str, kind: str, size: int, periodic: bool, fmt: str):
        """The correctly rounded window, or None if that oracle is unavailable.

        ``definition`` is "onnx" or "decimal" (the 0.54/0.46 Hamming of
        numpy, scipy and torch; the same as "onnx" for Hann and Blackman).
        """
        if definition == "decimal" and kind != "hamming":
            definition = "onnx"
        key = (definition, kind, size, periodic, fmt)
        if key not in self._cache:
            if definition == "onnx":
                self._cache[key] = reference.window(kind, size, periodic, fmt)
            elif self.decimal_hamming is None:
                return None
            else:
                self._cache[key] = self.decimal_hamming.window(size, periodic, fmt)
        return self._cache[key]

    def cross_check(self) -> str:
        """Compare CosineSumOracle with crtrig.reference on the ONNX windows."""
        if self.decimal_hamming is None:
            return self.missing
        checked = 0
        for kind in KINDS:
            oracle = CosineSumOracle(ONNX_COEFFICIENTS[kind])
            for size in (10, 12, 257, 1000):
                for periodic in (True, False):
                    for fmt in CosineSumOracle.FORMATS:
                        mine = oracle.window(size, periodic, fmt)
                        ref = reference.window(kind, size, periodic, fmt)
                        bad = np.count_nonzero(ulp_distance(mine, ref))
                        if bad:
                            return (f"FAILED: mpmath/gmpy2 oracle and crtrig.reference disagree on "
                                    f"{bad} values of {kind} size {size} periodic={periodic} {fmt}")
                        checked += size
        return (f"mpmath/gmpy2 oracle agrees with crtrig.reference on all {checked} "
                f"ONNX window values tried (3 windows, sizes 10-1000, float16/32/64)")


# ---------------------------------------------------------------------------
# Peers
# ---------------------------------------------------------------------------

WindowMaker = Callable[[str, bool, str], Callable[[int], np.ndarray]]


@dataclass
class Peer:
    """One library that computes windows.

    ``make(kind, periodic, dtype)`` returns a function of the size that gives
    a numpy array of that dtype.  ``definition`` is "onnx" or "decimal"
    (which Hamming coefficients the library uses).
    """

    name: str
    version: str
    definition: str
    dtypes: tuple
    make: WindowMaker
    note: str = ""
    cache: dict = field(default_factory=dict)

    def window(self, kind: str, periodic: bool, dtype: str) -> Callable[[int], np.ndarray]:
        key = (kind, periodic, dtype)
        if key not in self.cache:
            self.cache[key] = self.make(kind, periodic, dtype)
        return self.cache[key]


def _crtrig_peer(threads: int) -> Peer:
    def make(kind, periodic, dtype):
        func, dt = CRTRIG_FUNCS[kind], FLOAT_DTYPES[dtype]
        return lambda n: func(n, periodic=periodic, dtype=dt)
    return Peer("crtrig", crtrig.__version__, "onnx", ("float16", "float32", "float64"), make)


def _cast_from_float64(base, dtype):
    if dtype == "float64":
        return base
    dt = FLOAT_DTYPES[dtype]
    return lambda n: base(n).astype(dt)


def _numpy_peer(threads: int) -> Peer:
    funcs = {"hann": np.hanning, "hamming": np.hamming, "blackman": np.blackman}

    def make(kind, periodic, dtype):
        f = funcs[kind]
        base = (lambda n: f(n + 1)[:-1]) if periodic else f
        return _cast_from_float64(base, dtype)
    return Peer("numpy", np.__version__, "decimal", ("float32", "float64"), make,
                "float64 only (float32 by astype); periodic M = np.hanning(M+1)[:-1]")


def _scipy_peer(threads: int) -> Peer:
    import scipy
    from scipy.signal import windows
    funcs = {"hann": windows.hann, "hamming": windows.hamming, "blackman": windows.blackman}

    def make(kind, periodic, dtype):
        f = funcs[kind]
        return _cast_from_float64(lambda n: f(n, sym=not periodic), dtype)
    return Peer("scipy", scipy.__version__, "decimal", ("float32", "float64"), make,
                "scipy.signal.windows; float64 only (float32 by astype)")


def _torch_peer(threads: int) -> Peer:
    import torch
    torch.set_num_threads(threads)
    funcs = {"hann": torch.hann_window, "hamming": torch.hamming_window,
             "blackman": torch.blackman_window}
    dtypes = {"float16": torch.float16, "float32": torch.float32, "float64": torch.float64}

    def make(kind, periodic, dtype):
        f, dt = funcs[kind], dtypes[dtype]
        return lambda n: f(n, periodic=periodic, dtype=dt).numpy()
    return Peer("torch", torch.__version__, "decimal", ("float16", "float32", "float64"), make,
                f"CPU, {threads} thread(s)")


def _onnx_model(kind: str, periodic: bool, dtype: str):
    """A one-node opset-17 model: int64 scalar `size` -> window `y`."""
    from onnx import TensorProto, helper
    elem = {"float16": TensorProto.FLOAT16, "float32": TensorProto.FLOAT,
            "float64": TensorProto.DOUBLE}[dtype]
    node = helper.make_node(ONNX_OPS[kind], ["size"], ["y"], periodic=int(periodic),
                            output_datatype=elem)
    graph = helper.make_graph(
        [node], f"{kind}_window",
        [helper.make_tensor_value_info("size", TensorProto.INT64, [])],
        [helper.make_tensor_value_info("y", elem, [None])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _onnxruntime_peer(threads: int) -> Peer:
    import onnxruntime as ort
    importlib.import_module("onnx")  # _onnx_model needs it: fail here, not mid-run

    def make(kind, periodic, dtype):
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        session = ort.InferenceSession(_onnx_model(kind, periodic, dtype).SerializeToString(),
                                       options, providers=["CPUExecutionProvider"])
        return lambda n: session.run(None, {"size": np.array(n, dtype=np.int64)})[0]
    return Peer("onnxruntime", ort.__version__, "onnx", ("float16", "float32", "float64"), make,
                f"CPUExecutionProvider, {threads} intra-op thread(s)")


def _onnx_reference_peer(threads: int) -> Peer:
    import onnx
    from onnx.reference import ReferenceEvaluator

    def make(kind, periodic, dtype):
        evaluator = ReferenceEvaluator(_onnx_model(kind, periodic, dtype))
        return lambda n: evaluator.run(None, {"size": np.array(n, dtype=np.int64)})[0]
    return Peer("onnx.reference", onnx.__version__, "onnx", ("float16", "float32", "float64"), make,
                "ReferenceEvaluator (numpy)")


PEER_FACTORIES = (("numpy", _numpy_peer), ("scipy", _scipy_peer), ("torch", _torch_peer),
                  ("onnxruntime", _onnxruntime_peer), ("onnx.reference", _onnx_reference_peer))


def load_peers(threads: int) -> tuple[list[Peer], dict[str, str]]:
    """The installed peers, and for the others the reason they are skipped."""
    peers, skipped = [], {}
    for name, factory in PEER_FACTORIES:
        try:
            peers.append(factory(threads))
        except ImportError as exc:
            skipped[name] = f"not installed (no module {exc.name or exc!r})"
        except Exception as exc:  # a broken install: report it, go on
            skipped[name] = f"unusable: {type(exc).__name__}: {exc}"
    return peers, skipped


# ---------------------------------------------------------------------------
# Formatting helpers
# ---------------------------------------------------------------------------

def fmt_ulp(x: float) -> str:
    if math.isinf(x):
        return "inf"
    return f"{int(x)}" if x < 1e5 else f"{x:.2g}"


def fmt_share(wrong: int, total: int) -> str:
    if wrong == 0:
        return "0"
    return f"{100.0 * wrong / total:.3g}%"


def fmt_abs(x: float) -> str:
    if math.isnan(x):
        return "n/a"
    return "0" if x == 0 else f"{x:.2g}"


def fmt_values(arr: np.ndarray) -> str:
    if arr.size > 4:
        return f"{arr.size} values"
    return "[" + ", ".join(f"{float(v):.4g}" for v in arr) + "]"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Accuracy
# ---------------------------------------------------------------------------

def _max_abs_diff(got64: np.ndarray, want: np.ndarray) -> float:
    """Largest |got - want| over the elements where both are numbers (0 if none)."""
    diff = np.abs(got64 - want.astype(np.float64))
    diff = diff[~np.isnan(diff)]
    return float(diff.max()) if diff.size else 0.0


def accuracy_section(peers: list[Peer], oracles: Oracles, sizes: list[int]) -> str:
    out = ["## Accuracy",
           "",
           "Cells: max ULP distance from the correctly rounded value / share of elements not "
           "correctly rounded (and the share of NaNs, if any). `max abs err`: over all sizes, the "
           "largest |peer - correctly rounded value of the peer's own definition| in that dtype "
           "(0 means correctly rounded; NaNs are left out). `max abs Δ ONNX`: the same against "
           "the correctly rounded ONNX window (differs from `max abs err` only for the 0.54/0.46 "
           "Hamming). P = periodic, S = symmetric."]
    for dtype in CosineSumOracle.FORMATS:
        rows = []
        for peer in peers:
            if dtype not in peer.dtypes:
                continue
            for kind in KINDS:
                coeffs = "0.54/0.46" if kind == "hamming" and peer.definition == "decimal" else ""
                for periodic in (True, False):
                    row = [peer.name, kind + (f" {coeffs}" if coeffs else ""), "P" if periodic else "S"]
                    max_abs = max_onnx = 0.0
                    for size in sizes:
                        try:
                            got = np.asarray(peer.window(kind, periodic, dtype)(size))
                        except Exception as exc:
                            row.append(f"error: {type(exc).__name__}")
                            continue
                        if got.dtype != np.dtype(dtype) or got.shape != (size,):
                            row.append(f"got {got.dtype}{list(got.shape)}")
                            continue
                        got64 = got.astype(np.float64)
                        onnx = oracles.get("onnx", kind, size, periodic, dtype)
                        max_onnx = max(max_onnx, _max_abs_diff(got64, onnx))
                        want = oracles.get(peer.definition, kind, size, periodic, dtype)
                        if want is None:
                            row.append("no oracle")
                            max_abs = math.nan
                            continue
                        max_abs = max(max_abs, _max_abs_diff(got64, want))
                        dist = ulp_distance(got, want)
                        cell = (f"{fmt_ulp(float(dist.max()))} / "
                                f"{fmt_share(int(np.count_nonzero(dist)), size)}")
                        nans = int(np.count_nonzero(np.isnan(got)))
                        if nans:
                            cell += f" ({fmt_share(nans, size)} NaN)"
                        row.append(cell)
                    row += [fmt_abs(max_abs), fmt_abs(max_onnx)]
                    rows.append(row)
        header = ["peer", "window", "P/S"] + [f"n={s}" for s in sizes] + ["max abs err", "max abs Δ ONNX"]
        out += ["", f"### {dtype}", "", table(header, rows)]
    return "\n".join(out)


def edge_section(peers: list[Peer]) -> str:
    """What each peer returns for sizes 0 and 1, float32 (hann; hamming; blackman)."""
    cases = (("0 P", 0, True), ("0 S", 0, False), ("1 P", 1, True), ("1 S", 1, False),
             ("2 S", 2, False))
    rows = []
    for peer in peers:
        row = [peer.name]
        for _, size, periodic in cases:
            cells = []
            for kind in KINDS:
                try:
                    cells.append(fmt_values(np.asarray(peer.window(kind, periodic, "float32")(size))))
                except Exception as exc:
                    cells.append(f"error: {type(exc).__name__}")
            row.append(cells[0] if len(set(cells)) == 1 else "; ".join(cells))
        rows.append(row)
    header = ["peer"] + [f"size {label}" for label, _, _ in cases]
    return "\n".join(["## Edge sizes (float32)", "",
                      "One value list if hann, hamming and blackman agree, else `hann; hamming; "
                      "blackman`. P = periodic, S = symmetric.", "", table(header, rows)])


# ---------------------------------------------------------------------------
# Speed
# ---------------------------------------------------------------------------

def _time_once(func, size) -> float:
    start = time.perf_counter()
    func(size)
    return time.perf_counter() - start


def _interleaved_samples(funcs, size: int, repeat: int) -> list[list[float]]:
    """`repeat` rounds timing every function once; the order rotates each round."""
    samples = [[] for _ in funcs]
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for r in range(repeat):
            shift = r % len(funcs)
            for i in list(range(shift, len(funcs))) + list(range(shift)):
                samples[i].append(_time_once(funcs[i], size))
    finally:
        if gc_was_enabled:
            gc.enable()
    return samples


def speed_section(crtrig_peer: Peer, peers: list[Peer], sizes: list[int], repeat: int) -> str:
    rows, spreads = [], []
    timed = [p for p in peers if p.name != "crtrig"]
    for size in sizes:
        for dtype in ("float32", "float64"):
            for kind in KINDS:
                contenders, funcs = [], []
                for peer in [crtrig_peer] + [p for p in timed if dtype in p.dtypes]:
                    try:  # also the warm-up: sessions, caches, page faults
                        func = peer.window(kind, True, dtype)
                        func(size)
                    except Exception:
                        if peer is crtrig_peer:
                            raise
                        continue  # shown as n/a
                    contenders.append(peer)
                    funcs.append(func)
                samples = _interleaved_samples(funcs, size, repeat)
                medians = [statistics.median(s) for s in samples]
                q1, _, q3 = statistics.quantiles(samples[0], n=4) if repeat >= 2 else (0, 0, 0)
                spread = (q3 - q1) / medians[0]
                spreads.append(spread)
                row = [f"{size:,}", dtype, kind, f"{medians[0] * 1e9 / size:.2f}", f"{100 * spread:.0f}%"]
                by_name = {p.name: m for p, m in zip(contenders, medians)}
                for peer in timed:
                    m = by_name.get(peer.name)
                    row.append("n/a" if m is None else
                               f"{m * 1e9 / size:.2f} ({m / medians[0]:.2f}×)")
                rows.append(row)
    header = ["size", "dtype", "window", "crtrig ns/elt", "crtrig IQR"] + \
             [f"{p.name} ns/elt (× crtrig)" for p in timed]
    intro = (f"Periodic windows; median of {repeat} interleaved rounds; ratio = peer median / "
             f"crtrig median over the same rounds (above 1: crtrig faster). "
             f"Largest crtrig IQR/median: {100 * max(spreads, default=0):.0f}%.")
    return "\n".join(["## Speed", "", intro, "", table(header, rows)])


# ---------------------------------------------------------------------------
# Header and main
# ---------------------------------------------------------------------------

def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _module_version(name: str) -> str:
    try:
        module = __import__(name)
    except ImportError:
        return "not installed"
    return getattr(module, "__version__", "?")


def header(peers: list[Peer], skipped: dict[str, str], args, check: str) -> str:
    command = " ".join(getattr(sys, "orig_argv", [sys.executable] + sys.argv))
    lines = ["# crtrig window comparison", "", "```", f"$ {command}", "```", "",
             f"- machine: {_cpu_name()}, {os.cpu_count()} CPUs, {platform.platform()}",
             f"- Python {platform.python_version()} ({sys.executable})",
             f"- crtrig {crtrig.__version__} ({os.path.dirname(crtrig.__file__)}), SIMD target "
             f"{crtrig._core.SIMD_TARGET} (CRTRIG_TARGET=baseline|avx2|avx512 selects another)"]
    for peer in peers:
        if peer.name != "crtrig":
            lines.append(f"- {peer.name} {peer.version}" + (f": {peer.note}" if peer.note else ""))
    for name, reason in skipped.items():
        lines.append(f"- {name}: {reason}")
    lines.append("- oracle helpers: " + ", ".join(
        f"{m} {_module_version(m)}" for m in ("mpmath", "gmpy2", "ml_dtypes")))
    if check:
        lines.append(f"- oracle cross-check: {check}")
    lines.append(f"- threads for torch/onnxruntime: {args.threads}")
    return "\n".join(lines)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES),
                        help="window sizes for the accuracy tables (default: %(default)s)")
    parser.add_argument("--speed-sizes", type=int, nargs="+", default=list(DEFAULT_SPEED_SIZES),
                        help="window sizes for the speed table (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=15,
                        help="timing rounds per configuration; the median is reported "
                             "(default: %(default)s)")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads for torch and onnxruntime (default: %(default)s)")
    parser.add_argument("--skip-accuracy", action="store_true", help="only measure speed")
    parser.add_argument("--skip-speed", action="store_true", help="only measure accuracy")
    args = parser.parse_args(argv)
    if any(s < 2 for s in args.sizes + args.speed_sizes):
        parser.error("sizes must be at least 2 (sizes 0 and 1 are in the edge table)")
    if args.repeat < 1 or args.threads < 1:
        parser.error("--repeat and --threads must be positive")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    warnings.simplefilter("ignore")  # peers warn on size 1 (0/0) and on casts
    np.seterr(all="ignore")
    crtrig_peer = _crtrig_peer(args.threads)
    peers, skipped = load_peers(args.threads)
    oracles = Oracles()
    check = "" if args.skip_accuracy else oracles.cross_check()
    sections = [header([crtrig_peer] + peers, skipped, args, check)]
    if not args.skip_accuracy:
        sections.append(accuracy_section([crtrig_peer] + peers, oracles, args.sizes))
        sections.append(edge_section([crtrig_peer] + peers))
    if not args.skip_speed:
        sections.append(speed_section(crtrig_peer, peers, args.speed_sizes, args.repeat))
    print("\n\n".join(sections))
    return 0


if __name__ == "__main__":
    sys.exit(main())
