"""`padax.jit`: trace once per input signature, compile with XLA, call fast.

The cache key is (input tree, input avals, static argument values, the
x64 setting); one cache per (function, options), shared by every
`jit(f)` of the same function. Inside another transformation, a jitted
function stages out as one `jit` equation holding its jaxpr.
"""
from __future__ import annotations

import collections
import functools
import inspect
import weakref
from typing import Any, Callable, Sequence

import numpy as np

from padax.config import config
from padax.core import tree as tree_util
from padax.core.jaxpr import ClosedJaxpr, Jaxpr
from padax.core import trace as _trace_module
from padax.core.trace import EvalTrace, Tracer, set_current_trace, trace_state
from padax.devices import _jaxlib
from padax.devices import backend as _backend
from padax.devices.array import Tensor
from padax.devices.backend import default_device, single_device_sharding
from padax.devices.executable import Executable
from padax.devices.put import device_put
from padax.functional.lax.call import jit_p
from padax.lowering.compile import compile_lowered
from padax.lowering.mlir import lower_jaxpr
from padax.transforms.staging import aval_of, flat_fun, trace_flat


_flatten = tree_util.registry.flatten  # bound once: the call path is hot
_dispatch_flatten = tree_util.dispatch_registry.flatten

# -- the C++ dispatcher's view of padax ---------------------------------------------------------
# Cached calls run in jaxlib's C++ dispatcher: it flattens the arguments with the dispatch
# registry (where a Tensor is a node over its device buffer), looks the signature up and runs
# the executable; only a miss comes back to Python (`JitFunction._cache_miss`).
tree_util.dispatch_registry.register_node(Tensor, lambda t: ((t._buf,), t.aval),
                                          lambda aval, bufs: Tensor(bufs[0], aval))
_dispatch_cache = _jaxlib.jit_dispatch_cache(8192)


def _settings() -> tuple:
    return (config.enable_x64, config.disable_jit)


_settings_key = _jaxlib.jit_key_config("padax_jit_settings", _settings())
config.on_change(lambda name, value: _settings_key.set_global(_settings()))
_trace_module.tracing_key = _jaxlib.jit_key_config("padax_tracing", False)


class _Compiled:
    """One cache entry: the executable, device buffers of captured consts, output tree."""

    __slots__ = ("exe", "const_bufs", "out_tree", "jaxpr", "donated")

    def __init__(self, exe: Executable, const_bufs: list, out_tree, jaxpr: ClosedJaxpr, donated=()):
        self.exe = exe
        self.const_bufs = const_bufs
        self.out_tree = out_tree
        self.jaxpr = jaxpr
        self.donated = donated


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
    """Compile a closed jaxpr for the default device; returns it and its consts' buffers.

    A jaxpr that needs several devices (a shard_map or sharding constraint
    inside, or sharded captured values) gets an `SpmdDispatch` instead, which
    takes the consts itself (the returned list is then empty).
    """
    if needs_spmd(closed):
        return SpmdDispatch(closed, name, donated), []
    device = default_device()
    lowered = lower_jaxpr(closed.jaxpr, name=name, donated=donated)
    exe = Executable(compile_lowered(lowered, [device]), closed.out_avals, device)
    const_bufs = [(c if type(c) is Tensor else device_put(c))._buf for c in closed.consts]
    return exe, const_bufs


class JitFunction:
    """The callable `jit(f)` returns."""

    def __init__(self, fun: Callable, static_argnums=(), static_argnames=(), donate_argnums=(),
                 donate_argnames=(), in_shardings: Any = None, out_shardings: Any = None):
        self.fun = fun
        self.in_shardings = in_shardings
        self.out_shardings = out_shardings
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
        self._has_static = bool(self.static_argnums or self.static_argnames)
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
        if (self.in_shardings is not None or self.out_shardings is not None
                or not all(_on_default_device(x._buf) for x in leaves)):
            exe, const_bufs = self._spmd(closed, out_tree, dyn_args, dyn_kwargs, donated), []
        else:
            exe, const_bufs = compile_jaxpr(closed, self.__name__, donated)
        entry = _Compiled(exe, const_bufs, out_tree, closed, donated)
        self._cache[key] = entry
        return entry

    def _spmd(self, closed, out_tree, dyn_args, dyn_kwargs, donated) -> "SpmdDispatch":
        n_leaves = len(closed.jaxpr.invars)
        in_sh = None
        if self.in_shardings is not None:
            spec = self.in_shardings
            if not isinstance(spec, (tuple, list)) or _is_sharding(spec):
                spec = (spec,) * len(dyn_args)
            elif len(spec) != len(dyn_args):
                raise ValueError(f"jit({self.__name__}): in_shardings has {len(spec)} entries but the function "
                                 f"was called with {len(dyn_args)} positional arguments")
            in_sh = _expand_prefix(tuple(spec), dyn_args, "in_shardings", self.__name__)
            in_sh += [None] * (n_leaves - len(in_sh))  # keyword arguments: as they come
        out_sh = None
        if self.out_shardings is not None:
            out_sh = _expand_prefix(self.out_shardings, out_tree.unflatten([0] * out_tree.num_leaves),
                                    "out_shardings", self.__name__)
        return SpmdDispatch(closed, self.__name__, donated, in_sh, out_sh)

    def _placement_fallback(self, key, entry: _Compiled, bufs: list, error: Exception) -> list:
        """An executable for default-device inputs got arrays elsewhere: switch this entry to SPMD."""
        if all(_on_default_device(b) for b in bufs):
            raise error
        n = len(entry.jaxpr.jaxpr.invars)
        spmd = SpmdDispatch(entry.jaxpr, self.__name__, entry.donated, [None] * n, None)
        new = _Compiled(spmd, [], entry.out_tree, entry.jaxpr, entry.donated)
        self._cache[key] = new
        return spmd(bufs)

    def __call__(self, *args, **kwargs):
        return self._call(args, kwargs)[0]

    def _cache_miss(self, *args, **kwargs):
        """What the C++ dispatcher calls when it has no entry for a signature."""
        out, fast = self._call(args, kwargs)
        return out, fast, False

    def _call(self, args: tuple, kwargs: dict) -> tuple[Any, Any]:
        """Run the call in Python; also return the C++ fast-path entry for it (or None)."""
        if config.disable_jit:
            return self.fun(*args, **kwargs), None
        if self._has_static:
            dyn_args, dyn_kwargs, static = self._split(args, kwargs)
        else:
            dyn_args, dyn_kwargs, static = args, kwargs, ()
        leaves, in_tree = _flatten((dyn_args, dyn_kwargs))
        if type(trace_state.trace) is not EvalTrace:
            return self._call_staged(dyn_args, dyn_kwargs, static, in_tree, leaves), None
        all_tensors = True
        try:
            bufs = [x._buf for x in leaves]
            avals = tuple([x.aval for x in leaves])
        except AttributeError:
            all_tensors = False
            leaves = [x if type(x) is Tensor else _to_tensor_arg(x) for x in leaves]
            avals = tuple([x.aval for x in leaves])
            bufs = [x._buf for x in leaves]
        key = (in_tree, avals, static, config.enable_x64)
        entry = self._cache.get(key)
        if entry is None:
            entry = self._compile(key, dyn_args, dyn_kwargs, static, in_tree, leaves)
        try:
            outs = entry.exe(entry.const_bufs + bufs if entry.const_bufs else bufs)
        except _jaxlib.XlaRuntimeError as e:  # arguments on other devices / sharded: see _placement_fallback
            outs = self._placement_fallback(key, entry, bufs, e)
            entry = self._cache[key]
        result = entry.out_tree.unflatten(outs)
        fast = _fast_path(entry, bufs, avals, result) if all_tensors else None
        return result, fast

    def _call_staged(self, dyn_args, dyn_kwargs, static, in_tree, leaves):
        # The traced program is reused for the same signature (as at the top level) unless it
        # captured values of an enclosing transformation, which are new on every call.
        key = ("staged", in_tree, tuple([aval_of(x) for x in leaves]), static, config.enable_x64)
        hit = self._cache.get(key)
        if hit is None:
            closed, out_tree = self._trace(dyn_args, dyn_kwargs, static, in_tree, leaves)
            hit = (closed, out_tree, hoist_consts(closed))
            if not any(isinstance(c, Tracer) for c in closed.consts):
                self._cache[key] = hit
        closed, out_tree, hoisted = hit
        donated = (False,) * len(closed.consts) + (self._donated_mask(dyn_args, dyn_kwargs, static) or (False,) * len(leaves))
        if self.in_shardings is not None or self.out_shardings is not None:
            # inside another transformation the shardings become constraints on the values
            from padax.functional.lax.parallel_extra import sharding_constraint_p
            spmd = self._spmd(closed, out_tree, dyn_args, dyn_kwargs, ())
            leaves = [x if s is None else sharding_constraint_p.bind(x, sharding=s)
                      for x, s in zip(leaves, spmd.in_shardings)]
            outs = jit_p.bind(*closed.consts, *leaves, jaxpr=hoisted, name=self.__name__, donated=donated)
            outs = [x if s is None else sharding_constraint_p.bind(x, sharding=s)
                    for x, s in zip(outs, spmd.out_shardings)]
            return out_tree.unflatten(outs)
        outs = jit_p.bind(*closed.consts, *leaves, jaxpr=hoisted, name=self.__name__, donated=donated)
        return out_tree.unflatten(outs)

    # -- introspection ------------------------------------------------------------
    def lower(self, *args, **kwargs):
        """The StableHLO this call compiles to (`.as_text()`), like `jax.jit(f).lower(...)`."""
        dyn_args, dyn_kwargs, static = self._split(args, kwargs)
        leaves, in_tree = tree_util.flatten((dyn_args, dyn_kwargs))
        closed, out_tree = self._trace(dyn_args, dyn_kwargs, static, in_tree, leaves)
        if (self.in_shardings is not None or self.out_shardings is not None or needs_spmd(closed)
                or not all(_on_default_device(x._buf) for x in leaves if type(x) is Tensor)):
            spmd = self._spmd(closed, out_tree, dyn_args, dyn_kwargs, ())
            sig = tuple(_buffer_sharding(x._buf) if type(x) is Tensor else None for x in leaves)
            return spmd.plan(sig).lowered
        return lower_jaxpr(closed.jaxpr, name=self.__name__)

    def clear_cache(self) -> None:
        self._cache.clear()

    def _cache_size(self) -> int:
        """How many compiled signatures the cache holds (programs traced for staging not counted)."""
        return sum(1 for k in self._cache if type(k[0]) is not str)


def _fast_path(entry: _Compiled, bufs: list, avals: tuple, result: Any):
    """The C++ dispatcher's entry for a call that just ran in Python, or None to keep it in Python.

    Only calls whose arguments already lie where the program wants them qualify, and only if
    every device buffer agrees with its Tensor on weak typing (the C++ signature reads the
    buffer, the program was traced from the Tensor).
    """
    exe, const_bufs = entry.exe, entry.const_bufs
    if isinstance(exe, SpmdDispatch):
        hit = exe._fast.get(tuple([b._sharding for b in bufs]))
        if hit is None or not hit[1]:
            return None
        plan = hit[0]
        exe, const_bufs = plan.exe, plan.const_bufs
        in_shardings = [b._sharding for b in const_bufs] + plan.in_jaxlib
    else:
        want = single_device_sharding(exe.device)
        if not all(b._sharding is want for b in bufs):
            return None
        in_shardings = [want] * (len(const_bufs) + len(bufs))
    for b, a in zip(bufs, avals):
        ba = b.aval
        if ba is not a and (ba.weak_type if ba is not None else False) != a.weak_type:
            return None
    out_bufs, out_tree = _dispatch_flatten(result)
    if len(out_bufs) != len(exe.out_avals) or not all(type(b) is _jaxlib.ArrayImpl for b in out_bufs):
        return None
    n_in = len(in_shardings)
    return _jaxlib.JitFastPath(exe.exe, out_tree, in_shardings, exe.out_shardings, exe.out_avals,
                               [True] * len(exe.out_avals), [True] * n_in, [None] * n_in, list(const_bufs))


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
# Found by the jaxpr's identity; a jaxpr not seen before (a nested jit traces afresh on each
# call) is looked up by its structure before it is compiled.
_jaxpr_exes: "weakref.WeakKeyDictionary[ClosedJaxpr, Executable]" = weakref.WeakKeyDictionary()
_exes_by_structure: "collections.OrderedDict[tuple, Any]" = collections.OrderedDict()


@jit_p.def_impl
def _jit_impl(*args, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    exe = _jaxpr_exes.get(jaxpr)
    if exe is None:
        skey = _structure_key(jaxpr)
        if skey is not None:
            skey = (skey, donated)
            exe = _lru_get(_exes_by_structure, skey)
        if exe is None:
            exe, _ = compile_jaxpr(jaxpr, name, donated)
            if skey is not None:
                _lru_put(_exes_by_structure, skey, exe, _STRUCTURE_CACHE_SIZE)
        _jaxpr_exes[jaxpr] = exe
    bufs = [(a if type(a) is Tensor else device_put(a))._buf for a in args]
    try:
        return exe(bufs)
    except _jaxlib.XlaRuntimeError:
        if all(_on_default_device(b) for b in bufs) or isinstance(exe, SpmdDispatch):
            raise
        exe = _jaxpr_exes[jaxpr] = SpmdDispatch(jaxpr, name, donated)
        skey = _structure_key(jaxpr)
        if skey is not None:
            _lru_put(_exes_by_structure, (skey, donated), exe, _STRUCTURE_CACHE_SIZE)
        return exe(bufs)


# One executable cache per (function, options), shared by every jit(f) of that function.
# Only the cache dict is stored (not the JitFunction), so the function can still be freed.
_jit_caches: "weakref.WeakKeyDictionary[Callable, dict]" = weakref.WeakKeyDictionary()


def _clear_on_client_reset() -> None:
    """The CPU client was replaced (num_cpu_devices, padax.distributed): its executables are unusable."""
    _dispatch_cache.clear()
    for per_fun in list(_jit_caches.values()):
        for cache in per_fun.values():
            cache.clear()
    _jaxpr_exes.clear()


_backend.on_client_reset(_clear_on_client_reset)


def jit(fun: Callable | None = None, *, static_argnums: int | Sequence[int] = (),
        static_argnames: str | Sequence[str] = (), donate_argnums: int | Sequence[int] = (),
        donate_argnames: str | Sequence[str] = (), in_shardings: Any = None, out_shardings: Any = None) -> Any:
    """Compile `fun` with XLA. Usable as `@jit`, `jit(f, static_argnums=0)` or `@jit(static_argnums=0)`.

    `in_shardings` / `out_shardings` (a padax sharding, or a pytree prefix of
    the positional arguments / of the output with shardings or None) compile
    the program for several devices with XLA's SPMD partitioner: arguments are
    laid out as asked (moved if they are elsewhere) and results come back as
    sharded Tensors. Without them, arguments that already are sharded keep
    their layout and XLA chooses the outputs' layout.
    """
    if fun is None:
        return lambda f: jit(f, static_argnums=static_argnums, static_argnames=static_argnames,
                             donate_argnums=donate_argnums, donate_argnames=donate_argnames,
                             in_shardings=in_shardings, out_shardings=out_shardings)
    if not callable(fun):
        raise TypeError(f"jit: expected a function, got {type(fun).__name__}")
    jf = JitFunction(fun, static_argnums, static_argnames, donate_argnums, donate_argnames,
                     in_shardings, out_shardings)
    opts = (jf.static_argnums, jf.static_argnames, jf.donate_argnums)
    shared = True
    if in_shardings is not None or out_shardings is not None:
        try:
            opts += (_hashable_shardings(in_shardings), _hashable_shardings(out_shardings))
        except TypeError:
            shared = False
    if shared:
        try:
            jf._cache = _jit_caches.setdefault(fun, {}).setdefault(opts, {})
        except TypeError:  # not weak-referenceable (e.g. a builtin): a private cache
            shared = False
    return _dispatcher(jf, opts if shared else object())


def _dispatcher(jf: JitFunction, cache_key: Any):
    """The object `jit` returns: jaxlib's C++ dispatcher around `jf`, with jf's public methods."""
    fun = jf.fun
    cpp = _jaxlib.cpp_jit(getattr(fun, "__name__", "fun"), fun, jf._cache_miss, jf.static_argnums,
                          jf.static_argnames, cache_key, tree_util.dispatch_registry, _dispatch_cache)
    try:
        functools.update_wrapper(cpp, fun)
    except AttributeError:
        pass
    cpp.fun = fun
    cpp.lower = jf.lower
    cpp.clear_cache = functools.partial(_clear_both, jf, cpp)
    cpp._cache_size = jf._cache_size
    cpp._padax_jit = jf
    return cpp


def _clear_both(jf: JitFunction, cpp) -> None:
    jf.clear_cache()
    cpp._clear_cache()


# -- the jit primitive under other transformations -------------------------------------------
# Each transformation of a nested jit is again one jit equation over a derived program:
#
#   jvp        jit of the jvp'd jaxpr; only nonzero tangents are its inputs and outputs
#   linearize  (partial evaluation) a *known* jit, run now (eagerly: one compiled program),
#              computes the primal outputs and the residuals; an *unknown* jit over
#              (residuals, tangents) is staged into the linear program
#   transpose  jit of the transposed jaxpr (backward_pass traced), one compiled program
#   vmap       jit of the batched jaxpr; unbatched operands stay unbatched
#
# The derived programs are cached so that differentiating the same call again binds the very
# same ClosedJaxpr objects: `_jit_impl` then finds their executables by identity and nothing is
# retraced or recompiled. A nested jit stages a freshly traced jaxpr on every call, so the
# first derivation from a jaxpr falls back on a key of its structure (`_jaxpr_key`, shared with
# eager control flow); programs derived from derived ones are found by identity. Derived
# programs never donate: a donated primal may be a residual the backward pass still reads.

_derived: "weakref.WeakKeyDictionary[ClosedJaxpr, dict]" = weakref.WeakKeyDictionary()
_by_structure: "collections.OrderedDict[tuple, Any]" = collections.OrderedDict()
_STRUCTURE_CACHE_SIZE = 512


class _StructureKey:
    """A jaxpr's structure (`_jaxpr_key`) with its hash computed once: the key is a deep tuple."""

    __slots__ = ("key", "hash")

    def __init__(self, key: tuple):
        self.key = key
        self.hash = hash(key)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: Any) -> bool:
        return type(other) is _StructureKey and self.hash == other.hash and self.key == other.key


def _structure_key(jaxpr: ClosedJaxpr) -> "_StructureKey | None":
    """A key equal for const-free jaxprs that compute the same thing, or None."""
    if jaxpr.consts:
        return None
    from padax.functional.lax.control import _jaxpr_key
    try:
        return _StructureKey(_jaxpr_key(jaxpr.jaxpr))
    except TypeError:  # a param that is not hashable: no structural caching for this jaxpr
        return None


def _lru_get(cache: "collections.OrderedDict", key: Any) -> Any:
    hit = cache.get(key)
    if hit is not None:
        cache.move_to_end(key)
    return hit


def _lru_put(cache: "collections.OrderedDict", key: Any, value: Any, limit: int) -> None:
    cache[key] = value
    if len(cache) > limit:
        cache.popitem(last=False)


def _derive(jaxpr: ClosedJaxpr, kind: tuple, build: Callable[[], Any]) -> Any:
    """`build()` for (jaxpr, kind), cached by the jaxpr's identity and then by its structure."""
    per = _derived.get(jaxpr)
    if per is None:
        per = _derived[jaxpr] = {}
    hit = per.get(kind)
    if hit is not None:
        return hit
    skey = _structure_key(jaxpr)
    if skey is not None:
        skey = (kind, skey)
        hit = _lru_get(_by_structure, skey)
    if hit is None:
        hit = build()
        if skey is not None:
            _lru_put(_by_structure, skey, hit, _STRUCTURE_CACHE_SIZE)
    per[kind] = hit
    return hit


def _clear_derived() -> None:
    _derived.clear()
    _by_structure.clear()
    _exes_by_structure.clear()


_backend.on_client_reset(_clear_derived)


def _bind_program(closed: ClosedJaxpr, args: Sequence[Any], name: str) -> list:
    """Bind a traced program as one jit equation (its consts become leading operands)."""
    hoisted = _hoisted(closed)
    n = len(closed.consts) + len(args)
    return jit_p.bind(*closed.consts, *args, jaxpr=hoisted, name=name, donated=(False,) * n)


def _hoisted(closed: ClosedJaxpr) -> ClosedJaxpr:
    """The const-free form of a derived program, made once per program (its identity matters)."""
    if not closed.consts:
        return closed
    return _derive(closed, ("hoist",), lambda: hoist_consts(closed))


# jvp ---------------------------------------------------------------------------------------

def _jit_jvp(primals, tangents, *, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    """jvp of a nested jit: one jit of the jvp'd program, symbolic-zero tangents kept symbolic."""
    from padax.core import dtypes
    from padax.core.ad_util import Zero, tangent_aval
    from padax.functional.lax.control import _instantiate, _jvp_jaxpr
    in_avals, out_avals = jaxpr.in_avals, jaxpr.out_avals
    nz = tuple(type(t) is not Zero and dtypes.is_inexact(a.dtype) for t, a in zip(tangents, in_avals))
    if not any(nz):
        outs = jit_p.bind(*primals, jaxpr=jaxpr, name=name, donated=donated)
        return outs, [Zero(tangent_aval(a)) for a in out_avals]

    def build():
        traced, out_nz = _jvp_jaxpr(jaxpr, nz, [False] * len(out_avals))
        return traced, tuple(out_nz)

    program, out_nz = _derive(jaxpr, ("jvp", nz), build)
    ts = [_instantiate(t, a) for t, a, z in zip(tangents, in_avals, nz) if z]
    outs = _bind_program(program, list(primals) + ts, name)
    n = len(out_avals)
    it = iter(outs[n:])
    return outs[:n], [next(it) if z else Zero(tangent_aval(a)) for z, a in zip(out_nz, out_avals)]


# partial evaluation --------------------------------------------------------------------------

class _Split:
    """How a jit equation with some unknown inputs splits (see `_split_program`).

    `known` (or None: nothing to run) maps (known consts..., known inputs...) to the values
    listed in `known_src` and `res_src`, each ("out", k): output k of `known`, ("in", i):
    known input i forwarded unchanged, or ("val", v): a constant. `unknown` maps (residuals...,
    unknown inputs...) to the unknown outputs; `out_unknowns` says which outputs those are.
    """

    __slots__ = ("known", "known_consts", "known_src", "res_src", "unknown", "out_unknowns")

    def __init__(self, known, known_consts, known_src, res_src, unknown, out_unknowns):
        self.known = known
        self.known_consts = known_consts
        self.known_src = known_src
        self.res_src = res_src
        self.unknown = unknown
        self.out_unknowns = out_unknowns


def _split_program(jaxpr: ClosedJaxpr, unknowns: tuple) -> _Split:
    from padax.core.jaxpr import Literal, Var, dce_jaxpr
    from padax.transforms.ad import partial_eval_jaxpr
    known, unknown, out_unknowns, num_res = partial_eval_jaxpr(jaxpr, unknowns, instantiate=False)
    kj, uj = known.jaxpr, unknown.jaxpr
    n_known_out = len(kj.outvars) - num_res
    # the unknown program without dead equations; residuals it no longer reads are not made
    uj = dce_jaxpr(uj)
    read = {v for e in uj.eqns for v in e.invars if type(v) is Var}
    read.update(v for v in uj.outvars if type(v) is Var)
    res_in, u_in = uj.invars[:num_res], uj.invars[num_res:]
    keep = [v in read for v in res_in]
    unknown_program = ClosedJaxpr(Jaxpr([], [v for v, k in zip(res_in, keep) if k] + u_in, uj.outvars, uj.eqns), [])
    res_vars = [v for v, k in zip(kj.outvars[n_known_out:], keep) if k]
    # where each known output and residual comes from: a known input forwarded as it is, a
    # constant, or an output of the known program (each value computed and returned once)
    in_pos = {v: i for i, v in enumerate(kj.invars)}
    const_of = dict(zip(kj.constvars, known.consts))
    outs: list = []
    out_pos: dict = {}

    def source(v, constant_ok: bool):
        if type(v) is Var and v in in_pos:
            return ("in", in_pos[v])
        if constant_ok and type(v) is Literal:
            return ("val", v.val)
        if constant_ok and type(v) is Var and v in const_of:
            return ("val", const_of[v])
        k = out_pos.get(v) if type(v) is Var else None
        if k is None:
            k = len(outs)
            outs.append(v)
            if type(v) is Var:
                out_pos[v] = k
        return ("out", k)

    known_src = tuple(source(v, False) for v in kj.outvars[:n_known_out])
    res_src = tuple(source(v, True) for v in res_vars)
    known_program = None
    if outs:
        known_program = ClosedJaxpr(dce_jaxpr(Jaxpr([], kj.constvars + kj.invars, outs, kj.eqns)), [])
    return _Split(known_program, list(known.consts), known_src, res_src,
                  unknown_program if any(out_unknowns) else None, tuple(out_unknowns))


def _jit_partial_eval(trace, args, unknowns, *, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    """Known inputs -> a known jit run now (primal outputs and residuals); the rest -> an
    unknown jit of (residuals, unknown inputs) staged on `trace`."""
    split = _derive(jaxpr, ("partial_eval", tuple(unknowns)), lambda: _split_program(jaxpr, tuple(unknowns)))
    known_args = [a for a, u in zip(args, unknowns) if not u]
    computed: list = []
    if split.known is not None:
        k_args = split.known_consts + known_args
        with set_current_trace(trace.parent):
            computed = jit_p.bind(*k_args, jaxpr=split.known, name=name, donated=(False,) * len(k_args))

    def value(src):
        kind, x = src
        if kind == "out":
            return computed[x]
        return known_args[x] if kind == "in" else x

    known_outs = [value(s) for s in split.known_src]
    if split.unknown is None:
        return known_outs
    staged_in = [value(s) for s in split.res_src] + [a for a, u in zip(args, unknowns) if u]
    u_outs = trace.stage(jit_p, staged_in, dict(jaxpr=split.unknown, name=name,
                                                 donated=(False,) * len(staged_in)))
    ki, ui = iter(known_outs), iter(u_outs)
    return [next(ui) if u else next(ki) for u in split.out_unknowns]


# transpose -------------------------------------------------------------------------------------

def _transpose_program(jaxpr: ClosedJaxpr, linear: tuple, ct_nonzero: tuple):
    """(non-linear inputs..., nonzero output cotangents...) -> the nonzero input cotangents.
    Returns the traced program and which linear inputs get a (nonzero) cotangent."""
    from padax.core import dtypes
    from padax.core.ad_util import Zero, tangent_aval
    from padax.functional.lax.control import _instantiate
    from padax.transforms.ad import backward_pass
    j = jaxpr.jaxpr
    nl_vars = [v for v, l in zip(j.invars, linear) if not l]
    lin_vars = [v for v, l in zip(j.invars, linear) if l]
    as_linear = Jaxpr(nl_vars, lin_vars, j.outvars, j.eqns)  # non-linear inputs bound like consts
    out_avals = jaxpr.out_avals
    n_nl = len(nl_vars)
    store: list = []

    def transposed(*xs):
        it = iter(xs[n_nl:])
        cts = [next(it) if z else Zero(tangent_aval(a)) for z, a in zip(ct_nonzero, out_avals)]
        res = backward_pass(as_linear, list(xs[:n_nl]), cts)
        flags = [type(r) is not Zero and r is not None and dtypes.is_inexact(v.aval.dtype)
                 for r, v in zip(res, lin_vars)]
        store.append(flags)
        return [_instantiate(r, v.aval) for r, v, f in zip(res, lin_vars, flags) if f]

    in_avals = [v.aval for v in nl_vars] + [tangent_aval(a) for a, z in zip(out_avals, ct_nonzero) if z]
    traced = trace_flat(transposed, in_avals, "transpose of jit")
    return traced, tuple(store[0])


def _jit_transpose(cts, *args, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    """Transpose of a linear jit: one jit of the transposed program, fed the non-linear
    operands (residuals) and the nonzero output cotangents."""
    from padax.core import dtypes
    from padax.core.ad_util import Zero, is_undefined
    from padax.functional.lax.control import _instantiate
    linear = tuple(is_undefined(a) for a in args)
    ct_nonzero = tuple(c is not None and type(c) is not Zero and dtypes.is_inexact(a.dtype)
                       for c, a in zip(cts, jaxpr.out_avals))
    if not any(ct_nonzero) or not any(linear):
        return [None] * len(args)
    program, has_ct = _derive(jaxpr, ("transpose", linear, ct_nonzero),
                              lambda: _transpose_program(jaxpr, linear, ct_nonzero))
    if not any(has_ct):
        return [None] * len(args)
    nonlinear = [a for a, l in zip(args, linear) if not l]
    ct_vals = [_instantiate(c, a) for c, a, z in zip(cts, jaxpr.out_avals, ct_nonzero) if z]
    outs = iter(_bind_program(program, nonlinear + ct_vals, name))
    flags = iter(has_ct)
    return [(next(outs) if next(flags) else None) if l else None for l in linear]


# vmap ------------------------------------------------------------------------------------------

def _jit_batch(axis, args, dims, *, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    """vmap of a nested jit stays one jit: its jaxpr is batched (under the same axis, so
    collectives over the vmap's name work) and re-staged; unbatched operands stay unbatched."""
    from padax.core.batching_util import batch_size, bdim_to_front
    from padax.functional.lax.control import _batch_jaxpr
    size = batch_size(args, dims)
    batched = tuple(d is not None for d in dims)
    xs = [bdim_to_front(x, d, size) if d is not None else x for x, d in zip(args, dims)]
    n_out = len(jaxpr.out_avals)

    def build():
        traced, out_batched = _batch_jaxpr(axis, jaxpr, size, list(batched), [False] * n_out)
        return traced, tuple(out_batched)

    kind = ("vmap", batched, size, axis.axis_name, axis.spmd_axis_name)
    try:
        hash(kind)
    except TypeError:
        program, out_batched = build()
    else:
        program, out_batched = _derive(jaxpr, kind, build)
    outs = _bind_program(program, xs, name)
    return outs, [0 if b else None for b in out_batched]


jit_p.jvp_rule = _jit_jvp
jit_p.partial_eval_rule = _jit_partial_eval
jit_p.transpose_rule = _jit_transpose
jit_p.batch_rule_takes_trace = True
jit_p.batch_rule = _jit_batch


# -- SPMD: programs over several devices -----------------------------------------------------------

def _on_default_device(buf) -> bool:
    devs = buf._sharding._internal_device_list
    return len(devs) == 1 and devs[0] == default_device()


def _buffer_sharding(buf):
    from padax.devices.sharding import sharding_of_buffer
    return sharding_of_buffer(buf)


def _is_sharding(x: Any) -> bool:
    from padax.devices.sharding import Sharding
    return isinstance(x, Sharding)


def _hashable_shardings(spec: Any) -> Any:
    leaves, tree = tree_util.flatten(spec, is_leaf=lambda x: x is None or _is_sharding(x))
    key = (tree, tuple(leaves))
    hash(key)
    return key


def _expand_prefix(spec: Any, tree: Any, what: str, name: str) -> list:
    """One sharding (or None) per leaf of `tree`, from a pytree prefix `spec`."""
    leaves, treedef = tree_util.flatten(tree)
    if spec is None or _is_sharding(spec):
        return [spec] * len(leaves)
    spec_leaves, spec_tree = tree_util.flatten(spec, is_leaf=lambda x: x is None or _is_sharding(x))
    try:
        subtrees = spec_tree.flatten_up_to(tree)
    except (ValueError, TypeError) as e:
        raise ValueError(f"jit({name}): {what} {spec!r} does not match the structure {treedef}: {e}") from None
    out = []
    for s, sub in zip(spec_leaves, subtrees):
        if s is not None and not _is_sharding(s):
            raise TypeError(f"jit({name}): {what} entries must be padax shardings or None, got {s!r}")
        out += [s] * len(tree_util.leaves(sub))
    return out


def _walk_eqns(jaxpr: Jaxpr):
    for eqn in jaxpr.eqns:
        yield eqn
        for v in eqn.params.values():
            for sub in (v if isinstance(v, (tuple, list)) else (v,)):
                if isinstance(sub, ClosedJaxpr):
                    yield from _walk_eqns(sub.jaxpr)
                elif isinstance(sub, Jaxpr):
                    yield from _walk_eqns(sub)


def mesh_of_jaxpr(jaxpr: Jaxpr):
    """The first device mesh an equation of the jaxpr is bound to (shard_map, sharding constraints)."""
    from padax.devices.sharding import Mesh, NamedSharding
    for eqn in _walk_eqns(jaxpr):
        m = eqn.params.get("mesh")
        if isinstance(m, Mesh):
            return m
        sh = eqn.params.get("sharding")
        if isinstance(sh, NamedSharding):
            return sh.mesh
    return None


def needs_spmd(closed: ClosedJaxpr) -> bool:
    """Whether a jaxpr must be compiled for several devices (or for devices other than the default)."""
    if mesh_of_jaxpr(closed.jaxpr) is not None:
        return True
    return any(type(c) is Tensor and not _on_default_device(c._buf) for c in closed.consts)


class _SpmdPlan:
    """One compiled SPMD variant: the program, where each input must be, the consts already placed."""

    __slots__ = ("exe", "order", "in_targets", "in_jaxlib", "const_bufs", "lowered", "out_shardings")

    def __call__(self, bufs: list, avals: list) -> list:
        from padax.devices.sharding import reshard_buffer
        placed = []
        for b, a, want, target in zip(bufs, avals, self.in_jaxlib, self.in_targets):
            if b._sharding is not want:
                b = reshard_buffer(b, a, target, config.enable_x64, self.order)
            placed.append(b)
        return self.exe(self.const_bufs + placed if self.const_bufs else placed)


class SpmdDispatch:
    """Runs a closed jaxpr with XLA's SPMD partitioner, one compiled variant per input layout.

    `in_shardings` / `out_shardings`: one padax sharding or None per (flat)
    input / output; None means "as the argument is" for inputs and "as XLA
    chooses" for outputs. The program's devices, in partition order, come from
    the first mesh found (explicit shardings, then shard_map / sharding
    constraints inside, then the arguments). Single-device arguments join a
    multi-device program as replicated values.
    """

    def __init__(self, closed: ClosedJaxpr, name: str, donated: Sequence[bool] = (),
                 in_shardings: Sequence | None = None, out_shardings: Sequence | None = None):
        self.closed = closed
        self.name = name
        self.donated = tuple(donated)
        n_in = len(closed.jaxpr.invars)
        self.in_shardings = list(in_shardings) if in_shardings is not None else [None] * n_in
        self.out_shardings = list(out_shardings) if out_shardings is not None else [None] * len(closed.out_avals)
        self.in_avals = [v.aval for v in closed.jaxpr.invars]
        self._fast: dict = {}       # the buffers' jaxlib sharding objects -> plan
        self._plans: dict = {}      # argument shardings -> plan
        self._by_layout: dict = {}  # wanted input layouts -> plan

    def __call__(self, bufs: list) -> list[Tensor]:
        key = tuple([b._sharding for b in bufs])  # jaxlib objects: hashing them is cheap
        hit = self._fast.get(key)
        if hit is None:
            from padax.devices.sharding import sharding_of_buffer
            plan = self.plan(tuple([sharding_of_buffer(b) for b in bufs]))
            if len(self._fast) > 64:  # e.g. buffers jaxlib made itself, each with its own sharding object
                self._fast.clear()
            placed = all(k is w for k, w in zip(key, plan.in_jaxlib))
            hit = self._fast[key] = (plan, placed)  # (the key keeps its sharding objects alive: no id reuse)
        plan, placed = hit
        if placed:  # every argument already lies where the program wants it
            return plan.exe(plan.const_bufs + bufs if plan.const_bufs else bufs)
        return plan(bufs, self.in_avals)

    def plan(self, sig: tuple) -> _SpmdPlan:
        """Lower and compile the variant for argument shardings `sig` (None: a host value)."""
        plan = self._plans.get(sig)
        if plan is not None:
            return plan
        wanted_in = [w if w is not None else a for w, a in zip(self.in_shardings, sig)]
        plan = self._by_layout.get(tuple(wanted_in))
        if plan is None:
            plan = self._by_layout[tuple(wanted_in)] = self._build(wanted_in)
        self._plans[sig] = plan
        return plan

    def _build(self, wanted_in: list) -> _SpmdPlan:
        from padax.devices import sharding as sh
        from padax.devices.backend import single_device_sharding
        closed = self.closed
        const_sh = [_buffer_sharding(c._buf) if type(c) is Tensor else None for c in closed.consts]
        mesh, order = self._choose_devices(wanted_in, const_sh)
        multi = len(order) > 1
        replicated = sh.GSPMDSharding(order, _jaxlib.hlo_sharding_replicated()) if multi else \
            sh.SingleDeviceSharding(order[0])

        def fit(s, aval, what):
            if s is None:
                return replicated
            if isinstance(s, sh.SingleDeviceSharding) and (multi or s.device != order[0]):
                return replicated
            if s.device_set != frozenset(order):
                raise ValueError(
                    f"jit({self.name}): {what} is laid out on devices {sorted(d.id for d in s.device_set)} but the "
                    f"program runs on devices {sorted(d.id for d in order)}; device_put it onto the same mesh")
            s.check_shape(aval.shape, what)
            return s

        in_targets = [fit(s, a, f"argument {i} ({a.str_short()})")
                      for i, (s, a) in enumerate(zip(wanted_in, self.in_avals))]
        const_targets = [fit(s, c.aval if type(c) is Tensor else _host_aval(c), f"captured constant {i}")
                         for i, (s, c) in enumerate(zip(const_sh, closed.consts))]
        out_targets = []
        for i, (s, a) in enumerate(zip(self.out_shardings, closed.out_avals)):
            out_targets.append(None if s is None else fit(s, a, f"output {i} ({a.str_short()})"))

        def hlo_text(s, ndim):  # the padax sharding itself: lower_jaxpr writes it in Shardy's form
            return s

        arg_sh = ([hlo_text(s, len(_host_aval(c).shape) if type(c) is not Tensor else c.aval.ndim)
                   for s, c in zip(const_targets, closed.consts)]
                  + [hlo_text(s, a.ndim) for s, a in zip(in_targets, self.in_avals)])
        res_sh = [hlo_text(s, a.ndim) for s, a in zip(out_targets, closed.out_avals)]
        donated = (False,) * len(closed.consts) + self.donated if self.donated else ()
        if multi:
            lowered = lower_jaxpr(closed.jaxpr, name=self.name, donated=donated, device_assignment=order,
                                  arg_shardings=arg_sh, result_shardings=res_sh, mesh=mesh)
        else:
            lowered = lower_jaxpr(closed.jaxpr, name=self.name, donated=donated)
        loaded = compile_lowered(lowered, list(order))
        if multi:
            hlos = _jaxlib.output_hlo_shardings(loaded)
            outs = []
            for i, (t, a) in enumerate(zip(out_targets, closed.out_avals)):
                if t is None:
                    h = hlos[i] if hlos is not None else _jaxlib.hlo_sharding_replicated()
                    t = (sh.name_on_mesh(h, a.ndim, mesh, order) if mesh is not None else None) or \
                        sh.GSPMDSharding(order, h)
                outs.append(t)
            out_jaxlib = [t.to_jaxlib(a.ndim, order) for t, a in zip(outs, closed.out_avals)]
        else:
            outs = [sh.SingleDeviceSharding(order[0])] * len(closed.out_avals)
            out_jaxlib = [single_device_sharding(order[0])] * len(closed.out_avals)
        plan = _SpmdPlan()
        plan.exe = Executable(loaded, closed.out_avals, order[0], out_jaxlib)
        plan.order = order
        plan.in_targets = in_targets
        plan.in_jaxlib = [t.to_jaxlib(a.ndim, order) for t, a in zip(in_targets, self.in_avals)]
        plan.lowered = lowered
        plan.out_shardings = outs
        plan.const_bufs = []
        for c, t in zip(closed.consts, const_targets):
            t_in = c if type(c) is Tensor else device_put(c)
            plan.const_bufs.append(sh.reshard_buffer(t_in._buf, t_in.aval, t, config.enable_x64, order))
        return plan

    def _choose_devices(self, wanted_in: list, const_sh: list):
        from padax.devices.sharding import NamedSharding
        cands = [s for s in self.in_shardings + self.out_shardings if s is not None]
        mesh = next((s.mesh for s in cands if isinstance(s, NamedSharding)), None)
        if mesh is None:
            mesh = mesh_of_jaxpr(self.closed.jaxpr)
        if mesh is None:
            mesh = next((s.mesh for s in wanted_in + const_sh
                         if isinstance(s, NamedSharding) and s.num_devices > 1), None)
        if mesh is not None:
            return mesh, mesh.device_list
        multi = [s for s in cands + wanted_in + const_sh if s is not None and s.num_devices > 1]
        if multi:
            return None, multi[0].device_list
        single = [s for s in cands + wanted_in + const_sh if s is not None]
        return None, (single[0].device_list if single else (default_device(),))


def _host_aval(c: Any):
    from padax.core.abstract import aval_of_host_value
    return aval_of_host_value(c)
