"""padax.incubate.nn.functional's fused ops: against Paddle where its CPU build runs them
(fused_rms_norm, fused_layer_norm, swiglu, fused_dropout_add), else against numpy compositions of
Paddle's documented formulas (its CUDA-only kernels: rotary embeddings, fused_bias_act, the matmul
epilogues, variable-length attention); numerical gradient checks for the differentiable ones."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.special import erf

import padax
import padax.incubate.nn.functional as IF
from padax.test_util import check_grads
from tests.conftest import paddle_oracle
from tests.nn.functional.oracle import check

RNG = np.random.default_rng(0)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def f64(*shape):
    return RNG.standard_normal(shape)


def quant(x, scale, round_type, hi, lo):
    y = hi * scale * x
    y = np.rint(y) if round_type == 0 else np.sign(y) * np.floor(np.abs(y) + 0.5)
    return np.clip(y, lo, hi).astype(np.int8)


# ---------------------------------------------------------------------------------------------
# norms


X, W, B = f32(2, 3, 8), f32(8), f32(8)
RES, BB = f32(2, 3, 8), f32(8)


def test_fused_rms_norm_against_paddle():
    pf = paddle_oracle().incubate.nn.functional

    def run(M, x, w, b, res, bb, w24):
        return (*M.fused_rms_norm(x, w, b, 1e-5, 2), M.fused_rms_norm(x, w, None, 1e-6, -1)[0],
                *M.fused_rms_norm(x, w, b, 1e-5, 2, bias=bb, residual=res),
                M.fused_rms_norm(x, w24, None, 1e-5, 1)[0])
    check(lambda *a: run(IF, *a), lambda *a: run(pf, *a), [X, W, B, RES, BB, np.tile(W, 3)], diff=())


def test_fused_layer_norm_against_paddle():
    pf = paddle_oracle().incubate.nn.functional

    def run(M, x, w, b, res, bb, w24, b24):
        o1 = M.fused_layer_norm(x, w, b, 1e-5, begin_norm_axis=2)
        o2 = M.fused_layer_norm(x, w, b, 1e-5, residual_alpha=0.5, begin_norm_axis=2, bias=bb, residual=res)
        o3 = M.fused_layer_norm(x, w24, b24, 1e-5, begin_norm_axis=1)
        o4 = M.fused_layer_norm(x, None, None, 1e-5, begin_norm_axis=2, bias=bb, residual=res)
        return o1[0], o1[2], o1[3], *o2, o3[0], o3[2], o3[3], o4[0]    # (Paddle leaves o4's residual_out unset)
    check(lambda *a: run(IF, *a), lambda *a: run(pf, *a), [X, W, B, RES, BB, np.tile(W, 3), np.tile(B, 3)],
          diff=())
    out, res, _, _ = IF.fused_layer_norm(X, None, None, 1e-5, 0.5, 2, bias=BB, residual=RES)
    np.testing.assert_allclose(np.asarray(res), X + BB + 0.5 * RES, rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(res))


def test_fused_norms_low_precision_and_quant():
    xh = X.astype(np.float16)
    out, _ = IF.fused_rms_norm(xh, W, None, 1e-5, 2)
    assert out.dtype == padax.float16
    ref = X / np.sqrt((X ** 2).mean(-1, keepdims=True) + 1e-5) * W
    np.testing.assert_allclose(np.asarray(out).astype(np.float32), ref, rtol=1e-2, atol=1e-2)
    q, _ = IF.fused_rms_norm(X, W, B, 1e-5, 2, quant_scale=0.5, quant_round_type=1, quant_max_bound=127,
                             quant_min_bound=-127)
    assert q.dtype == padax.int8
    np.testing.assert_array_equal(np.asarray(q), quant(ref + B, 0.5, 1, 127, -127))
    q, *_ = IF.fused_layer_norm(X, W, B, 1e-5, begin_norm_axis=2, quant_scale=0.25, quant_max_bound=127,
                                quant_min_bound=-127)
    m, v = X.mean(-1, keepdims=True), X.var(-1, keepdims=True)
    np.testing.assert_array_equal(np.asarray(q), quant((X - m) / np.sqrt(v + 1e-5) * W + B, 0.25, 0, 127, -127))


def test_fused_norm_gradients(x64):
    x, w, b, res = f64(2, 4), f64(4), f64(4), f64(2, 4)
    check_grads(lambda x, w, b, r: IF.fused_rms_norm(x, w, b, 1e-5, 1, residual=r)[0], (x, w, b, res), order=1,
                modes=("rev",))
    check_grads(lambda x, w, b, r: IF.fused_layer_norm(x, w, b, 1e-5, 0.5, 1, residual=r)[0], (x, w, b, res),
                order=1, modes=("rev",))


def test_fused_norm_errors():
    with pytest.raises(ValueError, match=r"fused_rms_norm: begin_norm_axis must be in \[-3, 3\)"):
        IF.fused_rms_norm(X, W, None, 1e-5, 3)
    with pytest.raises(ValueError, match="norm_weight .* must have 8 elements"):
        IF.fused_layer_norm(X, f32(7), None, 1e-5, begin_norm_axis=2)


# ---------------------------------------------------------------------------------------------
# activations, dropout-add, matmul epilogues


def test_swiglu_against_paddle():
    pf = paddle_oracle().nn.functional
    check(lambda x, y: (IF.swiglu(x), IF.swiglu(x, y)), lambda x, y: (pf.swiglu(x), pf.swiglu(x, y)),
          [f32(3, 8), f32(3, 8)], diff=(0, 1))


def gelu(x):
    return 0.5 * x * (1 + erf(x / np.sqrt(2)))


def silu(x):
    return x / (1 + np.exp(-x))


def test_fused_bias_act_matches_the_formula():
    x, b = f32(3, 8), f32(8)
    h = x + b
    np.testing.assert_allclose(np.asarray(IF.fused_bias_act(x, b)), gelu(h), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(IF.fused_bias_act(x, b, act_method="relu")), np.maximum(h, 0), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(IF.fused_bias_act(x, b, act_method="geglu")), gelu(h[:, :4]) * h[:, 4:],
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(IF.fused_bias_act(x, b, act_method="swiglu")), silu(h[:, :4]) * h[:, 4:],
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(IF.fused_bias_act(x, None, act_method="swiglu")),
                               silu(x[:, :4]) * x[:, 4:], rtol=1e-5, atol=1e-6)
    xi, ds, shift, smooth = RNG.integers(-50, 50, (3, 8)).astype(np.int32), f32(8) * 0.1, f32(4), f32(4)
    out = IF.fused_bias_act(xi, b, ds, shift, smooth, act_method="swiglu", compute_dtype="fp32")
    hd = xi * ds + b
    ref = (silu(hd[:, :4]) * hd[:, 4:] + shift) * smooth
    assert out.dtype == padax.float32
    np.testing.assert_allclose(np.asarray(out), ref, rtol=1e-5, atol=1e-5)
    q = IF.fused_bias_act(x, b, act_method="gelu", quant_scale=0.3, quant_max_bound=127, quant_min_bound=-127)
    np.testing.assert_array_equal(np.asarray(q), quant(gelu(h), 0.3, 0, 127, -127))
    lo = IF.fused_bias_act(x.astype(np.float16), b.astype(np.float16))
    assert lo.dtype == padax.float16
    with pytest.raises(ValueError, match="act_method must be one of"):
        IF.fused_bias_act(x, act_method="tanh")
    with pytest.raises(TypeError, match="needs compute_dtype"):
        IF.fused_bias_act(xi, b)


@pytest.mark.filterwarnings("ignore:Currently, fused_dropout_add")
def test_fused_dropout_add():
    pf = paddle_oracle().incubate.nn.functional
    x, y = f32(4, 6), f32(4, 6)
    check(lambda x, y: (IF.fused_dropout_add(x, y, p=0.0), IF.fused_dropout_add(x, y, p=0.3, training=False)),
          lambda x, y: (pf.fused_dropout_add(x, y, p=0.0), pf.fused_dropout_add(x, y, p=0.3, training=False)),
          [x, y], diff=(0, 1))
    ones, zeros = np.ones((200, 50), np.float32), np.zeros((200, 50), np.float32)
    out = np.asarray(IF.fused_dropout_add(ones, zeros, p=0.5, key=padax.random.key(0)))
    assert set(np.unique(out)) == {0.0, 2.0} and abs(out.mean() - 1.0) < 0.05
    down = np.asarray(IF.fused_dropout_add(ones, zeros, p=0.5, mode="downscale_in_infer", key=padax.random.key(0)))
    assert set(np.unique(down)) == {0.0, 1.0}
    inf = IF.fused_dropout_add(ones[:2], zeros[:2], p=0.25, training=False, mode="downscale_in_infer")
    np.testing.assert_allclose(np.asarray(inf), 0.75)
    f = padax.jit(lambda x, y, k: IF.fused_dropout_add(x, y, p=0.5, key=k))
    np.testing.assert_array_equal(np.asarray(f(x, y, padax.random.key(3))), np.asarray(f(x, y, padax.random.key(3))))
    g = padax.grad(lambda x: IF.fused_dropout_add(x, y, p=0.5, key=padax.random.key(3)).sum())(x)
    assert set(np.unique(np.asarray(g))) <= {0.0, 2.0}


def test_fused_matmul_epilogues(x64):
    x, w, b = f64(3, 4), f64(4, 5), f64(5)
    np.testing.assert_allclose(np.asarray(IF.fused_linear(x, w, b)), x @ w + b, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(IF.fused_linear(x, w.T.copy(), b, transpose_weight=True)), x @ w + b,
                               rtol=1e-12)
    np.testing.assert_allclose(np.asarray(IF.fused_matmul_bias(x.T.copy(), w, b, transpose_x=True)), x @ w + b,
                               rtol=1e-12)
    np.testing.assert_allclose(np.asarray(IF.fused_matmul_bias(x, w)), x @ w, rtol=1e-12)
    h = x @ w + b
    tanh_gelu = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))
    np.testing.assert_allclose(np.asarray(IF.fused_linear_activation(x, w, b, activation="gelu")), tanh_gelu,
                               rtol=1e-10)
    np.testing.assert_allclose(np.asarray(IF.fused_linear_activation(x, w, b, activation="relu")),
                               np.maximum(h, 0), rtol=1e-12)
    check_grads(lambda x, w, b: IF.fused_linear(x, w, b), (x, w, b), order=1, modes=("rev",))
    check_grads(lambda x, b: IF.fused_bias_act(x, b, act_method="swiglu"), (f64(2, 6), f64(6)), order=1,
                modes=("rev",))
    check_grads(lambda x, b: IF.fused_bias_act(x, b), (f64(2, 3), f64(3)), order=1, modes=("rev",))


# ---------------------------------------------------------------------------------------------
# rotary position embeddings


def rope_ref(x, sin, cos, neox):
    """Paddle's kernel, element by element: x [B, S, H, D]; sin/cos broadcast to [B, S, 1, D]."""
    d = x.shape[-1]
    out = np.empty_like(x, dtype=np.float64)
    for i in range(d):
        if neox:
            partner = x[..., i + 1] * -1 if i % 2 == 0 else x[..., i - 1]
        else:
            partner = -x[..., i + d // 2] if i < d // 2 else x[..., i - d // 2]
        out[..., i] = x[..., i] * cos[..., i] + partner * sin[..., i]
    return out


@pytest.mark.slow
def test_rotary_position_embedding_matches_the_kernel():
    b, s, h, d = 2, 5, 3, 8
    q, k, v = f32(b, s, h, d), f32(b, s, 2, d), f32(b, s, 1, d)
    ang = f32(1, 7, 1, d)
    sin, cos = np.sin(ang), np.cos(ang)
    for neox in (True, False):
        out = IF.fused_rotary_position_embedding(q, k, v, sin=sin[:, :s], cos=cos[:, :s],
                                                 use_neox_rotary_style=neox)
        for o, x in zip(out, (q, k, v)):
            np.testing.assert_allclose(np.asarray(o), rope_ref(x, sin[:, :s], cos[:, :s], neox), rtol=1e-5,
                                       atol=1e-6)
        pos = RNG.integers(0, 7, (b, s))
        oq, ok, ov = IF.fused_rotary_position_embedding(q, k, None, sin=sin[0, :, 0], cos=cos[0, :, 0],
                                                        position_ids=pos, use_neox_rotary_style=neox)
        assert ov is None
        sp, cp = sin[0, :, 0][pos][:, :, None], cos[0, :, 0][pos][:, :, None]
        np.testing.assert_allclose(np.asarray(ok), rope_ref(k, sp, cp, neox), rtol=1e-5, atol=1e-6)
        tm = IF.fused_rotary_position_embedding(q.transpose(1, 0, 2, 3), sin=sin[:, :s], cos=cos[:, :s],
                                                use_neox_rotary_style=neox, time_major=True)[0]
        np.testing.assert_allclose(np.asarray(tm).transpose(1, 0, 2, 3), rope_ref(q, sin[:, :s], cos[:, :s], neox),
                                   rtol=1e-5, atol=1e-6)
    # computed tables: position p, frequency base ** (-2 * (i // 2) / D)
    i = np.arange(d)
    a = np.arange(s)[:, None] * 500.0 ** (-2 * (i // 2) / d)
    oq = IF.fused_rotary_position_embedding(q, rotary_emb_base=500.0)[0]
    np.testing.assert_allclose(np.asarray(oq), rope_ref(q, np.sin(a)[None, :, None], np.cos(a)[None, :, None], True),
                               rtol=1e-5, atol=1e-5)
    lo = IF.fused_rotary_position_embedding(q.astype(np.float16), sin=sin[:, :s], cos=cos[:, :s])[0]
    assert lo.dtype == padax.float16
    with pytest.raises(ValueError, match="without sin and cos"):
        IF.fused_rotary_position_embedding(q, use_neox_rotary_style=False)
    with pytest.raises(TypeError, match="even head_dim"):
        IF.fused_rotary_position_embedding(f32(1, 2, 1, 3))


def test_rotary_gradients_and_vmap(x64):
    q, ang = f64(1, 3, 2, 4), f64(3, 4)
    check_grads(lambda q, s, c: IF.fused_rotary_position_embedding(q, sin=s, cos=c, use_neox_rotary_style=False)[0],
                (q, np.sin(ang), np.cos(ang)), order=1, modes=("rev",))
    qs = f64(3, 1, 3, 2, 4)
    out = padax.vmap(lambda q: IF.fused_rotary_position_embedding(q)[0])(qs)
    np.testing.assert_allclose(np.asarray(out[1]), np.asarray(IF.fused_rotary_position_embedding(qs[1])[0]),
                               rtol=1e-12)


# ---------------------------------------------------------------------------------------------
# variable-length attention


def test_variable_length_memory_efficient_attention():
    b, h, s, d = 2, 4, 6, 8
    q, k, v = f32(b, h, s, d), f32(b, 2, s + 2, d), f32(b, 2, s + 2, d)
    mask = f32(b, 1, s, s + 2)
    ql, kl = np.array([[6], [4]], np.int32), np.array([[8], [5]], np.int32)
    fn = padax.jit(lambda *a, causal=False, pre=0: IF.variable_length_memory_efficient_attention(
        *a, scale=0.4, causal=causal, pre_cache_length=pre, block_k=3), static_argnames=("causal", "pre"))
    for causal, pre in ((False, 0), (True, 2)):
        out = np.asarray(fn(q, k, v, ql, kl, mask, causal=causal, pre=pre))
        for bi in range(b):
            n, m = ql[bi, 0], kl[bi, 0]
            kk, vv = np.repeat(k[bi, :, :m], 2, 0), np.repeat(v[bi, :, :m], 2, 0)
            sc = np.einsum("hqd,hkd->hqk", q[bi, :, :n], kk) * 0.4 + mask[bi, :, :n, :m]
            if causal:
                sc = np.where(np.arange(m)[None] <= np.arange(n)[:, None] + pre, sc, -np.inf)
            p = np.exp(sc - sc.max(-1, keepdims=True))
            p /= p.sum(-1, keepdims=True)
            np.testing.assert_allclose(out[bi, :, :n], np.einsum("hqk,hkd->hqd", p, vv), rtol=1e-5, atol=1e-5)
            assert not out[bi, :, n:].any()


@pytest.mark.slow
def test_variable_length_attention_gradients(x64):
    q, k, v = f64(1, 2, 3, 2), f64(1, 1, 4, 2), f64(1, 1, 4, 2)
    lens, kv = np.array([[2]], np.int32), np.array([[3]], np.int32)
    check_grads(lambda q, k, v: IF.variable_length_memory_efficient_attention(q, k, v, lens, kv, causal=True,
                                                                              pre_cache_length=1, block_k=2),
                (q, k, v), order=1, modes=("rev",))
