"""jax.nn's lowercase functions and jax.nn.initializers in padax.nn, against jax (values and gradients)."""
import numpy as np
import pytest

import padax
from padax import nn

jax = pytest.importorskip("jax")
pytestmark = pytest.mark.usefixtures("jax_x32")  # (other modules turn jax x64 on)
jnp = jax.numpy

R = np.random.default_rng(0)
X = np.concatenate([R.standard_normal(20).astype(np.float32) * 3, np.array([-1.0, 0.0, 1.0, 0.5], np.float32)])
POS = np.abs(X) + 0.1

UNARY = ["celu", "elu", "gelu", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "identity", "leaky_relu",
         "log_sigmoid", "mish", "relu", "relu6", "selu", "sigmoid", "silu", "soft_sign", "softplus", "sparse_plus",
         "sparse_sigmoid", "squareplus", "swish", "tanh"]


@pytest.mark.parametrize("name", UNARY)
def test_unary_values_and_gradients_vs_jax(name):
    ours, theirs = getattr(nn, name), getattr(jax.nn, name)
    np.testing.assert_allclose(ours(padax.to_tensor(X)).numpy(), np.asarray(theirs(X)), rtol=2e-6, atol=2e-6)
    g = padax.grad(lambda x: ours(x).sum())(padax.to_tensor(X)).numpy()
    np.testing.assert_allclose(g, np.asarray(jax.grad(lambda x: theirs(x).sum())(X)), rtol=2e-5, atol=2e-6)


def test_parameterised_and_axis_functions_vs_jax():
    x2 = X[:24].reshape(4, 6)
    mask = R.random((4, 6)) > 0.3
    cases = [
        ("elu", (X,), {"alpha": 0.5}), ("celu", (X,), {"alpha": 2.0}), ("leaky_relu", (X, 0.2), {}),
        ("gelu", (X,), {"approximate": False}), ("squareplus", (X, 2.0), {}), ("glu", (x2,), {"axis": 1}),
        ("softmax", (x2,), {"axis": 0}), ("log_softmax", (x2,), {}), ("softmax", (x2,), {"where": mask}),
        ("logsumexp", (x2,), {"axis": 1}), ("logmeanexp", (x2,), {"axis": 0}), ("standardize", (x2,), {}),
        ("standardize", (x2,), {"axis": 0, "epsilon": 1e-3}), ("log1mexp", (POS,), {}),
    ]
    for name, args, kw in cases:
        got = getattr(nn, name)(*[padax.to_tensor(a) if isinstance(a, np.ndarray) else a for a in args],
                                **{k: padax.to_tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()})
        want = getattr(jax.nn, name)(*args, **kw)
        np.testing.assert_allclose(got.numpy(), np.asarray(want), rtol=2e-5, atol=2e-6, err_msg=f"{name} {kw}")
    g = padax.grad(lambda x: (nn.softmax(x, axis=1) * padax.to_tensor(x2)).sum())(padax.to_tensor(x2))
    gj = jax.grad(lambda x: (jax.nn.softmax(x, axis=1) * x2).sum())(x2)
    np.testing.assert_allclose(g.numpy(), np.asarray(gj), rtol=2e-5, atol=2e-6)


def test_one_hot_follows_jax_out_of_range_and_axis():
    ids = np.array([[0, 2], [5, -1]], np.int32)
    for kw in ({}, {"axis": 0}, {"axis": 1}, {"dtype": jnp.int32}):
        want = np.asarray(jax.nn.one_hot(ids, 3, **kw))
        got = nn.one_hot(padax.to_tensor(ids), 3, **{k: ("int32" if k == "dtype" else v) for k, v in kw.items()})
        np.testing.assert_array_equal(got.numpy(), want)
        assert got.numpy().dtype == want.dtype
    with pytest.raises(TypeError, match="num_classes must be a Python int"):
        nn.one_hot(padax.to_tensor(ids), 3.0)


def test_paddle_functional_defaults_are_unchanged():
    # Paddle's gelu is the exact form by default; the jax name is the tanh approximation
    x = padax.to_tensor(X)
    exact = nn.functional.gelu(x).numpy()
    np.testing.assert_allclose(exact, np.asarray(jax.nn.gelu(X, approximate=False)), rtol=2e-6, atol=2e-6)
    assert not np.allclose(exact, nn.gelu(x).numpy(), rtol=0, atol=1e-6)


@pytest.mark.parametrize("name,args", [
    ("glorot_uniform", ()), ("glorot_normal", ()), ("lecun_uniform", ()), ("lecun_normal", ()),
    ("he_uniform", ()), ("he_normal", ()), ("xavier_uniform", ()), ("kaiming_normal", ()),
    ("uniform", (0.5,)), ("normal", (2.0,)), ("truncated_normal", (1.5,)), ("orthogonal", (2.0,)),
    ("delta_orthogonal", ()), ("constant", (3.0,)),
])
def test_initializers_equal_jax_for_the_same_key(name, args):
    shape = (3, 4, 5) if name == "delta_orthogonal" else (4, 6)
    got = getattr(nn.initializers, name)(*args)(padax.random.key(7), shape)
    want = getattr(jax.nn.initializers, name)(*args)(jax.random.key(7), shape)
    np.testing.assert_allclose(got.numpy(), np.asarray(want), rtol=2e-5, atol=2e-6)
    assert got.numpy().dtype == np.float32


def test_variance_scaling_conv_fans_and_zeros_ones():
    shape = (3, 3, 4, 8)  # HWIO: the receptive field multiplies both fans
    for mode in ("fan_in", "fan_out", "fan_avg", "fan_geo_avg"):
        for dist in ("truncated_normal", "normal", "uniform"):
            got = nn.initializers.variance_scaling(2.0, mode, dist)(padax.random.key(1), shape)
            want = jax.nn.initializers.variance_scaling(2.0, mode, dist)(jax.random.key(1), shape)
            np.testing.assert_allclose(got.numpy(), np.asarray(want), rtol=2e-5, atol=2e-6)
    assert nn.initializers.zeros(padax.random.key(0), (2, 3)).numpy().sum() == 0
    assert nn.initializers.ones(padax.random.key(0), (2, 3), "float64").numpy().dtype == np.float64
    with pytest.raises(ValueError, match="mode must be one of"):
        nn.initializers.variance_scaling(1.0, "fan", "normal")
    with pytest.raises(ValueError, match="cannot compute the fans of a 1-D weight"):
        nn.initializers.glorot_uniform()(padax.random.key(0), (4,))
