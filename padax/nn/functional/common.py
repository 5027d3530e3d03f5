"""Common layers' functions: linear."""
from __future__ import annotations

from typing import Any

from padax.functional import math as M
from padax.functional.linalg_basic import matmul


def linear(x: Any, weight: Any, bias: Any = None, name: str | None = None) -> Any:
    """x @ weight + bias, with weight of shape [in_features, out_features] (Paddle's layout)."""
    out = matmul(x, weight)
    return out if bias is None else M.add(out, bias)
