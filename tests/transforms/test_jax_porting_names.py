"""jax names that jax programs import (issue: porting round 2), checked against jax."""
import numpy as np
import pytest

import padax

jax = pytest.importorskip("jax")
pytestmark = pytest.mark.usefixtures("jax_x32")  # (other modules turn jax x64 on)
jnp = jax.numpy


def test_vjp_function_is_a_pytree_through_jit_and_make_jaxpr():
    f = lambda x: padax.sin(x) * x
    fj = lambda x: jnp.sin(x) * x
    x = np.array([1.0, 2.0, -0.5], np.float32)
    _, f_vjp = padax.vjp(f, padax.to_tensor(x))
    _, fj_vjp = jax.vjp(fj, x)
    ct = np.array([1.0, -2.0, 0.5], np.float32)
    want = np.asarray(fj_vjp(ct)[0])
    np.testing.assert_allclose(f_vjp(padax.to_tensor(ct))[0].numpy(), want, rtol=1e-6)
    # passed into jit, returned from jit, and traced by make_jaxpr, as jax's Partial
    np.testing.assert_allclose(padax.jit(lambda v, c: v(c))(f_vjp, padax.to_tensor(ct))[0].numpy(), want, rtol=1e-6)
    back = padax.jit(lambda a: padax.vjp(f, a)[1])(padax.to_tensor(x))
    np.testing.assert_allclose(back(padax.to_tensor(ct))[0].numpy(), want, rtol=1e-6)
    leaves = padax.tree.leaves(f_vjp)
    assert leaves and all(hasattr(leaf, "shape") for leaf in leaves)
    text = str(padax.make_jaxpr(lambda a: padax.vjp(f, a))(padax.to_tensor(x)))
    assert "cos" in text  # the residual cos(x) is an output of the traced program


def test_experimental_module_paths_and_conv_with_general_padding():
    from padax.experimental.jet import jet
    from padax.experimental.shard_map import shard_map
    assert jet is padax.jet and shard_map is padax.shard_map
    y, (t,) = jet(padax.sin, (padax.to_tensor(0.5),), ((padax.to_tensor(1.0),),))
    from jax.experimental.jet import jet as jet_jax
    yj, (tj,) = jet_jax(jnp.sin, (0.5,), ((1.0,),))
    np.testing.assert_allclose([float(y), float(t)], [float(yj), float(tj)], rtol=1e-6)
    r = np.random.default_rng(0)
    lhs = r.standard_normal((2, 3, 9, 8)).astype(np.float32)
    rhs = r.standard_normal((4, 3, 3, 2)).astype(np.float32)
    args = ((2, 1), [(1, 2), (0, 1)], (1, 2), (2, 1))
    got = padax.lax.conv_with_general_padding(padax.to_tensor(lhs), padax.to_tensor(rhs), *args)
    want = jax.lax.conv_with_general_padding(lhs, rhs, *args)
    np.testing.assert_allclose(got.numpy(), np.asarray(want), rtol=2e-5, atol=2e-5)


def test_named_scope_names_the_compiled_ops():
    def f(x):
        with padax.named_scope("block"):
            with padax.named_scope("attn"):
                y = padax.exp(x)
        return y * 2

    text = padax.jit(f).lower(padax.ones([3])).as_text(debug_info=True)
    assert "block/attn/exponential" in text or "block/attn/exp" in text
    assert "block/attn/mul" not in text  # the multiply is outside the scope
    assert "loc(" not in padax.jit(f).lower(padax.ones([3])).as_text()
    with pytest.raises(TypeError, match="named_scope: the name must be a str"):
        with padax.named_scope(3):
            pass


def test_jax_enable_x64_gives_jax_defaults():
    """jax's flag gives jax's x64 behaviour (float64 defaults); padax's own settings are restored."""
    before = (padax.config.enable_x64, padax.config.default_dtype)
    try:
        padax.config.update("jax_enable_x64", True)
        jax.config.update("jax_enable_x64", True)
        for ours, theirs in ((padax.numpy.asarray(1.0), jnp.asarray(1.0)), (padax.numpy.zeros(3), jnp.zeros(3)),
                             (padax.numpy.arange(3.0), jnp.arange(3.0)), (padax.numpy.arange(3), jnp.arange(3))):
            assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(np.asarray(padax.random.normal(padax.random.key(0), (4,))),
                                      np.asarray(jax.random.normal(jax.random.key(0), (4,))))
        padax.config.update("jax_enable_x64", False)
        assert padax.numpy.zeros(3).dtype == np.float32 and padax.numpy.arange(3).dtype == np.int32
    finally:
        padax.config.update("enable_x64", before[0])
        padax.config.update("default_dtype", before[1])
    assert padax.numpy.zeros(3).dtype == np.float32 and padax.to_tensor(1.0).dtype == padax.float32
