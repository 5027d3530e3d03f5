"""Every parameter-free layer (activations, pooling, padding/vision, losses) against Paddle's layer of the same
name and settings: forward values and input gradients. All padax layers of a table run under one jit."""
import numpy as np
import pytest

import padax
from padax import nn
from tests.conftest import paddle_oracle
from tests.nn.oracle import paddle_run

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _labels(n, c, dtype=np.int64):
    return RNG.integers(0, c, n).astype(dtype)


def _sign(*shape):
    return np.where(RNG.random(shape) < 0.5, -1.0, 1.0).astype(np.float32)


def _log_softmax(x, axis=-1):
    z = x - x.max(axis=axis, keepdims=True)
    return (z - np.log(np.exp(z).sum(axis=axis, keepdims=True))).astype(np.float32)


def _check_table(cases, rtol=1e-4, atol=1e-5):
    """cases: (name, args, kwargs, inputs, differentiated input indexes). Paddle eagerly; padax in one jit."""
    paddle = paddle_oracle()
    layers, pd_layers, cots, expected = [], [], [], []
    for name, args, kw, inputs, diff in cases:
        p = getattr(paddle.nn, name)(*args, **kw)
        m = getattr(nn, name)(*args, **{k: (padax.to_tensor(v.numpy()) if isinstance(v, paddle.Tensor) else v)
                                         for k, v in kw.items()})
        p.eval()
        m.eval()
        out_shape = padax.eval_shape(lambda mm, *xs: mm(*xs), m, *[padax.to_tensor(a) for a in inputs]).shape
        cot = RNG.standard_normal(out_shape).astype(np.float32)
        expected.append(paddle_run(p, inputs, cot, grad_inputs=diff))
        layers.append(m)
        pd_layers.append(p)
        cots.append(cot)

    def total(diff_args, layers):
        outs, s = [], 0.0
        for (name, _, _, inputs, diff), m, cot, args in zip(cases, layers, cots, diff_args):
            full = [padax.to_tensor(a) for a in inputs]
            for i, a in zip(diff, args):
                full[i] = a
            out = m(*full)
            outs.append(out)
            s = s + (out * padax.to_tensor(cot)).sum()
        return s, outs

    diff_args = [[padax.to_tensor(inputs[i]) for i in diff] for _, _, _, inputs, diff in cases]
    (_, outs), grads = padax.jit(padax.value_and_grad(total, has_aux=True))(diff_args, layers)
    for (name, args, kw, inputs, diff), out, g, (p_out, p_gx, _) in zip(cases, outs, grads, expected):
        msg = f"{name}{args}{kw}"
        np.testing.assert_allclose(np.asarray(out), p_out, rtol=rtol, atol=atol, err_msg=msg)
        for i, gi in zip(diff, g):
            np.testing.assert_allclose(np.asarray(gi), p_gx[i], rtol=rtol, atol=atol, err_msg=f"{msg} grad {i}")


def test_activation_layers_vs_paddle():
    x = _x(2, 6, 4)
    names = ["ReLU", "ReLU6", "Sigmoid", "Tanh", "Hardsigmoid", "Hardswish", "LogSigmoid", "Mish", "Softsign",
             "Swish", "Tanhshrink", "SiLU", "Softmax2D"]
    cases = [(n, (), {}, [x * 3], [0]) for n in names]
    cases += [
        ("CELU", (0.5,), {}, [x], [0]), ("ELU", (0.7,), {}, [x], [0]), ("GELU", (), {}, [x], [0]),
        ("GELU", (True,), {}, [x], [0]), ("GLU", (1,), {}, [x], [0]), ("Hardshrink", (0.3,), {}, [x], [0]),
        ("Softshrink", (0.3,), {}, [x], [0]), ("Hardtanh", (-0.5, 0.8), {}, [x], [0]),
        ("LeakyReLU", (0.2,), {}, [x], [0]), ("LogSoftmax", (1,), {}, [x], [0]), ("Softmax", (), {}, [x], [0]),
        ("Maxout", (2,), {}, [_x(2, 6, 2, 2)], [0]), ("RReLU", (0.1, 0.3), {}, [x], [0]), ("SELU", (), {}, [x], [0]),
        ("Softplus", (2.0, 3.0), {}, [x], [0]), ("ThresholdedReLU", (0.5, 0.1), {}, [x], [0]),
    ]
    _check_table(cases)
    assert set(n for n in dir(paddle_oracle().nn) if n in names) == set(names)


def test_pool_layers_vs_paddle():
    x1, x2, x3 = _x(2, 3, 9), _x(2, 3, 7, 6), _x(1, 2, 5, 4, 6)
    cases = [
        ("MaxPool1D", (3, 2, 1), dict(ceil_mode=True), [x1], [0]),
        ("MaxPool2D", (3,), dict(stride=2, padding=1), [x2], [0]),
        ("MaxPool2D", (2,), dict(ceil_mode=True, data_format="NHWC"), [x2.transpose(0, 2, 3, 1).copy()], [0]),
        ("MaxPool3D", (2,), dict(stride=(1, 2, 2)), [x3], [0]),
        ("AvgPool1D", (3, 2, 1), dict(exclusive=False), [x1], [0]),
        ("AvgPool2D", (3, 2, 1), dict(ceil_mode=True), [x2], [0]),
        ("AvgPool2D", (2,), dict(divisor_override=3.0), [x2], [0]),
        ("AvgPool3D", (2,), dict(padding=1), [x3], [0]),
        ("LPPool1D", (2.0, 3), dict(stride=2), [np.abs(x1) + 0.1], [0]),
        ("LPPool2D", (3.0, 2), {}, [np.abs(x2) + 0.1], [0]),
        ("AdaptiveAvgPool1D", (4,), {}, [x1], [0]),
        ("AdaptiveAvgPool2D", ((3, None),), {}, [x2], [0]),
        ("AdaptiveAvgPool3D", (2,), {}, [x3], [0]),
        ("AdaptiveMaxPool1D", (4,), {}, [x1], [0]),
        ("AdaptiveMaxPool2D", ((3, 4),), {}, [x2], [0]),
        ("AdaptiveMaxPool3D", (2,), {}, [x3], [0]),
    ]
    _check_table(cases)


def test_pool_masks_and_unpool_vs_paddle():
    paddle = paddle_oracle()
    x = _x(2, 3, 6, 4)
    out, idx = nn.MaxPool2D(2, return_mask=True)(padax.to_tensor(x))
    p_out, p_idx = paddle.nn.MaxPool2D(2, return_mask=True)(paddle.to_tensor(x))
    np.testing.assert_allclose(out.numpy(), p_out.numpy())
    np.testing.assert_array_equal(idx.numpy(), p_idx.numpy())
    up = nn.MaxUnPool2D(2)(out, idx)
    np.testing.assert_allclose(up.numpy(), paddle.nn.MaxUnPool2D(2)(p_out, p_idx).numpy())
    a_out, a_idx = nn.AdaptiveMaxPool1D(2, return_mask=True)(padax.to_tensor(x[:, :, :, 0]))
    pa_out, pa_idx = paddle.nn.AdaptiveMaxPool1D(2, return_mask=True)(paddle.to_tensor(x[:, :, :, 0]))
    np.testing.assert_allclose(a_out.numpy(), pa_out.numpy())
    np.testing.assert_array_equal(a_idx.numpy(), pa_idx.numpy())
    with pytest.raises(ValueError, match=r"MaxPool2D input: expected rank 4"):
        nn.MaxPool2D(2)(padax.ones([3, 4]))


def test_vision_layers_vs_paddle():
    x1, x2, x3 = _x(2, 3, 5), _x(1, 2, 4, 5), _x(1, 2, 3, 3, 3)
    cases = [
        ("Pad1D", (2,), dict(mode="reflect"), [x1], [0]),
        ("Pad2D", ([1, 0, 2, 1],), dict(value=0.5), [x2], [0]),
        ("Pad3D", (1,), dict(mode="replicate"), [x3], [0]),
        ("ZeroPad1D", ([1, 2],), {}, [x1], [0]), ("ZeroPad2D", (1,), {}, [x2], [0]),
        ("ZeroPad3D", ([1, 0, 0, 1, 1, 0],), {}, [x3], [0]), ("CircularPad2D", (1,), {}, [x2], [0]),
        ("ConstantPad1D", (1, 2.0), {}, [x1], [0]), ("ReflectionPad2D", ([1, 1, 2, 0],), {}, [x2], [0]),
        ("ReplicationPad1D", (2,), {}, [x1], [0]), ("ReplicationPad3D", (1,), {}, [x3], [0]),
        ("Upsample", (), dict(scale_factor=2, mode="bilinear"), [x2], [0]),
        ("Upsample", ([5, 7],), dict(mode="bicubic", align_corners=True), [x2], [0]),
        ("Upsample", (), dict(scale_factor=1.5, mode="linear", data_format="NCW"), [x1], [0]),
        ("UpsamplingNearest2D", (), dict(scale_factor=2), [x2], [0]),
        ("UpsamplingBilinear2D", ([5, 6],), {}, [x2], [0]),
        ("PixelShuffle", (2,), {}, [_x(1, 8, 3, 3)], [0]), ("PixelUnshuffle", (2,), {}, [_x(1, 2, 4, 6)], [0]),
        ("ChannelShuffle", (2,), {}, [_x(1, 4, 2, 2)], [0]),
        ("Unfold", ([2, 2],), dict(strides=1, paddings=1), [_x(1, 2, 4, 4)], [0]),
        ("Fold", ([4, 4], [2, 2]), {}, [_x(1, 8, 9)], [0]),
        ("CosineSimilarity", (), dict(axis=1), [_x(3, 4), _x(3, 4)], [0, 1]),
        ("PairwiseDistance", (), dict(p=3.0, keepdim=True), [_x(3, 4), _x(3, 4)], [0, 1]),
    ]
    _check_table(cases)


def test_loss_layers_vs_paddle():
    paddle = paddle_oracle()
    logits, lab = _x(4, 5), _labels(4, 5)
    a, b = _x(4, 3), _x(4, 3)
    prob = (1 / (1 + np.exp(-a))).astype(np.float32)
    target = RNG.random((4, 3)).astype(np.float32)
    w = paddle.to_tensor(RNG.random(5).astype(np.float32) + 0.5)
    ml = np.array([[3, 0, -1, 1, 2], [1, 2, 4, -1, 0], [0, -1, 2, 1, 1], [4, 3, 2, 1, 0]], np.int64)
    log_probs = _log_softmax(_x(6, 2, 4))
    cases = [
        ("CrossEntropyLoss", (), {}, [logits, lab], [0]),
        ("CrossEntropyLoss", (), dict(weight=w, label_smoothing=0.1, reduction="sum"), [logits, lab], [0]),
        ("CrossEntropyLoss", (), dict(soft_label=True), [logits, np.exp(_log_softmax(_x(4, 5)))], [0]),
        ("NLLLoss", (), dict(weight=w, ignore_index=2), [_log_softmax(logits), lab], [0]),
        ("MSELoss", (), {}, [a, b], [0]), ("L1Loss", (), dict(reduction="none"), [a, b], [0]),
        ("SmoothL1Loss", (), dict(delta=0.5), [a, b], [0]), ("HuberLoss", (), dict(delta=0.7), [a, b], [0]),
        ("BCELoss", (), {}, [prob, target], [0]),
        ("BCEWithLogitsLoss", (), dict(pos_weight=paddle.to_tensor(np.array([1.0, 2.0, 0.5], np.float32))),
         [a, target], [0]),
        ("KLDivLoss", (), dict(reduction="batchmean"), [_log_softmax(a), np.exp(_log_softmax(b))], [0]),
        ("MarginRankingLoss", (), dict(margin=0.1), [a, b, _sign(4, 3)], [0, 1]),
        ("HingeEmbeddingLoss", (), dict(margin=0.5), [a, _sign(4, 3)], [0]),
        ("CosineEmbeddingLoss", (), dict(margin=0.2), [a, b, _sign(4).astype(np.int64)], [0, 1]),
        ("TripletMarginLoss", (), dict(swap=True), [a, b, _x(4, 3)], [0, 1, 2]),
        ("TripletMarginWithDistanceLoss", (), dict(margin=0.5), [a, b, _x(4, 3)], [0, 1, 2]),
        ("MultiLabelSoftMarginLoss", (), {}, [logits, (RNG.random((4, 5)) < 0.5).astype(np.float32)], [0]),
        ("MultiLabelMarginLoss", (), {}, [logits, ml], [0]),
        ("MultiMarginLoss", (), dict(p=2, margin=0.5, weight=w), [logits, lab], [0]),
        ("SoftMarginLoss", (), {}, [a, _sign(4, 3)], [0]),
        ("PoissonNLLLoss", (), dict(full=True), [a, np.abs(b) * 3], [0]),
        ("GaussianNLLLoss", (), {}, [a, b, np.abs(_x(4, 3)) + 0.1], [0]),
        ("CTCLoss", (), {}, [log_probs, np.array([[1, 2, 1], [3, 1, 0]], np.int32), np.array([6, 5], np.int64),
                             np.array([3, 2], np.int64)], [0]),
    ]
    _check_table(cases, rtol=1e-4, atol=1e-5)


def test_layer_errors_name_the_layer():
    model = nn.Sequential(nn.Linear(4, 4), nn.Softmax2D())
    with pytest.raises(ValueError, match=r"model\.1 \(Softmax2D\): Softmax2D input: expected rank 3 or 4"):
        model(padax.ones([2, 4]))
    with pytest.raises(ValueError, match="reduction"):
        nn.MSELoss(reduction="avg")
    with pytest.raises(TypeError, match="floating"):
        nn.AvgPool2D(2)(padax.ones([1, 1, 4, 4], dtype="int64"))
