"""Distributed training recipes on 8 CPU devices: fleet's hybrid mesh, DataParallel, ZeRO-1/2/3, tensor and
pipeline parallelism and the auto-parallel API each train a small Transformer to the same losses and
parameters as one device."""
import numpy as np
import pytest

import padax
import padax.distributed as dist
import padax.nn as nn
import padax.nn.functional as F
from padax.distributed import fleet
from padax.distributed.fleet import meta_parallel as mpu
from padax.distributed.sharding import group_sharded_parallel, save_group_sharded_model

pytestmark = pytest.mark.spmd

V, D, H, FF, S, B, STEPS = 32, 16, 2, 32, 8, 16, 3
RTOL, ATOL = 2e-4, 2e-5


@pytest.fixture(autouse=True)
def _no_fleet_mesh():
    """Each test starts without fleet's mesh (DataParallel and ZeRO otherwise use it)."""
    from padax.distributed.fleet import _state
    _state.hcg = _state.strategy = None
    yield


def _fleet(**degrees):
    st = fleet.DistributedStrategy()
    st.hybrid_configs = degrees
    fleet.init(is_collective=True, strategy=st)
    return fleet.get_hybrid_communicate_group()


def _data(seed=0):
    rng = np.random.default_rng(seed)
    return rng.integers(0, V, (STEPS, B, S)), rng.integers(0, V, (STEPS, B, S))


class TinyTransformer(nn.Layer):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(V, D)
        self.block = nn.TransformerEncoderLayer(D, H, FF, dropout=0.0, normalize_before=True)
        self.head = nn.Linear(D, V)

    def forward(self, ids):
        return self.head(self.block(self.embed(ids)))


def _loss(model, x, y):
    return F.cross_entropy(model(x), y)


def _train(model, opt, put=lambda a: padax.to_tensor(a)):
    state = opt.init(model)

    @padax.jit
    def step(model, state, x, y):
        loss, g = padax.value_and_grad(_loss)(model, x, y)
        model, state = opt.step(model, g, state)
        return model, state, loss
    xs, ys = _data()
    losses = []
    for i in range(STEPS):
        model, state, loss = step(model, state, put(xs[i]), put(ys[i]))
        losses.append(float(loss))
    return model, losses, step.lower(model, state, put(xs[0]), put(ys[0])).compile().memory_analysis()


def _adamw():
    # epsilon well above rounding noise: Adam divides by sqrt(v), so a gradient that is 0 in exact arithmetic
    # (k_proj's bias: softmax ignores a shift of every score) would otherwise take a full step of noise
    return padax.optimizer.AdamW(1e-2, epsilon=1e-3)


def _on_dev0(tree):
    dev0 = padax.devices()[0]
    return padax.tree.map(lambda a: padax.device_put(padax.to_tensor(a), dev0), tree)


def _params(model):
    return {k: v.numpy() for k, v in model.state_dict().items()}


def _assert_same(p, q):
    assert p.keys() == q.keys()
    for k in p:

        np.testing.assert_allclose(p[k], q[k], rtol=RTOL, atol=ATOL, err_msg=k)


def test_fleet_mesh_getters_and_degree_errors():
    hcg = _fleet(dp_degree=2, mp_degree=2, pp_degree=2)
    assert dict(hcg.mesh.shape) == {"dp": 2, "pp": 2, "sharding": 1, "sep": 1, "mp": 2}
    assert (hcg.get_data_parallel_world_size(), hcg.get_model_parallel_world_size(),
            hcg.get_pipe_parallel_world_size(), hcg.get_sharding_parallel_world_size()) == (2, 2, 2, 1)
    assert (hcg.get_data_parallel_rank(), hcg.get_stage_id(), hcg.get_global_rank()) == (0, 0, 0)
    g = hcg.get_model_parallel_group()
    assert g == "mp" and g.nranks == 2 and g.ranks == [0, 1]
    assert hcg.get_data_parallel_group().ranks == [0, 4] and hcg.get_rank_from_stage(1) == 2
    assert dict(_fleet(mp_degree=4).mesh.shape)["dp"] == 2  # dp_degree=-1 fills in the rest
    with pytest.raises(ValueError, match=r"2\*2\*1\*1\*1 = 4, but there are 8 devices"):
        _fleet(dp_degree=2, mp_degree=2)
    with pytest.raises(ValueError, match="3 does not divide the 8 devices"):
        _fleet(mp_degree=3)


def test_zero3_matches_one_device_with_an_eighth_of_the_parameters(tmp_path):
    padax.seed(5)
    base = TinyTransformer()
    ref_model, ref_losses, _ = _train(_on_dev0(base), _adamw())
    model, opt, _ = group_sharded_parallel(base, _adamw(), "p_g_os")
    model, losses, _ = _train(model, opt, model.shard_batch)
    np.testing.assert_allclose(losses, ref_losses, rtol=RTOL)
    _assert_same(_params(model), _params(ref_model))
    dev0 = padax.devices()[0]
    for name, p in model.state_dict().items():
        local = [sh.data.shape for sh in p.addressable_shards if sh.device == dev0]
        assert len(local) == 1 and 8 * int(np.prod(local[0])) == int(np.prod(p.shape)), (name, local, p.shape)
    save_group_sharded_model(model, str(tmp_path / "ck"))
    saved = padax.load(str(tmp_path / "ck" / "model.pdparams"))
    _assert_same({k: np.asarray(v) for k, v in saved.items()}, _params(ref_model))


@pytest.mark.slow
def test_data_parallel_and_zero_stages_match_one_device(tmp_path):
    dev0 = padax.devices()[0]
    padax.seed(0)
    base = TinyTransformer()
    ref_model, ref_losses, _ = _train(_on_dev0(base), _adamw(),
                                      _on_dev0)
    ref = _params(ref_model)
    assert ref_losses[-1] < ref_losses[0]

    def fresh():
        m = TinyTransformer()
        m.set_state_dict(base.state_dict())
        return m

    dp = padax.DataParallel(fresh())
    opt = fleet.ShardedOptimizer(_adamw(), dp.mesh)
    dp_model, losses, mem0 = _train(dp, opt, dp.shard_batch)
    np.testing.assert_allclose(losses, ref_losses, rtol=RTOL)
    _assert_same(_params(dp_model), ref)
    assert dp_model._layers.head.weight.sharding.is_fully_replicated

    mems = {}
    for level in ("os", "os_g", "p_g_os"):
        model, opt, _ = group_sharded_parallel(fresh(), _adamw(), level)
        model, losses, mems[level] = _train(model, opt, model.shard_batch)
        np.testing.assert_allclose(losses, ref_losses, rtol=RTOL, err_msg=level)
        _assert_same(_params(model), ref)
    w = model._layers.head.weight
    assert w.sharding.spec == padax.P("dp", None)
    for name, p in model.state_dict().items():      # ZeRO-3: 1/8 of every parameter on each device
        local = [sh.data.shape for sh in p.addressable_shards if sh.device == dev0]
        assert len(local) == 1 and 8 * int(np.prod(local[0])) == int(np.prod(p.shape)), (name, local, p.shape)
    args = [mem0.argument_size_in_bytes] + [mems[k].argument_size_in_bytes for k in ("os", "os_g", "p_g_os")]
    assert args[0] > args[1] >= args[2] > args[3]        # state, then gradients, then parameters split
    assert args[3] < args[0] / 6
    assert mems["os_g"].temp_size_in_bytes < mems["os"].temp_size_in_bytes   # gradients reduce-scattered
    save_group_sharded_model(model, str(tmp_path / "ck"), _adamw())
    saved = padax.load(str(tmp_path / "ck" / "model.pdparams"))
    _assert_same({k: np.asarray(v) for k, v in saved.items()}, ref)
    with pytest.raises(ValueError, match="level must be one of"):
        group_sharded_parallel(fresh(), _adamw(), "os_p")


def _collectives(model, opt):
    """The collective ops of the compiled training step of `model` under `opt`, counted by kind."""
    import collections
    import re
    xs, ys = _data()
    x, y = model.shard_batch(padax.to_tensor(xs[0])), model.shard_batch(padax.to_tensor(ys[0]))

    def step(model, state, x, y):
        loss, g = padax.value_and_grad(_loss)(model, x, y)
        return opt.step(model, g, state), loss
    text = padax.jit(step).lower(model, opt.init(model), x, y).compile().as_text()
    return collections.Counter(re.findall(r"\b(all-reduce|reduce-scatter|all-gather)(?:-start)?\(", text))


def test_zero2_reduce_scatters_gradients_and_needs_less_memory_than_zero1():
    padax.seed(2)
    base = TinyTransformer()
    ref_model, ref_losses, _ = _train(_on_dev0(base), _adamw())
    mems, ops = {}, {}
    for level in ("os", "os_g"):
        m = TinyTransformer()
        m.set_state_dict(base.state_dict())
        model, opt, _ = group_sharded_parallel(m, _adamw(), level)
        ops[level] = _collectives(model, opt)
        model, losses, mems[level] = _train(model, opt, model.shard_batch)
        np.testing.assert_allclose(losses, ref_losses, rtol=RTOL, err_msg=level)
        _assert_same(_params(model), _params(ref_model))
        assert model._layers.head.weight.sharding.is_fully_replicated   # stages 1 and 2 keep whole parameters
    n_params = len(list(ref_model.parameters()))
    assert ops["os"]["reduce-scatter"] == 0 and ops["os_g"]["reduce-scatter"] >= n_params - 2, ops
    assert mems["os"].argument_size_in_bytes == mems["os_g"].argument_size_in_bytes
    assert mems["os_g"].temp_size_in_bytes < mems["os"].temp_size_in_bytes, (mems["os"], mems["os_g"])


def test_zero_memory_falls_with_the_stage_where_parameters_dominate():
    """An MLP whose parameters outweigh its activations: ZeRO-1 holds every whole gradient as a temporary,
    ZeRO-2 only slices of them; ZeRO-3 also splits the parameters (arguments)."""
    x = padax.to_tensor(np.random.default_rng(0).standard_normal((32, 64)).astype(np.float32))
    mem = {}
    for level in ("os", "os_g", "p_g_os"):
        padax.seed(0)
        model, opt, _ = group_sharded_parallel(nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256),
                                                             nn.ReLU(), nn.Linear(256, 64)), _adamw(), level)

        def step(m, s, x):
            loss, g = padax.value_and_grad(lambda m: (m(x) ** 2).mean())(m)
            return opt.step(m, g, s), loss
        mem[level] = padax.jit(step).lower(model, opt.init(model), model.shard_batch(x)).compile().memory_analysis()
    args = {k: m.argument_size_in_bytes for k, m in mem.items()}
    temps = {k: m.temp_size_in_bytes for k, m in mem.items()}
    whole_grads = 4 * (64 * 256 + 256 * 256 + 256 * 64)     # the weights' gradients
    assert args["os"] == args["os_g"] > 3 * args["p_g_os"], args
    assert temps["os"] >= whole_grads > 8 * temps["os_g"], temps
    total = {k: args[k] + temps[k] for k in mem}
    assert total["os"] > 1.5 * total["os_g"] and total["os"] > 1.5 * total["p_g_os"], total


@pytest.mark.parametrize("stage", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_fleet_sharding_degree_trains_like_one_device(stage):
    padax.seed(1)
    base = TinyTransformer()
    ref_model, ref_losses, _ = _train(_on_dev0(base), _adamw())
    st = fleet.DistributedStrategy()
    st.hybrid_configs = {"dp_degree": 2, "sharding_degree": 4}
    st.sharding_configs = {"stage": stage}
    fleet.init(is_collective=True, strategy=st)
    m = TinyTransformer()
    m.set_state_dict(base.state_dict())
    model = fleet.distributed_model(m)
    opt = fleet.distributed_optimizer(_adamw())
    model, losses, _ = _train(model, opt, fleet.shard_batch)
    np.testing.assert_allclose(losses, ref_losses, rtol=RTOL)
    _assert_same(_params(model), _params(ref_model))
    assert opt.stage == stage and any("sharding" in str(s.spec) for s in opt.state_shardings())


class TPTransformer(nn.Layer):
    def __init__(self, sequence_parallel):
        super().__init__()
        self.embed = mpu.VocabParallelEmbedding(V, D)
        self.block = mpu.ParallelTransformerLayer(D, H, FF, sequence_parallel=sequence_parallel)
        self.head = mpu.ColumnParallelLinear(D, V, has_bias=True, gather_output=False)
        self.ce = mpu.ParallelCrossEntropy()

    def forward(self, ids, labels):
        return self.ce(self.head(self.block(self.embed(ids))), labels).mean()


def _reference_tp_loss(p, ids, labels):
    """The TP model's formula written out with plain ops on one device."""
    def lin(x, name):
        return x @ p[name + ".weight"] + p[name + ".bias"]
    x = p["embed.weight"][ids]
    h = F.layer_norm(x, [D], p["block.norm1.weight"], p["block.norm1.bias"])
    b, s = ids.shape
    q, k, v = (lin(h, f"block.attn.{n}_proj").reshape([b, s, H, D // H]) for n in "qkv")
    o = F.scaled_dot_product_attention(q, k, v).reshape([b, s, D])
    x = x + lin(o, "block.attn.out_proj")
    h = F.layer_norm(x, [D], p["block.norm2.weight"], p["block.norm2.bias"])
    x = x + lin(F.gelu(lin(h, "block.mlp.fc1")), "block.mlp.fc2")
    return F.cross_entropy(lin(x, "head"), labels)


@pytest.mark.parametrize("sequence_parallel, zero2", [pytest.param(False, False, marks=pytest.mark.slow),
                                                     (True, False), (False, True)])
def test_tensor_parallel_transformer_matches_reference(sequence_parallel, zero2):
    if zero2:   # ZeRO-2 over 'sharding' beside tensor parallelism: the layer (and its loss) runs per data shard
        _fleet(dp_degree=2, mp_degree=2, sharding_degree=2, sharding_configs={"stage": 2})
    else:
        _fleet(dp_degree=4, mp_degree=2)
    padax.seed(2)
    model = fleet.distributed_model(TPTransformer(sequence_parallel))
    inner = model._layers
    assert inner.head.weight.sharding.spec == padax.P(None, "mp")
    assert inner.block.mlp.fc2.weight.sharding.spec == padax.P("mp", None)
    assert inner.embed.weight.sharding.spec == padax.P("mp", None)
    dev0 = padax.devices()[0]
    ref = {k: padax.device_put(padax.to_tensor(v.numpy()), dev0) for k, v in model.state_dict().items()}
    opt = fleet.distributed_optimizer(padax.optimizer.SGD(0.5))
    ref_opt = padax.optimizer.SGD(0.5)
    state, ref_state = opt.init(model), ref_opt.init(ref)

    @padax.jit
    def step(model, state, x, y):
        loss, g = padax.value_and_grad(lambda m: m(x, y))(model)
        model, state = opt.step(model, g, state)
        return model, state, loss

    @padax.jit
    def ref_step(p, state, x, y):
        loss, g = padax.value_and_grad(_reference_tp_loss)(p, x, y)
        p, state = ref_opt.step(p, g, state)
        return p, state, loss
    xs, ys = _data(3)
    for i in range(STEPS):
        model, state, loss = step(model, state, *fleet.shard_batch((padax.to_tensor(xs[i]), padax.to_tensor(ys[i]))))
        ref, ref_state, ref_loss = ref_step(ref, ref_state, padax.to_tensor(xs[i]), padax.to_tensor(ys[i]))
        np.testing.assert_allclose(float(loss), float(ref_loss), rtol=RTOL)
    _assert_same(_params(model), {k: v.numpy() for k, v in ref.items()})
    assert model._layers.head.weight.sharding.spec == padax.P(None, "mp")
    hlo = step.lower(model, state, *fleet.shard_batch((padax.to_tensor(xs[0]), padax.to_tensor(ys[0])))) \
        .compile().as_text()
    assert "all-reduce" in hlo or "reduce-scatter" in hlo
    assert ("reduce-scatter" in hlo) == zero2


def test_tensor_parallel_errors_name_layer_and_dimension():
    _fleet(mp_degree=4)
    col = mpu.ColumnParallelLinear(8, 16, has_bias=True)
    values = {"weight": np.ones((8, 16), np.float32), "bias": np.arange(16, dtype=np.float32)}
    col.set_state_dict(values)                        # loaded values keep the layer's layout
    assert col.weight.sharding.spec == padax.P(None, "mp") and col.bias.sharding.spec == padax.P("mp")
    np.testing.assert_array_equal(col.bias.numpy(), values["bias"])
    outer = nn.Sequential(mpu.RowParallelLinear(16, 8))
    outer.set_state_dict({"0.weight": np.ones((16, 8), np.float32), "0.bias": np.zeros(8, np.float32)})
    assert fleet.distributed_model(outer)._layers[0].weight.sharding.spec == padax.P("mp", None)
    with pytest.raises(ValueError, match=r"ColumnParallelLinear: out_features \(10\) is not divisible by mp_degree \(4\)"):
        mpu.ColumnParallelLinear(16, 10)
    with pytest.raises(ValueError, match=r"RowParallelLinear: in_features \(6\)"):
        mpu.RowParallelLinear(6, 16)
    with pytest.raises(ValueError, match=r"attn: num_heads \(2\) is not divisible by mp_degree \(4\)"):
        mpu.ParallelMultiHeadAttention(16, 2, name="attn")


class Block(nn.Layer):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        return x + padax.tanh(self.fc(x))


def _pipeline_model():
    return mpu.PipelineLayer([mpu.LayerDesc(nn.Embedding, V, D)] + [mpu.LayerDesc(Block, D) for _ in range(4)]
                             + [mpu.LayerDesc(nn.Linear, D, V)], num_stages=4,
                             loss_fn=lambda logits, y: F.cross_entropy(logits, y))


@pytest.mark.parametrize("schedule", [pytest.param("FThenB", marks=pytest.mark.slow), "1F1B"])
def test_pipeline_schedules_match_sequential_model(schedule):
    M = 4
    st = fleet.DistributedStrategy()
    st.hybrid_configs = {"dp_degree": 2, "pp_degree": 4, "pp_configs": {"accumulate_steps": M,
                                                                       "schedule_mode": schedule}}
    fleet.init(is_collective=True, strategy=st)
    padax.seed(3)
    model = _pipeline_model()
    assert model.segment_parts == [0, 2, 4, 5, 6]
    pp = fleet.distributed_model(model)
    xs, ys = _data(4)
    x, y = padax.to_tensor(xs[0]), padax.to_tensor(ys[0])

    def sequential(m):
        mb = B // M
        return sum(F.cross_entropy(m(x[i * mb:(i + 1) * mb]), y[i * mb:(i + 1) * mb]) for i in range(M)) / M
    ref_loss, ref_grads = padax.value_and_grad(sequential)(model)
    opt = padax.optimizer.SGD(0.1)
    state = opt.init(model)
    loss, new_model, _ = padax.jit(lambda m, s, x, y: pp.train_batch([x, y], opt, s, m))(model, state, x, y)
    np.testing.assert_allclose(float(loss), float(ref_loss), rtol=RTOL)
    expect = padax.tree.map(lambda p, g: p - 0.1 * g, model, ref_grads)
    _assert_same(_params(new_model), _params(expect))
    st.pp_configs = {"micro_batch_size": 3}
    with pytest.raises(ValueError, match=r"micro_batch_size 3 x accumulate_steps 4 x 2 data replicas = 24"):
        fleet.distributed_model(model).value_and_grad(model, x, y)
    with pytest.raises(ValueError, match="must be one of"):
        mpu.pipeline_value_and_grad(model, x, y, mesh=pp._mesh, num_microbatches=M, schedule="ZBH1")
    with pytest.raises(ValueError, match="'VPP' runs a PipelineLayer with num_virtual_pipeline_stages > 1"):
        mpu.pipeline_value_and_grad(model, x, y, mesh=pp._mesh, num_microbatches=M, schedule="VPP")


@pytest.mark.parametrize("pp_degree, virtual", [(2, 4), pytest.param(4, 2, marks=pytest.mark.slow)])
def test_interleaved_pipeline_matches_sequential_model(pp_degree, virtual):
    M = 4
    st = fleet.DistributedStrategy()
    st.hybrid_configs = {"dp_degree": 8 // pp_degree, "pp_degree": pp_degree, "pp_configs": {"accumulate_steps": M}}
    fleet.init(is_collective=True, strategy=st)
    padax.seed(3)
    model = mpu.PipelineLayer([mpu.LayerDesc(nn.Embedding, V, D)] + [mpu.LayerDesc(Block, D) for _ in range(6)]
                              + [mpu.LayerDesc(nn.Linear, D, V)], num_virtual_pipeline_stages=virtual,
                              loss_fn=lambda logits, y: F.cross_entropy(logits, y))
    assert model.num_chunks == 8 and model.segment_parts == list(range(9))
    blocks = list(model.run_function)     # stage s holds the non-contiguous chunks s, s + pp_degree, ...
    assert model.stage_layers(1) == blocks[1::pp_degree]
    pp = fleet.distributed_model(model)
    assert isinstance(pp, mpu.PipelineParallel) and pp.schedule_mode == "VPP"
    xs, ys = _data(4)
    x, y = padax.to_tensor(xs[0]), padax.to_tensor(ys[0])

    def sequential(m):
        mb = B // M
        return sum(F.cross_entropy(m(x[i * mb:(i + 1) * mb]), y[i * mb:(i + 1) * mb]) for i in range(M)) / M
    ref_loss, ref_grads = padax.value_and_grad(sequential)(model)
    loss, grads = padax.jit(pp.value_and_grad)(model, x, y)
    np.testing.assert_allclose(float(loss), float(ref_loss), rtol=RTOL)
    _assert_same(_params(grads), _params(ref_grads))
    assert np.abs(_params(grads)["run_function.0.weight"]).max() > 1e-3
    if pp_degree == 2:
        with pytest.raises(ValueError, match=r"num_microbatches \(3\) must be a multiple of 2"):
            mpu.pipeline_value_and_grad(model, x, y, mesh=pp._mesh, num_microbatches=3, schedule="VPP",
                                        data_axes=("dp",))
        with pytest.raises(ValueError, match="got schedule '1F1B' for num_virtual_pipeline_stages=4"):
            mpu.pipeline_value_and_grad(model, x, y, mesh=pp._mesh, num_microbatches=M, schedule="1F1B")
        with pytest.raises(ValueError, match="rise from 0 to 8 in 8 steps"):
            mpu.PipelineLayer([nn.Linear(D, D) for _ in range(8)], num_stages=4, num_virtual_pipeline_stages=2,
                              seg_method=[0, 4, 8])


def test_auto_parallel_to_static_matches_one_device():
    pm = dist.ProcessMesh([[0, 1, 2, 3], [4, 5, 6, 7]], dim_names=["dp", "mp"])
    padax.seed(4)
    base = TinyTransformer()
    ref_model, ref_losses, _ = _train(_on_dev0(base), _adamw())

    def shard_fn(name, layer, mesh):
        if isinstance(layer, nn.Linear) and layer.weight.shape[1] % 2 == 0:
            layer.weight = dist.shard_tensor(layer.weight, mesh, [dist.Replicate(), dist.Shard(1)])

    m = TinyTransformer()
    m.set_state_dict(base.state_dict())
    layer = dist.shard_layer(m, pm, shard_fn)
    assert layer.head.weight.sharding.spec == padax.P(None, "mp")
    assert layer.embed.weight.sharding.is_fully_replicated
    xs, ys = _data()
    loader = padax.io.DataLoader(padax.io.TensorDataset([padax.to_tensor(xs.reshape(-1, S)),
                                                         padax.to_tensor(ys.reshape(-1, S))]), batch_size=B)
    loader = dist.shard_dataloader(loader, pm, shard_dims="dp")
    opt = dist.shard_optimizer(_adamw(), dist.ShardingStage1("dp", pm))
    model = dist.to_static(layer, loader, lambda logits, y: F.cross_entropy(logits, y), opt)
    losses = []
    for x, y in loader:
        assert x.sharding.spec == padax.P("dp", None)
        losses.append(float(model(x, y)))
    np.testing.assert_allclose(losses, ref_losses, rtol=RTOL)
    _assert_same({k: v.numpy() for k, v in model.state_dict("param").items()}, _params(ref_model))
    assert model.network.head.weight.sharding.spec == padax.P(None, "mp")


def test_collectives_inside_loop_and_branch_bodies_of_shard_map():
    """The pipeline schedules rely on ppermute inside scan and switch bodies within shard_map."""
    mesh = padax.make_mesh((8,), ("i",))
    ring = [(j, (j + 1) % 8) for j in range(8)]

    def shift(v):
        return padax.lax.ppermute(v, "i", ring)

    def body(x):
        def tick(c, t):   # every device takes the same branch: shift by 1 on even ticks, by 2 on odd ones
            return padax.lax.cond(t % 2 == 0, shift, lambda v: shift(shift(v)), c), padax.lax.psum(c, "i")
        return padax.lax.scan(tick, x, padax.arange(3))
    f = padax.shard_map(body, mesh, padax.P("i"), (padax.P("i"), padax.P("i")))
    out, sums = padax.jit(f)(padax.arange(8.0))
    np.testing.assert_array_equal(out.numpy(), np.roll(np.arange(8.0), 4))
    np.testing.assert_array_equal(sums.numpy(), np.full((24, 1), 28.0))  # 3 ticks x 8 blocks of [1]
    g = padax.grad(lambda x: (f(x)[0] * padax.arange(8.0)).sum())(padax.arange(8.0))
    np.testing.assert_array_equal(g.numpy(), np.roll(np.arange(8.0), -4))
