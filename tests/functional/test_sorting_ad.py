"""Derivatives and vmap of sort (single and multi-operand) and top_k."""
import numpy as np
import pytest

import padax
import padax.lax as lax
from padax.runtime import tree as tree_util
from padax.test_util import check_grads
from padax.transforms.ad import jvp, linear_transpose, vjp
from padax.transforms.batching import vmap


def no_ties(shape, seed=0):
    """Distinct values (random permutation plus jitter), so the sort order is locally constant."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    return (rng.permutation(n) + rng.uniform(0.1, 0.9, n)).reshape(shape) / n - 0.5


def check_vmap(f, args, in_axes, jit=False):
    """vmap(f) (optionally under jit) equals stacking f over a Python loop."""
    g = vmap(f, in_axes=in_axes)
    out = (padax.jit(g) if jit else g)(*args)
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    rows = [f(*[a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, in_axes)])
            for i in range(size)]
    expected = tree_util.map(lambda *r: np.stack([np.asarray(v) for v in r]), *rows)
    for o, e in zip(tree_util.leaves(out), tree_util.leaves(expected)):
        np.testing.assert_array_equal(np.asarray(o), e)


@pytest.mark.parametrize("dim", [0, 1, 2])
def test_sort_grads(x64, dim):
    x = no_ties((3, 4, 5))
    check_grads(lambda x: lax.sort(x, dim), (x,), order=2)


@pytest.mark.parametrize("num_keys", [1, 2])
def test_multi_operand_sort_grads(x64, num_keys):
    tied = np.round(no_ties((4, 6)) * 4)  # ties in the first key, broken by the second / by position
    keys = no_ties((4, 6), seed=2)
    vals = no_ties((4, 6), seed=1)
    check_grads(lambda k, v: lax.sort((tied, k, v), 1, num_keys=num_keys), (keys, vals), order=2)
    ints = np.arange(24, dtype=np.int32).reshape(4, 6)
    check_grads(lambda v: lax.sort((tied, ints, v), 1, num_keys=num_keys)[2], (vals,), order=2)


def test_sort_tangent_follows_the_keys(x64):
    keys = np.array([3.0, 1.0, 2.0, 1.0])
    vals = np.array([10.0, 20.0, 30.0, 40.0])
    for stable in (True, False):
        (_, vs), (tk, tv) = jvp(lambda k, v: lax.sort((k, v), 0, is_stable=stable),
                                (keys, vals), (np.arange(4.0), vals * 0.5))
        np.testing.assert_array_equal(np.asarray(vs), [20, 40, 30, 10])
        np.testing.assert_array_equal(np.asarray(tv), [10, 20, 15, 5])   # same order as the values
        np.testing.assert_array_equal(np.asarray(tk), [1, 3, 2, 0])


def test_sort_transpose_is_the_inverse_permutation(x64):
    keys = no_ties((2, 5))
    f = lambda v: lax.sort((keys, v), 1)[1]  # noqa: E731 - linear in v
    ct = np.arange(10.0).reshape(2, 5)
    (back,) = linear_transpose(f, np.zeros((2, 5)))(ct)
    order = np.argsort(keys, axis=1)
    expected = np.zeros_like(ct)
    np.put_along_axis(expected, order, ct, axis=1)
    np.testing.assert_array_equal(np.asarray(back), expected)
    with pytest.raises(TypeError, match="not linear in its keys"):
        linear_transpose(lambda k: lax.sort(k, 0), np.zeros(3))(np.ones(3))


@pytest.mark.parametrize("k", [1, 3, 5])
def test_top_k_grads(x64, k):
    x = no_ties((3, 2, 5))
    check_grads(lambda x: lax.top_k(x, k)[0], (x,), order=2)


def test_against_jax(x64):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    x = no_ties((3, 6))
    t = np.random.default_rng(2).standard_normal(x.shape)
    keys = no_ties((3, 6), seed=5)
    pairs = [(lambda x: lax.sort(x, 1), lambda x: jax.lax.sort(x, dimension=1)),
             (lambda x: lax.sort(x, 0), lambda x: jax.lax.sort(x, dimension=0)),
             (lambda x: lax.top_k(x, 4)[0], lambda x: jax.lax.top_k(x, 4)[0]),
             (lambda x: lax.sort((keys, x), 1)[1],
              lambda x: jax.lax.sort((keys, x), dimension=1, num_keys=1)[1])]
    for f, jf in pairs:
        np.testing.assert_allclose(np.asarray(jvp(f, (x,), (t,))[1]), np.asarray(jax.jvp(jf, (x,), (t,))[1]),
                                   rtol=1e-12)
        out, f_vjp = vjp(f, x)
        ct = np.random.default_rng(3).standard_normal(np.shape(out))
        np.testing.assert_allclose(np.asarray(f_vjp(ct)[0]), np.asarray(jax.vjp(jf, x)[1](ct)[0]), rtol=1e-12)


@pytest.mark.parametrize("in_axis", [0, 1, 2])
@pytest.mark.parametrize("dim", [0, 1])
def test_vmap_sort(in_axis, dim):
    x = no_ties((3, 4, 5)).astype(np.float32)
    check_vmap(lambda x: lax.sort(x, dim), (x,), (in_axis,), jit=dim == 1)
    y = np.arange(60, dtype=np.int32).reshape(3, 4, 5)
    check_vmap(lambda x, y: lax.sort((x, y), dim), (x, y), (in_axis, in_axis))
    x, y = no_ties((4, 4, 4)).astype(np.float32), np.arange(64, dtype=np.int32).reshape(4, 4, 4)
    check_vmap(lambda x, y: lax.sort((x, y), dim), (x, y), (in_axis, (in_axis + 1) % 3), jit=True)


def test_vmap_sort_unbatched_operand():
    keys = np.round(no_ties((3, 6)) * 3).astype(np.float32)
    vals = np.arange(6, dtype=np.int32)
    check_vmap(lambda k, v: lax.sort((k, v), 0), (keys, vals), (0, None))
    check_vmap(lambda k, v: lax.sort((k, v), 0, num_keys=2), (keys.T, vals), (1, None), jit=True)
    check_vmap(lambda k, v: lax.sort((v, k), 0), (keys, vals), (0, None))


@pytest.mark.parametrize("in_axis", [0, 1, 2])
def test_vmap_top_k(in_axis):
    x = no_ties((3, 4, 5)).astype(np.float32)
    check_vmap(lambda x: lax.top_k(x, 2), (x,), (in_axis,))
    check_vmap(lambda x: lax.top_k(x, 3), (x,), (in_axis,), jit=True)


def test_vmap_of_grads(x64):
    x = no_ties((3, 4, 5))
    ct = np.random.default_rng(4).standard_normal((4, 2))
    for f in (lambda x: lax.sort(x, 0)[:, :2], lambda x: lax.top_k(x, 2)[0]):
        out = vmap(lambda x: vjp(f, x)[1](ct)[0])(x)
        expected = np.stack([np.asarray(vjp(f, a)[1](ct)[0]) for a in x])
        np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-12)


def test_grad_under_jit(x64):
    from padax.transforms.ad import grad
    x = no_ties((3, 5))
    w = np.arange(15.0).reshape(3, 5)
    for f in (lambda x: lax.reduce_sum(lax.sort(x, 0) * w, (0, 1)),
              lambda x: lax.reduce_sum(lax.sort((x, x * x), 1)[1] * w, (0, 1)),
              lambda x: lax.reduce_sum(lax.top_k(x, 3)[0] * w[:, :3], (0, 1))):
        g = grad(f)
        np.testing.assert_allclose(np.asarray(padax.jit(g)(x)), np.asarray(g(x)), rtol=1e-12)
