"""Type stubs of crtrig.bench: the `crtrig bench` command (crtrig and its peers timed alike)."""
import argparse
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TextIO, TypeAlias

import numpy as np
from numpy.typing import NDArray

from .compare import ScipyWindow

HELP: str
DESCRIPTION: str
PEERS: tuple[str, ...]
TRIG_FUNCTIONS: tuple[str, ...]
TRIG_DTYPES: tuple[str, ...]
WINDOW_KINDS: tuple[str, ...]
SCIPY_WINDOW_KINDS: tuple[str, ...]
SCIPY_WINDOW_MAX_SIZE: int
KBD_BETA: str
KBD_LABEL: str
TUKEY_ALPHA: str
WINDOW_DTYPES: tuple[str, ...]
INPUT_SETS: tuple[str, ...]
TRIGPI_FUNCTIONS: tuple[str, ...]
TRIGPI_DTYPES: tuple[str, ...]
TRIGPI_INPUT_SETS: tuple[str, ...]
TAN_FUNCTIONS: tuple[str, ...]
TAN_DTYPES: tuple[str, ...]
TAN_INPUT_SETS: dict[str, tuple[str, ...]]
CRTRIG_SIN_COLUMN: str
CHECK_ELEMENTS: int
SEED: int
MAX_TRIG_SIZE: int
MAX_WINDOW_SIZE: int
MAX_ROUNDS: int
MAX_REPEATS: int
CALIBRATION_STEPS: int
MAX_MIN_SAMPLE_MS: int

@dataclass(frozen=True)
class Settings:
    trig_size: int
    window_sizes: tuple[int, ...]
    row_budget_s: float
    min_rounds: int
    max_rounds: int
    min_sample_s: float = 0.02

DEFAULT: Settings
QUICK: Settings
DEFAULT_RUN_TIME: str
QUICK_RUN_TIME: str

class Unavailable(Exception): ...

@dataclass
class Contender:
    name: str
    expression: str
    call: Callable[[], object]
    before: Callable[[], None] | None = None
    checked: bool = False

@dataclass
class Row:
    section: str
    labels: dict[str, Any]
    size: int
    rounds: int = 0
    times: dict[str, Any] = field(default_factory=dict)
    native: dict[str, Any] = field(default_factory=dict)
    unavailable: dict[str, Any] = field(default_factory=dict)
    checked: int = 0
    wrong: int = 0
    first_wrong: str | None = None
    def ns(self, name: str) -> float | None: ...

@dataclass
class Peers:
    modules: dict[str, Any] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    restore: list[Callable[[], object]] = field(default_factory=list)
    native: dict[tuple[str, str, str], dict[str, Any]] = field(default_factory=dict)
    native_note: str | None = None

def load_peers(names: Iterable[str]) -> Peers: ...

@dataclass(frozen=True)
class Threads:
    pool: bool
    all: int | None
    note: str
    @staticmethod
    def detect() -> Threads: ...
    def set(self, count: int) -> Callable[[], None] | None: ...
    @property
    def all_name(self) -> str | None: ...

# What a row of the plan makes when it runs: the row, its contenders, and the
# check of crtrig's outputs.
_Made: TypeAlias = tuple[Row, list[Contender], Any]

def trig_inputs(dtype: str, size: int, rng: np.random.Generator) -> dict[str, NDArray[Any]]: ...
def crtrig_trig_loop(func: str, dtype: str) -> bool: ...
def trig_row(func: str, dtype: str, label: str, x: NDArray[Any], peers: Peers, threads: Threads) -> _Made: ...
SMALL_CALLS: tuple[tuple[str, str, int], ...]

def small_row(kind: str, dtype: str, size: int, peers: Peers, threads: Threads) -> _Made: ...
def scipy_window_row(kind: str, size: int, peers: Peers, threads: Threads) -> _Made: ...
def scipy_windows() -> tuple[ScipyWindow, ...]: ...
def param_window_row(entry: ScipyWindow, size: int, peers: Peers, threads: Threads) -> _Made: ...
def kbd_window_row(size: int, peers: Peers, threads: Threads) -> _Made: ...
def trigpi_row(func: str, dtype: str, label: str, x: NDArray[Any], peers: Peers, threads: Threads) -> _Made: ...
def trigpi_inputs(dtype: str, size: int, rng: np.random.Generator) -> dict[str, NDArray[Any]]: ...
def tan_row(func: str, dtype: str, label: str, x: NDArray[Any], peers: Peers, threads: Threads) -> _Made: ...
def tan_inputs(dtype: str, size: int, rng: np.random.Generator) -> dict[str, NDArray[Any]]: ...
def window_row(kind: str, dtype: str, size: int, peers: Peers, threads: Threads) -> _Made: ...
def store_row(dtype: str, size: int, threads: Threads) -> _Made: ...
def check_indices(size: int) -> NDArray[Any]: ...
def time_row(row: Row, contenders: list[Contender], settings: Settings, rounds: int | None,
             check: Any, clock: Callable[[], float] | None = None) -> None: ...
def baseline_of(row: Row, name: str) -> str: ...
def speedup(row: Row, peer: str) -> float | None: ...
def markdown_table(header: list[str], rows: list[list[str]]) -> str: ...
def platform_line(peers: Peers, threads: Threads) -> str: ...
def command_line(args: argparse.Namespace, settings: Settings) -> str: ...
def contender_columns(peers: Peers, threads: Threads, section: str) -> list[str]: ...
def report(rows: list[Row], peers: Peers, threads: Threads, settings: Settings, args: argparse.Namespace,
           elapsed: float) -> str: ...
def as_json(rows: list[Row], peers: Peers, threads: Threads, settings: Settings, args: argparse.Namespace,
            elapsed: float) -> dict[str, Any]: ...
def plot_title(data: dict[str, Any]) -> str: ...
def figure(data: dict[str, Any]) -> Any: ...
def plot_format(path: str) -> str: ...
def plot(data: dict[str, Any], path: str) -> None: ...
def threads_names(rows: Iterable[dict[str, Any]]) -> set[str]: ...
def build_plan(settings: Settings, peers: Peers, threads: Threads) -> list[tuple[str, Callable[[], _Made]]]: ...
def run(args: argparse.Namespace, settings: Settings, out: TextIO | None = None) -> int: ...
def configure_parser(parser: argparse.ArgumentParser) -> None: ...

NATIVE_BASELINE: str
MAX_NATIVE_BYTES: int

def load_native_peers(path: str, trig_size: int) -> tuple[dict[tuple[str, str, str], dict[str, Any]], str]: ...
def shown_size(value: object) -> str: ...
