"""Saved programs: StableHLO as a versioned portable artifact.

A portable artifact is StableHLO's stable serialization (its bytecode at a
named StableHLO version): a later jaxlib can still read it. `inline_portable`
copies a saved program's functions into the module being built, so a loaded
program can also run as one call inside a larger jitted program.
"""
from __future__ import annotations

from typing import Sequence

from padax.core.abstract import ShapedArray
from padax.lowering._mlir import func, hlo, ir
from padax.lowering.mlir import LoweredModule, ModuleContext, aval_to_ir_type, context


class ArtifactError(ValueError):
    """A saved program that cannot be read (corrupt, or from a newer StableHLO)."""


def portable_version() -> str:
    """The StableHLO version new artifacts are written at."""
    return hlo.get_current_version()


def to_portable(lowered: LoweredModule) -> bytes:
    """The artifact bytes of a lowered single-device program."""
    return hlo.serialize_portable_artifact_str(lowered.bytecode, portable_version())


def _parse(data: bytes) -> ir.Module:
    try:
        module_bytes = hlo.deserialize_portable_artifact_str(data)
        return ir.Module.parse(module_bytes)
    except Exception as e:  # noqa: BLE001 (MLIR raises several types; the user needs one message)
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ArtifactError(f"not a readable StableHLO artifact (StableHLO here is {portable_version()}, "
                            f"oldest readable {hlo.get_minimum_version()}): {first}") from None


def check_portable(data: bytes, in_avals: Sequence[ShapedArray] | None = None,
                   out_avals: Sequence[ShapedArray] | None = None) -> None:
    """Raise ArtifactError unless `data` parses as a StableHLO artifact whose `main` takes `in_avals`
    and returns `out_avals` (when given): a file whose description disagrees with its program fails
    at load, not at its first call."""
    with context(), ir.Location.unknown():
        module = _parse(data)
        if in_avals is None and out_avals is None:
            return
        mains = [op for op in module.body.operations
                 if "sym_name" in op.attributes and ir.StringAttr(op.attributes["sym_name"]).value == "main"]
        if not mains:
            raise ArtifactError("the program has no main function")
        ftype = ir.FunctionType(ir.TypeAttr(mains[0].attributes["function_type"]).value)
        for what, got, avals in (("inputs", ftype.inputs, in_avals), ("outputs", ftype.results, out_avals)):
            if avals is None:
                continue
            want = [str(aval_to_ir_type(a)) for a in avals]
            have = [str(t) for t in got]
            if want != have:
                raise ArtifactError(f"the program's {what} are ({', '.join(have)}) but its description says "
                                    f"({', '.join(want)})")


def module_text(data: bytes) -> str:
    """The StableHLO text of an artifact (for reading)."""
    with context():
        return str(_parse(data))


def inline_portable(mctx: ModuleContext, data: bytes, base: str) -> str:
    """Copy an artifact's functions into `mctx.module` under fresh private names; returns its main's name."""
    src = _parse(data)
    prefix = mctx.fresh_name(base)
    ops = list(src.body.operations)
    names = [ir.StringAttr(op.attributes["sym_name"]).value for op in ops]
    for op, old in zip(ops, names):
        new = f"{prefix}_{old}"
        ir.SymbolTable.replace_all_symbol_uses(old, new, src.operation)
        ir.SymbolTable.set_symbol_name(op, new)
        op.attributes["sym_visibility"] = ir.StringAttr.get("private")
    for op in ops:
        op.detach_from_parent()
        mctx.module.body.append(op)
    return f"{prefix}_main"


def call_function(name: str, args: Sequence[ir.Value], out_avals: Sequence[ShapedArray]) -> list[ir.Value]:
    """Emit `func.call @name(args)`."""
    call = func.CallOp([aval_to_ir_type(a) for a in out_avals], ir.FlatSymbolRefAttr.get(name), list(args))
    return list(call.results)
