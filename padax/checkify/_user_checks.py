"""The checks user code states: check, debug_check and check_error (re-raising an inner Error)."""
from __future__ import annotations

from typing import Any

import numpy as np

import padax.numpy as pnp
from padax import tree as tree_util
from padax.checkify._error_value import Error
from padax.core.source_info import user_frame
from padax.core.trace import Tracer
from padax.functional.lax.checks import check_p
from padax.runtime.array import Tensor


def check(pred: Any, msg: str, *fmt_args: Any, **fmt_kwargs: Any) -> None:
    """Fail with `msg.format(*fmt_args, **fmt_kwargs)` where `pred` is False (any element, for arrays).

    Inside `checkify(f)` the failure becomes the function's error value; outside it, an eager
    check raises CheckifyError at once, and one in a compiled program is an error asking for
    checkify.

    Args:
        pred: a bool scalar or array; the check fails where any element is False.
        msg: the message, a str.format template.
        *fmt_args, **fmt_kwargs: values (arrays too) formatted into `msg`.

    Returns:
        None; a failure becomes checkify's error value, or raises CheckifyError eagerly.

    Examples:
        >>> import padax
        >>> from padax import checkify
        >>> checkify.check(padax.to_tensor(-1.0) > 0, "x must be positive")  # doctest: +IGNORE_EXCEPTION_DETAIL
        Traceback (most recent call last):
        CheckifyError: x must be positive
    """
    _bind_check("check", pred, msg, fmt_args, fmt_kwargs, debug=False)


def debug_check(pred: Any, msg: str, *fmt_args: Any, **fmt_kwargs: Any) -> None:
    """Like `check` inside `checkify(f)`; outside it nothing happens (eagerly or compiled), so
    the check can stay in code that also runs unchecked.

    Args:
        pred: a bool scalar or array; the check fails where any element is False.
        msg: the message, a str.format template.
        *fmt_args, **fmt_kwargs: values (arrays too) formatted into `msg`.

    Returns:
        None; outside checkify the check does nothing.

    Examples:
        >>> import padax
        >>> from padax import checkify
        >>> def double(x):
        ...     checkify.debug_check(x > 0, "x must be positive")
        ...     return x * 2
        >>> float(double(padax.to_tensor(-1.0)))  # unchecked: no error
        -2.0
        >>> checkify.checkify(double)(padax.to_tensor(-1.0))[0].get()
        'x must be positive (check failed at ...)'
    """
    _bind_check("debug_check", pred, msg, fmt_args, fmt_kwargs, debug=True)


def _bind_check(what: str, pred: Any, msg: str, fmt_args: tuple, fmt_kwargs: dict, debug: bool) -> None:
    if not isinstance(msg, str):
        raise TypeError(f"checkify.{what}: msg must be a str, got {type(msg).__name__}")
    pred = pnp.asarray(pred)
    if pred.dtype != np.bool_:
        raise TypeError(f"checkify.{what}: the predicate must be a bool array, got dtype {pred.dtype}")
    pred = pnp.all(pred)
    leaves, fmt_tree = tree_util.flatten((fmt_args, fmt_kwargs))
    leaves = [x if isinstance(x, (Tensor, Tracer)) else pnp.asarray(x) for x in leaves]
    check_p.bind(pred, *leaves, msg=msg, fmt_tree=fmt_tree, source=user_frame(), batch_ndim=0, debug=debug,
                 category="user")


def check_error(error: "Error") -> None:
    """Re-raise the failure an `Error` holds (one returned by an inner checkified call).

    Inside `checkify(f)` it becomes `f`'s error (first failure wins, as for `check`); outside
    it, eagerly, it raises CheckifyError if the error holds a failure.

    Args:
        error: an `Error`, e.g. one returned by an inner checkified call.

    Returns:
        None; inside checkify the failure becomes the function's error, eagerly it raises CheckifyError.

    Examples:
        >>> import padax
        >>> from padax import checkify
        >>> def small(x):
        ...     checkify.check(x < 10, "too big: {}", x)
        ...     return x
        >>> def plus_one(x):
        ...     err, y = checkify.checkify(small)(x)
        ...     checkify.check_error(err)
        ...     return y + 1
        >>> checkify.checkify(plus_one)(padax.to_tensor(12.0))[0].get()
        'too big: 12.0 (check failed at ...)'
    """
    if not isinstance(error, Error):
        raise TypeError(f"checkify.check_error: expected a checkify.Error, got {type(error).__name__}")
    leaves, fmt_tree = tree_util.flatten(((error,), {}))
    leaves = [x if isinstance(x, (Tensor, Tracer)) else pnp.asarray(x) for x in leaves]
    passed = pnp.all(pnp.asarray(leaves[0]) < 0)  # leaves[0] is the error code: -1 where nothing failed
    check_p.bind(passed, *leaves, msg="{0.message}", fmt_tree=fmt_tree, source=None, batch_ndim=0, debug=False,
                 category="user")
