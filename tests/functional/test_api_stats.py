"""Reductions and statistics (std/var, nan*, cumulative extremes, median, quantile, mode, kthvalue,
histogram, bincount) vs numpy, with Paddle's defaults, eagerly and under jit."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import padax
from tests.conftest import paddle_oracle, assert_close

RNG = np.random.default_rng(1)
A = RNG.standard_normal((4, 6)).astype(np.float32)
AN = A.copy()
AN[0, 1] = AN[1, [0, 3]] = np.nan
AN[3, :] = np.nan


def _eager_and_jit(fn, *args):
    return [fn(*args), padax.jit(fn)(*args)]


def _nan_ref(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*a, **k)


@pytest.mark.parametrize("dt", [np.float32, np.int32])
def test_moments_and_nan_reductions(dt):
    a = (A * 10).astype(dt)
    x = padax.to_tensor(a)
    f = a.astype(np.float64)

    def fn(u):
        return (padax.std(u), padax.var(u, 1), padax.std(u, [0, 1], unbiased=False, keepdim=True),
                padax.var(u, -2, keepdim=True), padax.nansum(u, 0), padax.nanmean(u, 1),
                padax.count_nonzero(u, 1), padax.count_nonzero(u), u.std(0), u.var())
    refs = [np.std(f, ddof=1), np.var(f, 1, ddof=1), np.std(f, keepdims=True), np.var(f, 0, ddof=1, keepdims=True),
            np.nansum(a, 0), np.nanmean(f, 1), np.count_nonzero(a, 1), np.count_nonzero(a), np.std(f, 0, ddof=1),
            np.var(f, ddof=1)]
    out_f = np.float32  # integer inputs compute in float32, as Paddle's std/var/nanmean
    kinds = [out_f, out_f, out_f, out_f, np.int64 if dt == np.int32 else dt, out_f, np.int64, np.int64, out_f, out_f]
    if dt == np.int32:  # Paddle's integer variance: var keeps the int dtype (computed in float, truncated)
        paddle = paddle_oracle()
        u = paddle.to_tensor(a)
        ref_p = (paddle.std(u), paddle.var(u, 1), paddle.std(u, [0, 1], unbiased=False, keepdim=True),
                 paddle.var(u, -2, keepdim=True), None, None, None, None, u.std(0), u.var())
        refs = [r if q is None else q.numpy() for r, q in zip(refs, ref_p)]
        kinds = [k if q is None else q.numpy().dtype for k, q in zip(kinds, ref_p)]
        assert np.dtype(kinds[1]) == np.int32
    for outs in _eager_and_jit(fn, x):
        for o, r, k in zip(outs, refs, kinds):
            assert_close(o, np.asarray(r).astype(k), k, rtol=1e-5, atol=1e-4)
    # NaN handling
    xn = padax.to_tensor(AN)
    assert_close(padax.nansum(xn, 1), np.nansum(AN, 1))
    assert_close(padax.nanmean(xn, 1), _nan_ref(np.nanmean, AN, 1), rtol=1e-6)
    assert_close(padax.nanmean(xn), np.float32(_nan_ref(np.nanmean, AN)), rtol=1e-6)
    assert_close(padax.std(xn, 1), np.std(AN, 1, ddof=1))
    # edge cases: 0-d, a single element (unbiased: NaN), empty
    assert_close(padax.std(padax.to_tensor(3.0)), np.float32(np.nan))
    assert_close(padax.var(padax.to_tensor([3.0]), unbiased=False), np.float32(0))
    assert_close(padax.std(padax.zeros([0])), np.float32(np.nan))
    assert_close(padax.nansum(padax.zeros([0, 3]), 0), np.zeros(3, np.float32))
    with pytest.raises(ValueError, match=r"var: axis 2 is out of range for an array of rank 2"):
        padax.var(x, 2)


def test_cumulative_extremes_and_logcumsumexp():
    x = padax.to_tensor(A)
    for outs in _eager_and_jit(lambda u: (padax.cummax(u, 1), padax.cummin(u, 0), padax.cummax(u),
                                          padax.logcumsumexp(u, 1), padax.logcumsumexp(u)), x):
        (v1, i1), (v2, i2), (v3, i3), l1, l2 = outs
        assert_close(v1, np.maximum.accumulate(A, 1))
        assert_close(v2, np.minimum.accumulate(A, 0))
        assert_close(v3, np.maximum.accumulate(A.ravel()))
        assert i1.dtype == np.int64
        assert_close(np.take_along_axis(A, np.asarray(i1), 1), np.maximum.accumulate(A, 1))
        assert_close(np.take_along_axis(A, np.asarray(i2), 0), np.minimum.accumulate(A, 0))
        assert_close(l1, np.logaddexp.accumulate(A, 1), rtol=1e-5)
        assert_close(l2, np.logaddexp.accumulate(A.ravel()), rtol=1e-5)
    # ties take the last index; NaN propagates and its index follows later NaNs (Paddle's kernel)
    v, i = padax.cummin(padax.to_tensor([3.0, 1, 1, 2, 0, 0]), 0)
    assert_close(v, np.array([3, 1, 1, 1, 0, 0], np.float32))
    assert_close(i, np.array([0, 1, 2, 2, 4, 5], np.int64))
    # the gradient goes to the element at the index, as Paddle's (paddle.grad gives these); lax.cummax
    # splits a tie as jax does
    w = np.arange(1.0, 7.0, dtype=np.float32)
    g = padax.grad(lambda u: padax.sum(padax.cummin(u, 0)[0] * w))(padax.to_tensor([3.0, 1, 1, 2, 0, 0]))
    assert_close(g, np.array([1, 2, 7, 0, 5, 6], np.float32))
    g = padax.grad(lambda u: padax.sum(padax.cummax(u)[0] * w))(padax.to_tensor([1.0, 3, 3, 0, 3, 2]))
    assert_close(g, np.array([1, 2, 7, 0, 11, 0], np.float32))
    v, i = padax.cummax(padax.to_tensor([1.0, np.nan, 3.0, np.nan, 0.0]), 0, dtype="int32")
    assert_close(v, np.array([1, np.nan, np.nan, np.nan, np.nan], np.float32))
    assert_close(i, np.array([0, 1, 1, 3, 3], np.int32))
    v, i = padax.cummax(padax.to_tensor(np.array([3, 5, 5, 2], np.int32)))
    assert_close(v, np.array([3, 5, 5, 5], np.int32))
    assert_close(i, np.array([0, 1, 2, 2], np.int64))
    # stable for widely spread values
    assert_close(padax.logcumsumexp(padax.to_tensor([-1000.0, 0.0, 1000.0])), np.array([-1000, 0, 1000], np.float32))
    assert_close(padax.logcumsumexp(padax.to_tensor([0, 0])), np.log(np.array([1, 2], np.float32)), rtol=1e-6)
    with pytest.raises(TypeError, match=r"cummax: complex numbers have no order, got c64\[4,6\]"):
        padax.cummax(padax.complex(x, x))


def test_median_and_nanmedian():
    x, xn = padax.to_tensor(A), padax.to_tensor(AN)

    def fn(u, un):
        return (padax.median(u), padax.median(u, 1), padax.median(u, 0, keepdim=True), padax.median(un, 1),
                padax.median(u, 1, mode="min"), padax.median(u, mode="min"), padax.nanmedian(un, 1),
                padax.nanmedian(un), padax.nanmedian(un, [0, 1], keepdim=True), padax.nanmedian(un, 0, mode="min"))
    s = np.sort(A, 1)
    for outs in _eager_and_jit(fn, x, xn):
        m0, m1, m2, m3, (v4, i4), m5, n1, n2, n3, (v6, i6) = outs
        assert_close(m0, np.float32(np.median(A)))
        assert_close(m1, np.median(A, 1).astype(np.float32))
        assert_close(m2, np.median(A, 0, keepdims=True).astype(np.float32))
        assert_close(m3, np.median(AN, 1).astype(np.float32))  # NaN where a row holds a NaN
        assert_close(v4, s[:, 2])  # even count: the lower middle value
        assert_close(np.take_along_axis(A, np.asarray(i4)[:, None], 1)[:, 0], s[:, 2])
        assert_close(m5, np.sort(A.ravel())[11])
        assert_close(n1, _nan_ref(np.nanmedian, AN, 1).astype(np.float32))
        assert_close(n2, np.float32(_nan_ref(np.nanmedian, AN)))
        assert_close(n3, _nan_ref(np.nanmedian, AN, keepdims=True).astype(np.float32))
        cols = [np.sort(c[~np.isnan(c)]) for c in AN.T]
        assert_close(v6, np.array([c[(len(c) - 1) // 2] for c in cols], np.float32))
        assert_close(np.take_along_axis(AN, np.asarray(i6)[None], 0)[0], np.asarray(v6))
    # Paddle's defaults: integer input, mode='avg' -> float32; int axis + mode='min' -> (values, int64 indices)
    xi = padax.arange(12).reshape([3, 4])
    assert_close(padax.median(xi), np.float32(5.5))
    v, i = padax.median(xi, 1, mode="min")
    assert v.dtype == xi.dtype
    assert_close(v, np.array([1, 5, 9], np.int64))
    assert_close(i, np.array([1, 1, 1], np.int64))
    y6, y6i = padax.nanmedian(padax.to_tensor([[np.nan, 2.0, 3.0], [0.0, 1.0, 2.0]]), 0, mode="min")
    assert_close(y6, np.array([0, 1, 2], np.float32))
    assert_close(y6i, np.array([1, 1, 1], np.int64))
    assert_close(padax.median(padax.to_tensor(7.0)), np.float32(7))
    with pytest.raises(ValueError, match="median: mode must be 'avg' or 'min', got 'max'"):
        padax.median(x, mode="max")
    with pytest.raises(ValueError, match=r"median: cannot take the median of an empty selection of f32\[0,3\]"):
        padax.median(padax.zeros([0, 3]), 0)


METHODS = ["linear", "lower", "higher", "midpoint", "nearest"]


def test_quantile():
    x, xn = padax.to_tensor(A), padax.to_tensor(AN)
    q = [0.0, 0.3, 0.77, 1.0]

    def fn(u, un):
        return [(padax.quantile(u, q, 1, interpolation=m), padax.quantile(u, 0.4, interpolation=m),
                 padax.quantile(u, 0.6, [0, 1], keepdim=True, interpolation=m),
                 padax.nanquantile(un, q, 1, interpolation=m), padax.quantile(un, 0.5, 0, interpolation=m),
                 padax.quantile(u, padax.to_tensor([0.25, 0.5]), 0, interpolation=m)) for m in METHODS]
    for result in _eager_and_jit(fn, x, xn):
        for m, outs in zip(METHODS, result):
            assert_close(outs[0], np.quantile(A, q, 1, method=m).astype(np.float32), rtol=1e-5)
            assert_close(outs[1], np.float32(np.quantile(A, 0.4, method=m)), rtol=1e-5)
            assert_close(outs[2], np.quantile(A, 0.6, (0, 1), keepdims=True, method=m).astype(np.float32), rtol=1e-5)
            assert_close(outs[3], _nan_ref(np.nanquantile, AN, q, 1, method=m).astype(np.float32), rtol=1e-5)
            assert_close(outs[4], np.quantile(AN, 0.5, 0, method=m).astype(np.float32), rtol=1e-5)
            assert_close(outs[5], np.quantile(A, [0.25, 0.5], 0, method=m).astype(np.float32), rtol=1e-5)


def test_quantile_dtypes_and_errors():
    xi = padax.to_tensor(np.arange(10, dtype=np.int32))
    assert_close(padax.quantile(xi, 0.25), np.float32(2.25))  # integers give float32
    with padax.enable_x64(True):
        xd = padax.to_tensor(A.astype(np.float64))
        assert padax.quantile(xd, 0.5).dtype == np.float64
        assert padax.median(xd).dtype == np.float64
    with pytest.raises(ValueError, match=r"quantile: q must be in \[0, 1\], got 1.5"):
        padax.quantile(xi, 1.5)
    with pytest.raises(ValueError, match="quantile: interpolation must be one of"):
        padax.quantile(xi, 0.5, interpolation="cubic")
    with pytest.raises(ValueError, match=r"quantile: axis 3 is out of range for an array of rank 1"):
        padax.quantile(xi, 0.5, 3)


def test_mode_and_kthvalue():
    t = padax.to_tensor([[[1, 2, 2], [2, 3, 3]], [[0, 5, 5], [9, 9, 0]]], dtype="float32")
    ints = RNG.integers(0, 4, (5, 7)).astype(np.int32)

    def fn(u, w):
        return padax.mode(u, 2), padax.mode(w), padax.mode(w, 0, keepdim=True), padax.kthvalue(w, 3, 1), \
            padax.kthvalue(u, 1, 0, keepdim=True)
    for (mv, mi), (wv, wi), (kv, ki), (tv, ti), (uv, ui) in _eager_and_jit(fn, t, padax.to_tensor(ints)):
        assert_close(mv, np.array([[2, 3], [5, 9]], np.float32))
        assert_close(mi, np.array([[2, 2], [2, 1]], np.int64))  # Paddle: the last occurrence
        for row, v, i in zip(ints, np.asarray(wv), np.asarray(wi)):
            vals, counts = np.unique(row, return_counts=True)
            assert v == vals[np.argmax(counts)]  # the smallest of the most frequent values
            assert i == np.nonzero(row == v)[0][-1]
        assert kv.shape == (1, 7) and ki.shape == (1, 7)
        assert_close(tv, np.sort(ints, 1)[:, 2])
        assert_close(np.take_along_axis(ints, np.asarray(ti)[:, None], 1)[:, 0], np.sort(ints, 1)[:, 2])
        assert_close(uv, np.asarray(t).min(0, keepdims=True))
    with pytest.raises(ValueError, match=r"kthvalue: k=8 must be between 1 and 7, the size of axis 1 of i32\[5,7\]"):
        padax.kthvalue(padax.to_tensor(ints), 8)


def test_histogram_bincount_reduce_as():
    v = RNG.uniform(-1, 3, 50).astype(np.float32)
    x = padax.to_tensor(v)
    h = padax.histogram(x, 7, -0.5, 2.5)
    assert h.dtype == np.int64
    assert_close(h, np.histogram(v, 7, (-0.5, 2.5))[0].astype(np.int64))
    assert_close(padax.histogram(x, 5), np.histogram(v, 5)[0].astype(np.int64))  # the data's range
    w = RNG.uniform(0, 1, 50).astype(np.float32)
    assert_close(padax.histogram(x, 4, 0, 2, weight=padax.to_tensor(w), density=True),
                 np.histogram(v, 4, (0, 2), weights=w, density=True)[0].astype(np.float32), rtol=1e-5)
    b = np.array([1, 1, 3, 0, 6], np.int32)
    assert_close(padax.bincount(padax.to_tensor(b)), np.bincount(b).astype(np.int64))
    assert_close(padax.bincount(padax.to_tensor(b), minlength=9), np.bincount(b, minlength=9).astype(np.int64))
    assert_close(padax.bincount(padax.to_tensor(b), padax.to_tensor(w[:5])), np.bincount(b, w[:5]).astype(np.float32),
                 rtol=1e-6)
    assert_close(padax.jit(lambda t: padax.bincount(t, length=4))(padax.to_tensor(b)), np.array([1, 2, 0, 1], np.int64))
    with pytest.raises(TypeError, match="bincount: the number of bins depends on the values"):
        padax.jit(padax.bincount)(padax.to_tensor(b))
    with pytest.raises(ValueError, match="bincount: x must be non-negative"):
        padax.bincount(padax.to_tensor([-1, 2]))
    assert_close(padax.reduce_as(padax.to_tensor(A), padax.zeros([1, 6])), A.sum(0, keepdims=True), rtol=1e-5)
    assert_close(padax.reduce_as(padax.ones([2, 4, 6]), padax.zeros([4, 1])), np.full((4, 1), 12, np.float32))


def test_grads_and_vmap():
    from padax.test_util import check_grads
    # well-separated values, so finite differences do not reorder them
    a = (RNG.permutation(15).reshape(3, 5) * 0.3 + RNG.uniform(0, 0.05, (3, 5))).astype(np.float32)
    check_grads(padax.jit(lambda u: padax.std(u, 1) + padax.var(u, 1, unbiased=False) + padax.median(u, 1)
                          + padax.kthvalue(u, 2, 1)[0] * padax.nanmean(u, 1)), (a,), 1)
    check_grads(padax.jit(lambda u: padax.quantile(u, [0.3, 0.9], 1) + padax.nanmedian(u, 0).sum()), (a,), 1)
    check_grads(padax.jit(lambda u: padax.cummax(u, 1)[0] + padax.logcumsumexp(u, 1)), (a,), 1)
    out = padax.vmap(lambda u: padax.median(u))(padax.to_tensor(A))
    assert_close(out, np.median(A, 1).astype(np.float32))
    out = padax.vmap(lambda u: padax.quantile(u, 0.3))(padax.to_tensor(A))
    assert_close(out, np.quantile(A, 0.3, 1).astype(np.float32), rtol=1e-5)
    v, i = padax.vmap(lambda u: padax.cummax(u, 0))(padax.to_tensor(A))
    assert_close(v, np.maximum.accumulate(A, 1))
