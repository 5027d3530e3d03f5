"""Paddle's static-graph Program: a jaxpr under construction.

A `Program` owns a long-lived staging trace (`ProgramTrace`, padax's `JaxprTrace`) that
`enable_static`/`program_guard` make the current trace, so every op applied to the program's
`Variable`s (its tracers) is recorded as an equation. `static.data` adds an input of the jaxpr;
parameters (made by `static.nn` layers or `create_parameter`) are inputs too, named and
persistable: their values live in a `Scope`, not in the program, so updates persist from one
`Executor.run` to the next. Their initial values are kept by the startup program.

A size given as None/-1 is recorded at a placeholder size (`PLACEHOLDERS`, one per axis
position); `padax.static.replay` replays the equations at the fed sizes.
"""
from __future__ import annotations

import contextlib
import itertools
from typing import Any, Iterator, Sequence

import numpy as np

import padax
from padax import dtypes
from padax.core.abstract import ShapedArray
from padax.core.trace import EvalTrace, set_current_trace, trace_state
from padax.extend.core import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from padax.interpreters.staging import JaxprTrace, JaxprTracer

# The size a None/-1 dimension is recorded at, by axis position: primes unlikely to be a real size, so
# that a size (or a literal) that is a multiple of one is taken to come from that dimension.
PLACEHOLDERS = (1009, 1013, 1019, 1021, 1031, 1033, 1039, 1049)


class StaticGraphError(ValueError):
    """A static-graph program cannot be built or run as asked (an unknown variable, a missing feed, ...)."""


class Variable(JaxprTracer):
    """A value of a static Program (Paddle's `paddle.static.Variable`): a tracer of the program's staging trace
    with Paddle's attributes `name`, `stop_gradient` and `persistable`. Its `shape` shows the placeholder size
    (1009, ...) for a dimension given as None; `static_shape` gives -1 there, as Paddle prints it.

    Args:
        trace: the program's ProgramTrace.
        var: the jaxpr variable it stands for.

    Returns:
        The Variable (made by `static.data`, layers and ops, not by hand).

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> x = padax.static.data("vx", [None, 3], "float32")
        >>> x.name, x.static_shape, (x * 2).dtype.name
        ('vx', [-1, 3], 'float32')
        >>> padax.disable_static()
    """

    __slots__ = ("_name", "stop_gradient", "_persistable")

    def __init__(self, trace: "ProgramTrace", var: Var, name: str | None = None, stop_gradient: bool = False,
                 persistable: bool = False):
        super().__init__(trace, var)
        self._name = name
        self.stop_gradient = stop_gradient
        self._persistable = persistable

    @property
    def program(self) -> "Program":
        return self._trace.program

    @property
    def block(self) -> "Block":
        return self._trace.program.global_block()

    @property
    def name(self) -> str:
        if self._name is None:
            self._name = self._trace.program._fresh_name("tmp")
            self._trace.program._named[self._name] = self
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        self._name = value
        self._trace.program._named[value] = self

    @property
    def persistable(self) -> bool:
        return self._persistable

    @property
    def static_shape(self) -> list[int]:
        """The shape with -1 where it was given as None/-1 (the placeholder sizes)."""
        return [-1 if _placeholder_of(d) else int(d) for d in self.aval.shape]

    @property
    def desc(self) -> "Variable":
        return self

    def __hash__(self) -> int:  # by identity, as Paddle's Variables (no_grad_set={x}, dict keys)
        return id(self)

    def __repr__(self) -> str:
        return (f"Variable(name={self.name}, shape={self.static_shape}, dtype={self.dtype.name}, "
                f"persistable={self._persistable})")

    # `opt.minimize(loss)` on a static loss (padax.optimizer's Optimizer.minimize looks this up)
    @staticmethod
    def _static_minimize(loss: "Variable", optimizer: Any, startup_program: Any = None, parameters: Any = None,
                         no_grad_set: Any = None) -> Any:
        return _MINIMIZE[0](loss, optimizer, startup_program, parameters, no_grad_set)


_MINIMIZE: list = [None]  # set by padax.static.backward (it builds on this module)


def _placeholder_of(d: int) -> bool:
    return d in PLACEHOLDERS


class ProgramTrace(JaxprTrace):
    """The staging trace of a Program: records every primitive applied to its Variables as an equation."""

    __slots__ = ("program", "family")

    def __init__(self, program: "Program", family: set | None = None):
        super().__init__("padax.static program")
        self.program = program
        # a program and its clones share their variables: a clone's ops may use the original's Variables
        self.family = family if family is not None else set()
        self.family.add(id(self))

    def getvar(self, x: Any):
        if isinstance(x, Variable) and x._trace is not self:
            if id(x._trace) in self.family:
                return x._var
            raise StaticGraphError(f"padax.static: Variable {x.name!r} belongs to another Program; a program's "
                                   "ops can use only its own Variables (build it inside the same program_guard)")
        return super().getvar(x)

    def process_primitive(self, prim, args, params):
        out = super().process_primitive(prim, args, params)
        if prim.multiple_results:
            return [Variable(self, t._var) for t in out]
        return Variable(self, out._var)


class Block:
    """Paddle's block view of a Program (padax programs have one block)."""

    def __init__(self, program: "Program"):
        self.program = program
        self.idx = 0

    @property
    def ops(self) -> list[JaxprEqn]:
        return self.program._eqns()

    def var(self, name: str) -> Variable:
        return self.program._var(name)

    def has_var(self, name: str) -> bool:
        return name in self.program._named

    @property
    def vars(self) -> dict[str, Variable]:
        return dict(self.program._named)

    def all_parameters(self) -> list[Variable]:
        return self.program.all_parameters()

    def __repr__(self) -> str:
        return f"Block(ops={len(self.ops)}, vars={len(self.program._named)})"


_program_ids = itertools.count()


class Program:
    """A static-graph program: the equations recorded so far, its inputs (data and persistable variables),
    the new values of persistables it computes (parameter updates) and, for a startup program, the
    initial values of the parameters.

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> main, startup = padax.static.Program(), padax.static.Program()
        >>> with padax.static.program_guard(main, startup):
        ...     x = padax.static.data("px", [None, 2], "float32")
        ...     y = padax.static.nn.fc(x, 3, weight_attr=padax.ParamAttr("pw"), bias_attr=False)
        >>> [p.name for p in main.all_parameters()], len(main.global_block().ops)
        (['pw'], 1)
        >>> padax.disable_static()
    """

    def __init__(self) -> None:
        self._trace = ProgramTrace(self)
        self._id = next(_program_ids)
        self._named: dict[str, Variable] = {}     # name -> Variable
        self._inputs: dict[Var, tuple[str, str]] = {}  # invar -> (name, "data" | "param" | "state")
        self._trainable: dict[str, bool] = {}     # parameter name -> trainable
        self._updates: dict[str, Var] = {}        # persistable name -> the var holding its new value
        self._inits: dict[str, Any] = {}          # (startup) persistable name -> initial value
        self._test_alias: dict[Var, Var] = {}     # train-mode output -> its test-mode counterpart
        self._lr_feeds: dict[str, Any] = {}       # learning-rate persistable -> the optimizer whose schedule sets it
        self._for_test = False
        self._limit: int | None = None            # a clone sees the equations recorded before it
        self._names = itertools.count()
        self._cache: dict = {}
        self.random_seed = 0

    # -- reading -------------------------------------------------------------------------------
    def _eqns(self) -> list[JaxprEqn]:
        eqns = self._trace.eqns
        return eqns if self._limit is None else eqns[:self._limit]

    def _fresh_name(self, prefix: str) -> str:
        while True:
            name = f"{prefix}_{next(self._names)}"
            if name not in self._named:
                return name

    def _var(self, name: str) -> Variable:
        v = self._named.get(name)
        if v is None:
            known = ", ".join(sorted(self._named)[:12])
            raise StaticGraphError(f"padax.static: the program has no variable named {name!r} (it has: {known}"
                                   f"{', ...' if len(self._named) > 12 else ''})")
        return v

    def global_block(self) -> Block:
        """The program's one block."""
        return Block(self)

    def block(self, index: int = 0) -> Block:
        if index != 0:
            raise IndexError(f"padax.static.Program.block: padax programs have one block, got index {index}")
        return Block(self)

    @property
    def num_blocks(self) -> int:
        return 1

    def current_block(self) -> Block:
        return Block(self)

    def list_vars(self) -> Iterator[Variable]:
        """The named variables (data, parameters, named results)."""
        return iter(list(self._named.values()))

    def all_parameters(self) -> list[Variable]:
        """The parameters (persistable inputs made by layers or create_parameter), in creation order."""
        return [self._named[n] for v, (n, kind) in self._inputs.items() if kind == "param"]

    def _persistables(self, kind: str | None = None) -> list[tuple[Var, str]]:
        return [(v, n) for v, (n, k) in self._inputs.items() if k != "data" and (kind is None or k == kind)]

    def clone(self, for_test: bool = False) -> "Program":
        """A copy of the program as recorded so far; `for_test=True` drops its updates (optimizer steps,
        batch-norm statistics) and runs layers in inference mode (batch_norm with the running statistics)."""
        p = Program.__new__(Program)
        p.__dict__.update(self.__dict__)
        p._trace = ProgramTrace(p, self._trace.family)
        # the clone shares the recorded equations and inputs; it reads a prefix of the equation list
        p._trace.eqns = self._trace.eqns
        p._trace.invars, p._trace.constvars = self._trace.invars, self._trace.constvars
        p._trace.const_vals, p._trace._const_ids = self._trace.const_vals, self._trace._const_ids
        p._limit = len(self._trace.eqns)
        p._id = next(_program_ids)
        p._named, p._inputs, p._trainable = dict(self._named), dict(self._inputs), dict(self._trainable)
        p._updates = {} if for_test else dict(self._updates)
        p._inits, p._test_alias, p._lr_feeds = dict(self._inits), dict(self._test_alias), dict(self._lr_feeds)
        p._for_test = for_test or self._for_test
        p._cache = {}
        return p

    def to_jaxpr(self, fetch_list: Sequence[Any] = ()) -> ClosedJaxpr:
        """The recorded program as a closed jaxpr: inputs (data, then persistables, in creation order) ->
        the `fetch_list` Variables, then the new values of the persistables it updates."""
        outs = [f._var if isinstance(f, Variable) else self._var(f)._var for f in fetch_list]
        outs += list(self._updates.values())
        t = self._trace
        jaxpr = Jaxpr(list(t.constvars), list(self._inputs), outs, list(self._eqns()))
        return ClosedJaxpr(jaxpr, list(t.const_vals))

    def __str__(self) -> str:
        names = ", ".join(n for n, _ in self._inputs.values())
        return f"Program(inputs: {names}; updates: {', '.join(self._updates) or 'none'})\n{self.to_jaxpr()}"

    def __repr__(self) -> str:
        return (f"Program(id={self._id}, ops={len(self._eqns())}, params={len(self.all_parameters())}"
                f"{', for_test' if self._for_test else ''})")

    # -- building ------------------------------------------------------------------------------
    def _new_input(self, name: str, aval: Any, kind: str, stop_gradient: bool) -> Variable:
        if name in self._named:
            raise StaticGraphError(f"padax.static: the program already has a variable named {name!r}")
        if self._limit is not None:
            raise StaticGraphError("padax.static: a cloned program is read-only; add inputs to the original")
        t = self._trace.new_arg(aval)
        v = Variable(self._trace, t._var, name, stop_gradient=stop_gradient, persistable=kind != "data")
        self._named[name] = v
        self._inputs[v._var] = (name, kind)
        return v

    def _set_update(self, name: str, value: Any) -> None:
        """Record that running the program gives the persistable `name` the value `value` (a Variable)."""
        if not isinstance(value, Variable) or value._trace is not self._trace:
            value = self._stage(lambda: padax.assign(value))
        self._updates[name] = value._var

    def _stage(self, fn):
        with set_current_trace(self._trace):
            return fn()


# -- the current programs and the mode ---------------------------------------------------------

class _State:
    def __init__(self) -> None:
        self.static = False
        self.main = Program()
        self.startup = Program()
        self.saved_trace: Any = None   # the trace that was current before enable_static


STATE = _State()


def default_main_program() -> Program:
    """The program ops are recorded into outside `program_guard`."""
    return STATE.main


def default_startup_program() -> Program:
    """The program that holds the initial values of the parameters made outside `program_guard`."""
    return STATE.startup


def in_static_mode() -> bool:
    """True between `padax.enable_static()` and `padax.disable_static()`."""
    return STATE.static


def _activate(program: Program) -> None:
    trace_state.trace = program._trace


def enable() -> None:
    if STATE.static:
        return
    STATE.saved_trace = trace_state.trace
    STATE.static = True
    _activate(STATE.main)


def disable() -> None:
    if not STATE.static:
        return
    STATE.static = False
    trace_state.trace = STATE.saved_trace if STATE.saved_trace is not None else EvalTrace()
    STATE.saved_trace = None


@contextlib.contextmanager
def program_guard(main_program: Program, startup_program: Program | None = None) -> Iterator[None]:
    """Record ops into `main_program` (and parameter initial values into `startup_program`) in this block.

    Args:
        main_program: the Program ops go into.
        startup_program: the Program that keeps the parameters' initial values (default: unchanged).

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> main = padax.static.Program()
        >>> with padax.static.program_guard(main):
        ...     x = padax.static.data("gx", [2], "float32")
        ...     y = x + 1.0
        >>> padax.static.default_main_program() is main, len(main.global_block().ops)
        (False, 2)
        >>> padax.disable_static()
    """
    if not isinstance(main_program, Program):
        raise TypeError(f"padax.static.program_guard: main_program must be a padax.static.Program, got "
                        f"{type(main_program).__name__}")
    if startup_program is not None and not isinstance(startup_program, Program):
        raise TypeError(f"padax.static.program_guard: startup_program must be a padax.static.Program, got "
                        f"{type(startup_program).__name__}")
    prev_main, prev_startup = STATE.main, STATE.startup
    STATE.main = main_program
    if startup_program is not None:
        STATE.startup = startup_program
    if STATE.static:
        _activate(main_program)
    try:
        yield
    finally:
        STATE.main, STATE.startup = prev_main, prev_startup
        if STATE.static:  # (also when static mode was switched on inside the block)
            _activate(prev_main)


@contextlib.contextmanager
def eager() -> Iterator[None]:
    """Run ops for real in this block (parameter initial values, optimizer state), even in static mode."""
    if isinstance(trace_state.trace, ProgramTrace):
        with set_current_trace(STATE.saved_trace if isinstance(STATE.saved_trace, EvalTrace) else EvalTrace()):
            yield
    else:
        yield


# -- inputs ----------------------------------------------------------------------------------

def _require_static(what: str) -> None:
    if not STATE.static:
        raise StaticGraphError(f"padax.static.{what}: static mode is off; call padax.enable_static() first")


def _aval(shape: Sequence[Any], dtype: Any, what: str):
    if isinstance(shape, (int, np.integer)):
        shape = [shape]
    dims = []
    for axis, d in enumerate(shape):
        if d is None or d == -1:
            if axis >= len(PLACEHOLDERS):
                raise StaticGraphError(f"padax.static.{what}: a size not known (None/-1) is supported on the "
                                       f"first {len(PLACEHOLDERS)} axes, got shape {list(shape)}")
            dims.append(PLACEHOLDERS[axis])
        elif isinstance(d, (int, np.integer)) and d >= 0:
            dims.append(int(d))
        else:
            raise StaticGraphError(f"padax.static.{what}: sizes must be ints >= 0 or None/-1, got shape "
                                   f"{list(shape)}")
    dt = dtypes.canonicalize_dtype(dtypes.to_dtype(dtype if dtype is not None else dtypes.default_float_dtype()))
    return padax.ShapeDtypeStruct(tuple(dims), dt)


def data(name: str, shape: Sequence[Any], dtype: Any = None, lod_level: int = 0) -> Variable:
    """A feed of the current program: an input Variable fed by `Executor.run(feed={name: array})`.

    Args:
        name: the feed's name.
        shape: its sizes; None or -1 for a size known only when fed (the batch).
        dtype: its dtype (default float32).
        lod_level: accepted for Paddle compatibility (must be 0).

    Returns:
        The input Variable.

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> x = padax.static.data("dx", [None, 4], "float32")
        >>> x.static_shape, x.stop_gradient
        ([-1, 4], True)
        >>> padax.disable_static()
    """
    _require_static("data")
    if not isinstance(name, str) or not name:
        raise TypeError(f"padax.static.data: name must be a non-empty str, got {name!r}")
    if lod_level:
        raise StaticGraphError("padax.static.data: LoD tensors (lod_level > 0) are not supported")
    spec = _aval(shape, dtype, "data")
    return STATE.main._new_input(name, _shaped(spec), "data", stop_gradient=True)


def _shaped(spec: Any) -> ShapedArray:
    return ShapedArray(spec.shape, spec.dtype)


def add_persistable(name: str, value: Any, kind: str = "param", trainable: bool = True,
                    program: Program | None = None, startup: Program | None = None) -> Variable:
    """A persistable input of the current program (a parameter or an optimizer/statistics state) with its
    initial value kept by the startup program."""
    main = STATE.main if program is None else program
    startup = STATE.startup if startup is None else startup
    with eager():
        value = padax.to_tensor(value) if not isinstance(value, padax.Tensor) else value
    aval = value.aval
    v = main._new_input(name, aval, kind, stop_gradient=not trainable)
    if kind == "param":
        main._trainable[name] = trainable
    startup._inits[name] = value
    return v


def create_global_var(shape: Sequence[int], value: float, dtype: Any, persistable: bool = False,
                      force_cpu: bool = False, name: str | None = None) -> Variable:
    """A Variable filled with `value` (Paddle's `paddle.static.create_global_var`); a persistable one is an input of
    the program kept in the scope (saved with the optimizer state by `static.save`), its initial value in the
    startup program.

    Args:
        shape: its sizes.
        value: the fill value.
        dtype: its dtype.
        persistable: keep it in the scope across runs.
        force_cpu: accepted for Paddle compatibility.
        name: its name (default: a generated one).

    Returns:
        The Variable.

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> step = padax.static.create_global_var([1], 0.0, "float32", persistable=True, name="gstep")
        >>> step.name, step.persistable
        ('gstep', True)
        >>> padax.disable_static()
    """
    _require_static("create_global_var")
    with eager():
        init = padax.full([int(d) for d in shape], value, dtype)
    if persistable:
        return add_persistable(name or unique_name("global_var"), init, kind="state")
    out = STATE.main._stage(lambda: padax.assign(init))
    if name is not None:
        out.name = name
    return out


@contextlib.contextmanager
def name_scope(prefix: str | None = None) -> Iterator[None]:
    """Paddle's name scope: the ops recorded in it carry `prefix` in their scope (padax.named_scope)."""
    if prefix:
        with padax.named_scope(prefix):
            yield
    else:
        yield


@contextlib.contextmanager
def device_guard(device: str | None = None) -> Iterator[None]:
    """Accepted for Paddle compatibility: padax places a whole program on one device."""
    yield


def cpu_places(device_count: int | None = None) -> list:
    """`device_count` CPU places (default 1)."""
    return [padax.CPUPlace() for _ in range(device_count or 1)]


_unique: dict[str, itertools.count] = {}


def unique_name(prefix: str) -> str:
    """Paddle's generated names: `fc_0`, `fc_1`, ... (one counter per prefix, for the whole session)."""
    return f"{prefix}_{next(_unique.setdefault(prefix, itertools.count()))}"



__all__ = ["Block", "PLACEHOLDERS", "Program", "ProgramTrace", "StaticGraphError", "Variable", "add_persistable",
           "cpu_places", "create_global_var", "data", "default_main_program", "default_startup_program", "device_guard",
           "eager", "in_static_mode", "name_scope", "program_guard", "unique_name"]
