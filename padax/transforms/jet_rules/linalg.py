"""Taylor rules of the linear-algebra, collective and random-bit primitives.

cholesky and triangular_solve have explicit recurrences (from L L^H = A and
op(A) X = B); the decompositions whose jvps are long derivations (lu, qr, eigh, svd,
eig) use the jvp-derived rule of `_common`. Collectives are linear, pmax/pmin locally
linear.
"""
from __future__ import annotations

from padax.functional.lax import linalg as LA, parallel as P, random_bits as RB, resharding as PX, saved as SV
from padax.transforms.jet import def_no_taylor, def_taylor
from padax.transforms.jet_rules._common import (
    from_jvp_rule,
    linear_rule,
    locally_linear_rule,
    normalize,
    tadd,
    tsub,
    zero_rule,
)


def _cholesky(primals, series):
    """L_0 L_k^H + L_k L_0^H = A_k - sum_{j=1..k-1} L_j L_{k-j}^H: the jvp's formula with that
    right-hand side (it reads the lower triangle and mirrors it)."""
    (a,), (as_,) = primals, series
    K = len(as_)
    L = LA.cholesky_p.bind(a)
    ls = [L] + [None] * K
    for k in range(1, K + 1):
        cross = None
        for j in range(1, k):
            if ls[j] is not None and ls[k - j] is not None:
                cross = tadd(cross, LA._mm(ls[j], LA._H(ls[k - j])))
        rhs = tsub(as_[k - 1], cross)
        if rhs is None:
            continue
        _, ls[k] = LA._cholesky_jvp([a], [rhs])
    return L, normalize(ls[1:])


def _triangular_solve(primals, series, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal):
    """op(A) X = B: X_k = op(A_0)^{-1} (B_k - sum_{j=1..k} op(A_j) X_{k-j}) (mirrored on the right)."""
    a, b = primals
    as_, bs = series
    K = len(as_)
    params = dict(left_side=left_side, lower=lower, transpose_a=transpose_a, conjugate_a=conjugate_a,
                  unit_diagonal=unit_diagonal)
    x0 = LA.triangular_solve_p.bind(a, b, **params)
    xs = [x0] + [None] * K
    diag = 1 if unit_diagonal else 0
    read = [None] + [None if t is None else LA._op_a(LA._tril(t, -diag) if lower else LA._triu(t, diag),
                                                     transpose_a, conjugate_a) for t in as_]
    for k in range(1, K + 1):
        rhs = bs[k - 1]
        for j in range(1, k + 1):
            if read[j] is None or xs[k - j] is None:
                continue
            rhs = tsub(rhs, LA._mm(read[j], xs[k - j]) if left_side else LA._mm(xs[k - j], read[j]))
        if rhs is not None:
            xs[k] = LA.triangular_solve_p.bind(a, rhs, **params)
    return x0, normalize(xs[1:])


def_taylor(LA.cholesky_p, _cholesky)
def_taylor(LA.triangular_solve_p, _triangular_solve)
for _p in (LA.lu_p, LA.qr_p, LA.eigh_p, LA.svd_p, LA.eig_p):
    def_taylor(_p, from_jvp_rule(_p))
def_taylor(LA.lu_pivots_to_permutation_p, zero_rule(LA.lu_pivots_to_permutation_p))

for _p in (P.psum_p, P.ppermute_p, P.all_gather_p, PX.psum_scatter_p, PX.all_to_all_p, PX.sharding_constraint_p):
    def_taylor(_p, linear_rule(_p))
for _p in (P.pmax_p, P.pmin_p):
    def_taylor(_p, locally_linear_rule(_p))

def_taylor(RB.rng_bit_generator_p, zero_rule(RB.rng_bit_generator_p))
def_no_taylor(SV.saved_program_p, "a program loaded by padax.jit.load is a forward computation only (it has no "
                                  "derivatives); take the jet of the original Python function instead")

