"""dot_general: contraction over given dims with batch dims (matmul, einsum, tensordot).

`precision` (jax's `lax.Precision`, a name, or a pair for lhs and rhs) asks the
backend for an accuracy of the products: DEFAULT (fastest, e.g. bfloat16 passes
on TPU or TF32 on recent GPUs), HIGH, HIGHEST (full float32). None takes the
setting `default_matmul_precision`; CPUs always compute at full precision.
"""
from __future__ import annotations

import contextlib
import contextvars
import enum
from typing import Any

import numpy as np

from padax.config import config
from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, add_tangents, is_undefined, tangent_aval
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray
from padax.functional.lax.structural import convert_element_type, moveaxis, transpose

dot_general_p = Primitive("dot_general")


class Precision(enum.Enum):
    """Accuracy asked of a matrix product or convolution (XLA's PrecisionConfig).

    DEFAULT lets the backend use faster, narrower arithmetic where it has it (bfloat16 or tf32
    passes on accelerators); HIGHEST asks for full float32. Names such as 'highest' or 'tensorfloat32'
    are accepted too.

    Args:
        value: the member's number (0 DEFAULT, 1 HIGH, 2 HIGHEST), as in Precision(2); name lookup is
            Precision['HIGHEST'], and ops take the lower-case names directly.

    Returns:
        The Precision member.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> list(lax.Precision)
        [Precision.DEFAULT, Precision.HIGH, Precision.HIGHEST]
        >>> a, b = padax.to_tensor([[1.0, 2.0]]), padax.to_tensor([[3.0], [4.0]])
        >>> lax.dot(a, b, precision=lax.Precision.HIGHEST).tolist()
        [[11.0]]
    """
    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2

    def __repr__(self) -> str:
        return f"Precision.{self.name}"

    __str__ = __repr__


_PRECISION_NAMES = {"default": Precision.DEFAULT, "bfloat16": Precision.DEFAULT, "fastest": Precision.DEFAULT,
                    "high": Precision.HIGH, "tensorfloat32": Precision.HIGH, "bfloat16_3x": Precision.HIGH,
                    "highest": Precision.HIGHEST, "float32": Precision.HIGHEST}


_scoped_precision: contextvars.ContextVar = contextvars.ContextVar("padax_matmul_precision", default=None)


@contextlib.contextmanager
def precision_scope(precision: Any):
    """Products inside the block that pass no precision use `precision` (for composite ops such
    as padax.numpy.dot(..., precision=) that call dot_general several times)."""
    token = _scoped_precision.set(precision)
    try:
        yield
    finally:
        _scoped_precision.reset(token)


def canonical_precision(precision: Any) -> tuple[Precision, Precision] | None:
    """A primitive's `precision` param: None (the backend's default) or a (lhs, rhs) pair of Precision.

    None reads an enclosing precision_scope, then the setting `default_matmul_precision`
    (jax's `jax_default_matmul_precision`).
    """
    if precision is None:
        precision = _scoped_precision.get()
    if precision is None:
        precision = config.default_matmul_precision
        if precision is None:
            return None

    def one(p):
        if isinstance(p, Precision):
            return p
        if isinstance(p, str) and p.lower() in _PRECISION_NAMES:
            return _PRECISION_NAMES[p.lower()]
        raise ValueError(f"precision must be None, a padax.lax.Precision, one of {sorted(_PRECISION_NAMES)} "
                         f"or a pair of those, got {p!r}")

    if isinstance(precision, (tuple, list)):
        if len(precision) != 2:
            raise ValueError(f"precision pairs give one precision for each operand, got {precision!r}")
        return one(precision[0]), one(precision[1])
    p = one(precision)
    return p, p


def check_preferred_element_type(op: str, in_dtype, preferred) -> None:
    """A result dtype must be of the inputs' kind (or floating for integer inputs) and no narrower."""
    if dtypes.is_integer(in_dtype) and dtypes.is_floating(preferred):
        ok = True
    elif dtypes.is_integer(in_dtype):
        ok = dtypes.is_integer(preferred) and (dtypes.is_unsigned(in_dtype) or not dtypes.is_unsigned(preferred))
    elif dtypes.is_floating(in_dtype):
        ok = dtypes.is_floating(preferred)
    elif dtypes.is_complex(in_dtype):
        ok = dtypes.is_complex(preferred)
    else:
        ok = in_dtype == preferred
    if not ok or preferred.itemsize < in_dtype.itemsize:
        raise op_type_error(op, f"preferred_element_type {preferred.name} is not compatible with "
                                f"inputs of dtype {in_dtype.name} (it must be of the same kind, or "
                                "floating for integer inputs, and at least as wide)")


@dot_general_p.def_abstract_eval
def _dot_general_abstract(lhs, rhs, *, dimension_numbers, preferred_element_type=None, precision=None):
    op = "dot_general"
    (lc, rc), (lb, rb) = dimension_numbers
    where = f"lhs {lhs.str_short()}, rhs {rhs.str_short()}, dimension_numbers {dimension_numbers}"
    if len(lc) != len(rc):
        raise op_type_error(op, f"lhs and rhs must have the same number of contracting dimensions, "
                                f"got {lc} and {rc} ({where})")
    if len(lb) != len(rb):
        raise op_type_error(op, f"lhs and rhs must have the same number of batch dimensions, "
                                f"got {lb} and {rb} ({where})")
    for side, aval, c, b in (("lhs", lhs, lc, lb), ("rhs", rhs, rc, rb)):
        dims = tuple(c) + tuple(b)
        if any(not 0 <= d < aval.ndim for d in dims):
            raise op_value_error(op, f"{side} contracting/batch dimensions {dims} are out of range for "
                                     f"rank {aval.ndim} ({where})")
        if len(set(dims)) != len(dims):
            raise op_value_error(op, f"{side} contracting/batch dimensions {dims} repeat a dimension "
                                     f"({where})")
    for kind, ld, rd in (("contracting", lc, rc), ("batch", lb, rb)):
        ls, rs = tuple(lhs.shape[d] for d in ld), tuple(rhs.shape[d] for d in rd)
        if ls != rs:
            raise op_type_error(op, f"{kind} dimensions must have equal sizes, got {ls} for lhs "
                                    f"dims {ld} and {rs} for rhs dims {rd} ({where})")
    if lhs.dtype != rhs.dtype:
        raise op_type_error(op, f"operands must have the same dtype, got "
                                f"{lhs.str_short()} and {rhs.str_short()}")
    batch = tuple(lhs.shape[i] for i in lb)
    lfree = tuple(d for i, d in enumerate(lhs.shape) if i not in lc and i not in lb)
    rfree = tuple(d for i, d in enumerate(rhs.shape) if i not in rc and i not in rb)
    out_dtype = lhs.dtype
    if preferred_element_type is not None:
        out_dtype = np.dtype(preferred_element_type)
        check_preferred_element_type(op, lhs.dtype, out_dtype)
    return ShapedArray(batch + lfree + rfree, out_dtype, lhs.weak_type and rhs.weak_type)


def _preferred(dtype):
    return None if dtype is None else dtypes.canonicalize(dtype)


def dot_general(lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None, *, out_sharding=None):
    """Contract `lhs` and `rhs`: dimension_numbers = ((lhs_contract, rhs_contract), (lhs_batch, rhs_batch)).

    The result holds the batch dims, then lhs's free dims, then rhs's free dims.

    Args:
        lhs, rhs: arrays of one dtype.
        dimension_numbers: ((lhs_contract, rhs_contract), (lhs_batch, rhs_batch)), tuples of axes; paired
            axes must have equal sizes.
        precision: None (the scope or config default), a Precision, one of its names, or a (lhs, rhs) pair.
        preferred_element_type: the result dtype (same kind and at least as wide; floating for int inputs).
        out_sharding: if given, a sharding constraint applied to the result.

    Returns:
        An array with the batch axes, then lhs's free axes, then rhs's free axes.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> a, b = padax.ones([4, 2, 3]), padax.ones([4, 3, 5])
        >>> lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))).shape
        (4, 2, 5)
    """
    (lc, rc), (lb, rb) = dimension_numbers
    dn = ((tuple(int(d) for d in lc), tuple(int(d) for d in rc)),
          (tuple(int(d) for d in lb), tuple(int(d) for d in rb)))
    out = dot_general_p.bind(asarray(lhs), asarray(rhs), dimension_numbers=dn,
                             preferred_element_type=_preferred(preferred_element_type),
                             precision=canonical_precision(precision))
    return _with_sharding(out, out_sharding)


def _with_sharding(x, out_sharding):
    if out_sharding is None:
        return x
    from padax.functional.lax.resharding import with_sharding_constraint  # load cycle: resharding -> parallel -> here
    return with_sharding_constraint(x, out_sharding)


def dot(lhs, rhs, precision=None, preferred_element_type=None, *, out_sharding=None):
    """Vector/matrix product contracting lhs's last dim with rhs's first (jax.lax.dot).

    Args:
        lhs: an array (1-D or more).
        rhs: an array of lhs's dtype whose first axis matches lhs's last.
        precision: as in dot_general.
        preferred_element_type: as in dot_general.
        out_sharding: if given, a sharding constraint applied to the result.

    Returns:
        An array of shape lhs.shape[:-1] + rhs.shape[1:].

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.dot(padax.to_tensor([[1.0, 2.0]]), padax.to_tensor([[3.0], [4.0]])).tolist()
        [[11.0]]
    """
    lhs, rhs = asarray(lhs), asarray(rhs)
    return dot_general(lhs, rhs, (((lhs.aval.ndim - 1,), (0,)), ((), ())), precision, preferred_element_type,
                       out_sharding=out_sharding)


# ---- differentiation and batching ----------------------------------------------------------

def _free_dims(ndim: int, contract, batch) -> list[int]:
    return [d for d in range(ndim) if d not in contract and d not in batch]


def _dot_jvp(primals, tangents, **params):
    lhs, rhs = primals
    tl, tr = tangents
    out = dot_general_p.bind(lhs, rhs, **params)
    t_out = Zero(tangent_aval(get_aval(out)))
    if type(tl) is not Zero:
        t_out = add_tangents(t_out, dot_general_p.bind(tl, rhs, **params))
    if type(tr) is not Zero:
        t_out = add_tangents(t_out, dot_general_p.bind(lhs, tr, **params))
    return out, t_out


def _transpose_operand(ct, other, op_aval, op_is_lhs: bool, dimension_numbers, precision=None):
    """Cotangent of one operand: contract ct with the other operand, then permute into place."""
    (lc, rc), (lb, rb) = dimension_numbers
    if not op_is_lhs:  # view the rhs as the "lhs" of the swapped product
        lc, rc, lb, rb = rc, lc, rb, lb
    other_ndim = get_aval(other).ndim
    nb = len(lb)
    op_free = _free_dims(op_aval.ndim, lc, lb)
    other_free = _free_dims(other_ndim, rc, rb)
    # ct layout: batch, lhs free, rhs free
    n_lfree = len(op_free) if op_is_lhs else len(other_free)
    other_free_in_ct = (list(range(nb + n_lfree, nb + n_lfree + len(other_free))) if op_is_lhs
                        else list(range(nb, nb + len(other_free))))
    dn = ((tuple(other_free_in_ct), tuple(other_free)), (tuple(range(nb)), tuple(rb)))
    ct = convert_element_type(ct, get_aval(other).dtype) if get_aval(ct).dtype != get_aval(other).dtype else ct
    if precision is not None and not op_is_lhs:
        precision = precision[::-1]  # the other operand is the product's lhs now
    res = dot_general_p.bind(ct, other, dimension_numbers=dn, preferred_element_type=None, precision=precision)
    # res layout: batch (lb order), op free dims, other's contracting dims in increasing order
    src = list(lb) + op_free + [lc[list(rc).index(r)] for r in sorted(rc)]
    perm = [src.index(d) for d in range(op_aval.ndim)]
    res = transpose(res, perm)
    if get_aval(res).dtype != op_aval.dtype:
        res = convert_element_type(res, op_aval.dtype)
    return res


def _dot_transpose(ct, lhs, rhs, *, dimension_numbers, preferred_element_type, precision=None):
    if type(ct) is Zero:
        return [None, None]
    ct_l = ct_r = None
    if is_undefined(lhs):
        ct_l = _transpose_operand(ct, rhs, lhs.aval, True, dimension_numbers, precision)
    if is_undefined(rhs):
        ct_r = _transpose_operand(ct, lhs, rhs.aval, False, dimension_numbers, precision)
    return [ct_l, ct_r]


def _shift(dims, by: int = 1) -> tuple[int, ...]:
    return tuple(d + by for d in dims)


def _dot_batch(args, dims, *, dimension_numbers, preferred_element_type, precision=None):
    lhs, rhs = args
    ld, rd = dims
    (lc, rc), (lb, rb) = dimension_numbers
    if ld is not None:
        lhs = moveaxis(lhs, ld, 0)
        lc, lb = _shift(lc), _shift(lb)
    if rd is not None:
        rhs = moveaxis(rhs, rd, 0)
        rc, rb = _shift(rc), _shift(rb)
    if ld is not None and rd is not None:
        dn = ((lc, rc), ((0,) + lb, (0,) + rb))
        out_dim = 0
    elif ld is not None:
        dn = ((lc, rc), (lb, rb))
        out_dim = len(lb)  # the new axis is lhs's first free dim
    else:
        dn = ((lc, rc), (lb, rb))
        lhs_free = get_aval(lhs).ndim - len(lc) - len(lb)
        out_dim = len(lb) + lhs_free  # the new axis is rhs's first free dim
    out = dot_general_p.bind(lhs, rhs, dimension_numbers=dn, preferred_element_type=preferred_element_type,
                             precision=precision)
    return out, out_dim


dot_general_p.jvp_rule = _dot_jvp
dot_general_p.transpose_rule = _dot_transpose
dot_general_p.batch_rule = _dot_batch

__all__ = ["dot_general", "dot", "Precision"]
