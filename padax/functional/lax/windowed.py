"""Windowed reductions (pooling): reduce_window_sum / _max / _min.

Params: window_dimensions, window_strides, padding ((lo, hi) per dim, padded
with the reduction's identity), base_dilation and window_dilation, one entry
per operand dimension, as in XLA's ReduceWindow.
"""
from __future__ import annotations

import itertools
from typing import Sequence

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, deflinear
from padax.core.errors import input_error, op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray, full
from padax.functional._docs import LAX_IMPORTS, example_doc
from padax.functional.lax.elementwise import add, bitwise_and, bitwise_not, bitwise_or, eq, mul
from padax.functional.lax.structural import convert_element_type, pad, slice as lslice

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
    if any(int(s) < 1 for s in window_strides):
        raise input_error(ValueError, f"window_strides {tuple(window_strides)} must be positive")
    pads = []
    for n, w, s in zip(in_shape, window_dimensions, window_strides):
        out = -(-n // s)
        total = max((out - 1) * s + w - n, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


# name -> (what it reduces with, its example's results with windows of 2 and 'SAME' windows of 3)
_EXAMPLES = {"reduce_window_sum": ("sum", "[4.0, 5.0, 7.0, 9.0]", "[4.0, 10.0, 9.0]"),
             "reduce_window_max": ("maximum", "[3.0, 3.0, 5.0, 5.0]", "[3.0, 5.0, 5.0]"),
             "reduce_window_min": ("minimum", "[1.0, 2.0, 2.0, 4.0]", "[1.0, 2.0, 4.0]")}


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
            if any(v < 1 for v in wdims + strides + bdil + wdil):
                raise op_value_error(prim.name, f"window_dimensions {wdims}, window_strides {strides}, base_dilation "
                                                f"{bdil} and window_dilation {wdil} must be positive (operand "
                                                f"{x.aval.str_short()})")
            dilated = tuple(max(d - 1, 0) * b + 1 if d else 0 for d, b in zip(x.aval.shape, bdil))
            eff = tuple((w - 1) * d + 1 for w, d in zip(wdims, wdil))
            pads = padtype_to_pads(dilated, eff, strides, padding)
        else:
            pads = tuple((int(lo), int(hi)) for lo, hi in padding)
        return prim.bind(x, window_dimensions=wdims, window_strides=strides, padding=pads,
                         base_dilation=bdil, window_dilation=wdil)
    what, valid, same = _EXAMPLES[prim.name]
    fn.__name__ = fn.__qualname__ = prim.name
    fn.__doc__ = example_doc(
        f"The {what} of every sliding window of `operand` (lax level).",
        [("x = padax.to_tensor([1.0, 3.0, 2.0, 5.0, 4.0])", ""), (f"lax.{prim.name}(x, (2,), (1,)).tolist()", valid),
         (f"lax.{prim.name}(x, (3,), (2,), 'SAME').tolist()   # padded by 1 on each side", same)],
        imports=LAX_IMPORTS, returns="An array of operand's dtype, one element per window.",
        args=("operand: an array.\n        window_dimensions: the window's size along each dimension.\n"
              "        window_strides: the step between windows (default 1 everywhere).\n"
              "        padding: 'VALID' (none), 'SAME' (ceil(n / stride) windows) or (lo, hi) pairs.\n"
              "        base_dilation, window_dilation: gaps inserted between operand / window elements."))
    return fn


reduce_window_sum, reduce_window_max, reduce_window_min = (
    _wrapper(p) for p in (reduce_window_sum_p, reduce_window_max_p, reduce_window_min_p))

def reduce_window(operand, init_value, computation, window_dimensions, window_strides, padding,
                  base_dilation=None, window_dilation=None):
    """jax's generic lax.reduce_window for the monoids XLA reduces windows with: `computation` is
    lax.add (init 0), lax.max (init -inf or the dtype's minimum) or lax.min (init +inf or maximum).

    Args:
        operand: an array.
        init_value: the computation's identity (padding takes it).
        computation: lax.add, lax.max or lax.min (or padax's add/maximum/minimum).
        window_dimensions, window_strides, padding, base_dilation, window_dilation: as in reduce_window_sum.

    Returns:
        An array of operand's dtype, one element per window.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.reduce_window(padax.to_tensor([1.0, 3.0, 2.0]), -float("inf"), lax.max, (2,), (1,), "VALID").tolist()
        [3.0, 3.0]
    """
    name = getattr(computation, "__name__", repr(computation))
    kind = {"add": "sum", "max": "max", "maximum": "max", "min": "min", "minimum": "min"}.get(name)
    if kind is None:
        raise op_type_error("reduce_window", f"padax reduces windows with lax.add, lax.max or lax.min; got "
                                             f"{name}. Write other reductions from these (or from slices)")
    x = asarray(operand)
    init = np.asarray(init_value if not hasattr(init_value, "shape") else np.asarray(init_value)).astype(
        x.aval.dtype)
    if kind == "sum":
        identity = np.zeros((), x.aval.dtype)
    elif dtypes.is_inexact(x.aval.dtype):
        identity = np.asarray(-np.inf if kind == "max" else np.inf, x.aval.dtype)
    else:
        info = np.iinfo(x.aval.dtype) if x.aval.dtype != np.bool_ else None
        identity = np.asarray((info.min if kind == "max" else info.max) if info else kind == "min")
    if init.shape != () or init != identity:
        raise op_value_error("reduce_window", f"init_value {init_value!r} is not the identity of {name} for "
                                              f"{x.aval.dtype.name} ({identity.item()!r}); padax takes the identity only")
    fn = {"sum": reduce_window_sum, "max": reduce_window_max, "min": reduce_window_min}[kind]
    return fn(x, window_dimensions, window_strides, padding, base_dilation, window_dilation)


__all__ = ["reduce_window", "reduce_window_sum", "reduce_window_max", "reduce_window_min"]


# ---- differentiation and batching ----------------------------------------------------------
# reduce_window_sum is linear; its transpose spreads each cotangent over its window (pad the
# cotangent, then a stride-base_dilation window sum). max/min send each output's tangent to
# the first window entry (in window order) equal to the output, as XLA's SelectAndScatter and
# Paddle's pooling gradients do; undilated windows use select_and_gather_add, whose transpose
# is select_and_scatter_add.


def _reduce_window_sum_transpose(ct, x, *, window_dimensions, window_strides, padding,
                                 base_dilation, window_dilation):
    if type(ct) is Zero:
        return [None]
    in_shape = x.aval.shape
    ct_shape = get_aval(ct).shape
    if 0 in in_shape or 0 in ct_shape:
        return [full(in_shape, 0, x.aval.dtype)]
    cfg = []
    for n, m, w, s, (lo, _), bd, wd in zip(in_shape, ct_shape, window_dimensions, window_strides,
                                            padding, base_dilation, window_dilation):
        eff = (w - 1) * wd + 1
        lo_ct = eff - 1 - lo                               # cotangent of output m sits at m*s + lo_ct
        hi_ct = (n - 1) * bd + eff - lo_ct - ((m - 1) * s + 1)  # total length (n-1)*bd + eff
        cfg.append((lo_ct, hi_ct, s - 1))
    ones = (1,) * len(in_shape)
    padded = pad(ct, 0, cfg)
    return [reduce_window_sum_p.bind(padded, window_dimensions=tuple(window_dimensions),
                                     window_strides=tuple(base_dilation),
                                     padding=((0, 0),) * len(in_shape), base_dilation=ones,
                                     window_dilation=tuple(window_dilation))]


def _pad_like_window(x, value, padding, base_dilation):
    """x as the window op sees it: base-dilated and edge-padded with `value`."""
    cfg = tuple((lo, hi, bd - 1) for (lo, hi), bd in zip(padding, base_dilation))
    if all(c == (0, 0, 0) for c in cfg):
        return x
    return pad(x, value, cfg)


def _chooser_jvp(prim: Primitive, identity: float, select: str):
    def rule(primals, tangents, *, window_dimensions, window_strides, padding, base_dilation,
             window_dilation):
        from padax.functional.lax.windowed_select import select_and_gather_add_p  # load cycle: windowed_select -> here
        x, t = asarray(primals[0]), asarray(tangents[0])
        params = dict(window_dimensions=window_dimensions, window_strides=window_strides,
                      padding=padding, base_dilation=base_dilation, window_dilation=window_dilation)
        out = prim.bind(x, **params)
        dt = x.aval.dtype
        out_shape = out.aval.shape
        if 0 in out_shape:
            return out, full(out_shape, 0, dt)
        undilated = set(base_dilation) | set(window_dilation) == {1}
        if undilated and dtypes.is_floating(dt):
            # XLA's windowed select: the tangent of each window's first extremum
            return out, select_and_gather_add_p.bind(t, x, select=select, window_dimensions=window_dimensions,
                                                     window_strides=window_strides, padding=padding)
        # dilated windows: one strided slice per window offset, the first hit in window order wins
        xp = _pad_like_window(x, identity, padding, base_dilation)
        tp = _pad_like_window(t, 0, padding, base_dilation)

        def at_offset(y, k):
            start = tuple(ki * wd for ki, wd in zip(k, window_dilation))
            limit = tuple(st + (m - 1) * s + 1 for st, m, s in zip(start, out_shape, window_strides))
            return lslice(y, start, limit, window_strides)
        seen, t_out = None, None
        for k in itertools.product(*(range(w) for w in window_dimensions)):
            hit = eq(at_offset(xp, k), out)
            first = hit if seen is None else bitwise_and(hit, bitwise_not(seen))
            seen = hit if seen is None else bitwise_or(seen, hit)
            term = mul(at_offset(tp, k), convert_element_type(first, dt))
            t_out = term if t_out is None else add(t_out, term)
        return out, t_out
    return rule


deflinear(reduce_window_sum_p, _reduce_window_sum_transpose)
reduce_window_max_p.jvp_rule = _chooser_jvp(reduce_window_max_p, -np.inf, "ge")
reduce_window_min_p.jvp_rule = _chooser_jvp(reduce_window_min_p, np.inf, "le")


def _window_batch(prim: Primitive):
    """The batch axis gets a size-1 window of stride 1 and no padding or dilation."""
    def rule(args, dims, *, window_dimensions, window_strides, padding, base_dilation,
             window_dilation):
        (x,), (d,) = args, dims

        def ins(p, v):
            return tuple(p[:d]) + (v,) + tuple(p[d:])
        return prim.bind(x, window_dimensions=ins(window_dimensions, 1),
                         window_strides=ins(window_strides, 1), padding=ins(padding, (0, 0)),
                         base_dilation=ins(base_dilation, 1),
                         window_dilation=ins(window_dilation, 1)), d
    return rule


for _p in reduce_window_primitives.values():
    _p.batch_rule = _window_batch(_p)
del _p
