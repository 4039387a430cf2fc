"""Type stubs of crtrig.cases: ONNX-style case files and the `crtrig cases` command."""
import argparse
import os
from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TextIO

import numpy as np
from numpy.typing import NDArray

SUPPORTED_FEATURES: frozenset[str]
ONNX_DATATYPES: dict[int, str]
DTYPES: Mapping[str, np.dtype[Any]]
PROGRAM: str
DEFAULT_CHECK_LIMIT: int
DEFAULT_MAX_ELEMENTS: int
DEFAULT_MAX_FILE_BYTES: int
MAX_WINDOW_SIZE: int
MAX_DIGITS: int
MAX_DECIMAL_EXPONENT: int
MAX_BINARY_EXPONENT: int
MAX_NDIM: int
EXCERPT_LENGTH: int
SAMPLE_SEED: int
MAX_NONFINITE_ADDED: int
COMPARE_BLOCK: int
MAX_OPTION_VALUE: int

class MalformedCaseFile(Exception):
    path: str
    case: str | None
    message: str
    def __init__(self, path: str, case: str | None, message: str) -> None: ...

@dataclass
class OutputSpec:
    name: str
    dtype: str
    shape: tuple[int, ...]
    tolerance: Fraction = ...
    rel_tolerance: Fraction = ...
    allow_nan: bool = ...
    expected: NDArray[Any] | None = ...

@dataclass
class Case:
    name: str
    op: OpSpec
    attrs: dict[str, Any]
    inputs: list[NDArray[Any]]
    input_names: list[str]
    outputs: list[OutputSpec]
    required_features: tuple[str, ...] = ...

@dataclass
class CaseFile:
    path: str
    label: str
    op: OpSpec
    cases: list[Case]

@dataclass
class Distances:
    max_ulp: int | float = ...
    max_abs: Fraction | float = ...

@dataclass
class CaseResult:
    label: str
    case: str
    status: str
    checked: int = ...
    total: int = ...
    vs_data: Distances | None = ...
    vs_exact: Distances | None = ...
    reason: str = ...
    def line(self) -> str: ...

@dataclass
class OpSpec:
    name: str
    implementation: str
    input_names: tuple[str, ...]
    input_dtypes: tuple[frozenset[str], ...]
    attribute_defaults: dict[str, Any]
    output_dtypes: frozenset[str]
    validate: Callable[[Case], None]
    call: Callable[[Callable[..., Any], Case], list[Any]]
    reference_at: Callable[[Case, int, NDArray[Any]], NDArray[Any]]
    exact_points: Callable[[Case, int], Iterable[int]]
    num_outputs: int = ...
    unsupported: Callable[[Case], str] | None = ...

TRIG_DTYPES: frozenset[str]
OPS: dict[str, OpSpec]

def parse_case_file(text: str, path: str, label: str | None = None, max_elements: int = ...) -> CaseFile: ...
def read_regular_file_bytes(path: str, max_bytes: int, limit_option: str = '--max-file-size') -> bytes: ...
def load_case_file(path: str | os.PathLike[str], max_elements: int = ..., max_file_bytes: int = ...) -> CaseFile: ...
def packaged_case_files() -> list[tuple[str, str]]: ...
def packaged_case_file(name: str) -> tuple[str, str] | None: ...
def checked_indices(total: int, check_limit: int | None, exact_points: Iterable[int] = ()) -> NDArray[Any]: ...

def run_case(case: Case, label: str = '', strict: bool = False, impl: Any = None, check_limit: int | None = ...) -> CaseResult: ...
def run_case_file(case_file: CaseFile, strict: bool = False, impl: Any = None, check_limit: int | None = ...) -> list[CaseResult]: ...
def run_file(path: str | os.PathLike[str], strict: bool = False, impl: Any = None, check_limit: int | None = ..., max_elements: int = ..., max_file_bytes: int = ...) -> list[CaseResult]: ...
def configure_parser(parser: argparse.ArgumentParser) -> None: ...
def run_args(args: argparse.Namespace) -> int: ...
def list_cli(out: TextIO | None = None, err: TextIO | None = None, program: str = ...) -> int: ...
def run_cli(files: Sequence[str | os.PathLike[str]], strict: bool = False, impl: Any = None, out: TextIO | None = None, err: TextIO | None = None, check_limit: int | None = ..., max_elements: int = ..., max_file_bytes: int = ..., quiet: bool = False, fail_on_skip: bool = False, junit: str | None = None, program: str = ...) -> int: ...
