"""Complex differentiation: grad of a real-valued function of complex inputs is JAX's (the conjugate
Wirtinger gradient) without holomorphic=True; holomorphic=True is for complex outputs. A sweep over
every complex-capable primitive checks its derivatives numerically in complex128 (check_grads)
and its gradient convention against jax.grad."""
from types import SimpleNamespace

import numpy as np
import pytest

import padax
import padax.numpy as pnp
from padax import lax as plax
from padax.test_util import check_grads

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402

RNG = np.random.default_rng(7)


def crand(*shape):
    return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(np.complex128)


def hermitian_pd(n):
    a = crand(n, n)
    return a @ a.conj().T + n * np.eye(n)


Z3, W3, Z23, Z33 = crand(3), crand(3), crand(2, 3), crand(3, 3)
HPD = hermitian_pd(3)
UNIT = np.array([0.3 + 0.2j, -0.4 + 0.1j, 0.2 - 0.5j])        # inside the unit disc (asin, atanh, ...)
RIGHT = np.array([1.3 + 0.2j, 0.7 - 0.4j, 2.1 + 0.9j])        # right half plane (log, sqrt, pow, ...)

# jax spellings of padax.lax names that differ
JLAX = SimpleNamespace(**{k: getattr(jax.lax, k) for k in dir(jax.lax) if not k.startswith("_")})
JLAX.qr, JLAX.svd, JLAX.eig = jax.lax.linalg.qr, jax.lax.linalg.svd, jax.lax.linalg.eig
JLAX.eigh = lambda a: jax.lax.linalg.eigh(a)[::-1]          # padax.lax.eigh returns (w, v)
JLAX.cholesky, JLAX.triangular_solve, JLAX.lu = jax.lax.linalg.cholesky, jax.lax.linalg.triangular_solve, \
    jax.lax.linalg.lu
JLAX.fft = lambda x, fft_type, fft_lengths: jax.lax.fft(x, fft_type.upper(), fft_lengths)

# name: (f(L, *args) with L = padax.lax or jax.lax, args, derivative order checked)
UNARY = ["neg", "exp", "log", "expm1", "log1p", "tanh", "logistic", "sin", "cos", "tan", "asin", "acos", "atan",
         "sinh", "cosh", "asinh", "acosh", "atanh", "sqrt", "rsqrt", "square", "real", "imag", "conj", "abs",
         "exp2"]
_DOMAIN = {"log": RIGHT, "sqrt": RIGHT, "rsqrt": RIGHT, "log1p": RIGHT, "asin": UNIT, "acos": UNIT, "atanh": UNIT,
           "acosh": RIGHT + 1.0, "atan": UNIT, "abs": RIGHT}
_SECOND_ORDER = {"exp", "log", "sin", "sqrt", "tanh", "abs"}
CASES = {f"unary:{n}": ((lambda n: lambda L, z: getattr(L, n)(z))(n), (_DOMAIN.get(n, Z3),), 2 if n in _SECOND_ORDER else 1)
         for n in UNARY}
CASES.update({
    "integer_pow": (lambda L, z: L.integer_pow(z, 3), (Z3,), 2),
    "add": (lambda L, a, b: L.add(a, b), (Z3, W3), 1),
    "sub": (lambda L, a, b: L.sub(a, b), (Z3, W3), 1),
    "mul": (lambda L, a, b: L.mul(a, b), (Z3, W3), 2),
    "div": (lambda L, a, b: L.div(a, b), (Z3, RIGHT), 2),
    "pow": (lambda L, a, b: L.pow(a, b), (RIGHT, W3), 1),
    "complex": (lambda L, a, b: L.complex(a, b), (Z3.real.copy(), W3.real.copy()), 1),
    "convert_element_type": (lambda L, x: L.convert_element_type(x, np.complex128) * (1 + 2j), (Z3.real.copy(),), 1),
    "reduce_sum": (lambda L, z: L.reduce_sum(z, (1,)), (Z23,), 1),
    "reduce_prod": (lambda L, z: L.reduce_prod(z, (1,)), (Z23,), 2),
    "cumsum": (lambda L, z: L.cumsum(z, axis=1), (Z23,), 1),
    "cumprod": (lambda L, z: L.cumprod(z, axis=1), (Z23,), 1),
    "dot_general": (lambda L, a, b: L.dot_general(a, b, (((1,), (0,)), ((), ()))), (Z23, Z33), 2),
    "conv_general_dilated": (lambda L, a, b: L.conv_general_dilated(a, b, (1,), [(1, 1)]),
                             (crand(1, 2, 5), crand(3, 2, 2)), 1),
    "fft": (lambda L, z: L.fft(z, "fft", (3,)), (Z23,), 1),
    "ifft": (lambda L, z: L.fft(z, "ifft", (3,)), (Z23,), 1),
    "irfft": (lambda L, z: L.fft(z, "irfft", (4,)), (Z23,), 1),
    "transpose": (lambda L, z: L.transpose(z, (1, 0)) * W3[:, None], (Z23,), 1),
    "reshape": (lambda L, z: L.reshape(z, (3, 2)), (Z23,), 1),
    "broadcast_in_dim": (lambda L, z: L.broadcast_in_dim(z, (2, 3), (1,)), (Z3,), 1),
    "concatenate": (lambda L, a, b: L.concatenate([a, b], 0), (Z3, W3), 1),
    "pad": (lambda L, z: L.pad(z, np.complex128(0.5 - 1j), [(1, 2, 1)]), (Z3,), 1),
    "slice": (lambda L, z: L.slice(z, (0, 1), (2, 3)), (Z23,), 1),
    "dynamic_slice": (lambda L, z: L.dynamic_slice(z, (np.int32(1),), (2,)), (Z3,), 1),
    "dynamic_update_slice": (lambda L, a, b: L.dynamic_update_slice(a, b[:2], (np.int32(1),)), (Z3, W3), 1),
    "rev": (lambda L, z: L.rev(z, (0,)) * W3, (Z3,), 1),
    "select_n": (lambda L, a, b: L.select_n(np.array([True, False, True]), a, b), (Z3, W3), 1),
    "squeeze": (lambda L, z: L.squeeze(z[None], (0,)), (Z3,), 1),
    # Hermitian inputs: both libraries' rules assume a Hermitian tangent, so the input is symmetrised
    "cholesky": (lambda L, a: L.cholesky(0.5 * (a + L.conj(L.transpose(a, (1, 0))))), (HPD,), 1),
    "triangular_solve": (lambda L, a, b: L.triangular_solve(a, b, left_side=True, lower=True),
                         (np.tril(HPD), Z33), 1),
    "qr": (lambda L, a: tuple(x * x.conj() for x in L.qr(a)), (Z33,), 1),
    "eigh": (lambda L, a: L.eigh(0.5 * (a + L.conj(L.transpose(a, (1, 0)))))[0], (HPD,), 1),   # eigenvalues
    "svd": (lambda L, a: L.svd(a, full_matrices=False, compute_uv=False), (Z33,), 1),
    "eig": (lambda L, a: L.eig(a, compute_left_eigenvectors=False, compute_right_eigenvectors=False)[0], (Z33,), 1),
    "lu": (lambda L, a: L.lu(a)[0], (Z33,), 1),
})
# control flow (padax.lax and jax.lax spell these alike)
CASES.update({
    "cond": (lambda L, z: L.cond(True, lambda v: L.sin(v) * v, lambda v: v, z), (Z3,), 1),
    "scan": (lambda L, z: L.scan(lambda c, x: (c * x + 1.0, L.exp(c)), z[0], z)[1], (Z3,), 1),
    "fori_loop": (lambda L, z: L.fori_loop(0, 3, lambda i, c: L.sin(c) * z, z), (Z3,), 1),
})


def _real_loss(L, fn, weights):
    """A real scalar from fn's (complex or real) outputs: sum of Re(out * w)."""
    np_ = jnp if L is JLAX else pnp

    def loss(*args):
        outs = fn(L, *args)
        outs = outs if isinstance(outs, tuple) else (outs,)
        return sum(np_.sum(np_.real(o * w)) for o, w in zip(outs, weights))
    return loss


@pytest.mark.parametrize("name", sorted(CASES))
def test_complex128_derivatives(name):
    fn, args, order = CASES[name]
    # forward (jvp against central differences) and reverse (vjp against jvp), complex128
    check_grads(lambda *a: fn(plax, *a), args, order=order, modes=("fwd", "rev"))
    # padax.grad of a real loss of the (complex) outputs equals jax.grad, without holomorphic=True
    outs = fn(JLAX, *args)
    outs = outs if isinstance(outs, tuple) else (outs,)
    weights = [crand(*np.shape(o)) for o in outs]
    argnums = tuple(i for i, a in enumerate(args) if np.iscomplexobj(a)) or (0,)
    got = padax.grad(_real_loss(plax, fn, weights), argnums=argnums)(*args)
    want = jax.grad(_real_loss(JLAX, fn, weights), argnums=argnums)(*args)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-10, atol=1e-12)


def test_grad_of_real_function_of_complex_input():
    z = np.array([3 + 4j, 1 - 2j])
    g = padax.grad(lambda v: pnp.sum(pnp.abs(v) ** 2))(z)
    np.testing.assert_allclose(np.asarray(g), 2 * np.conj(z))         # JAX's convention: 2 conj(z)
    assert g.dtype == np.complex128
    # gradient ascent along conj(grad) increases f
    f = lambda v: float(np.sum(np.abs(v) ** 2 + np.real(v * v)))  # noqa: E731
    g = np.asarray(padax.grad(lambda v: pnp.sum(pnp.abs(v) ** 2 + pnp.real(v * v)))(z))
    assert f(z + 1e-3 * np.conj(g)) > f(z)
    # value_and_grad and mixed real/complex arguments
    val, (ga, gb) = padax.value_and_grad(lambda a, b: pnp.sum(pnp.real(a * b)), argnums=(0, 1))(z, np.array([2.0, 3.0]))
    np.testing.assert_allclose(np.asarray(ga), [2.0, 3.0])
    np.testing.assert_allclose(np.asarray(gb), z.real)


def test_holomorphic():
    z = np.array(1.0 + 2.0j)
    g = padax.grad(lambda v: v * v * pnp.sin(v), holomorphic=True)(z)
    np.testing.assert_allclose(np.asarray(g), jax.grad(lambda v: v * v * jnp.sin(v), holomorphic=True)(z))
    j = padax.jacfwd(lambda v: v ** 3, holomorphic=True)(Z3)
    np.testing.assert_allclose(np.asarray(j), np.diag(3 * Z3 ** 2), rtol=1e-14)
    j = padax.jacrev(lambda v: v ** 3, holomorphic=True)(Z3)
    np.testing.assert_allclose(np.asarray(j), np.diag(3 * Z3 ** 2), rtol=1e-14)
    with pytest.raises(TypeError, match="real-valued output.*holomorphic=True"):
        padax.grad(lambda v: v * v)(z)
    with pytest.raises(TypeError, match="holomorphic=True.*requires complex inputs"):
        padax.grad(lambda v: v * v, holomorphic=True)(np.array(1.0))
    with pytest.raises(TypeError, match="jacfwd requires real-valued inputs"):
        padax.jacfwd(lambda v: pnp.abs(v))(Z3)
    with pytest.raises(TypeError, match="jacrev requires real-valued outputs"):
        padax.jacrev(lambda v: v * 2.0)(Z3)
