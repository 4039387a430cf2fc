"""Command line: ``crtrig COMMAND ...`` (the console script) or ``python -m crtrig COMMAND ...``.

Commands are argparse subparsers, one row of COMMANDS each: the module that
provides a command exposes ``configure_parser(parser)``, which adds its
arguments and sets ``func`` to a callable taking the parsed arguments and
returning the exit status.  ``args.program`` holds the command's name as it
was called ("crtrig cases" or "python -m crtrig cases"), for messages.

Only the module of the command being run is imported: a first pass finds the
command, a second configures that one.  So one command's optional
dependencies (onnx, say) cost the others nothing, and a command whose module
cannot be imported still gets a one-line error (exit status 2).

Every argument error is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

#: (name, module providing configure_parser, one-line help, description).
#: The ``cases`` command is configured by ``conformance.vectors``: the runner of
#: ``conformance/cases.py`` plus the generators ``--fill`` and ``--new``.
COMMANDS = (
    ("cases", "conformance.vectors", "run JSON case files against crtrig, or fill / generate them",
     "Run JSON case files (default: those shipped with crtrig) against crtrig's "
     "implementation and print one line per case; or write exact expected data into a "
     "case file (--fill), or build one from scratch (--new)."),
    ("verify", "devtools.verify", "check crtrig's sin/cos against an independent oracle",
     "Check crtrig.sin or crtrig.cos on every (--exhaustive) or on random (--sample N) "
     "bit patterns of a float type against an oracle that does not use crtrig's C core: "
     "glibc's x87 long double sinl/cosl with a margin for float32, exact arithmetic for "
     "the inputs near a rounding boundary and for float16/bfloat16/float64; or the "
     "hard-to-round inputs listed in worst-case files (--worst-cases)."),
    ("grade", "conformance.grade", "grade another implementation's results against the exact values",
     "Grade another implementation: for each case of a case file, the largest ULP "
     "distance of its results from the correctly rounded values and the share of "
     "results that are not correctly rounded."),
    ("onnx-fold", "conformance._onnx_fold_cli",
     "replace the constant-size windows of an ONNX model by exact initializers",
     "Write a copy of an ONNX model in which every HannWindow, HammingWindow and "
     "BlackmanWindow node with a constant size is an initializer holding crtrig's "
     "correctly rounded window (needs the onnx package)."),
    ("bench", "devtools.bench", "time crtrig next to numpy, scipy, torch and onnxruntime",
     "Time crtrig's sin/cos and windows next to numpy, scipy, torch and onnxruntime (those "
     "installed), in one process, every contender on one thread and timed the same way; "
     "print ns per element and speedups."),
    ("compare", "devtools.compare", "compare the accuracy of crtrig and the installed peers",
     "Run the same windows and sin/cos inputs through crtrig, numpy, scipy, torch, "
     "onnxruntime and onnx.reference (those installed) and print, per peer, the share of "
     "results not correctly rounded and the largest distance in ULPs, each judged by "
     "crtrig.reference against the peer's own definition."),
)


class OneLineErrorParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage block), exit 2.

    Subparsers made by add_subparsers() are of the same class."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())} (see {self.prog} --help)\n")

    def parse_known_args(self, args=None, namespace=None):
        # Kept for _VersionAction, which must see whether anything else was given.
        self._all_arguments = sys.argv[1:] if args is None else list(args)
        return super().parse_known_args(args, namespace)


def program_name() -> str:
    """How crtrig was called: "python -m crtrig" (with the interpreter's
    name) when run as a module, else "crtrig" (the console script, or
    main() called from Python)."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name == "crtrig.__main__":
        return f"{os.path.basename(sys.executable) or 'python'} -m crtrig"
    return "crtrig"


def version_text() -> str:
    """``crtrig --version``: crtrig, the SIMD target, numpy, ml_dtypes, Python."""
    import platform  # only --version needs it: the commands' --help does not pay for it

    import numpy

    from ._config import ml_dtypes_version
    from ._version import __version__

    try:
        from . import _core
    except ImportError as exc:
        target = f"unavailable (crtrig._core is not built: {exc})"
    else:
        supported = ", ".join(name for name in _core._supported_target_slots() if name is not None)
        target = f"{_core.SIMD_TARGET} (this CPU supports: {supported}; CRTRIG_TARGET overrides)"
    return (
        f"crtrig {__version__}\n"
        f"SIMD target: {target}\n"
        f"numpy {numpy.__version__}\n"
        f"ml_dtypes {ml_dtypes_version()}\n"
        f"Python {platform.python_version()} ({platform.python_implementation()}, "
        f"{platform.system()} {platform.machine()})\n"
    )


class _VersionAction(argparse.Action):
    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        # ``crtrig --version`` alone: anything else on the line (a command, a stray
        # word, --version twice) is a usage error rather than silently ignored.
        others = list(getattr(parser, "_all_arguments", None) or [option_string])
        if option_string in others:
            others.remove(option_string)
        else:  # an abbreviation such as --vers
            others.pop(0)
        if others:
            shown = repr(others[0]) if len(others[0]) <= 40 else repr(others[0][:40] + "...")
            parser.error(f"--version takes no other arguments; got {shown}")
        sys.stdout.write(version_text())
        parser.exit(0)


def _configure(command: argparse.ArgumentParser, module_name: str) -> None:
    """Let the command's module add its arguments; if it cannot be imported,
    make the command an error that says why."""
    try:
        module = importlib.import_module(f".{module_name}", __package__)
    except ImportError as exc:
        reason = " ".join(str(exc).split())[:200]

        def unavailable(args) -> int:
            print(f"{args.program}: error: this command cannot be loaded ({reason})", file=sys.stderr)
            return 2

        command.add_argument("arguments", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        command.set_defaults(func=unavailable)
        return
    module.configure_parser(command)


def build_parser(prog: str | None = None, command: str | None = None) -> argparse.ArgumentParser:
    """The parser of the crtrig command.  Every subcommand is listed; only
    ``command`` (None: every one) is configured, which imports its module."""
    parser = OneLineErrorParser(
        prog=program_name() if prog is None else prog,
        description="crtrig: correctly rounded ONNX window functions, Sin and Cos.",
    )
    parser.add_argument("--version", action=_VersionAction,
                        help="print the versions of crtrig, numpy, ml_dtypes and Python, "
                        "and the SIMD target, and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name, help_text, description in COMMANDS:
        configured = command is None or command == name
        subparser = commands.add_parser(name, help=help_text, description=description, add_help=configured)
        if configured:
            _configure(subparser, module_name)
        subparser.set_defaults(program=subparser.prog)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    for stream in (sys.stdout, sys.stderr):  # what the terminal cannot show: an escape, not a traceback
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    prog = program_name()
    # First pass: which command (no command module imported; --help and
    # --version of crtrig itself, and an unknown command, end here).
    requested, _ = build_parser(prog, command="").parse_known_args(argv)
    args = build_parser(prog, command=requested.command).parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        sys.stderr.close()
        return 1


if __name__ == "__main__":
    sys.exit(main())
