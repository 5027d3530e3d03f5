"""PTQ and QAT on the bundled digits: the int8 models (int8 weights in state_dict, int8 x int8 -> int32
matmuls) stay within 2 points of the float model's test accuracy, and export through padax.jit.save."""
import copy
import os

import numpy as np
import pytest

import padax
from padax import nn
from padax.data import load_digits
from padax.quantization import PTQ, QAT, QuantConfig, QuantizedLinear
from padax.quantization.observers import AbsMaxChannelWiseWeightObserver, AbsmaxObserver
from padax.quantization.quanters import FakeQuanterChannelWiseAbsMaxObserver, FakeQuanterWithAbsMaxObserver

F = nn.functional


def _mlp():
    return nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))


def _data():
    images, labels = load_digits()
    x = images.reshape(len(images), 64).astype(np.float32) / 16.0
    perm = np.random.default_rng(0).permutation(len(x))
    tr, te = perm[:1400], perm[1400:]
    return padax.to_tensor(x[tr]), padax.to_tensor(labels[tr]), padax.to_tensor(x[te]), labels[te]


def _train(model, x, y, steps, lr=1e-2):
    opt = padax.optimizer.Adam(lr)
    st = opt.init(model)

    @padax.jit
    def step(m, s):
        loss, g = padax.value_and_grad(lambda mm: F.cross_entropy(mm(x), y))(m)
        m, s = opt.step(m, g, s)
        return m, s, loss

    for _ in range(steps):
        model, st, loss = step(model, st)
    return model, float(loss)


def _accuracy(model, x, y):
    return float((padax.jit(lambda m, v: m(v))(model, x).numpy().argmax(1) == y).mean())


@pytest.fixture(scope="module")
def float_model():
    padax.seed(0)
    x, y, xt, yt = _data()
    model, _ = _train(_mlp().train(), x, y, 200)
    model.eval()
    acc = _accuracy(model, xt, yt)
    assert acc > 0.93, acc
    return model, acc


def _check_int8(model, float_acc):
    x, _, xt, yt = _data()
    assert [type(model[i]).__name__ for i in (0, 2, 4)] == ["QuantizedLinear"] * 3
    sd = model.state_dict()
    for i in (0, 2, 4):
        assert sd[f"{i}.weight"].dtype == np.int8 and sd[f"{i}.weight_scale"].dtype == np.float32
        assert np.abs(sd[f"{i}.weight"].numpy()).max() == 127  # per-channel abs-max: the largest hits 127
        assert sd[f"{i}.bias"].dtype == np.float32 and model[i].param_info("bias").trainable
    acc = _accuracy(model, xt, yt)
    assert acc >= float_acc - 0.02, (acc, float_acc)
    jaxpr = str(padax.make_jaxpr(lambda v: model(v))(xt))
    assert jaxpr.count("preferred_element_type=int32") == 3 and "i8[" in jaxpr
    return acc


def test_ptq_digits(float_model, tmp_path):
    model, float_acc = float_model
    x, _, xt, _ = _data()
    ptq = PTQ(QuantConfig(activation=AbsmaxObserver(), weight=AbsMaxChannelWiseWeightObserver()))
    q = ptq.quantize(model)
    assert model[0].__class__ is nn.Linear  # inplace=False: the float model is untouched
    calib = padax.jit(lambda m, v: (m(v), m)[1])
    for i in range(4):
        q = calib(q, x[i * 200:(i + 1) * 200])
    int8 = ptq.convert(q)
    _check_int8(int8, float_acc)
    # the activation scale is the calibrated abs-max of the layer's input
    assert float(int8[0].activation_scale) == pytest.approx(float(padax.abs(x[:800]).max()), rel=1e-6)
    # export: the saved file holds the int8 weights
    path = str(tmp_path / "int8")
    padax.jit.save(int8, path, input_spec=[xt])
    loaded = padax.jit.load(path)
    assert loaded.state_dict()["0.weight"].dtype == np.int8
    np.testing.assert_allclose(loaded(xt).numpy(), int8(xt).numpy(), rtol=1e-6, atol=1e-6)
    pred = padax.inference.create_predictor(padax.inference.Config(path))
    np.testing.assert_allclose(pred.run([xt.numpy()])[0].numpy(), int8(xt).numpy(), rtol=1e-6, atol=1e-6)
    float_path = str(tmp_path / "float")
    padax.jit.save(model, float_path, input_spec=[xt])
    assert os.path.getsize(path + ".padax") < os.path.getsize(float_path + ".padax")
    assert _weight_bytes(path) < 0.3 * _weight_bytes(float_path)


def _weight_bytes(path):
    with np.load(path + ".padax", allow_pickle=False) as z:
        return sum(z[k].nbytes for k in z.files if k[0] == "p" and k[1:].isdigit())


def test_qat_digits(float_model):
    model, float_acc = float_model
    x, y, _, _ = _data()
    q = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
    qat = QAT(QuantConfig(activation=q, weight=FakeQuanterChannelWiseAbsMaxObserver()))
    qm = qat.quantize(copy.deepcopy(model).train())
    assert type(qm[0]).__name__ == "QuantedLinear"
    qm, loss = _train(qm, x, y, 60, lr=2e-3)
    assert np.isfinite(loss)
    assert float(qm[0].activation_quanter._scale[0]) != 0.001  # the moving-average scale was trained
    assert not np.allclose(qm[0].weight.numpy(), model[0].weight.numpy())  # the weights were trained too
    int8 = qat.convert(qm)
    assert isinstance(int8[0], QuantizedLinear)
    _check_int8(int8, float_acc)
