"""padax.utils.cpp_extension: Paddle-style C++ ops (PD_BUILD_OP) compiled at run time and run as padax ops."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import padax
from padax.examples import native_rms_norm as ex
from padax.utils import cpp_extension
from tests.conftest import assert_close

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")


def _rms(x, w, eps):
    return (x / np.sqrt((x.astype(np.float64) ** 2).mean(-1, keepdims=True) + eps) * w).astype(x.dtype)


def test_tutorial_relu_values_and_grad(relu_ext):
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        x = rng.standard_normal((4, 6)).astype(dtype)
        X = padax.to_tensor(x)
        want = np.maximum(x, 0)
        assert_close(relu_ext.custom_relu(X), want)
        assert_close(padax.jit(relu_ext.custom_relu)(X), want)
        assert_close(padax.vmap(relu_ext.custom_relu)(X), want)
        c = padax.to_tensor(np.cos(x))
        g = padax.grad(lambda v: (relu_ext.custom_relu(v) * c).sum())(X)
        assert_close(g, (x > 0) * np.cos(x), rtol=1e-6, atol=1e-6)
        gj = padax.jit(padax.vmap(padax.grad(lambda v: (relu_ext.custom_relu(v) ** 2).sum())))(X)
        assert_close(gj, 2 * np.maximum(x, 0))
    # the same as padax's own relu, gradient included
    ref = padax.grad(lambda v: (padax.nn.functional.relu(v) * v).sum())(X)
    assert_close(padax.grad(lambda v: (relu_ext.custom_relu(v) * v).sum())(X), ref)


def test_rms_norm_op_against_padax_ops(rms_ext):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 3, 8)).astype(np.float32)
    w = rng.standard_normal(8).astype(np.float32)
    X, W = padax.to_tensor(x), padax.to_tensor(w)
    out, rstd = rms_ext.rms_norm(X, W, 1e-5)
    assert_close(out, _rms(x, w, 1e-5), rtol=1e-5, atol=1e-5)
    assert tuple(rstd.shape) == (2, 3)
    f = lambda x, w: rms_ext.rms_norm(x, w, epsilon=1e-5)[0]  # noqa: E731
    assert_close(padax.jit(padax.vmap(f, in_axes=(0, None)))(X, W), _rms(x, w, 1e-5), rtol=1e-5, atol=1e-5)
    ref = lambda x, w: ex.rms_norm_reference(x, w, 1e-5)  # noqa: E731
    loss = lambda fn: lambda x, w: (fn(x, w) * padax.sin(x)).sum()  # noqa: E731
    for got, want in zip(padax.jit(padax.grad(loss(f), argnums=(0, 1)))(X, W), padax.grad(loss(ref), argnums=(0, 1))(X, W)):
        assert_close(got, want, rtol=2e-5, atol=2e-5)


def test_attributes_of_every_type(relu_ext):
    x = padax.to_tensor(np.zeros(3, np.float32))
    out = relu_ext.echo_attrs(x, 1.5, 7, True, "hello world\n", [1, 2, 3], d=0.25)
    assert np.asarray(out).tolist() == [1.5, 7.0, 1.0, 112.0, 6.0, 0.25]
    jitted = padax.jit(lambda v: relu_ext.echo_attrs(v, scale=-2.0, n=0, flag=False, tag="", offsets=[], d=1e300))
    assert np.asarray(jitted(x)).tolist() == [-2.0, 0.0, 0.0, 0.0, 0.0, 1e300]


def test_bad_calls_name_the_op(relu_ext, rms_ext):
    x = padax.to_tensor(np.zeros((2, 4), np.float32))
    with pytest.raises(cpp_extension.OpError, match=r"op 'rms_norm'.*X=float32\[2, 4\], W=float32\[3\].*"
                                                    r"W must be a vector as long as X's last axis"):
        rms_ext.rms_norm(x, padax.to_tensor(np.zeros(3, np.float32)), 1e-5)
    with pytest.raises(cpp_extension.OpError, match="rms_norm.*missing attribute.*epsilon"):
        rms_ext.rms_norm(x, x[0])
    with pytest.raises(cpp_extension.OpError, match="attribute 'n' must be int"):
        relu_ext.echo_attrs(x, 1.0, 2.5, True, "", [], 0.0)
    with pytest.raises(cpp_extension.OpError, match="attribute 'epsilon' must be float.*mark the argument static"):
        padax.jit(rms_ext.rms_norm)(x, x[0], 1e-5)
    with pytest.raises(cpp_extension.OpError, match="no input or attribute 'y'"):
        relu_ext.custom_relu(x, y=1)
    with pytest.raises(cpp_extension.OpError, match="missing input"):
        relu_ext.custom_relu()
    # an input of a dtype the kernel does not dispatch on: the kernel's PD_THROW, as the kernel's error
    with pytest.raises(padax.ffi.FfiKernelError, match="custom_relu.*relu_cpu_forward_kernel.*int32"):
        relu_ext.custom_relu(padax.to_tensor(np.zeros(3, np.int32)))


def test_kernel_failures_are_the_kernels(relu_ext, rms_ext):
    x = padax.to_tensor(np.ones((2, 4), np.float32))
    w = padax.to_tensor(np.ones(4, np.float32))
    for fn in (lambda: rms_ext.rms_norm(x, w, -1.0), lambda: padax.jit(lambda a, b: rms_ext.rms_norm(a, b, -1.0))(x, w)):
        with pytest.raises(padax.ffi.FfiKernelError, match=r"op 'rms_norm' failed: Expected epsilon >= 0.*"
                                                          r"epsilon must be >= 0, got -1.*rms_norm_op.cc"):
            fn()
    with pytest.raises(padax.ffi.FfiKernelError, match="wrong_size.*4 elements.*said float32 with 3"):
        relu_ext.wrong_size(padax.to_tensor(np.zeros(3, np.float32)))
    assert_close(relu_ext.custom_relu(x), np.ones((2, 4), np.float32))  # the process goes on


def test_second_process_reuses_the_cached_build(relu_ext, ext_dir):
    lib = relu_ext.__file__
    mtime = os.stat(lib).st_mtime_ns
    code = textwrap.dedent(f"""
        import numpy as np, padax
        from padax.utils import cpp_extension
        m = cpp_extension.load("test_relu_ext", [{os.path.join(KERNELS, 'custom_relu.cc')!r},
                               {os.path.join(KERNELS, 'attr_ops.cc')!r}], extra_cxx_cflags=["-O1", "-w"],
                               build_directory={ext_dir!r})
        print(m._padax_build, m.__file__, np.asarray(m.custom_relu(padax.to_tensor([-1.0, 2.0]))).tolist())
    """)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["cached", lib, "[0.0,", "2.0]"]
    assert os.stat(lib).st_mtime_ns == mtime
    # a changed flag is another build
    assert cpp_extension._build.source_hash("a", [os.path.join(KERNELS, "custom_relu.cc")], ["-O1"]) != \
        cpp_extension._build.source_hash("a", [os.path.join(KERNELS, "custom_relu.cc")], ["-O2"])


def test_compile_error_shows_the_compiler_output(tmp_path, ext_dir):
    src = tmp_path / "broken.cc"
    src.write_text('#include "paddle/extension.h"\nthis is not C++;\n')
    with pytest.raises(cpp_extension.BuildError, match="(?s)load\\('broken_ext'\\).*broken.cc:2:1: error"):
        cpp_extension.load("broken_ext", [str(src)], build_directory=ext_dir)
    assert not [d for d in os.listdir(ext_dir) if d.startswith("broken_ext")]  # nothing half-built left
    with pytest.raises(FileNotFoundError):
        cpp_extension.load("missing_ext", [str(tmp_path / "nope.cc")], build_directory=ext_dir)


@pytest.mark.slow
def test_concurrent_builds_share_one_cache_entry(tmp_path):
    src = tmp_path / "ident.cc"
    src.write_text('#include "paddle/extension.h"\n'
                   'std::vector<paddle::Tensor> Id(const paddle::Tensor& x) { auto o = paddle::empty_like(x);'
                   ' std::memcpy(o.data(), x.data(), x.nbytes()); return {o}; }\n'
                   'PD_BUILD_OP(ident).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(Id));\n')
    cache = tmp_path / "cache"
    code = textwrap.dedent(f"""
        import padax
        from padax.utils import cpp_extension
        m = cpp_extension.load("ident_ext", [{str(src)!r}], build_directory={str(cache)!r})
        print(m._padax_build, padax.numpy.asarray(m.ident(padax.to_tensor([1.0, 2.0]))).tolist())
    """)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    procs = [subprocess.Popen([sys.executable, "-c", code], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(3)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-2000:] for o in outs]
    assert all(o[0].strip().endswith("[1.0, 2.0]") for o in outs)
    assert [d for d in os.listdir(cache) if d.startswith("ident_ext-")] and \
        not [d for d in os.listdir(cache) if d.startswith(".")]  # one entry, no temporary left


@pytest.mark.slow
def test_setup_builds_an_importable_package(tmp_path):
    import shutil
    shutil.copy(os.path.join(KERNELS, "custom_relu.cc"), tmp_path / "relu.cc")
    (tmp_path / "setup.py").write_text(textwrap.dedent("""
        from padax.utils.cpp_extension import CppExtension, setup
        setup(name="padax_relu_pkg", ext_modules=CppExtension(sources=["relu.cc"]))
    """))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root)
    r = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    code = "import padax, padax_relu_pkg as m; print(padax.numpy.asarray(m.custom_relu(padax.to_tensor([-1.0, 3.0]))).tolist())"
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip() == "[0.0, 3.0]"


def _has_gpu() -> bool:
    import shutil
    if shutil.which("nvcc") is None:
        return False
    try:
        return any(d.platform in ("gpu", "cuda") for d in padax.devices())
    except Exception:  # noqa: BLE001 (no GPU backend)
        return False


@pytest.mark.skipif(not _has_gpu(), reason="needs a GPU and nvcc")
def test_cuda_extension_runs_on_the_gpu(ext_dir):
    m = cpp_extension.load("test_scale_cuda", [os.path.join(KERNELS, "scale_cuda.cu")], build_directory=ext_dir)
    x = np.arange(1000, dtype=np.float32)
    assert_close(padax.jit(lambda v: m.scale_gpu(v, 3.0))(padax.to_tensor(x)), 3 * x)
