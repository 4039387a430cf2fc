"""The output types crtrig writes, and how any numpy spelling maps onto them."""
import numpy as np
import ml_dtypes

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)

# Order and codes match `crtrig_dtype` in include/crtrig/crtrig.h.
OUTPUT_DTYPES = (
    ("float16", np.dtype(np.float16)),
    ("bfloat16", BFLOAT16),
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
_CODE_BY_KEY = {(dt.kind, dt.itemsize): code for code, (_, dt) in enumerate(OUTPUT_DTYPES) if dt != BFLOAT16}


def output_code(dt):
    """The C dtype code of numpy dtype `dt` (any byte order), or None if unsupported.

    Decided by kind and size (so np.intc, np.longlong, "i4", "<f8" all work),
    never by type number."""
    if dt == BFLOAT16:
        return 1
    return _CODE_BY_KEY.get((dt.kind, dt.itemsize))


def resolve_dtype(dtype, argname="dtype"):
    """numpy dtype for a user's `dtype` argument; TypeError naming the supported types."""
    if isinstance(dtype, str) and dtype.lower() == "bfloat16":
        return BFLOAT16
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"{argname} must be one of {SUPPORTED_NAMES}; got {dtype!r}") from None
    if output_code(dt) is None:
        raise TypeError(f"{argname} must be one of {SUPPORTED_NAMES}; got {dt}")
    return dt
