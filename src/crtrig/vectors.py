"""The old import path of :mod:`crtrig.conformance.vectors` (kept): importing it gives that
very module, so ``crtrig.vectors.X`` and ``crtrig.conformance.vectors.X`` are the same object."""
import sys

from .conformance import vectors as _module

sys.modules[__name__] = _module
