"""State that pytree nodes (padax.nn's layers) update on the copies a transformation rebuilds.

A transformation flattens its arguments and calls the function on copies rebuilt from tracers. A
layer that updates its state in `forward` (BatchNorm's running statistics, a user's
`self.count = self.count + 1`) does so on the copy. When the function returns, the transformation
carries each such update back to the node that was passed in, lowered to the caller's level (grad:
the primal; vmap: unbatched, or batched along the argument's own mapped axis), so the obvious
training step keeps the state without returning the model.

The node classes live in a higher floor; they install themselves here (`install`):
- `note_assigned(node)` is called by a rebuilt node when a traced value is assigned to its state;
- the installed `pairs(originals, rebuilt, dirty)` walks both argument trees and yields
  `(path, origin, name, value, rebuilt_leaf)` for each state slot a dirty copy changed;
- the installed `write(origin, name, value)` stores the lowered value on the origin, and
  `find(tree, path)` finds the node at `path` in another call's arguments (jit writes each call's
  updates, which its program returns as extra outputs, to that call's nodes); `changed(node)` lists
  a dirty node's changed slots as `(name, value)`.

Loop and branch bodies (scan, while_loop, cond) carry state the other way: the body returns the
layer in its carry or outputs. `check_carried` says so when a body updated a layer's state that
none of its outputs carries, instead of losing it.
"""
from __future__ import annotations

import weakref
from typing import Any, Callable, Iterator

from padax.core.source_info import user_location

_dirty: list = []  # weak references to rebuilt nodes whose state was assigned under a transformation
_hooks: dict[str, Callable[..., Any]] = {}


def install(pairs: Callable[..., Iterator[tuple]], write: Callable[[Any, str, Any], None],
            find: Callable[[Any, tuple], Any], changed: Callable[[Any], list]) -> None:
    _hooks.update(pairs=pairs, write=write, find=find, changed=changed)


def note_assigned(node: Any) -> None:
    """A rebuilt node's state was assigned a traced value (its transformation will carry it back)."""
    _dirty.append(weakref.ref(node))


def mark() -> int:
    """The position to compare with after the function ran (`updates`)."""
    if len(_dirty) > 4096 and all(r() is None for r in _dirty):  # notes left by transformations that carry no
        _dirty.clear()                                              # state back (make_jaxpr, ...): all gone
    return len(_dirty)


def updates(originals: Any, rebuilt: Any, start: int, lower: Callable[[Any, Any, Any, str], Any]) -> list:
    """The state updates made since `start` on the nodes rebuilt from `originals`, as
    `(path, origin, name, lower(value, rebuilt_leaf, origin, name))`; [] (cheaply) when there are none."""
    if len(_dirty) <= start:
        return []
    dirty = {id(n) for n in (r() for r in _dirty[start:]) if n is not None}
    del _dirty[start:]
    if not dirty or "pairs" not in _hooks:
        return []
    return [(p, o, name, lower(v, leaf, o, name)) for p, o, name, v, leaf in _hooks["pairs"](originals, rebuilt, dirty)]


def write(updates: list | None) -> None:
    """Store each lowered update on the node that was passed in."""
    for _, origin, name, value in updates or ():
        _hooks["write"](origin, name, value)


def check_carried(start: int, out_leaves: list, what: str) -> None:
    """Raise if a node rebuilt inside a loop or branch body (`what`) updated its state since `start` and
    no output of the body carries the new value; drop the body's notes either way."""
    if len(_dirty) <= start:
        return
    nodes = [n for n in (r() for r in _dirty[start:]) if n is not None]
    del _dirty[start:]
    out_ids = {id(x) for x in out_leaves}
    for node in nodes:
        for name, value in _hooks["changed"](node):
            if id(value) not in out_ids:
                raise ValueError(
                    f"{what}: {type(node).__name__}.{name} was updated inside the body (a layer's state, such as "
                    f"BatchNorm's running statistics), but no output of the body carries the new value, so it "
                    f"would be lost{user_location()}. Return the layer in the body's carry (or outputs), or call "
                    f"model.eval() first.")


class StateOutputs:
    """A jitted program's output tree when it also returns state updates: the user's tree, then one
    extra output per `(path, name)` in `spec`, written to the nodes of each call's arguments."""

    __slots__ = ("tree", "spec", "n")

    def __init__(self, tree: Any, spec: tuple):
        self.tree, self.spec, self.n = tree, spec, tree.num_leaves

    num_leaves = property(lambda self: self.n + len(self.spec))

    def finish(self, outs: list, args: Any) -> Any:
        """The user's outputs; the state outputs are written to the nodes in `args` (this call's)."""
        for (path, name), value in zip(self.spec, outs[self.n:]):
            _hooks["write"](_hooks["find"](args, path), name, value)
        return self.tree.unflatten(outs[:self.n])


def unflatten_outputs(out_tree: Any, outs: list, args: Any) -> Any:
    """`out_tree.unflatten(outs)`, writing the state outputs back when there are any (StateOutputs)."""
    if type(out_tree) is StateOutputs:
        return out_tree.finish(list(outs), args)
    return out_tree.unflatten(outs)


__all__ = ["install", "note_assigned", "mark", "updates", "write", "check_carried", "StateOutputs",
           "unflatten_outputs"]
