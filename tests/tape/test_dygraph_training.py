"""Paddle's dygraph training loop (`loss.backward(); opt.step(); opt.clear_grad()`) runs unchanged on padax and
gives Paddle's losses and parameters step by step: optimizers, weight decay, clipping, parameter groups,
schedulers, gradient accumulation, BatchNorm and a PyLayer."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from tests.conftest import paddle_oracle

RNG = np.random.default_rng(1)
X = RNG.standard_normal((8, 3)).astype(np.float32)
Y = RNG.standard_normal((8, 2)).astype(np.float32)
INIT = [RNG.standard_normal(s).astype(np.float32) * 0.5 for s in ((3, 4), (4,), (4, 2), (2,))]


def _net(lib, batch_norm=False):
    layers = [lib.nn.Linear(3, 4)] + ([lib.nn.BatchNorm1D(4)] if batch_norm else []) + [lib.nn.Tanh(),
                                                                                        lib.nn.Linear(4, 2)]
    net = lib.nn.Sequential(*layers)
    params = [p for p in net.parameters() if list(p.shape) in ([3, 4], [4, 2]) or
              (list(p.shape) in ([4], [2]) and p is not None)]
    linears = [m for m in net.sublayers() if isinstance(m, lib.nn.Linear)]
    for layer, (w, b) in zip(linears, ((INIT[0], INIT[1]), (INIT[2], INIT[3]))):
        layer.weight.set_value(w)
        layer.bias.set_value(b)
    del params
    return net


def _train(lib, make_opt, steps=4, accumulate=1, batch_norm=False, scheduler=None):
    net = _net(lib, batch_norm)
    opt = make_opt(lib, net)
    x, y = lib.to_tensor(X), lib.to_tensor(Y)
    losses = []
    for _ in range(steps):
        for k in range(accumulate):
            loss = ((net(x[k::accumulate]) - y[k::accumulate]) ** 2).mean()
            loss.backward()
        opt.step()
        opt.clear_grad()
        if scheduler is not None:
            opt._learning_rate.step()
        losses.append(float(loss))
    return losses, [p.numpy() for p in net.parameters()]


CASES = {
    "sgd": lambda lib, net: lib.optimizer.SGD(learning_rate=0.1, parameters=net.parameters()),
    "sgd_l2": lambda lib, net: lib.optimizer.SGD(learning_rate=0.1, parameters=net.parameters(), weight_decay=0.05),
    "momentum": lambda lib, net: lib.optimizer.Momentum(learning_rate=0.1, momentum=0.9,
                                                        parameters=net.parameters()),
    "adam": lambda lib, net: lib.optimizer.Adam(learning_rate=0.05, parameters=net.parameters()),
    "adamw": lambda lib, net: lib.optimizer.AdamW(learning_rate=0.05, parameters=net.parameters(),
                                                  weight_decay=0.1),
    "adam_clip": lambda lib, net: lib.optimizer.Adam(learning_rate=0.05, parameters=net.parameters(),
                                                     grad_clip=lib.nn.ClipGradByGlobalNorm(0.3)),
    "sgd_groups": lambda lib, net: lib.optimizer.SGD(learning_rate=0.1, parameters=[
        {"params": net[0].parameters(), "learning_rate": 0.5},
        {"params": net[-1].parameters(), "weight_decay": 0.01}]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_training_loop_matches_paddle(case):
    paddle = paddle_oracle()
    ours = _train(padax, CASES[case])
    theirs = _train(paddle, CASES[case])
    np.testing.assert_allclose(ours[0], theirs[0], rtol=2e-5, atol=1e-6)
    for a, b in zip(ours[1], theirs[1]):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-6)


def test_scheduler_accumulation_and_batch_norm_match_paddle():
    paddle = paddle_oracle()

    def make(lib, net):
        return lib.optimizer.Momentum(learning_rate=lib.optimizer.lr.StepDecay(0.2, step_size=2, gamma=0.5),
                                      momentum=0.5, parameters=net.parameters())
    ours = _train(padax, make, steps=5, accumulate=2, batch_norm=True, scheduler=True)
    theirs = _train(paddle, make, steps=5, accumulate=2, batch_norm=True, scheduler=True)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=2e-5, atol=1e-6)
    for a, b in zip(ours[1], theirs[1]):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-6)


def test_pylayer_trained_with_backward_matches_paddle():
    paddle = paddle_oracle()

    def run(lib):
        class Scaled(lib.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x, w):
                ctx.save_for_backward(x, w)
                return lib.tanh(lib.matmul(x, w))

            @staticmethod
            def backward(ctx, dy):
                x, w = ctx.saved_tensor()
                dz = dy * (1 - lib.tanh(lib.matmul(x, w)) ** 2)
                return None, lib.matmul(x, dz, transpose_x=True)  # (x is data: Paddle wants None)
        w = lib.to_tensor(INIT[2][:3], stop_gradient=False)
        opt = lib.optimizer.SGD(learning_rate=0.3, parameters=[w])
        out = []
        for _ in range(3):
            loss = ((Scaled.apply(lib.to_tensor(X), w) - lib.to_tensor(Y)) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            out.append(float(loss))
        return out, w.numpy()
    ours, theirs = run(padax), run(paddle)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-6)


def test_minimize_and_optimizer_state_dict_round_trip():
    net = _net(padax)
    opt = padax.optimizer.Adam(learning_rate=0.05, parameters=net.parameters())
    x, y = padax.to_tensor(X), padax.to_tensor(Y)
    loss = ((net(x) - y) ** 2).mean()
    loss.backward()
    _, pairs = opt.minimize(loss)
    assert len(pairs) == 4 and all(p is q for (p, _), q in zip(pairs, net.parameters()))
    state = opt.state_dict()
    assert "global_step" in state and any(k.endswith("_moment1_0") for k in state)
    opt2 = padax.optimizer.Adam(learning_rate=0.05, parameters=net.parameters())
    opt2.set_state_dict(state)
    opt.clear_grad()
    for o in (opt, opt2):
        snapshot = [p.numpy() for p in net.parameters()]
        ((net(x) - y) ** 2).mean().backward()
        o.step()
        o.clear_grad()
        after = [p.numpy() for p in net.parameters()]
        for p, v in zip(net.parameters(), snapshot):
            p.set_value(v)
        if o is opt:
            first = after
    for a, b in zip(first, after):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_step_without_parameters_names_the_fix():
    opt = padax.optimizer.SGD(learning_rate=0.1)
    with pytest.raises(ValueError, match="parameters=model.parameters"):
        opt.step()
