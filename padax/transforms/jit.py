"""`padax.jit`: trace once per input signature, compile with XLA, call fast.

`jit(f)` returns jaxlib's C++ dispatcher: a call whose argument signature
was seen before runs without Python (arguments flattened through the
dispatch pytree registry, executable looked up and run in C++). A miss comes
back to `JitFunction._call`: its cache key is (input tree, input avals,
static argument values, the x64 setting), one cache per (function, options)
shared by every `jit(f)` of the same function. Inside another
transformation a jitted function stages out as one `jit` equation
(padax/transforms/jit_primitive.py); programs over several devices go
through padax/transforms/spmd.py.
"""
from __future__ import annotations

import collections
import functools
import inspect
import logging
import sys
import weakref
from typing import Any, Callable, Sequence

import numpy as np

from padax.config import config
from padax.core import node_state, primitive as _primitive, trace as _trace_module
from padax.core.errors import OutOfMemoryError
from padax.core.jaxpr import ClosedJaxpr
from padax.core.ref import Ref
from padax.core.source_info import user_location
from padax.core.trace import EvalTrace, Tracer, escaped_tracer_error, trace_state
from padax.functional._rebind import rebind
from padax.functional.lax.call import jit_p
from padax.functional.lax.resharding import sharding_constraint_p
from padax.interpreters import tape
from padax.interpreters.discharge import bind_with_refs, discharge_jaxpr, jaxpr_has_refs
from padax.interpreters.staging import StagedState, write_attr
from padax.interpreters.tape import GradTensor
from padax.runtime import _jaxlib, backend as _backend, tree as tree_util
from padax.runtime.array import Tensor, mark_donated, on_captured_rebind, raise_if_deleted
from padax.runtime.backend import default_device, single_device_sharding
from padax.runtime.executable import Executable, out_of_memory_error, raise_if_out_of_memory
from padax.runtime.ffi_targets import reraise_kernel_error
from padax.runtime.profiling import span
from padax.runtime.put import device_put
from padax.transforms.aot import Lowered, Traced
from padax.transforms.debug_nans import check_eager_op, check_program
from padax.transforms.jit_primitive import clear_program_caches, compile_jaxpr, hoist_consts
from padax.transforms.spmd import (
    SpmdDispatch,
    expand_prefix,
    hashable_shardings,
    is_sharding,
    needs_spmd,
    on_default_device,
)
from padax.transforms.staging import arg_aval, trace_flat

_flatten = tree_util.registry.flatten  # bound once: the call path is hot
_dispatch_flatten = tree_util.dispatch_registry.flatten

# -- the C++ dispatcher's view of padax ---------------------------------------------------------
# Cached calls run in jaxlib's C++ dispatcher: it flattens the arguments with the dispatch
# registry (where a Tensor is a node over its device buffer), looks the signature up and runs
# the executable; only a miss comes back to Python (`JitFunction._cache_miss`).
# (A data-field node: C++ reads `_buf` itself and rebuilds with `Tensor(_buf=b)`; no aux data,
# so the signature check compares no Python objects per argument.)
tree_util.dispatch_registry.register_dataclass_node(Tensor, ["_buf"], [])
_dispatch_cache = _jaxlib.jit_dispatch_cache(8192)


_logger = logging.getLogger("padax")


def _settings() -> tuple:
    return (config.enable_x64, config.default_dtype, config.disable_jit, config.default_matmul_precision,
            config.debug_nans, config.debug_infs)


_settings_key = _jaxlib.jit_key_config("padax_jit_settings", _settings())
config.on_change(lambda name, value: _settings_key.set_global(_settings()))
# a forked child must miss the C++ fast path, so that the Python path can refuse (see backend.py)
_backend.on_fork_in_child(lambda: _settings_key.set_global(("forked",) + _settings()))
_trace_module.tracing_key = _jaxlib.jit_key_config("padax_tracing", False)
_trace_module.policy_key = _jaxlib.jit_key_config("padax_bind_policy", None)


class _Compiled:
    """One cache entry: the executable, device buffers of captured consts, output tree."""

    __slots__ = ("exe", "const_bufs", "out_tree", "jaxpr", "donated", "live", "stateful", "hoisted", "donor")

    def __init__(self, exe: Executable, const_bufs: list, out_tree, jaxpr: ClosedJaxpr, donated=()):
        self.exe = exe
        self.const_bufs = const_bufs
        self.out_tree = out_tree
        self.jaxpr = jaxpr
        self.donated = donated
        self.live = _live_consts(jaxpr, out_tree) if const_bufs else []
        # it updates outside state (writes back after each call): never recorded on the tape as a node
        self.stateful = type(out_tree) is _WithWrites
        self.hoisted: ClosedJaxpr | None = None  # the program with its consts as inputs (the tape's node)
        # positions of the consts it overwrites (parameters, optimizer state), donated to the program: each
        # call passes their current buffers, and the entry keeps no reference to the first ones
        self.donor = _state_donors(jaxpr, out_tree) if type(exe) is Executable and not any(donated) else ()
        for i in self.donor:
            const_bufs[i] = None


def _state_donors(closed: ClosedJaxpr, out_tree: Any) -> tuple[int, ...]:
    """Positions of the consts a stateful program overwrites (Tensors updated in place while it was traced)."""
    if type(out_tree) is not _WithWrites:
        return ()
    written = {id(item[1]) for item in out_tree.spec if item[0] == "tensor"}
    return tuple(i for i, c in enumerate(closed.consts) if id(c) in written)


def _copy_buffer(buf: Any) -> Any:
    """A new device buffer with buf's value (donating buf itself would break another Tensor holding it)."""
    return device_put(_jaxlib.to_numpy(buf))._buf


def _live_consts(closed: ClosedJaxpr, out_tree: Any) -> list:
    """(position, current) for each captured value a program reads afresh at every call: Tensors that need a
    gradient (a model's parameters, which an optimizer updates in place), Tensors the program itself
    updates, and the values it was told to read each call (padax.interpreters.staging.read_each_call)."""
    written = {id(item[1]) for item in out_tree.spec if item[0] == "tensor"} if type(out_tree) is _WithWrites else ()
    reads = out_tree.reads if type(out_tree) is _WithWrites else {}
    live = []
    for i, c in enumerate(closed.consts):
        if id(c) in reads:
            live.append((i, reads[id(c)]))
        elif type(c) is GradTensor or id(c) in written:
            live.append((i, (lambda c=c: c)))
    return live


class _RefProgram:
    """The cache entry of a program that closes over eager Refs (the global key of Dropout, a user's
    ref): compiled once in its pure form, which takes the arrays the refs hold and returns their new
    ones after its own outputs; each call reads the refs and writes them back."""

    __slots__ = ("exe", "consts", "ref_pos", "out_tree")

    def __init__(self, closed: ClosedJaxpr, out_tree: Any, name: str):
        pure, self.ref_pos = discharge_jaxpr(closed)  # (every const became a leading input)
        self.exe, _ = compile_jaxpr(pure, name)
        self.consts = [c if type(c) is Ref or isinstance(c, Tensor) else device_put(c) for c in closed.consts]
        self.out_tree = out_tree

    def __call__(self, bufs: list, args: Any) -> Any:
        ins = [(c._read("reading a Ref") if type(c) is Ref else c)._buf for c in self.consts]
        outs = self.exe(ins + bufs)
        n = len(outs) - len(self.ref_pos)
        for pos, new in zip(self.ref_pos, outs[n:]):
            self.consts[pos]._write(new)
        return _unflatten(self.out_tree, outs[:n], args)


def _normalize_argnums(argnums: int | Sequence[int] | None, what: str = "static_argnums") -> tuple[int, ...]:
    """argnums as a tuple of Python ints; floats, bools and other objects are refused."""
    if argnums is None:
        return ()
    items = (argnums,) if not isinstance(argnums, (tuple, list, range)) else tuple(argnums)
    for i in items:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"jit: {what} must be an int or a sequence of ints, got {argnums!r}")
    return tuple(int(i) for i in items)


def _normalize_argnames(argnames: str | Sequence[str] | None, what: str) -> tuple[str, ...]:
    items = () if argnames is None else (argnames,) if isinstance(argnames, str) else argnames
    items = tuple(items) if isinstance(items, (tuple, list)) else (items,)
    for n in items:
        if not isinstance(n, str):
            raise TypeError(f"jit: {what} must be a str or a sequence of str, got {argnames!r}")
    return items


def _check_against_signature(sig: inspect.Signature, fname: str, nums: tuple[int, ...], names: tuple[str, ...],
                             what: str) -> tuple[int, ...]:
    """nums with negative entries resolved; a ValueError for an argnum or argname `fun` does not take
    (JAX's rule: a silently ignored static/donate argument would recompile or copy without a word)."""
    params = list(sig.parameters.values())
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    var_pos = any(p.kind is p.VAR_POSITIONAL for p in params)
    var_kw = any(p.kind is p.VAR_KEYWORD for p in params)
    resolved = []
    for i in nums:
        if i < 0 and not var_pos:
            i += len(positional)
        if (i < 0 or i >= len(positional)) and not var_pos:
            raise ValueError(f"jit({fname}): {what}_argnums={nums} names argument {i}, but {fname} takes "
                             f"{len(positional)} positional argument(s): {positional}")
        if i < 0:
            raise ValueError(f"jit({fname}): negative {what}_argnums={nums} cannot be resolved for a function "
                             "with *args; use non-negative indices")
        resolved.append(i)
    keyword_ok = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    bad = [n for n in names if n not in keyword_ok]
    if bad and not var_kw:
        raise ValueError(f"jit({fname}): {what}_argnames={names} names {bad}, which {fname} does not take as "
                         f"keyword argument(s); its parameters are {list(sig.parameters)}")
    return tuple(resolved)


def _hashable_static(value: Any, what: str) -> Any:
    try:
        hash(value)
    except TypeError:
        raise ValueError(f"jit: static argument {what} must be hashable, got a "
                         f"{type(value).__name__}: {value!r}. Pass a tuple instead of a list, "
                         "or make the argument non-static.") from None
    return value


class JitFunction:
    """The callable `jit(f)` returns."""

    def __init__(self, fun: Callable, static_argnums=(), static_argnames=(), donate_argnums=(),
                 donate_argnames=(), in_shardings: Any = None, out_shardings: Any = None):
        self.fun = fun
        self.in_shardings = in_shardings
        self.out_shardings = out_shardings
        self.static_argnums = _normalize_argnums(static_argnums, "static_argnums")
        self.static_argnames = _normalize_argnames(static_argnames, "static_argnames")
        self.donate_argnums = _normalize_argnums(donate_argnums, "donate_argnums")
        self.donate_argnames = _normalize_argnames(donate_argnames, "donate_argnames")
        self._cache: collections.OrderedDict[tuple, Any] = collections.OrderedDict()
        self._fast_paths_owner = None  # a weak reference to the C++ dispatcher (set by _dispatcher)
        self._signature = None
        try:
            self._signature = inspect.signature(fun)
        except (TypeError, ValueError):
            pass
        if self._signature is not None:
            fname = function_name(fun)
            self.static_argnums = _check_against_signature(self._signature, fname, self.static_argnums,
                                                           self.static_argnames, "static")
            self.donate_argnums = _check_against_signature(self._signature, fname, self.donate_argnums,
                                                           self.donate_argnames, "donate")
            self._resolve_names()
        self._has_static = bool(self.static_argnums or self.static_argnames)
        self.eager_op = False  # an eager primitive's program (padax.transforms.dispatch): runs even under disable_jit
        self.eager_prim = None  # (primitive, params) of an eager op's program: a tracked operand is recorded on the tape
        self.__name__ = function_name(fun)
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
        if self._signature is None and nums and max(nums) >= n:
            raise ValueError(f"jit({self.__name__}): static_argnums={nums}, but the call passed only {n} "
                             "positional argument(s)")
        static = tuple((i, _hashable_static(args[i], f"#{i}")) for i in nums if i < n)
        dyn_args = tuple(a for i, a in enumerate(args) if i not in nums)
        static += tuple((k, _hashable_static(kwargs[k], repr(k))) for k in sorted(kwargs) if k in names)
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in names}
        return dyn_args, dyn_kwargs, static

    def _rebuild_fun(self, args: tuple, static: tuple) -> Callable:
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
        with span("padax.trace", function=self.__name__):
            closed = trace_flat(self._flat_fun(dyn_args, dyn_kwargs, static, in_tree, store),
                                [arg_aval(x) for x in leaves], f"jit({self.__name__}) tracing", StagedState())
        return closed, store[0]

    def _flat_fun(self, dyn_args, dyn_kwargs, static, in_tree, store: list) -> Callable:
        """The function on flat leaves. State that layers among the arguments update inside it (BatchNorm's
        statistics) becomes extra outputs, written to each call's layers (node_state.StateOutputs)."""
        fun = self._rebuild_fun(dyn_args, static)

        def flat(*leaves):
            args, kwargs = in_tree.unflatten(leaves)
            start = node_state.mark()
            trace = trace_state.trace
            try:
                out = fun(*args, **kwargs)
            except BaseException:
                _restore_attrs(trace.state)
                raise
            ups = node_state.updates((dyn_args, dyn_kwargs), (args, kwargs), start, _state_output)
            out_leaves, out_tree = tree_util.flatten(out)
            if ups:
                out_tree = node_state.StateOutputs(out_tree, tuple((path, name) for path, _, name, _ in ups))
                out_leaves = out_leaves + [v for *_, v in ups]
            written = _collect_writes(trace, out_tree)
            if written is not None:
                out_tree, extra = written
                out_leaves = out_leaves + extra
            store.append(out_tree)
            return out_leaves
        return flat

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
        if any(type(c) is Ref for c in closed.consts):  # each call reads and writes the refs
            entry = _RefProgram(closed, out_tree, self.__name__)
            self._remember(key, entry)
            return entry
        if config.log_compiles:
            _logger.warning("Compiling %s for arguments %s", self.__name__,
                            ", ".join(a.str_short() for a in closed.in_avals))
        donated = self._donated_mask(dyn_args, dyn_kwargs, static)
        if (self.in_shardings is not None or self.out_shardings is not None
                or not all(on_default_device(x._buf) for x in leaves)):
            exe, const_bufs = self._spmd(closed, out_tree, dyn_args, dyn_kwargs, donated), []
        else:
            live = {id(c) for c in closed.consts if type(out_tree) is _WithWrites or type(c) is GradTensor}
            donor = _state_donors(closed, out_tree) if not any(donated) else ()
            exe, const_bufs = compile_jaxpr(closed, self.__name__, donated, live, donor)
        entry = _Compiled(exe, const_bufs, out_tree, closed, donated)
        self._remember(key, entry)
        return entry

    def _remember(self, key: tuple, entry: Any) -> None:
        """Cache an entry, evicting the least recently used beyond config.jit_cache_size. An eviction
        also drops the C++ dispatcher's fast paths of this function (they hold the executables too);
        the live signatures come back to them from this cache on their next call."""
        cache = self._cache
        cache[key] = entry
        if len(cache) > config.jit_cache_size:
            while len(cache) > config.jit_cache_size:
                cache.popitem(last=False)
            cpp = self._fast_paths_owner() if self._fast_paths_owner is not None else None
            if cpp is not None:
                cpp._clear_cache()

    def _spmd(self, closed, out_tree, dyn_args, dyn_kwargs, donated) -> "SpmdDispatch":
        n_leaves = len(closed.jaxpr.invars)
        in_sh = None
        if self.in_shardings is not None:
            spec = self.in_shardings
            if not isinstance(spec, (tuple, list)) or is_sharding(spec):
                spec = (spec,) * len(dyn_args)
            elif len(spec) != len(dyn_args):
                raise ValueError(f"jit({self.__name__}): in_shardings has {len(spec)} entries but the function "
                                 f"was called with {len(dyn_args)} positional arguments")
            in_sh = expand_prefix(tuple(spec), dyn_args, "in_shardings", self.__name__)
            in_sh += [None] * (n_leaves - len(in_sh))  # keyword arguments: as they come
        out_sh = None
        if self.out_shardings is not None:
            tree = out_tree.tree if type(out_tree) is node_state.StateOutputs else out_tree
            out_sh = expand_prefix(self.out_shardings, tree.unflatten([0] * tree.num_leaves),
                                   "out_shardings", self.__name__)
            out_sh = list(out_sh) + [None] * (out_tree.num_leaves - tree.num_leaves)  # (state outputs: any)
        return SpmdDispatch(closed, self.__name__, donated, in_sh, out_sh)

    def _placement_fallback(self, key, entry: _Compiled, bufs: list, error: Exception) -> list:
        """An executable for default-device inputs got arrays elsewhere: switch this entry to SPMD."""
        if all(on_default_device(b) for b in bufs):
            raise error
        n = len(entry.jaxpr.jaxpr.invars)
        spmd = SpmdDispatch(entry.jaxpr, self.__name__, entry.donated, [None] * n, None)
        new = _Compiled(spmd, [], entry.out_tree, entry.jaxpr, entry.donated)
        self._remember(key, new)
        return spmd(bufs)

    def __call__(self, *args, **kwargs):
        return self._call(args, kwargs)[0]

    def _program_name(self) -> str:
        """How errors name this function's program: an eager padax op by its name, else jit(name)."""
        return f"the padax op '{self.__name__}'" if self.eager_op else f"jit({self.__name__})"

    def fast_path_error(self, e: Exception, args: tuple, kwargs: dict) -> None:
        """An error of a call the C++ dispatcher ran: out of memory becomes padax's OutOfMemoryError
        naming this program, its argument shapes and the caller's line (others are left as they are)."""
        if str(e).startswith("RESOURCE_EXHAUSTED"):
            leaves = _flatten((args, kwargs))[0] if kwargs or args else []
            raise_if_out_of_memory(e, default_device(), self._program_name(), leaves)
        # a native kernel's own error (padax.ffi / cpp_extension), attributed to the programs that call kernels
        reraise_kernel_error(e, (c.exe.exe for c in list(self._cache.values()) if isinstance(c, _Compiled)))
        if str(e).startswith("Non-hashable static arguments"):  # jaxlib's text, with its hash error inside
            detail = str(e).split("The error was:")[-1].strip()
            raise ValueError(f"jit({self.__name__}): static arguments must be hashable (they key the compiled "
                             f"program); got {detail}. Pass a tuple instead of a list, or make the argument dynamic"
                             f"{user_location()}") from None

    def _cache_miss(self, *args, **kwargs):
        """What the C++ dispatcher calls when it has no entry for a signature."""
        try:
            out, fast = self._call(args, kwargs)
        except RecursionError as e:  # (also the dispatcher's own flatten of a too-deep argument tree)
            raise tree_util.too_deep(e) from None
        return out, fast, False

    def _call(self, args: tuple, kwargs: dict) -> tuple[Any, Any]:
        """Run the call in Python; also return the C++ fast-path entry for it (or None)."""
        if self.eager_prim is not None and _primitive.tape_hook is not None:  # a GradTensor operand missed C++
            out = _primitive.tape_hook(self.eager_prim[0], trace_state.trace, args, self.eager_prim[1])
            if out is not NotImplemented:
                return out, None
        if config.disable_jit and not self.eager_op:
            return self.fun(*args, **kwargs), None
        if self._has_static:
            dyn_args, dyn_kwargs, static = self._split(args, kwargs)
        else:
            dyn_args, dyn_kwargs, static = args, kwargs, ()
        try:
            leaves, in_tree = _flatten((dyn_args, dyn_kwargs))
        except (SystemError, RecursionError) as e:
            raise tree_util.too_deep(e) from None
        if type(trace_state.trace) is not EvalTrace:
            return self._call_staged(dyn_args, dyn_kwargs, static, in_tree, leaves), None
        all_tensors = True
        tracked_args = _primitive.tape_hook is not None and any(type(x) is GradTensor for x in leaves)
        if tracked_args:
            all_tensors = False  # (the C++ dispatcher cannot key GradTensors: this call stays in Python)
        try:
            bufs = [x._buf for x in leaves]
            avals = tuple([x.aval for x in leaves])
        except AttributeError:
            if any(type(x) is Ref for x in leaves):  # Ref arguments: the program is discharged around them
                return self._call_staged(dyn_args, dyn_kwargs, static, in_tree, leaves), None
            all_tensors = False
            leaves = [x if isinstance(x, Tensor) else _to_tensor_arg(x, self.__name__) for x in leaves]
            avals = tuple([x.aval for x in leaves])
            bufs = [x._buf for x in leaves]
        key = (in_tree, avals, static, config.enable_x64, config.default_dtype, config.default_matmul_precision,
               trace_state.bind_policy)
        entry = self._cache.get(key)
        if entry is None:
            entry = self._compile(key, dyn_args, dyn_kwargs, static, in_tree, leaves)
        else:
            self._cache.move_to_end(key)
        if type(entry) is _RefProgram:
            return entry(bufs, (dyn_args, dyn_kwargs)), None
        const_bufs = entry.const_bufs
        if entry.live:  # it closes over parameters or state: run with their values now
            if entry.stateful and not entry.out_tree.holds():  # (a .grad it assumed None is set, or back)
                del self._cache[key]
                entry = self._compile(key, dyn_args, dyn_kwargs, static, in_tree, leaves)
            const_bufs = list(entry.const_bufs)
            for i, current in entry.live:
                const_bufs[i] = current()._buf
            for i in entry.donor:  # (state the program overwrites in place: a buffer shared with another Tensor,
                if sys.getrefcount(const_bufs[i]) > 3:  # a snapshot or a clone, goes in as a copy)
                    const_bufs[i] = _copy_buffer(const_bufs[i])
            all_tensors = False
        try:
            with span("padax.dispatch", function=self.__name__):
                outs = entry.exe(const_bufs + bufs if const_bufs else bufs)
        except Exception as e:  # noqa: BLE001
            raise_if_deleted(leaves)  # a donated/deleted argument: say so, not XLA's INVALID_ARGUMENT
            if isinstance(e, OutOfMemoryError) and hasattr(e, "xla_text"):
                raise out_of_memory_error(e.xla_text, e.device, self._program_name(), leaves) from None
            if not isinstance(e, _jaxlib.XlaRuntimeError):
                raise
            # arguments on other devices / sharded: see _placement_fallback
            outs = self._placement_fallback(key, entry, bufs, e)
            entry = self._cache[key]
        if entry.donated and any(entry.donated):
            mark_donated(leaves, entry.donated, f"jit({self.__name__})")
        if config.debug_nans or config.debug_infs:
            if self.eager_op:
                check_eager_op(self.__name__, outs)
            else:
                check_program(self.__name__, entry.jaxpr, leaves, outs)
        if (tracked_args or entry.live) and not entry.stateful and tape.mode.enabled:
            outs = self._record(entry, leaves, outs)  # one node on the tape: its backward is the program's vjp
        result = _unflatten(entry.out_tree, outs, (dyn_args, dyn_kwargs))
        fast = _fast_path(entry, bufs, avals, result) if all_tensors else None
        return result, fast

    def _record(self, entry: "_Compiled", leaves: list, outs: list) -> list:
        consts = list(entry.jaxpr.consts)
        for i, current in entry.live:
            consts[i] = current()
        args = consts + list(leaves)
        if not any(type(a) is GradTensor for a in args):
            return outs
        if entry.hoisted is None:
            entry.hoisted = hoist_consts(entry.jaxpr)
        params = dict(jaxpr=entry.hoisted, name=self.__name__, donated=(False,) * len(args))
        return tape.record_computed(jit_p, params, args, list(outs))

    def _call_staged(self, dyn_args, dyn_kwargs, static, in_tree, leaves):
        # The traced program is reused for the same signature (as at the top level) unless it
        # captured values of an enclosing transformation, which are new on every call.
        key = ("staged", in_tree, tuple([arg_aval(x) for x in leaves]), static, config.enable_x64, config.default_dtype,
               config.default_matmul_precision, trace_state.bind_policy)
        hit = self._cache.get(key)
        if hit is None:
            closed, out_tree = self._trace(dyn_args, dyn_kwargs, static, in_tree, leaves)
            hoisted = hoist_consts(closed)
            hit = (closed, out_tree, hoisted, jaxpr_has_refs(hoisted))
            if not any(isinstance(c, Tracer) for c in closed.consts):
                self._remember(key, hit)
        closed, out_tree, hoisted, has_refs = hit
        donated = (False,) * len(closed.consts) + (self._donated_mask(dyn_args, dyn_kwargs, static) or (False,) * len(leaves))
        if self.in_shardings is not None or self.out_shardings is not None:
            # inside another transformation the shardings become constraints on the values
            spmd = self._spmd(closed, out_tree, dyn_args, dyn_kwargs, ())
            leaves = [x if s is None else sharding_constraint_p.bind(x, sharding=s)
                      for x, s in zip(leaves, spmd.in_shardings)]
            outs = jit_p.bind(*closed.consts, *leaves, jaxpr=hoisted, name=self.__name__, donated=donated)
            outs = [x if s is None else sharding_constraint_p.bind(x, sharding=s)
                    for x, s in zip(outs, spmd.out_shardings)]
            return _unflatten(out_tree, outs, (dyn_args, dyn_kwargs))
        if has_refs:  # refs in or made inside: bound as the pure program, the refs read and written around it
            outs = bind_with_refs(jit_p, [*closed.consts, *leaves], dict(jaxpr=hoisted, name=self.__name__,
                                                                         donated=(False,) * len(donated)))
            return _unflatten(out_tree, outs, (dyn_args, dyn_kwargs))
        outs = jit_p.bind(*closed.consts, *leaves, jaxpr=hoisted, name=self.__name__, donated=donated)
        return _unflatten(out_tree, outs, (dyn_args, dyn_kwargs))

    # -- introspection and ahead-of-time compilation (padax/transforms/aot.py) -----------
    def trace(self, *args, **kwargs) -> "Traced":
        """The program traced at these arguments (arrays or ShapeDtypeStructs): `.jaxpr`, `.lower()`."""
        dyn_args, dyn_kwargs, static = self._split(args, kwargs)
        leaves, in_tree = tree_util.flatten((dyn_args, dyn_kwargs))
        closed, out_tree = self._trace(dyn_args, dyn_kwargs, static, in_tree, leaves)
        return Traced(self, closed, in_tree, out_tree, leaves, (dyn_args, dyn_kwargs))

    def lower(self, *args, **kwargs) -> "Lowered":
        """The StableHLO this call compiles to, like `jax.jit(f).lower(...)`: `.as_text()`, `.compile()`."""
        return self.trace(*args, **kwargs).lower()

    def _needs_spmd(self, closed: ClosedJaxpr, leaves: list) -> bool:
        return (self.in_shardings is not None or self.out_shardings is not None or needs_spmd(closed)
                or not all(on_default_device(x._buf) for x in leaves if isinstance(x, Tensor)))

    def clear_cache(self) -> None:
        self._cache.clear()

    def _cache_size(self) -> int:
        """How many compiled signatures the cache holds (programs traced for staging not counted)."""
        return sum(1 for k in self._cache if type(k[0]) is not str)


def _state_output(value: Any, leaf: Any, origin: Any, name: str) -> Any:
    return value


class _WithWrites:
    """A jitted program's output tree when it also updates outside state (Paddle's in-place updates and the
    tape's `.grad` while it was traced): the user's tree, then one output per written Tensor or attribute,
    written back after each call. `reads`: consts the program reads afresh at each call (by id), `guards`:
    (object, attribute, was None) that the program assumed when it was traced."""

    __slots__ = ("tree", "spec", "n", "reads", "guards")

    def __init__(self, tree: Any, spec: list, reads: dict, guards: tuple):
        self.tree, self.spec, self.reads, self.guards = tree, spec, reads, guards
        self.n = tree.num_leaves

    num_leaves = property(lambda self: self.n + sum(1 for item in self.spec if item[0] != "set"))

    def finish(self, outs: list, args: Any) -> Any:
        it = iter(outs[self.n:])
        for item in self.spec:
            kind, target = item[0], item[1]
            if kind == "tensor":
                new = next(it)
                if type(new) is Tensor:
                    target._rebind(new)
                else:  # this call was itself staged (a jit inside jit): the outer program writes it
                    rebind(target, new, "an in-place update inside jit")
            elif kind == "attr":
                write_attr(target, item[2], next(it))
            else:
                write_attr(target, item[2], item[3])
        return node_state.unflatten_outputs(self.tree, list(outs[:self.n]), args)

    def holds(self) -> bool:
        """Whether the state this program was traced with still has the same form (each assumed-None
        attribute still None, and the other way round)."""
        return all((getattr(obj, name) is None) == was_none for obj, name, was_none in self.guards)


def _restore_attrs(state: StagedState | None) -> None:
    if state is not None:
        for obj, name, old in state.attrs.values():
            setattr(obj, name, old)


def _collect_writes(trace: Any, out_tree: Any) -> tuple[_WithWrites, list] | None:
    """The outside state a traced program updated, as extra outputs (and the attributes put back as they
    were: the program's calls write them)."""
    state = trace.state
    if state is None or not (state.tensors or state.attrs or state.reads):
        return None
    spec, extra = [], []
    for x, value in state.tensors.values():
        spec.append(("tensor", x))
        extra.append(value)
    guards = []
    reads = dict(state.reads)
    for obj, name, old in state.attrs.values():
        if isinstance(old, Tensor):  # (read as a constant of the program: each call reads it where it is now)
            reads.setdefault(id(old), lambda obj=obj, name=name: getattr(obj, name))
        final = getattr(obj, name)
        setattr(obj, name, old)
        guards.append((obj, name, old is None))
        if isinstance(final, Tracer):
            if final._trace is not trace:
                raise ValueError(f"jit: {type(obj).__name__}.{name} was assigned a value computed inside a loop, "
                                 f"branch or other transformation of the jitted function{user_location()}")
            spec.append(("attr", obj, name))
            extra.append(final)
        else:
            spec.append(("set", obj, name, final))
    return _WithWrites(out_tree, spec, reads, tuple(guards)), extra


def _unflatten(out_tree: Any, outs: list, args: Any) -> Any:
    """The call's result: `out_tree` unflattened, with outside state and layer state written back."""
    if type(out_tree) is _WithWrites:
        return out_tree.finish(list(outs), args)
    return node_state.unflatten_outputs(out_tree, outs, args)


def _fast_path(entry: _Compiled, bufs: list, avals: tuple, result: Any):
    """The C++ dispatcher's entry for a call that just ran in Python, or None to keep it in Python.

    Only calls whose arguments already lie where the program wants them qualify, and only if
    every device buffer agrees with its Tensor on weak typing (the C++ signature reads the
    buffer, the program was traced from the Tensor).
    """
    exe, const_bufs = entry.exe, entry.const_bufs
    if entry.donated and any(entry.donated):
        return None  # donating calls run in Python, which marks the donated Tensors (see mark_donated)
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
    if exe.host_callbacks or config.debug_nans or config.debug_infs:
        return None  # Python runs these calls: it re-raises callback exceptions and checks for NaNs
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


def _to_tensor_arg(x: Any, name: str = "jit") -> Tensor:
    if isinstance(x, (bool, int, float, complex, np.ndarray, np.generic)):
        return device_put(x)
    if isinstance(x, Tracer):
        raise escaped_tracer_error(x, name)
    raise TypeError(f"jit: argument of type {type(x).__name__} is not an array: {x!r}. "
                    "Mark non-array arguments static with static_argnums or static_argnames.")


# One executable cache per (function, options), shared by every jit(f) of that function.
# Only the cache dict is stored (not the JitFunction), so the function can still be freed.
_jit_caches: "weakref.WeakKeyDictionary[Callable, dict]" = weakref.WeakKeyDictionary()


def _clear_on_client_reset() -> None:
    """The CPU client was replaced (num_cpu_devices, padax.distributed): its executables are unusable."""
    _dispatch_cache.clear()
    for per_fun in list(_jit_caches.values()):
        for cache in per_fun.values():
            cache.clear()
    clear_program_caches()


_backend.on_client_reset(_clear_on_client_reset)
# a captured constant updated in place: the programs holding its old buffer are dropped (and traced again)
on_captured_rebind(_clear_on_client_reset)


def clear_caches() -> None:
    """Free every compiled program, traced program and cached constant padax keeps in memory (jitted
    functions, eager ops, derived programs); later calls compile again (the disk cache still helps).
    Each jitted function also keeps at most config.jit_cache_size programs on its own.

    Examples:
        >>> import padax
        >>> f = padax.jit(lambda x: x + 1.0)
        >>> _ = f(padax.to_tensor(1.0)); padax.clear_caches()
        >>> float(f(padax.to_tensor(1.0)))  # compiled again
        2.0
    """
    _backend.empty_client_caches()


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

    Args:
        fun: a function of arrays (pytrees of them) returning arrays; traced once per input shape/dtype.
        static_argnums, static_argnames: arguments passed as Python values (hashable); a new value
            compiles a new program.
        donate_argnums, donate_argnames: arguments whose buffers the program may reuse for its outputs.

    Returns:
        A function with `fun`'s signature (with `.lower`, `.trace` and `.clear_cache`).

    Examples:
        >>> import functools, padax
        >>> padax.jit(lambda x: x * x)(padax.to_tensor([1.0, 2.0])).tolist()
        [1.0, 4.0]
        >>> @functools.partial(padax.jit, static_argnums=1)
        ... def power(x, n):
        ...     return x ** n
        >>> power(padax.to_tensor([2.0]), 3).tolist()
        [8.0]
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
            opts += (hashable_shardings(in_shardings), hashable_shardings(out_shardings))
        except TypeError:
            shared = False
    if shared:
        try:
            jf._cache = _jit_caches.setdefault(fun, {}).setdefault(opts, collections.OrderedDict())
        except TypeError:  # not weak-referenceable (e.g. a builtin): a private cache
            shared = False
    return _dispatcher(jf, opts if shared else object())


def function_name(fun: Callable) -> str:
    """A name for a callable in messages and program names: its __name__, what a functools.partial
    wraps, or the class of a callable object."""
    while isinstance(fun, functools.partial):
        fun = fun.func
    name = getattr(fun, "__name__", None)
    return name if isinstance(name, str) else type(fun).__name__


def _dispatcher(jf: JitFunction, cache_key: Any):
    """The object `jit` returns: jaxlib's C++ dispatcher around `jf`, with jf's public methods."""
    return make_dispatcher(jf, jf._cache_miss, cache_key)


def make_dispatcher(jf: JitFunction, cache_miss: Callable, cache_key: Any):
    """jaxlib's C++ dispatcher around `jf` whose misses call `cache_miss` (jf's own, or a wrapper
    deciding when jf compiles; see padax.transforms.dispatch), with jf's public methods."""
    fun = jf.fun
    dispatch = _jaxlib.cpp_jit(jf.__name__, fun, cache_miss, jf.static_argnums,
                               jf.static_argnames, cache_key, tree_util.dispatch_registry, _dispatch_cache)

    def cpp(*args, **kwargs):
        # XLA's errors of a call that C++ dispatched come out raw: name them as the Python path does
        try:
            return dispatch(*args, **kwargs)
        except (_jaxlib.XlaRuntimeError, ValueError) as e:  # (jaxlib raises a fast-path status as ValueError)
            jf.fast_path_error(e, args, kwargs)
            raise
    try:
        functools.update_wrapper(cpp, fun)
    except AttributeError:
        pass
    cpp._clear_cache = dispatch._clear_cache
    cpp._dispatch = dispatch  # the bare C++ dispatcher (eager ops call it directly: see dispatch.py)
    # Nothing the C++ dispatcher holds may lead back to it: jaxlib's garbage collector support does not see
    # through its attributes, so such a cycle (and every executable in it) would never be freed.
    dispatch._padax_jit = jf
    cpp.fun = fun
    cpp.lower = jf.lower
    cpp.trace = jf.trace
    cpp.clear_cache = functools.partial(_clear_both, jf, dispatch)
    cpp._cache_size = jf._cache_size
    cpp._padax_jit = jf
    try:
        jf._fast_paths_owner = weakref.ref(dispatch)
    except TypeError:  # (not weak-referenceable in this jaxlib: evictions then leave C++'s own LRU to bound it)
        pass
    return cpp


def _clear_both(jf: JitFunction, dispatch) -> None:
    jf.clear_cache()
    dispatch._clear_cache()
