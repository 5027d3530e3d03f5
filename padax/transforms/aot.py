"""Ahead-of-time compilation: `jit(f).trace(...)`, `.lower(...)`, `.compile()`, like jax's AOT API.

    traced = padax.jit(f).trace(x, padax.ShapeDtypeStruct((8, 4), "float32"))
    traced.jaxpr                       # the traced program
    lowered = traced.lower()           # or padax.jit(f).lower(...)
    print(lowered.as_text())           # StableHLO
    compiled = lowered.compile()
    compiled.cost_analysis()["flops"], compiled.memory_analysis().temp_size_in_bytes
    compiled(x, y)                     # runs; the arguments must have the lowered types

Arguments to trace/lower may be arrays or `ShapeDtypeStruct`s; static
arguments are fixed then, and the compiled callable takes only the others.
Tracing goes through the same code as a call, so bad shapes raise the same
error either way.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from padax.core import node_state
from padax.core.jaxpr import ClosedJaxpr
from padax.core.ref import AbstractRef, Ref
from padax.interpreters.discharge import discharge_closed, jaxpr_has_refs
from padax.lowering.compile import compile_lowered
from padax.runtime import _jaxlib, tree as tree_util
from padax.runtime.array import Tensor
from padax.runtime.backend import default_device
from padax.runtime.executable import Executable
from padax.runtime.put import device_put
from padax.transforms.spmd import buffer_sharding
from padax.transforms.staging import ShapeDtypeStruct, arg_aval

if TYPE_CHECKING:
    from padax.lowering.mlir import LoweredModule


def _out_info(closed: ClosedJaxpr, out_tree) -> Any:
    tree = out_tree.tree if type(out_tree) is node_state.StateOutputs else out_tree  # (not the layers' state)
    return tree.unflatten([ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type)
                           for a in closed.out_avals[:tree.num_leaves]])


class Traced:
    """A function traced at given argument types: `.jaxpr`, `.out_info`, `.lower()`."""

    def __init__(self, jit_fn, closed: ClosedJaxpr, in_tree, out_tree, leaves: list, dyn: tuple):
        self._jit = jit_fn
        self.jaxpr = closed
        self.in_tree = in_tree
        self.out_tree = out_tree
        self._leaves = leaves
        self._dyn = dyn  # (dyn_args, dyn_kwargs): for programs over several devices

    @property
    def out_info(self) -> Any:
        """The outputs' shapes and dtypes (a pytree of ShapeDtypeStruct)."""
        return _out_info(self.jaxpr, self.out_tree)

    def lower(self) -> "Lowered":
        jf, closed = self._jit, self.jaxpr
        if jaxpr_has_refs(closed) and not any(type(a) is AbstractRef for a in closed.in_avals) and not any(
                type(c) is Ref for c in closed.consts):  # refs made inside: the pure program, same signature
            closed = discharge_closed(closed)
        if jf._needs_spmd(closed, self._leaves):
            spmd = jf._spmd(closed, self.out_tree, *self._dyn, ())
            plan = spmd.plan(tuple(buffer_sharding(x._buf) if isinstance(x, Tensor) else None for x in self._leaves))
            return Lowered(self, plan.lowered, plan=plan)
        from padax.lowering.mlir import lower_jaxpr  # (jaxlib's MLIR bindings load on the first lowering)
        return Lowered(self, lower_jaxpr(closed.jaxpr, name=jf.__name__))


class Lowered:
    """The StableHLO of a traced function: `.as_text()`, `.compile()`, `.in_tree`, `.out_info`."""

    def __init__(self, traced: Traced, lowered: "LoweredModule", plan=None):
        self._traced = traced
        self._lowered = lowered
        self._plan = plan

    in_tree = property(lambda self: self._traced.in_tree)
    out_tree = property(lambda self: self._traced.out_tree)
    out_info = property(lambda self: self._traced.out_info)

    @property
    def jaxpr(self) -> ClosedJaxpr:
        return self._traced.jaxpr

    def as_text(self, dialect: str = "stablehlo", *, debug_info: bool = False) -> str:
        """The program as StableHLO text (the module padax hands to XLA); `debug_info` adds each op's
        location (named_scope/primitive@file:line), as jax's."""
        if dialect != "stablehlo":
            raise ValueError(f"Lowered.as_text: padax lowers to StableHLO only; got dialect={dialect!r}. The "
                             "optimised HLO is Lowered.compile().as_text().")
        return self._lowered.as_text(debug_info=debug_info)

    def compiler_ir(self, dialect: str = "stablehlo"):
        """The MLIR module object itself."""
        if dialect != "stablehlo":
            raise ValueError(f"Lowered.compiler_ir: only 'stablehlo' is available, got {dialect!r}")
        return self._lowered.module

    def compile(self) -> "Compiled":
        closed = self._traced.jaxpr
        if self._plan is not None:  # already compiled for its devices when it was planned
            return Compiled(self._traced, self._plan.exe, [], self._plan)  # (the plan holds its constants)
        device = default_device()
        exe = Executable(compile_lowered(self._lowered, [device]), closed.out_avals, device,
                         host_callbacks=self._lowered.host_callbacks)
        return Compiled(self._traced, exe, [c if isinstance(c, Tensor) else device_put(c) for c in closed.consts])


@dataclasses.dataclass(frozen=True)
class MemoryAnalysis:
    """Bytes a compiled program uses on its device (from XLA's buffer assignment)."""

    argument_size_in_bytes: int
    output_size_in_bytes: int
    alias_size_in_bytes: int
    temp_size_in_bytes: int
    generated_code_size_in_bytes: int
    peak_memory_in_bytes: int


class Compiled:
    """A compiled program: call it with arguments of the lowered types; inspect what XLA made of it."""

    def __init__(self, traced: Traced, exe: Executable, consts: list, plan=None):
        self._traced = traced
        self._exe = exe
        # the constants as Tensors, read at each call: an in-place update of one is seen (its type may not change)
        self._consts = consts
        self._const_avals = [c.aval for c in consts]
        self._plan = plan
        self._in_avals = [arg_aval(x) for x in traced._leaves]

    in_tree = property(lambda self: self._traced.in_tree)
    out_tree = property(lambda self: self._traced.out_tree)
    out_info = property(lambda self: self._traced.out_info)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        name = self._traced._jit.__name__
        leaves, tree = tree_util.flatten((args, kwargs))
        if tree != self.in_tree:
            raise TypeError(f"Compiled({name}) was lowered for arguments {self.in_tree} but called with {tree} "
                            "(static arguments are fixed at lowering and not passed again)")
        tensors = [x if isinstance(x, Tensor) else device_put(x) for x in leaves]
        for i, (t, want) in enumerate(zip(tensors, self._in_avals)):
            got = t.aval
            if got.shape != want.shape or got.dtype != want.dtype:
                raise TypeError(f"Compiled({name}): argument {i} is {got.str_short()} but the program was "
                                f"lowered for {want.str_short()}; lower it again for these types")
        bufs = [t._buf for t in tensors]
        if self._plan is not None:
            outs = self._plan(bufs, self._in_avals)
        else:
            outs = self._exe([self._const_buf(i) for i in range(len(self._consts))] + bufs if self._consts else bufs)
        return node_state.unflatten_outputs(self.out_tree, outs, (args, kwargs))

    def _const_buf(self, i: int) -> Any:
        c, want = self._consts[i], self._const_avals[i]
        if c.aval.shape != want.shape or c.aval.dtype != want.dtype:
            raise TypeError(f"Compiled({self._traced._jit.__name__}): a Tensor the function closes over was "
                            f"{want.str_short()} when it was compiled and is {c.aval.str_short()} now (an in-place "
                            "update changed its type); lower and compile it again")
        return c._buf

    def runtime_executable(self):
        """jaxlib's loaded executable."""
        return self._exe.exe

    def as_text(self) -> str:
        """The HLO after XLA's optimisations (what runs)."""
        return _jaxlib.executable_hlo_text(self._exe.exe)

    def cost_analysis(self) -> dict:
        """XLA's cost estimate: 'flops', 'bytes accessed', 'transcendentals', ... (a dict)."""
        return dict(_jaxlib.executable_cost_analysis(self._exe.exe))

    def memory_analysis(self) -> MemoryAnalysis:
        """Argument, output, aliased, temporary and generated-code sizes in bytes."""
        s = _jaxlib.executable_memory_stats(self._exe.exe)
        return MemoryAnalysis(s.argument_size_in_bytes, s.output_size_in_bytes, s.alias_size_in_bytes,
                              s.temp_size_in_bytes, s.generated_code_size_in_bytes,
                              getattr(s, "peak_memory_in_bytes", 0))
