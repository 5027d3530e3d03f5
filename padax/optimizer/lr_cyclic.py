"""Cyclic and metric-driven schedules with Paddle's names: OneCycleLR, CyclicLR, CosineAnnealingWarmRestarts
(pure functions of the step, jittable) and ReduceOnPlateau (driven by a metric from Python).

Re-exported by `padax.optimizer.lr`.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from padax.optimizer.lr import LRScheduler, _xp


class OneCycleLR(LRScheduler):
    """Warm up from max_learning_rate / divide_factor to max_learning_rate over phase_pct of total_steps, then
    anneal (cosine or linear) down to end_learning_rate; three_phase first comes back to the initial rate.

    Args:
        max_learning_rate: the peak rate.
        total_steps: length of the whole schedule.
        divide_factor: the initial rate is max_learning_rate / divide_factor.
        end_learning_rate: the final rate.
        phase_pct: fraction of total_steps spent warming up.
        anneal_strategy: 'cos' or 'linear'.
        three_phase: come back down to the initial rate before annealing to `end_learning_rate`.
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.OneCycleLR(max_learning_rate=1.0, total_steps=10, end_learning_rate=0.0)
        >>> [float(sched.value(t)) for t in (0, 3, 6, 9)]
        [0.04, 0.9505, 0.3887, 0.0]
    """

    def __init__(self, max_learning_rate: float, total_steps: int, divide_factor: float = 25.0,
                 end_learning_rate: float = 0.0001, phase_pct: float = 0.3, anneal_strategy: str = "cos",
                 three_phase: bool = False, last_epoch: int = -1, verbose: bool = False):
        if max_learning_rate < 0 or end_learning_rate < 0:
            raise ValueError("OneCycleLR: max_learning_rate and end_learning_rate must be >= 0")
        if isinstance(total_steps, bool) or not isinstance(total_steps, int) or total_steps <= 0:
            raise ValueError(f"OneCycleLR: total_steps must be a positive integer, got {total_steps!r}")
        if not 0 <= phase_pct <= 1 or (three_phase and phase_pct >= 0.5):
            raise ValueError(f"OneCycleLR: phase_pct must be in [0, 1] (below 0.5 with three_phase), got {phase_pct}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"OneCycleLR: anneal_strategy must be 'cos' or 'linear', got {anneal_strategy!r}")
        self.total_steps, self.anneal_strategy = total_steps, anneal_strategy
        initial, top, low = max_learning_rate / float(divide_factor), float(max_learning_rate), float(end_learning_rate)
        up_end = phase_pct * total_steps - 1
        if three_phase:
            ends = [up_end, 2 * phase_pct * total_steps - 2, total_steps - 1]
            rates = [initial, top, initial, low]
        else:
            ends = [up_end, total_steps - 1]
            rates = [initial, top, low]
        self._starts = [0.0] + ends[:-1]
        self._ends, self._rates = ends, rates
        super().__init__(initial, last_epoch, verbose)

    def _anneal(self, xp, start, end, pct):
        if self.anneal_strategy == "cos":
            return end + (start - end) / 2.0 * (xp.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def value(self, step):
        xp = _xp(step)
        if xp is np and step > self.total_steps:
            raise ValueError(f"OneCycleLR: step {step} is past total_steps ({self.total_steps})")
        out = None
        for i in reversed(range(len(self._ends))):  # the first phase whose end the step has not passed wins
            size = self._ends[i] - self._starts[i]
            rate = self._anneal(xp, self._rates[i], self._rates[i + 1], (step - self._starts[i]) / size)
            out = rate if out is None else xp.where(step <= self._ends[i], rate, out)
        return out


class CyclicLR(LRScheduler):
    """Triangular cycles between base_learning_rate and max_learning_rate (step_size_up steps up,
    step_size_down down), the amplitude scaled by mode: 'triangular' (1), 'triangular2' (halved every cycle),
    'exp_range' (exp_gamma ** step), or scale_fn(cycle or step, per scale_mode).

    Args:
        base_learning_rate, max_learning_rate: the bottom and top of each cycle.
        step_size_up: steps from bottom to top.
        step_size_down: steps from top to bottom (None: step_size_up).
        mode: 'triangular', 'triangular2' (amplitude halved every cycle) or 'exp_range' (times exp_gamma ** step).
        exp_gamma: the base of 'exp_range'.
        scale_fn: custom amplitude factor, replacing `mode`; called with the cycle number or the step.
        scale_mode: what scale_fn receives, 'cycle' or 'iterations'.
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.CyclicLR(base_learning_rate=0.1, max_learning_rate=0.5, step_size_up=2)
        >>> [float(sched.value(t)) for t in range(6)]
        [0.1, 0.3, 0.5, 0.3, 0.1, 0.3]
    """

    def __init__(self, base_learning_rate: float, max_learning_rate: float, step_size_up: int,
                 step_size_down: int | None = None, mode: str = "triangular", exp_gamma: float = 1.0,
                 scale_fn: Callable[[Any], Any] | None = None, scale_mode: str = "cycle", last_epoch: int = -1,
                 verbose: bool = False):
        for name, size in (("step_size_up", step_size_up), ("step_size_down", step_size_down)):
            if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size <= 0):
                raise ValueError(f"CyclicLR: {name} must be a positive integer, got {size!r}")
        if max_learning_rate < 0:
            raise ValueError(f"CyclicLR: max_learning_rate must be >= 0, got {max_learning_rate}")
        if scale_fn is None and mode not in ("triangular", "triangular2", "exp_range"):
            raise ValueError(f"CyclicLR: mode must be 'triangular', 'triangular2' or 'exp_range' (or give "
                             f"scale_fn), got {mode!r}")
        if scale_mode not in ("cycle", "iterations"):
            raise ValueError(f"CyclicLR: scale_mode must be 'cycle' or 'iterations', got {scale_mode!r}")
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.cycle_size, self.step_up_pct = up + down, up / (up + down)
        self.max_lr, self.mode, self.gamma = float(max_learning_rate), mode, float(exp_gamma)
        self.amplitude = self.max_lr - base_learning_rate
        if scale_fn is not None:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        else:
            self.scale_fn = None
            self.scale_mode = "iterations" if mode == "exp_range" else "cycle"
        super().__init__(base_learning_rate, last_epoch, verbose)

    def _scale(self, xp, x):
        if self.scale_fn is not None:
            return self.scale_fn(x)
        if self.mode == "triangular2":
            return 1 / xp.power(2.0, x - 1)
        if self.mode == "exp_range":
            return xp.power(self.gamma, x)
        return 1.0

    def value(self, step):
        xp = _xp(step)
        cycle = 1 + xp.floor_divide(step, self.cycle_size)
        pct = 1.0 + step / self.cycle_size - cycle
        factor = xp.where(pct <= self.step_up_pct, pct / self.step_up_pct, (1 - pct) / (1 - self.step_up_pct))
        return self.base_lr + self.amplitude * factor * self._scale(xp, cycle if self.scale_mode == "cycle" else step)


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from lr to eta_min over T_0 steps, restarting; each period T_mult times the previous.

    Args:
        learning_rate: the initial (base) rate.
        T_0: steps of the first cosine period.
        T_mult: each period is T_mult times the previous one (integer >= 1).
        eta_min: the lowest rate.
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.CosineAnnealingWarmRestarts(1.0, T_0=2)
        >>> [float(sched.value(t)) for t in range(5)]
        [1.0, 0.5, 1.0, 0.5, 1.0]
    """

    def __init__(self, learning_rate: float, T_0: int, T_mult: int = 1, eta_min: float = 0.0, last_epoch: int = -1,
                 verbose: bool = False):
        if isinstance(T_0, bool) or not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"CosineAnnealingWarmRestarts: T_0 must be a positive integer, got {T_0!r}")
        if isinstance(T_mult, bool) or not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"CosineAnnealingWarmRestarts: T_mult must be an integer >= 1, got {T_mult!r}")
        self.T_0, self.T_mult, self.eta_min = T_0, T_mult, float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def _position(self, xp, step):
        """(steps into the current period, the period's length)."""
        if self.T_mult == 1:
            return xp.remainder(step, self.T_0), self.T_0
        if xp is np:  # exact integer walk on the host
            start, length = 0, self.T_0
            while step >= start + length:
                start, length = start + length, length * self.T_mult
            return step - start, length
        m = self.T_mult
        n = xp.floor(xp.log(step / self.T_0 * (m - 1) + 1) / math.log(m))
        for fix in (-1.0, 1.0):  # one correction each way for rounding at a period boundary
            start = self.T_0 * (xp.power(float(m), n) - 1) / (m - 1)
            n = xp.where((step < start) if fix < 0 else (step >= start + self.T_0 * xp.power(float(m), n)), n + fix, n)
        start = self.T_0 * (xp.power(float(m), n) - 1) / (m - 1)
        return step - start, self.T_0 * xp.power(float(m), n)

    def value(self, step):
        xp = _xp(step)
        cur, length = self._position(xp, step)
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + xp.cos(math.pi * cur / length)) / 2


class ReduceOnPlateau(LRScheduler):
    """Multiply the rate by `factor` once a metric has not improved for `patience` epochs (then wait `cooldown`
    epochs), never below min_lr. Driven from Python: `scheduler.step(metric)` after each evaluation, and
    `opt.step(..., lr=scheduler())`; the rate is not a function of the step count, so it cannot be read
    inside jit.

    Args:
        learning_rate: the initial (base) rate.
        mode: 'min' (lower metric is better) or 'max'.
        factor: multiplier (< 1) on each reduction.
        patience: epochs without improvement tolerated before reducing.
        threshold, threshold_mode: the smallest change that counts as improvement, relative ('rel') or absolute ('abs').
        cooldown: epochs to wait after a reduction before counting again.
        min_lr: the rate never goes below this.
        epsilon: reductions smaller than this are skipped.
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule driven by `step(metric)`; call it for the current rate (not usable inside jit).

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.ReduceOnPlateau(1.0, factor=0.5, patience=1)
        >>> for loss in [3.0, 2.0, 2.0, 2.0, 2.0]:
        ...     sched.step(loss)
        ...
        >>> sched()
        0.5
    """

    def __init__(self, learning_rate: float, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0, min_lr: float = 0,
                 epsilon: float = 1e-8, verbose: bool = False):
        if mode not in ("min", "max"):
            raise ValueError(f"ReduceOnPlateau: mode must be 'min' or 'max', got {mode!r}")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"ReduceOnPlateau: threshold_mode must be 'rel' or 'abs', got {threshold_mode!r}")
        if factor >= 1.0:
            raise ValueError(f"ReduceOnPlateau: factor must be < 1 (the rate is multiplied by it), got {factor}")
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, (int, float)):
            raise TypeError(f"ReduceOnPlateau: learning_rate must be a float, got {type(learning_rate).__name__}")
        self.mode, self.factor, self.patience, self.threshold = mode, float(factor), int(patience), float(threshold)
        self.threshold_mode, self.cooldown, self.min_lr, self.epsilon = threshold_mode, int(cooldown), min_lr, epsilon
        self.cooldown_counter, self.best, self.num_bad_epochs = 0, None, 0
        self.base_lr = self.last_lr = float(learning_rate)
        self.last_epoch, self.verbose = 0, verbose

    def value(self, step):
        try:
            int(step)
        except TypeError:  # a traced step inside jit
            raise TypeError("ReduceOnPlateau follows a metric, not the step count, so it cannot be evaluated inside "
                            "jit: pass its current rate, `opt.step(params, grads, state, lr=scheduler())`") from None
        return self.last_lr

    def get_lr(self) -> float:
        return self.last_lr

    def step(self, metrics: Any = None, epoch: int | None = None) -> None:  # type: ignore[override]
        """Record this epoch's metric (a number or a one-element array) and lower the rate if it has plateaued."""
        if metrics is None:
            raise TypeError("ReduceOnPlateau.step needs the metric to watch, e.g. scheduler.step(eval_loss)")
        value = np.asarray(metrics)
        if value.size != 1:
            raise ValueError(f"ReduceOnPlateau.step: the metric must be a single number, got shape {value.shape}")
        value = float(value.reshape(()))
        self.last_epoch = self.last_epoch + 1 if epoch is None else int(epoch)
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._is_better(value, self.best):
            self.best, self.num_bad_epochs = value, 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                if self.verbose:
                    print(f"Epoch {self.last_epoch}: ReduceOnPlateau set learning rate to {self.last_lr}.")

    def _is_better(self, current: float, best: float) -> bool:
        margin = best * self.threshold if self.threshold_mode == "rel" else self.threshold
        return current < best - margin if self.mode == "min" else current > best + margin

    def state_dict(self) -> dict:
        return {"cooldown_counter": self.cooldown_counter, "best": self.best, "num_bad_epochs": self.num_bad_epochs,
                "last_epoch": self.last_epoch, "last_lr": self.last_lr}

    def set_state_dict(self, state: dict) -> None:
        self.cooldown_counter, self.best = int(state["cooldown_counter"]), state["best"]
        self.num_bad_epochs, self.last_epoch = int(state["num_bad_epochs"]), int(state["last_epoch"])
        self.last_lr = float(state["last_lr"])
