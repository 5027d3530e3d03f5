"""The `checkify` transformation: trace f, collect its check sites, run the rewritten program
(compiled, cached per argument types) that also computes the error value."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from padax import jit, tree as tree_util
from padax.checkify._categories import all_checks, user_checks
from padax.checkify._checker import Checker, State, initial_state
from padax.checkify._error_value import Error
from padax.checkify._sites import collect
from padax.core.trace import Tracer
from padax.transforms.staging import arg_aval as aval_of, flat_fun, trace_flat


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
