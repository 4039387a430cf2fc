"""Facts about crtrig's float32, float16 and bfloat16 sin/cos kernels that README quotes.

    python tools/sincos_stats.py               # both parts
    python tools/sincos_stats.py --undecided   # share of elements the first pass leaves undecided
    python tools/sincos_stats.py --tables      # one-time cost of building the 16-bit result tables

--undecided: for every SIMD target this CPU supports, 2^22 inputs per (dtype, input
set): uniform in [-pi, pi], uniform in [-1e5, 1e5] (float16: its finite range) and
random finite bit patterns; counts, through the stage counters of the test hook
_core.trig_strided (the kernels, not the tables), the elements the vectorized first
pass did not decide.

--tables: in a fresh interpreter per (function, format), the time of the first
crtrig.sin / crtrig.cos call on a one-element array (which builds that table)
minus the time of a second such call, median of 5 interpreters.
"""
import argparse
import math
import statistics
import subprocess
import sys

N = 1 << 22


def undecided():
    import ml_dtypes
    import numpy as np
    from crtrig import _core

    rng = np.random.default_rng(2026)
    names = _core._supported_target_slots()
    print("first-pass misses per 2^22 inputs (share), by target")
    for dname, dt in (("float32", np.float32), ("float16", np.float16), ("bfloat16", ml_dtypes.bfloat16)):
        unsigned = {2: np.uint16, 4: np.uint32}[np.dtype(dt).itemsize]
        patterns = rng.integers(0, np.iinfo(unsigned).max, 2 * N, dtype=unsigned, endpoint=True)
        with np.errstate(all="ignore"):
            patterns = patterns[np.isfinite(patterns.view(dt).astype(np.float32))][:N]
        largest = 65504.0 if dt is np.float16 else 1e5
        sets = {"[-pi, pi]": rng.uniform(-math.pi, math.pi, N).astype(dt),
                "[-1e5, 1e5]": rng.uniform(-largest, largest, N).astype(dt),
                "bit patterns": patterns.view(dt)}
        for sname, x in sets.items():
            for func, fname in ((0, "sin"), (1, "cos")):
                cells = []
                for target, tname in enumerate(names):
                    if tname is None:
                        continue
                    _, counts = _core.trig_strided(target, func, x)
                    missed = x.size - counts["double"] - counts["exact"]
                    cells.append("%s %d (%.1e)" % (tname, missed, missed / x.size))
                print("  %-8s %-13s %s: %s" % (dname, sname, fname, ", ".join(cells)))


CHILD = """
import time, numpy as np, ml_dtypes, crtrig
x = np.ones(1, dtype={dtype})
f = crtrig.{func}
t0 = time.perf_counter(); f(x); t1 = time.perf_counter(); f(x); t2 = time.perf_counter()
print((t1 - t0) - (t2 - t1))
"""


def tables():
    print("one-time cost of a 16-bit result table (first call minus second call, median of 5 processes)")
    for dtype in ("np.float16", "ml_dtypes.bfloat16"):
        for func in ("sin", "cos"):
            times = []
            for _ in range(5):
                out = subprocess.run([sys.executable, "-c", CHILD.format(dtype=dtype, func=func)],
                                     capture_output=True, text=True, check=True)
                times.append(float(out.stdout.strip()))
            print("  %-18s %s: %.2f ms" % (dtype, func, statistics.median(times) * 1e3))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--undecided", action="store_true", help="only the undecided shares")
    parser.add_argument("--tables", action="store_true", help="only the table cost")
    args = parser.parse_args()
    both = not (args.undecided or args.tables)
    if args.undecided or both:
        undecided()
    if args.tables or both:
        tables()
    return 0


if __name__ == "__main__":
    sys.exit(main())
