"""Exhaustive check of crtrig.windows' exp-based windows against the mpmath oracle
(issue 19): every M in [--min-M, --max-M] (default 0 .. 2^12), both modes, every
float dtype, for a set of parameters per window (tiny and huge ones included), each
window compared bit for bit with tests/oracle.py's exp_window (scipy's formulas
taken exactly, exp by mpmath with a Ziv loop).  Without a centre an element's exact
argument depends on |2n - (L - 1)| only, so the oracle is called once per such value
(max-M + 1 calls per parameter set and dtype) and the windows are compared whole.

    python tools/check_exp_windows.py                       # everything (minutes)
    python tools/check_exp_windows.py --max-M 512 --windows gaussian --dtypes float64
    python tools/check_exp_windows.py --windows kaiser --max-M 256   # kaiser: besseli per element

kaiser's elements depend on n (L - 1 - n)/(L - 1)^2, not on |2n - (L - 1)| alone: each
window's first half is computed by the oracle (mpmath's besseli, slow: use a smaller
--max-M).

Exit status 1 when any element differs (each listed)."""
import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import oracle  # noqa: E402

from crtrig import windows  # noqa: E402

DTYPES = {"float64": np.float64, "float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}
#: window -> [(crtrig's parameters, the oracle's exact ones)].
PARAMS = {
    "gaussian": [((7.0,), (Fraction(7),)), ((0.37,), (Fraction(37, 100),)), ((1000.0,), (Fraction(1000),)),
                 ((1e-3,), (Fraction(1, 1000),)), ((300.5,), (Fraction(601, 2),))],
    "general_gaussian": [((1.5, 7.0), (Fraction(3, 2), Fraction(7))), ((2.5, 200.0), (Fraction(5, 2), Fraction(200))),
                         ((20, 1000.0), (Fraction(20), Fraction(1000))), ((0.5, 0.1), (Fraction(1, 2), Fraction(1, 10)))],
    "kaiser": [((8.6,), (Fraction(43, 5),)), ((0.5,), (Fraction(1, 2),)), ((120.25,), (Fraction(481, 4),))],
    "exponential": [((None, 1.0), (None, Fraction(1))), ((None, 3.0), (None, Fraction(3))),
                    ((None, 50.5), (None, Fraction(101, 2))), ((None, 0.01), (None, Fraction(1, 100)))],
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min-M", type=int, default=0)
    parser.add_argument("--max-M", type=int, default=2**12)
    parser.add_argument("--windows", default="gaussian,general_gaussian,exponential",
                        help="comma-separated, of: " + ", ".join(PARAMS))
    parser.add_argument("--dtypes", default=",".join(DTYPES))
    args = parser.parse_args(argv)
    total = bad = 0
    start = time.perf_counter()
    for name in args.windows.split(","):
        for crtrig_args, exact in PARAMS[name]:
            for fmt in args.dtypes.split(","):
                # Without a centre every element's argument depends on |x| = |2i - (L - 1)|
                # only: the oracle's value for |x| = k is element 0 of the window of
                # L = k + 1 points (scipy's formula, exactly), computed once.
                table = None if name == "kaiser" else np.array(
                    [oracle.exp_neg_value(oracle._scipy_exp_argument(name, k + 1, 0, exact), fmt)
                     for k in range(args.max_M + 1)], dtype=np.float64)
                count = 0
                for M in range(args.min_M, args.max_M + 1):
                    for sym in (True, False):
                        got = getattr(windows, name)(M, *crtrig_args, sym=sym, dtype=DTYPES[fmt])
                        L = M if sym else M + 1
                        if name == "kaiser":
                            want = oracle.kaiser_window(M, sym, exact[0], (fmt,))[fmt]
                        else:
                            want = np.ones(M) if M <= 1 else table[np.abs(2 * np.arange(M) - (L - 1))]
                            want = (want.astype(np.float32) if fmt == "bfloat16" else want).astype(DTYPES[fmt])
                        g, w = got.view(UINT[got.dtype.itemsize]), want.view(UINT[want.dtype.itemsize])
                        diff = np.flatnonzero(g != w) if g.shape == w.shape else np.arange(max(M, 1))
                        count += M
                        for i in diff[:5]:
                            print(f"DIFF {name}{crtrig_args} M={M} sym={sym} {fmt} i={i}: crtrig {got[i]!r}, "
                                  f"oracle {want[i]!r}")
                        bad += diff.size
                total += count
                print(f"{name}{crtrig_args} {fmt}: M {args.min_M}..{args.max_M}, {count} elements checked",
                      flush=True)
    print(f"{total} elements, {bad} differ from the oracle, {time.perf_counter() - start:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
