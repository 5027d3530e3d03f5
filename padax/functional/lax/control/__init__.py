"""Structured control flow: the `cond`, `while` and `scan` primitives and the lax-level
`cond`, `switch`, `while_loop`, `fori_loop`, `scan` and `map`.

Python `if`/`for`/`while` cannot depend on traced values; these primitives hold
the traced bodies instead, so a data-dependent branch or loop becomes one
equation that jit compiles, grad differentiates and vmap batches.

Every body is a const-free ClosedJaxpr: values the user's functions close over
(arrays, outer tracers) are hoisted into leading operands, so transformations
see them as ordinary inputs and differentiate or batch them like any other.

* `cond(index, *operands, branches)`: runs `branches[index]`; `index` is an
  int32 scalar already clamped into range. Lowered to `stablehlo.case`.
* `while(*cond_consts, *body_consts, *init, cond_jaxpr, body_jaxpr,
  cond_nconsts, body_nconsts)`: `cond_jaxpr(cond_consts, carry) -> bool[]`,
  `body_jaxpr(body_consts, carry) -> carry`. Lowered to `stablehlo.while`.
* `scan(*consts, *init, *xs, jaxpr, num_consts, num_carry, length, reverse,
  unroll)`: `jaxpr(consts, carry, x) -> (carry, y)` over the leading axis of
  `xs`, stacking the `y`s. Lowered to a `stablehlo.while` over an index that
  reads `xs` and writes `ys` with dynamic (update) slices; `unroll` steps are
  emitted per loop iteration.

Rules, next to each primitive: jvp (the same primitive over jvp'd bodies; for
loops a fixed point decides which carries have nonzero tangents), partial
evaluation for reverse mode (cond and scan split into a known part that runs
now and saves residuals, and an unknown, linear part that is staged), transpose
(cond over transposed branches, scan into a reverse scan), and batching (a
batched cond predicate becomes a select over all branches, a batched while
predicate a masked loop). `while` supports `linearize`, but not transposition:
its trip count is only known at run time, so reverse mode raises and points to
`scan` or `fori_loop` with static bounds.

The package: `common` (operand and carry checks, tracing the user's functions), `cond` (cond and
switch) and `loops` (while_loop, fori_loop, scan, map), each primitive beside its rules.
"""
from padax.functional.lax.control.cond import cond, cond_p, switch
from padax.functional.lax.control.loops import fori_loop, map, scan, scan_p, while_loop, while_p

__all__ = ["cond", "switch", "while_loop", "fori_loop", "scan", "map"]
