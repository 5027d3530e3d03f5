"""Weights move between Paddle and padax unchanged: a model built by paddle.vision (random weights and
batch-norm statistics, eval mode) is saved with paddle.save, loaded by padax.load + set_state_dict, and gives
the same logits; padax.save(format='paddle') read back by paddle.load gives them again."""
import numpy as np
import pytest

import padax
from padax.vision import models
from tests.conftest import paddle_oracle

slow = pytest.mark.slow
# (constructor, kwargs, input shape): one model per family in the fast set, small inputs where the net allows
CASES = [
    ("LeNet", {}, (2, 1, 28, 28)),
    ("alexnet", {"num_classes": 0}, (2, 3, 64, 64)),
    ("vgg11", {"batch_norm": True, "num_classes": 0}, (2, 3, 32, 32)),
    ("resnet18", {"num_classes": 10}, (2, 3, 32, 32)),
    ("mobilenet_v1", {"scale": 0.5, "num_classes": 10}, (2, 3, 32, 32)),
    ("mobilenet_v2", {"scale": 0.5, "num_classes": 10}, (2, 3, 32, 32)),
    ("mobilenet_v3_small", {"num_classes": 10}, (2, 3, 32, 32)),
    ("shufflenet_v2_x0_25", {"num_classes": 10}, (2, 3, 32, 32)),
    ("squeezenet1_1", {"num_classes": 10}, (2, 3, 64, 64)),
    ("googlenet", {"num_classes": 10}, (1, 3, 224, 224)),
    # the deepest graphs take 20 s each to compile on a 2-core machine: --runslow
    pytest.param("densenet121", {"num_classes": 10}, (1, 3, 32, 32), marks=slow),
    pytest.param("inception_v3", {"num_classes": 10}, (1, 3, 75, 75), marks=slow),
    pytest.param("alexnet", {}, (1, 3, 224, 224), marks=slow),
    pytest.param("vgg16", {"num_classes": 10}, (1, 3, 32, 32), marks=slow),
    pytest.param("vgg19", {"batch_norm": True, "num_classes": 10}, (1, 3, 32, 32), marks=slow),
    pytest.param("resnet50", {"num_classes": 10}, (1, 3, 64, 64), marks=slow),
    pytest.param("resnet152", {"num_classes": 10}, (1, 3, 32, 32), marks=slow),
    pytest.param("resnext50_32x4d", {"num_classes": 10}, (1, 3, 32, 32), marks=slow),
    pytest.param("wide_resnet50_2", {"num_classes": 10}, (1, 3, 32, 32), marks=slow),
    pytest.param("mobilenet_v3_large", {"num_classes": 10}, (1, 3, 32, 32), marks=slow),
    pytest.param("shufflenet_v2_swish", {"num_classes": 10}, (1, 3, 32, 32), marks=slow),
    pytest.param("squeezenet1_0", {"num_classes": 10}, (1, 3, 64, 64), marks=slow),
    pytest.param("densenet264", {"num_classes": 10}, (1, 3, 32, 32), marks=slow),
]


def _randomize_batch_norm_statistics(paddle, model, rng):
    """Non-trivial running statistics, so that a misplaced _mean/_variance changes the logits."""
    new = {}
    for k, v in model.state_dict().items():
        if k.endswith("_variance"):
            v = rng.uniform(0.5, 1.5, v.shape).astype("float32")
        elif k.endswith("_mean"):
            v = rng.normal(0, 0.1, v.shape).astype("float32")
        new[k] = v
    model.set_state_dict(new)


def _outputs(out):
    """The model's output(s) (GoogLeNet returns three) as numpy arrays."""
    return [o.numpy() for o in (out if isinstance(out, (tuple, list)) else [out])]


@pytest.fixture
def zero_initialized():
    """Build padax's side with constant initial weights (they are replaced by Paddle's), which skips
    compiling a random initializer per weight shape."""
    padax.nn.initializer.set_global_initializer(padax.nn.initializer.Constant(0.0),
                                                padax.nn.initializer.Constant(0.0))
    yield
    padax.nn.initializer.set_global_initializer(None, None)


@pytest.mark.parametrize("name,kwargs,shape", CASES)
def test_paddle_weights_give_the_same_logits_in_padax_and_back(tmp_path, zero_initialized, name, kwargs, shape):
    paddle = paddle_oracle()
    rng = np.random.default_rng(0)
    paddle.seed(0)
    reference = getattr(paddle.vision.models, name)(**kwargs)
    _randomize_batch_norm_statistics(paddle, reference, rng)
    reference.eval()
    x = rng.standard_normal(shape).astype(np.float32)
    expected = _outputs(reference(paddle.to_tensor(x)))
    paddle.save(reference.state_dict(), str(tmp_path / "paddle.pdparams"))

    model = getattr(models, name)(**kwargs)
    model.set_state_dict(padax.load(str(tmp_path / "paddle.pdparams")))
    model.eval()
    got = _outputs(padax.jit(lambda m, v: m(v))(model, padax.to_tensor(x)))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=2e-4, atol=2e-4 * max(1.0, float(np.abs(e).max())))

    padax.save(model.state_dict(), str(tmp_path / "padax.pdparams"), format="paddle")
    paddle.seed(1)  # different initial weights: the loaded file must replace them all
    back = getattr(paddle.vision.models, name)(**kwargs)
    back.set_state_dict(paddle.load(str(tmp_path / "padax.pdparams")))
    back.eval()
    for b, e in zip(_outputs(back(paddle.to_tensor(x))), expected):
        np.testing.assert_array_equal(b, e)
