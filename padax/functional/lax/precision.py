"""`reduce_precision`: round floating values to a narrower format (exponent and mantissa
bits), keeping the dtype (XLA ReducePrecision). Used to emulate low-precision formats.

Its derivative is itself applied to the tangent (as in jax: it is treated as linear),
so it passes gradients through with the same rounding.
"""
from __future__ import annotations

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.core.ad_util import Zero, deflinear
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray
from padax.functional.lax.elementwise import elementwise_batch_rule

reduce_precision_p = Primitive("reduce_precision")

__all__ = ["reduce_precision"]


@reduce_precision_p.def_abstract_eval
def _abstract(x: ShapedArray, *, exponent_bits: int, mantissa_bits: int) -> ShapedArray:
    if not dtypes.is_floating(x.dtype):
        raise op_type_error("reduce_precision", f"expected a floating operand, got {x.str_short()}")
    if exponent_bits < 1 or mantissa_bits < 0:
        raise op_value_error("reduce_precision", f"needs exponent_bits >= 1 and mantissa_bits >= 0, got "
                                                 f"{exponent_bits} and {mantissa_bits}")
    return x


def reduce_precision(operand, exponent_bits: int, mantissa_bits: int):
    """Round `operand` to a float format with the given exponent and mantissa bits, keeping its dtype.

    Emulates a narrower format (bfloat16 is 8 and 7, float16 5 and 10); gradients pass through
    with the same rounding.

    Args:
        operand: a floating array.
        exponent_bits: the format's exponent bits (>= 1).
        mantissa_bits: the format's explicit mantissa bits (>= 0).

    Returns:
        An array of operand's shape and dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([1.0 + 2 ** -9, 3.14159265])
        >>> lax.reduce_precision(x, 8, 7).tolist()      # bfloat16 keeps 8 significant bits
        [1.0, 3.140625]
        >>> lax.reduce_precision(x, 5, 10).tolist()     # float16 keeps 11
        [1.001953125, 3.140625]
    """
    return reduce_precision_p.bind(asarray(operand), exponent_bits=int(exponent_bits),
                                   mantissa_bits=int(mantissa_bits))


deflinear(reduce_precision_p, lambda ct, x, **params: [None if type(ct) is Zero
                                                        else reduce_precision_p.bind(ct, **params)])
elementwise_batch_rule(reduce_precision_p)
