"""Embedding lookup with Paddle's signature (rows of `weight` picked by integer ids)."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import custom_jvp, dtypes, stop_gradient
from padax.core.errors import op_type_error, op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._arrays import Tensor, asarray, static_int
from padax.functional.creation import zeros, zeros_like
from padax.functional.indexed import gather
from padax.functional.lax.checks import value_check
from padax.functional.manipulation import reshape, unsqueeze


@custom_jvp
def _scale_grad(v: Any, scale: Any) -> Any:
    """v itself; its gradient is multiplied by `scale` (no gradient reaches scale)."""
    return v


@_scale_grad.defjvp
def _scale_grad_jvp(primals, tangents):
    v, scale = primals
    return v, M.multiply(tangents[0], scale)


def _check_ids(flat: Any, num: int) -> None:
    """Ids must lie in [0, num): eagerly a ValueError (as Paddle, which reads no row from the end for a
    negative id); traced, a check that checkify's index_checks evaluate."""
    if not flat.aval.size:
        return
    if isinstance(flat, Tensor):
        vals = np.asarray(flat)
        bad = (vals < 0) | (vals >= num)
        if bad.any():
            i = int(np.argmax(bad))
            raise op_value_error("embedding", f"id {int(vals[i])} at flat index {i} is out of range: ids must be in "
                                              f"[0, {num}) for a weight of {num} rows; {int(bad.sum())} of "
                                              f"{vals.size} ids are out of range")
        return
    bad = M.logical_or(M.less(flat, 0), M.greater_equal(flat, num))
    first = R.argmax(M.cast(bad, dtypes.int32))
    value_check(M.logical_not(R.any(bad)), f"embedding: id {{}} at flat index {{}} is out of range: ids must be in "
                                           f"[0, {num})", flat[first], first)


def embedding(x: Any, weight: Any, padding_idx: int | None = None, max_norm: float | None = None,
              norm_type: float = 2.0, sparse: bool = False, scale_grad_by_freq: bool = False,
              name: str | None = None) -> Any:
    """weight[x] for integer ids x: output shape x.shape + [embedding_dim].

    Positions whose id equals padding_idx give zeros (and so no gradient reaches that row).
    An id outside [0, num_embeddings) raises eagerly (a ValueError, as Paddle); under jit the
    values are unknown while tracing, the lookup clamps to the nearest row, and
    `padax.checkify.checkify(f, errors=checkify.index_checks)` reports the id.
    max_norm: looked-up rows whose norm_type-norm exceeds it are rescaled to it; as in Paddle (which
    renormalises the weight in place, then looks up) the rows' gradient is that of a plain lookup.
    The gradient is dense.

    Args:
        x: integer ids of any shape.
        weight: the table [num_embeddings, embedding_dim].
        padding_idx: an id whose positions give zeros (None: none).
        max_norm: rescale looked-up rows whose norm exceeds it (None: no limit).
        norm_type: the p of that norm.
        sparse: accepted for Paddle compatibility (the gradient is dense).
        scale_grad_by_freq: divide each row's gradient by how often its id occurs in x.

    Returns:
        A Tensor x.shape + [embedding_dim] of weight's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> table = padax.to_tensor([[0.0, 0.0], [1.0, 2.0], [3.0, 4.0]])
        >>> F.embedding(padax.to_tensor([[2, 1]]), table).tolist()
        [[[3.0, 4.0], [1.0, 2.0]]]
        >>> F.embedding(padax.to_tensor([1, 2]), table, padding_idx=2).tolist()
        [[1.0, 2.0], [0.0, 0.0]]
        >>> F.embedding(padax.to_tensor([2]), table, max_norm=1.0).tolist()
        [[0.6, 0.8]]
    """
    x, weight = asarray(x), asarray(weight)
    if not dtypes.is_integer(x.aval.dtype):
        raise op_type_error("embedding", f"ids must be integers, got {x.aval.str_short()}")
    if weight.aval.ndim != 2:
        raise op_value_error("embedding", f"weight must be 2-D [num_embeddings, embedding_dim], got "
                             f"{weight.aval.str_short()}")
    num = weight.aval.shape[0]
    if padding_idx is not None:
        padding_idx = static_int("embedding", padding_idx, "padding_idx")
        if not -num <= padding_idx < num:
            raise op_value_error("embedding", f"padding_idx must be in [-{num}, {num}), got {padding_idx}")
        padding_idx = padding_idx + num if padding_idx < 0 else padding_idx
    flat = reshape(x, [-1])
    _check_ids(flat, num)
    # traced ids are clamped here (the rule above); concrete ones were checked by _check_ids
    rows = gather(weight, flat if isinstance(flat, Tensor) or not flat.aval.size else M.clip(flat, 0, num - 1), axis=0)
    if max_norm is not None:
        norms = R.sum(M.abs(rows) ** norm_type, axis=1, keepdim=True) ** (1.0 / norm_type)
        scale = stop_gradient(M.where(M.greater_than(norms, max_norm), max_norm / (norms + 1e-7), 1.0))
        rows = _scale_grad(M.multiply(rows, M.cast(scale, rows.aval.dtype)), M.reciprocal(scale))
    if scale_grad_by_freq:
        counts = zeros([num], rows.aval.dtype).at[flat].add(1)
        rows = _scale_grad(rows, unsqueeze(M.reciprocal(gather(counts, flat, axis=0)), -1))
    out = reshape(rows, list(x.aval.shape) + [weight.aval.shape[1]])
    if padding_idx is not None:
        keep = unsqueeze(M.not_equal(x, padding_idx), -1)
        out = M.where(keep, out, zeros_like(out))
    return out
