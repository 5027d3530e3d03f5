"""padax.nn.functional: activations, softmax family, one_hot and losses vs numpy/scipy."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
import scipy.special as sp

import padax
import padax.nn.functional as F
from tests.conftest import assert_close, rand, tol

SHAPE = (3, 5)


def both(fn, *args):
    return [fn(*args), padax.jit(fn)(*args)]


def _gelu_tanh(a):
    return 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a ** 3)))


ACTS = {
    "relu": (F.relu, lambda a: np.maximum(a, 0)),
    "relu6": (F.relu6, lambda a: np.clip(a, 0, 6)),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.2), lambda a: np.where(a >= 0, a, 0.2 * a)),
    "elu": (lambda x: F.elu(x, 0.5), lambda a: np.where(a > 0, a, 0.5 * np.expm1(a))),
    "gelu": (F.gelu, lambda a: 0.5 * a * (1 + sp.erf(a / np.sqrt(2)))),
    "gelu_tanh": (lambda x: F.gelu(x, approximate=True), _gelu_tanh),
    "silu": (F.silu, lambda a: a * sp.expit(a)),
    "softplus": (F.softplus, lambda a: np.log1p(np.exp(a))),
    "softplus_beta": (lambda x: F.softplus(x, beta=2, threshold=4), lambda a: np.where(2 * a > 4, a, np.log1p(np.exp(2 * a)) / 2)),
    "sigmoid": (F.sigmoid, sp.expit),
    "tanh": (F.tanh, np.tanh),
    "log_sigmoid": (F.log_sigmoid, lambda a: -np.logaddexp(0, -a)),
    "hardsigmoid": (F.hardsigmoid, lambda a: np.clip(a * 0.1666667 + 0.5, 0, 1)),
    "hardswish": (F.hardswish, lambda a: a * np.clip(a + 3, 0, 6) / 6),
    "mish": (F.mish, lambda a: a * np.tanh(np.log1p(np.exp(a)))),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16])
def test_activations(dtype):
    a = rand(SHAPE, dtype, np.random.default_rng(0), -4, 4)
    x = padax.to_tensor(a)
    fns = {n: f for n, (f, _) in ACTS.items()}
    for outs in both(lambda u: {n: f(u) for n, f in fns.items()}, x):
        for n, (_, ref) in ACTS.items():
            expect = ref(a.astype(np.float64)).astype(dtype)
            assert outs[n].dtype == np.dtype(dtype), n
            assert_close(outs[n], expect, dtype, rtol=tol(dtype, 4), atol=tol(dtype, 4))


@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16])
def test_softmax_family(dtype):
    a = rand(SHAPE, dtype, np.random.default_rng(1), -5, 5)
    x = padax.to_tensor(a)
    fn = lambda u: (F.softmax(u), F.softmax(u, axis=0), F.log_softmax(u), F.log_softmax(u, axis=-2),  # noqa: E731
                    F.softmax(u, dtype="float32"))
    af = a.astype(np.float64)
    for s1, s0, l1, l0, s32 in both(fn, x):
        assert_close(s1, sp.softmax(af, -1).astype(dtype), dtype, rtol=tol(dtype, 2), atol=tol(dtype, 2))
        assert_close(s0, sp.softmax(af, 0).astype(dtype), dtype, rtol=tol(dtype, 2), atol=tol(dtype, 2))
        assert_close(l1, sp.log_softmax(af, -1).astype(dtype), dtype, rtol=tol(dtype, 2), atol=tol(dtype, 4))
        assert_close(l0, sp.log_softmax(af, 0).astype(dtype), dtype, rtol=tol(dtype, 2), atol=tol(dtype, 4))
        assert s32.dtype == np.float32


def test_softmax_is_stable_for_large_inputs():
    a = np.array([[1000.0, 1001.0, 1002.0], [-1e4, 0.0, 1e4]], np.float32)
    x = padax.to_tensor(a)
    s = F.softmax(x)
    l = F.log_softmax(x)
    assert np.isfinite(s.numpy()).all() and np.isfinite(l.numpy()).all()
    assert_close(s, sp.softmax(a.astype(np.float64), -1).astype(np.float32))
    assert_close(l, sp.log_softmax(a.astype(np.float64), -1).astype(np.float32), rtol=1e-5, atol=1e-4)
    ninf = padax.to_tensor(np.array([-np.inf, 0.0, -np.inf], np.float32))
    assert_close(F.softmax(ninf), np.array([0.0, 1.0, 0.0], np.float32))


def test_one_hot():
    lbl = np.array([[0, 3], [2, 1]])
    x = padax.to_tensor(lbl)
    for o in both(lambda u: F.one_hot(u, 4), x):
        assert o.dtype == np.float32 and o.shape == (2, 2, 4)
        np.testing.assert_array_equal(o.numpy(), np.eye(4, dtype=np.float32)[lbl])
    with pytest.raises(TypeError, match="one_hot: labels must be integers"):
        F.one_hot(padax.ones([2]), 3)


def _ce_ref(logits, labels, weight=None, ignore_index=-100):
    ls = sp.log_softmax(logits.astype(np.float64), -1)
    valid = labels != ignore_index
    safe = np.where(valid, labels, 0)
    w = np.ones(logits.shape[-1]) if weight is None else weight
    wl = w[safe] * valid
    per = -ls[np.arange(len(labels)), safe] * wl
    return per, per.sum() / wl.sum(), per.sum()


def test_cross_entropy_hard_labels():
    rng = np.random.default_rng(2)
    logits = rng.normal(size=(6, 5)).astype(np.float32)
    labels = np.array([0, 4, 2, -100, 1, 3])
    weight = rng.uniform(0.5, 2, 5).astype(np.float32)
    x, y, w = padax.to_tensor(logits), padax.to_tensor(labels), padax.to_tensor(weight)
    fn = lambda u, v, ww: (F.cross_entropy(u, v), F.cross_entropy(u, v, reduction="sum"),  # noqa: E731
                           F.cross_entropy(u, v, reduction="none"), F.cross_entropy(u, v[:, None], reduction="none"),
                           F.cross_entropy(u, v, weight=ww), F.cross_entropy(u, v[:, None]))
    per, _, total = _ce_ref(logits, labels)
    mean = total / len(labels)   # Paddle: with a negative ignore_index, 'mean' divides by every label
    _, wmean, _ = _ce_ref(logits, labels, weight.astype(np.float64))
    for m, s, n1, n2, wm, m2 in both(fn, x, y, w):
        assert_close(m, np.float32(mean))
        assert_close(s, np.float32(total))
        assert n1.shape == (6,) and n2.shape == (6, 1)
        assert_close(n1, per.astype(np.float32))
        assert_close(n2, per[:, None].astype(np.float32))
        assert_close(wm, np.float32(wmean))
        assert_close(m2, np.float32(mean))


def test_cross_entropy_soft_labels_and_axis():
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(4, 3)).astype(np.float32)
    probs = sp.softmax(rng.normal(size=(4, 3)), -1).astype(np.float32)
    x, p = padax.to_tensor(logits), padax.to_tensor(probs)
    ls = sp.log_softmax(logits.astype(np.float64), -1)
    per = -(probs * ls).sum(-1, keepdims=True)
    out = F.cross_entropy(x, p, soft_label=True, reduction="none")
    assert out.shape == (4, 1)
    assert_close(out, per.astype(np.float32))
    assert_close(F.cross_entropy(x, p, soft_label=True), np.float32(per.mean()))
    # class axis first
    xt = padax.to_tensor(logits.T.copy())
    lbl = np.array([2, 0, 1, 1])
    assert_close(F.cross_entropy(xt, padax.to_tensor(lbl), axis=0),
                 np.float32(-ls[np.arange(4), lbl].mean()))
    # label smoothing = soft labels mixed with the uniform distribution
    eps = 0.1
    smooth = (1 - eps) * np.eye(3)[lbl] + eps / 3
    assert_close(F.cross_entropy(x, padax.to_tensor(lbl), label_smoothing=eps),
                 np.float32(-(smooth * ls).sum(-1).mean()))


def test_cross_entropy_low_precision_and_errors():
    logits = np.random.default_rng(4).normal(size=(4, 3)).astype(ml_dtypes.bfloat16)
    lbl = np.array([0, 1, 2, 1])
    out = F.cross_entropy(padax.to_tensor(logits), padax.to_tensor(lbl))
    assert out.dtype == ml_dtypes.bfloat16
    _, mean, _ = _ce_ref(logits.astype(np.float32), lbl)
    assert_close(out, np.asarray(mean).astype(ml_dtypes.bfloat16), ml_dtypes.bfloat16)
    with pytest.raises(ValueError, match="cross_entropy: label of shape"):
        F.cross_entropy(padax.ones([4, 3]), padax.to_tensor([0, 1]))
    with pytest.raises(TypeError, match="hard labels must be integers"):
        F.cross_entropy(padax.ones([4, 3]), padax.ones([4], dtype="complex64"))
    with pytest.raises(ValueError, match="reduction must be"):
        F.cross_entropy(padax.ones([4, 3]), padax.to_tensor([0, 1, 2, 0]), reduction="avg")


def test_nll_loss():
    rng = np.random.default_rng(5)
    logp = sp.log_softmax(rng.normal(size=(5, 4)), -1).astype(np.float32)
    lbl = np.array([3, 0, -100, 1, 2])
    w = rng.uniform(0.5, 2, 4).astype(np.float32)
    x, y, ww = padax.to_tensor(logp), padax.to_tensor(lbl), padax.to_tensor(w)
    valid = lbl != -100
    safe = np.where(valid, lbl, 0)
    per = -logp[np.arange(5), safe] * valid
    for m, s, n, wm in both(lambda u, v, k: (F.nll_loss(u, v), F.nll_loss(u, v, reduction="sum"),
                                             F.nll_loss(u, v, reduction="none"), F.nll_loss(u, v, weight=k)), x, y, ww):
        assert_close(m, np.float32(per.sum() / valid.sum()))
        assert_close(s, np.float32(per.sum()))
        assert_close(n, per.astype(np.float32))
        wl = w[safe] * valid
        assert_close(wm, np.float32((per * w[safe]).sum() / wl.sum()), rtol=1e-5, atol=1e-6)
    # spatial: input [N, C, d], label [N, d]
    lp3 = sp.log_softmax(rng.normal(size=(2, 3, 4)), 1).astype(np.float32)
    l3 = rng.integers(0, 3, (2, 4))
    ref = -np.take_along_axis(lp3, l3[:, None], 1)[:, 0]
    assert_close(F.nll_loss(padax.to_tensor(lp3), padax.to_tensor(l3), reduction="none"), ref)


def test_mse_l1_linear():
    rng = np.random.default_rng(6)
    a, b = rng.normal(size=SHAPE).astype(np.float32), rng.normal(size=SHAPE).astype(np.float32)
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    for m, ms, mn, l, ls_, ln in both(lambda u, v: (F.mse_loss(u, v), F.mse_loss(u, v, "sum"), F.mse_loss(u, v, "none"),
                                                    F.l1_loss(u, v), F.l1_loss(u, v, "sum"), F.l1_loss(u, v, "none")), x, y):
        assert_close(m, np.float32(((a - b) ** 2).mean()))
        assert_close(ms, np.float32(((a - b) ** 2).sum()), rtol=1e-5)
        assert_close(mn, (a - b) ** 2)
        assert_close(l, np.float32(np.abs(a - b).mean()))
        assert_close(ls_, np.float32(np.abs(a - b).sum()), rtol=1e-5)
        assert_close(ln, np.abs(a - b))
    wt = rng.normal(size=(5, 2)).astype(np.float32)
    bias = rng.normal(size=(2,)).astype(np.float32)
    assert_close(F.linear(x, padax.to_tensor(wt), padax.to_tensor(bias)), a @ wt + bias, rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="mse_loss: reduction"):
        F.mse_loss(x, y, reduction="mean ")


def test_cross_entropy_float_labels_as_paddle():
    """Paddle reads float class indices as integers, and with label_smoothing a float one-hot label as a
    distribution; both give Paddle's values."""
    from tests.conftest import paddle_oracle
    paddle = paddle_oracle()
    rng = np.random.default_rng(5)
    logits = rng.normal(size=(4, 3)).astype(np.float32)
    labels = np.array([0, 2, 1, 1])
    onehot = np.eye(3, dtype=np.float32)[labels]
    PF = paddle.nn.functional
    want = [PF.cross_entropy(paddle.to_tensor(logits), paddle.to_tensor(labels.astype(np.float32))),
            PF.cross_entropy(paddle.to_tensor(logits), paddle.to_tensor(onehot), label_smoothing=0.1),
            PF.cross_entropy(paddle.to_tensor(logits), paddle.to_tensor(labels), label_smoothing=0.1)]
    got = [F.cross_entropy(padax.to_tensor(logits), padax.to_tensor(labels.astype(np.float32))),
           F.cross_entropy(padax.to_tensor(logits), padax.to_tensor(onehot), label_smoothing=0.1),
           F.cross_entropy(padax.to_tensor(logits), padax.to_tensor(labels), label_smoothing=0.1)]
    for g, w in zip(got, want):
        assert_close(g, w.numpy(), rtol=1e-5)
