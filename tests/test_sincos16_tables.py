"""The float16 and bfloat16 result tables of crtrig.sin / crtrig.cos: built at first
use, once, thread-safely (many threads at first use, fork), inside the floating-point
environment of the call, with a clean fallback when their memory cannot be had.

Each scenario runs in a fresh interpreter (the tables are process state), which
prints the raw result bytes; the parent compares them with MPFR (tests/oracle.py)."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from crtrig import _core

import oracle

DTYPES = {"float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16)}
CODES = {"float16": 0, "bfloat16": 1}
_WANT = {}


def want(func, dtype):
    """MPFR's results for every bit pattern (computed once per session)."""
    key = (func, dtype)
    if key not in _WANT:
        x = np.arange(1 << 16, dtype=np.uint16).view(DTYPES[dtype])
        _WANT[key] = oracle.trig(func, x)
    return _WANT[key]


def same_bits(got, expected):
    """Bit-identical, except that any NaN matches any NaN."""
    with np.errstate(invalid="ignore"):
        nan_got = np.isnan(got.astype(np.float32))
        nan_want = np.isnan(expected.astype(np.float32))
    return bool(np.all((nan_got == nan_want) & (nan_want | (got.view(np.uint16) == expected.view(np.uint16)))))


PRELUDE = textwrap.dedent("""
    import json, os, sys, threading
    import numpy as np, ml_dtypes
    import crtrig
    from crtrig import _core
    DTYPES = {"float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16)}
    CODES = {"float16": 0, "bfloat16": 1}
    FUNCS = {"sin": crtrig.sin, "cos": crtrig.cos}
    def patterns(dtype):
        return np.arange(1 << 16, dtype=np.uint16).view(DTYPES[dtype])
    def hexbytes(a):
        return a.view(np.uint16).tobytes().hex()
""")


def run_child(body, timeout=300):
    """Run PRELUDE + body in a fresh interpreter; returns the JSON it prints last."""
    env = dict(os.environ)
    # the crtrig this process imported (the installed one in CI, src/ in an editable install)
    package_root = str(Path(_core.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([package_root] + [p for p in [env.get("PYTHONPATH")] if p])
    proc = subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(body)], capture_output=True,
                          text=True, timeout=timeout, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def from_hex(text, dtype):
    return np.frombuffer(bytes.fromhex(text), dtype=np.uint16).view(DTYPES[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
def test_many_threads_at_first_use_get_the_correct_table(dtype):
    """16 threads released together call sin and cos on every pattern of a format
    whose tables are not built yet: each table is built (by one or several of them,
    one is published) and every thread's results are the correctly rounded ones."""
    result = run_child(f"""
        dtype = {dtype!r}
        x = patterns(dtype)
        assert not _core.table16_built(0, CODES[dtype]) and not _core.table16_built(1, CODES[dtype])
        barrier = threading.Barrier(16)
        out = [None] * 16
        def work(i):
            barrier.wait()
            func = "sin" if i % 2 == 0 else "cos"
            with np.errstate(invalid="ignore"):
                out[i] = (func, hexbytes(FUNCS[func](x)), hexbytes(FUNCS[func](x[::-1])))
        threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
        for t in threads: t.start()
        for t in threads: t.join()
        built = [_core.table16_built(0, CODES[dtype]), _core.table16_built(1, CODES[dtype])]
        print(json.dumps({{"built": built, "out": out}}))
    """)
    assert result["built"] == [True, True]
    for func, forward, backward in result["out"]:
        assert same_bits(from_hex(forward, dtype), want(func, dtype)), func
        assert same_bits(from_hex(backward, dtype)[::-1], want(func, dtype)), func


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
@pytest.mark.parametrize("dtype", DTYPES)
def test_tables_after_fork(dtype):
    """A child forked after the parent built the sin table uses it; a child forked
    before the cos table exists builds its own; a child forked while other threads are
    at the first use of a table (possibly building it) completes with correct results."""
    result = run_child(f"""
        dtype = {dtype!r}
        code = CODES[dtype]
        x = patterns(dtype)
        def in_child(func):
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                try:
                    os.close(r)
                    before = _core.table16_built(0 if func == "sin" else 1, code)
                    with np.errstate(invalid="ignore"):
                        got = hexbytes(FUNCS[func](x))
                    after = _core.table16_built(0 if func == "sin" else 1, code)
                    os.write(w, json.dumps([before, after, got]).encode())
                finally:
                    os._exit(0)
            os.close(w)
            data = b""
            while True:
                chunk = os.read(r, 1 << 20)
                if not chunk: break
                data += chunk
            os.waitpid(pid, 0)
            return json.loads(data)
        with np.errstate(invalid="ignore"):
            crtrig.sin(x[:1])                      # builds the sin table only
        inherited = in_child("sin")
        fresh = in_child("cos")
        parent_cos_built = _core.table16_built(1, code)
        # forks racing with threads at the first use of the cos table
        stop = threading.Event()
        def hammer():
            while not stop.is_set():
                with np.errstate(invalid="ignore"):
                    crtrig.cos(x)
        threads = [threading.Thread(target=hammer) for _ in range(3)]
        for t in threads: t.start()
        racing = [in_child("cos") for _ in range(3)]
        stop.set()
        for t in threads: t.join()
        print(json.dumps({{"inherited": inherited, "fresh": fresh, "parent_cos_built": parent_cos_built,
                          "racing": racing}}))
    """)
    before, after, got = result["inherited"]
    assert before and after and same_bits(from_hex(got, dtype), want("sin", dtype))
    before, after, got = result["fresh"]
    assert not before and after and same_bits(from_hex(got, dtype), want("cos", dtype))
    assert result["parent_cos_built"] is False   # the child's table stayed in the child
    for before, after, got in result["racing"]:
        assert after and same_bits(from_hex(got, dtype), want("cos", dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_table_built_under_a_hostile_environment(dtype):
    """The first call is made with rounding upward, FTZ and DAZ set (one C call, the
    table built inside it): the call's own results and every later call's are the
    correctly rounded values."""
    result = run_child(f"""
        dtype = {dtype!r}
        x = patterns(dtype)
        got, before, after = _core.trig_under_fpenv(-1, 0, x, "upward", True, True)
        assert before["rounding"] == "upward" and before["ftz"] and before["daz"]
        built = _core.table16_built(0, CODES[dtype])
        with np.errstate(invalid="ignore"):
            later = crtrig.sin(x)
        print(json.dumps({{"built": built, "first": hexbytes(got), "later": hexbytes(later)}}))
    """)
    assert result["built"] is True
    assert same_bits(from_hex(result["first"], dtype), want("sin", dtype))
    assert same_bits(from_hex(result["later"], dtype), want("sin", dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_failed_table_allocation_falls_back_and_retries(dtype):
    """When the table's memory cannot be had, the call computes every element through
    the kernels (same results) and the next call builds the table.  One thread: on
    several, another participant of the same call may build the table after the
    first one's allocation failed."""
    result = run_child(f"""
        dtype = {dtype!r}
        x = patterns(dtype)
        crtrig.set_num_threads(1)
        _core.fail_allocation(1)
        with np.errstate(invalid="ignore"):
            first = crtrig.cos(x)
        left = _core.fail_allocation(0)
        built_after_failure = _core.table16_built(1, CODES[dtype])
        with np.errstate(invalid="ignore"):
            second = crtrig.cos(x)
        print(json.dumps({{"left": left, "built_after_failure": built_after_failure,
                          "built": _core.table16_built(1, CODES[dtype]),
                          "first": hexbytes(first), "second": hexbytes(second)}}))
    """)
    assert result["left"] == 0                  # the failed allocation was the table's
    assert result["built_after_failure"] is False and result["built"] is True
    assert same_bits(from_hex(result["first"], dtype), want("cos", dtype))
    assert same_bits(from_hex(result["second"], dtype), want("cos", dtype))


def test_hooks_bypass_the_tables_and_refuse_bad_arguments():
    """The per-target hooks compute through the kernels (stage counts show the first
    pass at work), so the tests of each target's kernels test kernels, not tables."""
    x = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    with np.errstate(invalid="ignore"):
        _, counts = _core.trig_strided(0, 0, x)
    assert counts["double"] > 60000
    with pytest.raises(ValueError):
        _core.table16_built(2, 0)
    with pytest.raises(ValueError):
        _core.table16_built(0, 2)
