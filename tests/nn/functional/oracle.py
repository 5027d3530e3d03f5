"""Compare a padax.nn.functional op with Paddle's: values and input gradients (one jitted
padax program per case, Paddle's eager autograd with the same random cotangent)."""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

import padax
from tests.conftest import paddle_oracle


def paddle_run(pd_fn: Callable, arrays: Sequence[np.ndarray], diff: Sequence[int], ct_seed: int = 7):
    """Paddle's outputs and the gradients of sum(out * ct) for the inputs listed in `diff`."""
    paddle = paddle_oracle()
    ts = []
    for i, a in enumerate(arrays):
        t = paddle.to_tensor(a)
        t.stop_gradient = i not in diff
        ts.append(t)
    out = pd_fn(*ts)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    first = outs[0]
    vals = [o.numpy() for o in outs]
    if not diff:
        return vals, [], None
    ct = np.random.default_rng(ct_seed).standard_normal(first.shape).astype(first.numpy().dtype)
    grads = paddle.grad([first], [ts[i] for i in diff], grad_outputs=[paddle.to_tensor(ct)],
                        allow_unused=True)
    return vals, [None if g is None else g.numpy() for g in grads], ct


def padax_run(fn: Callable, arrays: Sequence[np.ndarray], diff: Sequence[int], ct):
    """padax's outputs (jitted) and the vjp of the first output with `ct` for inputs in `diff`."""
    def program(*xs):
        out = fn(*xs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        if not diff:
            return list(outs), []

        def first(*d):
            full = list(xs)
            for i, v in zip(diff, d):
                full[i] = v
            o = fn(*full)
            return o[0] if isinstance(o, (tuple, list)) else o
        _, f_vjp = padax.vjp(first, *[xs[i] for i in diff])
        return list(outs), list(f_vjp(padax.to_tensor(ct)))
    outs, grads = padax.jit(program)(*[padax.to_tensor(a) for a in arrays])
    return [np.asarray(o) for o in outs], [np.asarray(g) for g in grads]


def check(fn: Callable, pd_fn: Callable, arrays: Sequence[np.ndarray], diff: Sequence[int] = (0,),
          rtol: float = 1e-5, atol: float = 1e-5, grad_tol: float | None = None, check_dtype: bool = True):
    """padax `fn` vs Paddle `pd_fn` on the same inputs: every output, and the input gradients."""
    diff = tuple(diff)
    p_vals, p_grads, ct = paddle_run(pd_fn, arrays, diff)
    x_vals, x_grads = padax_run(fn, arrays, diff, ct)
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
        if e is None:  # Paddle's kernel has no gradient for this input (e.g. labels); padax may
            continue
        np.testing.assert_allclose(a.astype(np.float64), e.astype(np.float64), rtol=gt, atol=gt,
                                   err_msg=f"gradient of input {i}")
    return x_vals


def check_vmap(fn: Callable, arrays: Sequence[np.ndarray], batched: Sequence[int] = (0,), size: int = 2,
               rtol: float = 1e-5, atol: float = 1e-5, seed: int = 3):
    """vmap(fn) over a new leading axis of the inputs in `batched` equals fn per example."""
    rng = np.random.default_rng(seed)
    stacked = []
    for i, a in enumerate(arrays):
        if i in batched:
            b = np.stack([a] + [(a + rng.standard_normal(a.shape).astype(a.dtype) * 0.1) if a.dtype.kind == "f"
                                else a for _ in range(size - 1)])
            stacked.append(b)
        else:
            stacked.append(a)
    in_axes = tuple(0 if i in batched else None for i in range(len(arrays)))
    got = padax.jit(padax.vmap(fn, in_axes=in_axes))(*[padax.to_tensor(a) for a in stacked])
    got = got if isinstance(got, (tuple, list)) else (got,)
    one_fn = padax.jit(fn)
    for b in range(size):
        one = one_fn(*[padax.to_tensor(s[b] if i in batched else s) for i, s in enumerate(stacked)])
        one = one if isinstance(one, (tuple, list)) else (one,)
        for g, o in zip(got, one):
            np.testing.assert_allclose(np.asarray(g)[b], np.asarray(o), rtol=rtol, atol=atol)
