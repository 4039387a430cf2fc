"""The output types crtrig writes, and how any numpy spelling maps onto them.

bfloat16 is ml_dtypes' type, and ``import crtrig`` does not import ml_dtypes
(its extension takes about a second to load): until something imports it, no
array can be bfloat16, so the dtype is looked up only once ml_dtypes is in
``sys.modules``; the string "bfloat16" imports it.
"""
import sys

import numpy as np

from . import _post_import

# Order and codes match `crtrig_dtype` in include/crtrig/crtrig.h.
OUTPUT_DTYPES = (
    ("float16", np.dtype(np.float16)),
    ("bfloat16", None),  # ml_dtypes.bfloat16: bfloat16_dtype()
    ("float32", np.dtype(np.float32)),
    ("float64", np.dtype(np.float64)),
    ("int8", np.dtype(np.int8)),
    ("uint8", np.dtype(np.uint8)),
    ("int16", np.dtype(np.int16)),
    ("uint16", np.dtype(np.uint16)),
    ("int32", np.dtype(np.int32)),
    ("uint32", np.dtype(np.uint32)),
    ("int64", np.dtype(np.int64)),
    ("uint64", np.dtype(np.uint64)),
)
SUPPORTED_NAMES = ", ".join(name for name, _ in OUTPUT_DTYPES)
BFLOAT16_CODE = 1
_CODE_BY_KEY = {(dt.kind, dt.itemsize): code for code, (_, dt) in enumerate(OUTPUT_DTYPES) if dt is not None}
_bfloat16 = None


def bfloat16_dtype(load=False):
    """ml_dtypes' bfloat16 dtype once ml_dtypes is imported, else None; with
    ``load``, import it (ImportError saying what to install if it is absent)."""
    global _bfloat16
    if _bfloat16 is None:
        module = sys.modules.get("ml_dtypes")
        if module is None and load:
            try:
                import ml_dtypes as module
            except ImportError as error:
                raise ImportError("crtrig: bfloat16 needs ml_dtypes (pip install ml_dtypes); "
                                  f"importing it failed: {error}") from None
        scalar_type = getattr(module, "bfloat16", None)  # None while ml_dtypes is importing
        if scalar_type is None:
            return None
        # the loops' registration, if ml_dtypes' import was under way when crtrig's began
        _post_import.run_pending("ml_dtypes")
        _bfloat16 = np.dtype(scalar_type)
    return _bfloat16


def is_bfloat16(dt):
    """Whether numpy dtype `dt` is ml_dtypes.bfloat16 (never imports ml_dtypes)."""
    return dt.kind == "V" and dt.itemsize == 2 and dt == bfloat16_dtype()


def output_code(dt):
    """The C dtype code of numpy dtype `dt` (any byte order), or None if unsupported.

    Decided by kind and size (so np.intc, np.longlong, "i4", "<f8" all work),
    never by type number."""
    code = _CODE_BY_KEY.get((dt.kind, dt.itemsize))
    if code is None and is_bfloat16(dt):
        return BFLOAT16_CODE
    return code


def resolve_dtype(dtype, argname="dtype"):
    """numpy dtype for a user's `dtype` argument; TypeError naming the supported types."""
    if isinstance(dtype, str) and dtype.lower() == "bfloat16":
        return bfloat16_dtype(load=True)
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"{argname} must be one of {SUPPORTED_NAMES}; got {dtype!r}") from None
    if output_code(dt) is None:
        raise TypeError(f"{argname} must be one of {SUPPORTED_NAMES}; got {dt}")
    return dt
