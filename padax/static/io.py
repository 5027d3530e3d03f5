"""Saving static programs: parameters (`save`/`load`, Paddle's `.pdparams`/`.pdopt` pickles) and inference
models (`save_inference_model`/`load_inference_model`).

An inference model is the test-mode slice of a Program from its feeds to its fetches, written as
`path_prefix.pdmodel` (an npz archive holding the equations as JSON: primitive names, variable types,
params; sub-programs of jit/custom_jvp/custom_vjp inlined) and `path_prefix.pdiparams` (the parameter
values). Loading records the equations into a new Program, so it runs through `Executor.run` like any
other, None dimensions included. Reading runs no pickle and no code from the file: params are rebuilt only
from JSON values, numpy dtypes and padax's own named tuples and enums.
"""
from __future__ import annotations

import dataclasses
import enum
import importlib
import math
import os
from typing import Any, Sequence

import numpy as np

import padax
from padax.core.abstract import ShapedArray
from padax.core.primitive import registry as _primitives
from padax.extend.core import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from padax.serialization import (
    LoadError,
    array_entries,
    json_entry,
    open_archive,
    read_arrays,
    read_json,
    write_archive,
)
from padax.static.executor import Executor, global_scope
from padax.static.program import Program, StaticGraphError, Variable, add_persistable, eager
from padax.static.replay import _is_ref, gradients_p, live

FORMAT = "padax.static_inference_model"
FORMAT_VERSION = 1


# -- parameters ------------------------------------------------------------------------------

def _scope_arrays(names: Sequence[str], what: str) -> dict[str, np.ndarray]:
    scope = global_scope()
    missing = [n for n in names if n not in scope._vars]
    if missing:
        raise StaticGraphError(f"padax.static.{what}: {missing} have no value in the scope; run the startup program "
                               "first")
    return {n: np.asarray(scope._vars[n]) for n in names}


def save(program: Program, model_path: str, protocol: int = 4, **configs: Any) -> None:
    """Save the program's parameters to `model_path.pdparams` and its optimizer state to `model_path.pdopt`
    (Paddle's pickles of {name: array}, written atomically).

    Args:
        program: the Program whose persistable variables are saved (values from the global scope).
        model_path: the path without suffix.
        protocol: the pickle protocol (2, 3 or 4).

    Examples:
        >>> import os, tempfile, numpy as np, padax
        >>> padax.enable_static()
        >>> main, startup = padax.static.Program(), padax.static.Program()
        >>> with padax.static.program_guard(main, startup):
        ...     x = padax.static.data("sx", [None, 2], "float32")
        ...     y = padax.static.nn.fc(x, 1, weight_attr=padax.ParamAttr("sw"), bias_attr=False)
        >>> exe = padax.static.Executor()
        >>> _ = exe.run(startup)
        >>> with tempfile.TemporaryDirectory() as d:
        ...     padax.static.save(main, os.path.join(d, "m"))
        ...     sorted(os.listdir(d))
        ['m.pdparams']
        >>> padax.disable_static()
    """
    if configs:
        raise TypeError(f"padax.static.save: unsupported options {sorted(configs)}")
    if not isinstance(program, Program):
        raise TypeError(f"padax.static.save: program must be a Program, got {type(program).__name__}")
    params = [n for _, n in program._persistables("param")]
    state = [n for _, n in program._persistables("state")]
    _dir(model_path)
    padax.save(_scope_arrays(params, "save"), model_path + ".pdparams", protocol=protocol, format="paddle")
    if state:
        padax.save(_scope_arrays(state, "save"), model_path + ".pdopt", protocol=protocol, format="paddle")


def _dir(path: str) -> None:
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)


def load(program: Program, model_path: str, executor: Executor | None = None, var_list: Sequence[Any] | None = None) -> None:
    """Set the program's persistable variables in the global scope from `model_path.pdparams` (and `.pdopt`
    when present), checking names and shapes.

    Args:
        program: the Program whose variables are loaded.
        model_path: the path given to `save` (a suffix .pdparams is accepted).
        executor: accepted for Paddle compatibility.
        var_list: only these Variables (or names).
    """
    if not isinstance(program, Program):
        raise TypeError(f"padax.static.load: program must be a Program, got {type(program).__name__}")
    base = model_path[:-len(".pdparams")] if model_path.endswith(".pdparams") else model_path
    if not os.path.exists(base + ".pdparams"):
        raise FileNotFoundError(f"padax.static.load: no file {base + '.pdparams'!r}")
    values = dict(padax.load(base + ".pdparams", return_numpy=True))
    if os.path.exists(base + ".pdopt"):
        values.update(padax.load(base + ".pdopt", return_numpy=True))
    wanted = {v: n for v, n in program._persistables()}
    names = list(wanted.values()) if var_list is None else [x if isinstance(x, str) else x.name for x in var_list]
    scope = global_scope()
    for n in names:
        if n not in values:
            if var_list is None and program._inputs.get(program._named[n]._var, ("", ""))[1] == "state":
                continue  # a parameters-only save: the optimizer state keeps its value
            raise StaticGraphError(f"padax.static.load: {base!r} holds no value for {n!r}")
        v = program._var(n)
        arr = np.asarray(values[n])
        if tuple(arr.shape) != tuple(v.aval.shape):
            raise StaticGraphError(f"padax.static.load: {n!r} has shape {list(v.aval.shape)} in the program but "
                                   f"{list(arr.shape)} in {base!r}")
        with eager():
            scope._vars[n] = padax.to_tensor(arr.astype(v.aval.dtype, copy=False))


# -- inference models: the program as JSON -----------------------------------------------------

def _inline(eqns: Sequence[Any], alias: dict, keep: set[int] | None = None) -> list[tuple]:
    """The equations (with aliases resolved) as (primitive, invars, outvars, params), the bodies of call-like
    primitives (jit, custom_jvp, custom_vjp, remat) evaluated inline: their rules are not needed to infer."""
    out: list[tuple] = []

    def emit(es, sub, kept):
        for k, e in enumerate(es):
            if kept is not None and k not in kept:
                continue
            ins = [sub.get(alias.get(v, v), alias.get(v, v)) if isinstance(v, Var) else v for v in e.invars]
            pname = e.primitive.inline_jaxpr_param or ("call_jaxpr" if e.primitive.name == "custom_jvp_call" else None)
            if e.primitive is gradients_p:
                raise StaticGraphError("padax.static.save_inference_model: the fetched values need gradients "
                                       "(static.gradients); an inference model holds the forward program only")
            if pname is not None and isinstance(e.params.get(pname), ClosedJaxpr):
                body = e.params[pname]
                inner = dict(zip(body.jaxpr.invars, ins))
                for cv, c in zip(body.jaxpr.constvars, body.consts):
                    inner[cv] = _ConstRef(c)
                emit(body.jaxpr.eqns, inner, None)
                for o, bo in zip(e.outvars, body.jaxpr.outvars):
                    sub[o] = inner.get(bo, bo) if isinstance(bo, Var) else bo
                continue
            out.append((e.primitive, ins, list(e.outvars), e.params))

    emit(list(eqns), {}, keep)
    return out


class _ConstRef:
    """A constant of an inlined body, saved with the parameters."""

    def __init__(self, value: Any):
        self.value = value


class _Encoder:
    def __init__(self) -> None:
        self.ids: dict[Var, int] = {}
        self.vars: list = []
        self.consts: list[np.ndarray] = []
        self.const_ids: dict[int, int] = {}

    def var(self, v: Var) -> int:
        i = self.ids.get(v)
        if i is None:
            i = self.ids[v] = len(self.vars)
            a = v.aval
            self.vars.append([list(a.shape), a.dtype.name, bool(a.weak_type)])
        return i

    def atom(self, x: Any, where: str) -> dict:
        if isinstance(x, Literal):
            return {"lit": self.value(x.val, where), "aval": [list(x.aval.shape), x.aval.dtype.name,
                                                              bool(x.aval.weak_type)]}
        if isinstance(x, _ConstRef):
            k = self.const_ids.get(id(x.value))
            if k is None:
                k = self.const_ids[id(x.value)] = len(self.consts)
                self.consts.append(np.asarray(x.value))
            return {"const": k}
        return {"v": self.var(x)}

    def value(self, v: Any, where: str) -> Any:
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, int):
            return v
        if isinstance(v, float):
            return v if math.isfinite(v) else {"float": repr(v)}
        if isinstance(v, np.dtype):
            return {"dtype": v.name}
        if isinstance(v, (np.generic, np.ndarray)) and np.ndim(v) == 0:
            return {"np": np.asarray(v).dtype.name, "v": self.value(np.asarray(v).item(), where)}
        if isinstance(v, enum.Enum):
            return {"enum": _qualname(v, where), "v": v.name}
        if isinstance(v, tuple) and hasattr(v, "_fields"):
            return {"nt": _qualname(v, where), "f": [self.value(x, where) for x in v]}
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            return {"dc": _qualname(v, where), "f": {f.name: self.value(getattr(v, f.name), where)
                                                     for f in dataclasses.fields(v)}}
        if isinstance(v, tuple):
            return {"t": [self.value(x, where) for x in v]}
        if isinstance(v, list):
            return {"l": [self.value(x, where) for x in v]}
        if isinstance(v, ClosedJaxpr):
            j = v.jaxpr
            return {"jaxpr": {
                "invars": [self.var(x) for x in j.invars], "constvars": [self.var(x) for x in j.constvars],
                "consts": [self.atom(_ConstRef(c), where)["const"] for c in v.consts],
                "eqns": [self.eqn(e.primitive, e.invars, e.outvars, e.params) for e in j.eqns],
                "outvars": [self.atom(x, where) for x in j.outvars]}}
        raise StaticGraphError(f"padax.static.save_inference_model: {where} has a param of type "
                               f"{type(v).__name__} that an inference model cannot hold")

    def eqn(self, prim: Any, ins: Sequence[Any], outs: Sequence[Var], params: dict) -> dict:
        where = f"op `{prim.name}`"
        if _primitives.get(prim.name) is not prim:
            raise StaticGraphError(f"padax.static.save_inference_model: {where} is not a registered primitive")
        return {"p": prim.name, "in": [self.atom(x, where) for x in ins], "out": [self.var(o) for o in outs],
                "params": {k: self.value(p, f"{where} (param {k!r})") for k, p in params.items()}}


def _qualname(v: Any, where: str) -> str:
    cls = type(v)
    if not cls.__module__.startswith("padax."):
        raise StaticGraphError(f"padax.static.save_inference_model: {where} has a param of type "
                               f"{cls.__module__}.{cls.__qualname__} (not padax's)")
    return f"{cls.__module__}:{cls.__qualname__}"


def _class(path: str, kind: str, file: str) -> Any:
    module, _, name = path.partition(":")
    if not module.startswith("padax.") or "." in name:
        raise LoadError(f"padax.static.load_inference_model: {file!r} names the type {path!r}, not one of padax's")
    cls = getattr(importlib.import_module(module), name, None)
    ok = {"enum": lambda c: isinstance(c, type) and issubclass(c, enum.Enum),
          "nt": lambda c: isinstance(c, type) and issubclass(c, tuple) and hasattr(c, "_fields"),
          "dc": lambda c: isinstance(c, type) and dataclasses.is_dataclass(c)}[kind]
    if cls is None or not ok(cls):
        raise LoadError(f"padax.static.load_inference_model: {file!r} names the type {path!r}, which is not a "
                        "padax enum, named tuple or dataclass")
    return cls


def _feed_fetch(xs: Any, what: str) -> list[Variable]:
    xs = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    for x in xs:
        if not isinstance(x, Variable):
            raise TypeError(f"padax.static.save_inference_model: {what} must be static Variables, got "
                            f"{type(x).__name__}")
    return xs


def save_inference_model(path_prefix: str, feed_vars: Any, fetch_vars: Any, executor: Executor | None = None,
                         **kwargs: Any) -> None:
    """Save the inference program from `feed_vars` to `fetch_vars` (test mode: batch_norm with its running
    statistics, no updates) as `path_prefix.pdmodel` and its parameters as `path_prefix.pdiparams`.

    Args:
        path_prefix: the path without suffix.
        feed_vars: the data Variables the model is fed.
        fetch_vars: the Variables it returns.
        executor: accepted for Paddle compatibility (values come from the global scope).
        program: (keyword) the Program (default: the feed variables' own).

    Examples:
        >>> import os, tempfile, numpy as np, padax
        >>> padax.enable_static()
        >>> main, startup = padax.static.Program(), padax.static.Program()
        >>> with padax.static.program_guard(main, startup):
        ...     x = padax.static.data("ix", [None, 2], "float32")
        ...     y = padax.static.nn.fc(x, 1, weight_attr=padax.ParamAttr("iw"), bias_attr=False) * 2.0
        >>> exe = padax.static.Executor()
        >>> _ = exe.run(startup)
        >>> want = exe.run(main, feed={"ix": np.ones([3, 2], "float32")}, fetch_list=[y])[0]
        >>> with tempfile.TemporaryDirectory() as d:
        ...     padax.static.save_inference_model(os.path.join(d, "m"), [x], [y], exe)
        ...     prog, feeds, fetches = padax.static.load_inference_model(os.path.join(d, "m"), exe)
        ...     got = exe.run(prog, feed={feeds[0]: np.ones([3, 2], "float32")}, fetch_list=fetches)[0]
        >>> feeds, bool(np.allclose(got, want))
        (['ix'], True)
        >>> padax.disable_static()
    """
    feeds, fetches = _feed_fetch(feed_vars, "feed_vars"), _feed_fetch(fetch_vars, "fetch_vars")
    program = kwargs.pop("program", None) or feeds[0].program
    kwargs.pop("clip_extra", None), kwargs.pop("legacy_format", None)
    if kwargs:
        raise TypeError(f"padax.static.save_inference_model: unsupported options {sorted(kwargs)}")
    test = program.clone(for_test=True)
    alias = test._test_alias
    eqns = test._eqns()
    keep, need = live(eqns, [f._var for f in fetches], alias)
    feed_set = {f._var for f in feeds}
    for v, (n, k) in test._inputs.items():
        if k == "data" and v in need and v not in feed_set:
            raise StaticGraphError(f"padax.static.save_inference_model: the fetched values need the data {n!r}, "
                                   "which is not in feed_vars")
    if any(_is_ref(v) for v in need):
        raise StaticGraphError("padax.static.save_inference_model: the fetched values read a mutable ref (padax's "
                               "global random key, drawn by dropout or a random op); an inference model holds no "
                               "state: record the inference program with dropout(..., training=False)")
    flat = _inline(eqns, alias, keep)
    enc = _Encoder()
    body = [enc.eqn(p, ins, outs, params) for p, ins, outs, params in flat]
    for c, v in zip(test._trace.const_vals, test._trace.constvars):
        if v in need:
            enc.const_ids[id(c)] = len(enc.consts)
            enc.consts.append(np.asarray(c))
    top_consts = {enc.var(v): enc.const_ids[id(c)] for v, c in zip(test._trace.constvars, test._trace.const_vals)
                  if v in need}
    params = [(n, v) for v, (n, k) in test._inputs.items() if k != "data" and v in need]
    values = _scope_arrays([n for n, _ in params], "save_inference_model")
    manifest = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "padax": padax.__version__,
        "vars": None, "feeds": [[f.name, enc.var(f._var)] for f in feeds],
        "fetches": [enc.atom(alias.get(f._var, f._var), "a fetch") for f in fetches],
        "params": [[n, enc.var(v)] for n, v in params], "consts": [[k, c] for k, c in top_consts.items()],
        "eqns": body,
    }
    manifest["vars"] = enc.vars
    _dir(path_prefix)
    const_entries, const_meta = array_entries(enc.consts, "c")
    manifest["const_meta"] = const_meta
    write_archive(path_prefix + ".pdmodel", dict(manifest=json_entry(manifest), **const_entries))
    entries, meta = array_entries([values[n] for n, _ in params], "p")
    write_archive(path_prefix + ".pdiparams", dict(manifest=json_entry({"format": FORMAT + ".params", "params": meta,
                                                                         "names": [n for n, _ in params]}),
                                                   **entries))


class _Decoder:
    def __init__(self, manifest: dict, consts: list, file: str):
        self.m, self.consts, self.file = manifest, consts, file
        self.avals = [self.aval(spec) for spec in manifest["vars"]]

    def aval(self, spec: list) -> ShapedArray:
        s, d, w = spec
        return ShapedArray(tuple(s), padax.dtypes.to_dtype(d), w)

    def value(self, v: Any) -> Any:
        if not isinstance(v, dict):
            return v
        if "float" in v:
            return float(v["float"])
        if "dtype" in v:
            return padax.dtypes.to_dtype(v["dtype"])
        if "np" in v:
            return np.asarray(self.value(v["v"]), padax.dtypes.to_dtype(v["np"]))[()]
        if "enum" in v:
            return _class(v["enum"], "enum", self.file)[v["v"]]
        if "nt" in v:
            return _class(v["nt"], "nt", self.file)(*[self.value(x) for x in v["f"]])
        if "dc" in v:
            return _class(v["dc"], "dc", self.file)(**{k: self.value(x) for k, x in v["f"].items()})
        if "t" in v:
            return tuple(self.value(x) for x in v["t"])
        if "l" in v:
            return [self.value(x) for x in v["l"]]
        if "jaxpr" in v:
            return self.jaxpr(v["jaxpr"])
        raise LoadError(f"padax.static.load_inference_model: {self.file!r} holds a param it cannot read: {v!r:.80}")

    def jaxpr(self, j: dict) -> ClosedJaxpr:
        env: dict[int, Var] = {}

        def var(i: int) -> Var:
            if i not in env:
                env[i] = Var(self.avals[i])
            return env[i]

        def atom(a: dict) -> Any:
            if "v" in a:
                return var(a["v"])
            if "lit" in a:
                return Literal(self.value(a["lit"]), self.aval(a["aval"]))
            raise LoadError(f"padax.static.load_inference_model: {self.file!r}: a constant inside a sub-program")

        invars = [var(i) for i in j["invars"]]
        constvars = [var(i) for i in j["constvars"]]
        eqns = [JaxprEqn(_primitive(e["p"], self.file), [atom(a) for a in e["in"]], [var(o) for o in e["out"]],
                         {k: self.value(p) for k, p in e["params"].items()}) for e in j["eqns"]]
        return ClosedJaxpr(Jaxpr(constvars, invars, [atom(a) for a in j["outvars"]], eqns),
                           [self.consts[k] for k in j["consts"]])


def _primitive(name: str, file: str) -> Any:
    prim = _primitives.get(name)
    if prim is None:
        raise LoadError(f"padax.static.load_inference_model: {file!r} uses the op {name!r}, which this padax does "
                        "not have")
    return prim


def load_inference_model(path_prefix: str, executor: Executor | None = None, **kwargs: Any) -> list:
    """Load a model saved by `save_inference_model`: returns [program, feed names, fetch Variables], its
    parameters set in the global scope; run it with `executor.run(program, feed=..., fetch_list=fetches)`.

    Args:
        path_prefix: the path given to save_inference_model.
        executor: accepted for Paddle compatibility.

    Returns:
        [Program, list of feed names, list of fetch Variables].
    """
    file = path_prefix + ".pdmodel"
    what = "padax.static.load_inference_model"
    for f in (file, path_prefix + ".pdiparams"):
        if not os.path.exists(f):
            raise FileNotFoundError(f"{what}: no file {f!r}")
    with open_archive(file, what) as z:
        m = read_json(z, "manifest", file, what)
        if not isinstance(m, dict) or m.get("format") != FORMAT:
            raise LoadError(f"{what}: {file!r} is not a padax static inference model")
        if m.get("format_version", 0) > FORMAT_VERSION:
            raise LoadError(f"{what}: {file!r} was written by a newer padax ({m.get('padax')})")
        consts = read_arrays(z, m["const_meta"], "c", file, what)
    pfile = path_prefix + ".pdiparams"
    with open_archive(pfile, what) as z:
        pm = read_json(z, "manifest", pfile, what)
        values = read_arrays(z, pm["params"], "p", pfile, what)
    with eager():
        consts = [padax.to_tensor(c) for c in consts]
    dec = _Decoder(m, consts, file)
    prog = Program()
    startup = Program()
    env: dict[int, Any] = {}
    for name, i in m["feeds"]:
        env[i] = prog._new_input(name, dec.avals[i], "data", stop_gradient=True)
    scope = global_scope()
    for (name, i), value in zip(m["params"], values):
        env[i] = add_persistable(name, value, "param", trainable=False, program=prog, startup=startup)
        with eager():
            scope._vars[name] = padax.to_tensor(value)
    for i, k in m["consts"]:
        env[i] = consts[k]

    def atom(a: dict) -> Any:
        if "v" in a:
            return env[a["v"]]
        if "lit" in a:
            return dec.value(a["lit"])
        return consts[a["const"]]

    def record() -> None:
        for e in m["eqns"]:
            prim = _primitive(e["p"], file)
            out = prim.bind(*[atom(a) for a in e["in"]], **{k: dec.value(p) for k, p in e["params"].items()})
            for i, o in zip(e["out"], out if prim.multiple_results else [out]):
                env[i] = o

    prog._stage(record)
    fetches = []
    for a in m["fetches"]:
        f = atom(a)
        if not isinstance(f, Variable):
            f = prog._stage(lambda f=f: padax.assign(f))
        fetches.append(f)
    return [prog, [n for n, _ in m["feeds"]], fetches]


__all__ = ["FORMAT", "FORMAT_VERSION", "load", "load_inference_model", "save", "save_inference_model"]
