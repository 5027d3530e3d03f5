"""jax.numpy's function helpers: apply_along_axis/apply_over_axes, vectorize (with gufunc signatures)
and fromfunction, built on padax.vmap."""
from __future__ import annotations

import builtins
import functools
import re
from typing import Any, Callable

import numpy as np

import padax.numpy as pnp
from padax import vmap
from padax.core.errors import op_value_error
from padax.numpy import _dtypes as D
from padax.numpy._util import axis as _axis, to_array


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
    in_core = None if signature is None else _parse_signature(signature)[0]

    @functools.wraps(pyfunc)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
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
    shape = (shape,) if isinstance(shape, (builtins.int, np.integer)) else tuple(shape)
    dt = D.default_float() if dtype is float else (D.default_int() if dtype is builtins.int else dtype)

    def f(*coords: Any) -> Any:
        return function(*coords, **kwargs)

    for i in builtins.range(len(shape)):
        f = vmap(f, in_axes=tuple(0 if j == len(shape) - 1 - i else None for j in builtins.range(len(shape))))
    return f(*(pnp.arange(s, dtype=dt) for s in shape))


__all__ = ["apply_along_axis", "apply_over_axes", "vectorize", "fromfunction"]
