"""Paddle-level creation functions: dtypes defaults, values vs numpy, eager and under jit."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import padax
from tests.conftest import assert_close


def test_to_tensor_default_dtypes():
    assert padax.to_tensor(1.5).dtype == np.float32
    assert padax.to_tensor([1.0, 2.0]).dtype == np.float32
    assert padax.to_tensor([[1, 2]]).dtype == np.int64
    assert padax.to_tensor(True).dtype == np.bool_
    assert padax.to_tensor(1 + 2j).dtype == np.complex64
    assert padax.to_tensor(np.ones(2, np.float16)).dtype == np.float16
    assert padax.to_tensor(np.ones(2, ml_dtypes.bfloat16)).dtype == ml_dtypes.bfloat16
    assert padax.to_tensor(np.ones(2, np.float64)).dtype == np.float64  # numpy data keeps its dtype
    assert padax.to_tensor(np.uint8(3)).dtype == np.uint8
    t = padax.to_tensor(3)
    assert t.shape == () and int(t) == 3 and not t.weak_type  # a Tensor is never weakly typed


def test_to_tensor_x64(x64):
    assert padax.to_tensor([1, 2]).dtype == np.int64
    assert padax.to_tensor(2.5).dtype == np.float32  # Paddle's default float stays float32
    assert padax.to_tensor(np.ones(2)).dtype == np.float64
    assert padax.to_tensor(1j).dtype == np.complex64


def test_to_tensor_dtype_place_and_inputs():
    x = padax.to_tensor([1, 2, 3], dtype="float16", place="cpu", stop_gradient=False)
    assert x.dtype == np.float16
    np.testing.assert_array_equal(x.numpy(), [1, 2, 3])
    assert not x.stop_gradient
    y = padax.to_tensor(x)  # a new Tensor, as Paddle's copy: it needs no gradient, and x keeps its own
    assert y is not x and y.stop_gradient and y.dtype == np.float16 and not x.stop_gradient
    assert padax.to_tensor(x, dtype=padax.int32).dtype == np.int32
    s = padax.to_tensor([padax.to_tensor(1.0), padax.to_tensor(2.0)])
    assert s.shape == (2,) and s.numpy().tolist() == [1.0, 2.0]
    assert padax.to_tensor(x, place=padax.devices()[0]).tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(TypeError, match="to_tensor"):
        padax.to_tensor("abc")
    with pytest.raises(TypeError, match="to_tensor"):
        padax.to_tensor([[1, 2], [3]])


@pytest.mark.parametrize("dtype", [None, "float32", "int32", "bfloat16", "bool", padax.float16])
def test_filled(dtype):
    expect = np.dtype(np.float32 if dtype is None else padax.core.dtypes.to_dtype(dtype))
    for fn in (lambda: padax.zeros([2, 3], dtype), lambda: padax.ones((2, 3), dtype), lambda: padax.empty([2, 3], dtype),
               lambda: padax.full([2, 3], 1, dtype)):
        for out in (fn(), padax.jit(fn)()):
            assert out.dtype == expect and out.shape == (2, 3)
    np.testing.assert_array_equal(padax.ones([2], dtype).numpy(), np.ones(2, expect))
    np.testing.assert_array_equal(padax.zeros([2], dtype).numpy(), np.zeros(2, expect))


def test_full_variants():
    assert padax.full([2], 7).dtype == np.float32
    assert padax.full([2], True).dtype == np.bool_
    np.testing.assert_array_equal(padax.full(3, 2.5).numpy(), [2.5] * 3)
    np.testing.assert_array_equal(padax.full([2, 1], padax.to_tensor(4, dtype="int32"), "int32").numpy(), [[4], [4]])
    shape_t = padax.to_tensor([2, 2])
    assert padax.zeros(shape_t).shape == (2, 2)
    assert padax.ones([padax.to_tensor(3), 2]).shape == (3, 2)
    assert padax.zeros([]).shape == ()
    with pytest.raises(ValueError, match="full: shape .* negative"):
        padax.full([-1, 2], 0)


@pytest.mark.parametrize("dtype", [None, "int32", "float16"])
def test_like_functions(dtype):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = padax.to_tensor(a)
    fn = lambda u: (padax.zeros_like(u, dtype), padax.ones_like(u, dtype), padax.full_like(u, 3, dtype),  # noqa: E731
                    padax.empty_like(u, dtype))
    expect = np.dtype(np.float32 if dtype is None else dtype)
    for z, o, f, e in (fn(x), padax.jit(fn)(x)):
        for t, v in ((z, 0), (o, 1), (f, 3), (e, 0)):
            assert t.dtype == expect
            np.testing.assert_array_equal(t.numpy(), np.full((2, 3), v, expect))


def test_arange():
    cases = [((5,), {}, np.arange(5)), ((1, 7, 2), {}, np.arange(1, 7, 2)), ((5, 0, -2), {}, np.arange(5, 0, -2)),
             ((0.0, 1.0, 0.25), {}, np.arange(0.0, 1.0, 0.25)), ((3,), {"dtype": "float32"}, np.arange(3.0)),
             ((2, 2), {}, np.arange(2, 2)), ((-1.5, 1.0, 0.5), {}, np.arange(-1.5, 1.0, 0.5))]
    for args, kw, expect in cases:
        for out in (padax.arange(*args, **kw), padax.jit(lambda: padax.arange(*args, **kw))()):
            is_int = all(isinstance(a, int) for a in args) and "dtype" not in kw
            assert out.dtype == (np.int64 if is_int else np.float32), args
            assert_close(out, expect.astype(out.dtype), out.dtype)
    assert padax.arange(padax.to_tensor(4)).shape == (4,)
    with pytest.raises(ValueError, match="arange: step must not be 0"):
        padax.arange(0, 5, 0)


def test_arange_int64_x64(x64):
    out = padax.arange(3)
    assert out.dtype == np.int64 and out.numpy().tolist() == [0, 1, 2]


def test_linspace():
    for args, kw in [((0, 1, 5), {}), ((-2.0, 3.0, 7), {}), ((1, 0, 4), {}), ((2, 2, 3), {}), ((0, 10, 1), {}),
                     ((0, 9, 4), {"dtype": "int32"}), ((0, 1, 0), {})]:
        expect = np.linspace(*args, dtype=kw.get("dtype", np.float32))
        for out in (padax.linspace(*args, **kw), padax.jit(lambda: padax.linspace(*args, **kw))()):
            assert out.dtype == expect.dtype
            assert_close(out, expect, expect.dtype)
            if args[2] > 1:
                assert out.numpy()[-1] == expect[-1]  # the end point is exact


def test_eye():
    for args, kw in [((3,), {}), ((2, 4), {}), ((3, 2), {"dtype": "int32"}), ((0,), {})]:
        expect = np.eye(*args, dtype=kw.get("dtype", np.float32))
        for out in (padax.eye(*args, **kw), padax.jit(lambda: padax.eye(*args, **kw))()):
            assert out.dtype == expect.dtype
            np.testing.assert_array_equal(out.numpy(), expect)


def test_creation_inside_jit_with_traced_values():
    @padax.jit
    def f(x):
        return padax.zeros_like(x) + padax.full_like(x, 2) * padax.ones([3]) + padax.arange(3)
    np.testing.assert_array_equal(f(padax.ones([3])).numpy(), [2.0, 3.0, 4.0])
    with pytest.raises(TypeError, match="arange: end must be known while tracing"):
        padax.jit(lambda n: padax.arange(0, n))(padax.to_tensor(3))


def test_default_dtype_follows_paddle():
    assert padax.get_default_dtype() == "float32"
    # explicit 64-bit dtypes are never narrowed, and numpy data keeps its dtype
    x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]], dtype="float64")
    assert x.dtype == np.float64 and padax.linalg.pinv(x).dtype == np.float64
    assert padax.mean(x).dtype == np.float64 and padax.rand([2], dtype="float64").dtype == np.float64
    np.testing.assert_allclose(padax.linalg.pinv(x).numpy(), np.linalg.pinv(x.numpy()), rtol=1e-13)
    assert padax.to_tensor(np.ones(2)).dtype == np.float64 and padax.to_tensor(2 ** 40).dtype == np.int64
    padax.set_default_dtype("float64")
    try:
        assert padax.get_default_dtype() == "float64"
        assert padax.to_tensor(1.0).dtype == np.float64 and padax.to_tensor([1.0]).dtype == np.float64
        assert padax.zeros([2]).dtype == np.float64 and padax.rand([2]).dtype == np.float64
        assert padax.linspace(0, 1, 3).dtype == np.float64 and padax.arange(0.0, 1.0, 0.5).dtype == np.float64
        assert padax.to_tensor(1j).dtype == np.complex128 and padax.full([2], 1).dtype == np.float64
        assert (padax.to_tensor([1, 2]) * 1.5).dtype == np.float64  # a float scalar with ints: the default float
    finally:
        padax.set_default_dtype("float32")
    assert padax.zeros([2]).dtype == np.float32
    with pytest.raises(TypeError, match="set_default_dtype"):
        padax.set_default_dtype("int32")


def test_default_dtype_change_retraces_jitted_functions():
    f = padax.jit(lambda: padax.zeros([2]) + 1.5)
    assert f().dtype == np.float32
    with padax.config.override("default_dtype", "float64"):
        assert f().dtype == np.float64
    assert f().dtype == np.float32
