"""The Initializer protocol, fan computation, calculate_gain and the global default initializers."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from padax import dtypes, jit
from padax.core.errors import require_members
from padax.functional._arrays import is_array
from padax.nn.functional._rng import next_key

_LOW = (dtypes.float16, dtypes.bfloat16)


class Initializer:
    """Makes a parameter's initial value: `init(shape, dtype=None, key=None)` or `init(tensor)` (its shape/dtype).

    A random initializer draws from `key`, else from the enclosing `padax.nn.rng_scope`, else
    (eagerly) from padax's global key. Initializers compare by their settings, so layers
    built with equal ones have equal pytree structure.

    Examples:
        >>> import padax
        >>> init = padax.nn.initializer.Normal(mean=1.0, std=0.0)
        >>> init([2, 3]).shape, init([2], dtype="float64").tolist()
        ((2, 3), [1.0, 1.0])
        >>> uniform = padax.nn.initializer.Uniform()
        >>> bool((uniform([4], key=padax.random.key(7)) == uniform([4], key=padax.random.key(7))).all())  # same draw
        True
    """

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__name__.startswith("_"):  # private bases share code; public initializers must be complete
            require_members(cls, "padax initializer", {"_init": "_init(shape, dtype, key) -> Tensor"})

    def __call__(self, shape: Any, dtype: Any = None, key: Any = None, block: Any = None) -> Any:
        if is_array(shape):  # Paddle's `init(param)`: a new value shaped like the given tensor
            dtype = shape.dtype if dtype is None else dtype
            shape = shape.shape
        shape = tuple(int(d) for d in shape)
        if any(d < 0 for d in shape):
            raise ValueError(f"{type(self).__name__}: negative dimension in shape {list(shape)}")
        dt = dtypes.default_float_dtype() if dtype is None else dtypes.canonicalize_dtype(dtype)
        compute = dtypes.float32 if dt in _LOW else dt
        if self._random:  # one compiled program per (initializer, shape, dtype), not one per op
            out = _jitted_init(self, shape, compute, random_key(key, type(self).__name__))
        else:
            out = self._init(shape, compute, key)
        return out.astype(dt) if out.dtype != dt else out

    _random = False  # draws from a key (the key is resolved before the compiled part)

    def _settings(self) -> tuple:
        return tuple(sorted((k, _hashable(v)) for k, v in vars(self).items()))

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and other._settings() == self._settings()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._settings()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


def _hashable(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return (v.shape, str(v.dtype), v.tobytes())
    if isinstance(v, (list, tuple)):
        return tuple(_hashable(x) for x in v)
    return v


def _init_program(init: Initializer, shape: tuple, dtype: Any, key: Any) -> Any:
    return init._init(shape, dtype, key)


_jitted_init = jit(_init_program, static_argnums=(0, 1, 2))


def random_key(key: Any, what: str) -> Any:
    """The key to draw with: the given one, else the rng_scope's / global key."""
    if key is not None:
        return key
    return next_key(f"padax.nn.initializer.{what}")


def compute_fans(shape: tuple[int, ...]) -> tuple[int, int]:
    """(fan_in, fan_out) as Paddle computes them: [in, out] matrices, [out, in, *kernel] convolutions."""
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[2:]))
    return shape[1] * receptive, shape[0] * receptive


_GAINS = {"sigmoid": 1.0, "linear": 1.0, "conv1d": 1.0, "conv2d": 1.0, "conv3d": 1.0, "conv1d_transpose": 1.0,
          "conv_transpose1d": 1.0, "conv2d_transpose": 1.0, "conv_transpose2d": 1.0, "conv3d_transpose": 1.0,
          "conv_transpose3d": 1.0, "tanh": 5.0 / 3, "relu": math.sqrt(2.0), "selu": 3.0 / 4}


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended gain for a nonlinearity (Paddle's table; leaky_relu uses `param`, default 0.01).

    Args:
        nonlinearity: e.g. 'linear', 'sigmoid', 'tanh', 'relu', 'leaky_relu', 'selu' or a conv name.
        param: the negative slope of leaky_relu (None: 0.01).

    Returns:
        The gain, a Python float.

    Examples:
        >>> import padax
        >>> padax.nn.initializer.calculate_gain("tanh"), padax.nn.initializer.calculate_gain("relu")
        (1.6667, 1.4142)
        >>> round(padax.nn.initializer.calculate_gain("leaky_relu", 0.2), 4)
        1.3868
    """
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity not in _GAINS:
        raise ValueError(f"calculate_gain: nonlinearity {nonlinearity!r} is not supported; use one of "
                         f"{sorted(_GAINS) + ['leaky_relu']}")
    return _GAINS[nonlinearity]


class _Globals:
    weight: Initializer | None = None
    bias: Initializer | None = None


global_initializers = _Globals()


def set_global_initializer(weight_init: Initializer | None, bias_init: Initializer | None = None) -> None:
    """Initializers that layers created afterwards use in place of their defaults (None: back to defaults).

    As in Paddle, an initializer given explicitly through a ParamAttr still wins.

    Args:
        weight_init: the initializer of weights (None: the layers' defaults).
        bias_init: the initializer of biases (None: the defaults).

    Returns:
        None.

    Examples:
        >>> import padax
        >>> Constant = padax.nn.initializer.Constant
        >>> padax.nn.initializer.set_global_initializer(Constant(0.5), Constant(1.0))
        >>> layer = padax.nn.Linear(2, 2)
        >>> layer.weight.tolist(), layer.bias.tolist()
        ([[0.5, 0.5], [0.5, 0.5]], [1.0, 1.0])
        >>> padax.nn.initializer.set_global_initializer(None)  # back to each layer's defaults
    """
    for what, init in (("weight_init", weight_init), ("bias_init", bias_init)):
        if init is not None and not isinstance(init, Initializer):
            raise TypeError(f"set_global_initializer: {what} must be a padax.nn.initializer.Initializer or None")
    global_initializers.weight, global_initializers.bias = weight_init, bias_init
