"""Paddle-level shape manipulation vs numpy, eagerly and under jit, plus error messages."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import padax
from tests.conftest import rand

SHAPE = (2, 3, 4)
DTYPES = [np.float32, np.int32, ml_dtypes.bfloat16, np.bool_]


def both(fn, *args):
    return [fn(*args), padax.jit(fn)(*args)]


def eq(got, expect):
    got = np.asarray(got)
    assert got.dtype == expect.dtype, (got.dtype, expect.dtype)
    assert got.shape == expect.shape, (got.shape, expect.shape)
    np.testing.assert_array_equal(got.astype(np.float64), expect.astype(np.float64))


@pytest.mark.parametrize("dtype", DTYPES)
def test_reshape_family(dtype):
    a = rand(SHAPE, dtype, np.random.default_rng(0))
    x = padax.to_tensor(a)
    fn = lambda u: (padax.reshape(u, [4, -1]), padax.reshape(u, [0, 12]), u.reshape(6, 4),  # noqa: E731
                    u.reshape([24]), padax.flatten(u), padax.flatten(u, 1), padax.flatten(u, 0, 1),
                    padax.unsqueeze(u, 0), padax.unsqueeze(u, [-1, 1]), padax.squeeze(padax.unsqueeze(u, [0, 2])),
                    padax.squeeze(padax.unsqueeze(u, 1), axis=[1, 2]), u.unsqueeze(-1).squeeze(-1))
    for outs in both(fn, x):
        exp = (a.reshape(4, -1), a.reshape(2, 12), a.reshape(6, 4), a.reshape(24), a.reshape(-1),
               a.reshape(2, 12), a.reshape(6, 4), a[None], a[:, None, :, :, None], a, a, a)
        for o, e in zip(outs, exp):
            eq(o, e)


@pytest.mark.parametrize("dtype", DTYPES)
def test_transpose_moveaxis_flip_tile(dtype):
    a = rand(SHAPE, dtype, np.random.default_rng(1))
    x = padax.to_tensor(a)
    fn = lambda u: (padax.transpose(u, [2, 0, 1]), u.transpose([1, 0, 2]), u.transpose(-1, 0, 1), u.T,  # noqa: E731
                    u.mT, padax.moveaxis(u, 0, -1), padax.moveaxis(u, [0, 1], [2, 0]), padax.flip(u, 0),
                    padax.flip(u, [-1, 1]), padax.tile(u, [2, 1, 1]), padax.tile(u, [2]),
                    padax.tile(u, [2, 1, 1, 2]))
    for outs in both(fn, x):
        exp = (a.transpose(2, 0, 1), a.transpose(1, 0, 2), a.transpose(2, 0, 1), a.transpose(2, 1, 0),
               a.swapaxes(-1, -2), np.moveaxis(a, 0, -1), np.moveaxis(a, [0, 1], [2, 0]), a[::-1],
               a[:, ::-1, ::-1], np.tile(a, (2, 1, 1)), np.tile(a, 2), np.tile(a, (2, 1, 1, 2)))
        for o, e in zip(outs, exp):
            eq(o, e)


@pytest.mark.parametrize("dtype", DTYPES)
def test_concat_stack_split(dtype):
    rng = np.random.default_rng(2)
    a, b = rand(SHAPE, dtype, rng), rand((2, 1, 4), dtype, rng)
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    fn = lambda u, v: (padax.concat([u, v], axis=1), padax.concat([u, u], -1), padax.stack([u, u]),  # noqa: E731
                       padax.stack([u, u, u], axis=-1), padax.split(u, 2, axis=-1), padax.split(u, [1, -1], 1),
                       padax.chunk(u, 2, 0), padax.unbind(u, 1))
    for c1, c2, s1, s2, sp1, sp2, ch, ub in both(fn, x, y):
        eq(c1, np.concatenate([a, b], 1))
        eq(c2, np.concatenate([a, a], -1))
        eq(s1, np.stack([a, a]))
        eq(s2, np.stack([a, a, a], -1))
        assert len(sp1) == 2 and len(sp2) == 2 and len(ch) == 2 and len(ub) == 3
        eq(sp1[0], a[..., :2])
        eq(sp1[1], a[..., 2:])
        eq(sp2[0], a[:, :1])
        eq(sp2[1], a[:, 1:])
        eq(ch[1], a[1:])
        eq(ub[2], a[:, 2])


def test_concat_promotes_dtypes():
    out = padax.concat([padax.to_tensor(np.ones(2, np.int32)), padax.to_tensor(np.ones(1, np.float16))])
    assert out.dtype == np.float16 and out.shape == (3,)


@pytest.mark.parametrize("dtype", [np.float32, np.int8])
def test_expand_broadcast(dtype):
    a = rand((3, 1), dtype, np.random.default_rng(3))
    c = rand((2, 3, 4), dtype, np.random.default_rng(4))
    x, z = padax.to_tensor(a), padax.to_tensor(c)
    fn = lambda u, w: (padax.expand(u, [2, 3, 4]), padax.expand(u, [-1, 5]), padax.broadcast_to(u, (3, 2)),  # noqa: E731
                       padax.expand_as(u, w), u.expand(2, 3, 1), padax.broadcast_tensors([u, w]))
    for e1, e2, e3, e4, e5, (b1, b2) in both(fn, x, z):
        eq(e1, np.broadcast_to(a, (2, 3, 4)))
        eq(e2, np.broadcast_to(a, (3, 5)))
        eq(e3, np.broadcast_to(a, (3, 2)))
        eq(e4, np.broadcast_to(a, c.shape))
        eq(e5, np.broadcast_to(a, (2, 3, 1)))
        eq(b1, np.broadcast_to(a, c.shape))
        eq(b2, c)


def test_zero_d_cases():
    s = padax.to_tensor(np.float32(5))
    eq(padax.flatten(s), np.array([5.0], np.float32))
    eq(padax.unsqueeze(s, 0), np.array([5.0], np.float32))
    eq(padax.reshape(s, [1, 1]), np.array([[5.0]], np.float32))
    eq(padax.squeeze(padax.reshape(s, [1, 1])), np.float32(5).reshape(()))
    eq(padax.stack([s, s]), np.array([5.0, 5.0], np.float32))
    eq(padax.tile(s, [3]), np.array([5.0] * 3, np.float32))
    eq(padax.expand(s, [2, 2]), np.full((2, 2), 5.0, np.float32))


def test_errors_name_op_and_shapes():
    x = padax.ones([2, 3])
    with pytest.raises(ValueError, match=r"reshape: cannot reshape f32\[2,3\] \(6 elements\) to shape \[4, -1\]"):
        padax.reshape(x, [4, -1])
    with pytest.raises(ValueError, match="reshape: .*at most one -1"):
        padax.reshape(x, [-1, -1])
    with pytest.raises(ValueError, match=r"transpose: perm \[0, 0\] is not a permutation"):
        padax.transpose(x, [0, 0])
    with pytest.raises(ValueError, match="transpose: perm .* one entry per axis"):
        padax.transpose(x, [0])
    with pytest.raises(ValueError, match="transpose: axis 5 is out of range"):
        padax.transpose(x, [0, 5])
    with pytest.raises(ValueError, match="unsqueeze: axis 4 is out of range"):
        padax.unsqueeze(x, 4)
    with pytest.raises(ValueError, match="squeeze: axis 2 is out of range"):
        padax.squeeze(x, 2)
    with pytest.raises(ValueError, match="flatten: axis 3 is out of range"):
        padax.flatten(x, 0, 3)
    with pytest.raises(ValueError, match=r"concat: all inputs must have the same shape except on axis 0, got \[2, 3\], \[2, 4\]"):
        padax.concat([x, padax.ones([2, 4])])
    with pytest.raises(ValueError, match="concat: axis 2 is out of range"):
        padax.concat([x, x], axis=2)
    with pytest.raises(ValueError, match=r"stack: all inputs must have the same shape, got \[2, 3\], \[3, 2\]"):
        padax.stack([x, padax.ones([3, 2])])
    with pytest.raises(ValueError, match="split: axis 1 of size 3 .* cannot be split into 2 equal parts"):
        padax.split(x, 2, axis=1)
    with pytest.raises(ValueError, match="split: sections .* do not add up"):
        padax.split(x, [1, 1], axis=1)
    with pytest.raises(ValueError, match=r"expand: cannot broadcast f32\[2,3\] \(shape \[2, 3\]\) to shape \[2, 4\]"):
        padax.expand(x, [2, 4])
    with pytest.raises(ValueError, match="flip: axis -3 is out of range"):
        padax.flip(x, -3)
    with pytest.raises(ValueError, match="moveaxis: axis 2 is out of range"):
        padax.moveaxis(x, 2, 0)
    with pytest.raises(TypeError, match="concat: expected a list or tuple"):
        padax.concat(x)


def test_traced_shape_is_rejected_with_advice():
    def f(x, n):
        return padax.reshape(x, [n, -1])
    with pytest.raises(TypeError, match="reshape: shape must be static"):
        padax.jit(f)(padax.ones([2, 3]), 2)
    out = padax.jit(f, static_argnums=1)(padax.ones([2, 3]), 3)
    assert out.shape == (3, 2)


def test_flip_refuses_a_repeated_axis_as_paddle_and_numpy():
    """flip(x, [0, 0]) reversed axis 0 once (as a set); Paddle and numpy refuse the repeated axis."""
    from tests.conftest import paddle_oracle
    paddle = paddle_oracle()
    x = np.array([[1, 2], [3, 4]])
    with pytest.raises(ValueError):
        paddle.flip(paddle.to_tensor(x), [0, 0])
    for axes in ([0, 0], [1, -1]):  # (Paddle 3.3 lets [1, -1] through, flipping axis 1 twice: numpy refuses)
        with pytest.raises(ValueError):
            np.flip(x, axes)
        with pytest.raises(ValueError, match=r"flip: repeated axis in \[.*\] for x i64\[2,2\]"):
            padax.flip(padax.to_tensor(x), axes)
    np.testing.assert_array_equal(padax.flip(padax.to_tensor(x), [0, 1]).numpy(), np.flip(x, (0, 1)))


@pytest.mark.parametrize("call,words", [
    (lambda x: padax.narrow(x, 0, 0.5, 2), "narrow: start must be an integer, got float: 0.5"),   # read as start 0
    (lambda x: padax.narrow(x, 0, 1, 1.5), "narrow: length must be an integer, got float: 1.5"),
    (lambda x: padax.diff(x, n=1.5), "diff: n must be an integer, got float: 1.5"),              # ran once
    (lambda x: padax.select_scatter(padax.zeros([2, 2]), padax.ones([2]), 0, 0.5),
     "select_scatter: index must be an integer, got float: 0.5"),                                   # wrote row 0
])
def test_float_counts_and_positions_are_refused_not_truncated(call, words):
    """As Paddle (whose bindings refuse a float where an int is meant), instead of int(0.5) == 0."""
    with pytest.raises(TypeError, match=words):
        call(padax.to_tensor([3.0, 1.0, 2.0, 5.0]))
