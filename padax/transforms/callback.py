"""Calling Python from traced and compiled code: `padax.pure_callback` and `io_callback`.

The host function receives numpy arrays and returns numpy arrays (or Python
scalars) of the declared shapes and dtypes. Inside `jit` it runs when the
compiled program reaches it (XLA's host-callback custom call); eagerly it
runs right away. An exception it raises comes out of the call as itself,
with its traceback. A result of the wrong shape or dtype is an error that
names the callback and says what was expected and what was received.

A pure callback is not differentiable by itself; give it a derivative rule
with `custom_jvp` (or `custom_vjp`), for example a scipy function::

    import scipy.special

    @padax.custom_jvp
    def bessel_j0(x):
        return padax.pure_callback(lambda v: scipy.special.j0(v).astype(v.dtype),
                                   padax.ShapeDtypeStruct(x.shape, x.dtype), x,
                                   vmap_method="expand_dims")

    @bessel_j0.defjvp
    def _(primals, tangents):
        (x,), (t,) = primals, tangents
        d = padax.pure_callback(lambda v: (-scipy.special.j1(v)).astype(v.dtype),
                                padax.ShapeDtypeStruct(x.shape, x.dtype), x,
                                vmap_method="expand_dims")
        return bessel_j0(x), d * t

    padax.grad(lambda x: bessel_j0(x).sum())(x)   # -J1(x), also under jit and vmap
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.functional._arrays import asarray, is_array
from padax.functional.lax.callback import (  # noqa: F401
    VMAP_METHODS,
    CallbackResultError,
    HostFunction,
    io_callback_p,
    pure_callback_p,
)
from padax.runtime import tree as tree_util

__all__ = ["pure_callback", "io_callback", "CallbackResultError"]


def _result_avals(what: str, result_shape_dtypes: Any) -> tuple[list[ShapedArray], Any]:
    leaves, tree = tree_util.flatten(result_shape_dtypes)
    avals = []
    for leaf in leaves:
        shape, dtype = getattr(leaf, "shape", None), getattr(leaf, "dtype", None)
        if shape is None or dtype is None:
            raise TypeError(f"{what}: result_shape_dtypes must be a pytree of objects with .shape and .dtype "
                            f"(padax.ShapeDtypeStruct, arrays), got {type(leaf).__name__}: {leaf!r}")
        avals.append(ShapedArray(tuple(int(d) for d in shape), dtypes.canonicalize(np.dtype(dtype))))
    return avals, tree


def flat_host_function(fn: Callable, what: str, in_tree, out_tree) -> HostFunction:
    """`fn` as a function of flat numpy operands returning flat results (checked by HostFunction)."""
    def flat(*leaves):
        args, kwargs = in_tree.unflatten(leaves)
        out = fn(*args, **kwargs)
        if out_tree is None:
            return ()
        try:
            return out_tree.flatten_up_to(out)
        except (ValueError, TypeError):
            raise CallbackResultError(f"{what}: the callback returned {tree_util.structure(out)} but "
                                      f"result_shape_dtypes has the structure {out_tree}") from None
    return HostFunction(flat, what)


def _operands(args: tuple, kwargs: dict):
    leaves, in_tree = tree_util.flatten((args, kwargs))
    return [x if is_array(x) else asarray(x) for x in leaves], in_tree


def pure_callback(callback: Callable[..., Any], result_shape_dtypes: Any, *args: Any,
                  vmap_method: str | None = None, **kwargs: Any) -> Any:
    """Call a side-effect-free host function `callback(*args, **kwargs)` from traced code.

    `result_shape_dtypes` is a pytree of `padax.ShapeDtypeStruct` (or arrays)
    describing the results. Under `vmap`, `vmap_method` says how batches are
    handled: "sequential" or "sequential_unrolled" (the function is called once per batch element),
    "expand_dims" (called once; unbatched arguments get a leading axis of size 1)
    or "broadcast_all" (called once; every argument broadcast to the batch).
    padax may skip the call if its results are unused, or repeat it.
    """
    if vmap_method is not None and vmap_method not in VMAP_METHODS:
        raise ValueError(f"pure_callback: vmap_method must be one of {', '.join(VMAP_METHODS)} or None, "
                         f"got {vmap_method!r}")
    what = f"pure_callback({getattr(callback, '__name__', type(callback).__name__)})"
    avals, out_tree = _result_avals(what, result_shape_dtypes)
    leaves, in_tree = _operands(args, kwargs)
    outs = pure_callback_p.bind(*leaves, callback=flat_host_function(callback, what, in_tree, out_tree),
                                result_avals=tuple(avals), vmap_method=vmap_method, batch_ndim=0)
    return out_tree.unflatten(outs)


def io_callback(callback: Callable[..., Any], result_shape_dtypes: Any, *args: Any, ordered: bool = False,
                **kwargs: Any) -> Any:
    """Call a host function with side effects (I/O, logging, state) from traced code.

    It is kept even if its results are unused. With `ordered=True` the calls happen in program
    order, also relative to other ordered callbacks and `debug.print(..., ordered=True)`; an
    ordered io_callback cannot be vmapped.

    Args:
        callback: a Python function of numpy arrays.
        result_shape_dtypes: a tree of ShapeDtypeStruct (or arrays) describing its results, or None
            for a function without results.
        args, kwargs: the arrays passed to it.
        ordered: keep program order.

    Returns:
        callback's results as arrays (a tree like `result_shape_dtypes`), or None.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> from padax.experimental import io_callback
        >>> seen = []
        >>> def record(x):
        ...     seen.append(x.tolist())
        ...     return np.float32(x.sum())
        >>> f = padax.jit(lambda x: io_callback(record, padax.ShapeDtypeStruct((), 'float32'), x * 2, ordered=True))
        >>> f(padax.to_tensor([1.0, 2.0])).tolist(), seen
        (6.0, [[2.0, 4.0]])
    """
    what = f"io_callback({getattr(callback, '__name__', type(callback).__name__)})"
    if result_shape_dtypes is None:
        avals, out_tree = [], None
    else:
        avals, out_tree = _result_avals(what, result_shape_dtypes)
    leaves, in_tree = _operands(args, kwargs)
    outs = io_callback_p.bind(*leaves, callback=flat_host_function(callback, what, in_tree, out_tree),
                              result_avals=tuple(avals), ordered=bool(ordered), batch_ndim=0)
    return None if out_tree is None else out_tree.unflatten(outs)
