"""Host -> device transfer: `padax.device_put`, and converting host values to Tensors."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.config import config
from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.devices import _jaxlib, backend
from padax.devices.array import Tensor

_SCALAR_TYPES = (bool, int, float, complex)


def host_to_tensor(value: np.ndarray, aval: ShapedArray, device=None) -> Tensor:
    """Copy a host ndarray (already of `aval.dtype`) to a device."""
    dev = device if device is not None else backend.default_device()
    sharding = backend.single_device_sharding(dev)
    buf = _jaxlib.device_put(aval, sharding, [value], [dev], config.enable_x64)
    t = Tensor(buf, aval)
    return t


def _as_host_array(x: Any, dtype: np.dtype | None) -> tuple[np.ndarray, bool]:
    """Host ndarray of the canonical dtype, and whether it is weakly typed."""
    weak = False
    if isinstance(x, _SCALAR_TYPES) and not isinstance(x, np.generic):  # np.float64 is a float subclass
        weak = dtype is None
        dt = dtypes.python_scalar_dtype(x) if dtype is None else dtype
        if isinstance(x, int) and not isinstance(x, bool) and dtypes.is_integer(dt):
            info = np.iinfo(dt)
            if not info.min <= x <= info.max:
                raise OverflowError(f"Python int {x} is out of range for {dt.name}")
        return np.asarray(x, dtype=dt), weak
    if isinstance(x, np.ndarray) or isinstance(x, np.generic):
        arr = np.asarray(x)
    else:
        arr = np.asarray(x)
        if dtype is None:
            if arr.dtype == object:
                raise TypeError(f"cannot convert {type(x).__name__} to a Tensor: it has no numeric dtype")
            dt = dtypes.dtype_of_value(x)
            return np.asarray(arr, dtype=dt), False
    if arr.dtype == object or arr.dtype.kind in "USOM" or (arr.dtype.kind == "V" and arr.dtype not in dtypes.ALL_DTYPES):
        raise TypeError(f"cannot convert a numpy array of dtype {arr.dtype} to a Tensor")
    dt = dtypes.canonicalize(arr.dtype) if dtype is None else dtype
    return np.asarray(arr, dtype=dt), weak


def device_put(x: Any, device=None, dtype: Any = None) -> Tensor:
    """Put a host value or Tensor on a device (default: the default device)."""
    if isinstance(x, Tensor):
        if dtype is not None and dtypes.canonicalize(dtype) != x.dtype:
            return device_put(x._value(), device, dtype)
        if device is None or x.device == device:
            return x
        return host_to_tensor(x._value(), x.aval, device)
    dt = None if dtype is None else dtypes.canonicalize(dtype)
    arr, weak = _as_host_array(x, dt)
    return host_to_tensor(arr, ShapedArray(arr.shape, arr.dtype, weak), device)
