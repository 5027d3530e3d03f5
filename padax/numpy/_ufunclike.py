"""jax.numpy's element-wise extras: i0 (the modified Bessel function of order 0) and spacing (the
distance to the next representable number)."""
from __future__ import annotations

from typing import Any

import numpy as np

import padax.numpy as pnp
from padax import lax
from padax.numpy._util import to_inexact


def i0(x: Any) -> Any:
    """The modified Bessel function of the first kind of order 0.

    Args:
        x: a real array (integers and bool: the default float).

    Returns:
        A floating array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> import numpy as np
        >>> np.round(pnp.i0(pnp.array([0.0, 1.0])), 4).tolist()
        [1.0, 1.2661]
    """
    from padax.scipy.special._bessel import i0 as _i0  # startup time: padax.scipy loads on first use, not padax.numpy
    return _i0(to_inexact(x))


def spacing(x: Any, /) -> Any:
    """Distance from x to the next representable number away from zero (negative for negative x).

    Args:
        x: a floating array (integers and bool: the default float).

    Returns:
        An array of x's shape and floating dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.spacing(pnp.array([1.0, -1.0], dtype=pnp.float32)).tolist()
        [1.1920928955078125e-07, -1.1920928955078125e-07]
    """
    xa = to_inexact(x)
    toward = pnp.where(xa < 0, -np.inf, np.inf)
    return lax.nextafter(xa, pnp.astype(toward, xa.dtype)) - xa


__all__ = ["i0", "spacing"]
