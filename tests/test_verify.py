"""Tests of ``python -m crtrig verify`` and its C layer crtrig._verify.

The oracle tests need the x87 long double oracle (x86-64 Linux) and skip
elsewhere; the corruption hook checks that a wrong result is caught, so these
tests can fail.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys

import numpy as np
import pytest

from crtrig import __main__ as cli
from crtrig import _core as crtrig_core
from crtrig import reference, verify

from sanitizer_marks import address_space_limit

try:
    from crtrig import _verify
except ImportError:  # not built
    _verify = None

ORACLE_REASON = "crtrig._verify is not built" if _verify is None else _verify.oracle_unavailable_reason()
needs_oracle = pytest.mark.skipif(ORACLE_REASON is not None,
                                  reason=f"no long double oracle: {ORACLE_REASON}")

FINAL_LINE = re.compile(r"^(?P<func>sin|cos) (?P<dtype>float32|float16|bfloat16|float64) "
                        r"target (?P<target>baseline|avx2|avx512): (?P<inputs>\d+) inputs, "
                        r"(?P<wrong>\d+) wrong, (?P<escalated>\d+) escalated, \d+\.\d s$",
                        re.M)
RESULT = ("func", "dtype", "inputs", "wrong")


def run_cli(*arguments: str) -> subprocess.CompletedProcess:
    """``python -m crtrig verify ARGS`` in a child (limited to 4 GiB of
    address space on Linux: a run must not try to allocate more; not under
    tools/check_sanitizers.sh, see sanitizer_marks.py)."""
    return subprocess.run([sys.executable, "-m", "crtrig", "verify", *arguments],
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=address_space_limit(4 << 30))


def final_line(stdout: str) -> re.Match:
    match = FINAL_LINE.match(stdout.strip().splitlines()[-1])
    assert match, stdout
    return match


# ---------------------------------------------------------------------------
# The command, as a user runs it
# ---------------------------------------------------------------------------


@needs_oracle
@pytest.mark.parametrize("func", ["sin", "cos"])
def test_sample_run_reports_and_passes(func):
    done = run_cli(func, "--dtype", "float32", "--sample", "20000", "--jobs", "2", "--seed", "7")
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "oracle: " in out and f"{func}l, x87 long double (64-bit significand), margin 2^-56 relative" in out
    assert "checked: 20000 inputs" in out
    assert re.search(r"^escalated: \d+ inputs .* all checked exactly$", out, re.M)
    assert re.search(r"^wrong: 0$", out, re.M)
    assert re.search(r"^wall time: \d+\.\d s$", out, re.M)
    match = final_line(out)
    assert match.group(*RESULT) == (func, "float32", "20000", "0")
    assert match["target"] == crtrig_core.SIMD_TARGET  # by default, the kernels crtrig uses


@needs_oracle
def test_corrupted_result_is_reported_and_fails():
    corrupt = 0x3F800000  # sin(1.0); added to the sample by the hook
    done = run_cli("sin", "--sample", "1000", "--jobs", "2", "--corrupt-for-test", hex(corrupt))
    assert done.returncode == 1, done.stdout + done.stderr
    assert re.search(r"^wrong: 1$", done.stdout, re.M)
    assert "WRONG sin(0x3f800000 (1.0))" in done.stdout
    match = final_line(done.stdout)
    assert match.group("inputs", "wrong") == ("1001", "1")


@pytest.mark.slow
def test_float16_exhaustive_in_process(capsys):
    assert cli.main(["verify", "cos", "--dtype", "float16", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "checked exactly: 65536 inputs" in out
    assert final_line(out).group(*RESULT) == ("cos", "float16", "65536", "0")


def test_bfloat16_corruption_is_caught(capsys):
    corrupt = 0x3F80  # bfloat16 1.0
    status = cli.main(["verify", "sin", "--dtype", "bfloat16", "--jobs", "1",
                       "--range", "0x3f00:0x3fff", "--corrupt-for-test", hex(corrupt)])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "WRONG sin(0x3f80 (1.0))" in out
    assert final_line(out).group("inputs", "wrong") == ("256", "1")


# ---------------------------------------------------------------------------
# The C layer on contiguous blocks
# ---------------------------------------------------------------------------

BLOCKS = [
    0x00000000,  # +0 and the smallest subnormals
    0x80000000,  # -0 and negative subnormals
    0x00800000 - 0x4000,  # subnormal / normal boundary
    0x39800000,  # small arguments (sin x ~ x, cos x ~ 1)
    0x3F800000,  # around 1
    0x3FC90000,  # around pi/2
    0xC0490000,  # around -pi
    0x4B800000,  # 2^24: integers, large reduction
    0x7F7FC000,  # up to the largest finite value, then +inf and NaNs
    0xFFFFC000,  # negative NaNs up to the last bit pattern
]


@needs_oracle
@pytest.mark.parametrize("func", ["sin", "cos"])
@pytest.mark.parametrize("first", BLOCKS, ids=hex)
def test_block_has_no_wrong_result(func, first):
    count = min(1 << 15, (1 << 32) - first)
    outcome = _verify.verify_block(func, first, count)
    escalated = outcome["escalated_inputs"]
    assert outcome["checked"] + len(escalated) == count
    assert outcome["wrong"] == 0, [tuple(map(hex, example)) for example in outcome["wrong_examples"]]
    for input_bits, got in zip(escalated.tolist(), outcome["escalated_results"].tolist()):
        assert got == reference.trig_bits(func, reference.bits_to_float(input_bits, "float32"), "float32")


@needs_oracle
def test_nonfinite_inputs_must_give_nan():
    outcome = _verify.verify_block("cos", 0x7F800000, 1 << 12)
    assert outcome["nonfinite"] == 1 << 12
    assert outcome["wrong"] == 0


@needs_oracle
def test_block_corruption_hook():
    outcome = _verify.verify_block("cos", 0x40000000, 4096, _corrupt_for_test=0x40000123)
    assert outcome["wrong"] == 1
    (input_bits, got, expected), = outcome["wrong_examples"]
    assert input_bits == 0x40000123 and got ^ expected == 1


@needs_oracle
def test_block_arguments_are_checked():
    with pytest.raises(ValueError):
        _verify.verify_block("cot", 0, 10)
    with pytest.raises(ValueError):
        _verify.verify_block("sin", (1 << 32) - 5, 10)
    with pytest.raises(ValueError):
        _verify.verify_block("sin", 0, 10, margin_log2=61)


@needs_oracle
def test_escalated_inputs_are_checked_exactly():
    """A wide margin (2^-27) escalates a good share of the inputs; the exact
    path then decides them, and a corrupted escalated result is caught."""
    chunk = verify.Chunk(func="sin", fmt="float32", use_oracle=True, first=0x3F000000, count=2048,
                         margin_log2=27)
    tally = verify.run_chunk(chunk)
    assert 0 < tally.escalated < 2048
    assert tally.exact_checked == tally.escalated
    assert tally.wrong == 0
    chunk.corrupt_for_test = tally.escalated_examples[0]
    corrupted = verify.run_chunk(chunk)
    assert corrupted.wrong == 1
    assert corrupted.wrong_examples[0][0] == chunk.corrupt_for_test


# ---------------------------------------------------------------------------
# The oracle itself, against MPFR
# ---------------------------------------------------------------------------


@needs_oracle
@pytest.mark.parametrize("func", ["sin", "cos"])
def test_oracle_error_is_far_below_the_margin(func):
    """sinl/cosl on random finite float32 inputs (all magnitudes) stay within
    2^-61 relative of the exact value: 32 times inside the 2^-56 margin."""
    gmpy2 = pytest.importorskip("gmpy2")
    rng = np.random.default_rng(11)
    inputs = rng.integers(0, 1 << 32, size=3000, dtype=np.uint64).astype(np.uint32)
    inputs = inputs[(inputs & 0x7F800000) != 0x7F800000]
    values = _verify.oracle_values(func, inputs)
    worst = 0.0
    with gmpy2.context(precision=256):
        for input_bits, value in zip(inputs.tolist(), values):
            x = gmpy2.mpfr(reference.bits_to_float(input_bits, "float32"))
            exact = getattr(gmpy2, func)(x)
            approx = gmpy2.mpfr(gmpy2.mpq(*value.as_integer_ratio()))
            if exact != 0:
                worst = max(worst, float(abs(approx - exact) / abs(exact)))
    assert worst < 2.0 ** -61, math.log2(worst)


# ---------------------------------------------------------------------------
# Without the long double oracle
# ---------------------------------------------------------------------------


@pytest.fixture
def no_oracle(monkeypatch):
    if _verify is None:
        pytest.skip("crtrig._verify is not built")
    monkeypatch.setattr(_verify, "oracle_unavailable_reason",
                        lambda: "long double is not the x87 80-bit format here (test)")


def test_exhaustive_refused_without_oracle(no_oracle, capsys):
    assert cli.main(["verify", "sin", "--exhaustive"]) == 2
    assert "refusing" in capsys.readouterr().err


def test_sample_uses_exact_path_without_oracle(no_oracle, capsys):
    assert cli.main(["verify", "cos", "--sample", "300", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "no long double oracle here" in out
    assert "checked exactly: 300 inputs" in out
    assert final_line(out).group("inputs", "wrong") == ("300", "0")


# ---------------------------------------------------------------------------
# SIMD targets: --target NAME|all
# ---------------------------------------------------------------------------

SUPPORTED_TARGETS = [name for name in crtrig_core._supported_target_slots() if name is not None]


def result_lines(stdout: str) -> list[re.Match]:
    return list(FINAL_LINE.finditer(stdout))


def test_target_all_checks_every_supported_target_in_turn(capsys):
    corrupt = 0x3F80  # bfloat16 1.0: every target's run must catch it
    status = cli.main(["verify", "sin", "--dtype", "bfloat16", "--jobs", "1", "--target", "all",
                       "--range", "0x3f00:0x3fff", "--corrupt-for-test", hex(corrupt)])
    out = capsys.readouterr().out
    assert status == 1, out
    lines = result_lines(out)
    assert [m["target"] for m in lines] == SUPPORTED_TARGETS
    assert all(m.group("inputs", "wrong") == ("256", "1") for m in lines)
    assert out.count("WRONG sin(0x3f80 (1.0))") == len(SUPPORTED_TARGETS)


@needs_oracle
def test_target_all_float32_with_the_oracle():
    done = run_cli("cos", "--sample", "5000", "--jobs", "2", "--target", "ALL")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = result_lines(done.stdout)
    assert [m["target"] for m in lines] == SUPPORTED_TARGETS
    assert all(m.group(*RESULT) == ("cos", "float32", "5000", "0") for m in lines)


@pytest.mark.parametrize("name", SUPPORTED_TARGETS)
def test_target_by_name(capsys, name):
    assert cli.main(["verify", "cos", "--dtype", "float16", "--jobs", "1", "--target", name.upper(),
                     "--range", "0x3c00:0x3cff"]) == 0
    (line,) = result_lines(capsys.readouterr().out)
    assert line["target"] == name and line["wrong"] == "0"


def test_unknown_or_unsupported_target_is_one_line_exit_2():
    names = ["bogus"] + [name for name, ok in zip(verify.TARGETS, crtrig_core._supported_target_slots()) if ok is None]
    if len(names) == 1:  # this CPU supports every target
        assert SUPPORTED_TARGETS == list(verify.TARGETS)
    for name in names:
        done = run_cli("sin", "--dtype", "float16", "--target", name)
        assert done.returncode == 2 and done.stdout == "", done
        assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr
        assert ("unknown target" if name == "bogus" else "not supported") in done.stderr


@needs_oracle
def test_verify_block_uses_the_target_it_is_given():
    """The C layer computes crtrig's values with crtrig_trig_strided_target:
    each supported target is checked (and its corruption caught), and an
    unavailable index is refused rather than silently replaced."""
    for index, name in enumerate(crtrig_core._supported_target_slots()):
        if name is None:
            with pytest.raises(ValueError, match="target"):
                _verify.verify_block("sin", 0x40000000, 16, target=index)
            continue
        outcome = _verify.verify_block("sin", 0x40000000, 4096, target=index, _corrupt_for_test=0x40000123)
        assert outcome["wrong"] == 1 and outcome["wrong_examples"][0][0] == 0x40000123
    with pytest.raises(ValueError, match="target"):
        _verify.verify_block("sin", 0x40000000, 16, target=len(verify.TARGETS))
    assert _verify.simd_targets() == crtrig_core._supported_target_slots()


# ---------------------------------------------------------------------------
# Arguments: one line and exit status 2, bounded memory
# ---------------------------------------------------------------------------

BAD_ARGUMENTS = {
    # name: (arguments, message fragment)
    "sample_beyond_float32": (["sin", "--sample", "1000000000000"], "--exhaustive"),
    "sample_beyond_float16": (["sin", "--dtype", "float16", "--sample", "65537"], "--exhaustive"),
    "negative_corrupt": (["sin", "--corrupt-for-test", "-1"], "non-negative"),
    "corrupt_beyond_float16": (["sin", "--dtype", "float16", "--corrupt-for-test", "0x10000"], "0xffff"),
    "negative_seed": (["sin", "--sample", "10", "--seed", "-1"], "non-negative"),
    "seed_not_integer": (["sin", "--sample", "10", "--seed", "1.5"], "integer"),
    "margin": (["sin", "--margin-log2", "99"], "--margin-log2"),
    "margin_not_integer": (["sin", "--margin-log2", "x"], "integer"),
    "progress_nan": (["sin", "--progress-interval", "nan"], "seconds"),
    "range_beyond_bfloat16": (["sin", "--dtype", "bfloat16", "--range", "0:0x10000"], "0xffff"),
    "too_many_jobs": (["sin", "--jobs", "1000000"], "--jobs"),
    "float64_exhaustive": (["sin", "--dtype", "float64", "--exhaustive"], "2^64"),
    "float64_sample_too_large": (["cos", "--dtype", "float64", "--sample", str((1 << 32) + 1)], "4294967296"),
    "float64_range_too_large": (["cos", "--dtype", "float64", "--range", "0:0x100000000"], "4294967296"),
    "range_beyond_float64": (["cos", "--dtype", "float64", "--range", "0:0x10000000000000000"], "0xffffffffffffffff"),
    "worst_cases_without_file": (["sin", "--worst-cases"], "--worst-cases"),
    "worst_cases_and_sample": (["sin", "--sample", "5", "--worst-cases", "x.wc"], "not allowed with"),
    "unknown_option": (["sin", "--bogus"], "--bogus"),
}


@pytest.mark.parametrize("kind", sorted(BAD_ARGUMENTS))
def test_bad_arguments_are_one_line_exit_2(kind):
    arguments, fragment = BAD_ARGUMENTS[kind]
    done = run_cli(*arguments)
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert fragment in lines[0]


def plan(*arguments: str):
    args = cli.build_parser().parse_args(["verify", *arguments])
    fmt = reference.FLOAT_FORMATS[args.dtype]
    return verify._plan(args, fmt, use_oracle=fmt.name == "float32", target=0)


def test_sample_is_drawn_per_chunk_and_deterministic():
    """A sample of all 2^32 patterns plans chunks of bounded size without
    drawing anything; the inputs drawn depend on N and the seed only."""
    description, chunks = plan("sin", "--sample", str(1 << 32), "--jobs", "2")
    assert sum(chunk.size() for chunk in chunks) == 1 << 32
    assert max(chunk.size() for chunk in chunks) <= verify.ORACLE_CHUNK
    assert all(chunk.inputs is None for chunk in chunks)

    def drawn(*arguments):
        _, chunks = plan("sin", "--dtype", "float16", *arguments)
        return np.concatenate([chunk.input_bits() for chunk in chunks])

    one_job = drawn("--sample", "10000", "--jobs", "1", "--seed", "5")
    assert len(one_job) == 10000 and one_job.max() < 1 << 16
    assert np.array_equal(one_job, drawn("--sample", "10000", "--jobs", "3", "--seed", "5"))
    assert not np.array_equal(one_job, drawn("--sample", "10000", "--jobs", "1", "--seed", "6"))
    assert len(np.unique(one_job)) > 5000  # random, not a constant


# ---------------------------------------------------------------------------
# float64: every input checked exactly against crtrig.reference
# ---------------------------------------------------------------------------

ONE_BITS = 0x3FF0000000000000  # float64 1.0


def test_float64_sample_on_every_target(capsys):
    """A float64 sample (random bit patterns) on every supported target, each
    compared exactly with crtrig.reference; the report names the oracle."""
    assert cli.main(["verify", "sin", "--dtype", "float64", "--sample", "3000", "--jobs", "1",
                     "--target", "all", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "oracle: exact, correctly rounded sin: crtrig.reference.trig_bits" in out
    assert "float64 has no long double oracle" in out and "x87" not in out
    assert out.count("checked exactly: 3000 inputs") == len(SUPPORTED_TARGETS)
    lines = result_lines(out)
    assert [m["target"] for m in lines] == SUPPORTED_TARGETS
    assert all(m.group(*RESULT) == ("sin", "float64", "3000", "0") for m in lines)


def test_float64_default_sample_is_planned_in_bounded_chunks():
    description, chunks = plan("cos", "--dtype", "float64", "--sample", str(1 << 32), "--jobs", "2")
    assert sum(chunk.size() for chunk in chunks) == 1 << 32
    assert max(chunk.size() for chunk in chunks) <= verify.FLOAT64_CHUNK
    _, chunks = plan("cos", "--dtype", "float64", "--sample", "1000", "--jobs", "2", "--seed", "1")
    drawn = np.concatenate([chunk.input_bits() for chunk in chunks])
    assert len(drawn) == 1000 and drawn.dtype == np.uint64 and drawn.max() >= 1 << 63  # 64-bit patterns
    _, chunks = plan("cos", "--dtype", "float64", "--range", f"0:{(1 << 32) - 1}", "--jobs", "2")
    assert len(chunks) == (1 << 32) // verify.FLOAT64_CHUNK


@pytest.mark.parametrize("func", ["sin", "cos"])
def test_float64_corrupted_result_is_reported_and_fails(func):
    done = run_cli(func, "--dtype", "float64", "--sample", "500", "--jobs", "2",
                   "--corrupt-for-test", hex(ONE_BITS))
    assert done.returncode == 1, done.stdout + done.stderr
    assert re.search(r"^wrong: 1$", done.stdout, re.M)
    assert f"WRONG {func}(0x3ff0000000000000 (1.0))" in done.stdout
    assert final_line(done.stdout).group(*RESULT) == (func, "float64", "501", "1")


WORST_CASE_FILE = """\
# a comment line, then values as CORE-MATH writes them
0x1.0192deafac33fp+0
0x1.6ac5b262ca1ffp+849   # the hardest reduction, with a trailing comment

-0x1.921fb54442d18p+1
+0x.fffffffffffffp-1022
+0x1p-1074
+0x1.fffffffffffffp+1023
+0
+1
+inf
+nan
+snan
0x1.0192DEAFAC33FP+0
"""


def write(tmp_path, text, name="cases.wc"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_worst_case_file_is_read_with_negatives_and_specials(tmp_path):
    bits = verify.read_worst_case_files([write(tmp_path, WORST_CASE_FILE)], reference.FLOAT_FORMATS["float64"])
    values = [float.fromhex(t) for t in ("0x1.0192deafac33fp+0", "0x1.6ac5b262ca1ffp+849",
                                          "-0x1.921fb54442d18p+1", "0x0.fffffffffffffp-1022", "0x1p-1074",
                                          "0x1.fffffffffffffp+1023", "0", "1", "inf")]
    want = []
    for v in values:
        want += [np.float64(v).view(np.uint64), np.float64(-v).view(np.uint64)]
    want += [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF4000000000000, 0xFFF4000000000000]
    assert bits.tolist() == [int(b) for b in want]  # file order, each value then its negative, once


def test_worst_case_files_agree_with_the_test_suites_reader():
    """The shipped worst-case files read by verify give exactly the inputs the
    float64 tests use (tests/float64_inputs.py, a separate reader on
    float.fromhex), plus the special values of their last section."""
    import float64_inputs

    specials = {0, 1 << 63, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000,
                0x7FF4000000000000, 0xFFF4000000000000}
    for func in ("sin", "cos"):
        bits = verify.read_worst_case_files([str(float64_inputs.DATA / f"{func}-binary64.wc")],
                                            reference.FLOAT_FORMATS["float64"])
        ours = set(np.array(float64_inputs.worst_cases(func)).view(np.uint64).tolist())
        assert len(bits) == len(set(bits.tolist())) > 79000
        assert set(bits.tolist()) == ours | specials


def test_float64_worst_cases_run_and_corruption(tmp_path, capsys):
    path = write(tmp_path, WORST_CASE_FILE)
    assert cli.main(["verify", "cos", "--dtype", "float64", "--worst-cases", path, "--jobs", "1",
                     "--target", "all"]) == 0
    out = capsys.readouterr().out
    assert f"22 inputs from {path} (each value and its negative" in out
    lines = result_lines(out)
    assert [m["target"] for m in lines] == SUPPORTED_TARGETS
    assert all(m.group(*RESULT) == ("cos", "float64", "22", "0") for m in lines)
    assert all(re.search(r"\(6 NaN/inf, which must give NaN\)", block) for block in out.split("target: ")[1:])
    # A corrupted input of the file is reported once; one that is not in it is added.
    for corrupt, inputs in ((ONE_BITS, "22"), (ONE_BITS + 1, "23")):
        status = cli.main(["verify", "sin", "--dtype", "float64", "--worst-cases", path, path, "--jobs", "2",
                           "--corrupt-for-test", hex(corrupt)])
        out = capsys.readouterr().out
        assert status == 1, out
        assert final_line(out).group(*RESULT) == ("sin", "float64", inputs, "1")
        assert f"WRONG sin(0x{corrupt:016x}" in out


def test_worst_cases_for_other_types(tmp_path, capsys):
    path = write(tmp_path, "0x1.8p+0\n0x1.ffcp+15\n0x1p-24\n")
    assert cli.main(["verify", "sin", "--dtype", "float16", "--worst-cases", path, "--jobs", "1"]) == 0
    assert final_line(capsys.readouterr().out).group("inputs", "wrong") == ("6", "0")
    status = cli.main(["verify", "sin", "--dtype", "float16", "--worst-cases", path, "--jobs", "1",
                       "--corrupt-for-test", "0x3e00"])  # float16 1.5
    assert status == 1 and "WRONG sin(0x3e00 (1.5))" in capsys.readouterr().out


@needs_oracle
def test_float32_worst_cases_go_through_the_oracle(tmp_path):
    path = write(tmp_path, "0x1.33333p+13\n0x1.fffffep+127\n0x1p-149\n")
    done = run_cli("sin", "--worst-cases", path, "--jobs", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "x87 long double" in done.stdout
    assert final_line(done.stdout).group(*RESULT) == ("sin", "float32", "6", "0")


BAD_WORST_CASE_FILES = {
    # name: (file text or None for a special path, dtype, message fragment)
    "not_hex": ("0x1p0\n1.5\n", "float64", ":2: '1.5': not a hex float"),
    "decimal_number": ("12\n", "float64", ":1: '12': not a hex float"),
    "two_values": ("0x1p0 0x1p1\n", "float64", ":1: more than one value"),
    "rounded_float64": ("0x1.00000000000001p+0\n", "float64", "not a float64 value exactly"),
    "overflow_float64": ("0x2p+1023\n", "float64", "not a float64 value exactly"),
    "below_subnormals": ("0x1p-1075\n", "float64", "not a float64 value exactly"),
    "huge_exponent": ("0x1p+99999999\n", "float64", "not a hex float"),
    "rounded_float32": ("0x1.921fb54442d18p+1\n", "float32", "not a float32 value exactly"),
    "long_line": ("0x1p0" + " " * 300 + "\n", "float64", "longer than 200 characters"),
    "no_values": ("# nothing\n\n", "float64", "no values in the file"),
    "binary": (None, "float64", "not a text file"),
    "missing": (None, "float64", "cannot read file"),
    "directory": (None, "float64", "not a regular file"),
    "fifo": (None, "float64", "not a regular file"),
    "dev_zero": (None, "float64", "not a regular file"),
}


@pytest.mark.parametrize("kind", sorted(BAD_WORST_CASE_FILES))
def test_bad_worst_case_files_are_one_line_exit_2(tmp_path, kind):
    import os

    text, dtype, fragment = BAD_WORST_CASE_FILES[kind]
    path = tmp_path / "bad.wc"
    if text is not None:
        path.write_text(text)
    elif kind == "binary":
        path.write_bytes(b"0x1p0\n\x00\xff\xfe")
    elif kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    elif kind == "dev_zero":
        path = "/dev/zero"
        if not os.path.exists(path):
            pytest.skip("no /dev/zero here")
    done = run_cli("sin", "--dtype", dtype, "--worst-cases", str(path))
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "--worst-cases" in lines[0] and str(path) in lines[0] and fragment in lines[0], lines[0]
