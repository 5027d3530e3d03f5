"""padax.vision workloads: ResNet-50 inference (batch 8, 224x224) and a ResNet-18 training step (batch 32,
224x224, SGD), with `padax.vision.models` beside the same networks written with jax.lax ops (same weights,
taken from the padax model's state_dict) and beside `paddle.vision.models` (eager; weights by state_dict).

Targets: padax/jax <= 1.05 (checked by the harness) and padax/paddle <= 0.7 (read off the table).
"""
from __future__ import annotations

import sys

import numpy as np

from benchmarks._padax_steps import sgd_train_step
from benchmarks.harness import Workload

_SMOKE = "--smoke" in sys.argv  # a smoke run checks that everything runs, on small sizes
_RNG = np.random.default_rng(0)
_INFER_ARCH, _INFER_BATCH, _TRAIN_BATCH, _SIZE, _CLASSES, _LR = "resnet50", 8, 32, 224, 1000, 0.01
if _SMOKE:
    _INFER_ARCH, _INFER_BATCH, _TRAIN_BATCH, _SIZE, _CLASSES = "resnet18", 2, 2, 32, 10
_INFER_X = _RNG.standard_normal((_INFER_BATCH, 3, _SIZE, _SIZE)).astype(np.float32)
_TRAIN_X = _RNG.standard_normal((_TRAIN_BATCH, 3, _SIZE, _SIZE)).astype(np.float32)
_TRAIN_Y = _RNG.integers(0, _CLASSES, _TRAIN_BATCH).astype(np.int64)
_BLOCKS = {"resnet18": (False, [2, 2, 2, 2]), "resnet50": (True, [3, 4, 6, 3])}  # (bottleneck, blocks per stage)

_MODELS: dict = {}


def _padax_model(arch):
    """The padax.vision model (built once, seed 0) and its weights as numpy (shared with jax and Paddle)."""
    if arch not in _MODELS:
        import padax
        from padax.vision import models
        padax.seed(0)
        if _SMOKE:  # constant weights: a smoke run only checks that the code runs
            padax.nn.initializer.set_global_initializer(padax.nn.initializer.Constant(0.01))
        try:
            model = getattr(models, arch)(num_classes=_CLASSES)
        finally:
            padax.nn.initializer.set_global_initializer(None, None)
        _MODELS[arch] = (model, {k: np.asarray(v) for k, v in model.state_dict().items()})
    return _MODELS[arch]


# -- padax ---------------------------------------------------------------------------------------------------

def padax_resnet50_infer():
    import padax
    model, _ = _padax_model(_INFER_ARCH)
    model.eval()
    f = padax.jit(lambda m, x: m(x))
    x = padax.to_tensor(_INFER_X)
    return lambda: f(model, x).block_until_ready()


def padax_resnet18_train_step():
    model, _ = _padax_model("resnet18")
    model.train()
    return sgd_train_step(model, _TRAIN_X, _TRAIN_Y, _LR)


# -- jax: the same ResNets from jax.lax ops (Paddle's weight names and layouts) ---------------------------------

def _jax_resnet(params, stats, x, arch, train):
    """Logits of a paddle.vision-style ResNet; in training mode also the updated batch-norm statistics."""
    import jax
    from jax import lax
    bottleneck, blocks = _BLOCKS[arch]
    new_stats = {}

    def conv(name, h, stride, pad):
        return lax.conv_general_dilated(h, params[name + ".weight"], (stride, stride), [(pad, pad)] * 2,
                                        dimension_numbers=("NCHW", "OIHW", "NCHW"))

    def bn(name, h):
        if train:
            mean, var = h.mean((0, 2, 3)), h.var((0, 2, 3))
            n = h.shape[0] * h.shape[2] * h.shape[3]
            new_stats[name + "._mean"] = 0.9 * stats[name + "._mean"] + 0.1 * mean
            new_stats[name + "._variance"] = 0.9 * stats[name + "._variance"] + 0.1 * var * (n / (n - 1))
        else:
            mean, var = stats[name + "._mean"], stats[name + "._variance"]
        scale = lax.rsqrt(var + 1e-5) * params[name + ".weight"]
        shift = params[name + ".bias"] - mean * scale
        return h * scale[None, :, None, None] + shift[None, :, None, None]

    h = jax.nn.relu(bn("bn1", conv("conv1", x, 2, 3)))
    h = lax.reduce_window(h, -np.inf, lax.max, (1, 1, 3, 3), (1, 1, 2, 2), [(0, 0), (0, 0), (1, 1), (1, 1)])
    for i, n in enumerate(blocks):
        for j in range(n):
            p, stride = f"layer{i + 1}.{j}", (2 if i > 0 and j == 0 else 1)
            if bottleneck:
                out = jax.nn.relu(bn(p + ".bn1", conv(p + ".conv1", h, 1, 0)))
                out = jax.nn.relu(bn(p + ".bn2", conv(p + ".conv2", out, stride, 1)))
                out = bn(p + ".bn3", conv(p + ".conv3", out, 1, 0))
            else:
                out = jax.nn.relu(bn(p + ".bn1", conv(p + ".conv1", h, stride, 1)))
                out = bn(p + ".bn2", conv(p + ".conv2", out, 1, 1))
            if p + ".downsample.0.weight" in params:
                h = bn(p + ".downsample.1", conv(p + ".downsample.0", h, stride, 0))
            h = jax.nn.relu(out + h)
    return h.mean((2, 3)) @ params["fc.weight"] + params["fc.bias"], new_stats


def _jax_weights(arch):
    import jax
    _, weights = _padax_model(arch)
    params = {k: jax.device_put(v) for k, v in weights.items() if not k.endswith(("_mean", "_variance"))}
    stats = {k: jax.device_put(v) for k, v in weights.items() if k.endswith(("_mean", "_variance"))}
    return params, stats


def jax_resnet50_infer():
    import jax
    params, stats = _jax_weights(_INFER_ARCH)
    f = jax.jit(lambda p, s, x: _jax_resnet(p, s, x, _INFER_ARCH, False)[0])
    x = jax.device_put(_INFER_X)
    return lambda: f(params, stats, x).block_until_ready()


def jax_resnet18_train_step():
    import jax
    import jax.numpy as jnp
    params, stats = _jax_weights("resnet18")
    x, y = jax.device_put(_TRAIN_X), jax.device_put(_TRAIN_Y.astype(np.int32))

    def loss_fn(params, stats, x, y):
        logits, new_stats = _jax_resnet(params, stats, x, "resnet18", True)
        logp = jax.nn.log_softmax(logits)
        return -jnp.take_along_axis(logp, y[:, None], 1).mean(), new_stats

    @jax.jit
    def step(params, stats, x, y):
        (loss, stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, stats, x, y)
        return jax.tree_util.tree_map(lambda p, g: p - _LR * g, params, grads), stats, loss

    state = [params, stats]

    def run():
        state[0], state[1], loss = step(state[0], state[1], x, y)
        return loss.block_until_ready()
    return run


# -- paddle (CPU, eager): paddle.vision.models with the same weights ---------------------------------------------

def _paddle_vision_model(arch):
    import paddle
    paddle.set_device("cpu")
    model = getattr(paddle.vision.models, arch)(num_classes=_CLASSES)
    model.set_state_dict(_padax_model(arch)[1])
    return model


def paddle_resnet50_infer():
    import paddle
    model = _paddle_vision_model(_INFER_ARCH)
    model.eval()
    x = paddle.to_tensor(_INFER_X)

    def run():
        with paddle.no_grad():
            return model(x).numpy()
    return run


def paddle_resnet18_train_step():
    import paddle
    import paddle.nn.functional as F
    model = _paddle_vision_model("resnet18")
    model.train()
    opt = paddle.optimizer.SGD(learning_rate=_LR, parameters=model.parameters())
    x, y = paddle.to_tensor(_TRAIN_X), paddle.to_tensor(_TRAIN_Y)

    def run():
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return float(loss)
    return run


def workloads() -> list[Workload]:
    infer = f"{_INFER_ARCH} inference, batch {_INFER_BATCH}, {_SIZE}x{_SIZE} (padax.vision.models; paddle eager)"
    train = f"resnet18 training step (SGD), batch {_TRAIN_BATCH}, {_SIZE}x{_SIZE} (paddle eager)"
    return [
        Workload("resnet50_infer", infer, {"padax": padax_resnet50_infer, "jax": jax_resnet50_infer,
                                           "paddle": paddle_resnet50_infer}, target=1.05),
        Workload("resnet18_train_step", train, {"padax": padax_resnet18_train_step, "jax": jax_resnet18_train_step,
                                                "paddle": paddle_resnet18_train_step}, target=1.05),
    ]
