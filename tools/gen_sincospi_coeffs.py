"""Print the Taylor coefficients of sinpi and cospi as double-double hex-float pairs.

sinpi(t) = t * sum_k SINPI_C[k] t^(2k),  SINPI_C[k] = (-1)^k pi^(2k+1) / (2k+1)!
cospi(t) =     sum_k COSPI_C[k] t^(2k),  COSPI_C[k] = (-1)^k pi^(2k)   / (2k)!

Each coefficient c is printed as (hi, lo) with hi = RN(c), lo = RN(c - hi), so
|hi + lo - c| <= 2^-106 |c|.  Usage: python tools/gen_sincospi_coeffs.py  (needs mpmath).
The output is pasted into src/core/sincospi.c; tests/test_window.py re-derives the
table with mpmath and compares it bit for bit.
"""
import mpmath

mpmath.mp.prec = 400


def dd_pair(c):
    hi = float(c)  # mpmath rounds to nearest double
    lo = float(c - mpmath.mpf(hi))
    return hi, lo


def table(name, odd, count):
    print(f"const double {name}[{count}][2] = {{")
    for k in range(count):
        n = 2 * k + (1 if odd else 0)
        c = (-1) ** k * mpmath.pi ** n / mpmath.factorial(n)
        hi, lo = dd_pair(c)
        print(f"  {{{hi.hex()}, {lo.hex()}}}, /* k={k} */")
    print("};")


if __name__ == "__main__":
    table("CRTRIG_SINPI_C", True, 14)
    table("CRTRIG_COSPI_C", False, 15)
