"""padax.scipy.linalg's decompositions, matrix functions and special matrices against scipy."""
import numpy as np
import pytest
import scipy.linalg as sl

import padax
import padax.numpy as pnp
import padax.scipy.linalg as L
from padax.test_util import check_grads

RNG = np.random.default_rng(7)
F64 = RNG.standard_normal((5, 5))
C128 = RNG.standard_normal((4, 4)) + 1j * RNG.standard_normal((4, 4))
SPD = F64 @ F64.T + 5 * np.eye(5)


def close(a, b, tol=1e-10):
    np.testing.assert_allclose(np.asarray(a), b, rtol=tol, atol=tol)


@pytest.mark.parametrize("a", [F64, F64.astype(np.float32), C128], ids=["f64", "f32", "c128"])
@pytest.mark.parametrize("output", ["real", "complex"])
def test_schur_equals_scipy(a, output):
    t, z = L.schur(a, output=output)
    T, Z = sl.schur(a, output=output)
    tol = 1e-4 if a.dtype == np.float32 else 1e-10
    close(t, T, tol)
    close(z, Z, tol)
    assert np.asarray(t).dtype == T.dtype


def test_schur_batched_and_vmapped():
    a = RNG.standard_normal((3, 4, 4))
    t, z = L.schur(a)
    for i in range(3):
        close(t[i], sl.schur(a[i])[0])
    tv, _ = padax.vmap(L.schur)(a)
    close(tv, np.asarray(t))


def test_schur_sort_refused():
    with pytest.raises(ValueError, match="sort"):
        L.schur(F64, sort="lhp")


def test_rsf2csf_equals_scipy():
    T, Z = sl.schur(F64)
    t, z = L.rsf2csf(T, Z)
    T2, Z2 = sl.rsf2csf(T, Z)
    close(t, T2)
    close(z, Z2)


@pytest.mark.parametrize("a", [F64, C128], ids=["f64", "c128"])
def test_hessenberg_equals_scipy(a):
    h, q = L.hessenberg(a, calc_q=True)
    H, Q = sl.hessenberg(a, calc_q=True)
    close(h, H)
    close(q, Q)
    close(L.hessenberg(a), H)


def test_cholesky_lu_svd_like_scipy():
    close(L.cholesky(SPD), sl.cholesky(SPD))
    close(L.cholesky(SPD, lower=True), sl.cholesky(SPD, lower=True))
    for kw in [{}, {"permute_l": True}, {"p_indices": True}]:
        for got, want in zip(L.lu(F64[:, :4], **kw), sl.lu(F64[:, :4], **kw)):
            close(got, want)
    u, s, vh = L.svd(F64[:, :3])
    U, S, VH = sl.svd(F64[:, :3])
    assert u.shape == U.shape and vh.shape == VH.shape
    close(s, S)
    close(np.asarray(u)[:, :3] * np.asarray(s) @ np.asarray(vh), F64[:, :3])
    close(L.svd(F64, compute_uv=False), sl.svd(F64, compute_uv=False))


@pytest.mark.parametrize("mode", ["full", "economic", "r"])
@pytest.mark.parametrize("pivoting", [False, True])
def test_qr_like_scipy(mode, pivoting):
    a = F64[:, :3]
    got = L.qr(a, mode=mode, pivoting=pivoting)
    want = sl.qr(a, mode=mode, pivoting=pivoting)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        close(np.abs(np.asarray(g)), np.abs(w))   # column signs may differ


def test_qr_multiply_like_scipy():
    a = F64[:, :3]
    c = RNG.standard_normal((3, 2))
    qc, r = L.qr_multiply(a, c, mode="left")
    QC, R = sl.qr_multiply(a, c, mode="left")
    q, _ = L.qr(a, mode="economic")
    close(np.abs(np.asarray(r)), np.abs(R))
    close(qc, np.asarray(q) @ c)                          # Q's column signs are LAPACK's, as scipy's
    close(np.abs(np.asarray(qc)), np.abs(QC))
    d = RNG.standard_normal((2, 5))
    dq, _ = L.qr_multiply(a, d, mode="right")
    close(dq, d @ np.asarray(q))


@pytest.mark.parametrize("type_", [1, 2, 3])
def test_generalized_eigh(type_):
    b = SPD
    a = F64 + F64.T
    w, v = L.eigh(a, b, type=type_)
    W, V = sl.eigh(a, b, type=type_)
    close(w, W, 1e-9)
    close(np.abs(np.asarray(v)), np.abs(V), 1e-8)
    w2 = L.eigh(a, subset_by_index=(1, 3), eigvals_only=True)
    close(w2, sl.eigh(a, subset_by_index=(1, 3), eigvals_only=True))


@pytest.mark.parametrize("a", [F64 + 4 * np.eye(5), 0.3 * F64 + np.eye(5), C128,
                               np.diag([1e3, 1e-3, 2.0]) + 10 * np.triu(F64[:3, :3], 1)],
                         ids=["shifted", "near-identity", "complex", "graded"])
def test_logm_equals_scipy(a):
    want = sl.logm(a)
    got = L.logm(a)
    close(got, want, 1e-10 * np.abs(want).max())
    close(sl.expm(np.asarray(got)), a, 1e-9 * np.abs(a).max())


def test_logm_negative_eigenvalue():
    a = np.diag([-1.0, 2.0])
    assert np.isnan(np.asarray(L.logm(a))).all()        # no real logarithm
    close(L.logm(a.astype(complex)), sl.logm(a))         # the complex one, as scipy returns
    f, err = L.logm(a.astype(complex), disp=False)
    assert float(err) < 1e-12


def test_logm_and_fractional_power_gradients():
    b = 0.3 * F64[:3, :3] + 2 * np.eye(3)
    check_grads(L.logm, (b,), order=1, modes=("fwd", "rev"))
    check_grads(lambda x: L.fractional_matrix_power(x, 0.5), (b,), order=1, modes=("fwd", "rev"))


@pytest.mark.parametrize("t", [0.5, -0.3, 2.0, -1.0])
def test_fractional_matrix_power_equals_scipy(t):
    a = SPD / 5
    close(L.fractional_matrix_power(a, t), sl.fractional_matrix_power(a, t), 1e-9)


@pytest.mark.parametrize("fn", [(pnp.exp, np.exp), (pnp.sin, np.sin), (pnp.sqrt, np.sqrt)], ids=["exp", "sin", "sqrt"])
def test_funm_equals_scipy(fn):
    a = SPD / 5
    close(L.funm(a, fn[0]), sl.funm(a, fn[1]), 1e-9)
    f, err = L.funm(a, fn[0], disp=False)
    assert 0 < float(err) < 1e-10


def test_matrix_exp_reverse_mode_and_second_order():
    from padax.linalg import matrix_exp
    check_grads(matrix_exp, (F64[:3, :3],), order=2, modes=("fwd", "rev"))
    for scale in (0.1, 3.0, 50.0):
        a = scale * F64
        close(matrix_exp(a), sl.expm(a), 1e-11 * np.abs(sl.expm(a)).max())


SPECIAL = [
    ("companion", ([1.0, -2.0, 3.0, 4.0],)),
    ("convolution_matrix", ([1.0, 2.0, 3.0], 5)),
    ("fiedler", ([1.0, 4.0, 12.0, 45.0],)),
    ("fiedler_companion", ([1.0, -2.0, 3.0, 4.0, 5.0],)),
    ("hadamard", (8,)),
    ("hankel", ([1.0, 2.0, 3.0], [9.0, 8.0, 7.0, 6.0])),
    ("hankel", ([1.0, 2.0, 3.0],)),
    ("helmert", (5,)),
    ("hilbert", (4,)),
    ("invhilbert", (4,)),
    ("pascal", (5,)),
    ("invpascal", (5,)),
    ("leslie", ([0.1, 2.0, 1.0, 0.1], [0.2, 0.8, 0.7])),
    ("dft", (4,)),
]


@pytest.mark.parametrize("name,args", SPECIAL, ids=[f"{n}-{i}" for i, (n, _) in enumerate(SPECIAL)])
def test_special_matrices_equal_scipy(name, args):
    got = np.asarray(getattr(L, name)(*args))
    want = getattr(sl, name)(*args)
    np.testing.assert_allclose(got, want.astype(got.dtype), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("n", [2, 5])
def test_convolution_matrix_modes(mode, n):
    a = np.array([1.0, 2.0, 3.0, 4.0])
    close(L.convolution_matrix(a, n, mode), sl.convolution_matrix(a, n, mode))


def test_special_matrix_kinds_and_exact():
    for kind in ("lower", "upper"):
        close(L.pascal(6, kind), sl.pascal(6, kind))
        close(L.invpascal(6, kind), sl.invpascal(6, kind))
    close(L.helmert(4, full=True), sl.helmert(4, full=True), 1e-6)   # default float dtype: float32
    assert np.asarray(L.invhilbert(5, exact=True)).dtype == np.int64
    close(L.invhilbert(5, exact=True), sl.invhilbert(5, exact=True))
    close(L.dft(6, scale="sqrtn"), sl.dft(6, scale="sqrtn"), 1e-6)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="square"):
        L.schur(np.ones((2, 3)))
    with pytest.raises(ValueError, match="power of 2"):
        L.hadamard(6)
    with pytest.raises(ValueError, match="subset_by_value"):
        L.eigh(SPD, subset_by_value=(0, 1))
    with pytest.raises(ValueError, match="len\\(s\\)"):
        L.leslie([1.0, 2.0], [1.0, 2.0])
