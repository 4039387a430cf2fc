"""CRTRIG_TARGET, read once when crtrig is imported: names in any letter case,
empty means unset, and anything else is a RuntimeError at import that lists the
valid and the supported targets (never an encoding error)."""
import os
import subprocess
import sys

import pytest

from crtrig import _core

KNOWN = _core._known_simd_targets()
SUPPORTED = _core._supported_target_slots()
BEST = [name for name in SUPPORTED if name][-1]
PROBE = "import crtrig, crtrig._core as c; print(c.SIMD_TARGET)"


def import_with(value):
    """Import crtrig in a fresh interpreter with CRTRIG_TARGET set to value (str,
    or bytes as POSIX allows; None: unset)."""
    if hasattr(os, "environb"):  # POSIX: the environment is bytes, any encoding
        env = {k: v for k, v in os.environb.items() if k != b"CRTRIG_TARGET"}
        if value is not None:
            env[b"CRTRIG_TARGET"] = value if isinstance(value, bytes) else value.encode()
    else:  # Windows: the environment is text
        env = {k: v for k, v in os.environ.items() if k != "CRTRIG_TARGET"}
        if value is not None:
            env["CRTRIG_TARGET"] = value.decode("latin-1") if isinstance(value, bytes) else value
    return subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, timeout=120)


def test_names_are_known():
    assert KNOWN == ["baseline", "avx2", "avx512"]
    assert SUPPORTED[0] == "baseline" and len(SUPPORTED) == len(KNOWN)


@pytest.mark.parametrize("value,expected", [(None, BEST), ("", BEST), ("BASELINE", "baseline"),
                                            ("Baseline", "baseline"), (BEST.upper(), BEST)])
def test_unset_empty_and_any_letter_case(value, expected):
    result = import_with(value)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    assert result.stdout.decode().strip() == expected


@pytest.mark.parametrize("value", ["bogus", " avx2", "avx2 ", "sse2", "baseline\u00e9",
                                   b"\xff\xfeavx2", b"avx\xe92"])
def test_unknown_names_fail_at_import(value):
    result = import_with(value)
    stderr = result.stderr.decode(errors="replace")
    assert result.returncode != 0
    assert "RuntimeError: crtrig: CRTRIG_TARGET=" in stderr and "is not a SIMD target name" in stderr
    assert "valid targets: baseline, avx2, avx512" in stderr
    assert "supported here: " + ", ".join(name for name in SUPPORTED if name) in stderr
    assert "UnicodeEncodeError" not in stderr and "UnicodeDecodeError" not in stderr


def test_a_target_this_cpu_lacks_fails_at_import():
    """Through the same function the import uses (every target may be supported
    on this CPU), and end to end for each target this CPU lacks."""
    with pytest.raises(RuntimeError, match="CRTRIG_TARGET='AVX512' names a SIMD target this CPU or build lacks .*valid targets: baseline, avx2, avx512; "
                                           "supported here: baseline\\)$"):
        _core._requested_target(b"AVX512", KNOWN, ["baseline", None, None])
    assert _core._requested_target(b"AVX2", KNOWN, ["baseline", "avx2", None]) == "avx2"
    assert _core._requested_target("", KNOWN, ["baseline", None, None]) is None
    for name in KNOWN:
        if name not in SUPPORTED:
            result = import_with(name.upper())
            stderr = result.stderr.decode(errors="replace")
            assert result.returncode != 0 and "lacks" in stderr and "RuntimeError" in stderr
