# cython: language_level=3, boundscheck=False, wraparound=False
"""Thin Cython layer over the C core: window fills and test hooks.

Argument checking and dtype resolution live in crtrig/_windows.py; this
module only takes already validated arguments and a writeable 1-D array.
"""
from libc.stdint cimport int64_t, uint64_t
cimport numpy as cnp

cnp.import_array()

cdef extern from "crtrig/crtrig.h" nogil:
    ctypedef struct crtrig_eval_options:
        int first_stage
        int multi_start_bits
    ctypedef struct crtrig_stage_counts:
        uint64_t exact
        uint64_t by_stage[3]
        uint64_t multi_retries
    int crtrig_window_ex(int kind, int64_t size, int periodic, int dtype, char *out,
                         Py_ssize_t stride, const crtrig_eval_options *opt,
                         crtrig_stage_counts *counts)
    int crtrig_window_element(int kind, uint64_t n, uint64_t D, int dtype,
                              const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                              double *result)
    int crtrig_window_stage_value(int kind, uint64_t n, uint64_t D, int stage,
                                  double *hi, double *lo)
    int CRTRIG_OK, CRTRIG_EINVAL, CRTRIG_ENOMEM, CRTRIG_ENOCONV
    int64_t CRTRIG_WINDOW_MAX_SIZE

WINDOW_MAX_SIZE = CRTRIG_WINDOW_MAX_SIZE
STAGES = ("double", "double-double", "multi-precision")


cdef int _check(int rc) except -1:
    if rc == CRTRIG_OK:
        return 0
    if rc == CRTRIG_ENOMEM:
        raise MemoryError("crtrig: out of memory in the multi-precision stage")
    if rc == CRTRIG_ENOCONV:
        raise RuntimeError("crtrig: the multi-precision stage reached its precision cap")
    raise ValueError("crtrig: invalid window arguments")


cdef dict _counts_dict(crtrig_stage_counts *counts):
    return {"exact": counts.exact, "double": counts.by_stage[0],
            "double-double": counts.by_stage[1], "multi-precision": counts.by_stage[2],
            "multi-precision retries": counts.multi_retries}


cdef void _init(crtrig_eval_options *opt, crtrig_stage_counts *counts,
                int first_stage, int multi_start_bits) noexcept:
    opt.first_stage = first_stage
    opt.multi_start_bits = multi_start_bits
    counts.exact = 0
    counts.by_stage[0] = counts.by_stage[1] = counts.by_stage[2] = 0
    counts.multi_retries = 0


def fill_window(int kind, int64_t size, bint periodic, int dtype_code, cnp.ndarray out,
                int first_stage=0, int multi_start_bits=0):
    """Fill the 1-D array `out` (length `size`, dtype `dtype_code`) with the window.

    `first_stage` and `multi_start_bits` are test hooks (0 = normal operation).
    Returns the number of elements decided by each stage, as a dict.
    """
    cdef crtrig_eval_options opt
    cdef crtrig_stage_counts counts
    cdef char *data = <char *>cnp.PyArray_DATA(out)
    cdef Py_ssize_t stride = cnp.PyArray_STRIDES(out)[0] if cnp.PyArray_NDIM(out) == 1 else 0
    cdef int rc
    _init(&opt, &counts, first_stage, multi_start_bits)
    with nogil:
        rc = crtrig_window_ex(kind, size, periodic, dtype_code, data, stride, &opt, &counts)
    _check(rc)
    return _counts_dict(&counts)


def window_element(int kind, uint64_t n, uint64_t D, int dtype_code,
                   int first_stage=0, int multi_start_bits=0):
    """Test hook: (value, stage counts) of element n of a window with denominator D,
    correctly rounded into dtype_code's float format (float32 for integers)."""
    cdef crtrig_eval_options opt
    cdef crtrig_stage_counts counts
    cdef double result = 0.0
    _init(&opt, &counts, first_stage, multi_start_bits)
    _check(crtrig_window_element(kind, n, D, dtype_code, &opt, &counts, &result))
    return result, _counts_dict(&counts)


def window_stage_value(int kind, uint64_t n, uint64_t D, int stage):
    """Test hook: (hi, lo) of the unrounded double (stage 0) or double-double
    (stage 1) value of w[n], or None at an exact point."""
    cdef double hi = 0.0, lo = 0.0
    if crtrig_window_stage_value(kind, n, D, stage, &hi, &lo) != CRTRIG_OK:
        return None
    return hi, lo
