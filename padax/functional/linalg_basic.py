"""Products with Paddle's names: matmul (numpy broadcasting rules), mm, bmm, dot, mv, t, addmm, inner,
outer, kron, tensordot, trace (einsum lives in einsum.py).

All are `dot_general` after Paddle type promotion; 1-D operands follow
numpy's matmul rules (a vector on the left is a row, on the right a column,
and that axis is dropped from the result).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import lax_api as lax
from padax.functional._arrays import (
    asarray,
    broadcast_shapes,
    broadcast_to,
    canonicalize_axis,
    is_array,
    promote_and_broadcast,
    result_dtype,
)
from padax.functional._checks import arg as _arg, write_out
from padax.functional.indexed import take_axis
from padax.functional.lax.dot import dot_general_p
from padax.functional.manipulation import diagonal
from padax.functional.math import add, multiply, subtract
from padax.runtime.array import Tensor


def _promote2(op: str, x: Any, y: Any) -> tuple[Any, Any]:
    dt, _ = result_dtype(x, y)
    x, y = asarray(x, dt), asarray(y, dt)
    if dt == dtypes.bool_:
        raise op_type_error(op, f"bool operands are not supported, got {x.aval.str_short()} and {y.aval.str_short()}")
    return x, y


def _swap_last2(x: Any) -> Any:
    nd = x.aval.ndim
    return lax.transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))


_MATRIX_DN = (((1,), (0,)), ((), ()))
# dtypes that promote to themselves whatever the x64 setting
_FAST_DTYPES = frozenset([dtypes.float32, dtypes.bfloat16, dtypes.float16, dtypes.complex64, dtypes.int32])


def matmul(x: Any, y: Any, transpose_x: bool = False, transpose_y: bool = False, name: str | None = None,
           *, out: Any = None) -> Any:
    """Matrix product with batch broadcasting; `transpose_x/y` swap the last two axes first.

    Args:
        x, y: Tensors with at least 1 axis (promoted to a common dtype; bool is rejected); a 1-D x is a row, a 1-D y a column.
        transpose_x, transpose_y: whether to swap the last two axes of x / y first (ignored for 1-D operands).
        out: must be None (Tensors are immutable).

    Returns:
        A Tensor of the promoted dtype: the broadcast batch axes, then [m, n] (vector axes dropped).

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.matmul(a, padax.to_tensor([[1.0], [1.0]])).tolist()
        [[3.0], [7.0]]
        >>> padax.matmul(a, a, transpose_y=True).tolist()
        [[5.0, 11.0], [11.0, 25.0]]
        >>> padax.matmul(padax.ones([5, 2, 3]), padax.ones([3, 4])).shape
        (5, 2, 4)
    """
    if out is not None:
        return write_out(out, matmul(x=x, y=y, transpose_x=transpose_x, transpose_y=transpose_y, name=name), "matmul")
    if type(x) is Tensor and type(y) is Tensor and not (transpose_x or transpose_y):
        # eager matrix @ matrix of one dtype (the common case): nothing to promote or reshape, so
        # skip straight to the primitive (saves ~6 us of Python per call)
        ax, ay = x.aval, y.aval
        if (ax.dtype == ay.dtype and ax.dtype in _FAST_DTYPES and len(ax.shape) == 2 and len(ay.shape) == 2
                and ax.shape[1] == ay.shape[0]):
            return dot_general_p.bind(x, y, dimension_numbers=_MATRIX_DN, preferred_element_type=None)
    x, y = _promote2("matmul", x, y)
    xs0, ys0 = x.aval.shape, y.aval.shape
    if x.aval.ndim == 0 or y.aval.ndim == 0:
        raise op_value_error("matmul", f"operands must be at least 1-D, got shapes {list(xs0)} and {list(ys0)}")
    x_vec, y_vec = x.aval.ndim == 1, y.aval.ndim == 1
    if x_vec:
        x = lax.reshape(x, (1,) + xs0)
    elif transpose_x:
        x = _swap_last2(x)
    if y_vec:
        y = lax.reshape(y, ys0 + (1,))
    elif transpose_y:
        y = _swap_last2(y)
    xs, ys = x.aval.shape, y.aval.shape
    if xs[-1] != ys[-2]:
        raise op_value_error("matmul", f"contracted sizes differ: x of shape {list(xs0)} "
                                       f"(transpose_x={transpose_x}) has {xs[-1]} columns, y of shape "
                                       f"{list(ys0)} (transpose_y={transpose_y}) has {ys[-2]} rows")
    bx, by = xs[:-2], ys[:-2]
    if not by:
        # y is a matrix: contract x's last axis directly, x's leading axes stay free
        out = lax.dot_general(x, y, (((x.aval.ndim - 1,), (0,)), ((), ())))
    else:
        batch = broadcast_shapes("matmul", bx, by)
        x = broadcast_to(x, batch + xs[-2:])
        y = broadcast_to(y, batch + ys[-2:])
        nb = len(batch)
        b = tuple(range(nb))
        out = lax.dot_general(x, y, (((nb + 1,), (nb,)), (b, b)))
    shape = out.aval.shape
    if x_vec and y_vec:
        return lax.reshape(out, shape[:-2])
    if x_vec:
        return lax.reshape(out, shape[:-2] + shape[-1:])
    if y_vec:
        return lax.reshape(out, shape[:-1])
    return out


def mm(input: Any, mat2: Any, name: str | None = None) -> Any:
    """Matrix product (same rules as matmul).

    Args:
        input, mat2: the two factors (promoted to a common dtype; bool is rejected).

    Returns:
        matmul(input, mat2).

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.mm(a, padax.eye(2)).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
    return matmul(input, mat2)


def bmm(x: Any, y: Any, name: str | None = None, *, out: Any = None) -> Any:
    """Batched matrix product of two 3-D Tensors with equal batch sizes.

    Args:
        x: a 3-D Tensor [b, m, k].
        y: a 3-D Tensor [b, k, n] with the same batch size.
        out: must be None (Tensors are immutable).

    Returns:
        A [b, m, n] Tensor of the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.bmm(padax.ones([4, 2, 3]), padax.ones([4, 3, 5])).shape
        (4, 2, 5)
    """
    if out is not None:
        return write_out(out, bmm(x=x, y=y, name=name), "bmm")
    x, y = _arg("bmm", x, "x"), _arg("bmm", y, "y")
    if x.aval.ndim != 3 or y.aval.ndim != 3:
        raise op_value_error("bmm", f"both inputs must be 3-D, got shapes {list(x.aval.shape)} and "
                                    f"{list(y.aval.shape)}")
    if x.aval.shape[0] != y.aval.shape[0]:
        raise op_value_error("bmm", f"batch sizes differ: shapes {list(x.aval.shape)} and {list(y.aval.shape)}")
    return matmul(x, y)


def dot(x: Any, y: Any, name: str | None = None, *, out: Any = None) -> Any:
    """Inner product of 1-D vectors, or row-wise inner products of two 2-D Tensors.

    Args:
        x, y: 1-D or 2-D Tensors of the same shape (promoted to a common dtype; bool is rejected).
        out: must be None (Tensors are immutable).

    Returns:
        A 0-d Tensor for 1-D inputs, a 1-D Tensor of one value per row for 2-D inputs.

    Examples:
        >>> import padax
        >>> float(padax.dot(padax.to_tensor([1.0, 2.0, 3.0]), padax.to_tensor([4.0, 5.0, 6.0])))
        32.0
    """
    if out is not None:
        return write_out(out, dot(x=x, y=y, name=name), "dot")
    x, y = _promote2("dot", x, y)
    if x.aval.shape != y.aval.shape or x.aval.ndim not in (1, 2):
        raise op_value_error("dot", f"inputs must be 1-D or 2-D with equal shapes, got {list(x.aval.shape)} "
                                    f"and {list(y.aval.shape)}")
    if x.aval.ndim == 1:
        return lax.dot_general(x, y, (((0,), (0,)), ((), ())))
    return lax.dot_general(x, y, (((1,), (1,)), ((0,), (0,))))


def t(input: Any, name: str | None = None) -> Any:
    """Transpose of a matrix; 0-D and 1-D Tensors are returned unchanged.

    Args:
        input: a Tensor with at most 2 axes.

    Returns:
        The [n, m] transpose of an [m, n] input; other inputs unchanged.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.t(a).tolist()
        [[1.0, 3.0], [2.0, 4.0]]
    """
    x = asarray(input)
    if x.aval.ndim > 2:
        raise op_value_error("t", f"expects a Tensor of at most 2 axes, got {x.aval.str_short()}; use transpose")
    return x if x.aval.ndim < 2 else lax.transpose(x, (1, 0))


def mv(x: Any, vec: Any, name: str | None = None) -> Any:
    """Matrix-vector product of a 2-D x and a 1-D vec.

    Args:
        x: a 2-D Tensor [m, n].
        vec: a 1-D Tensor [n] (promoted to a common dtype; bool is rejected).

    Returns:
        A 1-D Tensor [m].

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.mv(a, padax.to_tensor([1.0, -1.0])).tolist()
        [-1.0, -1.0]
    """
    x, vec = _promote2("mv", x, vec)
    if x.aval.ndim != 2 or vec.aval.ndim != 1 or x.aval.shape[1] != vec.aval.shape[0]:
        raise op_value_error("mv", f"expects a matrix [m, n] and a vector [n], got {x.aval.str_short()} and "
                                   f"{vec.aval.str_short()}")
    return lax.dot_general(x, vec, (((1,), (0,)), ((), ())))


def addmm(input: Any, x: Any, y: Any, beta: float = 1.0, alpha: float = 1.0, name: str | None = None) -> Any:
    """beta * input + alpha * (x @ y) for 2-D x and y; input broadcasts to the product's shape.

    Args:
        input: a Tensor broadcastable to [m, n].
        x, y: 2-D Tensors [m, k] and [k, n].
        beta, alpha: the scales of input and of the product.

    Returns:
        An [m, n] Tensor.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.addmm(padax.ones([2, 2]), a, padax.eye(2), beta=2.0, alpha=1.0).tolist()
        [[3.0, 4.0], [5.0, 6.0]]
    """
    x, y = _arg("addmm", x, "x"), _arg("addmm", y, "y")
    if x.aval.ndim != 2 or y.aval.ndim != 2:
        raise op_value_error("addmm", f"x and y must be 2-D, got {x.aval.str_short()} and {y.aval.str_short()}")
    p = matmul(x, y)
    inp = asarray(input)
    try:
        shape = broadcast_shapes("addmm", inp.aval.shape, p.aval.shape)
    except ValueError:
        shape = None
    if shape != p.aval.shape:
        raise op_value_error("addmm", f"input {inp.aval.str_short()} does not broadcast to the product shape "
                                      f"{list(p.aval.shape)}")
    a = p if alpha == 1 else multiply(p, alpha)
    b = inp if beta == 1 else multiply(inp, beta)
    return add(b, a)


def inner(x: Any, y: Any, name: str | None = None) -> Any:
    """Sum over the last axes of x and y: shape x.shape[:-1] + y.shape[:-1] (a product for 0-d inputs).

    Args:
        x, y: Tensors whose last axes have equal sizes (or 0-d) (promoted to a common dtype; bool is rejected).

    Returns:
        A Tensor of shape x.shape[:-1] + y.shape[:-1].

    Examples:
        >>> import padax
        >>> float(padax.inner(padax.to_tensor([1.0, 2.0]), padax.to_tensor([3.0, 4.0])))
        11.0
    """
    x, y = _promote2("inner", x, y)
    if x.aval.ndim == 0 or y.aval.ndim == 0:
        return multiply(x, y)
    if x.aval.shape[-1] != y.aval.shape[-1]:
        raise op_value_error("inner", f"the last axes differ: {x.aval.str_short()} and {y.aval.str_short()}")
    return lax.dot_general(x, y, (((x.aval.ndim - 1,), (y.aval.ndim - 1,)), ((), ())))


def outer(x: Any, y: Any, name: str | None = None, *, out: Any = None) -> Any:
    """x[i] * y[j] for the flattened x and y.

    Args:
        x, y: Tensors of any shape (flattened) (promoted to a common dtype; bool is rejected).
        out: must be None (Tensors are immutable).

    Returns:
        A 2-D Tensor [x.size, y.size].

    Examples:
        >>> import padax
        >>> padax.outer(padax.to_tensor([1.0, 2.0]), padax.to_tensor([3.0, 4.0, 5.0])).tolist()
        [[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]]
    """
    if out is not None:
        return write_out(out, outer(x=x, y=y, name=name), "outer")
    x, y = _promote2("outer", x, y)
    xf, yf = lax.reshape(x, (x.aval.size, 1)), lax.reshape(y, (1, y.aval.size))
    return lax.dot_general(xf, yf, (((1,), (0,)), ((), ())))


def kron(x: Any, y: Any, name: str | None = None) -> Any:
    """Kronecker product: blocks x[i, j, ...] * y (ranks are aligned by adding leading size-1 axes).

    Args:
        x, y: Tensors of any rank (promoted to a common dtype; bool is rejected).

    Returns:
        A Tensor whose axis sizes are the products of x's and y's (after aligning ranks).

    Examples:
        >>> import padax
        >>> padax.kron(padax.eye(2), padax.to_tensor([[1.0, 2.0]])).tolist()
        [[1.0, 2.0, 0.0, 0.0], [0.0, 0.0, 1.0, 2.0]]
    """
    x, y = _promote2("kron", x, y)
    nd = max(x.aval.ndim, y.aval.ndim)
    xs = (1,) * (nd - x.aval.ndim) + x.aval.shape
    ys = (1,) * (nd - y.aval.ndim) + y.aval.shape
    inter = tuple(v for a, b in zip(xs, ys) for v in (a, b))
    xb = lax.broadcast_in_dim(lax.reshape(x, xs), inter, tuple(range(0, 2 * nd, 2)))
    yb = lax.broadcast_in_dim(lax.reshape(y, ys), inter, tuple(range(1, 2 * nd, 2)))
    return lax.reshape(lax.mul(xb, yb), tuple(a * b for a, b in zip(xs, ys)))


def tensordot(x: Any, y: Any, axes: Any = 2, name: str | None = None) -> Any:
    """Contract axes of x with axes of y, read as Paddle reads `axes`: an int n (the last n of x with the
    first n of y); a flat list of ints (the same axes of both); [x_axes] (the same for both) or
    [x_axes, y_axes] (entries past the second are ignored; the shorter list is completed with the
    longer one's trailing entries); a Tensor holding any of these.

    Args:
        x, y: the Tensors to contract (promoted to a common dtype; bool is rejected).
        axes: the axes to contract, in one of the forms above (default 2); paired axes must have equal sizes.

    Returns:
        A Tensor with x's free axes followed by y's free axes.

    Examples:
        >>> import padax
        >>> padax.tensordot(padax.ones([2, 3, 4]), padax.ones([3, 4, 5]), axes=2).shape
        (2, 5)
    """
    x, y = _promote2("tensordot", x, y)
    nx, ny = x.aval.ndim, y.aval.ndim
    if is_array(axes):
        axes = np.asarray(axes).tolist()
    if isinstance(axes, (int, np.integer)):
        k = int(axes)
        if not 0 <= k <= min(nx, ny):
            raise op_value_error("tensordot", f"axes={k} is out of range for {x.aval.str_short()} and "
                                              f"{y.aval.str_short()}")
        ax, ay = list(range(nx - k, nx)), list(range(k))
    else:
        axes = list(axes)
        if all(isinstance(a, (int, np.integer)) for a in axes):  # a flat list: the same axes of x and y
            ax, ay = list(axes), list(axes)
        else:
            seqs = [[a] if isinstance(a, (int, np.integer)) else list(a) for a in axes[:2]]
            ax, ay = (seqs[0], seqs[0]) if len(seqs) == 1 else seqs
            if len(ax) < len(ay):
                ax = ax + ay[len(ax):]
            elif len(ay) < len(ax):
                ay = ay + ax[len(ay):]
        ax = [canonicalize_axis("tensordot", a, nx) for a in ax]
        ay = [canonicalize_axis("tensordot", a, ny) for a in ay]
    for a, b in zip(ax, ay):
        if x.aval.shape[a] != y.aval.shape[b]:
            raise op_value_error("tensordot", f"axis {a} of x {x.aval.str_short()} and axis {b} of y "
                                              f"{y.aval.str_short()} differ in size")
    return lax.dot_general(x, y, ((tuple(ax), tuple(ay)), ((), ())))


def trace(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, name: str | None = None) -> Any:
    """Sum of the diagonal (offset above/below the main one) taken over axis1 and axis2.

    Args:
        x: a Tensor with at least 2 axes.
        offset: which diagonal: 0 the main one, > 0 above it, < 0 below it.
        axis1, axis2: the two different axes the diagonal runs over.

    Returns:
        A Tensor of x's other axes (0-d for a matrix); x's dtype, int64 for bool.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> float(padax.trace(a))
        5.0
    """
    d = diagonal(x, offset, axis1, axis2)
    if d.aval.dtype == dtypes.bool_:
        d = lax.convert_element_type(d, dtypes.default_int_dtype())
    return lax.reduce_sum(d, (d.aval.ndim - 1,))


def baddbmm(input: Any, x: Any, y: Any, beta: float = 1.0, alpha: float = 1.0, name: str | None = None) -> Any:
    """beta * input + alpha * bmm(x, y) for 3-D x and y; input broadcasts to the product's shape.

    Args:
        input: a Tensor broadcastable to [b, m, n].
        x, y: 3-D Tensors [b, m, k] and [b, k, n].
        beta, alpha: the scales of input and of the product.

    Returns:
        A [b, m, n] Tensor.

    Examples:
        >>> import padax
        >>> padax.baddbmm(padax.zeros([2, 1, 1]), padax.ones([2, 1, 3]), padax.ones([2, 3, 1]), alpha=0.5).tolist()
        [[[1.5]], [[1.5]]]
    """
    p = bmm(x, y)
    inp = _arg("baddbmm", input, "input")
    try:
        ok = broadcast_shapes("baddbmm", inp.aval.shape, p.aval.shape) == p.aval.shape
    except ValueError:
        ok = False
    if not ok:
        raise op_value_error("baddbmm", f"input {inp.aval.str_short()} does not broadcast to the product shape "
                                        f"{list(p.aval.shape)}")
    return add(inp if beta == 1 else multiply(inp, beta), p if alpha == 1 else multiply(p, alpha))


def cross(x: Any, y: Any, axis: int = 9, name: str | None = None) -> Any:
    """Cross product of 3-vectors along `axis` (default 9 means: the first axis of size 3).

    Args:
        x, y: Tensors broadcast together (dtypes promoted).
        axis: the axis of size 3 holding the vectors; 9 (Paddle's default) picks the first axis of size 3.

    Returns:
        A Tensor of the broadcast shape and promoted dtype.

    Examples:
        >>> import padax
        >>> padax.cross(padax.to_tensor([1.0, 0.0, 0.0]), padax.to_tensor([0.0, 1.0, 0.0])).tolist()
        [0.0, 0.0, 1.0]
    """
    x, y = promote_and_broadcast("cross", _arg("cross", x, "x"), _arg("cross", y, "y"))
    nd = x.aval.ndim
    if axis == 9:
        a = next((d for d, n in enumerate(x.aval.shape) if n == 3), None)
        if a is None:
            raise op_value_error("cross", f"no axis of size 3 in {x.aval.str_short()}")
    else:
        a = canonicalize_axis("cross", axis, nd)
        if x.aval.shape[a] != 3:
            raise op_value_error("cross", f"axis {a} of {x.aval.str_short()} must have size 3")

    def c(t, i):
        return lax.index_in_dim(t, i, a, True)
    x0, x1, x2 = c(x, 0), c(x, 1), c(x, 2)
    y0, y1, y2 = c(y, 0), c(y, 1), c(y, 2)
    return lax.concatenate([lax.sub(lax.mul(x1, y2), lax.mul(x2, y1)), lax.sub(lax.mul(x2, y0), lax.mul(x0, y2)),
                            lax.sub(lax.mul(x0, y1), lax.mul(x1, y0))], a)


def root_of_sum(s: Any, p: float) -> Any:
    """s ** (1/p) of a non-negative sum of |x|**p, with a zero (not NaN) gradient where s is 0 (Paddle's
    p-norms at the zero vector)."""
    zero, one = (lax.broadcast_in_dim(np.asarray(v, s.aval.dtype), s.aval.shape, ()) for v in (0, 1))
    positive = lax.gt(s, zero)
    safe = lax.select(positive, s, one)
    root = lax.sqrt(safe) if p == 2 else lax.pow(safe, lax.broadcast_in_dim(np.asarray(1.0 / p, s.aval.dtype),
                                                                              s.aval.shape, ()))
    return lax.select(positive, root, zero)


def _pnorm(d: Any, p: float, axes: tuple[int, ...]) -> Any:
    a = lax.abs(d)
    if p == np.inf:
        return lax.reduce_max(a, axes)
    if p == -np.inf:
        return lax.reduce_min(a, axes)
    if p == 0:
        return lax.reduce_sum(lax.convert_element_type(lax.ne(a, lax.sub(a, a)), a.aval.dtype), axes)
    if p == 2:
        return root_of_sum(lax.reduce_sum(lax.mul(a, a), axes), 2)
    s = lax.reduce_sum(lax.pow(a, lax.broadcast_in_dim(np.asarray(p, a.aval.dtype), a.aval.shape, ())), axes)
    return root_of_sum(s, p)


def dist(x: Any, y: Any, p: float = 2, name: str | None = None) -> Any:
    """The p-norm of x - y (broadcast), as a 0-d Tensor.

    Args:
        x, y: Tensors broadcast together (integer results computed in the default float dtype).
        p: the norm order: any float, 0 (count of non-zeros), inf (max) or -inf (min).

    Returns:
        A 0-d Tensor.

    Examples:
        >>> import padax
        >>> float(padax.dist(padax.to_tensor([0.0, 0.0]), padax.to_tensor([3.0, 4.0])))
        5.0
        >>> float(padax.dist(padax.to_tensor([0.0, 0.0]), padax.to_tensor([3.0, 4.0]), p=1))
        7.0
    """
    d = subtract(_arg("dist", x, "x"), _arg("dist", y, "y"))
    if not dtypes.is_inexact(d.aval.dtype):
        d = lax.convert_element_type(d, dtypes.default_float_dtype())
    return _pnorm(d, float(p), tuple(range(d.aval.ndim)))


def cdist(x: Any, y: Any, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary",
          name: str | None = None) -> Any:
    """Pairwise p-norm distances between the rows of x [..., P, M] and y [..., R, M]: [..., P, R].

    Args:
        x: a Tensor [..., P, M] (promoted to a common dtype; bool is rejected).
        y: a Tensor [..., R, M]; the batch axes broadcast.
        p: the norm order (as in dist).
        compute_mode: Paddle's choice of algorithm; ignored (the differences are always formed directly).

    Returns:
        A Tensor [..., P, R] (integer inputs give the default float dtype).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[0.0, 0.0], [1.0, 1.0]])
        >>> padax.cdist(x, padax.to_tensor([[3.0, 4.0]])).tolist()
        [[5.0], [3.6056]]
    """
    x, y = _promote2("cdist", x, y)
    if not dtypes.is_inexact(x.aval.dtype):
        x, y = (lax.convert_element_type(v, dtypes.default_float_dtype()) for v in (x, y))
    if x.aval.ndim < 2 or y.aval.ndim < 2 or x.aval.shape[-1] != y.aval.shape[-1]:
        raise op_value_error("cdist", f"x and y must be [..., P, M] and [..., R, M], got {x.aval.str_short()} and "
                                      f"{y.aval.str_short()}")
    batch = broadcast_shapes("cdist", x.aval.shape[:-2], y.aval.shape[:-2])
    P, R, M = x.aval.shape[-2], y.aval.shape[-2], x.aval.shape[-1]
    nb = len(batch)
    xb = broadcast_to(x, batch + (P, M))
    yb = broadcast_to(y, batch + (R, M))
    shape = batch + (P, R, M)
    d = lax.sub(lax.broadcast_in_dim(xb, shape, tuple(range(nb)) + (nb, nb + 2)),
                lax.broadcast_in_dim(yb, shape, tuple(range(nb)) + (nb + 1, nb + 2)))
    return _pnorm(d, float(p), (nb + 2,))


def pdist(x: Any, p: float = 2.0, name: str | None = None) -> Any:
    """The p-norm distances between all pairs of rows i < j of the 2-D x, in row-major pair order.

    Args:
        x: a 2-D Tensor [n, m].
        p: the norm order (as in dist).

    Returns:
        A 1-D Tensor of n * (n - 1) / 2 distances.

    Examples:
        >>> import padax
        >>> padax.pdist(padax.to_tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])).tolist()
        [5.0, 10.0, 5.0]
    """
    x = _arg("pdist", x, "x")
    if x.aval.ndim != 2:
        raise op_value_error("pdist", f"x must be 2-D, got {x.aval.str_short()}")
    n = x.aval.shape[0]
    full_d = cdist(x, x, p)
    i, j = np.triu_indices(n, 1)
    flat = lax.reshape(full_d, (n * n,))
    return take_axis(flat, asarray((i * n + j).astype(np.int32)), 0)


# Paddle's other name for outer (not in __all__: padax/__init__ imports it by name)
def ger(x: Any, y: Any, name: str | None = None, *, out: Any = None) -> Any:
    """outer(x, y): the outer product of two 1-D Tensors, of shape [len(x), len(y)].

    Args:
        x, y: 1-D Tensors (other shapes are flattened; dtypes promoted).
        out: must be None (Tensors are immutable).

    Returns:
        A [len(x), len(y)] Tensor.

    Examples:
        >>> import padax
        >>> padax.ger(padax.to_tensor([1.0, 2.0]), padax.to_tensor([3.0, 4.0, 5.0])).tolist()
        [[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]]
    """
    return outer(x, y, out=out)


__all__ = ["baddbmm", "cross", "dist", "cdist", "pdist", "matmul", "mm", "bmm", "dot", "t", "mv", "addmm", "inner",
           "outer", "kron", "tensordot", "trace"]
