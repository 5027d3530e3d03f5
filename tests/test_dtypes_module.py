"""padax.dtypes: the public dtype module, checked against jax.dtypes (its names) and numpy."""
import numpy as np
import pytest

import padax
from padax import dtypes

jax_dtypes = pytest.importorskip("jax.dtypes")
jnp = pytest.importorskip("jax.numpy")


@pytest.mark.parametrize("name", ["float32", "bfloat16", "float8_e4m3fn", "int8", "uint16", "complex64", "bool"])
@pytest.mark.parametrize("kind", ["floating", "inexact", "integer", "signedinteger", "unsignedinteger",
                                  "complexfloating", "number", "generic"])
def test_issubdtype_matches_jax(name, kind):
    assert dtypes.issubdtype(name, getattr(np, kind)) == jax_dtypes.issubdtype(np.dtype(getattr(jnp, name)),
                                                                             getattr(np, kind))
    assert dtypes.issubdtype(name, kind) == dtypes.issubdtype(name, getattr(np, kind))


def test_issubdtype_between_concrete_dtypes():
    assert dtypes.issubdtype("float32", np.float32)
    assert not dtypes.issubdtype("float32", "float64")


@pytest.mark.parametrize("value, expected", [(np.ones(2, np.int8), int), (np.ones(2, np.float16), float),
                                             (np.ones(2, np.complex64), complex), (np.ones(2, bool), bool)])
def test_scalar_type_of(value, expected):
    assert dtypes.scalar_type_of(padax.to_tensor(value)) is expected
    assert dtypes.scalar_type_of(value) is jax_dtypes.scalar_type_of(value)


def test_result_type_weak_scalars_and_arrays():
    i32 = padax.to_tensor(np.array([1, 2], np.int32))
    assert dtypes.result_type(i32, 1) == np.int32            # a weak int keeps the array's width
    assert dtypes.result_type(i32, 1.0) == np.float32        # a weak float moves to the default float
    assert dtypes.result_type(np.float16, dtypes.bfloat16) == np.float32  # Paddle's lattice, as jax's
    assert dtypes.result_type(2.0, return_weak_type_flag=True) == (np.dtype(np.float32), True)
    assert dtypes.result_type(np.int8, np.uint8) == jax_dtypes.result_type(np.int8, np.uint8)
    with pytest.raises(TypeError, match="result_type"):
        dtypes.result_type()


def test_canonicalize_and_sizes():
    assert dtypes.canonicalize_dtype("bfloat16") == dtypes.bfloat16
    assert dtypes.canonicalize_dtype(np.float64) == np.float64   # padax keeps 64-bit types by default
    assert dtypes.itemsize_bits("bfloat16") == jax_dtypes.itemsize_bits(jnp.bfloat16) == 16
    assert dtypes.finfo("bfloat16").eps == jnp.finfo(jnp.bfloat16).eps
    assert dtypes.iinfo("int8").max == 127
    assert dtypes.float0 == jax_dtypes.float0
    with pytest.raises(TypeError, match="unknown dtype name"):
        dtypes.canonicalize_dtype("float33")


def test_padax_dtypes_is_the_module():
    assert padax.dtypes is dtypes
    assert set(dtypes.__all__) <= set(dir(dtypes))
