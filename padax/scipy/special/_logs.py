"""Log-domain helpers: xlogy, xlog1py, entr, rel_entr, kl_div, logit, expit, logsumexp,
softmax, log_softmax. Their derivatives stay finite where the naive formulas give 0 * inf."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import custom_jvp, lax, numpy as pnp, stop_gradient
from padax.numpy._util import axes
from padax.scipy.special._base import inexact_args


@custom_jvp
def _xlogy(x, y):
    return pnp.where(x == 0, pnp.where(pnp.isnan(y), y, 0.0), x * pnp.log(pnp.where(x == 0, 1.0, y)))


@_xlogy.defjvp
def _xlogy_jvp(primals, tangents):
    (x, y), (tx, ty) = primals, tangents
    safe_y = pnp.where(x == 0, 1.0, y)
    # d/dx = log(y) also at x == 0 (as jax); y == 0 there reads 1, so a zero x-tangent never makes 0 * inf
    dx = pnp.log(pnp.where((x == 0) & (y == 0), 1.0, y))
    return _xlogy(x, y), dx * tx + pnp.where(x == 0, 0.0, x / safe_y) * ty


def xlogy(x: Any, y: Any) -> Any:
    """x * log(y), 0 where x == 0 (also when y == 0).

    Args:
        x, y: real arrays broadcast together.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.xlogy(padax.to_tensor([0.0, 2.0]), padax.to_tensor([0.0, 3.0])).tolist()
        [0.0, 2.1972]
    """
    x, y = inexact_args("xlogy", x, y)
    return _xlogy(x, y)


@custom_jvp
def _xlog1py(x, y):
    return pnp.where(x == 0, pnp.where(pnp.isnan(y), y, 0.0), x * pnp.log1p(pnp.where(x == 0, 0.0, y)))


@_xlog1py.defjvp
def _xlog1py_jvp(primals, tangents):
    (x, y), (tx, ty) = primals, tangents
    safe_y = pnp.where(x == 0, 0.0, y)
    dx = pnp.log1p(pnp.where((x == 0) & (y == -1), 0.0, y))  # log1p(y) also at x == 0, as jax
    return _xlog1py(x, y), dx * tx + pnp.where(x == 0, 0.0, x / (1.0 + safe_y)) * ty


def xlog1py(x: Any, y: Any) -> Any:
    """x * log1p(y), 0 where x == 0.

    Args:
        x, y: real arrays broadcast together.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.xlog1py(padax.to_tensor([0.0, 2.0]), padax.to_tensor([-1.0, 1.0])).tolist()
        [0.0, 1.3863]
    """
    x, y = inexact_args("xlog1py", x, y)
    return _xlog1py(x, y)


def entr(x: Any) -> Any:
    """-x log x for x > 0, 0 at 0, -inf for x < 0.

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.entr(padax.to_tensor([0.5, 1.0])).tolist()
        [0.3466, 0.0]
    """
    x, = inexact_args("entr", x)
    return pnp.where(x < 0, -np.inf, -_xlogy(x, x))


def rel_entr(p: Any, q: Any) -> Any:
    """p log(p / q) for p, q > 0; 0 where p == 0 and q >= 0; inf otherwise.

    Args:
        p, q: real arrays broadcast together.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.rel_entr(padax.to_tensor([0.5, 0.5]), padax.to_tensor([0.25, 0.75])).tolist()
        [0.3466, -0.2027]
    """
    p, q = inexact_args("rel_entr", p, q)
    both = (p > 0) & (q > 0)
    val = _xlogy(p, pnp.where(both, p, 1.0)) - _xlogy(p, pnp.where(both, q, 1.0))
    return pnp.where(both, val, pnp.where((p == 0) & (q >= 0), 0.0, np.inf))


def kl_div(p: Any, q: Any) -> Any:
    """p log(p / q) - p + q for p, q > 0; q where p == 0 and q >= 0; inf otherwise.

    Args:
        p, q: real arrays broadcast together.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.kl_div(padax.to_tensor([0.5, 0.5]), padax.to_tensor([0.25, 0.75])).tolist()
        [0.0966, 0.0473]
    """
    p, q = inexact_args("kl_div", p, q)
    both = (p > 0) & (q > 0)
    val = _xlogy(p, pnp.where(both, p, 1.0)) - _xlogy(p, pnp.where(both, q, 1.0)) - p + q
    return pnp.where(both, val, pnp.where((p == 0) & (q >= 0), q, np.inf))


def logit(p: Any) -> Any:
    """log(p / (1 - p)).

    Args:
        p: probabilities in [0, 1].

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.logit(padax.to_tensor([0.25, 0.5])).tolist()
        [-1.0986, 0.0]
    """
    p, = inexact_args("logit", p)
    return pnp.log(p) - pnp.log1p(-p)


def expit(x: Any) -> Any:
    """The logistic sigmoid 1 / (1 + exp(-x)).

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.expit(padax.to_tensor([-1.0, 0.0, 2.0])).tolist()
        [0.2689, 0.5, 0.8808]
    """
    x, = inexact_args("expit", x)
    return lax.logistic(x)


def _reduce_axes(a, axis):
    return axes("logsumexp", axis, a.aval.ndim)


def logsumexp(a: Any, axis: Any = None, b: Any = None, keepdims: bool = False, return_sign: bool = False,
              where: Any = None) -> Any:
    """log(sum(b * exp(a))) over `axis`, stable; with return_sign=True, (log|sum|, sign(sum)).

    Without return_sign a negative sum gives nan (as jax); masked-out elements (`where` False)
    do not count; an all-masked or all -inf reduction gives -inf.

    Args:
        a: real input array.
        axis: int or tuple of ints to reduce; None reduces all axes.
        b: optional weights broadcast with `a` (may be negative; a zero weight drops its term).
        keepdims: keep the reduced axes with size 1.
        return_sign: also return the sign of the sum.
        where: optional boolean mask; only True elements take part.

    Returns:
        The reduced array, or the tuple (log|sum|, sign) with return_sign=True.

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> float(special.logsumexp(padax.to_tensor([1.0, 2.0, 3.0])))
        3.4076
    """
    if b is not None:
        a, b = inexact_args("logsumexp", a, b)
    else:
        a, = inexact_args("logsumexp", a)
    ax = _reduce_axes(a, axis)
    mask = None if where is None else pnp.broadcast_to(pnp.asarray(where, dtype=bool), a.aval.shape)
    if mask is not None:
        a = pnp.where(mask, a, -np.inf)
    if b is not None:
        a = pnp.where(b == 0, -np.inf, a)          # a zero weight removes its term (even an inf one)
    amax = stop_gradient(pnp.max(a, axis=ax, keepdims=True))
    amax = pnp.where(pnp.isfinite(amax), amax, 0.0)
    e = pnp.exp(a - amax)
    if b is not None:
        e = e * b
    s = pnp.sum(e, axis=ax, keepdims=True)
    sign = pnp.sign(s)
    out = pnp.log(pnp.abs(s)) + amax
    if not keepdims:
        out, sign = pnp.squeeze(out, axis=ax), pnp.squeeze(sign, axis=ax)
    if return_sign:
        return out, sign
    return pnp.where(sign < 0, np.nan, out)


def softmax(x: Any, axis: Any = None) -> Any:
    """exp(x) / sum(exp(x)) over `axis` (all axes by default, as scipy).

    Args:
        x: real input array.
        axis: int or tuple of ints to normalise over; None means all axes.

    Returns:
        An array of the shape of `x` (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.softmax(padax.to_tensor([1.0, 2.0, 3.0])).tolist()
        [0.09, 0.2447, 0.6652]
    """
    x, = inexact_args("softmax", x)
    ax = _reduce_axes(x, axis)
    m = stop_gradient(pnp.max(x, axis=ax, keepdims=True))
    e = pnp.exp(x - pnp.where(pnp.isfinite(m), m, 0.0))
    return e / pnp.sum(e, axis=ax, keepdims=True)


def log_softmax(x: Any, axis: Any = None) -> Any:
    """x - logsumexp(x) over `axis` (all axes by default, as scipy).

    Args:
        x: real input array.
        axis: int or tuple of ints to normalise over; None means all axes.

    Returns:
        An array of the shape of `x` (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.log_softmax(padax.to_tensor([1.0, 2.0, 3.0])).tolist()
        [-2.4076, -1.4076, -0.4076]
    """
    x, = inexact_args("log_softmax", x)
    ax = _reduce_axes(x, axis)
    m = stop_gradient(pnp.max(x, axis=ax, keepdims=True))
    shifted = x - pnp.where(pnp.isfinite(m), m, 0.0)
    return shifted - pnp.log(pnp.sum(pnp.exp(shifted), axis=ax, keepdims=True))


__all__ = ["xlogy", "xlog1py", "entr", "rel_entr", "kl_div", "logit", "expit", "logsumexp", "softmax",
           "log_softmax"]
