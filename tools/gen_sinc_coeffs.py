"""Print the double-double constants of src/core/window_sinc_coef.c (1/pi and Bohman's
series coefficients b_j = (-1)^j (2j + 2) pi^(2j+2)/(2j + 3)!, j = 0 .. 9), each as
{RN(c), RN(c - hi)}, checked within 2^-106 of c.  Needs mpmath (a test dependency)."""
import mpmath


def dd(x):
    hi = float(x)
    lo = float(x - mpmath.mpf(hi))
    assert abs(x - hi - lo) <= abs(x) * mpmath.mpf(2) ** -106
    return hi.hex(), lo.hex()


def main():
    mpmath.mp.prec = 400
    print("INV_PI = {%s, %s}" % dd(1 / mpmath.pi))
    for j in range(10):
        b = (-1) ** j * (2 * j + 2) * mpmath.pi ** (2 * j + 2) / mpmath.factorial(2 * j + 3)
        print("    {%s, %s},  /* j=%d */" % (dd(b) + (j,)))


if __name__ == "__main__":
    main()
