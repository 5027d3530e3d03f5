"""numpy scalars and 0-d arrays in promotion: weak in Paddle-level ops (as paddle), strong in
padax.numpy (as jax).

Paddle reads np.float64(1) as a Python float and a 0-d array beside a higher-rank Tensor of its
kind as taking that Tensor's dtype; jax keeps numpy scalars and 0-d arrays strong.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import padax
import padax.numpy as pnp
from tests.conftest import paddle_oracle

_TENSOR_DTYPES = ["float32", "float64", "int32", "int64", "complex64", "bool"]
_SHAPES = [[3], []]
_OTHERS = {
    "np.float64": np.float64(1.5), "np.float32": np.float32(1.5), "np.float16": np.float16(1.5),
    "np.int64": np.int64(2), "np.int32": np.int32(2), "np.complex128": np.complex128(1 + 1j),
    "0d float64": np.array(1.5), "0d float32": np.array(1.5, np.float32), "0d int64": np.array(2),
    "1d float64": np.array([1.5]),
}
_OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b}


def _paddle_quirk(tdtype: str, shape: list, other: object, op: str) -> bool:
    """Cases where paddle applies a numpy scalar in the Tensor's own dtype (int32 + np.float32(1.5)
    -> int32 [2, 2], truncating), gives complex64 for a 0-d float64 Tensor and a complex scalar, or
    a [1]-shaped result for a 0-d Tensor divided by a complex scalar; padax reads numpy scalars as
    the Python scalar of their kind and keeps 0-d shapes."""
    if shape == [] and op == "/" and isinstance(other, np.complex128):
        return True
    if isinstance(other, np.generic) and not isinstance(other, (float, complex)):
        kind = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}
        return kind[np.dtype(other.dtype).kind] > kind[np.dtype(tdtype).kind]
    return tdtype == "float64" and shape == [] and isinstance(other, np.complex128)


def _cases():
    for td in _TENSOR_DTYPES:
        for shape in _SHAPES:
            for name, other in _OTHERS.items():
                yield pytest.param(td, shape, name, id=f"{td}{shape}{name}")


def _paddle_result(paddle, td, shape, other, op, reflected):
    t = paddle.ones(shape, td) * 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = _OPS[op](other, t) if reflected else _OPS[op](t, other)
        except (TypeError, ValueError, RuntimeError):
            return None
    return out


@pytest.mark.parametrize("td,shape,name", list(_cases()))
def test_paddle_level_matches_paddle(td, shape, name):
    paddle = paddle_oracle()
    other = _OTHERS[name]
    for op, reflected in ((op, r) for op in _OPS for r in (False, True)):
        if _paddle_quirk(td, shape, other, op):
            continue
        want = _paddle_result(paddle, td, shape, other, op, reflected)
        if want is None:
            continue  # paddle refuses the pair (bool arithmetic): padax answers, nothing to compare
        t = padax.ones(shape, td) * 3
        got = _OPS[op](other, t) if reflected else _OPS[op](t, other)
        assert str(got.dtype) == str(want.dtype).replace("paddle.", ""), (op, reflected, got.dtype, want.dtype)
        assert got.shape == tuple(want.shape)
        tol = 1e-6 if "64" in str(got.dtype) and "float32" not in str(got.dtype) else 1e-5
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=tol)


def test_functions_and_jit_follow_the_operators():
    x = padax.ones([2])
    for out in (padax.add(x, np.float64(1)), padax.maximum(x, np.float64(1)), padax.pow(x, np.float64(2)),
                padax.jit(lambda a: a * np.float64(2))(x), padax.multiply(x, np.array(2.0))):
        assert out.dtype == np.float32
    assert padax.add(padax.ones([2], "int32"), np.array(1.5)).dtype == np.float64  # across kinds: strong
    assert padax.add(x, np.array([1.5])).dtype == np.float64  # a 1-d array is an array


@pytest.mark.parametrize("other", [np.float64(1.5), np.float32(1.5), np.int64(2), np.int32(2),
                                   np.array(1.5), np.array(2), np.complex128(1j)], ids=repr)
@pytest.mark.parametrize("dt", ["float32", "int32", "float16"])
def test_padax_numpy_keeps_numpy_scalars_strong_as_jax(other, dt):
    jnp = pytest.importorskip("jax.numpy")
    import jax
    with jax.enable_x64(True) if hasattr(jax, "enable_x64") else jax.experimental.enable_x64():
        a = jnp.ones(2, dt)
        want = [jnp.add(a, other), jnp.multiply(other, a), jnp.subtract(a, other)]
    b = pnp.ones(2, dt)
    got = [pnp.add(b, other), pnp.multiply(other, b), pnp.subtract(b, other)]
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-3)
