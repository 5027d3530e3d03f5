"""jax.numpy's cov and corrcoef (numpy's signatures: rowvar, bias, ddof, fweights, aweights)."""
from __future__ import annotations

import builtins
from typing import Any

import padax.numpy as pnp
from padax.core.errors import op_value_error
from padax.numpy import _dtypes as D
from padax.numpy._util import real_dtype, to_array, to_inexact


def _rows(x: Any, rowvar: bool, dtype: Any) -> Any:
    x = to_array(x) if dtype is None else to_array(x, dtype)
    if x.ndim > 2:
        raise op_value_error("cov", f"m and y must be at most 2-D, got {x.aval.str_short()}")
    x = pnp.reshape(x, (1, -1)) if x.ndim < 2 else x
    return x.T if not rowvar and x.shape[0] != 1 else x


def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: int | None = None,
        fweights: Any = None, aweights: Any = None, dtype: Any = None) -> Any:
    """Covariance matrix of the variables in the rows (or columns) of m (and y), optionally weighted.

    Args:
        m: 1-D or 2-D array; each row a variable, each column an observation (`rowvar=False`: transposed).
        y: more variables, stacked below m's.
        rowvar: rows are variables (True) or columns are.
        bias: normalise by N (True) instead of N - 1; `ddof` overrides it.
        ddof: the divisor is N - ddof.
        fweights, aweights: 1-D integer frequency weights and real observation weights.
        dtype: the dtype to compute in.

    Returns:
        The (variables, variables) covariance matrix, squeezed (a scalar for one variable).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.cov(pnp.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])).tolist()
        [[1.0, -1.0], [-1.0, 1.0]]
    """
    x = _rows(m, rowvar, dtype)
    if y is not None:
        x = pnp.concatenate([x, _rows(y, rowvar, dtype)], axis=0)
    x = to_inexact(x)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        w = to_array(fweights)
    if aweights is not None:
        aw = to_array(aweights)
        w = aw if w is None else pnp.multiply(w, aw)
    if w is None:
        avg = pnp.mean(x, axis=1)
        fact = x.shape[1] - ddof
    else:
        w = pnp.astype(w, real_dtype(x.dtype))
        w_sum = pnp.sum(w)
        avg = pnp.divide(pnp.sum(pnp.multiply(x, w), axis=1), w_sum)
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * pnp.sum(pnp.multiply(w, pnp.astype(to_array(aweights), w.dtype))) / w_sum
    fact = pnp.maximum(fact, 0) if not isinstance(fact, builtins.int) else builtins.max(fact, 0)
    xc = pnp.subtract(x, avg[:, None])
    xt = xc if w is None else pnp.multiply(xc, w)
    c = pnp.matmul(xc, pnp.conj(xt).T)
    return pnp.squeeze(pnp.divide(c, pnp.astype(to_array(fact), c.dtype) if not isinstance(fact, builtins.int)
                                  else c.dtype.type(fact)))


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, dtype: Any = None) -> Any:
    """Pearson correlation coefficients of the variables in the rows (or columns) of x (and y).

    Args:
        x: 1-D or 2-D array; each row a variable (`rowvar=False`: each column).
        y: more variables, stacked below x's.
        rowvar: rows are variables (True) or columns are.
        dtype: the dtype to compute in.

    Returns:
        The (variables, variables) correlation matrix, entries clipped to [-1, 1].

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.corrcoef(pnp.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])).tolist()
        [[1.0, -1.0], [-1.0, 1.0]]
    """
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return pnp.divide(c, c)
    d = pnp.sqrt(pnp.real(pnp.diagonal(c)) if D.kind(c.dtype) == 3 else pnp.diagonal(c))
    d = pnp.astype(d, c.dtype)
    c = pnp.divide(pnp.divide(c, d[:, None]), d[None, :])
    if D.kind(c.dtype) == 3:
        return pnp.astype(pnp.clip(pnp.real(c), -1, 1), c.dtype) + 1j * pnp.clip(pnp.imag(c), -1, 1)
    return pnp.clip(c, -1, 1)


__all__ = ["cov", "corrcoef"]
