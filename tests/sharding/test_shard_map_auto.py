"""shard_map with auto (partially manual) axes, nested shard_maps, and the Shardy form of SPMD programs."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import padax
from padax import lax
from padax.sharding import NamedSharding, P
from padax.transforms.shard_map import ShardMapError

pytestmark = pytest.mark.spmd

A = np.arange(64, dtype=np.float32).reshape(16, 4) / 7.0
W = (np.arange(24, dtype=np.float32).reshape(4, 6) - 12) / 20
H = np.tanh(A @ W)
ROW_X = np.repeat(np.arange(4), 4)[:, None].astype(np.float32)  # the 'x' coordinate of each row under P('x')


def _body_fn(mesh, seen=None):
    def body(a, w):
        if seen is not None:
            seen.append((a.shape, w.shape))
        h = padax.tanh(a @ w)
        h = lax.with_sharding_constraint(h, NamedSharding(mesh, P(None, "y")))  # 'y' is auto: XLA's to use
        return lax.psum(h.sum(0, keepdim=True), "x"), h * lax.axis_index("x").astype("float32")
    return body


def test_auto_axes_blocks_values_and_layouts(mesh42):
    seen = []
    f = padax.shard_map(_body_fn(mesh42, seen), mesh42, (P("x"), P()), (P(), P("x")), auto={"y"})
    jf = padax.jit(f)
    for fn, a in ((f, A), (jf, A), (jf, padax.device_put(A, NamedSharding(mesh42, P("x", "y"))))):
        s, h = fn(a, W)
        np.testing.assert_allclose(s.numpy(), H.sum(0, keepdims=True), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(h.numpy(), H * ROW_X, rtol=1e-5, atol=1e-6)
        # out_specs fix the manual axis 'x' only; under jit XLA may also split along the auto axis 'y'
        assert "x" not in s.sharding.spec.used_axes() and h.sharding.spec[:1] == ("x",)
    assert set(seen) == {((4, 4), (4, 6))}  # blocks are split over the manual axis 'x' only
    text = jf.lower(A, W).as_text()
    assert 'sdy.mesh @mesh = <["x"=4, "y"=2]>' in text
    assert "manual_axes={\"x\"}" in text and 'in_shardings=[<@mesh, [{"x", ?}, {?}]>' in text
    assert 'sdy.sharding_constraint %2 <@mesh, [{}, {"y"}]>' in text  # inside the body, on the auto axis
    assert "manual_axes={\"y\"}" in text  # axis_index reads the partition id where 'y' is manual too
    assert "@Sharding" not in text and "mhlo.sharding" not in text


def test_auto_axes_grad_vmap_and_jvp(mesh42):
    f = padax.shard_map(_body_fn(mesh42), mesh42, (P("x"), P()), (P(), P("x")), auto=frozenset({"y"}))

    def loss(w, a):
        s, h = f(a, w)
        return s.sum() + (h ** 2).sum()

    a64, w64 = A.astype(np.float64), W.astype(np.float64)
    h64 = np.tanh(a64 @ w64)
    dh = 1 + 2 * h64 * ROW_X ** 2  # d loss / d h
    ref = a64.T @ (dh * (1 - h64 ** 2))
    for g in (padax.grad(loss)(W, A), padax.jit(padax.grad(loss))(W, A)):
        np.testing.assert_allclose(g.numpy(), ref, rtol=1e-4, atol=1e-4)
    _, t = padax.jvp(lambda w: loss(w, A), (W,), (np.ones_like(W),))
    np.testing.assert_allclose(float(t), ref.sum(), rtol=1e-4)
    # vmap: each batch item is one more whole dimension of the blocks
    g = padax.shard_map(lambda b: lax.psum(b, "x"), mesh42, P("x"), P(), auto={"y"})
    batch = np.stack([A, 2 * A, -A])
    want = batch.reshape(3, 4, 4, 4).sum(1)
    np.testing.assert_allclose(padax.vmap(g)(batch).numpy(), want, rtol=1e-5)
    out = padax.jit(padax.vmap(g, in_axes=1, out_axes=1))(np.moveaxis(batch, 0, 1))
    np.testing.assert_allclose(np.moveaxis(out.numpy(), 1, 0), want, rtol=1e-5)


def test_nested_shard_map_over_different_axes(mesh42):
    def outer(a):
        def inner(b):
            return (lax.psum(b, "y") + 100 * lax.axis_index("x").astype("float32")
                    + 10 * lax.axis_index("y").astype("float32"))
        r = padax.shard_map(inner, mesh42, P(None, "y"), P(None, "y"), auto={"x"}, check_rep=False)(a)
        return lax.psum(r, "x") / 4 + r  # a collective over the outer axis too

    f = padax.shard_map(outer, mesh42, P("x"), P("x"), auto={"y"})
    blocks = A.reshape(4, 4, 2, 2)  # [x, rows, y, cols]
    inner_ref = (blocks.sum(2, keepdims=True).repeat(2, 2) + 100 * np.arange(4)[:, None, None, None]
                 + 10 * np.arange(2)[None, None, :, None])
    ref = inner_ref.sum(0, keepdims=True) / 4 + inner_ref
    for fn in (f, padax.jit(f)):
        np.testing.assert_allclose(fn(A).numpy(), ref.reshape(16, 4), rtol=1e-5)
    text = padax.jit(f).lower(A).as_text()
    assert text.count("sdy.manual_computation") == 2 and 'manual_axes={"y"}' in text
    # an inner shard_map may not split a value along an axis the outer one already made manual
    bad = padax.shard_map(lambda a: padax.shard_map(lambda b: b, mesh42, P("x"), P("x"), auto={"y"})(a),
                          mesh42, P("x"), P("x"), auto={"y"})
    with pytest.raises(Exception, match="already made it manual"):
        padax.jit(bad)(A)


def test_auto_axes_errors(mesh42):
    with pytest.raises(ShardMapError, match="in `auto`"):
        padax.shard_map(lambda b: b, mesh42, P("y"), P("y"), auto={"y"})(A)
    with pytest.raises(ShardMapError, match="in `auto`"):
        padax.shard_map(lambda b: b, mesh42, P("x"), P("x", "y"), auto={"y"})(A)
    with pytest.raises(ShardMapError, match="'z'"):
        padax.shard_map(lambda b: b, mesh42, P("x"), P("x"), auto={"z"})(A)
    with pytest.raises(NameError, match="'y'"):  # a collective over an auto axis: XLA owns that axis
        padax.jit(padax.shard_map(lambda b: lax.psum(b, "y"), mesh42, P("x"), P("x"), auto={"y"}))(A)
    with pytest.raises(NameError, match="'y'"):
        padax.shard_map(lambda b: lax.all_gather(b, "y"), mesh42, P("x"), P("x"), auto={"y"})(A)
    # out_specs claim replication along the manual axes only
    with pytest.raises(ShardMapError, match=r"out_specs\[0\].*'x'"):
        padax.shard_map(lambda b: b * 2, mesh42, P("x"), P(), auto={"y"})(A)


_JAX_ORACLE = textwrap.dedent('''
    import os, sys
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    import numpy as np, jax, jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P
    mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    A = np.arange(64, dtype=np.float32).reshape(16, 4) / 7.0
    W = (np.arange(24, dtype=np.float32).reshape(4, 6) - 12) / 20

    def body(a, w):
        h = jnp.tanh(a @ w)
        h = jax.lax.with_sharding_constraint(h, P(None, "y"))
        return jax.lax.psum(h.sum(0, keepdims=True), "x"), h * jax.lax.axis_index("x").astype("float32")

    jax.set_mesh(mesh)
    f = jax.shard_map(body, mesh=mesh, in_specs=(P("x"), P()), out_specs=(P(), P("x")), axis_names={"x"})
    s, h = jax.jit(f)(A, W)
    loss = lambda w, a: (lambda s, h: s.sum() + (h ** 2).sum())(*f(a, w))
    g = jax.jit(jax.grad(loss))(W, A)

    def outer(a):
        def inner(b):
            return (jax.lax.psum(b, "y") + 100 * jax.lax.axis_index("x").astype("float32")
                    + 10 * jax.lax.axis_index("y").astype("float32"))
        r = jax.shard_map(inner, in_specs=P(None, "y"), out_specs=P(None, "y"), axis_names={"y"},
                          check_vma=False)(a)  # (the context mesh, its 'x' already manual)
        return jax.lax.psum(r, "x") / 4 + r
    n = jax.jit(jax.shard_map(outer, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"},
                              check_vma=False))(A)
    np.savez(sys.argv[1], s=np.asarray(s), h=np.asarray(h), g=np.asarray(g), n=np.asarray(n))
''')


def test_auto_axes_match_jax(mesh42, tmp_path):
    pytest.importorskip("jax")
    script, out = tmp_path / "oracle.py", tmp_path / "jax.npz"
    script.write_text(_JAX_ORACLE)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PADAX_")}
    proc = subprocess.run([sys.executable, str(script), str(out)], capture_output=True, text=True, timeout=300,
                          env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    ref = np.load(out)
    f = padax.shard_map(_body_fn(mesh42), mesh42, (P("x"), P()), (P(), P("x")), auto={"y"})
    s, h = padax.jit(f)(A, W)
    np.testing.assert_allclose(s.numpy(), ref["s"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h.numpy(), ref["h"], rtol=1e-5, atol=1e-6)

    def loss(w, a):
        s, h = f(a, w)
        return s.sum() + (h ** 2).sum()
    np.testing.assert_allclose(padax.jit(padax.grad(loss))(W, A).numpy(), ref["g"], rtol=1e-4, atol=1e-5)

    def outer(a):
        def inner(b):
            return (lax.psum(b, "y") + 100 * lax.axis_index("x").astype("float32")
                    + 10 * lax.axis_index("y").astype("float32"))
        r = padax.shard_map(inner, mesh42, P(None, "y"), P(None, "y"), auto={"x"}, check_rep=False)(a)
        return lax.psum(r, "x") / 4 + r
    n = padax.jit(padax.shard_map(outer, mesh42, P("x"), P("x"), auto={"y"}, check_rep=False))(A)
    np.testing.assert_allclose(n.numpy(), ref["n"], rtol=1e-5)


def test_xla_layouts_without_a_mesh_name(mesh42):
    """GSPMDSharding arrays (layouts in XLA's terms) still go into and come out of SPMD programs."""
    from padax.runtime import _jaxlib
    from padax.sharding import GSPMDSharding
    devs = list(mesh42.device_list)
    tiled = GSPMDSharding(devs, _jaxlib.hlo_sharding_from_string("{devices=[4,2]<=[8]}"))
    shuffled = GSPMDSharding(devs, _jaxlib.hlo_sharding_from_string(
        "{devices=[4,1,2]7,1,6,0,5,3,4,2 last_tile_dim_replicate}"))
    a, b = padax.device_put(A, tiled), padax.device_put(A, shuffled)
    assert a.sharding == tiled and b.sharding == shuffled
    f = padax.jit(lambda u, v: padax.tanh(u) + 2 * v)
    for args in ((a, b), (padax.device_put(A, NamedSharding(mesh42, P("x"))), b)):
        np.testing.assert_allclose(f(*args).numpy(), np.tanh(A) + 2 * A, rtol=1e-6)
    text = f.lower(a, b).as_text()
    assert '<["_d0"=4, "_d1"=2]>' in text and "device_ids=[1, 7, 0, 6, 3, 5, 2, 4]" in text
    # a layout XLA picks that has no name on the mesh comes back as a GSPMDSharding and goes in again
    g = padax.jit(lambda u: u * 3, out_shardings=tiled)
    r = g(A)
    assert r.sharding == tiled
    np.testing.assert_allclose(padax.jit(lambda u: u.sum(0))(r).numpy(), 3 * A.sum(0), rtol=1e-5)


_NO_WARNING_SCRIPT = textwrap.dedent('''
    import numpy as np, padax
    from padax import lax
    from padax.sharding import NamedSharding, P
    mesh = padax.make_mesh((4, 2), ("x", "y"))
    x = np.ones((16, 8), np.float32)
    f = padax.jit(lambda a: padax.tanh(a) @ a.T, in_shardings=NamedSharding(mesh, P("x")))
    g = padax.jit(padax.shard_map(lambda b: lax.psum(b, "x"), mesh, P("x"), P(), auto={"y"}))
    print("RESULT", float(f(x).sum()), float(g(x).sum()))
''')


def test_no_gspmd_deprecation_warning():
    env = dict(os.environ, PADAX_NUM_CPU_DEVICES="8")
    proc = subprocess.run([sys.executable, "-c", _NO_WARNING_SCRIPT], capture_output=True, text=True, timeout=120,
                          env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "RESULT" in proc.stdout
    assert "GSPMD" not in proc.stderr and "deprecated" not in proc.stderr, proc.stderr[-3000:]
