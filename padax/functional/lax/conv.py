"""General dilated convolution (XLA Conv): 1D/2D/3D, strides, padding, dilations, groups.

Dimension numbers say which axis of lhs (input), rhs (kernel) and output is
the batch / feature / each spatial axis. They are given as layout strings
like ('NCHW', 'OIHW', 'NCHW') or as `ConvDimensionNumbers` of axis
permutations (batch or out-feature first, then feature, then spatial axes
in the kernel's spatial order).
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray
from padax.functional.lax.dot import check_preferred_element_type


class ConvDimensionNumbers(NamedTuple):
    """Axis permutations: lhs (N, C, spatial...), rhs (O, I, spatial...), out (N, C, spatial...)."""
    lhs_spec: tuple[int, ...]
    rhs_spec: tuple[int, ...]
    out_spec: tuple[int, ...]


def conv_general_permutations(specs: Sequence[str]) -> ConvDimensionNumbers:
    """Layout strings ('NCHW', 'OIHW', 'NCHW') -> axis permutations."""
    lhs_s, rhs_s, out_s = specs
    pairs = (("N", "C"), ("O", "I"), ("N", "C"))
    for i, (s, (a, b)) in enumerate(zip(specs, pairs)):
        if s.count(a) != 1 or s.count(b) != 1:
            raise ValueError(f"conv_general_dilated: dimension_numbers[{i}] = {s!r} must contain "
                             f"'{a}' and '{b}' exactly once")
        if len(set(s)) != len(s):
            raise ValueError(f"conv_general_dilated: dimension_numbers[{i}] = {s!r} repeats a character")
    spatial = [set(s) - set(p) for s, p in zip(specs, pairs)]
    if not spatial[0] == spatial[1] == spatial[2]:
        raise ValueError(f"conv_general_dilated: dimension_numbers {tuple(specs)} must name the same "
                         "spatial dimensions in lhs, rhs and output")
    rhs_spatial = [c for c in rhs_s if c not in "OI"]

    def perm(s, pair):
        return (s.index(pair[0]), s.index(pair[1])) + tuple(s.index(c) for c in rhs_spatial)

    return ConvDimensionNumbers(perm(lhs_s, pairs[0]), perm(rhs_s, pairs[1]), perm(out_s, pairs[2]))


def conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers) -> ConvDimensionNumbers:
    """Normalise None / layout strings / ConvDimensionNumbers to ConvDimensionNumbers."""
    nd = len(lhs_shape)
    if len(rhs_shape) != nd:
        raise ValueError(f"conv_general_dilated: lhs and rhs must have the same rank, got shapes "
                         f"{tuple(lhs_shape)} and {tuple(rhs_shape)}")
    if dimension_numbers is None:
        iota = tuple(range(nd))
        return ConvDimensionNumbers(iota, iota, iota)
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return ConvDimensionNumbers(*(tuple(int(d) for d in spec) for spec in dimension_numbers))
    if isinstance(dimension_numbers, (tuple, list)) and len(dimension_numbers) == 3:
        if all(isinstance(s, str) for s in dimension_numbers):
            for i, s in enumerate(dimension_numbers):
                if len(s) != nd:
                    raise ValueError(f"conv_general_dilated: dimension_numbers[{i}] = {s!r} must have "
                                     f"one character per dimension of the rank-{nd} operands")
            return conv_general_permutations(dimension_numbers)
        return ConvDimensionNumbers(*(tuple(int(d) for d in spec) for spec in dimension_numbers))
    raise TypeError("conv_general_dilated: dimension_numbers must be None, a ConvDimensionNumbers or "
                    f"three layout strings, got {dimension_numbers!r}")


def padtype_to_pads(in_shape, window_shape, window_strides, padding: str) -> tuple[tuple[int, int], ...]:
    """'SAME' / 'SAME_LOWER' / 'VALID' -> explicit (low, high) pads per spatial dimension."""
    p = padding.upper()
    if p == "VALID":
        return tuple((0, 0) for _ in in_shape)
    if p not in ("SAME", "SAME_LOWER"):
        raise ValueError(f"unknown padding {padding!r}: expected 'SAME', 'SAME_LOWER', 'VALID' or "
                         "a sequence of (low, high) pairs")
    pads = []
    for n, k, s in zip(in_shape, window_shape, window_strides):
        out = -(-n // s)
        total = max((out - 1) * s + k - n, 0)
        small, big = total // 2, total - total // 2
        pads.append((small, big) if p == "SAME" else (big, small))
    return tuple(pads)


def _dilate(n: int, d: int) -> int:
    return 0 if n == 0 else 1 + d * (n - 1)


conv_general_dilated_p = Primitive("conv_general_dilated")


@conv_general_dilated_p.def_abstract_eval
def _conv_abstract(lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation,
                   dimension_numbers, feature_group_count, batch_group_count, preferred_element_type):
    op = "conv_general_dilated"
    where = f"lhs {lhs.str_short()}, rhs {rhs.str_short()}"
    if lhs.ndim != rhs.ndim or lhs.ndim < 2:
        raise op_type_error(op, f"lhs and rhs must have the same rank >= 2 ({where})")
    if lhs.dtype != rhs.dtype:
        raise op_type_error(op, f"lhs and rhs must have the same dtype ({where})")
    if lhs.dtype == dtypes.bool_:
        raise op_type_error(op, f"expected numeric operands ({where})")
    nd, ns = lhs.ndim, lhs.ndim - 2
    for name, spec in zip(("lhs_spec", "rhs_spec", "out_spec"), dimension_numbers):
        if sorted(spec) != list(range(nd)):
            raise op_value_error(op, f"dimension_numbers.{name} {tuple(spec)} is not a permutation of "
                                     f"the {nd} axes ({where})")
    for name, v in (("window_strides", window_strides), ("lhs_dilation", lhs_dilation),
                    ("rhs_dilation", rhs_dilation), ("padding", padding)):
        if len(v) != ns:
            raise op_value_error(op, f"{name} {tuple(v)} must have one entry per spatial dimension "
                                     f"({ns}) ({where})")
    for name, v in (("window_strides", window_strides), ("lhs_dilation", lhs_dilation),
                    ("rhs_dilation", rhs_dilation)):
        if any(s < 1 for s in v):
            raise op_value_error(op, f"{name} {tuple(v)} must be positive")
    if feature_group_count < 1 or batch_group_count < 1:
        raise op_value_error(op, f"feature_group_count ({feature_group_count}) and batch_group_count "
                                 f"({batch_group_count}) must be positive")
    if feature_group_count > 1 and batch_group_count > 1:
        raise op_value_error(op, "at most one of feature_group_count and batch_group_count may exceed 1")
    lspec, rspec, ospec = dimension_numbers
    lsh = [lhs.shape[d] for d in lspec]
    rsh = [rhs.shape[d] for d in rspec]
    n, c = lsh[0], lsh[1]
    o, i = rsh[0], rsh[1]
    if c % feature_group_count or c // feature_group_count != i:
        raise op_type_error(op, f"lhs feature size {c} divided by feature_group_count "
                                f"{feature_group_count} must equal the rhs input feature size {i} ({where})")
    if o % feature_group_count:
        raise op_type_error(op, f"rhs output feature size {o} must be a multiple of feature_group_count "
                                f"{feature_group_count} ({where})")
    if n % batch_group_count or o % batch_group_count:
        raise op_type_error(op, f"batch_group_count {batch_group_count} must divide the lhs batch size "
                                f"{n} and the rhs output feature size {o} ({where})")
    spatial = []
    for k in range(ns):
        size = _dilate(lsh[2 + k], lhs_dilation[k]) + padding[k][0] + padding[k][1]
        window = _dilate(rsh[2 + k], rhs_dilation[k])
        if size < 0:
            raise op_value_error(op, f"padding {tuple(padding)} removes more than spatial dimension "
                                     f"{k} holds ({where})")
        spatial.append(0 if size < window else (size - window) // window_strides[k] + 1)
    out_canon = [n // batch_group_count, o] + spatial
    shape = [0] * nd
    for pos, d in enumerate(ospec):
        shape[d] = out_canon[pos]
    out_dtype = lhs.dtype
    if preferred_element_type is not None:
        out_dtype = np.dtype(preferred_element_type)
        check_preferred_element_type(op, lhs.dtype, out_dtype)
    return ShapedArray(tuple(shape), out_dtype, lhs.weak_type and rhs.weak_type)


def conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=None, rhs_dilation=None,
                         dimension_numbers=None, feature_group_count: int = 1,
                         batch_group_count: int = 1, preferred_element_type=None):
    """N-d convolution with strides, padding ('SAME'/'SAME_LOWER'/'VALID' or (lo, hi) pairs),
    input (transposed-conv) and kernel (atrous) dilation, and grouped features or batches."""
    lhs, rhs = asarray(lhs), asarray(rhs)
    lshape, rshape = lhs.aval.shape, rhs.aval.shape
    dn = conv_dimension_numbers(lshape, rshape, dimension_numbers)
    ns = len(lshape) - 2
    window_strides = tuple(int(s) for s in window_strides)
    lhs_dilation = (1,) * ns if lhs_dilation is None else tuple(int(d) for d in lhs_dilation)
    rhs_dilation = (1,) * ns if rhs_dilation is None else tuple(int(d) for d in rhs_dilation)
    if isinstance(padding, str):
        if any(d != 1 for d in lhs_dilation):
            raise ValueError("conv_general_dilated: string padding is not supported with lhs_dilation; "
                             "give explicit (low, high) pads")
        if len(window_strides) != ns or len(rhs_dilation) != ns:
            raise ValueError(f"conv_general_dilated: window_strides {window_strides} and rhs_dilation "
                             f"{rhs_dilation} must have one entry per spatial dimension ({ns})")
        in_sp = [lshape[d] for d in dn.lhs_spec[2:]]
        win = [_dilate(rshape[d], r) for d, r in zip(dn.rhs_spec[2:], rhs_dilation)]
        padding = padtype_to_pads(in_sp, win, window_strides, padding)
    else:
        try:
            padding = tuple((int(lo), int(hi)) for lo, hi in padding)
        except (TypeError, ValueError):
            raise ValueError("conv_general_dilated: padding must be 'SAME', 'SAME_LOWER', 'VALID' or a "
                             f"sequence of (low, high) pairs, got {padding!r}") from None
    pet = None if preferred_element_type is None else dtypes.canonicalize(preferred_element_type)
    return conv_general_dilated_p.bind(
        lhs, rhs, window_strides=window_strides, padding=padding, lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation, dimension_numbers=dn, feature_group_count=int(feature_group_count),
        batch_group_count=int(batch_group_count), preferred_element_type=pet)


def conv(lhs, rhs, window_strides, padding, preferred_element_type=None):
    """Convolution in the default NC(spatial) / OI(spatial) layout without dilation."""
    return conv_general_dilated(lhs, rhs, window_strides, padding,
                                preferred_element_type=preferred_element_type)


__all__ = ["ConvDimensionNumbers", "conv_dimension_numbers", "conv_general_dilated", "conv",
           "padtype_to_pads"]
