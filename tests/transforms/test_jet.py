"""padax.jet (Taylor mode) against jax.experimental.jet, against repeated jvp, and against the
same functions with their control flow unrolled, to order 6."""
import math
import sys

import jax
import numpy as np
import pytest
from jax.experimental.jet import jet as jax_jet

import padax
from padax import lax
from padax.core.primitive import Primitive
from padax.transforms.jet import jet, no_taylor_rule, taylor_rules

jax.config.update("jax_enable_x64", True)

K6 = 6


@pytest.fixture(autouse=True)
def _x64():
    with padax.enable_x64(True):
        yield


def _rand_series(rng, xs, K):
    return [[rng.standard_normal(np.shape(x)) for _ in range(K)] for x in xs]


def _padax_jet_jit(f, xs, series):
    """jet of f under padax.jit (one compiled program per case)."""
    n, K = len(xs), len(series[0])

    def g(*flat):
        return jet(f, flat[:n], [list(flat[n + i * K:n + (i + 1) * K]) for i in range(n)])
    return padax.jit(g)(*xs, *[t for s in series for t in s])


def _jax_jet_jit(f, xs, series):
    n, K = len(xs), len(series[0])

    def g(*flat):
        return jax_jet(f, flat[:n], [list(flat[n + i * K:n + (i + 1) * K]) for i in range(n)])
    return jax.jit(g)(*xs, *[t for s in series for t in s])


def _terms_by_order(primal, terms_tree, K):
    """[order][leaf]: `terms_tree` has the structure of `primal` with each leaf a list of K terms."""
    lists = padax.tree.structure(primal).flatten_up_to(terms_tree)
    assert all(len(lst) == K for lst in lists)
    return [[np.asarray(lst[k]) for lst in lists] for k in range(K)]


def _assert_series_close(primal, got, want, K, rtol=1e-9):
    g, w = _terms_by_order(primal, got, K), _terms_by_order(primal, want, K)
    assert len(g[0]) == len(padax.tree.leaves(primal))
    for k in range(K):
        for a, b in zip(g[k], w[k]):
            scale = 1.0 + np.max(np.abs(b), initial=0.0)
            np.testing.assert_allclose(a, b, rtol=0, atol=rtol * scale, err_msg=f"order {k + 1}")


def _repeated_jvp(f, xs, series, K):
    """d^k/dt^k f(x(t)) at 0 for k = 1..K with x(t) = x0 + sum_k s_k t^k / k!, by K nested jvps in t."""
    def h(t):
        args = [x + sum(s * (t ** k / math.factorial(k)) for k, s in enumerate(ss, 1)) for x, ss in zip(xs, series)]
        return f(*args)
    gs = [h]
    one = padax.to_tensor(1.0, dtype="float64")
    for _ in range(K):
        gs.append((lambda g: lambda t: padax.jvp(g, (t,), (one,))[1])(gs[-1]))
    outs = padax.jit(lambda t: [g(t) for g in gs[1:]])(padax.to_tensor(0.0, dtype="float64"))
    leaves = [padax.tree.leaves(o) for o in outs]
    return padax.tree.structure(outs[0]).unflatten([[leaves[k][i] for k in range(K)] for i in range(len(leaves[0]))])


# ---- against jax.experimental.jet, order 6 -------------------------------------------------------------------

def _elementwise(L, x, y):
    pos = L.add(L.mul(x, x), 1.0)
    unit = L.mul(L.tanh(x), 0.5)
    return [L.exp(x), L.log(pos), L.sin(x), L.cos(x), L.sinh(x), L.cosh(x), L.tanh(x), L.logistic(x),
            L.sqrt(pos), L.rsqrt(pos), L.erf(x), L.erfc(x), L.erf_inv(unit), L.expm1(x), L.log1p(L.mul(x, x)),
            L.asinh(x), L.acosh(L.add(pos, 1.0)), L.atanh(unit), L.div(x, pos), L.mul(x, y),
            L.pow(pos, y), L.pow(pos, 2.5), L.integer_pow(x, 3),
            L.integer_pow(pos, -2), L.square(x), L.atan2(x, pos), L.abs(L.add(L.abs(x), 0.1)),
            L.max(x, L.mul(y, 0.9)), L.min(x, L.mul(y, 0.9)), L.neg(L.sub(x, y)),
            L.rem(L.add(L.mul(x, 3.0), 4.0), L.add(L.abs(y), 3.0)), L.clamp(np.full(5, -0.5), x, np.full(5, 0.5))]


_ORDERS = [3, pytest.param(K6, marks=pytest.mark.slow)]


@pytest.mark.parametrize("order", _ORDERS)
def test_elementwise_matches_jax_jet(order):
    rng = np.random.default_rng(0)
    x, y = rng.uniform(-0.9, 0.9, (5,)), rng.uniform(-0.9, 0.9, (5,))
    series = _rand_series(rng, (x, y), order)
    p0, ps = _padax_jet_jit(lambda a, b: _elementwise(lax, a, b), (x, y), series)
    j0, js = _jax_jet_jit(lambda a, b: _elementwise(jax.lax, a, b), (x, y), series)
    for a, b in zip(p0, j0):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12)
    _assert_series_close(p0, ps, [list(t) for t in js], order)


def _structural(L, x, w):
    dn = (((1,), (0,)), ((), ()))
    h = L.tanh(L.dot_general(x, w, dn))                                     # (4, 3)
    img = L.reshape(L.sin(x), (1, 1, 4, 5))
    ker = L.reshape(L.cos(L.slice(w, (0, 0), (4, 2))), (2, 1, 2, 2))
    conv = L.conv_general_dilated(img, ker, (1, 1), "SAME")
    s = L.sin(x)
    return [h, conv, L.reduce_sum(s, (1,)), L.reduce_max(s, (0,)), L.reduce_min(s, (1,)),
            L.cumsum(s, 1), L.cumprod(L.add(s, 2.0), 0), L.cummax(s, 1, reverse=True),
            L.pad(s, 0.25, ((1, 0, 1), (0, 2, 0))), L.concatenate([s, x], 0), L.reshape(s, (5, 4)),
            L.transpose(s, (1, 0)), L.slice(s, (1, 0), (3, 5), (1, 2)), L.rev(s, (0, 1)),
            L.broadcast_in_dim(L.reduce_sum(s, (0,)), (3, 5), (1,)), L.select_n(L.gt(x, 0.0), L.exp(x), s),
            L.dynamic_slice(s, (np.int32(1), np.int32(2)), (2, 2)),
            L.dynamic_update_slice(s, L.exp(L.slice(x, (0, 0), (2, 2))), (np.int32(1), np.int32(1)))]


@pytest.mark.parametrize("order", _ORDERS)
def test_structural_matches_jax_jet(order):
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((4, 5)), rng.standard_normal((5, 3)) * 0.5
    series = _rand_series(rng, (x, w), order)
    p0, ps = _padax_jet_jit(lambda a, b: _structural(lax, a, b), (x, w), series)
    j0, js = _jax_jet_jit(lambda a, b: _structural(jax.lax, a, b), (x, w), series)
    for a, b in zip(p0, j0):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12)
    _assert_series_close(p0, ps, [list(t) for t in js], order)


def test_mlp_jet_matches_jax_eagerly_and_under_jit():
    rng = np.random.default_rng(2)
    ws = [rng.standard_normal((3, 8)) * 0.5, rng.standard_normal((8, 8)) * 0.3, rng.standard_normal((8, 1))]
    dn = (((1,), (0,)), ((), ()))

    def mlp(L, x):
        for w in ws[:-1]:
            x = L.tanh(L.dot_general(x, w, dn))
        return L.dot_general(x, ws[-1], dn)

    x = rng.standard_normal((2, 3))
    series = [[rng.standard_normal(x.shape)] + [np.zeros(x.shape)] * (K6 - 1)]
    eager = jet(lambda a: mlp(lax, a), (x,), series)
    want = jax_jet(lambda a: mlp(jax.lax, a), (x,), series)
    np.testing.assert_allclose(np.asarray(eager[0]), np.asarray(want[0]), rtol=1e-12)
    _assert_series_close(eager[0], eager[1], list(want[1]), K6)
    jitted = _padax_jet_jit(lambda a: mlp(lax, a), (x,), series)
    _assert_series_close(jitted[0], jitted[1], list(want[1]), K6)


# ---- against repeated jvp (primitives jax's jet has no rule for) ---------------------------------------------

def _special(x):
    u = lax.mul(lax.tanh(x), 0.5)
    pos = lax.add(lax.mul(x, x), 1.5)
    return [lax.tan(u), lax.asin(u), lax.acos(u), lax.atan(x), lax.cbrt(pos), lax.lgamma(pos), lax.digamma(pos),
            lax.polygamma(np.full((3, 4), 2.0), pos), lax.exp2(x), lax.zeta(np.full((3, 4), 3.0), pos)]


def _selections(x):
    s = lax.sin(x)
    idx = np.array([[2, 0], [1, 1], [3, 0]])
    return [lax.reduce_prod(s, (1,)), lax.cummin(s, 0, reverse=True), lax.cumprod(s, 1, reverse=True),
            lax.reduce_window_max(s, (2, 2), (1, 1), "VALID"), lax.reduce_window_sum(s, (2, 3), (1, 2), "SAME"),
            lax.sort(s, 1), lax.sort_key_val(s, lax.exp(x), 0)[1], lax.top_k(s, 2)[0],
            padax.take_along_axis(s, padax.to_tensor(idx), 1),
            s.at[:, np.array([2, 0])].set(lax.exp(x[:, :2])), s.at[:, np.array([1, 1])].multiply(lax.cos(x[:, :2])),
            s.at[:, np.array([3, 3])].max(lax.cos(x[:, :2])), s.at[:, np.array([0, 0])].add(x[:, 2:4]),
            lax.fft(lax.convert_element_type(s, np.complex128), "FFT", (4,)),
            lax.select_and_gather_add(lax.exp(x), s, "ge", (2, 2), (1, 1)),
            lax.select_and_scatter_add(lax.exp(x[:2, :3]), s, "le", (2, 2), (1, 1)),
            padax.grad(lambda z: lax.reduce_sum(lax.square(lax.reduce_window_max(z, (2, 2), (1, 2), "VALID")),
                                                (0, 1)))(s)]


def _linalg(x):
    a = lax.add(lax.dot_general(x, x, (((1,), (1,)), ((), ()))), 4.0 * np.eye(3))
    return [padax.linalg.cholesky(a), lax.triangular_solve(a, x, left_side=True, lower=True),
            lax.triangular_solve(a, x[:2, :3], left_side=False, lower=False, transpose_a=True),
            padax.linalg.qr(x.T)[1], padax.linalg.eigh(a)[0], padax.linalg.svd(x, full_matrices=False)[1],
            padax.linalg.inv(a), padax.linalg.det(a)]


def _complex(x):
    z = lax.complex(x, lax.mul(x, 2.0))
    return [lax.real(lax.mul(lax.exp(z), lax.conj(z))), lax.abs(lax.add(z, 1.0)), lax.imag(lax.sin(z))]


@padax.custom_jvp
def _softplus(x):
    return lax.log1p(lax.exp(x))


@_softplus.defjvp
def _softplus_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _softplus(x), lax.mul(t, lax.logistic(x))


def _custom_and_transforms(x):
    return [_softplus(x), padax.vmap(lambda r: lax.dot_general(lax.sin(r), r, (((0,), (0,)), ((), ()))))(x),
            padax.grad(lambda z: lax.reduce_sum(lax.integer_pow(lax.sin(z), 3), (0, 1)))(x),
            padax.checkpoint(lambda z: lax.sin(z) * lax.exp(z))(x), padax.logsumexp(x, axis=1)]


REPEATED_CASES = {"special": _special, "selections": _selections, "linalg": _linalg, "complex": _complex,
                  "custom_and_transforms": _custom_and_transforms}


@pytest.mark.parametrize("name", sorted(REPEATED_CASES))
def test_matches_repeated_jvp(name):
    f = REPEATED_CASES[name]
    rng = np.random.default_rng(3)
    x = rng.uniform(-0.8, 0.8, (3, 4))
    K = 3 if name in ("special", "custom_and_transforms") else 2
    series = _rand_series(rng, (x,), K)
    out, got = _padax_jet_jit(f, (x,), series)
    _assert_series_close(out, got, _repeated_jvp(f, (x,), series, K), K, rtol=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(REPEATED_CASES))
def test_matches_repeated_jvp_order6(name):
    f = REPEATED_CASES[name]
    rng = np.random.default_rng(4)
    x = rng.uniform(-0.8, 0.8, (3, 4))
    series = _rand_series(rng, (x,), K6)
    out, got = _padax_jet_jit(f, (x,), series)
    _assert_series_close(out, got, _repeated_jvp(f, (x,), series, K6), K6, rtol=1e-7)


def _ode_mlp(x):
    """The output-ODE rules (tanh, logistic, tan), squares and matmuls: each Cauchy square and
    product coefficient is formed once (see jet_rules._common.square_coefficient)."""
    w = np.linspace(-0.6, 0.6, 16).reshape(4, 4)
    h = lax.tanh(lax.dot_general(x, w, (((1,), (0,)), ((), ()))))
    h = lax.logistic(lax.dot_general(h, w.T, (((1,), (0,)), ((), ())))) * np.full(h.shape, 1.3)
    return lax.tan(lax.square(h) * 0.5) + h * h


def test_mlp_order6_matches_repeated_jvp():
    rng = np.random.default_rng(5)
    x = rng.uniform(-0.8, 0.8, (3, 4))
    full = _rand_series(rng, (x,), K6)
    one_direction = [[full[0][0]] + [np.zeros_like(x)] * (K6 - 1)]   # the benchmark's series: known zeros
    for series in (full, one_direction):
        out, got = _padax_jet_jit(_ode_mlp, (x,), series)
        _assert_series_close(out, got, _repeated_jvp(_ode_mlp, (x,), series, K6), K6, rtol=1e-9)


def test_custom_jvp_rule_is_used():
    """A deliberately different custom rule (d/dx = 2 cos x) shows in every order of the series."""
    @padax.custom_jvp
    def f(x):
        return lax.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), lax.mul(lax.mul(t, 2.0), lax.cos(x))

    x = np.float64(0.3)
    _, (d1, d2, d3) = jet(f, (x,), ([1.0, 0.0, 0.0],))
    np.testing.assert_allclose([float(d1), float(d2), float(d3)],
                               [2 * np.cos(x), -2 * np.sin(x), -2 * np.cos(x)], rtol=1e-12)


# ---- control flow: against the same function unrolled in Python (order 6), and repeated jvp --------------

def _scan_body(c, x):
    c = lax.tanh(lax.add(lax.mul(c, x), 0.1))
    return c, lax.mul(c, 2.0)


def _control(x, unrolled):
    if unrolled:
        c, ys = x[0], []
        for i in range(x.shape[0]):
            c, y = _scan_body(c, x[i])
            ys.append(y)
        ys = padax.stack(ys)
    else:
        c, ys = lax.scan(_scan_body, x[0], x)
    pos = float(np.sum(np.asarray(x_point))) > 0
    if unrolled:
        z = lax.mul(lax.sin(ys), ys) if pos else lax.cos(ys)
    else:
        z = lax.cond(lax.reduce_sum(x, (0, 1)) > 0, lambda v: lax.mul(lax.sin(v), v), lax.cos, ys)
    w = x
    if unrolled:
        for _ in range(3):
            w = lax.add(lax.sin(w), x)
    else:
        w = lax.while_loop(lambda cw: cw[0] < 3, lambda cw: (cw[0] + 1, lax.add(lax.sin(cw[1]), x)), (0, x))[1]
    if unrolled:
        v = x
        for i in range(2):
            v = lax.mul(lax.cos(v), x)
        u = x
        for i in range(2):
            u = lax.exp(lax.mul(u, 0.3)) + float(i)
    else:
        v = lax.fori_loop(0, 2, lambda i, v: lax.mul(lax.cos(v), x), x)
        u = lax.fori_loop(padax.to_tensor(0), padax.to_tensor(2),
                          lambda i, u: lax.exp(lax.mul(u, 0.3)) + lax.convert_element_type(i, np.float64), x)
    inner = (lambda a: lax.mul(lax.sin(a), lax.exp(a))) if unrolled else padax.jit(lambda a: lax.mul(lax.sin(a),
                                                                                                      lax.exp(a)))
    return [c, z, w, v, u, inner(x)]


x_point = np.random.default_rng(5).uniform(-0.8, 0.8, (3, 4))


def test_control_flow_matches_unrolled_order6():
    rng = np.random.default_rng(6)
    series = _rand_series(rng, (x_point,), K6)
    out, got = _padax_jet_jit(lambda a: _control(a, False), (x_point,), series)
    _, want = jet(lambda a: _control(a, True), (x_point,), series)
    _assert_series_close(out, got, want, K6, rtol=1e-10)


def test_control_flow_matches_repeated_jvp():
    rng = np.random.default_rng(7)
    series = _rand_series(rng, (x_point,), 2)
    out, got = jet(lambda a: _control(a, False), (x_point,), series)
    _assert_series_close(out, got, _repeated_jvp(lambda a: _control(a, False), (x_point,), series, 2), 2)


@pytest.mark.slow
def test_control_flow_matches_repeated_jvp_order6():
    rng = np.random.default_rng(8)
    series = _rand_series(rng, (x_point,), K6)
    out, got = _padax_jet_jit(lambda a: _control(a, False), (x_point,), series)
    _assert_series_close(out, got, _repeated_jvp(lambda a: _control(a, False), (x_point,), series, K6), K6,
                         rtol=1e-8)


# ---- the public API ---------------------------------------------------------------------------------------

def test_scaling_pytrees_ints_and_order0():
    x = np.float64(0.4)
    _, d = jet(lax.exp, (x,), ([1.0, 0.0, 0.0],))
    np.testing.assert_allclose([float(t) for t in d], [np.exp(x)] * 3, rtol=1e-13)
    _, c = jet(lax.exp, (x,), ([1.0, 0.0, 0.0],), factorial_scaled=False)  # plain Taylor coefficients
    np.testing.assert_allclose([float(t) for t in c], [np.exp(x), np.exp(x) / 2, np.exp(x) / 6], rtol=1e-13)
    tree = {"a": np.float64(0.4), "n": np.int64(3)}
    out, terms = jet(lambda p: {"y": lax.mul(p["a"], lax.convert_element_type(p["n"], np.float64)), "n": p["n"]},
                     (tree,), ([{"a": 1.0, "n": np.int64(0)}, {"a": 0.0, "n": np.int64(0)}],))
    assert float(out["y"]) == pytest.approx(1.2) and int(out["n"]) == 3
    np.testing.assert_allclose([float(t) for t in terms["y"]], [3.0, 0.0])
    assert [int(t) for t in terms["n"]] == [0, 0]
    y0, ys = jet(lax.sin, (x,), ([],))
    assert ys == [] and float(y0) == pytest.approx(np.sin(0.4))


def test_composes_with_grad_and_vmap():
    x = np.linspace(-0.5, 0.5, 4)

    def third(z):  # d^3/dt^3 sin(z + t) at 0 = -cos(z), summed
        return lax.reduce_sum(jet(lax.sin, (z,), ([np.ones(4), np.zeros(4), np.zeros(4)],))[1][2], (0,))

    np.testing.assert_allclose(np.asarray(padax.grad(third)(x)), np.sin(x), rtol=1e-12)
    batched = padax.vmap(lambda z: jet(lax.exp, (z,), ([1.0, 0.0],))[1][1])(x)
    np.testing.assert_allclose(np.asarray(batched), np.exp(x), rtol=1e-12)
    _, hv = jet(padax.grad(lambda z: lax.reduce_sum(lax.integer_pow(z, 4), (0,))), (x,), ([np.ones(4)],))
    np.testing.assert_allclose(np.asarray(hv[0]), 12 * x ** 2, rtol=1e-12)


def test_bad_input_errors():
    x = np.float64(0.5)
    with pytest.raises(ValueError, match="inconsistent lengths"):
        jet(lambda a, b: a * b, (x, x), ([1.0], [1.0, 0.0]))
    with pytest.raises(TypeError, match=r"term 1 of argument 0 has f64\[3\]"):
        jet(lax.sin, (x,), ([np.ones(3)],))
    with pytest.raises(TypeError, match="series must be"):
        jet(lax.sin, x, ([1.0],))
    myprim = Primitive("my_op")
    myprim.def_abstract_eval(lambda a: a)
    myprim.def_impl(lambda a: a)
    with pytest.raises(TypeError, match="primitive 'my_op' has no Taylor rule"):
        jet(lambda a: myprim.bind(lax.sin(a)), (x,), ([1.0],))


@pytest.mark.parametrize("f, x, what", [
    (lax.abs, np.array([0.0, 1.0]), "abs is not smooth at 0"),
    (lambda a: lax.max(a, np.zeros(2)), np.array([0.0, 1.0]), "max is not smooth"),
    (lax.floor, np.array([2.0, 0.5]), "floor is not smooth at integers"),
    (lambda a: lax.reduce_max(lax.concatenate([a, a * 2], 0), (0,)), np.array([0.0, -1.0]), "reduce_max"),
    (lambda a: lax.sort(lax.concatenate([a, a * 2], 0), 0), np.array([0.0, 1.0]), "sort is not smooth"),
    (lambda a: lax.cummax(lax.concatenate([a, a * 2], 0), 0), np.array([0.0, -1.0]), "cummax is not smooth"),
])
def test_non_smooth_points_raise(f, x, what):
    with pytest.raises(ValueError, match=what):
        jet(f, (x,), ([np.ones(2), np.zeros(2)],))


def test_smooth_points_of_non_smooth_functions_pass():
    _, (d1,) = jet(lax.abs, (np.array([-2.0, 3.0]),), ([np.ones(2)],))
    np.testing.assert_allclose(np.asarray(d1), [-1.0, 1.0])
    _, (d1,) = jet(lambda a: lax.max(a, a), (np.array([0.5]),), ([np.ones(1)],))  # a tie with equal series
    np.testing.assert_allclose(np.asarray(d1), [1.0])


def test_saved_program_and_custom_lin_explain_themselves():
    from padax.functional.lax.custom import custom_lin_p
    from padax.functional.lax.saved import saved_program_p
    assert "forward computation only" in no_taylor_rule[saved_program_p]
    assert "custom_vjp" in no_taylor_rule[custom_lin_p]


def _all_primitives():
    import padax.lowering.rules  # noqa: F401  (the rules load on the first lowering)
    from padax.lowering.mlir import lowering_rules
    prims = set(lowering_rules)
    for name, mod in list(sys.modules.items()):
        if name.startswith("padax.") and mod is not None:
            prims.update(v for v in vars(mod).values() if isinstance(v, Primitive))
    return prims


def test_every_differentiable_primitive_has_a_taylor_rule():
    prims = _all_primitives()
    missing = sorted(p.name for p in prims if p.jvp_rule is not None and p not in taylor_rules
                     and p not in no_taylor_rule)
    assert not missing, f"primitives with a jvp rule but no Taylor rule (or registered reason): {missing}"
    assert len([p for p in prims if p in taylor_rules]) >= 125


def test_checks_debug_callbacks_and_names_pass_through():
    seen = []

    def plain(a):
        return lax.sin(padax.ad_checkpoint.checkpoint_name(lax.exp(a), "h"))

    def f(a, bound=-10.0):
        padax.debug.callback(lambda v: seen.append(np.asarray(v)), a)
        padax.checkify.check(lax.reduce_min(a, (0,)) > bound, "too small")
        return plain(a)

    x = np.array([0.3, -0.2])
    series = [np.ones(2), np.zeros(2), np.ones(2)]
    out, got = jet(f, (x,), (series,))
    _assert_series_close(out, got, _repeated_jvp(plain, (x,), [series], 3), 3)
    assert seen and np.allclose(seen[0], x)
    with pytest.raises(padax.checkify.CheckifyError, match="too small"):
        jet(lambda a: f(a, bound=0.0), (x,), (series,))


def test_host_functions_and_refused_derivatives_say_so():
    from padax.functional.lax.custom import not_differentiable
    x = np.array([0.3, 0.5])
    host = lambda a: padax.pure_callback(np.sin, padax.ShapeDtypeStruct((2,), np.float64), a)  # noqa: E731
    with pytest.raises(Exception, match="pure_callback"):
        jet(host, (x,), ([np.ones(2)],))
    with pytest.raises(TypeError, match="order v is refused"):
        jet(lambda a: lax.sin(not_differentiable(a, "order v is refused")), (x,), ([np.ones(2)],))
    with pytest.raises(TypeError, match="zeta"):
        jet(lambda a: lax.zeta(a, np.full(2, 2.0)), (x + 2.0,), ([np.ones(2)],))


def test_custom_jvp_closing_over_a_series_is_an_error():
    def outer(a):
        @padax.custom_jvp
        def f(x):
            return lax.sin(x) * a
        f.defjvp(lambda p, t: (f(p[0]), t[0] * lax.cos(p[0]) * a))
        return f(np.float64(0.3))

    with pytest.raises(TypeError, match="closes over a value that carries a Taylor series"):
        jet(outer, (np.float64(1.0),), ([1.0],))
