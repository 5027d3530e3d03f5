"""The IR: variables, literals, equations, jaxprs, a pretty printer and an evaluator."""
from __future__ import annotations

import itertools
from typing import Any, Callable, Sequence

import numpy as np

from padax.core import source_info
from padax.core.abstract import ShapedArray
from padax.core.source_info import SourceInfo

_var_ids = itertools.count()


class Var:
    """A variable of a jaxpr: an input, a constvar or an equation's output, typed by its `aval`.

    Args:
        aval: the variable's abstract value (shape and dtype).

    Returns:
        A new variable with a fresh id.

    Examples:
        >>> import padax
        >>> closed = padax.make_jaxpr(lambda x: padax.sin(x))(padax.to_tensor([1.0, 2.0]))
        >>> v = closed.jaxpr.invars[0]
        >>> type(v).__name__, v.aval
        ('Var', ShapedArray(f32[2]))
    """
    __slots__ = ("aval", "_id")

    def __init__(self, aval: ShapedArray):
        self.aval = aval
        self._id = next(_var_ids)

    def __repr__(self) -> str:
        return f"Var#{self._id}:{self.aval.str_short()}"


class Literal:
    """A constant small enough to print and embed in the program (Python scalars): read `.val`.

    Args:
        val: the constant (a Python or numpy scalar).
        aval: its abstract value (shape and dtype).

    Returns:
        The literal.

    Examples:
        >>> import padax
        >>> closed = padax.make_jaxpr(lambda x: x * 2.0)(padax.to_tensor([1.0, 2.0]))
        >>> lit = closed.eqns[0].invars[0]            # 2.0, broadcast to x's shape
        >>> type(lit).__name__, float(lit.val)
        ('Literal', 2.0)
    """

    __slots__ = ("val", "aval")

    def __init__(self, val: Any, aval: ShapedArray):
        self.val = val
        self.aval = aval

    def __repr__(self) -> str:
        return f"Literal({self.val!r})"


Atom = Var | Literal


class JaxprEqn:
    """One equation of a jaxpr: `outvars = primitive.bind(*invars, **params)`.

    Args:
        primitive: the Primitive applied.
        invars: its inputs (Vars or Literals).
        outvars: its output Vars.
        params: the primitive's static parameters.
        source_info: where the user's code made it (for errors), or None.

    Returns:
        The equation.

    Examples:
        >>> import padax
        >>> closed = padax.make_jaxpr(lambda x: padax.sin(x) * x)(padax.to_tensor([1.0, 2.0]))
        >>> [(eqn.primitive.name, len(eqn.invars), len(eqn.outvars)) for eqn in closed.eqns]
        [('sin', 1, 1), ('mul', 2, 1)]
    """
    __slots__ = ("primitive", "invars", "outvars", "params", "source_info")

    def __init__(self, primitive, invars: list[Atom], outvars: list[Var], params: dict,
                 source_info: SourceInfo | None = None):
        self.primitive = primitive
        self.invars = invars
        self.outvars = outvars
        self.params = params
        self.source_info = source_info

    def replace(self, **kw) -> "JaxprEqn":
        d = dict(primitive=self.primitive, invars=self.invars, outvars=self.outvars,
                 params=self.params, source_info=self.source_info)
        d.update(kw)
        return JaxprEqn(**d)


class Jaxpr:
    """A closed-over-nothing program: `constvars` are bound by a ClosedJaxpr's consts.

    Fields: constvars, invars, outvars (Vars or Literals) and eqns (JaxprEqns, in order).

    Args:
        constvars: Vars bound by a ClosedJaxpr's consts.
        invars: the input Vars.
        outvars: the outputs (Vars or Literals).
        eqns: the JaxprEqns, in execution order.

    Returns:
        The jaxpr.

    Examples:
        >>> import padax
        >>> jaxpr = padax.make_jaxpr(lambda x: padax.sin(x) * x)(padax.to_tensor([1.0, 2.0])).jaxpr
        >>> print(jaxpr)
        { lambda ; a:f32[2]. let
            b:f32[2] = sin a
            c:f32[2] = mul b a
          in (c,) }
    """

    __slots__ = ("constvars", "invars", "outvars", "eqns", "_effects")

    def __init__(self, constvars: list[Var], invars: list[Var], outvars: list[Atom],
                 eqns: list[JaxprEqn]):
        self.constvars = constvars
        self.invars = invars
        self.outvars = outvars
        self.eqns = eqns
        self._effects = None  # computed on demand by padax.core.effects.jaxpr_effects

    @property
    def effects(self) -> frozenset:
        """The side effects of the program's equations (see padax.core.effects)."""
        from padax.core.effects import jaxpr_effects  # cycle: padax.core.effects imports Jaxpr from this module at load
        return jaxpr_effects(self)

    @property
    def in_avals(self) -> list[ShapedArray]:
        return [v.aval for v in self.invars]

    @property
    def out_avals(self) -> list[ShapedArray]:
        return [v.aval for v in self.outvars]

    def __str__(self) -> str:
        return pp_jaxpr(self)

    __repr__ = __str__


class ClosedJaxpr:
    """A jaxpr with values for its constvars (`consts`, alias `literals`). Hashes by identity (used as a cache key).

    Args:
        jaxpr: the Jaxpr.
        consts: one value per constvar of `jaxpr`.

    Returns:
        The closed jaxpr.

    Examples:
        >>> import padax
        >>> closed = padax.make_jaxpr(lambda x: padax.sin(x) * x)(padax.to_tensor([1.0, 2.0]))
        >>> closed.in_avals, closed.out_avals, closed.consts
        ([ShapedArray(f32[2])], [ShapedArray(f32[2])], [])
    """

    __slots__ = ("jaxpr", "consts", "__weakref__")

    def __init__(self, jaxpr: Jaxpr, consts: Sequence[Any]):
        self.jaxpr = jaxpr
        self.consts = list(consts)

    in_avals = property(lambda self: self.jaxpr.in_avals)
    out_avals = property(lambda self: self.jaxpr.out_avals)
    eqns = property(lambda self: self.jaxpr.eqns)
    literals = property(lambda self: self.consts)  # jax's other name for the constvars' values

    def __str__(self) -> str:
        return pp_jaxpr(self.jaxpr)

    __repr__ = __str__


def dce_jaxpr(jaxpr: Jaxpr) -> Jaxpr:
    """Drop equations whose outputs nothing uses, except those with side effects."""
    from padax.core.effects import eqn_effects  # cycle: padax.core.effects imports Jaxpr from this module at load
    live = {v for v in jaxpr.outvars if type(v) is Var}
    kept = []
    for eqn in reversed(jaxpr.eqns):
        if any(v in live for v in eqn.outvars) or eqn_effects(eqn):
            kept.append(eqn)
            live.update(v for v in eqn.invars if type(v) is Var)
    kept.reverse()
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, kept)


# ---- evaluation ---------------------------------------------------------------

def eval_jaxpr(jaxpr: Jaxpr, consts: Sequence[Any], *args: Any) -> list[Any]:
    """Interpret a jaxpr by binding each equation under the current trace."""
    env: dict[Var, Any] = {}

    def read(v: Atom) -> Any:
        return v.val if type(v) is Literal else env[v]

    for v, x in zip(jaxpr.constvars, consts):
        env[v] = x
    for v, x in zip(jaxpr.invars, args):
        env[v] = x
    outer = source_info.current.info
    try:
        for eqn in jaxpr.eqns:
            ins = [read(v) for v in eqn.invars]
            source_info.current.info = eqn.source_info or outer  # what it stages keeps its line
            outs = eqn.primitive.bind(*ins, **eqn.params)
            if not eqn.primitive.multiple_results:
                outs = (outs,)
            for v, x in zip(eqn.outvars, outs):
                env[v] = x
    finally:
        source_info.current.info = outer
    return [read(v) for v in jaxpr.outvars]


# ---- pretty printing ----------------------------------------------------------

class _Namer:
    def __init__(self) -> None:
        self.names: dict[Var, str] = {}

    def __call__(self, v: Atom) -> str:
        if type(v) is Literal:
            return _literal_str(v)
        name = self.names.get(v)
        if name is None:
            name = self.names[v] = _id_to_name(len(self.names))
        return name

    def binder(self, v: Var) -> str:
        return f"{self(v)}:{v.aval.str_short()}"


def _id_to_name(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(ord("a") + r) + s
    return s


def _literal_str(v: Literal) -> str:
    val = v.val
    if isinstance(val, np.ndarray) and val.shape == ():
        val = val[()]  # a numpy scalar of the literal's own dtype: float32 prints as 1.67, not 1.6699999570846558
    if isinstance(val, (bool, np.bool_)):
        return str(bool(val))
    if isinstance(val, np.generic):
        text = str(val) if isinstance(val, (np.floating, np.complexfloating)) else repr(val.item())
        return f"{text}:{v.aval.str_short()}"
    return f"{val!r}:{v.aval.str_short()}"


def _param_str(v: Any, namer: _Namer, indent: int) -> str:
    if isinstance(v, ClosedJaxpr):
        v = v.jaxpr
    if isinstance(v, Jaxpr):
        inner = _pp_body(v, namer, indent + 4)
        return "\n" + inner
    if isinstance(v, np.dtype):
        return v.name
    if isinstance(v, Callable) and hasattr(v, "__name__"):
        return v.__name__
    return repr(v)


def _pp_body(jaxpr: Jaxpr, namer: _Namer, indent: int) -> str:
    pad = " " * indent
    consts = " ".join(namer.binder(v) for v in jaxpr.constvars)
    ins = " ".join(namer.binder(v) for v in jaxpr.invars)
    lines = [f"{pad}{{ lambda {consts}; {ins}. let"]
    for eqn in jaxpr.eqns:
        pp_rule = getattr(eqn.primitive, "pp_rule", None)
        if pp_rule is not None:  # a primitive printed in its own notation (ref reads and writes: `a[0] <- b`)
            lines.append(f"{pad}    {pp_rule(eqn, namer, namer.binder)}")
            continue
        outs = " ".join(namer.binder(v) for v in eqn.outvars)
        params = ", ".join(f"{k}={_param_str(val, namer, indent + 4)}" for k, val in eqn.params.items())
        params = f"[{params}]" if params else ""
        args = " ".join(namer(v) for v in eqn.invars)
        lines.append(f"{pad}    {outs} = {eqn.primitive.name}{params} {args}".rstrip())
    outs = ", ".join(namer(v) for v in jaxpr.outvars)
    lines.append(f"{pad}  in ({outs},) }}" if len(jaxpr.outvars) == 1 else f"{pad}  in ({outs}) }}")
    return "\n".join(lines)


def pp_jaxpr(jaxpr: Jaxpr) -> str:
    return _pp_body(jaxpr, _Namer(), 0)
