"""Compiled twins of hot eager ops (padax/functional/_fast.py) and the jit cache key.

A twin runs a Paddle-level op compiled whole on jaxlib's C++ dispatcher when it is called
eagerly on Tensors. These tests check that the twin is invisible: bit-identical results to the
op's Python path, the same errors, no replay under transformations or after a setting changed
(x64, default dtype, debug_nans), and that every piece of state in jit's cache key recompiles.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import padax
from padax.functional import _fast
from padax.functional import indexing as I
from padax.functional import manipulation as S
from padax.functional import math as M
from padax.functional import reduction as R

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _same(a, b):
    """Same dtype, shape and bits."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.float64])
def test_twins_are_bit_identical_to_the_python_path(dtype):
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(16) * 3).astype(dtype)
    b = (rng.standard_normal(16) * 3 + 7).astype(dtype)
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    _same(padax.exp(x), padax.lax.exp(M._to_inexact(x)))
    _same(padax.add(x, y), M._add(x, y))
    _same(x + y, M._add(x, y))
    _same(x - y, M._subtract(x, y))
    _same(x * y, M._multiply(x, y))
    _same(x / y, M._true_divide(x, y))
    _same(x.sum(), R._sum(x))
    _same(x.reshape([4, 4]), S._reshape(x, (4, 4)))
    _same(x[3], I.getitem(x, (3,)))
    _same(x[-1], np.asarray(a[-1]))
    np.testing.assert_allclose(np.asarray(padax.exp(x)), np.exp(a.astype(np.asarray(padax.exp(x)).dtype)),
                               rtol=2e-3 if dtype == np.float16 else 1e-6)


def test_repeated_eager_calls_stay_in_cpp():
    x = padax.to_tensor(np.arange(16, dtype=np.float32))
    x.sum()
    twin = next(t for t in _fast.twins if t.name == "sum")
    jf = twin.call._padax_jit
    calls = []
    original = jf._call
    jf._call = lambda args, kwargs: calls.append(1) or original(args, kwargs)
    try:
        for _ in range(5):
            s = x.sum()
    finally:
        del jf._call
    assert float(s) == 120.0 and type(s) is padax.Tensor
    assert calls == []  # every call ran in C++


def test_twins_are_not_replayed_under_transformations():
    x = padax.to_tensor(np.linspace(-1, 1, 16).astype(np.float32))
    padax.exp(x), x.sum(), x.reshape([4, 4]), x[0]  # cached eagerly first

    def f(v):
        return (padax.exp(v) * v).sum() + v.reshape([4, 4])[1, 2] + v[0]
    g = padax.grad(f)(x)
    a = np.linspace(-1, 1, 16).astype(np.float32)
    expected = np.exp(a) * (1 + a)
    expected[6] += 1
    expected[0] += 1
    np.testing.assert_allclose(np.asarray(g), expected, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(padax.vmap(lambda r: padax.exp(r).sum())(x.reshape([4, 4]))),
                               np.exp(a).reshape(4, 4).sum(1), rtol=1e-6)
    np.testing.assert_allclose(float(padax.jit(f)(x)), float(f(x)), rtol=1e-6)
    # a Tensor closed over inside a transformation is a constant there, not a replayed program
    jaxpr = padax.make_jaxpr(lambda v: v + padax.exp(x))(x)
    assert "exp" in str(jaxpr)


def test_settings_that_change_the_program_recompile():
    xi = padax.to_tensor(np.arange(16, dtype=np.int32))
    assert xi.sum().dtype == np.int64  # Paddle: int32 sums to int64
    with padax.enable_x64(False):
        assert xi.sum().dtype == np.int32  # 32-bit-only mode
    assert xi.sum().dtype == np.int64
    assert padax.exp(xi).dtype == np.float32
    padax.set_default_dtype("float64")
    try:
        assert padax.exp(xi).dtype == np.float64
    finally:
        padax.set_default_dtype("float32")
    assert padax.exp(xi).dtype == np.float32


def test_errors_and_clamping_match_the_python_path():
    x = padax.to_tensor(np.arange(16, dtype=np.float32))
    with pytest.raises(ValueError, match="reshape"):
        x.reshape([5, 3])
    with pytest.raises(ValueError, match="reshape"):
        x.reshape([5, 3])  # (again: nothing half-cached)
    assert float(x[100]) == 15.0 and float(x[-100]) == 0.0  # out-of-range reads clamp, as jax does
    with pytest.raises(ValueError):
        padax.add(x, padax.to_tensor(np.ones(3, np.float32)))


def test_debug_nans_runs_the_python_path():
    x = padax.to_tensor(np.array([-1.0, 4.0], np.float32))
    padax.log(x)  # cached with the check off
    with padax.config.override("debug_nans", True):
        with pytest.raises(FloatingPointError):
            padax.log(x)


def test_clear_caches_forgets_twins():
    x = padax.to_tensor(np.arange(4, dtype=np.float32))
    padax.exp(x)
    padax.clear_caches()
    assert all(t.call == t._build_and_call for t in _fast.twins)
    np.testing.assert_allclose(np.asarray(padax.exp(x)), np.exp(np.arange(4, dtype=np.float32)), rtol=1e-6)


def test_device_and_sharding_are_in_the_cache_key():
    """Two CPU devices: a jitted function and an eager twin called with arguments on another device or
    with another sharding run there (a new entry each), never an entry compiled for the first layout."""
    code = """
import numpy as np
import padax
from padax.sharding import NamedSharding, P
d0, d1 = padax.devices()
f = padax.jit(lambda a: a * 2)
x0 = padax.device_put(np.arange(4, dtype=np.float32), d0)
x1 = padax.device_put(np.arange(4, dtype=np.float32), d1)
for _ in range(2):
    assert f(x0).device == d0 and f(x1).device == d1
    assert padax.exp(x0).device == d0 and padax.exp(x1).device == d1
    assert (x0 + x0).device == d0 and (x1 + x1).device == d1
mesh = padax.make_mesh((2,), ("i",))
xs = padax.device_put(np.arange(4, dtype=np.float32), NamedSharding(mesh, P("i")))
for _ in range(2):
    out = f(xs)
    assert out.sharding.is_equivalent_to(xs.sharding, 1), out.sharding
    np.testing.assert_array_equal(np.asarray(out), np.arange(4) * 2)
    np.testing.assert_allclose(np.asarray(padax.exp(xs)), np.exp(np.arange(4)), rtol=1e-6)
np.testing.assert_array_equal(np.asarray(f(x1)), np.arange(4) * 2)
print("ok")
"""
    env = dict(os.environ, PADAX_NUM_CPU_DEVICES="2")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                         cwd=_ROOT)
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr[-2000:]


def test_a_replaced_cpu_client_forgets_twins():
    code = """
import numpy as np
import padax
x = padax.to_tensor(np.arange(4, dtype=np.float32))
padax.exp(x), x.sum(), x + x
padax.config.update("num_cpu_devices", 2)  # replaces the CPU client: old programs are unusable
y = padax.to_tensor(np.arange(4, dtype=np.float32))
np.testing.assert_allclose(np.asarray(padax.exp(y)), np.exp(np.arange(4)), rtol=1e-6)
assert float(y.sum()) == 6.0 and float((y + y)[3]) == 6.0
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=_ROOT,
                         env={k: v for k, v in os.environ.items() if k != "PADAX_NUM_CPU_DEVICES"})
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr[-2000:]
