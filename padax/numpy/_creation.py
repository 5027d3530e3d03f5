"""Array creation: asarray, zeros/ones/empty/full(_like), arange, linspace, eye, meshgrid, tril/triu,
from_dlpack, plus NumPy's array, identity, tri, logspace, geomspace.

Default dtypes are padax's (int64, the default float, its complex type). `empty` is zero-filled: arrays are immutable. `device=`
places eager results on that device (it is ignored while tracing).
"""
from __future__ import annotations

import builtins
import math as _pymath
from typing import Any

import numpy as np

from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional import creation as _C
from padax.numpy import _dtypes as D
from padax.numpy._manipulation import moveaxis
from padax.numpy._util import broadcast_to, full_like_shape, is_array, put_on, static_int, to_array
from padax.runtime.array import Tensor


def _shape(op: str, shape: Any) -> tuple[int, ...]:
    if isinstance(shape, (builtins.int, np.integer)) and not isinstance(shape, builtins.bool):
        shape = (shape,)
    if isinstance(shape, Tensor):
        shape = shape.tolist() if shape.ndim else [shape.item()]
    if not isinstance(shape, (list, tuple)):
        raise op_type_error(op, f"shape must be an int or a tuple of ints, got {type(shape).__name__}")
    out = tuple(static_int(op, d, "each shape entry") for d in shape)
    if builtins.any(d < 0 for d in out):
        raise op_value_error(op, f"shape {out} has a negative dimension")
    return out


def _dt(dtype: Any, default: np.dtype) -> np.dtype:
    return D.canonicalize(default if dtype is None else dtype)


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: builtins.bool | None = None) -> Any:
    """Convert `obj` (array, Python scalar, nested sequence, numpy array, DLPack or buffer object).

    Python data takes the default dtypes; numpy data keeps its dtype. `copy=False`
    raises when a conversion would be needed; arrays are immutable, so no copy is
    ever observable.

    Args:
        obj: the data to convert.
        dtype: the result dtype (None: Python data takes the default dtypes, numpy data and arrays keep theirs).
        device: the device to put an eager result on (None: the default device).
        copy: False raises if a conversion is needed; True and None behave alike (arrays are immutable).
        order: NumPy's option (keyword or third positional): None, 'C', 'K' or 'A' only.

    Returns:
        A padax array (a tracer while tracing).

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.asarray([1, 2, 3])
        >>> x.dtype, x.tolist()
        (dtype('int64'), [1, 2, 3])
        >>> pnp.asarray([1.5, 2.0], dtype=pnp.float64).dtype
        dtype('float64')
    """
    if copy is False and is_array(obj) and dtype is not None and D.canonicalize(dtype) != obj.aval.dtype:
        raise ValueError("asarray: copy=False, but converting the dtype needs a copy")
    if copy is False and not is_array(obj) and not hasattr(obj, "__dlpack__"):
        raise ValueError("asarray: copy=False, but converting host data to a padax array needs a copy")
    return put_on(to_array(obj, dtype), device)


def array(object: Any, dtype: Any = None, copy: builtins.bool = True, ndmin: builtins.int = 0) -> Any:
    """NumPy's `array`: `asarray` with `ndmin` leading axes added as needed.

    Args:
        object: the data to convert (array, Python scalar, nested sequence, numpy array).
        dtype: the result dtype (None: as `asarray`).
        copy: accepted for NumPy compatibility (padax arrays are immutable).
        ndmin: the minimum number of dimensions; size-1 axes are added in front.

    Returns:
        A padax array with at least `ndmin` dimensions.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.array([[1, 2], [3, 4]]).shape
        (2, 2)
        >>> pnp.array(5.0, ndmin=2).shape
        (1, 1)
    """
    out = to_array(object, dtype)
    if out.aval.ndim < ndmin:
        out = lax.reshape(out, (1,) * (ndmin - out.aval.ndim) + out.aval.shape)
    return out


def from_dlpack(x: Any, /, *, device: Any = None, copy: builtins.bool | None = None) -> Any:
    """An array from an object implementing `__dlpack__` (a host copy for non-padax producers).

    Args:
        x: a padax array or an object implementing `__dlpack__`.
        device: the device to put the result on (None: where it lands).
        copy: accepted for the Array API (a host copy is made for non-padax producers anyway).

    Returns:
        A padax array with x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> import numpy as np
        >>> pnp.from_dlpack(np.arange(3.0)).tolist()
        [0.0, 1.0, 2.0]
    """
    if is_array(x):
        return put_on(x, device)
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack: {type(x).__name__} does not implement __dlpack__")
    arr = np.from_dlpack(x)
    return put_on(to_array(arr), device)


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    """An array of zeros (default float dtype).

    Args:
        shape: an int or a sequence of ints.
        dtype: the result dtype (None: the default float); NumPy's second positional argument.
        device: the device to put the result on (None: the default device).

    Returns:
        An array of `shape` filled with 0.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.zeros((2, 3)).shape, pnp.zeros(2, pnp.int32).tolist()
        ((2, 3), [0, 0])
        >>> pnp.zeros(2).dtype  # the default float, as jax.numpy (NumPy: float64)
        dtype('float32')
    """
    return put_on(full_like_shape(_shape("zeros", shape), 0, _dt(dtype, D.default_float())), device)


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    """An array of ones (default float dtype).

    Args:
        shape: an int or a sequence of ints.
        dtype: the result dtype (None: the default float); NumPy's second positional argument.
        device: the device to put the result on (None: the default device).

    Returns:
        An array of `shape` filled with 1.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.ones(3).tolist()
        [1.0, 1.0, 1.0]
        >>> pnp.ones((2, 1), dtype=pnp.int64).tolist()
        [[1], [1]]
    """
    return put_on(full_like_shape(_shape("ones", shape), 1, _dt(dtype, D.default_float())), device)


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    """An "uninitialised" array; padax arrays are immutable, so it is zero-filled.

    Args:
        shape: an int or a sequence of ints.
        dtype: the result dtype (None: the default float); NumPy's second positional argument.
        device: the device to put the result on (None: the default device).

    Returns:
        A zero-filled array of `shape`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.empty((2, 2)).tolist()  # zero-filled (NumPy leaves it uninitialised)
        [[0.0, 0.0], [0.0, 0.0]]
    """
    return zeros(shape, dtype=dtype, device=device)


def _fill_dtype(value: Any) -> np.dtype:
    if is_array(value):
        return value.aval.dtype
    if isinstance(value, (np.ndarray, np.generic)):
        return D.canonicalize(value.dtype)
    if isinstance(value, builtins.bool):
        return D.bool_
    if isinstance(value, builtins.int):
        return D.default_int()
    if isinstance(value, builtins.complex):
        return D.default_complex()
    return D.default_float()


def _fill(op: str, shape: tuple[int, ...], value: Any, dt: np.dtype) -> Any:
    if isinstance(value, (str, bytes)) or value is None:
        raise op_type_error(op, f"fill_value must be a number or an array, got {type(value).__name__}: {value!r}")
    if is_array(value) or isinstance(value, np.ndarray):
        v = to_array(value, dt)
        if v.aval.size == 1:
            return lax.broadcast_in_dim(lax.reshape(v, ()), shape, ())
        try:  # an array fill_value broadcasts to the shape, as in numpy and jax
            fits = np.broadcast_shapes(v.aval.shape, shape) == tuple(shape)
        except ValueError:
            fits = False
        if not fits:
            raise op_value_error(op, f"fill_value {v.aval.str_short()} does not broadcast to shape {shape}")
        return broadcast_to(v, tuple(shape))
    if isinstance(value, np.generic):
        value = value.item()
    if dt.kind in "iub" and isinstance(value, builtins.float) and not _pymath.isfinite(value):
        raise op_value_error(op, f"cannot fill an array of {dt.name} with {value}")
    return full_like_shape(shape, value, dt)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    """An array filled with `fill_value` (dtype from the value's kind unless given).

    Args:
        shape: an int or a sequence of ints.
        fill_value: the value of every element (a scalar or 0-d array).
        dtype: the result dtype (None: from the value's kind: bool, the default int, float or complex).
        device: the device to put the result on (None: the default device).

    Returns:
        An array of `shape` filled with `fill_value`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.full((2, 2), 7).tolist()
        [[7, 7], [7, 7]]
    """
    sh = _shape("full", shape)
    return put_on(_fill("full", sh, fill_value, _dt(dtype, _fill_dtype(fill_value))), device)


def _like_dtype(x: Any, dtype: Any) -> tuple[Any, np.dtype]:
    x = to_array(x)
    return x, D.canonicalize(x.aval.dtype if dtype is None else dtype)


def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    """Zeros with x's shape (and dtype unless given).

    Args:
        x: the prototype array (its shape, and dtype unless `dtype` is given).
        dtype: the result dtype (None: x's).
        device: the device to put the result on.
        shape: NumPy's override of the shape (keyword or third positional).

    Returns:
        An array of zeros.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.zeros_like(pnp.array([[1.5, 2.5]])).tolist()
        [[0.0, 0.0]]
    """
    x, dt = _like_dtype(x, dtype)
    return put_on(full_like_shape(x.aval.shape, 0, dt), device)


def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    """Ones with x's shape (and dtype unless given).

    Args:
        x: the prototype array (its shape, and dtype unless `dtype` is given).
        dtype: the result dtype (None: x's).
        device: the device to put the result on.
        shape: NumPy's override of the shape (keyword or third positional).

    Returns:
        An array of ones.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.ones_like(pnp.array([1, 2, 3])).tolist()
        [1, 1, 1]
    """
    x, dt = _like_dtype(x, dtype)
    return put_on(full_like_shape(x.aval.shape, 1, dt), device)


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    """Zero-filled, with x's shape (and dtype unless given).

    Args:
        x: the prototype array (its shape, and dtype unless `dtype` is given).
        dtype: the result dtype (None: x's).
        device: the device to put the result on.
        shape: NumPy's override of the shape (keyword or third positional).

    Returns:
        A zero-filled array.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.empty_like(pnp.array([1, 2])).tolist()  # zero-filled, as `empty`
        [0, 0]
    """
    return zeros_like(x, dtype=dtype, device=device)


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    """`fill_value` with x's shape (and dtype unless given).

    Args:
        x: the prototype array (its shape, and dtype unless `dtype` is given).
        fill_value: the value of every element.
        dtype: the result dtype (None: x's).
        device: the device to put the result on.
        shape: NumPy's override of the shape (keyword or fourth positional).

    Returns:
        An array filled with `fill_value`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.full_like(pnp.array([1.0, 2.0]), 0.5).tolist()
        [0.5, 0.5]
    """
    x, dt = _like_dtype(x, dtype)
    return put_on(_fill("full_like", x.aval.shape, fill_value, dt), device)


def _number(op: str, v: Any, what: str) -> Any:
    if isinstance(v, Tracer):
        raise op_type_error(op, f"{what} must be known while tracing, got a traced array "
                                f"{v.aval.str_short()}; pass a Python number (static_argnums)")
    if isinstance(v, (Tensor, np.ndarray, np.generic)):
        return np.asarray(v).item()
    return v


def arange(start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None) -> Any:
    """Evenly spaced values in [start, stop) (default int dtype for ints, default float otherwise).

    Args:
        start: the first value; with `stop` None, the end (the range then starts at 0).
        stop: the end, excluded.
        step: the spacing (nonzero; may be negative).
        dtype: the result dtype (None: the default int if all bounds are ints, else the default float).
        device: the device to put the result on.

    Returns:
        A 1-D array of ceil((stop - start) / step) values.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.arange(4).tolist()
        [0, 1, 2, 3]
        >>> pnp.arange(1.0, 2.0, 0.25).tolist()
        [1.0, 1.25, 1.5, 1.75]
        >>> pnp.arange(4).dtype, pnp.arange(1.0, 2.0).dtype  # int64 and the default float (NumPy: float64)
        (dtype('int64'), dtype('float32'))
    """
    start, stop, step = (_number("arange", v, n) for v, n in ((start, "start"), (stop, "stop"), (step, "step")))
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        all_int = builtins.all(isinstance(v, builtins.int) for v in (start, stop, step))
        dt = D.default_int() if all_int else D.default_float()
    else:
        dt = D.canonicalize(dtype)
    if step == 0:
        raise op_value_error("arange", "step must not be 0")
    return put_on(_C.arange(start, stop, step, dtype=dt), device)


def linspace(start: Any, stop: Any, /, num: builtins.int, *, dtype: Any = None, device: Any = None,
             endpoint: builtins.bool = True) -> Any:
    """`num` evenly spaced samples from start to stop (stop included when `endpoint`); array or traced
    endpoints give one column of samples per element (shape (num, *broadcast shape)), as jax.

    Args:
        start, stop: the first and last sample (scalars, or arrays for one column of samples per element).
        num: the number of samples (non-negative).
        dtype: the result dtype (None: the default float, or complex for complex endpoints).
        device: the device to put the result on.
        endpoint: include `stop` as the last sample.
        retstep, axis: NumPy's options: also return the spacing; where the sample axis goes.

    Returns:
        An array of shape (num, *broadcast shape of start and stop), or (samples, step) with `retstep`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.linspace(0.0, 1.0, 5).tolist()
        [0.0, 0.25, 0.5, 0.75, 1.0]
        >>> pnp.linspace(0.0, 1.0, 4, endpoint=False).tolist()
        [0.0, 0.25, 0.5, 0.75]
    """
    if any(isinstance(v, Tracer) or np.ndim(v) > 0 for v in (start, stop)):
        return put_on(_linspace_arrays(start, stop, static_int("linspace", num, "num"), dtype, endpoint), device)
    start, stop = _number("linspace", start, "start"), _number("linspace", stop, "stop")
    num = static_int("linspace", num, "num")
    if num < 0:
        raise op_value_error("linspace", f"num must be non-negative, got {num}")
    is_c = isinstance(start, complex) or isinstance(stop, complex)
    if dtype is None:
        dt = D.default_complex() if is_c else D.default_float()
    else:
        dt = D.canonicalize(dtype)
    work = D.complex128 if (is_c or dt.kind == "c") else D.float64
    work = D.canonicalize(work)
    div = (num - 1) if endpoint else num
    if num == 0:
        return put_on(full_like_shape((0,), 0, dt), device)
    step = (stop - start) / div if div > 0 else 0
    idx = lax.convert_element_type(lax.iota(D.int32, num), work)
    out = lax.add(lax.mul(idx, full_like_shape((num,), step, work)), full_like_shape((num,), start, work))
    if endpoint and num > 1:
        last = lax.eq(lax.iota(D.int32, num), full_like_shape((num,), num - 1, D.int32))
        out = lax.select(last, full_like_shape((num,), stop, work), out)
    if dt.kind in "iu":
        out = lax.floor(out)
    return put_on(lax.convert_element_type(out, dt), device)


def _linspace_arrays(start: Any, stop: Any, num: builtins.int, dtype: Any, endpoint: builtins.bool) -> Any:
    if num < 0:
        raise op_value_error("linspace", f"num must be non-negative, got {num}")
    s, e = to_array(start), to_array(stop)
    dt = D.result_type_of([(s.aval.dtype, False), (e.aval.dtype, False)]) if dtype is None else D.canonicalize(dtype)
    if dtype is None and D.kind(dt) < 2:
        dt = D.default_float()
    work = D.canonicalize(D.complex128 if D.kind(dt) == 3 else D.float64)
    shape = tuple(np.broadcast_shapes(s.aval.shape, e.aval.shape))
    s = broadcast_to(lax.convert_element_type(s, work), shape)
    e = broadcast_to(lax.convert_element_type(e, work), shape)
    full = (num,) + shape
    dims = tuple(builtins.range(1, len(full)))
    div = (num - 1) if endpoint else num
    step = lax.div(lax.sub(e, s), full_like_shape(shape, div, work)) if div > 0 else full_like_shape(shape, 0, work)
    idx = lax.broadcast_in_dim(lax.convert_element_type(lax.iota(D.int32, num), work), full, (0,))
    out = lax.add(lax.mul(idx, lax.broadcast_in_dim(step, full, dims)), lax.broadcast_in_dim(s, full, dims))
    if endpoint and num > 1:
        last = lax.eq(lax.broadcasted_iota(D.int32, full, 0), full_like_shape(full, num - 1, D.int32))
        out = lax.select(last, lax.broadcast_in_dim(e, full, dims), out)
    if dt.kind in "iu":
        out = lax.floor(out)
    return lax.convert_element_type(out, dt)


def logspace(start: Any, stop: Any, num: builtins.int = 50, endpoint: builtins.bool = True, base: Any = 10.0,
             dtype: Any = None, axis: builtins.int = 0) -> Any:
    """base ** linspace(start, stop, num) (NumPy's logspace); array endpoints give one column of samples per
    element, placed along `axis`.

    Args:
        start, stop: the exponents of the first and last sample.
        num: the number of samples.
        endpoint: include base ** stop.
        base: the base of the powers (a number, or an array broadcast against the endpoints).
        dtype: the result dtype (None: the default float).
        axis: where the samples go in the result when start/stop are arrays.

    Returns:
        An array of `num` values along `axis` (1-D for scalar endpoints).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.logspace(0.0, 3.0, 4).tolist()
        [1.0, 10.0, 100.0, 1000.0]
    """
    y = linspace(start, stop, num, endpoint=endpoint)
    if isinstance(base, Tracer) or np.ndim(base) > 0:
        b = to_array(base)
        shape = y.aval.shape
        b = lax.broadcast_in_dim(lax.convert_element_type(broadcast_to(b, shape[1:]), y.aval.dtype), shape,
                                 tuple(builtins.range(1, len(shape))))
    else:
        b = full_like_shape(y.aval.shape, base, y.aval.dtype)
    out = samples_along(lax.pow(b, y), axis)
    return out if dtype is None else lax.convert_element_type(out, D.canonicalize(dtype))


def samples_along(out: Any, axis: builtins.int) -> Any:
    """linspace-style samples (axis 0 of `out`) moved to `axis`, as NumPy's `axis=` places them."""
    if out.ndim > 1 and axis not in (0, -out.ndim):
        return moveaxis(out, 0, axis)
    return out


def geomspace(start: Any, stop: Any, num: builtins.int = 50, endpoint: builtins.bool = True,
              dtype: Any = None, axis: builtins.int = 0) -> Any:
    """Samples evenly spaced on a log scale from start to stop (same signs; NumPy's geomspace); array
    endpoints give one column per element, as linspace.

    Args:
        start, stop: the first and last sample (nonzero, same sign; arrays give one column per element).
        num: the number of samples.
        endpoint: include `stop`.
        dtype: the result dtype (None: the default float).
        axis: where the samples go in the result when start/stop are arrays.

    Returns:
        An array of `num` samples along `axis` and the broadcast shape of start and stop elsewhere.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.geomspace(1.0, 1000.0, 4).tolist()
        [1.0, 10.0, 100.0, 1000.0]
    """
    if any(isinstance(v, Tracer) or np.ndim(v) > 0 for v in (start, stop)):
        num = static_int("geomspace", num, "num")
        s, e = to_array(start), to_array(stop)
        s = s if D.kind(s.aval.dtype) >= 2 else lax.convert_element_type(s, D.default_float())
        e = e if D.kind(e.aval.dtype) >= 2 else lax.convert_element_type(e, D.default_float())
        y = _linspace_arrays(lax.log(lax.abs(s)), lax.log(lax.abs(e)), num, None, endpoint)
        shape = y.aval.shape
        sign = lax.broadcast_in_dim(lax.sign(broadcast_to(s, shape[1:])), shape, tuple(builtins.range(1, len(shape))))
        out = lax.mul(lax.exp(y), lax.convert_element_type(sign, y.aval.dtype))
        if num > 0:  # exact endpoints, as NumPy
            row = lax.broadcasted_iota(D.int32, shape, 0)
            dims = tuple(builtins.range(1, len(shape)))
            out = lax.select(lax.eq(row, full_like_shape(shape, 0, D.int32)),
                             lax.broadcast_in_dim(lax.convert_element_type(broadcast_to(s, shape[1:]), y.aval.dtype),
                                                  shape, dims), out)
            if endpoint and num > 1:
                out = lax.select(lax.eq(row, full_like_shape(shape, num - 1, D.int32)),
                                 lax.broadcast_in_dim(lax.convert_element_type(broadcast_to(e, shape[1:]),
                                                                               y.aval.dtype), shape, dims), out)
        out = samples_along(out, axis)
        return out if dtype is None else lax.convert_element_type(out, D.canonicalize(dtype))
    start, stop = _number("geomspace", start, "start"), _number("geomspace", stop, "stop")
    if start == 0 or stop == 0 or (start < 0) != (stop < 0):
        raise op_value_error("geomspace", "start and stop must be nonzero and of the same sign")
    sign = -1.0 if start < 0 else 1.0
    y = linspace(_pymath.log(abs(start)), _pymath.log(abs(stop)), num, endpoint=endpoint)
    out = lax.mul(lax.exp(y), full_like_shape(y.aval.shape, sign, y.aval.dtype))
    if num > 0:  # exact endpoints, as NumPy
        ends = np.zeros(num, bool)
        ends[0] = True
        vals = np.zeros(num)
        vals[0] = start
        if endpoint and num > 1:
            ends[-1] = True
            vals[-1] = stop
        out = lax.select(to_array(ends), to_array(vals, y.aval.dtype), out)
    return out if dtype is None else lax.convert_element_type(out, D.canonicalize(dtype))


def eye(n_rows: builtins.int, n_cols: builtins.int | None = None, /, *, k: builtins.int = 0, dtype: Any = None,
        device: Any = None) -> Any:
    """A 2-D array with ones on the k-th diagonal.

    Args:
        n_rows: the number of rows.
        n_cols: the number of columns (None: n_rows).
        k: the diagonal: 0 the main one, > 0 above, < 0 below.
        dtype: the result dtype (None: the default float).
        device: the device to put the result on.

    Returns:
        An array of shape (n_rows, n_cols).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.eye(2, 3, k=1).tolist()
        [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    n = static_int("eye", n_rows, "n_rows")
    m = n if n_cols is None else static_int("eye", n_cols, "n_cols")
    k = static_int("eye", k, "k")
    if n < 0 or m < 0:
        raise op_value_error("eye", f"n_rows and n_cols must be non-negative, got {n} and {m}")
    dt = _dt(dtype, D.default_float())
    rows = lax.broadcasted_iota(D.int32, (n, m), 0)
    cols = lax.broadcasted_iota(D.int32, (n, m), 1)
    diag = lax.eq(lax.add(rows, full_like_shape((n, m), k, D.int32)), cols)
    return put_on(lax.convert_element_type(diag, dt), device)


def identity(n: builtins.int, dtype: Any = None) -> Any:
    """The n x n identity matrix.

    Args:
        n: the number of rows and columns.
        dtype: the result dtype (None: the default float).

    Returns:
        An array of shape (n, n).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.identity(2).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    return eye(n, dtype=dtype)


def tri(N: builtins.int, M: builtins.int | None = None, k: builtins.int = 0, dtype: Any = None) -> Any:
    """Ones at and below the k-th diagonal of an N x M array.

    Args:
        N, M: the number of rows and columns (M None: N).
        k: the diagonal: 0 the main one, > 0 above, < 0 below.
        dtype: the result dtype (None: the default float).

    Returns:
        An array of shape (N, M) of zeros and ones.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.tri(3, k=-1).tolist()
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]
    """
    n = static_int("tri", N, "N")
    m = n if M is None else static_int("tri", M, "M")
    dt = _dt(dtype, D.default_float())
    return lax.convert_element_type(_tri_mask((n, m), k, lower=True), dt)


def _tri_mask(shape: tuple[int, ...], k: builtins.int, lower: builtins.bool) -> Any:
    n, m = shape[-2], shape[-1]
    rows = lax.broadcasted_iota(D.int32, (n, m), 0)
    cols = lax.broadcasted_iota(D.int32, (n, m), 1)
    shifted = lax.add(rows, full_like_shape((n, m), k, D.int32))
    mask = lax.ge(shifted, cols) if lower else lax.le(shifted, cols)
    if len(shape) > 2:
        mask = lax.broadcast_in_dim(mask, tuple(shape), (len(shape) - 2, len(shape) - 1))
    return mask


def _triangle(op: str, x: Any, k: Any, lower: builtins.bool) -> Any:
    x = to_array(x)
    if x.aval.ndim < 2:
        raise op_value_error(op, f"expects an array of at least 2 dimensions, got {x.aval.str_short()}")
    k = static_int(op, k, "k")
    mask = _tri_mask(x.aval.shape, k, lower)
    return lax.select(mask, x, full_like_shape(x.aval.shape, 0, x.aval.dtype))


def tril(x: Any, /, *, k: builtins.int = 0) -> Any:
    """Zero the elements above the k-th diagonal (of the last two axes).

    Args:
        x: an array of at least 2 dimensions.
        k: the diagonal kept last: 0 the main one, > 0 above, < 0 below.

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.tril(pnp.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])).tolist()
        [[1, 0, 0], [4, 5, 0], [7, 8, 9]]
    """
    return _triangle("tril", x, k, True)


def triu(x: Any, /, *, k: builtins.int = 0) -> Any:
    """Zero the elements below the k-th diagonal (of the last two axes).

    Args:
        x: an array of at least 2 dimensions.
        k: the diagonal kept first: 0 the main one, > 0 above, < 0 below.

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.triu(pnp.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), k=1).tolist()
        [[0, 2, 3], [0, 0, 6], [0, 0, 0]]
    """
    return _triangle("triu", x, k, False)


def meshgrid(*arrays: Any, indexing: str = "xy", sparse: builtins.bool = False,
             copy: builtins.bool = True) -> tuple[Any, ...]:
    """Coordinate grids from 1-D arrays ('xy': Cartesian, first two outputs swapped; 'ij': matrix);
    `sparse` keeps each grid 1 long on the other axes (they broadcast to the full grid).

    Args:
        arrays: 1-D arrays, one per axis of the grid (promoted to one dtype).
        indexing: 'xy' (Cartesian) or 'ij' (matrix).
        sparse: give each grid size 1 on the other axes instead of the full shape.
        copy: accepted for NumPy compatibility (arrays are immutable).

    Returns:
        A tuple of arrays, one per input.

    Examples:
        >>> import padax.numpy as pnp
        >>> xx, yy = pnp.meshgrid(pnp.array([1, 2, 3]), pnp.array([10, 20]))
        >>> xx.tolist(), yy.tolist()
        ([[1, 2, 3], [1, 2, 3]], [[10, 10, 10], [20, 20, 20]])
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    arrs = [to_array(a) for a in arrays]
    for a in arrs:
        if a.aval.ndim != 1:
            raise op_value_error("meshgrid", f"expects 1-D arrays, got {a.aval.str_short()}")
    if arrs:
        dt = D.result_type_of([(a.aval.dtype, False) for a in arrs])
        arrs = [a if a.aval.dtype == dt else lax.convert_element_type(a, dt) for a in arrs]
    shape = [a.aval.shape[0] for a in arrs]
    if indexing == "xy" and len(arrs) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrs):
        d = i
        if indexing == "xy" and len(arrs) > 1 and i < 2:
            d = 1 - i
        target = tuple(shape) if not sparse else tuple(n if j == d else 1 for j, n in enumerate(shape))
        out.append(lax.broadcast_in_dim(a, target, (d,)))
    return tuple(out)


def tril_indices(n: builtins.int, k: builtins.int = 0, m: builtins.int | None = None) -> tuple[Any, Any]:
    """Row and column indices of the lower triangle of an (n, m) array.

    Args:
        n: the number of rows.
        k: the diagonal bounding the triangle: 0 the main one, > 0 above, < 0 below.
        m: the number of columns (None: n).

    Returns:
        A tuple (rows, cols) of 1-D int64 arrays, row-major order.

    Examples:
        >>> import padax.numpy as pnp
        >>> rows, cols = pnp.tril_indices(3)
        >>> rows.tolist(), cols.tolist()
        ([0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2])
    """
    r, c = np.tril_indices(n, k, m)
    return to_array(r), to_array(c)


def triu_indices(n: builtins.int, k: builtins.int = 0, m: builtins.int | None = None) -> tuple[Any, Any]:
    """Row and column indices of the upper triangle of an (n, m) array.

    Args:
        n: the number of rows.
        k: the diagonal bounding the triangle: 0 the main one, > 0 above, < 0 below.
        m: the number of columns (None: n).

    Returns:
        A tuple (rows, cols) of 1-D int64 arrays, row-major order.

    Examples:
        >>> import padax.numpy as pnp
        >>> rows, cols = pnp.triu_indices(3, k=1)
        >>> rows.tolist(), cols.tolist()
        ([0, 0, 1], [1, 2, 2])
    """
    r, c = np.triu_indices(n, k, m)
    return to_array(r), to_array(c)


def diag_indices(n: builtins.int, ndim: builtins.int = 2) -> tuple[Any, ...]:
    """Indices of the main diagonal of an n x ... x n array.

    Args:
        n: the size of each axis.
        ndim: the number of axes.

    Returns:
        A tuple of `ndim` equal 1-D int64 arrays 0..n-1.

    Examples:
        >>> import padax.numpy as pnp
        >>> [i.tolist() for i in pnp.diag_indices(3)]
        [[0, 1, 2], [0, 1, 2]]
    """
    idx = to_array(np.arange(n))
    return (idx,) * ndim


def indices(dimensions: Any, dtype: Any = None, sparse: builtins.bool = False) -> Any:
    """An array of shape (len(dimensions), *dimensions) holding each position's index along each axis;
    `sparse` gives a tuple of arrays, each 1 long on the other axes.

    Args:
        dimensions: the grid's shape (a sequence of ints).
        dtype: the result dtype (None: the default int).
        sparse: return one broadcastable array per axis instead of one stacked array.

    Returns:
        An array of shape (len(dimensions), *dimensions), or a tuple of arrays with `sparse`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.indices((2, 3)).tolist()
        [[[0, 0, 0], [1, 1, 1]], [[0, 1, 2], [0, 1, 2]]]
    """
    dims = tuple(static_int("indices", d, "dimensions") for d in dimensions)
    dt = _dt(dtype, D.default_int())
    if sparse:
        return tuple(lax.broadcast_in_dim(lax.iota(dt, n), tuple(n if j == i else 1 for j in builtins.range(len(dims))),
                                          (i,)) for i, n in enumerate(dims))
    if not dims:
        return full_like_shape((0,), 0, dt)
    parts = [lax.reshape(lax.broadcasted_iota(dt, dims, i), (1,) + dims) for i in builtins.range(len(dims))]
    return lax.concatenate(parts, 0)


__all__ = ["asarray", "array", "from_dlpack", "zeros", "ones", "empty", "full", "zeros_like", "ones_like",
           "empty_like", "full_like", "arange", "linspace", "logspace", "geomspace", "eye", "identity", "tri",
           "tril", "triu", "meshgrid", "tril_indices", "triu_indices", "diag_indices", "indices"]
