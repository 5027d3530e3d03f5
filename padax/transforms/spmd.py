"""SPMD dispatch: running a program over several devices with XLA's partitioner.

`SpmdDispatch` compiles one variant of a closed jaxpr per layout of its
arguments (explicit `in_shardings`/`out_shardings` of jit, shard_map or
sharding constraints inside, or arguments that already are sharded) and
moves arguments that lie elsewhere; `needs_spmd` tells whether a jaxpr must
take this path.
"""
from __future__ import annotations

from typing import Any, Sequence

from padax.config import config
from padax.core.abstract import aval_of_host_value
from padax.core.jaxpr import ClosedJaxpr, Jaxpr
from padax.lowering.compile import compile_lowered
from padax.runtime import _jaxlib, tree as tree_util
from padax.runtime.array import Tensor, capture_constants
from padax.runtime.backend import default_device, single_device_sharding
from padax.runtime.executable import Executable
from padax.runtime.put import device_put
from padax.runtime.sharding import (
    GSPMDSharding,
    Mesh,
    NamedSharding,
    Sharding,
    SingleDeviceSharding,
    name_on_mesh,
    reshard_buffer,
    sharding_of_buffer,
)


def on_default_device(buf) -> bool:
    devs = buf._sharding._internal_device_list
    return len(devs) == 1 and devs[0] == default_device()


def buffer_sharding(buf):
    return sharding_of_buffer(buf)


def is_sharding(x: Any) -> bool:
    return isinstance(x, Sharding)


def hashable_shardings(spec: Any) -> Any:
    leaves, tree = tree_util.flatten(spec, is_leaf=lambda x: x is None or is_sharding(x))
    key = (tree, tuple(leaves))
    hash(key)
    return key


def expand_prefix(spec: Any, tree: Any, what: str, name: str) -> list:
    """One sharding (or None) per leaf of `tree`, from a pytree prefix `spec`."""
    leaves, treedef = tree_util.flatten(tree)
    if spec is None or is_sharding(spec):
        return [spec] * len(leaves)
    spec_leaves, spec_tree = tree_util.flatten(spec, is_leaf=lambda x: x is None or is_sharding(x))
    try:
        subtrees = spec_tree.flatten_up_to(tree)
    except (ValueError, TypeError) as e:
        raise ValueError(f"jit({name}): {what} {spec!r} does not match the structure {treedef}: {e}") from None
    out = []
    for s, sub in zip(spec_leaves, subtrees):
        if s is not None and not is_sharding(s):
            raise TypeError(f"jit({name}): {what} entries must be padax shardings or None, got {s!r}")
        out += [s] * len(tree_util.leaves(sub))
    return out


def _walk_eqns(jaxpr: Jaxpr):
    for eqn in jaxpr.eqns:
        yield eqn
        for v in eqn.params.values():
            for sub in (v if isinstance(v, (tuple, list)) else (v,)):
                if isinstance(sub, ClosedJaxpr):
                    yield from _walk_eqns(sub.jaxpr)
                elif isinstance(sub, Jaxpr):
                    yield from _walk_eqns(sub)


def mesh_of_jaxpr(jaxpr: Jaxpr):
    """The first device mesh an equation of the jaxpr is bound to (shard_map, sharding constraints)."""
    for eqn in _walk_eqns(jaxpr):
        m = eqn.params.get("mesh")
        if isinstance(m, Mesh):
            return m
        sh = eqn.params.get("sharding")
        if isinstance(sh, NamedSharding):
            return sh.mesh
    return None


def needs_spmd(closed: ClosedJaxpr) -> bool:
    """Whether a jaxpr must be compiled for several devices (or for devices other than the default)."""
    if mesh_of_jaxpr(closed.jaxpr) is not None:
        return True
    return any(isinstance(c, Tensor) and not on_default_device(c._buf) for c in closed.consts)


class _SpmdPlan:
    """One compiled SPMD variant: the program, where each input must be, the consts already placed."""

    __slots__ = ("exe", "order", "in_targets", "in_jaxlib", "const_bufs", "lowered", "out_shardings")

    def __call__(self, bufs: list, avals: list) -> list:
        placed = []
        for b, a, want, target in zip(bufs, avals, self.in_jaxlib, self.in_targets):
            if b._sharding is not want:
                b = reshard_buffer(b, a, target, config.enable_x64, self.order)
            placed.append(b)
        return self.exe(self.const_bufs + placed if self.const_bufs else placed)


class SpmdDispatch:
    """Runs a closed jaxpr with XLA's SPMD partitioner, one compiled variant per input layout.

    `in_shardings` / `out_shardings`: one padax sharding or None per (flat)
    input / output; None means "as the argument is" for inputs and "as XLA
    chooses" for outputs. The program's devices, in partition order, come from
    the first mesh found (explicit shardings, then shard_map / sharding
    constraints inside, then the arguments). Single-device arguments join a
    multi-device program as replicated values.
    """

    def __init__(self, closed: ClosedJaxpr, name: str, donated: Sequence[bool] = (),
                 in_shardings: Sequence | None = None, out_shardings: Sequence | None = None):
        self.closed = closed
        self.name = name
        self.donated = tuple(donated)
        n_in = len(closed.jaxpr.invars)
        self.in_shardings = list(in_shardings) if in_shardings is not None else [None] * n_in
        self.out_shardings = list(out_shardings) if out_shardings is not None else [None] * len(closed.out_avals)
        self.in_avals = [v.aval for v in closed.jaxpr.invars]
        self._fast: dict = {}       # the buffers' jaxlib sharding objects -> plan
        self._plans: dict = {}      # argument shardings -> plan
        self._by_layout: dict = {}  # wanted input layouts -> plan

    def __call__(self, bufs: list) -> list[Tensor]:
        key = tuple([b._sharding for b in bufs])  # jaxlib objects: hashing them is cheap
        hit = self._fast.get(key)
        if hit is None:
            plan = self.plan(tuple([sharding_of_buffer(b) for b in bufs]))
            if len(self._fast) > 64:  # e.g. buffers jaxlib made itself, each with its own sharding object
                self._fast.clear()
            placed = all(k is w for k, w in zip(key, plan.in_jaxlib))
            hit = self._fast[key] = (plan, placed)  # (the key keeps its sharding objects alive: no id reuse)
        plan, placed = hit
        if placed:  # every argument already lies where the program wants it
            return plan.exe(plan.const_bufs + bufs if plan.const_bufs else bufs)
        return plan(bufs, self.in_avals)

    def plan(self, sig: tuple) -> _SpmdPlan:
        """Lower and compile the variant for argument shardings `sig` (None: a host value)."""
        plan = self._plans.get(sig)
        if plan is not None:
            return plan
        wanted_in = [w if w is not None else a for w, a in zip(self.in_shardings, sig)]
        plan = self._by_layout.get(tuple(wanted_in))
        if plan is None:
            plan = self._by_layout[tuple(wanted_in)] = self._build(wanted_in)
        self._plans[sig] = plan
        return plan

    def _build(self, wanted_in: list) -> _SpmdPlan:
        closed = self.closed
        const_sh = [buffer_sharding(c._buf) if isinstance(c, Tensor) else None for c in closed.consts]
        mesh, order = self._choose_devices(wanted_in, const_sh)
        multi = len(order) > 1
        replicated = GSPMDSharding(order, _jaxlib.hlo_sharding_replicated()) if multi else \
            SingleDeviceSharding(order[0])

        def fit(s, aval, what):
            if s is None:
                return replicated
            if isinstance(s, SingleDeviceSharding) and (multi or s.device != order[0]):
                return replicated
            if s.device_set != frozenset(order):
                raise ValueError(
                    f"jit({self.name}): {what} is laid out on devices {sorted(d.id for d in s.device_set)} but the "
                    f"program runs on devices {sorted(d.id for d in order)}; device_put it onto the same mesh")
            s.check_shape(aval.shape, what)
            return s

        in_targets = [fit(s, a, f"argument {i} ({a.str_short()})")
                      for i, (s, a) in enumerate(zip(wanted_in, self.in_avals))]
        const_targets = [fit(s, c.aval if isinstance(c, Tensor) else _host_aval(c), f"captured constant {i}")
                         for i, (s, c) in enumerate(zip(const_sh, closed.consts))]
        out_targets = []
        for i, (s, a) in enumerate(zip(self.out_shardings, closed.out_avals)):
            out_targets.append(None if s is None else fit(s, a, f"output {i} ({a.str_short()})"))

        from padax.lowering.mlir import lower_jaxpr  # (jaxlib's MLIR bindings load on the first lowering)
        arg_sh = const_targets + in_targets  # lower_jaxpr writes padax shardings in Shardy's form
        res_sh = out_targets
        donated = (False,) * len(closed.consts) + self.donated if self.donated else ()
        if multi:
            lowered = lower_jaxpr(closed.jaxpr, name=self.name, donated=donated, device_assignment=order,
                                  arg_shardings=arg_sh, result_shardings=res_sh, mesh=mesh)
        else:
            lowered = lower_jaxpr(closed.jaxpr, name=self.name, donated=donated)
        loaded = compile_lowered(lowered, list(order))
        if multi:
            hlos = _jaxlib.output_hlo_shardings(loaded)
            outs = []
            for i, (t, a) in enumerate(zip(out_targets, closed.out_avals)):
                if t is None:
                    h = hlos[i] if hlos is not None else _jaxlib.hlo_sharding_replicated()
                    t = (name_on_mesh(h, a.ndim, mesh, order) if mesh is not None else None) or \
                        GSPMDSharding(order, h)
                outs.append(t)
            out_jaxlib = [t.to_jaxlib(a.ndim, order) for t, a in zip(outs, closed.out_avals)]
        else:
            outs = [SingleDeviceSharding(order[0])] * len(closed.out_avals)
            out_jaxlib = [single_device_sharding(order[0])] * len(closed.out_avals)
        plan = _SpmdPlan()
        plan.exe = Executable(loaded, closed.out_avals, order[0], out_jaxlib, lowered.host_callbacks)
        plan.order = order
        plan.in_targets = in_targets
        plan.in_jaxlib = [t.to_jaxlib(a.ndim, order) for t, a in zip(in_targets, self.in_avals)]
        plan.lowered = lowered
        plan.out_shardings = outs
        plan.const_bufs = []
        capture_constants(closed.consts)
        for c, t in zip(closed.consts, const_targets):
            t_in = c if isinstance(c, Tensor) else device_put(c)
            plan.const_bufs.append(reshard_buffer(t_in._buf, t_in.aval, t, config.enable_x64, order))
        return plan

    def _choose_devices(self, wanted_in: list, const_sh: list):
        cands = [s for s in self.in_shardings + self.out_shardings if s is not None]
        mesh = next((s.mesh for s in cands if isinstance(s, NamedSharding)), None)
        if mesh is None:
            mesh = mesh_of_jaxpr(self.closed.jaxpr)
        if mesh is None:
            mesh = next((s.mesh for s in wanted_in + const_sh
                         if isinstance(s, NamedSharding) and s.num_devices > 1), None)
        if mesh is not None:
            return mesh, mesh.device_list
        multi = [s for s in cands + wanted_in + const_sh if s is not None and s.num_devices > 1]
        if multi:
            return None, multi[0].device_list
        single = [s for s in cands + wanted_in + const_sh if s is not None]
        return None, (single[0].device_list if single else (default_device(),))


def _host_aval(c: Any):
    return aval_of_host_value(c)
