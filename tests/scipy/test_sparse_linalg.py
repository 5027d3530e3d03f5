"""padax.scipy.sparse.linalg (cg, bicgstab, gmres) against numpy's dense solve; matrix-free
operators on pytrees, preconditioners, implicit derivatives."""
import numpy as np
import pytest

import padax
import padax.numpy as pnp
from padax.scipy.sparse import linalg as psl

RNG = np.random.default_rng(11)
N = 12
Q = RNG.standard_normal((N, N))
SPD = Q @ Q.T + N * np.eye(N)
GEN = SPD + 3 * RNG.standard_normal((N, N))
B = RNG.standard_normal(N)


@pytest.mark.parametrize("solver,A", [("cg", SPD), ("bicgstab", GEN), ("gmres", GEN)])
def test_krylov_solvers_match_dense_solve(solver, A):
    fn = getattr(psl, solver)
    x, info = padax.jit(lambda A, b: fn(A, b, tol=1e-12))(A, B)
    assert info is None
    np.testing.assert_allclose(np.asarray(x), np.linalg.solve(A, B), rtol=1e-8)
    # matrix-free, preconditioned with the inverse diagonal (Jacobi)
    dinv = 1.0 / np.diag(A)
    x2, _ = fn(lambda v: pnp.asarray(A) @ v, B, tol=1e-12, M=lambda v: dinv * v)
    np.testing.assert_allclose(np.asarray(x2), np.linalg.solve(A, B), rtol=1e-8)
    # derivatives come from a custom linear-solve rule: d/db and d/dA of sum(x)
    g_b, g_A = padax.grad(lambda b, A: fn(A, b, tol=1e-12)[0].sum(), argnums=(0, 1))(B, A)
    w = np.linalg.solve(A.T, np.ones(N))
    np.testing.assert_allclose(np.asarray(g_b), w, rtol=1e-7)
    np.testing.assert_allclose(np.asarray(g_A), -np.outer(w, np.linalg.solve(A, B)), rtol=1e-6, atol=1e-10)


def test_cg_on_pytrees_and_linear_operator():
    A1, A2 = SPD[:6, :6], SPD[6:, 6:]
    op = psl.LinearOperator((N, N), lambda t: {"u": pnp.asarray(A1) @ t["u"], "v": pnp.asarray(A2) @ t["v"]})
    x, _ = psl.cg(op, {"u": B[:6], "v": B[6:]}, tol=1e-12)
    np.testing.assert_allclose(np.asarray(x["u"]), np.linalg.solve(A1, B[:6]), rtol=1e-8)
    np.testing.assert_allclose(np.asarray(x["v"]), np.linalg.solve(A2, B[6:]), rtol=1e-8)
    xs = padax.vmap(lambda b: psl.gmres(GEN, b, tol=1e-12)[0])(np.stack([B, 2 * B]))
    np.testing.assert_allclose(np.asarray(xs)[1], 2 * np.linalg.solve(GEN, B), rtol=1e-7)
    with pytest.raises(ValueError, match="2-D"):
        psl.cg(np.ones(3), np.ones(3))
