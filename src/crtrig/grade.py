"""The old import path of :mod:`crtrig.conformance.grade` (kept): importing it gives that
very module, so ``crtrig.grade.X`` and ``crtrig.conformance.grade.X`` are the same object."""
import sys

from .conformance import grade as _module

sys.modules[__name__] = _module
