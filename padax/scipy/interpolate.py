"""`padax.scipy.interpolate`: CubicSpline, interp1d and RegularGridInterpolator with
scipy's signatures. Interpolants are pytrees (their coefficients are arrays), so they are
built and evaluated under jit/vmap and differentiated in both the data and the query points."""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np

import padax.numpy as pnp
from padax import tree as tree_util
from padax.core.errors import op_value_error
from padax.core.trace import Tracer
from padax.linalg import solve


def _interval(x, xq):
    """Index i of the interval [x_i, x_{i+1}] holding each query (ends extrapolate)."""
    return pnp.clip(pnp.searchsorted(x, xq, side="right") - 1, 0, x.shape[0] - 2)


class CubicSpline:
    """A C2 piecewise cubic through (x, y) along `axis` of y; bc_type 'not-a-knot' (scipy's
    default), 'natural' or 'clamped'. `spline(xq, nu=0)` evaluates the nu-th derivative
    (0..3); outside [x0, xn] the end pieces extrapolate (or give nan with extrapolate=False).

    Args:
        x: the strictly increasing 1-D knots (at least 2).
        y: the values; y.shape[axis] == len(x).
        axis: the axis of y along which it varies (default 0).
        bc_type: 'not-a-knot' (default), 'natural' (zero second derivative at the ends) or 'clamped' (zero first
            derivative).
        extrapolate: extend the end pieces outside [x0, xn] (default True); False gives nan there.

    Examples:
        >>> import padax
        >>> from padax.scipy.interpolate import CubicSpline
        >>> x = padax.to_tensor([0.0, 1.0, 2.0, 3.0])
        >>> spline = CubicSpline(x, x ** 3)  # not-a-knot: reproduces a cubic exactly
        >>> spline(padax.to_tensor([0.5, 1.5, 2.5])).tolist()
        [0.125, 3.375, 15.625]
        >>> spline(padax.to_tensor([0.5, 1.5]), 1).tolist()  # the derivative 3 x**2
        [0.75, 6.75]
    """

    def __init__(self, x: Any, y: Any, axis: int = 0, bc_type: str = "not-a-knot", extrapolate: bool = True):
        op = "padax.scipy.interpolate.CubicSpline"
        if bc_type not in ("not-a-knot", "natural", "clamped"):
            raise op_value_error(op, f"bc_type must be 'not-a-knot', 'natural' or 'clamped', got {bc_type!r}")
        x = pnp.asarray(x)
        y = pnp.moveaxis(pnp.asarray(y), axis, 0)
        dt = pnp.result_type(x.dtype, y.dtype, pnp.float32)
        x, y = x.astype(dt), y.astype(dt)
        n = x.shape[0]
        if x.ndim != 1 or n < 2 or y.shape[0] != n:
            raise op_value_error(op, f"x must be 1-D with at least 2 points and match y along axis {axis}; got x "
                                     f"{tuple(x.shape)}, y {tuple(y.shape)}")
        if not isinstance(x, Tracer) and np.any(np.diff(np.asarray(x)) <= 0):
            raise op_value_error(op, "x must be strictly increasing")
        h = pnp.diff(x)
        flat = y.reshape((n, -1))
        slope = pnp.diff(flat, axis=0) / h[:, None]
        rows, rhs = [], []

        def row(coeffs: dict):
            r = pnp.zeros((n,), dt)
            for j, c in coeffs.items():
                r = r.at[j].set(c)
            return r
        # boundary condition at the left end
        if bc_type == "natural" or (n == 2 and bc_type != "clamped"):
            rows.append(row({0: 1.0}))
            rhs.append(pnp.zeros_like(flat[0]))
        elif bc_type == "clamped":
            rows.append(row({0: 2 * h[0], 1: h[0]}))
            rhs.append(6 * slope[0])
        elif n == 3:
            rows.append(row({0: 1.0, 1: -1.0}))
            rhs.append(pnp.zeros_like(flat[0]))
        else:
            rows.append(row({0: h[1], 1: -(h[0] + h[1]), 2: h[0]}))
            rhs.append(pnp.zeros_like(flat[0]))
        for i in range(1, n - 1):
            rows.append(row({i - 1: h[i - 1], i: 2 * (h[i - 1] + h[i]), i + 1: h[i]}))
            rhs.append(6 * (slope[i] - slope[i - 1]))
        if bc_type == "natural" or (n == 2 and bc_type != "clamped"):
            rows.append(row({n - 1: 1.0}))
            rhs.append(pnp.zeros_like(flat[0]))
        elif bc_type == "clamped":
            rows.append(row({n - 2: h[-1], n - 1: 2 * h[-1]}))
            rhs.append(-6 * slope[-1])
        elif n == 3:
            rows.append(row({1: 1.0, 2: -1.0}))
            rhs.append(pnp.zeros_like(flat[0]))
        else:
            rows.append(row({n - 3: h[-1], n - 2: -(h[-2] + h[-1]), n - 1: h[-2]}))
            rhs.append(pnp.zeros_like(flat[0]))
        M = solve(pnp.stack(rows), pnp.stack(rhs))            # second derivatives at the knots
        self.x, self.y, self.M = x, flat, M
        self.trailing = tuple(y.shape[1:])
        self.axis, self.extrapolate = axis, extrapolate

    def __call__(self, xq: Any, nu: int = 0) -> Any:
        if nu not in (0, 1, 2, 3):
            raise op_value_error("CubicSpline", f"nu must be 0, 1, 2 or 3, got {nu!r}")
        xq = pnp.asarray(xq, dtype=self.x.dtype)
        q = xq.reshape(-1)
        i = _interval(self.x, q)
        x0, h = self.x[i], self.x[i + 1] - self.x[i]
        y0, y1, m0, m1 = self.y[i], self.y[i + 1], self.M[i], self.M[i + 1]
        t = (q - x0)[:, None]
        hh = h[:, None]
        b = (y1 - y0) / hh - hh * (2 * m0 + m1) / 6
        c, d = m0 / 2, (m1 - m0) / (6 * hh)
        if nu == 0:
            out = y0 + t * (b + t * (c + t * d))
        elif nu == 1:
            out = b + t * (2 * c + 3 * t * d)
        elif nu == 2:
            out = 2 * c + 6 * t * d
        else:
            out = 6 * d + 0 * t
        if not self.extrapolate:
            inside = (q >= self.x[0]) & (q <= self.x[-1])
            out = pnp.where(inside[:, None], out, np.nan)
        out = out.reshape(tuple(xq.shape) + self.trailing)
        return pnp.moveaxis(out, tuple(range(xq.ndim)), tuple(range(self.axis, self.axis + xq.ndim))) \
            if self.axis and xq.ndim else out

    def derivative(self, nu: int = 1):
        """A callable for the nu-th derivative."""
        return lambda xq: self(xq, nu)


tree_util.register_node(CubicSpline, lambda s: ((s.x, s.y, s.M), (s.trailing, s.axis, s.extrapolate)),
                        lambda aux, ch: _rebuild(CubicSpline, ch, aux))


def _rebuild(cls, ch, aux):
    s = object.__new__(cls)
    s.x, s.y, s.M = ch
    s.trailing, s.axis, s.extrapolate = aux
    return s


def interp1d(x: Any, y: Any, kind: str = "linear", axis: int = -1, fill_value: Any = np.nan,
             assume_sorted: bool = True):
    """A function xq -> y interpolated along `axis`: kind 'linear', 'nearest' or 'cubic'
    (a not-a-knot CubicSpline). Queries outside [x0, xn] give fill_value, or extrapolate
    with fill_value='extrapolate'.

    Args:
        x: the 1-D sample points.
        y: the values; y.shape[axis] == len(x).
        kind: 'linear' (default), 'nearest' or 'cubic'.
        axis: the axis of y along which it varies (default the last).
        fill_value: the value outside [x0, xn] (default nan), or 'extrapolate'.
        assume_sorted: x is increasing (default True); False sorts it first.

    Returns:
        A function of the query points xq, returning y's shape with `axis` replaced by xq's shape.

    Examples:
        >>> import padax
        >>> from padax.scipy.interpolate import interp1d
        >>> x = padax.to_tensor([0.0, 1.0, 2.0, 3.0])
        >>> f = interp1d(x, x ** 3)
        >>> f(padax.to_tensor([0.5, 2.5])).tolist()  # linear between the samples, as scipy
        [0.5, 17.5]
    """
    if kind not in ("linear", "nearest", "cubic"):
        raise op_value_error("padax.scipy.interpolate.interp1d", f"kind must be 'linear', 'nearest' or 'cubic', "
                                                                 f"got {kind!r}")
    x = pnp.asarray(x)
    yv = pnp.moveaxis(pnp.asarray(y), axis, 0)
    dt = pnp.result_type(x.dtype, yv.dtype, pnp.float32)
    x, yv = x.astype(dt), yv.astype(dt)
    if not assume_sorted:
        order = pnp.argsort(x)
        x, yv = x[order], yv[order]
    spline = CubicSpline(x, yv, axis=0) if kind == "cubic" else None

    def f(xq):
        xq = pnp.asarray(xq, dtype=dt)
        q = xq.reshape(-1)
        if spline is not None:
            out = spline(q).reshape((q.shape[0], -1))
        else:
            i = _interval(x, q)
            flat = yv.reshape((x.shape[0], -1))
            w = ((q - x[i]) / (x[i + 1] - x[i]))[:, None]
            if kind == "linear":
                out = flat[i] * (1 - w) + flat[i + 1] * w
            else:
                out = pnp.where(w > 0.5, flat[i + 1], flat[i])
        if not (isinstance(fill_value, str) and fill_value == "extrapolate"):
            inside = (q >= x[0]) & (q <= x[-1])
            out = pnp.where(inside[:, None], out, pnp.asarray(fill_value, dtype=dt))
        out = out.reshape(tuple(xq.shape) + tuple(yv.shape[1:]))
        ax = axis % pnp.asarray(y).ndim
        return pnp.moveaxis(out, tuple(range(xq.ndim)), tuple(range(ax, ax + xq.ndim))) if ax and xq.ndim else out
    return f


class RegularGridInterpolator:
    """Interpolation on a rectilinear grid (points = one increasing 1-D array per axis,
    values of shape (len(p0), len(p1), ..., *trailing)): method 'linear' (multilinear) or
    'nearest'; outside the grid gives fill_value (None extrapolates).

    Args:
        points: one strictly increasing 1-D array (length >= 2) per grid axis.
        values: the grid values, shape (len(points[0]), ..., len(points[d-1]), *trailing).
        method: 'linear' (default) or 'nearest'.
        bounds_error: must be False (out-of-grid queries cannot raise under tracing).
        fill_value: the value outside the grid (default nan); None extrapolates.

    Examples:
        >>> import padax
        >>> from padax.scipy.interpolate import RegularGridInterpolator
        >>> grid = (padax.to_tensor([0.0, 1.0]), padax.to_tensor([0.0, 1.0, 2.0]))
        >>> values = padax.to_tensor([[0.0, 1.0, 2.0], [10.0, 11.0, 12.0]])  # 10 x + y
        >>> RegularGridInterpolator(grid, values)(padax.to_tensor([[0.5, 0.5], [0.25, 1.5]])).tolist()
        [5.5, 4.0]
    """

    def __init__(self, points: Any, values: Any, method: str = "linear", bounds_error: bool = False,
                 fill_value: Any = np.nan):
        op = "padax.scipy.interpolate.RegularGridInterpolator"
        if method not in ("linear", "nearest"):
            raise op_value_error(op, f"method must be 'linear' or 'nearest', got {method!r}")
        if bounds_error:
            raise op_value_error(op, "bounds_error=True cannot be checked on traced queries; use fill_value")
        self.values = pnp.asarray(values)
        dt = pnp.result_type(self.values.dtype, pnp.float32)
        self.values = self.values.astype(dt)
        self.grid = tuple(pnp.asarray(p).astype(dt) for p in points)
        for k, p in enumerate(self.grid):
            if p.ndim != 1 or p.shape[0] != self.values.shape[k] or p.shape[0] < 2:
                raise op_value_error(op, f"points[{k}] must be 1-D with values.shape[{k}] = "
                                         f"{self.values.shape[k]} (>= 2) entries, got shape {tuple(p.shape)}")
        self.method, self.fill_value = method, fill_value

    def __call__(self, xi: Any) -> Any:
        d = len(self.grid)
        xi = pnp.asarray(xi, dtype=self.values.dtype)
        if xi.shape[-1] != d:
            raise op_value_error("RegularGridInterpolator", f"queries must have a last axis of {d}, got shape "
                                                            f"{tuple(xi.shape)}")
        q = xi.reshape((-1, d))
        idx, w, inside = [], [], pnp.ones((q.shape[0],), bool)
        for k, g in enumerate(self.grid):
            i = _interval(g, q[:, k])
            idx.append(i)
            w.append((q[:, k] - g[i]) / (g[i + 1] - g[i]))
            inside = inside & (q[:, k] >= g[0]) & (q[:, k] <= g[-1])
        trailing = tuple(self.values.shape[d:])
        if self.method == "nearest":
            corner = tuple(pnp.where(wk > 0.5, ik + 1, ik) for ik, wk in zip(idx, w))
            out = self.values[corner]
        else:
            out = 0
            for bits in itertools.product((0, 1), repeat=d):
                weight = 1
                for b, wk in zip(bits, w):
                    weight = weight * (wk if b else 1 - wk)
                val = self.values[tuple(ik + b for ik, b in zip(idx, bits))]
                out = out + weight.reshape((-1,) + (1,) * len(trailing)) * val
        if self.fill_value is not None:
            out = pnp.where(inside.reshape((-1,) + (1,) * len(trailing)), out,
                            pnp.asarray(self.fill_value, dtype=self.values.dtype))
        return out.reshape(tuple(xi.shape[:-1]) + trailing)


tree_util.register_node(RegularGridInterpolator, lambda r: ((r.grid, r.values), (r.method, r.fill_value)),
                        lambda aux, ch: _rebuild_grid(ch, aux))


def _rebuild_grid(ch, aux):
    r = object.__new__(RegularGridInterpolator)
    r.grid, r.values = ch
    r.method, r.fill_value = aux
    return r


__all__ = ["CubicSpline", "RegularGridInterpolator", "interp1d"]
