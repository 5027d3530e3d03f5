"""Autoregressive generation from a language model as one compiled while_loop (padax.nn.decode.generate)."""
from __future__ import annotations

from typing import Any

import padax
from padax.core.errors import op_value_error


def _filter_logits(logits: Any, top_k: int | None, top_p: float | None) -> Any:
    """Set the logits outside the top_k largest, and outside the smallest set of probability >= top_p, to -inf."""
    neg = padax.full_like(logits, float("-inf"))
    if top_k is not None and top_k < logits.shape[-1]:
        kth = padax.topk(logits, top_k, axis=-1)[0][:, -1:]
        logits = padax.where(logits < kth, neg, logits)
    if top_p is not None and top_p < 1.0:
        order = padax.argsort(logits, axis=-1, descending=True, stable=True)
        sorted_logits = padax.take_along_axis(logits, order, axis=-1)
        probs = padax.nn.functional.softmax(sorted_logits, axis=-1)
        before = padax.cumsum(probs, axis=-1) - probs          # mass of the strictly more likely tokens
        drop_sorted = before >= top_p                            # the most likely token is always kept
        drop = padax.put_along_axis(padax.zeros_like(drop_sorted), order, drop_sorted, axis=-1)
        logits = padax.where(drop, neg, logits)
    return logits


def _next_token(logits: Any, key: Any, temperature: float, top_k: int | None, top_p: float | None) -> Any:
    if temperature == 0:
        return padax.cast(padax.argmax(logits, axis=-1), "int32")
    logits = _filter_logits(padax.cast(logits, "float32") / temperature, top_k, top_p)
    return padax.cast(padax.random.categorical(key, logits, axis=-1), "int32")


def _generate(model, prompt, key, *, max_new_tokens, temperature, top_k, top_p, eos_token_id, use_cache):
    b, p = prompt.shape
    total = p + max_new_tokens
    fill = 0 if eos_token_id is None else eos_token_id     # what a row holds after its eos (the loop may end early)
    tokens = padax.lax.dynamic_update_slice(padax.full([b, total], fill, "int32"), prompt, [0, 0])
    if use_cache:
        logits, cache = model(prompt, model.gen_cache(b, total))
        first = logits[:, -1]
    else:
        cache, first = 0, padax.zeros([b, 1], "float32")   # placeholders: logits come from the full buffer

    def cond(state):
        i, _, _, _, _, finished = state
        return padax.logical_and(i < max_new_tokens, padax.logical_not(padax.all(finished)))

    def body(state):
        i, tokens, cache, carried, key, finished = state
        if use_cache:
            logits = carried
        else:   # recompute the whole prefix; a causal model ignores the unwritten tail
            full, _ = model(tokens, None)
            logits = padax.squeeze(padax.lax.dynamic_slice_in_dim(full, p + i - 1, 1, axis=1), 1)
        key, sub = padax.random.split(key)
        tok = _next_token(logits, sub, temperature, top_k, top_p)
        if eos_token_id is not None:
            tok = padax.where(finished, padax.full_like(tok, eos_token_id), tok)
            finished = padax.logical_or(finished, tok == eos_token_id)
        tokens = padax.lax.dynamic_update_slice(tokens, padax.unsqueeze(tok, 1), [0, p + i])
        if use_cache:
            step, cache = model(padax.unsqueeze(tok, 1), cache)
            carried = step[:, 0]
        return i + 1, tokens, cache, carried, key, finished

    init = (padax.zeros([], "int32"), tokens, cache, first, key, padax.zeros([b], "bool"))
    return padax.lax.while_loop(cond, body, init)[1]


_generate_jit = padax.jit(_generate, static_argnames=("max_new_tokens", "temperature", "top_k", "top_p",
                                                      "eos_token_id", "use_cache"))


def generate(model: Any, prompt: Any, max_new_tokens: int, temperature: float = 1.0, top_k: int | None = None,
             top_p: float | None = None, eos_token_id: int | None = None, key: Any = None,
             use_cache: bool = True) -> Any:
    """Continue token sequences with a language model: greedy (temperature 0) or sampled (temperature, top-k,
    nucleus top-p) decoding, compiled whole as one `padax.lax.while_loop`.

    The model's calling convention: `model(tokens, cache) -> (logits, cache)` with tokens [batch, s] int32
    and logits [batch, s, vocab]; `model.gen_cache(batch_size, max_length)` gives the initial cache (any
    pytree of fixed shapes, e.g. MultiHeadAttention.PreallocatedCache per layer) whose length counts the
    tokens already seen, so the call with s new tokens treats them as positions length .. length+s-1.
    With use_cache=False the model is called as `model(tokens, None)` on the whole [batch, prompt +
    max_new_tokens] buffer every step and must be causal (position i sees positions <= i); the next token
    comes from the logits at the last written position. Both give the same tokens.

    Args:
        model: the model (a Layer or any pytree callable as above); it is a traced argument, not a constant.
        prompt: [batch, prompt_len] integer tokens (every row of the same length).
        max_new_tokens: how many tokens to generate.
        temperature: 0 for greedy (argmax) decoding; otherwise the logits are divided by it and sampled.
        top_k: sample only among the top_k most likely tokens.
        top_p: sample only among the smallest set of most likely tokens whose probability reaches top_p.
        eos_token_id: a row stops at this token; its later positions hold eos_token_id too, and the loop
            ends early when every row has stopped.
        key: a padax.random key for sampling (default: drawn from padax's global generator, padax.seed).
        use_cache: feed one token per step through the model's cache (else recompute the whole prefix).

    Returns:
        [batch, prompt_len + max_new_tokens] int32: the prompt followed by the generated tokens.

    Examples:
        >>> import padax
        >>> from padax.nn.decode import generate
        >>> class Count(padax.nn.Layer):  # a "model" whose next token is always the last token + 1
        ...     def gen_cache(self, batch, length):
        ...         return padax.zeros([], "int32")
        ...     def forward(self, tokens, cache):
        ...         return padax.nn.functional.one_hot((tokens + 1) % 10, 10) * 5.0, cache
        >>> generate(Count(), padax.to_tensor([[3]]), 4, temperature=0).tolist()
        [[3, 4, 5, 6, 7]]
    """
    prompt = padax.cast(padax.to_tensor(prompt) if not padax.is_tensor(prompt) else prompt, "int32")
    if prompt.ndim != 2:
        raise op_value_error("generate", f"wants prompt [batch, prompt_len], got {prompt.shape}")
    if max_new_tokens < 0 or temperature < 0:
        raise op_value_error("generate", f"max_new_tokens ({max_new_tokens}) and temperature ({temperature}) "
                                         f"must be >= 0")
    if key is None:
        key = padax.random.key(0 if temperature == 0 else int(padax.randint(0, 2 ** 31 - 1, [1]).item()))
    return _generate_jit(model, prompt, key, max_new_tokens=int(max_new_tokens), temperature=float(temperature),
                         top_k=None if top_k is None else int(top_k), top_p=None if top_p is None else float(top_p),
                         eos_token_id=None if eos_token_id is None else int(eos_token_id),
                         use_cache=bool(use_cache))


__all__ = ["generate"]
