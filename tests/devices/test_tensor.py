"""padax.Tensor: metadata, host access, protocols, repr, immutability, operators, indexing, methods."""
from __future__ import annotations

import pickle

import ml_dtypes
import numpy as np
import pytest

import padax
from padax.core.errors import ConcretizationTypeError
from tests.conftest import assert_close


def test_metadata():
    x = padax.to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert x.shape == (2, 3) and isinstance(x.shape, tuple)
    assert x.dtype == np.float32 and x.ndim == 2 and x.size == 6 and len(x) == 2
    assert x.dim() == 2 and int(x.numel()) == 6
    assert x.place == "Place(cpu)" and x.stop_gradient is True
    assert padax.Tensor is padax.Array and isinstance(x, padax.Tensor)
    s = padax.to_tensor(1.0)
    assert s.shape == () and s.ndim == 0 and s.size == 1
    with pytest.raises(TypeError, match="len"):
        len(s)


def test_shape_is_list_like_as_in_paddle():
    # Paddle's shapes are lists: code compares them with lists and extends them with lists
    x = padax.ones([2, 3])
    assert x.shape == [2, 3] and [2, 3] == x.shape and not (x.shape != [2, 3]) and x.shape != [3, 2]
    assert x.shape[:-1] + [4] == (2, 4) and [1] + x.shape == (1, 2, 3) and x.shape + (1,) == [2, 3, 1]
    assert hash(x.shape) == hash((2, 3)) and type(pickle.loads(pickle.dumps(x.shape))) is tuple
    assert padax.jit(lambda a: a.reshape(a.shape[:-1] + [3, 1]) if a.shape == [2, 3] else a)(x).shape == (2, 3, 1)


def test_numpy_is_a_writable_copy():
    a = np.arange(4, dtype=np.int32)
    x = padax.to_tensor(a)
    n = x.numpy()
    assert n.flags.writeable
    n[0] = 100
    np.testing.assert_array_equal(x.numpy(), a)
    np.testing.assert_array_equal(np.asarray(x), a)
    assert np.asarray(x, dtype=np.float32).dtype == np.float32
    assert x.tolist() == [0, 1, 2, 3]


def test_item_and_scalar_conversions():
    x = padax.to_tensor([[2.5]])
    assert x.item() == 2.5 and isinstance(x.item(), float)
    assert float(x) == 2.5 and int(padax.to_tensor(3)) == 3 and int(padax.to_tensor([[4]])) == 4
    with pytest.raises(TypeError, match="only a Tensor with one element"):
        float(padax.to_tensor([1.0, 2.0]))
    assert padax.to_tensor([1, 2, 3]).item(1) == 2
    with pytest.raises(ValueError, match="only a Tensor with one element"):
        padax.to_tensor([1, 2]).item()
    assert bool(padax.to_tensor([True])) and not bool(padax.to_tensor(0.0))
    with pytest.raises(ValueError):
        bool(padax.to_tensor([1, 2]))
    assert [10, 20, 30][padax.to_tensor(1)] == 20  # __index__
    with pytest.raises(TypeError, match="integer scalar"):
        [1, 2][padax.to_tensor(1.0)]


def test_dlpack_and_array_protocol():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = padax.to_tensor(a)
    np.testing.assert_array_equal(np.from_dlpack(x), a)
    assert x.__dlpack_device__()[0] == 1  # kDLCPU
    np.testing.assert_array_equal(np.array(x), a)
    bf = padax.to_tensor(np.ones(3, ml_dtypes.bfloat16))
    assert np.asarray(bf).dtype == ml_dtypes.bfloat16


def test_repr_like_paddle():
    x = padax.to_tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))
    r = repr(x)
    assert r.startswith("Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,\n       [[")
    assert r.endswith("]])")
    assert "[4., 5., 6.]" in r
    assert repr(padax.to_tensor(7)).startswith("Tensor(shape=[], dtype=int64,")
    assert f"{padax.to_tensor(2.5):.2f}" == "2.50"


def test_iteration():
    x = padax.to_tensor(np.arange(6).reshape(3, 2))
    rows = list(x)
    assert len(rows) == 3 and all(r.shape == (2,) for r in rows)
    np.testing.assert_array_equal(rows[2].numpy(), [4, 5])
    with pytest.raises(TypeError, match="iteration over a 0-d"):
        iter(padax.to_tensor(1))


def test_item_assignment_rebinds_and_unhashable():
    x = padax.ones([3])
    x[0] = 5  # rebinds x to x.at[0].set(5); no buffer is written
    assert x.tolist() == [5.0, 1.0, 1.0]
    with pytest.raises(TypeError):
        hash(x)
    with pytest.raises(AttributeError):
        x.shape = (1, 3)


def test_pickle_roundtrip():
    x = padax.to_tensor(np.arange(4, dtype=np.int32))
    y = pickle.loads(pickle.dumps(x))
    assert isinstance(y, padax.Tensor) and y.dtype == np.int32
    np.testing.assert_array_equal(y.numpy(), x.numpy())


def test_operators_eager_and_traced():
    a = np.array([[1.0, -2.0], [3.0, 4.0]], np.float32)
    b = np.array([0.5, 2.0], np.float32)

    def f(x, y):
        return (x + y, x - y, x * y, x / y, x // y, x % y, x ** 2, -x, +x, abs(x), x @ x, 1 + x, 2 - x, 3 * x,
                1 / x, 2 ** y, x == y, x != y, x < y, x <= y, x > y, x >= y)

    ref = (a + b, a - b, a * b, a / b, a // b, a % b, a ** 2, -a, a, np.abs(a), a @ a, 1 + a, 2 - a, 3 * a,
           1 / a, 2 ** b, a == b, a != b, a < b, a <= b, a > b, a >= b)
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    for outs in (f(x, y), padax.jit(f)(x, y)):
        for i, (o, e) in enumerate(zip(outs, ref)):
            e = np.asarray(e)
            assert o.dtype == e.dtype, i
            assert_close(o, e, e.dtype)


def test_integer_and_bool_operators():
    a = np.array([6, -3, 5], np.int32)
    x = padax.to_tensor(a)
    np.testing.assert_array_equal((x & 3).numpy(), a & 3)
    np.testing.assert_array_equal((3 | x).numpy(), 3 | a)
    np.testing.assert_array_equal((x ^ x).numpy(), a ^ a)
    np.testing.assert_array_equal((~x).numpy(), ~a)
    np.testing.assert_array_equal((x << 2).numpy(), a << 2)
    np.testing.assert_array_equal((x >> 1).numpy(), a >> 1)
    np.testing.assert_array_equal((1 << padax.to_tensor([1, 2])).numpy(), [2, 4])
    m = padax.to_tensor([True, False, True])
    np.testing.assert_array_equal((~m).numpy(), [False, True, False])
    np.testing.assert_array_equal((m & (x > 0)).numpy(), [True, False, True])


def test_weak_scalar_promotion_in_operators():
    assert (padax.to_tensor([1, 2], dtype="int32") + 1.5).dtype == np.float32
    assert (padax.to_tensor([1, 2], dtype="float16") + 1.0).dtype == np.float16
    assert (padax.to_tensor([1, 2], dtype="int8") * 3).dtype == np.int8
    assert (2.0 * padax.to_tensor(np.ones(2, ml_dtypes.bfloat16))).dtype == ml_dtypes.bfloat16
    assert (padax.to_tensor([True]) + 1).dtype == np.int64


def test_getitem_and_at():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = padax.to_tensor(a)
    np.testing.assert_array_equal(x[1].numpy(), a[1])
    np.testing.assert_array_equal(x[-1, ::-1].numpy(), a[-1, ::-1])
    np.testing.assert_array_equal(x[:, None, 1:3].numpy(), a[:, None, 1:3])
    np.testing.assert_array_equal(x[padax.to_tensor(2)].numpy(), a[2])
    y = x.at[0, 1].set(-1.0)
    r = a.copy()
    r[0, 1] = -1
    np.testing.assert_array_equal(y.numpy(), r)
    np.testing.assert_array_equal(x.numpy(), a)
    z = x.at[::2].add(100.0).at[1, -1].multiply(0.0)
    r = a.copy()
    r[::2] += 100
    r[1, -1] = 0
    np.testing.assert_array_equal(z.numpy(), r)


def test_methods():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = padax.to_tensor(a)
    assert x.reshape([3, 2]).shape == (3, 2) and x.reshape(6).shape == (6,) and x.reshape(-1, 2).shape == (3, 2)
    assert x.transpose([1, 0]).shape == (3, 2) and x.T.shape == (3, 2)
    assert x.unsqueeze(0).shape == (1, 2, 3) and x.unsqueeze(0).squeeze().shape == (2, 3)
    assert x.flatten().shape == (6,)
    assert x.astype("int32").dtype == np.int32 and x.cast(padax.float16).dtype == np.float16
    assert_close(x.matmul(x.T), a @ a.T)
    assert_close(x.exp(), np.exp(a))
    assert_close(x.abs(), a)
    assert_close(x.clip(1, 4), np.clip(a, 1, 4))
    assert_close(x.sum(axis=0, keepdim=True), a.sum(0, keepdims=True))
    assert_close(x.mean(), np.float32(a.mean()))
    assert_close(x.max(axis=1), a.max(1))
    assert x.expand([4, 2, 3]).shape == (4, 2, 3)
    assert x.tile([2, 1]).shape == (4, 3)
    assert x.flip(0).numpy()[0].tolist() == [3.0, 4.0, 5.0]
    assert [p.shape for p in x.split(3, axis=1)] == [(2, 1)] * 3
    assert x.clone() is not x and x.clone().tolist() == x.tolist()  # a new object: in-place updates stay apart
    assert x.zeros_like().shape == (2, 3)
    assert x.pow(2).numpy().tolist() == (a ** 2).tolist()


def test_tracer_has_the_same_surface():
    seen = {}

    @padax.jit
    def f(x):
        seen["shape"], seen["dtype"], seen["ndim"] = x.shape, x.dtype, x.ndim
        y = x.reshape(3, 2).T.sum(axis=0) + x[0].mean()
        return y.at[0].set(x.max()), x.astype("int32"), (x > 2).any()

    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    y, i, b = f(padax.to_tensor(a))
    assert seen == {"shape": (2, 3), "dtype": np.float32, "ndim": 2}
    ref = a.reshape(3, 2).T.sum(0) + a[0].mean()
    ref[0] = a.max()
    assert_close(y, ref)
    assert i.dtype == np.int32 and bool(b)


def test_tracer_concretization_errors():
    @padax.jit
    def f(x):
        if x.sum() > 0:
            return x
        return -x
    with pytest.raises(ConcretizationTypeError, match="bool"):
        f(padax.ones([2]))
    with pytest.raises(ConcretizationTypeError, match="numpy"):
        padax.jit(lambda x: x.numpy())(padax.ones([2]))
    with pytest.raises(TypeError):
        padax.jit(lambda x: hash(x))(padax.ones([2]))
