"""fused_rotary_position_embedding: rotary position embeddings (RoPE) on q, k and v, Paddle's fused
kernel as a composition."""
from __future__ import annotations

from typing import Any

from padax import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import math as M
from padax.functional._arrays import asarray
from padax.functional._checks import arg
from padax.functional.creation import arange
from padax.functional.manipulation import concat, moveaxis, reshape, split, stack, unsqueeze

__all__ = ["fused_rotary_position_embedding"]


def _table(op: str, t: Any, what: str, seq: int, d: int, position_ids: Any, time_major: bool) -> Any:
    """sin or cos [S', D] / [1, S', 1, D] as [B|1, S, 1, D] ([S, B|1, 1, D] time-major), rows picked
    by position_ids [B, S] when given."""
    t = arg(op, t, what)
    if t.aval.ndim == 4 and t.aval.shape[0] == 1 and t.aval.shape[2] == 1:
        t = reshape(t, [t.aval.shape[1], t.aval.shape[3]])
    if t.aval.ndim != 2 or t.aval.shape[1] != d:
        raise op_value_error(op, f"{what} must be [seq_len, head_dim] or [1, seq_len, 1, head_dim] with head_dim "
                                 f"{d}, got {t.aval.str_short()}")
    if position_ids is not None:
        pos = arg(op, position_ids, "position_ids")
        if pos.aval.ndim != 2 or not dtypes.is_integer(pos.aval.dtype):
            raise op_value_error(op, f"position_ids must be an integer [batch, seq_len], got {pos.aval.str_short()}")
        g = t[pos]                                                               # [B, S, D]
        return unsqueeze(moveaxis(g, 0, 1) if time_major else g, 2)
    if t.aval.shape[0] < seq:
        raise op_value_error(op, f"{what} has {t.aval.shape[0]} positions, fewer than seq_len {seq}")
    t = t[:seq]
    return reshape(t, [seq, 1, 1, d]) if time_major else reshape(t, [1, seq, 1, d])


def _rotate(x: Any, sin: Any, cos: Any, neox: bool) -> Any:
    d = x.aval.shape[-1]
    if neox:                                                                     # pairs (x0, x1), (x2, x3), ...
        pairs = reshape(x, list(x.aval.shape[:-1]) + [d // 2, 2])
        even, odd = pairs[..., 0], pairs[..., 1]
        rot = reshape(stack([M.negative(odd), even], axis=-1), list(x.aval.shape))
    else:                                                                        # halves (x[:d/2], x[d/2:])
        first, second = split(x, 2, axis=-1)
        rot = concat([M.negative(second), first], axis=-1)
    return M.add(M.multiply(x, cos), M.multiply(rot, sin))


def fused_rotary_position_embedding(q: Any, k: Any = None, v: Any = None, sin: Any = None, cos: Any = None,
                                    position_ids: Any = None, use_neox_rotary_style: bool = True,
                                    time_major: bool = False,
                                    rotary_emb_base: float = 10000.0) -> tuple[Any, Any, Any]:
    """Rotate q (and k, v) by position: out = x * cos + rotate(x) * sin, where rotate pairs adjacent
    elements (use_neox_rotary_style=True, Paddle's naming: (x0, x1) -> (-x1, x0)) or the two halves
    (False: (x1, x2) -> (-x2, x1)). Without sin/cos they are computed for positions 0..S-1 with
    frequencies rotary_emb_base ** (-2 * (i // 2) / D) (the adjacent-pairs style only).

    Args:
        q: [B, S, H, D] ([S, B, H, D] with time_major), D even.
        k, v: Tensors of the same layout (their own head counts), or None.
        sin, cos: [S', D] or [1, S', 1, D] tables (S' >= S; rows picked by position_ids), or None.
        position_ids: int [B, S] positions into sin/cos, or None (0..S-1).
        use_neox_rotary_style: True rotates adjacent pairs, False the two halves.
        time_major: the sequence axis comes first.
        rotary_emb_base: the frequency base when sin/cos are computed.

    Returns:
        (out_q, out_k, out_v), each of its input's shape and dtype, None where the input is None.

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import fused_rotary_position_embedding as rope
        >>> q = padax.to_tensor([[[[1.0, 0.0]], [[1.0, 0.0]]]])       # [B=1, S=2, H=1, D=2]
        >>> out, _, _ = rope(q)                                       # position 1 rotates by 1 radian
        >>> out[0, :, 0].tolist()
        [[1.0, 0.0], [0.5403, 0.8415]]
    """
    op = "fused_rotary_position_embedding"
    q = arg(op, q, "q")
    xs = [q] + [None if t is None else arg(op, t, n) for t, n in ((k, "k"), (v, "v"))]
    for t in xs:
        if t is None:
            continue
        if t.aval.ndim != 4 or t.aval.shape[-1] % 2 or not dtypes.is_floating(t.aval.dtype):
            raise op_type_error(op, f"q, k and v must be floating 4-D Tensors with an even head_dim, got "
                                    f"{t.aval.str_short()}")
        if t.aval.shape[:2] != q.aval.shape[:2] or t.aval.shape[-1] != q.aval.shape[-1]:
            raise op_value_error(op, f"k and v must match q {q.aval.str_short()} in batch, seq and head_dim, got "
                                     f"{t.aval.str_short()}")
    seq = q.aval.shape[0] if time_major else q.aval.shape[1]
    d = q.aval.shape[-1]
    ct = dtypes.float64 if q.aval.dtype == dtypes.float64 else dtypes.float32
    if sin is None or cos is None:
        if position_ids is not None or not use_neox_rotary_style:
            raise op_value_error(op, "without sin and cos, position_ids and use_neox_rotary_style=False are not "
                                     "supported (as Paddle)")
        i = arange(d, dtype=ct)
        freq = M.pow(asarray(float(rotary_emb_base), ct), M.divide(M.multiply(M.floor(M.divide(i, 2.0)), -2.0), d))
        ang = M.multiply(reshape(arange(seq, dtype=ct), [seq, 1]), reshape(freq, [1, d]))
        sin_t, cos_t = M.sin(ang), M.cos(ang)
        shape = [seq, 1, 1, d] if time_major else [1, seq, 1, d]
        sin_t, cos_t = reshape(sin_t, shape), reshape(cos_t, shape)
    else:
        sin_t = M.cast(_table(op, sin, "sin", seq, d, position_ids, time_major), ct)
        cos_t = M.cast(_table(op, cos, "cos", seq, d, position_ids, time_major), ct)
    outs = tuple(None if t is None else M.cast(_rotate(M.cast(t, ct), sin_t, cos_t, use_neox_rotary_style),
                                               t.aval.dtype) for t in xs)
    return outs
