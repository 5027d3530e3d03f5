"""Native kernels inside jit: the per-call cost of a C++ kernel called through XLA's FFI.

The kernel is the RMS norm of padax/examples/native (f32[16, 64] rows, a weight vector), small enough that
the call overhead shows:

* `ffi_rms_norm`: a jitted function calling the kernel through `padax.ffi.ffi_call`; jax calls the same
  compiled handler through `jax.ffi.ffi_call`. Baseline: the same RMS norm in plain padax ops, jitted.
* `cpp_extension_rms_norm`: the Paddle-style op (`cpp_extension.load`, PD_BUILD_OP) inside jit (its kernel
  copies its results into XLA's buffers). Baseline: the padax.ffi call.
* `callback_rms_norm`: the same computation in numpy through `pure_callback` (Python per call), padax and
  jax. Baseline: the padax.ffi call.

The kernels are compiled with g++ on first use (a temporary directory; cpp_extension's own cache).
"""
from __future__ import annotations

import functools
import shutil
import tempfile

import numpy as np

from benchmarks.harness import Unavailable, Workload

_RNG = np.random.default_rng(5)
_X = _RNG.standard_normal((16, 64)).astype(np.float32)
_W = _RNG.standard_normal((64,)).astype(np.float32)
_EPS = 1e-6


def _np_rms(x, w):
    return (x / np.sqrt((x * x).mean(-1, keepdims=True) + _EPS) * w).astype(np.float32)


@functools.lru_cache(maxsize=None)
def _ffi_library() -> str:
    if shutil.which("g++") is None:
        raise Unavailable("g++ is not installed")
    from padax.examples import native_rms_norm as ex
    lib = ex.compile_ffi_kernels(tempfile.mkdtemp(prefix="padax-bench-ffi-"))
    ex.register_ffi_kernels(lib)
    return lib


def _block(out):
    out.block_until_ready()
    return out


def padax_ffi():
    import padax
    from padax.examples import native_rms_norm as ex
    _ffi_library()
    f = padax.jit(ex.make_rms_norm_ffi(_EPS))
    x, w = padax.to_tensor(_X), padax.to_tensor(_W)
    np.testing.assert_allclose(np.asarray(f(x, w)), _np_rms(_X, _W), rtol=1e-5, atol=1e-5)
    return lambda: _block(f(x, w))


def padax_ops():
    import padax
    from padax.examples import native_rms_norm as ex
    f = padax.jit(lambda x, w: ex.rms_norm_reference(x, w, _EPS))
    x, w = padax.to_tensor(_X), padax.to_tensor(_W)
    return lambda: _block(f(x, w))


def jax_ffi():
    import ctypes

    import jax
    import jax.numpy as jnp
    lib = ctypes.cdll.LoadLibrary(_ffi_library())
    jax.ffi.register_ffi_target("bench_rms_norm_fwd", jax.ffi.pycapsule(lib.RmsNormForward), platform="cpu")
    call = jax.ffi.ffi_call("bench_rms_norm_fwd", (jax.ShapeDtypeStruct(_X.shape, jnp.float32),
                                                   jax.ShapeDtypeStruct(_X.shape[:-1], jnp.float32)))
    f = jax.jit(lambda x, w: call(x, w, eps=np.float32(_EPS))[0])
    x, w = jnp.asarray(_X), jnp.asarray(_W)
    np.testing.assert_allclose(np.asarray(f(x, w)), _np_rms(_X, _W), rtol=1e-5, atol=1e-5)
    return lambda: f(x, w).block_until_ready()


def padax_cpp_extension():
    import padax
    from padax.examples import native_rms_norm as ex
    if shutil.which("g++") is None:
        raise Unavailable("g++ is not installed")
    ext = ex.load_rms_norm_op()
    f = padax.jit(lambda x, w: ext.rms_norm(x, w, _EPS)[0])
    x, w = padax.to_tensor(_X), padax.to_tensor(_W)
    np.testing.assert_allclose(np.asarray(f(x, w)), _np_rms(_X, _W), rtol=1e-5, atol=1e-5)
    return lambda: _block(f(x, w))


def padax_callback():
    import padax
    f = padax.jit(lambda x, w: padax.pure_callback(_np_rms, padax.ShapeDtypeStruct(_X.shape, np.float32), x, w))
    x, w = padax.to_tensor(_X), padax.to_tensor(_W)
    return lambda: _block(f(x, w))


def jax_callback():
    import jax
    import jax.numpy as jnp
    f = jax.jit(lambda x, w: jax.pure_callback(_np_rms, jax.ShapeDtypeStruct(_X.shape, jnp.float32), x, w))
    x, w = jnp.asarray(_X), jnp.asarray(_W)
    return lambda: f(x, w).block_until_ready()


def workloads() -> list[Workload]:
    return [
        Workload("ffi_rms_norm", "jit: RMS norm f32[16,64] by a C++ kernel through padax.ffi / jax.ffi; "
                                 "baseline: the same in padax ops",
                 {"padax": padax_ffi, "jax": jax_ffi}, target=1.5, baseline=padax_ops),
        Workload("cpp_extension_rms_norm", "jit: the same kernel as a PD_BUILD_OP op (cpp_extension.load); "
                                           "baseline: the padax.ffi call",
                 {"padax": padax_cpp_extension}, baseline=padax_ffi),
        Workload("callback_rms_norm", "jit: the same RMS norm in numpy through pure_callback; "
                                      "baseline: the padax.ffi call",
                 {"padax": padax_callback, "jax": jax_callback}, baseline=padax_ffi),
    ]
