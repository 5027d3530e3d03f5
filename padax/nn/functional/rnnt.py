"""RNN-Transducer loss, padax-native: the forward (alpha) lattice recursion in log space.

Over the [T, U + 1] lattice of example b, alpha[t, u] = logaddexp(alpha[t - 1, u] + blank[t - 1, u],
alpha[t, u - 1] + emit[t, u - 1]), and the loss is -(alpha[T_b - 1, U_b] + blank[T_b - 1, U_b]).
Each time step is one `scan` step; along u the recursion is linear in the log semiring, so it
is a log-cumsum-exp of the blank-path terms after removing the running sum of emissions.
Reverse mode differentiates through the scan. `input` holds log-probabilities, used as given
(no log_softmax, as Paddle's CPU warprnnt: apply log_softmax to joint-network logits first), and
FastEmit (fastemit_lambda) scales the gradient of every label emission by 1 + lambda while
leaving the value unchanged.
"""
from __future__ import annotations

from typing import Any

from padax import dtypes, stop_gradient
from padax.core.errors import op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._arrays import broadcast_to
from padax.functional._checks import arg
from padax.functional.creation import full
from padax.functional.indexed import take_along
from padax.functional.lax.control import scan
from padax.functional.manipulation import concat, moveaxis, unsqueeze
from padax.nn.functional._util import reduction_of


def _row(prev_blank_path: Any, emit: Any) -> Any:
    """alpha[t, :] from a[u] = alpha[t - 1, u] + blank[t - 1, u] and emit [B, U] (u -> u + 1)."""
    b = emit.aval.shape[0]
    run = R.cumsum(concat([full([b, 1], 0.0, emit.aval.dtype), emit], axis=1), axis=1)   # [B, U + 1]
    return M.add(run, R.logcumsumexp(M.subtract(prev_blank_path, run), axis=1))


def rnnt_loss(input: Any, label: Any, input_lengths: Any, label_lengths: Any, blank: int = 0,
              fastemit_lambda: float = 0.001, reduction: str = "mean", name: str | None = None) -> Any:
    """Transducer loss of log-probabilities input [B, T, U + 1, V] against padded labels [B, U];
    'mean' is the summed loss over the batch size, 'none' keeps one loss per example.

    Args:
        input: float log-probabilities [B, T, U + 1, V].
        label: int labels [B, U], padded.
        input_lengths, label_lengths: int [B], the true T and U of each example.
        blank: the index of the blank symbol.
        fastemit_lambda: FastEmit: scales the gradient of each label emission by 1 + lambda (the value is unchanged).
        reduction: 'mean' (summed loss / B), 'sum' or 'none'.

    Returns:
        A scalar Tensor, or the losses [B] for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> logp = padax.log(padax.full([1, 1, 2, 2], 0.5))  # [B=1, T=1, U+1=2, V=2] log-probabilities
        >>> one = padax.to_tensor([1], dtype="int32")
        >>> F.rnnt_loss(logp, one.reshape([1, 1]), input_lengths=one, label_lengths=one).item()
        1.3863
    """
    op = "rnnt_loss"
    reduction_of(op, reduction)
    x = arg(op, input, "input")
    lab, il, ll = arg(op, label, "label"), arg(op, input_lengths, "input_lengths"), arg(op, label_lengths,
                                                                                          "label_lengths")
    if x.aval.ndim != 4 or lab.aval.ndim != 2 or lab.aval.shape[0] != x.aval.shape[0] \
            or x.aval.shape[2] != lab.aval.shape[1] + 1:
        raise op_value_error(op, f"input must be [B, T, U + 1, V] for labels [B, U], got {x.aval.str_short()} and "
                                 f"{lab.aval.str_short()}")
    bsz, t_max, u1, v = x.aval.shape
    if il.aval.shape != (bsz,) or ll.aval.shape != (bsz,):
        raise op_value_error(op, f"input_lengths {il.aval.str_short()} and label_lengths {ll.aval.str_short()} "
                                 f"must have one entry per batch element ({bsz})")
    if not dtypes.is_floating(x.aval.dtype) or not dtypes.is_integer(lab.aval.dtype):
        raise op_value_error(op, f"input must be floating and label integer, got {x.aval.str_short()} and "
                                 f"{lab.aval.str_short()}")
    if not 0 <= blank < v:
        raise op_value_error(op, f"blank={blank} must be a vocabulary index below {v}")
    dt = x.aval.dtype
    compute = dtypes.float32 if dt in (dtypes.float16, dtypes.bfloat16) else dt
    logp = M.cast(x, compute)
    blank_lp = logp[..., blank]                                                         # [B, T, U + 1]
    targets = M.cast(lab, dtypes.int32)
    emit = take_along(logp[:, :, :u1 - 1, :], broadcast_to(targets[:, None, :, None], (bsz, t_max, u1 - 1, 1)),
                      3)[..., 0]                                                        # [B, T, U]
    if fastemit_lambda:  # same value, the emission gradient scaled by 1 + lambda
        emit = M.subtract(M.multiply(emit, 1.0 + fastemit_lambda), M.multiply(stop_gradient(emit), fastemit_lambda))
    first = full([bsz, u1], -1e30, compute)  # log(0) that keeps every gradient finite
    first = concat([full([bsz, 1], 0.0, compute), first[:, 1:]], axis=1)
    alpha0 = _row(first, emit[:, 0])

    def step(alpha, inputs):
        e, bl = inputs
        new = _row(M.add(alpha, bl), e)
        return new, new

    if t_max > 1:
        _, rest = scan(step, alpha0, (moveaxis(emit[:, 1:], 1, 0), moveaxis(blank_lp[:, :-1], 1, 0)))
        alphas = concat([unsqueeze(alpha0, 1), moveaxis(rest, 0, 1)], axis=1)           # [B, T, U + 1]
    else:
        alphas = unsqueeze(alpha0, 1)
    t_last = M.cast(M.subtract(il, 1), dtypes.int32)
    u_last = M.cast(ll, dtypes.int32)
    total = M.add(alphas, blank_lp)
    at_t = take_along(total, broadcast_to(t_last[:, None, None], (bsz, 1, u1)), 1)[:, 0]  # [B, U + 1]
    loss = M.neg(take_along(at_t, u_last[:, None], 1)[:, 0])
    if reduction == "mean":
        loss = M.divide(R.sum(loss), float(bsz))
    elif reduction == "sum":
        loss = R.sum(loss)
    return M.cast(loss, dt)
