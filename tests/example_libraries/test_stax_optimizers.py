"""padax.example_libraries.stax / .optimizers against jax.example_libraries: same keys, same numbers."""
import numpy as np
import pytest

import padax
from padax.example_libraries import optimizers, stax

jax = pytest.importorskip("jax")
pytestmark = pytest.mark.usefixtures("jax_x32")  # (other modules turn jax x64 on)
jnp = jax.numpy
from jax.example_libraries import (
    optimizers as joptimizers,  # noqa: E402
    stax as jstax,  # noqa: E402
)

R = np.random.default_rng(0)


def _net(lib):
    return lib.serial(lib.Conv(4, (3, 3), padding="SAME"), lib.BatchNorm(), lib.Relu,
                      lib.MaxPool((2, 2), strides=(2, 2)), lib.Conv(6, (3, 3)), lib.Elu,
                      lib.AvgPool((2, 2), padding="SAME"), lib.Flatten,
                      lib.FanOut(2), lib.parallel(lib.Dense(5), lib.serial(lib.Dense(5), lib.Tanh)), lib.FanInSum,
                      lib.Dense(3), lib.LogSoftmax)


def _close(a, b, rtol=2e-5, atol=2e-6):
    for x, y in zip(padax.tree.leaves(a), jax.tree.leaves(b)):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=rtol, atol=atol)


def test_stax_network_init_and_apply_equal_jax():
    x = R.standard_normal((2, 10, 10, 3)).astype(np.float32)
    init, apply = _net(stax)
    jinit, japply = _net(jstax)
    shape, params = init(padax.random.key(0), (2, 10, 10, 3))
    jshape, jparams = jinit(jax.random.key(0), (2, 10, 10, 3))
    assert shape == jshape == (2, 3)
    assert padax.tree.structure(params).num_leaves == len(jax.tree.leaves(jparams))
    _close(params, jparams)
    _close(apply(params, padax.to_tensor(x)), japply(jparams, x), rtol=1e-4, atol=1e-5)
    # -1 (any batch) in the input shape, as jax's stax allows (jax's own shape arithmetic gives (0, 3) here)
    assert init(padax.random.key(0), (-1, 10, 10, 3))[0] == (-1, 3)


def test_stax_conv_transpose_dropout_and_concat():
    x = R.standard_normal((2, 5, 5, 3)).astype(np.float32)
    for lib in (stax, jstax):
        lib._probe = lib.serial(lib.ConvTranspose(4, (3, 3), strides=(2, 2), padding="SAME"),
                                lib.FanOut(2), lib.FanInConcat(-1), lib.Dropout(0.5))
    init, apply = stax._probe
    jinit, japply = jstax._probe
    shape, params = init(padax.random.key(1), x.shape)
    jshape, jparams = jinit(jax.random.key(1), x.shape)
    assert shape == jshape
    _close(apply(params, padax.to_tensor(x), rng=padax.random.key(2)), japply(jparams, x, rng=jax.random.key(2)),
           rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="needs a key"):
        apply(params, padax.to_tensor(x))


@pytest.mark.parametrize("name,args", [
    ("sgd", (0.1,)), ("momentum", (0.1, 0.9)), ("nesterov", (0.1, 0.9)), ("adagrad", (0.1,)),
    ("rmsprop", (0.01,)), ("rmsprop_momentum", (0.01,)), ("adam", (0.01,)), ("adamax", (0.01,)), ("sm3", (0.1,)),
])
def test_optimizers_follow_jax_step_by_step_under_jit(name, args):
    params = {"w": R.standard_normal((3, 4)).astype(np.float32), "b": R.standard_normal(4).astype(np.float32)}
    loss = lambda p, lib: ((p["w"] * 2 + p["b"]) ** 2).sum()
    init, update, get_params = getattr(optimizers, name)(*args)
    jinit, jupdate, jget = getattr(joptimizers, name)(*args)
    state = init({k: padax.to_tensor(v) for k, v in params.items()})
    jstate = jinit({k: jnp.asarray(v) for k, v in params.items()})
    step = padax.jit(lambda i, s: update(i, padax.grad(lambda p: loss(p, padax))(get_params(s)), s))
    jstep = lambda i, s: jupdate(i, jax.grad(lambda p: loss(p, jax))(jget(s)), s)
    jstep = jstep if name == "sm3" else jax.jit(jstep)  # (jax's sm3 keeps the shape as leaves: no jit there)
    for i in range(3):
        state, jstate = step(i, state), jstep(i, jstate)
    _close(get_params(state), jget(jstate), rtol=1e-5, atol=1e-6)


def test_schedules_clip_and_state_packing():
    for s, js in ((optimizers.exponential_decay(0.1, 10, 0.5), joptimizers.exponential_decay(0.1, 10, 0.5)),
                  (optimizers.inverse_time_decay(0.1, 10, 0.5, True), joptimizers.inverse_time_decay(0.1, 10, 0.5, True)),
                  (optimizers.polynomial_decay(0.1, 10, 0.01, 2.0), joptimizers.polynomial_decay(0.1, 10, 0.01, 2.0)),
                  (optimizers.piecewise_constant([3, 6], [1.0, 0.5, 0.1]),
                   joptimizers.piecewise_constant([3, 6], [1.0, 0.5, 0.1]))):
        for i in (0, 3, 5, 12):
            np.testing.assert_allclose(float(s(i)), float(js(i)), rtol=1e-6)
    g = {"a": np.array([3.0, 4.0], np.float32)}
    _close(optimizers.clip_grads({"a": padax.to_tensor(g["a"])}, 1.0), joptimizers.clip_grads(g, 1.0))
    init, update, get_params = optimizers.adam(0.1)
    state = init({"a": padax.ones([2])})
    again = optimizers.pack_optimizer_state(optimizers.unpack_optimizer_state(state))
    _close(get_params(again), get_params(state))
    with pytest.raises(TypeError, match="does not match the parameter tree"):
        update(0, {"b": padax.ones([2])}, state)
