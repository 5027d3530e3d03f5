"""Paddle's data-parallel training written the dygraph way: `paddle.DataParallel(model)` (and
`fleet.distributed_model`) with `loss.backward(); opt.step(); opt.clear_grad()`, eagerly and compiled whole
by padax.jit with the batch sharded over 8 devices, gives the single-device losses and parameters."""
from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.spmd

X = np.random.default_rng(0).standard_normal((16, 5)).astype(np.float32)
Y = np.random.default_rng(1).standard_normal((16, 1)).astype(np.float32)


@pytest.fixture(autouse=True)
def _no_fleet_mesh():
    """Each test starts and ends without fleet's mesh (fleet.init below would leak into other tests)."""
    from padax.distributed.fleet import _state
    _state.hcg = _state.strategy = None
    yield
    _state.hcg = _state.strategy = None


def _model():
    import padax
    import padax.nn as nn
    padax.seed(3)
    return nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))


def _steps(model, compiled, n=3, opt=None, after_step=None):
    import padax
    opt = opt if opt is not None else padax.optimizer.Adam(0.05, parameters=model.parameters())

    def step(x, y):
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    step = padax.jit(step) if compiled else step
    x, y = padax.to_tensor(X), padax.to_tensor(Y)
    losses = []
    for _ in range(n):
        losses.append(float(step(x, y)))
        if after_step is not None:
            after_step()
    return losses, [p.numpy() for p in model.parameters()]


@pytest.mark.parametrize("wrap", ["DataParallel", "distributed_model"])
@pytest.mark.parametrize("compiled", [False, True])
def test_data_parallel_tape_step_equals_one_device(mesh8, wrap, compiled):
    import padax
    reference = _steps(_model(), compiled=False)
    model = _model()
    if wrap == "DataParallel":
        dp = padax.DataParallel(model)
    else:
        from padax.distributed import fleet
        strategy = fleet.DistributedStrategy()
        strategy.hybrid_configs = {"dp_degree": 8}
        fleet.init(is_collective=True, strategy=strategy)
        dp = fleet.distributed_model(model)
    assert all(not p.stop_gradient for p in dp.parameters())
    assert dp.parameters()[0].sharding.num_devices == 8
    ours = _steps(dp, compiled)
    np.testing.assert_allclose(ours[0], reference[0], rtol=1e-5)
    for a, b in zip(ours[1], reference[1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_data_parallel_compiled_step_sees_the_scheduler(mesh8):
    import padax

    def run(dp, compiled):
        model = padax.DataParallel(_model()) if dp else _model()
        sched = padax.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
        opt = padax.optimizer.SGD(sched, parameters=model.parameters())
        return _steps(model, compiled, n=4, opt=opt, after_step=sched.step)[0]
    np.testing.assert_allclose(run(True, True), run(False, False), rtol=1e-5)
