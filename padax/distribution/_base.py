"""The base classes of padax.distribution: Distribution (a pytree) and ExponentialFamily.

A distribution keeps its parameters as arrays (the pytree children) and everything else
(batch and event shapes, flags) as static data, so distributions pass through jit, vmap and
grad like any other pytree. Sampling takes an explicit `key` (a padax.random key) or, when
it is omitted, draws a subkey from Paddle's global seed (`padax.seed`; eager only).
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import padax
from padax import dtypes, numpy as pnp, stop_gradient, tree as tree_util
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.numpy import _dtypes as D
from padax.numpy._util import to_array
from padax.random._state import next_key


class Distribution:
    """The base of all distributions: batch/event shapes, sampling with keys, prob = exp(log_prob).

    Subclasses call `_params(...)` with their parameter arrays and `super().__init__(batch_shape,
    event_shape)`; they are registered as pytrees automatically.

    Args:
        batch_shape, event_shape: the shapes of independent parameter sets and of one draw (default scalar).

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Normal(padax.zeros([2]), padax.ones([2]))
        >>> d.batch_shape, d.event_shape
        ((2,), ())
        >>> key = padax.random.key(0)
        >>> bool((d.sample([3], key=key) == d.sample([3], key=key)).all())
        True
        >>> float(d.prob(padax.zeros([2]))[0])
        0.3989
        >>> padax.jit(lambda d, x: d.log_prob(x))(d, padax.zeros([2])).tolist()
        [-0.9189, -0.9189]
    """

    _children: tuple[str, ...] = ()

    def __init__(self, batch_shape: Sequence[int] = (), event_shape: Sequence[int] = ()) -> None:
        self._batch_shape = tuple(int(d) for d in batch_shape)
        self._event_shape = tuple(int(d) for d in event_shape)

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        tree_util.register_node(cls, _flatten, lambda aux, ch, cls=cls: _unflatten(cls, aux, ch))

    # -- shapes -------------------------------------------------------------------------------
    @property
    def batch_shape(self) -> tuple[int, ...]:
        """Shape of a batch of independent, not identically distributed draws."""
        return self._batch_shape

    @property
    def event_shape(self) -> tuple[int, ...]:
        """Shape of one draw (() for scalar distributions)."""
        return self._event_shape

    def _extend_shape(self, sample_shape: Sequence[int]) -> tuple[int, ...]:
        return _shape(sample_shape) + self._batch_shape + self._event_shape

    # -- the interface --------------------------------------------------------------------------
    @property
    def mean(self) -> Any:
        """Mean of the distribution."""
        raise _undefined(self, "mean")

    @property
    def variance(self) -> Any:
        """Variance of the distribution."""
        raise _undefined(self, "variance")

    @property
    def stddev(self) -> Any:
        """Standard deviation (the square root of the variance)."""
        return pnp.sqrt(self.variance)

    def sample(self, shape: Sequence[int] = (), key: Any = None) -> Any:
        """Draws of shape `shape + batch_shape + event_shape`, without gradients."""
        return stop_gradient(self.rsample(shape, key))

    def rsample(self, shape: Sequence[int] = (), key: Any = None) -> Any:
        """Reparameterised draws: differentiable with respect to the parameters."""
        raise _undefined(self, "rsample (it has no reparameterised sampler)")

    def log_prob(self, value: Any) -> Any:
        """log density (or log mass) at value."""
        raise _undefined(self, "log_prob")

    def prob(self, value: Any) -> Any:
        """density (or mass) at value: exp(log_prob(value))."""
        return pnp.exp(self.log_prob(value))

    def probs(self, value: Any) -> Any:
        """Paddle's older name of `prob`."""
        return self.prob(value)

    def entropy(self) -> Any:
        """Shannon entropy in nats."""
        raise _undefined(self, "entropy")

    def kl_divergence(self, other: "Distribution") -> Any:
        """KL(self || other), by the registered rule for the pair of types (see register_kl)."""
        # read at call time: padax.distribution.kl imports this module
        return padax.distribution.kl_divergence(self, other)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(batch_shape={list(self._batch_shape)}, event_shape={list(self._event_shape)})"

    # -- helpers for subclasses ---------------------------------------------------------------------
    def _params(self, **params: Any) -> None:
        """Store the parameter arrays (the pytree children)."""
        self._children = tuple(params)
        for k, v in params.items():
            setattr(self, k, v)

    def _key(self, key: Any, op: str) -> Any:
        if key is not None:
            return key
        return next_key(f"distribution.{type(self).__name__}.{op}")

    def _dtype(self) -> np.dtype:
        return getattr(self, self._children[0]).aval.dtype


def _undefined(d: Distribution, what: str) -> TypeError:
    return TypeError(f"{type(d).__name__} does not define {what}")


def _flatten(d: Any):  # a Distribution or Transform: children named by `_children`, the rest static
    names = d._children
    static = tuple(sorted((k, v) for k, v in d.__dict__.items() if k not in names and k != "_children"))
    return [getattr(d, n) for n in names], (names, static)


def _unflatten(cls, aux, children):
    names, static = aux
    obj = object.__new__(cls)
    obj.__dict__.update(dict(static))
    obj._children = names
    for n, c in zip(names, children):
        setattr(obj, n, c)
    return obj


tree_util.register_node(Distribution, _flatten, lambda aux, ch: _unflatten(Distribution, aux, ch))


def _shape(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    try:
        return tuple(int(d) for d in shape)
    except TypeError:
        raise op_type_error("sample", f"shape must be a sequence of ints, got {shape!r}") from None


def as_params(op: str, *values: Any, dtype: Any = None) -> list[Any]:
    """Parameters as arrays of one floating dtype, broadcast together (Python numbers take the
    default float dtype; integer arrays become it; numpy/padax float arrays keep theirs)."""
    if dtype is None:
        # Python numbers are weak: they take the arrays' float dtype (the default float alone)
        pairs = [D.dtype_weak(v) for v in values]
        dt = D.result_type_of(pairs) if pairs else D.default_float()
        dtype = dt if dtypes.is_floating(dt) else D.default_float()
    arrs = [to_array(v, dtype) for v in values]
    shape = np.broadcast_shapes(*(a.aval.shape for a in arrs)) if arrs else ()
    return [pnp.broadcast_to(a, shape) if a.aval.shape != shape else a for a in arrs]


def as_value(value: Any, like: Any) -> Any:
    """A value to evaluate at, in the parameters' dtype."""
    return to_array(value, like.aval.dtype)


def check_param(dist: str, name: str, value: Any, ok: Any, what: str, validate: bool) -> None:
    """With validate_args=True and a concrete value: a ValueError naming the parameter unless ok."""
    if not validate or isinstance(value, Tracer) or isinstance(ok, Tracer):
        return
    if not bool(np.all(np.asarray(ok))):
        raise op_value_error(dist, f"parameter {name} must be {what}, got {np.asarray(value)!r}")


class ExponentialFamily(Distribution):
    """Distributions of the exponential family p(x) = h(x) exp(<eta, T(x)> - A(eta)).

    Subclasses give `_natural_parameters` (a tuple of arrays), `_log_normalizer(*eta)` and
    `_mean_carrier_measure` (E[log h(X)]); entropy (and the generic KL rule) follow from the
    gradient of the log normaliser (the mean of the sufficient statistics).

    Args:
        batch_shape, event_shape: the shapes of independent parameter sets and of one draw (default scalar).

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Exponential(2.0)
        >>> isinstance(d, distribution.ExponentialFamily)
        True
        >>> float(d.entropy())
        0.3069
    """

    @property
    def _natural_parameters(self) -> tuple:
        raise _undefined(self, "_natural_parameters")

    def _log_normalizer(self, *natural: Any) -> Any:
        raise _undefined(self, "_log_normalizer")

    @property
    def _mean_carrier_measure(self) -> Any:
        raise _undefined(self, "_mean_carrier_measure")

    def entropy(self) -> Any:
        """H = A(eta) - <eta, grad A(eta)> - E[log h(X)]."""
        eta = tuple(self._natural_parameters)
        a, f_vjp = padax.vjp(lambda *e: self._log_normalizer(*e), *eta)
        grads = f_vjp(pnp.ones_like(a))
        out = a - self._mean_carrier_measure
        for e, g in zip(eta, grads):
            out = out - _sum_event(e * g, len(self.event_shape))
        return out


def _sum_event(x: Any, n: int) -> Any:
    return pnp.sum(x, axis=tuple(range(-n, 0))) if n else x


__all__ = ["Distribution", "ExponentialFamily"]
