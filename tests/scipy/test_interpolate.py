"""padax.scipy.interpolate against scipy.interpolate; jit/vmap/grad through interpolants."""
import numpy as np
import pytest
import scipy.interpolate as si

import padax
from padax.scipy import interpolate as pi
from padax.test_util import check_grads

RNG = np.random.default_rng(8)


@pytest.mark.parametrize("bc", ["not-a-knot", "natural", "clamped"])
@pytest.mark.parametrize("n", [2, 3, 9])
def test_cubic_spline_matches_scipy(bc, n):
    x = np.sort(RNG.random(n)) * 4
    y = np.stack([np.sin(x), np.cos(2 * x), x ** 2], axis=1)           # (n, 3), axis=0
    xq = np.linspace(-0.5, 4.5, 17)
    ours = pi.CubicSpline(x, y, bc_type=bc)
    ref = si.CubicSpline(x, y, bc_type=bc)
    for nu in range(4):
        np.testing.assert_allclose(np.asarray(ours(xq, nu)), ref(xq, nu), rtol=1e-9, atol=1e-9)
    # another axis, and a 2-D query
    ours1 = pi.CubicSpline(x, y.T, axis=1, bc_type=bc)
    np.testing.assert_allclose(np.asarray(ours1(xq.reshape(1, 17))), si.CubicSpline(x, y.T, axis=1, bc_type=bc)(
        xq.reshape(1, 17)), rtol=1e-9, atol=1e-9)


@pytest.mark.slow
def test_cubic_spline_jit_vmap_grad():
    x = np.linspace(0, 1, 7)
    build_eval = lambda y, q: pi.CubicSpline(x, y)(q)  # noqa: E731
    y = np.sin(3 * x)
    q = np.array([0.13, 0.5, 0.91])
    np.testing.assert_allclose(np.asarray(padax.jit(build_eval)(y, q)), si.CubicSpline(x, y)(q), rtol=1e-12)
    ys = np.stack([y, 2 * y])
    np.testing.assert_allclose(np.asarray(padax.vmap(build_eval, in_axes=(0, None))(ys, q))[1],
                               2 * si.CubicSpline(x, y)(q), rtol=1e-12)
    check_grads(build_eval, (y, q), order=1)
    sp = padax.jit(lambda y: pi.CubicSpline(x, y))(y)                  # the spline is a pytree
    np.testing.assert_allclose(np.asarray(sp(q)), si.CubicSpline(x, y)(q), rtol=1e-12)


@pytest.mark.parametrize("kind", ["linear", "nearest", "cubic"])
def test_interp1d(kind):
    x = np.sort(RNG.random(10))
    y = np.stack([np.exp(x), x ** 3])                                   # (2, 10), axis=-1
    xq = np.linspace(x[0], x[-1], 13)[1:-1]
    ref = si.interp1d(x, y, kind=kind)(xq)
    np.testing.assert_allclose(np.asarray(pi.interp1d(x, y, kind=kind)(xq)), ref, rtol=1e-10)
    out = np.asarray(pi.interp1d(x, y, kind=kind)(np.array([x[0] - 1, x[-1] + 1])))
    assert np.isnan(out).all()
    ext = pi.interp1d(x, y, kind=kind, fill_value="extrapolate")(np.array([x[-1] + 0.1]))
    np.testing.assert_allclose(np.asarray(ext), si.interp1d(x, y, kind=kind, fill_value="extrapolate")(
        [x[-1] + 0.1]), rtol=1e-9)


@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_regular_grid_interpolator(method):
    pts = (np.sort(RNG.random(5)), np.linspace(0, 2, 4), np.array([0.0, 0.5, 3.0]))
    vals = RNG.standard_normal((5, 4, 3, 2))
    q = np.stack([RNG.uniform(pts[0][0], pts[0][-1], 9), RNG.uniform(0, 2, 9), RNG.uniform(0, 3, 9)], axis=1)
    ref = si.RegularGridInterpolator(pts, vals, method=method)(q)
    ours = pi.RegularGridInterpolator(pts, vals, method=method)
    np.testing.assert_allclose(np.asarray(ours(q)), ref, rtol=1e-12)
    assert np.isnan(np.asarray(ours(np.array([[5.0, 1.0, 1.0]])))).all()
    if method == "linear":
        check_grads(lambda v, q: pi.RegularGridInterpolator(pts, v)(q), (vals, q), order=1)
