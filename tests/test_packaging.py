"""What a wheel or a source build gives a user: no debug info unless asked for,
the C core linked once (into crtrig._core, which crtrig._verify calls), and one
clear line from setup.py when there is no C compiler.

The build tests run setup.py on a copy of the source tree (the sdist holds it,
so they run against installed wheels too) with a stand-in C compiler that
records its command lines, or with none at all.
"""
import ctypes
import json
import os
import shutil
import struct
import subprocess
import tarfile
import sys
import textwrap

import pytest

import crtrig
from crtrig import _config, _core

try:
    from crtrig import _verify
except ImportError:  # pragma: no cover - every build of setup.py has it
    _verify = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HAVE_SOURCES = os.path.exists(os.path.join(ROOT, "setup.py"))
# distutils' MSVC compiler ignores CC: the stand-in compiler and CC=/nonexistent cannot
# be tried there (the MSVC branch of setup.py's check_compiler is not exercised here).
posix_compiler = pytest.mark.skipif(os.name == "nt", reason="MSVC builds ignore CC")
# What setup.py links with to strip debug info (Apple's ld has no --strip-debug).
STRIP_LINK_FLAG = "-Wl,-S" if sys.platform == "darwin" else "-Wl,--strip-debug"


# ---------------------------------------------------------------------------
# Debug info in the built extensions, read from the binaries themselves

def _elf_debug_sections(data):
    """Names of the ELF sections that hold debug info (.debug_*, .zdebug_*)."""
    is64, little = data[4] == 2, data[5] == 1
    e = "<" if little else ">"
    if is64:
        shoff, = struct.unpack_from(e + "Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x3A)
        offset_fmt, offset_at = e + "QQ", 0x18  # sh_offset, sh_size
    else:
        shoff, = struct.unpack_from(e + "I", data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x2E)
        offset_fmt, offset_at = e + "II", 0x10
    headers = [data[shoff + i * shentsize: shoff + (i + 1) * shentsize] for i in range(shnum)]
    str_offset, _ = struct.unpack_from(offset_fmt, headers[shstrndx], offset_at)
    names = []
    for header in headers:
        start = str_offset + struct.unpack_from(e + "I", header, 0)[0]  # sh_name
        names.append(data[start:data.index(b"\0", start)].decode())
    return [n for n in names if n.startswith((".debug_", ".zdebug_"))]


def _macho_debug_entries(data, base=0):
    """A __DWARF segment and the debug-map symbols (stabs: N_OSO, N_SO, N_FUN...)
    of a 64-bit Mach-O image; fat files are read slice by slice."""
    magic, = struct.unpack_from(">I", data, base)
    if magic == 0xCAFEBABE:  # fat: big-endian table of slices
        count, = struct.unpack_from(">I", data, base + 4)
        found = []
        for i in range(count):
            offset, = struct.unpack_from(">I", data, base + 8 + 20 * i + 8)
            found += _macho_debug_entries(data, offset)
        return found
    assert struct.unpack_from("<I", data, base)[0] == 0xFEEDFACF, "not a 64-bit Mach-O file"
    ncmds, = struct.unpack_from("<I", data, base + 16)
    at, found = base + 32, []
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, at)
        if cmd == 0x19 and data[at + 8:at + 24].rstrip(b"\0") == b"__DWARF":  # LC_SEGMENT_64
            found.append("__DWARF segment")
        if cmd == 0x2:  # LC_SYMTAB
            symoff, nsyms = struct.unpack_from("<II", data, at + 8)
            stabs = sum(1 for i in range(nsyms) if data[base + symoff + 16 * i + 4] & 0xE0)
            if stabs:
                found.append(f"{stabs} debug-map symbols")
        at += size
    return found


def _pe_debug_sections(data):
    """PE sections named .debug* or with a long name ("/4": MinGW's DWARF)."""
    pe, = struct.unpack_from("<I", data, 0x3C)
    assert data[pe:pe + 4] == b"PE\0\0"
    nsections, = struct.unpack_from("<H", data, pe + 6)
    optional_size, = struct.unpack_from("<H", data, pe + 20)
    table = pe + 24 + optional_size
    names = [data[table + 40 * i: table + 40 * i + 8].rstrip(b"\0").decode("latin-1")
             for i in range(nsections)]
    return [n for n in names if n.startswith((".debug", "/"))]


def debug_info_in(path):
    """What in the extension file at `path` is debug info (empty: none)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] == b"\x7fELF":
        return _elf_debug_sections(data)
    if data[:2] == b"MZ":
        return _pe_debug_sections(data)
    return _macho_debug_entries(data)


def _system_c_compiler():
    import sysconfig

    words = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    return words if words and shutil.which(words[0]) else None


@posix_compiler
def test_the_debug_info_reader_finds_debug_info(tmp_path):
    """debug_info_in() sees the debug info of a small library built with -g, and
    none once it is built as setup.py builds crtrig (-g0, stripped at link)."""
    cc = _system_c_compiler()
    assert cc is not None, "no C compiler here (the CI images have one)"
    source = tmp_path / "tiny.c"
    source.write_text("int crtrig_tiny(int x) { return 3 * x + 1; }\n")
    link = ["-bundle", "-undefined", "dynamic_lookup"] if sys.platform == "darwin" else ["-shared"]
    for name, compile_flags, link_flags in (("with", ["-g"], []),
                                            ("without", ["-g", "-g0"], [STRIP_LINK_FLAG])):
        obj, lib = tmp_path / f"{name}.o", tmp_path / f"{name}.so"
        subprocess.run(cc + ["-fPIC", *compile_flags, "-c", str(source), "-o", str(obj)], check=True)
        subprocess.run(cc + [*link, str(obj), "-o", str(lib), *link_flags], check=True)
        found = debug_info_in(lib)
        assert bool(found) == (name == "with"), (name, found)


def test_extensions_hold_debug_info_exactly_when_the_build_kept_it():
    """By default setup.py strips debug info (the wheels are a third of the
    size); CRTRIG_DEBUG=1 or -g in CFLAGS keeps it (tools/check_sanitizers.sh),
    and _build_info says which, for show_config()."""
    info = _config.build_info()
    assert info is not None, "crtrig/_build_info.py is missing: built without crtrig's setup.py?"
    assert "debug_info" in info, "setup.py did not record whether it kept debug info"
    modules = [_core] + ([_verify] if _verify is not None else [])
    for module in modules:
        found = debug_info_in(module.__file__)
        if info["debug_info"] is None:
            assert found == [], f"{module.__file__} holds debug info: {found}"
        else:
            assert found, f"{module.__file__} has no debug info, yet the build kept it ({info['debug_info']})"
    text = "\n".join(_config.config_lines())
    expected = ("stripped" if info["compiler_type"] != "msvc" else "none") if info["debug_info"] is None \
        else f"kept ({info['debug_info']})"
    assert f"\n  debug info: {expected}" in text


# ---------------------------------------------------------------------------
# crtrig._verify holds the oracle only; the core it checks is crtrig._core's

@pytest.mark.skipif(_verify is None, reason="crtrig._verify is not built")
def test_verify_extension_does_not_hold_a_second_copy_of_the_core():
    # Cython's export table of _core, which _verify's cimport reads at import.
    assert {"core_trig_strided_target", "core_target_name"} <= set(_core.__pyx_capi__)
    # Old builds compiled the core into _verify too, with its symbols; now only _core has them.
    if os.name != "nt":  # (a .pyd exports PyInit_* alone, with or without a copy of the core)
        library = ctypes.CDLL(_verify.__file__)
        assert hasattr(library, "verify_f32_block")  # the oracle is
        for name in ("crtrig_trig_strided_target", "crtrig_target_name", "crtrig_init"):
            assert not hasattr(library, name), f"{name} is linked into crtrig._verify"


@pytest.mark.skipif(_verify is None, reason="crtrig._verify is not built")
def test_verify_checks_the_kernels_of_core():
    """_verify's values under test are _core's, target by target: a block run
    through _verify reports exactly the results _core's kernels give (the
    escalated results are crtrig's own values, handed back)."""
    import numpy as np

    inputs = np.arange(0x3F800000, 0x3F800000 + 4096, dtype=np.uint32)
    for index, name in enumerate(_core._supported_target_slots()):
        if name is None:
            continue
        expected = _core.trig_with_target(index, 0, inputs.view(np.float32)).view(np.uint32)
        # margin 2^-8: every input lies within it of a boundary, so all come back
        outcome = _verify.verify_inputs("sin", inputs, margin_log2=8, target=index)
        assert outcome["checked"] == 0
        order = np.argsort(outcome["escalated_inputs"])
        assert np.array_equal(outcome["escalated_inputs"][order], inputs)
        assert np.array_equal(outcome["escalated_results"][order], expected)


# ---------------------------------------------------------------------------
# setup.py, run on a copy of the tree

_IGNORED = shutil.ignore_patterns("*.so", "*.pyd", "*.dll", "*.dylib", "*.o", "__pycache__",
                                  "*.egg-info", "build", "cases", "_build_info.py")


@pytest.fixture(scope="module")
def source_copy(tmp_path_factory):
    """The files setup.py needs, copied (Cython's generated .c too, when up to date)."""
    if not HAVE_SOURCES:
        pytest.skip("the source tree is not here")
    pytest.importorskip("Cython")  # the `test` extra installs it
    tree = tmp_path_factory.mktemp("crtrig_source")
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy2(os.path.join(ROOT, name), tree / name)
    for name in ("include", "src"):
        shutil.copytree(os.path.join(ROOT, name), tree / name, ignore=_IGNORED)
    return tree


def _clean_environment(**settings):
    env = {k: v for k, v in os.environ.items()
           if k not in ("CC", "CFLAGS", "CPPFLAGS", "LDFLAGS", "LDSHARED", "CRTRIG_DEBUG")}
    env.update(settings)
    return env


FAKE_CC = textwrap.dedent('''\
    """A stand-in C compiler: records each command line, writes an empty output."""
    import json, os, sys
    args = sys.argv[1:]
    if args == ["--version"]:
        print("fakecc 1.0")
        sys.exit(0)
    with open(os.environ["FAKE_CC_LOG"], "a") as log:
        log.write(json.dumps(args) + "\\n")
    if "-o" in args:
        open(args[args.index("-o") + 1], "wb").close()
''')


def _build_with_fake_compiler(tree, tmp_path, **settings):
    """setup.py build_ext with the stand-in compiler: (compile commands, link
    commands, the BUILD_INFO it wrote)."""
    script = tmp_path / "fakecc.py"
    script.write_text(FAKE_CC)
    wrapper = tmp_path / "fakecc"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{script}" "$@"\n')
    wrapper.chmod(0o755)
    log = tmp_path / "commands.jsonl"
    env = _clean_environment(CC=str(wrapper), FAKE_CC_LOG=str(log), **settings)
    run = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--force",
                          "-b", str(tmp_path / "lib"), "-t", str(tmp_path / "tmp")],
                         cwd=tree, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    commands = [json.loads(line) for line in log.read_text().splitlines()]
    compiles = [c for c in commands if "-c" in c]
    links = [c for c in commands if "-c" not in c]
    namespace = {}
    exec((tmp_path / "lib" / "crtrig" / "_build_info.py").read_text(), namespace)
    return compiles, links, namespace["BUILD_INFO"]


def _last_debug_option(command):
    """The -g option that decides, as gcc and clang read the command line."""
    options = [w for w in command if w == "-g" or w.startswith("-g") and w[2:3] in ("0", "1", "2", "3", "g", "d")]
    return options[-1] if options else None


@posix_compiler
@pytest.mark.parametrize("settings,kept", [
    ({}, None),
    ({"CRTRIG_DEBUG": "1"}, "CRTRIG_DEBUG=1"),
    ({"CFLAGS": "-O2 -g"}, "-g in CFLAGS"),
    ({"CFLAGS": "-ggdb3 -g0"}, None),
], ids=["default", "CRTRIG_DEBUG=1", "CFLAGS=-g", "CFLAGS=-g0-last"])
def test_setup_py_strips_debug_info_unless_asked(source_copy, tmp_path, settings, kept):
    compiles, links, info = _build_with_fake_compiler(source_copy, tmp_path, **settings)
    assert compiles and len(links) == 2  # crtrig._core and crtrig._verify
    for command in compiles:
        last = _last_debug_option(command)
        if kept is None:
            assert last == "-g0", command  # after Python's own -g (sysconfig CFLAGS)
        else:
            assert last not in (None, "-g0", "-ggdb0"), command
    for command in links:
        assert (STRIP_LINK_FLAG in command) == (kept is None), command
    assert info["debug_info"] == kept
    # The C core is compiled once and linked into crtrig._core only.
    core_objects = [c for c in compiles if any(os.path.join("src", "core") in w for w in c)]
    assert len(core_objects) == len({w for c in core_objects for w in c if w.endswith(".c")})
    verify_link = next(c for c in links if any("_verify" in w and not w.endswith(".o") for w in c))
    assert not any(os.path.join("src", "core") in w for w in verify_link), verify_link


@posix_compiler
@pytest.mark.slow
def test_no_c_compiler_is_one_clear_line(source_copy, tmp_path):
    """CC names no program: setup.py ends with one line saying what to
    install, and no traceback; pip shows that line too."""
    env = _clean_environment(CC="/nonexistent")
    run = subprocess.run([sys.executable, "setup.py", "-q", "build_ext",
                          "-b", str(tmp_path / "lib"), "-t", str(tmp_path / "tmp")],
                         cwd=source_copy, env=env, capture_output=True, text=True, timeout=300)
    output = run.stdout + run.stderr
    assert run.returncode != 0
    assert "Traceback" not in output
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert lines[-1] == ("error: crtrig: no C compiler found (CC=/nonexistent): install gcc or clang "
                         "(Debian/Ubuntu: apt install build-essential; Fedora: dnf install gcc; macOS: "
                         "xcode-select --install; Windows: Visual Studio Build Tools), or install a "
                         "crtrig wheel"), output
    assert [line for line in lines if "crtrig:" in line] == [lines[-1]]

    # The same through pip (the build backend, without build isolation: no download).
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                          "--no-index", "-w", str(tmp_path / "wheels"), str(source_copy)],
                         env=env, capture_output=True, text=True, timeout=300)
    output = run.stdout + run.stderr
    assert run.returncode != 0
    assert "Traceback" not in output
    assert "crtrig: no C compiler found (CC=/nonexistent): install gcc or clang" in output
    assert not list(tmp_path.glob("wheels/*.whl"))


def test_the_wheel_contents_and_the_sdist_hold_the_type_stubs(source_copy, tmp_path):
    """PEP 561: setup.py build_py (the package files a wheel gets) and the sdist
    hold py.typed and every .pyi stub of src/crtrig (tests/test_typing.py checks
    the installed package has one per public module)."""
    tree = tmp_path / "tree"
    shutil.copytree(source_copy, tree)  # the sdist writes an .egg-info next to the package
    wanted = sorted(n for n in os.listdir(os.path.join(ROOT, "src", "crtrig")) if n.endswith(".pyi"))
    assert "__init__.pyi" in wanted
    wanted.append("py.typed")
    env = _clean_environment()
    run = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "-d", str(tmp_path / "lib")],
                         cwd=tree, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    built = set(os.listdir(tmp_path / "lib" / "crtrig"))
    assert not set(wanted) - built, f"missing from the build: {sorted(set(wanted) - built)}"
    run = subprocess.run([sys.executable, "setup.py", "-q", "sdist", "--formats=tar", "-d", str(tmp_path / "dist")],
                         cwd=tree, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    (archive,) = (tmp_path / "dist").glob("*.tar")
    with tarfile.open(archive) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    missing = [name for name in wanted if f"src/crtrig/{name}" not in names]
    assert not missing, f"missing from the sdist: {missing}"
