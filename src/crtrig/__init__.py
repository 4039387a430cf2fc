"""crtrig: correctly rounded window and trigonometric functions for NumPy.

Every floating-point result is the exact real value rounded once, to nearest
with ties to even, into the output type.
"""
from ._version import __version__
from ._windows import hann_window, hamming_window, blackman_window
from ._core import sin, cos, sinpi, cospi, tan, tanpi
from ._config import show_config, simd_target, simd_targets
from ._threads import set_num_threads, get_num_threads
from . import windows  # scipy.signal.windows' interface (crtrig.windows.hann, ...)
from . import _integrations  # ml_dtypes' bfloat16, pint and astropy, when they are imported

# Where users find the ufuncs (help(), repr tools, and pickle, which saves a
# ufunc as its __module__ plus __name__, as numpy registers it).  The ufuncs
# are named crtrig_sin and crtrig_cos (so that pint, which dispatches by name,
# does not take them for numpy's); pickle finds those names through
# __getattr__ below, and pickles made when they were named sin and cos still
# load as crtrig.sin and crtrig.cos.  numpy 1.x ufuncs have no settable
# __module__: there pickle searches sys.modules for the name, and finds it
# here too, through the same __getattr__.
for _ufunc in (sin, cos, sinpi, cospi, tan, tanpi):
    try:
        _ufunc.__module__ = __name__
    except (AttributeError, TypeError):
        pass
del _ufunc
_BY_UFUNC_NAME = {u.__name__: u for u in (sin, cos, sinpi, cospi, tan, tanpi)}


def __getattr__(name):
    """``crtrig.crtrig_sin`` and ``crtrig.crtrig_cos``, the ufuncs' own names
    (what pickle looks up), without adding them to the namespace."""
    try:
        return _BY_UFUNC_NAME[name]
    except KeyError:
        raise AttributeError(f"module 'crtrig' has no attribute {name!r}") from None

__all__ = ["__version__", "sin", "cos", "sinpi", "cospi", "tan", "tanpi", "hann_window", "hamming_window", "blackman_window",
           "simd_targets", "simd_target", "show_config", "set_num_threads", "get_num_threads",
           "windows"]
