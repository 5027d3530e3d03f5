"""padax.numpy against the Array API standard 2023.12: every name, keyword-only signatures,
dtype promotion, the inspection namespace, and the array object's attributes."""
from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

import padax
import padax.numpy as pnp

# ---- the standard's names (2023.12), as data -------------------------------------------------------

CONSTANTS = ["e", "inf", "nan", "newaxis", "pi"]
CREATION = ["arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like", "linspace",
            "meshgrid", "ones", "ones_like", "tril", "triu", "zeros", "zeros_like"]
DATA_TYPE_FUNCTIONS = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
          "float64", "complex64", "complex128"]
ELEMENTWISE = ["abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
               "bitwise_left_shift", "bitwise_invert", "bitwise_or", "bitwise_right_shift", "bitwise_xor",
               "ceil", "clip", "conj", "copysign", "cos", "cosh", "divide", "equal", "exp", "expm1", "floor",
               "floor_divide", "greater", "greater_equal", "hypot", "imag", "isfinite", "isinf", "isnan", "less",
               "less_equal", "log", "log1p", "log2", "log10", "logaddexp", "logical_and", "logical_not",
               "logical_or", "logical_xor", "maximum", "minimum", "multiply", "negative", "not_equal",
               "positive", "pow", "real", "remainder", "round", "sign", "signbit", "sin", "sinh", "square",
               "sqrt", "subtract", "tan", "tanh", "trunc"]
INDEXING = ["take"]
INSPECTION = ["__array_namespace_info__"]
LINEAR_ALGEBRA = ["matmul", "matrix_transpose", "tensordot", "vecdot"]
MANIPULATION = ["broadcast_arrays", "broadcast_to", "concat", "expand_dims", "flip", "moveaxis", "permute_dims",
                "repeat", "reshape", "roll", "squeeze", "stack", "tile", "unstack"]
SEARCHING = ["argmax", "argmin", "nonzero", "searchsorted", "where"]
SETS = ["unique_all", "unique_counts", "unique_inverse", "unique_values"]
SORTING = ["argsort", "sort"]
STATISTICAL = ["cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var"]
UTILITY = ["all", "any"]
LINALG = ["cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv", "matmul", "matrix_norm",
          "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet", "solve", "svd",
          "svdvals", "tensordot", "trace", "vecdot", "vector_norm"]
FFT = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq",
       "fftshift", "ifftshift"]
INFO_METHODS = ["capabilities", "default_device", "default_dtypes", "devices", "dtypes"]
ARRAY_ATTRIBUTES = ["dtype", "device", "mT", "ndim", "shape", "size", "T", "__abs__", "__add__", "__and__",
                    "__array_namespace__", "__bool__", "__complex__", "__dlpack__", "__dlpack_device__", "__eq__",
                    "__float__", "__floordiv__", "__ge__", "__getitem__", "__gt__", "__index__", "__int__",
                    "__invert__", "__le__", "__lshift__", "__lt__", "__matmul__", "__mod__", "__mul__", "__ne__",
                    "__neg__", "__or__", "__pos__", "__pow__", "__rshift__", "__setitem__", "__sub__",
                    "__truediv__", "__xor__", "to_device"]
# later standards (2024.12 / 2025.12), provided too
NEWER = ["count_nonzero", "cumulative_prod", "diff", "nextafter", "reciprocal", "take_along_axis",
         "broadcast_shapes", "isin"]

MAIN = (CONSTANTS + CREATION + DATA_TYPE_FUNCTIONS + DTYPES + ELEMENTWISE + INDEXING + INSPECTION + LINEAR_ALGEBRA
        + MANIPULATION + SEARCHING + SETS + SORTING + STATISTICAL + UTILITY + NEWER)


def test_every_standard_name_exists():
    missing = [n for n in MAIN if not hasattr(pnp, n)]
    missing += ["linalg." + n for n in LINALG if not hasattr(pnp.linalg, n)]
    missing += ["fft." + n for n in FFT if not hasattr(pnp.fft, n)]
    assert not missing, f"padax.numpy lacks: {missing}"
    assert len(MAIN) >= 150 and len(LINALG) == 23 and len(FFT) == 14
    for n in MAIN + ["linalg", "fft"]:
        if n not in ("newaxis",) and n not in CONSTANTS:
            assert getattr(pnp, n) is not None, n


def test_version_constants_and_dtypes():
    assert pnp.__array_api_version__ == "2023.12"
    assert pnp.e == math.e and pnp.pi == math.pi and pnp.inf == math.inf and math.isnan(pnp.nan)
    assert pnp.newaxis is None
    for n in DTYPES:
        assert getattr(pnp, n) == np.dtype(n)
    assert pnp.float_ == np.float64 and pnp.int_ == np.int64 and pnp.bool_ == np.bool_


def test_array_object_attributes_and_namespace():
    x = pnp.asarray([[1.0, 2.0], [3.0, 4.0]])
    missing = [a for a in ARRAY_ATTRIBUTES if not hasattr(x, a)]
    assert not missing, missing
    assert x.__array_namespace__() is pnp
    assert x.__array_namespace__(api_version="2023.12") is pnp
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="1999.01")
    seen = []
    padax.jit(lambda t: seen.append(t.__array_namespace__()) or t)(x)
    assert seen == [pnp]  # tracers too
    assert x.to_device(x.device) is x or np.array_equal(np.asarray(x.to_device(x.device)), np.asarray(x))


def test_namespace_info():
    info = pnp.__array_namespace_info__()
    for m in INFO_METHODS:
        assert callable(getattr(info, m))
    caps = info.capabilities()
    assert caps["boolean indexing"] is False and caps["data-dependent shapes"] is True
    assert info.default_device() == padax.default_device()
    assert info.default_device() in info.devices()
    d = info.default_dtypes()
    assert d == {"real floating": np.float32, "complex floating": np.complex64, "integral": np.int64,
                 "indexing": np.int64}
    assert set(info.dtypes()) == {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                  "float32", "float64", "complex64", "complex128"}
    assert set(info.dtypes(kind="integral")) == {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                                 "uint64"}
    with padax.enable_x64(False):  # JAX's 32-bit-only mode
        assert info.default_dtypes()["integral"] == np.int32
        assert set(info.dtypes(kind="integral")) == {"int8", "int16", "int32", "uint8", "uint16", "uint32"}
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {"bool", "complex64", "complex128"}
    with padax.enable_x64():
        assert info.default_dtypes()["real floating"] == np.float32  # padax's default float
        assert info.default_dtypes()["integral"] == np.int64
        assert "complex128" in info.dtypes() and len(info.dtypes()) == 13


# ---- signatures: positional-only arrays, keyword-only options -----------------------------------------

P, K, PK = inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD

SIGNATURES = {
    "sum": {"x": P, "axis": K, "dtype": K, "keepdims": K},
    "prod": {"x": P, "axis": K, "dtype": K, "keepdims": K},
    "mean": {"x": P, "axis": K, "keepdims": K},
    "max": {"x": P, "axis": K, "keepdims": K},
    "std": {"x": P, "axis": K, "correction": K, "keepdims": K},
    "var": {"x": P, "axis": K, "correction": K, "keepdims": K},
    "cumulative_sum": {"x": P, "axis": K, "dtype": K, "include_initial": K},
    "all": {"x": P, "axis": K, "keepdims": K},
    "argmax": {"x": P, "axis": K, "keepdims": K},
    "sort": {"x": P, "axis": K, "descending": K, "stable": K},
    "argsort": {"x": P, "axis": K, "descending": K, "stable": K},
    "searchsorted": {"x1": P, "x2": P, "side": K, "sorter": K},
    "asarray": {"obj": P, "dtype": K, "device": K, "copy": K},
    "arange": {"start": P, "stop": PK, "step": PK, "dtype": K, "device": K},
    "zeros": {"shape": PK, "dtype": K, "device": K},
    "full": {"shape": PK, "fill_value": PK, "dtype": K, "device": K},
    "full_like": {"x": P, "fill_value": PK, "dtype": K, "device": K},
    "eye": {"n_rows": P, "n_cols": P, "k": K, "dtype": K, "device": K},
    "linspace": {"start": P, "stop": P, "num": PK, "dtype": K, "device": K, "endpoint": K},
    "tril": {"x": P, "k": K},
    "astype": {"x": P, "dtype": P, "copy": K, "device": K},
    "can_cast": {"from_": P, "to": P},
    "concat": {"arrays": P, "axis": K},
    "stack": {"arrays": P, "axis": K},
    "flip": {"x": P, "axis": K},
    "roll": {"x": P, "shift": PK, "axis": K},
    "reshape": {"x": P, "shape": PK, "copy": K},
    "permute_dims": {"x": P, "axes": PK},
    "moveaxis": {"x": P, "source": P, "destination": P},
    "unstack": {"x": P, "axis": K},
    "repeat": {"x": P, "repeats": P, "axis": K},
    "take": {"x": P, "indices": P, "axis": K},
    "tensordot": {"x1": P, "x2": P, "axes": PK},
    "vecdot": {"x1": P, "x2": P, "axis": K},
    "matmul": {"x1": P, "x2": P},
    "add": {"x1": P, "x2": P},
    "clip": {"x": P, "min": PK, "max": PK},
    "sin": {"x": P},
    "where": {"condition": P, "x1": P, "x2": P},
    "unique_values": {"x": P},
}
LINALG_SIGNATURES = {
    "cholesky": {"x": P, "upper": K}, "matrix_norm": {"x": P, "keepdims": K, "ord": K},
    "vector_norm": {"x": P, "axis": K, "keepdims": K, "ord": K}, "qr": {"x": P, "mode": K},
    "svd": {"x": P, "full_matrices": K}, "pinv": {"x": P, "rtol": K}, "matrix_rank": {"x": P, "rtol": K},
    "trace": {"x": P, "offset": K, "dtype": K}, "diagonal": {"x": P, "offset": K},
    "cross": {"x1": P, "x2": P, "axis": K},
    "solve": {"x1": P, "x2": P}, "matrix_power": {"x": P, "n": P},
}
FFT_SIGNATURES = {
    "fft": {"x": P, "n": K, "axis": K, "norm": K}, "fftn": {"x": P, "s": K, "axes": K, "norm": K},
    "fftfreq": {"n": P, "d": K, "device": K}, "fftshift": {"x": P, "axes": K},
}


@pytest.mark.parametrize("mod,table", [(pnp, SIGNATURES), (pnp.linalg, LINALG_SIGNATURES), (pnp.fft, FFT_SIGNATURES)],
                         ids=["main", "linalg", "fft"])
def test_signatures_are_the_standards(mod, table):
    bad = []
    for fname, params in table.items():
        sig = inspect.signature(getattr(mod, fname)).parameters
        for p, kind in params.items():
            if p not in sig or sig[p].kind != kind:
                bad.append(f"{fname}({p}): {sig[p].kind.name if p in sig else 'missing'} != {kind.name}")
    assert not bad, bad
    x = pnp.asarray([1.0, 2.0])
    with pytest.raises(TypeError):
        pnp.sum(x=x)  # x is positional-only
    # NumPy's / jax.numpy's positional options work too (padax/numpy/_positional.py)
    assert float(pnp.sum(x, 0)) == float(pnp.sum(x, axis=0)) == 3.0
    with pytest.raises(TypeError, match="at most 5 positional"):
        pnp.sum(x, 0, None, None, False, 1)


# ---- type promotion -------------------------------------------------------------------------------

# (dtype1, dtype2, result): the standard's table, then the open pairs padax settles as JAX does
PROMOTIONS = [
    ("bool", "bool", "bool"), ("int8", "int16", "int16"), ("int16", "int32", "int32"),
    ("uint8", "uint16", "uint16"), ("uint16", "uint32", "uint32"),
    ("uint8", "int8", "int16"), ("uint8", "int16", "int16"), ("uint8", "int32", "int32"),
    ("uint16", "int8", "int32"), ("uint16", "int16", "int32"), ("uint16", "int32", "int32"),
    ("float32", "float32", "float32"), ("complex64", "complex64", "complex64"),
    ("float32", "complex64", "complex64"),
    # not in the standard
    ("bool", "int8", "int8"), ("bool", "float32", "float32"), ("int32", "float32", "float32"),
    ("uint8", "float16", "float16"), ("int16", "complex64", "complex64"), ("float16", "bfloat16", "float32"),
]
PROMOTIONS_X64 = [
    ("int32", "int64", "int64"), ("uint32", "int32", "int64"), ("uint32", "int64", "int64"),
    ("uint16", "int64", "int64"), ("uint32", "uint64", "uint64"), ("float32", "float64", "float64"),
    ("complex64", "complex128", "complex128"), ("float64", "complex64", "complex128"),
    ("float32", "complex128", "complex128"), ("int64", "uint64", "float64"), ("int64", "float32", "float32"),
]


def _dt(name):
    return pnp.bfloat16 if name == "bfloat16" else np.dtype(name)


def test_promotion_table():
    for a, b, r in PROMOTIONS:
        assert pnp.result_type(_dt(a), _dt(b)) == _dt(r), (a, b, r)
        assert pnp.result_type(_dt(b), _dt(a)) == _dt(r), (b, a, r)
        if a in ("bool", "bfloat16") or b == "bool" or _dt(a).kind != _dt(b).kind:
            continue  # casts across kinds are refused (checked below)
        assert pnp.can_cast(_dt(a), _dt(r)) and pnp.can_cast(_dt(b), _dt(r)), (a, b, r)
    for a, b, r in PROMOTIONS_X64:
        assert pnp.result_type(a, b) == np.dtype(r), (a, b, r)
    assert pnp.result_type(1.0, pnp.int32) == np.float32  # a float scalar with an int array: default float
    with padax.enable_x64(False):  # in 32-bit-only mode the 64-bit results shrink
        assert pnp.result_type("uint32", "int32") == np.int32


def test_promotion_of_arrays_and_scalars():
    i8 = pnp.asarray([1, 2], dtype=pnp.int8)
    u8 = pnp.asarray([1, 2], dtype=pnp.uint8)
    f16 = pnp.asarray([1, 2], dtype=pnp.float16)
    c64 = pnp.asarray([1j, 2], dtype=pnp.complex64)
    assert pnp.add(i8, u8).dtype == np.int16
    assert (i8 + u8).dtype == np.int16  # operators agree on the standard's pairs
    assert pnp.multiply(f16, 2.5).dtype == np.float16        # a float scalar is weak
    assert pnp.multiply(i8, 3).dtype == np.int8               # an int scalar too
    assert pnp.add(i8, 1.5).dtype == np.float32               # float scalar with int array: default float
    assert pnp.add(f16, 1j).dtype == np.complex64
    assert pnp.add(c64, f16).dtype == np.complex64
    assert pnp.add(True, i8).dtype == np.int8
    assert pnp.result_type(i8, 1.0) == np.float32
    assert pnp.result_type(1, 2) == np.int64 and pnp.result_type(1, 2.0) == np.float32
    assert pnp.result_type(f16, np.float32) == np.float32
    assert pnp.where(pnp.asarray([True, False]), i8, 7).dtype == np.int8
    with pytest.raises(OverflowError):
        pnp.add(i8, 1000)
    assert pnp.concat([i8, u8]).dtype == np.int16
    assert pnp.divide(i8, i8).dtype == np.float32
    np.testing.assert_array_equal(np.asarray(pnp.add(i8, u8)), [2, 4])


def test_dtype_functions():
    assert pnp.isdtype(pnp.int8, "signed integer") and not pnp.isdtype(pnp.uint8, "signed integer")
    assert pnp.isdtype(pnp.uint8, ("integral", "bool")) and pnp.isdtype(pnp.bool, "bool")
    assert pnp.isdtype(pnp.float32, "real floating") and pnp.isdtype(pnp.complex64, "complex floating")
    assert pnp.isdtype(pnp.float32, "numeric") and not pnp.isdtype(pnp.bool, "numeric")
    assert pnp.isdtype(pnp.float32, pnp.float32) and not pnp.isdtype(pnp.float32, pnp.float64)
    with pytest.raises(ValueError):
        pnp.isdtype(pnp.float32, "floating")
    assert pnp.can_cast(pnp.int8, pnp.int16) and not pnp.can_cast(pnp.int16, pnp.int8)
    assert pnp.can_cast(pnp.float32, pnp.complex64) and not pnp.can_cast(pnp.complex64, pnp.float32)
    assert not pnp.can_cast(pnp.uint8, pnp.int8) and not pnp.can_cast(pnp.bool, pnp.uint8)
    assert not pnp.can_cast(pnp.int8, pnp.float32) and not pnp.can_cast(pnp.float32, pnp.bool)
    assert pnp.can_cast(pnp.asarray([1], dtype=pnp.int8), pnp.int32)
    f = pnp.finfo(pnp.float32)
    assert (f.bits, f.eps, f.max, f.min, f.smallest_normal, f.dtype) == (
        32, float(np.finfo(np.float32).eps), float(np.finfo(np.float32).max), float(np.finfo(np.float32).min),
        float(np.finfo(np.float32).smallest_normal), np.float32)
    assert isinstance(f.eps, float)
    assert pnp.finfo(pnp.complex64).dtype == np.float32 and pnp.finfo(pnp.asarray([1.0])).bits == 32
    i = pnp.iinfo(pnp.uint16)
    assert (i.bits, i.max, i.min, i.dtype) == (16, 65535, 0, np.uint16)
    with pytest.raises(ValueError):
        pnp.iinfo(pnp.float32)
    x = pnp.asarray([1.7, -2.2])
    assert pnp.astype(x, pnp.int32).dtype == np.int32
    np.testing.assert_array_equal(np.asarray(pnp.astype(x, pnp.int32)), [1, -2])
