"""Derivatives (jvp, transpose) and vmap rules of squeeze, slices, dynamic (update) slices,
concatenate, pad, rev, clamp and bitcast_convert_type."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from padax import lax
from padax.functional.lax.structural import dynamic_slice_p, dynamic_update_slice_p
from padax.test_util import check_grads
from padax.transforms.ad import jvp, vjp
from padax.transforms.batching import vmap

RNG = np.random.default_rng(0)


def _rand(*shape):
    return RNG.standard_normal(shape)


def _ds(x, starts, sizes):
    """dynamic_slice primitive directly: starts are clamped only (no wrap of negatives)."""
    return dynamic_slice_p.bind(x, *starts, slice_sizes=tuple(sizes))


def _dus(x, u, starts):
    return dynamic_update_slice_p.bind(x, u, *starts)


def _scalar(v):
    """A (1,)-shaped argument as a scalar. check_grads hands 0-d arguments over as numpy scalars,
    which padax's aval_of mistakes for Python floats, so scalars are passed with shape (1,)."""
    return lax.reshape(v, ())


def _i32(*vals):
    return [padax.device_put(np.asarray(v, np.int32)) for v in vals]


# ---- numerical derivative checks (float64) ------------------------------------------------

GRAD_CASES = {
    "squeeze": (lambda x: lax.squeeze(x, (1, 3)), [(3, 1, 4, 1)]),
    "squeeze_all": (lambda x: lax.squeeze(x, (0,)), [(1,)]),
    "slice": (lambda x: lax.slice(x, (0, 1), (3, 4)), [(3, 5)]),
    "slice_strided": (lambda x: lax.slice(x, (1, 0, 2), (5, 7, 3), (2, 3, 1)), [(6, 7, 3)]),
    "slice_empty": (lambda x: lax.slice(x, (1, 2), (1, 4)), [(3, 5)]),
    "dynamic_slice": (lambda x: _ds(x, _i32(1, 2), (2, 3)), [(4, 6)]),
    "dynamic_slice_clamped": (lambda x: _ds(x, _i32(9, -4), (2, 3)), [(4, 6)]),
    "dynamic_slice_wrapper_negative": (lambda x: lax.dynamic_slice(x, (np.int32(-2), 1), (2, 2)), [(5, 3)]),
    "dynamic_update_slice": (lambda x, u: _dus(x, u, _i32(1, 2)), [(4, 6), (2, 3)]),
    "dynamic_update_slice_clamped": (lambda x, u: _dus(x, u, _i32(-3, 7)), [(4, 6), (3, 2)]),
    "concatenate3": (lambda a, b, c: lax.concatenate([a, b, c], 1), [(2, 1), (2, 3), (2, 2)]),
    "concatenate2": (lambda a, b: lax.concatenate([a, b], 0), [(1, 3), (4, 3)]),
    "pad": (lambda x, v: lax.pad(x, _scalar(v), ((1, 2, 0), (0, 1, 1))), [(3, 2), (1,)]),
    "pad_negative_interior": (lambda x, v: lax.pad(x, _scalar(v), ((-1, 2, 2), (2, -3, 1))), [(3, 4), (1,)]),
    "pad_crop_only": (lambda x, v: lax.pad(x, _scalar(v), ((-1, -1, 0),)), [(4,), (1,)]),
    # only some operands differentiated: the others enter the linear program as constants
    "dynamic_update_slice_operand_only": (lambda x: _dus(x, np.full((2, 2), 3.0), _i32(2, 1)), [(4, 3)]),
    "dynamic_update_slice_update_only": (lambda u: _dus(np.ones((4, 3)), u, _i32(2, 1)), [(2, 2)]),
    "concatenate_with_constant": (lambda a: lax.concatenate([np.ones((2, 2)), a, a], 1), [(2, 3)]),
    "pad_constant_value": (lambda x: lax.pad(x, 2.0, ((1, -1, 1), (0, 0, 0))), [(3, 2)]),
    "rev": (lambda x: lax.rev(x, (0,)), [(3, 2)]),
    "rev2": (lambda x: lax.rev(x, (0, 2)), [(2, 3, 4)]),
}


@pytest.mark.parametrize("name", list(GRAD_CASES))
def test_check_grads(name):
    f, shapes = GRAD_CASES[name]
    args = [_rand(*s) for s in shapes]
    with padax.enable_x64():
        check_grads(f, args, order=2, modes=("fwd", "rev"))


def _away_from_ties(*shape, lo=-1.0, hi=1.0):
    """Values at least 0.1 away from the bounds, so finite differences see a smooth function."""
    x = RNG.uniform(-2.0, 2.0, shape)
    for b in (lo, hi):
        x = np.where(np.abs(x - b) < 0.1, b + 0.3, x)
    return x


def test_clamp_grads_scalar_bounds():
    x = _away_from_ties(3, 4)
    with padax.enable_x64():
        check_grads(lambda lo, x, hi: lax.clamp(_scalar(lo), x, _scalar(hi)), [np.array([-1.0]), x,
                    np.array([1.0])], order=2, modes=("fwd", "rev"))


def test_clamp_grads_array_bounds():
    lo = RNG.uniform(-1.5, -0.5, (5,))
    hi = RNG.uniform(0.5, 1.5, (5,))
    x = np.array([-3.0, -0.2, 0.1, 2.0, 0.0])
    lo2 = np.array([0.5, 0.5, 0.5, 0.5, 0.5])
    hi2 = np.array([-0.5, -0.5, 1.0, 1.0, 1.0])  # min > max on the first two: the result is max
    with padax.enable_x64():
        check_grads(lax.clamp, [lo, x, hi], order=2, modes=("fwd", "rev"))
        check_grads(lax.clamp, [lo2, np.array([0.0, 2.0, 0.7, 3.0, 0.2]), hi2], order=2, modes=("fwd", "rev"))


def test_clamp_tangent_selection_exact():
    """jax's selection: x's tangent strictly inside (min, max), min's below it, max's above it; at a
    bound (x == min or x == max, or min > max with x between) no tangent passes (jax 0.10 gives these)."""
    lo = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0])
    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.0, 1.0, 0.0])
    hi = np.array([1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    ones, zeros = np.ones(7), np.zeros(7)
    with padax.enable_x64():
        t_lo = jvp(lax.clamp, (lo, x, hi), (ones, zeros, zeros))[1].numpy()
        t_x = jvp(lax.clamp, (lo, x, hi), (zeros, ones, zeros))[1].numpy()
        t_hi = jvp(lax.clamp, (lo, x, hi), (zeros, zeros, ones))[1].numpy()
    np.testing.assert_array_equal(t_lo, [1, 0, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(t_x, [0, 0, 1, 0, 0, 0, 0])
    np.testing.assert_array_equal(t_hi, [0, 0, 0, 0, 1, 0, 0])
    # a scalar bound's reverse-mode cotangent sums over the elements where it is active
    g = vjp(lambda lo: lax.clamp(lo, np.float32(x), np.float32(1.0)), np.float32(0.0))[1](np.ones(7, np.float32))
    assert float(g[0].numpy()) == 1.0


def test_pad_transpose_values():
    """vjp of pad against a hand-computed result: crops re-grow as zeros, interior gaps skip."""
    x = np.arange(1.0, 5.0, dtype=np.float32)
    config = ((-1, 2, 1),)  # [x0 p x1 p x2 p x3] cropped at the front, 2 pads at the back
    out, f_vjp = vjp(lambda x, v: lax.pad(x, v, config), x, np.float32(0.0))
    assert out.shape == (8,)
    ct = np.arange(10.0, 18.0, dtype=np.float32)
    ct_x, ct_v = f_vjp(ct)
    np.testing.assert_array_equal(ct_x.numpy(), [0.0, 11.0, 13.0, 15.0])
    assert float(ct_v.numpy()) == ct.sum() - 39.0


def test_slice_and_dynamic_slice_transpose_values():
    x = np.zeros((4, 5), np.float32)
    ct = np.arange(1.0, 5.0, dtype=np.float32).reshape(2, 2)
    (g,) = vjp(lambda x: lax.slice(x, (1, 0), (4, 5), (2, 3)), x)[1](ct)
    want = np.zeros((4, 5), np.float32)
    want[1:4:2, 0:5:3] = ct
    np.testing.assert_array_equal(g.numpy(), want)
    (g,) = vjp(lambda x: _ds(x, _i32(7, 3), (2, 2)), x)[1](ct)  # clamped to (2, 3)
    want = np.zeros((4, 5), np.float32)
    want[2:4, 3:5] = ct
    np.testing.assert_array_equal(g.numpy(), want)
    gx, gu = vjp(lambda x, u: _dus(x, u, _i32(-1, 4)), x, np.ones((2, 2), np.float32))[1](
        np.arange(20.0, dtype=np.float32).reshape(4, 5))  # clamped to (0, 3)
    full = np.arange(20.0, dtype=np.float32).reshape(4, 5)
    np.testing.assert_array_equal(gu.numpy(), full[0:2, 3:5])
    want = full.copy()
    want[0:2, 3:5] = 0
    np.testing.assert_array_equal(gx.numpy(), want)


def test_integer_operands_get_no_tangent():
    """bitcast has a zero tangent; integer start indices are not differentiated."""
    x = np.array([1.5, -2.0], np.float32)
    f = lambda x: lax.bitcast_convert_type(lax.bitcast_convert_type(x, np.uint32), np.float32)
    out, t = jvp(f, (x,), (np.ones(2, np.float32),))
    np.testing.assert_array_equal(out.numpy(), x)
    np.testing.assert_array_equal(t.numpy(), [0.0, 0.0])
    (g,) = vjp(f, x)[1](np.ones(2, np.float32))
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0])
    out, t = jvp(lambda x, i: _ds(x, (i,), (1,)), (x, np.int32(1)), (np.ones(2, np.float32), np.int32(5)))
    np.testing.assert_array_equal(t.numpy(), [1.0])


# ---- vmap against a Python loop ---------------------------------------------------------------

def _take(a, axis, i):
    return a if axis is None else np.take(a, i, axis=axis)


def check_vmap(f, args, in_axes, jit=True):
    """vmap(f) (eagerly and under jit) equals stacking f over the examples."""
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    dev = [padax.device_put(np.asarray(a)) for a in args]
    want = np.stack([np.asarray(f(*[padax.device_put(np.asarray(_take(a, ax, i)))
                                    for a, ax in zip(args, in_axes)]).numpy()) for i in range(size)])
    got = vmap(f, in_axes=in_axes)(*dev).numpy()
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    if jit:
        np.testing.assert_array_equal(padax.jit(vmap(f, in_axes=in_axes))(*dev).numpy(), want)


F32 = np.float32


def test_vmap_squeeze_slice_rev_concat():
    x = _rand(3, 1, 5, 4).astype(F32)
    check_vmap(lambda x: lax.squeeze(x, (1,)), [x], (2,))
    check_vmap(lambda x: lax.slice(x, (0, 0, 1), (3, 1, 5), (2, 1, 2)), [x], (3,))
    check_vmap(lambda x: lax.rev(x, (0, 2)), [x], (1,))
    check_vmap(lambda x: lax.rev(x, (1,)), [x], (0,), jit=False)
    a, b, c = _rand(2, 1, 3).astype(F32), _rand(3, 2, 3).astype(F32), _rand(2, 2).astype(F32)
    check_vmap(lambda a, b, c: lax.concatenate([a, b, c], 1), [a, b, c], (2, 0, None))


@pytest.mark.parametrize("idx_dtype", [np.int32, np.int8, np.uint32])
def test_vmap_dynamic_slice(idx_dtype):
    x = _rand(4, 6, 5).astype(F32)          # examples on axis 2 (5 of them)
    lo = 0 if np.dtype(idx_dtype).kind == "u" else -3
    i = np.array([0, 3, lo, 9, 2], idx_dtype)  # out-of-range starts are clamped
    big = {np.int8: 100, np.int32: 250, np.uint32: 4_000_000_000}[idx_dtype]  # uint32: above int32 max
    j = np.array([1, big, 0, 4, 5], idx_dtype)
    c = lambda v: np.asarray(v, idx_dtype)
    f = lambda x, i, j: _ds(x, (i, j), (2, 3))
    check_vmap(f, [x, c(3), c(big)], (2, None, None))         # operand only
    check_vmap(f, [x[..., 0], i, j], (None, 0, 0))            # starts only
    check_vmap(f, [x, i, j], (2, 0, 0))                       # both
    check_vmap(f, [x, i, c(1)], (2, 0, None))                 # one start batched
    check_vmap(f, [x[..., 0], c(2), j], (None, None, 0), jit=False)


def test_nested_vmap_dynamic_slice():
    """Batched starts at both levels: the inner gather is batched again by the gather rule."""
    x = _rand(2, 3, 7).astype(F32)
    i = RNG.integers(-2, 9, (3, 2)).astype(np.int32)
    f = lambda x, i: _ds(x, (i,), (3,))
    got = vmap(vmap(f), in_axes=(0, 1))(padax.device_put(x), padax.device_put(i)).numpy()
    for a in range(2):
        for b in range(3):
            np.testing.assert_array_equal(got[a, b], f(padax.device_put(x[a, b]), *_i32(i[b, a])).numpy())


def test_vmap_dynamic_slice_wrapper_wraps_negatives():
    x = _rand(5, 4).astype(F32)
    i = np.array([-1, -5, 2, 7], np.int32)
    check_vmap(lambda x, i: lax.dynamic_slice(x, (i,), (2,)), [x, i], (1, 0), jit=False)


def test_vmap_dynamic_update_slice():
    x = _rand(4, 6, 3).astype(F32)
    u = _rand(3, 2, 2).astype(F32)
    i = np.array([0, 3, -2], np.int32)
    j = np.array([5, 1, 2], np.int32)
    f = lambda x, u, i, j: _dus(x, u, (i, j))
    one = np.int32(1)
    check_vmap(f, [x, u[0], one, one], (2, None, None, None))       # operand only
    check_vmap(f, [x[..., 0], u, one, one], (None, 0, None, None))  # update only
    check_vmap(f, [x, u, i, j], (2, 0, 0, 0))                       # everything
    check_vmap(f, [x[..., 0], u[0], i, j], (None, None, 0, 0))      # starts only
    check_vmap(f, [x, u[0], i, one], (2, None, 0, None))            # mixed
    check_vmap(f, [x[..., 0], u, one, j], (None, 0, None, 0), jit=False)


def test_vmap_pad():
    x = _rand(3, 4, 2).astype(F32)
    v = np.array([7.0, 8.0, 9.0], F32)
    cfg = ((1, -1, 1), (-1, 2, 0))
    f = lambda x, v: lax.pad(x, v, cfg)
    check_vmap(f, [x, np.float32(5.0)], (0, None))
    check_vmap(f, [x.transpose(1, 0, 2), v], (1, 0))
    check_vmap(f, [x[0], v], (None, 0))


def test_vmap_clamp():
    x = _rand(4, 5).astype(F32)
    lo = np.array([-1.0, -0.5, 0.0, -2.0], F32)
    hi = _rand(5, 4).astype(F32) + 1.0
    check_vmap(lambda lo, x, hi: lax.clamp(lo, x, hi), [np.float32(-0.5), x, np.float32(0.5)], (None, 0, None))
    check_vmap(lambda lo, x, hi: lax.clamp(lo, x, hi), [lo, x, np.float32(0.5)], (0, 0, None))
    check_vmap(lambda lo, x, hi: lax.clamp(lo, x, hi), [lo, x[0], hi], (0, None, 1))
    check_vmap(lambda lo, x, hi: lax.clamp(lo, x, hi), [np.float32(0.0), x, hi.T], (None, 0, 0), jit=False)


def test_vmap_bitcast():
    x = _rand(3, 4).astype(np.float32)
    check_vmap(lambda x: lax.bitcast_convert_type(x, np.uint8), [x], (1,))    # adds a last axis
    check_vmap(lambda x: lax.bitcast_convert_type(x, np.int32), [x], (0,), jit=False)
    y = RNG.integers(0, 255, (2, 4, 3), dtype=np.uint8)
    check_vmap(lambda y: lax.bitcast_convert_type(y, np.float32), [y], (2,))  # batch axis was last
    check_vmap(lambda y: lax.bitcast_convert_type(y, np.float32), [y.transpose(2, 0, 1)], (0,), jit=False)


# ---- derivatives and vmap composed ---------------------------------------------------------

def _loop_vjp(f, xs, idx, ct):
    return np.stack([vjp(lambda a: f(a, *[padax.device_put(np.asarray(t[k])) for t in idx]),
                         padax.device_put(xs[k]))[1](padax.device_put(ct[k]))[0].numpy()
                     for k in range(len(xs))])


def test_grad_of_vmap_and_vmap_of_grad_dynamic_slices():
    xs = _rand(3, 5, 4).astype(F32)
    i, j = np.array([4, 0, 2], np.int32), np.array([1, 3, -1], np.int32)
    ds = lambda x, i, j: _ds(x, (i, j), (2, 2))
    ct = _rand(3, 2, 2).astype(F32)
    dev = [padax.device_put(a) for a in (xs, i, j)]
    # reverse mode through the gather the batch rule emits
    (g,) = vjp(lambda x: vmap(ds)(x, dev[1], dev[2]), dev[0])[1](padax.device_put(ct))
    want = _loop_vjp(ds, xs, (i, j), ct)
    np.testing.assert_allclose(g.numpy(), want, rtol=0, atol=0)
    # vmap over a vjp
    per = lambda x, i, j, c: vjp(lambda a: ds(a, i, j), x)[1](c)[0]
    np.testing.assert_array_equal(vmap(per)(*dev, padax.device_put(ct)).numpy(), want)
    # dynamic_update_slice: cotangents of operand and update through the scatter
    us = _rand(3, 2, 2).astype(F32)
    ct2 = _rand(3, 5, 4).astype(F32)
    dus = lambda x, u, i, j: _dus(x, u, (i, j))
    gx, gu = vjp(lambda x, u: vmap(dus)(x, u, dev[1], dev[2]), dev[0], padax.device_put(us))[1](
        padax.device_put(ct2))
    for k in range(3):
        wx, wu = vjp(lambda x, u: dus(x, u, *_i32(i[k], j[k])), padax.device_put(xs[k]),
                     padax.device_put(us[k]))[1](padax.device_put(ct2[k]))
        np.testing.assert_array_equal(gx.numpy()[k], wx.numpy())
        np.testing.assert_array_equal(gu.numpy()[k], wu.numpy())
    # forward mode through the batched scatter
    t = jvp(lambda x, u: vmap(dus)(x, u, dev[1], dev[2]), (dev[0], padax.device_put(us)),
            (padax.device_put(ct2), padax.device_put(ct)))[1]
    for k in range(3):
        wt = jvp(lambda x, u: dus(x, u, *_i32(i[k], j[k])), (xs[k], us[k]), (ct2[k], ct[k]))[1]
        np.testing.assert_array_equal(t.numpy()[k], wt.numpy())


def test_vmap_of_grad_pad_and_concat_under_jit():
    xs = _rand(4, 3).astype(F32)
    vs = _rand(4).astype(F32)
    cts = _rand(4, 11).astype(F32)
    cfg = ((2, -1, 2),)

    def per(x, v, ct):
        return vjp(lambda x, v: lax.concatenate([lax.pad(x, v, cfg), lax.rev(x, 0)], 0), x, v)[1](ct)

    gx, gv = padax.jit(vmap(per))(*[padax.device_put(a) for a in (xs, vs, cts)])
    for k in range(4):
        wx, wv = per(*[padax.device_put(a[k]) for a in (xs, vs, cts)])
        np.testing.assert_allclose(gx.numpy()[k], wx.numpy(), rtol=1e-6)
        np.testing.assert_allclose(gv.numpy()[k], wv.numpy(), rtol=1e-6)
