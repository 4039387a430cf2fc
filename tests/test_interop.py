"""crtrig's ufuncs inside other libraries' containers: crtrig's function runs
(its values, correctly rounded) or the call fails with a clear error; it never
returns another library's values.

pint dispatches a ufunc by its ``__name__`` to numpy's function of that name,
so a ufunc named "sin" gave np.sin's values; astropy keys its unit helpers by
the ufunc object and raised "unknown ufunc sin".  The expected values come
from the MPFR oracle (tests/oracle.py), never from crtrig or numpy.  The
inputs are float32 values on which numpy's float32 sine and cosine are often
misrounded (about 13 % of them on an AVX2 machine with numpy 2.4; not asserted
here: this checks crtrig, not numpy).
"""
from __future__ import annotations

import numpy as np
import pytest

import crtrig

import oracle  # noqa: E402  (tests/oracle.py)

FUNCS = {"sin": crtrig.sin, "cos": crtrig.cos}
X = np.random.default_rng(5).uniform(-4, 4, 64).astype(np.float32)


def bits(a) -> list[int]:
    a = np.asarray(a)
    return a.view(np.dtype(f"u{a.dtype.itemsize}")).tolist()


@pytest.fixture(scope="module")
def want():
    return {name: oracle.trig(name, X) for name in FUNCS}


# ---------------------------------------------------------------------------
# pint
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ureg():
    pint = pytest.importorskip("pint")
    return pint.UnitRegistry()


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("unit", ["radian", "dimensionless", ""])
def test_pint_radians_and_dimensionless_give_crtrigs_values(ureg, want, name, unit):
    result = FUNCS[name](ureg.Quantity(X, unit))
    assert isinstance(result, ureg.Quantity) and result.dimensionless and str(result.units) == "dimensionless"
    assert result.magnitude.dtype == np.float32 and bits(result.magnitude) == bits(want[name])


@pytest.mark.parametrize("name", FUNCS)
def test_pint_degrees_are_converted_then_crtrig_runs(ureg, name):
    quantity = ureg.Quantity(np.linspace(-720, 720, 97), "degree")
    result = FUNCS[name](quantity)
    radians = quantity.m_as("radian")  # pint's conversion (inexact, as for np.sin), then crtrig's function
    assert bits(result.magnitude) == bits(oracle.trig(name, radians))


def test_pint_scalar_and_wrong_dimension(ureg):
    import pint

    assert crtrig.sin(ureg.Quantity(np.float32(X[0]), "radian")).magnitude == oracle.trig("sin", X[:1])[0]
    with pytest.raises(pint.DimensionalityError):
        crtrig.sin(ureg.Quantity(X, "meter"))


def test_pint_out_must_be_a_plain_array(ureg):
    out = np.empty_like(X)
    result = crtrig.sin(ureg.Quantity(X, "radian"), out=(out,))
    assert bits(out) == bits(oracle.trig("sin", X)) and bits(result.magnitude) == bits(out)
    with pytest.raises(TypeError, match="crtrig.sin: out= must be a plain numpy array"):
        crtrig.sin(ureg.Quantity(X, "radian"), out=(ureg.Quantity(out, ""),))


# ---------------------------------------------------------------------------
# astropy
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def units():
    return pytest.importorskip("astropy.units")


@pytest.mark.parametrize("name", FUNCS)
def test_astropy_radians_give_crtrigs_values(units, want, name):
    result = FUNCS[name](X * units.rad)
    assert isinstance(result, units.Quantity) and result.unit == units.dimensionless_unscaled
    assert result.value.dtype == np.float32 and bits(result.value) == bits(want[name])


@pytest.mark.parametrize("name", FUNCS)
def test_astropy_dimensionless_is_refused_as_for_numpys(units, name):
    """astropy wants an angle for np.sin too; crtrig's gets the same error, naming crtrig's ufunc."""
    with pytest.raises(units.UnitTypeError, match=f"'crtrig_{name}' function to quantities with angle units"):
        FUNCS[name](X * units.dimensionless_unscaled)


@pytest.mark.parametrize("name", FUNCS)
def test_astropy_degrees_are_converted_then_crtrig_runs(units, name):
    quantity = np.linspace(-720, 720, 97) * units.deg
    result = FUNCS[name](quantity)
    assert bits(result.value) == bits(oracle.trig(name, quantity.to_value(units.rad)))


def test_astropy_wrong_dimension_is_its_unit_error(units):
    with pytest.raises(units.UnitTypeError):
        crtrig.sin(X * units.m)


def test_astropy_imported_before_crtrig(tmp_path):
    """The helpers are registered whichever is imported first (fresh interpreter)."""
    import subprocess
    import sys

    pytest.importorskip("astropy.units")
    pytest.importorskip("pint")
    code = ("import astropy.units as u, pint, numpy as np\nimport crtrig\n"
            "x = np.float32([2.440023422241211, -0.9330489635467529])\n"
            "a = crtrig.sin(x * u.rad).value; p = crtrig.sin(pint.UnitRegistry().Quantity(x, 'rad')).magnitude\n"
            "assert a.tobytes() == p.tobytes() == crtrig.sin(x).tobytes(), (a, p)\nprint('ok')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr


# ---------------------------------------------------------------------------
# Containers that call the ufunc they are given keep working
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", FUNCS)
def test_pandas_series(want, name):
    pd = pytest.importorskip("pandas")
    series = pd.Series(X, index=np.arange(X.size) * 2)
    result = FUNCS[name](series)
    assert isinstance(result, pd.Series) and (result.index == series.index).all()
    assert bits(result.to_numpy()) == bits(want[name])


@pytest.mark.parametrize("name", FUNCS)
def test_xarray_dataarray(want, name):
    xr = pytest.importorskip("xarray")
    array = xr.DataArray(X.reshape(8, 8), dims=("a", "b"), attrs={"units": "rad"})
    result = FUNCS[name](array)
    assert isinstance(result, xr.DataArray) and result.dims == ("a", "b")
    assert bits(result.values.reshape(-1)) == bits(want[name])


@pytest.mark.parametrize("name", FUNCS)
def test_masked_arrays_keep_their_mask(want, name):
    mask = np.arange(X.size) % 3 == 0
    result = FUNCS[name](np.ma.masked_array(X, mask=mask))
    assert isinstance(result, np.ma.MaskedArray) and (result.mask == mask).all()
    assert bits(result.data[~mask]) == bits(want[name][~mask])


# ---------------------------------------------------------------------------
# Telling crtrig's ufunc from numpy's
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("value, got", [
    (np.ones(3, np.complex128), "complex128"), (np.ones(3, np.complex64), "complex64"),
    (np.ones(3, np.longdouble), str(np.dtype(np.longdouble))), (np.array([1.0], dtype=object), "object"),
    (1j, "complex128"), (np.array(["a"]), "<U1"),
])
def test_unsupported_inputs_raise_crtrigs_type_error(name, value, got):
    with pytest.raises(TypeError) as caught:
        FUNCS[name](value)
    message = str(caught.value)
    assert message.startswith(f"crtrig.{name} accepts float16, bfloat16 (ml_dtypes), float32 and float64 "), message
    assert message.endswith(f"; got {got}"), message


def test_unsupported_signature_raises_crtrigs_type_error():
    with pytest.raises(TypeError, match=r"^crtrig.sin accepts .*; got the signature "):
        crtrig.sin(np.ones(3), dtype=np.complex128)


@pytest.mark.parametrize("name", FUNCS)
def test_repr_names_crtrig(name):
    assert repr(FUNCS[name]) == f"<ufunc 'crtrig_{name}'>" and str(FUNCS[name]) == repr(FUNCS[name])
    assert repr(FUNCS[name]) != repr(getattr(np, name))
