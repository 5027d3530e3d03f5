"""padax.sparse's functions (Paddle's paddle.sparse): creation, conversion, math, matmul.

Values are computed with padax's gather / scatter-add, so they differentiate and batch; index
arithmetic that only moves entries (transpose, reshape, CSR <-> COO of sorted entries) is traced too.
Results whose pattern depends on the index values (coalesce, unions in add/subtract/multiply,
slice, sum over an axis, sparse @ sparse) compute the pattern on the host from concrete indices.
"""
from __future__ import annotations

import builtins
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import padax
import padax.numpy as pnp
from padax.sparse._tensor import SparseCooTensor, SparseCsrTensor, host_indices

_INT_DTYPES = ("int8", "int16", "int32", "int64", "uint8")


def _is_sparse(x: Any) -> bool:
    return isinstance(x, (SparseCooTensor, SparseCsrTensor))


def _require_sparse(op: str, x: Any) -> None:
    if not _is_sparse(x):
        raise TypeError(f"padax.sparse.{op}: expected a SparseCooTensor or SparseCsrTensor, got {type(x).__name__}")


def _as_index(op: str, what: str, a: Any) -> Any:
    a = padax.asarray(a)
    if str(a.dtype) not in _INT_DTYPES:
        raise TypeError(f"padax.sparse.{op}: {what} must be an integer array (int8/int16/int32/int64), got {a.dtype}")
    return a.astype("int64")


def _values(values: Any, dtype: Any) -> Any:
    v = padax.to_tensor(values) if not hasattr(values, "dtype") or isinstance(values, np.ndarray) else values
    v = padax.asarray(v)
    return v.astype(dtype) if dtype is not None else v


def _strides(dims: Sequence[int]) -> list[int]:
    out, acc = [], 1
    for d in reversed(list(dims)):
        out.append(acc)
        acc *= int(d)
    return out[::-1]


def _linear(indices: Any, dims: Sequence[int]) -> Any:
    """Row-major linear index of each entry (traceable)."""
    lin = pnp.zeros((indices.shape[1],), "int64")
    for i, s in enumerate(_strides(dims)):
        lin = lin + indices[i] * s
    return lin


def _unlinear(lin: Any, dims: Sequence[int]) -> Any:
    return pnp.stack([(lin // s) % int(d) for s, d in zip(_strides(dims), dims)])


# ---------------------------------------------------------------- creation and conversion

def sparse_coo_tensor(indices: Any, values: Any, shape: Sequence[int] | None = None, dtype: Any = None,
                      place: Any = None, stop_gradient: bool = True) -> SparseCooTensor:
    """A sparse tensor in coordinate format from the indices and values of its stored entries.

    Args:
        indices: integer array [sparse_dim, nnz] (stored as int64).
        values: array [nnz, ...dense dims].
        shape: the dense shape (default: the smallest one holding every index, then the dense dims).
        dtype: the values' dtype (default: inferred from values).
        place: unused (padax places arrays with `padax.device_put`).
        stop_gradient: unused (padax differentiates with `padax.grad`).

    Returns:
        A SparseCooTensor (duplicates are kept; `coalesce` merges them).

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1., 2., 3.], [3, 3])
        >>> x.to_dense().tolist()
        [[0.0, 1.0, 0.0], [0.0, 0.0, 2.0], [3.0, 0.0, 0.0]]
    """
    idx = _as_index("sparse_coo_tensor", "indices", indices)
    vals = _values(values, dtype)
    if idx.ndim != 2:
        raise ValueError(f"padax.sparse.sparse_coo_tensor: indices must be 2-D [sparse_dim, nnz], got {idx.shape}")
    if vals.ndim == 0 or vals.shape[0] != idx.shape[1]:
        raise ValueError(f"padax.sparse.sparse_coo_tensor: indices and values need the same nnz, got "
                         f"{idx.shape[1]} and {vals.shape[0] if vals.ndim else 'a scalar'}")
    sparse_dim, dense_dims = idx.shape[0], tuple(vals.shape[1:])
    if shape is None:
        (h,) = host_indices("sparse_coo_tensor (inferring shape; pass shape=)", idx)
        shape = tuple(int(m) + 1 for m in (h.max(axis=1) if h.size else np.zeros(sparse_dim, int))) + dense_dims
    shape = tuple(int(s) for s in shape)
    if len(shape) != sparse_dim + len(dense_dims):
        raise ValueError(f"padax.sparse.sparse_coo_tensor: len(shape) must be sparse_dim ({sparse_dim}) + dense_dim "
                         f"({len(dense_dims)}), got shape {list(shape)}")
    if tuple(shape[sparse_dim:]) != dense_dims:
        raise ValueError(f"padax.sparse.sparse_coo_tensor: the trailing shape {list(shape[sparse_dim:])} must be "
                         f"values' dense dims {list(dense_dims)}")
    return SparseCooTensor(idx, vals, shape)


def sparse_csr_tensor(crows: Any, cols: Any, values: Any, shape: Sequence[int] | None = None, dtype: Any = None,
                      place: Any = None, stop_gradient: bool = True) -> SparseCsrTensor:
    """A sparse matrix (2-D) or batch of matrices (3-D) in compressed sparse row format.

    Args:
        crows: integer [rows + 1] (or [batch * (rows + 1)]): where each row's entries start.
        cols: integer [nnz]: the column of each entry.
        values: [nnz]: the entries.
        shape: [rows, cols] or [batch, rows, cols] (default: inferred as Paddle does).
        dtype: the values' dtype.
        place: unused.
        stop_gradient: unused.

    Returns:
        A SparseCsrTensor.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_csr_tensor([0, 2, 3, 5], [1, 3, 2, 0, 1], [1, 2, 3, 4, 5], [3, 4])
        >>> x.to_dense().tolist()
        [[0, 1, 0, 2], [0, 0, 3, 0], [4, 5, 0, 0]]
    """
    crows = _as_index("sparse_csr_tensor", "crows", crows)
    cols = _as_index("sparse_csr_tensor", "cols", cols)
    vals = _values(values, dtype)
    if crows.ndim != 1 or cols.ndim != 1 or vals.ndim != 1:
        raise ValueError("padax.sparse.sparse_csr_tensor: crows, cols and values must be 1-D")
    if cols.shape[0] != vals.shape[0]:
        raise ValueError(f"padax.sparse.sparse_csr_tensor: cols and values need the same length, got "
                         f"{cols.shape[0]} and {vals.shape[0]}")
    if shape is None:
        hc, hk = host_indices("sparse_csr_tensor (inferring shape; pass shape=)", crows, cols)
        batches = int(np.sum(hc[:-1] > hc[1:])) + 1
        if len(hc) % batches:
            raise ValueError("padax.sparse.sparse_csr_tensor: crows cannot be split into equal batches")
        rows, ncols = len(hc) // batches - 1, int(hk.max()) + 1
        shape = (rows, ncols) if batches == 1 else (batches, rows, ncols)
    shape = tuple(int(s) for s in shape)
    if len(shape) not in (2, 3):
        raise ValueError(f"padax.sparse.sparse_csr_tensor: only 2-D or 3-D shapes, got {list(shape)}")
    batch = shape[0] if len(shape) == 3 else 1
    if crows.shape[0] != batch * (shape[-2] + 1):
        raise ValueError(f"padax.sparse.sparse_csr_tensor: crows needs {batch} * (rows + 1) = "
                         f"{batch * (shape[-2] + 1)} entries for shape {list(shape)}, got {crows.shape[0]}")
    return SparseCsrTensor(crows, cols, vals, shape)


def to_sparse_coo(x: Any, sparse_dim: int | None = None) -> SparseCooTensor:
    """A dense tensor's (or a CSR tensor's) COO form, entries in row-major order.

    The stored entries are the positions where some value of the dense dims is nonzero, which needs
    a concrete dense tensor (the gathered values differentiate); a CSR tensor converts traceably.

    Args:
        x: a dense tensor, or a sparse tensor.
        sparse_dim: how many leading dims are sparse (default: all of them).

    Returns:
        A SparseCooTensor.

    Examples:
        >>> import padax
        >>> d = padax.to_tensor([[0., 1.], [2., 0.]])
        >>> padax.sparse.to_sparse_coo(d, 2).indices().tolist()
        [[0, 1], [1, 0]]
    """
    if isinstance(x, SparseCsrTensor):
        return csr_to_coo(x)
    if isinstance(x, SparseCooTensor):
        return x
    x = padax.asarray(x)
    sd = x.ndim if sparse_dim is None else int(sparse_dim)
    if not 0 < sd <= x.ndim:
        raise ValueError(f"padax.sparse.to_sparse_coo: sparse_dim must be in [1, {x.ndim}], got {sparse_dim}")
    (h,) = host_indices("to_sparse_coo (the pattern is where the dense tensor is nonzero)", x)
    mask = h != 0
    if sd < x.ndim:
        mask = mask.any(axis=tuple(range(sd, x.ndim)))
    where = np.nonzero(mask)
    vals = x[tuple(padax.to_tensor(w.astype(np.int64)) for w in where)] if where[0].size else \
        pnp.zeros((0,) + tuple(x.shape[sd:]), x.dtype)
    idx = padax.to_tensor(np.stack(where).astype(np.int64).reshape(sd, -1))
    return SparseCooTensor(idx, vals, x.shape)


def to_sparse_csr(x: Any) -> SparseCsrTensor:
    """The CSR form of a dense or COO tensor (2-D or 3-D; COO entries must be sorted, as after coalesce).

    A COO tensor with concrete indices is coalesced first; traced indices are sorted (traceably) and
    must then be free of duplicates.

    Args:
        x: a dense tensor or a SparseCooTensor without dense dims.

    Returns:
        A SparseCsrTensor.

    Examples:
        >>> import padax
        >>> c = padax.sparse.to_sparse_csr(padax.to_tensor([[0., 1.], [2., 3.]]))
        >>> c.crows().tolist(), c.cols().tolist(), c.values().tolist()
        ([0, 1, 3], [1, 0, 1], [1.0, 2.0, 3.0])
    """
    if isinstance(x, SparseCsrTensor):
        return x
    if not isinstance(x, SparseCooTensor):
        x = to_sparse_coo(x)
    if x.ndim not in (2, 3) or x.dense_dim():
        raise ValueError(f"padax.sparse.to_sparse_csr: needs a 2-D or 3-D tensor without dense dims, got shape "
                         f"{list(x.shape)} with sparse_dim {x.sparse_dim()}")
    try:
        np.asarray(x.indices())
        x = coalesce(x)
    except TypeError:  # traced indices: sorted (traceably) and taken as free of duplicates
        order = pnp.argsort(_linear(x.indices(), x.shape))
        x = SparseCooTensor(x.indices()[:, order], x.values()[order], x.shape)
    idx, rows = x.indices(), x.shape[-2]
    if x.ndim == 2:
        counts = pnp.zeros((rows,), "int64").at[idx[0]].add(1)
        crows = pnp.concatenate([pnp.zeros((1,), "int64"), pnp.cumsum(counts)])
    else:
        counts = pnp.zeros((x.shape[0], rows), "int64").at[idx[0], idx[1]].add(1)
        crows = pnp.concatenate([pnp.zeros((x.shape[0], 1), "int64"), pnp.cumsum(counts, axis=1)], axis=1)
        crows = crows.reshape(-1)
    return SparseCsrTensor(crows, idx[-1], x.values(), x.shape)


def csr_to_coo(x: SparseCsrTensor) -> SparseCooTensor:
    """The COO form of a CSR tensor, in the same entry order (traceable: nnz is static)."""
    crows, nnz = x.crows(), x.nnz()
    k = pnp.arange(nnz, dtype="int64")
    if x.ndim == 2:
        row = pnp.sum((crows[1:][None, :] <= k[:, None]).astype("int64"), axis=1)
        idx = pnp.stack([row, x.cols()])
    else:
        b, m = x.shape[0], x.shape[1]
        c2 = crows.reshape(b, m + 1)
        ends = pnp.cumsum(c2[:, -1])
        batch = pnp.sum((ends[None, :] <= k[:, None]).astype("int64"), axis=1)
        local = k - (ends - c2[:, -1])[batch]
        row = pnp.sum((c2[batch][:, 1:] <= local[:, None]).astype("int64"), axis=1)
        idx = pnp.stack([batch, row, x.cols()])
    return SparseCooTensor(idx, x.values(), x.shape)


def to_dense(x: Any) -> Any:
    """The dense tensor of a sparse one; a dense tensor is returned as is.

    Duplicate COO entries add up (as after `coalesce`; Paddle 3.3's to_dense keeps one of them).

    Args:
        x: a sparse (or dense) tensor.

    Returns:
        A dense tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> padax.sparse.to_dense(padax.sparse.sparse_coo_tensor([[0, 0], [1, 1]], [1., 2.], [1, 2])).tolist()
        [[0.0, 3.0]]
    """
    return x.to_dense() if _is_sparse(x) else padax.asarray(x)


def is_coalesced(x: Any) -> bool:
    """Whether a COO tensor's indices are sorted row-major and distinct (CSR tensors: True).

    Args:
        x: a sparse tensor (its indices must be concrete).

    Returns:
        A Python bool.

    Examples:
        >>> import padax
        >>> padax.sparse.sparse_coo_tensor([[1, 0]], [1., 2.], [2]).is_coalesced()
        False
    """
    _require_sparse("is_coalesced", x)
    if isinstance(x, SparseCsrTensor):
        return True
    (h,) = host_indices("is_coalesced", x.indices())
    if h.shape[1] < 2:
        return True
    lin = np.ravel_multi_index(tuple(h), x.shape[:x.sparse_dim()])
    return bool(np.all(np.diff(lin) > 0))


def coalesce(x: SparseCooTensor, name: str | None = None) -> SparseCooTensor:
    """Indices sorted in row-major order with the values of duplicate indices summed (Paddle's coalesce).

    Needs concrete indices (the number of distinct entries is the result's nnz); values may be traced.

    Args:
        x: a SparseCooTensor.
        name: unused (Paddle's).

    Returns:
        The coalesced SparseCooTensor.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[1, 0, 1], [2, 1, 2]], [1., 2., 3.], [3, 3])
        >>> c = padax.sparse.coalesce(x)
        >>> c.indices().tolist(), c.values().tolist()
        ([[0, 1], [1, 2]], [2.0, 4.0])
    """
    if isinstance(x, SparseCsrTensor):
        return x
    _require_sparse("coalesce", x)
    (h,) = host_indices("coalesce", x.indices())
    dims = x.shape[:x.sparse_dim()]
    lin = np.ravel_multi_index(tuple(h), dims) if h.size else np.zeros((0,), np.int64)
    uniq, inv = np.unique(lin, return_inverse=True)
    vals = pnp.zeros((len(uniq),) + tuple(x.shape[x.sparse_dim():]), x.dtype)
    vals = vals.at[padax.to_tensor(inv.reshape(-1).astype(np.int64))].add(x.values())
    idx = np.stack(np.unravel_index(uniq, dims)).astype(np.int64).reshape(len(dims), -1)
    return SparseCooTensor(padax.to_tensor(idx), vals, x.shape)


# ---------------------------------------------------------------- elementwise

def _coo(x: Any) -> SparseCooTensor:
    return x if isinstance(x, SparseCooTensor) else csr_to_coo(x)


def _like(out: SparseCooTensor, template: Any) -> Any:
    return to_sparse_csr(out) if isinstance(template, SparseCsrTensor) else out


def _same_pattern(x: Any, y: Any) -> bool:
    if isinstance(x, SparseCooTensor):
        return x.indices() is y.indices()
    return x.crows() is y.crows() and x.cols() is y.cols()


def _binary(op: str, fn, x: Any, y: Any) -> Any:
    if not (_is_sparse(x) and _is_sparse(y)):
        raise TypeError(f"padax.sparse.{op}: both operands must be sparse tensors of one layout (Paddle has no "
                        f"sparse-dense {op}); got {type(x).__name__} and {type(y).__name__}")
    if type(x) is not type(y):
        raise TypeError(f"padax.sparse.{op}: both operands need one layout, got {type(x).__name__} and "
                        f"{type(y).__name__}")
    if x.shape != y.shape:
        raise ValueError(f"padax.sparse.{op}: shapes must match, got {list(x.shape)} and {list(y.shape)}")
    try:
        cx, cy = _coo(x), _coo(y)
        hx, hy = (np.asarray(cx.indices()), np.asarray(cy.indices()))
        if hx.shape == hy.shape and np.array_equal(hx, hy):  # one pattern: kept as it is (Paddle's shortcut)
            return x._with_values(fn(x.values(), y.values()))
    except TypeError:
        if _same_pattern(x, y):
            return x._with_values(fn(x.values(), y.values()))
        raise TypeError(f"padax.sparse.{op}: with traced indices both operands must share their index arrays "
                        f"(the same pattern); otherwise call it outside jit/vmap") from None
    if cx.sparse_dim() != cy.sparse_dim():
        raise ValueError(f"padax.sparse.{op}: sparse_dim must match, got {cx.sparse_dim()} and {cy.sparse_dim()}")
    dims = x.shape[:cx.sparse_dim()]
    lx = np.ravel_multi_index(tuple(hx), dims) if hx.size else np.zeros((0,), np.int64)
    ly = np.ravel_multi_index(tuple(hy), dims) if hy.size else np.zeros((0,), np.int64)
    uniq = np.union1d(lx, ly)
    dense = tuple(x.shape[cx.sparse_dim():])
    dt = pnp.result_type(cx.values(), cy.values())
    ux = pnp.zeros((len(uniq),) + dense, dt).at[padax.to_tensor(np.searchsorted(uniq, lx))].add(cx.values())
    uy = pnp.zeros((len(uniq),) + dense, dt).at[padax.to_tensor(np.searchsorted(uniq, ly))].add(cy.values())
    idx = np.stack(np.unravel_index(uniq, dims)).astype(np.int64).reshape(len(dims), -1)
    return _like(SparseCooTensor(padax.to_tensor(idx), fn(ux, uy), x.shape), x)


def add(x: Any, y: Any, name: str | None = None) -> Any:
    """x + y for two sparse tensors of one shape and layout; the result holds the union of their entries.

    Args:
        x: a SparseCooTensor or SparseCsrTensor.
        y: a sparse tensor of x's layout and shape.
        name: unused (Paddle's).

    Returns:
        A sparse tensor of x's layout, coalesced (with concrete indices; traced operands must share
        their index arrays, and then keep that pattern).

    Examples:
        >>> import padax
        >>> a = padax.sparse.to_sparse_coo(padax.to_tensor([[1., 0.], [0., 2.]]))
        >>> b = padax.sparse.to_sparse_coo(padax.to_tensor([[0., 3.], [0., 4.]]))
        >>> padax.sparse.add(a, b).to_dense().tolist()
        [[1.0, 3.0], [0.0, 6.0]]
    """
    return _binary("add", lambda a, b: a + b, x, y)


def subtract(x: Any, y: Any, name: str | None = None) -> Any:
    """x - y for two sparse tensors of one shape and layout (the union of their entries, as `add`).

    Args:
        x: a sparse tensor.
        y: a sparse tensor of x's layout and shape.
        name: unused.

    Returns:
        A sparse tensor of x's layout.

    Examples:
        >>> import padax
        >>> a = padax.sparse.to_sparse_coo(padax.to_tensor([[1., 0.], [0., 2.]]))
        >>> padax.sparse.subtract(a, a).values().tolist()
        [0.0, 0.0]
    """
    return _binary("subtract", lambda a, b: a - b, x, y)


def multiply(x: Any, y: Any, name: str | None = None) -> Any:
    """x * y elementwise for two sparse tensors (the union of their entries, as Paddle; missing ones are 0).

    A Python number y scales the values (the pattern is kept), as Paddle's.

    Args:
        x: a sparse tensor.
        y: a sparse tensor of x's layout and shape, or a Python number.
        name: unused.

    Returns:
        A sparse tensor of x's layout.

    Examples:
        >>> import padax
        >>> a = padax.sparse.to_sparse_coo(padax.to_tensor([[1., 0.], [0., 2.]]))
        >>> padax.sparse.multiply(a, a).values().tolist()
        [1.0, 4.0]
    """
    if _is_sparse(x) and isinstance(y, (int, float)) and not isinstance(y, bool):
        return x._with_values(x.values() * y)
    return _binary("multiply", lambda a, b: a * b, x, y)


def divide(x: Any, y: Any, name: str | None = None) -> Any:
    """x / y elementwise for two sparse tensors; as Paddle the result stores every position (0/0 is nan).

    A sparse tensor divided by a Python number divides its values and keeps its pattern.

    Args:
        x: a sparse tensor.
        y: a sparse tensor of x's layout and shape, or a Python scalar.
        name: unused.

    Returns:
        A sparse tensor of x's layout.

    Examples:
        >>> import padax
        >>> a = padax.sparse.to_sparse_coo(padax.to_tensor([[2., 4.]]))
        >>> padax.sparse.divide(a, a).values().tolist()
        [1.0, 1.0]
    """
    if _is_sparse(x) and isinstance(y, (int, float)):
        return x._with_values(x.values() / y)
    if not (_is_sparse(x) and _is_sparse(y)) or type(x) is not type(y):
        raise TypeError(f"padax.sparse.divide: both operands must be sparse tensors of one layout, got "
                        f"{type(x).__name__} and {type(y).__name__}")
    if x.shape != y.shape:
        raise ValueError(f"padax.sparse.divide: shapes must match, got {list(x.shape)} and {list(y.shape)}")
    cx = _coo(x)
    sd, dims = cx.sparse_dim(), x.shape[:cx.sparse_dim()]
    q = x.to_dense() / y.to_dense()
    n = math.prod(dims)
    idx = np.stack(np.unravel_index(np.arange(n), dims)).astype(np.int64).reshape(sd, n)
    vals = q.reshape((n,) + tuple(x.shape[sd:]))
    return _like(SparseCooTensor(padax.to_tensor(idx), vals, x.shape), x)


def is_same_shape(x: Any, y: Any) -> bool:
    """Whether two tensors (sparse or dense) have one shape.

    Args:
        x: a tensor.
        y: a tensor.

    Returns:
        A Python bool.

    Examples:
        >>> import padax
        >>> padax.sparse.is_same_shape(padax.zeros([2, 3]), padax.sparse.to_sparse_coo(padax.zeros([2, 3])))
        True
    """
    return tuple(x.shape) == tuple(y.shape)


def mask_as(x: Any, mask: Any, name: str | None = None) -> Any:
    """The entries of dense x at the stored positions of a sparse mask (mask's layout and pattern).

    Args:
        x: a dense tensor of mask's shape.
        mask: a sparse tensor.
        name: unused.

    Returns:
        A sparse tensor with mask's indices and x's values there.

    Examples:
        >>> import padax
        >>> m = padax.sparse.sparse_coo_tensor([[0, 1], [1, 0]], [1., 1.], [2, 2])
        >>> padax.sparse.mask_as(padax.to_tensor([[1., 2.], [3., 4.]]), m).values().tolist()
        [2.0, 3.0]
    """
    _require_sparse("mask_as", mask)
    x = padax.asarray(x)
    if tuple(x.shape) != mask.shape:
        raise ValueError(f"padax.sparse.mask_as: x's shape {list(x.shape)} must be mask's {list(mask.shape)}")
    c = _coo(mask)
    vals = x[tuple(c.indices()[i] for i in range(c.sparse_dim()))]
    return mask._with_values(vals)


# ---------------------------------------------------------------- unary (applied to the values)

def _unary(name: str, fn, doc_in: str, doc_out: str):
    def op(x: Any, name: str | None = None) -> Any:
        _require_sparse(op.__name__, x)
        return x._with_values(fn(x.values()))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"""{doc_out} of each stored value of a sparse tensor (the pattern is kept).

    Args:
        x: a SparseCooTensor or SparseCsrTensor.
        name: unused (Paddle's).

    Returns:
        A sparse tensor of x's layout and pattern.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 1]], [{doc_in}], [3])
        >>> padax.sparse.{name}(x).values().tolist() == padax.{name}(padax.to_tensor([{doc_in}])).tolist()
        True
    """
    return op


sin = _unary("sin", pnp.sin, "0.5, 1.0", "The sine")
tan = _unary("tan", pnp.tan, "0.5, 1.0", "The tangent")
asin = _unary("asin", pnp.arcsin, "0.5, -0.25", "The arcsine")
atan = _unary("atan", pnp.arctan, "0.5, 1.0", "The arctangent")
sinh = _unary("sinh", pnp.sinh, "0.5, 1.0", "The hyperbolic sine")
tanh = _unary("tanh", pnp.tanh, "0.5, 1.0", "The hyperbolic tangent")
asinh = _unary("asinh", pnp.arcsinh, "0.5, 1.0", "The inverse hyperbolic sine")
atanh = _unary("atanh", pnp.arctanh, "0.5, -0.25", "The inverse hyperbolic tangent")
sqrt = _unary("sqrt", pnp.sqrt, "4.0, 9.0", "The square root")
square = _unary("square", pnp.square, "2.0, 3.0", "The square")
log1p = _unary("log1p", pnp.log1p, "0.5, 1.0", "log(1 + x)")
expm1 = _unary("expm1", pnp.expm1, "0.5, 1.0", "exp(x) - 1")
abs = _unary("abs", pnp.abs, "-2.0, 3.0", "The absolute value")
neg = _unary("neg", pnp.negative, "-2.0, 3.0", "The negation")
deg2rad = _unary("deg2rad", lambda v: v * (math.pi / 180.0), "90.0, 180.0", "Degrees to radians")
rad2deg = _unary("rad2deg", lambda v: v * (180.0 / math.pi), "1.0, 3.0", "Radians to degrees")


def isnan(x: Any, name: str | None = None) -> Any:
    """Whether each stored value is nan (a bool sparse tensor of x's pattern).

    Args:
        x: a sparse tensor.
        name: unused.

    Returns:
        A bool sparse tensor.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 2]], [float('nan'), 1.], [3])
        >>> padax.sparse.isnan(x).values().tolist()
        [True, False]
    """
    _require_sparse("isnan", x)
    return x._with_values(pnp.isnan(x.values()))


def pow(x: Any, factor: float, name: str | None = None) -> Any:
    """Each stored value raised to `factor`.

    Args:
        x: a sparse tensor.
        factor: the exponent (a Python number).
        name: unused.

    Returns:
        A sparse tensor of x's pattern.

    Examples:
        >>> import padax
        >>> padax.sparse.pow(padax.sparse.sparse_coo_tensor([[0, 1]], [2., 3.], [2]), 2).values().tolist()
        [4.0, 9.0]
    """
    _require_sparse("pow", x)
    return x._with_values(x.values() ** factor)


def cast(x: Any, index_dtype: Any = None, value_dtype: Any = None, name: str | None = None) -> Any:
    """A sparse tensor with its indices and/or values cast.

    Args:
        x: a sparse tensor.
        index_dtype: the indices' (crows'/cols') dtype (default: kept).
        value_dtype: the values' dtype (default: kept).
        name: unused.

    Returns:
        A sparse tensor of x's layout.

    Examples:
        >>> import padax
        >>> x = padax.sparse.cast(padax.sparse.sparse_coo_tensor([[0]], [1.5], [2]), 'int32', 'float64')
        >>> str(x.indices().dtype), str(x.values().dtype)
        ('int32', 'float64')
    """
    _require_sparse("cast", x)
    vals = x.values() if value_dtype is None else x.values().astype(value_dtype)
    if isinstance(x, SparseCooTensor):
        idx = x.indices() if index_dtype is None else x.indices().astype(index_dtype)
        return SparseCooTensor(idx, vals, x.shape)
    cr, co = x.crows(), x.cols()
    if index_dtype is not None:
        cr, co = cr.astype(index_dtype), co.astype(index_dtype)
    return SparseCsrTensor(cr, co, vals, x.shape)


# ---------------------------------------------------------------- shape

def transpose(x: Any, perm: Sequence[int], name: str | None = None) -> Any:
    """The sparse tensor with its dims permuted (COO keeps its entry order, as Paddle; CSR is re-sorted).

    Args:
        x: a sparse tensor (COO: sparse dims only are permuted; CSR: 2-D or 3-D).
        perm: the new order of the dims.
        name: unused.

    Returns:
        A sparse tensor of x's layout.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 1], [1, 2]], [1., 2.], [2, 3])
        >>> padax.sparse.transpose(x, [1, 0]).to_dense().tolist()
        [[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]]
    """
    _require_sparse("transpose", x)
    perm = [int(p) % x.ndim for p in perm]
    if sorted(perm) != list(range(x.ndim)):
        raise ValueError(f"padax.sparse.transpose: perm {perm} is not a permutation of {x.ndim} dims")
    c = _coo(x)
    if any(p != i for i, p in enumerate(perm[c.sparse_dim():], c.sparse_dim())) or \
            any(p >= c.sparse_dim() for p in perm[:c.sparse_dim()]):
        raise ValueError("padax.sparse.transpose: dense dims cannot move (perm must keep them in place)")
    idx = c.indices()[padax.to_tensor(np.asarray(perm[:c.sparse_dim()], np.int64))]
    out = SparseCooTensor(idx, c.values(), tuple(x.shape[p] for p in perm))
    return _like(out, x)  # COO keeps the entry order (Paddle's); CSR re-sorts the rows


def reshape(x: Any, shape: Sequence[int], name: str | None = None) -> Any:
    """The sparse tensor with a new shape of its sparse dims (row-major order; one -1 is inferred).

    Args:
        x: a sparse tensor.
        shape: the new shape; dense dims (COO values' trailing dims) stay as they are.
        name: unused.

    Returns:
        A sparse tensor of x's layout (CSR results must be 2-D or 3-D).

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 1], [1, 2]], [1., 2.], [2, 3])
        >>> padax.sparse.reshape(x, [6]).indices().tolist()
        [[1, 5]]
    """
    _require_sparse("reshape", x)
    c = _coo(x)
    dense = tuple(x.shape[c.sparse_dim():])
    shape = [int(s) for s in shape]
    total = math.prod(x.shape)
    if shape.count(-1) == 1:
        known = math.prod(s for s in shape if s != -1)
        shape[shape.index(-1)] = total // known if known else 0
    if math.prod(shape) != total:
        raise ValueError(f"padax.sparse.reshape: cannot reshape {list(x.shape)} to {shape}")
    new_sparse = shape[:len(shape) - len(dense)] if dense else shape
    if dense and tuple(shape[len(new_sparse):]) != dense:
        raise ValueError(f"padax.sparse.reshape: the dense dims {list(dense)} must stay the trailing dims")
    lin = _linear(c.indices(), x.shape[:c.sparse_dim()])
    out = SparseCooTensor(_unlinear(lin, new_sparse), c.values(), shape)
    return _like(out, x)


def sum(x: Any, axis: int | Sequence[int] | None = None, dtype: Any = None, keepdim: bool = False,
        name: str | None = None) -> Any:
    """The sum over the given axes, a sparse tensor (over every axis: shape [1], Paddle's form).

    Summing over sparse axes merges entries (host work: needs concrete indices); summing over dense
    dims only reduces the values. Every listed axis is summed (Paddle 3.3 sums over the first one
    only). A hybrid tensor summed over all its sparse axes (not keepdim) keeps a leading axis of
    size 1, so the result stays sparse.

    Args:
        x: a sparse tensor.
        axis: an int, a list of ints, or None (every axis).
        dtype: the result's dtype (default: x's; bool and int32 sum to int64 as Paddle).
        keepdim: keep the summed axes with size 1 (CSR results always keep them, as Paddle; CSR sums
            over None or -1 only).
        name: unused.

    Returns:
        A sparse tensor of x's layout (COO when the result is not 2-D or 3-D).

    Examples:
        >>> import padax
        >>> x = padax.sparse.to_sparse_coo(padax.to_tensor([[1., 2.], [0., 3.]]))
        >>> padax.sparse.sum(x, axis=1).to_dense().tolist()
        [3.0, 3.0]
    """
    _require_sparse("sum", x)
    c = _coo(x)
    vals = c.values()
    if dtype is not None:
        vals = vals.astype(dtype)
    elif str(vals.dtype) in ("bool", "int32"):
        vals = vals.astype("int64")
    csr = isinstance(x, SparseCsrTensor)
    if axis is None:
        total = pnp.sum(vals).reshape(1)
        shape = (1,) * x.ndim if keepdim or csr else (1,)
        out = SparseCooTensor(padax.to_tensor(np.zeros((len(shape), 1), np.int64)), total, shape)
        return to_sparse_csr(out) if csr else out
    axes = sorted({int(a) % x.ndim for a in ([axis] if isinstance(axis, int) else axis)})
    if csr:
        if axes != [x.ndim - 1]:
            raise ValueError(f"padax.sparse.sum: a CSR tensor sums over axis None or -1 only (Paddle's), got {axis}")
        keepdim = True  # a CSR result keeps its dims (Paddle's)
    sd = c.sparse_dim()
    dense_axes = tuple(1 + a - sd for a in axes if a >= sd)
    if dense_axes:
        vals = pnp.sum(vals, axis=dense_axes, keepdims=keepdim)
    keep = [i for i in range(sd) if i not in axes]
    shape = [1 if i in axes else s for i, s in enumerate(x.shape)] if keepdim else \
        [s for i, s in enumerate(x.shape) if i not in axes]
    if len(keep) == sd:
        out = SparseCooTensor(c.indices(), vals, shape)
    else:
        idx = c.indices()
        sel = [idx[i] if i in keep else pnp.zeros_like(idx[i]) for i in range(sd)] if keepdim else \
            [idx[i] for i in keep]
        if not sel:  # every sparse axis summed, dense dims left: one entry, behind a leading axis of size 1
            sel, shape = [pnp.zeros_like(idx[0])], [1] + shape
        out = coalesce(SparseCooTensor(pnp.stack(sel), vals, shape))
    return to_sparse_csr(out) if csr else out


def slice(x: Any, axes: Sequence[int], starts: Sequence[int], ends: Sequence[int], name: str | None = None) -> Any:
    """The entries of x inside [start, end) along each of `axes` (Paddle's clamping of starts and ends).

    Needs concrete indices (the kept entries decide the result's nnz).

    Args:
        x: a sparse tensor.
        axes: the sliced axes.
        starts: where each slice starts (negative counts from the end).
        ends: where each slice ends (clamped to the dim).
        name: unused.

    Returns:
        A sparse tensor of x's layout.

    Examples:
        >>> import padax
        >>> x = padax.sparse.to_sparse_coo(padax.to_tensor([[1., 0., 2.], [0., 3., 4.]]))
        >>> padax.sparse.slice(x, [1], [1], [3]).to_dense().tolist()
        [[0.0, 2.0], [3.0, 4.0]]
    """
    _require_sparse("slice", x)
    c = _coo(x)
    (h,) = host_indices("slice", c.indices())
    shape = list(x.shape)
    lo = [0] * x.ndim
    for a, s, e in zip(axes, starts, ends):
        a = int(a) % x.ndim
        n = x.shape[a]
        s, e = int(s), int(e)
        s = builtins.max(0, builtins.min(n, s + n if s < 0 else s))
        e = builtins.max(0, builtins.min(n, e + n if e < 0 else e))
        e = builtins.max(s, e)
        lo[a], shape[a] = s, e - s
    sd = c.sparse_dim()
    keep = np.ones(h.shape[1], bool)
    for i in range(sd):
        keep &= (h[i] >= lo[i]) & (h[i] < lo[i] + shape[i])
    pos = np.nonzero(keep)[0].astype(np.int64)
    idx = (h[:, pos] - np.asarray(lo[:sd], np.int64)[:, None]).astype(np.int64)
    vals = c.values()[padax.to_tensor(pos)]
    dense_sl = tuple(builtins.slice(lo[i], lo[i] + shape[i]) for i in range(sd, x.ndim))
    if dense_sl:
        vals = vals[(builtins.slice(None),) + dense_sl]
    return _like(SparseCooTensor(padax.to_tensor(idx), vals, shape), x)


# ---------------------------------------------------------------- products

def _spmm(x: Any, y: Any) -> Any:
    """Sparse [*, M, K] @ dense [*, K, N] (or [K] for mv) as gather, multiply, scatter-add."""
    c = _coo(x)
    idx, v = c.indices(), c.values()
    if c.dense_dim():
        raise ValueError("padax.sparse.matmul: the sparse operand must have no dense dims")
    if x.ndim == 2:
        rows, cols = idx[0], idx[1]
        contrib = v[:, None] * y[cols] if y.ndim == 2 else v * y[cols]
        out_shape = (x.shape[0],) + tuple(y.shape[1:])
        dt = pnp.result_type(v, y)
        return pnp.zeros(out_shape, dt).at[rows].add(contrib.astype(dt))
    batch = idx[:-2]
    rows, cols = idx[-2], idx[-1]
    bt = tuple(batch[i] for i in range(batch.shape[0]))
    contrib = v[:, None] * y[bt + (cols,)]
    dt = pnp.result_type(v, y)
    out_shape = tuple(x.shape[:-1]) + (y.shape[-1],)
    return pnp.zeros(out_shape, dt).at[bt + (rows,)].add(contrib.astype(dt))


def matmul(x: Any, y: Any, name: str | None = None) -> Any:
    """Matrix product with a sparse left operand: sparse @ dense -> dense, sparse @ sparse -> sparse.

    Shapes [*, M, K] @ [*, K, N] with equal batch dims (no broadcasting, as Paddle). sparse @ dense
    is a gather / scatter-add (traceable; grad flows to x's values and to y); sparse @ sparse keeps
    the structural product's pattern (host work, concrete indices).

    Args:
        x: a SparseCooTensor or SparseCsrTensor [*, M, K].
        y: a dense tensor [*, K, N], or a sparse tensor of x's layout.
        name: unused.

    Returns:
        A dense tensor [*, M, N] (sparse of x's layout when y is sparse).

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_csr_tensor([0, 1, 2, 3], [1, 2, 0], [1., 2., 3.], [3, 3])
        >>> padax.sparse.matmul(x, padax.ones([3, 2])).tolist()
        [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
    """
    _require_sparse("matmul", x)
    if _is_sparse(y):
        if type(x) is not type(y):
            raise TypeError("padax.sparse.matmul: sparse @ sparse needs one layout for both")
        cx, cy = _coo(x), _coo(y)
        hx, hy = host_indices("matmul (sparse @ sparse)", cx.indices(), cy.indices())
        if x.ndim != y.ndim or x.shape[:-2] != y.shape[:-2] or x.shape[-1] != y.shape[-2]:
            raise ValueError(f"padax.sparse.matmul: shapes {list(x.shape)} and {list(y.shape)} do not multiply")
        bx = np.ravel_multi_index(tuple(hx[:-1]), x.shape[:-1]) if hx.size else np.zeros(0, int)
        px = np.zeros((math.prod(x.shape[:-2]) * x.shape[-2], x.shape[-1]), bool)
        px[bx, hx[-1]] = True
        py = np.zeros(tuple(y.shape), bool)
        py[tuple(hy)] = True
        px = px.reshape(tuple(x.shape))
        pattern = np.matmul(px.astype(np.int64), py.astype(np.int64)) > 0
        where = np.nonzero(pattern)
        prod = pnp.matmul(x.to_dense(), y.to_dense())
        vals = prod[tuple(padax.to_tensor(w.astype(np.int64)) for w in where)]
        out = SparseCooTensor(padax.to_tensor(np.stack(where).astype(np.int64)), vals, pattern.shape)
        return _like(out, x)
    y = padax.asarray(y)
    if y.ndim != x.ndim or tuple(y.shape[:-2]) != x.shape[:-2] or y.shape[-2] != x.shape[-1]:
        raise ValueError(f"padax.sparse.matmul: shapes {list(x.shape)} and {list(y.shape)} do not multiply "
                         f"([*, M, K] @ [*, K, N])")
    return _spmm(x, y)


def mv(x: Any, vec: Any, name: str | None = None) -> Any:
    """Sparse matrix [M, N] times dense vector [N] -> dense [M].

    Args:
        x: a 2-D SparseCooTensor or SparseCsrTensor.
        vec: a dense vector.
        name: unused.

    Returns:
        A dense vector [M].

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 1], [1, 0]], [2., 3.], [2, 2])
        >>> padax.sparse.mv(x, padax.to_tensor([1., 10.])).tolist()
        [20.0, 3.0]
    """
    _require_sparse("mv", x)
    vec = padax.asarray(vec)
    if x.ndim != 2 or vec.ndim != 1 or vec.shape[0] != x.shape[1]:
        raise ValueError(f"padax.sparse.mv: needs a [M, N] matrix and a [N] vector, got {list(x.shape)} and "
                         f"{list(vec.shape)}")
    return _spmm(x, vec)


def masked_matmul(x: Any, y: Any, mask: Any, name: str | None = None) -> Any:
    """(x @ y) computed only at the stored positions of a sparse mask (dense x, y; sampled product).

    Args:
        x: a dense tensor [*, M, K].
        y: a dense tensor [*, K, N].
        mask: a sparse tensor [*, M, N]; its pattern (not its values) picks the entries.
        name: unused.

    Returns:
        A sparse tensor of mask's layout and pattern.

    Examples:
        >>> import padax
        >>> m = padax.sparse.sparse_csr_tensor([0, 1, 2], [1, 0], [1., 1.], [2, 2])
        >>> x = padax.to_tensor([[1., 2.], [3., 4.]])
        >>> padax.sparse.masked_matmul(x, x, m).values().tolist()
        [10.0, 15.0]
    """
    _require_sparse("masked_matmul", mask)
    x, y = padax.asarray(x), padax.asarray(y)
    if x.ndim != mask.ndim or y.ndim != mask.ndim or x.shape[-1] != y.shape[-2] or \
            (tuple(x.shape[:-1]) + (y.shape[-1],)) != mask.shape:
        raise ValueError(f"padax.sparse.masked_matmul: shapes {list(x.shape)} @ {list(y.shape)} do not give the "
                         f"mask's {list(mask.shape)}")
    idx = _coo(mask).indices()
    bt = tuple(idx[i] for i in range(mask.ndim - 2))
    xr = x[bt + (idx[-2],)]                       # [nnz, K]
    yc = pnp.swapaxes(y, -1, -2)[bt + (idx[-1],)]  # [nnz, K]
    return mask._with_values(pnp.sum(xr * yc, axis=-1))


def addmm(input: Any, x: Any, y: Any, beta: float = 1.0, alpha: float = 1.0, name: str | None = None) -> Any:
    """beta * input + alpha * (x @ y) with sparse x (dense y and input -> dense result).

    When input and y are sparse too, the result is sparse (the union of both patterns).

    Args:
        input: a dense (or sparse) tensor [*, M, N].
        x: a sparse tensor [*, M, K].
        y: a dense (or sparse) tensor [*, K, N].
        beta: the factor of input.
        alpha: the factor of the product.
        name: unused.

    Returns:
        A dense tensor [*, M, N] (sparse when input and y are sparse).

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 1], [1, 0]], [2., 3.], [2, 2])
        >>> padax.sparse.addmm(padax.ones([2, 1]), x, padax.ones([2, 1]), beta=2., alpha=1.).tolist()
        [[4.0], [5.0]]
    """
    prod = matmul(x, y)
    if _is_sparse(prod):
        if not _is_sparse(input):
            return beta * padax.asarray(input) + alpha * prod.to_dense()
        return add(input._with_values(beta * input.values()), prod._with_values(alpha * prod.values()))
    dense_in = input.to_dense() if _is_sparse(input) else padax.asarray(input)
    return beta * dense_in + alpha * prod


def pca_lowrank(x: Any, q: int | None = None, center: bool = True, niter: int = 2,
                name: str | None = None) -> tuple[Any, Any, Any]:
    """Randomised low-rank PCA of a sparse matrix: U, S, V with x (centred) ~= U diag(S) V^T.

    Computed on the dense matrix with `padax.linalg.pca_lowrank` (the same randomised algorithm;
    it draws from padax's global random state).

    Args:
        x: a 2-D sparse tensor [N, M].
        q: the rank to estimate (default min(6, N, M)).
        center: subtract the column means first.
        niter: the number of subspace iterations.
        name: unused.

    Returns:
        (U [N, q], S [q], V [M, q]).

    Examples:
        >>> import padax
        >>> x = padax.sparse.to_sparse_coo(padax.to_tensor([[1., 0., 2.], [0., 3., 0.], [4., 0., 5.]]))
        >>> u, s, v = padax.sparse.pca_lowrank(x, q=2)
        >>> u.shape, s.shape, v.shape
        ((3, 2), (2,), (3, 2))
    """
    _require_sparse("pca_lowrank", x)
    if x.ndim != 2:
        raise ValueError(f"padax.sparse.pca_lowrank: x must be 2-D, got shape {list(x.shape)}")
    return padax.linalg.pca_lowrank(x.to_dense(), q=q, center=center, niter=niter)
