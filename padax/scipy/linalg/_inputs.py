"""padax.scipy.linalg's argument conversions: an array as a floating matrix (integers become
float32), checked square."""
from __future__ import annotations

from typing import Any

import padax.numpy as pnp
from padax.core.errors import op_value_error


def _asfloat(a: Any) -> Any:
    a = pnp.asarray(a)
    return a if pnp.issubdtype(a.dtype, pnp.inexact) else a.astype(pnp.float32)


def _square(op: str, a: Any) -> Any:
    a = _asfloat(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise op_value_error(f"padax.scipy.linalg.{op}", f"a must be a square matrix (or a stack), got shape "
                                                         f"{tuple(a.shape)}")
    return a
