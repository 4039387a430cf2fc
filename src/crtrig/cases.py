"""The old import path of :mod:`crtrig.conformance.cases` (kept): importing it gives that
very module, so ``crtrig.cases.X`` and ``crtrig.conformance.cases.X`` are the same object."""
import sys

from .conformance import cases as _module

sys.modules[__name__] = _module
