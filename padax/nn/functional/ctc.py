"""CTC loss, padax-native: the forward (alpha) recursion in log space as a `scan` over time.

Reverse mode differentiates through the scan (the backward recursion comes from autodiff), so
the loss has gradients of any order and vmaps. As Paddle's warpctc, `log_probs` are normalised
with a log_softmax over classes first (a no-op for log-probabilities), and norm_by_times scales
the gradient (not the value) by 1 / input length.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes, stop_gradient
from padax.core.errors import op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._arrays import asarray, broadcast_to
from padax.functional._checks import arg
from padax.functional.creation import full
from padax.functional.indexed import take_along
from padax.functional.lax.control import scan
from padax.functional.manipulation import concat, reshape, stack, unsqueeze
from padax.nn.functional._util import reduction_of
from padax.nn.functional.activation import log_softmax

# a stand-in for log(0) that keeps every gradient finite (exp underflows to exactly 0)
_LOG_ZERO = -1e30


def _logsumexp3(a: Any, b: Any, c: Any) -> Any:
    m = stop_gradient(M.maximum(M.maximum(a, b), c))
    return M.add(m, M.log(M.add(M.add(M.exp(M.subtract(a, m)), M.exp(M.subtract(b, m))), M.exp(M.subtract(c, m)))))


def _shift(x: Any, k: int) -> Any:
    """x moved k places along the last axis, log(0) filled in."""
    pad = full(list(x.aval.shape[:-1]) + [k], _LOG_ZERO, x.aval.dtype)
    return concat([pad, x[..., :x.aval.shape[-1] - k]], axis=-1)


def ctc_loss(log_probs: Any, labels: Any, input_lengths: Any, label_lengths: Any, blank: int = 0,
             reduction: str = "mean", norm_by_times: bool = False, zero_infinity: bool = False) -> Any:
    """Connectionist temporal classification loss of log_probs [T, B, C] against padded labels
    [B, L]; 'mean' averages loss / label length over the batch. Labels needing more frames than the
    input has give 0 (as Paddle's warpctc); another impossible alignment gives inf (0 with
    zero_infinity).

    Args:
        log_probs: [T, B, C] log-probabilities (logits are log_softmax-ed first: a no-op for log-probabilities).
        labels: [B, L] int class ids, padded; input_lengths [B] and label_lengths [B] give the true lengths.
        blank: the class id of the blank.
        norm_by_times: divide each example's gradient by its number of frames (the loss value is unchanged).

    Returns:
        A scalar, or the [B] losses for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> log_probs = padax.log(padax.full([2, 1, 2], 0.5))  # [T=2, B=1, C=2], class 0 is the blank
        >>> F.ctc_loss(log_probs, padax.to_tensor([[1]]), padax.to_tensor([2]), padax.to_tensor([1])).item()
        0.2877
    """
    op = "ctc_loss"
    reduction_of(op, reduction)
    x = arg(op, log_probs, "log_probs")
    lab = arg(op, labels, "labels")
    il = arg(op, input_lengths, "input_lengths")
    ll = arg(op, label_lengths, "label_lengths")
    if x.aval.ndim != 3 or lab.aval.ndim != 2 or lab.aval.shape[0] != x.aval.shape[1]:
        raise op_value_error(op, f"log_probs must be [T, B, C] and labels [B, L], got {x.aval.str_short()} and "
                                 f"{lab.aval.str_short()}")
    t_max, b, c = x.aval.shape
    if il.aval.shape != (b,) or ll.aval.shape != (b,):
        raise op_value_error(op, f"input_lengths {il.aval.str_short()} and label_lengths {ll.aval.str_short()} "
                                 f"must have one entry per batch element ({b})")
    if not 0 <= blank < c:
        raise op_value_error(op, f"blank={blank} must be a class index below {c}")
    dt = x.aval.dtype if dtypes.is_floating(x.aval.dtype) else dtypes.default_float_dtype()
    compute = dtypes.float32 if dt in (dtypes.float16, dtypes.bfloat16) else dt
    logp = log_softmax(M.cast(x, compute), axis=-1)
    n_lab = lab.aval.shape[1]
    s = 2 * n_lab + 1
    # extended labels: blank, l1, blank, l2, ..., blank
    lab = M.cast(lab, dtypes.int32)
    blanks = full([b, n_lab], blank, dtypes.int32)
    ext = concat([reshape(stack([blanks, lab], axis=2), [b, 2 * n_lab]), full([b, 1], blank, dtypes.int32)], axis=1)
    prev2 = concat([full([b, 2], blank, dtypes.int32), ext[:, :s - 2]], axis=1)
    skip = M.logical_and(M.not_equal(ext, blank), M.not_equal(ext, prev2))          # [B, S]
    emit = take_along(logp, broadcast_to(unsqueeze(ext, 0), (t_max, b, s)), 2)        # [T, B, S]
    first = asarray(np.arange(s) < 2)
    alpha0 = M.where(first, emit[0], _LOG_ZERO)
    steps = asarray(np.arange(1, t_max, dtype=np.int32))
    lengths = M.cast(il, dtypes.int32)

    def step(alpha, inputs):
        e, t = inputs
        from_skip = M.where(skip, _shift(alpha, 2), _LOG_ZERO)
        new = M.add(_logsumexp3(alpha, _shift(alpha, 1), from_skip), e)
        return M.where(unsqueeze(M.less_than(t, lengths), 1), new, alpha), None

    alpha, _ = scan(step, alpha0, (emit[1:], steps)) if t_max > 1 else (alpha0, None)
    end = M.cast(M.multiply(ll, 2), dtypes.int32)                                     # index of the last blank
    last = take_along(alpha, unsqueeze(end, 1), 1)[:, 0]
    before = take_along(alpha, unsqueeze(M.maximum(M.subtract(end, 1), 0), 1), 1)[:, 0]
    before = M.where(M.greater_than(end, 0), before, _LOG_ZERO)
    total = _logsumexp3(last, before, full([b], _LOG_ZERO, compute))
    loss = M.neg(total)
    impossible = M.less_than(total, _LOG_ZERO / 2)
    if norm_by_times:
        kept = stop_gradient(loss)
        loss = M.add(kept, M.divide(M.subtract(loss, kept), M.cast(lengths, compute)))
    loss = M.where(impossible, 0.0 if zero_infinity else float("inf"), loss)
    # as Paddle's warpctc, labels that need more frames than the input has (each repeat needs a
    # blank between) give 0 and no gradient
    loss = M.where(_too_long(lab, M.cast(ll, dtypes.int32), lengths), 0.0, loss)
    if reduction == "mean":
        loss = R.mean(M.divide(loss, M.cast(ll, compute)))
    elif reduction == "sum":
        loss = R.sum(loss)
    return M.cast(loss, dt)



def _too_long(lab: Any, ll: Any, lengths: Any) -> Any:
    """Per example: label length plus its adjacent repeats (each needs a blank between) exceeds
    the input length."""
    n_lab = lab.aval.shape[1]
    if n_lab < 2:
        return M.greater_than(ll, lengths)
    pairs = M.logical_and(M.equal(lab[:, 1:], lab[:, :-1]),
                          M.less_than(asarray(np.arange(1, n_lab, dtype=np.int32)), unsqueeze(ll, 1)))
    repeats = R.sum(M.cast(pairs, dtypes.int32), axis=1)
    return M.greater_than(M.add(ll, repeats), lengths)
