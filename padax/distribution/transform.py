"""Transforms of random variables (Paddle's padax.distribution.transform): forward, inverse and
the log-determinant of the Jacobian, with the event ranks of their domain and codomain.

Transforms are pytrees (their parameters are children), so transformed distributions pass
through jit and vmap. Calling a transform on an array applies it; on a distribution it gives a
TransformedDistribution; on another transform, their composition.
"""
from __future__ import annotations

import enum
import math
from typing import Any, Sequence

import numpy as np

import padax
from padax import lax, numpy as pnp, tree as tree_util
from padax.core.errors import op_value_error
from padax.distribution._base import (  # pytree nodes keyed by their `_children`
    Distribution,
    _flatten,
    _unflatten,
    as_params,
)
from padax.numpy._util import to_array


class Type(enum.Enum):
    """Mapping types of transforms: bijective, injective, surjective, other."""
    BIJECTION = "bijection"
    INJECTION = "injection"
    SURJECTION = "surjection"
    OTHER = "other"

    @classmethod
    def is_injective(cls, _type: "Type") -> bool:
        return _type in (cls.BIJECTION, cls.INJECTION)


def _sum_rightmost(value: Any, n: int) -> Any:
    return pnp.sum(value, axis=tuple(range(-n, 0))) if n > 0 else value


class Transform:
    """Base of transforms y = f(x); subclasses give `_forward`, `_inverse` and one of the
    log-det-Jacobian methods, and their domain/codomain event ranks.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> x = padax.to_tensor([-1.0, 0.0, 2.0])
        >>> t = distribution.ExpTransform()
        >>> t.forward(x).tolist()
        [0.3679, 1.0, 7.3891]
        >>> t.inverse(t.forward(x)).tolist()
        [-1.0, 0.0, 2.0]
        >>> t.forward_log_det_jacobian(x).tolist()
        [-1.0, 0.0, 2.0]
    """

    _type = Type.INJECTION
    _domain_rank = 0
    _codomain_rank = 0
    _children: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        tree_util.register_node(cls, _flatten, lambda aux, ch, cls=cls: _unflatten(cls, aux, ch))

    @classmethod
    def _is_injective(cls) -> bool:
        return Type.is_injective(cls._type)

    def __call__(self, input: Any) -> Any:
        if isinstance(input, Distribution):  # (read at call time: padax.distribution._composite imports this module)
            return padax.distribution.TransformedDistribution(input, [self])
        if isinstance(input, Transform):
            return ChainTransform([self, input])
        return self.forward(input)

    def _check_rank(self, x: Any, rank: int, what: str) -> Any:
        x = to_array(x)
        if x.ndim < rank:
            raise op_value_error(type(self).__name__, f"the dimensions of {what} ({x.ndim}) must be at least {rank}")
        return x

    def forward(self, x: Any) -> Any:
        """y = f(x)."""
        return self._forward(self._check_rank(x, self._domain_rank, "x"))

    def inverse(self, y: Any) -> Any:
        """x = f^-1(y)."""
        return self._inverse(self._check_rank(y, self._codomain_rank, "y"))

    def forward_log_det_jacobian(self, x: Any) -> Any:
        """log |det J_f(x)|."""
        x = self._check_rank(x, self._domain_rank, "x")
        if not self._is_injective():
            raise TypeError(f"{type(self).__name__}: forward_log_det_jacobian is not defined for a non-injective "
                            f"transform")
        if hasattr(self, "_forward_log_det_jacobian"):
            return self._forward_log_det_jacobian(x)
        return -self._inverse_log_det_jacobian(self.forward(x))

    def inverse_log_det_jacobian(self, y: Any) -> Any:
        """log |det J_{f^-1}(y)|."""
        y = self._check_rank(y, self._codomain_rank, "y")
        if hasattr(self, "_inverse_log_det_jacobian"):
            return self._inverse_log_det_jacobian(y)
        return -self._forward_log_det_jacobian(self._inverse(y))

    def forward_shape(self, shape: Sequence[int]) -> tuple[int, ...]:
        """the shape of f(x) for x of `shape`."""
        return tuple(self._forward_shape(tuple(shape)))

    def inverse_shape(self, shape: Sequence[int]) -> tuple[int, ...]:
        """the shape of f^-1(y) for y of `shape`."""
        return tuple(self._inverse_shape(tuple(shape)))

    def _forward_shape(self, shape):
        return shape

    def _inverse_shape(self, shape):
        return shape

    def _forward(self, x):
        raise TypeError(f"{type(self).__name__} has no forward map")

    def _inverse(self, y):
        raise TypeError(f"{type(self).__name__} has no inverse map")

    def _params(self, **params: Any) -> None:
        self._children = tuple(params)
        for k, v in params.items():
            setattr(self, k, v)


class AbsTransform(Transform):
    """y = |x| (surjective: the inverse gives both preimages (-y, y)).

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> x = padax.to_tensor([-1.0, 0.0, 2.0])
        >>> distribution.AbsTransform().forward(x).tolist()
        [1.0, 0.0, 2.0]
    """
    _type = Type.SURJECTION

    def _forward(self, x):
        return pnp.abs(x)

    def _inverse(self, y):
        return -y, y

    def _inverse_log_det_jacobian(self, y):
        zero = pnp.zeros((), dtype=y.dtype)
        return zero, zero


class AffineTransform(Transform):
    """y = loc + scale * x.

    Args:
        loc, scale: float arrays or Python numbers, broadcast together.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> x = padax.to_tensor([-1.0, 0.0, 2.0])
        >>> t = distribution.AffineTransform(padax.to_tensor(1.0), padax.to_tensor(3.0))
        >>> t.forward(x).tolist()
        [-2.0, 1.0, 7.0]
        >>> t.inverse(padax.to_tensor([7.0])).tolist()
        [2.0]
    """
    _type = Type.BIJECTION

    def __init__(self, loc: Any, scale: Any) -> None:
        loc, scale = as_params("AffineTransform", loc, scale)
        self._params(loc=loc, scale=scale)

    def _forward(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def _forward_log_det_jacobian(self, x):
        return pnp.broadcast_to(pnp.log(pnp.abs(self.scale)), pnp.broadcast_shapes(x.shape, self.scale.shape))

    def _forward_shape(self, shape):
        return tuple(np.broadcast_shapes(shape, self.loc.shape, self.scale.shape))

    def _inverse_shape(self, shape):
        return tuple(np.broadcast_shapes(shape, self.loc.shape, self.scale.shape))


class ExpTransform(Transform):
    """y = exp(x).

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> x = padax.to_tensor([-1.0, 0.0, 2.0])
        >>> distribution.ExpTransform().forward(x).tolist()
        [0.3679, 1.0, 7.3891]
    """
    _type = Type.BIJECTION

    def _forward(self, x):
        return pnp.exp(x)

    def _inverse(self, y):
        return pnp.log(y)

    def _forward_log_det_jacobian(self, x):
        return x


class PowerTransform(Transform):
    """y = x ** power (on x > 0).

    Args:
        power: the exponent, a float array or Python number.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> t = distribution.PowerTransform(padax.to_tensor(2.0))
        >>> t.forward(padax.to_tensor([1.0, 3.0])).tolist()
        [1.0, 9.0]
        >>> t.inverse(padax.to_tensor([4.0])).tolist()
        [2.0]
    """
    _type = Type.BIJECTION

    def __init__(self, power: Any) -> None:
        power, = as_params("PowerTransform", power)
        self._params(power=power)

    def _forward(self, x):
        return pnp.power(x, self.power)

    def _inverse(self, y):
        return pnp.power(y, 1.0 / self.power)

    def _forward_log_det_jacobian(self, x):
        return pnp.log(pnp.abs(self.power * pnp.power(x, self.power - 1.0)))

    def _forward_shape(self, shape):
        return tuple(np.broadcast_shapes(shape, self.power.shape))

    _inverse_shape = _forward_shape


class SigmoidTransform(Transform):
    """y = sigmoid(x).

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> x = padax.to_tensor([-1.0, 0.0, 2.0])
        >>> distribution.SigmoidTransform().forward(x).tolist()
        [0.2689, 0.5, 0.8808]
    """
    _type = Type.BIJECTION

    def _forward(self, x):
        return lax.logistic(x)

    def _inverse(self, y):
        return pnp.log(y) - pnp.log1p(-y)

    def _forward_log_det_jacobian(self, x):
        return -pnp.logaddexp(0.0, -x) - pnp.logaddexp(0.0, x)


class TanhTransform(Transform):
    """y = tanh(x).

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> x = padax.to_tensor([-1.0, 0.0, 2.0])
        >>> distribution.TanhTransform().forward(x).tolist()
        [-0.7616, 0.0, 0.964]
    """
    _type = Type.BIJECTION

    def _forward(self, x):
        return pnp.tanh(x)

    def _inverse(self, y):
        return pnp.arctanh(y)

    def _forward_log_det_jacobian(self, x):
        # log(1 - tanh(x)^2) = 2 (log 2 - x - softplus(-2x)), stable for large |x|
        return 2.0 * (math.log(2.0) - x - pnp.logaddexp(0.0, -2.0 * x))


class SoftmaxTransform(Transform):
    """y = softmax(x) over the last axis (not injective: no log-det-Jacobian); inverse log(y).

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> distribution.SoftmaxTransform().forward(padax.to_tensor([0.0, 0.0, 0.0, 0.0])).tolist()
        [0.25, 0.25, 0.25, 0.25]
    """
    _type = Type.OTHER
    _domain_rank = 1
    _codomain_rank = 1

    def _forward(self, x):
        e = pnp.exp(x - pnp.max(x, axis=-1, keepdims=True))
        return e / pnp.sum(e, axis=-1, keepdims=True)

    def _inverse(self, y):
        return pnp.log(y)

    def _forward_shape(self, shape):
        if len(shape) < 1:
            raise op_value_error("SoftmaxTransform", f"the shape must have at least one dimension, got {shape}")
        return shape

    _inverse_shape = _forward_shape


class StickBreakingTransform(Transform):
    """The stick-breaking map from R^k to the interior of the (k+1)-simplex.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> y = distribution.StickBreakingTransform().forward(padax.to_tensor([0.0, 0.0]))
        >>> y.tolist()
        [0.3333, 0.3333, 0.3333]
        >>> float(y.sum())
        1.0
    """
    _type = Type.BIJECTION
    _domain_rank = 1
    _codomain_rank = 1

    def _offset(self, k, dtype):
        return pnp.log(k - pnp.arange(k, dtype=dtype))              # log(k + 1 - (i + 1))

    def _forward(self, x):
        k = x.shape[-1]
        z = lax.logistic(x - self._offset(k, x.dtype))
        cum = pnp.cumprod(1.0 - z, axis=-1)
        pad = [(0, 0)] * (x.ndim - 1)
        return pnp.pad(z, pad + [(0, 1)], constant_values=1.0) * pnp.pad(cum, pad + [(1, 0)], constant_values=1.0)

    def _inverse(self, y):
        crop = y[..., :-1]
        k = crop.shape[-1]
        sf = 1.0 - pnp.cumsum(crop, axis=-1)
        return pnp.log(crop) - pnp.log(sf) + self._offset(k, y.dtype)

    def _forward_log_det_jacobian(self, x):
        y = self._forward(x)
        k = x.shape[-1]
        xs = x - self._offset(k, x.dtype)
        return pnp.sum(-xs - pnp.logaddexp(0.0, -xs) + pnp.log(y[..., :-1]), axis=-1)

    def _forward_shape(self, shape):
        if not shape:
            raise op_value_error("StickBreakingTransform", "the shape must not be empty")
        return shape[:-1] + (shape[-1] + 1,)

    def _inverse_shape(self, shape):
        if not shape:
            raise op_value_error("StickBreakingTransform", "the shape must not be empty")
        return shape[:-1] + (shape[-1] - 1,)


class ReshapeTransform(Transform):
    """Reshapes the event: in_event_shape -> out_event_shape (the same number of elements).

    Args:
        in_event_shape: the event shape of x.
        out_event_shape: the event shape of y (the same number of elements).

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> t = distribution.ReshapeTransform((4,), (2, 2))
        >>> t.forward(padax.arange(4).astype('float32')).tolist()
        [[0.0, 1.0], [2.0, 3.0]]
    """
    _type = Type.BIJECTION

    def __init__(self, in_event_shape: Sequence[int], out_event_shape: Sequence[int]) -> None:
        self.in_event_shape = tuple(int(d) for d in in_event_shape)
        self.out_event_shape = tuple(int(d) for d in out_event_shape)
        if math.prod(self.in_event_shape) != math.prod(self.out_event_shape):
            raise op_value_error("ReshapeTransform", f"in_event_shape {self.in_event_shape} and out_event_shape "
                                                     f"{self.out_event_shape} must have the same number of elements")
        self._domain_rank = len(self.in_event_shape)
        self._codomain_rank = len(self.out_event_shape)

    def _forward(self, x):
        batch = x.shape[:x.ndim - len(self.in_event_shape)]
        return pnp.reshape(x, batch + self.out_event_shape)

    def _inverse(self, y):
        batch = y.shape[:y.ndim - len(self.out_event_shape)]
        return pnp.reshape(y, batch + self.in_event_shape)

    def _forward_shape(self, shape):
        n = len(self.in_event_shape)
        if tuple(shape[len(shape) - n:]) != self.in_event_shape:
            raise op_value_error("ReshapeTransform", f"shape {shape} does not end with {self.in_event_shape}")
        return tuple(shape[:len(shape) - n]) + self.out_event_shape

    def _inverse_shape(self, shape):
        n = len(self.out_event_shape)
        if tuple(shape[len(shape) - n:]) != self.out_event_shape:
            raise op_value_error("ReshapeTransform", f"shape {shape} does not end with {self.out_event_shape}")
        return tuple(shape[:len(shape) - n]) + self.in_event_shape

    def _forward_log_det_jacobian(self, x):
        return pnp.zeros(x.shape[:x.ndim - len(self.in_event_shape)], dtype=x.dtype)


class ChainTransform(Transform):
    """The composition: transforms applied in order.

    Args:
        transforms: a sequence of Transforms; the first is applied first.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> scale = distribution.AffineTransform(padax.to_tensor(0.0), padax.to_tensor(2.0))
        >>> t = distribution.ChainTransform([scale, distribution.ExpTransform()])
        >>> t.forward(padax.to_tensor([0.0, 0.5])).tolist()
        [1.0, 2.7183]
    """

    def __init__(self, transforms: Sequence[Transform]) -> None:
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("ChainTransform: every element of transforms must be a Transform")
        self._params(transforms=tuple(transforms))
        self._type = Type.BIJECTION if all(t._type == Type.BIJECTION for t in transforms) else \
            (Type.INJECTION if all(t._is_injective() for t in transforms) else Type.OTHER)
        # the domain rank is the least input rank every transform in the chain can take
        rank = transforms[-1]._codomain_rank if transforms else 0
        for t in reversed(transforms):
            rank = max(rank - (t._codomain_rank - t._domain_rank), t._domain_rank)
        self._domain_rank = rank
        for t in transforms:
            rank += t._codomain_rank - t._domain_rank
            rank = max(rank, t._codomain_rank)
        self._codomain_rank = rank

    def _is_injective(self) -> bool:
        return Type.is_injective(self._type)

    def _forward(self, x):
        for t in self.transforms:
            x = t.forward(x)
        return x

    def _inverse(self, y):
        for t in reversed(self.transforms):
            y = t.inverse(y)
        return y

    def _forward_log_det_jacobian(self, x):
        value = 0.0
        rank = self._domain_rank
        for t in self.transforms:
            value = value + _sum_rightmost(t.forward_log_det_jacobian(x), rank - t._domain_rank)
            x = t.forward(x)
            rank += t._codomain_rank - t._domain_rank
        return value

    def _forward_shape(self, shape):
        for t in self.transforms:
            shape = t.forward_shape(shape)
        return shape

    def _inverse_shape(self, shape):
        for t in reversed(self.transforms):
            shape = t.inverse_shape(shape)
        return shape


class IndependentTransform(Transform):
    """`base` with its `reinterpreted_batch_rank` rightmost batch axes made part of the event
    (their log-det-Jacobians are summed).

    Args:
        base: the Transform to wrap.
        reinterpreted_batch_rank: how many rightmost batch axes join the event (positive).

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> t = distribution.IndependentTransform(distribution.ExpTransform(), 1)
        >>> t.forward_log_det_jacobian(padax.to_tensor([[1.0, 2.0], [0.0, 0.5]])).tolist()
        [3.0, 0.5]
    """

    def __init__(self, base: Transform, reinterpreted_batch_rank: int) -> None:
        if not isinstance(base, Transform):
            raise TypeError(f"IndependentTransform: base must be a Transform, got {type(base).__name__}")
        if reinterpreted_batch_rank <= 0:
            raise op_value_error("IndependentTransform", f"reinterpreted_batch_rank must be positive, got "
                                                         f"{reinterpreted_batch_rank}")
        self._params(base=base)
        self.reinterpreted_batch_rank = int(reinterpreted_batch_rank)
        self._type = base._type
        self._domain_rank = base._domain_rank + self.reinterpreted_batch_rank
        self._codomain_rank = base._codomain_rank + self.reinterpreted_batch_rank

    def _is_injective(self) -> bool:
        return self.base._is_injective()

    def _forward(self, x):
        return self.base.forward(x)

    def _inverse(self, y):
        return self.base.inverse(y)

    def _forward_log_det_jacobian(self, x):
        return _sum_rightmost(self.base.forward_log_det_jacobian(x), self.reinterpreted_batch_rank)

    def _forward_shape(self, shape):
        return self.base.forward_shape(shape)

    def _inverse_shape(self, shape):
        return self.base.inverse_shape(shape)


class StackTransform(Transform):
    """Applies transforms[i] to slice i of `axis`.

    Args:
        transforms: a non-empty sequence of Transforms, one per slice.
        axis: the axis to slice along (default 0); its size must equal len(transforms).

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> t = distribution.StackTransform([distribution.ExpTransform(), distribution.AbsTransform()], axis=0)
        >>> t.forward(padax.to_tensor([[0.0, 1.0], [-2.0, 3.0]])).tolist()
        [[1.0, 2.7183], [2.0, 3.0]]
    """

    def __init__(self, transforms: Sequence[Transform], axis: int = 0) -> None:
        if not transforms or not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("StackTransform: transforms must be a non-empty sequence of Transforms")
        self._params(transforms=tuple(transforms))
        self.axis = int(axis)
        self._type = Type.BIJECTION if all(t._type == Type.BIJECTION for t in transforms) else Type.OTHER

    def _is_injective(self) -> bool:
        return all(t._is_injective() for t in self.transforms)

    def _check_size(self, v):
        if not -v.ndim <= self.axis < v.ndim:
            raise op_value_error("StackTransform", f"axis {self.axis} is out of range for an input of rank {v.ndim}")
        if v.shape[self.axis] != len(self.transforms):
            raise op_value_error("StackTransform", f"the input has size {v.shape[self.axis]} along axis {self.axis} "
                                                   f"but there are {len(self.transforms)} transforms")

    def _map(self, v, method):
        self._check_size(v)
        parts = pnp.unstack(v, axis=self.axis)
        return pnp.stack([getattr(t, method)(p) for p, t in zip(parts, self.transforms)], axis=self.axis)

    def _forward(self, x):
        return self._map(x, "forward")

    def _inverse(self, y):
        return self._map(y, "inverse")

    def _forward_log_det_jacobian(self, x):
        return self._map(x, "forward_log_det_jacobian")


__all__ = ["Type", "Transform", "AbsTransform", "AffineTransform", "ChainTransform", "ExpTransform",
           "IndependentTransform", "PowerTransform", "ReshapeTransform", "SigmoidTransform", "SoftmaxTransform",
           "StackTransform", "StickBreakingTransform", "TanhTransform"]
