"""Run a function when a module has been imported: now if it already is, else
right after its import finishes, before ``import`` returns to the code that
asked for it.

crtrig gives other packages' types and ufunc dispatchers what they need
(ml_dtypes' bfloat16 loops, pint's and astropy's unit handling) without
importing those packages itself: ``import crtrig`` stays as cheap as numpy's.

How: a finder at the front of ``sys.meta_path`` that answers only for the
watched names.  It asks the finders behind it for the module's spec and wraps
the spec's loader; the wrapper puts the real loader back on the module, runs
it, then the hooks.  Every other import passes through with one dict lookup.
A module whose import is in progress when a hook is registered (an import
cycle) gets its hooks at the end of that import too: the finder is consulted
only at the start of an import, so ``when_imported`` records them, and
``run_pending`` (called wherever crtrig needs the module) runs those of the
modules that have finished since.
"""
from __future__ import annotations

import sys
import threading
import warnings
from typing import Callable

_lock = threading.RLock()
_hooks: dict[str, list[Callable[[object], None]]] = {}


def _imported(name: str):
    """The module if its import has finished, else None."""
    module = sys.modules.get(name)
    if module is None:
        return None
    spec = getattr(module, "__spec__", None)
    if spec is not None and getattr(spec, "_initializing", False):
        return None
    return module


def _run(name: str, module) -> None:
    with _lock:
        hooks = _hooks.pop(name, [])
    for hook in hooks:
        try:
            hook(module)
        except Exception as error:  # a hook never breaks the user's import
            warnings.warn(f"crtrig: could not set up its support for {name}: "
                          f"{type(error).__name__}: {error}", RuntimeWarning, stacklevel=2)


class _HookedLoader:
    """The loader of a watched module: the real loader, then the hooks."""

    def __init__(self, loader, name: str):
        self._loader = loader
        self._name = name

    def create_module(self, spec):
        create = getattr(self._loader, "create_module", None)
        return create(spec) if create is not None else None

    def exec_module(self, module) -> None:
        spec = getattr(module, "__spec__", None)
        if spec is not None:
            spec.loader = self._loader
        module.__loader__ = self._loader
        self._loader.exec_module(module)
        _run(self._name, sys.modules.get(self._name, module))

    def __getattr__(self, attribute):  # resource readers, get_filename, ...
        return getattr(self._loader, attribute)


class _Finder:
    """The meta path finder for the watched names (importlib's protocol)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in _hooks:
            return None
        for finder in list(sys.meta_path):
            if finder is self:
                continue
            find_spec = getattr(finder, "find_spec", None)
            if find_spec is None:
                continue
            spec = find_spec(fullname, path, target)
            if spec is None:
                continue
            if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                spec.loader = _HookedLoader(spec.loader, fullname)
            return spec
        return None


_finder = _Finder()


def when_imported(name: str, hook: Callable[[object], None]) -> None:
    """Call ``hook(module)`` once ``name`` is imported: now if it is."""
    module = _imported(name)
    if module is not None:
        hook(module)
        return
    with _lock:
        _hooks.setdefault(name, []).append(hook)
        if _finder not in sys.meta_path:
            sys.meta_path.insert(0, _finder)


def run_pending(name: str) -> None:
    """Run the hooks still waiting for ``name`` if its import has finished
    (one that was in progress when they were registered)."""
    if name in _hooks:
        module = _imported(name)
        if module is not None:
            _run(name, module)
