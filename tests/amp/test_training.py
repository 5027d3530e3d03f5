"""bf16 mixed precision (O1 and O2 with master weights) trains the digits MLP to float32's accuracy."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from padax import nn
from padax.examples.cnn_digits import load_split

F = nn.functional


def _mlp() -> nn.Layer:
    padax.seed(0)
    return nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 10))


def _train(level: str | None, epochs: int = 12) -> tuple[float, nn.Layer]:
    x_train, y_train, x_test, y_test = load_split(0)
    x_train, x_test = x_train.reshape(len(x_train), -1), x_test.reshape(len(x_test), -1)
    model = _mlp()
    opt = padax.optimizer.Adam(learning_rate=3e-3)
    if level == "O2":
        model, opt = padax.amp.decorate(model, opt, level="O2", dtype="bfloat16")
    opt_state = opt.init(model)
    amp = dict(enable=level is not None, level=level or "O1", dtype="bfloat16")

    def loss_fn(m, x, y):
        with padax.amp.auto_cast(**amp):
            return F.cross_entropy(m(x), y)

    @padax.jit
    def step(m, s, x, y):
        loss, g = padax.value_and_grad(loss_fn)(m, x, y)
        m, s = opt.step(m, g, s)
        return m, s, loss

    rng = np.random.default_rng(1)
    bs = 64
    for _ in range(epochs):
        perm = rng.permutation(len(x_train))
        for i in range(len(x_train) // bs):
            idx = perm[i * bs:(i + 1) * bs]
            model, opt_state, _ = step(model, opt_state, padax.to_tensor(x_train[idx]), padax.to_tensor(y_train[idx]))
    with padax.amp.auto_cast(**amp):
        logits = padax.jit(lambda m, x: m(x))(model, padax.to_tensor(x_test))
    return float(np.mean(np.argmax(np.asarray(logits.astype("float32")), 1) == y_test)), model


@pytest.fixture(scope="module")
def float32_accuracy() -> float:
    acc, _ = _train(None)
    assert acc > 0.95
    return acc


@pytest.mark.parametrize("level", ["O1", "O2"])
def test_bf16_training_matches_float32_accuracy(level, float32_accuracy):
    acc, model = _train(level)
    assert acc >= float32_accuracy - 0.01, (level, acc, float32_accuracy)
    want = "bfloat16" if level == "O2" else "float32"
    assert {str(p.dtype) for p in model.parameters()} == {want}
