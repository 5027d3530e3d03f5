"""jit with in_shardings/out_shardings (XLA's SPMD partitioner), sharded inputs, sharding constraints."""
import numpy as np
import pytest

import padax
from padax.sharding import NamedSharding, P

pytestmark = pytest.mark.spmd

rng = np.random.default_rng(0)
X = rng.normal(size=(16, 8)).astype(np.float32)
W = rng.normal(size=(8, 6)).astype(np.float32)


@pytest.mark.parametrize("xs,ws,outs", [(P("x"), P(), P("x")), (P("x", "y"), P("y"), P("x")),
                                        (P(None, "y"), P("y", None), P()), (P("x"), P(None, "y"), P("x", "y"))])
def test_sharded_matmul_matches_unsharded(mesh42, xs, ws, outs):
    f = padax.jit(lambda a, b: padax.matmul(a, b), in_shardings=(NamedSharding(mesh42, xs), NamedSharding(mesh42, ws)),
                  out_shardings=NamedSharding(mesh42, outs))
    r = f(X, W)
    np.testing.assert_allclose(r.numpy(), X @ W, rtol=1e-5, atol=1e-5)
    assert r.sharding == NamedSharding(mesh42, outs)
    text = f.lower(X, W).as_text()
    assert "mhlo.num_partitions = 8" in text and 'sdy.mesh @mesh = <["x"=4, "y"=2]>' in text
    assert "sdy.sharding = #sdy.sharding<@mesh" in text and "mhlo.sharding" not in text


def test_jit_uses_shardings_of_sharded_inputs(mesh42):
    xs = padax.device_put(X, NamedSharding(mesh42, P("x")))
    f = padax.jit(lambda a, b: padax.tanh(padax.matmul(a, b)))
    r = f(xs, W)  # W: a host array, joins as a replicated value
    np.testing.assert_allclose(r.numpy(), np.tanh(X @ W), rtol=1e-5, atol=1e-5)
    assert r.sharding == NamedSharding(mesh42, P("x"))  # XLA propagated the row split
    # the same function on single-device inputs still works (another variant) and stays on one device
    r1 = f(padax.to_tensor(X), padax.to_tensor(W))
    assert r1.sharding.num_devices == 1
    np.testing.assert_allclose(r1.numpy(), r.numpy(), rtol=1e-6)
    # and again sharded: cached, no error
    np.testing.assert_allclose(f(xs, W).numpy(), r.numpy())


def test_with_sharding_constraint(mesh42):
    s = NamedSharding(mesh42, P(None, "y"))

    def f(a):
        b = padax.lax.with_sharding_constraint(a * 2, s)
        return b + 1
    jf = padax.jit(f, in_shardings=NamedSharding(mesh42, P("x")))
    r = jf(X)
    np.testing.assert_allclose(r.numpy(), X * 2 + 1)
    text = jf.lower(X).as_text()
    assert 'sdy.sharding_constraint' in text and '<@mesh, [{}, {"y"}]>' in text
    assert '#sdy.sharding<@mesh, [{"x"}, {}]>' in text  # the argument's layout
    # eagerly it moves the value; under grad it is linear
    e = padax.lax.with_sharding_constraint(padax.to_tensor(X), s)
    assert e.sharding == s
    g = padax.jit(padax.grad(lambda a: (padax.lax.with_sharding_constraint(a, s) ** 2).sum()))(X)
    np.testing.assert_allclose(g.numpy(), 2 * X, rtol=1e-6)


def test_in_shardings_move_misplaced_arguments(mesh42):
    f = padax.jit(lambda a: a.sum(0), in_shardings=NamedSharding(mesh42, P("x")), out_shardings=NamedSharding(mesh42, P()))
    other = padax.device_put(X, NamedSharding(mesh42, P(None, "y")))
    for arg in (X, padax.to_tensor(X), other):
        r = f(arg)
        np.testing.assert_allclose(r.numpy(), X.sum(0), rtol=1e-5)
        assert r.sharding.is_fully_replicated


def test_jit_errors(mesh42):
    f = padax.jit(lambda a: a, in_shardings=NamedSharding(mesh42, P("x")))
    with pytest.raises(ValueError, match="not divisible by mesh axis 'x'"):
        f(np.ones((6, 2), np.float32))
    sub = padax.make_mesh((2,), ("x",))
    g = padax.jit(lambda a, b: a + b)
    with pytest.raises(ValueError, match="devices"):
        g(padax.device_put(X, NamedSharding(mesh42, P("x"))), padax.device_put(X, NamedSharding(sub, P("x"))))


def test_shardings_of_a_jit_inside_grad_and_jit(mesh42):
    rows = NamedSharding(mesh42, P("x"))
    f = padax.jit(lambda a: (a * a).sum(1), in_shardings=rows, out_shardings=rows)
    g = padax.grad(lambda a: f(a).sum())(X)
    np.testing.assert_allclose(g.numpy(), 2 * X, rtol=1e-6)
    outer = padax.jit(lambda a: f(a) + 1)
    assert outer.lower(X).as_text().count("sdy.sharding_constraint") >= 2
    r = outer(X)
    np.testing.assert_allclose(r.numpy(), (X * X).sum(1) + 1, rtol=1e-5)
    assert r.sharding == rows
