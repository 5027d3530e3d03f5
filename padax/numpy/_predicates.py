"""jax.numpy's small leftovers of numpy: iterable (does iter() accept it) and ComplexWarning."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from padax.numpy._util import is_array


def iterable(y: Any) -> builtins.bool:
    """Whether `iter(y)` works (0-d arrays are not iterable).

    Args:
        y: any object.

    Returns:
        A bool.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.iterable(pnp.array([1, 2])), pnp.iterable(pnp.array(3)), pnp.iterable(3)
        (True, False, False)
    """
    if is_array(y):
        return y.aval.ndim > 0
    try:
        iter(y)
    except TypeError:
        return False
    return True


ComplexWarning = np.exceptions.ComplexWarning


__all__ = ["iterable", "ComplexWarning"]
