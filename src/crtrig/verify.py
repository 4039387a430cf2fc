"""The old import path of :mod:`crtrig.devtools.verify` (kept): importing it gives that
very module, so ``crtrig.verify.X`` and ``crtrig.devtools.verify.X`` are the same object."""
import sys

from .devtools import verify as _module

sys.modules[__name__] = _module
