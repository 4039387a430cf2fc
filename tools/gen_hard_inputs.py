"""Print src/crtrig/conformance/_hard_inputs.py: the hardest-to-round sin/cos/tan inputs per float type.

    python tools/gen_hard_inputs.py --worst-cases /work/shared/data/worst-cases > src/crtrig/conformance/_hard_inputs.py

Hardness of an input x for a function f and a format F is the distance, in
units of F's last place at f(x), from f(x) to the nearest rounding boundary of
round-to-nearest (a midpoint between two neighbouring values of F):
``d = |frac(|f(x)| / q) - 1/2|`` with q the quantum of f(x)'s binade (subnormal
quantum below the normal range).  The smaller d, the more bits after the round
bit agree ("k identical bits": k = floor(-log2 d) - 1), the more precision an
implementation needs to round correctly.  Only midpoints matter for
round-to-nearest; inputs whose image lies near a value of F are easy.

f(x) is computed with MPFR (gmpy2) at 400 bits, which is ample: the hardest
binary64 case below has fewer than 70 identical bits, so its d is still
resolved to more than 300 bits.

* float16 and bfloat16: every finite input (65,536 bit patterns), both signs.
* float32: the literature cases of tests/test_sincos.py (HARD_FLOAT32), kept
  as they are (an exhaustive float32 search is a 2^32 job; see
  ``python -m crtrig verify --margin-log2``).
* tan: the same way, from tan-binary64.wc; its float32 list is the float32
  values nearest to multiples of pi/2 and the extremes (HARD_FLOAT32["tan"]);
  float16 leaves out 177.5, whose tangent overflows (no rounding boundary there).
* float64: the published worst cases of V. Lefevre's testlibm data for sin and
  cos (binary64, mostly on [0, pi], with per-binade worst cases up to 2^1024;
  43 to 59 identical bits, as collected by the CORE-MATH project: the
  ``sin-binary64.wc`` and ``cos-binary64.wc`` files), ranked by d for
  round-to-nearest; plus 0x1.6ac5b262ca1ffp+849 for sin (LLVM
  libc issue #220934: the worst case of argument reduction and a 68-bit
  hard-to-round sine), which lies outside [0, pi].

Needs gmpy2.  Not part of the package; its output is.
"""

from __future__ import annotations

import argparse
import math
import os
import sys

import gmpy2
import numpy as np

PRECISION = 400
FORMATS = {  # name: (precision, emin)
    "float16": (11, -14),
    "bfloat16": (8, -126),
    "float32": (24, -126),
    "float64": (53, -1022),
}
COUNT_16_BIT = 16
COUNT_FLOAT64 = 50

# tests/test_sincos.py, HARD_FLOAT32 (literature cases and the inputs where
# rounding a correctly rounded double again is wrong).
HARD_FLOAT32 = {
    "sin": ["0x1.33333p+13", "0x1.d4a60ap+3", "0x1.921fb6p+0", "0x1.921fb6p+1", "0x1.921fb6p+2",
            "0x1.2d97c8p+3", "0x1.fffffep+127", "0x1p-149", "0x1p-126", "0x1.fffffcp-127", "0x1.5798eep-27",  # float32(1e-8)
            "0x1.6a09e6p-1", "0x1p+24", "0x1.000002p+24", "0x1.fffffep+23"],
    "cos": ["0x1.3170fp+63", "0x1.2b9622p+67", "0x1.921fb6p+0", "0x1.921fb6p+1", "0x1.2d97c8p+2",
            "0x1.fffffep+127", "0x1p-149", "0x1.6a09e6p-1", "0x1p+24", "0x1.000002p+24", "0x1.3a92a4p-12"],  # float32(3e-4)
}
HARD_FLOAT32["tan"] = ["0x1.921fb6p+0", "0x1.921fb4p+0", "0x1.921fb6p+1", "0x1.2d97c8p+2", "0x1.2d97c8p+3",
                       "0x1.fffffep+127", "0x1p-149", "0x1.fffffcp-127", "0x1p-126", "0x1p+24", "0x1.000002p+24",
                       "0x1.fffffep+23", "0x1p-12", "0x1.5798eep-27"]
EXTRA_FLOAT64 = {"sin": ["0x1.6ac5b262ca1ffp+849"], "cos": [], "tan": []}
FUNCS = ("sin", "cos", "tan")
_MPFR = {"sin": gmpy2.sin, "cos": gmpy2.cos, "tan": gmpy2.tan}


def hardness(func: str, x: float, fmt: str) -> float:
    """d = distance of func(x) from the nearest midpoint of fmt, in ulps (0..1/2)."""
    precision, emin = FORMATS[fmt]
    with gmpy2.context(gmpy2.context(), precision=PRECISION):
        y = abs(_MPFR[func](gmpy2.mpfr(x)))
        if y == 0:
            return 0.5
        exponent = int(gmpy2.floor(gmpy2.log2(y)))
        quantum_exponent = max(exponent, emin) - (precision - 1)
        scaled = y * gmpy2.exp2(-quantum_exponent)
        fraction = scaled - gmpy2.floor(scaled)
        return float(abs(fraction - gmpy2.mpfr(0.5)))


def short_hex(x: float) -> str:
    """float.hex() without the trailing zeros of the fraction: 0x1.714p-5."""
    mantissa, exponent = x.hex().split("p")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}p{exponent}"


def identical_bits(d: float) -> int:
    return math.floor(-math.log2(d)) - 1 if d > 0 else 999


def all_16_bit(fmt: str) -> list[float]:
    import ml_dtypes

    dtype = np.float16 if fmt == "float16" else ml_dtypes.bfloat16
    with np.errstate(invalid="ignore"):
        values = np.arange(1 << 16, dtype=np.uint16).view(dtype).astype(np.float64)
    return [v for v in values.tolist() if math.isfinite(v) and v > 0]


def read_worst_cases(path: str) -> list[float]:
    """Finite non-zero inputs of a .wc file (hex floats; '#' starts a comment;
    the special values it also lists, such as +inf or -nan, are left out), as
    magnitudes."""
    inputs = []
    with open(path) as handle:
        for line in handle:
            text = line.split("#", 1)[0].strip()
            if not text.lstrip("+-").startswith("0x"):
                continue
            value = abs(float.fromhex(text))
            if math.isfinite(value) and value != 0:
                inputs.append(value)
    return inputs


def ranked(func: str, inputs: list[float], fmt: str, count: int) -> list[tuple[float, float]]:
    scored = sorted((hardness(func, x, fmt), x) for x in set(inputs))
    return [(x, d) for d, x in scored[:count]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worst-cases", required=True, metavar="DIR",
                        help="directory holding sin-, cos- and tan-binary64.wc")
    args = parser.parse_args()

    table: dict[str, dict[str, list[tuple[str, int]]]] = {func: {} for func in FUNCS}
    for func in FUNCS:
        for fmt in ("float16", "bfloat16"):
            inputs = all_16_bit(fmt)
            if func == "tan" and fmt == "float16":
                inputs = [x for x in inputs if abs(math.tan(x)) < 65504]  # 177.5 overflows
            chosen = ranked(func, inputs, fmt, COUNT_16_BIT)
            table[func][fmt] = [(short_hex(x), identical_bits(d)) for x, d in sorted(chosen)]
        table[func]["float32"] = [
            (short_hex(float.fromhex(text)), identical_bits(hardness(func, float.fromhex(text), "float32")))
            for text in HARD_FLOAT32[func]
        ]
        wc = read_worst_cases(os.path.join(args.worst_cases, f"{func}-binary64.wc"))
        chosen = ranked(func, wc, "float64", COUNT_FLOAT64)
        extra = [(float.fromhex(t), hardness(func, float.fromhex(t), "float64")) for t in EXTRA_FLOAT64[func]]
        table[func]["float64"] = [(short_hex(x), identical_bits(d)) for x, d in sorted(chosen) + extra]

    out = sys.stdout
    out.write('"""The hardest-to-round sin/cos/tan inputs crtrig ships, per float type.\n\n'
              "Generated by tools/gen_hard_inputs.py (see its docstring for the method and\n"
              "the sources); do not edit by hand.  Each entry is (input as a hex float,\n"
              "identical bits after the round bit of the exact result in that type).\n"
              "All are positive; sin and tan are odd and cos even, so their negatives are\n"
              "as hard.\n\n"
              "* float16, bfloat16: the 16 inputs of each type whose exact sin (cos) lies\n"
              "  closest to a rounding midpoint, from an exhaustive MPFR search.\n"
              "* float32: the literature cases of crtrig's tests (test_sincos.HARD_FLOAT32;\n"
              "  for tan the float32 values nearest to multiples of pi/2 and the extremes),\n"
              "  with their hardness (some are hard for other reasons: extremes, subnormals,\n"
              "  reduction near multiples of pi/2).\n"
              "* float64: the 50 hardest for round-to-nearest of V. Lefevre's published sin,\n"
              "  cos and tan\n"
              "  worst cases (testlibm data, 2020-11-27, as collected by the CORE-MATH\n"
              "  project), plus for sin 0x1.6ac5b262ca1ffp+849 (LLVM libc issue #220934:\n"
              "  the worst case of argument reduction; its sine lies near 1.0, a float,\n"
              "  so it is hard for directed rounding, not for round-to-nearest).\n"
              '"""\n\n')
    out.write("HARD_INPUTS: dict[str, dict[str, tuple[tuple[str, int], ...]]] = {\n")
    for func in FUNCS:
        out.write(f'    "{func}": {{\n')
        for fmt in ("float16", "bfloat16", "float32", "float64"):
            out.write(f'        "{fmt}": (\n')
            for text, bits in table[func][fmt]:
                out.write(f'            ("{text}", {bits}),\n')
            out.write("        ),\n")
        out.write("    },\n")
    out.write("}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
