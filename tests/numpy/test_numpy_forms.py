"""NumPy calling forms padax.numpy accepts as numpy/jax do: einsum's sublist form, 2-vector cross,
weighted quantiles (method='inverted_cdf'), reshape(order='F'), rint of complex; and
random.wrap_key_data(dtype=)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import padax
import padax.numpy as pnp

RNG = np.random.default_rng(0)


def test_einsum_sublist_form():
    a, b = RNG.standard_normal((2, 3)), RNG.standard_normal((3, 4))
    c = RNG.standard_normal((2, 3, 4))
    for args in ((a, [0, 1], b, [1, 2], [0, 2]), (a, [0, 1], b, [1, 2]), (c, [Ellipsis, 1], [Ellipsis]),
                 (c, [0, 1, 2], c, [0, 1, 2], []), (a, [0, 0 + 1], [1, 0])):
        np.testing.assert_allclose(np.asarray(pnp.einsum(*args)), np.einsum(*args), rtol=1e-12)
    with pytest.raises(ValueError, match="einsum: sublist labels must be ints"):
        pnp.einsum(a, ["i", "j"])


def test_cross_of_two_vectors_as_numpy():
    import jax.numpy as jnp
    a2, b2 = RNG.standard_normal((4, 2)), RNG.standard_normal((4, 2))
    b3 = RNG.standard_normal((4, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # numpy 2 deprecates 2-vectors, jax keeps them
        for x, y in ((a2, b2), (a2, b3), (b3, a2), (a2[0], b3)):
            np.testing.assert_allclose(np.asarray(pnp.cross(x, y)), np.cross(x, y), rtol=1e-12)
            np.testing.assert_allclose(np.asarray(pnp.cross(x, y)), np.asarray(jnp.cross(x, y)), rtol=1e-6)
        np.testing.assert_allclose(np.asarray(pnp.cross(a2.T, b2.T, axisa=0, axisb=0)),
                                   np.cross(a2.T, b2.T, axisa=0, axisb=0))
    with pytest.raises(ValueError, match="cross: vectors must have 2 or 3 components"):
        pnp.cross(np.ones(4), np.ones(4))


def test_weighted_quantile_and_percentile_inverted_cdf():
    q = np.array([0.0, 0.1, 0.25, 0.5, 0.9, 1.0])
    x = np.array([3.0, 1.0, 4.0, 1.5, 9.0, 2.6])
    for w in (np.array([1.0, 2.0, 0.0, 1.0, 3.0, 1.0]), np.array([0.0, 0.0, 1.0, 1.0, 0.0, 2.0]), np.ones(6)):
        np.testing.assert_array_equal(np.asarray(pnp.quantile(x, q, weights=w, method="inverted_cdf")),
                                      np.quantile(x, q, weights=w, method="inverted_cdf"))
    a = RNG.standard_normal((4, 7))
    wa = RNG.integers(0, 4, (4, 7)).astype(float)
    wa[:, 0] += 1
    for axis in (0, 1):
        np.testing.assert_array_equal(
            np.asarray(pnp.quantile(a, q, axis=axis, weights=wa, method="inverted_cdf", keepdims=True)),
            np.quantile(a, q, axis=axis, weights=wa, method="inverted_cdf", keepdims=True))
        w1 = RNG.integers(1, 4, a.shape[axis]).astype(float)
        np.testing.assert_array_equal(
            np.asarray(pnp.percentile(a, q * 100, axis=axis, weights=w1, method="inverted_cdf")),
            np.percentile(a, q * 100, axis=axis, weights=w1, method="inverted_cdf"))
    np.testing.assert_array_equal(np.asarray(pnp.quantile(a, q, method="inverted_cdf")),
                                  np.quantile(a, q, method="inverted_cdf"))
    # jax's own example
    assert float(pnp.percentile(pnp.array([1, 2, 3, 4, 5]), 50, weights=pnp.array([1, 1, 2, 1, 1]),
                                method="inverted_cdf")) == 3.0
    with pytest.raises(ValueError, match="quantile: only method 'inverted_cdf' supports weights"):
        pnp.quantile(x, 0.5, weights=np.ones(6))
    with pytest.raises(ValueError, match="quantile: weights .* must have a's shape"):
        pnp.quantile(a, 0.5, weights=np.ones(3), method="inverted_cdf")


def test_reshape_order_f():
    a = np.arange(24.0).reshape(2, 3, 4)
    for shape, order in (((4, 6), "F"), ((6, -1), "F"), ((24,), "F"), ((3, 8), "C"), ((2, 12), "A")):
        np.testing.assert_array_equal(np.asarray(pnp.reshape(a, shape, order=order)), np.reshape(a, shape, order=order))
        np.testing.assert_array_equal(np.asarray(pnp.reshape(a, shape, order)), np.reshape(a, shape, order=order))
    g = padax.grad(lambda x: (pnp.reshape(x, (4, 6), order="F") * np.arange(24.0).reshape(4, 6)).sum())(a)
    np.testing.assert_array_equal(np.asarray(g), np.reshape(np.arange(24.0).reshape(4, 6), (2, 3, 4), order="F"))
    with pytest.raises(ValueError, match="reshape: order must be 'C', 'F' or 'A'"):
        pnp.reshape(a, (4, 6), order="X")


def test_rint_of_complex_rounds_each_part_to_even():
    z = np.array([1.5 + 2.5j, 0.4 - 1.6j, -0.5 + 0.5j, 2.5 - 3.5j], np.complex64)
    out = pnp.rint(z)
    assert out.dtype == np.complex64
    np.testing.assert_array_equal(np.asarray(out), np.rint(z))
    np.testing.assert_array_equal(np.asarray(pnp.rint(np.array([0.5, 1.5, -2.5]))), [0.0, 2.0, -2.0])


def test_wrap_key_data_dtype_and_impl():
    key = padax.random.key(42)
    data = padax.random.key_data(key)
    same = padax.random.wrap_key_data(data, dtype=key.dtype)
    np.testing.assert_array_equal(np.asarray(same), np.asarray(key))
    np.testing.assert_array_equal(np.asarray(padax.random.normal(same, (3,))), np.asarray(padax.random.normal(key, (3,))))
    assert padax.random.wrap_key_data(data, dtype="threefry2x32").shape == (2,)
    assert padax.random.wrap_key_data(data, impl="threefry2x32").shape == (2,)
    with pytest.raises(ValueError, match="is a threefry2x32 key, not rbg"):
        padax.random.wrap_key_data(data, dtype="rbg")
    with pytest.raises(ValueError, match="not a key dtype"):
        padax.random.wrap_key_data(data, dtype=np.float32)
    with pytest.raises(ValueError, match="impl or dtype, not both"):
        padax.random.wrap_key_data(data, impl="rbg", dtype="rbg")
