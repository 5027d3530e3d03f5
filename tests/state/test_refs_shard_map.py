"""Refs inside shard_map bodies: a body's own refs are discharged with it; a Ref from outside is refused
with a message that says how to pass the state instead."""
import numpy as np
import pytest

import padax
from padax.sharding import Mesh, PartitionSpec as P


def _mesh():
    return Mesh(np.array(padax.devices()[:1]), ("x",))


def _body(x):
    r = padax.new_ref(padax.zeros_like(x))
    r[...] += x * 2
    r[0] = -1.0
    return padax.freeze(r)


@pytest.mark.parametrize("jit", [False, True])
def test_a_body_makes_and_uses_its_own_ref(jit):
    f = padax.shard_map(_body, mesh=_mesh(), in_specs=P("x"), out_specs=P("x"))
    f = padax.jit(f) if jit else f
    np.testing.assert_array_equal(f(padax.to_tensor([1.0, 2.0, 3.0, 4.0])).numpy(), [-1.0, 4.0, 6.0, 8.0])


def test_grad_through_a_body_with_refs():
    f = padax.shard_map(_body, mesh=_mesh(), in_specs=P("x"), out_specs=P("x"))
    g = padax.grad(lambda x: f(x).sum())(padax.ones([4]))
    np.testing.assert_array_equal(g.numpy(), [0.0, 2.0, 2.0, 2.0])


def test_a_ref_from_outside_the_body_is_refused():
    acc = padax.new_ref(padax.zeros([4]))

    def body(x):
        acc[...] += x
        return x

    f = padax.jit(padax.shard_map(body, mesh=_mesh(), in_specs=P("x"), out_specs=P("x")))
    with pytest.raises(padax.ref.RefError, match="shard_map: the body uses a Ref from outside"):
        f(padax.ones([4]))
