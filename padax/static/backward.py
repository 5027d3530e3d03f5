"""Gradients and optimizer steps in a static Program.

`gradients(targets, inputs)` records one `static_gradients` equation whose outputs are the gradients:
the replay differentiates the recorded slice of the program from the inputs to the targets with
`padax.vjp`. `minimize` adds the optimizer's state as persistable inputs (initial values from
`opt.init`, kept by the startup program) and stages `opt.step(params, grads, state)` into the program;
its results are the program's new values of the parameters and the state.
"""
from __future__ import annotations

from typing import Any, Sequence

import padax
from padax.optimizer.lr import LRScheduler
from padax.static import program as _program
from padax.static.program import STATE, Program, StaticGraphError, Variable, add_persistable, eager
from padax.static.replay import GradSpec, gradients_p


def _as_list(x: Any) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _check_vars(xs: list, what: str, program: Program | None = None) -> Program:
    for x in xs:
        if not isinstance(x, Variable):
            raise TypeError(f"padax.static.{what}: expects static Variables, got {type(x).__name__}")
    prog = program if program is not None else xs[0].program
    for x in xs:
        if id(x._trace) not in prog._trace.family:
            raise StaticGraphError(f"padax.static.{what}: {x.name!r} belongs to another Program")
    return prog


def _no_grad_names(no_grad_set: Any) -> set[str]:
    return {x if isinstance(x, str) else x.name for x in (no_grad_set or ())}


def gradients(targets: Any, inputs: Any, target_gradients: Any = None, no_grad_set: Any = None) -> list:
    """The gradients of the sum of `targets` with respect to each of `inputs`, as Variables of the program
    (Paddle's `paddle.static.gradients`).

    Args:
        targets: a Variable or list of Variables to differentiate.
        inputs: a Variable or list of Variables (data, parameters or intermediate results).
        target_gradients: the cotangents of the targets (default: ones).
        no_grad_set: Variables or names through which no gradient flows.

    Returns:
        A list of gradient Variables, one per input (shaped like it).

    Examples:
        >>> import numpy as np, padax
        >>> padax.enable_static()
        >>> main = padax.static.Program()
        >>> with padax.static.program_guard(main):
        ...     x = padax.static.data("gx2", [None, 2], "float32")
        ...     y = (x * x).sum()
        ...     gx, = padax.static.gradients(y, x)
        >>> exe = padax.static.Executor()
        >>> exe.run(main, feed={"gx2": np.array([[1.0, 2.0]], "float32")}, fetch_list=[gx])[0].tolist()
        [[2.0, 4.0]]
        >>> padax.disable_static()
    """
    targets, inputs, tgrads = _as_list(targets), _as_list(inputs), _as_list(target_gradients)
    if not targets or not inputs:
        raise ValueError("padax.static.gradients: needs at least one target and one input")
    if tgrads and len(tgrads) != len(targets):
        raise ValueError(f"padax.static.gradients: {len(tgrads)} target_gradients for {len(targets)} targets")
    prog = _check_vars(targets + inputs + tgrads, "gradients")
    stop = _no_grad_names(no_grad_set)
    stopped = [prog._named[n] for n in stop if n in prog._named]
    # a no_grad Variable reaches the targets only as a constant: its stop_gradient twin replaces it
    if stopped:
        raise StaticGraphError("padax.static.gradients: no_grad_set naming intermediate Variables is not "
                               "supported; leave them out of inputs (parameters in no_grad_set are skipped by "
                               "append_backward)")
    spec = GradSpec(len(inputs), len(targets), len(tgrads))
    outs = prog._stage(lambda: gradients_p.bind(*inputs, *targets, *tgrads, spec=spec))
    for x, g in zip(inputs, outs):
        name = f"{x.name}@GRAD"
        if name not in prog._named:
            g.name = name
    return list(outs)


def append_backward(loss: Variable, parameter_list: Sequence[Any] | None = None, no_grad_set: Any = None,
                    callbacks: Any = None, checkpoints: Any = None, distop_context: Any = None) -> list:
    """Record the gradients of `loss` with respect to the trainable parameters (or `parameter_list`) and
    return the (parameter, gradient) pairs (Paddle's `paddle.static.append_backward`).

    Args:
        loss: a scalar (or one-element) Variable.
        parameter_list: Variables or names (default: every trainable parameter of the program).
        no_grad_set: parameters (Variables or names) to leave out.

    Returns:
        A list of (parameter Variable, gradient Variable).

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> main, startup = padax.static.Program(), padax.static.Program()
        >>> with padax.static.program_guard(main, startup):
        ...     x = padax.static.data("bx", [None, 3], "float32")
        ...     loss = padax.mean(padax.static.nn.fc(x, 1, weight_attr=padax.ParamAttr("bw")))
        ...     pairs = padax.static.append_backward(loss)
        >>> [(p.name, g.name) for p, g in pairs][0]
        ('bw', 'bw@GRAD')
        >>> padax.disable_static()
    """
    if not isinstance(loss, Variable):
        raise TypeError(f"padax.static.append_backward: loss must be a static Variable, got {type(loss).__name__}")
    prog = loss.program
    if loss.size != 1:
        raise ValueError(f"padax.static.append_backward: loss must have one element, got shape {loss.static_shape}")
    skip = _no_grad_names(no_grad_set)
    if parameter_list is None:
        params = [p for p in prog.all_parameters() if prog._trainable.get(p.name, True)]
    else:
        params = [prog._var(p) if isinstance(p, str) else p for p in parameter_list]
    params = [p for p in params if p.name not in skip]
    if not params:
        raise StaticGraphError("padax.static.append_backward: no trainable parameters to differentiate")
    grads = gradients([loss], params)
    for p, g in zip(params, grads):  # the names Paddle gives them, also when gradients() took them before
        name = f"{p.name}@GRAD"
        old = prog._named.get(name)
        if old is not None and old is not g:
            old._name = None
            del prog._named[name]
        g.name = name
    return list(zip(params, grads))


def minimize(loss: Variable, optimizer: Any, startup_program: Program | None = None, parameters: Any = None,
             no_grad_set: Any = None) -> tuple[list, list]:
    """`optimizer.minimize(loss)` in a static Program: the gradients, the optimizer state as persistable
    inputs, and the staged update; returns ([], [(parameter, gradient), ...]) as Paddle's (ops, params_grads)."""
    prog = loss.program
    startup = startup_program if startup_program is not None else STATE.startup
    pairs = append_backward(loss, parameters, no_grad_set)
    names = [p.name for p, _ in pairs]
    missing = [n for n in names if n not in startup._inits]
    if missing:
        raise StaticGraphError(f"padax.static: minimize: the startup program does not hold the initial values of "
                               f"{missing}; pass the startup program the parameters were made in")
    with eager():
        state0 = optimizer.init({n: startup._inits[n] for n in names})
    prefix = _program.unique_name(type(optimizer).__name__.lower())
    leaves: dict[str, Any] = {}

    def to_vars(key: str, sub: Any) -> Any:
        if isinstance(sub, dict):
            return {n: to_vars(f"{n}_{key}_0", v) for n, v in sub.items()}
        if sub is None:
            return None
        leaves[key] = sub
        return add_persistable(key, sub, kind="state", program=prog, startup=startup)

    state_vars = {k: to_vars(f"{prefix}_{k}" if not isinstance(v, dict) else k, v) for k, v in state0.items()}
    params = {p.name: p for p, _ in pairs}
    grads = {p.name: g for p, g in pairs}
    lr = None
    if isinstance(optimizer._learning_rate, LRScheduler):
        # as Paddle: the rate is a persistable the Executor sets from the schedule before each run, so that
        # scheduler.step() between runs moves it
        lr_name = _program.unique_name("learning_rate")
        with eager():
            lr0 = padax.to_tensor(float(optimizer.get_lr()), dtype="float32")
        lr = add_persistable(lr_name, lr0, kind="state", program=prog, startup=startup)
        prog._lr_feeds[lr_name] = optimizer
    new_params, new_state = prog._stage(lambda: optimizer.step(params, grads, state_vars, lr=lr))
    for n in names:
        prog._set_update(n, new_params[n])

    def record(old: Any, new: Any) -> None:
        if isinstance(old, dict):
            for k in old:
                record(old[k], new[k])
        elif old is not None:
            prog._set_update(old.name, new)

    record(state_vars, new_state)
    return [], pairs


_program._MINIMIZE[0] = minimize

__all__ = ["append_backward", "gradients", "minimize"]
