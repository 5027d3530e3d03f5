"""fleet.distributed_model(PipelineLayer) is a Layer as Paddle's PipelineParallel: parameters,
named_parameters ('_layers.' names, as Paddle's MetaParallelBase), state_dict/set_state_dict and
train/eval reach the pipelined layers."""
import numpy as np
import pytest

import padax
from padax.distributed import fleet
from padax.distributed.fleet import meta_parallel as mpu


@pytest.fixture(autouse=True)
def _no_fleet_mesh():
    from padax.distributed.fleet import _state
    _state.hcg = _state.strategy = None
    yield
    _state.hcg = _state.strategy = None


def test_pipeline_parallel_has_layer_methods():
    st = fleet.DistributedStrategy()
    st.hybrid_configs = {"pp_degree": 1, "pp_configs": {"accumulate_steps": 2}}
    fleet.init(is_collective=True, strategy=st)
    model = mpu.PipelineLayer([mpu.LayerDesc(padax.nn.Linear, 2, 3), mpu.LayerDesc(padax.nn.Dropout, 0.5),
                               mpu.LayerDesc(padax.nn.Linear, 3, 1)], loss_fn=padax.nn.MSELoss())
    pp = fleet.distributed_model(model)
    assert isinstance(pp, padax.nn.Layer)
    inner = [n for n, _ in model.named_parameters()]
    assert [n for n, _ in pp.named_parameters()] == ["_layers." + n for n in inner]
    assert len(pp.parameters()) == 4 and all(a is b for a, b in zip(pp.parameters(), model.parameters()))
    assert list(pp.state_dict()) == ["_layers." + n for n in inner]
    pp.eval()
    assert not pp.training and not any(layer.training for layer in model.sublayers(include_self=True))
    x = padax.ones([4, 2])
    np.testing.assert_allclose(np.asarray(pp(x)), np.asarray(model(x)), rtol=1e-6)   # eval: dropout is identity
    pp.train()
    assert model.training
    sd = {k: np.full(tuple(v.shape), 0.5, np.float32) for k, v in pp.state_dict().items()}
    pp.set_state_dict(sd)
    np.testing.assert_array_equal(np.asarray(model.parameters()[0]), np.full((2, 3), 0.5, np.float32))
    pp.eval()
    np.testing.assert_allclose(np.asarray(pp(x)), np.full((4, 1), 0.5 * 3 * 1.5 + 0.5), rtol=1e-6)
    with pytest.raises(TypeError, match="PipelineParallel: expected a PipelineLayer"):
        mpu.PipelineParallel(padax.nn.Linear(2, 1), fleet.get_hybrid_communicate_group(), st)
