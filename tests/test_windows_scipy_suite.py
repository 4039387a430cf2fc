"""scipy's own window tests (scipy/signal/tests/test_windows.py of the installed
scipy) run against crtrig.windows: tests/scipy_suite/crtrig_windows_patch.py puts
crtrig.windows' functions in place of scipy.signal.windows' before the module is
imported.  Every test passes except those of EXPECTED_FAILURES, each for the reason
given there (README, "scipy.signal.windows", lists them)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

scipy = pytest.importorskip("scipy")
if tuple(int(part) for part in scipy.__version__.split(".")[:2]) < (1, 17):
    # The reference is scipy 1.17's window tests; an older scipy (the floors venv of
    # .ci/run) has other tests and private helpers.
    pytest.skip(f"scipy {scipy.__version__}: its window tests are not 1.17's", allow_module_level=True)

HERE = Path(__file__).resolve().parent

#: Windows crtrig does not compute (NotImplementedError; chebwin and dpss permanently).
NOT_IMPLEMENTED = ("chebwin", "dpss")

#: Tests that call a window of NOT_IMPLEMENTED (by name in the test id, or, for these
#: get_window tests, through a tuple or a float): they fail with NotImplementedError.
_GET_WINDOW_NOT_IMPLEMENTED = ("test_cheb_odd", "test_cheb_even", "test_dpss")
_CLASS_OF = {"chebwin": "ChebWin", "dpss": "DPSS"}

#: Tests that fail for a deliberate difference (README), with its message.
_DELIBERATE = {
    # kaiser_bessel_derived(0.5, beta): scipy returns [], crtrig's M must be an integer.
    "TestKaiserBesselDerived::test_basic[numpy]": "ValueError: kaiser_bessel_derived(): M must be",
}


def _expected(test_id):
    """Why test_id may fail, or None: it must pass."""
    if test_id in _DELIBERATE:
        return _DELIBERATE[test_id]
    for name, cls in _CLASS_OF.items():
        if test_id.startswith(f"Test{cls}::"):
            return f"NotImplementedError: {name}"
    match = re.match(r"test_(?:windowfunc_basics|not_needs_params)\[numpy-([a-z_]+?)\d?\]$", test_id)
    if match:
        name = {"poisson": "exponential", "tuk": "tukey", "sinc": "lanczos"}.get(match.group(1), match.group(1))
        return "NotImplementedError" if name in NOT_IMPLEMENTED else None
    if test_id.startswith("TestGetWindow::") and test_id.split("::")[1].split("[")[0] in _GET_WINDOW_NOT_IMPLEMENTED:
        return "NotImplementedError"
    return None


def test_scipys_window_tests_pass_on_crtrig_windows(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE / "scipy_suite"), os.environ.get("PYTHONPATH", "")]))
    env.pop("SCIPY_ARRAY_API", None)
    env["COLUMNS"] = "2000"  # untruncated short summaries
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                          "crtrig_windows_patch", "--pyargs", "scipy.signal.tests.test_windows", "-rA",
                          "--tb=line", "-W", "ignore::pytest.PytestUnknownMarkWarning"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    results = {}
    for line in run.stdout.splitlines():
        match = re.match(r"^(PASSED|FAILED|ERROR|SKIPPED) \S*?::(\S+)(?: - (.*))?$", line)
        if match:
            results[match.group(2)] = (match.group(1), match.group(3) or "")
    assert len(results) >= 90, run.stdout[-3000:] + run.stderr[-3000:]
    unexpected = []
    for test_id, (outcome, message) in sorted(results.items()):
        why = _expected(test_id)
        if why is None and outcome != "PASSED":
            unexpected.append(f"{test_id}: {outcome} {message}")
        elif why is not None and outcome == "PASSED":
            unexpected.append(f"{test_id}: passed, expected to fail ({why})")
        elif why is not None and (why if test_id in _DELIBERATE else "NotImplementedError") not in message:
            unexpected.append(f"{test_id}: failed otherwise than expected: {message}")
    assert not unexpected, "\n".join(unexpected)
    passed = [t for t, (o, _) in results.items() if o == "PASSED"]
    for name in ("TestBartlett::test_basic[numpy]", "TestBoxcar::test_basic[numpy]",
                 "TestParzen::test_basic[numpy]", "TestTriang::test_basic[numpy]",
                 "TestHann::test_basic[numpy]", "TestGetWindow::test_invalid_inputs[numpy]",
                 "TestGetWindow::test_invalid_parameter_NX[numpy--1]", "TestTukey::test_basic[numpy]",
                 "TestTukey::test_extremes[numpy]", "test_windowfunc_basics[numpy-tukey]",
                 "TestGeneralCosine::test_basic[numpy]", "TestNuttall::test_basic[numpy]",
                 "TestBlackmanHarris::test_basic[numpy]", "TestFlatTop::test_basic[numpy]",
                 "TestGetWindow::test_general_cosine[numpy]", "test_windowfunc_basics[numpy-flattop]",
                 "TestBartHann::test_basic[numpy]", "test_windowfunc_basics[numpy-cosine]",
                 "test_windowfunc_basics[numpy-barthann]", "TestBohman::test_basic[numpy]",
                 "TestLanczos::test_basic[numpy]", "TestLanczos::test_array_size[numpy]",
                 "TestGetWindow::test_lanczos[numpy]", "TestGetWindow::test_xp_default[numpy]",
                 "test_symmetric[numpy]", "test_windowfunc_basics[numpy-bohman]",
                 "test_windowfunc_basics[numpy-lanczos]", "test_not_needs_params[numpy-bohman]",
                 "test_not_needs_params[numpy-lanczos0]", "test_not_needs_params[numpy-lanczos1]",
                 "TestKaiserBesselDerived::test_exceptions[numpy]", "test_needs_params[numpy]",
                 "TestTaylor::test_normalized[numpy]", "TestTaylor::test_non_normalized[numpy]",
                 "TestTaylor::test_correctness[numpy]", "test_windowfunc_basics[numpy-taylor]"):
        assert name in passed, (name, sorted(passed))
