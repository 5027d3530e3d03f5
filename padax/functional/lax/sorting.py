"""Sorting primitives: multi-operand (lexicographic, stable) sort and top_k.

Float keys sort in numpy's order: NaNs last (all NaNs equal), -0.0 equal to
0.0; complex keys sort by real then imaginary part.
"""
from __future__ import annotations

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, is_undefined, tangent_aval
from padax.core.errors import op_type_error, op_value_error, shapes_str
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray, static_int
from padax.functional.lax.indexing import GatherDimensionNumbers, gather
from padax.functional.lax.structural import batch_size, bdim_to_front, broadcasted_iota, expand_dims, moveaxis

# sort(*operands, dimension, is_stable, num_keys): every operand permuted by the order
# of the first `num_keys` operands (compared lexicographically) along `dimension`.
sort_p = Primitive("sort", multiple_results=True)


@sort_p.def_abstract_eval
def _sort_abstract(*operands: ShapedArray, dimension: int, is_stable: bool, num_keys: int):
    if not operands:
        raise op_value_error("sort", "needs at least one operand")
    shape = operands[0].shape
    if any(o.shape != shape for o in operands[1:]):
        raise op_value_error("sort", f"operands must have equal shapes, got {shapes_str(*operands)}")
    if not 0 <= dimension < len(shape):
        raise op_value_error("sort", f"dimension {dimension} is out of range for {shapes_str(*operands)}")
    if not 1 <= num_keys <= len(operands):
        raise op_value_error("sort", f"num_keys={num_keys} must be between 1 and the number of operands "
                                     f"({len(operands)}): {shapes_str(*operands)}")
    return list(operands)


# top_k(x, k): the k largest entries along the last axis (descending; ties -> lower
# index first; NaNs count as the largest) and their int32 indices.
top_k_p = Primitive("top_k", multiple_results=True)


@top_k_p.def_abstract_eval
def _top_k_abstract(x: ShapedArray, *, k: int):
    if x.ndim == 0:
        raise op_value_error("top_k", f"needs an operand of rank >= 1, got {x.str_short()}")
    if not 0 <= k <= x.shape[-1]:
        raise op_value_error("top_k", f"k={k} must be between 0 and the last axis size of {x.str_short()}")
    if dtypes.is_complex(x.dtype):
        raise op_type_error("top_k", f"complex operands have no order, got {x.str_short()}")
    shape = x.shape[:-1] + (k,)
    return [ShapedArray(shape, x.dtype, x.weak_type), ShapedArray(shape, dtypes.int32)]


# ---- lax-level wrappers -------------------------------------------------------------

def _axis(op: str, dimension, aval: ShapedArray) -> int:
    d = static_int(op, dimension, "dimension")
    if not -aval.ndim <= d < aval.ndim:
        raise op_value_error(op, f"dimension {dimension} is out of range for {aval.str_short()}")
    return d % aval.ndim


def sort(operand, dimension: int = -1, is_stable: bool = True, num_keys: int = 1):
    """Sort one array, or a tuple of equal-shaped arrays by their first `num_keys` (a tuple back).

    Args:
        operand: one array, or a tuple/list of arrays of one shape.
        dimension: the axis to sort along (negative counts from the end).
        is_stable: keep the input order of equal keys.
        num_keys: how many leading operands are keys (compared lexicographically).

    Returns:
        The sorted array for one operand, else a tuple of all operands permuted alike.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.sort(padax.to_tensor([3.0, 1.0, 2.0])).tolist()
        [1.0, 2.0, 3.0]
        >>> keys, vals = lax.sort((padax.to_tensor([2, 1, 2]), padax.to_tensor([0, 1, 2])), num_keys=1)
        >>> keys.tolist(), vals.tolist()
        ([1, 2, 2], [1, 0, 2])
    """
    single = not isinstance(operand, (tuple, list))
    ops = [asarray(operand)] if single else [asarray(o) for o in operand]
    if not ops:
        raise op_value_error("sort", "needs at least one operand")
    out = sort_p.bind(*ops, dimension=_axis("sort", dimension, ops[0].aval),
                      is_stable=bool(is_stable), num_keys=int(num_keys))
    return out[0] if single else tuple(out)


def sort_key_val(keys, values, dimension: int = -1, is_stable: bool = True):
    """Sort `keys` along `dimension` and permute `values` the same way; returns (keys, values).

    Args:
        keys: the array to sort.
        values: an array of keys' shape, permuted with them.
        dimension: the axis to sort along.
        is_stable: keep the input order of equal keys.

    Returns:
        (sorted keys, permuted values).

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> keys, vals = lax.sort_key_val(padax.to_tensor([3, 1, 2]), padax.to_tensor([30.0, 10.0, 20.0]))
        >>> keys.tolist(), vals.tolist()
        ([1, 2, 3], [10.0, 20.0, 30.0])
    """
    k, v = sort((keys, values), dimension, is_stable, 1)
    return k, v


def top_k(operand, k: int):
    """(values, int32 indices) of the k largest entries along the last axis, largest first.

    Args:
        operand: an array with at least 1 axis.
        k: how many entries to keep (at most the last axis's size).

    Returns:
        (values, indices), both of shape operand.shape[:-1] + (k,); indices are int32.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> values, indices = lax.top_k(padax.to_tensor([1.0, 5.0, 3.0]), 2)
        >>> values.tolist(), indices.tolist()
        ([5.0, 3.0], [1, 2])
    """
    out = top_k_p.bind(asarray(operand), k=static_int("top_k", k, "k"))
    return out[0], out[1]


__all__ = ["sort", "sort_key_val", "top_k"]


# ---- differentiation and batching ----------------------------------------------------------
# sort is linear in its non-key operands for fixed keys: a tangent is permuted by sorting it
# along with the keys, and the transpose undoes the permutation by sorting the cotangent by
# the permutation indices. Both sorts are stable, so ties follow one consistent order.


def _sort_jvp(primals, tangents, *, dimension, is_stable, num_keys):
    ops = [asarray(p) for p in primals]
    # stable even if not asked for: the tangent sort must reproduce this exact permutation
    outs = sort_p.bind(*ops, dimension=dimension, is_stable=True, num_keys=num_keys)
    t_out = [Zero(tangent_aval(get_aval(o))) for o in outs]
    moving = [i for i, t in enumerate(tangents) if type(t) is not Zero]
    if moving:
        sorted_ts = sort_p.bind(*ops[:num_keys], *(tangents[i] for i in moving), dimension=dimension,
                                is_stable=True, num_keys=num_keys)[num_keys:]
        for i, t in zip(moving, sorted_ts):
            t_out[i] = t
    return outs, t_out


def _sort_transpose(cts, *operands, dimension, is_stable, num_keys):
    keys = operands[:num_keys]
    if any(is_undefined(k) for k in keys):
        raise TypeError("sort is not linear in its keys: cannot transpose it with respect "
                                  "to a key operand")
    res = [None] * len(operands)
    back = [i for i in range(num_keys, len(operands))
            if is_undefined(operands[i]) and type(cts[i]) is not Zero]
    if not back:
        return res
    shape = get_aval(keys[0]).shape
    iota = broadcasted_iota(dtypes.int32, shape, dimension)
    perm = sort_p.bind(*keys, iota, dimension=dimension, is_stable=True, num_keys=num_keys)[-1]
    # output j came from input perm[j]: sorting by perm puts each cotangent back at its source
    restored = sort_p.bind(perm, *(cts[i] for i in back), dimension=dimension, is_stable=True,
                           num_keys=1)[1:]
    for i, c in zip(back, restored):
        res[i] = c
    return res


def _sort_batch(args, dims, *, dimension, is_stable, num_keys):
    d0 = dims[0]
    if all(d == d0 for d in dims):
        out = sort_p.bind(*args, dimension=dimension + (dimension >= d0), is_stable=is_stable,
                          num_keys=num_keys)
        return out, [d0] * len(out)
    size = batch_size(args, dims)
    xs = [bdim_to_front(asarray(x), d, size) for x, d in zip(args, dims)]
    out = sort_p.bind(*xs, dimension=dimension + 1, is_stable=is_stable, num_keys=num_keys)
    return out, [0] * len(out)


sort_p.jvp_rule = _sort_jvp
sort_p.transpose_rule = _sort_transpose
sort_p.batch_rule = _sort_batch


def _take_along_last(x, idx):
    """x[..., idx[..., j]] for each j: a gather batched over all leading axes."""
    r = get_aval(x).ndim
    lead = tuple(range(r - 1))
    dn = GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(r - 1,), start_index_map=(r - 1,),
                                operand_batching_dims=lead, start_indices_batching_dims=lead)
    return gather(x, expand_dims(idx, (r,)), dn, (1,) * r, mode="promise_in_bounds")


def _top_k_jvp(primals, tangents, *, k):
    x, t = asarray(primals[0]), tangents[0]
    vals, idx = top_k_p.bind(x, k=k)
    return [vals, idx], [_take_along_last(t, idx), Zero(tangent_aval(get_aval(idx)))]


def _top_k_batch(args, dims, *, k):
    x, d = asarray(args[0]), dims[0]
    if d == x.aval.ndim - 1:  # the batch axis must not be the one top_k selects along
        x, d = moveaxis(x, d, 0), 0
    vals, idx = top_k_p.bind(x, k=k)
    return [vals, idx], [d, d]


top_k_p.jvp_rule = _top_k_jvp
top_k_p.batch_rule = _top_k_batch
