"""Padding, resampling and rearranging layers with Paddle's names and defaults: Pad1D/2D/3D and their
Constant/Zero/Reflection/Replication/Circular variants, Upsample, UpsamplingNearest2D/Bilinear2D,
PixelShuffle/PixelUnshuffle, ChannelShuffle, Unfold/Fold, CosineSimilarity, PairwiseDistance."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.core.errors import op_type_error as _op_type_error
from padax.functional._docs import example_doc
from padax.nn import functional as F
from padax.nn.layer._functional import FunctionalLayer

_PAD_FORMATS = {1: "NCL", 2: "NCHW", 3: "NCDHW"}


class _PadNd(FunctionalLayer):
    """F.pad with `padding` an int (every side) or 2*n ints (before/after pairs, last spatial axis first)."""

    _op = staticmethod(F.pad)
    _n: int = 1

    def __init__(self, padding: Any, mode: str = "constant", value: float = 0.0, data_format: str | None = None,
                 name: str | None = None) -> None:
        pad = [int(padding)] * (2 * self._n) if isinstance(padding, (int, np.integer)) else padding
        super().__init__(pad=pad, mode=mode, value=value, data_format=data_format or _PAD_FORMATS[self._n])
        self._ranks = (self._n + 2,)

    def extra_repr(self) -> str:
        s = self._settings
        return f"padding={s['pad']}, mode={s['mode']}, value={s['value']}, data_format={s['data_format']}"


def _fixed_mode_init(mode: str, fmt: str) -> Any:
    """The constructor (padding, data_format, name) of a Pad*D variant with a fixed mode."""

    def init(self: Any, padding: Any, data_format: str = fmt, name: str | None = None) -> None:
        _PadNd.__init__(self, padding, mode, 0.0, data_format)

    return init


# Each Pad*D class's docstring example: the input of its rank, how it is shown, the padding used, and the
# expected output per class (checked by the doctests).
_PAD_DEMO = {1: ("padax.to_tensor([[[1.0, 2.0, 3.0]]])", ".tolist()", "1"),
             2: ("padax.to_tensor([[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]])", ".tolist()", "[1, 0, 0, 0]"),
             3: ("padax.arange(8, dtype='float32').reshape([1, 1, 2, 2, 2])", "[0, 0, 0, 0].tolist()",
                 "[1, 1, 0, 0, 0, 0]")}
_PAD_OUT = {
    "Pad1D": "[[[0.0, 1.0, 2.0, 3.0, 0.0]]]",
    "ConstantPad1D": "[[[9.0, 1.0, 2.0, 3.0, 9.0]]]",
    "ZeroPad1D": "[[[0.0, 1.0, 2.0, 3.0, 0.0]]]",
    "ReflectionPad1D": "[[[2.0, 1.0, 2.0, 3.0, 2.0]]]",
    "ReplicationPad1D": "[[[1.0, 1.0, 2.0, 3.0, 3.0]]]",
    "CircularPad1D": "[[[3.0, 1.0, 2.0, 3.0, 1.0]]]",
    "Pad2D": "[[[[0.0, 1.0, 2.0, 3.0], [0.0, 4.0, 5.0, 6.0]]]]",
    "ConstantPad2D": "[[[[9.0, 1.0, 2.0, 3.0], [9.0, 4.0, 5.0, 6.0]]]]",
    "ZeroPad2D": "[[[[0.0, 1.0, 2.0, 3.0], [0.0, 4.0, 5.0, 6.0]]]]",
    "ReflectionPad2D": "[[[[2.0, 1.0, 2.0, 3.0], [5.0, 4.0, 5.0, 6.0]]]]",
    "ReplicationPad2D": "[[[[1.0, 1.0, 2.0, 3.0], [4.0, 4.0, 5.0, 6.0]]]]",
    "CircularPad2D": "[[[[3.0, 1.0, 2.0, 3.0], [6.0, 4.0, 5.0, 6.0]]]]",
    "Pad3D": "[0.0, 0.0, 1.0, 0.0]",
    "ConstantPad3D": "[9.0, 0.0, 1.0, 9.0]",
    "ZeroPad3D": "[0.0, 0.0, 1.0, 0.0]",
    "ReflectionPad3D": "[1.0, 0.0, 1.0, 0.0]",
    "ReplicationPad3D": "[0.0, 0.0, 1.0, 1.0]",
    "CircularPad3D": "[1.0, 0.0, 1.0, 0.0]",
}


def _pad_doc(summary: str, name: str, n: int) -> str:
    """`summary`, the Args/Returns text of class `name` and a doctest example padding the demo input of rank n."""
    x, view, padding = _PAD_DEMO[n]
    args = padding + (", value=9.0" if name.startswith("Constant") else "")
    fmt = _PAD_FORMATS[n]
    lines = [f"padding: an int (the same on every side) or {2 * n} ints (before/after pairs, the last spatial "
             "axis first)."]
    if name == f"Pad{n}D":
        lines.append("mode: 'constant', 'reflect', 'replicate' or 'circular'.")
    if name in (f"Pad{n}D", f"ConstantPad{n}D"):
        lines.append("value: the fill value of 'constant' mode.")
    last = fmt[0] + fmt[2:] + "C"
    lines.append(f"data_format: {fmt!r} (channels first) or {last!r} (channels last).")
    return example_doc(summary, [(f"x = {x}", ""), (f"padax.nn.{name}({args})(x){view}", _PAD_OUT[name])],
                       args="\n        ".join(lines),
                       returns=f"layer(x): x of rank {n + 2} ({fmt}) -> x padded, same dtype.")


def _pad_classes(n: int) -> dict[str, type]:
    """Pad{n}D and its fixed-mode variants (Paddle's ConstantPad{n}D, ZeroPad{n}D, ...)."""
    fmt = _PAD_FORMATS[n]

    def pad_init(self: Any, padding: Any, mode: str = "constant", value: float = 0.0, data_format: str = fmt,
                 name: str | None = None) -> None:
        _PadNd.__init__(self, padding, mode, value, data_format)

    summary = (f"Pads the {n} spatial axes of a {fmt} input (F.pad): `padding` is an int (every side) or "
               f"{2 * n} ints (before/after pairs, the last axis first); mode 'constant' (with `value`), "
               "'reflect', 'replicate' or 'circular'.")
    base = type(f"Pad{n}D", (_PadNd,), {"_n": n, "__init__": pad_init, "__module__": __name__,
                                        "__doc__": _pad_doc(summary, f"Pad{n}D", n)})
    out = {base.__name__: base}

    def constant_init(self: Any, padding: Any, value: float, data_format: str = fmt, name: str | None = None):
        _PadNd.__init__(self, padding, "constant", value, data_format)

    out[f"ConstantPad{n}D"] = type(f"ConstantPad{n}D", (base,), {
        "__init__": constant_init, "__module__": __name__,
        "__doc__": _pad_doc(f"Pad{n}D with a constant value.", f"ConstantPad{n}D", n)})
    for prefix, mode in (("Zero", "constant"), ("Reflection", "reflect"), ("Replication", "replicate"),
                         ("Circular", "circular")):
        cls_name = f"{prefix}Pad{n}D"
        out[cls_name] = type(cls_name, (base,), {"__init__": _fixed_mode_init(mode, fmt), "__module__": __name__,
                                                 "__doc__": _pad_doc(f"Pad{n}D in {mode!r} mode.", cls_name, n)})
    return out


for _n in (1, 2, 3):
    globals().update(_pad_classes(_n))


class Upsample(FunctionalLayer):
    """Resizes an NCW/NCHW/NCDHW (or channel-last) input by F.interpolate.

    Args:
        size: the output spatial size (an int or one int per spatial axis); give this or `scale_factor`.
        scale_factor: a float or one per spatial axis multiplying the input size.
        mode: 'nearest', 'linear', 'bilinear', 'trilinear', 'bicubic' or 'area'.
        align_corners: align the corner pixels of input and output (linear modes).
        align_mode: without align_corners, 0 samples at half-pixel centres, 1 at i * scale (linear modes).
        data_format: 'NCW'/'NCHW'/'NCDHW' (default for the input's rank) or the channels-last form.
        recompute_scale_factor: with scale_factor, sample from the output size rather than the given factor.

    Returns:
        layer(x): a float tensor of rank 3-5 -> the resized tensor (same N and C).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> padax.nn.Upsample(scale_factor=2)(x).shape
        (1, 1, 4, 4)
        >>> padax.nn.Upsample(size=[1, 3], mode="bilinear", align_corners=True)(x).tolist()
        [[[[1.0, 1.5, 2.0]]]]
    """

    _op, _ranks, _floating = staticmethod(F.interpolate), (3, 4, 5), True

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest", align_corners: bool = False,
                 align_mode: int = 0, data_format: str | None = None, recompute_scale_factor: bool | None = None,
                 name: str | None = None) -> None:
        if not isinstance(mode, str):
            raise _op_type_error("Upsample", f"mode must be a string such as 'nearest' or 'bilinear', got "
                                            f"{type(mode).__name__}")
        super().__init__(size=size, scale_factor=scale_factor, mode=mode.lower(), align_corners=align_corners,
                         align_mode=align_mode, data_format=data_format,
                         recompute_scale_factor=recompute_scale_factor)


class UpsamplingNearest2D(FunctionalLayer):
    """Nearest-neighbour resizing of a 4-D input.

    Args:
        size: the output [H, W] (or one int); give this or `scale_factor`.
        scale_factor: a float or [fh, fw] multiplying H and W.
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        layer(x): a 4-D float tensor -> the resized 4-D tensor.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[[[1.0, 2.0]]]])
        >>> padax.nn.UpsamplingNearest2D(scale_factor=2)(x).tolist()
        [[[[1.0, 1.0, 2.0, 2.0], [1.0, 1.0, 2.0, 2.0]]]]
    """

    _op, _ranks, _floating = staticmethod(F.interpolate), (4,), True

    def __init__(self, size: Any = None, scale_factor: Any = None, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__(size=size, scale_factor=scale_factor, mode="nearest", align_corners=False, align_mode=0,
                         data_format=data_format)


class UpsamplingBilinear2D(FunctionalLayer):
    """Bilinear resizing of a 4-D input with align_corners=True (Paddle's choice for this layer).

    Args:
        size: the output [H, W] (or one int); give this or `scale_factor`.
        scale_factor: a float or [fh, fw] multiplying H and W.
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        layer(x): a 4-D float tensor -> the resized 4-D tensor.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[[[1.0, 2.0]]]])
        >>> padax.nn.UpsamplingBilinear2D(size=[1, 3])(x).tolist()
        [[[[1.0, 1.5, 2.0]]]]
    """

    _op, _ranks, _floating = staticmethod(F.interpolate), (4,), True

    def __init__(self, size: Any = None, scale_factor: Any = None, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__(size=size, scale_factor=scale_factor, mode="bilinear", align_corners=True, align_mode=0,
                         data_format=data_format)


class PixelShuffle(FunctionalLayer):
    """[N, C*r*r, H, W] -> [N, C, H*r, W*r].

    Args:
        upscale_factor: r, the factor by which H and W grow.
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        layer(x): x [N, C*r*r, H, W] -> [N, C, H*r, W*r] (NCHW).

    Examples:
        >>> import padax
        >>> x = padax.arange(4, dtype="float32").reshape([1, 4, 1, 1])
        >>> padax.nn.PixelShuffle(upscale_factor=2)(x).tolist()
        [[[[0.0, 1.0], [2.0, 3.0]]]]
    """

    _op, _ranks = staticmethod(F.pixel_shuffle), (4,)

    def __init__(self, upscale_factor: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(upscale_factor=upscale_factor, data_format=data_format)


class PixelUnshuffle(FunctionalLayer):
    """[N, C, H*r, W*r] -> [N, C*r*r, H, W].

    Args:
        downscale_factor: r, the factor by which H and W shrink (both must divide by r).
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        layer(x): x [N, C, H*r, W*r] -> [N, C*r*r, H, W] (NCHW).

    Examples:
        >>> import padax
        >>> x = padax.arange(4, dtype="float32").reshape([1, 1, 2, 2])
        >>> padax.nn.PixelUnshuffle(downscale_factor=2)(x).reshape([-1]).tolist()
        [0.0, 1.0, 2.0, 3.0]
    """

    _op, _ranks = staticmethod(F.pixel_unshuffle), (4,)

    def __init__(self, downscale_factor: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(downscale_factor=downscale_factor, data_format=data_format)


class ChannelShuffle(FunctionalLayer):
    """Interleaves the channels of `groups` groups.

    Args:
        groups: the number of channel groups (must divide C).
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        layer(x): a 4-D x -> the same shape with channels reordered.

    Examples:
        >>> import padax
        >>> x = padax.arange(6, dtype="float32").reshape([1, 6, 1, 1])
        >>> padax.nn.ChannelShuffle(groups=2)(x).reshape([-1]).tolist()
        [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    """

    _op, _ranks = staticmethod(F.channel_shuffle), (4,)

    def __init__(self, groups: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(groups=groups, data_format=data_format)


class Unfold(FunctionalLayer):
    """im2col: the sliding kernel_sizes blocks of an [N, C, H, W] input as columns [N, C*kh*kw, L].

    Args:
        kernel_sizes: the block size [kh, kw] (or one int).
        dilations, paddings, strides: an int or a list per spatial axis (paddings may also be 4 ints
            [top, left, bottom, right]).

    Returns:
        layer(x): x [N, C, H, W] -> columns [N, C*kh*kw, L], L the number of blocks.

    Examples:
        >>> import padax
        >>> x = padax.arange(9, dtype="float32").reshape([1, 1, 3, 3])
        >>> cols = padax.nn.Unfold(kernel_sizes=2)(x)
        >>> cols.shape, cols[0, :, 0].tolist()
        ((1, 4, 4), [0.0, 1.0, 3.0, 4.0])
    """

    _op, _ranks = staticmethod(F.unfold), (4,)

    def __init__(self, kernel_sizes: Any, dilations: Any = 1, paddings: Any = 0, strides: Any = 1,
                 name: str | None = None) -> None:
        super().__init__(kernel_sizes=kernel_sizes, dilations=dilations, paddings=paddings, strides=strides)


class Fold(FunctionalLayer):
    """col2im: sums columns [N, C*kh*kw, L] back into an [N, C, *output_sizes] image.

    Args:
        output_sizes: the image size [H, W] (or one int).
        kernel_sizes: the block size [kh, kw] (or one int).
        dilations, paddings, strides: an int or a list per spatial axis, as in Unfold.

    Returns:
        layer(x): columns [N, C*kh*kw, L] -> the image [N, C, H, W], overlapping blocks summed.

    Examples:
        >>> import padax
        >>> cols = padax.ones([1, 4, 4])  # [N, C*kh*kw, L]: four 2x2 blocks of ones
        >>> padax.nn.Fold(output_sizes=[3, 3], kernel_sizes=2)(cols).tolist()
        [[[[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]]]
    """

    _op, _ranks = staticmethod(F.fold), (3,)

    def __init__(self, output_sizes: Any, kernel_sizes: Any, dilations: Any = 1, paddings: Any = 0,
                 strides: Any = 1, name: str | None = None) -> None:
        super().__init__(output_sizes=output_sizes, kernel_sizes=kernel_sizes, dilations=dilations,
                         paddings=paddings, strides=strides)


class CosineSimilarity(FunctionalLayer):
    """Cosine similarity of two inputs along `axis`.

    Args:
        axis: the axis along which the similarity is taken.
        eps: a lower bound on the norms, avoiding division by zero.

    Returns:
        layer(x1, x2): two broadcastable tensors -> their similarity with `axis` removed.

    Examples:
        >>> import padax
        >>> a, b = padax.to_tensor([[1.0, 0.0], [1.0, 1.0]]), padax.to_tensor([[0.0, 1.0], [2.0, 2.0]])
        >>> padax.nn.CosineSimilarity(axis=1)(a, b).tolist()
        [0.0, 1.0]
    """

    _op = staticmethod(F.cosine_similarity)

    def __init__(self, axis: int = 1, eps: float = 1e-08) -> None:
        super().__init__(axis=axis, eps=eps)


class PairwiseDistance(FunctionalLayer):
    """The p-norm of x - y + epsilon along the last axis.

    Args:
        p: the order of the norm.
        epsilon: added to x - y before the norm (keeps the gradient finite at x == y).
        keepdim: keep the reduced last axis with size 1.

    Returns:
        layer(x, y): two [N, D] (or [D]) tensors -> the distances [N] ([N, 1] with keepdim).

    Examples:
        >>> import padax
        >>> x, y = padax.to_tensor([[0.0, 0.0], [1.0, 1.0]]), padax.to_tensor([[3.0, 4.0], [1.0, 1.0]])
        >>> padax.nn.PairwiseDistance(epsilon=0.0)(x, y).tolist()
        [5.0, 0.0]
        >>> padax.nn.PairwiseDistance(p=1, epsilon=0.0, keepdim=True)(x, y).tolist()
        [[7.0], [0.0]]
    """

    _op = staticmethod(F.pairwise_distance)

    def __init__(self, p: float = 2.0, epsilon: float = 1e-06, keepdim: bool = False,
                 name: str | None = None) -> None:
        super().__init__(p=p, epsilon=epsilon, keepdim=keepdim)
