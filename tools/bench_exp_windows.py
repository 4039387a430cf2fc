"""Time crtrig's exp windows next to scipy's, in one process, as speed ratios.

    PYTHONPATH=src python tools/bench_exp_windows.py [M,M,...] [p,p,...]

For each M (default 100000) : gaussian(M, M/6), exponential(M, None, M/8) and
general_gaussian(M, p, M/6) for each p (default 1.5, 2, 3, 5, 0.5, 10), all
sym=False, float64, crtrig with its default thread count; each the best of 7 calls
(3 from M = 10^6 on), crtrig and scipy alternating per row.  Prints milliseconds
and scipy's time over crtrig's (above 1: crtrig faster).  A timing, not a test:
numbers vary with the machine's load.
"""
import sys
import time

import scipy.signal.windows as sw

from crtrig import windows as cw


def best(f, reps):
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv):
    sizes = [int(m) for m in (argv[0].split(",") if argv else ["100000"])]
    shapes = [float(p) for p in (argv[1].split(",") if len(argv) > 1 else ["1.5", "2", "3", "5", "0.5", "10"])]
    for M in sizes:
        sig = M / 6
        reps = 7 if M < 10**6 else 3
        rows = [("gaussian", lambda: cw.gaussian(M, sig, sym=False), lambda: sw.gaussian(M, sig, sym=False)),
                ("exponential", lambda: cw.exponential(M, None, M / 8, sym=False),
                 lambda: sw.exponential(M, None, M / 8, sym=False))]
        for p in shapes:
            rows.append((f"general_gaussian p={p:g}", lambda p=p: cw.general_gaussian(M, p, sig, sym=False),
                         lambda p=p: sw.general_gaussian(M, p, sig, sym=False)))
        for name, ours, theirs in rows:
            ours()
            theirs()
            t_ours, t_theirs = best(ours, reps), best(theirs, reps)
            print(f"M={M:<9d} {name:26s} crtrig {t_ours * 1e3:9.3f} ms  scipy {t_theirs * 1e3:9.3f} ms  "
                  f"{t_theirs / t_ours:5.2f}x", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
