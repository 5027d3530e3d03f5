"""Efficient second-order operators: Hessian-vector products, Laplacians, Hessian and
Jacobian diagonals, without building a full Hessian unless asked to.

* `hvp(f, primals, tangents)`: H v by forward-over-reverse (jvp of grad): the cost of a
  couple of gradients, whatever the dimension.
* `laplacian(f)(x)`: trace of the Hessian. `method="taylor"` (exact) uses collapsed
  Taylor mode (`padax.transforms.collapsed`): first-order coefficients along every
  coordinate direction and one summed second-order coefficient, about the cost of a
  forward-mode Jacobian. `method="hutchinson"` estimates it from random directions
  (E[v^T H v] = tr H for Rademacher or Gaussian v) with a key; `method="hessian"` takes
  the trace of `padax.hessian` (the reference).
* `hessian_diag(f)(x)`: the Hessian's diagonal by second-order Taylor mode along each
  coordinate (no cross terms are formed).
* `jacobian_diag(f)(x)`: the Jacobian's diagonal of a function mapping x to an array of
  its shape; `elementwise=True` (each output depends only on its own input) needs a
  single jvp.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from padax import dtypes
from padax.core.abstract import get_aval
from padax.core.ad_util import zeros_like_aval
from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import constant, full
from padax.functional.lax.elementwise import mul
from padax.functional.lax.reductions import reduce_sum
from padax.functional.lax.structural import convert_element_type, moveaxis, reshape, slice as lslice
from padax.runtime import tree as tree_util
from padax.transforms.ad import grad, hessian, jvp
from padax.transforms.batching import vmap
from padax.transforms.collapsed import collapsed_jet
from padax.transforms.jet import jet_flat


def _argnums_tuple(argnums) -> tuple[int, ...]:
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


def hvp(fun: Callable, primals: Sequence[Any], tangents: Sequence[Any]) -> Any:
    """Hessian-vector product of a scalar function: H(primals) . tangents (forward-over-reverse).

    `primals` and `tangents` hold one entry per positional argument of `fun`; the
    Hessian is taken with respect to all of them, and the result has the structure of
    `primals` (the single entry when there is one argument).

    >>> import padax
    >>> f = lambda x: (x ** 3).sum()                  # H = diag(6 x)
    >>> padax.hvp(f, (padax.to_tensor([1.0, 2.0]),), (padax.to_tensor([1.0, 1.0]),)).tolist()
    [6.0, 12.0]
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("hvp: primals and tangents must be tuples (one entry per positional argument)")
    if len(primals) != len(tangents):
        raise ValueError(f"hvp: got {len(primals)} primals but {len(tangents)} tangents")
    nums = tuple(range(len(primals)))
    _, hv = jvp(grad(fun, argnums=nums), tuple(primals), tuple(tangents))
    return hv[0] if len(primals) == 1 else hv


def _with_arg(fun: Callable, args: tuple, argnum: int) -> Callable:
    def f(z):
        full = list(args)
        full[argnum] = z
        return fun(*full)
    return f


def _check_input(op: str, x: Any) -> None:
    a = get_aval(x)
    if not dtypes.is_floating(a.dtype):
        raise op_type_error(op, f"the differentiated argument must be a real floating array, got {a.str_short()}")


def _basis(x: Any):
    """The coordinate directions of x: an identity of shape (n,) + x.shape."""
    a = get_aval(x)
    n = a.size
    return constant(np.eye(n, dtype=a.dtype).reshape((n,) + a.shape), a.dtype), n


def _random_directions(op: str, key: Any, num_samples: int, distribution: str, x: Any):
    from padax import random as prandom  # startup time: padax.random loads on first use, for method='hutchinson'
    a = get_aval(x)
    if key is None:
        raise op_value_error(op, "method='hutchinson' needs a random key: laplacian(f, method='hutchinson', "
                                 "key=padax.random.key(0))")
    if int(num_samples) < 1:
        raise op_value_error(op, f"num_samples must be >= 1, got {num_samples}")
    shape = (int(num_samples),) + a.shape
    if distribution == "rademacher":
        bits = prandom.bernoulli(key, 0.5, shape)
        return convert_element_type(bits, a.dtype) * 2 - 1
    if distribution == "normal":
        return prandom.normal(key, shape, a.dtype)
    raise op_value_error(op, f"distribution must be 'rademacher' or 'normal', got {distribution!r}")


def _summed_second_coefficients(f: Callable, x: Any, directions: Any, num: int):
    """(f(x), sum_d of the second Taylor coefficient of f(x + t v_d)) by collapsed Taylor mode."""
    store: list = []

    def flat(z):
        leaves, tree = tree_util.flatten(f(z))
        store.append(tree)
        return leaves

    outs, _, tops = collapsed_jet(flat, [x], [[directions]], [None], 2, num)
    tops = [zeros_like_aval(get_aval(o).strip_weak_type()) if t is None else t for o, t in zip(outs, tops)]
    return store[0], outs, tops


def laplacian(fun: Callable, argnums: int = 0, method: str = "taylor", *, key: Any = None,
              num_samples: int = 16, distribution: str = "rademacher") -> Callable:
    """`laplacian(f)(*args)`: the trace of f's Hessian with respect to `args[argnums]`.

    For an array-valued f, the Laplacian of each output (the result has f's output
    structure). `method`: "taylor" (exact, collapsed Taylor mode: no Hessian is formed),
    "hutchinson" (unbiased stochastic estimate from `num_samples` random directions drawn
    with `key`, Rademacher or normal `distribution`), or "hessian" (trace of the full
    Hessian, for reference).

    >>> import padax
    >>> float(padax.laplacian(lambda x: (x ** 2).sum())(padax.ones([3])))     # 2 per coordinate
    6.0
    """
    if method not in ("taylor", "hutchinson", "hessian"):
        raise ValueError(f"laplacian: method must be 'taylor', 'hutchinson' or 'hessian', got {method!r}")
    if not isinstance(argnums, int):
        raise TypeError(f"laplacian: argnums must be an int (one array argument), got {argnums!r}")

    def wrapped(*args):
        if argnums >= len(args):
            raise TypeError(f"laplacian: argnums={argnums} but only {len(args)} positional arguments were given")
        x = args[argnums]
        _check_input("laplacian", x)
        f = _with_arg(fun, args, argnums)
        if method == "hessian":
            return _hessian_trace(f, x)
        if method == "taylor":
            dirs, n = _basis(x)
            scale = 2.0
        else:
            n = int(num_samples)
            dirs = _random_directions("laplacian", key, n, distribution, x)
            scale = 2.0 / n
        tree, _, tops = _summed_second_coefficients(f, x, dirs, n)
        return tree.unflatten([mul(t, scale) for t in tops])

    wrapped.__name__ = f"laplacian({getattr(fun, '__name__', 'fun')})"
    return wrapped


def _hessian_trace(f: Callable, x: Any):
    xa = get_aval(x)
    n = xa.size

    def trace_of(h):
        ha = get_aval(h)
        out_shape = ha.shape[:ha.ndim - 2 * xa.ndim]
        h2 = reshape(h, out_shape + (n * n,))
        nd = len(out_shape)
        diag = lslice(h2, (0,) * nd + (0,), out_shape + (n * n,), (1,) * nd + (n + 1,))
        return reduce_sum(diag, (nd,))
    return tree_util.map(trace_of, hessian(f)(x))


def hessian_diag(fun: Callable, argnums: int = 0) -> Callable:
    """`hessian_diag(f)(*args)`: the diagonal of f's Hessian with respect to `args[argnums]`,
    shaped out.shape + x.shape, by second-order Taylor mode along each coordinate.

    >>> import padax
    >>> padax.hessian_diag(lambda x: (x ** 3).sum())(padax.to_tensor([1.0, 2.0])).tolist()
    [6.0, 12.0]
    """
    def wrapped(*args):
        x = args[argnums]
        _check_input("hessian_diag", x)
        f = _with_arg(fun, args, argnums)
        xa = get_aval(x)
        dirs, n = _basis(x)
        store: list = []

        def second(v):
            def flat(z):
                leaves, tree = tree_util.flatten(f(z))
                store.append(tree)
                return leaves
            outs, series = jet_flat(flat, [x], [[v, None]], 2)
            return [zeros_like_aval(get_aval(o).strip_weak_type()) if s is None or s[1] is None else s[1]
                    for o, s in zip(outs, series)]

        per_dir = vmap(second)(dirs)

        def arrange(d):
            da = get_aval(d)
            out_shape = da.shape[1:]
            return mul(reshape(moveaxis(d, 0, -1), out_shape + xa.shape), 2.0)
        return store[0].unflatten([arrange(d) for d in per_dir])

    wrapped.__name__ = f"hessian_diag({getattr(fun, '__name__', 'fun')})"
    return wrapped


def jacobian_diag(fun: Callable, argnums: int = 0, elementwise: bool = False) -> Callable:
    """`jacobian_diag(f)(*args)`: d f_i / d x_i for an f mapping x = args[argnums] to an array
    of x's shape. `elementwise=True` promises that each output depends only on the input at
    the same position (then one jvp with a tangent of ones gives the diagonal); otherwise
    one jvp per coordinate, batched with vmap.

    >>> import padax
    >>> padax.jacobian_diag(padax.sin, elementwise=True)(padax.zeros([2])).tolist()    # cos(0)
    [1.0, 1.0]
    """
    def wrapped(*args):
        x = args[argnums]
        _check_input("jacobian_diag", x)
        f = _with_arg(fun, args, argnums)
        xa = get_aval(x)
        out = f(x)
        oa = get_aval(out) if not isinstance(out, (tuple, list, dict)) else None
        if oa is None or oa.shape != xa.shape:
            got = oa.str_short() if oa is not None else type(out).__name__
            raise op_type_error("jacobian_diag", f"f must map x {xa.str_short()} to one array of the same shape, "
                                                 f"got {got}")
        if elementwise:
            return jvp(f, (x,), (full(xa.shape, 1, xa.dtype),))[1]
        dirs, n = _basis(x)
        cols = vmap(lambda v: jvp(f, (x,), (v,))[1])(dirs)           # (n,) + x.shape: column i of J
        flat = reshape(cols, (n * n,))
        return reshape(lslice(flat, (0,), (n * n,), (n + 1,)), xa.shape)

    wrapped.__name__ = f"jacobian_diag({getattr(fun, '__name__', 'fun')})"
    return wrapped
