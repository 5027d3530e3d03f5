"""`Executor.run`: close a Program's equations over (feeds, persistables) -> (fetches, new persistables),
compile that with `padax.jit` (one program per feed signature, cached), and write the new persistables
(parameters after an optimizer step, batch-norm statistics) back to the scope."""
from __future__ import annotations

import contextlib
from typing import Any, Iterator, Sequence

import numpy as np

import padax
from padax import dtypes
from padax.extend.core import Var
from padax.static.program import PLACEHOLDERS, Program, StaticGraphError, Variable, default_main_program, eager
from padax.static.replay import Sizes, _Derived, const_value, live, run_eqns


class ScopeTensor:
    """The value a scope holds for a name (Paddle's `LoDTensor` view): `np.array(t)`, `t.set(array, place)`."""

    def __init__(self, scope: "Scope", name: str):
        self._scope, self._name = scope, name

    def __array__(self, dtype=None, copy=None):
        value = self._scope._vars.get(self._name)
        if value is None:
            raise StaticGraphError(f"padax.static.Scope: {self._name!r} has no value yet (run the startup program)")
        arr = np.asarray(value)
        return arr if dtype is None else arr.astype(dtype)

    def set(self, value: Any, place: Any = None) -> None:
        """Replace the value (same shape and dtype kind as before, when there was one)."""
        old = self._scope._vars.get(self._name)
        arr = np.asarray(value)
        if old is not None:
            if tuple(arr.shape) != tuple(old.shape):
                raise StaticGraphError(f"padax.static.Scope: {self._name!r} has shape {list(old.shape)}; cannot set "
                                       f"a value of shape {list(arr.shape)}")
            arr = arr.astype(old.dtype)
        with eager():
            self._scope._vars[self._name] = padax.to_tensor(arr)

    def shape(self) -> list[int]:
        return list(np.shape(np.asarray(self)))

    def _dtype(self) -> np.dtype:
        return np.asarray(self).dtype


class ScopeVar:
    """One name of a Scope (Paddle's scope variable): `get_tensor()` gives its value."""

    def __init__(self, scope: "Scope", name: str):
        self._scope, self.name = scope, name

    def get_tensor(self) -> ScopeTensor:
        return ScopeTensor(self._scope, self.name)


class Scope:
    """Values of persistable variables (parameters, optimizer state) by name, shared by the programs run in it.

    Examples:
        >>> import padax
        >>> scope = padax.static.Scope()
        >>> scope.var("w").get_tensor().set([1.0, 2.0])
        >>> [float(v) for v in padax.numpy.asarray(scope.find_var("w").get_tensor())], scope.find_var("nope")
        ([1.0, 2.0], None)
    """

    def __init__(self) -> None:
        self._vars: dict[str, Any] = {}

    def find_var(self, name: str) -> ScopeVar | None:
        """The variable `name`, or None when the scope has no value for it."""
        return ScopeVar(self, name) if name in self._vars else None

    def var(self, name: str) -> ScopeVar:
        """The variable `name` (made empty when missing)."""
        return ScopeVar(self, name)

    def local_var_names(self) -> list[str]:
        return list(self._vars)

    def __contains__(self, name: str) -> bool:
        return name in self._vars


_SCOPE = [Scope()]


def global_scope() -> Scope:
    """The scope Executor.run uses by default."""
    return _SCOPE[0]


@contextlib.contextmanager
def scope_guard(scope: Scope) -> Iterator[None]:
    """Make `scope` the global scope in this block."""
    prev = _SCOPE[0]
    _SCOPE[0] = scope
    try:
        yield
    finally:
        _SCOPE[0] = prev


class CompiledProgram:
    """Paddle's compiled program wrapper: padax compiles every program at its first run, so this runs the same
    way as the program it wraps.

    Args:
        program_or_graph: the Program.
        build_strategy: accepted for Paddle compatibility (unused).
    """

    def __init__(self, program_or_graph: Program, build_strategy: Any = None):
        if not isinstance(program_or_graph, Program):
            raise TypeError(f"padax.static.CompiledProgram: expects a Program, got {type(program_or_graph).__name__}")
        self._program = program_or_graph
        self._build_strategy = build_strategy

    def with_data_parallel(self, *args: Any, **kwargs: Any) -> "CompiledProgram":
        return self


class Executor:
    """Runs Programs (Paddle's `paddle.static.Executor`): the startup program sets the parameters' initial
    values in the scope; any other program is compiled once per feed signature and run.

    Args:
        place: where to run (a Place or a device string; padax runs on its default device).

    Examples:
        >>> import numpy as np, padax
        >>> padax.enable_static()
        >>> main, startup = padax.static.Program(), padax.static.Program()
        >>> with padax.static.program_guard(main, startup):
        ...     x = padax.static.data("ex", [None, 2], "float32")
        ...     y = (x * 2.0).sum(axis=1)
        >>> exe = padax.static.Executor(padax.CPUPlace())
        >>> _ = exe.run(startup)
        >>> exe.run(main, feed={"ex": np.ones([3, 2], "float32")}, fetch_list=[y])[0].tolist()
        [4.0, 4.0, 4.0]
        >>> padax.disable_static()
    """

    def __init__(self, place: Any = None):
        self.place = place

    def close(self) -> None:
        """Nothing to release (Paddle's API)."""

    def run(self, program: Program | CompiledProgram | None = None, feed: dict | None = None,
            fetch_list: Sequence[Any] | None = None, feed_var_name: str = "feed", fetch_var_name: str = "fetch",
            scope: Scope | None = None, return_numpy: bool = True, use_program_cache: bool = False,
            use_prune: bool = False) -> list:
        """Run `program` (default: the default main program) on `feed` ({data name: array}) and return the
        values of `fetch_list` (Variables or their names), as numpy arrays when `return_numpy`.

        Args:
            program: a Program or CompiledProgram.
            feed: the data values by name.
            fetch_list: what to return.
            scope: where the persistable values live (default: global_scope()).
            return_numpy: numpy arrays (True) or padax Tensors.

        Returns:
            The list of fetched values.
        """
        if program is None:
            program = default_main_program()
        if isinstance(program, CompiledProgram):
            program = program._program
        if not isinstance(program, Program):
            raise TypeError(f"padax.static.Executor.run: program must be a Program or CompiledProgram, got "
                            f"{type(program).__name__}")
        scope = global_scope() if scope is None else scope
        feed = {} if feed is None else feed
        if not isinstance(feed, dict):
            raise TypeError(f"padax.static.Executor.run: feed must be a dict {{name: array}}, got {type(feed).__name__}")
        fetch_list = [] if fetch_list is None else fetch_list
        if isinstance(fetch_list, (Variable, str)):
            fetch_list = [fetch_list]
        with eager():
            for name, value in program._inits.items():  # a startup program: the initial values
                scope._vars[name] = value
            return self._run(program, feed, list(fetch_list), scope, return_numpy)

    def _run(self, program: Program, feed: dict, fetch_list: list, scope: Scope, return_numpy: bool) -> list:
        fetch_vars = [_resolve_fetch(program, f) for f in fetch_list]
        if not fetch_vars and not program._updates:
            return []
        runner = _runner(program, fetch_vars, tuple(sorted(feed)))
        feeds = []
        for v, name in runner.feeds:
            if name not in feed:
                raise StaticGraphError(f"padax.static.Executor.run: the program needs the feed {name!r} "
                                       f"({_describe(v)}) but it is not in feed (given: {sorted(feed)})")
            feeds.append(_feed_value(name, v, feed[name]))
        unknown = [n for n in feed if n not in program._named or program._inputs.get(program._named[n]._var,
                                                                                      ("", ""))[1] != "data"]
        if unknown:
            raise StaticGraphError(f"padax.static.Executor.run: feed names {unknown} are not data of the program "
                                   f"(its data: {[n for n, k in program._inputs.values() if k == 'data']})")
        for name, opt in program._lr_feeds.items():  # the schedule's current rate (Paddle's program.lr_scheduler)
            scope._vars[name] = padax.to_tensor(float(opt.get_lr()), dtype="float32")
        persist = []
        for _, name in runner.persist:
            if name not in scope._vars:
                raise StaticGraphError(f"padax.static.Executor.run: {name!r} has no value in the scope; run the "
                                       "startup program first (exe.run(startup_program))")
            persist.append(scope._vars[name])
        fetched, updated = runner.jitted(tuple(feeds), tuple(persist))
        for name, value in zip(runner.update_names, updated):
            scope._vars[name] = value
        return [np.asarray(x) for x in fetched] if return_numpy else list(fetched)


def _describe(v: Var) -> str:
    shape = [-1 if d in PLACEHOLDERS else d for d in v.aval.shape]
    return f"shape {shape}, {v.aval.dtype.name}"


def _resolve_fetch(program: Program, f: Any) -> Var:
    if isinstance(f, str):
        return program._var(f)._var
    if isinstance(f, Variable):
        if id(f._trace) not in program._trace.family:
            raise StaticGraphError(f"padax.static.Executor.run: fetch {f.name!r} is a Variable of another Program")
        return f._var
    raise TypeError(f"padax.static.Executor.run: fetch_list holds Variables or names, got {type(f).__name__}")


def _feed_value(name: str, v: Var, value: Any) -> Any:
    if isinstance(value, padax.Tensor):
        value = np.asarray(value)
    arr = np.asarray(value)
    want = v.aval.dtype
    if arr.dtype != want:
        if not (np.can_cast(arr.dtype, want, "same_kind") or (arr.dtype.kind in "iu" and want.kind in "iu")):
            raise TypeError(f"padax.static.Executor.run: feed {name!r} must be {want.name}, got {arr.dtype.name}")
        arr = arr.astype(want)
    rec = v.aval.shape
    ok = len(arr.shape) == len(rec) and all(d in PLACEHOLDERS or d == s for d, s in zip(rec, arr.shape))
    if not ok:
        raise StaticGraphError(f"padax.static.Executor.run: feed {name!r} has shape {list(arr.shape)}; the "
                               f"program's data {name!r} has {_describe(v)}")
    return padax.to_tensor(arr, dtype=dtypes.canonicalize_dtype(want))


class _Runner:
    def __init__(self, program: Program, fetch_vars: list[Var], eqns: list):
        self.update_names = list(program._updates)
        alias = program._test_alias if program._for_test else None
        outs = fetch_vars + [program._updates[n] for n in self.update_names]
        keep, need = live(eqns, outs, alias)
        known = set(program._inputs) | set(program._trace.constvars)
        known.update(o for e in eqns for o in e.outvars)
        for f in fetch_vars:
            if (alias or {}).get(f, f) not in known:
                raise StaticGraphError("padax.static.Executor.run: a fetched Variable is not computed by this "
                                       "program (it was recorded after the program was cloned)")
        self.feeds = [(v, n) for v, (n, k) in program._inputs.items() if k == "data" and v in need]
        self.persist = [(v, n) for v, (n, k) in program._inputs.items() if k != "data" and v in need]
        consts = [(v, c) for v, c in zip(program._trace.constvars, program._trace.const_vals) if v in need]
        self.traces = 0
        feeds, persist = self.feeds, self.persist

        def closed(feed_vals, persist_vals):
            self.traces += 1
            mapping: dict[int, int] = {}
            for (v, name), x in zip(feeds, feed_vals):
                for d, s in zip(v.aval.shape, x.shape):
                    if d in PLACEHOLDERS:
                        if mapping.setdefault(d, s) != s:
                            raise StaticGraphError(
                                f"padax.static.Executor.run: the feeds disagree on the size of a None dimension "
                                f"(axis {PLACEHOLDERS.index(d)}): {mapping[d]} and {s} (feed {name!r}); feeds "
                                "with None at the same axis position share that size")
            sizes = Sizes(mapping)
            for (v, name), x in zip(persist, persist_vals):
                _check_unambiguous(name, tuple(v.aval.shape), sizes)
            env: dict = {}
            for v, c in consts:
                env[v] = const_value(c, sizes, "a constant of the program")
            env.update((v, x) for (v, _), x in zip(feeds, feed_vals))
            env.update((v, x) for (v, _), x in zip(persist, persist_vals))
            run_eqns(eqns, env, sizes, keep, alias)
            read = (lambda v: env[alias.get(v, v)]) if alias else env.__getitem__
            return [read(v) for v in fetch_vars], [read(v) for v in outs[len(fetch_vars):]]

        self.jitted = padax.jit(closed)


def _check_unambiguous(name: str, shape: tuple, sizes: Sizes) -> None:
    try:
        ok = sizes.shape(shape) == shape
    except _Derived:  # a size near a placeholder's multiple
        ok = False
    if not ok:
        raise StaticGraphError(f"padax.static.Executor.run: {name!r} has shape {list(shape)}, with a size that is (or is "
                               f"near) a multiple of the placeholder {', '.join(map(str, sizes.m))} of a None dimension, "
                               "so padax cannot tell it from the batch; give the data its concrete batch size in "
                               "static.data(shape=...)")


def _runner(program: Program, fetch_vars: list[Var], feed_names: tuple) -> _Runner:
    eqns = program._eqns()
    key = (len(eqns), tuple(id(v) for v in fetch_vars), len(program._updates))
    runner = program._cache.get(key)
    if runner is None:
        runner = program._cache[key] = _Runner(program, fetch_vars, list(eqns))
    return runner


__all__ = ["CompiledProgram", "Executor", "Scope", "ScopeTensor", "ScopeVar", "global_scope", "scope_guard"]
