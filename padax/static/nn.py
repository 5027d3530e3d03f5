"""Paddle-style control flow (`paddle.static.nn.cond`, `while_loop`, `switch_case`) on padax.lax.

Paddle's forms take zero-argument branch functions (values come from the
closure) and a list of loop variables; these adapters map them onto the
functional primitives, so they work eagerly, under jit, grad and vmap.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from padax.functional._arrays import asarray as _asarray, is_array as _is_array
from padax.functional.lax import control, elementwise as _E, structural as _structural


def cond(pred: Any, true_fn: Callable[[], Any] | None = None, false_fn: Callable[[], Any] | None = None,
         name: str | None = None, return_names: Any = None) -> Any:
    """`true_fn()` if pred else `false_fn()`; both must return the same structure and types. `pred` is a
    bool scalar or, as Paddle gives comparisons of one-element Tensors, a Tensor of one element (shape [1]).

    Args:
        pred: a bool scalar, or a one-element Tensor (shape [1]).
        true_fn, false_fn: functions of no arguments returning the same structure and types.
        return_names: accepted for Paddle compatibility; unused.

    Returns:
        The chosen branch's result.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor(3.0)
        >>> float(padax.static.nn.cond(x > 2.0, lambda: x * 2, lambda: x - 1))
        6.0
    """
    if true_fn is None or false_fn is None:
        raise TypeError("padax.static.nn.cond needs both true_fn and false_fn (branches must return "
                        "values of the same structure)")
    if _is_array(pred) or not isinstance(pred, bool):
        p = _asarray(pred)
        if p.aval.shape != () and p.aval.size == 1:
            pred = _structural.reshape(p, ())
    return control.cond(pred, lambda: true_fn(), lambda: false_fn())


def while_loop(cond: Callable[..., Any], body: Callable[..., Any], loop_vars: Sequence[Any],
               is_test: bool = False, name: str | None = None) -> list:
    """Run `loop_vars = body(*loop_vars)` while `cond(*loop_vars)`; returns the final list.

    Args:
        cond: `cond(*loop_vars)` giving a bool scalar.
        body: `body(*loop_vars)` giving new values of the same structure and types.
        loop_vars: a non-empty list of the initial values.
        is_test: accepted for Paddle compatibility; unused.

    Returns:
        A list of the final loop values.

    Examples:
        >>> import padax
        >>> i, total = padax.static.nn.while_loop(lambda i, s: i < 4, lambda i, s: [i + 1, s + i],
        ...                                       [padax.to_tensor(0), padax.to_tensor(0)])
        >>> int(i), int(total)
        (4, 6)
    """
    if not isinstance(loop_vars, (list, tuple)) or not loop_vars:
        raise TypeError("padax.static.nn.while_loop: loop_vars must be a non-empty list")

    def body_fn(vs):
        out = body(*vs)
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        if len(out) != len(vs):
            raise TypeError(f"padax.static.nn.while_loop: body returned {len(out)} values for "
                            f"{len(vs)} loop_vars")
        return out

    return list(control.while_loop(lambda vs: cond(*vs), body_fn, list(loop_vars)))


def switch_case(branch_index: Any, branch_fns: Any, default: Callable[[], Any] | None = None,
                name: str | None = None) -> Any:
    """Run branch `branch_index` of `branch_fns` (a list, or (index, fn) pairs / a dict); an index
    with no branch runs `default` (or the last branch).

    Args:
        branch_index: an integer scalar.
        branch_fns: a list of functions, (index, fn) pairs or a dict {index: fn}.
        default: the function for an index with no branch (default: the last branch).

    Returns:
        The chosen branch's result.

    Examples:
        >>> import padax
        >>> branches = {0: lambda: padax.to_tensor(10.0), 1: lambda: padax.to_tensor(20.0)}
        >>> float(padax.static.nn.switch_case(padax.to_tensor(1), branches))
        20.0
        >>> float(padax.static.nn.switch_case(padax.to_tensor(5), branches, default=lambda: padax.to_tensor(-1.0)))
        -1.0
    """
    if isinstance(branch_fns, dict):
        pairs = sorted(branch_fns.items())
    elif branch_fns and isinstance(branch_fns[0], (tuple, list)):
        pairs = sorted((int(k), f) for k, f in branch_fns)
    else:
        pairs = list(enumerate(branch_fns))
    keys = [k for k, _ in pairs]
    fns = [f for _, f in pairs] + ([default] if default is not None else [])
    idx = _structural.convert_element_type(_asarray(branch_index), "int32")
    # position of branch_index among the keys, or the default's (without one: the last branch,
    # not traced a second time)
    pos = _asarray(len(fns) - 1)
    for i, k in enumerate(keys):
        pos = _structural.select(_E.eq(idx, k), _asarray(i), pos)
    return control.switch(pos, [lambda f=f: f() for f in fns])


from padax.static.layers import (  # noqa: E402,F401
    batch_norm,
    conv2d,
    conv2d_transpose,
    embedding,
    fc,
    group_norm,
    instance_norm,
    layer_norm,
    prelu,
)
