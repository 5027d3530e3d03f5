"""padax.scipy.linalg against scipy.linalg; derivatives (expm's Frechet derivative, sqrtm by
its Sylvester rule) against finite differences."""
import numpy as np
import pytest
import scipy.linalg as sl

import padax
from padax.scipy import linalg as pl
from padax.test_util import check_grads

RNG = np.random.default_rng(2)
N = 4
A = RNG.standard_normal((N, N))
SPD = A @ A.T + N * np.eye(N)
B = RNG.standard_normal((N, 2))


def test_expm_and_frechet():
    E = RNG.standard_normal((N, N))
    np.testing.assert_allclose(np.asarray(pl.expm(A)), sl.expm(A), rtol=1e-12)
    val, L = pl.expm_frechet(A, E)
    rv, rL = sl.expm_frechet(A, E)
    np.testing.assert_allclose(np.asarray(val), rv, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(L), rL, rtol=1e-10)


def test_sqrtm_value_and_sylvester_derivative():
    X = pl.sqrtm(SPD)
    np.testing.assert_allclose(np.asarray(X), sl.sqrtm(SPD).real, rtol=1e-10)
    G = SPD + 0.5 * A                                     # non-symmetric, eigenvalues in the right half-plane
    np.testing.assert_allclose(np.asarray(pl.sqrtm(G)), sl.sqrtm(G).real, rtol=1e-9)
    check_grads(pl.sqrtm, (G,), order=1, modes=("fwd", "rev"))


def test_solve_sylvester_and_polar():
    b = RNG.standard_normal((3, 3)) + 5 * np.eye(3)
    q = RNG.standard_normal((N, 3))
    np.testing.assert_allclose(np.asarray(pl.solve_sylvester(SPD, b, q)), sl.solve_sylvester(SPD, b, q),
                               rtol=1e-10)
    for side in ("right", "left"):
        u, p = pl.polar(A, side)
        ru, rp = sl.polar(A, side)
        np.testing.assert_allclose(np.asarray(u), ru, atol=1e-12)
        np.testing.assert_allclose(np.asarray(p), rp, atol=1e-12)


def test_factorizations_and_solves():
    lu, piv = pl.lu_factor(A)
    rlu, rpiv = sl.lu_factor(A)
    np.testing.assert_allclose(np.asarray(lu), rlu, rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(piv), rpiv)
    for trans in (0, 1):
        np.testing.assert_allclose(np.asarray(pl.lu_solve((lu, piv), B, trans=trans)),
                                   sl.lu_solve((rlu, rpiv), B, trans=trans), rtol=1e-10)
    for lower in (False, True):
        c = pl.cho_factor(SPD, lower=lower)
        np.testing.assert_allclose(np.asarray(pl.cho_solve(c, B[:, 0])), np.linalg.solve(SPD, B[:, 0]),
                                   rtol=1e-10)
    T = np.triu(A) + 3 * np.eye(N)
    np.testing.assert_allclose(np.asarray(pl.solve_triangular(T, B, trans=1)), sl.solve_triangular(T, B, trans=1),
                               rtol=1e-10)
    check_grads(lambda a, b: pl.cho_solve(pl.cho_factor(a @ a.T + 4 * np.eye(N)), b), (A, B), order=1)


def test_structured_matrices():
    np.testing.assert_allclose(np.asarray(pl.block_diag(np.ones((2, 2)), [[5.0]], np.arange(3.0))),
                               sl.block_diag(np.ones((2, 2)), [[5.0]], np.arange(3.0)))
    c, r = np.array([1.0, 2.0, 3.0]), np.array([1.0, 7.0, 8.0, 9.0])
    np.testing.assert_allclose(np.asarray(pl.toeplitz(c, r)), sl.toeplitz(c, r))
    np.testing.assert_allclose(np.asarray(pl.toeplitz(c)), sl.toeplitz(c))
    np.testing.assert_allclose(np.asarray(pl.circulant(c)), sl.circulant(c))
    d, e = RNG.standard_normal(5), RNG.standard_normal(4)
    np.testing.assert_allclose(np.asarray(pl.eigh_tridiagonal(d, e, eigvals_only=True)),
                               sl.eigh_tridiagonal(d, e, eigvals_only=True), rtol=1e-12)
    with pytest.raises(ValueError, match="square"):
        pl.expm(np.ones((2, 3)))


@pytest.mark.parametrize("trans", [0, 1, 2])
def test_lu_solve_every_trans_matches_scipy_on_a_complex_matrix(trans):
    import scipy.linalg as sl
    a = np.array([[4.0, 2.0 + 1j], [1j, 3.0]])
    b = np.array([8.0 + 0j, 7.0 - 2j])
    got = padax.scipy.linalg.lu_solve(padax.scipy.linalg.lu_factor(padax.to_tensor(a)), padax.to_tensor(b), trans=trans)
    np.testing.assert_allclose(np.asarray(got), sl.lu_solve(sl.lu_factor(a), b, trans=trans), rtol=1e-12)
