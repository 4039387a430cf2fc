"""The ``onnx-fold`` command: ``python -m crtrig onnx-fold IN.onnx OUT.onnx``.

Kept apart from ``crtrig.onnx`` so that building the command line does not
import onnx: only running this command does.
"""

from __future__ import annotations

import argparse
import sys

from ._cli_args import integer
from ._output import OutputError, check_writable_target, write_bytes_atomically

PROGRAM = "crtrig onnx-fold"


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``onnx-fold`` arguments to an (sub)parser."""
    parser.error = lambda message: sys.exit(_error(message))  # one line, no usage, status 2
    parser.add_argument("input", metavar="IN.onnx", help="the model to read")
    parser.add_argument("output", metavar="OUT.onnx",
                        help="where to write the folded model (may be IN.onnx; written atomically)")
    parser.add_argument("--max-bytes", type=integer(0, None, None), default=None, metavar="N",
                        help="leave windows unfolded once the folded ones would exceed N bytes "
                             "in total (default: 256 MiB)")
    parser.set_defaults(func=run_cli)


def _error(message: str) -> int:
    print(f"{PROGRAM}: error: {message}", file=sys.stderr)
    return 2


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 400 else text[:400] + "..."


def run_cli(args) -> int:
    try:
        import onnx

        from . import onnx as crtrig_onnx
    except ImportError as exc:
        return _error(f"this command needs the onnx package ({exc}); pip install onnx")
    max_bytes = crtrig_onnx.DEFAULT_FOLD_MAX_BYTES if args.max_bytes is None else args.max_bytes
    try:
        target = check_writable_target(args.output)  # a FIFO, a directory ...: before any work
    except OutputError as exc:
        return _error(f"{args.output}: {exc}")
    try:
        model = onnx.load(args.input)
    except Exception as exc:  # missing file, not a model, bad external data ...
        return _error(f"cannot read {args.input}: {_one_line(exc)}")
    try:
        folded, done, left = crtrig_onnx._fold_windows(model, max_bytes)
    except (TypeError, ValueError, MemoryError) as exc:
        return _error(f"{args.input}: {_one_line(exc)}")
    try:
        onnx.checker.check_model(folded)
    except Exception as exc:
        return _error(f"the folded model fails onnx.checker (is {args.input} valid?): {_one_line(exc)}")
    try:
        blob = folded.SerializeToString()
    except Exception as exc:  # a model above protobuf's 2 GiB ...
        return _error(f"cannot write {args.output}: {_one_line(exc)}")
    try:
        write_bytes_atomically(target, blob)
    except OutputError as exc:
        return _error(f"{args.output}: {exc}")
    print(f"{args.input} -> {args.output}: folded {len(done)} window node{'s' if len(done) != 1 else ''}"
          + (f", left {len(left)}" if left else ""))
    for label in done:
        print(f"  folded {label}")
    for label, reason in left:
        print(f"  left {label}: {reason}")
    return 0
