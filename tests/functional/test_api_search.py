"""searchsorted/bucketize/isin, and the data-dependent-size functions (nonzero, where(cond),
masked_select, unique, unique_consecutive): eager values vs numpy, the static size= form under jit,
and the errors raised under jit without it."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from tests.conftest import assert_close

RNG = np.random.default_rng(3)
A = RNG.standard_normal((3, 4)).astype(np.float32)


def test_searchsorted_and_bucketize():
    seq = np.sort(RNG.standard_normal(9)).astype(np.float32)
    vals = np.concatenate([RNG.standard_normal(6), seq[[0, 4, 8]], [np.nan, -np.inf, np.inf]]).astype(np.float32)
    seq2 = np.sort(RNG.standard_normal((3, 6)), 1).astype(np.float32)
    vals2 = RNG.standard_normal((3, 4)).astype(np.float32)
    dup = np.array([1, 2, 2, 2, 3, np.nan], np.float32)

    def fn(s, v, s2, v2, d):
        return (padax.searchsorted(s, v), padax.searchsorted(s, v, right=True), padax.searchsorted(s2, v2),
                padax.searchsorted(d, padax.to_tensor(np.array([2.0, 0.0, 5.0, np.nan], np.float32))),
                padax.searchsorted(d, padax.to_tensor(np.array([2.0, 0.0, 5.0, np.nan], np.float32)), right=True),
                padax.bucketize(v2, s, out_int32=True, right=True), padax.searchsorted(s, v2[0], out_int32=True))
    refs = [np.searchsorted(seq, vals), np.searchsorted(seq, vals, "right"),
            np.stack([np.searchsorted(seq2[i], vals2[i]) for i in range(3)]), np.searchsorted(dup, [2, 0, 5, np.nan]),
            np.searchsorted(dup, [2, 0, 5, np.nan], "right"), np.searchsorted(seq, vals2, "right"),
            np.searchsorted(seq, vals2[0])]
    args = [padax.to_tensor(a) for a in (seq, vals, seq2, vals2, dup)]
    for outs in (fn(*args), padax.jit(fn)(*args)):
        for k, (o, r) in enumerate(zip(outs, refs)):
            assert o.dtype == (np.int32 if k in (5, 6) else np.int64), k
            np.testing.assert_array_equal(np.asarray(o), r, err_msg=str(k))
    with padax.enable_x64(True):
        assert padax.searchsorted(args[0], args[1]).dtype == np.int64
        assert padax.searchsorted(args[0], args[1], out_int32=True).dtype == np.int32
    # integer sequences, empty sequence
    assert_close(padax.searchsorted(padax.to_tensor([1, 3, 5]), padax.to_tensor([0, 3, 6])),
                 np.array([0, 1, 3], np.int64))
    assert_close(padax.searchsorted(padax.zeros([0]), padax.ones([2])), np.zeros(2, np.int64))
    with pytest.raises(ValueError, match=r"searchsorted: the leading axes of sorted_sequence f32\[3,6\] and values"):
        padax.searchsorted(args[2], padax.ones([2, 4]))
    with pytest.raises(ValueError, match=r"bucketize: sorted_sequence must be 1-D, got f32\[3,6\]"):
        padax.bucketize(args[3], args[2])


def test_isin():
    x = np.array([[1, 5, 2], [7, 2, 0]], np.int32)
    t = np.array([2, 7, 9], np.int32)
    for fn in (padax.isin, padax.jit(padax.isin)):
        assert_close(fn(padax.to_tensor(x), padax.to_tensor(t)), np.isin(x, t))
    assert_close(padax.isin(padax.to_tensor(x), padax.to_tensor(t), invert=True), np.isin(x, t, invert=True))
    assert_close(padax.isin(padax.to_tensor([1.5, np.nan]), padax.to_tensor([np.nan, 1.5])), np.array([True, False]))


def test_nonzero_where_masked_select_eager():
    x = padax.to_tensor(A)
    m = A > 0
    assert_close(padax.nonzero(x > 0), np.argwhere(m).astype(np.int64))
    rows, cols = padax.nonzero(x > 0, as_tuple=True)
    assert rows.shape == (int(m.sum()),)  # Paddle 3's layout: one 1-D Tensor per axis
    assert_close(cols, np.nonzero(m)[1].astype(np.int64))
    assert_close(padax.where(x > 0)[0], np.nonzero(m)[0].astype(np.int64))
    assert_close(padax.nonzero(padax.to_tensor([0, 3, 0, 1])), np.array([[1], [3]], np.int64))
    assert padax.nonzero(padax.zeros([2, 3])).shape == (0, 2)
    assert_close(padax.masked_select(x, x > 0), A[m])
    assert_close(padax.masked_select(x, padax.to_tensor(m[0])), A[np.broadcast_to(m[0], A.shape)])  # broadcast
    assert padax.masked_select(padax.zeros([0, 2]), padax.zeros([0, 2]) > 0).shape == (0,)
    with pytest.raises(TypeError, match=r"masked_select: mask must be a bool Tensor, got f32\[3,4\]"):
        padax.masked_select(x, x)


def test_unique_eager():
    u = np.array([3, 1, 2, 3, 1, 5, 3], np.int32)
    out, idx, inv, cnt = padax.unique(padax.to_tensor(u), True, True, True)
    eu, eidx, einv, ecnt = np.unique(u, True, True, True)
    for o, r in zip((out, idx, inv, cnt), (eu, eidx, einv, ecnt)):
        assert_close(o, r.astype(o.dtype))
    f = np.array([2.0, np.nan, 1.0, np.nan, 2.0], np.float32)
    assert_close(padax.unique(padax.to_tensor(f)), np.unique(f))  # NaNs collapse into one, as numpy
    rows = np.array([[1, 2], [0, 1], [1, 2], [0, 0]], np.int32)
    out, inv, cnt = padax.unique(padax.to_tensor(rows), return_inverse=True, return_counts=True, axis=0)
    e, einv, ecnt = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
    assert_close(out, e)
    assert_close(inv, einv.reshape(-1).astype(np.int64))
    assert_close(cnt, ecnt.astype(np.int64))
    assert_close(padax.unique(padax.to_tensor(rows), axis=1), np.unique(rows, axis=1))
    out, inv, cnt = padax.unique_consecutive(padax.to_tensor([1, 1, 2, 2, 3, 1, 1, 2]), True, True)
    assert_close(out, np.array([1, 2, 3, 1, 2], np.int64))
    assert_close(inv, np.array([0, 0, 1, 1, 2, 3, 3, 4], np.int64))
    assert_close(cnt, np.array([2, 2, 1, 2, 1], np.int64))
    assert padax.unique(padax.zeros([0])).shape == (0,)
    assert_close(padax.unique(padax.to_tensor(7)), np.array([7], np.int64))
    assert padax.unique(padax.to_tensor(u), dtype="int32", return_counts=True)[1].dtype == np.int32


def test_static_size_under_jit_and_errors():
    u = padax.to_tensor(np.array([3, 1, 2, 3, 1, 5, 3], np.int32))
    f = padax.jit(lambda t: (padax.unique(t, size=6, fill_value=-1), padax.unique(t, return_counts=True, size=2),
                             padax.nonzero(t > 2, size=5, fill_value=-1), padax.masked_select(t, t > 2, size=3),
                             padax.unique_consecutive(t, size=8)))
    uq, (u2, c2), nz, ms, uc = f(u)
    assert_close(uq, np.array([1, 2, 3, 5, -1, -1], np.int32))
    assert_close(u2, np.array([1, 2], np.int32))
    assert_close(c2, np.array([2, 1], np.int64))
    assert_close(nz, np.array([[0], [3], [5], [6], [-1]], np.int64))
    assert_close(ms, np.array([3, 3, 5], np.int32))
    assert_close(uc, np.array([3, 1, 2, 3, 1, 5, 3, 0], np.int32))
    for fn, what in ((padax.unique, "unique values"), (padax.nonzero, "selected elements"),
                     (lambda t: padax.masked_select(t, t > 1), "selected elements"),
                     (lambda t: padax.where(t > 1), "selected elements")):
        with pytest.raises(TypeError, match=f"the number of {what} depends on the values of the input.*static "
                                            "size="):
            padax.jit(fn)(u)
