# C-level functions of crtrig._core for crtrig's other extension modules.
#
# crtrig._verify cimports them (``from crtrig._core cimport ...``); Cython then
# takes their addresses from crtrig._core's ``__pyx_capi__`` capsules when
# crtrig._verify is imported, so the C core is compiled and linked once, into
# crtrig._core.  They wrap the public entry points of include/crtrig/crtrig.h.

cdef int core_trig_strided_target(int target, int func, int dtype, const char *inp,
                                  Py_ssize_t in_stride, char *out, Py_ssize_t out_stride,
                                  size_t count) noexcept nogil

cdef const char *core_target_name(int i) noexcept nogil
