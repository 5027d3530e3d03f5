"""MultiHeadAttention (kdim/vdim, masks, need_weights, Cache/StaticCache), Transformer encoder/decoder layers and
Transformer against Paddle with the same weights: outputs, input and parameter gradients."""
import numpy as np
import pytest

import padax
from padax import nn
from tests.conftest import paddle_oracle
from tests.nn.oracle import assert_same_run, copy_weights

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _pair(name, *args, **kw):
    paddle = paddle_oracle()
    p = getattr(paddle.nn, name)(*args, **kw)
    m = getattr(nn, name)(*args, **kw)
    assert list(m.state_dict()) == list(p.state_dict())
    p.eval()
    m.eval()
    return copy_weights(m, p), p


def test_mha_kdim_vdim_bool_mask_vs_paddle():
    m, p = _pair("MultiHeadAttention", 8, 2, kdim=6, vdim=5)
    assert m.k_proj.weight.shape == (6, 8) and m.v_proj.weight.shape == (5, 8)
    mask = RNG.random((2, 1, 3, 4)) < 0.8
    mask[..., 0] = True
    assert_same_run(m, p, [_x(2, 3, 8), _x(2, 4, 6), _x(2, 4, 5), mask], rtol=1e-4, atol=1e-5)


def test_mha_need_weights_float_mask_numpy():
    m, _ = _pair("MultiHeadAttention", 4, 2, need_weights=True)
    q = _x(1, 3, 4)
    mask = np.triu(np.full((3, 3), -np.inf, np.float32), 1)
    out, w = m(padax.to_tensor(q), attn_mask=padax.to_tensor(mask))
    W = {n: m.state_dict()[n].numpy() for n in m.state_dict()}
    proj = lambda n, x: x @ W[f"{n}.weight"] + W[f"{n}.bias"]  # noqa: E731
    heads = lambda x: x.reshape(1, 3, 2, 2).transpose(0, 2, 1, 3)  # noqa: E731
    s = heads(proj("q_proj", q)) @ heads(proj("k_proj", q)).transpose(0, 1, 3, 2) / np.sqrt(2) + mask
    ref_w = np.exp(s - s.max(-1, keepdims=True))
    ref_w /= ref_w.sum(-1, keepdims=True)
    ref = proj("out_proj", (ref_w @ heads(proj("v_proj", q))).transpose(0, 2, 1, 3).reshape(1, 3, 4))
    np.testing.assert_allclose(w.numpy(), ref_w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-5, atol=1e-5)


def test_mha_incremental_cache_matches_full_causal_pass():
    paddle = paddle_oracle()
    m, p = _pair("MultiHeadAttention", 8, 2)
    x = _x(2, 4, 8)
    causal = np.triu(np.full((4, 4), -1e9, np.float32), 1)
    full = m(padax.to_tensor(x), attn_mask=padax.to_tensor(causal)).numpy()
    cache = m.gen_cache(padax.to_tensor(x))
    p_cache = p.gen_cache(paddle.to_tensor(x))
    assert cache.k.shape == (2, 2, 0, 4)
    step = padax.jit(lambda m, xt, c: m(xt, cache=c))
    for t in range(4):
        out, cache = step(m, padax.to_tensor(x[:, t:t + 1]), cache)
        p_out, p_cache = p(paddle.to_tensor(x[:, t:t + 1]), cache=p_cache)
        np.testing.assert_allclose(out.numpy()[:, 0], full[:, t], rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(out.numpy(), p_out.numpy(), rtol=1e-4, atol=1e-5)
    assert cache.k.shape == (2, 2, 4, 4)
    mem = _x(2, 5, 8)
    static = m.gen_cache(padax.to_tensor(mem), type=nn.MultiHeadAttention.StaticCache)
    out, again = m(padax.to_tensor(x), cache=static)
    np.testing.assert_allclose(out.numpy(), m(padax.to_tensor(x), padax.to_tensor(mem), padax.to_tensor(mem)).numpy(),
                               rtol=1e-5,
                               atol=1e-5)
    assert again is static


@pytest.mark.parametrize("normalize_before", [False, True])
def test_encoder_vs_paddle(normalize_before):
    paddle = paddle_oracle()
    kw = dict(dropout=0.1, activation="gelu", normalize_before=normalize_before)
    p_layer = paddle.nn.TransformerEncoderLayer(8, 2, 16, **kw)
    p = paddle.nn.TransformerEncoder(p_layer, 2, paddle.nn.LayerNorm(8))
    m = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, **kw), 2, nn.LayerNorm(8))
    assert list(m.state_dict()) == list(p.state_dict())
    p.eval()
    m.eval()
    copy_weights(m, p)
    mask = np.ones((3, 1, 1, 5), bool)
    mask[0, ..., 3:] = False
    assert_same_run(m, p, [_x(3, 5, 8), mask], rtol=1e-4, atol=1e-5)


def test_decoder_and_transformer_vs_paddle():
    m, p = _pair("Transformer", 8, 2, 1, 2, 16, normalize_before=True)
    causal = m.generate_square_subsequent_mask(4)
    np.testing.assert_array_equal(causal.numpy(), p.generate_square_subsequent_mask(4).numpy())
    assert_same_run(m, p, [_x(2, 5, 8), _x(2, 4, 8)], rtol=1e-4, atol=1e-5)
    d, pd = _pair("TransformerDecoderLayer", 8, 2, 16)
    assert_same_run(d, pd, [_x(2, 4, 8), _x(2, 5, 8), causal.numpy()], rtol=1e-4, atol=1e-5)


def test_decoder_incremental_cache_vs_paddle_and_training_dropout():
    paddle = paddle_oracle()
    p = paddle.nn.TransformerDecoder(paddle.nn.TransformerDecoderLayer(8, 2, 16), 2)
    m = copy_weights(nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 2), p)
    p.eval()
    m.eval()
    tgt, mem = _x(2, 3, 8), _x(2, 5, 8)
    cache, p_cache = m.gen_cache(padax.to_tensor(mem)), p.gen_cache(paddle.to_tensor(mem))
    for t in range(3):
        out, cache = m(padax.to_tensor(tgt[:, t:t + 1]), padax.to_tensor(mem), cache=cache)
        p_out, p_cache = p(paddle.to_tensor(tgt[:, t:t + 1]), paddle.to_tensor(mem), cache=p_cache)
        np.testing.assert_allclose(out.numpy(), p_out.numpy(), rtol=1e-4, atol=1e-5)
    enc = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5)
    x = padax.to_tensor(_x(2, 3, 8))

    @padax.jit
    def run(model, key):
        with nn.rng_scope(key):
            return model(x)

    a = run(enc, padax.random.key(0))
    np.testing.assert_array_equal(a.numpy(), run(enc, padax.random.key(0)).numpy())
    assert not np.allclose(a.numpy(), run(enc, padax.random.key(1)).numpy())
    with pytest.raises(ValueError, match=r"model\.self_attn \(MultiHeadAttention\).*8 features"):
        enc(padax.ones([2, 3, 6]))
