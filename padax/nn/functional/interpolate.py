"""interpolate / upsample with Paddle's modes and coordinate conventions.

Resizing is separable: each spatial axis in turn gathers its source taps (host-computed indices)
and mixes them with host-computed weights, so gradients are gathers' scatter-adds.

Source coordinate of output index i along an axis of size n -> m (ratio = (n-1)/(m-1) with
align_corners, else 1/scale_factor when a scale is given, else n/m; see _ratio for one output):
- nearest: floor(ratio * i);
- linear family: ratio * (i + 0.5) - 0.5 (clamped at 0) with align_mode 0 and no align_corners,
  otherwise ratio * i;
- bicubic: like the linear family but unclamped, with Keys' cubic (A = -0.75) over 4 taps and
  the taps clamped to the edge;
- area: adaptive average pooling;
- antialias (bilinear/bicubic): when shrinking by r > 1 the filter (triangle, or the cubic with
  A = -0.5) is stretched r times, so each output averages all the inputs under it; the weights are
  normalised to sum to 1 and no tap reaches past the edge.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._arrays import asarray, is_array, static_int
from padax.functional._checks import arg
from padax.functional.indexed import take_axis
from padax.functional.manipulation import reshape
from padax.nn.functional._util import LOW_PRECISION
from padax.nn.functional.pooling_adaptive import _adaptive_avg

_MODES = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5, "nearest": (4, 5), "area": (3, 4, 5)}
_LAYOUTS = {3: ("NCW", "NWC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}
_CUBIC_A = -0.75


def _sizes(op: str, x: Any, sp: tuple[int, ...], size: Any, scale_factor: Any,
           recompute_scale_factor: bool | None) -> tuple[list[int], list[float | None]]:
    """Output sizes and, where the kernel should use it, the scale per spatial axis."""
    n = len(sp)
    if size is not None and scale_factor is not None:
        raise op_value_error(op, "give only one of size and scale_factor")
    if size is None and scale_factor is None:
        raise op_value_error(op, "one of size and scale_factor must be given")
    if size is not None:
        if recompute_scale_factor:
            raise op_value_error(op, "recompute_scale_factor is not meaningful with an explicit size")
        if is_array(size):
            size = np.asarray(size).reshape(-1).tolist()
        if isinstance(size, (int, np.integer)):
            size = [int(size)] * n
        size = [static_int(op, s, "size") for s in size]
        if len(size) != n:
            raise op_value_error(op, f"size {size} needs {n} entries for x {x.aval.str_short()}")
        if min(size) < 1:
            raise op_value_error(op, f"size {size} must be positive")
        return size, [None] * n
    if is_array(scale_factor):
        scale_factor = np.asarray(scale_factor).reshape(-1).tolist()
        scale_factor = scale_factor[0] if len(scale_factor) == 1 else scale_factor
    scales = [float(scale_factor)] * n if isinstance(scale_factor, (int, float, np.number)) else \
        [float(s) for s in scale_factor]
    if len(scales) != n:
        raise op_value_error(op, f"scale_factor {scale_factor} needs {n} entries for x {x.aval.str_short()}")
    if min(scales) <= 0:
        raise op_value_error(op, f"scale_factor {scale_factor} must be positive")
    out = [int(np.floor(x.aval.shape[a] * s)) for a, s in zip(sp, scales)]
    if min(out) < 1:
        raise op_value_error(op, f"scale_factor {scale_factor} gives an empty output for x {x.aval.str_short()}")
    return out, [None] * n if recompute_scale_factor else scales


def _ratio(mode: str, n: int, m: int, scale: float | None, align_corners: bool) -> float:
    """Source step per output step. For a single output Paddle's 2-D kernels (bilinear, bicubic)
    and align_corners take 0; its linear and trilinear kernels keep 1/scale or n/m."""
    if m <= 1 and (align_corners or mode in ("bilinear", "bicubic", "nearest")):
        return 0.0
    if align_corners:
        return (n - 1) / (m - 1)
    return 1.0 / scale if scale else n / m


def _cubic(t: np.ndarray) -> list[np.ndarray]:
    """Keys' cubic convolution weights of the 4 taps at offsets -1, 0, 1, 2 for fraction t."""
    a = _CUBIC_A

    def near(d):  # |d| <= 1
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d):  # 1 < |d| < 2
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _taps(mode: str, n: int, m: int, scale: float | None, align_corners: bool, align_mode: int):
    """(indices [k, m], weights [k, m]) of the k source taps of each output index along one axis."""
    r = _ratio(mode, n, m, scale, align_corners)
    i = np.arange(m, dtype=np.float64)
    if mode == "nearest":
        idx = np.minimum(np.floor(r * i).astype(np.int64), n - 1)
        return idx[None], np.ones((1, m))
    if mode == "bicubic":
        src = r * i if align_corners else r * (i + 0.5) - 0.5
        base = np.floor(src)
        t = src - base
        idx = [np.clip(base.astype(np.int64) + k, 0, n - 1) for k in (-1, 0, 1, 2)]
        return np.stack(idx), np.stack(_cubic(t))
    half = align_mode == 0 and not align_corners
    src = np.maximum(r * (i + 0.5) - 0.5, 0.0) if half else r * i
    lo = np.minimum(src.astype(np.int64), n - 1)
    hi = np.minimum(lo + 1, n - 1)
    lam = src - lo
    return np.stack([lo, hi]), np.stack([1 - lam, lam])


def _aa_filter(mode: str, d: np.ndarray) -> np.ndarray:
    """The antialiasing filter at offsets d: a triangle (bilinear) or the cubic with A = -0.5 (bicubic)."""
    d = np.abs(d)
    if mode == "bilinear":
        return np.maximum(0.0, 1.0 - d)
    a = -0.5
    return np.where(d < 1, ((a + 2) * d - (a + 3)) * d * d + 1,
                    np.where(d < 2, (((d - 5) * d + 8) * d - 4) * a, 0.0))


def _aa_taps(mode: str, n: int, m: int, scale: float | None, align_corners: bool):
    """(indices [k, m], weights [k, m]) of antialiased resizing along one axis; windows shorter than k
    repeat their last index with weight 0."""
    if align_corners:
        r = (n - 1) / (m - 1) if m > 1 else 0.0
    else:
        r = 1.0 / scale if scale else n / m
    half = (2.0 if mode == "bilinear" else 4.0) * 0.5
    support = half * r if r >= 1.0 else half
    inv = 1.0 / r if r >= 1.0 else 1.0
    rows = []
    for i in range(m):
        center = r * (i + 0.5)
        lo = max(int(center - support + 0.5), 0)   # int() truncates toward 0, as the reference kernels do
        hi = min(int(center + support + 0.5), n)
        j = np.arange(lo, max(hi, lo + 1))
        w = _aa_filter(mode, (j - center + 0.5) * inv) if hi > lo else np.zeros(1)
        total = w.sum()
        rows.append((np.minimum(j, n - 1), w / total if total != 0 else w))
    k = max(len(j) for j, _ in rows)
    idx = np.stack([np.pad(j, (0, k - len(j)), mode="edge") for j, _ in rows], axis=1)
    w = np.stack([np.pad(w, (0, k - len(w))) for _, w in rows], axis=1)
    return idx, w


def _resize_axis(x: Any, axis: int, idx: np.ndarray, w: np.ndarray) -> Any:
    """sum_k w[k] * x[..., idx[k], ...] along `axis`."""
    k, m = idx.shape
    if k == 1:
        return take_axis(x, asarray(idx[0].astype(np.int32)), axis)
    g = take_axis(x, asarray(idx.reshape(-1).astype(np.int32)), axis)
    shape = list(x.aval.shape)
    g = reshape(g, shape[:axis] + [k, m] + shape[axis + 1:])
    wshape = [1] * (len(shape) + 1)
    wshape[axis], wshape[axis + 1] = k, m
    return R.sum(M.multiply(g, asarray(w.reshape(wshape).astype(x.aval.dtype))), axis=axis)


def interpolate(x: Any, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                align_corners: bool = False, align_mode: int = 0, data_format: str | None = None,
                recompute_scale_factor: bool | None = None, antialias: bool = False, name: str | None = None) -> Any:
    """Resize the spatial axes of a 3-D/4-D/5-D x to `size` (or by `scale_factor`) with mode
    'nearest' (4-D/5-D), 'linear' (3-D), 'bilinear'/'bicubic' (4-D), 'trilinear' (5-D) or 'area'.

    Args:
        size: the output's spatial sizes (an int or a list); or scale_factor: a number or one per spatial axis.
        align_corners: map the corner pixels of input and output onto each other (linear family and bicubic).
        align_mode: without align_corners, 0 samples at half-pixel centres ((i + 0.5) * scale - 0.5),
            1 at i * scale (linear family only).
        data_format: 'NCW', 'NCHW', 'NCDHW' or their channel-last forms (default: channel-first).
        recompute_scale_factor: with scale_factor, map coordinates by the output size rather than the scale.
        antialias: bilinear/bicubic only; when shrinking, average over every input pixel an output covers.

    Returns:
        The resized Tensor, of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[[1.0, 3.0]]])  # [N, C, W]
        >>> F.interpolate(x, scale_factor=2, mode="linear").tolist()
        [[[1.0, 1.5, 2.5, 3.0]]]
        >>> F.interpolate(x, size=[3], mode="linear", align_corners=True).tolist()
        [[[1.0, 2.0, 3.0]]]
        >>> F.interpolate(padax.ones([1, 2, 4, 4]), size=[2, 6], mode="bicubic").shape
        (1, 2, 2, 6)
    """
    op = "interpolate"
    x = arg(op, x, "x")
    nd = x.aval.ndim
    if nd not in _LAYOUTS:
        raise op_value_error(op, f"x must be 3-D, 4-D or 5-D, got {x.aval.str_short()}")
    if not isinstance(mode, str):
        raise op_type_error(op, f"mode must be a string (one of {sorted(_MODES)}), got {type(mode).__name__} {mode!r}")
    mode = mode.lower()
    if mode not in _MODES:
        raise op_value_error(op, f"mode must be one of {sorted(_MODES)}, got {mode!r}")
    ranks = _MODES[mode] if isinstance(_MODES[mode], tuple) else (_MODES[mode],)
    if nd not in ranks:
        raise op_value_error(op, f"mode {mode!r} needs a {' or '.join(f'{r}-D' for r in ranks)} x, got "
                                 f"{x.aval.str_short()}")
    if not isinstance(align_corners, bool):
        raise op_type_error(op, f"align_corners must be a bool, got {align_corners!r}")
    if not isinstance(antialias, bool):
        raise op_type_error(op, f"antialias must be a bool, got {antialias!r}")
    if antialias and mode not in ("bilinear", "bicubic"):
        raise op_value_error(op, f"antialias is only supported by the bilinear and bicubic modes, not {mode!r}")
    if align_mode not in (0, 1):
        raise op_value_error(op, f"align_mode must be 0 or 1, got {align_mode!r}")
    if align_corners and mode in ("nearest", "area"):
        raise op_value_error(op, f"align_corners can only be set with the linear, bilinear, bicubic and trilinear "
                                 f"modes, not {mode!r}")
    fmt = (data_format or _LAYOUTS[nd][0]).upper()
    if fmt not in _LAYOUTS[nd]:
        raise op_value_error(op, f"data_format {data_format!r} does not fit a {nd}-D x; expected one of "
                                 f"{_LAYOUTS[nd]}")
    last = fmt[-1] == "C"
    sp = tuple(range(1, nd - 1)) if last else tuple(range(2, nd))
    if mode == "area":
        if size is None:
            raise op_value_error(op, "mode 'area' needs size")
        formats = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}[nd]
        return _adaptive_avg(op, nd - 2, x, size, formats[1] if last else formats[0])
    out, scales = _sizes(op, x, sp, size, scale_factor, recompute_scale_factor)
    dt = x.aval.dtype
    y = x if dtypes.is_floating(dt) and dt not in LOW_PRECISION else M.cast(x, dtypes.float32)
    for a, m, s in reversed(list(zip(sp, out, scales))):   # the last axis first, as Paddle's kernels
        n = x.aval.shape[a]
        idx, w = _aa_taps(mode, n, m, s, align_corners) if antialias else _taps(mode, n, m, s, align_corners,
                                                                                  align_mode)
        y = _resize_axis(y, a, idx, w)
    return M.cast(y, dt)   # integer images truncate, as Paddle's kernels do


def upsample(x: Any, size: Any = None, scale_factor: Any = None, mode: str = "nearest", align_corners: bool = False,
             align_mode: int = 0, data_format: str | None = None, name: str | None = None) -> Any:
    """The same as interpolate.

    Args:
        x, size, scale_factor, mode, align_corners, align_mode, data_format: as interpolate.

    Returns:
        The resized Tensor, of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.upsample(padax.to_tensor([[[[1.0, 2.0]]]]), scale_factor=2, mode="nearest").tolist()
        [[[[1.0, 1.0, 2.0, 2.0], [1.0, 1.0, 2.0, 2.0]]]]
    """
    return interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format)
