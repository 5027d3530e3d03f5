"""Box ops for detection with Paddle's signatures: nms, box_coder, prior_box, yolo_box,
generate_proposals and distribute_fpn_proposals.

Boxes are [x1, y1, x2, y2]. `box_coder`, `prior_box` and `yolo_box` have fixed-size outputs
and jit. `nms`, `generate_proposals` and `distribute_fpn_proposals` return as many boxes as
survive, a size that depends on the values: the suppression itself is a padax loop
(`lax.fori_loop` over an IoU matrix), and only the final selection of the kept boxes runs
eagerly on concrete values (so they cannot be called inside jit).
"""
from __future__ import annotations

import math
from functools import partial
from typing import Any, Sequence

import numpy as np

import padax
from padax.core.errors import op_value_error
from padax.vision.ops._common import float_tensor, host, tensor

_JIT_HINT = "call it outside jit (the number of kept boxes depends on the data)"


def _area(b: Any, offset: float) -> Any:
    """Box areas (0 for a box with x2 < x1 or y2 < y1); offset=1 for inclusive pixel coordinates."""
    w, h = b[..., 2] - b[..., 0], b[..., 3] - b[..., 1]
    return padax.where((w < 0) | (h < 0), padax.zeros_like(w), (w + offset) * (h + offset))


def iou_matrix(a: Any, b: Any, offset: float = 0.0) -> Any:
    """[Na, Nb] intersection over union; offset=1 counts pixel corners inclusively (unnormalised boxes)."""
    lt = padax.maximum(a[:, None, :2], b[None, :, :2])
    rb = padax.minimum(a[:, None, 2:], b[None, :, 2:])
    gap = rb - lt  # negative along an axis where the boxes do not meet: no overlap at all
    wh = padax.where(gap >= 0, gap + offset, padax.zeros_like(gap))
    inter = wh[..., 0] * wh[..., 1]
    union = _area(a, offset)[:, None] + _area(b, offset)[None, :] - inter
    return padax.where(union > 0, inter / padax.where(union > 0, union, padax.ones_like(union)),
                       padax.zeros_like(union))


def nms_keep_mask(boxes: Any, iou_threshold: Any, eta: float = 1.0, offset: float = 0.0, valid: Any = None,
                  groups: Any = None) -> Any:
    """Greedy NMS over boxes in the given order: bool [N], True for the boxes kept. A box is dropped
    when its IoU with an earlier kept box exceeds the threshold; with eta < 1 the threshold shrinks
    by eta after each kept box while it is above 0.5 (adaptive NMS). `valid` (bool [N]) leaves
    boxes out; `groups` (int [N]) lets boxes suppress only boxes of their own group. Jit-compatible."""
    n = boxes.shape[0]
    valid = padax.ones([n], dtype="bool") if valid is None else valid
    groups = padax.zeros([n], dtype="int32") if groups is None else groups
    if n == 0:
        return padax.zeros([0], dtype="bool")
    return _nms_loop(boxes, padax.to_tensor(float(iou_threshold)) if isinstance(iou_threshold, (int, float))
                     else iou_threshold, valid, groups, eta=float(eta), offset=float(offset))


@partial(padax.jit, static_argnames=("eta", "offset"))
def _nms_loop(boxes: Any, threshold: Any, valid: Any, groups: Any, *, eta: float, offset: float) -> Any:
    n = boxes.shape[0]
    overlap = iou_matrix(boxes, boxes, offset)
    overlap = padax.where(groups[:, None] == groups[None, :], overlap, padax.zeros_like(overlap))
    pos = padax.arange(n, dtype="int32")

    def body(i, state):
        keep, thr = state
        suppressed = padax.any(keep & (pos < i) & (padax.gather(overlap, i, axis=1) > thr))
        kept = padax.logical_not(suppressed) & padax.gather(valid, i)
        keep = padax.where(pos == i, kept, keep)
        return keep, padax.where(kept & (eta < 1.0) & (thr > 0.5), thr * eta, thr)

    keep0 = padax.zeros([n], dtype="bool")
    keep, _ = padax.lax.fori_loop(0, n, body, (keep0, threshold.astype(overlap.dtype)))
    return keep


def _descending(scores: Any) -> Any:
    """Indices sorting scores from high to low, ties in their original order."""
    return padax.argsort(-scores, stable=True)


def nms(boxes: Any, iou_threshold: float = 0.3, scores: Any = None, category_idxs: Any = None,
        categories: Sequence[int] | None = None, top_k: int | None = None) -> Any:
    """Non-maximum suppression: int64 indices of the boxes kept.

    Without scores the boxes are taken in the given order and the kept indices come in that
    order; with scores, highest score first. With category_idxs (one category per box) and
    categories (the ids to process) boxes only suppress boxes of their own category, and the
    result is sorted by score; top_k keeps the best top_k."""
    op = "nms"
    boxes = float_tensor(op, boxes, "boxes", ndim=2, last=4)
    if scores is None:
        keep = host(op, nms_keep_mask(boxes, iou_threshold), "the kept boxes", _JIT_HINT)
        return padax.to_tensor(np.flatnonzero(keep).astype(np.int64))
    scores = float_tensor(op, scores, "scores", ndim=1)
    if scores.shape[0] != boxes.shape[0]:
        raise op_value_error(op, f"scores {list(scores.shape)} must have one entry per box ({boxes.shape[0]})")
    if category_idxs is None:
        order, keep = _nms_by_score(boxes, scores, padax.to_tensor(float(iou_threshold)), None, None)
        return padax.to_tensor(host(op, order, "scores", _JIT_HINT)[host(op, keep, "the kept boxes", _JIT_HINT)])
    if categories is None:
        raise op_value_error(op, "categories (the list of category ids) is required with category_idxs")
    if top_k is not None and top_k > boxes.shape[0]:
        raise op_value_error(op, f"top_k ({top_k}) must be at most the number of boxes ({boxes.shape[0]})")
    cats = tensor(op, category_idxs, "category_idxs", ndim=1)
    if cats.shape[0] != boxes.shape[0]:
        raise op_value_error(op, f"category_idxs {list(cats.shape)} must have one entry per box ({boxes.shape[0]})")
    wanted = padax.to_tensor(np.asarray(list(categories), np.int64))
    order, keep = _nms_by_score(boxes, scores, padax.to_tensor(float(iou_threshold)), cats.astype("int64"), wanted)
    result = host(op, order, "scores", _JIT_HINT)[host(op, keep, "the kept boxes", _JIT_HINT)]
    return padax.to_tensor(result if top_k is None else result[:top_k])  # by score, ties in index order


@padax.jit
def _nms_by_score(boxes: Any, scores: Any, threshold: Any, cats: Any, wanted: Any) -> tuple[Any, Any]:
    """(order by descending score, kept mask in that order); with cats, per-category NMS over the
    categories in `wanted` (boxes of other categories are dropped)."""
    order = _descending(scores)
    if cats is None:
        return order, _nms_loop(padax.gather(boxes, order), threshold, padax.ones([boxes.shape[0]], dtype="bool"),
                                padax.zeros([boxes.shape[0]], dtype="int32"), eta=1.0, offset=0.0)
    cats = padax.gather(cats, order)
    in_list = padax.any(cats[:, None] == wanted[None, :], axis=1)
    return order, _nms_loop(padax.gather(boxes, order), threshold, in_list, cats, eta=1.0, offset=0.0)


def _variances(op: str, var: Any, like: Any) -> Any:
    if var is None:
        return padax.ones([4], dtype=like.dtype)
    if isinstance(var, (list, tuple)):
        if len(var) != 4:
            raise op_value_error(op, f"prior_box_var as a list must have 4 numbers, got {len(var)}")
        return padax.to_tensor(np.asarray(var, np.float64)).astype(like.dtype)
    return float_tensor(op, var, "prior_box_var", ndim=2, last=4).astype(like.dtype)


def box_coder(prior_box: Any, prior_box_var: Any, target_box: Any, code_type: str = "encode_center_size",
              box_normalized: bool = True, axis: int = 0, name: str | None = None) -> Any:
    """Encode target boxes [N, 4] against priors [M, 4] as center-size deltas [N, M, 4]
    ('encode_center_size'), or decode deltas [N, M, 4] back to boxes ('decode_center_size'; axis
    0: prior m goes with column m, axis 1: prior n with row n). prior_box_var is a [M, 4] Tensor or
    4 numbers dividing (encode) / scaling (decode) the deltas; box_normalized=False treats
    coordinates as inclusive pixel indices (widths + 1)."""
    op = "box_coder"
    prior = float_tensor(op, prior_box, "prior_box", ndim=2, last=4)
    var = _variances(op, prior_box_var, prior)
    target = float_tensor(op, target_box, "target_box").astype(prior.dtype)
    if code_type == "encode_center_size":
        if target.ndim != 2 or target.shape[-1] != 4:
            raise op_value_error(op, f"encoding needs target_box [N, 4], got {list(target.shape)}")
    elif code_type == "decode_center_size":
        if target.ndim != 3 or target.shape[-1] != 4:
            raise op_value_error(op, f"decoding needs target_box [N, M, 4], got {list(target.shape)}")
        if axis not in (0, 1):
            raise op_value_error(op, f"axis must be 0 or 1, got {axis}")
    else:
        raise op_value_error(op, f"code_type must be 'encode_center_size' or 'decode_center_size', got {code_type!r}")
    return _box_coder(prior, var, target, encode=code_type == "encode_center_size",
                      off=0.0 if box_normalized else 1.0, axis=int(axis))


@partial(padax.jit, static_argnames=("encode", "off", "axis"))
def _box_coder(prior: Any, var: Any, target: Any, *, encode: bool, off: float, axis: int) -> Any:
    pw, ph = prior[:, 2] - prior[:, 0] + off, prior[:, 3] - prior[:, 1] + off
    pcx, pcy = prior[:, 0] + pw / 2, prior[:, 1] + ph / 2
    if encode:
        tw, th = target[:, 2] - target[:, 0] + off, target[:, 3] - target[:, 1] + off
        tcx, tcy = (target[:, 2] + target[:, 0]) / 2, (target[:, 3] + target[:, 1]) / 2
        out = padax.stack([(tcx[:, None] - pcx[None]) / pw[None], (tcy[:, None] - pcy[None]) / ph[None],
                           padax.log(padax.abs(tw[:, None] / pw[None])),
                           padax.log(padax.abs(th[:, None] / ph[None]))], axis=-1)
        return out / (var[None] if var.ndim == 2 else var)
    expand = (lambda t: t[None]) if axis == 0 else (lambda t: t[:, None])
    pw, ph, pcx, pcy = expand(pw), expand(ph), expand(pcx), expand(pcy)
    v = expand(var) if var.ndim == 2 else var
    cx = v[..., 0] * target[..., 0] * pw + pcx
    cy = v[..., 1] * target[..., 1] * ph + pcy
    w = padax.exp(v[..., 2] * target[..., 2]) * pw
    h = padax.exp(v[..., 3] * target[..., 3]) * ph
    return padax.stack([cx - w / 2, cy - h / 2, cx + w / 2 - off, cy + h / 2 - off], axis=-1)


def _expand_ratios(aspect_ratios: Sequence[float], flip: bool) -> list[float]:
    out = [1.0]
    for ar in aspect_ratios:
        if any(abs(ar - e) < 1e-6 for e in out):
            continue
        out.append(float(ar))
        if flip:
            out.append(1.0 / ar)
    return out


def prior_box(input: Any, image: Any, min_sizes: Any, max_sizes: Any = None, aspect_ratios: Any = (1.0,),
              variance: Sequence[float] = (0.1, 0.1, 0.2, 0.2), flip: bool = False, clip: bool = False,
              steps: Sequence[float] = (0.0, 0.0), offset: float = 0.5, min_max_aspect_ratios_order: bool = False,
              name: str | None = None) -> tuple[Any, Any]:
    """SSD prior (anchor) boxes for each cell of feature map `input` [N, C, H, W] over `image`
    [N, C, IH, IW]: boxes and variances, both [H, W, num_priors, 4], boxes normalised to [0, 1]."""
    op = "prior_box"
    feat, img = tensor(op, input, "input", ndim=4), tensor(op, image, "image", ndim=4)
    h, w = feat.shape[2], feat.shape[3]
    ih, iw = img.shape[2], img.shape[3]
    min_sizes = [float(s) for s in (min_sizes if isinstance(min_sizes, (list, tuple)) else [min_sizes])]
    max_sizes = [] if max_sizes is None else [float(s) for s in (max_sizes if isinstance(max_sizes, (list, tuple))
                                                                 else [max_sizes])]
    if max_sizes and len(max_sizes) != len(min_sizes):
        raise op_value_error(op, f"max_sizes must pair up with min_sizes, got {max_sizes} and {min_sizes}")
    ratios = _expand_ratios([float(a) for a in (aspect_ratios if isinstance(aspect_ratios, (list, tuple))
                                                else [aspect_ratios])], flip)
    steps = list(steps) if isinstance(steps, (list, tuple)) else [steps]
    if len(steps) != 2:
        raise op_value_error(op, "steps must be (step_w, step_h)")
    step_w = steps[0] if steps[0] > 0 else iw / w
    step_h = steps[1] if steps[1] > 0 else ih / h
    half_sizes = []  # (half width, half height) of each prior, in Paddle's order
    for k, s in enumerate(min_sizes):
        big = [(math.sqrt(s * max_sizes[k]) / 2,) * 2] if max_sizes else []
        if min_max_aspect_ratios_order:
            half_sizes += [(s / 2, s / 2)] + big
            half_sizes += [(s * math.sqrt(a) / 2, s / math.sqrt(a) / 2) for a in ratios if abs(a - 1.0) >= 1e-6]
        else:
            half_sizes += [(s * math.sqrt(a) / 2, s / math.sqrt(a) / 2) for a in ratios] + big
    hs = np.asarray(half_sizes)  # [P, 2]
    cx = (np.arange(w) + offset) * step_w
    cy = (np.arange(h) + offset) * step_h
    boxes = np.stack([(cx[None, :, None] - hs[None, None, :, 0]) / iw + 0 * cy[:, None, None],
                      (cy[:, None, None] - hs[None, None, :, 1]) / ih + 0 * cx[None, :, None],
                      (cx[None, :, None] + hs[None, None, :, 0]) / iw + 0 * cy[:, None, None],
                      (cy[:, None, None] + hs[None, None, :, 1]) / ih + 0 * cx[None, :, None]], axis=-1)
    if clip:
        boxes = np.clip(boxes, 0.0, 1.0)
    dtype = feat.dtype if padax.is_floating_point(feat) else padax.get_default_dtype()
    var = np.broadcast_to(np.asarray(variance, np.float64), boxes.shape)
    return padax.to_tensor(boxes).astype(dtype), padax.to_tensor(np.ascontiguousarray(var)).astype(dtype)


def yolo_box(x: Any, img_size: Any, anchors: Sequence[int], class_num: int, conf_thresh: float,
             downsample_ratio: int, clip_bbox: bool = True, name: str | None = None, scale_x_y: float = 1.0,
             iou_aware: bool = False, iou_aware_factor: float = 0.5) -> tuple[Any, Any]:
    """Decode a YOLOv3 head x [N, A * (5 + class_num), H, W] (plus A IoU channels first when
    iou_aware) into boxes [N, A*H*W, 4] in image pixels (img_size [N, 2] is (height, width)) and
    scores [N, A*H*W, class_num]; predictions with confidence below conf_thresh get zeros."""
    op = "yolo_box"
    x = float_tensor(op, x, "x", ndim=4)
    n, c, h, w = x.shape
    anchors = [float(a) for a in anchors]
    a = len(anchors) // 2
    if len(anchors) % 2 or c != a * (5 + class_num) + (a if iou_aware else 0):
        raise op_value_error(op, f"x has {c} channels; {a} anchors and class_num={class_num} need "
                                 f"{a * (5 + class_num) + (a if iou_aware else 0)}{' (iou_aware)' if iou_aware else ''}")
    size = tensor(op, img_size, "img_size", ndim=2, last=2).astype(x.dtype)
    return _yolo_box(x, size, anchors=tuple(anchors), class_num=int(class_num), conf_thresh=float(conf_thresh),
                     ratio=int(downsample_ratio), clip_bbox=bool(clip_bbox), scale_x_y=float(scale_x_y),
                     iou_aware=bool(iou_aware), iou_aware_factor=float(iou_aware_factor))


@partial(padax.jit, static_argnames=("anchors", "class_num", "conf_thresh", "ratio", "clip_bbox", "scale_x_y",
                                     "iou_aware", "iou_aware_factor"))
def _yolo_box(x: Any, size: Any, *, anchors, class_num, conf_thresh, ratio, clip_bbox, scale_x_y, iou_aware,
              iou_aware_factor) -> tuple[Any, Any]:
    n, c, h, w = x.shape
    a, downsample_ratio = len(anchors) // 2, ratio
    img_h, img_w = size[:, 0].reshape([n, 1, 1, 1]), size[:, 1].reshape([n, 1, 1, 1])
    if iou_aware:
        iou, x = x[:, :a], x[:, a:]
    p = x.reshape([n, a, 5 + class_num, h, w])
    bias = -0.5 * (scale_x_y - 1.0)
    col = padax.arange(w, dtype=x.dtype).reshape([1, 1, 1, w])
    row = padax.arange(h, dtype=x.dtype).reshape([1, 1, h, 1])
    aw = padax.to_tensor(np.asarray(anchors[0::2])).astype(x.dtype).reshape([1, a, 1, 1])
    ah = padax.to_tensor(np.asarray(anchors[1::2])).astype(x.dtype).reshape([1, a, 1, 1])
    cx = (col + padax.sigmoid(p[:, :, 0]) * scale_x_y + bias) * img_w / w
    cy = (row + padax.sigmoid(p[:, :, 1]) * scale_x_y + bias) * img_h / h
    bw = padax.exp(p[:, :, 2]) * aw * img_w / (downsample_ratio * w)
    bh = padax.exp(p[:, :, 3]) * ah * img_h / (downsample_ratio * h)
    conf = padax.sigmoid(p[:, :, 4])
    if iou_aware:
        conf = padax.pow(conf, 1.0 - iou_aware_factor) * padax.pow(padax.sigmoid(iou), iou_aware_factor)
    x1, y1, x2, y2 = cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2
    if clip_bbox:
        x1, y1 = padax.maximum(x1, 0.0), padax.maximum(y1, 0.0)
        x2, y2 = padax.minimum(x2, img_w - 1), padax.minimum(y2, img_h - 1)
    keep = (conf >= conf_thresh).astype(x.dtype)
    boxes = padax.stack([x1, y1, x2, y2], axis=-1) * keep[..., None]  # [N, A, H, W, 4]
    scores = (conf * keep)[:, :, None] * padax.sigmoid(p[:, :, 5:])  # [N, A, K, H, W]
    return (boxes.reshape([n, a * h * w, 4]),
            scores.transpose([0, 1, 3, 4, 2]).reshape([n, a * h * w, class_num]))


def distribute_fpn_proposals(fpn_rois: Any, min_level: int, max_level: int, refer_level: int, refer_scale: int,
                             pixel_offset: bool = False, rois_num: Any = None, name: str | None = None):
    """Assign each RoI to an FPN level: floor(log2(sqrt(area) / refer_scale + 1e-8) + refer_level),
    clamped to [min_level, max_level]. Returns (multi_rois: one [Ri, 4] per level, restore_ind
    [R, 1] int32 with concat(multi_rois)[restore_ind[:, 0]] == fpn_rois, rois_num_per_level: per
    level an int32 [N] count per image, or None without rois_num)."""
    op = "distribute_fpn_proposals"
    if not (0 < min_level < max_level and max_level - min_level + 1 < 100):
        raise op_value_error(op, f"need 0 < min_level < max_level (and under 100 levels), got {min_level}, {max_level}")
    rois = float_tensor(op, fpn_rois, "fpn_rois", ndim=2, last=4)
    level = host(op, _fpn_levels(rois, bounds=(int(min_level), int(max_level)), refer=(int(refer_level),
                                 float(refer_scale)), offset=1.0 if pixel_offset else 0.0), "the levels", _JIT_HINT)
    boxes = host(op, rois, "fpn_rois", _JIT_HINT)
    counts = None if rois_num is None else host(op, tensor(op, rois_num, "rois_num", ndim=1), "rois_num", _JIT_HINT)
    image = None if counts is None else np.repeat(np.arange(len(counts)), counts)
    multi, order, per_level = [], [], []
    for lvl in range(min_level, max_level + 1):
        idx = np.flatnonzero(level == lvl)
        order.append(idx)
        multi.append(padax.to_tensor(boxes[idx]))
        if counts is not None:
            per_level.append(padax.to_tensor(np.bincount(image[idx], minlength=len(counts)).astype(np.int32)))
    restore = np.empty(boxes.shape[0], np.int32)
    restore[np.concatenate(order)] = np.arange(boxes.shape[0], dtype=np.int32)
    return multi, padax.to_tensor(restore[:, None]), (per_level if counts is not None else None)


@partial(padax.jit, static_argnames=("bounds", "refer", "offset"))
def _fpn_levels(rois: Any, *, bounds, refer, offset) -> Any:
    level = padax.floor(padax.log2(padax.sqrt(_area(rois, offset)) / refer[1] + 1e-8) + refer[0])
    return padax.clip(level, bounds[0], bounds[1]).astype("int32")


_BBOX_CLIP = math.log(1000.0 / 16.0)


@partial(padax.jit, static_argnames=("pre_nms_top_n", "min_size", "offset"))
def _decode_one_image(scores, deltas, im_hw, anchors, variances, *, pre_nms_top_n, min_size, offset):
    """One image's pre_nms_top_n best anchors (scores [A, H, W], deltas [4A, H, W]) decoded and
    clipped: (boxes, scores, kept by the size filter)."""
    a, h, w = scores.shape
    scores = scores.transpose([1, 2, 0]).reshape([-1])
    deltas = deltas.reshape([a, 4, h, w]).transpose([2, 3, 0, 1]).reshape([-1, 4])
    order = _descending(scores)
    if 0 < pre_nms_top_n < scores.shape[0]:
        order = order[:pre_nms_top_n]
    s, d, a, v = (padax.gather(t, order) for t in (scores, deltas, anchors, variances))
    im_h, im_w = im_hw[0], im_hw[1]
    aw, ah = a[:, 2] - a[:, 0] + offset, a[:, 3] - a[:, 1] + offset
    acx, acy = a[:, 0] + 0.5 * aw, a[:, 1] + 0.5 * ah
    cx, cy = v[:, 0] * d[:, 0] * aw + acx, v[:, 1] * d[:, 1] * ah + acy
    bw = padax.exp(padax.minimum(v[:, 2] * d[:, 2], _BBOX_CLIP)) * aw
    bh = padax.exp(padax.minimum(v[:, 3] * d[:, 3], _BBOX_CLIP)) * ah
    x1 = padax.minimum(padax.maximum(cx - bw / 2, 0.0), im_w - offset)
    y1 = padax.minimum(padax.maximum(cy - bh / 2, 0.0), im_h - offset)
    x2 = padax.minimum(padax.maximum(cx + bw / 2 - offset, 0.0), im_w - offset)
    y2 = padax.minimum(padax.maximum(cy + bh / 2 - offset, 0.0), im_h - offset)
    ws, hs = x2 - x1 + offset, y2 - y1 + offset
    keep = (ws >= min_size) & (hs >= min_size)
    if offset:
        keep = keep & (x1 + ws / 2 <= im_w) & (y1 + hs / 2 <= im_h)
    return padax.stack([x1, y1, x2, y2], axis=-1), s, keep


def _proposals_one_image(scores, deltas, im_hw, anchors, variances, pre_nms_top_n, post_nms_top_n,
                         nms_thresh, min_size, eta, offset) -> tuple[np.ndarray, np.ndarray]:
    boxes, s, keep = _decode_one_image(scores, deltas, im_hw, anchors, variances, pre_nms_top_n=int(pre_nms_top_n),
                                       min_size=max(float(min_size), 1.0), offset=offset)
    if nms_thresh > 0:
        keep = nms_keep_mask(boxes, nms_thresh, eta, offset, valid=keep)
    op = "generate_proposals"
    kept = np.flatnonzero(host(op, keep, "the kept boxes", _JIT_HINT))
    boxes, s = host(op, boxes, "boxes", _JIT_HINT), host(op, s, "scores", _JIT_HINT)
    if kept.size == 0:
        return np.zeros((1, 4), boxes.dtype), np.zeros(1, s.dtype)
    if nms_thresh > 0 and 0 < post_nms_top_n < kept.size:
        kept = kept[:post_nms_top_n]
    return boxes[kept], s[kept]


def generate_proposals(scores: Any, bbox_deltas: Any, img_size: Any, anchors: Any, variances: Any,
                       pre_nms_top_n: int = 6000, post_nms_top_n: int = 1000, nms_thresh: float = 0.5,
                       min_size: float = 0.1, eta: float = 1.0, pixel_offset: bool = False,
                       return_rois_num: bool = False, name: str | None = None):
    """Faster R-CNN RPN proposals: per image, take the pre_nms_top_n best anchors (scores
    [N, A, H, W]), decode their deltas [N, 4A, H, W] against anchors/variances [H, W, A, 4], clip to
    img_size [N, 2] (height, width), drop boxes smaller than min_size, NMS, keep post_nms_top_n.
    Returns (rpn_rois [R, 4], rpn_roi_probs [R, 1], rpn_rois_num [N] int32 or None)."""
    op = "generate_proposals"
    scores = float_tensor(op, scores, "scores", ndim=4)
    n, a, h, w = scores.shape
    deltas = float_tensor(op, bbox_deltas, "bbox_deltas", ndim=4).astype(scores.dtype)
    if list(deltas.shape) != [n, 4 * a, h, w]:
        raise op_value_error(op, f"bbox_deltas must have shape {[n, 4 * a, h, w]}, got {list(deltas.shape)}")
    anchors = float_tensor(op, anchors, "anchors", last=4).astype(scores.dtype).reshape([-1, 4])
    variances = float_tensor(op, variances, "variances", last=4).astype(scores.dtype).reshape([-1, 4])
    if anchors.shape[0] != h * w * a or variances.shape[0] != h * w * a:
        raise op_value_error(op, f"anchors and variances must hold H*W*A = {h * w * a} boxes, got "
                                 f"{anchors.shape[0]} and {variances.shape[0]}")
    sizes = tensor(op, img_size, "img_size", ndim=2, last=2).astype(scores.dtype)
    offset = 1.0 if pixel_offset else 0.0
    rois, probs, nums = [], [], []
    for i in range(n):
        b, p = _proposals_one_image(scores[i], deltas[i], sizes[i], anchors, variances,
                                    pre_nms_top_n, post_nms_top_n, nms_thresh, min_size, eta, offset)
        rois.append(b)
        probs.append(p)
        nums.append(b.shape[0])
    num = padax.to_tensor(np.asarray(nums, np.int32))
    return (padax.to_tensor(np.concatenate(rois)), padax.to_tensor(np.concatenate(probs)[:, None]),
            (num if return_rois_num else None))
