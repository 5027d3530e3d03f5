"""Paddle-level unary math functions vs numpy/scipy, eagerly and under jit, over float dtypes
(integer inputs compute in float32, as Paddle does)."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
import scipy.special as sp

import padax
from tests.conftest import assert_close

SHAPE = (3, 4)


def both(fn, *args):
    return [fn(*args), padax.jit(fn)(*args)]




# name -> (numpy reference, input range)
UNARY = {
    "exp": (np.exp, (-3, 3)), "expm1": (np.expm1, (-1, 1)), "log": (np.log, (0.1, 5)),
    "log2": (np.log2, (0.1, 5)), "log10": (np.log10, (0.1, 5)), "log1p": (np.log1p, (-0.5, 3)),
    "sqrt": (np.sqrt, (0, 5)), "rsqrt": (lambda t: 1 / np.sqrt(t), (0.1, 5)), "square": (np.square, (-3, 3)),
    "sin": (np.sin, (-3, 3)), "cos": (np.cos, (-3, 3)), "tan": (np.tan, (-1.2, 1.2)),
    "asin": (np.arcsin, (-0.9, 0.9)), "acos": (np.arccos, (-0.9, 0.9)), "atan": (np.arctan, (-3, 3)),
    "sinh": (np.sinh, (-2, 2)), "cosh": (np.cosh, (-2, 2)), "tanh": (np.tanh, (-3, 3)),
    "asinh": (np.arcsinh, (-3, 3)), "acosh": (np.arccosh, (1.1, 4)), "atanh": (np.arctanh, (-0.9, 0.9)),
    "sigmoid": (sp.expit, (-5, 5)), "erf": (sp.erf, (-2, 2)), "erfinv": (sp.erfinv, (-0.9, 0.9)),
    "lgamma": (sp.gammaln, (0.2, 5)), "digamma": (sp.digamma, (0.5, 5)),
    "reciprocal": (lambda t: 1 / t, (0.5, 3)), "abs": (np.abs, (-3, 3)), "neg": (np.negative, (-3, 3)),
    "sign": (np.sign, (-3, 3)), "floor": (np.floor, (-3, 3)), "ceil": (np.ceil, (-3, 3)),
    "trunc": (np.trunc, (-3, 3)), "round": (np.round, (-3, 3)),
}
_LOOSE = {"lgamma": 5, "digamma": 5, "erfinv": 5, "tan": 5, "acosh": 3, "atanh": 3}


@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16])
def test_unary_values(dtype):
    rng = np.random.default_rng(0)
    inputs = {n: rng.uniform(lo, hi, SHAPE).astype(dtype) for n, (_, (lo, hi)) in UNARY.items()}
    tensors = {n: padax.to_tensor(a) for n, a in inputs.items()}
    names = list(UNARY)
    fn = lambda ts: {n: getattr(padax, n)(ts[n]) for n in names}  # noqa: E731
    for outs in both(fn, tensors):
        for n in names:
            ref, _ = UNARY[n]
            a = inputs[n]
            expect = np.asarray(ref(a.astype(np.float64))).astype(dtype)
            assert outs[n].dtype == np.dtype(dtype), n
            scale = _LOOSE.get(n, 1) * (2 if np.dtype(dtype) != np.float32 else 1)
            from tests.conftest import tol
            assert_close(outs[n], expect, dtype, rtol=tol(dtype, scale), atol=tol(dtype, scale))


def test_round_half_to_even_and_decimals():
    """Paddle 3 rounds halves to even (as numpy does), also with decimals."""
    a = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.24, 0.25], np.float32)
    x = padax.to_tensor(a)
    for r, r1 in both(lambda u: (padax.round(u), padax.round(u, decimals=1)), x):
        np.testing.assert_array_equal(r.numpy(), [-2, -2, -0, 0, 2, 2, 0, 0])
        assert_close(r1, np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.2, 0.2], np.float32))


def test_integer_inputs_compute_in_float32():
    a = np.array([[1, 2], [3, 4]], np.int32)
    x = padax.to_tensor(a)
    for e, s, l2, sg in both(lambda u: (padax.exp(u), padax.sqrt(u), padax.log2(u), padax.sigmoid(u)), x):
        for o in (e, s, l2, sg):
            assert o.dtype == np.float32
        assert_close(e, np.exp(a).astype(np.float32))
        assert_close(s, np.sqrt(a).astype(np.float32))
        assert_close(l2, np.log2(a).astype(np.float32))
    # integer-preserving ones
    for ab, sq, sg, fl, ng in both(lambda u: (padax.abs(-u), padax.square(u), padax.sign(-u), padax.floor(u), -u), x):
        np.testing.assert_array_equal(ab.numpy(), a)
        np.testing.assert_array_equal(sq.numpy(), a * a)
        np.testing.assert_array_equal(sg.numpy(), -np.ones_like(a))
        np.testing.assert_array_equal(fl.numpy(), a)
        assert ab.dtype == sq.dtype == sg.dtype == fl.dtype == ng.dtype == np.int32


def test_float64_unary(x64):
    a = np.linspace(0.1, 3, 12).reshape(SHAPE)
    x = padax.to_tensor(a)
    assert x.dtype == np.float64
    for e, l, lg in both(lambda u: (padax.exp(u), padax.log(u), padax.lgamma(u)), x):
        assert_close(e, np.exp(a))
        assert_close(l, np.log(a))
        assert_close(lg, sp.gammaln(a), rtol=1e-10, atol=1e-10)


def test_complex_unary():
    a = (np.arange(4) + 1j * np.arange(4)[::-1]).astype(np.complex64)
    x = padax.to_tensor(a)
    for e, ab, sq in both(lambda u: (padax.exp(u), padax.abs(u), padax.sqrt(u)), x):
        assert_close(e, np.exp(a))
        assert ab.dtype == np.float32
        assert_close(ab, np.abs(a))
        assert_close(sq, np.sqrt(a))


def test_isnan_isinf_isfinite():
    a = np.array([1.0, np.nan, np.inf, -np.inf, 0.0], np.float32)
    x = padax.to_tensor(a)
    for n, i, f in both(lambda u: (padax.isnan(u), padax.isinf(u), padax.isfinite(u)), x):
        np.testing.assert_array_equal(n.numpy(), np.isnan(a))
        np.testing.assert_array_equal(i.numpy(), np.isinf(a))
        np.testing.assert_array_equal(f.numpy(), np.isfinite(a))
    xi = padax.to_tensor([1, 2])
    assert padax.isnan(xi).numpy().tolist() == [False, False]
    assert padax.isfinite(xi).numpy().tolist() == [True, True]
    c = padax.to_tensor(np.array([1 + 1j, complex(np.nan, 0), complex(0, np.inf)], np.complex64))
    assert padax.isnan(c).numpy().tolist() == [False, True, False]
    assert padax.isinf(c).numpy().tolist() == [False, False, True]
    assert padax.isfinite(c).numpy().tolist() == [True, False, False]


def test_real_only_errors_name_the_op():
    c = padax.to_tensor(np.array([1j], np.complex64))
    with pytest.raises(TypeError, match="erf: expected real floating"):
        padax.erf(c)
    with pytest.raises(TypeError, match="floor: expected real"):
        padax.floor(c)


def test_methods_mirror_functions():
    a = np.array([[0.5, 1.5], [2.5, 3.5]], np.float32)
    x = padax.to_tensor(a)
    assert_close(x.exp(), np.exp(a))
    assert_close(x.log1p(), np.log1p(a))
    assert_close(x.abs(), np.abs(a))
    assert_close(x.tanh(), np.tanh(a))
    assert_close(x.sqrt(), np.sqrt(a))
    assert_close(abs(-x), a)
    assert_close(+x, a)
