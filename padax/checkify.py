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

import dataclasses
from typing import Any, Callable, Sequence

import numpy as np

from padax.core import tree as tree_util
from padax.core.abstract import ShapedArray
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, Literal
from padax.core.source_info import user_frame
from padax.core.trace import Tracer
from padax.devices.array import Tensor
from padax.functional.lax.checks import CheckifyError, check_p, failed_at, format_message
from padax.functional.lax.indexing import GatherScatterMode

__all__ = ["checkify", "check", "debug_check", "check_error", "init_error", "Error", "CheckifyError", "JaxRuntimeError", "user_checks", "nan_checks",
           "div_checks", "index_checks", "float_checks", "automatic_checks", "all_checks"]

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
    """
    _bind_check("check", pred, msg, fmt_args, fmt_kwargs, debug=False)


def debug_check(pred: Any, msg: str, *fmt_args: Any, **fmt_kwargs: Any) -> None:
    """Like `check` inside `checkify(f)`; outside it nothing happens (eagerly or compiled), so
    the check can stay in code that also runs unchecked."""
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
    """
    import padax.numpy as pnp
    if not isinstance(error, Error):
        raise TypeError(f"checkify.check_error: expected a checkify.Error, got {type(error).__name__}")
    leaves, fmt_tree = tree_util.flatten(((error,), {}))
    leaves = [x if isinstance(x, (Tensor, Tracer)) else pnp.asarray(x) for x in leaves]
    passed = pnp.all(pnp.asarray(leaves[0]) < 0)  # leaves[0] is the error code: -1 where nothing failed
    check_p.bind(passed, *leaves, msg="{0.message}", fmt_tree=fmt_tree, source=None, batch_ndim=0, debug=False)


# -- the error value ---------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True, eq=False)
class _Site:
    """One place that can fail: its kind, message template, where, and the avals of its payload."""

    kind: str
    msg: str
    source: Any
    payload_avals: tuple
    fmt_tree: Any = None
    batch_ndim: int = 0

    def message(self, payload: Sequence[np.ndarray]) -> str:
        where = f" at {self.source}" if self.source is not None else ""
        prefix = ""
        if self.batch_ndim:
            payload = list(payload)
            flat = int(payload.pop(0))
            prefix = f"at mapped index {flat}: "
        if self.kind == "user":
            return prefix + format_message(self.msg, self.fmt_tree, payload) + failed_at(self.source)
        if self.kind == "index":
            index, axis, size = (int(p) for p in payload)
            prim, shape = self.msg.split("|")
            return (f"out-of-bounds indexing for array of shape {shape}: index {index} is out of bounds for "
                    f"axis {axis} with size {size}. Failing primitive: {prim}{where}")
        if self.kind == "div":
            return f"division by zero in primitive {self.msg}{where}"
        return f"nan generated by primitive: {self.msg}{where}"


class Error:
    """What a checkified function returns first: which check failed first, with its values.

    A pytree (it can leave jit and vmap). Under vmap the code has the batch's shape and `get`
    reports the first failing element.
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


# -- finding the sites ---------------------------------------------------------------------------------

_STRUCTURAL = frozenset({"reshape", "broadcast_in_dim", "transpose", "squeeze", "expand_dims", "slice",
                         "dynamic_slice", "dynamic_update_slice", "concatenate", "pad", "rev", "select_n",
                         "copy", "convert_element_type", "stop_gradient", "sharding_constraint"})
_CALLS = {"jit": "jaxpr", "remat": "jaxpr", "custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr"}
_I64 = ShapedArray((), np.dtype(np.int64))


def _is_float(aval: ShapedArray) -> bool:
    return np.issubdtype(aval.dtype, np.inexact)


def _site_of(eqn, errors: frozenset) -> _Site | None:
    name = eqn.primitive.name
    if eqn.primitive is check_p:
        if "user" not in errors:
            return None
        p = eqn.params
        payload = tuple(v.aval for v in eqn.invars[1:])
        if p["batch_ndim"]:
            payload = (_I64,) + tuple(a.update(shape=a.shape[p["batch_ndim"]:]) for a in payload)
        return _Site("user", p["msg"], p["source"], payload, p["fmt_tree"], p["batch_ndim"])
    if "index" in errors and _bounds_checked(eqn):
        return _Site("index", f"{name}|{eqn.invars[0].aval.shape}", eqn.source_info, (_I64, _I64, _I64))
    if name in ("div", "rem") and "div" in errors and not _is_float(eqn.invars[1].aval):
        return _Site("div", name, eqn.source_info, ())
    if ("nan" in errors and name not in _STRUCTURAL and name not in _CALLS and name not in _CONTROL
            and any(_is_float(v.aval) for v in eqn.outvars)):
        return _Site("nan", name, eqn.source_info, ())
    return None


_CONTROL = frozenset({"cond", "while", "scan"})
_SCATTERS = frozenset({"scatter", "scatter_add", "scatter_mul", "scatter_min", "scatter_max"})


def _bounds_checked(eqn) -> bool:
    """Whether an equation reads or writes at run-time start indices that must lie in bounds.

    Gathers in every mode (as jax), dynamic slices and updates, and scatters except in 'drop'
    mode, which padax uses where out-of-bounds windows are meant to be skipped (histograms,
    `unique(size=)`, and `x.at[i]` updates, whose indices are checked where they are read).
    """
    name = eqn.primitive.name
    if name in ("gather", "dynamic_slice", "dynamic_update_slice"):
        return True
    return name in _SCATTERS and eqn.params["mode"] is not GatherScatterMode.FILL_OR_DROP


def _collect(jaxpr: Jaxpr, errors: frozenset, sites: list, ids: dict) -> None:
    """Number every site of the program (recursively), in program order."""
    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        if name in _CALLS:
            _collect(eqn.params[_CALLS[name]].jaxpr, errors, sites, ids)
        elif name == "cond":
            for b in eqn.params["branches"]:
                _collect(b.jaxpr, errors, sites, ids)
        elif name == "while":
            _collect(eqn.params["cond_jaxpr"].jaxpr, errors, sites, ids)
            _collect(eqn.params["body_jaxpr"].jaxpr, errors, sites, ids)
        elif name == "scan":
            _collect(eqn.params["jaxpr"].jaxpr, errors, sites, ids)
        else:
            site = _site_of(eqn, errors)
            if site is not None:
                ids[id(eqn)] = len(sites)
                sites.append(site)


# -- the rewritten program -------------------------------------------------------------------------------

class _State:
    """The error value while the program runs: code and every site's payload (arrays of the trace)."""

    def __init__(self, code, payloads: list):
        self.code = code
        self.payloads = payloads

    def flat(self) -> list:
        return [self.code] + [x for p in self.payloads for x in p]

    @staticmethod
    def from_flat(flat: Sequence[Any], sites: Sequence[_Site]) -> "_State":
        flat = list(flat)
        payloads, i = [], 1
        for s in sites:
            n = len(s.payload_avals)
            payloads.append(flat[i:i + n])
            i += n
        return _State(flat[0], payloads)

    def fail(self, site_id: int, failed, payload: Sequence[Any]) -> None:
        import padax.numpy as pnp
        first = pnp.logical_and(failed, self.code < 0)
        self.code = pnp.where(first, np.int32(site_id), self.code)
        self.payloads[site_id] = [pnp.where(first, pnp.asarray(new, dtype=old.dtype), old)
                                  for new, old in zip(payload, self.payloads[site_id])]


def _initial_state(sites: Sequence[_Site]) -> _State:
    import padax.numpy as pnp
    return _State(pnp.asarray(-1, dtype=np.int32), [[pnp.zeros(a.shape, dtype=a.dtype) for a in s.payload_avals]
                                              for s in sites])


class _Checker:
    def __init__(self, sites: list, ids: dict):
        self.sites = sites
        self.ids = ids

    def run(self, jaxpr: Jaxpr, consts: Sequence[Any], args: Sequence[Any], state: _State) -> list:
        import padax.numpy as pnp
        env: dict = {}
        nan_of: dict = {}

        def read(v):
            return v.val if type(v) is Literal else env[v]

        def has_nan(v):
            if type(v) is Literal or not _is_float(v.aval):
                return None
            if v not in nan_of:
                nan_of[v] = pnp.any(pnp.isnan(env[v]))
            return nan_of[v]

        for v, x in zip(jaxpr.constvars, consts):
            env[v] = x
        for v, x in zip(jaxpr.invars, args):
            env[v] = x
        for eqn in jaxpr.eqns:
            ins = [read(v) for v in eqn.invars]
            name = eqn.primitive.name
            if name in _CALLS:
                closed = eqn.params[_CALLS[name]]
                outs = self.run(closed.jaxpr, closed.consts, ins, state)
                if name.startswith("custom_"):  # keep the derivative rule: the checked copy only finds errors
                    outs = eqn.primitive.bind(*ins, **_custom_params_without_checks(eqn))
            elif name in _CONTROL:
                outs = getattr(self, "_" + name)(eqn, ins, state)
            elif eqn.primitive is check_p:
                outs = []
                sid = self.ids.get(id(eqn))
                if sid is not None:
                    self._user(sid, eqn, ins, state)
            else:
                outs = eqn.primitive.bind(*ins, **eqn.params)
                outs = list(outs) if eqn.primitive.multiple_results else [outs]
                sid = self.ids.get(id(eqn))
                if sid is not None:
                    self._automatic(sid, eqn, ins, outs, state, env, has_nan)
            for v, x in zip(eqn.outvars, outs):
                env[v] = x
        return [read(v) for v in jaxpr.outvars]

    # automatic and user checks
    def _user(self, sid: int, eqn, ins, state: _State) -> None:
        import padax.numpy as pnp
        pred, fmt = ins[0], ins[1:]
        nb = eqn.params["batch_ndim"]
        if not nb:
            state.fail(sid, pnp.logical_not(pred), fmt)
            return
        bad = pnp.logical_not(pred).reshape(-1)
        flat = pnp.argmax(bad.astype(np.int32))
        batch_shape = pnp.asarray(pred).shape[:nb]
        idx = pnp.unravel_index(flat, batch_shape) if nb > 1 else (flat,)
        values = [f[tuple(idx)] for f in fmt]
        state.fail(sid, pnp.any(bad), [flat] + values)

    def _automatic(self, sid: int, eqn, ins, outs, state: _State, env, has_nan) -> None:
        import padax.numpy as pnp
        site = self.sites[sid]
        if site.kind == "nan":
            out_nan = None
            for v, o in zip(eqn.outvars, outs):
                if _is_float(v.aval):
                    env[v] = o
                    n = has_nan(v)
                    out_nan = n if out_nan is None else pnp.logical_or(out_nan, n)
            in_nan = [has_nan(v) for v in eqn.invars]
            in_nan = [n for n in in_nan if n is not None]
            failed = out_nan if not in_nan else pnp.logical_and(out_nan, pnp.logical_not(pnp.any(pnp.stack(in_nan))))
            state.fail(sid, failed, [])
        elif site.kind == "div":
            state.fail(sid, pnp.any(pnp.equal(ins[1], 0)), [])
        else:
            self._bounds(sid, eqn, ins, state)

    def _bounds(self, sid: int, eqn, ins, state: _State) -> None:
        """Out-of-bounds start indices (index vectors of a gather/scatter, scalars of a dynamic
        slice/update): the first bad index, its operand axis and that axis's size."""
        import padax.numpy as pnp
        shape = np.array(eqn.invars[0].aval.shape, np.int64)
        axes, sizes, starts = _starts(eqn, ins, shape)
        if starts is None or not len(axes):
            return
        upper = shape[axes] - sizes[axes]
        oob = pnp.logical_or(starts < 0, starts > pnp.asarray(upper)).reshape(-1)
        first = pnp.argmax(oob.astype(np.int32))
        axis = pnp.asarray(axes)[first % len(axes)]
        state.fail(sid, pnp.any(oob), [starts.reshape(-1)[first], axis, pnp.asarray(shape)[axis]])

    # control flow: the error state travels through the bodies
    def _checked_body(self, closed: ClosedJaxpr, n_front: int, in_avals, what: str):
        """A traced function (front args, state..., rest) -> (state..., outputs) checking `closed`."""
        from padax.transforms.staging import trace_flat
        sites = self.sites
        n_state = len(_initial_state_avals(sites))

        def body(*xs):
            front, st, rest = xs[:n_front], xs[n_front:n_front + n_state], xs[n_front + n_state:]
            state = _State.from_flat(st, sites)
            outs = self.run(closed.jaxpr, closed.consts, list(front) + list(rest), state)
            return state.flat() + list(outs)

        avals = list(in_avals[:n_front]) + _initial_state_avals(sites) + list(in_avals[n_front:])
        return trace_flat(body, avals, what)

    def _cond(self, eqn, ins, state: _State) -> list:
        from padax.functional.lax.control import _join_consts, cond_p
        branches = eqn.params["branches"]
        in_avals = [v.aval for v in eqn.invars[1:]]
        checked = [self._checked_body(b, 0, in_avals, "checkify of cond") for b in branches]
        joined, consts = _join_consts(checked)
        outs = cond_p.bind(ins[0], *consts, *state.flat(), *ins[1:], branches=tuple(joined))
        n = len(state.flat())
        new = _State.from_flat(outs[:n], self.sites)
        state.code, state.payloads = new.code, new.payloads
        return outs[n:]

    def _while(self, eqn, ins, state: _State) -> list:
        """The loop carries the error state; cond_fun's checks run on the initial carry and after
        every step (on each carry cond_fun sees), the loop's own cond_fun ignores the state."""
        from padax.core.jaxpr import eval_jaxpr
        from padax.functional.lax.control import _hoist, while_p
        from padax.transforms.staging import trace_flat
        p = eqn.params
        ncc, nbc = p["cond_nconsts"], p["body_nconsts"]
        cc, bc, carry = ins[:ncc], ins[ncc:ncc + nbc], ins[ncc + nbc:]
        cond_j, body_j = p["cond_jaxpr"], p["body_jaxpr"]
        sites = self.sites
        state_avals = _initial_state_avals(sites)
        n_state = len(state_avals)
        avals = [v.aval for v in eqn.invars]
        cc_avals, bc_avals, carry_avals = avals[:ncc], avals[ncc:ncc + nbc], avals[ncc + nbc:]

        self.run(cond_j.jaxpr, cond_j.consts, list(cc) + list(carry), state)  # cond_fun on the initial carry

        def body(*xs):
            c_consts, b_consts = xs[:ncc], xs[ncc:ncc + nbc]
            st, new_carry = xs[ncc + nbc:ncc + nbc + n_state], xs[ncc + nbc + n_state:]
            inner = _State.from_flat(st, sites)
            outs = self.run(body_j.jaxpr, body_j.consts, list(b_consts) + list(new_carry), inner)
            self.run(cond_j.jaxpr, cond_j.consts, list(c_consts) + list(outs), inner)
            return inner.flat() + list(outs)

        def cond(*xs):
            return eval_jaxpr(_without_checks(cond_j.jaxpr), cond_j.consts,
                              *(list(xs[:ncc]) + list(xs[ncc + n_state:])))

        body_closed = trace_flat(body, cc_avals + bc_avals + state_avals + carry_avals, "checkify of while body")
        cond_closed = trace_flat(cond, cc_avals + state_avals + carry_avals, "checkify of while cond")
        outs = while_p.bind(*cond_closed.consts, *cc, *body_closed.consts, *cc, *bc, *state.flat(), *carry,
                            cond_jaxpr=_hoist(cond_closed), body_jaxpr=_hoist(body_closed),
                            cond_nconsts=len(cond_closed.consts) + ncc,
                            body_nconsts=len(body_closed.consts) + ncc + nbc)
        new = _State.from_flat(outs[:n_state], sites)
        state.code, state.payloads = new.code, new.payloads
        return outs[n_state:]

    def _scan(self, eqn, ins, state: _State) -> list:
        from padax.functional.lax.control import _hoist, scan_p
        p = eqn.params
        nc, nk = p["num_consts"], p["num_carry"]
        n_state = len(state.flat())
        in_avals = [v.aval for v in p["jaxpr"].jaxpr.invars]
        body = self._checked_body(p["jaxpr"], nc, in_avals, "checkify of scan body")
        outs = scan_p.bind(*body.consts, *ins[:nc], *state.flat(), *ins[nc:], jaxpr=_hoist(body),
                           num_consts=len(body.consts) + nc, num_carry=n_state + nk, length=p["length"],
                           reverse=p["reverse"], unroll=p["unroll"])
        new = _State.from_flat(outs[:n_state], self.sites)
        state.code, state.payloads = new.code, new.payloads
        return outs[n_state:]


def _starts(eqn, ins, shape: np.ndarray):
    """(operand axes the start indices address, window size along every operand axis, the start
    indices with one index vector per row, or None when there are none) of an indexing equation."""
    import padax.numpy as pnp
    name, p = eqn.primitive.name, eqn.params
    if name in ("dynamic_slice", "dynamic_update_slice"):
        first = 1 if name == "dynamic_slice" else 2
        sizes = (np.array(p["slice_sizes"], np.int64) if name == "dynamic_slice"
                 else np.array(eqn.invars[1].aval.shape, np.int64))
        axes = np.arange(len(shape), dtype=np.int64)
        starts = pnp.stack([pnp.asarray(i).astype(np.int64) for i in ins[first:]]) if len(shape) else None
        return axes, sizes, starts
    starts = pnp.asarray(ins[1]).astype(np.int64)
    if name == "gather":
        return (np.array(p["dimension_numbers"].start_index_map, np.int64),
                np.array(p["slice_sizes"], np.int64), starts)
    dn = p["dimension_numbers"]  # a scatter: the window is the updates' window dims, 1 elsewhere
    sizes, window = [], iter(dn.update_window_dims)
    for d in range(len(shape)):
        unit = d in dn.inserted_window_dims or d in dn.operand_batching_dims
        sizes.append(1 if unit else eqn.invars[2].aval.shape[next(window)])
    return np.array(dn.scatter_dims_to_operand_dims, np.int64), np.array(sizes, np.int64), starts


def _initial_state_avals(sites: Sequence[_Site]) -> list[ShapedArray]:
    return [ShapedArray((), np.dtype(np.int32))] + [a for s in sites for a in s.payload_avals]


def _without_checks(jaxpr: Jaxpr) -> Jaxpr:
    """`jaxpr` without its check equations, also inside the programs its equations hold (what
    runs where the checks were already evaluated: a while loop's cond_fun, a custom-derivative
    function's primal)."""
    eqns, changed = [], False
    for e in jaxpr.eqns:
        if e.primitive is check_p:
            changed = True
            continue
        params = {k: _strip_checks(v) for k, v in e.params.items()}
        if any(params[k] is not v for k, v in e.params.items()):
            e, changed = e.replace(params=params), True
        eqns.append(e)
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, eqns) if changed else jaxpr


def _strip_checks(value: Any) -> Any:
    """A param value with the checks taken out of the programs in it (the same object if none)."""
    if isinstance(value, ClosedJaxpr):
        j = _without_checks(value.jaxpr)
        return value if j is value.jaxpr else ClosedJaxpr(j, value.consts)
    if isinstance(value, Jaxpr):
        return _without_checks(value)
    if isinstance(value, tuple) and value and isinstance(value[0], (Jaxpr, ClosedJaxpr)):
        new = tuple(_strip_checks(v) for v in value)
        return value if all(a is b for a, b in zip(new, value)) else new
    return value


def _custom_params_without_checks(eqn) -> dict:
    """A custom_jvp/custom_vjp call's params with no checks left in its primal program or its
    rules: the checked copy of the primal found the errors, and checks in derivative rules are
    not made into errors (as in jax; check the derivative with checkify(grad(f)) instead)."""
    from padax.transforms.custom import _Hashable
    p = dict(eqn.params, call_jaxpr=_strip_checks(eqn.params["call_jaxpr"]))
    if eqn.primitive.name == "custom_jvp_call":
        p["jvp_fn"] = _Hashable(_jvp_without_checks(p["jvp_fn"].fn))
    else:
        p["fwd"] = _Hashable(_fwd_without_checks(p["fwd"].fn))
        p["bwd"] = _Hashable(_bwd_without_checks(p["bwd"].fn))
    return p


def _run_without_checks(flat: Callable, args: Sequence[Any], what: str) -> list:
    """`flat(*args)` (a list of arrays) computed from its traced program with the checks removed."""
    from padax.core.jaxpr import eval_jaxpr
    from padax.transforms.staging import aval_of, trace_flat
    closed = trace_flat(flat, [aval_of(a) for a in args], what)
    return list(eval_jaxpr(_without_checks(closed.jaxpr), closed.consts, *args))


def _jvp_without_checks(rule: Callable) -> Callable:
    from padax.core.ad_util import instantiate

    def jvp(primals, tangents):
        n, n_out = len(primals), []

        def flat(*xs):
            outs, t_outs = rule(list(xs[:n]), list(xs[n:]))
            n_out.append(len(outs))
            return list(outs) + [instantiate(t) for t in t_outs]
        res = _run_without_checks(flat, list(primals) + [instantiate(t) for t in tangents], "checkify of a jvp rule")
        return res[:n_out[0]], res[n_out[0]:]
    return jvp


def _fwd_without_checks(fwd: Callable) -> Callable:
    def run(primals):
        meta = []

        def flat(*xs):
            outs, res = fwd(list(xs))
            res_leaves, res_tree = tree_util.flatten(res)
            meta.append((len(outs), res_tree))
            return list(outs) + res_leaves
        vals = _run_without_checks(flat, list(primals), "checkify of a custom_vjp fwd")
        n, res_tree = meta[0]
        return vals[:n], res_tree.unflatten(vals[n:])
    return run


def _bwd_without_checks(bwd: Callable) -> Callable:
    from padax.core.ad_util import Zero

    def run(res, cts):
        res_leaves, res_tree = tree_util.flatten(res)
        k, zeros = len(res_leaves), []

        def flat(*xs):
            out = list(bwd(res_tree.unflatten(list(xs[:k])), list(xs[k:])))
            zeros.append([o if type(o) is Zero else None for o in out])
            return [o for o in out if type(o) is not Zero]
        vals = iter(_run_without_checks(flat, res_leaves + list(cts), "checkify of a custom_vjp bwd"))
        return [z if z is not None else next(vals) for z in zeros[0]]
    return run


# -- the transformation -----------------------------------------------------------------------------------

def checkify(fun: Callable, errors: frozenset = user_checks) -> Callable:
    """`checkify(f)(*args) -> (Error, f(*args))` with the checks in `errors` made into a value."""
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
            _collect(closed.jaxpr, errors, sites, ids)
            checker = _Checker(sites, ids)
            n_in = len(leaves)

            def program(*xs):
                state = _initial_state(sites)
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
    st = _State.from_flat(flat_state, sites)
    return Error(st.code, st.payloads, sites)
