"""Pipeline parallelism on one device (a 1-stage pipeline): the schedule's step equals the sequential model's."""
import numpy as np

import padax
import padax.nn as nn
from padax.distributed import fleet
from padax.distributed.fleet import meta_parallel as mpu


def test_train_batch_with_a_layer_loss_fn_matches_the_sequential_step():
    # a Layer as loss_fn is a sublayer after run_function; the gradient tree used to come back with the two
    # in the other order, so optimizer.step refused it ("params and grads have different structures")
    from padax.distributed.fleet import _state
    st = fleet.DistributedStrategy()
    st.hybrid_configs = {"dp_degree": 1, "pp_degree": 1, "pp_configs": {"accumulate_steps": 2}}
    fleet.init(is_collective=True, strategy=st)
    try:
        padax.seed(0)
        model = mpu.PipelineLayer([mpu.LayerDesc(nn.Linear, 2, 4), nn.ReLU(), mpu.LayerDesc(nn.Linear, 4, 1)],
                                  num_stages=1, loss_fn=nn.MSELoss())
        x = padax.to_tensor(np.linspace(-1, 1, 8, dtype="float32").reshape(4, 2))
        y = padax.to_tensor(np.arange(4, dtype="float32").reshape(4, 1))
        pp = fleet.distributed_model(model)
        opt = padax.optimizer.SGD(0.1)
        loss, new_model, _ = padax.jit(lambda m, s: pp.train_batch([x, y], opt, s, m))(model, opt.init(model))

        def sequential(m):
            return (nn.MSELoss()(m(x[:2]), y[:2]) + nn.MSELoss()(m(x[2:]), y[2:])) / 2
        ref_loss, ref_grads = padax.value_and_grad(sequential)(model)
        np.testing.assert_allclose(float(loss), float(ref_loss), rtol=1e-5)
        expect = padax.tree.map(lambda p, g: p - 0.1 * g, model, ref_grads)
        for a, b in zip(padax.tree.leaves(new_model), padax.tree.leaves(expect)):
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)
    finally:
        _state.hcg = _state.strategy = None
