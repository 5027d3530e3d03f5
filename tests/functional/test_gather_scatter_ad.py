"""Derivatives (jvp, vjp, higher order) and vmap of gather and the scatter family.

Gradients are checked numerically (padax.test_util.check_grads) and against jax (oracle) for
several dimension-number layouts and out-of-bounds modes; vmap is checked against a loop.
"""
import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax as jlax

import padax
import padax.lax as lax
from padax.test_util import check_grads
from padax.transforms.ad import grad, jacfwd, jacrev, jvp, vjp
from padax.transforms.batching import vmap

jax.config.update("jax_enable_x64", True)
PLATFORM = padax.default_device().platform


def jax_call(f, *args):
    with jax.default_device(jax.devices(PLATFORM)[0]):
        return f(*(jnp.asarray(a) for a in args))


def npy(x):
    return np.asarray(x)


# operand shape, indices, dimension numbers, slice sizes. Index 9 / -1 are out of bounds.
GATHER_CASES = {
    "rows": ((5, 4), [[0], [4], [2], [2]],
             dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)), (1, 4)),
    "columns": ((5, 4), [[3], [0], [1], [1]],
                dict(offset_dims=(0,), collapsed_slice_dims=(1,), start_index_map=(1,)), (5, 1)),
    "points": ((5, 4), [[[0, 1], [4, 3]], [[1, 0], [4, 3]]],
               dict(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1)), (1, 1)),
    "windows": ((6, 5), [[0, 0], [3, 1], [4, 2]],
                dict(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1)), (2, 3)),
    "permuted_map": ((5, 4), [[3, 1], [0, 4], [3, 1]],
                     dict(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(1, 0)), (1, 1)),
    "batching": ((3, 5, 4), [[[1], [4]], [[0], [0]], [[3], [2]]],
                 dict(offset_dims=(2,), collapsed_slice_dims=(1,), start_index_map=(1,),
                      operand_batching_dims=(0,), start_indices_batching_dims=(0,)), (1, 1, 4)),
}
OOB_ROWS = np.array([[0], [4], [9], [-1], [2], [2]], np.int32)
ROWS_KW = dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))


def _gather(case, mode="promise_in_bounds"):
    shape, idx, kw, sizes = GATHER_CASES[case]
    pdn, jdn = lax.GatherDimensionNumbers(**kw), jlax.GatherDimensionNumbers(**kw)
    return (shape, np.asarray(idx, np.int32), lambda a, i: lax.gather(a, i, pdn, sizes, mode=mode),
            lambda a, i: jlax.gather(a, i, jdn, sizes, mode=mode))


@pytest.mark.parametrize("case", list(GATHER_CASES))
def test_gather_grads(case):
    shape, idx, f, _ = _gather(case)
    with padax.enable_x64():
        x = np.random.default_rng(0).standard_normal(shape)
        check_grads(lambda a: f(a, idx), (x,), order=2)


GATHER_JAX_CASES = [(c, "promise_in_bounds") for c in GATHER_CASES] + [
    (c, m) for c in ("rows", "windows", "batching") for m in ("clip", "fill")]


@pytest.mark.parametrize("case,mode", GATHER_JAX_CASES)
def test_gather_vjp_jvp_match_jax(case, mode):
    shape, idx, f, jf = _gather(case, mode)
    rng = np.random.default_rng(1)
    with padax.enable_x64():
        x = rng.standard_normal(shape)
        out, f_vjp = vjp(lambda a: f(a, idx), x)
        ct = rng.standard_normal(npy(out).shape)
        _, j_vjp = jax_call(lambda a: jax.vjp(lambda b: jf(b, idx), a), x)
        np.testing.assert_allclose(npy(f_vjp(ct)[0]), npy(j_vjp(jnp.asarray(ct))[0]), rtol=1e-12)
        t = rng.standard_normal(shape)
        np.testing.assert_allclose(npy(jvp(lambda a: f(a, idx), (x,), (t,))[1]),
                                   npy(jax_call(lambda a, b: jax.jvp(lambda c: jf(c, idx), (a,), (b,))[1], x, t)),
                                   rtol=1e-12)


@pytest.mark.parametrize("mode", ["clip", "fill"])
def test_gather_out_of_bounds_grads(mode):
    dn, jdn = lax.GatherDimensionNumbers(**ROWS_KW), jlax.GatherDimensionNumbers(**ROWS_KW)
    with padax.enable_x64():
        x = np.random.default_rng(2).standard_normal((5, 3))
        # fill windows are constants: their tangent is 0 (not the fill value), their cotangent dropped
        f = lambda a: lax.gather(a, OOB_ROWS, dn, (1, 3), mode=mode, fill_value=7.0)
        check_grads(f, (x,), order=2)
        g = npy(grad(lambda a: f(a).sum())(x))
        jg = jax_call(jax.grad(lambda a: jlax.gather(a, OOB_ROWS, jdn, (1, 3), mode=mode, fill_value=7.0).sum()), x)
        np.testing.assert_allclose(g, npy(jg), rtol=1e-12)
        t = npy(jvp(f, (x,), (np.ones_like(x),))[1])
        if mode == "fill":
            np.testing.assert_array_equal(t[2:4], 0.0)


# operand shape, indices, updates shape, dimension numbers
SCATTER_CASES = {
    "rows_repeated": ((5, 4), [[0], [4], [2], [2]], (4, 4),
                      dict(update_window_dims=(1,), inserted_window_dims=(0,),
                           scatter_dims_to_operand_dims=(0,))),
    "points": ((5, 4), [[0, 1], [4, 3], [2, 2], [0, 3]], (4,),
               dict(update_window_dims=(), inserted_window_dims=(0, 1), scatter_dims_to_operand_dims=(0, 1))),
    "windows_overlapping": ((6, 5), [[0, 0], [1, 1], [3, 2]], (3, 2, 3),
                            dict(update_window_dims=(1, 2), inserted_window_dims=(),
                                 scatter_dims_to_operand_dims=(0, 1))),
    "batching": ((3, 5, 4), [[[1], [4]], [[0], [0]], [[3], [2]]], (3, 2, 4),
                 dict(update_window_dims=(2,), inserted_window_dims=(1,), scatter_dims_to_operand_dims=(1,),
                      operand_batching_dims=(0,), scatter_indices_batching_dims=(0,))),
}
UNIQUE_ROWS = ((5, 4), [[0], [4], [2]], (3, 4), SCATTER_CASES["rows_repeated"][3])
OPS = ["scatter", "scatter_add", "scatter_mul", "scatter_min", "scatter_max"]


def _scatter(op, kw, mode=None, unique=False):
    pdn, jdn = lax.ScatterDimensionNumbers(**kw), jlax.ScatterDimensionNumbers(**kw)
    pf, jf = getattr(lax, op), getattr(jlax, op)
    return (lambda a, i, u: pf(a, i, u, pdn, mode=mode, unique_indices=unique),
            lambda a, i, u: jf(a, i, u, jdn, mode=mode, unique_indices=unique))


def _distinct(rng, shape, lo=0.5):
    """Random values without ties, away from zero (so min/max and products are smooth)."""
    n = int(np.prod(shape))
    v = (lo + rng.permutation(n) + rng.uniform(0.1, 0.4, n)) / n * 3.0
    return (v * rng.choice([-1.0, 1.0], n)).reshape(shape)


SCATTER_GRAD_CASES = [(op, c) for op in ("scatter", "scatter_add") for c in SCATTER_CASES] + [
    (op, c) for op in ("scatter_mul", "scatter_min", "scatter_max")
    for c in ("rows_repeated", "windows_overlapping")]


@pytest.mark.parametrize("op,case", SCATTER_GRAD_CASES)
def test_scatter_grads(op, case):
    shape, idx, ushape, kw = SCATTER_CASES[case]
    f, _ = _scatter(op, kw)
    rng = np.random.default_rng(3)
    idx = np.asarray(idx, np.int32)
    with padax.enable_x64():
        vals = _distinct(rng, (int(np.prod(shape)) + int(np.prod(ushape)),))
        x, u = vals[:int(np.prod(shape))].reshape(shape), vals[int(np.prod(shape)):].reshape(ushape)
        check_grads(lambda a, b: f(a, idx, b), (x, u), order=1)


@pytest.mark.parametrize("op", OPS)
def test_scatter_second_order(op):
    shape, idx, ushape, kw = SCATTER_CASES["rows_repeated"]
    f, _ = _scatter(op, kw)
    rng = np.random.default_rng(4)
    with padax.enable_x64():
        x, u = _distinct(rng, shape), _distinct(rng, ushape)
        check_grads(lambda a, b: f(a, np.asarray(idx, np.int32), b), (x, u), order=2)


@pytest.mark.parametrize("op,mode", [(op, "drop") for op in OPS] + [("scatter", "clip"), ("scatter_mul", "clip")])
def test_scatter_vjp_matches_jax(op, mode):
    """Unique indices (jax's scatter_mul gradient needs them), some out of bounds."""
    shape, _, ushape, kw = UNIQUE_ROWS
    idx = np.array([[0], [9], [2]], np.int32)
    f, jf = _scatter(op, kw, mode, unique=True)
    rng = np.random.default_rng(5)
    with padax.enable_x64():
        x, u = _distinct(rng, shape), _distinct(rng, ushape)
        out, f_vjp = vjp(lambda a, b: f(a, idx, b), x, u)
        ct = rng.standard_normal(shape)
        jout, j_vjp = jax_call(lambda a, b: jax.vjp(lambda c, d: jf(c, idx, d), a, b), x, u)
        np.testing.assert_allclose(npy(out), npy(jout), rtol=1e-12)
        for g, jg in zip(f_vjp(ct), j_vjp(jnp.asarray(ct))):
            np.testing.assert_allclose(npy(g), npy(jg), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("op,case", [("scatter", "rows_repeated"), ("scatter", "windows_overlapping"),
                                     ("scatter", "batching"), ("scatter_add", "windows_overlapping"),
                                     ("scatter_min", "rows_repeated"), ("scatter_max", "windows_overlapping")])
def test_scatter_repeated_indices_match_jax(op, case):
    shape, idx, ushape, kw = SCATTER_CASES[case]
    idx = np.asarray(idx, np.int32)
    f, jf = _scatter(op, kw)
    rng = np.random.default_rng(6)
    with padax.enable_x64():
        x, u = _distinct(rng, shape), _distinct(rng, ushape)
        tx, tu = rng.standard_normal(shape), rng.standard_normal(ushape)
        t = npy(jvp(lambda a, b: f(a, idx, b), (x, u), (tx, tu))[1])
        jt = jax_call(lambda *a: jax.jvp(lambda c, d: jf(c, idx, d), a[:2], a[2:])[1], x, u, tx, tu)
        np.testing.assert_allclose(t, npy(jt), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("op", ["scatter_min", "scatter_max"])
def test_scatter_extremal_ties_share_tangent(op):
    """Tied operand and updates share the tangent equally (jax's convention)."""
    kw = SCATTER_CASES["points"][3]
    f, jf = _scatter(op, kw)
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    idx = np.array([[0, 0], [0, 0], [1, 1], [1, 0]], np.int32)
    u = np.array([1.0, 1.0, 0.0 if op == "scatter_max" else 9.0, 3.0])
    with padax.enable_x64():
        tx, tu = np.array([[3.0, 1.0], [1.0, 1.0]]), np.array([6.0, 9.0, 5.0, 2.0])
        t = npy(jvp(lambda a, b: f(a, idx, b), (x, u), (tx, tu))[1])
        jt = jax_call(lambda *a: jax.jvp(lambda c, d: jf(c, idx, d), a[:2], a[2:])[1], x, u, tx, tu)
        np.testing.assert_allclose(t, npy(jt), rtol=1e-12)
        np.testing.assert_allclose(t, [[6.0, 1.0], [1.5, 1.0]])


def test_scatter_mul_repeated_indices_with_zero_updates():
    """d/d y_k of x * prod_j y_j is x * prod_{j != k} y_j, also when some y_j are 0."""
    kw = SCATTER_CASES["points"][3]
    f, _ = _scatter("scatter_mul", kw)
    x = np.array([[2.0, 3.0], [5.0, 7.0]])
    idx = np.array([[0, 0], [0, 0], [0, 0], [1, 1], [1, 1], [0, 1]], np.int32)
    u = np.array([0.0, 4.0, 3.0, 0.0, 0.0, 0.5])
    with padax.enable_x64():
        g = npy(grad(lambda b: f(x, idx, b).sum())(u))
        np.testing.assert_allclose(g, [2 * 12.0, 0.0, 0.0, 0.0, 0.0, 3.0])
        gx = npy(grad(lambda a: f(a, idx, u).sum())(x))
        np.testing.assert_allclose(gx, [[0.0, 0.5], [1.0, 0.0]])
        check_grads(lambda a, b: f(a, idx, b), (x, u), order=1)


def test_scatter_drop_mode_out_of_bounds_updates_get_zero_cotangent():
    kw = UNIQUE_ROWS[3]
    idx = np.array([[0], [7], [-2]], np.int32)
    with padax.enable_x64():
        x, u = np.ones((5, 4)), np.ones((3, 4))
        for op in ["scatter", "scatter_add"]:
            f, _ = _scatter(op, kw, "drop")
            gu = npy(grad(lambda b: (f(x, idx, b) * 2.0).sum())(u))
            np.testing.assert_array_equal(gu, [[2.0] * 4, [0.0] * 4, [0.0] * 4])


def test_jacobians_compose_with_vmap():
    """jacfwd/jacrev run the rules under vmap (batched tangents / cotangents)."""
    kw = SCATTER_CASES["rows_repeated"][3]
    idx = np.asarray(SCATTER_CASES["rows_repeated"][1], np.int32)
    f, jf = _scatter("scatter_add", kw)
    gdn = lax.GatherDimensionNumbers(**ROWS_KW)
    h = lambda a, b: lax.gather(f(a, idx, b), idx, gdn, (1, 4))
    jh = lambda a, b: jlax.gather(jf(a, idx, b), idx, jlax.GatherDimensionNumbers(**ROWS_KW), (1, 4))
    rng = np.random.default_rng(7)
    with padax.enable_x64():
        x, u = rng.standard_normal((5, 4)), rng.standard_normal((4, 4))
        expected = jax_call(jax.jacrev(jh, argnums=(0, 1)), x, u)
        for jac in (jacfwd, jacrev):
            got = jac(h, argnums=(0, 1))(x, u)
            for g, e in zip(got, expected):
                np.testing.assert_allclose(npy(g), npy(e), rtol=1e-12)


# ---- vmap ---------------------------------------------------------------------------------

B = 3


def _stack(x, axis):
    """B distinct variants of x stacked along `axis` (indices are rotated, floats shifted)."""
    if axis is None:
        return x
    parts = [np.roll(x, i, 0) if x.dtype.kind in "iu" else x + i for i in range(B)]
    return np.stack(parts, axis)


def _loop(f, args, axes):
    outs = [f(*(a if ax is None else np.take(a, i, ax) for a, ax in zip(args, axes))) for i in range(B)]
    return np.stack([npy(o) for o in outs])


GATHER_AXES = [(0, None), (None, 0), (0, 0), (1, 1), (2, None)]


@pytest.mark.parametrize("mode", ["clip", "fill"])
@pytest.mark.parametrize("case", ["rows", "windows", "batching"])
def test_gather_vmap(case, mode):
    """Batched operand, batched indices, or both, at several axes; eagerly and under jit."""
    shape, idx, f, _ = _gather(case, mode)
    x = np.random.default_rng(8).standard_normal(shape).astype(np.float32)
    if case == "windows":
        idx = idx.copy()
        idx[-1] = [5, 4]  # out of bounds for a (2, 3) window: clipped or filled
    batched = [(_stack(x, a[0]), _stack(idx, a[1])) for a in GATHER_AXES]
    outs = padax.jit(lambda bs: [vmap(f, in_axes=a)(*b) for a, b in zip(GATHER_AXES, bs)])(batched)
    for k, (axes, args, out) in enumerate(zip(GATHER_AXES, batched, outs)):
        expected = _loop(f, args, axes)
        np.testing.assert_allclose(npy(out), expected, rtol=1e-6, err_msg=str(axes))
        if k == 2:
            np.testing.assert_allclose(npy(vmap(f, in_axes=axes)(*args)), expected, rtol=1e-6)


# each of operand / indices / updates batched alone, in pairs, all three, and at axis 1
AXES3 = [a for a in itertools.product([None, 0], repeat=3) if a != (None, None, None)] + [
    (1, 1, 1), (1, None, 1), (None, 1, 0)]


@pytest.mark.parametrize("case", ["rows_repeated", "windows_overlapping", "batching"])
def test_scatter_vmap(case):
    """Combinations of batched operand / indices / updates (under jit; eagerly for one)."""
    shape, idx, ushape, kw = SCATTER_CASES[case]
    rng = np.random.default_rng(9)
    x, u = rng.standard_normal(shape).astype(np.float32), rng.standard_normal(ushape).astype(np.float32)
    idx = np.asarray(idx, np.int32)
    batched = [(_stack(x, a[0]), _stack(idx, a[1]), _stack(u, a[2])) for a in AXES3]
    # not 'scatter': with repeated indices which update wins is backend-defined
    fs = [_scatter(OPS[1 + k % 4], kw, "drop")[0] for k in range(len(AXES3))]
    eager = vmap(fs[0], in_axes=AXES3[0])(*batched[0])
    outs = padax.jit(lambda bs: [vmap(f, in_axes=a)(*b) for f, a, b in zip(fs, AXES3, bs)])(batched)
    np.testing.assert_allclose(npy(eager), npy(outs[0]), rtol=1e-6)
    for f, axes, args, out in zip(fs, AXES3, batched, outs):
        np.testing.assert_allclose(npy(out), _loop(f, args, axes), rtol=1e-6, err_msg=str(axes))


@pytest.mark.parametrize("op", OPS)
def test_scatter_vmap_clip(op):
    shape, _, ushape, kw = UNIQUE_ROWS
    rng = np.random.default_rng(10)
    x, u = rng.standard_normal(shape).astype(np.float32), rng.standard_normal(ushape).astype(np.float32)
    idx = np.array([[0], [9], [2]], np.int32)
    f, _ = _scatter(op, kw, "clip")
    for axes in [(0, 0, 0), (None, 1, None), (1, None, 0)]:
        xb, ib, ub = _stack(x, axes[0]), _stack(idx, axes[1]), _stack(u, axes[2])
        out = padax.jit(vmap(f, in_axes=axes))(xb, ib, ub)
        np.testing.assert_allclose(npy(out), _loop(f, (xb, ib, ub), axes), rtol=1e-6)


def test_vmap_of_grad_through_gather_and_scatter():
    kw = SCATTER_CASES["rows_repeated"][3]
    idx = np.asarray(SCATTER_CASES["rows_repeated"][1], np.int32)
    f, _ = _scatter("scatter", kw)
    gdn = lax.GatherDimensionNumbers(**ROWS_KW)
    loss = lambda a, b, i: (lax.gather(f(a, i, b), i, gdn, (1, 4)) * 1.5).sum()
    rng = np.random.default_rng(11)
    with padax.enable_x64():
        xb, ub = rng.standard_normal((B, 5, 4)), rng.standard_normal((B, 4, 4))
        ib = _stack(idx, 0)
        g = grad(loss, argnums=(0, 1))
        got = vmap(g)(xb, ub, ib)
        for k in range(2):
            expected = np.stack([npy(g(xb[i], ub[i], ib[i])[k]) for i in range(B)])
            np.testing.assert_allclose(npy(got[k]), expected, rtol=1e-12)
