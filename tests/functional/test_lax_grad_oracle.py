"""Every differentiable padax.lax primitive against jax: value, vjp and jvp in float64.

Elementwise primitives are found by name (each `*_p` in padax.lax with a same-named jax.lax
function) and called on inputs inside their domain; primitives with parameters get explicit
calls. Structured families (gather/scatter, conv, windows, sorting, control flow, linalg) have
their own jax-oracle tests beside this one."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from padax import lax as plax

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)

RNG = np.random.default_rng(11)
X = RNG.uniform(0.2, 0.8, (3, 4))
Y = RNG.uniform(0.2, 0.8, (3, 4))
Z = RNG.uniform(0.2, 0.8, (3, 4))
DOMAIN = {"acosh": X + 1.0}  # elementwise ops whose domain is not (0.2, 0.8)
# nextafter has no derivative; jax differentiates polygamma only in x and zeta not at all (both are
# checked numerically with the special functions); clamp gets ordered bounds below
NOT_COMPARED = {"nextafter", "stop_gradient", "polygamma", "zeta", "clamp"}


def _elementwise():
    out = []
    for name in sorted(n[:-2] for n in dir(plax) if n.endswith("_p")):
        pf, jf = getattr(plax, name, None), getattr(jax.lax, name, None)
        if not callable(pf) or not callable(jf) or name in NOT_COMPARED:
            continue
        for arity, args in ((1, (DOMAIN.get(name, X),)), (2, (X, Y)), (3, (X, Y, Z))):
            try:
                o = jf(*args)
            except Exception:  # noqa: BLE001 - wrong arity or parameters: try the next
                continue
            if getattr(o, "shape", None) == X.shape and np.issubdtype(o.dtype, np.floating):
                out.append(pytest.param(name, args, id=name))
            break
    return out


_PARAMETRISED = {
    "integer_pow": (lambda m: lambda x: m.integer_pow(x, 3), (X,)),
    "polygamma": (lambda m: lambda x: m.polygamma(np.float64(1.0), x), (X + 1,)),
    "clamp": (lambda m: lambda lo, x, hi: m.clamp(lo - 0.5, x, hi + 0.5), (X, Y, Z)),
    "clamp_bounds_active": (lambda m: lambda lo, hi: m.clamp(lo, X * 2 - 0.5, hi + 0.5), (X, Y)),
    "reduce_sum": (lambda m: lambda x: m.reduce_sum(x, (1,)), (X,)),
    "reduce_prod": (lambda m: lambda x: m.reduce_prod(x, (0,)), (X,)),
    "reduce_max": (lambda m: lambda x: m.reduce_max(x, (1,)), (X,)),
    "reduce_min": (lambda m: lambda x: m.reduce_min(x, (0, 1)), (X,)),
    "transpose": (lambda m: lambda x: m.transpose(x, (1, 0)), (X,)),
    "reshape": (lambda m: lambda x: m.reshape(x, (2, 6)), (X,)),
    "rev": (lambda m: lambda x: m.rev(x, (0,)), (X,)),
    "slice": (lambda m: lambda x: m.slice(x, (1, 0), (3, 4), (1, 2)), (X,)),
    "pad": (lambda m: lambda x: m.pad(x, np.float64(0.5), ((1, 0, 1), (0, 2, 0))), (X,)),
    "concatenate": (lambda m: lambda x, y: m.concatenate([x, y], 1), (X, Y)),
    "broadcast_in_dim": (lambda m: lambda x: m.broadcast_in_dim(x, (2, 3, 4), (1, 2)), (X,)),
    "squeeze": (lambda m: lambda x: m.squeeze(x[None], (0,)), (X,)),
    "dynamic_slice": (lambda m: lambda x: m.dynamic_slice(x, (1, 1), (2, 2)), (X,)),
    "dynamic_update_slice": (lambda m: lambda x, y: m.dynamic_update_slice(x, y[:2, :2], (1, 2)), (X, Y)),
    "dot_general": (lambda m: lambda x, y: m.dot_general(x, y, (((1,), (1,)), ((), ()))), (X, Y)),
    "select_n": (lambda m: lambda x, y: m.select_n(X > 0.5, x, y), (X, Y)),
    "convert_element_type": (lambda m: lambda x: m.convert_element_type(x, np.float32) * 1.0, (X,)),
    "reduce_precision": (lambda m: lambda x: m.reduce_precision(x, exponent_bits=8, mantissa_bits=7), (X,)),
    "cumlogsumexp": (lambda m: lambda x: m.cumlogsumexp(x, axis=1), (X,)),
    "real_imag": (lambda m: lambda x, y: m.real(m.complex(x, y)) * m.imag(m.complex(y, x)), (X, Y)),
}


def _compare(pf, jf, args):
    want, jvjp = jax.vjp(jf, *args)
    got, pvjp = padax.vjp(pf, *args)
    tol = 1e-5 if np.asarray(want).dtype == np.float32 else 1e-10
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=tol, atol=tol)
    ct = RNG.standard_normal(np.shape(want)).astype(np.asarray(want).dtype)
    for g, w in zip(pvjp(padax.to_tensor(ct)), jvjp(ct)):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=tol, atol=tol)
    tangents = tuple(RNG.standard_normal(np.shape(a)) for a in args)
    _, jt = jax.jvp(jf, args, tangents)
    _, pt = padax.jvp(pf, args, tangents)
    np.testing.assert_allclose(np.asarray(pt), np.asarray(jt), rtol=tol, atol=tol)


@pytest.mark.parametrize("name,args", _elementwise())
def test_elementwise_derivatives_match_jax(name, args):
    _compare(getattr(plax, name), getattr(jax.lax, name), args)


@pytest.mark.parametrize("name", sorted(_PARAMETRISED))
def test_parametrised_derivatives_match_jax(name):
    make, args = _PARAMETRISED[name]
    _compare(make(plax), make(jax.lax), args)


def test_the_sweep_covers_the_elementwise_family():
    names = {p.values[0] for p in _elementwise()}
    assert {"sin", "atan2", "pow", "lgamma", "digamma", "erf_inv", "rem", "logistic", "acosh"} <= names
    assert len(names) >= 45


T = np.array([[1.0, 3.0, 3.0, 0.0, 3.0], [0.0, 0.0, 2.0, -1.0, 2.0]])  # ties and zeros along axis 1
_EDGES = {  # derivative rules at the points where they are usually wrong; jax gives the reference
    "abs_complex_at_0": (lambda m: lambda x, y: m.abs(m.complex(x, y)), (np.array([0.0, 1.0]), np.array([0.0, -2.0]))),
    "clamp_at_bounds": (lambda m: lambda lo, x, hi: m.clamp(lo, x, hi),
                        (np.zeros(5), np.array([-1.0, 0.0, 0.5, 1.0, 2.0]), np.ones(5))),
    "cumlogsumexp_ties": (lambda m: lambda x: m.cumlogsumexp(x, axis=0), (np.array([0.0, 0.0, 2.0]),)),
    "cummax_ties": (lambda m: lambda x: m.cummax(x, axis=1), (T,)),
    "cummin_ties_reverse": (lambda m: lambda x: m.cummin(x, axis=1, reverse=True), (T[:, ::-1] * -1,)),
    "cbrt_at_0": (lambda m: m.cbrt, (np.array([0.0, -8.0, 0.5]),)),
    "acosh_at_1": (lambda m: m.acosh, (np.array([1.0, 1.5]),)),
    "atanh_at_1": (lambda m: m.atanh, (np.array([0.0, 0.5, 1.0]),)),
    "max_nan_and_ties": (lambda m: m.max, (np.array([1.0, np.nan, 3.0, 2.0]), np.array([np.nan, 0.0, 3.0, 1.0]))),
    "min_nan_and_ties": (lambda m: m.min, (np.array([1.0, np.nan, 3.0, 2.0]), np.array([np.nan, 0.0, 3.0, 1.0]))),
    "sqrt_complex_at_0": (lambda m: m.sqrt, (np.array([0j, 1 + 1j]),)),
}


def _close(got, want, tol=1e-9):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=tol, atol=tol, equal_nan=True)


@pytest.mark.parametrize("name", sorted(_EDGES))
def test_edge_point_derivatives_match_jax(name):
    """First derivatives (jvp, vjp) and second ones (vjp of grad) at ties, bounds and singular points."""
    make, args = _EDGES[name]
    pf, jf = make(plax), make(jax.lax)
    rng = np.random.default_rng(5)
    w = rng.standard_normal(np.shape(jf(*args)))
    t = tuple(rng.standard_normal(np.shape(a)) + (1j * rng.standard_normal(np.shape(a)) if np.iscomplexobj(a) else 0)
              for a in args)
    if np.iscomplexobj(jf(*args)):
        w = w + 1j * rng.standard_normal(np.shape(w))
    _close(padax.jvp(pf, args, t)[1], jax.jvp(jf, args, t)[1])
    for g, want in zip(padax.vjp(pf, *args)[1](w), jax.vjp(jf, *args)[1](w)):
        _close(g, want)
    if any(np.iscomplexobj(a) for a in args):
        return
    argnums = tuple(range(len(args)))
    pg = padax.grad(lambda *a: padax.sum(pf(*a) * w), argnums=argnums)
    jg = jax.grad(lambda *a: jax.numpy.sum(jf(*a) * w), argnums=argnums)
    with np.errstate(all="ignore"):
        for g, want in zip(padax.vjp(pg, *args)[1](t), jax.vjp(jg, *args)[1](t)):
            _close(g, want, 1e-8)


def test_tanh_derivative_rounds_as_jax_in_float16():
    """(1 + y)(1 - y) rather than 1 - y*y: the same bits as jax in half precision."""
    x = np.array([0.5, 1.5, 3.0], np.float16)
    got = padax.grad(lambda a: padax.sum(plax.tanh(a)))(x)
    want = jax.grad(lambda a: jax.numpy.sum(jax.lax.tanh(a)))(x)
    assert got.dtype == np.float16
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
