"""Train a tiny character-level GPT on the bundled text and sample from it: `python -m padax.examples.tiny_gpt`.

Pre-norm decoder blocks (RMSNorm -> causal self-attention with rotary position embeddings ->
RMSNorm -> a GELU MLP, or a mixture of experts with `--moe`), trained with AdamW in one jitted
step. Training runs `padax.nn.functional.flash_attention` (causal) over whole sequences;
generation runs `padax.nn.decode.generate` (one compiled while_loop) with a preallocated
key/value cache per layer, one token per step through `scaled_dot_product_attention`.
"""
from __future__ import annotations

import argparse
import functools
import sys
import time
from typing import Any, NamedTuple, Sequence

import numpy as np

import padax
from padax import nn
from padax.data import load_tiny_text
from padax.incubate.nn import MoELayer
from padax.incubate.nn.functional import fused_rotary_position_embedding
from padax.nn.decode import generate

F = nn.functional


class CharTokenizer:
    """Characters <-> int32 ids over the sorted characters of a text."""

    def __init__(self, text: str) -> None:
        self.chars = sorted(set(text))
        self.index = {c: i for i, c in enumerate(self.chars)}

    @property
    def vocab_size(self) -> int:
        return len(self.chars)

    def encode(self, text: str) -> np.ndarray:
        return np.array([self.index[c] for c in text], np.int32)

    def decode(self, ids: Any) -> str:
        return "".join(self.chars[int(i)] for i in np.asarray(ids).reshape(-1))


class KVCache(NamedTuple):
    """One layer's preallocated keys/values [batch, max_length, heads, head_dim] and how many are filled."""
    k: Any
    v: Any
    length: Any


@functools.lru_cache(maxsize=None)
def rope_tables(max_length: int, head_dim: int, base: float = 10000.0) -> tuple[np.ndarray, np.ndarray]:
    """sin, cos [max_length, head_dim] for rotary embeddings of adjacent pairs (the frequency of
    dims 2i and 2i+1 is base ** (-2i / head_dim)), as fused_rotary_position_embedding computes them."""
    freq = base ** (-2.0 * (np.arange(head_dim) // 2) / head_dim)
    angle = np.arange(max_length)[:, None] * freq[None, :]
    return np.sin(angle).astype(np.float32), np.cos(angle).astype(np.float32)


class CausalSelfAttention(nn.Layer):
    """Multi-head causal self-attention with rotary position embeddings on the queries and keys."""

    def __init__(self, d_model: int, num_heads: int, max_length: int) -> None:
        super().__init__()
        self.num_heads, self.head_dim, self.max_length = num_heads, d_model // num_heads, max_length
        self.qkv = nn.Linear(d_model, 3 * d_model, bias_attr=False)
        self.out = nn.Linear(d_model, d_model, bias_attr=False)

    def forward(self, x: Any, positions: Any, cache: KVCache | None) -> tuple[Any, KVCache | None]:
        b, s, d = x.shape
        q, k, v = padax.unbind(padax.reshape(self.qkv(x), [b, s, 3, self.num_heads, self.head_dim]), axis=2)
        sin, cos = rope_tables(self.max_length, self.head_dim)
        q, k, _ = fused_rotary_position_embedding(q, k, sin=padax.to_tensor(sin), cos=padax.to_tensor(cos),
                                                  position_ids=positions)
        if cache is None:       # the whole sequence at once: the blockwise causal kernel
            out, _ = F.flash_attention(q, k, v, causal=True, block_k=32)
        else:                   # write the new keys/values at cache.length, attend to the filled positions
            zero = padax.zeros([], "int32")
            k_all = padax.lax.dynamic_update_slice(cache.k, k, [zero, cache.length, zero, zero])
            v_all = padax.lax.dynamic_update_slice(cache.v, v, [zero, cache.length, zero, zero])
            keep = padax.arange(cache.k.shape[1], dtype="int32")[None, :] <= (
                cache.length + padax.arange(s, dtype="int32")[:, None])          # [s, max_length]
            out = F.scaled_dot_product_attention(q, k_all, v_all, attn_mask=keep)
            cache = KVCache(k_all, v_all, cache.length + s)
        return self.out(padax.reshape(out, [b, s, d])), cache


class Block(nn.Layer):
    """x + attn(norm(x)), then x + ffn(norm(x)); the feed-forward is an MLP or a mixture of experts."""

    def __init__(self, d_model: int, num_heads: int, max_length: int, num_experts: int = 0) -> None:
        super().__init__()
        self.norm1, self.norm2 = nn.RMSNorm(d_model), nn.RMSNorm(d_model)
        self.attn = CausalSelfAttention(d_model, num_heads, max_length)
        if num_experts:
            self.moe = MoELayer(d_model, 2 * d_model, num_experts, top_k=2)
        else:
            self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x: Any, positions: Any, cache: KVCache | None) -> tuple[Any, KVCache | None, Any]:
        h, cache = self.attn(self.norm1(x), positions, cache)
        x = x + h
        if hasattr(self, "moe"):
            h, aux = self.moe(self.norm2(x))
        else:
            h, aux = self.mlp(self.norm2(x)), padax.zeros([])
        return x + h, cache, aux


class TinyGPT(nn.Layer):
    """tokens [batch, s] int -> logits [batch, s, vocab]; `model(tokens, cache)` is what generate calls.

    Args:
        vocab_size: the number of token ids.
        d_model, num_heads, num_layers: the width, the attention heads per layer, the depth.
        max_length: the longest sequence (the rotary tables and the cache size).
        num_experts: 0 for MLP blocks, else each block's feed-forward is a top-2 MoELayer of that many experts.
    """

    def __init__(self, vocab_size: int, d_model: int = 64, num_heads: int = 4, num_layers: int = 2,
                 max_length: int = 256, num_experts: int = 0) -> None:
        super().__init__()
        self.max_length = max_length
        self.embed = nn.Embedding(vocab_size, d_model)
        self.blocks = nn.LayerList([Block(d_model, num_heads, max_length, num_experts) for _ in range(num_layers)])
        self.norm = nn.RMSNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias_attr=False)

    def gen_cache(self, batch_size: int, max_length: int) -> list[KVCache]:
        """Empty caches (zeros, length 0) for every layer, room for max_length tokens."""
        attn = self.blocks[0].attn
        shape = [batch_size, max_length, attn.num_heads, attn.head_dim]
        return [KVCache(padax.zeros(shape), padax.zeros(shape), padax.zeros([], "int32")) for _ in self.blocks]

    def forward(self, tokens: Any, cache: list[KVCache] | None = None, with_aux: bool = False) -> tuple:
        b, s = tokens.shape
        start = padax.zeros([], "int32") if cache is None else cache[0].length
        positions = padax.broadcast_to((start + padax.arange(s, dtype="int32"))[None, :], [b, s])
        x = self.embed(tokens)
        new_cache, aux = [], padax.zeros([])
        for i, block in enumerate(self.blocks):
            x, c, a = block(x, positions, None if cache is None else cache[i])
            new_cache.append(c)
            aux = aux + a
        logits = self.head(self.norm(x))
        out_cache = None if cache is None else new_cache
        return (logits, out_cache, aux) if with_aux else (logits, out_cache)


def batches(ids: np.ndarray, seq_len: int, batch_size: int, rng: np.random.Generator):
    """Endless (inputs, targets) [batch, seq_len] int32 windows at random offsets, targets shifted by one."""
    while True:
        starts = rng.integers(0, len(ids) - seq_len - 1, batch_size)
        window = np.stack([ids[s:s + seq_len + 1] for s in starts])
        yield window[:, :-1], window[:, 1:]


def make_train_step(optimizer, aux_weight: float = 0.01):
    """The jitted step (model, opt_state, x, y) -> (model, opt_state, loss): next-token cross entropy
    (plus aux_weight times the MoE load-balancing loss)."""

    def loss_fn(model, x, y):
        logits, _, aux = model(x, None, with_aux=True)
        ce = F.cross_entropy(padax.reshape(logits, [-1, logits.shape[-1]]), padax.reshape(y, [-1]))
        return ce + aux_weight * aux, ce

    @padax.jit
    def train_step(model, opt_state, x, y):
        (_, ce), grads = padax.value_and_grad(loss_fn, has_aux=True)(model, x, y)
        model, opt_state = optimizer.step(model, grads, opt_state)
        return model, opt_state, ce

    return train_step


def train(model: TinyGPT, ids: np.ndarray, steps: int, seq_len: int = 64, batch_size: int = 16, lr: float = 3e-3,
          seed: int = 0, log_every: int = 0, say=print) -> tuple[TinyGPT, list[float]]:
    """Train `model` for `steps` AdamW steps on random windows of `ids`; returns it and the losses."""
    optimizer = padax.optimizer.AdamW(learning_rate=lr, weight_decay=0.01)
    opt_state = optimizer.init(model)
    train_step = make_train_step(optimizer)
    data = batches(ids, seq_len, batch_size, np.random.default_rng(seed))
    losses, t0 = [], time.perf_counter()
    for step in range(1, steps + 1):
        x, y = next(data)
        model, opt_state, loss = train_step(model, opt_state, padax.to_tensor(x), padax.to_tensor(y))
        losses.append(float(loss))
        if log_every and (step % log_every == 0 or step == steps):
            say(f"step {step:4d}  loss {np.mean(losses[-log_every:]):.4f}  elapsed {time.perf_counter() - t0:6.2f}s")
    return model, losses


def main(argv: Sequence[str] | None = None) -> dict:
    """Train and sample; returns {'losses', 'sample', 'tokens', 'seconds', 'model', 'tokenizer'}."""
    p = argparse.ArgumentParser(prog="python -m padax.examples.tiny_gpt", description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=300, help="training steps (fewer for a quick run)")
    p.add_argument("--seq-len", type=int, default=64)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--d-model", type=int, default=64)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--experts", type=int, default=0, help="a top-2 mixture of this many experts per block")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--prompt", default="the ")
    p.add_argument("--new-tokens", type=int, default=120)
    p.add_argument("--temperature", type=float, default=0.8, help="0 for greedy decoding")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    say = (lambda *a: None) if args.quiet else print
    t0 = time.perf_counter()
    text = load_tiny_text()
    tok = CharTokenizer(text)
    padax.seed(args.seed)
    model = TinyGPT(tok.vocab_size, d_model=args.d_model, num_layers=args.layers,
                    max_length=max(args.seq_len, len(args.prompt) + args.new_tokens), num_experts=args.experts)
    model, losses = train(model, tok.encode(text), args.steps, args.seq_len, args.batch_size, args.lr, args.seed,
                          log_every=max(1, args.steps // 10), say=say)
    model.eval()
    prompt = tok.encode(args.prompt)[None, :]
    tokens = generate(model, prompt, args.new_tokens, temperature=args.temperature, key=padax.random.key(args.seed))
    sample = tok.decode(tokens[0])
    elapsed = time.perf_counter() - t0
    print(f"loss {losses[0]:.3f} -> {losses[-1]:.3f} after {args.steps} steps in {elapsed:.2f}s; a sample:\n{sample}")
    return {"losses": losses, "sample": sample, "tokens": tokens, "seconds": elapsed, "model": model,
            "tokenizer": tok}


if __name__ == "__main__":
    result = main()
    sys.exit(0 if result["losses"][-1] < result["losses"][0] / 2 else 1)
