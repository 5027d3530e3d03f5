"""linearize and linear_transpose over the primitive families, control flow and custom rules,
nested to order 3: the k-th linearization equals k nested jvps, and its transpose equals vjp."""
import numpy as np
import pytest

import padax
from padax import lax

_RNG = np.random.default_rng(0)
_X = _RNG.uniform(-0.8, 0.8, (3, 4))
_V = _RNG.standard_normal((3, 4))
_CT_SEED = 1


@pytest.fixture(autouse=True)
def _x64():
    with padax.enable_x64(True):
        yield


@padax.custom_jvp
def _softplus(x):
    return lax.log1p(lax.exp(x))


@_softplus.defjvp
def _softplus_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _softplus(x), t * lax.logistic(x)


def _elementwise_structural(x):
    s = lax.sin(x)
    return [lax.exp(s) * lax.tanh(x) / (1.5 + lax.cos(x)), lax.sqrt(x * x + 1.0) ** 1.5,
            lax.reshape(lax.transpose(s, (1, 0)), (2, 6)), lax.pad(s, 0.5, ((1, 0, 1), (0, 1, 0))),
            lax.concatenate([s, x], 0), lax.rev(lax.slice(s, (0, 1), (3, 4)), (1,)),
            lax.select(x > 0, lax.exp(x), s), lax.clamp(-0.5, s, 0.5), lax.max(s, lax.cos(x)),
            lax.dynamic_update_slice(s, lax.exp(x[:2, :2]), (np.int32(1), np.int32(1))),
            lax.convert_element_type(s, np.float32), lax.erf(x), lax.lgamma(x + 2.0)]


def _reductions_indexing(x):
    s = lax.sin(x)
    return [lax.reduce_sum(s * s, (1,)), lax.reduce_max(s, (0,)), lax.reduce_prod(s + 2.0, (1,)),
            lax.cumsum(s, 1), lax.cumprod(s + 2.0, 0), lax.cummax(s, 1), lax.sort(s, 1),
            lax.top_k(s, 2)[0], lax.reduce_window_max(s, (2, 2), (1, 1), "VALID"),
            s[:, np.array([2, 0, 3])], s.at[:, np.array([1, 1])].add(x[:, :2]),
            s.at[:, np.array([0, 2])].set(lax.exp(x[:, :2])), padax.logsumexp(x, axis=1),
            lax.associative_scan(lax.mul, s + 1.5, axis=1), lax.cumlogsumexp(x, 1)]


def _linalg_dot_conv(x):
    a = x @ x.T + 3.0 * padax.eye(3, dtype="float64")
    img = lax.reshape(lax.sin(x), (1, 1, 3, 4))
    ker = lax.reshape(lax.cos(x[:2, :2]), (1, 1, 2, 2))
    return [padax.linalg.cholesky(a), padax.linalg.inv(a), padax.linalg.eigh(a)[0],
            lax.triangular_solve(a, x, left_side=True, lower=True),
            lax.conv_general_dilated(img, ker, (1, 1), "SAME"), lax.dot_general(x, lax.tanh(x), (((1,), (1,)), ((), ()))),
            lax.real(lax.fft(lax.convert_element_type(x, np.complex128), "FFT", (4,))),
            lax.custom_linear_solve(lambda z: a @ z, x[:, 0], lambda mv, b: padax.linalg.solve(a, b),
                                    lambda vm, b: padax.linalg.solve(a.T, b))]


def _control_custom(x):
    def body(c, xi):
        c = lax.tanh(c * xi + 0.1)
        return c, c * 2.0
    carry, ys = lax.scan(body, x[0], x)
    z = lax.cond(lax.reduce_sum(x, (0, 1)) > 0, lambda v: lax.sin(v) * v, lax.cos, ys)
    w = lax.fori_loop(0, 2, lambda i, v: lax.cos(v) * x, x)
    j = padax.jit(lambda v: lax.sin(v) * lax.exp(v))(x)
    r = padax.checkpoint(lambda v: lax.sin(lax.sin(v)))(x)
    root = lax.custom_root(lambda y: y ** 3 - lax.exp(x[0, 0]), np.float64(1.0),
                           lambda f, y0: lax.fori_loop(0, 30, lambda i, y: y - f(y) / (3 * y * y), y0),
                           lambda g, y: y / g(1.0))
    return [carry, z, w, j, r, _softplus(x), root]


def _forward_only(x):  # while_loop with a traced trip count: linearize works, transposition does not
    return lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, lax.sin(c[1]) + x), (0, x))[1]


GROUPS = {"elementwise_structural": _elementwise_structural, "reductions_indexing": _reductions_indexing,
          "linalg_dot_conv": _linalg_dot_conv, "control_custom": _control_custom}


def _directional(f, order):
    """x -> d^order/dt^order f(x + t v) at 0, written with nested linearize."""
    g = f
    for _ in range(order):
        g = (lambda h: lambda y: padax.linearize(h, y)[1](_V))(g)
    return g


def _nested_jvp(f, order):
    g = f
    for _ in range(order):
        g = (lambda h: lambda y: padax.jvp(h, (y,), (_V,))[1])(g)
    return g


def _close(a, b, rtol=1e-9):
    for x, y in zip(padax.tree.leaves(a), padax.tree.leaves(b)):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=rtol, atol=rtol)


_CASES = [(name, 3) for name in sorted(GROUPS) if name != "control_custom"] + [
    ("control_custom", 2), pytest.param("control_custom", 3, marks=pytest.mark.slow)]


@pytest.mark.parametrize("name, top", _CASES)
def test_linearize_and_transpose_to_order3(name, top):
    f = GROUPS[name]
    for order in range(top):
        g = _directional(f, order)               # the order-th directional derivative, via linearize
        if order:
            _close(g(_X), _nested_jvp(f, order)(_X))
        out, g_lin = padax.linearize(g, _X)      # one more linearization: order + 1 in all
        _close(g_lin(_V), padax.jvp(g, (_X,), (_V,))[1])
        rng = np.random.default_rng(_CT_SEED + order)
        ct = padax.tree.map(lambda o: rng.standard_normal(np.shape(o)).astype(np.asarray(o).dtype), out)
        (via_transpose,) = padax.linear_transpose(g_lin, _X)(ct)
        (via_vjp,) = padax.vjp(g, _X)[1](ct)
        _close(via_transpose, via_vjp)


def test_while_linearizes_but_does_not_transpose():
    out, f_lin = padax.linearize(_forward_only, _X)
    _close(f_lin(_V), padax.jvp(_forward_only, (_X,), (_V,))[1])
    with pytest.raises(ValueError, match="while_loop is not supported"):
        padax.linear_transpose(f_lin, _X)(np.ones((3, 4)))


def test_linear_transpose_of_custom_rules_and_calls():
    @padax.custom_jvp
    def double(v):
        return v * 2.0
    double.defjvp(lambda p, t: (double(p[0]), t[0] * 2.0))

    @padax.custom_vjp
    def triple(v):
        return v * 3.0
    triple.defvjp(lambda v: (triple(v), None), lambda r, g: (g * 3.0,))

    f = lambda v: double(v) + triple(v) + padax.jit(lambda u: u * 4.0)(v)  # noqa: E731
    (ct,) = padax.linear_transpose(f, np.ones(3))(np.ones(3))
    np.testing.assert_allclose(np.asarray(ct), [9.0, 9.0, 9.0])


def test_jvp_and_vjp_has_aux():
    f = lambda v: (lax.sin(v).sum(), {"aux": v * 2})  # noqa: E731
    out, tan, aux = padax.jvp(f, (_X,), (_V,), has_aux=True)
    np.testing.assert_allclose(float(tan), float((np.cos(_X) * _V).sum()), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(aux["aux"]), _X * 2)
    out, f_vjp, aux = padax.vjp(f, _X, has_aux=True)
    np.testing.assert_allclose(np.asarray(f_vjp(np.float64(1.0))[0]), np.cos(_X), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(aux["aux"]), _X * 2)
