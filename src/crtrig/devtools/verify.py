"""Verification of crtrig.sin / cos / sinpi / cospi / tan / tanpi against an
independent oracle:
``python -m crtrig verify sin|cos|sinpi|cospi|tan|tanpi [--dtype float32|float16|bfloat16|float64]
[--exhaustive | --sample N | --range FIRST:LAST | --worst-cases FILE...]
[--target NAME|all] [--jobs J] [--seed S]``.

float32, with the long double oracle
------------------------------------
Where C ``long double`` is the x87 80-bit format (x86-64 Linux), each input x
is checked in C (src/verify/verify_f32.c, through crtrig._verify) against
L = sinl((long double)x) of the C library (glibc's libm-test-ulps lists at
most 2 ulp for sinl and 1 ulp for cosl on x86_64, i.e. a relative error of at
most 2^-62).  When L is farther than the margin 2^-56 |L| from every float32
rounding boundary, the float32 nearest to L is the correctly rounded result
and crtrig's result must equal it bit for bit (sign of zero included).
Otherwise the input is *escalated*: checked exactly (see below).  NaN and
infinite inputs must give a NaN.  crtrig is called only through its public C
per-target entry point ``crtrig_trig_strided_target``; the oracle shares
nothing with its core.

Exact check
-----------
Escalated inputs, float16 and bfloat16 (all 65536 bit patterns), float64, and
float32 where long double is not the x87 format, are compared with the exactly
computed correctly rounded value of ``crtrig.reference.trig_bits`` (exact,
standard library only, independent of the C core).  Without the long double oracle every float32 input takes this
slow path, so ``--exhaustive`` is refused there.

float64
-------
float64 has no fast oracle with a margin: x87 long double carries 64 bits, 11
more than float64, so with sinl's error of up to 2^-62 it could settle only
inputs more than about 2^-9 ulp from a float64 rounding boundary, and none of
the hard cases (the published worst cases agree with a rounding midpoint to
43-59 bits after the round bit).  Every float64 input is therefore checked
exactly by ``crtrig.reference.trig_bits`` (exact range
reduction with enough bits of pi for every double, then a Ziv loop on interval
bounds), some tens of microseconds per input in pure Python.  ``--exhaustive``
is refused (2^64 inputs); ``--sample N`` (default 100000) draws uniformly
random bit patterns, so mostly huge or tiny magnitudes; ``--range`` and
``--sample`` take at most 2^32 inputs.

Worst cases
-----------
``--worst-cases FILE...`` checks the inputs listed in files in the format of
CORE-MATH's ``.wc`` files (tests/data/sin-binary64.wc, cos-binary64.wc): one
value a line, ``#`` starts a comment, blank lines are skipped.  A value is a
hex float (``0x1.921fb54442d18p+1``, sign and ``0x`` prefix as Python's
``float.fromhex``), a single decimal digit (CORE-MATH writes ``+0`` and
``+1``), ``inf``, ``nan`` or ``snan`` (a signalling NaN), with an optional
sign; it must be a value of ``--dtype`` exactly.  Each value and its negative
are checked (sin is odd and cos even: both signs are equally hard), each
distinct bit pattern once.  A file that cannot be read or a line that is not
such a value is an error naming the file and line (exit status 2).

SIMD targets
------------
crtrig's vector kernels are compiled once per SIMD target (baseline, avx2,
avx512) and chosen at import.  ``--target NAME`` checks the kernels of one
target, ``--target all`` every target this CPU supports, one after the other;
the default is the target crtrig chose here (``crtrig._core.SIMD_TARGET``).
Each target gets its own result line.

Output
------
stdout: the oracle, its precision and margin; the number of inputs checked,
escalated (all checked exactly) and wrong, with examples of wrong results; the
wall time; and a final line such as
``sin float32 target avx2: 4294967296 inputs, 0 wrong, 123 escalated, 812.3 s``
(one per target checked).
stderr: progress (a bar on a terminal, otherwise a line every
``--progress-interval`` seconds, at least 1) with done/total, rate and ETA.

Exit status: 0 when no result is wrong, 1 when some are, 2 for a run that
cannot be made (a bad argument, an unknown or unsupported target, a sample
larger than the input space, ``--exhaustive`` float32 without the oracle...),
always with one line on stderr.

Work is split into chunks (2^22 inputs for float32 with the oracle, 2^12 on
the exact path, up to 2^16 for float64) run by ``--jobs``
processes (default: os.cpu_count()), each with crtrig's own thread pool off
(one thread: the processes already use the CPUs); chunks are visited in a spread-out order
so that the rate, and hence the ETA, is representative early on.  A sample is
drawn block by block in the workers (block b of SAMPLE_BLOCK inputs from the
seed sequence [S, b]), so memory stays bounded whatever N, and the sample
depends only on N and the seed.

Test hook: the hidden option ``--corrupt-for-test BITS`` flips the last bit of
crtrig's result for the input with bit pattern BITS (added to the sample with
``--sample``, and to the worst cases if absent), which the run must report as
wrong.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from .. import reference
from .._cli_args import UNBOUNDED_MAX, shown

PROGRAM = "crtrig verify"
FUNCS = ("sin", "cos", "sinpi", "cospi", "tan", "tanpi")
DTYPES = ("float32", "float16", "bfloat16", "float64")
DEFAULT_SAMPLE = 1_000_000
#: The default sample for float64, whose every input is checked exactly.
DEFAULT_FLOAT64_SAMPLE = 100_000
#: Most inputs of a float64 --sample or --range (the chunks are planned up front).
MAX_FLOAT64_INPUTS = 1 << 32
#: Most inputs per float64 chunk (sample blocks or a range).
FLOAT64_CHUNK = 1 << 16
#: Worst-case files: the largest file read, the longest line, the most inputs in all.
MAX_WORST_CASE_FILE_BYTES = 16 << 20
MAX_WORST_CASE_LINE = 200
MAX_WORST_CASE_INPUTS = 1 << 24
DEFAULT_SEED = 0

#: Inputs per chunk of work for the long double oracle (1024 chunks for 2^32).
ORACLE_CHUNK = 1 << 22
#: Inputs per chunk of work for the exact path (much slower per input).
EXACT_CHUNK = 1 << 12
#: Inputs per block of a random sample (each block has its own seed).
SAMPLE_BLOCK = 1 << 12

#: Most worker processes accepted on any machine (more where there are more CPUs).
MAX_JOBS = 64

#: SIMD target names by index, as in include/crtrig/crtrig.h.
TARGETS = ("baseline", "avx2", "avx512")

#: Maximal errors of glibc's x86_64 sinl/cosl in ulps of long double, from
#: glibc's sysdeps/x86_64/fpu/libm-test-ulps (round-to-nearest entries).
GLIBC_LDOUBLE_ULPS = {"sin": 2, "cos": 1}
#: sinpi/cospi: sinl or cosl of RN(pi_64 t) after the exact reduction (|t| <= 1/4); the
#: argument's rounding adds 2^-62.6 relative at most (src/verify/verify_f32.c), so the
#: oracle's error is at most 2^-61 relative, listed here as 2 ulp (2^-62) of sinl's plus it.
ORACLE_ERROR_LOG2 = {"sinpi": -61, "cospi": -61}
#: tan/tanpi: sinl(a)/cosl(a) (tanpi: -cosl/sinl in odd half periods), a = x or RN(pi_64 t)
#: after the exact reduction; at most 2^-61.1 (tan) and 2^-60.4 (tanpi) relative
#: (src/verify/verify_f32.c), listed as 2^-61 and 2^-60.
TAN_ORACLE_ERROR_LOG2 = {"tan": -61, "tanpi": -60}
#: One ulp of a long double is at most 2^-63 of its value.
LONG_DOUBLE_ULP_LOG2 = -63

#: The default margin, 2^-56 relative, and the accepted range of its log2
#: (the same as crtrig._verify's; kept here so that building the parser does
#: not need the compiled module).
DEFAULT_MARGIN_LOG2 = 56
MIN_MARGIN_LOG2 = 8
MAX_MARGIN_LOG2 = 60

#: How many wrong results and escalated inputs are listed in the report.
MAX_LISTED = 20


# ---------------------------------------------------------------------------
# Exact check
# ---------------------------------------------------------------------------

EXACT_METHOD = "crtrig.reference.trig_bits / trigpi_bits / tan_bits (exact, pure Python)"


def _exact_bits(func: str, input_bits: int, fmt: str) -> int:
    """Bit pattern of func(x) correctly rounded into fmt, x finite, given by its bits."""
    x = reference.bits_to_float(input_bits, fmt)
    if func in reference.TAN_FUNCTIONS:
        return int(reference.tan_bits(func, x, fmt))
    if func in reference.TRIGPI_FUNCTIONS:
        return int(reference.trigpi_bits(func, x, fmt))
    return int(reference.trig_bits(func, x, fmt))


def _is_nan_bits(bits: int, fmt: reference.FloatFormat) -> bool:
    return (bits & (fmt.sign_bit - 1)) > fmt.inf_bits


def _is_finite_bits(bits: int, fmt: reference.FloatFormat) -> bool:
    return (bits & (fmt.sign_bit - 1)) < fmt.inf_bits


# ---------------------------------------------------------------------------
# Worst-case files
# ---------------------------------------------------------------------------

#: A hex float after its sign, lower case: digits (some), optional point, optional
#: binary exponent of at most 5 digits (a bounded exact value).
_HEX_FLOAT = re.compile(r"0x(?P<int>[0-9a-f]*)(?:\.(?P<frac>[0-9a-f]*))?(?:p(?P<exp>[+-]?[0-9]{1,5}))?")


def parse_worst_case_value(token: str, fmt: reference.FloatFormat) -> int:
    """Bit pattern in ``fmt`` of one value of a worst-case file (see the module
    docstring).  Raises ValueError (a short reason) for anything else, or a value
    that ``fmt`` cannot hold exactly."""
    text = token.lower()
    negative = text.startswith("-")
    if text[:1] in ("+", "-"):
        text = text[1:]
    if text in ("inf", "infinity"):
        bits = fmt.inf_bits
    elif text == "nan":
        bits = fmt.nan_bits
    elif text == "snan":  # quiet bit clear, the next one set
        bits = fmt.inf_bits | (1 << (fmt.precision - 3))
    else:
        if len(text) == 1 and text.isdigit():  # CORE-MATH's +0 and +1: hex and decimal agree
            mantissa, exponent = int(text), 0
        else:
            match = _HEX_FLOAT.fullmatch(text)
            if match is None or not (match["int"] or match["frac"]):
                raise ValueError("not a hex float (such as 0x1.921fb54442d18p+1), inf, nan or snan")
            fraction_digits = match["frac"] or ""
            mantissa = int(match["int"] + fraction_digits or "0", 16)
            exponent = int(match["exp"] or "0") - 4 * len(fraction_digits)
        bits = 0
        if mantissa:  # value = mantissa 2^exponent exactly; make the mantissa odd
            shift = (mantissa & -mantissa).bit_length() - 1
            mantissa, exponent = mantissa >> shift, exponent + shift
            top = exponent + mantissa.bit_length() - 1  # floor(log2(value))
            # A value of fmt: at most `precision` significant bits, no bit below the
            # smallest subnormal 2^(emin - precision + 1), below 2^(emax + 1).
            if (mantissa.bit_length() > fmt.precision or top > fmt.emax
                    or exponent < fmt.emin - fmt.precision + 1):
                raise ValueError(f"not a {fmt.name} value exactly (it would be rounded or overflow)")
            value = math.ldexp(mantissa, exponent)  # exact: every value of fmt is a double
            bits = (int(np.float64(value).view(np.uint64)) if fmt.name == "float64"
                    else reference.float_to_bits(value, fmt.name))
    return bits | fmt.sign_bit if negative else bits


def read_worst_case_files(paths: list[str], fmt: reference.FloatFormat) -> np.ndarray:
    """The distinct bit patterns of every value of the files and of its negative,
    in file order (value, then negative), as uint64.  Raises UsageError (one line
    naming the file, and the line) for a file that cannot be read or parsed."""
    from ..conformance.cases import MalformedCaseFile, read_regular_file_bytes

    found: dict[int, None] = {}
    for path in paths:
        try:
            data = read_regular_file_bytes(path, MAX_WORST_CASE_FILE_BYTES,
                                           f"worst-case files are read up to {MAX_WORST_CASE_FILE_BYTES} bytes")
        except MalformedCaseFile as exc:
            raise UsageError(f"--worst-cases {exc}") from None
        try:
            text = data.decode("ascii")
        except UnicodeDecodeError as exc:
            raise UsageError(f"--worst-cases {path}: not a text file (byte 0x{data[exc.start]:02x} "
                             f"at offset {exc.start})") from None
        values = 0
        for number, line in enumerate(text.splitlines(), 1):
            where = f"--worst-cases {path}:{number}"
            if len(line) > MAX_WORST_CASE_LINE:
                raise UsageError(f"{where}: line longer than {MAX_WORST_CASE_LINE} characters")
            tokens = line.split("#", 1)[0].split()
            if not tokens:
                continue
            if len(tokens) > 1:
                raise UsageError(f"{where}: more than one value on the line")
            try:
                bits = parse_worst_case_value(tokens[0], fmt)
            except ValueError as exc:
                raise UsageError(f"{where}: {tokens[0]!r}: {exc}") from None
            found[bits] = None
            found[bits ^ fmt.sign_bit] = None
            values += 1
            if len(found) > MAX_WORST_CASE_INPUTS:
                raise UsageError(f"{where}: more than {MAX_WORST_CASE_INPUTS} inputs in the worst-case files")
        if values == 0:
            raise UsageError(f"--worst-cases {path}: no values in the file")
    return np.fromiter(found, dtype=np.uint64, count=len(found))


# ---------------------------------------------------------------------------
# Chunks of work (run in worker processes)
# ---------------------------------------------------------------------------


@dataclass
class Chunk:
    """Inputs for one worker call: ``count`` consecutive bit patterns from
    ``first``; or, with ``sample_seed``, the sample blocks ``first`` ..
    ``first + blocks - 1`` of a sample of ``sample_size`` inputs; or the bit
    patterns in ``inputs``.  ``target`` is the SIMD target index checked."""

    func: str
    fmt: str
    use_oracle: bool
    first: int = 0
    count: int = 0
    inputs: Optional[np.ndarray] = None
    margin_log2: int = DEFAULT_MARGIN_LOG2
    corrupt_for_test: Optional[int] = None
    target: int = 0
    sample_seed: Optional[int] = None
    sample_size: int = 0

    def input_bits(self) -> np.ndarray:
        if self.inputs is not None:
            return self.inputs
        if self.sample_seed is not None:
            return np.concatenate([sample_block(self.sample_seed, block, self.sample_size, self.fmt)
                                   for block in range(self.first, self.first + self.count)])
        return np.arange(self.first, self.first + self.count, dtype=np.uint64)

    def size(self) -> int:
        if self.inputs is not None:
            return len(self.inputs)
        if self.sample_seed is not None:
            end = min(self.sample_size, (self.first + self.count) * SAMPLE_BLOCK)
            return end - self.first * SAMPLE_BLOCK
        return self.count


def sample_block(seed: int, block: int, sample_size: int, fmt_name: str) -> np.ndarray:
    """Block ``block`` of the random sample of ``sample_size`` bit patterns of
    ``fmt_name`` drawn with ``seed``: SAMPLE_BLOCK inputs (fewer in the last
    block) from the seed sequence [seed, block], as uint64."""
    count = min(SAMPLE_BLOCK, sample_size - block * SAMPLE_BLOCK)
    patterns = 1 << reference.FLOAT_FORMATS[fmt_name].width
    return np.random.default_rng([seed, block]).integers(0, patterns, size=count, dtype=np.uint64)


@dataclass
class Tally:
    """Counts over some inputs; chunks' tallies add up to the run's."""

    inputs: int = 0
    nonfinite: int = 0
    escalated: int = 0
    exact_checked: int = 0  # escalated inputs plus inputs of the exact path
    wrong: int = 0
    wrong_examples: list = field(default_factory=list)  # (input, got, expected) bit patterns
    escalated_examples: list = field(default_factory=list)  # input bit patterns

    def add(self, other: "Tally") -> None:
        self.inputs += other.inputs
        self.nonfinite += other.nonfinite
        self.escalated += other.escalated
        self.exact_checked += other.exact_checked
        self.wrong += other.wrong
        self.wrong_examples.extend(other.wrong_examples[: MAX_LISTED - len(self.wrong_examples)])
        self.escalated_examples.extend(
            other.escalated_examples[: MAX_LISTED - len(self.escalated_examples)]
        )


def _check_exactly(tally: Tally, func: str, fmt_name: str, inputs, results) -> None:
    """Compare crtrig's ``results`` for ``inputs`` (bit patterns) exactly."""
    fmt = reference.FLOAT_FORMATS[fmt_name]
    for input_bits, got in zip(inputs.tolist(), results.tolist()):
        tally.exact_checked += 1
        if _is_finite_bits(input_bits, fmt):
            expected = _exact_bits(func, input_bits, fmt_name)
            correct = got == expected
        else:
            tally.nonfinite += 1
            expected = fmt.nan_bits
            correct = _is_nan_bits(got, fmt)
        if not correct:
            tally.wrong += 1
            if len(tally.wrong_examples) < MAX_LISTED:
                tally.wrong_examples.append((input_bits, got, expected))


def run_chunk(chunk: Chunk) -> Tally:
    """Check one chunk; the worker-process entry point."""
    tally = Tally(inputs=chunk.size())
    if chunk.use_oracle:
        from .. import _verify

        options = dict(_corrupt_for_test=chunk.corrupt_for_test, max_examples=MAX_LISTED,
                       target=chunk.target)
        if chunk.inputs is None and chunk.sample_seed is None:
            outcome = _verify.verify_block(chunk.func, chunk.first, chunk.count, chunk.margin_log2,
                                           **options)
        else:
            outcome = _verify.verify_inputs(chunk.func, chunk.input_bits().astype(np.uint32),
                                            chunk.margin_log2, **options)
        tally.nonfinite = outcome["nonfinite"]
        tally.wrong = outcome["wrong"]
        tally.wrong_examples = list(outcome["wrong_examples"])
        escalated = outcome["escalated_inputs"]
        tally.escalated = len(escalated)
        tally.escalated_examples = escalated[:MAX_LISTED].tolist()
        if tally.escalated:
            _check_exactly(tally, chunk.func, chunk.fmt, escalated, outcome["escalated_results"])
        return tally

    from .. import _core

    fmt = reference.FLOAT_FORMATS[chunk.fmt]
    inputs = chunk.input_bits().astype(fmt.bits_dtype)
    with np.errstate(invalid="ignore"):  # sin/cos(+-inf) raise "invalid", as they should
        results = _core.trig_with_target(chunk.target, FUNCS.index(chunk.func),
                                         inputs.view(fmt.dtype)).view(fmt.bits_dtype).copy()
    if chunk.corrupt_for_test is not None:
        results[inputs == chunk.corrupt_for_test] ^= 1
    _check_exactly(tally, chunk.func, chunk.fmt, inputs, results)
    return tally


# ---------------------------------------------------------------------------
# Progress on stderr
# ---------------------------------------------------------------------------


def _duration(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m{seconds:02d}s"
    if minutes:
        return f"{minutes}m{seconds:02d}s"
    return f"{seconds}s"


class Progress:
    """Done/total, rate and ETA: a redrawn bar on a terminal, otherwise a
    line every ``interval`` seconds."""

    BAR_WIDTH = 30

    def __init__(self, total: int, stream, interval: float):
        self.total = total
        self.stream = stream
        self.interval = interval
        self.is_terminal = hasattr(stream, "isatty") and stream.isatty()
        self.start = time.perf_counter()
        self.last_shown = self.start
        self.done = 0

    def _text(self, now: float) -> str:
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else math.inf
        share = self.done / self.total if self.total else 1.0
        return (f"{100 * share:5.1f}%  {self.done}/{self.total} inputs  {rate / 1e6:.2f} M/s  "
                f"elapsed {_duration(elapsed)}  ETA {_duration(eta)}")

    def update(self, done: int) -> None:
        self.done = done
        now = time.perf_counter()
        if self.is_terminal:
            if now - self.last_shown >= 0.25 or done == self.total:
                filled = int(self.BAR_WIDTH * done / self.total) if self.total else self.BAR_WIDTH
                bar = "#" * filled + "." * (self.BAR_WIDTH - filled)
                self.stream.write(f"\r[{bar}] {self._text(now)}  ")
                self.stream.flush()
                self.last_shown = now
        elif now - self.last_shown >= self.interval:
            self.stream.write(f"progress: {self._text(now)}\n")
            self.stream.flush()
            self.last_shown = now

    def finish(self) -> None:
        if self.is_terminal:
            self.stream.write("\n")
            self.stream.flush()


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def _integer(text: str) -> int:
    """An integer (0x... allowed) below 2**64 in magnitude: every option's range ends
    there, so a longer one is refused unread; messages quote at most 40 characters."""
    try:
        value = int(text, 0) if len(text.strip()) <= 30 else None
    except ValueError:
        value = None
    if value is None or abs(value) > UNBOUNDED_MAX:
        raise argparse.ArgumentTypeError(f"expected an integer below 2**64 in magnitude, got {shown(text)}")
    return value


def _positive_int(text: str) -> int:
    value = _integer(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {shown(text)}")
    return value


def _non_negative_int(text: str) -> int:
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be non-negative, got {shown(text)}")
    return value


#: Shortest --progress-interval: a line a second at most (shorter ones only flood a log).
MIN_PROGRESS_INTERVAL = 1.0


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= MIN_PROGRESS_INTERVAL):
        raise argparse.ArgumentTypeError(f"expected a number of seconds, at least {MIN_PROGRESS_INTERVAL:g}, "
                                         f"got {shown(text)}")
    return value


def _bit_range(text: str) -> tuple[int, int]:
    try:
        first_text, last_text = text.split(":")
        first, last = int(first_text, 0), int(last_text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected FIRST:LAST (e.g. 0x3f800000:0x3fffffff), got {shown(text)}")
    if not 0 <= first <= last:
        raise argparse.ArgumentTypeError(f"need 0 <= FIRST <= LAST, got {shown(text)}")
    return first, last


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("function", choices=FUNCS, metavar="sin|cos|sinpi|cospi|tan|tanpi",
                        help="the function to check")
    parser.add_argument("--dtype", choices=DTYPES, default="float32",
                        help="input and output type (default float32)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--exhaustive", action="store_true",
                      help="check every bit pattern (the default for float16 and bfloat16; "
                      "not for float64)")
    mode.add_argument("--sample", type=_positive_int, metavar="N",
                      help=f"check N random bit patterns, at most as many as the type has "
                      f"(default for float32: {DEFAULT_SAMPLE}, for float64: {DEFAULT_FLOAT64_SAMPLE})")
    mode.add_argument("--range", type=_bit_range, metavar="FIRST:LAST", dest="bit_range",
                      help="check the bit patterns FIRST..LAST (inclusive; hex allowed)")
    mode.add_argument("--worst-cases", nargs="+", metavar="FILE",
                      help="check the values listed in FILEs (CORE-MATH's .wc format: one hex "
                      "float a line, '#' comments) and their negatives")
    parser.add_argument("--target", metavar="NAME|all", default=None,
                        help="the SIMD target whose kernels are checked: "
                        f"{', '.join(TARGETS)}, or all (every target this CPU supports, in "
                        "turn); default: the one crtrig uses here")
    parser.add_argument("--jobs", type=_positive_int, default=os.cpu_count() or 1, metavar="J",
                        help="worker processes (default: os.cpu_count())")
    parser.add_argument("--seed", type=_non_negative_int, default=DEFAULT_SEED, metavar="S",
                        help=f"seed of --sample, a non-negative integer (default {DEFAULT_SEED})")
    parser.add_argument("--margin-log2", type=_integer, default=DEFAULT_MARGIN_LOG2, metavar="M",
                        help=f"escalate when the oracle lies within 2^-M (relative) of a "
                        f"rounding boundary; {MIN_MARGIN_LOG2} <= M <= {MAX_MARGIN_LOG2} "
                        f"(default {DEFAULT_MARGIN_LOG2})")
    parser.add_argument("--progress-interval", type=_positive_seconds, default=30.0, metavar="SECONDS",
                        help="seconds between progress lines when stderr is not a terminal, "
                        f"at least {MIN_PROGRESS_INTERVAL:g} (default 30)")
    parser.add_argument("--corrupt-for-test", type=_non_negative_int, default=None,
                        help=argparse.SUPPRESS)
    parser.set_defaults(func=run)


def _format_value(bits: int, fmt_name: str) -> str:
    fmt = reference.FLOAT_FORMATS[fmt_name]
    value = reference.bits_to_float(bits, fmt_name)  # a Python float: the same text everywhere
    width = fmt.width // 4
    return f"0x{bits:0{width}x} ({value!r})"


def _room(error_log2: int, margin_log2: int) -> str:
    """How many times the margin 2^-margin_log2 exceeds the error 2^error_log2."""
    room_log2 = -error_log2 - margin_log2
    if room_log2 <= 0:
        return f"no room (the margin is 2^{-room_log2} times smaller than the error)"
    return f"{2 ** room_log2}x"


def _libc_name() -> str:
    import platform

    name, version = platform.libc_ver()
    return f"{name} {version}".strip() if name else "the C library's"


class UsageError(Exception):
    """A run that cannot be made as asked: one line, exit status 2."""


def resolve_targets(requested: Optional[str]) -> list[tuple[int, str]]:
    """(index, name) of the SIMD targets to check: the one named
    (case-insensitively), every supported one for "all", or by default the
    one crtrig chose at import.  Raises UsageError for an unknown name or a
    target this CPU does not support."""
    from .. import _core

    supported = _core._supported_target_slots()
    available = [(index, name) for index, name in enumerate(supported) if name is not None]
    if requested is None:
        return [(TARGETS.index(_core.SIMD_TARGET), _core.SIMD_TARGET)]
    name = requested.strip().lower()
    if name == "all":
        return available
    if name not in TARGETS:
        shown = requested if len(requested) <= 40 else requested[:40] + "..."
        raise UsageError(f"unknown target {shown!r} (known: {', '.join(TARGETS)}, all)")
    index = TARGETS.index(name)
    if index >= len(supported) or supported[index] is None:
        raise UsageError(f"target {name} is not supported by this CPU "
                         f"(supported: {', '.join(name for _, name in available)})")
    return [(index, name)]


def _check_arguments(args, fmt: reference.FloatFormat, use_oracle: bool, oracle_problem) -> None:
    """Raise UsageError when the run cannot be made as asked."""
    patterns = 1 << fmt.width
    max_jobs = max(MAX_JOBS, 4 * (os.cpu_count() or 1))
    if args.jobs > max_jobs:
        raise UsageError(f"--jobs {args.jobs} is more than {max_jobs} (4 per CPU, at least {MAX_JOBS})")
    if not MIN_MARGIN_LOG2 <= args.margin_log2 <= MAX_MARGIN_LOG2:
        raise UsageError(f"--margin-log2 must lie in [{MIN_MARGIN_LOG2}, {MAX_MARGIN_LOG2}]")
    if args.corrupt_for_test is not None and args.corrupt_for_test >= patterns:
        raise UsageError(f"--corrupt-for-test: {fmt.name} bit patterns end at 0x{patterns - 1:x}")
    if args.sample is not None and args.sample > patterns:
        raise UsageError(f"--sample {args.sample} is more than the {patterns} bit patterns of "
                         f"{fmt.name}; use --exhaustive to check them all")
    if args.bit_range is not None and args.bit_range[1] >= patterns:
        raise UsageError(f"--range: {fmt.name} bit patterns end at 0x{patterns - 1:x}")
    if fmt.name == "float64":
        if args.exhaustive:
            raise UsageError("--exhaustive: float64 has 2^64 inputs, each checked exactly; use "
                             "--sample N, --range FIRST:LAST or --worst-cases FILE")
        count = (args.sample if args.sample is not None
                 else args.bit_range[1] - args.bit_range[0] + 1 if args.bit_range is not None else 0)
        if count > MAX_FLOAT64_INPUTS:
            raise UsageError(f"{'--sample' if args.sample is not None else '--range'}: {count} float64 "
                             f"inputs is more than the {MAX_FLOAT64_INPUTS} of one run")
    if fmt.name == "float32" and not use_oracle and getattr(args, "worst_cases", None) is None:
        count = (patterns if args.exhaustive else args.sample if args.sample is not None
                 else args.bit_range[1] - args.bit_range[0] + 1)
        if count > 1 << 24:
            raise UsageError(f"no long double oracle here ({oracle_problem}); refusing to check "
                             f"{count} float32 inputs with the exact path alone ({EXACT_METHOD}); "
                             f"use --sample N with N <= {1 << 24}")


def _chunk_size(fmt: reference.FloatFormat, use_oracle: bool, count: int, jobs: int) -> int:
    """Inputs per chunk: fixed, except for float64, where it grows with the run
    (at least 4 chunks per job while they are small, at most FLOAT64_CHUNK)."""
    if use_oracle:
        return ORACLE_CHUNK
    if fmt.name != "float64":
        return EXACT_CHUNK
    per_job = -(-count // (4 * jobs))
    return max(EXACT_CHUNK, min(FLOAT64_CHUNK, -(-per_job // EXACT_CHUNK) * EXACT_CHUNK))


def _plan(args, fmt: reference.FloatFormat, use_oracle: bool, target: int) -> tuple[str, list[Chunk]]:
    """Description of the inputs and the chunks that cover them."""
    patterns = 1 << fmt.width
    common = dict(func=args.function, fmt=fmt.name, use_oracle=use_oracle,
                  margin_log2=args.margin_log2, corrupt_for_test=args.corrupt_for_test,
                  target=target)
    worst_cases = getattr(args, "worst_case_bits", None)
    if worst_cases is not None:
        bits = worst_cases
        if args.corrupt_for_test is not None and not np.any(bits == np.uint64(args.corrupt_for_test)):
            bits = np.append(bits, np.uint64(args.corrupt_for_test))
        size = min(_chunk_size(fmt, use_oracle, len(bits), args.jobs), max(1, -(-len(bits) // (4 * args.jobs))))
        chunks = [Chunk(inputs=bits[start:start + size], **common) for start in range(0, len(bits), size)]
        files = ", ".join(args.worst_cases)
        return (f"{len(bits)} inputs from {files} (each value and its negative, distinct bit patterns)",
                chunks)
    if args.sample is not None:
        chunk_size = _chunk_size(fmt, use_oracle, args.sample, args.jobs)
        blocks = -(-args.sample // SAMPLE_BLOCK)
        per_chunk = max(1, min(chunk_size // SAMPLE_BLOCK, -(-blocks // (4 * args.jobs))))
        chunks = [Chunk(first=first, count=min(per_chunk, blocks - first), sample_seed=args.seed,
                        sample_size=args.sample, **common)
                  for first in range(0, blocks, per_chunk)]
        total = args.sample
        if args.corrupt_for_test is not None:  # the hook's input is checked in any case
            chunks.append(Chunk(inputs=np.array([args.corrupt_for_test], dtype=np.uint64), **common))
            total += 1
        return f"{total} random bit patterns (seed {args.seed})", chunks
    if args.bit_range is not None:
        first, last = args.bit_range
        description = f"bit patterns 0x{first:x}..0x{last:x} ({last - first + 1} inputs)"
    else:
        first, last = 0, patterns - 1
        description = f"all {patterns} bit patterns"
    chunk_size = _chunk_size(fmt, use_oracle, last + 1 - first, args.jobs)
    chunks = [Chunk(first=start, count=min(chunk_size, last + 1 - start), **common)
              for start in range(first, last + 1, chunk_size)]
    # A spread-out visiting order (golden-ratio stride) keeps the rate representative.
    chunks.sort(key=lambda chunk: (chunk.first * 0.6180339887498949 / chunk_size) % 1.0)
    return description, chunks


def _usage_error(message: str, program: str = PROGRAM) -> int:
    print(f"{program}: error: {message}", file=sys.stderr)
    return 2


def run(args) -> int:
    out = sys.stdout
    program = getattr(args, "program", PROGRAM)  # the name it was called by (crtrig.__main__)
    fmt = reference.FLOAT_FORMATS[args.dtype]

    oracle_problem = None
    if fmt.name == "float32":
        try:
            from .. import _verify
        except ImportError as exc:
            oracle_problem = f"crtrig._verify is not built ({exc})"
        else:
            oracle_problem = _verify.oracle_unavailable_reason()
    use_oracle = fmt.name == "float32" and oracle_problem is None

    if (fmt.name in ("float32", "float64") and args.sample is None and args.bit_range is None
            and not args.exhaustive and args.worst_cases is None):
        args.sample = DEFAULT_SAMPLE if fmt.name == "float32" else DEFAULT_FLOAT64_SAMPLE
    try:
        _check_arguments(args, fmt, use_oracle, oracle_problem)
        targets = resolve_targets(args.target)
        if args.worst_cases is not None:
            args.worst_case_bits = read_worst_case_files(args.worst_cases, fmt)
    except UsageError as exc:
        return _usage_error(str(exc), program)

    description, _ = _plan(args, fmt, use_oracle, targets[0][0])
    jobs = args.jobs
    names = ", ".join(name for _, name in targets)
    print(f"{program}: {args.function} {fmt.name}, {description}, "
          f"target{'s' if len(targets) > 1 else ''} {names}, up to {jobs} job{'s' if jobs > 1 else ''}",
          file=out)
    if use_oracle:
        if args.function in TAN_ORACLE_ERROR_LOG2:
            error_log2 = TAN_ORACLE_ERROR_LOG2[args.function]
            argument = "x" if args.function == "tan" else "pi t after the exact reduction x mod 1/2 (|t| <= 1/4)"
            print(f"oracle: {_libc_name()} sinl/cosl of {argument}, their quotient, x87 long double "
                  f"(64-bit significand), margin 2^-{args.margin_log2} relative", file=out)
            print(f"  error at most 2^{error_log2} relative (sinl's 2 ulp, cosl's 1 ulp, the quotient's "
                  f"rounding{'' if args.function == 'tan' else ' and that of pi t'}; "
                  f"src/verify/verify_f32.c); the margin leaves "
                  f"{_room(error_log2, args.margin_log2)} room", file=out)
        elif args.function in ORACLE_ERROR_LOG2:
            error_log2 = ORACLE_ERROR_LOG2[args.function]
            print(f"oracle: exact reduction x mod 2, then {_libc_name()} sinl/cosl of pi t (|t| <= "
                  f"1/4), x87 long double (64-bit significand), margin 2^-{args.margin_log2} "
                  f"relative", file=out)
            print(f"  error at most 2^{error_log2} relative (sinl's 2 ulp and the rounding of pi t; "
                  f"src/verify/verify_f32.c); the margin leaves "
                  f"{_room(error_log2, args.margin_log2)} room", file=out)
        else:
            ulps = GLIBC_LDOUBLE_ULPS[args.function]
            error_log2 = LONG_DOUBLE_ULP_LOG2 + int(math.log2(ulps))
            print(f"oracle: {_libc_name()} {args.function}l, x87 long double (64-bit significand), "
                  f"margin 2^-{args.margin_log2} relative", file=out)
            print(f"  glibc's libm-test-ulps (x86_64) lists at most {ulps} ulp for {args.function}l, "
                  f"i.e. 2^{error_log2} relative; the margin leaves "
                  f"{_room(error_log2, args.margin_log2)} room", file=out)
        print(f"  inputs within the margin of a rounding boundary are escalated and checked "
              f"exactly: {EXACT_METHOD}", file=out)
    else:
        if fmt.name == "float32":
            print(f"oracle: no long double oracle here ({oracle_problem}); every input is "
                  f"checked exactly (slow path)", file=out)
        print(f"oracle: exact, correctly rounded {args.function}: {EXACT_METHOD}", file=out)
        if fmt.name == "float64":
            print("  float64 has no long double oracle (64 bits are too few to settle its hard "
                  "cases): every input is checked exactly", file=out)
    out.flush()

    any_wrong = False
    for target_index, target_name in targets:
        _, chunks = _plan(args, fmt, use_oracle, target_index)
        tally, seconds = _run_chunks(chunks, args)
        _report(out, args, fmt, use_oracle, target_name, tally, seconds)
        any_wrong = any_wrong or tally.wrong > 0
    return 1 if any_wrong else 0


def single_threaded_worker() -> None:
    """Worker-process initializer: the jobs are already one process per CPU, so
    crtrig's own thread pool stays unused in each (crtrig.set_num_threads(1))."""
    from .. import set_num_threads

    set_num_threads(1)


def _run_chunks(chunks: list[Chunk], args) -> tuple[Tally, float]:
    total = sum(chunk.size() for chunk in chunks)
    jobs = max(1, min(args.jobs, len(chunks)))
    start = time.perf_counter()
    progress = Progress(total, sys.stderr, args.progress_interval)
    tally = Tally()
    if jobs == 1:
        for chunk in chunks:
            tally.add(run_chunk(chunk))
            progress.update(tally.inputs)
    else:
        import multiprocessing

        with multiprocessing.get_context().Pool(jobs, initializer=single_threaded_worker) as pool:
            for chunk_tally in pool.imap_unordered(run_chunk, chunks):
                tally.add(chunk_tally)
                progress.update(tally.inputs)
    progress.finish()
    return tally, time.perf_counter() - start


def _report(out, args, fmt: reference.FloatFormat, use_oracle: bool, target: str,
            tally: Tally, seconds: float) -> None:
    print(f"target: {target}", file=out)
    print(f"checked: {tally.inputs} inputs ({tally.nonfinite} NaN/inf, which must give NaN)", file=out)
    if use_oracle:
        print(f"escalated: {tally.escalated} inputs within the margin of a {fmt.name} rounding "
              f"boundary, all checked exactly", file=out)
        if tally.escalated_examples:
            listed = ", ".join(f"0x{bits:08x}" for bits in tally.escalated_examples)
            more = ", ..." if tally.escalated > len(tally.escalated_examples) else ""
            print(f"  escalated inputs: {listed}{more}", file=out)
    else:
        print(f"checked exactly: {tally.exact_checked} inputs", file=out)
    print(f"wrong: {tally.wrong}", file=out)
    for input_bits, got, expected in tally.wrong_examples:
        print(f"  WRONG {args.function}({_format_value(input_bits, fmt.name)}): crtrig gave "
              f"{_format_value(got, fmt.name)}, correctly rounded is "
              f"{_format_value(expected, fmt.name)}", file=out)
    if tally.wrong > len(tally.wrong_examples):
        print(f"  ... and {tally.wrong - len(tally.wrong_examples)} more", file=out)
    print(f"wall time: {seconds:.1f} s", file=out)
    print(f"{args.function} {fmt.name} target {target}: {tally.inputs} inputs, {tally.wrong} wrong, "
          f"{tally.escalated} escalated, {seconds:.1f} s", file=out)
    out.flush()
