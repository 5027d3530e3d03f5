"""padax.numpy's index tricks, insert/delete/put/place, vectorize & co., bit packing, printing and file helpers
(padax/numpy/_index_tricks.py, _insert_delete.py, _selection.py, _function_helpers.py, _bits.py, _printing.py,
_npyio.py, ...) against jax.numpy (x64) and NumPy on small inputs."""
from __future__ import annotations

import io
import os
import tempfile

import numpy as np
import pytest

import padax
import padax.numpy as pnp

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
jnp = jax.numpy

A = np.arange(12.0).reshape(3, 4) - 5.0
S = np.arange(9.0).reshape(3, 3)
V = np.array([3.0, -1.0, 2.0])
I3 = np.array([2, 0, 1])
M = np.array([True, False, True, True])


def _pair(m):
    return lambda f: f(m)


# (name, f(namespace)) -- the same call on padax.numpy and on the oracle: NumPy where it has the same function
# and semantics (it answers instantly), jax.numpy for jax's functional forms (inplace=False, size=)
JAX_ORACLE = {"mask_indices_size", "fill_diagonal", "fill_diagonal_wide", "fill_diagonal_3d", "compress_size", "extract_size", "place",
              "put", "put_wrap", "put_along_axis", "put_along_none"}
CASES = [
    ("mgrid", lambda m: m.mgrid[0:2, 1:4]),
    ("mgrid_float", lambda m: m.mgrid[0:1:5j, 0:2]),
    ("mgrid_1d", lambda m: m.mgrid[1:7:2]),
    ("ogrid", lambda m: m.ogrid[0:2, 0:3:0.5]),
    ("r_", lambda m: m.r_[m.array([1.0, 2.0]), 0:3, 7]),
    ("r_directive", lambda m: m.r_["0,2", m.array([1, 2]), m.array([3, 4])]),
    ("r_axis1", lambda m: m.r_["1", m.array(A), m.array(A)]),
    ("r_trans", lambda m: m.r_["0,2,0", m.array([1, 2, 3]), m.array([[4], [5], [6]])]),
    ("c_", lambda m: m.c_[m.array([1, 2, 3]), m.array([4, 5, 6])]),
    ("c_2d", lambda m: m.c_[m.array(A), m.array(A[:, :1])]),
    ("ix_", lambda m: m.array(A)[m.ix_(m.array([0, 2]), m.array([3, 0, 1]))]),
    ("insert_scalar", lambda m: m.insert(m.array(A), 1, 9.0)),
    ("insert_axis", lambda m: m.insert(m.array(A), 2, m.array([7.0, 8.0, 9.0]), axis=1)),
    ("insert_seq", lambda m: m.insert(m.array(A), np.array([0, 2, 2]), -1.0, axis=1)),
    ("insert_seq_axis0", lambda m: m.insert(m.array(A), np.array([1, 3]), m.array([[1.0], [2.0]]), axis=0)),
    ("insert_slice", lambda m: m.insert(m.array(V), slice(0, 3, 2), 0.0)),
    ("delete", lambda m: m.delete(m.array(A), np.array([0, 2]))),
    ("delete_axis", lambda m: m.delete(m.array(A), 1, axis=1)),
    ("delete_slice", lambda m: m.delete(m.array(A), slice(None, None, 2), axis=1)),
    ("delete_mask", lambda m: m.delete(m.array(A), m.array(M), axis=1)),
    ("block", lambda m: m.block([[m.array(S), m.array(S[:, :1])], [m.array(S[:1]), m.array(1.0).reshape(1, 1)]])),
    ("block_1d", lambda m: m.block([m.array(V), 1.0, m.array(V)])),
    ("fill_diagonal", lambda m: m.fill_diagonal(m.array(S), m.array([1.0, 2.0, 3.0]), inplace=False)),
    ("fill_diagonal_wide", lambda m: m.fill_diagonal(m.array(A), 5.0, inplace=False)),
    ("fill_diagonal_3d", lambda m: m.fill_diagonal(m.zeros((2, 2, 2)), 4.0, inplace=False)),
    ("diag_indices_from", lambda m: m.diag_indices_from(m.zeros((3, 3, 3)))),
    ("tril_indices_from", lambda m: m.tril_indices_from(m.array(A), k=1)),
    ("triu_indices_from", lambda m: m.triu_indices_from(m.array(A), k=-1)),
    ("mask_indices", lambda m: m.mask_indices(3, m.triu, 1)),
    ("mask_indices_size", lambda m: m.mask_indices(3, m.tril, -1, size=4)),
    ("compress", lambda m: m.compress(m.array([True, False, True]), m.array(A), axis=0)),
    ("compress_short", lambda m: m.compress(m.array([False, True]), m.array(A), axis=1)),
    ("compress_size", lambda m: m.compress(m.array([True, False, True]), m.array(A), axis=0, size=3,
                                           fill_value=-7)),
    ("extract", lambda m: m.extract(m.array(A) > 0, m.array(A))),
    ("extract_size", lambda m: m.extract(m.array(A) > 3, m.array(A), size=10, fill_value=1.5)),
    ("choose", lambda m: m.choose(m.array([[0, 1, 2, 1]] * 3), [m.array(A), m.array(-A), m.array(2 * A)])),
    ("choose_wrap", lambda m: m.choose(m.array([4, -1, 2]), [m.array(V), 10.0, m.array(V) * 3], mode="wrap")),
    ("piecewise", lambda m: m.piecewise(m.array(V), [m.array(V) < 0, m.array(V) > 2.5],
                                        [lambda x: -x, lambda x: x * 2, 0.5])),
    ("piecewise_overlap", lambda m: m.piecewise(m.array(V), [m.array(V) > -2, m.array(V) > 1],
                                                [1.0, lambda x: x ** 2])),
    ("piecewise_int", lambda m: m.piecewise(m.array([1, -2, 3]), [m.array([1, -2, 3]) > 0], [lambda x: x * 3])),
    ("piecewise_flat_list", lambda m: m.piecewise(m.array(V), [True, False, True], [lambda x: x + 1, -1.0])),
    ("place", lambda m: m.place(m.array(A), m.array(A) > 1, m.array([-1.0, -2.0, -3.0]), inplace=False)),
    ("put", lambda m: m.put(m.array(A), m.array([1, 5, -2, 50, -13]), m.array([-1.0, -2.0, 3.0, 4.0]),
                            inplace=False)),
    ("put_wrap", lambda m: m.put(m.array(A), m.array([13, -1]), m.array([7.0, 8.0]), mode="wrap", inplace=False)),
    ("put_along_axis", lambda m: m.put_along_axis(m.array(A), m.array([[1], [0], [3]]), 99.0, axis=1, inplace=False)),
    ("put_along_none", lambda m: m.put_along_axis(m.array(A), m.array([0, 7]), -3.0, axis=None, inplace=False)),
    ("resize", lambda m: m.resize(m.array(V), (2, 4))),
    ("resize_empty", lambda m: m.resize(m.zeros((0,)), (2, 2))),
    ("rollaxis", lambda m: m.rollaxis(m.zeros((2, 3, 4, 5)), 3, 1)),
    ("rollaxis_start", lambda m: m.rollaxis(m.zeros((2, 3, 4, 5)), 1, 4)),
    ("matvec", lambda m: m.matvec(m.array(A.reshape(1, 3, 4)), m.array(np.ones((2, 1, 4))))),
    ("vecmat", lambda m: m.vecmat(m.array([1 + 2j, 3j, 1.0]), m.array(A[:, :3] + 1j))),
    ("apply_along_axis", lambda m: m.apply_along_axis(lambda v: v[::-1] * v[0], 1, m.array(A))),
    ("apply_along_axis_2d", lambda m: m.apply_along_axis(lambda v: m.outer(v, v), 0, m.array(A))),
    ("apply_over_axes", lambda m: m.apply_over_axes(m.sum, m.array(A.reshape(3, 2, 2)), [0, 2])),
    ("vectorize", lambda m: m.vectorize(lambda a, b: a * b + 1)(m.array(V), m.array([[1.0], [2.0]]))),
    ("vectorize_sig", lambda m: m.vectorize(m.dot, signature="(n),(n)->()")(m.array(A), m.ones(4))),
    ("vectorize_sig_out", lambda m: m.vectorize(lambda x: m.sort(x)[::-1], signature="(n)->(n)")(m.array(A))),
    ("vectorize_excluded", lambda m: m.vectorize(lambda x, p: x ** p, excluded={1})(m.array(V), 2)),
    ("fromfunction", lambda m: m.fromfunction(lambda i, j: i * 10 + j, (2, 3), dtype=m.int64)),
    ("fromfunction_float", lambda m: m.fromfunction(lambda i, j: m.sin(i) + j, (3, 2))),
    ("packbits", lambda m: m.packbits(m.array([[1, 0, 1], [0, 1, 1]]), axis=1)),
    ("packbits_flat", lambda m: m.packbits(m.array([True, False] * 5), bitorder="little")),
    ("unpackbits", lambda m: m.unpackbits(m.array([[2, 7], [255, 16]], dtype=m.uint8), axis=1)),
    ("unpackbits_count", lambda m: m.unpackbits(m.array([200, 3], dtype=m.uint8), count=11, bitorder="little")),
]


def _as_np(x):
    if isinstance(x, (tuple, list)):
        return [_as_np(e) for e in x]
    return np.asarray(x)


def _compare(got, want):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want)
        for g, w in zip(got, want):
            _compare(g, w)
        return
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape, (g.shape, w.shape)
    assert g.dtype.kind == w.dtype.kind, (g.dtype, w.dtype)
    if w.dtype.kind in "fc":
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)
    else:
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("name,fn", CASES, ids=[c[0] for c in CASES])
def test_matches_oracle(name, fn):
    _compare(fn(pnp), jax.jit(lambda: fn(jnp))() if name in JAX_ORACLE else fn(np))


def test_index_expressions_and_numpy_results():
    assert pnp.s_[1:3, ::2] == np.s_[1:3, ::2] and pnp.index_exp[2] == np.index_exp[2]
    _compare(pnp.r_[0:1:3j, pnp.array([5.0])], np.r_[0:1:3j, [5.0]])
    _compare(pnp.fill_diagonal(pnp.zeros((7, 3)), pnp.array([1.0, 2.0]), wrap=True, inplace=False),
             _np_fill(np.zeros((7, 3)), [1.0, 2.0], True))
    _compare(pnp.matvec(np.ones((2, 3, 4)), np.arange(4.0)), np.matvec(np.ones((2, 3, 4)), np.arange(4.0)))
    _compare(pnp.array(A)[pnp.ix_(pnp.array([True, False, True]), [1, 3])], A[np.ix_([True, False, True], [1, 3])])
    _compare(pnp.insert(pnp.array([0, 0, 0]), [1], pnp.array([5, 6])), np.insert([0, 0, 0], [1], [5, 6]))
    assert pnp.einsum_path("ij,jk,kl->il", pnp.ones((2, 3)), pnp.ones((3, 4)), pnp.ones((4, 5)))[0] == \
        np.einsum_path("ij,jk,kl->il", np.ones((2, 3)), np.ones((3, 4)), np.ones((4, 5)))[0]
    x = pnp.array([1.25, -3.0])
    assert pnp.array_repr(x) == np.array_repr(np.asarray(x)) and pnp.array_str(x) == np.array_str(np.asarray(x))
    assert [pnp.iterable(v) for v in (x, pnp.array(1.0), [1], 2.0)] == [True, False, True, False]
    assert pnp.ComplexWarning is np.exceptions.ComplexWarning
    assert pnp.frombuffer(np.array([1.5, 2.5]).tobytes()).dtype == np.float64
    _compare(pnp.frombuffer(b"\x01\x00\x02\x00", dtype=np.int16, offset=2), np.array([2], np.int16))
    _compare(pnp.fromstring("1, 2, 3", dtype=np.float32, sep=","), np.array([1, 2, 3], np.float32))
    _compare(pnp.fromiter(iter(range(3)), dtype=np.int32, count=2), np.array([0, 1], np.int32))


def _np_fill(a, val, wrap):
    np.fill_diagonal(a, val, wrap=wrap)
    return a


def test_printoptions_round_trip():
    before = pnp.get_printoptions()
    try:
        pnp.set_printoptions(precision=2, threshold=5)
        assert pnp.get_printoptions()["precision"] == 2 and np.get_printoptions()["threshold"] == 5
        assert "1.23" in repr(pnp.array([1.23456])) and "1.235" not in repr(pnp.array([1.23456]))
    finally:
        pnp.set_printoptions(precision=before["precision"], threshold=before["threshold"])
    assert pnp.get_printoptions() == before


def test_save_load_savez_round_trip():
    import ml_dtypes
    with tempfile.TemporaryDirectory() as d:
        x = pnp.array([[1.5, -2.0]], dtype=pnp.float64)
        pnp.save(os.path.join(d, "x"), x)
        assert os.listdir(d) == ["x.npy"]
        np.testing.assert_array_equal(np.load(os.path.join(d, "x.npy")), np.asarray(x))
        y = pnp.load(os.path.join(d, "x.npy"))
        assert isinstance(y, padax.Tensor) and y.dtype == np.float64 and y.tolist() == [[1.5, -2.0]]
        b = pnp.array([1.0, 2.5], dtype=pnp.bfloat16)
        pnp.savez(os.path.join(d, "z.npz"), b, ints=np.arange(3, dtype=np.int8))
        z = pnp.load(os.path.join(d, "z.npz"))
        assert sorted(z) == ["arr_0", "ints"]
        assert z["arr_0"].dtype == ml_dtypes.bfloat16 and z["arr_0"].tolist() == [1.0, 2.5]
        assert z["ints"].dtype == np.int8 and z["ints"].tolist() == [0, 1, 2]
        buf = io.BytesIO()
        pnp.save(buf, pnp.arange(3))
        buf.seek(0)
        assert pnp.load(buf).tolist() == [0, 1, 2]
        np.save(os.path.join(d, "obj.npy"), np.array([{"a": 1}], dtype=object), allow_pickle=True)
        with pytest.raises(ValueError):
            pnp.load(os.path.join(d, "obj.npy"))
        with pytest.raises(ValueError, match="pickle"):
            pnp.load(os.path.join(d, "x.npy"), allow_pickle=True)


def test_errors_are_clear():
    x = pnp.zeros((3, 3))
    for call in (lambda: pnp.fill_diagonal(x, 1.0), lambda: pnp.place(x, x > 0, 1.0),
                 lambda: pnp.put(x, 0, 1.0), lambda: pnp.put_along_axis(x, pnp.zeros((3, 1), pnp.int64), 1.0, 1)):
        with pytest.raises(ValueError, match="inplace=False"):
            call()
    with pytest.raises(ValueError, match="choose"):
        pnp.choose(pnp.array([0, 3]), [pnp.zeros(2), pnp.ones(2)])
    with pytest.raises(ValueError, match="delete"):
        pnp.delete(pnp.arange(3), 5)
    with pytest.raises(ValueError, match="compress"):
        pnp.compress(pnp.array([False, False, False, True]), pnp.arange(3))
    with pytest.raises(ValueError, match="r_"):
        pnp.r_["r", [1, 2]]
    with pytest.raises(TypeError, match="unpackbits"):
        pnp.unpackbits(pnp.array([1, 2]))
    with pytest.raises(ValueError, match="block"):
        pnp.block([[pnp.ones(2)], pnp.ones(2)])


def test_traced_forms_under_jit():
    f = padax.jit(lambda a, m: (pnp.place(a, m, pnp.array([7.0, 8.0]), inplace=False),
                                pnp.compress(m, a, size=2, fill_value=-1.0),
                                pnp.choose(pnp.array([2, 0, 1]) + 0 * m.astype(pnp.int64), [a, -a, 2 * a],
                                           mode="clip")))
    a, m = np.array([1.0, 2.0, 3.0]), np.array([False, True, True])
    got = f(a, m)
    want = (jnp.place(a, m, jnp.array([7.0, 8.0]), inplace=False), jnp.compress(m, a, size=2, fill_value=-1.0),
            jnp.choose(jnp.array([2, 0, 1]), [a, -a, 2 * a], mode="clip"))
    _compare(list(got), list(want))
    x = np.arange(6.0).reshape(2, 3)
    _compare(padax.vmap(lambda r: pnp.insert(r, 1, r[0] * 10))(x), np.array([[0.0, 0.0, 1.0, 2.0], [3.0, 30.0, 4.0, 5.0]]))
    _compare(padax.vmap(lambda r: pnp.packbits(r > 2))(x), np.array([[0], [224]], np.uint8))


GRADS = [
    ("insert", lambda m, x: m.sum(m.insert(x, 1, x[:, 0] * 2.0, axis=1) ** 2)),
    ("delete", lambda m, x: m.sum(m.delete(x, np.array([0, 2]), axis=1) ** 3)),
    ("block", lambda m, x: m.sum(m.block([[x, x[:, :1] * 3.0]]) ** 2)),
    ("fill_diagonal", lambda m, x: m.sum(m.fill_diagonal(x, x[0, 1] * 2.0, inplace=False) ** 2)),
    ("piecewise", lambda m, x: m.sum(m.piecewise(x, [x < 0, x > 2], [lambda v: v ** 2, m.sin, 1.0]))),
    ("put_along_axis", lambda m, x: m.sum(m.put_along_axis(x, m.array([[1], [0], [3]]), x[:, :1] ** 2, axis=1,
                                                           inplace=False) ** 2)),
    ("vectorize", lambda m, x: m.sum(m.vectorize(lambda v: m.dot(v, v), signature="(n)->()")(x))),
    ("apply_along_axis", lambda m, x: m.sum(m.apply_along_axis(lambda v: v * v[0], 0, x))),
    ("resize_compress", lambda m, x: m.sum(m.resize(x, (5, 3))
                                           * m.compress(np.array([1, 0, 1]), x[:, 0], size=2).sum())),
]


@pytest.mark.parametrize("name,fn", GRADS, ids=[g[0] for g in GRADS])
def test_gradients_match_jax(name, fn):
    x = np.arange(12.0).reshape(3, 4) / 3.0 - 1.7
    got = padax.jit(padax.grad(lambda v: fn(pnp, v)))(x)
    want = jax.jit(jax.grad(lambda v: fn(jnp, v)))(x)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-10, atol=1e-12)
