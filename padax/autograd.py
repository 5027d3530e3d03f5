"""Paddle-facing autodiff: `padax.autograd.jacobian/hessian/jvp/vjp` and `PyLayer`.

These follow `paddle.autograd`'s functional API (a function and its inputs,
not a tape): `jacobian(func, xs)` returns, per (output, input) pair, a 2-D
matrix of shape [output.numel, input.numel] — a Tensor when `func` has one
input and one output, a tuple when one side is a sequence, and a nested
tuple `J[i][j]` when both are. `hessian(func, xs)` does the same for the
second derivative of a scalar function. They are built on padax.jacrev /
padax.hessian, so they compose with jit and vmap.
"""
from __future__ import annotations

from typing import Any, Callable

import padax
from padax import tree as tree_util
from padax.functional import tape_api as tape
from padax.functional._arrays import asarray, aval_of, full, is_array
from padax.functional.lax.structural import reshape


def _as_tuple(xs: Any) -> tuple[tuple, bool]:
    if isinstance(xs, (list, tuple)):
        return tuple(asarray(x) for x in xs), True
    return (asarray(xs),), False


def _flat_matrix(j: Any, out_aval, in_aval) -> Any:
    return reshape(j, (out_aval.size, in_aval.size))


def _check_batch_axis(op: str, batch_axis: Any, args: tuple) -> int | None:
    if batch_axis is None:
        return None
    if batch_axis != 0:
        raise ValueError(f"{op}: batch_axis must be None or 0 (as Paddle), got {batch_axis!r}")
    sizes = {aval_of(a).shape[0] if aval_of(a).ndim else None for a in args}
    if len(sizes) != 1 or None in sizes:
        raise ValueError(f"{op}: batch_axis=0 needs every input to have the same leading batch size, got shapes "
                         f"{[aval_of(a).shape for a in args]}")
    return sizes.pop()


def jacobian(func: Callable, xs: Any, batch_axis: int | None = None) -> Any:
    """Jacobian of `func` at `xs`, as [out.numel, in.numel] matrices (Paddle's layout), or with batch_axis=0
    [B, out.numel / B, in.numel / B] per-sample blocks (samples assumed independent, as Paddle does).

    Args:
        func: a function of one Tensor, or of several when `xs` is a list or tuple.
        xs: the point (a Tensor or a sequence of them).
        batch_axis: None, or 0 when axis 0 of every input and output is a batch of independent samples.

    Returns:
        A matrix, or a tuple of them over the inputs (and/or outputs) when those are sequences.

    Examples:
        >>> import padax
        >>> padax.autograd.jacobian(lambda x: x * x, padax.to_tensor([1.0, 2.0])).tolist()
        [[2.0, 0.0], [0.0, 4.0]]
        >>> xy = [padax.to_tensor([1.0, 2.0]), padax.to_tensor([3.0, 4.0])]
        >>> jx, jy = padax.autograd.jacobian(lambda x, y: x * y, xy)
        >>> jx.tolist(), jy.tolist()
        ([[3.0, 0.0], [0.0, 4.0]], [[1.0, 0.0], [0.0, 2.0]])
        >>> padax.autograd.jacobian(lambda x: x * x, padax.to_tensor([[1.0], [2.0]]), batch_axis=0).tolist()
        [[[2.0]], [[4.0]]]
    """
    args, multi_in = _as_tuple(xs)
    b = _check_batch_axis("jacobian", batch_axis, args)
    outs = func(*args)
    multi_out = isinstance(outs, (list, tuple))
    out_list = tuple(outs) if multi_out else (outs,)

    def f_tuple(*a):
        o = func(*a)
        o = tuple(o) if isinstance(o, (list, tuple)) else (o,)
        # batched: d(sum over the batch of out[b, n]) / d x[b, m] is the per-sample block, for independent samples
        return o if b is None else tuple(reshape(t, (b, aval_of(t).size // b)).sum(0) for t in o)

    jac = padax.jacrev(f_tuple, argnums=tuple(range(len(args))))(*args)
    rows = []
    for i, o in enumerate(out_list):
        if b is None:
            row = tuple(_flat_matrix(jac[i][j], aval_of(o), aval_of(args[j])) for j in range(len(args)))
        else:
            n = aval_of(o).size // b
            row = tuple(reshape(jac[i][j], (n, b, aval_of(args[j]).size // b)).transpose([1, 0, 2])
                        for j in range(len(args)))
        rows.append(row if multi_in else row[0])
    return tuple(rows) if multi_out else rows[0]


def hessian(func: Callable, xs: Any, batch_axis: int | None = None) -> Any:
    """Hessian of a scalar `func` at `xs`: [in_i.numel, in_j.numel] blocks (nested tuple for
    several inputs); with batch_axis=0, func gives one value per sample ([B] or [B, 1]) and the blocks are
    [B, in_i.numel / B, in_j.numel / B].

    Args:
        func: function of the Tensor(s) `xs` returning a single-element Tensor (one per sample when batched).
        xs: a Tensor or a tuple/list of Tensors.
        batch_axis: None, or 0 for a batch of independent samples along axis 0.

    Returns:
        A [xs.numel, xs.numel] Tensor, or for several inputs a nested tuple of blocks [xs[i].numel, xs[j].numel].

    Examples:
        >>> import padax
        >>> padax.autograd.hessian(lambda x: (x ** 3).sum(), padax.to_tensor([1.0, 2.0])).tolist()
        [[6.0, 0.0], [0.0, 12.0]]
        >>> padax.autograd.hessian(lambda x: (x ** 3).sum(-1), padax.to_tensor([[1.0], [2.0]]), batch_axis=0).tolist()
        [[[6.0]], [[12.0]]]
    """
    args, multi_in = _as_tuple(xs)
    b = _check_batch_axis("hessian", batch_axis, args)
    out = func(*args)
    if aval_of(out).size != (1 if b is None else b):
        want = "a single-element Tensor" if b is None else f"one value per sample ([{b}] or [{b}, 1])"
        raise TypeError(f"hessian: func must return {want}, got {aval_of(out).str_short()}")
    argnums = tuple(range(len(args)))
    if b is not None:
        def grads(*a):
            return tuple(padax.grad(lambda *c: func(*c).sum(), argnums=argnums)(*a))
        blocks = jacobian(grads, list(args), batch_axis=0)
        return blocks if multi_in else blocks[0][0]

    def scalar(*a):
        return reshape(func(*a), ())

    h = padax.hessian(scalar, argnums=argnums)(*args)
    blocks = tuple(tuple(_flat_matrix(h[i][j], aval_of(args[i]), aval_of(args[j])) for j in range(len(args)))
                   for i in range(len(args)))
    return blocks if multi_in else blocks[0][0]


def jvp(func: Callable, xs: Any, v: Any = None) -> tuple[Any, Any]:
    """(func(xs), J v); `v` defaults to ones, as in Paddle.

    Args:
        func: function of the Tensor(s) `xs`.
        xs: a Tensor or a tuple/list of Tensors.
        v: tangent(s) shaped like `xs` (default: ones).

    Returns:
        A tuple (func(xs), J v).

    Examples:
        >>> import padax
        >>> y, jv = padax.autograd.jvp(lambda x: x * x, padax.to_tensor([1.0, 2.0]))
        >>> y.tolist(), jv.tolist()
        ([1.0, 4.0], [2.0, 4.0])
    """
    args, multi = _as_tuple(xs)
    if v is None:
        v = tuple(full(aval_of(a).shape, 1, aval_of(a).dtype) for a in args)
    else:
        v, _ = _as_tuple(v)
    return padax.jvp(func, args, tuple(v))


def vjp(func: Callable, xs: Any, v: Any = None) -> tuple[Any, Any]:
    """(func(xs), v^T J); `v` defaults to ones, as in Paddle.

    Args:
        func: function of the Tensor(s) `xs`.
        xs: a Tensor or a tuple/list of Tensors.
        v: cotangent(s) shaped like func's output (default: ones).

    Returns:
        A tuple (func(xs), v^T J), the second a Tensor, or a tuple for several inputs.

    Examples:
        >>> import padax
        >>> y, vj = padax.autograd.vjp(lambda x: x * x, padax.to_tensor([1.0, 2.0]), padax.to_tensor([1.0, 0.5]))
        >>> y.tolist(), vj.tolist()
        ([1.0, 4.0], [2.0, 2.0])
    """
    args, multi = _as_tuple(xs)
    out, f_vjp = padax.vjp(func, *args)
    if v is None:
        v = tree_util.map(lambda o: full(aval_of(o).shape, 1, aval_of(o).dtype), out)
    grads = f_vjp(v)
    return out, grads if multi else grads[0]


class PyLayerContext:
    """What `forward` and `backward` of a PyLayer share: `save_for_backward(*tensors)` in forward,
    `saved_tensor()` in backward.

    Examples:
        >>> import padax
        >>> ctx = padax.autograd.PyLayerContext()
        >>> ctx.save_for_backward(padax.to_tensor(2.0))
        >>> [float(t) for t in ctx.saved_tensor()]
        [2.0]
    """

    def __init__(self) -> None:
        self._saved: tuple = ()

    def save_for_backward(self, *tensors: Any) -> None:
        self._saved = tensors

    def saved_tensor(self) -> tuple:
        return self._saved

    def mark_not_inplace(self, *args: Any) -> None:
        """Accepted for Paddle compatibility (padax never modifies arrays in place)."""

    def mark_non_differentiable(self, *args: Any) -> None:
        """Accepted for Paddle compatibility."""

    def set_materialize_grads(self, value: bool) -> None:
        """Accepted for Paddle compatibility (gradients are always materialised)."""


class PyLayer:
    """A layer with a hand-written backward: subclass with static `forward(ctx, *args)`
    and `backward(ctx, *grads)`, call with `MyLayer.apply(*args)`. Built on custom_vjp,
    so it works under jit, vmap and grad.

    Examples:
        >>> import padax
        >>> class Cube(padax.autograd.PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x ** 3
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         (x,) = ctx.saved_tensor()
        ...         return dy * 3 * x ** 2
        >>> x = padax.to_tensor([2.0])
        >>> Cube.apply(x).tolist(), padax.grad(lambda x: Cube.apply(x).sum())(x).tolist()
        ([8.0], [12.0])
    """

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        for method in ("forward", "backward"):
            if not callable(getattr(cls, method, None)):
                raise TypeError(f"PyLayer {cls.__name__} must define a static {method}(ctx, ...)")
        if tape.needs_recording(args):  # Paddle's dygraph: a node on the tape whose backward is cls.backward
            return cls._apply_on_tape(args, kwargs)
        nondiff = tuple(i for i, a in enumerate(args) if not is_array(a) and not hasattr(a, "__array__"))
        holder: dict = {}

        def fun(*a):
            return cls.forward(PyLayerContext(), *a, **kwargs)

        def fwd(*a):
            ctx = PyLayerContext()
            out = cls.forward(ctx, *a, **kwargs)
            holder["ctx"] = ctx
            return out, tuple(ctx._saved)

        def bwd(*nd_and_res_g):
            res, g = nd_and_res_g[-2], nd_and_res_g[-1]
            ctx = holder["ctx"]
            ctx._saved = tuple(res)
            grads = cls.backward(ctx, *g) if isinstance(g, (tuple, list)) else cls.backward(ctx, g)
            return tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)

        f = padax.custom_vjp(fun, nondiff_argnums=nondiff)
        f.defvjp(fwd, bwd)
        return f(*args)

    @classmethod
    def _apply_on_tape(cls, args: tuple, kwargs: dict) -> Any:
        ctx = PyLayerContext()
        positions = [i for i, a in enumerate(args) if is_array(a)]
        with padax.no_grad():
            out = cls.forward(ctx, *[tape.plain(a) for a in args], **kwargs)
        outs, treedef = tree_util.flatten(out)

        def vjp(node, cts, create_graph):
            cts = [padax.zeros_like(o) if c is None else c for c, o in zip(cts, outs)]
            with padax.set_grad_enabled(create_graph):
                grads = cls.backward(ctx, *cts)
            grads = tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)
            if len(grads) != len(positions):
                raise ValueError(f"PyLayer {cls.__name__}.backward returned {len(grads)} gradient(s) for "
                                 f"{len(positions)} Tensor input(s) of forward")
            return list(grads)
        inputs = [tape.entry_of(args[i]) for i in positions]
        return treedef.unflatten(tape.custom_node(cls.__name__, inputs, outs, vjp))


__all__ = ["jacobian", "hessian", "jvp", "vjp", "PyLayer", "PyLayerContext"]
