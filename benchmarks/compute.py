"""Compiled compute throughput: a large matmul against jax and numpy (the machine's practical limit).

GFLOP/s = 2 * 2048**3 / time = 17.18 GFLOP / time.
"""
from __future__ import annotations

import numpy as np

from benchmarks.harness import Workload

_N = 2048
_RNG = np.random.default_rng(3)
_A = _RNG.standard_normal((_N, _N)).astype(np.float32)
_B = _RNG.standard_normal((_N, _N)).astype(np.float32)


def padax_matmul():
    import padax
    f = padax.jit(padax.matmul)
    a, b = padax.device_put(_A), padax.device_put(_B)
    return lambda: f(a, b).block_until_ready()


def jax_matmul():
    import jax
    import jax.numpy as jnp
    f = jax.jit(jnp.matmul)
    a, b = jax.device_put(_A), jax.device_put(_B)
    return lambda: f(a, b).block_until_ready()


def numpy_matmul():
    return lambda: _A @ _B


def workloads() -> list[Workload]:
    return [Workload("matmul_2048", f"jit float32[{_N},{_N}] @ float32[{_N},{_N}] "
                                    f"({2 * _N ** 3 / 1e9:.2f} GFLOP per call; numpy: its BLAS)",
                     {"padax": padax_matmul, "jax": jax_matmul, "numpy": numpy_matmul}, target=1.05)]
