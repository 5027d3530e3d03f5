"""Paddle's in-place Tensor updates, functionalized by rebinding: `x.add_(y)`, `x[i] = v`, `out=`.

Arrays stay immutable: an in-place update computes the new value with the functional op
(`x.add_(y)` is `padax.add(x, y)`) and then rebinds the Python object `x` to it (`rebind`).
Every name that refers to the object sees the update (`b = a; b.add_(1)` changes `a`).
What padax cannot give is shared storage: a slice or view (`x[0]`, `x.reshape(...)`,
`x.T`) is a new Tensor, so updating it in place leaves `x` alone (Paddle writes through).

An update is bound to its object when the new value lives at the same level of tracing as the
object: eagerly, a Tensor gets a Tensor; inside `jit`, `grad` or `vmap`, a tracer of that
transformation gets a tracer of the same one. A concrete Tensor (closed over, or an argument
of the eager caller) updated with a traced value, or an outer transformation's tracer updated
with an inner one's, cannot be rebound and raises ImmutableTensorError. A jitted function that
closed over a Tensor sees that Tensor's eager in-place updates on its next call: rebinding a captured
Tensor drops the compiled programs that hold its old buffer (padax/runtime/array.py `_captured`).
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from padax.core.abstract import get_aval
from padax.core.errors import immutable_error, op_type_error, op_value_error
from padax.core.source_info import user_location
from padax.core.trace import Tracer
from padax.functional import (
    creation as C,
    indexing as I,
    lax_api as lax,
    manipulation as S,
    math as M,
)
from padax.functional._arrays import asarray, broadcast_to
from padax.functional._rebind import rebind, write_out
from padax.functional.lax.custom import stop_gradient
from padax.runtime.array import Tensor

# ---- the methods -------------------------------------------------------------------------------

# in-place methods whose result may change x's shape (or whose functional form returns another shape)
_RESHAPING = frozenset("reshape_ squeeze_ unsqueeze_ flatten_ transpose_ t_ cast_ cumsum_ cumprod_ set_ resize_ "
                       "reconstruct_from_ apply_ detach_".split())

# Paddle's in-place names whose functional twin is the Tensor method without the underscore
_SIMPLE = ("abs_ acos_ acosh_ add_ addmm_ apply_ asin_ asinh_ atan_ atanh_ baddbmm_ bitwise_and_ bitwise_invert_ "
           "bitwise_left_shift_ bitwise_not_ bitwise_or_ bitwise_right_shift_ bitwise_xor_ cast_ ceil_ clamp_ clip_ "
           "copysign_ cos_ cosh_ cumprod_ cumsum_ digamma_ div_ divide_ equal_ erf_ erfinv_ exp_ expm1_ "
           "fill_diagonal_tensor_ flatten_ floor_ floor_divide_ floor_mod_ frac_ gammaln_ gcd_ greater_equal_ "
           "greater_than_ hypot_ index_add_ index_fill_ index_put_ lcm_ ldexp_ lerp_ less_ less_equal_ less_than_ "
           "lgamma_ log10_ log1p_ log2_ log_ logical_and_ logical_not_ logical_or_ logical_xor_ logit_ masked_fill_ "
           "masked_scatter_ mod_ mul_ multigammaln_ multiply_ nan_to_num_ neg_ not_equal_ polygamma_ pow_ "
           "put_along_axis_ reciprocal_ remainder_ renorm_ reshape_ round_ rsqrt_ scale_ scatter_ scatter_add_ "
           "sigmoid_ sin_ sinc_ sinh_ sqrt_ square_ squeeze_ sub_ subtract_ t_ tan_ tanh_ transpose_ tril_ triu_ "
           "trunc_ unsqueeze_").split()

_VIEW_NOTE = ("padax Tensors share no storage: updating a slice or view of another Tensor (x[0], x.reshape(...)) "
              "in place leaves that Tensor unchanged, where Paddle writes through")


def _document(method: Callable, name: str, what: str) -> Callable:
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"In place: {what}; returns x, the same object. {_VIEW_NOTE}."
    return method


def _simple(name: str, twin: Callable) -> Callable:
    base, same = name[:-1], name not in _RESHAPING

    def method(self, *args, **kwargs):
        return rebind(self, twin(self, *args, **kwargs), f"Tensor.{name}()", same)
    return _document(method, name, f"x = x.{base}(...) (padax.{base}), rebinding x")


def _fill(x, value):
    """x = a Tensor of x's shape and dtype filled with value."""
    return rebind(x, C.full_like(x, value), "Tensor.fill_()")


def _zero(x):
    """x = zeros of x's shape and dtype."""
    return rebind(x, C.zeros_like(x), "Tensor.zero_()")


def _same_dtype_shape(x, value, op):
    value = asarray(value)
    aval = get_aval(x)
    if get_aval(value).dtype != aval.dtype:
        value = M.cast(value, aval.dtype)
    if get_aval(value).shape != aval.shape:
        value = broadcast_to(value, aval.shape)
    return value


def _copy(x, src, blocking: bool = True):
    """x = src (cast to x's dtype, broadcast to x's shape)."""
    return rebind(x, _same_dtype_shape(x, src, "Tensor.copy_()"), "Tensor.copy_()")


def _set_value(x, value):
    """x = value (a Tensor, numpy array or nested list of x's shape; cast to x's dtype)."""
    v = asarray(value)
    if get_aval(v).shape != get_aval(x).shape:
        raise op_value_error("Tensor.set_value()", f"the value's shape {list(get_aval(v).shape)} differs from the "
                                                   f"Tensor's shape {list(get_aval(x).shape)}")
    return rebind(x, _same_dtype_shape(x, v, "Tensor.set_value()"), "Tensor.set_value()")


def _set(x, source=None, shape=None, stride=None, offset: int = 0, name=None):
    """x = source (its values, shape and dtype); with shape/stride/offset, x = as_strided(source, ...).
    Paddle makes x share source's storage; here x gets source's value, later updates do not propagate."""
    if source is None:
        value = C.zeros([0], get_aval(x).dtype)
    else:
        value = asarray(source)
        if shape is not None or stride is not None or offset:
            shp = list(get_aval(value).shape) if shape is None else list(shape)
            st = _strides(shp) if stride is None else list(stride)
            value = S.as_strided(S.flatten(value) if get_aval(value).ndim else value, shp, st, offset)
    return rebind(x, value, "Tensor.set_()", same_shape=False)


def _strides(shape: list) -> list:
    out, acc = [], 1
    for d in reversed(shape):
        out.append(acc)
        acc *= max(int(d), 1)
    return out[::-1]


def _resize(x, shape, fill_zero: bool = False, name=None):
    """x resized to `shape`: its first elements in row-major order kept, new ones zero (Paddle leaves them
    uninitialized unless fill_zero; padax always zeroes them)."""
    shape = [int(d) for d in shape]
    n = int(np.prod(shape, dtype=np.int64))
    flat = S.flatten(x) if get_aval(x).ndim else S.reshape(x, [1])
    have = get_aval(flat).shape[0]
    if n <= have:
        flat = lax.slice_in_dim(flat, 0, n, 1, 0)
    else:
        flat = S.concat([flat, C.zeros([n - have], get_aval(x).dtype)])
    return rebind(x, S.reshape(flat, shape), "Tensor.resize_()", same_shape=False)


def _fill_diagonal(x, value, offset: int = 0, wrap: bool = False, name=None):
    """x with `value` on its diagonal (offset; wrap: restart below for tall 2-D x), as Paddle's kernel:
    positions every sum(strides) elements of the flat array, kept within their row."""
    shape = get_aval(x).shape
    if len(shape) < 2 or (len(shape) > 2 and len(set(shape)) != 1):
        raise op_value_error("Tensor.fill_diagonal_()", f"x must be 2-D or have all dimensions equal, got "
                                                        f"shape {list(shape)}")
    wrap = wrap or len(shape) > 2
    cols, size = shape[1], int(np.prod(shape, dtype=np.int64))
    step = int(sum(_strides(list(shape))))
    end = size if wrap else min(size, cols * cols)
    pos = [i + offset for i in range(0, end, step) if 0 <= i % cols + offset < cols]
    flat = S.flatten(x)
    if pos:
        flat = flat.at[np.asarray(pos, np.int64)].set(value)
    return rebind(x, S.reshape(flat, list(shape)), "Tensor.fill_diagonal_()")


def _where_(condition, x=None, y=None, name=None):
    """x = where(condition, x, y): Paddle's where_ updates x (the method is called on the condition)."""
    if not isinstance(x, (Tensor, Tracer)):
        raise TypeError(f"where_: x must be a Tensor to update in place, got {type(x).__name__}{user_location()}")
    return rebind(x, M.where(condition, x, y), "where_()")


def _detach(x):
    """x = stop_gradient(x): gradients no longer flow through x's later uses."""
    return rebind(x, stop_gradient(x), "Tensor.detach_()", same_shape=False)


def _reconstruct_from(x, other):
    """x = other."""
    return rebind(x, other, "Tensor.reconstruct_from_()", same_shape=False)


def setitem(x, key, value) -> None:
    """`x[key] = value`: x = x.at[key].set(value), value cast to x's dtype and broadcast to x[key]'s shape."""
    rebind(x, I.update(x, key, value, "set"), "item assignment x[...] = value")


_SPECIAL = {"fill_": _fill, "zero_": _zero, "copy_": _copy, "set_value": _set_value, "set_": _set,
            "resize_": _resize, "fill_diagonal_": _fill_diagonal, "where_": _where_, "detach_": _detach,
            "reconstruct_from_": _reconstruct_from}
for _name, _fn in _SPECIAL.items():
    _document(_fn, _name, _fn.__doc__.rstrip("."))

# in-place methods whose functional twin lives above this floor (random draws, special functions):
# the module that defines it registers it here when it loads (see `register`); `late_loader`,
# installed by padax/__init__, loads that module at the first call.
_LATE: dict[str, Callable] = {}
LATE_NAMES = ("bernoulli_", "cauchy_", "exponential_", "geometric_", "log_normal_", "normal_", "random_", "uniform_",
              "gammainc_", "gammaincc_", "i0_")
late_loader: Callable[[str], None] | None = None


def register(name: str, twin: Callable[..., Any]) -> None:
    """Install `twin(x, *args, **kwargs) -> new value` as the in-place method `name` (a LATE_NAMES entry)."""
    _LATE[name] = twin


def _late(name: str) -> Callable:
    def method(self, *args, **kwargs):
        twin = _LATE.get(name)
        if twin is None and late_loader is not None:
            late_loader(name)
            twin = _LATE.get(name)
        if twin is None:
            raise AttributeError(f"Tensor.{name}: its module is not loaded{user_location()}")
        return rebind(self, twin(self, *args, **kwargs), f"Tensor.{name}()")
    return _document(method, name, f"x = a new value from padax's {name[:-1]} (see padax.{name[:-1]})")


# kept refused: they mark a Tensor for Paddle's gradient tape, which padax does not have
_REFUSED = {"grad_": "gradients come from x.backward() (x.grad) or padax.grad"}


def _refused(name: str, instead: str) -> Callable:
    def method(self, *args, **kwargs):
        raise immutable_error(f"Tensor.{name}() is not a padax method", instead)
    method.__name__ = name
    method.__doc__ = f"Not available: {instead}."
    return method


def methods(cls: type) -> dict[str, Callable]:
    """The in-place methods for `cls` (Tensor or Tracer), built on its functional methods."""
    out = {name: _simple(name, getattr(cls, name[:-1])) for name in _SIMPLE}
    out.update(_SPECIAL)
    for name in LATE_NAMES:
        out[name] = _late(name)
    for name, instead in _REFUSED.items():
        out[name] = _refused(name, instead)
    out["__setitem__"] = setitem
    return out


def install(cls: type) -> None:
    for name, fn in methods(cls).items():
        setattr(cls, name, fn)


# ---- Paddle's module-level in-place functions (paddle.tanh_(x), paddle.where_(c, x, y), ...) -----

MODULE_NAMES = ("abs_ acos_ acosh_ addmm_ asin_ asinh_ atan_ atanh_ baddbmm_ bernoulli_ bitwise_and_ "
                "bitwise_invert_ bitwise_left_shift_ bitwise_not_ bitwise_or_ bitwise_right_shift_ bitwise_xor_ cast_ "
                "cauchy_ copysign_ cos_ cosh_ cumprod_ cumsum_ digamma_ div_ divide_ equal_ erf_ expm1_ flatten_ "
                "floor_divide_ floor_mod_ frac_ gammainc_ gammaincc_ gammaln_ gcd_ geometric_ greater_equal_ "
                "greater_than_ hypot_ i0_ index_add_ index_fill_ index_put_ lcm_ ldexp_ less_ less_equal_ less_than_ "
                "lgamma_ log10_ log1p_ log2_ log_ log_normal_ logical_and_ logical_not_ logical_or_ logical_xor_ logit_ "
                "masked_fill_ masked_scatter_ mod_ multigammaln_ multiply_ nan_to_num_ neg_ normal_ not_equal_ "
                "polygamma_ pow_ remainder_ renorm_ reshape_ scatter_ scatter_add_ sin_ sinc_ sinh_ square_ squeeze_ "
                "sub_ subtract_ t_ tan_ tanh_ transpose_ tril_ triu_ trunc_ unsqueeze_ where_").split()


def _module_function(name: str) -> Callable:
    def fn(x, *args, **kwargs):
        if not isinstance(x, (Tensor, Tracer)):
            raise op_type_error(name, f"updates a Tensor in place, so x must be a Tensor, got {type(x).__name__} "
                                      f"{x!r:.60}; use padax.{name[:-1]}(x, ...) for a new one")
        return getattr(x, name)(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = __name__
    target = "the condition's x" if name == "where_" else "x"
    fn.__doc__ = (f"Paddle's {name}: updates {target} in place (`x.{name}(...)`, the functional "
                  f"padax.{name[:-1]} then rebinding) and returns it. {_VIEW_NOTE}.")
    return fn


for _name in MODULE_NAMES:
    globals()[_name] = _module_function(_name)
del _name

__all__ = ["rebind", "write_out", "setitem", "register", "install", "LATE_NAMES", "MODULE_NAMES", *MODULE_NAMES]
