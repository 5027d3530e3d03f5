"""Paddle 3 type promotion, written down as explicit tables.

Sources: Paddle's "Introduction to Data Type Promotion" guide. Paddle
itself promotes Tensor-with-Tensor only among floating types and between
complex and real types (other mixed pairs raise there); padax extends this
to the full lattice (bool < ints < floats < complex, as PyTorch does, with
uint8 + int8 -> int16), so every pair below has an answer. The floating
and complex rows agree with Paddle's table; Tensor-with-Python-scalar
agrees with Paddle's second table (the scalar adopts the Tensor's dtype
when the kinds match, else its default: int64, float32, complex64).
"""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import padax
from padax.core import dtypes

_CODES = {"b": np.bool_, "u8": np.uint8, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
          "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64,
          "c64": np.complex64, "c128": np.complex128}
_ORDER = ["b", "u8", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "c64", "c128"]

# Tensor + Tensor with x64 enabled: row dtype (+) column dtype.
_TABLE = """
       b     u8    i8    i16   i32   i64   f16   bf16  f32   f64   c64   c128
b      b     u8    i8    i16   i32   i64   f16   bf16  f32   f64   c64   c128
u8     u8    u8    i16   i16   i32   i64   f16   bf16  f32   f64   c64   c128
i8     i8    i16   i8    i16   i32   i64   f16   bf16  f32   f64   c64   c128
i16    i16   i16   i16   i16   i32   i64   f16   bf16  f32   f64   c64   c128
i32    i32   i32   i32   i32   i32   i64   f16   bf16  f32   f64   c64   c128
i64    i64   i64   i64   i64   i64   i64   f16   bf16  f32   f64   c64   c128
f16    f16   f16   f16   f16   f16   f16   f16   f32   f32   f64   c64   c128
bf16   bf16  bf16  bf16  bf16  bf16  bf16  f32   bf16  f32   f64   c64   c128
f32    f32   f32   f32   f32   f32   f32   f32   f32   f32   f64   c64   c128
f64    f64   f64   f64   f64   f64   f64   f64   f64   f64   f64   c128  c128
c64    c64   c64   c64   c64   c64   c64   c64   c64   c64   c128  c64   c128
c128   c128  c128  c128  c128  c128  c128  c128  c128  c128  c128  c128  c128
"""


def _parse(table: str) -> dict[tuple[str, str], str]:
    rows = [r.split() for r in table.strip().splitlines()]
    cols = rows[0]
    return {(r[0], c): v for r in rows[1:] for c, v in zip(cols, r[1:])}


TENSOR_TENSOR = _parse(_TABLE)

# Tensor (row) with a Python scalar of kind (column), x64 enabled (Paddle's second table).
_SCALAR_TABLE = """
       bool  int   float complex
b      b     i64   f32   c64
u8     u8    u8    f32   c64
i8     i8    i8    f32   c64
i16    i16   i16   f32   c64
i32    i32   i32   f32   c64
i64    i64   i64   f32   c64
bf16   bf16  bf16  bf16  c64
f16    f16   f16   f16   c64
f32    f32   f32   f32   c64
f64    f64   f64   f64   c128
c64    c64   c64   c64   c64
c128   c128  c128  c128  c128
"""
TENSOR_SCALAR = _parse(_SCALAR_TABLE)
_SCALARS = {"bool": True, "int": 2, "float": 1.5, "complex": 1 + 1j}

# Without x64, the 64-bit results shrink: i64 -> i32, f64 -> f32, c128 -> c64.
_SHRINK = {"i64": "i32", "f64": "f32", "c128": "c64"}

PAIRS = [(a, b) for a in _ORDER for b in _ORDER]


def _dt(code: str) -> np.dtype:
    return np.dtype(_CODES[code])


def _tensor(code: str):
    return padax.to_tensor(np.ones((2,), _CODES[code]))


def test_table_is_symmetric():
    for a, b in PAIRS:
        assert TENSOR_TENSOR[a, b] == TENSOR_TENSOR[b, a], (a, b)


@pytest.mark.parametrize("a,b", PAIRS)
def test_promote_types_x64(x64, a, b):
    assert dtypes.promote_types(_dt(a), _dt(b)) == _dt(TENSOR_TENSOR[a, b])
    out, weak = dtypes.result_type((_dt(a), False), (_dt(b), False))
    assert out == _dt(TENSOR_TENSOR[a, b]) and weak is False


def test_promote_types_without_x64():
    with padax.enable_x64(False):
        for a, b in PAIRS:
            expect = _SHRINK.get(TENSOR_TENSOR[a, b], TENSOR_TENSOR[a, b])
            assert dtypes.promote_types(_dt(a), _dt(b)) == _dt(expect), (a, b)


def test_operator_dtypes_match_table_x64(x64):
    # traced (no compilation), so the whole table is cheap
    for a, b in PAIRS:
        x, y = _tensor(a), _tensor(b)
        expect = _dt(TENSOR_TENSOR[a, b])
        out = padax.eval_shape(lambda u, v: (u + v, padax.add(u, v), u * v, padax.maximum(u, v)), x, y)
        assert [o.dtype for o in out] == [expect] * 4, (a, b)


@pytest.mark.parametrize("a", _ORDER)
def test_eager_add_dtype_and_value_x64(x64, a):
    for b in ["b", "i8", "u8", "i64", "bf16", "f32", "c64"]:
        x, y = _tensor(a), _tensor(b)
        expect = _dt(TENSOR_TENSOR[a, b])
        out = x + y
        assert out.dtype == expect, (a, b)
        ref = np.ones(2, expect) if expect != np.bool_ else np.ones(2, bool)
        if expect != np.bool_:
            ref = ref + ref
        np.testing.assert_array_equal(out.numpy(), ref)


@pytest.mark.parametrize("scalar_kind", list(_SCALARS))
def test_tensor_scalar_x64(x64, scalar_kind):
    s = _SCALARS[scalar_kind]
    for row in _ORDER:
        expect = _dt(TENSOR_SCALAR[row, scalar_kind])
        assert dtypes.result_type((_dt(row), False), (dtypes.python_scalar_dtype(s), True)) == (expect, False)
        x = _tensor(row)
        assert (x + s).dtype == expect, (row, scalar_kind)
        assert (s + x).dtype == expect, (row, scalar_kind)
        assert padax.multiply(x, s).dtype == expect, (row, scalar_kind)


def test_tensor_scalar_without_x64():
    with padax.enable_x64(False):
        for row in ["b", "u8", "i8", "i16", "i32", "f16", "bf16", "f32", "c64"]:
            for kind, s in _SCALARS.items():
                expect = _SHRINK.get(TENSOR_SCALAR[row, kind], TENSOR_SCALAR[row, kind])
                assert (_tensor(row) + s).dtype == _dt(expect), (row, kind)


def test_documented_examples():
    # the cases Paddle's guide spells out
    f16 = padax.to_tensor(np.ones(3, np.float16))
    bf16 = padax.to_tensor(np.ones(3, ml_dtypes.bfloat16))
    f32 = padax.ones([3])
    assert (f16 + f32).dtype == np.float32
    assert (f16 + bf16).dtype == np.float32
    assert (f16 + 1.0).dtype == np.float16
    assert (1.0 + padax.ones([3], dtype="int32")).dtype == np.float32
    assert (padax.ones([3], dtype="int32") + 1.5).dtype == np.float32
    u8 = padax.to_tensor(np.ones(3, np.uint8))
    i8 = padax.to_tensor(np.ones(3, np.int8))
    assert (u8 + i8).dtype == np.int16
    assert (padax.ones([3], dtype="int32") + f32).dtype == np.float32


def test_scalar_scalar_is_weak():
    out, weak = dtypes.result_type((dtypes.python_scalar_dtype(1), True), (dtypes.python_scalar_dtype(2.0), True))
    assert weak and out == np.float32


def test_divide_rule():
    i32 = padax.ones([2], dtype="int32")
    assert (i32 / 2).dtype == np.float32
    assert (i32 / i32).dtype == np.float32
    assert padax.divide(padax.to_tensor([True, False]), True).dtype == np.float32
    assert (padax.to_tensor(np.ones(2, np.float16)) / 3).dtype == np.float16
    with padax.enable_x64(True):
        assert (padax.ones([2], dtype="int64") / 2).dtype == np.float32


def test_logic_rule_returns_bool():
    for a in ["b", "u8", "i32", "f16", "bf16", "f32", "c64"]:
        for b in ["i8", "f32", "bf16"]:
            x, y = _tensor(a), _tensor(b)
            assert (x == y).dtype == np.bool_
            assert padax.not_equal(x, y).dtype == np.bool_
            if a != "c64":
                assert (x < y).dtype == np.bool_
            assert padax.logical_and(x, y).dtype == np.bool_


def test_values_follow_promoted_dtype():
    # int32 + 1.5 computes in float32 (not truncating the scalar)
    x = padax.to_tensor(np.array([1, 2], np.int32))
    np.testing.assert_array_equal((x + 1.5).numpy(), np.array([2.5, 3.5], np.float32))
    # uint8 + int8 widens, so no wrap-around
    u = padax.to_tensor(np.array([200], np.uint8))
    i = padax.to_tensor(np.array([-100], np.int8))
    np.testing.assert_array_equal((u + i).numpy(), np.array([100], np.int16))


def test_promotion_under_jit():
    f = padax.jit(lambda a, b: a + b * 2.5)
    out = f(padax.ones([2], dtype="int32"), padax.to_tensor(np.ones(2, np.float16)))
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out.numpy(), np.full(2, 3.5, np.float16))


def test_numpy_scalars_are_weak_in_paddle_ops(x64):
    # Paddle's Tensor ops read a numpy scalar as the Python scalar of its kind (np.float64 as a float)
    x = padax.ones([2])
    assert (x * np.float64(2)).dtype == np.float32
    assert (np.float64(2) * x).dtype == np.float32
    assert (x * 2.0).dtype == np.float32
    assert (padax.ones([2], dtype="int8") + np.int64(1)).dtype == np.int8
    assert (padax.ones([2], dtype="int32") + np.float64(1.5)).dtype == np.float32
    assert padax.to_tensor(np.float64(2.0)).dtype == np.float64
    assert padax.to_tensor([1.0, 2.0]).dtype == np.float32