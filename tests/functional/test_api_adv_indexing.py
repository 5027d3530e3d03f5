"""Advanced indexing (`x[int arrays / lists / masks]`) and `x.at[...]` updates with numpy's rules,
eagerly and under jit; errors, clamping of traced indices, gradients and vmap."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from tests.conftest import assert_close

SHAPE = (4, 5, 6)
A = np.arange(np.prod(SHAPE), dtype=np.float32).reshape(SHAPE)
M = A % 7 < 3  # a boolean mask of the full shape

# (index, whether it can run under jit: boolean masks need concrete values, numpy ones are)
INDICES = [
    [0, 2, -1], ([0, 2],), ([[0], [3]], [1, 2]), (slice(None), [1, -1]), (0, slice(None), [1, 2]),
    (slice(None), 0, [1, 2]), ([1, 2], slice(None), 0), (Ellipsis, [0, 5]), (None, [1, 2], None, slice(1, 3)),
    (np.array([[1, 2], [3, 0]]), slice(None, None, -1), np.array([0, 4])), ([],), (np.zeros(0, int), slice(None), 1),
    (slice(None), [1, 2], [3, 4]), (slice(None), [[1], [2]], [3, 4]), (np.array(2), [0, 1]), ((0, 1),),
    ([1, 2], ..., [0, 5]), (slice(1, 3), [0, 0, 4]), (M[:, 0, 0],), (M[..., 0],), (M,), (slice(1, 3), M[0, :, 0]),
    (True,), (False,), (0, True), ([1, 2], True), (np.array([True, False, True, False]), 2), (..., M[0, 0]),
]


def _has_mask(idx):
    return any(isinstance(e, np.ndarray) and e.dtype == bool for e in (idx if isinstance(idx, tuple) else (idx,)))


def test_getitem_matches_numpy():
    x = padax.to_tensor(A)
    static = [i for i in INDICES if not _has_mask(i)]
    for idx in INDICES:
        expect = A[idx]
        out = x[idx]
        assert out.shape == expect.shape, idx
        np.testing.assert_array_equal(np.asarray(out), expect, err_msg=repr(idx))
    # numpy masks are concrete even while tracing: all index forms in one program
    outs = padax.jit(lambda u: [u[i] for i in INDICES])(x)
    for idx, o in zip(INDICES, outs):
        np.testing.assert_array_equal(np.asarray(o), A[idx], err_msg=repr(idx))
    assert static  # (and the same through Tensor indices below)
    # padax Tensor indices: integer and boolean, concrete
    np.testing.assert_array_equal(np.asarray(x[padax.to_tensor([1, -1])]), A[[1, -1]])
    np.testing.assert_array_equal(np.asarray(x[padax.to_tensor(M)]), A[M])
    np.testing.assert_array_equal(np.asarray(x[x > 100]), A[A > 100])
    np.testing.assert_array_equal(np.asarray(x[[padax.to_tensor(1), 2]]), A[[1, 2]])
    # integer dtypes of the data and of the indices
    xi = padax.to_tensor(A.astype(np.int32))
    for it in (np.int8, np.uint8, np.int64):
        np.testing.assert_array_equal(np.asarray(xi[np.array([3, 0], it), 1]), A.astype(np.int32)[[3, 0], 1])
    # 0-d and empty arrays
    s = padax.to_tensor(np.float32(5.0))
    assert s[None][[0, 0]].shape == (2,)
    assert s[True].shape == (1,)
    assert padax.zeros([0, 3])[[]].shape == (0, 3)


def test_traced_indices_under_jit():
    x = padax.to_tensor(A)
    i = np.array([0, 3, -1])
    j = np.array([1, 2, -5])
    f = padax.jit(lambda u, a, b: (u[a, :, b], u[:, a], u[a, b], u[a[:, None], b], u[..., a[:2]]))
    outs = f(x, padax.to_tensor(i), padax.to_tensor(j))
    for o, e in zip(outs, (A[i, :, j], A[:, i], A[i, j], A[i[:, None], j], A[..., i[:2]])):
        np.testing.assert_array_equal(np.asarray(o), e)
    # out-of-range traced indices are clamped into range (documented: no error channel under jit)
    o = padax.jit(lambda u, a: u[a])(x, padax.to_tensor([5, -9]))
    np.testing.assert_array_equal(np.asarray(o), A[[3, 0]])


def test_getitem_errors():
    x = padax.to_tensor(A)
    np.testing.assert_array_equal(x[[0, 7]].numpy(), A[[0, 3]])  # out of range: clamped, as in jax
    np.testing.assert_array_equal(x[:, padax.to_tensor([-6])].numpy(), A[:, [0]])
    fill = x.at[[0, 7], 1].get(mode="fill", fill_value=-2.0).numpy()
    np.testing.assert_array_equal(fill, np.stack([A[0, 1], np.full(A.shape[2:], -2.0, A.dtype)]))
    with pytest.raises(IndexError, match=r"shape mismatch: indexing arrays could not be broadcast together with "
                                         r"shapes \[2\] \[3\]"):
        x[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError, match=r"boolean index of shape \[3\] does not match the indexed axes \[4\]"):
        x[np.array([True, False, True])]
    with pytest.raises(IndexError, match=r"arrays used as indices must be of integer \(or boolean\) type, got float"):
        x[np.array([0.0, 1.0])]
    with pytest.raises(IndexError, match="too many indices for a Tensor of rank 3"):
        x[[0], [0], [0], [0]]
    with pytest.raises(IndexError, match=r"boolean mask indexing .* must be concrete .* got a traced bool\[4,5,6\]. "
                                         r"Under jit/vmap/grad use padax.where\(mask, x, other\) or padax.masked_fill"):
        padax.jit(lambda u: u[u > 3])(x)


# (index, whether its positions are all distinct: with repeats, `set` keeps one of the values)
UPDATES = [(([0, 2, 0],), False), ((slice(None), [1, 1, 3]), False), ((M,), True),
           (([1, 2], slice(None), [0, 5]), True), ((..., [0, -1]), True), ((np.array([[0], [3]]), 1, [2, 2]), False),
           ((slice(1, None, 2), [4, 0]), True)]


def test_at_updates_match_numpy():
    x = padax.to_tensor(A)
    vals = [np.arange(A[i].size, dtype=np.float32).reshape(A[i].shape) * 0.5 - 3 for i, _ in UPDATES]

    def fn(u, *vs):
        return [(u.at[i].set(v), u.at[i].add(v), u.at[i].multiply(v), u.at[i].min(v), u.at[i].max(v),
                 u.at[i].get()) for (i, _), v in zip(UPDATES, vs)]

    def refs(idx, v):
        out = []
        for ufunc in (None, np.add, np.multiply, np.minimum, np.maximum):
            r = A.copy()
            if ufunc is None:
                r[idx] = v
            else:
                ufunc.at(r, idx, v)  # repeated indices accumulate
            out.append(r)
        return out + [A[idx]]

    vt = [padax.to_tensor(v) for v in vals]
    for result in (fn(x, *vt), padax.jit(fn)(x, *vt)):
        for (idx, unique), v, group in zip(UPDATES, vals, result):
            for k, (o, r) in enumerate(zip(group, refs(idx, v))):
                if k == 0 and not unique:
                    continue  # set with repeated indices: one of the values wins
                np.testing.assert_allclose(np.asarray(o), r, err_msg=f"{idx} op {k}")
    np.testing.assert_array_equal(np.asarray(x), A)  # the original is unchanged


def test_at_special_cases():
    x = padax.to_tensor(A)
    # a mask with a scalar value is a select: works with a traced mask under jit
    f = padax.jit(lambda u, m: (u.at[m].set(0.0), u.at[m].add(1.0), u.at[m[:, 0, 0]].multiply(2.0)))
    out = f(x, padax.to_tensor(M))
    r0, r1, r2 = A.copy(), A.copy(), A.copy()
    r0[M] = 0
    r1[M] += 1
    r2[M[:, 0, 0]] *= 2
    for o, r in zip(out, (r0, r1, r2)):
        np.testing.assert_array_equal(np.asarray(o), r)
    # concrete masks with array values go through nonzero
    v = np.arange(M.sum(), dtype=np.float32)
    r = A.copy()
    r[M] = v
    np.testing.assert_array_equal(np.asarray(x.at[M].set(padax.to_tensor(v))), r)
    # divide and power, dtype casting of values
    r = A.copy()
    r[[1, 3], 2] /= 4.0
    np.testing.assert_allclose(np.asarray(x.at[[1, 3], 2].divide(4.0)), r)
    xi = padax.to_tensor(np.arange(6, dtype=np.int32))
    out = xi.at[[1, 4]].set(2.7)
    assert out.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(out), [0, 2, 2, 3, 2, 5])
    np.testing.assert_array_equal(np.asarray(xi.at[[2, 2, 5]].power(2)), [0, 1, 4, 3, 4, 25])
    # traced out-of-range indices: the update is dropped
    out = padax.jit(lambda u, i: u.at[i].set(-1.0))(x, padax.to_tensor([1, 9]))
    r = A.copy()
    r[1] = -1
    np.testing.assert_array_equal(np.asarray(out), r)
    # concrete out-of-range indices: dropped too, or clamped with mode='clip'
    r = A.copy()
    r[0] = 0.0
    np.testing.assert_array_equal(np.asarray(x.at[[0, 7]].set(0.0)), r)
    r[3] = 0.0
    np.testing.assert_array_equal(np.asarray(x.at[[0, 7]].set(0.0, mode="clip")), r)
    # errors
    with pytest.raises(ValueError, match=r"at\[\]\.add: values of shape \[3\] cannot be broadcast to the indexed "
                                         r"shape \[2, 5, 6\]"):
        x.at[[0, 1]].add(padax.ones([3]))
    with pytest.raises(IndexError, match="boolean mask indexing"):
        padax.jit(lambda u: u.at[u > 3].set(padax.ones([3])))(x)


def test_grads_and_vmap():
    from padax.test_util import check_grads
    a = A[:3, :4, 0] / 10
    check_grads(padax.jit(lambda u: u[[0, 2, 0], 1:] * u[[1, 1, 2], :3]), (a,), 1)
    check_grads(padax.jit(lambda u: padax.to_tensor(u).at[[0, 0, 1]].add(u[:3, :4] * 2)), (a,), 1)
    check_grads(padax.jit(lambda u: padax.to_tensor(u).at[:, [3, 0]].set(u[:, :2] ** 2)), (a,), 1)
    g = padax.grad(lambda u: (u[[0, 0, 2]] ** 2).sum())(padax.to_tensor(a))
    ref = np.zeros_like(a)
    np.add.at(ref, [0, 0, 2], 2 * a[[0, 0, 2]])
    assert_close(g, ref, rtol=1e-6)
    x = padax.to_tensor(A)
    out = padax.vmap(lambda u, i: u[i, ::2])(x, padax.to_tensor([0, 3, 1, 4]))
    np.testing.assert_array_equal(np.asarray(out), A[np.arange(4), [0, 3, 1, 4], ::2])
    out = padax.vmap(lambda u, i: u.at[i].add(1.0))(x[:, :, 0], padax.to_tensor([0, 3, 1, 4]))
    r = A[:, :, 0].copy()
    r[np.arange(4), [0, 3, 1, 4]] += 1
    np.testing.assert_array_equal(np.asarray(out), r)
    out = padax.vmap(lambda u: u[[1, 0, 1]])(x)
    np.testing.assert_array_equal(np.asarray(out), A[:, [1, 0, 1]])
