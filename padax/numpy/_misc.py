"""Small NumPy helpers: astype, ndim/shape/size, isclose/allclose, array_equal, copy, issubdtype,
and the Array API inspection namespace (`__array_namespace_info__`)."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from padax import lax
from padax.functional._arrays import canonicalize_axis, static_int
from padax.numpy import _dtypes as D
from padax.numpy._util import is_array, promote_broadcast, put_on, scalar_like, to_array
from padax.runtime import backend


def astype(x: Any, dtype: Any, /, *, copy: builtins.bool = True, device: Any = None) -> Any:
    """x converted to `dtype` (complex to real drops the imaginary part; nonzero to bool is True).

    Args:
        x: an array or array-like.
        dtype: the target dtype.
        copy: accepted for the Array API (arrays are immutable; x itself comes back if no cast is needed).
        device: the device to put an eager result on.

    Returns:
        An array of x's shape and `dtype`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.astype(pnp.array([1.7, -1.7]), pnp.int32).tolist()
        [1, -1]
    """
    x = to_array(x)
    dt = D.canonicalize(dtype)
    out = x if x.aval.dtype == dt else lax.convert_element_type(x, dt)
    return put_on(out, device)


def ndim(a: Any) -> builtins.int:
    """The number of dimensions.

    Args:
        a: an array, numpy array, Python scalar or nested sequence.

    Returns:
        A Python int.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.ndim(pnp.zeros((2, 3))), pnp.ndim(5.0)
        (2, 0)
    """
    return a.aval.ndim if is_array(a) else np.ndim(a)


def shape(a: Any) -> tuple[builtins.int, ...]:
    """The shape tuple.

    Args:
        a: an array, numpy array, Python scalar or nested sequence.

    Returns:
        A tuple of ints.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.shape(pnp.zeros((2, 3))), pnp.shape([1, 2])
        ((2, 3), (2,))
    """
    return a.aval.shape if is_array(a) else np.shape(a)


def size(a: Any, axis: Any = None) -> builtins.int:
    """The number of elements (along `axis`, an int or a tuple of ints, if given).

    Args:
        a: an array, numpy array, Python scalar or nested sequence.
        axis: None (all elements), an int or a tuple of ints.

    Returns:
        A Python int.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.size(pnp.zeros((2, 3))), pnp.size(pnp.zeros((2, 3)), axis=1)
        (6, 3)
    """
    s = shape(a)
    if axis is None:
        return builtins.int(np.prod(s, dtype=np.int64))
    if isinstance(axis, (tuple, list)):
        return builtins.int(np.prod([s[canonicalize_axis("size", static_int("size", ax, "axis"), len(s))]
                                     for ax in axis], dtype=np.int64))
    return s[canonicalize_axis("size", static_int("size", axis, "axis"), len(s))] if s else 1


def copy(a: Any, *, order: str = "K") -> Any:
    """a itself as an array (padax arrays are immutable, so no copy is ever observable).

    Where NumPy code writes into a copy (`y = x.copy(); y[1] = 10`), padax (as jax.numpy) builds a new
    array with `x.at[1].set(10)`.

    Args:
        a: an array or array-like.
        order: accepted for NumPy compatibility (XLA owns the layout).

    Returns:
        a as a padax array.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.array([1, 2, 3])
        >>> pnp.copy(x).tolist(), x.at[1].set(10).tolist(), x.tolist()
        ([1, 2, 3], [1, 10, 3], [1, 2, 3])
    """
    return to_array(a)


def isclose(a: Any, b: Any, rtol: builtins.float = 1e-05, atol: builtins.float = 1e-08,
            equal_nan: builtins.bool = False) -> Any:
    """|a - b| <= atol + rtol * |b| elementwise (infinities equal only to themselves).

    Args:
        a, b: arrays, array-likes or Python scalars; promoted (integers and bool: the default float) and broadcast.
        rtol: the relative tolerance (times |b|).
        atol: the absolute tolerance.
        equal_nan: count NaN == NaN as close.

    Returns:
        A bool array of the broadcast shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.isclose(pnp.array([1.0, 1.0, pnp.nan]), pnp.array([1.0 + 1e-9, 1.1, pnp.nan])).tolist()
        [True, False, False]
        >>> pnp.isclose(pnp.array([pnp.nan]), pnp.array([pnp.nan]), equal_nan=True).tolist()
        [True]
    """
    x, y = promote_broadcast("isclose", a, b)
    if D.kind(x.aval.dtype) < 2:
        f = D.default_float()
        x, y = lax.convert_element_type(x, f), lax.convert_element_type(y, f)
    diff = lax.abs(lax.sub(x, y))
    ay = lax.abs(y)
    tol = lax.add(scalar_like(ay, atol), lax.mul(scalar_like(ay, rtol), ay))
    close = lax.le(diff, tol)
    fx = _isfinite(x)
    fy = _isfinite(y)
    both_finite = lax.bitwise_and(fx, fy)
    close = lax.bitwise_and(close, both_finite)
    same = lax.eq(x, y)  # equal infinities
    close = lax.bitwise_or(close, lax.bitwise_and(same, lax.bitwise_not(both_finite)))
    if equal_nan:
        nan_x, nan_y = lax.ne(x, x), lax.ne(y, y)
        close = lax.bitwise_or(close, lax.bitwise_and(nan_x, nan_y))
    return close


def _isfinite(x: Any) -> Any:
    if D.kind(x.aval.dtype) == 3:
        return lax.bitwise_and(lax.is_finite(lax.real(x)), lax.is_finite(lax.imag(x)))
    return lax.is_finite(x)


def allclose(a: Any, b: Any, rtol: builtins.float = 1e-05, atol: builtins.float = 1e-08,
             equal_nan: builtins.bool = False) -> Any:
    """True (a 0-d bool array) if isclose everywhere.

    Args:
        a, b: arrays, array-likes or Python scalars; promoted and broadcast.
        rtol: the relative tolerance (times |b|).
        atol: the absolute tolerance.
        equal_nan: count NaN == NaN as close.

    Returns:
        A 0-d bool array.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.allclose(pnp.array([1.0, 2.0]), pnp.array([1.0, 2.0 + 1e-7])).tolist()
        True
        >>> pnp.allclose(pnp.array([1.0]), pnp.array([1.1])).tolist()  # a 0-d bool array, as jax.numpy
        False
    """
    c = isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return lax.reduce_and(c, tuple(builtins.range(c.aval.ndim)))


def array_equal(a1: Any, a2: Any, equal_nan: builtins.bool = False) -> Any:
    """True (0-d bool array) if the shapes match and all elements are equal.

    Args:
        a1, a2: arrays or array-likes.
        equal_nan: count NaN == NaN as equal.

    Returns:
        A 0-d bool array.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.array_equal(pnp.array([1, 2]), pnp.array([1, 2])).tolist()
        True
        >>> pnp.array_equal(pnp.array([1, 2]), pnp.array([1, 2, 3])).tolist()
        False
    """
    x, y = to_array(a1), to_array(a2)
    if x.aval.shape != y.aval.shape:
        return to_array(np.bool_(False))
    x, y = promote_broadcast("array_equal", x, y)
    eq = lax.eq(x, y)
    if equal_nan and D.kind(x.aval.dtype) >= 2:
        eq = lax.bitwise_or(eq, lax.bitwise_and(lax.ne(x, x), lax.ne(y, y)))
    return lax.reduce_and(eq, tuple(builtins.range(eq.aval.ndim)))


def array_equiv(a1: Any, a2: Any) -> Any:
    """True (0-d bool array) if the arrays broadcast together and are equal everywhere.

    Args:
        a1, a2: arrays or array-likes.

    Returns:
        A 0-d bool array (False if they do not broadcast).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.array_equiv(pnp.array([1, 2]), pnp.array([[1, 2], [1, 2]])).tolist()
        True
        >>> pnp.array_equiv(pnp.array([1, 2]), pnp.array([[1, 2], [2, 1]])).tolist()
        False
    """
    try:
        x, y = promote_broadcast("array_equiv", a1, a2)
    except ValueError:
        return to_array(np.bool_(False))
    eq = lax.eq(x, y)
    return lax.reduce_and(eq, tuple(builtins.range(eq.aval.ndim)))


_ABSTRACT = {np.generic: lambda d: True, np.number: lambda d: d != D.bool_,
             np.integer: lambda d: D.kind(d) == 1, np.signedinteger: lambda d: d.kind == "i",
             np.unsignedinteger: lambda d: d.kind == "u", np.inexact: lambda d: D.kind(d) >= 2,
             np.floating: lambda d: D.kind(d) == 2, np.complexfloating: lambda d: D.kind(d) == 3,
             np.bool_: lambda d: d == D.bool_}


def issubdtype(arg1: Any, arg2: Any) -> builtins.bool:
    """Whether dtype arg1 is arg2 or below it in NumPy's type hierarchy (bfloat16/float8 are floating).

    Args:
        arg1: a dtype, scalar type or abstract class (`pnp.floating`, ...).
        arg2: a dtype, scalar type or abstract class.

    Returns:
        A Python bool.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.issubdtype(pnp.float32, pnp.floating), pnp.issubdtype(pnp.int8, pnp.unsignedinteger)
        (True, False)
    """
    if arg1 in _ABSTRACT:  # an abstract class under another one (floating under inexact)
        return arg2 in _ABSTRACT and np.issubdtype(arg1, arg2)
    d = D.to_dtype(arg1)
    if arg2 in _ABSTRACT:
        return _ABSTRACT[arg2](d)
    return d == D.to_dtype(arg2)


def promote_types(type1: Any, type2: Any) -> np.dtype:
    """The dtype two arrays of these dtypes promote to (padax.numpy's table).

    Args:
        type1, type2: dtypes or scalar types.

    Returns:
        A numpy dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.promote_types(pnp.int8, pnp.uint8), pnp.promote_types(pnp.int32, pnp.float32)  # NumPy: float64
        (dtype('int16'), dtype('float32'))
    """
    return D.promote_types(type1, type2)


def isscalar(element: Any) -> builtins.bool:
    """True for Python and numpy scalars and for 0-d arrays (padax or numpy), as jax.numpy (a traced
    scalar argument stays a scalar).

    Args:
        element: any object.

    Returns:
        A Python bool.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.isscalar(3.0), pnp.isscalar(pnp.array(3.0)), pnp.isscalar([3.0])  # 0-d arrays count (NumPy: no)
        (True, True, False)
    """
    if is_array(element):
        return element.aval.ndim == 0
    return np.isscalar(element) or (isinstance(element, np.ndarray) and element.ndim == 0)


# ---- inspection namespace --------------------------------------------------------------------------

class _NamespaceInfo:
    """What `__array_namespace_info__()` returns: capabilities, devices and dtypes of padax.numpy."""

    __module__ = "padax.numpy"

    def capabilities(self) -> dict[str, Any]:
        """Optional features: boolean indexing (no), data-dependent shapes (yes, eagerly), max rank."""
        return {"boolean indexing": False, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self) -> Any:
        """The device new arrays go to."""
        return backend.default_device()

    def devices(self) -> list[Any]:
        """All devices of the default backend."""
        return list(backend.devices())

    def default_dtypes(self, *, device: Any = None) -> dict[str, np.dtype]:
        """Default dtypes (x64-dependent): 'real floating', 'complex floating', 'integral', 'indexing'."""
        return {"real floating": D.default_float(), "complex floating": D.default_complex(),
                "integral": D.default_int(), "indexing": D.default_int()}

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, np.dtype]:
        """The standard's dtypes available now (64-bit ones with x64), optionally of one `kind`."""
        all_ = D.standard_dtypes()
        if kind is None:
            return all_
        return {n: d for n, d in all_.items() if D.isdtype(d, kind)}


def __array_namespace_info__() -> _NamespaceInfo:
    """The Array API inspection namespace of padax.numpy."""
    return _NamespaceInfo()


__all__ = ["astype", "ndim", "shape", "size", "copy", "isclose", "allclose", "array_equal", "array_equiv",
           "issubdtype", "promote_types", "isscalar", "__array_namespace_info__"]
