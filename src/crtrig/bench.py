"""The old import path of :mod:`crtrig.devtools.bench` (kept): importing it gives that
very module, so ``crtrig.bench.X`` and ``crtrig.devtools.bench.X`` are the same object."""
import sys

from .devtools import bench as _module

sys.modules[__name__] = _module
