"""Paddle's out= on the bitwise functions: refused like everywhere else (padax Tensors are immutable)."""
import pytest

import padax
from padax.core.errors import ImmutableTensorError


@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                                  "bitwise_right_shift"])
def test_binary_bitwise_refuses_out(name):
    x, y = padax.to_tensor([1, 6]), padax.to_tensor([3, 1])
    with pytest.raises(ImmutableTensorError, match=name):
        getattr(padax, name)(x, y, out=padax.to_tensor([0, 0]))
    assert getattr(padax, name)(x, y).shape == (2,)


def test_bitwise_not_refuses_out():
    with pytest.raises(ImmutableTensorError, match="bitwise_not"):
        padax.bitwise_not(padax.to_tensor([1]), out=padax.to_tensor([0]))
