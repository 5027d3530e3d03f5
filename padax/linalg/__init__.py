"""`padax.linalg`: Paddle's linear-algebra API (names and signatures of `paddle.linalg`).

Everything here is composed from the primitives in `padax.functional.lax.linalg`
(cholesky, triangular_solve, lu, qr, eigh, svd, eig) and ordinary lax ops, so
jit, vmap and grad work through every function. Inputs are float32/float64/complex64/complex128 (batches of)
matrices in the trailing two axes; integer inputs are refused with a TypeError
naming the function and argument, as Paddle does (cov/corrcoef cast them).

Behaviour to know about:
- Failures do not raise inside compiled code: a Cholesky factorisation of a
  matrix that is not positive definite, or an eigen/singular-value solver that
  does not converge, returns NaN for that matrix (as jax does). `solve`/`inv`/
  `det` of an exactly singular matrix give inf/NaN entries and det 0.
- Hermitian routines (cholesky, eigh, eigvalsh, and pinv/matrix_rank with
  hermitian=True) read one triangle only (`cholesky`: the lower; `eigh`: `UPLO`),
  as LAPACK and Paddle do, and differentiate as Paddle does: the input stands for
  a Hermitian matrix, so its gradient is the Hermitian one, (G + G^H) / 2 of the
  full-matrix formula, spread over both triangles (`_as_hermitian`).
  (padax.numpy.linalg and padax.lax follow jax: they symmetrize the input first.)
- `slogdet` returns Paddle's stacked layout: one Tensor of shape (2, *batch)
  holding sign then log|det| (complex inputs: both as complex). Paddle's newer
  `paddle.compat.slogdet` tuple form is `(out[0], out[1])`.
- `lstsq` always solves through the SVD (the 'gelsd' result, whatever `driver`
  says), returns rank and singular values for every driver, and returns
  residuals (squared column norms of x @ solution - y) whenever M > N,
  also for rank-deficient inputs (Paddle then returns an empty Tensor: a shape
  that would depend on data, which a traced program cannot have); for M <= N
  residuals is empty, shape (*, 0).
- `lu` pivots are 1-based int32 like Paddle's. `lu(x, pivot=False)` (which Paddle
  has on GPU only) is computed on every backend by Doolittle elimination without
  row exchanges; its Pivots are then the identity sequence 1..K (no swaps), so
  `lu_unpack` gives P = I. It needs nonsingular leading principal minors (a zero
  pivot gives inf/NaN in the rest of the factor).
- `eig`/`eigvals` run on the CPU (LAPACK geev); results are complex. They are
  differentiable where the eigenvalues are distinct. Eigenvectors are only fixed
  up to a complex scale; their derivative is that of geev's choice (unit norm,
  largest entry real), so differentiate gauge-invariant quantities where you can.
- Derivatives of `qr(x, mode='complete')` for tall x include the extra columns of
  Q (those of LAPACK's Householder product). For `svd(x, full_matrices=True)` of a
  non-square x, the extra columns of U (rows of VH) only span a complement; their
  derivative keeps that basis from rotating within it, exact for anything that
  depends on their span (Paddle drops their cotangent; jax raises).
- `cholesky_inverse(x)` is inv(x @ x^H) (x^H @ x if `upper`) as in Paddle, so the
  gradient reaches both triangles of x.
- Where Paddle's own derivative is wrong (complex slogdet, matrix_power, pinv,
  SVD/eig vectors; triangular_solve with unitriangular lower x; lstsq, which
  Paddle does not differentiate) padax gives the true derivative (which jax's
  agrees with).
"""
from __future__ import annotations

from padax.linalg._decompositions import cholesky, eig, eigh, eigvals, eigvalsh, lu, lu_unpack, qr, svd, svdvals
from padax.linalg._determinants import det, slogdet
from padax.linalg._householder import householder_product, ormqr
from padax.linalg._lowrank import pca_lowrank, svd_lowrank
from padax.linalg._matrix_exp import matrix_exp
from padax.linalg._norms import cond, matrix_norm, matrix_rank, norm, vector_norm
from padax.linalg._products import cross, diagonal, matmul, matrix_power, matrix_transpose, multi_dot, vecdot
from padax.linalg._solve import cholesky_inverse, cholesky_solve, inv, lstsq, lu_solve, pinv, solve, triangular_solve
from padax.linalg._statistics import corrcoef, cov

__all__ = ["cholesky", "cholesky_inverse", "cholesky_solve", "cond", "corrcoef", "cov", "det", "eig", "eigh",
           "eigvals", "eigvalsh", "inv", "lstsq", "lu", "lu_unpack", "matrix_norm", "matrix_power",
           "matrix_rank", "matrix_transpose", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "svd", "svdvals",
           "triangular_solve", "vector_norm"]
# more of paddle.linalg (vecdot, lu_solve, householder_product, ormqr, matrix_exp, svd/pca_lowrank, ...)
__all__ += ["vecdot", "lu_solve", "householder_product", "ormqr", "matrix_exp", "svd_lowrank", "pca_lowrank",
            "matmul", "cross", "diagonal"]
