"""Attention workloads: causal self-attention forward + backward, padax's blockwise kernel
(`dot_product_attention(implementation='flash')`, O(T * d) memory, tiles above the diagonal skipped)
beside jax.nn.dot_product_attention (the materialised XLA form) and Paddle's
scaled_dot_product_attention (its CPU math path), and padax's own materialised form as the baseline."""
from __future__ import annotations

import sys

import numpy as np

from benchmarks.harness import Workload

_SMOKE = "--smoke" in sys.argv
_B, _T, _N, _H = 1, 2048, 8, 64          # batch, sequence, heads, head dim
if _SMOKE:
    _T, _N, _H = 16, 2, 8
_RNG = np.random.default_rng(5)
_Q, _K, _V = (_RNG.standard_normal((_B, _T, _N, _H)).astype(np.float32) for _ in range(3))


def _padax(impl):
    def setup():
        import padax
        import padax.nn.functional as F

        def loss(q, k, v):
            return F.dot_product_attention(q, k, v, is_causal=True, implementation=impl).sum()
        g = padax.jit(padax.grad(loss, argnums=(0, 1, 2)))
        q, k, v = (padax.device_put(a) for a in (_Q, _K, _V))
        return lambda: g(q, k, v)[0].block_until_ready()
    return setup


def jax_causal_attention_grad():
    import jax

    def loss(q, k, v):
        return jax.nn.dot_product_attention(q, k, v, is_causal=True).sum()
    g = jax.jit(jax.grad(loss, argnums=(0, 1, 2)))
    q, k, v = (jax.device_put(a) for a in (_Q, _K, _V))
    return lambda: g(q, k, v)[0].block_until_ready()


def paddle_causal_attention_grad():
    import paddle
    import paddle.nn.functional as PF
    ts = [paddle.to_tensor(a, stop_gradient=False) for a in (_Q, _K, _V)]

    def step():
        out = PF.scaled_dot_product_attention(*ts, is_causal=True)
        return paddle.grad(out.sum(), ts)[0].numpy()
    return step


def workloads() -> list[Workload]:
    return [
        Workload("causal_attention_grad", f"jit(grad) of causal self-attention, [B, T, N, H] = "
                                          f"[{_B}, {_T}, {_N}, {_H}]: padax blockwise vs jax's materialised form",
                 {"padax": _padax("flash"), "jax": jax_causal_attention_grad,
                  "paddle": paddle_causal_attention_grad},
                 baseline=_padax("xla")),
    ]
