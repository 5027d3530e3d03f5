"""The tiny GPT example: its loss falls in a few AdamW steps, generate() gives [batch, prompt + new] int32 tokens,
and greedy decoding with the preallocated KV cache equals recomputing the whole prefix (generate's use_cache=False
and a plain argmax loop); the cached logits equal the full causal forward's, position by position."""
import numpy as np

import padax
from padax.data import load_tiny_text
from padax.examples import tiny_gpt
from padax.nn.decode import generate


def test_tiny_gpt_trains_and_samples():
    result = tiny_gpt.main(["--steps", "40", "--new-tokens", "12", "--prompt", "the sea", "--quiet"])
    losses = result["losses"]
    assert np.mean(losses[-5:]) < 0.75 * np.mean(losses[:5])
    tokens = np.asarray(result["tokens"])
    assert tokens.shape == (1, 7 + 12) and tokens.dtype == np.int32
    assert result["sample"].startswith("the sea") and len(result["sample"]) == 19
    assert tokens.min() >= 0 and tokens.max() < result["tokenizer"].vocab_size


def _model():
    padax.seed(1)
    tok = tiny_gpt.CharTokenizer(load_tiny_text())
    model = tiny_gpt.TinyGPT(tok.vocab_size, d_model=32, num_heads=2, num_layers=2, max_length=24)
    model, _ = tiny_gpt.train(model, tok.encode(load_tiny_text()), 20, seq_len=16, batch_size=8)
    return model.eval(), tok


def test_cached_greedy_equals_uncached_and_the_logits_match():
    model, tok = _model()
    prompt = np.stack([tok.encode("the ri"), tok.encode("a boat")])
    cached = np.asarray(generate(model, prompt, 10, temperature=0))
    uncached = np.asarray(generate(model, prompt, 10, temperature=0, use_cache=False))
    np.testing.assert_array_equal(cached[:, :6], prompt)
    np.testing.assert_array_equal(cached, uncached)
    forward = padax.jit(lambda m, t: m(t, None)[0])
    toks = np.zeros_like(cached)               # greedy by hand: argmax of the full causal forward, one at a time
    toks[:, :6] = prompt
    for i in range(6, cached.shape[1]):
        toks[:, i] = np.asarray(forward(model, toks))[:, i - 1].argmax(-1)
    np.testing.assert_array_equal(cached, toks)
    full = np.asarray(forward(model, cached))      # the prompt, then one token per step through the cache
    step = padax.jit(lambda m, t, c: m(t, c))
    first, cache = step(model, cached[:, :6], model.gen_cache(2, cached.shape[1]))
    logits = [np.asarray(first)]
    for i in range(6, cached.shape[1]):
        out, cache = step(model, cached[:, i:i + 1], cache)
        logits.append(np.asarray(out))
    assert int(cache[0].length) == cached.shape[1]
    np.testing.assert_allclose(np.concatenate(logits, 1), full, rtol=1e-4, atol=1e-4)
