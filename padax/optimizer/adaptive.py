"""More of Paddle's optimizers as pure state transitions: Adamax, Adadelta, NAdam, RAdam, Lamb, ASGD, Rprop.

Each `_update` is Paddle's kernel for one parameter (checked step by step against Paddle in
tests/optimizer/test_more_optimizers.py); `t` is the 1-based step count, traced under jit.
"""
from __future__ import annotations

from typing import Any, Callable

import padax
from padax.optimizer.optimizers import Optimizer, _compute_dtype, _float32_slot, _step_float64, _upcast


def _nonnegative(op: str, name: str, value: float) -> float:
    """A hyperparameter Paddle requires to be >= 0 (a negative epsilon can divide by zero)."""
    if not value >= 0:
        raise ValueError(f"{op}: {name} must be >= 0, got {value}")
    return float(value)


def _check_beta(op: str, name: str, b: float) -> float:
    if not 0.0 <= b < 1.0:
        raise ValueError(f"{op}: {name} must be in [0, 1), got {b}")
    return float(b)


class Adamax(Optimizer):
    """m <- b1 m + (1 - b1) g; u <- max(b2 u + eps, |g|); p <- p - lr / (1 - b1^t) * m / u.

    Args:
        beta1: decay of the first moment; beta2: decay of the infinity norm.
        epsilon: added to the decayed infinity norm.

    Examples:
        >>> import padax
        >>> opt = padax.optimizer.Adamax(learning_rate=0.1)
        >>> w = padax.to_tensor([1.0, -2.0])
        >>> w, state = opt.step(w, padax.to_tensor([0.5, -0.25]), opt.init(w))
        >>> w.tolist()  # m = 0.1 g, u = |g|: the first step is lr * sign(g)
        [0.9, -1.9]
        >>> state["inf_norm"].tolist()
        [0.5, 0.25]
    """

    slots = ("moment", "inf_norm")

    def __init__(self, learning_rate=0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.beta1, self.beta2 = _check_beta("Adamax", "beta1", beta1), _check_beta("Adamax", "beta2", beta2)
        self.epsilon = _nonnegative("Adamax", "epsilon", epsilon)

    def _slot_init(self, slot, p):
        return _float32_slot(p)

    def _update(self, p, g, slots, lr, t):
        p, g = _upcast(p, g)
        m = self.beta1 * slots["moment"] + (1 - self.beta1) * g
        u = padax.maximum(self.beta2 * slots["inf_norm"] + self.epsilon, padax.abs(g))
        lr_t = (lr / (1 - self.beta1 ** _step_float64(t))).astype(_compute_dtype(p))
        return p - lr_t * m / u, {"moment": m, "inf_norm": u}


class Adadelta(Optimizer):
    """E[g^2] <- rho E[g^2] + (1 - rho) g^2; d = -sqrt((E[dx^2] + eps) / (E[g^2] + eps)) g;
    E[dx^2] <- rho E[dx^2] + (1 - rho) d^2; p <- p + lr d.

    Args:
        rho: decay rate of both running averages.
        epsilon: added inside both roots.

    Examples:
        >>> import padax
        >>> opt = padax.optimizer.Adadelta(learning_rate=1.0, rho=0.95, epsilon=1e-6)
        >>> w = padax.to_tensor([1.0])
        >>> w, state = opt.step(w, padax.to_tensor([0.5]), opt.init(w))
        >>> w.tolist()  # 1 - sqrt(1e-6 / (0.05 * 0.25 + 1e-6)) * 0.5
        [0.995528]
    """

    slots = ("avg_squared_grad", "avg_squared_update")

    def __init__(self, learning_rate=0.001, epsilon: float = 1e-6, rho: float = 0.95, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.epsilon, self.rho = float(epsilon), float(rho)

    def _update(self, p, g, slots, lr, t):
        sq_g = self.rho * slots["avg_squared_grad"] + (1 - self.rho) * g * g
        d = -padax.sqrt((slots["avg_squared_update"] + self.epsilon) / (sq_g + self.epsilon)) * g
        sq_d = self.rho * slots["avg_squared_update"] + (1 - self.rho) * d * d
        return p + lr * d, {"avg_squared_grad": sq_g, "avg_squared_update": sq_d}


class NAdam(Optimizer):
    """Adam with Nesterov momentum and the momentum schedule mu_t = b1 (1 - 0.96^(t psi) / 2)
    (psi = momentum_decay); the product of the mu's is kept per parameter.

    Args:
        beta1, beta2, epsilon: as `Adam`.
        momentum_decay: psi of the momentum schedule (>= 0).

    Examples:
        >>> import padax
        >>> opt = padax.optimizer.NAdam(learning_rate=0.1)
        >>> w = padax.to_tensor([1.0, -2.0])
        >>> w, state = opt.step(w, padax.to_tensor([0.5, -0.5]), opt.init(w))
        >>> w.tolist()
        [0.894355, -1.894355]
        >>> round(float(state["mu_product"]), 5)  # mu_1 = 0.9 * (1 - 0.96 ** 0.004 / 2)
        0.45007
    """

    slots = ("moment1", "moment2", "mu_product")

    def __init__(self, learning_rate=0.002, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 momentum_decay: float = 0.004, parameters=None, weight_decay=None, grad_clip=None, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.beta1, self.beta2 = _check_beta("NAdam", "beta1", beta1), _check_beta("NAdam", "beta2", beta2)
        if momentum_decay < 0:
            raise ValueError(f"NAdam: momentum_decay must be >= 0, got {momentum_decay}")
        if isinstance(learning_rate, (int, float)):
            _nonnegative("NAdam", "learning_rate", learning_rate)
        self.epsilon, self.momentum_decay = _nonnegative("NAdam", "epsilon", epsilon), float(momentum_decay)

    def _slot_init(self, slot, p):
        return padax.ones([], _compute_dtype(p)) if slot == "mu_product" else _float32_slot(p)

    def _update(self, p, g, slots, lr, t):
        p, g = _upcast(p, g)
        tf, dt = _step_float64(t), _compute_dtype(p)
        mu_t = self.beta1 * (1 - 0.5 * 0.96 ** (tf * self.momentum_decay))
        mu_next = self.beta1 * (1 - 0.5 * 0.96 ** ((tf + 1) * self.momentum_decay))
        prod = slots["mu_product"].astype("float64") * mu_t
        m = self.beta1 * slots["moment1"] + (1 - self.beta1) * g
        v = self.beta2 * slots["moment2"] + (1 - self.beta2) * g * g
        c_m, c_g = (mu_next / (1 - prod * mu_next)).astype(dt), ((1 - mu_t) / (1 - prod)).astype(dt)
        v_hat = v / (1 - self.beta2 ** tf).astype(dt)
        new_p = p - lr * (c_m * m + c_g * g) / (padax.sqrt(v_hat) + self.epsilon)
        return new_p, {"moment1": m, "moment2": v, "mu_product": prod.astype(dt)}


class RAdam(Optimizer):
    """Rectified Adam: Adam's step scaled by the variance rectification r_t once rho_t > 5, plain momentum
    SGD (bias-corrected) before.

    Args:
        beta1, beta2, epsilon: as `Adam`.

    Examples:
        >>> import padax
        >>> opt = padax.optimizer.RAdam(learning_rate=0.1)
        >>> w = padax.to_tensor([1.0])
        >>> w, state = opt.step(w, padax.to_tensor([0.5]), opt.init(w))
        >>> w.tolist()  # early steps (rho_t <= 5) are bias-corrected momentum SGD: 1 - 0.1 * 0.5
        [0.95]
    """

    slots = ("moment1", "moment2")

    def __init__(self, learning_rate=0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.beta1, self.beta2 = _check_beta("RAdam", "beta1", beta1), _check_beta("RAdam", "beta2", beta2)
        self.epsilon = _nonnegative("RAdam", "epsilon", epsilon)

    def _slot_init(self, slot, p):
        return _float32_slot(p)

    def _update(self, p, g, slots, lr, t):
        p, g = _upcast(p, g)
        m = self.beta1 * slots["moment1"] + (1 - self.beta1) * g
        v = self.beta2 * slots["moment2"] + (1 - self.beta2) * g * g
        # the step's scalars in float64: rho_t is a small difference of two large numbers (~2 / (1 - beta2))
        tf, dt = _step_float64(t), _compute_dtype(p)
        b2t = self.beta2 ** tf
        rho_inf = 2 / (1 - self.beta2) - 1
        rho_t = rho_inf - 2 * tf * b2t / (1 - b2t)
        rect = padax.sqrt(padax.maximum((rho_t - 4) * (rho_t - 2) * rho_inf, 0.0)
                          / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
        m_hat = m / (1 - self.beta1 ** tf).astype(dt)
        adaptive = padax.sqrt(1 - b2t).astype(dt) / (padax.sqrt(v) + self.epsilon)
        step = padax.where(rho_t > 5, m_hat * rect.astype(dt) * adaptive, m_hat)
        return p - lr * step, {"moment1": m, "moment2": v}


class Lamb(Optimizer):
    """Adam's bias-corrected direction plus decoupled decay, r = m_hat / (sqrt(v_hat) + eps) + wd p, scaled per
    parameter by the trust ratio ||p|| / ||r||: p <- p - lr * ratio * r.

    `exclude_from_weight_decay_fn(info)` gets each parameter's ParamInfo (with its `name`; None outside a
    layer) and returns True to exempt it from the decay. With lamb_weight_decay = 0 the trust ratio is
    used only when `always_adapt`.

    Args:
        lamb_weight_decay: the decoupled decay added to the update direction.
        beta1, beta2, epsilon: as `Adam`.
        exclude_from_weight_decay_fn: info -> True exempts a parameter from the decay.
        always_adapt: use the trust ratio even when lamb_weight_decay is 0.

    Examples:
        >>> import padax
        >>> opt = padax.optimizer.Lamb(learning_rate=0.1, lamb_weight_decay=0.0, always_adapt=True)
        >>> w = padax.to_tensor([3.0, 4.0])
        >>> w, state = opt.step(w, padax.to_tensor([1.0, 1.0]), opt.init(w))
        >>> w.tolist()  # r = m_hat / sqrt(v_hat) = [1, 1], scaled by ||w|| / ||r|| = 5 / sqrt(2)
        [2.64645, 3.64645]
    """

    slots = ("moment1", "moment2")
    _uses_param_info = True

    def __init__(self, learning_rate=0.001, lamb_weight_decay: float = 0.01, beta1: float = 0.9,
                 beta2: float = 0.999, epsilon: float = 1e-6, parameters=None, grad_clip=None,
                 exclude_from_weight_decay_fn: Callable[[Any], bool] | None = None, multi_precision: bool = False,
                 always_adapt: bool = False, name=None):
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        self.multi_precision = bool(multi_precision)
        self.beta1, self.beta2 = _check_beta("Lamb", "beta1", beta1), _check_beta("Lamb", "beta2", beta2)
        self.epsilon, self.lamb_weight_decay = float(epsilon), float(lamb_weight_decay)
        self.exclude_from_weight_decay_fn, self.always_adapt = exclude_from_weight_decay_fn, bool(always_adapt)

    def _slot_init(self, slot, p):
        return _float32_slot(p)

    def _update(self, p, g, slots, lr, t, info=None):
        p, g = _upcast(p, g)
        tf, dt = _step_float64(t), _compute_dtype(p)
        m = self.beta1 * slots["moment1"] + (1 - self.beta1) * g
        v = self.beta2 * slots["moment2"] + (1 - self.beta2) * g * g
        m_hat = m / (1 - self.beta1 ** tf).astype(dt)
        v_hat = v / (1 - self.beta2 ** tf).astype(dt)
        wd = self.lamb_weight_decay
        if wd and self.exclude_from_weight_decay_fn is not None and self.exclude_from_weight_decay_fn(info):
            wd = 0.0
        r = m_hat / (padax.sqrt(v_hat) + self.epsilon) + wd * p
        if wd or self.always_adapt:
            p_norm, r_norm = padax.linalg.norm(p.reshape([-1])), padax.linalg.norm(r.reshape([-1]))
            ratio = padax.where((p_norm > 0) & (r_norm > 0), p_norm / padax.where(r_norm > 0, r_norm, 1.0), 1.0)
            r = ratio * r
        return p - lr * r, {"moment1": m, "moment2": v}


class ASGD(Optimizer):
    """Stochastic average gradient over the last `batch_num` gradients: slot y keeps them (one row per batch
    position), d their sum; p <- p - lr * d / min(t, batch_num).

    Args:
        batch_num: how many recent gradients are averaged.

    Examples:
        >>> import padax
        >>> opt = padax.optimizer.ASGD(learning_rate=0.1, batch_num=2)
        >>> w = padax.to_tensor([1.0])
        >>> state = opt.init(w)
        >>> w, state = opt.step(w, padax.to_tensor([1.0]), state)  # mean of [1]: w = 1 - 0.1
        >>> w, state = opt.step(w, padax.to_tensor([3.0]), state)  # mean of [1, 3]: w = 0.9 - 0.2
        >>> w.tolist(), state["d"].tolist()
        ([0.7], [4.0])
    """

    slots = ("d", "ys")

    def __init__(self, learning_rate=0.001, batch_num: int = 1, parameters=None, weight_decay=None,
                 grad_clip=None, multi_precision: bool = False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.multi_precision = bool(multi_precision)
        if isinstance(batch_num, bool) or not isinstance(batch_num, int) or batch_num < 1:
            raise ValueError(f"ASGD: batch_num must be a positive integer, got {batch_num!r}")
        self.batch_num = batch_num

    def _slot_init(self, slot, p):
        return padax.zeros([self.batch_num, *p.shape], p.dtype) if slot == "ys" else padax.zeros_like(p)

    def _update(self, p, g, slots, lr, t):
        n = self.batch_num
        here = (padax.arange(n) == (t - 1) % n).reshape([n] + [1] * p.ndim)  # the row of this batch position
        ys = slots["ys"]
        d = slots["d"] - padax.sum(padax.where(here, ys, 0.0), axis=0) + g
        seen = padax.minimum(t, n).astype(p.dtype)
        return p - lr * d / seen, {"d": d, "ys": padax.where(here, g, ys)}


class Rprop(Optimizer):
    """Resilient backpropagation: a per-element step size grows by etas[1] while the gradient keeps its sign
    and shrinks by etas[0] (that step skipped) when it flips, within learning_rate_range;
    p <- p - sign(g) * step. The initial step size is the learning rate.

    Args:
        learning_rate: the initial per-element step size.
        learning_rate_range: (min, max) bounds of the step size.
        etas: (shrink, grow) factors, 0 < shrink < 1 < grow.

    Examples:
        >>> import padax
        >>> opt = padax.optimizer.Rprop(learning_rate=0.1, etas=(0.5, 1.2))
        >>> w, g = padax.to_tensor([1.0]), padax.to_tensor([0.5])
        >>> state = opt.init(w)
        >>> w, state = opt.step(w, g, state)  # first step: lr * sign(g)
        >>> w, state = opt.step(w, g, state)  # same sign: the step grows to 0.12
        >>> w.tolist(), state["step_size"].tolist()
        ([0.78], [0.12])
    """

    slots = ("prev_grad", "step_size")

    def __init__(self, learning_rate=0.001, learning_rate_range: tuple[float, float] = (1e-5, 50),
                 parameters=None, etas: tuple[float, float] = (0.5, 1.2), grad_clip=None,
                 multi_precision: bool = False, name=None):
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        self.multi_precision = bool(multi_precision)
        lo, hi = (float(x) for x in learning_rate_range)
        eta_minus, eta_plus = (float(x) for x in etas)
        if not 0 < lo <= hi:
            raise ValueError(f"Rprop: learning_rate_range must be (min, max) with 0 < min <= max, got "
                             f"{learning_rate_range}")
        if not 0 < eta_minus < 1 < eta_plus:
            raise ValueError(f"Rprop: etas must be (eta_minus, eta_plus) with 0 < eta_minus < 1 < eta_plus, "
                             f"got {etas}")
        if isinstance(learning_rate, (int, float)) and not lo <= learning_rate <= hi:
            raise ValueError(f"Rprop: the learning rate (the initial step size) {learning_rate} must lie in "
                             f"learning_rate_range {learning_rate_range}")
        self.lr_min, self.lr_max, self.eta_minus, self.eta_plus = lo, hi, eta_minus, eta_plus

    def _slot_init(self, slot, p):
        if slot == "step_size":
            return padax.full_like(p, self.lr_at(0))
        return padax.zeros_like(p)

    def _update(self, p, g, slots, lr, t):
        sign = g * slots["prev_grad"]
        size = slots["step_size"]
        size = padax.where(sign > 0, padax.minimum(size * self.eta_plus, self.lr_max),
                           padax.where(sign < 0, padax.maximum(size * self.eta_minus, self.lr_min), size))
        g = padax.where(sign < 0, 0.0, g)
        return p - padax.sign(g) * size, {"prev_grad": g, "step_size": size}


__all__ = ["ASGD", "Adadelta", "Adamax", "Lamb", "NAdam", "RAdam", "Rprop"]
