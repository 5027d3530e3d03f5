"""padax.incubate's top level, autograd, optimizer wrappers and fused layers against PaddlePaddle (CPU): the
fused layers load a Paddle layer's state_dict and are compared with Paddle's unfused ops on the same weights
(Paddle's fused kernels are CUDA-only); LookAhead/ModelAverage run the same dygraph loop on both frameworks."""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.incubate as inc
from tests.conftest import paddle_oracle

RNG = np.random.default_rng(0)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _close(a, b, tol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


# ---------------------------------------------------------------------------------------------
# the top level


def test_softmax_mask_fuse_against_paddle_and_numpy():
    paddle = paddle_oracle()
    x, mask = f32(2, 3, 4, 5), np.where(RNG.random((2, 1, 4, 5)) < 0.3, -1e4, 0.0).astype(np.float32)
    ref = paddle.incubate.softmax_mask_fuse(paddle.to_tensor(x), paddle.to_tensor(mask)).numpy()
    _close(inc.softmax_mask_fuse(x, mask), ref)
    s = x[:, :, :, :4]
    e = np.exp(np.where(np.tril(np.ones((4, 4), bool)), s, -np.inf) - s.max(-1, keepdims=True))
    _close(inc.softmax_mask_fuse_upper_triangle(s), e / e.sum(-1, keepdims=True))
    half = inc.softmax_mask_fuse_upper_triangle(padax.to_tensor(s).astype("float16"))
    assert half.dtype == padax.float16
    with pytest.raises(ValueError, match="softmax_mask_fuse.*mask must be"):
        inc.softmax_mask_fuse(x, mask[:, :, :3])
    with pytest.raises(ValueError, match="softmax_mask_fuse_upper_triangle.*square"):
        inc.softmax_mask_fuse_upper_triangle(x)


def test_segment_and_graph_send_recv_are_geometric_aliases():
    paddle = paddle_oracle()
    assert inc.segment_sum is padax.geometric.segment_sum and inc.segment_max is padax.geometric.segment_max
    x, src, dst = f32(4, 3), np.array([0, 1, 2, 3, 1]), np.array([1, 2, 1, 0, 0])
    for pool in ("sum", "mean", "max", "min"):
        ref = paddle.incubate.graph_send_recv(paddle.to_tensor(x), paddle.to_tensor(src), paddle.to_tensor(dst),
                                              pool_type=pool).numpy()
        _close(inc.graph_send_recv(x, src, dst, pool_type=pool), ref)


# ---------------------------------------------------------------------------------------------
# autograd


def test_vjp_jvp_against_paddle():
    paddle = paddle_oracle()
    pa = paddle.incubate.autograd
    x, y, v = f32(3), f32(2, 2), f32(3)

    def g(fw):
        return lambda a, b: (a * (b * b).sum(), fw.tanh(a))
    for fw_ad, fw, cast in ((inc.autograd, padax, padax.to_tensor), (pa, paddle, paddle.to_tensor)):
        xs = [cast(x), cast(y)]
        if fw is paddle:
            for t in xs:
                t.stop_gradient = False
        out = fw_ad.vjp(g(fw), xs, [cast(v), cast(v)])
        jv = fw_ad.jvp(lambda a: fw.tanh(a) * a, cast(x), cast(v))
        if fw is padax:
            mine = out, jv
        else:
            ref = out, jv
    (ys, grads), (jy, jt) = mine
    (rys, rgrads), (rjy, rjt) = ref
    for a, b in zip((*ys, *grads, jy, jt), (*rys, *rgrads, rjy, rjt)):
        _close(a, b.numpy())
    y1, g1 = inc.autograd.vjp(lambda a: a * a, padax.to_tensor(x))    # a single Tensor in: a Tensor out
    _close(g1, 2 * x)
    with pytest.raises(ValueError, match="vjp.*v must match"):
        inc.autograd.vjp(lambda a: a * a, padax.to_tensor(x), padax.ones([4]))


@pytest.mark.parametrize("batched", [False, True])
def test_jacobian_hessian_against_paddle(batched):
    paddle = paddle_oracle()
    pa = paddle.incubate.autograd
    x, y = f32(2, 3), f32(2, 2)

    def f(a, b):
        return [a * a * b[:, :1], a.sum(-1, keepdim=True) * b]

    def h(a, b):
        s = (a * a * a).sum(-1) if batched else (a * a * a).sum()
        return (s * (b * b).sum(-1) if batched else s * (b * b).sum()).reshape([-1, 1] if batched else [1])

    pxs = [paddle.to_tensor(x), paddle.to_tensor(y)]
    for t in pxs:
        t.stop_gradient = False
    J, rJ = inc.autograd.Jacobian(f, [x, y], is_batched=batched), pa.Jacobian(f, pxs, is_batched=batched)
    H, rH = inc.autograd.Hessian(h, [x, y], is_batched=batched), pa.Hessian(h, pxs, is_batched=batched)
    assert tuple(J.shape) == tuple(rJ.shape) and tuple(H.shape) == tuple(rH.shape)
    idxs = [slice(None), 0, -1, (slice(None), 1), (slice(0, None, 2), slice(1, 3))]
    if batched:
        idxs += [(0, slice(None), 2), (slice(None), 3, 1)]
    for idx in idxs:
        _close(J[idx], rJ[idx].numpy())
        _close(H[idx], rH[idx].numpy(), 1e-4)
    with pytest.raises(ValueError, match="Hessian.*single-element"):
        inc.autograd.Hessian(lambda a: a * a, padax.to_tensor(x[0]))
    with pytest.raises(IndexError, match="Ellipsis"):
        J[..., 0]


def test_jacobian_rows_are_lazy_and_cached():
    calls = []

    def f(a):
        calls.append(1)
        return a * a
    J = inc.autograd.Jacobian(f, padax.to_tensor([1.0, 2.0, 3.0]))
    r0 = J[0]
    assert set(J._cache) == {0}
    J[:, 0]
    assert set(J._cache) == {0, 1, 2} and J[0] is not None and len(calls) == 1
    _close(r0, [2.0, 0.0, 0.0])


# ---------------------------------------------------------------------------------------------
# LookAhead and ModelAverage


W0, B0 = f32(3, 2), f32(2)
XS = [f32(4, 3) for _ in range(7)]


def _dygraph_loop(fw, wrapper, **kw):
    m = fw.nn.Linear(3, 2)
    m.weight.set_value(fw.to_tensor(W0))
    m.bias.set_value(fw.to_tensor(B0))
    inner = fw.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=m.parameters())
    ns = fw.incubate
    if wrapper == "LookAhead":
        opt = ns.LookAhead(inner, **kw)
    else:
        ma = ns.ModelAverage(0.3, parameters=m.parameters(), **kw)
    for x in XS:
        loss = (m(fw.to_tensor(x)) ** 2).mean()
        loss.backward()
        if wrapper == "LookAhead":
            opt.step()
            opt.clear_grad()
        else:
            inner.step()
            ma.step()
            inner.clear_grad()
    if wrapper == "LookAhead":
        return [m.weight.numpy(), m.bias.numpy()]
    with ma.apply():
        avg = [m.weight.numpy().copy(), m.bias.numpy().copy()]
    with ma.apply(need_restore=False):
        pass
    kept = m.weight.numpy().copy()
    ma.restore()
    return avg + [kept, m.weight.numpy()]


@pytest.mark.parametrize("wrapper,kw", [("LookAhead", {"alpha": 0.3, "k": 3}), ("LookAhead", {"alpha": 0.5, "k": 1}),
                                        ("ModelAverage", {"min_average_window": 2, "max_average_window": 3}),
                                        ("ModelAverage", {"min_average_window": 10, "max_average_window": 20})])
def test_optimizer_wrappers_match_paddle_dygraph(wrapper, kw):
    paddle = paddle_oracle()
    for a, b in zip(_dygraph_loop(padax, wrapper, **kw), _dygraph_loop(paddle, wrapper, **kw)):
        _close(a, b)


def test_lookahead_functional_matches_dygraph():
    sgd = padax.optimizer.SGD(learning_rate=0.1)
    la = inc.LookAhead(sgd, alpha=0.3, k=3)
    params = {"w": padax.to_tensor(W0), "b": padax.to_tensor(B0)}
    state = la.init(params)

    def loss(p, x):
        return ((x @ p["w"] + p["b"]) ** 2).mean()
    step = padax.jit(lambda p, s, x: la.step(p, padax.grad(loss)(p, x), s))
    for x in XS:
        params, state = step(params, state, padax.to_tensor(x))
    m = padax.nn.Linear(3, 2)
    m.weight.set_value(padax.to_tensor(W0))
    m.bias.set_value(padax.to_tensor(B0))
    la2 = inc.LookAhead(padax.optimizer.SGD(learning_rate=0.1, parameters=m.parameters()), alpha=0.3, k=3)
    for x in XS:
        ((m(padax.to_tensor(x))) ** 2).mean().backward()
        la2.step()
        la2.clear_grad()
    _close(params["w"], m.weight.numpy())
    _close(params["b"], m.bias.numpy())
    with pytest.raises(ValueError, match="LookAhead.*alpha"):
        inc.LookAhead(sgd, alpha=1.5)
    with pytest.raises(ValueError, match="LookAhead.*k must"):
        inc.LookAhead(sgd, k=0)


# ---------------------------------------------------------------------------------------------
# the fused layers: Paddle's state_dict in, Paddle's unfused ops on the same weights as the reference


def _load(padax_layer, paddle_layer):
    sd = {k: v.numpy() for k, v in paddle_layer.state_dict().items()}
    assert set(sd) == set(padax_layer.state_dict())
    padax_layer.set_state_dict({k: padax.to_tensor(v) for k, v in sd.items()})
    return sd


def _ref_mha(paddle, sd, x, mask, pre, heads, prefix=""):
    F = paddle.nn.functional
    g = {k[len(prefix):]: paddle.to_tensor(v) for k, v in sd.items() if k.startswith(prefix)}
    b, s, e = x.shape
    h = F.layer_norm(x, [e], g["pre_ln_scale"], g["pre_ln_bias"], 1e-5) if pre else x
    w = g["qkv_weight"].reshape([3 * e, e]).T
    qkv = (h @ w + g["qkv_bias"].reshape([-1])).reshape([b, s, 3, heads, e // heads]).transpose([2, 0, 3, 1, 4])
    att = F.softmax(qkv[0] @ qkv[1].transpose([0, 1, 3, 2]) / np.sqrt(e // heads) + mask, -1)
    ctx = (att @ qkv[2]).transpose([0, 2, 1, 3]).reshape([b, s, e])
    out = x + ctx @ g["linear_weight"] + g["linear_bias"]
    return out if pre else F.layer_norm(out, [e], g["ln_scale"], g["ln_bias"], 1e-5)


def _ref_ffn(paddle, sd, x, pre, act, prefix=""):
    F = paddle.nn.functional
    g = {k[len(prefix):]: paddle.to_tensor(v) for k, v in sd.items() if k.startswith(prefix)}
    e = x.shape[-1]
    h = F.layer_norm(x, [e], g["_ln1_scale"], g["_ln1_bias"], 1e-5) if pre else x
    out = x + getattr(F, act)(h @ g["_linear1_weight"] + g["_linear1_bias"]) @ g["_linear2_weight"] + g["_linear2_bias"]
    return out if pre else F.layer_norm(out, [e], g["_ln2_scale"], g["_ln2_bias"], 1e-5)


def _randomize(paddle_layer):
    for p in paddle_layer.parameters():
        p.set_value(RNG.standard_normal(p.shape).astype(np.float32) * 0.5)


@pytest.mark.parametrize("pre", [False, True])
def test_fused_attention_ffn_encoder_load_paddle_state_dict(pre):
    paddle = paddle_oracle()
    pinc = paddle.incubate.nn
    x = f32(2, 5, 8)
    keep = RNG.random((2, 1, 5, 5)) < 0.8
    keep[..., 0] = True
    mask = np.where(keep, 0.0, -1e9).astype(np.float32)
    px, pmask = paddle.to_tensor(x), paddle.to_tensor(mask)

    p_attn = pinc.FusedMultiHeadAttention(8, 2, dropout_rate=0.0, attn_dropout_rate=0.0, normalize_before=pre)
    _randomize(p_attn)
    attn = inc.nn.FusedMultiHeadAttention(8, 2, dropout_rate=0.0, attn_dropout_rate=0.0, normalize_before=pre)
    sd = _load(attn, p_attn)
    _close(attn(x, attn_mask=mask), _ref_mha(paddle, sd, px, pmask, pre, 2).numpy())
    _close(attn(x, attn_mask=keep), _ref_mha(paddle, sd, px, pmask, pre, 2).numpy())   # a bool keep-mask

    for act in ("relu", "gelu"):
        p_ffn = pinc.FusedFeedForward(8, 16, dropout_rate=0.0, activation=act, normalize_before=pre)
        _randomize(p_ffn)
        ffn = inc.nn.FusedFeedForward(8, 16, dropout_rate=0.0, activation=act, normalize_before=pre)
        sd = _load(ffn, p_ffn)
        _close(ffn(x), _ref_ffn(paddle, sd, px, pre, act).numpy())

    p_enc = pinc.FusedTransformerEncoderLayer(8, 2, 16, dropout_rate=0.0, normalize_before=pre)
    _randomize(p_enc)
    enc = inc.nn.FusedTransformerEncoderLayer(8, 2, 16, dropout_rate=0.0, normalize_before=pre)
    sd = _load(enc, p_enc)
    ref = _ref_ffn(paddle, sd, _ref_mha(paddle, sd, px, pmask, pre, 2, "fused_attn."), pre, "relu", "ffn.")
    _close(enc(x, src_mask=mask), ref.numpy())


def test_fused_attention_cache_transposed_layout_and_training_dropout():
    x = f32(1, 3, 4)
    attn = inc.nn.FusedMultiHeadAttention(4, 2, dropout_rate=0.0, attn_dropout_rate=0.0)
    full = attn(x)
    # the transposed layout [E, 3E] holds the same weights
    t = inc.nn.FusedMultiHeadAttention(4, 2, dropout_rate=0.0, attn_dropout_rate=0.0, transpose_qkv_wb=True)
    sd = {k: v for k, v in attn.state_dict().items()}
    sd["qkv_weight"] = padax.to_tensor(np.asarray(sd["qkv_weight"]).reshape(12, 4).T)
    sd["qkv_bias"] = padax.to_tensor(np.asarray(sd["qkv_bias"]).reshape(12))
    t.set_state_dict(sd)
    _close(t(x), full)
    # a cache of the first two positions' keys and values gives the last position's output
    causal = np.triu(np.full((3, 3), -1e9, np.float32), 1)
    ref = attn(x, attn_mask=causal)
    _, cache = attn(x[:, :2], attn_mask=causal[:2, :2], cache=padax.zeros([2, 1, 2, 0, 2]))
    last, cache2 = attn(x[:, 2:], cache=cache)
    assert tuple(cache2.shape) == (2, 1, 2, 3, 2)
    _close(last, np.asarray(ref)[:, 2:])
    drop = inc.nn.FusedFeedForward(4, 8, dropout_rate=0.5)
    with padax.nn.rng_scope(padax.random.key(0)):
        a = drop(x)
    drop.eval()
    assert not np.allclose(np.asarray(a), np.asarray(drop(x)))
    with pytest.raises(ValueError, match="FusedMultiHeadAttention.*divisible"):
        inc.nn.FusedMultiHeadAttention(6, 4)
    with pytest.raises(ValueError, match="fused_multi_head_attention.*qkv_weight"):
        inc.nn.functional.fused_multi_head_attention(padax.ones([1, 2, 4]), padax.ones([3, 2, 2, 5]), padax.eye(4))


def test_fused_linear_dropout_add_bias_ln_against_paddle():
    paddle = paddle_oracle()
    pinc = paddle.incubate.nn
    x, y = f32(2, 3, 4), f32(2, 3, 4)
    for tw in (False, True):
        p_lin = pinc.FusedLinear(4, 5, transpose_weight=tw)
        lin = inc.nn.FusedLinear(4, 5, transpose_weight=tw)
        sd = _load(lin, p_lin)
        w = sd["weight"].T if tw else sd["weight"]
        _close(lin(x), x @ w + sd["bias"])
    p_da = pinc.FusedDropoutAdd(p=0.0)
    _close(inc.nn.FusedDropoutAdd(p=0.0)(x, y), p_da(paddle.to_tensor(x), paddle.to_tensor(y)).numpy())
    p_ln = pinc.FusedBiasDropoutResidualLayerNorm(4, dropout_rate=0.0)
    _randomize(p_ln)
    ln = inc.nn.FusedBiasDropoutResidualLayerNorm(4, dropout_rate=0.0)
    sd = _load(ln, p_ln)
    ref = paddle.nn.functional.layer_norm(paddle.to_tensor(y + x + sd["linear_bias"]), [4],
                                          paddle.to_tensor(sd["ln_scale"]), paddle.to_tensor(sd["ln_bias"]))
    _close(ln(x, y), ref.numpy())


def test_autograd_jacobian_hessian_batch_axis_against_paddle():
    paddle = paddle_oracle()
    x, y = f32(3, 2), f32(3, 4)
    pxs = [paddle.to_tensor(x), paddle.to_tensor(y)]
    for t in pxs:
        t.stop_gradient = False

    def f(a, b):
        return a.sum(-1, keepdim=True) * b[:, :3] * b[:, 1:]

    def s(a, b):
        return (a * a * a).sum(-1, keepdim=True) * (b * b).sum(-1, keepdim=True)
    J = padax.autograd.jacobian(f, [x, y], batch_axis=0)
    rJ = paddle.autograd.jacobian(f(*pxs), pxs, batch_axis=0)
    H = padax.autograd.hessian(s, [x, y], batch_axis=0)
    rH = paddle.autograd.hessian(s(*pxs), pxs, batch_axis=0)
    for a, b in zip(J, rJ):
        _close(a, b[:].numpy())
    for ra, rb in zip(H, rH):
        for a, b in zip(ra, rb):
            _close(a, b[:].numpy(), 1e-4)
    with pytest.raises(ValueError, match="jacobian: batch_axis must be None or 0"):
        padax.autograd.jacobian(f, [x, y], batch_axis=1)
    with pytest.raises(TypeError, match="hessian: func must return one value per sample"):
        padax.autograd.hessian(f, [x, y], batch_axis=0)
