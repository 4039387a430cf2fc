"""crtrig.windows' window next to scipy.signal.windows' in one process, float64,
median of repeats, as a ratio (scipy's time / crtrig's: above 1 is crtrig faster).

    python tools/bench_window_vs_scipy.py cosine barthann lanczos [--M 100000] [--threads 1]

With --threads 1 both are timed by the CPU time of the calling thread
(time.thread_time: less sensitive to other jobs on a shared machine); otherwise
by wall time (time.perf_counter), crtrig on that many threads (default: crtrig's
own count).  Each round times scipy, crtrig, scipy again (both scipy medians are
printed, to show the noise)."""
import argparse
import statistics
import time

import scipy.signal.windows as scipy_windows

import crtrig
from crtrig import windows


def median_time(f, clock, repeats):
    times = []
    for _ in range(repeats):
        start = clock()
        f()
        times.append(clock() - start)
    return statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="+")
    parser.add_argument("--M", type=int, default=10**5)
    parser.add_argument("--sym", action="store_true", help="sym=True (default: sym=False, periodic)")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=61)
    args = parser.parse_args(argv)
    if args.threads is not None:
        crtrig.set_num_threads(args.threads)
    clock = time.thread_time if crtrig.get_num_threads() == 1 else time.perf_counter
    for name in args.names:
        theirs = lambda: getattr(scipy_windows, name)(args.M, sym=args.sym)  # noqa: E731
        ours = lambda: getattr(windows, name)(args.M, sym=args.sym)  # noqa: E731
        a = median_time(theirs, clock, args.repeats)
        b = median_time(ours, clock, args.repeats)
        a2 = median_time(theirs, clock, args.repeats)
        print(f"{name} M={args.M} sym={args.sym} float64, {crtrig.get_num_threads()} thread(s), {clock.__name__}, "
              f"target {crtrig.simd_target()}: scipy {a * 1e6:.0f} / {a2 * 1e6:.0f} us, crtrig {b * 1e6:.0f} us: "
              f"{a / b:.2f}x / {a2 / b:.2f}x", flush=True)


if __name__ == "__main__":
    main()
