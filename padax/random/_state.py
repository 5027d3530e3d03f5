"""Paddle's stateful eager helpers: a global key that `padax.seed` sets and each draw advances.

`padax.rand(shape)`, `randn`, `randint`, `randperm`, `normal` and `uniform` split
the global key into (next global key, subkey) and sample with the subkey, so
consecutive calls give new numbers and `padax.seed(s)` replays them. The
state is hidden: it is read and written in Python, outside any program.
That is why these helpers are eager conveniences only. A jitted function is
traced once and then replayed, so a draw inside it would be frozen into the
compiled program as a constant (the same "random" numbers on every call), and
the state would advance only while tracing. Calling them while jit (or
make_jaxpr, a control-flow body, ...) traces raises an error; inside jit, pass
a key and use `padax.random.uniform(key, ...)` and friends. Under eager grad or
vmap they work: the draw happens eagerly and is a constant of the computation.

Without `padax.seed`, the global key starts from a seed taken from the
operating system's entropy, as numpy's and Paddle's default generators do.
"""
from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np

from padax.core import dtypes
from padax.core.errors import op_value_error
from padax.core.trace import EvalTrace, set_current_trace, trace_state
from padax.functional._arrays import asarray, aval_of, broadcast_shapes, broadcast_to, is_array
from padax.functional.lax.elementwise import add, mul
from padax.random import _keys, _samplers


class _GlobalState:
    key = None  # uint32[2] Tensor, created on first use
    lock = threading.Lock()  # draws from several threads each get their own subkey (never a duplicate)


_state = _GlobalState()


def _staged() -> bool:
    """True when the current trace stages a program (jit, make_jaxpr, a loop body, ...)."""
    t = trace_state.trace
    while getattr(t, "parent", None) is not None:
        t = t.parent
    return not isinstance(t, EvalTrace)


def _check_eager(op: str) -> None:
    if _staged():
        raise RuntimeError(
            f"padax.{op} draws from a hidden global key, which cannot work inside jit (or any traced "
            "program): the draw would be frozen into the compiled program and repeat on every call. "
            "Pass a key instead, e.g. `key = padax.random.key(0)` outside and "
            "`padax.random.uniform(key, shape)` inside, splitting it with padax.random.split.")


def seed(s: int) -> None:
    """Reset the global key to `padax.random.key(s)`: the following eager draws are reproducible."""
    if is_array(s):
        s = int(s)
    with set_current_trace(EvalTrace()):
        new = _keys.key(s)
    with _state.lock:
        _state.key = new


def get_rng_state():
    """The current global key (a uint32[2] array); pass it to `set_rng_state` to replay draws."""
    with _state.lock:
        _next_state()
        return _state.key


def set_rng_state(state: Any) -> None:
    """Restore the global key saved by `get_rng_state`."""
    with set_current_trace(EvalTrace()):
        new = _keys.check_key("set_rng_state", state)[0]
    with _state.lock:
        _state.key = new


def _next_state() -> None:
    """Create the global key from OS entropy on first use (call with the lock held)."""
    if _state.key is None:
        with set_current_trace(EvalTrace()):
            _state.key = _keys.key(int.from_bytes(os.urandom(8), "little"))


def next_key(op: str):
    """A fresh subkey from the global key, which advances (eagerly, whatever is being traced)."""
    _check_eager(op)
    with _state.lock, set_current_trace(EvalTrace()):
        _next_state()
        _state.key, sub = _keys.split_pair(_state.key)
    return sub


def _paddle_shape(op: str, shape: Any) -> tuple[int, ...]:
    """Paddle accepts an int, a list/tuple of ints (or 1-element int Tensors), or an int Tensor."""
    if is_array(shape):
        shape = np.asarray(shape).reshape(-1).tolist()
    elif isinstance(shape, (list, tuple)):
        shape = [int(np.asarray(d)) if is_array(d) else d for d in shape]
    return _keys.canonical_shape(op, shape)


def _eager(fn, *args, **kwargs):
    with set_current_trace(EvalTrace()):
        return fn(*args, **kwargs)


def rand(shape: Any, dtype: Any = None, name: str | None = None):
    """Uniform floats in [0, 1) of `shape` (dtype default: the default float dtype), from the global key.

    An eager convenience: not for use inside jit (see the module notes); there use
    `padax.random.uniform(key, shape, dtype)`.
    """
    key = next_key("rand")
    return _eager(_samplers.uniform, key, _paddle_shape("rand", shape), dtype)


def randn(shape: Any, dtype: Any = None, name: str | None = None):
    """Standard normal floats of `shape` (dtype default: the default float dtype), from the global key.

    An eager convenience: not for use inside jit; there use `padax.random.normal(key, ...)`.
    """
    key = next_key("randn")
    return _eager(_samplers.normal, key, _paddle_shape("randn", shape), dtype)


def randint(low: int = 0, high: int | None = None, shape: Any = (1,), dtype: Any = None, name: str | None = None):
    """Uniform integers in [low, high) (or [0, low) when high is None), from the global key.

    dtype defaults to int64. An eager convenience: not for use inside
    jit; there use `padax.random.randint(key, shape, low, high, dtype)`.
    """
    if high is None:
        low, high = 0, low
    if not is_array(low) and not is_array(high) and int(high) <= int(low):
        raise op_value_error("randint", f"high ({high}) must be greater than low ({low})")
    key = next_key("randint")
    d = dtypes.default_int_dtype() if dtype is None else dtype
    return _eager(_samplers.randint, key, _paddle_shape("randint", shape), low, high, d)


def randperm(n: int, dtype: Any = "int64", name: str | None = None):
    """A random permutation of 0..n-1 (dtype default int64), from the global key.

    An eager convenience: not for use inside jit; there use `padax.random.permutation(key, n)`.
    """
    d = dtypes.canonicalize(dtype)
    if not dtypes.is_integer(d) and not dtypes.is_floating(d):
        raise op_value_error("randperm", f"dtype must be an integer or floating type, got {d.name}")
    n = int(n)
    if n < 0:
        raise op_value_error("randperm", f"n must be non-negative, got {n}")
    key = next_key("randperm")
    with set_current_trace(EvalTrace()):
        from padax.functional.lax.structural import iota
        return _samplers.permutation(key, iota(d, n))


def normal(mean: Any = 0.0, std: Any = 1.0, shape: Any = None, name: str | None = None):
    """Normal samples mean + std * z, from the global key.

    If `mean` or `std` is a Tensor, the result has their broadcast shape and float dtype;
    otherwise `shape` (default [1]) and the default float dtype. An eager convenience: not for use inside
    jit; there use `mean + std * padax.random.normal(key, shape)`.
    """
    tensors = [x for x in (mean, std) if is_array(x)]
    if tensors:
        out_shape = broadcast_shapes("normal", *(aval_of(x).shape for x in tensors))
        dt = dtypes.result_type(*((aval_of(x).dtype, False) for x in tensors))[0]
        dt = dt if dt in _samplers._FLOATS else dtypes.default_float_dtype()
    else:
        out_shape = _paddle_shape("normal", (1,) if shape is None else shape)
        dt = dtypes.default_float_dtype()
    key = next_key("normal")
    z = _eager(_samplers.normal, key, out_shape, dt)
    m, s = (broadcast_to(asarray(v, dt), out_shape) for v in (mean, std))
    return add(mul(z, s), m)


def uniform(shape: Any, dtype: Any = None, min: float = -1.0, max: float = 1.0, seed: int = 0,  # noqa: A002
            name: str | None = None):
    """Uniform floats in [min, max) of `shape` (dtype default: the default float dtype).

    With seed == 0 (the default) the global key is used and advanced; another seed draws
    from `padax.random.key(seed)` (the same numbers on every call) and leaves the global
    key alone. An eager convenience: not for use inside jit; there use
    `padax.random.uniform(key, shape, dtype, min, max)`.
    """
    if int(seed) != 0:
        _check_eager("uniform")
        key = _eager(_keys.key, int(seed))
    else:
        key = next_key("uniform")
    return _eager(_samplers.uniform, key, _paddle_shape("uniform", shape), dtype, min, max)
