"""How many threads crtrig's C core uses: ``crtrig.set_num_threads``,
``crtrig.get_num_threads`` and the environment variable ``CRTRIG_NUM_THREADS``.

Large calls (sin/cos loops and window fills of at least 65536 elements;
Hann, Hamming, Blackman and general Hamming fills of a 16- or 32-bit dtype from
262144, a quarter of the cost per element) are
split over a small pool of threads in the C core (src/core/threads.c).  The
count is process-wide, like OpenBLAS's and MKL's: one setting for every
thread of the process, safe to change from any thread at any time (a call in
progress keeps the count it started with).  Whatever the count, one call runs
on at most max(8, 2 * the CPUs available) threads (the pool's cap, counted in
C from the affinity mask when the pool is first needed); each worker has a
256 KiB stack, and lowering the count ends the workers above it.

At import the count is ``CRTRIG_NUM_THREADS`` when that is set, else
``OMP_NUM_THREADS`` (as numexpr and the BLAS libraries read it: dask's nanny
sets it to 1 in its workers; a list such as "4,2" gives its first entry, the
outermost level's), else the CPUs available to this process: the CPUs in its affinity mask
(``os.sched_getaffinity``, where it exists; else ``os.cpu_count()``), fewer
if a cgroup CPU quota says so (cgroup v2 ``cpu.max``, v1
``cpu.cfs_quota_us``/``cpu.cfs_period_us``, rounded up).  A value that is not
a whole number from 1 to 1024 ("abc", "", "0", "-1", "1e9") never makes the
import fail: it is passed over with a RuntimeWarning naming the variable and
the count used instead.

threadpoolctl (3.5 or later) sees and limits the pool: crtrig/_integrations.py
registers a controller for it when threadpoolctl is imported.
"""
from __future__ import annotations

import math
import operator
import os
import warnings

from . import _core

MAX_THREADS = _core.MAX_THREADS
ENVIRONMENT_VARIABLE = "CRTRIG_NUM_THREADS"
#: Read in this order; the first one set gives the count.
ENVIRONMENT_VARIABLES = (ENVIRONMENT_VARIABLE, "OMP_NUM_THREADS")
_ACCEPTED = f"a whole number from 1 to {MAX_THREADS}, in decimal digits"


def set_num_threads(n):
    """Use up to ``n`` threads (1 to 1024) for large calls, in this whole process.

    1 means no threads besides the caller's.  The setting is process-wide and
    may be changed from any thread at any time; results never depend on it.
    A call runs on at most max(8, 2 * the CPUs available) threads whatever
    ``n`` is; lowering ``n`` ends the pool's threads above it.
    A bool, float, str or other non-integer is a TypeError; 0, a negative
    number or one above 1024 is a ValueError.

    Parameters
    ----------
    n : int
        The most threads one call may use, the calling thread included: an
        int (or any object with ``__index__``) from 1 to 1024.  A call in
        progress keeps the count it started with.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `n` is a bool, a float, a str or another non-integer.
    ValueError
        `n` is 0, negative, or above 1024.

    See Also
    --------
    get_num_threads : the count in force.

    Examples
    --------
    >>> import crtrig
    >>> crtrig.set_num_threads(1)
    >>> crtrig.get_num_threads()
    1
    >>> crtrig.set_num_threads(0)
    Traceback (most recent call last):
    ValueError: crtrig.set_num_threads: n must be from 1 to 1024; got 0
    """
    if isinstance(n, bool) or type(n).__name__ == "bool_":  # bool and numpy.bool_ are not counts
        raise TypeError(f"crtrig.set_num_threads: n must be an int from 1 to {MAX_THREADS}; "
                        f"got {type(n).__name__}")
    try:
        count = operator.index(n)
    except TypeError:
        raise TypeError(f"crtrig.set_num_threads: n must be an int from 1 to {MAX_THREADS}; "
                        f"got {type(n).__name__}") from None
    if not 1 <= count <= MAX_THREADS:
        shown = count if abs(count) < 10 ** 20 else f"an integer of {count.bit_length()} bits"
        raise ValueError(f"crtrig.set_num_threads: n must be from 1 to {MAX_THREADS}; got {shown}")
    _core._set_num_threads(count, "set_num_threads")


def get_num_threads() -> int:
    """The most threads a large call uses (process-wide; 1: no threads).

    By default the CPUs available to the process, or ``CRTRIG_NUM_THREADS``,
    else ``OMP_NUM_THREADS``, read at import; ``set_num_threads`` changes it.

    Parameters
    ----------
    None

    Returns
    -------
    int
        From 1 to 1024.

    Raises
    ------
    None
        It always returns.

    Examples
    --------
    >>> import crtrig
    >>> 1 <= crtrig.get_num_threads() <= 1024
    True
    >>> crtrig.set_num_threads(2)
    >>> crtrig.get_num_threads()
    2
    """
    return _core.get_num_threads()


# ---------------------------------------------------------------------------
# The default: CPUs available to the process
# ---------------------------------------------------------------------------


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def _quota(quota: int, period: int) -> int | None:
    """CPUs of a quota (rounded up), or None for no limit."""
    if quota <= 0 or period <= 0:
        return None
    return max(1, math.ceil(quota / period))


def _cgroup_v2_limit(base: str, path: str) -> int | None:
    """The smallest cpu.max limit of the cgroup at base + path and its ancestors
    up to base (a cgroup namespace's root is base itself)."""
    limits = []
    directory = os.path.normpath(base + "/" + path.strip("/"))
    base = os.path.normpath(base)
    while True:
        text = _read(os.path.join(directory, "cpu.max"))
        if text is not None:
            fields = text.split()
            if len(fields) == 2 and fields[0] != "max":
                try:
                    limit = _quota(int(fields[0]), int(fields[1]))
                except ValueError:
                    limit = None
                if limit is not None:
                    limits.append(limit)
        if directory == base or len(directory) <= len(base):
            break
        directory = os.path.dirname(directory)
    return min(limits) if limits else None


def _cgroup_v1_limit(base: str, path: str) -> int | None:
    """cpu.cfs_quota_us / cpu.cfs_period_us of the cgroup at base + path, or at
    base when that path is not mounted there (a container's own view)."""
    for directory in (os.path.normpath(base + "/" + path.strip("/")), base):
        quota, period = (_read(os.path.join(directory, name))
                         for name in ("cpu.cfs_quota_us", "cpu.cfs_period_us"))
        if quota is not None and period is not None:
            try:
                return _quota(int(quota), int(period))
            except ValueError:
                return None
    return None


def cgroup_cpu_limit(root: str = "/") -> tuple[int, str] | None:
    """(CPUs, which file said so) of this process's cgroup CPU quota, rounded up,
    or None when there is none (or no cgroup information).  `root` is the file
    system root to read /proc/self/cgroup and /sys/fs/cgroup under (tests)."""
    text = _read(os.path.join(root, "proc/self/cgroup"))
    if text is None:
        return None
    cgroup_root = os.path.join(root, "sys/fs/cgroup")
    found = []
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        hierarchy, controllers, path = parts
        if hierarchy == "0" and controllers == "":
            for base in (cgroup_root, os.path.join(cgroup_root, "unified")):
                limit = _cgroup_v2_limit(base, path)
                if limit is not None:
                    found.append((limit, "cgroup v2 cpu.max"))
        elif "cpu" in controllers.split(","):
            for mount in ("cpu,cpuacct", "cpuacct,cpu", "cpu"):
                limit = _cgroup_v1_limit(os.path.join(cgroup_root, mount), path)
                if limit is not None:
                    found.append((limit, "cgroup v1 cpu.cfs_quota_us"))
                    break
    return min(found) if found else None


def available_cpus() -> tuple[int, str]:
    """(CPUs this process may use, how that was found), at least 1."""
    if hasattr(os, "sched_getaffinity"):
        count, how = len(os.sched_getaffinity(0)), "sched_getaffinity"
    else:
        count, how = os.cpu_count() or 1, "os.cpu_count"
    limit = cgroup_cpu_limit()
    if limit is not None and limit[0] < count:
        count, how = limit[0], f"{limit[1]}; {count} by {how}"
    return max(1, count), how


# ---------------------------------------------------------------------------
# At import
# ---------------------------------------------------------------------------


def threads_from_environment(raw, name=ENVIRONMENT_VARIABLE) -> int | None:
    """The thread count that the value `raw` of the environment variable `name`
    (bytes or str, or None when unset) asks for: None when unset, else the
    count.  ValueError, saying what is accepted, for anything but a whole
    number from 1 to MAX_THREADS in ASCII decimal digits (the empty string
    included); for OMP_NUM_THREADS, the first entry of a comma-separated list."""
    if raw is None:
        return None
    text = raw.decode("ascii", errors="replace") if isinstance(raw, bytes) else raw
    shown = repr(raw)[1:] if isinstance(raw, bytes) else repr(raw)  # '\xff...' for raw bytes
    if len(shown) > 40:  # an over-long value is cut in the message
        shown = f"{shown[:30]}... ({len(raw)} characters)"
    if name == "OMP_NUM_THREADS":
        text = text.split(",", 1)[0]
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"{name}={shown} is not a thread count (accepted: {_ACCEPTED})")
    digits = text.lstrip("0")
    count = int(digits) if 0 < len(digits) <= 4 else (0 if not digits else MAX_THREADS + 1)
    if not 1 <= count <= MAX_THREADS:
        raise ValueError(f"{name}={shown} is out of range (accepted: {_ACCEPTED})")
    return count


def _environment_value(name):
    environb = getattr(os, "environb", None)  # POSIX: the bytes as set, whatever their encoding
    return environb.get(name.encode()) if environb is not None else os.environ.get(name)


def choose_num_threads(environment=_environment_value):
    """(count, chosen_by, detail, problems) at import: the first of
    ENVIRONMENT_VARIABLES that is set and valid, else the CPUs available.
    `problems` lists the messages of the variables passed over."""
    problems = []
    for name in ENVIRONMENT_VARIABLES:
        try:
            count = threads_from_environment(environment(name), name)
        except ValueError as error:
            problems.append(str(error))
            continue
        if count is not None:
            return count, name, "", problems
    cpus, how = available_cpus()
    return min(cpus, MAX_THREADS), "default", f"{cpus} CPUs available ({how})", problems


def _configure() -> None:
    count, chosen_by, detail, problems = choose_num_threads()
    _core._set_num_threads(count, chosen_by, detail)
    used = f"{chosen_by}={count}" if chosen_by != "default" else f"{count}, {detail}"
    for problem in problems:
        warnings.warn(f"crtrig: {problem}; passed over, using {used}", RuntimeWarning, stacklevel=3)


_configure()
