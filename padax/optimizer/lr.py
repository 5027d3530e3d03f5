"""Learning-rate schedules with Paddle's names (`padax.optimizer.lr`).

Each schedule is a pure function of a step count, `value(step)`, written with
padax ops so it also works on a traced step inside `jit`: an optimizer given a
schedule evaluates it at its own step count, which lives in the optimizer
state. Paddle's eager protocol is there too: `scheduler()` is the rate at
`last_epoch`, `scheduler.step()` advances it (pass `lr=scheduler()` to an
optimizer's `step` to drive it per epoch from Python).
"""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np

import padax.numpy as pnp
from padax.core.errors import require_members as _require_members


def _positive_int(op: str, name: str, value: Any) -> int:
    """`value` as a positive int: a float (2.5 steps) is a TypeError, as in Paddle, not silently truncated."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{op}: {name} must be an int, got {type(value).__name__} {value!r}")
    if value < 1:
        raise ValueError(f"{op}: {name} must be a positive integer, got {value}")
    return int(value)


def _decaying(op: str, gamma: float) -> float:
    """A decay factor below 1 (Paddle refuses a gamma >= 1, which would grow the rate)."""
    if not gamma < 1.0:
        raise ValueError(f"{op}: gamma must be < 1.0, got {gamma}")
    return float(gamma)


def _xp(step: Any):
    """numpy for a host step count, padax.numpy for a Tensor or traced one: one formula serves both."""
    if isinstance(step, (int, float, np.integer, np.floating)):
        return np
    return pnp


class LRScheduler:
    """Base class: subclasses define `value(step)` (a host step gives a numpy scalar, a traced one a traced
    scalar), or, as in Paddle, override `get_lr()` to compute the rate from `self.last_epoch` and
    `self.base_lr`. A `get_lr` schedule is evaluated in Python, so inside a jitted step pass its
    current rate to the optimizer: `opt.step(params, grads, state, lr=scheduler())`.

    Args:
        learning_rate: the base rate, kept as `base_lr`.
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        The schedule; subclasses give the rate through `value(step)` or `get_lr()`.

    Examples:
        >>> from padax.optimizer import lr
        >>> class Halving(lr.LRScheduler):
        ...     def get_lr(self):
        ...         return self.base_lr * 0.5 ** self.last_epoch
        ...
        >>> sched = Halving(learning_rate=1.0)
        >>> rates = []
        >>> for _ in range(3):
        ...     rates.append(sched())
        ...     sched.step()
        ...
        >>> rates
        [1.0, 0.5, 0.25]
    """

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if "get_lr" in vars(cls) and not hasattr(cls, "value"):
            cls.value = _value_from_get_lr  # Paddle's protocol: the rate comes from get_lr()
        _require_members(cls, "learning-rate schedule", {"value": "value(step) or get_lr()"})

    def __init__(self, learning_rate: float = 0.1, last_epoch: int = -1, verbose: bool = False):
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, (int, float, np.integer, np.floating)):
            raise TypeError(f"{type(self).__name__}: learning_rate must be a float, got {type(learning_rate).__name__}")
        if learning_rate < 0:
            raise ValueError(f"{type(self).__name__}: learning_rate must be >= 0, got {learning_rate}")
        self.base_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self.step()

    def get_lr(self) -> float:
        return float(self.value(max(self.last_epoch, 0)))

    def __call__(self) -> float:
        return self.last_lr

    def step(self, epoch: int | None = None) -> None:
        """Advance to `epoch` (default: the next one) and recompute `last_lr`."""
        self.last_epoch = self.last_epoch + 1 if epoch is None else int(epoch)
        self.last_lr = self.get_lr()
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to {self.last_lr}.")

    def state_keys(self) -> None:
        """Paddle's hook: set `self.keys`, the attributes `state_dict()` saves (last_epoch and last_lr); a
        subclass with more state overrides it."""
        self.keys = ["last_epoch", "last_lr"]

    def state_dict(self) -> dict:
        """The attributes named by `state_keys()` (arrays as numpy), as Paddle."""
        self.state_keys()
        return {k: v.numpy() if hasattr(v, "numpy") else v for k, v in ((k, getattr(self, k)) for k in self.keys)}

    def set_state_dict(self, state: dict) -> None:
        """Restore a `state_dict()`; a key of `state_keys()` missing from it is an error."""
        self.state_keys()
        missing = [k for k in self.keys if k not in state]
        if missing:
            raise KeyError(f"{type(self).__name__}.set_state_dict: the state has no {missing} (it holds "
                           f"{sorted(state)}); was it saved from a different schedule?")
        for k in self.keys:
            setattr(self, k, state[k])
        self.last_epoch, self.last_lr = int(self.last_epoch), float(self.last_lr)

    set_dict = set_state_dict  # Paddle's older name

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_lr={self.base_lr}, last_epoch={self.last_epoch})"


def _value_from_get_lr(self, step: Any) -> float:
    """The rate of a `get_lr()` schedule at a host step count (get_lr reads self.last_epoch)."""
    if not isinstance(step, (int, np.integer)):
        try:
            step = int(step)
        except TypeError:  # a traced step inside jit
            raise TypeError(f"{type(self).__name__} defines get_lr() (Paddle's eager protocol), which cannot be "
                            "evaluated at a traced step inside jit: pass the current rate to the optimizer, "
                            "`opt.step(params, grads, state, lr=scheduler())`, or define value(step) with padax "
                            "ops") from None
    saved = self.last_epoch
    self.last_epoch = int(step)
    try:
        return float(self.get_lr())
    finally:
        self.last_epoch = saved


class StepDecay(LRScheduler):
    """lr * gamma ** (step // step_size).

    Args:
        learning_rate: the initial (base) rate.
        step_size: steps between two decays.
        gamma: factor applied at each decay.
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.StepDecay(0.1, step_size=2, gamma=0.5)
        >>> [float(sched.value(t)) for t in range(6)]
        [0.1, 0.1, 0.05, 0.05, 0.025, 0.025]
    """

    def __init__(self, learning_rate: float, step_size: int, gamma: float = 0.1, last_epoch: int = -1,
                 verbose: bool = False):
        self.step_size, self.gamma = _positive_int("StepDecay", "step_size", step_size), _decaying("StepDecay", gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def value(self, step):
        xp = _xp(step)
        return self.base_lr * xp.power(self.gamma, xp.floor_divide(step, self.step_size))


class MultiStepDecay(LRScheduler):
    """lr * gamma ** (number of milestones passed).

    Args:
        learning_rate: the initial (base) rate.
        milestones: increasing step counts at which the rate is multiplied by `gamma`.
        gamma: factor applied at each milestone.
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.MultiStepDecay(0.1, milestones=[2, 4], gamma=0.1)
        >>> [float(sched.value(t)) for t in range(5)]
        [0.1, 0.1, 0.01, 0.01, 0.001]
    """

    def __init__(self, learning_rate: float, milestones: Sequence[int], gamma: float = 0.1, last_epoch: int = -1,
                 verbose: bool = False):
        if not isinstance(milestones, (list, tuple)):
            raise TypeError(f"MultiStepDecay: milestones must be a list or tuple, got {type(milestones).__name__}")
        if any(a >= b for a, b in zip(milestones, milestones[1:])):
            raise ValueError(f"MultiStepDecay: milestones must strictly increase, got {list(milestones)}")
        self.milestones, self.gamma = [int(m) for m in milestones], _decaying("MultiStepDecay", gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def value(self, step):
        xp = _xp(step)
        return self.base_lr * xp.power(self.gamma, xp.sum(xp.asarray(self.milestones) <= step))


class ExponentialDecay(LRScheduler):
    """lr * gamma ** step.

    Args:
        learning_rate: the initial (base) rate.
        gamma: factor applied every step.
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.ExponentialDecay(1.0, gamma=0.5)
        >>> [float(sched.value(t)) for t in range(4)]
        [1.0, 0.5, 0.25, 0.125]
    """

    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False):
        if not 0.0 < gamma < 1.0:
            raise ValueError(f"ExponentialDecay: gamma must be in (0, 1), got {gamma}")
        self.gamma = float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def value(self, step):
        return self.base_lr * _xp(step).power(self.gamma, step)


class CosineAnnealingDecay(LRScheduler):
    """eta_min + (lr - eta_min) * (1 + cos(pi * step / T_max)) / 2.

    Args:
        learning_rate: the initial (base) rate.
        T_max: steps of the half cosine from `learning_rate` down to `eta_min`.
        eta_min: the lowest rate.
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.CosineAnnealingDecay(1.0, T_max=4)
        >>> [float(sched.value(t)) for t in range(5)]
        [1.0, 0.8536, 0.5, 0.1464, 0.0]
    """

    def __init__(self, learning_rate: float, T_max: int, eta_min: float = 0.0, last_epoch: int = -1,
                 verbose: bool = False):
        if isinstance(eta_min, bool) or not isinstance(eta_min, (int, float, np.integer, np.floating)):
            raise TypeError(f"CosineAnnealingDecay: eta_min must be a float, got {type(eta_min).__name__}")
        self.T_max, self.eta_min = _positive_int("CosineAnnealingDecay", "T_max", T_max), float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def value(self, step):
        c = _xp(step).cos(step * (math.pi / self.T_max))
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + c) / 2


class PolynomialDecay(LRScheduler):
    """(lr - end_lr) * (1 - min(step, decay_steps) / decay_steps) ** power + end_lr; with `cycle` the decay
    restarts: (1 - step / (decay_steps * n)) with n = max(ceil(step / decay_steps), 1).

    Args:
        learning_rate: the initial (base) rate.
        decay_steps: steps from `learning_rate` to `end_lr`; the rate then stays at `end_lr`.
        end_lr: the final rate.
        power: exponent of the polynomial (1 is linear).
        cycle: restart the decay every decay_steps (each time over a horizon one decay_steps longer).
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.PolynomialDecay(1.0, decay_steps=4, end_lr=0.0)
        >>> [float(sched.value(t)) for t in range(6)]
        [1.0, 0.75, 0.5, 0.25, 0.0, 0.0]
    """

    def __init__(self, learning_rate: float, decay_steps: int, end_lr: float = 0.0001, power: float = 1.0,
                 cycle: bool = False, last_epoch: int = -1, verbose: bool = False):
        if not power > 0:
            raise ValueError(f"PolynomialDecay: power must be > 0, got {power}")
        self.decay_steps = _positive_int("PolynomialDecay", "decay_steps", decay_steps)
        self.end_lr, self.power = float(end_lr), float(power)
        self.cycle = bool(cycle)
        super().__init__(learning_rate, last_epoch, verbose)

    def value(self, step):
        xp = _xp(step)
        if self.cycle:
            cycles = -xp.floor_divide(-step, self.decay_steps)  # ceil(step / decay_steps), exact on integers
            horizon = self.decay_steps * xp.maximum(cycles, 1)
            frac = 1 - step / horizon
        else:
            frac = 1 - xp.minimum(step, self.decay_steps) / self.decay_steps
        return (self.base_lr - self.end_lr) * frac ** self.power + self.end_lr


class PiecewiseDecay(LRScheduler):
    """values[i] while step < boundaries[i] (values has one more entry than boundaries).

    Args:
        boundaries: increasing step counts where the rate changes.
        values: the rates, one more than `boundaries`.
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.PiecewiseDecay(boundaries=[2, 4], values=[1.0, 0.5, 0.1])
        >>> [float(sched.value(t)) for t in range(6)]
        [1.0, 1.0, 0.5, 0.5, 0.1, 0.1]
    """

    def __init__(self, boundaries: Sequence[int], values: Sequence[float], last_epoch: int = -1,
                 verbose: bool = False):
        if len(values) != len(boundaries) + 1:
            raise ValueError(f"PiecewiseDecay: need len(values) == len(boundaries) + 1, got {len(values)} "
                             f"values and {len(boundaries)} boundaries")
        self.boundaries, self.values = [int(b) for b in boundaries], [float(v) for v in values]
        super().__init__(self.values[0], last_epoch, verbose)

    def value(self, step):
        xp = _xp(step)
        return xp.asarray(self.values)[xp.sum(xp.asarray(self.boundaries) <= step)]


class LinearWarmup(LRScheduler):
    """start_lr -> end_lr linearly over warmup_steps, then `learning_rate` (a number or a schedule
    that then counts from the end of the warmup).

    Args:
        learning_rate: the rate after the warmup, a number or a schedule (counted from the warmup's end).
        warmup_steps: length of the warmup (>= 1).
        start_lr, end_lr: the rates at the warmup's start and end.
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.LinearWarmup(0.5, warmup_steps=4, start_lr=0.0, end_lr=0.5)
        >>> [float(sched.value(t)) for t in range(6)]
        [0.0, 0.125, 0.25, 0.375, 0.5, 0.5]
    """

    def __init__(self, learning_rate: float | LRScheduler, warmup_steps: int, start_lr: float, end_lr: float,
                 last_epoch: int = -1, verbose: bool = False):
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, (int, float, LRScheduler)):
            raise TypeError(f"LinearWarmup: learning_rate must be a float or a schedule, got "
                            f"{type(learning_rate).__name__}")
        if not end_lr > start_lr:
            raise ValueError(f"LinearWarmup: end_lr ({end_lr}) must be greater than start_lr ({start_lr})")
        self.after = learning_rate
        self.warmup_steps = _positive_int("LinearWarmup", "warmup_steps", warmup_steps)
        self.start_lr, self.end_lr = float(start_lr), float(end_lr)
        super().__init__(start_lr, last_epoch, verbose)  # base_lr is start_lr, as in Paddle

    def step(self, epoch: int | None = None) -> None:
        """Advance (see LRScheduler.step); past the warmup an inner schedule is moved to the steps since its end,
        as Paddle does, so that its own state (and this one's state_dict) follows."""
        super().step(epoch)
        if isinstance(self.after, LRScheduler) and self.last_epoch >= self.warmup_steps:
            self.after.step(self.last_epoch - self.warmup_steps)

    def state_dict(self) -> dict:
        """Paddle's layout: with an inner schedule, its state_dict under "LinearWarmup_LR"."""
        state = super().state_dict()
        if isinstance(self.after, LRScheduler):
            state["LinearWarmup_LR"] = self.after.state_dict()
        return state

    def set_state_dict(self, state: dict) -> None:
        super().set_state_dict(state)
        if isinstance(self.after, LRScheduler) and "LinearWarmup_LR" in state:
            self.after.set_state_dict(state["LinearWarmup_LR"])

    def _after(self, step):
        if isinstance(self.after, LRScheduler):
            return self.after.value(step - self.warmup_steps)
        return float(self.after)

    def value(self, step):
        xp = _xp(step)
        warm = self.start_lr + (self.end_lr - self.start_lr) * step / self.warmup_steps
        return xp.where(step < self.warmup_steps, warm, self._after(xp.maximum(step, self.warmup_steps)))


class NoamDecay(LRScheduler):
    """The Transformer's schedule: lr * d_model^-0.5 * min(step^-0.5, step * warmup_steps^-1.5).

    Args:
        d_model: the model width; the rate scales with d_model ** -0.5.
        warmup_steps: steps of linear growth before the inverse-square-root decay.
        learning_rate: a constant factor on the whole schedule.
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.NoamDecay(d_model=16, warmup_steps=2)
        >>> [float(sched.value(t)) for t in range(1, 5)]
        [0.0884, 0.1768, 0.1443, 0.125]
    """

    def __init__(self, d_model: int, warmup_steps: int, learning_rate: float = 1.0, last_epoch: int = -1,
                 verbose: bool = False):
        if d_model <= 0:
            raise ValueError(f"NoamDecay: d_model must be > 0, got {d_model}")
        if warmup_steps <= 0:
            raise ValueError(f"NoamDecay: warmup_steps must be > 0, got {warmup_steps}")
        self.d_model, self.warmup_steps = d_model, warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def value(self, step):
        xp = _xp(step)
        a = xp.power(xp.maximum(step, 1) * 1.0, -0.5)  # 1 at step 0, as in Paddle
        b = self.warmup_steps ** -1.5 * step
        return self.base_lr * self.d_model ** -0.5 * xp.minimum(a, b)


class NaturalExpDecay(LRScheduler):
    """lr * exp(-gamma * step).

    Args:
        learning_rate: the initial (base) rate.
        gamma: decay rate in exp(-gamma * step).
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.NaturalExpDecay(1.0, gamma=0.5)
        >>> [float(sched.value(t)) for t in range(3)]
        [1.0, 0.6065, 0.3679]
    """

    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False):
        if gamma <= 0:
            raise ValueError(f"NaturalExpDecay: gamma must be > 0 so that the rate decays, got {gamma}")
        self.gamma = float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def value(self, step):
        return self.base_lr * _xp(step).exp(-self.gamma * step)


class InverseTimeDecay(LRScheduler):
    """lr / (1 + gamma * step).

    Args:
        learning_rate: the initial (base) rate.
        gamma: decay rate in 1 / (1 + gamma * step).
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.InverseTimeDecay(1.0, gamma=1.0)
        >>> [float(sched.value(t)) for t in range(4)]
        [1.0, 0.5, 0.3333, 0.25]
    """

    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False):
        self.gamma = float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def value(self, step):
        return self.base_lr / (1 + self.gamma * step)


def _check_callable(op: str, fn: Any) -> Any:
    if not callable(fn):
        raise TypeError(f"{op}: lr_lambda must be a function of the epoch, got {type(fn).__name__}")
    return fn


class LambdaDecay(LRScheduler):
    """lr * lr_lambda(step) (jittable when lr_lambda is plain arithmetic on the step).

    Args:
        learning_rate: the initial (base) rate.
        lr_lambda: function of the step count giving the factor on `learning_rate`.
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.LambdaDecay(0.5, lr_lambda=lambda step: 0.9 ** step)
        >>> [float(sched.value(t)) for t in range(3)]
        [0.5, 0.45, 0.405]
    """

    def __init__(self, learning_rate: float, lr_lambda: Callable[[Any], Any], last_epoch: int = -1,
                 verbose: bool = False):
        self.lr_lambda = _check_callable("LambdaDecay", lr_lambda)
        super().__init__(learning_rate, last_epoch, verbose)

    def value(self, step):
        return self.base_lr * self.lr_lambda(step)


class MultiplicativeDecay(LRScheduler):
    """lr * lr_lambda(1) * lr_lambda(2) * ... * lr_lambda(step) (evaluated in Python: pass `lr=scheduler()`
    to the optimizer inside jit).

    Args:
        learning_rate: the initial (base) rate.
        lr_lambda: function of the epoch (1, 2, ...) giving that epoch's factor on the previous rate.
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate and `step()` to advance it (evaluated in Python, so inside jit
        pass `lr=scheduler()` to the optimizer).

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.MultiplicativeDecay(1.0, lr_lambda=lambda epoch: 0.5)
        >>> rates = []
        >>> for _ in range(4):
        ...     rates.append(sched())
        ...     sched.step()
        ...
        >>> rates
        [1.0, 0.5, 0.25, 0.125]
    """

    def __init__(self, learning_rate: float, lr_lambda: Callable[[int], float], last_epoch: int = -1,
                 verbose: bool = False):
        self.lr_lambda = _check_callable("MultiplicativeDecay", lr_lambda)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        rate = self.base_lr
        for epoch in range(1, self.last_epoch + 1):
            rate = rate * self.lr_lambda(epoch)
        return float(rate)


class LinearLR(LRScheduler):
    """lr * factor, the factor going linearly from start_factor to end_factor over total_steps, then held.

    Args:
        learning_rate: the initial (base) rate.
        total_steps: steps over which the factor moves from `start_factor` to `end_factor`.
        start_factor: the first factor, in (0, 1].
        end_factor: the final factor, in [0, 1].
        last_epoch: the number of steps already taken; -1 starts fresh (the constructor steps once, to 0).
        verbose: print the new rate at every `step()`.

    Returns:
        A schedule: call it for the current rate, `step()` advances it, `value(step)` gives the rate at any
        (also traced) step.

    Examples:
        >>> from padax.optimizer import lr
        >>> sched = lr.LinearLR(1.0, total_steps=4, start_factor=0.5, end_factor=1.0)
        >>> [float(sched.value(t)) for t in range(6)]
        [0.5, 0.625, 0.75, 0.875, 1.0, 1.0]
    """

    def __init__(self, learning_rate: float, total_steps: int, start_factor: float = 1.0 / 3,
                 end_factor: float = 1.0, last_epoch: int = -1, verbose: bool = False):
        if not 0 < start_factor <= 1:
            raise ValueError(f"LinearLR: start_factor must be in (0, 1], got {start_factor}")
        if not 0 <= end_factor <= 1:
            raise ValueError(f"LinearLR: end_factor must be in [0, 1], got {end_factor}")
        if total_steps <= 0:
            raise ValueError(f"LinearLR: total_steps must be > 0, got {total_steps}")
        self.start_factor, self.end_factor, self.total_steps = float(start_factor), float(end_factor), total_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def value(self, step):
        frac = _xp(step).minimum(step, self.total_steps) / self.total_steps
        return self.base_lr * (self.start_factor + (self.end_factor - self.start_factor) * frac)


from padax.optimizer.lr_cyclic import CosineAnnealingWarmRestarts, CyclicLR, OneCycleLR, ReduceOnPlateau  # noqa: E402,F401
