"""Every element of every window of crtrig.windows (cosine sums, general_cosine, cosine,
sinc, rational, tukey, kaiser, kaiser_bessel_derived, the exp windows, taylor; the WINDOWS
table below) for every M up to --max-M (default 2^12), both modes (where crtrig accepts
them), every float dtype, on each SIMD target and thread count, against
tests/fast_oracle.py (MPFR at 160 bits with a derived bound per window, undecided
elements from tests/oracle.py; the exp windows from tests/oracle.py's exp_neg_value;
nothing of crtrig's).  Run from the repository root with the test extra installed:

    python tools/check_windows_exhaustive.py                          # everything (20 s - 2.5 min a window)
    python tools/check_windows_exhaustive.py --windows hann,kaiser(8.6) --max-M 512
    python tools/check_windows_exhaustive.py --target all             # each target in a child process
    python tools/check_windows_exhaustive.py --threads 1,2 --parallel-threshold 256

The oracle evaluates each symmetric length L once (the first half; the rest mirrored);
the window of M points is its first M elements with L = M (sym=True) or M + 1
(periodic, scipy's extension), compared bit for bit (zeros' signs included) for
2 <= M <= --max-M (M = 0 and 1 are the tests' business).  kaiser_bessel_derived is
checked for even M and sym=True only, exponential with a centre for sym=False only (what
crtrig and scipy accept).  --threads checks every case once per thread count
(crtrig.set_num_threads); the pool only splits calls of at least the parallel threshold
(65,536 elements by default), so a run to 2^12 lowers it with --parallel-threshold (a
test hook) to split.  With --target all the oracle's windows are computed once (by the
first target's child) and read from a cache by the others.  Prints one line per window
and target and exits 1 if any value is wrong (each of the first few listed)."""
import argparse
import os
import pickle
import re
import subprocess
import tempfile
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
#: general_cosine's coefficients as the caller gives them (floats; crtrig reads a float as
#: its shortest decimal, the oracle the same decimal as an exact rational).
GC3 = (0.5, 0.3, 0.2)
SRS_FLATTOP = (1.0, 1.93, 1.29, 0.388, 0.028)  # Stanford Research's flat top (not normalised)


def _dec(values):
    return [Fraction(repr(x)) for x in values]


class Exp:
    """gaussian, general_gaussian, exponential (default centre): fast_oracle.exp_half_windows."""

    def __init__(self, name, *params):
        self.name, self.params = name, tuple(None if p is None else Fraction(p) for p in params)


class ExpCentre:
    """exponential with a given centre (sym=False only, as scipy and crtrig require):
    w[n] = exp(-|n - center|/tau) for n = 0 .. M-1, whatever M (tests/oracle.py's
    exp_neg_value, once per n and format)."""
    modes = (False,)

    def __init__(self, center, tau):
        self.center, self.tau = Fraction(center), Fraction(tau)


class KBD:
    """kaiser_bessel_derived(M, beta): sym=True and even M only (crtrig, as scipy, refuses
    the rest); fast_oracle.kbd_half_windows."""
    modes = (True,)

    def __init__(self, beta):
        self.beta = Fraction(beta)


#: name -> (the oracle's family (or an Exp/ExpCentre/KBD source), crtrig's call: (M, sym, dtype) -> array).
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
    "general_cosine(0.5:0.3:0.2)": (lambda: fast_oracle.cosine_sum_family(_dec(GC3)),
                                    lambda w, M, sym, dt: w.general_cosine(M, list(GC3), sym, dtype=dt)),
    "general_cosine(srs_flattop)": (lambda: fast_oracle.cosine_sum_family(_dec(SRS_FLATTOP)),
                                    lambda w, M, sym, dt: w.general_cosine(M, list(SRS_FLATTOP), sym, dtype=dt)),
    "cosine": (fast_oracle.cosine_family, lambda w, M, sym, dt: w.cosine(M, sym, dtype=dt)),
    "barthann": (fast_oracle.barthann_family, lambda w, M, sym, dt: w.barthann(M, sym, dtype=dt)),
    "bohman": (fast_oracle.bohman_family, lambda w, M, sym, dt: w.bohman(M, sym, dtype=dt)),
    "lanczos": (fast_oracle.lanczos_family, lambda w, M, sym, dt: w.lanczos(M, sym=sym, dtype=dt)),
    "tukey(0.3)": (lambda: fast_oracle.tukey_family(Fraction(3, 10)),
                   lambda w, M, sym, dt: w.tukey(M, 0.3, sym, dtype=dt)),
    "tukey(0.25)": (lambda: fast_oracle.tukey_family(Fraction(1, 4)),
                    lambda w, M, sym, dt: w.tukey(M, 0.25, sym, dtype=dt)),
    # scipy: alpha <= 0 is ones, alpha >= 1 is hann.
    "tukey(0)": (lambda: fast_oracle.rational_family("boxcar"), lambda w, M, sym, dt: w.tukey(M, 0, sym, dtype=dt)),
    "tukey(1)": (lambda: fast_oracle.cosine_sum_family([Fraction(1, 2), Fraction(1, 2)]),
                 lambda w, M, sym, dt: w.tukey(M, 1, sym, dtype=dt)),
    "boxcar": (lambda: fast_oracle.rational_family("boxcar"), lambda w, M, sym, dt: w.boxcar(M, sym, dtype=dt)),
    "parzen": (lambda: fast_oracle.rational_family("parzen"), lambda w, M, sym, dt: w.parzen(M, sym, dtype=dt)),
    "bartlett": (lambda: fast_oracle.rational_family("bartlett"),
                 lambda w, M, sym, dt: w.bartlett(M, sym, dtype=dt)),
    "triang": (lambda: fast_oracle.rational_family("triang"), lambda w, M, sym, dt: w.triang(M, sym, dtype=dt)),
    "kaiser(8.6)": (lambda: fast_oracle.kaiser_family(Fraction(43, 5)),
                    lambda w, M, sym, dt: w.kaiser(M, 8.6, sym, dtype=dt)),
    "kaiser(0.5)": (lambda: fast_oracle.kaiser_family(Fraction(1, 2)),
                    lambda w, M, sym, dt: w.kaiser(M, 0.5, sym, dtype=dt)),
    "kaiser(14)": (lambda: fast_oracle.kaiser_family(Fraction(14)),
                   lambda w, M, sym, dt: w.kaiser(M, 14, sym, dtype=dt)),
    "kaiser_bessel_derived(8.6)": (lambda: KBD("8.6"),
                                   lambda w, M, sym, dt: w.kaiser_bessel_derived(M, 8.6, sym=sym, dtype=dt)),
    "gaussian(1)": (lambda: Exp("gaussian", 1), lambda w, M, sym, dt: w.gaussian(M, 1.0, sym, dtype=dt)),
    "gaussian(7.3)": (lambda: Exp("gaussian", "7.3"), lambda w, M, sym, dt: w.gaussian(M, 7.3, sym, dtype=dt)),
    "gaussian(300)": (lambda: Exp("gaussian", 300), lambda w, M, sym, dt: w.gaussian(M, 300.0, sym, dtype=dt)),
    "general_gaussian(1.5:7)": (lambda: Exp("general_gaussian", "1.5", 7),
                                lambda w, M, sym, dt: w.general_gaussian(M, 1.5, 7.0, sym, dtype=dt)),
    "general_gaussian(1:7.3)": (lambda: Exp("general_gaussian", 1, "7.3"),
                                lambda w, M, sym, dt: w.general_gaussian(M, 1, 7.3, sym, dtype=dt)),
    "general_gaussian(3:100)": (lambda: Exp("general_gaussian", 3, 100),
                                lambda w, M, sym, dt: w.general_gaussian(M, 3, 100.0, sym, dtype=dt)),
    "exponential": (lambda: Exp("exponential", None, 1),
                    lambda w, M, sym, dt: w.exponential(M, sym=sym, dtype=dt)),
    "exponential(tau=3)": (lambda: Exp("exponential", None, 3),
                           lambda w, M, sym, dt: w.exponential(M, None, 3.0, sym, dtype=dt)),
    "exponential(center=10.3:tau=3)": (lambda: ExpCentre("10.3", 3),
                                       lambda w, M, sym, dt: w.exponential(M, 10.3, 3.0, sym, dtype=dt)),
    "taylor": (lambda: fast_oracle.taylor_family(4, 30, True), lambda w, M, sym, dt: w.taylor(M, sym=sym, dtype=dt)),
    "taylor(8:50:norm=False)": (lambda: fast_oracle.taylor_family(8, 50, False),
                                lambda w, M, sym, dt: w.taylor(M, 8, 50, False, sym, dtype=dt)),
}
LISTED = 5


def _bits(a):
    a = np.ascontiguousarray(a)
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def _cast(values, dt):
    if dt is ml_dtypes.bfloat16:  # exact: each value is a bfloat16 already
        return values.astype(np.float32).astype(dt)
    return values.astype(dt)


def expected(half, M, L, dt):
    """The first M of the symmetric window of L points from its first half, in dtype dt."""
    full = np.concatenate([half, half[: L // 2][::-1]])
    return _cast(full[:M], dt)


class Expected:
    """The oracle's windows for every M to check: .cases(max_m) gives (M, sym), .want(M,
    sym, fmt, dt) the array in dt; .slow counts the elements from the slow oracle.  Holds
    data only (picklable: --oracle-cache)."""

    def __init__(self, source, max_m):
        self.modes = (True, False)
        self.even_only = False
        self.kind = "halves"
        if isinstance(source, tuple):  # a fast_oracle family: half windows of each L
            self.halves, self.slow = fast_oracle.half_windows(source, 2, max_m + 1)
        elif isinstance(source, Exp):
            self.halves, self.slow = fast_oracle.exp_half_windows(source.name, source.params, 2, max_m + 1)
        elif isinstance(source, KBD):  # M = 2D: the first half is D values, mirrored
            self.kind, self.modes, self.even_only = "kbd", KBD.modes, True
            self.halves, self.slow = fast_oracle.kbd_half_windows(source.beta, 1, max_m // 2)
        elif isinstance(source, ExpCentre):
            import oracle
            self.kind, self.modes = "line", ExpCentre.modes
            self.halves = {fmt: np.array([oracle.exp_neg_value(abs(n - source.center) / source.tau, fmt)
                                          for n in range(max_m)]) for fmt in fast_oracle.FORMATS}
            self.slow = 0
        else:
            raise TypeError(source)

    def cases(self, max_m):
        for M in range(2, max_m + 1):
            if self.even_only and M % 2:
                continue
            for sym in self.modes:
                yield M, sym

    def want(self, M, sym, fmt, dt):
        if self.kind == "kbd":
            half = self.halves[M // 2][fmt]
            return _cast(np.concatenate([half, half[::-1]]), dt)
        if self.kind == "line":
            return _cast(self.halves[fmt][:M], dt)
        L = M if sym else M + 1
        return expected(self.halves[L][fmt], M, L, dt)


def _oracle(name, max_m, cache_dir):
    """Expected(...) for window `name`, from cache_dir (a pickle per window and max_m,
    written by the first target's run, read by the next) when given."""
    family_of = WINDOWS[name][0]
    if cache_dir is None:
        return Expected(family_of(), max_m), False
    path = Path(cache_dir) / (re.sub(r"[^A-Za-z0-9_.=-]", "_", name) + f"-{max_m}.pickle")
    if path.exists():
        with open(path, "rb") as f:
            return pickle.load(f), True
    result = Expected(family_of(), max_m)
    path.parent.mkdir(parents=True, exist_ok=True)  # a --oracle-cache directory not made yet
    with open(path.with_suffix(".tmp"), "wb") as f:
        pickle.dump(result, f, protocol=pickle.HIGHEST_PROTOCOL)
    path.with_suffix(".tmp").rename(path)
    return result, False


def check(name, max_m, dtypes, windows_module, oracle_cache=None, threads=(None,)):
    """(elements checked, wrong, slow, oracle from the cache) for window `name`, every
    2 <= M <= max_m (each case once per thread count in threads; None: leave crtrig's
    count alone)."""
    call = WINDOWS[name][1]
    oracle, cached = _oracle(name, max_m, oracle_cache)
    total = wrong = 0
    import crtrig
    for count in threads:
        if count is not None:
            crtrig.set_num_threads(count)
        for M, sym in oracle.cases(max_m):
            for fmt in dtypes:
                dt = DTYPES[fmt]
                want = oracle.want(M, sym, fmt, dt)
                got = np.asarray(call(windows_module, M, sym, dt))
                total += M
                if got.shape != want.shape or got.dtype != want.dtype:
                    print(f"  WRONG {name} M={M} sym={sym} {fmt} threads={count}: shape {got.shape} dtype "
                          f"{got.dtype}", flush=True)
                    wrong += M
                    continue
                bad = _bits(got) != _bits(want)
                if bad.any():
                    for n in np.flatnonzero(bad)[: max(0, LISTED - wrong)]:
                        print(f"  WRONG {name} M={M} sym={sym} {fmt} n={n} threads={count}: {got[n]!r} "
                              f"want {want[n]!r}", flush=True)
                    wrong += int(bad.sum())
    modes = {(True, False): "both modes", (True,): "sym=True", (False,): "sym=False"}[oracle.modes]
    return total, wrong, oracle.slow, cached, modes + (" (even M)" if oracle.even_only else "")


def run_here(names, max_m, dtypes, threads=(None,), cache_dir=None):
    import crtrig
    from crtrig import windows
    status = 0
    for name in names:
        start = time.perf_counter()
        total, wrong, slow, cached, modes = check(name, max_m, dtypes, windows, cache_dir, threads)
        shown = "" if threads == (None,) else f", threads {','.join(map(str, threads))}"
        print(f"{name} target {crtrig.simd_target()}{shown}: M 2..{max_m}, {modes}, {','.join(dtypes)}: "
              f"{total} elements, {wrong} wrong ({slow} from the slow oracle{', cached' if cached else ''}; "
              f"{time.perf_counter() - start:.1f} s)", flush=True)
        status |= wrong != 0
    return status


def _counts(text):
    counts = tuple(int(x) for x in text.split(","))
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("thread counts are integers >= 1")
    return counts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-M", type=int, default=2**12)
    parser.add_argument("--windows", default=",".join(WINDOWS), help="comma-separated, of: " + ", ".join(WINDOWS))
    parser.add_argument("--dtypes", default=",".join(DTYPES))
    parser.add_argument("--target", default=None, help="baseline, avx2, avx512 or all (default: crtrig's own)")
    parser.add_argument("--threads", type=_counts, default=None,
                        help="comma-separated thread counts (crtrig.set_num_threads), each checked in turn "
                             "(default: crtrig's own count)")
    parser.add_argument("--parallel-threshold", type=int, default=None,
                        help="crtrig's test hook: calls of at least this many elements use the pool "
                             "(default: crtrig's 65536, above every M of a run to 2^12)")
    parser.add_argument("--oracle-cache", default=None,
                        help="a directory for the oracle's windows (a pickle per window); with --target all a "
                             "temporary one unless given, so the oracle runs once for all targets")
    args = parser.parse_args(argv)
    names = args.windows.split(",")
    dtypes = args.dtypes.split(",")
    unknown = [n for n in names if n not in WINDOWS] + [d for d in dtypes if d not in DTYPES]
    if unknown or args.max_M < 2:
        parser.error(f"unknown window or dtype: {', '.join(unknown)}" if unknown else "--max-M must be >= 2")
    if args.target is None:
        if args.parallel_threshold is not None:
            from crtrig import _core
            _core._set_parallel_threshold(args.parallel_threshold)
        return run_here(names, args.max_M, dtypes, args.threads or (None,), args.oracle_cache)
    import crtrig
    targets = crtrig.simd_targets() if args.target == "all" else (args.target,)
    status = 0
    with tempfile.TemporaryDirectory(prefix="crtrig-oracle-") as scratch:
        # One window at a time, each target in a child (the target is chosen at import);
        # the oracle's windows go through a cache directory: the first target computes
        # them, the others read them; a temporary cache is emptied after each window.
        cache = args.oracle_cache or (scratch if len(targets) > 1 else None)
        for name in names:
            for target in targets:
                env = dict(os.environ, CRTRIG_TARGET=target)
                cmd = [sys.executable, __file__, "--max-M", str(args.max_M), "--windows", name,
                       "--dtypes", args.dtypes]
                if args.threads:
                    cmd += ["--threads", ",".join(map(str, args.threads))]
                if args.parallel_threshold is not None:
                    cmd += ["--parallel-threshold", str(args.parallel_threshold)]
                if cache:
                    cmd += ["--oracle-cache", cache]
                status |= subprocess.run(cmd, env=env).returncode != 0
            if cache == scratch:
                for path in Path(scratch).iterdir():
                    path.unlink()
    return status


if __name__ == "__main__":
    sys.exit(main())
