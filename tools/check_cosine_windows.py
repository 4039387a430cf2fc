"""Exhaustive check of crtrig.windows' cosine sums (general_cosine's family: nuttall,
blackmanharris, flattop, and general_cosine with a few coefficient sets; cosine and
barthann, element by element from scipy's own formulas) against
tests/oracle.py (scipy's formula with mpmath cosines, exact points from Ramanujan sums,
rounded by MPFR), run from the repository root with the test extra installed:

    python tools/check_cosine_windows.py                 # every M up to 2**12 (long: hours)
    python tools/check_cosine_windows.py --max-m 300     # a subset
    python tools/check_cosine_windows.py --windows flattop --min-m 4000 --max-m 4097

For each denominator D in range, the oracle evaluates each folded phase once (all four
formats) and both windows that use D are compared: sym=True with M = D + 1 and
sym=False with M = D, in float16, bfloat16, float32 and float64, every element.
Prints one line per window and exits 1 if any value is wrong."""
import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import numpy as np  # noqa: E402

import oracle  # noqa: E402
from crtrig import windows  # noqa: E402

FORMATS = oracle.FLOAT_FORMATS

WINDOWS = {
    "nuttall": ("0.3635819", "0.4891775", "0.1365995", "0.0106411"),
    "blackmanharris": ("0.35875", "0.48829", "0.14128", "0.01168"),
    "flattop": ("0.21557895", "0.41663158", "0.277263158", "0.083578947", "0.006947368"),
    # general_cosine: signs that cancel, and rational values where D' = 5 and 8
    "general_cosine[-1/3,2,-3/4,1/8]": ("-1/3", "2", "-3/4", "1/8"),
    "general_cosine[1/2,1/4,-1/4]": ("1/2", "1/4", "-1/4"),
    "general_cosine[1+2^-24,1/4,0,1/4]": (str(1 + Fraction(1, 2**24)), "1/4", "0", "1/4"),
}


def crtrig_window(name, M, sym, fmt):
    if name.startswith("general_cosine"):
        return windows.general_cosine(M, list(WINDOWS[name]), sym, dtype=oracle.NUMPY_DTYPES[fmt])
    return getattr(windows, name)(M, sym, dtype=oracle.NUMPY_DTYPES[fmt])


LISTED = {"cosine": oracle.scipy_cosine_value, "barthann": oracle.scipy_barthann_value}


def check_listed(name, min_m, max_m):
    """cosine, barthann: every element of every M, from the oracle of scipy's formula
    (symmetric about the middle: each mirror pair evaluated once)."""
    total = wrong = 0
    for M in range(max(min_m, 2), max_m + 1):
        for sym in (True, False):
            L = M if sym else M + 1
            rows = {}
            for i in range(M):
                j = min(i, L - 1 - i)
                if j not in rows:
                    rows[j] = LISTED[name](M, sym, j)
            for fmt in FORMATS:
                got = getattr(windows, name)(M, sym, dtype=oracle.NUMPY_DTYPES[fmt]).astype(np.float64)
                want = np.array([rows[min(i, L - 1 - i)][fmt] for i in range(M)])
                bad = (got != want) | (np.signbit(got) != np.signbit(want))
                wrong += int(bad.sum())
                total += M
                if bad.any():
                    n = int(np.nonzero(bad)[0][0])
                    print(f"  WRONG {name} M={M} sym={sym} {fmt} n={n}: {got[n]!r} want {want[n]!r}", flush=True)
    return total, wrong


def check(name, min_m, max_m):
    if name in LISTED:
        return check_listed(name, min_m, max_m)
    coefficients = [Fraction(x) for x in WINDOWS[name]]
    total = wrong = 0
    for D in range(max(1, min_m - 1), max_m + 1):
        rows = [oracle.scipy_cosine_sum_value(coefficients, D + 1, True, r) for r in range(D // 2 + 1)]
        for M, sym in ((D + 1, True), (D, False)):
            if not min_m <= M <= max_m:
                continue
            for fmt in FORMATS:
                got = crtrig_window(name, M, sym, fmt).astype(np.float64)
                want = np.array([rows[min(n, D - n)][fmt] for n in range(M)])
                bad = (got != want) | (np.signbit(got) != np.signbit(want))
                wrong += int(bad.sum())
                total += M
                if bad.any():
                    n = int(np.nonzero(bad)[0][0])
                    print(f"  WRONG {name} M={M} sym={sym} {fmt} n={n}: {got[n]!r} want {want[n]!r}", flush=True)
    return total, wrong


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-m", type=int, default=2)
    parser.add_argument("--max-m", type=int, default=2**12)
    parser.add_argument("--windows", nargs="*", default=list(WINDOWS) + list(LISTED),
                        choices=list(WINDOWS) + list(LISTED))
    args = parser.parse_args(argv)
    failed = False
    for name in args.windows:
        start = time.perf_counter()
        total, wrong = check(name, args.min_m, args.max_m)
        failed |= wrong > 0
        print(f"{name}: M {args.min_m}..{args.max_m}, sym and periodic, {len(FORMATS)} formats: "
              f"{total} values, {wrong} wrong ({time.perf_counter() - start:.0f} s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
