"""Type stubs of crtrig.reference: the exact (pure Python) reference."""
from fractions import Fraction
from collections.abc import Iterable
from typing import Any, NamedTuple, SupportsIndex, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

__all__ = ["KINDS", "TRIG_FUNCTIONS", "COEFFICIENTS", "FLOAT_FORMATS", "INTEGER_FORMATS", "window",
           "window_bits", "window_value", "cosine_sum_window", "cosine_sum_bits", "trig", "trig_bits",
           "round_rational", "bits_to_float", "float_to_bits", "ulp_distance", "canonical_dtype",
           "format_name"]

class FloatFormat(NamedTuple):
    name: str
    precision: int
    emin: int
    emax: int
    width: int
    dtype: np.dtype[Any]
    bits_dtype: np.dtype[Any]
    @property
    def exponent_bits(self) -> int: ...
    @property
    def inf_bits(self) -> int: ...
    @property
    def nan_bits(self) -> int: ...
    @property
    def sign_bit(self) -> int: ...

# A format: its name ("float32", "bfloat16", "uint8", ...), a FloatFormat, or
# any dtype spelling of the 12 types.
_Format: TypeAlias = str | FloatFormat | DTypeLike
# A size: an int, a NumPy integer, or a one-element integer array.
_Size: TypeAlias = SupportsIndex | NDArray[np.integer[Any]]
# A real number taken exactly: a Python or NumPy float or int, or a Fraction.
_Real: TypeAlias = float | int | Fraction | np.floating[Any] | np.integer[Any]
# Exact rational coefficients: ints, Fractions or decimal strings (not floats).
_Coefficients: TypeAlias = Iterable[int | np.integer[Any] | Fraction | str]

FLOAT_FORMATS: dict[str, FloatFormat]
INTEGER_FORMATS: dict[str, np.dtype[Any]]
COEFFICIENTS: dict[str, tuple[Fraction, ...]]
KINDS: tuple[str, ...]
TRIG_FUNCTIONS: tuple[str, ...]

def canonical_dtype(dtype: DTypeLike) -> np.dtype[Any]: ...
def format_name(dtype: DTypeLike, _strict: bool = True) -> str | None: ...
def round_rational(num: int, den: int, fmt: _Format) -> int: ...
def bits_to_float(bits: int, fmt: _Format) -> float: ...
def float_to_bits(x: _Real, fmt: _Format) -> int: ...
def ulp_distance(a: _Real, b: _Real, fmt: _Format) -> int | float: ...
def window_bits(kind: str, n: int, d: int, fmt: _Format) -> int: ...
def window_value(kind: str, n: int, d: int, fmt: _Format = "float32") -> float | int: ...
def window(kind: str, size: _Size, periodic: bool = True, dtype: DTypeLike = "float32") -> NDArray[Any]: ...
def cosine_sum_bits(coefficients: _Coefficients, n: int, d: int, fmt: _Format) -> int: ...
def cosine_sum_window(coefficients: _Coefficients, size: _Size, periodic: bool = True,
                      dtype: DTypeLike = "float32") -> NDArray[Any]: ...
def trig_bits(func: str, x: float | np.floating[Any], fmt: _Format) -> int: ...
def trig(func: str, x: ArrayLike) -> NDArray[Any]: ...
