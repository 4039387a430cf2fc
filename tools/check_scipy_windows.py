"""Longer verification of crtrig.windows' boxcar, triang, bartlett, parzen and tukey
than the test suite's (run from the repository root, with the test extra installed):

    python tools/check_scipy_windows.py

Every value for M up to 1024 and around 2**11 and 2**12 (the rational windows) and up
to 400 (tukey, alpha 1/4 and 1/2), sym and periodic, float16, bfloat16, float32,
float64, against tests/oracle.py (scipy's formulas in exact rationals or with mpmath
cosines, rounded by MPFR); sampled elements of rational windows of up to 2**24 + 1
points.  Prints one line per check and exits 1 if any value is wrong."""
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import numpy as np  # noqa: E402

import oracle  # noqa: E402
from crtrig import _rational_windows, windows  # noqa: E402

FORMATS = oracle.FLOAT_FORMATS


def _count(got, want):
    return int(np.sum(got.astype(np.float64) != want) + np.sum(np.signbit(got.astype(np.float64)) != np.signbit(want)))


def rational_exhaustive():
    total = wrong = 0
    for name in ("boxcar", "triang", "bartlett", "parzen"):
        for sym in (True, False):
            for M in list(range(0, 1025)) + [2047, 2048, 2049, 4095, 4096, 4097]:
                want = oracle.rational_window(name, M, sym)
                for fmt in FORMATS:
                    got = getattr(windows, name)(M, sym, dtype=fmt)
                    wrong += _count(got, want[fmt].astype(np.float64))
                    total += M
    return "boxcar, triang, bartlett, parzen: M 0..1024, 2047..2049, 4095..4097", total, wrong


def rational_sampled():
    rng = random.Random(19)
    total = wrong = 0
    sizes = [rng.randrange(2**12, 2**24 + 1) for _ in range(40)] + [2**24 - 1, 2**24, 2**24 + 1]
    for name in ("triang", "bartlett", "parzen"):
        for M in sizes:
            for sym in (True, False):
                index = np.array(sorted({0, 1, M - 1, M // 2, M // 4, (3 * M) // 4}
                                        | {rng.randrange(M) for _ in range(200)}), dtype=np.int64)
                for fmt in FORMATS:
                    got = _rational_windows.window_values(name, M, sym, oracle.NUMPY_DTYPES[fmt], index)
                    want = np.array([oracle.rational_window_value(name, M, sym, int(i), (fmt,))[fmt] for i in index])
                    wrong += _count(got, want)
                    total += index.size
    return "triang, bartlett, parzen: 43 sizes up to 2**24 + 1, about 206 elements each", total, wrong


def tukey_exhaustive():
    total = wrong = 0
    for alpha in (Fraction(1, 4), Fraction(1, 2)):
        for sym in (True, False):
            for M in range(0, 401):
                rows = [oracle.tukey_value(M, alpha, sym, i) for i in range(M)]
                for fmt in FORMATS:
                    want = np.array([row[fmt] for row in rows], dtype=np.float64)
                    wrong += _count(windows.tukey(M, alpha, sym, dtype=fmt), want)
                    total += M
    return "tukey alpha 1/4 and 1/2: M 0..400", total, wrong


def main():
    failed = False
    for check in (rational_exhaustive, rational_sampled, tukey_exhaustive):
        started = time.perf_counter()
        what, total, wrong = check()
        print(f"{what}, sym and periodic, {', '.join(FORMATS)}: {total:,} values, {wrong} wrong "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
        failed |= wrong != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
