"""Matrix NMS (SOLOv2): instead of dropping overlapping boxes, decay every box's score by its
overlaps with higher-scoring boxes of its class, all at once from the IoU matrix."""
from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

import padax
from padax.core.errors import op_value_error
from padax.vision.ops._boxes import _JIT_HINT, _descending, iou_matrix
from padax.vision.ops._common import float_tensor, host


@partial(padax.jit, static_argnames=("top_k", "score_threshold", "post_threshold", "use_gaussian", "sigma",
                                     "offset"))
def _decayed_scores(boxes: Any, scores: Any, *, top_k, score_threshold, post_threshold, use_gaussian, sigma,
                    offset) -> tuple[Any, Any, Any]:
    """For one image, per class: (box order [C, K], decayed scores [C, K], kept [C, K]) over the
    top_k best boxes above score_threshold."""
    order = _descending(scores)[:, :top_k]  # [C, K]
    s = padax.take_along_axis(scores, order, axis=1)
    b = padax.gather(boxes, order.reshape([-1])).reshape([scores.shape[0], top_k, 4])
    iou = padax.stack([iou_matrix(b[c], b[c], offset) for c in range(scores.shape[0])])  # [C, K, K]
    earlier = padax.arange(top_k)[None, :] < padax.arange(top_k)[:, None]  # [i, j]: j ranks above i
    iou = padax.where(earlier[None], iou, padax.zeros_like(iou))
    iou_max = iou.max(axis=2)  # each box's largest overlap with a better box
    if use_gaussian:
        decay = padax.exp((iou_max[:, None, :] ** 2 - iou ** 2) * sigma)
    else:
        decay = (1.0 - iou) / (1.0 - iou_max[:, None, :])
    decay = padax.where(earlier[None], decay, padax.ones_like(decay)).min(axis=2)
    decayed = s * decay
    kept = (s > score_threshold) & (decayed > post_threshold)
    return order, decayed, kept


def matrix_nms(bboxes: Any, scores: Any, score_threshold: float, post_threshold: float, nms_top_k: int,
               keep_top_k: int, use_gaussian: bool = False, gaussian_sigma: float = 2.0, background_label: int = 0,
               normalized: bool = True, return_index: bool = False, return_rois_num: bool = True,
               name: str | None = None):
    """Matrix NMS over bboxes [N, M, 4] and class scores [N, C, M].

    Per image and class (skipping background_label) the nms_top_k best boxes above
    score_threshold get their scores decayed by their overlaps with better boxes (linear, or
    Gaussian with gaussian_sigma); those still above post_threshold are kept, the keep_top_k best
    per image. Returns (out [R, 6] rows of (label, score, x1, y1, x2, y2), rois_num [N] int32 or
    None, index [R, 1] int32 of the boxes in bboxes flattened to [N*M], or None)."""
    op = "matrix_nms"
    boxes = float_tensor(op, bboxes, "bboxes", ndim=3, last=4)
    scores = float_tensor(op, scores, "scores", ndim=3).astype(boxes.dtype)
    n, m = boxes.shape[0], boxes.shape[1]
    if scores.shape[0] != n or scores.shape[2] != m:
        raise op_value_error(op, f"scores must be [N, C, M] = [{n}, C, {m}] for bboxes {list(boxes.shape)}, "
                                 f"got {list(scores.shape)}")
    top_k = m if nms_top_k < 0 else min(m, int(nms_top_k))
    classes = [c for c in range(scores.shape[1]) if c != background_label]
    rows, index, nums = [], [], []
    for i in range(n):
        found = []
        if classes and top_k > 0:
            cls_scores = scores[i][np.asarray(classes)] if len(classes) < scores.shape[1] else scores[i]
            order, decayed, kept = (host(op, t, "the kept boxes", _JIT_HINT) for t in _decayed_scores(
                boxes[i], cls_scores, top_k=top_k, score_threshold=float(score_threshold),
                post_threshold=float(post_threshold), use_gaussian=bool(use_gaussian), sigma=float(gaussian_sigma),
                offset=0.0 if normalized else 1.0))
            for k, c in enumerate(classes):
                found += [(float(decayed[k, r]), c, int(order[k, r])) for r in np.flatnonzero(kept[k])]
        ranking = sorted(range(len(found)), key=lambda t: -found[t][0])  # stable: ties keep class order
        if keep_top_k > -1:
            ranking = ranking[:keep_top_k]
        b = host(op, boxes[i], "bboxes", _JIT_HINT)
        for t in ranking:
            score, c, idx = found[t]
            rows.append([c, score, *b[idx]])
            index.append(i * m + idx)
        nums.append(len(ranking))
    out = padax.to_tensor(np.asarray(rows, np.dtype(str(boxes.dtype))).reshape(-1, 6))
    return (out, padax.to_tensor(np.asarray(nums, np.int32)) if return_rois_num else None,
            padax.to_tensor(np.asarray(index, np.int32).reshape(-1, 1)) if return_index else None)
