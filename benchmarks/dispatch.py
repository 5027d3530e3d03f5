"""Dispatch overheads: eager ops, cached jit calls, trace+compile time.

padax and jax run the same lax-level programs (`padax.lax` / `jax.lax`:
same primitives, same shapes), so the ratio measures the machinery around
XLA, not different math. paddle runs its own eager ops and
`paddle.jit.to_static` on the CPU.
"""
from __future__ import annotations

import numpy as np

from benchmarks.harness import Unavailable, Workload

_RNG = np.random.default_rng(0)
_A1000 = _RNG.standard_normal(1000).astype(np.float32)
_B1000 = _RNG.standard_normal(1000).astype(np.float32)
_M256A = _RNG.standard_normal((256, 256)).astype(np.float32)
_M256B = _RNG.standard_normal((256, 256)).astype(np.float32)
_V4A = np.arange(4, dtype=np.float32)
_V4B = np.arange(4, dtype=np.float32) + 0.5

# the 4-layer MLP of the compile workload
_MLP_WIDTHS = (64, 256, 256, 256, 10)
_MLP_BATCH = 128
_MLP_PARAMS = [((_RNG.standard_normal((i, o)) * np.sqrt(2.0 / i)).astype(np.float32),
                np.zeros((o,), np.float32)) for i, o in zip(_MLP_WIDTHS[:-1], _MLP_WIDTHS[1:])]
_MLP_X = _RNG.random((_MLP_BATCH, _MLP_WIDTHS[0]), dtype=np.float32)
_MLP_ONEHOT = np.eye(_MLP_WIDTHS[-1], dtype=np.float32)[_RNG.integers(0, _MLP_WIDTHS[-1], _MLP_BATCH)]

_MATMUL_DN = (((1,), (0,)), ((), ()))


def mlp_loss(L, params, x, onehot):
    """Forward + mean softmax cross-entropy of an MLP, written against a lax namespace
    (`padax.lax` or `jax.lax`: both take the same calls), so both trace the same program."""
    n = _MLP_BATCH
    h = x
    for i, (w, b) in enumerate(params):
        width = _MLP_WIDTHS[i + 1]
        h = L.add(L.dot_general(h, w, _MATMUL_DN), L.broadcast_in_dim(b, (n, width), (1,)))
        if i < len(params) - 1:
            h = L.max(h, 0.0)
    shape = (n, _MLP_WIDTHS[-1])
    z = L.sub(h, L.broadcast_in_dim(L.reduce_max(h, (1,)), shape, (0,)))
    lse = L.log(L.reduce_sum(L.exp(z), (1,)))
    logp = L.sub(z, L.broadcast_in_dim(lse, shape, (0,)))
    return L.mul(L.reduce_sum(L.mul(onehot, logp), (0, 1)), -1.0 / n)


# -- padax ---------------------------------------------------------------------------------

def _padax():
    import padax
    import padax.lax as lax
    return padax, lax


def padax_eager_add():
    padax, lax = _padax()
    x, y = padax.device_put(_A1000), padax.device_put(_B1000)
    return lambda: lax.add(x, y).block_until_ready()


def padax_eager_matmul():
    padax, lax = _padax()
    a, b = padax.device_put(_M256A), padax.device_put(_M256B)
    return lambda: lax.dot_general(a, b, _MATMUL_DN).block_until_ready()


def padax_api_add():
    padax, _ = _padax()
    if not hasattr(padax.Tensor, "__add__"):
        raise Unavailable("padax.Tensor has no operators yet")
    x, y = padax.to_tensor(_A1000), padax.to_tensor(_B1000)
    return lambda: (x + y).block_until_ready()


def padax_api_matmul():
    padax, _ = _padax()
    if not hasattr(padax, "matmul"):
        raise Unavailable("padax.matmul does not exist yet")
    a, b = padax.to_tensor(_M256A), padax.to_tensor(_M256B)
    return lambda: padax.matmul(a, b).block_until_ready()


def padax_jit_call():
    padax, lax = _padax()
    f = padax.jit(lambda x, y: lax.add(lax.mul(x, y), 1.0))
    x, y = padax.device_put(_V4A), padax.device_put(_V4B)
    return lambda: f(x, y).block_until_ready()


def padax_compile_mlp():
    padax, lax = _padax()
    padax.config.update("compilation_cache_dir", None)  # measure real compiles, not disk-cache hits
    params = [(padax.device_put(w), padax.device_put(b)) for w, b in _MLP_PARAMS]
    x, onehot = padax.device_put(_MLP_X), padax.device_put(_MLP_ONEHOT)

    def thunk():
        def loss(params, x, onehot):  # a fresh function object: nothing cached
            return mlp_loss(lax, params, x, onehot)
        return padax.jit(loss)(params, x, onehot).block_until_ready()
    return thunk


# -- jax -----------------------------------------------------------------------------------

def _jax():
    import jax
    import jax.lax as jlax
    return jax, jlax


def jax_eager_add():
    jax, jlax = _jax()
    x, y = jax.device_put(_A1000), jax.device_put(_B1000)
    return lambda: jlax.add(x, y).block_until_ready()


def jax_eager_matmul():
    jax, jlax = _jax()
    a, b = jax.device_put(_M256A), jax.device_put(_M256B)
    return lambda: jlax.dot_general(a, b, _MATMUL_DN).block_until_ready()


def jax_api_add():
    jax, _ = _jax()
    x, y = jax.device_put(_A1000), jax.device_put(_B1000)
    return lambda: (x + y).block_until_ready()


def jax_api_matmul():
    jax, _ = _jax()
    import jax.numpy as jnp
    a, b = jax.device_put(_M256A), jax.device_put(_M256B)
    return lambda: jnp.matmul(a, b).block_until_ready()


def jax_jit_call():
    jax, jlax = _jax()
    f = jax.jit(lambda x, y: jlax.add(jlax.mul(x, y), 1.0))
    x, y = jax.device_put(_V4A), jax.device_put(_V4B)
    return lambda: f(x, y).block_until_ready()


def jax_compile_mlp():
    jax, jlax = _jax()
    params = [(jax.device_put(w), jax.device_put(b)) for w, b in _MLP_PARAMS]
    x, onehot = jax.device_put(_MLP_X), jax.device_put(_MLP_ONEHOT)

    def thunk():
        def loss(params, x, onehot):
            return mlp_loss(jlax, params, x, onehot)
        return jax.jit(loss)(params, x, onehot).block_until_ready()
    return thunk


# -- paddle (CPU) ----------------------------------------------------------------------------

def _paddle():
    import paddle
    paddle.set_device("cpu")
    return paddle


def paddle_eager_add():
    paddle = _paddle()
    x, y = paddle.to_tensor(_A1000), paddle.to_tensor(_B1000)
    return lambda: paddle.add(x, y)


def paddle_eager_matmul():
    paddle = _paddle()
    a, b = paddle.to_tensor(_M256A), paddle.to_tensor(_M256B)
    return lambda: paddle.matmul(a, b)


def paddle_api_add():
    paddle = _paddle()
    x, y = paddle.to_tensor(_A1000), paddle.to_tensor(_B1000)
    return lambda: x + y


def _paddle_mul_add_one(x, y):
    return x * y + 1.0


def paddle_jit_call():
    paddle = _paddle()
    f = paddle.jit.to_static(_paddle_mul_add_one, full_graph=True)
    x, y = paddle.to_tensor(_V4A), paddle.to_tensor(_V4B)
    return lambda: f(x, y)


def _paddle_mlp_loss(w0, b0, w1, b1, w2, b2, w3, b3, x, onehot):
    import paddle
    import paddle.nn.functional as F
    h = x
    for w, b, last in ((w0, b0, False), (w1, b1, False), (w2, b2, False), (w3, b3, True)):
        h = paddle.matmul(h, w) + b
        if not last:
            h = F.relu(h)
    logp = F.log_softmax(h, axis=1)
    return (onehot * logp).sum() * (-1.0 / _MLP_BATCH)


def paddle_compile_mlp():
    paddle = _paddle()
    if not hasattr(paddle, "jit") or not hasattr(paddle.jit, "to_static"):
        raise Unavailable("paddle.jit.to_static is missing")
    args = [paddle.to_tensor(a) for wb in _MLP_PARAMS for a in wb]
    args += [paddle.to_tensor(_MLP_X), paddle.to_tensor(_MLP_ONEHOT)]

    def thunk():
        def loss(w0, b0, w1, b1, w2, b2, w3, b3, x, onehot):  # a fresh function: a fresh program cache
            return _paddle_mlp_loss(w0, b0, w1, b1, w2, b2, w3, b3, x, onehot)
        out = paddle.jit.to_static(loss, full_graph=True)(*args)
        return float(out)
    return thunk


def workloads() -> list[Workload]:
    return [
        Workload("eager_add", "eager elementwise add of two float32[1000] arrays (lax.add; paddle.add)",
                 {"padax": padax_eager_add, "jax": jax_eager_add, "paddle": paddle_eager_add}, target=1.0),
        Workload("eager_matmul", "eager float32[256,256] @ float32[256,256] (lax.dot_general; paddle.matmul)",
                 {"padax": padax_eager_matmul, "jax": jax_eager_matmul, "paddle": paddle_eager_matmul},
                 target=1.0),
        Workload("api_add", "eager `x + y` operator on two float32[1000] Tensors (Paddle-level API; "
                            "jax: Array.__add__)",
                 {"padax": padax_api_add, "jax": jax_api_add, "paddle": paddle_api_add}, target=1.0),
        Workload("api_matmul", "eager padax.matmul / jnp.matmul / paddle.matmul of float32[256,256] "
                               "(Paddle-level API)",
                 {"padax": padax_api_matmul, "jax": jax_api_matmul, "paddle": paddle_eager_matmul},
                 target=1.0),
        Workload("jit_call", "cached call of jit(lambda x, y: x * y + 1) on float32[4] "
                             "(paddle: jit.to_static)",
                 {"padax": padax_jit_call, "jax": jax_jit_call, "paddle": paddle_jit_call}, target=1.5),
        Workload("compile_mlp", "trace + lower + compile + first call of a 4-layer MLP "
                                f"({'-'.join(map(str, _MLP_WIDTHS))}, batch {_MLP_BATCH}) forward + "
                                "softmax cross-entropy, a fresh function each time "
                                "(paddle: first call of jit.to_static(full_graph=True), which builds "
                                "a static program but compiles no kernels, so it is not like for like)",
                 {"padax": padax_compile_mlp, "jax": jax_compile_mlp, "paddle": paddle_compile_mlp},
                 target=1.2, fresh=True),
    ]
