/* The TypeError of crtrig's ufuncs for inputs they have no loop for.
 *
 * numpy's own message ("ufunc 'crtrig_sin' did not contain a loop with
 * signature matching types ...") says neither whose ufunc it is nor what it
 * accepts.  crtrig_wrap_type_resolver replaces a ufunc's type resolver with
 * one that calls numpy's (the one the ufunc was created with) and, when that
 * raises a TypeError, raises crtrig's instead: the same type, a message
 * naming the function, the dtypes it accepts and the dtype it got.  Type
 * resolution itself is numpy's, unchanged: this only rewrites its failures.
 */
#ifndef CRTRIG_UFUNC_ERRORS_H
#define CRTRIG_UFUNC_ERRORS_H

#include <Python.h>
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

static PyUFunc_TypeResolutionFunc *crtrig_numpy_type_resolver;

static int crtrig_type_resolver(PyUFuncObject *ufunc, NPY_CASTING casting, PyArrayObject **operands,
                                PyObject *type_tup, PyArray_Descr **out_dtypes)
{
    const char *name = ufunc->name ? ufunc->name : "?";
    PyObject *got = NULL;
    int rc = crtrig_numpy_type_resolver(ufunc, casting, operands, type_tup, out_dtypes);
    if (rc >= 0 || !PyErr_ExceptionMatches(PyExc_TypeError))
        return rc;
    PyErr_Clear();
    if (strncmp(name, "crtrig_", 7) == 0)
        name += 7;
    if (type_tup != NULL && type_tup != Py_None)
        got = PyUnicode_FromFormat("the signature %R", type_tup);
    else if (operands != NULL && operands[0] != NULL)
        got = PyUnicode_FromFormat("%S", (PyObject *)PyArray_DESCR(operands[0]));
    PyErr_Format(PyExc_TypeError,
                 "crtrig.%s accepts float16, bfloat16 (ml_dtypes), float32 and float64 "
                 "(bool and integer inputs are computed in float16, float32 or float64, as "
                 "numpy's %s does); got %S", name, name, got ? got : Py_None);
    Py_XDECREF(got);
    return -1;
}

/* Give `ufunc` the resolver above; 0, or -1 if it is not a ufunc. */
static int crtrig_wrap_type_resolver(PyObject *ufunc)
{
    PyUFuncObject *u;
    if (!PyObject_TypeCheck(ufunc, &PyUFunc_Type))
        return -1;
    u = (PyUFuncObject *)ufunc;
    if (u->type_resolver == crtrig_type_resolver)
        return 0;
    if (crtrig_numpy_type_resolver == NULL)
        crtrig_numpy_type_resolver = u->type_resolver;
    else if (u->type_resolver != crtrig_numpy_type_resolver)
        return -1;  /* every crtrig ufunc starts with numpy's default resolver */
    u->type_resolver = crtrig_type_resolver;
    return 0;
}

#endif
