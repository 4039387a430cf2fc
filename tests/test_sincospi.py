"""crtrig.sinpi and crtrig.cospi: correctly rounded sin(pi x) and cos(pi x) against
the MPFR oracle (tests/oracle.py: exact rational reduction, then MPFR sin/cos with
an error bound, Ziv), never against crtrig's own code.

float16 and bfloat16: every input.  float32: a sample (the exhaustive run is
`crtrig verify sinpi|cospi --dtype float32 --exhaustive`).  float64: the
published worst cases (tests/data/{sinpi,cospi}-binary64.wc, expanded as their
headers say), both signs; random inputs over every exponent; neighbours of
integers and half-integers; special values (IEEE 754-2019 9.2.1) bit for bit.
Every SIMD target, each stage forced, thread counts, rounding modes, overlap.
"""
import functools
import math
import pickle
import warnings

import ml_dtypes
import numpy as np
import pytest

import crtrig
from crtrig import _core

import float64_inputs
import oracle

FUNCS = ("sinpi", "cospi")
UFUNCS = {"sinpi": crtrig.sinpi, "cospi": crtrig.cospi}
CODE = {"sinpi": 2, "cospi": 3}
TARGETS = [i for i, name in enumerate(_core._supported_target_slots()) if name is not None]
TARGET_IDS = [_core._supported_target_slots()[i] for i in TARGETS]
BITS = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def as64(x):
    """x as float64 (exact); signalling NaN patterns convert quietly."""
    with np.errstate(invalid="ignore"):
        return np.asarray(x).astype(np.float64)


def same_bits(got, want):
    """Indices where got and want differ (bits; any NaN matches any NaN)."""
    got = np.ascontiguousarray(got).reshape(-1)
    want = np.ascontiguousarray(want).reshape(-1)
    u = BITS[got.dtype.itemsize]
    with np.errstate(invalid="ignore"):
        nan = np.isnan(want.astype(np.float64))
        got_nan = np.isnan(got.astype(np.float64))
    return np.nonzero(((got.view(u) != want.view(u)) & ~nan) | (nan != got_nan))[0]


def assert_oracle(func, x, got, want, where=""):
    bad = same_bits(got, want)
    x = np.asarray(x).reshape(-1)
    assert bad.size == 0, (f"{func} {where}: {bad.size} of {x.size} differ from MPFR, e.g. " + ", ".join(
        f"x={float(x[i]).hex()} got {float(np.asarray(got).reshape(-1)[i]).hex()} "
        f"want {float(np.asarray(want).reshape(-1)[i]).hex()}" for i in bad[:5]))


# ---------------------------------------------------------------------------
# Input sets
# ---------------------------------------------------------------------------

def all_patterns(dtype):
    return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(dtype)


@functools.lru_cache(maxsize=None)
def worst_cases(func):
    """The file's inputs, expanded as its header says, both signs (read-only).
    sinpi: set (b) (the binade [2^-1022, 2^-1021)) holds for every binade up to
    [2^-54, 2^-53) by powers of 2 (1 <= e <= 968): here all of set (b) times 2^e for
    e in {1, 2, 3, 100, 500, 900, 966, 967, 968} and each input of set (b) at one
    more exponent drawn at random (so every e is reachable over runs of the seed;
    `crtrig verify sinpi --worst-cases` runs the rest).  cospi: the file lists
    them all (tools/expand_worst_cases.py writes the whole sinpi list, for verify)."""
    path = float64_inputs.DATA / f"{func}-binary64.wc"
    section, values, set_b = None, [], []
    with open(path, encoding="ascii") as handle:
        for line in handle:
            if line.startswith("#"):
                if "(b) worst cases" in line:
                    section = "b"
                elif "(c) worst cases" in line or "special values" in line:
                    section = "other"
                continue
            text = line.strip()
            if not text or "nan" in text.lower() or "inf" in text.lower():
                continue
            v = abs(float.fromhex(text))
            values.append(v)
            if func == "sinpi" and section == "b":
                set_b.append(v)
    if set_b:
        rng = np.random.default_rng(18)
        for e in (1, 2, 3, 100, 500, 900, 966, 967, 968):
            values.extend(math.ldexp(v, e) for v in set_b)
        values.extend(math.ldexp(v, int(e)) for v, e in zip(set_b, rng.integers(1, 969, len(set_b))))
    magnitudes = np.unique(np.array(values, dtype=np.float64))
    x = np.concatenate([magnitudes, -magnitudes])
    x.flags.writeable = False
    return x


@functools.lru_cache(maxsize=None)
def float64_sample():
    """Random inputs over every exponent (subnormal to 2^1023), neighbours of integers,
    half-integers and quarter-integers, and special values; both signs."""
    rng = np.random.default_rng(1818)
    mantissas = rng.integers(0, 1 << 52, size=(2098, 2), dtype=np.uint64)
    exponents = np.arange(2098, dtype=np.uint64)[:, None]  # biased 0 .. 2097 -> clip to 0 .. 2046
    bits = (np.minimum(exponents, 2046) << np.uint64(52)) | mantissas
    random = bits.reshape(-1).view(np.float64)
    near = []
    for base in [0.25 * k for k in range(1, 24)] + [1e6, 2.0 ** 30 + 0.5, 2.0 ** 51 + 0.5, 2.0 ** 52 - 0.5]:
        v = base
        for _ in range(3):
            v = math.nextafter(v, math.inf)
            near.append(v)
        v = base
        for _ in range(3):
            v = math.nextafter(v, 0.0)
            near.append(v)
    specials = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 2.0 ** 51 + 0.5, 2.0 ** 52, 2.0 ** 52 + 1, 2.0 ** 53,
                2.0 ** 53 + 2, 1e300, float64_inputs.LARGEST, 5e-324, 2.0 ** -1022, 2.0 ** -60,
                math.nextafter(2.0 ** -60, 0.0), 2.0 ** -29, math.nextafter(2.0 ** -29, 0.0),
                2.0 ** -969, math.nextafter(2.0 ** -969, 0.0), 2.0 ** -822 / math.pi]
    magnitudes = np.abs(np.concatenate([random, near, specials]))
    x = np.concatenate([magnitudes, -magnitudes])
    x.flags.writeable = False
    return x


@functools.lru_cache(maxsize=None)
def float32_sample():
    rng = np.random.default_rng(32)
    random = rng.integers(0, 1 << 32, size=12000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    small = rng.uniform(-4, 4, 8000).astype(np.float32)
    near = np.array([np.nextafter(np.float32(k / 4), np.float32(np.inf) * s)
                     for k in range(1, 64) for s in (1, -1)], dtype=np.float32)
    x = np.concatenate([random, small, near, -near])
    x.flags.writeable = False
    return x


@functools.lru_cache(maxsize=None)
def want(func, kind):
    x = {"float16": lambda: all_patterns(np.float16),
         "bfloat16": lambda: all_patterns(ml_dtypes.bfloat16),
         "float32": float32_sample, "float64 sample": float64_sample,
         "float64 worst": lambda: worst_cases(func)}[kind]()
    return x, oracle.trigpi_memoized(func, x)


KINDS = ("float16", "bfloat16", "float32", "float64 sample", "float64 worst")


# ---------------------------------------------------------------------------
# Accuracy: every set, every target, each stage forced
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("func", FUNCS)
def test_ufunc_matches_mpfr_and_raises_nothing(func, kind):
    x, expected = want(func, kind)
    finite = np.isfinite(as64(x))
    with np.errstate(all="raise"):
        got = UFUNCS[func](x[finite])
    assert got.dtype == x.dtype
    assert_oracle(func, x[finite], got, expected[finite], kind)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_oracle(func, x, UFUNCS[func](x), expected, kind + " with inf and NaN")


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("func", FUNCS)
def test_every_target_matches_mpfr(func, kind, target):
    x, expected = want(func, kind)
    got = _core.trig_with_target(target, CODE[func], np.ascontiguousarray(x))
    assert_oracle(func, x, got, expected, f"{kind}, target {TARGET_IDS[TARGETS.index(target)]}")


def clean_chunk_inputs(dtype):
    """Chunks of 256 (the first pass's) whose lanes are all "ordinary", so that the
    first pass's clean loops take them: exact integers, half- and quarter-integers
    and their neighbours (the zeros, the +-1 and the poles' neighbours of the special
    values), the clean range's lower ends (float32 sinpi 2^-125, cospi 2^-29; float64
    2^-60) and upper ends (2^23, 2^51) and their neighbours, and random values; then
    the same chunks with one non-clean lane each, which sends them through the
    general loops.  Both must give the oracle's bits on every target."""
    finfo_tiny = {np.float32: [2.0 ** -125, 2.0 ** -29], np.float64: [2.0 ** -60]}[dtype]
    top = {np.float32: 2.0 ** 23, np.float64: 2.0 ** 51}[dtype]
    values = []
    for k in range(1, 65):
        values.append(k / 4)
    for v in [k / 4 for k in range(1, 65)] + finfo_tiny + [top, 2.0 ** 20 + 0.5, 1e5]:
        v = dtype(v)
        values += [v, np.nextafter(v, dtype(0)), np.nextafter(v, dtype(np.inf))]
    rng = np.random.default_rng(256)
    base = np.array(values, dtype=dtype)
    base = base[(np.abs(base) >= min(finfo_tiny)) & (np.abs(base) < top)]
    chunk = np.concatenate([base, rng.uniform(-8, 8, 512 - base.size).astype(dtype)])
    chunk = np.concatenate([chunk, -chunk])
    rng.shuffle(chunk)
    dirty = chunk.copy()
    dirty[::256] = dtype(0.0)  # one zero per chunk: not ordinary
    return chunk, dirty


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("func", FUNCS)
def test_clean_and_general_chunks_match_mpfr(func, dtype, target):
    for x in clean_chunk_inputs(dtype):
        x = np.ascontiguousarray(x)
        got = _core.trig_with_target(target, CODE[func], x)
        expected = oracle.trigpi(func, x)
        assert_oracle(func, x, got, expected, f"{dtype.__name__} chunks, target {target}")


@pytest.mark.parametrize("stage", [1, 2])
@pytest.mark.parametrize("kind", ["float16", "float32", "float64 sample", "float64 worst"])
@pytest.mark.parametrize("func", FUNCS)
def test_each_stage_forced(func, kind, stage):
    """Each later stage on its own is correct (double-double from 1, multi-precision
    from 2): a subset for the multi-precision stage, which is slow."""
    x, expected = want(func, kind)
    step = {1: 1, 2: 7 if kind != "float64 worst" else 23}[stage]
    xs, ws = np.ascontiguousarray(x[::step]), expected[::step]
    got, counts = _core.trig_strided(0, CODE[func], xs, stage)
    assert_oracle(func, xs, got, ws, f"{kind} from stage {stage}")
    assert counts["double"] == 0 and (stage == 1 or counts["double-double"] == 0)


@pytest.mark.parametrize("bits", [64, 200, 1000])
def test_multi_precision_from_start_precisions_off_whole_limbs(bits):
    """multi_start_bits that are no multiple of 32 (the workspace rounds them up to
    whole limbs; T = |t| 2^F must use that F)."""
    x = np.array([2.0 ** -40, 0.3, -1.2, 1e-300, 5e-324, 12345.678])
    for func in FUNCS:
        got, _ = _core.trig_strided(0, CODE[func], x, 2, bits)
        assert_oracle(func, x, got, oracle.trigpi(func, x), f"from {bits} bits")


def test_first_pass_decides_almost_everything():
    for func in FUNCS:
        x = np.random.default_rng(5).uniform(-1e5, 1e5, 20000)
        _, counts = _core.trig_strided(0, CODE[func], x)
        assert counts["double"] + counts["exact"] >= 19900, counts
        x32 = x.astype(np.float32)
        _, counts = _core.trig_strided(0, CODE[func], x32)
        assert counts["double"] + counts["exact"] >= 19900, counts


@pytest.mark.parametrize("target", [i for i, name in enumerate(_core._supported_target_slots()) if name],
                         ids=[name for name in _core._supported_target_slots() if name])
def test_float64_pass_refines_what_its_quick_evaluation_leaves(target):
    """The float64 pass rounds every lane with the quick evaluation and evaluates the
    few it leaves (about 4 in 10^4) again with the precise one, inside the pass: on
    2 10^5 random inputs it leaves at most 5 undecided (without the second evaluation
    about 80), and every decided lane is the oracle's."""
    x = np.random.default_rng(8).uniform(-1e5, 1e5, 200000)
    for func in FUNCS:
        out, undecided = _core.first_pass_with_target(target, CODE[func], x)
        assert np.count_nonzero(undecided) <= 5, np.count_nonzero(undecided)
        sample = np.random.default_rng(9).choice(x.size, 2000, replace=False)
        sample = sample[undecided[sample] == 0]
        assert_oracle(func, x[sample], out[sample], oracle.trigpi(func, x[sample]), "random")


# ---------------------------------------------------------------------------
# IEEE 754-2019 9.2.1 special values, bit for bit, in every format
# ---------------------------------------------------------------------------

DTYPES = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_special_values(dtype):
    ints = np.array([0, 1, 2, 3, 4, 7, 100, 255], dtype=np.float64)
    halves = ints + 0.5
    x = np.concatenate([ints, -ints]).astype(dtype)
    s = crtrig.sinpi(x).astype(np.float64)
    assert np.all(s == 0)
    assert np.array_equal(np.signbit(s), np.signbit(x.astype(np.float64)))  # sinpi(+-n) = +-0
    c = crtrig.cospi(x).astype(np.float64)
    assert np.array_equal(c, np.where(np.abs(x.astype(np.float64)) % 2 == 0, 1.0, -1.0))
    h = np.concatenate([halves, -halves])
    h = h[h.astype(dtype).astype(np.float64) == h].astype(dtype)  # those the format holds
    c = crtrig.cospi(h).astype(np.float64)
    assert np.all(c == 0) and not np.any(np.signbit(c))  # cospi(n + 1/2) = +0
    s = crtrig.sinpi(h).astype(np.float64)
    assert np.array_equal(s, np.where((np.abs(h.astype(np.float64)) - 0.5) % 2 == 0, 1.0, -1.0)
                          * np.sign(h.astype(np.float64)))
    largest = ml_dtypes.finfo(dtype).max  # ml_dtypes' finfo: numpy 1.23's refuses bfloat16
    big = np.array([largest, -largest], dtype=dtype)
    assert crtrig.sinpi(big).astype(np.float64).tolist() == [0.0, -0.0]
    assert np.signbit(crtrig.sinpi(big).astype(np.float64)).tolist() == [False, True]
    assert crtrig.cospi(big).astype(np.float64).tolist() == [1.0, 1.0]
    with np.errstate(invalid="raise"):
        for f in (crtrig.sinpi, crtrig.cospi):
            with pytest.raises(FloatingPointError, match="invalid value"):
                f(np.array([1.0, np.inf], dtype=dtype))
            with pytest.raises(FloatingPointError):
                f(np.array([-np.inf], dtype=dtype))
            assert np.isnan(f(np.array([np.nan], dtype=dtype)).astype(np.float64)).all()


def test_float64_odd_integers_above_2_52_and_np_sin_is_wrong():
    x = np.array([2.0 ** 52 + 1, -(2.0 ** 52 + 1), 2.0 ** 52 + 2, 1e6, 2.0 ** 51 + 0.5])
    assert crtrig.cospi(x).tolist() == [-1.0, -1.0, 1.0, 1.0, 0.0]
    assert crtrig.sinpi(x).tolist() == [0.0, -0.0, 0.0, 0.0, 1.0]
    assert np.sin(np.pi * 1e6) != 0.0  # the expression users write today


# ---------------------------------------------------------------------------
# Contracts: threads, floating-point environment, overlap, pickle, types
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("threads", [1, 2, 3])
def test_thread_counts_give_the_same_bits(threads):
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(-1e3, 1e3, 150000), rng.uniform(-1, 1, 50000)])
    before = crtrig.get_num_threads()
    try:
        crtrig.set_num_threads(1)
        want1 = {f: UFUNCS[f](x) for f in FUNCS}
        crtrig.set_num_threads(threads)
        for f in FUNCS:
            assert same_bits(UFUNCS[f](x), want1[f]).size == 0
            assert same_bits(UFUNCS[f](x.astype(np.float32)), UFUNCS[f](x.astype(np.float32)[::-1])[::-1]).size == 0
    finally:
        crtrig.set_num_threads(before)
    sub = x[::997]
    for f in FUNCS:
        assert_oracle(f, sub, want1[f][::997], oracle.trigpi_memoized(f, sub), "threads subset")


def test_rounding_mode_ftz_daz_do_not_matter():
    for func in FUNCS:
        for kind in ("float32", "float64 sample"):
            x, expected = want(func, kind)
            x = np.ascontiguousarray(x[::5])
            expected = expected[::5]
            finite = np.isfinite(as64(x))
            for mode in _core.ROUNDING_MODES:
                for ftz, daz in ((False, False), (True, True)):
                    got, before, after = _core.trig_under_fpenv(-1, CODE[func], x[finite], mode, ftz, daz)
                    assert_oracle(func, x[finite], got, expected[finite], f"{kind} under {mode} {ftz} {daz}")
                    assert (after["rounding"], after["ftz"], after["daz"]) == (mode, ftz, daz)
                    assert after["flags"] == before["flags"] == set()
            _, _, after = _core.trig_under_fpenv(-1, CODE[func], np.array([1.0, np.inf]), "nearest")
            assert after["flags"] == {"invalid"}


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("func", FUNCS)
def test_overlap_in_place_and_shifted(func, dtype):
    f = UFUNCS[func]
    x = np.random.default_rng(3).uniform(-8, 8, 3000).astype(dtype)
    expected = f(x.copy())
    y = x.copy()
    f(y, out=y)
    assert same_bits(y, expected).size == 0
    buf = np.concatenate([x, np.zeros(5, dtype)])
    f(buf[:3000], out=buf[5:3005])  # the output leads the input: numpy copies
    assert same_bits(buf[5:3005], expected).size == 0
    buf = np.concatenate([np.zeros(5, dtype), x])
    f(buf[5:], out=buf[:3000])  # the output lags the input
    assert same_bits(buf[:3000], expected).size == 0
    assert same_bits(f(x[::-3]), expected[::-3]).size == 0


def test_pickle_names_types_and_scalars():
    for name, f in UFUNCS.items():
        assert pickle.loads(pickle.dumps(f)) is f
        assert f.__name__ == "crtrig_" + name and getattr(crtrig, name) is f
        assert f.nin == 1 and f.nout == 1
        assert isinstance(f(0.25), np.float64) and f(np.float32(0.25)).dtype == np.float32
        assert f(np.int8(1)).dtype == np.float16 and f(np.int32(1)).dtype == np.float64
        with pytest.raises(TypeError, match=f"crtrig.{name} accepts float16"):
            f(np.complex128(1))
    assert float(crtrig.sinpi(np.float32(1 / 6))) == float(oracle.trigpi_value("sinpi", np.float32(1 / 6), "float32"))


# ---------------------------------------------------------------------------
# crtrig.reference.trigpi_bits (the exact pure-Python reference) and `crtrig verify`
# ---------------------------------------------------------------------------

def test_reference_trigpi_bits_matches_mpfr():
    """The reference that `crtrig verify` escalates to, against the MPFR oracle."""
    from crtrig import reference
    cases = [("float16", all_patterns(np.float16)[::97]), ("bfloat16", all_patterns(ml_dtypes.bfloat16)[::89]),
             ("float32", float32_sample()[::41]), ("float64", float64_sample()[::23])]
    for func in FUNCS:
        for fmt, x in cases:
            expected = oracle.trigpi_memoized(func, x)
            u = BITS[x.dtype.itemsize]
            got = np.array([reference.trigpi_bits(func, v, fmt) for v in as64(x).tolist()], dtype=np.uint64)
            ok = np.isnan(as64(expected)) | (got == expected.view(u).astype(np.uint64))
            assert ok.all(), (func, fmt, x[~ok][:3])
    assert reference.trigpi_bits("cospi", -1.5, "float64") == 0  # +0
    assert reference.trigpi_bits("sinpi", -4.0, "float16") == 0x8000  # -0
    with pytest.raises(ValueError):
        reference.trigpi_bits("tanpi", 1.0, "float32")


def _verify_oracle_reason():
    try:
        from crtrig import _verify
    except ImportError:
        return "crtrig._verify is not built"
    return _verify.oracle_unavailable_reason()


@pytest.mark.skipif(_verify_oracle_reason() is not None, reason="no long double oracle here")
@pytest.mark.parametrize("func", FUNCS)
def test_verify_command_passes_and_can_fail(func, capsys):
    from cli_helpers import cli
    status, out, err = cli(capsys, "verify", func, "--dtype", "float32", "--sample", "30000", "--jobs", "1",
                           "--target", "all")
    assert status == 0, out + err
    assert "exact reduction x mod 2, then" in out
    for name in TARGET_IDS:
        assert f"{func} float32 target {name}: 30000 inputs, 0 wrong" in out
    status, out, err = cli(capsys, "verify", func, "--dtype", "float32", "--sample", "1000", "--jobs", "1",
                           "--corrupt-for-test", "0x3e800000")  # 0.25
    assert status == 1 and "wrong: 1" in out, out + err
    status, out, err = cli(capsys, "verify", func, "--dtype", "float16", "--jobs", "1")
    assert status == 0 and f"{func} float16 target" in out and "0 wrong" in out, out + err


def test_dask_arrays():
    da = pytest.importorskip("dask.array")
    x = np.random.default_rng(11).uniform(-10, 10, 10000)
    for f in UFUNCS.values():
        lazy = f(da.from_array(x, chunks=1000))
        assert isinstance(lazy, da.Array)
        assert same_bits(lazy.compute(), f(x)).size == 0


@pytest.mark.parametrize("target", TARGETS, ids=TARGET_IDS)
def test_nan_results_are_quiet_and_flags_are_clean(target):
    """NaN inputs (quiet and signalling, any payload) give quiet NaNs and raise
    nothing; +-inf gives the quiet NaN and "invalid"; finite inputs raise nothing
    (the flags after one call of the C core's entry point)."""
    nan64 = np.array([0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0xFFF4000000000000],
                     dtype=np.uint64).view(np.float64)
    nan32 = np.array([0x7FC00000, 0xFF800001, 0x7F800001, 0x7FA00000], dtype=np.uint32).view(np.float32)
    for func in FUNCS:
        for x, quiet in ((nan64, np.uint64(1 << 51)), (nan32, np.uint32(1 << 22))):
            got, _, after = _core.trig_under_fpenv(target, CODE[func], x, "nearest")
            assert np.isnan(got).all() and np.all(got.view(quiet.dtype) & quiet) and after["flags"] == set()
            got, _, after = _core.trig_under_fpenv(target, CODE[func], np.array([1, np.inf, -np.inf], x.dtype),
                                                   "nearest")
            assert after["flags"] == {"invalid"} and np.isnan(got[1:]).all()
        finite = np.ascontiguousarray(float64_sample()[np.isfinite(float64_sample())][::3])
        _, _, after = _core.trig_under_fpenv(target, CODE[func], finite, "nearest")
        assert after["flags"] == set()
