"""jax.numpy's selection and scatter: compress/extract, choose, piecewise, and place/put/put_along_axis
(updated copies: padax arrays are immutable)."""
from __future__ import annotations

import builtins
from typing import Any, Sequence

import numpy as np

import padax.numpy as pnp
from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.numpy import _dtypes as D
from padax.numpy._util import axis as _axis, is_array, refuse_inplace, static_value, to_array


def compress(condition: Any, a: Any, axis: builtins.int | None = None, *, size: builtins.int | None = None,
             fill_value: Any = 0, out: Any = None) -> Any:
    """The slices of `a` along `axis` where the 1-D `condition` holds (flattened a if axis is None).

    Args:
        condition: a 1-D array; nonzero entries keep; entries beyond a's length must be False.
        a: an array.
        axis: the axis; None works on the flattened array.
        size: a static result length (needed under jit); missing slices are `fill_value`.
        fill_value: the value of padding slices when `size` is given.
        out: unsupported (must be None), as in jax.

    Returns:
        An array of a's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.compress(pnp.array([True, False, True]), pnp.array([[1, 2, 3], [4, 5, 6]]), axis=1).tolist()
        [[1, 3], [4, 6]]
    """
    if out is not None:
        raise op_value_error("compress", "out= is not supported (padax arrays are immutable)")
    if size is None and not isinstance(condition, Tracer):  # a concrete condition: the kept indices are static
        host = np.asarray(condition)
        if host.ndim != 1:
            raise op_value_error("compress", f"condition must be 1-D, got shape {host.shape}")
        arr = to_array(a)
        if axis is None:
            arr, ax = pnp.ravel(arr), 0
        else:
            ax = _axis("compress", axis, arr.aval.ndim)
        n = arr.aval.shape[ax]
        if np.any(host[n:]):
            raise op_value_error("compress", "condition has True entries beyond the axis length")
        return pnp.take(arr, np.nonzero(host[:n])[0], axis=ax)
    cond = to_array(condition)
    if cond.aval.ndim != 1:
        raise op_value_error("compress", f"condition must be 1-D, got {cond.aval.str_short()}")
    cond = cond != 0
    arr = to_array(a)
    if axis is None:
        arr, ax = pnp.ravel(arr), 0
    else:
        ax = _axis("compress", axis, arr.aval.ndim)
        arr = pnp.moveaxis(arr, ax, 0)
    n = arr.aval.shape[0]
    cond, extra = cond[:n], cond[n:]
    if extra.aval.shape[0]:
        if isinstance(extra, Tracer):
            raise op_value_error("compress", f"condition is longer ({cond.aval.shape[0] + extra.aval.shape[0]}) "
                                             f"than the axis ({n})")
        if builtins.bool(np.any(np.asarray(extra))):
            raise op_value_error("compress", "condition has True entries beyond the axis length")
    arr = arr[:cond.aval.shape[0]]
    if size is None:
        result = pnp.take(arr, pnp.nonzero(cond)[0], axis=0)
    else:
        idx = pnp.nonzero(cond, size=size, fill_value=0)[0]
        rows = pnp.take(arr, idx, axis=0)
        valid = pnp.arange(size) < pnp.sum(pnp.astype(cond, D.default_int()))
        valid = lax.reshape(valid, (size,) + (1,) * (arr.aval.ndim - 1))
        result = pnp.where(valid, rows, pnp.astype(to_array(fill_value), arr.aval.dtype))
    return pnp.moveaxis(result, 0, ax)


def extract(condition: Any, arr: Any, *, size: builtins.int | None = None, fill_value: Any = 0) -> Any:
    """The elements of `arr` where `condition` is nonzero, flattened (compress on raveled inputs).

    Args:
        condition: an array of arr's size.
        arr: an array.
        size: a static result length (needed under jit); missing entries are `fill_value`.
        fill_value: the padding value when `size` is given.

    Returns:
        A 1-D array of arr's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.arange(6).reshape(2, 3)
        >>> pnp.extract(x % 2 == 0, x).tolist()
        [0, 2, 4]
    """
    cond = pnp.ravel(condition) if isinstance(condition, Tracer) else np.ravel(np.asarray(condition))
    return compress(cond, pnp.ravel(to_array(arr)), size=size, fill_value=fill_value)


def choose(a: Any, choices: Sequence[Any], out: Any = None, mode: str = "raise") -> Any:
    """Per element, the entry of `choices[a]` (all broadcast together).

    Args:
        a: an integer array of choice numbers.
        choices: a sequence of arrays (or one array whose first axis lists them).
        out: unsupported (must be None), as in jax.
        mode: 'raise' (a must be concrete and in range), 'wrap' (modulo) or 'clip'.

    Returns:
        An array of the broadcast shape and the choices' promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.choose(pnp.array([0, 1, 0]), [pnp.array([1, 2, 3]), pnp.array([10, 20, 30])]).tolist()
        [1, 20, 3]
    """
    if out is not None:
        raise op_value_error("choose", "out= is not supported (padax arrays are immutable)")
    idx = to_array(a)
    if idx.aval.dtype.kind not in "iu":
        raise op_type_error("choose", f"a must be an integer array, got {idx.aval.str_short()}")
    ch = list(choices) if not is_array(choices) else list(pnp.unstack(choices))
    n = len(ch)
    if mode == "raise":
        host = static_value("choose", idx, "a (with mode='raise'; use mode='wrap' or 'clip' under jit)")
        if np.any((host < 0) | (host >= n)):
            raise op_value_error("choose", f"entries of a must be in [0, {n}), got {host.tolist()}")
    elif mode == "wrap":
        idx = idx % n
    elif mode == "clip":
        idx = pnp.clip(idx, 0, n - 1)
    else:
        raise op_value_error("choose", f"mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    idx, *ch = pnp.broadcast_arrays(idx, *[to_array(c) for c in ch])
    stacked = pnp.stack(ch, axis=0)
    return pnp.squeeze(pnp.take_along_axis(stacked, pnp.expand_dims(idx, axis=0), axis=0), axis=0)


def piecewise(x: Any, condlist: Any, funclist: Sequence[Any], *args: Any, **kw: Any) -> Any:
    """Per element, `funclist[i](x)` where `condlist[i]` holds (the last true condition wins), else 0.

    Args:
        x: an array.
        condlist: a boolean array of x's shape or a list of them.
        funclist: callables `f(x, *args, **kw)` or constants, one per condition; one extra entry is the
            value where no condition holds.
        *args, **kw: passed to each callable.

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.array([-2.0, 0.5, 3.0])
        >>> pnp.piecewise(x, [x < 0, x > 1], [lambda v: -v, 10.0, lambda v: v * 2]).tolist()
        [2.0, 1.0, 10.0]
    """
    x = to_array(x)
    if is_array(condlist) or isinstance(condlist, np.ndarray) or not isinstance(condlist, (list, tuple)):
        c = to_array(condlist)
        conds = [c] if c.aval.ndim == x.aval.ndim else list(pnp.unstack(c))
    elif condlist and not isinstance(condlist[0], (list, tuple, np.ndarray)) and not is_array(condlist[0]) \
            and x.aval.ndim != 0:
        conds = [to_array(list(condlist))]  # one condition written as a flat list of bools
    else:
        conds = [to_array(c) for c in condlist]
    conds = [pnp.astype(c, np.bool_) for c in conds]
    nc, nf = len(conds), len(funclist)
    if nf not in (nc, nc + 1):
        raise op_value_error("piecewise", f"funclist has {nf} entries; it needs {nc} or {nc + 1} for {nc} conditions")

    def value(f: Any) -> Any:
        v = f(x, *args, **kw) if callable(f) else f
        return pnp.broadcast_to(pnp.astype(to_array(v), x.aval.dtype), x.aval.shape)

    out = value(funclist[nc]) if nf == nc + 1 else pnp.zeros_like(x)
    for c, f in zip(conds, funclist):
        out = pnp.where(c, value(f), out)
    return out


def _flat_scatter(a: Any, idx: Any, vals: Any, mode: str | None, op: str) -> Any:
    if mode not in (None, "clip", "wrap"):
        raise op_value_error(op, f"mode must be None, 'clip' or 'wrap', got {mode!r}")
    size = a.aval.size
    if mode is None and op == "put":  # as jax: negative indices count from the end, the rest clamp into range
        idx = pnp.clip(pnp.where(idx < 0, idx + size, idx), 0, size - 1)
    elif mode == "clip":
        idx = pnp.clip(idx, 0, size - 1)
    elif mode == "wrap":
        idx = idx % size
    n = idx.aval.shape[0]
    vals = pnp.take(vals, pnp.arange(n) % vals.aval.shape[0])
    return lax.reshape(pnp.ravel(a).at[idx].set(vals, mode="drop"), a.aval.shape)


def place(arr: Any, mask: Any, vals: Any, *, inplace: builtins.bool = True) -> Any:
    """arr with the positions where `mask` holds set to `vals`, taken in order and repeated as needed.

    Args:
        arr: an array.
        mask: a boolean array of arr's shape.
        vals: values (flattened, cycled) for the True positions.
        inplace: must be False (padax arrays are immutable), as jax.numpy requires.

    Returns:
        A new array of arr's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.arange(5)
        >>> pnp.place(x, x > 1, pnp.array([7, 8]), inplace=False).tolist()
        [0, 1, 7, 8, 7]
    """
    if inplace:
        refuse_inplace("place")
    a = to_array(arr)
    m = pnp.ravel(pnp.astype(to_array(mask), np.bool_))
    if m.aval.size != a.aval.size:
        raise op_value_error("place", f"mask has {m.aval.size} elements, arr has {a.aval.size}")
    v = pnp.ravel(to_array(vals, a.aval.dtype))
    if a.aval.size == 0 or v.aval.size == 0:
        return a
    idx = pnp.nonzero(m, size=a.aval.size, fill_value=a.aval.size)[0]
    return _flat_scatter(a, idx, v, None, "place")


def put(a: Any, ind: Any, v: Any, mode: str | None = None, *, inplace: builtins.bool = True) -> Any:
    """a with the flat positions `ind` set to `v` (cycled to ind's length).

    Args:
        a: an array.
        ind: flat integer indices.
        v: values, flattened and repeated to ind's length.
        mode: None (negative indices count from the end, out-of-range ones clamp, as jax), 'clip' or 'wrap'.
        inplace: must be False (padax arrays are immutable), as jax.numpy requires.

    Returns:
        A new array of a's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.put(pnp.zeros(4, dtype=pnp.int64), pnp.array([0, 2]), 5, inplace=False).tolist()
        [5, 0, 5, 0]
    """
    if inplace:
        refuse_inplace("put")
    arr = to_array(a)
    idx = pnp.ravel(to_array(ind))
    vals = pnp.ravel(to_array(v, arr.aval.dtype))
    if not arr.aval.size or not idx.aval.size or not vals.aval.size:
        return arr
    return _flat_scatter(arr, idx, vals, mode, "put")


def put_along_axis(arr: Any, indices: Any, values: Any, axis: builtins.int | None, inplace: builtins.bool = True, *,
                   mode: str | None = None) -> Any:
    """arr with `values` written at `indices` along `axis` (the inverse of take_along_axis).

    Args:
        arr: an array.
        indices: integer indices of arr's rank (1-D when axis is None).
        values: broadcast to indices' shape.
        axis: the axis; None works on the flattened array.
        inplace: must be False (padax arrays are immutable), as jax.numpy requires.
        mode: None/'drop' (out-of-range writes are dropped), or 'clip'.

    Returns:
        A new array of arr's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.zeros((2, 3))
        >>> pnp.put_along_axis(x, pnp.array([[2], [0]]), 1.0, axis=1, inplace=False).tolist()
        [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    """
    if inplace:
        refuse_inplace("put_along_axis")
    a = to_array(arr)
    shape = a.aval.shape
    if axis is None:
        a, ax = pnp.ravel(a), 0
    else:
        ax = _axis("put_along_axis", axis, a.aval.ndim)
    idx = to_array(indices)
    if idx.aval.ndim != a.aval.ndim:
        raise op_value_error("put_along_axis",
                             f"indices must have arr's rank {a.aval.ndim}, got {idx.aval.str_short()}")
    if mode == "clip":
        n = a.aval.shape[ax]
        idx = pnp.clip(pnp.where(idx < 0, idx + n, idx), 0, n - 1)
    elif mode not in (None, "drop", "fill"):
        raise op_value_error("put_along_axis", f"mode must be None, 'drop' or 'clip', got {mode!r}")
    grid = pnp.indices(idx.aval.shape, sparse=True)
    full = tuple(idx if i == ax else g for i, g in enumerate(grid))
    vals = pnp.broadcast_to(to_array(values, a.aval.dtype), idx.aval.shape)
    return lax.reshape(a.at[full].set(vals, mode="drop"), shape)


__all__ = ["compress", "extract", "choose", "piecewise", "place", "put", "put_along_axis"]
