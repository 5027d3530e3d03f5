"""padax.numpy's jax.numpy extras (padax/numpy/_extras_stats.py) against jax.numpy (x64 on) and NumPy:
values on a few small inputs each (dtypes where jax decides them), the jit forms with size=, and gradients."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import padax
import padax.numpy as pnp
from padax.test_util import check_grads

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402

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

# (name, args, kwargs): pnp.name(*args, **kwargs) must equal jnp.name(*args, **kwargs)
CASES = [
    ("cov", (F,), {}), ("cov", (F64,), {"rowvar": False}), ("cov", (F[0], F[1]), {}),
    ("cov", (F64,), {"bias": True}), ("cov", (F64[:, :4],), {"fweights": np.array([1, 2, 1, 3]),
                                                            "aweights": np.array([0.5, 1.0, 2.0, 1.0])}),
    ("cov", (F64,), {"ddof": 0, "aweights": np.linspace(0.5, 2.0, 6)}), ("cov", (F[0],), {}),
    ("corrcoef", (F,), {}), ("corrcoef", (F64, F64[::-1]), {"rowvar": False}),
    ("histogram_bin_edges", (H,), {"bins": 4}), ("histogram_bin_edges", (H,), {"bins": 3, "range": (0.0, 2.0)}),
    ("histogram", (H,), {}), ("histogram", (H,), {"bins": 4, "weights": W}),
    ("histogram", (H,), {"bins": np.array([-1.0, 0.0, 0.5, 2.5], np.float32), "density": True}),
    ("histogram", (H,), {"bins": 3, "range": (0.0, 1.0)}), ("histogram", (np.array([1, 1, 1]),), {"bins": 2}),
    ("histogram2d", (X, Y), {"bins": 3}), ("histogram2d", (X, Y), {"bins": [2, 3], "weights": X, "density": True}),
    ("histogramdd", (np.stack([X, Y, X * Y], 1),), {"bins": (2, 3, 2)}),
    ("nanargmax", (NANS,), {}), ("nanargmax", (NANS,), {"axis": 1}), ("nanargmin", (NANS,), {"axis": 1}),
    ("nanargmin", (NANS,), {"axis": 0, "keepdims": True}),
    ("nancumsum", (NANS,), {}), ("nancumsum", (NANS,), {"axis": 1}), ("nancumprod", (NANS,), {"axis": 0}),
    ("nanmedian", (NANS,), {}), ("nanmedian", (NANS,), {"axis": 1}), ("nanmedian", (NANS,), {"axis": 0, "keepdims": True}),
    ("nanquantile", (NANS, np.array([0.1, 0.5, 0.9])), {"axis": 1}),
    ("nanquantile", (NANS, 0.3), {"axis": 1, "method": "lower"}),
    ("nanquantile", (NANS, 0.3), {"axis": 1, "method": "higher"}),
    ("nanquantile", (NANS, 0.4), {"axis": 1, "method": "nearest"}),
    ("nanquantile", (NANS, 0.3), {"axis": 1, "method": "midpoint"}),
    ("nanquantile", (F64, 0.7), {"axis": (0, 1)}),
    ("nanpercentile", (NANS, 40.0), {}), ("nanpercentile", (NANS, np.array([10.0, 75.0])), {"axis": 1}),
    ("intersect1d", (I1, I2), {}), ("intersect1d", (I1, I2), {"return_indices": True}),
    ("union1d", (I1, I2), {}), ("setdiff1d", (I1, I2), {}), ("setxor1d", (I1, I2), {}),
    ("setdiff1d", (np.array([4, 2, 9]), I2), {"assume_unique": True}),
    ("setdiff1d", (I1, I2), {"size": 6}), ("setdiff1d", (I1, I2), {"size": 2, "fill_value": -1}),
    ("setxor1d", (I1, I2), {"size": 8}), ("intersect1d", (I1, I2), {"size": 4}),
    ("intersect1d", (I1, I2), {"size": 3, "fill_value": 0}), ("union1d", (I1, I2), {"size": 9}),
    ("polyval", (P, X), {}), ("polyval", (np.array([2, 1]), np.array([3, 4])), {}),
    ("polyadd", (P, Q), {}), ("polysub", (Q, P), {}), ("polyadd", (np.array([1, 2]), np.array([3])), {}),
    ("polymul", (P, Q), {}), ("polyder", (P,), {}), ("polyder", (P,), {"m": 2}), ("polyint", (P,), {}),
    ("polyint", (P,), {"m": 2, "k": np.array([1.0, -2.0])}), ("polyint", (Q,), {"m": 2, "k": 3.0}),
    ("polydiv", (P, Q), {}), ("poly", (np.array([1.0, -2.0, 0.5]),), {}),
    ("polyfit", (X, Y, 2), {}), ("polyfit", (X, np.stack([Y, Y * 2], 1), 1), {}),
    ("polyfit", (X, Y, 1), {"w": X + 1}), ("polyfit", (X, Y, 2), {"cov": True}),
    ("polyfit", (X, Y, 1), {"full": True}),
    ("trapezoid", (Y,), {}), ("trapezoid", (Y, X), {}), ("trapezoid", (F,), {"dx": 0.5, "axis": 0}),
    ("trapezoid", (F64, F64.cumsum(1)), {"axis": 1}),
    ("gradient", (Y,), {}), ("gradient", (Y, 0.5), {}), ("gradient", (Y, X), {}),
    ("gradient", (F64,), {}), ("gradient", (F64, 2.0, X), {}), ("gradient", (F64,), {"axis": 0}),
    ("unwrap", (PH,), {}), ("unwrap", (np.stack([PH, -PH]),), {"axis": 1, "discont": 4.0}),
    ("unwrap", (np.array([0, 5, 1, 7, 3]),), {"period": 6}),
    ("vander", (X,), {}), ("vander", (np.array([2, 3, -1]), 4), {"increasing": True}),
    ("i0", (np.array([-2.0, 0.0, 0.5, 3.0]),), {}), ("spacing", (np.array([1.0, -3.5, 1e10, 0.25]),), {}),
    ("spacing", (np.array([1.0, -3.5], np.float32),), {}),
    ("bartlett", (6,), {}), ("blackman", (7,), {}), ("hamming", (6,), {}), ("hanning", (7,), {}),
    ("hanning", (1,), {}), ("hamming", (0,), {}), ("kaiser", (7, 3.5), {}),
    ("sort_complex", (np.array([1 + 2j, 1 - 1j, -3 + 0j, 1 + 0j]),), {}), ("sort_complex", (I1,), {}),
    ("lexsort", ((np.array([3, 1, 2, 1]), np.array([1, 1, 0, 1])),), {}),
    ("lexsort", (np.array([[2, 1, 2], [0, 0, 1]]),), {}),
    ("lexsort", ((F64 > 0, np.round(F64)),), {"axis": 0}),
    ("partition", (F64, 2), {}), ("partition", (F64, 1), {"axis": 0}), ("partition", (I1, 3), {}),
    ("argpartition", (F64, 2), {}), ("argpartition", (np.array([3, 1, 3, 0, 3, 2]), 2), {}),
    ("argpartition", (F64, 0), {"axis": 0}),
    ("trim_zeros", (np.array([0, 0, 3, 0, 4, 0]),), {}), ("trim_zeros", (np.array([0, 0, 3, 0, 4, 0]),), {"trim": "f"}),
    ("trim_zeros", (np.array([0.0, 1.0, 0.0]),), {"trim": "b"}),
]


# compared with jax.numpy (jax's own semantics: -1 for all-NaN, untrimmed remainders, partition order, size=
# padding); everything else with NumPy (instant)
JAX_ONLY = {"nanargmax", "nanargmin", "polydiv", "partition", "argpartition", "histogram2d", "histogramdd"}
EAGER = {"trim_zeros", "intersect1d", "union1d", "setdiff1d", "setxor1d", "i0"}
INDEX_OUT = {"argpartition", "lexsort", "nanargmax", "nanargmin"}  # int64 here (padax's index dtype), int32 in jax


def _tree(x):
    if isinstance(x, (list, tuple)):
        return [a for e in x for a in _tree(e)]
    return [x]


def _run(name, args, kwargs):
    f = getattr(pnp, name)
    if name in EAGER and "size" not in kwargs or not args or not all(isinstance(a, np.ndarray) for a in args):
        return f(*args, **kwargs)
    return padax.jit(lambda *a: f(*a, **kwargs))(*args)


@pytest.mark.parametrize("i", range(0, len(CASES), 12))
def test_against_jax_and_numpy(i):
    for name, args, kwargs in CASES[i:i + 12]:
        use_jax = name in JAX_ONLY or "size" in kwargs
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = _tree((getattr(jnp, name) if use_jax else getattr(np, name))(*args, **kwargs))
        got = _tree(_run(name, args, kwargs))
        assert len(got) == len(want), name
        for g, w in zip(got, want):
            w = np.asarray(w)
            g = np.asarray(g)
            assert g.shape == w.shape, (name, kwargs, g.shape, w.shape)
            if use_jax and name not in INDEX_OUT:
                assert g.dtype == w.dtype, (name, kwargs, g.dtype, w.dtype)
            tol = 1e-5 if np.dtype(g.dtype) in (np.float32, np.complex64) else 1e-9
            if name == "polyfit":
                tol = 1e-4 if g.dtype == np.float32 else 1e-7
            np.testing.assert_allclose(g, w.astype(g.dtype), rtol=tol, atol=tol, err_msg=f"{name} {kwargs}")


def test_result_dtypes_follow_jax():
    for name, args, kwargs in [("cov", (F,), {}), ("corrcoef", (F64,), {}), ("histogram", (H,), {"weights": W}),
                               ("nanquantile", (NANS, 0.5), {}), ("polyval", (P, X), {}),
                               ("sort_complex", (np.array([2.0, 1.0], np.float32),), {}),
                               ("unwrap", (PH,), {}), ("vander", (I1,), {}), ("spacing", (H,), {}),
                               ("trapezoid", (F,), {}), ("gradient", (F64,), {"axis": 1})]:
        for g, w in zip(_tree(getattr(pnp, name)(*args, **kwargs)), _tree(getattr(jnp, name)(*args, **kwargs))):
            assert np.asarray(g).dtype == np.asarray(w).dtype, (name, np.asarray(g).dtype, np.asarray(w).dtype)


def test_roots_match_numpy():
    for p in ([1.0, -3.0, 2.0], [0.0, 2.0, 0.0, -8.0, 0.0], [1.0, 0.0, 1.0], [3.0, 1.0, -2.0, 5.0]):
        got = np.sort_complex(np.asarray(pnp.roots(np.array(p))))
        np.testing.assert_allclose(got, np.sort_complex(np.roots(p)), atol=1e-9)
    r = padax.jit(lambda c: pnp.roots(c, strip_zeros=False))(np.array([1.0, -3.0, 2.0]))
    np.testing.assert_allclose(np.sort(np.real(np.asarray(r))), [1.0, 2.0], atol=1e-12)


def test_numpy_dtypes_and_x64_off():
    assert pnp.histogram(np.arange(5))[0].dtype == padax.get_default_dtype()
    assert pnp.cov(np.arange(4)).dtype == padax.get_default_dtype()
    assert pnp.nanargmax(np.array([1.0, np.nan])).dtype == np.int64
    assert pnp.lexsort([np.array([2, 1])]).dtype == np.int64
    assert pnp.hanning(4).dtype == padax.get_default_dtype()
    padax.config.update("enable_x64", False)
    try:
        h, e = pnp.histogram(np.array([0.0, 1.0, 2.0]), bins=2)
        assert h.dtype == np.float32 and e.dtype == np.float32
        assert pnp.cov(np.arange(4.0)).dtype == np.float32
        np.testing.assert_allclose(np.asarray(pnp.nanmedian(np.array([1.0, np.nan, 5.0]))), 3.0)
        assert pnp.argpartition(np.array([3, 1, 2]), 0).dtype == np.int32
    finally:
        padax.config.update("enable_x64", True)


def test_set_ops_jit_with_size():
    f = padax.jit(lambda a, b: (pnp.setdiff1d(a, b, size=5, fill_value=-1), pnp.intersect1d(a, b, size=3),
                                pnp.union1d(a, b, size=8), pnp.setxor1d(a, b, size=6)))
    got = [np.asarray(g) for g in f(I1, I2)]
    want = [jnp.setdiff1d(I1, I2, size=5, fill_value=-1), jnp.intersect1d(I1, I2, size=3),
            jnp.union1d(I1, I2, size=8), jnp.setxor1d(I1, I2, size=6)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, np.asarray(w))
    with pytest.raises(ValueError, match="setdiff1d"):
        padax.jit(lambda a, b: pnp.setdiff1d(a, b))(I1, I2)
    with pytest.raises(ValueError, match="trim_zeros"):
        padax.jit(pnp.trim_zeros)(np.array([0, 1]))


def test_gradients_match_jax_and_finite_differences():
    cases = [
        (lambda x: pnp.sum(pnp.cov(x) ** 2), lambda x: jnp.sum(jnp.cov(x) ** 2), F64),
        (lambda x: pnp.sum(pnp.corrcoef(x)), lambda x: jnp.sum(jnp.corrcoef(x)), F64),
        (lambda x: pnp.sum(pnp.nanquantile(x, 0.3, axis=1)), lambda x: jnp.sum(jnp.nanquantile(x, 0.3, axis=1)),
         F64),
        (lambda p: pnp.sum(pnp.polyval(p, X)), lambda p: jnp.sum(jnp.polyval(p, X)), P),
        (lambda y: pnp.trapezoid(y, X), lambda y: jnp.trapezoid(y, X), Y),
        (lambda y: pnp.sum(pnp.gradient(y, X) ** 2), lambda y: jnp.sum(jnp.gradient(y, X) ** 2), Y),
        (lambda y: pnp.sum(pnp.polyfit(X, y, 2)), lambda y: jnp.sum(jnp.polyfit(X, y, 2)), Y),
        (lambda p: pnp.sum(pnp.unwrap(p) ** 2), lambda p: jnp.sum(jnp.unwrap(p) ** 2), PH),
        (lambda b: pnp.sum(pnp.kaiser(5, b)), lambda b: jnp.sum(jnp.kaiser(5, b)), np.array(2.5)),
    ]
    for f, jf, x in cases:
        np.testing.assert_allclose(np.asarray(padax.grad(f)(x)), np.asarray(jax.grad(jf)(x)), rtol=1e-7, atol=1e-9)
    check_grads(lambda a, b: pnp.polymul(a, b), (P, Q), order=1)
    check_grads(lambda a: pnp.nanmedian(a, axis=0), (F64,), order=1)
