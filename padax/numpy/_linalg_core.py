"""Products: matmul, tensordot, vecdot, einsum, and NumPy's dot, inner, outer, vdot, kron, cross.

All are `dot_general` (or elementwise products) after padax.numpy promotion.
"""
from __future__ import annotations

import builtins
import functools
import importlib
import inspect
from typing import Any, Sequence

import numpy as np

from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.functional import linalg_basic as _L
from padax.functional._arrays import canonicalize_axis
from padax.functional.lax.dot import precision_scope
from padax.numpy import _dtypes as D
from padax.numpy._elementwise import multiply
from padax.numpy._indexing import diagonal
from padax.numpy._manipulation import moveaxis
from padax.numpy._util import broadcast_shapes, broadcast_to, is_array, is_scalar, promote, static_int, to_array


def _promoted(x1: Any, x2: Any) -> list[Any]:
    """Both operands as arrays of their promoted dtype; Python scalars (and weak arrays) promote weakly, as in
    jax (bfloat16 with 0.5 stays bfloat16)."""
    ops = [x if is_scalar(x) or is_array(x) else to_array(x) for x in (x1, x2)]
    return [to_array(x) for x in promote(*ops)]


def _two(op: str, x1: Any, x2: Any, preferred_element_type: Any = None) -> tuple[Any, Any]:
    a, b = _promoted(x1, x2)
    if a.aval.dtype == D.bool_:
        raise op_type_error(op, f"bool operands are not supported, got {a.aval.str_short()} and {b.aval.str_short()}")
    if preferred_element_type is not None:  # the products accumulate in (and return) this dtype
        dt = D.canonicalize(preferred_element_type)
        a, b = lax.convert_element_type(a, dt), lax.convert_element_type(b, dt)
    return a, b


_PRODUCT_ARGS = """    Args:
        precision: how exactly XLA multiplies floats: None (an enclosing precision scope, else the
            `default_matmul_precision` setting), "default", "high", "highest" or a `padax.lax.Precision`.
        preferred_element_type: the dtype the operands are cast to, so the products accumulate in and
            return it (e.g. float32 for bfloat16 operands); None keeps the promoted dtype.

"""


def _products(fn):
    """Give a product function jax's `precision=` and `preferred_element_type=` keywords (and document them
    before its examples)."""
    @functools.wraps(fn)
    def wrapped(*args, precision: Any = None, preferred_element_type: Any = None, **kwargs):
        if precision is None:  # an enclosing scope's precision, if any, stays in force
            return fn(*args, preferred_element_type=preferred_element_type, **kwargs)
        with precision_scope(precision):
            return fn(*args, preferred_element_type=preferred_element_type, **kwargs)
    wrapped.__doc__ = fn.__doc__.replace("    Examples:", _PRODUCT_ARGS + "    Examples:", 1)
    wrapped.__signature__ = inspect.signature(fn).replace(
        parameters=[*inspect.signature(fn).parameters.values(),
                    inspect.Parameter("precision", inspect.Parameter.KEYWORD_ONLY, default=None)])
    return wrapped


@_products
def matmul(x1: Any, x2: Any, /, *, preferred_element_type: Any = None) -> Any:
    """Matrix product with batch broadcasting (1-D operands act as vectors).

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[1, 2], [3, 4]])
        >>> pnp.matmul(a, a).tolist()
        [[7, 10], [15, 22]]
        >>> pnp.matmul(a, pnp.array([1, 1])).tolist()
        [3, 7]
    """
    a, b = _two("matmul", x1, x2, preferred_element_type)
    return _L.matmul(a, b)


@_products
def tensordot(x1: Any, x2: Any, /, axes: Any = 2, *, preferred_element_type: Any = None) -> Any:
    """Sum products over the last `axes` axes of x1 and the first of x2 (or the given axis pairs).

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.arange(6).reshape(2, 3)
        >>> pnp.tensordot(a, a, axes=([1], [1])).tolist()
        [[5, 14], [14, 50]]
        >>> pnp.tensordot(a, a, 2).tolist()
        55
    """
    a, b = _two("tensordot", x1, x2, preferred_element_type)
    if isinstance(axes, (builtins.int, np.integer)):
        n = builtins.int(axes)
        if n < 0 or n > a.aval.ndim or n > b.aval.ndim:
            raise op_value_error("tensordot", f"axes={n} is out of range for {a.aval.str_short()} and "
                                              f"{b.aval.str_short()}")
        ca = tuple(builtins.range(a.aval.ndim - n, a.aval.ndim))
        cb = tuple(builtins.range(n))
    else:
        xa, xb = axes
        xa = [xa] if isinstance(xa, (builtins.int, np.integer)) else list(xa)
        xb = [xb] if isinstance(xb, (builtins.int, np.integer)) else list(xb)
        if len(xa) != len(xb):
            raise op_value_error("tensordot", f"axes {axes} must pair up axes of x1 and x2")
        ca = tuple(canonicalize_axis("tensordot", i, a.aval.ndim) for i in xa)
        cb = tuple(canonicalize_axis("tensordot", i, b.aval.ndim) for i in xb)
    for i, j in zip(ca, cb):
        if a.aval.shape[i] != b.aval.shape[j]:
            raise op_value_error("tensordot", f"contracted axes differ in size: {a.aval.str_short()} axis {i} "
                                              f"and {b.aval.str_short()} axis {j}")
    return lax.dot_general(a, b, ((ca, cb), ((), ())))


@_products
def vecdot(x1: Any, x2: Any, /, *, axis: builtins.int = -1, preferred_element_type: Any = None) -> Any:
    """Dot products of vectors along `axis` (x1 conjugated), other axes broadcast.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.vecdot(pnp.array([[1.0, 2.0], [3.0, 4.0]]), pnp.array([1.0, 1.0])).tolist()
        [3.0, 7.0]
        >>> pnp.vecdot(pnp.array([1j]), pnp.array([1j])).tolist()
        (1+0j)
    """
    a, b = _two("vecdot", x1, x2, preferred_element_type)
    shape = broadcast_shapes("vecdot", a.aval.shape, b.aval.shape)
    nd = len(shape)
    if nd == 0:
        raise op_value_error("vecdot", "needs at least 1-D operands")
    ax = canonicalize_axis("vecdot", static_int("vecdot", axis, "axis"), nd)
    k = ax - nd  # negative position, valid in both operands when they have it
    da = a.aval.shape[k] if a.aval.ndim >= -k else 1
    db = b.aval.shape[k] if b.aval.ndim >= -k else 1
    if da != db:
        raise op_value_error("vecdot", f"axis {axis} differs in size: {a.aval.str_short()} and {b.aval.str_short()}")
    a, b = broadcast_to(a, shape), broadcast_to(b, shape)
    if D.kind(a.aval.dtype) == 3:
        a = lax.conj(a)
    batch = tuple(i for i in builtins.range(nd) if i != ax)
    return lax.dot_general(a, b, (((ax,), (ax,)), (batch, batch)))


@_products
def dot(a: Any, b: Any, *, preferred_element_type: Any = None) -> Any:
    """NumPy's dot: products for 0-d, inner for 1-D, matmul for 2-D, and sum over a's last / b's
    second-to-last axis otherwise.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.dot(pnp.array([1, 2, 3]), pnp.array([4, 5, 6])).tolist()
        32
        >>> pnp.dot(pnp.array([[1, 0], [0, 2]]), pnp.array([3, 4])).tolist()
        [3, 8]
    """
    x, y = _two("dot", a, b, preferred_element_type)
    if x.aval.ndim == 0 or y.aval.ndim == 0:
        return multiply(x, y)
    if y.aval.ndim == 1:
        return tensordot(x, y, axes=([-1], [0]))
    return tensordot(x, y, axes=([-1], [-2]))


@_products
def inner(a: Any, b: Any, *, preferred_element_type: Any = None) -> Any:
    """Sum of products over the last axes of a and b.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.inner(pnp.array([[1, 2], [3, 4]]), pnp.array([1, 10])).tolist()
        [21, 43]
    """
    x, y = _two("inner", a, b, preferred_element_type)
    if x.aval.ndim == 0 or y.aval.ndim == 0:
        return multiply(x, y)
    return tensordot(x, y, axes=([-1], [-1]))


def outer(a: Any, b: Any) -> Any:
    """Outer product of the flattened inputs.

    Args:
        a, b: arrays or array-likes of any shape (flattened); promoted to a common dtype.

    Returns:
        A 2-D array of shape (a.size, b.size).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.outer(pnp.array([1, 2]), pnp.array([1, 10, 100])).tolist()
        [[1, 10, 100], [2, 20, 200]]
    """
    x, y = _two("outer", a, b)
    x, y = lax.reshape(x, (x.aval.size,)), lax.reshape(y, (y.aval.size,))
    shape = (x.aval.size, y.aval.size)
    return lax.mul(lax.broadcast_in_dim(x, shape, (0,)), lax.broadcast_in_dim(y, shape, (1,)))


@_products
def vdot(a: Any, b: Any, *, preferred_element_type: Any = None) -> Any:
    """Dot product of the flattened inputs, the first conjugated.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.vdot(pnp.array([1j, 2.0]), pnp.array([1j, 3.0])).tolist()
        (7+0j)
    """
    x, y = _two("vdot", a, b, preferred_element_type)
    x, y = lax.reshape(x, (x.aval.size,)), lax.reshape(y, (y.aval.size,))
    if D.kind(x.aval.dtype) == 3:
        x = lax.conj(x)
    return lax.dot_general(x, y, (((0,), (0,)), ((), ())))


def kron(a: Any, b: Any) -> Any:
    """Kronecker product.

    Args:
        a, b: arrays or array-likes; the shorter shape is padded with leading 1s.

    Returns:
        An array of shape a.shape * b.shape (elementwise) in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.kron(pnp.array([[1, 2]]), pnp.array([[1], [10]])).tolist()
        [[1, 2], [10, 20]]
    """
    x, y = _promoted(a, b)
    nd = builtins.max(x.aval.ndim, y.aval.ndim)
    xs = (1,) * (nd - x.aval.ndim) + x.aval.shape
    ys = (1,) * (nd - y.aval.ndim) + y.aval.shape
    x, y = lax.reshape(x, xs), lax.reshape(y, ys)
    inter = tuple(v for p in zip(xs, ys) for v in p)
    xb = lax.broadcast_in_dim(x, inter, tuple(builtins.range(0, 2 * nd, 2)))
    yb = lax.broadcast_in_dim(y, inter, tuple(builtins.range(1, 2 * nd, 2)))
    return lax.reshape(lax.mul(xb, yb), tuple(p * q for p, q in zip(xs, ys)))


def _cross3(a: Any, b: Any, ax: builtins.int) -> Any:
    def comp(x, i):
        return lax.slice_in_dim(x, i, i + 1, 1, ax)
    a0, a1, a2 = (comp(a, i) for i in builtins.range(3))
    b0, b1, b2 = (comp(b, i) for i in builtins.range(3))
    c0 = lax.sub(lax.mul(a1, b2), lax.mul(a2, b1))
    c1 = lax.sub(lax.mul(a2, b0), lax.mul(a0, b2))
    c2 = lax.sub(lax.mul(a0, b1), lax.mul(a1, b0))
    return lax.concatenate([c0, c1, c2], ax)


def _with_zero_z(v: Any) -> Any:
    if v.aval.shape[-1] == 3:
        return v
    return lax.pad(v, np.zeros((), v.aval.dtype), [(0, 0, 0)] * (v.aval.ndim - 1) + [(0, 1, 0)])


def cross(a: Any, b: Any, axisa: builtins.int = -1, axisb: builtins.int = -1, axisc: builtins.int = -1,
          axis: builtins.int | None = None) -> Any:
    """Cross product of 3-vectors along the given axes (other axes broadcast). As NumPy, 2-vectors are
    taken with z = 0: two of them give the z component (a scalar per pair), one with a 3-vector a 3-vector.

    Args:
        a, b: arrays of 2- or 3-vectors along their vector axes; other axes broadcast.
        axisa, axisb: the vector axes of a and b.
        axisc: the vector axis of the result.
        axis: if given, overrides all three.

    Returns:
        An array of 3-vectors (along `axisc`), or of scalars when both inputs are 2-vectors.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.cross(pnp.array([1.0, 0.0, 0.0]), pnp.array([0.0, 1.0, 0.0])).tolist()
        [0.0, 0.0, 1.0]
    """
    x, y = _two("cross", a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    x = moveaxis(x, axisa, -1)
    y = moveaxis(y, axisb, -1)
    na, nb = x.aval.shape[-1], y.aval.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise op_value_error("cross", f"vectors must have 2 or 3 components, got {x.aval.str_short()} and "
                                      f"{y.aval.str_short()}")
    if na == nb == 2:  # NumPy's 2-vector product: the z component alone, a scalar per pair
        shape = broadcast_shapes("cross", x.aval.shape, y.aval.shape)
        x, y = broadcast_to(x, shape), broadcast_to(y, shape)
        last = len(shape) - 1
        comp = (lambda v, i: lax.squeeze(lax.slice_in_dim(v, i, i + 1, axis=last), (last,)))
        return lax.sub(lax.mul(comp(x, 0), comp(y, 1)), lax.mul(comp(x, 1), comp(y, 0)))
    x, y = _with_zero_z(x), _with_zero_z(y)  # a 2-vector against a 3-vector has z = 0
    shape = broadcast_shapes("cross", x.aval.shape, y.aval.shape)
    out = _cross3(broadcast_to(x, shape), broadcast_to(y, shape), len(shape) - 1)
    return moveaxis(out, -1, axisc)


# ---- einsum -------------------------------------------------------------------------------------

def _parse_einsum(subscripts: str, shapes: Sequence[tuple[int, ...]]) -> tuple[list[str], str]:
    s = subscripts.replace(" ", "")
    if "->" in s:
        lhs, out = s.split("->")
    else:
        lhs, out = s, None
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise op_value_error("einsum", f"{len(terms)} operand terms in {subscripts!r}, {len(shapes)} operands")
    n_ell = 0
    for t, sh in zip(terms, shapes):
        if "..." in t:
            n_ell = builtins.max(n_ell, len(sh) - (len(t) - 3))
    ell = "".join(chr(0x3B1 + i) for i in builtins.range(n_ell))  # Greek letters stand for '...'
    new_terms = []
    for t, sh in zip(terms, shapes):
        if "..." in t:
            k = len(sh) - (len(t) - 3)
            t = t.replace("...", ell[n_ell - k:] if k else "")
        if len(t) != len(sh):
            raise op_value_error("einsum", f"term {t!r} does not match an operand of rank {len(sh)}")
        new_terms.append(t)
    if out is None:
        counts: dict[str, int] = {}
        for t in new_terms:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, k in counts.items() if k == 1 and c not in ell))
    else:
        out = out.replace("...", ell)
    return new_terms, out


def _einsum_diag(x: Any, t: str) -> tuple[Any, str]:
    while True:
        rep = next((c for c in t if t.count(c) > 1), None)
        if rep is None:
            return x, t
        i = t.index(rep)
        j = t.index(rep, i + 1)
        x = diagonal(x, 0, i, j)
        t = "".join(c for k, c in enumerate(t) if k not in (i, j)) + rep


def _sublist_subscripts(args: Sequence[Any]) -> tuple[str, list[Any]]:
    """NumPy's sublist form einsum(op0, sub0, op1, sub1, ..., [out]) as (subscripts, operands): each
    sublist holds ints (axis labels, 0..51) and Ellipsis."""
    def letters(sub: Any) -> str:
        out = []
        for s in sub:
            if s is Ellipsis:
                out.append("...")
            elif isinstance(s, (builtins.int, np.integer)) and 0 <= s < 52:
                out.append("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[s])
            else:
                raise op_value_error("einsum", f"sublist labels must be ints in [0, 52) or Ellipsis, got {s!r}")
        return "".join(out)
    ops, terms = list(args[0::2][:len(args) // 2]), [letters(s) for s in args[1::2][:len(args) // 2]]
    out = "->" + letters(args[-1]) if len(args) % 2 else ""
    return ",".join(terms) + out, ops


def einsum(subscripts: Any, /, *operands: Any, optimize: Any = None, precision: Any = None,
           preferred_element_type: Any = None) -> Any:
    """Einstein summation (NumPy's notation, '...' included, or its sublist form
    einsum(a, [0, 1], b, [1, 2], [0, 2])) after padax.numpy promotion.

    Delegates to padax's einsum (`padax.functional.einsum`); the local
    left-to-right contraction below is the fallback when that is absent.

    Args:
        subscripts: the index string, e.g. "ij,jk->ik" (or the first operand of the sublist form).
        operands: the arrays.
        optimize: accepted for NumPy and jax.numpy calls; padax chooses the contraction order itself.
        precision, preferred_element_type: as for `matmul`.

    Returns:
        The contraction, with the promoted dtype (or `preferred_element_type`).

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[1, 2], [3, 4]])
        >>> pnp.einsum("ij,jk->ik", a, a).tolist(), pnp.einsum("ii", a).tolist()
        ([[7, 10], [15, 22]], 5)
        >>> pnp.einsum(a, [0, 1], a, [1, 0]).tolist()  # the sublist form: sum of a * a.T
        29
    """
    if not isinstance(subscripts, str):
        subscripts, operands = _sublist_subscripts((subscripts,) + operands)
    if precision is None:
        return _einsum(subscripts, operands, preferred_element_type)
    with precision_scope(precision):
        return _einsum(subscripts, operands, preferred_element_type)


def _einsum(subscripts: str, operands: Sequence[Any], preferred_element_type: Any) -> Any:
    ops = promote(*[to_array(o) for o in operands])
    try:
        delegate = importlib.import_module("padax.functional.einsum").einsum
    except (ImportError, AttributeError):
        delegate = None
    if delegate is not None:
        r = delegate(subscripts, *ops)
        if preferred_element_type is not None:
            r = lax.convert_element_type(r, D.canonicalize(preferred_element_type))
        return r
    terms, out = _parse_einsum(subscripts, [o.aval.shape for o in ops])
    sizes: dict[str, int] = {}
    for t, o in zip(terms, ops):
        for c, d in zip(t, o.aval.shape):
            if d != 1:
                if sizes.get(c, d) != d:
                    raise op_value_error("einsum", f"index {c!r} has sizes {sizes[c]} and {d}")
                sizes[c] = d
            else:
                sizes.setdefault(c, 1)
    items = []
    for t, o in zip(terms, ops):
        o, t = _einsum_diag(o, t)
        target = tuple(sizes[c] for c in t)
        if o.aval.shape != target:
            o = broadcast_to(o, target)
        items.append((o, t))

    def needed_elsewhere(c: str, skip: set) -> bool:
        return c in out or builtins.any(c in t for k, (_, t) in enumerate(items) if k not in skip)

    # sum out indices private to one operand
    for k, (o, t) in enumerate(items):
        private = [i for i, c in enumerate(t) if not needed_elsewhere(c, {k})]
        if private:
            o = lax.reduce_sum(o, tuple(private))
            t = "".join(c for i, c in enumerate(t) if i not in private)
        items[k] = (o, t)
    while len(items) > 1:
        (a, ta), (b, tb) = items[0], items[1]
        rest = items[2:]
        later = set("".join(t for _, t in rest)) | set(out)
        shared = [c for c in ta if c in tb]
        batch = [c for c in shared if c in later]
        contract = [c for c in shared if c not in later]
        dn = ((tuple(ta.index(c) for c in contract), tuple(tb.index(c) for c in contract)),
              (tuple(ta.index(c) for c in batch), tuple(tb.index(c) for c in batch)))
        r = lax.dot_general(a, b, dn)
        tr = "".join(batch) + "".join(c for c in ta if c not in shared) + "".join(c for c in tb if c not in shared)
        items = [(r, tr)] + rest
    r, tr = items[0]
    extra = [i for i, c in enumerate(tr) if c not in out]
    if extra:
        r = lax.reduce_sum(r, tuple(extra))
        tr = "".join(c for c in tr if c in out)
    if tr != out:
        r = lax.transpose(r, tuple(tr.index(c) for c in out))
    if preferred_element_type is not None:
        r = lax.convert_element_type(r, D.canonicalize(preferred_element_type))
    return r


def _correlate_full(a: Any, v: Any) -> Any:
    """Every lag of the cross-correlation sum_n a[n + k] * v[n] of 1-D a and v (len(a) + len(v) - 1 lags)."""
    n, m = a.aval.shape[0], v.aval.shape[0]
    out = lax.conv_general_dilated(lax.reshape(a, (1, 1, n)), lax.reshape(v, (1, 1, m)), (1,), [(m - 1, m - 1)])
    return lax.reshape(out, (n + m - 1,))


def _one_d_products(op: str, a: Any, v: Any, mode: str, preferred_element_type: Any) -> tuple[Any, Any, str]:
    x, y = _two(op, a, v, preferred_element_type)
    if x.aval.ndim != 1 or y.aval.ndim != 1:
        raise op_value_error(op, f"needs 1-D arrays, got {x.aval.str_short()} and {y.aval.str_short()}")
    if x.aval.shape[0] == 0 or y.aval.shape[0] == 0:
        raise op_value_error(op, f"needs non-empty arrays, got {x.aval.str_short()} and {y.aval.str_short()}")
    if mode not in ("full", "same", "valid"):
        raise op_value_error(op, f"mode must be 'full', 'same' or 'valid', got {mode!r}")
    return x, y, mode


def _mode_slice(full: Any, n: builtins.int, m: builtins.int, mode: str) -> Any:
    """The lags NumPy's `mode` keeps from the full result (n >= m)."""
    if mode == "full":
        return full
    start, size = ((m - 1) // 2, n) if mode == "same" else (m - 1, n - m + 1)
    return lax.slice(full, (start,), (start + size,))


@_products
def convolve(a: Any, v: Any, mode: str = "full", *, preferred_element_type: Any = None) -> Any:
    """Discrete linear convolution of two 1-D arrays (NumPy's modes 'full', 'same', 'valid').

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.convolve(pnp.array([1.0, 2.0, 3.0]), pnp.array([0.0, 1.0, 0.5])).tolist()
        [0.0, 1.0, 2.5, 4.0, 1.5]
        >>> pnp.convolve(pnp.array([1.0, 2.0, 3.0]), pnp.array([0.0, 1.0, 0.5]), mode="same").tolist()
        [1.0, 2.5, 4.0]
    """
    x, y, mode = _one_d_products("convolve", a, v, mode, preferred_element_type)
    if y.aval.shape[0] > x.aval.shape[0]:  # convolution commutes; NumPy slices against the longer one
        x, y = y, x
    full = _correlate_full(x, lax.rev(y, (0,)))
    return _mode_slice(full, x.aval.shape[0], y.aval.shape[0], mode)


@_products
def correlate(a: Any, v: Any, mode: str = "valid", *, preferred_element_type: Any = None) -> Any:
    """Cross-correlation sum_n a[n + k] * conj(v[n]) of two 1-D arrays (NumPy's modes).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.correlate(pnp.array([1.0, 2.0, 3.0]), pnp.array([0.0, 1.0, 0.5])).tolist()
        [3.5]
        >>> pnp.correlate(pnp.array([1.0, 2.0, 3.0]), pnp.array([1.0, 0.5]), mode="full").tolist()
        [0.5, 2.0, 3.5, 3.0]
    """
    x, y, mode = _one_d_products("correlate", a, v, mode, preferred_element_type)
    if D.kind(y.aval.dtype) == 3:
        y = lax.conj(y)
    if y.aval.shape[0] <= x.aval.shape[0]:
        return _mode_slice(_correlate_full(x, y), x.aval.shape[0], y.aval.shape[0], mode)
    # the longer array second: the lags of the swapped correlation, reversed
    kept = _mode_slice(_correlate_full(y, x), y.aval.shape[0], x.aval.shape[0], mode)
    return lax.rev(kept, (0,))


__all__ = ["matmul", "tensordot", "vecdot", "dot", "inner", "outer", "vdot", "kron", "cross", "einsum",
           "convolve", "correlate"]
