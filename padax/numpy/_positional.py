"""NumPy's (and jax.numpy's) calling conventions on top of the Array API signatures.

padax.numpy's functions have the Array API standard's signatures (arrays
positional-only, options keyword-only). NumPy and JAX programs also pass the
options positionally (`sum(x, 0)`, `zeros(3, float32)`, `tensordot(a, b, 2)`)
and use NumPy's spellings (`ddof=`, `out=None`, `order="C"`, `*_like(...,
shape=)`, `linspace(..., retstep=True)`, `take(..., unique_indices=)`, and
jax's `out_sharding=`, which lays the result out as padax.reshard does). The
wrappers here accept both: extra positional arguments go, in NumPy's order, to
the named options; the standard's keywords keep working.
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

from padax.numpy._creation import full, samples_along
from padax.numpy._elementwise import divide, subtract
from padax.numpy._misc import astype
from padax.numpy._util import to_array

_POS = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)

# function -> NumPy's names of the options that follow its own positional parameters
POSITIONAL = {
    "sum": ("axis", "dtype", "out", "keepdims"), "prod": ("axis", "dtype", "out", "keepdims"),
    "mean": ("axis", "dtype", "out", "keepdims"),
    "max": ("axis", "out", "keepdims"), "min": ("axis", "out", "keepdims"),
    "amax": ("axis", "out", "keepdims"), "amin": ("axis", "out", "keepdims"),
    "all": ("axis", "out", "keepdims"), "any": ("axis", "out", "keepdims"),
    "argmax": ("axis", "out", "keepdims"), "argmin": ("axis", "out", "keepdims"),
    "ptp": ("axis", "out", "keepdims"), "count_nonzero": ("axis", "keepdims"),
    "std": ("axis", "dtype", "out", "ddof", "keepdims"), "var": ("axis", "dtype", "out", "ddof", "keepdims"),
    "sort": ("axis",), "argsort": ("axis",), "flip": ("axis",), "roll": ("axis",), "tril": ("k",), "triu": ("k",),
    "diff": ("n", "axis", "prepend", "append"), "repeat": ("axis",), "stack": ("axis", "out", "dtype"),
    "take": ("axis", "out", "mode", "unique_indices", "indices_are_sorted", "fill_value"),
    "take_along_axis": ("axis", "mode", "fill_value"), "searchsorted": ("side", "sorter"),
    "isin": ("assume_unique", "invert"), "around": ("out",), "round": ("out",), "reshape": ("order",),
    "asarray": ("dtype", "order"), "zeros": ("dtype",), "ones": ("dtype",), "empty": ("dtype",),
    "full": ("dtype",), "zeros_like": ("dtype", "shape"), "ones_like": ("dtype", "shape"),
    "empty_like": ("dtype", "shape"), "full_like": ("dtype", "shape"), "arange": ("dtype",),
    "eye": ("k", "dtype"), "linspace": ("endpoint", "retstep", "dtype", "axis"),
    # jax's out_sharding= keyword only
    "dot": (), "matmul": (), "einsum": (), "tensordot": (), "vecdot": (), "inner": (), "vdot": (),
    "array": (), "broadcast_to": (), "concatenate": (), "transpose": (), "expand_dims": (), "squeeze": (),
}

# keywords NumPy has that only say "no" in padax (arrays are immutable, memory order is XLA's)
_MUST_BE = {"out": (None,), "order": (None, "C", "K", "A"), "assume_unique": (False, True)}
# hints with no effect on the values (indices are checked or clamped anyway)
_HINTS = ("unique_indices", "indices_are_sorted")


# functions that implement NumPy's `order` themselves
_ORDER_AWARE = ("reshape",)


def _numpy_kwargs(name: str, kwargs: dict) -> dict:
    for k, allowed in _MUST_BE.items():
        if k in kwargs and not (k == "order" and name in _ORDER_AWARE):
            v = kwargs.pop(k)
            if not any(v is a or (isinstance(v, str) and v == a) for a in allowed):
                shown = repr(v) if isinstance(v, (str, bool)) else f"<{type(v).__name__}>"
                raise TypeError(f"padax.numpy.{name}: {k}={shown} is not supported (padax arrays are immutable "
                                f"and laid out by XLA); use the returned array")
    for k in _HINTS:
        kwargs.pop(k, None)
    if "ddof" in kwargs:
        kwargs["correction"] = kwargs.pop("ddof")
    return kwargs


def numpy_style(fn: Callable, name: str, extra: tuple[str, ...]) -> Callable:
    """`fn` also called NumPy's way: positional options `extra` after its own positional parameters."""
    params = list(inspect.signature(fn).parameters.values())
    n_pos = sum(p.kind in _POS for p in params)
    has_var = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params)
    special = _SPECIAL.get(name)

    @functools.wraps(fn)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if len(args) > n_pos and not has_var:
            if len(args) > n_pos + len(extra):
                raise TypeError(f"padax.numpy.{name}() takes at most {n_pos + len(extra)} positional arguments, "
                                f"got {len(args)}")
            for k, v in zip(extra, args[n_pos:]):
                if k in kwargs:
                    raise TypeError(f"padax.numpy.{name}() got multiple values for argument {k!r}")
                kwargs[k] = v
            args = args[:n_pos]
        kwargs = _numpy_kwargs(name, kwargs)
        out_sharding = kwargs.pop("out_sharding", None)
        out = special(fn, args, kwargs) if special is not None else fn(*args, **kwargs)
        if out_sharding is not None:
            from padax.sharding import reshard  # circular: padax.sharding needs all of padax, which loads this module
            out = reshard(out, out_sharding)
        return out

    return wrapped


def _cast_input(fn, args, kwargs):
    """std/var with NumPy's `dtype=`: compute in that dtype."""
    dtype = kwargs.pop("dtype", None)
    if dtype is not None:
        args = (astype(args[0], dtype),) + args[1:]
    return fn(*args, **kwargs)


def _cast_inputs(fn, args, kwargs):
    """stack with NumPy's `dtype=`: the arrays are cast first."""
    dtype = kwargs.pop("dtype", None)
    if dtype is not None:
        args = ([astype(a, dtype) for a in args[0]],) + args[1:]
    return fn(*args, **kwargs)


def _like(fill: Any) -> Callable:
    """zeros_like & co with NumPy's `shape=`: the prototype's dtype, another shape."""
    def call(fn, args, kwargs):
        shape = kwargs.pop("shape", None)
        if shape is None:
            return fn(*args, **kwargs)
        proto = to_array(args[0])
        value = fill
        if fill is None:  # full_like: the fill value is the second argument
            value = args[1] if len(args) > 1 else kwargs.pop("fill_value")
        return full(shape, value, dtype=kwargs.get("dtype") or proto.aval.dtype, device=kwargs.get("device"))
    return call


def _linspace(fn, args, kwargs):
    """linspace with NumPy's `retstep=` (also return the spacing) and `axis=` (where the samples go)."""
    retstep = kwargs.pop("retstep", False)
    axis = kwargs.pop("axis", 0)
    out = samples_along(fn(*args, **kwargs), axis)
    if not retstep:
        return out
    start, stop = args[0], args[1]
    num = args[2] if len(args) > 2 else kwargs["num"]
    div = (num - 1) if kwargs.get("endpoint", True) else num
    step = divide(subtract(to_array(stop), to_array(start)), div) if div > 0 else float("nan")
    return out, step


_SPECIAL = {"std": _cast_input, "var": _cast_input, "stack": _cast_inputs, "zeros_like": _like(0),
            "ones_like": _like(1), "empty_like": _like(0), "full_like": _like(None), "linspace": _linspace}


def install(namespace: dict) -> None:
    """Wrap the functions of `namespace` (padax.numpy's globals) listed in POSITIONAL."""
    for name, extra in POSITIONAL.items():
        if name in namespace:
            namespace[name] = numpy_style(namespace[name], name, extra)
