"""Sequence and video helpers with Paddle's signatures: sequence_mask, temporal_shift, diag_embed,
and the N-pair metric-learning loss."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import EvalTrace as _EvalTrace, trace_state as _trace_state
from padax.functional import math as M, reduction as R
from padax.functional._arrays import asarray, broadcast_to
from padax.functional._checks import arg
from padax.functional.creation import diag_embed  # noqa: F401  (also public here, as in Paddle)
from padax.functional.indexed import take_along
from padax.functional.lax.control import scan
from padax.functional.lax.structural import broadcasted_iota
from padax.functional.linalg_basic import matmul
from padax.functional.manipulation import concat, pad, reshape, transpose, unsqueeze
from padax.nn.functional._util import float_array
from padax.nn.functional.loss import cross_entropy


def sequence_mask(x: Any, maxlen: int | None = None, dtype: Any = "int64", name: str | None = None) -> Any:
    """mask[..., j] = j < x[...] over a new last axis of size maxlen (max(x) when None: eager only).

    Args:
        x: integer lengths of any shape.
        maxlen: the mask length (None: max(x), eager only).
        dtype: the mask's dtype.

    Returns:
        A Tensor x.shape + [maxlen] of `dtype`.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.sequence_mask(padax.to_tensor([1, 3]), maxlen=4).tolist()
        [[1, 0, 0, 0], [1, 1, 1, 0]]
        >>> F.sequence_mask(padax.to_tensor([2]), dtype="bool").tolist()
        [[True, True]]
    """
    op = "sequence_mask"
    x = arg(op, x, "x")
    if not dtypes.is_integer(x.aval.dtype):
        raise op_type_error(op, f"x (the lengths) must be integers, got {x.aval.str_short()}")
    if maxlen is None:
        if type(_trace_state.trace) is not _EvalTrace:
            raise op_value_error(op, "maxlen=None reads max(x) from the values, which is unknown while tracing; "
                                     "pass maxlen")
        maxlen = int(R.max(x)) if x.aval.size else 0
    shape = tuple(x.aval.shape) + (int(maxlen),)
    steps = broadcasted_iota(x.aval.dtype, shape, len(shape) - 1)
    return M.cast(M.less_than(steps, unsqueeze(x, -1)), dtypes.canonicalize_dtype(dtypes.to_dtype(dtype)))


def temporal_shift(x: Any, seg_num: int, shift_ratio: float = 0.25, name: str | None = None,
                   data_format: str = "NCHW") -> Any:
    """Temporal Shift Module on x [N*T, C, H, W] (or NHWC): the first C*ratio channels take the previous
    frame's values, the next C*ratio the next frame's (zeros past the ends), the rest stay.

    Args:
        x: [N*T, C, H, W] (or NHWC), T = seg_num frames per clip.
        seg_num: the number of frames T.
        shift_ratio: the fraction of channels shifted each way.
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(1, 9, dtype="float32").reshape([2, 4, 1, 1])  # seg_num=2 frames of 4 channels
        >>> F.temporal_shift(x, seg_num=2, shift_ratio=0.25).reshape([2, 4]).tolist()
        [[0.0, 6.0, 3.0, 4.0], [1.0, 0.0, 7.0, 8.0]]
    """
    op = "temporal_shift"
    x = arg(op, x, "x")
    if x.aval.ndim != 4 or data_format not in ("NCHW", "NHWC"):
        raise op_value_error(op, f"x must be 4-D NCHW or NHWC, got {x.aval.str_short()} with {data_format!r}")
    last = data_format == "NHWC"
    if last:
        x = transpose(x, [0, 3, 1, 2])
    nt, c, h, w = x.aval.shape
    if seg_num < 1 or nt % seg_num:
        raise op_value_error(op, f"seg_num={seg_num} must divide the first axis of x {x.aval.str_short()}")
    c1, c2 = int(c * shift_ratio), int(c * 2 * shift_ratio)
    y = pad(reshape(x, [nt // seg_num, seg_num, c, h, w]), [0, 0, 1, 1, 0, 0, 0, 0, 0, 0])
    t = seg_num
    out = concat([y[:, :t, :c1], y[:, 2:t + 2, c1:c2], y[:, 1:t + 1, c2:]], axis=2)
    out = reshape(out, [nt, c, h, w])
    return transpose(out, [0, 2, 3, 1]) if last else out


def npair_loss(anchor: Any, positive: Any, labels: Any, l2_reg: float = 0.002) -> Any:
    """N-pair loss: softmax cross entropy of anchor @ positive.T against the label-equality
    distribution, plus l2_reg / 4 times the mean squared norms of anchor and positive.

    Args:
        anchor, positive: embeddings [N, D].
        labels: class labels [N] (or [N, 1]).
        l2_reg: the weight of the embedding norm penalty.

    Returns:
        A scalar Tensor.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> a = padax.to_tensor([[1.0, 0.0], [0.0, 1.0]])
        >>> F.npair_loss(a, a, padax.to_tensor([0, 1]), l2_reg=0.0).item()
        0.3133
    """
    op = "npair_loss"
    a, p = float_array(op, anchor, "anchor"), float_array(op, positive, "positive")
    y = reshape(arg(op, labels, "labels"), [-1])
    same = M.cast(M.equal(unsqueeze(y, 1), unsqueeze(y, 0)), a.aval.dtype)
    target = M.divide(same, R.sum(same, axis=1, keepdim=True))
    l2 = M.add(R.mean(R.sum(M.square(a), axis=1)), R.mean(R.sum(M.square(p), axis=1)))
    ce = cross_entropy(matmul(a, p, transpose_y=True), target, soft_label=True, reduction="none")
    return M.add(M.multiply(l2, 0.25 * l2_reg), R.mean(R.sum(M.multiply(target, ce), axis=0)))


def gather_tree(ids: Any, parents: Any) -> Any:
    """Full beam-search sequences [T, B, beam] from each step's token ids and parent beam indices:
    backtracks from the last step, at step t taking ids[t] at the parent chosen at step t + 1.

    Args:
        ids: int token ids [T, B, beam].
        parents: int parent beam indices [T, B, beam].

    Returns:
        The full sequences [T, B, beam], ids' dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> ids = padax.to_tensor([[[2, 5]], [[7, 9]]])  # [T=2, B=1, beam=2]
        >>> parents = padax.to_tensor([[[0, 0]], [[1, 0]]])
        >>> F.gather_tree(ids, parents).tolist()
        [[[5, 2]], [[7, 9]]]
    """
    ids, parents = arg("gather_tree", ids, "ids"), arg("gather_tree", parents, "parents")
    if ids.aval.ndim != 3 or parents.aval.shape != ids.aval.shape:
        raise op_value_error("gather_tree", f"ids and parents must be [T, B, beam] of one shape, got "
                                            f"{ids.aval.str_short()} and {parents.aval.str_short()}")
    beam = ids.aval.shape[2]
    start = broadcast_to(asarray(np.arange(beam, dtype=np.int64)), ids.aval.shape[1:])

    def back(parent, step):
        step_ids, step_parents = step
        return take_along(step_parents, parent, 1), take_along(step_ids, parent, 1)

    _, out = scan(back, M.cast(start, parents.aval.dtype), (ids, parents), reverse=True)
    return out
