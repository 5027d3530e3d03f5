"""padax.numpy where a differential run against jax.numpy (jax 0.10) found wrong answers: edge values,
weak-typed Python scalars in the products, and gradients at zeros. Expected values are NumPy's or
written out (they are what jax gives too), so these tests run without jax.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import padax
import padax.numpy as pnp


@pytest.mark.parametrize("dt", [np.int8, np.int32, np.int64, np.uint8])
def test_integer_remainder_and_fmod_by_zero_are_zero(dt):
    a = np.array([7, 5, 0, 3, 9, 4], dt)
    b = np.array([0, 2, 0, 2, 0, 3], dt)
    with np.errstate(divide="ignore", invalid="ignore"):
        for got, want in ((pnp.remainder(a, b), np.remainder(a, b)), (pnp.fmod(a, b), np.fmod(a, b)),
                          (pnp.divmod(a, b)[1], np.divmod(a, b)[1])):
            assert got.dtype == dt
            np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("fn", ["dot", "inner", "outer", "kron"])
def test_products_promote_python_scalars_weakly(fn):
    f = getattr(pnp, fn)
    bf = np.array([1.5, -2.0], ml_dtypes.bfloat16)
    got = f(bf, 0.5)
    assert got.dtype == ml_dtypes.bfloat16
    np.testing.assert_allclose(np.asarray(got, np.float32).ravel().sum(), -0.25)
    u8 = np.array([2, 3], np.uint8)
    got = f(u8, 3)
    assert got.dtype == np.uint8
    assert np.asarray(got).ravel().sum() == 15
    assert f(np.array([1, 2], np.int32), 2.5).dtype == padax.get_default_dtype()


def test_logaddexp2_rejects_complex_clearly():
    with pytest.raises(TypeError, match="logaddexp2"):
        pnp.logaddexp2(np.array([1 + 1j], np.complex64), np.array([1.0], np.float32))


def test_remainder_gradient_at_exact_multiples():
    a = np.array([0.0, 3.0, -3.0, 2.5, 4.0])
    b = np.array([2.0, -1.0, 1.0, 1.0, 2.0])
    out = pnp.remainder(a, b)
    np.testing.assert_array_equal(np.signbit(np.asarray(out)), np.signbit(np.remainder(a, b)))
    da, db = padax.grad(lambda x, y: pnp.sum(pnp.remainder(x, y)), argnums=(0, 1))(a, b)
    np.testing.assert_array_equal(np.asarray(da), np.ones(5))  # slope 1 in x1, also where x1 % x2 == 0
    np.testing.assert_array_equal(np.asarray(db), -np.floor(a / b))


def test_complex_abs_gradient_at_zero_is_zero():
    g = padax.grad(lambda v: pnp.sum(pnp.abs(v * (1 + 2j))))(np.array([0.0, 1.0, -2.0]))
    np.testing.assert_allclose(np.asarray(g), [0.0, np.sqrt(5), -np.sqrt(5)], rtol=1e-12)
    g = padax.grad(lambda z: pnp.sum(pnp.abs(z) ** 2))(np.array([1 + 1j, 0j, -2j]))
    np.testing.assert_allclose(np.asarray(g), [2 - 2j, 0j, 4j], rtol=1e-12)  # jax's convention: 2 * conj(z)


def test_xlogy_xlog1py_nan_and_gradient_at_x_zero():
    import scipy.special as ss
    import padax.scipy.special as ps
    x = np.array([0.0, 0.0, 0.0, 2.0])
    y = np.array([np.nan, 0.5, 0.0, 3.0])
    for p, s in ((ps.xlogy, ss.xlogy), (ps.xlog1py, ss.xlog1py)):
        np.testing.assert_allclose(np.asarray(p(x, y)), s(x, y), rtol=1e-12)
        dx, dy = padax.grad(lambda a, b: pnp.sum(p(a, b)), argnums=(0, 1))(x[1:], y[1:])
        log = np.log if p is ps.xlogy else np.log1p
        np.testing.assert_allclose(np.asarray(dx), [log(0.5), 0.0 if p is ps.xlogy else 0.0, log(3.0)], rtol=1e-12)
        assert np.isfinite(np.asarray(dy)).all()
