"""The sparse tensor types: SparseCooTensor and SparseCsrTensor (Paddle's two sparse layouts).

Both are pytrees whose children are the index and value arrays and whose static part is the dense
shape, so the number of stored entries (nnz) is a static size: `padax.jit`, `padax.grad` (with respect
to the values) and `padax.vmap` (over a batch of tensors with one nnz) take them. Operations whose
result pattern depends on the index values (coalesce, the union of two patterns, slicing, ...) run
that part on the host and need concrete indices; the values stay traceable.
"""
from __future__ import annotations

from typing import Any

import numpy as np

import padax
import padax.numpy as pnp

__all__ = ["SparseCooTensor", "SparseCsrTensor"]


def host_indices(op: str, *arrays: Any) -> list[np.ndarray]:
    """The index arrays as numpy, or a TypeError saying why concrete indices are needed."""
    try:
        return [np.asarray(a) for a in arrays]
    except TypeError as e:
        raise TypeError(f"padax.sparse.{op}: the sparsity pattern of the result depends on the index values, "
                        f"which must be concrete; call it outside jit/vmap (the values may be traced, as under "
                        f"grad)") from e


class _SparseBase:
    """What both layouts share: shape, dtype, predicates and operators."""

    @property
    def shape(self) -> tuple[int, ...]:
        """The dense shape (a tuple)."""
        return self._shape

    @property
    def ndim(self) -> int:
        """The number of dense dimensions."""
        return len(self._shape)

    @property
    def dtype(self):
        """The dtype of the values."""
        return self._values.dtype

    def values(self) -> Any:
        """The stored values ([nnz, ...dense dims] for COO, [nnz] for CSR)."""
        return self._values

    def is_sparse(self) -> bool:
        """True: this is a sparse tensor."""
        return True

    def is_dense(self) -> bool:
        """False: this is a sparse tensor."""
        return False

    def numpy(self) -> np.ndarray:
        """The dense value as a numpy array."""
        return np.asarray(self.to_dense())

    def __add__(self, other):
        from padax.sparse import _ops  # circular: _ops builds on this module
        return _ops.add(self, other)

    def __sub__(self, other):
        from padax.sparse import _ops  # circular: _ops builds on this module
        return _ops.subtract(self, other)

    def __mul__(self, other):
        from padax.sparse import _ops  # circular: _ops builds on this module
        return _ops.multiply(self, other)

    def __rmul__(self, other):
        from padax.sparse import _ops  # circular: _ops builds on this module
        return _ops.multiply(self, other)

    def __truediv__(self, other):
        from padax.sparse import _ops  # circular: _ops builds on this module
        return _ops.divide(self, other)

    def __matmul__(self, other):
        from padax.sparse import _ops  # circular: _ops builds on this module
        return _ops.matmul(self, other)

    def __neg__(self):
        return self._with_values(-self._values)

    def __abs__(self):
        return self._with_values(pnp.abs(self._values))


class SparseCooTensor(_SparseBase):
    """A sparse tensor in coordinate format: indices [sparse_dim, nnz] and values [nnz, ...dense dims].

    Build it with `padax.sparse.sparse_coo_tensor` or `x.to_sparse_coo(sparse_dim)`; entries with
    the same index add up (`coalesce` sorts and merges them).

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 1], [1, 0]], [1., 2.], [2, 2])
        >>> x.to_dense().tolist(), x.nnz(), x.is_sparse_coo()
        ([[0.0, 1.0], [2.0, 0.0]], 2, True)
    """

    def __init__(self, indices: Any, values: Any, shape: Any):
        self._indices = indices
        self._values = values
        self._shape = tuple(int(s) for s in shape)

    def indices(self) -> Any:
        """The int64 index array [sparse_dim, nnz]."""
        return self._indices

    def nnz(self) -> int:
        """The number of stored entries (a static int)."""
        return int(self._indices.shape[1])

    def sparse_dim(self) -> int:
        """How many leading dimensions are sparse."""
        return int(self._indices.shape[0])

    def dense_dim(self) -> int:
        """How many trailing dimensions each value carries."""
        return self.ndim - self.sparse_dim()

    def is_coalesced(self) -> bool:
        """Whether the indices are sorted row-major without duplicates (needs concrete indices)."""
        from padax.sparse import _ops  # circular: _ops builds on this module
        return _ops.is_coalesced(self)

    def is_sparse_coo(self) -> bool:
        """True."""
        return True

    def is_sparse_csr(self) -> bool:
        """False."""
        return False

    def _with_values(self, values: Any) -> SparseCooTensor:
        return SparseCooTensor(self._indices, values, self._shape)

    def to_dense(self) -> Any:
        """The dense tensor (duplicate entries add up)."""
        out = pnp.zeros(self._shape, self._values.dtype)
        idx = tuple(self._indices[i] for i in range(self.sparse_dim()))
        return out.at[idx].add(self._values)

    def to_sparse_coo(self, sparse_dim: int | None = None) -> SparseCooTensor:
        """Itself (already COO)."""
        return self

    def to_sparse_csr(self) -> SparseCsrTensor:
        """The CSR form (2-D or 3-D, no dense dims); see `padax.sparse.to_sparse_csr`."""
        from padax.sparse import _ops  # circular: _ops builds on this module
        return _ops.to_sparse_csr(self)

    def coalesce(self) -> SparseCooTensor:
        """Sorted indices with duplicates summed; see `padax.sparse.coalesce`."""
        from padax.sparse import _ops  # circular: _ops builds on this module
        return _ops.coalesce(self)

    def __repr__(self) -> str:
        return (f"SparseCooTensor(shape={list(self._shape)}, dtype={self.dtype},\n"
                f"  indices={self._indices!r},\n  values={self._values!r})")


class SparseCsrTensor(_SparseBase):
    """A sparse matrix (2-D) or batch of matrices (3-D) in compressed-row format.

    crows holds rows + 1 offsets per matrix (batches one after another), cols the column of each
    entry and values the entries, batches one after another (Paddle's layout).

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_csr_tensor([0, 1, 2], [1, 0], [1., 2.], [2, 2])
        >>> x.to_dense().tolist(), x.is_sparse_csr()
        ([[0.0, 1.0], [2.0, 0.0]], True)
    """

    def __init__(self, crows: Any, cols: Any, values: Any, shape: Any):
        self._crows = crows
        self._cols = cols
        self._values = values
        self._shape = tuple(int(s) for s in shape)

    def crows(self) -> Any:
        """The row offsets (rows + 1 per matrix)."""
        return self._crows

    def cols(self) -> Any:
        """The column of each stored entry."""
        return self._cols

    def nnz(self) -> int:
        """The number of stored entries (a static int)."""
        return int(self._cols.shape[0])

    def is_sparse_coo(self) -> bool:
        """False."""
        return False

    def sparse_dim(self) -> int:
        """2 for a matrix, 3 for a batch (every dim is sparse)."""
        return self.ndim

    def dense_dim(self) -> int:
        """0 (CSR values are scalars)."""
        return 0

    def is_coalesced(self) -> bool:
        """True (a CSR tensor's entries are ordered by row)."""
        return True

    def is_sparse_csr(self) -> bool:
        """True."""
        return True

    def _with_values(self, values: Any) -> SparseCsrTensor:
        return SparseCsrTensor(self._crows, self._cols, values, self._shape)

    def to_sparse_coo(self, sparse_dim: int | None = None) -> SparseCooTensor:
        """The COO form: indices [ndim, nnz] (batch, row, col), same entry order."""
        from padax.sparse import _ops  # circular: _ops builds on this module
        return _ops.csr_to_coo(self)

    def to_sparse_csr(self) -> SparseCsrTensor:
        """Itself (already CSR)."""
        return self

    def to_dense(self) -> Any:
        """The dense tensor."""
        return self.to_sparse_coo().to_dense()

    def __repr__(self) -> str:
        return (f"SparseCsrTensor(shape={list(self._shape)}, dtype={self.dtype},\n  crows={self._crows!r},\n"
                f"  cols={self._cols!r},\n  values={self._values!r})")


padax.tree.register_node(
    SparseCooTensor, lambda x: ((x._indices, x._values), x._shape),
    lambda shape, ch: SparseCooTensor(*ch, shape),
    lambda x: (((padax.tree_util.GetAttrKey("indices"), x._indices),
                (padax.tree_util.GetAttrKey("values"), x._values)), x._shape))
padax.tree.register_node(
    SparseCsrTensor, lambda x: ((x._crows, x._cols, x._values), x._shape),
    lambda shape, ch: SparseCsrTensor(*ch, shape),
    lambda x: (((padax.tree_util.GetAttrKey("crows"), x._crows), (padax.tree_util.GetAttrKey("cols"), x._cols),
                (padax.tree_util.GetAttrKey("values"), x._values)), x._shape))
