"""The YOLOv3 training loss (Paddle's yolo_loss), written with whole-tensor padax ops so that it
jits and differentiates with respect to the head's output x."""
from __future__ import annotations

from functools import partial
from typing import Any, Sequence

import numpy as np

import padax
from padax.core.errors import op_value_error
from padax.vision.ops._common import float_tensor, tensor


def _sce(x: Any, label: Any) -> Any:
    """Sigmoid cross-entropy of logits x against (soft) labels, computed stably."""
    return padax.maximum(x, 0.0) - x * label + padax.log1p(padax.exp(-padax.abs(x)))


def _center_iou(ax, ay, aw, ah, bx, by, bw, bh) -> Any:
    """IoU of boxes given as centre and size (broadcasting)."""
    ow = padax.minimum(ax + aw / 2, bx + bw / 2) - padax.maximum(ax - aw / 2, bx - bw / 2)
    oh = padax.minimum(ay + ah / 2, by + bh / 2) - padax.maximum(ay - ah / 2, by - bh / 2)
    inter = padax.where((ow < 0) | (oh < 0), padax.zeros_like(ow), ow * oh)
    return inter / (aw * ah + bw * bh - inter)


def yolo_loss(x: Any, gt_box: Any, gt_label: Any, anchors: Sequence[int], anchor_mask: Sequence[int], class_num: int,
              ignore_thresh: float, downsample_ratio: int, gt_score: Any = None, use_label_smooth: bool = True,
              name: str | None = None, scale_x_y: float = 1.0) -> Any:
    """YOLOv3 loss per image, [N], of head output x [N, len(anchor_mask) * (5 + class_num), H, W].

    gt_box [N, B, 4] holds (cx, cy, w, h) as fractions of the input image (boxes with w or h
    below 1e-6 are padding), gt_label [N, B] their classes, gt_score [N, B] their weights (default
    1). Each ground truth is matched to its best anchor by shape; if that anchor is in anchor_mask
    the cell holding the box centre learns its position (sigmoid cross-entropy on x, y, L1 on log
    w, h, weighted by 2 - w*h), class (label smoothing optional) and objectness. Predictions whose
    IoU with some ground truth exceeds ignore_thresh are not penalised as background."""
    op = "yolo_loss"
    x = float_tensor(op, x, "x", ndim=4)
    n, c, h, w = x.shape
    mask_num = len(anchor_mask)
    if len(anchors) % 2 or c != mask_num * (5 + class_num):
        raise op_value_error(op, f"x has {c} channels; {mask_num} masked anchors and class_num={class_num} need "
                                 f"{mask_num * (5 + class_num)}")
    gt_box = float_tensor(op, gt_box, "gt_box", ndim=3, last=4).astype(x.dtype)
    gt_label = tensor(op, gt_label, "gt_label", ndim=2)
    b = gt_box.shape[1]
    if list(gt_label.shape) != [n, b]:
        raise op_value_error(op, f"gt_label must be [{n}, {b}] for gt_box {list(gt_box.shape)}, got {list(gt_label.shape)}")
    score = (padax.ones([n, b], dtype=x.dtype) if gt_score is None
             else float_tensor(op, gt_score, "gt_score", ndim=2).astype(x.dtype))
    return _yolo_loss(x, gt_box, gt_label.astype("int32"), score, anchors=tuple(int(a) for a in anchors),
                      mask=tuple(int(m) for m in anchor_mask), class_num=int(class_num),
                      ignore=float(ignore_thresh), ratio=int(downsample_ratio), smooth=bool(use_label_smooth),
                      scale_x_y=float(scale_x_y))


@partial(padax.jit, static_argnames=("anchors", "mask", "class_num", "ignore", "ratio", "smooth", "scale_x_y"))
def _yolo_loss(x, gt, label, score, *, anchors, mask, class_num, ignore, ratio, smooth, scale_x_y):
    n, _, h, w = x.shape
    m, b, k = len(mask), gt.shape[1], class_num
    input_size = float(ratio * h)
    p = x.reshape([n, m, 5 + k, h, w])
    aw_all = np.asarray(anchors[0::2], np.float64) / input_size
    ah_all = np.asarray(anchors[1::2], np.float64) / input_size
    aw = padax.to_tensor(aw_all[list(mask)]).astype(x.dtype).reshape([1, m, 1, 1])
    ah = padax.to_tensor(ah_all[list(mask)]).astype(x.dtype).reshape([1, m, 1, 1])
    # predicted boxes (fractions of the input), only to find the ones to ignore
    bias = -0.5 * (scale_x_y - 1.0)
    col = padax.arange(w, dtype=x.dtype).reshape([1, 1, 1, w])
    row = padax.arange(h, dtype=x.dtype).reshape([1, 1, h, 1])
    px = (col + padax.sigmoid(p[:, :, 0]) * scale_x_y + bias) / h
    py = (row + padax.sigmoid(p[:, :, 1]) * scale_x_y + bias) / h
    pw, ph = padax.exp(p[:, :, 2]) * aw, padax.exp(p[:, :, 3]) * ah
    gx, gy, gw, gh = (gt[:, :, i].reshape([n, 1, 1, 1, b]) for i in range(4))
    valid = (gt[:, :, 2] >= 1e-6) & (gt[:, :, 3] >= 1e-6)  # [N, B]
    iou = _center_iou(px[..., None], py[..., None], pw[..., None], ph[..., None], gx, gy, gw, gh)
    iou = padax.where(valid.reshape([n, 1, 1, 1, b]), iou, padax.zeros_like(iou))
    ignored = padax.stop_gradient(iou.max(axis=-1)) > ignore  # [N, M, H, W]
    # each ground truth's best anchor by shape, and its place in the mask (-1: not predicted here)
    shape_iou = _center_iou(0.0, 0.0, padax.to_tensor(aw_all).astype(x.dtype), padax.to_tensor(ah_all).astype(x.dtype),
                            0.0, 0.0, gt[:, :, 2:3], gt[:, :, 3:4])  # [N, B, A]
    best = padax.argmax(shape_iou, axis=-1)
    slot = padax.full([n, b], -1, dtype="int64")
    for j, a in enumerate(mask):
        slot = padax.where(best == a, padax.full([], j, dtype="int64"), slot)
    matched = valid & (slot >= 0)
    gi = padax.clip(padax.floor(gt[:, :, 0] * w), 0, w - 1).astype("int64")
    gj = padax.clip(padax.floor(gt[:, :, 1] * h), 0, h - 1).astype("int64")
    cell = (padax.maximum(slot, 0) * h + gj) * w + gi  # [N, B] flat (anchor, row, col)
    entries = p.transpose([0, 1, 3, 4, 2]).reshape([n, m * h * w, 5 + k])
    picked = padax.take_along_axis(entries, cell[:, :, None], axis=1)  # [N, B, 5 + K]
    weight = padax.where(matched, score, padax.zeros_like(score))
    best_w = padax.to_tensor(aw_all).astype(x.dtype)[best]
    best_h = padax.to_tensor(ah_all).astype(x.dtype)[best]
    tx, ty = gt[:, :, 0] * h - gi.astype(x.dtype), gt[:, :, 1] * h - gj.astype(x.dtype)
    tw = padax.log(padax.where(matched, gt[:, :, 2] / best_w, padax.ones_like(tx)))
    th = padax.log(padax.where(matched, gt[:, :, 3] / best_h, padax.ones_like(tx)))
    box_scale = (2.0 - gt[:, :, 2] * gt[:, :, 3]) * weight
    location = (_sce(picked[:, :, 0], tx) + _sce(picked[:, :, 1], ty) + padax.abs(picked[:, :, 2] - tw)
                + padax.abs(picked[:, :, 3] - th)) * box_scale
    pos, neg = (1.0 - min(1.0 / k, 1.0 / 40), min(1.0 / k, 1.0 / 40)) if smooth else (1.0, 0.0)
    onehot = padax.nn.functional.one_hot(padax.clip(label, 0, k - 1), k).astype(x.dtype)
    targets = onehot * pos + (1.0 - onehot) * neg
    classes = _sce(picked[:, :, 5:], targets).sum(axis=-1) * weight
    # objectness targets: the score of the last ground truth placed in a cell, -1 where ignored
    hits = (cell[:, :, None] == padax.arange(m * h * w, dtype="int64")[None, None, :]) & matched[:, :, None]
    last = padax.argmax(hits.astype("int32") * (padax.arange(b, dtype="int32")[None, :, None] + 1), axis=1)
    any_hit = hits.any(axis=1)
    hit_score = padax.take_along_axis(score, last, axis=1)
    obj = padax.where(any_hit, hit_score, padax.where(ignored.reshape([n, -1]), -1.0, 0.0).astype(x.dtype))
    logit = entries[:, :, 4]
    objness = padax.where(obj > 1e-5, _sce(logit, 1.0) * obj,
                          padax.where(obj > -0.5, _sce(logit, 0.0), padax.zeros_like(logit)))
    return location.sum(axis=1) + classes.sum(axis=1) + objness.sum(axis=1)
