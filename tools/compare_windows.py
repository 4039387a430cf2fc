"""Time crtrig's window functions against the other libraries that compute them.

Usage::

    python tools/compare_windows.py [--speed-sizes 100000 1000000] [--repeat N] [--threads T]

For every peer that is installed (numpy, scipy.signal.windows, torch,
onnxruntime, onnx.reference.ReferenceEvaluator: the peers of
``python -m crtrig compare``, from ``crtrig.compare``) and for crtrig itself it
prints a markdown table of speeds headed by the exact command line and the
library versions.  A peer that cannot be imported is listed as "not installed"
and skipped: the tool needs only numpy and crtrig.

Accuracy is no longer measured here: ``python -m crtrig compare`` does that
(every peer judged by crtrig.reference against its own definition).

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
import os
import platform
import statistics
import sys
import time
import warnings

import numpy as np

try:
    import crtrig
    from crtrig.compare import crtrig_peer, load_peers
except ImportError as exc:  # pragma: no cover - nothing to compare then
    sys.exit(f"compare_windows: cannot import crtrig ({exc}); install it first "
             "(pip install --no-build-isolation -e .)")

KINDS = ("hann", "hamming", "blackman")
DEFAULT_SPEED_SIZES = (100000, 1000000)


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


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


def speed_section(ours, peers, sizes: list[int], repeat: int) -> str:
    rows, spreads = [], []
    timed = [p for p in peers if p.name != "crtrig"]
    for size in sizes:
        for dtype in ("float32", "float64"):
            for kind in KINDS:
                contenders, funcs = [], []
                for peer in [ours] + timed:
                    try:  # also the warm-up: sessions, caches, page faults
                        func = peer.window_function(kind, True, dtype)
                        func(size)
                    except Exception:
                        if peer is ours:
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


def header(peers, skipped: dict[str, str], args) -> str:
    command = " ".join(getattr(sys, "orig_argv", [sys.executable] + sys.argv))
    lines = ["# crtrig window speed", "", "```", f"$ {command}", "```", "",
             f"- machine: {_cpu_name()}, {os.cpu_count()} CPUs, {platform.platform()}",
             f"- Python {platform.python_version()} ({sys.executable})",
             f"- crtrig {crtrig.__version__} ({os.path.dirname(crtrig.__file__)}), SIMD target "
             f"{crtrig._core.SIMD_TARGET} (CRTRIG_TARGET=baseline|avx2|avx512 selects another)"]
    for peer in peers:
        lines.append(f"- {peer.name} {peer.version}" + (f": {peer.note}" if peer.note else ""))
    for name, reason in skipped.items():
        lines.append(f"- {name}: {reason}")
    lines.append(f"- threads for torch/onnxruntime: {args.threads}")
    return "\n".join(lines)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--speed-sizes", type=int, nargs="+", default=list(DEFAULT_SPEED_SIZES),
                        help="window sizes for the speed table (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=15,
                        help="timing rounds per configuration; the median is reported "
                             "(default: %(default)s)")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads for torch and onnxruntime (default: %(default)s)")
    args = parser.parse_args(argv)
    if any(s < 2 for s in args.speed_sizes):
        parser.error("sizes must be at least 2")
    if args.repeat < 1 or args.threads < 1:
        parser.error("--repeat and --threads must be positive")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    warnings.simplefilter("ignore")  # peers warn on casts
    np.seterr(all="ignore")
    ours = crtrig_peer()
    peers, skipped = load_peers(threads=args.threads)
    print("\n\n".join([header([ours] + peers, skipped, args),
                        speed_section(ours, peers, args.speed_sizes, args.repeat)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
