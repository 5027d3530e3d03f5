"""padax.nn.utils against Paddle: weight_norm, spectral_norm, parameters<->vector, gradient clipping."""
import numpy as np
import pytest

import padax
from padax import nn
from tests.conftest import paddle_oracle
from tests.nn.oracle import assert_same_run, copy_weights

RNG = np.random.default_rng(0)
X = RNG.standard_normal((4, 3)).astype(np.float32)


@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm_vs_paddle(dim):
    paddle = paddle_oracle()
    p = paddle.nn.utils.weight_norm(paddle.nn.Linear(3, 5), dim=dim)
    m = nn.utils.weight_norm(nn.Linear(3, 5), dim=dim)
    assert list(m.state_dict()) == list(p.state_dict())
    copy_weights(m, p)
    np.testing.assert_allclose(m.weight.numpy(), p.weight.numpy(), rtol=1e-5, atol=1e-6)
    assert_same_run(m, p, [X], params=["bias", "weight_g", "weight_v"])
    nn.utils.remove_weight_norm(m)
    paddle.nn.utils.remove_weight_norm(p)
    assert list(m.state_dict()) == list(p.state_dict()) == ["bias", "weight"]
    np.testing.assert_allclose(m.weight.numpy(), p.weight.numpy(), rtol=1e-5, atol=1e-6)


def test_spectral_norm_vs_paddle():
    paddle = paddle_oracle()
    paddle.seed(0)  # the power iteration's convergence speed depends on the weights' singular-value gap
    padax.seed(0)
    p = paddle.nn.utils.spectral_norm(paddle.nn.Linear(3, 5), n_power_iterations=2)
    m = nn.utils.spectral_norm(nn.Linear(3, 5), n_power_iterations=2)
    assert list(m.state_dict()) == list(p.state_dict()) == ["bias", "weight_orig", "weight_u", "weight_v"]
    copy_weights(m, p)
    after = assert_same_run(m, p, [X], params=["bias", "weight_orig"])
    np.testing.assert_allclose(after.weight_u.numpy(), p.weight_u.numpy(), rtol=1e-5, atol=1e-6)
    # power iteration converges to the largest singular value
    for _ in range(30):
        m(padax.to_tensor(X))
    np.testing.assert_allclose(np.linalg.svd(m.weight.numpy())[1][0], 1.0, rtol=1e-4)
    m.eval()
    u = m.weight_u.numpy()
    m(padax.to_tensor(X))
    np.testing.assert_array_equal(m.weight_u.numpy(), u)  # no update in eval mode


def test_parameters_to_vector_and_back():
    paddle = paddle_oracle()
    p = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.Linear(4, 2))
    m = copy_weights(nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2)), p)
    vec = nn.utils.parameters_to_vector(m.parameters())
    np.testing.assert_array_equal(vec.numpy(), paddle.nn.utils.parameters_to_vector(p.parameters()).numpy())
    parts = nn.utils.vector_to_parameters(vec * 2, m.parameters())
    np.testing.assert_array_equal(parts[2].numpy(), 2 * m[1].weight.numpy())
    nn.utils.vector_to_parameters(vec * 0, m)
    assert float(abs(nn.utils.parameters_to_vector(m)).sum()) == 0
    with pytest.raises(ValueError, match="elements"):
        nn.utils.vector_to_parameters(vec[:3], m)


def test_clip_grad_norm_and_value():
    grads = {"a": padax.to_tensor(np.array([3.0, 4.0], np.float32)), "b": padax.to_tensor(np.array([12.0], np.float32)),
             "frozen": None}
    clipped, total = nn.utils.clip_grad_norm_(grads, 6.5)
    assert float(total) == pytest.approx(13.0)
    np.testing.assert_allclose(clipped["a"].numpy(), np.array([3.0, 4.0]) * 6.5 / (13 + 1e-6), rtol=1e-6)
    assert clipped["frozen"] is None
    same, _ = nn.utils.clip_grad_norm_(grads, 100.0)
    np.testing.assert_allclose(same["b"].numpy(), [12.0])
    _, inf_total = nn.utils.clip_grad_norm_(grads, 1.0, norm_type=float("inf"))
    assert float(inf_total) == 12.0
    jitted = padax.jit(lambda g: nn.utils.clip_grad_norm_(g, 6.5))(grads)
    np.testing.assert_allclose(jitted[0]["b"].numpy(), clipped["b"].numpy(), rtol=1e-6)
    v = nn.utils.clip_grad_value_(grads, 3.5)
    np.testing.assert_array_equal(v["a"].numpy(), [3.0, 3.5])
    with pytest.raises(RuntimeError, match="non-finite"):
        nn.utils.clip_grad_norm_({"a": padax.to_tensor([np.inf])}, 1.0, error_if_nonfinite=True)
