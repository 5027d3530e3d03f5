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
