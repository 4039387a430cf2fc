"""Build of crtrig's extension: the C core in src/core plus the Cython layer.

Floating-point flags: the error bounds in src/core assume each operation is
rounded as written, so contraction into fused multiply-adds is turned off
(-ffp-contract=off for gcc/clang, /fp:precise for MSVC).  No -march flags:
wheels must run on every CPU of their platform.

Debug info: Python's own CFLAGS (sysconfig) carry -g, which would triple the
size of the extensions; gcc/clang builds drop it (-g0 after Python's flags,
and the linker strips what is left) unless the environment asks to keep it:
CRTRIG_DEBUG=1, or -g in CFLAGS (tools/check_sanitizers.sh passes -g).  MSVC
builds put no debug info in the .pyd by default.

The C core is compiled once, into crtrig._core; crtrig._verify holds only the
oracle of `python -m crtrig verify` and takes the core's entry point from
crtrig._core at import (src/crtrig/_core.pxd).
"""
import glob
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
CORE_SOURCES = sorted(glob.glob(os.path.join("src", "core", "*.c")))


def _compiler_version(command):
    """First line of `command --version` (gcc, clang), or "" if that fails."""
    try:
        run = subprocess.run([command, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ""
    lines = (run.stdout or "").strip().splitlines()
    return lines[0].strip() if run.returncode == 0 and lines else ""


# gcc/clang options that ask for debug info (-g0 turns it off; the last one counts).
_DEBUG_FLAG = re.compile(r"-g([1-3]?|gdb[1-3]?|dwarf(-[2-5])?|codeview)")


def debug_info_request(environ):
    """Why this build keeps debug info, or None to strip it: the environment
    variable CRTRIG_DEBUG set to 1 (or true/yes/on), or a -g flag in CFLAGS
    (the last -g* option there decides, as for the compiler)."""
    if environ.get("CRTRIG_DEBUG", "").strip().lower() in ("1", "true", "yes", "on"):
        return "CRTRIG_DEBUG=1"
    try:
        words = shlex.split(environ.get("CFLAGS", ""))
    except ValueError:  # unbalanced quotes: the compiler will complain; look at the plain words
        words = environ.get("CFLAGS", "").split()
    asked = None
    for word in words:
        if word in ("-g0", "-ggdb0"):
            asked = None
        elif _DEBUG_FLAG.fullmatch(word):
            asked = f"{word} in CFLAGS"
    return asked


def debug_flags(compiler_type, keep_reason, platform_name=sys.platform):
    """(compile flags, link flags) that leave debug info out of the extension,
    or with keep_reason from CRTRIG_DEBUG=1, put it in (-g, in case Python's
    CFLAGS lack it).  Nothing for MSVC, whose .pyd holds no debug info either way
    (the debug info of /Zi and /DEBUG goes to a separate .pdb)."""
    if compiler_type == "msvc":
        return [], []
    if keep_reason is not None:
        return (["-g"] if keep_reason.startswith("CRTRIG_DEBUG") else []), []
    if platform_name == "darwin":
        return ["-g0"], ["-Wl,-S"]  # Apple's ld has no --strip-debug; -S drops the debug map
    return ["-g0"], ["-Wl,--strip-debug"]


NO_COMPILER = ("crtrig: no C compiler found ({what}): install gcc or clang (Debian/Ubuntu: "
               "apt install build-essential; Fedora: dnf install gcc; macOS: xcode-select "
               "--install; Windows: Visual Studio Build Tools), or install a crtrig wheel")


def check_compiler(compiler):
    """Raise DistutilsPlatformError with one line saying what to install when
    the C compiler of this build cannot be found, instead of the traceback or
    the bare "command failed" the first compile would give."""
    from setuptools.errors import PlatformError

    if compiler.compiler_type == "msvc":
        if getattr(compiler, "initialized", True):
            return
        try:
            compiler.initialize()
        except Exception as exc:  # DistutilsPlatformError: no Visual C++ found
            raise PlatformError(NO_COMPILER.format(what=f"MSVC: {exc}")) from None
        return
    command = list(getattr(compiler, "compiler_so", None) or [])
    if not command:
        return
    if shutil.which(command[0]) is None:
        cc = os.environ.get("CC")
        what = f"CC={cc}" if cc else f"{command[0]}, Python's default; CC is unset"
        raise PlatformError(NO_COMPILER.format(what=what))


def write_build_info(path, compiler, flags, debug_info):
    """Write crtrig/_build_info.py (read by crtrig.show_config()): the compiler
    and the flags this build used, and whether it kept debug info (None for
    stripped, else why kept).  Generated at each build, never committed
    (.gitignore) nor shipped in the sdist (MANIFEST.in)."""
    if compiler.compiler_type == "msvc":
        command = [getattr(compiler, "cc", "cl.exe")]
        version = ""  # cl.exe has no --version; its path names the toolset
    else:
        command = list(getattr(compiler, "compiler_so", None) or ["cc"])
        version = _compiler_version(command[0])
    try:
        import Cython
        cython_version = Cython.__version__
    except ImportError:  # pragma: no cover - cythonize needs it
        cython_version = ""
    info = {
        "compiler_type": compiler.compiler_type,
        "compiler": command,
        "compiler_version": version,
        "crtrig_flags": list(flags),
        "debug_info": debug_info,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "cython": cython_version,
        "machine": platform.machine(),
        "system": platform.system(),
    }
    text = ('"""The compiler and flags of this build of crtrig (written by setup.py; '
            'see crtrig.show_config())."""\n\n'
            f"BUILD_INFO = {info!r}\n")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


class BuildExtWithFpFlags(build_ext):
    """Add the floating-point flags that suit the compiler in use and leave
    debug info out (unless asked for), and record the flags with the compiler
    in crtrig/_build_info.py, next to the extension."""

    def build_extensions(self):
        check_compiler(self.compiler)
        if self.compiler.compiler_type == "msvc":
            flags, link_flags = ["/fp:precise", "/O2"], []
        else:
            # -pthread: the thread pool (src/core/threads.c) uses POSIX threads
            # (in libpthread before glibc 2.34, e.g. manylinux_2_28).
            flags = ["-ffp-contract=off", "-fno-fast-math", "-O2", "-std=gnu99", "-pthread"]
            link_flags = ["-pthread"]
        if self.compiler.compiler_type == "msvc":
            debug_info = None  # nothing to strip (see debug_flags)
        else:
            debug_info = debug_info_request(os.environ)
        debug_compile, debug_link = debug_flags(self.compiler.compiler_type, debug_info)
        flags += debug_compile  # after Python's CFLAGS (and their -g) on the command line
        for ext in self.extensions:
            ext.extra_compile_args = flags + list(ext.extra_compile_args or [])
            ext.extra_link_args = link_flags + debug_link + list(ext.extra_link_args or [])
        super().build_extensions()
        self._crtrig_flags = flags + debug_link
        self._crtrig_debug_info = debug_info
        # Next to crtrig/_core in the build directory, which goes into the wheel.
        package_dir = os.path.dirname(self.get_ext_fullpath("crtrig._core"))
        write_build_info(os.path.join(package_dir, "_build_info.py"), self.compiler,
                         self._crtrig_flags, debug_info)

    def run(self):
        self._crtrig_flags = None
        super().run()  # builds in the build directory, then copies the extensions if --inplace
        if self.inplace and self._crtrig_flags is not None:  # and editable installs
            package_dir = self.get_finalized_command("build_py").get_package_dir("crtrig")
            write_build_info(os.path.join(package_dir, "_build_info.py"), self.compiler,
                             self._crtrig_flags, self._crtrig_debug_info)


class BuildPyWithCases(build_py):
    """Ship the top-level cases/*.json inside the package (crtrig/cases/)."""

    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "crtrig", "cases")
        os.makedirs(target, exist_ok=True)
        for path in sorted(glob.glob(os.path.join(HERE, "cases", "*.json"))):
            shutil.copy2(path, target)


extensions = [
    Extension(
        "crtrig._core",
        sources=[os.path.join("src", "crtrig", "_core.pyx")] + CORE_SOURCES,
        include_dirs=["include", os.path.join("src", "core"), numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        # The core calls libm (fmod, nextafter): link it rather than rely on the
        # interpreter having loaded it.  MSVC's C runtime has no separate libm.
        libraries=[] if os.name == "nt" else ["m"],
    ),
    # crtrig._verify: `python -m crtrig verify`, which checks the float32 sin/cos
    # of the C core against the C library's long double sinl/cosl.  Only the
    # oracle is compiled here: the values under test come from crtrig._core's
    # public per-target entry point, cimported through src/crtrig/_core.pxd.
    Extension(
        "crtrig._verify",
        sources=[os.path.join("src", "crtrig", "_verify.pyx"), os.path.join("src", "verify", "verify_f32.c")],
        include_dirs=["include", os.path.join("src", "verify"), numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        libraries=[] if os.name == "nt" else ["m"],
    ),
]

setup(
    # include_path: where `from crtrig._core cimport ...` finds crtrig/_core.pxd.
    ext_modules=cythonize(extensions, include_path=["src"], compiler_directives={"language_level": "3"}),
    cmdclass={"build_ext": BuildExtWithFpFlags, "build_py": BuildPyWithCases},
)
