"""NumPy's `where=` and `initial=` keywords of the reductions and `where=` of var/std (as jax.numpy).

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


_SPREADS = ("var", "std", "nanvar", "nanstd")
_SPREAD_ARGS = ("axis", "dtype", "out", "ddof", "keepdims")  # NumPy's positional order


def _wrap_spread(name: str, fn: Callable, ns: dict) -> Callable:
    """var/std (and the nan variants) with a `where` mask: deviations from the masked mean, divided
    by the number of kept elements less ddof."""
    @functools.wraps(fn)
    def spread(a: Any, *args: Any, where: Any = None, **kwargs: Any) -> Any:
        if where is None:
            return fn(a, *args, **kwargs)
        kw = dict(zip(_SPREAD_ARGS, args), **kwargs)
        if kw.pop("out", None) is not None:
            raise TypeError(f"padax.numpy.{name}: out= is not supported (padax arrays are immutable); "
                            "use the returned array")
        ddof = kw.pop("ddof", None)
        ddof = kw.pop("correction", 0) if ddof is None else ddof
        axis, keepdims, dtype = kw.pop("axis", None), bool(kw.pop("keepdims", False)), kw.pop("dtype", None)
        if kw:
            raise TypeError(f"padax.numpy.{name}() got an unexpected keyword argument {next(iter(kw))!r}")
        a = ns["asarray"](a) if dtype is None else ns["asarray"](a, dtype=dtype)
        mask = ns["broadcast_to"](ns["asarray"](where, dtype=bool), a.shape)
        if name.startswith("nan"):
            mask = ns["logical_and"](mask, ns["logical_not"](ns["isnan"](a)))
        mean = ns["mean"](a, axis=axis, keepdims=True, where=mask)
        dev = ns["abs"](ns["where"](mask, ns["subtract"](a, mean), 0)) ** 2
        total = ns["sum"](dev, axis=axis, keepdims=keepdims)
        count = ns["sum"](mask.astype(total.dtype), axis=axis, keepdims=keepdims)
        var = ns["true_divide"](total, ns["subtract"](count, ddof))
        return ns["sqrt"](var) if name.endswith("std") else var
    return spread


def install(namespace: dict) -> None:
    """Give padax.numpy's reductions (already in NumPy's calling convention) `where=`/`initial=`."""
    for name in (*_IDENTITY, *_EXTREMA, *_MEANS):
        if name in namespace:
            namespace[name] = _wrap(name, namespace[name], namespace)
    for name in _SPREADS:
        if name in namespace:
            namespace[name] = _wrap_spread(name, namespace[name], namespace)
