"""padax.nn.decode.generate on a tiny causal decoder: with the preallocated MultiHeadAttention cache equal to
recomputing the whole prefix (and to an eager Python loop), token for token; sampling reproducible per key;
top-k / top-p filtering against numpy; MultiHeadAttention.PreallocatedCache equal to full causal attention."""
import numpy as np
import pytest

import padax
from padax import nn
from padax.nn._generation import _filter_logits
from padax.nn.decode import generate
from tests.conftest import assert_close

VOCAB, D, MAXLEN = 11, 8, 16


class TinyLM(nn.Layer):
    """Token + position embeddings, one pre-norm self-attention block, a vocabulary head."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D)
        self.pos = nn.Embedding(MAXLEN, D)
        self.block = nn.TransformerEncoderLayer(D, 2, 16, dropout=0.0, normalize_before=True)
        self.head = nn.Linear(D, VOCAB)

    def gen_cache(self, batch, max_length):
        return self.block.self_attn.gen_cache(padax.zeros([batch, 1, D]), type=nn.MultiHeadAttention.PreallocatedCache,
                                              max_length=max_length)

    def forward(self, tokens, cache):
        s = tokens.shape[1]
        start = 0 if cache is None else cache.length
        h = self.emb(tokens) + self.pos(start + padax.arange(s))
        if cache is None:
            h = self.block(h, src_mask=padax.to_tensor(np.tril(np.ones((s, s), bool))))
        else:
            h, cache = self.block(h, cache=cache)
        return self.head(h) * 3.0, cache      # sharpen, so that greedy decoding is far from ties


@pytest.fixture(scope="module")
def model():
    padax.seed(0)
    return TinyLM().eval()


PROMPT = np.array([[1, 2, 3], [4, 4, 5]], np.int32)


def _loop_greedy(model, prompt, n):
    """A Python loop over the full-length buffer (one compiled shape), outside any while_loop."""
    p = prompt.shape[1]
    toks = np.zeros((prompt.shape[0], p + n), np.int32)
    toks[:, :p] = prompt
    step = padax.jit(lambda m, t: m(t, None)[0])
    for i in range(n):
        toks[:, p + i] = np.asarray(step(model, toks))[:, p + i - 1].argmax(-1)
    return toks


def test_greedy_with_cache_equals_recomputing_the_prefix(model):
    with_cache = np.asarray(generate(model, PROMPT, 6, temperature=0))
    without = np.asarray(generate(model, PROMPT, 6, temperature=0, use_cache=False))
    assert with_cache.shape == (2, 9) and with_cache.dtype == np.int32
    np.testing.assert_array_equal(with_cache[:, :3], PROMPT)
    np.testing.assert_array_equal(with_cache, without)
    np.testing.assert_array_equal(with_cache, _loop_greedy(model, PROMPT, 6))


SAMPLING = dict(temperature=1.5, top_k=5, top_p=0.9)


def test_sampling_is_reproducible_per_key(model):
    k = padax.random.key(3)
    a = np.asarray(generate(model, PROMPT, 6, key=k, **SAMPLING))
    np.testing.assert_array_equal(a, np.asarray(generate(model, PROMPT, 6, key=k, **SAMPLING)))
    others = [np.asarray(generate(model, PROMPT, 6, key=padax.random.key(s), **SAMPLING)) for s in range(3)]
    assert any(not np.array_equal(o[:, 3:], others[0][:, 3:]) for o in others[1:])


@pytest.mark.slow
def test_sampling_same_with_or_without_cache_and_top_k_1_is_greedy(model):
    k = padax.random.key(3)
    a = np.asarray(generate(model, PROMPT, 6, key=k, **SAMPLING))
    np.testing.assert_array_equal(a, np.asarray(generate(model, PROMPT, 6, key=k, use_cache=False, **SAMPLING)))
    g = np.asarray(generate(model, PROMPT, 6, temperature=0))
    np.testing.assert_array_equal(np.asarray(generate(model, PROMPT, 6, temperature=0.7, top_k=1, key=k)), g)


def test_eos_stops_rows(model):
    greedy = np.asarray(generate(model, PROMPT, 6, temperature=0))
    eos = int(greedy[0, 4])                # row 0's second generated token
    out = np.asarray(generate(model, PROMPT, 6, temperature=0, eos_token_id=eos))
    np.testing.assert_array_equal(out[0, :5], greedy[0, :5])
    assert np.all(out[0, 5:] == eos)
    hit = np.nonzero(greedy[1, 3:] == eos)[0]
    stop = 3 + (hit[0] + 1 if hit.size else 6)
    np.testing.assert_array_equal(out[1, :stop], greedy[1, :stop])
    assert np.all(out[1, stop:] == eos)


def test_filter_logits_matches_numpy():
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((3, 9)).astype(np.float32)
    got = np.asarray(_filter_logits(padax.to_tensor(logits), 4, None))
    kth = np.sort(logits, -1)[:, -4][:, None]
    np.testing.assert_array_equal(np.isfinite(got), logits >= kth)
    got = np.asarray(_filter_logits(padax.to_tensor(logits), None, 0.6))
    p = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    for r in range(3):
        order = np.argsort(-p[r])
        n_keep = int(np.searchsorted(np.cumsum(p[r][order]), 0.6) + 1)   # smallest prefix reaching 0.6
        want = np.zeros(9, bool)
        want[order[:n_keep]] = True
        np.testing.assert_array_equal(np.isfinite(got[r]), want)
        assert_close(got[r][want], logits[r][want])


def test_preallocated_cache_equals_causal_attention():
    padax.seed(1)
    mha = nn.MultiHeadAttention(8, 2)
    x = padax.randn([2, 5, 8])
    full = mha(x, x, x, attn_mask=padax.to_tensor(np.tril(np.ones((5, 5), bool))))
    cache = mha.gen_cache(x, type=mha.PreallocatedCache, max_length=7)
    out, cache = mha(x[:, :3], cache=cache)          # eagerly
    outs = [out]
    step = padax.jit(lambda m, t, c: m(t, cache=c))   # compiled, with a traced length
    for i in (3, 4):
        out, cache = step(mha, x[:, i:i + 1], cache)
        outs.append(out)
    assert int(cache.length) == 5 and cache.k.shape == (2, 2, 7, 4)
    assert_close(padax.concat(outs, 1), np.asarray(full), rtol=1e-5, atol=1e-6)
