"""Derivatives of control flow: jvp/vjp checks (orders 1-2, float64) of cond, switch, scan,
static fori_loop and the jvp of while_loop; grad(scan) against the unrolled loop; the
reverse-mode error of dynamic loops; vmap of grad and grad of vmap; closures under grad."""
import numpy as np
import pytest

import padax
import padax.lax as lax
from padax.test_util import check_grads
from padax.transforms.custom import stop_gradient
from padax.transforms.ad import grad, jvp, linearize, value_and_grad, vjp
from padax.transforms.batching import vmap

from tests.conftest import assert_close

RNG = np.random.default_rng(0)


def _r(*shape):
    return RNG.uniform(0.2, 1.0, shape)


def test_check_grads_cond_and_switch_with_closures():
    with padax.enable_x64():
        x, w = _r(3), _r(3)

        def f(x, w):
            # pred depends on x; the true branch closes over w (a differentiated outer value)
            return lax.cond(x.sum() > 1.0, lambda a: lax.sin(a) * w, lambda a: a * a + 1.0, x)

        check_grads(f, (x, w), order=2)
        check_grads(f, (x * 0.1, w), order=2)

        def g(i, x, w):
            branches = [lambda a, b: a * b, lambda a, b: lax.exp(a) + b, lambda a, b: lax.tanh(a * b)]
            return lax.switch(i, branches, x, {"b": w}["b"])

        for i in (0, 1, 2):
            check_grads(lambda x, w: g(i, x, w), (x, w), order=2)


@pytest.mark.parametrize("reverse", [False, True])
def test_check_grads_scan_pytrees(reverse):
    with padax.enable_x64():
        xs = {"a": _r(4, 3), "b": _r(4)}
        w = _r(3)

        def f(h0, xs, w):
            def step(carry, x):
                h, s = carry
                h = lax.tanh(h * w + x["a"]) * x["b"]
                s = s + (h * h).sum()
                return (h, s), lax.sin(h) + s
            (h, s), ys = lax.scan(step, (h0, 0.0), xs, reverse=reverse, unroll=2)
            return h, s, ys

        check_grads(f, (_r(3), xs, w), order=2)


def test_check_grads_fori_loop_static_and_jvp_of_while_loop():
    with padax.enable_x64():
        x = _r(3)

        def f(x):
            return lax.fori_loop(1, 4, lambda i, c: lax.sin(c) * x + i, x)

        check_grads(f, (x,), order=2)

        def g(x, y):
            # dynamic trip count: depends on the values
            return lax.while_loop(lambda c: c[0].sum() < 6.0, lambda c: (c[0] * 1.5 + c[1], lax.sin(c[1])), (x, y))

        check_grads(g, (x, _r(3)), order=2, modes=["fwd"])
        # linearize works too (the loop is staged whole for the tangents)
        _, f_jvp = linearize(lambda x: g(x, x)[0], x)
        t = _r(3)
        _, expected = jvp(lambda x: g(x, x)[0], (x,), (t,))
        assert_close(f_jvp(t), expected, rtol=1e-10)


def test_grad_scan_equals_grad_of_unrolled_loop():
    x = np.linspace(0.1, 1, 5).astype(np.float32)
    w = np.float32(0.7)

    def scanned(x, w):
        c, ys = lax.scan(lambda c, xi: (lax.tanh(c * w + xi), c * xi), 0.5, x)
        return c + ys.sum()

    def unrolled(x, w):
        c, tot = 0.5, 0.0
        for i in range(5):
            tot = tot + c * x[i]
            c = lax.tanh(c * w + x[i])
        return c + tot

    gs = grad(scanned, argnums=(0, 1))(x, w)
    gu = grad(unrolled, argnums=(0, 1))(x, w)
    assert_close(gs[0], gu[0], rtol=1e-5)
    assert_close(gs[1], gu[1], rtol=1e-5)
    gj = padax.jit(grad(scanned, argnums=(0, 1)))(x, w)
    assert_close(gj[0], gu[0], rtol=1e-5)


def test_reverse_mode_of_dynamic_loops_raises():
    x = np.ones(3, np.float32)
    loop = lambda x: lax.while_loop(lambda c: c.sum() < 10.0, lambda c: c * 2.0, x)  # noqa: E731
    for f in (loop, lambda x: lax.fori_loop(0, padax.to_tensor(np.int32(3)), lambda i, c: c * x, x)):
        with pytest.raises(ValueError, match="scan.*fori_loop with static"):
            grad(lambda x: f(x).sum())(x)
    with pytest.raises(ValueError, match="while_loop"):
        padax.jit(grad(lambda x: loop(x).sum()))(x)
    # the loop does not feed the output: nothing to reverse, no error
    assert_close(grad(lambda x: (x * 2.0).sum() + stop_gradient(loop(x)).sum())(x), np.full(3, 2, np.float32))


def test_vmap_of_grad_and_grad_of_vmap_scan():
    xs = RNG.standard_normal((3, 4)).astype(np.float32)
    w = np.float32(0.9)

    def loss(x, w):
        c, ys = lax.scan(lambda c, xi: (lax.sin(c * w) + xi, c * c), 0.0, x)
        return c + ys.sum()

    per = np.stack([np.asarray(grad(loss)(x, w)) for x in xs])
    assert_close(vmap(grad(loss), in_axes=(0, None))(xs, w), per, rtol=1e-5, atol=1e-6)
    assert_close(grad(lambda xs: vmap(loss, in_axes=(0, None))(xs, w).sum())(xs), per, rtol=1e-5, atol=1e-6)
    gw = grad(lambda w: vmap(loss, in_axes=(0, None))(xs, w).sum())(w)
    assert_close(gw, np.float32(sum(float(grad(loss, argnums=1)(x, w)) for x in xs)), rtol=1e-5)
    # and for a batched predicate (cond -> select) under grad
    f = lambda x: lax.cond(x.sum() > 0, lambda a: lax.sin(a).sum(), lambda a: (a * a).sum(), x)  # noqa: E731
    g = vmap(grad(f))(xs)
    exp = np.stack([np.cos(x) if x.sum() > 0 else 2 * x for x in xs])
    assert_close(g, exp, rtol=1e-5, atol=1e-6)


def test_grad_of_nested_control_flow_and_integer_outputs():
    x = np.linspace(0.2, 0.8, 3).astype(np.float32)

    def f(x):
        def body(i, v):
            def inner(v):
                acc, _ = lax.scan(lambda a, xi: (a * xi + 1.0, a), 1.0, v)
                return v * acc
            return lax.cond(i % 2 == 0, inner, lambda v: lax.sin(v), v)
        return lax.fori_loop(0, 3, body, x).sum()

    def ref(x):
        v = x
        for i in range(3):
            if i % 2 == 0:
                acc = 1.0
                for k in range(3):
                    acc = acc * v[k] + 1.0
                v = v * acc
            else:
                v = lax.sin(v)
        return v.sum()

    assert_close(grad(f)(x), grad(ref)(x), rtol=1e-5)
    assert_close(padax.jit(grad(f))(x), grad(ref)(x), rtol=1e-5)

    # integer outputs and carries pass through differentiation untouched
    def h(x):
        n, v = lax.cond(x.sum() > 0, lambda a: (1, a * 3.0), lambda a: (2, a), x)
        k, c = lax.fori_loop(0, 2, lambda i, c: (c[0] + n, c[1] * 2.0), (0, v))
        return c.sum() * 1.0, k

    (val, k), g = value_and_grad(h, has_aux=True)(x)
    assert int(k) == 2
    assert_close(g, np.full(3, 12, np.float32))
    _, f_vjp = vjp(lambda x: lax.scan(lambda c, xi: (c + xi, (c, 1)), 0.0, x)[1][0], x)
    assert_close(f_vjp(np.ones(3, np.float32))[0], np.array([2, 1, 0], np.float32))
