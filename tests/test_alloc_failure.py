"""A failed allocation is a clean MemoryError: a window fill writes nothing, and
sin/cos allocate at most once per call.

The C core allocates its multi-precision workspace, for a window fill through
the table pass the sin/cos table, and once per process the float16/bfloat16
result tables (tests/test_sincos16_tables.py tests their failure), through one
wrapper that a test hook (_core.fail_allocation) can make fail at the k-th call.
"""
import ml_dtypes
import numpy as np
import pytest

import crtrig
from crtrig import _core, reference
from crtrig._windows import make_window

WINDOW_DTYPES = ["float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "uint16",
                 "int32", "uint32", "int64", "uint64"]
FUNCTIONS = {"hann": crtrig.hann_window, "hamming": crtrig.hamming_window,
             "blackman": crtrig.blackman_window}
TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]


@pytest.fixture(autouse=True)
def no_failure_left_armed():
    _core.fail_allocation(0)
    yield
    _core.fail_allocation(0)


def sentinel_out(dtype, size, stride=1):
    dt = reference.canonical_dtype(dtype)
    base = ((np.arange(dt.itemsize * size * stride) % 251) + 3).astype(np.uint8)
    return base, base.view(dt)[::stride]


@pytest.mark.parametrize("dtype", WINDOW_DTYPES)
@pytest.mark.parametrize("kind", FUNCTIONS)
def test_window_fill_writes_nothing_when_an_allocation_fails(kind, dtype):
    """For k = 1, 2, ... until the fill succeeds: a MemoryError with out= untouched.
    The fill allocates before writing: its workspace, and the table when it goes
    through the table pass (stage 0, D >= 1); then it gives the exact window."""
    for size, periodic, stage in [(2, True, 0), (12, False, 0), (300, True, 0), (1001, False, 0),
                                  (24, True, 2), (97, False, 1), (1, False, 0)]:
        k = 1
        while True:
            base, out = sentinel_out(dtype, size, stride=2)
            before = base.copy()
            _core.fail_allocation(k)
            try:
                make_window(list(FUNCTIONS).index(kind), kind, size, periodic, None, out, _first_stage=stage)
            except MemoryError as error:
                assert "multi-precision workspace" in str(error)
                assert np.array_equal(base, before), f"{kind} {dtype} size={size}: out= written, k={k}"
                assert _core.fail_allocation(0) == 0  # the k-th allocation was the one that failed
                k += 1
                continue
            allocations = k - _core.fail_allocation(0)
            d = size if periodic else size - 1
            expected = 2 if stage == 0 and d >= 1 else 1
            assert allocations == expected, (kind, dtype, size, allocations)
            assert out.tobytes() == reference.window(kind, size, periodic, dtype).tobytes()
            break
        assert k == expected + 1


def test_empty_window_allocates_nothing():
    _core.fail_allocation(1)
    assert crtrig.hann_window(0).shape == (0,)
    assert _core.fail_allocation(0) == 1


@pytest.mark.parametrize("target", TARGETS, ids=[_core._supported_target_slots()[i] for i in TARGETS])
@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32])
def test_sin_cos_allocate_once_per_call_and_only_when_needed(dtype, target):
    """The multi-precision stage forced for a whole array (the test hook skips the
    first pass): one allocation for the call, and the same results as normal
    operation; a failure there is a MemoryError.  Normal operation on ordinary
    inputs allocates nothing."""
    x = np.concatenate([np.linspace(-7, 7, 150), [0.0, 1e-30, 3e4, np.inf, np.nan]]).astype(np.float32).astype(dtype)
    with np.errstate(invalid="ignore"):
        for func in (0, 1):
            want = _core.trig_with_target(target, func, x)
            _core.fail_allocation(1)
            with pytest.raises(MemoryError):
                _core.trig_strided(target, func, x, 2)
            assert _core.fail_allocation(3) == 0
            got, counts = _core.trig_strided(target, func, x, 2)
            assert _core.fail_allocation(0) == 2  # one allocation for 150 multi-precision elements
            assert counts["multi-precision"] == np.count_nonzero(np.isfinite(x.astype(np.float32)) & (x != 0))
            assert got.tobytes() == want.tobytes()
            ordinary = np.linspace(-1e4, 1e4, 20000).astype(dtype)
            crtrig.sin(ordinary[:1])  # float16/bfloat16: builds the result table once per process
            _core.fail_allocation(1)
            crtrig.sin(ordinary)
            assert _core.fail_allocation(0) == 1  # nothing allocated


def test_trig_element_reports_a_failed_allocation():
    _core.fail_allocation(1)
    with pytest.raises(MemoryError):
        _core.trig_element(0, 2, 2.5, 2)
    assert _core.trig_element(0, 2, 2.5, 2)[0] == float(crtrig.sin(np.float32(2.5)))
