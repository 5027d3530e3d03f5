"""Translate a traced padax program (a jaxpr) into an ONNX graph and write it atomically.

Dynamic sizes: padax traces at concrete shapes, so each None size in the InputSpec is traced at its own
placeholder (a prime above 1000: 1039, 1171, ...; if the trace needs two of them equal, again with one per
axis position). A size in the program that factors into placeholders (1039, 2 * 1039, 1039 * 1171) is
symbolic: graph inputs/outputs get `dim_param` names, and the shape operands this module emits (Reshape,
Expand, Slice bounds, a literal equal to a placeholder such as a mean's count) are computed from the inputs'
run-time shapes. A size derived otherwise (`x.shape[0] - 1` in a reshape) stays as traced, with a warning.
A scan (an RNN) is unrolled for a fixed length up to 16 and becomes an ONNX Loop otherwise.
"""
from __future__ import annotations

import os
import warnings
from typing import Any, Callable, Sequence

import numpy as np

import padax
from padax import dtypes, tree
from padax.core.atomic_file import atomic_write
from padax.static.input_spec import InputSpec

__all__ = ["export", "UnsupportedPrimitiveError"]

SUFFIX = ".onnx"
DEFAULT_OPSET = 17
MIN_OPSET = 13
# primes, far apart, and more than 12 from a multiple of 64, 96 or 100 (and 16 from one of 1000): unlikely sizes
_PLACEHOLDERS = (1039, 1171, 1319, 1423, 1549, 1741, 1871, 2029, 2131, 2267, 2381, 2521)
_INT64_MAX = np.iinfo(np.int64).max
_NEAR_END = 12  # a slice bound this close below a None axis's traced size is counted from its end


class UnsupportedPrimitiveError(NotImplementedError):
    """A primitive (or a form of one) that `padax.onnx.export` has no ONNX translation for.

    Args:
        *args: the message (it names the primitive and where the model used it).

    Returns:
        The exception (raise it).

    Examples:
        >>> issubclass(padax.onnx.UnsupportedPrimitiveError, NotImplementedError)
        True
    """


def _onnx() -> Any:
    try:
        import onnx
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("padax.onnx.export needs the `onnx` package: pip install 'padax[onnx]' "
                          "(or pip install onnx)") from e
    return onnx


# -- symbolic sizes -----------------------------------------------------------------------------

def _factor(d: int, nsym: int) -> tuple[int, tuple[int, ...]]:
    """d as coef * prod(placeholders[syms]); syms empty for a static size."""
    syms: list[int] = []
    coef = int(d)
    if coef <= 0:
        return coef, ()
    for i in range(nsym):
        while coef % _PLACEHOLDERS[i] == 0:
            coef //= _PLACEHOLDERS[i]
            syms.append(i)
    return coef, tuple(syms)


class _Graph:
    """The ONNX nodes, initializers and names being built."""

    def __init__(self, onnx: Any, opset: int, sym_sources: list[tuple[str, int]], sym_names: list[str]):
        self.onnx = onnx
        self.h = onnx.helper
        self.opset = opset
        self.nodes: list = []
        self.inits: list = []
        self.used: set[str] = set()
        self.counter = 0
        self.const_cache: dict = {}
        self.sym_sources = sym_sources  # symbol -> (input name, axis)
        self.sym_names = sym_names
        self.sym_cache: dict = {}
        self.where = ""
        self.warned = False

    def fresh(self, prefix: str = "t") -> str:
        while True:
            self.counter += 1
            name = f"{prefix}_{self.counter}"
            if name not in self.used:
                self.used.add(name)
                return name

    def initializer(self, value: np.ndarray, name: str) -> str:
        self.used.add(name)
        self.inits.append(self.onnx.numpy_helper.from_array(np.array(value, order="C"), name))
        return name

    def const(self, value: Any, dtype: Any = None) -> str:
        arr = np.asarray(value, dtype=dtype)
        if arr.dtype == np.float64 and dtype is None and not isinstance(value, np.ndarray):
            arr = arr.astype(np.float32)
        key = (arr.dtype.str, arr.shape, arr.tobytes())
        if key not in self.const_cache:
            self.const_cache[key] = self.initializer(arr, self.fresh("const"))
        return self.const_cache[key]

    def node(self, op: str, inputs: Sequence[str], n_out: int = 1, **attrs: Any) -> Any:
        outs = [self.fresh(op.lower()) for _ in range(n_out)]
        self.nodes.append(self.h.make_node(op, list(inputs), outs, name=self.fresh("n_" + op), **attrs))
        return outs[0] if n_out == 1 else outs

    # sizes
    def is_symbolic(self, d: int) -> bool:
        return bool(_factor(d, len(self.sym_sources))[1])

    def dim_value(self, d: int) -> str:
        """A 1-element int64 tensor holding size `d` at run time."""
        coef, syms = _factor(d, len(self.sym_sources))
        if not syms:
            return self.const([d], np.int64)
        if d in self.sym_cache:
            return self.sym_cache[d]
        out = None
        for s in syms:
            src, axis = self.sym_sources[s]
            if self.opset >= 15:
                v = self.node("Shape", [src], start=axis, end=axis + 1)
            else:  # Shape has no start/end before opset 15
                v = self.node("Gather", [self.node("Shape", [src]), self.const([axis], np.int64)], axis=0)
            out = v if out is None else self.node("Mul", [out, v])
        if coef != 1:
            out = self.node("Mul", [out, self.const([coef], np.int64)])
        self.sym_cache[d] = out
        return out

    def shape_tensor(self, shape: Sequence[int], ones_where: Sequence[bool] = ()) -> str:
        """An int64 shape tensor for `shape`; entries where ones_where is true are written as 1 (Expand keeps
        the operand's size there)."""
        if not any(self.is_symbolic(d) for d in shape):
            return self.const(list(shape), np.int64)
        parts = []
        for i, d in enumerate(shape):
            keep = i < len(ones_where) and ones_where[i]
            if keep and self.is_symbolic(d):
                parts.append(self.const([1], np.int64))  # Expand keeps the operand's size
            else:
                parts.append(self.dim_value(d))
        return self.node("Concat", parts, axis=0)

    def check_near(self, shape: Sequence[int], eqn: Any) -> None:
        """Warn (once) of a fixed size just off a placeholder in a shape the graph holds (a reshape's or
        broadcast's): a size derived from a None axis (x.shape[0] - 1), kept at its traced value."""
        if self.warned or not self.sym_sources:
            return
        for d in shape:
            for i in range(len(self.sym_sources)):
                if 0 < abs(int(d) - _PLACEHOLDERS[i]) <= _NEAR_END:
                    self.warned = True
                    warnings.warn(f"padax.onnx.export: the program has a size {int(d)} derived from the None size "
                                  f"{self.sym_names[i]} (traced at {_PLACEHOLDERS[i]}) by '{eqn.primitive.name}'"
                                  f"{_where(eqn)}; the graph holds it fixed, so give that axis a fixed size",
                                  stacklevel=4)
                    return

    def dim_label(self, d: int) -> Any:
        coef, syms = _factor(d, len(self.sym_sources))
        if not syms:
            return d
        label = "*".join(self.sym_names[s] for s in syms)
        return label if coef == 1 else f"{coef}*{label}"


# -- the translation of one jaxpr ---------------------------------------------------------------

def _is_literal(v: Any) -> bool:
    return type(v).__name__ == "Literal"


class _Translator:
    def __init__(self, g: _Graph):
        self.g = g

    def read(self, env: dict, v: Any) -> str:
        if _is_literal(v):
            val = np.asarray(v.val, dtype=v.aval.dtype)
            if (val.shape == () and val.dtype.kind in "iuf" and np.isfinite(val) and float(val) == int(val)
                    and self.g.is_symbolic(int(val))):
                # the traced size of a None axis (a mean's count, a negative index's wrap): the run-time size
                size = self.g.dim_value(int(val))
                size = self.g.node("Reshape", [size, self.g.const([], np.int64)])
                return self.g.node("Cast", [size], to=self.g.h.np_dtype_to_tensor_dtype(val.dtype))
            return self.g.const(val)
        return env[v]

    def run(self, jaxpr: Any, consts: Sequence[str], args: Sequence[str]) -> list[str]:
        env: dict = {}
        for var, name in zip(jaxpr.constvars, consts):
            env[var] = name
        for var, name in zip(jaxpr.invars, args):
            env[var] = name
        for eqn in jaxpr.eqns:
            ins = [self.read(env, v) for v in eqn.invars]
            prim = eqn.primitive.name
            self.g.where = _where(eqn)
            rule = _RULES.get(prim)
            if rule is None:
                sub = _sub_jaxpr(eqn)
                if sub is None:
                    raise UnsupportedPrimitiveError(
                        f"padax.onnx.export: primitive '{prim}' has no ONNX translation{self.g.where}. Supported: "
                        f"{', '.join(sorted(_RULES))} and calls (jit, custom_jvp_call, custom_vjp_call, remat, ...) "
                        "whose programs are inlined")
                closed, offset = sub
                inner = closed.jaxpr if hasattr(closed, "jaxpr") else closed
                cnames = [self.g.const(np.asarray(c)) for c in getattr(closed, "consts", ())]
                outs = self.run(inner, cnames, ins[offset:])
            else:
                outs = rule(self, eqn, ins)
                if isinstance(outs, str):
                    outs = [outs]
            for var, name in zip(eqn.outvars, outs):
                env[var] = name
        return [self.read(env, v) for v in jaxpr.outvars]

    def unsupported(self, eqn: Any, why: str) -> UnsupportedPrimitiveError:
        return UnsupportedPrimitiveError(f"padax.onnx.export: primitive '{eqn.primitive.name}' {why}{_where(eqn)}")


def _where(eqn: Any) -> str:
    """' (at model.py:12 in forward, scope a/b)': the user's line that made the equation, where padax knows it."""
    si = getattr(eqn, "source_info", None)
    if si is None or not getattr(si, "filename", None):
        return ""
    fn = getattr(si, "function", None)
    fn = f" in {fn}" if fn else ""
    scope = getattr(si, "scope", None)
    scope = f", scope {scope}" if scope else ""
    return f" (at {si.filename}:{si.lineno}{fn}{scope})"


_CALL_PARAMS = ("jaxpr", "call_jaxpr", "fun_jaxpr")


def _sub_jaxpr(eqn: Any) -> tuple[Any, int] | None:
    if eqn.primitive.name in ("scan", "while", "cond"):
        return None
    for p in _CALL_PARAMS:
        sub = eqn.params.get(p)
        if sub is not None and (hasattr(sub, "eqns") or hasattr(sub, "jaxpr")):
            return sub, 0
    return None


# -- rules ----------------------------------------------------------------------------------------

_RULES: dict[str, Callable] = {}


def _rule(*names: str) -> Callable:
    def deco(f: Callable) -> Callable:
        for n in names:
            _RULES[n] = f
        return f
    return deco


def _simple(name: str, op: str) -> None:
    _RULES[name] = lambda t, eqn, ins: t.g.node(op, ins)


for _n, _op in {"add": "Add", "sub": "Sub", "mul": "Mul", "max": "Max", "min": "Min", "pow": "Pow",
                "exp": "Exp", "log": "Log", "tanh": "Tanh", "logistic": "Sigmoid", "sqrt": "Sqrt", "neg": "Neg",
                "abs": "Abs", "erf": "Erf", "sign": "Sign", "floor": "Floor", "ceil": "Ceil", "sin": "Sin",
                "cos": "Cos", "tan": "Tan", "asin": "Asin", "acos": "Acos", "atan": "Atan", "sinh": "Sinh",
                "cosh": "Cosh", "asinh": "Asinh", "acosh": "Acosh", "atanh": "Atanh", "eq": "Equal",
                "lt": "Less", "le": "LessOrEqual", "gt": "Greater", "ge": "GreaterOrEqual",
                "stop_gradient": "Identity", "copy": "Identity", "copy_p": "Identity",
                "reduce_precision": "Identity", "optimization_barrier": "Identity", "name": "Identity"}.items():
    _simple(_n, _op)


def _dtype(eqn: Any, i: int = 0, out: bool = False) -> np.dtype:
    v = eqn.outvars[i] if out else eqn.invars[i]
    return np.dtype(v.aval.dtype)


def _bool_or_int(name: str, bool_op: str, int_op: str) -> None:
    def rule(t: _Translator, eqn: Any, ins: list) -> str:
        if _dtype(eqn) == np.bool_:
            return t.g.node(bool_op, ins)
        if t.g.opset < 18:
            raise t.unsupported(eqn, f"on integers ({int_op}) needs opset_version >= 18")
        return t.g.node(int_op, ins)
    _RULES[name] = rule


_bool_or_int("and", "And", "BitwiseAnd")
_bool_or_int("or", "Or", "BitwiseOr")
_bool_or_int("xor", "Xor", "BitwiseXor")
_bool_or_int("not", "Not", "BitwiseNot")


@_rule("check")
def _check(t: _Translator, eqn: Any, ins: list) -> list:
    return []  # padax's run-time checks (checkify, index range checks) are not exported: ONNX has no errors


@_rule("div")
def _div(t: _Translator, eqn: Any, ins: list) -> str:
    return t.g.node("Div", ins)  # integers: ONNX truncates toward zero, as XLA


@_rule("rem")
def _rem(t: _Translator, eqn: Any, ins: list) -> str:
    return t.g.node("Mod", ins, fmod=1)


@_rule("ne")
def _ne(t: _Translator, eqn: Any, ins: list) -> str:
    return t.g.node("Not", [t.g.node("Equal", ins)])


@_rule("is_finite")
def _is_finite(t: _Translator, eqn: Any, ins: list) -> str:
    bad = t.g.node("Or", [t.g.node("IsInf", ins), t.g.node("IsNaN", ins)])
    return t.g.node("Not", [bad])


@_rule("rsqrt")
def _rsqrt(t: _Translator, eqn: Any, ins: list) -> str:
    return t.g.node("Reciprocal", [t.g.node("Sqrt", ins)])


@_rule("square")
def _square(t: _Translator, eqn: Any, ins: list) -> str:
    return t.g.node("Mul", [ins[0], ins[0]])


@_rule("integer_pow")
def _integer_pow(t: _Translator, eqn: Any, ins: list) -> str:
    y = int(eqn.params["y"])
    dt = _dtype(eqn)
    if y == 2:
        return t.g.node("Mul", [ins[0], ins[0]])
    out = t.g.node("Pow", [ins[0], t.g.const(abs(y), dt)])
    return t.g.node("Reciprocal", [out]) if y < 0 else out


@_rule("exp2")
def _exp2(t: _Translator, eqn: Any, ins: list) -> str:
    return t.g.node("Pow", [t.g.const(2, _dtype(eqn)), ins[0]])


@_rule("log1p")
def _log1p(t: _Translator, eqn: Any, ins: list) -> str:
    return t.g.node("Log", [t.g.node("Add", [ins[0], t.g.const(1, _dtype(eqn))])])


@_rule("expm1")
def _expm1(t: _Translator, eqn: Any, ins: list) -> str:
    return t.g.node("Sub", [t.g.node("Exp", ins), t.g.const(1, _dtype(eqn))])


@_rule("erfc")
def _erfc(t: _Translator, eqn: Any, ins: list) -> str:
    return t.g.node("Sub", [t.g.const(1, _dtype(eqn)), t.g.node("Erf", ins)])


@_rule("round")
def _round(t: _Translator, eqn: Any, ins: list) -> str:
    if int(eqn.params.get("rounding_method", 0)) == 1:
        return t.g.node("Round", ins)  # half to even, as ONNX
    x = ins[0]  # away from zero: sign(x) * floor(|x| + 0.5)
    half = t.g.const(0.5, _dtype(eqn))
    return t.g.node("Mul", [t.g.node("Sign", [x]), t.g.node("Floor", [t.g.node("Add", [t.g.node("Abs", [x]), half])])])


@_rule("clamp")
def _clamp(t: _Translator, eqn: Any, ins: list) -> str:
    lo, x, hi = ins
    return t.g.node("Max", [t.g.node("Min", [x, hi]), lo])


@_rule("select_n")
def _select_n(t: _Translator, eqn: Any, ins: list) -> str:
    pred, *cases = ins
    if len(cases) == 1:
        return cases[0]
    if _dtype(eqn) == np.bool_:
        return t.g.node("Where", [pred, cases[1], cases[0]])
    out = cases[-1]
    for i in range(len(cases) - 2, -1, -1):  # pred == i picks cases[i]
        hit = t.g.node("Equal", [pred, t.g.const(i, _dtype(eqn))])
        out = t.g.node("Where", [hit, cases[i], out])
    return out


@_rule("convert_element_type")
def _convert(t: _Translator, eqn: Any, ins: list) -> str:
    to = t.g.h.np_dtype_to_tensor_dtype(np.dtype(eqn.params["new_dtype"]))
    return t.g.node("Cast", ins, to=to)


# reductions
def _reduce(op: str) -> Callable:
    def rule(t: _Translator, eqn: Any, ins: list) -> str:
        axes = [int(a) for a in eqn.params["axes"]]
        x = ins[0]
        if not axes:
            return t.g.node("Identity", [x])
        is_bool = _dtype(eqn) == np.bool_
        if is_bool:
            x = t.g.node("Cast", [x], to=t.g.onnx.TensorProto.INT32)
        if op == "ReduceSum" or t.g.opset >= 18:
            out = t.g.node(op, [x, t.g.const(axes, np.int64)], keepdims=0)
        else:
            out = t.g.node(op, [x], axes=axes, keepdims=0)
        if is_bool:
            out = t.g.node("Cast", [out], to=t.g.onnx.TensorProto.BOOL)
        return out
    return rule


_RULES.update(reduce_sum=_reduce("ReduceSum"), reduce_max=_reduce("ReduceMax"), reduce_min=_reduce("ReduceMin"),
              reduce_prod=_reduce("ReduceProd"), reduce_and=_reduce("ReduceMin"), reduce_or=_reduce("ReduceMax"))


def _arg(op: str) -> Callable:
    def rule(t: _Translator, eqn: Any, ins: list) -> str:
        (axis,) = eqn.params["axes"]
        out = t.g.node(op, ins, axis=int(axis), keepdims=0, select_last_index=0)
        to = t.g.h.np_dtype_to_tensor_dtype(np.dtype(eqn.params["index_dtype"]))
        return out if to == t.g.onnx.TensorProto.INT64 else t.g.node("Cast", [out], to=to)
    return rule


_RULES.update(argmax=_arg("ArgMax"), argmin=_arg("ArgMin"))


@_rule("cumsum")
def _cumsum(t: _Translator, eqn: Any, ins: list) -> str:
    return t.g.node("CumSum", [ins[0], t.g.const(int(eqn.params["axis"]), np.int64)],
                    reverse=int(bool(eqn.params.get("reverse", False))))


# structure
@_rule("reshape")
def _reshape(t: _Translator, eqn: Any, ins: list) -> str:
    if eqn.params.get("dimensions") is not None:
        raise t.unsupported(eqn, "with `dimensions` (a transposing reshape) has no ONNX translation")
    new = [int(d) for d in eqn.params["new_sizes"]]
    t.g.check_near(new, eqn)
    old = list(eqn.invars[0].aval.shape)
    sym = [t.g.is_symbolic(d) for d in new]
    if sum(sym) == 0:
        shape = t.g.const(new, np.int64)
    elif sum(sym) == 1:
        shape = t.g.const([-1 if s else d for d, s in zip(new, sym)], np.int64)
    else:
        parts = []
        for i, (d, s) in enumerate(zip(new, sym)):
            if s and i < len(old) and old[i] == d:
                parts.append(t.g.const([0], np.int64))  # copy the input's size
            else:
                parts.append(t.g.dim_value(d))
        shape = t.g.node("Concat", parts, axis=0)
    return t.g.node("Reshape", [ins[0], shape])


@_rule("broadcast_in_dim")
def _broadcast(t: _Translator, eqn: Any, ins: list) -> str:
    shape = [int(d) for d in eqn.params["shape"]]
    bdims = [int(d) for d in eqn.params["broadcast_dimensions"]]
    t.g.check_near(shape, eqn)
    in_shape = list(eqn.invars[0].aval.shape)
    x = ins[0]
    if len(in_shape) != len(shape):
        missing = [i for i in range(len(shape)) if i not in bdims]
        x = t.g.node("Unsqueeze", [x, t.g.const(missing, np.int64)])
    if list(in_shape) == shape:
        return t.g.node("Identity", [x])
    carried = [False] * len(shape)
    for i, b in enumerate(bdims):
        carried[b] = in_shape[i] == shape[b]
    return t.g.node("Expand", [x, t.g.shape_tensor(shape, carried)])


@_rule("transpose")
def _transpose(t: _Translator, eqn: Any, ins: list) -> str:
    return t.g.node("Transpose", ins, perm=[int(p) for p in eqn.params["permutation"]])


@_rule("squeeze")
def _squeeze(t: _Translator, eqn: Any, ins: list) -> str:
    dims = [int(d) for d in eqn.params["dimensions"]]
    return t.g.node("Squeeze", [ins[0], t.g.const(dims, np.int64)]) if dims else t.g.node("Identity", ins)


@_rule("expand_dims")
def _expand_dims(t: _Translator, eqn: Any, ins: list) -> str:
    return t.g.node("Unsqueeze", [ins[0], t.g.const([int(d) for d in eqn.params["dimensions"]], np.int64)])


@_rule("concatenate")
def _concat(t: _Translator, eqn: Any, ins: list) -> str:
    return t.g.node("Concat", ins, axis=int(eqn.params["dimension"]))


@_rule("slice")
def _slice(t: _Translator, eqn: Any, ins: list) -> str:
    shape = eqn.invars[0].aval.shape
    starts = [int(s) for s in eqn.params["start_indices"]]
    limits = [int(s) for s in eqn.params["limit_indices"]]
    strides = eqn.params.get("strides") or [1] * len(starts)
    ends = []
    for i, (s, e, d) in enumerate(zip(starts, limits, shape)):
        if not t.g.is_symbolic(d):
            ends.append(e)
            continue
        if e == d:
            e = _INT64_MAX  # to the end, whatever the size
        elif d - _NEAR_END <= e < d:
            e = e - d  # x[:-k]: counted from the end
        if d - _NEAR_END <= s < d:
            starts[i] = s - d  # x[-k:]
        if t.g.is_symbolic(e) or t.g.is_symbolic(s):
            raise t.unsupported(eqn, f"slices a None-sized axis ({starts}:{limits} of {tuple(shape)}); export "
                                     "with that size fixed")
        ends.append(e)
    axes = list(range(len(starts)))
    return t.g.node("Slice", [ins[0], t.g.const(starts, np.int64), t.g.const(ends, np.int64),
                              t.g.const(axes, np.int64), t.g.const([int(s) for s in strides], np.int64)])


@_rule("dynamic_slice")
def _dynamic_slice(t: _Translator, eqn: Any, ins: list) -> str:
    x, *idx = ins
    shape = eqn.invars[0].aval.shape
    sizes = [int(s) for s in eqn.params["slice_sizes"]]
    starts, ends = [], []
    for i, (v, size, d) in enumerate(zip(idx, sizes, shape)):
        if t.g.is_symbolic(d) and size == d:
            starts.append(t.g.const([0], np.int64))
            ends.append(t.g.const([_INT64_MAX], np.int64))
            continue
        if t.g.is_symbolic(size):
            raise t.unsupported(eqn, f"takes a None-sized slice of axis {i}; export with that size fixed")
        hi = t.g.node("Sub", [t.g.dim_value(d), t.g.const([size], np.int64)])
        s = t.g.node("Cast", [v], to=t.g.onnx.TensorProto.INT64)  # XLA clamps the start into [0, d - size]
        s = t.g.node("Reshape", [s, t.g.const([1], np.int64)])
        s = t.g.node("Max", [t.g.node("Min", [s, hi]), t.g.const([0], np.int64)])
        starts.append(s)
        ends.append(t.g.node("Add", [s, t.g.const([size], np.int64)]))
    return t.g.node("Slice", [x, t.g.node("Concat", starts, axis=0), t.g.node("Concat", ends, axis=0),
                              t.g.const(list(range(len(sizes))), np.int64)])


@_rule("gather")
def _gather(t: _Translator, eqn: Any, ins: list) -> str:
    dn = eqn.params["dimension_numbers"]
    x, idx = ins
    shape = list(eqn.invars[0].aval.shape)
    ishape = list(eqn.invars[1].aval.shape)
    sizes = list(eqn.params["slice_sizes"])
    offset, collapsed, start_map = tuple(dn.offset_dims), tuple(dn.collapsed_slice_dims), tuple(dn.start_index_map)
    batching = tuple(getattr(dn, "operand_batching_dims", ()))
    nb = len(ishape) - 1
    if len(start_map) == 1 and not batching and ishape and ishape[-1] == 1:
        a = start_map[0]
        want_sizes = [1 if i == a else d for i, d in enumerate(shape)]
        want_offset = tuple(range(a)) + tuple(range(a + nb, len(shape) - 1 + nb))
        if collapsed == (a,) and sizes == want_sizes and offset == want_offset:
            i = t.g.node("Squeeze", [idx, t.g.const([len(ishape) - 1], np.int64)])
            i = t.g.node("Cast", [i], to=t.g.onnx.TensorProto.INT64)
            hi = t.g.node("Sub", [t.g.dim_value(shape[a]), t.g.const([1], np.int64)])  # clamp into range
            i = t.g.node("Max", [t.g.node("Min", [i, hi]), t.g.const(0, np.int64)])
            return t.g.node("Gather", [x, i], axis=a)
    raise t.unsupported(eqn, f"in this form ({dn}, slice_sizes={tuple(sizes)}) has no ONNX translation; "
                             "padax exports the take/index form (one indexed axis)")


@_rule("iota")
def _iota(t: _Translator, eqn: Any, ins: list) -> str:
    shape = [int(d) for d in eqn.params["shape"]]
    t.g.check_near(shape, eqn)
    dim = int(eqn.params["dimension"])
    dt = np.dtype(eqn.params["dtype"])
    if any(t.g.is_symbolic(d) for d in shape):  # Range over the run-time size, broadcast to the run-time shape
        g = t.g
        n = g.node("Reshape", [g.dim_value(shape[dim]), g.const([], np.int64)])
        r = g.node("Range", [g.const(0, np.int64), n, g.const(1, np.int64)])
        r = g.node("Cast", [r], to=g.h.np_dtype_to_tensor_dtype(dt))
        r = g.node("Reshape", [r, g.const([-1 if i == dim else 1 for i in range(len(shape))], np.int64)])
        return g.node("Expand", [r, g.shape_tensor(shape, [i == dim for i in range(len(shape))])])
    r = np.arange(shape[dim], dtype=dt).reshape([-1 if i == dim else 1 for i in range(len(shape))])
    return t.g.const(np.broadcast_to(r, shape).copy())


@_rule("pad")
def _pad(t: _Translator, eqn: Any, ins: list) -> str:
    cfg = [tuple(int(v) for v in c) for c in eqn.params["padding_config"]]
    if any(c[2] != 0 for c in cfg) or any(c[0] < 0 or c[1] < 0 for c in cfg):
        raise t.unsupported(eqn, f"with interior or negative padding {cfg} has no ONNX translation")
    pads = [c[0] for c in cfg] + [c[1] for c in cfg]
    return t.g.node("Pad", [ins[0], t.g.const(pads, np.int64), ins[1]], mode="constant")


@_rule("rev")
def _rev(t: _Translator, eqn: Any, ins: list) -> str:
    dims = [int(d) for d in eqn.params["dimensions"]]
    n = len(dims)
    return t.g.node("Slice", [ins[0], t.g.const([-1] * n, np.int64), t.g.const([-_INT64_MAX] * n, np.int64),
                              t.g.const(dims, np.int64), t.g.const([-1] * n, np.int64)])


@_rule("top_k")
def _top_k(t: _Translator, eqn: Any, ins: list) -> list[str]:
    vals, idx = t.g.node("TopK", [ins[0], t.g.const([int(eqn.params["k"])], np.int64)], n_out=2, axis=-1,
                         largest=1, sorted=1)
    to = t.g.h.np_dtype_to_tensor_dtype(_dtype(eqn, 1, out=True))
    return [vals, t.g.node("Cast", [idx], to=to)]


@_rule("sort")
def _sort(t: _Translator, eqn: Any, ins: list) -> list[str]:
    """Ascending along `dimension` by the first operand (TopK, smallest first: ties keep their order, so the sort
    is stable); the other operands follow the keys' permutation (argsort's iota, say)."""
    if int(eqn.params.get("num_keys", 1)) != 1:
        raise t.unsupported(eqn, "by several keys (a lexicographic sort) has no ONNX translation")
    axis = int(eqn.params["dimension"])
    size = t.g.dim_value(int(eqn.invars[0].aval.shape[axis]))
    vals, idx = t.g.node("TopK", [ins[0], size], n_out=2, axis=axis, largest=0, sorted=1)
    return [vals] + [t.g.node("GatherElements", [x, idx], axis=axis) for x in ins[1:]]


# linear algebra
@_rule("dot_general")
def _dot(t: _Translator, eqn: Any, ins: list) -> str:
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    lc, rc, lb, rb = (tuple(int(v) for v in s) for s in (lc, rc, lb, rb))
    lhs, rhs = eqn.invars[0].aval, eqn.invars[1].aval
    ln, rn = len(lhs.shape), len(rhs.shape)
    nb = len(lb)
    out_dt = _dtype(eqn, 0, out=True)
    if (lb == rb == tuple(range(nb)) and len(lc) == 1 and len(rc) == 1 and lc[0] == ln - 1
            and ((rn == nb + 2 and rc[0] == nb) or (nb == 0 and rn == 2 and rc[0] == 0))
            and (nb == 0 or ln == nb + 2)):
        out = t.g.node("MatMul", ins)
    else:
        letters = iter("abcdefghijklmnopqrstuvwxyz")
        ls = [next(letters) for _ in range(ln)]
        rs = [""] * rn
        for a, b in zip(lb, rb):
            rs[b] = ls[a]
        for a, b in zip(lc, rc):
            rs[b] = ls[a]
        for i in range(rn):
            if not rs[i]:
                rs[i] = next(letters)
        out_s = [ls[a] for a in lb] + [ls[i] for i in range(ln) if i not in lb and i not in lc] + \
                [rs[i] for i in range(rn) if i not in rb and i not in rc]
        out = t.g.node("Einsum", ins, equation=f"{''.join(ls)},{''.join(rs)}->{''.join(out_s)}")
    if np.dtype(lhs.dtype) != out_dt:
        out = t.g.node("Cast", [out], to=t.g.h.np_dtype_to_tensor_dtype(out_dt))
    return out


@_rule("conv_general_dilated")
def _conv(t: _Translator, eqn: Any, ins: list) -> str:
    p = eqn.params
    dn = p["dimension_numbers"]
    if int(p.get("batch_group_count", 1)) != 1:
        raise t.unsupported(eqn, "with batch_group_count > 1 has no ONNX translation")
    pads = [tuple(int(v) for v in pp) for pp in p["padding"]]
    if any(a < 0 or b < 0 for a, b in pads):
        raise t.unsupported(eqn, f"with negative padding {pads} has no ONNX translation")
    lhs_spec, rhs_spec, out_spec = (tuple(int(v) for v in s) for s in (dn.lhs_spec, dn.rhs_spec, dn.out_spec))
    x, w = ins
    if lhs_spec != tuple(range(len(lhs_spec))):
        x = t.g.node("Transpose", [x], perm=list(lhs_spec))
    if rhs_spec != tuple(range(len(rhs_spec))):
        w = t.g.node("Transpose", [w], perm=list(rhs_spec))
    lhs_dil = [int(d) for d in p["lhs_dilation"]]
    if any(d != 1 for d in lhs_dil):
        out = _conv_transpose(t, eqn, x, w, lhs_dil, pads)
    else:
        out = t.g.node("Conv", [x, w], strides=[int(s) for s in p["window_strides"]],
                       pads=[a for a, _ in pads] + [b for _, b in pads],
                       dilations=[int(d) for d in p["rhs_dilation"]], group=int(p["feature_group_count"]))
    if out_spec != tuple(range(len(out_spec))):
        out = t.g.node("Transpose", [out], perm=list(np.argsort(out_spec)))
    return out


def _conv_transpose(t: _Translator, eqn: Any, x: str, w: str, lhs_dil: list, pads: list) -> str:
    """A convolution of the input dilated by `lhs_dil` (a transposed convolution) as ONNX ConvTranspose: the
    kernel flipped and its (out, in/groups) axes regrouped to (in, out/groups)."""
    p = eqn.params
    if any(int(s) != 1 for s in p["window_strides"]):
        raise t.unsupported(eqn, "with both lhs_dilation and window strides has no ONNX translation")
    rhs = eqn.invars[1].aval.shape
    spec = tuple(int(v) for v in p["dimension_numbers"].rhs_spec)
    o, i_g, *k = (int(rhs[a]) for a in spec)
    rd = [int(d) for d in p["rhs_dilation"]]
    groups = int(p["feature_group_count"])
    k_eff = [(kk - 1) * d + 1 for kk, d in zip(k, rd)]
    t_pads = [ke - 1 - lo for ke, (lo, _) in zip(k_eff, pads)] + [ke - 1 - hi for ke, (_, hi) in zip(k_eff, pads)]
    n = len(k)
    extra = [max(0, -v) for v in t_pads[n:]]  # an end pad past the kernel: output_padding
    t_pads = t_pads[:n] + [max(0, v) for v in t_pads[n:]]
    if any(v < 0 for v in t_pads):
        raise t.unsupported(eqn, f"with lhs_dilation and padding {pads} wider than the kernel at the start has "
                                 "no ONNX translation")
    g = t.g
    sp = list(range(2, 2 + n))
    w = g.node("Slice", [w, g.const([-1] * n, np.int64), g.const([-_INT64_MAX] * n, np.int64),
                         g.const(sp, np.int64), g.const([-1] * n, np.int64)])
    w = g.node("Reshape", [w, g.const([groups, o // groups, i_g, *k], np.int64)])
    w = g.node("Transpose", [w], perm=[0, 2, 1, *range(3, 3 + n)])
    w = g.node("Reshape", [w, g.const([groups * i_g, o // groups, *k], np.int64)])
    attrs = {"output_padding": extra} if any(extra) else {}
    return g.node("ConvTranspose", [x, w], strides=lhs_dil, pads=t_pads, dilations=rd, group=groups, **attrs)


def _pool(kind: str) -> Callable:
    def rule(t: _Translator, eqn: Any, ins: list) -> str:
        p = eqn.params
        win = [int(v) for v in p["window_dimensions"]]
        n = len(win)
        strides = [int(v) for v in p["window_strides"]]
        pads = [tuple(int(v) for v in pp) for pp in p["padding"]]
        wdil = [int(v) for v in p.get("window_dilation") or [1] * n]
        bdil = [int(v) for v in p.get("base_dilation") or [1] * n]
        trivial = [i for i in range(n) if win[i] == 1 and strides[i] == 1 and pads[i] == (0, 0) and wdil[i] == 1]
        if len(trivial) < 2 or n < 3 or any(b != 1 for b in bdil) or any(a < 0 or b < 0 for a, b in pads):
            raise t.unsupported(eqn, f"over window {win} (strides {strides}, padding {pads}, base dilation {bdil}) "
                                     "has no ONNX translation: padax exports pooling windows that leave two axes "
                                     "(batch and channels) alone")
        if kind == "sum" and _dtype(eqn).kind != "f":
            raise t.unsupported(eqn, f"of {_dtype(eqn).name} has no ONNX translation (AveragePool is for floats)")
        perm = trivial[:2] + [i for i in range(n) if i not in trivial[:2]]
        sp = perm[2:]
        attrs = dict(kernel_shape=[win[i] for i in sp], strides=[strides[i] for i in sp],
                     pads=[pads[i][0] for i in sp] + [pads[i][1] for i in sp])
        if any(wdil[i] != 1 for i in sp):
            if kind == "sum" and t.g.opset < 19:
                raise t.unsupported(eqn, "with window dilation needs opset_version >= 19")
            attrs["dilations"] = [wdil[i] for i in sp]
        x = ins[0]
        if perm != list(range(n)):
            x = t.g.node("Transpose", [x], perm=perm)
        if kind == "max":
            out = t.g.node("MaxPool", [x], **attrs)
        elif kind == "min":
            out = t.g.node("Neg", [t.g.node("MaxPool", [t.g.node("Neg", [x])], **attrs)])
        else:
            avg = t.g.node("AveragePool", [x], count_include_pad=1, **attrs)
            out = t.g.node("Mul", [avg, t.g.const(float(np.prod(win)), _dtype(eqn))])
        if perm != list(range(n)):
            out = t.g.node("Transpose", [out], perm=[int(i) for i in np.argsort(perm)])
        return out
    return rule


_RULES.update(reduce_window_max=_pool("max"), reduce_window_min=_pool("min"), reduce_window_sum=_pool("sum"))


_UNROLL_MAX = 16


@_rule("scan")
def _scan(t: _Translator, eqn: Any, ins: list) -> list[str]:
    """Unrolled (one copy of the body per step) for a fixed length up to 16; an ONNX Loop otherwise."""
    p = eqn.params
    length, nc, ncarry = int(p["length"]), int(p["num_consts"]), int(p["num_carry"])
    closed = p["jaxpr"]
    body = closed.jaxpr
    if t.g.is_symbolic(length) or length > _UNROLL_MAX:
        return _scan_loop(t, eqn, ins)
    cnames = [t.g.const(np.asarray(c)) for c in closed.consts]
    consts, carry, xs = ins[:nc], ins[nc:nc + ncarry], ins[nc + ncarry:]
    ys_steps: list[list[str]] = [[] for _ in range(length)]
    steps = range(length - 1, -1, -1) if p.get("reverse", False) else range(length)
    for step in steps:
        x_t = [t.g.node("Gather", [x, t.g.const(step, np.int64)], axis=0) for x in xs]
        outs = t.run(body, cnames, [*consts, *carry, *x_t])
        carry = outs[:ncarry]
        ys_steps[step] = outs[ncarry:]
    n_ys = len(eqn.outvars) - ncarry
    ys = []
    for k in range(n_ys):
        parts = [t.g.node("Unsqueeze", [ys_steps[s][k], t.g.const([0], np.int64)]) for s in range(length)]
        ys.append(t.g.node("Concat", parts, axis=0) if length else t.g.const(
            np.zeros(eqn.outvars[ncarry + k].aval.shape, eqn.outvars[ncarry + k].aval.dtype)))
    return [*carry, *ys]


def _scan_loop(t: _Translator, eqn: Any, ins: list) -> list[str]:
    """scan as an ONNX Loop: the trip count is the run-time length; the body reads the consts and the xs from the
    outer graph; the ys are the Loop's scan outputs (reversed afterwards for a reverse scan)."""
    g, h, tp = t.g, t.g.h, t.g.onnx.TensorProto
    p = eqn.params
    length, nc, ncarry = int(p["length"]), int(p["num_consts"]), int(p["num_carry"])
    reverse = bool(p.get("reverse", False))
    closed = p["jaxpr"]
    cnames = [g.const(np.asarray(c)) for c in closed.consts]
    consts, carry, xs = ins[:nc], ins[nc:nc + ncarry], ins[nc + ncarry:]
    trips = g.node("Reshape", [g.dim_value(length), g.const([], np.int64)])
    outer_nodes, outer_cache = g.nodes, dict(g.sym_cache)
    g.nodes = []
    it, cond = g.fresh("iter"), g.fresh("cond")
    carry_in = [g.fresh("carry") for _ in carry]
    idx = g.node("Sub", [g.node("Sub", [trips, g.const(1, np.int64)]), it]) if reverse else it
    x_t = [g.node("Gather", [x, idx], axis=0) for x in xs]
    outs = t.run(closed.jaxpr, cnames, [*consts, *carry_in, *x_t])
    body_outs = [g.node("Identity", [cond])] + [g.node("Identity", [o]) for o in outs]
    body_nodes = g.nodes
    g.nodes, g.sym_cache = outer_nodes, outer_cache

    def info(name: str, aval: Any) -> Any:
        return h.make_tensor_value_info(name, h.np_dtype_to_tensor_dtype(np.dtype(aval.dtype)), None)

    body_in = [h.make_tensor_value_info(it, tp.INT64, []), h.make_tensor_value_info(cond, tp.BOOL, [])]
    body_in += [info(n, v.aval) for n, v in zip(carry_in, closed.jaxpr.invars[nc:nc + ncarry])]
    body_out = [h.make_tensor_value_info(body_outs[0], tp.BOOL, [])]
    body_out += [info(n, v.aval) for n, v in zip(body_outs[1:], closed.jaxpr.outvars)]
    graph = h.make_graph(body_nodes, g.fresh("scan_body"), body_in, body_out)
    results = g.node("Loop", [trips, g.const(True, np.bool_), *carry], n_out=len(eqn.outvars), body=graph)
    results = [results] if isinstance(results, str) else list(results)
    if reverse:
        for k in range(ncarry, len(results)):
            results[k] = g.node("Slice", [results[k], g.const([-1], np.int64), g.const([-_INT64_MAX], np.int64),
                                          g.const([0], np.int64), g.const([-1], np.int64)])
    return results


def _inputs(n: Any) -> list[str]:
    """A node's inputs and the outer names its subgraphs (a Loop's body) read."""
    names = list(n.input)
    for a in n.attribute:
        if a.type == a.GRAPH:
            names += [i for sub in a.g.node for i in _inputs(sub)]
    return names


def _live(nodes: list, outputs: Sequence[str]) -> list:
    """The nodes the outputs depend on (a check's index computation, say, is dropped)."""
    need = set(outputs)
    kept = []
    for n in reversed(nodes):
        if any(o in need for o in n.output):
            kept.append(n)
            need.update(_inputs(n))
    return kept[::-1]


# -- export --------------------------------------------------------------------------------------

def _spec(s: Any, i: int) -> InputSpec:
    if isinstance(s, InputSpec):
        return s
    if hasattr(s, "shape") and hasattr(s, "dtype"):
        return InputSpec(tuple(s.shape), s.dtype)
    raise TypeError(f"padax.onnx.export: input_spec[{i}] must be an InputSpec, a Tensor or an array with .shape "
                    f"and .dtype, got {type(s).__name__}")


def _key_name(k: Any) -> str:
    for attr in ("name", "key", "idx"):
        if hasattr(k, attr):
            return str(getattr(k, attr))
    return str(k)


def _arg_names(layer: Any, n: int) -> list[str]:
    import inspect
    target = type(layer).forward if isinstance(layer, padax.nn.Layer) else layer
    try:
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        params = []
    if isinstance(layer, padax.nn.Layer):
        params = params[1:]
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][:n]
    return names if len(names) == n and len(set(names)) == n else [f"x{i}" for i in range(n)]


def _placeholders(in_names: Sequence[str], specs: Sequence[InputSpec], shared: bool) -> tuple[list, list, list]:
    """The inputs' avals with a placeholder size for each None (shared: the same one for every input's None at
    the same axis), the symbols' sources (input, axis) and dim_param names."""
    sym_sources: list[tuple[str, int]] = []
    sym_names: list[str] = []
    by_axis: dict[int, int] = {}
    avals = []
    for name, s in zip(in_names, specs):
        shape = []
        for axis, d in enumerate(s.shape):
            if d is not None and d >= 0:
                shape.append(int(d))
                continue
            if shared and axis in by_axis:
                shape.append(_PLACEHOLDERS[by_axis[axis]])
                continue
            if len(sym_sources) == len(_PLACEHOLDERS):
                raise ValueError(f"padax.onnx.export: at most {len(_PLACEHOLDERS)} None sizes")
            by_axis[axis] = len(sym_sources)
            shape.append(_PLACEHOLDERS[len(sym_sources)])
            sym_sources.append((name, axis))
            sym_names.append(f"{name}_dim{axis}")
        avals.append(padax.ShapeDtypeStruct(tuple(shape), dtypes.canonicalize_dtype(s.dtype)))
    return avals, sym_sources, sym_names


def _tracer(layer: Any) -> Callable:
    """avals -> (closed jaxpr, state names, state arrays): a Layer's state_dict entries are leading inputs."""
    if not isinstance(layer, padax.nn.Layer):
        return lambda avals: (padax.make_jaxpr(layer)(*avals), [], [])
    pairs, treedef = tree.flatten_with_path(layer)
    names = [".".join(_key_name(k) for k in p) for p, _ in pairs]
    leaves = [leaf for _, leaf in pairs]
    state = layer.state_dict()
    slots = [i for i, n in enumerate(names) if n in state and leaves[i] is not None]
    state_names = [names[i] for i in slots]
    state_values = [np.asarray(leaves[i]) for i in slots]
    k = len(slots)

    def fn(*args: Any) -> Any:
        full = list(leaves)
        for j, i in enumerate(slots):
            full[i] = args[j]
        return tree.unflatten(treedef, full)(*args[k:])

    state_avals = [padax.ShapeDtypeStruct(v.shape, v.dtype) for v in state_values]
    return lambda avals: (padax.make_jaxpr(fn)(*state_avals, *avals), state_names, state_values)


def export(layer: Any, path: str, input_spec: Sequence[Any] | None = None, opset_version: int = DEFAULT_OPSET,
           **configs: Any) -> None:
    """Trace `layer(*inputs)` at `input_spec` and write the program as an ONNX model to `path + ".onnx"`.

    A `padax.nn.Layer`'s `state_dict` becomes the graph's initializers (same names); other captured
    arrays become initializers too. A None size in an InputSpec becomes a symbolic dimension. Needs the
    `onnx` package. Paddle's default `opset_version` is 9; padax writes opset 13 or later (default 17).

    Args:
        layer: a `padax.nn.Layer` (call `eval()` first) or a function of arrays.
        path: the file name; `.onnx` is added unless it ends so.
        input_spec: one `InputSpec` (or example array) per positional input.
        opset_version: the ONNX opset (13 to the installed onnx's latest).
        **configs: `output_spec` is not supported (all outputs are written).

    Returns:
        None; the file is written atomically.

    Examples:
        >>> import os, tempfile, padax
        >>> from padax.static import InputSpec
        >>> model = padax.nn.Linear(4, 2)
        >>> with tempfile.TemporaryDirectory() as d:
        ...     padax.onnx.export(model, os.path.join(d, "linear"), [InputSpec([None, 4], "float32", "x")])
        ...     import onnx  # the optional extra: pip install 'padax[onnx]'
        ...     graph = onnx.load(os.path.join(d, "linear.onnx")).graph
        >>> [d.dim_param or d.dim_value for d in graph.input[0].type.tensor_type.shape.dim]
        ['x_dim0', 4]
        >>> sorted(i.name for i in graph.initializer if i.name in model.state_dict())
        ['bias', 'weight']
    """
    if configs:
        raise TypeError(f"padax.onnx.export: unsupported options {sorted(configs)}")
    onnx = _onnx()
    if not MIN_OPSET <= int(opset_version) <= onnx.defs.onnx_opset_version():
        raise ValueError(f"padax.onnx.export: opset_version={opset_version}; padax writes opsets {MIN_OPSET} to "
                         f"{onnx.defs.onnx_opset_version()} (the installed onnx's latest)")
    if input_spec is None:
        input_spec = getattr(layer, "_padax_input_spec", None)
        if input_spec is None:
            raise TypeError("padax.onnx.export: give input_spec (one InputSpec per input)")
    specs = [_spec(s, i) for i, s in enumerate(input_spec)]
    arg_names = _arg_names(layer, len(specs))
    in_names = [s.name or a for s, a in zip(specs, arg_names)]
    if len(set(in_names)) != len(in_names):
        in_names = [f"x{i}" for i in range(len(specs))]

    trace = _tracer(layer)
    try:
        avals, sym_sources, sym_names = _placeholders(in_names, specs, shared=False)
        closed, state_names, state_values = trace(avals)
    except Exception:  # the None sizes may have to agree (two inputs' batch): one symbol per axis position
        avals, sym_sources, sym_names = _placeholders(in_names, specs, shared=True)
        if len(sym_sources) == sum(d is None or d < 0 for s in specs for d in s.shape):
            raise
        closed, state_names, state_values = trace(avals)

    g = _Graph(onnx, int(opset_version), sym_sources, sym_names)
    g.used.update(in_names)
    init_names = [g.initializer(v, n) for n, v in zip(state_names, state_values)]
    const_names = [g.initializer(np.asarray(c), g.fresh("const")) for c in closed.consts]
    jaxpr = closed.jaxpr
    traced = closed.in_avals[len(init_names):]
    args = []
    for name, spec, aval in zip(in_names, specs, traced):  # an int64 id input, traced as int32 (x64 off)
        want = np.dtype(spec.dtype)
        args.append(name if want == np.dtype(aval.dtype) else
                    g.node("Cast", [name], to=g.h.np_dtype_to_tensor_dtype(np.dtype(aval.dtype))))
    try:
        outs = _Translator(g).run(jaxpr, const_names, init_names + args)
    except UnsupportedPrimitiveError as e:
        if isinstance(layer, padax.nn.Layer) and any(sub.training for sub in layer.sublayers(include_self=True)):
            raise UnsupportedPrimitiveError(f"{e}. The layer is in training mode (Dropout draws random numbers, "
                                            "BatchNorm updates its statistics): call layer.eval() before "
                                            "exporting") from e
        raise

    h = onnx.helper

    def value_info(name: str, aval: Any) -> Any:
        shape = [g.dim_label(int(d)) for d in aval.shape]
        return h.make_tensor_value_info(name, h.np_dtype_to_tensor_dtype(np.dtype(aval.dtype)), shape)

    inputs = [h.make_tensor_value_info(n, h.np_dtype_to_tensor_dtype(np.dtype(s.dtype)),
                                       [g.dim_label(int(d)) for d in a.shape])
              for n, s, a in zip(in_names, specs, traced)]
    out_names = []
    for i, name in enumerate(outs):
        final = f"output_{i}"
        g.nodes.append(h.make_node("Identity", [name], [final], name=g.fresh("n_output")))
        out_names.append(final)
    outputs = [value_info(n, a) for n, a in zip(out_names, closed.out_avals)]
    g.nodes = _live(g.nodes, out_names)
    needed = {i for n in g.nodes for i in _inputs(n)}
    g.inits = [i for i in g.inits if i.name in needed or i.name in init_names]
    graph = h.make_graph(g.nodes, type(layer).__name__ if isinstance(layer, padax.nn.Layer) else
                         getattr(layer, "__name__", "padax_program"), inputs, outputs, initializer=g.inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", int(opset_version))],
                         producer_name="padax", producer_version=str(padax.__version__))
    model.ir_version = min(model.ir_version, 10)
    onnx.checker.check_model(model)
    file = os.fspath(path)
    if not file.endswith(SUFFIX):
        file += SUFFIX
    atomic_write(file, model.SerializeToString())
