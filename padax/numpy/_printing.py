"""jax.numpy's printing: array_repr, array_str and the print options (shared with padax.set_printoptions)."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from padax.numpy._util import static_value, to_array
from padax.runtime import printing


def _host(a: Any) -> np.ndarray:
    return static_value("array_str", to_array(a), "the array")


def array_repr(arr: Any, max_line_width: builtins.int | None = None, precision: builtins.int | None = None,
               suppress_small: builtins.bool | None = None) -> str:
    """numpy's `repr` text of the array's values (`array([...])`), under numpy's print options.

    Args:
        arr: an array (eager values).
        max_line_width, precision, suppress_small: numpy's formatting options (None: the current ones).

    Returns:
        A string.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.array_repr(pnp.array([1, 2]))
        'array([1, 2])'
    """
    return np.array_repr(_host(arr), max_line_width, precision, suppress_small)


def array_str(a: Any, max_line_width: builtins.int | None = None, precision: builtins.int | None = None,
              suppress_small: builtins.bool | None = None) -> str:
    """numpy's `str` text of the array's values (`[...]`), under numpy's print options.

    Args:
        a: an array (eager values).
        max_line_width, precision, suppress_small: numpy's formatting options (None: the current ones).

    Returns:
        A string.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.array_str(pnp.array([1.5, 2.0]))
        '[1.5 2. ]'
    """
    return np.array_str(_host(a), max_line_width, precision, suppress_small)


def get_printoptions() -> dict:
    """numpy's current print options (those `set_printoptions` and `printoptions` change).

    Returns:
        A dict (precision, threshold, edgeitems, linewidth, ...).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.get_printoptions()["precision"]
        8
    """
    return np.get_printoptions()


def set_printoptions(**kwargs: Any) -> None:
    """Set numpy's print options and the matching Tensor ones (precision, threshold, edgeitems, linewidth).

    Args:
        **kwargs: numpy.set_printoptions' keywords.

    Returns:
        None.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.set_printoptions(precision=3)
        >>> pnp.array_str(pnp.array([1.23456])), pnp.get_printoptions()["precision"]
        ('[1.235]', 3)
        >>> pnp.set_printoptions(precision=8)
    """
    np.set_printoptions(**kwargs)
    printing.set_printoptions(**{k: kwargs[k] for k in ("precision", "threshold", "edgeitems", "linewidth")
                                 if kwargs.get(k) is not None})


__all__ = ["array_repr", "array_str", "get_printoptions", "set_printoptions"]
