"""What crtrig sets up in other packages, when (and only when) they are imported.

- ml_dtypes: the bfloat16 loops of crtrig.sin and crtrig.cos.  Registered when
  ml_dtypes' import finishes (or at ``import crtrig`` if it came first), so
  either import order works and ``import crtrig`` never loads ml_dtypes.
- pint: pint dispatches a ufunc by its ``__name__`` to its own table of numpy
  functions.  crtrig's ufuncs are named ``crtrig_sin``/``crtrig_cos``/``crtrig_tan``, which
  that table lacks (pint then returns NotImplemented and numpy raises a
  TypeError naming the ufunc); this adds entries that convert the angle to
  radians, run crtrig's ufunc on the magnitude and return a dimensionless
  quantity, as pint does for np.sin.
- threadpoolctl (3.5 or later): a controller for crtrig's thread pool, so
  ``threadpool_info()`` lists it and ``threadpool_limits(n)`` limits it.
- astropy: astropy.units keys its ufunc helpers by the ufunc object; this adds
  crtrig's sin, cos and tan with astropy's own helper for np.sin, np.cos and
  np.tan (radians in, dimensionless out), so astropy converts the units and
  calls crtrig's ufunc.

Any other container (pandas, xarray, dask, np.ma) calls the ufunc it is given.
"""
from __future__ import annotations

import threading

from . import _core
from ._post_import import when_imported

_UFUNCS = (_core.sin, _core.cos, _core.tan)  # radians in, dimensionless out
_bfloat16_lock = threading.Lock()


def register_bfloat16(ml_dtypes) -> None:
    """The bfloat16 loops of crtrig's ufuncs, once (any thread, any order)."""
    import numpy as np

    with _bfloat16_lock:
        _core._register_bfloat16_loops(np.dtype(ml_dtypes.bfloat16))


def _pint_handler(ufunc):
    def handler(*inputs, **kwargs):
        (x,) = inputs
        registry = getattr(x, "_REGISTRY", None)
        if registry is None:  # x is not a Quantity: pint called us for out= or where=
            raise TypeError(f"crtrig.{ufunc.__name__[7:]}: with pint, pass the angle as a Quantity "
                            f"and out= as a plain numpy array")
        for value in kwargs.get("out") or ():
            if getattr(value, "_REGISTRY", None) is not None:
                raise TypeError(f"crtrig.{ufunc.__name__[7:]}: out= must be a plain numpy array, "
                                f"not a pint Quantity")
        return registry.Quantity(ufunc(x.m_as("radian"), **kwargs), "dimensionless")

    return handler


def register_pint(pint) -> None:
    table = None
    for where in ("pint.facets.numpy.numpy_func", "pint.numpy_func"):
        try:
            module = __import__(where, fromlist=["HANDLED_UFUNCS"])
        except ImportError:
            continue
        table = getattr(module, "HANDLED_UFUNCS", None)
        if table is not None:
            break
    if table is None:  # an unknown pint: it returns NotImplemented, numpy raises
        return
    for ufunc in _UFUNCS:
        table.setdefault(ufunc.__name__, _pint_handler(ufunc))


def register_astropy(quantity_helper) -> None:
    from astropy.units.quantity_helper.helpers import helper_radian_to_dimensionless

    for ufunc in _UFUNCS:
        quantity_helper.UFUNC_HELPERS[ufunc] = helper_radian_to_dimensionless


def register_threadpoolctl(threadpoolctl) -> None:
    register = getattr(threadpoolctl, "register", None)
    if register is None:  # before 3.5: no third-party controllers
        return
    import os

    class CrtrigController(threadpoolctl.LibController):
        """crtrig's thread pool (src/core/threads.c), found as the loaded
        crtrig._core extension: it exports crtrig_set_num_threads."""

        user_api = "crtrig"
        internal_api = "crtrig"
        filename_prefixes = (os.path.basename(_core.__file__).split(".")[0].lower(),)
        check_symbols = ("crtrig_set_num_threads", "crtrig_get_num_threads")

        def get_num_threads(self):
            return _core.get_num_threads()

        def set_num_threads(self, num_threads):
            _core._set_num_threads(max(1, min(int(num_threads), _core.MAX_THREADS)), "threadpoolctl")

        def get_version(self):
            from ._version import __version__

            return __version__

    register(CrtrigController)


when_imported("ml_dtypes", register_bfloat16)
when_imported("threadpoolctl", register_threadpoolctl)
when_imported("pint", register_pint)
when_imported("astropy.units.quantity_helper", register_astropy)
