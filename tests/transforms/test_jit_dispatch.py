"""jit's C++ dispatch: cached calls skip Python, and every setting that changes a program misses.

`padax.jit` returns jaxlib's C++ dispatcher; only a cache miss reaches padax's Python
(`_padax_jit._call`). These tests count those visits and check that a replayed entry never
serves a call it does not fit (trace context, x64, disable_jit, weak types, placement).
"""
import numpy as np
import pytest

import padax
import padax.lax as lax


def arr(*vals, dtype=np.float32):
    return padax.device_put(np.asarray(vals, dtype=dtype))


def counting(jf):
    """Count how often a jitted function's Python path runs."""
    inner = jf._padax_jit
    calls = []
    original = inner._call

    def spy(args, kwargs):
        calls.append(1)
        return original(args, kwargs)
    inner._call = spy
    return calls


def test_cached_calls_stay_in_cpp():
    f = padax.jit(lambda x, y: lax.add(lax.mul(x, y), 1.0))
    calls = counting(f)
    x, y = arr(1, 2, 3), arr(4, 5, 6)
    for _ in range(5):
        out = f(x, y)
    np.testing.assert_allclose(out.numpy(), [5, 11, 19])
    assert type(out) is padax.Tensor and out.aval.shape == (3,)
    assert len(calls) == 1
    f(arr(1, 2), arr(3, 4))  # new signature: Python once more
    assert len(calls) == 2


def test_pytrees_and_captured_constants_on_the_fast_path():
    c = arr(10, 20)
    f = padax.jit(lambda p: {"a": lax.add(p["w"], c), "b": (p["w"], None)})
    calls = counting(f)
    for _ in range(3):
        out = f({"w": arr(1, 2)})
    np.testing.assert_allclose(out["a"].numpy(), [11, 22])
    np.testing.assert_allclose(out["b"][0].numpy(), [1, 2])
    assert out["b"][1] is None and len(calls) == 1


def test_host_values_always_take_the_python_path():
    f = padax.jit(lambda x, s: x * s)
    calls = counting(f)
    for _ in range(3):
        out = f(np.array([1.0, 2.0], np.float32), 3.0)
    np.testing.assert_allclose(out.numpy(), [3, 6])
    assert len(calls) == 3  # numpy arrays and Python scalars are converted by padax, not by the C++


def test_inside_a_transformation_the_call_is_staged_not_replayed():
    f = padax.jit(lambda x: lax.mul(x, 2.0))
    c = arr(1.0, 2.0)
    f(c)
    f(c)  # cached at the top level
    jaxpr = padax.make_jaxpr(lambda x: lax.add(f(c), x))(c)
    assert "jit" in str(jaxpr)  # a jit equation, not a constant computed eagerly
    g = padax.grad(lambda x: lax.reduce_sum(lax.mul(f(c), x), (0,)))(c)
    np.testing.assert_allclose(g.numpy(), [2, 4])
    np.testing.assert_allclose(f(c).numpy(), [2, 4])  # and the top level still works


def test_disable_jit_after_caching_runs_python():
    seen = []

    def f(x):
        seen.append(type(x).__name__)
        return lax.neg(x)
    jf = padax.jit(f)
    x = arr(1.0)
    jf(x)
    jf(x)
    with padax.disable_jit():
        jf(x)
    assert len(seen) == 2 and seen[-1] == "Tensor"  # traced once, then run op by op
    jf(x)
    assert len(seen) == 2  # back on the cached program


def test_x64_switch_after_caching_recompiles():
    f = padax.jit(lambda x: x.astype("int64") + 1)
    x = arr(1, 2, dtype=np.int32)
    assert f(x).dtype == np.int64 and f(x).dtype == np.int64
    with padax.enable_x64(False):  # int64 is canonicalised in 32-bit-only mode
        assert f(x).dtype == np.int32
    assert f(x).dtype == np.int64


def test_weak_and_strong_arguments_get_separate_entries():
    import padax.numpy as pnp
    f = padax.jit(lambda a, b: pnp.add(a, b))  # jax's promotion: a strong 0-d int32 wins (Paddle's `+` keeps int8)
    b = arr(1, 2, dtype=np.int8)
    weak = padax.device_put(3)  # a Python int: weakly typed int32
    strong = padax.device_put(np.int32(3))
    assert weak.aval.weak_type and not strong.aval.weak_type
    for _ in range(2):
        assert f(strong, b).dtype == np.int32
        assert f(weak, b).dtype == np.int8
    np.testing.assert_array_equal(f(weak, b).numpy(), [4, 5])


def test_donation_on_the_fast_path():
    f = padax.jit(lambda x: lax.add(x, 1.0), donate_argnums=0)
    x = arr(1, 2, 3)
    y = f(x)
    z = f(y)  # replayed by the C++ dispatcher
    np.testing.assert_allclose(z.numpy(), [3, 4, 5])
    if y.is_deleted():  # passing a donated Tensor again is an error that says so
        with pytest.raises((RuntimeError, ValueError), match="donated"):
            f(y)


def test_static_arguments_on_the_fast_path():
    f = padax.jit(lambda x, n: lax.mul(x, float(n)), static_argnums=1)
    calls = counting(f)
    x = arr(1.0, 2.0)
    np.testing.assert_allclose(f(x, 2).numpy(), [2, 4])
    np.testing.assert_allclose(f(x, 2).numpy(), [2, 4])
    np.testing.assert_allclose(f(x, 3).numpy(), [3, 6])
    np.testing.assert_allclose(f(x, n=3).numpy(), [3, 6])
    assert len(calls) == 3  # (2), (3) positional, n=3 by keyword


def test_jitted_method_and_wrapper_metadata():
    def scale(x):
        """Doubles."""
        return lax.mul(x, 2.0)
    f = padax.jit(scale)
    assert f.__name__ == "scale" and f.__doc__ == "Doubles." and f.fun is scale
    assert "stablehlo.multiply" in f.lower(arr(1.0)).as_text()
    f(arr(1.0))
    assert f._cache_size() == 1
    f.clear_cache()
    assert f._cache_size() == 0
    np.testing.assert_allclose(f(arr(2.0)).numpy(), [4.0])


def test_eager_weak_constants_do_not_reuse_strong_signatures():
    # a strong int64 add compiled first must not be reused for two weak Python ints (their buffers carry the weak type)
    strong = lax.add(np.int64(1), np.int64(2))
    assert not strong.aval.weak_type
    weak = lax.add(1, 2)
    assert weak.aval.weak_type and weak.dtype == np.int64 and int(weak) == 3
    assert (padax.to_tensor([1, 2], dtype="int8") + weak).dtype == np.int8  # still weak downstream
