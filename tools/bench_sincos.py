"""Benchmark crtrig.sin/cos against numpy.sin/cos, side by side in one run.

    python tools/bench_sincos.py [--size 1000000] [--repeat 21]

For each input set (float32 uniform in [-pi, pi], uniform in [-1e5, 1e5], and
random bit patterns over all finite float32 values) it times crtrig and numpy
alternately, `--repeat` rounds, and prints the median ns per element of each
and their ratio (crtrig / numpy: below 1 means crtrig is faster).  It also
times crtrig's float32 kernel for every SIMD target this CPU supports (the
active one is chosen at import; CRTRIG_TARGET=baseline|avx2|avx512 overrides),
and the float16 and bfloat16 loops against numpy's float16 sin.  The float64
tables do the same for float64 inputs (random bit patterns over all finite
doubles), both sides allocating their output, with the speedup numpy / crtrig
(above 1 means crtrig is faster), for the active target and for each target.
Timings on a shared machine are noisy: compare ratios from one run, not
absolute numbers across runs.

Accuracy is measured by ``python -m crtrig compare`` (numpy, torch,
onnxruntime and onnx.reference against the exact reference).
"""
import argparse
import math
import platform
import time

import ml_dtypes
import numpy as np

import crtrig
from crtrig import _core


def input_sets(size, rng):
    bits = rng.integers(0, 1 << 32, 2 * size, dtype=np.uint64).astype(np.uint32).view(np.float32)
    return {
        "[-pi, pi]": rng.uniform(-math.pi, math.pi, size).astype(np.float32),
        "[-1e5, 1e5]": rng.uniform(-1e5, 1e5, size).astype(np.float32),
        "all finite bit patterns": bits[np.isfinite(bits)][:size],
    }


def input_sets_float64(size, rng):
    bits = rng.integers(0, 1 << 64, 2 * size, dtype=np.uint64).view(np.float64)
    return {
        "[-pi, pi]": rng.uniform(-math.pi, math.pi, size),
        "[-1e5, 1e5]": rng.uniform(-1e5, 1e5, size),
        "all finite bit patterns": bits[np.isfinite(bits)][:size],
    }


def float64_tables(size, repeat, rng):
    """float64 sin/cos against numpy, both allocating, for the active target and per target."""
    sets = input_sets_float64(size, rng)
    print()
    print(f"float64, SIMD target {_core.SIMD_TARGET} (both sides allocate their output):")
    print()
    print("| function | input (float64) | crtrig ns/elt | numpy ns/elt | numpy/crtrig |")
    print("|---|---|---|---|---|")
    for name, x in sets.items():
        for ours, theirs in ((crtrig.sin, np.sin), (crtrig.cos, np.cos)):
            a, b = time_pair(lambda: ours(x), lambda: theirs(x), repeat)
            c, n = median_ns(a, x.size), median_ns(b, x.size)
            print(f"| {ours.__name__} | {name} | {c:.2f} | {n:.2f} | {n / c:.2f} |")
    print()
    print("float64 sin per SIMD target (numpy in the same rounds); undecided = elements the")
    print("vectorized first pass leaves to the scalar path (rounding test failed):")
    print()
    print("| target | input (float64) | crtrig ns/elt | numpy ns/elt | numpy/crtrig | undecided |")
    print("|---|---|---|---|---|---|")
    for index, target in enumerate(_core.simd_targets()):
        if target is None:
            continue
        for name, x in sets.items():
            a, b = time_pair(lambda: _core.trig_with_target(index, 0, x), lambda: np.sin(x), repeat)
            c, n = median_ns(a, x.size), median_ns(b, x.size)
            undecided = int(np.count_nonzero(_core.first_pass_with_target(index, 0, x)[1] == 2))
            print(f"| {target} | {name} | {c:.2f} | {n:.2f} | {n / c:.2f} | {undecided} in {x.size} |")


def median_ns(samples, size):
    return float(np.median(samples)) / size * 1e9


def time_pair(first, second, repeat):
    """Alternate the two callables; return their lists of wall times."""
    times_first, times_second = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        first()
        times_first.append(time.perf_counter() - start)
        start = time.perf_counter()
        second()
        times_second.append(time.perf_counter() - start)
    return times_first, times_second


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    print(f"$ python tools/bench_sincos.py --size {args.size} --repeat {args.repeat}")
    print(f"crtrig {crtrig.__version__} (SIMD target {_core.SIMD_TARGET}), numpy {np.__version__}, "
          f"{platform.machine()}, {platform.processor() or platform.system()}")
    print()
    print("| function | input (float32) | crtrig ns/elt | numpy ns/elt | crtrig/numpy |")
    print("|---|---|---|---|---|")
    sets = input_sets(args.size, rng)
    out = np.empty(args.size, np.float32)
    for name, x in sets.items():
        for ours, theirs in ((crtrig.sin, np.sin), (crtrig.cos, np.cos)):
            a, b = time_pair(lambda: ours(x, out=out), lambda: theirs(x, out=out), args.repeat)
            c, n = median_ns(a, x.size), median_ns(b, x.size)
            print(f"| {ours.__name__} | {name} | {c:.2f} | {n:.2f} | {c / n:.2f} |")
    print()
    print("float32 kernel per SIMD target, sin on [-pi, pi] (numpy in the same rounds):")
    print()
    print("| target | crtrig ns/elt | numpy ns/elt | crtrig/numpy |")
    print("|---|---|---|---|")
    x = sets["[-pi, pi]"]
    for index, target in enumerate(_core.simd_targets()):
        if target is None:
            continue
        a, b = time_pair(lambda: _core.trig_with_target(index, 0, x), lambda: np.sin(x, out=out),
                         args.repeat)
        c, n = median_ns(a, x.size), median_ns(b, x.size)
        print(f"| {target} | {c:.2f} | {n:.2f} | {c / n:.2f} |")
    print()
    print("16-bit formats, sin on [-pi, pi] (numpy has no bfloat16 loop of its own: ml_dtypes'):")
    print()
    print("| dtype | crtrig ns/elt | numpy ns/elt | crtrig/numpy |")
    print("|---|---|---|---|")
    for dtype in (np.float16, ml_dtypes.bfloat16):
        xs = x.astype(dtype)
        a, b = time_pair(lambda: crtrig.sin(xs), lambda: np.sin(xs), args.repeat)
        c, n = median_ns(a, xs.size), median_ns(b, xs.size)
        print(f"| {np.dtype(dtype).name} | {c:.2f} | {n:.2f} | {c / n:.2f} |")
    float64_tables(args.size, args.repeat, rng)


if __name__ == "__main__":
    main()
