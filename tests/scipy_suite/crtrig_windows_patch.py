"""A pytest plugin (``-p crtrig_windows_patch``) that runs scipy's own window tests
against crtrig.windows: before scipy's test module is imported, every window
function of scipy.signal.windows (and scipy.signal.get_window, which that module
imports by name) is replaced by crtrig.windows' function of the same name.
scipy's internal table (_windows._WIN_FUNC_DATA) and helpers stay scipy's."""
import scipy.signal
import scipy.signal.windows
from scipy._lib import _array_api

import crtrig.windows


def pytest_configure(config):
    table = _array_api.xp_capabilities_table  # scipy's per-function array-API marks
    for name in crtrig.windows.__all__:
        if getattr(scipy.signal.windows, name) in table:
            table[getattr(crtrig.windows, name)] = table[getattr(scipy.signal.windows, name)]
        setattr(scipy.signal.windows, name, getattr(crtrig.windows, name))
        if hasattr(scipy.signal, name):
            setattr(scipy.signal, name, getattr(crtrig.windows, name))
