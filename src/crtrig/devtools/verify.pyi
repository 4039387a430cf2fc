"""Type stubs of crtrig.verify: the `crtrig verify` command."""
import argparse
from dataclasses import dataclass, field
from typing import Any, TextIO

from numpy.typing import NDArray

from . import reference

PROGRAM: str
FUNCS: tuple[str, ...]
DTYPES: tuple[str, ...]
DEFAULT_SAMPLE: int
DEFAULT_FLOAT64_SAMPLE: int
MAX_FLOAT64_INPUTS: int
FLOAT64_CHUNK: int
MAX_WORST_CASE_FILE_BYTES: int
MAX_WORST_CASE_LINE: int
MAX_WORST_CASE_INPUTS: int
DEFAULT_SEED: int
ORACLE_CHUNK: int
EXACT_CHUNK: int
SAMPLE_BLOCK: int
MAX_JOBS: int
TARGETS: tuple[str, ...]
GLIBC_LDOUBLE_ULPS: dict[str, int]
ORACLE_ERROR_LOG2: dict[str, int]
TAN_ORACLE_ERROR_LOG2: dict[str, int]
LONG_DOUBLE_ULP_LOG2: int
DEFAULT_MARGIN_LOG2: int
MIN_MARGIN_LOG2: int
MAX_MARGIN_LOG2: int
MAX_LISTED: int
MIN_PROGRESS_INTERVAL: float
EXACT_METHOD: str

def parse_worst_case_value(token: str, fmt: reference.FloatFormat) -> int: ...
def read_worst_case_files(paths: list[str], fmt: reference.FloatFormat) -> NDArray[Any]: ...

@dataclass
class Chunk:
    func: str
    fmt: str
    use_oracle: bool
    first: int = 0
    count: int = 0
    inputs: NDArray[Any] | None = None
    margin_log2: int = 56
    corrupt_for_test: int | None = None
    target: int = 0
    sample_seed: int | None = None
    sample_size: int = 0
    def input_bits(self) -> NDArray[Any]: ...
    def size(self) -> int: ...

def sample_block(seed: int, block: int, sample_size: int, fmt_name: str) -> NDArray[Any]: ...

@dataclass
class Tally:
    inputs: int = 0
    nonfinite: int = 0
    escalated: int = 0
    exact_checked: int = 0
    wrong: int = 0
    wrong_examples: list[Any] = field(default_factory=list)
    escalated_examples: list[Any] = field(default_factory=list)
    def add(self, other: Tally) -> None: ...

def run_chunk(chunk: Chunk) -> Tally: ...

class Progress:
    BAR_WIDTH: int
    total: int
    stream: TextIO
    interval: float
    is_terminal: bool
    start: float
    last_shown: float
    done: int
    def __init__(self, total: int, stream: TextIO, interval: float) -> None: ...
    def update(self, done: int) -> None: ...
    def finish(self) -> None: ...

def configure_parser(parser: argparse.ArgumentParser) -> None: ...

class UsageError(Exception): ...

def resolve_targets(requested: str | None) -> list[tuple[int, str]]: ...
def run(args: argparse.Namespace) -> int: ...

# The worker initializer of --jobs (one crtrig thread per process).
def single_threaded_worker() -> None: ...
