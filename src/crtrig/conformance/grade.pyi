"""Type stubs of crtrig.grade: the `crtrig grade` command (distances to the exact values)."""
import argparse
from dataclasses import dataclass
from typing import Any, TextIO

from numpy.typing import NDArray

from . import cases

PROGRAM: str

@dataclass
class Grade:
    label: str
    case: str
    checked: int = 0
    total: int = 0
    max_ulp: int | float = 0
    wrong: int = 0
    nan_mismatches: int = 0
    def line(self, max_ulp_limit: int | None = None) -> str: ...

def percent(part: int, whole: int) -> str: ...

class MalformedResults(Exception): ...

def read_npz_results(path: str, case_file: cases.CaseFile) -> dict[tuple[str, int], NDArray[Any]]: ...
def read_case_file_results(path: str, case_file: cases.CaseFile, max_elements: int,
                           max_file_bytes: int) -> dict[tuple[str, int], NDArray[Any]]: ...
def read_results(path: str, case_file: cases.CaseFile, max_elements: int,
                 max_file_bytes: int) -> dict[tuple[str, int], NDArray[Any]]: ...
def grade_case(case: cases.Case, outputs: list[NDArray[Any]], label: str = "",
               check_limit: int | None = 16384) -> Grade: ...
def configure_parser(parser: argparse.ArgumentParser) -> None: ...
def run_cli(cases_path: str, results_path: str, max_ulp: int | None = None,
            check_limit: int | None = 16384, max_elements: int = 67108864,
            max_file_bytes: int = 67108864, out: TextIO | None = None, err: TextIO | None = None,
            program: str = "crtrig grade") -> int: ...
