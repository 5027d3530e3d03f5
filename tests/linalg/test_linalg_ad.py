"""Derivatives and vmap of padax.linalg.

check_grads (order 1, forward and reverse, float64) against finite differences, for the
primitives' rules through the composites. Functions are jitted so each case compiles a
few whole programs instead of every op separately (jvp/vjp of a jitted function still
uses every primitive's jvp and transpose rule). Eigenvectors and singular vectors are
only defined up to sign (phase), so they are checked through gauge-invariant functions.
The Hermitian routines (cholesky, eigh) differentiate along Hermitian tangents only, so they
are checked through `_sym(x)` = (x + x^H) / 2, whose tangents are Hermitian.
"""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.linalg as LA
from padax.functional.lax import linalg as L
from padax.test_util import check_grads

_rng = np.random.default_rng(7)


def _r(*shape):
    return _rng.standard_normal(shape)


def _wc(n, batch=()):
    return _r(*batch, n, n) + n * np.eye(n)


def _spd(n, batch=()):
    a = _r(*batch, n, n)
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def _sym(x):
    """(x + x^H) / 2 with padax ops (traced inputs too)."""
    return (x + padax.conj(padax.swapaxes(x, -1, -2))) / 2


def _eigh_gauge(x):
    w, v = LA.eigh(_sym(x))
    return w, v * v  # each eigenvector's sign cancels in its squared entries


def _svd_gauge(x):
    u, s, vh = LA.svd(x)
    # u diag(s) vh is the input; u @ vh and the squared entries are sign-invariant but depend
    # on the singular vectors themselves
    return s, u @ vh, u * u, vh * vh


SPD = _spd(3)
CASES = [
    ("cholesky", lambda x: LA.cholesky(_sym(x)), (SPD,)),
    ("cholesky_upper_batch", lambda x: LA.cholesky(_sym(x), upper=True), (_spd(3, (2,)),)),
    ("lax_cholesky_symmetrizes_its_input", L.cholesky, (SPD + np.triu(_r(3, 3), 1),)),
    ("lax_eigh_symmetrizes_its_input", lambda x: L.eigh(x)[0], (SPD + np.triu(_r(3, 3), 1),)),
    ("triangular_solve_upper", LA.triangular_solve, (_wc(3), _r(3, 2))),
    ("triangular_solve_lower_T_unit", lambda a, b: LA.triangular_solve(a, b, upper=False, transpose=True,
                                                                        unitriangular=True), (_r(3, 3), _r(3, 2))),
    ("triangular_solve_right", lambda a, b: L.triangular_solve(a, b, left_side=False, lower=True), (_wc(3), _r(2, 3))),
    ("solve", LA.solve, (_wc(3), _r(3, 2))),
    ("solve_vector_batch", LA.solve, (_wc(3, (2,)), _r(2, 3))),
    ("cholesky_solve", LA.cholesky_solve, (_r(3, 2), np.linalg.cholesky(SPD))),
    ("inv", LA.inv, (_wc(3, (2,)),)),
    ("det", LA.det, (_r(2, 3, 3),)),
    ("slogdet", LA.slogdet, (_r(2, 3, 3),)),
    ("lu_square", lambda x: LA.lu(x)[0], (_r(3, 3),)),
    ("lu_tall", lambda x: LA.lu(x)[0], (_r(4, 3),)),
    ("lu_wide", lambda x: LA.lu(x)[0], (_r(3, 4),)),
    ("qr_tall", LA.qr, (_r(4, 3),)),
    ("qr_wide", LA.qr, (_r(3, 4),)),
    ("qr_complete_wide_batch", lambda x: LA.qr(x, mode="complete"), (_r(2, 3, 4),)),
    ("eigvalsh", lambda x: LA.eigvalsh(_sym(x)), (SPD,)),
    ("eigvalsh_upper", lambda x: LA.eigvalsh(_sym(x), "U"), (SPD,)),
    ("pinv_hermitian", lambda x: LA.pinv(_sym(x), hermitian=True), (SPD,)),
    ("eigh_vectors_gauge", _eigh_gauge, (_spd(3, (2,)),)),
    ("svdvals", LA.svdvals, (_r(4, 3),)),
    ("svd_gauge_tall", _svd_gauge, (_r(4, 3),)),
    ("svd_gauge_wide", _svd_gauge, (_r(3, 4),)),
    ("pinv", LA.pinv, (_r(4, 3),)),
    ("lstsq", lambda x, y: LA.lstsq(x, y)[0], (_r(4, 3), _r(4, 2))),
    ("matrix_power_neg", lambda x: LA.matrix_power(x, -3), (_wc(3),)),
    ("norms", lambda x: (LA.norm(x, "nuc", axis=[0, 1]), LA.matrix_norm(x, 2), LA.norm(x), LA.cond(x)), (_r(3, 3),)),
    ("cov_corrcoef", lambda x: (LA.cov(x), LA.corrcoef(x)), (_r(3, 5),)),
]


@pytest.mark.parametrize("name,fn,args", CASES, ids=[c[0] for c in CASES])
def test_check_grads(name, fn, args, x64):
    check_grads(padax.jit(fn), args, order=1, modes=("fwd", "rev"))


def test_second_order(x64):
    """The rules are written with differentiable lax ops, so they differentiate again."""
    check_grads(padax.jit(lambda x: (LA.cholesky(_sym(x)), LA.eigvalsh(_sym(x)))), (SPD,), order=2,
                modes=("fwd", "rev"))


def _bilinear(a, b):
    return sum(float(np.sum(np.asarray(x) * np.asarray(y)).real) for x, y in
               zip(padax.tree.leaves(a), padax.tree.leaves(b)))


COMPLEX_CASES = [
    ("cholesky", lambda x: LA.cholesky(_sym(x)), lambda c: c @ c.conj().T + 3 * np.eye(3)),
    ("solve", lambda x: LA.solve(x, np.ones((3, 2), np.complex128)), lambda c: c + 3 * np.eye(3)),
    ("det", LA.det, lambda c: c),
    ("eigvalsh", lambda x: LA.eigvalsh(_sym(x)), lambda c: c @ c.conj().T + 3 * np.eye(3)),
    ("svdvals", LA.svdvals, lambda c: c),
    ("qr", LA.qr, lambda c: c),
]


@pytest.mark.parametrize("name,fn,make", COMPLEX_CASES, ids=[c[0] for c in COMPLEX_CASES])
def test_complex_derivatives(name, fn, make, x64):
    """complex128: jvp against finite differences; vjp against jvp through the pairing
    Re sum(a * b) that padax's (JAX-style, unconjugated) transposes satisfy."""
    rng = np.random.default_rng(11)
    x = make(rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3)))
    f = padax.jit(fn)
    check_grads(f, (x,), order=1, modes=("fwd",))
    t = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    out, jt = padax.jvp(f, (x,), (t,))

    def rand_like(o):
        o = np.asarray(o)
        v = rng.standard_normal(o.shape)
        return (v + 1j * rng.standard_normal(o.shape) if o.dtype.kind == "c" else v).astype(o.dtype)
    ct = padax.tree.map(rand_like, out)
    g, = padax.vjp(f, x)[1](ct)
    np.testing.assert_allclose(_bilinear(ct, jt), _bilinear(g, t), rtol=1e-8)


def test_grad_formulas(x64):
    """Closed forms: d log|det A| = A^{-T}; d tr(A^{-1}) = -(A^{-2})^T; sum of squared
    eigenvalues = |H|_F^2 of the symmetric H built from the lower triangle (the upper one is
    unread), whose gradient as a symmetric matrix is 2 H (Paddle's; the same in both triangles)."""
    a = _wc(3, (2,))
    g = padax.grad(lambda x: LA.slogdet(x)[1].sum())(a)
    np.testing.assert_allclose(np.asarray(g), np.swapaxes(np.linalg.inv(a), -1, -2), rtol=1e-10)
    g = padax.grad(lambda x: padax.sum(LA.inv(x)[0] * np.eye(3)))(a)
    inv0 = np.linalg.inv(a[0])
    np.testing.assert_allclose(np.asarray(g)[0], -(inv0 @ inv0).T, rtol=1e-10)
    np.testing.assert_array_equal(np.asarray(g)[1], 0)
    h = _spd(3) + np.triu(_r(3, 3), 1)
    g = padax.grad(lambda x: (LA.eigvalsh(x) ** 2).sum())(h)
    hl = np.tril(h) + np.tril(h, -1).T
    np.testing.assert_allclose(np.asarray(g), 2 * hl, atol=1e-9)


VMAP_CASES = [
    ("solve", LA.solve, (_wc(3, (3,)), _r(3, 2)), (0, None)),
    ("solve_axis1", LA.solve, (np.swapaxes(_wc(3, (3,)), 0, 1), _r(3, 3, 2)), (1, 0)),
    ("triangular_solve_b_only", LA.triangular_solve, (_wc(3), _r(3, 3, 2)), (None, 0)),
    ("det_slogdet_inv", lambda x: (LA.det(x), LA.slogdet(x), LA.inv(x)), (_wc(3, (3,)),), (0,)),
    ("cholesky_eigh", lambda x: (LA.cholesky(x), LA.eigh(x)), (_spd(3, (3,)),), (0,)),
    ("svd_qr_lu", lambda x: (LA.svd(x), LA.qr(x), LA.lu_unpack(*LA.lu(x))), (_r(3, 4, 3),), (0,)),
    ("eigvals_norm", lambda x: (LA.eigvals(x), LA.norm(x, "nuc", axis=[0, 1])), (_r(3, 3, 3),), (0,)),
    ("grad_of_logdet", padax.grad(lambda x: LA.slogdet(x)[1]), (_wc(3, (3,)),), (0,)),
]


@pytest.mark.parametrize("name,fn,args,in_axes", VMAP_CASES, ids=[c[0] for c in VMAP_CASES])
def test_vmap_matches_loop(name, fn, args, in_axes, x64):
    got = padax.jit(padax.vmap(fn, in_axes=in_axes))(*args)
    n = next(np.shape(x)[d] for x, d in zip(args, in_axes) if d is not None)
    jf = padax.jit(fn)
    loop = [jf(*[x if d is None else np.take(x, i, axis=d) for x, d in zip(args, in_axes)]) for i in range(n)]
    got_leaves = padax.tree.leaves(got)
    for j, g in enumerate(got_leaves):
        want = np.stack([np.asarray(padax.tree.leaves(one)[j]) for one in loop])
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-10, atol=1e-12)
