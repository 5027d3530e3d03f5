"""Paddle's Tensor methods that padax leaves out by design raise errors naming the functional form;
the ones it adds behave as Paddle's (values and dtypes are compared with Paddle in tests/paddle_parity)."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from padax.core.errors import ImmutableTensorError, PadaxError
from padax.functional.tensor_conversions import _INPLACE, GradientTapeError
from tests.conftest import paddle_oracle


def test_every_paddle_inplace_method_is_refused_with_the_functional_form():
    paddle = paddle_oracle()
    paddle_inplace = {n for n in dir(paddle.Tensor) if n.endswith("_") and not n.startswith("_")}
    assert paddle_inplace <= set(_INPLACE), sorted(paddle_inplace - set(_INPLACE))
    x = padax.ones([2, 2])
    for name in sorted(paddle_inplace):
        with pytest.raises(ImmutableTensorError, match=rf"Tensor\.{name}\(\).*immutable.*Use the functional form instead: "):
            getattr(x, name)(1)
    with pytest.raises(TypeError, match=r"x = x\.add\(\.\.\.\)"):
        x.add_(x)
    with pytest.raises(TypeError, match=r"padax\.full_like\(x, value\)"):
        x.fill_(0.0)
    with pytest.raises(TypeError, match=r"padax\.zeros_like\(x\)"):
        x.zero_()
    with pytest.raises(TypeError, match=r"x = x\.at\[0\]\.set\(value\)"):
        x[0] = 1.0


def test_tape_methods_point_to_grad():
    x = padax.ones([3])
    for call in (lambda: x.backward(), lambda: x.clear_grad(), lambda: x.clear_gradient(),
                 lambda: x.register_hook(print), lambda: x.retain_grads(), lambda: x.gradient()):
        with pytest.raises(GradientTapeError, match=r"grads = padax\.grad\(loss_fn\)\(params\)"):
            call()
    with pytest.raises(GradientTapeError, match="no gradient tape"):
        x.grad  # noqa: B018
    assert not hasattr(x, "grad") and isinstance(GradientTapeError("m"), PadaxError)
    with pytest.raises(ImmutableTensorError, match=r"padax\.stop_gradient\(x\)"):
        x.stop_gradient = False
    with pytest.raises(ImmutableTensorError):
        x.set_value(np.zeros(3))


def test_out_arguments_are_refused():
    x = padax.ones([3])
    for call in (lambda: padax.add(x, x, out=x), lambda: padax.sum(x, out=x), lambda: padax.exp(x, out=x),
                 lambda: padax.zeros([2], out=x), lambda: padax.linalg.norm(x, out=x), lambda: padax.prod(x, 0, False,
                                                                                                         None, x)):
        with pytest.raises(ImmutableTensorError, match=r"use the returned Tensor"):
            call()


def test_methods_work_on_tracers_too():
    def f(x):
        return x.double().sum() + x.permute(1, 0).float().mean() + x.repeat(2, 1).sum() + x.gt(0).long().sum()
    x = padax.to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_allclose(float(padax.jit(f)(x)), float(f(x)))
    with pytest.raises(ImmutableTensorError):
        padax.jit(lambda t: t.add_(1))(x)
