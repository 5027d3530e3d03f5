"""Padding, resampling and rearranging layers with Paddle's names and defaults: Pad1D/2D/3D and their
Constant/Zero/Reflection/Replication/Circular variants, Upsample, UpsamplingNearest2D/Bilinear2D,
PixelShuffle/PixelUnshuffle, ChannelShuffle, Unfold/Fold, CosineSimilarity, PairwiseDistance."""
from __future__ import annotations

from typing import Any

import numpy as np

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


def _pad_classes(n: int) -> dict[str, type]:
    """Pad{n}D and its fixed-mode variants (Paddle's ConstantPad{n}D, ZeroPad{n}D, ...)."""
    fmt = _PAD_FORMATS[n]

    def pad_init(self: Any, padding: Any, mode: str = "constant", value: float = 0.0, data_format: str = fmt,
                 name: str | None = None) -> None:
        _PadNd.__init__(self, padding, mode, value, data_format)

    base = type(f"Pad{n}D", (_PadNd,), {"_n": n, "__init__": pad_init, "__module__": __name__,
                                        "__doc__": f"Pads the {n} spatial axes of a {fmt} input (F.pad)."})
    out = {base.__name__: base}

    def constant_init(self: Any, padding: Any, value: float, data_format: str = fmt, name: str | None = None):
        _PadNd.__init__(self, padding, "constant", value, data_format)

    out[f"ConstantPad{n}D"] = type(f"ConstantPad{n}D", (base,), {
        "__init__": constant_init, "__module__": __name__, "__doc__": f"Pad{n}D with a constant value."})
    for prefix, mode in (("Zero", "constant"), ("Reflection", "reflect"), ("Replication", "replicate"),
                         ("Circular", "circular")):
        cls_name = f"{prefix}Pad{n}D"
        out[cls_name] = type(cls_name, (base,), {"__init__": _fixed_mode_init(mode, fmt), "__module__": __name__,
                                                 "__doc__": f"Pad{n}D in {mode!r} mode."})
    return out


for _n in (1, 2, 3):
    globals().update(_pad_classes(_n))


class Upsample(FunctionalLayer):
    """Resizes an NCW/NCHW/NCDHW (or channel-last) input by F.interpolate."""

    _op, _ranks, _floating = staticmethod(F.interpolate), (3, 4, 5), True

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest", align_corners: bool = False,
                 align_mode: int = 0, data_format: str | None = None, recompute_scale_factor: bool | None = None,
                 name: str | None = None) -> None:
        if not isinstance(mode, str):
            from padax.core.errors import op_type_error
            raise op_type_error("Upsample", f"mode must be a string such as 'nearest' or 'bilinear', got "
                                            f"{type(mode).__name__}")
        super().__init__(size=size, scale_factor=scale_factor, mode=mode.lower(), align_corners=align_corners,
                         align_mode=align_mode, data_format=data_format,
                         recompute_scale_factor=recompute_scale_factor)


class UpsamplingNearest2D(FunctionalLayer):
    """Nearest-neighbour resizing of a 4-D input."""

    _op, _ranks, _floating = staticmethod(F.interpolate), (4,), True

    def __init__(self, size: Any = None, scale_factor: Any = None, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__(size=size, scale_factor=scale_factor, mode="nearest", align_corners=False, align_mode=0,
                         data_format=data_format)


class UpsamplingBilinear2D(FunctionalLayer):
    """Bilinear resizing of a 4-D input with align_corners=True (Paddle's choice for this layer)."""

    _op, _ranks, _floating = staticmethod(F.interpolate), (4,), True

    def __init__(self, size: Any = None, scale_factor: Any = None, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__(size=size, scale_factor=scale_factor, mode="bilinear", align_corners=True, align_mode=0,
                         data_format=data_format)


class PixelShuffle(FunctionalLayer):
    """[N, C*r*r, H, W] -> [N, C, H*r, W*r]."""

    _op, _ranks = staticmethod(F.pixel_shuffle), (4,)

    def __init__(self, upscale_factor: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(upscale_factor=upscale_factor, data_format=data_format)


class PixelUnshuffle(FunctionalLayer):
    """[N, C, H*r, W*r] -> [N, C*r*r, H, W]."""

    _op, _ranks = staticmethod(F.pixel_unshuffle), (4,)

    def __init__(self, downscale_factor: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(downscale_factor=downscale_factor, data_format=data_format)


class ChannelShuffle(FunctionalLayer):
    """Interleaves the channels of `groups` groups."""

    _op, _ranks = staticmethod(F.channel_shuffle), (4,)

    def __init__(self, groups: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(groups=groups, data_format=data_format)


class Unfold(FunctionalLayer):
    """im2col: the sliding kernel_sizes blocks of an [N, C, H, W] input as columns [N, C*kh*kw, L]."""

    _op, _ranks = staticmethod(F.unfold), (4,)

    def __init__(self, kernel_sizes: Any, dilations: Any = 1, paddings: Any = 0, strides: Any = 1,
                 name: str | None = None) -> None:
        super().__init__(kernel_sizes=kernel_sizes, dilations=dilations, paddings=paddings, strides=strides)


class Fold(FunctionalLayer):
    """col2im: sums columns [N, C*kh*kw, L] back into an [N, C, *output_sizes] image."""

    _op, _ranks = staticmethod(F.fold), (3,)

    def __init__(self, output_sizes: Any, kernel_sizes: Any, dilations: Any = 1, paddings: Any = 0,
                 strides: Any = 1, name: str | None = None) -> None:
        super().__init__(output_sizes=output_sizes, kernel_sizes=kernel_sizes, dilations=dilations,
                         paddings=paddings, strides=strides)


class CosineSimilarity(FunctionalLayer):
    """Cosine similarity of two inputs along `axis`."""

    _op = staticmethod(F.cosine_similarity)

    def __init__(self, axis: int = 1, eps: float = 1e-08) -> None:
        super().__init__(axis=axis, eps=eps)


class PairwiseDistance(FunctionalLayer):
    """The p-norm of x - y + epsilon along the last axis."""

    _op = staticmethod(F.pairwise_distance)

    def __init__(self, p: float = 2.0, epsilon: float = 1e-06, keepdim: bool = False,
                 name: str | None = None) -> None:
        super().__init__(p=p, epsilon=epsilon, keepdim=keepdim)
