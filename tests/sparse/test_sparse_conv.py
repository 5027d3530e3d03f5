"""padax.sparse.nn's 3-D layers against Paddle (paddle.sparse.nn, CPU): conv3d and subm_conv3d (output
sites, their order, values, for padding / stride / dilation), max_pool3d, BatchNorm; the layers with
Paddle's weights; numerical gradients with respect to the input values, the weight and the bias."""
import numpy as np
import pytest

import padax
import padax.sparse as S
from padax.test_util import check_grads
from tests.conftest import paddle_oracle

RNG = np.random.default_rng(11)
IDX = np.array([[0, 0, 0, 0, 1, 1], [0, 1, 2, 1, 0, 2], [1, 0, 2, 2, 1, 2], [0, 2, 1, 1, 2, 3]], np.int64)
SHAPE = [2, 3, 3, 4, 2]
VALS = RNG.standard_normal((6, 2)).astype(np.float32)
W = RNG.standard_normal((3, 3, 3, 2, 4)).astype(np.float32)
B = RNG.standard_normal(4).astype(np.float32)


def _inputs():
    paddle = paddle_oracle()
    return S.sparse_coo_tensor(IDX, VALS, SHAPE), paddle.sparse.sparse_coo_tensor(IDX, VALS, SHAPE)


def _same(got, want, tol=1e-4):
    assert got.is_sparse_coo() and list(got.shape) == list(want.shape)
    np.testing.assert_array_equal(np.asarray(got.indices()), want.indices().numpy())
    np.testing.assert_allclose(np.asarray(got.values()), want.values().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("kw", [dict(padding=1), dict(padding=0), dict(stride=2, padding=1),
                                dict(dilation=2, padding=2), dict(stride=[1, 2, 1], padding=[1, 0, 1])])
def test_conv3d_matches_paddle(kw):
    paddle = paddle_oracle()
    x, px = _inputs()
    got = S.nn.functional.conv3d(x, padax.to_tensor(W), padax.to_tensor(B), **kw)
    _same(got, paddle.sparse.nn.functional.conv3d(px, paddle.to_tensor(W), paddle.to_tensor(B), **kw))


@pytest.mark.parametrize("padding", [1, 0])
def test_subm_conv3d_matches_paddle(padding):
    paddle = paddle_oracle()
    x, px = _inputs()
    got = S.nn.functional.subm_conv3d(x, padax.to_tensor(W), padax.to_tensor(B), padding=padding)
    _same(got, paddle.sparse.nn.functional.subm_conv3d(px, paddle.to_tensor(W), paddle.to_tensor(B),
                                                      padding=padding))
    assert got.nnz() == x.nnz()
    with pytest.raises(ValueError, match="stride 1"):
        S.nn.functional.subm_conv3d(x, W, stride=2)


@pytest.mark.parametrize("kw", [dict(kernel_size=2, stride=1), dict(kernel_size=3, stride=2, padding=1),
                                dict(kernel_size=[1, 2, 2])])
def test_max_pool3d_matches_paddle(kw):
    paddle = paddle_oracle()
    x, px = _inputs()
    _same(S.nn.functional.max_pool3d(x, **kw), paddle.sparse.nn.functional.max_pool3d(px, **kw))
    _same(S.nn.MaxPool3D(**kw)(x), paddle.sparse.nn.MaxPool3D(**kw)(px))


def test_layers_with_paddles_weights_match_paddle():
    paddle = paddle_oracle()
    x, px = _inputs()
    for ours, theirs in ((S.nn.Conv3D(2, 4, 3, padding=1), paddle.sparse.nn.Conv3D(2, 4, 3, padding=1)),
                         (S.nn.SubmConv3D(2, 4, 3, padding=1), paddle.sparse.nn.SubmConv3D(2, 4, 3, padding=1))):
        assert ours.weight.shape == tuple(theirs.weight.shape) and ours.bias.shape == tuple(theirs.bias.shape)
        ours.weight = padax.to_tensor(theirs.weight.numpy())
        ours.bias = padax.to_tensor(theirs.bias.numpy())
        _same(ours(x), theirs(px))
    assert S.nn.Conv3D(2, 4, 3, bias_attr=False).bias is None
    _same(S.nn.BatchNorm(2)(x), paddle.sparse.nn.BatchNorm(2)(px))


def _grad_args():
    w = RNG.standard_normal((1, 3, 3, 2, 1))
    b = RNG.standard_normal(1)
    return padax.to_tensor(VALS.astype(np.float64)), padax.to_tensor(w), padax.to_tensor(b)


def test_conv3d_grads_values_weight_bias():
    def conv(v, w, b):
        return S.nn.functional.conv3d(S.sparse_coo_tensor(IDX, v, SHAPE), w, b, stride=2, padding=1).values()

    check_grads(conv, _grad_args(), order=1, modes=("rev",))


def test_subm_conv3d_grads_values_weight_bias():
    def subm(v, w, b):
        return S.nn.functional.subm_conv3d(S.sparse_coo_tensor(IDX, v, SHAPE), w, b, padding=1).values()

    check_grads(subm, _grad_args(), order=1, modes=("rev",))


def test_max_pool3d_grads_values():
    check_grads(lambda v: S.nn.functional.max_pool3d(S.sparse_coo_tensor(IDX, v, SHAPE), 2, 1).values(),
                (padax.to_tensor(VALS.astype(np.float64)),), order=1, modes=("rev",))


IDX2 = np.array([[0, 0, 0, 1, 1], [0, 1, 2, 0, 2], [1, 0, 3, 2, 3]], np.int64)
SHAPE2 = [2, 3, 4, 2]
VALS2 = RNG.standard_normal((5, 2)).astype(np.float32)


@pytest.mark.parametrize("kw", [dict(padding=1), dict(stride=2, padding=1), dict(padding=0)])
def test_conv2d_and_subm_conv2d_match_paddle(kw):
    paddle = paddle_oracle()
    x = S.sparse_coo_tensor(IDX2, VALS2, SHAPE2)
    px = paddle.sparse.sparse_coo_tensor(IDX2, VALS2, SHAPE2)
    w = RNG.standard_normal((3, 3, 2, 3)).astype(np.float32)
    F, PF = S.nn.functional, paddle.sparse.nn.functional
    _same(F.conv2d(x, padax.to_tensor(w), **kw), PF.conv2d(px, paddle.to_tensor(w), **kw))
    if "stride" not in kw:
        _same(F.subm_conv2d(x, padax.to_tensor(w), **kw), PF.subm_conv2d(px, paddle.to_tensor(w), **kw))
    ours, theirs = S.nn.Conv2D(2, 3, 3, **kw), paddle.sparse.nn.Conv2D(2, 3, 3, **kw)
    ours.weight, ours.bias = padax.to_tensor(theirs.weight.numpy()), padax.to_tensor(theirs.bias.numpy())
    _same(ours(x), theirs(px))


def test_sync_batch_norm_is_batch_norm_on_one_process():
    x, px = _inputs()
    _same(S.nn.SyncBatchNorm(2)(x), paddle_oracle().sparse.nn.BatchNorm(2)(px))


def _attention_numpy(q, k, v, layout, kpm=None, am=None):
    b, h, s, d = q.shape
    scores = np.einsum("bhsd,bhtd->bhst", q, k) / np.sqrt(d)
    keep = layout.reshape(b, h, s, s).astype(bool)
    if kpm is not None:
        keep = keep & (kpm[:, None, None, :] != 0)
    if am is not None:
        keep = keep & (am[None, None] != 0)
    scores = np.where(keep, scores, -np.inf)
    p = np.exp(scores - scores.max(-1, keepdims=True))
    p = np.where(keep, p, 0)
    p = p / p.sum(-1, keepdims=True)
    return p @ v


def test_attention_matches_the_dense_formula():
    b, h, s, d = 2, 2, 4, 3
    q, k, v = (RNG.standard_normal((b, h, s, d)) for _ in range(3))
    layout = np.tril(np.ones((s, s)))[None].repeat(b * h, 0)
    mask = S.to_sparse_csr(padax.to_tensor(layout))
    attention = padax.jit(S.nn.functional.attention)  # (a sparse tensor argument: a pytree with a static nnz)
    got = attention(padax.to_tensor(q), padax.to_tensor(k), padax.to_tensor(v), mask)
    np.testing.assert_allclose(np.asarray(got), _attention_numpy(q, k, v, layout), rtol=1e-6, atol=1e-6)
    kpm = np.array([[1, 1, 1, 0], [1, 1, 1, 1]], np.float64)
    am = np.ones((s, s))
    am[3, 1] = 0
    got = attention(padax.to_tensor(q), padax.to_tensor(k), padax.to_tensor(v), mask, padax.to_tensor(kpm),
                    padax.to_tensor(am))
    np.testing.assert_allclose(np.asarray(got), _attention_numpy(q, k, v, layout, kpm, am), rtol=1e-6, atol=1e-6)


def test_attention_grads():
    q, k, v = (padax.to_tensor(RNG.standard_normal((1, 1, 3, 2))) for _ in range(3))
    mask = S.to_sparse_csr(padax.to_tensor(np.tril(np.ones((3, 3)))[None]))
    check_grads(padax.jit(lambda q, k, v: S.nn.functional.attention(q, k, v, mask)), (q, k, v), order=1,
                modes=("rev",))


def test_pca_lowrank_reconstructs_a_low_rank_sparse_matrix():
    a = RNG.standard_normal((6, 2)) @ RNG.standard_normal((2, 5))
    a[np.abs(a) < 0.3] = 0
    x = S.to_sparse_coo(padax.to_tensor(a))
    u, sv, v = S.pca_lowrank(x, q=5, center=False, niter=4)
    assert u.shape == (6, 5) and sv.shape == (5,) and v.shape == (5, 5)
    np.testing.assert_allclose(np.asarray(u) * np.asarray(sv) @ np.asarray(v).T, a, atol=1e-8)
    np.testing.assert_allclose(np.asarray(sv), np.linalg.svd(a, compute_uv=False), atol=1e-8)
