"""Type stubs of crtrig.onnx: exact operators for onnx.reference, and window folding."""
from typing import Any

from numpy.typing import NDArray
from onnx.onnx_ml_pb2 import ModelProto
from onnx.reference.op_run import OpRun

__all__ = ["new_ops", "fold_windows", "HannWindow", "HammingWindow", "BlackmanWindow", "Sin", "Cos",
           "Tan", "DEFAULT_FOLD_MAX_BYTES"]

# The operators (OpRun subclasses, for ReferenceEvaluator(..., new_ops=new_ops)).
class _Window(OpRun):
    op_domain: str
    def _run(self, size: Any, output_datatype: Any = None,
             periodic: Any = None) -> tuple[NDArray[Any]]: ...

class HannWindow(_Window): ...
class HammingWindow(_Window): ...
class BlackmanWindow(_Window): ...

class _Trig(OpRun):
    op_domain: str
    def _run(self, x: Any) -> tuple[NDArray[Any]]: ...

class Sin(_Trig): ...
class Cos(_Trig): ...
class Tan(_Trig): ...

new_ops: list[type[OpRun]]
DEFAULT_FOLD_MAX_BYTES: int

def fold_windows(model: ModelProto, *, max_bytes: int = 268435456) -> ModelProto: ...
