"""Host callbacks: primitives that call a Python function from a (compiled) program.

* `pure_callback` (`pure_callback_p`): a side-effect-free host function of its
  operands (numpy arrays in, numpy arrays of `result_avals` out). XLA may drop
  it if its results are unused, or run it again.
* `io_callback` (`io_callback_p`): a host function with side effects; kept
  even when its results are unused; with `ordered=True` it runs in program
  order with the other ordered effects.
* `debug_callback` (`debug_callback_p`): a host function without results,
  behind `padax.debug.print` / `callback` / `breakpoint`; differentiating it
  calls it on the primal values only.

Params: `callback` (a `HostFunction`: the user's function plus how to
rebuild its argument trees and check its results), `result_avals`,
`ordered`, `vmap_method` (pure only) and `batch_ndim`: how many leading axes
of every operand (and result) are batch axes that the host loops over, one
call per element (vmap's "sequential" method; 0 outside vmap).

Eagerly the function is called directly; in a compiled program the lowering
(padax/lowering/rules/callback.py) emits XLA's host-callback custom call.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from padax.core.abstract import ShapedArray
from padax.core.effects import debug_effect, io_effect, no_effects, ordered_debug_effect, ordered_io_effect
from padax.core.primitive import Primitive
from padax.functional.lax.structural import batch_size, bdim_to_front, expand_dims
from padax.runtime.put import device_put

debug_callback_p = Primitive("debug_callback", multiple_results=True)
pure_callback_p = Primitive("pure_callback", multiple_results=True)
io_callback_p = Primitive("io_callback", multiple_results=True)

# "sequential_unrolled" is jax's name for sequential calls unrolled in the program; the host loop
# makes the same calls in the same order, so it is the same method here
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all")


class CallbackResultError(TypeError):
    """A host callback returned values that do not match the declared shapes/dtypes."""


class HostFunction:
    """The Python function behind a callback equation: `run(*flat numpy args) -> flat numpy results`.

    `fn(*flat args)` is the user-level function already adapted to flat arguments;
    `name` says which callback this is in error messages. Equal (and hashing alike) when
    they wrap the same function with the same name, so retracing the same call gives
    equal equations.
    """

    __slots__ = ("fn", "name", "__weakref__")

    def __init__(self, fn: Callable[..., Sequence[Any]], name: str):
        self.fn = fn
        self.name = name

    def __eq__(self, other: Any) -> bool:
        return type(other) is HostFunction and self.fn == other.fn and self.name == other.name

    def __hash__(self) -> int:
        return hash((self.fn, self.name))

    def __repr__(self) -> str:
        return self.name

    def run(self, args: Sequence[np.ndarray], result_avals: Sequence[ShapedArray], batch_ndim: int) -> tuple:
        """Call the function (once per batch element for batch_ndim > 0) and check its results."""
        if batch_ndim == 0:
            return self._checked(self.fn(*args), result_avals)
        batch_shape = (np.shape(args[0])[:batch_ndim] if args else
                       result_avals[0].shape[:batch_ndim])
        elem_avals = [a.update(shape=a.shape[batch_ndim:]) for a in result_avals]
        outs = [np.empty(a.shape, a.dtype) for a in result_avals]
        for idx in np.ndindex(*batch_shape):
            res = self._checked(self.fn(*[a[idx] for a in args]), elem_avals)
            for o, r in zip(outs, res):
                o[idx] = r
        return tuple(outs)

    def _checked(self, results: Any, result_avals: Sequence[ShapedArray]) -> tuple:
        if results is None:
            results = ()
        if not isinstance(results, (tuple, list)):
            results = (results,)
        if len(results) != len(result_avals):
            raise CallbackResultError(f"{self.name}: the callback returned {len(results)} values but "
                                      f"{len(result_avals)} were declared (result_shape_dtypes)")
        out = []
        for i, (r, a) in enumerate(zip(results, result_avals)):
            weak = isinstance(r, (bool, int, float, complex)) and not isinstance(r, np.generic)
            arr = np.asarray(r, dtype=a.dtype) if weak else np.asarray(r)
            if arr.shape != a.shape or arr.dtype != a.dtype:
                got = ShapedArray(arr.shape, arr.dtype).str_short()
                raise CallbackResultError(
                    f"{self.name}: result #{i} of the callback does not match result_shape_dtypes: expected "
                    f"{a.str_short()}, received {got}")
            out.append(arr)
        return tuple(out)


# -- abstract evaluation, effects, eager execution -------------------------------------------------

def _abstract(*avals, callback, result_avals, **params):
    return list(result_avals)


def _debug_effects(params) -> frozenset:
    return frozenset([ordered_debug_effect if params["ordered"] else debug_effect])


def _io_effects(params) -> frozenset:
    return frozenset([ordered_io_effect if params["ordered"] else io_effect])


def _impl(*args, callback: HostFunction, result_avals, batch_ndim, **params):
    """Eagerly: the function runs right away on host copies of the operands."""
    host = [np.array(a) for a in args]
    outs = callback.run(host, result_avals, batch_ndim)
    return [device_put(o) for o in outs]


for _p, _eff in ((debug_callback_p, _debug_effects), (pure_callback_p, lambda params: no_effects),
                 (io_callback_p, _io_effects)):
    _p.def_abstract_eval(_abstract)
    _p.def_impl(_impl)
    _p.effects_rule = _eff


# -- differentiation ----------------------------------------------------------------------------------

def _debug_jvp(primals, tangents, **params):
    """The callback sees the primal values; it has no outputs, so no tangents."""
    debug_callback_p.bind(*primals, **params)
    return [], []


def _not_differentiable(kind: str):
    def rule(primals, tangents, *, callback, **params):
        raise TypeError(
            f"{callback.name} is not differentiable: padax cannot see inside a host function. Wrap the "
            f"function that calls {kind} in padax.custom_jvp or padax.custom_vjp and give it a "
            "derivative rule (see the example in padax.pure_callback's docstring).")
    return rule


debug_callback_p.jvp_rule = _debug_jvp
pure_callback_p.jvp_rule = _not_differentiable("pure_callback")
io_callback_p.jvp_rule = _not_differentiable("io_callback")


# -- batching -----------------------------------------------------------------------------------------

def _batched_avals(result_avals, size: int) -> tuple:
    """Result avals with the new batch axis in front (before the existing batch axes)."""
    return tuple(a.update(shape=(size,) + a.shape) for a in result_avals)


def _sequential(prim):
    """Every operand gets the batch axis in front (unbatched ones broadcast); the host loops over it."""
    def rule(args, dims, *, result_avals, batch_ndim, **params):
        size = batch_size(args, dims)
        xs = [bdim_to_front(x, d, size) for x, d in zip(args, dims)]
        outs = prim.bind(*xs, result_avals=_batched_avals(result_avals, size),
                         batch_ndim=batch_ndim + 1, **params)
        return outs, [0] * len(outs)
    return rule


def _pure_batch(args, dims, *, callback, result_avals, batch_ndim, vmap_method, **params):
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"{callback.name} under vmap: pass vmap_method= to pure_callback to say how the host function "
            f"handles a batch: 'sequential' (one call per batch element), 'expand_dims' (one call; unbatched "
            f"arguments get a leading axis of size 1) or 'broadcast_all' (one call; every argument is "
            f"broadcast to the batch size). Got vmap_method={vmap_method!r}.")
    if vmap_method in ("sequential", "sequential_unrolled"):
        return _sequential(pure_callback_p)(args, dims, callback=callback, result_avals=result_avals,
                                            batch_ndim=batch_ndim, vmap_method=vmap_method, **params)
    size = batch_size(args, dims)
    if vmap_method == "expand_dims":
        xs = [bdim_to_front(x, d, size) if d is not None else expand_dims(x, (0,)) for x, d in zip(args, dims)]
    else:
        xs = [bdim_to_front(x, d, size) for x, d in zip(args, dims)]
    # the function itself handles the leading batch axis: it stays outside the host loop's axes
    if batch_ndim:
        raise ValueError(f"{callback.name}: vmap_method={vmap_method!r} under a vmap whose inner level is "
                         "'sequential' is not supported; use one method for every level")
    outs = pure_callback_p.bind(*xs, callback=callback, result_avals=_batched_avals(result_avals, size),
                                batch_ndim=0, vmap_method=vmap_method, **params)
    return outs, [0] * len(outs)


def _io_batch(args, dims, *, callback, ordered, **params):
    if ordered:
        raise ValueError(f"{callback.name}: an io_callback with ordered=True cannot be vmapped (the order of "
                         "the calls across the batch is not defined); use ordered=False")
    return _sequential(io_callback_p)(args, dims, callback=callback, ordered=ordered, **params)


debug_callback_p.batch_rule = _sequential(debug_callback_p)
pure_callback_p.batch_rule = _pure_batch
io_callback_p.batch_rule = _io_batch
