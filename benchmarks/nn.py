"""padax.nn workloads: a ResNet-18-style training step, a 2-layer LSTM and a TransformerEncoderLayer
(forward + backward), each beside the same model written with jax.lax/jax.nn ops (same initial weights,
taken from the padax model's state_dict) and beside Paddle (eager, and `paddle.jit.to_static` in the
`*_static` workloads).

padax builds its models from `padax.nn` layers; Paddle from `paddle.nn` with the same code (the layer
names, signatures and weight layouts agree), so the weights move over by state_dict.
"""
from __future__ import annotations

import sys

import numpy as np

from benchmarks._padax_steps import sgd_train_step
from benchmarks.harness import Workload

_SMOKE = "--smoke" in sys.argv  # a smoke run checks that everything runs, on small sizes
_RNG = np.random.default_rng(0)
# ResNet-18 on 32x32 inputs (CIFAR style: 3x3 stem, no stem pooling), batch 64, SGD
_RES_BATCH, _RES_WIDTHS, _RES_BLOCKS, _RES_CLASSES, _LR = 64, (64, 128, 256, 512), 2, 10, 0.05
# 2-layer LSTM, hidden 256, seq 100, batch 32
_LSTM_IN, _LSTM_H, _LSTM_T, _LSTM_B = 256, 256, 100, 32
# TransformerEncoderLayer d_model 256, 8 heads, feed-forward 1024, seq 128, batch 16 (dropout 0)
_TF_D, _TF_HEADS, _TF_FF, _TF_T, _TF_B = 256, 8, 1024, 128, 16
if _SMOKE:
    _RES_BATCH, _RES_WIDTHS, _RES_BLOCKS = 4, (8, 16, 16, 16), 1
    _LSTM_IN, _LSTM_H, _LSTM_T, _LSTM_B = 8, 8, 5, 2
    _TF_D, _TF_FF, _TF_T, _TF_B = 16, 32, 6, 2
_RES_X = _RNG.standard_normal((_RES_BATCH, 3, 32, 32)).astype(np.float32)
_RES_Y = _RNG.integers(0, _RES_CLASSES, _RES_BATCH).astype(np.int64)
_LSTM_X = _RNG.standard_normal((_LSTM_B, _LSTM_T, _LSTM_IN)).astype(np.float32)
_TF_X = _RNG.standard_normal((_TF_B, _TF_T, _TF_D)).astype(np.float32)


# -- the models, written once against a Paddle-compatible nn module (padax.nn or paddle.nn) -------------------

def make_resnet18(nn, flatten):
    """ResNet-18 (BasicBlock x [2, 2, 2, 2]; one block per stage under --smoke) built from `nn` (padax.nn or
    paddle.nn)."""

    class BasicBlock(nn.Layer):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2D(cin, cout, 3, stride, 1, bias_attr=False)
            self.bn1 = nn.BatchNorm2D(cout)
            self.conv2 = nn.Conv2D(cout, cout, 3, 1, 1, bias_attr=False)
            self.bn2 = nn.BatchNorm2D(cout)
            self.relu = nn.ReLU()
            self.downsample = None
            if stride != 1 or cin != cout:
                self.downsample = nn.Sequential(nn.Conv2D(cin, cout, 1, stride, bias_attr=False),
                                                nn.BatchNorm2D(cout))

        def forward(self, x):
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            identity = x if self.downsample is None else self.downsample(x)
            return self.relu(out + identity)

    class ResNet18(nn.Layer):
        def __init__(self):
            super().__init__()
            w = _RES_WIDTHS
            self.conv1 = nn.Conv2D(3, w[0], 3, 1, 1, bias_attr=False)
            self.bn1 = nn.BatchNorm2D(w[0])
            self.relu = nn.ReLU()
            cin, stages = w[0], []
            for i, cout in enumerate(w):
                stride = 1 if i == 0 else 2
                blocks = [BasicBlock(cin, cout, stride)] + [BasicBlock(cout, cout, 1) for _ in range(_RES_BLOCKS - 1)]
                stages.append(nn.Sequential(*blocks))
                cin = cout
            self.layer1, self.layer2, self.layer3, self.layer4 = stages
            self.pool = nn.AdaptiveAvgPool2D(1)
            self.fc = nn.Linear(w[-1], _RES_CLASSES)

        def forward(self, x):
            x = self.relu(self.bn1(self.conv1(x)))
            x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
            return self.fc(flatten(self.pool(x), 1))

    return ResNet18()


_PADAX_WEIGHTS: dict = {}


def _padax_models():
    """The padax models (built once) and their initial weights as numpy (shared with jax and Paddle)."""
    if not _PADAX_WEIGHTS:
        import padax
        from padax import nn
        padax.seed(0)
        models = {"resnet": make_resnet18(nn, padax.flatten), "lstm": nn.LSTM(_LSTM_IN, _LSTM_H, num_layers=2),
                  "tf": nn.TransformerEncoderLayer(_TF_D, _TF_HEADS, _TF_FF, dropout=0.0)}
        for k, m in models.items():
            _PADAX_WEIGHTS[k] = (m, {n: np.asarray(v) for n, v in m.state_dict().items()})
    return _PADAX_WEIGHTS


# -- padax ---------------------------------------------------------------------------------------------------

def padax_resnet_train_step():
    model, _ = _padax_models()["resnet"]
    return sgd_train_step(model, _RES_X, _RES_Y, _LR)


def _bn_cnn(nn):
    """A small BatchNorm CNN (conv-BN-ReLU twice, pooling, a linear head) for the state-threading rows."""
    return nn.Sequential(nn.Conv2D(3, 32, 3, padding=1), nn.BatchNorm2D(32), nn.ReLU(), nn.MaxPool2D(2),
                         nn.Conv2D(32, 64, 3, padding=1), nn.BatchNorm2D(64), nn.ReLU(), nn.AdaptiveAvgPool2D(1),
                         nn.Flatten(), nn.Linear(64, _RES_CLASSES))


def padax_bn_cnn_step(obvious: bool):
    import padax
    from padax import nn
    padax.seed(0)
    return sgd_train_step(_bn_cnn(nn), _RES_X, _RES_Y, _LR, obvious=obvious)


def _padax_fwd_bwd(key, call):
    import padax
    model, _ = _padax_models()[key]
    model.eval()
    f = padax.jit(padax.value_and_grad(lambda m, x: call(m, x).mean(), argnums=(0, 1)))
    return f, model


def padax_lstm():
    import padax
    f, model = _padax_fwd_bwd("lstm", lambda m, x: m(x)[0])
    x = padax.to_tensor(_LSTM_X)
    return lambda: f(model, x)[0].block_until_ready()


def padax_transformer():
    import padax
    f, model = _padax_fwd_bwd("tf", lambda m, x: m(x))
    x = padax.to_tensor(_TF_X)
    return lambda: f(model, x)[0].block_until_ready()


# -- jax: the same models from jax.lax / jax.nn ops, same weights ----------------------------------------------

def _jax_resnet_loss(params, stats, x, y):
    import jax
    import jax.numpy as jnp
    from jax import lax
    new_stats = {}

    def conv(name, h, stride, pad):
        return lax.conv_general_dilated(h, params[name + ".weight"], (stride, stride), [(pad, pad)] * 2,
                                        dimension_numbers=("NCHW", "OIHW", "NCHW"))

    def bn(name, h):
        mean, var = h.mean((0, 2, 3)), h.var((0, 2, 3))
        n = h.shape[0] * h.shape[2] * h.shape[3]
        new_stats[name + "._mean"] = 0.9 * stats[name + "._mean"] + 0.1 * mean
        new_stats[name + "._variance"] = 0.9 * stats[name + "._variance"] + 0.1 * var * (n / (n - 1))
        inv = lax.rsqrt(var + 1e-5) * params[name + ".weight"]
        return (h - mean[None, :, None, None]) * inv[None, :, None, None] + params[name + ".bias"][None, :, None,
                                                                                                   None]

    h = jax.nn.relu(bn("bn1", conv("conv1", x, 1, 1)))
    for i in range(4):
        for j in range(_RES_BLOCKS):
            p = f"layer{i + 1}.{j}"
            stride = 2 if (i > 0 and j == 0) else 1
            out = jax.nn.relu(bn(p + ".bn1", conv(p + ".conv1", h, stride, 1)))
            out = bn(p + ".bn2", conv(p + ".conv2", out, 1, 1))
            if p + ".downsample.0.weight" in params:
                h = bn(p + ".downsample.1", conv(p + ".downsample.0", h, stride, 0))
            h = jax.nn.relu(out + h)
    logits = h.mean((2, 3)) @ params["fc.weight"] + params["fc.bias"]
    logp = jax.nn.log_softmax(logits)
    return -jnp.take_along_axis(logp, y[:, None], 1).mean(), new_stats


def jax_resnet_train_step():
    import jax
    _, weights = _padax_models()["resnet"]
    params = {k: jax.device_put(v) for k, v in weights.items() if not k.endswith(("_mean", "_variance"))}
    stats = {k: jax.device_put(v) for k, v in weights.items() if k.endswith(("_mean", "_variance"))}
    x, y = jax.device_put(_RES_X), jax.device_put(_RES_Y.astype(np.int32))

    @jax.jit
    def step(params, stats, x, y):
        (loss, stats), grads = jax.value_and_grad(_jax_resnet_loss, has_aux=True)(params, stats, x, y)
        return jax.tree_util.tree_map(lambda p, g: p - _LR * g, params, grads), stats, loss

    state = [params, stats]

    def run():
        state[0], state[1], loss = step(state[0], state[1], x, y)
        return loss.block_until_ready()
    return run


def _jax_lstm(params, x):
    import jax
    import jax.numpy as jnp
    from jax import lax
    h = jnp.swapaxes(x, 0, 1)
    for layer in range(2):
        p = f"{layer}.cell."
        w_hh, b_hh = params[p + "weight_hh"], params[p + "bias_hh"]
        xs = h @ params[p + "weight_ih"].T + params[p + "bias_ih"]

        def step(carry, xp, w_hh=w_hh, b_hh=b_hh):
            hp, cp = carry
            i, f, g, o = jnp.split(xp + hp @ w_hh.T + b_hh, 4, axis=-1)
            c = jax.nn.sigmoid(f) * cp + jax.nn.sigmoid(i) * jnp.tanh(g)
            hn = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (hn, c), hn

        zeros = jnp.zeros((x.shape[0], _LSTM_H), x.dtype)
        _, h = lax.scan(step, (zeros, zeros), xs)
    return jnp.swapaxes(h, 0, 1)


def _jax_encoder_layer(params, x):
    import jax

    def linear(name, h):
        return h @ params[name + ".weight"] + params[name + ".bias"]

    def norm(name, h):
        mean, var = h.mean(-1, keepdims=True), h.var(-1, keepdims=True)
        return (h - mean) * jax.lax.rsqrt(var + 1e-5) * params[name + ".weight"] + params[name + ".bias"]

    b, t, d = x.shape
    hd = d // _TF_HEADS
    heads = lambda h: h.reshape(b, t, _TF_HEADS, hd).transpose(0, 2, 1, 3)  # noqa: E731
    q, k, v = (heads(linear(f"self_attn.{n}_proj", x)) for n in "qkv")
    w = jax.nn.softmax((q * hd ** -0.5) @ k.transpose(0, 1, 3, 2), axis=-1)
    attn = linear("self_attn.out_proj", (w @ v).transpose(0, 2, 1, 3).reshape(b, t, d))
    h = norm("norm1", x + attn)
    return norm("norm2", h + linear("linear2", jax.nn.relu(linear("linear1", h))))


def _jax_fwd_bwd(key, fn, x):
    import jax
    _, weights = _padax_models()[key]
    params = {k: jax.device_put(v) for k, v in weights.items()}
    f = jax.jit(jax.value_and_grad(lambda p, x: fn(p, x).mean(), argnums=(0, 1)))
    xd = jax.device_put(x)
    return lambda: f(params, xd)[0].block_until_ready()


def jax_lstm():
    return _jax_fwd_bwd("lstm", _jax_lstm, _LSTM_X)


def jax_transformer():
    return _jax_fwd_bwd("tf", _jax_encoder_layer, _TF_X)


# -- paddle (CPU): eager, and paddle.jit.to_static -----------------------------------------------------------

def _paddle_model(key, static):
    import paddle
    paddle.set_device("cpu")
    if key == "resnet":
        m = make_resnet18(paddle.nn, paddle.flatten)
    elif key == "lstm":
        m = paddle.nn.LSTM(_LSTM_IN, _LSTM_H, num_layers=2)
    else:
        m = paddle.nn.TransformerEncoderLayer(_TF_D, _TF_HEADS, _TF_FF, dropout=0.0)
    m.set_state_dict(_padax_models()[key][1])
    if key == "tf":
        m.eval()  # (Paddle's fused LSTM kernel has no backward in eval mode; its dropout is 0 anyway)
    return paddle.jit.to_static(m, full_graph=True) if static else m


def _paddle_resnet(static):
    import paddle
    import paddle.nn.functional as F
    model = _paddle_model("resnet", static)
    opt = paddle.optimizer.SGD(learning_rate=_LR, parameters=model.parameters())
    x, y = paddle.to_tensor(_RES_X), paddle.to_tensor(_RES_Y)

    def run():
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return float(loss)
    return run


def _paddle_fwd_bwd(key, static, x_np, first_output):
    import paddle
    model = _paddle_model(key, static)

    def run():
        x = paddle.to_tensor(x_np, stop_gradient=False)
        out = model(x)
        loss = (out[0] if first_output else out).mean()
        loss.backward()
        model.clear_gradients()
        return float(loss)
    return run


def workloads() -> list[Workload]:
    res = f"ResNet-18 training step (SGD) on 32x32 inputs, batch {_RES_BATCH}"
    lstm = f"2-layer LSTM (hidden {_LSTM_H}, seq {_LSTM_T}, batch {_LSTM_B}) forward+backward"
    tf = f"TransformerEncoderLayer (d_model {_TF_D}, {_TF_HEADS} heads, seq {_TF_T}, batch {_TF_B}) fwd+bwd"
    out = []
    for static in ((False,) if _SMOKE else (False, True)):  # a smoke run checks Paddle's eager path only
        tag, how = ("_static", "paddle.jit.to_static") if static else ("", "paddle eager")
        out += [
            Workload("resnet18_train_step" + tag, f"{res} ({how})",
                     {"padax": padax_resnet_train_step, "jax": jax_resnet_train_step,
                      "paddle": lambda s=static: _paddle_resnet(s)}, target=1.05),
            Workload("lstm2_fwd_bwd" + tag, f"{lstm} ({how})",
                     {"padax": padax_lstm, "jax": jax_lstm,
                      "paddle": lambda s=static: _paddle_fwd_bwd("lstm", s, _LSTM_X, True)}, target=1.05),
            Workload("transformer_encoder_fwd_bwd" + tag, f"{tf} ({how})",
                     {"padax": padax_transformer, "jax": jax_transformer,
                      "paddle": lambda s=static: _paddle_fwd_bwd("tf", s, _TF_X, False)}, target=1.05),
        ]
    out.append(Workload("bn_cnn_obvious_step", f"BatchNorm CNN training step (SGD), batch {_RES_BATCH}, written the "
                        "obvious way (value_and_grad without aux, grad writes the statistics back); baseline: the "
                        "same step hand-threading the model as aux",
                        {"padax": lambda: padax_bn_cnn_step(True)},
                        baseline=lambda: padax_bn_cnn_step(False), baseline_target=1.05))
    return out
