"""Paddle's out= on the bitwise functions: the result is written into `out` by rebinding it."""
import numpy as np
import pytest

import padax


@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                                  "bitwise_right_shift"])
def test_binary_bitwise_writes_out(name):
    x, y = padax.to_tensor([1, 6]), padax.to_tensor([3, 1])
    out = padax.to_tensor([0, 0])
    assert getattr(padax, name)(x, y, out=out) is out
    np.testing.assert_array_equal(out.numpy(), getattr(padax, name)(x, y).numpy())


def test_bitwise_not_writes_out():
    out = padax.to_tensor([0])
    assert padax.bitwise_not(padax.to_tensor([1]), out=out) is out
    assert out.tolist() == [-2]
