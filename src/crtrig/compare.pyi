"""Type stubs of crtrig.compare: the `crtrig compare` command (peers judged by the exact reference)."""
import argparse
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TextIO

from numpy.typing import NDArray

PROGRAM: str
PEERS: tuple[str, ...]
ONNX_WINDOW_KINDS: tuple[str, ...]
RATIONAL_KINDS: tuple[str, ...]
TUKEY_ALPHA: str
SCIPY_ONLY_KINDS: tuple[str, ...]
WINDOW_KINDS: tuple[str, ...]
TRIG_FUNCTIONS: tuple[str, ...]
PI_FUNCTIONS: tuple[str, ...]
TAN_FUNCTIONS: tuple[str, ...]
PI_PEERS: tuple[str, ...]
OPS: tuple[str, ...]
DTYPES: tuple[str, ...]
DEFAULT_SIZES: tuple[int, ...]
QUICK_SIZES: tuple[int, ...]
DEFAULT_SAMPLES: int
QUICK_SAMPLES: int
MAX_SIZE: int
MAX_SAMPLES: int
DEFAULT_SEED: int
DECIMAL_HAMMING: tuple[str, str]

class Unsupported(Exception): ...

@dataclass
class Peer:
    name: str
    version: str
    hamming: str
    note: str
    window: Callable[[str, bool, str], Callable[[int], NDArray[Any]]] | None
    trig: Callable[[str, str], Callable[[NDArray[Any]], NDArray[Any]]] | None
    cache: dict[Any, Any] = field(default_factory=dict)
    def window_function(self, kind: str, periodic: bool, dtype: str) -> Callable[[int], NDArray[Any]]: ...
    def trig_function(self, func: str, dtype: str) -> Callable[[NDArray[Any]], NDArray[Any]]: ...

def crtrig_peer() -> Peer: ...
def numpy_peer(threads: int = 1) -> Peer: ...
def scipy_peer(threads: int = 1) -> Peer: ...
def torch_peer(threads: int = 1) -> Peer: ...
def onnxruntime_peer(threads: int = 1) -> Peer: ...
def onnx_reference_peer(threads: int = 1) -> Peer: ...

PEER_LOADERS: dict[str, Callable[..., Peer]]

def load_peers(names: Iterable[str] = ..., threads: int = 1) -> tuple[list[Peer], dict[str, str]]: ...
def ulp_distance(got: NDArray[Any], want: NDArray[Any], dtype: str) -> NDArray[Any]: ...

@dataclass
class Score:
    count: int = 0
    wrong: int = 0
    max_ulp: float = 0.0
    problem: str | None = None
    def add(self, got: NDArray[Any], want: NDArray[Any], dtype: str) -> None: ...
    def cell(self) -> str: ...

def format_ulp(x: float) -> str: ...
def format_share(wrong: int, total: int) -> str: ...

class Oracle:
    def __init__(self) -> None: ...
    def window(self, hamming: str, kind: str, size: int, periodic: bool, dtype: str) -> NDArray[Any]: ...
    @staticmethod
    def trig(func: str, x: NDArray[Any]) -> NDArray[Any]: ...

def score_windows(peers: Iterable[Peer], oracle: Oracle, kinds: Iterable[str], dtypes: Iterable[str],
                  sizes: Iterable[int], notes: list[str]) -> dict[tuple[str, str, str], Score]: ...

@dataclass
class InputSet:
    dtype: str
    label: str
    values: NDArray[Any]

def trig_input_sets(dtypes: Iterable[str], samples: int, seed: int) -> list[InputSet]: ...
def score_trig(peers: Iterable[Peer], oracle: Oracle, functions: Iterable[str],
               input_sets: Iterable[InputSet], notes: list[str]) -> dict[tuple[str, str, int], Score]: ...
def edge_values(peers: Iterable[Peer]) -> list[list[str]]: ...
def markdown_table(header: list[str], rows: list[list[str]]) -> str: ...
def run(args: argparse.Namespace, out: TextIO | None = None) -> int: ...
def report(args: argparse.Namespace) -> str: ...
def configure_parser(parser: argparse.ArgumentParser) -> None: ...

def scipy_rational_exact(kind: str, length: int, i: int) -> Fraction: ...
def tukey_bits(size: int, periodic: bool, n: int, dtype: str) -> int: ...
