"""`padax.incubate.autograd`: Paddle's functional autodiff API (`paddle.incubate.autograd`): `vjp`, `jvp`, and
the lazily evaluated `Jacobian` and `Hessian` matrices.

`Jacobian(func, xs)` flattens and concatenates the inputs (and the outputs) into one [N, M] matrix
([B, N, M] with is_batched=True, the first axis being the batch); its rows are computed on demand, one
reverse-mode product each, when the matrix is indexed (`J[:]`, `J[0]`, `J[:, 2]`, `J[1:3, :]`) and are
kept for the next access, as in Paddle. `Hessian(func, xs)` is the Jacobian of the gradient of a
single-element func."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

import padax
from padax import tree as tree_util
from padax.core.errors import op_value_error

__all__ = ["Hessian", "Jacobian", "jvp", "vjp"]


def _seq(xs: Any) -> bool:
    return isinstance(xs, (list, tuple))


def _tensors(op: str, xs: Any, what: str) -> tuple:
    items = tuple(xs) if _seq(xs) else (xs,)
    out = []
    for i, x in enumerate(items):
        try:
            x = padax.asarray(x)
        except TypeError as e:
            raise TypeError(f"{op}: {what}[{i}] must be a Tensor, got {type(x).__name__}") from e
        out.append(x)
    return tuple(out)


def _match(op: str, v: Any, ref: tuple, what: str) -> tuple:
    vs = _tensors(op, v, "v")
    if len(vs) != len(ref) or any(tuple(a.shape) != tuple(b.shape) for a, b in zip(vs, ref)):
        raise op_value_error(op, f"v must match {what}'s shapes {[list(r.shape) for r in ref]}, got "
                                 f"{[list(a.shape) for a in vs]}")
    return tuple(a.astype(b.dtype) for a, b in zip(vs, ref))


def vjp(func: Callable, xs: Any, v: Any = None) -> tuple[Any, Any]:
    """(func(xs), v^T J): the vector-Jacobian product, reverse mode.

    Args:
        func: a function of the Tensor(s) xs (called as func(*xs) when xs is a sequence).
        xs: a Tensor or a sequence of Tensors.
        v: the cotangent(s), shaped like func's output(s); default ones.

    Returns:
        (func's output, the product): the product a Tensor for a Tensor xs, a tuple for a sequence.

    Examples:
        >>> import padax
        >>> from padax.incubate.autograd import vjp
        >>> y, g = vjp(lambda x: x * x, padax.to_tensor([1.0, 2.0]))
        >>> g.tolist()
        [2.0, 4.0]
    """
    op = "padax.incubate.autograd.vjp"
    args = _tensors(op, xs, "xs")
    ys, f_vjp = padax.vjp(func, *args)
    y_leaves, treedef = tree_util.flatten(ys)
    cts = [padax.ones_like(y) for y in y_leaves] if v is None else list(_match(op, v, tuple(y_leaves), "func's output"))
    grads = f_vjp(treedef.unflatten(cts))
    grads = tuple(padax.zeros_like(a) if g is None else g for g, a in zip(grads, args))
    return ys, grads if _seq(xs) else grads[0]


def jvp(func: Callable, xs: Any, v: Any = None) -> tuple[Any, Any]:
    """(func(xs), J v): the Jacobian-vector product, forward mode.

    Args:
        func: a function of the Tensor(s) xs.
        xs: a Tensor or a sequence of Tensors.
        v: the tangent(s), shaped like xs; default ones.

    Returns:
        (func's output, the product shaped like the output).

    Examples:
        >>> import padax
        >>> from padax.incubate.autograd import jvp
        >>> y, t = jvp(lambda x: x * x, padax.to_tensor([1.0, 2.0]), padax.to_tensor([1.0, 0.0]))
        >>> t.tolist()
        [2.0, 0.0]
    """
    op = "padax.incubate.autograd.jvp"
    args = _tensors(op, xs, "xs")
    tangents = tuple(padax.ones_like(a) for a in args) if v is None else _match(op, v, args, "xs")
    ys, out = padax.jvp(func, args, tangents)
    return ys, out


def _multi_index(indexes: Any, shape: tuple) -> tuple:
    indexes = tuple(indexes) if isinstance(indexes, tuple) else (indexes,)
    if any(i is Ellipsis for i in indexes):
        raise IndexError("Jacobian/Hessian: an Ellipsis index is not supported")
    if len(indexes) > len(shape):
        raise IndexError(f"Jacobian/Hessian: {len(indexes)} indexes for a {len(shape)}-D matrix")
    out = []
    for i, index in enumerate(indexes + (slice(None),) * (len(shape) - len(indexes))):
        if isinstance(index, slice):
            out.append(slice(*index.indices(shape[i])))
        elif isinstance(index, (int, np.integer)) and not isinstance(index, bool):
            k = int(index) + shape[i] if index < 0 else int(index)
            if not 0 <= k < shape[i]:
                raise IndexError(f"Jacobian/Hessian: index {index} out of range for axis {i} of size {shape[i]}")
            out.append(k)
        else:
            raise TypeError(f"Jacobian/Hessian: indexes must be ints or slices, got {type(index).__name__}")
    return tuple(out)


class Jacobian:
    """The Jacobian of func at xs as one lazily evaluated matrix: [N, M] for the flattened, concatenated
    outputs (N) and inputs (M), or [B, N, M] with is_batched=True (axis 0 of every input and output is the
    batch, and samples are independent).

    Args:
        func: a function of the Tensor(s) xs.
        xs: a Tensor or a sequence of Tensors.
        is_batched: the first axis is a batch axis.

    Indexing (`J[:]`, `J[i]`, `J[:, j]`, `J[b, i, j]`, slices with steps) computes only the rows needed (one
    reverse-mode product per output row) and caches them; `J.shape` is the matrix's shape.

    Examples:
        >>> import padax
        >>> from padax.incubate.autograd import Jacobian
        >>> J = Jacobian(lambda x, y: x * y, [padax.to_tensor([1.0, 2.0]), padax.to_tensor([3.0, 4.0])])
        >>> J.shape
        (2, 4)
        >>> J[:].tolist()
        [[3.0, 0.0, 1.0, 0.0], [0.0, 4.0, 0.0, 2.0]]
        >>> J[:, 1].tolist()
        [0.0, 4.0]
    """

    def __init__(self, func: Callable, xs: Any, is_batched: bool = False) -> None:
        op = "padax.incubate.autograd.Jacobian"
        self._xs = _tensors(op, xs, "xs")
        self.is_batched = bool(is_batched)
        ys, self._vjp = padax.vjp(lambda *a: func(*a), *self._xs)
        self._ys, self._ytree = tree_util.flatten(ys)
        if not self._ys:
            raise op_value_error(op, "func returned no Tensor")
        if self.is_batched:
            bad = [list(t.shape) for t in (*self._xs, *self._ys) if t.ndim == 0 or t.shape[0] != self._xs[0].shape[0]]
            if bad:
                raise op_value_error(op, f"is_batched=True needs every input and output to share the batch axis 0 "
                                         f"(size {self._xs[0].shape[0] if self._xs[0].ndim else None}); got {bad}")
            b = self._xs[0].shape[0]
            self._sizes = [int(np.prod(y.shape[1:])) for y in self._ys]
            m = sum(int(np.prod(x.shape[1:])) for x in self._xs)
            self._shape = (b, sum(self._sizes), m)
        else:
            self._sizes = [int(np.prod(y.shape)) for y in self._ys]
            self._shape = (sum(self._sizes), sum(int(np.prod(x.shape)) for x in self._xs))
        self._cache: dict[int, Any] = {}

    @property
    def shape(self) -> tuple:
        """The flattened matrix's shape: (N, M), or (B, N, M) batched."""
        return self._shape

    @property
    def _lazy_axis(self) -> int:
        return 1 if self.is_batched else 0

    def _flatten(self, ts: Any) -> Any:
        if self.is_batched:
            return padax.concat([t.reshape([t.shape[0], -1]) for t in ts], axis=1)
        return padax.concat([t.reshape([-1]) for t in ts])

    def _row(self, k: int) -> Any:
        row = self._cache.get(k)
        if row is None:
            cts, start = [], 0
            for y, n in zip(self._ys, self._sizes):
                hot = (np.arange(start, start + n) == k).astype(np.dtype(str(y.dtype)) if padax.is_floating_point(y)
                                                                else np.float32)
                shape = y.shape[1:] if self.is_batched else y.shape
                ct = padax.to_tensor(hot.reshape(shape)).astype(y.dtype)
                cts.append(padax.broadcast_to(ct, y.shape) if self.is_batched else ct)
                start += n
            grads = self._vjp(self._ytree.unflatten(cts))
            row = self._cache[k] = self._flatten([padax.zeros_like(x) if g is None else g
                                                  for g, x in zip(grads, self._xs)])
        return row

    def __getitem__(self, indexes: Any) -> Any:
        idx = _multi_index(indexes, self._shape)
        lazy = self._lazy_axis
        if isinstance(idx[lazy], int):
            rest = idx[:lazy] + idx[lazy + 1:]
            return self._row(idx[lazy])[rest]
        rows = [self._row(k) for k in range(idx[lazy].start, idx[lazy].stop, idx[lazy].step)]
        if not rows:
            shape = list(self._shape)
            shape[lazy] = 0
            part = padax.zeros(shape, self._xs[0].dtype)
        else:
            part = padax.stack(rows, axis=lazy)
        return part[idx[:lazy] + (slice(None),) + idx[lazy + 1:]]

    def __repr__(self) -> str:
        return f"Jacobian(shape={self._shape}, is_batched={self.is_batched})"


class Hessian:
    """The Hessian of a single-element func ([1] or [], [B, 1] batched) at xs: the lazily evaluated Jacobian
    of its flattened gradient, [M, M] ([B, M, M] batched), indexed as `Jacobian`.

    Args:
        func: a function of the Tensor(s) xs returning one element (per sample when is_batched).
        xs: a Tensor or a sequence of Tensors.
        is_batched: the first axis is a batch axis.

    Examples:
        >>> import padax
        >>> from padax.incubate.autograd import Hessian
        >>> H = Hessian(lambda x: (x * x * x).sum(), padax.to_tensor([1.0, 2.0]))
        >>> H[:].tolist()
        [[6.0, 0.0], [0.0, 12.0]]
    """

    def __init__(self, func: Callable, xs: Any, is_batched: bool = False) -> None:
        op = "padax.incubate.autograd.Hessian"
        args = _tensors(op, xs, "xs")
        out = func(*args)
        if _seq(out) or (is_batched and (out.ndim == 0 or int(np.prod(out.shape[1:])) != 1)) or \
                (not is_batched and int(np.prod(out.shape)) != 1):
            raise op_value_error(op, "func must return a single-element Tensor ([B, 1] with is_batched), got "
                                     f"{[list(o.shape) for o in out] if _seq(out) else list(out.shape)}")
        argnums = tuple(range(len(args)))

        def grad_func(*a):
            g = padax.grad(lambda *b: func(*b).sum(), argnums=argnums)(*a)
            return tuple(g)

        self.symbolic = Jacobian(grad_func, list(args), is_batched=is_batched)

    @property
    def shape(self) -> tuple:
        """(M, M), or (B, M, M) batched."""
        return self.symbolic.shape

    def __getitem__(self, indexes: Any) -> Any:
        return self.symbolic[indexes]

    def __repr__(self) -> str:
        return f"Hessian(shape={self.shape}, is_batched={self.symbolic.is_batched})"
