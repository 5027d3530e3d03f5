"""NumPy's `where=` and `initial=` keywords of the reductions (as jax.numpy has them).

`where` masks elements out of the reduction (they count as the reduction's identity; a masked
mean divides by the number of elements kept); `initial` is one more element of every reduction.
max/min have no identity, so a mask needs `initial`, as in NumPy.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

from padax.numpy import _dtypes as D

_IDENTITY = {"sum": 0, "nansum": 0, "prod": 1, "nanprod": 1, "all": True, "any": False}
_EXTREMA = {"max": "maximum", "amax": "maximum", "nanmax": "maximum",
            "min": "minimum", "amin": "minimum", "nanmin": "minimum"}
_COMBINE = {"sum": "add", "nansum": "add", "prod": "multiply", "nanprod": "multiply"}
_MEANS = ("mean", "nanmean")


def _lowest(dtype: np.dtype, largest: bool) -> Any:
    """The value that never wins a max (largest=False) or min (largest=True) in `dtype`."""
    if D.kind(dtype) == 0:
        return largest
    if D.kind(dtype) == 1:
        info = np.iinfo(dtype)
        return int(info.max if largest else info.min)
    return np.inf if largest else -np.inf


def _wrap(name: str, fn: Callable, ns: dict) -> Callable:
    @functools.wraps(fn)
    def reduce(a: Any, *args: Any, where: Any = None, initial: Any = None, **kwargs: Any) -> Any:
        if where is None and initial is None:
            return fn(a, *args, **kwargs)
        a = ns["asarray"](a)
        if where is not None:
            mask = ns["broadcast_to"](ns["asarray"](where, dtype=bool), a.shape)
            if name in _MEANS:
                if name == "nanmean":
                    mask = ns["logical_and"](mask, ns["logical_not"](ns["isnan"](a)))
                total = ns["sum"](ns["where"](mask, a, 0), *args, **kwargs)
                count = ns["sum"](mask.astype(total.dtype), *args, **kwargs)
                return ns["true_divide"](total, count)  # integers give the default float, as mean()
            if name in _EXTREMA:
                if initial is None:
                    raise ValueError(f"padax.numpy.{name}: a `where` mask needs `initial` (the reduction has no "
                                     "identity), as in NumPy")
                fill = _lowest(a.dtype, largest=_EXTREMA[name] == "minimum")
            else:
                fill = _IDENTITY[name]
            a = ns["where"](mask, a, ns["asarray"](fill, dtype=a.dtype))
        out = fn(a, *args, **kwargs)
        if initial is not None:
            if name in _MEANS or name in ("all", "any"):
                raise TypeError(f"padax.numpy.{name}() got an unexpected keyword argument 'initial'")
            combine = ns[_EXTREMA.get(name) or _COMBINE[name]]
            out = combine(out, ns["asarray"](initial, dtype=out.dtype))
        return out
    return reduce


def install(namespace: dict) -> None:
    """Give padax.numpy's reductions (already in NumPy's calling convention) `where=`/`initial=`."""
    for name in (*_IDENTITY, *_EXTREMA, *_MEANS):
        if name in namespace:
            namespace[name] = _wrap(name, namespace[name], namespace)
