"""Expand a pi-scaled worst-case file into the full list its header describes.

    python tools/expand_worst_cases.py sinpi-binary64.wc OUT

CORE-MATH's sinpi file (../shared/data/worst-cases/sinpi-binary64.wc) lists the
worst cases near zero for one binade only, set (b) in [2^-1022, 2^-1021), and says:
"for 1 <= e <= 968, add the inputs from set (b) multiplied by 2^e" (near zero,
sinpi(x) = pi x + O(x^3), so the worst cases are those of pi x, the same
significands in every binade up to [2^-54, 2^-53)).  This writes the file's own
entries followed by those multiples, in the same format (one hex float a line),
into OUT.1.wc, OUT.2.wc, ... of at most 400,000 inputs each (verify reads a file of
up to 16 MiB), for `crtrig verify sinpi --dtype float64 --worst-cases OUT.*.wc`,
which adds the negatives.  Other files (sin, cos, cospi) need no expansion and are refused.
"""
import re
import sys

SET_B_HEADER = "# (b) worst cases in [2^-1022,2^-1021)"
LAST_EXPONENT = 968
PART_SIZE = 400_000


def expand_sinpi(lines):
    """The file's lines, then set (b)'s inputs times 2^e for 1 <= e <= 968."""
    out, set_b, in_b = list(lines), [], False
    for line in lines:
        text = line.strip()
        if text.startswith("#"):
            in_b = text.startswith(SET_B_HEADER)
            continue
        if in_b and text:
            value = float.fromhex(text)
            if not 2.0**-1022 <= value < 2.0**-1021:
                raise ValueError(f"set (b) entry outside [2^-1022, 2^-1021): {text}")
            set_b.append(value)
    if not set_b:
        raise ValueError("no set (b) found: is this CORE-MATH's sinpi-binary64.wc?")
    out.append(f"# set (b) ({len(set_b)} inputs) times 2^e, 1 <= e <= {LAST_EXPONENT}, "
               "as the header says")
    for e in range(1, LAST_EXPONENT + 1):
        scale = 2.0**e
        out.extend((v * scale).hex() for v in set_b)  # exact: a power of 2, no overflow
    return out


def main(argv):
    if len(argv) != 2:
        print("usage: python tools/expand_worst_cases.py sinpi-binary64.wc OUT", file=sys.stderr)
        return 2
    source, target = argv
    with open(source, encoding="ascii") as f:
        lines = f.read().splitlines()
    if not re.search(r"worst cases for sinpi\b", "\n".join(lines[:3])):
        print(f"{source}: not a sinpi worst-case file (only sinpi's needs expanding)", file=sys.stderr)
        return 2
    try:
        expanded = expand_sinpi(lines)
    except ValueError as exc:
        print(f"{source}: {exc}", file=sys.stderr)
        return 2
    values = [line for line in expanded if line and not line.startswith("#")]
    for part, start in enumerate(range(0, len(values), PART_SIZE), 1):
        name = f"{target}.{part}.wc"
        with open(name, "w", encoding="ascii") as f:
            f.write("\n".join(values[start:start + PART_SIZE]) + "\n")
        print(f"{name}: {len(values[start:start + PART_SIZE])} inputs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
