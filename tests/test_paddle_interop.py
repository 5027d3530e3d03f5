"""Moving weights between Paddle and padax: Paddle's pickles read safely, written for paddle.load,
.safetensors files, and torch <-> paddle layout conversion."""
import collections
import os
import pickle

import ml_dtypes
import numpy as np
import pytest

import padax
from padax.serialization import LoadError
from padax.utils import convert_state_dict
from tests.conftest import paddle_oracle


class _RunsCommand:
    def __init__(self, command):
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


class _Evals:
    def __reduce__(self):
        return (eval, ("__import__('os').getcwd()",))


class _DenseTensorLike:
    def __reduce__(self):  # how paddle.save pickles a DenseTensor
        return (eval, ("data", {"data": np.arange(3.0)}))


@pytest.mark.parametrize("protocol", [2, 4])
def test_a_pdparams_whose_pickle_runs_a_command_is_refused_and_nothing_runs(tmp_path, protocol):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.pdparams"
    with open(path, "wb") as f:
        pickle.dump({"fc.weight": np.ones((2, 2), np.float32), "x": _RunsCommand(f"touch {marker}")}, f,
                    protocol=protocol)
    with pytest.raises(LoadError, match=r"refused to load global '(posix|os|nt)\.system'"):
        padax.load(str(path))
    assert not marker.exists()


def test_eval_and_object_arrays_are_refused(tmp_path):
    path = tmp_path / "eval.pdparams"
    with open(path, "wb") as f:
        pickle.dump({"w": _Evals()}, f, protocol=4)
    with pytest.raises(LoadError, match="builtins.eval refused"):
        padax.load(str(path))
    with open(path, "wb") as f:  # Paddle's DenseTensor form is recognised, not evaluated
        pickle.dump({"w": _DenseTensorLike()}, f, protocol=4)
    np.testing.assert_array_equal(padax.load(str(path), return_numpy=True)["w"], np.arange(3.0))
    with open(path, "wb") as f:
        pickle.dump({"w": np.array([{"a": 1}], dtype=object)}, f, protocol=4)
    with pytest.raises(LoadError, match="Python objects"):
        padax.load(str(path))


def _paddle_model_and_optimizer():
    paddle = paddle_oracle()
    paddle.seed(0)
    model = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4), paddle.nn.Linear(4, 2))
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=2)
    opt = paddle.optimizer.Adam(learning_rate=sched, parameters=model.parameters())
    model(paddle.randn([5, 3])).sum().backward()
    opt.step()
    return paddle, model, opt


@pytest.mark.parametrize("protocol", [2, 4])
def test_paddle_saved_pdparams_and_pdopt_load_with_the_same_values(tmp_path, protocol):
    paddle, model, opt = _paddle_model_and_optimizer()
    paddle.save(model.state_dict(), str(tmp_path / "m.pdparams"), protocol=protocol)
    paddle.save(opt.state_dict(), str(tmp_path / "m.pdopt"), protocol=protocol)
    for name, state in (("m.pdparams", model.state_dict()), ("m.pdopt", opt.state_dict())):
        loaded = padax.load(str(tmp_path / name))
        expected = {k: v for k, v in state.items()}
        assert set(loaded) == set(expected)  # the name table Paddle adds is dropped, as paddle.load does
        for k, v in expected.items():
            if hasattr(v, "numpy"):
                assert isinstance(loaded[k], padax.Tensor)
                np.testing.assert_array_equal(loaded[k].numpy(), v.numpy())
            else:
                assert loaded[k] == v
    as_numpy = padax.load(str(tmp_path / "m.pdparams"), return_numpy=True)
    assert all(isinstance(v, np.ndarray) for v in as_numpy.values())


def test_paddle_pickled_objects_tensor_tuples_and_split_arrays(tmp_path):
    paddle = paddle_oracle()
    t = paddle.to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    paddle.save({"t": t, "nested": [t, {"s": "text", "n": 3}]}, str(tmp_path / "obj.pd"))
    loaded = padax.load(str(tmp_path / "obj.pd"), return_numpy=True)
    np.testing.assert_array_equal(loaded["t"], t.numpy())  # Paddle pickles a Tensor as (name, array)
    np.testing.assert_array_equal(loaded["nested"][0], t.numpy())
    assert loaded["nested"][1] == {"s": "text", "n": 3}
    # Paddle's protocol-2/3 layout for arrays over 1 GiB: slices + an UnpackBigParamInfor@@ table
    split = {"w@@.0": np.arange(4.0), "w@@.1": np.arange(4.0, 6.0),
             "UnpackBigParamInfor@@": {"w": {"OriginShape": (2, 3), "slices": ["w@@.0", "w@@.1"]}}}
    with open(tmp_path / "big.pdparams", "wb") as f:
        pickle.dump(split, f, protocol=2)
    loaded = padax.load(str(tmp_path / "big.pdparams"), return_numpy=True)
    assert list(loaded) == ["w"]
    np.testing.assert_array_equal(loaded["w"], np.arange(6.0).reshape(2, 3))


def test_padax_save_format_paddle_is_read_by_paddle_load(tmp_path):
    paddle = paddle_oracle()
    model = padax.nn.Sequential(padax.nn.Linear(3, 4), padax.nn.BatchNorm1D(4))
    path = str(tmp_path / "m.pdparams")
    padax.save(model.state_dict(), path, format="paddle")
    loaded = paddle.load(path)
    assert list(loaded) == list(model.state_dict())
    for k, v in model.state_dict().items():
        np.testing.assert_array_equal(loaded[k].numpy(), v.numpy())
    target = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4))
    target.set_state_dict(loaded)
    np.testing.assert_array_equal(target[0].weight.numpy(), model[0].weight.numpy())
    padax.save({"a": [padax.ones([2]), 3, "s"], "b": np.float32(2.5)}, path, format="paddle")
    obj = paddle.load(path)
    np.testing.assert_array_equal(obj["a"][0].numpy(), np.ones(2, np.float32))
    assert obj["a"][1:] == [3, "s"] and float(obj["b"]) == 2.5
    with pytest.raises(TypeError, match="cannot save Counter"):
        padax.save({"c": collections.Counter()}, path, format="paddle")
    with pytest.raises(ValueError, match="valid formats"):
        padax.save({}, path, format="torch")


def test_safetensors_round_trip_every_dtype_and_files_from_the_library(tmp_path):
    safetensors_numpy = pytest.importorskip("safetensors.numpy")
    state = {"f32": np.arange(6, dtype=np.float32).reshape(2, 3), "i64": np.arange(3),
             "bf16": np.array([1.5, -2.0], ml_dtypes.bfloat16), "f8": np.array([0.5], ml_dtypes.float8_e4m3fn),
             "b": np.array([True, False]), "t": padax.to_tensor([1.0, 2.0])}
    path = str(tmp_path / "m.safetensors")
    padax.save(state, path)  # the file name picks the format
    loaded = padax.load(path)
    assert set(loaded) == set(state)
    for k, v in state.items():
        assert isinstance(loaded[k], padax.Tensor)
        assert loaded[k].numpy().dtype == np.asarray(v).dtype
        np.testing.assert_array_equal(loaded[k].numpy(), np.asarray(v))
    other = str(tmp_path / "lib.bin")
    safetensors_numpy.save_file({"w": np.ones((2, 2), np.float16)}, other)
    np.testing.assert_array_equal(padax.load(other, return_numpy=True)["w"], np.ones((2, 2), np.float16))
    padax.save({"w": padax.ones([2])}, str(tmp_path / "x.pdparams"), safetensors=True)  # Paddle's flag
    assert safetensors_numpy.load_file(str(tmp_path / "x.pdparams"))["w"].tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="flat dict"):
        padax.save({"a": [padax.ones([2])]}, path, format="safetensors")


def test_convert_state_dict_torch_to_paddle_and_back():
    rng = np.random.default_rng(0)
    torch_sd = {"fc.weight": rng.standard_normal((4, 3)), "fc.bias": rng.standard_normal(4),
                "bn.weight": np.ones(4), "bn.bias": np.zeros(4), "bn.running_mean": rng.standard_normal(4),
                "bn.running_var": np.ones(4), "bn.num_batches_tracked": np.array(7),
                "conv.weight": rng.standard_normal((2, 3, 3, 3)), "emb.weight": rng.standard_normal((10, 4))}

    class Net(padax.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc, self.bn = padax.nn.Linear(3, 4), padax.nn.BatchNorm1D(4)
            self.conv, self.emb = padax.nn.Conv2D(3, 2, 3, bias_attr=False), padax.nn.Embedding(10, 4)

    model = Net()
    sd = convert_state_dict(torch_sd, from_="torch", model=model)
    assert set(sd) == {"fc.weight", "fc.bias", "bn.weight", "bn.bias", "bn._mean", "bn._variance", "conv.weight",
                       "emb.weight"}
    np.testing.assert_array_equal(sd["fc.weight"], torch_sd["fc.weight"].T)
    np.testing.assert_array_equal(sd["emb.weight"], torch_sd["emb.weight"])  # same layout in both
    np.testing.assert_array_equal(sd["bn._mean"], torch_sd["bn.running_mean"])
    model.set_state_dict(sd)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    np.testing.assert_allclose(model.fc(padax.to_tensor(x)).numpy(),
                               x @ torch_sd["fc.weight"].T + torch_sd["fc.bias"], rtol=1e-5, atol=1e-5)
    back = convert_state_dict(sd, from_="paddle", to="torch", model=model)
    assert set(back) == set(torch_sd)
    np.testing.assert_array_equal(back["fc.weight"], torch_sd["fc.weight"])
    assert back["bn.num_batches_tracked"] == 0
    # without a model every 2-D weight counts as Linear
    assert convert_state_dict(torch_sd)["emb.weight"].shape == (4, 10)
    with pytest.raises(ValueError, match="valid layouts"):
        convert_state_dict(torch_sd, from_="tf")
