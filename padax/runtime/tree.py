"""Pytrees: nested containers of arrays, flattened by jaxlib's C++ registry.

padax keeps its own registry (not jax's default one), so registering a
class with padax never interferes with jax in the same process.
`padax.tree.map/leaves/flatten/unflatten/structure/register_node/
register_dataclass` are the public names (jax.tree's); `padax.tree_util` has
jax.tree_util's spellings of the same functions.
"""
from __future__ import annotations

import collections
import dataclasses
import functools
import sys
from typing import Any, Callable, Iterable

from padax.runtime import _jaxlib

registry = _jaxlib.new_pytree_registry()
# The same containers, plus padax.Tensor as a node over its device buffer: the C++ jit
# dispatcher flattens arguments with it, so cached calls reach device buffers without Python.
dispatch_registry = _jaxlib.new_pytree_registry()
_registries = (registry, dispatch_registry)
PyTreeDef = _jaxlib.PyTreeDef
DictKey, SequenceKey, GetAttrKey = _jaxlib.DictKey, _jaxlib.SequenceKey, _jaxlib.GetAttrKey
FlattenedIndexKey = _jaxlib.FlattenedIndexKey


def too_deep(e: BaseException) -> BaseException:
    """For a failed flatten/unflatten: a clear RecursionError when the tree is nested deeper than
    Python's recursion limit (or contains itself), instead of nanobind's SystemError; else `e`."""
    cause = e if isinstance(e, RecursionError) else e.__cause__
    if not isinstance(cause, RecursionError) or "PyTree" not in str(cause):  # (jaxlib's text: "... in flatten;
        return e                                                               # PyTree may have cyclical ...")
    return RecursionError(
        f"pytree: nested deeper than Python's recursion limit ({sys.getrecursionlimit()} levels), or a container "
        "that contains itself. padax walks pytrees recursively: flatten the structure (a list of leaves, a "
        "dict of arrays), or raise the limit with sys.setrecursionlimit (depths up to a few thousand are safe)")


def flatten(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> tuple[list[Any], PyTreeDef]:
    """The leaves of `tree` (left to right) and its structure (`tree_util.tree_flatten`).

    Args:
        tree: a pytree: nested lists, tuples, dicts (by sorted key), None, registered classes.
        is_leaf: a predicate that stops the descent where it is true.

    Returns:
        (leaves, treedef).

    Examples:
        >>> import padax
        >>> padax.tree.flatten({'a': 1, 'b': (2, 3)})
        ([1, 2, 3], PyTreeDef({'a': *, 'b': (*, *)}))
    """
    try:
        return registry.flatten(tree, is_leaf)
    except (SystemError, RecursionError) as e:
        raise too_deep(e) from None


def unflatten(treedef: PyTreeDef, leaves: Iterable[Any]) -> Any:
    """Rebuild a tree of `treedef`'s structure from `leaves` (`tree_util.tree_unflatten`).

    Args:
        treedef: a structure from `flatten` or `structure`.
        leaves: treedef.num_leaves values.

    Returns:
        The tree.

    Examples:
        >>> import padax
        >>> _, treedef = padax.tree.flatten({'a': 1, 'b': (2, 3)})
        >>> padax.tree.unflatten(treedef, [10, 20, 30])
        {'a': 10, 'b': (20, 30)}
    """
    try:
        return treedef.unflatten(leaves)
    except (SystemError, RecursionError) as e:
        raise too_deep(e) from None


def leaves(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> list[Any]:
    """The leaves of `tree`, left to right (None is an empty node, not a leaf) (`tree_util.tree_leaves`).

    Args:
        tree: a pytree.
        is_leaf: a predicate that stops the descent where it is true.

    Returns:
        A list.

    Examples:
        >>> import padax
        >>> padax.tree.leaves([1, None, {'b': 3, 'a': 2}])
        [1, 2, 3]
    """
    try:
        return registry.flatten(tree, is_leaf)[0]
    except (SystemError, RecursionError) as e:
        raise too_deep(e) from None


def structure(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> PyTreeDef:
    """The structure of `tree`, without its leaves (`tree_util.tree_structure`).

    Args:
        tree: a pytree.
        is_leaf: a predicate that stops the descent where it is true.

    Returns:
        A PyTreeDef.

    Examples:
        >>> import padax
        >>> padax.tree.structure([1, None, (2,)])
        PyTreeDef([*, None, (*,)])
    """
    try:
        return registry.flatten(tree, is_leaf)[1]
    except (SystemError, RecursionError) as e:
        raise too_deep(e) from None


def map(f: Callable[..., Any], tree: Any, *rest: Any, is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """Apply `f` leaf-wise (`tree_util.tree_map`).

    Args:
        f: called with one leaf of `tree` and the matching leaf of each of `rest`.
        tree: a pytree.
        rest: trees with the structure of `tree` (or deeper: their subtrees go to `f` whole).
        is_leaf: a predicate that stops the descent where it is true.

    Returns:
        A tree of `tree`'s structure holding f's results.

    Examples:
        >>> import padax
        >>> padax.tree.map(lambda x, y: x + y, {'a': 1, 'b': 2}, {'a': 10, 'b': 20})
        {'a': 11, 'b': 22}
    """
    xs, treedef = flatten(tree, is_leaf)
    others = [treedef.flatten_up_to(r) for r in rest]
    return unflatten(treedef, [f(*args) for args in zip(xs, *others)])


def _path_predicate(is_leaf, takes_path: bool):
    """jaxlib's path-flattening predicate takes (path, x); `is_leaf` takes x unless `takes_path`."""
    if is_leaf is None or takes_path:
        return is_leaf
    return lambda _, x: is_leaf(x)


def flatten_with_path(tree: Any, is_leaf: Callable[..., bool] | None = None,
                      is_leaf_takes_path: bool = False) -> tuple[list[tuple[tuple, Any]], PyTreeDef]:
    """(path, leaf) pairs and the structure (`tree_util.tree_flatten_with_path`).

    A path is a tuple of DictKey / SequenceKey / GetAttrKey / FlattenedIndexKey entries.

    Args:
        tree: a pytree.
        is_leaf: a predicate that stops the descent where it is true.
        is_leaf_takes_path: `is_leaf` is called as is_leaf(path, x).

    Returns:
        (pairs, treedef).

    Examples:
        >>> import padax
        >>> pairs, treedef = padax.tree.flatten_with_path({'w': [1, 2]})
        >>> pairs
        [((DictKey(key='w'), SequenceKey(idx=0)), 1), ((DictKey(key='w'), SequenceKey(idx=1)), 2)]
        >>> treedef
        PyTreeDef({'w': [*, *]})
    """
    try:
        return registry.flatten_with_path(tree, _path_predicate(is_leaf, is_leaf_takes_path))
    except (SystemError, RecursionError) as e:
        raise too_deep(e) from None


def leaves_with_path(tree: Any, is_leaf: Callable[..., bool] | None = None,
                     is_leaf_takes_path: bool = False) -> list[tuple[tuple, Any]]:
    """(path, leaf) pairs of `tree` (`tree_util.tree_leaves_with_path`).

    Args:
        tree: a pytree.
        is_leaf: a predicate that stops the descent where it is true.
        is_leaf_takes_path: `is_leaf` is called as is_leaf(path, x).

    Returns:
        A list of (path, leaf).

    Examples:
        >>> import padax
        >>> [(padax.tree.keystr(p), x) for p, x in padax.tree.leaves_with_path({'w': [1, 2]})]
        [("['w'][0]", 1), ("['w'][1]", 2)]
    """
    return flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


def map_with_path(f: Callable[..., Any], tree: Any, *rest: Any, is_leaf: Callable[..., bool] | None = None,
                  is_leaf_takes_path: bool = False) -> Any:
    """`map` whose `f` also receives each leaf's path first (`tree_util.tree_map_with_path`).

    Args:
        f: called as f(path, leaf, *matching leaves of rest).
        tree: a pytree.
        rest: trees with the structure of `tree`.
        is_leaf: a predicate that stops the descent where it is true.
        is_leaf_takes_path: `is_leaf` is called as is_leaf(path, x).

    Returns:
        A tree of `tree`'s structure holding f's results.

    Examples:
        >>> import padax
        >>> padax.tree.map_with_path(lambda p, x: f"{padax.tree.keystr(p)}={x}", {'w': [1, 2]})
        {'w': ["['w'][0]=1", "['w'][1]=2"]}
    """
    pairs, treedef = flatten_with_path(tree, is_leaf, is_leaf_takes_path)
    others = [treedef.flatten_up_to(r) for r in rest]
    return treedef.unflatten(f(p, x, *r) for (p, x), *r in zip(pairs, *others))


def keystr(path: tuple, *, simple: bool = False, separator: str = "") -> str:
    """A readable tree path such as `['params'][0].weight` (`tree_util.keystr`).

    Args:
        path: a tuple of key entries, from `flatten_with_path`.
        simple: write bare keys (`params`, `0`, `weight`) instead.
        separator: joins the entries.

    Returns:
        A string.

    Examples:
        >>> import padax
        >>> path = padax.tree.leaves_with_path({'params': [{'w': 1}]})[0][0]
        >>> padax.tree.keystr(path), padax.tree.keystr(path, simple=True, separator='/')
        ("['params'][0]['w']", 'params/0/w')
    """
    def simple_str(k):
        if isinstance(k, (DictKey, FlattenedIndexKey)):
            return str(k.key)
        if isinstance(k, SequenceKey):
            return str(k.idx)
        return str(k.name) if isinstance(k, GetAttrKey) else str(k)
    to_str = simple_str if simple else str
    return separator.join(to_str(k) for k in path)


def all(tree: Any, *, is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """Whether every leaf is truthy (`tree_util.tree_all`).

    Args:
        tree: a pytree.
        is_leaf: a predicate that stops the descent where it is true.

    Returns:
        A bool.

    Examples:
        >>> import padax
        >>> padax.tree.all([True, (1, 2)]), padax.tree.all({'a': True, 'b': 0})
        (True, False)
    """
    return builtins_all(leaves(tree, is_leaf))


def reduce(f: Callable[[Any, Any], Any], tree: Any, initializer: Any = ...,
           is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """functools.reduce over the leaves (`tree_util.tree_reduce`).

    Args:
        f: f(accumulated, leaf).
        tree: a pytree.
        initializer: the start value (default: the first leaf).
        is_leaf: a predicate that stops the descent where it is true.

    Returns:
        The reduction.

    Examples:
        >>> import padax
        >>> padax.tree.reduce(lambda a, b: a + b, [1, (2, 3)]), padax.tree.reduce(max, [], 0)
        (6, 0)
    """
    xs = leaves(tree, is_leaf)
    return functools.reduce(f, xs) if initializer is ... else functools.reduce(f, xs, initializer)


def reduce_associative(op: Callable[[Any, Any], Any], tree: Any, *, identity: Any = ...,
                       is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """Reduce the leaves pairwise as a balanced tree (`op` must be associative) (`tree_util.tree_reduce_associative`).

    Args:
        op: op(a, b), associative.
        tree: a pytree.
        identity: returned for a tree without leaves.
        is_leaf: a predicate that stops the descent where it is true.

    Returns:
        The reduction.

    Examples:
        >>> import padax
        >>> add = lambda a, b: a + b
        >>> padax.tree.reduce_associative(add, [1, 2, (3, 4)]), padax.tree.reduce_associative(add, [], identity=0)
        (10, 0)
    """
    def halve(xs):
        if len(xs) == 1:
            return xs[0]
        mid = len(xs) // 2
        return op(halve(xs[:mid]), halve(xs[mid:]))
    xs = leaves(tree, is_leaf)
    if not xs:
        if identity is ...:
            raise TypeError("tree reduce_associative: an empty tree needs identity=")
        return identity
    return halve(xs)


def transpose(outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None, pytree_to_transpose: Any) -> Any:
    """Turn a tree-of-trees (outer of inner) into inner of outer (`tree_util.tree_transpose`).

    Args:
        outer_treedef: the outer structure.
        inner_treedef: the inner structure (None: read it from the first subtree).
        pytree_to_transpose: a tree of `outer_treedef`'s structure whose subtrees have the inner one.

    Returns:
        A tree of the inner structure whose subtrees have the outer one.

    Examples:
        >>> import padax
        >>> outer, inner = padax.tree.structure([0, 0]), padax.tree.structure((0, 0))
        >>> padax.tree.transpose(outer, inner, [(1, 2), (3, 4)])
        ([1, 3], [2, 4])
    """
    outer, inner, tree = outer_treedef, inner_treedef, pytree_to_transpose
    flat = outer.flatten_up_to(tree)
    if inner is None:
        inner = structure(flat[0])
    if len(leaves(tree)) != outer.num_leaves * inner.num_leaves:
        raise TypeError(f"tree transpose: the tree does not have the structure {outer.compose(inner)}; "
                        f"got {structure(tree)}")
    inner_leaves = [inner.flatten_up_to(x) for x in flat]
    columns = [outer.unflatten(col) for col in zip(*inner_leaves)]
    return inner.unflatten(columns)


def broadcast(prefix_tree: Any, full_tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """`full_tree`'s structure with each leaf of `prefix_tree` repeated over the subtree it stands for
    (`tree_util.tree_broadcast`).

    Args:
        prefix_tree: a tree whose structure is a prefix of full_tree's.
        full_tree: the tree giving the result's structure.
        is_leaf: a predicate that stops the descent where it is true.

    Returns:
        A tree of full_tree's structure.

    Examples:
        >>> import padax
        >>> padax.tree.broadcast([1, 2], [(0, 0), {'x': 0}])
        [(1, 1), {'x': 2}]
    """
    out: list = []
    map(lambda x, sub: out.extend([x] * structure(sub).num_leaves), prefix_tree, full_tree, is_leaf=is_leaf)
    return structure(full_tree).unflatten(out)


def is_strict_leaf(treedef: PyTreeDef) -> bool:
    """Whether `treedef` is one leaf (not None, not an empty container) (`tree_util.treedef_is_strict_leaf`).

    Args:
        treedef: a PyTreeDef.

    Returns:
        A bool.

    Examples:
        >>> import padax
        >>> padax.tree.is_strict_leaf(padax.tree.structure(1.0)), padax.tree.is_strict_leaf(padax.tree.structure(None))
        (True, False)
    """
    return treedef.num_nodes == 1 and treedef.num_leaves == 1


def tuple_treedef(treedefs: Iterable[PyTreeDef]) -> PyTreeDef:
    """The structure of a tuple whose children have `treedefs` (`tree_util.treedef_tuple`).

    Args:
        treedefs: the children's structures.

    Returns:
        A PyTreeDef.

    Examples:
        >>> import padax
        >>> padax.tree.tuple_treedef([padax.tree.structure(1), padax.tree.structure([1, 2])])
        PyTreeDef((*, [*, *]))
    """
    return _jaxlib.pytree_treedef_tuple(registry, treedefs)


def register_node(cls: type, flatten_fn: Callable[[Any], tuple[Iterable[Any], Any]],
                  unflatten_fn: Callable[[Any, Iterable[Any]], Any],
                  flatten_with_keys_fn: Callable[[Any], tuple[Iterable[tuple[Any, Any]], Any]] | None = None
                  ) -> type:
    """Register a container type: flatten(x) -> (children, aux); unflatten(aux, children) -> x.

    `flatten_with_keys_fn(x) -> ((key, child) pairs, aux)` names the children in tree paths
    (without it they are FlattenedIndexKey(i)).
    """
    for r in _registries:
        r.register_node(cls, flatten_fn, unflatten_fn, flatten_with_keys_fn)
    return cls


def register_dataclass(cls: type | None = None, data_fields: Iterable[str] | None = None,
                       meta_fields: Iterable[str] | None = None, drop_fields: Iterable[str] = ()):
    """Register a dataclass whose `data_fields` are children and `meta_fields` static (`tree_util.register_dataclass`).

    With no field lists, fields marked `field(metadata={"static": True})` are meta;
    `drop_fields` are left out of both (fields the constructor does not take).
    Usable as a decorator.

    Args:
        cls: the class (omit it to get a decorator).
        data_fields: the fields that are children (arrays, subtrees).
        meta_fields: the fields that are part of the structure (hashable).
        drop_fields: fields left out of both.

    Returns:
        `cls` (or the decorator).

    Examples:
        >>> import dataclasses, padax
        >>> @padax.tree.register_dataclass
        ... @dataclasses.dataclass
        ... class Params:
        ...     w: float
        ...     name: str = dataclasses.field(default='p', metadata={'static': True})
        >>> padax.tree.leaves(Params(1.0)), padax.tree.map(lambda x: x * 2, Params(1.0))
        ([1.0], Params(w=2.0, name='p'))
    """
    def wrap(c: type) -> type:
        if data_fields is None and meta_fields is None:
            if not dataclasses.is_dataclass(c):
                raise TypeError(f"register_dataclass: {c.__name__} is not a dataclass; "
                                "pass data_fields= and meta_fields=")
            fs = [f for f in dataclasses.fields(c) if f.name not in set(drop_fields)]
            meta = [f.name for f in fs if f.metadata.get("static", False)]
            data = [f.name for f in fs if not f.metadata.get("static", False)]
        else:
            data, meta = list(data_fields or ()), list(meta_fields or ())
        for r in _registries:
            r.register_dataclass_node(c, data, meta)
        return c
    return wrap if cls is None else wrap(cls)


def register_static(cls: type) -> type:
    """Register a type with no children: its (hashable) value is part of the tree structure
    (`tree_util.register_static`).

    Args:
        cls: the type.

    Returns:
        `cls`, so it works as a decorator.

    Examples:
        >>> import padax
        >>> @padax.tree.register_static
        ... class Tag(str):
        ...     pass
        >>> padax.tree.leaves([Tag('red'), 1.0])
        [1.0]
    """
    return register_node(cls, lambda x: ((), x), lambda aux, _: aux)


builtins_all = __builtins__["all"] if isinstance(__builtins__, dict) else __builtins__.all

register_node(collections.OrderedDict,
              lambda d: (tuple(d.values()), tuple(d.keys())),
              lambda keys, vals: collections.OrderedDict(zip(keys, vals)),
              lambda d: (tuple((DictKey(k), v) for k, v in d.items()), tuple(d.keys())))
register_node(collections.defaultdict,
              lambda d: (tuple(d[k] for k in sorted(d)), (d.default_factory, tuple(sorted(d)))),
              lambda aux, vals: collections.defaultdict(aux[0], zip(aux[1], vals)),
              lambda d: (tuple((DictKey(k), d[k]) for k in sorted(d)), (d.default_factory, tuple(sorted(d)))))
