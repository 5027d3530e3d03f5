"""padax.amp workloads: an MLP training step (Adam) under `auto_cast(level='O1', dtype='bfloat16')`, beside
jax doing the same by hand (float32 parameters, inputs and weights cast to bfloat16 for each matmul, loss in
float32), with the float32 padax step as the baseline. Paddle's auto_cast only acts on GPUs, so Paddle
is timed there only.
"""
from __future__ import annotations

import sys

import numpy as np

from benchmarks.harness import Unavailable, Workload

_SMOKE = "--smoke" in sys.argv
_B, _IN, _H, _OUT, _LR = 256, 512, 1024, 10, 1e-3
if _SMOKE:
    _B, _IN, _H = 4, 8, 16
_RNG = np.random.default_rng(0)
_X = _RNG.standard_normal((_B, _IN)).astype(np.float32)
_Y = _RNG.integers(0, _OUT, _B).astype(np.int64)
_SIZES = [(_IN, _H), (_H, _H), (_H, _OUT)]
_W = [(_RNG.standard_normal(s).astype(np.float32) / np.sqrt(s[0]), np.zeros(s[1], np.float32)) for s in _SIZES]


def _padax_step(amp: bool):
    import padax
    from padax import nn
    F = nn.functional
    model = nn.Sequential(nn.Linear(_IN, _H), nn.ReLU(), nn.Linear(_H, _H), nn.ReLU(), nn.Linear(_H, _OUT))
    model.set_state_dict({f"{2 * i}.{n}": v for i, (w, b) in enumerate(_W) for n, v in (("weight", w), ("bias", b))})
    opt = padax.optimizer.Adam(learning_rate=_LR)
    state = [model, opt.init(model)]
    x, y = padax.to_tensor(_X), padax.to_tensor(_Y)

    def loss_fn(m):
        with padax.amp.auto_cast(enable=amp, level="O1", dtype="bfloat16"):
            return F.cross_entropy(m(x), y)

    @padax.jit
    def step(m, s):
        loss, g = padax.value_and_grad(loss_fn)(m)
        m, s = opt.step(m, g, s)
        return m, s, loss

    def run():
        state[0], state[1], loss = step(state[0], state[1])
        return loss.block_until_ready()
    return run


def padax_mlp_bf16():
    return _padax_step(True)


def padax_mlp_f32():
    return _padax_step(False)


def jax_mlp_bf16():
    import jax
    import jax.numpy as jnp
    params = [(jnp.asarray(w), jnp.asarray(b)) for w, b in _W]
    x, y = jnp.asarray(_X), jnp.asarray(_Y)
    b1, b2, eps = 0.9, 0.999, 1e-8

    def loss_fn(ps):
        h = x
        for i, (w, b) in enumerate(ps):
            h = (h.astype(jnp.bfloat16) @ w.astype(jnp.bfloat16)).astype(jnp.float32) + b
            if i < len(ps) - 1:
                h = jax.nn.relu(h)
        logp = jax.nn.log_softmax(h)
        return -jnp.mean(jnp.take_along_axis(logp, y[:, None], 1))

    @jax.jit
    def step(ps, m, v, t):
        loss, g = jax.value_and_grad(loss_fn)(ps)
        t = t + 1
        m = jax.tree.map(lambda a, b: b1 * a + (1 - b1) * b, m, g)
        v = jax.tree.map(lambda a, b: b2 * a + (1 - b2) * b * b, v, g)
        corr2 = jnp.sqrt(1 - b2 ** t)
        lr_t = _LR * corr2 / (1 - b1 ** t)
        ps = jax.tree.map(lambda p, a, b: p - lr_t * a / (jnp.sqrt(b) + eps * corr2), ps, m, v)
        return ps, m, v, t, loss

    zeros = jax.tree.map(jnp.zeros_like, params)
    state = [params, zeros, zeros, jnp.zeros((), jnp.float32)]

    def run():
        *new, loss = step(*state)
        state[:] = new
        return loss.block_until_ready()
    return run


def paddle_mlp_bf16():
    import paddle
    if not paddle.device.is_compiled_with_cuda() or paddle.device.cuda.device_count() == 0:
        raise Unavailable("Paddle's auto_cast acts on GPUs only (on CPU it runs float32)")
    model = paddle.nn.Sequential(paddle.nn.Linear(_IN, _H), paddle.nn.ReLU(), paddle.nn.Linear(_H, _H),
                                 paddle.nn.ReLU(), paddle.nn.Linear(_H, _OUT))
    opt = paddle.optimizer.Adam(learning_rate=_LR, parameters=model.parameters())
    x, y = paddle.to_tensor(_X), paddle.to_tensor(_Y)

    def run():
        with paddle.amp.auto_cast(level="O1", dtype="bfloat16"):
            loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return float(loss)
    return run


def workloads() -> list[Workload]:
    what = f"MLP {_IN}-{_H}-{_H}-{_OUT} Adam training step, batch {_B}, auto_cast O1 bfloat16"
    return [Workload("mlp_bf16_o1_train_step", f"{what} (jax: manual bf16 casts; baseline: padax float32)",
                     {"padax": padax_mlp_bf16, "jax": jax_mlp_bf16, "paddle": paddle_mlp_bf16}, target=1.05,
                     baseline=padax_mlp_f32)]
