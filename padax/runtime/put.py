"""Host -> device transfer: `padax.device_put`, and converting host values to Tensors."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.config import config
from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.runtime import _jaxlib, backend, sharding as sh, tree as tree_util
from padax.runtime.array import Tensor
from padax.runtime.place import Place
from padax.runtime.sharding import PartitionSpec, Sharding, resolve_sharding

_SCALAR_TYPES = (bool, int, float, complex)


def host_to_tensor(value: np.ndarray, aval: ShapedArray, device=None) -> Tensor:
    """Copy a host ndarray (already of `aval.dtype`) to a device."""
    dev = device if device is not None else backend.default_device()
    sharding = backend.single_device_sharding(dev)
    buf = _jaxlib.device_put(aval, sharding, [value], [dev], config.enable_x64)
    t = Tensor(buf, aval)
    return t


def check_integer_range(op: str, arr: np.ndarray, dtype: np.dtype) -> None:
    """An OverflowError when integer host data would not fit `dtype` (numpy 2 and jax raise; Paddle wraps).

    Only narrowing conversions are checked (a scan over the data), so wide-to-wide copies cost nothing.
    """
    if arr.dtype.kind not in "iub" or dtype.kind not in "iu" or arr.size == 0:
        return
    info = np.iinfo(dtype)
    src = np.iinfo(arr.dtype) if arr.dtype.kind != "b" else None
    if src is not None and src.min >= info.min and src.max <= info.max:
        return
    lo, hi = int(arr.min()), int(arr.max())
    if lo < info.min or hi > info.max:
        bad = lo if lo < info.min else hi
        raise OverflowError(f"{op}: the integer {bad} is out of range for {dtype.name} "
                            f"[{info.min}, {info.max}]; padax refuses to wrap it silently (numpy 2 and jax "
                            f"do the same). Pick a wider dtype, or wrap explicitly with numpy's astype first")


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
            check_integer_range("device_put", arr, dt)
            return np.asarray(arr, dtype=dt), False
    if arr.dtype == object or arr.dtype.kind in "USOM" or (arr.dtype.kind == "V" and arr.dtype not in dtypes.ALL_DTYPES):
        raise TypeError(f"cannot convert a numpy array of dtype {arr.dtype} to a Tensor")
    dt = dtypes.canonicalize(arr.dtype) if dtype is None else dtype
    check_integer_range("device_put", arr, dt)
    return np.asarray(arr, dtype=dt), weak


_PLATFORM_ALIASES = {"gpu": ("cuda", "rocm"), "cuda": ("cuda",), "rocm": ("rocm",), "cpu": ("cpu",),
                     "tpu": ("tpu",), "xpu": ()}


def device_by_name(name: str):
    """The device a Paddle-style place string names: 'cpu', 'cpu:1', 'gpu:0' (a clear error if absent)."""
    kind, _, index = name.strip().lower().partition(":")
    if kind not in _PLATFORM_ALIASES or (index and not index.isdigit()):
        raise ValueError(f"device_put: unknown device {name!r}; use 'cpu', 'cpu:N' or 'gpu:N', or a device "
                         f"from padax.devices()")
    found = []
    for platform in _PLATFORM_ALIASES[kind]:
        try:
            found = backend.devices(platform)
        except RuntimeError:
            continue
        if found:
            break
    i = int(index or 0)
    if i >= len(found):
        available = ", ".join(f"{d.platform}:{d.id}" for d in backend.devices()) or "none"
        raise ValueError(f"device_put: device {name!r} is not available; padax has: {available}")
    return found[i]


def device_put(x: Any, device=None, dtype: Any = None) -> Tensor:
    """Put a host value or Tensor on a device (default: the default device) or lay it out on a sharding.

    `device` may be a Device, or a padax sharding (`NamedSharding(mesh, P('x'))`,
    `SingleDeviceSharding(dev)`, or `P('x')` on the context mesh of padax.set_mesh): the
    value is then cut into pieces, one per
    device, and the result is one Tensor spanning those devices. A pytree of
    values with one sharding (or a matching pytree of shardings) is also taken.

    Args:
        x: a Tensor, numpy array, Python scalar or (nested) list; or a pytree of them with a sharding.
        device: a Device, a place ('cpu:0', CPUPlace()), a sharding, or None for the default device.
        dtype: convert to this dtype on the way.

    Returns:
        A Tensor on `device` (`x` itself when it is already there with that dtype).

    Examples:
        >>> import numpy as np, padax
        >>> x = padax.device_put(np.array([1.0, 2.0]), padax.devices('cpu')[0])
        >>> x.devices(), x.dtype, x.tolist()
        ({CpuDevice(id=0)}, dtype('float64'), [1.0, 2.0])
    """
    if isinstance(device, Place):  # Paddle's CPUPlace() / CUDAPlace(i)
        device = "cpu" if device.kind == "cpu" else f"{device.kind}:{device.index}"
    if isinstance(device, str):
        device = device_by_name(device)
    elif isinstance(device, PartitionSpec):  # on the context mesh (padax.set_mesh)
        device = resolve_sharding(device, "device_put")
    if isinstance(device, (Sharding, list, tuple, dict)):
        return _put_sharded_tree(x, device, dtype)
    if device is not None and not isinstance(device, _jaxlib.Device):
        raise TypeError(f"device_put: device must be a Device (padax.devices()[i]), a place string such as "
                        f"'cpu:0', or a sharding; got {type(device).__name__}: {device!r:.60}")
    if isinstance(x, Tensor):
        if dtype is not None and dtypes.canonicalize(dtype) != x.dtype:
            return device_put(x._value(), device, dtype)
        if device is None or x.device == device:
            return x
        return host_to_tensor(x._value(), x.aval, device)
    dt = None if dtype is None else dtypes.canonicalize(dtype)
    arr, weak = _as_host_array(x, dt)
    return host_to_tensor(arr, ShapedArray(arr.shape, arr.dtype, weak), device)


def _put_sharded_tree(x: Any, sharding: Any, dtype: Any) -> Any:
    if isinstance(sharding, Sharding):
        if isinstance(x, (Tensor, np.ndarray, np.generic) + _SCALAR_TYPES):
            return put_sharded(x, sharding, dtype)
        return tree_util.map(lambda v: put_sharded(v, sharding, dtype), x)
    shard_leaves = [resolve_sharding(s, "device_put") for s in
                    tree_util.leaves(sharding, is_leaf=lambda s: isinstance(s, (Sharding, PartitionSpec)))]
    x_leaves, x_tree = tree_util.flatten(x)
    if len(shard_leaves) != len(x_leaves):
        raise ValueError(f"device_put: {len(x_leaves)} values but {len(shard_leaves)} shardings were given")
    for s in shard_leaves:
        if not isinstance(s, Sharding):
            raise TypeError(f"device_put: expected a Device or a padax sharding, got {type(s).__name__}")
    return x_tree.unflatten([put_sharded(v, s, dtype) for v, s in zip(x_leaves, shard_leaves)])


def put_sharded(x: Any, sharding, dtype: Any = None) -> Tensor:
    """One Tensor over `sharding`'s devices holding the global value `x`."""
    if isinstance(x, Tensor):
        if dtype is not None and dtypes.canonicalize(dtype) != x.dtype:
            return put_sharded(x._value(), sharding, dtype)
        sharding.check_shape(x.aval.shape)
        buf = sh.reshard_buffer(x._buf, x.aval, sharding, config.enable_x64)
        return x if buf is x._buf else Tensor(buf, x.aval)
    dt = None if dtype is None else dtypes.canonicalize(dtype)
    arr, weak = _as_host_array(x, dt)
    aval = ShapedArray(arr.shape, arr.dtype, weak)
    if isinstance(sharding, sh.SingleDeviceSharding):
        return host_to_tensor(arr, aval, sharding.device)
    return Tensor(sh.put_host_array(arr, aval, sharding, config.enable_x64), aval)


def device_get(x: Any) -> Any:
    """A pytree of Tensors (and other values) copied to the host: Tensors become numpy arrays.

    Args:
        x: a pytree of Tensors and other values.

    Returns:
        The same pytree with every Tensor replaced by a numpy array (other leaves unchanged).

    Examples:
        >>> import padax
        >>> padax.device_get({'step': 3, 'w': padax.to_tensor([1.0, 2.0])})
        {'step': 3, 'w': array([1., 2.], dtype=float32)}
    """
    return tree_util.map(lambda v: v._value() if isinstance(v, Tensor) else v, x)


def block_until_ready(x: Any) -> Any:
    """Wait until every Tensor in the pytree `x` is computed (for timing: padax dispatches asynchronously);
    returns `x`.

    Args:
        x: a pytree that may hold Tensors.

    Returns:
        `x` itself, once all its Tensors are computed.

    Examples:
        >>> import padax
        >>> padax.block_until_ready({'y': padax.to_tensor([1.0, 2.0]) * 2})['y'].tolist()
        [2.0, 4.0]
    """
    for v in tree_util.leaves(x):
        if isinstance(v, Tensor):
            v.block_until_ready()
    return x
