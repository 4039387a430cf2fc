"""Writing output files atomically (JUnit reports, generated case files).

``write_text_atomically`` writes to a temporary file in the target's
directory and moves it into place with ``os.replace``: readers see the old
file or the new one, never a partial one, and the target may be the file the
text was read from.
"""

from __future__ import annotations

import os
import stat
import tempfile


class OutputError(Exception):
    """The output file cannot be written (message: one line, no path)."""


def check_writable_target(path: str) -> str:
    """The real path ``path`` names, after checking that a file can be put
    there: its directory exists and, if it exists, it is a regular file.
    Raises OutputError.  Cheap: meant to fail before any work is done."""
    target = os.path.realpath(path)  # write through a symlink, do not replace it
    directory = os.path.dirname(target) or "."
    if not os.path.isdir(directory):
        raise OutputError("cannot write: the directory does not exist")
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise OutputError(f"cannot write: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise OutputError("cannot write: not a regular file")
    return target


def _current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_text_atomically(path: str, text: str) -> None:
    """Write ``text`` (UTF-8, "\\n" line ends) to ``path`` atomically.

    An existing file keeps its permission bits; a new one gets the usual
    0o666 minus the umask.  Raises OutputError; on any failure the temporary
    file is removed and ``path`` is untouched."""
    target = check_writable_target(path)
    directory = os.path.dirname(target) or "."
    try:
        descriptor, temporary = tempfile.mkstemp(
            dir=directory, prefix=f".{os.path.basename(target)}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~_current_umask()
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException as exc:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write: {exc.strerror or exc}") from None
        raise
