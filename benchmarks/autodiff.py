"""Autodiff workloads: a compiled MLP training step, a compiled Hessian, trace time of grad.

padax and jax run the same lax-level programs; paddle runs its eager
training step (forward, backward, SGD) and `paddle.autograd.hessian`.
"""
from __future__ import annotations

import numpy as np

from benchmarks.harness import Unavailable, Workload

_RNG = np.random.default_rng(1)
_WIDTHS = (784, 512, 512, 10)
_BATCH = 128
_PARAMS = [((_RNG.standard_normal((i, o)) * np.sqrt(2.0 / i)).astype(np.float32), np.zeros((o,), np.float32))
           for i, o in zip(_WIDTHS[:-1], _WIDTHS[1:])]
_X = _RNG.random((_BATCH, _WIDTHS[0]), dtype=np.float32)
_LABELS = _RNG.integers(0, _WIDTHS[-1], _BATCH)
_ONEHOT = np.eye(_WIDTHS[-1], dtype=np.float32)[_LABELS]
_LR = 0.01

_H_N = 200
_H_W = (_RNG.standard_normal((_H_N, _H_N)) / np.sqrt(_H_N)).astype(np.float32)
_H_X = _RNG.standard_normal(_H_N).astype(np.float32)

_DEEP_LAYERS = 50
_DEEP_W = [(_RNG.standard_normal((32, 32)) / np.sqrt(32)).astype(np.float32) for _ in range(_DEEP_LAYERS)]
_DEEP_X = _RNG.standard_normal((8, 32)).astype(np.float32)
_DN = (((1,), (0,)), ((), ()))


def mlp_loss(L, params, x, onehot):
    """MLP forward + mean softmax cross-entropy against a lax namespace (padax.lax or jax.lax)."""
    n, h = _BATCH, x
    for i, (w, b) in enumerate(params):
        h = L.add(L.dot_general(h, w, _DN), L.broadcast_in_dim(b, (n, _WIDTHS[i + 1]), (1,)))
        if i < len(params) - 1:
            h = L.max(h, 0.0)
    shape = (n, _WIDTHS[-1])
    z = L.sub(h, L.broadcast_in_dim(L.reduce_max(h, (1,)), shape, (0,)))
    logp = L.sub(z, L.broadcast_in_dim(L.log(L.reduce_sum(L.exp(z), (1,))), shape, (0,)))
    return L.mul(L.reduce_sum(L.mul(onehot, logp), (0, 1)), -1.0 / n)


def _train_step(fw, L, tree_map):
    def step(params, x, onehot):
        loss, grads = fw.value_and_grad(lambda p: mlp_loss(L, p, x, onehot))(params)
        return tree_map(lambda p, g: L.sub(p, L.mul(g, _LR)), params, grads), loss
    return fw.jit(step)


def _hess_fn(L, w):
    return lambda x: L.reduce_sum(L.tanh(L.dot_general(w, x, _DN)), (0,))


def _deep_loss(L, ws, x):
    h = x
    for w in ws:
        h = L.tanh(L.dot_general(h, w, _DN))
    return L.reduce_sum(h, (0, 1))


# -- padax ----------------------------------------------------------------------------------

def padax_mlp_train_step():
    import padax
    import padax.lax as lax
    params = [(padax.device_put(w), padax.device_put(b)) for w, b in _PARAMS]
    x, onehot = padax.device_put(_X), padax.device_put(_ONEHOT)
    step = _train_step(padax, lax, padax.tree.map)
    return lambda: step(params, x, onehot)[1].block_until_ready()


def padax_hessian():
    import padax
    import padax.lax as lax
    h = padax.jit(padax.hessian(_hess_fn(lax, padax.device_put(_H_W))))
    x = padax.device_put(_H_X)
    return lambda: h(x).block_until_ready()


def padax_trace_grad_deep():
    import padax
    import padax.lax as lax
    ws = [padax.device_put(w) for w in _DEEP_W]
    x = padax.device_put(_DEEP_X)
    return lambda: padax.make_jaxpr(padax.grad(lambda ws: _deep_loss(lax, ws, x)))(ws)


# -- jax --------------------------------------------------------------------------------------

def jax_mlp_train_step():
    import jax
    import jax.lax as jlax
    params = [(jax.device_put(w), jax.device_put(b)) for w, b in _PARAMS]
    x, onehot = jax.device_put(_X), jax.device_put(_ONEHOT)
    step = _train_step(jax, jlax, jax.tree_util.tree_map)
    return lambda: step(params, x, onehot)[1].block_until_ready()


def jax_hessian():
    import jax
    import jax.lax as jlax
    h = jax.jit(jax.hessian(_hess_fn(jlax, jax.device_put(_H_W))))
    x = jax.device_put(_H_X)
    return lambda: h(x).block_until_ready()


def jax_trace_grad_deep():
    import jax
    import jax.lax as jlax
    ws = [jax.device_put(w) for w in _DEEP_W]
    x = jax.device_put(_DEEP_X)
    return lambda: jax.make_jaxpr(jax.grad(lambda ws: _deep_loss(jlax, ws, x)))(ws)


# -- paddle (CPU, eager) ------------------------------------------------------------------------

def paddle_mlp_train_step():
    import paddle
    import paddle.nn.functional as F
    paddle.set_device("cpu")
    params = []
    for w, b in _PARAMS:
        pw, pb = paddle.to_tensor(w, stop_gradient=False), paddle.to_tensor(b, stop_gradient=False)
        params += [pw, pb]
    x, labels = paddle.to_tensor(_X), paddle.to_tensor(_LABELS.astype(np.int64))
    opt = paddle.optimizer.SGD(learning_rate=_LR, parameters=params)

    def step():
        h = x
        for i in range(0, len(params), 2):
            h = paddle.matmul(h, params[i]) + params[i + 1]
            if i < len(params) - 2:
                h = F.relu(h)
        loss = F.cross_entropy(h, labels)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return float(loss)
    return step


def paddle_hessian():
    import paddle
    paddle.set_device("cpu")
    if not hasattr(paddle.autograd, "hessian"):
        raise Unavailable("paddle.autograd.hessian is missing")
    w = paddle.to_tensor(_H_W)

    def step():
        x = paddle.to_tensor(_H_X, stop_gradient=False)
        y = paddle.tanh(paddle.matmul(w, x)).sum()
        h = paddle.autograd.hessian(y, x)
        return h[:]
    return step


def workloads() -> list[Workload]:
    return [
        Workload("mlp_train_step", f"compiled SGD step of an MLP {'-'.join(map(str, _WIDTHS))}, batch {_BATCH} "
                                   "(forward, cross-entropy, backward, update; paddle: eager step)",
                 {"padax": padax_mlp_train_step, "jax": jax_mlp_train_step, "paddle": paddle_mlp_train_step},
                 target=1.05),
        Workload("hessian_tanh", f"jit(hessian(sum(tanh(W @ x)))), x in R^{_H_N} "
                                 "(paddle: eager paddle.autograd.hessian)",
                 {"padax": padax_hessian, "jax": jax_hessian, "paddle": paddle_hessian}, target=1.05),
        Workload("trace_grad_deep", f"make_jaxpr(grad(f)) of a {_DEEP_LAYERS}-layer tanh MLP (trace time only)",
                 {"padax": padax_trace_grad_deep, "jax": jax_trace_grad_deep}, target=1.0),
    ]
