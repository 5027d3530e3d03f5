"""`padax.tree_util`: jax.tree_util's names for padax's pytrees (`padax.tree`).

The functions are padax.tree's under the `tree_*` spellings JAX programs
import (`from padax.tree_util import tree_map`); registration helpers take
jax.tree_util's arguments. Trees registered here are the ones every padax
transform flattens.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Iterable

from padax.core import tree as _tree
from padax.core.tree import (DictKey, FlattenedIndexKey, GetAttrKey, PyTreeDef, SequenceKey,  # noqa: F401
                             keystr, register_dataclass, register_static)

tree_flatten = _tree.flatten
tree_unflatten = _tree.unflatten
tree_leaves = _tree.leaves
tree_structure = _tree.structure
tree_map = _tree.map
tree_flatten_with_path = _tree.flatten_with_path
tree_leaves_with_path = _tree.leaves_with_path
tree_map_with_path = _tree.map_with_path
tree_all = _tree.all
tree_reduce = _tree.reduce
tree_reduce_associative = _tree.reduce_associative
tree_transpose = _tree.transpose
tree_broadcast = _tree.broadcast
treedef_tuple = _tree.tuple_treedef
treedef_is_strict_leaf = _tree.is_strict_leaf
KeyEntry = Any
KeyPath = tuple


def treedef_is_leaf(treedef: PyTreeDef) -> bool:
    """Whether `treedef` has a single node (a leaf, or None or an empty container)."""
    return treedef.num_nodes == 1


def treedef_children(treedef: PyTreeDef) -> list[PyTreeDef]:
    """The structures of the root node's children."""
    return list(treedef.children())


def all_leaves(iterable: Iterable[Any], is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """Whether every element of `iterable` is a leaf (a tree of itself alone)."""
    return all(_tree.is_strict_leaf(_tree.structure(x, is_leaf)) for x in iterable)


def is_tree_node(typ: type) -> bool:
    """Whether instances of `typ` are containers (registered nodes) rather than leaves."""
    return _tree.registry.is_node(typ)


def register_pytree_node(nodetype: type, flatten_func: Callable[[Any], tuple[Iterable[Any], Any]],
                         unflatten_func: Callable[[Any, Iterable[Any]], Any],
                         flatten_with_keys_func: Callable | None = None) -> type:
    """Make `nodetype` a container: flatten_func(x) -> (children, aux), unflatten_func(aux, children) -> x."""
    return _tree.register_node(nodetype, flatten_func, unflatten_func, flatten_with_keys_func)


def register_pytree_node_class(cls: type) -> type:
    """Class decorator: `cls.tree_flatten(self)` and the classmethod `cls.tree_unflatten(aux, children)`."""
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def register_pytree_with_keys(nodetype: type, flatten_with_keys: Callable[[Any], tuple[Iterable[tuple], Any]],
                              unflatten_func: Callable[[Any, Iterable[Any]], Any],
                              flatten_func: Callable[[Any], tuple[Iterable[Any], Any]] | None = None) -> type:
    """Register a container whose children carry keys: flatten_with_keys(x) -> ((key, child) pairs, aux)."""
    if flatten_func is None:
        def flatten_func(x):
            pairs, aux = flatten_with_keys(x)
            return [c for _, c in pairs], aux
    return _tree.register_node(nodetype, flatten_func, unflatten_func, flatten_with_keys)


def register_pytree_with_keys_class(cls: type) -> type:
    """Class decorator: `tree_flatten_with_keys`, classmethod `tree_unflatten` (and optionally `tree_flatten`)."""
    flatten = (lambda x: x.tree_flatten()) if hasattr(cls, "tree_flatten") else None
    register_pytree_with_keys(cls, lambda x: x.tree_flatten_with_keys(), cls.tree_unflatten, flatten)
    return cls


class _StaticCallable:
    """A functools.partial kept whole as a Partial's function (compared and hashed by identity)."""

    __slots__ = ("fun",)

    def __init__(self, fun: Callable):
        self.fun = fun

    def __call__(self, *args, **kwargs):
        return self.fun(*args, **kwargs)


class Partial(functools.partial):
    """functools.partial that is a pytree: the bound arguments are its leaves, the function is static.

    So a function with bound arrays can be passed into and returned from `jit`, `vmap`, `grad`.
    """

    def __new__(cls, func: Callable, *args: Any, **kwargs: Any):
        if isinstance(func, functools.partial) and not isinstance(func, Partial):
            # functools.partial would merge a plain partial's arguments into ours, turning what the
            # user bound statically into leaves; keep it whole as the function
            func = _StaticCallable(func)
        return super().__new__(cls, func, *args, **kwargs)


register_pytree_node(Partial, lambda p: ((p.args, p.keywords), p.func),
                     lambda func, children: Partial(func, *children[0], **children[1]))
