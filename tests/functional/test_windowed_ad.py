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
def test_ties_go_to_the_first_in_window_order(x64, kind):
    """As XLA's SelectAndScatter and Paddle's pooling gradients: the first extremum takes it all."""
    x = np.array([[1.0, 4.0, 4.0, 0.0], [4.0, 2.0, 3.0, 3.0]])
    if kind == "min":
        x = -x
    t = np.arange(8.0).reshape(2, 4)
    fn = getattr(lax, f"reduce_window_{kind}")
    for s, expected in [((2, 2), [[1.0, 2.0]]), ((1, 1), [[1.0, 1.0, 2.0]])]:
        _, dt = jvp(lambda x: fn(x, (2, 2), s), (x,), (t,))
        np.testing.assert_allclose(np.asarray(dt), expected)
        out, f_vjp = vjp(lambda x: fn(x, (2, 2), s), x)
        (g,) = f_vjp(np.ones(np.shape(out)))
        np.testing.assert_allclose((np.asarray(g) * t).sum(), np.sum(expected))
    # dilated windows take the slicing path: window (0,0),(0,2),(1,0),(1,2) has ties at 4.0 (0,2),(1,0)
    _, dt = jvp(lambda x: fn(x, (2, 2), (1, 1), "VALID", None, (1, 2)), (x,), (t,))
    np.testing.assert_allclose(np.asarray(dt), [[2.0, 1.0]])


@pytest.mark.parametrize("kind", ["max", "min"])
def test_select_primitives_are_transposes(x64, kind):
    """select_and_gather_add and select_and_scatter_add: <ct, G t> == <S ct, t>, vmapped too."""
    sel = "ge" if kind == "max" else "le"
    x = no_ties((2, 7, 6))
    w, s, p = (1, 3, 2), (1, 2, 2), ((0, 0), (1, 1), (0, 1))
    t = np.random.default_rng(3).standard_normal(x.shape)
    g = lax.select_and_gather_add(t, x, sel, w, s, p)
    ct = np.random.default_rng(4).standard_normal(g.shape)
    sc = lax.select_and_scatter_add(ct, x, sel, w, s, p)
    np.testing.assert_allclose(np.sum(np.asarray(g) * ct), np.sum(np.asarray(sc) * t), rtol=1e-12)
    _, dt = jvp(lambda x: getattr(lax, f"reduce_window_{kind}")(x, w, s, p), (x,), (t,))
    np.testing.assert_allclose(np.asarray(dt), np.asarray(g), rtol=1e-12)
    vg = vmap(lambda a, b: lax.select_and_gather_add(a, b, sel, w[1:], s[1:], p[1:]))(t, x)
    vs = vmap(lambda a, b: lax.select_and_scatter_add(a, b, sel, w[1:], s[1:], p[1:]), in_axes=(0, 0))(ct, x)
    np.testing.assert_allclose(np.asarray(vg), np.asarray(g), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(vs), np.asarray(sc), rtol=1e-12)
    vs1 = vmap(lambda a: lax.select_and_scatter_add(a, x[0], sel, w[1:], s[1:], p[1:]))(ct)
    np.testing.assert_allclose(np.asarray(vs1[0]), np.asarray(sc[0]), rtol=1e-12)
    check_grads(lambda c: lax.select_and_scatter_add(c, x, sel, w, s, p), (ct,), order=2)
    check_grads(lambda c: lax.select_and_gather_add(c, x, sel, w, s, p), (t,), order=2)
    with pytest.raises(TypeError, match="select_and_scatter_add: source"):
        lax.select_and_scatter_add(ct[:, :1], x, sel, w, s, p)
