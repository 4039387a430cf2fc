"""The ``onnx-fold`` command: ``python -m crtrig onnx-fold IN.onnx OUT.onnx``.

Kept apart from ``crtrig.onnx`` so that building the command line does not
import onnx: only running this command does.

What it reads is bounded whatever the file says: IN.onnx must be a regular
file (a FIFO or a device is refused, not opened for reading) of at most 2 GiB
(protobuf's limit for one message); its external data is not loaded -- only
the one element of a window size stored externally is read.  Tensors kept in
external files stay there: OUT.onnx refers to the same files, so it must be
written into IN.onnx's directory.  OUT.onnx is checked (a regular file or
none, in a writable directory) before anything is read, the model with
onnx.checker before anything is folded, and the size of the folded model
against protobuf's 2 GiB before any window is computed.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys

from .._cli_args import integer
from .._output import OutputError, check_writable_target, write_bytes_atomically

PROGRAM = "crtrig onnx-fold"

#: Protobuf cannot parse or serialize a message above 2 GiB - 1 bytes.
MAX_MODEL_BYTES = (1 << 31) - 1


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``onnx-fold`` arguments to an (sub)parser."""
    parser.error = lambda message: sys.exit(_error(message))  # one line, no usage, status 2
    parser.add_argument("input", metavar="IN.onnx", help="the model to read (a regular file of at most 2 GiB)")
    parser.add_argument("output", metavar="OUT.onnx",
                        help="where to write the folded model (may be IN.onnx; written atomically; "
                             "in IN.onnx's directory if the model has external data)")
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


class _Refused(Exception):
    """IN.onnx cannot be read (message: one line)."""


def _check_input(info: os.stat_result) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise _Refused("not a regular file")
    if info.st_size > MAX_MODEL_BYTES:
        raise _Refused(f"{info.st_size} bytes, more than protobuf's limit of {MAX_MODEL_BYTES} "
                       "bytes for a model (keep large tensors in external data)")


def _read_model_bytes(path: str) -> bytes:
    """The bytes of a regular file of at most MAX_MODEL_BYTES bytes.  os.stat
    comes first (opening a FIFO blocks); the file is then opened without
    blocking, checked again (it may have been replaced) and read up to the
    limit only."""
    try:
        _check_input(os.stat(path))
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(descriptor, "rb", buffering=0) as handle:
            info = os.fstat(handle.fileno())
            _check_input(info)
            # read(n) allocates n bytes: ask for the size fstat gives (plus one,
            # to see a file that grew), then for the rest up to the limit.
            chunks = [handle.read(min(info.st_size, MAX_MODEL_BYTES) + 1) or b""]
            total = len(chunks[0])
            while chunks[-1] and total > info.st_size and total <= MAX_MODEL_BYTES:
                chunks.append(handle.read(min(1 << 24, MAX_MODEL_BYTES + 1 - total)) or b"")
                total += len(chunks[-1])
            data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    except OSError as exc:
        raise _Refused(exc.strerror or str(exc)) from None
    if len(data) > MAX_MODEL_BYTES:
        raise _Refused(f"more than protobuf's limit of {MAX_MODEL_BYTES} bytes for a model")
    return data


def _tensors(graph):
    """Every TensorProto of a graph (or a function) and its subgraphs:
    initializers and tensor attributes (Constant's value, among others)."""
    from onnx import AttributeProto

    yield from getattr(graph, "initializer", ())
    for sparse in getattr(graph, "sparse_initializer", ()):
        yield sparse.values
        yield sparse.indices
    for node in graph.node:
        for attribute in node.attribute:
            if attribute.type == AttributeProto.TENSOR:
                yield attribute.t
            elif attribute.type == AttributeProto.TENSORS:
                yield from attribute.tensors
            elif attribute.type == AttributeProto.GRAPH:
                yield from _tensors(attribute.g)
            elif attribute.type == AttributeProto.GRAPHS:
                for subgraph in attribute.graphs:
                    yield from _tensors(subgraph)


def _has_external_data(model) -> bool:
    from onnx import TensorProto

    graphs = [model.graph] + [function for function in model.functions]
    return any(tensor.data_location == TensorProto.EXTERNAL for graph in graphs for tensor in _tensors(graph))


def run_cli(args) -> int:
    try:
        import onnx
        from onnx import checker

        from .. import onnx as crtrig_onnx
    except ImportError as exc:
        return _error(f"this command needs the onnx package ({exc}); pip install onnx")
    max_bytes = crtrig_onnx.DEFAULT_FOLD_MAX_BYTES if args.max_bytes is None else args.max_bytes
    try:
        target = check_writable_target(args.output)
    except OutputError as exc:
        return _error(f"{args.output}: {exc}")
    source = os.path.realpath(args.input)
    try:
        _check_input(os.stat(source))  # before onnx.checker opens it: a FIFO would block
    except _Refused as exc:
        return _error(f"cannot read {args.input}: {exc}")
    except OSError as exc:
        return _error(f"cannot read {args.input}: {exc.strerror or exc}")
    try:
        # The checker reads the file itself (and frees it), to look for external
        # data where the model says: relative to its directory (it reads none of it).
        checker.check_model(source)
    except Exception as exc:
        return _error(f"{args.input} fails onnx.checker, nothing folded: {_one_line(exc)}")
    try:
        data = _read_model_bytes(source)
    except _Refused as exc:
        return _error(f"cannot read {args.input}: {exc}")
    model = onnx.ModelProto()
    try:
        model.ParseFromString(data)  # external data is not loaded
    except Exception as exc:
        return _error(f"cannot read {args.input}: not an ONNX model ({_one_line(exc)})")
    del data
    model_dir = os.path.dirname(source)
    try:
        folded, done, left = crtrig_onnx._fold_windows(
            model, max_bytes, copy=False, check=False, external_dir=model_dir,
            output_limit=MAX_MODEL_BYTES)
    except crtrig_onnx._OutputTooLarge as exc:
        return _error(f"the folded model would take about {exc.estimate} bytes, more than protobuf's "
                      f"2 GiB limit for a model ({exc.limit} bytes); nothing written (fold fewer "
                      "windows: a smaller --max-bytes)")
    except (TypeError, ValueError, MemoryError) as exc:
        return _error(f"{args.input}: {_one_line(exc)}")
    if os.path.dirname(target) != model_dir and _has_external_data(folded):
        return _error(f"{args.input} keeps tensors in external data files, which {args.output} would "
                      f"refer to by paths relative to {args.input}'s directory: write {args.output} "
                      "into that directory")
    try:
        blob = folded.SerializeToString()
    except MemoryError:
        return _error(f"cannot write {args.output}: out of memory")
    except Exception as exc:  # the estimate above should make this unreachable
        return _error(f"cannot write {args.output}: the folded model exceeds protobuf's 2 GiB limit "
                      f"({_one_line(exc)})")
    del folded, model
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
