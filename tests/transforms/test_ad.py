"""grad/vjp/jvp/linearize/jacobians/hessian, custom rules, composition with jit and vmap."""
import numpy as np
import pytest

import padax
import padax.lax as lax
from padax.test_util import check_grads


def _sum(x):
    return lax.reduce_sum(x, tuple(range(np.ndim(x) if not hasattr(x, "ndim") else x.ndim)))


def f_scalar(x):
    return _sum(lax.mul(lax.sin(x), lax.exp(lax.mul(x, 0.3))))


def test_grad_matches_analytic():
    x = np.linspace(-1, 1, 5).astype(np.float32)
    g = padax.grad(f_scalar)(x)
    expected = np.exp(0.3 * x) * (np.cos(x) + 0.3 * np.sin(x))
    np.testing.assert_allclose(g.numpy(), expected, rtol=1e-5)


def test_value_and_grad_argnums_and_pytrees():
    def loss(params, x):
        return _sum(lax.square(lax.add(lax.mul(params["w"], x), params["b"])))

    params = {"w": np.float32(2.0) * np.ones(3, np.float32), "b": np.ones(3, np.float32)}
    x = np.arange(3, dtype=np.float32)
    val, g = padax.value_and_grad(loss)(params, x)
    r = 2 * x + 1
    np.testing.assert_allclose(val.numpy(), np.sum(r ** 2), rtol=1e-6)
    np.testing.assert_allclose(g["w"].numpy(), 2 * r * x, rtol=1e-6)
    np.testing.assert_allclose(g["b"].numpy(), 2 * r, rtol=1e-6)
    gw, gx = padax.grad(loss, argnums=(0, 1))(params, x)
    np.testing.assert_allclose(gx.numpy(), 2 * r * 2, rtol=1e-6)


def test_has_aux():
    def f(x):
        y = lax.mul(x, x)
        return _sum(y), {"y": y}

    g, aux = padax.grad(f, has_aux=True)(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(g.numpy(), [2, 4])
    np.testing.assert_allclose(aux["y"].numpy(), [1, 4])
    assert isinstance(aux["y"], padax.Tensor)


@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_grad_of_grad_to_order_4(order):
    f = lambda x: lax.mul(lax.sin(x), lax.exp(x))  # noqa: E731
    g = f
    for _ in range(order):
        g = padax.grad(g)
    x = 0.7
    # derivatives of sin(x) e^x: e^x * sqrt(2)^n * sin(x + n pi/4)
    expected = np.exp(x) * np.sqrt(2) ** order * np.sin(x + order * np.pi / 4)
    np.testing.assert_allclose(float(g(x)), expected, rtol=2e-5)


def test_check_grads_composite_float64():
    with padax.enable_x64():
        x = np.random.default_rng(0).uniform(0.5, 1.5, (3,))
        check_grads(lambda x: lax.div(lax.tanh(x), lax.add(lax.square(x), 1.0)), (x,), order=2)


def test_jvp_and_linearize_agree():
    x = np.array([0.1, 0.2, 0.3], np.float32)
    t = np.array([1.0, -1.0, 0.5], np.float32)
    y, ty = padax.jvp(lambda x: lax.tanh(lax.mul(x, 2.0)), (x,), (t,))
    y2, f_jvp = padax.linearize(lambda x: lax.tanh(lax.mul(x, 2.0)), x)
    np.testing.assert_allclose(ty.numpy(), f_jvp(t).numpy(), rtol=1e-6)
    np.testing.assert_allclose(ty.numpy(), 2 * (1 - np.tanh(2 * x) ** 2) * t, rtol=1e-5)


def test_vjp_of_vector_function():
    x = np.array([1.0, 2.0], np.float32)
    y, f_vjp = padax.vjp(lambda x: lax.mul(x, x), x)
    (ct,) = f_vjp(np.array([1.0, 10.0], np.float32))
    np.testing.assert_allclose(ct.numpy(), [2.0, 40.0])


def test_jacfwd_equals_jacrev_on_non_square_map():
    def f(x):
        return lax.concatenate([lax.sin(x), x * lax.reduce_sum(x, (0,))], 0)

    x = np.array([0.3, -0.2, 0.9], np.float32)
    jf = padax.jacfwd(f)(x)
    jr = padax.jacrev(f)(x)
    assert jf.shape == (6, 3) and jr.shape == (6, 3)
    np.testing.assert_allclose(jf.numpy(), jr.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(jf.numpy()[:3], np.diag(np.cos(x)), atol=1e-6)


def test_hessian_vs_finite_differences():
    with padax.enable_x64():
        def f(x):
            return _sum(lax.sin(x) * lax.reduce_sum(lax.square(x), (0,)))
        x = np.array([0.3, -0.5, 0.8])
        h = padax.hessian(f)(x).numpy()
        eps = 1e-5
        num = np.zeros((3, 3))
        for i in range(3):
            e = np.zeros(3)
            e[i] = eps
            num[:, i] = (padax.grad(f)(x + e).numpy() - padax.grad(f)(x - e).numpy()) / (2 * eps)
        np.testing.assert_allclose(h, num, rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(h, h.T, atol=1e-12)


def test_jit_of_grad_and_grad_of_jit():
    x = np.linspace(0, 1, 4).astype(np.float32)
    g1 = padax.jit(padax.grad(f_scalar))(x)
    g2 = padax.grad(padax.jit(f_scalar))(x)
    g3 = padax.grad(f_scalar)(x)
    np.testing.assert_allclose(g1.numpy(), g3.numpy(), rtol=1e-6)
    np.testing.assert_allclose(g2.numpy(), g3.numpy(), rtol=1e-6)


def test_per_example_gradients_vmap_of_grad():
    w = np.array([0.5, -1.0, 2.0], np.float32)
    xs = np.random.default_rng(1).standard_normal((5, 3)).astype(np.float32)

    def loss(w, x):
        return lax.tanh(lax.reduce_sum(lax.mul(w, x), (0,)))

    per_ex = padax.vmap(padax.grad(loss), in_axes=(None, 0))(w, xs)
    loop = np.stack([padax.grad(loss)(w, xs[i]).numpy() for i in range(5)])
    np.testing.assert_allclose(per_ex.numpy(), loop, rtol=1e-5, atol=1e-6)


def test_stop_gradient():
    g = padax.grad(lambda x: lax.mul(x, padax.stop_gradient(x)))(3.0)
    assert float(g) == 3.0


def test_integer_inputs_get_no_gradient_but_work_in_jvp():
    def f(x, n):
        return lax.mul(x, lax.convert_element_type(n, np.float32))

    g = padax.grad(f)(2.0, np.int32(3))
    assert float(g) == 3.0
    with pytest.raises(TypeError, match="argument #1 has dtype int32"):
        padax.grad(f, argnums=1)(2.0, np.int32(3))


def test_grad_of_non_scalar_output_says_use_jacrev():
    with pytest.raises(TypeError, match="jacrev") as e:
        padax.grad(lambda x: lax.mul(x, 2.0))(np.ones(3, np.float32))
    assert "f32[3]" in str(e.value) and "test_ad.py" in str(e.value)


# ---- custom rules ---------------------------------------------------------------------

@padax.custom_jvp
def safe_log1pexp(x):
    return lax.log1p(lax.exp(x))


@safe_log1pexp.defjvp
def _safe_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return safe_log1pexp(x), lax.mul(t, lax.logistic(x))


def test_custom_jvp_used_in_forward_and_reverse_and_under_jit_vmap():
    x = np.array([-2.0, 0.0, 3.0], np.float32)
    _, t = padax.jvp(safe_log1pexp, (x,), (np.ones(3, np.float32),))
    sig = 1 / (1 + np.exp(-x))
    np.testing.assert_allclose(t.numpy(), sig, rtol=1e-6)
    g = padax.grad(lambda x: _sum(safe_log1pexp(x)))(x)
    np.testing.assert_allclose(g.numpy(), sig, rtol=1e-6)
    gj = padax.jit(padax.grad(lambda x: _sum(safe_log1pexp(x))))(x)
    np.testing.assert_allclose(gj.numpy(), sig, rtol=1e-6)
    gv = padax.vmap(padax.grad(safe_log1pexp))(x)
    np.testing.assert_allclose(gv.numpy(), sig, rtol=1e-6)
    # second order through the custom rule: d/dx sigmoid = s (1 - s)
    gg = padax.grad(padax.grad(safe_log1pexp))(0.5)
    s = 1 / (1 + np.exp(-0.5))
    np.testing.assert_allclose(float(gg), s * (1 - s), rtol=1e-5)


@padax.custom_vjp
def clip_grad(x):
    return x


def _clip_fwd(x):
    return x, None


def _clip_bwd(res, g):
    return (lax.clamp(-1.0, g, 1.0),)


clip_grad.defvjp(_clip_fwd, _clip_bwd)


def test_custom_vjp_under_jit_and_vmap():
    x = np.array([1.0, 2.0], np.float32)
    g = padax.grad(lambda x: _sum(lax.mul(clip_grad(x), 5.0)))(x)
    np.testing.assert_allclose(g.numpy(), [1.0, 1.0])
    gj = padax.jit(padax.grad(lambda x: _sum(lax.mul(clip_grad(x), 5.0))))(x)
    np.testing.assert_allclose(gj.numpy(), [1.0, 1.0])
    gv = padax.vmap(padax.grad(lambda x: lax.mul(clip_grad(x), 0.5)))(x)
    np.testing.assert_allclose(gv.numpy(), [0.5, 0.5])


def test_custom_vjp_residuals_as_pytree():
    @padax.custom_vjp
    def f(x, y):
        return lax.mul(x, y)

    f.defvjp(lambda x, y: (lax.mul(x, y), {"x": x, "y": y}),
             lambda res, g: (lax.mul(g, res["y"]), lax.mul(g, res["x"])))
    gx, gy = padax.grad(f, argnums=(0, 1))(3.0, 4.0)
    assert float(gx) == 4.0 and float(gy) == 3.0


def test_custom_vjp_bad_bwd_structure_is_reported():
    @padax.custom_vjp
    def f(x, y):
        return lax.mul(x, y)

    f.defvjp(lambda x, y: (lax.mul(x, y), (x, y)), lambda res, g: (g,))
    with pytest.raises(TypeError, match="bwd must return"):
        padax.grad(f)(3.0, 4.0)


def test_custom_vjp_bad_bwd_shape_is_reported():
    @padax.custom_vjp
    def f(x):
        return lax.mul(x, 2.0)

    f.defvjp(lambda x: (lax.mul(x, 2.0), None), lambda res, g: (np.ones(5, np.float32),))
    with pytest.raises(TypeError, match="shape"):
        padax.grad(lambda x: _sum(f(x)))(np.ones(3, np.float32))


def test_linear_transpose():
    def f(x):
        return lax.mul(lax.concatenate([x, x], 0), 3.0)

    ft = padax.linear_transpose(f, np.ones(2, np.float32))
    (ct,) = ft(np.array([1.0, 2.0, 3.0, 4.0], np.float32))
    np.testing.assert_allclose(ct.numpy(), [12.0, 18.0])


def test_vjp_and_linearize_of_a_function_with_an_integer_output():
    from padax.core.ad_util import float0
    x = padax.device_put(np.array([1.0, 3.0, 2.0], np.float32))
    f = lambda x: (x * x, padax.argmax(x))  # noqa: E731
    out, f_vjp = padax.vjp(f, x)
    assert int(out[1]) == 1
    (g,) = f_vjp((padax.device_put(np.ones(3, np.float32)), np.zeros((), float0)))
    np.testing.assert_allclose(g.numpy(), [2, 6, 4])
    _, f_jvp = padax.linearize(f, x)
    t, t_int = f_jvp(padax.device_put(np.ones(3, np.float32)))
    np.testing.assert_allclose(t.numpy(), [2, 6, 4])
    assert t_int.dtype == float0 and t_int.shape == ()


def test_float0_tangents_in_jvp_and_vmap():
    """As JAX: an integer primal takes a float0 tangent, and vmap of a jvp with an integer output
    returns batched float0 zeros (both raised a dtype error)."""
    from padax.core.ad_util import float0
    x, n = np.array([1.0, 2.0], np.float32), np.array([3, 4], np.int32)
    _, t = padax.jvp(lambda a, b: a * b, (x, n), (np.ones(2, np.float32), np.zeros(2, float0)))
    np.testing.assert_array_equal(t.numpy(), [3.0, 4.0])
    with pytest.raises(TypeError, match="float0"):
        padax.jvp(padax.sin, (x,), (np.zeros(2, float0),))
    out, t = padax.vmap(lambda a: padax.jvp(lambda b: b.astype("int32"), (a,), (a,)), out_axes=1)(np.ones((2, 3)))
    assert out.shape == (3, 2) and t.dtype == float0 and t.shape == (3, 2)


def test_vjp_cotangent_dtypes(x64):
    x = padax.device_put(np.array(2.0))
    out, f_vjp = padax.vjp(lambda x: 1.0 / x, x)
    assert out.dtype == np.float64
    (g,) = f_vjp(1.0)  # a Python number adopts the output's dtype
    assert g.dtype == np.float64 and abs(float(g) + 0.25) < 1e-15
    with pytest.raises(TypeError, match="cotangent #0 has dtype float32 but the output has dtype float64"):
        f_vjp(padax.device_put(np.float32(1.0)))


def test_a_primitive_without_rules_names_the_missing_rule():
    from padax.core.errors import MissingRuleError
    from padax.core.primitive import Primitive
    p = Primitive("my_double")
    p.def_abstract_eval(lambda x: x)
    x = padax.device_put(np.array([1.0, 2.0], np.float32))
    with pytest.raises(MissingRuleError, match="differentiation: primitive 'my_double' has no jvp_rule"):
        padax.jvp(lambda v: p.bind(v), (x,), (x,))
    with pytest.raises(MissingRuleError, match="vmap: primitive 'my_double' has no batch_rule"):
        padax.vmap(lambda v: p.bind(v))(x.reshape([2, 1]))
    p.def_jvp(lambda primals, tangents: (primals[0] * 2.0, p.bind(*tangents)))
    with pytest.raises(MissingRuleError, match="reverse-mode differentiation: primitive 'my_double' has no "
                                              "transpose_rule"):
        padax.grad(lambda v: lax.reduce_sum(p.bind(v), (0,)))(x)


def test_custom_vjp_with_integer_and_bool_arguments_under_grad():
    """Integer and bool inputs of a custom_vjp function have no tangent: grad, jit(grad) and vmap(grad)
    differentiate the float ones (they failed with 'dtype float0 is not supported')."""
    @padax.custom_vjp
    def f(x, mask, n):
        return padax.where(mask, x * n, x)

    def fwd(x, mask, n):
        return f(x, mask, n), (mask, n)

    def bwd(res, g):
        mask, n = res
        return padax.where(mask, g * n, g), None, None

    f.defvjp(fwd, bwd)
    x = padax.to_tensor([1.0, 2.0, 3.0])
    mask, n = padax.to_tensor([True, False, True]), padax.to_tensor([3, 4, 5])
    want = np.array([3.0, 1.0, 5.0], np.float32)
    loss = lambda x: f(x, mask, n).sum()
    np.testing.assert_array_equal(padax.grad(loss)(x).numpy(), want)
    np.testing.assert_array_equal(padax.jit(padax.grad(loss))(x).numpy(), want)
    np.testing.assert_array_equal(padax.vmap(padax.grad(loss))(padax.stack([x, x])).numpy(), np.stack([want] * 2))


def test_jacobians_of_integer_inputs_and_outputs_follow_jax():
    """jax's dtype rules (checked against the oracle): jacfwd and jacrev refuse integer inputs (jacrev
    takes them with allow_int, giving zeros of the input's dtype); jacrev refuses integer outputs; jacfwd
    gives an integer output's Jacobian as zeros of its dtype."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    xi, xf = np.array([1, 2], np.int32), np.array([1.0, 2.0], np.float32)
    cases = [("jacrev", lambda x: x * 2, xi, {}, "jacrev requires real- or complex-valued inputs"),
             ("jacfwd", lambda x: x * 2, xi, {}, "jacfwd requires real-valued inputs"),
             ("jacrev", lambda x: (x * 2).astype("int32"), xf, {}, "jacrev requires real-valued outputs"),
             ("jacrev", lambda x: x * 2, xi, {"allow_int": True}, "jacrev requires real-valued outputs"),
             ("hessian", lambda x: (x * 2).sum(), xi, {}, "jacfwd requires real-valued inputs")]
    for name, f, x, kw, msg in cases:
        with pytest.raises(TypeError, match=msg):
            getattr(jax, name)(f, **kw)(jnp.asarray(x))
        with pytest.raises(TypeError, match=msg + r".*test_ad.py"):
            getattr(padax, name)(f, **kw)(padax.to_tensor(x))
    # allow_int: zeros for the integer input, the ordinary Jacobian for the float one
    x8 = np.array([1, 2], np.int8)
    want = jax.jacrev(lambda a, b: a * b, argnums=(0, 1), allow_int=True)(jnp.asarray(xf), jnp.asarray(x8))
    got = padax.jacrev(lambda a, b: a * b, argnums=(0, 1), allow_int=True)(padax.to_tensor(xf), padax.to_tensor(x8))
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(np.asarray(g), np.asarray(w))
    # jacfwd of an integer output: zeros of the output's dtype
    want = jax.jacfwd(lambda x: ((x * 2).astype(jnp.int32), x ** 2))(jnp.asarray(xf))
    got = padax.jacfwd(lambda x: ((x * 2).astype("int32"), x ** 2))(padax.to_tensor(xf))
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(np.asarray(g), np.asarray(w))
