"""Compare padax.nn.functional ops with Paddle's: values and input gradients.

A case is `fn` (padax) and `pd_fn` (Paddle) on the same numpy inputs; either may return several
outputs (e.g. one per reduction or option), so that one compiled padax program covers many
variants (XLA compiles dominate these tests' time). Gradients are those of
sum_k <out_k, ct_k> over the floating outputs, with the same random cotangents on both sides:
Paddle's autograd (paddle.grad) against padax.vjp inside the jitted program.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

import padax
from tests.conftest import paddle_oracle


def _tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def _is_float(a: np.ndarray) -> bool:
    return a.dtype.kind == "f"


def paddle_run(pd_fn: Callable, arrays: Sequence[np.ndarray], diff: Sequence[int], ct_seed: int = 7):
    """Paddle's outputs, the gradients of sum_k <out_k, ct_k> for the inputs in `diff` (None where
    Paddle's kernel gives none) and the cotangents (None for non-float outputs)."""
    paddle = paddle_oracle()
    ts = []
    for i, a in enumerate(arrays):
        t = paddle.to_tensor(a)
        t.stop_gradient = i not in diff
        ts.append(t)
    outs = _tuple(pd_fn(*ts))
    vals = [o.numpy() for o in outs]
    rng = np.random.default_rng(ct_seed)
    cts = [rng.standard_normal(v.shape).astype(v.dtype) if _is_float(v) else None for v in vals]
    if not diff:
        return vals, [], cts
    ys = [o for o, c in zip(outs, cts) if c is not None and not o.stop_gradient]
    gs = [paddle.to_tensor(c) for o, c in zip(outs, cts) if c is not None and not o.stop_gradient]
    if not ys:
        return vals, [None] * len(diff), cts
    grads = paddle.grad(ys, [ts[i] for i in diff], grad_outputs=gs, allow_unused=True)
    return vals, [None if g is None else g.numpy() for g in grads], cts


def padax_run(fn: Callable, arrays: Sequence[np.ndarray], diff: Sequence[int], cts):
    """padax's outputs and the vjp of its floating outputs with `cts` for the inputs in `diff`,
    in one jitted program."""
    def program(*xs):
        outs = _tuple(fn(*xs))
        if not diff:
            return list(outs), []

        def floats(*d):
            full = list(xs)
            for i, v in zip(diff, d):
                full[i] = v
            return [o for o, c in zip(_tuple(fn(*full)), cts) if c is not None]
        _, f_vjp = padax.vjp(floats, *[xs[i] for i in diff])
        return list(outs), list(f_vjp([padax.to_tensor(c) for c in cts if c is not None]))
    outs, grads = padax.jit(program)(*[padax.to_tensor(a) for a in arrays])
    return [np.asarray(o) for o in outs], [np.asarray(g) for g in grads]


def check(fn: Callable, pd_fn: Callable, arrays: Sequence[np.ndarray], diff: Sequence[int] = (0,),
          rtol: float = 1e-5, atol: float = 1e-5, grad_tol: float | None = None, check_dtype: bool = True):
    """padax `fn` vs Paddle `pd_fn` on the same inputs: every output (shape, dtype, value) and the
    gradients for the inputs in `diff`. Returns padax's outputs."""
    diff = tuple(diff)
    p_vals, p_grads, cts = paddle_run(pd_fn, arrays, diff)
    x_vals, x_grads = padax_run(fn, arrays, diff, cts)
    assert len(p_vals) == len(x_vals), (len(p_vals), len(x_vals))
    for k, (a, e) in enumerate(zip(x_vals, p_vals)):
        assert a.shape == e.shape, f"output {k}: shape {a.shape} != paddle's {e.shape}"
        if check_dtype:
            assert a.dtype == e.dtype, f"output {k}: dtype {a.dtype} != paddle's {e.dtype}"
        if e.dtype.kind in "iub":
            np.testing.assert_array_equal(a, e, err_msg=f"output {k}")
        else:
            np.testing.assert_allclose(a.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=atol,
                                       err_msg=f"output {k}")
    gt = grad_tol if grad_tol is not None else max(rtol, atol)
    for i, a, e in zip(diff, x_grads, p_grads):
        if e is None:  # Paddle's kernel gives no gradient for this input (labels, for example)
            continue
        np.testing.assert_allclose(a.astype(np.float64), e.astype(np.float64), rtol=gt, atol=gt,
                                   err_msg=f"gradient of input {i}")
    return x_vals


def check_vmap(fn: Callable, arrays: Sequence[np.ndarray], batched: Sequence[int] = (0,), size: int = 2,
               rtol: float = 1e-5, atol: float = 1e-5, seed: int = 3):
    """jit(vmap(fn)) over a new leading axis of the inputs in `batched` equals jit(fn) per example."""
    rng = np.random.default_rng(seed)
    stacked = []
    for i, a in enumerate(arrays):
        if i in batched:
            extra = [a + (rng.standard_normal(a.shape) * 0.1).astype(a.dtype) if _is_float(a) else a
                     for _ in range(size - 1)]
            stacked.append(np.stack([a] + extra))
        else:
            stacked.append(a)
    in_axes = tuple(0 if i in batched else None for i in range(len(arrays)))
    got = _tuple(padax.jit(padax.vmap(fn, in_axes=in_axes))(*[padax.to_tensor(a) for a in stacked]))
    one_fn = padax.jit(fn)
    for b in range(size):
        one = _tuple(one_fn(*[padax.to_tensor(s[b] if i in batched else s) for i, s in enumerate(stacked)]))
        for g, o in zip(got, one):
            np.testing.assert_allclose(np.asarray(g)[b], np.asarray(o), rtol=rtol, atol=atol)
