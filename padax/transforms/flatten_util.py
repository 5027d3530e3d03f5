"""`ravel_pytree`: a pytree of arrays as one flat vector, and the function that maps such a vector back
(jax.flatten_util's, with its semantics); `padax.flatten_util` is its public module.

The solvers that work on flat vectors (implicit differentiation, the optimizers, the ODE solvers) use it.
"""
from __future__ import annotations

from typing import Any, Callable

from padax.core import dtypes
from padax.functional._arrays import aval_of, full
from padax.functional.lax.structural import concatenate, convert_element_type, reshape, slice as lslice
from padax.runtime import tree as tree_util

__all__ = ["ravel_pytree"]


def ravel_pytree(pytree: Any) -> tuple[Any, Callable[[Any], Any]]:
    """Ravel (flatten) a pytree of arrays down to a 1-D array, as jax.flatten_util.ravel_pytree does.

    The leaves are raveled and concatenated in tree order, in the dtype their dtypes promote to.
    `unravel` maps a 1-D vector of that length back to a pytree of the input's structure, leaves of
    the input's shapes: when the leaves had different dtypes, each piece is cast back to its leaf's
    dtype (and `unravel` wants a vector of the promoted dtype); when they all had one dtype, nothing is
    cast, so `unravel` keeps the dtype of the vector it is given (a float64 cotangent stays float64).
    An empty pytree gives an empty float32 vector.

    Args:
        pytree: a pytree of arrays and scalars.

    Returns:
        The pair (flat, unravel): the 1-D vector of all leaf values and the function mapping such a
        vector back to the pytree.

    Examples:
        >>> import numpy as np
        >>> from padax.flatten_util import ravel_pytree
        >>> flat, unravel = ravel_pytree({"b": np.float32(1.0), "w": np.ones((2, 2), np.float32)})
        >>> flat.tolist(), flat.dtype
        ([1.0, 1.0, 1.0, 1.0, 1.0], dtype('float32'))
        >>> unravel(flat * 2)["w"].tolist()
        [[2.0, 2.0], [2.0, 2.0]]
        >>> flat, unravel = ravel_pytree((np.int32(3), np.float32(0.5)))   # promoted, and cast back
        >>> flat.dtype, [str(x.dtype) for x in unravel(flat)]
        (dtype('float32'), ['int32', 'float32'])
    """
    leaves, treedef = tree_util.flatten(pytree)
    if not leaves:
        return full((0,), 0, dtypes.float32), lambda _: treedef.unflatten([])
    avals = [aval_of(x) for x in leaves]
    from_dtypes = [a.dtype for a in avals]
    to_dtype, _ = dtypes.result_type(*[(dt, False) for dt in from_dtypes])
    flat = concatenate([reshape(convert_element_type(x, to_dtype), (a.size,)) for x, a in zip(leaves, avals)], 0) \
        if len(leaves) > 1 else reshape(convert_element_type(leaves[0], to_dtype), (avals[0].size,))
    sizes = [a.size for a in avals]
    one_dtype = all(dt == to_dtype for dt in from_dtypes)

    def unravel(v: Any) -> Any:
        if not one_dtype and aval_of(v).dtype != to_dtype:
            raise TypeError(f"unravel function given array of dtype {aval_of(v).dtype}, but expected dtype "
                            f"{to_dtype}")
        out, pos = [], 0
        for a, n in zip(avals, sizes):
            piece = reshape(lslice(v, (pos,), (pos + n,)) if len(avals) > 1 else v, a.shape)
            out.append(piece if one_dtype else convert_element_type(piece, a.dtype))
            pos += n
        return treedef.unflatten(out)
    return flat, unravel
