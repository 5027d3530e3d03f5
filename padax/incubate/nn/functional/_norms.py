"""Shared pieces of fused_rms_norm and fused_layer_norm: the fused pre-norm sum and the affine."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes
from padax.core.errors import op_value_error
from padax.functional import math as M
from padax.functional._checks import arg
from padax.functional.creation import zeros
from padax.functional.manipulation import reshape

LOW = (dtypes.float16, dtypes.bfloat16)


def begin_axis(op: str, x: Any, begin_norm_axis: int) -> int:
    nd = x.aval.ndim
    a = begin_norm_axis + nd if begin_norm_axis < 0 else begin_norm_axis
    if not 0 <= a < nd:
        raise op_value_error(op, f"begin_norm_axis must be in [-{nd}, {nd}) for x {x.aval.str_short()}, "
                                 f"got {begin_norm_axis}")
    return a


def fused_sum(op: str, x: Any, bias: Any, residual: Any, alpha: float) -> tuple[Any, Any]:
    """(x + bias + alpha * residual, residual_out): residual_out is that sum when a residual is given,
    else an empty Tensor [0] of x's dtype (as Paddle's kernels return)."""
    h = x
    if bias is not None:
        h = M.add(h, M.cast(arg(op, bias, "bias"), x.aval.dtype))
    if residual is not None:
        r = M.cast(arg(op, residual, "residual"), x.aval.dtype)
        h = M.add(h, r if alpha == 1.0 else M.multiply(r, alpha))
        return h, h
    return h, zeros([0], x.aval.dtype)


def affine(op: str, y: Any, weight: Any, bias: Any, shape: tuple[int, ...], ct: Any) -> Any:
    """y * weight + bias with weight/bias of prod(shape) elements (flat or shaped), in dtype ct."""
    for what, p in (("norm_weight", weight), ("norm_bias", bias)):
        if p is None:
            continue
        p = arg(op, p, what)
        if p.aval.size != int(np.prod(shape)):
            raise op_value_error(op, f"{what} {p.aval.str_short()} must have {int(np.prod(shape))} elements "
                                     f"(the normalised dims {list(shape)})")
        p = reshape(M.cast(p, ct), list(shape))
        y = M.multiply(y, p) if what == "norm_weight" else M.add(y, p)
    return y


def compute_dtype(x: Any) -> Any:
    return dtypes.float32 if x.aval.dtype in LOW else x.aval.dtype
