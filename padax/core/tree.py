"""Pytrees: nested containers of arrays, flattened by jaxlib's C++ registry.

padax keeps its own registry (not jax's default one), so registering a
class with padax never interferes with jax in the same process.
`padax.tree.map/leaves/flatten/unflatten/structure/register_node/
register_dataclass` are the public names.
"""
from __future__ import annotations

import collections
import dataclasses
import functools
from typing import Any, Callable, Iterable

from padax.devices import _jaxlib

registry = _jaxlib.new_pytree_registry()
# The same containers, plus padax.Tensor as a node over its device buffer: the C++ jit
# dispatcher flattens arguments with it, so cached calls reach device buffers without Python.
dispatch_registry = _jaxlib.new_pytree_registry()
_registries = (registry, dispatch_registry)
PyTreeDef = _jaxlib.PyTreeDef


def flatten(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> tuple[list[Any], PyTreeDef]:
    return registry.flatten(tree, is_leaf)


def unflatten(treedef: PyTreeDef, leaves: Iterable[Any]) -> Any:
    return treedef.unflatten(leaves)


def leaves(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> list[Any]:
    return registry.flatten(tree, is_leaf)[0]


def structure(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> PyTreeDef:
    return registry.flatten(tree, is_leaf)[1]


def map(f: Callable[..., Any], tree: Any, *rest: Any, is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """Apply `f` leaf-wise; `rest` trees must have the structure of `tree` (or be deeper)."""
    xs, treedef = registry.flatten(tree, is_leaf)
    others = [treedef.flatten_up_to(r) for r in rest]
    return treedef.unflatten(f(*args) for args in zip(xs, *others))


def flatten_with_path(tree: Any, is_leaf=None):
    return registry.flatten_with_path(tree, is_leaf)


def map_with_path(f: Callable[..., Any], tree: Any, *rest: Any, is_leaf=None) -> Any:
    pairs, treedef = registry.flatten_with_path(tree, is_leaf)
    others = [treedef.flatten_up_to(r) for r in rest]
    return treedef.unflatten(f(p, x, *r) for (p, x), *r in zip(pairs, *others))


def keystr(path: tuple) -> str:
    """A readable tree path such as `['params'][0].weight`."""
    out = []
    for k in path:
        if hasattr(k, "key"):
            out.append(f"[{k.key!r}]")
        elif hasattr(k, "idx"):
            out.append(f"[{k.idx}]")
        elif hasattr(k, "name"):
            out.append(f".{k.name}")
        else:
            out.append(str(k))
    return "".join(out)


def all(tree: Any) -> bool:
    return builtins_all(leaves(tree))


def reduce(f: Callable[[Any, Any], Any], tree: Any, initializer: Any = ...) -> Any:
    xs = leaves(tree)
    return functools.reduce(f, xs) if initializer is ... else functools.reduce(f, xs, initializer)


def transpose(outer: PyTreeDef, inner: PyTreeDef, tree: Any) -> Any:
    """Turn a tree-of-trees (outer of inner) into inner of outer."""
    flat = outer.flatten_up_to(tree)
    inner_leaves = [inner.flatten_up_to(x) for x in flat]
    columns = [outer.unflatten(col) for col in zip(*inner_leaves)]
    return inner.unflatten(columns)


def tuple_treedef(treedefs: Iterable[PyTreeDef]) -> PyTreeDef:
    return _jaxlib.pytree_treedef_tuple(registry, treedefs)


def register_node(cls: type, flatten_fn: Callable[[Any], tuple[Iterable[Any], Any]],
                  unflatten_fn: Callable[[Any, Iterable[Any]], Any],
                  flatten_with_keys_fn: Callable[[Any], tuple[Iterable[tuple[Any, Any]], Any]] | None = None
                  ) -> type:
    """Register a container type: flatten(x) -> (children, aux); unflatten(aux, children) -> x.

    `flatten_with_keys_fn(x) -> ([(key, child), ...], aux)` names the children in
    `flatten_with_path` (e.g. with `GetAttrKey`); without it they are numbered.
    """
    for r in _registries:
        if flatten_with_keys_fn is None:
            r.register_node(cls, flatten_fn, unflatten_fn)
        else:
            r.register_node(cls, flatten_fn, unflatten_fn, flatten_with_keys_fn)
    return cls


class GetAttrKey:
    """A path entry naming an attribute (`.name` in `keystr`)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, GetAttrKey) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("GetAttrKey", self.name))

    def __repr__(self) -> str:
        return f"GetAttrKey({self.name!r})"

    def __str__(self) -> str:
        return f".{self.name}"


def register_dataclass(cls: type | None = None, *, data_fields: Iterable[str] | None = None,
                       meta_fields: Iterable[str] | None = None):
    """Register a dataclass whose `data_fields` are children and `meta_fields` static.

    With no field lists, fields marked `field(metadata={"static": True})` are meta.
    """
    def wrap(c: type) -> type:
        if data_fields is None and meta_fields is None:
            if not dataclasses.is_dataclass(c):
                raise TypeError(f"register_dataclass: {c.__name__} is not a dataclass; "
                                "pass data_fields= and meta_fields=")
            fs = dataclasses.fields(c)
            meta = [f.name for f in fs if f.metadata.get("static", False)]
            data = [f.name for f in fs if not f.metadata.get("static", False)]
        else:
            data, meta = list(data_fields or ()), list(meta_fields or ())
        for r in _registries:
            r.register_dataclass_node(c, data, meta)
        return c
    return wrap if cls is None else wrap(cls)


def register_static(cls: type) -> type:
    """Register a type with no children (its value is part of the tree structure)."""
    return register_node(cls, lambda x: ((), x), lambda aux, _: aux)


builtins_all = __builtins__["all"] if isinstance(__builtins__, dict) else __builtins__.all

register_node(collections.OrderedDict,
                       lambda d: (tuple(d.values()), tuple(d.keys())),
                       lambda keys, vals: collections.OrderedDict(zip(keys, vals)))
register_node(collections.defaultdict,
                       lambda d: (tuple(d[k] for k in sorted(d)), (d.default_factory, tuple(sorted(d)))),
                       lambda aux, vals: collections.defaultdict(aux[0], zip(aux[1], vals)))
