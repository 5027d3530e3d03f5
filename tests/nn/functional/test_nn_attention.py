"""padax.nn.functional.scaled_dot_product_attention vs Paddle (its math path), its dropout, and the
shape of its program: a causal mask is built from iotas inside the program, never a constant."""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.nn.functional as F
from padax.test_util import check_grads
from tests.conftest import paddle_oracle
from tests.nn.functional.oracle import check, check_vmap

RNG = np.random.default_rng(0)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


Q, K, V = f32(2, 5, 4, 8), f32(2, 6, 4, 8), f32(2, 6, 4, 3)
QC, KC, VC = f32(2, 6, 4, 8), f32(2, 6, 4, 8), f32(2, 6, 4, 8)
KG, VG = f32(2, 6, 2, 8), f32(2, 6, 2, 3)
MASK = f32(2, 1, 5, 6)
BOOL = RNG.random((5, 6)) > 0.3
BOOL[:, 0] = True


def test_against_paddle():
    PF = paddle_oracle().nn.functional
    sdpa = "scaled_dot_product_attention"

    def run(M, q, k, v, qc, kc, vc, kg, vg, m, b):
        f = getattr(M, sdpa)
        return (f(q, k, v), f(qc, kc, vc, is_causal=True), f(q, k, v, m, scale=0.3), f(q, k, v, b),
                f(q, kg, vg), f(q, kg, vg, m), f(q[0], k[0], v[0]))
    check(lambda *a: run(F, *a), lambda *a: run(PF, *a), [Q, K, V, QC, KC, VC, KG, VG, MASK, BOOL],
          diff=(0, 1, 2, 3, 4, 5, 6, 7, 8))


def test_causal_with_a_mask_and_low_precision():
    """Both masks apply (Paddle's CPU math path drops attn_mask when causal, so compare with numpy)."""
    q, k, v = (padax.to_tensor(a) for a in (QC, KC, VC))
    out = np.asarray(F.scaled_dot_product_attention(q, k, v, padax.to_tensor(BOOL[:, :6].repeat(2, 0)[:6]),
                                                    is_causal=True))
    s = np.einsum("bqhd,bkhd->bhqk", QC, KC) / np.sqrt(8)
    keep = np.tril(np.ones((6, 6), bool)) & BOOL[:, :6].repeat(2, 0)[:6]
    s = np.where(keep, s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    np.testing.assert_allclose(out, np.einsum("bhqk,bkhd->bqhd", p, VC), rtol=1e-5, atol=1e-5)
    lo = F.scaled_dot_product_attention(*(padax.to_tensor(a.astype(np.float16)) for a in (QC, KC, VC)),
                                        is_causal=True)
    assert lo.dtype == np.float16
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    np.testing.assert_allclose(np.asarray(lo).astype(np.float32), np.asarray(ref), rtol=1e-2, atol=1e-2)


def test_causal_mask_is_built_in_the_program():
    jaxpr = padax.make_jaxpr(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True))(QC, KC, VC)
    text = str(jaxpr)
    assert "iota" in text and "select_n" in text
    assert not jaxpr.consts or all(np.size(c) <= 1 for c in jaxpr.consts)


def test_dropout():
    q, k, v = (padax.to_tensor(a) for a in (QC, KC, VC))
    f = padax.jit(lambda q, k, v, key: F.scaled_dot_product_attention(q, k, v, dropout_p=0.5, rng_key=key))
    a, b = f(q, k, v, padax.random.key(0)), f(q, k, v, padax.random.key(1))
    assert not np.allclose(np.asarray(a), np.asarray(b))
    np.testing.assert_array_equal(np.asarray(a), np.asarray(f(q, k, v, padax.random.key(0))))
    # in expectation the output is unchanged (each kept weight is scaled by 1 / (1 - p))
    keys = padax.random.split(padax.random.key(2), 400)
    mean = np.asarray(padax.vmap(lambda key: F.scaled_dot_product_attention(q, k, v, dropout_p=0.5,
                                                                            rng_key=key))(keys)).mean(0)
    np.testing.assert_allclose(mean, np.asarray(F.scaled_dot_product_attention(q, k, v)), atol=0.15)
    ev = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5, training=False)
    np.testing.assert_allclose(np.asarray(ev), np.asarray(F.scaled_dot_product_attention(q, k, v)), rtol=1e-6)
    padax.seed(3)
    g1 = np.asarray(F.scaled_dot_product_attention(q, k, v, dropout_p=0.3))
    padax.seed(3)
    np.testing.assert_array_equal(np.asarray(F.scaled_dot_product_attention(q, k, v, dropout_p=0.3)), g1)


def test_vmap_and_second_order(x64):
    check_vmap(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True), [QC, KC, VC],
               batched=(0, 1, 2))
    q, k, v = (RNG.standard_normal((1, 3, 2, 2)) for _ in range(3))
    check_grads(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True), (q, k, v), order=2,
                modes=("rev",))


def test_errors():
    with pytest.raises(ValueError, match=r"scaled_dot_product_attention: the 4 query heads must be a multiple of "
                                         r"the 3 key/value heads .*test_nn_attention"):
        F.scaled_dot_product_attention(Q, f32(2, 6, 3, 8), f32(2, 6, 3, 3))
    with pytest.raises(ValueError, match="must be equal to the 2 key/value heads"):
        F.scaled_dot_product_attention(Q, KG, VG, enable_gqa=False)
    with pytest.raises(ValueError, match=r"key must be \[batch, seq_k, heads_k, head_dim\]"):
        F.scaled_dot_product_attention(Q, f32(2, 6, 4, 7), V)
