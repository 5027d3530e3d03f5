"""Session fixtures for tests/ffi: the test kernels are compiled once per session (g++), into a temporary
directory (padax.ffi route) and a temporary cpp_extension cache."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

import padax.ffi

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


@pytest.fixture(scope="session")
def ffi_lib(tmp_path_factory):
    """tests/ffi/kernels/test_ffi.cc and the example's rms_norm_ffi.cc, compiled and registered."""
    if shutil.which("g++") is None:
        pytest.skip("needs g++")
    import ctypes

    from padax.examples import native_rms_norm as ex

    d = tmp_path_factory.mktemp("ffi")
    lib = str(d / "libtest_ffi.so")
    subprocess.run(["g++", "-O1", "-std=c++17", "-shared", "-fPIC", "-w", f"-I{padax.ffi.include_dir()}",
                    os.path.join(KERNELS, "test_ffi.cc"), "-o", lib], check=True)
    cdll = ctypes.cdll.LoadLibrary(lib)
    padax.ffi.register_ffi_target("test_axpy", padax.ffi.pycapsule(cdll.Axpy))
    padax.ffi.register_ffi_target("test_echo", cdll.Echo)  # a ctypes function: wrapped for us
    padax.ffi.register_ffi_target("test_add_one", padax.ffi.pycapsule(cdll.AddOne), platform="cpu", api_version=1)
    padax.ffi.register_ffi_target("test_always_fails", padax.ffi.pycapsule(cdll.Fail))
    ex.register_ffi_kernels(ex.compile_ffi_kernels(str(d)))
    return cdll


@pytest.fixture(scope="session")
def ext_dir(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("needs g++")
    return str(tmp_path_factory.mktemp("cpp_extension_cache"))


@pytest.fixture(scope="session")
def relu_ext(ext_dir):
    """Paddle's tutorial relu op and the attribute-echo ops, one extension of two sources."""
    from padax.utils import cpp_extension
    return cpp_extension.load("test_relu_ext", [os.path.join(KERNELS, "custom_relu.cc"),
                                                os.path.join(KERNELS, "attr_ops.cc")],
                              extra_cxx_cflags=["-O1", "-w"], build_directory=ext_dir)


@pytest.fixture(scope="session")
def rms_ext(ext_dir):
    from padax.examples import native_rms_norm as ex
    return ex.load_rms_norm_op(build_directory=ext_dir)
