"""Derivatives and vmap of reduce_window_sum/max/min (pooling)."""
import numpy as np
import pytest

import padax
import padax.lax as lax
from padax.test_util import check_grads
from padax.transforms.ad import jvp, vjp
from padax.transforms.batching import vmap

# (shape, window, strides, padding, base_dilation, window_dilation)
CASES = [
    ((6, 5), (2, 2), (2, 2), "VALID", None, None),               # disjoint windows
    ((5, 7), (2, 3), (2, 3), "SAME", None, None),                # disjoint, padded
    ((4, 4), (2, 2), (2, 2), ((1, 1), (1, 0)), (2, 2), None),    # disjoint, base-dilated
    ((6, 5), (3, 2), (1, 1), "SAME", None, None),                # overlapping
    ((7, 6), (3, 3), (2, 1), ((1, 2), (0, 1)), (2, 1), (1, 2)),  # dilations
    ((5,), (2,), (3,), ((2, 3),), (1,), (2,)),                   # stride > window
    ((4, 6), (1, 3), (2, 3), "VALID", None, None),
]
IDS = ["disjoint", "disjoint-same", "disjoint-dilated", "overlap", "dilated", "gaps", "mixed"]


def no_ties(shape, seed=0):
    """Distinct values (random permutation plus jitter), so window max/min are differentiable."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    return (rng.permutation(n) + rng.uniform(0.1, 0.9, n)).reshape(shape) / n


def window_fn(kind, case):
    _, w, s, p, bd, wd = case
    return lambda x: getattr(lax, f"reduce_window_{kind}")(x, w, s, p, bd, wd)


@pytest.mark.parametrize("kind", ["sum", "max", "min"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_grads(x64, kind, case):
    check_grads(window_fn(kind, case), (no_ties(case[0]),), order=2 if case[0] == (6, 5) else 1)


@pytest.mark.parametrize("kind", ["sum", "max", "min"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_against_jax(x64, kind, case):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    shape, w, s, p, bd, wd = case
    init, op = {"sum": (0.0, jax.lax.add), "max": (-np.inf, jax.lax.max), "min": (np.inf, jax.lax.min)}[kind]
    jf = lambda x: jax.lax.reduce_window(x, init, op, w, s, p, bd, wd)  # noqa: E731
    f = window_fn(kind, case)
    x = no_ties(shape)
    t = np.random.default_rng(1).standard_normal(shape)
    np.testing.assert_allclose(np.asarray(jvp(f, (x,), (t,))[1]), np.asarray(jax.jvp(jf, (x,), (t,))[1]),
                               rtol=1e-12, atol=1e-12)
    if kind != "sum" and wd is not None and set(wd) != {1}:
        return  # jax has no reverse mode for max/min pooling with window dilation
    out, f_vjp = vjp(f, x)
    ct = np.random.default_rng(2).standard_normal(np.shape(out))
    np.testing.assert_allclose(np.asarray(f_vjp(ct)[0]), np.asarray(jax.vjp(jf, x)[1](ct)[0]),
                               rtol=1e-12, atol=1e-12)


def test_sum_transpose_with_large_padding(x64):
    """Windows lying wholly in the padding send nothing back to the operand."""
    f = lambda x: lax.reduce_window_sum(x, (2,), (3,), ((4, 5),), (1,), (2,))  # noqa: E731
    check_grads(f, (no_ties((5,)),), order=2)
    (g,) = vjp(f, np.zeros(5))[1](np.ones(4))
    np.testing.assert_array_equal(np.asarray(g), [0, 1, 1, 0, 1])


@pytest.mark.parametrize("kind", ["max", "min"])
def test_ties_share_the_tangent(x64, kind):
    x = np.array([[1.0, 4.0, 4.0, 0.0], [4.0, 2.0, 3.0, 3.0]])
    if kind == "min":
        x = -x
    t = np.arange(8.0).reshape(2, 4)
    # stride 2 takes the disjoint-window path, stride 1 the general one
    for s, expected in [((2, 2), [[2.5, 2.0]]), ((1, 1), [[2.5, 1.5, 2.0]])]:
        _, dt = jvp(lambda x: getattr(lax, f"reduce_window_{kind}")(x, (2, 2), s), (x,), (t,))
        np.testing.assert_allclose(np.asarray(dt), expected)


@pytest.mark.parametrize("kind", ["sum", "max", "min"])
@pytest.mark.parametrize("in_axis", [0, 1, 2])
def test_vmap(kind, in_axis):
    for case in (CASES[0], CASES[4]):
        f = window_fn(kind, case)
        xs = np.moveaxis(no_ties((4,) + case[0]), 0, in_axis).astype(np.float32)
        expected = np.stack([np.asarray(f(np.take(xs, i, axis=in_axis))) for i in range(4)])
        g = vmap(f, in_axes=in_axis)
        for fn in (g, padax.jit(g)):
            np.testing.assert_allclose(np.asarray(fn(xs)), expected, rtol=1e-6)


def test_vmap_mixed_unbatched():
    x = no_ties((6, 5)).astype(np.float32)
    y = no_ties((3, 6, 5), seed=1).astype(np.float32)

    def f(x, y):
        return lax.reduce_window_max(x, (2, 2), (1, 1)), lax.reduce_window_sum(y, (3, 2), (2, 1))

    out = vmap(f, in_axes=(None, 0))(x, y)
    for i in range(3):
        a, b = f(x, y[i])
        np.testing.assert_allclose(np.asarray(out[0][i]), np.asarray(a))
        np.testing.assert_allclose(np.asarray(out[1][i]), np.asarray(b))


def test_vmap_of_vjp(x64):
    x = no_ties((3, 6, 5))
    for kind in ("sum", "max"):
        f = window_fn(kind, CASES[3])
        ct = np.ones(np.shape(f(x[0])))
        out = vmap(lambda x: vjp(f, x)[1](ct)[0])(x)
        expected = np.stack([np.asarray(vjp(f, a)[1](ct)[0]) for a in x])
        np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-12)


def test_grad_under_jit(x64):
    from padax.transforms.ad import grad
    x = no_ties((6, 5))
    for kind in ("sum", "max", "min"):
        for case in (CASES[0], CASES[3]):
            f = window_fn(kind, case)
            g = grad(lambda x: lax.reduce_sum(f(x), (0, 1)))
            np.testing.assert_allclose(np.asarray(padax.jit(g)(x)), np.asarray(g(x)), rtol=1e-12)
