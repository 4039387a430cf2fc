"""crtrig: correctly rounded window and trigonometric functions for NumPy.

Every floating-point result is the exact real value rounded once, to nearest
with ties to even, into the output type.
"""
from ._version import __version__
from ._windows import hann_window, hamming_window, blackman_window
from ._core import sin, cos
from ._threads import set_num_threads, get_num_threads

__all__ = ["__version__", "sin", "cos", "hann_window", "hamming_window", "blackman_window",
           "set_num_threads", "get_num_threads"]
