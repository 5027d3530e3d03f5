"""Running a recorded Program: replay its equations at the fed sizes, and the gradient equation.

A size given as None is recorded at a placeholder (`program.PLACEHOLDERS`, primes such as 1009). When a
feed's size differs, each equation is bound again with its shape-carrying params rewritten: every int
param that is a multiple of a placeholder (broadcast_in_dim's shape, reshape's new_sizes, iota's shape,
scan's length, slice limits ...) and every literal that is (mean's divisor `1009.0`, its reciprocal,
an index wrap `+ 1009`) becomes the same multiple of the fed size; sub-programs (custom_jvp, jit,
control flow) are traced again at the new sizes. Each result's shape is checked against the recorded
one with the same rewrite; where they differ (a size derived otherwise, e.g. `n - 1`), a
StaticGraphError names the op and asks for the concrete size.

`gradients_p` is the equation `static.gradients` records: its outputs are the gradients of some targets
with respect to some inputs. It is never lowered: the replay differentiates the slice of the program
from the inputs to the targets with `padax.vjp`, at the fed sizes.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

import padax
from padax.extend.core import ClosedJaxpr, Literal, Primitive, Var
from padax.interpreters.staging import trace_flat
from padax.static.program import StaticGraphError

gradients_p = Primitive("static_gradients", multiple_results=True)


class GradSpec:
    """The layout of a `static_gradients` equation's operands: inputs, targets, target gradients."""

    __slots__ = ("n_in", "n_t", "n_tg")

    def __init__(self, n_in: int, n_t: int, n_tg: int):
        self.n_in, self.n_t, self.n_tg = n_in, n_t, n_tg

    def __repr__(self) -> str:
        return f"GradSpec(inputs={self.n_in}, targets={self.n_t})"


gradients_p.def_abstract_eval(lambda *avals, spec: [a.strip_weak_type() for a in avals[:spec.n_in]])


_NEAR = 8


class _Derived(Exception):
    """A size or literal that depends on a None dimension in a way the replay cannot rewrite."""

    def __init__(self, value: Any):
        super().__init__(value)
        self.value = value


class Sizes:
    """The fed size of each placeholder that differs from it, and the rewrite of sizes and literals."""

    def __init__(self, mapping: dict[int, int]):
        self.m = {p: n for p, n in mapping.items() if p != n}

    def __bool__(self) -> bool:
        return bool(self.m)

    def dim(self, d: int) -> int:
        if not self.m or d == 0:
            return d
        rest, factor, found = abs(int(d)), 1, False
        for p, n in self.m.items():
            while rest % p == 0:
                rest //= p
                factor *= n
                found = True
        if not found:
            for p in self.m:  # a size near a placeholder's multiple (n - 1, n + 2, ...) is derived from it otherwise
                r = rest % p
                if rest >= p - _NEAR and min(r, p - r) <= _NEAR:
                    raise _Derived(d)
            return d
        return (rest * factor) * (1 if d > 0 else -1)

    def shape(self, shape: Sequence[int]) -> tuple[int, ...]:
        return tuple(self.dim(d) for d in shape)

    def literal(self, val: Any) -> Any:
        if not self.m or isinstance(val, (bool, np.bool_)):
            return val
        arr = np.asarray(val)
        if arr.shape != () or arr.dtype.kind not in "iuf":
            return val
        x = arr.item()
        if arr.dtype.kind in "iu":
            new = self.dim(int(x))
        elif x == 0 or not math.isfinite(x):
            return val
        elif float(x).is_integer() and abs(x) < 2 ** 53:
            new = float(self.dim(int(x)))
        else:
            r = 1.0 / x
            k = round(r)
            if k == 0 or abs(r - k) > 1e-6 * abs(r) or self.dim(k) == k:
                return val
            new = 1.0 / self.dim(k)
        if new == x:
            return val
        return np.asarray(new, arr.dtype)[()] if isinstance(val, (np.ndarray, np.generic)) else type(x)(new)

    def array(self, c: Any) -> Any:
        """A small integer constant (a shape read as a Tensor: `padax.shape(x)`) with its sizes rewritten."""
        if not self.m:
            return c
        arr = np.asarray(c)
        if arr.dtype.kind not in "iu" or arr.size > 64:
            return c
        try:
            new = np.array([self.dim(int(v)) for v in arr.reshape(-1)], arr.dtype).reshape(arr.shape)
        except _Derived as e:
            raise StaticGraphError(f"padax.static: a constant {arr.tolist()} holds the value {e.value}, derived from a "
                                   f"None dimension (recorded as {', '.join(map(str, self.m))}) in a way padax cannot "
                                   "rewrite; give the concrete size in static.data(shape=...)") from None
        return c if np.array_equal(new, arr) else padax.to_tensor(new)

    def params(self, params: dict) -> dict:
        return {k: self._param(v) for k, v in params.items()} if self.m else params

    def _param(self, v: Any) -> Any:
        if isinstance(v, (bool, np.bool_)):
            return v
        if isinstance(v, (int, np.integer)):
            return type(v)(self.dim(int(v)))
        if isinstance(v, tuple):
            items = [self._param(x) for x in v]
            return type(v)(*items) if hasattr(v, "_fields") else tuple(items)
        if isinstance(v, list):
            return [self._param(x) for x in v]
        if isinstance(v, ClosedJaxpr):
            return retrace(v, self)
        return v


def _where(eqn: Any) -> str:
    info = eqn.source_info
    return f" (recorded at {info.filename}:{info.lineno})" if info is not None else ""


def retrace(closed: ClosedJaxpr, sizes: Sizes) -> ClosedJaxpr:
    """`closed` traced again with its sizes rewritten (a sub-program of custom_jvp, jit, cond, ...)."""
    avals = [a.update(shape=sizes.shape(a.shape)) for a in closed.in_avals]

    def fun(*xs):
        env = dict(zip(closed.jaxpr.invars, xs))
        for v, c in zip(closed.jaxpr.constvars, closed.consts):
            env[v] = const_value(c, sizes, "a constant of a sub-program")
        run_eqns(closed.jaxpr.eqns, env, sizes)
        return [_read(env, v, sizes) for v in closed.jaxpr.outvars]

    return trace_flat(fun, avals, "padax.static replay")


def const_value(c: Any, sizes: Sizes, what: str) -> Any:
    """A constant of the program at the fed sizes: a small integer one rewritten, one shaped by a None size refused."""
    shape = tuple(getattr(c, "shape", ()))
    if sizes and sizes.shape(shape) != shape:
        raise StaticGraphError(f"padax.static: {what} of shape {list(shape)} was made at the placeholder size of "
                               f"a None dimension ({', '.join(map(str, sizes.m))}) and cannot be resized; give the "
                               "concrete size in static.data(shape=...) or build it from the data (e.g. zeros_like)")
    return sizes.array(c)


def _read(env: dict, v: Any, sizes: Sizes, alias: dict | None = None) -> Any:
    if isinstance(v, Literal):
        return sizes.literal(v.val)
    if alias:
        v = alias.get(v, v)
    return env[v]


def apply_eqn(eqns: Sequence[Any], k: int, env: dict, sizes: Sizes, alias: dict | None = None) -> list:
    """Bind equation `k` on the values in `env` at the fed sizes; returns its outputs."""
    eqn = eqns[k]
    try:
        ins = [_read(env, v, sizes, alias) for v in eqn.invars]
        params = sizes.params(eqn.params) if eqn.primitive is not gradients_p else eqn.params
    except _Derived as e:
        raise StaticGraphError(
            f"padax.static: op `{eqn.primitive.name}`{_where(eqn)} holds the value {e.value}, derived from a None "
            f"dimension (recorded as {', '.join(map(str, sizes.m))}) in a way padax cannot rewrite for the fed "
            f"size {', '.join(map(str, sizes.m.values()))} (e.g. n - 1); give the concrete size in "
            "static.data(shape=...)") from None
    if eqn.primitive is gradients_p:
        return _gradients(eqns, k, ins, env, sizes, alias)
    try:
        out = eqn.primitive.bind(*ins, **params)
    except (TypeError, ValueError) as e:
        if not sizes:
            raise
        raise StaticGraphError(f"padax.static: op `{eqn.primitive.name}`{_where(eqn)} cannot run at the fed sizes "
                               f"(a None dimension recorded as {', '.join(map(str, sizes.m))} is fed as "
                               f"{', '.join(map(str, sizes.m.values()))}): {e}. Give the concrete size in "
                               "static.data(shape=...)") from e
    outs = list(out) if eqn.primitive.multiple_results else [out]
    if sizes:
        for ov, o in zip(eqn.outvars, outs):
            want = sizes.shape(ov.aval.shape)
            got = tuple(o.aval.shape) if hasattr(o, "aval") else tuple(np.shape(o))
            if got != want:
                raise StaticGraphError(
                    f"padax.static: op `{eqn.primitive.name}`{_where(eqn)} cannot be replayed at the fed sizes: it "
                    f"was recorded with result shape {list(ov.aval.shape)} (None dimensions at the placeholder "
                    f"sizes {', '.join(map(str, sizes.m))}) and now gives {list(got)} instead of {list(want)}; a "
                    "size there is derived from a None dimension in a way padax cannot rewrite. Give the concrete "
                    "size in static.data(shape=...)")
    return outs


def run_eqns(eqns: Sequence[Any], env: dict, sizes: Sizes, keep: set[int] | None = None,
             alias: dict | None = None) -> None:
    """Replay `eqns` (those in `keep`, all when None) on `env`, adding their results to it."""
    for k, eqn in enumerate(eqns):
        if keep is not None and k not in keep:
            continue
        for v, x in zip(eqn.outvars, apply_eqn(eqns, k, env, sizes, alias)):
            env[v] = x


def live(eqns: Sequence[Any], outs: Sequence[Var], alias: dict | None = None) -> tuple[set[int], set[Var]]:
    """The equations the values `outs` need, and every variable they read."""
    alias = alias or {}
    need = {alias.get(v, v) for v in outs if isinstance(v, Var)}
    keep: set[int] = set()
    while True:
        for k in range(len(eqns) - 1, -1, -1):
            e = eqns[k]
            if k not in keep and any(o in need for o in e.outvars):
                keep.add(k)
                need.update(alias.get(v, v) for v in e.invars if isinstance(v, Var))
        # every use of a mutable ref that is read is kept: its writes (the global random key dropout advances)
        writes = [k for k, e in enumerate(eqns) if k not in keep
                  and any(isinstance(v, Var) and _is_ref(v) and v in need for v in e.invars)]
        if not writes:
            return keep, need
        for k in writes:
            keep.add(k)
            need.update(alias.get(v, v) for v in eqns[k].invars if isinstance(v, Var))


def _is_ref(v: Var) -> bool:
    return type(v.aval).__name__ == "AbstractRef"


def _gradients(eqns: Sequence[Any], k: int, ins: list, env: dict, sizes: Sizes, alias: dict | None) -> list:
    eqn = eqns[k]
    spec = eqn.params["spec"]
    alias = alias or {}
    inputs = list(eqn.invars[:spec.n_in])
    targets = [alias.get(v, v) for v in eqn.invars[spec.n_in:spec.n_in + spec.n_t]]
    primals = ins[:spec.n_in]
    tgrads = ins[spec.n_in + spec.n_t:]
    in_set = set(inputs)
    # the equations between the inputs and the targets: forward from the inputs, then back from the targets
    dep, fwd = set(in_set), []
    for j in range(k):
        e = eqns[j]
        if any(isinstance(v, Var) and alias.get(v, v) in dep for v in e.invars):
            fwd.append(j)
            dep.update(e.outvars)
    need, path = set(targets), []
    for j in reversed(fwd):
        e = eqns[j]
        if any(o in need for o in e.outvars):
            path.append(j)
            need.update(alias.get(v, v) for v in e.invars if isinstance(v, Var))
    path.reverse()
    reached = [t in dep for t in targets]

    def f(*xs):
        local = dict(env)
        override = dict(zip(inputs, xs))
        local.update(override)
        for j in path:
            for o, val in zip(eqns[j].outvars, apply_eqn(eqns, j, local, sizes, alias)):
                # an input computed from another input: its own value, plus the path through it
                local[o] = val + (override[o] - env[o]) if o in override else val
        return [local[t] for t, r in zip(targets, reached) if r]

    if not any(reached):
        return [padax.zeros_like(p) for p in primals]
    outs, f_vjp = padax.vjp(f, *primals)
    if tgrads:
        cts = [g for g, r in zip(tgrads, reached) if r]
    else:
        cts = [padax.ones_like(o) for o in outs]
    return list(f_vjp(cts))


__all__ = ["GradSpec", "Sizes", "apply_eqn", "const_value", "gradients_p", "live", "retrace", "run_eqns"]
