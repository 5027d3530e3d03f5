"""Train a small MLP on the bundled handwritten digits: `python -m padax.demo`.

A complete, offline training run in the functional style padax is built
for: the parameters are a dict pytree of padax Tensors, the optimizer
(`padax.optimizer.Momentum`) is a pure state transition, and one training
step is a single `padax.jit`-compiled function
``train_step(params, opt_state, x, y) -> (params, opt_state, loss)``.

The model is 64 -> 128 (relu) -> 10 with a softmax cross-entropy loss, on
the UCI digits (`padax.data.load_digits`, 1797 8x8 images, pixels scaled to
[0, 1]) split into train/test sets by a fixed seed. Gradients come from
`padax.value_and_grad`, traced into the same compiled step.

`--hapi` trains the same MLP through Paddle's high-level API instead: `padax.Model(net).prepare(...)`
and `Model.fit` over a `padax.io.DataLoader` (`--num-workers` worker processes) with the live
progress bar (verbose 1), then `Model.evaluate` on the test set.

`--save PREFIX` keeps the result: the parameters as a checkpoint
(`padax.save`, PREFIX.pdparams) and the trained classifier as a compiled
program with its weights (`padax.jit.save`, PREFIX.padax); both are loaded
back and checked against the model in memory.
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Sequence

import numpy as np

import padax
import padax.nn.functional as F
from padax.data import load_digits

N_IN, N_HIDDEN, N_CLASSES = 64, 128, 10
F32 = np.float32


# -- data -------------------------------------------------------------------------------

def load_split(seed: int, test_fraction: float = 0.2):
    """(x_train, y_train, x_test, y_test): flattened float32 features in [0, 1], int32 labels."""
    images, labels = load_digits()
    x = images.reshape(len(images), -1).astype(F32) / F32(16.0)
    y = labels.astype(np.int32)
    perm = np.random.default_rng(seed).permutation(len(x))
    n_test = int(round(len(x) * test_fraction))
    test, train = perm[:n_test], perm[n_test:]
    return x[train], y[train], x[test], y[test]


# -- model ------------------------------------------------------------------------------

def init_params(seed: int) -> dict:
    """He-initialised weights and zero biases, as a dict of padax Tensors."""
    rng = np.random.default_rng(seed + 1)

    def dense(n_in, n_out):
        w = rng.normal(0.0, np.sqrt(2.0 / n_in), size=(n_in, n_out)).astype(F32)
        return padax.device_put(w), padax.device_put(np.zeros((n_out,), F32))

    w1, b1 = dense(N_IN, N_HIDDEN)
    w2, b2 = dense(N_HIDDEN, N_CLASSES)
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2}


def forward(params: dict, x):
    """Logits [B, 10] of the MLP."""
    h = F.relu(padax.matmul(x, params["w1"]) + params["b1"])
    return padax.matmul(h, params["w2"]) + params["b2"]


def loss_fn(params: dict, x, y):
    """Mean softmax cross-entropy of the MLP on a batch."""
    return F.cross_entropy(forward(params, x), y)


def make_train_step(optimizer):
    """A jitted step: (params, opt_state, x, y) -> (params, opt_state, loss)."""
    loss_and_grads = padax.value_and_grad(loss_fn)

    def train_step(params, opt_state, x, y):
        loss, grads = loss_and_grads(params, x, y)
        params, opt_state = optimizer.step(params, grads, opt_state)
        return params, opt_state, loss

    return padax.jit(train_step)


@padax.jit
def predict_logits(params, x):
    return forward(params, x)


def accuracy(params: dict, x, y: np.ndarray) -> float:
    logits = np.asarray(predict_logits(params, x))
    return float(np.mean(np.argmax(logits, axis=1) == y))


# -- the run ----------------------------------------------------------------------------

def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m padax.demo", description=__doc__.splitlines()[0])
    p.add_argument("--epochs", type=int, default=20, help="passes over the training set (default 20)")
    p.add_argument("--batch-size", type=int, default=32, help="examples per SGD step (default 32)")
    p.add_argument("--lr", type=float, default=0.05, help="learning rate (default 0.05)")
    p.add_argument("--momentum", type=float, default=0.9, help="momentum (default 0.9)")
    p.add_argument("--seed", type=int, default=0, help="seed for the split, init and shuffling (default 0)")
    p.add_argument("--quiet", action="store_true", help="print only the final result")
    p.add_argument("--hapi", action="store_true", help="train with padax.Model.fit and its progress bar")
    p.add_argument("--num-workers", type=int, default=0, help="DataLoader worker processes with --hapi (default 0)")
    p.add_argument("--save", metavar="PREFIX", help="save the checkpoint (PREFIX.pdparams) and the trained "
                                                    "classifier program (PREFIX.padax), then reload both")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> dict:
    """Train and evaluate; returns a summary dict (losses per epoch, accuracies, seconds)."""
    args = parse_args(argv)
    if args.epochs < 1 or args.batch_size < 1:
        raise SystemExit("--epochs and --batch-size must be positive")
    if args.hapi:
        return main_hapi(args)
    say = (lambda *a: None) if args.quiet else print
    t0 = time.perf_counter()

    x_train, y_train, x_test, y_test = load_split(args.seed)
    n_train = len(x_train)
    bs = min(args.batch_size, n_train)
    steps = n_train // bs  # fixed batch shape: one compilation; the remainder reshuffles in next epoch
    say(f"padax {padax.__version__} on {padax.devices()[0]} | digits: {n_train} train, {len(x_test)} test | "
        f"MLP {N_IN}-{N_HIDDEN}-{N_CLASSES}, batch {bs}, lr {args.lr}, momentum {args.momentum}")

    params = init_params(args.seed)
    optimizer = padax.optimizer.Momentum(learning_rate=args.lr, momentum=args.momentum)
    opt_state = optimizer.init(params)
    train_step = make_train_step(optimizer)
    xtr_dev, xte_dev = padax.device_put(x_train), padax.device_put(x_test)
    rng = np.random.default_rng(args.seed + 2)

    losses, train_accs = [], []
    for epoch in range(1, args.epochs + 1):
        perm = rng.permutation(n_train)
        xs = x_train[perm[:steps * bs]].reshape(steps, bs, N_IN)
        ys = y_train[perm[:steps * bs]].reshape(steps, bs)
        step_losses = []
        for i in range(steps):
            params, opt_state, loss = train_step(params, opt_state, padax.device_put(xs[i]),
                                                 padax.device_put(ys[i]))
            step_losses.append(loss)
        epoch_loss = float(np.mean([float(l) for l in step_losses]))
        train_acc = accuracy(params, xtr_dev, y_train)
        losses.append(epoch_loss)
        train_accs.append(train_acc)
        say(f"epoch {epoch:3d}  loss {epoch_loss:.4f}  train acc {train_acc:.4f}  "
            f"elapsed {time.perf_counter() - t0:6.2f}s")

    test_acc = accuracy(params, xte_dev, y_test)
    elapsed = time.perf_counter() - t0
    print(f"test accuracy {test_acc:.4f} ({len(x_test)} images) after {args.epochs} epochs "
          f"in {elapsed:.2f}s")
    result = {"losses": losses, "train_acc": train_accs, "test_acc": test_acc, "seconds": elapsed,
              "params": params}
    if args.save:
        result["reloaded_test_acc"] = save_and_reload(params, args.save, x_test, y_test, say)
    return result


def mlp_layers(seed: int):
    """The demo's MLP as padax.nn layers, with the same He-initialised weights as `init_params`."""
    params = init_params(seed)
    net = padax.nn.Sequential(padax.nn.Linear(N_IN, N_HIDDEN), padax.nn.ReLU(), padax.nn.Linear(N_HIDDEN, N_CLASSES))
    net.set_state_dict({"0.weight": params["w1"], "0.bias": params["b1"], "2.weight": params["w2"],
                        "2.bias": params["b2"]})
    return net


def main_hapi(args: argparse.Namespace) -> dict:
    """--hapi: the same training through padax.Model.fit over a DataLoader, with the progress bar."""
    t0 = time.perf_counter()
    x_train, y_train, x_test, y_test = load_split(args.seed)
    padax.seed(args.seed)
    train = padax.io.TensorDataset([x_train, y_train.astype(np.int64)[:, None]])
    test = padax.io.TensorDataset([x_test, y_test.astype(np.int64)[:, None]])
    loader = padax.io.DataLoader(train, batch_size=args.batch_size, shuffle=True, drop_last=True,
                                 num_workers=args.num_workers)
    model = padax.Model(mlp_layers(args.seed))
    model.prepare(padax.optimizer.Momentum(learning_rate=args.lr, momentum=args.momentum),
                  padax.nn.CrossEntropyLoss(), padax.metric.Accuracy())
    if not args.quiet:
        print(f"padax {padax.__version__} on {padax.devices()[0]} | digits: {len(x_train)} train, {len(x_test)} "
              f"test | padax.Model(MLP {N_IN}-{N_HIDDEN}-{N_CLASSES}).fit, batch {args.batch_size}, "
              f"{args.num_workers} loader workers")
    model.fit(loader, epochs=args.epochs, verbose=0 if args.quiet else 1, log_freq=5)
    result = model.evaluate(test, batch_size=len(x_test), verbose=0)
    elapsed = time.perf_counter() - t0
    test_acc = float(result["acc"])
    print(f"test accuracy {test_acc:.4f} ({len(x_test)} images) after {args.epochs} epochs in {elapsed:.2f}s "
          "(padax.Model.fit)")
    return {"test_acc": test_acc, "test_loss": float(result["loss"][0]), "seconds": elapsed, "model": model}


def save_and_reload(params: dict, prefix: str, x_test: np.ndarray, y_test: np.ndarray, say) -> float:
    """Save the checkpoint and the classifier program, load both back, check them; the reloaded accuracy."""
    padax.save({"params": params, "model": f"MLP {N_IN}-{N_HIDDEN}-{N_CLASSES}"}, prefix + ".pdparams")
    restored = padax.load(prefix + ".pdparams")["params"]
    for k in params:
        if not np.array_equal(np.asarray(restored[k]), np.asarray(params[k])):
            raise RuntimeError(f"checkpoint round trip changed {k}")

    def classify(x):  # the weights are captured: they are saved with the program
        return padax.argmax(forward(params, x), axis=1)

    spec = padax.static.InputSpec(x_test.shape, "float32", "images")
    padax.jit.save(classify, prefix, input_spec=[spec])
    predictor = padax.jit.load(prefix)
    acc = float(np.mean(np.asarray(predictor(x_test)) == y_test))
    say(f"saved {prefix}.pdparams and {prefix}.padax; the reloaded program's test accuracy is {acc:.4f}")
    return acc


def _cli(argv: Sequence[str] | None = None) -> int:
    result = main(argv)
    if result["test_acc"] < 0.9:
        print(f"FAILED: test accuracy {result['test_acc']:.4f} < 0.9", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_cli())
