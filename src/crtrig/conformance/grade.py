"""Grading another implementation: ``crtrig grade CASES RESULTS [--max-ulp K]``.

CASES is a case file (its ``data``, if any, is not used); RESULTS holds
another implementation's outputs for its cases, either

* an ``.npz`` file (``np.savez``) with one array per case, named after the
  case (``CASE/OUTPUT`` for ops with several outputs), of the output's dtype
  (any byte order; bfloat16, which ``np.savez`` stores as raw 2-byte ``V2``
  values, is read from those) and shape; or
* a case file with the same cases and ``data`` in every output (values are
  read as the runner reads them: rounded once into the output dtype).

For each case the results are compared with the correctly rounded values of
:mod:`crtrig.reference` (exact, independent of crtrig's C core) over the
*checked* elements (every element of outputs up to ``--check-limit``, 16,384
by default; beyond it the runner's deterministic sample plus the op's exact
points and up to 16 NaN or infinite results; ``--all`` checks everything):

* ``max_ulp``: the largest distance in units in the last place of the output
  type (the number of representable values between result and exact value;
  +-0 are at distance 0; infinity lies one step past the largest finite
  value); for integer outputs the integer difference; ``inf`` when a NaN
  stands where a number is due, or a number where NaN is due;
* ``not_correctly_rounded``: the share of checked elements whose result is not
  the correctly rounded value bit for bit (any NaN matches any NaN; a zero of
  the wrong sign counts).

Exit status: 2 when CASES or RESULTS is malformed or unreadable, or RESULTS
lacks a case or has a wrong dtype or shape (one line naming it, nothing is
graded); otherwise 1 when ``--max-ulp K`` is given and some case's max_ulp
exceeds K, else 0.  Arrays in RESULTS that match no case are ignored.
"""

from __future__ import annotations

import argparse
import math
import os
import stat
import sys
from dataclasses import dataclass

import numpy as np

from .. import reference
from . import cases

PROGRAM = "crtrig grade"


@dataclass
class Grade:
    """The grade of one case (all outputs together)."""

    label: str
    case: str
    checked: int = 0
    total: int = 0
    max_ulp: int | float = 0  # math.inf for NaN against a number
    wrong: int = 0  # checked elements not bit-identical to the correctly rounded value
    nan_mismatches: int = 0

    def line(self, max_ulp_limit: int | None = None) -> str:
        status = ""
        if max_ulp_limit is not None:
            status = "FAIL  " if self.max_ulp > max_ulp_limit else "PASS  "
        text = (f"{cases._printable(self.label)}  {cases._shown_name(self.case)}  {status}checked {self.checked} of "
                f"{self.total}  max_ulp={_format_ulp(self.max_ulp)}  not_correctly_rounded="
                f"{percent(self.wrong, self.checked)} ({self.wrong} of {self.checked})")
        if self.nan_mismatches:
            text += f"  nan_mismatches={self.nan_mismatches}"
        return text


def _format_ulp(value) -> str:
    return "inf" if isinstance(value, float) else str(value)


def percent(part: int, whole: int) -> str:
    """part/whole as a percentage, to three significant digits or as many
    more as it takes not to show 0 % or 100 % unless it is exactly that
    (99999 of 100001 is 99.998 %)."""
    if whole == 0 or part == 0:
        return "0%"
    if part == whole:
        return "100%"
    value = 100 * part / whole
    for digits in range(3, 18):
        text = f"{value:.{digits}g}"
        if 0 < float(text) < 100:
            return f"{text}%"
    return f"{value!r}%"


class MalformedResults(Exception):
    """RESULTS cannot be graded against CASES (one line)."""


# ---------------------------------------------------------------------------
# Reading results
# ---------------------------------------------------------------------------


def _member_name(case: cases.Case, index: int) -> str:
    return case.name if len(case.outputs) == 1 else f"{case.name}/{case.outputs[index].name}"


def _as_output_dtype(array_dtype: np.dtype, want: str) -> np.dtype | None:
    """The dtype to read stored values of ``array_dtype`` as, for an output of
    dtype ``want`` (None: they do not match)."""
    if want == "bfloat16" and array_dtype.kind == "V" and array_dtype.itemsize == 2 and array_dtype.fields is None:
        return array_dtype
    if array_dtype.kind in "fiu" and reference.format_name(array_dtype.newbyteorder("="), _strict=False) == want:
        return array_dtype
    if array_dtype == cases.DTYPES[want]:
        return array_dtype
    return None


def _read_npy_member(archive: "zipfile.ZipFile", member: str, want_dtype: str,
                     want_shape: tuple[int, ...]) -> np.ndarray:
    """One array of an .npz, checked against the expected dtype and shape
    from its header before its data is read (so at most that many bytes are).
    Whatever the member holds (encryption, an unsupported compression method,
    a corrupt stream, a huge header), a failure is one MalformedResults line."""
    shown = cases._quoted(member.removesuffix(".npy"))
    info = archive.getinfo(member)
    if info.flag_bits & 0x1:
        raise MalformedResults(f"array {shown}: cannot read it: it is encrypted")
    try:
        handle = archive.open(info)
    except NotImplementedError:  # compression method 93 (zstd before Python 3.14), 99 (AES), ...
        raise MalformedResults(f"array {shown}: cannot read it: compression method {info.compress_type} is "
                               "not supported") from None
    except Exception as exc:  # RuntimeError: encrypted; BadZipFile: a bad local header ...
        raise MalformedResults(f"array {shown}: cannot read it ({cases._exception_text(exc, 160)})") from None
    with handle:
        try:
            version = np.lib.format.read_magic(handle)
            if version == (1, 0):
                shape, fortran_order, dtype = np.lib.format.read_array_header_1_0(handle)
            else:
                shape, fortran_order, dtype = np.lib.format.read_array_header_2_0(handle)
        except Exception as exc:  # not an .npy member, or a bad header
            raise MalformedResults(f"array {shown}: cannot read its header "
                                   f"({cases._exception_text(exc, 160)})") from None
        stored = _as_output_dtype(dtype, want_dtype)
        if stored is None:
            raise MalformedResults(f"array {shown}: dtype {cases._excerpt(str(dtype))}, want {want_dtype}")
        if tuple(shape) != want_shape:
            raise MalformedResults(f"array {shown}: shape {list(shape)}, want {list(want_shape)}")
        count = math.prod(shape)
        try:
            data = handle.read(count * stored.itemsize)
        except Exception as exc:  # zlib.error, a bad CRC, an lzma or bz2 error ...
            raise MalformedResults(f"array {shown}: cannot read its data ({cases._exception_text(exc, 160)})") from None
    if len(data) != count * stored.itemsize:
        raise MalformedResults(f"array {shown}: truncated ({len(data)} of {count * stored.itemsize} bytes)")
    array = np.frombuffer(data, dtype=stored).reshape(shape, order="F" if fortran_order else "C")
    if stored.kind == "V":
        return np.ascontiguousarray(array).view(np.uint16).view(cases.DTYPES["bfloat16"])
    return np.ascontiguousarray(array.astype(stored.newbyteorder("="), copy=False))


def read_npz_results(path: str, case_file: cases.CaseFile) -> dict[tuple[str, int], np.ndarray]:
    """(case name, output index) -> array, for every output of every case."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise MalformedResults(f"cannot read file: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise MalformedResults("cannot read file: not a regular file")
    try:
        import zipfile  # here: `crtrig grade --help` does not need it

        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            results = {}
            for case in case_file.cases:
                for index, spec in enumerate(case.outputs):
                    member = _member_name(case, index) + ".npy"
                    if member not in names:
                        raise MalformedResults(f"no array for case {cases._quoted(_member_name(case, index))}")
                    results[case.name, index] = _read_npy_member(archive, member, spec.dtype, spec.shape)
            return results
    except MalformedResults:
        raise
    except Exception as exc:  # BadZipFile, OSError, and whatever else a crafted archive raises
        raise MalformedResults(f"cannot read .npz: {cases._exception_text(exc, 160)}") from None


def read_case_file_results(path: str, case_file: cases.CaseFile, max_elements: int,
                           max_file_bytes: int) -> dict[tuple[str, int], np.ndarray]:
    """(case name, output index) -> the data of the same case of a case file."""
    results_file = cases.load_case_file(path, max_elements=max_elements, max_file_bytes=max_file_bytes)
    if results_file.op is not case_file.op:
        raise MalformedResults(f"op {results_file.op.name}, want {case_file.op.name}")
    by_name = {case.name: case for case in results_file.cases}
    results = {}
    for case in case_file.cases:
        other = by_name.get(case.name)
        if other is None:
            raise MalformedResults(f"no case {cases._quoted(case.name)}")
        for index, spec in enumerate(case.outputs):
            given = other.outputs[index]
            where = f"case {cases._quoted(case.name)} output {cases._quoted(given.name)}"
            if given.dtype != spec.dtype:
                raise MalformedResults(f"{where}: dtype {given.dtype}, want {spec.dtype}")
            if given.shape != spec.shape:
                raise MalformedResults(f"{where}: shape {list(given.shape)}, want {list(spec.shape)}")
            if given.expected is None:
                raise MalformedResults(f"{where}: no data")
            results[case.name, index] = given.expected
    return results


def read_results(path: str, case_file: cases.CaseFile, max_elements: int,
                 max_file_bytes: int) -> dict[tuple[str, int], np.ndarray]:
    """An .npz (recognized by its zip signature) or a case file."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise MalformedResults("cannot read file: not a regular file")
        # Non-blocking: a FIFO swapped in after the check must not hang the open.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(descriptor, "rb") as handle:
            signature = handle.read(4)
    except OSError as exc:
        raise MalformedResults(f"cannot read file: {exc.strerror or exc}") from None
    if signature == b"PK\x03\x04":
        return read_npz_results(path, case_file)
    return read_case_file_results(path, case_file, max_elements, max_file_bytes)


# ---------------------------------------------------------------------------
# Grading
# ---------------------------------------------------------------------------


def _ordered(bits: int, fmt: reference.FloatFormat) -> int:
    """Bit pattern -> integer increasing with the value (+-0 -> 0)."""
    magnitude = bits & (fmt.sign_bit - 1)
    return -magnitude if bits & fmt.sign_bit else magnitude


def grade_case(case: cases.Case, outputs: list[np.ndarray], label: str = "",
               check_limit: int | None = cases.DEFAULT_CHECK_LIMIT) -> Grade:
    """Grade one case's outputs (arrays of the outputs' dtypes and shapes)."""
    grade = Grade(label or case.op.name, case.name)
    for index, (spec, got) in enumerate(zip(case.outputs, outputs)):
        flat = got.reshape(-1)
        grade.total += flat.size
        extra = list(case.op.exact_points(case, index))
        is_float = spec.dtype in reference.FLOAT_FORMATS
        if is_float and check_limit is not None and flat.size > check_limit:
            extra += cases._first_nonfinite(flat, cases.MAX_NONFINITE_ADDED)
        indices = cases.checked_indices(flat.size, check_limit, extra)
        want = case.op.reference_at(case, index, indices)
        got_checked = flat[indices]
        grade.checked += len(indices)
        if is_float:
            fmt = reference.FLOAT_FORMATS[spec.dtype]
            got_bits = got_checked.view(fmt.bits_dtype)
            want_bits = want.view(fmt.bits_dtype)
            magnitude = np.array(fmt.sign_bit - 1, dtype=fmt.bits_dtype)
            nan_got = (got_bits & magnitude) > fmt.inf_bits
            nan_want = (want_bits & magnitude) > fmt.inf_bits
            right = (got_bits == want_bits) | (nan_got & nan_want)
            for position in np.flatnonzero(~right).tolist():
                grade.wrong += 1
                if nan_got[position] != nan_want[position]:
                    grade.nan_mismatches += 1
                    grade.max_ulp = math.inf
                else:
                    distance = abs(_ordered(int(got_bits[position]), fmt) - _ordered(int(want_bits[position]), fmt))
                    grade.max_ulp = max(grade.max_ulp, distance)
        else:
            for position in np.flatnonzero(got_checked != want).tolist():
                grade.wrong += 1
                grade.max_ulp = max(grade.max_ulp, abs(int(got_checked[position]) - int(want[position])))
    return grade


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def _non_negative_int(text: str) -> int:
    if not text.isdigit() or len(text) > 30:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {cases._quoted(text)}")
    return int(text)


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cases_file", metavar="CASES", help="the case file whose cases are graded")
    parser.add_argument("results", metavar="RESULTS",
                        help="the implementation's results: an .npz with one array per case name, "
                        "or a case file with data")
    parser.add_argument("--max-ulp", type=_non_negative_int, metavar="K",
                        help="exit with status 1 when some case's max_ulp exceeds K")
    checking = parser.add_mutually_exclusive_group()
    checking.add_argument("--check-limit", type=cases._positive_int, default=cases.DEFAULT_CHECK_LIMIT,
                          metavar="N", help="grade outputs of up to N elements everywhere, larger ones "
                          f"on N sampled elements plus the exact points (default {cases.DEFAULT_CHECK_LIMIT})")
    checking.add_argument("--all", action="store_const", const=None, dest="check_limit",
                          help="grade every element, whatever the size")
    parser.add_argument("--max-elements", type=cases._positive_int, default=cases.DEFAULT_MAX_ELEMENTS,
                        metavar="N", help="a shape of more than N elements makes a file malformed "
                        f"(default 2^26 = {cases.DEFAULT_MAX_ELEMENTS})")
    parser.add_argument("--max-file-size", type=cases._positive_int, default=cases.DEFAULT_MAX_FILE_BYTES,
                        metavar="BYTES", help="do not read larger case files "
                        f"(default 64 MiB = {cases.DEFAULT_MAX_FILE_BYTES})")
    parser.set_defaults(func=lambda args: run_cli(
        args.cases_file, args.results, max_ulp=args.max_ulp, check_limit=args.check_limit,
        max_elements=args.max_elements, max_file_bytes=args.max_file_size,
        program=getattr(args, "program", PROGRAM)))


def run_cli(cases_path, results_path, max_ulp: int | None = None,
            check_limit: int | None = cases.DEFAULT_CHECK_LIMIT,
            max_elements: int = cases.DEFAULT_MAX_ELEMENTS,
            max_file_bytes: int = cases.DEFAULT_MAX_FILE_BYTES,
            out=None, err=None, program: str = PROGRAM) -> int:
    """Grade RESULTS against CASES, print one line per case and a summary;
    return the exit status."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    cases_path, results_path = os.fspath(cases_path), os.fspath(results_path)
    try:
        case_file = cases.load_case_file(cases_path, max_elements=max_elements, max_file_bytes=max_file_bytes)
        results = read_results(results_path, case_file, max_elements, max_file_bytes)
    except cases.MalformedCaseFile as exc:
        print(f"{program}: error: {exc}", file=err)
        return 2
    except MalformedResults as exc:
        print(f"{program}: error: {cases._printable(results_path)}: {exc}", file=err)
        return 2

    checked = wrong = above = 0
    worst: int | float = 0
    for case in case_file.cases:
        outputs = [results[case.name, index] for index in range(len(case.outputs))]
        grade = grade_case(case, outputs, case_file.label, check_limit)
        print(grade.line(max_ulp), file=out)
        checked += grade.checked
        wrong += grade.wrong
        worst = max(worst, grade.max_ulp)
        above += max_ulp is not None and grade.max_ulp > max_ulp
    summary = (f"{len(case_file.cases)} case(s) graded: {checked} elements checked, {wrong} not "
               f"correctly rounded ({percent(wrong, checked)}), max_ulp={_format_ulp(worst)}")
    if max_ulp is not None:
        summary += f"; {above} case(s) above --max-ulp {max_ulp}"
    print(summary, file=out)
    return 1 if above else 0
