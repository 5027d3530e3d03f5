"""Derivatives of the general eigendecomposition (eig/eigvals), of the complete QR of tall
matrices, and LU without pivoting (values and derivatives).

Oracles: finite differences (padax.test_util.check_grads, float64), closed forms (sum of
eigenvalues = trace), jax's eig jvp (which differentiates the same geev normalisation when
asked with enable_eigvec_derivs=True), numpy for values. Eigenvectors are only fixed up to a
complex scale, so besides the raw vectors (compared with jax, which follows the same LAPACK
convention) the finite-difference checks use gauge-invariant functions.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import padax
import padax.linalg as LA
from padax.functional.lax import linalg as L
from padax.test_util import check_grads

jax.config.update("jax_enable_x64", True)

_rng = np.random.default_rng(3)


def _r(*shape):
    return _rng.standard_normal(shape)


def _c(*shape):
    return _r(*shape) + 1j * _r(*shape)


def _phase_fixed(v):
    """v_j conj(v_kj) for a fixed row k: unchanged when a column is multiplied by a phase."""
    return v * padax.conj(v[..., :1, :])


def _eig_gauge(x):
    w, v = LA.eig(x)
    return w, v * padax.conj(v), _phase_fixed(v)


REAL = _r(4, 4)
EIG_CASES = [
    ("eigvals", LA.eigvals, (REAL,)),
    ("eigvals_batch", LA.eigvals, (_r(2, 3, 3),)),
    ("eig_gauge", _eig_gauge, (REAL,)),
    ("eig_gauge_batch", _eig_gauge, (_r(2, 3, 3),)),
    ("eig_left_right_gauge", lambda x: [_phase_fixed(v) for v in L.eig(x, True, True)[1:]], (REAL,)),
    ("numpy_eig", lambda x: padax.numpy.linalg.eig(x)[0], (REAL,)),
]


@pytest.mark.parametrize("name,fn,args", EIG_CASES, ids=[c[0] for c in EIG_CASES])
def test_eig_check_grads(name, fn, args, x64):
    check_grads(padax.jit(fn), args, order=1, modes=("fwd", "rev"))


def test_eigvals_second_order(x64):
    a = np.array([[0.5, -1.0, 0.3], [1.2, 0.1, -0.4], [0.2, 0.7, 1.5]])  # a complex pair and a real
    check_grads(padax.jit(LA.eigvals), (a,), order=2, modes=("fwd", "rev"))


def test_eig_float32(x64):
    """float32 input (complex64 outputs) against finite differences at float32 tolerance."""
    a = (_r(3, 3) + 3 * np.diag([1.0, 2.0, 3.0])).astype(np.float32)
    check_grads(padax.jit(_eig_gauge), (a,), order=1, modes=("fwd", "rev"), atol=5e-2, rtol=5e-2)


def _bilinear(a, b):
    return sum(float(np.sum(np.asarray(x) * np.asarray(y)).real)
               for x, y in zip(padax.tree.leaves(a), padax.tree.leaves(b)))


def _rand_like(rng, o):
    o = np.asarray(o)
    v = rng.standard_normal(o.shape)
    return (v + 1j * rng.standard_normal(o.shape) if o.dtype.kind == "c" else v).astype(o.dtype)


@pytest.mark.parametrize("fn", [lambda x: L.eig(x, True, True), _eig_gauge], ids=["raw_left_right", "gauge"])
def test_eig_complex_input(fn, x64):
    """complex128 input: jvp against finite differences, vjp against jvp (Re sum(ct * J t))."""
    _check_complex_jvp_vjp(padax.jit(fn), (3, 3), seed=5)


def _check_complex_jvp_vjp(f, shape, seed):
    rng = np.random.default_rng(seed)
    x = _c(*shape)
    check_grads(f, (x,), order=1, modes=("fwd",))
    t = _c(*shape)
    out, jt = padax.jvp(f, (x,), (t,))
    ct = padax.tree.map(lambda o: _rand_like(rng, o), out)
    g, = padax.vjp(f, x)[1](ct)
    np.testing.assert_allclose(_bilinear(ct, jt), _bilinear(g, t), rtol=1e-9)


@pytest.mark.parametrize("make", [lambda: _r(4, 4), lambda: _c(4, 4)], ids=["real", "complex"])
def test_eig_jvp_matches_jax(make, x64):
    """Raw (not gauge-invariant) tangents of w, vl and vr agree with jax's eig jvp: both
    differentiate LAPACK's normalisation (unit norm, largest entry real)."""
    x, t = make(), make()
    got = padax.jvp(lambda a: L.eig(a, True, True), (x,), (t,))
    want = jax.jvp(lambda a: jax.lax.linalg.eig(a, compute_left_eigenvectors=True, enable_eigvec_derivs=True),
                   (jnp.asarray(x),), (jnp.asarray(t),))
    for g, w in zip(padax.tree.leaves(got), jax.tree.leaves(want)):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-9, atol=1e-10)


def test_eig_grad_closed_forms(x64):
    """sum(w) = tr(A) and sum(w^2) = tr(A^2): gradients I and 2 A^T (real A)."""
    a = _r(4, 4)
    g = padax.grad(lambda x: padax.real(LA.eigvals(x)).sum())(a)
    np.testing.assert_allclose(np.asarray(g), np.eye(4), atol=1e-12)
    g = padax.grad(lambda x: padax.real(LA.eigvals(x) ** 2).sum())(a)
    np.testing.assert_allclose(np.asarray(g), 2 * a.T, atol=1e-12)
    g = padax.grad(lambda x: padax.imag(LA.eigvals(x)).sum())(a)  # conjugate pairs cancel
    np.testing.assert_allclose(np.asarray(g), 0, atol=1e-12)


def test_eig_grad_vmap_matches_loop(x64):
    xs = _r(3, 3, 3)
    f = padax.grad(lambda x: padax.abs(LA.eig(x)[1][0]).sum() + padax.real(LA.eigvals(x)[0] ** 3))
    got = np.asarray(padax.jit(padax.vmap(f))(xs))
    want = np.stack([np.asarray(f(x)) for x in xs])
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_eig_repeated_eigenvalue_is_not_finite(x64):
    """Derivatives need distinct eigenvalues (as in jax): a double eigenvalue gives inf/NaN."""
    a = np.diag([1.0, 1.0, 2.0])
    _, (_, dv) = padax.jvp(LA.eig, (a,), (_r(3, 3),))
    assert not np.isfinite(np.asarray(dv)).all()


# ---- complete QR of tall matrices -------------------------------------------------------

QR_CASES = [
    ("tall", (_r(5, 3),)),
    ("tall_batch", (_r(2, 4, 2),)),
    ("column", (_r(4, 1),)),
    ("nearly_square", (_r(4, 3),)),
]


@pytest.mark.parametrize("name,args", QR_CASES, ids=[c[0] for c in QR_CASES])
def test_qr_complete_tall_check_grads(name, args, x64):
    """The extra columns of Q are LAPACK's (Householder) completion; their derivative is
    checked against finite differences of what geqrf/orgqr return."""
    check_grads(padax.jit(lambda x: LA.qr(x, mode="complete")), args, order=1, modes=("fwd", "rev"))


def test_qr_complete_tall_complex(x64):
    _check_complex_jvp_vjp(padax.jit(lambda a: LA.qr(a, mode="complete")), (4, 2), seed=9)


def test_qr_complete_tangent_keeps_orthogonality(x64):
    """Q^H dQ is skew-Hermitian and dR stays upper triangular (zero below row n)."""
    x, t = _r(5, 2), _r(5, 2)
    (q, r), (dq, dr) = padax.jvp(lambda a: LA.qr(a, mode="complete"), (x,), (t,))
    q, dq, dr = np.asarray(q), np.asarray(dq), np.asarray(dr)
    s = q.T @ dq
    np.testing.assert_allclose(s, -s.T, atol=1e-12)
    np.testing.assert_allclose(dr[2:], 0, atol=1e-14)
    np.testing.assert_allclose(np.tril(dr, -1), 0, atol=1e-14)


# ---- LU without pivoting ---------------------------------------------------------------

def _doolittle(a):
    a = np.array(a, dtype=np.result_type(a, np.float64) if a.dtype.kind != "c" else np.complex128)
    m, n = a.shape
    for k in range(min(m, n)):
        a[k + 1:, k] /= a[k, k]
        a[k + 1:, k + 1:] -= np.outer(a[k + 1:, k], a[k, k + 1:])
    return a


@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-5), (np.float64, 1e-12), (np.complex64, 1e-5),
                                       (np.complex128, 1e-12)], ids=lambda d: getattr(d, "__name__", ""))
@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5), (2, 3, 3)], ids=str)
def test_lu_no_pivot_values(shape, dtype, tol):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape) + 3 * np.eye(shape[-2], shape[-1])
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    x = x.astype(dtype)
    with padax.enable_x64(np.dtype(dtype).itemsize * (2 if np.dtype(dtype).kind == "f" else 1) == 16):
        f, piv, info = padax.jit(lambda a: LA.lu(a, pivot=False, get_infos=True))(x)
        p, l_, u = LA.lu_unpack(f, piv)
        f, piv, info, p, l_, u = (np.asarray(t) for t in (f, piv, info, p, l_, u))
    assert f.dtype == dtype and piv.dtype == np.int32 and info.dtype == np.int32
    want = np.stack([_doolittle(m) for m in x.reshape((-1,) + shape[-2:])]).reshape(shape)
    np.testing.assert_allclose(f, want, rtol=tol * 10, atol=tol * 10)
    k = min(shape[-2:])
    np.testing.assert_array_equal(piv, np.broadcast_to(np.arange(1, k + 1), shape[:-2] + (k,)))
    np.testing.assert_array_equal(info, 0)
    np.testing.assert_array_equal(p, np.broadcast_to(np.eye(shape[-2]), p.shape))
    np.testing.assert_allclose(l_ @ u, x, rtol=tol * 10, atol=tol * 10)


def test_lu_no_pivot_zero_pivot_infos():
    """A zero leading minor: Infos names the first zero pivot (1-based)."""
    x = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 1.0], [1.0, 0.0, 1.0]], np.float32)
    _, _, info = LA.lu(x, pivot=False, get_infos=True)
    assert int(info) == 2


def test_lu_no_pivot_grads(x64):
    """Square, tall, wide and batched at once (first order), and the square case to second order."""
    args = tuple(_r(*s) + 3 * np.eye(s[-2], s[-1]) for s in [(3, 3), (4, 3), (3, 4), (2, 3, 3)])
    check_grads(padax.jit(lambda *xs: [LA.lu(a, pivot=False)[0] for a in xs]), args, order=1, modes=("fwd", "rev"))
    check_grads(padax.jit(lambda a: LA.lu(a, pivot=False)[0]), args[:1], order=2, modes=("fwd", "rev"))
    c = _c(3, 4) + 3 * np.eye(3, 4)
    check_grads(padax.jit(lambda a: LA.lu(a, pivot=False)[0]), (c,), order=1, modes=("fwd",))


def test_lu_no_pivot_vmap_and_loop_derivative_agree(x64):
    """vmap matches a loop; the closed-form rule matches differentiating the elimination loop."""
    xs = _r(3, 4, 4) + 4 * np.eye(4)
    got = np.asarray(padax.vmap(lambda a: LA.lu(a, pivot=False)[0])(xs))
    np.testing.assert_allclose(got, np.stack([_doolittle(x) for x in xs]), rtol=1e-12, atol=1e-12)
    t = _r(4, 4)
    _, rule = padax.jvp(lambda a: LA.lu(a, pivot=False)[0], (xs[0],), (t,))
    _, loop = padax.jvp(L.lu_unpivoted, (xs[0],), (t,))
    np.testing.assert_allclose(np.asarray(rule), np.asarray(loop), rtol=1e-10, atol=1e-12)
