"""Windows of 2^24 points (2^24 + 1 for the periodic ones: scipy's extension), sampled
against tests/oracle.py's per-element functions (tools/check_windows_sampled.py's
oracle: nothing of crtrig's), for the windows whose own tests stop below 2^24 (boxcar,
triang, bartlett, parzen, gaussian, nuttall and flattop have theirs): 200 seeded indices
plus the ends and the middle, one dtype and mode each (alternating), and the mirror
property on every element.  kaiser_bessel_derived is not here (its oracle is the whole
first half: tools/check_windows_sampled.py checks it to 2^20 + 4)."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("check_windows_sampled", ROOT / "tools" / "check_windows_sampled.py")
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)

M = 2**24
CASES = [
    ("hann", True, "float64"), ("hamming", False, "float32"), ("blackman", True, "float16"),
    ("general_hamming(25/46)", False, "bfloat16"), ("blackmanharris", True, "float64"),
    ("general_cosine(0.5:0.3:0.2)", False, "float32"), ("general_cosine(srs_flattop)", True, "float64"),
    ("cosine", False, "float64"), ("barthann", True, "float32"), ("bohman", False, "float64"),
    ("lanczos", True, "float16"), ("tukey(0.25)", False, "float64"), ("tukey(0.3)", True, "bfloat16"),
    ("kaiser(8.6)", False, "float64"), ("taylor", True, "float64"), ("taylor(8:50:norm=False)", False, "float32"),
    ("general_gaussian(1.5:7)", True, "float64"), ("general_gaussian(3:100)", False, "float16"),
    ("exponential(tau=3)", True, "float32"), ("exponential(center=10.3:tau=3)", False, "float64"),
]


@pytest.mark.parametrize("name, sym, fmt", CASES, ids=[c[0] for c in CASES])
def test_sampled_at_2_to_the_24(name, sym, fmt):
    from crtrig import windows
    call = tool.WINDOWS[name][1]
    got = np.asarray(call(windows, M, sym, tool.DTYPES[fmt]))
    assert got.shape == (M,)
    idx = tool._indices(name, M, sym, 200, 24)
    want = tool.oracle_values(name, M, sym, idx)
    values = got[idx].astype(np.float64)
    wrong = [(int(n), float(v), want[int(n)][fmt]) for n, v in zip(idx, values)
             if not tool._same(float(v), want[int(n)][fmt])]
    assert not wrong, wrong[:5]
    if name.startswith("exponential(center"):
        return
    bits = tool.exhaustive._bits(got)
    ends = bits if sym else bits[1:]
    assert np.array_equal(ends, ends[::-1])
