"""DLPack exchange: `from_dlpack` and `to_dlpack` (Paddle's `paddle.utils.dlpack` names, at top level)."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.functional._arrays import asarray
from padax.functional._checks import placed
from padax.functional.creation import to_tensor


def from_dlpack(dlpack: Any, *, device: Any = None, copy: bool | None = None) -> Any:
    """A Tensor with the values of an array from another library that speaks DLPack (an object with
    `__dlpack__`: a numpy array, a Paddle or torch Tensor, ...); the values are copied.

    Args:
        dlpack: an object with `__dlpack__`, or a DLPack capsule of host memory.
        device: where to place the result; None: the default device.
        copy: accepted for the array-API signature; the values are always copied.

    Returns:
        A Tensor with the source's shape and dtype.

    Examples:
        >>> import numpy as np, padax
        >>> x = padax.from_dlpack(np.array([1.0, 2.0]))
        >>> x.dtype, x.tolist()
        (dtype('float64'), [1.0, 2.0])
        >>> padax.from_dlpack(padax.to_dlpack(x)).tolist()   # a capsule, as Paddle's to_dlpack returns
        [1.0, 2.0]
    """
    if type(dlpack).__name__ == "PyCapsule":
        dlpack = _HostCapsule(dlpack)
    elif not hasattr(dlpack, "__dlpack__"):
        raise TypeError(f"from_dlpack: expected an array with __dlpack__ or a DLPack capsule, "
                        f"got {type(dlpack).__name__}")
    return placed(to_tensor(np.from_dlpack(dlpack)), device)


class _HostCapsule:
    """A bare DLPack capsule (Paddle's to_dlpack) in the protocol numpy reads: numpy itself refuses a
    capsule whose tensor is not in host memory, and a capsule already consumed."""

    def __init__(self, capsule: Any) -> None:
        self._capsule = capsule

    def __dlpack__(self, **_: Any) -> Any:
        return self._capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)   # kDLCPU


def to_dlpack(x: Any) -> Any:
    """A DLPack capsule of x's values (a host copy) for another library's from_dlpack (a padax Tensor also
    has `__dlpack__`, so numpy.from_dlpack(x) takes it directly).

    Args:
        x: a Tensor (or array-like).

    Returns:
        A DLPack PyCapsule that can be consumed once.

    Examples:
        >>> import numpy as np, padax
        >>> type(padax.to_dlpack(padax.to_tensor([1, 2]))).__name__
        'PyCapsule'
        >>> np.from_dlpack(padax.to_tensor([1, 2])).tolist()
        [1, 2]
    """
    return asarray(x).__dlpack__()


__all__ = ["from_dlpack", "to_dlpack"]
