"""`padax.jit`: trace once per input signature, compile with XLA, call fast.

The cache key is (input tree, input avals, static argument values, the
x64 setting); one cache per (function, options), shared by every
`jit(f)` of the same function. Inside another transformation, a jitted
function stages out as one `jit` equation holding its jaxpr.
"""
from __future__ import annotations

import functools
import inspect
import weakref
from typing import Any, Callable, Sequence

import numpy as np

from padax.config import config
from padax.core import tree as tree_util
from padax.core.jaxpr import ClosedJaxpr, Jaxpr
from padax.core.trace import EvalTrace, trace_state
from padax.devices.array import Tensor
from padax.devices.backend import default_device
from padax.devices.executable import Executable
from padax.devices.put import device_put
from padax.functional.lax.call import jit_p
from padax.lowering.compile import compile_lowered
from padax.lowering.mlir import lower_jaxpr
from padax.transforms.staging import aval_of, flat_fun, trace_flat


class _Compiled:
    """One cache entry: the executable, device buffers of captured consts, output tree."""

    __slots__ = ("exe", "const_bufs", "out_tree", "jaxpr")

    def __init__(self, exe: Executable, const_bufs: list, out_tree, jaxpr: ClosedJaxpr):
        self.exe = exe
        self.const_bufs = const_bufs
        self.out_tree = out_tree
        self.jaxpr = jaxpr


def _normalize_argnums(argnums: int | Sequence[int] | None) -> tuple[int, ...]:
    if argnums is None:
        return ()
    if isinstance(argnums, int):
        return (argnums,)
    return tuple(argnums)


def _hashable_static(value: Any, what: str) -> Any:
    try:
        hash(value)
    except TypeError:
        raise ValueError(f"jit: static argument {what} must be hashable, got a "
                         f"{type(value).__name__}: {value!r}. Pass a tuple instead of a list, "
                         "or make the argument non-static.") from None
    return value


def compile_jaxpr(closed: ClosedJaxpr, name: str, donated: Sequence[bool] = ()) -> tuple[Executable, list]:
    """Compile a closed jaxpr for the default device; returns it and its consts' buffers."""
    device = default_device()
    lowered = lower_jaxpr(closed.jaxpr, name=name, donated=donated)
    exe = Executable(compile_lowered(lowered, [device]), closed.out_avals, device)
    const_bufs = [(c if type(c) is Tensor else device_put(c))._buf for c in closed.consts]
    return exe, const_bufs


class JitFunction:
    """The callable `jit(f)` returns."""

    def __init__(self, fun: Callable, static_argnums=(), static_argnames=(), donate_argnums=(),
                 donate_argnames=()):
        self.fun = fun
        self.static_argnums = _normalize_argnums(static_argnums)
        self.static_argnames = (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames)
        self.donate_argnums = _normalize_argnums(donate_argnums)
        self.donate_argnames = (donate_argnames,) if isinstance(donate_argnames, str) else tuple(donate_argnames)
        self._cache: dict[tuple, _Compiled] = {}
        self._signature = None
        try:
            self._signature = inspect.signature(fun)
        except (TypeError, ValueError):
            pass
        if self._signature is not None:
            self._resolve_names()
        functools.update_wrapper(self, fun)

    def _resolve_names(self) -> None:
        """static_argnames <-> static_argnums, as JAX does for positional-or-keyword params."""
        params = list(self._signature.parameters.values())
        names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        nums = set(self.static_argnums)
        snames = set(self.static_argnames)
        for i in list(nums):
            if 0 <= i < len(names):
                snames.add(names[i])
        for n in list(snames):
            if n in names:
                nums.add(names.index(n))
        self.static_argnums = tuple(sorted(nums))
        self.static_argnames = tuple(sorted(snames))
        dn = set(self.donate_argnums)
        for n in self.donate_argnames:
            if n in names:
                dn.add(names.index(n))
        self.donate_argnums = tuple(sorted(dn))

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self, obj)

    # -- the call path ---------------------------------------------------------------
    def _split(self, args: tuple, kwargs: dict):
        nums, names = self.static_argnums, self.static_argnames
        if not nums and not names:
            return args, kwargs, ()
        n = len(args)
        static = tuple((i, _hashable_static(args[i], f"#{i}")) for i in nums if i < n)
        dyn_args = tuple(a for i, a in enumerate(args) if i not in nums)
        static += tuple((k, _hashable_static(kwargs[k], repr(k))) for k in sorted(kwargs) if k in names)
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in names}
        return dyn_args, dyn_kwargs, static

    def _rebuild_fun(self, args: tuple, static: tuple) -> Callable:
        nums = self.static_argnums
        if not static:
            return self.fun
        pos = {k: v for k, v in static if isinstance(k, int)}
        kw = {k: v for k, v in static if isinstance(k, str)}
        n_total = len(args) + len(pos)

        def f(*dyn, **dyn_kw):
            it = iter(dyn)
            full = [pos[i] if i in pos else next(it) for i in range(n_total)]
            return self.fun(*full, **dyn_kw, **kw)
        return f

    def _trace(self, dyn_args, dyn_kwargs, static, in_tree, leaves) -> tuple[ClosedJaxpr, Any]:
        store: list = []
        closed = trace_flat(flat_fun(self._rebuild_fun(dyn_args, static), in_tree, store),
                            [aval_of(x) for x in leaves], f"jit({self.__name__}) tracing")
        return closed, store[0]

    def _donated_mask(self, dyn_args: tuple, dyn_kwargs: dict, static: tuple) -> tuple[bool, ...]:
        if not self.donate_argnums:
            return ()
        n_static_before = {i: sum(1 for k, _ in static if isinstance(k, int) and k < i) for i in range(len(dyn_args) + len(static))}
        donated_dyn = {i - n_static_before[i] for i in self.donate_argnums}
        mask = []
        for i, a in enumerate(dyn_args):
            mask += [i in donated_dyn] * len(tree_util.leaves(a))
        mask += [False] * len(tree_util.leaves(dyn_kwargs))
        return tuple(mask)

    def _compile(self, key, dyn_args, dyn_kwargs, static, in_tree, leaves) -> _Compiled:
        closed, out_tree = self._trace(dyn_args, dyn_kwargs, static, in_tree, leaves)
        donated = self._donated_mask(dyn_args, dyn_kwargs, static)
        exe, const_bufs = compile_jaxpr(closed, self.__name__, donated)
        entry = _Compiled(exe, const_bufs, out_tree, closed)
        self._cache[key] = entry
        return entry

    def __call__(self, *args, **kwargs):
        if config.disable_jit:
            return self.fun(*args, **kwargs)
        dyn_args, dyn_kwargs, static = self._split(args, kwargs)
        leaves, in_tree = tree_util.flatten((dyn_args, dyn_kwargs))
        if type(trace_state.trace) is not EvalTrace:
            return self._call_staged(dyn_args, dyn_kwargs, static, in_tree, leaves)
        try:
            avals = tuple([x.aval for x in leaves])
            bufs = [x._buf for x in leaves]
        except AttributeError:
            leaves = [x if type(x) is Tensor else _to_tensor_arg(x) for x in leaves]
            avals = tuple([x.aval for x in leaves])
            bufs = [x._buf for x in leaves]
        key = (in_tree, avals, static, config.enable_x64)
        entry = self._cache.get(key)
        if entry is None:
            entry = self._compile(key, dyn_args, dyn_kwargs, static, in_tree, leaves)
        if entry.const_bufs:
            bufs = entry.const_bufs + bufs
        return entry.out_tree.unflatten(entry.exe(bufs))

    def _call_staged(self, dyn_args, dyn_kwargs, static, in_tree, leaves):
        closed, out_tree = self._trace(dyn_args, dyn_kwargs, static, in_tree, leaves)
        hoisted = hoist_consts(closed)
        donated = (False,) * len(closed.consts) + (self._donated_mask(dyn_args, dyn_kwargs, static) or (False,) * len(leaves))
        outs = jit_p.bind(*closed.consts, *leaves, jaxpr=hoisted, name=self.__name__, donated=donated)
        return out_tree.unflatten(outs)

    # -- introspection ------------------------------------------------------------
    def lower(self, *args, **kwargs):
        """The StableHLO this call compiles to (`.as_text()`), like `jax.jit(f).lower(...)`."""
        dyn_args, dyn_kwargs, static = self._split(args, kwargs)
        leaves, in_tree = tree_util.flatten((dyn_args, dyn_kwargs))
        closed, _ = self._trace(dyn_args, dyn_kwargs, static, in_tree, leaves)
        return lower_jaxpr(closed.jaxpr, name=self.__name__)

    def clear_cache(self) -> None:
        self._cache.clear()

    def _cache_size(self) -> int:
        return len(self._cache)


def _to_tensor_arg(x: Any) -> Tensor:
    if isinstance(x, (bool, int, float, complex, np.ndarray, np.generic)):
        return device_put(x)
    raise TypeError(f"jit: argument of type {type(x).__name__} is not an array: {x!r}. "
                    "Mark non-array arguments static with static_argnums or static_argnames.")


def hoist_consts(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Turn a closed jaxpr's consts into leading inputs (a const-free ClosedJaxpr)."""
    j = closed.jaxpr
    return ClosedJaxpr(Jaxpr([], j.constvars + j.invars, j.outvars, j.eqns), [])


# -- the jit primitive's eager impl: compile the sub-jaxpr once per jaxpr -------------------
_jaxpr_exes: "weakref.WeakKeyDictionary[ClosedJaxpr, Executable]" = weakref.WeakKeyDictionary()


@jit_p.def_impl
def _jit_impl(*args, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    exe = _jaxpr_exes.get(jaxpr)
    if exe is None:
        exe, _ = compile_jaxpr(jaxpr, name, donated)
        _jaxpr_exes[jaxpr] = exe
    bufs = [(a if type(a) is Tensor else device_put(a))._buf for a in args]
    return exe(bufs)


# One executable cache per (function, options), shared by every jit(f) of that function.
# Only the cache dict is stored (not the JitFunction), so the function can still be freed.
_jit_caches: "weakref.WeakKeyDictionary[Callable, dict]" = weakref.WeakKeyDictionary()


def jit(fun: Callable | None = None, *, static_argnums: int | Sequence[int] = (),
        static_argnames: str | Sequence[str] = (), donate_argnums: int | Sequence[int] = (),
        donate_argnames: str | Sequence[str] = ()) -> Any:
    """Compile `fun` with XLA. Usable as `@jit`, `jit(f, static_argnums=0)` or `@jit(static_argnums=0)`."""
    if fun is None:
        return lambda f: jit(f, static_argnums=static_argnums, static_argnames=static_argnames,
                             donate_argnums=donate_argnums, donate_argnames=donate_argnames)
    if not callable(fun):
        raise TypeError(f"jit: expected a function, got {type(fun).__name__}")
    jf = JitFunction(fun, static_argnums, static_argnames, donate_argnums, donate_argnames)
    opts = (jf.static_argnums, jf.static_argnames, jf.donate_argnums)
    try:
        per_fun = _jit_caches.setdefault(fun, {})
    except TypeError:  # not weak-referenceable (e.g. a builtin): a private cache
        return jf
    jf._cache = per_fun.setdefault(opts, {})
    return jf


# -- the jit primitive under other transformations -------------------------------------------

def _jit_jvp(primals, tangents, *, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    """Differentiate through a nested jit by differentiating its jaxpr inline."""
    from padax.core.jaxpr import eval_jaxpr
    from padax.transforms.ad import _jvp_flat
    return _jvp_flat(lambda *xs: eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *xs), primals, tangents)


def _jit_batch(args, dims, *, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    """vmap of a nested jit stays one jit: its jaxpr is batched and re-staged."""
    from padax.core.batching_util import batch_size, bdim_to_front
    from padax.core.jaxpr import eval_jaxpr
    from padax.transforms.batching import vmap
    size = batch_size(args, dims)
    xs = [bdim_to_front(x, d, size) for x, d in zip(args, dims)]
    batched = trace_flat(vmap(lambda *a: eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *a)), [aval_of(x) for x in xs],
                         f"vmap of jit({name}) tracing")
    outs = jit_p.bind(*batched.consts, *xs, jaxpr=hoist_consts(batched), name=name,
                      donated=(False,) * (len(batched.consts) + len(xs)))
    return outs, [0] * len(outs)


jit_p.jvp_rule = _jit_jvp
jit_p.batch_rule = _jit_batch
