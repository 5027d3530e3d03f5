"""Derivatives (jvp, vjp, second order) and vmap of conv_general_dilated.

Cotangents of lhs and rhs are compared with jax.vjp of jax.lax.conv_general_dilated (oracle)
over strides, SAME/VALID/explicit/negative padding, dilations, feature and batch groups and
mixed layouts; check_grads verifies them numerically; vmap is checked against a loop.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax as jlax

import padax
import padax.lax as lax
from padax.test_util import check_grads
from padax.transforms.ad import jvp, vjp
from padax.transforms.batching import vmap

jax.config.update("jax_enable_x64", True)
PLATFORM = padax.default_device().platform
# float32: accelerators may run f32 convolutions with TF32 inputs by default
F32_TOL = 1e-4 if PLATFORM == "cpu" else 2e-2


def jax_call(f, *args):
    with jax.default_device(jax.devices(PLATFORM)[0]):
        return f(*(jnp.asarray(a) for a in args))


def npy(x):
    return np.asarray(x)


# lhs shape, rhs shape, keyword arguments (shared by padax and jax)
CASES = {
    "1d_nwc_same_stride": ((2, 9, 3), (3, 3, 4), dict(
        window_strides=(2,), padding="SAME", dimension_numbers=("NWC", "WIO", "NWC"))),
    "1d_valid": ((2, 3, 8), (4, 3, 2), dict(window_strides=(1,), padding="VALID")),
    "2d_explicit_pad_strides_rhs_dilation": ((2, 3, 7, 6), (4, 3, 3, 2), dict(
        window_strides=(2, 2), padding=((1, 2), (0, 1)), rhs_dilation=(2, 1))),
    "2d_lhs_dilation_nhwc": ((1, 5, 4, 2), (3, 3, 2, 4), dict(
        window_strides=(1, 1), padding=((2, 2), (1, 1)), lhs_dilation=(2, 2),
        dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    "2d_same_lower_stride": ((1, 2, 6, 5), (2, 2, 2, 4), dict(window_strides=(2, 3), padding="SAME_LOWER")),
    "2d_depthwise": ((2, 4, 6, 6), (8, 1, 3, 3), dict(window_strides=(1, 1), padding="SAME",
                                                      feature_group_count=4)),
    "2d_feature_groups_strided": ((1, 6, 5, 5), (4, 3, 2, 2), dict(
        window_strides=(2, 1), padding="VALID", feature_group_count=2)),
    "2d_feature_groups_nhwc": ((2, 5, 6, 4), (2, 3, 2, 4), dict(
        window_strides=(2, 1), padding="SAME", feature_group_count=2,
        dimension_numbers=("NHWC", "HWIO", "NCHW"))),
    "2d_batch_groups": ((4, 3, 5, 5), (6, 3, 2, 2), dict(window_strides=(1, 1), padding="VALID",
                                                         batch_group_count=2)),
    "2d_batch_groups_mixed_layout": ((2, 5, 3, 4), (2, 3, 3, 4), dict(
        window_strides=(1, 2), padding="VALID", batch_group_count=2,
        dimension_numbers=("NHCW", "HWIO", "NCWH"))),
    "2d_mixed_layouts": ((2, 5, 3, 6), (2, 3, 4, 3), dict(
        window_strides=(1, 1), padding="SAME", dimension_numbers=("NHCW", "HIOW", "NWHC"))),
    "2d_negative_padding": ((1, 1, 8, 8), (1, 1, 3, 3), dict(window_strides=(1, 1),
                                                              padding=((-1, 0), (0, -2)))),
    "3d_strides_dilation": ((1, 2, 5, 4, 4), (3, 2, 2, 3, 2), dict(
        window_strides=(1, 2, 1), padding="SAME", rhs_dilation=(2, 1, 1))),
}


def _fns(kw):
    return (lambda a, b: lax.conv_general_dilated(a, b, **kw),
            lambda a, b: jlax.conv_general_dilated(a, b, **kw))


@pytest.mark.parametrize("case", list(CASES))
def test_conv_vjp_jvp_match_jax(case):
    """Both cotangents and the jvp, each side under its own jit (one compile per side)."""
    ls, rs, kw = CASES[case]
    f, jf = _fns(kw)

    def derivs(x, w, ct, tx, tw):
        gx, gw = vjp(f, x, w)[1](ct)
        return gx, gw, jvp(f, (x, w), (tx, tw))[1]

    def jax_derivs(x, w, ct, tx, tw):
        gx, gw = jax.vjp(jf, x, w)[1](ct)
        return gx, gw, jax.jvp(jf, (x, w), (tx, tw))[1]

    rng = np.random.default_rng(0)
    r = lambda shape: rng.standard_normal(shape).astype(np.float32)  # XLA:CPU compiles f64 convs slowly
    x, w = r(ls), r(rs)
    args = (x, w, r(npy(f(x, w)).shape), r(ls), r(rs))
    got = padax.jit(derivs)(*args)
    expected = jax_call(jax.jit(jax_derivs), *args)
    for g, e, what in zip(got, expected, ("lhs cotangent", "rhs cotangent", "jvp")):
        np.testing.assert_allclose(npy(g), npy(e), rtol=F32_TOL, atol=F32_TOL, err_msg=what)


@pytest.mark.parametrize("case", ["1d_nwc_same_stride", "2d_explicit_pad_strides_rhs_dilation",
                                  "2d_feature_groups_nhwc", "2d_batch_groups"])
def test_conv_check_grads(case):
    ls, rs, kw = CASES[case]
    f, _ = _fns(kw)
    rng = np.random.default_rng(1)
    with padax.enable_x64():
        check_grads(f, (rng.standard_normal(ls), rng.standard_normal(rs)), order=1)


SECOND_ORDER = {
    "1d_valid": CASES["1d_valid"],
    "1d_feature_groups_strided": ((1, 4, 7), (4, 2, 3), dict(window_strides=(2,), padding="SAME",
                                                            feature_group_count=2)),
}


@pytest.mark.parametrize("case", list(SECOND_ORDER))
def test_conv_second_order(case):
    ls, rs, kw = SECOND_ORDER[case]
    f, _ = _fns(kw)
    rng = np.random.default_rng(2)
    with padax.enable_x64():
        check_grads(f, (rng.standard_normal(ls), rng.standard_normal(rs)), order=2)


def test_conv_grad_float32_and_preferred_element_type():
    """Cotangents come back in the operands' dtype even when the output is wider."""
    ls, rs, kw = CASES["2d_depthwise"]
    rng = np.random.default_rng(3)
    x, w = rng.standard_normal(ls).astype(np.float32), rng.standard_normal(rs).astype(np.float32)
    jf = lambda a, b: jlax.conv_general_dilated(a, b, **kw)
    with padax.enable_x64():
        f = lambda a, b: lax.conv_general_dilated(a, b, preferred_element_type=np.float64, **kw)

        out = f(x, w)
        assert npy(out).dtype == np.float64
        gx, gw = padax.jit(lambda a, b, c: vjp(f, a, b)[1](c))(x, w, np.ones(npy(out).shape))
    assert npy(gx).dtype == np.float32 and npy(gw).dtype == np.float32
    jgx, jgw = jax_call(jax.jit(lambda a, b: jax.vjp(jf, a, b)[1](jnp.ones(jf(a, b).shape, a.dtype))), x, w)
    np.testing.assert_allclose(npy(gx), npy(jgx), rtol=F32_TOL, atol=F32_TOL)
    np.testing.assert_allclose(npy(gw), npy(jgw), rtol=F32_TOL, atol=F32_TOL)


# ---- vmap ---------------------------------------------------------------------------------

B = 3
VMAP_AXES = [(0, None), (None, 0), (0, 0), (1, 2)]


def _batched(rng, shape, axis):
    if axis is None:
        return rng.standard_normal(shape).astype(np.float32)
    return rng.standard_normal(shape[:axis] + (B,) + shape[axis:]).astype(np.float32)


def _loop(f, args, axes):
    return np.stack([npy(f(*(a if ax is None else np.take(a, i, ax) for a, ax in zip(args, axes))))
                     for i in range(B)])


@pytest.mark.parametrize("case", ["1d_nwc_same_stride", "2d_depthwise", "2d_feature_groups_nhwc",
                                  "2d_batch_groups", "2d_batch_groups_mixed_layout"])
def test_conv_vmap(case):
    """Batched lhs (joins N), rhs (joins O), both (extra groups), at inner axes; under jit,
    and eagerly for one combination."""
    ls, rs, kw = CASES[case]
    f, _ = _fns(kw)
    rng = np.random.default_rng(4)
    batched = [(_batched(rng, ls, a), _batched(rng, rs, b)) for a, b in VMAP_AXES]
    outs = padax.jit(lambda bs: [vmap(f, in_axes=ax)(*b) for ax, b in zip(VMAP_AXES, bs)])(batched)
    tol = F32_TOL
    for k, (axes, args, out) in enumerate(zip(VMAP_AXES, batched, outs)):
        expected = _loop(f, args, axes)
        np.testing.assert_allclose(npy(out), expected, rtol=tol, atol=tol, err_msg=str(axes))
        if k == 2:
            np.testing.assert_allclose(npy(vmap(f, in_axes=axes)(*args)), expected, rtol=tol, atol=tol)


def test_vmap_of_vjp_per_example_gradients():
    """Per-example kernel gradients: vmap over lhs of the rhs cotangent, under jit."""
    ls, rs, kw = CASES["2d_feature_groups_strided"]
    f, jf = _fns(kw)
    rng = np.random.default_rng(5)
    w = rng.standard_normal(rs).astype(np.float32)
    xs = rng.standard_normal((B,) + ls).astype(np.float32)

    def per_example(x, b):
        out, f_vjp = vjp(lambda c: f(x, c), b)
        return f_vjp(out)[0]  # gradient of 0.5 * |out|^2

    got = npy(padax.jit(vmap(per_example, in_axes=(0, None)))(xs, w))
    expected = jax_call(jax.jit(jax.vmap(lambda x, b: jax.grad(lambda c: 0.5 * (jf(x, c) ** 2).sum())(b),
                                         in_axes=(0, None))), xs, w)
    np.testing.assert_allclose(got, npy(expected), rtol=F32_TOL, atol=F32_TOL)
