"""Data parallelism: the demo MLP trained on 8 CPU devices with a batch-sharded jit step
ends with the same parameters as on one device."""
import numpy as np
import pytest

import padax
from padax import demo
from padax.sharding import NamedSharding, P

pytestmark = pytest.mark.spmd

BS, STEPS = 64, 4


def _train(step, put_batch, params, opt_state, x, y):
    losses = []
    for i in range(STEPS):
        xb, yb = put_batch(x[i * BS:(i + 1) * BS], y[i * BS:(i + 1) * BS])
        params, opt_state, loss = step(params, opt_state, xb, yb)
        losses.append(float(loss))
    return params, losses


def test_batch_sharded_training_matches_one_device(mesh8):
    x, y, _, _ = demo.load_split(0)
    params = demo.init_params(0)
    optimizer = padax.optimizer.Momentum(learning_rate=0.05, momentum=0.9)
    opt_state = optimizer.init(params)
    single = demo.make_train_step(optimizer)
    p1, l1 = _train(single, lambda a, b: (padax.to_tensor(a), padax.to_tensor(b)), params, opt_state, x, y)

    rep, batch = NamedSharding(mesh8, P()), NamedSharding(mesh8, P("i"))
    sharded = padax.jit(single.fun, in_shardings=(rep, rep, batch, batch), out_shardings=rep)
    p8, l8 = _train(sharded, lambda a, b: (padax.device_put(a, batch), padax.device_put(b, batch)),
                    padax.device_put(params, rep), padax.device_put(opt_state, rep), x, y)
    for k in p1:
        assert p8[k].sharding.num_devices == 8 and p8[k].sharding.is_fully_replicated
        np.testing.assert_allclose(p8[k].numpy(), p1[k].numpy(), rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(l8, l1, rtol=2e-5)
    assert l1[-1] < l1[0]

    # the same with shard_map: per-device gradients averaged with pmean
    velocity = padax.tree.map(padax.zeros_like, params)
    loss_and_grads = padax.value_and_grad(demo.loss_fn)

    def dp_step(params, velocity, xb, yb):
        def local(p, v, xs, ys):
            loss, g = loss_and_grads(p, xs, ys)
            g = padax.lax.pmean(g, "i")
            v = padax.tree.map(lambda v, g: v * 0.9 + g, v, g)
            p = padax.tree.map(lambda p, v: p - 0.05 * v, p, v)
            return p, v, padax.lax.pmean(loss, "i")
        return padax.shard_map(local, mesh8, (P(), P(), P("i"), P("i")), (P(), P(), P()))(params, velocity, xb, yb)

    p_sm, l_sm = _train(padax.jit(dp_step), lambda a, b: (padax.device_put(a, batch), padax.device_put(b, batch)),
                        params, velocity, x, y)
    for k in p1:
        np.testing.assert_allclose(p_sm[k].numpy(), p1[k].numpy(), rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(l_sm, l1, rtol=2e-5)
