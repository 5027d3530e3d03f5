"""Attention for language models: dot_product_attention against jax.nn.dot_product_attention (the
oracle), the blockwise (flash-style) kernel against the materialised form (values and gradients for
causal, padded, windowed, biased and grouped-query cases), Paddle's flash_attention against Paddle's
CPU path, flash_attn_unpadded against per-sequence attention, FlashMask against the dense mask that
Paddle's documentation builds from startend_row_indices, and the compiled program's temporaries,
which stay O(T * d) for the blockwise kernel while the dense one holds [T, T] scores."""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.nn.functional as F
from padax.test_util import check_grads
from tests.conftest import paddle_oracle
from tests.nn.functional.oracle import check

RNG = np.random.default_rng(0)
BIG = -0.7 * float(np.finfo(np.float32).max)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def jax_oracle():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_platforms", "cpu")
    return jax


def naive(q, k, v, keep=None, bias=None, scale=None, fill=BIG):
    """Materialised attention in numpy: q [B, T, N, H], k/v [B, S, K, H]; keep/bias [B|1, N|1, T, S]."""
    n, kh = q.shape[2], k.shape[2]
    k, v = np.repeat(k, n // kh, axis=2), np.repeat(v, n // kh, axis=2)
    s = np.einsum("btnh,bsnh->bnts", q.astype(np.float64), k) * (q.shape[-1] ** -0.5 if scale is None else scale)
    if bias is not None:
        s = s + bias
    if keep is not None:
        s = np.where(keep, s, fill)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    return np.einsum("bnts,bsnh->btnh", p, v)


# ---------------------------------------------------------------------------------------------
# dot_product_attention vs jax

Q, K, V = f32(2, 7, 4, 8), f32(2, 9, 2, 8), f32(2, 9, 2, 8)
BIAS, MASK = f32(1, 4, 7, 9), RNG.random((2, 1, 7, 9)) > 0.3
QL, KL = np.array([5, 7], np.int32), np.array([9, 4], np.int32)
CASES = {
    "plain": {}, "causal": {"is_causal": True}, "bias": {"bias": BIAS}, "mask": {"mask": MASK},
    "lengths": {"query_seq_lengths": QL, "key_value_seq_lengths": KL},
    "window": {"local_window_size": (2, 1)},
    "all": {"local_window_size": 2, "is_causal": True, "bias": BIAS, "mask": MASK, "scale": 0.2,
            "key_value_seq_lengths": KL},
}


@pytest.mark.parametrize("case", list(CASES))
def test_dot_product_attention_matches_jax(case):
    jax = jax_oracle()
    kw = CASES[case]
    ref, ref_lse = (np.asarray(a) for a in jax.nn.dot_product_attention(Q, K, V, return_residual=True, **kw))
    arrays = {a: b for a, b in kw.items() if isinstance(b, np.ndarray)}
    static = {a: b for a, b in kw.items() if a not in arrays}
    run = padax.jit(lambda q, k, v, arrays: [F.dot_product_attention(q, k, v, implementation=impl, block_k=4,
                                                                     return_residual=True, **arrays, **static)
                                             for impl in (None, "xla", "flash")])
    for impl, (out, lse) in zip((None, "xla", "flash"), run(Q, K, V, arrays)):
        np.testing.assert_allclose(np.asarray(out), ref, rtol=1e-5, atol=2e-6, err_msg=f"{case} {impl}")
        np.testing.assert_allclose(np.asarray(lse), ref_lse, rtol=1e-5, atol=1e-5, err_msg=f"{case} {impl}")


@pytest.mark.slow
def test_dot_product_attention_gradients_match_jax():
    jax = jax_oracle()
    kw = {"is_causal": True, "key_value_seq_lengths": KL, "query_seq_lengths": QL}
    ct = f32(2, 7, 4, 8)

    def loss(attn, **extra):
        return lambda q, k, v, b: (attn(q, k, v, b, **kw, **extra) * ct).sum()

    ref = jax.grad(loss(jax.nn.dot_product_attention), argnums=(0, 1, 2, 3))(Q, K, V, BIAS)
    for impl in ("xla", "flash"):
        got = padax.jit(padax.grad(loss(F.dot_product_attention, implementation=impl, block_k=4),
                                   argnums=(0, 1, 2, 3)))(Q, K, V, BIAS)
        for i, (a, e) in enumerate(zip(got, ref)):
            np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=1e-4, atol=1e-5, err_msg=f"{impl} {i}")


def test_dot_product_attention_unbatched_and_errors():
    jax = jax_oracle()
    out = F.dot_product_attention(Q[0], K[0], V[0], is_causal=True, implementation="flash")
    np.testing.assert_allclose(np.asarray(out), np.asarray(jax.nn.dot_product_attention(Q[0], K[0], V[0],
                                                                                         is_causal=True)),
                               rtol=1e-5, atol=2e-6)
    with pytest.raises(ValueError, match=r"dot_product_attention: the number of query heads must be a multiple"):
        F.dot_product_attention(Q, f32(2, 9, 3, 8), f32(2, 9, 3, 8))
    with pytest.raises(TypeError, match="mask must be bool"):
        F.dot_product_attention(Q, K, V, mask=BIAS)
    with pytest.raises(ValueError, match="key_value_seq_lengths must be an int32 array"):
        F.dot_product_attention(Q, K, V, key_value_seq_lengths=np.array([1, 2, 3], np.int32))
    with pytest.raises(ValueError, match="implementation must be"):
        F.dot_product_attention(Q, K, V, implementation="pallas")


# ---------------------------------------------------------------------------------------------
# the blockwise kernel vs the materialised form


@pytest.mark.parametrize("kw,heads", [
    ({"is_causal": True}, (4, 4)),                                                    # causal, MHA
    ({"key_value_seq_lengths": np.array([13, 5], np.int32)}, (4, 2)),                 # padded keys, GQA
    ({"is_causal": True, "query_seq_lengths": np.array([11, 6], np.int32)}, (4, 1)),  # padded queries, MQA
    ({"local_window_size": (3, 0), "bias": f32(2, 1, 11, 13)}, (4, 2)),               # window + bias, GQA
    ({"is_causal": True, "key_value_seq_lengths": np.array([7, 13], np.int32)}, (4, 2)),
])
def test_blockwise_values_and_gradients_match_dense(kw, heads):
    n, kh = heads
    q, k, v = f32(2, 11, n, 8), f32(2, 13, kh, 8), f32(2, 13, kh, 8)
    ct = f32(2, 11, n, 8)
    bias = kw.get("bias")
    kw = {a: b for a, b in kw.items() if a != "bias"}

    def loss(impl):
        def f(q, k, v, b):
            return (F.dot_product_attention(q, k, v, b, implementation=impl, block_k=5, **kw) * ct).sum()
        return f

    both = padax.jit(lambda *a: [padax.value_and_grad(loss(i), argnums=(0, 1, 2, 3) if bias is not None else
                                                      (0, 1, 2))(*a) for i in ("xla", "flash")])
    (vd, gd), (vf, gf) = both(q, k, v, bias)
    np.testing.assert_allclose(float(vf), float(vd), rtol=1e-5, atol=1e-5)
    for a, e in zip(gf, gd):
        np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=1e-4, atol=1e-5)


def test_blockwise_rows_that_see_no_key():
    """Causal blocks above the diagonal are skipped, yet a row whose keys are all masked still averages
    every value (as the dense form does), in value and in the values' gradient."""
    q, k, v = f32(1, 8, 2, 4), f32(1, 8, 2, 4), f32(1, 8, 2, 4)
    mask = np.ones((1, 1, 8, 8), bool)
    mask[0, 0, [1, 6]] = False                                     # rows 1 and 6 see nothing
    ct = f32(1, 8, 2, 4)

    def loss(impl):
        def f(q, k, v):
            return (F.dot_product_attention(q, k, v, mask=mask, is_causal=True, implementation=impl,
                                            block_k=2) * ct).sum()
        return padax.value_and_grad(f, argnums=(0, 1, 2))
    (vf, gf), (vd, gd) = padax.jit(lambda *a: (loss("flash")(*a), loss("xla")(*a)))(q, k, v)
    np.testing.assert_allclose(float(vf), float(vd), rtol=1e-5, atol=1e-5)
    for a, e in zip(gf, gd):
        np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=1e-4, atol=1e-5)
    out = F.dot_product_attention(q, k, v, mask=mask, is_causal=True, implementation="flash", block_k=2)
    np.testing.assert_allclose(np.asarray(out)[0, 6], v[0].mean(0), rtol=1e-5, atol=1e-6)


@pytest.mark.slow
def test_blockwise_numerical_gradients(x64):
    q, k, v = (RNG.standard_normal((1, 5, 2, 3)) for _ in range(3))
    kg, vg = RNG.standard_normal((1, 6, 1, 3)), RNG.standard_normal((1, 6, 1, 3))
    bias = RNG.standard_normal((1, 2, 5, 6))
    check_grads(lambda q, k, v: F.dot_product_attention(q, k, v, is_causal=True, implementation="flash",
                                                        block_k=2), (q, k, v), order=1, modes=("rev",))
    check_grads(lambda q, k, v, b: F.dot_product_attention(q, k, v, b, implementation="flash", block_k=4,
                                                           local_window_size=(1, 2)),
                (q, kg, vg, bias), order=1, modes=("rev",))
    # second order: the backward pass is itself built of primitives
    check_grads(lambda q, k, v: F.dot_product_attention(q, k, v, is_causal=True, implementation="flash",
                                                        block_k=2), (q, k, v), order=2, modes=("rev",))


@pytest.mark.slow
def test_blockwise_vmap_and_low_precision():
    q, k, v = f32(3, 1, 6, 2, 4), f32(3, 1, 6, 2, 4), f32(3, 1, 6, 2, 4)
    fa = lambda q, k, v: F.dot_product_attention(q, k, v, is_causal=True, implementation="flash", block_k=4)  # noqa: E731
    out = padax.vmap(fa)(q, k, v)
    for i in range(3):
        np.testing.assert_allclose(np.asarray(out[i]), np.asarray(fa(q[i], k[i], v[i])), rtol=1e-6, atol=1e-6)
    g = padax.vmap(padax.grad(lambda q, k, v: fa(q, k, v).sum()))(q, k, v)
    assert g.shape == q.shape
    lo = fa(*(padax.to_tensor(a[0]).astype("bfloat16") for a in (q, k, v)))
    assert lo.dtype == padax.bfloat16
    np.testing.assert_allclose(np.asarray(lo.astype("float32")), np.asarray(out[0]), rtol=3e-2, atol=3e-2)


def _temps(f, *args):
    return padax.jit(f).lower(*args).compile().memory_analysis().temp_size_in_bytes


def test_blockwise_temporaries_stay_linear_in_the_sequence():
    """At T = 4096 the dense [T, T] float32 scores alone are 64 MiB (its programs hold 128 and 256 MiB
    of temporaries); the blockwise ones (about 1.2 and 2 MiB measured) stay a few [T, d] arrays and
    [block, block] score blocks."""
    t, d = 4096, 64
    x = np.zeros((1, t, 1, d), np.float32)
    scores = t * t * 4
    temps = {}
    for impl in ("xla", "flash"):
        def loss(q, k, v, impl=impl):
            return F.dot_product_attention(q, k, v, is_causal=True, implementation=impl).sum()
        temps[impl] = (_temps(loss, x, x, x), _temps(padax.grad(loss, argnums=(0, 1, 2)), x, x, x))
    assert min(temps["xla"]) >= scores, temps                      # the dense form holds the scores
    assert max(temps["flash"]) < scores / 16, temps
    assert max(temps["flash"]) < 4 * t * d * 4, temps               # a few [T, d] float32 arrays


# ---------------------------------------------------------------------------------------------
# Paddle's flash-attention family


@pytest.mark.slow
def test_flash_attention_against_paddle():
    fa = paddle_oracle().nn.functional.flash_attention.flash_attention
    q, k, v = f32(2, 6, 2, 8), f32(2, 6, 2, 8), f32(2, 6, 2, 8)

    def run(attn, q, k, v):
        o1, _ = attn(q, k, v, 0.0, False, False)
        o2, p2 = attn(q, k, v, 0.0, True, True)
        return o1, o2, p2
    check(lambda *a: run(F.flash_attention, *a), lambda *a: run(fa, *a), [q, k, v], diff=(0, 1, 2))
    # Paddle's module path works too, and the kernel (no return_softmax) agrees with the weights' path
    out = F.flash_attention.flash_attention(q, k, v, causal=True, block_k=4)[0]
    np.testing.assert_allclose(np.asarray(out), np.asarray(F.flash_attention(q, k, v, causal=True)[0]),
                               rtol=1e-6, atol=1e-6)


def test_flash_attention_gqa_scale_and_qkvpacked():
    q, k, v = f32(1, 5, 4, 8), f32(1, 5, 2, 8), f32(1, 5, 2, 8)
    keep = np.tril(np.ones((5, 5), bool))
    out, _ = F.flash_attention(q, k, v, causal=True, softmax_scale=0.5, block_k=2)
    np.testing.assert_allclose(np.asarray(out), naive(q, k, v, keep, scale=0.5), rtol=1e-5, atol=1e-5)
    qkv = f32(1, 5, 2, 4, 8)                                       # 2 kv heads, 2 query heads each
    out, _ = F.flash_attention.flash_attn_qkvpacked(qkv, causal=True)
    qq = qkv[:, :, :, :2].reshape(1, 5, 4, 8)
    np.testing.assert_allclose(np.asarray(out), naive(qq, qkv[:, :, :, 2], qkv[:, :, :, 3], keep), rtol=1e-5,
                               atol=1e-5)


def test_flash_attention_dropout():
    q, k, v = f32(1, 6, 2, 4), f32(1, 6, 2, 4), f32(1, 6, 2, 4)
    f = padax.jit(lambda q, k, v, key: F.flash_attention(q, k, v, 0.5, return_softmax=True, rng_key=key))
    (a, pa), (b, _) = f(q, k, v, padax.random.key(0)), f(q, k, v, padax.random.key(1))
    assert not np.allclose(np.asarray(a), np.asarray(b))
    np.testing.assert_array_equal(np.asarray(a), np.asarray(f(q, k, v, padax.random.key(0))[0]))
    pa = np.asarray(pa)
    assert set(np.unique(pa == 0)) == {True, False}                # dropped weights are zeros, the rest x2
    np.testing.assert_allclose(np.asarray(a), np.einsum("bhqk,bkhd->bqhd", pa, v), rtol=1e-5, atol=1e-5)
    ev = F.flash_attention(q, k, v, 0.5, training=False)[0]
    np.testing.assert_allclose(np.asarray(ev), naive(q, k, v), rtol=1e-5, atol=1e-5)


@pytest.mark.slow
def test_blockwise_dropout():
    """Dropout inside the kernel: deterministic per key, unbiased, its gradients those of the function
    it computes (the backward pass redraws each block's mask), and no [T, T] temporaries."""
    q, k, v = f32(1, 9, 2, 4), f32(1, 9, 2, 4), f32(1, 9, 2, 4)
    f = padax.jit(lambda q, k, v, key: F.flash_attention(q, k, v, 0.4, causal=True, rng_key=key, block_k=4)[0])
    a, b = f(q, k, v, padax.random.key(0)), f(q, k, v, padax.random.key(1))
    np.testing.assert_array_equal(np.asarray(a), np.asarray(f(q, k, v, padax.random.key(0))))
    assert not np.allclose(np.asarray(a), np.asarray(b))
    keys = padax.random.split(padax.random.key(2), 300)
    mean = np.asarray(padax.vmap(lambda key: f(q, k, v, key))(keys)).mean(0)
    np.testing.assert_allclose(mean, naive(q, k, v, np.tril(np.ones((9, 9), bool))), atol=0.2)
    t = 4096
    x = np.zeros((1, t, 1, 32), np.float32)
    grad = padax.grad(lambda q, k, v, key: F.flash_attention(q, k, v, 0.1, causal=True, rng_key=key)[0].sum(),
                      argnums=(0, 1, 2))
    assert _temps(grad, x, x, x, padax.random.key(0)) < t * t * 4 / 16     # vs 64 MiB of scores


@pytest.mark.slow
def test_blockwise_dropout_numerical_gradients(x64):
    q, k, v = (RNG.standard_normal((1, 5, 2, 3)) for _ in range(3))
    key = padax.random.key(4)
    check_grads(lambda q, k, v: F.flash_attention(q, k, v, 0.3, causal=True, rng_key=key, block_k=2)[0],
                (q, k, v), order=1, modes=("rev",))


@pytest.mark.slow
def test_flash_attn_unpadded_matches_each_sequence():
    lens_q, lens_k = [3, 5, 2], [4, 5, 1]
    cq, ck = np.cumsum([0] + lens_q).astype(np.int32), np.cumsum([0] + lens_k).astype(np.int32)
    q, k, v = f32(cq[-1], 4, 8), f32(ck[-1], 2, 8), f32(ck[-1], 2, 8)
    fn = F.flash_attention.flash_attn_unpadded

    @padax.jit
    def both(q, k, v, cq, ck):
        return [(fn(q, k, v, cq, ck, 5, 5, 0.3, causal=c, return_softmax=True),
                 fn(q, k, v, cq, ck, 5, 5, 0.3, causal=c, block_k=3)[0]) for c in (False, True)]
    for causal, ((out, p), out2) in zip((False, True), both(q, k, v, cq, ck)):
        for i in range(3):
            qs, ks = slice(cq[i], cq[i + 1]), slice(ck[i], ck[i + 1])
            keep = np.tril(np.ones((lens_q[i], lens_k[i]), bool)) if causal else None
            ref = naive(q[None, qs], k[None, ks], v[None, ks], keep, scale=0.3)[0]
            np.testing.assert_allclose(np.asarray(out)[qs], ref, rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(np.asarray(out2)[qs], ref, rtol=1e-5, atol=1e-5)
        p = np.asarray(p)
        assert p.shape == (4, cq[-1], ck[-1]) and np.allclose(p.sum(-1), 1.0)
    g = padax.jit(padax.grad(lambda q: fn(q, k, v, cq, ck, 5, 5, 0.3, causal=True, block_k=3)[0].sum()))(q)
    assert np.isfinite(np.asarray(g)).all()


def flashmask_dense(idx, sq, causal):
    """Paddle's documented flashmask_to_densemask, for [B, H, Sk, n] start/end rows -> keep [B, H, Sq, Sk]."""
    b, h, sk, n = idx.shape
    keep = np.ones((b, h, sq, sk), bool)
    has_end = (causal and n == 2) or (not causal and n == 4)
    for bi in range(b):
        for hi in range(h):
            for j in range(sk):
                down = idx[bi, hi, j, 0]
                if has_end:
                    keep[bi, hi, down:idx[bi, hi, j, 1], j] = False
                else:
                    keep[bi, hi, down:, j] = False
                if causal:
                    keep[bi, hi, :j, j] = False
                elif has_end:
                    keep[bi, hi, idx[bi, hi, j, 2]:idx[bi, hi, j, 3], j] = False
                else:
                    keep[bi, hi, :idx[bi, hi, j, 1], j] = False
    return keep


@pytest.mark.parametrize("causal,n", [(True, 1), pytest.param(True, 2, marks=pytest.mark.slow), (False, 2),
                                      pytest.param(False, 4, marks=pytest.mark.slow)])
def test_flashmask_attention_matches_the_dense_mask(causal, n):
    s = 9
    q, k, v = f32(2, s, 4, 8), f32(2, s, 2, 8), f32(2, s, 2, 8)
    j = np.arange(s)
    lo = np.minimum(j + RNG.integers(1, 4, (2, 2, s)), s)           # a row at or below the diagonal
    cols = {(True, 1): [lo], (True, 2): [lo, np.minimum(lo + 2, s)],
            (False, 2): [lo, np.maximum(j - 2, 0) + 0 * lo],
            (False, 4): [lo, np.minimum(lo + 3, s), 0 * lo, np.maximum(j - 1, 0) + 0 * lo]}[(causal, n)]
    idx = np.stack(cols, -1).astype(np.int32)
    keep = np.repeat(flashmask_dense(idx, s, causal), 2, axis=1)    # kv heads -> query heads
    ref = naive(q, k, v, keep, fill=float(np.finfo(np.float32).min))
    out, lse = padax.jit(lambda q, k, v, idx: F.flashmask_attention(q, k, v, idx, causal=causal, block_k=4,
                                                                    return_softmax_lse=True))(q, k, v, idx)
    np.testing.assert_allclose(np.asarray(out), ref, rtol=1e-5, atol=1e-5)
    assert lse.shape == (2, 4, s) and lse.dtype == padax.float32
    g = padax.jit(padax.grad(lambda q, k, v, idx: (F.flashmask_attention(q, k, v, idx, causal=causal,
                                                                         block_k=4) ** 2).sum(),
                             argnums=(0, 1, 2)))(q, k, v, idx)
    gd = padax.jit(padax.grad(lambda q, k, v, m: (F.dot_product_attention(q, k, v, mask=m) ** 2).sum(),
                              argnums=(0, 1, 2)))(q, k, v, keep)
    for a, e in zip(g, gd):
        np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=1e-4, atol=1e-5)


@pytest.mark.slow
def test_flashmask_window_and_sparse_mask():
    s = 8
    q, k, v = f32(1, s, 2, 4), f32(1, s, 2, 4), f32(1, s, 2, 4)
    i, j = np.arange(s)[:, None], np.arange(s)[None]
    out = F.flashmask_attention(q, k, v, causal=True, window_size=2, block_k=3)
    np.testing.assert_allclose(np.asarray(out), naive(q, k, v, (j <= i) & (j >= i - 2)), rtol=1e-5, atol=1e-5)
    out = F.flashmask_attention(q, k, v, window_size=(1, 2), block_k=3)
    np.testing.assert_allclose(np.asarray(out), naive(q, k, v, (j >= i - 1) & (j <= i + 2)), rtol=1e-5, atol=1e-5)
    start = np.minimum(np.arange(s) + 3, s)[None, None].repeat(2, 1).astype(np.int32)    # [B, H, Sk]
    sm = F.flash_attention.flash_attention_with_sparse_mask
    for causal in (True, False):
        keep = (i < start[0, 0][None]) & ((j <= i) if causal else True)
        np.testing.assert_allclose(np.asarray(sm(q, k, v, start, is_causal=causal, block_k=3)),
                                   naive(q, k, v, keep), rtol=1e-5, atol=1e-5)
    out, lse, seed = sm(q, k, v, start, is_causal=True, return_softmax_lse=True, return_seed_offset=True)
    assert lse.shape == (1, 2, s) and seed.shape == (2,)


def test_flash_errors():
    q = f32(1, 4, 2, 8)
    with pytest.raises(ValueError, match=r"flash_attention: query, key and value must be \[batch, seq, heads"):
        F.flash_attention(q[0], q[0], q[0])
    with pytest.raises(ValueError, match="the 2 query heads must be a multiple of the 3"):
        F.flash_attention(q, f32(1, 4, 3, 8), f32(1, 4, 3, 8))
    with pytest.raises(ValueError, match="last axis must be 1 or 2 when causal is True"):
        F.flashmask_attention(q, q, q, np.zeros((1, 1, 4, 4), np.int32), causal=True)
    with pytest.raises(ValueError, match="window_size cannot be combined"):
        F.flashmask_attention(q, q, q, np.zeros((1, 1, 4, 1), np.int32), causal=True, window_size=2)
    with pytest.raises(ValueError, match="cu_seqlens_q must be a 1-D integer Tensor"):
        F.flash_attn_unpadded(q[0], q[0], q[0], np.array([[0, 4]], np.int32), np.array([0, 4], np.int32), 4, 4, 1.0)


def test_scaled_dot_product_attention_flash_backend():
    q, k, v = f32(2, 6, 4, 8), f32(2, 7, 2, 8), f32(2, 7, 2, 8)
    bias, keep = f32(2, 1, 6, 7), RNG.random((6, 7)) > 0.3
    keep[:, 0] = True
    run = padax.jit(lambda q, k, v, b, m: [
        (F.scaled_dot_product_attention(q, k, v, a, is_causal=c, backend="flash"),
         F.scaled_dot_product_attention(q, k, v, a, is_causal=c)) for a in (None, b, m) for c in (False, True)])
    for flash, math in run(q, k, v, bias, keep):
        np.testing.assert_allclose(np.asarray(flash), np.asarray(math), rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="backend must be"):
        F.scaled_dot_product_attention(q, k, v, backend="cudnn")
