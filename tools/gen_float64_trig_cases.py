"""Write the float64 cases of cases/sin.json and cases/cos.json.

    python tools/gen_float64_trig_cases.py            # rewrites the float64 cases in place
    python tools/gen_float64_trig_cases.py --check    # exit 1 if the files differ from what it writes

The float64 cases (names ending in _f64) are appended after the other cases of
each file, replacing any float64 cases already there; the other cases are left
as they are, byte for byte.  Inputs come from:

* the worst-case files tests/data/{sin,cos}-binary64.wc (CORE-MATH's collection
  of V. Lefevre's testlibm worst cases and bacsel searches), read by
  ``crtrig.verify.read_worst_case_files``; the 50 hardest of them ranked by
  tools/gen_hard_inputs.py (``crtrig.conformance._hard_inputs``);
* the doubles nearest to a multiple of pi/2 per binade, from the lattice search
  of tests/float64_inputs.py (checked there against brute force, continued
  fractions and CORE-MATH's list);
* fixed lists (special values, tiny thresholds, huge arguments) and numpy
  random draws with fixed seeds.

Every expected value is filled by ``crtrig.vectors.fill_text`` (the writer of
``crtrig cases --fill``): the exact result rounded once to float64
(``crtrig.reference``, independent of the C core), written as the shortest
decimal that reads back to it; tolerance 0.  Hard inputs are written as hex
floats (as in their sources), the others as shortest decimals.

Needs mpmath (tests/float64_inputs.py).  Not part of the package; its output is.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))

import float64_inputs  # noqa: E402  (tests/, for the pi/2 search)
from crtrig import reference, vectors, verify  # noqa: E402
from crtrig.conformance import _hard_inputs  # noqa: E402

FUNCS = {"sin": "ai.onnx.Sin", "cos": "ai.onnx.Cos"}
FIRST_NAME = "special_values_f64"
DATA_NOTE = ("Data: the exact value rounded once to float64 (crtrig.reference, exact, independent of "
             "the C core; checked against MPFR in tests/test_reference_trig.py), written as the "
             "shortest decimal that reads back to it (crtrig cases --fill); tolerance 0.")
GENERATOR = "tools/gen_float64_trig_cases.py"
F64 = reference.FLOAT_FORMATS["float64"]


def both_signs(values):
    return [v for x in values for v in (x, -x)]


def decimal_tokens(values) -> vectors._Raw:
    return vectors.values_array_token(np.array(values, dtype=np.float64))


def hex_tokens(values) -> vectors._Raw:
    return vectors._Raw("[" + ", ".join(f'"{float(v).hex()}"' for v in values) + "]")


def case(name, tokens, count, shape, source, notes, allow_nan=False):
    output = {"dtype": "float64", "shape": shape, "tolerance": 0}
    if allow_nan:
        output["allowNaN"] = True
    assert math.prod(shape) == count, name
    return {
        "name": name,
        "provenance": {"source": source, "notes": notes + " " + DATA_NOTE},
        "inputs": {"x": {"dtype": "float64", "shape": shape, "data": {"kind": "values", "values": tokens}}},
        "outputs": {"y": output},
    }


def worst_case_file(func) -> Path:
    return ROOT / "tests" / "data" / f"{func}-binary64.wc"


def nearest_per_binade() -> dict[int, float]:
    """The double nearest to a multiple of pi/2 in each binade 2^e, e = 0..1023."""
    best: dict[int, tuple[float, float]] = {}
    for x, _, log2_r in float64_inputs.nearest_doubles():
        e = math.frexp(x)[1] - 1
        if e not in best or log2_r < best[e][0]:
            best[e] = (log2_r, x)
    return {e: x for e, (_, x) in best.items()}


def float64_cases(func: str) -> list[dict]:
    rng = np.random.default_rng(64 + (func == "cos"))
    out = []

    specials = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, float64_inputs.SMALLEST_SUBNORMAL,
                -float64_inputs.SMALLEST_SUBNORMAL, float64_inputs.LARGEST_SUBNORMAL,
                -float64_inputs.LARGEST_SUBNORMAL, float64_inputs.SMALLEST_NORMAL, -float64_inputs.SMALLEST_NORMAL,
                float64_inputs.LARGEST, -float64_inputs.LARGEST]
    out.append(case(FIRST_NAME, decimal_tokens(specials), len(specials), [len(specials)],
                    "special values",
                    "+-0 (sin keeps the sign, cos gives 1), +-inf and NaN (NaN out), the smallest and "
                    "largest subnormals, the smallest normal, the largest finite value, +-1.",
                    allow_nan=True))

    sin_below, cos_below = float64_inputs.tiny_thresholds()
    tiny = [math.nextafter(sin_below, 0.0), sin_below, math.nextafter(cos_below, 0.0), cos_below,
            2.0 ** -26, 2.0 ** -27, 2.0 ** -28, 1.4901161193847656e-08, 1e-8, 1e-20, 1e-100, 1e-300]
    tiny = both_signs(tiny)
    out.append(case("tiny_inputs_f64", hex_tokens(tiny), len(tiny), [len(tiny)],
                    "the thresholds of the shortcuts sin x = x and cos x = 1, derived in "
                    "tests/float64_inputs.py (tiny_thresholds) and src/core/sincos.c",
                    f"Around the thresholds: RN(sin x) = x exactly below {sin_below.hex()} and "
                    f"RN(cos x) = 1 below {cos_below.hex()}, each with its predecessor; powers of two "
                    "and small decimals; both signs."))

    subnormals = both_signs([math.ldexp(int(m), -1074) for m in rng.integers(1, 1 << 52, 12)])
    out.append(case("subnormal_inputs_f64", decimal_tokens(subnormals), len(subnormals), [len(subnormals)],
                    "numpy default_rng random significands (generator seed in " + GENERATOR + ")",
                    "Random subnormal inputs, both signs: sin x rounds to x (a subnormal result, "
                    "no underflow), cos x to 1."))

    hard = both_signs([float.fromhex(text) for text, _ in _hard_inputs.HARD_INPUTS[func]["float64"]])
    out.append(case("hard_cases_f64", hex_tokens(hard), len(hard), [len(hard)],
                    f"crtrig.conformance._hard_inputs (tools/gen_hard_inputs.py): the 50 hardest for round-to-nearest "
                    f"of V. Lefevre's testlibm worst cases for {func} as collected by CORE-MATH "
                    f"(tests/data/{func}-binary64.wc), ranked with MPFR"
                    + (", plus 0x1.6ac5b262ca1ffp+849 (LLVM libc issue #220934)" if func == "sin" else ""),
                    f"The exact {func} of each agrees with a float64 rounding midpoint to 51-59 bits after "
                    "the round bit; both signs."))

    bits = verify.read_worst_case_files([str(worst_case_file(func))], F64)
    values = bits.view(np.float64)
    pool = np.unique(np.abs(values[np.isfinite(values) & (values != 0)]))
    picked = np.sort(rng.choice(pool, 64, replace=False))
    sample = both_signs(picked.tolist())
    out.append(case("worst_cases_sample_f64", hex_tokens(sample), len(sample), [len(sample)],
                    f"tests/data/{func}-binary64.wc (CORE-MATH's src/binary64/{func}/{func}.wc: V. Lefevre's "
                    "testlibm worst cases on [0, pi] and bacsel searches of the binades up to 2^1024), "
                    "64 of its inputs drawn at random (numpy default_rng, seed in " + GENERATOR + ")",
                    "Hard-to-round inputs of every part of the file, both signs."))

    nearest = nearest_per_binade()
    binades = [0, 1, 2, 3, 4, 5, 7, 10, 16, 26, 31, 52, 53, 64, 100, 200, 300, 500, 700, 849, 1000, 1023]
    near = []
    for e in binades:
        x = nearest[e]
        near += [math.nextafter(x, 0.0), x, math.nextafter(x, math.inf)]
    near = [v for v in both_signs(near) if math.isfinite(v)]
    out.append(case("near_multiples_of_half_pi_f64", hex_tokens(near), len(near), [len(near)],
                    "the lattice search of tests/float64_inputs.py (nearest_doubles): in each binade "
                    "the double nearest to a multiple of pi/2",
                    f"Binades 2^e for e in {binades}: the double nearest to k pi/2 and its neighbours one "
                    "ulp away, both signs. 0x1.6ac5b262ca1ffp+849 (e = 849) is the nearest over all "
                    "doubles (x - k pi/2 about 2^-60.9): results down to about 2^-61 and their exact "
                    "range reduction."))

    multiples = []
    for k in range(1, 13):
        x = k * math.pi / 2  # a double near k pi/2
        multiples += [math.nextafter(x, 0.0), x, math.nextafter(x, math.inf)]
    out.append(case("multiples_of_half_pi_f64", hex_tokens(multiples), len(multiples), [len(multiples)],
                    "k pi/2 for k = 1..12 in double arithmetic (math.pi k / 2), with both neighbours",
                    "Inputs next to small multiples of pi/2: tiny sines or cosines near the zeros."))

    huge = both_signs([2.0 ** 17, 2.0 ** 53, 2.0 ** 53 + 2, 1e16, 1e22, 2.0 ** 64, 1e100, 2.0 ** 500, 1e300,
                       2.0 ** 1000, 2.0 ** 1023, float64_inputs.LARGEST])
    out.append(case("huge_arguments_f64", decimal_tokens(huge), len(huge), [len(huge)],
                    "powers of two and ten up to the largest double",
                    "Large arguments (exact range reduction with up to 1200 bits of 2/pi), both signs."))

    patterns = rng.integers(0, 1 << 64, 200, dtype=np.uint64, endpoint=False).view(np.float64)
    patterns = patterns[np.isfinite(patterns)][:64]
    out.append(case("random_bit_patterns_f64", decimal_tokens(patterns), 64, [64],
                    "numpy default_rng random bit patterns of finite doubles (seed in " + GENERATOR + ")",
                    "64 random finite bit patterns: every exponent equally likely, so mostly huge or "
                    "tiny magnitudes."))

    ranges = np.concatenate([rng.uniform(-math.pi, math.pi, 32), rng.uniform(-1e5, 1e5, 32),
                             rng.uniform(-1e22, 1e22, 32)])
    out.append(case("random_ranges_f64", decimal_tokens(ranges), 96, [3, 32],
                    "numpy default_rng uniform draws (seed in " + GENERATOR + ")",
                    "Shape [3, 32]: row 0 uniform in [-pi, pi], row 1 in [-1e5, 1e5], row 2 in "
                    "[-1e22, 1e22]."))

    cube = rng.uniform(-2 * math.pi, 2 * math.pi, 24)
    out.append(case("shape_2x3x4_f64", decimal_tokens(cube), 24, [2, 3, 4],
                    "numpy default_rng uniform draws (seed in " + GENERATOR + ")",
                    "A 3-d input in [-2 pi, 2 pi]."))
    out.append(case("shape_1x5x1_f64", decimal_tokens([0.5, -1.5, 2.5, -3.5, 4.5]), 5, [1, 5, 1],
                    "fixed values", "Unit dimensions."))
    out.append(case("shape_scalar_f64", decimal_tokens([0.75]), 1, [], "a fixed value", "A 0-d input."))
    empty = vectors._Raw("[]")
    out.append(case("shape_empty_f64", empty, 0, [0], "none", "An empty input."))
    out.append(case("shape_2x0x3_f64", empty, 0, [2, 0, 3], "none", "An empty 3-d input."))
    return out


WIDTH = 100  # the case files' line width (long strings excepted)


def _compact(node) -> str:
    """One-line JSON text of a node (numbers verbatim)."""
    if isinstance(node, dict):
        return "{" + ", ".join(f"{vectors._json_string(k)}: {_compact(v)}" for k, v in node.items()) + "}"
    if isinstance(node, list):
        return "[" + ", ".join(_compact(v) for v in node) + "]"
    return vectors._scalar(node)


def _lines(prefix: str, node, level: int) -> list[str]:
    """The layout of the case files: a node on one line when it fits in WIDTH,
    else one member per line, and arrays of scalars packed into lines of WIDTH."""
    pad = "  " * level
    one_line = pad + prefix + _compact(node)
    if len(one_line) <= WIDTH or not isinstance(node, (dict, list)) or not node:
        return [one_line]
    if isinstance(node, dict):
        members = [(vectors._json_string(k) + ": ", v) for k, v in node.items()]
    else:
        members = [("", v) for v in node]
    lines = [pad + prefix + ("{" if isinstance(node, dict) else "[")]
    if isinstance(node, list) and all(vectors._is_flat(v) and not isinstance(v, list) for v in node):
        tokens = [vectors._scalar(v) for v in node]
        line = ""
        for index, token in enumerate(tokens):
            piece = token + ("," if index < len(tokens) - 1 else "")
            if line and len(pad) + 2 + len(line) + 1 + len(piece) > WIDTH:
                lines.append(pad + "  " + line)
                line = ""
            line = f"{line} {piece}" if line else piece
        lines.append(pad + "  " + line)
    else:
        for index, (member_prefix, value) in enumerate(members):
            member = _lines(member_prefix, value, level + 1)
            if index < len(members) - 1:
                member[-1] += ","
            lines += member
    lines.append(pad + ("}" if isinstance(node, dict) else "]"))
    return lines


def filled_cases_text(func: str) -> str:
    """The float64 cases, filled, as the text of array members at the indentation
    of a case file's cases (level 2), joined by ",\n"."""
    skeleton = vectors.dump_json({"op": FUNCS[func], "cases": float64_cases(func)})
    filled, _ = vectors.fill_text(skeleton, f"<float64 {func} cases>")
    return ",\n".join("\n".join(_lines("", raw_case, 2))
                      for raw_case in vectors.parse_keeping_numbers(filled)["cases"])


def rewritten(path: Path, func: str) -> str:
    text = path.read_text(encoding="utf-8")
    ending = "\n  ]\n}\n"
    marker = '\n    {\n      "name": "' + FIRST_NAME + '"'
    start = text.find(marker)
    if start >= 0:  # drop the float64 cases written before (they come last)
        head = text[:start].rstrip()
        assert head.endswith(","), "unexpected layout before the float64 cases"
        head = head[:-1]
    else:
        assert text.endswith(ending), f"{path}: unexpected layout at the end"
        head = text[: -len(ending)]
    return head + ",\n" + filled_cases_text(func) + ending


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if a file would change")
    args = parser.parse_args(argv)
    status = 0
    for func in FUNCS:
        path = ROOT / "cases" / f"{func}.json"
        text = rewritten(path, func)
        if args.check:
            if text != path.read_text(encoding="utf-8"):
                print(f"{path}: differs from what {GENERATOR} writes")
                status = 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
