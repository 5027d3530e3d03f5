"""Paddle's top-level names that point elsewhere: cat/concatenate (concat), ger (outer), manual_seed
(seed), inverse/cholesky/eigvalsh/norm/vecdot (padax.linalg), and `create_parameter`."""
from __future__ import annotations

import math
from typing import Any

from padax.core import dtypes
from padax.functional import linalg_basic as _basic
from padax.functional import manipulation as _manip


def cat(x: Any, axis: Any = 0, name: str | None = None, *, out: Any = None) -> Any:
    """concat(x, axis): the Tensors of x joined along `axis`.

    Args:
        x: a list or tuple of Tensors with equal shapes except along `axis`.

    Returns:
        One Tensor (the operands promoted to a common dtype).

    Examples:
        >>> import padax
        >>> padax.cat([padax.to_tensor([[1, 2]]), padax.to_tensor([[3, 4]])], axis=1).tolist()
        [[1, 2, 3, 4]]
    """
    return _manip.concat(x, axis, out=out)


concatenate = cat


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
    return _basic.outer(x, y, out=out)


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
    from padax.random._state import seed as _seed
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
    from padax.linalg import inv
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
    from padax.linalg import cholesky as _cholesky
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
    from padax.linalg import eigvalsh as _eigvalsh
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
    from padax.linalg import norm as _norm
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
    from padax.linalg import vecdot as _vecdot
    return _vecdot(x, y, axis)


def from_dlpack(dlpack: Any, *, device: Any = None, copy: bool | None = None) -> Any:
    """A Tensor with the values of an array from another library that speaks DLPack (an object with
    `__dlpack__`: a numpy array, a Paddle or torch Tensor, ...); the values are copied.

    Args:
        dlpack: an object with `__dlpack__`, or a DLPack capsule of host memory.
        device: where to place the result; None: the default device.
        copy: accepted for the array-API signature; the values are always copied.

    Returns:
        A Tensor with the source's shape and dtype.

    Examples:
        >>> import numpy as np, padax
        >>> x = padax.from_dlpack(np.array([1.0, 2.0]))
        >>> x.dtype, x.tolist()
        (dtype('float64'), [1.0, 2.0])
        >>> padax.from_dlpack(padax.to_dlpack(x)).tolist()   # a capsule, as Paddle's to_dlpack returns
        [1.0, 2.0]
    """
    import numpy as np
    from padax.functional._checks import placed
    from padax.functional.creation import to_tensor
    if type(dlpack).__name__ == "PyCapsule":
        dlpack = _HostCapsule(dlpack)
    elif not hasattr(dlpack, "__dlpack__"):
        raise TypeError(f"from_dlpack: expected an array with __dlpack__ or a DLPack capsule, "
                        f"got {type(dlpack).__name__}")
    return placed(to_tensor(np.from_dlpack(dlpack)), device)


class _HostCapsule:
    """A bare DLPack capsule (Paddle's to_dlpack) in the protocol numpy reads: numpy itself refuses a
    capsule whose tensor is not in host memory, and a capsule already consumed."""

    def __init__(self, capsule: Any) -> None:
        self._capsule = capsule

    def __dlpack__(self, **_: Any) -> Any:
        return self._capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)   # kDLCPU


def to_dlpack(x: Any) -> Any:
    """A DLPack capsule of x's values (a host copy) for another library's from_dlpack (a padax Tensor also
    has `__dlpack__`, so numpy.from_dlpack(x) takes it directly).

    Args:
        x: a Tensor (or array-like).

    Returns:
        A DLPack PyCapsule that can be consumed once.

    Examples:
        >>> import numpy as np, padax
        >>> type(padax.to_dlpack(padax.to_tensor([1, 2]))).__name__
        'PyCapsule'
        >>> np.from_dlpack(padax.to_tensor([1, 2])).tolist()
        [1, 2]
    """
    from padax.functional._arrays import asarray
    return asarray(x).__dlpack__()


def create_parameter(shape: Any, dtype: Any, name: str | None = None, attr: Any = None, is_bias: bool = False,
                     default_initializer: Any = None) -> Any:
    """A new parameter Tensor of `shape` and `dtype`, initialised as Paddle does: by the initializer of
    `attr` (a ParamAttr-like object with `.initializer`) or `default_initializer` (either called as
    `init(shape, dtype)`), else zeros for a bias and Xavier-uniform for a weight (limit
    sqrt(6 / (fan_in + fan_out)), fans as Paddle counts them), drawn from padax's global key."""
    from padax.functional.creation import normalize_shape, zeros
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
    from padax.random._state import uniform
    return uniform(shape, dt, -limit, limit)


__all__ = ["cat", "concatenate", "ger", "manual_seed", "inverse", "cholesky", "eigvalsh", "norm", "vecdot",
           "from_dlpack", "to_dlpack", "create_parameter"]
