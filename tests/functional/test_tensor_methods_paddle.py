"""Paddle's Tensor methods that padax leaves out by design raise errors naming the functional form;
the ones it adds behave as Paddle's (values and dtypes are compared with Paddle in tests/paddle_parity)."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from padax.core.errors import ImmutableTensorError
from padax.functional.tensor_conversions import _INPLACE
from tests.conftest import paddle_oracle


def test_every_paddle_inplace_method_exists_and_only_grad__is_refused():
    paddle = paddle_oracle()
    paddle_inplace = {n for n in dir(paddle.Tensor) if n.endswith("_") and not n.startswith("_")}
    assert paddle_inplace <= set(_INPLACE), sorted(paddle_inplace - set(_INPLACE))
    x = padax.ones([2, 2])
    for name in sorted(paddle_inplace):
        assert callable(getattr(x, name)), name
    with pytest.raises(ImmutableTensorError, match=r"Tensor\.grad_\(\)"):
        x.grad_()
    assert x.add_(x) is x and x.tolist() == [[2.0, 2.0], [2.0, 2.0]]  # values: tests/state/test_inplace.py


def test_tape_methods_exist_on_plain_tensors():
    x = padax.ones([3])
    assert x.stop_gradient and x.grad is None and x.is_leaf
    x.backward()  # nothing needs a gradient: no effect (Paddle too)
    assert x.grad is None and x.gradient() is None
    x.requires_grad_()
    assert not x.stop_gradient and x.requires_grad
    (x * 2).sum().backward()
    assert x.gradient().tolist() == [2.0, 2.0, 2.0]
    x.stop_gradient = True
    assert x.grad is None and type(x) is padax.Tensor
    x.set_value(np.zeros(3))  # rebinds x (tests/state/test_inplace.py)
    assert x.tolist() == [0.0, 0.0, 0.0]


def test_out_arguments_write_into_out():
    x = padax.ones([3])
    for call, expected in ((lambda o: padax.add(x, x, out=o), [2.0] * 3), (lambda o: padax.exp(x, out=o), [np.e] * 3),
                           (lambda o: padax.zeros([3], out=o), [0.0] * 3)):
        o = padax.full([3], 7.0)
        assert call(o) is o
        np.testing.assert_allclose(o.numpy(), expected, rtol=1e-6)
    for call in (lambda o: padax.sum(x, out=o), lambda o: padax.linalg.norm(x, out=o),
                 lambda o: padax.prod(x, 0, False, None, o)):
        o = padax.zeros([])
        assert call(o) is o and o.shape == ()
    with pytest.raises(ValueError, match=r"out=.*shape"):
        padax.add(x, x, out=padax.zeros([2]))


def test_methods_work_on_tracers_too():
    def f(x):
        return x.double().sum() + x.permute(1, 0).float().mean() + x.repeat(2, 1).sum() + x.gt(0).long().sum()
    x = padax.to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_allclose(float(padax.jit(f)(x)), float(f(x)))
    with pytest.raises(ImmutableTensorError):
        padax.jit(lambda t: t.add_(1))(x)


@pytest.mark.parametrize("call,sym,kind", [
    (lambda t: t + ["a"], r"\+", "list"), (lambda t: t * "a", r"\*", "str"), (lambda t: t - None, "-", "NoneType"),
    (lambda t: None - t, "-", "NoneType"), (lambda t: t @ (1.0, 2.0), "@", "tuple"), (lambda t: t < None, "<", "NoneType"),
    (lambda t: t ** {"a": 1}, r"\*\*", "dict"),
])
def test_operators_refuse_non_array_operands_by_name(call, sym, kind):
    """Paddle refuses a list/str/None operand with a TypeError; padax's used to fall through to Python's
    own (str * Tensor reached Tensor.__index__: 'only integer scalar Tensors can be used as an index')."""
    t = padax.ones([2])
    for f in (call, lambda t: padax.jit(call)(t)):
        with pytest.raises(TypeError, match=rf"unsupported operand for {sym}: a Tensor f32\[2\] and a {kind}.*"
                                            r"test_tensor_methods_paddle.py"):
            f(t)
    # == and != keep Python's answer for such operands (membership tests and `x == None` stay usable)
    assert (t == None) is False and (t != "a") is True  # noqa: E711
    assert t + 1.0 is not None and (t + np.ones(2)).shape == (2,)
