"""Loading a compiled extension: its ops (PD_BUILD_OP) as padax functions over `padax.ffi.ffi_call`.

The library exports (paddle/padax_ext_abi.h) `padax_ext_ops_json` (each op's inputs, outputs and attributes),
`padax_ext_infer` (its infer-shape/dtype functions) and `padax_ext_handler`, one XLA FFI handler for all its
ops, registered here as the custom-call target `padax_ext_<name>_<hash>`; a call passes the op's index and
its attributes (one text line each, in declared order) as FFI attributes. An op with a PD_BUILD_GRAD_OP
becomes a `padax.custom_vjp` whose backward pass calls the grad op; its infer-shape function is the call's
abstract evaluation (run when the call is traced). Under vmap the kernel runs once per batch element.
"""
from __future__ import annotations

import ctypes
import json
import threading
import types
from typing import Any, Callable

import numpy as np

import padax
import padax.ffi

_CODES = {"bool": 1, "int8": 2, "int16": 3, "int32": 4, "int64": 5, "uint8": 6, "uint16": 7, "uint32": 8,
          "uint64": 9, "float16": 10, "float32": 11, "float64": 12, "complex64": 15, "bfloat16": 16,
          "complex128": 18}
_NAMES = {v: k for k, v in _CODES.items()}

_lock = threading.Lock()
_libraries: dict[str, "Library"] = {}  # library path -> the loaded library (one per process)


class OpError(ValueError):
    """An extension op was called with inputs or attributes it does not accept (named in the message)."""


def _grad_name(name: str) -> str:
    return name + "@GRAD"


# ---- attributes: declared as "name: type"; sent as one text line each --------------------------------------

_SCALARS = {"bool": "bool", "int": "int", "int64_t": "int", "long": "int", "float": "float", "double": "float",
            "std::string": "str"}


def _parse_attr(decl: str, op: str) -> tuple[str, str, bool]:
    """'epsilon: float' -> ('epsilon', 'float', False); vectors -> (name, element kind, True)."""
    name, sep, typ = decl.partition(":")
    typ = typ.strip().replace(" ", "")
    if not sep or not name.strip():
        raise OpError(f"op {op!r}: attribute declaration {decl!r} is not of the form 'name: type'")
    if typ.startswith("std::vector<") and typ.endswith(">"):
        inner = typ[len("std::vector<"):-1]
        if inner in _SCALARS:
            return name.strip(), _SCALARS[inner], True
    elif typ in _SCALARS:
        return name.strip(), _SCALARS[typ], False
    raise OpError(f"op {op!r}: attribute {name.strip()!r} has type {typ!r}, which padax does not support (use "
                  "bool, int, int64_t, float, double, std::string or a std::vector of them)")


def _scalar_text(v: Any, kind: str, op: str, name: str) -> str:
    try:
        if kind == "bool":
            return "1" if bool(v) else "0"
        if kind == "int":
            if isinstance(v, float) and not float(v).is_integer():
                raise TypeError
            return str(int(v))
        if kind == "float":
            return repr(float(v))
        if not isinstance(v, str):
            raise TypeError
        return v.encode().hex()
    except (TypeError, ValueError):
        hint = ""
        if hasattr(v, "shape") and hasattr(v, "dtype"):
            hint = (" (attributes are compiled into the program: pass a Python value; under jit, mark the "
                    "argument static with static_argnums/static_argnames)")
        raise OpError(f"op {op!r}: attribute {name!r} must be {kind}, got {type(v).__name__} {v!r}{hint}") from None


def _attr_text(v: Any, kind: str, vector: bool, op: str, name: str) -> str:
    if not vector:
        return _scalar_text(v, kind, op, name)
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
        raise OpError(f"op {op!r}: attribute {name!r} must be a list of {kind}, got {type(v).__name__} {v!r}")
    return " ".join(_scalar_text(x, kind, op, name) for x in v)


# ---- the library ------------------------------------------------------------------------------------------

class Library:
    """A loaded extension library: its ops' declarations and its registered FFI target."""

    def __init__(self, path: str, name: str, digest: str):
        self.path, self.name = path, name
        self.cdll = ctypes.CDLL(path)
        try:
            self.cdll.padax_ext_ops_json.restype = ctypes.c_char_p
            infer = self.cdll.padax_ext_infer
        except AttributeError:
            raise OpError(f"{path} is not a padax C++ extension (it does not export padax_ext_ops_json; "
                          "its sources must include \"paddle/extension.h\")") from None
        infer.restype = ctypes.c_int
        infer.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64),
                          ctypes.POINTER(ctypes.c_int), ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                          ctypes.c_size_t]
        self._infer = infer
        self.ops = json.loads(self.cdll.padax_ext_ops_json().decode())
        self.index = {o["name"]: i for i, o in enumerate(self.ops)}
        self.target = f"padax_ext_{name}_{digest}"
        padax.ffi.register_ffi_target(self.target, padax.ffi.pycapsule(self.cdll.padax_ext_handler), platform="cpu")
        cuda = getattr(self.cdll, "padax_ext_cuda_handler", None)  # built from .cu sources (CUDAExtension)
        if cuda is not None:
            padax.ffi.register_ffi_target(self.target, padax.ffi.pycapsule(cuda), platform="cuda")
        self._infer_cache: dict = {}

    def infer(self, op: int, shapes: list[tuple], dtypes: list[np.dtype], attrs: str) -> list:
        """ShapeDtypeStructs of op #op's outputs (its infer-shape/dtype functions, cached)."""
        key = (op, tuple(shapes), tuple(dtypes), attrs)
        hit = self._infer_cache.get(key)
        if hit is not None:
            return hit
        n = len(shapes)
        ranks = (ctypes.c_int64 * max(n, 1))(*[len(s) for s in shapes])
        flat = [int(d) for s in shapes for d in s]
        dims = (ctypes.c_int64 * max(len(flat), 1))(*flat)
        codes = (ctypes.c_int * max(n, 1))(*[_CODES[d.name] for d in dtypes])
        data = attrs.encode()
        size = 1 << 14
        while True:
            buf = ctypes.create_string_buffer(size)
            rc = self._infer(op, n, ranks, dims, codes, data, len(data), buf, size)
            if rc != 2:
                break
            size *= 4
        text = buf.value.decode(errors="replace")
        name = self.ops[op]["name"]
        if rc != 0:
            raise OpError(f"op {name!r} (from {self.name}): its infer-shape/dtype functions rejected the inputs "
                          f"{_describe(shapes, dtypes, self.ops[op]['inputs'])}: {text}")
        outs = []
        for line in text.strip().splitlines():
            code, rank, *ds = (int(w) for w in line.split())
            if code not in _NAMES or len(ds) != rank or any(d < 0 for d in ds):
                raise OpError(f"op {name!r}: its infer-shape/dtype functions returned an invalid output "
                              f"(dtype code {code}, shape {ds}); set the output shapes and dtypes explicitly")
            outs.append(padax.ShapeDtypeStruct(tuple(ds), np.dtype(_NAMES[code])))
        if len(self._infer_cache) > 4096:
            self._infer_cache.clear()
        self._infer_cache[key] = outs
        return outs


def _describe(shapes, dtypes, names) -> str:
    return ", ".join(f"{n}={np.dtype(d).name}{list(s)}" for n, s, d in zip(names, shapes, dtypes))


def load_library(path: str, name: str, digest: str) -> Library:
    with _lock:
        lib = _libraries.get(path)
        if lib is None:
            lib = _libraries[path] = Library(path, name, digest)
        return lib


# ---- op functions -----------------------------------------------------------------------------------------

class _Op:
    """One forward op of a library, callable on padax arrays."""

    def __init__(self, lib: Library, idx: int):
        self.lib, self.idx = lib, idx
        info = lib.ops[idx]
        self.name = info["name"]
        if info["unsupported"]:
            self.unsupported = f"op {self.name!r} uses {info['unsupported']}"
        else:
            self.unsupported = None
        self.inputs, self.outputs = info["inputs"], info["outputs"]
        self.attrs = [_parse_attr(a, self.name) for a in info["attrs"]]
        gidx = lib.index.get(self.name + "_grad")
        self.grad = lib.ops[gidx] if gidx is not None else None
        self.grad_idx = gidx
        self._vjp_cache: dict[str, Callable] = {}

    def call_raw(self, idx: int, xs: list, attr_text: str, outs: list | None = None) -> list:
        """Run op #idx of the library on arrays `xs` (its outputs `outs`, or inferred from the inputs')."""
        if outs is None or self.lib.ops[idx]["infer_shape"]:
            outs = self.lib.infer(idx, [tuple(x.shape) for x in xs], [np.dtype(x.dtype) for x in xs], attr_text)
        res = padax.ffi.ffi_call(self.lib.target, tuple(outs), vmap_method="sequential")(
            *xs, op=idx, attrs=attr_text)
        return list(res)

    def bind_args(self, args: tuple, kwargs: dict) -> tuple[list, dict]:
        n_in = len(self.inputs)
        names = [a[0] for a in self.attrs]
        if len(args) > n_in + len(names):
            raise OpError(f"op {self.name!r} takes {n_in} inputs ({', '.join(self.inputs)}) and {len(names)} "
                          f"attributes, got {len(args)} positional arguments")
        vals: dict[str, Any] = {}
        lower = {s.lower(): s for s in self.inputs}
        xs: list = list(args[:n_in])
        for k, v in kwargs.items():
            if k in names:
                vals[k] = v
            elif k in self.inputs or k in lower:
                pos = self.inputs.index(lower.get(k, k))
                while len(xs) <= pos:
                    xs.append(None)
                xs[pos] = v
            else:
                raise OpError(f"op {self.name!r} has no input or attribute {k!r} (inputs: {', '.join(self.inputs)}; "
                              f"attributes: {', '.join(names) or 'none'})")
        for name, v in zip(names, args[n_in:]):
            vals[name] = v
        if len(xs) != n_in or any(x is None for x in xs):
            missing = [n for i, n in enumerate(self.inputs) if i >= len(xs) or xs[i] is None]
            raise OpError(f"op {self.name!r}: missing input(s) {', '.join(missing)}")
        missing = [n for n in names if n not in vals]
        if missing:
            raise OpError(f"op {self.name!r}: missing attribute(s) {', '.join(missing)} (declared "
                          f"{', '.join(self.lib.ops[self.idx]['attrs'])})")
        arrays = []
        for n, x in zip(self.inputs, xs):
            x = x if hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, np.ndarray) else padax.to_tensor(x)
            if np.dtype(x.dtype).name not in _CODES:
                raise OpError(f"op {self.name!r}: input {n} has dtype {np.dtype(x.dtype).name}, which the kernel "
                              "API cannot pass")
            arrays.append(x)
        return arrays, vals

    def attr_text(self, vals: dict, decls=None) -> str:
        decls = self.attrs if decls is None else decls
        return "".join(_attr_text(vals[n], k, v, self.name, n) + "\n" for n, k, v in decls)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.unsupported:
            raise OpError(self.unsupported)
        xs, vals = self.bind_args(args, kwargs)
        text = self.attr_text(vals)
        if self.grad is None:
            outs = self.call_raw(self.idx, xs, text)
        else:
            outs = list(self._with_vjp(text, vals)(*xs))
        return outs[0] if len(outs) == 1 else outs

    def _with_vjp(self, text: str, vals: dict) -> Callable:
        f = self._vjp_cache.get(text)
        if f is not None:
            return f
        grad = self.grad
        gdecl = [_parse_attr(a, grad["name"]) for a in grad["attrs"]]
        unknown = [n for n, _, _ in gdecl if n not in vals]
        if unknown:
            raise OpError(f"grad op {grad['name']!r} declares attribute(s) {', '.join(unknown)} that the forward "
                          f"op {self.name!r} does not have")
        gtext = self.attr_text(vals, gdecl)
        fwd_names = {n: ("x", i) for i, n in enumerate(self.inputs)}
        fwd_names.update({n: ("y", i) for i, n in enumerate(self.outputs)})
        fwd_names.update({_grad_name(n): ("g", i) for i, n in enumerate(self.outputs)})
        for n in grad["inputs"]:
            if n not in fwd_names:
                raise OpError(f"grad op {grad['name']!r}: input {n!r} is neither an input, an output nor the "
                              f"gradient of an output of {self.name!r}")
        targets = []
        for n in grad["outputs"]:
            base = n[:-len("@GRAD")] if n.endswith("@GRAD") else None
            if base not in self.inputs:
                raise OpError(f"grad op {grad['name']!r}: output {n!r} must be paddle::Grad(<an input of "
                              f"{self.name!r}>)")
            targets.append(self.inputs.index(base))

        def forward(*xs):
            return tuple(self.call_raw(self.idx, list(xs), text))

        op = padax.custom_vjp(forward)

        def fwd(*xs):
            ys = forward(*xs)
            return ys, (xs, ys)

        def bwd(res, cts):
            xs, ys = res
            pick = {"x": xs, "y": ys, "g": cts}
            gin = []
            for n in grad["inputs"]:
                kind, i = fwd_names[n]
                v = pick[kind][i]
                gin.append(padax.zeros(ys[i].shape, ys[i].dtype) if v is None else v)
            # Grad(X) has X's shape and dtype (unless the grad op infers its own)
            like = [padax.ShapeDtypeStruct(tuple(xs[t].shape), xs[t].dtype) for t in targets]
            gs = self.call_raw(self.grad_idx, gin, gtext, like)
            out: list = [None] * len(xs)
            for t, g in zip(targets, gs):
                out[t] = g
            return tuple(out)

        op.defvjp(fwd, bwd)
        self._vjp_cache[text] = op
        return op


def make_module(lib: Library, module_name: str, build: str) -> types.ModuleType:
    """A module holding one padax function per forward op of `lib` (Paddle's generated Python API)."""
    mod = types.ModuleType(module_name, f"padax C++ extension {module_name!r} ({lib.path})")
    mod.__file__ = lib.path
    names = []
    for i, info in enumerate(lib.ops):
        if info["name"].endswith("_grad") and info["name"][:-5] in lib.index:
            continue
        op = _Op(lib, i)

        def fn(*args, _op=op, **kwargs):
            return _op(*args, **kwargs)

        fn.__name__ = fn.__qualname__ = op.name
        fn.__doc__ = (f"The C++ op {op.name!r}: inputs {', '.join(op.inputs)}; outputs {', '.join(op.outputs)}; "
                      f"attributes {', '.join(info['attrs']) or 'none'}"
                      f"{'; differentiable (PD_BUILD_GRAD_OP)' if op.grad else ''}.")
        setattr(mod, op.name, fn)
        names.append(op.name)
    mod.__all__ = names
    mod._padax_build = build  # "compiled" (this call built it) or "cached" (found in the cache)
    mod._padax_target = lib.target
    return mod
