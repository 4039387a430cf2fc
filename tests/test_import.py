"""What ``import crtrig`` costs and needs: no heavy optional package is
imported (ml_dtypes' extension alone takes about a second to load), the
bfloat16 loops work whichever of crtrig and ml_dtypes is imported first, and
without ml_dtypes everything else works.  Each check runs in a fresh
interpreter.  (The time itself is measured with ``python -X importtime``,
never asserted here: machines are shared and noisy.)"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import crtrig
from crtrig.__main__ import COMMANDS

#: Packages that ``import crtrig``, ``crtrig --version`` and ``crtrig COMMAND --help`` must not import.
HEAVY = ("ml_dtypes", "onnx", "onnxruntime", "scipy", "matplotlib", "mpmath", "gmpy2", "torch", "pint",
         "astropy", "threadpoolctl", "dask")


def run_python(code: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("CRTRIG_NUM_THREADS", "OMP_NUM_THREADS")}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=os.path.dirname(os.path.dirname(crtrig.__file__)))


#: Modules that cost milliseconds to import and that only running a command needs
#: (subprocess: 6-7 ms; crtrig.conformance._junit's dataclasses: 1 ms; the compiled XML-character
#: class of crtrig.conformance._junit: 5 ms, checked through re's cache): ``import crtrig`` and ``--help`` must not import them
#: unless numpy already does on this interpreter.
LATE_STDLIB = ("subprocess", "multiprocessing", "importlib.resources", "crtrig.conformance._junit")


def heavy_imported_by(statement: str) -> list[str]:
    code = f"""
        import sys
        {statement}
        heavy = {HEAVY!r}
        print(" ".join(sorted(name for name in heavy if name in sys.modules)))
    """
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def late_stdlib_imported_by(statement: str) -> list[str]:
    """The LATE_STDLIB modules (and the _junit pattern) that ``statement`` brings in and
    ``import numpy`` alone does not."""
    code = f"""
        import re, sys
        import numpy
        before = set(sys.modules)
        {statement}
        late = [name for name in {LATE_STDLIB!r} if name in sys.modules and name not in before]
        import crtrig.conformance._junit
        if any(key[1] == crtrig.conformance._junit._NOT_XML_CHAR_PATTERN for key in re._cache):
            late.append("crtrig.conformance._junit's pattern")
        print(" ".join(late) or "-")
    """
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    return [] if result.stdout.split() == ["-"] else result.stdout.split()


def test_import_crtrig_imports_no_heavy_package():
    assert heavy_imported_by("import crtrig, crtrig.windows") == []


def test_import_crtrig_defers_the_slow_standard_modules():
    assert late_stdlib_imported_by("import crtrig, crtrig.windows") == []


def test_version_imports_no_heavy_package():
    statement = ("import contextlib, io\n        from crtrig.__main__ import main\n"
                 "        with contextlib.redirect_stdout(io.StringIO()) as out:\n"
                 "            try: main(['--version'])\n"
                 "            except SystemExit as e: assert e.code == 0\n"
                 "        assert 'ml_dtypes 0.' in out.getvalue() or 'ml_dtypes not installed' in out.getvalue()")
    assert heavy_imported_by(statement) == []


@pytest.mark.parametrize("command", [row[0] for row in COMMANDS])
def test_command_help_imports_no_heavy_package(command):
    statement = ("import contextlib, io\n        from crtrig.__main__ import main\n"
                 "        with contextlib.redirect_stdout(io.StringIO()) as out:\n"
                 f"            try: main([{command!r}, '--help'])\n"
                 "            except SystemExit as e: assert e.code == 0\n"
                 f"        assert 'usage:' in out.getvalue()")
    assert heavy_imported_by(statement) == []
    assert late_stdlib_imported_by(statement) == []


BFLOAT16_INPUTS = [0.5, 1.0, 3.0, -2.0, 1e30, 2.0 ** -130]

#: Prints the bits of crtrig's bfloat16 sin, cos and Hann window (after the imports it follows).
BFLOAT16_BITS = """
import json, numpy as np, ml_dtypes
x = np.array(%r, dtype=ml_dtypes.bfloat16)
results = [crtrig.sin(x), crtrig.cos(x), crtrig.hann_window(8, dtype="bfloat16"),
           crtrig.windows.hann(9, dtype="bfloat16")]
assert all(r.dtype == x.dtype for r in results), [r.dtype for r in results]  # bfloat16 loops, not float32's
print(json.dumps([r.view(np.uint16).tolist() for r in results]))
""" % (BFLOAT16_INPUTS,)


def bfloat16_bits_want():
    import json

    import ml_dtypes
    import numpy as np

    import oracle

    x = np.array(BFLOAT16_INPUTS, dtype=ml_dtypes.bfloat16)
    results = [oracle.trig("sin", x), oracle.trig("cos", x), oracle.window("hann", 8, True, "bfloat16"),
               oracle.window("hann", 9, False, "bfloat16")]
    return json.dumps([r.view(np.uint16).tolist() for r in results])


@pytest.mark.parametrize("imports", [
    "import crtrig\nimport ml_dtypes",
    "import ml_dtypes\nimport crtrig",
    # ml_dtypes brought in by another package after crtrig (onnx 1.19+ imports it)
    "import sys, crtrig\nassert 'ml_dtypes' not in sys.modules\nimport onnx\nassert 'ml_dtypes' in sys.modules",
], ids=["crtrig first", "ml_dtypes first", "through onnx"])
def test_bfloat16_loops_work_in_either_import_order(imports):
    """Against the MPFR oracle (tests/oracle.py), computed in this process."""
    result = run_python(imports + "\nimport crtrig.windows\n" + BFLOAT16_BITS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == bfloat16_bits_want()


def test_without_ml_dtypes_everything_but_bfloat16_works():
    code = """
        import sys
        sys.modules["ml_dtypes"] = None  # as if it were not installed: import raises ImportError
        import numpy as np
        import crtrig
        assert crtrig.sin(np.float32(1.0)) == np.float32(0.84147096)
        assert crtrig.hann_window(4).tolist() == [0.0, 0.5, 1.0, 0.5]
        assert crtrig.windows.hann(3).tolist() == [0.0, 1.0, 0.0]
        for call in (lambda: crtrig.hann_window(4, dtype="bfloat16"),
                     lambda: crtrig.windows.hann(4, dtype="bfloat16")):
            try:
                call()
            except ImportError as error:
                assert "bfloat16 needs ml_dtypes (pip install ml_dtypes)" in str(error), error
            else:
                raise AssertionError("no ImportError")
        crtrig.show_config(file=open("/dev/null", "w"))
        print("ok")
    """
    result = run_python(code)
    assert result.returncode == 0 and result.stdout == "ok\n", result.stderr


def test_crtrig_onnx_without_onnx_says_what_to_install():
    code = """
        import sys
        sys.modules["onnx"] = None  # as if onnx were not installed
        try:
            import crtrig.onnx
        except ImportError as error:
            print(type(error).__name__, error.__cause__, error.__suppress_context__)
            print(error)
    """
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    first, message = result.stdout.splitlines()
    assert first == "ImportError None True"  # one exception, no chained traceback from inside onnx
    assert "\n" not in message and 'pip install "crtrig[onnx]"' in message, message


def test_crtrig_onnx_without_onnx_in_a_traceback_is_one_error():
    result = run_python("import sys; sys.modules['onnx'] = None; import crtrig.onnx")
    assert result.returncode == 1
    assert "During handling" not in result.stderr and "ModuleNotFoundError" not in result.stderr, result.stderr
    assert result.stderr.rstrip().splitlines()[-1].startswith("ImportError: crtrig.onnx needs the onnx package")
