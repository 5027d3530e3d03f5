"""jax.numpy's bit packing: packbits and unpackbits (uint8 bytes, big or little bit order)."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

import padax.numpy as pnp
from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.numpy._util import axis as _axis, to_array


def packbits(a: Any, axis: builtins.int | None = None, bitorder: str = "big") -> Any:
    """Nonzero/zero entries packed 8 to a uint8 along `axis` (flattened if None), zero-padded to a multiple of 8.

    Args:
        a: an integer or boolean array.
        axis: the axis to pack; None packs the flattened array.
        bitorder: 'big' (first element in the high bit) or 'little'.

    Returns:
        A uint8 array, ceil(n / 8) long along axis.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.packbits(pnp.array([1, 0, 1, 1, 0, 0, 0, 0, 1])).tolist()
        [176, 128]
    """
    x = to_array(a)
    if x.aval.dtype != np.bool_ and x.aval.dtype.kind not in "iu":
        raise op_type_error("packbits", f"expected an integer or boolean array, got {x.aval.str_short()}")
    if bitorder not in ("big", "little"):
        raise op_value_error("packbits", f"bitorder must be 'big' or 'little', got {bitorder!r}")
    x = pnp.astype(x != 0, np.uint8)
    if axis is None:
        x, ax = pnp.ravel(x), 0
    else:
        ax = _axis("packbits", axis, x.aval.ndim)
    x = pnp.moveaxis(x, ax, -1)
    rem = x.aval.shape[-1] % 8
    if rem:
        x = pnp.pad(x, [(0, 0)] * (x.aval.ndim - 1) + [(0, 8 - rem)])
    x = lax.reshape(x, x.aval.shape[:-1] + (x.aval.shape[-1] // 8, 8))
    shifts = np.arange(8, dtype=np.uint8)
    if bitorder == "big":
        shifts = shifts[::-1].copy()
    packed = pnp.sum(pnp.left_shift(x, to_array(shifts)), axis=-1, dtype=np.uint8)
    return pnp.moveaxis(packed, -1, ax)


def unpackbits(a: Any, axis: builtins.int | None = None, count: builtins.int | None = None,
               bitorder: str = "big") -> Any:
    """The bits of a uint8 array as 0/1 uint8 entries along `axis` (flattened if None).

    Args:
        a: a uint8 array.
        axis: the axis to unpack; None unpacks the flattened array.
        count: keep this many bits along axis (negative drops from the end; more pads with zeros).
        bitorder: 'big' (high bit first) or 'little'.

    Returns:
        A uint8 array 8 times as long along axis (or `count` long).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.unpackbits(pnp.array([5], dtype=pnp.uint8)).tolist()
        [0, 0, 0, 0, 0, 1, 0, 1]
    """
    x = to_array(a)
    if x.aval.dtype != np.uint8:
        raise op_type_error("unpackbits", f"expected a uint8 array, got {x.aval.str_short()}")
    if bitorder not in ("big", "little"):
        raise op_value_error("unpackbits", f"bitorder must be 'big' or 'little', got {bitorder!r}")
    if axis is None:
        x, ax = pnp.ravel(x), 0
    else:
        ax = _axis("unpackbits", axis, x.aval.ndim)
    x = pnp.moveaxis(x, ax, -1)
    shifts = np.arange(8, dtype=np.uint8)
    if bitorder == "big":
        shifts = shifts[::-1].copy()
    bits = pnp.bitwise_and(pnp.right_shift(pnp.expand_dims(x, axis=-1), to_array(shifts)), to_array(np.uint8(1)))
    bits = lax.reshape(bits, bits.aval.shape[:-2] + (bits.aval.shape[-2] * 8,))
    if count is not None:
        n = bits.aval.shape[-1]
        if count > n:
            bits = pnp.pad(bits, [(0, 0)] * (bits.aval.ndim - 1) + [(0, count - n)])
        else:
            bits = bits[..., :count]
    return pnp.moveaxis(bits, -1, ax)


__all__ = ["packbits", "unpackbits"]
