"""The derivative pair of max/min pooling: select_and_gather_add and select_and_scatter_add.

Both pick, in every window of `operand`, the first element in window order that is the
largest (select 'ge') or smallest ('le'); padding is never picked.

- select_and_gather_add(tangent, operand): the tangent at each window's pick (output shaped
  like the windowed reduction). It is reduce_window_max's jvp.
- select_and_scatter_add(source, operand): each window's source value added at its pick
  (output shaped like `operand`). It is XLA's SelectAndScatter, what a max-pool gradient is.

Each is linear in its first operand, the transpose of the other, and constant in `operand`
(the choice is piecewise constant), so they differentiate to any order. Windows have no
dilation (XLA's SelectAndScatter has none); params are per operand dimension.
"""
from __future__ import annotations

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, instantiate, is_undefined
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray
from padax.functional.lax.structural import batch_size, bdim_to_front
from padax.functional.lax.windowed import reduce_window_shape

SELECTS = ("ge", "le")


def _check(op: str, values: ShapedArray, operand: ShapedArray, select: str) -> None:
    if select not in SELECTS:
        raise op_value_error(op, f"select must be one of {SELECTS}, got {select!r}")
    if values.dtype != operand.dtype:
        raise op_type_error(op, f"values {values.str_short()} and operand {operand.str_short()} must "
                                "have the same dtype")
    if not dtypes.is_floating(operand.dtype):
        raise op_type_error(op, f"expected floating-point operands, got {operand.str_short()}")


def _out_shape(op: str, operand: ShapedArray, window_dimensions, window_strides, padding):
    ones = (1,) * operand.ndim
    return reduce_window_shape(op, operand, window_dimensions, window_strides, padding, ones, ones)


select_and_gather_add_p = Primitive("select_and_gather_add")
select_and_scatter_add_p = Primitive("select_and_scatter_add")


@select_and_gather_add_p.def_abstract_eval
def _gather_abstract(tangent, operand, *, select, window_dimensions, window_strides, padding):
    op = "select_and_gather_add"
    _check(op, tangent, operand, select)
    if tangent.shape != operand.shape:
        raise op_type_error(op, f"tangent {tangent.str_short()} must have the shape of operand "
                                f"{operand.str_short()}")
    return ShapedArray(_out_shape(op, operand, window_dimensions, window_strides, padding), tangent.dtype)


@select_and_scatter_add_p.def_abstract_eval
def _scatter_abstract(source, operand, *, select, window_dimensions, window_strides, padding):
    op = "select_and_scatter_add"
    _check(op, source, operand, select)
    expect = _out_shape(op, operand, window_dimensions, window_strides, padding)
    if source.shape != expect:
        raise op_type_error(op, f"source {source.str_short()} must have the windowed shape {list(expect)} "
                                f"of operand {operand.str_short()}")
    return ShapedArray(operand.shape, source.dtype)


def _params(operand, window_dimensions, window_strides, padding) -> dict:
    nd = get_aval(operand).ndim
    strides = (1,) * nd if window_strides is None else tuple(int(s) for s in window_strides)
    pads = ((0, 0),) * nd if padding is None else tuple((int(lo), int(hi)) for lo, hi in padding)
    return dict(window_dimensions=tuple(int(w) for w in window_dimensions), window_strides=strides,
                padding=pads)


def select_and_gather_add(tangent, operand, select: str, window_dimensions, window_strides=None,
                          padding=None):
    """Per window of `operand`, `tangent` at the first largest ('ge') / smallest ('le') element.

    This is reduce_window_max's (min's) jvp: the tangent follows the element each window picks.

    Args:
        tangent: an array shaped like `operand`.
        operand: the array whose windows choose.
        select: 'ge' (pick the maximum) or 'le' (the minimum).
        window_dimensions, window_strides, padding: the windows, as in `reduce_window_max`
            (padding as (lo, hi) pairs; padding is never picked).

    Returns:
        An array of tangent's dtype, one element per window.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x, t = padax.to_tensor([1.0, 3.0, 2.0, 5.0]), padax.to_tensor([10.0, 20.0, 30.0, 40.0])
        >>> lax.select_and_gather_add(t, x, 'ge', (2,), (2,)).tolist()
        [20.0, 40.0]
    """
    operand = asarray(operand)
    return select_and_gather_add_p.bind(asarray(tangent), operand, select=select,
                                        **_params(operand, window_dimensions, window_strides, padding))


def select_and_scatter_add(source, operand, select: str, window_dimensions, window_strides=None,
                           padding=None):
    """`source` (one value per window) added at each window's first largest ('ge') / smallest ('le')
    element of `operand`; zeros elsewhere. It is the gradient of max (min) pooling.

    Args:
        source: an array with one element per window.
        operand: the array whose windows choose.
        select: 'ge' (pick the maximum) or 'le' (the minimum).
        window_dimensions, window_strides, padding: the windows, as in `reduce_window_max`
            (padding as (lo, hi) pairs; padding is never picked).

    Returns:
        An array of source's dtype and operand's shape.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([1.0, 3.0, 2.0, 5.0])
        >>> lax.select_and_scatter_add(padax.to_tensor([1.0, 2.0]), x, 'ge', (2,), (2,)).tolist()
        [0.0, 1.0, 0.0, 2.0]
    """
    operand = asarray(operand)
    return select_and_scatter_add_p.bind(asarray(source), operand, select=select,
                                         **_params(operand, window_dimensions, window_strides, padding))


__all__ = ["select_and_gather_add", "select_and_scatter_add"]


# ---- differentiation and batching ----------------------------------------------------------

def _linear_jvp(prim: Primitive):
    """Linear in the first operand; the operand only chooses positions (zero derivative)."""
    def rule(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        t = tangents[0]
        if type(t) is Zero:
            return out, Zero(get_aval(out))
        return out, prim.bind(instantiate(t), primals[1], **params)
    return rule


def _transpose_to(other: Primitive):
    def rule(ct, values, operand, **params):
        if is_undefined(operand):
            raise TypeError(f"{other.name}: cannot transpose with respect to the selecting operand")
        if type(ct) is Zero or not is_undefined(values):
            return [None, None]
        return [other.bind(ct, operand, **params), None]
    return rule


def _batch(prim: Primitive):
    """Both operands get the batch axis in front; it gets a size-1 window of stride 1."""
    def rule(args, dims, *, select, window_dimensions, window_strides, padding):
        size = batch_size(args, dims)
        values, operand = (bdim_to_front(x, d, size) for x, d in zip(args, dims))
        return prim.bind(values, operand, select=select, window_dimensions=(1,) + tuple(window_dimensions),
                         window_strides=(1,) + tuple(window_strides),
                         padding=((0, 0),) + tuple(padding)), 0
    return rule


select_and_gather_add_p.jvp_rule = _linear_jvp(select_and_gather_add_p)
select_and_scatter_add_p.jvp_rule = _linear_jvp(select_and_scatter_add_p)
select_and_gather_add_p.transpose_rule = _transpose_to(select_and_scatter_add_p)
select_and_scatter_add_p.transpose_rule = _transpose_to(select_and_gather_add_p)
select_and_gather_add_p.batch_rule = _batch(select_and_gather_add_p)
select_and_scatter_add_p.batch_rule = _batch(select_and_scatter_add_p)
