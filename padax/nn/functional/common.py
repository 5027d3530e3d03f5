"""Common layers' functions: linear."""
from __future__ import annotations

from typing import Any

from padax.functional import math as M
from padax.functional.linalg_basic import matmul


def linear(x: Any, weight: Any, bias: Any = None, name: str | None = None) -> Any:
    """x @ weight + bias, with weight of shape [in_features, out_features] (Paddle's layout)."""
    out = matmul(x, weight)
    return out if bias is None else M.add(out, bias)


def bilinear(x1: Any, x2: Any, weight: Any, bias: Any = None, name: str | None = None) -> Any:
    """out[n, o] = sum_ij x1[n, i] * weight[o, i, j] * x2[n, j] + bias[0, o] (weight [out, in1, in2])."""
    from padax.core.errors import op_value_error
    from padax.functional._arrays import asarray
    from padax.functional.einsum import einsum
    x1, x2, weight = asarray(x1), asarray(x2), asarray(weight)
    if weight.aval.ndim != 3 or x1.aval.ndim != 2 or x2.aval.ndim != 2 \
            or x1.aval.shape[1] != weight.aval.shape[1] or x2.aval.shape[1] != weight.aval.shape[2] \
            or x1.aval.shape[0] != x2.aval.shape[0]:
        raise op_value_error("bilinear", f"expected x1 [N, in1], x2 [N, in2] and weight [out, in1, in2], got "
                             f"{x1.aval.str_short()}, {x2.aval.str_short()}, {weight.aval.str_short()}")
    out = einsum("ni,oij,nj->no", x1, weight, x2)
    return out if bias is None else M.add(out, bias)
