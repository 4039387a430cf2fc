"""python -m crtrig compare: the report's format, crtrig at 0 ULP / 0 %, a peer
known to be wrong reported wrong, each peer judged by its own definition, and
the vectorized ULP distance against crtrig.reference's exact one."""

from __future__ import annotations

import importlib.util
import io
import math
import re
import subprocess
import sys
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

import crtrig
from crtrig import compare, reference
from crtrig.__main__ import build_parser, main
from report_tables import markdown_tables

import oracle

CELL = re.compile(r"^(?:(?P<ulp>\d+|\d\.\de\d+|inf) / (?P<share>\d+(?:\.\d+)?(?:e-?\d+)?) %|n/a)$")
PEERS_IN_CI = "numpy,onnxruntime,onnx.reference"  # the test extra installs these
# ... except onnxruntime where it has no wheels (macOS x86_64): see pyproject.toml.
HAVE_ONNXRUNTIME = importlib.util.find_spec("onnxruntime") is not None


def tables(text: str) -> dict[str, list[dict[str, str]]]:
    """The markdown tables of a report, by the section heading above them (the
    first table of each section: the Windows section's size-0-2 table follows it)."""
    result: dict = {}
    for section, rows in markdown_tables(text):
        result.setdefault(section, rows)
    return result


def parse_cell(cell: str):
    match = CELL.match(cell)
    assert match, f"malformed cell {cell!r}"
    if cell == "n/a":
        return None
    return float(match["ulp"]), float(match["share"])


@pytest.fixture(scope="module")
def quick_report():
    args = build_parser().parse_args(["compare", "--quick", "--peers", PEERS_IN_CI])
    out = io.StringIO()
    assert args.func(args, out=out) == 0
    return out.getvalue()


def crtrig_has_float64_trig() -> bool:
    try:
        crtrig.sin(np.zeros(1))
    except TypeError:
        return False
    return True


def crtrig_computes(entry) -> bool:
    try:
        getattr(crtrig.windows, entry.name)(8, *entry.crtrig_values(8), sym=False)
    except NotImplementedError:
        return False
    return True


def test_report_format(quick_report):
    lines = quick_report.splitlines()
    assert lines[0] == f"$ python -m crtrig compare --quick --peers {PEERS_IN_CI}"
    peers = ["crtrig", "numpy"] + (["onnxruntime"] if HAVE_ONNXRUNTIME else []) + ["onnx.reference"]
    for name in peers:
        assert any(line.startswith(f"- {name} ") for line in lines), name
    found = tables(quick_report)
    assert set(found) == {"Windows", "sin and cos", "sinpi and cospi", "tan and tanpi"}
    tan = found["tan and tanpi"]  # the ONNX peers have Tan only
    assert [(row["peer"], row["function"]) for row in tan] == [
        (peer, func) for peer in peers for func in ("tan", "tanpi") if func == "tan" or peer in ("crtrig", "numpy")]
    assert all(cell == "0 / 0 %" for row in tan if row["peer"] == "crtrig"
               for key, cell in row.items() if key not in ("peer", "function"))
    assert any(cell != "0 / 0 %" for row in tan if row["peer"] == "numpy" and row["function"] == "tanpi"
               for key, cell in row.items() if key not in ("peer", "function"))  # tan(pi * x) is not exact
    windows, trig = found["Windows"], found["sin and cos"]
    pi = found["sinpi and cospi"]  # the ONNX peers have no such operator
    assert [(row["peer"], row["function"]) for row in pi] == [
        (peer, func) for peer in ("crtrig", "numpy") for func in ("sinpi", "cospi")]
    assert all(cell == "0 / 0 %" for row in pi if row["peer"] == "crtrig"
               for key, cell in row.items() if key not in ("peer", "function"))
    assert any(cell != "0 / 0 %" for row in pi if row["peer"] == "numpy"
               for key, cell in row.items() if key not in ("peer", "function"))  # sin(pi * x) is not exact
    assert list(windows[0]) == ["peer", "window", "float16", "bfloat16", "float32", "float64"]
    assert [(row["peer"], row["window"]) for row in windows] == [
        (peer, kind + (" (0.54/0.46)" if kind == "hamming" and peer == "numpy" else ""))
        for peer in peers for kind in ("hann", "hamming", "blackman", "bartlett", "triang", "parzen", "tukey")
        + tuple(entry.label for entry in compare.SCIPY_WINDOWS)]
    # Rational windows: only numpy's bartlett among these peers; the ONNX peers have none.
    cells = {(row["peer"], row["window"]): row["float64"] for row in windows}
    for peer in peers:
        for kind in ("bartlett", "triang", "parzen", "tukey"):
            if peer != "crtrig" and not (peer == "numpy" and kind == "bartlett"):
                assert cells[(peer, kind)] == "n/a", (peer, kind)
    # The exp, I0 and cosine windows: numpy has kaiser only (np.kaiser); the ONNX peers none.
    for entry in compare.SCIPY_WINDOWS:
        for peer in peers:
            if peer == "numpy" and entry.name == "kaiser":
                assert parse_cell(cells[(peer, entry.label)])[0] > 0  # np.kaiser is a few ULP off
            elif peer != "crtrig":
                assert cells[(peer, entry.label)] == "n/a", (peer, entry.label)
    assert list(trig[0])[:2] == ["peer", "function"] and len(trig[0]) == 2 + 6
    assert "Sizes 10, 257, periodic and symmetric: 534 values per cell." in quick_report
    for row in windows + trig:
        for key, cell in row.items():
            if key not in ("peer", "window", "function"):
                parse_cell(cell)


def test_crtrig_is_correctly_rounded_everywhere(quick_report):
    found = tables(quick_report)
    rows = [row for rows in found.values() for row in rows if row["peer"] == "crtrig"]
    assert len(rows) == 7 + len(compare.SCIPY_WINDOWS) + 2 + 2 + 2  # windows, sin and cos, sinpi and cospi, tan and tanpi
    for row in rows:
        for key, cell in row.items():
            if key in ("peer", "window", "function"):
                continue
            entry = compare.SCIPY_WINDOWS_BY_LABEL.get(row.get("window"))
            if entry is not None and not crtrig_computes(entry):  # n/a, saying why
                assert cell == "n/a"
                assert f"- crtrig, {entry.label} window {key}: NotImplementedError: crtrig.windows." \
                    in quick_report
                continue
            if key.startswith("float64") and "function" in row and not crtrig_has_float64_trig():
                assert cell == "n/a"
                assert f"- crtrig, {row['function']} float64: crtrig {crtrig.__version__} has no float64 loop" \
                    in quick_report
                continue
            assert cell == "0 / 0 %", (row, key)


def test_a_known_wrong_peer_is_reported_wrong(quick_report):
    """onnxruntime builds its windows with float32 coefficients, so its float64
    Hamming window is off at nearly every element by up to about 1.5e9 ULP."""
    pytest.importorskip("onnxruntime")
    windows = tables(quick_report)["Windows"]
    (row,) = [r for r in windows if r["peer"] == "onnxruntime" and r["window"] == "hamming"]
    ulp, share = parse_cell(row["float64"])
    assert ulp > 1e8 and share > 95


def test_each_peer_is_judged_by_its_own_hamming(quick_report):
    """numpy's 0.54/0.46 window is a few ULP from its own exact definition;
    against ONNX's 25/46, 21/46 it would be off by about 0.007 (1e13 ULP)."""
    windows = tables(quick_report)["Windows"]
    (row,) = [r for r in windows if r["peer"] == "numpy" and r["window"] == "hamming (0.54/0.46)"]
    ulp, share = parse_cell(row["float64"])
    assert 0 < ulp < 100 and 0 < share < 100
    ours = crtrig.hamming_window(257, periodic=False, dtype=np.float64)
    assert np.max(np.abs(np.hamming(257) - ours)) > 0.006


def test_missing_peers_are_skipped_with_a_note(monkeypatch):
    def not_installed(threads):
        raise ImportError("No module named 'torch'", name="torch")

    def broken(threads):
        raise RuntimeError("DLL load failed\nsecond line")

    monkeypatch.setitem(compare.PEER_LOADERS, "torch", not_installed)
    monkeypatch.setitem(compare.PEER_LOADERS, "scipy", broken)
    args = build_parser().parse_args(["compare", "--peers", "torch,scipy", "--sizes", "10",
                                      "--samples", "20", "--dtypes", "float32"])
    args.sizes, args.samples = [10], 20
    text = compare.report(args)
    assert "- torch: not installed (no module torch), skipped" in text
    assert "- scipy: unusable: RuntimeError: DLL load failed, skipped" in text
    assert [row["peer"] for row in tables(text)["Windows"]] == ["crtrig"] * (
        len(compare.WINDOW_KINDS) + len(compare.SCIPY_WINDOWS))


def test_a_peer_returning_the_wrong_dtype_is_n_a():
    bad = compare.Peer("bad", "1", "onnx", "", lambda kind, periodic, dtype: (lambda n: np.zeros(n)),
                       lambda func, dtype: (lambda x: x.astype(np.float64)))
    notes = []
    scores = compare.score_windows([bad], compare.Oracle(), ["hann"], ["float32"], [10], notes)
    assert scores[("bad", "hann", "float32")].cell() == "n/a"
    assert notes == ["bad, hann window float32: returned float64[10], expected float32[10]"]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_ulp_distance_matches_the_exact_reference(dtype):
    fmt = reference.FLOAT_FORMATS[dtype]
    unsigned = {16: np.uint16, 32: np.uint32, 64: np.uint64}[fmt.width]
    rng = np.random.default_rng(fmt.width)
    a = rng.integers(0, np.iinfo(unsigned).max, 3000, dtype=unsigned, endpoint=True)
    b = np.where(rng.random(3000) < 0.5, a ^ rng.integers(0, 8, 3000).astype(unsigned),
                 rng.integers(0, np.iinfo(unsigned).max, 3000, dtype=unsigned, endpoint=True))
    specials = np.array([0, fmt.sign_bit, 1, fmt.sign_bit | 1, fmt.inf_bits, fmt.inf_bits | fmt.sign_bit,
                         fmt.nan_bits, fmt.inf_bits - 1], dtype=unsigned)
    a = np.concatenate([a, np.repeat(specials, specials.size)])
    b = np.concatenate([b, np.tile(specials, specials.size)])
    got = compare.ulp_distance(a.view(fmt.dtype), b.view(fmt.dtype), dtype)
    with np.errstate(invalid="ignore"):
        x, y = a.view(fmt.dtype).astype(np.float64).tolist(), b.view(fmt.dtype).astype(np.float64).tolist()
    for i in range(a.size):
        want = reference.ulp_distance(x[i], y[i], dtype)
        assert got[i] == float(want), (dtype, hex(int(a[i])), hex(int(b[i])), got[i], want)


def test_cell_formatting():
    assert compare.format_ulp(0) == "0" and compare.format_ulp(99999) == "99999"
    assert compare.format_ulp(1.493e9) == "1.5e9" and compare.format_ulp(4.4e18) == "4.4e18"
    assert compare.format_ulp(math.inf) == "inf"
    assert compare.format_share(0, 10) == "0 %" and compare.format_share(1, 3) == "33.3 %"
    assert compare.format_share(10, 10) == "100 %" and compare.format_share(1, 63488) == "0.00158 %"


def test_trig_inputs_are_finite_and_of_the_asked_size():
    sets = compare.trig_input_sets(["float16", "bfloat16", "float32", "float64"], 100_000, 1)
    assert [(s.dtype, s.label) for s in sets] == [
        ("float16", "all 63,488 finite"), ("bfloat16", "all 65,280 finite"),
        ("float32", "100,000 random bit patterns"), ("float32", "100,000 in [-π, π]"),
        ("float64", "100,000 random bit patterns"), ("float64", "100,000 in [-π, π]")]
    for s in sets:
        values = s.values.astype(np.float64)
        assert np.isfinite(values).all() and s.values.dtype == reference.FLOAT_FORMATS[s.dtype].dtype
        assert np.unique(s.values.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[s.values.itemsize])).size \
            > 0.99 * s.values.size
    small = compare.trig_input_sets(["bfloat16"], 50, 1)
    assert small[0].label == "50 random finite" and small[0].values.dtype == ml_dtypes.bfloat16


@pytest.mark.parametrize("argv", [["--sizes", "1"], ["--sizes", "10,x"], ["--sizes", str(2**20 + 1)],
                                  ["--peers", "numpy,matlab"], ["--dtypes", "float128"], ["--ops", ""],
                                  ["--samples", "0"], ["--seed", "-1"]])
def test_bad_arguments_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["compare"] + argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("crtrig compare: error: ") and err.count("\n") == 1, err


def test_command_line_runs_as_a_module():
    result = subprocess.run([sys.executable, "-m", "crtrig", "compare", "--quick", "--peers", "numpy",
                             "--ops", "hann,sin", "--dtypes", "float32"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    found = tables(result.stdout)
    assert [row["float32"] for row in found["Windows"] if row["peer"] == "crtrig"] == ["0 / 0 %"]
    assert [row["peer"] for row in found["sin and cos"]] == ["crtrig", "numpy"]


def test_the_judge_sees_a_single_ulp():
    """A peer that is crtrig with one element per window moved by one ULP scores
    1 ULP and exactly that share; a NaN in place of a number scores inf."""
    def nudged(kind, periodic, dtype):
        def window(n):
            w = compare.crtrig_peer().window(kind, periodic, dtype)(n).copy()
            w[n // 3] = np.nextafter(w[n // 3], w.dtype.type(np.inf)) if dtype != "bfloat16" else \
                (w[n // 3 : n // 3 + 1].view(np.uint16) + 1).view(ml_dtypes.bfloat16)[0]
            return w
        return window

    def nan_at_zero(func, dtype):
        def trig(x):
            y = getattr(crtrig, func)(x)
            y[0] = np.nan
            return y
        return trig

    peer = compare.Peer("nudged", "1", "onnx", "", nudged, nan_at_zero)
    notes = []
    scores = compare.score_windows([peer], compare.Oracle(), ["blackman"], ["float32", "bfloat16"], [10, 31],
                                   notes)
    assert notes == []
    for dtype in ("float32", "bfloat16"):
        assert scores[("nudged", "blackman", dtype)].cell() == f"1 / {4 / 82 * 100:.3g} %"
    sets = compare.trig_input_sets(["float16"], 100, 3)
    scores = compare.score_trig([peer], compare.Oracle(), ["cos"], sets, notes)
    assert scores[("nudged", "cos", 0)].cell() == "inf / 1 %"


# ---------------------------------------------------------------------------
# The exp, I0 and cosine windows (compare.SCIPY_WINDOWS): the judge against mpmath
# ---------------------------------------------------------------------------

EXP_AND_KAISER = [entry for entry in compare.SCIPY_WINDOWS if entry.exact in ("exp", "kaiser")]


def exact_parameters(entry, size):
    return [None if v is None else Fraction(repr(v)) if isinstance(v, float) else Fraction(v)
            for v in entry.crtrig_values(size)]


@pytest.mark.parametrize("entry", EXP_AND_KAISER, ids=lambda e: e.label)
def test_the_judge_of_the_exp_and_kaiser_windows_is_mpmath_s(entry):
    """compare's exact windows (scipy's formulas through integer enclosures; the narrower
    dtypes from the float64 values where their neighbours decide) equal the mpmath
    oracle's, bit for bit, in every dtype, periodic and symmetric."""
    cache = {}
    for size in (2, 9, 16):
        for periodic in (True, False):
            got = compare.scipy_window(entry, size, periodic, compare.DTYPES, cache)
            params = exact_parameters(entry, size)
            want = (oracle.kaiser_window(size, not periodic, params[0]) if entry.exact == "kaiser" else
                    oracle.exp_window(entry.name, size, not periodic, params))
            for dtype in compare.DTYPES:
                unsigned = compare._UNSIGNED[got[dtype].itemsize]
                assert got[dtype].dtype == want[dtype].dtype, dtype
                assert np.array_equal(got[dtype].view(unsigned), want[dtype].view(unsigned)), (size, periodic, dtype)


def test_the_narrower_dtypes_fall_back_where_the_double_does_not_decide(monkeypatch):
    """A double that is a float16 rounding boundary (1 + 2^-11) does not decide the
    float16 value; its neighbours, rounding apart, say so."""
    assert compare._narrow_bits(1 + 2**-11, "float16") is None
    assert compare._narrow_bits(1 + 2**-10, "float16") == reference.float_to_bits(1 + 2**-10, "float16")
    assert compare._narrow_bits(0.0, "bfloat16") == 0


@pytest.mark.parametrize("label", ["nuttall", "flattop", "general_cosine(flattop's a)"])
def test_the_judge_of_the_cosine_sum_windows_is_mpmath_s(label):
    entry = compare.SCIPY_WINDOWS_BY_LABEL[label]
    coefficients = [Fraction(c.strip()) for c in entry.exact[len("cosine sum "):].split(",")]
    size = 9
    for periodic in (True, False):
        got = compare.scipy_window(entry, size, periodic, ["float32", "float64"], {})
        for dtype in ("float32", "float64"):
            want = [oracle.cosine_sum_value(coefficients, n, size if periodic else size - 1, dtype)
                    for n in range(size)]
            assert got[dtype].tolist() == want, (periodic, dtype)


def test_a_param_window_one_ulp_off_is_seen():
    def nudged(kind, periodic, dtype):
        def window(n):
            w = compare.crtrig_peer().window(kind, periodic, dtype)(n).copy()
            w[n // 3] = np.nextafter(w[n // 3], w.dtype.type(np.inf))
            return w
        return window

    peer = compare.Peer("nudged", "1", "onnx", "", nudged, None)
    notes = []
    kinds = ["kaiser(beta=8.6)", "gaussian(std=N/6)"]
    scores = compare.score_windows([peer, compare.crtrig_peer()], compare.Oracle(), kinds, ["float32", "float64"],
                                   [10, 31], notes)
    assert notes == []
    for kind in kinds:
        for dtype in ("float32", "float64"):
            assert scores[("nudged", kind, dtype)].cell() == f"1 / {4 / 82 * 100:.3g} %"
            assert scores[("crtrig", kind, dtype)].cell() == "0 / 0 %"


def test_a_window_crtrig_refuses_is_n_a_with_the_reason(monkeypatch):
    def refused(*args, **kwargs):
        raise NotImplementedError("crtrig.windows.kaiser() is not implemented: (test)")

    monkeypatch.setattr(crtrig.windows, "kaiser", refused)
    notes = []
    scores = compare.score_windows([compare.crtrig_peer()], compare.Oracle(), ["kaiser(beta=14)"], ["float64"],
                                   [10], notes)
    assert scores[("crtrig", "kaiser(beta=14)", "float64")].cell() == "n/a"
    assert notes == ["crtrig, kaiser(beta=14) window float64: NotImplementedError: crtrig.windows.kaiser() "
                     "is not implemented: (test)"]
