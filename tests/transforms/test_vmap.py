"""vmap: in_axes/out_axes forms, nesting, closures, errors, and named-axis collectives."""
import numpy as np
import pytest

import padax
from padax import lax

X = np.arange(12, dtype=np.float32).reshape(3, 4)


def test_in_axes_forms_and_out_axes():
    f = lambda a, b: a * 2 + b  # noqa: E731
    b = np.ones(4, np.float32)
    np.testing.assert_allclose(padax.vmap(f, in_axes=(0, None))(X, b).numpy(), X * 2 + 1)
    np.testing.assert_allclose(padax.vmap(f, in_axes=(1, None), out_axes=1)(X.T.copy(), np.ones(4, np.float32)).numpy(),
                               X.T * 2 + 1)
    np.testing.assert_allclose(padax.vmap(lambda a: a.sum(), in_axes=-1)(X).numpy(), X.sum(0))
    out = padax.vmap(lambda d: {"s": d["a"] + d["b"]}, in_axes=({"a": 0, "b": None},))({"a": X, "b": b})
    np.testing.assert_allclose(out["s"].numpy(), X + 1)


def test_nested_vmap_and_closure_over_batched_value():
    def outer(row):
        return padax.vmap(lambda e: e * row.sum())(row)

    np.testing.assert_allclose(padax.vmap(outer)(X).numpy(), X * X.sum(1, keepdims=True))


def test_axis_size_without_mapped_inputs():
    out = padax.vmap(lambda: padax.to_tensor(1.0), in_axes=(), axis_size=3)()
    np.testing.assert_allclose(out.numpy(), [1.0, 1.0, 1.0])


def test_vmap_under_jit_and_of_jit():
    f = padax.jit(lambda a: lax.sin(a) * 2)
    np.testing.assert_allclose(padax.vmap(f)(X).numpy(), np.sin(X) * 2, rtol=1e-6)
    np.testing.assert_allclose(padax.jit(padax.vmap(lambda a: lax.sin(a)))(X).numpy(), np.sin(X), rtol=1e-6)


def test_inconsistent_sizes_error_names_arguments():
    with pytest.raises(ValueError, match="inconsistent sizes") as e:
        padax.vmap(lambda a, b: a + b)(X, np.ones((5, 4), np.float32))
    assert "test_vmap.py" in str(e.value)


def test_in_axes_tree_mismatch_and_out_of_range():
    with pytest.raises(ValueError, match="in_axes"):
        padax.vmap(lambda d: d, in_axes=({"zz": 0},))({"a": X})
    with pytest.raises(ValueError, match="out of range"):
        padax.vmap(lambda a: a, in_axes=5)(X)


# ---- collectives over a named vmap axis ---------------------------------------------------

def test_psum_pmean_pmax_pmin():
    np.testing.assert_allclose(padax.vmap(lambda v: v / lax.psum(v, "i"), axis_name="i")(X).numpy(),
                               X / X.sum(0), rtol=1e-6)
    np.testing.assert_allclose(padax.vmap(lambda v: lax.pmean(v, "i"), axis_name="i")(X).numpy(),
                               np.broadcast_to(X.mean(0), X.shape))
    np.testing.assert_allclose(padax.vmap(lambda v: lax.pmax(v, "i"), axis_name="i")(X).numpy(),
                               np.broadcast_to(X.max(0), X.shape))
    np.testing.assert_allclose(padax.vmap(lambda v: lax.pmin(v, "i"), axis_name="i")(X).numpy(),
                               np.broadcast_to(X.min(0), X.shape))


def test_all_gather_axis_index_ppermute():
    g = padax.vmap(lambda v: lax.all_gather(v, "i"), axis_name="i")(X)
    assert g.shape == (3, 3, 4)
    np.testing.assert_allclose(g.numpy()[1], X)
    tiled = padax.vmap(lambda v: lax.all_gather(v, "i", tiled=True), axis_name="i")(X)
    assert tiled.shape == (3, 12)
    np.testing.assert_allclose(padax.vmap(lambda v: lax.axis_index("i"), axis_name="i")(X).numpy(), [0, 1, 2])
    shifted = padax.vmap(lambda v: lax.ppermute(v, "i", [(0, 1), (1, 2)]), axis_name="i")(X).numpy()
    np.testing.assert_allclose(shifted, np.stack([np.zeros(4), X[0], X[1]]))


def test_nested_named_axes():
    y = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    out = padax.vmap(padax.vmap(lambda v: lax.psum(v, "outer"), axis_name="inner"), axis_name="outer")(y)
    np.testing.assert_allclose(out.numpy(), np.broadcast_to(y.sum(0), y.shape))


def test_gradients_through_collectives_match_jax():
    jax = pytest.importorskip("jax")
    f = lambda v: (v * lax.psum(v, "i")).sum()  # noqa: E731
    jf = lambda v: (v * jax.lax.psum(v, "i")).sum()  # noqa: E731
    got = padax.grad(lambda x: padax.vmap(f, axis_name="i")(x).sum())(X)
    ref = jax.grad(lambda x: jax.vmap(jf, axis_name="i")(x).sum())(X)
    np.testing.assert_allclose(got.numpy(), np.asarray(ref), rtol=1e-6)
    got = padax.vmap(padax.grad(f), axis_name="i")(X)
    ref = jax.vmap(jax.grad(jf), axis_name="i")(X)
    np.testing.assert_allclose(got.numpy(), np.asarray(ref), rtol=1e-6)
    g = padax.grad(lambda x: padax.vmap(lambda v: (lax.all_gather(v, "i") ** 2).sum(), axis_name="i")(x).sum())(X)
    ref = jax.grad(lambda x: jax.vmap(lambda v: (jax.lax.all_gather(v, "i") ** 2).sum(), axis_name="i")(x).sum())(X)
    np.testing.assert_allclose(g.numpy(), np.asarray(ref), rtol=1e-6)


def test_unbound_axis_name_is_a_clear_error():
    with pytest.raises(NameError, match="not bound"):
        lax.psum(padax.to_tensor([1.0]), "nope")
