"""Paddle's dygraph training step on padax's tape: `loss.backward(); opt.step(); opt.clear_grad()` on the digits CNN
(padax/examples/cnn_digits.py, width 32, no dropout), Adam, batch 64.

- cnn_step_compiled: the tape-style step under `padax.jit` (forward, the tape's backward and the update in one
  program); baseline: the hand-written functional step (value_and_grad + the optimizer's pure step), which it
  should equal (<= 1.05); paddle: Paddle's `jit.to_static` model trained by the same eager step.
- cnn_step_eager: the same step run eagerly on the tape; paddle: Paddle's eager (dygraph) step.
"""
from __future__ import annotations

import numpy as np

from benchmarks.harness import Workload

_BATCH, _LR = 64, 3e-3


def _data():
    from padax.examples.cnn_digits import load_split
    x_tr, y_tr, _, _ = load_split(0)
    return x_tr[:_BATCH], y_tr[:_BATCH].astype(np.int64)


def _tape_step(lib, model, opt):
    F = lib.nn.functional

    def step(x, y):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    return step


def _padax_setup():
    import padax
    from padax.examples.cnn_digits import DigitsCNN
    padax.seed(0)
    model = DigitsCNN(dropout=0.0).train()
    return padax, model, padax.optimizer.Adam(_LR, parameters=model.parameters())


def padax_compiled():
    padax, model, opt = _padax_setup()
    step = padax.jit(_tape_step(padax, model, opt))
    x, y = (padax.to_tensor(a) for a in _data())
    return lambda: step(x, y).block_until_ready()


def padax_eager():
    padax, model, opt = _padax_setup()
    step = _tape_step(padax, model, opt)
    x, y = (padax.to_tensor(a) for a in _data())
    return lambda: step(x, y).block_until_ready()


def padax_functional():
    import padax
    import padax.nn.functional as F
    from padax.examples.cnn_digits import DigitsCNN
    padax.seed(0)
    opt = padax.optimizer.Adam(_LR)
    state = {"model": DigitsCNN(dropout=0.0).train()}
    state["opt"] = opt.init(state["model"])

    @padax.jit
    def step(model, opt_state, x, y):
        def loss_fn(m):
            return F.cross_entropy(m(x), y), m
        (loss, model), grads = padax.value_and_grad(loss_fn, has_aux=True)(model)
        model, opt_state = opt.step(model, grads, opt_state)
        return model, opt_state, loss
    x, y = (padax.to_tensor(a) for a in _data())

    def run():
        state["model"], state["opt"], loss = step(state["model"], state["opt"], x, y)
        return loss.block_until_ready()
    return run


def _paddle_cnn(paddle):
    nn = paddle.nn
    net = nn.Sequential(nn.Conv2D(1, 32, 3, padding=1), nn.BatchNorm2D(32), nn.ReLU(), nn.MaxPool2D(2),
                        nn.Conv2D(32, 64, 3, padding=1), nn.BatchNorm2D(64), nn.ReLU(), nn.MaxPool2D(2),
                        nn.Flatten(), nn.Linear(256, 10))
    return net


def _paddle(static: bool):
    import paddle
    paddle.set_device("cpu")
    paddle.seed(0)
    net = _paddle_cnn(paddle)
    model = paddle.jit.to_static(net) if static else net
    opt = paddle.optimizer.Adam(_LR, parameters=net.parameters())
    step = _tape_step(paddle, model, opt)
    x, y = (paddle.to_tensor(a) for a in _data())
    return lambda: step(x, y).numpy()


def workloads() -> list[Workload]:
    return list(_WORKLOADS)


_WORKLOADS = [
    Workload("cnn_step_compiled", f"digits CNN train step (Adam, batch {_BATCH}) written Paddle's way "
             "(backward/step/clear_grad) under padax.jit; baseline: the functional step; paddle: to_static model",
             {"padax": padax_compiled, "paddle": lambda: _paddle(True)},
             baseline=padax_functional, baseline_target=1.05),
    Workload("cnn_step_eager", f"digits CNN train step (Adam, batch {_BATCH}) on the eager tape; paddle: dygraph",
             {"padax": padax_eager, "paddle": lambda: _paddle(False)}),
]
