"""Host callbacks: pure_callback (jit, vmap methods, control flow, custom_jvp gradient), io_callback order,
exceptions from the host function, result checks."""
import numpy as np
import pytest
import scipy.special

import padax
from padax import lax
from padax.callback import CallbackResultError
from padax.experimental import io_callback

S = padax.ShapeDtypeStruct


def host_sin(x):
    return np.sin(x)


@pytest.mark.parametrize("wrap", [lambda g: g, padax.jit], ids=["eager", "jit"])
def test_pure_callback_values(wrap):
    x = np.linspace(-2, 2, 5).astype(np.float32)
    out = wrap(lambda v: padax.pure_callback(host_sin, S(v.shape, v.dtype), v) * 2)(padax.to_tensor(x))
    np.testing.assert_allclose(out.numpy(), 2 * np.sin(x), rtol=1e-6)


def test_pure_callback_pytrees_and_kwargs():
    def host(a, scale):
        return {"s": a.sum() * scale, "d": (a * 2).astype(np.int32)}
    spec = {"s": S((), np.float32), "d": S((3,), np.int32)}
    out = padax.jit(lambda a: padax.pure_callback(host, spec, a, scale=np.float32(0.5)))(padax.arange(3.0))
    assert float(out["s"]) == 1.5 and out["d"].tolist() == [0, 2, 4] and out["d"].dtype == np.int32


@pytest.mark.parametrize("method", ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all"])
def test_pure_callback_vmap_methods(method):
    calls = []

    def host(x, y):
        calls.append((x.shape, y.shape))
        return (x * y + 1).astype(x.dtype)

    xs = np.arange(12, dtype=np.float32).reshape(4, 3)
    y = np.array([1.0, 2.0, 3.0], np.float32)
    f = lambda x, y: padax.pure_callback(host, S(x.shape, x.dtype), x, y, vmap_method=method)  # noqa: E731
    out = padax.jit(padax.vmap(f, in_axes=(0, None)))(padax.to_tensor(xs), padax.to_tensor(y))
    np.testing.assert_allclose(out.numpy(), xs * y + 1)
    expect = {"sequential": [((3,), (3,))] * 4, "sequential_unrolled": [((3,), (3,))] * 4,
              "expand_dims": [((4, 3), (1, 3))],
              "broadcast_all": [((4, 3), (4, 3))]}[method]
    assert calls == expect


def test_pure_callback_vmap_without_method_says_what_to_do():
    f = lambda x: padax.pure_callback(host_sin, S(x.shape, x.dtype), x)  # noqa: E731
    with pytest.raises(ValueError, match="vmap_method"):
        padax.vmap(f)(padax.ones([2, 3]))


def test_pure_callback_in_control_flow():
    def body(c, x):
        y = padax.pure_callback(lambda a, b: np.float32(a * 10 + b), S((), np.float32), c, x)
        return y, lax.cond(x > 1, lambda: y, lambda: -y)

    carry, ys = padax.jit(lambda xs: lax.scan(body, 0.0, xs))(padax.arange(3.0))
    np.testing.assert_allclose(ys.numpy(), [-0.0, -1.0, 12.0])
    assert float(carry) == 12.0
    w = padax.jit(lambda x: lax.while_loop(lambda c: c < 100,
                                           lambda c: padax.pure_callback(lambda v: v * 3, S((), np.int64), c), x))
    assert int(w(padax.to_tensor(1))) == 243


def _bessel_j0():
    """The docstring example of padax.callback: scipy's Bessel J0 with its derivative -J1."""
    @padax.custom_jvp
    def j0(x):
        return padax.pure_callback(lambda v: scipy.special.j0(v).astype(v.dtype), S(x.shape, x.dtype), x,
                                   vmap_method="expand_dims")

    @j0.defjvp
    def _(primals, tangents):
        (x,), (t,) = primals, tangents
        d = padax.pure_callback(lambda v: (-scipy.special.j1(v)).astype(v.dtype), S(x.shape, x.dtype), x,
                                vmap_method="expand_dims")
        return j0(x), d * t
    return j0


def test_pure_callback_custom_jvp_gradient_matches_scipy():
    j0 = _bessel_j0()
    x = np.linspace(0.1, 3.0, 6)
    g = padax.grad(lambda v: j0(v).sum())(padax.to_tensor(x))
    np.testing.assert_allclose(g.numpy(), -scipy.special.j1(x), rtol=1e-12)
    gj = padax.jit(padax.grad(lambda v: j0(v).sum()))(padax.to_tensor(x))
    np.testing.assert_allclose(gj.numpy(), -scipy.special.j1(x), rtol=1e-12)
    per = padax.vmap(padax.grad(lambda v: j0(v)))(padax.to_tensor(x))
    np.testing.assert_allclose(per.numpy(), -scipy.special.j1(x), rtol=1e-12)
    padax.test_util.check_grads(lambda v: j0(v), (padax.to_tensor(x),), order=1, modes=("fwd", "rev"))


def test_pure_callback_without_rule_is_not_differentiable():
    with pytest.raises(TypeError, match="custom_jvp"):
        padax.grad(lambda v: padax.pure_callback(host_sin, S((), np.float32), v))(padax.to_tensor(1.0))


def test_unused_pure_callback_is_dropped_and_io_callback_kept():
    calls = []

    def g(x):
        padax.pure_callback(lambda v: calls.append("pure") or v, S(x.shape, x.dtype), x)
        io_callback(lambda v: calls.append("io"), None, x)
        return x + 1
    padax.jit(g)(padax.ones([2]))
    assert calls == ["io"]


def test_io_callback_order():
    log = []

    def g(x):
        io_callback(lambda v: log.append(("first", float(v))), None, x, ordered=True)
        y = io_callback(lambda v: np.float32(v * 10), S((), np.float32), x, ordered=True)
        lax.fori_loop(0, 3, lambda i, c: (io_callback(lambda a, b: log.append(("loop", int(a), float(b))), None,
                                                      i, c, ordered=True), c)[1], y)
        io_callback(lambda v: log.append(("last", float(v))), None, y, ordered=True)
        return y

    jg = padax.jit(g)
    for v in (1.0, 2.0):
        log.clear()
        assert float(jg(padax.to_tensor(v))) == 10 * v
        assert log == [("first", v)] + [("loop", i, 10 * v) for i in range(3)] + [("last", 10 * v)]
    assert "!stablehlo.token" in jg.lower(padax.to_tensor(1.0)).as_text()


def test_io_callback_ordered_cannot_be_vmapped():
    with pytest.raises(ValueError, match="ordered"):
        padax.vmap(lambda v: io_callback(lambda a: None, None, v, ordered=True))(padax.ones([2]))


def test_callback_exception_reaches_the_user_with_its_traceback():
    def host_fails(v):
        raise KeyError("no such entry")

    f = padax.jit(lambda x: padax.pure_callback(host_fails, S((), np.float32), x))
    for _ in range(2):  # the second call is a cached executable: same behaviour
        with pytest.raises(KeyError, match="no such entry") as info:
            f(padax.to_tensor(1.0))
        assert any(tb.name == "host_fails" for tb in info.traceback)
    assert float(padax.jit(lambda x: x + 1)(padax.to_tensor(1.0))) == 2.0  # the process goes on


@pytest.mark.parametrize("result, received", [(np.zeros((3,), np.float64), "f64[3]"),
                                              (np.zeros((2,), np.float32), "f32[2]")])
def test_wrong_result_type_names_callback_expected_and_received(result, received):
    def my_solver(v):
        return result
    with pytest.raises(CallbackResultError) as info:
        padax.jit(lambda x: padax.pure_callback(my_solver, S((3,), np.float32), x))(padax.ones([3]))
    msg = str(info.value)
    assert "pure_callback(my_solver)" in msg and "expected f32[3]" in msg and f"received {received}" in msg


def test_saving_a_program_with_callbacks_says_why_not(tmp_path):
    def f(x):
        padax.debug.print("{}", x)
        return x + 1
    with pytest.raises(ValueError, match="calls back into Python"):
        padax.jit.save(f, str(tmp_path / "m"), input_spec=[padax.static.InputSpec([2], "float32")])


def test_vmap_of_cond_with_ordered_effects_and_batched_predicate_is_refused():
    def g(x):
        return lax.cond(x > 0, lambda: (padax.debug.print("{}", x, ordered=True), x)[1], lambda: x)
    with pytest.raises(ValueError, match="ordered side effects"):
        padax.vmap(g)(padax.to_tensor([1.0, -1.0]))
    padax.vmap(lambda x: lax.cond(x > 0, lambda: (padax.debug.print("{}", x), x)[1], lambda: x))(padax.ones([2]))
