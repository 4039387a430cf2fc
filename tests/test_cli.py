"""The command line as users call it: the ``crtrig`` console script and
``python -m crtrig``: subcommands, --help, --version, and the program name in
messages (it follows how crtrig was called)."""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

import crtrig
from crtrig import _core
from crtrig.__main__ import COMMANDS, main as cli_main

#: The console script pip installs next to the interpreter (a venv's bin/ or Scripts/).
CONSOLE_SCRIPT = shutil.which("crtrig", path=os.path.dirname(sys.executable))
MODULE = f"{os.path.basename(sys.executable)} -m crtrig"
SPELLINGS = {"script": "crtrig", "module": MODULE}


def run(spelling: str, *arguments, timeout=120):
    """crtrig ARGS through the console script or as ``python -m crtrig``."""
    if spelling == "script":
        assert CONSOLE_SCRIPT is not None, (
            f"no crtrig console script next to {sys.executable}: install the package "
            "(pip install -e . or the wheel), which creates it from [project.scripts]")
        command = [CONSOLE_SCRIPT]
    else:
        command = [sys.executable, "-m", "crtrig"]
    return subprocess.run(command + [str(a) for a in arguments], capture_output=True, text=True,
                          timeout=timeout)


def test_every_command_is_registered_with_help(capsys):
    names = [name for name, *_ in COMMANDS]
    assert {"cases", "verify", "grade"} <= set(names)
    for name in names:
        with pytest.raises(SystemExit) as info:
            cli_main([name, "--help"])
        assert info.value.code == 0
        help_text = capsys.readouterr().out
        assert help_text.startswith(f"usage: crtrig {name} ") and "options:" in help_text.replace("optional arguments:", "options:")
    with pytest.raises(SystemExit) as info:
        cli_main(["--help"])
    help_text = capsys.readouterr().out
    assert info.value.code == 0 and all(name in help_text for name in names)


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_version_names_the_versions_and_the_simd_target(spelling):
    completed = run(spelling, "--version")
    assert completed.returncode == 0 and completed.stderr == "", completed
    lines = completed.stdout.splitlines()
    assert lines[0] == f"crtrig {crtrig.__version__}"
    assert lines[1].startswith(f"SIMD target: {_core.SIMD_TARGET} (this CPU supports: ")
    assert f"numpy {np.__version__}" in lines
    # the installed version, read without importing ml_dtypes (this process has imported it)
    assert lines[3].startswith(f"ml_dtypes {ml_dtypes.__version__} (not imported yet; "), lines
    assert lines[4].startswith(f"Python {platform.python_version()} ")


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_messages_name_the_program_as_it_was_called(tmp_path, spelling):
    """Argument errors (argparse) and run-time errors of each command start
    with "crtrig COMMAND:" or "python -m crtrig COMMAND:"."""
    program = SPELLINGS[spelling]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"op": "ai.onnx.Bogus", "cases": []}))
    checks = [
        (("cases", "--bogus"), f"{program}: error: unrecognized arguments: --bogus"),  # argparse's top level
        (("cases", "--check-limit", "0"), f"{program} cases: error: argument --check-limit: "),
        (("cases", bad), f"{program} cases: error: {bad}: unknown op"),
        (("cases", "--new", "Sin", "--sizes", "3", "-o", tmp_path / "x.json"),
         f"{program} cases: error: --sizes applies to windows"),
        (("grade", bad, bad), f"{program} grade: error: {bad}: unknown op"),
        (("verify", "sin", "--jobs", "100000"), f"{program} verify: error: --jobs 100000 is more than"),
    ]
    for arguments, start in checks:
        completed = run(spelling, *arguments)
        assert completed.returncode == 2 and completed.stdout == "", completed
        assert len(completed.stderr.splitlines()) == 1 and completed.stderr.startswith(start), completed.stderr


def test_only_the_command_being_run_is_imported():
    """`crtrig cases` imports neither grade nor verify (nor any later command's
    optional dependencies)."""
    code = ("import sys\n"
            "from crtrig.__main__ import main\n"
            "status = main(['cases', '--quiet', sys.argv[1]])\n"
            "print(status, ' '.join(sorted(m for m in sys.modules if m.startswith('crtrig.'))))\n")
    completed = subprocess.run([sys.executable, "-c", code, "/nonexistent.json"], capture_output=True, text=True,
                               timeout=120)
    status, modules = completed.stdout.split(" ", 1)
    assert status == "2" and "crtrig.cases" in modules.split()
    assert "crtrig.grade" not in modules.split() and "crtrig.verify" not in modules.split()


def test_a_command_whose_module_cannot_be_imported_is_a_one_line_error(monkeypatch, capsys):
    import crtrig.__main__ as entry

    monkeypatch.setattr(entry, "COMMANDS", entry.COMMANDS + (
        ("needs-extra", "_not_installed_module", "a command needing an extra", "..."),))
    assert cli_main(["needs-extra", "x", "--flag"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("crtrig needs-extra: error: this command cannot be loaded (")
    assert len(captured.err.splitlines()) == 1 and "_not_installed_module" in captured.err
    assert cli_main(["cases", "/nonexistent.json"]) == 2  # the others still work
