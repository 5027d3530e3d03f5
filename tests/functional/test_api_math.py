"""Paddle-level binary math, comparisons, logic, bitwise ops, where/cast/clip/scale vs numpy.

Every function runs eagerly and under padax.jit. Shapes are shared across
tests ((3, 4) with a (4,) operand to broadcast) so eager executables are
reused.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import padax
from tests.conftest import assert_close, rand

SHAPE_X, SHAPE_Y = (3, 4), (4,)
FLOATS = [np.float32, np.float16, ml_dtypes.bfloat16]
INTS = [np.int32, np.int8, np.uint8]


def both(fn, *args):
    """fn(*args) eagerly and under jit."""
    return [fn(*args), padax.jit(fn)(*args)]


def ref_in_f32(fn, dtype, *arrays):
    """numpy reference computed in float32 (float64 for float64) and cast to `dtype`."""
    work = np.float64 if np.dtype(dtype) == np.float64 else np.float32
    return np.asarray(fn(*(a.astype(work) for a in arrays))).astype(dtype)


def _pair(dtype, low=-3, high=3, y_nonzero=False, rng=None):
    rng = rng or np.random.default_rng(1)
    a = rand(SHAPE_X, dtype, rng, low, high)
    b = rand(SHAPE_Y, dtype, rng, low, high)
    if y_nonzero:
        b = np.where(b == 0, np.ones_like(b), b)
    return a, b


ARITH = [
    ("add", padax.add, np.add),
    ("subtract", padax.subtract, np.subtract),
    ("multiply", padax.multiply, np.multiply),
    ("maximum", padax.maximum, np.maximum),
    ("minimum", padax.minimum, np.minimum),
]


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_arithmetic(dtype):
    a, b = _pair(dtype, y_nonzero=True)
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    fns = {n: f for n, f, _ in ARITH}
    outs = both(lambda u, v: {n: f(u, v) for n, f in fns.items()}, x, y)
    for n, _, nf in ARITH:
        if np.dtype(dtype).kind in "iu":
            expect = nf(a, b)  # numpy's wrap-around matches XLA's
        else:
            expect = ref_in_f32(nf, dtype, a, b)
        for out in outs:
            assert_close(out[n], expect, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.bfloat16 if hasattr(np, "bfloat16") else ml_dtypes.bfloat16,
                                   np.int32, np.int8, np.uint8])
def test_division_family(dtype):
    a, b = _pair(dtype, y_nonzero=True)
    if np.dtype(dtype).kind == "f" or np.dtype(dtype) == ml_dtypes.bfloat16:
        b = np.where(np.abs(b.astype(np.float32)) < 0.25, np.ones_like(b), b)
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    for out in both(lambda u, v: (u / v, u // v, u % v, padax.mod(u, v), padax.floor_mod(u, v)), x, y):
        div, fdiv, rem, mod, fmod = out
        if np.dtype(dtype).kind in "iu":
            assert div.dtype == np.float32  # true division
            assert_close(div, (a.astype(np.float64) / b).astype(np.float32), np.float32)
            assert_close(fdiv, np.floor_divide(a, b), dtype)
            assert_close(rem, np.remainder(a, b), dtype)
        else:
            assert_close(div, ref_in_f32(np.divide, dtype, a, b), dtype)
            q = np.floor(a.astype(np.float32) / b.astype(np.float32))
            assert_close(fdiv, q.astype(dtype), dtype, atol=1)  # floor may flip at exact ties in low precision
            assert_close(rem, ref_in_f32(np.remainder, dtype, a, b), dtype, atol=0.05)
        np.testing.assert_array_equal(np.asarray(mod), np.asarray(rem))
        np.testing.assert_array_equal(np.asarray(fmod), np.asarray(rem))


def test_floor_semantics_signs():
    a = np.array([7, -7, 7, -7, 0, 6], np.int32)
    b = np.array([2, 2, -2, -2, 3, -3], np.int32)
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    for fd, r in both(lambda u, v: (padax.floor_divide(u, v), padax.remainder(u, v)), x, y):
        np.testing.assert_array_equal(fd.numpy(), a // b)
        np.testing.assert_array_equal(r.numpy(), a % b)
    af = np.array([5.5, -5.5, 5.5, -5.5], np.float32)
    bf = np.array([2.0, 2.0, -2.0, -2.0], np.float32)
    for fd, r in both(lambda u, v: (u // v, u % v), padax.to_tensor(af), padax.to_tensor(bf)):
        np.testing.assert_array_equal(fd.numpy(), af // bf)
        np.testing.assert_array_equal(r.numpy(), af % bf)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.uint8])
def test_pow(dtype):
    rng = np.random.default_rng(2)
    if np.dtype(dtype).kind in "iu":
        a = rng.integers(0, 5, SHAPE_X).astype(dtype)
        b = rng.integers(0, 4, SHAPE_Y).astype(dtype)
    else:
        a = rng.uniform(0.1, 2, SHAPE_X).astype(dtype)
        b = rng.uniform(-2, 2, SHAPE_Y).astype(dtype)
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    for t_pow, s_pow, r_pow in both(lambda u, v: (padax.pow(u, v), u ** 3, 2 ** v), x, y):
        if np.dtype(dtype).kind in "iu":
            np.testing.assert_array_equal(t_pow.numpy(), np.power(a, b))
            np.testing.assert_array_equal(s_pow.numpy(), a ** 3)
            np.testing.assert_array_equal(r_pow.numpy(), (2 ** b).astype(dtype))
        else:
            assert_close(t_pow, ref_in_f32(np.power, dtype, a, b), dtype)
            assert_close(s_pow, ref_in_f32(lambda t: t ** 3, dtype, a), dtype)
            assert_close(r_pow, ref_in_f32(lambda t: 2 ** t, dtype, b), dtype)


def test_int_pow_large_and_negative():
    base = padax.to_tensor(np.array([3, -2, 1, -1, 5], np.int32))
    exp = padax.to_tensor(np.array([19, 31, -3, -3, -1], np.int32))
    out = padax.pow(base, exp).numpy()
    np.testing.assert_array_equal(out[:2], np.array([3 ** 19, (-2) ** 31], np.int64).astype(np.int32))
    np.testing.assert_array_equal(out[2:], [1, -1, 0])
    with pytest.raises(TypeError, match="negative integer powers"):
        padax.pow(base, -2)


def test_fmax_fmin_ignore_nan():
    a = np.array([1.0, np.nan, 3.0, np.nan], np.float32)
    b = np.array([np.nan, 2.0, 1.0, np.nan], np.float32)
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    for mx, mn, pmx, pmn in both(lambda u, v: (padax.fmax(u, v), padax.fmin(u, v),
                                               padax.maximum(u, v), padax.minimum(u, v)), x, y):
        assert_close(mx, np.fmax(a, b))
        assert_close(mn, np.fmin(a, b))
        assert_close(pmx, np.maximum(a, b))  # NaN propagates
        assert_close(pmn, np.minimum(a, b))


def test_atan2_hypot_logaddexp():
    a, b = _pair(np.float32)
    a[0, 0], b[0] = 1e30, 1e30  # hypot must not overflow
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    for at, hy, la in both(lambda u, v: (padax.atan2(u, v), padax.hypot(u, v), padax.logaddexp(u, v)), x, y):
        assert_close(at, np.arctan2(a, b))
        assert_close(hy, np.hypot(a, b))
        assert_close(la, np.logaddexp(a, b))
    inf = np.array([np.inf, -np.inf, 1000.0, -1000.0], np.float32)
    got = padax.logaddexp(padax.to_tensor(inf), padax.to_tensor(inf))
    assert_close(got, np.logaddexp(inf, inf))
    # integers compute in float32
    assert padax.hypot(padax.to_tensor([3]), padax.to_tensor([4])).numpy().tolist() == [5.0]


COMPARE = [("equal", padax.equal, np.equal), ("not_equal", padax.not_equal, np.not_equal),
           ("less_than", padax.less_than, np.less), ("less_equal", padax.less_equal, np.less_equal),
           ("greater_than", padax.greater_than, np.greater), ("greater_equal", padax.greater_equal, np.greater_equal)]


@pytest.mark.parametrize("dtype", [np.float32, ml_dtypes.bfloat16, np.int32, np.uint8, np.bool_])
def test_comparisons(dtype):
    rng = np.random.default_rng(3)
    a = rand(SHAPE_X, dtype, rng, -2, 2)
    b = rand(SHAPE_Y, dtype, rng, -2, 2)
    a[0] = b  # some equal elements
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    fns = {n: f for n, f, _ in COMPARE}
    ops = {"==": lambda u, v: u == v, "!=": lambda u, v: u != v, "<": lambda u, v: u < v,
           "<=": lambda u, v: u <= v, ">": lambda u, v: u > v, ">=": lambda u, v: u >= v}
    for out in both(lambda u, v: ({n: f(u, v) for n, f in fns.items()}, {k: f(u, v) for k, f in ops.items()}), x, y):
        named, opd = out
        for (n, _, nf), k in zip(COMPARE, ops):
            assert named[n].dtype == np.bool_
            np.testing.assert_array_equal(named[n].numpy(), nf(a, b), err_msg=n)
            np.testing.assert_array_equal(opd[k].numpy(), nf(a, b), err_msg=k)


def test_compare_with_scalars_and_promotion():
    x = padax.to_tensor(np.array([1, 2, 3], np.int32))
    np.testing.assert_array_equal((x < 2.5).numpy(), [True, True, False])  # compares in float32
    np.testing.assert_array_equal((2 == x).numpy(), [False, True, False])
    np.testing.assert_array_equal((x >= padax.to_tensor([1.5, 2.0, 2.5])).numpy(), [False, True, True])
    assert (x == None) is False  # noqa: E711  (not an operand: Python's fallback)
    assert (x != "a") is True
    with pytest.raises(TypeError, match="less_than: complex"):
        padax.less_than(padax.to_tensor([1j]), padax.to_tensor([1j]))


def test_equal_all():
    x = padax.to_tensor([1, 2, 3])
    assert bool(padax.equal_all(x, padax.to_tensor([1, 2, 3])))
    assert not bool(padax.equal_all(x, padax.to_tensor([1, 2, 4])))
    assert not bool(padax.equal_all(x, padax.to_tensor([1, 2])))


def test_logical_ops():
    a = np.array([[0, 1, 2, -1]], np.int32)
    b = np.array([True, False, True, False])
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    for out in both(lambda u, v: (padax.logical_and(u, v), padax.logical_or(u, v), padax.logical_xor(u, v),
                                  padax.logical_not(u)), x, y):
        for o, e in zip(out, (np.logical_and(a, b), np.logical_or(a, b), np.logical_xor(a, b), np.logical_not(a))):
            assert o.dtype == np.bool_
            np.testing.assert_array_equal(o.numpy(), e)
    f = padax.to_tensor(np.array([0.0, 0.5, np.nan], np.float32))
    np.testing.assert_array_equal(padax.logical_not(f).numpy(), np.logical_not([0.0, 0.5, np.nan]))


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.int8, np.bool_])
def test_bitwise_ops(dtype):
    rng = np.random.default_rng(4)
    a = rand(SHAPE_X, dtype, rng)
    b = rand(SHAPE_Y, dtype, rng)
    x, y = padax.to_tensor(a), padax.to_tensor(b)
    fn = lambda u, v: (u & v, u | v, u ^ v, ~u, padax.bitwise_and(u, v), padax.bitwise_not(v))  # noqa: E731
    for out in both(fn, x, y):
        for o, e in zip(out, (a & b, a | b, a ^ b, ~a, a & b, ~b)):
            np.testing.assert_array_equal(o.numpy(), e)
    with pytest.raises(TypeError, match="bitwise_and: expected integer or bool"):
        padax.bitwise_and(padax.ones([2]), padax.ones([2]))


@pytest.mark.parametrize("dtype", [np.int32, np.uint8])
def test_shifts(dtype):
    a = np.array([1, 7, 100, 255 if dtype == np.uint8 else -100], dtype)
    s = np.array([0, 1, 3, 2], dtype)
    x, y = padax.to_tensor(a), padax.to_tensor(s)
    for lsh, rsh, rlog in both(lambda u, v: (u << v, u >> v, padax.bitwise_right_shift(u, v, is_arithmetic=False)),
                               x, y):
        np.testing.assert_array_equal(lsh.numpy(), a << s)
        np.testing.assert_array_equal(rsh.numpy(), a >> s)
        np.testing.assert_array_equal(rlog.numpy(), (a.view(np.uint8 if dtype == np.uint8 else np.uint32) >> s
                                                     .astype(np.uint32)).view(dtype) if dtype != np.uint8
                                      else a >> s)


def test_where_broadcast_and_promote():
    c = np.array([True, False, True, False])
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    cond, x = padax.to_tensor(c), padax.to_tensor(a)
    for o1, o2, o3 in both(lambda k, u: (padax.where(k, u, 0.5), padax.where(k, 1, u), padax.where(u > 4, u, -u)),
                           cond, x):
        assert o1.dtype == np.float32
        assert_close(o1, np.where(c, a, 0.5).astype(np.float32))
        assert o2.dtype == np.int32
        np.testing.assert_array_equal(o2.numpy(), np.where(c, 1, a))
        np.testing.assert_array_equal(o3.numpy(), np.where(a > 4, a, -a))
    with pytest.raises(ValueError, match=r"where: shapes \(3,\), \(3, 4\) cannot be broadcast"):
        padax.where(padax.to_tensor([True, False, True]), x, 0)


def test_cast_and_astype():
    a = np.array([-1.7, 0.0, 2.5, 300.2], np.float32)
    x = padax.to_tensor(a)
    for i32, b, f16, u8 in both(lambda u: (padax.cast(u, "int32"), u.astype(bool), u.astype(padax.float16),
                                           padax.cast(u, np.uint8)), x):
        np.testing.assert_array_equal(i32.numpy(), a.astype(np.int32))
        np.testing.assert_array_equal(b.numpy(), a.astype(bool))
        assert f16.dtype == np.float16
        assert u8.dtype == np.uint8
    c = padax.to_tensor(np.array([1 + 2j], np.complex64))
    assert padax.cast(c, "float32").numpy().tolist() == [1.0]


@pytest.mark.parametrize("dtype", [np.float32, np.int32, ml_dtypes.bfloat16])
def test_clip_and_scale(dtype):
    a = rand(SHAPE_X, dtype, np.random.default_rng(5))
    x = padax.to_tensor(a)
    lo = padax.to_tensor(np.array(-1, dtype))
    fn = lambda u, m: (padax.clip(u, -1, 2), padax.clip(u, min=m), padax.clip(u, max=1.5), u.clip(-2, 0),  # noqa: E731
                       padax.scale(u, 2, 1), padax.scale(u, 2, 1, bias_after_scale=False))
    for c1, c2, c3, c4, s1, s2 in both(fn, x, lo):
        af = a.astype(np.float32)
        assert c1.dtype == np.dtype(dtype)
        assert_close(c1, np.clip(af, -1, 2).astype(dtype), dtype)
        assert_close(c2, np.maximum(af, -1).astype(dtype), dtype)
        if dtype == np.int32:  # a float bound clips an int32/int64 x in float32, as in Paddle
            assert_close(c3, np.minimum(af, np.float32(1.5)), np.float32)
        else:
            assert_close(c3, np.minimum(af, np.float32(1.5).astype(dtype)).astype(dtype), dtype)
        assert_close(c4, np.clip(af, -2, 0).astype(dtype), dtype)
        assert_close(s1, (2 * af + 1).astype(dtype), dtype)
        assert_close(s2, (2 * (af + 1)).astype(dtype), dtype)


def test_python_scalars_and_0d():
    s = padax.to_tensor(np.float32(2.0))
    assert s.shape == ()
    for out in both(lambda u: (u + 1, 3 - u, u * u, padax.add(u, u), 1 / u), s):
        assert [o.shape for o in out] == [()] * 5
        assert [float(o) for o in out] == [3.0, 1.0, 4.0, 4.0, 0.5]
    r = padax.add(2, 3.5)
    assert r.shape == () and float(r) == 5.5


def test_broadcast_error_names_op_and_shapes():
    x, y = padax.ones([2, 3]), padax.ones([4])
    for fn, name in [(padax.add, "add"), (padax.multiply, "multiply"), (padax.maximum, "maximum"),
                     (padax.equal, "equal"), (lambda u, v: u - v, "subtract")]:
        with pytest.raises(ValueError, match=rf"{name}: shapes \(2, 3\), \(4,\) cannot be broadcast"):
            fn(x, y)
    with pytest.raises(ValueError, match=r"add: shapes \(2, 3\), \(4,\)"):
        padax.jit(lambda u, v: u + v)(x, y)


def test_dtype_errors_name_the_op():
    b = padax.to_tensor([True, False])
    with pytest.raises(TypeError, match="subtract: expected numeric"):
        b - b
    with pytest.raises(TypeError, match="neg: expected numeric"):
        -b
    with pytest.raises(TypeError, match="floor_divide"):
        padax.floor_divide(padax.to_tensor([1j]), padax.to_tensor([1j]))


def test_unsupported_operand_types():
    x = padax.ones([2])
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        x + [1, 2]  # lists are not operands (use padax.to_tensor)


def test_numpy_operands():
    x = padax.to_tensor(np.array([1.0, 2.0], np.float32))
    a = np.array([3.0, 4.0], np.float32)
    out = a + x  # numpy defers to Tensor.__radd__
    assert isinstance(out, padax.Tensor)
    np.testing.assert_array_equal(out.numpy(), [4.0, 6.0])
    np.testing.assert_array_equal((x * np.float32(2)).numpy(), [2.0, 4.0])
