"""Meshes, partition specs, shardings, sharded device_put and reading sharded Tensors back."""
import io

import numpy as np
import pytest

import padax
from padax.sharding import Mesh, NamedSharding, P, PartitionSpec, ShardingError, SingleDeviceSharding

pytestmark = pytest.mark.spmd

A = np.arange(32, dtype=np.float32).reshape(8, 4)


def test_eight_devices_and_make_mesh(mesh42):
    assert padax.device_count() == 8
    assert mesh42.shape == {"x": 4, "y": 2} and mesh42.size == 8
    assert mesh42.device_ids.tolist() == [[0, 1], [2, 3], [4, 5], [6, 7]]
    m = Mesh(np.array(padax.devices()[:4]).reshape(2, 2), ("a", "b"))
    assert m.axis_names == ("a", "b") and m == Mesh(np.array(padax.devices()[:4]).reshape(2, 2), ("a", "b"))
    with pytest.raises(ShardingError, match="needs 16 devices"):
        padax.make_mesh((4, 4), ("x", "y"))


def test_partition_spec_normalisation():
    assert P("x", None) == P("x") and hash(P("x", None)) == hash(P("x"))
    assert P(("x",)) == P("x") and P(("x", "y")).axes_of(0) == ("x", "y")
    assert PartitionSpec() == P(None) and P("x") != P("y")
    with pytest.raises(TypeError):
        P(3)


@pytest.mark.parametrize("spec", [P("x", "y"), P("x"), P(None, "y"), P(), P(("x", "y")), P("y", "x"),
                                  P(("y", "x"), None)])
def test_device_put_readback_and_shards(mesh42, spec):
    s = NamedSharding(mesh42, spec)
    t = padax.device_put(A, s)
    assert t.shape == A.shape and t.sharding == s
    np.testing.assert_array_equal(t.numpy(), A)
    shards = t.addressable_shards
    assert len(shards) == 8 and {sh.device for sh in shards} == set(padax.devices())
    for sh in shards:
        np.testing.assert_array_equal(sh.data.numpy(), A[sh.index])
        assert sh.data.shape == s.shard_shape(A.shape)
    assert t.is_fully_replicated == (spec == P())


def test_hlo_sharding_forms(mesh42):
    assert str(NamedSharding(mesh42, P("x", "y")).to_hlo_sharding(2)) == "{devices=[4,2]0,1,2,3,4,5,6,7}"
    assert "last_tile_dim_replicate" in str(NamedSharding(mesh42, P("x")).to_hlo_sharding(2))
    assert str(NamedSharding(mesh42, P("y", "x")).to_hlo_sharding(2)) == "{devices=[2,4]0,2,4,6,1,3,5,7}"
    assert NamedSharding(mesh42, P()).to_hlo_sharding(2).is_replicated()


def test_reshard_and_single_device(mesh42):
    t = padax.device_put(A, NamedSharding(mesh42, P("x")))
    u = padax.device_put(t, NamedSharding(mesh42, P(None, "y")))
    assert u.sharding.spec == P(None, "y")
    np.testing.assert_array_equal(u.numpy(), A)
    d3 = padax.devices()[3]
    v = padax.device_put(u, SingleDeviceSharding(d3))
    assert v.device == d3 and v.sharding == SingleDeviceSharding(d3)
    np.testing.assert_array_equal((v * 2).numpy(), 2 * A)  # eager op on another device
    assert (v * 2).device == d3
    # pytrees with one sharding
    tree = padax.device_put({"a": A, "b": A[:, :2]}, NamedSharding(mesh42, P("x")))
    assert tree["b"].sharding.spec == P("x")


def test_eager_ops_on_sharded_tensors(mesh42):
    t = padax.device_put(A, NamedSharding(mesh42, P("x", "y")))
    r = t * 2 + 1
    np.testing.assert_array_equal(r.numpy(), A * 2 + 1)
    assert r.sharding.num_devices == 8
    assert float(t.sum()) == A.sum()
    np.testing.assert_array_equal((t + padax.to_tensor(A)).numpy(), 2 * A)  # sharded + single-device


def test_put_errors(mesh42):
    with pytest.raises(ShardingError, match="not divisible by mesh axis 'x'"):
        padax.device_put(np.ones((6, 4), np.float32), NamedSharding(mesh42, P("x")))
    with pytest.raises(ShardingError, match="names mesh axis 'z'"):
        NamedSharding(mesh42, P("z"))
    with pytest.raises(ShardingError, match="more than once"):
        NamedSharding(mesh42, P("x", "x"))
    with pytest.raises(ShardingError, match="3 entries"):
        padax.device_put(A, NamedSharding(mesh42, P("x", None, None)))


def test_visualize_array_sharding(mesh42):
    t = padax.device_put(A, NamedSharding(mesh42, P("x", "y")))
    buf = io.StringIO()
    text = padax.visualize_array_sharding(t, file=buf)
    assert buf.getvalue().strip() == text.strip()
    for i in range(8):
        assert f"CPU {i}" in text
    assert text.count("\n+") == 4  # four rows of blocks
    rep = padax.visualize_array_sharding(padax.device_put(A, NamedSharding(mesh42, P(None, "y"))),
                                         file=io.StringIO())
    assert "CPU 0,2,4,6" in rep and "CPU 1,3,5,7" in rep
