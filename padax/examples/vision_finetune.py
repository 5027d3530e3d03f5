"""Fine-tune a `padax.vision` ResNet-18 head on the bundled digits: `python -m padax.examples.vision_finetune`.

Transfer learning in two stages, entirely on data that ships with padax:

1. *pretrain*: ResNet-18 (Paddle's architecture and weight names, `padax.vision.models.resnet18`)
   learns digits 0-4, whole network, with augmenting transforms and a DataLoader;
2. *fine-tune*: with a new 5-way head (`fc`), the network learns digits 5-9 from a few images per
   class, and is compared with the same network trained from scratch on them. `--head-only`
   freezes the backbone (`model.freeze()`, then `model.fc.unfreeze()`) and trains the head alone.

With Paddle's ImageNet weights in the cache (`resnet18.pdparams`, see
`padax.vision.models.resnet18(pretrained=True)`), pass `--pretrained` to skip stage 1.
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
from padax.io import DataLoader, Dataset
from padax.vision import models, transforms as T

F = nn.functional


class Digits(Dataset):
    """The bundled 8x8 digits as RGB uint8 HWC images (what a camera or Pillow gives), labels shifted to 0.."""

    def __init__(self, images: np.ndarray, labels: np.ndarray, transform=None) -> None:
        gray = (images.astype(np.float32) * (255.0 / 16.0)).round().astype(np.uint8)
        self.images = np.repeat(gray[..., None], 3, axis=-1)        # [N, 8, 8, 3]
        self.labels = labels.astype(np.int64)
        self.transform = transform

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        img = self.images[i]
        return (self.transform(img) if self.transform else img), self.labels[i]


def transforms(train: bool):
    """Upscale to 32x32, augment (train only), to CHW float, normalise: host-side numpy work."""
    ops = [T.Resize((32, 32))]
    if train:
        ops += [T.RandomRotation(10), T.RandomResizedCrop(32, scale=(0.85, 1.0), ratio=(0.9, 1.1))]
    return T.Compose(ops + [T.ToTensor(), T.Normalize(mean=[0.5] * 3, std=[0.5] * 3)])


def split(classes: range, per_class: int | None, seed: int):
    """Train/test Digits datasets of the given classes (labels relative to the first class)."""
    images, labels = load_digits()
    rng = np.random.default_rng(seed)
    train_idx, test_idx = [], []
    for c in classes:
        idx = rng.permutation(np.flatnonzero(labels == c))
        n_test = len(idx) // 4
        test_idx += list(idx[:n_test])
        train_idx += list(idx[n_test:] if per_class is None else idx[n_test:n_test + per_class])
    shift = classes.start
    return (Digits(images[train_idx], labels[train_idx] - shift, transforms(True)),
            Digits(images[test_idx], labels[test_idx] - shift, transforms(False)))


def make_step(optimizer):
    def loss_fn(model, x, y):
        logits = model(x)
        return F.cross_entropy(logits, y), model            # BatchNorm's statistics travel with the model

    @padax.jit
    def step(model, opt_state, x, y):
        (loss, model), grads = nn.filter_value_and_grad(loss_fn, has_aux=True)(model, x, y)
        model, opt_state = optimizer.step(model, grads, opt_state)
        return model, opt_state, loss

    return step


@padax.jit
def _correct(model, x, y):
    return padax.sum(padax.argmax(model(x), axis=1) == y)


def accuracy(model, dataset, batch_size: int = 128) -> float:
    model.eval()
    hits = sum(int(_correct(model, x, y)) for x, y in DataLoader(dataset, batch_size=batch_size))
    model.train()
    return hits / len(dataset)


def train(model, dataset, epochs: int, lr: float, batch_size: int, workers: int, say) -> list[float]:
    optimizer = padax.optimizer.Adam(learning_rate=lr)
    opt_state = optimizer.init(model)
    step = make_step(optimizer)
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, drop_last=True, num_workers=workers)
    losses = []
    for epoch in range(1, epochs + 1):
        epoch_loss = []
        for x, y in loader:
            model, opt_state, loss = step(model, opt_state, x, y)
            epoch_loss.append(loss)
        losses.append(float(np.mean([float(v) for v in epoch_loss])))
        say(f"  epoch {epoch}: loss {losses[-1]:.4f}")
    return losses, model


def main(argv: Sequence[str] | None = None) -> dict:
    """Run both stages; returns {'pretrain_acc', 'finetune_acc', 'scratch_acc', 'seconds'}."""
    p = argparse.ArgumentParser(prog="python -m padax.examples.vision_finetune", description=__doc__.splitlines()[0])
    p.add_argument("--pretrain-epochs", type=int, default=3)
    p.add_argument("--finetune-epochs", type=int, default=6)
    p.add_argument("--per-class", type=int, default=20, help="training images per new class in stage 2")
    p.add_argument("--workers", type=int, default=0, help="DataLoader worker processes")
    p.add_argument("--head-only", action="store_true", help="stage 2 trains the new head on a frozen backbone")
    p.add_argument("--pretrained", action="store_true", help="start from Paddle's ImageNet weights in the cache")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    say = (lambda *a: None) if args.quiet else print
    t0 = time.perf_counter()
    padax.seed(args.seed)
    backbone = models.resnet18(pretrained=args.pretrained, num_classes=1000 if args.pretrained else 5)
    out = {}
    if not args.pretrained:
        say("stage 1: pretrain ResNet-18 on digits 0-4")
        train0, test0 = split(range(0, 5), None, args.seed)
        _, backbone = train(backbone, train0, args.pretrain_epochs, 1e-3, 64, args.workers, say)
        out["pretrain_acc"] = accuracy(backbone, test0)
        say(f"  test accuracy on digits 0-4: {out['pretrain_acc']:.3f}")

    what = "the head on a frozen backbone" if args.head_only else "the whole network"
    say(f"stage 2: new head for digits 5-9, {args.per_class} images per class, training {what}")
    train1, test1 = split(range(5, 10), args.per_class, args.seed)

    def with_new_head(model):
        model.fc = nn.Linear(512, 5)
        if args.head_only:
            model.freeze()
            model.fc.unfreeze()
        return model

    lr = 3e-3 if args.head_only else 1e-3
    _, tuned = train(with_new_head(backbone), train1, args.finetune_epochs, lr, 20, args.workers, say)
    out["finetune_acc"] = accuracy(tuned, test1)
    _, scratch = train(with_new_head(models.resnet18(num_classes=5)), train1, args.finetune_epochs, lr, 20,
                       args.workers, lambda *a: None)
    out["scratch_acc"] = accuracy(scratch, test1)
    out["seconds"] = time.perf_counter() - t0
    print(f"digits 5-9 test accuracy: fine-tuned {out['finetune_acc']:.3f}, trained from scratch "
          f"{out['scratch_acc']:.3f} ({out['seconds']:.1f}s)")
    return out


if __name__ == "__main__":
    result = main()
    sys.exit(0 if result["finetune_acc"] > result["scratch_acc"] else 1)
