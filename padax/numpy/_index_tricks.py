"""jax.numpy's index tricks: the mgrid/ogrid meshes, the r_/c_ concatenators, the s_/index_exp
index expressions and ix_ (open meshes from index arrays)."""
from __future__ import annotations

import builtins
import re
from typing import Any

import numpy as np

import padax.numpy as pnp
from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.numpy import _dtypes as D
from padax.numpy._util import is_array, to_array


def _grid_1d(s: slice) -> Any:
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


# the index-trick objects are instances: their examples are collected through __test__
__test__ = {name: obj.__doc__ for name, obj in (("mgrid", mgrid), ("ogrid", ogrid), ("r_", r_), ("c_", c_),
                                                 ("s_", s_), ("index_exp", index_exp))}


__all__ = ["mgrid", "ogrid", "r_", "c_", "s_", "index_exp", "ix_"]
