"""Threads: large sin/cos loops and window fills split over the C core's pool.

What must hold (README, "Threads"): results bit-identical to the oracle for
every thread count (the split is in whole blocks; a test hook lowers the
parallel threshold so that small arrays go through the pool too); every
robustness guarantee (overlapping arrays run on one thread, in order; each
worker computes in its own round-to-nearest environment; FE_INVALID from a
worker reaches the calling thread, where numpy reads it; a failed allocation
is a MemoryError, and a window fill then writes nothing); concurrent callers
neither deadlock nor multiply threads; the pool survives fork and interpreter
shutdown; the thread count API and CRTRIG_NUM_THREADS; dask.distributed.

_core.pool_stats() (a test hook) counts the jobs run on several threads, so the
tests can tell that the pool really ran (or really did not).
"""
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings

import ml_dtypes
import numpy as np
import pytest

import crtrig
from crtrig import _core, _threads, reference, verify
from crtrig._windows import make_window

import oracle
from sanitizer_marks import no_address_space_limit_under_asan
from test_sincos import float32_sample, same_bits
from test_window import assert_same_values

FUNCS = {"sin": crtrig.sin, "cos": crtrig.cos}
SMALL_DTYPES = {"float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16)}
THREAD_COUNTS = [1, 2, 3, 7]
BLOCK = 256  # the kernels' block size: the pool's chunks are multiples of it
LOW_THRESHOLD = BLOCK
TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]
TARGET_IDS = [_core._supported_target_slots()[i] for i in TARGETS]


@pytest.fixture(autouse=True)
def restore_thread_settings():
    """Each test leaves the process-wide settings as it found them."""
    count = crtrig.get_num_threads()
    threshold = _core._set_parallel_threshold(_core.thread_config()["parallel_threshold"])
    yield
    crtrig.set_num_threads(count)
    _core._set_parallel_threshold(threshold)
    _core.fail_allocation(0)


def use_threads(count, threshold=LOW_THRESHOLD):
    crtrig.set_num_threads(count)
    _core._set_parallel_threshold(threshold)


def parallel_jobs():
    return _core.pool_stats()["parallel_jobs"]


def run_python(code, env=None, timeout=120, **kwargs):
    """Run `code` in a fresh interpreter (this crtrig on its path)."""
    full_env = dict(os.environ)
    for name in _threads.ENVIRONMENT_VARIABLES:
        full_env.pop(name, None)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=full_env, timeout=timeout, **kwargs)


# ---------------------------------------------------------------------------
# Bit-identical results for every thread count
# ---------------------------------------------------------------------------

_ORACLE = {}


def trig_inputs(func, dtype):
    """(inputs, MPFR results), computed once per module: every 16-bit pattern,
    or a float32 sample (random bit patterns and [-pi, pi])."""
    key = (func, dtype)
    if key not in _ORACLE:
        if dtype == "float32":
            x = float32_sample(20000, seed=23)
        else:
            x = np.arange(1 << 16, dtype=np.uint16).view(SMALL_DTYPES[dtype])
        _ORACLE[key] = (x, oracle.trig(func, x))
    return _ORACLE[key]


def layouts(x):
    """{name: (function of a ufunc giving its result)}: contiguous, strided
    input, negative strides, exactly in place."""
    doubled = np.repeat(x, 2)

    def in_place(f):
        buf = x.copy()
        return f(buf, out=buf)

    return {
        "contiguous": lambda f: f(x),
        "strided input": lambda f: f(doubled[::2]),
        "negative strides": lambda f: f(x[::-1])[::-1],
        "strided output": lambda f: f(x, out=np.empty(2 * x.size, x.dtype)[::2]),
        "in place": in_place,
    }


def check_through_pool(func, dtype, count):
    x, want = trig_inputs(func, dtype)
    use_threads(count)
    for name, run in layouts(x).items():
        before = parallel_jobs()
        with np.errstate(invalid="ignore"):
            got = run(FUNCS[func])
        if count > 1:
            assert parallel_jobs() == before + 1, f"{name}: the call did not use the pool"
        bad = same_bits(got, want)
        assert bad.size == 0, f"{count} threads, {name}: {bad.size} wrong, first x={x[bad[0]]!r}"


@pytest.mark.slow
@pytest.mark.parametrize("count", THREAD_COUNTS)
@pytest.mark.parametrize("dtype", SMALL_DTYPES)
@pytest.mark.parametrize("func", FUNCS)
def test_exhaustive_16_bit_formats_through_the_pool(func, dtype, count):
    """All 65536 inputs, against MPFR, split over 1, 2, 3 and 7 threads, in
    several layouts (each a separate call through the pool)."""
    check_through_pool(func, dtype, count)


@pytest.mark.parametrize("count", THREAD_COUNTS)
@pytest.mark.parametrize("func", FUNCS)
def test_float32_sample_through_the_pool(func, count):
    check_through_pool(func, "float32", count)


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
def test_every_simd_target_through_the_pool(target):
    """The kernels of each target, 3 threads, float16 exhaustively."""
    x, want = trig_inputs("sin", "float16")
    use_threads(3)
    before = parallel_jobs()
    with np.errstate(invalid="ignore"):
        got, _ = _core.trig_strided(target, 0, x)
    assert parallel_jobs() == before + 1
    assert same_bits(got, want).size == 0


@pytest.mark.parametrize("stage", [0, 1, 2])
def test_stage_counts_add_up_over_threads(stage):
    """The test hook's stage counts of a split call are the one-thread counts:
    each thread counts its own and they are merged."""
    x = float32_sample(3000, seed=29)
    x = x[np.isfinite(x)]
    use_threads(1)
    want, want_counts = _core.trig_strided(TARGETS[-1], 0, x, stage)
    use_threads(3)
    before = parallel_jobs()
    got, counts = _core.trig_strided(TARGETS[-1], 0, x, stage)
    assert parallel_jobs() == before + 1
    assert got.tobytes() == want.tobytes() and counts == want_counts


WINDOW_DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "uint64")
WINDOW_SIZES = (300, 1000, 1001, 2049)
KINDS = ("hann", "hamming", "blackman")
_WINDOW_REFERENCE = {}


def reference_window(kind, size, periodic, dtype):
    key = (kind, size, periodic, dtype)
    if key not in _WINDOW_REFERENCE:
        _WINDOW_REFERENCE[key] = reference.window(kind, size, periodic, dtype)
    return _WINDOW_REFERENCE[key]


@pytest.mark.parametrize("count", THREAD_COUNTS)
@pytest.mark.parametrize("kind", KINDS)
def test_windows_through_the_pool(kind, count):
    """Every element bit-identical to crtrig.reference, split over 1, 2, 3 and 7
    threads: one job over the folded phases, each chunk storing its phases at
    n = r and n = D - r (every dtype through the table pass), into contiguous
    and negatively strided out=.  The threshold is a quarter block: the pool weighs a
    16- or 32-bit window element as a quarter and a float64 one as a half (window.c,
    claim_weight), so the smallest of these windows still splits in every dtype."""
    use_threads(count, threshold=BLOCK // 4)
    for size in WINDOW_SIZES:
        for periodic in (True, False):
            for dtype in WINDOW_DTYPES:
                want = reference_window(kind, size, periodic, dtype)
                before = parallel_jobs()
                got = getattr(crtrig, f"{kind}_window")(size, periodic=periodic, dtype=dtype)
                jobs = parallel_jobs() - before
                assert jobs == (0 if count == 1 else 1), (size, dtype, jobs)
                assert_same_values(got, want, f"{count} threads {kind} size={size} periodic={periodic} {dtype}")
                out = np.zeros(2 * size, dtype=want.dtype)[::-2]
                getattr(crtrig, f"{kind}_window")(size, periodic=periodic, out=out)
                assert_same_values(out, want, f"{count} threads, out= stride -2, {kind} size={size} {dtype}")


@pytest.mark.parametrize("dtype, splits_from", [("float64", 2 * 65536), ("float32", 4 * 65536),
                                                ("float16", 4 * 65536), ("bfloat16", 4 * 65536)])
def test_windows_split_from_two_or_four_times_the_threshold(dtype, splits_from):
    """At the default threshold (65,536), a float64 window (about 0.5 ns an element for
    hann) splits from 131,072 elements and a 16- or 32-bit one (about 0.3 to 0.6 ns an
    element, where waking a worker did not pay below 2^18) from 262,144: one element
    fewer runs on one thread."""
    use_threads(2, threshold=65536)
    for size, jobs in ((splits_from - 1, 0), (splits_from, 1)):
        before = parallel_jobs()
        got = crtrig.hann_window(size, dtype=dtype)
        assert parallel_jobs() - before == jobs, (dtype, size)
        assert got.shape == (size,)


@pytest.mark.parametrize("count", [2, 7])
@pytest.mark.parametrize("stage", [1, 2])
def test_window_stages_through_the_pool(stage, count):
    """The element path forced from each later stage (test hook), split; the
    stage counts merged over the threads equal the one-thread counts."""
    for kind in KINDS:
        for dtype in ("float16", "float32", "float64"):
            size, periodic = 1001, False
            use_threads(1)
            single = {}
            make_window(KINDS.index(kind), kind, size, periodic, dtype, None, _first_stage=stage, _counts=single)
            use_threads(count)
            split = {}
            got = make_window(KINDS.index(kind), kind, size, periodic, dtype, None, _first_stage=stage,
                              _counts=split)
            assert_same_values(got, reference_window(kind, size, periodic, dtype), f"{kind} stage {stage}")
            assert split == single


# ---------------------------------------------------------------------------
# The robustness guarantees
# ---------------------------------------------------------------------------


def test_overlapping_arrays_run_on_one_thread_in_order():
    """An output that lags behind its input in the same buffer (numpy passes it
    without a copy) is one in-order loop, never split: the result is that of
    the call on a copy.  Exactly in place (same pointer and stride) and
    disjoint arrays are split."""
    use_threads(3)
    rng = np.random.default_rng(5)
    n, shift = 40000, 300
    source = rng.uniform(-100, 100, n + shift).astype(np.float32)
    cases = {
        "lag": lambda b: (b[shift:shift + n], b[:n]),
        "lag by one element": lambda b: (b[1:1 + n], b[:n]),
        "lag, strided": lambda b: (b[shift:][::2][:n // 2], b[::2][:n // 2]),
    }
    for name, views in cases.items():
        buf = source.copy()
        inp, out = views(buf)
        assert inp.size == out.size and np.shares_memory(inp, out)
        want = crtrig.sin(inp.copy())
        before = parallel_jobs()
        crtrig.sin(inp, out=out)
        assert parallel_jobs() == before, f"{name}: an overlapping call was split"
        assert out.tobytes() == want.tobytes(), name
    buf = source.copy()
    want = crtrig.sin(buf.copy())
    before = parallel_jobs()
    crtrig.sin(buf, out=buf)
    assert parallel_jobs() == before + 1, "in place should be split"
    assert buf.tobytes() == want.tobytes()


def test_overlap_check_in_the_c_core():
    """The C entry point itself (not numpy) decides: the test hook
    _core.trig_strided gets arrays numpy never overlaps, so go through the
    ufunc with an output whose elements overlap the input only partly
    (interleaved: same buffer, shifted by half an element's stride)."""
    use_threads(2)
    buf = np.random.default_rng(3).uniform(-3, 3, 2 * 20000 + 1).astype(np.float32)
    inp = buf[1:][::2]   # elements 1, 3, 5, ...
    out = buf[:-1][::2]  # elements 0, 2, 4, ...: disjoint elements, overlapping byte ranges
    want = crtrig.sin(inp.copy())
    before = parallel_jobs()
    crtrig.sin(inp, out=out)
    assert parallel_jobs() == before
    assert out.tobytes() == want.tobytes()


def test_infinity_in_a_worker_raises_invalid_in_the_caller():
    """numpy reads the calling thread's flags after the loop.  One inf in a
    large array, in each of many positions (most of them in chunks that worker
    threads take): FloatingPointError under errstate(invalid="raise"), numpy's
    warning otherwise, and nothing for the same array without the inf."""
    use_threads(7, threshold=65536)
    x = np.linspace(-3, 3, 1 << 18, dtype=np.float32)
    for position in range(1000, x.size, x.size // 29):
        y = x.copy()
        y[position] = np.inf if position % 2 else -np.inf
        before = parallel_jobs()
        with np.errstate(invalid="raise"):
            with pytest.raises(FloatingPointError):
                crtrig.cos(y)
        assert parallel_jobs() == before + 1
        with pytest.warns(RuntimeWarning, match="invalid value"):
            result = crtrig.sin(y)
        assert np.isnan(result[position]) and np.count_nonzero(np.isnan(result)) == 1
    with np.errstate(all="raise"):
        crtrig.sin(x)
        crtrig.cos(x)


def test_workers_compute_in_their_own_environment():
    """A worker thread inherits the floating-point environment of the thread
    that starts it.  In a fresh process, the pool's workers are started inside
    a call made under round-upward with FTZ and DAZ on (the test hook sets the
    caller's state in C): each worker must switch to round-to-nearest itself.
    The caller's state comes back exactly, plus FE_INVALID for the inf."""
    code = """
        import numpy as np, crtrig
        from crtrig import _core
        crtrig.set_num_threads(4)
        _core._set_parallel_threshold(512)
        assert _core.pool_stats()["workers"] == 0
        x = np.random.default_rng(1).uniform(-1e4, 1e4, 1 << 20).astype(np.float32)
        x[-5] = np.inf
        crtrig.set_num_threads(1)
        with np.errstate(invalid="ignore"):
            want = crtrig.sin(x)
        crtrig.set_num_threads(4)
        _core._require_all_workers(True)  # every worker takes part, however busy the machine
        ftz = _core.FPENV_METHOD in ("mxcsr", "fpcr")
        got, before, after = _core.trig_under_fpenv(_core._supported_target_slots().index(_core.SIMD_TARGET), 0, x,
                                                    "upward", ftz, ftz)
        assert _core.pool_stats()["workers"] == 3, _core.pool_stats()
        assert _core.pool_stats()["parallel_jobs"] == 1
        assert _core.pool_stats()["worker_shares"] == 3  # each worker took part (the hook)
        assert got.tobytes() == want.tobytes(), int((got.view(np.uint32) != want.view(np.uint32)).sum())
        assert after["rounding"] == "upward" and after["ftz"] == before["ftz"] == ftz
        assert after["flags"] == {"invalid"}, after
        print("ok")
    """
    result = run_python(code)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


def test_window_fill_writes_nothing_when_any_threads_allocation_fails():
    """A split fill allocates every thread's workspace before it writes: the
    array of workspaces, then one per thread (1 + threads allocations), then
    the table of the table pass.
    Failing the k-th, for each k, is a MemoryError with out= untouched; then
    the fill succeeds and is exact."""
    for count, size, dtype, stage in [(3, 1001, "float32", 0), (3, 1001, "float64", 0), (7, 4000, "float16", 0),
                                      (2, 700, "bfloat16", 2), (7, 2049, "int16", 0)]:
        use_threads(count, threshold=BLOCK // 4)  # a narrow element weighs a quarter (window.c)
        participants = min(count, -(-size // BLOCK))
        kind = "blackman"
        k = 1
        while True:
            base = (np.arange(8 * size * 2) % 251 + 3).astype(np.uint8)
            out = base.view(reference.canonical_dtype(dtype))[::2][:size]
            before_bytes = base.copy()
            _core.fail_allocation(k)
            try:
                make_window(2, kind, size, True, None, out, _first_stage=stage)
            except MemoryError:
                assert np.array_equal(base, before_bytes), f"{dtype}: out= written, k={k}"
                assert _core.fail_allocation(0) == 0
                k += 1
                continue
            allocations = k - _core.fail_allocation(0)
            break
        table = 1 if stage == 0 else 0  # the fill's sin/cos table (window_table.c), after the workspaces
        assert allocations == 1 + participants + table, (dtype, allocations, participants)
        assert k == 2 + participants + table
        assert_same_values(out, reference_window(kind, size, True, dtype), f"{dtype} after the failures")


def test_sin_cos_allocation_failure_in_any_thread_is_a_memory_error():
    """The multi-precision stage forced (test hook) for a split call: each
    thread allocates its own workspace once, on first need.  Whichever thread
    meets the failing allocation, the call reports MemoryError; without a
    failure, at most one allocation per thread and the exact result."""
    x = np.linspace(-7, 7, 5000).astype(np.float32)
    use_threads(1)
    want = _core.trig_with_target(TARGETS[-1], 0, x)
    for count in (2, 3, 7):
        use_threads(count)
        participants = min(count, -(-x.size // BLOCK))
        for k in range(1, participants + 1):
            _core.fail_allocation(k)
            try:
                _core.trig_strided(TARGETS[-1], 0, x, 2)
            except MemoryError:
                assert _core.fail_allocation(0) == 0
            else:  # the threads that got chunks made fewer than k allocations
                assert k > 1 and _core.fail_allocation(0) > 0
        _core.fail_allocation(1000)
        got, _ = _core.trig_strided(TARGETS[-1], 0, x, 2)
        allocations = 1000 - _core.fail_allocation(0)
        assert 1 <= allocations <= participants
        assert got.tobytes() == want.tobytes()
        _core.fail_allocation(1)
        with pytest.raises(MemoryError):
            _core.trig_strided(TARGETS[-1], 0, x, 2)


def test_ordinary_calls_allocate_nothing_on_any_thread_count():
    use_threads(3)
    _core.fail_allocation(1)
    crtrig.sin(np.linspace(-1e4, 1e4, 100000).astype(np.float32))
    assert _core.fail_allocation(0) == 1


# ---------------------------------------------------------------------------
# Concurrent callers, fork, shutdown
# ---------------------------------------------------------------------------


def test_concurrent_callers_all_finish_with_exact_results():
    """Eight Python threads making large calls at once (sin, cos, windows) while
    the thread count changes under them: no deadlock (every thread finishes),
    every result bit-identical to the one-thread result."""
    x = np.random.default_rng(9).uniform(-50, 50, 200000).astype(np.float32)
    use_threads(1)
    want = {"sin": crtrig.sin(x), "cos": crtrig.cos(x), "hann": crtrig.hann_window(150001),
            "blackman": crtrig.blackman_window(70001, dtype=np.float64)}
    use_threads(2, threshold=65536)
    errors = []

    def work(i):
        try:
            for j in range(6):
                name = ("sin", "cos", "hann", "blackman")[(i + j) % 4]
                if name in FUNCS:
                    got = FUNCS[name](x)
                elif name == "hann":
                    got = crtrig.hann_window(150001)
                else:
                    got = crtrig.blackman_window(70001, dtype=np.float64)
                if got.tobytes() != want[name].tobytes():
                    errors.append((i, j, name))
                if i == 0:
                    crtrig.set_num_threads(2 + j % 3)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append((i, repr(error)))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a caller is stuck"
    assert errors == []


def test_busy_pool_does_not_multiply_threads():
    """In a fresh process with 3 threads: 8 callers at once start at most 2
    workers (a caller that finds the pool busy works alone), and while the
    pool is busy, others still make progress."""
    code = """
        import os, threading, time, numpy as np, crtrig
        from crtrig import _core
        tasks = lambda: len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else 0
        baseline = tasks()  # the interpreter, and numpy's BLAS threads, if any
        crtrig.set_num_threads(3)
        x = np.linspace(-9, 9, 1 << 19, dtype=np.float32)
        want = crtrig.sin(x)
        results = []
        def work():
            for _ in range(5):
                results.append(crtrig.sin(x).tobytes() == want.tobytes())
        threads = [threading.Thread(target=work) for _ in range(8)]
        for t in threads: t.start()
        for t in threads: t.join()
        stats = _core.pool_stats()
        assert all(results) and len(results) == 40
        assert stats["workers"] == 2, stats
        assert 1 <= stats["parallel_jobs"] <= 41, stats
        for _ in range(100):  # a joined thread may take a moment to leave /proc
            if tasks() <= baseline + 2:
                break
            time.sleep(0.05)
        assert tasks() == baseline + 2 or baseline == 0, (baseline, tasks())
        print("ok")
    """
    result = run_python(code)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


# ---------------------------------------------------------------------------
# The pool's footprint: small worker stacks, a cap, workers that retire
# ---------------------------------------------------------------------------

WORKER_STACK = 256 * 1024  # threads.c: CRTRIG_WORKER_STACK_SIZE
ON_LINUX = sys.platform.startswith("linux")


def expected_cap():
    """threads.c's cap: max(8, 2 * the CPUs of the affinity mask), at most 1024."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(max(8, 2 * cpus), _threads.MAX_THREADS)


POOL_FOOTPRINT_PRELUDE = """
    import os, time, numpy as np, crtrig
    from crtrig import _core

    def os_threads():  # the threads of this process (Linux), or None
        return len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else None
"""


@no_address_space_limit_under_asan
@pytest.mark.skipif(not ON_LINUX, reason="RLIMIT_AS and /proc/self/status: Linux")
def test_a_thousand_threads_fit_in_a_limited_address_space():
    """Issue N6: set_num_threads(1024) and one large call under `ulimit -v`
    started 468 workers of 8 MiB of stack each, took the whole address space,
    and later allocations failed.  In a fresh process limited to 2 GiB of
    address space beyond what it already maps: the large call is exact, the
    pool stays within its cap, a 1 GiB array can still be made and written,
    and lowering the count to 1 retires every worker."""
    code = POOL_FOOTPRINT_PRELUDE + """
    import resource

    def mapped_bytes():
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))

    x = np.linspace(-1e3, 1e3, 1 << 22, dtype=np.float32)  # 16384 blocks: enough for 1024 threads
    crtrig.set_num_threads(1)
    want = crtrig.sin(x)
    limit = mapped_bytes() + (2 << 30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    crtrig.set_num_threads(1024)
    got = crtrig.sin(x)
    stats = _core.pool_stats()
    try:
        big = np.ones(1 << 27)  # 1 GiB, every page written
    except MemoryError:
        raise SystemExit(f"no room for 1 GiB after the call: {stats['workers']} workers, "
                         f"{mapped_bytes() >> 20} MiB mapped, limit {limit >> 20} MiB")
    assert big.sum() == 1 << 27
    del big
    assert got.tobytes() == want.tobytes()
    assert stats["parallel_jobs"] == 1 and crtrig.get_num_threads() == 1024, stats
    cap = _core.pool_details()["max_threads_per_call"]
    assert stats["workers"] == cap - 1, (stats, cap)
    crtrig.set_num_threads(1)
    assert _core._wait_for_pool_workers(0) == 0, _core.pool_stats()
    print(stats["workers"], cap)
    """
    result = run_python(code)
    assert result.returncode == 0, result.stdout + result.stderr
    workers, cap = map(int, result.stdout.split())
    assert cap == expected_cap() and workers == cap - 1


def test_set_num_threads_above_the_cap_is_accepted_and_capped():
    """Any count up to 1024 is accepted and reported as set; a call runs on at
    most the cap, max(8, 2 * CPUs available), so the pool starts cap - 1
    workers, and the process has that many more threads, not 1023."""
    code = POOL_FOOTPRINT_PRELUDE + """
    before = os_threads()
    crtrig.set_num_threads(1024)
    x = np.linspace(-1e3, 1e3, 1 << 20, dtype=np.float32)  # 4096 blocks
    crtrig.sin(x)
    crtrig.hann_window(1 << 21)
    assert crtrig.get_num_threads() == 1024 and _core.thread_config()["num_threads"] == 1024
    workers = _core.pool_stats()["workers"]
    added = None if before is None else os_threads() - before
    print(workers, _core.pool_details()["max_threads_per_call"], added)
    """
    result = run_python(code)
    assert result.returncode == 0, result.stdout + result.stderr
    workers, cap, added = result.stdout.split()
    assert int(cap) == expected_cap() and int(workers) == int(cap) - 1
    assert added == "None" or int(added) == int(workers)


def test_lowering_the_thread_count_retires_workers():
    """Workers above a lowered count retire (their threads end): 4 threads,
    then 2 (workers 1 and 2 go, worker 0 stays), then 1 (none left); the
    test hook waits for the retirements, without sleeping.  Raised again,
    the pool grows back, and every result is exact on the way."""
    code = POOL_FOOTPRINT_PRELUDE + """
    x = np.linspace(-50, 50, 1 << 20, dtype=np.float32)
    crtrig.set_num_threads(1)
    want = crtrig.sin(x)
    baseline = os_threads()
    _core._require_all_workers(True)  # every worker takes part in each call

    def call(n):
        crtrig.set_num_threads(n)
        assert crtrig.sin(x).tobytes() == want.tobytes(), n
        return _core.pool_stats()["workers"]

    def wait_for_os_threads(n):  # the hook saw the workers leave; the kernel drops their tasks moments later
        if baseline is None:
            return
        deadline = time.monotonic() + 30
        while os_threads() != baseline + n:
            assert time.monotonic() < deadline, (os_threads(), baseline, n)
            time.sleep(0.001)

    assert call(4) == 3
    exits = _core.pool_details()["worker_exits"]
    crtrig.set_num_threads(2)
    assert _core._wait_for_pool_workers(1) == 1
    assert _core.pool_stats()["workers"] == 1 and _core.pool_details()["worker_exits"] == exits + 2
    wait_for_os_threads(1)
    assert call(2) == 1
    crtrig.set_num_threads(1)
    assert _core._wait_for_pool_workers(0) == 0
    assert _core.pool_details()["worker_exits"] == exits + 3
    wait_for_os_threads(0)
    assert call(1) == 0
    assert call(3) == 2  # grows back
    crtrig.set_num_threads(1)
    assert _core._wait_for_pool_workers(0) == 0
    print("ok")
    """
    result = run_python(code)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stdout + result.stderr


def test_workers_retire_while_other_threads_call():
    """Four Python threads make large calls while the main thread moves the
    count between 1 and 4 (workers retire and start again, some while a call
    holds the pool: they wait for its release): every result is exact, and
    once the callers are done, lowering the count to 1 retires every worker."""
    x = np.random.default_rng(12).uniform(-1e3, 1e3, 1 << 18).astype(np.float32)
    use_threads(1)
    want = crtrig.sin(x).tobytes()
    want_window = crtrig.hann_window(1 << 18).tobytes()
    use_threads(4, threshold=65536)
    stop = threading.Event()
    errors = []

    def work():
        try:
            while not stop.is_set():
                if crtrig.sin(x).tobytes() != want or crtrig.hann_window(1 << 18).tobytes() != want_window:
                    errors.append("differs")
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(repr(error))

    exits = _core.pool_details()["worker_exits"]
    callers = [threading.Thread(target=work) for _ in range(4)]
    try:
        for t in callers:
            t.start()
        for round in range(40):
            crtrig.set_num_threads((1, 4, 2, 4)[round % 4])
            crtrig.sin(x)  # the main thread calls too, so the pool is claimed and released in between
    finally:
        stop.set()
        for t in callers:
            if t.ident is not None:
                t.join(timeout=120)
    assert not any(t.is_alive() for t in callers) and errors == []
    crtrig.set_num_threads(1)
    assert _core._wait_for_pool_workers(0) == 0, _core.pool_stats()
    assert _core.pool_details()["worker_exits"] > exits


def test_workers_run_on_a_small_stack():
    """Each worker asks for a 256 KiB stack (not the system's default, 8 MiB
    on Linux, the address space `ulimit -v` counts) and reports, from inside
    the worker, the stack it got (Linux, macOS, Windows 8+)."""
    code = POOL_FOOTPRINT_PRELUDE + """
    before = _core.pool_details()
    crtrig.set_num_threads(3)
    _core._require_all_workers(True)  # both workers run (and report their stack) before the call ends
    crtrig.hann_window(1 << 20)
    after = _core.pool_details()
    assert _core.pool_stats()["workers"] == 2
    print(before["stack_size"], before["worker_stack_size"], after["stack_size"], after["worker_stack_size"])
    """
    result = run_python(code)
    assert result.returncode == 0, result.stdout + result.stderr
    asked_before, seen_before, asked, seen = map(int, result.stdout.split())
    assert asked_before == asked == WORKER_STACK and seen_before == 0
    if sys.platform.startswith(("linux", "darwin", "win")):
        # a sanitizer's runtime may enlarge small stacks for its own use (ThreadSanitizer does)
        assert WORKER_STACK <= seen <= 2 * WORKER_STACK, seen


def _large_sin_bits(count):
    """Worker for the child-process tests: a large split call, as bits, with
    the pool statistics of the process it ran in."""
    crtrig.set_num_threads(count)
    x = np.linspace(-20, 20, 1 << 18, dtype=np.float32)
    result = crtrig.sin(x).view(np.uint32).copy()
    window = crtrig.hann_window(1 << 18)  # float32: splits from 2^18 (claim_weight)
    return result, window, _core.pool_stats(), os.getpid()


START_METHODS = multiprocessing.get_all_start_methods()  # "fork" where the platform has it


@pytest.mark.parametrize("method", START_METHODS)
def test_pool_in_child_processes(method):
    """After the pool has run here, child processes (forked ones inherit this
    process's memory, without its worker threads) start their own pool on
    their first large call, and get the same bits."""
    use_threads(2, threshold=65536)
    want, want_window, _, _ = _large_sin_bits(2)
    assert _core.pool_stats()["workers"] >= 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # 3.12+: fork of a multi-threaded process
        with multiprocessing.get_context(method).Pool(2) as pool:
            results = pool.map_async(_large_sin_bits, [2, 3, 2, 3]).get(timeout=120)
    for bits, window, stats, pid in results:
        assert pid != os.getpid()
        assert bits.tobytes() == want.tobytes() and window.tobytes() == want_window.tobytes()
        assert 1 <= stats["workers"] <= 2 and stats["parallel_jobs"] >= 2


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_os_fork_while_the_pool_is_idle_and_while_it_works():
    """os.fork() directly: once after a large call, and once while another
    Python thread is inside large calls (the pool may be busy at the fork).
    The child's first large call starts a fresh pool (0 workers before it)."""
    use_threads(2, threshold=65536)
    x = np.linspace(-20, 20, 1 << 18, dtype=np.float32)
    want = crtrig.sin(x)
    stop = threading.Event()

    def busy():
        while not stop.is_set():
            crtrig.cos(x)

    for while_busy in (False, True):
        worker = threading.Thread(target=busy) if while_busy else None
        if worker:
            worker.start()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # the child: never return into pytest
            code = 1
            try:
                fresh = _core.pool_stats()["workers"] == 0
                ok = crtrig.sin(x).tobytes() == want.tobytes()
                started = _core.pool_stats()["workers"] == 1
                code = 0 if fresh and ok and started else 3
            finally:
                os._exit(code)
        stop.set()
        if worker:
            worker.join()
        stop.clear()
        assert wait_for_child(pid, timeout=120) == 0, while_busy


def wait_for_child(pid, timeout):
    """The child's exit code; a child still running after `timeout` seconds is
    killed and reported as "hung"."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return "hung"


def test_interpreter_exits_cleanly_with_the_pool_running():
    """Workers never touch Python: a script that used the pool, and one that
    exits while a daemon thread is inside large calls, exit with status 0."""
    code = """
        import sys, threading, numpy as np, crtrig
        crtrig.set_num_threads(2)
        x = np.linspace(-5, 5, 1 << 20, dtype=np.float32)
        crtrig.sin(x)
        crtrig.hann_window(1 << 20)
        if sys.argv[-1] == "daemon":
            started = threading.Event()
            def forever():
                while True:
                    started.set()
                    crtrig.cos(x)
                    crtrig.blackman_window(1 << 19, dtype="float64")
            threading.Thread(target=forever, daemon=True).start()
            started.wait()
        print("done")
    """
    for mode in ("plain", "daemon"):
        result = subprocess.run([sys.executable, "-c", textwrap.dedent(code), mode], capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == 0 and result.stdout.strip() == "done", (mode, result.stderr)


def test_loops_run_without_the_gil_through_the_pool():
    use_threads(2)
    _core._gil_probe_sin(np.ones(100000, dtype=np.float32))
    assert _core.gil_probe_result()[1] == 0


# ---------------------------------------------------------------------------
# The thread count: API, environment variable, default
# ---------------------------------------------------------------------------


def test_set_and_get_num_threads():
    for n in (1, 2, 5, np.int64(3), np.uint8(4), _threads.MAX_THREADS):
        crtrig.set_num_threads(n)
        assert crtrig.get_num_threads() == int(n) and type(crtrig.get_num_threads()) is int
    assert _core.thread_config()["chosen_by"] == "set_num_threads"
    crtrig.set_num_threads(2)
    for bad in (0, -1, -(2 ** 70), _threads.MAX_THREADS + 1, 2 ** 70):
        with pytest.raises(ValueError, match="from 1 to 1024"):
            crtrig.set_num_threads(bad)
    for bad in (True, False, np.True_, 2.0, np.float32(2), "2", b"2", None, [2], np.array([2])):
        with pytest.raises(TypeError, match="int from 1 to 1024"):
            crtrig.set_num_threads(bad)
    assert crtrig.get_num_threads() == 2
    assert "set_num_threads" in crtrig.__all__ and "get_num_threads" in crtrig.__all__


def test_the_setting_is_process_wide():
    crtrig.set_num_threads(3)
    seen = []
    t = threading.Thread(target=lambda: (seen.append(crtrig.get_num_threads()), crtrig.set_num_threads(5)))
    t.start()
    t.join()
    assert seen == [3] and crtrig.get_num_threads() == 5


def test_one_thread_means_no_pool():
    use_threads(1)
    before = _core.pool_stats()
    crtrig.sin(np.ones(1 << 18, np.float32))
    crtrig.hann_window(1 << 18)
    assert _core.pool_stats()["parallel_jobs"] == before["parallel_jobs"]


def test_thread_config_for_show_config():
    config = _core.thread_config()
    assert set(config) == {"num_threads", "chosen_by", "detail", "max_threads", "parallel_threshold", "method"}
    assert config["num_threads"] == crtrig.get_num_threads()
    assert config["max_threads"] == 1024 and config["method"] in ("pthreads", "win32")
    assert config["parallel_threshold"] == 65536


def test_environment_unset_means_the_default():
    assert _threads.threads_from_environment(None) is None
    assert _threads.threads_from_environment(None, "OMP_NUM_THREADS") is None


@pytest.mark.parametrize("raw, count", [("1", 1), ("4", 4), (b"16", 16), ("0007", 7), ("1024", 1024)])
@pytest.mark.parametrize("name", _threads.ENVIRONMENT_VARIABLES)
def test_environment_thread_counts(raw, count, name):
    assert _threads.threads_from_environment(raw, name) == count


@pytest.mark.parametrize("name", _threads.ENVIRONMENT_VARIABLES)
def test_over_long_thread_counts_are_out_of_range_and_cut_in_the_message(name):
    """More than 4300 digits: int() itself would refuse them (and crtrig failed
    to import with its traceback); the message quotes at most 40 characters."""
    for raw in ("9" * 5000, "0" * 4999 + "2", b"7" * 5000):
        if raw == "0" * 4999 + "2":
            assert _threads.threads_from_environment(raw, name) == 2
            continue
        with pytest.raises(ValueError, match=f"^{name}=.* is out of range") as caught:
            _threads.threads_from_environment(raw, name)
        assert len(str(caught.value)) < 150 and "(5000 characters)" in str(caught.value)


def test_over_long_thread_count_at_import_is_a_warning():
    result = run_python(THREADS_AT_IMPORT, env={"CRTRIG_NUM_THREADS": "9" * 5000, "OMP_NUM_THREADS": "1"})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["1", "OMP_NUM_THREADS"] and len(lines) == 2 and len(lines[1]) < 250, lines


def test_set_num_threads_with_a_huge_int_gets_the_usual_short_message():
    with pytest.raises(ValueError, match=r"^crtrig.set_num_threads: n must be from 1 to 1024; got an integer of "
                                         r"16610 bits$"):
        crtrig.set_num_threads(10 ** 5000)


def test_omp_num_threads_list_gives_its_outermost_level():
    assert _threads.threads_from_environment("4,2", "OMP_NUM_THREADS") == 4
    with pytest.raises(ValueError, match="CRTRIG_NUM_THREADS"):
        _threads.threads_from_environment("4,2", "CRTRIG_NUM_THREADS")


@pytest.mark.parametrize("raw", ["", b"", "0", "-1", "+2", " 2", "2 ", "2.0", "1e3", "1e9", "abc", "1025",
                                 "99999999999999999999", "\u0663", "２", b"\xff", b"4\x00"])
@pytest.mark.parametrize("name", _threads.ENVIRONMENT_VARIABLES)
def test_environment_bad_values_are_value_errors_naming_the_variable(raw, name):
    with pytest.raises(ValueError, match=f"^{name}=.*accepted: a whole number from 1 to 1024"):
        _threads.threads_from_environment(raw, name)


THREADS_AT_IMPORT = """
    import warnings
    warnings.simplefilter("always")
    with warnings.catch_warnings(record=True) as caught:
        import crtrig
    from crtrig import _core
    print(crtrig.get_num_threads(), _core.thread_config()["chosen_by"])
    for w in caught:
        print(w.category.__name__, w.message)
"""


def test_environment_variables_at_import():
    """CRTRIG_NUM_THREADS, else OMP_NUM_THREADS, else the CPUs available."""
    cpus = str(min(_threads.available_cpus()[0], 1024))
    for env, want in [({"CRTRIG_NUM_THREADS": "3"}, ["3", "CRTRIG_NUM_THREADS"]),
                      ({"OMP_NUM_THREADS": "1"}, ["1", "OMP_NUM_THREADS"]),
                      ({"OMP_NUM_THREADS": "3,1"}, ["3", "OMP_NUM_THREADS"]),
                      ({"CRTRIG_NUM_THREADS": "2", "OMP_NUM_THREADS": "1"}, ["2", "CRTRIG_NUM_THREADS"]),
                      ({}, [cpus, "default"])]:
        result = run_python(THREADS_AT_IMPORT, env=env)
        assert result.returncode == 0 and result.stdout.split() == want, (env, result.stdout, result.stderr)


@pytest.mark.parametrize("value", ["abc", "", "0", "-1", "1e9"])
@pytest.mark.parametrize("name", _threads.ENVIRONMENT_VARIABLES)
def test_malformed_thread_variable_warns_and_import_succeeds(name, value):
    """A bad value never makes the import fail: a RuntimeWarning names the
    variable, its value and the count used instead (the next variable's, or
    the CPUs available)."""
    cpus = str(min(_threads.available_cpus()[0], 1024))
    env = {name: value}
    if name == "CRTRIG_NUM_THREADS":
        env["OMP_NUM_THREADS"] = "1"
        want, used = ["1", "OMP_NUM_THREADS"], "using OMP_NUM_THREADS=1"
    else:
        want, used = [cpus, "default"], f"using {cpus}, {cpus} CPUs available"
    result = run_python(THREADS_AT_IMPORT, env=env)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == want, lines
    assert len(lines) == 2 and lines[1].startswith(f"RuntimeWarning crtrig: {name}={value!r} is "), lines
    assert used in lines[1] and "accepted: a whole number from 1 to 1024" in lines[1], lines


def test_default_is_the_cpus_available():
    """With the affinity mask narrowed to one CPU (where the platform can), the
    default is 1; otherwise it is the CPU count (or a cgroup quota below it)."""
    code = """
        import crtrig
        from crtrig import _core
        print(crtrig.get_num_threads(), _core.thread_config()["detail"])
    """
    if hasattr(os, "sched_setaffinity"):
        narrowed = "import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\n" + textwrap.dedent(code)
        result = run_python(narrowed)
        assert result.returncode == 0 and result.stdout.split()[:2] == ["1", "1"], result.stderr
        assert "sched_getaffinity" in result.stdout
        want = min(len(os.sched_getaffinity(0)), (_threads.cgroup_cpu_limit() or (10 ** 6,))[0])
    else:
        want = min(os.cpu_count() or 1, (_threads.cgroup_cpu_limit() or (10 ** 6,))[0])
    result = run_python(code)
    assert result.returncode == 0 and result.stdout.split()[0] == str(min(want, 1024)), result.stderr


def fake_root(tmp_path, cgroup, files):
    (tmp_path / "proc/self").mkdir(parents=True)
    (tmp_path / "proc/self/cgroup").write_text(cgroup)
    for name, text in files.items():
        path = tmp_path / "sys/fs/cgroup" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(tmp_path)


@pytest.mark.parametrize("cgroup, files, want", [
    ("0::/\n", {"cpu.max": "max 100000\n"}, None),
    ("0::/\n", {"cpu.max": "200000 100000\n"}, (2, "cgroup v2 cpu.max")),
    ("0::/\n", {"cpu.max": "150000 100000\n"}, (2, "cgroup v2 cpu.max")),
    ("0::/\n", {"cpu.max": "5000 100000\n"}, (1, "cgroup v2 cpu.max")),
    ("0::/a/b\n", {"a/cpu.max": "300000 100000\n", "a/b/cpu.max": "max 100000\n"}, (3, "cgroup v2 cpu.max")),
    ("0::/a/b\n", {"a/cpu.max": "300000 100000\n", "a/b/cpu.max": "100000 100000\n"}, (1, "cgroup v2 cpu.max")),
    ("0::/gone\n", {"cpu.max": "400000 100000\n"}, (4, "cgroup v2 cpu.max")),
    ("0::/\n", {"cpu.max": "garbage\n"}, None),
    ("2:cpuacct:/\n1:cpu:/\n0::/\n", {"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),
    ("4:cpu,cpuacct:/docker/x\n", {"cpu,cpuacct/cpu.cfs_quota_us": "250000\n",
                                   "cpu,cpuacct/cpu.cfs_period_us": "100000\n"}, (3, "cgroup v1 cpu.cfs_quota_us")),
    ("1:cpu:/x\n", {"cpu/x/cpu.cfs_quota_us": "100000\n", "cpu/x/cpu.cfs_period_us": "50000\n"},
     (2, "cgroup v1 cpu.cfs_quota_us")),
    ("4:memory:/x\n", {"cpu/cpu.cfs_quota_us": "100000\n", "cpu/cpu.cfs_period_us": "50000\n"}, None),
])
def test_cgroup_cpu_quota(tmp_path, cgroup, files, want):
    assert _threads.cgroup_cpu_limit(fake_root(tmp_path, cgroup, files)) == want


def test_no_cgroup_information(tmp_path):
    assert _threads.cgroup_cpu_limit(str(tmp_path)) is None


def test_verify_workers_use_one_thread():
    crtrig.set_num_threads(2)
    with multiprocessing.get_context().Pool(1, initializer=verify.single_threaded_worker) as pool:
        assert pool.apply(crtrig.get_num_threads) == 1
    assert crtrig.get_num_threads() == 2


# ---------------------------------------------------------------------------
# Beyond one machine: dask.distributed
# ---------------------------------------------------------------------------


def test_dask_distributed_local_cluster():
    """crtrig.sin on a dask array, computed by a local dask.distributed cluster
    (one worker, two threads, in this process): the ufunc goes through
    __array_ufunc__, each task is a crtrig call on a chunk (large enough for
    the pool), and the result is bit-identical to the whole-array call."""
    import dask.array as da  # in the test extra: an import error fails, never skips
    import distributed
    use_threads(2, threshold=65536)
    x = np.random.default_rng(4).uniform(-1e3, 1e3, 1 << 19).astype(np.float32)
    want = crtrig.sin(x)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        d = da.from_array(x, chunks=1 << 17)
        result = crtrig.sin(d)
        assert isinstance(result, da.Array)
        got = client.compute(result).result()
    assert got.tobytes() == want.tobytes()


def test_dask_worker_processes_use_one_crtrig_thread_each():
    """dask's nanny starts each worker process with OMP_NUM_THREADS=1 (its
    distributed.nanny.pre-spawn-environ), as it does for the BLAS libraries: a
    2-worker cluster on 2 cores then runs one crtrig thread per worker, not two
    (oversubscribed), and the chunks computed there are still exact."""
    import dask.array as da
    import distributed

    x = np.random.default_rng(6).uniform(-1e3, 1e3, 1 << 18).astype(np.float32)
    want = crtrig.sin(x)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        counts = client.run(lambda: (__import__("crtrig").get_num_threads(),
                                     __import__("crtrig")._core.thread_config()["chosen_by"]))
        got = client.compute(crtrig.sin(da.from_array(x, chunks=1 << 16))).result()
    assert len(counts) == 2 and set(counts.values()) == {(1, "OMP_NUM_THREADS")}, counts
    assert got.tobytes() == want.tobytes()


# ---------------------------------------------------------------------------
# threadpoolctl
# ---------------------------------------------------------------------------


def test_threadpoolctl_lists_and_limits_the_pool():
    """threadpool_info() lists crtrig's pool (the loaded crtrig._core), and
    threadpool_limits(1) makes crtrig run on one thread inside the block: a
    large call there runs no parallel job; the count comes back after it."""
    import threadpoolctl

    use_threads(2)
    (info,) = [entry for entry in threadpoolctl.threadpool_info() if entry["user_api"] == "crtrig"]
    assert info["internal_api"] == "crtrig" and info["num_threads"] == 2 and info["version"] == crtrig.__version__
    assert os.path.samefile(info["filepath"], _core.__file__)
    x = np.ones(1 << 18, np.float32)
    for limits in ({"limits": 1}, {"limits": 1, "user_api": "crtrig"}, {"limits": {"crtrig": 1}}):
        with threadpoolctl.threadpool_limits(**limits):
            assert crtrig.get_num_threads() == 1
            before = parallel_jobs()
            crtrig.sin(x)
            assert parallel_jobs() == before
        assert crtrig.get_num_threads() == 2
    controller = threadpoolctl.ThreadpoolController().select(user_api="crtrig")
    with controller.limit(limits=1):
        assert crtrig.get_num_threads() == 1
    assert crtrig.get_num_threads() == 2


def test_threadpoolctl_imported_before_crtrig():
    code = """
        import threadpoolctl
        import crtrig
        crtrig.set_num_threads(2)
        with threadpoolctl.threadpool_limits(1):
            print(crtrig.get_num_threads())
        print([e["num_threads"] for e in threadpoolctl.threadpool_info() if e["user_api"] == "crtrig"])
    """
    result = run_python(code)
    assert result.returncode == 0 and result.stdout.split("\n")[:2] == ["1", "[2]"], result.stdout + result.stderr
