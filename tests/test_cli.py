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

from cli_helpers import cli  # noqa: E402  (tests/cli_helpers.py)

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
    assert status == "2" and "crtrig.conformance.cases" in modules.split()
    for other in ("crtrig.conformance.grade", "crtrig.devtools.verify", "crtrig.grade", "crtrig.verify"):
        assert other not in modules.split()


def test_a_command_whose_module_cannot_be_imported_is_a_one_line_error(monkeypatch, capsys):
    import crtrig.__main__ as entry

    monkeypatch.setattr(entry, "COMMANDS", entry.COMMANDS + (
        ("needs-extra", "_not_installed_module", "a command needing an extra", "..."),))
    assert cli_main(["needs-extra", "x", "--flag"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("crtrig needs-extra: error: this command cannot be loaded (")
    assert len(captured.err.splitlines()) == 1 and "_not_installed_module" in captured.err
    assert cli_main(["cases", "/nonexistent.json"]) == 2  # the others still work


# ---------------------------------------------------------------------------
# Argument values: bounded, cut in messages, no silent acceptance
# ---------------------------------------------------------------------------

#: int() refuses it (more than 4300 digits) ...
LONG = "9" * 5000
#: ... and reads this one, which is out of every range.
LONG_INT = "9" * 4000


def assert_short_usage_error(status, out, err, fragment=""):
    assert status == 2 and out == "", (status, out[-500:], err[-500:])
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err[-2000:]
    assert len(err) < 300 and "9" * 50 not in err, err[:500]
    assert fragment in err, err


@pytest.mark.parametrize("arguments", [
    ["onnx-fold", "in.onnx", "out.onnx", "--max-bytes", LONG],
    ["onnx-fold", "in.onnx", "out.onnx", "--max-bytes", "-" + LONG_INT],
    ["compare", "--seed", LONG],
    ["compare", "--seed", "-" + LONG_INT],
    ["compare", "--sizes", "2," + LONG],
    ["compare", "--sizes", LONG_INT],
    ["compare", "--samples", LONG_INT],
    ["bench", "--trig-size", LONG],
    ["bench", "--trig-size", LONG_INT],
    ["bench", "--window-sizes", "8," + LONG_INT],
    ["verify", "sin", "--sample", LONG_INT],
    ["verify", "sin", "--sample", LONG],
    ["verify", "sin", "--jobs", "-" + LONG_INT],
    ["verify", "sin", "--seed", "-" + LONG_INT],
    ["verify", "sin", "--margin-log2", LONG_INT],
    ["verify", "sin", "--progress-interval", LONG],
    ["cases", "--max-file-size", LONG_INT, "FILE"],
    ["cases", "--check-limit", LONG, "FILE"],
    ["grade", "FILE", "FILE", "--max-file-size", LONG_INT],
], ids=lambda arguments: " ".join(a[:12] for a in arguments))
def test_an_over_long_number_is_a_short_one_line_error(capsys, tmp_path, arguments):
    """A 5,000-digit value was echoed in full (onnx-fold --max-bytes, compare --seed/--sizes,
    bench --trig-size, verify's range errors) or made a traceback (cases and grade
    --max-file-size): now one line that quotes at most 40 characters, exit status 2, before
    any work."""
    case_file = tmp_path / "sin.json"
    case_file.write_text(json.dumps({"op": "ai.onnx.Sin", "cases": []}))
    arguments = [case_file if a == "FILE" else a for a in arguments]
    assert_short_usage_error(*cli(capsys, *arguments))


@pytest.mark.parametrize("arguments", [
    ["onnx-fold", "in.onnx", "out.onnx", "--max-bytes", LONG_INT],
    ["compare", "--seed", LONG_INT],
    ["verify", "sin", "--seed", LONG_INT],
], ids=lambda arguments: arguments[-2])
def test_unbounded_integer_options_are_bounded(capsys, arguments):
    """A seed or byte limit of 4,000 digits was accepted (and printed back in the report):
    such options take values below 2**64."""
    from crtrig.__main__ import build_parser

    with pytest.raises(SystemExit) as info:
        build_parser("crtrig", command=arguments[0]).parse_args(arguments)
    captured = capsys.readouterr()
    assert_short_usage_error(info.value.code, captured.out, captured.err, "2**64")
    build_parser("crtrig", command=arguments[0]).parse_args(arguments[:-1] + [str(2**64 - 1)])


@pytest.mark.parametrize("arguments, fragment", [
    (["compare", "--peers", "numpy,numpy"], "numpy"),
    (["compare", "--dtypes", "float32,float64,float32"], "float32"),
    (["compare", "--sizes", "16,17,16"], "16"),
    (["bench", "--peers", "scipy, numpy,scipy"], "scipy"),
    (["bench", "--window-sizes", "64,64"], "64"),
    (["verify", "sin", "--progress-interval", "1e-300"], "--progress-interval"),
    (["verify", "sin", "--progress-interval", "0.5"], "--progress-interval"),
    (["--version", "extra"], "--version"),
    (["--version", "cases"], "--version"),
    (["--version", "--version"], "--version"),
], ids=lambda value: " ".join(value) if isinstance(value, list) else None)
def test_meaningless_arguments_are_refused_not_ignored(capsys, arguments, fragment):
    """`--peers numpy,numpy` (and other repeated list items), `verify --progress-interval 1e-300`
    and `crtrig --version extra` were accepted silently: each is a one-line usage error now."""
    if arguments[0] == "--version":
        status, out, err = cli(capsys, *arguments)
    else:  # only the parser: before the fix these ran a whole benchmark or verification
        from crtrig.__main__ import build_parser

        with pytest.raises(SystemExit) as info:
            build_parser("crtrig", command=arguments[0]).parse_args(arguments)
        status, (out, err) = info.value.code, capsys.readouterr()
    assert_short_usage_error(status, out, err, fragment)
    if "--progress-interval" in arguments:
        assert "at least 1" in err
    elif "--version" not in arguments:
        assert "more than once" in err


def test_version_alone_still_prints_the_versions(capsys):
    status, out, err = cli(capsys, "--version")
    assert status == 0 and err == "" and out.startswith(f"crtrig {crtrig.__version__}\n")
    from crtrig.__main__ import build_parser

    args = build_parser("crtrig", command="verify").parse_args(["verify", "sin", "--progress-interval", "1"])
    assert args.progress_interval == 1.0


def test_version_with_extra_arguments_through_the_console_script():
    completed = run("module", "--version", "extra")
    assert completed.returncode == 2 and completed.stdout == "", completed
    assert len(completed.stderr.splitlines()) == 1 and "--version" in completed.stderr, completed.stderr
