"""The one way crtrig writes files: JUnit reports, filled and generated case
files, ``bench --json`` and ``--plot``, ``onnx-fold``'s model.

``write_atomically`` (and ``write_text_atomically``, ``write_bytes_atomically``)
writes to a temporary file in the target's directory, fsyncs it and moves it
into place with ``os.replace``: readers see the old file or the new one, never
a partial one (not after a full disk, an error or a kill either), and the
target may be the file the data was read from.

* The target is checked first (``check_writable_target``, cheap, meant to be
  called before any work): its directory exists and is writable, and the
  target, if it exists, is a regular file -- a FIFO, a device or a directory
  is refused, so nothing blocks or writes into a device after a long run.
* A symlink is written through: its target gets the new file, the symlink
  stays (the same in every command).
* An existing target keeps its permission bits (and, where allowed, its
  group); a new file gets 0o666 minus the umask, as ``open`` would give it.
* A temporary file is removed on any error.  One left by a process that was
  killed (kill -9, a power cut) has a recognizable name,
  ``.<target name>.crtrig-<host>-<pid>-<random>.tmp``, and the next write into
  that directory removes it once it is stale: written on this host by a
  process that no longer exists, or not modified for ``STALE_AFTER_S``
  seconds (a process on another host sharing the directory, a reused pid).
  Only regular files of the current user with that exact name pattern are
  ever removed, never a file another crtrig is still writing on this host.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time
from typing import IO, Callable

#: A temporary file not modified for this long is stale whatever wrote it.
STALE_AFTER_S = 3600

_TEMP_SUFFIX = ".tmp"
_TEMP_NAME = re.compile(r"\A\..*\.crtrig-(?P<host>[0-9a-f]{8})-(?P<pid>[0-9]{1,10})-[0-9a-f]{16}\.tmp\Z", re.DOTALL)
#: What onnx-fold of crtrig 0.1.0 named its temporary files (NamedTemporaryFile):
#: removed by the age rule only.
_LEGACY_TEMP_NAME = re.compile(r"\A\.crtrig-fold-[a-z0-9_]{8}\.onnx\Z")
#: How much of the target's name goes into the temporary file's name (NAME_MAX is 255).
_NAME_PART = 100


class OutputError(Exception):
    """The output file cannot be written (message: one line, no path)."""


def _host_tag() -> str:
    import socket  # here, not at import: `crtrig COMMAND --help` loads this module
    import zlib

    return f"{zlib.crc32(socket.gethostname().encode('utf-8', 'replace')):08x}"


_FULL = {errno.EFBIG, errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}


def _reason(exc: OSError) -> str:
    if exc.errno in _FULL:
        return f"{exc.strerror or exc} (the previous file, if any, is left as it was)"
    return exc.strerror or str(exc)


def check_writable_target(path: str | os.PathLike) -> str:
    """The real path ``path`` names, after checking that a file can be put
    there: its directory exists and is writable and, if it exists, it is a
    regular file.  Raises OutputError.  Cheap: meant to fail before any work
    is done."""
    target = os.path.realpath(os.fspath(path))  # write through a symlink, do not replace it
    directory = os.path.dirname(target) or "."
    if not os.path.isdir(directory):
        raise OutputError("cannot write: the directory does not exist")
    try:
        info = os.stat(target)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise OutputError(f"cannot write: {exc.strerror or exc}") from None
    else:
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise OutputError(f"cannot write: {kind}")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise OutputError("cannot write: the directory is not writable")
    return target


def _current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _process_is_gone(pid: int) -> bool:
    """True if no process ``pid`` exists on this host (POSIX only: on Windows
    os.kill would terminate it, so there the age rule alone applies)."""
    if os.name != "posix" or pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # EPERM: it exists, another user's
        return False
    return False


def remove_stale_temporaries(directory: str, now: float | None = None) -> list[str]:
    """Remove the stale temporary files crtrig left in ``directory`` (see the
    module's docstring for the rule); returns their names.  Never raises."""
    now = time.time() if now is None else now
    host = _host_tag()
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    removed = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if not name.startswith(".") or ".crtrig-" not in name:
            continue
        match = _TEMP_NAME.match(name)
        if match is None and _LEGACY_TEMP_NAME.match(name) is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode) or (uid is not None and info.st_uid != uid):
            continue
        old = now - info.st_mtime > STALE_AFTER_S
        orphaned = match is not None and match["host"] == host and _process_is_gone(int(match["pid"]))
        if old or orphaned:
            try:
                os.unlink(entry.path)
            except OSError:
                continue
            removed.append(name)
    return removed


def _create_temporary(target: str) -> tuple[int, str]:
    directory = os.path.dirname(target) or "."
    base = os.path.basename(target)
    if len(base.encode("utf-8", "surrogateescape")) > _NAME_PART:
        base = base.encode("utf-8", "surrogateescape")[:_NAME_PART].decode("utf-8", "ignore")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    prefix = f".{base}.crtrig-{_host_tag()}-{os.getpid()}-"
    for _ in range(100):
        temporary = os.path.join(directory, f"{prefix}{os.urandom(8).hex()}{_TEMP_SUFFIX}")
        try:
            return os.open(temporary, flags, 0o600), temporary
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "cannot create a temporary file")


def _fsync_directory(directory: str) -> None:
    if os.name != "posix":
        return
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def write_atomically(path: str | os.PathLike, write: Callable[[IO[bytes]], None]) -> None:
    """Call ``write(handle)`` with a binary file open on a temporary file next
    to ``path``, then fsync it and move it onto ``path`` (see the module's
    docstring).  Raises OutputError for an OSError (from ``write`` too); on
    any exception the temporary file is removed and ``path`` is untouched."""
    target = check_writable_target(path)
    directory = os.path.dirname(target) or "."
    remove_stale_temporaries(directory)
    try:
        descriptor, temporary = _create_temporary(target)
    except OSError as exc:
        raise OutputError(f"cannot write: {_reason(exc)}") from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            info = os.stat(target)
        except FileNotFoundError:
            os.chmod(temporary, 0o666 & ~_current_umask())
        else:
            if hasattr(os, "chown") and info.st_gid != os.stat(temporary).st_gid:
                try:
                    os.chown(temporary, -1, info.st_gid)
                except OSError:
                    pass
            os.chmod(temporary, stat.S_IMODE(info.st_mode))
        os.replace(temporary, target)
    except BaseException as exc:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write: {_reason(exc)}") from None
        raise
    _fsync_directory(directory)


def write_bytes_atomically(path: str | os.PathLike, data: bytes | bytearray | memoryview) -> None:
    """Write ``data`` to ``path`` atomically (``write_atomically``)."""
    view = memoryview(data).cast("B")

    def write(handle: IO[bytes]) -> None:
        chunk = 1 << 24  # write() of more than 2 GiB at once is not portable
        for start in range(0, len(view), chunk):
            handle.write(view[start:start + chunk])

    write_atomically(path, write)


def write_text_atomically(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` (UTF-8, "\\n" line ends) to ``path`` atomically
    (``write_atomically``)."""
    write_bytes_atomically(path, text.encode("utf-8"))
