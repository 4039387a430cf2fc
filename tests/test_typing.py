"""crtrig's type stubs (PEP 561): shipped, consistent with the runtime, and useful.

- The installed package holds py.typed and a .pyi stub for every public module.
- `mypy --strict` passes on every .py file of tests/typing/ (scripts that use
  the public API with typed assignments, e.g. check_api.py), in one run that
  also checks a file of wrong uses, each of which must be an error: so the
  stubs are precise enough to catch a wrong type, not only loose enough to pass.
- Each of those scripts runs with Python too (its asserts check that the
  run-time values have the types the stubs give).
- The stubs pass `mypy --strict` as code of their own, and mypy's stubtest
  finds every public name of every public module in them, with a signature
  that matches the runtime's.
- The string spellings the window overloads list resolve, at run time, to the
  type their overload returns.
"""
import ast
import importlib.util
import os
import pkgutil
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

import crtrig

HERE = os.path.dirname(os.path.abspath(__file__))
TYPING_DIR = os.path.join(HERE, "typing")
PACKAGE_DIR = os.path.dirname(os.path.abspath(crtrig.__file__))
TIMEOUT = 300  # mypy's first run builds numpy's stubs into a fresh cache: seconds here

def public_modules():
    """crtrig, crtrig.__main__ and every submodule and subpackage (crtrig.conformance,
    crtrig.devtools and theirs) whose name has no leading underscore."""
    names = ["crtrig", "crtrig.__main__"]
    names += [m.name for m in pkgutil.walk_packages(crtrig.__path__, "crtrig.")
              if not any(part.startswith("_") for part in m.name.split(".")[1:])]
    return names


def stub_path(module):
    """The stub of a module, or of a package (its __init__.pyi); by the import system's
    spec, not by the directory: the installed crtrig has a data directory cases/ next to
    the module cases.py."""
    parts = module.split(".")[1:]
    path = os.path.join(PACKAGE_DIR, *parts)
    if parts and importlib.util.find_spec(module).submodule_search_locations is None:
        return path + ".pyi"
    return os.path.join(path, "__init__.pyi")


def typing_scripts():
    return sorted(os.path.join(TYPING_DIR, name) for name in os.listdir(TYPING_DIR) if name.endswith(".py"))


def test_the_installed_package_holds_py_typed_and_a_stub_per_public_module():
    assert os.path.isfile(os.path.join(PACKAGE_DIR, "py.typed"))
    modules = public_modules()
    assert {"crtrig", "crtrig.reference", "crtrig.onnx", "crtrig.cases", "crtrig.conformance.cases",
            "crtrig.devtools.bench"} <= set(modules)
    missing = [m for m in modules if not os.path.isfile(stub_path(m))]
    assert not missing, f"public modules without a .pyi stub: {missing}"


def _mypy_command(tmp_path):
    """mypy --strict with an empty configuration (none of the tree's) and its cache in tmp_path."""
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n")
    return [sys.executable, "-m", "mypy", "--strict", "--config-file", str(config),
            "--cache-dir", str(tmp_path / "mypy_cache"), "--no-error-summary",
            "--show-error-codes", "--no-pretty", "--show-column-numbers"]


# Wrong uses of the API: each line marked `# error` must be a mypy error.
WRONG_USES = '''\
import numpy as np
import numpy.typing as npt

import crtrig
import crtrig.reference

f32: npt.NDArray[np.float32] = crtrig.hann_window(8, dtype=np.float64)  # error
f64: npt.NDArray[np.float64] = crtrig.blackman_window(8)  # error
buf32 = np.empty(8, np.float32)
f16: npt.NDArray[np.float16] = crtrig.hamming_window(8, out=buf32)  # error
half: npt.NDArray[np.float16] = crtrig.hann_window(8, dtype=np.float32)  # error
single: npt.NDArray[np.float32] = crtrig.hann_window(8, False, np.float16)  # error
i8: npt.NDArray[np.int8] = crtrig.hann_window(8, True, "uint8")  # error
u64: npt.NDArray[np.uint64] = crtrig.hann_window(8, dtype=np.dtype(np.int64))  # error
text_size = crtrig.hann_window("8")  # error
float_size = crtrig.hann_window(8.0)  # error
name: int = crtrig.simd_target()  # error
targets: list[str] = crtrig.simd_targets()  # error
floats = crtrig.reference.cosine_sum_window([0.54, 0.46], 5)  # error
bits: str = crtrig.reference.trig_bits("sin", 0.5, "float32")  # error
ok: npt.NDArray[np.float64] = crtrig.hann_window(8, dtype="f8")
'''


def test_mypy_strict_passes_on_the_typing_scripts_and_catches_wrong_types(tmp_path):
    scripts = typing_scripts()
    assert os.path.join(TYPING_DIR, "check_api.py") in scripts
    wrong = tmp_path / "wrong_uses.py"
    wrong.write_text(WRONG_USES)
    # Run in tmp_path, where mypy names the wrong uses "wrong_uses.py".
    run = subprocess.run(_mypy_command(tmp_path) + scripts + [wrong.name], cwd=tmp_path,
                         capture_output=True, text=True, timeout=TIMEOUT)
    output = run.stdout + run.stderr
    errors = [line for line in output.splitlines() if re.search(r":\d+:\d+: error:", line)]
    prefix = wrong.name + ":"
    in_scripts = [line for line in errors if not line.startswith(prefix)]
    assert not in_scripts, "mypy --strict found errors in tests/typing:\n" + output
    error_lines = {int(line[len(prefix):].split(":")[0]) for line in errors if line.startswith(prefix)}
    marked = {number for number, line in enumerate(WRONG_USES.splitlines(), 1) if line.endswith("# error")}
    assert error_lines == marked, (
        f"wrong uses mypy missed: lines {sorted(marked - error_lines)}; "
        f"errors on lines meant to pass: {sorted(error_lines - marked)}\n{output}")
    assert run.returncode == 1, output  # errors found (in the wrong uses only), no crash


@pytest.mark.parametrize("script", [os.path.basename(p) for p in typing_scripts()])
def test_typing_scripts_run(script, tmp_path):
    run = subprocess.run([sys.executable, os.path.join(TYPING_DIR, script)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=TIMEOUT)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_stubs_pass_mypy_strict_and_stubtest(tmp_path):
    """stubtest imports each public module and compares it with its stub: a public
    name missing from a stub (or only in one), a module without a stub, or a
    signature that disagrees is an error.  The stubs are copied alone onto
    MYPYPATH so that mypy reads them and not crtrig's untyped private modules."""
    stubs = tmp_path / "stubs" / "crtrig"
    stubs.mkdir(parents=True)
    for name in os.listdir(PACKAGE_DIR):
        if name.endswith(".pyi") or name == "py.typed":
            shutil.copy2(os.path.join(PACKAGE_DIR, name), stubs / name)
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nstrict = True\n")
    env = dict(os.environ, MYPYPATH=str(tmp_path / "stubs"))
    # The stubs themselves, as code of one's own: mypy --strict (unused ignores,
    # overlapping overloads, missing annotations...).
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--config-file", str(config),
                          "--cache-dir", str(tmp_path / "mypy_cache"), "-p", "crtrig"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert run.returncode == 0, run.stdout + run.stderr
    run = subprocess.run([sys.executable, "-m", "mypy.stubtest", "crtrig", "--mypy-config-file", str(config),
                          ],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert run.returncode == 0, run.stdout + run.stderr


def _dtype_code_aliases():
    """{scalar type name: [string spellings]} from crtrig/__init__.pyi's
    `_XCodes = Literal[...]` and `_XLike = type[np.x] | ... | _XCodes` aliases."""
    tree = ast.parse(open(os.path.join(PACKAGE_DIR, "__init__.pyi"), encoding="utf-8").read())
    codes, scalar_of = {}, {}
    for node in tree.body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value):
            continue
        name, value = node.target.id, node.value
        if name.endswith("Codes") and isinstance(value, ast.Subscript):
            elements = value.slice.elts if isinstance(value.slice, ast.Tuple) else [value.slice]
            codes[name] = [e.value for e in elements]
        elif name.endswith("Like"):
            text = ast.unparse(value)
            match = re.match(r"type\[np\.(\w+)\]", text)
            code_alias = re.search(r"\b(_\w+Codes)\b", text)
            if match and code_alias:
                scalar_of[code_alias.group(1)] = match.group(1)
    return {scalar_of[alias]: spellings for alias, spellings in codes.items() if alias in scalar_of}


def test_the_stubs_dtype_spellings_give_their_overloads_type():
    aliases = _dtype_code_aliases()
    assert set(aliases) == {"float16", "float32", "float64", "int8", "uint8", "int16", "uint16",
                            "int32", "uint32", "int64", "uint64"}
    for scalar_name, spellings in aliases.items():
        assert scalar_name in spellings
        for spelling in spellings:
            for window in (crtrig.hann_window, crtrig.hamming_window, crtrig.blackman_window):
                got = window(3, dtype=spelling).dtype.type
                assert got is getattr(np, scalar_name), (spelling, got, scalar_name)
