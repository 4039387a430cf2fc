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

cnp.import_array()
cnp.import_ufunc()

cdef extern from "threads.h" nogil:
    int crtrig_test_require_all_workers(int on)
    void crtrig_test_pool_details(long *cap, long *stack_size, long *worker_stack, long *exits)
    long crtrig_test_wait_for_pool_workers(long at_most, long timeout_ms)

cdef extern from "exp.h" nogil:
    int crtrig_exp_affine_fill(double x0, double step, size_t count, double d_hi, double d_lo, double s,
                               int P, int fmt, double *out, unsigned char *undecided, size_t *n_undecided)
    int crtrig_exp_affine_fill_target(int target, double x0, double step, size_t count, double d_hi,
                                      double d_lo, double s, int P, int fmt, double *out,
                                      unsigned char *undecided, size_t *n_undecided)
    int crtrig_test_exp_dd(int target, double y_hi, double y_lo, double *hi, double *lo, double *rel)
    int crtrig_exp_real_fill(int target, double x0, double step, size_t count, double d_hi, double d_lo,
                             double p_hi, double p_lo, int fmt, double *out, unsigned char *undecided,
                             size_t *n_undecided)

cdef extern from "log.h" nogil:
    int crtrig_test_log_dd(int target, double y_hi, double y_lo, double *hi, double *lo, double *err)
    int CRTRIG_EXP_MAX_POWER

cdef extern from "bessel_i0.h" nogil:
    int crtrig_kaiser_fill(double c_hi, double c_lo, double inv_hi, double inv_lo, uint64_t L, size_t count,
                           int fmt, double *out, unsigned char *undecided, size_t *n_undecided)
    int crtrig_kaiser_fill_target(int target, double c_hi, double c_lo, double inv_hi, double inv_lo, uint64_t L,
                                  size_t count, int fmt, double *out, unsigned char *undecided,
                                  size_t *n_undecided)
    double CRTRIG_KAISER_MAX_BETA

cdef extern from "window_kbd.h" nogil:
    int crtrig_kbd_fill_target(int target, double c_hi, double c_lo, uint64_t L, int fmt, double *out,
                               unsigned char *undecided, size_t *n_undecided)

cdef extern from "dispatch.h" nogil:
    int crtrig_tan64_value_target(int target, double x, int mode, double *hi, double *lo, double *e,
                                  int *flag)

cdef extern from "window_sinc.h" nogil:
    int crtrig_sinc_window_fill(int kind, uint64_t D, size_t count, int fmt, double *out,
                                unsigned char *undecided, size_t *n_undecided)
    int crtrig_sinc_window_fill_target(int target, int kind, uint64_t D, size_t count, int fmt, double *out,
                                       unsigned char *undecided, size_t *n_undecided)
    int crtrig_test_sinc_constant(int j, double *hi, double *lo)
    uint64_t CRTRIG_SINC_MAX_D

cdef extern from "window_lin_sin2.h" nogil:
    int crtrig_lin_sin2_fill_target(int target, uint64_t D, size_t count, double k_hi, double k_lo, double b_hi,
                                    double b_lo, double *out, size_t *n_undecided)

cdef extern from "window_taylor.h" nogil:
    int crtrig_taylor_window_fill(uint64_t L, size_t count, size_t K, const double *a_hi, const double *a_lo,
                                  int centre_one, int fmt, double *out, unsigned char *undecided,
                                  size_t *n_undecided)
    int crtrig_taylor_window_fill_target(int target, uint64_t L, size_t count, size_t K, const double *a_hi,
                                         const double *a_lo, int centre_one, int fmt, double *out,
                                         unsigned char *undecided, size_t *n_undecided)
    uint64_t CRTRIG_TAYLOR_MAX_L
    size_t CRTRIG_TAYLOR_MAX_K
    double CRTRIG_TAYLOR_MAX_SUM

cdef extern from "selfcheck.h" nogil:
    ctypedef struct crtrig_selfcheck_window_input:
        int kind
        uint64_t alpha_num
        uint64_t alpha_den
        uint64_t D
        uint64_t r0
        int count
        int step
    ctypedef struct crtrig_selfcheck_target_report:
        int tried
        int mismatches
        int index
        uint64_t input
        int window_range
        uint64_t phase
        uint64_t got
        uint64_t want
    ctypedef struct crtrig_selfcheck_report:
        int status
        int active
        int chosen
        size_t inputs
        crtrig_selfcheck_target_report target[3]
    int CRTRIG_SELFCHECK_WINDOW, CRTRIG_SELFCHECK_PASSES, CRTRIG_SELFCHECK_MAX_INPUTS
    int CRTRIG_SELFCHECK_NOT_RUN, CRTRIG_SELFCHECK_DONE, CRTRIG_SELFCHECK_REFERENCE
    int CRTRIG_SELFCHECK_UNAVAILABLE
    const void *crtrig_selfcheck_trig_inputs(int pass_, size_t *count, size_t *clean)
    const crtrig_selfcheck_window_input *crtrig_selfcheck_window_inputs(size_t *ranges)
    size_t crtrig_selfcheck_input_count(int pass_)
    int crtrig_selfcheck_failed(int pass_)
    int crtrig_selfcheck_report_get(int pass_, crtrig_selfcheck_report *report)
    int crtrig_selfcheck_run_trig(int func, int dtype, int publish)
    int crtrig_selfcheck_run_window(int fmt, int publish)
    int crtrig_test_selfcheck_fault(int target, int pass_, int index)
    long crtrig_test_selfcheck_runs(int pass_)

cdef extern from "Python.h":
    # Declared without an exception value: a warning that a filter turns into an
    # error stays set for numpy to raise when the ufunc loop returns.
    int PyErr_WarnEx(object category, const char *message, Py_ssize_t stack_level)

cdef extern from "_ufunc_errors.h":
    int crtrig_wrap_type_resolver(object ufunc)

cdef extern from "Python.h":
    int PyGILState_Check() nogil  # callable without the GIL: it reports whether we hold it

cdef extern from "crtrig/crtrig.h" nogil:
    ctypedef struct crtrig_eval_options:
        int first_stage
        int multi_start_bits
        int simd_target
    ctypedef struct crtrig_stage_counts:
        uint64_t exact
        uint64_t by_stage[3]
        uint64_t multi_retries
        uint64_t mirrored
    ctypedef struct crtrig_window_spec:
        int kind
        uint64_t alpha_num
        uint64_t alpha_den
    ctypedef struct crtrig_cosum_spec:
        int terms
        const int *negative
        const uint64_t *num
        const uint64_t *den
        const double *poly_hi
        const double *poly_lo
        const uint64_t *skip
        size_t skip_count
        int lin_negative
        uint64_t lin_num
        uint64_t lin_den
        double lin_hi
        double lin_lo
    int crtrig_cosum_phases_ex(const crtrig_cosum_spec *spec, uint64_t D, int64_t first, int64_t step,
                               int64_t count, int dtype, char *out, Py_ssize_t stride,
                               const crtrig_eval_options *opt, crtrig_stage_counts *counts)
    int crtrig_cosum_window_ex(const crtrig_cosum_spec *spec, int64_t size, int periodic, int dtype,
                               char *out, Py_ssize_t stride, const crtrig_eval_options *opt,
                               crtrig_stage_counts *counts)
    int crtrig_cosum_element(const crtrig_cosum_spec *spec, uint64_t n, uint64_t D, int dtype,
                             const crtrig_eval_options *opt, crtrig_stage_counts *counts, double *result)
    int crtrig_window_spec_ex(const crtrig_window_spec *spec, int64_t size, int periodic, int dtype,
                              char *out, Py_ssize_t stride, const crtrig_eval_options *opt,
                              crtrig_stage_counts *counts)
    int crtrig_window_spec_range(const crtrig_window_spec *spec, int64_t size, int periodic, int dtype,
                                 char *out, Py_ssize_t stride, uint64_t lo, uint64_t hi,
                                 const crtrig_eval_options *opt, crtrig_stage_counts *counts)
    int crtrig_window_spec_element(const crtrig_window_spec *spec, uint64_t n, uint64_t D, int dtype,
                                   const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                                   double *result)
    int crtrig_window_spec_stage_value(const crtrig_window_spec *spec, uint64_t n, uint64_t D, int stage,
                                       double *hi, double *lo)
    int crtrig_window_spec_pass_target(int target, const crtrig_window_spec *spec, uint64_t first,
                                       uint64_t D, int dtype, size_t count, char *out,
                                       unsigned char *undecided)
    int crtrig_window_spec_table_value_target(int target, const crtrig_window_spec *spec, uint64_t n,
                                              uint64_t D, uint64_t B, int dtype, double *hi, double *lo,
                                              double *e, int *flag)
    int CRTRIG_GENERAL_HAMMING
    int crtrig_window_ex(int kind, int64_t size, int periodic, int dtype, char *out,
                         Py_ssize_t stride, const crtrig_eval_options *opt,
                         crtrig_stage_counts *counts)
    int crtrig_window_range(int kind, int64_t size, int periodic, int dtype, char *out,
                            Py_ssize_t stride, uint64_t lo, uint64_t hi, const crtrig_eval_options *opt,
                            crtrig_stage_counts *counts)
    int crtrig_window_element(int kind, uint64_t n, uint64_t D, int dtype,
                              const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                              double *result)
    int crtrig_trig_strided(int func, int dtype, const char *inp, Py_ssize_t in_stride,
                            char *out, Py_ssize_t out_stride, size_t count)
    int crtrig_trig_strided_ex(int func, int dtype, const char *inp, Py_ssize_t in_stride,
                               char *out, Py_ssize_t out_stride, size_t count,
                               const crtrig_eval_options *opt, crtrig_stage_counts *counts)
    int crtrig_trig_element(int func, int dtype, double x, const crtrig_eval_options *opt,
                            crtrig_stage_counts *counts, double *result)
    const char *crtrig_init(const char *requested)
    const char *crtrig_target_name(int i)
    const char *crtrig_target_index_name(int i)
    int CRTRIG_NUM_TARGETS
    int crtrig_window_stage_value(int kind, uint64_t n, uint64_t D, int stage,
                                  double *hi, double *lo)
    ctypedef struct crtrig_fp_state:
        int rounding
        int ftz
        int daz
        int flags
        uint64_t control
        uint64_t status
    const char *crtrig_fpenv_method()
    void crtrig_fp_state_get(crtrig_fp_state *state)
    int crtrig_fp_run_under(const crtrig_fp_state *state, int (*fn)(void *) noexcept nogil,
                            void *arg, crtrig_fp_state *before, crtrig_fp_state *after,
                            int *fn_result)
    long crtrig_test_fail_allocation(long k)
    int crtrig_test_table16_built(int func, int dtype)
    int crtrig_trig_dd_value(int func, double x, double *hi, double *lo, double *bound)
    int crtrig_tan_dd_value(int func, double x, double *hi, double *lo, double *bound)
    int crtrig_trig_values_raw(int func, int dtype, const double *x, size_t count,
                               const crtrig_eval_options *opt, crtrig_stage_counts *counts,
                               double *result, signed char *stages) nogil
    int crtrig_sincos_pass_target(int target, int func, int dtype, const char *inp, char *out,
                                  size_t count, unsigned char *undecided)
    int crtrig_sincos32_value_target(int target, int func, double x, double *y, double *e)
    int crtrig_sincos64_value_target(int target, int func, double x, int mode, double *hi,
                                     double *lo, double *e, int *flag)
    int crtrig_window_pass_target(int target, int kind, uint64_t first, uint64_t D, int dtype,
                                  size_t count, char *out, unsigned char *undecided)
    int crtrig_trig_strided_target(int target, int func, int dtype, const char *inp,
                                   Py_ssize_t in_stride, char *out, Py_ssize_t out_stride,
                                   size_t count)
    int crtrig_window_table_value_target(int target, int kind, uint64_t n, uint64_t D, uint64_t B,
                                         int dtype, double *hi, double *lo, double *e, int *flag)
    int crtrig_sinpi_table_build_target(int target, uint64_t m0, int64_t step, uint64_t M, size_t count,
                                        double *s_hi, double *s_lo, double *c_hi, double *c_lo)
    int crtrig_sinpi_ratio_dd_value(int use_cos, uint64_t a, uint64_t b, double *hi, double *lo)
    int crtrig_set_num_threads(int n)
    int crtrig_get_num_threads()
    const char *crtrig_threads_method()
    long crtrig_test_parallel_threshold(long n)
    void crtrig_test_pool_stats(long *workers, long *jobs, long *shares)
    int CRTRIG_MAX_THREADS
    int CRTRIG_OK, CRTRIG_EINVAL, CRTRIG_ENOMEM, CRTRIG_ENOCONV
    int64_t CRTRIG_WINDOW_MAX_SIZE

WINDOW_MAX_SIZE = CRTRIG_WINDOW_MAX_SIZE
GENERAL_HAMMING = CRTRIG_GENERAL_HAMMING


# Exported to crtrig._verify through _core.pxd (Cython's __pyx_capi__), so that
# the C core is linked into this module only.
cdef int core_trig_strided_target(int target, int func, int dtype, const char *inp,
                                  Py_ssize_t in_stride, char *out, Py_ssize_t out_stride,
                                  size_t count) noexcept nogil:
    return crtrig_trig_strided_target(target, func, dtype, inp, in_stride, out, out_stride, count)


cdef const char *core_target_name(int i) noexcept nogil:
    return crtrig_target_name(i)


def _supported_target_slots():
    """The SIMD target names by target index (0 baseline, 1 avx2, 2 avx512):
    the name where the target is compiled in and this CPU supports it, None
    elsewhere.  Private: the public crtrig.simd_targets() lists the names."""
    cdef int i
    names = []
    for i in range(CRTRIG_NUM_TARGETS):
        name = crtrig_target_name(i)
        names.append(None if name == NULL else name.decode())
    return names


def _known_simd_targets():
    """Names of every SIMD target index, available here or not."""
    return [crtrig_target_index_name(i).decode() for i in range(CRTRIG_NUM_TARGETS)]


def _requested_target(raw, known, supported):
    """The target name to request for the value `raw` of CRTRIG_TARGET (bytes or
    str, or None when unset): None for the best one (unset or empty), else the
    known name it spells in any letter case.  RuntimeError for anything else:
    an unknown name (bytes that are not ASCII included) or a target this CPU
    lacks."""
    if raw is None or len(raw) == 0:
        return None
    if isinstance(raw, bytes):
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            text = None
    else:
        text = raw if raw.isascii() else None
    choices = (f"valid targets: {', '.join(known)}; "
               f"supported here: {', '.join(name for name in supported if name)}")
    shown = repr(raw)[1:] if isinstance(raw, bytes) else repr(raw)  # '\xff...' for raw bytes
    name = text.lower() if text is not None else None
    if name not in known:
        raise RuntimeError(f"crtrig: CRTRIG_TARGET={shown} is not a SIMD target name ({choices})")
    if name not in supported:
        raise RuntimeError(f"crtrig: CRTRIG_TARGET={shown} names a SIMD target this CPU or build "
                           f"lacks ({choices})")
    return name


def _choose_simd_target():
    """Pick the SIMD target once, at import: the best this CPU supports, or the
    one named by the environment variable CRTRIG_TARGET (baseline, avx2, avx512,
    any letter case; empty means unset).  Every target gives the same
    (correctly rounded) results."""
    import os
    environb = getattr(os, "environb", None)  # POSIX: the bytes as set, whatever their encoding
    raw = environb.get(b"CRTRIG_TARGET") if environb is not None else os.environ.get("CRTRIG_TARGET")
    cdef const char *chosen
    cdef bytes encoded
    name = _requested_target(raw, _known_simd_targets(), _supported_target_slots())
    if name is None:
        chosen = crtrig_init(NULL)
    else:
        encoded = name.encode("ascii")
        chosen = crtrig_init(encoded)
    if chosen == NULL:  # _requested_target checked the name; kept as a guard
        raise RuntimeError(f"crtrig: CRTRIG_TARGET={raw!r} could not be selected")
    return chosen.decode()


SIMD_TARGET = _choose_simd_target()
FPENV_METHOD = crtrig_fpenv_method().decode()
STAGES = ("double", "double-double", "multi-precision")


# ---------------------------------------------------------------------------
# The self-check of the SIMD first passes (src/core/selfcheck.h)
# ---------------------------------------------------------------------------

#: Names of the self-checked passes, by pass number: (function, float format).
SELFCHECK_PASSES = tuple([(func, fmt) for func in ("sin", "cos")
                          for fmt in ("float16", "bfloat16", "float32", "float64")]
                         + [("window", fmt) for fmt in ("float16", "bfloat16", "float32", "float64")]
                         + [(func, fmt) for func in ("sinpi", "cospi") for fmt in ("float32", "float64")]
                         + [(func, fmt) for func in ("tan", "tanpi") for fmt in ("float32", "float64")])
#: (func code, dtype code) of each sin/cos/sinpi/cospi/tan/tanpi pass (None for the windows').
_TRIG_PASS_CODES = tuple([(f, d) for f in (0, 1) for d in range(4)] + [None] * 4
                         + [(f, d) for f in (2, 3, 4, 5) for d in (2, 3)])
#: The window pass of each window dtype code (integer outputs are casts of float32's).
cdef int _WINDOW_FORMAT[12]
_WINDOW_FORMAT[:] = [0, 1, 2, 3, 2, 2, 2, 2, 2, 2, 2, 2]
#: Per pass: the RuntimeWarning has been raised (read and written with the GIL held).
cdef int _selfcheck_warned[20]
_selfcheck_warned[:] = [0] * 20
_SELFCHECK_STATUS = {CRTRIG_SELFCHECK_NOT_RUN: "not run", CRTRIG_SELFCHECK_DONE: "checked",
                     CRTRIG_SELFCHECK_REFERENCE: "reference", CRTRIG_SELFCHECK_UNAVAILABLE: "unavailable"}
_WINDOW_NAMES = {0: "hann", 1: "hamming", 2: "blackman", CRTRIG_GENERAL_HAMMING: "general_hamming"}


def selfcheck_pass(str func, str fmt):
    """The pass number of (function, float format): func "sin", "cos" or "window"."""
    return SELFCHECK_PASSES.index((func, fmt))


def _value_of_bits(uint64_t bits, str fmt):
    """The float value of `bits` in the float format fmt, as a Python float."""
    import struct
    if fmt == "float64":
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    if fmt == "float32":
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    if fmt == "bfloat16":
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    return float(np.array([bits], np.uint16).view(np.float16)[0])


def _short_hex(double x):
    """float.hex() without the trailing zeros of the fraction (0x1.921fb6p+0), or inf, nan."""
    if x != x or x in (float("inf"), float("-inf")):
        return repr(x)
    mantissa, _, exponent = x.hex().partition("p")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}p{exponent}"


def _bits_text(uint64_t bits, str fmt):
    digits = {"float16": 4, "bfloat16": 4, "float32": 8, "float64": 16}[fmt]
    return f"0x{bits:0{digits}x}"


def selfcheck_inputs(int pass_):
    """The stored inputs of a pass: for sin/cos (an array of their bits, uint16,
    uint32 or uint64; the length of its clean part), for the windows a list of
    (window, alpha, D, first phase, count, table step) ranges, alpha =
    (numerator, denominator) or None."""
    cdef size_t count = 0, clean = 0, k
    cdef const void *data
    cdef const crtrig_selfcheck_window_input *ranges
    if not 0 <= pass_ < CRTRIG_SELFCHECK_PASSES:
        raise ValueError(f"pass must be 0 .. {CRTRIG_SELFCHECK_PASSES - 1}")
    if _TRIG_PASS_CODES[pass_] is not None:
        data = crtrig_selfcheck_trig_inputs(pass_, &count, &clean)
        dtype = {"float16": np.uint16, "bfloat16": np.uint16, "float32": np.uint32,
                 "float64": np.uint64}[SELFCHECK_PASSES[pass_][1]]
        size = np.dtype(dtype).itemsize
        return np.frombuffer((<const char *>data)[:count * size], dtype=dtype).copy(), clean
    ranges = crtrig_selfcheck_window_inputs(&count)
    return [(_WINDOW_NAMES[ranges[k].kind],
             (ranges[k].alpha_num, ranges[k].alpha_den) if ranges[k].kind == CRTRIG_GENERAL_HAMMING else None,
             ranges[k].D, ranges[k].r0, ranges[k].count, ranges[k].step) for k in range(count)]


def selfcheck_report():
    """The self-check's outcome for every pass, as a list of dicts (see
    crtrig.show_config()): function, format, status ("not run", "checked",
    "reference": the active target is the baseline, "unavailable": this build
    cannot publish outcomes and uses the baseline), active and chosen target
    names, inputs (how many the check compares) and, per target tried from the
    active one down, whether it passed and its first mismatch."""
    cdef crtrig_selfcheck_report rep
    cdef int p, t
    names = _known_simd_targets()
    report = []
    for p in range(CRTRIG_SELFCHECK_PASSES):
        crtrig_selfcheck_report_get(p, &rep)
        func, fmt = SELFCHECK_PASSES[p]
        entry = {"function": func, "format": fmt, "status": _SELFCHECK_STATUS[rep.status],
                 "active": names[rep.active], "target": names[rep.chosen], "inputs": rep.inputs,
                 "tried": []}
        for t in range(rep.active, 0, -1):
            r = rep.target[t]
            if not r.tried:
                continue
            tried = {"target": names[t], "passed": r.mismatches == 0, "mismatches": r.mismatches}
            if r.mismatches:
                tried.update(index=r.index, got=r.got, want=r.want)
                if _TRIG_PASS_CODES[p] is not None:
                    tried.update(input=r.input, value=_value_of_bits(r.input, fmt))
                else:
                    window, alpha, D = selfcheck_inputs(p)[r.window_range][:3]
                    tried.update(window=window, alpha=alpha, D=D, n=r.phase)
            entry["tried"].append(tried)
        report.append(entry)
    return report


def mismatch_text(entry, tried):
    """What a target that failed the check of a pass (an entry of selfcheck_report()
    and one of its "tried") gave, in words."""
    fmt = entry["format"]
    got, want = _bits_text(tried["got"], fmt), _bits_text(tried["want"], fmt)
    if entry["function"] == "window":
        alpha = "" if tried["alpha"] is None else f" (alpha = {tried['alpha'][0]}/{tried['alpha'][1]})"
        what = f"the {fmt} {tried['window']} window{alpha} with D = {tried['D']} at n = {tried['n']}"
        stored = "phases"
    else:
        what = (f"{entry['function']} of the {fmt} input {_short_hex(tried['value'])} "
                f"(bits {_bits_text(tried['input'], fmt)})")
        stored = "inputs"
    return (f"{what} gave {got}, the scalar path {want} ({tried['mismatches']} of {entry['inputs']} "
            f"stored {stored} differ)")


def pass_text(entry):
    """The computations a pass serves, in words: "sin of float32", "float32 windows"."""
    if entry["function"] == "window":
        return f"{entry['format']} windows" + (" (and the integer ones, casts of float32's)"
                                               if entry["format"] == "float32" else "")
    return f"{entry['function']} of {entry['format']}"


def selfcheck_messages(int pass_):
    """The RuntimeWarning texts of a pass whose check failed, one per target that
    failed (empty when the pass keeps the active target)."""
    entry = selfcheck_report()[pass_]
    messages = []
    for tried in entry["tried"]:
        if not tried["passed"]:
            verb = "use" if entry["function"] == "window" else "uses"
            messages.append(f"crtrig: the {tried['target']} kernels failed their self-check: "
                            f"{mismatch_text(entry, tried)}; {pass_text(entry)} {verb} {entry['target']} "
                            f"in this process (see crtrig.show_config())")
    return messages


def _outside_stacklevel():
    """The stacklevel of warnings.warn, called from this module, that names the
    first frame outside the crtrig package (the caller's code)."""
    import os
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    frame = sys._getframe(0)  # from Cython code: the innermost Python frame
    level = 1
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == here:
        frame = frame.f_back
        level += 1
    return level


def _warn_selfcheck(int pass_):
    """Raise the RuntimeWarning of a failed pass once per process (a no-op for a
    pass that passed or has not run)."""
    import warnings
    if _selfcheck_warned[pass_] or not crtrig_selfcheck_failed(pass_):
        return
    _selfcheck_warned[pass_] = 1
    for message in selfcheck_messages(pass_):
        warnings.warn(message, RuntimeWarning, stacklevel=_outside_stacklevel())


cdef void _warn_selfcheck_loop(int pass_) noexcept:
    """_warn_selfcheck from a ufunc loop (with the GIL): through PyErr_WarnEx, so
    that a warning turned into an error is left set for numpy to raise; stack level
    1 is the frame that called the ufunc."""
    cdef bytes text
    if _selfcheck_warned[pass_]:
        return
    _selfcheck_warned[pass_] = 1
    for message in selfcheck_messages(pass_):
        text = message.encode()
        if PyErr_WarnEx(RuntimeWarning, text, 1) < 0:
            return


def selfcheck_run_all():
    """Run the checks not run yet (as the first call of each pass would), then
    raise the warnings of the passes that failed; returns selfcheck_report()."""
    cdef int p
    for p in range(CRTRIG_SELFCHECK_PASSES):
        if _TRIG_PASS_CODES[p] is not None:
            crtrig_selfcheck_run_trig(_TRIG_PASS_CODES[p][0], _TRIG_PASS_CODES[p][1], 1)
        else:
            crtrig_selfcheck_run_window(p - CRTRIG_SELFCHECK_WINDOW, 1)
    for p in range(CRTRIG_SELFCHECK_PASSES):
        _warn_selfcheck(p)
    return selfcheck_report()


def _selfcheck_rerun(int pass_):
    """Test hook (the cost measurement): run the check of a pass again, in full,
    published nowhere and not counted; returns the name of the target it picks."""
    cdef int t, func = -1, dtype = -1
    if not 0 <= pass_ < CRTRIG_SELFCHECK_PASSES:
        raise ValueError(f"pass must be 0 .. {CRTRIG_SELFCHECK_PASSES - 1}")
    if _TRIG_PASS_CODES[pass_] is not None:
        func, dtype = _TRIG_PASS_CODES[pass_]
    with nogil:
        if func >= 0:
            t = crtrig_selfcheck_run_trig(func, dtype, 0)
        else:
            t = crtrig_selfcheck_run_window(pass_ - CRTRIG_SELFCHECK_WINDOW, 0)
    if t < 0:
        raise MemoryError("crtrig: out of memory for the self-check's workspace")
    return _known_simd_targets()[t]


def _selfcheck_fault(int target, int pass_, int index):
    """Test hook: from now on the first pass `pass_` of SIMD target index `target`
    (1 avx2, 2 avx512) is wrong at stored input `index` (its result's lowest bit
    flipped), in every call, as a broken kernel would be; one fault per target
    (arming another replaces it), index -1 repairs it."""
    if crtrig_test_selfcheck_fault(target, pass_, index) != CRTRIG_OK:
        raise ValueError("target must be 1 or 2, pass 0 .. 11 and index a stored input (or -1)")


def _selfcheck_runs(int pass_):
    """Test hook: how many checks of a pass have run in this process."""
    return crtrig_test_selfcheck_runs(pass_)


def _selfcheck_input_count(int pass_):
    """What a check of the pass compares: its stored inputs (window phases)."""
    return crtrig_selfcheck_input_count(pass_)


# ---------------------------------------------------------------------------
# Threads (the count is chosen and checked in crtrig/_threads.py)
# ---------------------------------------------------------------------------

MAX_THREADS = CRTRIG_MAX_THREADS
THREADS_METHOD = crtrig_threads_method().decode()
_thread_choice = ("default", "")


def _set_num_threads(int n, str chosen_by, str detail=""):
    """Set the process-wide thread count of the C core (1 .. MAX_THREADS) and
    record how it was chosen, for thread_config()."""
    global _thread_choice
    if crtrig_set_num_threads(n) != CRTRIG_OK:
        raise ValueError(f"crtrig: the thread count must be from 1 to {MAX_THREADS}; got {n}")
    _thread_choice = (chosen_by, detail)


def get_num_threads():
    """The process-wide thread count of the C core."""
    return crtrig_get_num_threads()


def thread_config():
    """For crtrig.show_config(): the thread count, how it was chosen
    ("default", "CRTRIG_NUM_THREADS" or "set_num_threads") with a detail
    (e.g. how many CPUs were found, and how), the largest count accepted, the
    parallel threshold in elements, and the threading API ("pthreads", "win32")."""
    return {"num_threads": crtrig_get_num_threads(), "chosen_by": _thread_choice[0],
            "detail": _thread_choice[1], "max_threads": MAX_THREADS,
            "parallel_threshold": crtrig_test_parallel_threshold(-1), "method": THREADS_METHOD}


def _set_parallel_threshold(long n):
    """Test hook: calls over at least n elements (n >= 0) use the thread pool;
    returns the previous threshold."""
    if n < 0:
        raise ValueError("the threshold must be >= 0")
    return crtrig_test_parallel_threshold(n)


def _require_all_workers(bint on):
    """Test hook: with on, the caller of a split call waits until all its
    workers have joined before it runs its own share (so that workers always
    take part, however busy the machine).  Returns the previous setting."""
    return bool(crtrig_test_require_all_workers(on))


def pool_stats():
    """Test hook: the pool's workers started in this process, the jobs run on
    several threads and the shares run by workers since the process started
    (a forked child starts with the parent's job counts and no workers)."""
    cdef long workers = 0, jobs = 0, shares = 0
    crtrig_test_pool_stats(&workers, &jobs, &shares)
    return {"workers": workers, "parallel_jobs": jobs, "worker_shares": shares}


def pool_details():
    """Test hook: the pool's cap (the most threads one call runs on, the caller
    included), the stack size asked for each worker, the stack size the last
    worker started found it has (0 before any worker, or where the system
    cannot tell) and the workers retired since the process started.  Before
    the pool exists: what one created now would have."""
    cdef long cap = 0, stack_size = 0, worker_stack = 0, exits = 0
    crtrig_test_pool_details(&cap, &stack_size, &worker_stack, &exits)
    return {"max_threads_per_call": cap, "stack_size": stack_size, "worker_stack_size": worker_stack,
            "worker_exits": exits}


def _wait_for_pool_workers(long at_most, double timeout=60.0):
    """Test hook: wait (without the GIL) until the pool has at most `at_most`
    workers running, or `timeout` seconds have passed; the number running then."""
    cdef long ms = <long>(timeout * 1000.0)
    cdef long running
    if at_most < 0 or timeout < 0:
        raise ValueError("at_most and timeout must be >= 0")
    with nogil:
        running = crtrig_test_wait_for_pool_workers(at_most, ms)
    return running


cdef int _check(int rc) except -1:
    if rc == CRTRIG_OK:
        return 0
    if rc == CRTRIG_ENOMEM:
        raise MemoryError("crtrig: out of memory for the multi-precision workspace or a window's table")
    if rc == CRTRIG_ENOCONV:
        raise RuntimeError("crtrig: the multi-precision stage reached its precision cap")
    raise ValueError("crtrig: invalid window arguments")


cdef dict _counts_dict(crtrig_stage_counts *counts):
    return {"exact": counts.exact, "double": counts.by_stage[0],
            "double-double": counts.by_stage[1], "multi-precision": counts.by_stage[2],
            "multi-precision retries": counts.multi_retries, "mirrored": counts.mirrored}


cdef void _init(crtrig_eval_options *opt, crtrig_stage_counts *counts,
                int first_stage, int multi_start_bits, int simd_target=0) noexcept:
    opt.first_stage = first_stage
    opt.multi_start_bits = multi_start_bits
    opt.simd_target = simd_target
    counts.exact = 0
    counts.by_stage[0] = counts.by_stage[1] = counts.by_stage[2] = 0
    counts.multi_retries = 0
    counts.mirrored = 0


cdef crtrig_window_spec _spec(int kind, object alpha) except *:
    """The C spec of window `kind`; alpha = (numerator, denominator) for
    GENERAL_HAMMING (already checked by crtrig.windows: 0 <= num <= den < 2**64)."""
    cdef crtrig_window_spec spec
    spec.kind = kind
    spec.alpha_num = 0
    spec.alpha_den = 0
    if alpha is not None:
        spec.alpha_num = alpha[0]
        spec.alpha_den = alpha[1]
    return spec


def fill_window(int kind, int64_t size, bint periodic, int dtype_code, cnp.ndarray out,
                int first_stage=0, int multi_start_bits=0, int simd_target=-1, alpha=None):
    """Fill the 1-D array `out` (length `size`, dtype `dtype_code`) with the window
    (kind GENERAL_HAMMING takes alpha = (numerator, denominator)).

    `first_stage`, `multi_start_bits` and `simd_target` (a target index; -1 for
    the active one) are test hooks (0, 0, -1 = normal operation).
    Returns the number of elements decided by each stage, as a dict.
    """
    cdef crtrig_eval_options opt
    cdef crtrig_stage_counts counts
    cdef crtrig_window_spec spec = _spec(kind, alpha)
    cdef char *data = <char *>cnp.PyArray_DATA(out)
    cdef Py_ssize_t stride = cnp.PyArray_STRIDES(out)[0] if cnp.PyArray_NDIM(out) == 1 else 0
    cdef int rc
    _init(&opt, &counts, first_stage, multi_start_bits, simd_target + 1)
    with nogil:
        rc = crtrig_window_spec_ex(&spec, size, periodic, dtype_code, data, stride, &opt, &counts)
    _check(rc)
    if simd_target < 0:
        _warn_selfcheck(CRTRIG_SELFCHECK_WINDOW + _WINDOW_FORMAT[dtype_code])
    return _counts_dict(&counts)


cdef class _CosumSpec:
    """A crtrig_cosum_spec and the arrays it points into."""
    cdef crtrig_cosum_spec spec
    cdef int neg_arr[16]
    cdef uint64_t num_arr[16]
    cdef uint64_t den_arr[16]
    cdef double hi_arr[16]
    cdef double lo_arr[16]
    cdef object skip_arr

    def __cinit__(self, terms, poly, skip, lin=None):
        cdef int K = len(terms), k
        cdef cnp.ndarray skips = np.ascontiguousarray(np.asarray(skip, dtype=np.uint64))
        if K < 1 or K > 16 or len(poly) != K:
            raise ValueError("crtrig: a cosine sum has 1 to 16 terms")
        for k in range(K):
            self.neg_arr[k] = 1 if terms[k][0] else 0
            self.num_arr[k] = terms[k][1]
            self.den_arr[k] = terms[k][2]
            self.hi_arr[k] = poly[k][0]
            self.lo_arr[k] = poly[k][1]
        self.skip_arr = skips
        self.spec.terms = K
        self.spec.negative = self.neg_arr
        self.spec.num = self.num_arr
        self.spec.den = self.den_arr
        self.spec.poly_hi = self.hi_arr
        self.spec.poly_lo = self.lo_arr
        self.spec.skip = <const uint64_t *>cnp.PyArray_DATA(skips)
        self.spec.skip_count = <size_t>skips.shape[0]
        self.spec.lin_negative = 0
        self.spec.lin_num = 0
        self.spec.lin_den = 1
        self.spec.lin_hi = 0.0
        self.spec.lin_lo = 0.0
        if lin is not None:  # (negative, num, den, hi, lo)
            self.spec.lin_negative = 1 if lin[0] else 0
            self.spec.lin_num = lin[1]
            self.spec.lin_den = lin[2]
            self.spec.lin_hi = lin[3]
            self.spec.lin_lo = lin[4]


def fill_cosum_phases(uint64_t D, int64_t first, int64_t step, int dtype_code, cnp.ndarray out, terms, poly,
                      skip, lin=None, int first_stage=0, int multi_start_bits=0):
    """Fill out[i] (i < len(out)) with the cosine sum (plus the optional lin r/D
    term) at the folded phase of first + i step, denominator D
    (crtrig_cosum_phases_ex); elements whose folded phase is in `skip` are left
    alone.  Returns the stage counts, as a dict."""
    cdef crtrig_eval_options opt
    cdef crtrig_stage_counts counts
    cdef _CosumSpec holder = _CosumSpec(terms, poly, skip, lin)
    cdef char *data = <char *>cnp.PyArray_DATA(out)
    cdef Py_ssize_t stride = cnp.PyArray_STRIDES(out)[0]
    cdef int64_t count = cnp.PyArray_DIMS(out)[0]
    cdef int rc
    _init(&opt, &counts, first_stage, multi_start_bits, 0)
    with nogil:
        rc = crtrig_cosum_phases_ex(&holder.spec, D, first, step, count, dtype_code, data, stride, &opt, &counts)
    _check(rc)
    return _counts_dict(&counts)


def cosum_element(terms, poly, uint64_t n, uint64_t D, int dtype_code, int first_stage=0,
                  int multi_start_bits=0, lin=None):
    """Test hook: element n of the cosine-sum window (crtrig_cosum_element), as a
    double, and the stage counts."""
    cdef crtrig_eval_options opt
    cdef crtrig_stage_counts counts
    cdef _CosumSpec holder = _CosumSpec(terms, poly, (), lin)
    cdef double result = 0.0
    cdef int rc
    _init(&opt, &counts, first_stage, multi_start_bits, 0)
    with nogil:
        rc = crtrig_cosum_element(&holder.spec, n, D, dtype_code, &opt, &counts, &result)
    _check(rc)
    return result, _counts_dict(&counts)


def fill_cosum_window(int64_t size, bint periodic, int dtype_code, cnp.ndarray out, terms, poly, skip,
                      int first_stage=0, int multi_start_bits=0):
    """Fill the 1-D array `out` (length `size` >= 2, dtype `dtype_code`) with the
    cosine-sum window w[n] = sum_k b_k cos(2 pi k n/D) (crtrig_cosum_window_ex):
    terms = [(negative, num, den)] per b_k, poly = [(hi, lo)] per power of c,
    skip = ascending folded phases not written (checked by crtrig.windows;
    the C core checks them again).  first_stage, multi_start_bits: test hooks.
    Returns the stage counts, as a dict."""
    cdef crtrig_eval_options opt
    cdef crtrig_stage_counts counts
    cdef _CosumSpec holder = _CosumSpec(terms, poly, skip)
    cdef char *data = <char *>cnp.PyArray_DATA(out)
    cdef Py_ssize_t stride = cnp.PyArray_STRIDES(out)[0]
    cdef int rc
    _init(&opt, &counts, first_stage, multi_start_bits, 0)
    with nogil:
        rc = crtrig_cosum_window_ex(&holder.spec, size, periodic, dtype_code, data, stride, &opt, &counts)
    _check(rc)
    return _counts_dict(&counts)


def fill_window_range(int kind, int64_t size, bint periodic, int dtype_code, cnp.ndarray out,
                      uint64_t lo, uint64_t hi, int first_stage=0, int simd_target=-1, alpha=None):
    """Test hook: fill_window for the elements [lo, hi) of `out` only (what one
    thread of a split fill computes); returns the stage counts."""
    cdef crtrig_eval_options opt
    cdef crtrig_stage_counts counts
    cdef char *data = <char *>cnp.PyArray_DATA(out)
    cdef Py_ssize_t stride = cnp.PyArray_STRIDES(out)[0] if cnp.PyArray_NDIM(out) == 1 else 0
    cdef int rc
    cdef crtrig_window_spec spec = _spec(kind, alpha)
    _init(&opt, &counts, first_stage, 0, simd_target + 1)
    with nogil:
        rc = crtrig_window_spec_range(&spec, size, periodic, dtype_code, data, stride, lo, hi, &opt, &counts)
    _check(rc)
    return _counts_dict(&counts)


def window_element(int kind, uint64_t n, uint64_t D, int dtype_code,
                   int first_stage=0, int multi_start_bits=0, alpha=None):
    """Test hook: (value, stage counts) of element n of a window with denominator D,
    correctly rounded into dtype_code's float format (float32 for integers)."""
    cdef crtrig_eval_options opt
    cdef crtrig_stage_counts counts
    cdef double result = 0.0
    _init(&opt, &counts, first_stage, multi_start_bits)
    cdef crtrig_window_spec spec = _spec(kind, alpha)
    _check(crtrig_window_spec_element(&spec, n, D, dtype_code, &opt, &counts, &result))
    return result, _counts_dict(&counts)


def window_stage_value(int kind, uint64_t n, uint64_t D, int stage, alpha=None):
    """Test hook: (hi, lo) of the unrounded double (stage 0) or double-double
    (stage 1) value of w[n], or None at an exact point."""
    cdef double hi = 0.0, lo = 0.0
    cdef crtrig_window_spec spec = _spec(kind, alpha)
    if crtrig_window_spec_stage_value(&spec, n, D, stage, &hi, &lo) != CRTRIG_OK:
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
    int func            # crtrig_trig_func: 0 sin, 1 cos, 2 sinpi, 3 cospi, 4 tan, 5 tanpi
    int dtype           # crtrig_dtype of input and output
    int record_gil      # test hook (only the probe ufunc sets it)
    int selfcheck_pass  # the self-check pass of (func, dtype), -1 if none (sinpi/cospi 16-bit, tan, tanpi)
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
    elif loop.selfcheck_pass >= 0 and crtrig_selfcheck_failed(loop.selfcheck_pass):  # one atomic load; 0 unless a target failed
        with gil:
            _warn_selfcheck_loop(loop.selfcheck_pass)


cdef void _set_loop_error(int rc) noexcept:
    if rc == CRTRIG_ENOMEM:
        PyErr_SetString(MemoryError, b"crtrig: out of memory for the multi-precision workspace")
    else:
        PyErr_SetString(RuntimeError, b"crtrig: sin/cos failed in the multi-precision stage")


# Static tables: the ufunc objects keep pointers into them.  The loops are listed
# e, f, d, so numpy's type resolution picks the smallest safe one, as np.sin does:
# Python floats, lists, int32 and int64 go to float64, int16 to float32, int8,
# uint8 and bool to float16.
cdef TrigLoop loops[7][4]        # [sin, cos, probe sin, sinpi, cospi, tan, tanpi][float16, float32, float64, bfloat16]
cdef void *loop_data[7][3]
cdef PyUFuncGenericFunction loop_funcs[3]
cdef char loop_types[6]
cdef int bfloat16_types[2]

#: ml_dtypes.bfloat16's type number once _register_bfloat16_loops has run, else None.
BFLOAT16_TYPE_NUMBER = None

_TRIG_DOC = ("{Name}, element-wise, correctly rounded (ONNX {Op}-22).\n\n"
             "For float16, bfloat16 (ml_dtypes), float32 and float64 inputs, each result is\n"
             "the exact {name} rounded once to nearest-even into the input's type, for every\n"
             "input (subnormals, huge arguments with exact range reduction{zero}).\n"
             "Python floats, lists of floats and int32/int64 arrays are computed in float64,\n"
             "as numpy's own {lower} does (int16 in float32, int8, uint8 and bool in float16).\n"
             "+-inf gives NaN with numpy's 'invalid value' warning; NaN gives NaN silently.\n"
             "A float32 input with a float16 out= is computed in float32 and cast by numpy\n"
             "(two roundings): exact float16 results come from float16 inputs.\n\n"
             "Parameters\n----------\n"
             "x : array_like\n"
             "    Angles in radians: float16, bfloat16, float32 or float64 (or what numpy\n"
             "    promotes to one of them).\n"
             "out : ndarray, None, or tuple of ndarray and None, optional\n"
             "    Where to put the result, as for any ufunc; any overlap with `x` gives\n"
             "    what a copy of `x` would.\n"
             "where : array_like, optional\n"
             "    Compute only where True, as for any ufunc.\n"
             "**kwargs\n"
             "    The other ufunc keywords (`dtype`, `signature`, `casting`, `order`).\n\n"
             "Returns\n-------\n"
             "y : ndarray or scalar\n"
             "    The correctly rounded {name} of each element, in the input's type; a\n"
             "    scalar if `x` is one.\n\n"
             "Raises\n------\n"
             "TypeError\n"
             "    `x` has a type with no loop (complex, longdouble, object, strings); the\n"
             "    message names crtrig and the types it accepts.\n"
             "FloatingPointError\n"
             "    An input is +-inf under ``np.errstate(invalid='raise')`` (else numpy's\n"
             "    RuntimeWarning).  Finite inputs raise nothing, not even under\n"
             "    ``np.errstate(all='raise')``.\n"
             "MemoryError\n"
             "    The multi-precision workspace cannot be allocated.\n\n"
             "Examples\n--------\n"
             "{examples}")
# Module globals: the ufuncs keep pointers into these bytes objects.
_SIN_DOC = _TRIG_DOC.format(Name="Sine", Op="Sin", name="sine", lower="np.sin",
                           zero=", -0.0 kept", examples=(
    ">>> import numpy as np, crtrig\n"
    ">>> print(crtrig.sin(np.float32([0.5, 3.0, 1e30])))\n"
    "[ 0.47942555  0.14112    -0.79116344]\n"
    ">>> print(crtrig.sin(np.linspace(0, 1, 3)))\n"
    "[0.         0.47942554 0.84147098]\n"
    ">>> print(crtrig.sin(-0.0))\n"
    "-0.0\n"
    ">>> with np.errstate(invalid='raise'):\n"
    "...     crtrig.sin(np.float32(np.inf))\n"
    "Traceback (most recent call last):\n"
    "FloatingPointError: invalid value encountered in crtrig_sin\n")).encode()
_COS_DOC = _TRIG_DOC.format(Name="Cosine", Op="Cos", name="cosine", lower="np.cos",
                           zero="", examples=(
    ">>> import numpy as np, crtrig\n"
    ">>> print(crtrig.cos(np.float32([0.0, 0.5, 1e30])))\n"
    "[ 1.          0.87758255 -0.6116048 ]\n"
    ">>> print(crtrig.cos(np.arange(3, dtype=np.float16)))\n"
    "[ 1.      0.5405 -0.4163]\n"
    ">>> crtrig.cos(np.complex128(1))\n"
    "Traceback (most recent call last):\n"
    "TypeError: crtrig.cos accepts float16, bfloat16 (ml_dtypes), float32 and float64 (...); got complex128\n")).encode()
_TRIGPI_DOC = ("{Name} of pi times x, element-wise, correctly rounded (IEEE 754-2019 {Op}).\n\n"
               "For float16, bfloat16 (ml_dtypes), float32 and float64 inputs, each result is\n"
               "the exact {lower}(pi x) rounded once to nearest-even into the input's type, for\n"
               "every input: x mod 2 is taken exactly, so {name}(1e6) is exactly {big}, where\n"
               "np.{lower}(np.pi * x) is not.  Special values as IEEE 754-2019 9.2.1: {special}.\n"
               "Python floats, lists of floats and int32/int64 arrays are computed in float64\n"
               "(int16 in float32, int8, uint8 and bool in float16), as for crtrig.sin.\n"
               "+-inf gives NaN with numpy's 'invalid value' warning; NaN gives NaN silently.\n\n"
               "Parameters\n----------\n"
               "x : array_like\n"
               "    Half-turns (x = 1 is pi radians): float16, bfloat16, float32 or float64.\n"
               "out : ndarray, None, or tuple of ndarray and None, optional\n"
               "    Where to put the result, as for any ufunc; any overlap with `x` gives\n"
               "    what a copy of `x` would.\n"
               "where : array_like, optional\n"
               "    Compute only where True, as for any ufunc.\n"
               "**kwargs\n"
               "    The other ufunc keywords (`dtype`, `signature`, `casting`, `order`).\n\n"
               "Returns\n-------\n"
               "y : ndarray or scalar\n"
               "    The correctly rounded {lower}(pi x) of each element, in the input's type.\n\n"
               "Raises\n------\n"
               "TypeError\n"
               "    `x` has a type with no loop (complex, longdouble, object, strings).\n"
               "FloatingPointError\n"
               "    An input is +-inf under ``np.errstate(invalid='raise')`` (else numpy's\n"
               "    RuntimeWarning).  Finite inputs raise nothing.\n"
               "MemoryError\n"
               "    The multi-precision workspace cannot be allocated.\n\n"
               "Examples\n--------\n"
               "{examples}")
_TAN_DOC = ("Tangent, element-wise, correctly rounded (ONNX Tan-22).\n\n"
            "For float16, bfloat16 (ml_dtypes), float32 and float64 inputs, each result is\n"
            "the exact tangent rounded once to nearest-even into the input's type, for every\n"
            "input (subnormals, huge arguments with the exact range reduction of crtrig.sin,\n"
            "-0.0 kept).  No double is a pole.  float16's one overflow, tan(+-177.5) =\n"
            "+-66347.4, gives +-inf with numpy's 'overflow' warning, as np.tan does.\n"
            "Python floats, lists of floats and int32/int64 arrays are computed in float64\n"
            "(int16 in float32, int8, uint8 and bool in float16), as for crtrig.sin.\n"
            "+-inf gives NaN with numpy's 'invalid value' warning; NaN gives NaN silently.\n\n"
            "Parameters\n----------\n"
            "x : array_like\n"
            "    Angles in radians: float16, bfloat16, float32 or float64.\n"
            "out : ndarray, None, or tuple of ndarray and None, optional\n"
            "    Where to put the result, as for any ufunc; any overlap with `x` gives\n"
            "    what a copy of `x` would.\n"
            "where : array_like, optional\n"
            "    Compute only where True, as for any ufunc.\n"
            "**kwargs\n"
            "    The other ufunc keywords (`dtype`, `signature`, `casting`, `order`).\n\n"
            "Returns\n-------\n"
            "y : ndarray or scalar\n"
            "    The correctly rounded tangent of each element, in the input's type.\n\n"
            "Raises\n------\n"
            "TypeError\n"
            "    `x` has a type with no loop (complex, longdouble, object, strings).\n"
            "FloatingPointError\n"
            "    An input is +-inf under ``np.errstate(invalid='raise')``, or a float16\n"
            "    result overflows under ``np.errstate(over='raise')`` (else numpy's\n"
            "    RuntimeWarning).\n"
            "MemoryError\n"
            "    The multi-precision workspace cannot be allocated.\n\n"
            "Examples\n--------\n"
            ">>> import numpy as np, crtrig\n"
            ">>> print(crtrig.tan(np.float32([0.5, 1.5, 1e30])))\n"
            "[ 0.5463025 14.10142    1.2935861]\n").encode()
_TANPI_DOC = ("Tangent of pi times x, element-wise, correctly rounded (IEEE 754-2019 tanPi).\n\n"
              "For float16, bfloat16 (ml_dtypes), float32 and float64 inputs, each result is\n"
              "the exact tan(pi x) rounded once to nearest-even into the input's type, for\n"
              "every input: x mod 1 is taken exactly.  Special values as IEEE 754-2019 9.2.1:\n"
              "tanpi(+-0) = +-0; tanpi(n) = +0 for positive even and negative odd integers n,\n"
              "-0 for positive odd and negative even n; tanpi(n + 1/2) = +inf for even n,\n"
              "-inf for odd n, with numpy's 'divide by zero' warning; tanpi(n +- 1/4) = +-1.\n"
              "Python floats, lists of floats and int32/int64 arrays are computed in float64\n"
              "(int16 in float32, int8, uint8 and bool in float16), as for crtrig.sin.\n"
              "+-inf gives NaN with numpy's 'invalid value' warning; NaN gives NaN silently.\n\n"
              "Parameters\n----------\n"
              "x : array_like\n"
              "    Half-turns (x = 1 is pi radians): float16, bfloat16, float32 or float64.\n"
              "out : ndarray, None, or tuple of ndarray and None, optional\n"
              "    Where to put the result, as for any ufunc; any overlap with `x` gives\n"
              "    what a copy of `x` would.\n"
              "where : array_like, optional\n"
              "    Compute only where True, as for any ufunc.\n"
              "**kwargs\n"
              "    The other ufunc keywords (`dtype`, `signature`, `casting`, `order`).\n\n"
              "Returns\n-------\n"
              "y : ndarray or scalar\n"
              "    The correctly rounded tan(pi x) of each element, in the input's type.\n\n"
              "Raises\n------\n"
              "TypeError\n"
              "    `x` has a type with no loop (complex, longdouble, object, strings).\n"
              "FloatingPointError\n"
              "    An input is +-inf under ``np.errstate(invalid='raise')``, or a pole\n"
              "    under ``np.errstate(divide='raise')`` (else numpy's RuntimeWarning).\n"
              "MemoryError\n"
              "    The multi-precision workspace cannot be allocated.\n\n"
              "Examples\n--------\n"
              ">>> import numpy as np, crtrig\n"
              ">>> print(crtrig.tanpi(np.array([0.25, -0.75, 1.0, -1.0, 1e6 + 1 / 6])))\n"
              "[ 1.          1.         -0.          0.          0.57735027]\n").encode()
_SINPI_DOC = _TRIGPI_DOC.format(Name="Sine", Op="sinPi", name="sinpi", lower="sin", big="0",
                                special="sinpi(+n) = +0, sinpi(-n) = -0 for integers n", examples=(
    ">>> import numpy as np, crtrig\n"
    ">>> print(crtrig.sinpi(np.array([0.5, 1.0, -2.0, 1e6, 1 / 6])))\n"
    "[ 1.   0.  -0.   0.   0.5]\n")).encode()
_COSPI_DOC = _TRIGPI_DOC.format(Name="Cosine", Op="cosPi", name="cospi", lower="cos", big="1",
                                special="cospi(n + 1/2) = +0 for integers n", examples=(
    ">>> import numpy as np, crtrig\n"
    ">>> print(crtrig.cospi(np.array([0.5, -1.5, 1.0, 1e6])))\n"
    "[ 0.  0. -1.  1.]\n")).encode()


cdef object _make_trig_ufunc(int which, int func, bytes name, bytes doc):
    """A ufunc named `name`: crtrig's ufuncs are named crtrig_sin, crtrig_cos
    (pint dispatches by __name__: a ufunc named "sin" got np.sin's values
    there; repr and numpy's messages say whose ufunc it is)."""
    cdef int i
    for i, dtype in enumerate((DTYPE_FLOAT16, DTYPE_FLOAT32, DTYPE_FLOAT64, DTYPE_BFLOAT16)):
        loops[which][i].func = func
        loops[which][i].dtype = dtype
        loops[which][i].record_gil = which == 2
        loops[which][i].selfcheck_pass = (4 * func + dtype if func < 2 else
                                          -1 if dtype < 2 or func > 3 else 12 + 2 * (func - 2) + dtype - 2)
        loops[which][i].gil_was_held = -1
    for i in range(3):
        loop_data[which][i] = &loops[which][i]
    ufunc = PyUFunc_FromFuncAndData(loop_funcs, loop_data[which], loop_types, 3, 1, 1,
                                    -1, name, doc, 0)  # -1: PyUFunc_None (no identity)
    if crtrig_wrap_type_resolver(ufunc) != 0:
        raise RuntimeError("crtrig: unexpected ufunc type resolver")
    return ufunc


def _register_bfloat16_loops(bfloat16):
    """Give sin, cos (and the probe) their loops for ml_dtypes' bfloat16 dtype
    `bfloat16`, once per process (crtrig/_integrations.py calls this when
    ml_dtypes has been imported, under its lock).  Returns whether it registered."""
    global BFLOAT16_TYPE_NUMBER
    if BFLOAT16_TYPE_NUMBER is not None:
        return False
    cdef int number = bfloat16.num
    bfloat16_types[0] = number
    bfloat16_types[1] = number
    for which, ufunc in enumerate((sin, cos, _gil_probe_sin, sinpi, cospi, tan, tanpi)):
        if PyUFunc_RegisterLoopForType(ufunc, number, <PyUFuncGenericFunction>trig_loop,
                                       bfloat16_types, &loops[which][3]) < 0:
            raise RuntimeError("crtrig: numpy refused the bfloat16 loops")
    _TRIG_CODES[bfloat16] = DTYPE_BFLOAT16
    BFLOAT16_TYPE_NUMBER = number
    return True


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

sin = _make_trig_ufunc(0, 0, b"crtrig_sin", _SIN_DOC)
cos = _make_trig_ufunc(1, 1, b"crtrig_cos", _COS_DOC)
_gil_probe_sin = _make_trig_ufunc(2, 0, b"_gil_probe_sin", b"Test hook: sin that records PyGILState_Check().")
sinpi = _make_trig_ufunc(3, 2, b"crtrig_sinpi", _SINPI_DOC)
cospi = _make_trig_ufunc(4, 3, b"crtrig_cospi", _COSPI_DOC)
tan = _make_trig_ufunc(5, 4, b"crtrig_tan", _TAN_DOC)
tanpi = _make_trig_ufunc(6, 5, b"crtrig_tanpi", _TANPI_DOC)


def gil_probe_result():
    """Test hook: PyGILState_Check() inside the last loop run by _gil_probe_sin,
    per dtype (float16, float32, bfloat16); -1 where it has not run."""
    return tuple(loops[2][i].gil_was_held for i in (0, 1, 3))


#: Stages of float64 sin/cos by index.  Stage 0 is the vectorized first pass of the
#: array kernel; trig_element and trig_elements start at double-double for 0 or 1.
STAGES_FLOAT64 = ("first pass", "double-double", "multi-precision")
#: The largest multi_start_bits the C core accepts (its precision cap).
MULTI_MAX_START_BITS = 1 << 14


def _check_trig_hook(int func, int dtype_code, int first_stage, int multi_start_bits):
    if func not in (0, 1, 2, 3, 4, 5):
        raise ValueError(f"func must be 0 (sin), 1 (cos), 2 (sinpi), 3 (cospi), 4 (tan) or "
                         f"5 (tanpi), not {func}")
    if not 0 <= dtype_code <= 3:
        raise ValueError(f"dtype_code must be 0 (float16), 1 (bfloat16), 2 (float32) or "
                         f"3 (float64), not {dtype_code}")
    if not 0 <= first_stage <= 2:
        raise ValueError(f"first_stage must be 0, 1 or 2, not {first_stage}")
    if not 0 <= multi_start_bits <= MULTI_MAX_START_BITS:
        raise ValueError(f"multi_start_bits must be 0 (default) to {MULTI_MAX_START_BITS}, "
                         f"not {multi_start_bits}")


def trig_element(int func, int dtype_code, double x, int first_stage=0, int multi_start_bits=0):
    """Test hook: (value, stage counts) of sin (func 0) or cos (1) of x, correctly
    rounded into dtype_code's format (0 float16, 1 bfloat16, 2 float32, 3 float64).

    x must be a value of that format (for float64: any double).  first_stage
    (0, 1, 2) forces where evaluation starts: STAGES for the narrow formats,
    STAGES_FLOAT64 for float64, where 0 and 1 both start at double-double and 2
    also skips the exact shortcuts for tiny |x| (sin x = x, cos x = 1, counted as
    "exact").  multi_start_bits: the multi-precision loop's first precision
    (0: 128)."""
    cdef crtrig_eval_options opt
    cdef crtrig_stage_counts counts
    cdef double result = 0.0
    _check_trig_hook(func, dtype_code, first_stage, multi_start_bits)
    _init(&opt, &counts, first_stage, multi_start_bits)
    _check(crtrig_trig_element(func, dtype_code, x, &opt, &counts, &result))
    return result, _counts_dict(&counts)


cdef dict _TRIG_CODES = {np.dtype(np.float16): DTYPE_FLOAT16,  # bfloat16: _register_bfloat16_loops
                         np.dtype(np.float32): DTYPE_FLOAT32, np.dtype(np.float64): DTYPE_FLOAT64}


cdef int _trig_code(cnp.ndarray x) except -1:
    if x.dtype not in _TRIG_CODES or x.ndim != 1:
        raise TypeError("x must be a 1-D float16, bfloat16, float32 or float64 array")
    return _TRIG_CODES[x.dtype]


def trig_strided(int target, int func, cnp.ndarray x, int first_stage=0, int multi_start_bits=0):
    """Test hook: (result, stage counts) of sin (func 0) or cos (1) of the 1-D
    float16, bfloat16, float32 or float64 array x, through the array kernel of SIMD
    target index `target` (see _supported_target_slots()), starting at first_stage (0: the
    SIMD first pass, as in normal operation)."""
    cdef crtrig_eval_options opt
    cdef crtrig_stage_counts counts
    cdef int code = _trig_code(x)
    out = np.empty_like(x)
    _init(&opt, &counts, first_stage, multi_start_bits, target + 1)
    _check(crtrig_trig_strided_ex(func, code, <const char *>cnp.PyArray_DATA(x), cnp.PyArray_STRIDES(x)[0],
                                  <char *>cnp.PyArray_DATA(out), cnp.PyArray_STRIDES(out)[0],
                                  <size_t>x.shape[0], &opt, &counts))
    return out, _counts_dict(&counts)


def trig_with_target(int target, int func, cnp.ndarray x):
    """Test hook: sin (func 0) or cos (1) of the 1-D float16, bfloat16, float32 or
    float64 array x through the kernels of SIMD target index `target` (see _supported_target_slots())."""
    return trig_strided(target, func, x)[0]


def fail_allocation(long k):
    """Test hook: make the k-th allocation of the C core from now fail (k = 1: the
    next one; 0 turns this off).  Returns the previous countdown: k minus the
    allocations made since it was set, or 0 once one has failed."""
    return crtrig_test_fail_allocation(k)


def table16_built(int func, int dtype_code):
    """Test hook: whether this process has built the result table of sin (func 0) or
    cos (1) for float16 (dtype_code 0) or bfloat16 (1); crtrig.sin/cos build it at the
    first call on that format."""
    cdef int r = crtrig_test_table16_built(func, dtype_code)
    if r < 0:
        raise ValueError("func must be 0 or 1 and dtype_code 0 (float16) or 1 (bfloat16)")
    return r == 1


# ---------------------------------------------------------------------------
# Test hook: one C call under a given floating-point environment
# ---------------------------------------------------------------------------

ROUNDING_MODES = ("nearest", "upward", "downward", "towardzero")  # CRTRIG_ROUND_* order
FLAG_NAMES = ("invalid", "divbyzero", "overflow", "underflow", "inexact")  # CRTRIG_FLAG_* bits

ctypedef struct _FpCall:
    int is_window         # 0 trig, 1 window, 2 exp fill, 3 kaiser, 4 sinc, 5 taylor, 6 kbd
    const double *taylor_hi
    const double *taylor_lo
    double exp_x0, exp_step, exp_d_hi, exp_d_lo, exp_s, exp_p_hi, exp_p_lo
    int exp_P
    uint64_t kaiser_L
    unsigned char *exp_undecided
    size_t exp_missing
    int func              # sin/cos
    int dtype
    const char *inp
    Py_ssize_t in_stride
    char *out
    Py_ssize_t out_stride
    size_t count
    int kind              # window
    crtrig_window_spec spec
    int64_t size
    int periodic
    crtrig_eval_options opt


cdef int _run_fp_call(void *arg) noexcept nogil:
    cdef _FpCall *call = <_FpCall *>arg
    if call.is_window == 6:  # kbd: exp_x0, exp_step carry c_hi, c_lo; kaiser_L the L
        return crtrig_kbd_fill_target(-1, call.exp_x0, call.exp_step, call.kaiser_L, call.dtype, <double *>call.out,
                                      call.exp_undecided, &call.exp_missing)
    if call.is_window == 5:  # taylor: kaiser_L carries L, exp_P K, func centre_one
        return crtrig_taylor_window_fill(call.kaiser_L, call.count, <size_t>call.exp_P, call.taylor_hi,
                                         call.taylor_lo, call.func, call.dtype, <double *>call.out,
                                         call.exp_undecided, &call.exp_missing)
    if call.is_window == 4:  # lanczos/bohman: exp_P carries the kind, kaiser_L the D
        return crtrig_sinc_window_fill(call.exp_P, call.kaiser_L, call.count, call.dtype, <double *>call.out,
                                       call.exp_undecided, &call.exp_missing)
    if call.is_window == 3:  # kaiser: exp_x0.. carry c_hi, c_lo, inv_hi, inv_lo
        return crtrig_kaiser_fill(call.exp_x0, call.exp_step, call.exp_d_hi, call.exp_d_lo, call.kaiser_L,
                                  call.count, call.dtype, <double *>call.out, call.exp_undecided,
                                  &call.exp_missing)
    if call.is_window == 2 and call.exp_P == 0:  # general_gaussian's real power exp_p_hi + exp_p_lo
        return crtrig_exp_real_fill(-1, call.exp_x0, call.exp_step, call.count, call.exp_d_hi, call.exp_d_lo,
                                    call.exp_p_hi, call.exp_p_lo, call.dtype, <double *>call.out,
                                    call.exp_undecided, &call.exp_missing)
    if call.is_window == 2:
        return crtrig_exp_affine_fill(call.exp_x0, call.exp_step, call.count, call.exp_d_hi, call.exp_d_lo,
                                      call.exp_s, call.exp_P, call.dtype, <double *>call.out,
                                      call.exp_undecided, &call.exp_missing)
    if call.is_window:
        return crtrig_window_spec_ex(&call.spec, call.size, call.periodic, call.dtype, call.out,
                                     call.out_stride, &call.opt, NULL)
    return crtrig_trig_strided_ex(call.func, call.dtype, call.inp, call.in_stride, call.out,
                                  call.out_stride, call.count, &call.opt, NULL)


cdef dict _state_dict(crtrig_fp_state *state):
    return {"rounding": ROUNDING_MODES[state.rounding], "ftz": bool(state.ftz), "daz": bool(state.daz),
            "flags": frozenset(name for bit, name in enumerate(FLAG_NAMES) if state.flags & (1 << bit)),
            "control": state.control, "status": state.status}


def fp_state():
    """Test hook: the calling thread's floating-point state as a dict (rounding,
    ftz, daz, flags, and the raw control and status registers)."""
    cdef crtrig_fp_state state
    crtrig_fp_state_get(&state)
    return _state_dict(&state)


cdef tuple _run_under(_FpCall *call, str rounding, bint ftz, bint daz, flags):
    cdef crtrig_fp_state wanted, before, after
    cdef int rc, call_rc = CRTRIG_OK
    wanted.rounding = ROUNDING_MODES.index(rounding)
    wanted.ftz = ftz
    wanted.daz = daz
    wanted.flags = sum(1 << FLAG_NAMES.index(name) for name in flags)
    wanted.control = wanted.status = 0
    with nogil:
        rc = crtrig_fp_run_under(&wanted, _run_fp_call, call, &before, &after, &call_rc)
    if rc != CRTRIG_OK:
        raise ValueError(f"this platform ({FPENV_METHOD}) cannot set rounding={rounding} "
                         f"ftz={ftz} daz={daz} flags={sorted(flags)}")
    _check(call_rc)
    return _state_dict(&before), _state_dict(&after)


def trig_under_fpenv(int target, int func, cnp.ndarray x, str rounding, bint ftz=False, bint daz=False,
                     flags=()):
    """Test hook: sin (func 0) or cos (1) of the 1-D array x through SIMD target
    index `target` (or, for target -1, as crtrig.sin/cos compute it: the active
    target, float16/bfloat16 through their result tables, built at first use inside
    this call), in ONE call of the C core made with the calling thread's
    rounding mode, FTZ, DAZ and exception flags set as given.  Returns
    (result, state read right before the call, state read right after it); the
    thread's own environment is restored before this returns, so Python never
    runs under the requested mode."""
    cdef _FpCall call
    out = np.empty_like(x)
    call.is_window = 0
    call.func = func
    call.dtype = _trig_code(x)
    call.inp = <const char *>cnp.PyArray_DATA(x)
    call.in_stride = cnp.PyArray_STRIDES(x)[0]
    call.out = <char *>cnp.PyArray_DATA(out)
    call.out_stride = cnp.PyArray_STRIDES(out)[0]
    call.count = <size_t>x.shape[0]
    call.opt.first_stage = 0
    call.opt.multi_start_bits = 0
    call.opt.simd_target = target + 1 if target >= 0 else 0
    before, after = _run_under(&call, rounding, ftz, daz, flags)
    return out, before, after


def window_under_fpenv(int target, int kind, int64_t size, bint periodic, int dtype_code, dtype,
                       str rounding, bint ftz=False, bint daz=False, flags=(), alpha=None):
    """Test hook: a window fill (as fill_window, into a new array of `dtype`,
    whose C code is dtype_code) through SIMD target index `target`, in ONE call
    under the given environment; returns (window, state before, state after),
    as trig_under_fpenv (kind GENERAL_HAMMING takes alpha = (numerator, denominator))."""
    cdef _FpCall call
    cdef cnp.ndarray out = np.empty(size, dtype=dtype)
    call.is_window = 1
    call.kind = kind
    call.spec = _spec(kind, alpha)
    call.size = size
    call.periodic = periodic
    call.dtype = dtype_code
    call.out = <char *>cnp.PyArray_DATA(out)
    call.out_stride = cnp.PyArray_STRIDES(out)[0]
    call.opt.first_stage = 0
    call.opt.multi_start_bits = 0
    call.opt.simd_target = target + 1
    before, after = _run_under(&call, rounding, ftz, daz, flags)
    return out, before, after


# ---------------------------------------------------------------------------
# Test hooks: float64 (and narrower) sin/cos elements, the double-double value
# ---------------------------------------------------------------------------

ctypedef struct _ValuesCall:
    int func
    int dtype
    const double *x
    size_t count
    crtrig_eval_options opt
    crtrig_stage_counts *counts
    double *out
    signed char *stages


cdef int _run_values_call(void *arg) noexcept nogil:
    cdef _ValuesCall *call = <_ValuesCall *>arg
    return crtrig_trig_values_raw(call.func, call.dtype, call.x, call.count, &call.opt, call.counts,
                                  call.out, call.stages)


def trig_elements(int func, int dtype_code, cnp.ndarray x, int first_stage=0, int multi_start_bits=0):
    """Test hook: trig_element over a 1-D float64 array, in one C call, with the
    floating-point flags the evaluation itself raises.

    The C loop (crtrig_trig_values_raw) has no environment switch of its own: it
    runs under round-to-nearest, FTZ/DAZ off and all flags clear, set around it
    by crtrig_fp_run_under, which reads the flags right after it and then
    restores the thread's environment.  Returns (values, stages, counts, flags):
    the correctly rounded values (float64 array), the stage that decided each
    element (int8 array: -1 exact or special, else the index into STAGES /
    STAGES_FLOAT64), the stage counts summed over all elements, and the set of
    FLAG_NAMES raised."""
    cdef crtrig_stage_counts counts
    cdef crtrig_fp_state wanted, before, after
    cdef _ValuesCall call
    cdef int rc, call_rc = CRTRIG_OK
    _check_trig_hook(func, dtype_code, first_stage, multi_start_bits)
    if x.dtype != np.float64 or x.ndim != 1:
        raise TypeError("x must be a 1-D float64 array")
    xs = np.ascontiguousarray(x)
    values = np.empty(xs.shape[0], dtype=np.float64)
    stages = np.empty(xs.shape[0], dtype=np.int8)
    _init(&call.opt, &counts, first_stage, multi_start_bits)
    call.func = func
    call.dtype = dtype_code
    call.x = <const double *>cnp.PyArray_DATA(xs)
    call.count = <size_t>xs.shape[0]
    call.counts = &counts
    call.out = <double *>cnp.PyArray_DATA(values)
    call.stages = <signed char *>cnp.PyArray_DATA(stages)
    wanted.rounding = 0  # nearest
    wanted.ftz = wanted.daz = wanted.flags = 0
    wanted.control = wanted.status = 0
    with nogil:
        rc = crtrig_fp_run_under(&wanted, _run_values_call, &call, &before, &after, &call_rc)
    if rc != CRTRIG_OK:
        raise RuntimeError(f"this platform ({FPENV_METHOD}) cannot set the default environment")
    _check(call_rc)
    return values, stages, _counts_dict(&counts), set(_state_dict(&after)["flags"])


def tan_dd_value(int func, double x):
    """Test hook: (hi, lo, bound) of the double-double stage's unrounded tan (func 4)
    or tanpi (5) of x and its proven bound |hi + lo - f(x)| <= bound (tan: finite
    |x| >= 2**-27; tanpi: 2**-60 <= |x| < 2**52, x not a multiple of 1/4); None
    elsewhere."""
    cdef double hi = 0.0, lo = 0.0, bound = 0.0
    if crtrig_tan_dd_value(func, x, &hi, &lo, &bound) != CRTRIG_OK:
        return None
    return hi, lo, bound


def trig_dd_value(int func, double x):
    """Test hook: (hi, lo, bound) of the double-double stage's unrounded sin (func 0)
    or cos (1) of x and its proven bound |hi + lo - f(x)| <= bound, for finite
    2**-149 <= |x|; None elsewhere."""
    cdef double hi = 0.0, lo = 0.0, bound = 0.0
    if func not in (0, 1):
        raise ValueError(f"func must be 0 (sin) or 1 (cos), not {func}")
    if crtrig_trig_dd_value(func, x, &hi, &lo, &bound) != CRTRIG_OK:
        return None
    return hi, lo, bound


def first_pass_value(str what, int which, double a, double b=0.0, int target=0):
    """Test hook: (value, bound) of a SIMD first pass.
    what="sincos": the float32/bfloat16/float16 pass of SIMD target index `target`,
    which = 0 sin / 1 cos, a = x (a float32 value, 2^-13 <= |x| <= its largest;
    ValueError otherwise);
    (The window passes have window_table_value.)"""
    cdef double v = 0.0, e = 0.0
    if what == "sincos":
        if crtrig_sincos32_value_target(target, which, a, &v, &e) != 0:
            raise ValueError("first_pass_value: needs a supported target, func 0 or 1 and a float32 "
                             "value with 2^-13 <= |x| <= 3.4028235e38")
    else:
        raise ValueError(what)
    return v, e


def first_pass_with_target(int target, int func, cnp.ndarray x):
    """Test hook: the first pass alone of SIMD target index `target` over the
    contiguous 1-D float16, bfloat16, float32 or float64 array x: (out, undecided),
    where out[i] is the correctly rounded sin (func 0) or cos (1) of x[i] wherever
    undecided[i] == 0 (1: outside the pass, 2: rounding test failed); also sinpi (2),
    cospi (3) and tan (4) of a float32 or float64 x (undecided[i] nonzero: left to the
    stages)."""
    if x.dtype not in _TRIG_CODES or x.ndim != 1 or not x.flags.c_contiguous:
        raise TypeError("x must be a contiguous 1-D float16, bfloat16, float32 or float64 array")
    out = np.empty_like(x)
    undecided = np.empty(x.shape[0], np.uint8)
    _check(crtrig_sincos_pass_target(target, func, _TRIG_CODES[x.dtype],
                                     <const char *>cnp.PyArray_DATA(x), <char *>cnp.PyArray_DATA(out),
                                     <size_t>x.shape[0], <unsigned char *>cnp.PyArray_DATA(undecided)))
    return out, undecided


def sincos64_pass_value(int target, int func, double x, bint large, bint precise=False):
    """Test hook: (hi, lo, e, flag) of the float64 first pass of SIMD target index
    `target` for one x (finite, |x| >= 2^-27; large=False needs |x| < 2^17), with its
    quick evaluation or (precise=True) the one it re-runs undecided lanes with: the
    unrounded value hi + lo, the bound e it rounds with, and its undecided code."""
    cdef double hi = 0.0, lo = 0.0, e = 0.0
    cdef int flag = 0
    _check(crtrig_sincos64_value_target(target, func, x, (1 if large else 0) | (2 if precise else 0),
                                        &hi, &lo, &e, &flag))
    return hi, lo, e, flag


def tan64_pass_value(int target, double x, bint large, bint precise=False):
    """Test hook: (hi, lo, e, flag) of the float64 tan first pass of SIMD target index
    `target` for one x (finite, |x| >= 2^-27; large=False needs |x| < 2^17), with its
    quick evaluations or (precise=True) those it re-runs undecided lanes with: its
    unrounded tan(x) = hi + lo, the bound e it rounds with, and its undecided code."""
    cdef double hi = 0.0, lo = 0.0, e = 0.0
    cdef int flag = 0
    _check(crtrig_tan64_value_target(target, x, (1 if large else 0) | (2 if precise else 0),
                                     &hi, &lo, &e, &flag))
    return hi, lo, e, flag


def window_pass_with_target(int target, int kind, uint64_t first, uint64_t D, int dtype_code,
                            Py_ssize_t count, alpha=None):
    """Test hook: the window first pass of SIMD target index `target` for the
    format of dtype_code (0 float16 .. 3 float64) over the folded phases
    r = first .. first + count - 1 (<= D/2, 1 <= D <= 2^52), with a table of its
    own: (values, undecided), values[i] = w at r final where undecided[i] == 0
    (2: the rounding test failed; the value is then the pass's marker)."""
    import ml_dtypes  # a test hook: importing it registers the bfloat16 loops
    dtypes = {0: np.float16, 1: ml_dtypes.bfloat16, 2: np.float32, 3: np.float64}
    if dtype_code not in dtypes or count < 0:
        raise ValueError("dtype_code must be 0..3 and count >= 0")
    out = np.empty(count, dtypes[dtype_code])
    undecided = np.empty(count, np.uint8)
    cdef crtrig_window_spec spec = _spec(kind, alpha)
    _check(crtrig_window_spec_pass_target(target, &spec, first, D, dtype_code, <size_t>count,
                                     <char *>cnp.PyArray_DATA(out),
                                     <unsigned char *>cnp.PyArray_DATA(undecided)))
    return out, undecided


def window_table_value(int target, int kind, uint64_t n, uint64_t D, int dtype_code, uint64_t B=0,
                       alpha=None):
    """Test hook: (hi, lo, e, flag) of the window pass of SIMD target index `target`
    for the format of dtype_code (0 float16 .. 3 float64) at w[n] (0 <= n <= D,
    1 <= D <= 2^52): its unrounded value hi + lo (lo = 0 below float64) and the
    bound e its rounding test uses, from the table entries of r = min(n, D - n)
    = a B + c (B = 0: the hooks' default step); flag 2 if the test fails, else 0."""
    cdef double hi = 0.0, lo = 0.0, e = 0.0
    cdef int flag = 0
    cdef crtrig_window_spec spec = _spec(kind, alpha)
    _check(crtrig_window_spec_table_value_target(target, &spec, n, D, B, dtype_code, &hi, &lo, &e, &flag))
    return hi, lo, e, flag


def sinpi_table_build(int target, uint64_t m0, int64_t step, uint64_t M, Py_ssize_t count):
    """Test hook: the window tables' builder of SIMD target index `target` alone:
    (s_hi, s_lo, c_hi, c_lo) arrays with s_hi[i] + s_lo[i] = sin(pi m/M) and
    c_hi[i] + c_lo[i] = cos(pi m/M) for m = m0 + i step, every m in [0, M/4], M <= 2^53."""
    if count < 0:
        raise ValueError("count must be >= 0")
    arrays = [np.empty(count, np.float64) for _ in range(4)]
    _check(crtrig_sinpi_table_build_target(target, m0, step, M, <size_t>count,
                                           <double *>cnp.PyArray_DATA(arrays[0]),
                                           <double *>cnp.PyArray_DATA(arrays[1]),
                                           <double *>cnp.PyArray_DATA(arrays[2]),
                                           <double *>cnp.PyArray_DATA(arrays[3])))
    return tuple(arrays)


def sinpi_ratio_dd(bint use_cos, uint64_t a, uint64_t b):
    """Test hook: (hi, lo) of the scalar double-double sin(pi a/b) (cos if use_cos)
    of the per-element stages, 0 <= 4a <= b <= 2^54."""
    cdef double hi = 0.0, lo = 0.0
    _check(crtrig_sinpi_ratio_dd_value(use_cos, a, b, &hi, &lo))
    return hi, lo


# ---------------------------------------------------------------------------
# exp(-q) of the exp-based windows (src/core/exp.c; crtrig._exp_windows)
# ---------------------------------------------------------------------------

EXP_MAX_POWER = CRTRIG_EXP_MAX_POWER


def exp_affine_fill(double x0, double step, Py_ssize_t count, double d_hi, double d_lo, double s, int P,
                    int fmt, int target=-1):
    """exp(-s (|x0 + i step| d)^P), i < count, each correctly rounded into float format
    code `fmt` (as float64 values), d = d_hi + d_lo (see src/core/exp.h): returns
    (values, indices of the undecided elements, NaN in values, for the exact
    fallback).  target: a SIMD target index whose kernel (src/core/exp_pass.h)
    computes (-1: the active one; ValueError for one this machine lacks)."""
    cdef cnp.ndarray out = np.empty(count, dtype=np.float64)
    cdef cnp.ndarray flags = np.empty(count, dtype=np.uint8)
    cdef size_t missing = 0
    cdef int rc
    with nogil:
        rc = crtrig_exp_affine_fill_target(target, x0, step, <size_t>count, d_hi, d_lo, s, P, fmt,
                                    <double *>cnp.PyArray_DATA(out),
                                    <unsigned char *>cnp.PyArray_DATA(flags), &missing)
    if rc != CRTRIG_OK:
        raise ValueError("exp_affine_fill: invalid arguments")
    if missing:
        return out, np.flatnonzero(flags)
    return out, np.empty(0, dtype=np.intp)


def exp_fill_under_fpenv(double x0, double step, Py_ssize_t count, double d_hi, double d_lo, double s,
                         int P, int fmt, str rounding, bint ftz=False, bint daz=False, flags=(),
                         double p_hi=0.0, double p_lo=0.0):
    """Test hook: exp_affine_fill (P = 0: exp_real_fill with the power p_hi + p_lo, s
    ignored) in ONE C call under the given environment, as window_under_fpenv; returns
    (values, undecided flags, state before, state after)."""
    cdef _FpCall call
    cdef cnp.ndarray out = np.empty(count, dtype=np.float64)
    cdef cnp.ndarray undecided = np.zeros(count, dtype=np.uint8)
    call.is_window = 2
    call.exp_x0 = x0
    call.exp_step = step
    call.exp_d_hi = d_hi
    call.exp_d_lo = d_lo
    call.exp_s = s
    call.exp_P = P
    call.exp_p_hi = p_hi
    call.exp_p_lo = p_lo
    call.exp_undecided = <unsigned char *>cnp.PyArray_DATA(undecided)
    call.exp_missing = 0
    call.count = <size_t>count
    call.dtype = fmt
    call.out = <char *>cnp.PyArray_DATA(out)
    before, after = _run_under(&call, rounding, ftz, daz, flags)
    return out, undecided, before, after


def exp_real_fill(double x0, double step, Py_ssize_t count, double d_hi, double d_lo, double p_hi, double p_lo,
                  int fmt, int target=-1):
    """exp(-(1/2) (|x0 + i step| d)^P), i < count, P = p_hi + p_lo a real power, each
    correctly rounded into float format code `fmt` (see src/core/exp.h,
    crtrig_exp_real_fill): (values, indices of the undecided elements, NaN in values,
    for the exact fallback)."""
    cdef cnp.ndarray out = np.empty(count, dtype=np.float64)
    cdef cnp.ndarray flags = np.empty(count, dtype=np.uint8)
    cdef size_t missing = 0
    cdef int rc
    with nogil:
        rc = crtrig_exp_real_fill(target, x0, step, <size_t>count, d_hi, d_lo, p_hi, p_lo, fmt,
                                  <double *>cnp.PyArray_DATA(out),
                                  <unsigned char *>cnp.PyArray_DATA(flags), &missing)
    if rc != CRTRIG_OK:
        raise ValueError("exp_real_fill: invalid arguments")
    if missing:
        return out, np.flatnonzero(flags)
    return out, np.empty(0, dtype=np.intp)


def log_dd_value(double y_hi, double y_lo, int target=-1):
    """Test hook: ln(y_hi + y_lo) by the double-double log of src/core/exp_pass.h (of
    SIMD target index `target`, -1: the active one): (hi, lo, absolute error bound)."""
    cdef double hi = 0, lo = 0, err = 0
    cdef int rc = crtrig_test_log_dd(target, y_hi, y_lo, &hi, &lo, &err)
    if rc == CRTRIG_EINVAL:
        raise ValueError("log_dd_value: y_hi must lie in [2^-1000, 2^1000] and |y_lo| <= 2^-53 y_hi "
                         "(and the target available)")
    if rc != CRTRIG_OK:
        raise ArithmeticError("log_dd_value: the kernel declined (correction term too large)")
    return hi, lo, err


def exp_dd_value(double y_hi, double y_lo, int target=-1):
    """Test hook: exp(y_hi + y_lo) by the double-double stage of src/core/exp_pass.h
    (of SIMD target index `target`, -1: the active one): (hi, lo, relative error bound)."""
    cdef double hi = 0, lo = 0, rel = 0
    if crtrig_test_exp_dd(target, y_hi, y_lo, &hi, &lo, &rel) != CRTRIG_OK:
        raise ValueError("exp_dd_value: y_hi must lie in [-620, 0] and |y_lo| <= 2^-53 |y_hi| "
                         "(and the target available)")
    return hi, lo, rel


KAISER_MAX_BETA = CRTRIG_KAISER_MAX_BETA


def kaiser_fill(double c_hi, double c_lo, double inv_hi, double inv_lo, uint64_t L, Py_ssize_t count, int fmt,
                int simd_target=-1):
    """I0(2 sqrt(c n (L - 1 - n)))/I0(beta), n < count, correctly rounded into float
    format `fmt` (see src/core/bessel_i0.h): (values, indices of the undecided
    elements, NaN in values, for the exact fallback).  `simd_target`: a target index
    (test hook; -1, the default, the active target)."""
    cdef cnp.ndarray out = np.empty(count, dtype=np.float64)
    cdef cnp.ndarray flags = np.empty(count, dtype=np.uint8)
    cdef size_t missing = 0
    cdef int rc
    with nogil:
        rc = crtrig_kaiser_fill_target(simd_target, c_hi, c_lo, inv_hi, inv_lo, L, <size_t>count, fmt,
                                       <double *>cnp.PyArray_DATA(out), <unsigned char *>cnp.PyArray_DATA(flags),
                                       &missing)
    if rc != CRTRIG_OK:
        raise ValueError("kaiser_fill: invalid arguments")
    if missing:
        return out, np.flatnonzero(flags)
    return out, np.empty(0, dtype=np.intp)


def kbd_fill(double c_hi, double c_lo, uint64_t L, int fmt, int simd_target=-1):
    """w[n] = sqrt(A_n/B), n < L - 1, of the Kaiser-Bessel-derived window of 2 (L - 1)
    points with c = beta^2/(L - 1)^2, correctly rounded into float format `fmt` (see
    src/core/window_kbd.h): (values, indices of the undecided elements, NaN in values,
    for the exact fallback).  ValueError when the C stage refuses the arguments
    (among them a beta so small that its I0 table would underflow); MemoryError.
    `simd_target`: a target index (test hook; -1, the default, the active target)."""
    if L < 3:
        raise ValueError("kbd_fill: L must be at least 3")
    cdef cnp.ndarray out = np.empty(L - 1, dtype=np.float64)
    cdef cnp.ndarray flags = np.empty(L - 1, dtype=np.uint8)
    cdef size_t missing = 0
    cdef int rc
    with nogil:
        rc = crtrig_kbd_fill_target(simd_target, c_hi, c_lo, L, fmt, <double *>cnp.PyArray_DATA(out),
                                    <unsigned char *>cnp.PyArray_DATA(flags), &missing)
    if rc == CRTRIG_ENOMEM:
        raise MemoryError("kbd_fill: out of memory")
    if rc != CRTRIG_OK:
        raise ValueError("kbd_fill: invalid arguments")
    if missing:
        return out, np.flatnonzero(flags)
    return out, np.empty(0, dtype=np.intp)


def kbd_fill_under_fpenv(double c_hi, double c_lo, uint64_t L, int fmt, str rounding, bint ftz=False,
                         bint daz=False, flags=()):
    """Test hook: kbd_fill in ONE C call under the given environment, as
    window_under_fpenv; returns (values, undecided flags, state before, state after)."""
    cdef _FpCall call
    if L < 3:
        raise ValueError("kbd_fill_under_fpenv: L must be at least 3")
    cdef cnp.ndarray out = np.empty(L - 1, dtype=np.float64)
    cdef cnp.ndarray undecided = np.zeros(L - 1, dtype=np.uint8)
    call.is_window = 6
    call.exp_x0 = c_hi
    call.exp_step = c_lo
    call.kaiser_L = L
    call.exp_undecided = <unsigned char *>cnp.PyArray_DATA(undecided)
    call.exp_missing = 0
    call.count = <size_t>(L - 1)
    call.dtype = fmt
    call.out = <char *>cnp.PyArray_DATA(out)
    before, after = _run_under(&call, rounding, ftz, daz, flags)
    return out, undecided, before, after


def kaiser_fill_under_fpenv(double c_hi, double c_lo, double inv_hi, double inv_lo, uint64_t L,
                            Py_ssize_t count, int fmt, str rounding, bint ftz=False, bint daz=False,
                            flags=()):
    """Test hook: kaiser_fill in ONE C call under the given environment, as
    window_under_fpenv; returns (values, undecided flags, state before, state after)."""
    cdef _FpCall call
    cdef cnp.ndarray out = np.empty(count, dtype=np.float64)
    cdef cnp.ndarray undecided = np.zeros(count, dtype=np.uint8)
    call.is_window = 3
    call.exp_x0 = c_hi
    call.exp_step = c_lo
    call.exp_d_hi = inv_hi
    call.exp_d_lo = inv_lo
    call.kaiser_L = L
    call.exp_undecided = <unsigned char *>cnp.PyArray_DATA(undecided)
    call.exp_missing = 0
    call.count = <size_t>count
    call.dtype = fmt
    call.out = <char *>cnp.PyArray_DATA(out)
    before, after = _run_under(&call, rounding, ftz, daz, flags)
    return out, undecided, before, after


# ---------------------------------------------------------------------------
# Lanczos (sinc) and Bohman windows (src/core/window_sinc.c; crtrig._sinc_windows)
# ---------------------------------------------------------------------------

SINC_MAX_D = CRTRIG_SINC_MAX_D


def sinc_fill(int kind, uint64_t D, Py_ssize_t count, int fmt, int target=-1):
    """w(2n/D), n < count, of the Lanczos (kind 0) or Bohman (kind 1) window of D + 1
    points, correctly rounded into float format `fmt` (see src/core/window_sinc.h):
    (values, indices of the undecided elements, NaN in values, for the exact
    fallback).  `target`: the kernel's SIMD target index (-1: the active one; the
    tests compare targets)."""
    cdef cnp.ndarray out = np.empty(count, dtype=np.float64)
    cdef cnp.ndarray flags = np.empty(count, dtype=np.uint8)
    cdef size_t missing = 0
    cdef int rc
    if count < 0:
        raise ValueError("sinc_fill: count must be >= 0")
    with nogil:
        rc = crtrig_sinc_window_fill_target(target, kind, D, <size_t>count, fmt, <double *>cnp.PyArray_DATA(out),
                                            <unsigned char *>cnp.PyArray_DATA(flags), &missing)
    if rc == CRTRIG_ENOMEM:
        raise MemoryError("sinc_fill: the sinpi table could not be allocated")
    if rc != CRTRIG_OK:
        raise ValueError("sinc_fill: invalid arguments")
    if missing:
        return out, np.flatnonzero(flags)
    return out, np.empty(0, dtype=np.intp)


def lin_sin2_fill(uint64_t D, cnp.ndarray out, double k_hi, double k_lo, double b_hi, double b_lo,
                  int target=-1):
    """out[r] = K r + B sin^2(pi r/D) correctly rounded to float64, r < len(out) (out: a
    C-contiguous, aligned, writeable native float64 array; K, B double-doubles: see
    src/core/window_lin_sin2.h), NaN where undecided: returns how many are.  `target`:
    the kernel's SIMD target index (-1: the active one)."""
    cdef size_t missing = 0
    cdef size_t count
    cdef int rc
    if out.dtype != np.float64 or not out.dtype.isnative or not (out.flags.c_contiguous and out.flags.aligned
                                                                 and out.flags.writeable):
        raise ValueError("lin_sin2_fill: out must be a contiguous, aligned, writeable native float64 array")
    count = <size_t>out.shape[0]
    with nogil:
        rc = crtrig_lin_sin2_fill_target(target, D, count, k_hi, k_lo, b_hi, b_lo,
                                         <double *>cnp.PyArray_DATA(out), &missing)
    if rc == CRTRIG_ENOMEM:
        raise MemoryError("lin_sin2_fill: the sinpi table could not be allocated")
    if rc != CRTRIG_OK:
        raise ValueError("lin_sin2_fill: invalid arguments")
    return missing


def sinc_fill_under_fpenv(int kind, uint64_t D, Py_ssize_t count, int fmt, str rounding, bint ftz=False,
                          bint daz=False, flags=()):
    """Test hook: sinc_fill in ONE C call under the given environment, as
    window_under_fpenv; returns (values, undecided flags, state before, state after)."""
    cdef _FpCall call
    cdef cnp.ndarray out = np.empty(count, dtype=np.float64)
    cdef cnp.ndarray undecided = np.zeros(count, dtype=np.uint8)
    call.is_window = 4
    call.exp_P = kind
    call.kaiser_L = D
    call.exp_undecided = <unsigned char *>cnp.PyArray_DATA(undecided)
    call.exp_missing = 0
    call.count = <size_t>count
    call.dtype = fmt
    call.out = <char *>cnp.PyArray_DATA(out)
    before, after = _run_under(&call, rounding, ftz, daz, flags)
    return out, undecided, before, after


def sinc_constant(int j):
    """Test hook: (hi, lo) of window_sinc.c's 1/pi (j = -1) or Bohman series
    coefficient b_j (0 <= j < 10)."""
    cdef double hi = 0.0, lo = 0.0
    if crtrig_test_sinc_constant(j, &hi, &lo) != CRTRIG_OK:
        raise ValueError("sinc_constant: j must lie in [-1, 9]")
    return hi, lo


# ---------------------------------------------------------------------------
# Taylor window (src/core/window_taylor.c; crtrig._taylor_window)
# ---------------------------------------------------------------------------

TAYLOR_MAX_L = CRTRIG_TAYLOR_MAX_L
TAYLOR_MAX_K = CRTRIG_TAYLOR_MAX_K
TAYLOR_MAX_SUM = CRTRIG_TAYLOR_MAX_SUM


def taylor_fill(uint64_t L, Py_ssize_t count, a_hi, a_lo, bint centre_one, int fmt, int target=-1):
    """The first `count` elements of the Taylor window of L points from the
    coefficients a_0 .. a_K as double-doubles (a_hi, a_lo: float64 arrays of K + 1),
    correctly rounded into float format `fmt` (see src/core/window_taylor.h):
    (values, indices of the undecided elements, NaN in values, for the exact
    fallback).  `target`: the kernel's SIMD target index (-1: the active one; the tests
    compare targets; ValueError for one this machine lacks)."""
    cdef cnp.ndarray hi = np.ascontiguousarray(a_hi, dtype=np.float64)
    cdef cnp.ndarray lo = np.ascontiguousarray(a_lo, dtype=np.float64)
    cdef cnp.ndarray out
    cdef cnp.ndarray flags
    cdef size_t missing = 0, K
    cdef int rc
    if count < 0:
        raise ValueError("taylor_fill: count must be >= 0")
    if hi.ndim != 1 or hi.shape[0] < 1 or lo.ndim != 1 or lo.shape[0] != hi.shape[0]:
        raise ValueError("taylor_fill: a_hi and a_lo must be 1-D of the same length >= 1")
    K = <size_t>(hi.shape[0] - 1)
    out = np.empty(count, dtype=np.float64)
    flags = np.empty(count, dtype=np.uint8)
    with nogil:
        rc = crtrig_taylor_window_fill_target(target, L, <size_t>count, K, <const double *>cnp.PyArray_DATA(hi),
                                       <const double *>cnp.PyArray_DATA(lo), centre_one, fmt,
                                       <double *>cnp.PyArray_DATA(out),
                                       <unsigned char *>cnp.PyArray_DATA(flags), &missing)
    if rc == CRTRIG_ENOMEM:
        raise MemoryError("taylor_fill: the sinpi table could not be allocated")
    if rc != CRTRIG_OK:
        raise ValueError("taylor_fill: invalid arguments")
    if missing:
        return out, np.flatnonzero(flags)
    return out, np.empty(0, dtype=np.intp)


def taylor_fill_under_fpenv(uint64_t L, Py_ssize_t count, a_hi, a_lo, bint centre_one, int fmt,
                            str rounding, bint ftz=False, bint daz=False, flags=()):
    """Test hook: taylor_fill in ONE C call under the given environment, as
    window_under_fpenv; returns (values, undecided flags, state before, state after)."""
    cdef _FpCall call
    cdef cnp.ndarray hi = np.ascontiguousarray(a_hi, dtype=np.float64)
    cdef cnp.ndarray lo = np.ascontiguousarray(a_lo, dtype=np.float64)
    cdef cnp.ndarray out = np.empty(count, dtype=np.float64)
    cdef cnp.ndarray undecided = np.zeros(count, dtype=np.uint8)
    if count < 0 or hi.ndim != 1 or hi.shape[0] < 1 or lo.ndim != 1 or lo.shape[0] != hi.shape[0]:
        raise ValueError("taylor_fill_under_fpenv: count >= 0 and 1-D a_hi, a_lo of one length >= 1")
    call.is_window = 5
    call.kaiser_L = L
    call.exp_P = <int>(hi.shape[0] - 1)
    call.taylor_hi = <const double *>cnp.PyArray_DATA(hi)
    call.taylor_lo = <const double *>cnp.PyArray_DATA(lo)
    call.func = centre_one
    call.exp_undecided = <unsigned char *>cnp.PyArray_DATA(undecided)
    call.exp_missing = 0
    call.count = <size_t>count
    call.dtype = fmt
    call.out = <char *>cnp.PyArray_DATA(out)
    before, after = _run_under(&call, rounding, ftz, daz, flags)
    return out, undecided, before, after
