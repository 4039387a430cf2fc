"""Every file crtrig writes goes through crtrig._output: atomic (temporary file in
the target's directory, fsync, os.replace), the target's permission bits kept,
symlinks written through, non-regular targets refused before any work, no
temporary file left after an error, and stale ones (a kill -9) removed by the
next write.  First the writer itself, then each command that writes a file:
bench --json and --plot, onnx-fold, cases --junit, --fill and --new."""

from __future__ import annotations

import os
import resource
import secrets
import signal
import socket
import stat
import subprocess
import sys
import textwrap
import time
import zlib

import pytest

import onnx
from onnx import TensorProto, helper

from crtrig import _output
from crtrig.__main__ import main

TEMPORARY = ".crtrig-"  # every temporary file crtrig writes has this in its name


def host_tag() -> str:
    return f"{zlib.crc32(socket.gethostname().encode('utf-8', 'replace')):08x}"


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def temp_name(target: str, pid: int, host: str | None = None) -> str:
    return f".{target}.crtrig-{host or host_tag()}-{pid}-{secrets.token_hex(8)}.tmp"


def leftovers(directory) -> list[str]:
    return sorted(name for name in os.listdir(directory) if TEMPORARY in name)


def run_python(code: str, *args, limits=(), timeout=120):
    """Run ``code`` in a child Python with resource limits [(RLIMIT_x, value)]."""
    def preexec():
        for which, value in limits:
            resource.setrlimit(which, (value, value))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, preexec_fn=preexec)


# ---------------------------------------------------------------------------
# The writer
# ---------------------------------------------------------------------------


def test_a_full_disk_leaves_the_previous_file_and_no_temporary(tmp_path):
    """RLIMIT_FSIZE makes a write past 8 KiB fail with EFBIG, as a full disk
    fails with ENOSPC (CPython ignores SIGXFSZ)."""
    target = tmp_path / "data.bin"
    target.write_bytes(b"previous contents")
    completed = run_python("""
        import sys
        from crtrig import _output
        try:
            _output.write_bytes_atomically(sys.argv[1], b"x" * 100000)
        except _output.OutputError as exc:
            print(exc)
    """, target, limits=[(resource.RLIMIT_FSIZE, 8192)])
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.startswith("cannot write: File too large")
    assert target.read_bytes() == b"previous contents"
    assert leftovers(tmp_path) == []


def test_an_error_while_writing_leaves_the_target_and_no_temporary(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")

    def fail(handle):
        handle.write(b"partial")
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        _output.write_atomically(target, fail)
    assert target.read_text() == "old" and leftovers(tmp_path) == []

    def os_error(handle):
        raise OSError(28, "No space left on device")

    with pytest.raises(_output.OutputError, match="No space left on device"):
        _output.write_atomically(target, os_error)
    assert target.read_text() == "old" and leftovers(tmp_path) == []


def test_a_killed_writer_leaves_a_temporary_the_next_write_removes(tmp_path):
    target, other = tmp_path / "model.onnx", tmp_path / "other.txt"
    target.write_bytes(b"old model")
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import sys, time
        from crtrig import _output
        def write(handle):
            handle.write(b"half a model" * 1000)
            handle.flush()
            print("writing", flush=True)
            time.sleep(600)
        _output.write_atomically(sys.argv[1], write)
    """), str(target)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "writing\n"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    (left,) = leftovers(tmp_path)
    assert left.startswith(".model.onnx.crtrig-") and left.endswith(".tmp")
    assert target.read_bytes() == b"old model"
    _output.write_text_atomically(other, "a later write into that directory")
    assert leftovers(tmp_path) == [] and target.read_bytes() == b"old model"


def test_stale_temporaries_only_are_removed(tmp_path):
    now = time.time()
    names = {
        "dead pid on this host": (temp_name("a", dead_pid()), True),
        "live pid on this host": (temp_name("b", os.getppid()), False),
        "this process": (temp_name("c", os.getpid()), False),
        "another host": (temp_name("d", dead_pid(), host="0badf00d"), False),
        "another host, old": (temp_name("e", 1, host="0badf00d"), True),
        "crtrig 0.1.0's onnx-fold, old": (".crtrig-fold-ab12_x9z.onnx", True),
        "crtrig 0.1.0's onnx-fold, new": (".crtrig-fold-cd34_y8w.onnx", False),
        "not crtrig's": (".a.abcdef.tmp", False),
        "not crtrig's, old": (".b.crtrig-backup.tmp", False),
    }
    for label, (name, _) in names.items():
        (tmp_path / name).write_bytes(b"x")
        if label.endswith(", old"):
            os.utime(tmp_path / name, (now - _output.STALE_AFTER_S - 60,) * 2)
    link = temp_name("f", dead_pid())
    os.symlink(tmp_path / names["not crtrig's"][0], tmp_path / link)  # not a regular file
    removed = _output.remove_stale_temporaries(str(tmp_path), now=now)
    assert sorted(removed) == sorted(name for name, stale in names.values() if stale)
    assert sorted(os.listdir(tmp_path)) == sorted(
        [name for name, stale in names.values() if not stale] + [link])


def test_permissions_are_kept_and_a_new_file_follows_the_umask(tmp_path):
    existing, new = tmp_path / "existing", tmp_path / "new"
    existing.write_text("old")
    os.chmod(existing, 0o640)
    mask = os.umask(0o027)
    try:
        _output.write_text_atomically(existing, "new")
        _output.write_text_atomically(new, "new")
    finally:
        os.umask(mask)
    assert stat.S_IMODE(os.stat(existing).st_mode) == 0o640 and existing.read_text() == "new"
    assert stat.S_IMODE(os.stat(new).st_mode) == 0o640


def test_a_symlink_is_written_through(tmp_path):
    real, link = tmp_path / "real.txt", tmp_path / "link.txt"
    real.write_text("old")
    os.symlink("real.txt", link)
    _output.write_text_atomically(link, "new")
    assert os.readlink(link) == "real.txt" and real.read_text() == "new"


@pytest.mark.parametrize("kind", ["fifo", "directory", "device", "missing directory"])
def test_a_target_that_is_not_a_regular_file_is_refused(tmp_path, kind):
    target = {"fifo": tmp_path / "fifo", "directory": tmp_path, "device": "/dev/null",
              "missing directory": tmp_path / "no" / "file"}[kind]
    if kind == "fifo":
        os.mkfifo(target)
    with pytest.raises(_output.OutputError, match="^cannot write: "):
        _output.check_writable_target(target)
    with pytest.raises(_output.OutputError, match="^cannot write: "):
        _output.write_text_atomically(target, "x")
    assert leftovers(tmp_path) == []


# ---------------------------------------------------------------------------
# Every command that writes a file
# ---------------------------------------------------------------------------

BENCH = ["bench", "--quick", "--trig-size", "8", "--window-sizes", "3", "--rounds", "1",
         "--min-sample-ms", "1", "--peers", "numpy"]


def onnx_model(path, size=64):
    nodes = [helper.make_node("Constant", [], ["n"], value_int=size),
             helper.make_node("HannWindow", ["n"], ["w"], output_datatype=TensorProto.DOUBLE)]
    graph = helper.make_graph(nodes, "g", [], [helper.make_tensor_value_info("w", TensorProto.DOUBLE, [None])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)


def case_file(path):
    assert main(["cases", "--new", "HannWindow", "--sizes", "3", "--dtypes", "float32", "-o", str(path)]) == 0


#: command -> (file name of its output, argv given the output's path and tmp_path)
COMMANDS = {
    "bench --json": ("bench.json", lambda out, d: BENCH + ["--json", out]),
    "bench --plot": ("bench.png", lambda out, d: BENCH + ["--plot", out]),
    "onnx-fold": ("out.onnx", lambda out, d: ["onnx-fold", str(d / "in.onnx"), out]),
    "cases --junit": ("report.xml", lambda out, d: ["cases", str(d / "case.json"), "--junit", out]),
    "cases --fill": ("filled.json", lambda out, d: ["cases", "--fill", str(d / "case.json"), "-o", out]),
    "cases --new": ("new.json", lambda out, d: ["cases", "--new", "HannWindow", "--sizes", "4",
                                                "--dtypes", "float32", "-o", out]),
}


def command_inputs(tmp_path, capsys):
    onnx_model(tmp_path / "in.onnx")
    case_file(tmp_path / "case.json")
    capsys.readouterr()
    return sorted(os.listdir(tmp_path))


def run_in_process(capsys, argv) -> int:
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code
    capsys.readouterr()
    return status


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_writes_through_a_symlink_keeping_permissions(tmp_path, capsys, command):
    name, argv = COMMANDS[command]
    inputs = command_inputs(tmp_path, capsys)
    real, link = tmp_path / ("real-" + name), tmp_path / name
    real.write_bytes(b"old")
    os.chmod(real, 0o640)
    os.symlink(real.name, link)
    assert run_in_process(capsys, argv(str(link), tmp_path)) == 0
    assert os.path.islink(link) and os.readlink(link) == real.name
    assert real.read_bytes() not in (b"", b"old")
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640
    assert sorted(os.listdir(tmp_path)) == sorted(inputs + [real.name, name])  # no temporary left


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_removes_stale_temporaries(tmp_path, capsys, command):
    name, argv = COMMANDS[command]
    command_inputs(tmp_path, capsys)
    stale = tmp_path / temp_name(name, dead_pid())
    stale.write_bytes(b"left by a kill -9")
    assert run_in_process(capsys, argv(str(tmp_path / name), tmp_path)) == 0
    assert not stale.exists() and leftovers(tmp_path) == []


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_refuses_a_fifo_before_any_work(tmp_path, capsys, command):
    name, argv = COMMANDS[command]
    command_inputs(tmp_path, capsys)
    fifo = tmp_path / name
    os.mkfifo(fifo)
    completed = subprocess.run([sys.executable, "-m", "crtrig", *argv(str(fifo), tmp_path)],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 2, completed
    assert completed.stdout == "" and len(completed.stderr.splitlines()) == 1, completed.stderr
    assert "error: " in completed.stderr and "not a regular file" in completed.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("command", ["bench --json", "onnx-fold"])
def test_a_full_disk_leaves_the_previous_output(tmp_path, capsys, command):
    name, argv = COMMANDS[command]
    command_inputs(tmp_path, capsys)
    onnx_model(tmp_path / "in.onnx", size=10000)  # 80 kB of window
    target = tmp_path / name
    target.write_bytes(b"the previous output")
    code = "import sys, runpy; sys.argv = ['crtrig', *sys.argv[1:]]; runpy.run_module('crtrig', run_name='__main__')"
    completed = run_python(code, *argv(str(target), tmp_path), limits=[(resource.RLIMIT_FSIZE, 16384)])
    assert completed.returncode == 2, completed
    last = completed.stderr.splitlines()[-1]
    assert "error: " in last and "File too large" in last and "Traceback" not in completed.stderr
    assert target.read_bytes() == b"the previous output"
    assert leftovers(tmp_path) == []
