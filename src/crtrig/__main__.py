"""Command line: ``python -m crtrig COMMAND ...``.

Commands are argparse subparsers; each module that provides one exposes
``configure_parser(parser)``, which adds its arguments and sets ``func`` to a
callable taking the parsed arguments and returning the exit status.

Every argument error is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys

from . import _onnx_fold_cli, bench, cases, compare, verify


class OneLineErrorParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage block), exit 2.

    Subparsers made by add_subparsers() are of the same class."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineErrorParser(
        prog="python -m crtrig",
        description="crtrig: correctly rounded ONNX window functions, Sin and Cos.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    cases.configure_parser(
        commands.add_parser(
            "cases",
            help="run JSON case files against crtrig",
            description="Run JSON case files (default: those shipped with crtrig) "
            "against crtrig's implementation and print one line per case.",
        )
    )
    verify.configure_parser(
        commands.add_parser(
            "verify",
            help="check crtrig's sin/cos against an independent oracle",
            description="Check crtrig.sin or crtrig.cos on every (--exhaustive) or on "
            "random (--sample N) bit patterns of a float type against an oracle that "
            "does not use crtrig's C core: glibc's x87 long double sinl/cosl with a "
            "margin for float32, exact arithmetic for the inputs near a rounding "
            "boundary and for float16/bfloat16.",
        )
    )
    _onnx_fold_cli.configure_parser(
        commands.add_parser(
            "onnx-fold",
            help="replace the constant-size windows of an ONNX model by exact initializers",
            description="Write a copy of an ONNX model in which every HannWindow, "
            "HammingWindow and BlackmanWindow node with a constant size is an initializer "
            "holding crtrig's correctly rounded window (needs the onnx package).",
        )
    )
    compare.configure_parser(
        commands.add_parser(
            "compare",
            help="compare the accuracy of crtrig and the installed peers",
            description="Run the same windows and sin/cos inputs through crtrig, numpy, scipy, "
            "torch, onnxruntime and onnx.reference (those installed) and print, per peer, the "
            "share of results not correctly rounded and the largest distance in ULPs, each "
            "judged by crtrig.reference against the peer's own definition.",
        )
    )
    bench.configure_parser(commands.add_parser("bench", help=bench.HELP, description=bench.DESCRIPTION))
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        sys.stderr.close()
        return 1


if __name__ == "__main__":
    sys.exit(main())
