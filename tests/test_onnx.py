"""crtrig.onnx: the onnx.reference operators (new_ops), ONNX's own node tests
through them, fold_windows checked with onnxruntime, and `python -m crtrig
onnx-fold`."""

from __future__ import annotations

import os
import re
import resource
import stat
import subprocess
import sys
import warnings

import ml_dtypes
import numpy as np
import pytest

import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import crtrig
import crtrig.onnx as co
from crtrig.__main__ import main

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (tests/oracle.py)
from sanitizer_marks import ASAN_REASON, UNDER_ASAN  # noqa: E402

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
WINDOW_FUNCTIONS = {"HannWindow": crtrig.hann_window, "HammingWindow": crtrig.hamming_window,
                    "BlackmanWindow": crtrig.blackman_window}
#: The 12 output_datatype codes of the window ops and the dtype crtrig writes.
OUTPUT_TYPES = {
    TensorProto.FLOAT: np.float32, TensorProto.UINT8: np.uint8, TensorProto.INT8: np.int8,
    TensorProto.UINT16: np.uint16, TensorProto.INT16: np.int16, TensorProto.INT32: np.int32,
    TensorProto.INT64: np.int64, TensorProto.FLOAT16: np.float16, TensorProto.DOUBLE: np.float64,
    TensorProto.UINT32: np.uint32, TensorProto.UINT64: np.uint64, TensorProto.BFLOAT16: BFLOAT16,
}
#: The dtype onnx.reference uses for BFLOAT16 in the installed onnx.
ONNX_BFLOAT16 = np.dtype(helper.tensor_dtype_to_np_dtype(TensorProto.BFLOAT16))


def bits(array) -> bytes:
    """The bytes of an array; bfloat16 in any of onnx's representations as its 16 bits."""
    array = np.ascontiguousarray(array)
    if array.dtype == BFLOAT16 or (array.dtype.itemsize == 2 and array.dtype.names):
        array = array.view(np.uint16)
    return array.dtype.str.encode() + array.tobytes()


def window_model(op, size_type=TensorProto.INT64, size_shape=(), name="", opset=17, **attributes):
    node = helper.make_node(op, ["size"], ["y"], name=name, **attributes)
    out_type = attributes.get("output_datatype", TensorProto.FLOAT)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("size", size_type, list(size_shape))],
                              [helper.make_tensor_value_info("y", out_type, [None])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def trig_model(op, elem_type, opset=22):
    node = helper.make_node(op, ["x"], ["y"], name=f"my{op}")
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem_type, None)],
                              [helper.make_tensor_value_info("y", elem_type, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def run_reference(model, feeds):
    return ReferenceEvaluator(model, new_ops=co.new_ops).run(None, feeds)


# ---------------------------------------------------------------------------
# Importing
# ---------------------------------------------------------------------------


def test_importing_crtrig_or_building_its_command_line_does_not_import_onnx():
    code = ("import sys, crtrig, crtrig.__main__\n"
            "crtrig.__main__.build_parser()\n"
            "crtrig.hann_window(8); crtrig.sin(crtrig.hann_window(8))\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('onnx', 'onnxruntime') "
            "or m == 'crtrig.onnx')\n"
            "assert not bad, bad\n"
            "import crtrig.onnx\n"
            "assert 'onnx' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


# ---------------------------------------------------------------------------
# ONNX's node tests through new_ops
# ---------------------------------------------------------------------------

NODE_TEST_PATTERN = re.compile(r"^test_((hann|hamming|blackman)window|sin|cos|tan)(_|$)")
EXPECTED_NODE_TESTS = {f"test_{op}window{suffix}" for op in ("hann", "hamming", "blackman")
                       for suffix in ("", "_symmetric", "_expanded", "_symmetric_expanded")} | {
    "test_sin", "test_sin_example", "test_cos", "test_cos_example", "test_tan", "test_tan_example"}


@pytest.fixture(scope="module")
def node_tests():
    from onnx.backend.test.loader import load_model_tests

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the loader builds every node test; some overflow on purpose
        cases = load_model_tests(kind="node")
    return [_with_model(case) for case in cases if NODE_TEST_PATTERN.match(case.name)]


def _with_model(case):
    """onnx 1.23 builds its node tests in memory; before it, load_model_tests lists
    them on disk (model and data_sets None, model_dir set): read them from there."""
    if case.model is not None or case.model_dir is None:
        return case
    import dataclasses
    import glob

    def tensors(data_set, prefix):
        paths = glob.glob(os.path.join(data_set, f"{prefix}_*.pb"))
        paths.sort(key=lambda path: int(os.path.basename(path)[len(prefix) + 1:-3]))
        return [numpy_helper.to_array(onnx.load_tensor(path)) for path in paths]

    data_sets = [(tensors(d, "input"), tensors(d, "output"))
                 for d in sorted(glob.glob(os.path.join(case.model_dir, "test_data_set_*")))]
    return dataclasses.replace(case, model=onnx.load(os.path.join(case.model_dir, "model.onnx")),
                               data_sets=data_sets)


def test_onnx_node_tests_pass_through_new_ops(node_tests, monkeypatch):
    """ONNX's node tests for the window ops, Sin and Cos pass with ONNX's own
    comparison (Runner.assert_similar_outputs with the case's rtol/atol: 1e-3 /
    1e-7), every window and trig node runs through crtrig, and its outputs are
    crtrig's bits.  The _expanded tests have no window node: their Cos nodes
    are crtrig's."""
    from onnx.backend.test.runner import Runner

    assert EXPECTED_NODE_TESTS <= {case.name for case in node_tests}
    calls = []
    original = co._CrtrigOp.run

    def counting_run(self, *args, **kwargs):
        calls.append(self.onnx_node.op_type)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(co._CrtrigOp, "run", counting_run)
    for case in node_tests:
        assert case.model is not None and case.data_sets, case.name
        graph = case.model.graph
        op_types = {node.op_type for node in graph.node}
        for inputs, expected in case.data_sets:
            feeds = {value.name: array for value, array in zip(graph.input, inputs)}
            del calls[:]
            outputs = ReferenceEvaluator(case.model, new_ops=co.new_ops).run(None, feeds)
            Runner.assert_similar_outputs(expected, outputs, rtol=case.rtol, atol=case.atol)
            ours = sorted(op for op in op_types if op in ("Sin", "Cos", "Tan") or op in WINDOW_FUNCTIONS)
            assert ours and sorted(set(calls)) == ours, (case.name, calls)
            if len(graph.node) == 1:  # the output is crtrig's, bit for bit
                node = graph.node[0]
                if node.op_type in WINDOW_FUNCTIONS:
                    attrs = {a.name: a.i for a in node.attribute}
                    want = WINDOW_FUNCTIONS[node.op_type](inputs[0], periodic=attrs.get("periodic", 1),
                                                          dtype=OUTPUT_TYPES[attrs.get("output_datatype", 1)])
                else:
                    want = getattr(crtrig, node.op_type.lower())(inputs[0])
                assert bits(outputs[0]) == bits(want), case.name
    assert {case.name for case in node_tests} >= EXPECTED_NODE_TESTS


# ---------------------------------------------------------------------------
# Windows through new_ops
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("op", sorted(WINDOW_FUNCTIONS))
@pytest.mark.parametrize("code", sorted(OUTPUT_TYPES))
def test_windows_in_every_output_type_are_crtrigs(op, code):
    for periodic in (0, 1):
        model = window_model(op, periodic=periodic, output_datatype=code)
        evaluator = ReferenceEvaluator(model, new_ops=co.new_ops)
        for size in (0, 1, 2, 3, 10, 257, 1000):
            (got,) = evaluator.run(None, {"size": np.array(size, dtype=np.int64)})
            want = WINDOW_FUNCTIONS[op](size, periodic=bool(periodic), dtype=OUTPUT_TYPES[code])
            expected_dtype = ONNX_BFLOAT16 if code == TensorProto.BFLOAT16 else want.dtype
            assert got.dtype == expected_dtype and got.shape == (size,)
            assert bits(got) == bits(want), (op, code, periodic, size)


def test_bfloat16_windows_are_exact_where_a_float64_cast_rounds_twice():
    """Hann, symmetric, size 748: element 43 is one where a float64 -> bfloat16
    cast through float32 (ml_dtypes before 0.7) rounds twice, to another value
    (tests/test_reference.py); new_ops gives the value rounded once (MPFR
    through tests/oracle.py)."""
    model = window_model("HannWindow", periodic=0, output_datatype=TensorProto.BFLOAT16)
    (got,) = run_reference(model, {"size": np.array(748, dtype=np.int64)})
    value = float(np.asarray(got).view(np.uint16)[43:44].view(BFLOAT16)[0])
    assert value == oracle.window_value("hann", 43, 747, "bfloat16")
    assert value != oracle.round_through(oracle.window_value("hann", 43, 747, "float64"), "float32", "bfloat16")


def test_window_size_may_be_int32_rank_0_or_one_element_rank_1_and_attributes_default():
    want = crtrig.hamming_window(12)
    for size_type, dtype, shape in ((TensorProto.INT32, np.int32, ()), (TensorProto.INT64, np.int64, (1,)),
                                    (TensorProto.INT32, np.int32, (1,))):
        model = window_model("HammingWindow", size_type=size_type, size_shape=shape)
        (got,) = run_reference(model, {"size": np.full(shape, 12, dtype=dtype)})
        assert bits(got) == bits(want)


@pytest.mark.parametrize(
    "size, size_type, attributes, error, message",
    [
        (np.array(4.0, np.float32), TensorProto.FLOAT, {}, TypeError, "int32 or int64"),
        (np.array(4, np.int16), TensorProto.INT16, {}, TypeError, "int32 or int64"),
        (np.array([4, 5]), TensorProto.INT64, {}, ValueError, r"shape \(2,\)"),
        (np.array([[4]]), TensorProto.INT64, {}, ValueError, r"shape \(1, 1\)"),
        (np.zeros(0, np.int64), TensorProto.INT64, {}, ValueError, r"shape \(0,\)"),
        (np.array(-1), TensorProto.INT64, {}, ValueError, "non-negative; got -1"),
        (np.array(2**53 + 1), TensorProto.INT64, {}, ValueError, "2\\*\\*53"),
        (np.array(4), TensorProto.INT64, {"output_datatype": TensorProto.STRING}, TypeError, "STRING"),
        (np.array(4), TensorProto.INT64, {"output_datatype": TensorProto.COMPLEX64}, TypeError, "COMPLEX64"),
        (np.array(4), TensorProto.INT64, {"output_datatype": 99}, TypeError, "99"),
        (np.array(4), TensorProto.INT64, {"periodic": 2}, ValueError, "periodic must be 0 or 1"),
    ],
)
def test_bad_window_inputs_raise_errors_naming_the_node(size, size_type, attributes, error, message):
    for name, label in (("win7", "HannWindow node 'win7'"), ("", "HannWindow node with output 'y'")):
        model = window_model("HannWindow", size_type=size_type, size_shape=size.shape, name=name, **attributes)
        with pytest.raises(error, match=re.escape(label) + ".*" + message):
            run_reference(model, {"size": size})


# ---------------------------------------------------------------------------
# Sin and Cos through new_ops
# ---------------------------------------------------------------------------


def exact(op, x):
    """MPFR's correctly rounded Sin, Cos or Tan of x (tests/oracle.py)."""
    if op == "Tan":
        with np.errstate(over="ignore"):
            return oracle.tan_family("tan", x)
    return oracle.trig(op.lower(), x)


def every_16_bit_value(dtype):
    return np.arange(1 << 16, dtype=np.uint16).view(dtype)


@pytest.mark.parametrize("op", ["Sin", "Cos", "Tan"])
@pytest.mark.parametrize("dtype, code", [(np.float16, TensorProto.FLOAT16), (BFLOAT16, TensorProto.BFLOAT16)])
def test_sin_cos_16_bit_are_crtrigs_and_correctly_rounded(op, dtype, code):
    """Every 16-bit input; where they differ from onnx.reference's own Sin/Cos
    (numpy, which rounds float16 twice, through float32), ours match MPFR."""
    x = every_16_bit_value(dtype)
    with np.errstate(invalid="ignore", over="ignore"):  # the infinities; float16 tan(177.5)
        (got,) = run_reference(trig_model(op, code), {"x": x})
        want = getattr(crtrig, op.lower())(x)
        (default,) = ReferenceEvaluator(trig_model(op, code)).run(None, {"x": x})
    assert got.dtype == np.dtype(dtype) and bits(got) == bits(want)
    differ = np.flatnonzero(np.asarray(default).view(np.uint16) != np.asarray(got).view(np.uint16))
    differ = differ[~np.isnan(np.asarray(got, dtype=np.float32)[differ])]
    assert bits(np.asarray(got)[differ]) == bits(exact(op, x[differ]))
    if dtype == np.float16:
        assert differ.size > 0  # numpy misses some float16 sines and cosines: the test can tell


@pytest.mark.parametrize("op", ["Sin", "Cos", "Tan"])
def test_sin_cos_float32_are_crtrigs_in_any_shape(op):
    rng = np.random.default_rng(17)
    x = rng.integers(0, 2**32, 6000, dtype=np.uint64).astype(np.uint32).view(np.float32).reshape(20, 30, 10)
    with np.errstate(invalid="ignore"):
        (got,) = run_reference(trig_model(op, TensorProto.FLOAT), {"x": x})
    assert got.shape == x.shape and bits(got) == bits(getattr(crtrig, op.lower())(x))
    finite = np.isfinite(x)
    assert bits(got[finite][:500]) == bits(exact(op, x[finite][:500]))
    for scalar in (np.array(0.5, np.float32), np.array(-0.0, np.float32)):
        (got,) = run_reference(trig_model(op, TensorProto.FLOAT), {"x": scalar})
        assert got.shape == () and bits(got) == bits(exact(op, scalar))


def test_sin_cos_accept_opset_7():
    x = np.linspace(-4, 4, 101, dtype=np.float32)
    for op in ("Sin", "Cos", "Tan"):
        (got,) = run_reference(trig_model(op, TensorProto.FLOAT, opset=7), {"x": x})
        assert bits(got) == bits(getattr(crtrig, op.lower())(x))


@pytest.mark.parametrize("op", ["Sin", "Cos", "Tan"])
def test_sin_cos_float64_are_correctly_rounded(op):
    rng = np.random.default_rng(64)
    x = np.concatenate([rng.uniform(-10, 10, 300),
                        rng.integers(0, 2**63, 300, dtype=np.uint64).view(np.float64)])
    x = x[np.isfinite(x)]
    (got,) = run_reference(trig_model(op, TensorProto.DOUBLE), {"x": x})
    assert got.dtype == np.float64
    assert bits(got) == bits(exact(op, x))


def test_sin_cos_reject_other_types_naming_the_node():
    for op in ("Sin", "Cos", "Tan"):
        with pytest.raises(TypeError, match=f"{op} node 'my{op}': input must be a float16, bfloat16, float or double"):
            run_reference(trig_model(op, TensorProto.INT32), {"x": np.arange(3, dtype=np.int32)})


def test_onnx_1_14_to_1_18_bfloat16_representation_is_converted_bit_for_bit():
    """Before ml_dtypes, onnx represented BFLOAT16 as a uint16 with a 'bfloat16'
    field (onnx._custom_element_types.bfloat16), and before that as float32."""
    legacy = np.dtype((np.uint16, {"bfloat16": (np.uint16, 0)}))
    window = crtrig.blackman_window(300, dtype=BFLOAT16)
    as_legacy = co._bfloat16_to_onnx(window, legacy)
    assert as_legacy.dtype == legacy and bits(as_legacy) == bits(window)
    as_float = co._bfloat16_to_onnx(window, np.dtype(np.float32))
    assert as_float.dtype == np.float32 and bits(as_float.astype(BFLOAT16)) == bits(window)
    x = every_16_bit_value(BFLOAT16)
    for op in (co.Sin, co.Cos, co.Tan):
        with np.errstate(invalid="ignore"):  # the infinities
            got = op.eval(x.view(np.uint16).view(legacy))
            want = getattr(crtrig, op.__name__.lower())(x)
        assert got.dtype == legacy and bits(got) == bits(want)


# ---------------------------------------------------------------------------
# fold_windows
# ---------------------------------------------------------------------------


def ort_run(model, feeds=None):
    # pyproject's test extra leaves onnxruntime out only where it has no wheels (macOS x86_64).
    ort = pytest.importorskip("onnxruntime")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, feeds or {})


def make_model(nodes, outputs, initializers=(), inputs=(), functions=(), opset=17):
    graph = helper.make_graph(nodes, "g", list(inputs), outputs, initializer=list(initializers))
    opsets = [helper.make_opsetid("", opset)] + ([helper.make_opsetid("local", 1)] if functions else [])
    return helper.make_model(graph, opset_imports=opsets, functions=list(functions))


def out(name, elem_type, shape=(None,)):
    return helper.make_tensor_value_info(name, elem_type, list(shape) if shape is not None else None)


def window_ops(graph):
    ops = [n.op_type for n in graph.node if n.op_type in WINDOW_FUNCTIONS]
    for node in graph.node:
        for attribute in node.attribute:
            if attribute.type == onnx.AttributeProto.GRAPH:
                ops += window_ops(attribute.g)
    return ops


def initializer(graph, name):
    (tensor,) = [t for t in graph.initializer if t.name == name]
    return numpy_helper.to_array(tensor)


SIZE_SOURCES = {
    "Constant value_int": lambda n: ([helper.make_node("Constant", [], ["n"], value_int=n)], []),
    "Constant value int32": lambda n: ([helper.make_node(
        "Constant", [], ["n"], value=numpy_helper.from_array(np.array(n, np.int32)))], []),
    "Constant value int64 [1]": lambda n: ([helper.make_node(
        "Constant", [], ["n"], value=numpy_helper.from_array(np.array([n], np.int64)))], []),
    "initializer int64": lambda n: ([], [numpy_helper.from_array(np.array(n, np.int64), "n")]),
    "initializer int32": lambda n: ([], [numpy_helper.from_array(np.array(n, np.int32), "n")]),
}


@pytest.mark.parametrize("source", sorted(SIZE_SOURCES))
@pytest.mark.parametrize("op", sorted(WINDOW_FUNCTIONS))
def test_fold_replaces_every_constant_window_in_every_type(source, op):
    nodes, inits, outputs, expected = [], [], [], {}
    size_nodes, size_inits = SIZE_SOURCES[source](37)
    for code, dtype in OUTPUT_TYPES.items():
        for periodic in (0, 1):
            name = f"w{code}_{periodic}"
            nodes.append(helper.make_node(op, ["n"], [name], periodic=periodic, output_datatype=code))
            outputs.append(out(name, code))
            expected[name] = (code, WINDOW_FUNCTIONS[op](37, periodic=bool(periodic), dtype=dtype))
    model = make_model(size_nodes + nodes, outputs, size_inits + inits)
    # onnx's shape inference wants a scalar size; onnxruntime also takes a one-element 1-D one.
    onnx.checker.check_model(model, full_check="[1]" not in source)
    before = model.SerializeToString()
    folded = co.fold_windows(model)
    assert model.SerializeToString() == before  # the input is left alone
    onnx.checker.check_model(folded, full_check=True)
    assert list(folded.graph.node) == []  # the windows and their orphaned size constant are gone
    assert sorted(t.name for t in folded.graph.initializer) == sorted(expected)
    for name, (code, want) in expected.items():
        (tensor,) = [t for t in folded.graph.initializer if t.name == name]
        assert tensor.data_type == code and list(tensor.dims) == [37]
        assert bits(numpy_helper.to_array(tensor)) == bits(want), name
    # And every runtime reads the same bits: onnxruntime (bfloat16 cannot
    # leave ORT as numpy: checked below through a Cast), onnx.reference.
    plain = [name for name, (code, _) in expected.items() if code != TensorProto.BFLOAT16]
    results = dict(zip([o.name for o in folded.graph.output], ort_run(folded_without(folded, plain))))
    for name in plain:
        assert bits(results[name]) == bits(expected[name][1]), name
    for name, got in zip([o.name for o in folded.graph.output], ReferenceEvaluator(folded).run(None, {})):
        assert bits(got) == bits(expected[name][1]), name


def folded_without(model, keep):
    """The model with only the graph outputs named in ``keep``."""
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    outputs = [o for o in copy.graph.output if o.name in keep]
    del copy.graph.output[:]
    copy.graph.output.extend(outputs)
    return copy


def test_folded_windows_run_bit_exact_in_onnxruntime_where_its_own_are_far_off():
    """float64 periodic Hamming of size 100001: onnxruntime's own kernel uses
    float32 coefficients and is about 1.5e9 ULP off; the folded model gives
    crtrig's window.  bfloat16 and float16 come out through exact Casts."""
    nodes = [
        helper.make_node("Constant", [], ["n"], value_int=100001),
        helper.make_node("HammingWindow", ["n"], ["hamming64"], output_datatype=TensorProto.DOUBLE),
        helper.make_node("BlackmanWindow", ["n"], ["blackman16"], output_datatype=TensorProto.FLOAT16,
                         periodic=0),
        helper.make_node("HannWindow", ["m"], ["hann_bf16"], output_datatype=TensorProto.BFLOAT16),
        helper.make_node("Cast", ["hann_bf16"], ["hann_bf16_as_float"], to=TensorProto.FLOAT),
    ]
    model = make_model(nodes, [out("hamming64", TensorProto.DOUBLE), out("blackman16", TensorProto.FLOAT16),
                               out("hann_bf16_as_float", TensorProto.FLOAT)],
                       [numpy_helper.from_array(np.array(4099, np.int32), "m")])
    folded = co.fold_windows(model)
    onnx.checker.check_model(folded, full_check=True)
    assert window_ops(folded.graph) == [] and [n.op_type for n in folded.graph.node] == ["Cast"]
    hamming, blackman, hann = ort_run(folded)
    want_hamming = crtrig.hamming_window(100001, dtype=np.float64)
    assert bits(hamming) == bits(want_hamming)
    assert bits(blackman) == bits(crtrig.blackman_window(100001, periodic=False, dtype=np.float16))
    assert bits(hann) == bits(crtrig.hann_window(4099, dtype=BFLOAT16).astype(np.float32))
    ort_hamming = ort_run(model)[0]
    distance = np.abs(ort_hamming.view(np.int64) - want_hamming.view(np.int64))
    assert distance.max() > 10**9 and np.count_nonzero(distance) > 0.99 * distance.size


def test_folded_window_feeds_downstream_nodes():
    """window x frame (Mul) is bit-exact; an STFT with the folded window still runs
    and agrees with numpy's FFT of the windowed frames."""
    frame_length, step, signal_length = 256, 64, 1024
    nodes = [
        helper.make_node("Constant", [], ["n"], value=numpy_helper.from_array(np.array(frame_length, np.int64))),
        helper.make_node("HannWindow", ["n"], ["window"]),
        helper.make_node("Mul", ["frame", "window"], ["windowed"]),
        helper.make_node("Constant", [], ["step"], value=numpy_helper.from_array(np.array(step, np.int64))),
        helper.make_node("STFT", ["signal", "step", "window"], ["spectrum"], onesided=1),
    ]
    inputs = [helper.make_tensor_value_info("frame", TensorProto.FLOAT, [frame_length]),
              helper.make_tensor_value_info("signal", TensorProto.FLOAT, [1, signal_length, 1])]
    model = make_model(nodes, [out("windowed", TensorProto.FLOAT), out("spectrum", TensorProto.FLOAT, (1, None, None, 2))],
                       inputs=inputs)
    folded = co.fold_windows(model)
    onnx.checker.check_model(folded, full_check=True)
    assert window_ops(folded.graph) == []
    assert sorted(n.op_type for n in folded.graph.node) == ["Constant", "Mul", "STFT"]
    rng = np.random.default_rng(3)
    frame = rng.standard_normal(frame_length).astype(np.float32)
    signal = rng.standard_normal((1, signal_length, 1)).astype(np.float32)
    windowed, spectrum = ort_run(folded, {"frame": frame, "signal": signal})
    window = crtrig.hann_window(frame_length)
    assert bits(windowed) == bits(frame * window)
    frames = np.stack([signal[0, i:i + frame_length, 0] for i in range(0, signal_length - frame_length + 1, step)])
    want = np.fft.rfft(frames.astype(np.float64) * window, axis=-1)
    assert spectrum.shape == (1, frames.shape[0], frame_length // 2 + 1, 2)
    np.testing.assert_allclose(spectrum[0, ..., 0], want.real, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(spectrum[0, ..., 1], want.imag, rtol=1e-4, atol=1e-3)


def test_windows_without_a_constant_size_are_left_alone():
    nodes = [helper.make_node("HannWindow", ["size_input"], ["a"]),
             helper.make_node("HannWindow", ["overridable"], ["b"]),
             helper.make_node("Add", ["size_input", "one"], ["computed"]),
             helper.make_node("HannWindow", ["computed"], ["c"])]
    inputs = [helper.make_tensor_value_info("size_input", TensorProto.INT64, []),
              helper.make_tensor_value_info("overridable", TensorProto.INT64, [])]
    inits = [numpy_helper.from_array(np.array(8, np.int64), "overridable"),
             numpy_helper.from_array(np.array(1, np.int64), "one")]
    model = make_model(nodes, [out(x, TensorProto.FLOAT) for x in "abc"], inits, inputs)
    folded, done, left = co._fold_windows(model, co.DEFAULT_FOLD_MAX_BYTES)
    assert folded.SerializeToString() == model.SerializeToString()
    assert done == [] and [reason for _, reason in left] == ["its size is not a constant"] * 3


def test_size_constants_still_in_use_are_kept():
    nodes = [helper.make_node("Constant", [], ["n"], value_int=12),
             helper.make_node("Constant", [], ["shared"], value_int=5),
             helper.make_node("HannWindow", ["n"], ["a"]),
             helper.make_node("BlackmanWindow", ["n"], ["b"]),
             helper.make_node("HammingWindow", ["shared"], ["c"]),
             helper.make_node("Add", ["shared", "k"], ["d"]),
             helper.make_node("HannWindow", ["k"], ["e"])]
    inits = [numpy_helper.from_array(np.array(3, np.int64), "k"),
             numpy_helper.from_array(np.array(7, np.int64), "unrelated")]
    model = make_model(nodes, [out(x, TensorProto.FLOAT) for x in "abce"] + [out("d", TensorProto.INT64, ())],
                       inits)
    folded = co.fold_windows(model)
    onnx.checker.check_model(folded, full_check=True)
    assert [(n.op_type, n.output[0]) for n in folded.graph.node] == [("Constant", "shared"), ("Add", "d")]
    # k is still used by Add; "unrelated" was never a window size: both stay.
    assert sorted(t.name for t in folded.graph.initializer) == ["a", "b", "c", "e", "k", "unrelated"]
    a, b, c, e, d = ort_run(folded)
    assert bits(a) == bits(crtrig.hann_window(12)) and bits(c) == bits(crtrig.hamming_window(5))
    assert bits(e) == bits(crtrig.hann_window(3)) and d == 8


def test_windows_in_if_bodies_are_folded_into_the_bodies():
    """Sizes from the body itself and from the enclosing graph; the outer size
    constant is also used by the else branch after folding, so it stays."""
    then_graph = helper.make_graph(
        [helper.make_node("Constant", [], ["inner"], value_int=6),
         helper.make_node("HannWindow", ["inner"], ["then_w"], output_datatype=TensorProto.DOUBLE),
         helper.make_node("HammingWindow", ["outer"], ["then_v"], output_datatype=TensorProto.DOUBLE)],
        "then", [], [out("then_w", TensorProto.DOUBLE), out("then_v", TensorProto.DOUBLE)])
    else_graph = helper.make_graph(
        [helper.make_node("BlackmanWindow", ["outer"], ["else_w"], output_datatype=TensorProto.DOUBLE),
         helper.make_node("Cast", ["outer"], ["outer_d"], to=TensorProto.DOUBLE),
         helper.make_node("Expand", ["outer_d", "shape"], ["else_v"])],
        "else", [], [out("else_w", TensorProto.DOUBLE), out("else_v", TensorProto.DOUBLE)])
    nodes = [helper.make_node("Constant", [], ["outer"], value_int=9),
             helper.make_node("Constant", [], ["shape"], value=numpy_helper.from_array(np.array([9], np.int64))),
             helper.make_node("If", ["cond"], ["x", "y"], then_branch=then_graph, else_branch=else_graph)]
    model = make_model(nodes, [out("x", TensorProto.DOUBLE), out("y", TensorProto.DOUBLE)],
                       inputs=[helper.make_tensor_value_info("cond", TensorProto.BOOL, [])])
    onnx.checker.check_model(model, full_check=True)
    folded = co.fold_windows(model)
    onnx.checker.check_model(folded, full_check=True)
    assert window_ops(folded.graph) == []
    bodies = {attribute.name: attribute.g for attribute in folded.graph.node[-1].attribute}
    then_body, else_body = bodies["then_branch"], bodies["else_branch"]
    assert sorted(t.name for t in then_body.initializer) == ["then_v", "then_w"]
    assert list(then_body.node) == []  # "inner" fed only the folded window
    assert [t.name for t in else_body.initializer] == ["else_w"]
    assert [n.output[0] for n in folded.graph.node] == ["outer", "shape", "x"]
    x, y = ort_run(folded, {"cond": np.array(True)})
    assert bits(x) == bits(crtrig.hann_window(6, dtype=np.float64))
    assert bits(y) == bits(crtrig.hamming_window(9, dtype=np.float64))
    x, y = ort_run(folded, {"cond": np.array(False)})
    assert bits(x) == bits(crtrig.blackman_window(9, dtype=np.float64)) and y.tolist() == [9.0] * 9


def test_windows_in_loop_bodies_are_folded():
    """A Loop body (any graph attribute is walked) whose window takes its size
    from the enclosing graph; each iteration emits the window as a scan output."""
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("BlackmanWindow", ["outer"], ["w"], periodic=0, output_datatype=TensorProto.DOUBLE)],
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []), out("w", TensorProto.DOUBLE, (11,))])
    nodes = [helper.make_node("Constant", [], ["outer"], value_int=11),
             helper.make_node("Constant", [], ["trips"], value=numpy_helper.from_array(np.array(3, np.int64))),
             helper.make_node("Constant", [], ["cond"], value=numpy_helper.from_array(np.array(True))),
             helper.make_node("Loop", ["trips", "cond"], ["rows"], body=body)]
    model = make_model(nodes, [out("rows", TensorProto.DOUBLE, (3, 11))])
    onnx.checker.check_model(model, full_check=True)
    folded = co.fold_windows(model)
    onnx.checker.check_model(folded, full_check=True)
    assert window_ops(folded.graph) == []
    assert [n.output[0] for n in folded.graph.node] == ["trips", "cond", "rows"]  # "outer" is gone
    (rows,) = ort_run(folded)
    want = crtrig.blackman_window(11, periodic=False, dtype=np.float64)
    assert rows.shape == (3, 11) and all(bits(row) == bits(want) for row in rows)


def test_windows_in_functions_are_left_alone():
    function = helper.make_function(
        "local", "MyWindow", ["unused"], ["w"],
        [helper.make_node("Constant", [], ["n"], value_int=8), helper.make_node("HannWindow", ["n"], ["w"])],
        opset_imports=[helper.make_opsetid("", 17)])
    nodes = [helper.make_node("Constant", [], ["u"], value_int=0),
             helper.make_node("MyWindow", ["u"], ["w"], domain="local")]
    model = make_model(nodes, [out("w", TensorProto.FLOAT)], functions=[function])
    onnx.checker.check_model(model)
    folded, done, left = co._fold_windows(model, co.DEFAULT_FOLD_MAX_BYTES)
    assert done == [] and left == [] and folded.SerializeToString() == model.SerializeToString()
    assert ort_run(folded)[0].shape == (8,)


def test_windows_past_max_bytes_are_left_alone():
    nodes = [helper.make_node("Constant", [], ["n"], value_int=1000),
             helper.make_node("HannWindow", ["n"], ["a"], output_datatype=TensorProto.DOUBLE),
             helper.make_node("HannWindow", ["n"], ["b"], output_datatype=TensorProto.FLOAT)]
    model = make_model(nodes, [out("a", TensorProto.DOUBLE), out("b", TensorProto.FLOAT)])
    folded, done, left = co._fold_windows(model, 8000 + 3999)
    assert done == ["HannWindow node with output 'a'"]
    assert left == [("HannWindow node with output 'b'",
                     "its 4000 bytes would take the folded windows past max_bytes=11999")]
    assert [n.op_type for n in folded.graph.node] == ["Constant", "HannWindow"]
    onnx.checker.check_model(folded, full_check=True)
    both = co.fold_windows(model, max_bytes=12000)
    assert window_ops(both.graph) == [] and bits(initializer(both.graph, "b")) == bits(crtrig.hann_window(1000))


@pytest.mark.parametrize(
    "size_node, attributes, error, message",
    [
        (helper.make_node("Constant", [], ["n"], value_int=-3), {}, ValueError, "non-negative; got -3"),
        (helper.make_node("Constant", [], ["n"], value=numpy_helper.from_array(np.array(3.0, np.float32))),
         {}, TypeError, "int32 or int64 tensor; got float32"),
        (helper.make_node("Constant", [], ["n"], value=numpy_helper.from_array(np.array([3, 4], np.int64))),
         {}, ValueError, r"shape \(2,\)"),
        (helper.make_node("Constant", [], ["n"], value_int=3), {"output_datatype": TensorProto.STRING},
         TypeError, "output_datatype 8"),
        (helper.make_node("Constant", [], ["n"], value_int=3), {"periodic": 5}, ValueError, "periodic"),
    ],
)
def test_fold_rejects_bad_window_nodes_naming_them(size_node, attributes, error, message):
    model = make_model([size_node, helper.make_node("HannWindow", ["n"], ["w"], name="bad", **attributes)],
                       [out("w", TensorProto.FLOAT)])
    with pytest.raises(error, match="HannWindow node 'bad': .*" + message):
        co.fold_windows(model)


def test_fold_rejects_what_is_not_a_model():
    with pytest.raises(TypeError, match="onnx.ModelProto"):
        co.fold_windows(b"not a model")
    with pytest.raises(ValueError, match="max_bytes"):
        co.fold_windows(onnx.ModelProto(), max_bytes=-1)


# ---------------------------------------------------------------------------
# python -m crtrig onnx-fold
# ---------------------------------------------------------------------------


def fold_model_file(path, size=64):
    nodes = [helper.make_node("Constant", [], ["n"], value_int=size),
             helper.make_node("HammingWindow", ["n"], ["w"], output_datatype=TensorProto.DOUBLE, name="ham")]
    onnx.save(make_model(nodes, [out("w", TensorProto.DOUBLE)]), path)


def test_onnx_fold_command_writes_the_folded_model(tmp_path, capsys):
    source, target = tmp_path / "in.onnx", tmp_path / "out.onnx"
    fold_model_file(source)
    assert main(["onnx-fold", str(source), str(target)]) == 0
    assert "folded 1 window node" in capsys.readouterr().out
    folded = onnx.load(target)
    onnx.checker.check_model(folded, full_check=True)
    assert bits(initializer(folded.graph, "w")) == bits(crtrig.hamming_window(64, dtype=np.float64))
    # In place: OUT may be IN.
    assert main(["onnx-fold", str(source), str(source)]) == 0
    assert onnx.load(source).SerializeToString() == folded.SerializeToString()
    assert sorted(os.listdir(tmp_path)) == ["in.onnx", "out.onnx"]  # no temporary file left


@pytest.mark.parametrize("argv", [[], ["only-one.onnx"], ["a.onnx", "b.onnx", "--max-bytes", "x"],
                                  ["a.onnx", "b.onnx", "--max-bytes", "-1"]])
def test_onnx_fold_usage_errors_are_one_line_with_status_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["onnx-fold"] + argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("crtrig onnx-fold: error: ") and err.count("\n") == 1, err


@pytest.mark.parametrize("case", ["missing", "garbage", "negative", "directory"])
def test_onnx_fold_command_errors_are_one_line_with_status_2(tmp_path, case):
    source, target = tmp_path / "in.onnx", tmp_path / "out.onnx"
    if case == "garbage":
        source.write_bytes(b"\xff\xfe not a protobuf \x00" * 10)
    elif case == "negative":
        fold_model_file(source, size=-5)
    elif case == "directory":
        fold_model_file(source)
        target = tmp_path / "no" / "such" / "dir" / "out.onnx"
    result = subprocess.run([sys.executable, "-m", "crtrig", "onnx-fold", str(source), str(target)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("crtrig onnx-fold: error: "), result.stderr
    assert "Traceback" not in result.stderr
    if case == "negative":
        assert "HammingWindow node 'ham': size must be non-negative; got -5" in lines[0]
    assert not target.exists()


# ---------------------------------------------------------------------------
# Scopes: a name a subgraph defines hides the enclosing graph's constant
# ---------------------------------------------------------------------------


def int_input(name, shape=()):
    return helper.make_tensor_value_info(name, TensorProto.INT64, list(shape))


def shadowing_model():
    """The outer graph has a Constant n = 8 (and a window of it).  A Loop
    (one trip) carries its own n = 4 into its body, whose window of n is a
    window of 4; inside that body an If (on the model's input "branch"):
    its then branch uses the body's n, its else branch has an initializer n = 5; a Scan in the body has a state n = 3
    and a window of the outer graph's m = 6, which nothing redefines."""
    scan_body = helper.make_graph(
        [helper.make_node("Identity", ["n"], ["n_next"]),
         helper.make_node("HannWindow", ["n"], ["scan_w"], name="scan window of its state n"),
         helper.make_node("BlackmanWindow", ["m"], ["scan_m"], name="scan window of the outer m")],
        "scan_body", [int_input("n"), helper.make_tensor_value_info("x", TensorProto.FLOAT, [])],
        [int_input("n_next"), out("scan_w", TensorProto.FLOAT), out("scan_m", TensorProto.FLOAT)])
    then_branch = helper.make_graph(
        [helper.make_node("HammingWindow", ["n"], ["if_w"], name="then window of the loop's n")],
        "then", [], [out("if_w", TensorProto.FLOAT)])
    else_branch = helper.make_graph(
        [helper.make_node("HammingWindow", ["n"], ["if_w"], name="else window of its own n")],
        "else", [], [out("if_w", TensorProto.FLOAT)],
        initializer=[numpy_helper.from_array(np.array(5, np.int64), "n")])
    loop_body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Identity", ["n"], ["n_out"]),
         helper.make_node("HannWindow", ["n"], ["loop_w"], name="loop window of its input n"),
         helper.make_node("If", ["branch"], ["loop_if"], then_branch=then_branch, else_branch=else_branch),
         helper.make_node("Constant", [], ["three"], value=numpy_helper.from_array(np.array(3, np.int64))),
         helper.make_node("Constant", [], ["xs"], value=numpy_helper.from_array(np.zeros(1, np.float32))),
         helper.make_node("Scan", ["three", "xs"], ["three_out", "loop_scan_w", "loop_scan_m"], num_scan_inputs=1,
                          body=scan_body)],
        "loop_body", [int_input("i"), helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
                      int_input("n")],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []), int_input("n_out"),
         out("loop_w", TensorProto.FLOAT), out("loop_if", TensorProto.FLOAT),
         out("loop_scan_w", TensorProto.FLOAT, (1, None)), out("loop_scan_m", TensorProto.FLOAT, (1, None))])
    nodes = [helper.make_node("Constant", [], ["n"], value_int=8),
             helper.make_node("Constant", [], ["m"], value_int=6),
             helper.make_node("HannWindow", ["n"], ["outer_w"], name="outer window of n"),
             helper.make_node("Constant", [], ["trips"], value=numpy_helper.from_array(np.array(1, np.int64))),
             helper.make_node("Constant", [], ["four"], value=numpy_helper.from_array(np.array(4, np.int64))),
             helper.make_node("Constant", [], ["yes"], value=numpy_helper.from_array(np.array(True))),
             helper.make_node("Loop", ["trips", "yes", "four"],
                              ["n_final", "ws", "ifs", "scan_ws", "scan_ms"], body=loop_body)]
    return make_model(nodes, [out("outer_w", TensorProto.FLOAT), int_input("n_final"),
                              out("ws", TensorProto.FLOAT, (1, None)), out("ifs", TensorProto.FLOAT, (1, None)),
                              out("scan_ws", TensorProto.FLOAT, (1, 1, None)),
                              out("scan_ms", TensorProto.FLOAT, (1, 1, None))],
                      inputs=[helper.make_tensor_value_info("branch", TensorProto.BOOL, [])])


def test_names_a_subgraph_defines_hide_outer_constants():
    model = shadowing_model()
    onnx.checker.check_model(model, full_check=True)
    folded, done, left = co._fold_windows(model, co.DEFAULT_FOLD_MAX_BYTES)
    onnx.checker.check_model(folded, full_check=True)
    assert sorted(done) == sorted(f"{op} node {name!r}" for op, name in [
        ("HannWindow", "outer window of n"), ("HammingWindow", "else window of its own n"),
        ("BlackmanWindow", "scan window of the outer m")])
    assert sorted(left) == sorted((f"{op} node {name!r}", "its size is not a constant") for op, name in [
        ("HannWindow", "loop window of its input n"), ("HammingWindow", "then window of the loop's n"),
        ("HannWindow", "scan window of its state n")])
    # The outer n is still used (by nothing but its folded window: dropped); m fed only
    # a folded window in a body two levels down: dropped too.
    assert [n.output[0] for n in folded.graph.node] == ["trips", "four", "yes", "n_final"]
    for cond in (True, False):
        feeds = {"branch": np.array(cond)}
        before, after = ort_run(model, feeds), ort_run(folded, feeds)
        shapes = [(8,), (), (1, 4), (1, 4 if cond else 5), (1, 1, 3), (1, 1, 6)]
        assert [a.shape for a in before] == [a.shape for a in after] == shapes
        outer_w, _, ws, ifs, scan_ws, scan_ms = after
        # Folded: crtrig's windows.  Left alone: onnxruntime computes them, as before.
        assert bits(outer_w) == bits(crtrig.hann_window(8))
        assert bits(scan_ms[0, 0]) == bits(crtrig.blackman_window(6))
        assert bits(ws) == bits(before[2]) and bits(scan_ws) == bits(before[4])
        assert bits(ifs) == (bits(before[3]) if cond else bits(crtrig.hamming_window(5)[None]))


def test_a_node_output_in_a_body_hides_an_outer_constant_and_fails_the_checker(tmp_path):
    """A body node that redefines n: onnx.checker refuses the model (SSA), so
    fold_windows and onnx-fold refuse it; folding it unchecked still binds
    the body's n, not the outer constant."""
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Add", ["i", "one"], ["n"]),
         helper.make_node("HannWindow", ["n"], ["w"], name="body")],
        "body", [int_input("i"), helper.make_tensor_value_info("cond_in", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []), out("w", TensorProto.FLOAT)])
    nodes = [helper.make_node("Constant", [], ["n"], value_int=8),
             helper.make_node("Constant", [], ["one"], value_int=1),
             helper.make_node("Constant", [], ["trips"], value=numpy_helper.from_array(np.array(2, np.int64))),
             helper.make_node("HannWindow", ["n"], ["outer"]),
             helper.make_node("Loop", ["trips", "cond"], ["ws"], body=body)]
    model = make_model(nodes, [out("outer", TensorProto.FLOAT), out("ws", TensorProto.FLOAT, (2, None))],
                       inputs=[helper.make_tensor_value_info("cond", TensorProto.BOOL, [])])
    with pytest.raises(onnx.checker.ValidationError, match="single static assignment"):
        onnx.checker.check_model(model)
    with pytest.raises(ValueError, match="^the model fails onnx.checker: .*single static assignment"):
        co.fold_windows(model)
    folded, done, left = co._fold_windows(model, co.DEFAULT_FOLD_MAX_BYTES, check=False)
    assert done == ["HannWindow node with output 'outer'"]
    assert left == [("HannWindow node 'body'", "its size is not a constant")]
    path, target = tmp_path / "in.onnx", tmp_path / "out.onnx"
    path.write_bytes(model.SerializeToString())
    result = onnx_fold_subprocess(path, target)
    assert result.returncode == 2 and result.stdout == "" and not target.exists()
    assert re.fullmatch(r"crtrig onnx-fold: error: \S+in\.onnx fails onnx\.checker, nothing folded: "
                        r".*single static assignment.*\n", result.stderr), result.stderr


# ---------------------------------------------------------------------------
# onnx-fold reads a bounded amount whatever the file says
# ---------------------------------------------------------------------------


def onnx_fold_subprocess(*args, address_space=None, timeout=120):
    if address_space is not None and UNDER_ASAN:  # the limit is the point: see tests/sanitizer_marks.py
        pytest.skip(ASAN_REASON)

    def limit():
        if address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    return subprocess.run([sys.executable, "-m", "crtrig", "onnx-fold", *map(str, args)], capture_output=True,
                          text=True, timeout=timeout, preexec_fn=limit)


def one_error_line(result, *fragments):
    assert result.returncode == 2, result
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("crtrig onnx-fold: error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def external(tensor, location, offset=None, length=None):
    tensor.data_location = TensorProto.EXTERNAL
    for key, value in (("location", location), ("offset", offset), ("length", length)):
        if value is not None:
            entry = tensor.external_data.add()
            entry.key, entry.value = key, str(value)
    return tensor


GIB = 1 << 30


def test_onnx_fold_leaves_unrelated_external_data_unread(tmp_path):
    """A model of a few hundred bytes with a 3 GiB external tensor (a sparse
    file) folds within a 1 GiB address space; the output refers to the same
    file."""
    big = TensorProto(name="big", data_type=TensorProto.FLOAT, dims=[3 * GIB // 4])
    size = TensorProto(name="size", data_type=TensorProto.INT64, dims=[])
    nodes = [helper.make_node("HannWindow", ["size"], ["w"], output_datatype=TensorProto.DOUBLE),
             helper.make_node("ReduceSum", ["big"], ["s"], keepdims=0)]
    model = make_model(nodes, [out("w", TensorProto.DOUBLE), out("s", TensorProto.FLOAT, ())],
                       [external(big, "big.bin", 0, 3 * GIB), external(size, "size.bin", 8, 8)])
    source, target = tmp_path / "in.onnx", tmp_path / "out.onnx"
    source.write_bytes(model.SerializeToString())
    assert source.stat().st_size < 512
    with open(tmp_path / "big.bin", "wb") as f:
        f.truncate(3 * GIB)
    (tmp_path / "size.bin").write_bytes(np.array([-1, 1000], "<i8").tobytes())
    result = onnx_fold_subprocess(source, target, address_space=GIB)
    assert result.returncode == 0, result
    assert "folded 1 window node" in result.stdout
    folded = onnx.load(target, load_external_data=False)
    onnx.checker.check_model(str(target))
    assert [t.name for t in folded.graph.initializer] == ["big", "w"]  # size fed only the window
    assert folded.graph.initializer[0].external_data == big.external_data
    assert bits(initializer(folded.graph, "w")) == bits(crtrig.hann_window(1000, dtype=np.float64))
    assert (tmp_path / "big.bin").stat().st_blocks == 0  # still all holes: nothing written there
    # Elsewhere the external references would break: refused, nothing written.
    other = tmp_path / "elsewhere"
    other.mkdir()
    one_error_line(onnx_fold_subprocess(source, other / "out.onnx"), "external data", "directory")
    assert os.listdir(other) == []


def test_an_external_size_is_read_only_when_it_is_one_element(tmp_path):
    """A window whose size names a 3 GiB external int64 tensor: an error naming
    the node, nothing read; a size whose external data is missing or too short:
    the checker or the fold says so."""
    size = TensorProto(name="size", data_type=TensorProto.INT64, dims=[3 * GIB // 8])
    nodes = [helper.make_node("HannWindow", ["size"], ["w"], name="huge")]
    model = make_model(nodes, [out("w", TensorProto.FLOAT)], [external(size, "size.bin")])
    source, target = tmp_path / "in.onnx", tmp_path / "out.onnx"
    source.write_bytes(model.SerializeToString())
    with open(tmp_path / "size.bin", "wb") as f:
        f.truncate(3 * GIB)
    one_error_line(onnx_fold_subprocess(source, target, address_space=GIB),
                   "HannWindow node 'huge': size must be a scalar")
    # One element, but the file holds fewer than 8 bytes past the offset: left alone.
    del size.dims[:]
    model = make_model(nodes, [out("w", TensorProto.FLOAT)], [external(size, "short.bin", 4)])
    source.write_bytes(model.SerializeToString())
    (tmp_path / "short.bin").write_bytes(b"\x01" * 8)
    result = onnx_fold_subprocess(source, target)
    assert result.returncode == 0 and "left HannWindow node 'huge': its size constant cannot be read" in result.stdout
    (tmp_path / "short.bin").unlink()
    one_error_line(onnx_fold_subprocess(source, target), "fails onnx.checker", "short.bin")


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "above 2 GiB", "directory"])
def test_onnx_fold_refuses_an_input_that_is_not_a_bounded_regular_file(tmp_path, kind):
    source = {"fifo": tmp_path / "in.onnx", "/dev/zero": "/dev/zero", "above 2 GiB": tmp_path / "in.onnx",
              "directory": tmp_path}[kind]
    if kind == "fifo":
        os.mkfifo(source)
    elif kind == "above 2 GiB":
        with open(source, "wb") as f:
            f.truncate(2 * GIB)
    result = onnx_fold_subprocess(source, tmp_path / "out.onnx", address_space=GIB, timeout=60)
    one_error_line(result, "cannot read ", "more than protobuf's limit of 2147483647 bytes"
                   if kind == "above 2 GiB" else "not a regular file")
    assert not (tmp_path / "out.onnx").exists()


def test_a_folded_model_above_2_gib_is_refused_before_any_window_is_computed(tmp_path):
    """A float64 window of 2**28 + 1 elements is 2 GiB + 8 bytes: refused at
    once (within a 1 GiB address space), saying why."""
    source, target = tmp_path / "in.onnx", tmp_path / "out.onnx"
    fold_model_file(source, size=2**28 + 1)
    result = onnx_fold_subprocess(source, target, "--max-bytes", 2**33, address_space=GIB)
    one_error_line(result, "the folded model would take about 214748", "more than protobuf's 2 GiB limit",
                   "--max-bytes")
    assert not target.exists()


def test_the_output_size_estimate_is_an_upper_bound():
    """_fold_windows's estimate (checked before any window is computed) is at
    least the folded model's size: windows at three depths, names of any length."""
    model = shadowing_model()
    for node in model.graph.node:
        if node.op_type == "HannWindow":
            node.output[0] = "a much longer output name " * 20
    model.graph.output[0].name = "a much longer output name " * 20
    with pytest.raises(co._OutputTooLarge) as too_large:
        co._fold_windows(model, co.DEFAULT_FOLD_MAX_BYTES, output_limit=0)
    folded = co.fold_windows(model)
    assert folded.ByteSize() <= too_large.value.estimate <= folded.ByteSize() + 4096
    assert co._fold_windows(model, co.DEFAULT_FOLD_MAX_BYTES, output_limit=too_large.value.estimate)[1]


def test_onnx_fold_in_place_keeps_the_permissions(tmp_path):
    source = tmp_path / "in.onnx"
    fold_model_file(source)
    os.chmod(source, 0o644)
    assert main(["onnx-fold", str(source), str(source)]) == 0
    assert stat.S_IMODE(os.stat(source).st_mode) == 0o644
    assert window_ops(onnx.load(source).graph) == []
