"""Build of crtrig's extension: the C core in src/core plus the Cython layer.

Floating-point flags: the error bounds in src/core assume each operation is
rounded as written, so contraction into fused multiply-adds is turned off
(-ffp-contract=off for gcc/clang, /fp:precise for MSVC).  No -march flags:
wheels must run on every CPU of their platform.
"""
import glob
import os
import shutil

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
CORE_SOURCES = sorted(glob.glob(os.path.join("src", "core", "*.c")))


class BuildExtWithFpFlags(build_ext):
    """Add the floating-point flags that suit the compiler in use."""

    def build_extensions(self):
        if self.compiler.compiler_type == "msvc":
            flags, link_flags = ["/fp:precise", "/O2"], []
        else:
            # -pthread: the thread pool (src/core/threads.c) uses POSIX threads
            # (in libpthread before glibc 2.34, e.g. manylinux_2_28).
            flags = ["-ffp-contract=off", "-fno-fast-math", "-O2", "-std=gnu99", "-pthread"]
            link_flags = ["-pthread"]
        for ext in self.extensions:
            ext.extra_compile_args = flags + list(ext.extra_compile_args or [])
            ext.extra_link_args = link_flags + list(ext.extra_link_args or [])
        super().build_extensions()


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
