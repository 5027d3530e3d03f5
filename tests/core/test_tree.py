"""Pytrees on jaxlib's C++ registry: padax.tree.*."""
import collections
import dataclasses

import numpy as np
import pytest

import padax


def test_flatten_unflatten_roundtrip():
    tree = {"a": [1, 2, (3, None)], "b": collections.OrderedDict(z=4, y=5)}
    leaves, treedef = padax.tree.flatten(tree)
    assert leaves == [1, 2, 3, 4, 5]
    assert padax.tree.unflatten(treedef, leaves) == tree
    assert padax.tree.structure(tree) == treedef


def test_map_and_leaves():
    out = padax.tree.map(lambda x, y: x + y, {"a": 1, "b": (2, 3)}, {"a": 10, "b": (20, 30)})
    assert out == {"a": 11, "b": (22, 33)}
    assert padax.tree.leaves([{"x": 1}, 2]) == [1, 2]


def test_register_node():
    class Pair:
        def __init__(self, a, b):
            self.a, self.b = a, b

    padax.tree.register_node(Pair, lambda p: ((p.a, p.b), None), lambda aux, ch: Pair(*ch))
    out = padax.tree.map(lambda x: x * 2, Pair(1, [2, 3]))
    assert isinstance(out, Pair) and out.a == 2 and out.b == [4, 6]


def test_register_dataclass_with_static_fields():
    @padax.tree.register_dataclass
    @dataclasses.dataclass
    class Layer:
        w: object
        b: object
        name: str = dataclasses.field(default="lin", metadata={"static": True})

    layer = Layer(np.ones(2), np.zeros(2))
    leaves, treedef = padax.tree.flatten(layer)
    assert len(leaves) == 2
    assert padax.tree.unflatten(treedef, leaves).name == "lin"


def test_register_dataclass_rejects_plain_class():
    class NotDC:
        pass
    with pytest.raises(TypeError, match="not a dataclass"):
        padax.tree.register_dataclass(NotDC)


def test_tensors_are_leaves_and_jit_accepts_registered_nodes():
    @padax.tree.register_dataclass
    @dataclasses.dataclass
    class P:
        w: object

    f = padax.jit(lambda p: P(padax.lax.neg(p.w)))
    out = f(P(padax.device_put(np.ones(2, np.float32))))
    np.testing.assert_allclose(out.w.numpy(), [-1, -1])
