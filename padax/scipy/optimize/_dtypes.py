"""The float of padax.scipy.optimize's entry points: scipy computes in float64, so Python numbers given as
starting points or brackets (x0, x1, bracket) become float64 there, not Paddle's default float32; arrays and
tensors keep their own dtype (pass float32 arrays to solve in float32). With 64-bit types off
(`config.update("enable_x64", False)`) the float64 request is float32, as everywhere in padax."""
from __future__ import annotations

from typing import Any

import padax.numpy as pnp
from padax import tree


def _python_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def scipy_floats(x: Any) -> Any:
    """x (a pytree) with each Python int/float leaf as a float64 array (scipy's float); other leaves unchanged.

    Args:
        x: a starting point, bracket end or a pytree of them.

    Returns:
        The same structure, Python numbers replaced by float64 scalars.

    Examples:
        >>> from padax.scipy.optimize._dtypes import scipy_floats
        >>> str(scipy_floats([2.0, 3])[0].dtype)
        'float64'
    """
    return tree.map(lambda v: pnp.asarray(v, dtype=pnp.float64) if _python_number(v) else v, x)


__all__ = ["scipy_floats"]
