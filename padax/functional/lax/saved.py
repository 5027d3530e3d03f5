"""`saved_program`: a call of a program loaded from disk (`padax.jit.load`).

Params: `program`, a `SavedProgram` (the StableHLO artifact and the input and
output avals), compared by identity, so a loaded program compiles once per
use site. Eagerly it runs as its own compiled program; inside `jit` it
becomes one call in the larger program (its lowering copies the saved
functions in). It has no derivative rules: it was saved as a forward
computation. Under vmap it runs once per example in a compiled loop.
"""
from __future__ import annotations

from typing import Sequence

from padax.core.abstract import ShapedArray
from padax.core.errors import op_type_error
from padax.core.primitive import Primitive
from padax.functional.lax.control import map as lax_map
from padax.functional.lax.structural import batch_size, bdim_to_front


class SavedProgram:
    """A saved single-device program: its artifact bytes and signature."""

    __slots__ = ("artifact", "in_avals", "out_avals", "name", "__weakref__")

    def __init__(self, artifact: bytes, in_avals: Sequence[ShapedArray], out_avals: Sequence[ShapedArray],
                 name: str):
        self.artifact = artifact
        self.in_avals = tuple(in_avals)
        self.out_avals = tuple(out_avals)
        self.name = name

    def __repr__(self) -> str:
        ins = ", ".join(a.str_short() for a in self.in_avals)
        outs = ", ".join(a.str_short() for a in self.out_avals)
        return f"SavedProgram({self.name}: ({ins}) -> ({outs}))"


saved_program_p = Primitive("saved_program", multiple_results=True)


@saved_program_p.def_abstract_eval
def _abstract_eval(*avals, program: SavedProgram):
    op = f"saved program '{program.name}'"
    if len(avals) != len(program.in_avals):
        raise op_type_error(op, f"takes {len(program.in_avals)} arrays, got {len(avals)}")
    for i, (got, want) in enumerate(zip(avals, program.in_avals)):
        if got.shape != want.shape or got.dtype != want.dtype:
            raise op_type_error(op, f"argument {i} must be {want.str_short()}, got {got.str_short()}")
    return list(program.out_avals)


def _jvp(primals, tangents, *, program: SavedProgram):
    raise TypeError(f"saved program '{program.name}' cannot be differentiated: padax.jit.save stores the "
                    "forward computation only. Differentiate the original Python function, or save the "
                    "function you need (e.g. padax.jit.save(padax.grad(f), ...)).")


def _batch(args, dims, *, program: SavedProgram):
    size = batch_size(args, dims)
    batched = [i for i, d in enumerate(dims) if d is not None]
    stacked = [bdim_to_front(args[i], dims[i], size) for i in batched]

    def one(slices):
        full = list(args)
        for i, s in zip(batched, slices):
            full[i] = s
        return saved_program_p.bind(*full, program=program)

    outs = lax_map(one, stacked)
    return list(outs), [0] * len(program.out_avals)


saved_program_p.jvp_rule = _jvp
saved_program_p.batch_rule = _batch
