"""`debug_nans` / `debug_infs`: find the operation that first produced a NaN (or an infinity).

With `padax.config.update("debug_nans", True)` every compiled call (and every
eager op) has its floating-point outputs checked. When one holds a NaN, padax
runs the traced program again, one primitive at a time on the same inputs,
going into nested jits, custom-derivative calls and control flow (a loop runs
its body step by step), and raises FloatingPointError naming the first
primitive whose output has a NaN while its inputs had none, its line in the
user's code and the chain of jits it sits in. The checks read every output
back to the host: use them to debug, not in production.
"""
from __future__ import annotations

import threading
from typing import Any, Sequence

import numpy as np

from padax.config import config
from padax.core import dtypes
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, Literal
from padax.core.source_info import user_location
from padax.runtime.array import Tensor
from padax.runtime.put import device_put


class _State(threading.local):
    suppressed = False


_state = _State()


def checking() -> bool:
    """Whether outputs are checked now (a re-run op by op checks itself)."""
    return (config.debug_nans or config.debug_infs) and not _state.suppressed


def _bad(x: Any) -> str | None:
    """'nan' or 'inf' if this value has one that is being checked for, else None."""
    if not isinstance(x, Tensor) or not dtypes.is_inexact(x.dtype):
        return None
    v = np.asarray(x)
    if config.debug_nans and np.isnan(v).any():
        return "nan"
    if config.debug_infs and np.isinf(v).any():
        return "inf"
    return None


def _first_bad(xs: Sequence[Any]) -> str | None:
    for x in xs:
        kind = _bad(x)
        if kind is not None:
            return kind
    return None


def _message(kind: str, what: str) -> str:
    name = "invalid value (nan)" if kind == "nan" else "divide by zero or overflow (inf)"
    return f"{name} encountered in {what}"


def check_eager_op(name: str, outs: Sequence[Any]) -> None:
    """After an eager primitive: raise if its outputs hold a NaN/inf."""
    if not checking():
        return
    kind = _first_bad(outs)
    if kind is not None:
        raise FloatingPointError(_message(kind, f"the primitive '{name}'{user_location()}") +
                                 " (debug_nans/debug_infs is on)")


def check_program(name: str, closed: ClosedJaxpr, args: Sequence[Any], outs: Sequence[Any]) -> None:
    """After a compiled call of `closed` on `args`: if an output holds a NaN/inf, find where it began."""
    if not checking():
        return
    kind = _first_bad(outs)
    if kind is None:
        return
    where = f"jit({name})"
    if _first_bad(args) is not None:
        raise FloatingPointError(_message(kind, f"{where}: its inputs already hold it{user_location()}"))
    _state.suppressed = True
    try:
        _eval(closed.jaxpr, closed.consts, list(args), [where])
    finally:
        _state.suppressed = False
    raise FloatingPointError(_message(kind, f"{where}, but running it op by op did not reproduce it (the "
                                            f"compiled program's fused arithmetic differs){user_location()}"))


# -- the op-by-op re-run -------------------------------------------------------------------------------

def _located(kind: str, eqn, path: list[str]) -> FloatingPointError:
    src = f" at {eqn.source_info}" if eqn.source_info is not None else ""
    chain = " inside ".join(reversed(path))
    return FloatingPointError(
        _message(kind, f"the primitive '{eqn.primitive.name}'{src}, inside {chain}") +
        f". padax re-ran {path[0]} op by op after it produced {'a NaN' if kind == 'nan' else 'an infinity'}; "
        f"this is the first operation whose output has one while its inputs did not.")


def _eval(jaxpr: Jaxpr, consts: Sequence[Any], args: Sequence[Any], path: list[str]) -> list:
    env: dict = {}

    def read(v):
        return v.val if type(v) is Literal else env[v]

    for v, x in zip(jaxpr.constvars, consts):
        env[v] = x
    for v, x in zip(jaxpr.invars, args):
        env[v] = x
    for eqn in jaxpr.eqns:
        ins = [read(v) for v in eqn.invars]
        run = _NESTED.get(eqn.primitive.name)
        if run is not None:
            outs = run(eqn, ins, path)
        else:
            outs = eqn.primitive.bind(*ins, **eqn.params)
            outs = list(outs) if eqn.primitive.multiple_results else [outs]
            kind = _first_bad(outs)
            if kind is not None and _first_bad(ins) is None:
                raise _located(kind, eqn, path)
        for v, x in zip(eqn.outvars, outs):
            env[v] = x
    return [read(v) for v in jaxpr.outvars]


def _call(key: str, label):
    def run(eqn, ins, path):
        closed = eqn.params[key]
        return _eval(closed.jaxpr, closed.consts, ins, path + [label(eqn.params)])
    return run


def _cond(eqn, ins, path):
    branches = eqn.params["branches"]
    i = min(max(int(np.asarray(ins[0])), 0), len(branches) - 1)
    return _eval(branches[i].jaxpr, [], ins[1:], path + [f"cond branch {i}"])


def _while(eqn, ins, path):
    p = eqn.params
    cc, bc = ins[:p["cond_nconsts"]], ins[p["cond_nconsts"]:p["cond_nconsts"] + p["body_nconsts"]]
    carry = ins[p["cond_nconsts"] + p["body_nconsts"]:]
    while bool(np.asarray(_eval(p["cond_jaxpr"].jaxpr, [], cc + carry, path + ["while_loop cond"])[0])):
        carry = _eval(p["body_jaxpr"].jaxpr, [], bc + carry, path + ["while_loop body"])
    return carry


def _scan(eqn, ins, path):
    p = eqn.params
    nc, nk, length = p["num_consts"], p["num_carry"], p["length"]
    consts, carry, xs = ins[:nc], ins[nc:nc + nk], [np.asarray(x) for x in ins[nc + nk:]]
    ys: list = []
    steps = range(length - 1, -1, -1) if p["reverse"] else range(length)
    for i in steps:
        outs = _eval(p["jaxpr"].jaxpr, [], consts + carry + [device_put(x[i]) for x in xs],
                     path + [f"scan body (step {i})"])
        carry = outs[:nk]
        ys.append([np.asarray(y) for y in outs[nk:]])
    if p["reverse"]:
        ys.reverse()
    n_y = len(p["jaxpr"].out_avals) - nk
    stacked = [device_put(np.stack([y[k] for y in ys])) if ys else device_put(
        np.zeros((0,) + p["jaxpr"].out_avals[nk + k].shape, p["jaxpr"].out_avals[nk + k].dtype))
        for k in range(n_y)]
    return carry + stacked


_NESTED = {
    "jit": _call("jaxpr", lambda params: f"jit({params['name']})"),
    "remat": _call("jaxpr", lambda params: "checkpoint"),
    "custom_jvp_call": _call("call_jaxpr", lambda params: "custom_jvp function"),
    "custom_vjp_call": _call("call_jaxpr", lambda params: "custom_vjp function"),
    "cond": _cond,
    "while": _while,
    "scan": _scan,
}
