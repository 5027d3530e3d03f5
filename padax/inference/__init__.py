"""Paddle's `jit` batteries, attached to `padax.jit` (`to_static`, `save`, `load`, `TranslatedLayer`), and
Paddle's inference API (`Config`, `create_predictor`, `Predictor`, as `paddle.inference`).

(`padax.jit` itself is the transform, so these live here and `padax/__init__`
hangs them on it: `padax.jit.save(fn, "out/model", input_spec=[...])`.)
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import padax
from padax.inference.saved import SavedProgramError, TranslatedFunction  # noqa: F401
from padax.inference.translated import TranslatedLayer, load, save  # noqa: F401
from padax.inference.predictor import (  # noqa: F401
    Config, DataType, PlaceType, PrecisionType, Predictor, Tensor, create_predictor, get_version)


def to_static(function: Callable | None = None, input_spec: Sequence[Any] | None = None,
              build_strategy: Any = None, backend: Any = None, full_graph: bool = True, **kwargs: Any) -> Any:
    """Paddle's `jit.to_static`: `padax.jit(function)`, remembering `input_spec` for `padax.jit.save`.

    Usable as `to_static(f)`, `@to_static` and `@to_static(input_spec=[...])`. Paddle's
    `build_strategy`, `backend` and `full_graph` have no effect (padax always compiles
    the whole function with XLA).

    Args:
        function: the function (or Layer method) to compile; leave it out to use as a decorator.
        input_spec: InputSpecs (or example arrays) of the inputs, remembered for `padax.jit.save`.
        build_strategy, backend, full_graph: accepted for Paddle compatibility; no effect.
        **kwargs: not accepted (raises TypeError).

    Returns:
        The jitted function, or a decorator when `function` is None.

    Examples:
        >>> import padax
        >>> @padax.jit.to_static(input_spec=[padax.static.InputSpec([2], 'float32')])
        ... def double(x):
        ...     return x * 2
        >>> double(padax.to_tensor([1.0, 2.0])).tolist()
        [2.0, 4.0]
    """
    if kwargs:
        raise TypeError(f"padax.jit.to_static: unexpected arguments {sorted(kwargs)}")
    if function is None:
        return lambda f: to_static(f, input_spec=input_spec)
    jitted = padax.jit(function)
    jitted._padax_input_spec = list(input_spec) if input_spec is not None else None
    return jitted
