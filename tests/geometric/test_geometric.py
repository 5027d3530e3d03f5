"""padax.geometric against Paddle (paddle.geometric): message passing, segment reductions (values,
empty segments, numerical gradients, jit with out_size, vmap), sampling (structure, valid neighbours,
the deterministic cases) and reindexing."""
import numpy as np
import pytest

import padax
import padax.geometric as G
from padax.test_util import check_grads
from tests.conftest import paddle_oracle

RNG = np.random.default_rng(3)
SRC = np.array([0, 1, 2, 0, 3, 1], np.int64)
DST = np.array([1, 2, 1, 0, 1, 4], np.int64)   # node 3 and (for 5 rows) node 5 receive nothing


def _close(got, want, tol=1e-5):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=tol, atol=tol)


@pytest.mark.parametrize("reduce_op", ["sum", "mean", "max", "min"])
def test_send_u_recv_matches_paddle(reduce_op):
    paddle = paddle_oracle()
    x = RNG.standard_normal((5, 3)).astype(np.float32)
    want = paddle.geometric.send_u_recv(paddle.to_tensor(x), paddle.to_tensor(SRC), paddle.to_tensor(DST),
                                        reduce_op).numpy()
    got = G.send_u_recv(x, SRC, DST, reduce_op)
    assert got.shape == (5, 3) and got.dtype == padax.float32
    _close(got, want)
    assert np.all(np.asarray(got)[3] == 0)
    want6 = paddle.geometric.send_u_recv(paddle.to_tensor(x), paddle.to_tensor(SRC), paddle.to_tensor(DST),
                                         reduce_op, out_size=6).numpy()
    _close(G.send_u_recv(x, SRC.astype(np.int32), DST.astype(np.int32), reduce_op, out_size=6), want6)
    xi = (x * 10).astype(np.int32)
    wanti = paddle.geometric.send_u_recv(paddle.to_tensor(xi), paddle.to_tensor(SRC), paddle.to_tensor(DST),
                                         reduce_op).numpy()
    np.testing.assert_array_equal(np.asarray(G.send_u_recv(xi, SRC, DST, reduce_op)), wanti)


@pytest.mark.parametrize("message_op", ["add", "sub", "mul", "div"])
@pytest.mark.parametrize("reduce_op", ["sum", "mean", "max", "min"])
def test_send_ue_recv_matches_paddle(message_op, reduce_op):
    paddle = paddle_oracle()
    x = RNG.standard_normal((5, 2, 3)).astype(np.float32)
    y = (RNG.random((6, 1, 3)) + 0.5).astype(np.float32)   # broadcast over x's middle axis
    want = paddle.geometric.send_ue_recv(paddle.to_tensor(x), paddle.to_tensor(y), paddle.to_tensor(SRC),
                                         paddle.to_tensor(DST), message_op, reduce_op).numpy()
    _close(G.send_ue_recv(x, y, SRC, DST, message_op, reduce_op), want)


@pytest.mark.parametrize("message_op", ["add", "sub", "mul", "div"])
def test_send_uv_matches_paddle(message_op):
    paddle = paddle_oracle()
    x = RNG.standard_normal((5, 3)).astype(np.float32)
    y = (RNG.random((5, 1)) + 0.5).astype(np.float32)
    want = paddle.geometric.send_uv(paddle.to_tensor(x), paddle.to_tensor(y), paddle.to_tensor(SRC),
                                    paddle.to_tensor(DST), message_op).numpy()
    _close(G.send_uv(x, y, SRC, DST, message_op), want)


@pytest.mark.parametrize("fn", ["segment_sum", "segment_mean", "segment_max", "segment_min"])
def test_segment_ops_match_paddle(fn):
    paddle = paddle_oracle()
    data = RNG.standard_normal((5, 3)).astype(np.float32)
    ids = np.array([0, 0, 2, 2, 4], np.int64)                  # segments 1 and 3 are empty
    want = getattr(paddle.geometric, fn)(paddle.to_tensor(data), paddle.to_tensor(ids)).numpy()
    got = getattr(G, fn)(data, ids)
    assert got.shape == (5, 3)
    _close(got, want)
    di = (data * 10).astype(np.int64)
    wanti = getattr(paddle.geometric, fn)(paddle.to_tensor(di), paddle.to_tensor(ids.astype(np.int32))).numpy()
    np.testing.assert_array_equal(np.asarray(getattr(G, fn)(di, ids.astype(np.int32))), wanti)
    _close(padax.jit(lambda d, i: getattr(G, fn)(d, i, out_size=5))(data, ids), want)
    with pytest.raises(TypeError, match="out_size"):
        padax.jit(lambda d, i: getattr(G, fn)(d, i))(data, ids)


@pytest.mark.parametrize("reduce_op", ["sum", "mean", "max", "min"])
def test_gradients_numerical(reduce_op):
    x = RNG.standard_normal((5, 3))          # distinct values: max/min are differentiable here
    y = RNG.random((6, 3)) + 0.5
    check_grads(lambda v: G.send_u_recv(v, SRC, DST, reduce_op), (x,), order=1, modes=("rev",))
    check_grads(lambda a, b: G.send_ue_recv(a, b, SRC, DST, "mul", reduce_op), (x, y), order=1)
    seg = "segment_" + reduce_op
    check_grads(lambda v: getattr(G, seg)(v, np.array([0, 0, 2, 2, 4])), (x,), order=1, modes=("rev",))
    check_grads(lambda a, b: G.send_uv(a, b, SRC, DST, "div"), (x, x * 0 + 2.0 + RNG.random((5, 3))), order=1)


def test_gradient_matches_paddle_backward():
    paddle = paddle_oracle()
    x = RNG.standard_normal((5, 3)).astype(np.float32)
    xt = paddle.to_tensor(x, stop_gradient=False)
    w = RNG.standard_normal((5, 3)).astype(np.float32)
    (paddle.geometric.send_u_recv(xt, paddle.to_tensor(SRC), paddle.to_tensor(DST), "mean")
     * paddle.to_tensor(w)).sum().backward()
    g = padax.grad(lambda v: (G.send_u_recv(v, SRC, DST, "mean") * w).sum())(x)
    _close(g, xt.grad.numpy())


def test_jit_and_vmap():
    x = RNG.standard_normal((4, 5, 3)).astype(np.float32)
    f = padax.jit(lambda v: G.send_u_recv(v, SRC, DST, "max", out_size=5))
    batched = padax.vmap(f)(x)
    for b in range(4):
        _close(batched[b], G.send_u_recv(x[b], SRC, DST, "max"))
    ids = np.stack([RNG.permutation([0, 0, 1, 2, 2]) for _ in range(4)])
    seg = padax.vmap(lambda d, i: G.segment_sum(d, i, out_size=3))(x, ids)
    for b in range(4):
        _close(seg[b], G.segment_sum(x[b], ids[b], out_size=3))


ROW = np.array([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7], np.int64)
COLPTR = np.array([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13], np.int64)
NODES = np.array([0, 8, 1, 2, 5, 7], np.int64)


def test_sample_neighbors_all_and_small_degree_match_paddle():
    paddle = paddle_oracle()
    # Paddle 3.3's CPU kernel aborts for sample_size=-1; sample_size >= every degree is the same case there
    want = paddle.geometric.sample_neighbors(paddle.to_tensor(ROW), paddle.to_tensor(COLPTR), paddle.to_tensor(NODES),
                                             sample_size=2, eids=paddle.arange(13), return_eids=True)
    for k in (-1, 2, 5):
        got = G.sample_neighbors(ROW, COLPTR, NODES, sample_size=k, eids=np.arange(13), return_eids=True)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(np.asarray(g), w.numpy())
        assert got[0].dtype == padax.int64 and got[1].dtype == padax.int32
    wsample = paddle.geometric.weighted_sample_neighbors(
        paddle.to_tensor(ROW), paddle.to_tensor(COLPTR), paddle.to_tensor(np.arange(1.0, 14.0, dtype=np.float32)),
        paddle.to_tensor(NODES), sample_size=2)
    got = G.weighted_sample_neighbors(ROW, COLPTR, np.arange(1.0, 14.0), NODES, sample_size=-1)
    for g, w in zip(got, wsample):
        np.testing.assert_array_equal(np.asarray(g), w.numpy())


@pytest.mark.parametrize("weighted", [False, True])
def test_sampling_structure_and_seed(weighted):
    def draw():
        if weighted:
            return G.weighted_sample_neighbors(ROW, COLPTR, np.arange(1.0, 14.0), NODES, 1, eids=np.arange(13),
                                               return_eids=True)
        return G.sample_neighbors(ROW, COLPTR, NODES, 1, eids=np.arange(13), return_eids=True)
    padax.seed(5)
    nb, count, eids = draw()
    np.testing.assert_array_equal(np.asarray(count), [1, 1, 1, 1, 1, 0])
    assert nb.shape == (5,) and eids.shape == (5,)
    offs = np.concatenate([[0], np.cumsum(np.asarray(count))])
    for i, n in enumerate(NODES):
        for j in range(offs[i], offs[i + 1]):
            e = int(np.asarray(eids)[j])
            assert COLPTR[n] <= e < COLPTR[n + 1] and ROW[e] == int(np.asarray(nb)[j])
    padax.seed(5)
    np.testing.assert_array_equal(np.asarray(draw()[0]), np.asarray(nb))


def test_weighted_sampling_prefers_heavy_edges():
    row = np.arange(4, dtype=np.int64)
    colptr = np.array([0, 4], np.int64)
    padax.seed(0)
    picks = [int(np.asarray(G.weighted_sample_neighbors(row, colptr, np.array([1e-3, 1e-3, 1e-3, 1e3]),
                                                          np.array([0]), 1)[0])[0]) for _ in range(20)]
    assert picks.count(3) >= 18
    with pytest.raises(ValueError, match="eids"):
        G.sample_neighbors(row, colptr, np.array([0]), 1, return_eids=True)


def test_reindex_matches_paddle():
    paddle = paddle_oracle()
    x = np.array([0, 1, 2], np.int64)
    nb = np.array([8, 9, 0, 4, 7, 6, 7], np.int64)
    ct = np.array([2, 3, 2], np.int32)
    want = paddle.geometric.reindex_graph(paddle.to_tensor(x), paddle.to_tensor(nb), paddle.to_tensor(ct))
    for g, w in zip(G.reindex_graph(x, nb, ct), want):
        np.testing.assert_array_equal(np.asarray(g), w.numpy())
    nb2, ct2 = np.array([0, 2, 3, 5, 1], np.int64), np.array([1, 3, 1], np.int32)
    want = paddle.geometric.reindex_heter_graph(paddle.to_tensor(x), [paddle.to_tensor(nb), paddle.to_tensor(nb2)],
                                                [paddle.to_tensor(ct), paddle.to_tensor(ct2)])
    for g, w in zip(G.reindex_heter_graph(x, [nb, nb2], [ct, ct2]), want):
        np.testing.assert_array_equal(np.asarray(g), w.numpy())


def test_errors():
    with pytest.raises(ValueError, match="reduce_op"):
        G.send_u_recv(np.ones((2, 2)), SRC[:1], DST[:1], "prod")
    with pytest.raises(ValueError, match="message_op"):
        G.send_uv(np.ones((2, 2)), np.ones((2, 2)), SRC[:1], DST[:1], "pow")
    with pytest.raises(TypeError, match="int32 or int64"):
        G.segment_sum(np.ones((2, 2)), np.array([0.0, 1.0]))


def test_int32_graphs_and_tensor_out_size():
    row, colptr = ROW.astype(np.int32), COLPTR.astype(np.int32)
    nb, count = G.sample_neighbors(row, colptr, NODES.astype(np.int32), sample_size=1)
    assert nb.dtype == padax.int32 and count.dtype == padax.int32 and nb.shape == (5,)
    src, dst, nodes = G.reindex_graph(np.array([0, 1], np.int32), np.array([5, 0, 5], np.int32),
                                      np.array([2, 1], np.int32))
    assert src.dtype == dst.dtype == nodes.dtype == padax.int32
    np.testing.assert_array_equal(np.asarray(src), [2, 0, 2])
    np.testing.assert_array_equal(np.asarray(nodes), [0, 1, 5])
    x = RNG.standard_normal((5, 2)).astype(np.float32)
    out = G.send_u_recv(x, SRC, DST, "sum", out_size=padax.max(padax.to_tensor(DST)) + 1)
    assert out.shape == (5, 2)
    assert G.send_u_recv(x, SRC, DST, "sum", out_size=0).shape == (5, 2)      # <= 0: x's rows, as Paddle


@pytest.mark.parametrize("xs,ys", [((5,), (6,)), ((5, 1), (6, 3)), ((5, 2, 1), (6, 1, 3)), ((5, 4), (6,))])
def test_message_shapes_broadcast_as_paddle(xs, ys):
    paddle = paddle_oracle()
    x = RNG.standard_normal(xs).astype(np.float32)
    y = RNG.standard_normal(ys).astype(np.float32)
    pt = paddle.to_tensor
    want = paddle.geometric.send_ue_recv(pt(x), pt(y), pt(SRC), pt(DST), "mul", "sum").numpy()
    _close(G.send_ue_recv(x, y, SRC, DST, "mul", "sum"), want)
    want = paddle.geometric.send_uv(pt(x), pt(x), pt(SRC), pt(DST), "add").numpy()
    _close(G.send_uv(x, x, SRC, DST, "add"), want)


def test_sampling_under_jit_says_to_call_it_outside():
    with pytest.raises(TypeError, match="outside jit"):
        padax.jit(lambda r: G.sample_neighbors(r, COLPTR, NODES, 1))(ROW)
