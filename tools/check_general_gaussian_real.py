"""Every element of crtrig.windows.general_gaussian(M, p, sig) for non-integer 2p (its
real-power C stage and exact fallback), M = MIN_M .. MAX_M, both modes, the four float
dtypes, against tests/oracle.py's general_gaussian_real_window (mpmath.iv, both ends
rounded by MPFR): p = 3/4 (sig 7), 27/10 (sig 73/10), 1/10 (sig 3).  The target is
crtrig's own (CRTRIG_TARGET chooses it); the thread count is given and the pool's
threshold lowered to 64 elements, so two threads split these small windows.  Run from
the repository root with the test extra installed:

    CRTRIG_TARGET=baseline python tools/check_general_gaussian_real.py 256 2      # MAX_M THREADS [MIN_M]

Prints one line and exits 1 if any element differs (the first few listed)."""
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

import crtrig  # noqa: E402
import oracle  # noqa: E402
from crtrig import _core, windows  # noqa: E402

MAXM = int(sys.argv[1]); threads = int(sys.argv[2]); MINM = int(sys.argv[3]) if len(sys.argv) > 3 else 2
crtrig.set_num_threads(threads)
_core._set_parallel_threshold(64)
DT = {"float64": np.float64, "float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
def bits(a):
    a = np.ascontiguousarray(a); return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])
t0 = time.time(); total = wrong = 0
for p, sig in ((Fraction(3, 4), Fraction(7)), (Fraction(27, 10), Fraction(73, 10)), (Fraction(1, 10), Fraction(3))):
    for M in range(MINM, MAXM + 1):
        for sym in (True, False):
            want = oracle.general_gaussian_real_window(M, sym, p, sig)
            for fmt, dt in DT.items():
                got = np.asarray(windows.general_gaussian(M, float(p), float(sig), sym, dtype=dt))
                w = np.asarray(want[fmt]).astype(dt) if fmt != "bfloat16" else np.asarray(want[fmt])
                bad = int((bits(got) != bits(w)).sum()); total += M; wrong += bad
                if bad and wrong < 5: print("WRONG", p, sig, M, sym, fmt)
print(f"general_gaussian non-integer 2p (p 3/4 sig 7, p 27/10 sig 73/10, p 1/10 sig 3), target {crtrig.simd_target()}, threads {threads}: M {MINM}..{MAXM}, both modes, 4 dtypes: {total} elements, {wrong} wrong ({time.time()-t0:.0f} s)")
sys.exit(wrong != 0)
