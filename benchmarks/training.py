"""High-level training: one epoch of `Model.fit` on the digits CNN (padax/examples/cnn_digits.py).

The network is the example's DigitsCNN (Conv-BN-ReLU-MaxPool twice, Dropout, Linear; width 32)
trained with Adam on the 1437 training images of the bundled digits, batch 64, drop_last (22
steps), shuffled, loss only. Three implementations of the same epoch:

- padax: `padax.Model(net).prepare(Adam, CrossEntropyLoss).fit(dataset, epochs=1, verbose=0)`;
- baseline: a hand-written padax loop over a `padax.io.DataLoader` with the jitted step of
  docs/nn_state.md (the overhead of Model.fit is padax/baseline; the issue's goal is <= 1.05);
- paddle: `paddle.Model(net).prepare(...).fit(...)` with the same network and settings (the goal is
  padax/paddle <= 0.5, read from the padax/paddle column).

Compilation happens in setup (a first epoch), so each call is a steady-state epoch.
"""
from __future__ import annotations

import numpy as np

from benchmarks.harness import Workload

_BATCH, _LR = 64, 3e-3


def _data():
    from padax.examples.cnn_digits import load_split
    x_tr, y_tr, _, _ = load_split(0)
    return x_tr, y_tr.astype(np.int64)[:, None]


def padax_fit():
    import padax
    from padax import nn
    from padax.examples.cnn_digits import DigitsCNN
    x, y = _data()
    padax.seed(0)
    model = padax.Model(DigitsCNN())
    model.prepare(padax.optimizer.Adam(_LR), nn.CrossEntropyLoss())
    data = padax.io.TensorDataset([x, y])

    def run():
        model.fit(data, batch_size=_BATCH, epochs=1, verbose=0, drop_last=True, shuffle=True)
        np.asarray(model.network.fc.weight)
    run()
    return run


def padax_loop():
    import padax
    from padax.examples.cnn_digits import DigitsCNN, make_train_step
    x, y = _data()
    padax.seed(0)
    state = {"model": DigitsCNN().train(), "key": padax.random.key(0)}
    opt = padax.optimizer.Adam(_LR)
    state["opt"] = opt.init(state["model"])
    train_step = make_train_step(opt)
    loader = padax.io.DataLoader(padax.io.TensorDataset([x, y[:, 0]]), batch_size=_BATCH, shuffle=True,
                                 drop_last=True)

    def run():
        losses = []
        for xb, yb in loader:
            state["key"], sub = padax.random.split(state["key"])
            state["model"], state["opt"], loss = train_step(state["model"], state["opt"], xb, yb, sub)
            losses.append(loss)
        float(losses[-1])
    run()
    return run


def paddle_fit():
    import paddle
    from paddle import nn
    x, y = _data()
    paddle.seed(0)

    class DigitsCNN(nn.Layer):
        def __init__(self, width=32, dropout=0.25):
            super().__init__()
            self.features = nn.Sequential(
                nn.Conv2D(1, width, 3, padding=1), nn.BatchNorm2D(width), nn.ReLU(), nn.MaxPool2D(2),
                nn.Conv2D(width, 2 * width, 3, padding=1), nn.BatchNorm2D(2 * width), nn.ReLU(), nn.MaxPool2D(2))
            self.dropout = nn.Dropout(dropout)
            self.fc = nn.Linear(2 * width * 2 * 2, 10)

        def forward(self, x):
            return self.fc(self.dropout(paddle.flatten(self.features(x), 1)))

    net = DigitsCNN()
    model = paddle.Model(net)
    model.prepare(paddle.optimizer.Adam(_LR, parameters=net.parameters()), nn.CrossEntropyLoss())
    data = paddle.io.TensorDataset([paddle.to_tensor(x), paddle.to_tensor(y)])

    def run():
        model.fit(data, batch_size=_BATCH, epochs=1, verbose=0, drop_last=True, shuffle=True)
    run()
    return run


def workloads() -> list[Workload]:
    return [Workload("fit_epoch_digits_cnn",
                     "Model.fit, one epoch of the digits CNN (1437 images, batch 64, Adam); baseline: hand loop",
                     {"padax": padax_fit, "paddle": paddle_fit}, fresh=True, baseline=padax_loop,
                     baseline_target=1.05)]
