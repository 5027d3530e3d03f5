"""L-BFGS with Paddle's algorithm (two-loop recursion, optional strong-Wolfe line search).

    opt = padax.optimizer.LBFGS(learning_rate=1.0, max_iter=20, line_search_fn="strong_wolfe")
    state = opt.init(params)
    params, state = opt.step(params, loss_fn, state)   # loss_fn(params) -> scalar; up to max_iter iterations

L-BFGS decides how far to go from the function values it sees, so its outer loop runs in Python
(as Paddle's does): each evaluation of the loss and its gradient is one jitted call, and the
search direction is computed on the host from the flattened parameters. `lbfgs_minimize`
(padax/optimizer/lbfgs_solver.py) is the same solver as one pure, jittable function of the starting
point, and `minimize_lbfgs` (Paddle's result tuple) is built on it.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

import padax
from padax import tree as tree_util
from padax.nn.filtering import combine as _combine, partition as _partition


def _cubic_min(x1, f1, g1, x2, f2, g2, bounds=None) -> float:
    """The minimiser of the cubic through (x1, f1, g1) and (x2, f2, g2), kept within bounds."""
    lo, hi = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    disc = d1 * d1 - g1 * g2
    if disc < 0:
        return (lo + hi) / 2.0
    d2 = float(np.sqrt(disc))
    if x1 <= x2:
        x = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        x = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(x, lo), hi)


def _strong_wolfe(evaluate: Callable, x0: np.ndarray, t: float, d: np.ndarray, f: float, g: np.ndarray,
                  gtd: float, c1: float = 1e-4, c2: float = 0.9, tolerance_change: float = 1e-9,
                  max_ls: int = 25) -> tuple[float, np.ndarray, float, int]:
    """A step t along d meeting the strong Wolfe conditions (bracketing, then cubic zoom).
    Returns (loss, gradient, t, function evaluations)."""
    d_norm = float(np.abs(d).max())
    f_new, g_new = evaluate(x0 + t * d)
    evals, gtd_new = 1, float(g_new @ d)
    t_prev, f_prev, g_prev, gtd_prev = 0.0, f, g, gtd
    done, ls_iter = False, 0
    bracket = bracket_f = bracket_g = bracket_gtd = None
    while ls_iter < max_ls:
        sufficient = not (f_new > f + c1 * t * gtd or (ls_iter > 1 and f_new >= f_prev))
        if sufficient and abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g, done = [t], [f_new], [g_new], True
            break
        if not sufficient or gtd_new >= 0:  # a minimum lies between the previous step and this one
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new], [gtd_prev, gtd_new]
            break
        t_next = _cubic_min(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(t + 0.01 * (t - t_prev), t * 10))
        t_prev, f_prev, g_prev, gtd_prev = t, f_new, g_new, gtd_new
        t = t_next
        f_new, g_new = evaluate(x0 + t * d)
        evals, gtd_new = evals + 1, float(g_new @ d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0.0, t], [f, f_new], [g, g_new]
        bracket_gtd = [gtd, gtd_new]
    insufficient = False
    low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:  # zoom into the bracket
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_min(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1])
        top, bottom = max(bracket), min(bracket)
        eps = 0.1 * (top - bottom)
        if min(top - t, t - bottom) < eps:  # too close to an end: move away unless the last step progressed
            if insufficient or t >= top or t <= bottom:
                t = top - eps if abs(t - top) < abs(t - bottom) else bottom + eps
                insufficient = False
            else:
                insufficient = True
        else:
            insufficient = False
        f_new, g_new = evaluate(x0 + t * d)
        evals, gtd_new = evals + 1, float(g_new @ d)
        ls_iter += 1
        if f_new > f + c1 * t * gtd or f_new >= bracket_f[low]:
            bracket[high], bracket_f[high], bracket_g[high], bracket_gtd[high] = t, f_new, g_new, gtd_new
            low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low], bracket_g[low], bracket_gtd[low] = t, f_new, g_new, gtd_new
    return bracket_f[low], bracket_g[low], bracket[low], evals


class _Flat:
    """The trainable floating-point leaves of a parameter tree as one host vector, and back."""

    def __init__(self, params: Any):
        self.diff, self.static = _partition(params)
        leaves, self.treedef = tree_util.flatten(self.diff)
        if not leaves:
            raise ValueError("LBFGS: the parameters have no trainable floating-point arrays to optimise")
        self.shapes = [tuple(x.shape) for x in leaves]
        self.dtypes = [np.dtype(x.dtype) for x in leaves]
        self.dtype = np.result_type(*self.dtypes)
        self.sizes = [int(np.prod(s)) for s in self.shapes]

    def vector(self, tree: Any) -> np.ndarray:
        leaves = tree_util.leaves(tree)
        return np.concatenate([np.asarray(x, self.dtype).reshape(-1) for x in leaves])

    def diff_tree(self, x: np.ndarray) -> Any:
        parts = np.split(x, np.cumsum(self.sizes)[:-1])
        return self.treedef.unflatten([padax.to_tensor(p.reshape(s).astype(dt))
                                       for p, s, dt in zip(parts, self.shapes, self.dtypes)])

    def params(self, x: np.ndarray) -> Any:
        return _combine(self.diff_tree(x), self.static)


class LBFGS:
    """Paddle's L-BFGS: `step(params, closure, state)` runs up to `max_iter` iterations on `closure(params)`
    (a scalar loss) and returns (new params, new state); `state["loss"]` is the loss at the start of the
    step, as Paddle's `step` returns, and `state["converged"]` whether a tolerance (not max_iter or
    max_eval) ended it. line_search_fn: None (fixed step learning_rate) or 'strong_wolfe'.

    Args:
        learning_rate: the step length (the line search's first trial step with 'strong_wolfe').
        max_iter, max_eval: iterations and function evaluations per step.
        tolerance_grad, tolerance_change: stop when the gradient's max or the change in value/step falls below.
        history_size: curvature pairs kept.
        line_search_fn: None (fixed steps) or 'strong_wolfe'.

    Examples:
        >>> import padax
        >>> loss = lambda x: padax.sum((x - padax.to_tensor([1.0, 2.0])) ** 2)
        >>> opt = padax.optimizer.LBFGS(learning_rate=1.0, max_iter=20, line_search_fn="strong_wolfe")
        >>> x = padax.to_tensor([0.0, 0.0])
        >>> x, state = opt.step(x, loss, opt.init(x))
        >>> x.tolist(), float(state["loss"]), bool(state["converged"])
        ([1.0, 2.0], 5.0, True)
    """

    def __init__(self, learning_rate: float = 1.0, max_iter: int = 20, max_eval: int | None = None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None, parameters: Any = None, weight_decay: Any = None,
                 grad_clip: Any = None, name: str | None = None):
        if line_search_fn not in (None, "strong_wolfe"):
            raise ValueError(f"LBFGS: line_search_fn must be None or 'strong_wolfe', got {line_search_fn!r}")
        if weight_decay is not None or grad_clip is not None:
            raise ValueError("LBFGS: weight_decay and grad_clip are not applied by L-BFGS (as in Paddle, whose "
                             "LBFGS ignores them); add the penalty to the loss instead")
        if isinstance(max_iter, bool) or not isinstance(max_iter, int) or max_iter < 1:
            raise ValueError(f"LBFGS: max_iter must be a positive integer, got {max_iter!r}")
        if isinstance(history_size, bool) or not isinstance(history_size, int) or history_size < 1:
            raise ValueError(f"LBFGS: history_size must be a positive integer, got {history_size!r}")
        self.learning_rate, self.max_iter = float(learning_rate), max_iter
        self.max_eval = max_iter * 5 // 4 if max_eval is None else int(max_eval)
        self.tolerance_grad, self.tolerance_change = float(tolerance_grad), float(tolerance_change)
        self.history_size, self.line_search_fn, self.name = history_size, line_search_fn, name
        self._compiled: dict = {}

    def init(self, params: Any = None) -> dict:
        """The empty state (no curvature pairs yet)."""
        return {"func_evals": 0, "n_iter": 0, "d": None, "alpha": None, "old_yk": [], "old_sk": [], "ro": [],
                "H_diag": 1.0, "prev_flat_grad": None, "prev_loss": None, "loss": None, "converged": False}

    def _value_and_grad(self, closure: Callable, flat: _Flat) -> Callable[[np.ndarray], tuple[float, np.ndarray]]:
        key = (closure, flat.treedef, tuple(flat.shapes), tuple(flat.dtypes))
        vg = self._compiled.get(key)
        if vg is None:
            static = flat.static
            vg = self._compiled[key] = padax.jit(padax.value_and_grad(lambda d: closure(_combine(d, static))))

        def evaluate(x: np.ndarray) -> tuple[float, np.ndarray]:
            loss, grads = vg(flat.diff_tree(x))
            return float(np.asarray(loss)), flat.vector(grads)
        return evaluate

    def step(self, params: Any, closure: Callable[[Any], Any], state: dict | None = None) -> tuple[Any, dict]:
        """Up to max_iter L-BFGS iterations on closure(params); returns (new params, new state)."""
        state = self.init() if state is None else dict(state)
        for k in ("old_yk", "old_sk", "ro"):
            state[k] = list(state[k])
        flat = _Flat(params)
        evaluate = self._value_and_grad(closure, flat)
        x = flat.vector(flat.diff)
        loss, g = evaluate(x)
        state["loss"], state["func_evals"] = loss, state["func_evals"] + 1
        evals, state["converged"] = 1, True
        if np.abs(g).max() <= self.tolerance_grad:
            return flat.params(x), state
        d, t = state["d"], state["alpha"]
        yk, sk, ro, h_diag = state["old_yk"], state["old_sk"], state["ro"], state["H_diag"]
        prev_g, prev_loss = state["prev_flat_grad"], state["prev_loss"]
        n_iter = 0
        while n_iter < self.max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d, yk, sk, ro, h_diag = -g, [], [], [], 1.0
            else:
                d, h_diag = self._direction(g, g - prev_g, d * t, yk, sk, ro, h_diag)
            prev_g, prev_loss = g, loss
            t = (min(1.0, 1.0 / float(np.abs(g).sum())) if state["n_iter"] == 1 else 1.0) * self.learning_rate
            gtd = float(g @ d)
            if gtd > -self.tolerance_change:
                break
            ls_evals, converged = 0, False
            if self.line_search_fn is not None:
                loss, g, t, ls_evals = _strong_wolfe(evaluate, x, t, d, loss, g, gtd)
                x = x + t * d
                converged = np.abs(g).max() <= self.tolerance_grad
            else:
                x = x + t * d
                if n_iter != self.max_iter:
                    loss, g = evaluate(x)
                    converged, ls_evals = np.abs(g).max() <= self.tolerance_grad, 1
            evals += ls_evals
            state["func_evals"] += ls_evals
            if (converged or np.abs(d * t).max() <= self.tolerance_change
                    or abs(loss - prev_loss) < self.tolerance_change):
                break
            if evals >= self.max_eval or n_iter == self.max_iter:
                state["converged"] = False
                break
        state.update(d=d, alpha=t, old_yk=yk, old_sk=sk, ro=ro, H_diag=h_diag, prev_flat_grad=prev_g,
                     prev_loss=prev_loss)
        return flat.params(x), state

    def _direction(self, g, y, s, yk, sk, ro, h_diag):
        """Store the curvature pair (y, s) if it is positive, then the two-loop recursion: -H g."""
        ys = float(y @ s)
        if ys > 1e-10:
            if len(yk) == self.history_size:
                yk.pop(0), sk.pop(0), ro.pop(0)
            yk.append(y), sk.append(s), ro.append(1.0 / ys)
            h_diag = ys / float(y @ y)
        q = -g
        al = [0.0] * len(yk)
        for i in range(len(yk) - 1, -1, -1):
            al[i] = float(sk[i] @ q) * ro[i]
            q = q - al[i] * yk[i]
        r = q * h_diag
        for i in range(len(yk)):
            r = r + sk[i] * (al[i] - float(yk[i] @ r) * ro[i])
        return r, h_diag


def minimize_lbfgs(fun: Callable[[Any], Any], x0: Any, history_size: int = 100, max_iters: int = 50,
                   tolerance_grad: float = 1e-8, tolerance_change: float = 1e-8, line_search_fn: str = "strong_wolfe",
                   initial_step_length: float = 1.0) -> tuple[Any, Any, Any, Any, Any]:
    """Minimise fun from x0 (a Tensor or a tree of them) with L-BFGS; pure, so it also runs under jit.

    Returns Paddle's tuple (is_converge, num_func_calls, position, objective_value, objective_gradient);
    is_converge: a tolerance on the gradient, the step or the change in value was met within max_iters.

    Args:
        fun: scalar objective of one argument shaped like `x0`.
        x0: the starting point, a Tensor or a pytree of float Tensors.
        history_size: number of past (step, gradient change) pairs kept.
        max_iters: most L-BFGS iterations.
        tolerance_grad: stop when the largest gradient entry is at most this.
        tolerance_change: stop when the step or the change of value is at most this.
        line_search_fn: 'strong_wolfe' or None (fixed steps of `initial_step_length`).
        initial_step_length: the first trial step length.

    Returns:
        A tuple (is_converge, num_func_calls, position, objective_value, objective_gradient), as Paddle's.

    Examples:
        >>> import padax
        >>> f = lambda x: padax.sum((x - padax.to_tensor([1.0, 2.0])) ** 2)
        >>> converged, n_calls, x, value, grad = padax.optimizer.minimize_lbfgs(f, padax.to_tensor([0.0, 0.0]))
        >>> bool(converged), x.tolist(), round(float(value), 6)
        (True, [1.0, 2.0], 0.0)
    """
    # read at call time: padax.optimizer.lbfgs_solver imports this module
    res = padax.optimizer.lbfgs_minimize(fun, x0, learning_rate=initial_step_length, max_iter=max_iters,
                         max_eval=max_iters * 5 // 4 + 25 * max_iters, tolerance_grad=tolerance_grad,
                         tolerance_change=tolerance_change, history_size=history_size, line_search_fn=line_search_fn)
    value, grad = padax.value_and_grad(fun)(res.position)
    return res.converged, res.func_evals + 1, res.position, value, grad
