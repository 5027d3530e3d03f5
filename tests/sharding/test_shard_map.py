"""shard_map: per-device blocks, every collective against numpy, jit, grad, vmap, bad specs."""
import numpy as np
import pytest

import padax
from padax import lax
from padax.sharding import P
from padax.transforms.shard_map import ShardMapError

pytestmark = pytest.mark.spmd

A = np.arange(64, dtype=np.float32).reshape(16, 4) / 7.0
BLOCKS = A.reshape(8, 2, 4)  # device i holds BLOCKS[i] under P('i')


def _run(fn, mesh, in_specs, out_specs, *args, jit=False):
    f = padax.shard_map(fn, mesh, in_specs, out_specs)
    eager = f(*args).numpy()
    jitted = padax.jit(f)(*args).numpy()
    np.testing.assert_allclose(eager, jitted, rtol=1e-6)
    return eager


@pytest.mark.parametrize("name,fn,ref", [
    ("psum", lambda b: lax.psum(b, "i"), BLOCKS.sum(0)),
    ("pmean", lambda b: lax.pmean(b, "i"), BLOCKS.mean(0)),
    ("pmax", lambda b: lax.pmax(b, "i"), BLOCKS.max(0)),
    ("pmin", lambda b: lax.pmin(b, "i"), BLOCKS.min(0)),
    ("all_gather", lambda b: lax.all_gather(b, "i"), BLOCKS),
    ("all_gather_tiled", lambda b: lax.all_gather(b, "i", axis=1, tiled=True),
     np.concatenate(list(BLOCKS), axis=1)),
])
def test_replicating_collectives(mesh8, name, fn, ref):
    out = _run(fn, mesh8, P("i"), P(), A)
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-6)


def test_axis_index_and_ppermute(mesh8):
    idx = _run(lambda b: lax.axis_index("i").reshape(1), mesh8, P("i"), P("i"), A)
    np.testing.assert_array_equal(idx, np.arange(8))
    perm = [(j, (j + 1) % 8) for j in range(8)]
    out = _run(lambda b: lax.ppermute(b, "i", perm), mesh8, P("i"), P("i"), A)
    np.testing.assert_allclose(out, np.roll(BLOCKS, 1, axis=0).reshape(16, 4))
    partial = _run(lambda b: lax.ppermute(b, "i", [(0, 3)]), mesh8, P("i"), P("i"), A)  # others get zeros
    ref = np.zeros_like(BLOCKS)
    ref[3] = BLOCKS[0]
    np.testing.assert_allclose(partial, ref.reshape(16, 4))


def test_psum_scatter_and_all_to_all(mesh8):
    out = _run(lambda b: lax.psum_scatter(b, "i", scatter_dimension=0, tiled=True), mesh8, P(), P("i"), A)
    np.testing.assert_allclose(out, 8 * A, rtol=1e-5)
    out = _run(lambda b: lax.psum_scatter(b, "i"), mesh8, P(), P("i"), A[:8])  # untiled: dim 0 == 8 removed
    np.testing.assert_allclose(out, 8 * A[:8].reshape(-1), rtol=1e-5)
    x = np.arange(64 * 3, dtype=np.float32).reshape(64, 3)
    blocks = x.reshape(8, 8, 3)
    ref = np.stack([np.concatenate([blocks[i][j:j + 1] for i in range(8)]) for j in range(8)]).reshape(64, 3)
    out = _run(lambda b: lax.all_to_all(b, "i", 0, 0, tiled=True), mesh8, P("i"), P("i"), x)
    np.testing.assert_array_equal(out, ref)
    # untiled: split a new axis of size 8 and concatenate it at axis 1
    y = np.arange(8 * 8 * 2, dtype=np.float32).reshape(8 * 8, 2)
    yb = y.reshape(8, 8, 2)
    out = _run(lambda b: lax.all_to_all(b, "i", 0, 1), mesh8, P("i"), P("i"), y)
    ref = np.stack([np.stack([yb[i][j] for i in range(8)], axis=1) for j in range(8)])  # (8 devs, 2, 8)
    np.testing.assert_array_equal(out, ref.reshape(16, 8))
    # the vmap implementations agree with the device ones
    tiled_ref = np.stack([np.concatenate([blocks[i][j:j + 1] for i in range(8)]) for j in range(8)])
    v = padax.vmap(lambda b: lax.all_to_all(b, "i", 0, 0, tiled=True), axis_name="i")(blocks)
    np.testing.assert_array_equal(np.asarray(v), tiled_ref)
    s = padax.vmap(lambda b: lax.psum_scatter(b, "i", tiled=True), axis_name="i")(np.stack([A] * 8))
    np.testing.assert_allclose(np.asarray(s).reshape(16, 4), 8 * A, rtol=1e-5)


def test_two_axis_mesh_collectives(mesh42):
    x = np.arange(8 * 6, dtype=np.float32).reshape(8, 6)
    blocks = x.reshape(4, 2, 2, 3)  # [x, rows, y, cols]
    out = _run(lambda b: lax.psum(b, "x"), mesh42, P("x", "y"), P(None, "y"), x)
    np.testing.assert_allclose(out, blocks.sum(0).reshape(2, 6))
    out = _run(lambda b: lax.psum(b, ("x", "y")), mesh42, P("x", "y"), P(), x)
    np.testing.assert_allclose(out, blocks.sum((0, 2)))
    idx = _run(lambda b: (lax.axis_index("x") * 10 + lax.axis_index("y")).reshape(1, 1), mesh42,
               P("x", "y"), P("x", "y"), x)
    np.testing.assert_array_equal(idx, np.arange(4)[:, None] * 10 + np.arange(2)[None, :])
    g = _run(lambda b: lax.all_gather(b, ("x", "y"), tiled=True), mesh42, P(("x", "y")), P(), x)
    np.testing.assert_array_equal(g, x)


def test_grad_through_shard_map(mesh8):
    w = (np.arange(12, dtype=np.float32).reshape(4, 3) - 6) / 10

    def loss(w, xs):
        return padax.shard_map(lambda wb, xb: lax.psum(((xb @ wb) ** 2).sum(), "i"), mesh8, (P(), P("i")), P())(w, xs)

    ref_w = 2 * A.T @ (A @ w)
    ref_x = 2 * (A @ w) @ w.T
    gw, gx = padax.grad(loss, argnums=(0, 1))(w, A)
    np.testing.assert_allclose(gw.numpy(), ref_w, rtol=1e-5)
    np.testing.assert_allclose(gx.numpy(), ref_x, rtol=1e-5, atol=1e-6)
    gj = padax.jit(padax.grad(loss))(w, A)
    np.testing.assert_allclose(gj.numpy(), ref_w, rtol=1e-5)
    # replicated output without psum inside: per-device mean of a replicated input
    f = padax.shard_map(lambda v: v * 3.0, mesh8, P(), P())
    np.testing.assert_allclose(padax.grad(lambda v: f(v).sum())(A).numpy(), 3 * np.ones_like(A))
    # jvp
    t = np.ones_like(w)
    _, tan = padax.jvp(lambda w: loss(w, A), (w,), (t,))
    np.testing.assert_allclose(float(tan), float((ref_w * t).sum()), rtol=1e-5)
    # all_gather and ppermute transpose
    h = padax.shard_map(lambda b: lax.all_gather(b, "i", tiled=True) * np.arange(16, dtype=np.float32)[:, None],
                        mesh8, P("i"), P())
    np.testing.assert_allclose(padax.grad(lambda a: h(a).sum())(A).numpy(),
                               np.broadcast_to(np.arange(16, dtype=np.float32)[:, None], A.shape))
    perm = [(j, (j + 3) % 8) for j in range(8)]
    k = padax.shard_map(lambda b: lax.ppermute(b, "i", perm) * lax.axis_index("i").astype("float32"),
                        mesh8, P("i"), P("i"))
    gk = padax.grad(lambda a: k(a).sum())(A).numpy().reshape(8, 2, 4)
    np.testing.assert_allclose(gk, np.broadcast_to(((np.arange(8) + 3) % 8).astype(np.float32)[:, None, None],
                                                   (8, 2, 4)))


def test_vmap_of_shard_map(mesh8):
    f = padax.shard_map(lambda b: lax.psum(b, "i"), mesh8, P("i"), P())
    batch = np.stack([A, 2 * A, -A])
    out = padax.vmap(f)(batch)
    np.testing.assert_allclose(out.numpy(), np.stack([BLOCKS.sum(0), 2 * BLOCKS.sum(0), -BLOCKS.sum(0)]),
                               rtol=1e-5)
    out = padax.jit(padax.vmap(f, in_axes=1, out_axes=1))(np.moveaxis(batch, 0, 1))
    np.testing.assert_allclose(np.moveaxis(out.numpy(), 1, 0), np.stack([BLOCKS.sum(0), 2 * BLOCKS.sum(0),
                                                                         -BLOCKS.sum(0)]), rtol=1e-5)


def test_vmap_spmd_axis_name_splits_the_batch_over_a_mesh_axis(mesh8):
    if mesh8 is None:
        return
    from padax.sharding import NamedSharding
    mesh = padax.make_mesh((2, 4), ("b", "i"))
    f = padax.shard_map(lambda blk: lax.psum(blk, "i"), mesh, P("i"), P())
    batch = np.stack([A[:8], 2 * A[:8], -A[:8], 3 * A[:8]])  # 4 items of (8, 4), blocks of 2 rows on 'i'
    want = np.stack([k * A[:8].reshape(4, 2, 4).sum(0) for k in (1, 2, -1, 3)])
    for fn in (padax.vmap(f, spmd_axis_name="b"), padax.jit(padax.vmap(f, spmd_axis_name="b"))):
        out = fn(batch)
        np.testing.assert_allclose(out.numpy(), want, rtol=1e-5)
        assert out.sharding.spec == P("b")  # each half of the batch lives on one row of the mesh
    g = padax.jit(padax.vmap(lambda x: padax.lax.with_sharding_constraint(x * 2, NamedSharding(mesh, P("i"))),
                             spmd_axis_name="b"))
    out = g(batch[:, :, 0])
    np.testing.assert_allclose(out.numpy(), 2 * batch[:, :, 0])
    assert out.sharding.spec == P("b", "i")
    with pytest.raises(ValueError, match="spmd_axis_name 'z'"):
        padax.vmap(f, spmd_axis_name="z")(batch)
    with pytest.raises(ShardMapError, match="already used"):
        padax.vmap(f, spmd_axis_name="i")(batch)


def test_shard_map_inside_jit_with_other_ops(mesh8):
    def f(a, w):
        y = padax.tanh(a @ w)
        s = padax.shard_map(lambda b: lax.psum(b.sum(0, keepdim=True), "i"), mesh8, P("i"), P())(y)
        return s * 2
    w = np.eye(4, dtype=np.float32)
    out = padax.jit(f)(A, w)
    np.testing.assert_allclose(out.numpy(), 2 * np.tanh(A).sum(0, keepdims=True), rtol=1e-5)


def test_shard_map_errors(mesh8, mesh42):
    with pytest.raises(ShardMapError, match="names mesh axis 'j'"):
        padax.shard_map(lambda b: b, mesh8, P("j"), P("j"))(A)
    with pytest.raises(ShardMapError, match="not divisible by mesh axis 'i'"):
        padax.shard_map(lambda b: b, mesh8, P("i"), P("i"))(np.ones((12, 2), np.float32))
    with pytest.raises(ShardMapError, match=r"out_specs\[0\].*'i'"):
        padax.shard_map(lambda b: b * 2, mesh8, P("i"), P())(A)
    with pytest.raises(ShardMapError, match=r"out_specs\[1\].*'y'"):
        padax.shard_map(lambda b: (lax.psum(b, ("x", "y")), lax.psum(b, "x")), mesh42, P("x", "y"), (P(), P()))(A[:, :4])
    with pytest.raises(ShardMapError, match="'i'"):
        padax.shard_map(lambda b: lax.axis_index("i") + b.sum(), mesh8, P(), P())(A)
    # check_rep=False trusts the user
    out = padax.shard_map(lambda b: b[:1] * 0, mesh8, P("i"), P(), check_rep=False)(A)
    assert out.shape == (1, 4)
    with pytest.raises(ShardMapError, match="out_specs"):
        padax.shard_map(lambda b: b, mesh8, P("i"), P("q"))(A)


def test_one_device_mesh_and_fresh_closures():
    mesh1 = padax.make_mesh((1,), ("i",))
    f = padax.shard_map(lambda b: (lax.psum(b, "i") + lax.axis_index("i"), lax.all_gather(b, "i"),
                                   lax.ppermute(b, "i", [(0, 0)])), mesh1, P("i"), (P(), P(), P("i")))
    s, g, p = f(A)
    np.testing.assert_allclose(s.numpy(), A)
    np.testing.assert_allclose(g.numpy(), A[None])
    np.testing.assert_allclose(p.numpy(), A)
    # eager shard_map re-traces: a value it closes over is read afresh on every call
    mesh8 = padax.make_mesh((8,), ("i",))
    holder = [1.0]
    h = padax.shard_map(lambda b: b * holder[0], mesh8, P("i"), P("i"))
    np.testing.assert_allclose(h(A).numpy(), A)
    holder[0] = 3.0
    np.testing.assert_allclose(h(A).numpy(), 3 * A)
    w = padax.to_tensor(np.float32(2.0))
    k = padax.shard_map(lambda b: b * w, mesh8, P("i"), P("i"))
    np.testing.assert_allclose(k(A).numpy(), 2 * A)
    w = padax.to_tensor(np.float32(5.0))
    np.testing.assert_allclose(k(A).numpy(), 5 * A)
