"""Mixture of experts: moe_topk_gating (routing, capacity, the aux loss) against numpy; MoELayer against a
naive per-token loop over experts; gradients against finite differences."""
import math

import numpy as np
import pytest

import padax
from padax.incubate.nn import MoELayer
from padax.incubate.nn.functional import moe_permute, moe_topk_gating, moe_unpermute
from padax.test_util import check_grads
from tests.conftest import assert_close


def _np_gating(logits, k, capacity):
    s, e = logits.shape
    p = np.exp(logits - logits.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    idx = np.argsort(-p, axis=-1, kind="stable")[:, :k]
    w = np.take_along_axis(p, idx, -1)
    w = w / w.sum(-1, keepdims=True)
    keep = np.ones((s, k), bool)
    if capacity is not None:
        used = np.zeros(e, int)
        for j in range(k):            # first choices of every token, then second choices, ...
            for t in range(s):
                keep[t, j] = used[idx[t, j]] < capacity
                used[idx[t, j]] += 1
    counts = np.bincount(idx.ravel(), minlength=e)
    aux = e * np.sum(counts / (s * k) * p.mean(0))
    return w * keep, idx, keep, aux


@pytest.mark.parametrize("k,capacity_factor", [(1, None), (2, None), (2, 1.0), (1, 0.5), (3, 1.25)])
def test_gating_matches_numpy(k, capacity_factor):
    rng = np.random.default_rng(k)
    logits = rng.standard_normal((9, 4)).astype(np.float32)
    w, e, keep, aux = moe_topk_gating(logits, k, capacity_factor=capacity_factor)
    cap = None if capacity_factor is None else math.ceil(capacity_factor * 9 * k / 4)
    nw, ne, nkeep, naux = _np_gating(logits.astype(np.float64), k, cap)
    np.testing.assert_array_equal(np.asarray(e), ne)
    np.testing.assert_array_equal(np.asarray(keep), nkeep)
    assert_close(w, nw.astype(np.float32), rtol=1e-5, atol=1e-6)
    assert_close(aux, np.float32(naux), rtol=1e-5)
    if cap is not None:
        assert np.bincount(ne[nkeep], minlength=4).max() <= cap


def test_aux_loss_is_one_for_uniform_routing_and_grows_when_unbalanced():
    # 4 tokens, each on its own expert with equal probability mass
    logits = np.eye(4, dtype=np.float32) * 5.0
    assert_close(moe_topk_gating(logits, 1)[3], np.float32(1.0), rtol=1e-6)
    all_on_zero = np.tile(np.array([[5.0, 0, 0, 0]], np.float32), (4, 1))
    assert float(moe_topk_gating(all_on_zero, 1)[3]) > 3.0


def test_permute_unpermute_round_trip():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((6, 3)).astype(np.float32)
    experts = rng.integers(0, 3, (6, 2)).astype(np.int32)
    keep = rng.random((6, 2)) > 0.3
    rows, sizes, order = moe_permute(x, experts, 3, keep)
    np.testing.assert_array_equal(np.asarray(sizes), np.bincount(experts[keep], minlength=3))
    sorted_e = np.asarray(experts).reshape(-1)[np.asarray(order)][: int(np.asarray(sizes).sum())]
    assert np.all(np.diff(sorted_e) >= 0)
    w = rng.random((6, 2)).astype(np.float32) * keep
    y = moe_unpermute(rows, order, w)
    assert_close(y, (x[:, None, :] * w[..., None]).sum(1), rtol=1e-5, atol=1e-6)


def _naive(layer, x):
    """Per token, per chosen expert, in numpy (float64)."""
    p = {n: np.asarray(getattr(layer, n), np.float64) for n in ("gate_weight", "w1", "b1", "w2", "b2")}
    toks = np.asarray(x, np.float64).reshape(-1, layer.d_model)
    s = toks.shape[0]
    cap = None if layer.capacity_factor is None else math.ceil(layer.capacity_factor * s * layer.top_k
                                                               / layer.num_experts)
    w, idx, keep, aux = _np_gating(toks @ p["gate_weight"], layer.top_k, cap)
    gelu = lambda h: 0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2)))
    y = np.zeros_like(toks)
    for t in range(s):
        for j in range(layer.top_k):
            if keep[t, j]:
                e = idx[t, j]
                y[t] += w[t, j] * (gelu(toks[t] @ p["w1"][e] + p["b1"][e]) @ p["w2"][e] + p["b2"][e])
    return y.reshape(np.shape(x)), aux


@pytest.mark.parametrize("top_k,capacity_factor", [(1, None), (2, None), (2, 0.75)])
def test_layer_equals_per_token_loop(top_k, capacity_factor):
    padax.seed(0)
    layer = MoELayer(4, 6, 3, top_k=top_k, capacity_factor=capacity_factor,
                     bias_attr=padax.nn.initializer.Normal(0.0, 0.5))
    x = np.random.default_rng(1).standard_normal((2, 5, 4)).astype(np.float32)
    y, aux = padax.jit(lambda m, v: m(v))(layer, x)    # eagerly: the doctest
    ny, naux = _naive(layer, x)
    assert_close(y, ny.astype(np.float32), rtol=1e-4, atol=1e-5)
    assert_close(aux, np.float32(naux), rtol=1e-5)


def test_gradients_flow_and_match_finite_differences(x64):
    padax.seed(0)
    layer = MoELayer(3, 4, 3, top_k=2)
    layer = padax.tree.map(lambda a: padax.cast(a, "float64"), layer)
    x = np.random.default_rng(2).standard_normal((4, 3))
    probe = np.random.default_rng(3).standard_normal((4, 3))

    @padax.jit
    def loss(gate_weight, w1, b1, w2, b2, x):
        m = padax.tree.map(lambda a: a, layer)
        m.gate_weight, m.w1, m.b1, m.w2, m.b2 = (padax.to_tensor(a) for a in (gate_weight, w1, b1, w2, b2))
        y, aux = m(x)
        return padax.sum(y * probe) + 0.1 * aux

    args = [layer.gate_weight, layer.w1, layer.b1, layer.w2, layer.b2, padax.to_tensor(x)]
    grads = padax.grad(loss, argnums=tuple(range(6)))(*args)
    assert all(float(padax.abs(g).max()) > 0 for g in grads)   # every parameter (the router too) gets gradient
    check_grads(loss, args, order=1, modes=("rev",), eps=1e-5, atol=1e-6, rtol=1e-6)
