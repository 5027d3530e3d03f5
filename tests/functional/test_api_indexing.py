"""Basic indexing (`x[idx]`) and `x.at[idx]` updates vs numpy, eagerly and under jit."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from padax.core.errors import ImmutableTensorError

SHAPE = (4, 5, 6)
A = np.arange(np.prod(SHAPE), dtype=np.float32).reshape(SHAPE)

INDICES = [
    0, -1, 3, (1, 2), (-1, -2, -3), slice(None), slice(1, 3), slice(None, None, 2), slice(None, None, -1),
    slice(3, 0, -2), slice(-2, None), slice(10, 20), slice(None, None, -3), (slice(1, None, 2), 4),
    (Ellipsis, 1), (0, Ellipsis), (None, 1), (slice(None), None, 2), (Ellipsis, None), (1, None, slice(4, 0, -1), None),
    (slice(None), slice(None), slice(5, None, -2)), (), (np.int32(2), slice(1, 4)), (slice(2, 2),),
    (Ellipsis,), (1, 2, 3),
]


def _ids(i):
    return repr(i)


@pytest.mark.parametrize("idx", INDICES, ids=_ids)
def test_getitem_matches_numpy(idx):
    x = padax.to_tensor(A)
    expect = A[idx]
    for out in (x[idx], padax.jit(lambda u: u[idx])(x)):
        assert out.shape == expect.shape
        np.testing.assert_array_equal(out.numpy(), expect)


def test_getitem_scalar_tensor_indices():
    x = padax.to_tensor(A)
    for i in (0, 2, -1, -4):
        t = padax.to_tensor(i)
        np.testing.assert_array_equal(x[t].numpy(), A[i])
        np.testing.assert_array_equal(x[1, t].numpy(), A[1, i])
        np.testing.assert_array_equal(x[:, 1:4, t].numpy(), A[:, 1:4, i])
    f = padax.jit(lambda u, k: (u[k], u[..., k], u[k, ::-1]))
    for i in (1, -2):
        o1, o2, o3 = f(x, padax.to_tensor(i))
        np.testing.assert_array_equal(o1.numpy(), A[i])
        np.testing.assert_array_equal(o2.numpy(), A[..., i])
        np.testing.assert_array_equal(o3.numpy(), A[i, ::-1])
    # numpy integer scalars and concrete slice bounds that are Tensors
    np.testing.assert_array_equal(x[np.int64(3)].numpy(), A[3])
    np.testing.assert_array_equal(x[padax.to_tensor(1):padax.to_tensor(3)].numpy(), A[1:3])


def test_getitem_out_of_range_clamps_as_in_jax():
    x = padax.to_tensor(A)
    np.testing.assert_array_equal(x[4].numpy(), A[3])
    np.testing.assert_array_equal(x[0, -6].numpy(), A[0, 0])
    np.testing.assert_array_equal(padax.jit(lambda u, i: u[i])(x, 7).numpy(), A[3])
    np.testing.assert_array_equal(x.at[1, 9].get(mode="fill", fill_value=-1.0).numpy(), -1.0)
    assert np.isnan(x.at[-5].get(mode="fill").numpy()).all()
    with pytest.raises(IndexError, match="index 0 is out of bounds for axis 0 with size 0"):
        padax.zeros([0, 3])[0]


def test_getitem_errors():
    x = padax.to_tensor(A)
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        x[..., 0, ...]
    with pytest.raises(IndexError, match="slice step cannot be zero"):
        x[::0]
    with pytest.raises(IndexError, match="boolean mask indexing .* must be concrete"):
        padax.jit(lambda u: u[u > 3])(x)  # advanced indexing itself: tests/functional/test_api_adv_indexing.py
    with pytest.raises(IndexError, match="must be an integer"):
        x[padax.to_tensor(1.0)]
    with pytest.raises(IndexError):
        x["a"]


def test_iteration_uses_getitem():
    x = padax.to_tensor(A[:, 0, 0])
    assert [float(v) for v in x] == A[:, 0, 0].tolist()
    f = padax.jit(lambda u: [r.sum() for r in u])
    assert [float(v) for v in f(padax.to_tensor(A))] == A.sum((1, 2)).tolist()


UPDATES = [
    0, -1, (1, 2), slice(1, 3), slice(None, None, 2), slice(None, None, -1), slice(3, 0, -2), (slice(1, None, 2), 4),
    (Ellipsis, 1), (None, 1), (slice(None), slice(None), slice(5, None, -2)), (1, slice(0, 5, 3), slice(None, None, -4)),
    (), (slice(2, 2),),
]


@pytest.mark.parametrize("idx", UPDATES, ids=_ids)
def test_at_updates_match_numpy(idx):
    x = padax.to_tensor(A)
    shape = A[idx].shape
    vals = (np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) + 0.5) * -1.0

    def ref(op):
        r = A.copy()
        if op == "set":
            r[idx] = vals
        elif op == "add":
            r[idx] += vals
        elif op == "multiply":
            r[idx] *= vals
        elif op == "min":
            r[idx] = np.minimum(r[idx], vals)
        elif op == "max":
            r[idx] = np.maximum(r[idx], -vals * 200)
        return r

    v = padax.to_tensor(vals)
    fn = lambda u, w: (u.at[idx].set(w), u.at[idx].add(w), u.at[idx].multiply(w), u.at[idx].min(w),  # noqa: E731
                       u.at[idx].max(-w * 200), u.at[idx].get())
    for outs in (fn(x, v), padax.jit(fn)(x, v)):
        for op, o in zip(("set", "add", "multiply", "min", "max"), outs):
            np.testing.assert_array_equal(o.numpy(), ref(op), err_msg=op)
        np.testing.assert_array_equal(outs[-1].numpy(), A[idx])
    np.testing.assert_array_equal(x.numpy(), A)  # the original is unchanged


def test_at_broadcast_scalar_and_dtype_cast():
    x = padax.to_tensor(np.zeros((3, 4), np.int32))
    out = x.at[1].set(7.9)  # cast to x's dtype
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out.numpy()[1], [7] * 4)
    out = x.at[:, ::2].add(padax.to_tensor([1, 2]))  # broadcasts along rows
    ref = np.zeros((3, 4), np.int32)
    ref[:, ::2] += np.array([1, 2], np.int32)
    np.testing.assert_array_equal(out.numpy(), ref)
    with pytest.raises(ValueError, match=r"at\[\]\.set: .*cannot be broadcast"):
        x.at[0].set(padax.ones([3]))
    out = padax.to_tensor(np.ones(4, np.float32)).at[1:3].divide(2.0)
    np.testing.assert_array_equal(out.numpy(), [1, 0.5, 0.5, 1])
    out = padax.to_tensor(np.full(3, 3.0, np.float32)).at[::2].power(2)
    np.testing.assert_array_equal(out.numpy(), [9, 3, 9])


def test_at_dynamic_index():
    x = padax.to_tensor(A)
    f = padax.jit(lambda u, k, w: (u.at[k].set(w), u.at[k, 1:3].add(1.0)))
    for i in (0, 3, -1):
        o1, o2 = f(x, padax.to_tensor(i), padax.zeros([5, 6]))
        r1, r2 = A.copy(), A.copy()
        r1[i] = 0
        r2[i, 1:3] += 1
        np.testing.assert_array_equal(o1.numpy(), r1)
        np.testing.assert_array_equal(o2.numpy(), r2)


def test_at_out_of_range_updates_are_dropped_or_clipped():
    x = padax.to_tensor(A)
    r = A.copy()
    r[0] = 0.0
    np.testing.assert_array_equal(x.at[[0, 7]].set(0.0).numpy(), r)
    np.testing.assert_array_equal(x.at[9].add(1.0).numpy(), A)
    np.testing.assert_array_equal(x.at[-5, 1].add(1.0).numpy(), A)
    r = A.copy()
    r[3] += 1.0
    np.testing.assert_array_equal(x.at[9].add(1.0, mode="clip").numpy(), r)
    for i in (9, -5, 2, -1):  # a run-time index out of range drops the update, in range it lands
        r = A.copy()
        if -4 <= i < 4:
            r[i, 1:3] = 5.0
        np.testing.assert_array_equal(padax.jit(lambda u, i: u.at[i, 1:3].set(5.0))(x, i).numpy(), r)


def test_setitem_rebinds_and_refuses_a_jit_argument():
    x = padax.to_tensor(A)
    x[0] = 1.0  # functionalized: x is rebound to x.at[0].set(1.0)
    r = A.copy()
    r[0] = 1.0
    np.testing.assert_array_equal(x.numpy(), r)

    def f(u):
        u[0] = 1.0
        return u
    with pytest.raises(ImmutableTensorError, match="argument of the jitted function"):
        padax.jit(f)(x)
    np.testing.assert_array_equal(padax.jit(lambda u: f(u * 1))(padax.to_tensor(A)).numpy(), r)
