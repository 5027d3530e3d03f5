"""How a Layer is a pytree: parameters, buffers and sublayers are children; everything else is static.

The static part (class, attribute values, names of children, parameter metadata, the
training flag) goes into the tree's aux data, which compares by value: two models
built the same way have equal tree structure (jit reuses its program, an ensemble can
be stacked), and changing a static attribute retraces. The aux is computed once and
cached on the layer until an attribute assignment invalidates it.
"""
from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from padax import tree as tree_util
from padax.core.trace import EvalTrace, current_trace

# Entries of a Layer's __dict__ that are not static configuration.
INTERNAL = frozenset({"_parameters", "_param_info", "_buffers", "_non_persistable", "_sub_layers",
                      "_full_name", "_aux", "_home", "_rebuilt"})


class Aux:
    """A layer's static data; equality and hash ignore names (Paddle's unique parameter names)."""

    __slots__ = ("cls", "param_names", "infos", "buffer_names", "non_persistable", "sub_names", "static",
                 "full_name", "key", "hash", "base", "n_p", "n_pb")

    def __init__(self, layer: Any):
        d = layer.__dict__
        self.cls = type(layer)
        self.param_names = tuple(d["_parameters"])
        self.infos = tuple(d["_param_info"][n] for n in self.param_names)
        self.buffer_names = tuple(d["_buffers"])
        self.non_persistable = frozenset(d["_non_persistable"])
        self.sub_names = tuple(d["_sub_layers"])
        self.static = {k: v for k, v in d.items() if k not in INTERNAL}
        self.full_name = d.get("_full_name")
        static_key = tuple(sorted((k, hashable(v)) for k, v in self.static.items()))
        self.key = (self.cls, self.param_names, self.infos, self.buffer_names, self.non_persistable,
                    self.sub_names, static_key)
        self.hash = hash(self.key)
        # what unflatten starts a rebuilt layer's __dict__ from (one dict copy per layer)
        self.base = {**self.static, "_full_name": self.full_name, "_aux": self,
                     "_param_info": dict(zip(self.param_names, self.infos))}
        self.n_p = len(self.param_names)
        self.n_pb = self.n_p + len(self.buffer_names)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Aux) and self.hash == other.hash and self.key == other.key

    def __hash__(self) -> int:
        return self.hash

    def __repr__(self) -> str:
        return self.cls.__name__


class _ById:
    """An unhashable static value, compared by identity."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any):
        self.obj = obj

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _ById) and other.obj is self.obj

    def __hash__(self) -> int:
        return id(self.obj)


def hashable(v: Any) -> Any:
    """A value-comparable, hashable stand-in for a static attribute."""
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, tuple(hashable(x) for x in v))
    if isinstance(v, dict):
        return ("dict", tuple((k, hashable(x)) for k, x in v.items()))
    if isinstance(v, (set, frozenset)):
        return ("set", frozenset(hashable(x) for x in v))
    if isinstance(v, np.ndarray):
        return ("ndarray", v.shape, str(v.dtype), v.tobytes())
    try:
        hash(v)
    except TypeError:
        return _ById(v)
    return v


def flatten(layer: Any) -> tuple[tuple, Aux]:
    d = layer.__dict__
    aux = d.get("_aux")
    if aux is None:
        aux = d["_aux"] = Aux(layer)
    return (*d["_parameters"].values(), *d["_buffers"].values(), *d["_sub_layers"].values()), aux


def flatten_with_keys(layer: Any) -> tuple[list, Aux]:
    children, aux = flatten(layer)
    names = aux.param_names + aux.buffer_names + aux.sub_names
    return [(tree_util.GetAttrKey(n), c) for n, c in zip(names, children)], aux


def unflatten(aux: Aux, children: Any) -> Any:
    children = tuple(children)
    obj = object.__new__(aux.cls)
    d = aux.base.copy()
    d["_param_info"] = d["_param_info"].copy()
    d["_parameters"] = dict(zip(aux.param_names, children[:aux.n_p]))
    d["_buffers"] = dict(zip(aux.buffer_names, children[aux.n_p:aux.n_pb]))
    d["_non_persistable"] = set(aux.non_persistable)
    d["_sub_layers"] = dict(zip(aux.sub_names, children[aux.n_pb:]))
    trace = current_trace()
    d["_home"] = weakref.ref(trace)
    if type(trace) is not EvalTrace:  # a transformation's copy: what it was rebuilt from (see state_pairs)
        d["_rebuilt"] = (aux, children)
    object.__setattr__(obj, "__dict__", d)
    return obj


def state_pairs(originals: Any, rebuilt: Any, dirty: set):
    """For padax.core.node_state: `(path, origin, name, value, rebuilt_leaf)` for every parameter
    or buffer that a dirty copy among `rebuilt` (a transformation's rebuilt arguments) changed, with the
    layer of `originals` (the arguments passed in) that the copy stands for and its path there (the
    index among the outermost layers, then sublayer names: see `find_layer`)."""
    is_layer = lambda x: type(x) in _registered
    stack = [((i,), o, r) for i, (o, r) in enumerate(zip(tree_util.leaves(originals, is_leaf=is_layer),
                                                         tree_util.leaves(rebuilt, is_leaf=is_layer)))
             if type(o) in _registered and type(r) in _registered]
    while stack:
        path, o, r = stack.pop()
        rd = r.__dict__
        if id(r) in dirty:
            for n, cur, leaf in _changed(rd):
                yield path, o, n, cur, leaf
        osubs = o.__dict__["_sub_layers"]
        stack.extend((path + (n,), osubs[n], sub) for n, sub in rd["_sub_layers"].items()
                     if type(sub) in _registered and type(osubs.get(n)) in _registered)


def _changed(rd: dict):
    """(name, value, rebuilt leaf) of each parameter or buffer of a rebuilt layer assigned since its rebuild."""
    if "_rebuilt" not in rd:
        return
    aux, children = rd["_rebuilt"]
    for i, n in enumerate(aux.param_names + aux.buffer_names):
        cur = (rd["_parameters"] if i < aux.n_p else rd["_buffers"]).get(n)
        if cur is not children[i]:
            yield n, cur, children[i]


def changed_slots(layer: Any) -> list:
    """For padax.core.node_state: `(name, value)` of each slot a rebuilt layer changed."""
    return [(n, v) for n, v, _ in _changed(layer.__dict__)]


def find_layer(tree: Any, path: tuple) -> Any:
    """The layer at `path` (from `state_pairs`) in another call's arguments of the same structure."""
    layer = [x for x in tree_util.leaves(tree, is_leaf=lambda x: type(x) in _registered)
             if type(x) in _registered][path[0]]
    for n in path[1:]:
        layer = layer.__dict__["_sub_layers"][n]
    return layer


_registered: set = set()


def register(cls: type) -> None:
    tree_util.register_node(cls, flatten, unflatten, flatten_with_keys)
    _registered.add(cls)
