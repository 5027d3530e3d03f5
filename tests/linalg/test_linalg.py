"""padax.linalg values against numpy/scipy: float32, float64 (x64), complex64/128, batched
inputs, eagerly and under padax.jit; failure conventions (NaN, infos); argument errors.

Compilation dominates the cost, so each test computes many functions in one jitted
program per dtype rather than one program per function.
"""
from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla

import padax
import padax.linalg as LA
from padax.functional.lax import linalg as L
from padax.test_util import check_grads

RTOL = {np.float32: 2e-4, np.float64: 1e-10, np.complex64: 3e-4, np.complex128: 1e-10}


def _rand(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _well_conditioned(rng, shape, dtype):
    n = shape[-1]
    return (_rand(rng, shape, dtype) + n * np.eye(n)).astype(dtype)


def _hpd(rng, shape, dtype):
    a = _rand(rng, shape, dtype)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def _close(got, want, dtype, scale=1.0):
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    r = RTOL[np.dtype(dtype).type] * scale
    np.testing.assert_allclose(got, want, rtol=r, atol=r * max(1.0, float(np.abs(want).max(initial=0))))


def _dtype_ctx(dtype):
    """64-bit types need x64 (otherwise padax narrows them to 32 bits)."""
    return padax.enable_x64(np.dtype(dtype) in (np.float64, np.complex128))


DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_factorizations_jit(dtype):
    """cholesky, qr (3 modes), svd, eigh (L/U), lu + lu_unpack, eig on a batch, jitted."""
    rng = np.random.default_rng(0)
    a = _rand(rng, (2, 4, 3), dtype)           # tall batch
    w = _rand(rng, (3, 5), dtype)               # wide
    h = _hpd(rng, (2, 4, 4), dtype)
    g = _well_conditioned(rng, (2, 4, 4), dtype)

    def f(a, w, h, g):
        out = {}
        out["chol"] = LA.cholesky(h)
        out["chol_u"] = LA.cholesky(h, upper=True)
        out["qr"] = LA.qr(a)
        out["qr_c"] = LA.qr(a, mode="complete")
        out["qr_w"] = LA.qr(w)
        out["qr_r"] = LA.qr(a, mode="r")
        out["svd"] = LA.svd(a)
        out["svd_full"] = LA.svd(w, full_matrices=True)
        out["svdvals"] = LA.svdvals(w)
        out["eigh"] = LA.eigh(h)
        out["eigvalsh_u"] = LA.eigvalsh(h, UPLO="U")
        out["lu"] = LA.lu(a, get_infos=True)
        out["lu_unpack"] = LA.lu_unpack(*LA.lu(w))
        out["lu_unpack_tall"] = LA.lu_unpack(*LA.lu(a))
        out["eig"] = LA.eig(g)
        out["eigvals"] = LA.eigvals(g)
        return out

    with _dtype_ctx(dtype):
        o = padax.jit(f)(a, w, h, g)
    hl = np.tril(h) + np.conj(np.swapaxes(np.tril(h, -1), -1, -2))  # what "reads the lower triangle" means
    _close(o["chol"], np.linalg.cholesky(hl), dtype)
    _close(o["chol_u"], np.conj(np.swapaxes(np.linalg.cholesky(hl), -1, -2)), dtype)
    for key, x, mode in (("qr", a, "reduced"), ("qr_c", a, "complete"), ("qr_w", w, "reduced")):
        q, r = (np.asarray(t) for t in o[key])
        qn, rn = np.linalg.qr(x, mode=mode)
        assert q.shape == qn.shape and r.shape == rn.shape
        _close(q @ r, x, dtype, 10)
        _close(np.abs(r), np.abs(rn), dtype, 10)
        np.testing.assert_array_equal(np.tril(r, -1), 0)
        k = q.shape[-1]
        _close(np.conj(np.swapaxes(q, -1, -2)) @ q, np.broadcast_to(np.eye(k), q.shape[:-2] + (k, k)), dtype, 10)
    _close(np.abs(o["qr_r"]), np.abs(np.linalg.qr(a, mode="r")), dtype, 10)
    u, s, vh = (np.asarray(t) for t in o["svd"])
    assert u.shape == (2, 4, 3) and s.shape == (2, 3) and vh.shape == (2, 3, 3) and s.dtype.kind == "f"
    _close(s, np.linalg.svd(a, compute_uv=False), dtype, 10)
    _close((u * s[..., None, :].astype(dtype)) @ vh, a, dtype, 10)
    u, s, vh = (np.asarray(t) for t in o["svd_full"])
    assert u.shape == (3, 3) and vh.shape == (5, 5)
    _close(np.conj(vh.T) @ vh, np.eye(5), dtype, 10)
    _close(o["svdvals"], np.linalg.svd(w, compute_uv=False), dtype, 10)
    ev, v = (np.asarray(t) for t in o["eigh"])
    _close(ev, np.linalg.eigvalsh(hl), dtype, 10)
    _close(hl @ v, v * ev[..., None, :].astype(dtype), dtype, 30)
    hu = np.triu(h) + np.conj(np.swapaxes(np.triu(h, 1), -1, -2))
    _close(o["eigvalsh_u"], np.linalg.eigvalsh(hu), dtype, 10)
    lu, piv, infos = (np.asarray(t) for t in o["lu"])
    assert piv.dtype == np.int32 and infos.dtype == np.int32
    np.testing.assert_array_equal(infos, 0)
    for i in range(2):
        lu_s, piv_s = sla.lu_factor(a[i])
        _close(lu[i], lu_s, dtype, 10)
        np.testing.assert_array_equal(piv[i], piv_s + 1)  # Paddle's pivots are 1-based
    p, l, uu = (np.asarray(t) for t in o["lu_unpack"])
    assert p.shape == (3, 3) and l.shape == (3, 3) and uu.shape == (3, 5)
    _close(p @ l @ uu, w, dtype, 10)
    p, l, uu = (np.asarray(t) for t in o["lu_unpack_tall"])
    assert p.shape == (2, 4, 4) and l.shape == (2, 4, 3) and uu.shape == (2, 3, 3)
    np.testing.assert_array_equal(np.triu(l, 1), 0)
    _close(p @ l @ uu, a, dtype, 10)
    ew, evec = (np.asarray(t) for t in o["eig"])
    assert ew.dtype.kind == "c" and evec.dtype.kind == "c"
    _close(g.astype(evec.dtype) @ evec, evec * ew[..., None, :], dtype, 30)
    for i in range(2):
        _close(np.sort_complex(np.asarray(o["eigvals"])[i]), np.sort_complex(np.linalg.eigvals(g[i])), dtype, 30)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_solvers_and_determinants_jit(dtype):
    """solve (matrix/vector/right, broadcast batch), inv, det, slogdet, triangular and Cholesky
    solves, pinv (+hermitian), lstsq, matrix_rank, matrix_power, jitted."""
    rng = np.random.default_rng(1)
    g = _well_conditioned(rng, (2, 3, 3), dtype)
    b = _rand(rng, (3, 2), dtype)
    bb = _rand(rng, (2, 3), dtype)
    h = _hpd(rng, (3, 3), dtype)
    tall = _rand(rng, (5, 3), dtype)
    y = _rand(rng, (5, 2), dtype)

    def f(g, b, bb, h, tall, y):
        o = {}
        o["solve"] = LA.solve(g, b)                  # batch of x, one right-hand side
        o["solve_vec"] = LA.solve(g, bb)             # (2, 3) is a batch of vectors for x (2, 3, 3)
        o["solve_right"] = LA.solve(g, LA.matrix_transpose(b), left=False)
        o["inv"] = LA.inv(g)
        o["det"] = LA.det(g)
        o["slogdet"] = LA.slogdet(g)
        o["tri"] = LA.triangular_solve(g, b)
        o["tri_lt"] = LA.triangular_solve(g, b, upper=False, transpose=True)
        o["tri_unit"] = LA.triangular_solve(g, b, upper=False, unitriangular=True)
        c = LA.cholesky(h)
        o["chol_solve"] = LA.cholesky_solve(b, c)
        o["chol_solve_u"] = LA.cholesky_solve(b, LA.cholesky(h, upper=True), upper=True)
        o["chol_inv"] = LA.cholesky_inverse(c)
        o["pinv"] = LA.pinv(tall)
        o["pinv_h"] = LA.pinv(h, hermitian=True)
        o["lstsq"] = LA.lstsq(tall, y, driver="gelsd")
        o["lstsq_wide"] = LA.lstsq(LA.matrix_transpose(tall), b, driver="gelsd")
        o["lstsq_gelsy"] = LA.lstsq(tall, y)  # Paddle's default driver: no residuals or singular values
        o["rank"] = LA.matrix_rank(tall)
        o["rank_h"] = LA.matrix_rank(h, hermitian=True)
        o["pow3"] = LA.matrix_power(g, 3)
        o["pow_2"] = LA.matrix_power(g, -2)
        o["pow0"] = LA.matrix_power(g, 0)
        return o

    with _dtype_ctx(dtype):
        o = padax.jit(f)(g, b, bb, h, tall, y)
    _close(o["solve"], np.linalg.solve(g, b), dtype, 10)
    _close(o["solve_vec"], np.linalg.solve(g, bb[..., None])[..., 0], dtype, 10)
    _close(o["solve_right"], b.T @ np.linalg.inv(g), dtype, 10)
    _close(o["inv"], np.linalg.inv(g), dtype, 10)
    _close(o["det"], np.linalg.det(g), dtype, 10)
    sign, logabs = np.linalg.slogdet(g)
    sl = np.asarray(o["slogdet"])
    assert sl.shape == (2, 2)  # Paddle's stacked layout: [sign, logabsdet]
    _close(sl[0], sign, dtype, 10)
    _close(sl[1], logabs, dtype, 10)
    _close(o["tri"], np.linalg.solve(np.triu(g), b), dtype, 10)
    _close(o["tri_lt"], np.linalg.solve(np.swapaxes(np.tril(g), -1, -2), b), dtype, 10)
    _close(o["tri_unit"], np.linalg.solve(np.tril(g, -1) + np.eye(3), b), dtype, 10)
    _close(o["chol_solve"], np.linalg.solve(h, b), dtype, 10)
    _close(o["chol_solve_u"], np.linalg.solve(h, b), dtype, 10)
    _close(o["chol_inv"], np.linalg.inv(h), dtype, 10)
    _close(o["pinv"], np.linalg.pinv(tall), dtype, 10)
    _close(o["pinv_h"], np.linalg.pinv(h), dtype, 10)
    sol, res, rank, sv = o["lstsq"]
    ns, nres, nrank, nsv = np.linalg.lstsq(tall, y, rcond=None)
    _close(sol, ns, dtype, 10)
    _close(res, nres, dtype, 30)
    assert int(rank) == nrank and np.asarray(rank).dtype == np.int32
    _close(sv, nsv, dtype, 10)
    sol, res, rank, sv = o["lstsq_wide"]
    _close(sol, np.linalg.lstsq(tall.T, b, rcond=None)[0], dtype, 10)
    assert np.asarray(res).shape == (0,) and int(rank) == 3
    sol, res, rank, sv = o["lstsq_gelsy"]
    _close(sol, ns, dtype, 10)
    assert np.asarray(res).shape == (0,) and np.asarray(sv).shape == (0,) and int(rank) == nrank
    assert int(o["rank"]) == 3 and int(o["rank_h"]) == 3
    _close(o["pow3"], np.linalg.matrix_power(g, 3), dtype, 10)
    _close(o["pow_2"], np.linalg.matrix_power(g, -2), dtype, 30)
    _close(o["pow0"], np.broadcast_to(np.eye(3), g.shape), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64], ids=lambda d: np.dtype(d).name)
def test_norms_cond_stats_jit(dtype):
    """norm / vector_norm / matrix_norm over every order and axis form, cond, multi_dot,
    cov (weights, rowvar, ddof) and corrcoef, jitted."""
    rng = np.random.default_rng(2)
    x = _rand(rng, (2, 3, 4), dtype)
    sq = _well_conditioned(rng, (3, 3), dtype)
    mats = [_rand(rng, s, dtype) for s in [(4,), (4, 6), (6, 2), (2, 3)]]
    obs = _rand(rng, (3, 6), dtype)
    fw, aw = np.array([1, 2, 1, 3, 1, 1]), rng.random(6)
    mats_orders = ["fro", "nuc", np.inf, -np.inf, 1, -1, 2, -2]
    vec_orders = [2, 1, np.inf, -np.inf, 0, 3, 0.5]

    def f(x, sq, m0, m1, m2, m3, obs):
        o = {}
        for p in mats_orders:
            o[f"m{p}"] = LA.matrix_norm(x, p)
            o[f"n{p}"] = LA.norm(x, p, axis=[0, 2])
        o["m2_keep"] = LA.matrix_norm(x, 2, axis=[0, 2], keepdim=True)
        for p in vec_orders:
            o[f"v{p}"] = LA.vector_norm(x, p, axis=1)
        o["v_all"] = LA.vector_norm(x, 2, axis=None, keepdim=True)
        o["norm_none"] = LA.norm(x)
        o["norm_axis"] = LA.norm(x, 1, axis=-1)
        for p in [None, 2, -2, "fro", "nuc", np.inf, -np.inf, 1, -1]:
            o[f"c{p}"] = LA.cond(sq, p)
        o["multi"] = LA.multi_dot([m0, m1, m2, m3])
        o["cov"] = LA.cov(obs)
        o["cov_t"] = LA.cov(LA.matrix_transpose(obs), rowvar=False, ddof=False)
        o["cov_w"] = LA.cov(obs, fweights=fw, aweights=aw)
        o["cov_1d"] = LA.cov(obs[0])
        o["corr"] = LA.corrcoef(obs)
        return o

    with _dtype_ctx(dtype):
        o = padax.jit(f)(x, sq, *mats, obs)
    for p in mats_orders:
        _close(o[f"m{p}"], np.linalg.norm(x, p, axis=(-2, -1)), dtype, 10)
        _close(o[f"n{p}"], np.linalg.norm(x, p, axis=(0, 2)), dtype, 10)
    _close(o["m2_keep"], np.linalg.norm(x, 2, axis=(0, 2), keepdims=True), dtype, 10)
    for p in vec_orders:
        _close(o[f"v{p}"], np.linalg.norm(x, p, axis=1), dtype, 10)
        assert np.asarray(o[f"v{p}"]).dtype.kind == "f"
    _close(o["v_all"], np.linalg.norm(x.ravel()).reshape(1, 1, 1), dtype)
    _close(o["norm_none"], np.linalg.norm(x.ravel()), dtype)
    _close(o["norm_axis"], np.linalg.norm(x, 1, axis=-1), dtype)
    for p in [None, 2, -2, "fro", "nuc", np.inf, -np.inf, 1, -1]:
        _close(o[f"c{p}"], np.linalg.cond(sq, p), dtype, 30)
    _close(o["multi"], np.linalg.multi_dot(mats), dtype, 10)
    _close(o["cov"], np.cov(obs), dtype, 10)
    _close(o["cov_t"], np.cov(obs.T, rowvar=False, ddof=0), dtype, 10)
    _close(o["cov_w"], np.cov(obs, fweights=fw, aweights=aw), dtype, 10)
    _close(o["cov_1d"], np.cov(obs[0]), dtype, 10)
    _close(o["corr"], np.corrcoef(obs), dtype, 10)


def test_eager_matches_numpy():
    """The same functions run op by op (no jit), float32."""
    rng = np.random.default_rng(3)
    g = _well_conditioned(rng, (2, 3, 3), np.float32)
    h = _hpd(rng, (3, 3), np.float32)
    b = _rand(rng, (3, 2), np.float32)
    _close(LA.solve(g, b), np.linalg.solve(g, b), np.float32, 10)
    _close(LA.det(g), np.linalg.det(g), np.float32, 10)
    _close(LA.inv(g), np.linalg.inv(g), np.float32, 10)
    _close(LA.cholesky(h), np.linalg.cholesky(h), np.float32)
    _close(LA.eigvalsh(h), np.linalg.eigvalsh(h), np.float32, 10)
    _close(LA.svdvals(g), np.linalg.svd(g, compute_uv=False), np.float32, 10)
    _close(LA.norm(g, "nuc", axis=[1, 2]), np.linalg.norm(g, "nuc", axis=(1, 2)), np.float32, 10)
    q, r = LA.qr(g)
    _close(np.asarray(q) @ np.asarray(r), g, np.float32, 10)


def test_lax_triangular_solve_all_modes(x64):
    """Every flag combination of the primitive, complex128 (conjugation matters)."""
    rng = np.random.default_rng(4)
    a = _well_conditioned(rng, (2, 3, 3), np.complex128)
    bl = _rand(rng, (2, 3, 2), np.complex128)
    br = _rand(rng, (2, 2, 3), np.complex128)
    cases = [(left, lower, trans, conj, unit) for left in (True, False) for lower in (True, False)
             for trans, conj in ((False, False), (True, False), (True, True), (False, True)) for unit in (False, True)]

    def f(a, bl, br):
        return [L.triangular_solve(a, bl if c[0] else br, left_side=c[0], lower=c[1], transpose_a=c[2],
                                   conjugate_a=c[3], unit_diagonal=c[4]) for c in cases]

    outs = padax.jit(f)(a, bl, br)
    for (left, lower, trans, conj, unit), x in zip(cases, outs):
        t = np.tril(a) if lower else np.triu(a)
        if unit:
            t = t * (1 - np.eye(3)) + np.eye(3)
        if trans:
            t = np.swapaxes(t, -1, -2)
        if conj:
            t = np.conj(t)
        want = np.linalg.solve(t, bl) if left else np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2),
                                                                               np.swapaxes(br, -1, -2)), -1, -2)
        _close(x, want, np.complex128, 10)


def test_lu_pivots_to_permutation():
    """The while-loop lowering against a Python loop, batched, with repeated swaps."""
    rng = np.random.default_rng(5)
    piv = np.stack([rng.integers(i, 6, size=(2, 3)) for i in range(4)], -1).astype(np.int32)  # (2, 3, 4)
    got = np.asarray(padax.jit(lambda p: L.lu_pivots_to_permutation(p, 6))(piv))
    for idx in np.ndindex(2, 3):
        perm = list(range(6))
        for i, j in enumerate(piv[idx]):
            perm[i], perm[j] = perm[j], perm[i]
        np.testing.assert_array_equal(got[idx], perm)


# ---- failure conventions -------------------------------------------------------------------

def test_cholesky_not_positive_definite_gives_nan():
    """Like jax: no exception inside a program; only the failing matrix of a batch is NaN."""
    good = np.array([[4.0, 2.0], [2.0, 3.0]], np.float32)
    bad = np.array([[1.0, 2.0], [2.0, 1.0]], np.float32)
    for fn in (LA.cholesky, padax.jit(LA.cholesky)):
        out = np.asarray(fn(np.stack([good, bad])))
        np.testing.assert_allclose(out[0], np.linalg.cholesky(good), rtol=1e-6)
        assert np.isnan(out[1]).all()


def test_singular_matrices():
    """lu of a singular matrix is valid (Infos says where U has a zero); det 0; slogdet
    (0, -inf); solve gives non-finite values rather than raising."""
    s = np.array([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 1.0]], [[2.0, 0.0], [0.0, 3.0]]], np.float32)

    def f(s):
        return LA.lu(s, get_infos=True), LA.det(s), LA.slogdet(s), LA.solve(s, np.ones((3, 2, 1), np.float32))

    (lu, piv, infos), det, sl, sol = padax.jit(f)(s)
    np.testing.assert_array_equal(np.asarray(infos), [2, 1, 0])
    np.testing.assert_allclose(np.asarray(det), [0.0, 0.0, 6.0], atol=1e-6)
    sl = np.asarray(sl)
    np.testing.assert_array_equal(sl[0], [0.0, 0.0, 1.0])
    assert sl[1][0] == -np.inf and sl[1][1] == -np.inf
    np.testing.assert_allclose(sl[1][2], np.log(6.0), rtol=1e-6)
    sol = np.asarray(sol)
    assert not np.isfinite(sol[0]).all() and not np.isfinite(sol[1]).all() and np.isfinite(sol[2]).all()


# ---- argument errors -----------------------------------------------------------------------

@pytest.mark.parametrize("fn,args,err,words", [
    (LA.cholesky, (np.ones((3, 4), np.float32),), ValueError, ["linalg.cholesky", "x", "square", "f32[3,4]"]),
    (LA.cholesky, (np.eye(3, dtype=np.int32),), TypeError, ["linalg.cholesky", "x", "i32[3,3]"]),
    (LA.inv, (np.ones((2, 3, 4), np.float32),), ValueError, ["linalg.inv", "square", "f32[2,3,4]"]),
    (LA.det, (np.ones((3,), np.float32),), ValueError, ["linalg.det", "f32[3]"]),
    (LA.eigh, (np.ones((3, 3), np.int64),), TypeError, ["linalg.eigh", "i64[3,3]"]),
    (LA.eigvals, (np.ones((2, 3), np.float32),), ValueError, ["linalg.eigvals", "square"]),
    (LA.svd, (np.ones((3, 3), np.int32),), TypeError, ["linalg.svd", "i32[3,3]"]),
    (LA.solve, (np.eye(3, dtype=np.float32), np.ones((4, 2), np.float32)), ValueError,
     ["linalg.solve", "3 rows", "f32[4,2]"]),
    (LA.solve, (np.eye(3, dtype=np.float32), np.ones((3, 2), np.int32)), TypeError, ["linalg.solve", "y", "i32[3,2]"]),
    (LA.triangular_solve, (np.eye(3, dtype=np.float32), np.ones((2, 2), np.float32)), ValueError,
     ["linalg.triangular_solve", "rows"]),
    (LA.qr, (np.ones((3, 3), np.float32), "full"), ValueError, ["linalg.qr", "mode"]),
    (LA.eigh, (np.eye(3, dtype=np.float32), "X"), ValueError, ["UPLO"]),
    (LA.matrix_norm, (np.ones((3, 3), np.float32), 3), ValueError, ["linalg.matrix_norm", "p"]),
    (LA.lstsq, (np.ones((3, 2), np.float32), np.ones((3, 1), np.float32), None, "gelsx"), ValueError, ["driver"]),
    (L.cholesky, (np.ones((2, 3), np.float32),), ValueError, ["cholesky", "square", "f32[2,3]"]),
    (L.triangular_solve, (np.eye(3, dtype=np.float32), np.ones((3, 2), np.int32)), TypeError,
     ["triangular_solve", "b", "i32[3,2]"]),
])
def test_errors(fn, args, err, words):
    with pytest.raises(err) as e:
        fn(*args)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_full_matrices_svd_of_non_square_differentiates_its_complement():
    """U's extra columns (VH's extra rows) of a non-square full_matrices SVD get the derivative
    that keeps their basis from rotating within the complement: exact for their projector."""
    for shape in ((4, 2), (2, 4)):
        x = np.random.default_rng(0).standard_normal(shape)

        def projectors(a, k=min(shape)):
            u, s, vh = LA.svd(a, full_matrices=True)
            u2, v2 = u[:, k:], vh[k:, :]
            return u2 @ u2.T, v2.T @ v2, s
        check_grads(projectors, (x,), order=1)


def test_lowering_uses_lapack_custom_calls(x64):
    """The decompositions are typed-FFI LAPACK calls (api_version 4) with column-major layouts."""
    text = padax.jit(lambda x: (LA.cholesky(x), LA.eigh(x)[0])).lower(np.eye(3)).as_text()
    assert "lapack_dpotrf_ffi" in text and "lapack_dsyevd_ffi" in text
    assert "api_version = 4" in text and "dense<[0, 1]>" in text
