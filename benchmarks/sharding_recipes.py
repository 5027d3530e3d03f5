"""The distributed-recipe steps of benchmarks/sharding.py, for padax and for jax with the same shardings.

Run inside a worker process that has 8 CPU devices (see sharding.py).
"""
from __future__ import annotations

import numpy as np

B, SEQ, D, HEADS, FF = 8, 128, 256, 8, 1024
DP, MP = 2, 4
LR = 0.01
Z_BATCH, Z_DIMS = 256, (512, 1024, 1024, 512)
BETA1, BETA2, EPS = 0.9, 0.999, 1e-8


def _tp_params(rng):
    def w(shape):
        return (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32)
    p = {f"attn.{n}_proj.weight": w((D, D)) for n in ("q", "k", "v", "out")}
    p.update({f"attn.{n}_proj.bias": np.zeros(D, np.float32) for n in ("q", "k", "v", "out")})
    p.update({"mlp.fc1.weight": w((D, FF)), "mlp.fc1.bias": np.zeros(FF, np.float32),
              "mlp.fc2.weight": w((FF, D)), "mlp.fc2.bias": np.zeros(D, np.float32),
              "norm1.weight": np.ones(D, np.float32), "norm1.bias": np.zeros(D, np.float32),
              "norm2.weight": np.ones(D, np.float32), "norm2.bias": np.zeros(D, np.float32)})
    return p


def _tp_input():
    return np.random.default_rng(1).standard_normal((B, SEQ, D)).astype(np.float32)


def padax_tp_block():
    import padax
    from padax.distributed import fleet
    from padax.distributed.fleet.meta_parallel import ParallelTransformerLayer
    st = fleet.DistributedStrategy()
    st.hybrid_configs = {"dp_degree": DP, "mp_degree": MP}
    fleet.init(is_collective=True, strategy=st)
    block = ParallelTransformerLayer(D, HEADS, FF)
    block.set_state_dict(_tp_params(np.random.default_rng(0)))
    model = fleet.distributed_model(block)
    opt = fleet.distributed_optimizer(padax.optimizer.SGD(LR))
    state = {"m": model, "s": opt.init(model)}
    x = fleet.shard_batch(padax.to_tensor(_tp_input()))

    @padax.jit
    def step(m, s, x):
        loss, g = padax.value_and_grad(lambda m: (m(x) ** 2).mean())(m)
        m, s = opt.step(m, g, s)
        return m, s, loss

    def run():
        state["m"], state["s"], loss = step(state["m"], state["s"], x)
        loss.block_until_ready()
        state["loss"] = loss
    run.state = state  # the last loss, for checking both sides compute the same
    return run


def jax_tp_block():
    import jax
    import jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    devs = np.array(jax.devices()[:8]).reshape(DP, 1, 1, 1, MP)
    mesh = Mesh(devs, ("dp", "pp", "sharding", "sep", "mp"))

    def ns(*spec):
        return NamedSharding(mesh, P(*spec))
    col_w, col_b, row_w, rep = ns(None, "mp"), ns("mp"), ns("mp", None), ns()
    specs = {}
    for n in ("q", "k", "v"):
        specs[f"attn.{n}_proj.weight"], specs[f"attn.{n}_proj.bias"] = col_w, col_b
    specs["mlp.fc1.weight"], specs["mlp.fc1.bias"] = col_w, col_b
    specs["attn.out_proj.weight"], specs["mlp.fc2.weight"] = row_w, row_w
    for n in ("attn.out_proj.bias", "mlp.fc2.bias", "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias"):
        specs[n] = rep
    split_last, whole, heads = ns("dp", None, "mp"), ns("dp", None, None), ns("dp", None, "mp", None)
    c = jax.lax.with_sharding_constraint

    def ln(x, w, b):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / jnp.sqrt(var + 1e-5) * w + b

    def col(x, p, name):
        return c(x @ p[name + ".weight"] + p[name + ".bias"], split_last)

    def row(x, p, name):
        return c(c(x, split_last) @ p[name + ".weight"] + p[name + ".bias"], whole)

    def block(p, x):
        h = ln(x, p["norm1.weight"], p["norm1.bias"])
        q, k, v = (c(col(h, p, f"attn.{n}_proj").reshape(B, SEQ, HEADS, D // HEADS), heads) for n in "qkv")
        s = jnp.einsum("bqhd,bkhd->bhqk", q * (D // HEADS) ** -0.5, k)
        o = c(jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, axis=-1), v), heads)
        x = x + row(o.reshape(B, SEQ, D), p, "attn.out_proj")
        h = ln(x, p["norm2.weight"], p["norm2.bias"])
        return x + row(jax.nn.gelu(col(h, p, "mlp.fc1"), approximate=False), p, "mlp.fc2")

    def train_step(p, x):
        loss, g = jax.value_and_grad(lambda p: (block(p, x) ** 2).mean())(p)
        return jax.tree_util.tree_map(lambda p, g: p - LR * g, p, g), loss

    step = jax.jit(train_step, in_shardings=(specs, ns("dp")), out_shardings=(specs, rep))
    state = {"p": jax.device_put(_tp_params(np.random.default_rng(0)), specs)}
    x = jax.device_put(_tp_input(), ns("dp"))

    def run():
        state["p"], loss = step(state["p"], x)
        loss.block_until_ready()
        state["loss"] = loss
    run.state = state  # the last loss, for checking both sides compute the same
    return run


def _zero_params():
    rng = np.random.default_rng(2)
    p = {}
    for i, (a, b) in enumerate(zip(Z_DIMS[:-1], Z_DIMS[1:])):
        p[f"fc{i}.weight"] = (rng.standard_normal((a, b)) / np.sqrt(a)).astype(np.float32)
        p[f"fc{i}.bias"] = np.zeros(b, np.float32)
    return p


def _zero_data():
    return np.random.default_rng(3).standard_normal((Z_BATCH, Z_DIMS[0])).astype(np.float32)


def padax_zero3_step():
    import padax
    import padax.nn as nn
    from padax.distributed.sharding import group_sharded_parallel

    class MLP(nn.Layer):
        def __init__(self):
            super().__init__()
            for i, (a, b) in enumerate(zip(Z_DIMS[:-1], Z_DIMS[1:])):
                setattr(self, f"fc{i}", nn.Linear(a, b))

        def forward(self, x):
            n = len(Z_DIMS) - 1
            for i in range(n):
                x = getattr(self, f"fc{i}")(x)
                x = nn.functional.relu(x) if i < n - 1 else x
            return x

    from padax.distributed import fleet
    st = fleet.DistributedStrategy()
    st.hybrid_configs = {"dp_degree": 8}  # the worker may hold the TP block's (dp 2, mp 4) mesh from before
    fleet.init(is_collective=True, strategy=st)
    m = MLP()
    m.set_state_dict(_zero_params())
    model, opt, _ = group_sharded_parallel(m, padax.optimizer.Adam(LR), "p_g_os")
    state = {"m": model, "s": opt.init(model)}
    x = model.shard_batch(padax.to_tensor(_zero_data()))

    @padax.jit
    def step(m, s, x):
        loss, g = padax.value_and_grad(lambda m: (m(x) ** 2).mean())(m)
        m, s = opt.step(m, g, s)
        return m, s, loss

    def run():
        state["m"], state["s"], loss = step(state["m"], state["s"], x)
        loss.block_until_ready()
        state["loss"] = loss
    run.state = state  # the last loss, for checking both sides compute the same
    return run


def jax_zero3_step():
    import jax
    import jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    mesh = Mesh(np.array(jax.devices()[:8]), ("dp",))
    split, rep = NamedSharding(mesh, P("dp")), NamedSharding(mesh, P())
    params = _zero_params()
    specs = {k: split for k in params}
    n = len(Z_DIMS) - 1

    def forward(p, x):
        for i in range(n):
            x = x @ p[f"fc{i}.weight"] + p[f"fc{i}.bias"]
            x = jax.nn.relu(x) if i < n - 1 else x
        return x

    def train_step(p, m1, m2, t, x):
        loss, g = jax.value_and_grad(lambda p: (forward(p, x) ** 2).mean())(p)
        g = jax.lax.with_sharding_constraint(g, specs)
        t = t + 1
        tf = t.astype(jnp.float32)
        corr2 = jnp.sqrt(1 - BETA2 ** tf)
        lr_t = LR * corr2 / (1 - BETA1 ** tf)
        m1 = jax.tree_util.tree_map(lambda m, g: BETA1 * m + (1 - BETA1) * g, m1, g)
        m2 = jax.tree_util.tree_map(lambda v, g: BETA2 * v + (1 - BETA2) * g * g, m2, g)
        p = jax.tree_util.tree_map(lambda p, m, v: p - lr_t * (m / (jnp.sqrt(v) + EPS * corr2)), p, m1, m2)
        return p, m1, m2, t, loss

    step = jax.jit(train_step, in_shardings=(specs, specs, specs, rep, split),
                   out_shardings=(specs, specs, specs, rep, rep))
    zeros = {k: np.zeros_like(v) for k, v in params.items()}
    state = {"p": jax.device_put(params, specs), "m1": jax.device_put(zeros, specs),
             "m2": jax.device_put(zeros, specs), "t": jax.device_put(np.int32(0), rep)}
    x = jax.device_put(_zero_data(), split)

    def run():
        state["p"], state["m1"], state["m2"], state["t"], loss = step(state["p"], state["m1"], state["m2"],
                                                                      state["t"], x)
        loss.block_until_ready()
        state["loss"] = loss
    run.state = state  # the last loss, for checking both sides compute the same
    return run
