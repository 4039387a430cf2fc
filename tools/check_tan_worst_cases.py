"""Check crtrig.tan and crtrig.tanpi (float64) on every published worst case against
MPFR (tests/oracle.py: gmpy2), on every SIMD target this CPU has.

    python tools/check_tan_worst_cases.py [--data DIR] [--step N]

Inputs (../shared/data/worst-cases/, expanded as the files' headers say):
  tan-binary64.wc    every value and its negative (tan is odd);
  tanpi-binary64.wc  every value x (0 < x < 1/2), 1 - x where that is a double
                     (tanpi(1 - x) = -tanpi(x)), and the binade [2^-55, 2^-54) times
                     2^e for every e with 2^-1074 <= x 2^e < 2^-26 (there tanpi(x) =
                     pi x (1 + O(x^2)), the worst cases of pi x, which scale by powers
                     of two; subnormal results are rounded on a fixed quantum, so the
                     file lists its own subnormal set, also checked); both signs.
Prints, per function and target, the inputs checked and the wrong ones (exit 1 if
any).  --step N checks every N-th input only (a quicker run).
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import oracle  # noqa: E402  (tests/oracle.py: mpmath and gmpy2 only)

import crtrig  # noqa: E402
from crtrig import _core  # noqa: E402

CODE = {"tan": 4, "tanpi": 5}


def read_values(path: Path) -> list[float]:
    values = []
    for line in path.read_text(encoding="ascii").splitlines():
        text = line.split("#")[0].strip()
        if not text or "nan" in text.lower() or "inf" in text.lower():
            continue
        values.append(abs(float.fromhex(text) if "0x" in text.lower() else float(text)))
    return values


def expand(func: str, values: list[float]) -> np.ndarray:
    out = list(values)
    if func == "tanpi":
        base = [v for v in values if 2.0 ** -55 <= v < 2.0 ** -54]
        for v in values:
            if 0 < v < 0.5 and Fraction(1) - Fraction(v) == Fraction(1.0 - v):
                out.append(1.0 - v)
        for e in range(-1020, 30):
            for v in base:
                y = math.ldexp(v, e)
                if 2.0 ** -1074 <= y < 2.0 ** -26 and y != 0.0:
                    out.append(y)
    magnitudes = np.unique(np.array(out, dtype=np.float64))
    return np.concatenate([magnitudes, -magnitudes])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data" / "worst-cases")
    parser.add_argument("--step", type=int, default=1)
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        args.data = Path("/work/shared/data/worst-cases")
    targets = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]
    names = _core._supported_target_slots()
    status = 0
    for func in ("tan", "tanpi"):
        x = expand(func, read_values(args.data / f"{func}-binary64.wc"))[:: args.step]
        x = np.ascontiguousarray(x)
        start = time.time()
        want = oracle.tan_family(func, x)
        oracle_time = time.time() - start
        for target in targets:
            start = time.time()
            with np.errstate(all="ignore"):
                got = _core.trig_with_target(target, CODE[func], x)
            elapsed = time.time() - start
            bad = np.nonzero(got.view(np.uint64) != want.view(np.uint64))[0]
            print(f"{func} float64 worst cases, target {names[target]}: {x.size} inputs, "
                  f"{bad.size} wrong ({elapsed:.2f} s; MPFR {oracle_time:.1f} s)")
            for i in bad[:10]:
                print(f"  x={float(x[i]).hex()} got {float(got[i]).hex()} want {float(want[i]).hex()}")
            if bad.size:
                status = 1
        with np.errstate(all="ignore"):
            ufunc = getattr(crtrig, func)(x)
        bad = np.nonzero(ufunc.view(np.uint64) != want.view(np.uint64))[0]
        print(f"{func} float64 worst cases, crtrig.{func}: {x.size} inputs, {bad.size} wrong")
        status |= bool(bad.size)
    return status


if __name__ == "__main__":
    sys.exit(main())
