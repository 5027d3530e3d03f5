"""Every padax.vision model has Paddle's state_dict: the same keys, shapes and parameter count, checked against
the model built by paddle.vision (padax's side is built abstractly with eval_shape: no weights computed)."""
import numpy as np
import pytest

import padax
from padax.vision import models
from tests.conftest import paddle_oracle

CONSTRUCTORS = [
    ("LeNet", {}), ("alexnet", {}), ("vgg11", {}), ("vgg13", {"batch_norm": True}), ("vgg16", {}),
    ("vgg19", {"batch_norm": True}), ("resnet18", {}), ("resnet34", {}), ("resnet50", {}), ("resnet101", {}),
    ("resnet152", {}), ("resnext50_32x4d", {}), ("resnext50_64x4d", {}), ("resnext101_32x4d", {}),
    ("resnext101_64x4d", {}), ("resnext152_32x4d", {}), ("resnext152_64x4d", {}), ("wide_resnet50_2", {}),
    ("wide_resnet101_2", {}), ("mobilenet_v1", {}), ("mobilenet_v1", {"scale": 0.5}), ("mobilenet_v2", {}),
    ("mobilenet_v2", {"scale": 1.4}), ("mobilenet_v3_small", {}), ("mobilenet_v3_large", {"scale": 0.75}),
    ("shufflenet_v2_x0_25", {}), ("shufflenet_v2_x0_33", {}), ("shufflenet_v2_x0_5", {}),
    ("shufflenet_v2_x1_0", {}), ("shufflenet_v2_x1_5", {}), ("shufflenet_v2_x2_0", {}),
    ("shufflenet_v2_swish", {}), ("squeezenet1_0", {}), ("squeezenet1_1", {}), ("densenet121", {}),
    ("densenet161", {}), ("densenet169", {}), ("densenet201", {}), ("densenet264", {}), ("googlenet", {}),
    ("inception_v3", {}), ("resnet18", {"num_classes": 0, "with_pool": False}),
    ("mobilenet_v3_small", {"num_classes": 7}),
]
# parameter counts published for the ImageNet models (1000 classes)
PUBLISHED = {"resnet18": 11_689_512, "resnet50": 25_557_032, "resnet152": 60_192_808, "vgg16": 138_357_544,
             "alexnet": 61_100_840, "mobilenet_v2": 3_504_872, "densenet121": 7_978_856,
             "wide_resnet50_2": 68_883_240, "resnext50_32x4d": 25_028_904, "squeezenet1_1": 1_235_496}


def padax_layout(name, kwargs):
    """{key: shape} of the state_dict and the trainable parameter count, without computing any weight."""
    def build(key):
        with padax.nn.rng_scope(key):
            model = getattr(models, name)(**kwargs)
        trainable = [p for _, layer in model.named_sublayers(include_self=True)
                     for n, p in layer.named_parameters(include_sublayers=False) if layer.param_info(n).trainable]
        return dict(model.state_dict()), trainable
    state, params = padax.eval_shape(build, padax.random.key(0))
    return {k: tuple(v.shape) for k, v in state.items()}, sum(int(np.prod(p.shape)) for p in params)


def paddle_layout(name, kwargs):
    paddle = paddle_oracle()
    model = getattr(paddle.vision.models, name)(**kwargs)
    state = model.state_dict()
    count = sum(int(np.prod(p.shape)) for p in model.parameters() if not p.stop_gradient)
    return list(state), {k: tuple(v.shape) for k, v in state.items()}, count


# the big ones take seconds each (mostly Paddle initialising their weights): run with --runslow
SLOW = {"vgg13", "vgg16", "vgg19", "resnet101", "resnet152", "resnext101_32x4d", "resnext101_64x4d",
        "resnext152_32x4d", "resnext152_64x4d", "wide_resnet50_2", "wide_resnet101_2", "densenet161",
        "densenet169", "densenet201", "densenet264", "resnext50_64x4d", "shufflenet_v2_x2_0"}
CASES = [pytest.param(n, k, id=f"{n}{k or ''}", marks=[pytest.mark.slow] if n in SLOW else [])
         for n, k in CONSTRUCTORS]


@pytest.mark.parametrize("name,kwargs", CASES)
def test_state_dict_keys_shapes_and_parameter_count_equal_paddles(name, kwargs):
    shapes, count = padax_layout(name, kwargs)
    _, expected, expected_count = paddle_layout(name, kwargs)
    assert sorted(shapes) == sorted(expected)
    assert shapes == expected
    assert count == expected_count
    if name in PUBLISHED and not kwargs:
        assert count == PUBLISHED[name]


def test_state_dict_order_equals_paddles():
    paddle_keys, _, _ = paddle_layout("mobilenet_v3_small", {})
    def build(key):
        with padax.nn.rng_scope(key):
            return list(models.mobilenet_v3_small().state_dict())
    # the key list is static: read it from a traced build
    keys = []
    padax.eval_shape(lambda k: keys.extend(build(k)) or 0.0, padax.random.key(0))
    assert keys == paddle_keys


@pytest.mark.parametrize("call,message", [
    (lambda: models.ResNet(models.resnet.BasicBlock, depth=20), "[18, 34, 50, 101, 152]"),
    (lambda: models.DenseNet(layers=100), "[121, 161, 169, 201, 264]"),
    (lambda: models.ShuffleNetV2(scale=0.75), "[0.25, 0.33, 0.5, 1.0, 1.5, 2.0]"),
    (lambda: models.ShuffleNetV2(act="gelu"), "['relu', 'swish', None]"),
    (lambda: models.SqueezeNet("1.2"), "['1.0', '1.1']"),
])
def test_unknown_depth_or_variant_lists_the_valid_ones(call, message):
    with pytest.raises(ValueError) as e:
        call()
    assert message in str(e.value)


def test_every_paddle_model_name_exists():
    paddle = paddle_oracle()
    missing = [n for n in paddle.vision.models.__all__ if not hasattr(models, n)]
    assert not missing, f"padax.vision.models lacks {missing}"
