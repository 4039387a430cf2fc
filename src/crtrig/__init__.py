"""crtrig: correctly rounded window and trigonometric functions for NumPy.

Every floating-point result is the exact real value rounded once, to nearest
with ties to even, into the output type.
"""
from ._version import __version__
from ._windows import hann_window, hamming_window, blackman_window
from ._core import sin, cos
from ._config import show_config, simd_target, simd_targets
from ._threads import set_num_threads, get_num_threads
from . import windows  # scipy.signal.windows' interface (crtrig.windows.hann, ...)

# Where users find the ufuncs (help(), repr tools, and pickle, which saves a
# ufunc as its __module__ plus __name__, as numpy registers it: crtrig.sin, not
# the private crtrig._core.sin).  numpy 1.x ufuncs have no settable __module__:
# there pickle looks the ufunc up in sys.modules and finds crtrig._core.sin.
for _ufunc in (sin, cos):
    try:
        _ufunc.__module__ = __name__
    except (AttributeError, TypeError):
        pass
del _ufunc

__all__ = ["__version__", "sin", "cos", "hann_window", "hamming_window", "blackman_window",
           "simd_targets", "simd_target", "show_config", "set_num_threads", "get_num_threads",
           "windows"]
