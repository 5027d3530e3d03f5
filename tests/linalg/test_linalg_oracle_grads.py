"""Linear-algebra gradients against the frameworks padax imitates.

padax.linalg (Paddle's names) is compared with paddle.grad, padax.numpy.linalg and padax.lax
(JAX's names) with jax.vjp, on real and complex inputs. Each case differentiates the real
loss sum(Re(W * out)) over the outputs with fixed random weights W (Paddle's complex
gradient is the conjugate of jax's; it is conjugated back). Hermitian routines (cholesky,
eigh, eigvalsh, pinv/svd hermitian) must give Hermitian gradients, as both frameworks do:
Paddle reads one triangle of the input and symmetrizes the gradient, jax symmetrizes the
input. Where Paddle's own derivative is wrong (complex slogdet, matrix_power, pinv, SVD
vectors; lstsq, which it does not differentiate) padax is checked against jax instead.
"""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.lax as plax
import padax.linalg as LA
import padax.numpy as pnp
import padax.numpy.linalg as NL

from tests.conftest import paddle_oracle

jax = pytest.importorskip("jax")
jnp = jax.numpy
JL = jnp.linalg
JLL = jax.lax.linalg

TOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-9, "complex128": 1e-9}


@pytest.fixture(scope="module", autouse=True)
def _jax_x64():
    prev = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", prev)


def _flat(o):
    if isinstance(o, (list, tuple)):
        return [leaf for e in o for leaf in _flat(e)]
    return [o]


def _rnd(shape, dt, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dt)


def _spd(dt, seed=2, n=3):
    a = _rnd((n, n), dt, seed)
    return (a @ a.conj().T + n * np.eye(n)).astype(dt)


def _asym(dt):
    """An SPD matrix plus noise above the diagonal: the lower triangle is the matrix."""
    return (_spd(dt) + np.triu(_rnd((3, 3), dt, 6), 1)).astype(dt)


def _well(dt):
    return (_rnd((3, 3), dt, 1) + 3 * np.eye(3)).astype(dt)


def _weights(outs, seed=0):
    """Random weights shaped and typed like the outputs (None for integer outputs)."""
    rng = np.random.default_rng(seed)
    ws = []
    for o in outs:
        dt = np.dtype(o.dtype)
        w = rng.standard_normal(o.shape)
        if dt.kind == "c":
            w = w + 1j * rng.standard_normal(o.shape)
        ws.append(w.astype(dt) if dt.kind in "fc" else None)
    return ws


def _loss(fn, ws, np_):
    def loss(*a):
        return sum(np_.real(np_.sum(o * w)) for o, w in zip(_flat(fn(*a)), ws) if w is not None)
    return loss


def _vjp_all(vjp, loss):
    """Gradients of a real loss for every argument, through `vjp` (complex inputs included)."""
    def grads(*a):
        out, pull = vjp(loss, *a)
        return pull(out * 0 + 1)
    return grads


def _padax_grads(fn, xs):
    """(weights, padax's gradients)."""
    ws = _weights(_flat(padax.eval_shape(fn, *xs)))
    return ws, [np.asarray(g) for g in _vjp_all(padax.vjp, _loss(fn, ws, pnp))(*xs)]


def _jax_grads(fn, xs, ws):
    return [np.asarray(g) for g in jax.jit(_vjp_all(jax.vjp, _loss(fn, ws, jnp)))(*xs)]


def _paddle_grads(fn, xs, ws):
    paddle = paddle_oracle()
    ts = [paddle.to_tensor(x, stop_gradient=False) for x in xs]
    total = None
    for o, w in zip(_flat(fn(*ts)), ws):
        if w is None:
            continue
        term = paddle.sum(o * paddle.to_tensor(w))
        term = paddle.real(term) if np.iscomplexobj(w) else term
        total = term if total is None else total + term
    gs = paddle.grad(total, ts)
    return [np.conj(g.numpy()) for g in gs]          # Paddle's complex gradient is jax's conjugate


def _assert_grads(got, want, dt):
    tol = TOL[dt]
    for g, w in zip(got, want):
        scale = max(1.0, float(np.abs(w).max()))
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * scale)


def _is_hermitian(g, dt):
    np.testing.assert_allclose(g, np.conj(np.swapaxes(g, -1, -2)), atol=TOL[dt] * max(1.0, np.abs(g).max()))


# ---- Paddle's names against paddle.grad ----------------------------------------------------------

def _v2(v):
    """|v|^2 entrywise: eigenvectors enter through a sign/phase-free function."""
    return v * padax.conj(v) if hasattr(v, "aval") else v * v.conj()


HERMITIAN_PADDLE = [
    ("cholesky", LA.cholesky, "cholesky", _spd),
    ("cholesky_reads_lower", LA.cholesky, "cholesky", _asym),
    ("cholesky_upper", lambda x: LA.cholesky(x, upper=True), lambda P, x: P.linalg.cholesky(x, upper=True), _spd),
    ("eigh_L", lambda x: (lambda w, v: (w, _v2(v)))(*LA.eigh(x)),
     lambda P, x: (lambda w, v: (w, v * P.conj(v)))(*P.linalg.eigh(x)), _asym),
    ("eigh_U", lambda x: (lambda w, v: (w, _v2(v)))(*LA.eigh(x, "U")),
     lambda P, x: (lambda w, v: (w, v * P.conj(v)))(*P.linalg.eigh(x, "U")), _asym),
    ("eigvalsh_L", LA.eigvalsh, "eigvalsh", _asym),
    ("eigvalsh_U", lambda x: LA.eigvalsh(x, "U"), lambda P, x: P.linalg.eigvalsh(x, "U"), _asym),
    ("pinv_hermitian", lambda x: LA.pinv(x, hermitian=True), lambda P, x: P.linalg.pinv(x, hermitian=True), _spd),
]
# Paddle's CPU cholesky has no complex kernels
_PADDLE_REAL_ONLY = {"cholesky", "cholesky_reads_lower", "cholesky_upper"}


def _paddle_fn(ref):
    paddle = paddle_oracle()
    if isinstance(ref, str):
        return getattr(paddle.linalg, ref)
    return lambda *a: ref(paddle, *a)


@pytest.mark.parametrize("dt", ["float64", "complex128"])
@pytest.mark.parametrize("name,fn,ref,make", HERMITIAN_PADDLE, ids=[c[0] for c in HERMITIAN_PADDLE])
def test_hermitian_gradients_match_paddle(name, fn, ref, make, dt):
    if name in _PADDLE_REAL_ONLY and dt.startswith("complex"):
        pytest.skip("Paddle has no complex cholesky on CPU")
    x = make(dt)
    ws, got = _padax_grads(fn, [x])
    want = _paddle_grads(_paddle_fn(ref), [x], ws)
    _assert_grads(got, want, dt)
    _is_hermitian(got[0], dt)


@pytest.mark.parametrize("dt", ["float32", "complex64"])
def test_single_precision_hermitian_gradients(dt):
    """float32/complex64: eigh against Paddle and jax, cholesky against jax."""
    x = _asym(dt)
    fn = lambda a: (lambda w, v: (w, _v2(v)))(*LA.eigh(a))  # noqa: E731
    ws, got = _padax_grads(fn, [x])
    _assert_grads(got, _paddle_grads(lambda a: (lambda w, v: (w, v * paddle_oracle().conj(v)))(
        *paddle_oracle().linalg.eigh(a)), [x], ws), dt)
    _is_hermitian(got[0], dt)
    ws, got = _padax_grads(NL.cholesky, [x])
    _assert_grads(got, _jax_grads(JL.cholesky, [x], ws), dt)
    _is_hermitian(got[0], dt)


def test_cholesky_gradient_is_symmetric_as_in_paddle_and_jax():
    """The example of issue 20: grad of cholesky(X).sum() at [[4, 2], [2, 3]]."""
    x = np.array([[4.0, 2.0], [2.0, 3.0]])
    want = np.array([[0.21338835, 0.0732233], [0.0732233, 0.35355339]])
    for f in (LA.cholesky, NL.cholesky, plax.cholesky):
        np.testing.assert_allclose(np.asarray(padax.grad(lambda a: f(a).sum())(x)), want, rtol=1e-7)
    np.testing.assert_allclose(np.asarray(jax.grad(lambda a: JL.cholesky(a).sum())(x)), want, rtol=1e-7)


def _paddle_general_cases(dt):
    g, a, t, w, b = _rnd((3, 3), dt, 8), _well(dt), _rnd((4, 3), dt, 3), _rnd((3, 4), dt, 4), _rnd((3, 2), dt, 5)
    yield "qr_tall", lambda x: LA.qr(x), "qr", [t]
    yield "qr_wide_complete", lambda x: LA.qr(x, mode="complete"), lambda P, x: P.linalg.qr(x, mode="complete"), [w]
    yield "svd_values", lambda x: LA.svd(x)[1], lambda P, x: P.linalg.svd(x)[1], [t]
    yield "det", LA.det, "det", [g]
    yield "inv", LA.inv, "inv", [a]
    yield "solve", LA.solve, "solve", [a, b]
    yield "triangular_solve", LA.triangular_solve, "triangular_solve", [a, b]
    yield "lu_unpack", lambda x: LA.lu_unpack(*LA.lu(x)), lambda P, x: P.linalg.lu_unpack(*P.linalg.lu(x)), [t]
    yield "cholesky_inverse", LA.cholesky_inverse, "cholesky_inverse", [np.linalg.cholesky(_spd(dt)).astype(dt)]
    yield "eig_values", lambda x: LA.eig(x)[0], lambda P, x: P.linalg.eig(x)[0], [g]
    yield "norms", lambda x: (LA.norm(x, "nuc", axis=[0, 1]), LA.matrix_norm(x, 2), LA.cond(x, -2)), \
        lambda P, x: (P.linalg.norm(x, "nuc", axis=[0, 1]), P.linalg.matrix_norm(x, 2), P.linalg.cond(x, -2)), [a]
    if dt.startswith("float"):   # Paddle's complex gradients of these are wrong (see the jax tests below)
        yield "slogdet", LA.slogdet, "slogdet", [g]
        yield "matrix_power_-2", lambda x: LA.matrix_power(x, -2), lambda P, x: P.linalg.matrix_power(x, -2), [a]
        yield "pinv", LA.pinv, "pinv", [t]
        yield "svd_vectors", lambda x: (lambda u, s, vh: u @ vh)(*LA.svd(x)), \
            lambda P, x: (lambda u, s, vh: u @ vh)(*P.linalg.svd(x)), [g]
        yield "eig_vectors", lambda x: LA.eig(x)[1], lambda P, x: P.linalg.eig(x)[1], [g]


@pytest.mark.slow
@pytest.mark.parametrize("dt", ["float64", "complex128"])
def test_general_gradients_match_paddle(dt):
    """The other padax.linalg derivatives (test_linalg_ad checks them against finite differences)."""
    for name, fn, ref, xs in _paddle_general_cases(dt):
        if dt.startswith("complex") and name in ("solve", "cholesky_inverse"):
            continue   # no complex CPU kernels in Paddle; its cholesky_inverse uses x @ x.T
        ws, got = _padax_grads(fn, xs)
        want = _paddle_grads(_paddle_fn(ref), xs, ws)
        try:
            _assert_grads(got, want, dt)
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from None


# ---- JAX's names against jax.vjp -----------------------------------------------------------------

HERMITIAN_JAX = [
    ("np_cholesky", NL.cholesky, JL.cholesky, _asym),
    ("np_cholesky_upper", lambda x: NL.cholesky(x, upper=True), lambda x: JL.cholesky(x, upper=True), _spd),
    ("np_eigh", lambda x: (lambda w, v: (w, _v2(v)))(*NL.eigh(x)),
     lambda x: (lambda w, v: (w, v * v.conj()))(*JL.eigh(x)), _asym),
    ("np_eigh_U", lambda x: NL.eigh(x, "U")[0], lambda x: JL.eigh(x, "U")[0], _asym),
    ("np_eigvalsh", NL.eigvalsh, JL.eigvalsh, _asym),
    ("np_svd_hermitian", lambda x: NL.svd(x, hermitian=True)[1], lambda x: JL.svd(x, hermitian=True)[1], _asym),
    ("np_pinv_hermitian", lambda x: NL.pinv(x, hermitian=True), lambda x: JL.pinv(x, hermitian=True), _asym),
    ("lax_cholesky", plax.cholesky, JLL.cholesky, _asym),
    ("lax_eigh", lambda x: plax.eigh(x)[0], lambda x: JLL.eigh(x)[1], _asym),
]


@pytest.mark.parametrize("dt", ["float64", "complex128"])
@pytest.mark.parametrize("name,fn,ref,make", HERMITIAN_JAX, ids=[c[0] for c in HERMITIAN_JAX])
def test_hermitian_gradients_match_jax(name, fn, ref, make, dt):
    x = make(dt)
    ws, got = _padax_grads(fn, [x])
    _assert_grads(got, _jax_grads(ref, [x], ws), dt)
    _is_hermitian(got[0], dt)


def test_lax_without_symmetrize_input_follows_jax():
    """symmetrize_input=False: the rules take the tangent whole, so the gradient is jax's
    (not Hermitian). cholesky reads the lower triangle; jax's eigh rule factors (a + a^H) / 2
    under differentiation even then, so eigh is compared at a symmetric point."""
    x = _asym("float64")
    for fn, ref, p in ((lambda a: plax.cholesky(a, symmetrize_input=False),
                        lambda a: JLL.cholesky(a, symmetrize_input=False), x),
                       (lambda a: _v2(plax.eigh(a, symmetrize_input=False)[1]),
                        lambda a: (lambda v: v * v)(JLL.eigh(a, symmetrize_input=False)[0]), _spd("float64"))):
        ws, got = _padax_grads(fn, [p])
        _assert_grads(got, _jax_grads(ref, [p], ws), "float64")
        assert not np.allclose(got[0], got[0].T)


def _jax_general_cases(dt):
    g, a, t, w, b = _rnd((3, 3), dt, 8), _well(dt), _rnd((4, 3), dt, 3), _rnd((3, 4), dt, 4), _rnd((3, 2), dt, 5)
    yield "qr_tall", lambda x: tuple(NL.qr(x)), lambda x: tuple(JL.qr(x)), [t]
    yield "qr_complete_tall", lambda x: tuple(NL.qr(x, mode="complete")), lambda x: tuple(JL.qr(x, mode="complete")), [t]
    yield "qr_r_wide", lambda x: NL.qr(x, mode="r"), lambda x: JL.qr(x, mode="r"), [w]
    yield "svd_gauge", lambda x: (lambda u, s, vh: (s, u @ vh, _v2(u)))(*NL.svd(x, full_matrices=False)), \
        lambda x: (lambda u, s, vh: (s, u @ vh, u * u.conj()))(*JL.svd(x, full_matrices=False)), [w]
    yield "lax_lu", lambda x: plax.lu(x)[0], lambda x: JLL.lu(x)[0], [t]
    yield "lax_triangular_solve", lambda x, y: plax.triangular_solve(x, y, left_side=True, lower=True, unit_diagonal=True),\
        lambda x, y: JLL.triangular_solve(x, y, left_side=True, lower=True, unit_diagonal=True), [a, b]
    yield "det_slogdet", lambda x: (NL.det(x), NL.slogdet(x).logabsdet), lambda x: (JL.det(x), JL.slogdet(x)[1]), [g]
    yield "inv_solve", lambda x, y: (NL.inv(x), NL.solve(x, y)), lambda x, y: (JL.inv(x), JL.solve(x, y)), [a, b]
    yield "matrix_power", lambda x: (NL.matrix_power(x, 3), NL.matrix_power(x, -2)), \
        lambda x: (JL.matrix_power(x, 3), JL.matrix_power(x, -2)), [a]
    yield "pinv", NL.pinv, JL.pinv, [t]
    yield "lstsq", lambda x, y: NL.lstsq(x, y)[:2], lambda x, y: JL.lstsq(x, y)[:2], [t, _rnd((4, 2), dt, 12)]
    yield "norms_cond", lambda x: (NL.norm(x, "nuc"), NL.norm(x, 2), NL.norm(x, -2), NL.norm(x, np.inf), NL.cond(x)), \
        lambda x: (JL.norm(x, "nuc"), JL.norm(x, 2), JL.norm(x, -2), JL.norm(x, np.inf), JL.cond(x)), [a]
    yield "eigvals", NL.eigvals, JL.eigvals, [g]


@pytest.mark.slow
@pytest.mark.parametrize("dt", ["float64", "complex128", "float32"])
def test_general_gradients_match_jax(dt):
    """The other padax.numpy.linalg / padax.lax derivatives (see test_general_gradients_match_paddle)."""
    for name, fn, ref, xs in _jax_general_cases(dt):
        ws, got = _padax_grads(fn, xs)
        try:
            _assert_grads(got, _jax_grads(ref, xs, ws), dt)
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from None


def test_paddle_names_where_paddle_is_wrong_match_jax():
    """Complex slogdet, matrix_power, pinv and SVD vectors, and lstsq: Paddle's gradients
    disagree with finite differences; padax.linalg's agree with jax's."""
    dt = "complex128"
    g, a, t = _rnd((3, 3), dt, 8), _well(dt), _rnd((4, 3), "float64", 3)
    cases = [
        (lambda x: LA.slogdet(x)[1], lambda x: jnp.log(jnp.abs(JL.det(x))).astype(x.dtype), [g]),
        (lambda x: LA.matrix_power(x, 3), lambda x: JL.matrix_power(x, 3), [a]),
        (LA.pinv, lambda x: JL.pinv(x, rtol=1e-15), [g]),
        (lambda x: (lambda u, s, vh: u @ vh)(*LA.svd(x)), lambda x: (lambda u, s, vh: u @ vh)(*JL.svd(x, False)), [g]),
        (lambda x, y: LA.lstsq(x, y)[0], lambda x, y: JL.lstsq(x, y)[0], [t, _rnd((4, 2), "float64", 12)]),
    ]
    for fn, ref, xs in cases:
        ws, got = _padax_grads(fn, xs)
        _assert_grads(got, _jax_grads(ref, xs, ws), str(xs[0].dtype))


@pytest.mark.parametrize("dt", ["float64", "complex128"])
def test_second_order_forward_over_reverse_matches_jax(dt):
    """The Hermitian rules differentiate again: jvp of the gradient, Paddle's names at a
    Hermitian point (where they and jax's agree) and jax's names anywhere."""
    s, x, t = _spd(dt), _asym(dt), _rnd((3, 3), dt, 9)
    cases = [
        (LA.cholesky, JL.cholesky, s),
        (lambda m: _v2(LA.eigh(m)[1]), lambda m: (lambda v: v * v.conj())(JL.eigh(m)[1]), s),
        (lambda m: LA.pinv(m, hermitian=True), lambda m: JL.pinv(m, hermitian=True), s),
        (NL.cholesky, JL.cholesky, x),
        (lambda m: NL.eigh(m)[0], lambda m: JL.eigh(m)[0], x),
        (lambda m: NL.qr(m)[0], lambda m: JL.qr(m)[0], _rnd((4, 3), dt, 3)),
    ]
    if dt == "complex128":  # fewer compilations: one per family
        cases = [cases[0], cases[4]]
    for fn, ref, p in cases:
        ws, _ = _padax_grads(fn, [p])

        def gp(m):
            return padax.vjp(lambda a: sum(pnp.real(pnp.sum(o * w)) for o, w in zip(_flat(fn(a)), ws)), m)[1](
                np.float64(1))[0]

        def gj(m):
            return jax.vjp(lambda a: sum(jnp.real(jnp.sum(o * w)) for o, w in zip(_flat(ref(a)), ws)), m)[1](
                jnp.float64(1))[0]
        tt = t if p.shape == t.shape else _rnd(p.shape, dt, 9)
        got = np.asarray(padax.jvp(gp, (p,), (tt,))[1])
        want = np.asarray(jax.jvp(gj, (p,), (tt,))[1])
        _assert_grads([got], [want], dt)
