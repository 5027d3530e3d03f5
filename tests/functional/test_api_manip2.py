"""Creation extras, shape manipulation and the gather/scatter family vs numpy, eagerly and under jit."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from tests.conftest import assert_close

RNG = np.random.default_rng(2)
A = RNG.standard_normal((3, 4)).astype(np.float32)
G = RNG.standard_normal((2, 3, 4)).astype(np.float32)


def _eager_and_jit(fn, *args):
    return [fn(*args), padax.jit(fn)(*args)]


# ---- creation -----------------------------------------------------------------------------------

def test_creation_extras():
    v = np.arange(1, 4, dtype=np.float32)

    def fn(a, u):
        out = [padax.tril(a), padax.triu(a, 1), padax.tril(a, -1), padax.diag(u), padax.diag(u, 1, padding_value=9),
               padax.diag(u, -2), padax.diag(a, 1), padax.diag(a, -1), padax.diagflat(a[:2, :2], 1),
               padax.diag_embed(a[:2], 1, 0, 2), padax.complex(a, -a), padax.polar(padax.abs(a), a)]
        return out + padax.meshgrid(u, a[0]) + padax.meshgrid([u])
    ref_de = np.zeros((5, 2, 5), np.float32)
    for i in range(2):
        ref_de[:, i, :] = np.diag(A[i], 1)
    refs = [np.tril(A), np.triu(A, 1), np.tril(A, -1), np.diag(v), np.diag(v, 1) + 9 * (1 - np.eye(4, k=1)),
            np.diag(v, -2), np.diag(A, 1), np.diag(A, -1), np.diagflat(A[:2, :2], 1), ref_de, A - 1j * A,
            np.abs(A) * np.exp(1j * A)] + list(np.meshgrid(v, A[0], indexing="ij")) + [v]
    for outs in _eager_and_jit(fn, padax.to_tensor(A), padax.to_tensor(v)):
        for o, r in zip(outs, refs):
            assert_close(o, np.asarray(r).astype(np.complex64 if np.iscomplexobj(r) else np.float32), rtol=1e-5,
                         atol=1e-6)
    for k in (0, 2, -1):
        assert_close(padax.tril_indices(4, 5, k), np.stack(np.tril_indices(4, k, 5)).astype(np.int64))
        assert_close(padax.triu_indices(4, 3, k), np.stack(np.triu_indices(4, k, 3)).astype(np.int64))
    assert padax.triu_indices(3, dtype="int32").shape == (2, 6)
    assert_close(padax.logspace(0, 2, 5), np.logspace(0, 2, 5).astype(np.float32), rtol=1e-6)
    assert_close(padax.logspace(1, 3, 3, base=2.0), np.array([2, 4, 8], np.float32))
    assert_close(padax.vander(padax.to_tensor([1, 2, 3])), np.vander([1, 2, 3]).astype(np.int64))
    assert_close(padax.vander(padax.to_tensor([1.0, 2.0]), 3, increasing=True),
                 np.vander([1.0, 2.0], 3, increasing=True).astype(np.float32))
    # bool and integer inputs keep their dtype; empty and 0-d inputs
    assert_close(padax.tril(padax.to_tensor(np.ones((2, 3), bool))), np.tril(np.ones((2, 3), bool)))
    assert padax.diag(padax.to_tensor(5)).shape == (1, 1)
    assert padax.diag(padax.zeros([0])).shape == (0, 0)
    assert padax.complex(padax.to_tensor([1, 2]), padax.to_tensor([0, 1])).dtype == np.complex64
    with pytest.raises(ValueError, match=r"tril: x must have at least 2 axes, got f32\[3\]"):
        padax.tril(padax.ones([3]))
    with pytest.raises(ValueError, match=r"diag_embed: dim1 and dim2 must differ"):
        padax.diag_embed(padax.ones([3]), 0, 1, -1)
    with pytest.raises(TypeError, match=r"complex: real and imag must be real"):
        padax.complex(padax.complex(padax.ones([1]), padax.ones([1])), padax.ones([1]))


# ---- manipulation -------------------------------------------------------------------------------

def test_roll_rot90_flip_slices():
    def fn(a):
        out = [padax.roll(a, 1), padax.roll(a, -2, 1), padax.roll(a, [1, -1], [0, -1]), padax.roll(a, 7, 0)]
        out += [padax.rot90(a, k) for k in (-1, 0, 1, 2, 3, 5)] + [padax.rot90(a, 1, [1, 0])]
        out += [padax.slice(a, [0, 1], [1, -3], [100, -1]), padax.slice(a, [1], [3], [2]),
                padax.strided_slice(a, [1], [-1], [0], [-2]), padax.strided_slice(a, [0, 1], [0, 0], [3, 4], [2, 3]),
                padax.diagonal(a), padax.diagonal(a, 1), padax.diagonal(a, -2), padax.swapaxes(a, 0, 1)]
        return out
    refs = [np.roll(A, 1), np.roll(A, -2, 1), np.roll(A, [1, -1], [0, 1]), np.roll(A, 7, 0)]
    refs += [np.rot90(A, k) for k in (-1, 0, 1, 2, 3, 5)] + [np.rot90(A, 1, (1, 0))]
    refs += [A[1:, 1:3], A[:, 3:2], A[:, -1:0:-2], A[0:3:2, 0:4:3], np.diagonal(A), np.diagonal(A, 1),
             np.diagonal(A, -2), A.T]
    for outs in _eager_and_jit(fn, padax.to_tensor(A)):
        for o, r in zip(outs, refs):
            assert_close(o, r)
    for axes in ((0, 1), (2, 0), (1, 2)):
        for off in (0, 1, -1, 5):
            assert_close(padax.diagonal(padax.to_tensor(G), off, *axes), np.diagonal(G, off, *axes))
    # traced shift
    assert_close(padax.jit(lambda a, s: padax.roll(a, s, 1))(padax.to_tensor(A), padax.to_tensor(3)), np.roll(A, 3, 1))
    assert_close(padax.roll(padax.zeros([0, 2]), 1, 0), np.zeros((0, 2), np.float32))
    with pytest.raises(ValueError, match="roll: shifts .* and axis .* must have the same length"):
        padax.roll(padax.to_tensor(A), [1, 2], 0)
    with pytest.raises(ValueError, match="rot90: axes must be different"):
        padax.rot90(padax.to_tensor(A), 1, [1, 1])


def test_pad_modes():
    x4 = RNG.standard_normal((1, 2, 3, 4)).astype(np.float32)
    x3 = RNG.standard_normal((2, 3, 5)).astype(np.float32)

    def fn(a, b):
        return (padax.pad(a, [0, 0, 1, 0, 0, 2, 1, 1], value=3.0),       # 2*ndim: from the first axis
                padax.pad(a, [1, 2]),                                    # shorter: from the last axis
                padax.pad(a, [1, 2, 0, 1]),                              # 2*(ndim-2): spatial H, W
                padax.pad(a, [1, 2, 2, 1], mode="reflect"), padax.pad(a, [3, 0, 0, 2], mode="replicate"),
                padax.pad(a, [3, 1, 1, 2], mode="circular"),
                padax.pad(a, [1, 0, 0, 1], mode="reflect", data_format="NHWC"),
                padax.pad(b, [2, 3], mode="reflect"), padax.pad(b, [1, 1], mode="replicate", data_format="NLC"),
                padax.pad(a, [0, 0, 1, 0, 0, 2, 1, 1], pad_from_left_axis=False))
    w = lambda *p: [(0, 0)] * (4 - len(p)) + list(p)  # noqa: E731
    refs = [np.pad(x4, [(0, 0), (1, 0), (0, 2), (1, 1)], constant_values=3), np.pad(x4, w((1, 2))),
            np.pad(x4, w((0, 1), (1, 2))), np.pad(x4, w((2, 1), (1, 2)), "reflect"),
            np.pad(x4, w((0, 2), (3, 0)), "edge"), np.pad(x4, w((1, 2), (3, 1)), "wrap"),
            np.pad(x4, [(0, 0), (0, 1), (1, 0), (0, 0)], "reflect"), np.pad(x3, [(0, 0), (0, 0), (2, 3)], "reflect"),
            np.pad(x3, [(0, 0), (1, 1), (0, 0)], "edge"), np.pad(x4, [(1, 1), (0, 2), (1, 0), (0, 0)])]
    for outs in _eager_and_jit(fn, padax.to_tensor(x4), padax.to_tensor(x3)):
        for o, r in zip(outs, refs):
            assert_close(o, r)
    xi = padax.to_tensor(np.arange(6, dtype=np.int32).reshape(1, 2, 3))
    assert_close(padax.pad(xi, [1, 1], value=7), np.pad(np.arange(6).reshape(1, 2, 3), w((1, 1))[1:],
                                                            constant_values=7).astype(np.int32))
    with pytest.raises(ValueError, match=r"pad: reflect padding \(3, 0\) must be smaller than the size 3"):
        padax.pad(xi, [3, 0], mode="reflect")
    with pytest.raises(ValueError, match=r"pad: mode 'reflect' .* needs a 3-D, 4-D or 5-D x, got f32\[3,4\]"):
        padax.pad(padax.to_tensor(A), [1, 1], mode="reflect")
    with pytest.raises(ValueError, match="pad: pad must have an even length"):
        padax.pad(xi, [1])


def test_repeat_split_stack_views():
    x = padax.to_tensor(A)
    assert_close(padax.repeat_interleave(x, 2, 1), np.repeat(A, 2, 1))
    assert_close(padax.repeat_interleave(x, 3), np.repeat(A, 3))
    assert_close(padax.repeat_interleave(x, padax.to_tensor([1, 0, 2]), 0), np.repeat(A, [1, 0, 2], 0))
    assert_close(padax.repeat_interleave(x, [2, 1, 1, 0], 1), np.repeat(A, [2, 1, 1, 0], 1))
    f = padax.jit(lambda a, r: padax.repeat_interleave(a, r, 0, output_size=3))
    assert_close(f(x, padax.to_tensor([1, 0, 2])), np.repeat(A, [1, 0, 2], 0))
    with pytest.raises(TypeError, match="repeat_interleave: traced repeats .* pass a static output_size"):
        padax.jit(lambda a, r: padax.repeat_interleave(a, r, 0))(x, padax.to_tensor([1, 0, 2]))
    for o, r in zip(padax.tensor_split(x, 3, 1), np.array_split(A, 3, 1)):
        assert_close(o, r)
    for o, r in zip(padax.hsplit(x, [1, 3]), np.hsplit(A, [1, 3])):
        assert_close(o, r)
    for o, r in zip(padax.vsplit(x, 3), np.vsplit(A, 3)):
        assert_close(o, r)
    assert_close(padax.hstack([x, x]), np.hstack([A, A]))
    assert_close(padax.vstack([x[0], x[1]]), np.vstack([A[0], A[1]]))
    assert_close(padax.dstack([x, x]), np.dstack([A, A]))
    assert_close(padax.column_stack([x[0], x[1]]), np.column_stack([A[0], A[1]]))
    assert_close(padax.atleast_3d(x[0]), np.atleast_3d(A[0]))
    assert [t.shape for t in padax.atleast_2d(x[0, 0], x)] == [(1, 1), (3, 4)]
    assert_close(padax.unflatten(x, 1, [2, -1]), A.reshape(3, 2, 2))
    assert_close(padax.as_real(padax.complex(x, -x)), np.stack([A, -A], -1))
    assert_close(padax.as_complex(padax.to_tensor(np.stack([A, -A], -1))), A - 1j * A)
    assert_close(padax.unfold(padax.arange(7), 0, 3, 2), np.array([[0, 1, 2], [2, 3, 4], [4, 5, 6]], np.int64))
    assert_close(padax.as_strided(x, [3, 3], [1, 1], 1), np.lib.stride_tricks.as_strided(
        A.ravel()[1:], (3, 3), (4, 4)))
    assert_close(padax.view(x, [4, 3]), A.reshape(4, 3))
    assert_close(padax.view(x, "int32"), A.view(np.int32))
    assert_close(padax.view(x, "float16"), A.view(np.float16))
    assert_close(padax.view_as(x, padax.zeros([2, 6])), A.reshape(2, 6))
    assert_close(padax.crop(x, [2, -1], [1, 1]), A[1:3, 1:])
    assert_close(padax.block_diag([padax.ones([2, 2]), padax.to_tensor([[1, 2, 3]])]),
                 np.array([[1, 1, 0, 0, 0], [1, 1, 0, 0, 0], [0, 0, 1, 2, 3]], np.float32))
    assert_close(padax.cartesian_prod([padax.arange(2), padax.arange(3)]),
                 np.array([[i, j] for i in range(2) for j in range(3)], np.int64))
    assert_close(padax.combinations(padax.arange(4), 2), np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]],
                                                                     np.int64))
    assert padax.combinations(padax.arange(3), 2, with_replacement=True).shape == (6, 2)
    assert padax.broadcast_shape([2, 1, 3], [4, 1]) == [2, 4, 3]
    assert int(padax.numel(x)) == 12 and int(padax.rank(x)) == 2
    assert_close(padax.shape(x), np.array([3, 4], np.int64))
    assert_close(padax.shard_index(padax.to_tensor([1, 6, 12, 19]), 20, 2, 1), np.array([-1, -1, 2, 9], np.int64))
    assert padax.tolist(x[0, :2]) == A[0, :2].tolist()
    assert [u.shape for u in padax.unstack(x, 1)] == [(3,)] * 4


# ---- gather / scatter -----------------------------------------------------------------------------

def test_gather_family():
    ind = RNG.integers(0, 4, (3, 2))
    i_t = padax.to_tensor(ind)

    def fn(a, g, i):
        return (padax.gather(a, padax.to_tensor([2, 0, -1])), padax.gather(a, padax.to_tensor([1, 3]), axis=1),
                padax.gather(a, padax.to_tensor(1), 1), padax.index_select(a, padax.to_tensor([3, 3, 0]), 1),
                padax.take(a, padax.to_tensor([[0, 11], [-1, 5]])),
                padax.take(a, padax.to_tensor([13, -13]), mode="wrap"),
                padax.take(a, padax.to_tensor([13, -13]), mode="clip"),
                padax.gather_nd(g, padax.to_tensor([[1, 2], [0, -1]])),
                padax.gather_nd(g, padax.to_tensor([[[1]], [[0]]])),
                padax.take_along_axis(a, i, 1), padax.take_along_axis(a, padax.to_tensor([[0, 2]]), 1),
                padax.take_along_axis(a, i[:1], 1, broadcast=False), padax.index_sample(a, i),
                padax.multiplex([a, -a], padax.to_tensor([[1], [0], [1]])))
    refs = [A[[2, 0, -1]], A[:, [1, 3]], A[:, 1], A[:, [3, 3, 0]], A.ravel()[[[0, 11], [-1, 5]]],
            np.take(A, [13, -13], mode="wrap"), np.take(A, [13, -13], mode="clip"), G[[1, 0], [2, -1]], G[[[1], [0]]],
            np.take_along_axis(A, ind, 1), np.take_along_axis(A, np.array([[0, 2]] * 3), 1),
            np.take_along_axis(A[:1], ind[:1], 1), np.take_along_axis(A, ind, 1), np.stack([-A[0], A[1], -A[2]])]
    for outs in _eager_and_jit(fn, padax.to_tensor(A), padax.to_tensor(G), i_t):
        for o, r in zip(outs, refs):
            assert_close(o, r)
    # integer data, empty index
    xi = padax.to_tensor(np.arange(12, dtype=np.int32).reshape(3, 4))
    assert_close(padax.gather(xi, padax.to_tensor(np.zeros(0, np.int32))), np.zeros((0, 4), np.int32))
    # concrete out-of-range indices raise, naming the function; traced ones are clamped
    with pytest.raises(IndexError, match="gather: index 3 is out of bounds for axis 0 with size 3"):
        padax.gather(xi, padax.to_tensor([0, 3]))
    with pytest.raises(IndexError, match="take_along_axis: index -5 is out of bounds for axis 1 with size 4"):
        padax.take_along_axis(xi, padax.to_tensor([[-5]]), 1)
    out = padax.jit(lambda a, i: padax.gather(a, i))(xi, padax.to_tensor([0, 7]))
    assert_close(out, np.arange(12, dtype=np.int32).reshape(3, 4)[[0, 2]])
    with pytest.raises(TypeError, match=r"index_select: index must have an integer dtype, got f32\[2\]"):
        padax.index_select(xi, padax.to_tensor([0.0, 1.0]))
    with pytest.raises(ValueError, match=r"gather: axis 2 is out of range for an array of rank 2"):
        padax.gather(xi, padax.to_tensor([0]), 2)
    with pytest.raises(TypeError, match=r"gather_nd: x must be a Tensor, a Python number or a numpy array"):
        padax.gather_nd({"a": 1}, [[0]])


def test_scatter_family():
    X = padax.to_tensor([[1, 1], [2, 2], [3, 3]], "float32")
    ind = RNG.integers(0, 4, (3, 2))

    upd = padax.to_tensor([[1, 1], [2, 2], [3, 3], [4, 4]], "float32")

    def fn(x, a, i):
        return (padax.scatter(x, padax.to_tensor([2, 1, 0, 1]), upd),
                padax.scatter(x, padax.to_tensor([2, 1, 0, 1]), upd, overwrite=False),
                padax.scatter_nd_add(padax.zeros([3, 2]), padax.to_tensor([[1], [1], [0]]), padax.ones([3, 2])),
                padax.scatter_nd(padax.to_tensor([[1, 1], [0, 1], [1, 1]]), padax.to_tensor([9.0, 10.0, 11.0]), [2, 3]),
                padax.put_along_axis(a, i, 7.0, 1), padax.put_along_axis(a, i, 1.0, 1, reduce="add"),
                padax.put_along_axis(a, i, 1.0, 1, reduce="add", include_self=False),
                padax.put_along_axis(a, i, 2.0, 1, reduce="mul"), padax.put_along_axis(a, i, 0.0, 1, reduce="amax"),
                padax.put_along_axis(a, i, 3.0, 1, reduce="mean"),
                padax.index_put(a, (padax.to_tensor([0, 2]), padax.to_tensor([1, 1])), padax.to_tensor(5.0)),
                padax.index_put(a, (padax.to_tensor([0, 0]), padax.to_tensor([1, 1])), padax.to_tensor(5.0), True),
                padax.index_fill(a, padax.to_tensor([0, 2]), 1, -1.0), padax.index_add(a, padax.to_tensor([0, 0]), 1,
                                                                                      padax.ones([3, 2])),
                padax.masked_fill(a, a > 0, 0.0), padax.masked_scatter(a, a > 0, padax.arange(12, dtype="float32")),
                padax.select_scatter(a, padax.ones([3]), 1, 2),
                padax.slice_scatter(a, padax.ones([3, 2]), [1], [0], [4], [2]),
                padax.diagonal_scatter(a, padax.ones([3]), 0))
    rows = np.arange(3)[:, None]
    r_put = A.copy()
    np.put_along_axis(r_put, ind, 7.0, 1)
    r_add = A.copy()
    np.add.at(r_add, (rows, ind), 1.0)
    r_noself = A.copy()
    r_noself[rows, ind] = 0
    np.add.at(r_noself, (rows, ind), 1.0)
    r_mul = A.copy()
    np.multiply.at(r_mul, (rows, ind), 2.0)
    r_max = A.copy()
    np.maximum.at(r_max, (rows, ind), 0.0)
    tot, cnt = A.copy(), np.ones_like(A)
    np.add.at(tot, (rows, ind), 3.0)
    np.add.at(cnt, (rows, ind), 1.0)
    r_ip = A.copy()
    r_ip[[0, 2], [1, 1]] = 5
    r_ipa = A.copy()
    r_ipa[0, 1] += 10
    r_if = A.copy()
    r_if[:, [0, 2]] = -1
    r_ia = A.copy()
    r_ia[:, 0] += 2
    r_ms = A.copy()
    r_ms[A > 0] = np.arange((A > 0).sum())
    r_ss, r_sl, r_ds = A.copy(), A.copy(), A.copy()
    r_ss[:, 2] = 1
    r_sl[:, 0:4:2] = 1
    np.fill_diagonal(r_ds, 1)
    refs = [[[3, 3], [4, 4], [1, 1]], [[3, 3], [6, 6], [1, 1]], [[1, 1], [2, 2], [0, 0]], [[0, 10, 0], [0, 20, 0]],
            r_put, r_add, r_noself, r_mul, r_max, tot / cnt, r_ip, r_ipa, r_if, r_ia, np.where(A > 0, 0, A), r_ms,
            r_ss, r_sl, r_ds]
    for outs in _eager_and_jit(fn, X, padax.to_tensor(A), padax.to_tensor(ind)):
        for k, (o, r) in enumerate(zip(outs, refs)):
            assert o.dtype == np.float32
            np.testing.assert_allclose(np.asarray(o), np.asarray(r, np.float32), rtol=1e-6, err_msg=str(k))
    with pytest.raises(ValueError, match=r"scatter: updates f32\[2,3\] must have shape \[2, 2\]"):
        padax.scatter(X, padax.to_tensor([0, 1]), padax.ones([2, 3]))
    with pytest.raises(ValueError, match="put_along_axis: reduce must be one of"):
        padax.put_along_axis(X, padax.to_tensor([[0]]), 1.0, 0, reduce="max")
    with pytest.raises(TypeError, match=r"masked_fill: mask must be a bool Tensor, got f32\[3,2\]"):
        padax.masked_fill(X, X, 0.0)


def test_gather_scatter_grads_and_vmap():
    from padax.test_util import check_grads
    ind = padax.to_tensor(RNG.integers(0, 4, (3, 2)))
    check_grads(padax.jit(lambda u: padax.take_along_axis(u, ind, 1)), (A,), 1)
    check_grads(padax.jit(lambda u, v: padax.put_along_axis(u, ind, v, 1, reduce="add")), (A, A[:, :2]), 1)
    check_grads(padax.jit(lambda u: padax.roll(u, [1, 2], [0, 1]) * padax.rot90(u, 2)), (A,), 1)
    check_grads(padax.jit(lambda u: padax.pad(u[None], [1, 2], mode="reflect") + 1.0), (A,), 1)
    check_grads(padax.jit(lambda u, v: padax.scatter(u, padax.to_tensor([2, 0]), v)), (A, A[:2]), 1)
    check_grads(padax.jit(lambda u: padax.gather_nd(u, padax.to_tensor([[1, 2], [0, 0]])) * padax.diagonal(u)[:2]),
                (A,), 1)
    out = padax.vmap(lambda u, i: padax.take_along_axis(u, i, 0))(padax.to_tensor(A), ind)
    assert_close(out, np.take_along_axis(A, np.asarray(ind), 1))
    out = padax.vmap(lambda u: padax.roll(u, 1))(padax.to_tensor(A))
    assert_close(out, np.roll(A, 1, 1))
    out = padax.vmap(lambda u: padax.gather(u, padax.to_tensor([3, 0])))(padax.to_tensor(A))
    assert_close(out, A[:, [3, 0]])


def test_tensor_methods():
    x = padax.to_tensor(A)
    i = padax.to_tensor([[0, 2], [1, 1], [3, 0]])
    checks = [
        (x.take_along_axis(i, 1), padax.take_along_axis(x, i, 1)), (x.roll(1, 0), padax.roll(x, 1, 0)),
        (x.median(1), padax.median(x, 1)), (x.quantile(0.3), padax.quantile(x, 0.3)), (x.std(), padax.std(x)),
        (x.cummax(1)[0], padax.cummax(x, 1)[0]), (x.gather(padax.to_tensor([1])), padax.gather(x, [1])),
        (x.diagonal(), padax.diagonal(x)), (x.tril(), padax.tril(x)), (x.kron(x), padax.kron(x, x)),
        (x.masked_fill(x > 0, 1.0), padax.masked_fill(x, x > 0, 1.0)), (x.nansum(0), padax.nansum(x, 0)),
        (x.logcumsumexp(1), padax.logcumsumexp(x, 1)), (x.unique(), padax.unique(x)), (x.frac(), padax.frac(x)),
        (x.trace(), padax.trace(x)), (x.nonzero(), padax.nonzero(x)), (x.rot90(), padax.rot90(x)),
    ]
    for got, want in checks:
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    f = padax.jit(lambda u: (u.put_along_axis(i, 0.0, 1), u.index_select(padax.to_tensor([1]), 1), u.mode(0)[0],
                             u.kthvalue(2)[0], u.isclose(u), u.var(1, keepdim=True)))
    outs = f(x)
    assert [o.shape for o in outs] == [(3, 4), (3, 1), (4,), (3,), (3, 4), (3, 1)]
