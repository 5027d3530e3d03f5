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

from padax import dtypes
from padax.core.errors import op_value_error
from padax.core.ref import Ref
from padax.core.trace import EvalTrace, set_current_trace, trace_state
from padax.functional._arrays import asarray, aval_of, broadcast_to, is_array
from padax.functional._checks import placed, write_out
from padax.functional.lax.elementwise import add, complex as make_complex, mul
from padax.functional.lax.structural import convert_element_type, iota, reshape, slice_in_dim
from padax.functional.refs import ref_get, ref_set
from padax.random import _keys, _samplers


class _GlobalState:
    """The global key, held in a Ref (created on first use) so that a traced program can read it when it
    runs and write the advanced key back (`staged_next_key`); eager draws read and rebind it directly."""

    ref: Ref | None = None
    lock = threading.Lock()  # draws from several threads each get their own subkey (never a duplicate)

    @property
    def key(self) -> Any:
        return None if self.ref is None else self.ref._value

    @key.setter
    def key(self, value: Any) -> None:
        if self.ref is None:
            type(self).ref = Ref(value, value.aval)
        else:
            self.ref._write(value)


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


def seed(seed: int) -> "GeneratorState":
    """Reset the global key to `padax.random.key(seed)`: the following eager draws are reproducible.
    Returns the generator's state (as Paddle returns its generator).

    Args:
        seed: an integer (or an integer scalar array).

    Returns:
        The new GeneratorState.

    Examples:
        >>> import padax
        >>> _ = padax.seed(7)
        >>> a = padax.rand([3])
        >>> _ = padax.seed(7)
        >>> bool((padax.rand([3]) == a).all())
        True
    """
    if is_array(seed):
        seed = int(seed)
    with set_current_trace(EvalTrace()):
        new = _keys.key(int(seed))
    with _state.lock:
        _state.key = new
    return GeneratorState(new)


class GeneratorState:
    """A saved global key (what `get_rng_state` returns in its list and `set_rng_state` takes back)."""

    __slots__ = ("key",)

    def __init__(self, key: Any):
        self.key = key

    def __repr__(self) -> str:
        return f"GeneratorState(key={np.asarray(self.key).tolist()})"


def get_rng_state(device: Any = None) -> list:
    """The global random state, as Paddle's one-element list of generator states; give it to
    `set_rng_state` to replay the draws that follow.

    Args:
        device: accepted for Paddle compatibility; unused (one global state).

    Returns:
        A one-element list of GeneratorState.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> state = padax.get_rng_state()
        >>> a = padax.randn([2])
        >>> padax.set_rng_state(state)
        >>> bool((padax.randn([2]) == a).all())
        True
    """
    with _state.lock:
        _next_state()
        return [GeneratorState(_state.key)]


def set_rng_state(state_list: Any, device: Any = None) -> None:
    """Restore the global random state saved by `get_rng_state` (a list of states, one state, or a key).

    Args:
        state_list: what `get_rng_state` returned: a list of states, one GeneratorState, or a key.
        device: accepted for Paddle compatibility; unused.

    Returns:
        None.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> state = padax.get_rng_state()
        >>> a = padax.rand([2])
        >>> padax.set_rng_state(state)
        >>> bool((padax.rand([2]) == a).all())
        True
    """
    state = state_list[0] if isinstance(state_list, (list, tuple)) else state_list
    if isinstance(state, GeneratorState):
        state = state.key
    with set_current_trace(EvalTrace()):
        new = _keys.check_key("set_rng_state", state)[0]
    with _state.lock:
        _state.key = new


def get_cuda_rng_state() -> list:
    """Paddle's per-GPU generator states. padax has one global key for every device, so there is no
    separate GPU state: an empty list (as Paddle's CPU build gives); `get_rng_state` saves the key.

    Examples:
        >>> import padax
        >>> state = padax.get_cuda_rng_state()
        >>> padax.set_cuda_rng_state(state)
    """
    return []


def set_cuda_rng_state(state_list: Any) -> None:
    """Restore per-GPU generator states: padax keeps none apart from the global key (see
    `get_cuda_rng_state`), so a list saved by `get_cuda_rng_state` restores nothing; a state from
    `get_rng_state` restores the global key.

    Examples:
        >>> import padax
        >>> padax.set_cuda_rng_state(padax.get_cuda_rng_state())
    """
    if state_list:
        set_rng_state(state_list)


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


def staged_next_key(op: str):
    """A fresh subkey from the global key inside a traced program (jit, a loop body): the key is read
    from its Ref and the advanced key written back, so the compiled program draws new numbers on every
    call, the same ones after `padax.seed(n)`, as Paddle's generator does under to_static."""
    with _state.lock:
        with set_current_trace(EvalTrace()):
            _next_state()
        ref = _state.ref
    new, sub = _keys.split_pair(ref_get(ref))
    ref_set(ref, ..., new)
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


def _uniform_draw(key, shape: tuple, dtype: Any, lo: float, hi: float):
    """Uniform [lo, hi) of a float dtype; a complex dtype draws its real and imaginary parts so."""
    dt = dtypes.default_float_dtype() if dtype is None else dtypes.canonicalize_dtype(dtypes.to_dtype(dtype))
    if dtypes.is_complex(dt):
        parts = _eager(_samplers.uniform, key, shape + (2,), dtypes.finfo(dt).dtype, lo, hi)
        re, im = (_eager(lambda i: reshape(slice_in_dim(parts, i, i + 1, 1, len(shape)), shape), i) for i in (0, 1))
        return _eager(make_complex, re, im)
    return _eager(_samplers.uniform, key, shape, dt, lo, hi)


def rand(shape: Any, dtype: Any = None, name: str | None = None, *, out: Any = None, device: Any = None,
         requires_grad: bool = False, pin_memory: bool = False):
    """Uniform floats in [0, 1) of `shape` (dtype default: the default float dtype; a complex dtype draws
    both parts), from the global key.

    An eager convenience: not for use inside jit (see the module notes); there use
    `padax.random.uniform(key, shape, dtype)`.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> x = padax.rand([2, 3])
        >>> x.shape, x.dtype
        ((2, 3), dtype('float32'))
        >>> bool(((x >= 0) & (x < 1)).all())
        True
    """
    if out is not None:
        result = rand(
            shape=shape, dtype=dtype, name=name, device=device, requires_grad=requires_grad, pin_memory=pin_memory)
        return write_out(out, result, "rand")
    key = next_key("rand")
    return placed(_uniform_draw(key, _paddle_shape("rand", shape), dtype, 0.0, 1.0), device)


def randn(shape: Any, dtype: Any = None, name: str | None = None, *, out: Any = None, device: Any = None,
          requires_grad: bool = False, pin_memory: bool = False):
    """Standard normal floats of `shape` (dtype default: the default float dtype; complex: each part has
    variance 1/2), from the global key.

    An eager convenience: not for use inside jit; there use `padax.random.normal(key, ...)`.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> x = padax.randn([1000])
        >>> x.shape
        (1000,)
        >>> abs(float(x.mean())) < 0.1, abs(float(x.std()) - 1.0) < 0.1
        (True, True)
    """
    if out is not None:
        result = randn(
            shape=shape, dtype=dtype, name=name, device=device, requires_grad=requires_grad, pin_memory=pin_memory)
        return write_out(out, result, "randn")
    key = next_key("randn")
    dt = dtypes.default_float_dtype() if dtype is None else dtypes.canonicalize_dtype(dtypes.to_dtype(dtype))
    return placed(_eager(_samplers.normal, key, _paddle_shape("randn", shape), dt), device)


def randint(low: int = 0, high: int | None = None, shape: Any = [1], dtype: Any = None,  # noqa: B006
            name: str | None = None):
    """Uniform integers in [low, high) (or [0, low) when high is None), from the global key.

    dtype defaults to int64. An eager convenience: not for use inside
    jit; there use `padax.random.randint(key, shape, low, high, dtype)`.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> x = padax.randint(0, 5, [10])
        >>> x.dtype
        dtype('int64')
        >>> bool(((x >= 0) & (x < 5)).all())
        True
    """
    if high is None:
        low, high = 0, low
    if not is_array(low) and not is_array(high) and int(high) <= int(low):
        raise op_value_error("randint", f"high ({high}) must be greater than low ({low})")
    key = next_key("randint")
    d = dtypes.default_int_dtype() if dtype is None else dtype
    return _eager(_samplers.randint, key, _paddle_shape("randint", shape), low, high, d)


def randperm(n: int, dtype: Any = "int64", name: str | None = None, *, out: Any = None, device: Any = None,
             requires_grad: bool = False, pin_memory: bool = False):
    """A random permutation of 0..n-1 (dtype default int64), from the global key.

    An eager convenience: not for use inside jit; there use `padax.random.permutation(key, n)`.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> sorted(padax.randperm(5).tolist())
        [0, 1, 2, 3, 4]
    """
    if out is not None:
        result = randperm(
            n=n, dtype=dtype, name=name, device=device, requires_grad=requires_grad, pin_memory=pin_memory)
        return write_out(out, result, "randperm")
    return placed(_randperm(n, dtype), device)


def _randperm(n: int, dtype: Any):
    d = dtypes.canonicalize_dtype(dtype)
    if not dtypes.is_integer(d) and not dtypes.is_floating(d):
        raise op_value_error("randperm", f"dtype must be an integer or floating type, got {d.name}")
    n = int(n)
    if n < 0:
        raise op_value_error("randperm", f"n must be non-negative, got {n}")
    key = next_key("randperm")
    with set_current_trace(EvalTrace()):
        return _samplers.permutation(key, iota(d, n))


def normal(mean: Any = 0.0, std: Any = 1.0, shape: Any = None, name: str | None = None, *, out: Any = None):
    """Normal samples mean + std * z, from the global key, by Paddle's rules.

    A Tensor `mean` gives the shape and dtype (a Tensor `std` is reshaped to it); else a Tensor
    `std` does; else `shape` (default [1]) and the default float dtype. A complex mean (number or
    Tensor) gives complex samples whose real and imaginary parts each have variance std**2 / 2.
    An eager convenience: not for use inside jit; there use `mean + std * padax.random.normal(key, shape)`.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> x = padax.normal(mean=10.0, std=0.1, shape=[1000])
        >>> abs(float(x.mean()) - 10.0) < 0.05
        True
    """
    if out is not None:
        return write_out(out, normal(mean=mean, std=std, shape=shape, name=name), "normal")
    if is_array(mean):
        out_shape, dt = aval_of(mean).shape, aval_of(mean).dtype
        if not dtypes.is_inexact(dt):
            dt = dtypes.default_float_dtype()
    elif is_array(std):
        out_shape, dt = aval_of(std).shape, aval_of(std).dtype
        if not dtypes.is_inexact(dt):
            dt = dtypes.default_float_dtype()
        if isinstance(mean, complex):
            dt = dtypes.complex128 if dt == dtypes.float64 else dtypes.complex64
    else:
        out_shape = _paddle_shape("normal", (1,) if shape is None else shape)
        dt = dtypes.default_complex_dtype() if isinstance(mean, complex) else dtypes.default_float_dtype()
    if is_array(std):
        s_ = aval_of(std)
        if s_.size != int(np.prod(out_shape, dtype=np.int64)):
            raise op_value_error("normal", f"std {s_.str_short()} must have as many elements as mean's shape "
                                           f"{list(out_shape)}")
    key = next_key("normal")
    z = _eager(_samplers.normal, key, out_shape, dt)  # the draw is a constant; mean and std stay differentiable
    real_dt = dtypes.finfo(dt).dtype if dtypes.is_complex(dt) else dt
    s_arr = asarray(std, real_dt)
    s_arr = broadcast_to(s_arr, out_shape) if not is_array(std) else _reshape(s_arr, out_shape)
    if dtypes.is_complex(dt):
        s_arr = convert_element_type(s_arr, dt)
    m = broadcast_to(asarray(mean, dt), out_shape)
    return add(mul(z, s_arr), m)


def _reshape(x, shape):
    return x if aval_of(x).shape == tuple(shape) else reshape(x, tuple(shape))


def uniform(shape: Any, dtype: Any = None, min: float = 0, max: float = 1.0, seed: int = 0,  # noqa: A002
            name: str | None = None, *, out: Any = None, device: Any = None, requires_grad: bool = False):
    """Uniform floats in [min, max) of `shape` (dtype default: the default float dtype; a complex dtype draws
    both parts in that range).

    With seed == 0 (the default) the global key is used and advanced; another seed draws
    from `padax.random.key(seed)` (the same numbers on every call) and leaves the global
    key alone. An eager convenience: not for use inside jit; there use
    `padax.random.uniform(key, shape, dtype, min, max)`.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> x = padax.uniform([1000], min=-2.0, max=2.0)
        >>> bool(((x >= -2) & (x < 2)).all()), x.dtype
        (True, dtype('float32'))
    """
    if out is not None:
        result = uniform(
            shape=shape, dtype=dtype, min=min, max=max, seed=seed, name=name, device=device,
            requires_grad=requires_grad)
        return write_out(out, result, "uniform")
    if int(seed) != 0:
        _check_eager("uniform")
        key = _eager(_keys.key, int(seed))
    else:
        key = next_key("uniform")
    return placed(_uniform_draw(key, _paddle_shape("uniform", shape), dtype, float(min), float(max)), device)
