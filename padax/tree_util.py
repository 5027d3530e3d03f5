"""`padax.tree_util`: jax.tree_util's names for padax's pytrees (`padax.tree`).

The functions are padax.tree's under the `tree_*` spellings JAX programs
import (`from padax.tree_util import tree_map`); registration helpers take
jax.tree_util's arguments. Trees registered here are the ones every padax
transform flattens.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Iterable

from padax.runtime import tree as _tree
from padax.runtime.tree import (  # noqa: F401
    DictKey,
    FlattenedIndexKey,
    GetAttrKey,
    PyTreeDef,
    SequenceKey,
    keystr,
    register_dataclass,
    register_static,
)

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
    """Whether `treedef` has a single node (a leaf, or None or an empty container).

    Args:
        treedef: a PyTreeDef.

    Returns:
        True if it is a single node.

    Examples:
        >>> from padax import tree_util
        >>> tree_util.treedef_is_leaf(tree_util.tree_structure(1.0))
        True
        >>> tree_util.treedef_is_leaf(tree_util.tree_structure([1.0, 2.0]))
        False
    """
    return treedef.num_nodes == 1


def treedef_children(treedef: PyTreeDef) -> list[PyTreeDef]:
    """The structures of the root node's children.

    Args:
        treedef: a PyTreeDef.

    Returns:
        A list with one PyTreeDef per child of the root.

    Examples:
        >>> from padax import tree_util
        >>> kids = tree_util.treedef_children(tree_util.tree_structure((1, [2, 3])))
        >>> [k.num_leaves for k in kids]
        [1, 2]
    """
    return list(treedef.children())


def all_leaves(iterable: Iterable[Any], is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """Whether every element of `iterable` is a leaf (a tree of itself alone).

    Args:
        iterable: values to test.
        is_leaf: a predicate that stops flattening at the values it accepts.

    Returns:
        True if every element is a leaf.

    Examples:
        >>> from padax import tree_util
        >>> tree_util.all_leaves([1.0, 'a'])
        True
        >>> tree_util.all_leaves([1.0, (2.0, 3.0)])
        False
    """
    return all(_tree.is_strict_leaf(_tree.structure(x, is_leaf)) for x in iterable)


def is_tree_node(typ: type) -> bool:
    """Whether instances of `typ` are containers (registered nodes) rather than leaves.

    Args:
        typ: a type.

    Returns:
        True if the type is a registered container (list, dict, a registered class, ...).

    Examples:
        >>> from padax import tree_util
        >>> tree_util.is_tree_node(dict), tree_util.is_tree_node(float)
        (True, False)
    """
    return _tree.registry.is_node(typ)


def register_pytree_node(nodetype: type, flatten_func: Callable[[Any], tuple[Iterable[Any], Any]],
                         unflatten_func: Callable[[Any, Iterable[Any]], Any],
                         flatten_with_keys_func: Callable | None = None) -> type:
    """Make `nodetype` a container: flatten_func(x) -> (children, aux), unflatten_func(aux, children) -> x.

    Args:
        nodetype: the class to register.
        flatten_func: `x -> (children, aux_data)`.
        unflatten_func: `(aux_data, children) -> x`.
        flatten_with_keys_func: optional `x -> ((key, child) pairs, aux_data)` for key paths.

    Returns:
        `nodetype`.

    Examples:
        >>> import padax
        >>> from padax import tree_util
        >>> class Pair:
        ...     def __init__(self, a, b):
        ...         self.a, self.b = a, b
        ...
        >>> _ = tree_util.register_pytree_node(Pair, lambda p: ((p.a, p.b), None), lambda aux, kids: Pair(*kids))
        >>> doubled = tree_util.tree_map(lambda x: 2 * x, Pair(1.0, 3.0))
        >>> doubled.a, doubled.b
        (2.0, 6.0)
    """
    return _tree.register_node(nodetype, flatten_func, unflatten_func, flatten_with_keys_func)


def register_pytree_node_class(cls: type) -> type:
    """Class decorator: `cls.tree_flatten(self)` and the classmethod `cls.tree_unflatten(aux, children)`.

    Args:
        cls: a class with `tree_flatten(self)` and a classmethod `tree_unflatten(aux, children)`.

    Returns:
        `cls` (so it works as a decorator).

    Examples:
        >>> from padax import tree_util
        >>> @tree_util.register_pytree_node_class
        ... class Box:
        ...     def __init__(self, value):
        ...         self.value = value
        ...     def tree_flatten(self):
        ...         return (self.value,), None
        ...     @classmethod
        ...     def tree_unflatten(cls, aux, children):
        ...         return cls(*children)
        ...
        >>> tree_util.tree_leaves([Box(1.0), Box(2.0)])
        [1.0, 2.0]
    """
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def register_pytree_with_keys(nodetype: type, flatten_with_keys: Callable[[Any], tuple[Iterable[tuple], Any]],
                              unflatten_func: Callable[[Any, Iterable[Any]], Any],
                              flatten_func: Callable[[Any], tuple[Iterable[Any], Any]] | None = None) -> type:
    """Register a container whose children carry keys: flatten_with_keys(x) -> ((key, child) pairs, aux).

    Args:
        nodetype: the class to register.
        flatten_with_keys: `x -> ((key, child) pairs, aux_data)`.
        unflatten_func: `(aux_data, children) -> x`.
        flatten_func: `x -> (children, aux_data)` (default: derived from flatten_with_keys).

    Returns:
        `nodetype`.

    Examples:
        >>> from padax import tree_util
        >>> class Pair:
        ...     def __init__(self, a, b):
        ...         self.a, self.b = a, b
        ...
        >>> flatten = lambda p: (((tree_util.GetAttrKey('a'), p.a), (tree_util.GetAttrKey('b'), p.b)), None)
        >>> _ = tree_util.register_pytree_with_keys(Pair, flatten, lambda aux, kids: Pair(*kids))
        >>> [tree_util.keystr(path) for path, _ in tree_util.tree_leaves_with_path(Pair(1.0, 2.0))]
        ['.a', '.b']
    """
    if flatten_func is None:
        def flatten_func(x):
            pairs, aux = flatten_with_keys(x)
            return [c for _, c in pairs], aux
    return _tree.register_node(nodetype, flatten_func, unflatten_func, flatten_with_keys)


def register_pytree_with_keys_class(cls: type) -> type:
    """Class decorator: `tree_flatten_with_keys`, classmethod `tree_unflatten` (and optionally `tree_flatten`).

    Args:
        cls: a class with `tree_flatten_with_keys(self)` and a classmethod `tree_unflatten`.

    Returns:
        `cls` (so it works as a decorator).

    Examples:
        >>> from padax import tree_util
        >>> @tree_util.register_pytree_with_keys_class
        ... class Scaled:
        ...     def __init__(self, x, scale):
        ...         self.x, self.scale = x, scale
        ...     def tree_flatten_with_keys(self):
        ...         return ((tree_util.GetAttrKey('x'), self.x),), self.scale
        ...     @classmethod
        ...     def tree_unflatten(cls, scale, children):
        ...         return cls(children[0], scale)
        ...
        >>> [tree_util.keystr(path) for path, _ in tree_util.tree_leaves_with_path(Scaled(1.0, 3))]
        ['.x']
    """
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

    Args:
        func: the function to call.
        *args, **kwargs: the bound arguments (the pytree's leaves).

    Returns:
        The partial function, a pytree whose static part is `func`.

    Examples:
        >>> import padax
        >>> from padax.tree_util import Partial
        >>> add = Partial(padax.add, padax.to_tensor([1.0, 2.0]))
        >>> padax.jit(lambda f, y: f(y))(add, padax.to_tensor([10.0, 20.0])).tolist()
        [11.0, 22.0]
        >>> len(padax.tree_util.tree_leaves(add))
        1
    """

    def __new__(cls, func: Callable, *args: Any, **kwargs: Any):
        if isinstance(func, functools.partial) and not isinstance(func, Partial):
            # functools.partial would merge a plain partial's arguments into ours, turning what the
            # user bound statically into leaves; keep it whole as the function
            func = _StaticCallable(func)
        return super().__new__(cls, func, *args, **kwargs)


register_pytree_node(Partial, lambda p: ((p.args, p.keywords), p.func),
                     lambda func, children: Partial(func, *children[0], **children[1]))
