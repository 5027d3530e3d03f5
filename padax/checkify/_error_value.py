"""checkify's error value: `Error` (a pytree holding which check failed first and its values),
`init_error`, and JaxRuntimeError, the name jax code catches for CheckifyError."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax import tree as tree_util
from padax.functional.lax.checks import CheckifyError

JaxRuntimeError = CheckifyError  # the name jax code catches


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
