"""Train a small CNN built from `padax.nn` layers on the bundled 8x8 digits:
`python -m padax.examples.cnn_digits`.

Conv2D -> BatchNorm2D -> ReLU -> MaxPool2D, twice, then Dropout and Linear, trained with Adam in one
jitted step that follows docs/nn_state.md: the model goes in and comes back out (BatchNorm's running
statistics travel with it) and Dropout draws from a per-step key under `nn.rng_scope`.
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Sequence

import numpy as np

import padax
from padax import nn
from padax.data import load_digits

F = nn.functional


class DigitsCNN(nn.Layer):
    """[N, 1, 8, 8] images -> [N, 10] logits."""

    def __init__(self, width: int = 32, dropout: float = 0.25) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2D(1, width, 3, padding=1), nn.BatchNorm2D(width), nn.ReLU(), nn.MaxPool2D(2),
            nn.Conv2D(width, 2 * width, 3, padding=1), nn.BatchNorm2D(2 * width), nn.ReLU(), nn.MaxPool2D(2))
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(2 * width * 2 * 2, 10)

    def forward(self, x):
        return self.fc(self.dropout(padax.flatten(self.features(x), 1)))


def load_split(seed: int, test_fraction: float = 0.2):
    """(x_train, y_train, x_test, y_test): images [N, 1, 8, 8] in [0, 1] (float32), int64 labels."""
    images, labels = load_digits()
    x = (images.astype(np.float32) / 16.0)[:, None]
    perm = np.random.default_rng(seed).permutation(len(x))
    n_test = int(round(len(x) * test_fraction))
    return x[perm[n_test:]], labels[perm[n_test:]], x[perm[:n_test]], labels[perm[:n_test]]


def make_train_step(optimizer):
    """The jitted step (model, opt_state, x, y, key) -> (model, opt_state, loss)."""

    def loss_fn(model, x, y, key):
        with nn.rng_scope(key):
            logits = model(x)
        return F.cross_entropy(logits, y), model  # the model carries BatchNorm's new statistics

    @padax.jit
    def train_step(model, opt_state, x, y, key):
        (loss, model), grads = padax.value_and_grad(loss_fn, has_aux=True)(model, x, y, key)
        model, opt_state = optimizer.step(model, grads, opt_state)
        return model, opt_state, loss

    return train_step


@padax.jit
def predict(model, x):
    return padax.argmax(model(x), axis=1)


def main(argv: Sequence[str] | None = None) -> dict:
    """Train and evaluate; returns {'losses', 'test_acc', 'seconds', 'model'}."""
    p = argparse.ArgumentParser(prog="python -m padax.examples.cnn_digits", description=__doc__.splitlines()[0])
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    say = (lambda *a: None) if args.quiet else print
    t0 = time.perf_counter()
    x_train, y_train, x_test, y_test = load_split(args.seed)
    padax.seed(args.seed)
    model = DigitsCNN()
    optimizer = padax.optimizer.Adam(learning_rate=args.lr)
    opt_state = optimizer.init(model)
    train_step = make_train_step(optimizer)
    rng = np.random.default_rng(args.seed + 1)
    key = padax.random.key(args.seed)
    bs = args.batch_size
    steps = len(x_train) // bs
    losses = []
    for epoch in range(1, args.epochs + 1):
        perm = rng.permutation(len(x_train))
        epoch_losses = []
        for i in range(steps):
            idx = perm[i * bs:(i + 1) * bs]
            key, step_key = padax.random.split(key)
            model, opt_state, loss = train_step(model, opt_state, padax.to_tensor(x_train[idx]),
                                                padax.to_tensor(y_train[idx]), step_key)
            epoch_losses.append(loss)
        losses.append(float(np.mean([float(v) for v in epoch_losses])))
        say(f"epoch {epoch:3d}  loss {losses[-1]:.4f}  elapsed {time.perf_counter() - t0:6.2f}s")
    model.eval()
    test_acc = float(np.mean(predict(model, padax.to_tensor(x_test)).numpy() == y_test))
    elapsed = time.perf_counter() - t0
    print(f"test accuracy {test_acc:.4f} ({len(x_test)} images) after {args.epochs} epochs in {elapsed:.2f}s")
    return {"losses": losses, "test_acc": test_acc, "seconds": elapsed, "model": model}


if __name__ == "__main__":
    sys.exit(0 if main()["test_acc"] >= 0.97 else 1)
