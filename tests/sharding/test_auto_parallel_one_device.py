"""The auto-parallel API on one device: arrays on a 1-device mesh keep only their device, and
shard_optimizer / to_static still train (the mesh is the device itself)."""
import numpy as np
import pytest

import padax
import padax.distributed as dist


@pytest.mark.parametrize("stage", [None, "stage1", "stage3"])
def test_shard_optimizer_on_one_device_equals_the_plain_optimizer(stage):
    padax.seed(0)
    pm = dist.ProcessMesh([0], dim_names=["dp"])
    net = dist.shard_layer(padax.nn.Linear(2, 3), pm)
    shard_fn = {None: None, "stage1": dist.ShardingStage1("dp"), "stage3": dist.ShardingStage3(0)}[stage]
    opt = dist.shard_optimizer(padax.optimizer.Adam(0.1), shard_fn)
    grads = padax.grad(lambda m: (m(padax.ones([4, 2])) ** 2).sum())(net)
    new, _ = opt.step(net, grads, opt.init(net))
    plain = padax.optimizer.Adam(0.1)
    ref, _ = plain.step(net, grads, plain.init(net))
    np.testing.assert_allclose(np.asarray(new.weight), np.asarray(ref.weight), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(new.bias), np.asarray(ref.bias), rtol=1e-6)


def test_to_static_trains_on_one_device():
    padax.seed(0)
    net = dist.shard_layer(padax.nn.Linear(2, 1), dist.ProcessMesh([0], dim_names=["dp"]))
    w0, b0 = np.asarray(net.weight), np.asarray(net.bias)
    model = dist.to_static(net, None, padax.nn.MSELoss(), dist.shard_optimizer(padax.optimizer.SGD(0.1)))
    x, y = padax.ones([4, 2]), padax.zeros([4, 1])
    first = float(model(x, y))
    pred = np.ones((4, 2)) @ w0 + b0
    np.testing.assert_allclose(first, np.mean(pred ** 2), rtol=1e-5)
    assert float(model(x, y)) < first
