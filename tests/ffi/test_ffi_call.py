"""padax.ffi: native typed-FFI kernels called eagerly, in jit, under vmap, grad (custom_vjp) and control flow."""
from __future__ import annotations

import os

import numpy as np
import pytest

import padax
import padax.ffi
from padax.examples import native_rms_norm as ex
from tests.conftest import assert_close


def _np_rms(x, w, eps=1e-6):
    return (x / np.sqrt((x.astype(np.float64) ** 2).mean(-1, keepdims=True) + eps) * w).astype(x.dtype)


@pytest.fixture
def xw():
    rng = np.random.default_rng(1)
    return rng.standard_normal((3, 5, 8)).astype(np.float32), rng.standard_normal(8).astype(np.float32)


def test_include_dir_has_the_ffi_header():
    assert os.path.isfile(os.path.join(padax.ffi.include_dir(), "xla", "ffi", "api", "ffi.h"))


def test_rms_norm_values_eager_jit_vmap(ffi_lib, xw):
    x, w = xw
    f = ex.make_rms_norm_ffi(1e-6)
    X, W = padax.to_tensor(x), padax.to_tensor(w)
    ref = _np_rms(x, w)
    assert_close(f(X, W), ref, rtol=1e-5, atol=1e-5)
    assert_close(padax.jit(f)(X, W), ref, rtol=1e-5, atol=1e-5)
    assert_close(padax.vmap(f, in_axes=(0, None))(X, W), ref, rtol=1e-5, atol=1e-5)
    # same numbers as the computation in padax ops
    assert_close(padax.jit(f)(X, W), ex.rms_norm_reference(X, W), rtol=1e-5, atol=1e-5)


def test_rms_norm_gradients_match_padax_ops(ffi_lib, xw):
    x, w = xw
    X, W = padax.to_tensor(x), padax.to_tensor(w)
    f = ex.make_rms_norm_ffi(1e-6)

    def loss(fn):
        return lambda x, w: (fn(x, w) * padax.sin(x)).sum()

    want = padax.grad(loss(ex.rms_norm_reference), argnums=(0, 1))(X, W)
    for got in (padax.grad(loss(f), argnums=(0, 1))(X, W),
                padax.jit(padax.grad(loss(f), argnums=(0, 1)))(X, W)):
        for g, r in zip(got, want):
            assert_close(g, r, rtol=2e-5, atol=2e-5)
    per = padax.jit(padax.vmap(padax.grad(loss(f), argnums=(0, 1)), in_axes=(0, None)))(X, W)
    ref = padax.vmap(padax.grad(loss(ex.rms_norm_reference), argnums=(0, 1)), in_axes=(0, None))(X, W)
    for g, r in zip(per, ref):
        assert_close(g, r, rtol=2e-5, atol=2e-5)


def _axpy(method):
    return lambda x, y: padax.ffi.ffi_call("test_axpy", padax.ShapeDtypeStruct(tuple(x.shape), x.dtype),
                                           vmap_method=method)(x, y, scale=np.float32(2.0))


@pytest.mark.parametrize("method", ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all"])
def test_vmap_methods(ffi_lib, method):
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    y = np.ones(3, np.float32) * 0.5
    f = _axpy(method)
    if method == "expand_dims":  # the kernel sees y as [1, 3] with x [4, 3]: element counts differ
        with pytest.raises(Exception, match="same number of elements"):
            padax.vmap(f, in_axes=(0, None))(x, y)
        out = padax.vmap(f)(x, np.broadcast_to(y, (4, 3)).copy())
    else:
        out = padax.jit(padax.vmap(f, in_axes=(0, None)))(x, y)
    assert_close(out, 2 * x + y)


def test_vmap_method_says_how_the_kernel_sees_the_batch(ffi_lib):
    x = np.zeros((4, 3), np.float32)

    def echo(method):
        return lambda v: padax.ffi.ffi_call("test_echo", padax.ShapeDtypeStruct((5,), np.float64),
                                            vmap_method=method)(v, i=1, f=0.5, b=True, s="ab", arr=np.arange(3))
    # x.dims[0] as the kernel saw it: one call over the whole batch, or per-element calls on [3]
    assert np.asarray(padax.vmap(echo("broadcast_all"))(x))[0, 4] == 4.0
    assert np.asarray(padax.vmap(echo("sequential"))(x))[:, 4].tolist() == [3.0] * 4


def test_vmap_without_a_method_is_an_error(ffi_lib):
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(ValueError, match="test_axpy.*vmap_method"):
        padax.vmap(_axpy(None))(x, x)
    with pytest.raises(ValueError, match="vmap_method must be one of"):
        padax.ffi.ffi_call("test_axpy", padax.ShapeDtypeStruct((3,), np.float32), vmap_method="loop")


def test_attributes_reach_the_kernel(ffi_lib):
    x = padax.to_tensor(np.zeros((7,), np.float32))
    call = padax.ffi.ffi_call("test_echo", padax.ShapeDtypeStruct((5,), np.float64))
    want = [-3.0, 2.25, 1.0, 3 + 10 + 20, 7.0]
    attrs = dict(i=-3, f=2.25, b=True, s="abc", arr=np.array([10, 20], np.int64))
    for fn in (call, padax.jit(lambda v: call(v, **attrs))):
        out = fn(x, **attrs) if fn is call else fn(x)
        assert np.asarray(out).tolist() == want
    assert np.asarray(call(x, i=0, f=0.0, b=False, s="", arr=np.zeros(0, np.int64)))[:4].tolist() == [0, 0, 0, 0]


def test_in_control_flow(ffi_lib):
    x = np.arange(3, dtype=np.float32)
    y = np.ones(3, np.float32)
    f = _axpy("sequential")
    loop = padax.jit(lambda x: padax.lax.fori_loop(0, 3, lambda i, c: f(c, padax.to_tensor(y)), x))
    assert_close(loop(x), ((x * 2 + 1) * 2 + 1) * 2 + 1)
    branch = padax.jit(lambda p, x: padax.lax.cond(p, lambda v: f(v, v), lambda v: v, x))
    assert_close(branch(True, x), 3 * x)
    assert_close(branch(False, x), x)
    scanned = padax.lax.scan(lambda c, r: (c, f(r, r)), 0.0, np.stack([x, x + 1]))[1]
    assert_close(scanned, 3 * np.stack([x, x + 1]))


def test_input_output_aliases(ffi_lib):
    x = np.arange(4, dtype=np.float32)
    call = padax.ffi.ffi_call("test_add_one", padax.ShapeDtypeStruct((4,), np.float32), input_output_aliases={0: 0})
    assert_close(call(x), x + 1)
    assert_close(padax.jit(lambda v: call(v * 2))(x), 2 * x + 1)
    bad = padax.ffi.ffi_call("test_add_one", padax.ShapeDtypeStruct((5,), np.float32), input_output_aliases={0: 0})
    with pytest.raises(ValueError, match=r"test_add_one.*operand 0 \(float32\[4\]\).*f32\[5\]"):
        bad(x)


def test_unregistered_target_is_named(ffi_lib):
    call = padax.ffi.ffi_call("no_such_kernel", padax.ShapeDtypeStruct((2,), np.float32))
    x = np.zeros(2, np.float32)
    for fn in (call, padax.jit(call)):
        with pytest.raises(ValueError, match="no FFI target 'no_such_kernel' is registered.*register_ffi_target"):
            fn(x)


def test_no_derivative_without_a_rule(ffi_lib):
    f = _axpy("sequential")
    x = padax.to_tensor(np.ones(3, np.float32))
    with pytest.raises(TypeError, match="ffi_call\\('test_axpy'\\) is not differentiable.*custom_vjp"):
        padax.grad(lambda v: f(v, v).sum())(x)


def test_kernel_error_is_the_kernels(ffi_lib):
    call = padax.ffi.ffi_call("test_always_fails", padax.ShapeDtypeStruct((2,), np.float32))
    x = np.zeros(2, np.float32)
    for fn in (call, call, padax.jit(call), padax.jit(lambda v: call(v) * 2)) * 2:  # twice: the C++ fast path too
        with pytest.raises(padax.ffi.FfiKernelError, match="native kernel of FFI target 'test_always_fails' failed: "
                                                           ".*always_fails: the kernel refuses its input"):
            fn(x)
    # the process goes on
    assert_close(_axpy(None)(x, x), x)


def test_bad_arguments():
    with pytest.raises(ValueError, match="null function pointer"):
        padax.ffi.pycapsule(0)
    with pytest.raises(ValueError, match="unknown platform"):
        padax.ffi.register_ffi_target("x", object(), platform="tpu9")
    with pytest.raises(TypeError, match="result_shape_dtypes"):
        padax.ffi.ffi_call("x", 3)


def test_lowering_and_side_effects(ffi_lib):
    x = np.zeros(4, np.float32)

    def prog(side_effect):
        call = padax.ffi.ffi_call("test_add_one", padax.ShapeDtypeStruct((4,), np.float32),
                                  has_side_effect=side_effect)
        return padax.jit(lambda v: (call(v), v * 2)[1])

    text = prog(True).lower(x).as_text()
    assert "stablehlo.custom_call @test_add_one" in text and "api_version = 4" in text
    assert "has_side_effect = true" in text
    assert "has_side_effect = true" not in prog(False).lower(x).as_text()  # pure: XLA may drop it when unused
    attrs = padax.jit(lambda v: padax.ffi.ffi_call("test_echo", padax.ShapeDtypeStruct((5,), np.float64))(
        v, i=3, f=0.5, b=False, s="hi", arr=np.arange(2))).lower(x).as_text()
    assert "backend_config = {" in attrs and 'i = 3 : i64' in attrs and 's = "hi"' in attrs


def test_custom_jvp_rule(ffi_lib):
    axpy = _axpy("sequential")
    f = padax.custom_jvp(lambda x, y: axpy(x, y))
    f.defjvp(lambda primals, tangents: (f(*primals), 2.0 * tangents[0] + tangents[1]))
    x = padax.to_tensor(np.array([1.0, -2.0, 3.0], np.float32))
    y = padax.to_tensor(np.array([0.5, 0.5, 0.5], np.float32))
    out, t = padax.jvp(f, (x, y), (padax.ones([3]), padax.ones([3])))
    assert_close(out, 2 * np.asarray(x) + 0.5)
    assert_close(t, np.full(3, 3.0, np.float32))
    gx, gy = padax.jit(padax.grad(lambda a, b: (f(a, b) * a).sum(), argnums=(0, 1)))(x, y)
    assert_close(gx, 4 * np.asarray(x) + 0.5)
    assert_close(gy, np.asarray(x))
