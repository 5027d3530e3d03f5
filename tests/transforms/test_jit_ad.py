"""Differentiating a nested jit keeps it compiled: jvp of a jit is a jit of the jvp'd program,
partial evaluation splits it into a known jit (run now, as one executable) and an unknown jit
over residuals, and the transpose of a linear jit is a jit of the transposed program."""
import collections

import numpy as np
import pytest

import padax
import padax.core.primitive as primitive_mod
import padax.lax as lax
import padax.transforms.jit_primitive as jit_mod
from padax.functional.lax.call import jit_p
from padax.test_util import check_grads

jax = pytest.importorskip("jax")
jnp = jax.numpy


def t(a, dtype=np.float32):
    return padax.device_put(np.asarray(a, dtype))


def close(a, b, rtol=2e-5, atol=2e-6):
    for x, y in zip(padax.tree.leaves(a), jax.tree.leaves(b)):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=rtol, atol=atol)


def twenty_ops(np_):
    """A function of 20 elementwise/reduction ops, written against padax or jax.numpy."""
    def f(x):
        a = np_.sin(x)
        b = a * x
        c = np_.exp(b * 0.1)
        d = c + a
        e = np_.tanh(d)
        g = e * e
        h = g - x
        i = np_.cos(h)
        j = i * 2.0
        k = j + b
        m = np_.log(k * k + 1.0)
        n = m / (1.0 + a * a)
        o = np_.sqrt(n * n + 1.0)
        return np_.sum(o * e)
    return f


class _Counter:
    """Counts eager single-op dispatches (per primitive) and jit_p executions."""

    def __init__(self, monkeypatch):
        self.ops = collections.Counter()
        self.jits = 0
        default, jit_impl = primitive_mod._default_impl, jit_p._impl

        def counting_default(prim, args, params):
            self.ops[prim.name] += 1
            return default(prim, args, params)

        def counting_jit(*args, **params):
            self.jits += 1
            return jit_impl(*args, **params)

        monkeypatch.setattr(primitive_mod, "_default_impl", counting_default)
        monkeypatch.setattr(jit_p, "_impl", counting_jit)


def _jit_eqns(jaxpr):
    return [e for e in jaxpr.jaxpr.eqns if e.primitive is jit_p]


# -- the point of it all: forward and backward run as a few compiled programs ------------------

def test_grad_of_jit_runs_compiled_not_op_by_op(monkeypatch):
    f = twenty_ops(padax)
    x = t(np.linspace(-1.0, 1.0, 7))
    g = padax.grad(padax.jit(f))
    g(x)  # compile
    counter = _Counter(monkeypatch)
    got = g(x)
    assert counter.jits == 2, counter.jits  # the known (forward) program and the transposed one
    assert sum(counter.ops.values()) <= 2, dict(counter.ops)  # no op-by-op forward or backward
    want = jax.grad(jax.jit(twenty_ops(jnp)))(jnp.asarray(np.linspace(-1.0, 1.0, 7), np.float32))
    close(got, want)
    monkeypatch.undo()
    close(padax.grad(f)(x), want)  # the un-jitted (op by op) derivative agrees too


def test_repeated_grad_of_jit_compiles_nothing_new(monkeypatch):
    f = twenty_ops(padax)
    x = t(np.linspace(-1.0, 1.0, 5))
    g = padax.grad(padax.jit(f))
    first = g(x)
    compiles = []
    real = jit_mod.compile_jaxpr
    monkeypatch.setattr(jit_mod, "compile_jaxpr", lambda *a, **k: compiles.append(1) or real(*a, **k))
    again = g(t(np.linspace(0.0, 2.0, 5)))
    assert compiles == []
    np.testing.assert_allclose(g(x).numpy(), first.numpy(), rtol=1e-6)
    want = jax.grad(twenty_ops(jnp))(jnp.linspace(0.0, 2.0, 5, dtype=np.float32))
    close(again, want)


def test_jvp_and_linearize_of_jit_are_one_program_each(monkeypatch):
    f = twenty_ops(padax)
    x, v = t(np.linspace(-1.0, 1.0, 6)), t(np.linspace(0.5, 1.5, 6))
    jf = padax.jit(f)
    padax.jvp(jf, (x,), (v,))
    counter = _Counter(monkeypatch)
    y, ty = padax.jvp(jf, (x,), (v,))
    assert counter.jits == 1 and sum(counter.ops.values()) == 0, (counter.jits, dict(counter.ops))
    jy, jty = jax.jvp(twenty_ops(jnp), (jnp.asarray(x.numpy()),), (jnp.asarray(v.numpy()),))
    close((y, ty), (jy, jty))
    y2, f_jvp = padax.linearize(jf, x)
    close((y2, f_jvp(v), f_jvp(x)), (jy, jty, jax.jvp(twenty_ops(jnp), (jnp.asarray(x.numpy()),),
                                                     (jnp.asarray(x.numpy()),))[1]))


@pytest.mark.parametrize("name", ["poly", "matmul_tanh", "two_outputs"])
def test_check_grads_of_jitted_functions(name):
    rng = np.random.default_rng(0)
    if name == "poly":
        f = padax.jit(lambda x: padax.sum(x ** 3 - 2.0 * x * padax.sin(x)))
        args = (t(rng.standard_normal(5)),)
    elif name == "matmul_tanh":
        f = padax.jit(lambda w, x: padax.tanh(padax.matmul(x, w)))
        args = (t(rng.standard_normal((3, 2)) * 0.5), t(rng.standard_normal((4, 3))))
    else:
        f = padax.jit(lambda x, y: (padax.exp(x) * y, x / (1.0 + y * y)))
        args = (t(rng.standard_normal(3) * 0.5), t(rng.standard_normal(3)))
    check_grads(f, args, order=2, modes=("fwd", "rev"), atol=2e-2, rtol=2e-2)


# -- structure: symbolic zeros, residual forwarding, DCE -----------------------------------

def test_jvp_passes_only_nonzero_tangents():
    c = t([1.0, 2.0, 3.0])
    inner = padax.jit(lambda x, y: (x * y, padax.sin(y)))
    jaxpr = padax.make_jaxpr(lambda x, v: padax.jvp(lambda x: inner(x, c), (x,), (v,)))(c, c)
    (eqn,) = _jit_eqns(jaxpr)
    # primals x, c and the tangent of x only; outputs: two primals and the tangent of x*y only
    assert len(eqn.invars) == 3 and len(eqn.outvars) == 3
    x, v = t([0.5, 1.0, 2.0]), t([1.0, -1.0, 0.5])
    (p0, p1), (t0, t1) = padax.jvp(lambda x: inner(x, c), (x,), (v,))
    np.testing.assert_allclose(t0.numpy(), v.numpy() * c.numpy(), rtol=1e-6)
    np.testing.assert_allclose(t1.numpy(), 0.0)


def test_residuals_that_are_inputs_or_outputs_are_forwarded():
    y = t([2.0, 3.0])
    # d(x*y)/dx needs only y: a known input, forwarded; the known program returns just x*y
    jaxpr = padax.make_jaxpr(lambda x: padax.vjp(padax.jit(lambda x, y: x * y), x, y)[1](x))(y)
    known, transposed = _jit_eqns(jaxpr)
    assert len(known.outvars) == 1
    # d exp(x) = exp(x) dx: the residual is the primal output, returned once
    jaxpr = padax.make_jaxpr(lambda x: padax.vjp(padax.jit(padax.exp), x)[1](x))(y)
    known, transposed = _jit_eqns(jaxpr)
    assert len(known.outvars) == 1
    np.testing.assert_allclose(padax.grad(lambda x: padax.sum(padax.jit(padax.exp)(x)))(y).numpy(),
                               np.exp([2.0, 3.0]), rtol=1e-6)


def test_linear_program_is_dead_code_eliminated():
    def f(x):
        a = padax.sin(x)
        unused = padax.exp(x) * padax.cos(x)  # noqa: F841  (dead: never reaches the output)
        return a * a

    jaxpr = padax.make_jaxpr(lambda x: padax.linearize(padax.jit(f), x)[1](x))(t([1.0]))
    known, linear = _jit_eqns(jaxpr)
    assert sorted(e.primitive.name for e in known.params["jaxpr"].jaxpr.eqns) == ["cos", "mul", "sin"]
    # the linear program reads two residuals (sin x, cos x) and the tangent; nothing of exp(x)*cos(x)
    assert len(linear.invars) == 3 and len(known.outvars) == 3
    assert sorted(e.primitive.name for e in linear.params["jaxpr"].jaxpr.eqns) == ["add", "mul", "mul", "mul"]
    x = np.array([0.3, -1.2], np.float32)
    np.testing.assert_allclose(padax.grad(lambda x: padax.sum(padax.jit(f)(x)))(t(x)).numpy(),
                               2 * np.sin(x) * np.cos(x), rtol=1e-5)


def test_transpose_keeps_symbolic_zero_cotangents():
    f = padax.jit(lambda x, y: (2.0 * x, 3.0 * x))  # linear in x; y unused
    x, y = t([1.0, 2.0]), t([5.0])
    ft = padax.linear_transpose(f, x, y)
    cx, cy = ft((t([1.0, 1.0]), t([1.0, 2.0])))
    np.testing.assert_allclose(cx.numpy(), [5.0, 8.0])
    np.testing.assert_allclose(cy.numpy(), [0.0])
    jaxpr = padax.make_jaxpr(lambda a, b: ft((a, b)))(x, x)
    (eqn,) = _jit_eqns(jaxpr)
    assert len(eqn.outvars) == 1  # only x gets a cotangent


def test_integer_inputs_and_outputs():
    f = padax.jit(lambda x, n: (x * lax.convert_element_type(n, np.float32), n + 1))
    x, n = t([1.0, 2.0]), t([3, 4], np.int32)
    g = padax.grad(lambda x: padax.sum(f(x, n)[0]))(x)
    np.testing.assert_allclose(g.numpy(), [3.0, 4.0])
    (p, k), (tp, tk) = padax.jvp(lambda x: f(x, n), (x,), (t([1.0, 1.0]),))
    np.testing.assert_allclose(tp.numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(k.numpy(), [4, 5])


# -- compositions --------------------------------------------------------------------------

def _mlp(np_):
    def loss(w1, w2, x):
        h = np_.tanh(x @ w1)
        return np_.sum((h @ w2) ** 2)
    return loss


def _mlp_args(rng):
    return (rng.standard_normal((3, 4)).astype(np.float32) * 0.5,
            rng.standard_normal((4, 2)).astype(np.float32) * 0.5,
            rng.standard_normal((5, 3)).astype(np.float32))


def test_vmap_of_grad_of_jit():
    rng = np.random.default_rng(1)
    w1, w2, x = _mlp_args(rng)
    xs = rng.standard_normal((6, 5, 3)).astype(np.float32)
    got = padax.vmap(padax.grad(padax.jit(_mlp(padax)), argnums=(0, 1)), in_axes=(None, None, 0))(t(w1), t(w2), t(xs))
    want = jax.vmap(jax.grad(jax.jit(_mlp(jnp)), argnums=(0, 1)), in_axes=(None, None, 0))(w1, w2, xs)
    close(got, want, rtol=1e-4, atol=1e-5)


def test_grad_of_vmap_of_jit():
    rng = np.random.default_rng(2)
    w1, w2, _ = _mlp_args(rng)
    xs = rng.standard_normal((6, 5, 3)).astype(np.float32)

    def total(np_, vmap, jit):
        def f(w1, w2, xs):
            return np_.sum(vmap(jit(_mlp(np_)), in_axes=(None, None, 0))(w1, w2, xs))
        return f

    got = padax.grad(total(padax, padax.vmap, padax.jit), argnums=(0, 1))(t(w1), t(w2), t(xs))
    want = jax.grad(total(jnp, jax.vmap, jax.jit), argnums=(0, 1))(w1, w2, xs)
    close(got, want, rtol=1e-4, atol=1e-5)


def test_vmap_of_jit_keeps_unbatched_operands_unbatched():
    f = padax.jit(lambda x, w: padax.matmul(x, w))
    xs, w = t(np.ones((4, 2, 3))), t(np.ones((3, 5)))
    jaxpr = padax.make_jaxpr(padax.vmap(f, in_axes=(0, None)))(xs, w)
    (eqn,) = _jit_eqns(jaxpr)
    assert [v.aval.shape for v in eqn.invars] == [(4, 2, 3), (3, 5)]
    np.testing.assert_allclose(padax.vmap(f, in_axes=(0, None))(xs, w).numpy(), np.full((4, 2, 5), 3.0))


def test_vmap_of_jit_with_a_collective_over_the_vmap_axis():
    f = padax.jit(lambda x: x - lax.psum(x, "i") / 4.0)
    xs = np.arange(8, dtype=np.float32).reshape(4, 2)
    got = padax.vmap(f, axis_name="i")(t(xs))
    want = jax.vmap(jax.jit(lambda x: x - jax.lax.psum(x, "i") / 4.0), axis_name="i")(xs)
    close(got, want)


def test_jit_of_grad_of_jit():
    rng = np.random.default_rng(3)
    w1, w2, x = _mlp_args(rng)
    got = padax.jit(padax.grad(padax.jit(_mlp(padax)), argnums=(0, 1)))(t(w1), t(w2), t(x))
    want = jax.jit(jax.grad(jax.jit(_mlp(jnp)), argnums=(0, 1)))(w1, w2, x)
    close(got, want, rtol=1e-4, atol=1e-5)


def test_hessian_of_jit():
    def f(np_):
        return lambda x: np_.sum(np_.sin(x) * x ** 2) + np_.prod(np_.cos(x[:2]))
    x = np.array([0.3, -0.7, 1.1], np.float32)
    got = padax.hessian(padax.jit(f(padax)))(t(x))
    want = jax.hessian(jax.jit(f(jnp)))(x)
    close(got, want, rtol=1e-4, atol=1e-5)


def test_nested_jit_inside_jit():
    inner = padax.jit(lambda x: padax.exp(padax.sin(x)))
    outer = padax.jit(lambda x: padax.sum(inner(x) * inner(2.0 * x)))
    jinner = jax.jit(lambda x: jnp.exp(jnp.sin(x)))
    jouter = jax.jit(lambda x: jnp.sum(jinner(x) * jinner(2.0 * x)))
    x = np.array([0.1, 0.5, -0.4], np.float32)
    close(padax.grad(outer)(t(x)), jax.grad(jouter)(x))
    close(padax.hessian(outer)(t(x)), jax.hessian(jouter)(x), rtol=1e-4, atol=1e-5)


def test_grad_of_jit_with_static_args_donation_and_closures():
    table = t([1.0, 2.0, 3.0])      # a captured Tensor
    host = np.array([0.5, 0.25, 2.0], np.float32)  # a captured numpy array

    def f(x, power, scale):
        return padax.sum((x * table + host) ** power) * scale

    jf = padax.jit(f, static_argnums=1, donate_argnums=2)
    x = np.array([0.2, -0.3, 0.4], np.float32)
    want_x, want_s = jax.grad(lambda x, s: jnp.sum((x * jnp.array([1.0, 2.0, 3.0]) + host) ** 3) * s,
                              argnums=(0, 1))(x, np.float32(1.5))
    for _ in range(2):
        gx, gs = padax.grad(jf, argnums=(0, 2))(t(x), 3, t(1.5))
        close((gx, gs), (want_x, want_s))


def test_grad_of_jit_with_scan_and_cond_inside():
    def f(np_, lax_):
        def fun(x):
            def body(c, xi):
                c = lax_.cond(xi > 0, lambda c: np_.sin(c) * xi, lambda c: c * c - xi, c)
                return c, c * 2.0
            c, ys = lax_.scan(body, x[0], x)
            return c + np_.sum(ys)
        return fun
    x = np.array([0.5, -0.3, 0.8, 0.1], np.float32)
    got = padax.grad(padax.jit(f(padax, lax)))(t(x))
    want = jax.grad(jax.jit(f(jnp, jax.lax)))(x)
    close(got, want, rtol=1e-4, atol=1e-5)
    check_grads(padax.jit(f(padax, lax)), (t(x),), order=2, modes=("rev",), atol=2e-2, rtol=2e-2)


def test_grad_of_scan_whose_body_calls_jit():
    step = padax.jit(lambda c, x: padax.tanh(c * x + 0.5))
    jstep = jax.jit(lambda c, x: jnp.tanh(c * x + 0.5))

    def f(lax_, st):
        return lambda c0, xs: lax_.scan(lambda c, x: (st(c, x), c), c0, xs)[0]
    xs = np.array([0.5, 1.5, -0.5], np.float32)
    got = padax.grad(f(lax, step), argnums=(0, 1))(t(0.3), t(xs))
    want = jax.grad(f(jax.lax, jstep), argnums=(0, 1))(np.float32(0.3), xs)
    close(got, want, rtol=1e-5)


def test_custom_vjp_inside_jit():
    @padax.custom_vjp
    def clip_grad(x):
        return padax.sin(x)

    def fwd(x):
        return padax.sin(x), padax.cos(x)

    def bwd(c, g):
        return (padax.clip(g * c, -0.1, 0.1),)

    clip_grad.defvjp(fwd, bwd)
    f = padax.jit(lambda x: padax.sum(clip_grad(x) * x))
    x = np.array([0.2, 1.0, -2.0], np.float32)
    got = padax.grad(f)(t(x))
    np.testing.assert_allclose(got.numpy(), np.clip(x * np.cos(x), -0.1, 0.1) + np.sin(x), rtol=1e-5)
    got2 = padax.jit(padax.grad(f))(t(x))
    np.testing.assert_allclose(got2.numpy(), got.numpy(), rtol=1e-6)


def test_value_and_grad_with_aux_through_jit():
    f = padax.jit(lambda x: (padax.sum(x * x), x + 1.0))
    (v, aux), g = padax.value_and_grad(f, has_aux=True)(t([1.0, 2.0]))
    assert v.item() == 5.0
    np.testing.assert_allclose(aux.numpy(), [2.0, 3.0])
    np.testing.assert_allclose(g.numpy(), [2.0, 4.0])


def test_a_jitted_function_is_traced_once_per_signature_under_grad():
    traces = []

    @padax.jit
    def f(x):
        traces.append(1)
        return padax.sin(x) * x

    x = padax.device_put(np.array([0.5, 1.5], np.float32))
    g = padax.grad(lambda x: f(x).sum())
    for _ in range(3):
        out = g(x)
    np.testing.assert_allclose(out.numpy(), np.cos(x.numpy()) * x.numpy() + np.sin(x.numpy()), rtol=1e-6)
    assert len(traces) == 1
    # a closure over a value of the enclosing transformation is traced again on every call
    seen = []

    def outer(y):
        @padax.jit
        def h(z):
            seen.append(1)
            return z * y
        return h(y).sum()
    padax.grad(outer)(x)
    padax.grad(outer)(x)
    assert len(seen) == 2
