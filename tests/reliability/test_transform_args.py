"""Transformations given bad rules or arguments: a clear error naming the transform and the argument,
never a silently wrong result."""
import numpy as np
import pytest

import padax


def _custom_jvp_returning(tangent):
    @padax.custom_jvp
    def f(x):
        return padax.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        return f(primals[0]), tangent(primals[0])

    return f


def _custom_vjp_returning(cotangent):
    @padax.custom_vjp
    def f(x):
        return padax.sin(x)

    f.defvjp(lambda x: (f(x), x), lambda x, g: (cotangent(x),))
    return f


@pytest.mark.parametrize("tangent,words", [
    (lambda x: padax.ones([5]), ["f32[5]", "output 0", "shape", "f32[3]"]),
    (lambda x: padax.ones([3], dtype="float64"), ["f64[3]", "dtype", "f32[3]", "astype"]),
])
def test_custom_jvp_tangent_of_wrong_type_is_refused(tangent, words):
    f = _custom_jvp_returning(tangent)
    with pytest.raises(TypeError, match="custom_jvp f: the jvp rule") as err:
        padax.jvp(f, (padax.ones([3]),), (padax.ones([3]),))
    assert all(w in str(err.value) for w in words), str(err.value)
    with pytest.raises(TypeError, match="custom_jvp f"):
        padax.grad(lambda x: f(x).sum())(padax.ones([3]))


@pytest.mark.parametrize("cotangent,words", [
    (lambda x: padax.ones([5]), ["f32[5]", "argument 0", "shape", "f32[3]"]),
    (lambda x: padax.ones([3], dtype="float64"), ["f64[3]", "dtype", "f32[3]"]),
    (lambda x: padax.ones([3], dtype="int32"), ["i32[3]", "dtype", "f32[3]"]),
])
def test_custom_vjp_cotangent_of_wrong_type_is_refused(cotangent, words):
    f = _custom_vjp_returning(cotangent)
    with pytest.raises(TypeError, match="custom_vjp f: bwd") as err:
        padax.grad(lambda x: f(x).sum())(padax.ones([3]))
    assert all(w in str(err.value) for w in words), str(err.value)


def test_custom_rules_of_the_right_type_still_work():
    f = _custom_jvp_returning(lambda x: 2.0 * padax.cos(x))  # the weak scalar 2.0 keeps float32
    _, t = padax.jvp(f, (padax.ones([3]),), (padax.ones([3]),))
    np.testing.assert_allclose(t.numpy(), 2 * np.cos(np.ones(3, np.float32)), rtol=1e-6)
    g = _custom_vjp_returning(lambda x: 3.0 * padax.ones_like(x))
    np.testing.assert_allclose(padax.grad(lambda x: g(x).sum())(padax.ones([3])).numpy(), [3.0] * 3)
    h = _custom_jvp_returning(lambda x: 0.5)  # a weak Python-scalar tangent for a float64 scalar
    _, t = padax.jvp(h, (padax.to_tensor(1.0, dtype="float64"),), (padax.to_tensor(1.0, dtype="float64"),))
    assert t.dtype == np.float64


def _inc(x, y=1):
    return x + y


@pytest.mark.parametrize("kwargs,err,words", [
    (dict(static_argnums=4), ValueError, ["static_argnums=(4,)", "2 positional", "'x', 'y'"]),
    (dict(static_argnums=-3), ValueError, ["static_argnums", "2 positional"]),
    (dict(static_argnames="zz"), ValueError, ["static_argnames", "zz"]),
    (dict(donate_argnums=2), ValueError, ["donate_argnums", "2 positional"]),
    (dict(donate_argnames=("x", "q")), ValueError, ["donate_argnames", "q"]),
    (dict(static_argnums=1.0), TypeError, ["static_argnums", "1.0"]),
    (dict(static_argnums=True), TypeError, ["static_argnums", "True"]),
    (dict(static_argnames=3), TypeError, ["static_argnames", "3"]),
])
def test_jit_refuses_static_and_donate_arguments_the_function_does_not_take(kwargs, err, words):
    with pytest.raises(err, match=r"jit") as e:
        padax.jit(_inc, **kwargs)
    assert all(w in str(e.value) for w in words), str(e.value)


def test_jit_static_arguments_the_function_takes_still_work():
    x = padax.ones([2])
    np.testing.assert_allclose(padax.jit(_inc, static_argnums=-1)(x, 3).numpy(), [4, 4])
    np.testing.assert_allclose(padax.jit(_inc, static_argnames="y")(x, y=2).numpy(), [3, 3])
    np.testing.assert_allclose(padax.jit(lambda *a: a[0] * a[1], static_argnums=1)(x, 5).numpy(), [5, 5])
    np.testing.assert_allclose(padax.jit(lambda x, **kw: x * kw["k"], static_argnames="k")(x, k=4).numpy(), [4, 4])


@pytest.mark.parametrize("out_axes", [5, -4, (0, 3)])
def test_vmap_out_axes_out_of_range_is_refused(out_axes):
    f = padax.vmap(lambda x: (padax.stack([x, x]), padax.stack([x, x])), out_axes=out_axes)
    with pytest.raises(ValueError, match=r"vmap\(<lambda>\): out_axes -?\d is out of range .*\(2, 4\)"):
        f(padax.ones([3, 4]))


@pytest.mark.parametrize("spec", [dict(out_axes=True), dict(in_axes=1.5), dict(out_axes=0.0)])
def test_vmap_axes_must_be_int_or_none(spec):
    with pytest.raises(TypeError, match="vmap .*_axes entries must be int or None"):
        padax.vmap(lambda x: x * 2, **spec)(padax.ones([3, 4]))


def test_vmap_negative_out_axes_in_range_still_work():
    out = padax.vmap(lambda x: padax.stack([x, x]), out_axes=-1)(padax.ones([3, 4]))
    assert out.shape == (2, 4, 3)


def test_using_a_donated_tensor_raises_a_clear_error():
    step = padax.jit(lambda x: x + 1, donate_argnums=0)
    other = padax.jit(lambda x: x * 2)
    x = padax.ones([4])
    other(x)  # its C++ fast path is set up for this signature
    y = step(x)
    uses = [lambda: step(x), lambda: other(x), lambda: x + 1, lambda: x.numpy(), lambda: padax.sum(x)]
    for use in uses:
        with pytest.raises(padax.core.errors.DeletedBufferError, match=r"f32\[4\] was donated to jit\(<lambda>\) "
                                                                        r"\(donate_argnums\).*Use the call's output"):
            use()
    np.testing.assert_array_equal(step(y).numpy(), [3.0] * 4)  # the output is fine, and can be donated again
    np.testing.assert_array_equal(other(padax.ones([4])).numpy(), [2.0] * 4)


def test_a_1000_deep_pytree_gets_a_clear_error_and_works_under_a_raised_limit():
    from tests.reliability.isolated import run_snippets
    deep = "t = padax.ones([1])\nfor _ in range(1000):\n    t = [t]\n"
    calls = ["padax.tree.leaves(t)", "padax.tree.map(lambda x: x, t)", "padax.jit(lambda t: 1)(t)",
             "padax.vmap(lambda t: 1, axis_size=2)(t)", "padax.tree.flatten_with_path(t)"]
    results = run_snippets([deep + c for c in calls] + [
        "import sys\nsys.setrecursionlimit(3000)\n" + deep + "assert padax.jit(lambda t: padax.tree.leaves(t)[0] * 2)(t).shape == (1,)"])
    for r in results[:-1]:
        assert r["error"] == "RecursionError" and "pytree: nested deeper than Python's recursion limit" in r["message"] \
            and "sys.setrecursionlimit" in r["message"], r
    assert results[-1]["error"] is None, results[-1]


def test_recursion_in_user_code_keeps_its_own_message():
    def f(x):
        return f(x)
    with pytest.raises(RecursionError, match="maximum recursion depth"):
        padax.jit(f)(padax.ones([1]))


@pytest.mark.parametrize("perm,err,words", [
    ([(0, 5)], ValueError, ["(0, 5)", "outside axis 'i' of size 4", "[0, 4)"]),
    ([(-1, 0)], ValueError, ["(-1, 0)", "outside axis 'i'"]),
    ([(0.5, 1)], TypeError, ["perm source", "0.5"]),
    ([(0, 1, 2)], TypeError, ["(source, destination) pairs"]),
    (3, TypeError, ["(source, destination) pairs"]),
    ([(0, 1), (2, 1)], ValueError, ["more than once"]),
])
def test_ppermute_refuses_bad_permutations(perm, err, words):
    from padax import lax
    with pytest.raises(err, match="ppermute: ") as e:
        padax.vmap(lambda x: lax.ppermute(x, "i", perm), axis_name="i")(padax.ones([4]))
    assert all(w in str(e.value) for w in words), str(e.value)


def test_ppermute_in_range_still_permutes():
    from padax import lax
    out = padax.vmap(lambda x: lax.ppermute(x, "i", [(0, 1), (1, 2), (2, 3), (3, 0)]), axis_name="i")(
        padax.arange(4.0))
    np.testing.assert_array_equal(out.numpy(), [3.0, 0.0, 1.0, 2.0])
