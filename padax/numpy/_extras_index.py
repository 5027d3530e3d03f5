"""jax.numpy's index tricks, insert/delete/put/place, functional helpers (vectorize, apply_along_axis),
bit packing, printing options and numpy's file/buffer readers, as composites of padax.numpy and padax.lax."""
from __future__ import annotations

import builtins
import functools
import io
import os
import re
from typing import Any, Callable, Sequence

import numpy as np

from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.numpy import _dtypes as D
from padax.numpy._util import axis as _axis, is_array, to_array


def _pnp():
    import padax.numpy as pnp
    return pnp


def _concrete(op: str, x: Any, what: str) -> np.ndarray:
    """A static (host) value of `x`: Python/numpy data or an eager Tensor, never a tracer."""
    if isinstance(x, Tracer):
        raise op_type_error(op, f"{what} must be a concrete value (not traced under jit/grad/vmap); "
                                f"got {x.aval.str_short()}")
    return np.asarray(x)


def _inplace_error(op: str) -> None:
    raise op_value_error(op, "padax arrays are immutable: pass inplace=False to get the updated array back")


# ---------------------------------------------------------------- index tricks


def _grid_1d(s: slice) -> Any:
    pnp = _pnp()
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    if isinstance(step, complex) or np.iscomplexobj(step):
        return pnp.linspace(start, s.stop, builtins.int(builtins.abs(step)))
    return pnp.arange(start, s.stop, step)


class _Grid:
    """mgrid / ogrid: dense or open meshes from slices (a complex step `5j` is a point count, as linspace)."""

    def __init__(self, sparse: builtins.bool, name: str):
        self.sparse, self.name = sparse, name

    def __getitem__(self, key: Any) -> Any:
        pnp = _pnp()
        if isinstance(key, slice):
            return _grid_1d(key)
        if not isinstance(key, tuple) or not builtins.all(isinstance(k, slice) for k in key):
            raise op_type_error(self.name, f"expects slices, got {key!r}")
        grids = [_grid_1d(k) for k in key]
        if not grids:
            return [] if self.sparse else pnp.zeros((0,))
        dt = D.result_type_of([(g.aval.dtype, False) for g in grids])
        grids = [pnp.astype(g, dt) for g in grids]
        out = pnp.meshgrid(*grids, indexing="ij", sparse=self.sparse)
        return list(out) if self.sparse else pnp.stack(out, axis=0)


mgrid = _Grid(False, "mgrid")
mgrid.__doc__ = """Dense coordinate arrays from slices, stacked: `mgrid[0:2, 0:3]` has shape (2, 2, 3).

A slice step `kj` (imaginary) means k points from start to stop inclusive, as linspace.

Returns:
    One array of shape (len(key), *grid shape) (a 1-D array for a single slice).

Examples:
    >>> import padax.numpy as pnp
    >>> pnp.mgrid[0:2, 0:3].tolist()
    [[[0, 0, 0], [1, 1, 1]], [[0, 1, 2], [0, 1, 2]]]
    >>> pnp.mgrid[0:1:3j].tolist()
    [0.0, 0.5, 1.0]
"""

ogrid = _Grid(True, "ogrid")
ogrid.__doc__ = """Open (broadcastable) coordinate arrays from slices: `ogrid[0:2, 0:3]` gives shapes (2, 1) and (1, 3).

Returns:
    A list of arrays, one per slice, each long on its own axis only (a 1-D array for a single slice).

Examples:
    >>> import padax.numpy as pnp
    >>> [g.tolist() for g in pnp.ogrid[0:2, 0:3]]
    [[[0], [1]], [[0, 1, 2]]]
"""


class _AxisConcat:
    """r_ / c_: concatenation by index syntax (slices become aranges; a leading 'axis,ndmin,trans1d' string
    sets the layout)."""

    def __init__(self, axis: builtins.int, ndmin: builtins.int, trans1d: builtins.int, name: str):
        self.axis, self.ndmin, self.trans1d, self.name = axis, ndmin, trans1d, name

    def __getitem__(self, key: Any) -> Any:
        pnp = _pnp()
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        if key and isinstance(key[0], str):
            parts = key[0].split(",")
            if len(parts) > 3 or not builtins.all(re.fullmatch(r"\s*-?\d+\s*", p) for p in parts):
                raise op_value_error(self.name, f"the directive must be 'axis[,ndmin[,trans1d]]' of integers, "
                                                f"got {key[0]!r} ('r'/'c' matrix outputs are numpy.matrix only)")
            vals = [builtins.int(p) for p in parts] + [axis, ndmin, trans1d][len(parts):]
            axis, ndmin, trans1d = vals
            key = key[1:]
        items = []
        for item in key:
            if isinstance(item, slice):
                arr, item_ndim = _grid_1d(item), 1
            elif isinstance(item, str):
                raise op_value_error(self.name, "a string directive must come first")
            else:
                arr = to_array(item)
                item_ndim = arr.aval.ndim
            if item_ndim < ndmin:
                arr = lax.reshape(arr, (1,) * (ndmin - item_ndim) + arr.aval.shape)
                if trans1d != -1:
                    k2, k1 = ndmin - item_ndim, trans1d
                    if k1 < 0:
                        k1 += k2 + 1
                    axes = list(builtins.range(ndmin))
                    arr = pnp.permute_dims(arr, axes[:k1] + axes[k2:] + axes[k1:k2])
            items.append(arr)
        if not items:
            return pnp.zeros((0,))
        return pnp.concatenate(items, axis=axis)


r_ = _AxisConcat(0, 1, -1, "r_")
r_.__doc__ = """Concatenate along the first axis by index syntax: `r_[a, 0:3, 7]` (slices are aranges).

A leading string 'axis,ndmin,trans1d' picks the axis, the minimum rank and where 1-D items' axis goes.

Returns:
    The concatenated array.

Examples:
    >>> import padax.numpy as pnp
    >>> pnp.r_[pnp.array([1, 2]), 0:3, 7].tolist()
    [1, 2, 0, 1, 2, 7]
    >>> pnp.r_["0,2", [1, 2], [3, 4]].tolist()
    [[1, 2], [3, 4]]
"""

c_ = _AxisConcat(-1, 2, 0, "c_")
c_.__doc__ = """Stack 1-D items as columns (concatenate along the last axis, at least 2-D): `c_[a, b]`.

Returns:
    The concatenated array.

Examples:
    >>> import padax.numpy as pnp
    >>> pnp.c_[pnp.array([1, 2]), pnp.array([3, 4])].tolist()
    [[1, 3], [2, 4]]
"""


class _IndexExpression:
    """s_ / index_exp: build an index tuple (slices, ints, Ellipsis) with index syntax."""

    def __init__(self, maketuple: builtins.bool):
        self.maketuple = maketuple

    def __getitem__(self, item: Any) -> Any:
        if self.maketuple and not isinstance(item, tuple):
            return (item,)
        return item


s_ = _IndexExpression(False)
s_.__doc__ = """The index written inside the brackets, as a value: `s_[1:3]` is `slice(1, 3)`.

Returns:
    The index (a slice, a tuple, ...), unchanged.

Examples:
    >>> import padax.numpy as pnp
    >>> pnp.arange(6)[pnp.s_[1:5:2]].tolist(), pnp.s_[1:3]
    ([1, 3], slice(1, 3, None))
"""

index_exp = _IndexExpression(True)
index_exp.__doc__ = """The index written inside the brackets, always as a tuple: `index_exp[1:3]` is `(slice(1, 3),)`.

Returns:
    A tuple index.

Examples:
    >>> import padax.numpy as pnp
    >>> pnp.index_exp[1:3]
    (slice(1, 3, None),)
"""


def ix_(*args: Any) -> tuple[Any, ...]:
    """Open-mesh index arrays from 1-D sequences: `x[ix_(rows, cols)]` picks the cross product.

    Args:
        *args: 1-D integer or boolean arrays (booleans become the indices of their True entries).

    Returns:
        A tuple of arrays; the i-th has shape 1 everywhere except axis i.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.arange(9).reshape(3, 3)
        >>> x[pnp.ix_(pnp.array([0, 2]), pnp.array([1, 2]))].tolist()
        [[1, 2], [7, 8]]
    """
    pnp = _pnp()
    n = len(args)
    out = []
    for i, a in enumerate(args):
        a = to_array(a) if is_array(a) or np.size(a) else to_array(np.zeros((0,), np.int64))
        if a.aval.ndim != 1:
            raise op_value_error("ix_", f"arguments must be 1-D, got {a.aval.str_short()}")
        if a.aval.dtype == np.bool_:
            a = pnp.nonzero(a)[0]
        elif D.kind(a.aval.dtype) != 1 and a.aval.dtype.kind not in "iu":
            raise op_type_error("ix_", f"arguments must be integer or boolean, got {a.aval.str_short()}")
        out.append(lax.reshape(a, (1,) * i + (a.aval.shape[0],) + (1,) * (n - i - 1)))
    return tuple(out)


# ---------------------------------------------------------------- insert / delete / block


def _axis_positions(op: str, obj: Any, n: builtins.int) -> np.ndarray:
    if isinstance(obj, slice):
        return np.arange(*obj.indices(n))
    idx = _concrete(op, obj, "obj")
    if idx.dtype == np.bool_:
        return idx
    if idx.dtype.kind not in "iu":
        raise op_type_error(op, f"obj must be integer, boolean or a slice, got dtype {idx.dtype}")
    return idx.astype(np.int64)


def delete(arr: Any, obj: Any, axis: builtins.int | None = None, *,
           assume_unique_indices: builtins.bool = False) -> Any:
    """arr without the entries `obj` along `axis` (flattened if axis is None).

    Args:
        arr: an array.
        obj: an int, a slice, an integer array or a boolean mask of the axis' length (static values).
        axis: the axis; None deletes from the flattened array.
        assume_unique_indices: accepted as jax does (indices are static here, duplicates are harmless).

    Returns:
        An array with the entries removed (same dtype).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.delete(pnp.array([1, 2, 3, 4]), [0, 2]).tolist()
        [2, 4]
        >>> pnp.delete(pnp.arange(6).reshape(2, 3), 1, axis=1).tolist()
        [[0, 2], [3, 5]]
    """
    pnp = _pnp()
    a = to_array(arr)
    if axis is None:
        a, ax = pnp.ravel(a), 0
    else:
        ax = _axis("delete", axis, a.aval.ndim)
    n = a.aval.shape[ax]
    idx = _axis_positions("delete", obj, n)
    keep = np.ones(n, np.bool_)
    if idx.dtype == np.bool_:
        if idx.shape != (n,):
            raise op_value_error("delete", f"a boolean obj must have shape ({n},), got {idx.shape}")
        keep &= ~idx
    else:
        if idx.size and (idx.min() < -n or idx.max() >= n):
            raise op_value_error("delete", f"index out of bounds for axis {ax} of size {n}: {idx.tolist()}")
        keep[idx % builtins.max(n, 1)] = False
    return pnp.take(a, np.nonzero(keep)[0], axis=ax)


def insert(arr: Any, obj: Any, values: Any, axis: builtins.int | None = None) -> Any:
    """arr with `values` inserted before the positions `obj` along `axis` (flattened if axis is None).

    Args:
        arr: an array.
        obj: an int, a slice or a sequence of ints (static), positions in the input before which to insert.
        values: broadcast to the inserted block; cast to arr's dtype.
        axis: the axis; None inserts into the flattened array.

    Returns:
        An array of arr's dtype, longer along `axis`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.insert(pnp.array([1, 2, 3]), 1, 9).tolist()
        [1, 9, 2, 3]
        >>> pnp.insert(pnp.array([[1, 2], [3, 4]]), [0, 2], 0, axis=1).tolist()
        [[0, 1, 2, 0], [0, 3, 4, 0]]
    """
    pnp = _pnp()
    a = to_array(arr)
    if axis is None:
        a, ax = pnp.ravel(a), 0
    else:
        ax = _axis("insert", axis, a.aval.ndim)
    n, nd = a.aval.shape[ax], a.aval.ndim
    idx = _axis_positions("insert", obj, n)
    if idx.dtype == np.bool_:
        idx = np.nonzero(idx)[0]
    if idx.size and (idx.min() < -n or idx.max() > n):
        raise op_value_error("insert", f"index out of bounds for axis {ax} of size {n}: {idx.tolist()}")
    idx = np.where(idx < 0, idx + n, idx)
    vals = to_array(values, a.aval.dtype)
    if vals.aval.ndim < nd:
        vals = lax.reshape(vals, (1,) * (nd - vals.aval.ndim) + vals.aval.shape)
    if idx.size == 1 and not isinstance(obj, slice):
        if idx.ndim == 0:
            vals = pnp.moveaxis(vals, 0, ax)
        numnew = vals.aval.shape[ax] if vals.aval.ndim == nd else 1
        new_pos = builtins.int(idx.reshape(())) + np.arange(numnew)
    else:
        numnew = idx.size
        order = np.argsort(idx, kind="stable")
        new_pos = idx.copy()
        new_pos[order] += np.arange(numnew)
        new_pos = new_pos.astype(np.int64)
    shape = a.aval.shape[:ax] + (numnew,) + a.aval.shape[ax + 1:]
    vals = pnp.broadcast_to(vals, shape)
    perm = np.empty(n + numnew, np.int64)
    old = np.ones(n + numnew, np.bool_)
    old[new_pos] = False
    perm[old] = np.arange(n)
    perm[new_pos] = n + np.arange(numnew)
    return pnp.take(pnp.concatenate([a, vals], axis=ax), perm, axis=ax)


def _block_depth(x: Any, where: str) -> tuple[builtins.int, builtins.int]:
    """(list nesting depth, largest leaf ndim) of a block() argument; tuples and ragged depths are errors."""
    if isinstance(x, tuple):
        raise op_type_error("block", f"{where} is a tuple; block takes nested lists only")
    if isinstance(x, list):
        if not x:
            raise op_value_error("block", f"{where} is an empty list")
        found = [_block_depth(e, f"{where}[{i}]") for i, e in enumerate(x)]
        depths = {d for d, _ in found}
        if len(depths) != 1:
            raise op_value_error("block", f"list depths are mismatched under {where}")
        return 1 + found[0][0], builtins.max(m for _, m in found)
    return 0, np.ndim(x) if not is_array(x) else x.aval.ndim


def block(arrays: Any) -> Any:
    """One array assembled from nested lists of blocks (innermost lists join along the last axis).

    Args:
        arrays: nested lists of arrays/scalars; depth d joins the innermost lists along axis -1, the next
            along -2, ...; every block is first lifted to the same rank with leading 1s.

    Returns:
        The assembled array (dtypes promote).

    Examples:
        >>> import padax.numpy as pnp
        >>> a, b = pnp.ones((2, 2)), pnp.zeros((2, 1))
        >>> pnp.block([[a, b], [pnp.zeros((1, 3))]]).tolist()
        [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    """
    pnp = _pnp()
    depth, leaf_nd = _block_depth(arrays, "arrays")
    nd = builtins.max(depth, leaf_nd)

    def build(x: Any, level: builtins.int) -> Any:
        if isinstance(x, list):
            return pnp.concatenate([build(e, level + 1) for e in x], axis=-(depth - level))
        a = to_array(x)
        return lax.reshape(a, (1,) * (nd - a.aval.ndim) + a.aval.shape)

    return build(arrays, 0)


# ---------------------------------------------------------------- diagonals and triangles


def _square_nd(op: str, a: Any) -> None:
    s = a.aval.shape
    if len(s) < 2:
        raise op_value_error(op, f"the array must be at least 2-D, got {a.aval.str_short()}")
    if len(s) > 2 and builtins.any(d != s[0] for d in s[1:]):
        raise op_value_error(op, f"all dimensions must have equal length, got {a.aval.str_short()}")


def fill_diagonal(a: Any, val: Any, wrap: builtins.bool = False, *, inplace: builtins.bool = True) -> Any:
    """a with its main diagonal set to `val` (functional: pass inplace=False, as jax.numpy requires).

    Args:
        a: an array of rank >= 2 (all dimensions equal when rank > 2).
        val: a scalar or array; its flattened values repeat along the diagonal.
        wrap: for tall 2-D arrays, continue the diagonal after every `cols + 1` rows (numpy's wrap).
        inplace: must be False (padax arrays are immutable).

    Returns:
        A new array of a's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fill_diagonal(pnp.zeros((3, 3)), pnp.array([1.0, 2.0, 3.0]), inplace=False).tolist()
        [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]
    """
    if inplace:
        _inplace_error("fill_diagonal")
    pnp = _pnp()
    a = to_array(a)
    _square_nd("fill_diagonal", a)
    shape = a.aval.shape
    size = builtins.int(np.prod(shape))
    if len(shape) == 2:
        step, end = shape[1] + 1, (None if wrap else shape[1] * shape[1])
    else:
        step, end = 1 + builtins.int(np.cumprod(shape[:-1]).sum()), None
    flat = np.arange(size)[:end:step]
    if flat.size == 0:
        return a
    v = pnp.ravel(to_array(val, a.aval.dtype))
    if v.aval.shape[0] == 0:
        return a
    v = pnp.take(v, np.arange(flat.size) % v.aval.shape[0])
    return lax.reshape(pnp.ravel(a).at[flat].set(v), shape)


def diag_indices_from(arr: Any) -> tuple[Any, ...]:
    """Indices of the main diagonal of `arr` (rank >= 2, all dimensions equal).

    Args:
        arr: an array of rank >= 2 with all dimensions equal.

    Returns:
        A tuple of arr.ndim int64 arrays, each `arange(n)`.

    Examples:
        >>> import padax.numpy as pnp
        >>> [i.tolist() for i in pnp.diag_indices_from(pnp.zeros((2, 2)))]
        [[0, 1], [0, 1]]
    """
    a = to_array(arr)
    _square_nd("diag_indices_from", a)
    return _pnp().diag_indices(a.aval.shape[0], a.aval.ndim)


def _tri_from(op: str, arr: Any, k: builtins.int, lower: builtins.bool) -> tuple[Any, Any]:
    a = to_array(arr)
    if a.aval.ndim != 2:
        raise op_value_error(op, f"only 2-D inputs are accepted, got {a.aval.str_short()}")
    fn = _pnp().tril_indices if lower else _pnp().triu_indices
    return fn(a.aval.shape[0], k=k, m=a.aval.shape[1])


def tril_indices_from(arr: Any, k: builtins.int = 0) -> tuple[Any, Any]:
    """Row and column indices of the lower triangle (on and below diagonal `k`) of the 2-D `arr`.

    Args:
        arr: a 2-D array (only its shape is used).
        k: the diagonal offset (positive: above the main diagonal).

    Returns:
        (rows, cols), two int64 arrays.

    Examples:
        >>> import padax.numpy as pnp
        >>> [i.tolist() for i in pnp.tril_indices_from(pnp.zeros((2, 3)))]
        [[0, 1, 1], [0, 0, 1]]
    """
    return _tri_from("tril_indices_from", arr, k, True)


def triu_indices_from(arr: Any, k: builtins.int = 0) -> tuple[Any, Any]:
    """Row and column indices of the upper triangle (on and above diagonal `k`) of the 2-D `arr`.

    Args:
        arr: a 2-D array (only its shape is used).
        k: the diagonal offset (positive: above the main diagonal).

    Returns:
        (rows, cols), two int64 arrays.

    Examples:
        >>> import padax.numpy as pnp
        >>> [i.tolist() for i in pnp.triu_indices_from(pnp.zeros((2, 3)), k=1)]
        [[0, 0, 1], [1, 2, 2]]
    """
    return _tri_from("triu_indices_from", arr, k, False)


def mask_indices(n: builtins.int, mask_func: Callable, k: builtins.int = 0, *,
                 size: builtins.int | None = None) -> tuple[Any, Any]:
    """Indices where `mask_func(ones((n, n)), k)` is nonzero (e.g. mask_func=triu gives the upper triangle).

    Args:
        n: the side of the square.
        mask_func: a function like tril/triu taking (array, k).
        k: passed to mask_func.
        size: a static count of indices to return (needed under jit), as nonzero's.

    Returns:
        (rows, cols), two int64 arrays.

    Examples:
        >>> import padax.numpy as pnp
        >>> [i.tolist() for i in pnp.mask_indices(2, pnp.triu)]
        [[0, 0, 1], [0, 1, 1]]
    """
    pnp = _pnp()
    mask = mask_func(pnp.ones((n, n)), k)
    if size is None and not isinstance(mask, Tracer):  # eager: the indices are read on the host
        return tuple(to_array(i.astype(np.int64)) for i in np.nonzero(np.asarray(mask)))
    return pnp.nonzero(mask, size=size)


# ---------------------------------------------------------------- selection and scatter


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
    pnp = _pnp()
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
    pnp = _pnp()
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
    pnp = _pnp()
    idx = to_array(a)
    if idx.aval.dtype.kind not in "iu":
        raise op_type_error("choose", f"a must be an integer array, got {idx.aval.str_short()}")
    ch = list(choices) if not is_array(choices) else list(pnp.unstack(choices))
    n = len(ch)
    if mode == "raise":
        host = _concrete("choose", idx, "a (with mode='raise'; use mode='wrap' or 'clip' under jit)")
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
    pnp = _pnp()
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
    pnp = _pnp()
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
        _inplace_error("place")
    pnp = _pnp()
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
        _inplace_error("put")
    pnp = _pnp()
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
        _inplace_error("put_along_axis")
    pnp = _pnp()
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


# ---------------------------------------------------------------- shape helpers


def resize(a: Any, new_shape: Any) -> Any:
    """An array of `new_shape` filled with a's flattened elements, repeated cyclically.

    Args:
        a: an array.
        new_shape: an int or a tuple of ints (static).

    Returns:
        An array of new_shape and a's dtype (zeros if a or the result is empty).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.resize(pnp.array([1, 2, 3]), (2, 4)).tolist()
        [[1, 2, 3, 1], [2, 3, 1, 2]]
    """
    pnp = _pnp()
    shape = (new_shape,) if isinstance(new_shape, (builtins.int, np.integer)) else tuple(new_shape)
    shape = tuple(builtins.int(_concrete("resize", s, "new_shape")) for s in shape)
    if builtins.any(s < 0 for s in shape):
        raise op_value_error("resize", f"new_shape must be non-negative, got {shape}")
    x = pnp.ravel(to_array(a))
    size = builtins.int(np.prod(shape, dtype=np.int64))
    if x.aval.size == 0 or size == 0:
        return pnp.zeros(shape, dtype=x.aval.dtype)
    return lax.reshape(pnp.take(x, np.arange(size) % x.aval.size), shape)


def rollaxis(a: Any, axis: builtins.int, start: builtins.int = 0) -> Any:
    """a with `axis` moved to sit before position `start` (numpy's older form of moveaxis).

    Args:
        a: an array.
        axis: the axis to move.
        start: the position before which it goes (in the original numbering).

    Returns:
        a with its axes reordered.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.rollaxis(pnp.zeros((2, 3, 4)), 2).shape, pnp.rollaxis(pnp.zeros((2, 3, 4)), 0, 2).shape
        ((4, 2, 3), (3, 2, 4))
    """
    pnp = _pnp()
    x = to_array(a)
    nd = x.aval.ndim
    ax = _axis("rollaxis", axis, nd)
    if not -nd <= start <= nd:
        raise op_value_error("rollaxis", f"start={start} must be in [{-nd}, {nd}]")
    if start < 0:
        start += nd
    if start > ax:
        start -= 1
    return pnp.moveaxis(x, ax, start)


def matvec(x1: Any, x2: Any, /) -> Any:
    """Matrix-vector product over the last two axes of x1 and the last of x2 (broadcast batches).

    Args:
        x1: an array of shape (..., m, n).
        x2: an array of shape (..., n).

    Returns:
        An array of shape broadcast(x1[..., :, 0], x2[..., 0]).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.matvec(pnp.array([[1, 2], [3, 4]]), pnp.array([1, 1])).tolist()
        [3, 7]
    """
    pnp = _pnp()
    v = to_array(x2)
    return pnp.matmul(to_array(x1), pnp.expand_dims(v, axis=-1))[..., 0]


def vecmat(x1: Any, x2: Any, /) -> Any:
    """Vector-matrix product: conj(x1) times x2 over x1's last and x2's second-to-last axis.

    Args:
        x1: an array of shape (..., m) (conjugated).
        x2: an array of shape (..., m, n).

    Returns:
        An array of shape broadcast(x1[..., 0], x2[..., 0, :]).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.vecmat(pnp.array([1, 1]), pnp.array([[1, 2], [3, 4]])).tolist()
        [4, 6]
    """
    pnp = _pnp()
    v = pnp.conj(to_array(x1))
    return pnp.matmul(pnp.expand_dims(v, axis=-2), to_array(x2))[..., 0, :]


# ---------------------------------------------------------------- function helpers


def apply_along_axis(func1d: Callable, axis: builtins.int, arr: Any, *args: Any, **kwargs: Any) -> Any:
    """`func1d` applied to every 1-D slice of `arr` along `axis` (vectorised with vmap).

    Args:
        func1d: a function of a 1-D array (extra *args/**kwargs are passed on).
        axis: the axis the slices run along.
        arr: an array.

    Returns:
        The stacked results: func1d's output axes replace `axis`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.apply_along_axis(pnp.sum, 1, pnp.arange(6).reshape(2, 3)).tolist()
        [3, 12]
    """
    from padax import vmap
    x = to_array(arr)
    nd = x.aval.ndim
    ax = _axis("apply_along_axis", axis, nd)

    def func(v: Any) -> Any:
        return func1d(v, *args, **kwargs)

    for i in builtins.range(1, nd - ax):
        func = vmap(func, in_axes=i, out_axes=-1)
    for _ in builtins.range(ax):
        func = vmap(func, in_axes=0, out_axes=0)
    return func(x)


def apply_over_axes(func: Callable, a: Any, axes: Any) -> Any:
    """`func(a, axis)` applied for each axis in turn, keeping the rank (a reducing func's axis comes back as 1).

    Args:
        func: a function `func(array, axis)` returning an array of the same or one lower rank.
        a: an array.
        axes: an int or a sequence of ints, applied in order.

    Returns:
        An array of a's rank.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.apply_over_axes(pnp.sum, pnp.arange(6).reshape(2, 3), [0, 1]).tolist()
        [[15]]
    """
    pnp = _pnp()
    x = to_array(a)
    for ax in ([axes] if isinstance(axes, (builtins.int, np.integer)) else axes):
        b = func(x, ax)
        if b.ndim == x.ndim:
            x = b
        elif b.ndim == x.ndim - 1:
            x = pnp.expand_dims(b, axis=ax)
        else:
            raise op_value_error("apply_over_axes", f"func must keep the rank or drop one axis; got rank {b.ndim} "
                                                    f"from rank {x.ndim}")
    return x


_DIM_LIST = r"\((?:\w+(?:,\s*\w+)*)?\)"


def _parse_signature(signature: str) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]] | None]:
    sig = signature.replace(" ", "")
    args = rf"{_DIM_LIST}(?:,{_DIM_LIST})*"
    if not re.fullmatch(rf"{args}->{args}", sig):
        raise op_value_error("vectorize", f"not a valid gufunc signature: {signature!r}")
    ins, outs = sig.split("->")
    parse = lambda s: [tuple(d for d in g.split(",") if d) for g in re.findall(r"\(([^)]*)\)", s)]  # noqa: E731
    return parse(ins), parse(outs)


def vectorize(pyfunc: Callable, *, excluded: Any = frozenset(), signature: str | None = None) -> Callable:
    """`pyfunc` made to broadcast over leading (loop) axes with vmap, as numpy.vectorize but traced.

    Args:
        pyfunc: a function of scalars, or of core-shaped arrays described by `signature`.
        excluded: positions (ints) and keyword names of arguments passed through unvectorised.
        signature: a gufunc signature like '(n),(n)->()' naming each argument's core axes (default: all scalars).

    Returns:
        The vectorised function.

    Examples:
        >>> import padax.numpy as pnp
        >>> f = pnp.vectorize(lambda a, b: a * b + 1)
        >>> f(pnp.array([1, 2]), pnp.array([[10], [20]])).tolist()
        [[11, 21], [21, 41]]
        >>> pnp.vectorize(pnp.dot, signature="(n),(n)->()")(pnp.ones((3, 2)), pnp.ones(2)).tolist()
        [2.0, 2.0, 2.0]
    """
    from padax import vmap
    in_core = None if signature is None else _parse_signature(signature)[0]

    @functools.wraps(pyfunc)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        pnp = _pnp()
        mapped_pos = [i for i in builtins.range(len(args)) if i not in excluded]
        mapped_kw = [k for k in kwargs if k not in excluded]
        names = [("p", i) for i in mapped_pos] + [("k", k) for k in mapped_kw]
        vals = [to_array(args[i]) for i in mapped_pos] + [to_array(kwargs[k]) for k in mapped_kw]
        cores = in_core if in_core is not None else [()] * len(vals)
        if len(cores) != len(vals):
            raise op_value_error("vectorize", f"signature {signature!r} has {len(cores)} inputs, got {len(vals)} "
                                              f"vectorised arguments")
        sizes: dict = {}
        loop_shapes = []
        for v, core in zip(vals, cores):
            s = v.aval.shape
            if len(s) < len(core):
                raise op_value_error("vectorize", f"an input of shape {s} has fewer axes than its core {core}")
            for d, n in zip(core, s[len(s) - len(core):]):
                if sizes.setdefault(d, n) != n:
                    raise op_value_error("vectorize", f"core dimension {d!r} is {sizes[d]} and {n}")
            loop_shapes.append(s[:len(s) - len(core)])
        loop = pnp.broadcast_shapes(*loop_shapes) if loop_shapes else ()
        vals = [pnp.broadcast_to(v, tuple(loop) + v.aval.shape[v.aval.ndim - len(c):]) for v, c in zip(vals, cores)]

        def call(*mapped: Any) -> Any:
            a, kw = list(args), dict(kwargs)
            for (kind, key), m in zip(names, mapped):
                if kind == "p":
                    a[key] = m
                else:
                    kw[key] = m
            return pyfunc(*a, **kw)

        f = call
        for _ in builtins.range(len(loop)):
            f = vmap(f)
        return f(*vals)

    return wrapped


def fromfunction(function: Callable, shape: Any, *, dtype: Any = float, **kwargs: Any) -> Any:
    """An array whose entry at index (i, j, ...) is `function(i, j, ...)` (vectorised with vmap).

    Args:
        function: a function of one scalar coordinate per axis (extra **kwargs passed on).
        shape: the result shape.
        dtype: the coordinates' dtype (float: the default float dtype).

    Returns:
        function's output over the grid.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fromfunction(lambda i, j: i * 10 + j, (2, 3), dtype=pnp.int64).tolist()
        [[0, 1, 2], [10, 11, 12]]
    """
    from padax import vmap
    pnp = _pnp()
    shape = (shape,) if isinstance(shape, (builtins.int, np.integer)) else tuple(shape)
    dt = D.default_float() if dtype is float else (D.default_int() if dtype is builtins.int else dtype)

    def f(*coords: Any) -> Any:
        return function(*coords, **kwargs)

    for i in builtins.range(len(shape)):
        f = vmap(f, in_axes=tuple(0 if j == len(shape) - 1 - i else None for j in builtins.range(len(shape))))
    return f(*(pnp.arange(s, dtype=dt) for s in shape))


# ---------------------------------------------------------------- bits


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
    pnp = _pnp()
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
    pnp = _pnp()
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


# ---------------------------------------------------------------- einsum path, printing, small predicates


def einsum_path(subscripts: str, *operands: Any, optimize: Any = "greedy") -> tuple[list, str]:
    """The contraction order einsum would use for these operand shapes, and a text report (numpy's planner).

    Unlike jax.numpy's (opt_einsum's `PathInfo`), the path and report come from `numpy.einsum_path`:
    the path list starts with 'einsum_path'.

    Args:
        subscripts: the einsum equation.
        *operands: the arrays (only their shapes and dtypes are used).
        optimize: 'greedy', 'optimal', True/False or an explicit path.

    Returns:
        (path, report).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.einsum_path("ij,jk,kl->il", pnp.ones((2, 3)), pnp.ones((3, 4)), pnp.ones((4, 5)))[0]
        ['einsum_path', (1, 2), (0, 1)]
    """
    shapes = [np.broadcast_to(np.zeros((), o.aval.dtype if is_array(o) else np.asarray(o).dtype),
                              o.aval.shape if is_array(o) else np.shape(o)) for o in operands]
    return np.einsum_path(subscripts, *shapes, optimize=optimize)


def _host(a: Any) -> np.ndarray:
    return _concrete("array_str", to_array(a), "the array")


def array_repr(arr: Any, max_line_width: builtins.int | None = None, precision: builtins.int | None = None,
               suppress_small: builtins.bool | None = None) -> str:
    """numpy's `repr` text of the array's values (`array([...])`), under numpy's print options.

    Args:
        arr: an array (eager values).
        max_line_width, precision, suppress_small: numpy's formatting options (None: the current ones).

    Returns:
        A string.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.array_repr(pnp.array([1, 2]))
        'array([1, 2])'
    """
    return np.array_repr(_host(arr), max_line_width, precision, suppress_small)


def array_str(a: Any, max_line_width: builtins.int | None = None, precision: builtins.int | None = None,
              suppress_small: builtins.bool | None = None) -> str:
    """numpy's `str` text of the array's values (`[...]`), under numpy's print options.

    Args:
        a: an array (eager values).
        max_line_width, precision, suppress_small: numpy's formatting options (None: the current ones).

    Returns:
        A string.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.array_str(pnp.array([1.5, 2.0]))
        '[1.5 2. ]'
    """
    return np.array_str(_host(a), max_line_width, precision, suppress_small)


def get_printoptions() -> dict:
    """numpy's current print options (those `set_printoptions` and `printoptions` change).

    Returns:
        A dict (precision, threshold, edgeitems, linewidth, ...).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.get_printoptions()["precision"]
        8
    """
    return np.get_printoptions()


def set_printoptions(**kwargs: Any) -> None:
    """Set numpy's print options and the matching Tensor ones (precision, threshold, edgeitems, linewidth).

    Args:
        **kwargs: numpy.set_printoptions' keywords.

    Returns:
        None.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.set_printoptions(precision=3)
        >>> pnp.array_str(pnp.array([1.23456])), pnp.get_printoptions()["precision"]
        ('[1.235]', 3)
        >>> pnp.set_printoptions(precision=8)
    """
    from padax.devices import printing
    np.set_printoptions(**kwargs)
    printing.set_printoptions(**{k: kwargs[k] for k in ("precision", "threshold", "edgeitems", "linewidth")
                                 if kwargs.get(k) is not None})


def iterable(y: Any) -> builtins.bool:
    """Whether `iter(y)` works (0-d arrays are not iterable).

    Args:
        y: any object.

    Returns:
        A bool.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.iterable(pnp.array([1, 2])), pnp.iterable(pnp.array(3)), pnp.iterable(3)
        (True, False, False)
    """
    if is_array(y):
        return y.aval.ndim > 0
    try:
        iter(y)
    except TypeError:
        return False
    return True


ComplexWarning = np.exceptions.ComplexWarning


# ---------------------------------------------------------------- buffers and files (numpy formats, never pickles)


def frombuffer(buffer: Any, dtype: Any = float, count: builtins.int = -1, offset: builtins.int = 0) -> Any:
    """An array read from the raw bytes of `buffer` (numpy.frombuffer; float means 8-byte float64 items).

    Args:
        buffer: an object exposing the buffer interface (bytes, bytearray, memoryview).
        dtype: the item dtype (float means float64 items, as numpy).
        count: the number of items (-1: all).
        offset: bytes to skip first.

    Returns:
        A 1-D array of `dtype` (kept as numpy data keeps its dtype).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.frombuffer(b"\\x01\\x02\\x03", dtype=pnp.uint8).tolist()
        [1, 2, 3]
    """
    return to_array(np.frombuffer(buffer, dtype=dtype, count=count, offset=offset).copy())


def fromstring(string: str, dtype: Any = float, count: builtins.int = -1, *, sep: str) -> Any:
    """An array parsed from text numbers separated by `sep` (numpy.fromstring).

    Args:
        string: the text.
        dtype: the result dtype (float: float64).
        count: the number of items (-1: all).
        sep: the separator between numbers (whitespace matches any whitespace).

    Returns:
        A 1-D array of `dtype` (float: float64, as numpy data).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fromstring("1 2 3", dtype=pnp.int32, sep=" ").tolist()
        [1, 2, 3]
    """
    if not sep:
        raise op_value_error("fromstring", "sep must be a non-empty separator (binary mode is frombuffer's)")
    return to_array(np.fromstring(string, dtype=dtype, count=count, sep=sep))


def fromiter(iterable: Any, dtype: Any, count: builtins.int = -1) -> Any:
    """A 1-D array of the values of a Python iterable (numpy.fromiter, read eagerly on the host).

    Args:
        iterable: the values.
        dtype: the result dtype.
        count: the number of items to read (-1: all).

    Returns:
        A 1-D array of `dtype`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fromiter((i * i for i in range(4)), dtype=pnp.int64).tolist()
        [0, 1, 4, 9]
    """
    return to_array(np.fromiter(iterable, dtype=dtype, count=count))


def _no_pickle(op: str, allow_pickle: builtins.bool) -> None:
    if allow_pickle:
        raise op_value_error(op, "allow_pickle must be False: padax never reads or writes pickled objects")


def _with_suffix(file: Any, suffix: str) -> Any:
    if isinstance(file, (str, os.PathLike)):
        file = os.fspath(file)
        return file if file.endswith(suffix) else file + suffix
    return file


def _write(file: Any, data: bytes) -> None:
    if isinstance(file, str):
        from padax.lowering.compile import atomic_write
        atomic_write(file, data)
    else:
        file.write(data)


def save(file: Any, arr: Any, allow_pickle: builtins.bool = False) -> None:
    """Write one array to a `.npy` file (numpy's format, written atomically; '.npy' is appended if missing).

    Args:
        file: a path or a binary file object.
        arr: an array or array-like.
        allow_pickle: must be False.

    Returns:
        None.

    Examples:
        >>> import os, tempfile, padax.numpy as pnp
        >>> with tempfile.TemporaryDirectory() as d:
        ...     pnp.save(os.path.join(d, "x"), pnp.array([1.5, 2.0]))
        ...     pnp.load(os.path.join(d, "x.npy")).tolist()
        [1.5, 2.0]
    """
    _no_pickle("save", allow_pickle)
    buf = io.BytesIO()
    np.save(buf, np.asarray(_concrete("save", to_array(arr), "arr")), allow_pickle=False)
    _write(_with_suffix(file, ".npy"), buf.getvalue())


def savez(file: Any, *args: Any, allow_pickle: builtins.bool = False, **kwds: Any) -> None:
    """Write several arrays to one uncompressed `.npz` archive (positional ones as arr_0, arr_1, ...), atomically.

    Args:
        file: a path ('.npz' is appended if missing) or a binary file object.
        *args, **kwds: the arrays, unnamed and named.
        allow_pickle: must be False.

    Returns:
        None.

    Examples:
        >>> import os, tempfile, padax.numpy as pnp
        >>> with tempfile.TemporaryDirectory() as d:
        ...     pnp.savez(os.path.join(d, "a"), pnp.array([1, 2]), w=pnp.ones(2))
        ...     data = pnp.load(os.path.join(d, "a.npz"))
        ...     sorted(data), data["w"].tolist()
        (['arr_0', 'w'], [1.0, 1.0])
    """
    _no_pickle("savez", allow_pickle)
    arrays = {f"arr_{i}": a for i, a in enumerate(args)}
    for k, v in kwds.items():
        if k in arrays:
            raise op_value_error("savez", f"cannot use {k!r} both as a keyword and a positional name")
        arrays[k] = v
    host = {k: np.asarray(_concrete("savez", to_array(v), k)) for k, v in arrays.items()}
    buf = io.BytesIO()
    np.savez(buf, allow_pickle=False, **host)
    _write(_with_suffix(file, ".npz"), buf.getvalue())


def _from_host(a: np.ndarray) -> Any:
    if a.dtype == np.dtype("V2"):  # bfloat16 is written as 2-byte void by numpy
        a = a.view(D.bfloat16)
    return to_array(a)


def load(file: Any, mmap_mode: Any = None, allow_pickle: builtins.bool = False, **kwargs: Any) -> Any:
    """Read a `.npy` file as an array, or a `.npz` archive as a dict of arrays (never unpickles).

    Args:
        file: a path or a binary file object.
        mmap_mode: numpy's memory-map mode (the data are copied to the device anyway).
        allow_pickle: must be False.
        **kwargs: passed to numpy.load.

    Returns:
        An array (.npy) or a dict name -> array (.npz; jax returns numpy's NpzFile).

    Examples:
        >>> import io, padax.numpy as pnp
        >>> buf = io.BytesIO(); pnp.save(buf, pnp.arange(3)); _ = buf.seek(0)
        >>> pnp.load(buf).tolist()
        [0, 1, 2]
    """
    _no_pickle("load", allow_pickle)
    out = np.load(file, mmap_mode=mmap_mode, allow_pickle=False, **kwargs)
    if isinstance(out, np.lib.npyio.NpzFile):
        with out:
            return {k: _from_host(np.asarray(out[k])) for k in out.files}
    return _from_host(np.asarray(out))


# the index-trick objects are instances: their examples are collected through __test__
__test__ = {name: obj.__doc__ for name, obj in (("mgrid", mgrid), ("ogrid", ogrid), ("r_", r_), ("c_", c_),
                                                 ("s_", s_), ("index_exp", index_exp))}

__all__ = ["mgrid", "ogrid", "r_", "c_", "s_", "index_exp", "ix_", "insert", "delete", "block", "fill_diagonal",
           "diag_indices_from", "tril_indices_from", "triu_indices_from", "mask_indices", "compress", "extract",
           "choose", "piecewise", "place", "put", "put_along_axis", "resize", "rollaxis", "apply_along_axis",
           "apply_over_axes", "vectorize", "fromfunction", "matvec", "vecmat", "packbits", "unpackbits",
           "einsum_path", "array_repr", "array_str", "get_printoptions", "set_printoptions", "iterable",
           "frombuffer", "fromstring", "fromiter", "load", "save", "savez", "ComplexWarning"]
