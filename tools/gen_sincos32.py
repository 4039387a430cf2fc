"""The polynomial, the reduction table, their proven error bounds and the facts about
float32 arguments behind the float32, bfloat16 and float16 sin/cos first passes
(src/core/sincos32_core.h, src/core/sincos32_tables.c).  Needs mpmath.

    python tools/gen_sincos32.py --poly      # Remez: SC32_POLY (about 20 s), then the checks
    python tools/gen_sincos32.py --table     # src/core/sincos32_tables.c
    python tools/gen_sincos32.py --check     # the checks, for the coefficients in the header

What it computes:

1. SC32_POLY[0..6]: the minimax polynomial Q(z) = sum c_k z^k of degree 6 for the
   relative error of P(z) = sin(pi sqrt(z)) / sqrt(z) on 0 <= z <= Z_MAX (Remez,
   weight 1/P), its coefficients rounded to double.  sin(pi t) = t P(t^2), so
   t Q(t^2) approximates sin(pi t) on |t| <= sqrt(Z_MAX) = 1/2 + 2^-25.0.
2. A rigorous upper bound of max |Q(z)/P(z) - 1| over [0, Z_MAX] for the double
   coefficients: the interval is cut into SUBINTERVALS pieces; on each, Q - P is a
   power series in z (P's Taylor series, whose coefficients are enclosed with
   mpmath.iv, truncated at degree TAYLOR_TERMS - 1 with the first omitted term as
   a bound of the alternating, decreasing tail), evaluated in the centered form
   sum_j g^(j)(m)/j! (z - m)^j with interval arithmetic, and divided by an
   interval enclosure of P on the piece (P > 0 there).
3. The sums the evaluation bound uses (sincos32_core.h): max over the interval of
   sum_k |c_k| z^k / P(z) and of sum_k k |c_k| z^k / P(z), both increasing in z
   over decreasing P, so bounded at Z_MAX (checked with intervals there).
4. The reduced arguments of float32 inputs: for every binade 2^E <= x < 2^(E+1),
   a lower bound of min |x/pi - h| over the float32 x of the binade and h in
   (1/2)Z: with a = 2^(E-23) 2/pi mod 1, every x = M 2^(E-23) with M < 2^24 has
   ||M a|| >= ||q a|| for q the last continued-fraction denominator of a below
   2^24 (best approximation), and |x/pi - h| = ||M a||/2 for the nearest h.
   Printed: (R1) the minimum over E = -13 .. 23 of that bound divided by 2^(E+1)
   (the small reductions' absolute error is proportional to |x|); (R3) its minimum
   over E = 0 .. 127 (for E <= -1 the header argues directly).
5. SC32_INV_PI_ROWS (--table): for E = -13 .. 127, G = 2^(E-23)/pi mod 2 split into
   F0 = G rounded down to a multiple of 2^-27, F1 = the rest rounded down to a
   multiple of 2^-56, F2 = RN(the rest after F1).

tests/test_sincos.py re-checks the coefficients' bound (with fewer pieces, which
only widens the enclosure), the reduction facts and every table entry.
"""
import argparse
import re
import sys
from pathlib import Path

import mpmath
from mpmath import iv, mpf

DEGREE = 6
Z_MAX = mpf(1) / 4 + mpf(2) ** -24   # covers (1/2 + 2^-26.9)^2 (1 + 2^-52)
SUBINTERVALS = 512
TAYLOR_TERMS = 24
CORE = Path(__file__).resolve().parents[1] / "src" / "core"
HEADER = CORE / "sincos32_core.h"
TABLE_EMIN, TABLE_EMAX = -13, 127


class iv_precision:
    """mpmath.iv at a given precision inside a with-block (iv has no workprec)."""

    def __init__(self, bits):
        self.bits = bits

    def __enter__(self):
        self.saved = iv.prec
        iv.prec = self.bits

    def __exit__(self, *exc):
        iv.prec = self.saved


def p_value(z):
    """P(z) = sin(pi sqrt z)/sqrt z at the working precision (P(0) = pi)."""
    if z == 0:
        return +mpmath.pi
    s = mpmath.sqrt(z)
    return mpmath.sin(mpmath.pi * s) / s


def q_value(c, z):
    acc = mpf(0)
    for ck in reversed(c):
        acc = acc * z + ck
    return acc


def remez(degree=DEGREE, z_max=Z_MAX, iterations=30):
    """Minimax coefficients of the relative error of P by a polynomial of the degree."""
    n = degree + 2
    # Chebyshev extrema as the first reference
    ref = [z_max * (1 - mpmath.cos(mpmath.pi * i / (n - 1))) / 2 for i in range(n)]
    c = None
    for _ in range(iterations):
        rows = [[zi ** k for k in range(degree + 1)] + [(-1) ** i * p_value(zi)] for i, zi in enumerate(ref)]
        sol = mpmath.lu_solve(mpmath.matrix(rows), mpmath.matrix([p_value(zi) for zi in ref]))
        c = [sol[k] for k in range(degree + 1)]

        def err(z):
            return q_value(c, z) / p_value(z) - 1

        # locate the extrema of err between sign changes on a dense grid, then refine
        grid = [z_max * i / 4000 for i in range(4001)]
        values = [err(z) for z in grid]
        extrema = []
        start = 0
        for i in range(1, len(grid) + 1):
            if i == len(grid) or mpmath.sign(values[i]) != mpmath.sign(values[start]):
                j = max(range(start, i), key=lambda k: abs(values[k]))
                lo, hi = grid[max(j - 1, 0)], grid[min(j + 1, len(grid) - 1)]
                for _ in range(60):  # golden-section refinement of |err|
                    m1, m2 = lo + (hi - lo) * mpf("0.382"), lo + (hi - lo) * mpf("0.618")
                    if abs(err(m1)) > abs(err(m2)):
                        hi = m2
                    else:
                        lo = m1
                extrema.append((lo + hi) / 2)
                start = i
        if len(extrema) != n:
            raise RuntimeError("Remez: %d alternation points, expected %d" % (len(extrema), n))
        ref = extrema
    return c


def taylor_coefficients_iv(terms):
    """Enclosures of P's Taylor coefficients (-1)^k pi^(2k+1)/(2k+1)!."""
    return [(-1) ** k * iv.pi ** (2 * k + 1) / iv.factorial(2 * k + 1) for k in range(terms)]


def relative_error_bound(coefficients, z_max=Z_MAX, pieces=SUBINTERVALS, terms=TAYLOR_TERMS):
    """Rigorous upper bound of max |Q(z)/P(z) - 1| on [0, z_max] (module docstring, 2)."""
    with iv_precision(160):
        p = taylor_coefficients_iv(terms)
        # tail: the first omitted term bounds the alternating decreasing tail for z <= 1/4 + ...
        zmax_iv = iv.mpf(z_max)
        tail = iv.pi ** (2 * terms + 1) / iv.factorial(2 * terms + 1) * zmax_iv ** terms
        tail_bound = mpf(tail.b)
        g = [iv.mpf(coefficients[k]) - p[k] if k < len(coefficients) else -p[k] for k in range(terms)]
        worst = mpf(0)
        for i in range(pieces):
            a = z_max * i / pieces
            b = z_max * (i + 1) / pieces
            m = (a + b) / 2
            dz = iv.mpf([a - m, b - m])
            # centered form: coefficients of g around m, by repeated synthetic division
            shifted = list(g)
            centered = []
            for j in range(terms):
                acc = iv.mpf(0)
                for k in range(terms - 1, j - 1, -1):
                    acc = acc * m + shifted[k]
                    shifted[k] = acc
                centered.append(shifted[j])
            value = iv.mpf(0)
            for coef in reversed(centered):
                value = value * dz + coef
            zi = iv.mpf([a, b])
            p_piece = iv.mpf(0)
            for coef in reversed(p):
                p_piece = p_piece * zi + coef
            p_low = mpf(p_piece.a) - tail_bound
            assert p_low > 0
            bound = (max(abs(mpf(value.a)), abs(mpf(value.b))) + tail_bound) / p_low
            worst = max(worst, bound)
        return worst


def evaluation_sums(coefficients, z_max=Z_MAX, terms=TAYLOR_TERMS):
    """Upper bounds of sum |c_k| z^k / P(z) and sum k |c_k| z^k / P(z) on [0, z_max]:
    numerators increase with z and P decreases, so both are at most their values with
    the numerator at z_max and P at z_max (interval enclosures)."""
    with iv_precision(160):
        zi = iv.mpf(z_max)
        p = taylor_coefficients_iv(terms)
        p_at = iv.mpf(0)
        for coef in reversed(p):
            p_at = p_at * zi + coef
        tail = iv.pi ** (2 * terms + 1) / iv.factorial(2 * terms + 1) * zi ** terms
        p_low = mpf(p_at.a) - mpf(tail.b)
        s0 = sum(abs(iv.mpf(c)) * zi ** k for k, c in enumerate(coefficients))
        s1 = sum(k * abs(iv.mpf(c)) * zi ** k for k, c in enumerate(coefficients))
        return mpf(s0.b) / p_low, mpf(s1.b) / p_low


def min_reduced_arguments(e_min=-13, e_max=127, precision_bits=24):
    """(R1, R3): the minimum over E = e_min .. 23 of the bound of |x/pi - h| divided by
    2^(E+1), and the minimum over E = 0 .. e_max of the bound itself, for float32 x in
    the binade 2^E <= x < 2^(E+1) (module docstring, 4)."""
    with mpmath.workprec(600):
        two_over_pi = 2 / mpmath.pi
        small_ratio, overall = None, None
        for e in range(e_min, e_max + 1):
            a = two_over_pi * mpf(2) ** (e - precision_bits + 1)
            a -= mpmath.floor(a)
            p0, q0, p1, q1, t = 0, 1, 1, 0, a
            while True:
                digit = int(mpmath.floor(t))
                p2, q2 = digit * p1 + p0, digit * q1 + q0
                if q2 >= 2 ** precision_bits:
                    break
                p0, q0, p1, q1 = p1, q1, p2, q2
                if t == digit:
                    break
                t = 1 / (t - digit)
            bound = abs(q1 * a - p1) / 2
            if e <= 23:
                ratio = bound / mpf(2) ** (e + 1)
                small_ratio = ratio if small_ratio is None else min(small_ratio, ratio)
            if e >= 0:
                overall = bound if overall is None else min(overall, bound)
        return small_ratio, overall


def inv_pi_rows():
    """SC32_INV_PI_ROWS (module docstring, 5) as exact rationals' double values."""
    rows = []
    with mpmath.workprec(400):
        inv = 1 / mpmath.pi
        for e in range(TABLE_EMIN, TABLE_EMAX + 1):
            g = inv * mpf(2) ** (e - 23)
            g -= 2 * mpmath.floor(g / 2)
            f0 = mpmath.floor(g * 2 ** 27) / 2 ** 27
            f1 = mpmath.floor((g - f0) * 2 ** 56) / 2 ** 56
            f2 = float(g - f0 - f1)
            assert mpf(float(f0)) == f0 and mpf(float(f1)) == f1 and 0 <= f2 < 2.0 ** -56
            rows.append((float(f0), float(f1), f2))
    return rows


def print_table():
    print("/* Generated by tools/gen_sincos32.py --table (mpmath); do not edit.")
    print(" * tests/test_sincos.py re-derives every entry.  See that script and")
    print(" * sincos32_core.h for what the entries are. */")
    print('#include "sincos32_tables.h"')
    print()
    print("const double CRTRIG_SC32_INV_PI_ROWS[CRTRIG_SC32_ROW_COUNT][3] = {")
    for e, row in zip(range(TABLE_EMIN, TABLE_EMAX + 1), inv_pi_rows()):
        print("    {%s}, /* E = %d */" % (", ".join(v.hex() for v in row), e))
    print("};")


def header_coefficients(path=HEADER):
    text = path.read_text(encoding="utf-8")
    body = re.search(r"SC32_POLY\[%d\] = \{(.*?)\};" % (DEGREE + 1), text, re.S).group(1)
    return [float.fromhex(v) for v in re.findall(r"-?0x[0-9a-f.]+p[+-]\d+", body)]


def log2(v):
    return float(mpmath.log(v, 2))


def report(coefficients):
    eps = relative_error_bound(coefficients)
    s0, s1 = evaluation_sums(coefficients)
    ratio, overall = min_reduced_arguments()
    print("/* max |Q(z)/P(z) - 1| on [0, 1/4 + 2^-24] <= 2^%.3f (%s pieces) */" % (log2(eps), SUBINTERVALS))
    print("/* sum |c_k| z^k / P <= %.4f, sum k |c_k| z^k / P <= %.4f */" % (float(s0), float(s1)))
    print("/* (R1) 2^-13 <= |x| < 2^24: |x/pi - h| >= 2^%.2f |x|; (R3) |x| >= 1: |x/pi - h| >= 2^%.2f */"
          % (log2(ratio), log2(overall)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--poly", action="store_true", help="compute the polynomial (Remez), then check it")
    group.add_argument("--table", action="store_true", help="print src/core/sincos32_tables.c")
    group.add_argument("--check", action="store_true", help="check the coefficients in the header")
    args = parser.parse_args()
    if args.table:
        print_table()
        return 0
    if args.check:
        report(header_coefficients())
        return 0
    mpmath.mp.prec = 128
    c = remez()
    doubles = [float(v) for v in c]
    print("static const double SC32_POLY[%d] = {" % (DEGREE + 1))
    for k in range(0, len(doubles), 3):
        print("    " + " ".join("%s," % v.hex() for v in doubles[k:k + 3]))
    print("};")
    report(doubles)
    return 0


if __name__ == "__main__":
    sys.exit(main())
