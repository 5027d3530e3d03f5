"""Helpers shared by padax.nn.functional's modules."""
from __future__ import annotations

from typing import Any

from padax.core import dtypes
from padax.functional import math as M
from padax.functional._arrays import asarray

LOW_PRECISION = (dtypes.float16, dtypes.bfloat16)


def float_input(x: Any) -> tuple[Any, Any]:
    """x as a float array to compute with (f16/bf16 -> f32), and the dtype to return."""
    x = asarray(x)
    dt = x.aval.dtype if dtypes.is_inexact(x.aval.dtype) else dtypes.default_float_dtype()
    return M.cast(x, dtypes.float32 if dt in LOW_PRECISION else dt), dt
