"""Time SLEEF (u10, u35), glibc's libmvec and glibc's scalar libm on crtrig bench's inputs.

    python tools/native_peers.py --json native.json [--trig-size N] [--rounds R]
                                 [--min-sample-ms MS] [--cc CC]
    python -m crtrig bench --native-peers native.json

The peers crtrig's bench cannot call from Python are timed by a C harness,
tools/native_peers.c, built here (cc -O2 -ffp-contract=off, -lmvec -lm, and
-lsleef when SLEEF's library is found: Debian's libsleef-dev).  Its
inputs are the bench's own: the float32 and float64 arrays of
``crtrig.bench.trig_inputs`` drawn from the same seeded generator in the same
order, for each of the bench's three input sets.  Each peer writes into a
preallocated array, at the widest vector ISA this CPU runs (AVX-512F, else AVX2).

Accuracy: every output of every peer is compared with crtrig's (crtrig.sin and
crtrig.cos are correctly rounded: `crtrig verify`, tests/test_sincos*.py), and
crtrig's own outputs are checked against crtrig.reference (exact, independent of
the C core) on the bench's check subset first.  The JSON gives, per row and
peer, ns per element (median over rounds, with quartiles), the number and share
of results that are not correctly rounded, and the largest distance in ULPs.

``--json`` is required.  The bench refuses a file made for another size.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import crtrig
from crtrig import bench, reference

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "native_peers.c")
DTYPES = ("float32", "float64")
FORMAT = 1  # "crtrig_native_peers" in the JSON: the version of its layout


def build(cc: str, workdir: str) -> tuple[str, bool]:
    """The harness binary and whether it has SLEEF (tried first, then without)."""
    binary = os.path.join(workdir, "native_peers")
    base = [cc, "-O2", "-ffp-contract=off", "-std=c11", SOURCE, "-o", binary]
    for sleef in (True, False):
        command = base + (["-DHAVE_SLEEF", "-lsleef"] if sleef else []) + ["-lmvec", "-lm"]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode == 0:
            return binary, sleef
        last = result.stderr.strip().splitlines()[-1:] or ["(no output)"]
    raise SystemExit(f"native_peers: cannot build {SOURCE} with {cc}: {last[0]}")


def ulp_distance(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|got - want| in ULPs of their type, from the bits (NaN against NaN: 0; NaN
    against a number: a huge distance)."""
    signed = {4: np.int32, 8: np.int64}[want.dtype.itemsize]
    magnitude = np.int64((1 << (8 * want.dtype.itemsize - 1)) - 1)

    def ordered(a):
        bits = a.view(signed).astype(np.int64)
        return np.where(bits < 0, -(bits & magnitude), bits)  # sign-magnitude -> ordered

    both_nan = np.isnan(got) & np.isnan(want)
    one_nan = np.isnan(got) ^ np.isnan(want)
    distance = np.abs(ordered(got) - ordered(want)).astype(np.float64)
    distance[both_nan] = 0
    distance[one_nan] = np.inf
    return distance


def run(args) -> dict:
    rng = np.random.default_rng(bench.SEED)
    inputs = {}
    for dtype in bench.TRIG_DTYPES:  # the bench's order: the same draws from the same generator
        sets = bench.trig_inputs(dtype, args.trig_size, rng)
        if dtype in DTYPES:
            inputs[dtype] = sets
    rows = []
    workdir = tempfile.mkdtemp(prefix="crtrig-native-peers-")
    try:
        binary, has_sleef = build(args.cc, workdir)
        for dtype in DTYPES:
            for label in bench.INPUT_SETS:
                x = inputs[dtype][label]
                path = os.path.join(workdir, "input.bin")
                x.tofile(path)
                for func in bench.TRIG_FUNCTIONS:
                    exact = getattr(crtrig, func)(x)
                    index = bench.check_indices(x.size)
                    checked, wrong, first = bench._compare_bits(exact[index], reference.trig(func, x[index]),
                                                                 lambda i: f"{func}({x[index][i]!r})")
                    if wrong:
                        raise SystemExit(f"native_peers: crtrig itself is wrong: {first}")
                    print(f"native_peers: {func} {dtype} {label}", file=sys.stderr, flush=True)
                    result = subprocess.run([binary, func, dtype, str(x.size), path, workdir,
                                             str(args.min_sample_ms), str(args.rounds)],
                                            capture_output=True, text=True)
                    if result.returncode != 0:
                        raise SystemExit(f"native_peers: the harness failed: {result.stderr.strip()}")
                    peers = {}
                    for line in result.stdout.splitlines():
                        entry = json.loads(line)
                        got = np.fromfile(os.path.join(workdir, entry["id"] + ".bin"), dtype=x.dtype)
                        distance = ulp_distance(got, exact)
                        unsigned = got.view(bench._UNSIGNED[got.dtype.itemsize])
                        differ = (unsigned != exact.view(unsigned.dtype)) & ~(np.isnan(got) & np.isnan(exact))
                        not_cr = int(np.count_nonzero(differ))  # -0 for +0 counts too
                        entry.update(not_cr=not_cr, not_cr_share=not_cr / x.size,
                                     max_ulp=float(distance.max()) if distance.size else 0.0)
                        peers[entry.pop("id")] = entry
                    rows.append({"function": func, "dtype": dtype, "input": label, "size": x.size,
                                 "crtrig_checked": checked, "peers": peers})
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return {"crtrig_native_peers": FORMAT, "trig_size": args.trig_size, "seed": bench.SEED,
            "rounds": args.rounds, "min_sample_ms": args.min_sample_ms,
            "sleef": has_sleef, "cc": args.cc, "cpu": crtrig._config.cpu_model(),
            "libc": " ".join(platform.libc_ver()), "crtrig": crtrig.__version__,
            "simd_target": crtrig.simd_target(), "rows": rows}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", required=True, metavar="FILE")
    parser.add_argument("--trig-size", type=int, default=bench.DEFAULT.trig_size, metavar="N")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--min-sample-ms", type=float, default=bench.DEFAULT.min_sample_s * 1000)
    parser.add_argument("--cc", default=os.environ.get("CC", "cc"))
    args = parser.parse_args(argv)
    if not 1 <= args.trig_size <= bench.MAX_TRIG_SIZE or not 1 <= args.rounds <= 1000 \
            or not 0 < args.min_sample_ms <= 10_000:
        parser.error("--trig-size, --rounds or --min-sample-ms out of range")
    data = run(args)
    with open(args.json, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"native_peers: wrote {args.json} (SLEEF {'found' if data['sleef'] else 'not found'})",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
