"""`check`: a runtime assertion that padax.checkify turns into an error value.

`check_p(pred, *fmt_args, msg, fmt_tree, source, batch_ndim, debug, category)` has
no outputs and a `Check` effect (it is never dropped as dead code). Eagerly
it raises CheckifyError at once when `pred` is False; under vmap the batch
axes lead every operand (`batch_ndim` of them) and the first failing element
is reported; under differentiation it checks the primal values. A compiled
program cannot raise, so lowering it outside `checkify` is an error that
says so (padax/lowering/rules/checks.py). A `debug` check (`debug_check`)
does nothing outside checkify: eagerly it passes and compiled it vanishes.
`category` is the checkify error category that turns it on: 'user' for the
checks user code states, 'index' for `value_check`, which padax's own ops
bind for values they cannot see while tracing (class labels, embedding ids).
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax.core.effects import Effect
from padax.core.errors import PadaxError
from padax.core.primitive import Primitive
from padax.core.source_info import user_frame
from padax.functional.lax.structural import batch_size, bdim_to_front
from padax.runtime import tree as _tree

check_effect = Effect("Check", ordered=False)
check_p = Primitive("check", multiple_results=True)
check_p.effects_rule = lambda params: frozenset([check_effect])


class CheckifyError(PadaxError):
    """A check failed (raised by checkify's `Error.throw()`, and by `check` outside checkify). Also named
    `padax.checkify.JaxRuntimeError`, the name JAX code catches.

    Args:
        *args: the error message (the failed check's formatted text), as for any Exception.

    Examples:
        >>> import padax
        >>> from padax import checkify
        >>> def small(x):
        ...     checkify.check(x < 10, "too big: {}", x)
        ...     return x
        >>> err, _ = checkify.checkify(small)(padax.to_tensor(12.0))
        >>> try:
        ...     err.throw()
        ... except checkify.CheckifyError as e:
        ...     print(e)
        too big: 12.0 (check failed at ...)
    """


def format_message(msg: str, fmt_tree, values: Sequence[Any]) -> str:
    """`msg.format(...)` with the check's (host) values."""
    args, kwargs = fmt_tree.unflatten(list(values))
    try:
        return msg.format(*args, **kwargs)
    except (IndexError, KeyError, ValueError) as e:
        return f"{msg} (formatting the message failed: {e})"


def failed_at(source) -> str:
    return f" (check failed at {source})" if source is not None else ""


@check_p.def_abstract_eval
def _check_abstract(pred, *fmt, msg, fmt_tree, source, batch_ndim, debug, category):
    if pred.dtype != np.bool_:
        raise TypeError(f"checkify.check: the predicate must be a bool array, got {pred.str_short()}")
    return []


@check_p.def_impl
def _check_impl(pred, *fmt, msg, fmt_tree, source, batch_ndim, debug, category):
    ok = np.asarray(pred)
    if debug or ok.all():
        return []
    values = [np.asarray(v) for v in fmt]
    prefix = ""
    if batch_ndim:
        idx = np.unravel_index(int(np.argmin(ok.reshape(-1))), ok.shape)[:batch_ndim]
        values = [v[idx] for v in values]
        prefix = f"at mapped index {idx[0] if len(idx) == 1 else idx}: "
    raise CheckifyError(prefix + format_message(msg, fmt_tree, values) + failed_at(source))


def _check_jvp(primals, tangents, **params):
    check_p.bind(*primals, **params)
    return [], []


def _check_batch(args, dims, *, batch_ndim, **params):
    size = batch_size(args, dims)
    xs = [bdim_to_front(x, d, size) for x, d in zip(args, dims)]
    check_p.bind(*xs, batch_ndim=batch_ndim + 1, **params)
    return [], []


check_p.jvp_rule = _check_jvp
check_p.batch_rule = _check_batch


def value_check(pred: Any, msg: str, *fmt_args: Any, category: str = "index") -> None:
    """A debug check an op binds for values it cannot see while tracing (an out-of-range class
    label or embedding id under jit): nothing happens outside checkify, and
    `checkify(f, errors=index_checks)` reports `msg.format(*fmt_args)` with the user's line."""
    leaves, fmt_tree = _tree.flatten((tuple(fmt_args), {}))
    check_p.bind(pred, *leaves, msg=msg, fmt_tree=fmt_tree, source=user_frame(), batch_ndim=0, debug=True,
                 category=category)
