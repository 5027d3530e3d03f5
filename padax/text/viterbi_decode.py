"""Viterbi decoding of a linear-chain CRF: the highest-scoring tag path of each sequence.

Built from padax ops with `padax.lax.scan` over time (the forward max-sum pass, then the backtrace in
reverse), so it runs under jit and vmap. Positions past a sequence's length are 0 in the path.
"""
from __future__ import annotations

from typing import Any

import numpy as np

import padax


def _forward(potentials: Any, trans: Any, lengths: Any, include_bos_eos_tag: bool):
    """The max-sum recursion: (final scores [B, N], backpointers [T-1, B, N])."""
    n = trans.shape[0]
    alpha = potentials[:, 0]
    if include_bos_eos_tag:
        alpha = alpha + trans[n - 1][None, :]          # the last tag is BOS: its row starts every path
    steps = padax.arange(1, potentials.shape[1], dtype=lengths.dtype)

    def step(alpha, xs):
        t, emit = xs
        scores = alpha[:, :, None] + trans[None]           # [B, from, to]
        best = padax.max(scores, axis=1)
        back = padax.argmax(scores, axis=1)
        active = (t < lengths)[:, None]
        return padax.where(active, best + emit, alpha), back

    alpha, backs = padax.lax.scan(step, alpha, (steps, padax.moveaxis(potentials[:, 1:], 1, 0)))
    if include_bos_eos_tag:
        alpha = alpha + trans[n - 2][None, :]            # the second-to-last tag is EOS: its row ends them
    return alpha, backs


def viterbi_decode(potentials: Any, transition_params: Any, lengths: Any, include_bos_eos_tag: bool = True,
                   name: str | None = None) -> tuple[Any, Any]:
    """The best tag sequence under emission scores `potentials` and transition scores `transition_params`.

    Args:
        potentials: emission scores [batch, seq_len, num_tags], float32/float64.
        transition_params: transition scores [num_tags, num_tags] (row: from, column: to).
        lengths: the length of each sequence, int64 [batch] (each at least 1).
        include_bos_eos_tag: the last tag is the start tag and the second-to-last the stop tag: row
            num_tags-1 of transition_params is added to the first step's scores and row num_tags-2 to the
            last step's, as Paddle's kernel does (default True).
        name: unused (Paddle's).

    Returns:
        (scores [batch] of potentials' dtype, path int64 [batch, max(lengths)]); the path has seq_len
        columns when lengths are traced (under jit or vmap). Entries past a sequence's length are 0.

    Examples:
        >>> import padax
        >>> emit = padax.to_tensor([[[1.0, 0.0], [0.0, 2.0], [3.0, 0.0]]])
        >>> trans = padax.zeros([2, 2])
        >>> scores, path = padax.text.viterbi_decode(emit, trans, padax.to_tensor([3]), False)
        >>> scores.tolist(), path.tolist()
        ([6.0], [[0, 1, 0]])
    """
    potentials = padax.asarray(potentials)
    trans = padax.asarray(transition_params).astype(potentials.dtype)
    lengths = padax.asarray(lengths).astype(padax.int64)
    if potentials.ndim != 3 or trans.shape != (potentials.shape[2], potentials.shape[2]):
        raise ValueError(f"viterbi_decode: potentials must be [batch, seq_len, num_tags] and transition_params "
                         f"[num_tags, num_tags], got {tuple(potentials.shape)} and {tuple(trans.shape)}")
    if lengths.shape != (potentials.shape[0],):
        raise ValueError(f"viterbi_decode: lengths must be [batch] = [{potentials.shape[0]}], got "
                         f"{tuple(lengths.shape)}")
    alpha, backs = _forward(potentials, trans, lengths, bool(include_bos_eos_tag))
    scores = padax.max(alpha, axis=1)
    last = padax.argmax(alpha, axis=1).astype(padax.int64)
    seq_len = potentials.shape[1]
    # backs[t] maps the tag at position t + 1 to the best tag at t (a zero row closes the last position)
    backs = padax.concat([backs.astype(padax.int64), padax.zeros([1, *last.shape, trans.shape[0]], padax.int64)])
    positions = padax.arange(seq_len, dtype=padax.int64)

    def back_step(cur, xs):
        t, back = xs                                     # back: the pointers of step t + 1 (to position t)
        prev = padax.take_along_axis(back, cur[:, None], axis=1)[:, 0]
        cur = padax.where(t + 1 < lengths, prev, cur)     # inside the sequence: follow the pointer
        return cur, padax.where(t < lengths, cur, padax.zeros_like(cur))

    _, path = padax.lax.scan(back_step, last, (positions, backs), reverse=True)
    path = padax.moveaxis(path, 0, 1)
    try:
        width = int(np.asarray(lengths).max()) if lengths.shape[0] else 0
    except TypeError:
        width = seq_len
    return scores, path[:, :width]


class ViterbiDecoder(padax.nn.Layer):
    """A layer holding the transition scores; forward(potentials, lengths) runs `viterbi_decode`.

    Args:
        transitions: transition scores [num_tags, num_tags].
        include_bos_eos_tag: see `viterbi_decode` (default True).
        name: unused (Paddle's).

    Returns:
        The layer; calling it gives (scores, path).

    Examples:
        >>> import padax
        >>> decoder = padax.text.ViterbiDecoder(padax.zeros([2, 2]), include_bos_eos_tag=False)
        >>> emit = padax.to_tensor([[[1.0, 0.0], [0.0, 2.0]]])
        >>> decoder(emit, padax.to_tensor([2]))[1].tolist()
        [[0, 1]]
    """

    def __init__(self, transitions: Any, include_bos_eos_tag: bool = True, name: str | None = None) -> None:
        super().__init__()
        self.transitions = transitions
        self.include_bos_eos_tag = include_bos_eos_tag
        self.name = name

    def forward(self, potentials: Any, lengths: Any) -> tuple[Any, Any]:
        """(potentials [batch, seq_len, num_tags], lengths [batch]) -> (scores, path)."""
        return viterbi_decode(potentials, self.transitions, lengths, self.include_bos_eos_tag, self.name)
