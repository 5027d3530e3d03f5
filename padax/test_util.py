"""Numerical checks of derivatives: `check_grads(f, args, order, modes=("fwd", "rev"))`.

Forward mode is compared with central finite differences along a random
direction; reverse mode is checked against forward mode through the
identity <ct, J t> == <J^T ct, t>. Higher orders check the derivative
functions themselves, recursively.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from padax.runtime import tree as tree_util
from padax.transforms.ad import jvp as _jvp, vjp as _vjp

_DEFAULT_EPS = {np.dtype(np.float64): 1e-5, np.dtype(np.float32): 1e-2, np.dtype(np.complex64): 1e-2,
                np.dtype(np.complex128): 1e-5}
_DEFAULT_TOL = {np.dtype(np.float64): 1e-5, np.dtype(np.float32): 2e-2, np.dtype(np.complex64): 2e-2,
                np.dtype(np.complex128): 1e-5}


def _np(x: Any) -> np.ndarray:
    return np.asarray(x)


def _dtype_of(args: Sequence[Any]) -> np.dtype:
    ds = [np.asarray(x).dtype for x in tree_util.leaves(args)]
    inexact = [d for d in ds if d.kind in "fc"]
    return max(inexact, key=lambda d: d.itemsize) if inexact else np.dtype(np.float32)


def _rand_like(rng: np.random.Generator, x: Any) -> np.ndarray:
    a = np.asarray(x)
    v = rng.standard_normal(a.shape)
    if a.dtype.kind == "c":
        v = v + 1j * rng.standard_normal(a.shape)
    return v.astype(a.dtype)


def _vdot(a: Any, b: Any) -> complex:
    xs, ys = tree_util.leaves(a), tree_util.leaves(b)
    return sum(np.vdot(_np(x).astype(np.complex128).ravel(), _np(y).astype(np.complex128).ravel())
               for x, y in zip(xs, ys))


def _add_scaled(x: Any, t: Any, s: float) -> Any:
    return tree_util.map(lambda a, b: (np.asarray(a, np.float64 if _np(a).dtype.kind == "f" else np.complex128)
                                       + s * np.asarray(b)).astype(_np(a).dtype), x, t)


def _sub_tree(a: Any, b: Any) -> Any:
    return tree_util.map(lambda x, y: _np(x).astype(np.complex128) - _np(y).astype(np.complex128), a, b)


def _scale_tree(a: Any, s: float) -> Any:
    return tree_util.map(lambda x: _np(x) * s, a)


def _assert_close(a: Any, b: Any, atol: float, rtol: float, what: str) -> None:
    for x, y in zip(tree_util.leaves(a), tree_util.leaves(b)):
        x, y = _np(x).astype(np.complex128), _np(y).astype(np.complex128)
        np.testing.assert_allclose(x, y, atol=atol, rtol=rtol, err_msg=what)


def check_jvp(f: Callable, args: Sequence[Any], atol: float | None = None, rtol: float | None = None,
              eps: float | None = None, rng: np.random.Generator | None = None) -> None:
    """jvp(f) along a random tangent equals central differences of f (an AssertionError if not).

    Args:
        f: the function; args: its positional arguments (arrays of one inexact dtype).
        atol, rtol, eps: tolerances and the finite-difference step (defaults fit the dtype).
        rng: the numpy Generator drawing the tangent.

    Examples:
        >>> import numpy as np, padax
        >>> from padax.test_util import check_jvp
        >>> check_jvp(padax.sin, (np.array([0.5, 1.0]),))  # passes: nothing printed
        >>> wrong = padax.custom_jvp(padax.sin)
        >>> _ = wrong.defjvp(lambda primals, tangents: (wrong(*primals), 2.0 * tangents[0]))
        >>> check_jvp(wrong, (np.array([0.5, 1.0]),))
        Traceback (most recent call last):
        AssertionError: ...jvp does not match finite differences...
    """
    rng = rng or np.random.default_rng(0)
    dt = _dtype_of(args)
    eps = eps or _DEFAULT_EPS.get(dt, 1e-2)
    atol = atol or _DEFAULT_TOL.get(dt, 2e-2)
    rtol = rtol or atol
    args = tuple(tree_util.map(np.asarray, tuple(args)))
    tangents = tree_util.map(lambda x: _rand_like(rng, x), args)
    out, t_out = _jvp(f, args, tangents)
    f_plus = f(*_add_scaled(args, tangents, eps))
    f_minus = f(*_add_scaled(args, tangents, -eps))
    numeric = _scale_tree(_sub_tree(f_plus, f_minus), 1.0 / (2 * eps))
    _assert_close(t_out, numeric, atol, rtol, "jvp does not match finite differences")


def check_vjp(f: Callable, args: Sequence[Any], atol: float | None = None, rtol: float | None = None,
              eps: float | None = None, rng: np.random.Generator | None = None) -> None:
    """vjp(f) satisfies <ct, J t> == <J^T ct, t>, with J t from finite differences (an AssertionError if
    not); arguments as for check_jvp.

    Args:
        f: the function; args: its positional arguments (arrays of one inexact dtype).
        atol, rtol, eps: tolerances and the finite-difference step (defaults fit the dtype).
        rng: the numpy Generator drawing the tangent and cotangent.

    Returns:
        None; raises AssertionError on a mismatch.

    Examples:
        >>> import numpy as np, padax
        >>> from padax.test_util import check_vjp
        >>> check_vjp(lambda x, y: x * y, (np.array([1.0, 2.0]), np.array([3.0, 4.0])))  # passes
        >>> wrong = padax.custom_vjp(lambda x: x * x)
        >>> wrong.defvjp(lambda x: (x * x, x), lambda x, g: (g * x,))  # forgets the factor 2
        >>> check_vjp(wrong, (np.array([1.0, 2.0]),))
        Traceback (most recent call last):
        AssertionError: ...vjp does not match finite differences...
    """
    rng = rng or np.random.default_rng(1)
    dt = _dtype_of(args)
    eps = eps or _DEFAULT_EPS.get(dt, 1e-2)
    atol = atol or _DEFAULT_TOL.get(dt, 2e-2)
    rtol = rtol or atol
    args = tuple(tree_util.map(np.asarray, tuple(args)))
    out, f_vjp = _vjp(f, *args)
    ct = tree_util.map(lambda o: _rand_like(rng, o), out)
    # padax (like JAX) transposes without conjugating: for f(z) = c z, vjp(ct) = c ct. The
    # identity <ct, J t> = <J^H ct, t> then holds with J^H ct = conj(vjp(conj(ct))).
    cts_in = tree_util.map(lambda c: np.conj(_np(c)), f_vjp(tree_util.map(np.conj, ct)))
    tangents = tree_util.map(lambda x: _rand_like(rng, x), args)
    f_plus = f(*_add_scaled(args, tangents, eps))
    f_minus = f(*_add_scaled(args, tangents, -eps))
    jt = _scale_tree(_sub_tree(f_plus, f_minus), 1.0 / (2 * eps))
    lhs = _vdot(ct, jt)
    rhs = _vdot(cts_in, tangents)
    scale = max(1.0, abs(lhs), abs(rhs))
    np.testing.assert_allclose(lhs.real, rhs.real, atol=atol * scale, rtol=rtol,
                               err_msg="vjp does not match finite differences (<ct, J t> != <J^T ct, t>)")


def check_grads(f: Callable, args: Sequence[Any], order: int, modes: Sequence[str] = ("fwd", "rev"),
                atol: float | None = None, rtol: float | None = None, eps: float | None = None) -> None:
    """Check derivatives of `f` at `args` up to `order` in the given modes (fwd, rev): an AssertionError
    names the first mismatch; nothing happens when all agree with finite differences.

    Args:
        f: the function.
        args: its positional arguments (arrays of one inexact dtype).
        order: the highest derivative order to check.
        modes: 'fwd' (jvp) and/or 'rev' (vjp).
        atol, rtol, eps: tolerances and the finite-difference step (defaults fit the dtype).

    Returns:
        None; raises AssertionError at the first mismatch.

    Examples:
        >>> import numpy as np, padax
        >>> from padax.test_util import check_grads
        >>> check_grads(lambda x: padax.tanh(x) * x, (np.array([0.5, -1.0]),), order=2)
    """
    args = tuple(args)
    rng = np.random.default_rng(42)

    def _check(fun, xs, k):
        if "fwd" in modes:
            check_jvp(fun, xs, atol, rtol, eps, rng)
            if k > 1:
                t = tree_util.map(lambda x: _rand_like(rng, x), tuple(xs))
                _check(lambda *a: _jvp(fun, a, t)[1], xs, k - 1)
        if "rev" in modes:
            check_vjp(fun, xs, atol, rtol, eps, rng)
            if k > 1:
                out = fun(*xs)
                ct = tree_util.map(lambda o: _rand_like(rng, o), out)
                _check(lambda *a: _vjp(fun, *a)[1](ct), xs, k - 1)

    _check(f, args, order)
