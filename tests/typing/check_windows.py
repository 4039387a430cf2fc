"""Typed calls of every function of crtrig.windows, for `mypy --strict` (run it as a
script too: every assertion is about the runtime values the stubs describe)."""
from decimal import Decimal
from fractions import Fraction

import ml_dtypes
import numpy as np
from numpy.typing import NDArray

from crtrig import windows


def check() -> None:
    a: NDArray[np.float64] = windows.hann(8)
    b: NDArray[np.float64] = windows.hamming(8, False, dtype=np.float64)
    c: NDArray[np.float32] = windows.blackman(8, sym=True, dtype=np.float32)
    d: NDArray[np.float16] = windows.hann(8, dtype="float16")
    e: NDArray[ml_dtypes.bfloat16] = windows.hamming(8, dtype=ml_dtypes.bfloat16)
    f: NDArray[np.uint8] = windows.blackman(8, dtype=np.uint8)
    g: NDArray[np.int64] = windows.hann(np.int64(8), dtype="int64")
    h: NDArray[np.float64] = windows.general_hamming(8, Fraction(27, 50))
    i: NDArray[np.float32] = windows.general_hamming(8, 0.54, False, dtype=np.float32)
    j: NDArray[np.float64] = windows.general_hamming(8, "0.54")
    k: NDArray[np.float64] = windows.general_hamming(8, Decimal("0.54"), sym=False)
    buffer = np.empty(8, np.float32)
    m: NDArray[np.float32] = windows.hann(8, out=buffer)
    n: NDArray[np.float32] = windows.general_hamming(8, 1, out=buffer)
    o: NDArray[np.float64] = windows.get_window("hann", 8)
    p: NDArray[np.float64] = windows.get_window(("general_hamming", Fraction(1, 3)), 8, fftbins=False)
    q: NDArray[np.float32] = windows.get_window(("hamming",), 8, dtype=np.float32)
    for array, dtype in ((a, np.float64), (b, np.float64), (c, np.float32), (d, np.float16),
                         (e, ml_dtypes.bfloat16), (f, np.uint8), (g, np.int64), (h, np.float64),
                         (i, np.float32), (j, np.float64), (k, np.float64), (m, np.float32),
                         (n, np.float32), (o, np.float64), (p, np.float64), (q, np.float32)):
        assert array.dtype == np.dtype(dtype) and array.shape == (8,)
    assert m is buffer and n is buffer


if __name__ == "__main__":
    check()
