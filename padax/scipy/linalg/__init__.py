"""`padax.scipy.linalg`: scipy.linalg's names and signatures on padax.linalg's
factorizations: the decompositions (`_decompositions`: cholesky, eigh, lu, qr, svd, schur,
hessenberg, polar, eigh_tridiagonal, ...), matrix functions (`_matfuncs`: expm, expm_frechet,
sqrtm, logm, funm, fractional_matrix_power), solvers (`_solvers`: lu/cho factor and solve,
solve_triangular, solve_sylvester) and the special matrices (`_special`). The matrix
functions are differentiable through closed-form derivatives (sqrtm's solves a Sylvester
equation, logm's inverts expm's Frechet derivative) rather than through their iterations."""
from __future__ import annotations

# only the ones whose padax.linalg signature is scipy's too
from padax.linalg import det, inv, solve
from padax.scipy.linalg._decompositions import (cholesky, eigh, eigh_tridiagonal, hessenberg, lu, polar, qr,
                                                qr_multiply, rsf2csf, schur, svd)
from padax.scipy.linalg._matfuncs import expm, expm_frechet, fractional_matrix_power, funm, logm, sqrtm
from padax.scipy.linalg._solvers import cho_factor, cho_solve, lu_factor, lu_solve, solve_sylvester, solve_triangular
from padax.scipy.linalg._special import (block_diag, circulant, companion, convolution_matrix, dft, fiedler,
                                         fiedler_companion, hadamard, hankel, helmert, hilbert, invhilbert, invpascal,
                                         leslie, pascal, toeplitz)

__all__ = ["cholesky", "eigh", "hessenberg", "lu", "qr", "qr_multiply", "rsf2csf", "schur", "svd",
           "fractional_matrix_power", "funm", "logm", "companion", "convolution_matrix", "dft", "fiedler",
           "fiedler_companion", "hadamard", "hankel", "helmert", "hilbert", "invhilbert", "invpascal", "leslie",
           "pascal", "expm", "expm_frechet", "sqrtm", "solve_sylvester", "polar", "lu_factor", "lu_solve", "cho_factor",
           "cho_solve", "solve_triangular", "block_diag", "toeplitz", "circulant", "eigh_tridiagonal", "inv", "det",
           "solve"]
