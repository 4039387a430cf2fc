"""Build of crtrig's extension: the C core in src/core plus the Cython layer.

Floating-point flags: the error bounds in src/core assume each operation is
rounded as written, so contraction into fused multiply-adds is turned off
(-ffp-contract=off for gcc/clang, /fp:precise for MSVC).  No -march flags:
wheels must run on every CPU of their platform.
"""
import glob
import os
import platform
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


def write_build_info(path, compiler, flags):
    """Write crtrig/_build_info.py (read by crtrig.show_config()): the compiler
    and the flags this build used.  Generated at each build, never committed
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
    """Add the floating-point flags that suit the compiler in use, and record
    them with the compiler in crtrig/_build_info.py, next to the extension."""

    def build_extensions(self):
        if self.compiler.compiler_type == "msvc":
            flags = ["/fp:precise", "/O2"]
        else:
            flags = ["-ffp-contract=off", "-fno-fast-math", "-O2", "-std=gnu99"]
        for ext in self.extensions:
            ext.extra_compile_args = flags + list(ext.extra_compile_args or [])
        super().build_extensions()
        self._crtrig_flags = flags
        # Next to crtrig/_core in the build directory, which goes into the wheel.
        package_dir = os.path.dirname(self.get_ext_fullpath("crtrig._core"))
        write_build_info(os.path.join(package_dir, "_build_info.py"), self.compiler, flags)

    def run(self):
        self._crtrig_flags = None
        super().run()  # builds in the build directory, then copies the extensions if --inplace
        if self.inplace and self._crtrig_flags is not None:  # and editable installs
            package_dir = self.get_finalized_command("build_py").get_package_dir("crtrig")
            write_build_info(os.path.join(package_dir, "_build_info.py"), self.compiler,
                             self._crtrig_flags)


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
    # of the C core (through its public entry point) against the C library's
    # long double sinl/cosl.  The core is compiled into it again, with the same flags.
    Extension(
        "crtrig._verify",
        sources=[os.path.join("src", "crtrig", "_verify.pyx"), os.path.join("src", "verify", "verify_f32.c")]
        + CORE_SOURCES,
        include_dirs=["include", os.path.join("src", "core"), os.path.join("src", "verify"), numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        libraries=[] if os.name == "nt" else ["m"],
    ),
]

setup(
    ext_modules=cythonize(extensions, compiler_directives={"language_level": "3"}),
    cmdclass={"build_ext": BuildExtWithFpFlags, "build_py": BuildPyWithCases},
)
