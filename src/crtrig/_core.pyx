# cython: language_level=3, boundscheck=False, wraparound=False
"""Thin Cython layer over the C core: the sin/cos ufunc loop tables, window
fills, and test hooks.

Argument checking and dtype resolution for windows live in
crtrig/_windows.py; this module only takes already validated arguments.
"""
from libc.stdint cimport int64_t, uint64_t
from cpython.exc cimport PyErr_SetString
cimport numpy as cnp
from numpy cimport npy_intp, PyUFuncGenericFunction, PyUFunc_FromFuncAndData, PyUFunc_RegisterLoopForType

import numpy as np
import ml_dtypes

cnp.import_array()
cnp.import_ufunc()

cdef extern from "Python.h":
    int PyGILState_Check() nogil  # callable without the GIL: it reports whether we hold it

cdef extern from "crtrig/crtrig.h" nogil:
    ctypedef struct crtrig_eval_options:
        int first_stage
        int multi_start_bits
    ctypedef struct crtrig_stage_counts:
        uint64_t exact
        uint64_t by_stage[3]
        uint64_t multi_retries
        uint64_t mirrored
    int crtrig_window_ex(int kind, int64_t size, int periodic, int dtype, char *out,
                         Py_ssize_t stride, const crtrig_eval_options *opt,
                         crtrig_stage_counts *counts)
    int crtrig_window_element(int kind, uint64_t n, uint64_t D, int dtype,
                              const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                              double *result)
    int crtrig_trig_strided(int func, int dtype, const char *inp, Py_ssize_t in_stride,
                            char *out, Py_ssize_t out_stride, size_t count)
    int crtrig_trig_element(int func, int dtype, double x, const crtrig_eval_options *opt,
                            crtrig_stage_counts *counts, double *result)
    void crtrig_sincos_pass_value_baseline(int func, double x, double *y, double *e)
    void crtrig_window_pass_value_baseline(int kind, double n, double D, double *w, double *e)
    const char *crtrig_init(const char *requested)
    const char *crtrig_target_name(int i)
    int crtrig_trig_strided_target(int target, int func, int dtype, const char *inp,
                                   Py_ssize_t in_stride, char *out, Py_ssize_t out_stride,
                                   size_t count)
    int crtrig_window_stage_value(int kind, uint64_t n, uint64_t D, int stage,
                                  double *hi, double *lo)
    int crtrig_sincos_pass_target(int target, int func, int dtype, const char *inp, char *out,
                                  size_t count, unsigned char *undecided)
    int crtrig_sincos64_value_target(int target, int func, double x, int large, double *hi,
                                     double *lo, double *e, int *flag)
    int crtrig_window_pass_target(int target, int kind, uint64_t first, uint64_t D, int dtype,
                                  size_t count, char *out, unsigned char *undecided)
    int crtrig_window64_value_target(int target, int kind, uint64_t n, uint64_t D, double *hi,
                                     double *lo, double *e, int *flag)
    int CRTRIG_OK, CRTRIG_EINVAL, CRTRIG_ENOMEM, CRTRIG_ENOCONV
    int64_t CRTRIG_WINDOW_MAX_SIZE

WINDOW_MAX_SIZE = CRTRIG_WINDOW_MAX_SIZE


def _choose_simd_target():
    """Pick the SIMD target once, at import: the best this CPU supports, or the
    one named by the environment variable CRTRIG_TARGET (baseline, avx2, avx512)
    if supported.  Every target gives the same (correctly rounded) results."""
    import os
    requested = os.environ.get("CRTRIG_TARGET")
    if requested:
        return crtrig_init(requested.encode()).decode()
    return crtrig_init(NULL).decode()


SIMD_TARGET = _choose_simd_target()


def simd_targets():
    """Names of the SIMD targets compiled in and supported by this CPU, by index."""
    cdef int i
    names = []
    for i in range(3):
        name = crtrig_target_name(i)
        names.append(None if name == NULL else name.decode())
    return names
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
            "multi-precision retries": counts.multi_retries, "mirrored": counts.mirrored}


cdef void _init(crtrig_eval_options *opt, crtrig_stage_counts *counts,
                int first_stage, int multi_start_bits) noexcept:
    opt.first_stage = first_stage
    opt.multi_start_bits = multi_start_bits
    counts.exact = 0
    counts.by_stage[0] = counts.by_stage[1] = counts.by_stage[2] = 0
    counts.multi_retries = 0
    counts.mirrored = 0


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


# ---------------------------------------------------------------------------
# sin and cos ufuncs
# ---------------------------------------------------------------------------

cdef enum:
    DTYPE_FLOAT16 = 0
    DTYPE_BFLOAT16 = 1
    DTYPE_FLOAT32 = 2
    DTYPE_FLOAT64 = 3

ctypedef struct TrigLoop:
    int func            # crtrig_trig_func: 0 sin, 1 cos
    int dtype           # crtrig_dtype of input and output
    int record_gil      # test hook (only the probe ufunc sets it)
    int gil_was_held    # written by the loop when record_gil is set


cdef void trig_loop(char **args, npy_intp *dimensions, npy_intp *steps, void *data) noexcept nogil:
    cdef TrigLoop *loop = <TrigLoop *>data
    cdef int rc
    if loop.record_gil:
        loop.gil_was_held = PyGILState_Check()
    rc = crtrig_trig_strided(loop.func, loop.dtype, args[0], steps[0], args[1], steps[1],
                             <size_t>dimensions[0])
    if rc != CRTRIG_OK:
        with gil:
            _set_loop_error(rc)


cdef void _set_loop_error(int rc) noexcept:
    if rc == CRTRIG_ENOMEM:
        PyErr_SetString(MemoryError, b"crtrig: out of memory in the multi-precision stage")
    else:
        PyErr_SetString(RuntimeError, b"crtrig: sin/cos failed in the multi-precision stage")


# Static tables: the ufunc objects keep pointers into them.  The loops are listed
# e, f, d, so numpy's type resolution picks the smallest safe one, as np.sin does:
# Python floats, lists, int32 and int64 go to float64, int16 to float32, int8,
# uint8 and bool to float16.
cdef TrigLoop loops[3][4]        # [sin, cos, probe sin][float16, float32, float64, bfloat16]
cdef void *loop_data[3][3]
cdef PyUFuncGenericFunction loop_funcs[3]
cdef char loop_types[6]
cdef int bfloat16_types[2]

BFLOAT16_TYPE_NUMBER = np.dtype(ml_dtypes.bfloat16).num

_TRIG_DOC = ("{Name}, element-wise, correctly rounded (ONNX {Op}-22).\n\n"
             "For float16, bfloat16 (ml_dtypes), float32 and float64 inputs, each result is\n"
             "the exact {name} rounded once to nearest-even into the input's type, for every\n"
             "input (subnormals, huge arguments with exact range reduction{zero}).\n"
             "Python floats, lists of floats and int32/int64 arrays are computed in float64,\n"
             "as numpy's own {lower} does (int16 in float32, int8, uint8 and bool in float16).\n"
             "+-inf gives NaN with numpy's 'invalid value' warning; NaN gives NaN silently.\n"
             "A float32 input with a float16 out= is computed in float32 and cast by numpy\n"
             "(two roundings): exact float16 results come from float16 inputs.")
# Module globals: the ufuncs keep pointers into these bytes objects.
_SIN_DOC = _TRIG_DOC.format(Name="Sine", Op="Sin", name="sine", lower="np.sin",
                           zero=", -0.0 kept").encode()
_COS_DOC = _TRIG_DOC.format(Name="Cosine", Op="Cos", name="cosine", lower="np.cos",
                           zero="").encode()


cdef object _make_trig_ufunc(int which, int func, bytes name, bytes doc):
    cdef int i
    for i, dtype in enumerate((DTYPE_FLOAT16, DTYPE_FLOAT32, DTYPE_FLOAT64, DTYPE_BFLOAT16)):
        loops[which][i].func = func
        loops[which][i].dtype = dtype
        loops[which][i].record_gil = which == 2
        loops[which][i].gil_was_held = -1
    for i in range(3):
        loop_data[which][i] = &loops[which][i]
    ufunc = PyUFunc_FromFuncAndData(loop_funcs, loop_data[which], loop_types, 3, 1, 1,
                                    -1, name, doc, 0)  # -1: PyUFunc_None (no identity)
    PyUFunc_RegisterLoopForType(ufunc, BFLOAT16_TYPE_NUMBER, <PyUFuncGenericFunction>trig_loop,
                                bfloat16_types, &loops[which][3])
    return ufunc


# The casts: numpy's C headers declare the loop type with const npy_intp * (Cython's
# .pxd without const), and GCC 14 (the manylinux_2_28 image) and clang 16+ reject the
# implicit conversion between the two function pointer types.
loop_funcs[0] = <PyUFuncGenericFunction>trig_loop
loop_funcs[1] = <PyUFuncGenericFunction>trig_loop
loop_funcs[2] = <PyUFuncGenericFunction>trig_loop
loop_types[0] = cnp.NPY_FLOAT16
loop_types[1] = cnp.NPY_FLOAT16
loop_types[2] = cnp.NPY_FLOAT
loop_types[3] = cnp.NPY_FLOAT
loop_types[4] = cnp.NPY_DOUBLE
loop_types[5] = cnp.NPY_DOUBLE
bfloat16_types[0] = BFLOAT16_TYPE_NUMBER
bfloat16_types[1] = BFLOAT16_TYPE_NUMBER

sin = _make_trig_ufunc(0, 0, b"sin", _SIN_DOC)
cos = _make_trig_ufunc(1, 1, b"cos", _COS_DOC)
_gil_probe_sin = _make_trig_ufunc(2, 0, b"_gil_probe_sin", b"Test hook: sin that records PyGILState_Check().")


def gil_probe_result():
    """Test hook: PyGILState_Check() inside the last loop run by _gil_probe_sin,
    per dtype (float16, float32, bfloat16); -1 where it has not run."""
    return tuple(loops[2][i].gil_was_held for i in (0, 1, 3))


def trig_element(int func, int dtype_code, double x, int first_stage=0, int multi_start_bits=0):
    """Test hook: (value, stage counts) of sin (func 0) or cos (1) of x, correctly
    rounded into dtype_code's format (0 float16, 1 bfloat16, 2 float32)."""
    cdef crtrig_eval_options opt
    cdef crtrig_stage_counts counts
    cdef double result = 0.0
    _init(&opt, &counts, first_stage, multi_start_bits)
    _check(crtrig_trig_element(func, dtype_code, x, &opt, &counts, &result))
    return result, _counts_dict(&counts)


_TRIG_CODES = {np.dtype(np.float16): DTYPE_FLOAT16, np.dtype(ml_dtypes.bfloat16): DTYPE_BFLOAT16,
               np.dtype(np.float32): DTYPE_FLOAT32, np.dtype(np.float64): DTYPE_FLOAT64}


def trig_with_target(int target, int func, cnp.ndarray x):
    """Test hook: sin (func 0) or cos (1) of the 1-D float16, bfloat16, float32 or
    float64 array x through the kernels of SIMD target index `target` (see simd_targets())."""
    codes = _TRIG_CODES
    if x.dtype not in codes or x.ndim != 1:
        raise TypeError("x must be a 1-D float16, bfloat16, float32 or float64 array")
    out = np.empty_like(x)
    _check(crtrig_trig_strided_target(target, func, codes[x.dtype],
                                      <const char *>cnp.PyArray_DATA(x), cnp.PyArray_STRIDES(x)[0],
                                      <char *>cnp.PyArray_DATA(out), cnp.PyArray_STRIDES(out)[0],
                                      <size_t>x.shape[0]))
    return out


def first_pass_value(str what, int which, double a, double b=0.0):
    """Test hook: (value, bound) of the SIMD first pass (baseline build).
    what="sincos": which = 0 sin / 1 cos, a = x (2^-120 <= |x| < 2^24);
    what="window": which = kind, a = n, b = D."""
    cdef double v = 0.0, e = 0.0
    if what == "sincos":
        crtrig_sincos_pass_value_baseline(which, a, &v, &e)
    elif what == "window":
        crtrig_window_pass_value_baseline(which, a, b, &v, &e)
    else:
        raise ValueError(what)
    return v, e


def first_pass_with_target(int target, int func, cnp.ndarray x):
    """Test hook: the first pass alone of SIMD target index `target` over the
    contiguous 1-D float16, bfloat16, float32 or float64 array x: (out, undecided),
    where out[i] is the correctly rounded sin (func 0) or cos (1) of x[i] wherever
    undecided[i] == 0 (1: outside the pass, 2: rounding test failed)."""
    if x.dtype not in _TRIG_CODES or x.ndim != 1 or not x.flags.c_contiguous:
        raise TypeError("x must be a contiguous 1-D float16, bfloat16, float32 or float64 array")
    out = np.empty_like(x)
    undecided = np.empty(x.shape[0], np.uint8)
    _check(crtrig_sincos_pass_target(target, func, _TRIG_CODES[x.dtype],
                                     <const char *>cnp.PyArray_DATA(x), <char *>cnp.PyArray_DATA(out),
                                     <size_t>x.shape[0], <unsigned char *>cnp.PyArray_DATA(undecided)))
    return out, undecided


def sincos64_pass_value(int target, int func, double x, bint large):
    """Test hook: (hi, lo, e, flag) of the float64 first pass of SIMD target index
    `target` for one x (finite, |x| >= 2^-27; large=False needs |x| < 2^17): its
    unrounded value hi + lo, the bound e it rounds with, and its undecided code."""
    cdef double hi = 0.0, lo = 0.0, e = 0.0
    cdef int flag = 0
    _check(crtrig_sincos64_value_target(target, func, x, large, &hi, &lo, &e, &flag))
    return hi, lo, e, flag


def window_pass_with_target(int target, int kind, uint64_t first, uint64_t D, int dtype_code,
                            Py_ssize_t count):
    """Test hook: the window first pass of SIMD target index `target` for the
    format of dtype_code (0 float16 .. 3 float64) over n = first .. first + count - 1
    (<= D, 1 <= D <= 2^52): (values, undecided), values[i] final where undecided[i] == 0."""
    dtypes = {0: np.float16, 1: ml_dtypes.bfloat16, 2: np.float32, 3: np.float64}
    if dtype_code not in dtypes or count < 0:
        raise ValueError("dtype_code must be 0..3 and count >= 0")
    out = np.empty(count, dtypes[dtype_code])
    undecided = np.empty(count, np.uint8)
    _check(crtrig_window_pass_target(target, kind, first, D, dtype_code, <size_t>count,
                                     <char *>cnp.PyArray_DATA(out),
                                     <unsigned char *>cnp.PyArray_DATA(undecided)))
    return out, undecided


def window64_pass_value(int target, int kind, uint64_t n, uint64_t D):
    """Test hook: (hi, lo, e, flag) of the float64 window pass of SIMD target index
    `target` for w[n] (0 <= n <= D, 1 <= D <= 2^52)."""
    cdef double hi = 0.0, lo = 0.0, e = 0.0
    cdef int flag = 0
    _check(crtrig_window64_value_target(target, kind, n, D, &hi, &lo, &e, &flag))
    return hi, lo, e, flag
