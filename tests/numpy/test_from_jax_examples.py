"""padax.numpy behaviours that jax's own documentation examples use, against jax (x64) and numpy."""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.numpy as pnp
from padax import lax

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402

X = np.array([[1.0, 2.0, 3.0], [4.0, np.nan, 6.0]])
XI = np.array([[1, 2, 3], [4, 5, 6]])
W = np.array([[True, False, True], [False, True, True]])


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "nansum", "nanprod", "nanmean", "all", "any"])
@pytest.mark.parametrize("a", [X, XI], ids=["float", "int"])
def test_reductions_take_where(name, a):
    if name.startswith("nan") and a is XI:
        a = a.astype(np.float64)
    for kw in (dict(axis=1, keepdims=True), dict(axis=0), {}):
        got = getattr(pnp, name)(a, where=W, **kw)
        want = getattr(jnp, name)(a, where=W, **kw)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-12, equal_nan=True)
        assert got.shape == want.shape


@pytest.mark.parametrize("name", ["max", "min", "amax", "amin", "nanmax", "nanmin"])
def test_extrema_take_where_and_initial(name):
    got = getattr(pnp, name)(XI, axis=1, keepdims=True, initial=0, where=W)
    want = getattr(jnp, name)(XI, axis=1, keepdims=True, initial=0, where=W)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    np.testing.assert_array_equal(np.asarray(getattr(pnp, name)(X, initial=2.5)),
                                  np.asarray(getattr(jnp, name)(X, initial=2.5)))
    with pytest.raises(ValueError, match="initial"):
        getattr(pnp, name)(XI, where=W)


def test_sum_and_prod_take_initial():
    assert pnp.sum(XI, initial=10).item() == 31 and pnp.sum(XI, initial=10).dtype == np.int64
    assert pnp.prod(XI, axis=0, initial=2).tolist() == [8, 20, 36]


def test_printoptions_sets_tensor_printing_for_the_block():
    x = pnp.array([1 / 3, 2 / 3])
    with pnp.printoptions(precision=2, suppress=True):
        inside = repr(x)
        assert "0.33" in inside and "0.333" not in inside
        assert np.get_printoptions()["precision"] == 2
    assert "0.33333334" in repr(x) and np.get_printoptions()["precision"] == 8


def test_bincount_counts_negative_values_in_bin_zero():
    x = np.array([-1, -1, 1, 3, 10])
    assert pnp.bincount(x, length=5).tolist() == jnp.bincount(x, length=5).tolist() == [2, 1, 0, 1, 0]


@pytest.mark.parametrize("bins", [[1, 2, 3], [3, 2, 1], [4.0, 2.5, 2.0, 0.0]])
@pytest.mark.parametrize("right", [False, True])
def test_digitize_increasing_and_decreasing_bins(bins, right):
    x = np.array([1.0, 2.0, 2.5, 1.5, 3.0, 3.5, -1.0])
    assert pnp.digitize(x, np.array(bins), right=right).tolist() == np.digitize(x, bins, right=right).tolist()
    f = padax.jit(lambda a, b: pnp.digitize(a, b, right=right))
    assert f(x, np.array(bins)).tolist() == np.digitize(x, bins, right=right).tolist()


def test_full_with_an_array_fill_value():
    np.testing.assert_array_equal(np.asarray(pnp.full((2, 3), fill_value=pnp.arange(3))),
                                  np.asarray(jnp.full((2, 3), fill_value=jnp.arange(3))))
    np.testing.assert_array_equal(np.asarray(pnp.full_like(np.ones((2, 3)), np.array([[1], [2]]))),
                                  np.full_like(np.ones((2, 3)), np.array([[1], [2]])).astype(np.float64))
    with pytest.raises(ValueError, match="does not broadcast"):
        pnp.full((2, 3), pnp.arange(2))


def test_frexp_as_numpy():
    x = np.array([1.0, 3.0, -0.25, 0.0, 1e-30, np.inf], np.float32)
    m, e = pnp.frexp(x)
    nm, ne = np.frexp(x)
    assert e.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(m), nm)
    np.testing.assert_array_equal(np.asarray(e)[:-1], ne[:-1])


def test_broadcast_in_dim_with_unordered_dimensions():
    a = np.arange(6.0).reshape(2, 3)
    for shape, dims in (((3, 2), (1, 0)), ((4, 3, 2), (2, 1)), ((3, 5, 2), (2, 0))):
        np.testing.assert_array_equal(np.asarray(lax.broadcast_in_dim(a, shape, dims)),
                                      np.asarray(jax.lax.broadcast_in_dim(a, shape, dims)))
    g = padax.grad(lambda x: (lax.broadcast_in_dim(x, (4, 3, 2), (2, 1)) * np.arange(24.0).reshape(4, 3, 2)).sum())(a)
    # (jax's own gradient of an unordered broadcast_in_dim fails in jax 0.10: compare with numpy)
    np.testing.assert_allclose(np.asarray(g), np.arange(24.0).reshape(4, 3, 2).sum(0).T)


def test_array_copy_and_argumentless_transpose():
    a = pnp.arange(6).reshape(2, 3)
    assert a.copy().tolist() == a.tolist()
    assert a.transpose().tolist() == np.arange(6).reshape(2, 3).T.tolist()
    assert padax.to_tensor(3.0).transpose().shape == ()


@pytest.mark.parametrize("n,b", [(7, 3), (6, 3), (2, 3), (5, 1)])
def test_lax_map_batch_size(n, b):
    xs = {"a": np.arange(float(n)), "b": np.arange(2.0 * n).reshape(n, 2)}

    def f(x):
        return x["a"] * 2 + x["b"].sum()
    np.testing.assert_allclose(np.asarray(lax.map(f, xs, batch_size=b)), np.asarray(jax.lax.map(f, xs, batch_size=b)))
    g = padax.grad(lambda v: lax.map(lambda x: padax.sin(x) * v, np.arange(float(n)), batch_size=b).sum())(2.0)
    jg = jax.grad(lambda v: jax.lax.map(lambda x: jnp.sin(x) * v, np.arange(float(n)), batch_size=b).sum())(2.0)
    np.testing.assert_allclose(np.asarray(g), np.asarray(jg))


def test_sparse_grids_size_isscalar_and_rounding_method():
    for sparse in (False, True):
        got = pnp.meshgrid(np.arange(3), np.arange(4.0), np.arange(2), sparse=sparse)
        want = jnp.meshgrid(np.arange(3), np.arange(4.0), np.arange(2), sparse=sparse)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
    for g, w in zip(pnp.indices((2, 3), sparse=True), jnp.indices((2, 3), sparse=True)):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
    assert pnp.size(np.ones((2, 3, 4)), axis=(1, 2)) == 12 and pnp.size(np.ones((2, 3)), 1) == 3
    for ours, theirs in ((pnp.array(1.0), jnp.array(1.0)), (pnp.ones(2), jnp.ones(2))):
        assert pnp.isscalar(ours) == jnp.isscalar(theirs)
    for v in (np.array(1.0), np.ones(2), 1.0, np.float32(2), "a", [1]):
        assert pnp.isscalar(v) == jnp.isscalar(v), v
    assert padax.jit(pnp.isscalar)(1.0).item() is True
    x = np.array([0.5, 1.5, 2.5, -0.5])
    for m in (lax.RoundingMethod.TO_NEAREST_EVEN, lax.RoundingMethod.AWAY_FROM_ZERO):
        np.testing.assert_array_equal(np.asarray(lax.round(x, m)),
                                      np.asarray(jax.lax.round(x, jax.lax.RoundingMethod(int(m)))))


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_spreads_take_where(name):
    a = np.array([[1.0, 2.0, 3.0, 7.0], [4.0, np.nan, 6.0, 1.0], [0.5, 2.0, -1.0, 3.0]])
    w = np.array([[True, False, True, True], [False, True, True, True], [True, True, True, False]])
    if not name.startswith("nan"):
        a = np.nan_to_num(a)
    for kw in (dict(axis=1, keepdims=True), dict(axis=0, ddof=1), {}):
        got = getattr(pnp, name)(a, where=w, **kw)
        want = getattr(jnp, name)(a, where=w, **kw)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-12, equal_nan=True)
        assert got.shape == want.shape


def test_spaces_with_array_and_traced_endpoints():
    s, e = np.array([0.0, 1.0, -2.0]), np.array([1.0, 3.0, 2.0])
    for kw in ({}, dict(endpoint=False), dict(axis=1)):
        np.testing.assert_allclose(np.asarray(pnp.linspace(s, e, 5, **kw)), np.asarray(jnp.linspace(s, e, 5, **kw)))
    np.testing.assert_allclose(np.asarray(pnp.logspace(s, e, 4, base=2.0)), np.logspace(s, e, 4, base=2.0))
    a, b = np.array([1.0, -2.0]), np.array([8.0, -32.0])
    np.testing.assert_allclose(np.asarray(pnp.geomspace(a, b, 4)), np.asarray(jnp.geomspace(a, b, 4)), rtol=1e-6)
    f = padax.jit(lambda lo, hi: pnp.linspace(lo, hi, 3))
    np.testing.assert_allclose(np.asarray(f(1.0, 2.0)), [1.0, 1.5, 2.0])
    g = padax.grad(lambda hi: pnp.linspace(0.0, hi, 5).sum())(2.0)
    assert abs(float(g) - 2.5) < 1e-6  # d/dhi of sum(i/4 * hi) = (0+1+2+3+4)/4


def test_column_stack_of_scalars_and_vectors():
    for tup in ([1, 2, 3], [np.arange(3), np.arange(3.0)], [np.ones((2, 2)), np.arange(2)]):
        np.testing.assert_array_equal(np.asarray(pnp.column_stack(tup)), np.column_stack(tup))
