"""Paddle's top-level names for special functions (`padax.i0`, `padax.gammainc`, ...), with
Paddle's signatures: integer inputs become float32 (Paddle's default float), and gammainc /
gammaincc refuse negative concrete arguments as Paddle does."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.core.errors import op_value_error
from padax.core.trace import Tracer
from padax.functional import inplace
from padax.scipy.special import _bessel, _gamma


def i0(x: Any, name: str | None = None) -> Any:
    """The modified Bessel function of the first kind of order 0."""
    return _bessel.i0(x)


def i0e(x: Any, name: str | None = None) -> Any:
    """exp(-|x|) I0(x)."""
    return _bessel.i0e(x)


def i1(x: Any, name: str | None = None) -> Any:
    """The modified Bessel function of the first kind of order 1."""
    return _bessel.i1(x)


def i1e(x: Any, name: str | None = None) -> Any:
    """exp(-|x|) I1(x)."""
    return _bessel.i1e(x)


def _non_negative(op: str, what: str, v: Any) -> None:
    if isinstance(v, Tracer):
        return
    arr = np.asarray(v)
    if arr.size and np.any(arr < 0):
        raise op_value_error(op, f"the input argument {what} must be greater than or equal to 0")


def gammainc(x: Any, y: Any, name: str | None = None) -> Any:
    """The regularised lower incomplete gamma function P(x, y) (Paddle's argument names: x is the
    shape, y the integration limit); differentiable in both."""
    _non_negative("gammainc", "x", x)
    _non_negative("gammainc", "y", y)
    return _gamma.gammainc(x, y)


def gammaincc(x: Any, y: Any, name: str | None = None) -> Any:
    """The regularised upper incomplete gamma function Q(x, y) = 1 - P(x, y)."""
    _non_negative("gammaincc", "x", x)
    _non_negative("gammaincc", "y", y)
    return _gamma.gammaincc(x, y)


__all__ = ["i0", "i0e", "i1", "i1e", "gammainc", "gammaincc"]


# Paddle's in-place twins (x.gammainc_(y), x.i0_()): rebinding x (padax/functional/inplace.py)
for _name, _fn in (("gammainc_", gammainc), ("gammaincc_", gammaincc), ("i0_", i0)):
    inplace.register(_name, _fn)
del _name, _fn
