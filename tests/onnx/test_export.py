"""padax.onnx.export: onnxruntime runs the exported graphs and gives padax's numbers (batch sizes 1 and 3 from one
file where the InputSpec has a None batch)."""
from __future__ import annotations

import os

import numpy as np
import pytest

import padax
from padax import nn
from padax.static import InputSpec

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")


def _session(path: str):
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    opts.intra_op_num_threads = 1
    return ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])


def _export(tmp_path, model, spec, name="model", **kw):
    path = os.path.join(tmp_path, name)
    padax.onnx.export(model, path, spec, **kw)
    return _session(path + ".onnx"), onnx.load(path + ".onnx")


def _rand(shape, seed=0):
    return np.random.RandomState(seed).standard_normal(shape).astype(np.float32)


def _first(out):
    return np.asarray(out[0] if isinstance(out, (tuple, list)) else out)


def _call(m, x):
    """The reference forward, compiled once per shape (cheaper than each eager op's compile in a cold cache)."""
    return m(x)


def _check_batches(sess, model, feature_shape, batches=(1, 3), rtol=1e-5, atol=1e-5):
    name = sess.get_inputs()[0].name
    for b in batches:
        x = _rand((b, *feature_shape), seed=b)
        want = _first(padax.jit(_call)(model, padax.to_tensor(x)))
        got = sess.run(None, {name: x})[0]
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def test_mlp_dynamic_batch_and_state_dict_names(tmp_path):
    padax.seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.GELU(), nn.Linear(16, 8), nn.Tanh(), nn.Linear(8, 3), nn.Softmax())
    model.eval()
    sess, proto = _export(tmp_path, model, [InputSpec([None, 4], "float32", "x")])
    assert {i.name for i in proto.graph.initializer} >= set(model.state_dict())
    (inp,) = proto.graph.input
    assert inp.name == "x"
    assert [d.dim_param or d.dim_value for d in inp.type.tensor_type.shape.dim] == ["x_dim0", 4]
    out_dims = proto.graph.output[0].type.tensor_type.shape.dim
    assert [d.dim_param or d.dim_value for d in out_dims] == ["x_dim0", 3]
    _check_batches(sess, model, (4,), batches=(1, 3, 7))


def test_lenet(tmp_path):
    padax.seed(1)
    model = padax.vision.models.LeNet()
    model.eval()
    sess, _ = _export(tmp_path, model, [InputSpec([None, 1, 28, 28], "float32")])
    _check_batches(sess, model, (1, 28, 28), rtol=1e-5, atol=2e-5)


def test_resnet18(tmp_path):
    padax.seed(2)
    model = padax.vision.models.resnet18(num_classes=10)
    model.eval()
    sess, _ = _export(tmp_path, model, [InputSpec([None, 3, 32, 32], "float32", "image")])
    x = _rand((3, 3, 32, 32))
    want = np.asarray(padax.jit(_call)(model, padax.to_tensor(x)))  # eval mode: each row depends on its own image only
    np.testing.assert_allclose(sess.run(None, {"image": x})[0], want, rtol=1e-5, atol=1e-4)  # |want| ~ 30
    np.testing.assert_allclose(sess.run(None, {"image": x[:1]})[0], want[:1], rtol=1e-5, atol=1e-4)


def test_lstm_unrolled(tmp_path):
    padax.seed(3)
    model = nn.LSTM(4, 6, num_layers=2)
    model.eval()
    sess, _ = _export(tmp_path, model, [InputSpec([None, 5, 4], "float32")])
    name = sess.get_inputs()[0].name
    for b in (1, 3):
        x = _rand((b, 5, 4), seed=b)
        out, (h, c) = model(padax.to_tensor(x))
        got = sess.run(None, {name: x})
        for g, w in zip(got, (out, h, c)):
            np.testing.assert_allclose(g, np.asarray(w), rtol=1e-5, atol=1e-6)


def test_transformer_encoder_layer(tmp_path):
    padax.seed(4)
    model = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0)
    model.eval()
    sess, _ = _export(tmp_path, model, [InputSpec([None, None, 16], "float32", "src")])  # batch and length
    for b, n in ((1, 6), (3, 4)):
        x = _rand((b, n, 16), seed=b)
        np.testing.assert_allclose(sess.run(None, {"src": x})[0], np.asarray(model(padax.to_tensor(x))),
                                   rtol=1e-5, atol=1e-5)


class _Mixed(nn.Layer):
    """Grouped, strided, dilated and padded convolutions, both poolings, an embedding lookup and a few reductions."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(4, 8, 3, stride=2, padding=1, dilation=2, groups=2)
        self.conv2 = nn.Conv2D(8, 8, 3, padding="same", groups=8)
        self.avg = nn.AvgPool2D(2, stride=1, padding=1)
        self.pool = nn.MaxPool2D(3, stride=2, padding=1)
        self.norm = nn.LayerNorm(8)
        self.emb = nn.Embedding(5, 8)

    def forward(self, x):
        y = self.pool(self.avg(self.conv2(self.conv(x))))
        y = padax.numpy.transpose(y, (0, 2, 3, 1))
        y = self.norm(y).mean(axis=(1, 2))
        idx = padax.numpy.argmax(y, axis=-1) % 5
        z = y + self.emb(idx)
        z = padax.numpy.concatenate([z, padax.numpy.exp(-padax.numpy.abs(z)), padax.numpy.sqrt(z * z + 1.0)], axis=1)
        z = padax.numpy.where(z > 0.5, z, z ** 2) - padax.numpy.maximum(z, 0.1) / 3.0
        return padax.numpy.cumsum(z[:, 2:20], axis=1), idx


def test_mixed_ops(tmp_path):
    padax.seed(5)
    model = _Mixed()
    model.eval()
    sess, _ = _export(tmp_path, model, [InputSpec([None, 4, 11, 11], "float32")])
    name = sess.get_inputs()[0].name
    for b in (1, 3):
        x = _rand((b, 4, 11, 11), seed=b)
        want = padax.jit(_call)(model, padax.to_tensor(x))
        got = sess.run(None, {name: x})
        np.testing.assert_allclose(got[0], np.asarray(want[0]), rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(got[1], np.asarray(want[1]))


def test_function_with_captured_constant(tmp_path):
    w = padax.to_tensor(_rand((3, 2)))
    sess, proto = _export(tmp_path, lambda a, b: (padax.nn.functional.sigmoid(a @ w) * b, padax.numpy.sum(a, 0)),
                          [InputSpec([2, 3], "float32", "a"), InputSpec([2, 2], "float32", "b")], opset_version=18)
    assert proto.opset_import[0].version == 18
    a, b = _rand((2, 3), 1), _rand((2, 2), 2)
    got = sess.run(None, {"a": a, "b": b})
    want = 1 / (1 + np.exp(-(a @ np.asarray(w)))) * b
    np.testing.assert_allclose(got[0], want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[1], a.sum(0), rtol=1e-5)


class _Cumprod(nn.Layer):
    def forward(self, x):
        return padax.numpy.cumprod(x, axis=-1)


def test_unsupported_primitive_is_named_with_its_line(tmp_path):
    model = nn.Sequential(nn.Linear(4, 4), _Cumprod())
    model.eval()
    with pytest.raises(padax.onnx.UnsupportedPrimitiveError,
                       match=r"primitive 'cumprod' has no ONNX translation \(at .*test_export\.py:\d+ in forward"):
        padax.onnx.export(model, os.path.join(tmp_path, "bad"), [InputSpec([None, 4], "float32")])
    assert not os.listdir(tmp_path)


@pytest.mark.parametrize("direction", ["forward", "bidirect"])
def test_rnn_over_a_none_sequence_length_is_a_loop(tmp_path, direction):
    padax.seed(7)
    model = nn.GRU(4, 6, direction=direction)
    model.eval()
    sess, proto = _export(tmp_path, model, [InputSpec([None, None, 4], "float32", "x")])
    assert "Loop" in {n.op_type for n in proto.graph.node}
    for b, n in ((1, 5), (3, 2)):
        x = _rand((b, n, 4), seed=b)
        out, h = model(padax.to_tensor(x))
        got = sess.run(None, {"x": x})
        np.testing.assert_allclose(got[0], np.asarray(out), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got[1], np.asarray(h), rtol=1e-5, atol=1e-6)


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="opset_version=9"):
        padax.onnx.export(nn.Linear(2, 2), os.path.join(tmp_path, "m"), [InputSpec([1, 2])], opset_version=9)
    with pytest.raises(TypeError, match="input_spec"):
        padax.onnx.export(nn.Linear(2, 2), os.path.join(tmp_path, "m"))


def test_mean_over_the_none_axis_uses_the_run_time_size(tmp_path):
    def f(x):
        return x - x.mean(axis=0) + padax.numpy.where(x > 100.0, -np.inf, 0.0)  # and an infinite literal

    sess, _ = _export(tmp_path, f, [InputSpec([None, 2], "float32", "x")], opset_version=13)
    for b in (1, 3, 5):
        x = _rand((b, 2), b)
        np.testing.assert_allclose(sess.run(None, {"x": x})[0], x - x.mean(0), rtol=1e-5, atol=1e-6)


def test_channels_last_conv_and_pooling(tmp_path):
    padax.seed(6)
    model = nn.Sequential(nn.Conv2D(3, 4, 3, padding=1, data_format="NHWC"), nn.ReLU(),
                          nn.MaxPool2D(2, data_format="NHWC"), nn.AvgPool2D(2, data_format="NHWC"))
    model.eval()
    sess, _ = _export(tmp_path, model, [InputSpec([None, 8, 8, 3], "float32")])
    _check_batches(sess, model, (8, 8, 3))


@pytest.mark.parametrize("kw", [dict(stride=2, padding=1, groups=2), dict(stride=2, padding=1, dilation=2),
                                dict(stride=3, output_padding=1)])
def test_conv_transpose(tmp_path, kw):
    padax.seed(8)
    model = nn.Conv2DTranspose(4, 6, 3, **kw)
    model.eval()
    sess, proto = _export(tmp_path, model, [InputSpec([None, 4, 5, 5], "float32")])
    assert "ConvTranspose" in {n.op_type for n in proto.graph.node}
    _check_batches(sess, model, (4, 5, 5))


def test_training_mode_hint_and_slices_from_the_end(tmp_path):
    model = nn.Sequential(nn.Linear(4, 3), nn.Dropout(0.5))
    with pytest.raises(padax.onnx.UnsupportedPrimitiveError, match=r"call layer\.eval\(\)"):
        padax.onnx.export(model, os.path.join(tmp_path, "train"), [InputSpec([None, 4], "float32")])
    sess, _ = _export(tmp_path, lambda a, b: (a[1:] - a[:-1]) @ b[-1], [InputSpec([None, 3], "float32", "a"),
                                                                      InputSpec([None, 3, 2], "float32", "b")])
    for n in (2, 5):
        a, b = _rand((n, 3), n), _rand((n + 1, 3, 2), n + 1)
        np.testing.assert_allclose(sess.run(None, {"a": a, "b": b})[0], (a[1:] - a[:-1]) @ b[-1], rtol=1e-5,
                                   atol=1e-6)


def test_none_sizes_that_must_agree_share_a_symbol(tmp_path):
    sess, proto = _export(tmp_path, lambda a, b: padax.numpy.einsum("bij,bkj->bik", a, b),
                          [InputSpec([None, 4, 5], "float32", "a"), InputSpec([None, 6, 5], "float32", "b")])
    dims = [[d.dim_param or d.dim_value for d in i.type.tensor_type.shape.dim] for i in proto.graph.input]
    assert dims == [["a_dim0", 4, 5], ["a_dim0", 6, 5]]
    for n in (1, 3):
        a, b = _rand((n, 4, 5), n), _rand((n, 6, 5), n + 1)
        np.testing.assert_allclose(sess.run(None, {"a": a, "b": b})[0], np.einsum("bij,bkj->bik", a, b),
                                   rtol=1e-5, atol=1e-5)


def test_embedding_takes_the_specs_int64_ids(tmp_path):
    padax.seed(9)
    model = nn.Embedding(10, 4)
    model.eval()
    sess, proto = _export(tmp_path, model, [InputSpec([None, 3], "int64", "ids")])
    assert proto.graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.INT64
    ids = np.array([[1, 9, 0], [4, 4, 2]], np.int64)
    np.testing.assert_array_equal(sess.run(None, {"ids": ids})[0], np.asarray(model.weight)[ids])


def test_sort_argsort_and_topk(tmp_path):
    def f(x):  # argsort over the None axis needs an iota of the run-time size
        return (padax.numpy.sort(x, axis=0), padax.numpy.argsort(x, axis=1), padax.numpy.argsort(x, axis=0),
                *padax.topk(x, 2, axis=1))

    sess, _ = _export(tmp_path, f, [InputSpec([None, 5], "float32", "x")])
    x = np.array([[3.0, 1.0, 2.0, 1.0, 0.5], [0.0, -1.0, 4.0, 4.0, 2.0], [1.0, 1.0, 1.0, 0.0, 9.0]], np.float32)
    for b in (1, 3):
        got = sess.run(None, {"x": x[:b]})
        for g, w in zip(got, f(padax.to_tensor(x[:b]))):
            np.testing.assert_array_equal(g, np.asarray(w))


def test_a_size_derived_from_a_none_axis_is_warned_of(tmp_path):
    with pytest.warns(UserWarning, match=r"size 1038 derived from the None size x_dim0"):
        padax.onnx.export(lambda x: padax.numpy.zeros([x.shape[0] - 1]) + x[0, 0],
                          os.path.join(tmp_path, "m"), [InputSpec([None, 2], "float32", "x")])
