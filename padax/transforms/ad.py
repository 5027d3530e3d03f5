"""Automatic differentiation, the user API: jvp, vjp, linearize, grad, value_and_grad, linear_transpose,
jacfwd, jacrev, hessian. Forward mode runs the JVP interpreter; reverse mode linearises (jvp + partial
evaluation into a linear jaxpr) and transposes that jaxpr (padax/interpreters/ad.py, partial_eval.py).
Everything composes with jit, vmap and itself, to any order.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from padax.core import dtypes, node_state
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, float0, instantiate, tangent_aval, zeros_like_aval
from padax.core.jaxpr import eval_jaxpr
from padax.core.source_info import user_location
from padax.core.trace import trace_state
from padax.functional._arrays import asarray, constant, full as _full
from padax.functional.lax import structural as S
from padax.functional.tape_api import tape_grad
from padax.interpreters.ad import JVPTrace, JVPTracer, backward_pass, jvp_flat  # noqa: F401 (re-exported)
from padax.interpreters.partial_eval import PartialEvalTrace, linearize_flat, partial_eval_jaxpr, trace_linear_flat  # noqa: F401
from padax.runtime import tree as tree_util
from padax.transforms.batching import vmap
from padax.transforms.staging import arg_aval

# ---- forward mode -----------------------------------------------------------------

def _is_float0(t: Any) -> bool:
    """A float0 host array: JAX's tangent of an integer or bool primal."""
    return isinstance(t, np.ndarray) and t.dtype == float0


def _check_tangent(p: Any, t: Any, i: int) -> Any:
    pa = get_aval(p)
    if type(t) is Zero:
        return t
    if _is_float0(t):
        if dtypes.is_inexact(pa.dtype) or t.shape != pa.shape:
            raise TypeError(f"jvp: tangent #{i} is float0{list(t.shape)}, which only an integer or bool primal "
                            f"of that shape takes, but its primal has {pa.str_short()}{user_location()}")
        return Zero(tangent_aval(pa))
    ta = get_aval(t)
    if not dtypes.is_inexact(pa.dtype):
        return Zero(tangent_aval(pa))
    if ta.shape != pa.shape or ta.dtype != pa.dtype:
        raise TypeError(f"jvp: tangent #{i} has {ta.str_short()} but its primal has {pa.str_short()}; "
                        f"they must match in shape and dtype{user_location()}")
    return t


def jvp(fun: Callable, primals: Sequence[Any], tangents: Sequence[Any], has_aux: bool = False):
    """Forward-mode: `(fun(*primals), d fun(primals) . tangents)` for pytrees of arrays.

    Args:
        fun: the function to differentiate.
        primals: a tuple with one entry (a pytree of arrays) per positional argument of `fun`.
        tangents: a tuple of the same structure, shapes and dtypes as `primals`.
        has_aux: `fun` returns `(output, aux)`; aux is passed through undifferentiated.

    Returns:
        `(output, output_tangent)`, plus `aux` when has_aux.

    Examples:
        >>> import padax
        >>> y, dy = padax.jvp(padax.sin, (padax.to_tensor(0.0),), (padax.to_tensor(2.0),))
        >>> float(y), float(dy)
        (0.0, 2.0)
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("jvp: primals and tangents must be tuples (one entry per positional argument)")
    p_leaves, in_tree = tree_util.flatten(tuple(primals))
    t_leaves, t_tree = tree_util.flatten(tuple(tangents))
    if in_tree != t_tree:
        raise TypeError(f"jvp: primal and tangent trees differ: {in_tree} vs {t_tree}")
    p_leaves = [asarray(p) for p in p_leaves]
    t_leaves = [_check_tangent(p, t if type(t) is Zero or _is_float0(t) else asarray(t), i)
                for i, (p, t) in enumerate(zip(p_leaves, t_leaves))]

    store: list = []
    outs, touts = jvp_flat(_flatten_fun(fun, in_tree, store, has_aux, tuple(primals)), p_leaves, t_leaves)
    node_state.write(_from_store(store, "state"))
    out_tree = _from_store(store, "out")
    touts = [instantiate(t) for t in touts]
    res = (out_tree.unflatten(outs), out_tree.unflatten(touts))
    if has_aux:
        return res + (_from_store(store, "aux"),)
    return res


# ---- reverse mode -------------------------------------------------------------------------

def _flatten_fun(fun: Callable, in_tree, store: list, has_aux: bool = False, originals: Any = None) -> Callable:
    """`fun` on flat leaves; the output tree (and aux) go to `store`, and so do the state updates that
    layers rebuilt from `originals` made (their primals, written back by `node_state.write`)."""
    def flat(*xs):
        args = in_tree.unflatten(xs)
        start = node_state.mark()
        out = fun(*args)
        if originals is not None:
            store.append(("state", node_state.updates(originals, args, start, _primal_update)))
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise TypeError("has_aux=True requires the function to return a pair (output, aux)")
            out, aux = out
            store.append(("aux", tree_util.map(_primal_of, aux)))
        leaves, out_tree = tree_util.flatten(out)
        store.append(("out", out_tree))
        return leaves
    return flat


def _primal_update(value: Any, leaf: Any, origin: Any, name: str) -> Any:
    return _primal_of(value)


def _primal_of(x: Any) -> Any:
    """Strip the current trace's JVP tracer from an auxiliary output (aux is not differentiated)."""
    trace = trace_state.trace
    while isinstance(x, JVPTracer) and x._trace is trace:
        x = x.primal
    return x


def _from_store(store: list, key: str) -> Any:
    for k, v in store:
        if k == key:
            return v
    return None


def vjp(fun: Callable, *primals: Any, has_aux: bool = False):
    """Reverse mode: `(fun(*primals), f_vjp)` where `f_vjp(cotangent)` returns one cotangent per primal.

    Args:
        fun: the function to differentiate.
        primals: its positional arguments (pytrees of arrays).
        has_aux: `fun` returns `(output, aux)`; then the result is `(output, f_vjp, aux)`.

    Returns:
        `(output, f_vjp)`; f_vjp takes a cotangent shaped like the output and returns a tuple.

    Examples:
        >>> import padax
        >>> y, f_vjp = padax.vjp(lambda x: x * 3.0, padax.to_tensor([1.0, 2.0]))
        >>> y.tolist(), f_vjp(padax.to_tensor([1.0, 1.0]))[0].tolist()
        ([3.0, 6.0], [3.0, 3.0])
    """
    p_leaves, in_tree = tree_util.flatten(primals)
    store: list = []
    out_primals, linear, diff, out_diff = linearize_flat(_flatten_fun(fun, in_tree, store, has_aux, primals),
                                                         p_leaves)
    node_state.write(_from_store(store, "state"))
    out_tree = _from_store(store, "out")
    in_avals = tuple(get_aval(p) for p in p_leaves)
    out_avals = tuple(get_aval(o) for o in out_primals)
    f_vjp = VJPFunction(linear.jaxpr, tuple(linear.consts),
                        (in_tree, out_tree, tuple(diff), tuple(out_diff), in_avals, out_avals))
    out = out_tree.unflatten(out_primals)
    if has_aux:
        return out, f_vjp, _from_store(store, "aux")
    return out, f_vjp


class VJPFunction:
    """The function vjp returns: cotangent of the outputs -> cotangents of the primals. A pytree, as
    jax's: its residuals are the leaves, so it can be returned from and passed into jit and vmap."""

    __slots__ = ("jaxpr", "residuals", "info")

    def __init__(self, jaxpr: Any, residuals: tuple, info: tuple):
        self.jaxpr, self.residuals, self.info = jaxpr, residuals, info

    def __call__(self, *cts: Any) -> Any:
        in_tree, out_tree, diff, out_diff, in_avals, out_avals = self.info
        ct = cts[0] if len(cts) == 1 else cts
        ct_leaves, ct_tree = tree_util.flatten(ct)
        if ct_tree != out_tree:
            raise TypeError(f"vjp: cotangent tree {ct_tree} does not match the output tree {out_tree}")
        checked = []
        for i, (c, oa, d) in enumerate(zip(ct_leaves, out_avals, out_diff)):
            ca_shape = np.shape(c) if not d else get_aval(c).shape  # (an int output's cotangent is float0)
            if ca_shape != oa.shape:
                raise TypeError(f"vjp: cotangent #{i} has shape {ca_shape} but the output has {oa.shape}")
            if d:
                checked.append(_cotangent_of_dtype(c, oa.dtype, i))
        it = iter(backward_pass(self.jaxpr, list(self.residuals), checked))
        res = []
        for d, a in zip(diff, in_avals):
            if d:
                c = next(it)
                res.append(zeros_like_aval(a.strip_weak_type()) if type(c) is Zero else c)
            else:
                res.append(np.zeros(a.shape, float0))
        return in_tree.unflatten(res)

    def __repr__(self) -> str:
        return f"VJPFunction({len(self.residuals)} residuals)"


tree_util.register_node(VJPFunction, lambda f: (f.residuals, (f.jaxpr, f.info)),
                        lambda aux, res: VJPFunction(aux[0], tuple(res), aux[1]))


def _cotangent_of_dtype(c: Any, dtype: np.dtype, i: int) -> Any:
    """A cotangent in its output's dtype: Python numbers (weakly typed) adopt it; other dtypes are an error."""
    ca = get_aval(c)
    if ca.dtype == dtype:
        return c
    if ca.weak_type or isinstance(c, (int, float, complex)):
        return asarray(c, dtype)
    raise TypeError(f"vjp: cotangent #{i} has dtype {ca.dtype.name} but the output has dtype {dtype.name}; "
                    f"pass a cotangent of the output's dtype{user_location()}")


def linearize(fun: Callable, *primals: Any):
    """`(fun(*primals), f_jvp)` with f_jvp the linear map of tangents, evaluated without re-tracing.

    Args:
        fun: the function.
        *primals: the point to linearize at.

    Returns:
        `(output, f_jvp)`; f_jvp takes one tangent per primal and returns the output tangent.

    Examples:
        >>> import padax
        >>> y, f_jvp = padax.linearize(padax.exp, padax.to_tensor(0.0))
        >>> float(y), float(f_jvp(padax.to_tensor(2.0)))
        (1.0, 2.0)
    """
    p_leaves, in_tree = tree_util.flatten(primals)
    store: list = []
    out_primals, linear, diff, out_diff = linearize_flat(_flatten_fun(fun, in_tree, store, originals=primals),
                                                         p_leaves)
    node_state.write(_from_store(store, "state"))
    out_tree = _from_store(store, "out")
    in_avals = [get_aval(p) for p in p_leaves]

    def f_jvp(*tangents):
        t_leaves, t_tree = tree_util.flatten(tangents)
        if t_tree != in_tree:
            raise TypeError(f"linearize: tangent tree {t_tree} does not match the primal tree {in_tree}")
        ts = [_linearize_tangent(t, a, i) for i, (t, d, a) in enumerate(zip(t_leaves, diff, in_avals)) if d]
        it = iter(eval_jaxpr(linear.jaxpr, linear.consts, *ts))
        return out_tree.unflatten([next(it) if d else np.zeros(get_aval(o).shape, float0)
                                   for o, d in zip(out_primals, out_diff)])

    return out_tree.unflatten(out_primals), f_jvp


def _linearize_tangent(t: Any, primal_aval: ShapedArray, i: int) -> Any:
    """A tangent for linearize's linear map: Python numbers take the primal's dtype; the shape must match."""
    ta = get_aval(t)
    if ta.shape != primal_aval.shape:
        raise TypeError(f"linearize: tangent #{i} has shape {ta.shape} but its primal has shape "
                        f"{primal_aval.shape}{user_location()}")
    return _cotangent_of_dtype(t, primal_aval.dtype, i) if ta.dtype != primal_aval.dtype else t


def _argnums_tuple(argnums, op: str = "grad") -> tuple[int, ...]:
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums) if isinstance(argnums, (tuple, list)) else None
    if nums is None or not all(isinstance(i, int) and not isinstance(i, bool) for i in nums):
        raise TypeError(f"{op}: argnums must be an int or a tuple of ints, got {argnums!r}"
                        f"{user_location()}")
    return nums


def value_and_grad(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
                   holomorphic: bool = False, allow_int: bool = False) -> Callable:
    """`(fun(*args), d fun / d args[argnums])` for a scalar-output `fun`, in one pass.

    Args:
        fun: a function returning a real 0-d array (or `(output, aux)` with has_aux).
        argnums: which positional argument(s) to differentiate; a tuple gives a tuple of gradients.
        has_aux, holomorphic, allow_int: as for `grad`.

    Returns:
        A function returning `(value, gradient)` (`((value, aux), gradient)` with has_aux).

    Examples:
        >>> import padax
        >>> value, g = padax.value_and_grad(lambda x: (x ** 2).sum())(padax.to_tensor([1.0, 2.0]))
        >>> float(value), g.tolist()
        (5.0, [2.0, 4.0])
    """
    nums = _argnums_tuple(argnums, "value_and_grad")
    name = getattr(fun, "__name__", "fun")

    def wrapped(*args, **kwargs):
        for i in nums:
            if not -len(args) <= i < len(args):
                raise TypeError(f"grad({name}): argnums={argnums} but only {len(args)} positional arguments were "
                                f"given{user_location()}")
        diff_args = tuple(args[i] for i in nums)
        for i, a in zip(nums, diff_args):
            for leaf in tree_util.leaves(a):
                av = get_aval(leaf)
                if not dtypes.is_inexact(av.dtype) and not allow_int:
                    raise TypeError(
                        f"grad({name}): argument #{i} has dtype {av.dtype.name} ({av.str_short()}); gradients "
                        f"are only defined for floating or complex inputs. Cast it with .astype('float32'), "
                        f"or differentiate with respect to other arguments via argnums{user_location()}")
                if holomorphic and not dtypes.is_complex(av.dtype):
                    raise TypeError(f"grad({name}, holomorphic=True) requires complex inputs, but argument #{i} "
                                    f"is {av.str_short()}{user_location()}")

        _, f_partial = _restrict_to_argnums(fun, args, nums, kwargs)
        if has_aux:
            out, f_vjp, aux = vjp(f_partial, *diff_args, has_aux=True)
        else:
            out, f_vjp = vjp(f_partial, *diff_args)
        oa = get_aval(out) if not isinstance(out, (tuple, list, dict)) else None
        if oa is None or oa.shape != ():
            got = oa.str_short() if oa is not None else type(out).__name__
            raise TypeError(f"grad({name}) requires a scalar output, got {got}{user_location()}. "
                            "For vector outputs use padax.jacrev, or padax.vjp with a cotangent.")
        if not dtypes.is_inexact(oa.dtype):
            raise TypeError(f"grad({name}) requires a floating-point output, got {oa.str_short()}")
        if dtypes.is_complex(oa.dtype) and not holomorphic:
            raise TypeError(f"grad({name}) requires a real-valued output, got {oa.str_short()}. For a "
                            f"holomorphic function pass holomorphic=True; for other functions with complex "
                            f"outputs use padax.vjp directly{user_location()}")
        if holomorphic and not dtypes.is_complex(oa.dtype):
            raise TypeError(f"grad({name}, holomorphic=True) requires a complex output, got "
                            f"{oa.str_short()}{user_location()}")
        g = f_vjp(_full((), 1.0, oa.dtype))
        g = g[0] if isinstance(argnums, int) else tuple(g)
        return ((out, aux), g) if has_aux else (out, g)

    wrapped.__name__ = f"value_and_grad({name})"
    return wrapped


def grad(fun: Callable | None = None, argnums: int | Sequence[int] = 0, has_aux: bool = False,
         holomorphic: bool = False, allow_int: bool = False, *paddle_args: Any, **paddle_kwargs: Any) -> Callable:
    """Gradient of a scalar-output function with respect to `args[argnums]`.

    Called with Tensors instead of a function, it is Paddle's tape gradient `paddle.grad(outputs, inputs,
    grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True, allow_unused=False,
    no_grad_vars=None)` (padax/functional/tape_api.py `tape_grad`), which returns a list of gradients.

    For a real-valued function of complex inputs this is JAX's convention: the vjp of the
    output's cotangent 1.0, i.e. the conjugate of the Wirtinger gradient 2 df/dz-bar (for
    f = |z|**2, grad gives 2 conj(z)); step along its conjugate to ascend. `holomorphic=True`
    is for complex-valued holomorphic functions (the complex derivative f'(z)).

    Args:
        fun: a function returning a real 0-d array (or `(output, aux)` with has_aux).
        argnums: which positional argument(s) to differentiate; a tuple gives a tuple of gradients.
        has_aux: `fun` returns `(output, aux)`; the result is then `(gradient, aux)`.
        allow_int: allow integer inputs (their gradient is float0 zeros).

    Returns:
        A function with `fun`'s signature returning the gradient, shaped like `args[argnums]`.

    Examples:
        >>> import padax
        >>> padax.grad(lambda x: (x ** 2).sum())(padax.to_tensor([1.0, 2.0])).tolist()
        [2.0, 4.0]
        >>> float(padax.grad(lambda x, y: x * y, argnums=1)(padax.to_tensor(3.0), padax.to_tensor(4.0)))
        3.0
    """
    if fun is None and "outputs" in paddle_kwargs:  # paddle.grad(outputs=..., inputs=...)
        fun = paddle_kwargs.pop("outputs")
        if "inputs" in paddle_kwargs:
            argnums = paddle_kwargs.pop("inputs")
    if not callable(fun):  # paddle.grad(outputs, inputs, ...): the tape
        positional = (argnums, has_aux, holomorphic, allow_int, *paddle_args)
        given = positional[:2 + len(paddle_args)] if paddle_args else positional[:1]
        names = ("inputs", "grad_outputs", "retain_graph", "create_graph", "only_inputs", "allow_unused",
                 "no_grad_vars")
        extra = {k: v for k, v in zip(names, given)}
        if has_aux is not False and not paddle_args:
            extra["grad_outputs"] = has_aux
        return tape_grad(fun, **extra, **paddle_kwargs)
    if paddle_args or paddle_kwargs:
        raise TypeError(f"grad(f): unexpected arguments {paddle_kwargs or paddle_args} (grad of a function takes "
                        "argnums, has_aux, holomorphic, allow_int)")
    vg = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)

    def wrapped(*args, **kwargs):
        (val, g) = vg(*args, **kwargs)
        if has_aux:
            return g, val[1]
        return g

    wrapped.__name__ = f"grad({getattr(fun, '__name__', 'fun')})"
    return wrapped


def linear_transpose(fun: Callable, *primals: Any) -> Callable:
    """The transpose of a linear `fun`, traced at the avals of `primals` (their values are not used).

    Args:
        fun: a linear function.
        *primals: example arguments giving the input shapes and dtypes.

    Returns:
        A function of a cotangent shaped like fun's output, returning a tuple with one entry per primal.

    Examples:
        >>> import padax
        >>> transposed = padax.linear_transpose(lambda x: 2.0 * x, padax.to_tensor([1.0, 2.0]))
        >>> transposed(padax.to_tensor([1.0, 5.0]))[0].tolist()
        [2.0, 10.0]
    """
    leaves, in_tree = tree_util.flatten(primals)
    store: list = []
    # partial evaluation, not plain staging: what does not depend on the inputs (a jvp's primal
    # half, inside loops too) is computed now and only the linear part is transposed
    closed = trace_linear_flat(_flatten_fun(fun, in_tree, store), [arg_aval(x) for x in leaves])
    out_tree = _from_store(store, "out")
    in_avals = [arg_aval(x) for x in leaves]

    def transposed(*cts):
        ct = cts[0] if len(cts) == 1 else cts
        ct_leaves, ct_tree = tree_util.flatten(ct)
        if ct_tree != out_tree:
            raise TypeError(f"linear_transpose: cotangent tree {ct_tree} does not match {out_tree}")
        for c, a in zip(ct_leaves, closed.out_avals):
            ca = get_aval(c)
            if tuple(ca.shape) != tuple(a.shape) or np.dtype(ca.dtype) != np.dtype(a.dtype):
                raise TypeError(f"linear_transpose: a cotangent {ca.str_short()} for an output {a.str_short()}: "
                                "give the cotangent the output's shape and dtype")
        res = backward_pass(closed.jaxpr, closed.consts, ct_leaves)
        return in_tree.unflatten([zeros_like_aval(a) if type(r) is Zero else r for r, a in zip(res, in_avals)])

    return transposed


# ---- Jacobians and Hessians ------------------------------------------------------------------

def _std_basis(leaves: Sequence[Any]):
    """Identity matrix over the flattened inputs, split back into one batch per leaf."""
    import numpy as _np
    sizes = [get_aval(x).size for x in leaves]
    total = sum(sizes)
    out = []
    start = 0
    for x, n in zip(leaves, sizes):
        a = get_aval(x)
        eye = _np.zeros((total, n), dtype=a.dtype)
        eye[start:start + n] = _np.eye(n, dtype=a.dtype)
        out.append(constant(eye.reshape((total,) + a.shape), a.dtype))
        start += n
    return out, total


def _restrict_to_argnums(fun: Callable, args: tuple, nums: tuple[int, ...], kwargs: dict | None = None,
                         op: str = "grad"):
    """(the args at `nums`, fun as a function of just those args; the others held fixed)."""
    if not all(-len(args) <= i < len(args) for i in nums):
        raise TypeError(f"{op}({getattr(fun, '__name__', 'fun')}): argnums={nums} but only {len(args)} positional "
                        f"arguments were given{user_location()}")
    def f_d(*d):
        full = list(args)
        for i, a in zip(nums, d):
            full[i] = a
        return fun(*full, **(kwargs or {}))
    return tuple(args[i] for i in nums), f_d


def _check_jacobian_dtype(op: str, what: str, aval, holomorphic: bool, allow_int: bool = False) -> None:
    """JAX's rule: without holomorphic=True, jacfwd takes real inputs and jacrev gives real outputs
    (a complex Jacobian of a non-holomorphic map is not one matrix); with it, both must be complex.
    Integer or bool inputs (jacfwd; jacrev unless allow_int) and outputs (jacrev) are refused."""
    if not dtypes.is_inexact(aval.dtype):
        if op == "jacfwd" and what == "input":
            raise TypeError(f"jacfwd requires real-valued inputs (a floating dtype), but got {aval.str_short()}. "
                            f"For integer or bool inputs, use padax.jvp directly{user_location()}")
        if op == "jacrev" and what == "input" and not allow_int:
            raise TypeError(f"jacrev requires real- or complex-valued inputs (a floating or complex dtype), but got "
                            f"{aval.str_short()}. If you want to use bool or integer inputs, use padax.vjp or set "
                            f"allow_int=True{user_location()}")
        if op == "jacrev" and what == "output":
            raise TypeError(f"jacrev requires real-valued outputs (a floating dtype), but got {aval.str_short()}. "
                            f"For functions with integer or bool outputs, use padax.vjp directly{user_location()}")
        return
    if holomorphic and not dtypes.is_complex(aval.dtype):
        raise TypeError(f"{op}(holomorphic=True) requires complex {what}s, got {aval.str_short()}{user_location()}")
    if not holomorphic and dtypes.is_complex(aval.dtype):
        other = "jvp" if op == "jacfwd" else "vjp"
        raise TypeError(f"{op} requires real-valued {what}s, got {aval.str_short()}. For a holomorphic function "
                        f"pass holomorphic=True; otherwise use padax.{other} directly{user_location()}")


def jacfwd(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
           holomorphic: bool = False, chunk_size: int | None = None) -> Callable:
    """Jacobian by forward mode (vmap of jvp over the input basis): out.shape + in.shape.
    `chunk_size` pushes that many basis vectors at a time (bounded memory, same result).

    Args:
        argnums, has_aux, holomorphic: as for `grad` (integer or bool inputs are refused, as in jax).

    Returns:
        A function returning the Jacobian (a tuple of them when argnums is a tuple).

    Examples:
        >>> import padax
        >>> padax.jacfwd(lambda x: x ** 2)(padax.to_tensor([1.0, 2.0])).tolist()
        [[2.0, 0.0], [0.0, 4.0]]
    """
    nums = _argnums_tuple(argnums, "jacfwd")

    def wrapped(*args):
        dargs, f_d = _restrict_to_argnums(fun, args, nums, op="jacfwd")
        leaves, in_tree = tree_util.flatten(dargs)
        for leaf in leaves:
            _check_jacobian_dtype("jacfwd", "input", get_aval(leaf), holomorphic)
        basis, _ = _std_basis(leaves)

        int_outs: dict = {}  # output leaf -> (shape, dtype) where the output is integer (its tangent float0)

        def push(*ts):
            res = jvp(f_d, dargs, in_tree.unflatten(ts), has_aux=has_aux)
            t_leaves, t_tree = tree_util.flatten(res[1])
            for k, (p, t) in enumerate(zip(tree_util.leaves(res[0]), t_leaves)):
                if _is_float0(t):  # vmap carries no float0: a placeholder, replaced by zeros below
                    int_outs[k] = (get_aval(p).shape, get_aval(p).dtype)
                    t_leaves[k] = _full((), 0, np.dtype(np.int8))
            tangent = t_tree.unflatten(t_leaves)
            return (tangent, res[2]) if has_aux else tangent

        batched = vmap(push, in_axes=0, out_axes=-1, chunk_size=chunk_size)(*basis) if not has_aux else \
            vmap(push, in_axes=0, out_axes=(-1, None), chunk_size=chunk_size)(*basis)
        tangents, aux = batched if has_aux else (batched, None)
        # split the trailing basis axis back into the input leaves' shapes
        def split(k, t):
            ta = get_aval(t)
            out_shape = ta.shape[:-1]
            pieces, start = [], 0
            for x in leaves:
                xa = get_aval(x)
                if k in int_outs:  # as jax: an integer output's Jacobian is zeros of its dtype
                    shape, dt = int_outs[k]
                    pieces.append(_full(shape + xa.shape, 0, dt))
                    continue
                piece = S.slice(t, (0,) * (ta.ndim - 1) + (start,), ta.shape[:-1] + (start + xa.size,)) \
                    if len(leaves) > 1 else t
                pieces.append(S.reshape(piece, out_shape + xa.shape))
                start += xa.size
            jac = in_tree.unflatten(pieces)
            return jac[0] if isinstance(argnums, int) else jac
        t_leaves, t_tree = tree_util.flatten(tangents)
        out = t_tree.unflatten([split(k, t) for k, t in enumerate(t_leaves)])
        return (out, aux) if has_aux else out

    return wrapped


def jacrev(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
           holomorphic: bool = False, allow_int: bool = False, chunk_size: int | None = None) -> Callable:
    """Jacobian by reverse mode (vmap of vjp over the output basis): out.shape + in.shape.
    `chunk_size` pulls back that many basis vectors at a time (bounded memory, same result).
    `padax.jacobian` is this function.

    Args:
        argnums, has_aux, holomorphic, allow_int: as for `grad` (integer inputs are refused, as in jax,
            unless allow_int, which gives zeros of their dtype; integer outputs always are).

    Returns:
        A function returning the Jacobian (a tuple of them when argnums is a tuple).

    Examples:
        >>> import padax
        >>> padax.jacrev(lambda x: x[0] * x)(padax.to_tensor([1.0, 2.0])).tolist()
        [[2.0, 0.0], [2.0, 1.0]]
    """
    nums = _argnums_tuple(argnums, "jacrev")

    def wrapped(*args):
        dargs, f_d = _restrict_to_argnums(fun, args, nums, op="jacrev")
        for leaf in tree_util.leaves(dargs):
            av = get_aval(leaf)
            if holomorphic or not dtypes.is_inexact(av.dtype):  # complex inputs are fine without holomorphic
                _check_jacobian_dtype("jacrev", "input", av, holomorphic, allow_int)
        if has_aux:
            out, f_vjp, aux = vjp(f_d, *dargs, has_aux=True)
        else:
            out, f_vjp = vjp(f_d, *dargs)
        o_leaves, o_tree = tree_util.flatten(out)
        for leaf in o_leaves:
            _check_jacobian_dtype("jacrev", "output", get_aval(leaf), holomorphic)
        basis, total = _std_basis(o_leaves)
        in_leaves, in_tree = tree_util.flatten(dargs)
        ints = [not dtypes.is_inexact(get_aval(x).dtype) for x in in_leaves]

        def pull(*c):  # integer inputs (allow_int) have float0 cotangents, which vmap does not carry
            flat = in_tree.flatten_up_to(f_vjp(o_tree.unflatten(c)))
            return [_full((), 0, np.dtype(np.int8)) if i else ct for ct, i in zip(flat, ints)] if any(ints) else flat

        ct_leaves = vmap(pull, chunk_size=chunk_size)(*basis)  # per input leaf, leading axis = total
        # for each output leaf o and input leaf x: rows [start:start+o.size] -> o.shape + x.shape
        per_out = []
        start = 0
        for o in o_leaves:
            oa = get_aval(o)
            row = []
            for c, x, i in zip(ct_leaves, in_leaves, ints):
                if i:  # as jax: the Jacobian with respect to an integer input is zeros of its dtype
                    xa = get_aval(x)
                    row.append(_full(oa.shape + xa.shape, 0, xa.dtype))
                    continue
                ca = get_aval(c)
                piece = S.slice(c, (start,) + (0,) * (ca.ndim - 1), (start + oa.size,) + ca.shape[1:]) \
                    if len(o_leaves) > 1 else c
                row.append(S.reshape(piece, oa.shape + ca.shape[1:]))
            start += oa.size
            jac = in_tree.unflatten(row)
            per_out.append(jac[0] if isinstance(argnums, int) else jac)
        res = o_tree.unflatten(per_out)
        return (res, aux) if has_aux else res

    return wrapped


def hessian(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
            holomorphic: bool = False, chunk_size: int | None = None) -> Callable:
    """Hessian as forward-over-reverse: jacfwd(jacrev(fun)) (the cheaper order for a scalar
    function: one reverse pass, differentiated along each input direction). `chunk_size`
    bounds how many directions are pushed at once.

    Args:
        fun: a scalar-valued function.
        argnums: which positional argument(s) to differentiate.
        has_aux: fun returns (value, aux); aux is passed through.
        holomorphic: fun is complex-holomorphic.
        chunk_size: the most tangent directions pushed at once (None: all).

    Returns:
        A function returning in.shape + in.shape second derivatives of the scalar `fun`.

    Examples:
        >>> import padax
        >>> padax.hessian(lambda x: (x ** 3).sum())(padax.to_tensor([1.0, 2.0])).tolist()
        [[6.0, 0.0], [0.0, 12.0]]
    """
    return jacfwd(jacrev(fun, argnums, has_aux, holomorphic), argnums, has_aux, holomorphic, chunk_size=chunk_size)
