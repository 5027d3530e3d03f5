"""Windowed reductions (pooling): reduce_window_sum / _max / _min.

Params: window_dimensions, window_strides, padding ((lo, hi) per dim, padded
with the reduction's identity), base_dilation and window_dilation, one entry
per operand dimension, as in XLA's ReduceWindow.
"""
from __future__ import annotations

from typing import Sequence

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray

reduce_window_primitives: dict[str, Primitive] = {}


def reduce_window_shape(op: str, aval: ShapedArray, window_dimensions, window_strides, padding,
                        base_dilation, window_dilation) -> tuple[int, ...]:
    """Output shape of a windowed reduction (raises the user-facing error on bad params)."""
    nd = aval.ndim
    for pname, p in (("window_dimensions", window_dimensions), ("window_strides", window_strides),
                     ("padding", padding), ("base_dilation", base_dilation),
                     ("window_dilation", window_dilation)):
        if len(p) != nd:
            raise op_value_error(op, f"{pname} {tuple(p)} needs one entry per dimension of {aval.str_short()}")
    for pname, p in (("window_dimensions", window_dimensions), ("window_strides", window_strides),
                     ("base_dilation", base_dilation), ("window_dilation", window_dilation)):
        if any(v < 1 for v in p):
            raise op_value_error(op, f"{pname} {tuple(p)} must be positive (operand {aval.str_short()})")
    out = []
    for d, w, s, (lo, hi), bd, wd in zip(aval.shape, window_dimensions, window_strides, padding,
                                         base_dilation, window_dilation):
        padded = (max(d - 1, 0) * bd + 1 if d else 0) + lo + hi
        if padded < 0:
            raise op_value_error(op, f"padding {tuple(padding)} removes more than all of {aval.str_short()}")
        eff = (w - 1) * wd + 1
        out.append(0 if padded < eff else (padded - eff) // s + 1)
    return tuple(out)


def _window_prim(name: str, ordered: bool) -> Primitive:
    prim = Primitive(name)

    @prim.def_abstract_eval
    def _abstract(x: ShapedArray, *, window_dimensions, window_strides, padding, base_dilation,
                  window_dilation) -> ShapedArray:
        if ordered and dtypes.is_complex(x.dtype):
            raise op_type_error(name, f"complex operands have no order, got {x.str_short()}")
        shape = reduce_window_shape(name, x, window_dimensions, window_strides, padding,
                                    base_dilation, window_dilation)
        return ShapedArray(shape, x.dtype, x.weak_type)

    reduce_window_primitives[name] = prim
    return prim


reduce_window_sum_p = _window_prim("reduce_window_sum", ordered=False)
reduce_window_max_p = _window_prim("reduce_window_max", ordered=True)
reduce_window_min_p = _window_prim("reduce_window_min", ordered=True)


def padtype_to_pads(in_shape: Sequence[int], window_dimensions: Sequence[int],
                    window_strides: Sequence[int], padding: str) -> tuple[tuple[int, int], ...]:
    """'VALID' -> no padding; 'SAME' -> ceil(n / stride) outputs, extra padding at the end."""
    p = padding.upper()
    if p == "VALID":
        return tuple((0, 0) for _ in in_shape)
    if p != "SAME":
        raise ValueError(f"padding must be 'VALID', 'SAME' or a sequence of (lo, hi) pairs, got {padding!r}")
    pads = []
    for n, w, s in zip(in_shape, window_dimensions, window_strides):
        out = -(-n // s)
        total = max((out - 1) * s + w - n, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def _wrapper(prim: Primitive):
    def fn(operand, window_dimensions, window_strides=None, padding="VALID", base_dilation=None,
           window_dilation=None):
        x = asarray(operand)
        nd = x.aval.ndim
        wdims = tuple(int(w) for w in window_dimensions)
        strides = (1,) * nd if window_strides is None else tuple(int(s) for s in window_strides)
        bdil = (1,) * nd if base_dilation is None else tuple(int(b) for b in base_dilation)
        wdil = (1,) * nd if window_dilation is None else tuple(int(w) for w in window_dilation)
        if isinstance(padding, str):
            if len(wdims) != nd or len(strides) != nd or len(bdil) != nd or len(wdil) != nd:
                raise op_value_error(prim.name, f"window parameters need one entry per dimension of "
                                                f"{x.aval.str_short()}")
            dilated = tuple(max(d - 1, 0) * b + 1 if d else 0 for d, b in zip(x.aval.shape, bdil))
            eff = tuple((w - 1) * d + 1 for w, d in zip(wdims, wdil))
            pads = padtype_to_pads(dilated, eff, strides, padding)
        else:
            pads = tuple((int(lo), int(hi)) for lo, hi in padding)
        return prim.bind(x, window_dimensions=wdims, window_strides=strides, padding=pads,
                         base_dilation=bdil, window_dilation=wdil)
    fn.__name__ = prim.name
    fn.__doc__ = (f"`{prim.name}` over sliding windows; `padding` is (lo, hi) pairs or 'VALID'/'SAME' "
                  "(lax level).")
    return fn


reduce_window_sum, reduce_window_max, reduce_window_min = (
    _wrapper(p) for p in (reduce_window_sum_p, reduce_window_max_p, reduce_window_min_p))

__all__ = ["reduce_window_sum", "reduce_window_max", "reduce_window_min"]
