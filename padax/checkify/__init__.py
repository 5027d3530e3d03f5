"""`padax.checkify`: errors from inside compiled code, as values (like jax.experimental.checkify).

    def f(x, i):
        checkify.check(i >= 0, "index must be non-negative, got {}", i)
        return x[i]

    err, out = checkify.checkify(f, errors=checkify.all_checks)(x, 5)
    err.throw()          # raises CheckifyError with the first failure, if any
    err.get()            # the message, or None

A compiled program cannot raise. `checkify(f)` traces `f`, and runs a
rewritten program (compiled, cached per argument types) that also computes
an error value: an int32 code saying which check failed first (-1: none),
and the values the message needs. Categories (`errors=`): `user_checks`
(`check`, `debug_check`, `check_error`), `nan_checks` (a NaN produced by a
primitive from NaN-free inputs), `div_checks` (integer division by zero),
`index_checks` (out-of-bounds start indices of gather, dynamic_slice,
dynamic_update_slice, and of scatters in 'clip' or 'promise_in_bounds'
mode; a 'drop' scatter skips out-of-bounds windows by design, and
`x.at[i]` updates are checked where their indices are read); `float_checks`,
`automatic_checks` and `all_checks` combine them. Checks inside jit calls,
cond branches, while loops (cond_fun and body), scan bodies and
custom_jvp/custom_vjp functions are found. The checked function works under
jit, vmap (the error is then per batch element; `get` reports the first
failing one) and grad. Outside checkify, `check` raises at once eagerly and
is an error under jit; `debug_check` does nothing there.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from padax.checkify._checker import Checker, State, initial_state
from padax.checkify._sites import collect
from padax.core import tree as tree_util
from padax.core.source_info import user_frame
from padax.core.trace import Tracer
from padax.devices.array import Tensor
from padax.functional.lax.checks import CheckifyError, check_p

__all__ = ["checkify", "check", "debug_check", "check_error", "init_error", "Error", "CheckifyError",
           "JaxRuntimeError", "user_checks", "nan_checks", "div_checks", "index_checks", "float_checks",
           "automatic_checks", "all_checks"]

user_checks = frozenset({"user"})
nan_checks = frozenset({"nan"})
div_checks = frozenset({"div"})
index_checks = frozenset({"index"})
float_checks = nan_checks | div_checks
automatic_checks = float_checks | index_checks
all_checks = automatic_checks | user_checks


JaxRuntimeError = CheckifyError  # the name jax code catches


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
    import padax.numpy as pnp
    if not isinstance(msg, str):
        raise TypeError(f"checkify.{what}: msg must be a str, got {type(msg).__name__}")
    pred = pnp.asarray(pred)
    if pred.dtype != np.bool_:
        raise TypeError(f"checkify.{what}: the predicate must be a bool array, got dtype {pred.dtype}")
    pred = pnp.all(pred)
    leaves, fmt_tree = tree_util.flatten((fmt_args, fmt_kwargs))
    leaves = [x if isinstance(x, (Tensor, Tracer)) else pnp.asarray(x) for x in leaves]
    check_p.bind(pred, *leaves, msg=msg, fmt_tree=fmt_tree, source=user_frame(), batch_ndim=0, debug=debug)


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
    import padax.numpy as pnp
    if not isinstance(error, Error):
        raise TypeError(f"checkify.check_error: expected a checkify.Error, got {type(error).__name__}")
    leaves, fmt_tree = tree_util.flatten(((error,), {}))
    leaves = [x if isinstance(x, (Tensor, Tracer)) else pnp.asarray(x) for x in leaves]
    passed = pnp.all(pnp.asarray(leaves[0]) < 0)  # leaves[0] is the error code: -1 where nothing failed
    check_p.bind(passed, *leaves, msg="{0.message}", fmt_tree=fmt_tree, source=None, batch_ndim=0, debug=False)


# -- the error value ---------------------------------------------------------------------------------

class Error:
    """What a checkified function returns first: which check failed first, with its values.

    A pytree (it can leave jit and vmap). Under vmap the code has the batch's shape and `get`
    reports the first failing element.

    Args:
        code: int array, -1 where no check failed, else the index of the first failing check.
        payloads: per check, the values formatted into its message.
        sites: per check, the static site that formats its message (template and source line).

    Returns:
        The error value; `get()` gives the message or None, `throw()` raises it.

    Examples:
        >>> import padax
        >>> from padax import checkify
        >>> def small(x):
        ...     checkify.check(x < 10, "too big: {}", x)
        ...     return x
        >>> checkify.checkify(small)(padax.to_tensor(1.0))[0]
        Error(no error)
        >>> err, _ = padax.vmap(checkify.checkify(small))(padax.to_tensor([1.0, 12.0]))
        >>> err.get()
        'at mapped index 1: too big: 12.0 (check failed at ...)'
    """

    def __init__(self, code: Any, payloads: Sequence[Sequence[Any]], sites: tuple):
        self._code = code
        self._payloads = [list(p) for p in payloads]
        self._sites = sites

    @property
    def message(self) -> str:
        """The message of the first failed check ('' if none failed); what `check_error` reports."""
        return self.get() or ""

    def get(self) -> str | None:
        """The message of the first failed check, or None if every check passed."""
        code = np.asarray(self._code)
        if code.ndim == 0:
            if code < 0:
                return None
            return self._sites[int(code)].message([np.asarray(p) for p in self._payloads[int(code)]])
        failed = np.argwhere(code >= 0)
        if not len(failed):
            return None
        idx = tuple(failed[0])
        site = int(code[idx])
        payload = [np.asarray(p)[idx] for p in self._payloads[site]]
        where = idx[0] if len(idx) == 1 else idx
        return f"at mapped index {where}: " + self._sites[site].message(payload)

    def get_exception(self) -> CheckifyError | None:
        msg = self.get()
        return None if msg is None else CheckifyError(msg)

    def throw(self) -> None:
        """Raise CheckifyError if a check failed."""
        exc = self.get_exception()
        if exc is not None:
            raise exc

    def __str__(self) -> str:
        msg = self.get()
        return "Error(no error)" if msg is None else f"Error({msg})"

    __repr__ = __str__


def _flatten_error(e: Error):
    return [e._code] + [x for p in e._payloads for x in p], (e._sites, tuple(len(p) for p in e._payloads))


def _unflatten_error(aux, children):
    sites, lens = aux
    code, rest = children[0], list(children[1:])
    payloads, i = [], 0
    for n in lens:
        payloads.append(rest[i:i + n])
        i += n
    return Error(code, payloads, sites)


tree_util.register_node(Error, _flatten_error, _unflatten_error)

init_error = Error(np.int32(-1), [], ())  # an error value holding no failure (jax's checkify.init_error)


# -- the transformation -----------------------------------------------------------------------------------

def checkify(fun: Callable, errors: frozenset = user_checks) -> Callable:
    """`checkify(f)(*args) -> (Error, f(*args))` with the checks in `errors` made into a value.

    Args:
        fun: the function to check.
        errors: categories of checks to turn on: user_checks (default), nan_checks, div_checks, index_checks,
            float_checks, automatic_checks or all_checks (sets, combined with |).

    Returns:
        A function returning `(Error, fun(*args))`.

    Examples:
        >>> import padax
        >>> from padax import checkify
        >>> def safe_log(x):
        ...     checkify.check(x > 0, "x must be positive, got {}", x)
        ...     return padax.log(x)
        >>> err, out = padax.jit(checkify.checkify(safe_log))(padax.to_tensor(-1.0))
        >>> err.get()
        'x must be positive, got -1.0 (check failed at ...)'
        >>> err, out = checkify.checkify(padax.log, errors=checkify.nan_checks)(padax.to_tensor(2.0))
        >>> err.get() is None, round(float(out), 4)
        (True, 0.6931)
    """
    from padax.transforms.jit import jit
    from padax.transforms.staging import aval_of, flat_fun, trace_flat
    errors = frozenset(errors)
    unknown = errors - all_checks
    if unknown:
        raise ValueError(f"checkify: unknown error categories {sorted(unknown)}; use checkify.user_checks, "
                         "nan_checks, div_checks, index_checks, float_checks, automatic_checks or all_checks")
    cache: dict = {}
    name = getattr(fun, "__name__", "fun")

    def checked(*args: Any, **kwargs: Any):
        leaves, in_tree = tree_util.flatten((args, kwargs))
        avals = tuple(aval_of(x) for x in leaves)
        hit = cache.get((in_tree, avals))
        if hit is None:
            store: list = []
            closed = trace_flat(flat_fun(fun, in_tree, store), list(avals), f"checkify({name}) tracing")
            sites: list = []
            ids: dict = {}
            collect(closed.jaxpr, errors, sites, ids)
            checker = Checker(sites, ids)
            n_in = len(leaves)

            def program(*xs):
                state = initial_state(sites)
                outs = checker.run(closed.jaxpr, xs[n_in:], xs[:n_in], state)
                return state.flat(), outs

            program.__name__ = f"checkify_{name}"
            hit = (jit(program), tuple(sites), store[0], closed.consts)
            if not any(isinstance(c, Tracer) for c in closed.consts):
                cache[(in_tree, avals)] = hit
        compiled, sites, out_tree, consts = hit
        flat_state, outs = compiled(*leaves, *consts)
        return _error(flat_state, sites), out_tree.unflatten(outs)

    checked.__name__ = f"checkify({name})"
    return checked


def _error(flat_state: Sequence[Any], sites: tuple) -> Error:
    st = State.from_flat(flat_state, sites)
    return Error(st.code, st.payloads, sites)
