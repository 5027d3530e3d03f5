"""Python operators and Paddle's Tensor methods, attached to both Tensor and Tracer.

Importing this module installs them (padax/__init__ does). Operators use
the same Paddle promotion as the functions (Python scalars are weak);
comparisons return bool arrays, so arrays stay unhashable.
"""
from __future__ import annotations

import numpy as np

from padax.core import dtypes
from padax.core.errors import input_error
from padax.core.trace import Tracer
from padax.functional import (
    creation as C,
    indexed as X,
    indexing as I,
    linalg_basic as L,
    manipulation as S,
    math as M,
    reduction as R,
    search as Q,
    stats as ST,
)
from padax.runtime.array import Tensor

_OPERAND_TYPES = (Tensor, Tracer, bool, int, float, complex, np.ndarray, np.generic)


_REFUSED = (str, bytes, list, tuple, dict, set, frozenset, type(None))


def _refuse(name: str | None, self, other):
    """A TypeError naming the operator and the operand for types that are never array operands (a
    list, str, None, ...); other types (and == / !=, name None) get NotImplemented, so their own
    reflected operator, or Python's identity comparison, can run."""
    if name is None or not isinstance(other, _REFUSED):
        return NotImplemented
    shown = repr(other)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    raise input_error(TypeError, f"unsupported operand for {name}: a Tensor {self.aval.str_short()} and a "
                                 f"{type(other).__name__} {shown}; use a Tensor, a Python number or a numpy array "
                                 "(padax.to_tensor converts lists)")


def _binary(fn, reflected: bool = False, tensors=None, name: str | None = "an operator"):
    """The operator method calling fn(self, other) (reflected: fn(other, self)); `tensors`, when given,
    is fn's compiled twin for two Tensors (padax/functional/_fast.py), called straight for them."""
    if tensors is not None:
        def op(self, other):
            if type(other) is Tensor and type(self) is Tensor:
                return tensors.call(self, other)
            if not isinstance(other, _OPERAND_TYPES):
                return _refuse(name, self, other)
            return fn(self, other)
        return op
    if reflected:
        def op(self, other):
            if not isinstance(other, _OPERAND_TYPES):
                return _refuse(name, self, other)
            return fn(other, self)
    else:
        def op(self, other):
            if not isinstance(other, _OPERAND_TYPES):
                return _refuse(name, self, other)
            return fn(self, other)
    return op


def _pos(self):
    return self


def _reshape(self, *shape, name=None):
    """x.reshape([2, 3]) or x.reshape(2, 3)."""
    if len(shape) == 1 and (isinstance(shape[0], (list, tuple)) or isinstance(shape[0], (Tensor, Tracer))):
        shape = shape[0]
    if type(self) is Tensor:
        return S.reshape_tensor(self, shape)
    return S.reshape(self, shape)


def _transpose(self, *perm, name=None):
    """x.transpose([1, 0]) or x.transpose(1, 0); x.transpose() reverses the axes (jax's arrays)."""
    if len(perm) == 1 and isinstance(perm[0], (list, tuple, Tensor, Tracer)):
        perm = perm[0]
    if len(perm) == 0 and self.ndim != 0:
        perm = tuple(reversed(range(self.ndim)))
    return S.transpose(self, perm)


def _T(self):
    """All axes reversed (the matrix transpose for 2-D)."""
    return S.transpose(self, tuple(range(self.ndim))[::-1])


def _mT(self):
    """The last two axes swapped."""
    nd = self.ndim
    if nd < 2:
        raise ValueError(f"mT needs at least 2 axes, got a Tensor of shape {list(self.shape)}")
    return S.transpose(self, tuple(range(nd - 2)) + (nd - 1, nd - 2))


def _at(self):
    """Functional updates: x.at[idx].set(v) / .add / .multiply / .min / .max / .get()."""
    return I._IndexUpdateHelper(self)


def _dim(self) -> int:
    return self.ndim


def _numel(self, name=None):
    """The number of elements, as an int64 Tensor (Paddle's numel)."""
    return C.full((), self.size, dtypes.canonicalize(dtypes.int64))


def _clone(self):
    """Tensors are immutable, so a clone is the Tensor itself."""
    return self


def _expand(self, *shape, name=None):
    if len(shape) == 1 and isinstance(shape[0], (list, tuple, Tensor, Tracer)):
        shape = shape[0]
    return S.expand(self, shape)


def _tile(self, *reps, name=None):
    if len(reps) == 1 and isinstance(reps[0], (list, tuple, Tensor, Tracer)):
        reps = reps[0]
    return S.tile(self, reps)


_OPERATORS = {
    "__add__": _binary(M.add, tensors=M.add_tensors, name="+"), "__radd__": _binary(M.add, True, name="+"),
    "__sub__": _binary(M.subtract, tensors=M.subtract_tensors, name="-"), "__rsub__": _binary(M.subtract, True, name="-"),
    "__mul__": _binary(M.multiply, tensors=M.multiply_tensors, name="*"), "__rmul__": _binary(M.multiply, True, name="*"),
    "__truediv__": _binary(M.divide, tensors=M.divide_tensors, name="/"), "__rtruediv__": _binary(M.divide, True, name="/"),
    "__floordiv__": _binary(M.floor_divide, name="//"), "__rfloordiv__": _binary(M.floor_divide, True, name="//"),
    "__mod__": _binary(M.remainder, name="%"), "__rmod__": _binary(M.remainder, True, name="%"),
    "__pow__": _binary(M.pow, name="**"), "__rpow__": _binary(M.pow, True, name="**"),
    "__matmul__": _binary(L.matmul, name="@"), "__rmatmul__": _binary(L.matmul, True, name="@"),
    "__and__": _binary(M.bitwise_and, name="&"), "__rand__": _binary(M.bitwise_and, True, name="&"),
    "__or__": _binary(M.bitwise_or, name="|"), "__ror__": _binary(M.bitwise_or, True, name="|"),
    "__xor__": _binary(M.bitwise_xor, name="^"), "__rxor__": _binary(M.bitwise_xor, True, name="^"),
    "__lshift__": _binary(M.bitwise_left_shift, name="<<"), "__rlshift__": _binary(M.bitwise_left_shift, True, name="<<"),
    "__rshift__": _binary(M.bitwise_right_shift, name=">>"), "__rrshift__": _binary(M.bitwise_right_shift, True, name=">>"),
    "__eq__": _binary(M.equal, name=None), "__ne__": _binary(M.not_equal, name=None),  # x == None stays False
    "__lt__": _binary(M.less_than, name="<"), "__le__": _binary(M.less_equal, name="<="),
    "__gt__": _binary(M.greater_than, name=">"), "__ge__": _binary(M.greater_equal, name=">="),
    "__neg__": M.neg, "__pos__": _pos, "__abs__": M.abs, "__invert__": M.bitwise_not,
    "__getitem__": I.getitem,  # (__setitem__: padax/functional/inplace.py, by rebinding)
}

_METHODS = {
    # math
    "add": M.add, "subtract": M.subtract, "multiply": M.multiply, "divide": M.divide,
    "floor_divide": M.floor_divide, "remainder": M.remainder, "mod": M.mod, "floor_mod": M.floor_mod,
    "pow": M.pow, "maximum": M.maximum, "minimum": M.minimum, "fmax": M.fmax, "fmin": M.fmin,
    "neg": M.neg, "abs": M.abs, "square": M.square, "sign": M.sign, "exp": M.exp, "expm1": M.expm1,
    "log": M.log, "log2": M.log2, "log10": M.log10, "log1p": M.log1p, "sqrt": M.sqrt, "rsqrt": M.rsqrt,
    "sin": M.sin, "cos": M.cos, "tan": M.tan, "asin": M.asin, "acos": M.acos, "atan": M.atan,
    "sinh": M.sinh, "cosh": M.cosh, "tanh": M.tanh, "asinh": M.asinh, "acosh": M.acosh, "atanh": M.atanh,
    "sigmoid": M.sigmoid, "erf": M.erf, "erfinv": M.erfinv, "lgamma": M.lgamma, "digamma": M.digamma,
    "reciprocal": M.reciprocal, "floor": M.floor, "ceil": M.ceil, "trunc": M.trunc, "round": M.round,
    "clip": M.clip, "scale": M.scale, "atan2": M.atan2, "hypot": M.hypot, "logaddexp": M.logaddexp,
    "equal": M.equal, "not_equal": M.not_equal, "less_than": M.less_than, "less_equal": M.less_equal,
    "greater_than": M.greater_than, "greater_equal": M.greater_equal, "equal_all": M.equal_all,
    "logical_and": M.logical_and, "logical_or": M.logical_or, "logical_xor": M.logical_xor,
    "logical_not": M.logical_not, "bitwise_and": M.bitwise_and, "bitwise_or": M.bitwise_or,
    "bitwise_xor": M.bitwise_xor, "bitwise_not": M.bitwise_not, "bitwise_left_shift": M.bitwise_left_shift,
    "bitwise_right_shift": M.bitwise_right_shift, "isnan": M.isnan, "isinf": M.isinf,
    "isfinite": M.isfinite, "cast": M.cast, "astype": M.astype,
    # reductions and searches
    "sum": R.sum, "mean": R.mean, "prod": R.prod, "max": R.max, "min": R.min, "amax": R.amax,
    "amin": R.amin, "all": R.all, "any": R.any, "logsumexp": R.logsumexp, "argmax": R.argmax,
    "argmin": R.argmin, "cumsum": R.cumsum, "cumprod": R.cumprod, "sort": R.sort, "argsort": R.argsort,
    "topk": R.topk,
    # shapes
    "reshape": _reshape, "transpose": _transpose, "moveaxis": S.moveaxis, "unsqueeze": S.unsqueeze,
    "squeeze": S.squeeze, "flatten": S.flatten, "split": S.split, "chunk": S.chunk, "unbind": S.unbind,
    "expand": _expand, "broadcast_to": S.broadcast_to, "expand_as": S.expand_as, "tile": _tile,
    "flip": S.flip,
    "exp2": M.exp2, "rad2deg": M.rad2deg, "deg2rad": M.deg2rad, "frac": M.frac, "sgn": M.sgn,
    "signbit": M.signbit, "copysign": M.copysign, "ldexp": M.ldexp, "nextafter": M.nextafter,
    "polygamma": M.polygamma, "sinc": M.sinc, "stanh": M.stanh, "logit": M.logit, "lerp": M.lerp,
    "nan_to_num": M.nan_to_num, "heaviside": M.heaviside, "gcd": M.gcd, "lcm": M.lcm, "isclose": M.isclose,
    "allclose": M.allclose, "isneginf": M.isneginf, "isposinf": M.isposinf, "isreal": M.isreal,
    "real": M.real, "imag": M.imag, "conj": M.conj, "angle": M.angle, "is_empty": M.is_empty,
    "is_complex": M.is_complex, "is_floating_point": M.is_floating_point, "is_integer": M.is_integer,
    "diff": M.diff, "where": M.where, "negative": M.negative, "positive": M.positive,
    # more reductions, statistics, searches
    "nansum": R.nansum, "nanmean": R.nanmean, "count_nonzero": R.count_nonzero, "var": R.var, "std": R.std,
    "cummax": R.cummax, "cummin": R.cummin, "logcumsumexp": R.logcumsumexp, "median": ST.median,
    "nanmedian": ST.nanmedian, "quantile": ST.quantile, "nanquantile": ST.nanquantile,
    "kthvalue": ST.kthvalue, "mode": ST.mode, "bucketize": Q.bucketize, "nonzero": Q.nonzero,
    "masked_select": Q.masked_select, "unique": Q.unique, "unique_consecutive": Q.unique_consecutive,
    # indexed reads and writes
    "gather": X.gather, "index_select": X.index_select, "take": X.take, "gather_nd": X.gather_nd,
    "take_along_axis": X.take_along_axis, "index_sample": X.index_sample, "put_along_axis": X.put_along_axis,
    "scatter": X.scatter, "scatter_nd_add": X.scatter_nd_add, "index_put": X.index_put,
    "index_fill": X.index_fill, "index_add": X.index_add, "masked_fill": X.masked_fill,
    "masked_scatter": X.masked_scatter, "select_scatter": X.select_scatter, "slice_scatter": X.slice_scatter,
    "bincount": Q.bincount, "histogram": ST.histogram, "increment": M.increment, "trapezoid": M.trapezoid,
    "cumulative_trapezoid": M.cumulative_trapezoid, "unstack": S.unstack, "crop": S.crop, "isin": Q.isin,
    "diagonal_scatter": X.diagonal_scatter, "view": S.view, "view_as": S.view_as, "swapaxes": S.swapaxes,
    "swapdims": S.swapdims, "unfold": S.unfold, "as_strided": S.as_strided, "frexp": M.frexp,
    "gammaln": M.gammaln, "multigammaln": M.multigammaln, "renorm": M.renorm, "reduce_as": R.reduce_as,
    "cross": L.cross, "dist": L.dist, "cdist": L.cdist, "baddbmm": L.baddbmm, "hsplit": S.hsplit,
    "vsplit": S.vsplit, "dsplit": S.dsplit, "multiplex": X.multiplex, "vander": C.vander,
    # more shapes
    "roll": S.roll, "rot90": S.rot90, "diagonal": S.diagonal, "strided_slice": S.strided_slice,
    "as_complex": S.as_complex, "as_real": S.as_real, "repeat_interleave": S.repeat_interleave,
    "unflatten": S.unflatten, "tensor_split": S.tensor_split, "tril": C.tril, "triu": C.triu,
    "diag_embed": C.diag_embed,
    # linear algebra
    "matmul": L.matmul, "mm": L.mm, "bmm": L.bmm, "dot": L.dot, "t": L.t, "mv": L.mv, "addmm": L.addmm,
    "inner": L.inner, "outer": L.outer, "kron": L.kron, "tensordot": L.tensordot, "trace": L.trace,
    # misc
    "dim": _dim, "ndimension": _dim, "numel": _numel, "clone": _clone, "copy": _clone, "zeros_like": C.zeros_like,
    "ones_like": C.ones_like, "full_like": C.full_like,
}

_PROPERTIES = {"T": _T, "mT": _mT, "at": _at}


def _install(cls: type) -> None:
    for name, fn in _OPERATORS.items():
        setattr(cls, name, fn)
    for name, fn in _METHODS.items():
        setattr(cls, name, fn)
    for name, fn in _PROPERTIES.items():
        setattr(cls, name, property(fn))


for _cls in (Tensor, Tracer):
    _install(_cls)
Tensor.__hash__ = None  # type: ignore[assignment]  (== returns an array)

from padax.functional import (
    tape_api as _tape_api,  # noqa: E402,F401  (the tape's methods: backward, grad, stop_gradient)
    tensor_conversions as _tensor_conversions,  # noqa: E402,F401  (more methods, in-place refusals)
)
