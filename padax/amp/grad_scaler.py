"""`GradScaler`: dynamic loss scaling, as Paddle's, in an eager object form and as a pure state transition.

Pure form (inside a jitted step; no host synchronisation):

    scaler = padax.amp.GradScaler(init_loss_scaling=2.**16)
    sstate = scaler.init_state()                     # {'scale', 'incr_count', 'decr_count'}
    def step(params, opt_state, sstate, x, y):
        grads = padax.grad(lambda p: scaler.scale_loss(loss_fn(p, x, y), sstate))(params)
        return scaler.apply_gradients(opt, params, grads, opt_state, sstate)   # -> params, opt_state, sstate

`apply_gradients` unscales the gradients, and when any of them holds an inf/nan keeps the
parameters and optimizer state unchanged (a `where`, so the step stays one program) and lowers
the scale; after `incr_every_n_steps` finite steps in a row it raises it (Paddle's rule).

Eager form (Paddle's methods; padax optimizers are pure, so parameters, gradients and optimizer
state are passed in and the new ones returned):

    loss = scaler.scale(loss_fn(params))             # grads of this are scaled
    params, opt_state = scaler.step(opt, params, grads, opt_state); scaler.update()
    # or: params, opt_state = scaler.minimize(opt, params, grads, opt_state)
"""
from __future__ import annotations

import enum
from typing import Any

import numpy as np

import padax
from padax import tree as tree_util


def all_finite(tree: Any) -> Any:
    """A scalar bool Tensor: whether every floating-point leaf of `tree` is free of inf and nan.

    Args:
        tree: a pytree; only its floating-point array leaves are checked.

    Returns:
        A scalar bool Tensor.

    Examples:
        >>> import padax
        >>> padax.amp.all_finite({"a": padax.to_tensor([1.0, 2.0]), "b": padax.to_tensor([3.0])}).tolist()
        True
        >>> padax.amp.all_finite([padax.to_tensor([1.0, float("inf")])]).tolist()
        False
    """
    ok = padax.to_tensor(True)
    for leaf in tree_util.leaves(tree):
        if hasattr(leaf, "dtype") and padax.is_floating_point(leaf):
            ok = ok & padax.all(padax.isfinite(leaf))
    return ok


class OptimizerState(enum.Enum):
    """Where an optimizer is between two `update()` calls (Paddle's OptimizerState).

    Args:
        value: the member's value (members are usually reached by name, e.g. `OptimizerState.INIT`).

    Returns:
        The `OptimizerState` member.

    Examples:
        >>> import padax
        >>> [s.name for s in padax.amp.OptimizerState]
        ['INIT', 'UNSCALED', 'STEPPED']
    """
    INIT = 0
    UNSCALED = 1
    STEPPED = 2


class AmpScaler:
    """Dynamic loss scaling (Paddle's `AmpScaler`; `GradScaler` has Paddle's GradScaler defaults).

    Args:
        enable: False makes every method a pass-through (scale 1).
        init_loss_scaling: the starting loss scale.
        incr_ratio, decr_ratio: factors the scale is multiplied by when it grows / shrinks.
        incr_every_n_steps: finite steps in a row before the scale grows.
        decr_every_n_nan_or_inf: steps with an inf/nan before it shrinks.
        use_dynamic_loss_scaling: False keeps the scale fixed.

    Examples:
        >>> import padax
        >>> scaler = padax.amp.AmpScaler(init_loss_scaling=1024.0, incr_every_n_steps=2)
        >>> state = scaler.init_state()
        >>> float(scaler.scale_loss(padax.to_tensor(0.5), state))  # the loss times the scale
        512.0
        >>> grads, found_inf = scaler.unscale_grads({"w": padax.to_tensor([2048.0])}, state)
        >>> grads["w"].tolist(), found_inf.tolist()
        ([2.0], False)
        >>> state = scaler.update_state(state, found_inf)  # one finite step: not yet grown
        >>> state = scaler.update_state(state, found_inf)  # two in a row: the scale doubles
        >>> float(state["scale"]), float(scaler.update_state(state, padax.to_tensor(True))["scale"])  # an inf halves it
        (2048.0, 1024.0)
    """

    def __init__(self, enable: bool = True, init_loss_scaling: float = 2.0 ** 15, incr_ratio: float = 2.0,
                 decr_ratio: float = 0.5, incr_every_n_steps: int = 1000, decr_every_n_nan_or_inf: int = 1,
                 use_dynamic_loss_scaling: bool = True):
        name = type(self).__name__
        if enable:
            if not incr_ratio > 1.0:
                raise ValueError(f"{name}: incr_ratio must be > 1.0, got {incr_ratio}")
            if not decr_ratio < 1.0:
                raise ValueError(f"{name}: decr_ratio must be < 1.0, got {decr_ratio}")
            for n, v in (("incr_every_n_steps", incr_every_n_steps), ("decr_every_n_nan_or_inf", decr_every_n_nan_or_inf)):
                if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                    raise ValueError(f"{name}: {n} must be a positive integer, got {v!r}")
        self._enable = bool(enable)
        self._init_loss_scaling = float(init_loss_scaling) if enable else 1.0
        self._incr_ratio, self._decr_ratio = float(incr_ratio), float(decr_ratio)
        self._incr_every_n_steps, self._decr_every_n_nan_or_inf = int(incr_every_n_steps), int(decr_every_n_nan_or_inf)
        self._use_dynamic_loss_scaling = bool(use_dynamic_loss_scaling) and self._enable
        self._state = self.init_state()
        self._found_inf: Any = None         # of the last unscale (eager form)
        self._cache_found_inf: Any = None   # of the last step
        self._optimizer_states: dict[int, OptimizerState] = {}

    # -- the pure form ------------------------------------------------------------------------
    def init_state(self) -> dict:
        """The scaler's state pytree: the loss scale (float32) and the two counters (int32)."""
        return {"scale": padax.to_tensor(np.float32(self._init_loss_scaling)),
                "incr_count": padax.to_tensor(np.int32(0)), "decr_count": padax.to_tensor(np.int32(0))}

    def scale_loss(self, loss: Any, state: dict) -> Any:
        """loss * scale (unchanged when the scaler is disabled)."""
        if not self._enable:
            return loss
        return loss * state["scale"].astype(loss.dtype)

    def unscale_grads(self, grads: Any, state: dict) -> tuple[Any, Any]:
        """(grads / scale, found_inf): each gradient divided by the scale in float32 and cast back to its dtype."""
        if not self._enable:
            return grads, padax.to_tensor(False)
        inv = 1.0 / state["scale"]

        def unscale(g):
            if g is None or not padax.is_floating_point(g):
                return g
            return (g.astype("float32") * inv).astype(g.dtype) if g.dtype != padax.float64 else g * inv.astype(g.dtype)
        out = tree_util.map(unscale, grads)
        return out, ~all_finite(out)

    def update_state(self, state: dict, found_inf: Any) -> dict:
        """Paddle's dynamic scaling rule as a pure transition: after `decr_every_n_nan_or_inf` steps with an
        inf/nan the scale is multiplied by decr_ratio; after `incr_every_n_steps` finite steps in a row by incr_ratio."""
        if not self._use_dynamic_loss_scaling:
            return state
        scale, incr, decr = state["scale"], state["incr_count"], state["decr_count"]
        decr_bad = decr + 1
        shrink = decr_bad >= self._decr_every_n_nan_or_inf
        incr_ok = incr + 1
        grow = incr_ok >= self._incr_every_n_steps
        zero = padax.zeros_like(incr)
        new_scale = padax.where(found_inf, padax.where(shrink, scale * self._decr_ratio, scale),
                                padax.where(grow, scale * self._incr_ratio, scale))
        return {"scale": new_scale.astype(scale.dtype),
                "incr_count": padax.where(found_inf | grow, zero, incr_ok),
                "decr_count": padax.where(found_inf, padax.where(shrink, zero, decr_bad), zero)}

    def apply_gradients(self, optimizer: Any, params: Any, grads: Any, opt_state: Any, state: dict
                        ) -> tuple[Any, Any, dict]:
        """Unscale `grads`, take the optimizer step unless a gradient holds an inf/nan (then parameters and
        optimizer state stay as they were), and update the scale. Returns (params, opt_state, state)."""
        if not self._enable:
            new_params, new_opt_state = optimizer.step(params, grads, opt_state)
            return new_params, new_opt_state, state
        grads, found_inf = self.unscale_grads(grads, state)
        new_params, new_opt_state = self._step_unless(found_inf, optimizer, params, grads, opt_state)
        return new_params, new_opt_state, self.update_state(state, found_inf)

    @staticmethod
    def _step_unless(found_inf: Any, optimizer: Any, params: Any, grads: Any, opt_state: Any) -> tuple[Any, Any]:
        new = optimizer.step(params, grads, opt_state)
        keep = lambda n, o: o if n is None else padax.where(found_inf, o, n)  # noqa: E731
        return tree_util.map(keep, new, (params, opt_state), is_leaf=lambda x: x is None)

    # -- Paddle's eager methods -------------------------------------------------------------------
    def scale(self, var: Any) -> Any:
        """The loss multiplied by the current scale."""
        return self.scale_loss(var, self._state)

    def _unscale(self, optimizer: Any, grads: Any) -> Any:
        key = id(optimizer)
        st = self._optimizer_states.get(key, OptimizerState.INIT)
        if st is OptimizerState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if st is OptimizerState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        grads, self._found_inf = self.unscale_grads(grads, self._state)
        self._optimizer_states[key] = OptimizerState.UNSCALED
        return grads

    def unscale_(self, optimizer: Any, grads: Any) -> Any:
        """Unscale `grads` for `optimizer` (e.g. before clipping) and return them; `step` will not unscale again."""
        if not self._enable:
            return grads
        return self._unscale(optimizer, grads)

    def step(self, optimizer: Any, params: Any, grads: Any, opt_state: Any) -> tuple[Any, Any]:
        """Unscale (unless `unscale_` did) and step, skipping the step when a gradient holds an inf/nan.
        Returns (params, opt_state); call `update()` afterwards."""
        if not self._enable:
            return optimizer.step(params, grads, opt_state)
        key = id(optimizer)
        st = self._optimizer_states.get(key, OptimizerState.INIT)
        if st is OptimizerState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if st is OptimizerState.INIT:
            grads = self._unscale(optimizer, grads)
        params, opt_state = self._step_unless(self._found_inf, optimizer, params, grads, opt_state)
        self._cache_found_inf = self._found_inf
        self._optimizer_states[key] = OptimizerState.STEPPED
        if not self._use_dynamic_loss_scaling:
            self._optimizer_states = {}
        return params, opt_state

    def update(self) -> None:
        """Update the loss scale from the last step's inf/nan check."""
        if not self._enable or not self._use_dynamic_loss_scaling:
            return
        if self._cache_found_inf is not None:
            self._state = self.update_state(self._state, self._cache_found_inf)
        self._optimizer_states = {}

    def minimize(self, optimizer: Any, params: Any, grads: Any, opt_state: Any) -> tuple[Any, Any]:
        """`step` and `update` in one call. Returns (params, opt_state)."""
        if not self._enable:
            return optimizer.step(params, grads, opt_state)
        key = id(optimizer)
        if self._optimizer_states.get(key, OptimizerState.INIT) is OptimizerState.INIT:
            grads = self._unscale(optimizer, grads)
        params, opt_state = self._step_unless(self._found_inf, optimizer, params, grads, opt_state)
        self._cache_found_inf = self._found_inf
        if self._use_dynamic_loss_scaling:
            self._state = self.update_state(self._state, self._found_inf)
        self._optimizer_states = {}
        return params, opt_state

    # -- accessors ----------------------------------------------------------------------------
    def is_enable(self) -> bool:
        return self._enable

    def is_use_dynamic_loss_scaling(self) -> bool:
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self) -> float:
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling: float) -> None:
        """Set the initial scale; the current scale restarts from it (as Paddle)."""
        self._init_loss_scaling = float(new_init_loss_scaling)
        self._state = dict(self._state, scale=padax.to_tensor(np.float32(self._init_loss_scaling)))

    def get_incr_ratio(self) -> float:
        return self._incr_ratio

    def set_incr_ratio(self, new_incr_ratio: float) -> None:
        if not new_incr_ratio > 1.0:
            raise ValueError(f"{type(self).__name__}: incr_ratio must be > 1.0, got {new_incr_ratio}")
        self._incr_ratio = float(new_incr_ratio)

    def get_decr_ratio(self) -> float:
        return self._decr_ratio

    def set_decr_ratio(self, new_decr_ratio: float) -> None:
        if not new_decr_ratio < 1.0:
            raise ValueError(f"{type(self).__name__}: decr_ratio must be < 1.0, got {new_decr_ratio}")
        self._decr_ratio = float(new_decr_ratio)

    def get_incr_every_n_steps(self) -> int:
        return self._incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps: int) -> None:
        self._incr_every_n_steps = int(new_incr_every_n_steps)

    def get_decr_every_n_nan_or_inf(self) -> int:
        return self._decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf: int) -> None:
        self._decr_every_n_nan_or_inf = int(new_decr_every_n_nan_or_inf)

    def get_loss_scaling(self) -> Any:
        """The current loss scale (a float32 Tensor)."""
        return self._state["scale"]

    def state_dict(self) -> dict:
        """Paddle's scaler state dict (empty when disabled): scale (a float32 array of shape [1]), ratios,
        intervals, counters and the dynamic-scaling flag."""
        if not self._enable:
            return {}
        return {"scale": np.asarray(self._state["scale"], np.float32).reshape(1),
                "incr_ratio": self._incr_ratio, "decr_ratio": self._decr_ratio,
                "incr_every_n_steps": self._incr_every_n_steps,
                "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf,
                "incr_count": int(np.asarray(self._state["incr_count"])),
                "decr_count": int(np.asarray(self._state["decr_count"])),
                "use_dynamic_loss_scaling": self._use_dynamic_loss_scaling}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore a `state_dict()`."""
        if not self._enable:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The input state dict is empty, possibly because it was saved from a disabled "
                               "instance of GradScaler.")
        missing = {"scale", "incr_ratio", "decr_ratio", "incr_every_n_steps", "decr_every_n_nan_or_inf",
                   "incr_count", "decr_count", "use_dynamic_loss_scaling"} - set(state_dict)
        if missing:
            raise KeyError(f"{type(self).__name__}.load_state_dict: missing keys {sorted(missing)}")
        self._init_loss_scaling = float(np.asarray(state_dict["scale"]).reshape(-1)[0])
        self._incr_ratio, self._decr_ratio = float(state_dict["incr_ratio"]), float(state_dict["decr_ratio"])
        self._incr_every_n_steps = int(state_dict["incr_every_n_steps"])
        self._decr_every_n_nan_or_inf = int(state_dict["decr_every_n_nan_or_inf"])
        self._use_dynamic_loss_scaling = bool(state_dict["use_dynamic_loss_scaling"])
        self._state = {"scale": padax.to_tensor(np.float32(self._init_loss_scaling)),
                       "incr_count": padax.to_tensor(np.int32(state_dict["incr_count"])),
                       "decr_count": padax.to_tensor(np.int32(state_dict["decr_count"]))}


class GradScaler(AmpScaler):
    """Paddle's `paddle.amp.GradScaler` (defaults: scale 2**16, grown every 2000 finite steps).

    Args:
        enable, init_loss_scaling, incr_ratio, decr_ratio, incr_every_n_steps, decr_every_n_nan_or_inf,
        use_dynamic_loss_scaling: as `AmpScaler` (defaults: scale 2**16, grown after 2000 finite steps).

    Examples:
        >>> import padax
        >>> scaler = padax.amp.GradScaler(init_loss_scaling=1024.0)
        >>> opt = padax.optimizer.SGD(learning_rate=0.1)
        >>> w = padax.to_tensor([1.0])
        >>> opt_state, sstate = opt.init(w), scaler.init_state()
        >>> g = padax.grad(lambda p: scaler.scale_loss(padax.sum(p * p), sstate))(w)
        >>> g.tolist()  # 2 w, scaled by 1024
        [2048.0]
        >>> w, opt_state, sstate = scaler.apply_gradients(opt, w, g, opt_state, sstate)
        >>> w.tolist(), float(sstate["scale"])  # unscaled step: 1 - 0.1 * 2
        ([0.8], 1024.0)
        >>> w2, _, sstate = scaler.apply_gradients(opt, w, padax.to_tensor([float("inf")]), opt_state, sstate)
        >>> w2.tolist(), float(sstate["scale"])  # an inf gradient: step skipped, scale halved
        ([0.8], 512.0)
    """

    def __init__(self, enable: bool = True, init_loss_scaling: float = 2.0 ** 16, incr_ratio: float = 2.0,
                 decr_ratio: float = 0.5, incr_every_n_steps: int = 2000, decr_every_n_nan_or_inf: int = 1,
                 use_dynamic_loss_scaling: bool = True):
        super().__init__(enable, init_loss_scaling, incr_ratio, decr_ratio, incr_every_n_steps,
                         decr_every_n_nan_or_inf, use_dynamic_loss_scaling)
