"""Class-hierarchy losses: hierarchical sigmoid and adaptive log-softmax.

Hierarchical sigmoid: each class is a leaf of a binary tree, each inner node a logistic classifier.

Default tree (Paddle's bit code): class c has code n = c + num_classes; the path has
floor(log2 n) nodes, node j being weight row (n >> (j + 1)) - 1 with target bit (n >> j) & 1.
A custom tree gives the node rows (path_table, ended by the first negative entry) and target bits
(path_code) per example. As in Paddle's kernel, the node score is clipped to [-40, 40] (the clip
passes the gradient through unchanged), and every padded path position past an example's length
has score 0 and still adds softplus(0) = log 2 to its loss.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes, stop_gradient
from padax.core.errors import op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._arrays import Tensor, asarray
from padax.functional._checks import arg
from padax.functional.indexed import take_along, take_axis
from padax.functional.linalg_basic import matmul
from padax.functional.manipulation import reshape, unsqueeze
from padax.nn.functional.activation import log_softmax, softplus

_CLIP = 40.0


def _default_paths(label: Any, num_classes: int) -> tuple[Any, Any, Any]:
    """Node rows, target bits and validity [N, L] of Paddle's default complete-binary-tree code."""
    length = int(num_classes - 1).bit_length()  # the longest path of any class
    code = M.add(M.cast(label, dtypes.int64), num_classes)                     # [N, 1]
    shifts = asarray(np.arange(length + 1, dtype=np.int64))
    shifted = M.floor_divide(code, M.pow(asarray(np.int64(2)), shifts))       # n >> j for j = 0..L
    bits = M.remainder(shifted[:, :length], 2)
    parents = shifted[:, 1:]
    return M.subtract(parents, 1), bits, M.greater_than(parents, 0)


def _custom_paths(op: str, path_table: Any, path_code: Any, n: int) -> tuple[Any, Any, Any]:
    table, code = arg(op, path_table, "path_table"), arg(op, path_code, "path_code")
    if table.aval.ndim != 2 or table.aval.shape[0] != n or code.aval.shape != table.aval.shape:
        raise op_value_error(op, f"path_table {table.aval.str_short()} and path_code {code.aval.str_short()} must "
                                 f"both be [N, L] with N = {n}")
    valid = R.cumprod(M.cast(M.greater_equal(table, 0), dtypes.int32), dim=1)  # the path ends at the first -1
    return table, code, M.cast(valid, dtypes.bool_)


def hsigmoid_loss(input: Any, label: Any, num_classes: int, weight: Any, bias: Any = None, path_table: Any = None,
                  path_code: Any = None, is_sparse: bool = False, name: str | None = None) -> Any:
    """Hierarchical sigmoid loss [N, 1] of features input [N, D] for labels [N] or [N, 1]: the summed
    logistic losses of the inner nodes on each class's path (weight [nodes, D], bias [nodes, 1]).
    Without path_table/path_code the tree is Paddle's default over num_classes leaves.
    is_sparse (a sparse-gradient storage hint in Paddle) changes nothing here.

    Args:
        input: features [N, D].
        label: int classes [N] or [N, 1].
        num_classes: the number of classes (leaves) of the default tree.
        weight: node weights [nodes, D]; bias: node biases [nodes, 1] or None.
        path_table, path_code: a custom tree: int node rows and 0/1 target bits per example [N, L] (ended by
            the first negative table entry); None uses the default tree.
        is_sparse: accepted for Paddle compatibility.

    Returns:
        The losses [N, 1].

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.ones([2, 3])
        >>> w = padax.zeros([3, 3])  # the default tree over 4 classes has 3 inner nodes
        >>> F.hsigmoid_loss(x, padax.to_tensor([0, 3]), num_classes=4, weight=w).tolist()
        [[1.3863], [1.3863]]
    """
    op = "hsigmoid_loss"
    if num_classes < 2:
        raise op_value_error(op, f"num_classes must be at least 2, got {num_classes}")
    x, w = arg(op, input, "input"), arg(op, weight, "weight")
    lab = arg(op, label, "label")
    if x.aval.ndim != 2 or w.aval.ndim != 2 or w.aval.shape[1] != x.aval.shape[1]:
        raise op_value_error(op, f"input must be [N, D] and weight [nodes, D], got {x.aval.str_short()} and "
                                 f"{w.aval.str_short()}")
    if not dtypes.is_floating(x.aval.dtype) or not dtypes.is_integer(lab.aval.dtype):
        raise op_value_error(op, f"input must be floating and label integer, got {x.aval.str_short()} and "
                                 f"{lab.aval.str_short()}")
    n = x.aval.shape[0]
    lab = reshape(lab, [n, 1]) if lab.aval.size == n else None
    if lab is None:
        raise op_value_error(op, f"label must hold one class per row of input ({n}), got "
                                 f"{arg(op, label, 'label').aval.str_short()}")
    if (path_table is None) != (path_code is None):
        raise op_value_error(op, "path_table and path_code must be given together (a custom tree) or both omitted")
    if path_table is None:
        nodes, bits, valid = _default_paths(lab, num_classes)
    else:
        nodes, bits, valid = _custom_paths(op, path_table, path_code, n)
    rows = M.where(valid, nodes, 0)
    length = rows.aval.shape[1]
    picked = reshape(take_axis(w, reshape(rows, [-1]), 0), [n, length, w.aval.shape[1]])   # [N, L, D]
    score = R.sum(M.multiply(picked, unsqueeze(x, 1)), axis=-1)
    if bias is not None:
        b = reshape(arg(op, bias, "bias"), [-1])
        score = M.add(score, reshape(take_axis(b, reshape(rows, [-1]), 0), [n, length]))
    score = M.where(valid, score, 0.0)
    score = M.add(score, stop_gradient(M.subtract(M.clip(score, -_CLIP, _CLIP), score)))
    target = M.cast(M.logical_and(valid, M.not_equal(bits, 0)), score.aval.dtype)
    loss = R.sum(M.subtract(softplus(score), M.multiply(target, score)), axis=1, keepdim=True)
    return loss


def _cutoff_list(op: str, cutoffs: Any) -> list[int]:
    cuts = [int(c) for c in cutoffs]
    if not cuts or cuts != sorted(set(cuts)) or cuts[0] <= 0:
        raise op_value_error(op, f"cutoffs must be increasing positive ints ending at n_classes, got {list(cuts)}")
    return cuts


def _check_labels(op: str, label: Any, n_classes: int) -> None:
    """Eager only, as Paddle: every label must fall in some cluster (under jit it cannot be seen here)."""
    if isinstance(label, Tensor) and label.aval.size:
        vals = np.asarray(label)
        if (vals < 0).any() or (vals >= n_classes).any():
            raise op_value_error(op, f"label values must be in [0, {n_classes - 1}], got values in "
                                     f"[{int(vals.min())}, {int(vals.max())}]")


def adaptive_log_softmax_with_loss(input: Any, label: Any, head_weight: Any, tail_weights: Any, cutoffs: Any,
                                   head_bias: Any = None, name: str | None = None) -> tuple[Any, Any]:
    """Adaptive softmax (Grave et al.): (log-probability of each label [N], mean negative of it).

    Classes below cutoffs[0] are scored by the head (input @ head_weight [+ head_bias]); cluster k
    (classes cutoffs[k-1] .. cutoffs[k]) adds the head's score of the cluster to a log_softmax of
    input @ tail_weights[k-1][0] @ tail_weights[k-1][1]. cutoffs end with n_classes; input [N, D]
    with label [N], or input [D] with a scalar label.

    Args:
        input: features [N, D] (or [D]).
        label: int classes [N] (or a scalar).
        head_weight: [D, cutoffs[0] + number of clusters]; head_bias: its bias or None.
        tail_weights: per cluster a pair of projections [D, h], [h, cluster size].
        cutoffs: increasing class boundaries, the last being the number of classes.

    Returns:
        (the log-probability of each label [N], the mean negative log-likelihood).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.ones([2, 4])
        >>> head = padax.zeros([4, 3])  # 2 head classes + 1 cluster (classes 2 and 3)
        >>> tail = [[padax.zeros([4, 2]), padax.zeros([2, 2])]]
        >>> logp, loss = F.adaptive_log_softmax_with_loss(x, padax.to_tensor([0, 3]), head, tail, cutoffs=[2, 4])
        >>> logp.tolist(), loss.item()
        ([-1.0986, -1.7918], 1.4452)
    """
    op = "adaptive_log_softmax_with_loss"
    x, lab, hw = arg(op, input, "input"), arg(op, label, "label"), arg(op, head_weight, "head_weight")
    cuts = _cutoff_list(op, cutoffs)
    if lab.aval.ndim > 1 or x.aval.ndim != lab.aval.ndim + 1 or (lab.aval.ndim and x.aval.shape[0] !=
                                                                  lab.aval.shape[0]):
        raise op_value_error(op, f"input must be [N, D] with label [N] (or [D] with a scalar label), got "
                                 f"{x.aval.str_short()} and {lab.aval.str_short()}")
    tails = [list(t) for t in tail_weights]
    if len(tails) == len(cuts) and tails and len(tails[-1]) == 2:  # Paddle's functional form: cutoffs without
        cuts = cuts + [cuts[-1] + arg(op, tails[-1][1], "tail_weights").aval.shape[-1]]  # n_classes
    if len(tails) != len(cuts) - 1 or hw.aval.shape != (x.aval.shape[-1], cuts[0] + len(tails)):
        raise op_value_error(op, f"head_weight {hw.aval.str_short()} must be [D, cutoffs[0] + clusters] with one "
                                 f"(projection, output) pair of tail_weights per cluster after cutoffs {cuts}")
    _check_labels(op, lab, cuts[-1])
    batched = lab.aval.ndim == 1
    x = x if batched else unsqueeze(x, 0)
    lab = M.cast(lab if batched else unsqueeze(lab, 0), dtypes.int64)
    head = matmul(x, hw)
    if head_bias is not None:
        head = M.add(head, arg(op, head_bias, "head_bias"))
    head_lp = log_softmax(head, axis=1)
    out = take_along(head_lp, unsqueeze(M.clip(lab, 0, cuts[0] - 1), 1), 1)[:, 0]
    for k, (proj, w_out) in enumerate(tails, start=1):
        lo, hi = cuts[k - 1], cuts[k]
        cluster_lp = log_softmax(matmul(matmul(x, proj), w_out), axis=1)
        local = take_along(cluster_lp, unsqueeze(M.clip(M.subtract(lab, lo), 0, hi - lo - 1), 1), 1)[:, 0]
        inside = M.logical_and(M.greater_equal(lab, lo), M.less_than(lab, hi))
        out = M.where(inside, M.add(local, head_lp[:, cuts[0] + k - 1]), out)
    loss = R.mean(M.neg(out))
    return (out if batched else out[0]), loss
