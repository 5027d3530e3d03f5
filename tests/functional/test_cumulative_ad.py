"""Derivatives and vmap of cumsum/cumprod/cummax/cummin."""
import numpy as np
import pytest

import padax
import padax.lax as lax
from padax.test_util import check_grads
from padax.transforms.ad import jvp, vjp
from padax.transforms.batching import vmap

KINDS = ["cumsum", "cumprod", "cummax", "cummin"]


def no_ties(shape, seed=0):
    """Distinct values (random permutation plus jitter), so running max/min are differentiable."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    return (rng.permutation(n) + rng.uniform(0.1, 0.9, n)).reshape(shape) / n - 0.5


def check_vmap(f, x, in_axis, jit=False):
    """vmap(f) (optionally under jit) equals stacking f over a Python loop."""
    g = vmap(f, in_axes=in_axis)
    out = np.asarray((padax.jit(g) if jit else g)(x))
    expected = np.stack([np.asarray(f(np.take(x, i, axis=in_axis))) for i in range(x.shape[in_axis])])
    np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("reverse", [False, True])
def test_grads(x64, kind, axis, reverse):
    x = no_ties((5, 4)) * 3
    f = getattr(lax, kind)
    check_grads(lambda x: f(x, axis, reverse), (x,), order=2)


@pytest.mark.parametrize("reverse", [False, True])
def test_cumprod_with_zeros(x64, reverse):
    """Exact partials (no division by x) when an axis holds one or several zeros."""
    x = np.random.default_rng(1).uniform(0.5, 1.5, (9, 3))
    x[2, 0] = 0.0
    x[1, 1] = x[6, 1] = 0.0
    check_grads(lambda x: lax.cumprod(x, 0, reverse), (x,), order=2)
    t = np.random.default_rng(2).standard_normal(x.shape)
    _, dt = jvp(lambda x: lax.cumprod(x, 0, reverse), (x,), (t,))
    xs, ts = (x[::-1], t[::-1]) if reverse else (x, t)
    expected = np.zeros_like(x)
    for i in range(9):
        for j in range(i + 1):
            expected[i] += ts[j] * np.prod(np.delete(xs[:i + 1], j, axis=0), axis=0)
    expected = expected[::-1] if reverse else expected
    np.testing.assert_allclose(np.asarray(dt), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", ["cummax", "cummin"])
def test_running_extremum_tangent(x64, kind):
    """The tangent follows the element holding the running extremum; tied elements share it as in
    jax (the scan's pairwise max splits a tie evenly): jax 0.10 gives these values."""
    x = np.array([1.0, 3.0, 2.0, 3.0, 5.0, 4.0])
    if kind == "cummin":
        x = -x
    t = np.arange(10.0, 16.0)
    _, dt = jvp(lambda x: getattr(lax, kind)(x, 0), (x,), (t,))
    np.testing.assert_array_equal(np.asarray(dt), [10, 11, 11, 12, 14, 14])


def test_cumsum_transpose_runs_backwards(x64):
    (g,) = vjp(lambda x: lax.cumsum(x, 0), np.zeros(4))[1](np.array([1.0, 2.0, 3.0, 4.0]))
    np.testing.assert_array_equal(np.asarray(g), [10, 9, 7, 4])
    (g,) = vjp(lambda x: lax.cumsum(x, 0, reverse=True), np.zeros(4))[1](np.array([1.0, 2.0, 3.0, 4.0]))
    np.testing.assert_array_equal(np.asarray(g), [1, 3, 6, 10])


@pytest.mark.parametrize("kind", KINDS)
def test_against_jax(x64, kind):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    x = no_ties((6, 3)) * 4
    if kind == "cumprod":
        x[2, 1] = 0.0
    t = np.random.default_rng(3).standard_normal(x.shape)
    for axis in (0, 1):
        for reverse in (False, True):
            f = lambda x: getattr(lax, kind)(x, axis, reverse)  # noqa: E731
            jf = lambda x: getattr(jax.lax, kind)(x, axis, reverse)  # noqa: E731
            np.testing.assert_allclose(np.asarray(jvp(f, (x,), (t,))[1]),
                                       np.asarray(jax.jvp(jf, (x,), (t,))[1]), rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(np.asarray(vjp(f, x)[1](t)[0]),
                                       np.asarray(jax.vjp(jf, x)[1](t)[0]), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("in_axis", [0, 1, 2])
def test_vmap(kind, in_axis):
    x = (no_ties((3, 4, 5)) + 1).astype(np.float32)
    f = getattr(lax, kind)
    for axis in (0, 1):
        for reverse in (False, True):
            check_vmap(lambda x: f(x, axis, reverse), x, in_axis, jit=reverse)


def test_vmap_integer_and_unbatched():
    x = np.random.default_rng(4).integers(-5, 5, (3, 4)).astype(np.int32)
    check_vmap(lambda x: lax.cummax(x, 0), x, 1, jit=True)
    y = np.arange(4.0, dtype=np.float32)
    out = vmap(lambda x, y: (lax.cumsum(x, 0), lax.cumprod(y, 0)), in_axes=(0, None))(x, y)
    np.testing.assert_array_equal(np.asarray(out[0]), np.cumsum(x, 1))
    np.testing.assert_array_equal(np.asarray(out[1]), np.broadcast_to(np.cumprod(y), (3, 4)))


def test_vmap_of_jvp(x64):
    x = no_ties((3, 6)) * 3
    t = np.random.default_rng(5).standard_normal(x.shape)
    for kind in KINDS:
        f = lambda x: getattr(lax, kind)(x, 0)  # noqa: E731
        out = vmap(lambda x, t: jvp(f, (x,), (t,))[1])(x, t)
        expected = np.stack([np.asarray(jvp(f, (a,), (b,))[1]) for a, b in zip(x, t)])
        np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-12)


def test_grad_under_jit(x64):
    from padax.transforms.ad import grad
    x = no_ties((3, 5)) * 3
    for kind in KINDS:
        g = grad(lambda x: lax.reduce_sum(getattr(lax, kind)(x, 1, True), (0, 1)))
        np.testing.assert_allclose(np.asarray(padax.jit(g)(x)), np.asarray(g(x)), rtol=1e-12)
