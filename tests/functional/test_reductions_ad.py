"""Derivatives and vmap of the reduction primitives (reduce_*, argmax/argmin)."""
import numpy as np
import pytest

import padax
import padax.lax as lax
from padax.runtime import tree as tree_util
from padax.test_util import check_grads
from padax.transforms.ad import grad, jvp, vjp
from padax.transforms.batching import vmap

AXES = [(1,), (0, 2), (0, 1, 2)]


def no_ties(shape, seed=0):
    """Distinct values (random permutation plus jitter), so max/min are differentiable."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    return (rng.permutation(n) + rng.uniform(0.1, 0.9, n)).reshape(shape) / n


def check_vmap(f, args, in_axes, jit=False):
    """vmap(f) (optionally under jit) equals stacking f over a Python loop."""
    g = vmap(f, in_axes=in_axes)
    out = (padax.jit(g) if jit else g)(*args)
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    rows = [f(*[a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, in_axes)])
            for i in range(size)]
    expected = tree_util.map(lambda *r: np.stack([np.asarray(v) for v in r]), *rows)
    for o, e in zip(tree_util.leaves(out), tree_util.leaves(expected)):
        np.testing.assert_allclose(np.asarray(o), e, rtol=1e-6, atol=1e-6)
        assert np.asarray(o).dtype == e.dtype


@pytest.mark.parametrize("axes", AXES)
def test_reduce_sum_grads(x64, axes):
    x = np.random.default_rng(0).standard_normal((3, 4, 2))
    check_grads(lambda x: lax.reduce_sum(x, axes), (x,), order=2)


@pytest.mark.parametrize("name", ["reduce_sum", "reduce_prod", "reduce_max", "reduce_min"])
def test_empty_axes_is_identity(x64, name):
    x = no_ties((2, 3))
    check_grads(lambda x: getattr(lax, name)(x, ()), (x,), order=1)


def test_reduce_sum_transpose_is_broadcast(x64):
    x = np.ones((2, 3))
    (g,) = vjp(lambda x: lax.reduce_sum(x, (1,)), x)[1](np.array([1.0, 5.0]))
    np.testing.assert_array_equal(np.asarray(g), [[1, 1, 1], [5, 5, 5]])


@pytest.mark.parametrize("axes", AXES)
def test_reduce_prod_grads(x64, axes):
    x = np.random.default_rng(1).uniform(0.5, 1.5, (3, 4, 2)) * np.sign(
        np.random.default_rng(2).standard_normal((3, 4, 2)))
    check_grads(lambda x: lax.reduce_prod(x, axes), (x,), order=2)


@pytest.mark.parametrize("zeros", [[(0, 1, 0)], [(0, 1, 0), (2, 3, 1)], [(0, 1, 0), (0, 2, 0)]])
def test_reduce_prod_with_zeros(x64, zeros):
    """No division by x: one zero in a group leaves one nonzero partial, two zeros none."""
    x = np.random.default_rng(3).uniform(0.5, 1.5, (3, 4, 2))
    for z in zeros:
        x[z] = 0.0
    for axes in [(1,), (0, 1), (0, 1, 2)]:
        check_grads(lambda x: lax.reduce_prod(x, axes), (x,), order=2)
    g = grad(lambda x: lax.reduce_sum(lax.reduce_prod(x, (1,)), (0, 1)))(x)
    expected = np.zeros_like(x)
    for i in range(3):
        for k in range(2):
            for j in range(4):
                expected[i, j, k] = np.prod(np.delete(x[i, :, k], j))
    np.testing.assert_allclose(np.asarray(g), expected, rtol=1e-12)


@pytest.mark.parametrize("kind", ["max", "min"])
@pytest.mark.parametrize("axes", AXES)
def test_reduce_max_min_grads(x64, kind, axes):
    f = getattr(lax, f"reduce_{kind}")
    check_grads(lambda x: f(x, axes), (no_ties((3, 4, 2)),), order=2)


@pytest.mark.parametrize("kind", ["max", "min"])
def test_reduce_max_min_ties_share_the_tangent(x64, kind):
    f = getattr(lax, f"reduce_{kind}")
    v = 3.0 if kind == "max" else -3.0
    x = np.array([[1.0, v, 0.0, v, v], [0.5, 1.0, v, 2.0, -2.0]])
    t = np.arange(1.0, 11.0).reshape(2, 5)
    _, dt = jvp(lambda x: f(x, (1,)), (x,), (t,))
    np.testing.assert_allclose(np.asarray(dt), [(2 + 4 + 5) / 3, 8.0])
    g = grad(lambda x: lax.reduce_sum(f(x, (1,)), (0,)))(x)
    np.testing.assert_allclose(np.asarray(g), [[0, 1 / 3, 0, 1 / 3, 1 / 3], [0, 0, 1, 0, 0]])


def test_against_jax(x64):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    x = np.random.default_rng(4).uniform(-2, 2, (4, 5))
    x[1, 2] = 0.0
    x[3, 0] = x[3, 4] = 0.0
    x[2, 1] = x[2, 3] = 5.0  # a tie for max along axis 1
    jnp = jax.numpy
    cases = [("reduce_prod", jnp.prod), ("reduce_max", jnp.max), ("reduce_min", jnp.min),
             ("reduce_sum", jnp.sum)]
    for name, jfun in cases:
        for axes in [(1,), (0, 1)]:
            f = getattr(lax, name)
            out, f_vjp = vjp(lambda x: f(x, axes), x)
            ct = np.random.default_rng(5).standard_normal(np.shape(out))
            j_out, j_vjp = jax.vjp(lambda x: jfun(x, axis=axes), x)
            np.testing.assert_allclose(np.asarray(f_vjp(ct)[0]), np.asarray(j_vjp(ct)[0]), rtol=1e-12,
                                       atol=1e-12, err_msg=f"{name} {axes}")
            t = np.random.default_rng(6).standard_normal(x.shape)
            np.testing.assert_allclose(np.asarray(jvp(lambda x: f(x, axes), (x,), (t,))[1]),
                                       np.asarray(jax.jvp(lambda x: jfun(x, axis=axes), (x,), (t,))[1]),
                                       rtol=1e-12, atol=1e-12, err_msg=f"{name} {axes}")


def test_arg_and_logical_reductions_have_zero_tangents(x64):
    """argmax/argmin inside a differentiated function contribute nothing."""
    x = no_ties((3, 4))

    def f(x):
        idx = lax.convert_element_type(lax.argmax(x, 1) + lax.argmin(x, 0)[:3], np.float64)
        anyneg = lax.convert_element_type(lax.reduce_or(x < 0.5, (1,)), np.float64)
        return lax.reduce_sum(lax.reduce_sum(x, (1,)) * (idx + anyneg), (0,))

    g = grad(f)(x)
    w = np.argmax(x, 1) + np.argmin(x, 0)[:3] + (x < 0.5).any(1)
    np.testing.assert_allclose(np.asarray(g), np.broadcast_to(w[:, None], x.shape))
    check_grads(f, (x,), order=1)


@pytest.mark.parametrize("name", ["reduce_sum", "reduce_prod", "reduce_max", "reduce_min"])
@pytest.mark.parametrize("in_axis", [0, 1, 2])
@pytest.mark.parametrize("jit", [False, True])
def test_vmap_reduce(name, in_axis, jit):
    x = no_ties((3, 4, 5)).astype(np.float32) + 0.5
    f = getattr(lax, name)
    for axes in [(0,), (1,), (0, 1), ()]:
        check_vmap(lambda x: f(x, axes), (x,), (in_axis,), jit)


@pytest.mark.parametrize("name", ["reduce_and", "reduce_or"])
@pytest.mark.parametrize("in_axis", [0, 2])
def test_vmap_logical(name, in_axis):
    x = np.random.default_rng(5).integers(0, 2, (3, 4, 5)).astype(bool)
    f = getattr(lax, name)
    for axes in [(0,), (1,), (0, 1)]:
        check_vmap(lambda x: f(x, axes), (x,), (in_axis,), jit=in_axis == 2)


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("in_axis", [0, 1, 2])
def test_vmap_arg(name, in_axis):
    x = no_ties((3, 4, 5)).astype(np.float32)
    f = getattr(lax, name)
    for axis in [0, 1]:
        check_vmap(lambda x: f(x, axis), (x,), (in_axis,), jit=in_axis == 1)


def test_vmap_with_unbatched_operand():
    x = no_ties((3, 4)).astype(np.float32)
    y = no_ties((4, 2), seed=1).astype(np.float32)
    check_vmap(lambda x, y: (lax.reduce_max(x, (0,)), lax.reduce_sum(y, (1,))), (x, y), (1, None))
    check_vmap(lambda x, y: (lax.argmin(x, 0), lax.reduce_prod(y, (0,))), (x, y), (None, 0), jit=True)


def test_vmap_of_grad(x64):
    x = no_ties((3, 4, 2))
    for f in (lax.reduce_max, lax.reduce_prod, lax.reduce_sum):
        check_vmap(grad(lambda x: lax.reduce_sum(f(x, (0,)), (0,))), (x,), (2,))


def test_grad_under_jit(x64):
    x = no_ties((3, 4))
    for name in ("reduce_max", "reduce_min", "reduce_prod", "reduce_sum"):
        g = grad(lambda x: lax.reduce_sum(getattr(lax, name)(x, (1,)), (0,)))
        np.testing.assert_allclose(np.asarray(padax.jit(g)(x)), np.asarray(g(x)), rtol=1e-12)
