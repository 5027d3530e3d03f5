"""padax.static.nn: Paddle-style cond / while_loop / switch_case adapters."""
import numpy as np
import pytest

import padax


def test_cond_eager_jit_and_grad():
    f = lambda x: padax.static.nn.cond(x > 2, lambda: x * x, lambda: -x)  # noqa: E731
    assert float(f(padax.to_tensor(3.0))) == 9.0
    assert float(padax.jit(f)(padax.to_tensor(1.0))) == -1.0
    assert float(padax.grad(f)(padax.to_tensor(3.0))) == 6.0
    with pytest.raises(TypeError, match="true_fn and false_fn"):
        padax.static.nn.cond(True, lambda: 1.0)


def test_while_loop_list_of_vars():
    i, s = padax.static.nn.while_loop(lambda i, s: i < 5, lambda i, s: [i + 1, s + i],
                                      [padax.to_tensor(0), padax.to_tensor(0)])
    assert int(i) == 5 and int(s) == 10
    with pytest.raises(TypeError, match="returned 1 values for 2"):
        padax.static.nn.while_loop(lambda i, s: i < 5, lambda i, s: [i + 1], [padax.to_tensor(0), padax.to_tensor(0)])


@pytest.mark.parametrize("index,expected", [(1, 3.0), (2, 30.0), (7, 0.0)])
def test_switch_case_with_keys_and_default(index, expected):
    x = padax.to_tensor(3.0)
    fns = {1: lambda: x, 2: lambda: x * 10}
    out = padax.jit(lambda i: padax.static.nn.switch_case(i, fns, default=lambda: x * 0))(padax.to_tensor(index))
    np.testing.assert_allclose(out.numpy(), expected)


def test_cond_takes_a_one_element_predicate():
    """Paddle's comparisons of one-element Tensors give shape [1]; cond accepts that predicate."""
    x = padax.to_tensor([3.0])
    f = lambda x: padax.static.nn.cond(x > 2, lambda: x * x, lambda: -x)  # noqa: E731
    np.testing.assert_allclose(f(x).numpy(), [9.0])
    np.testing.assert_allclose(padax.jit(f)(padax.to_tensor([1.0])).numpy(), [-1.0])
    np.testing.assert_allclose(padax.grad(lambda v: f(v).sum())(x).numpy(), [6.0])
    with pytest.raises(TypeError, match="scalar"):
        padax.static.nn.cond(padax.to_tensor([True, False]), lambda: 1.0, lambda: 0.0)
