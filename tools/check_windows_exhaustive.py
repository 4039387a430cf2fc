"""Every element of crtrig.windows' cosine, sinc, rational, tukey and kaiser windows for
every M up to --max-M (default 2^12), both modes, every float dtype, on each SIMD
target, against tests/fast_oracle.py (MPFR at 160 bits with a derived bound per
window, undecided elements from tests/oracle.py; nothing of crtrig's).  Run from the
repository root with the test extra installed:

    python tools/check_windows_exhaustive.py                          # everything (about 30 s a window)
    python tools/check_windows_exhaustive.py --windows hann,kaiser --max-M 512
    python tools/check_windows_exhaustive.py --target all             # each target in a child process

The oracle evaluates each symmetric length L once (the first half; the rest mirrored);
the window of M points is its first M elements with L = M (sym=True) or M + 1
(periodic, scipy's extension), compared bit for bit (zeros' signs included) for
2 <= M <= --max-M (M = 0 and 1 are the tests' business).  Prints one line per window
and target and exits 1 if any value is wrong (each of the first few listed)."""
import argparse
import os
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

import fast_oracle  # noqa: E402

DTYPES = {"float64": np.float64, "float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
NUTTALL = ("0.3635819", "0.4891775", "0.1365995", "0.0106411")
BLACKMANHARRIS = ("0.35875", "0.48829", "0.14128", "0.01168")
FLATTOP = ("0.21557895", "0.41663158", "0.277263158", "0.083578947", "0.006947368")
#: name -> (the oracle's family, crtrig's call: (M, sym, dtype) -> array).
WINDOWS = {
    "hann": (lambda: fast_oracle.cosine_sum_family([Fraction(1, 2), Fraction(1, 2)]),
             lambda w, M, sym, dt: w.hann(M, sym, dtype=dt)),
    "hamming": (lambda: fast_oracle.cosine_sum_family([Fraction(54, 100), Fraction(46, 100)]),
                lambda w, M, sym, dt: w.hamming(M, sym, dtype=dt)),
    "blackman": (lambda: fast_oracle.cosine_sum_family([Fraction(42, 100), Fraction(1, 2), Fraction(8, 100)]),
                 lambda w, M, sym, dt: w.blackman(M, sym, dtype=dt)),
    "general_hamming(25/46)": (lambda: fast_oracle.cosine_sum_family([Fraction(25, 46), Fraction(21, 46)]),
                               lambda w, M, sym, dt: w.general_hamming(M, Fraction(25, 46), sym, dtype=dt)),
    "nuttall": (lambda: fast_oracle.cosine_sum_family(list(NUTTALL)),
                lambda w, M, sym, dt: w.nuttall(M, sym, dtype=dt)),
    "blackmanharris": (lambda: fast_oracle.cosine_sum_family(list(BLACKMANHARRIS)),
                       lambda w, M, sym, dt: w.blackmanharris(M, sym, dtype=dt)),
    "flattop": (lambda: fast_oracle.cosine_sum_family(list(FLATTOP)),
                lambda w, M, sym, dt: w.flattop(M, sym, dtype=dt)),
    "cosine": (fast_oracle.cosine_family, lambda w, M, sym, dt: w.cosine(M, sym, dtype=dt)),
    "barthann": (fast_oracle.barthann_family, lambda w, M, sym, dt: w.barthann(M, sym, dtype=dt)),
    "bohman": (fast_oracle.bohman_family, lambda w, M, sym, dt: w.bohman(M, sym, dtype=dt)),
    "lanczos": (fast_oracle.lanczos_family, lambda w, M, sym, dt: w.lanczos(M, sym=sym, dtype=dt)),
    "tukey(0.3)": (lambda: fast_oracle.tukey_family(Fraction(3, 10)),
                   lambda w, M, sym, dt: w.tukey(M, 0.3, sym, dtype=dt)),
    "parzen": (lambda: fast_oracle.rational_family("parzen"), lambda w, M, sym, dt: w.parzen(M, sym, dtype=dt)),
    "bartlett": (lambda: fast_oracle.rational_family("bartlett"),
                 lambda w, M, sym, dt: w.bartlett(M, sym, dtype=dt)),
    "triang": (lambda: fast_oracle.rational_family("triang"), lambda w, M, sym, dt: w.triang(M, sym, dtype=dt)),
    "kaiser(8.6)": (lambda: fast_oracle.kaiser_family(Fraction(43, 5)),
                    lambda w, M, sym, dt: w.kaiser(M, 8.6, sym, dtype=dt)),
}
LISTED = 5


def _bits(a):
    a = np.ascontiguousarray(a)
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def expected(half, M, L, dt):
    """The first M of the symmetric window of L points from its first half, in dtype dt."""
    full = np.concatenate([half, half[: L // 2][::-1]])
    values = full[:M]
    if dt is ml_dtypes.bfloat16:  # exact: each value is a bfloat16 already
        return values.astype(np.float32).astype(dt)
    return values.astype(dt)


def check(name, max_m, dtypes, windows_module, oracle_cache=None):
    """(elements checked, wrong) for window `name`, every 2 <= M <= max_m."""
    family_of, call = WINDOWS[name]
    halves, slow = fast_oracle.half_windows(family_of(), 2, max_m + 1)
    total = wrong = 0
    for M in range(2, max_m + 1):
        for sym in (True, False):
            L = M if sym else M + 1
            for fmt in dtypes:
                dt = DTYPES[fmt]
                want = expected(halves[L][fmt], M, L, dt)
                got = np.asarray(call(windows_module, M, sym, dt))
                bad = _bits(got) != _bits(want)
                total += M
                if bad.any():
                    for n in np.flatnonzero(bad)[: max(0, LISTED - wrong)]:
                        print(f"  WRONG {name} M={M} sym={sym} {fmt} n={n}: {got[n]!r} want {want[n]!r}",
                              flush=True)
                    wrong += int(bad.sum())
    return total, wrong, slow


def run_here(names, max_m, dtypes):
    import crtrig
    from crtrig import windows
    status = 0
    for name in names:
        start = time.perf_counter()
        total, wrong, slow = check(name, max_m, dtypes, windows)
        print(f"{name} target {crtrig.simd_target()}: M 2..{max_m}, both modes, {','.join(dtypes)}: "
              f"{total} elements, {wrong} wrong ({slow} from the slow oracle; {time.perf_counter() - start:.1f} s)",
              flush=True)
        status |= wrong != 0
    return status


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-M", type=int, default=2**12)
    parser.add_argument("--windows", default=",".join(WINDOWS), help="comma-separated, of: " + ", ".join(WINDOWS))
    parser.add_argument("--dtypes", default=",".join(DTYPES))
    parser.add_argument("--target", default=None, help="baseline, avx2, avx512 or all (default: crtrig's own)")
    args = parser.parse_args(argv)
    names = args.windows.split(",")
    dtypes = args.dtypes.split(",")
    unknown = [n for n in names if n not in WINDOWS] + [d for d in dtypes if d not in DTYPES]
    if unknown or args.max_M < 2:
        parser.error(f"unknown window or dtype: {', '.join(unknown)}" if unknown else "--max-M must be >= 2")
    if args.target is None:
        return run_here(names, args.max_M, dtypes)
    import crtrig
    targets = crtrig.simd_targets() if args.target == "all" else (args.target,)
    status = 0
    for target in targets:  # each in a child: the target is chosen at import
        env = dict(os.environ, CRTRIG_TARGET=target)
        cmd = [sys.executable, __file__, "--max-M", str(args.max_M), "--windows", args.windows,
               "--dtypes", args.dtypes]
        status |= subprocess.run(cmd, env=env).returncode != 0
    return status


if __name__ == "__main__":
    sys.exit(main())
