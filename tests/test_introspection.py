"""crtrig.simd_targets(), crtrig.simd_target() and crtrig.show_config().

The supported targets are checked against what the operating system says the
CPU has (/proc/cpuinfo on Linux), not against crtrig's own detection, and the
active one against CRTRIG_TARGET in a fresh interpreter."""
import io
import os
import platform
import subprocess
import sys

import ml_dtypes
import numpy as np
import crtrig
from crtrig import _config, _core

AVX512_PARTS = ("avx512f", "avx512dq", "avx512vl", "avx512bw")  # what the avx512 target needs


def x86_features_from_the_os():
    """The subset of {"avx2", "fma", "avx512f", "avx512dq", "avx512vl", "avx512bw"}
    the operating system reports for this CPU, asked without crtrig."""
    wanted = ("avx2", "fma") + AVX512_PARTS
    if sys.platform.startswith("linux"):
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split()) & set(wanted)
        return set()
    if sys.platform == "darwin":
        found = set()
        for name in wanted:
            key = {"avx2": "hw.optional.avx2_0", "fma": "hw.optional.fma"}.get(name, f"hw.optional.{name}")
            run = subprocess.run(["sysctl", "-n", key], capture_output=True, text=True, timeout=30)
            if run.returncode == 0 and run.stdout.strip() == "1":
                found.add(name)
        return found
    if os.name == "nt":  # IsProcessorFeaturePresent: 40 AVX2, 41 AVX-512F (Windows 10+)
        import ctypes
        present = ctypes.windll.kernel32.IsProcessorFeaturePresent
        # No feature number for FMA: every AVX2 CPU shipped so far has it.
        return ({"avx2", "fma"} if present(40) else set()) | (set(AVX512_PARTS) if present(41) else set())
    raise AssertionError(f"no way to ask {sys.platform} for the CPU's features")


def test_simd_targets_is_a_tuple_of_names_from_the_baseline_up():
    targets = crtrig.simd_targets()
    assert isinstance(targets, tuple) and all(isinstance(name, str) for name in targets)
    assert targets[0] == "baseline"
    known = _core._known_simd_targets()
    assert list(targets) == [name for name in known if name in targets]  # known order, no repeats
    assert targets == tuple(name for name in _core._supported_target_slots() if name is not None)


def test_simd_target_is_the_active_one_and_supported():
    assert crtrig.simd_target() == _core.SIMD_TARGET  # the wheel test-command's old spelling
    assert crtrig.simd_target() in crtrig.simd_targets()
    if "CRTRIG_TARGET" not in os.environ:
        assert crtrig.simd_target() == crtrig.simd_targets()[-1]  # the best one by default


def test_simd_targets_match_the_cpu_features_the_os_reports():
    expected = ["baseline"]
    info = _config.build_info()
    compiles_x86_targets = (platform.machine().lower() in ("x86_64", "amd64") and info is not None
                            and info["compiler_type"] != "msvc")  # gcc or clang on x86-64
    if compiles_x86_targets:
        features = x86_features_from_the_os()
        # The AVX2 and AVX-512 targets are compiled with FMA and need the CPU to report it.
        if {"avx2", "fma"} <= features:
            expected.append("avx2")
        if set(AVX512_PARTS) | {"fma"} <= features:
            expected.append("avx512")
    assert crtrig.simd_targets() == tuple(expected)


def test_the_private_slots_keep_their_own_name():
    """The per-index list with None holes is private, and no longer named like
    the public function that returns something else."""
    assert not hasattr(_core, "simd_targets")
    assert len(_core._supported_target_slots()) == len(_core._known_simd_targets())


def test_crtrig_target_changes_the_active_target_not_the_supported_ones():
    env = dict(os.environ, CRTRIG_TARGET="baseline")
    probe = "import crtrig; print(crtrig.simd_target()); print(','.join(crtrig.simd_targets()))"
    result = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    active, supported = result.stdout.split()
    assert active == "baseline"
    assert supported == ",".join(crtrig.simd_targets())


def config_text(**kwargs):
    out = io.StringIO()
    crtrig.show_config(file=out, **kwargs)
    return out.getvalue()


def test_show_config_names_versions_targets_build_and_platform():
    text = config_text()
    assert text.startswith(f"crtrig {crtrig.__version__}\n")
    assert f"active target: {crtrig.simd_target()} " in text
    assert f"supported here: {', '.join(crtrig.simd_targets())}\n" in text
    assert f"numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}" in text
    assert f"Python {platform.python_version()}" in text
    assert f"platform: {platform.platform()}" in text
    assert f"CPU: {_config.cpu_model()}" in text


def test_show_config_prints_to_stdout_by_default(capsys):
    crtrig.show_config()
    assert capsys.readouterr().out == config_text()


def test_show_config_reports_the_flags_setup_py_recorded():
    """setup.py writes crtrig/_build_info.py at each build (in-place, editable or
    wheel); show_config prints the compiler and the floating-point flags."""
    info = _config.build_info()
    assert info is not None, "crtrig/_build_info.py is missing: built without crtrig's setup.py?"
    fp_flag = "/fp:precise" if info["compiler_type"] == "msvc" else "-ffp-contract=off"
    assert fp_flag in info["crtrig_flags"]
    assert "-ffast-math" not in info["crtrig_flags"] and not any("-march" in f for f in info["crtrig_flags"])
    text = config_text()
    assert f"crtrig flags: {' '.join(info['crtrig_flags'])}\n" in text
    assert f"command: {' '.join(info['compiler'])}\n" in text
    assert info["machine"] == platform.machine() and info["system"] == platform.system()


def test_show_config_without_build_info(monkeypatch):
    monkeypatch.setitem(sys.modules, "crtrig._build_info", None)  # import raises ImportError
    assert _config.build_info() is None
    assert "unknown: no crtrig._build_info" in config_text()


def test_show_config_thread_count_when_the_pool_exists(monkeypatch):
    monkeypatch.setattr(crtrig, "get_num_threads", lambda: 3, raising=False)
    monkeypatch.setenv("CRTRIG_NUM_THREADS", "3")
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    text = config_text()
    assert "\nthreads: 3 (crtrig.get_num_threads(), chosen by " in text
    assert "; CRTRIG_NUM_THREADS: '3'; OMP_NUM_THREADS: '1'; " in text


def test_show_config_thread_count_without_a_pool(monkeypatch):
    monkeypatch.delattr(crtrig, "get_num_threads", raising=False)
    assert "\nthreads: 1 (this build has no thread pool" in config_text()


def test_public_names_are_exported():
    for name in ("simd_targets", "simd_target", "show_config"):
        assert name in crtrig.__all__ and callable(getattr(crtrig, name))
