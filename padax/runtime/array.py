"""`padax.Tensor` (alias `padax.Array`): an immutable array over a device buffer.

A Tensor owns one jaxlib array (`_buf`) and its aval. No buffer is ever written;
`x.at[idx].set(v)` and friends return new Tensors, and Paddle's in-place methods
(`x.add_(y)`, `x[i] = v`) rebind the object to the new value (`_rebind`). Operators and Paddle's
methods are attached by `padax.functional.methods` (the same set that
tracers get), so this file only holds the device- and host-facing parts.
"""
from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from padax.core.abstract import AvalProperties, ShapedArray
from padax.core.errors import DeletedBufferError
from padax.core.source_info import user_location
from padax.runtime import _jaxlib
from padax.runtime.place import place_of
from padax.runtime.printing import tensor_repr
from padax.runtime.sharding import assemble_host, sharding_of_buffer


def deleted_error(aval: ShapedArray, consumer: str | None = None) -> DeletedBufferError:
    where = f"to {consumer} " if consumer else ""
    return DeletedBufferError(
        f"Tensor {aval.str_short()} was donated {where}(donate_argnums) or deleted, and its buffer has been "
        f"reused{user_location()}; it cannot be read or passed to an operation any more. Use the call's "
        "output instead, or do not donate this argument.")


class DonatedBuffer:
    """What a Tensor holds after a jit call consumed its buffer: every use raises DeletedBufferError
    (the C++ dispatcher cannot read it either, so calls with it take the Python path, which reports it)."""

    __slots__ = ("aval", "consumer")

    def __init__(self, aval: ShapedArray, consumer: str):
        self.aval, self.consumer = aval, consumer

    def is_deleted(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:
        raise deleted_error(self.aval, self.consumer)


def mark_donated(tensors: Any, mask: Any, consumer: str) -> None:
    """After a call that donated these Tensors (mask: which) replace their deleted buffers by DonatedBuffer."""
    for t, donated in zip(tensors, mask):
        if donated and type(t) is Tensor and type(t._buf) is not DonatedBuffer and t._buf.is_deleted():
            t._buf = DonatedBuffer(t.aval, consumer)
            t._npy = None


def raise_if_deleted(tensors: Any) -> None:
    """A DeletedBufferError when one of these Tensors' buffers is gone (called after a failed execution)."""
    for t in tensors:
        if type(t) is Tensor and t._buf.is_deleted():
            raise deleted_error(t.aval, getattr(t._buf, "consumer", None) or None) from None


# Tensors that compiled programs took as constants (a jitted function closing over them), by id: an
# in-place update of one (a rebinding) drops every compiled program, which would otherwise keep using
# its old buffer. The dropping is installed by padax.transforms.jit (a higher floor).
_captured: "weakref.WeakValueDictionary[int, Tensor]" = weakref.WeakValueDictionary()
_on_captured_rebind: list = []


def capture_constants(consts: Any) -> None:
    """Note the Tensors among a compiled program's constants (see `_captured`)."""
    for c in consts:
        if type(c) is Tensor:
            _captured[id(c)] = c


def on_captured_rebind(drop: Any) -> None:
    """Run `drop()` when a Tensor that a compiled program captured is updated in place."""
    _on_captured_rebind.append(drop)


class Tensor(AvalProperties):
    """An immutable array held on one or more devices: what padax functions take and return (also named
    `padax.Array`). Build one with padax.to_tensor; it has Paddle's methods and operators, and updates are
    functional (`x.at[i].set(v)` returns a new Tensor).

    Args:
        _buf: the device buffer (internal: build Tensors with padax.to_tensor or padax.device_put).
        aval: its abstract value (shape and dtype); None reads it from the buffer.

    Returns:
        The Tensor wrapping the buffer.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> x.shape, x.dtype, (x * 2 + 1).tolist()
        ((2, 2), dtype('float32'), [[3.0, 5.0], [7.0, 9.0]])
        >>> x.at[0, 1].set(9.0).tolist(), x.sum(axis=1).tolist()
        ([[1.0, 9.0], [3.0, 4.0]], [3.0, 7.0])
    """
    # _tape: set only on a GradTensor, a Tensor that needs a gradient (padax/interpreters/tape.py)
    __slots__ = ("_buf", "aval", "_npy", "_tape", "__weakref__")
    __array_priority__ = 1000

    def __init__(self, _buf: Any, aval: ShapedArray | None = None):
        # (the C++ jit dispatcher rebuilds results as `Tensor(_buf=b)`: b.aval is padax's aval)
        self._buf = _buf
        self.aval = aval if aval is not None else _buf.aval
        self._npy = None

    def _rebind(self, other: "Tensor") -> "Tensor":
        """Make this object hold `other`'s value (buffer and aval): how an in-place update is
        functionalized. No buffer is written; the old one is dropped, the host cache reset."""
        self._buf, self.aval, self._npy = other._buf, other.aval, None
        if _captured and id(self) in _captured:  # compiled programs hold its old buffer: drop them
            _captured.clear()
            for drop in _on_captured_rebind:
                drop()
        return self

    # -- metadata (shape, dtype, ndim, size, len: AvalProperties) --------------------
    @property
    def device(self):
        """The (first) device holding this array."""
        return self._buf._sharding._internal_device_list[0]

    @property
    def sharding(self):
        """How the array is laid out over devices (a padax.sharding object)."""
        return sharding_of_buffer(self._buf)

    @property
    def addressable_shards(self) -> list:
        """This process's pieces: objects with `.device`, `.index` (slices) and `.data` (a Tensor)."""
        sharding = sharding_of_buffer(self._buf)
        idx_map = sharding.devices_indices_map(self.aval.shape)
        if sharding.num_devices == 1:
            return [Shard(self.device, idx_map[self.device], self)]
        out = []
        for a in self._buf._arrays:
            dev = _jaxlib.array_device(a)
            idx = idx_map[dev]
            shape = tuple(len(range(*s.indices(n))) for s, n in zip(idx, self.aval.shape))
            out.append(Shard(dev, idx, Tensor(a, self.aval.update(shape=shape))))
        return out

    @property
    def is_fully_replicated(self) -> bool:
        return self.sharding.is_fully_replicated_for(len(self.aval.shape))

    @property
    def is_fully_addressable(self) -> bool:
        return self.sharding.is_fully_addressable

    @property
    def place(self):
        """Paddle's Place of the (first) device: prints as `Place(cpu)` / `Place(gpu:0)`."""
        return place_of(self.device)

    def devices(self) -> set:
        return set(self._buf._sharding._internal_device_list)

    # -- host access -------------------------------------------------------------
    def _value(self) -> np.ndarray:
        """The host value, read once and cached (read-only)."""
        v = self._npy
        if v is None:
            buf = self._buf
            if buf.is_deleted():
                raise deleted_error(self.aval, getattr(buf, "consumer", None))
            if len(buf._sharding._internal_device_list) == 1:
                v = _jaxlib.to_numpy(buf)
            else:
                v = assemble_host(buf, self.aval)
            self._npy = v
        return v

    def numpy(self) -> np.ndarray:
        """A writable host copy, as Paddle's `Tensor.numpy()`."""
        return np.array(self._value())

    def item(self, *args) -> Any:
        v = self._value()
        if args:
            return v.item(*args)
        if v.size != 1:
            raise ValueError(f"Tensor.item(): only a Tensor with one element can be converted "
                             f"to a Python scalar, got shape {self.shape}")
        return v.item()

    def tolist(self) -> Any:
        return self._value().tolist()

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        v = self._value()
        if dtype is not None and np.dtype(dtype) != v.dtype:
            return v.astype(dtype)
        return np.array(v) if copy else v

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        v = self._value()
        if max_version is None:  # the old protocol cannot mark the (cached, read-only) host value read-only
            return np.array(v).__dlpack__(stream=stream)
        return v.__dlpack__(stream=stream, max_version=max_version)

    def __dlpack_device__(self):
        return self._value().__dlpack_device__()

    def block_until_ready(self) -> "Tensor":
        self._buf.block_until_ready()
        return self

    def is_ready(self) -> bool:
        """Whether the value has been computed (False only while async CPU dispatch or an accelerator runs it)."""
        return self._buf.is_ready()

    def is_deleted(self) -> bool:
        return self._buf.is_deleted()

    def __bool__(self) -> bool:
        return bool(self._value())

    def _scalar(self, what: str) -> Any:
        v = self._value()
        if v.size != 1:
            raise TypeError(f"{what}: only a Tensor with one element can be converted to a Python scalar, "
                            f"got shape {list(self.shape)}")
        return v.reshape(()).item()

    def __int__(self) -> int:
        return int(self._scalar("int()"))

    def __float__(self) -> float:
        return float(self._scalar("float()"))

    def __complex__(self) -> complex:
        return complex(self._scalar("complex()"))

    def __index__(self) -> int:
        if self.aval.shape or not (self.dtype.kind in "iub"):
            raise TypeError(f"only integer scalar Tensors can be used as an index, got {self.aval.str_short()}")
        return int(self._value())

    __hash__ = None  # type: ignore[assignment]

    def __iter__(self):
        if not self.aval.shape:
            raise TypeError("iteration over a 0-d Tensor")
        return (self[i] for i in range(self.aval.shape[0]))

    def __reduce__(self):
        return (_rebuild, (self.numpy(), self.weak_type))

    def __repr__(self) -> str:
        try:
            value = self._value()
        except RuntimeError as e:  # a donated buffer
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype.name}, <{e}>)"
        return tensor_repr(value, self.shape, self.dtype.name, str(self.place), not hasattr(self, "_tape"))

    def __format__(self, spec: str) -> str:
        if self.aval.shape == ():
            return format(self._value().item(), spec)
        return format(self._value(), spec) if spec else repr(self)


class Shard:
    """One device's piece of a Tensor: `device`, `index` (a tuple of slices of the global array), `data`."""

    __slots__ = ("device", "index", "data")

    def __init__(self, device, index: tuple, data: "Tensor"):
        self.device = device
        self.index = index
        self.data = data

    def __repr__(self) -> str:
        return f"Shard(device={self.device!r}, index={self.index}, data={self.data.aval.str_short()})"


def _rebuild(value: np.ndarray, weak_type: bool) -> Tensor:
    from padax.runtime.put import device_put  # cycle: padax.runtime.put imports Tensor from this module at load
    return device_put(value)


Array = Tensor
