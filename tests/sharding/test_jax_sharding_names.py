"""jax's sharding API under padax: context meshes, shard_map as a decorator, typeof, explicit axes.

The programs are those of jax's "Introduction to parallel programming" and
"Manual parallelism with shard_map" tutorials; layouts are checked against the
types jax prints there, values against numpy.
"""
import numpy as np
import pytest

import padax
import padax.numpy as pnp
from padax.sharding import AbstractMesh, AxisType, auto_axes, explicit_axes

pytestmark = pytest.mark.spmd


@pytest.fixture(autouse=True)
def no_context_mesh():
    yield
    padax.set_mesh(None)


def test_make_mesh_axis_types_and_context_mesh():
    mesh = padax.make_mesh((4, 2), ("X", "Y"))
    assert mesh.axis_types == (AxisType.Explicit, AxisType.Explicit)
    auto = padax.make_mesh((4, 2), ("X", "Y"), (AxisType.Auto, AxisType.Auto))
    assert auto.axis_types == (AxisType.Auto,) * 2 and auto == mesh  # the same devices and names
    assert padax.sharding.Mesh(np.array(padax.devices()), ("i",)).axis_types == (AxisType.Auto,)
    assert padax.sharding.get_abstract_mesh().empty and padax.sharding.get_mesh() is None
    with padax.set_mesh(mesh):
        assert padax.sharding.get_mesh() is mesh
        assert padax.sharding.get_abstract_mesh() == AbstractMesh((4, 2), ("X", "Y"), (AxisType.Explicit,) * 2)
        with padax.sharding.use_mesh(auto):
            assert padax.sharding.get_abstract_mesh().axis_types == (AxisType.Auto,) * 2
    assert padax.sharding.get_mesh() is None
    padax.set_mesh(mesh)
    assert padax.sharding.get_mesh() is mesh
    with pytest.raises(padax.sharding.ShardingError, match="needs a mesh"):
        padax.set_mesh(None)
        padax.device_put(np.ones(8), padax.P("X"))


def test_typeof_and_device_put_with_a_bare_spec():
    padax.set_mesh(padax.make_mesh((4, 2), ("X", "Y")))
    a = np.arange(32.0, dtype=np.float32).reshape(8, 4)
    x = padax.device_put(pnp.asarray(a), padax.P("X", "Y"))
    assert str(padax.typeof(x)) == "float32[8@X,4@Y]"
    assert padax.typeof(x).sharding.spec == padax.P("X", "Y")
    y = pnp.sin(x).T
    assert str(padax.typeof(y)) == "float32[4@Y,8@X]"
    np.testing.assert_allclose(np.asarray(y), np.sin(a).T, rtol=1e-6)
    z = padax.device_put(x, padax.P(("X", "Y")))
    assert str(padax.typeof(z)) == "float32[8@(X,Y),4]"
    arg0 = padax.device_put(np.arange(4).reshape(4, 1), padax.P("X", None))
    arg1 = padax.device_put(np.arange(8).reshape(1, 8), padax.P(None, "Y"))
    assert str(padax.typeof(arg0 + arg1)) == "int64[4@X,8@Y]"
    assert str(padax.typeof(pnp.ones(3))) == "float32[3]"
    r = padax.random.normal(padax.random.key(0), (8, 4), out_sharding=padax.P("X", "Y"))
    assert padax.typeof(r).spec == padax.P("X", "Y")
    np.testing.assert_allclose(np.asarray(r), np.asarray(padax.random.normal(padax.random.key(0), (8, 4))))


def test_reshard_auto_axes_and_explicit_axes():
    padax.set_mesh(padax.make_mesh((4, 2), ("X", "Y")))
    x = padax.device_put(np.arange(16).reshape(4, 4), padax.P("X", None))
    y = padax.device_put(np.arange(16).reshape(4, 4), padax.P(None, "X"))
    seen = []

    @auto_axes
    def add2(a, b):
        seen.append(padax.sharding.get_abstract_mesh().axis_types)
        return a + b

    out = add2(x, y, out_sharding=padax.P("X", None))
    assert seen == [(AxisType.Auto, AxisType.Auto)] and padax.typeof(out).spec == padax.P("X", None)
    np.testing.assert_array_equal(np.asarray(out), 2 * np.arange(16).reshape(4, 4))

    @explicit_axes
    def double(v):
        seen.append(padax.sharding.get_abstract_mesh().axis_types)
        return v * 2

    @padax.jit
    def f(v):
        return double(pnp.sin(v), in_sharding=padax.P("X", "Y")) + 1

    v = padax.device_put(np.arange(16.0, dtype=np.float32).reshape(4, 4), padax.P("X", "Y"))
    np.testing.assert_allclose(np.asarray(f(v)), 2 * np.sin(np.asarray(v)) + 1, rtol=1e-5, atol=1e-6)
    assert seen[-1] == (AxisType.Explicit, AxisType.Explicit)
    moved = padax.reshard(x, padax.P(None, "Y"))
    assert padax.typeof(moved).spec == padax.P(None, "Y")
    inside = padax.jit(lambda a: padax.reshard(a, padax.P("Y", None)) * 1)(x)
    np.testing.assert_array_equal(np.asarray(inside), np.arange(16).reshape(4, 4))


def test_shard_map_as_a_decorator_with_the_context_mesh():
    mesh = padax.make_mesh((4, 2), ("x", "y"))
    padax.set_mesh(mesh)
    a_np = np.arange(8 * 16.0, dtype=np.float32).reshape(8, 16)
    b_np = np.arange(16 * 4.0, dtype=np.float32).reshape(16, 4)
    a = padax.device_put(a_np, padax.P("x", "y"))
    b = padax.device_put(b_np, padax.P("y", None))

    @padax.shard_map(in_specs=(padax.P("x", "y"), padax.P("y", None)), out_specs=padax.P("x", None))
    def matmul_basic(a_block, b_block):
        assert a_block.shape == (2, 8) and b_block.shape == (8, 4)
        return padax.lax.psum(pnp.dot(a_block, b_block), "y")

    np.testing.assert_allclose(np.asarray(matmul_basic(a, b)), a_np @ b_np, rtol=1e-5)
    ref = pnp.dot(a, b, out_sharding=padax.P("x", None))
    assert padax.typeof(ref).spec == padax.P("x", None)

    @padax.shard_map(out_specs=padax.P("x", None))  # in_specs read from the arguments' layouts
    def matmul_scatter(x_blk, y_blk):
        assert x_blk.shape == (8, 1) and y_blk.shape == (1, 16)
        return padax.lax.psum_scatter(pnp.dot(x_blk, y_blk), "x", tiled=True)

    x_np = np.arange(8 * 4.0, dtype=np.float32).reshape(8, 4)
    y_np = np.arange(4 * 16.0, dtype=np.float32).reshape(4, 16)
    z = matmul_scatter(padax.device_put(x_np, padax.P(None, "x")), padax.device_put(y_np, padax.P("x", None)))
    np.testing.assert_allclose(np.asarray(z), x_np @ y_np, rtol=1e-5)
    assert str(padax.typeof(z)) == "float32[8@x,16]"
    # an explicit mesh= wins over the context one, and the old positional form still works
    mesh1d = padax.sharding.Mesh(np.array(padax.devices()[:4]), ("i",))
    f1 = padax.shard_map(lambda blk: padax.lax.psum(blk, "i"), mesh=mesh1d, in_specs=padax.P("i"),
                         out_specs=padax.P(None))
    x = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 1, 2])
    np.testing.assert_array_equal(np.asarray(f1(x)), x.reshape(4, 4).sum(0))
    f2 = padax.shard_map(lambda blk: blk * 2, mesh1d, padax.P("i"), padax.P("i"))
    np.testing.assert_array_equal(np.asarray(f2(x)), 2 * x)
    with pytest.raises(TypeError, match="out_specs is required"):
        padax.shard_map(lambda v: v, in_specs=padax.P())
    padax.set_mesh(None)
    with pytest.raises(ValueError, match="no mesh"):
        padax.shard_map(lambda v: v, in_specs=padax.P(), out_specs=padax.P())(x)
