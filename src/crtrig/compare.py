"""The old import path of :mod:`crtrig.devtools.compare` (kept): importing it gives that
very module, so ``crtrig.compare.X`` and ``crtrig.devtools.compare.X`` are the same object."""
import sys

from .devtools import compare as _module

sys.modules[__name__] = _module
