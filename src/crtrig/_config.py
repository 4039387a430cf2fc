"""What this crtrig is and where it runs: SIMD targets, threads, build, platform.

``simd_targets()``, ``simd_target()`` and ``show_config()`` are public
(re-exported by ``crtrig``); ``cpu_model()`` and ``thread_count()`` serve
``show_config`` and ``python -m crtrig bench``.
"""

from __future__ import annotations

import os
import sys

from . import _core
from ._version import __version__


def simd_targets() -> tuple[str, ...]:
    """Names of the SIMD targets compiled into this build and supported by this
    CPU, from the baseline up: for example ``('baseline', 'avx2')``.  Every
    target gives the same (correctly rounded) bits; ``simd_target()`` is the
    one in use.

    Parameters
    ----------
    None

    Returns
    -------
    tuple of str
        Among ``'baseline'``, ``'avx2'`` and ``'avx512'`` (x86-64 builds with
        gcc or clang); ``('baseline',)`` elsewhere.

    Raises
    ------
    None
        It always returns.

    Examples
    --------
    >>> import crtrig
    >>> crtrig.simd_targets()[0]
    'baseline'
    >>> crtrig.simd_target() in crtrig.simd_targets()
    True
    """
    return tuple(name for name in _core._supported_target_slots() if name is not None)


def simd_target() -> str:
    """The SIMD target crtrig's kernels use: the best of ``simd_targets()``,
    chosen at import, or the one the environment variable CRTRIG_TARGET names.

    A first pass that fails its self-check at its first use computes with a
    lower target from then on (with a RuntimeWarning; ``show_config()`` lists
    the outcome of each).

    Parameters
    ----------
    None

    Returns
    -------
    str
        ``'baseline'``, ``'avx2'`` or ``'avx512'``.

    Raises
    ------
    None
        It always returns (an unknown or unsupported ``CRTRIG_TARGET`` makes
        ``import crtrig`` raise RuntimeError instead).

    Examples
    --------
    >>> import crtrig
    >>> crtrig.simd_target() in ("baseline", "avx2", "avx512")
    True
    """
    return _core.SIMD_TARGET


def thread_count() -> int | None:
    """Threads crtrig's kernels may use (``crtrig.get_num_threads()``), or None
    when this build has no thread pool (it then computes on the caller's thread)."""
    import crtrig

    get = getattr(crtrig, "get_num_threads", None)
    return None if get is None else int(get())


def cpu_model() -> str:
    """The CPU's model name, as the operating system reports it (or the machine type)."""
    import platform  # here, not at import: platform and subprocess cost import crtrig 6-8 ms
    import subprocess
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model", "Hardware") and value.strip():
                    return value.strip()
    except OSError:
        pass
    if sys.platform == "darwin":
        try:
            run = subprocess.run(["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True,
                                 text=True, timeout=5)
            if run.returncode == 0 and run.stdout.strip():
                return run.stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    return platform.processor() or platform.machine() or "unknown CPU"


def cpus_available() -> int:
    """CPUs this process may run on (its affinity where the OS has one)."""
    if hasattr(os, "sched_getaffinity"):
        try:
            return len(os.sched_getaffinity(0))
        except OSError:
            pass
    return os.cpu_count() or 1


def build_info() -> dict | None:
    """What setup.py recorded about this build (compiler, flags), or None if
    this copy was built some other way."""
    try:
        from ._build_info import BUILD_INFO
    except ImportError:
        return None
    return dict(BUILD_INFO)


def _debug_info_text(info: dict) -> str:
    """Whether the build kept debug info in the extensions, and why."""
    if "debug_info" not in info:
        return "unknown (built before crtrig recorded it)"
    if info["debug_info"] is None:
        if info.get("compiler_type") == "msvc":
            return "none (MSVC puts no debug info in the .pyd)"
        return "stripped (CRTRIG_DEBUG=1 or -g in CFLAGS at build time keeps it)"
    return f"kept ({info['debug_info']})"


def _environment(name: str) -> str:
    value = os.environ.get(name)
    return "unset" if value is None else repr(value)


def installed_version(distribution: str) -> str | None:
    """The version of an installed distribution, from its ``NAME-VERSION.dist-info``
    (or ``.egg-info``) directory on sys.path, without importing it (ml_dtypes
    takes about a second to import) nor importlib.metadata (tens of ms)."""
    prefix = distribution.replace("-", "_").lower() + "-"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            stem, dot, suffix = name.rpartition(".")
            if dot and suffix in ("dist-info", "egg-info") and stem.lower().startswith(prefix):
                return stem[len(prefix):].split("-")[0]
    return None


def ml_dtypes_version() -> str:
    """ml_dtypes' version, and whether it is imported (crtrig does not import it:
    its bfloat16 loops are registered when something else does)."""
    module = sys.modules.get("ml_dtypes")
    if module is not None:
        return f"{getattr(module, '__version__', '?')} (imported; bfloat16 loops registered)"
    version = installed_version("ml_dtypes")
    if version is None:
        return "not installed (no bfloat16)"
    return f"{version} (not imported yet; crtrig registers its bfloat16 loops when it is)"


def selfcheck_lines() -> list[str]:
    """show_config()'s lines on the self-check of the SIMD first passes (run now
    for the passes not used yet, so that the report is complete)."""
    report = _core.selfcheck_run_all()
    status = {entry["status"] for entry in report}
    if status == {"reference"}:
        return [f"  self-check: none needed (the active target, {simd_target()}, is the reference)"]
    if status == {"unavailable"}:
        return ["  self-check: unavailable in this build (no atomic operations): every first pass "
                "uses the baseline"]
    lines = ["  self-check of the first passes against the scalar path (once per process, at "
             "first use):"]
    for entry in report:
        name = f"{entry['function']} {entry['format']}"
        if entry["status"] != "checked":
            lines.append(f"    {name}: {entry['status']}")
            continue
        parts = []
        for tried in entry["tried"]:
            if tried["passed"]:
                parts.append(f"{tried['target']} passed")
            else:
                parts.append(f"{tried['target']} FAILED ({_core.mismatch_text(entry, tried)})")
        what = "phases" if entry["function"] == "window" else "inputs"
        used = "" if entry["target"] == entry["active"] else f"; uses {entry['target']}"
        lines.append(f"    {name}: {', '.join(parts)} on {entry['inputs']} stored {what}{used}")
    return lines


def config_lines() -> list[str]:
    """The lines ``show_config()`` prints."""
    import platform

    import numpy

    known = _core._known_simd_targets()
    lines = [f"crtrig {__version__}", f"  location: {os.path.dirname(os.path.abspath(__file__))}",
             "SIMD",
             f"  active target: {simd_target()} (CRTRIG_TARGET: {_environment('CRTRIG_TARGET')})",
             f"  supported here: {', '.join(simd_targets())}",
             f"  known targets: {', '.join(known)} (x86-64 builds with gcc or clang compile all "
             "three; other builds the baseline only)",
             *selfcheck_lines(),
             f"  floating-point environment switched by: {_core.FPENV_METHOD}"]
    threads = thread_count()
    if threads is None:
        lines.append("threads: 1 (this build has no thread pool: each call runs on the caller's thread)")
    else:
        chosen = _core.thread_config()
        how = chosen["chosen_by"] + (f": {chosen['detail']}" if chosen["detail"] else "")
        lines.append(f"threads: {threads} (crtrig.get_num_threads(), chosen by {how}; CRTRIG_NUM_THREADS: "
                     f"{_environment('CRTRIG_NUM_THREADS')}; OMP_NUM_THREADS: "
                     f"{_environment('OMP_NUM_THREADS')}; CPUs available: {cpus_available()})")
    info = build_info()
    lines.append("build")
    if info is None:
        lines.append("  unknown: no crtrig._build_info (this copy was not built by crtrig's setup.py)")
    else:
        compiler = " ".join(info.get("compiler", [])) or "?"
        version = info.get("compiler_version") or "version unknown"
        lines += [f"  compiler: {info.get('compiler_type', '?')}: {version}",
                  f"  command: {compiler}",
                  f"  crtrig flags: {' '.join(info.get('crtrig_flags', []))}",
                  f"  debug info: {_debug_info_text(info)}",
                  f"  built for: {info.get('system', '?')} {info.get('machine', '?')}, Python "
                  f"{info.get('python', '?')}, numpy {info.get('numpy', '?')}, Cython "
                  f"{info.get('cython', '?')}"]
    lines += ["runtime",
              f"  Python {platform.python_version()} ({platform.python_implementation()}) {sys.executable}",
              f"  numpy {numpy.__version__}, ml_dtypes {ml_dtypes_version()}",
              f"  platform: {platform.platform()}",
              f"  CPU: {cpu_model()}, {os.cpu_count()} logical CPUs, {cpus_available()} available"]
    return lines


def show_config(file=None) -> None:
    """Print crtrig's configuration, for bug reports: version, SIMD target and
    the supported targets, the outcome of the self-check of each SIMD first pass
    (the checks not run yet run now), thread count, the compiler and flags of
    the build, numpy and ml_dtypes versions, platform and CPU.  ``file``: where
    to print (default: sys.stdout).

    Parameters
    ----------
    file : file-like, optional
        A text stream with ``write``; default ``sys.stdout``.

    Returns
    -------
    None

    Raises
    ------
    OSError
        Writing to `file` failed.

    Examples
    --------
    >>> import io, crtrig
    >>> text = io.StringIO()
    >>> crtrig.show_config(file=text)
    >>> text.getvalue().startswith("crtrig " + crtrig.__version__)
    True
    >>> "active target: " + crtrig.simd_target() in text.getvalue()
    True
    """
    print("\n".join(config_lines()), file=sys.stdout if file is None else file)
