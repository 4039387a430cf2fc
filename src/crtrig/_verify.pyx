# cython: language_level=3, boundscheck=False, wraparound=False
"""Thin Cython layer over src/verify/verify_f32.c: crtrig's float32 sin/cos
checked against the C library's x87 long double sinl/cosl.

This module holds only the oracle (verify_f32.c).  The values under test come
from the C core in crtrig._core, through its public per-target entry point
crtrig_trig_strided_target, which this module cimports (crtrig/_core.pxd; the
address is taken from crtrig._core's ``__pyx_capi__`` when this module is
imported): the kernels checked are those of the SIMD target index passed
(``target``: 0 baseline, 1 avx2, 2 avx512; ``simd_targets()`` lists those
available), whichever target crtrig._core chose for itself.

Used by ``python -m crtrig verify`` (crtrig/verify.py), which also checks the
escalated inputs exactly.  verify_block and verify_inputs release the GIL
while the C code runs.
"""
from libc.stdint cimport uint32_t, uint64_t
from cpython.mem cimport PyMem_Malloc, PyMem_Free
cimport numpy as cnp

import numpy as np

cnp.import_array()

cdef extern from "verify_f32.h" nogil:
    enum: VERIFY_F32_MAX_BLOCK
    enum: VERIFY_F32_OK
    enum: VERIFY_F32_NO_X87_LONG_DOUBLE
    enum: VERIFY_F32_REDUCED_PRECISION
    enum: VERIFY_F32_NOT_NEAREST
    enum: VERIFY_F32_BAD_ARGUMENT
    enum: VERIFY_F32_CRTRIG_FAILED
    enum: VERIFY_F32_NO_TARGET
    enum: VERIFY_F32_MIN_MARGIN_LOG2
    enum: VERIFY_F32_MAX_MARGIN_LOG2
    ctypedef struct verify_f32_mismatch:
        uint32_t input
        uint32_t got
        uint32_t expected
    # The three arrays are inline arrays of VERIFY_F32_MAX_BLOCK entries in C;
    # declaring them as pointers is enough for Cython to index them.
    ctypedef struct verify_f32_block_result:
        uint64_t checked
        uint64_t nonfinite
        uint64_t wrong
        uint64_t escalated
        uint32_t *escalated_inputs
        uint32_t *escalated_results
        verify_f32_mismatch *mismatches
    int verify_f32_oracle_status()
    int verify_f32_long_double_digits()
    int verify_f32_block(int func, const uint32_t *inputs, const uint32_t *results, size_t count,
                         int margin_log2, verify_f32_block_result *result)
    int verify_f32_oracle_value(int func, uint32_t input, void *value)

cdef extern from "crtrig/crtrig.h" nogil:
    enum: CRTRIG_OK
    enum: CRTRIG_FLOAT32

# From crtrig._core, at import (the C core is linked there only).
from crtrig._core cimport core_trig_strided_target, core_target_name

#: Inputs handed to the C code per call.
BLOCK_SIZE = VERIFY_F32_MAX_BLOCK
#: Accepted range of margin_log2 (the margin is 2**-margin_log2 relative).
MIN_MARGIN_LOG2 = VERIFY_F32_MIN_MARGIN_LOG2
MAX_MARGIN_LOG2 = VERIFY_F32_MAX_MARGIN_LOG2
#: The default margin: 2**-56 relative (see verify_f32.c for why).
DEFAULT_MARGIN_LOG2 = 56

#: crtrig_trig_func codes.
FUNCS = {"sin": 0, "cos": 1, "sinpi": 2, "cospi": 3, "tan": 4, "tanpi": 5}

_STATUS_MESSAGES = {
    VERIFY_F32_NO_X87_LONG_DOUBLE:
        "long double is not the x87 80-bit format here (LDBL_MANT_DIG = %d)",
    VERIFY_F32_REDUCED_PRECISION: "the x87 precision control is below 64 bits",
    VERIFY_F32_NOT_NEAREST: "the rounding mode is not round-to-nearest",
    VERIFY_F32_BAD_ARGUMENT: "bad function, block size or margin",
    VERIFY_F32_CRTRIG_FAILED: "crtrig_trig_strided_target returned an error",
    VERIFY_F32_NO_TARGET: "the SIMD target is unknown or not supported by this CPU",
}

#: Number of SIMD target indices of the C core (0 baseline, 1 avx2, 2 avx512).
TARGET_COUNT = 3


def simd_targets():
    """Names of the SIMD targets of crtrig's core (in crtrig._core) that this
    CPU supports, by index (None where unsupported)."""
    cdef int i
    names = []
    for i in range(TARGET_COUNT):
        name = core_target_name(i)
        names.append(None if name == NULL else name.decode())
    return names


def long_double_digits():
    """Significand bits of C long double in this build (64 for x87)."""
    return verify_f32_long_double_digits()


def oracle_unavailable_reason():
    """None when the long double oracle works here, else why it does not."""
    cdef int status = verify_f32_oracle_status()
    if status == VERIFY_F32_OK:
        return None
    return _status_message(status)


cdef str _status_message(int status):
    message = _STATUS_MESSAGES.get(status, "error %d" % status)
    if status == VERIFY_F32_NO_X87_LONG_DOUBLE:
        message = message % verify_f32_long_double_digits()
    return message


cdef int _check(int status) except -1:
    if status == VERIFY_F32_OK:
        return 0
    if status == VERIFY_F32_BAD_ARGUMENT or status == VERIFY_F32_NO_TARGET:
        raise ValueError("crtrig._verify: " + _status_message(status))
    raise RuntimeError("crtrig._verify: " + _status_message(status))


cdef int _func_code(func) except -1:
    if func in FUNCS:
        return FUNCS[func]
    if func in (0, 1, 2, 3, 4, 5):
        return func
    raise ValueError("func must be 'sin', 'cos', 'sinpi', 'cospi', 'tan' or 'tanpi', got %r" % (func,))


cdef class _Tally:
    """Accumulates block results; converted to a dict at the end."""
    cdef public uint64_t checked, nonfinite, wrong
    cdef public list escalated_inputs, escalated_results, wrong_examples
    cdef public Py_ssize_t max_examples

    def __init__(self, Py_ssize_t max_examples):
        self.checked = self.nonfinite = self.wrong = 0
        self.escalated_inputs = []
        self.escalated_results = []
        self.wrong_examples = []
        self.max_examples = max_examples

    cdef void add(self, verify_f32_block_result *block):
        cdef uint64_t i
        self.checked += block.checked
        self.nonfinite += block.nonfinite
        self.wrong += block.wrong
        for i in range(block.escalated):
            self.escalated_inputs.append(block.escalated_inputs[i])
            self.escalated_results.append(block.escalated_results[i])
        for i in range(block.wrong):
            if len(self.wrong_examples) >= self.max_examples:
                break
            self.wrong_examples.append((block.mismatches[i].input, block.mismatches[i].got,
                                        block.mismatches[i].expected))

    def as_dict(self):
        return {
            "checked": int(self.checked),
            "nonfinite": int(self.nonfinite),
            "wrong": int(self.wrong),
            "escalated_inputs": np.array(self.escalated_inputs, dtype=np.uint32),
            "escalated_results": np.array(self.escalated_results, dtype=np.uint32),
            "wrong_examples": list(self.wrong_examples),
        }


def verify_block(func, first_bits, count, int margin_log2=DEFAULT_MARGIN_LOG2,
                 _corrupt_for_test=None, Py_ssize_t max_examples=20, int target=0):
    """Check crtrig's float32 `func`, computed by the kernels of SIMD target
    index `target` (default 0, baseline), on the `count` consecutive bit
    patterns first_bits, first_bits + 1, ... (all below 2**32).  An
    unavailable target raises ValueError.

    Returns a dict:

    * ``checked``: inputs the oracle decided (so compared here), including
      ``nonfinite`` NaN/inf inputs, which must give NaN;
    * ``wrong``: how many of those crtrig got wrong, with up to
      ``max_examples`` of them in ``wrong_examples`` as
      ``(input_bits, crtrig_bits, expected_bits)``;
    * ``escalated_inputs`` (uint32 array): inputs whose oracle value lies
      within the margin of a float32 rounding boundary, to be checked
      exactly by the caller, and ``escalated_results``: crtrig's results
      for them.

    ``checked + len(escalated_inputs) == count``.  ``_corrupt_for_test``: a
    bit pattern whose crtrig result gets its last bit flipped (a test hook).
    """
    cdef uint64_t first = first_bits, n = count
    if n > (<uint64_t>1 << 32) or first > (<uint64_t>1 << 32) - n:
        raise ValueError("the block must lie within the 2**32 bit patterns")
    return _verify(target, _func_code(func), first, n, None, margin_log2, _corrupt_for_test,
                   max_examples)


def verify_inputs(func, inputs, int margin_log2=DEFAULT_MARGIN_LOG2,
                  _corrupt_for_test=None, Py_ssize_t max_examples=20, int target=0):
    """Like verify_block, for the float32 bit patterns in the array `inputs`."""
    array = np.ascontiguousarray(inputs, dtype=np.uint32)
    return _verify(target, _func_code(func), 0, array.shape[0], array, margin_log2,
                   _corrupt_for_test, max_examples)


cdef int _check_block(int target, int func, const uint32_t *inputs, uint32_t *results, size_t count,
                      int margin_log2, int corrupt_enabled, uint32_t corrupt_input,
                      verify_f32_block_result *block) noexcept nogil:
    """The values under test from the core's kernels of SIMD target index
    `target` (with the test hook's flipped bit), then the oracle's check."""
    cdef size_t i
    if core_trig_strided_target(target, func, CRTRIG_FLOAT32, <const char *>inputs, sizeof(uint32_t),
                                <char *>results, sizeof(uint32_t), count) != CRTRIG_OK:
        return VERIFY_F32_CRTRIG_FAILED
    if corrupt_enabled:
        for i in range(count):
            if inputs[i] == corrupt_input:
                results[i] ^= 1
    return verify_f32_block(func, inputs, results, count, margin_log2, block)


cdef dict _verify(int target, int func, uint64_t first, uint64_t count, object input_array,
                  int margin_log2, object corrupt_for_test, Py_ssize_t max_examples):
    cdef const uint32_t[::1] given
    cdef uint32_t *block_inputs = NULL
    cdef uint32_t *block_results = NULL
    cdef verify_f32_block_result *block = NULL
    cdef uint64_t start, i, length
    cdef int status
    cdef int corrupt_enabled = corrupt_for_test is not None
    cdef uint32_t corrupt_input
    cdef _Tally tally = _Tally(max_examples)

    if corrupt_enabled and not 0 <= corrupt_for_test <= 0xFFFFFFFF:
        raise ValueError("_corrupt_for_test must be a float32 bit pattern (0 <= bits < 2**32)")
    corrupt_input = corrupt_for_test if corrupt_enabled else 0

    if not (MIN_MARGIN_LOG2 <= margin_log2 <= MAX_MARGIN_LOG2):
        raise ValueError("margin_log2 must lie in [%d, %d]" % (MIN_MARGIN_LOG2, MAX_MARGIN_LOG2))
    _check(verify_f32_oracle_status())
    if core_target_name(target) == NULL:
        _check(VERIFY_F32_NO_TARGET)
    if input_array is not None:
        given = input_array
    block = <verify_f32_block_result *>PyMem_Malloc(sizeof(verify_f32_block_result))
    block_inputs = <uint32_t *>PyMem_Malloc(VERIFY_F32_MAX_BLOCK * sizeof(uint32_t))
    block_results = <uint32_t *>PyMem_Malloc(VERIFY_F32_MAX_BLOCK * sizeof(uint32_t))
    if block == NULL or block_inputs == NULL or block_results == NULL:
        PyMem_Free(block)
        PyMem_Free(block_inputs)
        PyMem_Free(block_results)
        raise MemoryError()
    try:
        start = 0
        while start < count:
            length = min(<uint64_t>VERIFY_F32_MAX_BLOCK, count - start)
            if input_array is None:
                for i in range(length):
                    block_inputs[i] = <uint32_t>(first + start + i)
            else:
                for i in range(length):
                    block_inputs[i] = given[start + i]
            with nogil:
                status = _check_block(target, func, block_inputs, block_results, length,
                                      margin_log2, corrupt_enabled, corrupt_input, block)
            _check(status)
            tally.add(block)
            start += length
    finally:
        PyMem_Free(block)
        PyMem_Free(block_inputs)
        PyMem_Free(block_results)
    return tally.as_dict()


def oracle_values(func, inputs):
    """sinl/cosl of the float32 bit patterns in `inputs`, as a numpy
    longdouble array (for checking the oracle itself)."""
    cdef int code = _func_code(func)
    array = np.ascontiguousarray(inputs, dtype=np.uint32)
    if np.dtype(np.longdouble).itemsize < 10 or verify_f32_long_double_digits() != 64:
        _check(VERIFY_F32_NO_X87_LONG_DOUBLE)
    cdef const uint32_t[::1] bits = array
    out = np.empty(array.shape[0], dtype=np.longdouble)
    cdef char *out_data = <char *>cnp.PyArray_DATA(out)
    cdef Py_ssize_t i, stride = out.strides[0] if array.shape[0] else 0
    for i in range(array.shape[0]):
        _check(verify_f32_oracle_value(code, bits[i], out_data + i * stride))
    return out
