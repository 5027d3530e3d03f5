"""`shard_map`: write the per-device program; padax runs it on every device of a mesh.

    mesh = padax.make_mesh((8,), ("i",))
    f = shard_map(lambda blk: padax.lax.psum(blk.sum(), "i"), mesh, in_specs=P("i"), out_specs=P())

    padax.set_mesh(mesh)            # or a context mesh, and shard_map as a decorator
    @shard_map(in_specs=P("i"), out_specs=P())
    def g(blk): ...

Inside `f` every argument is the device's block of the global array (the
global shape divided along the mesh axes its in_spec names) and collectives
(`psum`, `all_gather`, `ppermute`, `psum_scatter`, `all_to_all`,
`axis_index`, ...) talk across mesh axes by name. The blocks `f` returns are
put together as out_specs say; a mesh axis an out_spec does not name claims
the output is the same on every device along it, which `check_rep=True`
verifies (conservatively) at trace time.

With `auto={...}` some mesh axes stay automatic: the blocks are split only
over the other (manual) axes and XLA partitions the rest.

It is the `shard_map` primitive: its body is a jaxpr over blocks. Lowered, it
is a Shardy `sdy.manual_computation` over the manual axes, so XLA's SPMD
partitioner leaves the body alone along them and every device runs it on its
own block. jvp, partial evaluation (for linearize/grad), transposition and
vmap transform the body and re-bind the primitive.
"""
from __future__ import annotations

import itertools
import math
from typing import Any, Callable, Sequence

from padax.config import config
from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, instantiate, is_undefined, tangent_aval, zeros_like_aval
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, eval_jaxpr
from padax.core.ref import AbstractRef, RefError
from padax.core.source_info import user_location
from padax.core.trace import Tracer, current_trace, new_trace, set_current_trace
from padax.functional._arrays import full
from padax.functional.lax import parallel as par, resharding as pex
from padax.functional.lax.call import jit_p, remat_p
from padax.functional.lax.elementwise import div
from padax.functional.lax.parallel import psum_p
from padax.functional.lax.resharding import spmd_axes
from padax.functional.lax.shard_map import block_aval, shard_map_abstract, shard_map_p
from padax.functional.lax.structural import batch_size, reshape
from padax.interpreters.ad import jvp_flat
from padax.interpreters.discharge import discharge_closed, is_ref, jaxpr_has_refs
from padax.runtime import backend as _backend, tree as tree_util
from padax.runtime.array import Tensor
from padax.runtime.put import device_put
from padax.runtime.sharding import Mesh, NamedSharding, PartitionSpec, get_mesh
from padax.transforms.ad import backward_pass, partial_eval_jaxpr
from padax.transforms.batching import vmap
from padax.transforms.spmd import SpmdDispatch
from padax.transforms.staging import JaxprTrace


class ShardMapError(ValueError):
    """A shard_map's specs do not fit its mesh, its arguments or what its function returns."""


# ---- block shapes -------------------------------------------------------------------------

def _check_spec(mesh: Mesh, spec: Any, what: str, auto: frozenset = frozenset()) -> PartitionSpec:
    if spec is None:
        spec = PartitionSpec()
    if not isinstance(spec, PartitionSpec):
        if isinstance(spec, tuple):
            spec = PartitionSpec(*spec)
        else:
            raise ShardMapError(f"shard_map: {what} must be a PartitionSpec, got {spec!r}")
    used = spec.used_axes()
    for a in used:
        if a not in mesh.axis_names:
            raise ShardMapError(f"shard_map: {what} = {spec} names mesh axis {a!r}, but the mesh has axes "
                                f"{mesh.axis_names}{user_location()}")
    if len(set(used)) != len(used):
        raise ShardMapError(f"shard_map: {what} = {spec} uses a mesh axis more than once")
    for a in used:
        if a in auto:
            raise ShardMapError(f"shard_map: {what} = {spec} names mesh axis {a!r}, which is in `auto`: specs "
                                f"name manual axes only (XLA lays the values out along auto axes){user_location()}")
    return spec


def _check_arg(mesh: Mesh, spec: PartitionSpec, aval: ShapedArray, what: str) -> None:
    if len(spec) > aval.ndim:
        raise ShardMapError(f"shard_map: {what} has shape {aval.shape} ({aval.ndim} dimensions) but its in_spec "
                            f"{spec} has {len(spec)} entries{user_location()}")
    sizes = mesh.shape
    for d, n in enumerate(aval.shape):
        axes = spec.axes_of(d)
        k = math.prod(sizes[a] for a in axes)
        if k > 1 and n % k:
            names = " x ".join(f"{a!r} (size {sizes[a]})" for a in axes)
            raise ShardMapError(f"shard_map: dimension {d} of {what} (shape {aval.shape}) has size {n}, which is "
                                f"not divisible by mesh axis {names} named by its in_spec {spec}{user_location()}")


# ---- the body's trace: collectives find the mesh axes' sizes through it -------------------------

class _AxisFrame:
    """What parallel._static_axis_size looks for: an `axis_name`, its `axis_size`, a `parent`."""

    __slots__ = ("axis_name", "axis_size", "parent")

    def __init__(self, name, size, parent):
        self.axis_name = name
        self.axis_size = size
        self.parent = parent


def _axis_frames(mesh: Mesh, auto: frozenset = frozenset(), parent=None):
    """Frames for every manual mesh axis and every ordered tuple of distinct ones (then `parent`)."""
    sizes = mesh.shape
    names = tuple(a for a in mesh.axis_names if a not in auto)
    for r in range(len(names), 0, -1):
        for combo in itertools.permutations(names, r):
            parent = _AxisFrame(combo, math.prod(sizes[a] for a in combo), parent)
            if r == 1:
                parent = _AxisFrame(combo[0], sizes[combo[0]], parent)
    return parent


class ShardMapBodyTrace(JaxprTrace):
    """Stages a shard_map body; its `parent` chain names the manual mesh axes (for all_gather & co).

    Inside another shard_map's body the chain goes on with the enclosing body's axes.
    """

    __slots__ = ("parent", "mesh")

    def __init__(self, mesh: Mesh, description: str = "shard_map tracing", auto: frozenset = frozenset()):
        super().__init__(description)
        self.mesh = mesh
        self.parent = _axis_frames(mesh, auto, _enclosing_frames(mesh))


def _enclosing_frames(mesh: Mesh):
    """The axis frames of the innermost enclosing shard_map body over the same mesh (or None)."""
    t = current_trace()
    while t is not None and not isinstance(t, _AxisFrame):
        if isinstance(t, ShardMapBodyTrace):
            return t.parent if t.mesh == mesh else None
        t = getattr(t, "parent", None)
    return None


def _trace_body(fun: Callable, mesh: Mesh, block_avals: Sequence[ShapedArray],
                description: str = "shard_map tracing", auto: frozenset = frozenset()) -> ClosedJaxpr:
    trace = ShardMapBodyTrace(mesh, description, auto)
    with new_trace(trace):
        args = [trace.new_arg(a) for a in block_avals]
        outs = fun(*args)
        return trace.to_jaxpr(outs)


def _hoisted(closed: ClosedJaxpr) -> tuple[ClosedJaxpr, list]:
    """Consts of a body become leading (replicated) inputs."""
    j = closed.jaxpr
    return ClosedJaxpr(Jaxpr([], j.constvars + j.invars, j.outvars, j.eqns), []), list(closed.consts)


def _bind(mesh: Mesh, closed: ClosedJaxpr, args: Sequence, in_specs: Sequence, out_specs: Sequence,
          check_rep: bool, auto: frozenset = frozenset()) -> list:
    if jaxpr_has_refs(closed):
        if any(is_ref(c) for c in closed.consts) or any(type(a) is AbstractRef for a in closed.in_avals):
            raise RefError("shard_map: the body uses a Ref from outside it; a body may make and use refs of its "
                           "own, but state from outside goes in as an argument (ref[...]) and comes back as a "
                           f"result{user_location()}")
        closed = discharge_closed(closed)  # refs made inside the body: the pure body, same signature
    body, consts = _hoisted(closed)
    specs = (PartitionSpec(),) * len(consts) + tuple(in_specs)
    return shard_map_p.bind(*consts, *args, body=body, mesh=mesh, in_specs=specs,
                            out_specs=tuple(out_specs), check_rep=check_rep, auto=auto)


# ---- the transform ---------------------------------------------------------------------------

def _prefix_specs(specs: Any, tree: Any, what: str, mesh: Mesh, auto: frozenset = frozenset()) -> list:
    leaves = tree_util.leaves(tree)
    if specs is None or isinstance(specs, PartitionSpec):
        s = _check_spec(mesh, specs, what, auto)
        return [s] * len(leaves)
    spec_leaves, spec_tree = tree_util.flatten(specs, is_leaf=lambda x: x is None or isinstance(x, PartitionSpec))
    try:
        subtrees = spec_tree.flatten_up_to(tree)
    except (ValueError, TypeError) as e:
        raise ShardMapError(f"shard_map: {what} {specs!r} does not match the structure of the values "
                            f"{tree_util.structure(tree)}: {e}{user_location()}") from None
    out = []
    for i, (s, sub) in enumerate(zip(spec_leaves, subtrees)):
        s = _check_spec(mesh, s, f"{what}[{i}]", auto)
        out += [s] * len(tree_util.leaves(sub))
    return out


class _Infer:
    """in_specs not given: read them from the arguments' layouts (jax.sharding.Infer)."""

    def __repr__(self) -> str:
        return "Infer"


Infer = _Infer()
_REQUIRED = object()


def shard_map(f: Callable | None = None, mesh: Mesh | None = None, in_specs: Any = Infer,
              out_specs: Any = _REQUIRED, check_rep: bool = True, auto: Any = frozenset(),
              check_vma: bool | None = None, axis_names: Any = frozenset()) -> Callable:
    """Map `f` over the blocks of its arguments on `mesh` (see the module docstring).

    Both of jax's spellings work: `shard_map(f, mesh, in_specs, out_specs)` and
    `@shard_map(out_specs=..., in_specs=..., mesh=...)` as a decorator. `mesh`
    defaults to the context mesh (padax.set_mesh) when the function is called.
    in_specs: a PartitionSpec per positional argument (a pytree prefix of the
    arguments; one spec for all is allowed); left out, each argument's spec is
    read from its layout (a Tensor on the mesh; others are replicated).
    out_specs likewise for the output.
    axis_names: the manual mesh axes (default: all); the others are `auto`:
    mesh axes that stay automatic (XLA partitions them): the blocks are
    split only over the other (manual) axes, and specs and collectives name
    manual axes only. A shard_map inside another one's body (on the same mesh)
    makes more of its axes manual: its specs must not name the enclosing one's
    manual axes (its values are blocks along them already); its collectives may.
    """
    if out_specs is _REQUIRED:
        raise TypeError("shard_map: out_specs is required (shard_map(f, out_specs=P(...), ...))")
    if f is None:
        return lambda fun: shard_map(fun, mesh, in_specs, out_specs, check_rep, auto, check_vma, axis_names)
    if isinstance(axis_names, str):
        axis_names = (axis_names,)
    name = getattr(f, "__name__", "fun")

    def wrapped(*args):
        m = mesh if mesh is not None else get_mesh()
        if m is None:
            raise ShardMapError(f"shard_map({name}): no mesh: pass mesh= or set a context mesh with "
                                f"padax.set_mesh(mesh){user_location()}")
        manual_auto = frozenset(a for a in m.axis_names if a not in axis_names) if axis_names else auto
        specs = _inferred_specs(m, args, name) if in_specs is Infer else in_specs
        return _shard_map(f, m, specs, out_specs, check_rep, manual_auto, check_vma)(*args)

    wrapped.__name__ = f"shard_map({name})"
    return wrapped


def _inferred_specs(mesh: Mesh, args: tuple, name: str) -> tuple:
    """in_specs read from the arguments: a Tensor laid out on `mesh` gives its spec, others P()."""

    def spec_of(x):
        if isinstance(x, Tracer):
            raise ShardMapError(f"shard_map({name}): in_specs cannot be read from a traced argument (its layout "
                                f"is XLA's to choose inside a transformation); pass in_specs={user_location()}")
        sh = x.sharding if type(x) is Tensor else None
        if isinstance(sh, NamedSharding) and sh.mesh == mesh:
            return sh.spec
        return PartitionSpec()

    return tuple(tree_util.map(spec_of, a) for a in args)


def _shard_map(f: Callable, mesh: Mesh, in_specs: Any, out_specs: Any, check_rep: bool = True,
               auto: Any = frozenset(), check_vma: bool | None = None) -> Callable:
    if not isinstance(mesh, Mesh):
        raise TypeError(f"shard_map: mesh must be a padax Mesh (padax.make_mesh), got {type(mesh).__name__}")
    if isinstance(auto, str):
        auto = (auto,)
    auto = frozenset(auto)
    for a in auto:
        if a not in mesh.axis_names:
            raise ShardMapError(f"shard_map: auto names {a!r}, which is not an axis of the mesh {mesh.axis_names}")
    if check_vma is not None:
        check_rep = check_vma
    name = getattr(f, "__name__", "fun")

    def traced(*args):
        leaves, in_tree = tree_util.flatten(args)
        specs = _prefix_specs(in_specs if not isinstance(in_specs, list) else tuple(in_specs), args,
                              "in_specs", mesh, auto)
        avals = [get_aval(x) for x in leaves]
        paths = [tree_util.keystr(p) for p, _ in tree_util.flatten_with_path(args)[0]]
        for s, a, p in zip(specs, avals, paths):
            _check_arg(mesh, s, a, f"argument args{p}")
        blocks = [block_aval(mesh, s, a) for s, a in zip(specs, avals)]
        store: list = []

        def flat(*xs):
            out = f(*in_tree.unflatten(xs))
            out_leaves, out_tree = tree_util.flatten(out)
            store.append((out, out_tree))
            return out_leaves

        closed = _trace_body(flat, mesh, blocks, f"shard_map({name}) tracing", auto)
        out, out_tree = store[0]
        o_specs = _prefix_specs(out_specs if not isinstance(out_specs, list) else tuple(out_specs),
                                out_tree.unflatten([0] * out_tree.num_leaves), "out_specs", mesh, auto)
        for i, (s, a) in enumerate(zip(o_specs, closed.out_avals)):
            if len(s) > a.ndim:
                raise ShardMapError(f"shard_map({name}): output {i} has shape {a.shape} but its out_spec {s} has "
                                    f"{len(s)} entries{user_location()}")
        if check_rep:
            _check_replication(closed, specs, o_specs, mesh, name, auto)
        return closed, specs, o_specs, out_tree

    def wrapped(*args):
        closed, specs, o_specs, out_tree = traced(*args)
        outs = _bind(mesh, closed, tree_util.leaves(args), specs, o_specs, check_rep, auto)
        return out_tree.unflatten(outs)

    wrapped.__name__ = f"shard_map({name})"
    return wrapped


# ---- replication checking ---------------------------------------------------------------------

def _axes(axis_name: Any) -> frozenset:
    return frozenset(axis_name) if isinstance(axis_name, (tuple, list)) else frozenset((axis_name,))


def _collective_axes_inside(value: Any) -> frozenset:
    """Every axis name a collective inside nested jaxprs of an equation's params refers to."""
    found: set = set()

    def walk(j: Jaxpr):
        for e in j.eqns:
            if "axis_name" in e.params:
                found.update(_axes(e.params["axis_name"]))
            for v in e.params.values():
                for sub in (v if isinstance(v, (tuple, list)) else (v,)):
                    if isinstance(sub, ClosedJaxpr):
                        walk(sub.jaxpr)
                    elif isinstance(sub, Jaxpr):
                        walk(sub)
    for v in value:
        for sub in (v if isinstance(v, (tuple, list)) else (v,)):
            if isinstance(sub, ClosedJaxpr):
                walk(sub.jaxpr)
            elif isinstance(sub, Jaxpr):
                walk(sub)
    return frozenset(found)


def replication(jaxpr: Jaxpr, in_reps: Sequence[frozenset], all_axes: frozenset) -> list[frozenset]:
    """For each output, the mesh axes along which it is known to be the same on every device.

    Conservative: reductions and gathers over an axis make a value replicated
    along it; axis_index, ppermute, psum_scatter and all_to_all make it vary;
    any other equation is replicated where all its inputs are (nested jaxprs
    with collectives inside lose those axes).
    """
    env: dict = {}

    def read(v):
        if type(v) is Literal:
            return all_axes
        return env.get(v, all_axes)

    for v, r in zip(jaxpr.invars, in_reps):
        env[v] = r
    for eqn in jaxpr.eqns:
        ins = [read(v) for v in eqn.invars]
        base = frozenset.intersection(*ins) if ins else all_axes
        p = eqn.primitive
        if p in (par.psum_p, par.pmax_p, par.pmin_p, par.all_gather_p):
            outs = [base | (_axes(eqn.params["axis_name"]) & all_axes)]
        elif p is par.axis_index_p:
            outs = [all_axes - _axes(eqn.params["axis_name"])]
        elif p in (par.ppermute_p, pex.psum_scatter_p, pex.all_to_all_p):
            outs = [base - _axes(eqn.params["axis_name"])]
        elif p in (jit_p, remat_p):
            outs = replication(eqn.params["jaxpr"].jaxpr, ins, all_axes)
        else:
            inner = _collective_axes_inside(eqn.params.values())
            outs = [base - inner] * len(eqn.outvars)
        for v, r in zip(eqn.outvars, outs):
            env[v] = r
    return [read(v) for v in jaxpr.outvars]


def _check_replication(closed: ClosedJaxpr, in_specs: Sequence[PartitionSpec], out_specs: Sequence[PartitionSpec],
                       mesh: Mesh, name: str, auto: frozenset = frozenset()) -> None:
    all_axes = frozenset(mesh.axis_names) - auto  # auto axes: XLA's business
    j = closed.jaxpr
    in_reps = [all_axes] * len(j.constvars) + [all_axes - frozenset(s.used_axes()) for s in in_specs]
    hoisted = Jaxpr([], j.constvars + j.invars, j.outvars, j.eqns)
    reps = replication(hoisted, in_reps, all_axes)
    for i, (s, r) in enumerate(zip(out_specs, reps)):
        if mesh.size == 1:
            break
        claimed = all_axes - frozenset(s.used_axes())
        missing = sorted(a for a in claimed - r if mesh.shape[a] > 1)
        if missing:
            a = missing[0]
            raise ShardMapError(
                f"shard_map({name}): out_specs[{i}] = {s} does not name mesh axis {a!r}, which says output {i} is "
                f"the same on every device along {a!r}; but it varies along {a!r} (it depends on an argument split "
                f"over {a!r}, on axis_index or on ppermute). Reduce it over {a!r} (psum, pmean, all_gather), name "
                f"{a!r} in out_specs[{i}], or pass check_rep=False if you know it is replicated"
                f"{user_location()}")


# ---- primitive rules -----------------------------------------------------------------------------

_impl_cache: dict = {}


def _clear_impl_cache() -> None:
    _impl_cache.clear()


_backend.on_client_reset(_clear_impl_cache)


@shard_map_p.def_impl
def _shard_map_impl(*args, body, mesh, in_specs, out_specs, check_rep, auto=frozenset()):
    """Outside jit: compile the one shard_map equation for the mesh (cached by the body's text).

    The function is traced on every call (so values it closes over are
    current; they arrive as arguments), but equal bodies share one compiled
    program.
    """
    args = [a if type(a) is Tensor else device_put(a) for a in args]
    avals = tuple(a.aval for a in args)
    key = (str(body), mesh, in_specs, out_specs, auto, avals, config.enable_x64, config.default_dtype)
    spmd = _impl_cache.get(key)
    if spmd is None:
        if len(_impl_cache) > 256:
            _impl_cache.clear()
        params = dict(body=body, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_rep=check_rep,
                      auto=auto)
        invars = [Var(a) for a in avals]
        outvars = [Var(a) for a in shard_map_abstract(*avals, **params)]
        eqn = JaxprEqn(shard_map_p, invars, outvars, params, None)
        spmd = SpmdDispatch(ClosedJaxpr(Jaxpr([], invars, outvars, [eqn]), []), "shard_map", (),
                            [NamedSharding(mesh, s) for s in in_specs],
                            [NamedSharding(mesh, s) for s in out_specs])
        _impl_cache[key] = spmd
    return spmd([a._buf for a in args])


def _body_fun(body: ClosedJaxpr) -> Callable:
    return lambda *xs: eval_jaxpr(body.jaxpr, body.consts, *xs)


# -- jvp: differentiate the body; tangents are laid out like their primals --

def _shard_map_jvp(primals, tangents, *, body, mesh, in_specs, out_specs, check_rep, auto=frozenset()):
    nz = [type(t) is not Zero for t in tangents]
    blocks_in = list(body.in_avals)
    t_blocks = [tangent_aval(a) for a, z in zip(blocks_in, nz) if z]
    n = len(primals)
    out_float = [dtypes.is_inexact(a.dtype) for a in body.out_avals]

    def jvp_body(*xs):
        ps = xs[:n]
        it = iter(xs[n:])
        ts = [next(it) if z else Zero(tangent_aval(a)) for z, a in zip(nz, blocks_in)]
        outs, touts = jvp_flat(_body_fun(body), ps, ts)
        return list(outs) + [instantiate(t) if type(t) is not Zero else zeros_like_aval(tangent_aval(a))
                             for t, a, fl in zip(touts, body.out_avals, out_float) if fl]

    closed = _trace_body(jvp_body, mesh, blocks_in + t_blocks, "shard_map jvp tracing", auto)
    nz_specs = [s for s, z in zip(in_specs, nz) if z]
    t_out_specs = [s for s, fl in zip(out_specs, out_float) if fl]
    outs = _bind(mesh, closed, list(primals) + [t for t in tangents if type(t) is not Zero],
                 list(in_specs) + nz_specs, list(out_specs) + t_out_specs, False, auto)
    n_out = len(body.out_avals)
    p_out, t_it = outs[:n_out], iter(outs[n_out:])
    t_out = [next(t_it) if fl else Zero(tangent_aval(get_aval(p))) for p, fl in zip(p_out, out_float)]
    return p_out, t_out


shard_map_p.jvp_rule = _shard_map_jvp


# -- partial evaluation (linearize): a known shard_map now, an unknown one staged --

def _all_axes_spec(mesh: Mesh, auto: frozenset = frozenset()) -> PartitionSpec:
    """One block per device of the manual axes (auto axes: XLA's)."""
    return PartitionSpec(tuple(a for a in mesh.axis_names if a not in auto))


def _shard_map_partial_eval(trace, args, unknowns, *, body, mesh, in_specs, out_specs, check_rep,
                            auto=frozenset()):
    known, unknown, out_unknowns, num_res = partial_eval_jaxpr(body, unknowns, instantiate=False)
    n_known_out = len(known.out_avals) - num_res
    res_avals = known.out_avals[n_known_out:]
    res_spec = _all_axes_spec(mesh, auto)

    def known_body(*xs):  # residuals leave as (1, *block) rows, one row per device
        outs = eval_jaxpr(known.jaxpr, known.consts, *xs)
        res = [reshape(r, (1,) + a.shape) for r, a in zip(outs[n_known_out:], res_avals)]
        return list(outs[:n_known_out]) + res

    def unknown_body(*xs):
        res = [reshape(r, a.shape) for r, a in zip(xs[:num_res], res_avals)]
        return eval_jaxpr(unknown.jaxpr, unknown.consts, *res, *xs[num_res:])

    k_specs = [s for s, u in zip(in_specs, unknowns) if not u]
    u_specs = [s for s, u in zip(in_specs, unknowns) if u]
    k_out_specs = [s for s, u in zip(out_specs, out_unknowns) if not u]
    u_out_specs = [s for s, u in zip(out_specs, out_unknowns) if u]
    k_args = [a for a, u in zip(args, unknowns) if not u]
    u_args = [a for a, u in zip(args, unknowns) if u]

    k_closed = _trace_body(known_body, mesh, [v.aval for v in known.jaxpr.invars], "shard_map partial eval", auto)
    with set_current_trace(trace.parent):
        k_outs = _bind(mesh, k_closed, k_args, k_specs, k_out_specs + [res_spec] * num_res, False, auto)
    known_outs, residuals = k_outs[:n_known_out], k_outs[n_known_out:]

    res_rows = [a.update(shape=(1,) + a.shape) for a in res_avals]
    u_closed = _trace_body(unknown_body, mesh, res_rows + [v.aval for v in unknown.jaxpr.invars[num_res:]],
                           "shard_map partial eval", auto)
    u_body, u_consts = _hoisted(u_closed)
    params = dict(body=u_body, mesh=mesh,
                  in_specs=(PartitionSpec(),) * len(u_consts) + (res_spec,) * num_res + tuple(u_specs),
                  out_specs=tuple(u_out_specs), check_rep=False, auto=auto)
    u_outs = trace.stage(shard_map_p, [*u_consts, *residuals, *u_args], params)
    k_it, u_it = iter(known_outs), iter(u_outs)
    return [next(u_it) if u else next(k_it) for u in out_unknowns]


shard_map_p.partial_eval_rule = _shard_map_partial_eval


# -- transpose: transpose the body; replicated outputs' cotangents are split among the replicas,
#    and inputs replicated along axes collect their cotangent with psum over those axes --

def _unnamed_size(mesh: Mesh, spec: PartitionSpec, auto: frozenset = frozenset()) -> tuple[tuple, int]:
    """The manual axes a spec does not name (its value is the same along them) and their device count."""
    used = set(spec.used_axes())
    axes = tuple(a for a in mesh.axis_names if a not in used and a not in auto)
    return axes, math.prod(mesh.shape[a] for a in axes)


def _shard_map_transpose(cts, *args, body, mesh, in_specs, out_specs, check_rep, auto=frozenset()):
    undef = [is_undefined(a) for a in args]
    res = [a for a, u in zip(args, undef) if not u]
    nz = [type(c) is not Zero for c in cts]
    ct_vals = []
    for c, s, z in zip(cts, out_specs, nz):
        if not z:
            continue
        c = instantiate(c)
        _, k = _unnamed_size(mesh, s, auto)
        if k > 1:
            c = div(c, full(get_aval(c).shape, k, get_aval(c).dtype))
        ct_vals.append(c)
    j = body.jaxpr
    res_vars = [v for v, u in zip(j.invars, undef) if not u]
    lin_vars = [v for v, u in zip(j.invars, undef) if u]
    as_linear = Jaxpr(list(j.constvars) + res_vars, lin_vars, j.outvars, j.eqns)
    lin_specs = [s for s, u in zip(in_specs, undef) if u]
    n_res = len(res)

    def t_body(*xs):
        rs = list(xs[:n_res])
        it = iter(xs[n_res:])
        cts_b = [next(it) if z else Zero(a) for z, a in zip(nz, body.out_avals)]
        out = backward_pass(as_linear, list(body.consts) + rs, cts_b)
        result = []
        for c, v, s in zip(out, lin_vars, lin_specs):
            axes, k = _unnamed_size(mesh, s, auto)
            if type(c) is Zero:  # a sum of zeros needs no all-reduce
                c = zeros_like_aval(v.aval)
            elif k > 1:
                c = psum_p.bind(c, axis_name=axes)
            result.append(c)
        return result

    blocks = [v.aval for v in res_vars] + [a for a, z in zip(body.out_avals, nz) if z]
    closed = _trace_body(t_body, mesh, blocks, "shard_map transpose", auto)
    res_specs = [s for s, u in zip(in_specs, undef) if not u]
    ct_specs = [s for s, z in zip(out_specs, nz) if z]
    outs = _bind(mesh, closed, res + ct_vals, res_specs + ct_specs, lin_specs, False, auto)
    it = iter(outs)
    return [next(it) if u else None for u in undef]


shard_map_p.transpose_rule = _shard_map_transpose


# -- vmap: the batch dimension is one more unsplit dimension of every block --

def _insert_none(spec: PartitionSpec, d: int, name=None) -> PartitionSpec:
    parts = list(spec) + [None] * max(0, d - len(spec))
    parts.insert(d, name)
    return PartitionSpec(*parts)


def _shard_map_batch(trace, args, dims, *, body, mesh, in_specs, out_specs, check_rep, auto=frozenset()):
    """vmap of shard_map: each device's block gains the batch dimension (whole, or its share of
    it when vmap's spmd_axis_name splits the batch over mesh axes)."""
    size = batch_size(args, dims)
    spmd = spmd_axes(trace, mesh, "shard_map")
    n_split = 1
    for n in (() if spmd is None else (spmd,) if isinstance(spmd, str) else spmd):
        if n in {a for s in in_specs + out_specs for a in s.used_axes()}:
            raise ShardMapError(f"vmap: spmd_axis_name {n!r} is already used by the shard_map's specs")
        if n in auto:
            raise ShardMapError(f"vmap: spmd_axis_name {n!r} is an auto axis of the shard_map (its specs name "
                                "manual axes only)")
        n_split *= mesh.axis_size(n)
    if size % n_split:
        raise ShardMapError(f"vmap: a batch of {size} cannot be split over spmd_axis_name {spmd!r} "
                            f"({n_split} devices)")
    local = size // n_split
    new_in = [s if d is None else _insert_none(s, d, spmd) for s, d in zip(in_specs, dims)]
    blocks = []
    for a, d in zip(body.in_avals, dims):
        if d is None:
            blocks.append(a)
        else:
            shape = list(a.shape)
            shape.insert(d, local)
            blocks.append(a.update(shape=tuple(shape)))
    batched = vmap(_body_fun(body), in_axes=tuple(dims), out_axes=0, axis_size=local)
    closed = _trace_body(lambda *xs: batched(*xs), mesh, blocks, "shard_map vmap tracing", auto)
    new_out = [_insert_none(s, 0, spmd) for s in out_specs]
    outs = _bind(mesh, closed, list(args), new_in, new_out, False, auto)
    return outs, [0] * len(outs)


shard_map_p.batch_rule = _shard_map_batch
shard_map_p.batch_rule_takes_trace = True


__all__ = ["shard_map", "ShardMapError"]
