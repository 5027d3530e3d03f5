"""nn.functional / optimizer inputs that used to give an empty tensor, a plausible number or an
internal error: now a clear error naming the op, the argument and what is allowed."""
import numpy as np
import pytest

import padax
import padax.nn.functional as F


@pytest.mark.parametrize("call,err,words", [
    (lambda: F.conv2d(padax.ones([1, 1, 3, 3]), padax.ones([1, 1, 5, 5])), ValueError,
     ["conv2d", "kernel", "larger than the padded input", "size 3"]),
    (lambda: F.conv1d(padax.ones([1, 1, 4]), padax.ones([1, 1, 2]), dilation=4), ValueError,
     ["conv1d", "dilation 4", "spans 5"]),
    (lambda: F.conv3d(padax.ones([1, 1, 2, 2, 2]), padax.ones([1, 1, 3, 1, 1]), padding=0), ValueError,
     ["conv3d", "larger than the padded input"]),
    (lambda: F.conv2d(padax.ones([1, 1, 3, 3]), padax.ones([1, 1, 2, 2]), stride=0), ValueError,
     ["conv2d", "stride must be >= 1", "[0, 0]"]),
    (lambda: F.conv2d(padax.ones([1, 1, 3, 3]), padax.ones([1, 1, 2, 2]), dilation=[1, 0]), ValueError,
     ["conv2d", "dilation must be >= 1"]),
    (lambda: F.conv2d_transpose(padax.ones([1, 1, 3, 3]), padax.ones([1, 1, 2, 2]), stride=0), ValueError,
     ["conv2d_transpose", "stride must be >= 1"]),
    (lambda: F.conv1d(padax.ones([1, 1, 4]), padax.ones([1, 1, 2]), stride=1.5), TypeError,
     ["conv1d", "stride", "1.5"]),
    (lambda: F.max_pool2d(padax.ones([1, 1, 4, 4]), kernel_size=[2.5, 2]), TypeError,
     ["max_pool2d", "kernel_size", "2.5"]),
])
def test_conv_geometry_errors(call, err, words):
    with pytest.raises(err) as e:
        call()
    assert all(w in str(e.value) for w in words), str(e.value)


def test_conv_kernel_that_fits_after_padding_still_works():
    y = F.conv2d(padax.ones([1, 1, 3, 3]), padax.ones([1, 1, 5, 5]), padding=1)
    np.testing.assert_allclose(y.numpy(), [[[[9.0]]]])


@pytest.mark.parametrize("call,op,bad", [
    (lambda: F.cross_entropy(padax.ones([2, 3]), padax.to_tensor([0, 7])), "cross_entropy", 7),
    (lambda: F.cross_entropy(padax.ones([2, 3]), padax.to_tensor([[-1], [0]])), "cross_entropy", -1),
    (lambda: F.cross_entropy(padax.ones([2, 3]), padax.to_tensor([0, 3]), label_smoothing=0.1), "cross_entropy", 3),
    (lambda: F.cross_entropy(padax.ones([2, 3]), padax.to_tensor([0, 5]), ignore_index=4), "cross_entropy", 5),
    (lambda: F.nll_loss(padax.ones([2, 3]), padax.to_tensor([0, 3])), "nll_loss", 3),
    (lambda: F.softmax_with_cross_entropy(padax.ones([2, 3]), padax.to_tensor([[4], [0]])), "cross_entropy", 4),
    (lambda: F.one_hot(padax.to_tensor([0, 3]), 3), "one_hot", 3),
    (lambda: F.one_hot(padax.to_tensor([-2, 0]), 3), "one_hot", -2),
])
def test_class_labels_out_of_range_raise_in_eager_mode(call, op, bad):
    with pytest.raises(ValueError, match=rf"{op}: label {bad} at index .* out of range: class indices must be in "
                                         r"\[0, 3\)"):
        call()


def test_ignored_and_in_range_labels_still_give_the_loss():
    logits = np.array([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]], np.float32)
    loss = F.cross_entropy(padax.to_tensor(logits), padax.to_tensor([2, -100]), reduction="none")
    expect = -(logits[0, 2] - np.log(np.exp(logits[0]).sum()))
    np.testing.assert_allclose(loss.numpy().ravel(), [expect, 0.0], rtol=1e-6)
    # under jit the values are unknown while tracing: no check (documented), no error
    out = padax.jit(F.nll_loss)(padax.to_tensor(logits), padax.to_tensor([0, 1]))
    np.testing.assert_allclose(out.numpy(), -(logits[0, 0] + logits[1, 1]) / 2, rtol=1e-6)


@pytest.mark.parametrize("num_classes,err,words", [
    (-3, ValueError, ["one_hot", "num_classes", "non-negative", "-3"]),
    (2.5, TypeError, ["one_hot", "num_classes", "2.5"]),
])
def test_one_hot_bad_num_classes(num_classes, err, words):
    with pytest.raises(err) as e:
        F.one_hot(padax.to_tensor([0, 1]), num_classes)
    assert all(w in str(e.value) for w in words), str(e.value)


@pytest.mark.parametrize("make,err", [
    (lambda: padax.nn.ClipGradByGlobalNorm(clip_norm=-1.0), ValueError),
    (lambda: padax.nn.ClipGradByGlobalNorm(clip_norm=0.0), ValueError),
    (lambda: padax.nn.ClipGradByNorm(clip_norm=float("nan")), ValueError),
    (lambda: padax.nn.ClipGradByNorm(clip_norm="big"), TypeError),
    (lambda: padax.nn.ClipGradByValue(max=float("nan")), ValueError),
])
def test_gradient_clipping_refuses_norms_that_would_flip_or_poison_gradients(make, err):
    with pytest.raises(err, match=r"ClipGradBy\w+: (clip_norm|min and max)"):
        make()


def test_global_norm_clipping_still_rescales():
    g = {"a": padax.to_tensor([3.0, 0.0]), "b": padax.to_tensor([4.0])}
    out = padax.nn.ClipGradByGlobalNorm(clip_norm=1.0)(g)
    np.testing.assert_allclose(out["a"].numpy(), [0.6, 0.0], rtol=1e-6)
    np.testing.assert_allclose(out["b"].numpy(), [0.8], rtol=1e-6)


@pytest.mark.parametrize("opt", [padax.optimizer.SGD(0.1), padax.optimizer.Adam(0.1)], ids=["SGD", "Adam"])
def test_optimizers_refuse_integer_parameters_given_a_gradient(opt):
    params = {"b": padax.to_tensor([1.0, 2.0]), "w": padax.to_tensor([1, 2, 3])}
    state = opt.init(params)
    with pytest.raises(TypeError, match=rf"{type(opt).__name__}.step: parameter \['w'\] has dtype int64 .* "
                                        r"floating-point parameters only"):
        opt.step(params, {"b": padax.ones([2]), "w": padax.to_tensor([1, 1, 1])}, state)
    new, _ = opt.step(params, {"b": padax.ones([2]), "w": None}, state)  # None: left unchanged, as documented
    np.testing.assert_array_equal(new["w"].numpy(), [1, 2, 3])
    assert new["b"].numpy()[0] < 1.0
