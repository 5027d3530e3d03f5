"""padax.numpy against numpy: ravel's orders, unique along an axis, periodic interp, every pad
mode (and a callable), tensorsolve with axes. Values and dtypes match numpy (with padax's
promotion: 32-bit defaults unless x64); derivatives of pad and interp are checked with
finite differences. Many cases share one jitted program: compilation dominates the cost.
"""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.numpy as pnp
from padax.test_util import check_grads

# ---- ravel ---------------------------------------------------------------------------------


def _layouts():
    base = np.arange(120).reshape(2, 3, 4, 5)
    yield "c", base
    yield "fortran", np.asfortranarray(base)
    yield "transposed", base.transpose(2, 0, 3, 1)
    yield "negative_step", base[:, ::-1, ::2]
    yield "sliced_transposed", base[1:, :, 1::2].transpose(3, 1, 2, 0)
    yield "broadcast", np.broadcast_to(np.arange(3).reshape(3, 1, 1), (3, 4, 2)).transpose(2, 1, 0)
    yield "broadcast_row", np.broadcast_to(np.arange(3), (2, 3))
    yield "unit_axes", np.arange(6).reshape(1, 2, 1, 3).transpose(3, 2, 0, 1)


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_ravel_orders_follow_numpy_layouts(order):
    for name, a in _layouts():
        got = pnp.ravel(a, order)
        np.testing.assert_array_equal(np.asarray(got), np.ravel(a, order), err_msg=name)
        assert got.dtype == np.int64


def test_ravel_padax_arrays_and_errors(x64):
    x = padax.to_tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    want = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    f = padax.jit(lambda t: [pnp.ravel(t, o) for o in "CFAK"])
    c, fo, a, k = (np.asarray(r) for r in f(x))
    np.testing.assert_array_equal(c, want.ravel())
    np.testing.assert_array_equal(fo, want.ravel("F"))
    np.testing.assert_array_equal(a, want.ravel())  # padax arrays have no layout: 'A'/'K' read as 'C'
    np.testing.assert_array_equal(k, want.ravel())
    with pytest.raises(ValueError, match="order"):
        pnp.ravel(x, "X")
    check_grads(lambda t: pnp.ravel(t, "F") * np.arange(24.0), (want.astype(np.float64),), order=1,
                modes=("fwd", "rev"))


# ---- unique(axis=...) ---------------------------------------------------------------------

def _unique_cases():
    rng = np.random.default_rng(0)
    yield np.array([[1, 0, 0], [1, 0, 0], [2, 3, 4], [0, 9, 9]], np.int32), 0
    yield np.array([[1, 0, 0], [1, 0, 0], [2, 3, 4], [0, 9, 9]], np.int32), 1
    yield rng.integers(0, 2, (5, 3, 2)).astype(np.int32), 0
    yield rng.integers(0, 2, (5, 3, 2)).astype(np.int32), 1
    yield rng.integers(0, 2, (5, 3, 2)).astype(np.int32), -1
    yield rng.integers(0, 2, (6, 2)).astype(np.bool_), 0
    # NaN rows are never equal; -0.0 == 0.0; inf sorts before NaN
    yield np.array([[1.0, np.nan], [1.0, np.nan], [-0.0, 2], [0.0, 2], [np.inf, 1]], np.float32), 0
    yield rng.integers(-2, 2, (7,)).astype(np.float32), 0


@pytest.mark.parametrize("case", range(8))
def test_unique_axis_matches_numpy(case):
    a, axis = list(_unique_cases())[case]
    got = pnp.unique(a, return_index=True, return_inverse=True, return_counts=True, axis=axis)
    want = np.unique(a, return_index=True, return_inverse=True, return_counts=True, axis=axis)
    for g, w, what in zip(got, want, ("values", "index", "inverse", "counts")):
        g = np.asarray(g)
        assert g.shape == w.shape, (what, g.shape, w.shape)
        assert g.dtype == (a.dtype if what == "values" else np.int64), what
        np.testing.assert_array_equal(g, w, err_msg=what)
    np.testing.assert_array_equal(np.asarray(pnp.unique(a, axis=axis)), np.unique(a, axis=axis))


def test_unique_axis_empty_and_sized():
    for a, axis in ((np.zeros((0, 3), np.float32), 0), (np.ones((2, 0), np.float32), 0),
                    (np.ones((2, 0), np.float32), 1)):
        got = pnp.unique(a, return_index=True, return_inverse=True, return_counts=True, axis=axis)
        want = np.unique(a, return_index=True, return_inverse=True, return_counts=True, axis=axis)
        for g, w in zip(got, want):
            assert np.asarray(g).shape == w.shape
            np.testing.assert_array_equal(np.asarray(g), w)
    a = np.array([[1, 0, 0], [1, 0, 0], [2, 3, 4], [0, 9, 9]], np.int32)
    v, c = padax.jit(lambda t: pnp.unique(t, axis=0, size=5, fill_value=-1, return_counts=True))(a)
    np.testing.assert_array_equal(np.asarray(v), [[0, 9, 9], [1, 0, 0], [2, 3, 4], [-1, -1, -1], [-1, -1, -1]])
    np.testing.assert_array_equal(np.asarray(c), [1, 2, 1, 0, 0])
    with pytest.raises(TypeError, match="size="):
        padax.jit(lambda t: pnp.unique(t, axis=0))(a)


def test_unique_flat_equal_nan_and_inverse_shape():
    """numpy >= 2: NaNs collapse by default (equal_nan=True) and the inverse has the input's shape."""
    f = np.array([[2.0, np.nan, 1.0], [2.0, np.nan, -0.5]], np.float32)
    for equal_nan in (True, False):
        got = pnp.unique(f, return_index=True, return_inverse=True, return_counts=True, equal_nan=equal_nan)
        want = np.unique(f, return_index=True, return_inverse=True, return_counts=True, equal_nan=equal_nan)
        for g, w in zip(got, want):
            assert np.asarray(g).shape == w.shape
            np.testing.assert_array_equal(np.asarray(g), w)


# ---- interp(period=...) -------------------------------------------------------------------

def test_interp_period_matches_numpy(x64):
    x = np.array([-180, -170, -185, 185, -10, -5, 0, 365], np.float64)
    xp = np.array([190, -190, 350, -350], np.float64)
    fp = np.array([5, 10, 3, 4], np.float64)
    rng = np.random.default_rng(1)
    xr, xpr, fpr = rng.uniform(-20, 20, 40), rng.uniform(-10, 10, 7), rng.standard_normal(7)
    fc = fpr + 1j * rng.standard_normal(7)
    f = padax.jit(lambda: [pnp.interp(x, xp, fp, period=360), pnp.interp(xr, xpr, fpr, period=3.0),
                           pnp.interp(xr, xpr, fpr, period=-4.5, left=0.0, right=1.0),
                           pnp.interp(xr, xpr, fc, period=5.0)])
    got = f()
    want = [np.interp(x, xp, fp, period=360), np.interp(xr, xpr, fpr, period=3.0),
            np.interp(xr, xpr, fpr, period=-4.5, left=0.0, right=1.0), np.interp(xr, xpr, fc, period=5.0)]
    for g, w in zip(got, want):
        assert np.asarray(g).dtype == w.dtype
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-13, atol=1e-13)


def test_interp_period_float32_traced_and_errors():
    x = np.array([1.5, 0.2, -0.7, 7.3], np.float32)
    xp, fp = np.array([1.0, 0.0, 0.5], np.float32), np.array([3.0, 4.0, 2.0], np.float32)
    got = padax.jit(lambda p: pnp.interp(x, xp, fp, period=p))(np.float32(2.0))
    assert got.dtype == np.float32
    np.testing.assert_allclose(np.asarray(got), np.interp(x, xp, fp, period=2.0), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(pnp.interp(x, [0, 1], [1, 2], period=2)),
                               np.interp(x, [0, 1], [1, 2], period=2), rtol=1e-6)
    with pytest.raises(ValueError, match="period"):
        pnp.interp(x, xp, fp, period=0)
    with pytest.raises(ValueError, match="same length"):
        pnp.interp(x, xp, fp[:2], period=1.0)


def test_interp_grads(x64):
    rng = np.random.default_rng(2)
    x, xp, fp = rng.uniform(-8, 8, 9), np.sort(rng.uniform(-6, 6, 5)), rng.standard_normal(5)
    check_grads(padax.jit(lambda a, b, c: pnp.interp(a, b, c, period=5.0)), (x, xp, fp), order=1,
                modes=("fwd", "rev"))
    check_grads(padax.jit(lambda a, b, c: pnp.interp(a, b, c)), (x, xp, fp), order=1, modes=("fwd", "rev"))


# ---- pad -----------------------------------------------------------------------------------

MODES = ["constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect", "symmetric",
         "wrap", "empty"]


def _pad_cases(dtypes, n_random):
    rng = np.random.default_rng(3)
    cases = []
    for t in range(n_random):
        nd = int(rng.integers(1, 4))
        shape = tuple(int(v) for v in rng.integers(1, 5, size=nd))
        dt = dtypes[t % len(dtypes)]
        a = (rng.standard_normal(shape) * 10).astype(dt) if np.dtype(dt).kind in "fi" else \
            rng.integers(0, 3, size=shape).astype(dt)
        widths = [(int(rng.integers(0, 7)), int(rng.integers(0, 7))) for _ in range(nd)]
        mode = MODES[t % len(MODES)]
        kw = {}
        if mode in ("reflect", "symmetric") and t % 2:
            kw["reflect_type"] = "odd"
        if mode in ("maximum", "mean", "median", "minimum") and t % 3:
            kw["stat_length"] = [(int(rng.integers(1, 4)), int(rng.integers(1, 4))) for _ in range(nd)]
        if mode == "linear_ramp":
            kw["end_values"] = ([(int(rng.integers(-5, 5)), float(rng.integers(-5, 5))) for _ in range(nd)]
                                if t % 2 else int(rng.integers(-5, 5)))
        if mode == "constant" and t % 2:
            kw["constant_values"] = [(1, 2)] * nd
        cases.append((a, widths, mode, kw))
    a = np.arange(6, dtype=dtypes[0]).reshape(2, 3)
    cases += [(a, 2, "constant", {"constant_values": 7}), (a, (1, 2), "edge", {}), (a, ((1, 2),), "wrap", {}),
              (a, [[1], [2]], "edge", {}), (a, 3, "mean", {"stat_length": 0}),
              (np.array([1.0, np.nan, 3.0, 4.0], dtypes[0]), 2, "median", {}),
              (np.array([1, 2, 3, 4, 8], np.int32), 2, "median", {"stat_length": 2}),
              (np.array([1, 2, 2, 3], np.int32), 2, "mean", {"stat_length": ((2, 3),)}),
              (np.array([3.0, 3.0, 5.0], dtypes[0]), 3, "linear_ramp", {"end_values": 3}),
              (np.array([1, 4], np.uint8), (1, 0), "linear_ramp", {"end_values": -1}),
              (np.array([True, False, True]), 4, "symmetric", {"reflect_type": "odd"}),
              (np.array([1, 5, 2], np.int32), 7, "reflect", {"reflect_type": "odd"}),
              (np.zeros((0, 3), dtypes[0]), ((0, 0), (1, 1)), "edge", {}),
              (np.zeros((0, 3), dtypes[0]), 1, "constant", {}), (np.float32(3), 2, "edge", {})]
    return cases


def _check_pad(cases, exact):
    f = padax.jit(lambda *arrays: [pnp.pad(a, w, m, **kw) for a, (_, w, m, kw) in zip(arrays, cases)])
    got = f(*[c[0] for c in cases])
    for (a, w, m, kw), g in zip(cases, got):
        want = np.pad(a, w, m, **kw)
        g = np.asarray(g)
        what = f"{a.dtype}{a.shape} {w} {m} {kw}"
        assert g.shape == want.shape and g.dtype == want.dtype, what
        if m == "empty":  # undefined in numpy; padax fills zeros
            inner = tuple(slice(lo, lo + n) for (lo, _), n in zip(np.broadcast_to(w, (a.ndim, 2)), a.shape))
            np.testing.assert_array_equal(g[inner], a, err_msg=what)
            continue
        if want.dtype.kind not in "fc" or (exact and m != "linear_ramp"):
            np.testing.assert_array_equal(g, want, err_msg=what)
        elif exact:  # XLA may fuse the ramp's k * step + start into one fma: last-bit differences
            np.testing.assert_array_max_ulp(g, want, maxulp=2)
        else:
            np.testing.assert_allclose(g, want, rtol=2e-6, atol=1e-6 * float(np.abs(want).max(initial=1)), err_msg=what)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy: the mean of an empty slice
def test_pad_all_modes_match_numpy_exactly_x64(x64):
    """With x64 padax computes in the dtypes numpy does (including linspace's float64 for
    NumPy-scalar end values), so every mode agrees bit for bit (linear ramps: to 2 ulp, as
    XLA may contract the ramp's multiply-add)."""
    _check_pad(_pad_cases([np.float64, np.float32, np.int32, np.uint8, np.bool_], 66), exact=True)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_pad_all_modes_float32():
    """Without x64, linear_ramp evaluates in float32 where numpy uses float64: last-bit
    differences there; everything else is exact."""
    _check_pad(_pad_cases([np.float32, np.int32, np.uint8, np.bool_], 44), exact=False)


def test_pad_callable_and_errors():
    def numpy_style(vector, pad_width, iaxis, kwargs):   # numpy's in-place convention
        vector[:pad_width[0]] = vector[pad_width[0]] * (iaxis + 2) + kwargs.get("shift", 0)
        if pad_width[1]:
            vector[-pad_width[1]:] = vector[-pad_width[1] - 1] + iaxis

    def padax_style(row, pad_width, iaxis, kwargs):      # padax: return the new row
        n = row.shape[0]
        out = row.at[:pad_width[0]].set(row[pad_width[0]] * (iaxis + 2) + kwargs.get("shift", 0))
        if pad_width[1]:
            out = out.at[n - pad_width[1]:].set(row[n - pad_width[1] - 1] + iaxis)
        return out

    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    for w in (2, ((1, 2), (2, 1)), ((0, 1), (3, 0))):
        np.testing.assert_array_equal(np.asarray(pnp.pad(a, w, padax_style, shift=5)),
                                      np.pad(a, w, numpy_style, shift=5))
        np.testing.assert_array_equal(np.asarray(pnp.pad(a, w, numpy_style, shift=5)),  # in place: rebinding
                                      np.pad(a, w, numpy_style, shift=5))
    with pytest.raises(ValueError, match="not supported"):
        pnp.pad(a, 1, "bogus")
    with pytest.raises(ValueError, match="unsupported keyword"):
        pnp.pad(a, 1, "edge", constant_values=3)
    with pytest.raises(ValueError, match="stat_length of 0"):
        pnp.pad(a, 1, "maximum", stat_length=0)
    with pytest.raises(ValueError, match="empty axis"):
        pnp.pad(np.zeros((0, 3), np.float32), 1, "edge")
    with pytest.raises(TypeError, match="integers"):
        pnp.pad(a, 1.5)
    with pytest.raises(ValueError, match="non-negative"):
        pnp.pad(a, -1)
    with pytest.raises(ValueError, match="reflect_type"):
        pnp.pad(a, 1, "reflect", reflect_type="bogus")


def test_pad_traced_constant_value():
    a = np.arange(4, dtype=np.float32)
    got = padax.jit(lambda t, v: pnp.pad(t, (1, 2), constant_values=v))(a, np.float32(-3))
    np.testing.assert_array_equal(np.asarray(got), np.pad(a, (1, 2), constant_values=-3))


@pytest.mark.parametrize("mode,kw", [("constant", {"constant_values": 2.0}), ("edge", {}),
                                     ("linear_ramp", {"end_values": [(1.0, -2.0)]}),
                                     ("maximum", {"stat_length": 2}), ("mean", {}), ("median", {"stat_length": 3}),
                                     ("minimum", {}), ("reflect", {"reflect_type": "odd"}),
                                     ("symmetric", {"reflect_type": "odd"}), ("symmetric", {}), ("wrap", {})],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_pad_grads(mode, kw, x64):
    """Every mode is (piecewise) linear in the array: derivatives against finite differences
    (distinct values, so max/min/median pick one element)."""
    a = np.random.default_rng(4).permutation(12).reshape(3, 4).astype(np.float64) + 0.25
    check_grads(padax.jit(lambda t: pnp.pad(t, ((2, 5), (1, 3)), mode, **kw)), (a,), order=1, modes=("fwd", "rev"))


# ---- linalg.tensorsolve(axes=...) ------------------------------------------------------------

def test_tensorsolve_axes(x64):
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((2, 3, 6)), rng.standard_normal((2, 3))
    for axes in (None, (0, 2)):
        np.testing.assert_allclose(np.asarray(pnp.linalg.tensorsolve(a, b, axes=axes)),
                                   np.linalg.tensorsolve(a, b, axes=axes), rtol=1e-10, atol=1e-12)
    a2, b2 = rng.standard_normal((6, 2, 3)), rng.standard_normal((2, 3))
    np.testing.assert_allclose(np.asarray(pnp.linalg.tensorsolve(a2, b2, axes=(0,))),
                               np.linalg.tensorsolve(a2, b2, axes=(0,)), rtol=1e-10, atol=1e-12)
    for axes in ((0,), (1,)):   # numpy: LinAlgError (a ValueError)
        with pytest.raises(np.linalg.LinAlgError):
            np.linalg.tensorsolve(a, b, axes=axes)
        with pytest.raises(ValueError, match="tensorsolve"):
            pnp.linalg.tensorsolve(a, b, axes=axes)
    got = pnp.linalg.tensorsolve(a2.astype(np.float32), b2.astype(np.float32), axes=(0,))
    assert got.dtype == np.float32
    check_grads(padax.jit(lambda s, t: pnp.linalg.tensorsolve(s, t, axes=(0, 2))), (a, b), order=1,
                modes=("fwd", "rev"))
