"""matmul (numpy broadcasting, 1-D rules, transposes), mm, bmm, dot, t vs numpy."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import padax
from tests.conftest import assert_close, rand, tol

CASES = [  # (x shape, y shape, transpose_x, transpose_y)
    ((3, 4), (4, 5), False, False),
    ((4, 3), (4, 5), True, False),
    ((3, 4), (5, 4), False, True),
    ((4, 3), (5, 4), True, True),
    ((4,), (4,), False, False),
    ((4,), (4, 5), False, False),
    ((3, 4), (4,), False, False),
    ((2, 3, 4), (4, 5), False, False),
    ((4,), (2, 4, 5), False, False),
    ((2, 3, 4), (4,), False, False),
    ((2, 1, 3, 4), (5, 4, 2), False, False),
    ((3, 4), (2, 4, 5), False, False),
    ((2, 4, 3), (2, 5, 4), True, True),
    ((4,), (5, 4), True, True),  # transposes are ignored for 1-D operands
]


def _np_matmul(a, b, tx, ty):
    if tx and a.ndim > 1:
        a = np.swapaxes(a, -1, -2)
    if ty and b.ndim > 1:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.int32])
def test_matmul_cases(dtype):
    rng = np.random.default_rng(0)
    arrays = [(rand(xs, dtype, rng, -2, 2), rand(ys, dtype, rng, -2, 2)) for xs, ys, _, _ in CASES]
    tensors = [(padax.to_tensor(a), padax.to_tensor(b)) for a, b in arrays]
    flags = [(tx, ty) for _, _, tx, ty in CASES]
    fn = lambda ts: [padax.matmul(x, y, tx, ty) for (x, y), (tx, ty) in zip(ts, flags)]  # noqa: E731
    for outs in (fn(tensors), padax.jit(fn)(tensors)):
        for (a, b), (tx, ty), out in zip(arrays, flags, outs):
            expect = _np_matmul(a.astype(np.float64), b.astype(np.float64), tx, ty)
            if np.dtype(dtype).kind == "i":
                np.testing.assert_array_equal(out.numpy(), expect.astype(dtype))
            else:
                assert_close(out, expect.astype(dtype), dtype, rtol=tol(dtype, 4), atol=tol(dtype, 8))


def test_operator_and_promotion():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    b = np.linspace(0, 1, 6, dtype=np.float32).reshape(3, 2)
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    out = x @ y
    assert out.dtype == np.float32
    ref = (a @ b).astype(np.float32)
    assert_close(out, ref)
    rm = b @ x  # numpy on the left: Tensor.__rmatmul__
    assert isinstance(rm, padax.Tensor)
    assert_close(rm, (b @ a).astype(np.float32))
    assert_close(x.matmul(y), ref)
    assert_close(padax.mm(x, y), ref)


def test_float64(x64):
    a = np.random.default_rng(1).normal(size=(3, 3))
    x = padax.to_tensor(a)
    assert_close(x @ x, a @ a)


def test_bmm_dot_t():
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=(2, 3, 4)).astype(np.float32), rng.normal(size=(2, 4, 5)).astype(np.float32)
    v, w = rng.normal(size=(4,)).astype(np.float32), rng.normal(size=(3, 4)).astype(np.float32)
    fn = lambda x, y, p, q: (padax.bmm(x, y), padax.dot(p, p), padax.dot(q, q), padax.t(q), padax.t(p),  # noqa: E731
                             q.t(), q.T)
    args = [padax.to_tensor(t) for t in (a, b, v, w)]
    for bm, d1, d2, t2, t1, tm, tT in (fn(*args), padax.jit(fn)(*args)):
        assert_close(bm, a @ b, rtol=1e-5, atol=1e-5)
        assert_close(d1, np.dot(v, v))
        assert_close(d2, (w * w).sum(-1))
        assert_close(t2, w.T)
        assert_close(t1, v)
        assert_close(tm, w.T)
        assert_close(tT, w.T)


def test_errors_name_op_and_shapes():
    with pytest.raises(ValueError, match=r"matmul: contracted sizes differ: x of shape \[3, 4\].*y of shape \[5, 6\]"):
        padax.matmul(padax.ones([3, 4]), padax.ones([5, 6]))
    with pytest.raises(ValueError, match=r"matmul: shapes \(2,\), \(3,\) cannot be broadcast"):
        padax.matmul(padax.ones([2, 3, 4]), padax.ones([3, 4, 5]))
    with pytest.raises(ValueError, match="matmul: operands must be at least 1-D"):
        padax.matmul(padax.ones([]), padax.ones([3]))
    with pytest.raises(ValueError, match=r"bmm: both inputs must be 3-D"):
        padax.bmm(padax.ones([3, 4]), padax.ones([4, 5]))
    with pytest.raises(ValueError, match=r"bmm: batch sizes differ"):
        padax.bmm(padax.ones([2, 3, 4]), padax.ones([3, 4, 5]))
    with pytest.raises(ValueError, match=r"dot: inputs must be 1-D or 2-D with equal shapes"):
        padax.dot(padax.ones([3]), padax.ones([4]))
    with pytest.raises(ValueError, match=r"t: expects a Tensor of at most 2 axes"):
        padax.t(padax.ones([2, 2, 2]))
    with pytest.raises(TypeError, match="matmul: bool operands"):
        padax.matmul(padax.to_tensor([True]), padax.to_tensor([True]))
