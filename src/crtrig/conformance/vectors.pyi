"""Type stubs of crtrig.vectors: filling and generating case files (`crtrig cases fill|new`)."""
import argparse
from dataclasses import dataclass
from typing import Any

from numpy.typing import NDArray

MAX_SIGNIFICANT_DIGITS: dict[str, int]
MIN_VALUE_BYTES: dict[str, int]
MAX_VALUE_BYTES: dict[str, int]
WINDOW_INTEGER_VALUE_BYTES: int
MIN_CASE_BYTES: int
TRIG_OPS: dict[str, str]
WINDOW_OPS: dict[str, str]
DTYPE_ORDER: tuple[str, ...]
TRIG_DTYPE_ORDER: tuple[str, ...]
ONNX_DATATYPE_CODES: dict[str, int]
CLASSES: tuple[str, ...]

class UsageError(Exception): ...

class _Raw:
    text: str
    def __init__(self, text: str) -> None: ...

def shortest_decimal(bits: int, fmt_name: str) -> str: ...
def value_tokens(array: NDArray[Any]) -> list[str]: ...
def values_array_token(array: NDArray[Any]) -> _Raw: ...
def parse_keeping_numbers(text: str) -> Any: ...
def dump_json(document: Any) -> str: ...
def max_value_bytes(op: str, dtype: str) -> int: ...

@dataclass
class FillSummary:
    cases: int = 0
    outputs_filled: int = 0
    values_filled: int = 0
    nbytes: int = 0

def fill_text(text: str, path: str, max_elements: int = 67108864,
              max_file_bytes: int = 67108864) -> tuple[str, FillSummary]: ...
def fill_file(in_path: str, out_path: str, max_elements: int = 67108864,
              max_file_bytes: int = 67108864) -> FillSummary: ...
def parse_sizes(spec: str, max_size: int, max_count: int) -> list[int]: ...
def special_bits(fmt_name: str) -> list[int]: ...
def hard_bits(func: str, fmt_name: str) -> list[int]: ...
def random_bits(fmt_name: str, count: int, seed: int) -> NDArray[Any]: ...
def load_inputs(path: str, max_elements: int, max_file_bytes: int) -> NDArray[Any]: ...

@dataclass
class NewRequest:
    op: str
    sizes: str | None = None
    dtypes: str | None = None
    periodic: str | None = None
    inputs: str | None = None
    classes: str | None = None
    seed: int | None = None

def new_document(request: NewRequest, max_elements: int = 67108864,
                 max_file_bytes: int = 67108864) -> dict[str, Any]: ...
def new_text(request: NewRequest, path: str = "<new>", max_elements: int = 67108864,
             max_file_bytes: int = 67108864) -> tuple[str, FillSummary]: ...
def configure_parser(parser: argparse.ArgumentParser) -> None: ...
def run(args: argparse.Namespace) -> int: ...
