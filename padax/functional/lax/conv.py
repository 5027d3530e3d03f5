"""General dilated convolution (XLA Conv): 1D/2D/3D, strides, padding, dilations, groups.

Dimension numbers say which axis of lhs (input), rhs (kernel) and output is
the batch / feature / each spatial axis. They are given as layout strings
like ('NCHW', 'OIHW', 'NCHW') or as `ConvDimensionNumbers` of axis
permutations (batch or out-feature first, then feature, then spatial axes
in the kernel's spatial order).
"""
from __future__ import annotations

from typing import Any, NamedTuple, Sequence

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, add_tangents, is_undefined, tangent_aval
from padax.core.errors import input_error, op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray, static_ints
from padax.functional.lax.dot import canonical_precision, check_preferred_element_type
from padax.functional.lax.structural import convert_element_type, moveaxis, reshape, rev, transpose


class ConvDimensionNumbers(NamedTuple):
    """Axis permutations of a convolution: lhs (N, C, spatial...), rhs (O, I, spatial...), out (N, C, spatial...).

    Args:
        lhs_spec: for (N, C, spatial...), the input array's axis that plays each role.
        rhs_spec: for (O, I, spatial...), the kernel array's axis that plays each role.
        out_spec: for (N, C, spatial...), the output array's axis that plays each role.

    Returns:
        An immutable named tuple of the three specs.

    Examples:
        >>> from padax import lax
        >>> lax.ConvDimensionNumbers(lhs_spec=(0, 1, 2), rhs_spec=(0, 1, 2), out_spec=(0, 1, 2)).rhs_spec
        (0, 1, 2)
    """
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
    """Normalise None / three layout strings / a ConvDimensionNumbers to a ConvDimensionNumbers.

    Args:
        lhs_shape, rhs_shape: the operands' shapes (of equal rank).
        dimension_numbers: None (NC.../OI.../NC...), layout strings such as ('NHWC', 'HWIO', 'NHWC'),
            or a ConvDimensionNumbers.

    Returns:
        A ConvDimensionNumbers.

    Examples:
        >>> from padax import lax
        >>> lax.conv_dimension_numbers((1, 4, 4, 3), (2, 2, 3, 8), ('NHWC', 'HWIO', 'NHWC'))
        ConvDimensionNumbers(lhs_spec=(0, 3, 1, 2), rhs_spec=(3, 2, 0, 1), out_spec=(0, 3, 1, 2))
    """
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
    """'SAME' / 'SAME_LOWER' / 'VALID' -> explicit (low, high) pads per spatial dimension.

    'SAME' gives ceil(n / stride) outputs, with the odd padding element at the end ('SAME_LOWER':
    at the start).

    Args:
        in_shape, window_shape, window_strides: the spatial sizes, window sizes and strides.
        padding: 'SAME', 'SAME_LOWER' or 'VALID'.

    Returns:
        A tuple of (low, high) pairs.

    Examples:
        >>> from padax import lax
        >>> lax.padtype_to_pads((4,), (2,), (1,), 'SAME'), lax.padtype_to_pads((4,), (2,), (1,), 'SAME_LOWER')
        (((0, 1),), ((1, 0),))
    """
    p = padding.upper()
    if p == "VALID":
        return tuple((0, 0) for _ in in_shape)
    if p not in ("SAME", "SAME_LOWER"):
        raise input_error(ValueError, f"unknown padding {padding!r}: expected 'SAME', 'SAME_LOWER', 'VALID' or "
                                      "a sequence of (low, high) pairs")
    if any(int(s) < 1 for s in window_strides):
        raise input_error(ValueError, f"window_strides {tuple(window_strides)} must be positive")
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
                   dimension_numbers, feature_group_count, batch_group_count, preferred_element_type,
                   precision=None):
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
                         batch_group_count: int = 1, precision=None, preferred_element_type=None):
    """N-d convolution (a cross-correlation, as in XLA) with strides, padding, dilations and groups.

    Args:
        lhs: the input, (N, C, spatial...) unless `dimension_numbers` says otherwise.
        rhs: the kernel, (O, I, spatial...) unless `dimension_numbers` says otherwise.
        window_strides: the stride per spatial dimension.
        padding: 'SAME', 'SAME_LOWER', 'VALID' or one (low, high) pair per spatial dimension.
        lhs_dilation: input dilation per spatial dimension (a transposed convolution).
        rhs_dilation: kernel dilation per spatial dimension (atrous convolution).
        dimension_numbers: None, layout strings such as ('NHWC', 'HWIO', 'NHWC'), or ConvDimensionNumbers.
        feature_group_count, batch_group_count: grouped (e.g. depthwise) convolution.
        precision, preferred_element_type: as in `dot_general`.

    Returns:
        The output array, laid out as dimension_numbers' out spec says.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x, k = padax.ones([1, 4, 4, 1]), padax.ones([2, 2, 1, 1])
        >>> y = lax.conv_general_dilated(x, k, (2, 2), 'VALID', dimension_numbers=('NHWC', 'HWIO', 'NHWC'))
        >>> y.shape, y[0, :, :, 0].tolist()
        ((1, 2, 2, 1), [[4.0, 4.0], [4.0, 4.0]])
    """
    lhs, rhs = asarray(lhs), asarray(rhs)
    lshape, rshape = lhs.aval.shape, rhs.aval.shape
    dn = conv_dimension_numbers(lshape, rshape, dimension_numbers)
    ns = len(lshape) - 2
    op = "conv_general_dilated"
    window_strides = static_ints(op, window_strides, "window_strides")
    lhs_dilation = (1,) * ns if lhs_dilation is None else static_ints(op, lhs_dilation, "lhs_dilation")
    rhs_dilation = (1,) * ns if rhs_dilation is None else static_ints(op, rhs_dilation, "rhs_dilation")
    if isinstance(padding, str):
        if any(d != 1 for d in lhs_dilation):
            raise op_value_error("conv_general_dilated", "string padding is not supported with lhs_dilation; "
                                                         "give explicit (low, high) pads")
        if len(window_strides) != ns or len(rhs_dilation) != ns:
            raise op_value_error("conv_general_dilated", f"window_strides {window_strides} and rhs_dilation "
                                                         f"{rhs_dilation} must have one entry per spatial dimension "
                                                         f"({ns})")
        for what, v in (("window_strides", window_strides), ("rhs_dilation", rhs_dilation)):
            if any(e < 1 for e in v):
                raise op_value_error(op, f"{what} {v} must be positive (lhs {lhs.aval.str_short()}, rhs "
                                         f"{rhs.aval.str_short()})")
        in_sp = [lshape[d] for d in dn.lhs_spec[2:]]
        win = [_dilate(rshape[d], r) for d, r in zip(dn.rhs_spec[2:], rhs_dilation)]
        padding = padtype_to_pads(in_sp, win, window_strides, padding)
    else:
        try:
            padding = tuple(static_ints("conv_general_dilated", pair, "padding") for pair in padding)
            if any(len(pair) != 2 for pair in padding):
                raise ValueError("a pad is not a (low, high) pair")
        except (TypeError, ValueError):
            raise op_value_error(op, "padding must be 'SAME', 'SAME_LOWER', 'VALID' or a sequence of (low, high) "
                                     f"integer pairs, got {padding!r}") from None
    pet = None if preferred_element_type is None else dtypes.canonicalize(preferred_element_type)
    return conv_general_dilated_p.bind(
        lhs, rhs, window_strides=window_strides, padding=padding, lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation, dimension_numbers=dn, feature_group_count=int(feature_group_count),
        batch_group_count=int(batch_group_count), preferred_element_type=pet,
        precision=canonical_precision(precision))


def conv(lhs, rhs, window_strides, padding, precision=None, preferred_element_type=None):
    """Convolution in the default (N, C, spatial...) / (O, I, spatial...) layout, without dilation.

    Args:
        lhs: the input, (N, C, spatial...).
        rhs: the kernel, (O, I, spatial...).
        window_strides: the stride per spatial dimension.
        padding: 'SAME', 'SAME_LOWER', 'VALID' or one (low, high) pair per spatial dimension.
        precision, preferred_element_type: as in `dot_general`.

    Returns:
        An (N, O, spatial...) array.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([[[1.0, 2.0, 3.0, 4.0]]])   # N=1, C=1, W=4
        >>> k = padax.to_tensor([[[1.0, 0.0, -1.0]]])       # O=1, I=1, W=3 (not flipped)
        >>> lax.conv(x, k, (1,), 'VALID').tolist(), lax.conv(x, k, (1,), 'SAME').tolist()
        ([[[-2.0, -2.0]]], [[[-2.0, -2.0, -2.0, 3.0]]])
    """
    return conv_general_dilated(lhs, rhs, window_strides, padding, precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_with_general_padding(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation, precision=None,
                              preferred_element_type=None):
    """Convolution in the default (N, C, spatial...) / (O, I, spatial...) layout with padding and input and
    kernel dilation (jax's lax.conv_with_general_padding).

    Args:
        lhs, rhs, window_strides, padding: as in `conv`.
        lhs_dilation, rhs_dilation: the input and kernel dilation per spatial dimension (None: 1).
        precision, preferred_element_type: as in `dot_general`.

    Returns:
        An (N, O, spatial...) array.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([[[1.0, 2.0, 3.0, 4.0, 5.0]]])
        >>> k = padax.to_tensor([[[1.0, -1.0]]])
        >>> lax.conv_with_general_padding(x, k, (1,), [(0, 0)], None, (2,)).tolist()
        [[[-2.0, -2.0, -2.0]]]
    """
    return conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=lhs_dilation,
                                rhs_dilation=rhs_dilation, precision=precision,
                                preferred_element_type=preferred_element_type)


def _conv_transpose_padding(k: int, s: int, padding: Any) -> tuple[int, int]:
    """(before, after) padding of one spatial dimension of a transposed convolution (the gradient of
    a forward convolution with kernel size k, stride s and `padding`)."""
    if padding == "SAME":
        pad_len = k + s - 2
        pad_a = k - 1 if s > k - 1 else int(np.ceil(pad_len / 2))
    elif padding == "VALID":
        pad_len = k + s - 2 + max(k - s, 0)
        pad_a = k - 1
    elif isinstance(padding, tuple):
        pads = tuple(k - p - 1 for p in padding)
        pad_a, pad_len = pads[0], sum(pads)
    else:
        raise ValueError(f"conv_transpose: padding must be 'SAME', 'VALID' or (low, high) pairs, got {padding!r}")
    return pad_a, pad_len - pad_a


_TRANSPOSE_DEFAULT_DN = {3: ("NHC", "HIO", "NHC"), 4: ("NHWC", "HWIO", "NHWC"), 5: ("NHWDC", "HWDIO", "NHWDC")}


def conv_transpose(lhs, rhs, strides, padding, rhs_dilation=None, dimension_numbers=None,
                   transpose_kernel: bool = False, precision=None, preferred_element_type=None,
                   use_consistent_padding: bool = False):
    """The transposed ("deconvolution") convolution of jax's lax.conv_transpose: the input dilated by
    `strides` and convolved with `rhs`; default layouts NHC/HIO, NHWC/HWIO, NHWDC/HWDIO.

    Args:
        lhs, rhs: the input and the kernel.
        strides: the forward convolution's strides (the input dilation here).
        padding: 'SAME', 'VALID' or (low, high) pairs (the forward convolution's, when
            use_consistent_padding, else the transposed convolution's own pairs).
        rhs_dilation: the kernel dilation.
        dimension_numbers: as in conv_general_dilated.
        transpose_kernel: flip the kernel's spatial axes and swap its in/out channels (the gradient form).
        precision, preferred_element_type: as in `dot_general`.

    Returns:
        The output array.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x, k = padax.ones([1, 2, 1]), padax.ones([2, 1, 1])   # NHC, HIO
        >>> lax.conv_transpose(x, k, (2,), "VALID").reshape([-1]).tolist()
        [1.0, 1.0, 1.0, 1.0]
    """
    ndim = len(np.shape(rhs)) if not hasattr(rhs, "ndim") else rhs.ndim
    if dimension_numbers is None:
        if ndim not in _TRANSPOSE_DEFAULT_DN:
            raise ValueError(f"conv_transpose: no default dimension numbers for a {ndim}-D kernel")
        dimension_numbers = _TRANSPOSE_DEFAULT_DN[ndim]
    dn = conv_dimension_numbers(tuple(lhs.shape), tuple(rhs.shape), dimension_numbers)
    k_sdims = [rhs.shape[i] for i in dn.rhs_spec[2:]]
    rhs_dilation = tuple(rhs_dilation) if rhs_dilation is not None else (1,) * (ndim - 2)
    if use_consistent_padding or (isinstance(padding, str) and padding in ("SAME", "VALID")):
        effective = [0 if k == 0 else 1 + r * (k - 1) for k, r in zip(k_sdims, rhs_dilation)]
        per_dim = [padding] * len(strides) if isinstance(padding, str) else list(padding)
        pads = [_conv_transpose_padding(k, s, tuple(p) if not isinstance(p, str) else p)
                for k, s, p in zip(effective, strides, per_dim)]
    else:
        pads = padding
    if transpose_kernel:
        rhs = rev(rhs, tuple(dn.rhs_spec[2:]))
        rhs = transpose(rhs, _swap(ndim, dn.rhs_spec[0], dn.rhs_spec[1]))
    return conv_general_dilated(lhs, rhs, (1,) * (ndim - 2), pads, tuple(strides), rhs_dilation, dn,
                                precision=precision, preferred_element_type=preferred_element_type)


def _swap(n: int, a: int, b: int) -> tuple[int, ...]:
    perm = list(range(n))
    perm[a], perm[b] = perm[b], perm[a]
    return tuple(perm)


__all__ = ["ConvDimensionNumbers", "conv_dimension_numbers", "conv_general_dilated", "conv", "conv_transpose",
           "conv_with_general_padding", "padtype_to_pads"]


# ---- differentiation and batching ----------------------------------------------------------
# The convolution is bilinear, so its jvp is conv(t_lhs, rhs) + conv(lhs, t_rhs), and each
# operand's cotangent is again a convolution: of ct with the spatially reversed kernel for lhs
# (ct dilated by the forward strides), of lhs with ct for rhs (ct acting as the kernel, dilated
# by the forward strides). Feature/batch groups swap roles between the two.


def _conv_jvp(primals, tangents, **params):
    lhs, rhs = primals
    tl, tr = tangents
    out = conv_general_dilated_p.bind(lhs, rhs, **params)
    t_out = Zero(tangent_aval(get_aval(out)))
    if type(tl) is not Zero:
        t_out = add_tangents(t_out, conv_general_dilated_p.bind(tl, rhs, **params))
    if type(tr) is not Zero:
        t_out = add_tangents(t_out, conv_general_dilated_p.bind(lhs, tr, **params))
    return out, t_out


def _swap01(spec) -> tuple[int, ...]:
    """The same layout with the roles of its first two entries (batch/feature, out/in) swapped."""
    return (spec[1], spec[0]) + tuple(spec[2:])


def _split_axis(x, axis: int, outer: int):
    """Split `axis` of size S into (outer, S // outer), outer first."""
    shape = get_aval(x).shape
    return reshape(x, shape[:axis] + (outer, shape[axis] // outer) + shape[axis + 1:])


def _merge_into(x, src: int, dst: int):
    """Merge axis `src` into axis `dst` as its major part (the result has one axis fewer; `dst`
    is numbered as in x)."""
    x = moveaxis(x, src, dst if src > dst else dst - 1)
    shape = get_aval(x).shape
    d = dst if src > dst else dst - 1
    return reshape(x, shape[:d] + (shape[d] * shape[d + 1],) + shape[d + 2:])


def _regroup_kernel(rhs, rhs_spec, groups: int):
    """Kernel (O = groups*O', I, ...) -> (O', groups*I, ...): each group's block of output features
    becomes a block of input features, for the transposed (grouped) convolution."""
    o_axis, i_axis = rhs_spec[0], rhs_spec[1]
    x = _split_axis(rhs, o_axis, groups)               # ..., groups, O', ... at o_axis, o_axis + 1
    i_axis_now = i_axis + 1 if i_axis > o_axis else i_axis
    return _merge_into(x, o_axis, i_axis_now)


def _cast(x, dtype):
    return x if get_aval(x).dtype == dtype else convert_element_type(x, dtype)


def _conv_transpose_lhs(ct, rhs, lhs_aval, *, window_strides, padding, lhs_dilation, rhs_dilation,
                        dimension_numbers, feature_group_count, batch_group_count, preferred_element_type,
                        precision=None):
    lspec, rspec, ospec = dimension_numbers
    ns = len(lspec) - 2
    rhs_aval, ct_aval = get_aval(rhs), get_aval(ct)
    ct = _cast(ct, rhs_aval.dtype)
    groups = max(feature_group_count, batch_group_count)
    kernel = rev(rhs, tuple(rspec[2:]))
    if groups > 1:
        kernel = _regroup_kernel(kernel, rspec, groups)
    pads = []
    for k in range(ns):
        in_d = _dilate(lhs_aval.shape[lspec[2 + k]], lhs_dilation[k])
        win_d = _dilate(rhs_aval.shape[rspec[2 + k]], rhs_dilation[k])
        out_d = _dilate(ct_aval.shape[ospec[2 + k]], window_strides[k])
        lo = win_d - 1 - padding[k][0]
        pads.append((lo, in_d + win_d - 1 - out_d - lo))
    res = conv_general_dilated_p.bind(
        ct, kernel, window_strides=tuple(lhs_dilation), padding=tuple(pads),
        lhs_dilation=tuple(window_strides), rhs_dilation=tuple(rhs_dilation),
        dimension_numbers=ConvDimensionNumbers(ospec, _swap01(rspec), lspec),
        feature_group_count=groups, batch_group_count=1, preferred_element_type=None, precision=precision)
    if batch_group_count > 1:  # features came out as (group, C): the group belongs to the batch
        res = _split_axis(res, lspec[1], batch_group_count)
        n_axis = lspec[0] + 1 if lspec[0] > lspec[1] else lspec[0]
        res = _merge_into(res, lspec[1], n_axis)
    return _cast(res, lhs_aval.dtype)


def _conv_transpose_rhs(ct, lhs, rhs_aval, *, window_strides, padding, lhs_dilation, rhs_dilation,
                        dimension_numbers, feature_group_count, batch_group_count, preferred_element_type,
                        precision=None):
    lspec, rspec, ospec = dimension_numbers
    ns = len(lspec) - 2
    lhs_aval, ct_aval = get_aval(lhs), get_aval(ct)
    ct = _cast(ct, lhs_aval.dtype)
    pads = []
    for k in range(ns):
        in_d = _dilate(lhs_aval.shape[lspec[2 + k]], lhs_dilation[k])
        win_d = _dilate(rhs_aval.shape[rspec[2 + k]], rhs_dilation[k])
        out_d = _dilate(ct_aval.shape[ospec[2 + k]], window_strides[k])
        lo = padding[k][0]
        pads.append((lo, out_d + win_d - 1 - in_d - lo))
    res = conv_general_dilated_p.bind(
        lhs, ct, window_strides=tuple(rhs_dilation), padding=tuple(pads),
        lhs_dilation=tuple(lhs_dilation), rhs_dilation=tuple(window_strides),
        dimension_numbers=ConvDimensionNumbers(_swap01(lspec), _swap01(ospec), _swap01(rspec)),
        feature_group_count=batch_group_count, batch_group_count=feature_group_count,
        preferred_element_type=None, precision=precision)
    return _cast(res, rhs_aval.dtype)


def _conv_transpose(ct, lhs, rhs, **params):
    if type(ct) is Zero:
        return [None, None]
    if is_undefined(lhs) and is_undefined(rhs):
        raise TypeError("conv_general_dilated is bilinear: transpose needs one known operand")
    if is_undefined(lhs):
        return [_conv_transpose_lhs(ct, rhs, lhs.aval, **params), None]
    if is_undefined(rhs):
        if get_aval(ct).size == 0:
            return [None, None]
        return [None, _conv_transpose_rhs(ct, lhs, rhs.aval, **params)]
    return [None, None]


def _fold(x, bdim: int, axis: int, groups: int):
    """Fold the vmapped axis `bdim` of x into `axis` (numbered without it), keeping `groups` as
    the major part: the axis becomes (groups, V, size // groups)."""
    x = moveaxis(x, bdim, 0)
    shape = get_aval(x).shape
    v, rest = shape[0], shape[1:]
    s = rest[axis]
    x = reshape(x, (v,) + rest[:axis] + (groups, s // groups) + rest[axis + 1:])
    perm = list(range(1, axis + 2)) + [0] + list(range(axis + 2, len(rest) + 2))
    x = transpose(x, perm)
    return reshape(x, rest[:axis] + (v * s,) + rest[axis + 1:])


def _unfold(y, axis: int, groups: int, v: int):
    """Inverse of `_fold` on a result: axis (groups, V, s) -> a new axis V at `axis`."""
    shape = get_aval(y).shape
    s = shape[axis] // (groups * v)
    y = reshape(y, shape[:axis] + (groups, v, s) + shape[axis + 1:])
    perm = list(range(axis)) + [axis + 1, axis] + list(range(axis + 2, len(shape) + 2))
    y = transpose(y, perm)
    return reshape(y, shape[:axis] + (v, groups * s) + shape[axis + 1:]), axis


def _conv_batch(args, dims, **params):
    """lhs batched: the vmapped axis joins the batch axis N; rhs batched: it joins the output
    features O (within each feature/batch group); both: it becomes extra feature groups (or
    extra batch groups when batch_group_count > 1), so each vmapped pair convolves separately."""
    lhs, rhs = args
    ld, rd = dims
    lspec, rspec, ospec = params["dimension_numbers"]
    fgc, bgc = params["feature_group_count"], params["batch_group_count"]
    if ld is not None and rd is not None:
        v = get_aval(lhs).shape[ld]
        if bgc > 1:
            lhs = _fold(lhs, ld, lspec[0], 1)
            p = dict(params, batch_group_count=bgc * v)
        else:
            lhs = _fold(lhs, ld, lspec[1], 1)
            p = dict(params, feature_group_count=fgc * v)
        rhs = _fold(rhs, rd, rspec[0], 1)
        out = conv_general_dilated_p.bind(lhs, rhs, **p)
        return _unfold(out, ospec[1], 1, v)
    if ld is not None:
        v = get_aval(lhs).shape[ld]
        lhs = _fold(lhs, ld, lspec[0], bgc)
        out = conv_general_dilated_p.bind(lhs, rhs, **params)
        return _unfold(out, ospec[0], 1, v)
    v = get_aval(rhs).shape[rd]
    groups = max(fgc, bgc)
    rhs = _fold(rhs, rd, rspec[0], groups)
    out = conv_general_dilated_p.bind(lhs, rhs, **params)
    return _unfold(out, ospec[1], groups, v)


conv_general_dilated_p.jvp_rule = _conv_jvp
conv_general_dilated_p.transpose_rule = _conv_transpose
conv_general_dilated_p.batch_rule = _conv_batch
