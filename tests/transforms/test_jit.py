"""jit: caching on tree/avals/static args, closures, nesting, donation, errors."""
import numpy as np
import pytest

import padax
import padax.lax as lax
from padax.core.errors import ConcretizationTypeError, UnexpectedTracerError


def arr(*vals, dtype=np.float32):
    return padax.device_put(np.asarray(vals, dtype=dtype))


def test_jit_value_and_cache_hits():
    calls = []

    def f(x, y):
        calls.append(1)
        return lax.add(lax.mul(x, y), 1.0)

    jf = padax.jit(f)
    x, y = arr(1, 2, 3), arr(4, 5, 6)
    np.testing.assert_allclose(jf(x, y).numpy(), [5, 11, 19])
    jf(y, x)
    assert len(calls) == 1  # same avals: traced once
    jf(arr(1, 2), arr(3, 4))
    assert len(calls) == 2  # new shape: retrace
    jf(arr(1, 2, 3, dtype=np.int32), arr(1, 2, 3, dtype=np.int32))
    assert len(calls) == 3  # new dtype: retrace
    assert jf._cache_size() == 3


def test_jit_cache_shared_by_function_identity():
    calls = []

    def f(x):
        calls.append(1)
        return lax.neg(x)

    padax.jit(f)(arr(1.0))
    padax.jit(f)(arr(2.0))
    assert len(calls) == 1


def test_jit_pytrees_in_and_out():
    @padax.jit
    def f(params, batch):
        return {"out": lax.add(params["w"], batch[0]), "pair": (batch[1], None)}

    params = {"w": arr(1, 2)}
    out = f(params, (arr(10, 20), arr(3, 4)))
    assert set(out) == {"out", "pair"} and out["pair"][1] is None
    np.testing.assert_allclose(out["out"].numpy(), [11, 22])
    np.testing.assert_allclose(out["pair"][0].numpy(), [3, 4])


def test_static_argnums_and_argnames():
    calls = []

    def f(x, n, *, mode="add"):
        calls.append((n, mode))
        y = x
        for _ in range(n):
            y = lax.add(y, x) if mode == "add" else lax.mul(y, x)
        return y

    jf = padax.jit(f, static_argnums=1, static_argnames="mode")
    x = arr(2, 3)
    np.testing.assert_allclose(jf(x, 2).numpy(), [6, 9])
    np.testing.assert_allclose(jf(x, 2, mode="mul").numpy(), [8, 27])
    np.testing.assert_allclose(jf(x, 3).numpy(), [8, 12])
    jf(x, 2)
    assert calls == [(2, "add"), (2, "mul"), (3, "add")]


def test_static_arg_must_be_hashable():
    jf = padax.jit(lambda x, shape: lax.reshape(x, shape), static_argnums=1)
    with pytest.raises(ValueError, match="hashable"):
        jf(arr(1, 2, 3, 4), [2, 2])
    assert jf(arr(1, 2, 3, 4), (2, 2)).shape == (2, 2)


def test_closure_constants_are_captured():
    w = arr(10, 20)
    c = np.array([1.0, 2.0], np.float32)
    f = padax.jit(lambda x: lax.add(lax.mul(x, w), c))
    np.testing.assert_allclose(f(arr(1, 1)).numpy(), [11, 22])
    jaxpr = padax.make_jaxpr(lambda x: lax.add(lax.mul(x, w), c))(arr(1, 1))
    assert len(jaxpr.consts) == 2


def test_nested_jit_stages_one_equation():
    inner = padax.jit(lambda x: lax.mul(x, x))
    outer = padax.jit(lambda x: lax.add(inner(x), 1.0))
    np.testing.assert_allclose(outer(arr(3.0)).numpy(), [10.0])
    jaxpr = padax.make_jaxpr(lambda x: lax.add(inner(x), 1.0))(arr(3.0))
    assert [e.primitive.name for e in jaxpr.eqns] == ["jit", "broadcast_in_dim", "add"]
    assert "mul" in str(jaxpr)


def test_python_scalars_and_numpy_args():
    f = padax.jit(lambda x, y: lax.add(x, y))
    np.testing.assert_allclose(f(np.float32(1.5), 2.0).numpy(), 3.5)
    np.testing.assert_allclose(f(np.ones(2, np.float32), np.ones(2, np.float32)).numpy(), [2, 2])


def test_disable_jit_runs_python():
    seen = []

    def f(x):
        seen.append(type(x).__name__)
        return lax.neg(x)

    with padax.disable_jit():
        padax.jit(f)(arr(1.0))
    assert seen == ["Tensor"]


def test_branching_on_tracer_says_what_to_do():
    def f(x):
        if lax.gt(lax.reduce_sum(x, (0,)), 0.0):  # needs a concrete value
            return x
        return lax.neg(x)

    with pytest.raises(ConcretizationTypeError) as e:
        padax.jit(f)(arr(1.0, 2.0))
    msg = str(e.value)
    assert "static_argnums" in msg and "padax.cond" in msg and "test_jit.py" in msg


def test_leaked_tracer_is_reported():
    leaked = []

    @padax.jit
    def f(x):
        leaked.append(x)
        return x

    f(arr(1.0))
    with pytest.raises(UnexpectedTracerError, match="^add: encountered a leaked tracer"):
        lax.add(leaked[0], arr(1.0))
    with pytest.raises(UnexpectedTracerError):
        padax.jit(lambda y: lax.add(y, leaked[0]))(arr(1.0))
    with pytest.raises(UnexpectedTracerError, match="^f: encountered a leaked tracer"):
        f(leaked[0])


def test_shape_error_names_op_shapes_and_user_line():
    with pytest.raises(TypeError) as e:
        padax.jit(lambda x, y: lax.add(x, y))(arr(1, 2), arr(1, 2, 3))
    msg = str(e.value)
    assert "add" in msg and "f32[2]" in msg and "f32[3]" in msg and "test_jit.py" in msg


def test_donate_argnums_consumes_the_input():
    f = padax.jit(lambda x: lax.add(x, 1.0), donate_argnums=0)
    x = arr(1, 2, 3)
    y = f(x)
    np.testing.assert_allclose(y.numpy(), [2, 3, 4])
    if x.is_deleted():  # XLA used the donation: reading the old buffer is a clear error
        with pytest.raises(RuntimeError, match="donated"):
            x.numpy()


def test_lower_shows_stablehlo():
    text = padax.jit(lambda x: lax.exp(x)).lower(arr(1.0, 2.0)).as_text()
    assert "stablehlo.exponential" in text and "tensor<2xf32>" in text


def test_eval_shape_and_shape_dtype_struct():
    out = padax.eval_shape(lambda x: {"y": lax.reduce_sum(x, (1,))},
                           padax.ShapeDtypeStruct((3, 4), np.float32))
    assert out["y"].shape == (3,) and out["y"].dtype == np.float32


def test_x64_toggle_recompiles(x64):
    f = padax.jit(lambda x: lax.add(x, x))
    y = f(np.arange(3, dtype=np.float64))
    assert y.dtype == np.float64
    np.testing.assert_allclose(y.numpy(), [0, 2, 4])


def test_x64_off_squashes_float64():
    assert padax.device_put(np.arange(3, dtype=np.float64)).dtype == np.float64
    with padax.enable_x64(False):
        y = padax.device_put(np.arange(3, dtype=np.float64))
        assert y.dtype == np.float32


def test_compilation_cache_dir(tmp_path):
    with padax.config.override("compilation_cache_dir", str(tmp_path)), \
            padax.config.override("compilation_cache_min_compile_time", 0.0):
        def g(x):
            return lax.sin(lax.add(x, 0.25))
        padax.jit(g)(arr(1.0, 2.0))
        files = list(tmp_path.glob("*.xla"))
        assert len(files) == 1 and files[0].stat().st_size > 0
        assert not list(tmp_path.glob("*.tmp"))

        def g2(x):  # a new function with the same program: loaded from disk, same value
            return lax.sin(lax.add(x, 0.25))
        np.testing.assert_allclose(padax.jit(g2)(arr(1.0, 2.0)).numpy(), np.sin([1.25, 2.25]), rtol=1e-6)
