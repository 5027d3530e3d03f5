"""Helpers shared by padax.nn.functional's modules: dtypes, argument lists, data formats, padding."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._arrays import asarray, is_array, static_int
from padax.functional._checks import arg as _arg

LOW_PRECISION = (dtypes.float16, dtypes.bfloat16)

# data formats by number of spatial dimensions: (channel first, channel last)
FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def float_input(x: Any) -> tuple[Any, Any]:
    """x as a float array to compute with (f16/bf16 -> f32), and the dtype to return."""
    x = asarray(x)
    dt = x.aval.dtype if dtypes.is_inexact(x.aval.dtype) else dtypes.default_float_dtype()
    return M.cast(x, dtypes.float32 if dt in LOW_PRECISION else dt), dt


def float_array(op: str, x: Any, what: str = "x") -> Any:
    """x as an array of a floating dtype (integers and bools become the default float dtype)."""
    x = _arg(op, x, what)
    if not dtypes.is_inexact(x.aval.dtype):
        x = M.cast(x, dtypes.default_float_dtype())
    return x




def static_ints(op: str, value: Any, n: int, what: str, minimum: int | None = None) -> tuple[int, ...]:
    """An int or a sequence of n ints (Paddle's Size1/2/3 arguments) -> a tuple of n ints, each at
    least `minimum` when given (strides, kernel sizes). Floats are refused, never truncated."""
    if is_array(value):
        value = np.asarray(value).reshape(-1).tolist()
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        out = (int(value),) * n
    else:
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise op_type_error(op, f"{what} must be an int or a list of {n} ints, got {value!r}")
        value = list(value)
        out = tuple(static_int(op, v, what) for v in value)
        if len(out) == 1 and n > 1:
            out = out * n
        if len(out) != n:
            raise op_value_error(op, f"{what} must be an int or a list of {n} ints, got {value!r}")
    if minimum is not None and any(v < minimum for v in out):
        raise op_value_error(op, f"{what} must be >= {minimum}, got {list(out)}")
    return out


def channel_last(op: str, data_format: str, nsp: int) -> bool:
    """Whether `data_format` (one of FORMATS[nsp]) puts the channels last."""
    if data_format not in FORMATS[nsp]:
        raise op_value_error(op, f"data_format must be {' or '.join(map(repr, FORMATS[nsp]))}, "
                                 f"got {data_format!r}")
    return data_format == FORMATS[nsp][1]


def spatial_axes(nd: int, last: bool) -> tuple[int, ...]:
    """The spatial axes of an nd-D array with the channels first (after N) or last."""
    return tuple(range(1, nd - 1)) if last else tuple(range(2, nd))


def explicit_padding(op: str, padding: Any, nsp: int, last: bool) -> tuple[str, list[tuple[int, int]]]:
    """Paddle's padding argument -> ('SAME' | 'VALID' | 'EXPLICIT', [(lo, hi)] per spatial axis).

    Accepted as in Paddle: 'same'/'valid', an int, [p] * nsp, [lo0, hi0, lo1, hi1, ...], or one
    (lo, hi) pair per axis of the input (batch and channel pairs must be zero)."""
    if isinstance(padding, str):
        mode = padding.upper()
        if mode not in ("SAME", "VALID"):
            raise op_value_error(op, f"padding must be 'same', 'valid', an int or a list, got {padding!r}")
        return mode, [(0, 0)] * nsp
    if is_array(padding):
        padding = np.asarray(padding).tolist()
    if isinstance(padding, (int, np.integer)):
        pads = [(int(padding), int(padding))] * nsp
    elif isinstance(padding, (list, tuple)):
        flat = list(padding)
        if len(flat) == nsp + 2 and all(isinstance(p, (list, tuple)) for p in flat):
            outer = (flat[0], flat[-1]) if last else (flat[0], flat[1])
            if any(list(p) != [0, 0] for p in outer):
                raise op_value_error(op, f"padding {padding!r} pads the batch or channel axis, which is not "
                                         "supported")
            inner = flat[1:-1] if last else flat[2:]
            pads = [(int(lo), int(hi)) for lo, hi in inner]
        elif len(flat) == nsp and all(isinstance(p, (list, tuple)) for p in flat):
            pads = [(int(lo), int(hi)) for lo, hi in flat]
        elif len(flat) == 2 * nsp and all(isinstance(p, (int, np.integer)) for p in flat):
            pads = [(int(flat[2 * i]), int(flat[2 * i + 1])) for i in range(nsp)]
        elif len(flat) == nsp and all(isinstance(p, (int, np.integer)) for p in flat):
            pads = [(int(p), int(p)) for p in flat]
        elif len(flat) == 1 and isinstance(flat[0], (int, np.integer)):
            pads = [(int(flat[0]), int(flat[0]))] * nsp
        else:
            raise op_value_error(op, f"padding {padding!r} must be an int, {nsp} ints, {2 * nsp} ints or "
                                     f"{nsp + 2} (before, after) pairs")
    else:
        raise op_type_error(op, f"padding must be a string, an int or a list, got {padding!r}")
    if any(lo < 0 or hi < 0 for lo, hi in pads):
        raise op_value_error(op, f"padding must be non-negative, got {padding!r}")
    return "EXPLICIT", pads


def same_pads(sizes: Sequence[int], windows: Sequence[int], strides: Sequence[int]) -> list[tuple[int, int]]:
    """Paddle's 'SAME': ceil(n / stride) outputs, the odd pad at the end."""
    pads = []
    for n, k, s in zip(sizes, windows, strides):
        out = -(-n // s)
        total = max((out - 1) * s + k - n, 0)
        pads.append((total // 2, total - total // 2))
    return pads






def reduction_of(op: str, reduction: str) -> str:
    if reduction not in ("none", "mean", "sum"):
        raise op_value_error(op, f"reduction must be 'none', 'mean' or 'sum', got {reduction!r}")
    return reduction


def vector_norm(x: Any, p: float, axis: int, keepdim: bool = False) -> Any:
    """The p-norm of x along `axis` (inf: max |x|, 0: nonzero count), with a zero (not NaN)
    gradient where the norm is zero."""
    a = M.abs(x)
    if p == float("inf"):
        return R.max(a, axis=axis, keepdim=keepdim)
    if p == float("-inf"):
        return R.min(a, axis=axis, keepdim=keepdim)
    if p == 0:
        return R.sum(M.cast(M.not_equal(a, 0), x.aval.dtype), axis=axis, keepdim=keepdim)
    s = R.sum(M.square(a) if p == 2 else M.pow(a, p), axis=axis, keepdim=keepdim)
    positive = M.greater_than(s, 0)
    safe = M.where(positive, s, 1.0)
    root = M.sqrt(safe) if p == 2 else M.pow(safe, 1.0 / p)
    return M.where(positive, root, 0.0)
