"""Mutable array references, as in `jax.ref`: `new_ref`, `freeze`, `get`, `set`, `swap`, `addupdate`.

A `Ref` holds an array and is rebound to a new one on each write (no buffer is written in place).
Refs work eagerly and inside `jit`, control flow, `grad` and `vmap`: there they are effects on the
program, which a discharge pass turns into pure state passing before it is compiled.

Examples:
    >>> import padax
    >>> r = padax.new_ref(padax.zeros([3]))
    >>> r[1] = 5.0
    >>> r[...] += 1.0
    >>> padax.freeze(r).tolist()
    [1.0, 6.0, 1.0]
"""
from __future__ import annotations

from typing import Any

from padax.core.abstract import get_aval
from padax.core.ref import AbstractRef, Ref, RefError
from padax.functional import refs as _refs
from padax.functional.creation import zeros as _zeros


def new_ref(init_val: Any) -> Ref:
    """A new mutable array reference holding `init_val` (like `jax.new_ref`).

    Args:
        init_val: the initial array (a Tensor, numpy array or Python scalar).

    Returns:
        The Ref (inside a transformation: a traced ref).

    Examples:
        >>> import padax
        >>> r = padax.new_ref(padax.to_tensor([1.0, 2.0]))
        >>> r[0] = 10.0
        >>> r[...].tolist(), r.shape
        ([10.0, 2.0], (2,))
    """
    return _refs.new_ref(init_val)


def empty_ref(ty: Any) -> Ref:
    """A new Ref of the shape and dtype of `ty` (an array or ShapeDtypeStruct); it holds zeros.

    Examples:
        >>> import padax
        >>> r = padax.empty_ref(padax.ShapeDtypeStruct((2,), "int32"))
        >>> r[1] = 3
        >>> r[...].tolist()
        [0, 3]
    """
    aval = get_aval(ty)
    return _refs.new_ref(_zeros(list(aval.shape), dtype=aval.dtype))


def freeze(ref: Ref) -> Any:
    """The array `ref` holds now; the ref may not be used afterwards (like `jax.freeze`).

    Examples:
        >>> import padax
        >>> r = padax.new_ref(padax.to_tensor([1.0, 2.0]))
        >>> r[...] += 1.0
        >>> padax.freeze(r).tolist()
        [2.0, 3.0]
    """
    return _refs.freeze(ref)


def free_ref(ref: Ref) -> tuple:
    """End `ref` without reading it (like `jax.ref.free_ref`); it may not be used afterwards."""
    _refs.freeze(ref)
    return ()


def get(ref: Ref, idx: Any = None) -> Any:
    """`ref[idx]` (the whole array when idx is None).

    Examples:
        >>> import padax
        >>> r = padax.new_ref(padax.to_tensor([[1, 2], [3, 4]]))
        >>> padax.ref.get(r, (1, 0)).item(), padax.ref.get(r).tolist()
        (3, [[1, 2], [3, 4]])
    """
    return _refs.ref_get(ref, ... if idx is None else idx)


def swap(ref: Ref, idx: Any, value: Any) -> Any:
    """Write `value` at `ref[idx]` (the whole ref when idx is None); returns the old `ref[idx]`.

    Examples:
        >>> import padax
        >>> r = padax.new_ref(padax.to_tensor([1.0, 2.0]))
        >>> padax.ref.swap(r, 1, 5.0).item(), r[...].tolist()
        (2.0, [1.0, 5.0])
    """
    return _refs.ref_swap(ref, ... if idx is None else idx, value)


def set(ref: Ref, idx: Any, value: Any) -> None:  # noqa: A001 (jax.ref.set)
    """`ref[idx] = value` (the whole ref when idx is None)."""
    _refs.ref_set(ref, ... if idx is None else idx, value)


def addupdate(ref: Ref, idx: Any, x: Any) -> None:
    """`ref[idx] += x` as one accumulation (the whole ref when idx is None).

    Examples:
        >>> import padax
        >>> r = padax.new_ref(padax.zeros([3]))
        >>> padax.ref.addupdate(r, slice(1, None), padax.ones([2]))
        >>> r[...].tolist()
        [0.0, 1.0, 1.0]
    """
    _refs.ref_addupdate(ref, ... if idx is None else idx, x)


__all__ = ["AbstractRef", "Ref", "RefError", "new_ref", "empty_ref", "freeze", "free_ref", "get", "set", "swap", "addupdate"]
