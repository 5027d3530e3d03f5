"""Paddle's top-level names and Tensor methods that are the batteries' functions under another name.

`padax.inverse`, `cholesky`, `eigvalsh`, `norm`, `vecdot` (padax.linalg), `manual_seed` (padax.random's
seed), `create_parameter`, and the Tensor methods `x.cholesky_solve(...)`, `x.lstsq(...)`, ...,
`x.multinomial(...)`, `x.to_sparse_coo(sparse_dim)`, `x.to_sparse_csr()` (padax.sparse). They sit above
the batteries they call (the op library is a floor below them), and import them at the first call so that
`import padax` does not load padax.linalg, padax.random or padax.sparse.
"""
from __future__ import annotations

import math
from typing import Any

from padax.core import dtypes
from padax.core.trace import Tracer
from padax.functional import math as _math
from padax.functional.creation import normalize_shape, zeros
from padax.runtime.array import Tensor


def manual_seed(seed: int) -> Any:
    """seed(seed): reset padax's global random key, so the draws that follow repeat.

    Args:
        seed: an int (or an integer 0-d Tensor).

    Returns:
        The global generator's state, as padax.seed returns it.

    Examples:
        >>> import padax
        >>> _ = padax.manual_seed(0); a = padax.rand([2]).tolist()
        >>> _ = padax.manual_seed(0); a == padax.rand([2]).tolist()
        True
    """
    from padax.random._state import seed as _seed  # startup time: padax.random loads on first use
    return _seed(seed)


def inverse(x: Any, name: str | None = None) -> Any:
    """linalg.inv(x): the inverse of a (batch of) square matrices.

    Args:
        x: a square matrix [n, n] or a batch [..., n, n].

    Returns:
        A Tensor of x's shape holding the inverses.

    Examples:
        >>> import padax
        >>> padax.inverse(padax.to_tensor([[2.0, 0.0], [0.0, 4.0]])).tolist()
        [[0.5, 0.0], [0.0, 0.25]]
    """
    from padax.linalg import inv  # startup time: padax.linalg loads on first use
    return inv(x)


def cholesky(x: Any, upper: bool = False, name: str | None = None) -> Any:
    """linalg.cholesky(x, upper): the triangular factor L of a symmetric positive-definite x = L @ L.T
    (U with x = U.T @ U when upper).

    Args:
        x: a symmetric (Hermitian) positive-definite matrix [..., n, n].
        upper: False (default) returns the lower factor L, True the upper factor U.

    Returns:
        A triangular Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.cholesky(padax.to_tensor([[4.0, 2.0], [2.0, 2.0]])).tolist()
        [[2.0, 0.0], [1.0, 1.0]]
    """
    from padax.linalg import cholesky as _cholesky  # startup time: as above
    return _cholesky(x, upper)


def eigvalsh(x: Any, UPLO: str = "L", name: str | None = None) -> Any:  # noqa: N803  (Paddle's name)
    """linalg.eigvalsh(x, UPLO): the eigenvalues, ascending, of a symmetric (Hermitian) x read from its lower
    ('L') or upper ('U') triangle.

    Args:
        x: a symmetric (Hermitian) matrix [..., n, n].
        UPLO: 'L' (default) or 'U': which triangle of x is read.

    Returns:
        A real Tensor [..., n] of eigenvalues in ascending order.

    Examples:
        >>> import padax
        >>> padax.eigvalsh(padax.to_tensor([[2.0, 1.0], [1.0, 2.0]])).tolist()
        [1.0, 3.0]
    """
    from padax.linalg import eigvalsh as _eigvalsh  # startup time: as above
    return _eigvalsh(x, UPLO)


def norm(x: Any, p: Any = None, axis: Any = None, keepdim: bool = False, out: Any = None, dtype: Any = None,
         name: str | None = None) -> Any:
    """linalg.norm(x, p, axis, keepdim, dtype=dtype): a vector or matrix norm (2-norm of the flattened x by
    default).

    Args:
        x: the input Tensor.
        p: the order: None or 'fro' (2-norm / Frobenius), a number (including inf and -inf), or 'nuc'
            for a matrix.
        axis: None (flattened x), an int (vector norm) or two axes (matrix norm).
        keepdim: whether the reduced axes stay with size 1.
        out: must be None (Tensors are immutable).
        dtype: if given, x is cast to it first.

    Returns:
        A Tensor of x's other axes (0-d for a full reduction).

    Examples:
        >>> import padax
        >>> float(padax.norm(padax.to_tensor([3.0, 4.0])))
        5.0
        >>> padax.norm(padax.to_tensor([[3.0, -4.0], [0.0, 1.0]]), p=1, axis=1).tolist()
        [7.0, 1.0]
    """
    from padax.linalg import norm as _norm  # startup time: as above
    return _norm(x, p, axis, keepdim, out, dtype)


def vecdot(x: Any, y: Any, axis: int = -1, name: str | None = None) -> Any:
    """linalg.vecdot(x, y, axis): sum(conj(x) * y) along `axis`.

    Args:
        x, y: Tensors broadcast together; x is conjugated when complex.
        axis: the axis summed over.

    Returns:
        A Tensor of the broadcast shape without `axis`.

    Examples:
        >>> import padax
        >>> padax.vecdot(padax.to_tensor([[1.0, 2.0], [3.0, 4.0]]), padax.to_tensor([[1.0, 1.0], [2.0, 0.0]])).tolist()
        [3.0, 6.0]
    """
    from padax.linalg import vecdot as _vecdot  # startup time: as above
    return _vecdot(x, y, axis)


def create_parameter(shape: Any, dtype: Any, name: str | None = None, attr: Any = None, is_bias: bool = False,
                     default_initializer: Any = None) -> Any:
    """A new parameter Tensor of `shape` and `dtype`, initialised as Paddle does: by the initializer of
    `attr` (a ParamAttr-like object with `.initializer`) or `default_initializer` (either called as
    `init(shape, dtype)`), else zeros for a bias and Xavier-uniform for a weight (limit
    sqrt(6 / (fan_in + fan_out)), fans as Paddle counts them), drawn from padax's global key."""
    shape = list(normalize_shape("create_parameter", shape))
    dt = dtypes.canonicalize(dtypes.to_dtype(dtype))
    init = getattr(attr, "initializer", None) or default_initializer
    if init is not None:
        return init(shape, dt)
    if is_bias:
        return zeros(shape, dt)
    if len(shape) == 0:
        fan_in = fan_out = 1
    elif len(shape) == 1:
        fan_in = fan_out = shape[0]
    elif len(shape) == 2:
        fan_in, fan_out = shape
    else:  # a convolution kernel [out, in, *window]
        window = math.prod(shape[2:])
        fan_in, fan_out = shape[1] * window, shape[0] * window
    limit = math.sqrt(6.0 / max(fan_in + fan_out, 1))
    from padax.random._state import uniform  # startup time: as above
    return uniform(shape, dt, -limit, limit)


def _linalg_method(name: str):
    def method(self, *args, **kwargs):
        from padax import linalg  # startup time: padax.linalg loads on first use
        return getattr(linalg, name)(self, *args, **kwargs)
    method.__name__ = name
    method.__doc__ = f"padax.linalg.{name}(x, ...)."
    return method


_LINALG = ("cholesky_inverse cholesky_solve cond corrcoef cov eig eigvals householder_product lstsq lu lu_unpack "
           "matrix_power multi_dot ormqr pca_lowrank pinv qr slogdet solve svd_lowrank").split()


def _multinomial(self, *args, **kwargs):
    """padax.multinomial(x, ...)."""
    from padax.random._paddle_draws import multinomial  # startup time: padax.random loads on first use
    return multinomial(self, *args, **kwargs)


def _to_sparse_coo(self, sparse_dim: int) -> Any:
    """This dense Tensor as a padax.sparse.SparseCooTensor whose first `sparse_dim` dims are sparse
    (Paddle's Tensor.to_sparse_coo); the entries are where the dense tensor is nonzero, row-major.

    Args:
        sparse_dim: how many leading dims are sparse (1 .. ndim); the rest stay dense in the values.

    Returns:
        A SparseCooTensor: indices [sparse_dim, nnz], values [nnz, *shape[sparse_dim:]].

    Examples:
        >>> import padax
        >>> c = padax.to_tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_coo(2)
        >>> c.indices().tolist(), c.values().tolist()
        ([[0, 1], [1, 0]], [1.0, 2.0])
    """
    from padax.sparse import to_sparse_coo  # startup time: padax.sparse loads on first use
    return to_sparse_coo(self, sparse_dim)


def _to_sparse_csr(self) -> Any:
    """This dense 2-D (or batched 3-D) Tensor as a padax.sparse.SparseCsrTensor (Paddle's
    Tensor.to_sparse_csr): crows, cols and values of its nonzero entries.

    Returns:
        A SparseCsrTensor of the same shape.

    Examples:
        >>> import padax
        >>> c = padax.to_tensor([[0.0, 1.0], [2.0, 3.0]]).to_sparse_csr()
        >>> c.crows().tolist(), c.cols().tolist(), c.values().tolist()
        ([0, 1, 3], [1, 0, 1], [1.0, 2.0, 3.0])
    """
    from padax.sparse import to_sparse_csr  # startup time: padax.sparse loads on first use
    return to_sparse_csr(self)


_to_sparse_coo.__name__, _to_sparse_csr.__name__ = "to_sparse_coo", "to_sparse_csr"


def _install(cls: type) -> None:
    for name in _LINALG:
        setattr(cls, name, _linalg_method(name))
    for name, fn in (("inverse", inverse), ("cholesky", cholesky), ("eigvalsh", eigvalsh), ("norm", norm),
                     ("multinomial", _multinomial), ("to_sparse_coo", _to_sparse_coo),
                     ("to_sparse_csr", _to_sparse_csr)):
        setattr(cls, name, fn)


for _cls in (Tensor, Tracer):
    _install(_cls)


def _activation_by_name(name: str) -> Any:
    from padax.nn import functional as F  # startup time: padax.nn loads on first use
    fn = getattr(F, name, None)
    if not callable(fn):
        raise ValueError(f"act: padax.nn.functional has no activation {name!r}")
    return fn


_math.activation_by_name = _activation_by_name  # Paddle's `act=` strings (padax.scale, ...)

__all__ = ["manual_seed", "inverse", "cholesky", "eigvalsh", "norm", "vecdot", "create_parameter"]
