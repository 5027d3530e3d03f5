"""`check` outside checkify: a compiled program cannot raise, so say what to do instead."""
from __future__ import annotations

from padax.functional.lax.checks import CheckifyError, check_p
from padax.lowering.mlir import register_lowering


@register_lowering(check_p)
def _check(ctx, *args, msg, source, debug, **params):
    if debug:  # checkify.debug_check: only checkify makes it do something
        return []
    where = f" at {source}" if source is not None else ""
    raise CheckifyError(f"checkify.check({msg!r}){where} is inside a compiled program but not inside "
                        "padax.checkify.checkify: a compiled program cannot raise. Wrap the function with "
                        "checkify.checkify(f) (then err.throw()), or call it outside jit.")
