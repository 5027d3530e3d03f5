"""padax.flatten_util.ravel_pytree against jax.flatten_util.ravel_pytree: the flat vector's values and
dtype, the round trip through unravel, the dtypes unravel gives back, and the empty-tree convention."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from padax.flatten_util import ravel_pytree

jax = pytest.importorskip("jax")
import jax.flatten_util  # noqa: E402  (a submodule jax does not import itself)

RNG = np.random.default_rng(0)

TREES = {
    "one leaf": lambda: np.arange(6, dtype=np.float32).reshape(2, 3),
    "scalar leaf": lambda: np.float64(2.5),
    "dict of one dtype": lambda: {"w": RNG.standard_normal((2, 3)).astype(np.float32),
                                  "b": RNG.standard_normal(3).astype(np.float32)},
    "nested, mixed float": lambda: [np.ones((2,), np.float32), (np.arange(3.0), {"z": np.float16(0.5)})],
    "int and float": lambda: (np.arange(4, dtype=np.int32), np.full((2, 2), 0.25, np.float32)),
    "bool and int": lambda: {"m": np.array([True, False]), "n": np.array([3, 4], np.int64)},
    "complex and real": lambda: (np.array([1 + 2j, 3 - 1j], np.complex64), np.array([0.5], np.float32)),
    "empty leaves": lambda: (np.zeros((0, 3), np.float32), np.ones((2,), np.float32)),
}


def _jax_ravel(tree):
    with jax.enable_x64(True):
        flat, unravel = jax.flatten_util.ravel_pytree(tree)
        return np.asarray(flat), unravel


@pytest.mark.parametrize("name", sorted(TREES))
def test_flat_vector_matches_jax(name):
    tree = TREES[name]()
    flat, _ = ravel_pytree(tree)
    jflat, _ = _jax_ravel(tree)
    assert flat.shape == jflat.shape
    assert np.asarray(flat).dtype == jflat.dtype
    np.testing.assert_array_equal(np.asarray(flat), jflat)


@pytest.mark.parametrize("name", sorted(TREES))
def test_unravel_round_trip_and_dtypes_match_jax(name):
    tree = TREES[name]()
    flat, unravel = ravel_pytree(tree)
    jflat, junravel = _jax_ravel(tree)
    back = unravel(flat)
    with jax.enable_x64(True):
        jback = junravel(jax.numpy.asarray(jflat))
    leaves, treedef = padax.tree_util.tree_flatten(back)
    jleaves, jtreedef = jax.tree_util.tree_flatten(jback)
    assert treedef == padax.tree_util.tree_structure(tree)
    assert jtreedef == jax.tree_util.tree_structure(tree)
    assert len(leaves) == len(jleaves)
    for got, want, orig in zip(leaves, jleaves, jax.tree_util.tree_leaves(tree)):
        got = np.asarray(got)
        assert got.dtype == np.asarray(want).dtype == np.asarray(orig).dtype
        assert got.shape == np.shape(orig)
        np.testing.assert_array_equal(got, np.asarray(want))
        np.testing.assert_array_equal(got, np.asarray(orig))


def test_one_dtype_unravel_keeps_the_vector_dtype_as_jax():
    tree = {"a": np.ones(2, np.float32), "b": np.zeros((1, 2), np.float32)}
    _, unravel = ravel_pytree(tree)
    _, junravel = _jax_ravel(tree)
    v = np.arange(4.0)                                   # float64, not the leaves' float32
    got = unravel(padax.to_tensor(v))
    with jax.enable_x64(True):
        want = junravel(jax.numpy.asarray(v))
    for k in tree:
        assert np.asarray(got[k]).dtype == np.asarray(want[k]).dtype == np.float64
        np.testing.assert_array_equal(np.asarray(got[k]), np.asarray(want[k]))


def test_mixed_dtype_unravel_wants_the_promoted_dtype_as_jax():
    tree = (np.arange(2, dtype=np.int32), np.ones(2, np.float32))
    _, unravel = ravel_pytree(tree)
    _, junravel = _jax_ravel(tree)
    v = np.zeros(4, np.float64)
    with pytest.raises(TypeError, match="expected dtype float32"):
        unravel(padax.to_tensor(v))
    with jax.enable_x64(True), pytest.raises(TypeError, match="expected dtype float32"):
        junravel(jax.numpy.asarray(v))


def test_empty_tree_is_an_empty_float32_vector():
    for tree in ((), {}, [None]):
        flat, unravel = ravel_pytree(tree)
        jflat, _ = _jax_ravel(tree)
        assert flat.shape == jflat.shape == (0,)
        assert np.asarray(flat).dtype == jflat.dtype == np.float32
        assert padax.tree_util.tree_structure(unravel(flat)) == padax.tree_util.tree_structure(tree)


def test_under_jit_grad_and_vmap():
    tree = {"w": np.arange(6.0).reshape(2, 3), "b": np.ones(3)}
    flat, unravel = ravel_pytree(tree)

    def loss(v):
        t = unravel(v)
        return (t["w"] ** 2).sum() + t["b"].sum()

    g = padax.jit(padax.grad(loss))(flat)
    np.testing.assert_allclose(np.asarray(g), np.concatenate([np.ones(3), 2 * np.arange(6.0)]))
    batch = padax.vmap(lambda v: unravel(v)["w"])(padax.numpy.stack([flat, 2 * flat]))
    np.testing.assert_array_equal(np.asarray(batch), np.stack([tree["w"], 2 * tree["w"]]))


def test_public_module_and_attribute():
    assert padax.flatten_util.ravel_pytree is ravel_pytree
    from padax.transforms import flatten_util as implementation
    assert implementation.ravel_pytree is ravel_pytree
