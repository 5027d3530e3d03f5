"""padax.numpy's jax.numpy extras (padax/numpy/_covariance.py, _histograms.py, _nanfunctions.py, _set_ops.py,
_polynomial.py, _calculus.py, _windows.py, _ordering.py, ...): values against NumPy on small inputs
(run under padax.jit, one program per case), jax.numpy's own semantics (-1 for all-NaN rows, untrimmed
remainders, partition order, size= padding) and result dtypes against values written out from jax 0.10.2
(x64 on), and gradients against central differences."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import padax
import padax.numpy as pnp

R = np.random.default_rng(0)
F = R.standard_normal((3, 5)).astype(np.float32)
F64 = R.standard_normal((4, 6))
NANS = np.array([[1.0, np.nan, 3.0, 2.0], [np.nan, np.nan, np.nan, np.nan], [4.0, -1.0, np.nan, 0.5]], np.float32)
I1 = np.array([5, 1, 4, 1, 7, 3, 3], np.int64)
I2 = np.array([3, 8, 1, 9, 9], np.int64)
P = np.array([1.0, -3.0, 0.5, 2.0])
Q = np.array([2.0, 1.0])
X = np.array([0.0, 0.4, 1.1, 1.5, 2.7, 3.0])
Y = np.array([1.0, 2.2, 2.9, 4.5, 6.1, 6.8])
H = np.array([0.1, 0.5, 0.5, 0.9, 1.0, 2.5, -1.0], np.float32)
W = np.array([1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 2.0], np.float32)
PH = np.array([0.0, 2.5, 5.0, -1.0, 3.5, 9.0])

# (name, args, kwargs, jax's dtype of the first result or None): pnp.name(...) must equal np.name(...)
CASES = [
    ("cov", (F,), {}, "float32"), ("cov", (F64,), {"rowvar": False}, None), ("cov", (F[0], F[1]), {}, None),
    ("cov", (F64[:, :4],), {"fweights": np.array([1, 2, 1, 3]), "aweights": np.array([0.5, 1.0, 2.0, 1.0])}, None),
    ("cov", (F64,), {"ddof": 0, "aweights": np.linspace(0.5, 2.0, 6)}, None),
    ("corrcoef", (F,), {}, "float32"), ("corrcoef", (F64, F64[::-1]), {"rowvar": False}, "float64"),
    ("histogram_bin_edges", (H,), {"bins": 3, "range": (0.0, 2.0)}, "float32"),
    ("histogram", (H,), {}, "float32"), ("histogram", (H,), {"bins": 4, "weights": W}, "float32"),
    ("histogram", (H,), {"bins": np.array([-1.0, 0.0, 0.5, 2.5], np.float32), "density": True}, None),
    ("histogram", (np.array([1, 1, 1]),), {"bins": 2}, None),
    ("histogram2d", (X, Y), {"bins": [2, 3], "weights": X, "density": True}, "float64"),
    ("histogramdd", (np.stack([X, Y, X * Y], 1),), {"bins": (2, 3, 2)}, "int64"),
    ("nancumsum", (NANS,), {"axis": 1}, "float32"), ("nancumprod", (NANS,), {}, None),
    ("nanmedian", (NANS,), {"axis": 1}, "float32"), ("nanmedian", (NANS,), {"axis": 0, "keepdims": True}, None),
    ("nanquantile", (NANS, np.array([0.1, 0.5, 0.9])), {"axis": 1}, None),
    ("nanquantile", (NANS, 0.3), {"axis": 1, "method": "lower"}, None),
    ("nanquantile", (NANS, 0.3), {"axis": 1, "method": "higher"}, None),
    ("nanquantile", (NANS, 0.4), {"axis": 1, "method": "nearest"}, None),
    ("nanquantile", (NANS, 0.3), {"axis": 1, "method": "midpoint"}, None),
    ("nanpercentile", (F64, np.array([10.0, 75.0])), {"axis": (0, 1)}, "float64"),
    ("intersect1d", (I1, I2), {"return_indices": True}, "int64"), ("union1d", (I1, I2), {}, "int64"),
    ("setdiff1d", (I1, I2), {}, None), ("setxor1d", (I1, I2), {}, None),
    ("setdiff1d", (np.array([4, 2, 9]), I2), {"assume_unique": True}, None),
    ("polyval", (P, X), {}, "float64"), ("polyval", (np.array([2, 1]), np.array([3, 4])), {}, None),
    ("polyadd", (np.array([1, 2]), np.array([3])), {}, "int64"), ("polysub", (Q, P), {}, None),
    ("polymul", (P, Q), {}, None), ("polyder", (P,), {"m": 2}, None),
    ("polyint", (P,), {"m": 2, "k": np.array([1.0, -2.0])}, None), ("polyint", (Q,), {"m": 2, "k": 3.0}, None),
    ("poly", (np.array([1.0, -2.0, 0.5]),), {}, None),
    ("polyfit", (X, np.stack([Y, Y * 2], 1), 1), {}, None), ("polyfit", (X, Y, 1), {"w": X + 1}, None),
    ("polyfit", (X, Y, 2), {"cov": True}, None), ("polyfit", (X, Y, 1), {"full": True}, None),
    ("trapezoid", (Y, X), {}, None), ("trapezoid", (F,), {"dx": 0.5, "axis": 0}, "float32"),
    ("trapezoid", (F64, F64.cumsum(1)), {"axis": 1}, None),
    ("gradient", (Y, X), {}, None), ("gradient", (F64, 2.0, X), {}, None), ("gradient", (F64,), {"axis": 0}, None),
    ("unwrap", (np.stack([PH, -PH]),), {"axis": 1, "discont": 4.0}, "float64"),
    ("unwrap", (np.array([0, 5, 1, 7, 3]),), {"period": 6}, None),
    ("vander", (np.array([2, 3, -1]), 4), {"increasing": True}, "int64"), ("vander", (X,), {}, None),
    ("i0", (np.array([-2.0, 0.0, 0.5, 3.0]),), {}, None),
    ("spacing", (np.array([1.0, -3.5], np.float32),), {}, "float32"),
    ("spacing", (np.array([1.0, -3.5, 1e10, 0.25]),), {}, None),
    ("bartlett", (6,), {}, None), ("blackman", (7,), {}, None), ("hamming", (6,), {}, None),
    ("hanning", (1,), {}, None), ("kaiser", (7, 3.5), {}, None),
    ("sort_complex", (np.array([1 + 2j, 1 - 1j, -3 + 0j, 1 + 0j]),), {}, "complex128"),
    ("sort_complex", (np.array([2.0, 1.0], np.float32),), {}, "complex64"),
    ("lexsort", (np.array([[2, 1, 2], [0, 0, 1]]),), {}, None),
    ("lexsort", ((F64 > 0, np.round(F64)),), {"axis": 0}, None),
    ("trim_zeros", (np.array([0, 0, 3, 0, 4, 0]),), {}, None), ("trim_zeros", (np.array([0.0, 1.0, 0.0]),), {"trim": "b"}, None),
]
EAGER = {"trim_zeros", "intersect1d", "union1d", "setdiff1d", "setxor1d"}  # data-dependent shapes without size=


def _tree(x):
    if isinstance(x, (list, tuple)):
        return [a for e in x for a in _tree(e)]
    return [x]


def _run(name, args, kwargs, eager=False):
    """pnp.name(*args, **kwargs), under padax.jit (array arguments traced, the rest static) unless eager."""
    f = getattr(pnp, name)
    if eager:
        return f(*args, **kwargs)
    traced = [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]

    def call(*arrays):
        full = list(args)
        for i, a in zip(traced, arrays):
            full[i] = a
        return f(*full, **kwargs)
    return padax.jit(call)(*[args[i] for i in traced])


@pytest.mark.parametrize("i", range(0, len(CASES), 17))
def test_against_numpy(i):
    for name, args, kwargs, dtype in CASES[i:i + 17]:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = _tree(getattr(np, name)(*args, **kwargs))
        got = _tree(_run(name, args, kwargs, eager=name in EAGER))
        assert len(got) == len(want), name
        if dtype is not None:
            assert np.asarray(got[0]).dtype == dtype, (name, kwargs, np.asarray(got[0]).dtype)
        for g, w in zip(got, want):
            w, g = np.asarray(w), np.asarray(g)
            assert g.shape == w.shape, (name, kwargs, g.shape, w.shape)
            tol = 1e-5 if g.dtype in (np.float32, np.complex64) else 1e-9
            if name == "polyfit":
                tol = 1e-4 if g.dtype == np.float32 else 1e-7
            np.testing.assert_allclose(g, w.astype(g.dtype), rtol=tol, atol=tol, err_msg=f"{name} {kwargs}")


A = np.array([[0.5, -1.0, 2.0, 0.0, 1.5, -0.5], [3.0, 2.0, 1.0, 0.0, 4.0, 5.0]])
# jax's answers (jax.numpy 0.10.2, x64 on), written out
JAX = [
    ("nanargmax", (NANS,), {}, [8]), ("nanargmax", (NANS,), {"axis": 1}, [[2, -1, 0]]),
    ("nanargmin", (NANS,), {"axis": 0, "keepdims": True}, [[[0, 2, 0, 2]]]),
    ("polydiv", (P, Q), {}, [[0.5, -1.75, 1.125], [0.0, 0.0, 0.0, 0.875]]),
    ("histogram2d", (X, Y), {"bins": 3}, [[[2, 0, 0], [1, 1, 0], [0, 0, 2]], [0.0, 1.0, 2.0, 3.0],
                                         [1.0, 2.9333333333333336, 4.866666666666666, 6.8]]),
    ("partition", (I1, 3), {}, [[1, 1, 3, 3, 7, 5, 4]]),
    ("partition", (A, 2), {}, [[[-1.0, -0.5, 0.0, 2.0, 1.5, 0.5], [0.0, 1.0, 2.0, 5.0, 4.0, 3.0]]]),
    ("argpartition", (np.array([3, 1, 3, 0, 3, 2]), 2), {}, [[3, 1, 5, 0, 2, 4]]),
    ("argpartition", (A, 1), {"axis": 0}, [[[0, 0, 1, 0, 0, 0], [1, 1, 0, 1, 1, 1]]]),
    ("setdiff1d", (I1, I2), {"size": 6}, [[4, 5, 7, 0, 0, 0]]),
    ("setdiff1d", (I1, I2), {"size": 2, "fill_value": -1}, [[4, 5]]),
    ("setxor1d", (I1, I2), {"size": 8}, [[4, 5, 7, 8, 9, 4, 4, 4]]),
    ("intersect1d", (I1, I2), {"size": 4}, [[1, 3, 1, 1]]),
    ("intersect1d", (I1, I2), {"size": 3, "fill_value": 0}, [[1, 3, 0]]),
    ("union1d", (I1, I2), {"size": 9}, [[1, 3, 4, 5, 7, 8, 9, 1, 1]]),
]


def test_jax_semantics_under_jit():
    for name, args, kwargs, want in JAX:
        got = _tree(_run(name, args, kwargs))
        assert len(got) == len(want), name
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.asarray(g), np.array(w), rtol=1e-6, atol=1e-12, err_msg=f"{name} {kwargs}")


def test_eager_only_paths_and_errors():
    for p in ([1.0, -3.0, 2.0], [0.0, 2.0, 0.0, -8.0, 0.0], [3.0, 1.0, -2.0, 5.0]):
        got = np.sort_complex(np.asarray(pnp.roots(np.array(p))))
        np.testing.assert_allclose(got, np.sort_complex(np.roots(p)), atol=1e-9)
    r = padax.jit(lambda c: pnp.roots(c, strip_zeros=False))(np.array([1.0, -3.0, 2.0]))
    np.testing.assert_allclose(np.sort(np.real(np.asarray(r))), [1.0, 2.0], atol=1e-12)
    assert pnp.polymul(np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0]), trim_leading_zeros=True).tolist() == [1.0, 2.0]
    np.testing.assert_allclose(np.asarray(pnp.polymul(np.array([1.0, 2.0]), np.complex64(2))), [2.0, 4.0])
    for name in ("polymul", "polyadd", "polydiv", "polyder"):
        with pytest.raises(ValueError, match=f"{name}: coefficients must be 1-D"):
            getattr(pnp, name)(*([np.ones((1, 3))] if name == "polyder" else [np.ones((1, 3)), 2.0]))
    with pytest.raises(ValueError, match="setdiff1d"):
        padax.jit(lambda a, b: pnp.setdiff1d(a, b))(I1, I2)
    with pytest.raises(ValueError, match="trim_zeros"):
        padax.jit(pnp.trim_zeros)(np.array([0, 1]))
    with pytest.raises(ValueError, match="nanquantile"):
        pnp.nanquantile(F, 0.5, method="inverted_cdf")
    with pytest.raises(ValueError, match="partition"):
        pnp.partition(I1, 7)


def test_x64_off_dtypes():
    padax.config.update("enable_x64", False)
    try:
        h, e = pnp.histogram(np.array([0.0, 1.0, 2.0]), bins=2)
        assert h.dtype == np.float32 and e.dtype == np.float32 and h.tolist() == [1.0, 2.0]
        assert pnp.argpartition(np.array([3, 1, 2]), 0).dtype == np.int32
    finally:
        padax.config.update("enable_x64", True)


def _check_directional_grad(f, *args):
    """padax.grad of a random projection of f against a central difference along a random direction
    (float64; one jitted program for the value, one for the gradient)."""
    rng = np.random.default_rng(1)
    w = rng.standard_normal(np.shape(f(*args)))
    loss = padax.jit(lambda *a: pnp.sum(f(*a) * w))
    grads = padax.jit(padax.grad(lambda *a: pnp.sum(f(*a) * w), argnums=tuple(range(len(args)))))(*args)
    dirs = [rng.standard_normal(np.shape(a)) for a in args]
    eps = 1e-6
    up = np.asarray(loss(*[a + eps * d for a, d in zip(args, dirs)]))
    down = np.asarray(loss(*[a - eps * d for a, d in zip(args, dirs)]))
    want = (up - down) / (2 * eps)
    got = sum(float(np.sum(np.asarray(g) * d)) for g, d in zip(grads, dirs))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_gradients():
    """One program holding every differentiable extra checked, so one compile for its value and one for its
    gradient; a wrong derivative of any of them moves the directional derivative."""
    def all_of(x, p, y, ph, b):
        return [pnp.cov(x), pnp.corrcoef(x), pnp.nanquantile(x, np.array([0.3, 0.8]), axis=1), pnp.polyval(p, X),
                pnp.trapezoid(y, X), pnp.gradient(y, X), pnp.polyfit(X, y, 2), pnp.kaiser(5, b), pnp.unwrap(ph),
                pnp.histogram(y, bins=3, weights=y)[0], pnp.polymul(p, y[:2])]
    rng = np.random.default_rng(3)
    args = (F64[:3, :4], P, Y, PH, np.array(2.5))
    ws = [rng.standard_normal(np.shape(o)) for o in all_of(*args)]
    _check_directional_grad(lambda *a: pnp.stack([pnp.sum(o * w) for o, w in zip(all_of(*a), ws)]), *args)
