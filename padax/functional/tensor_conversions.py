"""Paddle's Tensor methods that are not ops, attached to Tensor and Tracer (`methods` imports this module).

Three kinds:
- methods that compute a new Tensor: the top-level functions as methods (x.gt(y), x.permute(1, 0),
  x.cholesky(), ...), dtype conversions (x.float(), x.long(), x.float64(), ...), `to`, `type_as`,
  `new_zeros`/`new_full`/..., `repeat`, `split_with_sizes`, `fill_diagonal_tensor`;
- questions about the Tensor that Paddle answers (element_size, strides, is_contiguous, ...), answered
  for an immutable dense array; `detach`/`contiguous`/`cpu` return a Tensor with the same values;
- Paddle's in-place `*_` methods, `set_value` and `x[i] = v`: padax/functional/inplace.py (the new value
  is computed functionally and the object rebound to it);
- what padax leaves out by design: setters of internal state, each raising an error naming what to use
  instead. (The tape's methods, `backward`/`grad`/`stop_gradient`/hooks, are padax/functional/tape_api.py.)
"""
from __future__ import annotations

from typing import Any

from padax.core.errors import immutable_error
from padax.core.trace import Tracer
from padax.functional import (
    creation as C,
    indexed as X,
    inplace,
    manipulation as S,
    math as M,
    reduction as R,
    search as Q,
    stats as ST,
)
from padax.functional._checks import placed
from padax.runtime.array import Tensor
from padax.runtime.place import Place, place_of

# ---- in-place methods: Paddle's list; padax/functional/inplace.py defines them by rebinding --------

_INPLACE = ("abs_ acos_ acosh_ add_ addmm_ apply_ asin_ asinh_ atan_ atanh_ baddbmm_ bernoulli_ bitwise_and_ "
            "bitwise_invert_ bitwise_left_shift_ bitwise_not_ bitwise_or_ bitwise_right_shift_ bitwise_xor_ cast_ "
            "cauchy_ ceil_ clamp_ clip_ copy_ copysign_ cos_ cosh_ cumprod_ cumsum_ detach_ digamma_ div_ divide_ "
            "equal_ erfinv_ exp_ exponential_ fill_ fill_diagonal_ fill_diagonal_tensor_ flatten_ floor_ "
            "floor_divide_ floor_mod_ frac_ gammainc_ gammaincc_ gammaln_ gcd_ geometric_ grad_ greater_equal_ "
            "greater_than_ hypot_ i0_ index_add_ index_fill_ index_put_ lcm_ ldexp_ lerp_ less_ less_equal_ "
            "less_than_ lgamma_ log10_ log1p_ log2_ log_ log_normal_ logical_and_ logical_not_ logical_or_ "
            "logical_xor_ logit_ masked_fill_ masked_scatter_ mod_ mul_ multigammaln_ multiply_ nan_to_num_ neg_ "
            "normal_ not_equal_ polygamma_ pow_ put_along_axis_ random_ reciprocal_ reconstruct_from_ remainder_ "
            "renorm_ requires_grad_ reshape_ resize_ round_ rsqrt_ scale_ scatter_ scatter_add_ set_ sigmoid_ sin_ "
            "sinc_ sinh_ sqrt_ square_ squeeze_ sub_ subtract_ t_ tan_ tanh_ transpose_ tril_ triu_ trunc_ uniform_ "
            "unsqueeze_ where_ zero_").split()

def _state_setter(name: str):
    def method(self, *args, **kwargs):
        raise immutable_error(f"Tensor.{name}() replaces x's contents", "x = padax.to_tensor(value)")
    method.__name__ = name
    return method


# ---- conversions and new Tensors ------------------------------------------------------------------

_CONVERSIONS = {"float": "float32", "double": "float64", "half": "float16", "bfloat16": "bfloat16", "int": "int32",
                "long": "int64", "short": "int16", "char": "int8", "byte": "uint8", "bool": "bool",
                "cfloat": "complex64", "cdouble": "complex128", "float16": "float16", "float32": "float32",
                "float64": "float64", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
                "uint8": "uint8", "complex64": "complex64", "complex128": "complex128"}


def _conversion(name: str, dtype: str):
    def method(self):
        return M.cast(self, dtype)
    method.__name__ = name
    method.__doc__ = f"x cast to {dtype}."
    return method


def _is_place_like(v: Any) -> bool:
    return isinstance(v, Place) or hasattr(v, "platform") or (
        isinstance(v, str) and v.split(":")[0].lower() in ("cpu", "gpu", "cuda", "xpu", "npu"))


def _to(self, *args, **kwargs):
    """x on another device and/or of another dtype: x.to('float64'), x.to('cpu'), x.to(y) (y's dtype),
    x.to(device, dtype), x.to(dtype=..., device=...); `blocking`/`copy` are accepted and ignored."""
    device, dtype = kwargs.pop("device", None), kwargs.pop("dtype", None)
    kwargs.pop("blocking", None), kwargs.pop("non_blocking", None), kwargs.pop("copy", None)
    if kwargs:
        raise TypeError(f"Tensor.to: unexpected arguments {sorted(kwargs)}")
    for a in args:
        if isinstance(a, (Tensor, Tracer)):
            dtype = a.dtype
        elif _is_place_like(a):
            device = a
        elif isinstance(a, bool) or a is None:
            continue
        else:
            dtype = a
    out = self if dtype is None else M.cast(self, dtype)
    if device is not None:
        out = placed(out, device)
    return out


def _type_as(self, other):
    """x cast to other's dtype."""
    return M.cast(self, other.dtype)


def _size(size: tuple) -> Any:
    """x.new_zeros(2, 3) and x.new_zeros([2, 3]) alike."""
    return size[0] if len(size) == 1 and isinstance(size[0], (list, tuple, Tensor, Tracer)) else list(size)


def _new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new Tensor of `size` filled with fill_value, of x's dtype unless `dtype` is given."""
    return C.full(size, fill_value, self.dtype if dtype is None else dtype, device=device)


def _new_zeros(self, *size, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """Zeros of `size` (a list, or the sizes as arguments), of x's dtype unless `dtype` is given."""
    return C.full(_size(size), 0, self.dtype if dtype is None else dtype, device=device)


def _new_ones(self, *size, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """Ones of `size` (a list, or the sizes as arguments), of x's dtype unless `dtype` is given."""
    return C.full(_size(size), 1, self.dtype if dtype is None else dtype, device=device)


def _repeat(self, *repeats):
    """x tiled: repeats[i] copies along axis i (torch's repeat, Paddle's Tensor.repeat)."""
    if len(repeats) == 1 and isinstance(repeats[0], (list, tuple, Tensor, Tracer)):
        repeats = repeats[0]
    return S.tile(self, repeats)


def _permute(self, *dims):
    """x with its axes reordered: x.permute(2, 0, 1) or x.permute([2, 0, 1])."""
    if len(dims) == 1 and isinstance(dims[0], (list, tuple, Tensor, Tracer)):
        dims = dims[0]
    return S.transpose(self, dims)


def _split_with_sizes(self, split_sizes, dim: int = 0):
    """x split along `dim` into pieces of the given sizes."""
    return S.split(self, list(split_sizes), dim)


def _fill_diagonal_tensor(x, y, offset: int = 0, dim1: int = 0, dim2: int = 1, name: str | None = None):
    """x with its (offset) diagonal over axes dim1, dim2 replaced by y (a new Tensor)."""
    return X.diagonal_scatter(x, y, offset, dim1, dim2)


def _apply(self, func):
    """func(x): a new Tensor (Paddle's apply)."""
    return func(self)


def _same(self, *args, **kwargs):
    """x itself: Tensors are immutable and dense, so there is nothing to copy or detach."""
    return self


def _cpu(self):
    """x on the host CPU."""
    return placed(self, "cpu")


def _cuda(self, device_id: int | None = None, blocking: bool = True):
    """x on GPU `device_id` (default: the first); a ValueError where padax has no GPU backend."""
    return placed(self, f"gpu:{0 if device_id is None else int(device_id)}")


def _strides_of(shape) -> list[int]:
    out, acc = [], 1
    for d in reversed(tuple(shape)):
        out.append(acc)
        acc *= max(int(d), 1)
    return out[::-1]


def _stride(self, dim: int | None = None):
    """The row-major strides (in elements) of x's shape, or the stride of axis `dim`."""
    s = _strides_of(self.shape)
    return s if dim is None else s[dim]


def _get_device(self):
    """-1 on the CPU, else the GPU index."""
    p = place_of(self.device)
    return -1 if p.kind == "cpu" else p.index


_METHODS = {
    # the top-level functions as methods
    "gt": M.gt, "ge": M.ge, "lt": M.lt, "le": M.le, "eq": M.eq, "ne": M.ne, "greater": M.greater, "less": M.less,
    "mul": M.mul, "sub": M.sub, "div": M.div, "true_divide": M.true_divide, "clamp": M.clamp,
    "bitwise_invert": M.bitwise_invert, "diag": C.diag, "diagflat": C.diagflat, "polar": C.polar,
    "narrow": S.narrow, "ravel": S.ravel, "reverse": S.reverse, "view_as_complex": S.view_as_complex,
    "view_as_real": S.view_as_real, "matrix_transpose": S.matrix_transpose, "atleast_1d": S.atleast_1d,
    "atleast_2d": S.atleast_2d, "atleast_3d": S.atleast_3d, "combinations": S.combinations, "rank": S.rank,
    "slice": S.slice, "shard_index": S.shard_index, "broadcast_tensors": S.broadcast_tensors, "stack": S.stack,
    "concat": S.concat, "block_diag": S.block_diag, "broadcast_shape": S.broadcast_shape,
    "scatter_add": X.scatter_add, "scatter_reduce": X.scatter_reduce, "take_along_dim": X.take_along_dim,
    "scatter_nd": X.scatter_nd, "msort": R.msort, "argwhere": Q.argwhere, "add_n": M.add_n,
    "histogram_bin_edges": ST.histogram_bin_edges, "histogramdd": ST.histogramdd,
    "is_tensor": M.is_tensor,  # (inverse/cholesky/eigvalsh/norm/linalg methods: padax/_battery_aliases.py)
    # conversions and new Tensors
    "to": _to, "type_as": _type_as, "new_full": _new_full, "new_zeros": _new_zeros, "new_ones": _new_ones,
    "new_empty": _new_zeros, "repeat": _repeat, "permute": _permute, "split_with_sizes": _split_with_sizes,
    "fill_diagonal_tensor": _fill_diagonal_tensor, "apply": _apply, "contiguous": _same,
    "pin_memory": _same, "value": _same, "to_dense": _same, "cpu": _cpu, "cuda": _cuda,
    # questions about the array
    "stride": _stride, "get_strides": lambda self: _strides_of(self.shape),
    "element_size": lambda self: self.dtype.itemsize, "is_contiguous": lambda self: True,
    "is_dense": lambda self: True, "is_dist": lambda self: False, "is_sparse": lambda self: False,
    "is_sparse_coo": lambda self: False, "is_sparse_csr": lambda self: False, "is_selected_rows": lambda self: False,
    "is_same_shape": lambda self, y: tuple(self.shape) == tuple(y.shape), "get_device": _get_device,
    "dense_dim": lambda self: self.ndim, "sparse_dim": lambda self: 0,
}

_PROPERTIES = {"itemsize": lambda self: self.dtype.itemsize, "strides": lambda self: _strides_of(self.shape),
               "offset": lambda self: 0, "inplace_version": lambda self: 0,
               "data": lambda self: self, "persistable": lambda self: False,
               "is_cuda": lambda self: self.device.platform in ("cuda", "rocm")}


def install(cls: type) -> None:
    for name, fn in _METHODS.items():
        setattr(cls, name, fn)
    for name, dtype in _CONVERSIONS.items():
        setattr(cls, name, _conversion(name, dtype))
    for name, fn in _PROPERTIES.items():
        setattr(cls, name, property(fn))
    inplace.install(cls)
    for name in ("set_tensor", "set_string_list", "set_vocab"):
        setattr(cls, name, _state_setter(name))
    cls.grad_fn = property(lambda self: None)


for _cls in (Tensor, Tracer):
    install(_cls)
