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

from padax.checkify._categories import (all_checks, automatic_checks, div_checks, float_checks, index_checks,
                                        nan_checks, user_checks)
from padax.checkify._error_value import Error, JaxRuntimeError, init_error
from padax.checkify._transform import checkify
from padax.checkify._user_checks import check, check_error, debug_check
from padax.functional.lax.checks import CheckifyError

__all__ = ["checkify", "check", "debug_check", "check_error", "init_error", "Error", "CheckifyError",
           "JaxRuntimeError", "user_checks", "nan_checks", "div_checks", "index_checks", "float_checks",
           "automatic_checks", "all_checks"]
