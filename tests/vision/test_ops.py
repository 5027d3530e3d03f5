"""padax.vision.ops against numpy references and Paddle; jit and gradient checks."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import padax
from padax.test_util import check_grads
from padax.vision import ops as O
from tests.conftest import paddle_oracle

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 8, 12, 10)).astype(np.float32)
ROIS = np.array([[1, 1.5, 7, 9], [0, 0, 20, 20], [3.3, 2.2, 5.1, 9.7], [-3, -2, 4, 5], [8, 9, 9.5, 11.9]],
                np.float32)
ROIS_NUM = np.array([2, 3], np.int32)
_xy = RNG.random((30, 2)) * 50
BOXES = np.concatenate([_xy, _xy + RNG.random((30, 2)) * 20 + 1], 1).astype(np.float32)
SCORES = RNG.random(30).astype(np.float32)
CATS = RNG.integers(0, 3, 30)


@pytest.fixture(scope="module")
def PO():
    paddle_oracle()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import paddle.vision.ops as PO
    return PO


def T(v):
    import paddle
    return None if v is None else paddle.to_tensor(v)


def _close(a, b, atol=1e-5, rtol=1e-5):
    a = np.asarray(a, np.float64)
    b = np.asarray(b.numpy() if hasattr(b, "numpy") else b, np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    np.testing.assert_allclose(a, b, atol=atol, rtol=rtol)


# -- numpy references ---------------------------------------------------------------------------------

def nms_ref(boxes, thr):
    keep = []
    for i, b in enumerate(boxes):
        ok = True
        for j in keep:
            c = boxes[j]
            iw = max(0.0, min(b[2], c[2]) - max(b[0], c[0]))
            ih = max(0.0, min(b[3], c[3]) - max(b[1], c[1]))
            inter = iw * ih
            union = (b[2] - b[0]) * (b[3] - b[1]) + (c[2] - c[0]) * (c[3] - c[1]) - inter
            if inter / union > thr:
                ok = False
                break
        if ok:
            keep.append(i)
    return np.array(keep)


def roi_align_ref(x, rois, batch, ph, pw, ratio):
    """Plain-loop RoIAlign (aligned=True, fixed sampling ratio)."""
    _, c, h, w = x.shape
    out = np.zeros((len(rois), c, ph, pw))
    for r, (x1, y1, x2, y2) in enumerate(rois - 0.5):
        bh, bw = (y2 - y1) / ph, (x2 - x1) / pw
        for i in range(ph):
            for j in range(pw):
                acc = np.zeros(c)
                for iy in range(ratio):
                    for ix in range(ratio):
                        y = y1 + i * bh + (iy + 0.5) * bh / ratio
                        xx = x1 + j * bw + (ix + 0.5) * bw / ratio
                        if y < -1 or y > h or xx < -1 or xx > w:
                            continue
                        y, xx = max(y, 0.0), max(xx, 0.0)
                        y0, x0 = min(int(y), h - 1), min(int(xx), w - 1)
                        y1_, x1_ = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
                        y, xx = (y0 if y0 == h - 1 else y), (x0 if x0 == w - 1 else xx)
                        ly, lx = y - y0, xx - x0
                        f = x[batch[r]]
                        acc += ((1 - ly) * (1 - lx) * f[:, y0, x0] + (1 - ly) * lx * f[:, y0, x1_]
                                + ly * (1 - lx) * f[:, y1_, x0] + ly * lx * f[:, y1_, x1_])
                out[r, :, i, j] = acc / ratio ** 2
    return out


def test_nms_matches_numpy_reference():
    np.testing.assert_array_equal(O.nms(BOXES, 0.3), nms_ref(BOXES.astype(np.float64), 0.3))
    order = np.argsort(-SCORES, kind="stable")
    np.testing.assert_array_equal(O.nms(BOXES, 0.2, SCORES), order[nms_ref(BOXES[order].astype(np.float64), 0.2)])
    assert O.nms(BOXES, 0.3).dtype == np.int64


def test_batched_nms_only_suppresses_within_a_category():
    keep = np.asarray(O.nms(BOXES, 0.2, SCORES, CATS, [0, 1, 2]))
    expected = []
    for c in (0, 1, 2):
        members = np.flatnonzero(CATS == c)
        members = members[np.argsort(-SCORES[members], kind="stable")]
        expected += list(members[nms_ref(BOXES[members].astype(np.float64), 0.2)])
    expected = np.array(expected)[np.argsort(-SCORES[expected], kind="stable")]
    np.testing.assert_array_equal(keep, expected)
    np.testing.assert_array_equal(O.nms(BOXES, 0.2, SCORES, CATS, [0, 1, 2], top_k=4), expected[:4])


@pytest.mark.parametrize("kw", [dict(), dict(scores=SCORES), dict(scores=SCORES, category_idxs=CATS, categories=[0, 1, 2],
                                                                  top_k=7),
                                dict(scores=SCORES, category_idxs=CATS, categories=[0, 2])])
def test_nms_matches_paddle(PO, kw):
    theirs = PO.nms(T(BOXES), 0.25, **{k: (T(v) if isinstance(v, np.ndarray) else v) for k, v in kw.items()})
    np.testing.assert_array_equal(O.nms(BOXES, 0.25, **kw), theirs.numpy())


def test_roi_align_matches_numpy_reference_and_paddle(PO):
    ref = roi_align_ref(X.astype(np.float64), ROIS.astype(np.float64), [0, 0, 1, 1, 1], 3, 2, 2)
    _close(O.roi_align(X, ROIS, ROIS_NUM, (3, 2), sampling_ratio=2), ref)
    for kw in (dict(), dict(spatial_scale=0.5, sampling_ratio=3, aligned=False)):
        _close(O.roi_align(X, ROIS, ROIS_NUM, (3, 2), **kw), PO.roi_align(T(X), T(ROIS), T(ROIS_NUM), (3, 2), **kw))
    layer = O.RoIAlign(2, 0.5)
    _close(layer(X, ROIS, ROIS_NUM), PO.RoIAlign(2, 0.5)(T(X), T(ROIS), T(ROIS_NUM)))


def test_roi_pool_and_psroi_pool_match_paddle(PO):
    for s in (1.0, 0.5):
        _close(O.roi_pool(X, ROIS, ROIS_NUM, 3, s), PO.roi_pool(T(X), T(ROIS), T(ROIS_NUM), 3, s), 0, 0)
        x2 = np.concatenate([X, X[:, :4]], 1)  # 12 channels = 3 x 2 x 2
        _close(O.psroi_pool(x2, ROIS, ROIS_NUM, 2, s), PO.psroi_pool(T(x2), T(ROIS), T(ROIS_NUM), 2, s))
    # a RoI covering exactly one pixel pools that pixel
    one = O.roi_pool(X, np.array([[4, 5, 4, 5]], np.float32), np.array([1, 0], np.int32), 1)
    np.testing.assert_array_equal(np.asarray(one)[0, :, 0, 0], X[0, :, 5, 4])
    _close(O.RoIPool(2)(X, ROIS, ROIS_NUM), O.roi_pool(X, ROIS, ROIS_NUM, 2), 0, 0)


def test_roi_ops_jit_and_roi_align_differentiates(x64):
    f = padax.jit(lambda x, b: O.roi_align(x, b, ROIS_NUM, 2, sampling_ratio=2))
    _close(f(X, ROIS), O.roi_align(X, ROIS, ROIS_NUM, 2, sampling_ratio=2))
    g = padax.jit(lambda x, b: O.roi_pool(x, b, ROIS_NUM, 2))
    _close(g(X, ROIS), O.roi_pool(X, ROIS, ROIS_NUM, 2), 0, 0)
    with pytest.raises(TypeError, match="sampling_ratio > 0"):
        padax.jit(lambda x, b: O.roi_align(x, b, ROIS_NUM, 2))(X, ROIS)
    x = X[:, :2, :6, :6].astype(np.float64)
    rois = np.array([[0.7, 1.2, 4.4, 5.1], [1.3, 0.4, 3.9, 2.8], [2.1, 2.2, 5.3, 4.6]])
    check_grads(lambda x: O.roi_align(x, rois, np.array([1, 2]), 2, sampling_ratio=2), (x,), 1, modes=("rev",))


def _deform_case(n, cin, h, w, cout, kh, kw, s, p, d, dg, g, use_mask, seed=0):
    rng = np.random.default_rng(seed)
    ho, wo = (h + 2 * p - (d * (kh - 1) + 1)) // s + 1, (w + 2 * p - (d * (kw - 1) + 1)) // s + 1
    x = rng.standard_normal((n, cin, h, w))
    wt = rng.standard_normal((cout, cin // g, kh, kw))
    off = rng.standard_normal((n, 2 * dg * kh * kw, ho, wo)) * 1.5 + 0.31  # off the integer grid
    mask = rng.random((n, dg * kh * kw, ho, wo)) if use_mask else None
    bias = rng.standard_normal(cout)
    return x, off, wt, bias, dict(stride=s, padding=p, dilation=d, deformable_groups=dg, groups=g), mask


DEFORM = [(2, 4, 7, 6, 6, 3, 3, 1, 1, 1, 1, 1, False), (1, 4, 8, 9, 4, 3, 2, 2, 1, 2, 2, 2, True),
          (2, 6, 5, 5, 3, 2, 2, 1, 0, 1, 3, 1, True)]


@pytest.mark.parametrize("case", DEFORM)
def test_deform_conv2d_matches_paddle(PO, case):
    x, off, wt, b, kw, mask = (v.astype(np.float32) if isinstance(v, np.ndarray) else v
                               for v in _deform_case(*case))
    _close(O.deform_conv2d(x, off, wt, b, mask=mask, **kw),
           PO.deform_conv2d(T(x), T(off), T(wt), T(b), mask=T(mask), **kw), 1e-4, 1e-4)


def test_deform_conv2d_with_zero_offsets_is_conv2d_and_jits():
    x, off, wt, b, kw, _ = _deform_case(2, 4, 7, 6, 6, 3, 3, 2, 1, 1, 1, 2, False)
    x, wt, b = x.astype(np.float32), wt[:, :2].astype(np.float32), b.astype(np.float32)
    zero = np.zeros_like(off, np.float32)
    conv = padax.nn.functional.conv2d(x, wt, b, stride=2, padding=1, groups=2)
    _close(O.deform_conv2d(x, zero, wt, b, stride=2, padding=1, groups=2), conv, 1e-4, 1e-4)
    f = padax.jit(lambda x, o: O.deform_conv2d(x, o, wt, b, stride=2, padding=1, groups=2))
    _close(f(x, zero), conv, 1e-4, 1e-4)
    layer = O.DeformConv2D(4, 6, 3, stride=2, padding=1, groups=2)
    assert list(layer.weight.shape) == [6, 2, 3, 3] and list(layer.bias.shape) == [6]
    assert tuple(layer(x, zero).shape) == (2, 6, 4, 3)


def test_deform_conv2d_gradients(x64):
    x, off, wt, b, kw, mask = _deform_case(1, 2, 4, 4, 2, 2, 2, 1, 0, 1, 1, 1, True, seed=3)
    check_grads(lambda x, o, m, w: O.deform_conv2d(x, o, w, b, mask=m, **kw), (x, off, mask, wt), 1,
                modes=("rev",))


def test_box_coder_matches_numpy_and_paddle(PO):
    prior, target = BOXES[:5], BOXES[5:12]
    var = (RNG.random((5, 4)) * 0.5 + 0.1).astype(np.float32)
    p, t = prior.astype(np.float64), target.astype(np.float64)
    pw, ph = p[:, 2] - p[:, 0], p[:, 3] - p[:, 1]
    tw, th = t[:, 2] - t[:, 0], t[:, 3] - t[:, 1]
    ref = np.stack([((t[:, None, 0] + t[:, None, 2]) / 2 - (p[None, :, 0] + pw / 2)) / pw,
                    ((t[:, None, 1] + t[:, None, 3]) / 2 - (p[None, :, 1] + ph / 2)) / ph,
                    np.log(tw[:, None] / pw), np.log(th[:, None] / ph)], -1) / var[None]
    enc = O.box_coder(prior, var, target)
    _close(enc, ref, 1e-5, 1e-5)
    _close(O.box_coder(prior, var, np.asarray(enc), "decode_center_size"), np.broadcast_to(t[:, None], (7, 5, 4)),
           1e-3, 1e-5)  # decode inverts encode
    for norm in (True, False):
        _close(O.box_coder(prior, [0.1, 0.2, 0.3, 0.4], target, box_normalized=norm),
               PO.box_coder(T(prior), [0.1, 0.2, 0.3, 0.4], T(target), box_normalized=norm))
        for axis, shape in ((0, (7, 5, 4)), (1, (5, 7, 4))):
            deltas = (RNG.standard_normal(shape) * 0.3).astype(np.float32)
            _close(O.box_coder(prior, var, deltas, "decode_center_size", norm, axis),
                   PO.box_coder(T(prior), T(var), T(deltas), "decode_center_size", norm, axis), 1e-4)


@pytest.mark.parametrize("kw", [dict(min_sizes=[10.0]),
                                dict(min_sizes=[10.0, 20.0], max_sizes=[15.0, 30.0], aspect_ratios=[2.0, 3.0],
                                     flip=True, clip=True),
                                dict(min_sizes=[8.0], max_sizes=[12.0], aspect_ratios=[2.0], flip=True,
                                     min_max_aspect_ratios_order=True, steps=[8.0, 9.0], offset=0.3)])
def test_prior_box_matches_paddle(PO, kw):
    feat, img = np.zeros((1, 3, 6, 9), np.float32), np.zeros((1, 3, 60, 80), np.float32)
    ours, theirs = O.prior_box(feat, img, **kw), PO.prior_box(T(feat), T(img), **kw)
    _close(ours[0], theirs[0], 1e-6)
    _close(ours[1], theirs[1], 0)


@pytest.mark.parametrize("iou_aware", [False, True])
def test_yolo_box_matches_paddle_and_jits(PO, iou_aware):
    a, k, h, w = 3, 4, 5, 6
    x = RNG.standard_normal((2, a * (5 + k) + (a if iou_aware else 0), h, w)).astype(np.float32)
    size = np.array([[320, 300], [200, 410]], np.int32)
    anchors = [10, 13, 16, 30, 33, 23]
    kw = dict(scale_x_y=1.2, iou_aware=iou_aware, iou_aware_factor=0.3)
    ours = O.yolo_box(x, size, anchors, k, 0.4, 32, **kw)
    theirs = PO.yolo_box(T(x), T(size), anchors, k, 0.4, 32, **kw)
    _close(ours[0], theirs[0], 1e-3)
    _close(ours[1], theirs[1], 1e-6)
    jitted = padax.jit(lambda x: O.yolo_box(x, size, anchors, k, 0.4, 32, **kw))(x)
    _close(jitted[0], ours[0], 1e-4)


@pytest.mark.parametrize("pixel_offset", [False, True])
def test_distribute_fpn_proposals_matches_paddle(PO, pixel_offset):
    rois = np.concatenate([_xy, _xy + RNG.random((30, 2)) * 600], 1).astype(np.float32)
    num = np.array([12, 18], np.int32)
    ours = O.distribute_fpn_proposals(rois, 2, 5, 4, 224, pixel_offset, num)
    theirs = PO.distribute_fpn_proposals(T(rois), 2, 5, 4, 224, pixel_offset, T(num))
    for a, b in zip(ours[0], theirs[0]):
        _close(a, b, 0)
    np.testing.assert_array_equal(ours[1], theirs[1].numpy())
    for a, b in zip(ours[2], theirs[2]):
        np.testing.assert_array_equal(a, b.numpy())
    restored = np.concatenate([np.asarray(m) for m in ours[0]])[np.asarray(ours[1])[:, 0]]
    np.testing.assert_array_equal(restored, rois)
    assert O.distribute_fpn_proposals(rois, 2, 5, 4, 224)[2] is None


@pytest.mark.parametrize("kw", [dict(), dict(pre_nms_top_n=20, post_nms_top_n=8, nms_thresh=0.4, min_size=3.0),
                                dict(pixel_offset=True, eta=0.7, nms_thresh=0.8, min_size=2.0)])
def test_generate_proposals_matches_paddle(PO, kw):
    rng = np.random.default_rng(1)
    n, a, h, w = 2, 3, 4, 5
    scores = rng.random((n, a, h, w)).astype(np.float32)
    deltas = (rng.standard_normal((n, 4 * a, h, w)) * 0.3).astype(np.float32)
    corner = rng.random((h, w, a, 2)) * 40
    anchors = np.concatenate([corner, corner + rng.random((h, w, a, 2)) * 30 + 2], -1).astype(np.float32)
    var = np.broadcast_to(np.array([0.1, 0.1, 0.2, 0.2], np.float32), (h, w, a, 4)).copy()
    size = np.array([[50.0, 60.0], [45.0, 70.0]], np.float32)
    ours = O.generate_proposals(scores, deltas, size, anchors, var, return_rois_num=True, **kw)
    theirs = PO.generate_proposals(T(scores), T(deltas), T(size), T(anchors), T(var), return_rois_num=True, **kw)
    np.testing.assert_array_equal(ours[2], theirs[2].numpy())
    _close(ours[0], theirs[0], 1e-4)
    _close(ours[1], theirs[1], 0)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match=r"roi_align: boxes must have a last axis of 4"):
        O.roi_align(X, ROIS[:, :3], ROIS_NUM, 2)
    with pytest.raises(ValueError, match="does not add up"):
        O.roi_align(X, ROIS, np.array([1, 1], np.int32), 2)
    with pytest.raises(ValueError, match="offset must have shape"):
        O.deform_conv2d(X[:, :4], np.zeros((2, 18, 5, 5)), np.zeros((3, 4, 3, 3)))
    with pytest.raises(ValueError, match="channels; 3 anchors"):
        O.yolo_box(np.zeros((1, 10, 2, 2)), np.array([[8, 8]]), [1, 2, 3, 4, 5, 6], 2, 0.1, 4)
    with pytest.raises(TypeError, match="outside jit"):
        padax.jit(lambda b: O.nms(b, 0.5))(BOXES)
    with pytest.raises(ValueError, match="categories"):
        O.nms(BOXES, 0.5, SCORES, CATS)


@pytest.mark.parametrize("kw", [dict(), dict(use_gaussian=True, gaussian_sigma=1.5, keep_top_k=10, nms_top_k=8),
                                dict(background_label=-1, normalized=False, post_threshold=0.3)])
def test_matrix_nms_matches_paddle(PO, kw):
    rng = np.random.default_rng(2)
    n, m, c = 2, 20, 4
    xy = rng.random((n, m, 2))
    boxes = np.concatenate([xy, xy + rng.random((n, m, 2)) * 0.5 + 0.05], -1).astype(np.float32)
    scores = rng.random((n, c, m)).astype(np.float32)
    args = dict(score_threshold=0.2, post_threshold=0.1, nms_top_k=-1, keep_top_k=-1, return_index=True)
    args.update(kw)
    ours, theirs = O.matrix_nms(boxes, scores, **args), PO.matrix_nms(T(boxes), T(scores), **args)
    _close(ours[0], theirs[0], 1e-6)
    np.testing.assert_array_equal(ours[1], theirs[1].numpy())
    np.testing.assert_array_equal(ours[2], theirs[2].numpy())
    # the rows are the kept boxes: label, score, then the box itself
    out, index = np.asarray(ours[0]), np.asarray(ours[2])[:, 0]
    np.testing.assert_array_equal(out[:, 2:], boxes.reshape(-1, 4)[index])


def test_read_file_and_decode_jpeg(tmp_path):
    import io
    import tarfile
    Image = pytest.importorskip("PIL.Image")
    from padax.vision.datasets import sample_path
    with tarfile.open(sample_path("flowers/102flowers.tgz")) as tar:
        raw = tar.extractfile("jpg/image_00003.jpg").read()
    path = tmp_path / "flower.jpg"
    path.write_bytes(raw)
    data = O.read_file(str(path))
    assert data.dtype == np.uint8 and tuple(data.shape) == (len(raw),)
    expected = np.asarray(Image.open(io.BytesIO(raw)).convert("RGB"))
    np.testing.assert_array_equal(O.decode_jpeg(data), np.moveaxis(expected, -1, 0))
    gray = np.asarray(Image.open(io.BytesIO(raw)).convert("L"))
    np.testing.assert_array_equal(O.decode_jpeg(data, "gray"), gray[None])
    with pytest.raises(ValueError, match="not a readable image"):
        O.decode_jpeg(data[:50])


ANCHORS = [10, 13, 16, 30, 33, 23, 30, 61, 62, 45, 59, 119]


def _yolo_case(mask, scored, seed=0, n=2, size=6, k=3, b=5, dtype=np.float32):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, len(mask) * (5 + k), size, size)).astype(dtype)
    gt = np.concatenate([rng.random((n, b, 2)) * 0.9 + 0.05, rng.random((n, b, 2)) * 0.4 + 0.02], -1).astype(dtype)
    gt[0, -1] = 0  # a padding row
    gt[-1, 1] = gt[-1, 0]  # two ground truths in the same cell: the later one sets the objectness target
    label = rng.integers(0, k, (n, b)).astype(np.int32)
    score = rng.random((n, b)).astype(dtype) if scored else None
    return x, gt, label, score


@pytest.mark.parametrize("mask,smooth,scale,scored", [([0, 1, 2], True, 1.0, False), ([3, 4, 5], False, 1.1, True),
                                                      ([1, 3], True, 1.0, True)])
def test_yolo_loss_matches_paddle(PO, mask, smooth, scale, scored):
    x, gt, label, score = _yolo_case(mask, scored)
    kw = dict(use_label_smooth=smooth, scale_x_y=scale)
    ours = O.yolo_loss(x, gt, label, ANCHORS, mask, 3, 0.5, 32, gt_score=score, **kw)
    theirs = PO.yolo_loss(T(x), T(gt), T(label), ANCHORS, mask, 3, 0.5, 32, gt_score=T(score), **kw)
    _close(ours, theirs, 1e-4, 1e-5)


def test_yolo_loss_jits_and_differentiates(x64):
    x, gt, label, score = _yolo_case([0, 1, 2], True, seed=1, n=1, size=3, k=2, b=3, dtype=np.float64)
    f = lambda x: O.yolo_loss(x, gt, label, ANCHORS, [0, 1, 2], 2, 0.7, 32, gt_score=score)  # noqa: E731
    _close(padax.jit(f)(x), f(x), 1e-12)
    check_grads(f, (x,), 1, modes=("rev",))
