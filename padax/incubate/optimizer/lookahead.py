"""LookAhead (Zhang et al. 2019): an inner optimizer takes k fast steps, then the parameters move a fraction
alpha of the way from the slow weights towards the fast ones, and the slow weights follow."""
from __future__ import annotations

from typing import Any

import padax
from padax import tree as tree_util
from padax.core.errors import op_value_error

__all__ = ["LookAhead"]


def _check(op: str, alpha: float, k: int) -> None:
    if not 0.0 <= float(alpha) <= 1.0:
        raise op_value_error(op, f"alpha must be in [0, 1], got {alpha}")
    if isinstance(k, bool) or not isinstance(k, int) or k <= 0:
        raise op_value_error(op, f"k must be a positive integer, got {k!r}")


class LookAhead:
    """Paddle's `paddle.incubate.LookAhead(inner_optimizer, alpha=0.5, k=5)`.

    After each inner step t (counted from 1): at t == 1 the slow weights are set to the parameters; every k-th
    step the parameters become alpha * fast + (1 - alpha) * slow and the slow weights take that value (Paddle's
    rule, applied to the parameters that have a gradient).

    Args:
        inner_optimizer: a padax optimizer (made with parameters= for the dygraph `step()`).
        alpha: the slow weights' step towards the fast ones, in [0, 1].
        k: the number of fast steps between two slow updates.

    Two protocols, as padax's optimizers: `loss.backward(); la.step(); la.clear_grad()` (Paddle's), and the
    functional `state = la.init(params)`, `params, state = la.step(params, grads, state)`.

    Examples:
        >>> import padax
        >>> from padax.incubate import LookAhead
        >>> w = padax.to_tensor([1.0])
        >>> la = LookAhead(padax.optimizer.SGD(learning_rate=0.5), alpha=0.5, k=2)
        >>> state = la.init(w)
        >>> for _ in range(2):
        ...     w, state = la.step(w, padax.to_tensor([1.0]), state)
        >>> w.tolist()   # fast: 1 -> 0.5 (slow = 0.5) -> 0.0, then 0.5 * 0.0 + 0.5 * 0.5
        [0.25]
    """

    def __init__(self, inner_optimizer: Any, alpha: float = 0.5, k: int = 5, name: str | None = None) -> None:
        if inner_optimizer is None:
            raise op_value_error("LookAhead", "inner_optimizer must not be None")
        _check("LookAhead", alpha, k)
        self.inner_optimizer = inner_optimizer
        self.alpha, self.k, self.type = float(alpha), int(k), "lookahead"
        self._parameter_list = getattr(inner_optimizer, "_parameter_list", None)
        self._t = 0
        self._slow: dict[int, Any] = {}

    # -- the functional protocol ------------------------------------------------------------------
    def init(self, params: Any) -> dict:
        """{"inner": the inner optimizer's state, "slow": a copy of params, "step": 0}."""
        return {"inner": self.inner_optimizer.init(params), "slow": tree_util.map(lambda p: p * 1, params),
                "step": padax.zeros([], "int32")}

    def _mix(self, t: Any, fast: Any, slow: Any) -> tuple[Any, Any]:
        slow = padax.where(t == 1, fast, slow)
        mixed = self.alpha * fast + (1.0 - self.alpha) * slow
        sync = (t % self.k) == 0
        return padax.where(sync, mixed, fast).astype(fast.dtype), padax.where(sync, mixed, slow).astype(slow.dtype)

    def step(self, params: Any = None, grads: Any = None, state: dict | None = None) -> tuple[Any, dict] | None:
        """One step. With no arguments, Paddle's in-place step on the inner optimizer's parameters; else
        (new params, new state)."""
        if params is None and state is None:
            self._step_in_place()
            return None
        if state is None:
            raise TypeError("LookAhead.step(params, grads, state): the functional form needs la.init(params)")
        fast, inner = self.inner_optimizer.step(params, grads, state["inner"])
        t = state["step"] + 1
        f_leaves, treedef = tree_util.flatten(fast)
        s_leaves = tree_util.leaves(state["slow"])
        pairs = [self._mix(t, f, s) for f, s in zip(f_leaves, s_leaves)]
        return (treedef.unflatten([p for p, _ in pairs]),
                {"inner": inner, "slow": treedef.unflatten([s for _, s in pairs]), "step": t})

    # -- Paddle's stateful protocol ---------------------------------------------------------------
    def _params(self, what: str) -> list:
        if self._parameter_list is None:
            raise ValueError(f"LookAhead.{what}(): the inner optimizer was made without parameters; pass "
                             "parameters=model.parameters() to it (or use the functional init/step)")
        return self._parameter_list

    def _step_in_place(self) -> None:
        params = self._params("step")
        with_grad = [p for p in params if not p.stop_gradient and p.grad is not None]
        self.inner_optimizer.step()
        self._t += 1
        t = self._t
        with padax.no_grad():
            for p in with_grad:
                if t == 1 or id(p) not in self._slow:
                    self._slow[id(p)] = p * 1
                if t % self.k == 0:
                    mixed = (self.alpha * p + (1.0 - self.alpha) * self._slow[id(p)]).astype(p.dtype)
                    p.set_value(mixed)
                    self._slow[id(p)] = mixed * 1

    def minimize(self, loss: Any, startup_program: Any = None, parameters: Any = None,
                 no_grad_set: Any = None) -> tuple[list, list]:
        """Paddle's dygraph `minimize(loss)` after `loss.backward()`: one `step()`."""
        pairs = [(p, p.grad) for p in self._params("minimize") if not p.stop_gradient and p.grad is not None]
        self._step_in_place()
        return [], pairs

    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Reset the parameters' gradients (the inner optimizer's clear_grad)."""
        self.inner_optimizer.clear_grad(set_to_zero)

    clear_gradients = clear_grad

    def get_lr(self) -> float:
        """The inner optimizer's learning rate."""
        return self.inner_optimizer.get_lr()

    def set_lr(self, value: float) -> None:
        """Set the inner optimizer's fixed learning rate."""
        self.inner_optimizer.set_lr(value)

    def state_dict(self) -> dict:
        """The inner optimizer's state_dict plus the step count and the slow weights (`<param name>_slow_0`)."""
        out = dict(self.inner_optimizer.state_dict())
        out["lookahead_step"] = self._t
        for p in self._parameter_list or []:
            if id(p) in self._slow:
                out[f"{p.name}_slow_0"] = self._slow[id(p)]
        return out

    def __repr__(self) -> str:
        return f"LookAhead({self.inner_optimizer!r}, alpha={self.alpha}, k={self.k})"
