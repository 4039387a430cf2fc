"""crtrig for ONNX models: exact operators for ``onnx.reference``, exact windows
folded into models.

This module needs the ``onnx`` package.  ``import crtrig`` does not import it
(nor onnx); ``import crtrig.onnx`` does.

``new_ops``
    ``onnx.reference.ReferenceEvaluator(model, new_ops=crtrig.onnx.new_ops)``
    runs HannWindow-17, HammingWindow-17, BlackmanWindow-17, Sin, Cos and Tan with
    crtrig: every float result is the exact value rounded once into the
    output type.  Windows take all 12 ``output_datatype`` codes (bfloat16 in
    the dtype the installed onnx.reference uses for it, bit for bit) and
    ``periodic``; Sin, Cos and Tan take float16, bfloat16, float and double (the
    types of Sin-7 and Sin-22, Tan-7 and Tan-22).

``fold_windows(model)``
    Returns a copy of the model in which every window node with a constant
    size is an initializer holding the exact window (a model that fails
    onnx.checker is refused first; in a subgraph, a name the subgraph defines
    hides an outer constant of that name).

Errors name the node: a size tensor that is not int32/int64 or has more than
one element, a negative size, an unsupported ``output_datatype``, a
``periodic`` other than 0 or 1.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from typing import Callable

import ml_dtypes
import numpy as np

try:
    from onnx import AttributeProto, GraphProto, ModelProto, NodeProto, TensorProto, helper, numpy_helper
    from onnx.reference.op_run import OpRun
except ImportError as _error:
    raise ImportError(f'crtrig.onnx needs the onnx package ({_error}); install it with: '
                      f'pip install "crtrig[onnx]"') from None

import crtrig

__all__ = [
    "new_ops",
    "fold_windows",
    "HannWindow",
    "HammingWindow",
    "BlackmanWindow",
    "Sin",
    "Cos",
    "Tan",
    "DEFAULT_FOLD_MAX_BYTES",
]

_BFLOAT16 = np.dtype(ml_dtypes.bfloat16)

#: ONNX output_datatype codes of the window ops -> the numpy dtype crtrig writes.
_WINDOW_OUTPUT_TYPES: dict[int, np.dtype] = {
    TensorProto.FLOAT: np.dtype(np.float32),
    TensorProto.UINT8: np.dtype(np.uint8),
    TensorProto.INT8: np.dtype(np.int8),
    TensorProto.UINT16: np.dtype(np.uint16),
    TensorProto.INT16: np.dtype(np.int16),
    TensorProto.INT32: np.dtype(np.int32),
    TensorProto.INT64: np.dtype(np.int64),
    TensorProto.FLOAT16: np.dtype(np.float16),
    TensorProto.DOUBLE: np.dtype(np.float64),
    TensorProto.UINT32: np.dtype(np.uint32),
    TensorProto.UINT64: np.dtype(np.uint64),
    TensorProto.BFLOAT16: _BFLOAT16,
}

_WINDOW_FUNCTIONS: dict[str, Callable] = {
    "HannWindow": crtrig.hann_window,
    "HammingWindow": crtrig.hamming_window,
    "BlackmanWindow": crtrig.blackman_window,
}

_ONNX_DOMAINS = ("", "ai.onnx")


def _type_name(code: int) -> str:
    try:
        return TensorProto.DataType.Name(code)
    except ValueError:
        return "unknown"


_SUPPORTED_OUTPUT_TYPES = ", ".join(f"{_type_name(c)} ({c})" for c in sorted(_WINDOW_OUTPUT_TYPES))


def _onnx_bfloat16_dtype() -> np.dtype:
    """The numpy dtype the installed onnx uses for BFLOAT16 tensors.

    onnx 1.19 and later use ``ml_dtypes.bfloat16``; 1.14 to 1.18 a uint16
    with a ``bfloat16`` field (``onnx._custom_element_types.bfloat16``); older
    versions float32.
    """
    return np.dtype(helper.tensor_dtype_to_np_dtype(TensorProto.BFLOAT16))


_ONNX_BFLOAT16 = _onnx_bfloat16_dtype()


def _bfloat16_to_onnx(array: np.ndarray, target: np.dtype = _ONNX_BFLOAT16) -> np.ndarray:
    """An ml_dtypes.bfloat16 array in onnx's representation ``target``, bit for bit."""
    if target == _BFLOAT16:
        return array
    if target.itemsize == 2:  # onnx's uint16-based bfloat16: the same 16 bits
        return array.view(np.uint16).view(target)
    if target == np.dtype(np.float32):  # every bfloat16 value is a float32 value
        return array.astype(np.float32)
    raise TypeError(f"cannot represent bfloat16 as onnx's {target}")


def _is_uint16_bfloat16(dtype: np.dtype) -> bool:
    """True for onnx 1.14-1.18's bfloat16 dtype (a uint16 with a 'bfloat16' field)."""
    return dtype.itemsize == 2 and dtype != _BFLOAT16 and dtype.names is not None and "bfloat16" in dtype.names


def _node_label(node: NodeProto) -> str:
    if node.name:
        return f"{node.op_type} node {node.name!r}"
    outputs = ", ".join(repr(name) for name in node.output if name)
    return f"{node.op_type} node with output {outputs}" if outputs else f"{node.op_type} node"


def _node_error(kind: type, node: NodeProto, message: str) -> Exception:
    """An exception of ``kind`` whose message starts with the node's label.

    Marked so that ``_CrtrigOp.run`` can take it out of the TypeError that
    onnx.reference's OpRun.run wraps around a TypeError from ``_run``.
    """
    error = kind(f"{_node_label(node)}: {message}")
    error._crtrig_node_error = True
    return error


# ---------------------------------------------------------------------------
# Checking the inputs and attributes of a window node
# ---------------------------------------------------------------------------


def _window_size(size, node: NodeProto) -> int:
    """The size of a window node: an int32 or int64 tensor with one element,
    of rank 0 (as the ONNX spec says) or rank 1 (as some exporters write)."""
    array = np.asarray(size)
    if array.dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise _node_error(TypeError, node, f"size must be an int32 or int64 tensor; got {array.dtype}")
    if array.ndim > 1 or array.size != 1:
        raise _node_error(
            ValueError, node,
            f"size must be a scalar (or a one-element 1-D tensor); got a tensor of shape {array.shape}")
    value = int(array.reshape(()))
    if value < 0:
        raise _node_error(ValueError, node, f"size must be non-negative; got {value}")
    return value


def _window_output_type(code, node: NodeProto) -> np.dtype:
    code = TensorProto.FLOAT if code is None else code
    dtype = _WINDOW_OUTPUT_TYPES.get(code) if isinstance(code, (int, np.integer)) else None
    if dtype is None:
        raise _node_error(
            TypeError, node,
            f"output_datatype {code!r} ({_type_name(code) if isinstance(code, int) else '?'}) is not "
            f"supported; {node.op_type}-17 accepts {_SUPPORTED_OUTPUT_TYPES}")
    return dtype


def _window_periodic(periodic, node: NodeProto) -> bool:
    periodic = 1 if periodic is None else periodic
    if periodic not in (0, 1) or isinstance(periodic, bool):
        raise _node_error(ValueError, node, f"periodic must be 0 or 1; got {periodic!r}")
    return bool(periodic)


def _make_window(node: NodeProto, size: int, periodic: bool, dtype: np.dtype) -> np.ndarray:
    try:
        return _WINDOW_FUNCTIONS[node.op_type](size, periodic=periodic, dtype=dtype)
    except ValueError as exc:  # e.g. a size above 2**53
        raise _node_error(ValueError, node, str(exc)) from None


# ---------------------------------------------------------------------------
# onnx.reference operators
# ---------------------------------------------------------------------------


class _CrtrigOp(OpRun):
    """Base of the operators in ``new_ops``."""

    op_domain = ""

    def run(self, *args, **kwargs):
        try:
            return super().run(*args, **kwargs)
        except TypeError as exc:
            # OpRun.run turns a TypeError raised by _run into a generic
            # "Issues with types ..." TypeError; give the caller ours.
            cause = exc.__cause__
            if getattr(cause, "_crtrig_node_error", False):
                raise cause from None
            raise


class _Window(_CrtrigOp):
    def _run(self, size, output_datatype=None, periodic=None):
        node = self.onnx_node
        dtype = _window_output_type(output_datatype, node)
        is_periodic = _window_periodic(periodic, node)
        window = _make_window(node, _window_size(size, node), is_periodic, dtype)
        if dtype == _BFLOAT16:
            window = _bfloat16_to_onnx(window)
        return (window,)


class HannWindow(_Window):
    """HannWindow-17 through ``crtrig.hann_window``.

    Parameters
    ----------
    onnx_node : onnx.NodeProto
        The node to run; ``onnx.reference.ReferenceEvaluator`` constructs the
        operator when it is passed in ``new_ops``.
    run_params : dict
        The evaluator's run parameters.

    Raises
    ------
    TypeError
        At run time: a size that is not an int32 or int64 scalar (or one-element
        1-D) tensor, or an ``output_datatype`` outside the 12; the message names
        the node.
    ValueError
        At run time: a negative size, or a ``periodic`` other than 0 or 1.

    Examples
    --------
    >>> import numpy as np, crtrig.onnx
    >>> from onnx import TensorProto, helper
    >>> from onnx.reference import ReferenceEvaluator
    >>> node = helper.make_node("HannWindow", ["size"], ["w"])
    >>> graph = helper.make_graph(
    ...     [node], "g", [helper.make_tensor_value_info("size", TensorProto.INT64, [])],
    ...     [helper.make_tensor_value_info("w", TensorProto.FLOAT, None)])
    >>> model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    >>> session = ReferenceEvaluator(model, new_ops=[crtrig.onnx.HannWindow])
    >>> print(session.run(None, {"size": np.array(4)})[0])
    [0.  0.5 1.  0.5]
    """


class HammingWindow(_Window):
    """HammingWindow-17 through ``crtrig.hamming_window`` (25/46, 21/46).

    Parameters
    ----------
    onnx_node : onnx.NodeProto
        The node to run; ``onnx.reference.ReferenceEvaluator`` constructs the
        operator when it is passed in ``new_ops``.
    run_params : dict
        The evaluator's run parameters.

    Raises
    ------
    TypeError
        At run time: a size that is not an int32 or int64 scalar (or one-element
        1-D) tensor, or an ``output_datatype`` outside the 12; the message names
        the node.
    ValueError
        At run time: a negative size, or a ``periodic`` other than 0 or 1.

    Examples
    --------
    >>> import numpy as np, crtrig.onnx
    >>> from onnx import TensorProto, helper
    >>> from onnx.reference import ReferenceEvaluator
    >>> node = helper.make_node("HammingWindow", ["size"], ["w"], periodic=0)
    >>> graph = helper.make_graph(
    ...     [node], "g", [helper.make_tensor_value_info("size", TensorProto.INT64, [])],
    ...     [helper.make_tensor_value_info("w", TensorProto.FLOAT, None)])
    >>> model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    >>> session = ReferenceEvaluator(model, new_ops=[crtrig.onnx.HammingWindow])
    >>> print(session.run(None, {"size": np.array(3)})[0])
    [0.08695652 1.         0.08695652]
    """


class BlackmanWindow(_Window):
    """BlackmanWindow-17 through ``crtrig.blackman_window``.

    Parameters
    ----------
    onnx_node : onnx.NodeProto
        The node to run; ``onnx.reference.ReferenceEvaluator`` constructs the
        operator when it is passed in ``new_ops``.
    run_params : dict
        The evaluator's run parameters.

    Raises
    ------
    TypeError
        At run time: a size that is not an int32 or int64 scalar (or one-element
        1-D) tensor, or an ``output_datatype`` outside the 12; the message names
        the node.
    ValueError
        At run time: a negative size, or a ``periodic`` other than 0 or 1.

    Examples
    --------
    >>> import numpy as np, crtrig.onnx
    >>> from onnx import TensorProto, helper
    >>> from onnx.reference import ReferenceEvaluator
    >>> node = helper.make_node("BlackmanWindow", ["size"], ["w"])
    >>> graph = helper.make_graph(
    ...     [node], "g", [helper.make_tensor_value_info("size", TensorProto.INT64, [])],
    ...     [helper.make_tensor_value_info("w", TensorProto.FLOAT, None)])
    >>> model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    >>> session = ReferenceEvaluator(model, new_ops=[crtrig.onnx.BlackmanWindow])
    >>> print(session.run(None, {"size": np.array(4)})[0])
    [0.   0.34 1.   0.34]
    """


_TRIG_TYPES = (np.dtype(np.float16), _BFLOAT16, np.dtype(np.float32), np.dtype(np.float64))


class _Trig(_CrtrigOp):
    _ufunc: np.ufunc

    def _run(self, x):
        node = self.onnx_node
        x = np.asarray(x)
        onnx_dtype = x.dtype
        if _is_uint16_bfloat16(onnx_dtype):
            x = x.view(np.uint16).view(_BFLOAT16)
        elif onnx_dtype not in _TRIG_TYPES:
            raise _node_error(
                TypeError, node,
                f"input must be a float16, bfloat16, float or double tensor; got {onnx_dtype}")
        out = np.empty(x.shape, dtype=x.dtype)
        try:
            self._ufunc(x, out=out)
        except TypeError as exc:  # a dtype this crtrig has no loop for
            raise _node_error(
                TypeError, node,
                f"crtrig {crtrig.__version__} has no {x.dtype} {self._ufunc.__name__} ({exc})") from None
        if onnx_dtype != out.dtype:
            out = out.view(np.uint16).view(onnx_dtype)
        return (out,)


class Sin(_Trig):
    """Sin-7 and Sin-22 through ``crtrig.sin``.

    Parameters
    ----------
    onnx_node : onnx.NodeProto
        The node to run; ``onnx.reference.ReferenceEvaluator`` constructs the
        operator when it is passed in ``new_ops``.
    run_params : dict
        The evaluator's run parameters.

    Raises
    ------
    TypeError
        At run time: an input that is not a float16, bfloat16, float or double
        tensor; the message names the node.

    Examples
    --------
    >>> import numpy as np, crtrig.onnx
    >>> from onnx import TensorProto, helper
    >>> from onnx.reference import ReferenceEvaluator
    >>> node = helper.make_node("Sin", ["x"], ["y"])
    >>> graph = helper.make_graph(
    ...     [node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, None)],
    ...     [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    >>> model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)])
    >>> session = ReferenceEvaluator(model, new_ops=[crtrig.onnx.Sin])
    >>> print(session.run(None, {"x": np.float32([0.5, 1e30])})[0])
    [ 0.47942555 -0.79116344]
    """

    _ufunc = crtrig.sin


class Cos(_Trig):
    """Cos-7 and Cos-22 through ``crtrig.cos``.

    Parameters
    ----------
    onnx_node : onnx.NodeProto
        The node to run; ``onnx.reference.ReferenceEvaluator`` constructs the
        operator when it is passed in ``new_ops``.
    run_params : dict
        The evaluator's run parameters.

    Raises
    ------
    TypeError
        At run time: an input that is not a float16, bfloat16, float or double
        tensor; the message names the node.

    Examples
    --------
    >>> import numpy as np, crtrig.onnx
    >>> from onnx import TensorProto, helper
    >>> from onnx.reference import ReferenceEvaluator
    >>> node = helper.make_node("Cos", ["x"], ["y"])
    >>> graph = helper.make_graph(
    ...     [node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, None)],
    ...     [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    >>> model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)])
    >>> session = ReferenceEvaluator(model, new_ops=[crtrig.onnx.Cos])
    >>> print(session.run(None, {"x": np.float32([0.5, 1e30])})[0])
    [ 0.87758255 -0.6116048 ]
    """

    _ufunc = crtrig.cos


class Tan(_Trig):
    """Tan-7 and Tan-22 through ``crtrig.tan``.

    Parameters
    ----------
    onnx_node : onnx.NodeProto
        The node to run; ``onnx.reference.ReferenceEvaluator`` constructs the
        operator when it is passed in ``new_ops``.
    run_params : dict
        The evaluator's run parameters.

    Raises
    ------
    TypeError
        At run time: an input that is not a float16, bfloat16, float or double
        tensor; the message names the node.

    Examples
    --------
    >>> import numpy as np, crtrig.onnx
    >>> from onnx import TensorProto, helper
    >>> from onnx.reference import ReferenceEvaluator
    >>> node = helper.make_node("Tan", ["x"], ["y"])
    >>> graph = helper.make_graph(
    ...     [node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, None)],
    ...     [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    >>> model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)])
    >>> session = ReferenceEvaluator(model, new_ops=[crtrig.onnx.Tan])
    >>> print(session.run(None, {"x": np.float32([0.5, 1e30])})[0])
    [0.5463025 1.2935861]
    """

    _ufunc = crtrig.tan


#: ``ReferenceEvaluator(model, new_ops=crtrig.onnx.new_ops)``
new_ops: list[type[OpRun]] = [HannWindow, HammingWindow, BlackmanWindow, Sin, Cos, Tan]


# ---------------------------------------------------------------------------
# Folding constant-size windows into initializers
# ---------------------------------------------------------------------------

#: fold_windows's default budget: all folded windows together take at most
#: this many bytes (a size-2**24 float64 window is 128 MiB).
DEFAULT_FOLD_MAX_BYTES = 1 << 28

#: The largest message protobuf serializes (and onnx.checker checks in memory).
_MAX_PROTOBUF_BYTES = (1 << 31) - 1

#: What a folded initializer adds to a model besides its name and data, at
#: most: the TensorProto's tags, data_type, dims and length prefixes, and the
#: length prefixes of the graphs around it (per level of nesting).
_TENSOR_OVERHEAD_BYTES = 64
_NESTING_OVERHEAD_BYTES = 16

_SIZE_TYPES = {TensorProto.INT32: np.dtype("<i4"), TensorProto.INT64: np.dtype("<i8")}


class _Unreadable(Exception):
    """A size constant whose value cannot be read (the window is left alone)."""


class _OutputTooLarge(ValueError):
    """The folded model would exceed the output limit (raised before any window is computed)."""

    def __init__(self, estimate: int, limit: int):
        super().__init__(f"the folded model would take about {estimate} bytes, more than "
                         f"the limit of {limit}")
        self.estimate = estimate
        self.limit = limit


@dataclass
class _Planned:
    """A window node to fold: what to compute and the initializer's name."""

    node: NodeProto
    size: int
    periodic: bool
    dtype: np.dtype
    code: int


@dataclass
class _GraphPlan:
    """The changes to one graph: nodes to fold (by index), constants to drop."""

    graph: GraphProto
    folds: dict[int, _Planned]
    orphans: set[str]


@dataclass
class _FoldState:
    max_bytes: int
    external_dir: str | None = None
    used_bytes: int = 0
    added_bytes: int = 0  # an upper bound of what the folded initializers add to the model
    folded: list[str] = field(default_factory=list)
    left: list[tuple[str, str]] = field(default_factory=list)
    plans: list[_GraphPlan] = field(default_factory=list)  # children before their parents


def _defined_names(graph: GraphProto) -> set[str]:
    """Every name ``graph`` itself defines: its inputs, initializers and node
    outputs.  In a subgraph each of them hides a value of the same name in
    an enclosing graph."""
    names = {value.name for value in graph.input}
    names.update(tensor.name for tensor in graph.initializer)
    names.update(sparse.values.name for sparse in graph.sparse_initializer)
    for node in graph.node:
        names.update(name for name in node.output if name)
    return names


def _constant_tensors(graph: GraphProto) -> dict[str, Callable[[NodeProto, _FoldState], np.ndarray]]:
    """The constants defined in ``graph``: name -> function giving the value
    for a window node (raises _Unreadable, or the node's TypeError/ValueError
    for a tensor that cannot be a size).  An initializer that is also a graph
    input can be overridden by the caller, so it is not a constant."""
    inputs = {value.name for value in graph.input}
    constants: dict[str, Callable[[NodeProto, _FoldState], np.ndarray]] = {}
    for tensor in graph.initializer:
        if tensor.name not in inputs:
            constants[tensor.name] = lambda node, state, tensor=tensor: _size_tensor_value(tensor, node, state)
    for node in graph.node:
        if node.op_type == "Constant" and node.domain in _ONNX_DOMAINS and len(node.output) == 1:
            value = _constant_node_value(node)
            if value is not None:
                constants[node.output[0]] = value
    return constants


def _size_tensor_value(tensor: TensorProto, node: NodeProto, state: _FoldState) -> np.ndarray:
    """The value of a size tensor: its type and shape are checked first, so
    that no more than its one element is ever read (from external data too)."""
    dtype = _SIZE_TYPES.get(tensor.data_type)
    if dtype is None:
        try:
            name = str(np.dtype(helper.tensor_dtype_to_np_dtype(tensor.data_type)))
        except Exception:
            name = _type_name(tensor.data_type)
        raise _node_error(TypeError, node, f"size must be an int32 or int64 tensor; got {name}")
    dims = tuple(int(d) for d in tensor.dims)
    if len(dims) > 1 or any(d != 1 for d in dims):
        raise _node_error(
            ValueError, node,
            f"size must be a scalar (or a one-element 1-D tensor); got a tensor of shape {dims}")
    if tensor.data_location == TensorProto.EXTERNAL:
        data = _read_external(tensor, dtype.itemsize, state)
        return np.frombuffer(data, dtype=dtype).reshape(dims)
    try:
        return numpy_helper.to_array(tensor)
    except Exception:
        raise _Unreadable from None


def _read_external(tensor: TensorProto, nbytes: int, state: _FoldState) -> bytes:
    """The ``nbytes`` bytes of an externally stored tensor: from a regular
    file inside the model's directory (the rule of onnx.checker), read
    without blocking and no more than those bytes."""
    if state.external_dir is None:
        raise _Unreadable
    entries = {entry.key: entry.value for entry in tensor.external_data}
    location = entries.get("location", "")
    try:
        offset = int(entries.get("offset", "0"))
        length = int(entries["length"]) if "length" in entries else nbytes
    except ValueError:
        raise _Unreadable from None
    if not location or os.path.isabs(location) or offset < 0 or length != nbytes:
        raise _Unreadable
    base = os.path.realpath(state.external_dir)
    path = os.path.realpath(os.path.join(base, location))
    if os.path.commonpath([base, path]) != base:
        raise _Unreadable
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise _Unreadable
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(descriptor, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or offset + nbytes > info.st_size:
                raise _Unreadable
            handle.seek(offset)
            data = handle.read(nbytes)
    except OSError:
        raise _Unreadable from None
    if len(data) != nbytes:
        raise _Unreadable
    return data


def _constant_node_value(node: NodeProto) -> Callable[[NodeProto, _FoldState], np.ndarray] | None:
    if len(node.attribute) != 1 or node.attribute[0].ref_attr_name:
        return None
    attribute = node.attribute[0]
    if attribute.name == "value" and attribute.type == AttributeProto.TENSOR:
        return lambda window, state, tensor=attribute.t: _size_tensor_value(tensor, window, state)
    if attribute.name == "value_int" and attribute.type == AttributeProto.INT:
        return lambda window, state, value=attribute.i: np.array(value, dtype=np.int64)
    return None


def _subgraphs(node: NodeProto):
    for attribute in node.attribute:
        if attribute.type == AttributeProto.GRAPH:
            yield attribute.g
        elif attribute.type == AttributeProto.GRAPHS:
            yield from attribute.graphs


def _int_attribute(node: NodeProto, name: str):
    """(value or None if absent, True if it refers to a function attribute)."""
    for attribute in node.attribute:
        if attribute.name == name:
            if attribute.ref_attr_name:
                return None, True
            if attribute.type != AttributeProto.INT:
                raise _node_error(TypeError, node, f"attribute {name} must be an int")
            return attribute.i, False
    return None, False


def _window_tensor(window: np.ndarray, name: str, code: int) -> TensorProto:
    """A TensorProto holding ``window`` bit for bit (raw little-endian data)."""
    tensor = TensorProto()
    tensor.name = name
    tensor.data_type = code
    tensor.dims.append(window.shape[0])
    if window.dtype == _BFLOAT16:
        window = window.view(np.uint16)
    tensor.raw_data = np.ascontiguousarray(window, dtype=window.dtype.newbyteorder("<")).tobytes()
    return tensor


def _plan_node(node: NodeProto, constants: dict, state: _FoldState, depth: int) -> _Planned | None:
    """Check a window node and decide whether it is folded (nothing is computed yet)."""
    label = _node_label(node)
    if not node.input or not node.input[0] or node.input[0] not in constants:
        state.left.append((label, "its size is not a constant"))
        return None
    periodic, periodic_ref = _int_attribute(node, "periodic")
    code, code_ref = _int_attribute(node, "output_datatype")
    if periodic_ref or code_ref:
        state.left.append((label, "an attribute refers to a function attribute"))
        return None
    try:
        size_value = constants[node.input[0]](node, state)
    except _Unreadable:
        state.left.append((label, "its size constant cannot be read"))
        return None
    dtype = _window_output_type(code, node)
    is_periodic = _window_periodic(periodic, node)
    size = _window_size(size_value, node)
    nbytes = size * dtype.itemsize
    if state.used_bytes + nbytes > state.max_bytes:
        state.left.append((label, f"its {nbytes} bytes would take the folded windows past "
                                  f"max_bytes={state.max_bytes}"))
        return None
    state.used_bytes += nbytes
    state.added_bytes += (nbytes + len(node.output[0].encode("utf-8", "surrogatepass"))
                          + _TENSOR_OVERHEAD_BYTES + _NESTING_OVERHEAD_BYTES * depth)
    state.folded.append(label)
    return _Planned(node, size, is_periodic, dtype, TensorProto.FLOAT if code is None else code)


def _plan_graph(graph: GraphProto, outer: dict, state: _FoldState, depth: int = 0) -> tuple[set[str], set[str]]:
    """Plan the folding of the windows of ``graph`` and its subgraphs
    (appended to state.plans, subgraphs first); nothing is modified yet.

    A name the graph defines (an input, an initializer, a node output) hides
    the enclosing graphs' value of that name, constant or not: only the
    graph's own constants and the outer constants it does not redefine are
    constants here.  Returns the outer names used in this subtree after
    folding and the outer names that were sizes of folded windows.
    """
    defined = _defined_names(graph)
    constants = {name: value for name, value in outer.items() if name not in defined}
    local = _constant_tensors(graph)
    constants.update(local)
    used: set[str] = {value.name for value in graph.output}
    folded_sizes: set[str] = set()
    folds: dict[int, _Planned] = {}
    for index, node in enumerate(graph.node):
        if node.op_type in _WINDOW_FUNCTIONS and node.domain in _ONNX_DOMAINS:
            planned = _plan_node(node, constants, state, depth)
            if planned is not None:
                folds[index] = planned
                folded_sizes.add(node.input[0])
                continue
        used.update(node.input)
        for subgraph in _subgraphs(node):
            sub_used, sub_sizes = _plan_graph(subgraph, constants, state, depth + 1)
            used |= sub_used
            folded_sizes |= sub_sizes
    orphans = {name for name in folded_sizes if name in local and name not in used}
    state.plans.append(_GraphPlan(graph, folds, orphans))
    return used - defined, folded_sizes - defined


def _apply(plan: _GraphPlan) -> None:
    """Compute the planned windows of one graph and change the graph."""
    graph = plan.graph
    tensors = {index: _window_tensor(_make_window(p.node, p.size, p.periodic, p.dtype), p.node.output[0], p.code)
               for index, p in sorted(plan.folds.items())}
    # The subgraphs' plans were applied before this one; nothing below holds
    # on to an element of these repeated fields.
    for index in range(len(graph.node) - 1, -1, -1):
        node = graph.node[index]
        if index in tensors or (node.op_type == "Constant" and node.domain in _ONNX_DOMAINS
                                and len(node.output) == 1 and node.output[0] in plan.orphans):
            del graph.node[index]
    for repeated in (graph.initializer, graph.value_info):
        for index in range(len(repeated) - 1, -1, -1):
            if repeated[index].name in plan.orphans:
                del repeated[index]
    graph.initializer.extend(tensors[i] for i in sorted(tensors))


def _check_model(model: ModelProto) -> None:
    """Refuse a model that fails onnx.checker (before anything is folded).
    A model above protobuf's 2 GiB cannot be checked in memory: it is not."""
    from onnx import checker

    if model.ByteSize() > _MAX_PROTOBUF_BYTES:
        return
    try:
        checker.check_model(model)
    except checker.ValidationError as exc:
        raise ValueError(f"the model fails onnx.checker: {exc}") from None


def _fold_windows(model: ModelProto, max_bytes: int, *, copy: bool = True, check: bool = True,
                  external_dir: str | None = None,
                  output_limit: int | None = None) -> tuple[ModelProto, list[str], list[tuple[str, str]]]:
    """fold_windows, and the labels of the folded and of the unfolded window
    nodes (with the reason).  ``copy=False`` folds ``model`` itself;
    ``check=False`` skips onnx.checker (the caller has checked the file);
    ``external_dir``: the model's directory, from which size constants stored
    as external data are read (the one element each; other external tensors
    are not read); ``output_limit``: raise _OutputTooLarge, before computing
    any window, if the folded model might take more bytes than that."""
    if not isinstance(model, ModelProto):
        raise TypeError(f"fold_windows() expects an onnx.ModelProto; got {type(model).__name__}")
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
        raise ValueError(f"max_bytes must be a non-negative int; got {max_bytes!r}")
    if check:
        _check_model(model)
    if copy:
        result = ModelProto()
        result.CopyFrom(model)
    else:
        result = model
    state = _FoldState(max_bytes, external_dir)
    _plan_graph(result.graph, {}, state)
    if output_limit is not None and state.added_bytes:
        estimate = result.ByteSize() + state.added_bytes
        if estimate > output_limit:
            raise _OutputTooLarge(estimate, output_limit)
    for plan in state.plans:
        _apply(plan)
    return result, state.folded, state.left


def fold_windows(model: ModelProto, *, max_bytes: int = DEFAULT_FOLD_MAX_BYTES) -> ModelProto:
    """A copy of ``model`` with every constant-size window node folded into an exact initializer.

    A HannWindow, HammingWindow or BlackmanWindow node (domain "" or
    "ai.onnx") whose size is a constant -- an initializer that is not also a
    graph input, or the output of a Constant node with ``value`` or
    ``value_int`` -- of type int32 or int64 is replaced by an initializer with
    the node's output name, holding the correctly rounded window
    (``crtrig.hann_window`` and so on, in the node's ``output_datatype``,
    bfloat16 included, bit for bit).  Constants that only fed folded windows
    are dropped.  The input model is not modified.

    Windows in the bodies of If, Loop and Scan nodes (any graph attribute, at
    any depth) are folded too, into an initializer of that body; their size
    may be a constant of the body or of an enclosing graph, unless the body
    (or a graph between) defines that name itself -- as an input, an
    initializer or a node output, which hides the outer constant.  Windows
    inside model-local functions (``model.functions``) are left alone: a
    function has no initializers, and its attributes may be bound only at
    the call.  Windows whose size is not constant in their own scope, whose
    size constant is stored as external data that was not loaded, and
    windows that would take the folded windows together past ``max_bytes``,
    are left alone too.

    The model is checked with ``onnx.checker.check_model`` first (a model
    above 2 GiB, which the checker cannot take in memory, is not): one that
    fails raises ``ValueError`` and nothing is folded.  The checker looks
    for external data files relative to the current directory; load the
    external data (``onnx.load``'s default) or run from the model's directory.

    A window node with a constant size that is not a scalar (or one-element
    1-D) int32/int64 tensor, a negative size, an unsupported
    ``output_datatype`` or a ``periodic`` other than 0 or 1 raises
    ``TypeError`` or ``ValueError`` naming the node.

    Parameters
    ----------
    model : onnx.ModelProto
        The model; it is not modified.
    max_bytes : int, default DEFAULT_FOLD_MAX_BYTES
        The most bytes all folded windows together may take (256 MiB by
        default); windows past it are left as nodes.

    Returns
    -------
    onnx.ModelProto
        The folded copy; it passes ``onnx.checker.check_model``.

    Raises
    ------
    TypeError
        A window node's constant size is not an int32/int64 scalar (or
        one-element 1-D) tensor, or its ``output_datatype`` is unsupported.
    ValueError
        A window node's constant size is negative, or its ``periodic`` is
        neither 0 nor 1.

    Examples
    --------
    >>> import crtrig.onnx
    >>> from onnx import TensorProto, helper, numpy_helper
    >>> size = helper.make_tensor("size", TensorProto.INT64, [], [8])
    >>> node = helper.make_node("HannWindow", ["size"], ["w"], name="hann")
    >>> graph = helper.make_graph(
    ...     [node], "g", [], [helper.make_tensor_value_info("w", TensorProto.FLOAT, [8])],
    ...     initializer=[size])
    >>> model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    >>> exact = crtrig.onnx.fold_windows(model)
    >>> len(exact.graph.node), [t.name for t in exact.graph.initializer]
    (0, ['w'])
    >>> print(numpy_helper.to_array(exact.graph.initializer[0]))
    [0.         0.14644662 0.5        0.8535534  1.         0.8535534
     0.5        0.14644662]
    """
    return _fold_windows(model, max_bytes)[0]
