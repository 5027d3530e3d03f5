"""jaxpr -> StableHLO module, through jaxlib's MLIR Python bindings.

One lowering rule per primitive, registered with `register_lowering`. A rule
receives a `RuleContext` (input/output avals, the module being built) and
the MLIR values of its operands, and returns the MLIR value(s) of its
results. Nested jaxprs (jit, control flow) are lowered inline by
`lower_jaxpr_body`.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Sequence

import numpy as np

from padax.core.abstract import ShapedArray
from padax.core.effects import has_ordered, jaxpr_effects
from padax.core.errors import PadaxError
from padax.core.jaxpr import Jaxpr, Literal, Var
from padax.interpreters.discharge import jaxpr_has_refs
from padax.lowering._mlir import func, hlo, ir, make_context, module_to_bytecode
from padax.lowering.registry import (  # noqa: F401  (re-exported)
    LoweringRule,
    ensure_rules_loaded,
    lowering_rules,
    register_lowering,  # noqa: F401  (re-exported: rules register from here)
)
from padax.lowering.shardy import ModuleMeshes, ShardyError, sharding_attr
from padax.runtime import _jaxlib
from padax.runtime.profiling import span
from padax.runtime.sharding import NamedSharding


class LoweringError(Exception):
    """padax failed to lower a primitive; this is a padax bug, not user error."""


_local = threading.local()


def require_runtime(need: str) -> None:
    """For a rule: the program being lowered needs `need` (a name in padax.runtime._jaxlib.RUNTIME_SETUP, e.g.
    "lapack") set up at run time; sets it up now and records it, so that a process loading the compiled program
    from the persistent cache without lowering it sets it up too. Rules must not rely on other side effects."""
    _jaxlib.RUNTIME_SETUP[need]()
    mctx = getattr(_local, "module_ctx", None)
    if mctx is not None and need not in mctx.runtime_needs:
        mctx.runtime_needs.append(need)


def context() -> ir.Context:
    ctx = getattr(_local, "ctx", None)
    if ctx is None:
        ctx = _local.ctx = make_context()
    return ctx


# ---- types and constants ----------------------------------------------------------

def _scalar_type(dtype: np.dtype) -> ir.Type:
    name = dtype.name
    if name == "float32":
        return ir.F32Type.get()
    if name == "float64":
        return ir.F64Type.get()
    if name == "float16":
        return ir.F16Type.get()
    if name == "bfloat16":
        return ir.BF16Type.get()
    if name == "float8_e4m3fn":
        return ir.Float8E4M3FNType.get()
    if name == "float8_e5m2":
        return ir.Float8E5M2Type.get()
    if name == "bool":
        return ir.IntegerType.get_signless(1)
    if name.startswith("int"):
        return ir.IntegerType.get_signless(dtype.itemsize * 8)
    if name.startswith("uint"):
        return ir.IntegerType.get_unsigned(dtype.itemsize * 8)
    if name == "complex64":
        return ir.ComplexType.get(ir.F32Type.get())
    if name == "complex128":
        return ir.ComplexType.get(ir.F64Type.get())
    raise LoweringError(f"no MLIR type for dtype {dtype}")


def dtype_to_ir_type(dtype: np.dtype) -> ir.Type:
    return _scalar_type(np.dtype(dtype))


def aval_to_ir_type(aval: ShapedArray) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(aval.shape), _scalar_type(aval.dtype))


def ir_constant(value: Any, dtype: np.dtype | None = None) -> ir.Value:
    """A StableHLO constant from a host value (numpy array or Python scalar)."""
    arr = np.asarray(value, dtype=dtype)
    if not arr.flags.c_contiguous:
        arr = arr.copy()  # (np.ascontiguousarray would turn 0-d into 1-d)
    ty = ir.RankedTensorType.get(list(arr.shape), _scalar_type(arr.dtype))
    if arr.size > 1:
        first = arr.reshape(-1)[:1]
        if (arr.view(np.uint8).reshape(arr.size, -1) == first.view(np.uint8)).all():
            # a splat: emit one scalar and broadcast it (keeps programs small)
            scalar = hlo.ConstantOp(ir.DenseElementsAttr.get(
                first.reshape(()), type=ir.RankedTensorType.get([], ty.element_type))).result
            return hlo.broadcast_in_dim(ty, scalar, ir.DenseI64ArrayAttr.get([]))
    return hlo.ConstantOp(ir.DenseElementsAttr.get(arr, type=ty)).result


def full_like_aval(value: Any, aval: ShapedArray) -> ir.Value:
    """A constant filled with `value`, of the aval's shape and dtype."""
    scalar = ir_constant(np.asarray(value, dtype=aval.dtype))
    if aval.shape == ():
        return scalar
    return hlo.broadcast_in_dim(aval_to_ir_type(aval), scalar, ir.DenseI64ArrayAttr.get([]))


# ---- module building --------------------------------------------------------------

class ModuleContext:
    """State shared by all rules while one module is built.

    Besides fresh names for helper functions, SPMD programs record their
    `device_assignment` (the devices, in partition order: mesh device ids
    and collective replica groups refer to positions in it), their `mesh`
    (the padax Mesh shardings are named on, if any), the Shardy `meshes`
    declared so far and, while the body of a shard_map is emitted, its
    `manual_mesh` and `manual_axes` (the mesh axes over which every device
    runs its own block; collectives derive their device groups from them).
    """

    def __init__(self, module: ir.Module, num_partitions: int = 1, device_assignment: Sequence | None = None,
                 mesh=None):
        self.module = module
        self.num_partitions = num_partitions
        self.device_assignment = tuple(device_assignment) if device_assignment is not None else None
        self.mesh = mesh
        self.manual_mesh = None
        self.manual_axes: frozenset = frozenset()
        self._meshes = None
        self._counter = 0
        self._channel = 0
        self.host_callbacks: list = []  # Python functions the program calls (custom-call index = position)
        self.token = None  # the token ordering the program's ordered side effects (see control-flow rules)
        self.runtime_needs: list[str] = []  # what the program needs set up at run time (`require_runtime`)

    def add_host_callback(self, fn) -> int:
        """Register a Python function the compiled program calls back; returns its index."""
        self.host_callbacks.append(fn)
        return len(self.host_callbacks) - 1

    @property
    def meshes(self):
        """The module's Shardy meshes (SPMD programs only)."""
        if self._meshes is None:
            self._meshes = ModuleMeshes(self.device_assignment)
        return self._meshes

    def sharding_attr(self, sharding, ndim: int, open_dims: bool = False) -> ir.Attribute:
        """The sdy sharding attribute of a padax sharding (or HloSharding, or its text)."""
        try:
            return sharding_attr(self.meshes, sharding, ndim, self.mesh, open_dims)
        except ShardyError as e:
            raise LoweringError(str(e)) from None

    def fresh_name(self, base: str) -> str:
        self._counter += 1
        return f"{base}_{self._counter}"

    def next_channel(self) -> int:
        """A fresh channel id for a cross-device collective."""
        self._channel += 1
        return self._channel


class RuleContext:
    __slots__ = ("module_ctx", "avals_in", "avals_out", "primitive", "source_info")

    def __init__(self, module_ctx, avals_in, avals_out, primitive=None, source_info=None):
        self.module_ctx = module_ctx
        self.avals_in = avals_in
        self.avals_out = avals_out
        self.primitive = primitive
        self.source_info = source_info

    @property
    def aval_out(self) -> ShapedArray:
        return self.avals_out[0]


def lower_jaxpr_body(mctx: ModuleContext, jaxpr: Jaxpr, consts: Sequence[ir.Value],
                     args: Sequence[ir.Value]) -> list[ir.Value]:
    """Emit a jaxpr's equations at the current insertion point; returns its outputs."""
    env: dict[Var, ir.Value] = {}

    def read(v):
        if type(v) is Literal:
            return ir_constant(np.asarray(v.val, dtype=v.aval.dtype))
        return env[v]

    for v, x in zip(jaxpr.constvars, consts):
        env[v] = x
    for v, x in zip(jaxpr.invars, args):
        env[v] = x
    for eqn in jaxpr.eqns:
        rule = lowering_rules.get(eqn.primitive)
        if rule is None:
            raise LoweringError(f"padax has no lowering rule for primitive '{eqn.primitive.name}'")
        ins = [read(v) for v in eqn.invars]
        rctx = RuleContext(mctx, [v.aval for v in eqn.invars], [v.aval for v in eqn.outvars],
                           eqn.primitive, eqn.source_info)
        info = eqn.source_info
        op_name = f"{info.scope}/{eqn.primitive.name}" if info is not None and info.scope else eqn.primitive.name
        loc = ir.Location.name(f"{op_name}@{info}" if info else op_name)
        with loc:
            try:
                outs = rule(rctx, *ins, **eqn.params)
            except (LoweringError, PadaxError):  # (a rule's own error for the user)
                raise
            except Exception as e:
                where = f" (from {eqn.source_info})" if eqn.source_info else ""
                raise LoweringError(
                    f"internal error lowering '{eqn.primitive.name}' with inputs "
                    f"{', '.join(a.str_short() for a in rctx.avals_in)}{where}: {type(e).__name__}: {e}"
                ) from e
        if not eqn.primitive.multiple_results:
            outs = [outs]
        for v, x in zip(eqn.outvars, outs):
            env[v] = x
    return [read(v) for v in jaxpr.outvars]


def make_function(mctx: ModuleContext, name: str, in_avals: Sequence[ShapedArray],
                  out_avals: Sequence[ShapedArray],
                  body: Callable[[Sequence[ir.Value]], Sequence[ir.Value]],
                  public: bool = False, arg_attrs: Sequence[dict] | None = None,
                  result_attrs: Sequence[dict] | None = None) -> func.FuncOp:
    """Add a func.func to the module whose body `body(args)` emits."""
    in_types = [aval_to_ir_type(a) for a in in_avals]
    out_types = [aval_to_ir_type(a) for a in out_avals]
    with ir.InsertionPoint(mctx.module.body):
        fn = func.FuncOp(name, ir.FunctionType.get(in_types, out_types))
    fn.attributes["sym_visibility"] = ir.StringAttr.get("public" if public else "private")
    if arg_attrs:
        fn.arg_attrs = ir.ArrayAttr.get([ir.DictAttr.get(d) for d in arg_attrs])
    if result_attrs:
        fn.result_attrs = ir.ArrayAttr.get([ir.DictAttr.get(d) for d in result_attrs])
    block = fn.add_entry_block()
    with ir.InsertionPoint(block):
        outs = body(list(block.arguments))
        func.ReturnOp(list(outs))
    return fn


class LoweredModule:
    """The StableHLO of one program, as bytecode (for compiling) and text (for reading)."""

    __slots__ = ("bytecode", "_module", "num_partitions", "propagate_outputs", "host_callbacks", "runtime_needs")

    def __init__(self, module: ir.Module, num_partitions: int = 1, propagate_outputs: Sequence[bool] = (),
                 host_callbacks: Sequence = (), runtime_needs: Sequence[str] = ()):
        self._module = module
        self.bytecode = module_to_bytecode(module)
        self.num_partitions = num_partitions
        # per result: XLA may choose its sharding (none was given)
        self.propagate_outputs = tuple(propagate_outputs)
        # Python functions the program calls back (debug.print, pure_callback, ...): handed to the
        # compiler with the module; such a program cannot be saved or cached on disk
        self.host_callbacks = tuple(host_callbacks)
        # what must be set up in a process before the program runs (ModuleContext.require_runtime)
        self.runtime_needs = tuple(runtime_needs)

    @property
    def module(self) -> ir.Module:
        return self._module

    def as_text(self, debug_info: bool = False) -> str:
        """The module's text; with `debug_info` each op's location (its named_scope, primitive and line)."""
        with context():
            if debug_info:
                return self._module.operation.get_asm(enable_debug_info=True)
            return str(self._module)


def lower_jaxpr(jaxpr: Jaxpr, *, name: str = "main", donated: Sequence[bool] = (),
                num_partitions: int = 1, device_assignment: Sequence | None = None,
                arg_shardings: Sequence | None = None, result_shardings: Sequence | None = None,
                mesh=None) -> LoweredModule:
    """Lower a jaxpr to a module whose public `main` takes (*constvars, *invars).

    For an SPMD program pass `device_assignment` (its length is the number of
    partitions) and, per argument (consts first) and per result, a padax
    sharding (or an HloSharding, or its text) or None (XLA then chooses); they
    become Shardy `sdy.sharding` attributes on the meshes they name. `mesh`
    (default: the first NamedSharding's) is the mesh layouts given in XLA's
    own terms are named on when they can be.
    """
    ensure_rules_loaded()
    if jaxpr_has_refs(jaxpr):
        raise LoweringError(f"cannot lower '{name}': the program still holds mutable array refs (Ref inputs, or "
                            "new_ref/ref_get/ref_swap equations); refs are discharged into pure state passing "
                            "(padax.interpreters.discharge.discharge_jaxpr) before lowering")
    with span("padax.lower", module=_module_name(name)):
        return _lower_jaxpr(jaxpr, name, donated, num_partitions, device_assignment, arg_shardings,
                            result_shardings, mesh)


def _lower_jaxpr(jaxpr, name, donated, num_partitions, device_assignment, arg_shardings, result_shardings,
                 mesh) -> LoweredModule:
    if device_assignment is not None:
        num_partitions = len(device_assignment)
    spmd = num_partitions > 1
    if spmd and device_assignment is None:
        raise LoweringError("lower_jaxpr: an SPMD program needs its device_assignment")
    if spmd and mesh is None:
        mesh = next((s.mesh for s in list(arg_shardings or ()) + list(result_shardings or ())
                     if isinstance(s, NamedSharding)), None)
    with context(), ir.Location.unknown():
        module = ir.Module.create()
        module.operation.attributes["sym_name"] = ir.StringAttr.get(_module_name(name))
        if spmd:
            i32 = ir.IntegerType.get_signless(32)
            module.operation.attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(i32, num_partitions)
            module.operation.attributes["mhlo.num_replicas"] = ir.IntegerAttr.get(i32, 1)
        mctx = ModuleContext(module, num_partitions, device_assignment if spmd else None, mesh if spmd else None)
        outer, _local.module_ctx = getattr(_local, "module_ctx", None), mctx
        try:
            return _lower_main(module, mctx, jaxpr, donated, spmd, arg_shardings, result_shardings)
        finally:
            _local.module_ctx = outer


def _lower_main(module, mctx, jaxpr, donated, spmd, arg_shardings, result_shardings) -> LoweredModule:
    """The public `main` of the module (its context and location are entered by the caller)."""
    in_avals = [v.aval for v in jaxpr.constvars] + [v.aval for v in jaxpr.invars]
    out_avals = [_aval(v) for v in jaxpr.outvars]
    n_consts = len(jaxpr.constvars)
    arg_attrs = None
    if any(donated) or (spmd and arg_shardings):
        arg_attrs = [{} for _ in in_avals]
        for i, d in enumerate(donated):
            if d:
                arg_attrs[n_consts + i] = {"jax.buffer_donor": ir.BoolAttr.get(True)}
        if spmd:
            for i, (sh, a) in enumerate(zip(arg_shardings or (), in_avals)):
                if sh is not None:
                    arg_attrs[i]["sdy.sharding"] = mctx.sharding_attr(sh, a.ndim)
    result_attrs = None
    if spmd and result_shardings:
        result_attrs = [{} if sh is None else {"sdy.sharding": mctx.sharding_attr(sh, a.ndim)}
                        for sh, a in zip(result_shardings, out_avals)]

    ordered = has_ordered(jaxpr_effects(jaxpr))

    def body(args):
        if ordered:  # one token threads through every ordered side effect, in program order
            mctx.token = hlo.create_token()
        return lower_jaxpr_body(mctx, jaxpr, args[:n_consts], args[n_consts:])

    make_function(mctx, "main", in_avals, out_avals, body,
                  public=True, arg_attrs=arg_attrs, result_attrs=result_attrs)
    propagate = ()
    if spmd:
        if mctx._meshes is not None:
            mctx._meshes.finish(module)
        propagate = tuple(sh is None for sh in (result_shardings or [None] * len(jaxpr.outvars)))
    return LoweredModule(module, mctx.num_partitions, propagate, mctx.host_callbacks, mctx.runtime_needs)


def _aval(v) -> ShapedArray:
    return v.aval


def _module_name(name: str) -> str:
    clean = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return f"jit_{clean}" if clean else "jit_fn"
