"""A Tensor that a jitted function closes over, updated in place afterwards: the next call sees the new
value (the compiled programs holding its old buffer are dropped), as Paddle's dygraph code expects."""
import numpy as np
import pytest

import padax


def test_jit_sees_in_place_updates_of_a_closed_over_tensor():
    w = padax.ones([3])
    f = padax.jit(lambda x: x * w)
    x = padax.to_tensor([1.0, 2.0, 3.0])
    for _ in range(2):  # the second call runs on the C++ fast path
        np.testing.assert_array_equal(f(x).numpy(), [1.0, 2.0, 3.0])
    w.add_(1.0)
    np.testing.assert_array_equal(f(x).numpy(), [2.0, 4.0, 6.0])
    w[0] = 10.0
    np.testing.assert_array_equal(f(x).numpy(), [10.0, 4.0, 6.0])
    padax.assign(padax.full([3], 0.5), output=w)
    np.testing.assert_array_equal(f(x).numpy(), [0.5, 1.0, 1.5])


def test_an_in_place_change_of_type_retraces():
    w = padax.ones([3])
    f = padax.jit(lambda x: x * w)
    x = padax.to_tensor([1.0, 2.0, 3.0])
    f(x)
    w.reshape_([3, 1])
    assert f(x).shape == (3, 3)


def test_aot_compiled_reads_the_current_value_and_refuses_a_new_type():
    w = padax.ones([2])
    x = padax.to_tensor([2.0, 3.0])
    c = padax.jit(lambda x: x + w).lower(x).compile()
    np.testing.assert_array_equal(c(x).numpy(), [3.0, 4.0])
    w.fill_(5.0)
    np.testing.assert_array_equal(c(x).numpy(), [7.0, 8.0])
    w.reshape_([2, 1])
    with pytest.raises(TypeError, match=r"closes over was f32\[2\].*is f32\[2,1\] now"):
        c(x)


def test_other_jitted_functions_stay_correct_after_the_drop():
    a, b = padax.ones([2]), padax.full([2], 2.0)
    fa = padax.jit(lambda x: x * a)
    fb = padax.jit(lambda x: x * b)
    x = padax.to_tensor([1.0, 1.0])
    fa(x), fb(x)
    a.scale_(3.0)
    np.testing.assert_array_equal(fa(x).numpy(), [3.0, 3.0])
    np.testing.assert_array_equal(fb(x).numpy(), [2.0, 2.0])
