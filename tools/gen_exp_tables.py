"""Generate the double-double tables and ln2 pieces of src/core/exp_pass.h.

T1[i] = 2^(i/64), i = 0..63 and T2[j] = 2^(j/2048), j = 0..31, each as hi + lo
with hi = RN(x) and lo = RN(x - hi) (so |x - hi - lo| <= 2^-106 x), computed
with mpmath at 300 bits.  ln2/2048 = L1 + L2 + L3 + L4: L1 and L2 keep 30
significant bits each (N L1, N L2 exact for |N| < 2^22), L3 = RN(rest).

    python tools/gen_exp_tables.py > /tmp/exp_tables.txt   (paste into exp_pass.h)
"""
import mpmath

mpmath.mp.prec = 300


def rn(x):
    return float(x)  # mpmath's float() rounds to nearest


def dd(x):
    hi = rn(x)
    lo = rn(x - mpmath.mpf(hi))
    return hi, lo


def truncate(x, bits):
    m, e = mpmath.frexp(x)
    return mpmath.ldexp(mpmath.floor(m * 2**bits), e - bits)


def main():
    print("static const double EXP_T1[64][2] = {")
    for i in range(64):
        hi, lo = dd(mpmath.power(2, mpmath.mpf(i) / 64))
        print(f"    {{{hi.hex()}, {lo.hex()}}},")
    print("};")
    print("static const double EXP_T2[32][2] = {")
    for j in range(32):
        hi, lo = dd(mpmath.power(2, mpmath.mpf(j) / 2048))
        print(f"    {{{hi.hex()}, {lo.hex()}}},")
    print("};")
    c = mpmath.log(2) / 2048
    l1 = truncate(c, 30)
    l2 = truncate(c - l1, 30)
    l3 = rn(c - l1 - l2)
    l4 = c - l1 - l2 - mpmath.mpf(l3)
    print(f"#define EXP_L1 {float(l1).hex()}")
    print(f"#define EXP_L2 {float(l2).hex()}")
    print(f"#define EXP_L3 {l3.hex()}")
    print(f"/* |L4| = {mpmath.nstr(abs(l4), 5)} (2^{mpmath.nstr(mpmath.log(abs(l4), 2), 5)}) */")
    inv = 2048 / mpmath.log(2)
    print(f"#define EXP_INV {rn(inv).hex()}")


if __name__ == "__main__":
    main()
