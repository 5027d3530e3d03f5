"""padax.fft's argument checks: norm, lengths n / s and axes (static Python ints), and the input
dtypes each kind of transform computes in."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes, lax
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional._arrays import is_array

_NORMS = ("backward", "ortho", "forward")


_SWAPPED = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


_MAX_AXES_PER_OP = 3  # XLA's Fft transforms at most three trailing dims


def _check_norm(op: str, norm: Any) -> str:
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise op_value_error(op, f"unexpected norm {norm!r}; it must be one of 'backward', 'ortho', 'forward'")
    return norm


def _static_int(op: str, v: Any, what: str) -> int:
    if isinstance(v, Tracer):
        raise op_type_error(op, f"{what} must be known while tracing, got a traced array {v.aval.str_short()}; "
                                "pass a Python int (static_argnums for jit arguments)")
    if isinstance(v, bool) or not (isinstance(v, (int, np.integer)) or (is_array(v) and v.ndim == 0)):
        raise op_type_error(op, f"{what} must be an integer, got {type(v).__name__}: {v!r}")
    return int(v)


def _length(op: str, v: Any, what: str) -> int:
    n = _static_int(op, v, what)
    if n < 1:
        raise op_value_error(op, f"{what} must be positive (the number of points to transform), got {n}")
    return n


def _int_seq(op: str, v: Any, what: str) -> list:
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return [v]
    if isinstance(v, Tracer):
        _static_int(op, v, what)
    if is_array(v):
        return [int(a) for a in np.asarray(v).reshape(-1)]
    if not isinstance(v, (list, tuple)):
        raise op_type_error(op, f"{what} must be a sequence of ints, got {type(v).__name__}: {v!r}")
    return list(v)


def _axis(op: str, a: Any, ndim: int) -> int:
    a = _static_int(op, a, "axis")
    if not -ndim <= a < ndim:
        raise op_value_error(op, f"axis {a} is out of range for an input of rank {ndim}")
    return a % ndim


def _axes_and_sizes(op: str, x, s: Any, axes: Any, ndim_required: int | None = None):
    """Canonical (axes, requested sizes or None per axis), NumPy/Paddle rules: with `s` but no
    `axes`, the last len(s) axes; with neither, all axes."""
    ndim = x.aval.ndim
    if s is not None:
        s = [_length(op, d, "each entry of s") for d in _int_seq(op, s, "s")]
    if axes is None:
        axes = list(range(ndim - len(s), ndim)) if s is not None else list(range(ndim))
        if s is not None and len(s) > ndim:
            raise op_value_error(op, f"s {tuple(s)} has more entries than the input has axes "
                                     f"({x.aval.str_short()})")
    else:
        axes = [_axis(op, a, ndim) for a in _int_seq(op, axes, "axes")]
    if len(set(axes)) != len(axes):
        raise op_value_error(op, f"axes {tuple(axes)} repeat an axis")
    if ndim_required is not None:
        if len(axes) != ndim_required:
            raise op_value_error(op, f"needs exactly {ndim_required} axes, got axes {tuple(axes)}")
        if s is not None and len(s) != ndim_required:
            raise op_value_error(op, f"s needs exactly {ndim_required} entries, got {tuple(s)}")
    if s is not None and len(s) != len(axes):
        raise op_value_error(op, f"s {tuple(s)} and axes {tuple(axes)} must have the same length")
    if not axes:
        raise op_value_error(op, f"needs at least one axis to transform, got an input {x.aval.str_short()}")
    return axes, (s if s is not None else [None] * len(axes))


def _as_complex(x):
    """Input of a complex-to-complex or complex-to-real transform as complex64/complex128."""
    dt = x.aval.dtype
    if dtypes.is_complex(dt):
        return x
    target = dtypes.complex128 if dt == dtypes.float64 else dtypes.complex64
    return lax.convert_element_type(x, dtypes.canonicalize_dtype(target))


def _as_real(op: str, x):
    """Input of a real-to-complex transform as float32/float64; complex input is an error."""
    dt = x.aval.dtype
    if dtypes.is_complex(dt):
        raise op_type_error(op, f"expects a real input, got {x.aval.str_short()} (use fft/fftn for complex input)")
    if dt in (dtypes.float32, dtypes.float64):
        return x
    return lax.convert_element_type(x, dtypes.float32)
