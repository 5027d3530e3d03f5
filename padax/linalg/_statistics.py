"""padax.linalg's statistics of the variables in a matrix: cov and corrcoef."""
from __future__ import annotations

from typing import Any

from padax import dtypes, lax
from padax.core.errors import op_value_error
from padax.functional._arrays import asarray, full
from padax.linalg._helpers import _cast, _col, _diag, _is_complex, _mH, _mm, _mT, _real_dtype, _row, _scalar


def cov(x: Any, rowvar: bool = True, ddof: bool | int = True, fweights: Any = None, aweights: Any = None,
        name: str | None = None) -> Any:
    """Covariance matrix of the variables in x (rows if `rowvar`, else columns); `ddof` True
    divides by N - 1 (unbiased), False by N; optional integer frequency weights `fweights`
    and observation weights `aweights` (numpy.cov's definition). A 1-D x gives a 0-D result.

    Args:
        x: a 1-D or 2-D array (integers are cast to float32).
        rowvar: each row is a variable (default); False means each column is.
        ddof: True (default) divides by N - 1, False by N (an int is also accepted).
        fweights: integer frequency weights, shape (N,).
        aweights: observation weights, shape (N,).

    Returns:
        The covariance matrix (V, V), or a 0-D array for 1-D x.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 7.0]])
        >>> padax.linalg.cov(x).tolist()
        [[1.0, 2.5], [2.5, 6.3333]]
    """
    x = asarray(x)
    if x.aval.ndim > 2:
        raise op_value_error("linalg.cov", f"x must be 1-D or 2-D, got {x.aval.str_short()}")
    if not dtypes.is_inexact(x.aval.dtype):
        x = lax.convert_element_type(x, dtypes.float32)
    one_d = x.aval.ndim < 2
    if one_d:
        x = lax.reshape(x, (1, x.aval.size))
    elif not rowvar:
        x = _mT(x)
    nobs = x.aval.shape[1]
    rdt = _real_dtype(x.aval.dtype)
    ddof = int(ddof)
    w = None
    if fweights is not None:
        w = _cast(asarray(fweights), rdt)
    if aweights is not None:
        aw = _cast(asarray(aweights), rdt)
        w = aw if w is None else lax.mul(w, aw)
    for name_, wt in (("fweights", fweights), ("aweights", aweights)):
        if wt is not None and asarray(wt).aval.shape != (nobs,):
            raise op_value_error("linalg.cov", f"{name_} must have shape ({nobs},) (one weight per "
                                               f"observation), got {asarray(wt).aval.str_short()}")
    if w is None:
        avg = lax.div(lax.reduce_sum(x, (1,)), full((x.aval.shape[0],), nobs, x.aval.dtype))
        fact = full((), nobs - ddof, rdt)
    else:
        wsum = lax.reduce_sum(w, (0,))
        wx = lax.mul(x, _cast(lax.broadcast_in_dim(w, x.aval.shape, (1,)), x.aval.dtype))
        avg = lax.div(lax.reduce_sum(wx, (1,)), _cast(lax.broadcast_in_dim(wsum, (x.aval.shape[0],), ()), x.aval.dtype))
        if aweights is None:
            fact = lax.sub(wsum, full((), ddof, rdt))
        else:
            aw = _cast(asarray(aweights), rdt)
            fact = lax.sub(wsum, lax.div(lax.mul(full((), ddof, rdt), lax.reduce_sum(lax.mul(w, aw), (0,))), wsum))
    xc = lax.sub(x, lax.broadcast_in_dim(avg, x.aval.shape, (0,)))
    xw = xc if w is None else lax.mul(xc, _cast(lax.broadcast_in_dim(w, x.aval.shape, (1,)), x.aval.dtype))
    c = _mm(xw, _mH(xc))
    c = lax.div(c, _cast(lax.broadcast_in_dim(fact, c.aval.shape, ()), c.aval.dtype))
    return lax.reshape(c, ()) if one_d else c


def corrcoef(x: Any, rowvar: bool = True, name: str | None = None) -> Any:
    """Pearson correlation coefficients of the variables in x (rows if `rowvar`), clipped to
    [-1, 1] (real and imaginary parts for complex input).

    Args:
        x: a 1-D or 2-D array.
        rowvar: each row is a variable (default); False means each column is.

    Returns:
        The correlation matrix (V, V), or a 0-D array for 1-D x.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 7.0]])
        >>> padax.linalg.corrcoef(x).tolist()
        [[1.0, 0.9934], [0.9934, 1.0]]
    """
    c = cov(x, rowvar)
    if c.aval.ndim == 0:
        return lax.div(c, c)
    d = _diag(c)
    sd = lax.sqrt(lax.real(d) if _is_complex(d) else d)
    sd = _cast(sd, c.aval.dtype)
    c = lax.div(lax.div(c, _col(sd, c)), _row(sd, c))

    def clip(v):
        return lax.clamp(_scalar(-1.0, v), v, _scalar(1.0, v))
    if _is_complex(c):
        return lax.complex(clip(lax.real(c)), clip(lax.imag(c)))
    return clip(c)
