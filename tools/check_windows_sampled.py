"""Sampled elements of every window of tools/check_windows_exhaustive.py's WINDOWS at
large M (default 10^5, 2^20 + 3 and 2^24), both modes (where crtrig accepts them), every
float dtype, on each SIMD target and thread count, against tests/oracle.py's
single-element functions (the `slow` oracle of each tests/fast_oracle.py family,
exp_neg_value for the exp windows; nothing of crtrig's), and the mirror property of the
whole window.  Run from the repository root with the test extra installed:

    python tools/check_windows_sampled.py                               # every window, 2000 indices each
    python tools/check_windows_sampled.py --windows hann,taylor --sizes 100000 --samples 300
    python tools/check_windows_sampled.py --target all --threads 1,2    # each target in a child process

For each window, M and mode, --samples indices n in [0, M) are drawn (seeded by --seed,
the window's name, M and the mode; 0, 1, M//2 and M - 1 always included); the oracle
evaluates element min(n, L - 1 - n) of the symmetric window of L = M (sym) or M + 1
(periodic: scipy's extension) points once, into all four formats, and every dtype's
window is compared with it bit for bit (zeros' signs included).  The mirror property is
checked on every element: w[n] = w[M - 1 - n] (sym) and w[n] = w[M - n], 1 <= n < M
(periodic), bit for bit.  kaiser_bessel_derived needs an even M (an odd size is taken
+1) and sym=True; its oracle is fast_oracle.kbd_half (the whole first half in MPFR with
its bound: slow at large M, so it is checked at the sizes below --kbd-max, default
2^21).  exponential with a centre is sym=False only, with no mirror.  With --target all
the oracle runs once (first target's child) and the others read its values from a
cache.  Prints one line per window, target and thread counts; exit status 1 if any
value or mirror is wrong."""
import argparse
import importlib.util
import os
import pickle
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import fast_oracle  # noqa: E402
import oracle  # noqa: E402

_spec = importlib.util.spec_from_file_location("check_windows_exhaustive", ROOT / "tools" / "check_windows_exhaustive.py")
exhaustive = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(exhaustive)
WINDOWS = exhaustive.WINDOWS
DTYPES = exhaustive.DTYPES
SIZES = (10**5, 2**20 + 3, 2**24)
LISTED = 5


def _indices(name, M, sym, count, seed):
    rng = random.Random(f"{seed}:{name}:{M}:{sym}")
    picked = {0, 1, M // 2, M - 1} | {rng.randrange(M) for _ in range(count)}
    return np.array(sorted(picked), dtype=np.int64)


def _element_oracle(source):
    """(L, i) -> {fmt: float} for element i <= (L - 1)/2 of the symmetric window of L
    points, tests/oracle.py's functions; None for kbd (fast_oracle.kbd_half)."""
    if isinstance(source, tuple):  # a fast_oracle family: its slow per-element oracle
        return source[1]
    if isinstance(source, exhaustive.Exp):
        return lambda L, i: {fmt: oracle.exp_neg_value(oracle._scipy_exp_argument(source.name, L, i, source.params),
                                                       fmt) for fmt in fast_oracle.FORMATS}
    if isinstance(source, exhaustive.ExpCentre):  # independent of L
        return lambda L, i: {fmt: oracle.exp_neg_value(abs(i - source.center) / source.tau, fmt)
                             for fmt in fast_oracle.FORMATS}
    return None


def _kbd_values(beta, M, idx):
    """{n: {fmt: value}} of kaiser_bessel_derived(M, beta) at idx, from
    fast_oracle.kbd_half (its bound) and fast_oracle.decide; an undecided element
    raises (tests/oracle.py's kbd_window is whole-window: too slow here)."""
    D = M // 2
    values, errors = fast_oracle.kbd_half(D, beta, {})
    want = [min(int(n), M - 1 - int(n)) for n in idx]
    out, undecided = fast_oracle.decide([values[k] for k in want], [errors[k] for k in want])
    if undecided.any():
        raise ArithmeticError(f"kbd oracle: {int(undecided.sum())} undecided elements at M = {M}")
    return {int(n): {fmt: float(out[fmt][j]) for fmt in fast_oracle.FORMATS} for j, n in enumerate(idx)}


def oracle_values(name, M, sym, idx):
    """{n: {fmt: value}} for the indices idx of window `name` (M points, mode sym)."""
    source = WINDOWS[name][0]()
    if isinstance(source, exhaustive.KBD):
        return _kbd_values(source.beta, M, idx)
    element = _element_oracle(source)
    L = M if sym else M + 1
    if isinstance(source, exhaustive.ExpCentre):
        return {int(n): element(L, int(n)) for n in idx}
    result = {}
    for n in idx:
        k = min(int(n), L - 1 - int(n))
        result[int(n)] = element(L, k)
    return result


def cases(name, sizes, kbd_max):
    source = WINDOWS[name][0]()
    modes = getattr(source, "modes", (True, False))
    for M in sizes:
        if isinstance(source, exhaustive.KBD):
            M += M % 2
            if M > kbd_max:
                continue
        for sym in modes:
            yield M, sym, not isinstance(source, exhaustive.ExpCentre)


def _cached_oracle(name, M, sym, idx, cache_dir):
    if cache_dir is None:
        return oracle_values(name, M, sym, idx), False
    path = Path(cache_dir) / (re.sub(r"[^A-Za-z0-9_.=-]", "_", name) + f"-{M}-{sym}-{len(idx)}.pickle")
    if path.exists():
        with open(path, "rb") as f:
            return pickle.load(f), True
    values = oracle_values(name, M, sym, idx)
    with open(path.with_suffix(".tmp"), "wb") as f:
        pickle.dump(values, f)
    path.with_suffix(".tmp").rename(path)
    return values, False


def _same(got, want):
    return got == want and np.signbit(got) == np.signbit(want)


def check(name, sizes, dtypes, samples, seed, threads, cache_dir, kbd_max):
    """(sampled elements, wrong, mirrored elements, broken mirrors, sizes run)."""
    import crtrig
    from crtrig import windows
    call = WINDOWS[name][1]
    sampled = wrong = mirrored = broken = 0
    run = []
    for M, sym, has_mirror in cases(name, sizes, kbd_max):
        run.append((M, sym))
        idx = _indices(name, M, sym, samples, seed)
        want, _ = _cached_oracle(name, M, sym, idx, cache_dir)
        for count in threads:
            if count is not None:
                crtrig.set_num_threads(count)
            for fmt in dtypes:
                got = np.asarray(call(windows, M, sym, DTYPES[fmt]))
                assert got.shape == (M,), (name, M, got.shape)
                values = got[idx].astype(np.float64)
                for n, v in zip(idx, values):
                    w = want[int(n)][fmt]
                    sampled += 1
                    if not _same(float(v), w):
                        if wrong < LISTED:
                            print(f"  WRONG {name} M={M} sym={sym} {fmt} n={n} threads={count}: {v!r} want {w!r}",
                                  flush=True)
                        wrong += 1
                if has_mirror:
                    bits = exhaustive._bits(got)
                    ends = bits if sym else bits[1:]
                    bad = ends != ends[::-1]
                    mirrored += ends.size
                    if bad.any():
                        print(f"  MIRROR {name} M={M} sym={sym} {fmt} threads={count}: {int(bad.sum())} elements, "
                              f"first n={int(np.flatnonzero(bad)[0]) + (0 if sym else 1)}", flush=True)
                        broken += int(bad.sum())
                del got
    return sampled, wrong, mirrored, broken, run


def run_here(names, sizes, dtypes, samples, seed, threads, cache_dir, kbd_max):
    import crtrig
    status = 0
    for name in names:
        start = time.perf_counter()
        sampled, wrong, mirrored, broken, run = check(name, sizes, dtypes, samples, seed, threads, cache_dir, kbd_max)
        shown = "" if threads == (None,) else f", threads {','.join(map(str, threads))}"
        Ms = ",".join(sorted({str(M) for M, _ in run}, key=int))
        modes = "both modes" if len({s for _, s in run}) == 2 else f"sym={run[0][1]}"
        print(f"{name} target {crtrig.simd_target()}{shown}: M {Ms}, {modes}, {','.join(dtypes)}: "
              f"{sampled} sampled elements, {wrong} wrong; mirror {mirrored} elements, {broken} broken "
              f"({time.perf_counter() - start:.1f} s)", flush=True)
        status |= (wrong + broken) != 0
    return status


def _ints(text):
    values = tuple(int(x) for x in text.split(","))
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("positive integers, comma-separated")
    return values


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=_ints, default=SIZES)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--windows", default=",".join(WINDOWS), help="comma-separated, of: " + ", ".join(WINDOWS))
    parser.add_argument("--dtypes", default=",".join(DTYPES))
    parser.add_argument("--target", default=None, help="baseline, avx2, avx512 or all (default: crtrig's own)")
    parser.add_argument("--threads", type=_ints, default=None,
                        help="comma-separated thread counts (crtrig.set_num_threads), each checked in turn")
    parser.add_argument("--kbd-max", type=int, default=2**21,
                        help="kaiser_bessel_derived only at sizes up to this (its oracle is the whole half)")
    parser.add_argument("--oracle-cache", default=None, help="a directory for the oracle's values")
    args = parser.parse_args(argv)
    names = args.windows.split(",")
    dtypes = args.dtypes.split(",")
    unknown = [n for n in names if n not in WINDOWS] + [d for d in dtypes if d not in DTYPES]
    if unknown or min(args.sizes) < 2 or args.samples < 0:
        parser.error(f"unknown window or dtype: {', '.join(unknown)}" if unknown else "sizes >= 2, samples >= 0")
    threads = args.threads or (None,)
    if args.target is None:
        return run_here(names, args.sizes, dtypes, args.samples, args.seed, threads, args.oracle_cache,
                        args.kbd_max)
    import crtrig
    targets = crtrig.simd_targets() if args.target == "all" else (args.target,)
    status = 0
    with tempfile.TemporaryDirectory(prefix="crtrig-sampled-") as scratch:
        cache = args.oracle_cache or (scratch if len(targets) > 1 else None)
        for name in names:
            for target in targets:  # each in a child: the target is chosen at import
                env = dict(os.environ, CRTRIG_TARGET=target)
                cmd = [sys.executable, __file__, "--sizes", ",".join(map(str, args.sizes)), "--samples",
                       str(args.samples), "--seed", str(args.seed), "--windows", name, "--dtypes", args.dtypes,
                       "--kbd-max", str(args.kbd_max)]
                if args.threads:
                    cmd += ["--threads", ",".join(map(str, args.threads))]
                if cache:
                    cmd += ["--oracle-cache", cache]
                status |= subprocess.run(cmd, env=env).returncode != 0
    return status


if __name__ == "__main__":
    sys.exit(main())
