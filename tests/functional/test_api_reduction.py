"""Paddle-level reductions, arg-reductions, scans, sort/argsort/topk vs numpy (eager and jit)."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
import scipy.special as sp

import padax
from tests.conftest import assert_close, paddle_oracle, rand, tol

SHAPE = (2, 3, 4)
AXES_KEEPDIM = [(None, False), (0, True), (-1, False), ([0, 2], True), ((1,), False), ([], True), (-2, True)]


def both(fn, *args):
    return [fn(*args), padax.jit(fn)(*args)]


def _np_axis(axis):
    if axis is None or (isinstance(axis, (list, tuple)) and len(axis) == 0):
        return None
    return tuple(axis) if isinstance(axis, (list, tuple)) else axis


@pytest.mark.parametrize("dtype", [np.float32, ml_dtypes.bfloat16, np.int32, np.int8])
def test_sum_mean_prod_max_min(dtype):
    a = rand(SHAPE, dtype, np.random.default_rng(0), -2, 2)
    x = padax.to_tensor(a)
    fn = lambda u: [(padax.sum(u, ax, keepdim=kd), padax.mean(u, ax, keepdim=kd),  # noqa: E731
                     padax.prod(u, ax, keepdim=kd), padax.max(u, ax, keepdim=kd),
                     padax.min(u, ax, keepdim=kd), padax.amax(u, ax, kd), padax.amin(u, ax, kd))
                    for ax, kd in AXES_KEEPDIM]
    af = a.astype(np.float64)
    for outs in both(fn, x):
        for (ax, keepdim), (s, m, p, mx, mn, amx, amn) in zip(AXES_KEEPDIM, outs):
            npx = _np_axis(ax)
            kd = dict(axis=npx, keepdims=keepdim)
            if np.dtype(dtype) == np.int32:
                assert s.dtype == np.int64  # Paddle sums int32 into int64
                np.testing.assert_array_equal(s.numpy(), a.sum(**kd, dtype=np.int64))
            elif np.dtype(dtype).kind == "i":
                assert s.dtype == np.dtype(dtype)
                np.testing.assert_array_equal(s.numpy(), a.sum(**kd).astype(dtype))
            else:
                assert_close(s, af.sum(**kd).astype(dtype), dtype, rtol=tol(dtype, 2), atol=tol(dtype, 4))
            if np.dtype(dtype).kind == "i":  # Paddle: an integer mean keeps the dtype, truncated
                assert m.dtype == np.dtype(dtype)
                np.testing.assert_array_equal(m.numpy(), np.trunc(a.astype(np.float64).mean(**kd)).astype(dtype))
            else:
                assert_close(m, af.mean(**kd).astype(dtype), dtype, rtol=tol(dtype, 2), atol=tol(dtype, 2))
            if np.dtype(dtype).kind == "i":
                np.testing.assert_array_equal(p.numpy(), a.prod(**kd).astype(dtype))
            else:
                assert_close(p, af.prod(**kd).astype(dtype), dtype, rtol=tol(dtype, 4), atol=tol(dtype, 4))
            for o, e in ((mx, a.max(**kd)), (mn, a.min(**kd)), (amx, a.max(**kd)), (amn, a.min(**kd))):
                assert o.dtype == np.dtype(dtype)
                np.testing.assert_array_equal(np.asarray(o).astype(np.float64), e.astype(np.float64))


def test_sum_dtypes(x64):
    b = padax.to_tensor(np.array([[True, False], [True, True]]))
    i32 = padax.to_tensor(np.array([[1, 2], [3, 4]], np.int32))
    assert padax.sum(b).dtype == np.int64 and int(padax.sum(b)) == 3
    assert padax.sum(i32, axis=0).dtype == np.int64
    assert padax.sum(i32, dtype="float32").dtype == np.float32
    assert padax.sum(padax.to_tensor(np.ones(3, np.int16))).dtype == np.int16
    assert padax.mean(i32).dtype == np.int32 and int(padax.mean(i32)) == 2  # as Paddle: the mean truncates
    assert padax.mean(i32, dtype="float32").dtype == np.float32 and float(padax.mean(i32, dtype="float32")) == 2.5
    f64 = padax.to_tensor(np.arange(6.0).reshape(2, 3))
    assert_close(padax.sum(f64, axis=1), np.arange(6.0).reshape(2, 3).sum(1))


def test_all_any():
    a = np.array([[0, 1, 2], [3, 4, 5]], np.int32)
    x = padax.to_tensor(a)
    for al, an, al0, an1 in both(lambda u: (padax.all(u), padax.any(u), padax.all(u, 0, keepdim=True),
                                            padax.any(u > 4, axis=-1)), x):
        assert al.dtype == np.bool_
        assert not bool(al) and bool(an)
        np.testing.assert_array_equal(al0.numpy(), a.all(0, keepdims=True))
        np.testing.assert_array_equal(an1.numpy(), (a > 4).any(-1))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_logsumexp_stable(dtype):
    a = rand(SHAPE, dtype, np.random.default_rng(1))
    big = (a.astype(np.float32) * 100 + 1000).astype(np.float32) if dtype == np.float32 else a
    for arr in (a, big):
        x = padax.to_tensor(arr)
        for l1, l2, l3 in both(lambda u: (padax.logsumexp(u), padax.logsumexp(u, axis=1, keepdim=True),
                                          padax.logsumexp(u, axis=[0, -1])), x):
            af = arr.astype(np.float64)
            assert_close(l1, sp.logsumexp(af).astype(dtype), dtype, rtol=tol(dtype, 2))
            assert_close(l2, sp.logsumexp(af, axis=1, keepdims=True).astype(dtype), dtype, rtol=tol(dtype, 2))
            assert_close(l3, sp.logsumexp(af, axis=(0, 2)).astype(dtype), dtype, rtol=tol(dtype, 2))
    inf = padax.to_tensor(np.array([-np.inf, -np.inf], np.float32))
    assert float(padax.logsumexp(inf)) == -np.inf


def test_nan_propagates_in_max():
    a = np.array([[1.0, np.nan, 3.0], [1.0, 2.0, 3.0]], np.float32)
    np.testing.assert_array_equal(padax.max(padax.to_tensor(a), axis=1).numpy(), [np.nan, 3.0])


def test_reduction_0d_and_axis_errors():
    s = padax.to_tensor(np.float32(3.0))
    assert float(padax.sum(s)) == 3.0 and padax.sum(s, axis=0).shape == ()
    assert padax.mean(s, axis=-1).shape == ()
    x = padax.ones([2, 3])
    for fn, name in [(padax.sum, "sum"), (padax.mean, "mean"), (padax.max, "max"), (padax.all, "all"),
                     (padax.logsumexp, "logsumexp"), (padax.argmax, "argmax"), (padax.cumsum, "cumsum")]:
        with pytest.raises(ValueError, match=rf"{name}: axis 2 is out of range for an array of rank 2"):
            fn(x, 2)
    with pytest.raises(ValueError, match="sum: repeated axis"):
        padax.sum(x, [0, -2])
    with pytest.raises(ValueError, match="max: cannot reduce an empty axis"):
        padax.max(padax.ones([0, 2]), 0)


def test_reduction_methods():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = padax.to_tensor(a)
    assert_close(x.sum(), a.sum())
    assert_close(x.sum(axis=1, keepdim=True), a.sum(1, keepdims=True))
    assert_close(x.mean(0), a.mean(0))
    assert_close(x.max(), a.max())
    assert_close(x.min(axis=-1), a.min(-1))
    assert_close(x.prod(1), a.prod(1))
    assert int(x.argmax()) == 5


@pytest.mark.parametrize("dtype", [np.float32, np.int32, ml_dtypes.bfloat16])
def test_argmax_argmin(dtype):
    a = rand(SHAPE, dtype, np.random.default_rng(2), -50, 50)
    x = padax.to_tensor(a)
    fn = lambda u: (padax.argmax(u), padax.argmin(u, axis=1), padax.argmax(u, axis=-1, keepdim=True),  # noqa: E731
                    padax.argmin(u, axis=0, dtype="int32"), u.argmax(2))
    for g, m1, m2, m3, m4 in both(fn, x):
        assert g.dtype == np.int64 and m3.dtype == np.int32
        assert int(g) == a.argmax()
        np.testing.assert_array_equal(m1.numpy(), a.argmin(1))
        np.testing.assert_array_equal(m2.numpy(), a.argmax(-1)[..., None])
        np.testing.assert_array_equal(m3.numpy(), a.argmin(0))
        np.testing.assert_array_equal(m4.numpy(), a.argmax(2))


def test_argmax_int64_under_x64(x64):
    x = padax.to_tensor(np.array([3.0, 7.0, 1.0]))
    assert padax.argmax(x).dtype == np.int64


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float16])
def test_cumsum_cumprod(dtype):
    a = rand(SHAPE, dtype, np.random.default_rng(3), -2, 2)
    x = padax.to_tensor(a)
    fn = lambda u: (padax.cumsum(u), padax.cumsum(u, axis=1), padax.cumsum(u, -1, dtype="float32"),  # noqa: E731
                    padax.cumprod(u, dim=2), u.cumsum(0))
    af = a.astype(np.float64)
    for c0, c1, c2, p2, m0 in both(fn, x):
        if np.dtype(dtype).kind == "i":
            np.testing.assert_array_equal(c0.numpy(), a.reshape(-1).cumsum().astype(dtype))
            np.testing.assert_array_equal(c1.numpy(), a.cumsum(1).astype(dtype))
            np.testing.assert_array_equal(p2.numpy(), a.cumprod(2).astype(dtype))
        else:
            assert_close(c0, af.reshape(-1).cumsum().astype(dtype), dtype, rtol=tol(dtype, 4), atol=tol(dtype, 8))
            assert_close(c1, af.cumsum(1).astype(dtype), dtype, rtol=tol(dtype, 2), atol=tol(dtype, 2))
            assert_close(p2, af.cumprod(2).astype(dtype), dtype, rtol=tol(dtype, 4), atol=tol(dtype, 4))
        assert c2.dtype == np.float32
        assert_close(c2, af.cumsum(-1).astype(np.float32), np.float32)
        np.testing.assert_array_equal(np.asarray(m0), np.asarray(padax.cumsum(x, 0)))
    b = padax.to_tensor(np.array([True, True, False]))
    np.testing.assert_array_equal(padax.cumsum(b).numpy(), [1, 2, 2])


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_sort_argsort(dtype):
    rng = np.random.default_rng(4)
    a = rng.integers(-3, 3, SHAPE).astype(dtype)  # many ties: checks stability
    x = padax.to_tensor(a)
    fn = lambda u: (padax.sort(u), padax.sort(u, axis=0, descending=True), padax.argsort(u, axis=1),  # noqa: E731
                    padax.argsort(u, axis=-1, descending=True))
    for s, sd, i1, id_ in both(fn, x):
        np.testing.assert_array_equal(s.numpy(), np.sort(a, -1))
        np.testing.assert_array_equal(sd.numpy(), -np.sort(-a, 0))
        np.testing.assert_array_equal(i1.numpy(), np.argsort(a, 1, kind="stable"))
        np.testing.assert_array_equal(id_.numpy(), np.argsort(-a, -1, kind="stable"))


def test_sort_nan():
    a = np.array([2.0, np.nan, -1.0, 5.0], np.float32)
    x = padax.to_tensor(a)
    np.testing.assert_array_equal(padax.sort(x).numpy(), np.sort(a))
    np.testing.assert_array_equal(padax.argsort(x).numpy(), np.argsort(a, kind="stable"))
    np.testing.assert_array_equal(padax.sort(x, descending=True).numpy(), [np.nan, 5.0, 2.0, -1.0])


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_topk(dtype):
    rng = np.random.default_rng(5)
    a = rng.permutation(24).reshape(SHAPE).astype(dtype)  # distinct values
    x = padax.to_tensor(a)
    fn = lambda u: (padax.topk(u, 2), padax.topk(u, 1, axis=0), padax.topk(u, 3, axis=1, largest=False))  # noqa: E731
    for (v1, i1), (v2, i2), (v3, i3) in both(fn, x):
        np.testing.assert_array_equal(v1.numpy(), -np.sort(-a, -1)[..., :2])
        np.testing.assert_array_equal(i1.numpy(), np.argsort(-a, -1)[..., :2])
        np.testing.assert_array_equal(v2.numpy(), a.max(0, keepdims=True))
        np.testing.assert_array_equal(i2.numpy(), a.argmax(0)[None])
        np.testing.assert_array_equal(v3.numpy(), np.sort(a, 1)[:, :3])
        np.testing.assert_array_equal(i3.numpy(), np.argsort(a, 1)[:, :3])
    with pytest.raises(ValueError, match="topk: k=5"):
        padax.topk(x, 5)


@pytest.mark.parametrize("values,dt", [
    ([100, 100, 100, 100], np.int8),            # the int8 sum wrapped: -28
    ([2 ** 30, 2 ** 30, 2 ** 30], np.int32),    # the int32 sum wrapped
    ([-1, -2], np.int32),                       # truncates towards zero, as Paddle
    ([200, 200, 250], np.uint8),
    ([True, False, False], np.bool_),           # Paddle: bool in, bool out (True where the mean is nonzero)
    ([False, False], np.bool_),
])
def test_mean_of_integers_and_bools_as_paddle(values, dt):
    """paddle.mean keeps integer and bool dtypes; its int32/int64/bool kernels are the oracle, and
    int8/uint8 (which Paddle has no kernel for) follow the same rule with a sum that does not wrap."""
    x = np.array(values, dt)
    if dt in (np.int32, np.bool_):
        paddle = paddle_oracle()
        want = paddle.mean(paddle.to_tensor(x)).numpy()
    else:
        s = x.astype(np.int64).sum()
        want = np.array(int(s / x.size) if s >= 0 else -int(-s / x.size), dt)
    for got in both(padax.mean, padax.to_tensor(x)) + [padax.to_tensor(x).mean()]:
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        np.testing.assert_array_equal(got.numpy(), want)
    # padax.numpy.mean follows numpy: floats
    np.testing.assert_allclose(padax.numpy.mean(x).numpy(), np.mean(x), rtol=1e-6)
    assert padax.numpy.mean(x).dtype.kind == "f"


def test_mean_of_integers_along_an_axis_does_not_wrap():
    x = np.array([[100, 100, 90], [-100, -100, -90]], np.int8)
    np.testing.assert_array_equal(padax.mean(padax.to_tensor(x), axis=1, keepdim=True).numpy(),
                                  np.array([[96], [-96]], np.int8))


def test_round_halves_as_paddle_and_numpy():
    """Paddle 3.3's round (checked with the oracle) rounds halves to even on CPU, as numpy does; both
    padax.round and padax.numpy.round give the oracle's values."""
    paddle = paddle_oracle()
    v = np.array([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 0.49999997, 2.675, 1e8 + 0.5], np.float64)
    for dt in (np.float32, np.float64):
        x = v.astype(dt)
        want = paddle.round(paddle.to_tensor(x)).numpy()
        np.testing.assert_array_equal(padax.round(padax.to_tensor(x)).numpy(), want)
        np.testing.assert_array_equal(padax.jit(padax.round)(padax.to_tensor(x)).numpy(), want)
        np.testing.assert_array_equal(padax.numpy.round(x).numpy(), np.round(x))
        np.testing.assert_array_equal(padax.round(padax.to_tensor(x), decimals=2).numpy(),
                                      paddle.round(paddle.to_tensor(x), decimals=2).numpy())


@pytest.mark.parametrize("dt", [np.int8, np.int16, np.uint8, np.int32])
def test_cumsum_of_narrow_integers_is_int64_as_paddle(dt):
    """paddle.cumsum of int8/int16/uint8/int32 gives int64 (checked with the oracle); int8 [100, 100]
    used to wrap to [100, -56]."""
    paddle = paddle_oracle()
    x = np.array([100, 100, 27], dt)
    want = paddle.cumsum(paddle.to_tensor(x)).numpy()
    for got in both(padax.cumsum, padax.to_tensor(x)) + [padax.to_tensor(x).cumsum()]:
        assert got.dtype == want.dtype == np.int64
        np.testing.assert_array_equal(got.numpy(), want)


def test_clip_with_min_above_max_is_refused_as_paddle():
    paddle = paddle_oracle()
    with pytest.raises(ValueError, match="max should be greater than or equal to min"):
        paddle.clip(paddle.to_tensor([1.0, 5.0]), 6.0, 2.0)
    with pytest.raises(ValueError, match=r"clip: max must be greater than or equal to min, got min=6.0, max=2.0"):
        padax.clip(padax.to_tensor([1.0, 5.0]), 6.0, 2.0)
    np.testing.assert_array_equal(padax.clip(padax.to_tensor([1.0, 5.0]), 2.0, 2.0).numpy(), [2.0, 2.0])
    np.testing.assert_array_equal(padax.numpy.clip(np.array([1.0, 5.0]), 6.0, 2.0).numpy(), np.clip([1.0, 5.0], 6, 2))
