"""vmap and control-flow workloads: per-example gradients, and a long scan with its gradient."""
from __future__ import annotations

import numpy as np

from benchmarks.harness import Unavailable, Workload

_RNG = np.random.default_rng(2)
_WIDTHS = (64, 128, 10)
_BATCH = 256
_PARAMS = [((_RNG.standard_normal((i, o)) * np.sqrt(2.0 / i)).astype(np.float32), np.zeros((o,), np.float32))
           for i, o in zip(_WIDTHS[:-1], _WIDTHS[1:])]
_X = _RNG.random((_BATCH, _WIDTHS[0]), dtype=np.float32)
_ONEHOT = np.eye(_WIDTHS[-1], dtype=np.float32)[_RNG.integers(0, _WIDTHS[-1], _BATCH)]
_DN = (((0,), (0,)), ((), ()))  # vector @ matrix

_T, _H, _I = 1000, 32, 8
_RNN_WX = (_RNG.standard_normal((_I, _H)) / np.sqrt(_I)).astype(np.float32)
_RNN_WH = (_RNG.standard_normal((_H, _H)) / np.sqrt(_H)).astype(np.float32)
_RNN_XS = _RNG.standard_normal((_T, _I)).astype(np.float32)


def example_loss(L, params, x, onehot):
    """Cross-entropy of one example through a 64-128-10 MLP (vector inputs)."""
    (w1, b1), (w2, b2) = params
    h = L.max(L.add(L.dot_general(x, w1, _DN), b1), 0.0)
    z = L.add(L.dot_general(h, w2, _DN), b2)
    z = L.sub(z, L.broadcast_in_dim(L.reduce_max(z, (0,)), (_WIDTHS[-1],), ()))
    logp = L.sub(z, L.broadcast_in_dim(L.log(L.reduce_sum(L.exp(z), (0,))), (_WIDTHS[-1],), ()))
    return L.neg(L.reduce_sum(L.mul(onehot, logp), (0,)))


def rnn_loss(L, scan, wx, wh, xs):
    def cell(h, x):
        h = L.tanh(L.add(L.dot_general(x, wx, _DN), L.dot_general(h, wh, _DN)))
        return h, L.reduce_sum(h, (0,))
    h0 = L.broadcast_in_dim(np.float32(0.0), (_H,), ())
    _, ys = scan(cell, h0, xs)
    return L.reduce_sum(ys, (0,))


def padax_per_example_grads():
    import padax
    import padax.lax as lax
    params = [(padax.device_put(w), padax.device_put(b)) for w, b in _PARAMS]
    f = padax.jit(padax.vmap(padax.grad(lambda p, x, y: example_loss(lax, p, x, y)), in_axes=(None, 0, 0)))
    x, y = padax.device_put(_X), padax.device_put(_ONEHOT)
    return lambda: f(params, x, y)[0][0].block_until_ready()


def jax_per_example_grads():
    import jax
    import jax.lax as jlax
    params = [(jax.device_put(w), jax.device_put(b)) for w, b in _PARAMS]
    f = jax.jit(jax.vmap(jax.grad(lambda p, x, y: example_loss(jlax, p, x, y)), in_axes=(None, 0, 0)))
    x, y = jax.device_put(_X), jax.device_put(_ONEHOT)
    return lambda: f(params, x, y)[0][0].block_until_ready()


def padax_scan_rnn_grad():
    import padax
    import padax.lax as lax
    if not hasattr(lax, "scan"):
        raise Unavailable("padax.lax.scan does not exist yet")
    wx, wh, xs = padax.device_put(_RNN_WX), padax.device_put(_RNN_WH), padax.device_put(_RNN_XS)
    g = padax.jit(padax.value_and_grad(lambda wx, wh: rnn_loss(lax, lax.scan, wx, wh, xs), argnums=(0, 1)))
    return lambda: g(wx, wh)[0].block_until_ready()


def jax_scan_rnn_grad():
    import jax
    import jax.lax as jlax
    xs = jax.device_put(_RNN_XS)
    g = jax.jit(jax.value_and_grad(lambda wx, wh: rnn_loss(jlax, jlax.scan, wx, wh, xs), argnums=(0, 1)))
    wx, wh = jax.device_put(_RNN_WX), jax.device_put(_RNN_WH)
    return lambda: g(wx, wh)[0].block_until_ready()


def workloads() -> list[Workload]:
    return [
        Workload("per_example_grads", f"jit(vmap(grad)) per-example gradients, MLP "
                                      f"{'-'.join(map(str, _WIDTHS))}, batch {_BATCH}",
                 {"padax": padax_per_example_grads, "jax": jax_per_example_grads}, target=1.05),
        Workload("scan_rnn_grad", f"jit(value_and_grad) of a {_T}-step scan over a tanh RNN cell "
                                  f"(hidden {_H})",
                 {"padax": padax_scan_rnn_grad, "jax": jax_scan_rnn_grad}, target=1.05),
    ]
