"""pretrained=True reads Paddle's weight file from the local cache folder and never downloads; weights that
do not fit a model are listed."""
import numpy as np
import pytest

import padax
from padax.vision import models


@pytest.fixture
def zero_initialized():
    padax.nn.initializer.set_global_initializer(padax.nn.initializer.Constant(0.0),
                                                padax.nn.initializer.Constant(0.0))
    yield
    padax.nn.initializer.set_global_initializer(None, None)


def test_missing_pretrained_file_names_the_file_and_the_folder(tmp_path, monkeypatch, zero_initialized):
    monkeypatch.setenv("PADAX_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))  # no Paddle cache either
    folder = str(tmp_path / "hapi" / "weights")
    assert models.weights_dir() == folder
    with pytest.raises(FileNotFoundError) as e:
        models.squeezenet1_1(pretrained=True)
    assert "SqueezeNet1_1_pretrained.pdparams" in str(e.value) and folder in str(e.value)
    assert "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/SqueezeNet1_1_pretrained.pdparams" in str(e.value)
    with pytest.raises(ValueError, match="no pretrained weights.*resnet18"):
        models.mobilenet_v1(pretrained=True, scale=0.5)


def test_pretrained_loads_the_cached_file(tmp_path, monkeypatch, zero_initialized):
    monkeypatch.setenv("PADAX_HOME", str(tmp_path))
    rng = np.random.default_rng(0)
    source = {k: rng.standard_normal(v.shape).astype(np.float32)
              for k, v in models.squeezenet1_1().state_dict().items()}
    folder = tmp_path / "hapi" / "weights"
    folder.mkdir(parents=True)
    padax.save(source, str(folder / "SqueezeNet1_1_pretrained.pdparams"), format="paddle")
    model = models.squeezenet1_1(pretrained=True)
    assert list(model.state_dict()) == list(source)
    for k, v in model.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), source[k], err_msg=k)


def test_weights_that_do_not_fit_list_the_wrong_keys_and_shapes(zero_initialized):
    model = models.LeNet()
    state = {k: v.numpy() for k, v in model.state_dict().items()}
    state["fc.0.weight"] = np.zeros((3, 3), np.float32)
    state["head.weight"] = np.zeros(2, np.float32)
    del state["fc.2.bias"]
    with pytest.raises(ValueError) as e:
        model.set_state_dict(state)
    assert "fc.0.weight: expected shape [400, 120], received [3, 3]" in str(e.value)
    state["fc.0.weight"] = np.zeros((400, 120), np.float32)
    with pytest.raises(ValueError) as e:
        model.set_state_dict(state)
    assert "missing keys (1): ['fc.2.bias']" in str(e.value) and "unexpected keys (1): ['head.weight']" in str(e.value)
