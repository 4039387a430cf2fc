"""Speed of crtrig's thread pool: one thread against several.

    python tools/bench_threads.py [--threads N] [--repeat R]
        float32 sin on [-pi, pi] at 2^20 and 2^24 elements and a float32 Hann
        window at N = 2^20 and 2^24, each call allocating its output (as
        crtrig.sin(x) and crtrig.hann_window(n) do): ns per element with 1 and
        N threads (default: crtrig's default count) and the speedup.
    python tools/bench_threads.py --sweep
        The same calls at 2^9 .. 2^20 elements with the parallel threshold set
        to 0 (a test hook): where splitting starts to pay, which is how the
        threshold (65536 elements) was chosen.

Each number is the best of R runs; the 1-thread and N-thread runs alternate,
so that other work on the machine affects both alike.  Results are the same
bits whatever the thread count (tests/test_threads.py); this only times.
"""
import argparse
import time

import numpy as np

import crtrig
from crtrig import _core


def best_pair(calls, counts, repeat):
    """{count: best seconds} for calls() run with each thread count, alternating."""
    best = {count: float("inf") for count in counts}
    for _ in range(repeat):
        for count in counts:
            crtrig.set_num_threads(count)
            start = time.perf_counter()
            calls()
            best[count] = min(best[count], time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=crtrig.get_num_threads())
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--sweep", action="store_true")
    args = parser.parse_args()
    counts = (1, args.threads)
    rng = np.random.default_rng(0)
    print(f"crtrig {crtrig.__version__}, SIMD target {_core.SIMD_TARGET}, threads 1 vs {args.threads}, "
          f"{_core.thread_config()['detail'] or _core.thread_config()['chosen_by']}")
    if args.sweep:
        _core._set_parallel_threshold(0)
        print(f"{'elements':>9} {'sin 1 us':>9} {'sin N us':>9} {'speedup':>7}   "
              f"{'hann 1 us':>9} {'hann N us':>9} {'speedup':>7}")
        for e in range(9, 21):
            n = 1 << e
            x = rng.uniform(-np.pi, np.pi, n).astype(np.float32)
            repeat = max(args.repeat, 30)
            s = best_pair(lambda: crtrig.sin(x), counts, repeat)
            w = best_pair(lambda: crtrig.hann_window(n), counts, repeat)
            print(f"{'2^%d' % e:>9} {s[1] * 1e6:9.1f} {s[args.threads] * 1e6:9.1f} {s[1] / s[args.threads]:7.2f}   "
                  f"{w[1] * 1e6:9.1f} {w[args.threads] * 1e6:9.1f} {w[1] / w[args.threads]:7.2f}")
        return
    print(f"{'work':<34} {'1 thread ns/elt':>15} {f'{args.threads} threads ns/elt':>17} {'speedup':>7}")
    for e in (20, 24):
        n = 1 << e
        x = rng.uniform(-np.pi, np.pi, n).astype(np.float32)
        for name, calls in ((f"float32 sin [-pi, pi], 2^{e}", lambda: crtrig.sin(x)),
                            (f"float32 hann_window, N = 2^{e}", lambda: crtrig.hann_window(n))):
            t = best_pair(calls, counts, args.repeat)
            print(f"{name:<34} {t[1] / n * 1e9:15.2f} {t[args.threads] / n * 1e9:17.2f} "
                  f"{t[1] / t[args.threads]:7.2f}")


if __name__ == "__main__":
    main()
