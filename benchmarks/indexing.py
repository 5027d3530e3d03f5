"""Index dtypes in compiled gather/scatter-heavy programs: padax's int64 indices (Paddle's default
for randint/argsort/topk outputs) against the same program with int32 indices (the baseline) and
against jax (int32 indices).

- embedding_grad: loss and gradient of an embedding lookup (a gather forward, a scatter-add
  backward) of 4096 tokens from a 32768 x 128 table;
- sort_gather: argsort of 2**16 keys, then take_along_axis and a scatter of the sorted values.
"""
from __future__ import annotations

import numpy as np

from benchmarks.harness import Workload

_V, _D, _T = 32768, 128, 4096
_RNG = np.random.default_rng(5)
_TABLE = _RNG.standard_normal((_V, _D)).astype(np.float32)
_IDS = _RNG.integers(0, _V, _T)
_KEYS = _RNG.standard_normal(1 << 16).astype(np.float32)


def _padax_embedding(index_dtype):
    def setup():
        import padax

        def loss(table, ids):
            return (padax.gather(table, ids) ** 2).sum()
        f = padax.jit(padax.value_and_grad(loss))
        table, ids = padax.device_put(_TABLE), padax.device_put(_IDS.astype(index_dtype))
        return lambda: padax.block_until_ready(f(table, ids))
    return setup


def jax_embedding():
    import jax
    import jax.numpy as jnp
    f = jax.jit(jax.value_and_grad(lambda table, ids: (jnp.take(table, ids, axis=0) ** 2).sum()))
    table, ids = jax.device_put(_TABLE), jax.device_put(_IDS.astype(np.int32))
    return lambda: jax.block_until_ready(f(table, ids))


def _padax_sort_gather(index_dtype):
    def setup():
        import padax

        def step(keys):
            order = padax.argsort(keys).astype(index_dtype)
            ranked = padax.take_along_axis(keys, order, 0)
            return padax.zeros_like(keys).at[order].set(ranked * 2.0)
        f = padax.jit(step)
        keys = padax.device_put(_KEYS)
        return lambda: f(keys).block_until_ready()
    return setup


def jax_sort_gather():
    import jax
    import jax.numpy as jnp

    def step(keys):
        order = jnp.argsort(keys)
        ranked = jnp.take_along_axis(keys, order, 0)
        return jnp.zeros_like(keys).at[order].set(ranked * 2.0)
    f = jax.jit(step)
    keys = jax.device_put(_KEYS)
    return lambda: f(keys).block_until_ready()


def workloads() -> list[Workload]:
    return [
        Workload("embedding_grad", f"jit value_and_grad of an embedding lookup, {_T} int64 ids into "
                                   f"float32[{_V},{_D}]; baseline: int32 ids",
                 {"padax": _padax_embedding(np.int64), "jax": jax_embedding},
                 target=1.3, baseline=_padax_embedding(np.int32), baseline_target=1.15),
        Workload("sort_gather", "jit argsort (int64 indices) + take_along_axis + scatter of 65536 keys; "
                                "baseline: int32 indices",
                 {"padax": _padax_sort_gather(np.int64), "jax": jax_sort_gather},
                 target=1.3, baseline=_padax_sort_gather(np.int32), baseline_target=1.15),
    ]
