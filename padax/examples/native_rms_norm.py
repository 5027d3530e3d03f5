"""An RMS-norm kernel in C++, with its gradient, called from jitted, vmapped, differentiated padax code:
`python -m padax.examples.native_rms_norm`.

Two routes to the same kernel (sources in padax/examples/native/):

* `padax.ffi`: `rms_norm_ffi.cc` is written against XLA's FFI header and compiled here with g++; its
  two handlers (forward, backward) are registered as FFI targets and joined by `padax.custom_vjp`.
* `padax.utils.cpp_extension`: `rms_norm_op.cc` uses Paddle's custom-operator API (PD_BUILD_OP with a
  PD_BUILD_GRAD_OP); `load` compiles and caches it, and its op comes back differentiable.

Both are checked against the same computation in padax ops. See docs/native_code.md.
"""
from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

import numpy as np

import padax
import padax.ffi
from padax.utils import cpp_extension

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "native")
FFI_SOURCE = os.path.join(HERE, "rms_norm_ffi.cc")
OP_SOURCE = os.path.join(HERE, "rms_norm_op.cc")

_ffi_lib: Any = None  # the loaded library (kept alive while its handlers are registered)


def compile_ffi_kernels(out_dir: str) -> str:
    """Compile rms_norm_ffi.cc into `out_dir` with g++ (the padax.ffi route); returns the library's path."""
    lib = os.path.join(out_dir, "librms_norm_ffi.so")
    cmd = ["g++", "-O2", "-std=c++17", "-shared", "-fPIC", f"-I{padax.ffi.include_dir()}", FFI_SOURCE, "-o", lib]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return lib


def register_ffi_kernels(lib_path: str) -> None:
    """Load the library and register its handlers as the FFI targets 'rms_norm_fwd' and 'rms_norm_bwd'."""
    global _ffi_lib
    _ffi_lib = ctypes.cdll.LoadLibrary(lib_path)
    padax.ffi.register_ffi_target("rms_norm_fwd", padax.ffi.pycapsule(_ffi_lib.RmsNormForward), platform="cpu")
    padax.ffi.register_ffi_target("rms_norm_bwd", padax.ffi.pycapsule(_ffi_lib.RmsNormBackward), platform="cpu")


def _fwd_call(x, w, eps: float):
    rows = padax.ShapeDtypeStruct(tuple(x.shape[:-1]), x.dtype)
    y, rstd = padax.ffi.ffi_call("rms_norm_fwd", (padax.ShapeDtypeStruct(tuple(x.shape), x.dtype), rows),
                                 vmap_method="sequential")(x, w, eps=np.float32(eps))
    return y, rstd


def make_rms_norm_ffi(eps: float = 1e-6):
    """rms_norm(x, w) through padax.ffi, differentiable in x and w (custom_vjp over the backward kernel)."""
    @padax.custom_vjp
    def rms_norm(x, w):
        return _fwd_call(x, w, eps)[0]

    def fwd(x, w):
        y, rstd = _fwd_call(x, w, eps)
        return y, (x, w, rstd)

    def bwd(res, dy):
        x, w, rstd = res
        dx, dw = padax.ffi.ffi_call("rms_norm_bwd", (padax.ShapeDtypeStruct(tuple(x.shape), x.dtype),
                                                     padax.ShapeDtypeStruct(tuple(w.shape), w.dtype)),
                                    vmap_method="sequential")(x, w, rstd, dy)
        return dx, dw

    rms_norm.defvjp(fwd, bwd)
    return rms_norm


def load_rms_norm_op(build_directory: str | None = None, verbose: bool = False):
    """The Paddle-style op (cpp_extension.load of rms_norm_op.cc): module.rms_norm(x, w, epsilon) -> [out, rstd]."""
    return cpp_extension.load("padax_example_rms_norm", [OP_SOURCE], build_directory=build_directory,
                              verbose=verbose)


def rms_norm_reference(x, w, eps: float = 1e-6):
    """The same computation in padax ops."""
    return x * padax.rsqrt(padax.mean(x * x, axis=-1, keepdim=True) + eps) * w


def main() -> int:
    rng = np.random.default_rng(0)
    x = padax.to_tensor(rng.standard_normal((8, 16, 64)).astype(np.float32))
    w = padax.to_tensor(rng.standard_normal((64,)).astype(np.float32))
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        register_ffi_kernels(compile_ffi_kernels(d))
        print(f"padax.ffi: compiled and registered in {time.perf_counter() - t:.1f} s")
        t = time.perf_counter()
        ext = load_rms_norm_op()
        print(f"cpp_extension.load: {ext._padax_build} in {time.perf_counter() - t:.1f} s")
        routes = {"padax.ffi": make_rms_norm_ffi(1e-6),
                  "cpp_extension": lambda x, w: ext.rms_norm(x, w, 1e-6)[0],
                  "padax ops": rms_norm_reference}

        def loss(f):
            return lambda x, w: (f(x, w) ** 2).sum()

        ref_y = np.asarray(rms_norm_reference(x, w))
        ref_g = padax.jit(padax.vmap(padax.grad(loss(rms_norm_reference), argnums=(0, 1)), in_axes=(0, None)))(x, w)
        for name, f in routes.items():
            y = padax.jit(padax.vmap(f, in_axes=(0, None)))(x, w)
            g = padax.jit(padax.vmap(padax.grad(loss(f), argnums=(0, 1)), in_axes=(0, None)))(x, w)
            errs = [float(np.abs(np.asarray(a) - np.asarray(b)).max()) for a, b in zip(g, ref_g)]
            print(f"{name:14s} max |y - ref| {np.abs(np.asarray(y) - ref_y).max():.2e}   "
                  f"max |dx - ref| {errs[0]:.2e}   max |dw - ref| {errs[1]:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
